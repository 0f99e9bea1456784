{% autoescape off %}// The referee console's service worker (docs/offline.md), rendered by games/offline_views.py.
// It keeps what the console needs to open and judge moves with no network; the moves
// themselves wait in the page's localStorage, never here. POSTs and API answers pass by.
"use strict";

const CACHE = "kakumei-offline-{{ version }}";
const PRECACHE = {{ precache }};
const STATIC_PREFIX = {{ static_prefix }};
const ENGINE = {{ engine }};
const CONSOLES = {{ consoles }};
// A venue's Wi-Fi that answers slowly is no better than none: the phone's copy is shown instead.
const NETWORK_PATIENCE_MS = 4000;
const CONSOLE_PAGE = new RegExp("^" + CONSOLES.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&") + "\\d+/$");

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      // One by one, so that a file missing on this server (Pyodide not installed) does not
      // stop the rest from being kept.
      .then((cache) => Promise.all(PRECACHE.map((url) => cache.add(url).catch(() => null))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith("kakumei-offline-") && name !== CACHE)
          .map((name) => caches.delete(name)),
      ))
      .then(() => self.clients.claim()),
  );
});

function cacheFirst(request) {
  return caches.open(CACHE).then((cache) => cache.match(request, { ignoreVary: true }).then((kept) => {
    if (kept) return kept;
    return fetch(request).then((response) => {
      if (response.ok) cache.put(request, response.clone());
      return response;
    });
  }));
}

function networkFirst(request) {
  return caches.open(CACHE).then((cache) => {
    const fresh = fetch(request).then((response) => {
      if (response.ok && !response.redirected) cache.put(request, response.clone());
      return response;
    });
    const late = new Promise((resolve) => setTimeout(resolve, NETWORK_PATIENCE_MS));
    // The page varies by cookie and language; this phone has one referee signed in.
    const kept = cache.match(request, { ignoreSearch: true, ignoreVary: true });
    // The network's answer when it comes in time; the kept copy when it fails or is slow
    // (and the network's answer after all when nothing is kept).
    return Promise.race([fresh.catch(() => null), late.then(() => null)])
      .then((answer) => answer || kept.then((copy) => copy || fresh));
  });
}

// The console page that registered this worker was loaded before it: the page asks for its
// own URL to be kept, so that a reload without a network still opens it.
self.addEventListener("message", (event) => {
  const path = event.data && event.data.keep;
  if (typeof path !== "string" || !CONSOLE_PAGE.test(path)) return;
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.add(path))
      .then(() => event.source && event.source.postMessage({ kept: path }))
      .catch(() => null),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(cacheFirst(request));
  } else if (url.pathname === ENGINE) {
    event.respondWith(networkFirst(request));
  } else if (CONSOLE_PAGE.test(url.pathname) && !request.headers.get("HX-Request")) {
    // The whole console page only: htmx asks the same URL for pieces of it.
    event.respondWith(networkFirst(request));
  }
});
{% endautoescape %}
