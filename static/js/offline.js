// Offline at the table: the service worker keeps the pages; this keeps the saves.
// A hand saved without signal waits on the phone (IndexedDB) with its entry key and the version
// it was based on, is shown on the board as "waiting to send", and is sent in order as soon as the
// phone is online again. The server stores each entry key once, so a replay never doubles a hand.
// Every page works without this file.
(function () {
  "use strict";
  var RETRY_MS = 10000;
  var QUEUED = "X-Courtier-Queued";
  var ENTRY_FORM = /\/t\/[A-Za-z0-9_-]+\/hands(\/\d+)?$/;
  var STATES = {
    409: "another phone saved first",
    422: "it needs a correction",
    400: "its form expired",
    403: "this link can no longer enter scores",
    404: "the table or the hand is no longer there"
  };

  // -- The outbox (IndexedDB) -------------------------------------------------------------
  var opening = null;
  function db() {
    if (!opening) {
      opening = new Promise(function (resolve, reject) {
        var req = indexedDB.open("courtier", 1);
        req.onupgradeneeded = function () { req.result.createObjectStore("outbox", { keyPath: "id" }); };
        req.onsuccess = function () { resolve(req.result); };
        req.onerror = function () { reject(req.error); };
      });
    }
    return opening;
  }
  function store(mode, work) {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var tx = d.transaction("outbox", mode);
        var result = work(tx.objectStore("outbox"));
        tx.oncomplete = function () { resolve(result && "result" in result ? result.result : undefined); };
        tx.onerror = function () { reject(tx.error); };
      });
    });
  }
  function all() {
    return store("readonly", function (s) { return s.getAll(); }).then(function (items) {
      return (items || []).sort(function (a, b) { return a.created - b.created; });
    });
  }
  function put(item) { return store("readwrite", function (s) { s.put(item); }); }
  function drop(id) { return store("readwrite", function (s) { s.delete(id); }); }

  // -- Entry keys on every entry form ---------------------------------------------------------
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function isEntryForm(form) {
    return form && form.method.toLowerCase() === "post" && ENTRY_FORM.test(new URL(form.action, location.href).pathname);
  }
  function keyOf(form) {
    var input = form.querySelector("input[name=entry_key]");
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = "entry_key";
      input.value = newKey();
      form.appendChild(input);
    }
    return input;
  }
  function tableUrl(action) {
    var u = new URL(action, location.href);
    u.pathname = u.pathname.replace(/\/hands(\/\d+)?$/, "");
    return u.href;
  }
  function bodyOf(form, submitter) {
    var data;
    try { data = new FormData(form, submitter || undefined); } catch (e) { data = new FormData(form); }
    var params = new URLSearchParams();
    data.forEach(function (value, name) { if (typeof value === "string") params.append(name, value); });
    return params.toString();
  }

  // "Enter hand 6" -> "Hand 6" (or "Hand 7" when hand 6 already waits on this phone);
  // "Correct round 2" -> "Round 2 (correction)".
  function labelOf(heading, waiting) {
    var m = /^\s*(Enter|Correct|Edit)\s+(.+?)\s*$/i.exec(heading);
    if (!m) return "An entry";
    var what = m[2].charAt(0).toUpperCase() + m[2].slice(1);
    if (!/^enter$/i.test(m[1])) return what + " (correction)";
    return what.replace(/(\d+)$/, function (n) { return String(parseInt(n, 10) + waiting); });
  }

  function queue(form, submitter) {
    var key = keyOf(form);
    var body = bodyOf(form, submitter);
    var params = new URLSearchParams(body);
    var title = document.querySelector("main h1");
    var replacing = new URLSearchParams(location.hash.slice(1)).get("outbox");
    return all().then(function (items) {
      var table = tableUrl(form.action);
      var waiting = items.filter(function (i) {
        return i.table === table && i.id !== replacing && /\/hands$/.test(new URL(i.url).pathname);
      }).length;
      var before = items.filter(function (i) { return i.id === replacing; })[0];
      // An edited entry keeps its name and its place in the queue.
      return queueItem(form, key, body, params, before ? before.label : labelOf(title ? title.textContent : "", waiting),
        replacing, before ? before.created : Date.now());
    });
  }

  function queueItem(form, key, body, params, label, replacing, created) {
    var item = {
      id: key.value,
      table: tableUrl(form.action),
      url: new URL(form.action, location.href).href,
      page: location.href.split("#")[0],
      body: body,
      base: parseInt(params.get("base_version"), 10),
      label: label,
      created: created,
      state: "waiting"
    };
    var work = replacing && replacing !== item.id ? drop(replacing) : Promise.resolve();
    return work.then(function () { return put(item); }).then(function () {
      location.assign(item.table + "#board");
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!isEntryForm(form) || event.defaultPrevented) return;
    keyOf(form);  // a double tap sends the same key twice: stored once
    var replacing = new URLSearchParams(location.hash.slice(1)).get("outbox");
    if (navigator.onLine) {
      if (replacing) drop(replacing);  // the edited entry goes now, in place of the waiting one
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    queue(form, event.submitter);
  }, true);

  // A save whose answer never came back (the signal dropped mid-request) is queued with its key.
  document.addEventListener("htmx:sendError", function (event) {
    var elt = event.detail && event.detail.elt;
    var form = elt && (elt.tagName === "FORM" ? elt : elt.form);
    if (isEntryForm(form)) queue(form, null);
  });

  // -- Sending --------------------------------------------------------------------------------
  var sending = false;
  function flush() {
    if (sending || !navigator.onLine) return Promise.resolve();
    sending = true;
    var moved = {};  // base version -> the version our own previous save made of it
    return all().then(function (items) {
      var chain = Promise.resolve(true);
      items.forEach(function (item) {
        chain = chain.then(function (goOn) {
          if (!goOn || item.state !== "waiting") return goOn;
          var base = item.base;
          while (moved[base] !== undefined) base = moved[base];
          var params = new URLSearchParams(item.body);
          if (!isNaN(base)) params.set("base_version", String(base));
          var headers = { "Content-Type": "application/x-www-form-urlencoded" };
          headers[QUEUED] = "1";
          return fetch(item.url, { method: "POST", body: params.toString(), headers: headers,
            credentials: "same-origin", redirect: "manual" })
            .then(function (r) {
              if (r.status === 204) {
                var stored = parseInt(r.headers.get("X-Courtier-Version"), 10);
                if (stored === base + 1) moved[base] = stored;  // nobody else wrote in between
                return drop(item.id).then(function () { return true; });
              }
              if (r.status >= 500 || r.status === 429) return false;  // try again later
              item.state = "look";
              item.reason = STATES[r.status] || "it could not be saved";
              item.body = params.toString();
              return put(item).then(function () { return true; });
            }, function () { return false; });  // still no signal
        });
      });
      return chain;
    }).catch(function () {}).then(function () {
      sending = false;
      render();
      document.dispatchEvent(new CustomEvent("courtier:outbox-sent"));
    });
  }

  // -- What the board shows -------------------------------------------------------------------
  function hhmm(date) { return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }); }

  function here() {
    var board = document.getElementById("board");
    return board ? location.href.split("#")[0].split("?")[0] : null;
  }

  function button(text, action, id) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "secondary";
    b.textContent = text;
    b.dataset.outboxAction = action;
    b.dataset.outboxId = id;
    return b;
  }

  function render() {
    var table = here();
    var old = document.getElementById("outbox");
    if (!table) { if (old) old.remove(); return Promise.resolve(); }
    return all().then(function (items) {
      items = items.filter(function (i) { return i.table.split("?")[0] === table; });
      var box = document.getElementById("outbox");
      if (!items.length) { if (box) box.remove(); return; }
      if (!box) {
        box = document.createElement("section");
        box.id = "outbox";
        box.className = "outbox";
        box.setAttribute("aria-live", "polite");
        var board = document.getElementById("board");
        board.parentNode.insertBefore(box, board);
      }
      box.textContent = "";
      var h = document.createElement("h2");
      h.textContent = "On this phone, not sent yet";
      box.appendChild(h);
      items.forEach(function (item) {
        var row = document.createElement("div");
        row.className = "outbox-item" + (item.state === "look" ? " needs-look" : "");
        row.dataset.state = item.state;
        var text = document.createElement("p");
        text.textContent = item.state === "look"
          ? item.label + " needs a look: " + item.reason + ". Your entry is kept."
          : item.label + ": waiting to send (saved " + hhmm(new Date(item.created)) + ").";
        row.appendChild(text);
        if (item.state === "look") {
          row.appendChild(button("Open it", "open", item.id));
        } else {
          row.appendChild(button("Edit", "edit", item.id));
        }
        row.appendChild(button("Cancel", "cancel", item.id));
        box.appendChild(row);
      });
    }).catch(function () {});
  }

  function findItem(id) {
    return all().then(function (items) { return items.filter(function (i) { return i.id === id; })[0]; });
  }

  // "Open it": post the kept entry as an ordinary form, so the server shows its ordinary answer
  // (the conflict page with the input kept, or the messages beside the fields).
  function openItem(item) {
    var form = document.createElement("form");
    form.method = "post";
    form.action = item.url;
    new URLSearchParams(item.body).forEach(function (value, name) {
      if (name === "entry_key") return;  // a fresh save from the page it opens
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.appendChild(input);
    });
    document.body.appendChild(form);
    return drop(item.id).then(function () { form.submit(); });
  }

  document.addEventListener("click", function (event) {
    var b = event.target.closest("[data-outbox-action]");
    if (!b) return;
    var id = b.dataset.outboxId;
    findItem(id).then(function (item) {
      if (!item) return render();
      if (b.dataset.outboxAction === "cancel") {
        if (window.confirm("Cancel " + item.label + "? It was never sent; it is deleted from this phone.")) {
          return drop(id).then(render);
        }
      } else if (b.dataset.outboxAction === "edit") {
        location.assign(item.page + "#outbox=" + encodeURIComponent(id));
      } else {
        return openItem(item);
      }
    });
  });

  // Editing a waiting entry: its form opens filled with what was typed.
  function fillFromOutbox() {
    var id = new URLSearchParams(location.hash.slice(1)).get("outbox");
    var form = document.querySelector("main form[method=post]");
    if (!id || !isEntryForm(form)) return;
    findItem(id).then(function (item) {
      if (!item) return;
      var params = new URLSearchParams(item.body);
      Array.prototype.forEach.call(form.elements, function (el) {
        if (!el.name || el.name === "csrf_token" || el.type === "submit" || el.type === "button") return;
        var values = params.getAll(el.name);
        if (el.type === "checkbox" || el.type === "radio") el.checked = values.indexOf(el.value) !== -1;
        else if (el.tagName === "SELECT" && el.multiple) {
          Array.prototype.forEach.call(el.options, function (o) { o.selected = values.indexOf(o.value) !== -1; });
        } else if (values.length) el.value = values[0];
        else if (el.type !== "hidden") el.value = "";
        el.dispatchEvent(new Event("input", { bubbles: true }));
        el.dispatchEvent(new Event("change", { bubbles: true }));
      });
    });
  }

  // -- Offline banner ---------------------------------------------------------------------------
  function banner() {
    var main = document.getElementById("main");
    var old = document.getElementById("offline-banner");
    if (navigator.onLine) {
      sessionStorage.removeItem("courtier-offline-since");
      if (old) old.remove();
      return;
    }
    var since = parseInt(sessionStorage.getItem("courtier-offline-since"), 10);
    if (!since) { since = Date.now(); sessionStorage.setItem("courtier-offline-since", String(since)); }
    var board = document.getElementById("board");
    var changed = board && board.dataset.changedAt ? new Date(board.dataset.changedAt) : null;
    var text = "Offline since " + hhmm(new Date(since)) + ". " +
      (changed && !isNaN(changed) ? "Scores as of the last change this phone knows, at " + hhmm(changed) + ". " : "") +
      "Saves wait on this phone and are sent when the signal is back.";
    if (!main) return;
    if (!old) {
      old = document.createElement("p");
      old.id = "offline-banner";
      old.className = "offline-banner";
      old.setAttribute("role", "status");
      main.insertBefore(old, main.firstChild);
    }
    old.textContent = text;
  }


  // A table's pages that carry its edit key are kept only while it is open here (sw.js).
  window.addEventListener("pagehide", function () {
    var sw = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (sw && /\/t\//.test(location.pathname)) sw.postMessage({ type: "table-closing" });
  });

  // The table's entry form is fetched once per visit, so the service worker has it for later.
  function keepEntryForm() {
    var link = document.getElementById("board") && document.querySelector("a[href*='/hands/new']");
    if (!link || !navigator.onLine || !(navigator.serviceWorker && navigator.serviceWorker.controller)) return;
    fetch(link.href, { credentials: "same-origin", headers: { Accept: "text/html" } }).catch(function () {});
  }

  function start() {
    banner();
    render();
    fillFromOutbox();
    keepEntryForm();
    flush();
  }

  window.addEventListener("online", function () { banner(); flush(); });
  window.addEventListener("offline", banner);
  document.addEventListener("courtier:board-updated", function () { banner(); render(); });
  document.addEventListener("htmx:afterSettle", start);
  setInterval(flush, RETRY_MS);
  if ("serviceWorker" in navigator) navigator.serviceWorker.addEventListener("controllerchange", keepEntryForm);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
