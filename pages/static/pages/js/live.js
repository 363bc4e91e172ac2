// Live bot tournament: polls the progress endpoint every few seconds, updates the
// figures, and swaps in fresh results whenever more games are done. Stops when the run ends.
(function () {
  "use strict";
  var panel = document.getElementById("live");
  if (!panel || !window.fetch) { return; }
  var liveUrl = panel.getAttribute("data-live-url");
  var resultsUrl = panel.getAttribute("data-results-url");
  var gamesDone = Number(panel.getAttribute("data-games-done"));
  var interval = 3000;
  var timer = null;

  function field(name) { return panel.querySelector('[data-field="' + name + '"]'); }
  function setText(name, value) {
    var node = field(name);
    if (node) { node.textContent = value === null || value === undefined ? "–" : String(value); }
  }
  function duration(seconds) {
    if (seconds === null || seconds === undefined) { return "–"; }
    var total = Math.round(seconds);
    var h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
    if (h) { return h + " h " + String(m).padStart(2, "0") + " min"; }
    if (m) { return m + " min " + String(s).padStart(2, "0") + " s"; }
    return s + " s";
  }

  function refreshResults() {
    return fetch(resultsUrl, { headers: { "Accept": "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        var results = document.getElementById("results");
        if (html !== null && results) { results.innerHTML = html; }
      });
  }

  function poll() {
    fetch(liveUrl, { headers: { "Accept": "application/json" }, cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (!data || !data.progress) { schedule(); return; }
        var p = data.progress;
        setText("games_done", p.games_done);
        setText("games_total", p.games_total);
        setText("rounds_done", p.rounds_done);
        setText("rounds_total", p.rounds_total);
        setText("games_per_second", p.games_per_second);
        setText("eta", duration(p.eta_seconds));
        setText("status", p.status);
        var bar = field("bar");
        if (bar) { bar.style.width = p.percent + "%"; }
        var progressbar = panel.querySelector('[role="progressbar"]');
        if (progressbar) { progressbar.setAttribute("aria-valuenow", String(p.percent)); }
        panel.setAttribute("data-status", p.status);
        var badge = document.getElementById("tournament-status");
        if (badge && data.status) {
          badge.textContent = data.status.charAt(0).toUpperCase() + data.status.slice(1);
          badge.className = "badge " + data.status;
        }
        var changed = p.games_done !== gamesDone;
        gamesDone = p.games_done;
        var done = p.status !== "running";
        var after = changed || done ? refreshResults() : Promise.resolve();
        after.then(function () {
          if (done) {
            setText("updated", "The run is " + p.status + ".");
          } else {
            schedule();
          }
        });
      })
      .catch(schedule);
  }

  function schedule() {
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(poll, document.hidden ? interval * 4 : interval);
  }

  if (panel.getAttribute("data-status") === "running") { schedule(); }
})();
