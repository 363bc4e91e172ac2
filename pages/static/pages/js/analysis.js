// Analysis panel of the game viewer: for the position shown, asks POST /api/analysis/
// (the game record and the move number) and lists every legal move's value for the side
// to move, the best ones in bold and the move the game went on with highlighted. When the
// service refuses for now (429: busy, or the visitors' analysis time spent) it says so and
// asks again after Retry-After, a few times, while that position is still shown.
// Without JavaScript the panel stays hidden.
(function () {
  "use strict";
  var viewer = document.getElementById("viewer");
  var panel = document.getElementById("analysis-panel");
  var recordNode = document.getElementById("game-record");
  var textsNode = document.getElementById("analysis-texts");
  if (!viewer || !panel || !recordNode || !textsNode) { return; }
  var record = JSON.parse(recordNode.textContent);
  if (!record || !record.moves) { return; }
  var texts = JSON.parse(textsNode.textContent);
  var url = panel.getAttribute("data-url");
  var iterations = Number(panel.getAttribute("data-iterations")) || 500;
  var status = panel.querySelector(".analysis-status");
  var body = panel.querySelector("tbody");
  var visitsHead = panel.querySelector(".analysis-count");
  var table = panel.querySelector("table");
  var SHOWN = 40;
  var RETRIES = 3;
  var cache = {};
  var wanted = null;
  var timer = null;

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (whole, key) {
      return values[key] === undefined ? "" : String(values[key]);
    });
  }
  function percent(rate) { return Math.round(rate * 100) + "%"; }

  function summary(report) {
    if (report.method === "over") { return texts.over; }
    if (report.method === "exact") {
      return texts["exact_" + report.outcome];
    }
    if (report.method === "mcts") {
      var text = fill(texts.mcts, { iterations: report.iterations, seed: report.seed });
      return report.unexplored ? text + " " + fill(texts.unexplored, { count: report.unexplored })
        : text;
    }
    return fill(texts.sampling, { samples: report.samples,
      information: report.information === "all hands" ? texts.all : texts.observed });
  }

  function value(report, move) {
    if (report.method === "exact") { return texts[move.outcome] || move.outcome; }
    if (report.method === "mcts") {
      return move.win_rate === undefined ? "" : percent(move.win_rate);
    }
    return fill(texts.points, { mine: move.points.toFixed(2),
      theirs: move.opponent_points.toFixed(2) }) + " (" + percent(move.win_rate) + ")";
  }

  function cell(row, text, tag) {
    var node = document.createElement(tag || "td");
    node.textContent = text;
    row.appendChild(node);
    return node;
  }

  function render(step, report) {
    status.textContent = summary(report);
    body.textContent = "";
    var played = step < record.moves.length ? record.moves[step] : null;
    var counted = report.method === "mcts";
    visitsHead.hidden = !counted;
    table.hidden = report.moves.length === 0;
    report.moves.slice(0, SHOWN).forEach(function (move) {
      var row = document.createElement("tr");
      if (move.best) { row.className = "best"; }
      if (played !== null && move.move === played) { row.className += " played"; }
      cell(row, move.move, move.best ? "th" : "td").scope = "row";
      cell(row, value(report, move));
      if (counted) { cell(row, move.visits === undefined ? "" : String(move.visits)); }
      body.appendChild(row);
    });
    if (report.moves.length > SHOWN) {
      var more = document.createElement("tr");
      cell(more, "… +" + (report.moves.length - SHOWN)).colSpan = 3;
      body.appendChild(more);
    }
    panel.setAttribute("data-shown", String(step));
  }

  // A 429 as an error carrying the seconds to wait and whether the site was only busy.
  function refused(response) {
    var seconds = Math.max(1, Number(response.headers.get("Retry-After")) || 5);
    return response.json().catch(function () { return {}; }).then(function (answer) {
      var error = new Error("429");
      error.seconds = seconds;
      error.busy = answer.code === "analysis_busy";
      throw error;
    });
  }

  function request(step, tries) {
    window.fetch(url, {
      method: "POST", credentials: "omit",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify({ record: record, move: step, iterations: iterations })
    }).then(function (response) {
      if (response.status === 429) { return refused(response); }
      if (!response.ok) { throw new Error(String(response.status)); }
      return response.json();
    }).then(function (report) {
      cache[step] = report;
      if (wanted === step) { render(step, report); }
    }).catch(function (error) {
      if (wanted !== step) { return; }
      if (!error.seconds) { status.textContent = texts.failed; return; }
      if (tries >= RETRIES) { status.textContent = texts.later; return; }
      status.textContent = fill(error.busy ? texts.busy : texts.limited,
        { seconds: error.seconds });
      timer = window.setTimeout(function () { request(step, tries + 1); },
        error.seconds * 1000);
    });
  }

  function ask(step) {
    wanted = step;
    window.clearTimeout(timer);
    if (cache[step]) { render(step, cache[step]); return; }
    status.textContent = texts.loading;
    body.textContent = "";
    panel.removeAttribute("data-shown");
    // Stepping quickly through the game asks only for the position it stops at.
    timer = window.setTimeout(function () { request(step, 0); }, 200);
  }

  function current() { return Number(viewer.getAttribute("data-current") || 0); }
  new window.MutationObserver(function () { ask(current()); })
    .observe(viewer, { attributes: true, attributeFilter: ["data-current"] });
  panel.hidden = false;
  ask(current());
})();
