// The phone clock's service worker: each clock page registers it for its own path only
// (served with Service-Worker-Allowed), keeps a copy of the page and its files, and
// answers from that copy when the phone is offline. Taps are not its business: the page
// queues them in IndexedDB and sends them when the connection is back.
"use strict";
var CACHE = "phoneclock-v1";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("message", function (event) {
  var urls = (event.data && event.data.cache) || [];
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all(urls.map(function (url) {
      return fetch(url, {credentials: "same-origin"}).then(function (response) {
        if (response.ok) { return cache.put(url, response); }
        return null;
      }).catch(function () { return null; });
    }));
  }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  var ours = url.origin === self.location.origin &&
    (url.href.indexOf(self.registration.scope) === 0 || url.pathname.indexOf("/static/") === 0);
  if (!ours || url.pathname.slice(-7) === "/state/") { return; }
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(request, {ignoreVary: true}).then(function (found) {
      return found || new Response("offline", {status: 503});
    });
  }));
});
