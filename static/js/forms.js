// The hand forms' own helpers, game by game: app.js loads this file on a page with a hand form (or a
// referee's question). Every form works without it.
(function () {
  "use strict";
  var say = window.courtierSay;

  // Rummathon Royale: the points of the cards left in a hand, added up as they are counted (RR-1).
  function sumFor(box) {
    var total = 0;
    box.querySelectorAll("input[data-points]").forEach(function (input) {
      var n = parseInt(input.value, 10);
      if (n > 0) total += n * parseInt(input.dataset.points, 10);
    });
    var out = document.getElementById(box.dataset.sumTarget);
    if (out) out.textContent = total ? say("Worth {total} points", { total: total }) : "";
  }

  document.addEventListener("input", function (event) {
    var box = event.target.closest("[data-sum-target]");
    if (box) sumFor(box);
  });


  // Whoever went out, and whoever completed a Burden, has laid the round down: the tap preselects their
  // round as completed (RR-2, RR-3, RR-5). A tap elsewhere instead (someone else out, the Burden changed)
  // takes back what was preselected, unless the round was changed by hand since or is still laid down.
  function progressOf(fieldset, value) {
    return fieldset.querySelector("input[name$='_progress'][value='" + value + "']");
  }
  function laidDown(form, fs) {
    var out = form.querySelector("input[name='out']:checked");
    if (out && out.value === fs.dataset.player) return true;
    var burden = fs.querySelector("input[type='radio'][name^='burden']:checked");
    return !!(burden && /:completed$/.test(burden.value));
  }
  // tapped: the change was about this player (they went out, or their Burden changed).
  function presetRound(form, fs, tapped) {
    var failed = progressOf(fs, "failed"), completed = progressOf(fs, "completed");
    if (!failed || !completed) return;
    if (laidDown(form, fs)) {
      if (tapped && failed.checked) { completed.checked = true; fs.dataset.presetDone = "1"; }
    } else if (fs.dataset.presetDone) {
      if (completed.checked) failed.checked = true;
      delete fs.dataset.presetDone;
    }
  }
  document.addEventListener("change", function (event) {
    var target = event.target, form = target.form, name = target.name || "";
    if (!form) return;
    if (name === "out") {
      form.querySelectorAll("fieldset.player").forEach(function (fs) { presetRound(form, fs, fs.dataset.player === target.value); });
    } else if (/^burden\d+$/.test(name)) {
      var fs = target.closest("fieldset.player");  // the player the Burden is on
      if (fs) presetRound(form, fs, true);
    }
  });
  document.addEventListener("change", function (event) {
    var fs = event.target.name && /_progress$/.test(event.target.name) && event.target.closest("fieldset.player");
    if (fs) delete fs.dataset.presetDone;  // the player's own choice stays
  });
  // Taps made before this file arrived (a slow signal) are caught up with once, when the form is first
  // seen: the rounds they lay down are preselected as the taps would have done. Never on a form the server
  // sent back with problems, nor for a choice the server made: what it shows is what was sent.
  function catchUp(form) {
    if (form.dataset.tapsSeen) return;
    form.dataset.tapsSeen = "1";
    var choices = form.querySelectorAll("input[name='out'], fieldset.player input[type='radio'][name^='burden']");
    var tapped = Array.prototype.some.call(choices, function (input) { return input.checked && !input.defaultChecked; });
    if (!tapped || form.querySelector("[aria-invalid='true']")) return;
    form.querySelectorAll("fieldset.player").forEach(function (fs) { presetRound(form, fs, true); });
  }

  // Rummy Royal's Marriage (RM-4): the Marriage row stands for K♥ and Q♥ in one hand, and the pay-card
  // rows show it. A tap never silently takes away what the player ticked: the Marriage ticks both
  // cards; both cards tick the Marriage; a tap on a Marriage the cards made, or on a card the Marriage
  // ticked, keeps it (the player was ticking it too); a card unticked takes the Marriage with it and
  // keeps the other card. Each of these is said in words under the Marriage row. The server reads the
  // Marriage row the same way without this script (companion/entry/rummy_royal.py).
  var CARD_NAMES = { pay_KH: "K♥", pay_QH: "Q♥" };
  function payBox(form, name, who) {
    return form.querySelector("input[name='" + name + "'][value='" + CSS.escape(who) + "']");
  }
  function sayMarriage(form, text) {
    var note = form.querySelector("[data-note-for='marriage']");
    if (note) note.textContent = text;
  }
  function marriageTapped(form, box) {
    var who = box.value, cards = ["pay_KH", "pay_QH"].map(function (n) { return payBox(form, n, who); });
    if (box.checked) {
      cards.forEach(function (card) { if (card && !card.checked) { card.checked = true; card.dataset.by = "marriage"; } });
      sayMarriage(form, say("{who} held K♥ and Q♥: both ticked with the Marriage (RM-4).", { who: who }));
      return;
    }
    var ticked = cards.filter(function (card) { return card && card.dataset.by === "marriage"; });
    if (!ticked.length) {  // both cards were ticked by the player: the Marriage is theirs by the rules
      box.checked = true;
      delete box.dataset.by;
      sayMarriage(form, say("The Marriage stays {who}'s: {who} held K♥ and Q♥ (RM-4). To take it back, untick K♥ or Q♥.",
        { who: who }));
      return;
    }
    ticked.forEach(function (card) { card.checked = false; delete card.dataset.by; });
    var kept = cards.filter(function (card) { return card && card.checked; });
    var names = ticked.map(function (c) { return CARD_NAMES[c.name]; });
    var cards = names.length === 2 ? say("{card} and {other}", { card: names[0], other: names[1] }) : names.join(" ");
    sayMarriage(form, kept.length
      ? say("Marriage unticked for {who}, and {cards} with it; {card} stays ticked.", { who: who, cards: cards, card: CARD_NAMES[kept[0].name] })
      : say("Marriage unticked for {who}, and {cards} with it.", { who: who, cards: cards }));
  }
  function cardTapped(form, box) {
    var by = box.dataset.by, who = box.value, married = payBox(form, "marriage", who);
    delete box.dataset.by;  // from now on the player's own tick
    var other = payBox(form, box.name === "pay_KH" ? "pay_QH" : "pay_KH", who);
    if (!married || !other) return;
    var mine = CARD_NAMES[box.name], theirs = CARD_NAMES[other.name];
    if (!box.checked && by === "marriage") {  // the Marriage ticked it: the player was ticking it too
      box.checked = true;
      sayMarriage(form, say("{card} stays ticked for {who}: the Marriage ticked it. Tap it again to untick it.", { card: mine, who: who }));
    } else if (box.checked && other.checked && !married.checked) {
      married.checked = true;
      married.dataset.by = "cards";
      sayMarriage(form, say("{who} held K♥ and Q♥: the Marriage is {who}'s too (RM-4).", { who: who }));
    } else if (!box.checked && married.checked) {
      married.checked = false;
      delete married.dataset.by;
      sayMarriage(form, other.checked
        ? say("{who} no longer holds both K♥ and Q♥: the Marriage is unticked; {card} stays ticked (RM-4).", { who: who, card: theirs })
        : say("{who} no longer holds both K♥ and Q♥: the Marriage is unticked (RM-4).", { who: who }));
    }
  }
  document.addEventListener("change", function (event) {
    var box = event.target, form = box.form;
    if (!form || box.type !== "checkbox") return;
    if (box.name === "marriage") marriageTapped(form, box);
    else if (box.name === "pay_KH" || box.name === "pay_QH") cardTapped(form, box);
  });

  // Rally the King: show the parts of the hand form that the chosen bid uses (RK-4), and add up counted cards (RK-3).
  function showForBid(form) {
    var select = form.querySelector("select[name='bid']");
    var option = select && select.options[select.selectedIndex];
    var kind = option && option.dataset.kind;
    form.querySelectorAll("[data-show-kinds]").forEach(function (el) {
      el.hidden = !kind || el.dataset.showKinds.split(" ").indexOf(kind) < 0;
    });
    form.querySelectorAll("[data-show-partner]").forEach(function (el) { el.hidden = !(option && option.dataset.partner === "true"); });
    form.querySelectorAll("[data-show-bird]").forEach(function (el) { el.hidden = !(option && option.dataset.bird === "true"); });
  }

  function thirds(n) {
    var whole = Math.floor(n / 3), rest = n - 3 * whole;
    return rest ? whole + " " + rest + "/3" : String(whole);
  }

  function cardTotal(box) {
    var table = JSON.parse(box.dataset.cardCount);
    var total = 0, any = false;
    box.querySelectorAll("input[data-class]").forEach(function (input) {
      var n = parseInt(input.value, 10);
      if (!(n > 0)) return;
      any = true;
      total += n * (input.dataset.class === "tricks" ? table.trick : table.classes[input.dataset.class]);
    });
    var out = box.querySelector("[data-card-total]");
    out.textContent = !any ? "" : total >= table.target3 ? say("{points} card points — target reached", { points: thirds(total) })
      : say("{points} card points — short of {target}", { points: thirds(total), target: table.target });
  }

  document.addEventListener("change", function (event) {
    if (event.target.name === "bid" && event.target.form.hasAttribute("data-bid-form")) showForBid(event.target.form);
  });
  document.addEventListener("input", function (event) {
    var box = event.target.closest("[data-card-count]");
    if (box) cardTotal(box);
  });

  // Royalty: show the parts of the turn form that match what happened.
  function showForKind(form) {
    var checked = form.querySelector("input[data-kind-choice]:checked");
    var kind = checked ? checked.value : "meld";
    form.querySelectorAll("[data-kinds]").forEach(function (el) {
      el.hidden = el.dataset.kinds.split(" ").indexOf(kind) < 0;
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches("input[data-kind-choice]")) showForKind(event.target.form);
    if (event.target.id === "target") {
      var box = event.target.form.querySelector("[data-target-from]");
      if (box) { startFromTarget(box, event.target); drawBuilder(box); }
    }
  });

  // Indian Rummy: show the inputs that match what is being entered for each player.
  function showForMode(fieldset) {
    var select = fieldset.querySelector("select[data-mode]");
    if (!select) return;
    var winner = fieldset.form.querySelector("select[name='winner']");
    var isWinner = winner && winner.value === fieldset.dataset.player;
    var mode = isWinner ? "groups" : select.value;
    select.closest(".field").hidden = isWinner;
    fieldset.querySelectorAll("[data-mode-part]").forEach(function (part) {
      var typed = isWinner && part.dataset.modePart === "cards" && part.querySelector("textarea, input").value.trim();
      part.hidden = part.dataset.modePart !== mode && !typed;  // a winner's typed cards stay in sight
    });
    var loose = fieldset.querySelector("[name$='_loose']");
    if (loose) loose.closest(".field").hidden = isWinner && !loose.value.trim();  // never hide what was typed
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches("select[data-mode]")) showForMode(event.target.closest("fieldset"));
    if (event.target.name === "winner") event.target.form.querySelectorAll("fieldset.player").forEach(showForMode);
  });


  // Royalty: type a word's letters, tap a letter to turn it black, tap again for a Knave (RY-1, RY-4).
  function parseWord(text) {
    return text.trim().split(/\s+/).filter(Boolean).map(function (t) {
      var knave = t.charAt(0) === "*";
      var body = knave ? t.slice(1) : t;
      if (knave && !/^[A-Za-z]/.test(body)) return { letter: "", colour: "r", knave: true };  // a bare Knave in hand
      return { letter: body.charAt(0).toUpperCase(), colour: (body.charAt(1) || "r").toLowerCase(), knave: knave };
    }).filter(function (c) { return /[A-Z]/.test(c.letter) || (c.knave && !c.letter); });
  }

  function formatWord(cards) {
    return cards.map(function (c) { return c.knave && !c.letter ? "*" : (c.knave ? "*" : "") + c.letter + c.colour; }).join(" ");
  }

  // Letters retyped in the builder: the letters kept keep their card (colour, Knave) even when a
  // letter is inserted or removed in the middle; a new letter takes its left neighbour's colour.
  function respell(old, typed) {
    var was = old.map(function (c) { return c.letter || "*"; });
    var now = typed.split("");
    var head = 0;
    while (head < now.length && head < was.length && now[head] === was[head]) head++;
    var tail = 0;
    while (tail < now.length - head && tail < was.length - head &&
           now[now.length - 1 - tail] === was[was.length - 1 - tail]) tail++;
    var cards = old.slice(0, head);
    var replaced = old.slice(head, was.length - tail);
    for (var i = head; i < now.length - tail; i++) {
      var gone = replaced[i - head];
      var left = cards[cards.length - 1] || old[was.length - tail] || { colour: "r" };
      var ch = now[i];
      if (ch === "*") cards.push({ letter: "", colour: "r", knave: true });
      else if (gone) cards.push({ letter: ch, colour: gone.colour, knave: gone.knave });  // a Knave may take a new letter (RY-7)
      else cards.push({ letter: ch, colour: left.colour, knave: false });
    }
    return cards.concat(old.slice(was.length - tail));
  }

  function drawBuilder(box) {
    var input = box.querySelector("[data-word-cards]");
    var cards = parseWord(input.value);
    var chips = box.querySelector(".chips");
    chips.textContent = "";
    cards.forEach(function (c, i) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "chip " + (c.knave ? "knave" : c.colour === "b" ? "black" : "red");
      b.dataset.index = i;
      b.textContent = (c.knave ? "★" : "") + c.letter;
      b.setAttribute("aria-label", !c.letter ? say("a Knave") : say(c.knave ? "{letter}, Knave" : c.colour === "b" ? "{letter}, black" : "{letter}, red",
        { letter: c.letter }));
      chips.appendChild(b);
    });
    judgeWord(box, cards);
  }

  // A capture starts from the captured word's own cards and colours; the player adds letters (RY-7).
  function startFromTarget(box, select) {
    var known = JSON.parse(select.closest("[data-target-cards]").dataset.targetCards || "{}");
    var input = box.querySelector("[data-word-cards]");
    var cards = known[select.value] || "";
    if (input.value.trim() && input.value.trim() !== (box.dataset.fromTarget || "")) return;  // the player's own work stays
    input.value = cards;
    box.dataset.fromTarget = cards;
    box.querySelector(".letters").value = parseWord(cards).map(function (c) { return c.letter || "*"; }).join("");
  }

  function judgeWord(box, cards) {
    var out = box.querySelector("[data-judge]");
    if (!out) return;
    var word = cards.map(function (c) { return c.letter; }).join("");
    // The verdict's room is kept from the second letter, while the player types: the answer lands in it a
    // moment later without moving the fields below, where a finger may already be on its way.
    out.classList.toggle("judging", word.length >= 2);
    if (word.length < 2) { out.textContent = ""; return; }
    var url = new URL(out.dataset.judge, window.location.href);
    url.searchParams.set("word", word);
    var target = box.dataset.targetFrom && document.querySelector(box.dataset.targetFrom);
    if (target && target.value) url.searchParams.set("target", target.value.split("|").pop());
    clearTimeout(box._judgeTimer);
    box._judgeTimer = setTimeout(function () {
      var asked = box._judgeAsked = (box._judgeAsked || 0) + 1;  // only the latest answer is shown
      fetch(url, { credentials: "same-origin" }).then(function (r) { return r.text(); })
        .then(function (html) { if (asked === box._judgeAsked) out.innerHTML = html; }).catch(function () {});
    }, 250);
  }

  // Indian Rummy's live check (IR-4): the room for a group's verdict is kept as soon as the group is begun,
  // so the verdict that lands a moment later does not move the fields below, where the player's next tap may
  // already be on its way. A verdict takes as much room as those shown take on average, and at least the
  // two lines most take (app.css, --verdict-lines): a long one for a group that is no group may take more.
  function keepGroupRoom(field) {
    var box = document.getElementById(field.id + "-check");
    if (!box || !box.classList.contains("group-check-box")) return;
    var groups = field.value.split("|").filter(function (part) { return part.trim(); }).length;
    var style = getComputedStyle(box);
    var lines = parseFloat(style.getPropertyValue("--verdict-lines")) || 2;
    var each = lines * parseFloat(style.lineHeight) + 4;  // and the list's 4px above its first verdict
    var list = box.querySelector(".group-check"), shown = box.querySelectorAll(".group-check li").length;
    if (list && shown) each = Math.max(each, list.offsetHeight / shown);
    box.style.minHeight = groups ? Math.ceil(groups * each) + "px" : "";
  }

  document.addEventListener("input", function (event) {
    if (event.target.id && event.target.matches("textarea, input")) keepGroupRoom(event.target);
  });

  function startBuilders(root) {
    root.querySelectorAll("[data-word-builder]").forEach(function (box) {
      var input = box.querySelector("[data-word-cards]");
      var letters = box.querySelector(".letters");
      box.querySelector(".builder").hidden = false;
      input.closest(".notation").hidden = true;
      // The letters stand for the notation box from now on: its problem is theirs (they carry it too), and
      // the focus a refusal put on the box goes to them, not to a box no one can see.
      if (input.getAttribute("aria-invalid") === "true") {
        input.removeAttribute("aria-invalid");
        if (document.activeElement === input) letters.focus();
      }
      letters.value = parseWord(input.value).map(function (c) { return c.letter || "*"; }).join("");
      drawBuilder(box);
    });
  }

  document.addEventListener("input", function (event) {
    var box = event.target.closest && event.target.closest("[data-word-builder]");
    if (!box || !event.target.classList.contains("letters")) return;
    var input = box.querySelector("[data-word-cards]");
    var typed = event.target.value.toUpperCase().replace(box.hasAttribute("data-hand") ? /[^A-Z*]/g : /[^A-Z]/g, "");
    input.value = formatWord(respell(parseWord(input.value), typed));
    drawBuilder(box);
  });

  document.addEventListener("click", function (event) {
    var chip = event.target.closest(".chip");
    if (!chip) return;
    var box = chip.closest("[data-word-builder]");
    var input = box.querySelector("[data-word-cards]");
    var cards = parseWord(input.value);
    var c = cards[chip.dataset.index];
    if (c.knave && !c.letter) return;  // a Knave in hand has no letter or colour to change
    if (c.knave) { c.knave = false; c.colour = "r"; }
    else if (c.colour === "r") { c.colour = "b"; }
    else if (box.hasAttribute("data-hand")) { c.colour = "r"; }  // in a hand, a Knave is typed as *
    else { c.knave = true; }
    input.value = formatWord(cards);
    var byKeys = chip === document.activeElement;
    drawBuilder(box);
    if (byKeys) {  // the chips are drawn anew: the focus stays on this letter, for the next press
      var again = box.querySelector(".chip[data-index='" + chip.dataset.index + "']");
      if (again) again.focus();
    }
  });

  function enhanceForms(root) {
    root.querySelectorAll("form").forEach(function (form) { if (form.elements.out) catchUp(form); });
    root.querySelectorAll("[data-sum-target]").forEach(sumFor);
    root.querySelectorAll("form[data-bid-form]").forEach(showForBid);
    root.querySelectorAll("fieldset.player").forEach(showForMode);
    startBuilders(root);
    root.querySelectorAll("form[data-kind-form]").forEach(showForKind);
    root.querySelectorAll("[data-card-count]").forEach(cardTotal);
  }
  // Loaded by app.js when a form shows, maybe after the page has loaded (or after an htmx swap).
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { enhanceForms(document); });
  else enhanceForms(document);
  document.addEventListener("htmx:afterSettle", function () { enhanceForms(document); });
})();
