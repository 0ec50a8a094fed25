"""Beside the visible field: for every game's entry form on a phone (390x844), bad entries drawn
from the message corpora (tests/test_entry_messages.py, tests/test_messages_royals.py), among
them one per game with mistakes in several fields at once, are saved as a player would enter
them, and every message that comes back

- sits in (or is tied by aria-describedby to) a field the player can see: never only in the list
  at the top, never beside a field hidden for the chosen bid, kind or way of entering;
- is listed at the top as a link to that field;

and every value the player entered is still there. Cards go in through the card picker where
the form has one, several taps in a row; Royalty's words are typed as letters into the word
builder, as on a phone (the notation box behind it is for pages without JavaScript).

Screenshots of the refused forms are saved to /tmp/entry2/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/entry2")
FORM = "form.entry"

#: Each game: the seats, the new-table options (radio name -> value), the turns saved first (as
#: entries below), and the bad entries. An entry is a list of (field, value) in the order a player
#: fills them (the bid or kind first: it decides what is on screen); ("pick:<field>", "AH 2H")
#: taps the cards into ``field`` with the card picker, ("letters:<field>", "CALM") types a word's
#: letters into its builder.
GAMES = {
    "rally-the-king": (("Ann", "Ben", "Cat", "Dan"), {}, [], [
        [("bid", "solo"), ("declarer", "Ben"), ("declarer_points", "64"), ("c_kings", "0")],
        [("bid", "partner"), ("declarer", "Ben"), ("partner", "Ben"), ("declarer_points", "130"),
         ("bo_slam_made", "y")],
        [("bid", "one-trick"), ("declarer", "Ben"), ("declarer_tricks", "13")],
        [("bid", "all-beggars"), ("pp_0", "60"), ("pp_1", "60"), ("pp_2", "60"), ("pp_3", "60")],
        [("bid", "solo-with-bird"), ("declarer", "Ben"), ("declarer_points", "70")],
        # Points typed for a solo, then the bid changed: the points' box is hidden, and no message
        # may sit beside it.
        [("bid", "solo"), ("declarer", "Ben"), ("declarer_points", "64"), ("bid", "one-trick"),
         ("declarer_tricks", "13"), ("dealer", "Cat")],
    ]),
    "rummathon-royale": (("Ann", "Ben", "Cat"), {}, [], [
        [("out", "Ann"), ("p0_low", "2")],
        [("out", "Ann"), ("burden1_double", "y")],
        [("out", "Ann"), ("p0_low", "2"), ("p1_low", "500"), ("burden2", "0:failed"), ("burden1_double", "y"),
         ("p2_extra", "3")],
        [("p0_progress", "failed")],
    ]),
    "indian-rummy": (("Ann", "Ben", "Cat"), {"variant": "pool101"}, [], [
        [("wild", "7"), ("winner", "Ann"), ("p1_count", "500"), ("p2_count", "20")],
        [("winner", "Ann"), ("p1_mode", "groups"), ("pick:p1_groups", "4C 5C 6C"), ("p2_count", "5")],
        [("wild", "7"), ("winner", "Ann"), ("p0_mode", "groups"), ("pick:p0_groups", "AH 2H 3H"),
         ("p1_count", "500"), ("p2_mode", "cards"), ("pick:p2_cards", "4C 5C 6C")],
        # Cards picked for Cat, then Cat's entry switched to a count: the cards are hidden.
        [("wild", "7"), ("winner", "Ann"), ("p2_mode", "cards"), ("pick:p2_cards", "4C 5C 6C"),
         ("p2_mode", "count"), ("p2_count", "500"), ("p1_count", "81")],
    ]),
    "royalty": (("Ann", "Ben", "Cat"), {}, [[("kind", "meld"), ("letters:meld", "CALM")]], [
        [("player", "Cat"), ("kind", "capture"), ("target", "Ann|CALM"), ("letters:capture_cards", "CALS"),
         ("letters:meld", "OX"), ("challenge_by", "Cat"), ("challenge_upheld", "rejected")],
        [("kind", "end"), ("letters:u1", "ABCDEFGH")],
        [("kind", "meld"), ("letters:meld", "OX"), ("challenge_by", "Ben")],
        [("player", "Cat"), ("kind", "meld"), ("letters:meld", "ABCDEFGH")],
    ]),
    "alliance-royals": (("Ann", "Ben", "Cat", "Dan"), {}, [], [
        [("p1_house", "H"), ("p2_house", "D"), ("p3_house", "C")],
        [("p1_house", "H"), ("p2_house", "D"), ("p3_house", "C"), ("p0_spoils", "QD QD"),
         ("p1_spoils", "QD QD ZZ"), ("p3_h0_card", "QH"), ("p3_h0_target", "Ben")],
        [("p0_house", "S"), ("p1_house", "H"), ("p2_house", "D"), ("p3_house", "C"), ("p0_meld", "2S"),
         ("p1_hand", "2S")],
    ]),
    "battle-royals": (("Ann", "Ben"), {}, [], [
        [("p0_house", "S"), ("p0_spoils", "ZZ"), ("p1_meld", "KS KS KS KS")],
    ]),
    "marriage-royals": (("Ann", "Ben", "Cat"), {}, [], [
        [("p0_house", "S"), ("p2_house", "D"), ("p0_spoils", "ZZ"), ("p2_spoils", "JH"), ("p2_h0_card", "JH"),
         ("p2_h0_target", "Ann")],
    ]),
    "rummy-royal": (("Ann", "Ben", "Cat", "Dan"), {}, [], [
        [("out", "Ann"), ("p0_left", "3"), ("p1_left", "99"), ("p0_fold", "y"), ("winners", "Ann")],
        [("p1_left", "4")],
    ]),
}


def open_table(page: Page, base: str, game: str, players, options) -> str:
    """A new table through the home page's form; returns the address of its entry form."""
    page.goto(f"{base}/new/{game}")
    for seat, name in enumerate(players, 1):
        page.fill(f"#seat{seat}", name)
    for name, value in options.items():
        page.check(f"input[name='opt-{name}'][value='{value}']")
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(re.compile(r"/t/[^/?]+\?key="))
    table, key = page.url.split("#")[0].split("?key=")
    return f"{table}/hands/new?key={key}"


