// The tournament form: show only the chosen game's options, and on a new tournament
// fill the tie-breaks with the format's recommended set (the server does the same when
// they are left empty). A static file: the site's CSP runs no inline script.
document.addEventListener("DOMContentLoaded", function () {
  var game = document.getElementById("id_game");
  var format = document.getElementById("id_format");
  var first = document.getElementById("id_tiebreak_1");
  if (!game || !format || !first) { return; }
  var options = JSON.parse(game.dataset.options || "{}");
  var defaults = JSON.parse(first.dataset.defaults || "{}");
  var optionFields = ["board_rows", "board_cols", "deck", "team_size"];

  function showOptions() {
    var mine = options[game.value] || [];
    optionFields.forEach(function (name) {
      var input = document.getElementById("id_" + name);
      var box = input && (input.closest(".fieldBox") || input.closest(".form-row"));
      if (box) { box.style.display = mine.indexOf(name) >= 0 ? "" : "none"; }
    });
  }

  function slots() {
    var found = [];
    for (var i = 1; document.getElementById("id_tiebreak_" + i); i++) {
      found.push(document.getElementById("id_tiebreak_" + i));
    }
    return found;
  }

  var adding = /\/add\/$/.test(location.pathname);
  var touched = false;
  slots().forEach(function (select) {
    select.addEventListener("change", function () { touched = true; });
  });
  function fillDefaults() {
    if (!adding || touched) { return; }
    var keys = defaults[format.value] || [];
    slots().forEach(function (select, index) { select.value = keys[index] || ""; });
  }

  game.addEventListener("change", showOptions);
  format.addEventListener("change", fillDefaults);
  showOptions();
  fillDefaults();
});
