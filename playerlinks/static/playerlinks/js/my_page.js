// My page follows the event: every few seconds it asks for its live part with the ETag of
// the copy it shows (If-None-Match); the server answers 304 while nothing changed. Polling
// slows down while the page is hidden; a failed request waits longer (slow connections).
(function () {
  "use strict";
  var box = document.getElementById("my-live");
  if (!box || !window.fetch) { return; }
  var url = box.getAttribute("data-live-url");
  var etag = box.getAttribute("data-etag") || "";
  var seconds = parseInt(box.getAttribute("data-poll"), 10) || 15;
  var note = document.getElementById("my-updated");
  var busy = false, failures = 0;
  function clock() {
    var now = new Date();
    return [now.getHours(), now.getMinutes()].map(function (n) { return String(n).padStart(2, "0"); }).join(":");
  }
  function poll() {
    if (busy) { return schedule(); }
    busy = true;
    var headers = { "Accept": "text/html" };
    if (etag) { headers["If-None-Match"] = etag; }
    fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin", referrerPolicy: "no-referrer" })
      .then(function (response) {
        if (response.status === 304) { return null; }
        if (!response.ok) { throw new Error(String(response.status)); }
        etag = response.headers.get("ETag") || "";
        return response.text();
      })
      .then(function (html) {
        failures = 0;
        if (html !== null) { box.innerHTML = html; }
        if (note) { note.textContent = clock(); }
      })
      .catch(function () { failures += 1; })
      .then(function () { busy = false; schedule(); });
  }
  function schedule() {
    var wait = seconds * (document.hidden ? 4 : 1) * Math.min(8, Math.pow(2, failures));
    window.setTimeout(poll, wait * 1000);
  }
  schedule();
})();