def control(page: Page, name: str, value: str):
    one = page.locator(f"{FORM} [name='{name}']")
    kind = one.first.get_attribute("type")
    if kind in ("radio", "checkbox") and one.count() > 1:
        return page.locator(f"{FORM} [name='{name}'][value='{value}']"), kind
    return one.first, kind or one.first.evaluate("e => e.tagName.toLowerCase()")


def on_screen(locator) -> bool:
    """The control, or the widget that stands for it (a styled radio's label), is on screen."""
    return locator.evaluate(
        "e => e.checkVisibility() || !!(e.labels && [...e.labels].some(l => l.checkVisibility()))"
        " || (e.closest('.field') && e.closest('.field').checkVisibility() && getComputedStyle(e).opacity === '0')")


def pick(page: Page, name: str, cards: str) -> None:
    """Tap the cards into ``name`` with the card picker, one after another."""
    page.click(f"[data-pick='{name}']")
    done: list[str] = []
    for card in cards.split():
        page.click(f".picker [data-grid-card='{card}']")  # one tap a card
        done.append(card)
        expect(page.locator(f"#{name}")).to_have_value(re.compile(r"^\s*" + r"\s+".join(done) + r"\s*$"))
    closer = page.locator("[data-picker-close]")
    if closer.count() and closer.first.is_visible():
        closer.first.click()


def judged(page: Page, name: str, letters: str) -> None:
    """Wait for the judge's word on the letters typed: it lands above the fields after them and moves
    them, and a tap aimed before it lands would meet whatever moved under the finger."""
    judge = page.locator(f"[data-word-builder]:has(#{name}-letters) [data-judge]")
    if len(letters) >= 2 and judge.count():
        expect(judge).not_to_be_empty()


