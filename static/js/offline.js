// Offline at the table: the service worker keeps the pages; this keeps the saves.
// A hand saved without signal waits on the phone (IndexedDB) with its entry key and the version
// it was based on, is shown on the board as "waiting to send", and is sent in order as soon as the
// phone is online again. The server stores each entry key once, so a replay never doubles a hand.
// Every page works without this file.
(function () {
  "use strict";
  var say = window.courtierSay;
  var RETRY_MS = 10000;
  var QUEUED = "X-Courtier-Queued";
  // Pages fetched only for the service worker to keep: their answers leave this phone's messages to the
  // page being opened, and never set the session (companion/web/kept_copies.py).
  var KEPT_COPY = { Accept: "text/html", "X-Courtier-Copy": "1" };
  var ENTRY_FORM = /\/t\/[A-Za-z0-9_-]+\/hands(\/\d+)?$/;
  var STATES = {
    409: "another phone saved first",
    422: "it needs a correction",
    400: "its form expired",
    403: "this link can no longer enter scores",
    404: "the table or the hand is no longer there"
  };
  // A 409 that is not a clash says why in this header (views/tables.py, REFUSED_HEADER).
  var REFUSED = { "time-called": "time was called on this round: it will not count in the tournament" };

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
      // Every page's app.js loads this file while anything waits, so it is sent from any page.
      try { localStorage.setItem("courtier-outbox", String((items || []).length)); } catch (e) { /* private mode */ }
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
  // A form keeps one key: the server's, on a kept form it sent back; a waiting entry's, when the form
  // was opened to edit it; else a new one. So an entry is stored once however often it is sent.
  function keyOf(form) {
    var input = form.querySelector("input[name=entry_key]");
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = "entry_key";
      input.value = new URLSearchParams(location.hash.slice(1)).get("outbox") || newKey();
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
  // A page in another language says its round itself (its words' "page"), as "Donne 6".
  function labelOf(heading, waiting) {
    var page = window.courtierPage();
    if (page && page.round) {
      return page.correction ? say("{what} (correction)", { what: page.round + " " + page.number })
        : page.round + " " + (page.number + waiting);
    }
    var m = /^\s*(Enter|Correct|Edit)\s+(.+?)\s*$/i.exec(heading);
    if (!m) return say("An entry");
    var what = m[2].charAt(0).toUpperCase() + m[2].slice(1);
    if (!/^enter$/i.test(m[1])) return say("{what} (correction)", { what: what });
    return what.replace(/(\d+)$/, function (n) { return String(parseInt(n, 10) + waiting); });
  }

  function queue(form, submitter) {
    var key = keyOf(form);
    var body = bodyOf(form, submitter);
    var params = new URLSearchParams(body);
    var title = document.querySelector("main h1");
    var heading = title ? (title.dataset.asServed || title.textContent) : "";
    return all().then(function (items) {
      var waiting = adding(items, tableUrl(form.action), key.value).length;
      var before = items.filter(function (i) { return i.id === key.value; })[0];
      // An edited entry keeps its name and its place in the queue.
      return queueItem(form, key, body, params, before ? before.label : labelOf(heading, waiting),
        before ? before.created : Date.now());
    });
  }

  // The new rounds waiting for a table, oldest first (but the one being edited now).
  function adding(items, table, except) {
    return items.filter(function (i) {
      return i.table.split("?")[0] === table.split("?")[0] && i.id !== except && /\/hands$/.test(new URL(i.url).pathname);
    });
  }

  function queueItem(form, key, body, params, label, created) {
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
    return put(item).then(function () {
      try { sessionStorage.setItem("courtier-say-waiting", item.id); } catch (e) { /* not said, still shown */ }
      location.assign(item.table + "#board");
    });
  }

  // Sent now, with signal: a waiting entry with this form's key takes what the form holds and waits
  // for the answer; it leaves the phone only when the server has it (the queue then hears "stored").
  function sendingNow(form, submitter) {
    var key = keyOf(form).value;
    return findItem(key).then(function (item) {
      if (!item) return;
      item.body = bodyOf(form, submitter);
      item.base = parseInt(new URLSearchParams(item.body).get("base_version"), 10);
      item.state = "waiting";
      return put(item);
    }).catch(function () {});
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!isEntryForm(form) || event.defaultPrevented) return;
    keyOf(form);  // a double tap sends the same key twice: stored once
    if (navigator.onLine) {
      sendingNow(form, event.submitter);
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
    var sent = 0;
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
          params.set("typed_at", new Date(item.created).toISOString());  // the history gives both times
          return fetch(item.url, { method: "POST", body: params.toString(), headers: headers,
            credentials: "same-origin", redirect: "manual" })
            .then(function (r) {
              if (r.status === 204) {
                var stored = parseInt(r.headers.get("X-Courtier-Version"), 10);
                if (stored === base + 1) moved[base] = stored;  // nobody else wrote in between
                sent += 1;
                return drop(item.id).then(function () { return true; });
              }
              if (r.status >= 500 || r.status === 429) return false;  // try again later
              item.state = "look";
              item.reason = say(REFUSED[r.headers.get("X-Courtier-Refused")] || STATES[r.status] || "it could not be saved");
              item.body = params.toString();
              return put(item).then(function () { return true; });
            }, function () { return false; });  // still no signal
        });
      });
      return chain;
    }).catch(function () {}).then(function () {
      sending = false;
      render();
      // The board is asked for at once only when a save went: an empty outbox's check every 10 s is no news.
      if (sent) document.dispatchEvent(new CustomEvent("courtier:outbox-sent"));
    });
  }

  // -- What the board shows -------------------------------------------------------------------
  function hhmm(date) {  // the phone's way of writing the page's language, else the page's language's own
    var page = document.documentElement.lang, phone = (navigator.language || "").split("-")[0];
    return date.toLocaleTimeString(!page || phone === page ? [] : page, { hour: "2-digit", minute: "2-digit" });
  }

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
      countOnBoard(adding(items, table, null));
      var box = document.getElementById("outbox");
      if (!items.length) { if (box) box.remove(); return; }
      if (!box) {
        box = document.createElement("section");
        box.id = "outbox";
        box.className = "outbox";
        var board = document.getElementById("board");
        board.parentNode.insertBefore(box, board);
      }
      box.textContent = "";
      var h = document.createElement("h2");
      h.textContent = say("On this phone, not sent yet");
      box.appendChild(h);
      items.forEach(function (item) {
        var row = document.createElement("div");
        row.className = "outbox-item" + (item.state === "look" ? " needs-look" : "");
        row.dataset.state = item.state;
        var text = document.createElement("p");
        text.textContent = item.state === "look"
          ? say("{label} needs a look: {reason}. Your entry is kept.", { label: item.label, reason: item.reason })
          : say("{label}: waiting to send (saved {time}).", { label: item.label, time: hhmm(new Date(item.created)) });
        row.appendChild(text);
        // Said once, politely, by the page's live region (app.js): the entry just kept on this phone.
        var heard = null;  // not "say": that is the words' function, for this whole script
        try { heard = sessionStorage.getItem("courtier-say-waiting"); } catch (e) { heard = null; }
        if (heard === item.id && window.courtierAnnounce) {
          sessionStorage.removeItem("courtier-say-waiting");
          window.courtierAnnounce(text.textContent);
        }
        if (item.state === "look") {
          row.appendChild(button(say("Open it"), "open", item.id));
        } else {
          row.appendChild(button(say("Edit"), "edit", item.id));
        }
        row.appendChild(button(say("Cancel"), "cancel", item.id));
        box.appendChild(row);
      });
    }).catch(function () {});
  }

  function findItem(id) {
    return all().then(function (items) { return items.filter(function (i) { return i.id === id; })[0]; });
  }

  // "Open it": post the kept entry as an ordinary form, so the server shows its ordinary answer
  // (the conflict page with the input kept, or the messages beside the fields). The entry stays on
  // the phone, with its key, until the server has it: the page it opens sends the same key again.
  function openItem(item, row) {
    if (!navigator.onLine) {
      var note = row && (row.querySelector(".outbox-note") || document.createElement("p"));
      if (note) {
        note.className = "outbox-note";
        note.setAttribute("role", "status");
        note.textContent = say("No signal: {label} stays on this phone. Open it when the signal is back.", { label: item.label });
        row.appendChild(note);
      }
      return Promise.resolve();
    }
    var form = document.createElement("form");
    form.method = "post";
    form.action = item.url;
    new URLSearchParams(item.body).forEach(function (value, name) {
      if (name === "typed_at") return;
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.appendChild(input);
    });
    if (!form.querySelector("input[name=entry_key]")) form.appendChild(Object.assign(document.createElement("input"),
      { type: "hidden", name: "entry_key", value: item.id }));
    document.body.appendChild(form);
    form.submit();
    return Promise.resolve();
  }

  document.addEventListener("click", function (event) {
    var b = event.target.closest("[data-outbox-action]");
    if (!b) return;
    var id = b.dataset.outboxId;
    findItem(id).then(function (item) {
      if (!item) return render();
      if (b.dataset.outboxAction === "cancel") {
        if (window.confirm(say("Cancel {label}? It was never sent; it is deleted from this phone.", { label: item.label }))) {
          return drop(id).then(render);
        }
      } else if (b.dataset.outboxAction === "edit") {
        location.assign(item.page + "#outbox=" + encodeURIComponent(id));
      } else {
        return openItem(item, b.closest(".outbox-item"));
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

  // -- Waiting rounds count: the next round's number and who deals it -------------------------
  // The board and the entry form are the server's as of the last change it knows; the rounds
  // waiting on this phone come after it. Their scores are the server's to work out, so the pad
  // lists them as waiting; the number and the dealer of the next round take them into account.
  function upcoming(items) {
    var next = document.querySelector("#board tr.next");
    if (!next) return null;
    var seats = JSON.parse(next.dataset.seats || "[]");
    var field = next.dataset.dealerField;
    var dealer = next.dataset.next;
    var dealers = items.map(function (item) {
      var named = field ? new URLSearchParams(item.body).get(field) : "";
      var who = seats.indexOf(named) >= 0 ? named : dealer;
      dealer = seats.length ? seats[(seats.indexOf(who) + 1) % seats.length] : dealer;  // the deal passes left
      return who;
    });
    var said = asServed(next.querySelector("td"));
    // the verb as the page says it, after the next dealer's name ("Next: Ann deals": "deals")
    var named = said.lastIndexOf(next.dataset.next);
    var verb = named >= 0 ? said.slice(named + next.dataset.next.length).trim() : "";
    return { row: next, dealers: dealers, next: dealer, verb: verb || (/plays\s*$/.test(said) ? "plays" : "deals") };
  }

  function asServed(el) {
    if (!el.dataset.asServed) el.dataset.asServed = el.textContent;
    return el.dataset.asServed;
  }

  // Text changed only when it differs: rewriting the same words would lay the whole page out again, on
  // every page load of a table with nothing waiting.
  function setText(el, text) { if (el.textContent !== text) el.textContent = text; }

  function plus(text, n) {
    return text.replace(/(\d+)(\D*)$/, function (all, d, rest) { return String(parseInt(d, 10) + n) + rest; });
  }

  function countOnBoard(items) {
    var enter = document.querySelector(".actions a[href*='/hands/new']");
    var stored = document.querySelectorAll("#board li.hand").length;  // the board may be newer than the link
    if (enter) {
      setText(enter, asServed(enter).replace(/(\d+)(\D*)$/, function (all, d, rest) { return String(stored + 1 + items.length) + rest; }));
    }
    var empty = document.querySelector("#board p.empty");
    if (empty) {
      asServed(empty);
      setText(empty, items.length ? say("{count} waiting on this phone, not sent yet.", { count: items.length }) : empty.dataset.asServed);
    }
    Array.prototype.forEach.call(document.querySelectorAll("#board tr.waiting"), function (tr) { tr.remove(); });
    var chain = upcoming(items);
    if (!chain) return;
    var first = parseInt(asServed(chain.row.querySelector(".pad-n span")), 10);
    var columns = chain.row.querySelector("td").colSpan;
    items.forEach(function (item, i) {
      var tr = document.createElement("tr");
      tr.className = "waiting";
      var th = document.createElement("th");
      th.scope = "row";
      th.className = "pad-n";
      th.textContent = String(first + i);
      var td = document.createElement("td");
      td.colSpan = columns;
      td.textContent = (chain.dealers[i] ? chain.dealers[i] + " " + chain.verb + " · " : "") + say("waiting to send");
      tr.appendChild(th);
      tr.appendChild(td);
      chain.row.parentNode.insertBefore(tr, chain.row);
    });
    setText(chain.row.querySelector(".pad-n span"), String(first + items.length));
    setText(chain.row.querySelector(".pad-n small"), chain.next);
    setText(chain.row.querySelector("td"), say("Next: {dealer} {verb}", { dealer: chain.next, verb: chain.verb }));
  }

  // The entry form for a new round, opened while rounds wait: its number, its button and its dealer follow them.
  function countOnForm() {
    var form = document.querySelector("main form[method=post]");
    if (!isEntryForm(form) || !/\/hands$/.test(new URL(form.action, location.href).pathname)) return;
    var editing = new URLSearchParams(location.hash.slice(1)).get("outbox");
    var kept = form.querySelector("input[name=entry_key]");
    if (editing || kept) return;  // a waiting entry opened to edit, or a kept form: its own number and values
    all().then(function (items) {
      var waiting = adding(items, tableUrl(form.action), null);
      var title = document.querySelector("main h1");
      var save = form.querySelector("button[type=submit]");
      if (title) setText(title, plus(asServed(title), waiting.length));
      if (save) setText(save, plus(asServed(save), waiting.length));
      var chain = waiting.length && upcoming(waiting);
      var field = chain && chain.row.dataset.dealerField;
      var select = field && form.querySelector("select[name='" + field + "']");
      if (select && select.value === chain.row.dataset.next) select.value = chain.next;  // left as the table chose
    }).catch(function () {});
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
    var text = say("Offline since {time}.", { time: hhmm(new Date(since)) }) + " " +
      (changed && !isNaN(changed) ? say("Scores as of the last change this phone knows, at {time}.", { time: hhmm(changed) }) + " " : "") +
      say("Saves wait on this phone and are sent when the signal is back.");
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
    fetch(link.href, { credentials: "same-origin", headers: KEPT_COPY }).catch(function () {});
  }

  function start() {
    banner();
    render();
    countOnForm();
    fillFromOutbox();
    keepEntryForm();
    flush();
  }

  // Back from the back/forward cache: the saves waiting, and the copies the service worker dropped while
  // the page was away (its keyed copies go once no tab shows the table), are seen to again.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    var sw = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (sw && navigator.onLine && /\/t\//.test(location.pathname)) {
      fetch(location.href, { credentials: "same-origin", headers: KEPT_COPY }).catch(function () {});
    }
    banner();
    render();
    countOnForm();
    keepEntryForm();
    flush();
  });
  window.addEventListener("online", function () { banner(); flush(); });
  window.addEventListener("offline", banner);
  document.addEventListener("courtier:board-updated", function () { banner(); render(); });
  document.addEventListener("htmx:afterSettle", start);
  setInterval(flush, RETRY_MS);
  if ("serviceWorker" in navigator) navigator.serviceWorker.addEventListener("controllerchange", keepEntryForm);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
