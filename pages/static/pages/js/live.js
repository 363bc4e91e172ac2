// A tournament's pages follow their results while the tournament runs. Every few seconds a
// page asks for its results part (the standings and current round, a round, the table)
// with the ETag of the copy it shows (If-None-Match): the server answers 304 while nothing
// changed, or the new part, which replaces the old one in place. A bot run's progress
// panel polls its figures too.
// Polling slows down while the page is hidden and stops when the tournament is over.
(function () {
  "use strict";
  var results = document.getElementById("results");
  if (!results || !window.fetch) { return; }
  var resultsUrl = results.getAttribute("data-results-url");
  var etag = results.getAttribute("data-etag") || "";
  var tournamentRunning = results.getAttribute("data-status") === "running";
  var panel = document.getElementById("live");
  var liveUrl = panel ? panel.getAttribute("data-live-url") : null;
  var runRunning = panel ? panel.getAttribute("data-status") === "running" : false;
  var note = document.getElementById("results-updated");
  var interval = panel ? 3000 : 5000;
  // The words and number style of the page's language (data attributes of #results).
  var words = {};
  try { words = JSON.parse(results.getAttribute("data-texts") || "{}"); } catch (error) { words = {}; }
  var language = document.documentElement.lang || "en";
  function say(key, fallback, values) {
    return String(words[key] || fallback).replace(/\{(\w+)\}/g, function (whole, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ? values[name] : whole;
    });
  }
  function number(value) {
    if (value === null || value === undefined) { return null; }
    try { return new Intl.NumberFormat(language).format(value); } catch (error) { return String(value); }
  }
  function statusLabel(status) { return (words.statuses || {})[status] || status; }
  var timer = null;
  var busy = false;

  function field(name) { return panel ? panel.querySelector('[data-field="' + name + '"]') : null; }
  function setText(name, value) {
    var node = field(name);
    if (node) { node.textContent = value === null || value === undefined ? "–" : String(value); }
  }
  function duration(seconds) {
    if (seconds === null || seconds === undefined) { return "–"; }
    var total = Math.round(seconds);
    var h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
    var mm = String(m).padStart(2, "0"), ss = String(s).padStart(2, "0");
    if (h) { return say("hours", "{h} h {m} min", { h: h, m: mm }); }
    if (m) { return say("minutes", "{m} min {s} s", { m: m, s: ss }); }
    return say("seconds", "{s} s", { s: s });
  }
  function clock() {
    var now = new Date();
    return [now.getHours(), now.getMinutes(), now.getSeconds()].map(function (n) {
      return String(n).padStart(2, "0");
    }).join(":");
  }

  function setBadge(status, label) {
    var badge = document.getElementById("tournament-status");
    if (badge && status) {
      badge.textContent = label || (words.tournament_statuses || {})[status] ||
        status.charAt(0).toUpperCase() + status.slice(1);
      badge.className = "badge " + status;
    }
  }

  // Swap in a new results part (each tab of the tournament's pages polls its own).
  function swap(html) {
    results.innerHTML = html;
    var state = results.querySelector("[data-tournament-status]");
    if (state) {
      var status = state.getAttribute("data-tournament-status");
      setBadge(status, state.getAttribute("data-status-label"));
      tournamentRunning = status === "running";
    }
    if (note) {
      note.textContent = tournamentRunning
        ? say("updated", "Updated at {time}.", { time: clock() })
        : say("updated_over", "Updated at {time}: the tournament is over.", { time: clock() });
    }
  }

  function refreshResults() {
    var headers = { "Accept": "text/html" };
    if (etag) { headers["If-None-Match"] = etag; }
    return fetch(resultsUrl, { headers: headers, cache: "no-store" })
      .then(function (response) {
        if (response.status === 304 || !response.ok) { return null; }
        etag = response.headers.get("ETag") || "";
        return response.text();
      })
      .then(function (html) { if (html !== null) { swap(html); } });
  }

  function refreshProgress() {
    if (!liveUrl || !runRunning) { return Promise.resolve(); }
    return fetch(liveUrl, { headers: { "Accept": "application/json" }, cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (!data || !data.progress) { return; }
        var p = data.progress;
        setText("games_done", number(p.games_done));
        setText("games_total", number(p.games_total));
        setText("rounds_done", number(p.rounds_done));
        setText("rounds_total", number(p.rounds_total));
        setText("games_per_second", number(p.games_per_second));
        setText("eta", duration(p.eta_seconds));
        setText("status", statusLabel(p.status));
        var bar = field("bar");
        if (bar) { bar.style.width = p.percent + "%"; }
        var progressbar = panel.querySelector('[role="progressbar"]');
        if (progressbar) { progressbar.setAttribute("aria-valuenow", String(p.percent)); }
        panel.setAttribute("data-status", p.status);
        if (data.status) { setBadge(data.status); }
        runRunning = p.status === "running";
        if (!runRunning) { setText("updated", say("run_state", "The run is {status}.", { status: statusLabel(p.status) })); }
      });
  }

  function poll() {
    if (busy) { return; }
    busy = true;
    refreshProgress()
      .then(refreshResults)
      .catch(function () { /* a failed poll is retried at the next tick */ })
      .then(function () {
        busy = false;
        if (tournamentRunning || runRunning) { schedule(); }
      });
  }

  function schedule() {
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(poll, document.hidden ? interval * 4 : interval);
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && (tournamentRunning || runRunning)) { poll(); }
  });
  if (tournamentRunning || runRunning) { schedule(); }
})();
