// Courtier's small enhancements. Every page works without this file.
(function () {
  "use strict";
  // The scoreboard refreshes itself: a conditional GET, swapped only on change. Every 2 s while play
  // goes on; a table nobody has changed for a while is asked less often, and the first change seen
  // brings it back to every 2 s. A hidden page (another tab, a phone asleep in a pocket) asks nothing
  // and catches up the moment it is seen again.
  var POLL_MS = 2000;
  var QUIET = [[5 * 60000, POLL_MS], [20 * 60000, 6000], [60 * 60000, 15000], [Infinity, 30000]];
  var poll = null;

  // The words scripts write, in the page's language: a page in another language than English carries
  // them in a hidden element's data-words (companion/web/script_words.py), by their English words; an
  // English page has none and the words are said as written. {name} fields take their values; a
  // sentence that depends on a number has a form for 0, 1 and any other count.
  var said = { block: null, words: {} };
  function say(text, values) {
    var block = document.getElementById("courtier-words");
    if (block !== said.block) {
      said.block = block;
      try { said.words = block ? JSON.parse(block.dataset.words) : {}; } catch (e) { said.words = {}; }
    }
    var words = said.words[text];
    if (Array.isArray(words)) words = words[Math.max(0, Math.min(2, Math.abs((values && values.count) || 0)))];
    return (typeof words === "string" ? words : text).replace(/\{(\w+)\}/g, function (whole, name) {
      return values && name in values ? String(values[name]) : whole;
    });
  }
  window.courtierSay = say;
  // What the page's own script needs of its words (an entry form's round), or null.
  window.courtierPage = function () { say(""); return said.words.page || null; };

  function pollDelay(quietFor) {
    for (var i = 0; i < QUIET.length; i++) if (quietFor < QUIET[i][0]) return QUIET[i][1];
    return POLL_MS;
  }
  function stopPolling() {
    if (!poll) return;
    clearTimeout(poll.timer);
    if (poll.asking) poll.asking.abort();
    poll = null;
  }
  function startPolling() {
    var board = document.getElementById("board");
    stopPolling();
    if (!board || !board.dataset.poll || document.hidden) return;
    poll = { url: board.dataset.poll, etag: null, timer: null, asking: null, changedAt: Date.now() };
    var mine = poll;
    function next() {
      if (poll === mine) mine.timer = setTimeout(tick, pollDelay(Date.now() - mine.changedAt));
    }
    function tick() {
      if (poll !== mine) return;
      if (!navigator.onLine) { next(); return; }
      var headers = mine.etag ? { "If-None-Match": mine.etag } : {};
      mine.asking = window.AbortController ? new AbortController() : null;
      fetch(mine.url, { headers: headers, cache: "no-store", credentials: "same-origin",
                        signal: mine.asking ? mine.asking.signal : undefined })
        .then(function (r) {
          if (r.status === 200) {
            mine.etag = r.headers.get("ETag");
            return r.text().then(function (html) {
              if (swapBoard(html, !!headers["If-None-Match"])) mine.changedAt = Date.now();
            });
          }
        })
        .catch(function () {})
        .then(next);
    }
    tick();
  }

  // Offline, the refresh waits; back online (or once the phone's waiting saves are sent) it goes at once.
  window.addEventListener("online", startPolling);
  // Leaving the page stops the refresh, so no request is left open and the browser keeps the page whole
  // for the back button (the back/forward cache); shown again from there, it refreshes at once.
  window.addEventListener("pagehide", stopPolling);
  window.addEventListener("pageshow", function (event) { if (event.persisted) startPolling(); });
  // Hidden, nothing is asked; seen again, the board is asked for at once, then every 2 s.
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) stopPolling(); else startPolling();
  });
  document.addEventListener("courtier:outbox-sent", startPolling);

  function swapBoard(html, changed) {
    var board = document.getElementById("board");
    if (!board) return false;
    var tpl = document.createElement("template");
    tpl.innerHTML = html.trim();
    var fresh = tpl.content.firstElementChild;
    if (!fresh || fresh.dataset.version === board.dataset.version) return false;
    var open = Array.prototype.map.call(board.querySelectorAll("details[open]"), function (d) { return d.id; });
    board.replaceWith(fresh);
    open.forEach(function (id) { var d = id && document.getElementById(id); if (d) d.open = true; });
    if (changed) {
      fresh.classList.add("updated");
      var moved = movedTotals(board, fresh);
      var region = document.getElementById("announce");
      if (moved.length && region) announce(region.dataset.otherPhone + " " + moved.join(", ") + ".");
    }
    document.dispatchEvent(new CustomEvent("courtier:board-updated"));
    return true;
  }

  // The pad's totals that differ between two boards, "Ann 120" each: what another phone's change moved.
  function padTotals(board) {
    var names = board.querySelectorAll(".pad thead th.num .name");
    var totals = board.querySelectorAll(".pad tfoot tr.totals td");
    var out = {};
    Array.prototype.forEach.call(names, function (th, i) { if (totals[i]) out[th.textContent] = totals[i].textContent; });
    return out;
  }
  function movedTotals(old, fresh) {
    var before = padTotals(old), after = padTotals(fresh);
    return Object.keys(after).filter(function (name) { return after[name] !== before[name]; })
      .map(function (name) { return name + " " + after[name]; });
  }

  // The page's live region (base.html) says a thing once, politely: emptied first, so the same words
  // said twice (two saves that moved the same totals) are heard twice.
  var saying = null;
  function announce(text) {
    var region = document.getElementById("announce");
    // Spaces run together as one, but a no-break space stays: French sets it before its colons.
    text = (text || "").replace(/[^\S\u00a0\u202f]+/g, " ").trim();
    if (!region || !text) return;
    region.textContent = "";
    clearTimeout(saying);
    saying = setTimeout(function () { region.textContent = text; }, 150);
  }
  window.courtierAnnounce = announce;

  // What a page that just came says (its flash, "Undone", a refused form's problems), each part once.
  function announceArrivals(root) {
    var parts = Array.prototype.filter.call(root.querySelectorAll("[data-announce]"), function (el) {
      return !el.dataset.announced && !el.closest("[hidden]");
    });
    parts.forEach(function (el) { el.dataset.announced = "1"; });
    announce(parts.map(function (el) { return el.innerText || el.textContent; }).join(" "));
  }

  // Focus after a page swapped in by htmx (a boosted link or form) goes where a reader goes next,
  // never to the top of an empty page: the first field with a problem (which reads its message), else
  // the part the address names (#board, #top), else the page's heading.
  function placeFocus() {
    var target = document.querySelector("main [aria-invalid='true'], main fieldset[aria-describedby]");
    if (target && target.matches("fieldset")) target = target.querySelector("input:checked, input") || target;
    var problems = document.getElementById("problems");
    if (!target && problems) { target = problems; problems.dataset.announced = "1"; }  // read as it takes the focus
    if (!target && location.hash.length > 1) {
      var named = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      target = named && (named.querySelector("h1, h2, h3") || named);
    }
    if (!target) target = document.querySelector("main h1");
    if (!target) return;
    if (!target.matches("a[href], button, input, select, textarea, [tabindex]")) target.setAttribute("tabindex", "-1");
    var field = target.matches("[aria-invalid='true'], fieldset *") && (target.closest(".field, fieldset") || target);
    focusWithoutPicker(target, { preventScroll: !!field || target.tagName === "H1" || target.tagName === "H2" });
    // A field with a problem is shown with its message, once htmx has scrolled the new page to its top.
    if (field) setTimeout(function () { field.scrollIntoView({ block: "center" }); }, 0);
  }

  // Steppers on count fields; the hand forms' own helpers, game by game, are in forms.js.
  function enhance(root) {
    root.querySelectorAll(".step[hidden], [data-copy][hidden], .pick[hidden], .quick-counts[hidden]").forEach(function (b) { b.hidden = false; });
    keepPicking();
    startPolling();
  }

  document.addEventListener("click", function (event) {
    var step = event.target.closest(".step");
    if (step) {
      var input = step.parentElement.querySelector("input");
      var value = (parseInt(input.value, 10) || 0) + parseInt(step.dataset.step, 10);
      input.value = Math.max(0, value) || "";
      input.dispatchEvent(new Event("input", { bubbles: true }));
      return;
    }
    var copy = event.target.closest("[data-copy]");
    if (copy) {
      var field = document.getElementById(copy.dataset.copy);
      field.select();
      if (navigator.clipboard) navigator.clipboard.writeText(field.value);
      copy.textContent = say("Copied");
    }
  });

  document.addEventListener("submit", function (event) {
    var message = event.target.dataset && event.target.dataset.confirm;
    if (message && !window.confirm(message)) { event.preventDefault(); event.stopImmediatePropagation(); }
  }, true);


  // Card picker: tap Pick beside a zone (or focus it), then a rank and a suit (AR-1 pack counts).
  var SYMBOLS = { "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C" };
  var picking = { input: null, rank: null, opener: null };

  function tokens(input) {
    return input.value.replace(/[♠♤♥♡♦♢♣♧]/g, function (s) { return SYMBOLS[s]; })
      .toUpperCase().split(/[\s,;|]+/).filter(Boolean);
  }

  function panelFor(input) { return input.form && input.form.querySelector(".picker"); }

  function refreshPicker() {
    var input = picking.input;
    if (!input) return;
    var panel = panelFor(input);
    var pack = JSON.parse(panel.dataset.pack);
    var used = {};
    input.form.querySelectorAll("[data-cards]").forEach(function (zone) {
      tokens(zone).forEach(function (t) { used[t] = (used[t] || 0) + 1; });
    });
    panel.querySelector("[data-picker-label]").textContent = input.dataset.zone || "";
    panel.querySelector("[data-picker-cards]").textContent = tokens(input).join(" ") || say("no cards yet");
    panel.querySelectorAll("[data-rank]").forEach(function (b) {
      b.setAttribute("aria-pressed", b.dataset.rank === picking.rank ? "true" : "false");
    });
    panel.querySelectorAll("[data-card]").forEach(function (b) {
      b.disabled = (pack.single_copies || 1) - (used[b.dataset.card] || 0) <= 0;
    });
    panel.querySelectorAll("[data-suit]").forEach(function (b) {
      var small = b.querySelector("[data-left]");
      if (!picking.rank) { b.disabled = true; small.textContent = ""; return; }
      var left = (pack.copies[picking.rank] || 0) - (used[picking.rank + b.dataset.suit] || 0);
      b.disabled = left <= 0;
      small.textContent = say("{count} left", { count: left });
    });
  }

  // opener: the Pick button that opened the picker by keyboard or tap; focus goes into the picker then
  // (its first card left), and back to the opener when the picker closes (Done, Escape). A picker opened
  // by focusing a zone leaves the focus there, for typing.
  function startPicking(input, opener) {
    var panel = panelFor(input);
    if (!panel) return;
    if (picking.input) picking.input.classList.remove("picking");
    picking.input = input;
    if (opener) picking.opener = opener;
    else if (!panel.contains(document.activeElement)) picking.opener = input;
    input.classList.add("picking");
    panel.hidden = false;
    refreshPicker();
    input.dispatchEvent(new CustomEvent("courtier:picking", { bubbles: true }));  // the card grid draws its tabs now
    showAbove(input, panel);
    if (opener) {
      var first = panel.querySelector("[data-grid-card][tabindex='0']:not([disabled])") ||
        panel.querySelector("[data-grid-card]:not([disabled]), [data-card]:not([disabled]), [data-rank]");
      if (first) first.focus({ preventScroll: true });
    }
  }

  // The zone being filled, its label and any problem written under it, stand above the picker, which keeps
  // to the foot of the screen: the picker never covers the cards it adds to, nor a problem to read.
  function showAbove(input, panel) {
    var bar = panel.closest(".sticky-save");
    if (!bar || getComputedStyle(bar).position !== "sticky") { input.scrollIntoView({ block: "center" }); return; }
    var field = input.closest(".field") || input;
    for (var i = 0; i < 2; i++) {  // twice: the page moved, the bar may have come to rest at the form's end
      var room = panel.getBoundingClientRect().top - 8;
      var box = field.getBoundingClientRect();
      var by = box.top < 8 ? box.top - 8 : box.bottom > room ? Math.min(box.bottom - room, box.top - 8) : 0;
      if (Math.abs(by) < 1) return;
      window.scrollBy({ top: by, behavior: "instant" });
    }
  }

  // Focus put back on a zone (the picker closed, a refused save's first problem) leaves the picker closed:
  // only a new tap, a Tab onto the zone or its Pick button opens it again.
  var quietly = null;
  function focusWithoutPicker(element, options) {
    quietly = element;
    try { element.focus(options); } finally { quietly = null; }
  }

  // Closed by Done or Escape, the focus goes back to what opened the picker when it was in the picker (or
  // lost with a card that went grey); closed by a tap elsewhere, it stays where that tap put it.
  function stopPicking(byTapElsewhere) {
    if (!picking.input) return;
    picking.input.classList.remove("picking");
    var panel = panelFor(picking.input);
    var active = document.activeElement;
    var lost = !active || active === document.body || (panel && panel.contains(active));
    if (panel) panel.hidden = true;
    var back = picking.opener;
    picking.input = null;
    picking.rank = null;
    picking.opener = null;
    if (!byTapElsewhere && lost && back && document.body.contains(back)) focusWithoutPicker(back);
  }

  function pickerOpen() {
    var panel = picking.input && panelFor(picking.input);
    return !!panel && !panel.hidden;
  }

  // Escape closes the picker wherever the focus is (in it, on its zone, past it).
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || event.defaultPrevented || !pickerOpen()) return;
    event.preventDefault();
    stopPicking();
  });

  // A tap (or click) anywhere but the picker, a zone and a Pick button closes it. A tap is judged where it
  // went down: the picker opening under the finger scrolls the page, and the click lands on what came there.
  var pressedOn = null;
  document.addEventListener("pointerdown", function (event) { pressedOn = event.target; }, true);
  document.addEventListener("click", function (event) {
    var where = event.detail && pressedOn ? pressedOn : event.target;  // detail 0: a click by keyboard
    pressedOn = null;
    if (!pickerOpen() || !where.closest) return;
    var label = where.closest("label");
    var onZone = where.closest("[data-cards], [data-pick]") ||
      (label && label.control && label.control.matches("[data-cards]"));
    if (!onZone && !panelFor(picking.input).contains(where)) stopPicking(true);
  });

  // The arrow keys move between the buttons of a row of ranks, suits or cards (a group is one stop of Tab).
  document.addEventListener("keydown", function (event) {
    var dx = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    var row = dx && event.target.closest && event.target.closest(".picker .ranks, .picker .suits, .picker .singles");
    if (!row) return;
    var buttons = Array.prototype.filter.call(row.querySelectorAll("button"), function (b) { return !b.disabled; });
    var at = buttons.indexOf(event.target);
    var next = buttons[at + dx];
    if (next) { event.preventDefault(); next.focus(); }
  });

  document.addEventListener("click", function (event) {
    var pick = event.target.closest("[data-pick]");
    if (pick) { startPicking(document.getElementById(pick.dataset.pick), pick); return; }
    var zone = event.target.closest("[data-cards]");
    if (zone && zone !== picking.input) { startPicking(zone); return; }  // a tap on a zone whose picker was closed
    if (!picking.input) return;
    var rank = event.target.closest("[data-rank]");
    var suit = event.target.closest("[data-suit]");
    var input = picking.input;
    if (rank && rank.dataset.rank) {
      picking.rank = rank.dataset.rank;
      refreshPicker();
      if (rank.contains(document.activeElement)) {  // by keyboard: on to the suits, the rank's other half
        var suit1 = panelFor(input).querySelector("[data-suit]:not([disabled])");
        if (suit1) suit1.focus();
      }
      return;
    }
    var single = event.target.closest("[data-card]");
    if ((suit && picking.rank) || single) {
      var card = single ? single.dataset.card : picking.rank + suit.dataset.suit;
      input.value = input.hasAttribute("data-single") ? card : (input.value.trim() + " " + card).trim();
      var byKeys = suit && suit.contains(document.activeElement) &&
        panelFor(input).querySelector("[data-rank='" + picking.rank + "']");
      picking.rank = null;
      if (byKeys) setTimeout(function () { byKeys.focus(); }, 0);  // by keyboard: back to the ranks for the next card
      input.dispatchEvent(new Event("input", { bubbles: true }));
      if (input.hasAttribute("data-single")) {
        var zones = Array.prototype.slice.call(input.form.querySelectorAll("[data-cards]"));
        var next = zones[zones.indexOf(input) + 1];
        if (next) { startPicking(next); return; }
      }
      refreshPicker();
      return;
    }
    if (event.target.closest("[data-separator]")) {
      if (input.value.trim() && !/\|\s*$/.test(input.value)) input.value = input.value.trim() + " |";
      input.dispatchEvent(new Event("input", { bubbles: true }));
      refreshPicker();
      return;
    }
    if (event.target.closest("[data-picker-undo]")) {
      input.value = input.value.trim().replace(/\s*\S+\s*$/, "");
      input.dispatchEvent(new Event("input", { bubbles: true }));
      refreshPicker();
      return;
    }
    if (event.target.closest("[data-picker-close]")) stopPicking();
  });

  document.addEventListener("focusin", function (event) {
    if (event.target !== quietly && event.target.matches && event.target.matches("[data-cards]")) startPicking(event.target);
  });
  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("[data-cards]")) refreshPicker();
  });


  // One-tap counts: a number button beside a count box sets it (RK-3, RR-1), instead of stepping.
  function markQuickCounts(field) {
    var input = field.querySelector("input");
    field.querySelectorAll("[data-set-count]").forEach(function (b) {
      b.setAttribute("aria-pressed", input.value !== "" && b.dataset.setCount === String(parseInt(input.value, 10)) ? "true" : "false");
    });
  }
  document.addEventListener("click", function (event) {
    var quick = event.target.closest("[data-set-count]");
    if (!quick) return;
    var field = quick.closest(".field");
    var input = field.querySelector("input");
    input.value = quick.dataset.setCount;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  document.addEventListener("input", function (event) {
    var field = event.target.closest && event.target.closest(".field.count");
    if (field && field.querySelector("[data-set-count]")) markQuickCounts(field);
  });

  // The card picker outlives live checks: an htmx swap beside a zone keeps the zone being picked
  // and the rank chosen; only a zone that left the page stops the picking.
  function keepPicking() {
    if (picking.input && !document.body.contains(picking.input)) {
      var again = picking.input.id && document.getElementById(picking.input.id);
      // a whole page swapped in (a refused save) brings its picker closed: the picking stops with it
      if (again && again.matches("[data-cards]") && panelFor(again) && !panelFor(again).hidden) {
        picking.input = again;
        again.classList.add("picking");
        refreshPicker();
      } else {
        picking.input = null;
        picking.rank = null;
        picking.opener = null;
      }
    } else if (picking.input) {
      refreshPicker();
    }
  }

  // A form's save bar keeps to the bottom of the screen once something is entered in the form: before
  // that there is nothing to save, and it waits at the end of the form, covering none of it (app.css).
  ["input", "change"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var form = event.target.form || (event.target.closest && event.target.closest("form"));
      if (form && form.querySelector(".sticky-save")) form.classList.add("started");
    });
  });

  document.addEventListener("DOMContentLoaded", function () { enhance(document); announceArrivals(document); });
  document.addEventListener("htmx:afterSettle", function (event) {
    enhance(document);
    var whole = event.detail && (event.detail.boosted || event.target === document.body);
    if (whole) placeFocus();
    announceArrivals(document);
  });
  // Offline at the table: the service worker keeps the app and the tables' pages (static/js/sw.js).
  var worker = document.body && document.body.dataset.serviceWorker;
  // Registered once the page has loaded: a first visit's worker fetches every static file, which is not
  // to compete with the page's own.
  function registerWorker() { navigator.serviceWorker.register(worker).catch(function () {}); }
  // The worker keeps its "No signal" page in the language this phone reads.
  function tellLanguage() {
    var lang = document.documentElement.lang;
    if (lang && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ type: "language", code: lang });
    }
  }
  if (worker && "serviceWorker" in navigator) tellLanguage();
  if (worker && "serviceWorker" in navigator) {
    if (document.readyState === "complete") registerWorker();
    else window.addEventListener("load", registerWorker);
  }
  // Scripts only some pages need are loaded when such a page shows (also after an htmx swap,
  // which runs no script of the page it brings), so the first page stays small.
  var LAZY = [
    ["main form", ["typed.js"]],  // a form: what is typed in it stays through a change of language
    ["#board, form[action*='/hands'], time[datetime]", ["pad.js", "offline.js"]],  // a table's pages
    ["form.entry", ["forms.js"]],  // a hand form, or a referee's question
    ["[data-card-grid]", ["card-grid.js"]]  // the card grid of the Royals games' picker
  ];
  var loaded = {};
  var here = (document.currentScript && document.currentScript.src || "").replace(/app\.js(\?.*)?$/, "");
  // Saves waiting on this phone (offline.js keeps their count here) are sent from whatever page is
  // showing when the signal comes back: a rules page, the "No signal" page, the home page.
  function waiting() {
    try { return parseInt(localStorage.getItem("courtier-outbox"), 10) > 0; } catch (e) { return false; }
  }
  function loadLazy() {
    LAZY.forEach(function (rule) {
      if (!here || !(document.querySelector(rule[0]) || (rule[1].indexOf("offline.js") >= 0 && waiting()))) return;
      rule[1].forEach(function (name) {
        if (loaded[name]) return;
        loaded[name] = true;
        var script = document.createElement("script");
        script.src = here + name;
        script.async = false;  // in the order listed
        document.head.appendChild(script);
      });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", loadLazy);
  else loadLazy();  // the "No signal" page's script may run after the page has loaded
  document.addEventListener("htmx:afterSettle", loadLazy);
})();
