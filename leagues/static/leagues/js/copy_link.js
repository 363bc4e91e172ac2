// The captain links page: a "Copy" button beside each link (without script the read-only
// field is still there to select and copy by hand).
(function () {
  "use strict";
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field || !navigator.clipboard) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(field.value).then(function () {
        button.setAttribute("aria-pressed", "true");
      });
    });
  });
}());
