{% load static i18n %}{% get_current_language as LANGUAGE_CODE %}// The table pages' service worker: the page and its assets stay on the phone, so a judge can
// reload the table page without a connection. Pages are fetched from the network first (the
// freshest position) and fall back to the copy kept here; assets come from the copy first.
// Writes are never intercepted: the page's outbox sends them (exactly once, in order).
"use strict";
var CACHE = "{{ offline_cache }}";
var ASSETS = [
  "{% static 'css/site.css' %}",
  "{% static 'css/gameplay.css' %}",
  "{% static 'css/clocks.css' %}",
  "{% static 'vendor/htmx.min.js' %}",
  "{% static 'js/outbox_core.js' %}",
  "{% static 'js/journal.js' %}",
  "{% static 'js/outbox.js' %}",
  "{% static 'css/outbox.css' %}",
  "{% static 'js/refused_form.js' %}",
  "{% static 'js/table.js' %}",
  "{% static 'js/clock.js' %}",
  "{% url 'javascript-catalog' LANGUAGE_CODE %}"
];
// The scripts' words: one catalogue per language, fetched fresh when online, kept for offline.
var CATALOGUES = "{% url 'javascript-catalog' 'xx' %}".replace("xx/", "");

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all(ASSETS.map(function (url) { return cache.add(url).catch(function () { /* optional asset */ }); }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== CACHE; }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function isPage(request) {
  return request.mode === "navigate" && /^\/tables\/\d+\/$/.test(new URL(request.url).pathname);
}

// From the network first, keeping a copy under `path`; offline, the copy kept, else `missing()`.
function networkFirst(request, path, missing) {
  return fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(path, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(path).then(function (kept) { return kept || missing(); });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (isPage(request)) {
    // Never opened on this phone: a page in the language the worker was served in (its words
    // are marked in gameplay/sw_offline.html, where the catalogues find them).
    event.respondWith(networkFirst(request, url.pathname, function () {
      return new Response("{% filter escapejs %}{% include 'gameplay/sw_offline.html' %}{% endfilter %}",
        { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
    }));
    return;
  }
  if (url.pathname.indexOf(CATALOGUES) === 0) {
    event.respondWith(networkFirst(request, url.pathname, function () { return Response.error(); }));
    return;
  }
  if (url.pathname.indexOf("{% get_static_prefix %}") === 0) {
    event.respondWith(caches.match(request).then(function (kept) {
      return kept || fetch(request).then(function (response) {
        if (response.ok) {
          var copy = response.clone();
          caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
        }
        return response;
      });
    }));
  }
});

// Background Sync (where the browser has it): wake the open table pages to send their outbox.
self.addEventListener("sync", function (event) {
  if (event.tag !== "table-outbox") { return; }
  event.waitUntil(self.clients.matchAll({ type: "window" }).then(function (pages) {
    pages.forEach(function (page) { page.postMessage({ type: "flush-outbox" }); });
  }));
});
