// The entrants page: filter the club's names as you type; tick all the names shown.
document.addEventListener("DOMContentLoaded", function () {
  var filter = document.getElementById("candidate-filter");
  var all = document.getElementById("candidate-all");
  var list = document.getElementById("candidates");
  if (!filter || !list) { return; }
  var labels = Array.prototype.slice.call(list.querySelectorAll("label"));
  function shown() { return labels.filter(function (l) { return l.style.display !== "none"; }); }
  filter.addEventListener("input", function () {
    var text = filter.value.trim().toLowerCase();
    labels.forEach(function (label) {
      label.style.display = label.textContent.toLowerCase().indexOf(text) >= 0 ? "" : "none";
    });
  });
  filter.addEventListener("keydown", function (event) {
    if (event.key === "Enter") { event.preventDefault(); }  // Enter filters, never submits
  });
  if (all) {
    all.addEventListener("change", function () {
      shown().forEach(function (label) { label.querySelector("input").checked = all.checked; });
    });
  }
});