def enter(page: Page, fields: list[tuple[str, str]]) -> dict[str, str]:
    """Fill the fields a player can see, as they would; returns what was entered."""
    entered: dict[str, str] = {}
    for name, value in fields:
        if name.startswith("pick:"):
            pick(page, name[5:], value)
            entered[name[5:]] = value
            continue
        if name.startswith("letters:"):
            page.fill(f"#{name[8:]}-letters", value)
            judged(page, name[8:], value)
            entered[name] = value
            continue
        target, kind = control(page, name, value)
        if not on_screen(target):
            shut = target.evaluate("e => !!(e.closest('details') && !e.closest('details').open)")
            if shut:
                target.evaluate("e => e.closest('details').querySelector('summary').click()")
            if not on_screen(target):
                continue  # hidden for the choices made: a player cannot fill it
        if kind in ("radio", "checkbox"):
            drawn = target.locator("xpath=parent::label[contains(@class, 'seg')]")  # drawn as a button: tap it
            if drawn.count():
                drawn.check()  # the label tapped, and its choice seen taken
            else:
                target.check(force=True)
        elif kind == "select" or kind == "select-one":
            target.select_option(value)
        else:
            target.fill(value)
        entered[name] = value
    return entered


def save(page: Page) -> None:
    page.locator(f"{FORM} button.primary[type='submit']").last.click()


PROBLEMS = """() => {
  const form = document.querySelector('form.entry');
  const out = [];
  for (const p of form.querySelectorAll('p.error')) {
    const fieldId = p.id.replace(/-error$/, '');
    const tied = document.querySelector(`[aria-describedby~="${p.id}"]`);
    const box = p.closest('.field, fieldset');
    const controls = [tied, document.getElementById(fieldId), box && box.querySelector('[name]')].filter(Boolean);
    const seen = controls.some(c => c.checkVisibility() || (c.closest('.field') || c.parentElement).checkVisibility());
    out.push({id: p.id, text: p.textContent.trim(), visible: p.checkVisibility(), tied: !!tied,
              inBox: !!(box && box.querySelector('[name]')), controlSeen: seen});
  }
  return out;
}"""

TOP = """() => [...document.querySelectorAll('#problems li')].map(li => {
  const a = li.querySelector('a[href^="#"]');
  return {text: li.textContent.trim(), href: a ? a.getAttribute('href') : null};
})"""


def kept(page: Page, entered: dict[str, str]) -> list[str]:
    lost = []
    for name, value in entered.items():
        if name.startswith("letters:"):
            typed = page.locator(f"#{name[8:]}-letters").input_value()
            if typed.upper() != value.upper():
                lost.append(f"{name}: {typed!r} for {value!r}")
            continue
        target, kind = control(page, name, value)
        if kind in ("radio", "checkbox"):
            if not target.is_checked():
                lost.append(name)
        elif " ".join(target.input_value().split()) != " ".join(value.split()):
            lost.append(f"{name}: {target.input_value()!r} for {value!r}")
    return lost


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_message_sits_beside_a_visible_field_and_the_entry_is_kept(live_server, phone, game):
    players, options, first, bad = GAMES[game]
    SHOTS.mkdir(exist_ok=True)
    page = phone().new_page()
    form_url = open_table(page, live_server, game, players, options)
    for fields in first:
        page.goto(form_url)
        enter(page, fields)
        save(page)
        expect(page.locator(".flash")).to_contain_text("saved")
    for n, fields in enumerate(bad, 1):
        page.goto(form_url)
        entered = enter(page, fields)
        save(page)
        expect(page.locator("#problems")).to_be_visible()
        page.screenshot(path=str(SHOTS / f"{game}-{n}.png"), full_page=True)
        shown = page.evaluate(PROBLEMS)
        top = page.evaluate(TOP)
        assert shown, f"{fields}: refused with no message beside any field; at the top: {top}"
        for message in shown:
            assert message["visible"], f"{fields}: {message['text']!r} is not on screen"
            assert message["tied"] or message["inBox"], f"{fields}: {message['text']!r} belongs to no field"
            assert message["controlSeen"], f"{fields}: {message['text']!r} is beside a hidden field"
        for line in top:
            assert line["href"], f"{fields}: {line['text']!r} is shown only at the top"
            assert page.locator(line["href"]).count(), line
        assert len(top) <= len({m["id"] for m in shown}) or len(top) == len(shown), (top, shown)
        assert not kept(page, entered), f"{fields}: lost {kept(page, entered)}"
        text = page.locator("main").inner_text()
        assert not re.search(r"\bNone\b|\bnull\b|[{}]", text), text
