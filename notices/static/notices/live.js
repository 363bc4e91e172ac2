// The venue screen and the embeds follow the results: every few seconds they ask for their
// part with the ETag of the copy they show (a 304 while nothing changed) and swap a new one
// in. The venue screen also shows its slides one after another (pairings by name, the
// standings, the latest results).
(function () {
  "use strict";
  var box = document.getElementById("screen") || document.getElementById("embed");
  if (!box) { return; }
  var partUrl = box.getAttribute("data-part-url");
  var running = box.getAttribute("data-running") === "1";
  var seconds = parseInt(box.getAttribute("data-seconds") || "0", 10);
  var etag = "";
  var current = 0;

  function slides() { return box.querySelectorAll(".slide"); }
  function show(index) {
    var all = slides();
    if (!all.length) { return; }
    current = index % all.length;
    for (var i = 0; i < all.length; i++) { all[i].classList.toggle("shown", i === current); }
    var dots = box.querySelectorAll(".dots i");
    for (var j = 0; j < dots.length; j++) { dots[j].classList.toggle("on", j === current); }
  }
  if (seconds > 0) {
    setInterval(function () { show(current + 1); }, seconds * 1000);
  }

  function refresh() {
    if (!window.fetch || !partUrl) { return; }
    var headers = { "Accept": "text/html" };
    if (etag) { headers["If-None-Match"] = etag; }
    fetch(partUrl, { headers: headers, cache: "no-store" })
      .then(function (response) {
        if (response.status === 304 || !response.ok) { return null; }
        etag = response.headers.get("ETag") || "";
        return response.text();
      })
      .then(function (html) {
        if (html === null) { return; }
        box.innerHTML = html;
        show(current);
      })
      .catch(function () { /* asked again at the next tick */ });
  }
  // The first answer only learns the ETag (the page came with the same part).
  if (partUrl) {
    refresh();
    setInterval(refresh, running ? 10000 : 60000);
  }
})();
