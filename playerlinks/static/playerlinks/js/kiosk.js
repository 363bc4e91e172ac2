// The check-in kiosk: a scanner's typed input or a starting number goes through the form; a
// camera scan (the browser's BarcodeDetector, where it exists) fills the form and sends it.
// Answers come back as JSON and show the name checked in, big.
(function () {
  "use strict";
  var root = document.getElementById("kiosk");
  var form = document.getElementById("kiosk-form");
  if (!root || !form || !window.fetch) { return; }
  var input = document.getElementById("kiosk-code");
  var result = document.getElementById("kiosk-result");
  var note = document.getElementById("kiosk-note");
  var cameraButton = document.getElementById("kiosk-camera");
  var video = document.getElementById("kiosk-video");
  var sending = false, lastCode = "", lastAt = 0;

  function show(data) {
    result.textContent = "";
    result.className = "kiosk-result" + (data.ok ? "" : " kiosk-error");
    if (data.ok) {
      var name = document.createElement("span");
      name.className = "kiosk-name";
      name.textContent = "\u2713 " + data.name;
      var detail = document.createElement("span");
      detail.className = "kiosk-detail";
      detail.textContent = data.message;
      result.appendChild(name);
      result.appendChild(detail);
    } else {
      result.textContent = data.error || root.getAttribute("data-failed");
    }
  }
  function send(code) {
    if (sending || !code) { return; }
    sending = true;
    var body = new FormData(form);
    body.set("code", code);
    fetch(form.action || window.location.pathname, {
      method: "POST", body: body, credentials: "same-origin", referrerPolicy: "no-referrer",
      headers: { "Accept": "application/json", "X-CSRFToken": body.get("csrfmiddlewaretoken") }
    }).then(function (response) { return response.json(); })
      .then(show)
      .catch(function () { show({ ok: false }); })
      .then(function () { sending = false; input.value = ""; input.focus(); });
  }
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    send(input.value.trim());
  });

  if (!("BarcodeDetector" in window) || !navigator.mediaDevices) {
    if (note) { note.textContent = root.getAttribute("data-no-camera"); }
    return;
  }
  cameraButton.hidden = false;
  cameraButton.addEventListener("click", function () {
    var detector = new window.BarcodeDetector({ formats: ["qr_code"] });
    navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } }).then(function (stream) {
      video.srcObject = stream;
      video.hidden = false;
      cameraButton.hidden = true;
      if (note) { note.textContent = root.getAttribute("data-scanning"); }
      return video.play().then(function () {
        function scan() {
          detector.detect(video).then(function (codes) {
            var now = Date.now();
            if (codes.length) {
              var code = codes[0].rawValue;
              if (code !== lastCode || now - lastAt > 4000) { lastCode = code; lastAt = now; send(code); }
            }
          }).catch(function () { return null; }).then(function () { window.setTimeout(scan, 300); });
        }
        scan();
      });
    }).catch(function () { if (note) { note.textContent = root.getAttribute("data-no-camera"); } });
  });
})();
