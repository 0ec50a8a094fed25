// The card grid: every card of the pack has its own button in the picker, so one tap adds one
// card; each button shows the copies left across all boards (AR-1, IR-1), and tabs move to the
// player's other places (Spoils, Meld, Left in hand; groups, loose cards) or the next player in
// one tap. A pack with a hand size (Indian Rummy's 13, IR-5) counts the player's cards against it
// and refuses one more, in words. It works beside the picker in app.js, through the input it
// marks with the class "picking".
(function () {
  "use strict";
  var say = window.courtierSay;

  function cardsOf(input) {
    return input.value.replace(/[♠♤]/g, "S").replace(/[♥♡]/g, "H").replace(/[♦♢]/g, "D").replace(/[♣♧]/g, "C")
      .toUpperCase().split(/[\s,;|]+/).filter(Boolean);
  }

  function gridOf(form) { return form && form.querySelector(".picker [data-card-grid]"); }

  function current(form) { return form && form.querySelector("[data-cards].picking"); }

  function shown(zone) { return !zone.closest("[hidden]"); }

  // The places that make up one hand: the player's visible zones, or the zone alone off a table.
  function handOf(input) {
    var box = input.closest("fieldset.player");
    if (!box) return { who: "", zones: [input] };
    var zones = Array.prototype.filter.call(box.querySelectorAll("[data-cards]"), shown);
    return { who: box.dataset.player || "", zones: zones.length ? zones : [input] };
  }

  function cardsInHand(hand) {
    return hand.zones.reduce(function (n, zone) { return n + cardsOf(zone).length; }, 0);
  }

  function handWords(hand, n, size, refused) {
    // Whose hand, as the language writes a name before what it has (« Ben : 13 cartes choisies. »).
    function whose(said) { return hand.who ? say("{who}: {said}", { who: hand.who, said: said }) : said; }
    if (refused) {
      return hand.who ? say("{who} has {size} cards already: take one back with ⌫ before adding another.",
        { who: hand.who, size: size })
        : say("This hand has {size} cards already: take one back with ⌫ before adding another.", { size: size });
    }
    if (n > size) return whose(say("{count} cards, but a hand has {size}: take {over} back.", { count: n, size: size, over: n - size }));
    if (n === size) return whose(say("{count} cards chosen.", { count: size }));
    return whose(say("{count} of {size} cards", { count: n, size: size }));
  }

  function drawCount(grid, pack, input) {
    var out = grid.closest(".picker").querySelector("[data-hand-count]");
    if (!out || !pack.hand_size) return;
    var hand = handOf(input);
    var n = cardsInHand(hand);
    var refused = grid.dataset.refused === input.id + ":" + n;
    if (!refused) delete grid.dataset.refused;
    out.textContent = handWords(hand, n, pack.hand_size, refused);
    out.classList.toggle("full", n >= pack.hand_size && !refused);
    out.classList.toggle("refused", refused || n > pack.hand_size);
    grid.classList.toggle("full", n >= pack.hand_size);
  }

  function refreshGrid(form) {
    var grid = gridOf(form);
    var input = current(form);
    if (!grid || !input) return;
    var panel = grid.closest(".picker");
    var pack = JSON.parse(panel.dataset.pack);
    var used = {};
    form.querySelectorAll("[data-cards]").forEach(function (zone) {
      cardsOf(zone).forEach(function (c) { used[c] = (used[c] || 0) + 1; });
    });
    grid.querySelectorAll("[data-grid-card]").forEach(function (b) {
      var card = b.dataset.gridCard;
      var copies = (pack.card_copies || {})[card];
      var left = (copies === undefined ? pack.copies[card.slice(0, -1)] || 0 : copies) - (used[card] || 0);
      b.disabled = left <= 0;
      b.querySelector("[data-left]").textContent = left > 0 ? String(left) : "";
      // Each card is read as a player says it, with its count ("King of Hearts, 1 left"): the words are the
      // page's (picker.html), in the reader's language, in the button's own text (the symbols hidden from it).
      if (b.dataset.name) b.title = b.dataset.name;
      var words = grid.dataset[left > 1 ? "leftMany" : left === 1 ? "leftOne" : "leftNone"];
      b.querySelector("[data-said]").textContent = words.replace("{card}", b.dataset.spoken).replace("{n}", String(left));
    });
    rove(grid);
    drawTabs(form, panel, input);
    drawCount(grid, pack, input);
    var separator = panel.querySelector("[data-separator]");
    if (separator) separator.hidden = !/groups$/.test(input.name);  // groups only: not in a list of cards
  }

  // The grid is one stop of Tab: one card is in the tab order (the last one focused, or the first left),
  // and the arrow keys move between the cards as they lie on the screen.
  function cards(grid) {
    return Array.prototype.filter.call(grid.querySelectorAll("[data-grid-card]"), function (b) { return !b.disabled; });
  }

  function rove(grid, to) {
    var open = cards(grid);
    var keep = to || open.filter(function (b) { return b.getAttribute("tabindex") === "0"; })[0] || open[0];
    grid.querySelectorAll("[data-grid-card]").forEach(function (b) { b.setAttribute("tabindex", b === keep ? "0" : "-1"); });
  }

  function centre(b) {
    var r = b.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }

  // The card that way: the next or previous one left for right and left (the grid reads in rows), the
  // nearest one of the row below or above for down and up.
  function neighbour(grid, from, key) {
    var open = cards(grid);
    if (key === "ArrowRight" || key === "ArrowLeft") {
      var all = Array.prototype.slice.call(grid.querySelectorAll("[data-grid-card]"));
      var at = all.indexOf(from);
      var way = open.filter(function (b) { return key === "ArrowRight" ? all.indexOf(b) > at : all.indexOf(b) < at; });
      return key === "ArrowRight" ? way[0] : way[way.length - 1];
    }
    var here = centre(from);
    var best = null, bestCost = Infinity;
    open.forEach(function (b) {
      var c = centre(b), dx = c.x - here.x, dy = c.y - here.y;
      if (key === "ArrowDown" ? dy <= 4 : dy >= -4) return;
      var cost = Math.abs(dy) * 1000 + Math.abs(dx);
      if (cost < bestCost) { best = b; bestCost = cost; }
    });
    return best;
  }

  document.addEventListener("keydown", function (event) {
    var key = event.key;
    var from = event.target.closest && event.target.closest("[data-grid-card]");
    if (!from) return;
    var grid = from.closest("[data-card-grid]");
    var open = cards(grid);
    var to = key === "Home" ? open[0] : key === "End" ? open[open.length - 1]
      : /^Arrow/.test(key) ? neighbour(grid, from, key) : null;
    if (!to) return;
    event.preventDefault();
    rove(grid, to);
    to.focus();
  });

  // A card whose last copy was just taken goes grey: the focus moves on to the next card left, never lost.
  function keepFocus(grid, was) {
    setTimeout(function () {
      if (!was.disabled) return;
      var open = cards(grid);
      var all = Array.prototype.slice.call(grid.querySelectorAll("[data-grid-card]"));
      var after = open.filter(function (b) { return all.indexOf(b) > all.indexOf(was); })[0] || open[open.length - 1];
      if (after) { rove(grid, after); after.focus(); }
    }, 20);
  }

  function drawTabs(form, panel, input) {
    var tabs = panel.querySelector("[data-zone-tabs]");
    if (!tabs) return;
    var zones = Array.prototype.filter.call(form.querySelectorAll("[data-cards]"), shown);
    var box = input.closest("fieldset");
    var own = zones.filter(function (z) { return z.closest("fieldset") === box; });
    var later = zones.slice(zones.indexOf(input) + 1).filter(function (z) { return z.closest("fieldset") !== box; });
    var wanted = own.map(function (zone) {
      return [zone, zone.labels && zone.labels[0] ? zone.labels[0].textContent : zone.name, zone === input];
    });
    if (later.length) {
      var next = later[0].closest("fieldset");
      var name = next && next.dataset.player;
      wanted.push([later[0], (name || say("Next")) + " →", false]);
    }
    // The same tabs are kept (a tab that has the focus is never drawn away under it): only what is pressed changes.
    var drawn = wanted.map(function (w) { return w[0].id + ":" + w[1]; }).join("|");
    if (tabs.dataset.drawn === drawn) {
      Array.prototype.forEach.call(tabs.children, function (b, i) {
        b.setAttribute("aria-pressed", wanted[i][2] ? "true" : "false");
      });
      return;
    }
    tabs.dataset.drawn = drawn;
    tabs.textContent = "";
    wanted.forEach(function (w) { tabs.appendChild(tab(w[0], w[1], w[2])); });
  }

  function tab(zone, text, pressed) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "zone-tab";
    b.dataset.zoneTab = zone.id;
    b.textContent = text;
    b.setAttribute("aria-pressed", pressed ? "true" : "false");
    return b;
  }

  function moveTo(id) {
    var pick = document.querySelector("[data-pick='" + id + "']");
    if (pick) { pick.click(); return; }
    var zone = document.getElementById(id);
    if (zone) zone.focus();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-grid-card], [data-zone-tab]");
    if (!button) return;
    var form = button.form || button.closest("form");
    if (button.dataset.zoneTab) { moveTo(button.dataset.zoneTab); refreshGrid(form); return; }
    var input = current(form);
    if (!input || button.disabled) return;
    var single = input.hasAttribute("data-single");
    var grid = gridOf(form), pack = JSON.parse(grid.closest(".picker").dataset.pack);
    var n = pack.hand_size && !single ? cardsInHand(handOf(input)) : 0;
    if (pack.hand_size && !single && n >= pack.hand_size) {  // a 14th card: refused, in words
      grid.dataset.refused = input.id + ":" + n;
      return;
    }
    input.value = single ? button.dataset.gridCard : (input.value.trim() + " " + button.dataset.gridCard).trim();
    input.dispatchEvent(new Event("input", { bubbles: true }));
    if (button === document.activeElement) { rove(grid, button); keepFocus(grid, button); }
    if (single) {  // one card a field (the Battle referee): go on to the next one
      var zones = Array.prototype.slice.call(form.querySelectorAll("[data-cards]"));
      var next = zones[zones.indexOf(input) + 1];
      if (next) moveTo(next.id);
    }
  });

  // After the picker opens on a place, after a card is added or removed (typed, picked or undone).
  ["input", "focusin", "click"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var form = event.target.closest && event.target.closest("form");
      if (gridOf(form)) setTimeout(function () { refreshGrid(form); }, 0);
    });
  });

  // The picker just opened on a place (app.js): drawn at once, so that it has its height before the page is
  // scrolled to show the place above it.
  document.addEventListener("courtier:picking", function (event) {
    var form = event.target.form;
    if (gridOf(form)) refreshGrid(form);
  });

  // The grid's buttons come disabled (picker.html) until this script has counted the pack: a tap on
  // a slow connection waits for it instead of being lost. A picker opened before it arrived is
  // counted now.
  document.querySelectorAll("form").forEach(function (form) {
    if (gridOf(form)) refreshGrid(form);
  });
})();

