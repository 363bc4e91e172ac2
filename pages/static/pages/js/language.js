// The language switch posts to Django's set_language view. Pages kept in the cache for
// every visitor carry no CSRF token: the switch then takes it from the CSRF cookie (the
// tournament pages set it) just before it is sent.
(function () {
  "use strict";
  function cookie(name) {
    var found = document.cookie.split("; ").filter(function (item) {
      return item.indexOf(name + "=") === 0;
    })[0];
    return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
  }
  Array.prototype.forEach.call(document.querySelectorAll("form[data-language-switch]"), function (form) {
    form.addEventListener("submit", function () {
      var token = form.querySelector('input[name="csrfmiddlewaretoken"]');
      if (token && !token.value) { token.value = cookie(form.getAttribute("data-csrf-cookie") || "csrftoken"); }
    });
  });
})();
