// Game viewer: shows one of the server-drawn positions; buttons, the move list and the
// arrow keys (Home/End too) choose which. Without JavaScript the final position shows.
(function () {
  "use strict";
  var viewer = document.getElementById("viewer");
  if (!viewer) { return; }
  var steps = Array.prototype.slice.call(viewer.querySelectorAll("figure.step"));
  var links = Array.prototype.slice.call(viewer.querySelectorAll("[data-step-link]"));
  var controls = viewer.querySelector(".viewer-controls");
  var label = document.getElementById("step-label");
  var last = steps.length - 1;
  var current = last;
  // The label's words, in the page's language, from the viewer's data attributes.
  var startText = viewer.getAttribute("data-text-start") || "Start position";
  var moveText = viewer.getAttribute("data-text-move") || "Move {number} of {last}: {move}";

  // The current move stays in sight inside the move list, which scrolls by itself: the
  // page does not move (on a phone the list is far below the board).
  var list = viewer.querySelector(".moves-scroll");
  function keepInList(item) {
    if (!list) { return; }
    if (item.offsetTop < list.scrollTop) {
      list.scrollTop = item.offsetTop;
    } else if (item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = item.offsetTop + item.offsetHeight - list.clientHeight;
    }
  }

  function show(index) {
    current = Math.max(0, Math.min(last, index));
    steps.forEach(function (step, i) { step.hidden = i !== current; });
    links.forEach(function (link) {
      if (Number(link.getAttribute("data-step-link")) === current) {
        link.setAttribute("aria-current", "step");
        keepInList(link.parentNode);
      } else {
        link.removeAttribute("aria-current");
      }
    });
    var move = steps[current].getAttribute("data-move");
    label.textContent = current === 0 ? startText : moveText
      .replace("{number}", String(current)).replace("{last}", String(last))
      .replace("{move}", move);
    controls.querySelector('[data-go="first"]').disabled = current === 0;
    controls.querySelector('[data-go="prev"]').disabled = current === 0;
    controls.querySelector('[data-go="next"]').disabled = current === last;
    controls.querySelector('[data-go="last"]').disabled = current === last;
    viewer.setAttribute("data-current", String(current));
  }

  var moves = { first: function () { return 0; }, prev: function () { return current - 1; },
                next: function () { return current + 1; }, last: function () { return last; } };
  controls.hidden = false;
  controls.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-go]");
    if (button) { show(moves[button.getAttribute("data-go")]()); }
  });
  links.forEach(function (link) {
    link.addEventListener("click", function () {
      show(Number(link.getAttribute("data-step-link")));
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var tag = (event.target && event.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") { return; }
    var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    var go = keys[event.key];
    if (go) {
      event.preventDefault();
      show(moves[go]());
    }
  });
  show(last);
})();