// Hostages (AR-9): each King or Queen of another House in a player's Spoils is offered as a button;
// a tap writes it into the first free Hostage row and opens the rows, to tap who it is held
// against; a second tap takes it back. Without this script the rows are typed.
(function () {
  "use strict";
  var SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

  function cardsOf(input) {
    return input.value.toUpperCase().split(/[\s,;|]+/).filter(Boolean);
  }

  function rowsOf(box) {
    return Array.prototype.slice.call(box.querySelectorAll(".hostage"));
  }

  function cardBox(row) { return row.querySelector("input[name$='_card']"); }

  function drawPicks(box) {
    var picks = box.querySelector("[data-hostage-picks]");
    var spoils = box.querySelector("input[name$='_spoils']");
    if (!picks || !spoils) return;
    var house = box.querySelector("input[name$='_house']:checked");
    var held = rowsOf(box).map(function (row) { return cardBox(row).value.trim().toUpperCase(); });
    var seen = {};
    var candidates = cardsOf(spoils).filter(function (card) {
      var fit = /^[KQ][SHDC]$/.test(card) && !(house && card.slice(-1) === house.value) && !seen[card];
      seen[card] = true;
      return fit;
    });
    held.forEach(function (card) { if (card && candidates.indexOf(card) < 0) candidates.push(card); });
    var row = picks.querySelector(".taps");
    picks.hidden = candidates.length === 0;
    if (row.dataset.offered === candidates.join(" ")) {  // the same buttons: kept, so a tap under way lands
      row.querySelectorAll("[data-hostage-card]").forEach(function (b) {
        b.setAttribute("aria-pressed", held.indexOf(b.dataset.hostageCard) >= 0 ? "true" : "false");
      });
      return;
    }
    row.dataset.offered = candidates.join(" ");
    row.textContent = "";
    candidates.forEach(function (card) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "hostage-pick suit-" + card.slice(-1);
      b.dataset.hostageCard = card;
      b.textContent = card.slice(0, -1) + SUITS[card.slice(-1)];
      b.setAttribute("aria-pressed", held.indexOf(card) >= 0 ? "true" : "false");
      row.appendChild(b);
    });
  }

  function drawAll(root) {
    (root || document).querySelectorAll("fieldset.board-entry").forEach(drawPicks);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-hostage-card]");
    if (!button) return;
    var box = button.closest("fieldset.board-entry");
    var card = button.dataset.hostageCard;
    var rows = rowsOf(box);
    var taken = rows.filter(function (row) { return cardBox(row).value.trim().toUpperCase() === card; })[0];
    if (taken) {  // a second tap takes it back, with the player it was held against
      cardBox(taken).value = "";
      var none = taken.querySelector("input[name$='_target'][value='']");
      if (none) none.checked = true;
    } else {
      var free = rows.filter(function (row) { return !cardBox(row).value.trim(); })[0];
      if (!free) return;
      cardBox(free).value = card;
      var details = free.closest("details");
      if (details) details.open = true;
      var first = free.querySelector("input[name$='_target']");
      if (first) first.closest(".field").scrollIntoView({ block: "nearest" });
    }
    drawPicks(box);
  });

  ["input", "change"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var box = event.target.closest && event.target.closest("fieldset.board-entry");
      if (box) drawPicks(box);
    });
  });
  document.addEventListener("htmx:afterSettle", function () { drawAll(document); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { drawAll(document); });
  else drawAll(document);
})();
