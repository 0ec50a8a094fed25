// Courtier's service worker: the app's files and each table's last page, for a phone that
// loses the signal. Served at /sw.js (scope: the whole app) with VERSION and PRECACHE filled in
// from the static files, so every release installs a new worker and drops the old caches.
// What is cached and why: docs/ops.md, "Offline at the table".
"use strict";

var VERSION = "__VERSION__";
var PRECACHE = __PRECACHE__;
var STATIC = "courtier-static-" + VERSION;
var PAGES = "courtier-pages-" + VERSION;
// A page is taken from the network while it answers within this long; then from the cache.
var NETWORK_TIMEOUT_MS = __PAGE_WAIT_MS__;  // PAGE_WAIT_SECONDS (docs/ops.md, Limits)
// After a tab on a table closes, its pages that carry the edit key are kept this long (a reload
// opens the table again within it), then deleted.
var KEYED_GRACE_MS = 15000;

// The "No signal" page in the phone's language (/offline, served from the catalogs); the page's script
// says which language the phone reads, and a change fetches it again.
var OFFLINE = new URL("offline", self.registration.scope).href;

// The copies this worker fetches to keep say so (X-Courtier-Copy): their answers leave this phone's messages
// (a save's "Hand saved.") to the page being opened, and never set the session (companion/web/kept_copies.py).
var COPY = { "X-Courtier-Copy": "1" };

function keepOffline() {
  return fetch(OFFLINE, { credentials: "same-origin", headers: COPY }).then(function (r) {
    if (r.ok) return caches.open(STATIC).then(function (c) { return c.put(OFFLINE, r); });
  }).catch(function () {});
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC).then(function (c) { return c.addAll(PRECACHE); })
    .then(keepOffline).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("courtier-") === 0 && n !== STATIC && n !== PAGES; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function tableOf(url) {
  var m = /\/t\/([A-Za-z0-9_-]+)(?:\/|$)/.exec(new URL(url).pathname);
  return m ? m[1] : null;
}

function hasKey(url) { return new URL(url).searchParams.has("key"); }

function withoutKey(url) {
  var u = new URL(url);
  u.searchParams.delete("key");
  return u.href;
}

// When each table was last asked for (a page of it, its board's refresh). A table asked for within the
// grace keeps its copies until the grace is over: a reload, or a look at another page and back, leaves
// moments with no window on the table, which are no closing.
var asked = {};
var recheck = null;

function delay(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }

// Pages that carry an edit key stay cached only while a tab shows their table.
function purgeKeyed(keep) {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    var open = {};
    windows.forEach(function (w) { var t = tableOf(w.url); if (t) open[t] = true; });
    if (keep) open[keep] = true;
    return caches.open(PAGES).then(function (cache) {
      return cache.keys().then(function (requests) {
        var now = Date.now(), wait = 0;
        var gone = requests.filter(function (r) {
          var table = tableOf(r.url);
          if (!hasKey(r.url) || open[table]) return false;
          var left = (asked[table] || 0) + KEYED_GRACE_MS - now;
          wait = Math.max(wait, left);
          return left <= 0;
        });
        var work = Promise.all(gone.map(function (r) { return cache.delete(r); }));
        if (wait <= 0) return work;
        recheck = recheck || delay(wait).then(function () { recheck = null; return purgeKeyed(null); });
        return work.then(function () { return recheck; });
      });
    });
  });
}

self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "table-closing") {
    event.waitUntil(delay(KEYED_GRACE_MS).then(function () { return purgeKeyed(null); }));
  } else if (event.data && event.data.type === "purge") {
    event.waitUntil(purgeKeyed(null));
  } else if (event.data && event.data.type === "language") {
    var code = String(event.data.code || "");
    event.waitUntil(caches.match(OFFLINE).then(function (kept) {
      if (!kept || (kept.headers.get("Content-Language") || "en") !== code) return keepOffline();
    }));
  }
});

// The page's script sends the saves waiting on this phone when the signal comes back (app.js loads
// offline.js when any wait), so a phone left on this page still sends them.
var APP_SCRIPT = PRECACHE.filter(function (u) { return /\/js\/app\.js$/.test(u); })[0] || "/static/js/app.js";

