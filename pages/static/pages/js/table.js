// The round-by-round table names each opponent by starting number only, which keeps it
// light (a 200-player Swiss) and on one line per cell on a phone. Pointing at a cell (or
// touching it) says the rest in words: the round, the opponent's name and number, who
// moved first and the result; the opponent's row is marked. The names come from the
// table itself, so nothing is fetched. Works on a table swapped in by live.js too.
(function () {
  "use strict";
  var RESULTS = { "1": "won", "½": "drew", "0": "lost", "+": "won by forfeit",
                  "-": "lost by forfeit", "B": "pairing-allocated bye", "F": "full-point bye",
                  "H": "half-point bye", "Z": "zero-point bye" };

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
    var row = cell.parentNode;
    var table = row.closest("table");
    var index = Array.prototype.indexOf.call(row.cells, cell);
    var round = table.tHead.rows[0].cells[index].textContent.trim().replace(/^R/, "");
    var result = cell.querySelector("b") ? cell.querySelector("b").textContent.trim() : "";
    var colour = cell.querySelector("i") ? cell.querySelector("i").textContent.trim() : "";
    var number = (cell.firstChild && cell.firstChild.nodeType === 3)
      ? cell.firstChild.textContent.trim() : "";
    var running = cell.querySelector("small") ? cell.querySelector("small").textContent : "";
    var who = row.cells[2].textContent.trim();
    var text = who + ", round " + round + ": ";
    var opponent = number ? rowOfNumber(table, number) : null;
    if (number) {
      text += (RESULTS[result] || result) + " against " +
        (opponent ? opponent.cells[2].textContent.trim() + " " : "") + "(No. " + number + ")" +
        (colour === "f" ? ", moved first" : colour === "s" ? ", moved second" : "");
    } else {
      text += RESULTS[result] || result;
    }
    return { text: text + "; " + running + " after it.", opponent: opponent };
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
