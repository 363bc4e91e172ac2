// The round-by-round table names each opponent by starting number only, which keeps it
// light (a 200-player Swiss) and on one line per cell on a phone. Pointing at a cell (or
// touching it) says the rest in words: the round, the opponent's name and number, who
// moved first and the result; the opponent's row is marked. The names come from the
// table itself, so nothing is fetched. Works on a table swapped in by live.js too.
// The words come in the page's language from the table's "rbr-texts" JSON.
(function () {
  "use strict";
  function texts() {
    var node = document.getElementById("rbr-texts");
    try { return node ? JSON.parse(node.textContent) : {}; } catch (error) { return {}; }
  }
  function fill(template, values) {
    return String(template || "").replace(/\{(\w+)\}/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? values[name] : whole;
    });
  }

  function cellOf(target) {
    var cell = target && target.closest ? target.closest("table.round-by-round tbody td") : null;
    if (!cell) { return null; }
    var row = cell.parentNode;
    var index = Array.prototype.indexOf.call(row.cells, cell);
    return index >= 3 && index < row.cells.length - 1 ? cell : null;
  }

  function rowOfNumber(table, number) {
    var rows = table.tBodies[0].rows;
    for (var i = 0; i < rows.length; i++) {
      if (rows[i].cells[1].textContent.trim() === number) { return rows[i]; }
    }
    return null;
  }

  function describe(cell) {
    var words = texts();
    var results = words.results || {};
    var row = cell.parentNode;
    var table = row.closest("table");
    var index = Array.prototype.indexOf.call(row.cells, cell);
    var round = table.tHead.rows[0].cells[index].getAttribute("data-round") || "";
    var result = cell.querySelector("b") ? cell.querySelector("b").textContent.trim() : "";
    var letter = cell.querySelector("i") ? cell.querySelector("i").textContent.trim() : "";
    var moved = letter === (words.first_letter || "f") ? "f"
      : letter === (words.second_letter || "s") ? "s" : "";
    var number = (cell.firstChild && cell.firstChild.nodeType === 3)
      ? cell.firstChild.textContent.trim() : "";
    var running = cell.querySelector("small") ? cell.querySelector("small").textContent : "";
    var who = row.cells[2].textContent.trim();
    var opponent = number ? rowOfNumber(table, number) : null;
    var text = results[result] || result;
    if (number) {
      text = opponent
        ? fill(words.opponent, { result: text, name: opponent.cells[2].textContent.trim(), number: number })
        : fill(words.opponent_unnamed, { result: text, number: number });
      if (moved === "f") { text = fill(words.moved_first, { text: text }); }
      if (moved === "s") { text = fill(words.moved_second, { text: text }); }
    }
    return {
      text: fill(words.cell, { who: who, round: round, text: text, running: running }),
      opponent: opponent
    };
  }

  document.addEventListener("pointerover", function (event) {
    var cell = cellOf(event.target);
    if (cell && !cell.title) { cell.title = describe(cell).text; }
  });

  document.addEventListener("click", function (event) {
    var cell = cellOf(event.target);
    if (!cell) { return; }
    var table = cell.closest("table");
    var found = describe(cell);
    var detail = document.getElementById("rbr-detail");
    if (detail) { detail.textContent = found.text; detail.hidden = false; }
    Array.prototype.forEach.call(table.querySelectorAll(".picked"), function (node) {
      node.classList.remove("picked");
    });
    cell.classList.add("picked");
    if (found.opponent) { found.opponent.classList.add("picked"); }
  });
})();