function offlinePage() {
  return caches.match(OFFLINE).then(function (kept) {
    if (!kept) return builtInOfflinePage();
    return kept.text().then(function (html) {
      return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
    });
  }).catch(builtInOfflinePage);
}

// Before the page in the phone's language is kept (the worker's first minutes): in English.
function builtInOfflinePage() {
  var html = "<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
    "<title>Offline · Courtier</title><link rel=stylesheet href='/static/css/app.css'>" +
    "<script src='" + APP_SCRIPT + "' defer></script>" +
    "<main id=main><h1>No signal</h1><p>This page was not opened on this phone while it had a signal, " +
    "so there is no copy of it here. Open it again when the signal is back.</p><p><a href='/'>Home</a></p></main>";
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function fromNetwork(request, timeout) {
  return new Promise(function (resolve, reject) {
    var timer = setTimeout(function () { reject(new Error("timeout")); }, timeout);
    fetch(request).then(function (response) { clearTimeout(timer); resolve(response); },
      function (err) { clearTimeout(timer); reject(err); });
  });
}

function keepPage(request, response) {
  if (response.status !== 200 || response.type !== "basic") return Promise.resolve();
  var copy = response.clone();
  // A page reached through a redirect (a recent table's /open) is kept under the address it came from
  // in the end, which holds the edit key when the page does.
  if (response.redirected && response.url) {
    request = new Request(response.url);
    copy = new Response(copy.body, { status: copy.status, statusText: copy.statusText, headers: copy.headers });
  }
  var work = caches.open(PAGES).then(function (cache) { return cache.put(request, copy); });
  // A table page opened with its edit link is also kept as its view link, which holds no key:
  // once the edit copy is gone, the phone can still show the table's last board.
  var path = new URL(request.url).pathname;
  if (hasKey(request.url) && /^\/t\/[A-Za-z0-9_-]+$/.test(path)) {
    var view = withoutKey(request.url);
    work = work.then(function () { return fetch(view, { credentials: "same-origin", headers: COPY }); })
      .then(function (r) { if (r.status === 200) return caches.open(PAGES).then(function (c) { return c.put(view, r); }); })
      .catch(function () {});
  }
  return work;
}

function fromCache(request) {
  return caches.open(PAGES).then(function (cache) {
    return cache.match(request, { ignoreVary: true }).then(function (hit) {
      return hit || (hasKey(request.url) ? cache.match(withoutKey(request.url), { ignoreVary: true }) : undefined);
    });
  });
}

// "/t/<id>/open" (a recent table, a rematch's link back) without signal: the table's page this phone
// still holds, with its edit key while a copy holding it is kept, else its view page.
function reopen(url) {
  var table = new URL(url);
  table.pathname = table.pathname.replace(/\/open$/, "");
  table.search = "";
  return caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (requests) {
      var keyed = requests.filter(function (r) {
        var u = new URL(r.url);
        return u.pathname === table.pathname && hasKey(r.url);
      })[0];
      return Response.redirect(keyed ? keyed.url : table.href, 303);
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  var table = tableOf(request.url);
  if (table) asked[table] = Date.now();
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.match(request).then(function (hit) { return hit || fetch(request); }));
    return;
  }
  // The live board refresh, downloads and the worker itself always go to the network.
  if (url.pathname === "/sw.js" || /\/board$|\.(pdf|json|csv)$/.test(url.pathname)) return;
  // Pages: navigations, htmx's boosted requests, the table's QR codes.
  var page = request.mode === "navigate" || request.headers.get("HX-Request") === "true" ||
    (request.headers.get("Accept") || "").indexOf("text/html") !== -1 || /\.svg$/.test(url.pathname);
  if (!page) return;
  var reopening = /^\/t\/[A-Za-z0-9_-]+\/open$/.test(url.pathname);
  event.respondWith(fromNetwork(request, NETWORK_TIMEOUT_MS).then(function (response) {
    event.waitUntil(keepPage(request, response));
    return response;
  }, function () {
    if (reopening) return reopen(request.url);
    return fromCache(request).then(function (hit) { return hit || offlinePage(); });
  }));
  event.waitUntil(purgeKeyed(table));
});
