"""The card picker of the Royals games on a phone (390x844 and 360x740), by touch and by keyboard, in English
and in French: it closes on Done, on a tap elsewhere and on Escape, every time, and stays closed with the focus
where the player goes on; it never covers a refused save's problem; every tab of places is whole at 360 px.
Screenshots go to /tmp/card-picker/.

The round, worked by hand (AR-1: the pack holds three of each Ace):
  Ann  Spoils KS QS JS, Meld 2S 2H 2D 2C; Ben Spoils AH; Dan Meld AH AH AH typed.
  Four AH entered, the pack has three: the save is refused beside Dan's Meld, nothing is saved.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.steps import arrow_to, focused, key_radio, start, tab_to

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/card-picker")
SIZES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}
PLAYERS = ("Ann", "Ben", "Cat", "Dan")
HOUSES = {"Ann": "S", "Ben": "H", "Cat": "D", "Dan": "C"}
#: What the player reads, language by language: Done, a place's name in the picker, the refusal beside Dan's Meld.
WORDS = {"en": {"done": "Done", "spoils": "Ann · Spoils", "meld": "Ann · Meld",
                "refused": "the pack has only 3 AH; 4 were entered"},
         "fr": {"done": "Fini", "spoils": "Ann · Butin", "meld": "Ann · Pose",
                "refused": "AH : 3 dans le paquet, 4 saisis"}}

#: Resolves once the page has drawn two frames and run what its handlers left for later (a timer of 0): a picker
#: that would open again after closing has done so by then.
SETTLED = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0))))"

#: Whether an element is on the screen and seen, not under anything: the topmost element at its middle is it.
SEEN = """(css) => {
  const el = document.querySelector(css), r = el.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return false;
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!top && el.contains(top);
}"""

#: Each tab of places that shows less than its words, or reaches past the picker's edge.
CUT_TABS = """() => {
  const row = document.querySelector('.picker [data-zone-tabs]').getBoundingClientRect();
  return Array.from(document.querySelectorAll('.picker .zone-tab'))
    .filter(b => b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1
                 || b.getBoundingClientRect().right > row.right + 0.5)
    .map(b => b.textContent);
}"""


def entry_form(phone, base: str, size: str, language: str, errors: list[str]) -> Page:
    """Round 1's form of a new Alliance Royals table, in ``language``; the page's script errors go to ``errors``
    (the refused save's answer, a 422, is no error)."""
    page = phone(viewport=SIZES[size]).new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "status of 422" not in m.text else None)
    start(page, base, "Alliance Royals", PLAYERS)
    page.get_by_role("link", name="Enter round 1", exact=True).click()
    expect(page.locator("h1")).to_have_text("Enter round 1")
    if language == "fr":
        page.get_by_role("button", name="Français").tap()
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        expect(page.locator("h1")).to_have_text("Saisir la manche 1")
    return page


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def picker_opens_on(page: Page, place: str) -> None:
    """The picker shows, filling ``place``, with the place's box and label above it, not under it."""
    expect(page.locator(".picker")).to_be_visible()
    expect(page.locator(".picker [data-picker-label]")).to_have_text(place)
    field = page.locator("input.picking").locator("xpath=ancestor::div[contains(@class,'field')][1]")
    box, picker = field.bounding_box(), page.locator(".picker").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= picker["y"], (box, picker)


def closed_and_stays(page: Page, focus_css: str) -> None:
    """The picker is closed, still after the page has settled, and the focus is on ``focus_css``."""
    picker = page.locator(".picker")
    expect(picker).to_be_hidden()
    page.evaluate(SETTLED)
    expect(picker).to_be_hidden()
    expect(page.locator("input.picking")).to_have_count(0)
    assert focused(page, focus_css), page.evaluate("document.activeElement.outerHTML")


def tabs_whole(page: Page, width: int) -> None:
    """Every tab of places shows all its words inside the picker, and the page has no sideways scroll."""
    assert page.evaluate(CUT_TABS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def refusal_seen(page: Page, words: str, name: str) -> None:
    """The refused save's problem beside Dan's Meld is on the screen, uncovered; the picker stays closed."""
    error = page.locator("#p3_meld-error")
    expect(error).to_contain_text(words)
    expect(page.locator("#p3_meld")).to_have_attribute("aria-invalid", "true")
    closed_and_stays(page, "#p3_meld")
    shot(page, name)
    assert page.evaluate(SEEN, "#p3_meld-error"), "the problem is on the screen, nothing over it"
    assert page.evaluate(SEEN, "#p3_meld"), "and so is its box"
    expect(page.locator("#p0_spoils")).to_have_value("KS QS JS")  # the input is kept


@pytest.mark.parametrize(("size", "language"), [("390x844", "en"), ("360x740", "en"), ("360x740", "fr")])
def test_the_card_picker_by_touch(live_server, phone, size, language):
    errors: list[str] = []
    page = entry_form(phone, live_server, size, language, errors)
    words, width, name = WORDS[language], SIZES[size]["width"], f"touch-{language}-{size}"
    for i, player in enumerate(PLAYERS):
        page.locator(f"label.seg:has(input[name='p{i}_house'][value='{HOUSES[player]}'])").tap()

    # A tap on a place's box opens the picker; Done closes it, and it stays closed, the focus on the box.
    page.locator("#p0_spoils").tap()
    picker_opens_on(page, words["spoils"])
    for card in ("KS", "QS", "JS"):
        page.locator(f".picker [data-grid-card='{card}']").tap()
    picker_opens_on(page, words["spoils"])  # a Hostage offered under the board moved nothing
    shot(page, f"{name}-1-spoils")
    page.get_by_role("button", name=words["done"], exact=True).tap()
    closed_and_stays(page, "#p0_spoils")
    expect(page.locator("#p0_spoils")).to_have_value("KS QS JS")
    # A new tap on the same box (the focus already there) opens it again; Done again.
    page.locator("#p0_spoils").tap()
    picker_opens_on(page, words["spoils"])
    page.get_by_role("button", name=words["done"], exact=True).tap()
    closed_and_stays(page, "#p0_spoils")

    # The next place: its own tap, its cards, Done; every tab of places whole.
    page.locator("#p0_meld").tap()
    picker_opens_on(page, words["meld"])
    tabs_whole(page, width)
    for card in ("2S", "2H", "2D", "2C"):
        page.locator(f".picker [data-grid-card='{card}']").tap()
    shot(page, f"{name}-2-meld")
    page.get_by_role("button", name=words["done"], exact=True).tap()
    closed_and_stays(page, "#p0_meld")
    expect(page.locator("#p0_meld")).to_have_value("2S 2H 2D 2C")

    # Opened with Pick, closed by a tap elsewhere on the page (Ben's name).
    page.locator("[data-pick='p1_spoils']").tap()
    expect(page.locator(".picker [data-picker-label]")).to_have_text(words["spoils"].replace("Ann", "Ben"))
    tabs_whole(page, width)
    page.locator(".picker [data-grid-card='AH']").tap()
    page.locator("fieldset.player").nth(1).locator("> legend").tap()
    expect(page.locator(".picker")).to_be_hidden()
    page.evaluate(SETTLED)
    expect(page.locator(".picker")).to_be_hidden()
    expect(page.locator("#p1_spoils")).to_have_value("AH")

    # A fourth AH typed in Dan's Meld, saved with the picker open: refused, the problem in sight, the picker closed.
    page.locator("#p3_meld").tap()
    expect(page.locator(".picker")).to_be_visible()
    page.locator("#p3_meld").fill("AH AH AH")
    page.locator("form.entry button[type='submit']").tap()
    refusal_seen(page, words["refused"], f"{name}-3-refused")
    assert errors == []


@pytest.mark.parametrize(("size", "language"), [("390x844", "en"), ("360x740", "en"), ("360x740", "fr")])
def test_the_card_picker_by_keyboard(live_server, phone, size, language):
    errors: list[str] = []
    page = entry_form(phone, live_server, size, language, errors)
    words, name = WORDS[language], f"keys-{language}-{size}"
    page.locator("h1").focus()  # where the keyboard starts, as after the page came
    for i, player in enumerate(PLAYERS):
        key_radio(page, f"p{i}_house", HOUSES[player])

    # Tab onto a place's box opens the picker with the focus left there, for typing; Escape closes it for good.
    tab_to(page, "#p0_spoils")
    picker_opens_on(page, words["spoils"])
    page.keyboard.type("KS")
    page.keyboard.press("Escape")
    closed_and_stays(page, "#p0_spoils")

    # Pick, cards chosen with Enter, then Escape at once: closed, the focus back on Pick; then the next
    # place, its last 2S taken with Enter (the card goes grey under the focus), Escape at once.
    for place, cards, filled in (("p0_spoils", ("QS", "JS"), "KS QS JS"),
                                 ("p0_meld", ("2H", "2D", "2C", "2S"), "2H 2D 2C 2S")):
        tab_to(page, f"[data-pick='{place}']")
        page.keyboard.press("Enter")
        picker_opens_on(page, words[place.split("_")[1]])
        for card in cards:
            arrow_to(page, card)
            page.keyboard.press("Enter")
        page.keyboard.press("Escape")
        closed_and_stays(page, f"[data-pick='{place}']")
        expect(page.locator(f"#{place}")).to_have_value(filled)

    # Done, reached with Shift+Tab from the grid and pressed: closed, the focus back on Pick.
    tab_to(page, "[data-pick='p1_spoils']")
    page.keyboard.press("Enter")
    arrow_to(page, "AH")
    page.keyboard.press("Enter")
    shot(page, f"{name}-1-grid")
    tab_to(page, "[data-picker-close]", back=True)
    page.keyboard.press("Enter")
    closed_and_stays(page, "[data-pick='p1_spoils']")
    expect(page.locator("#p1_spoils")).to_have_value("AH")

    # Escape with the focus past the picker's place (on its Pick button) closes it too.
    tab_to(page, "#p3_meld")
    expect(page.locator(".picker")).to_be_visible()
    page.keyboard.type("AH AH AH")
    page.keyboard.press("Tab")
    assert focused(page, "[data-pick='p3_meld']")
    page.keyboard.press("Escape")
    closed_and_stays(page, "[data-pick='p3_meld']")

    # Saved with Enter: refused, the focus on the box with the problem, the problem in sight, the picker closed.
    tab_to(page, "form.entry button[type='submit']")
    page.keyboard.press("Enter")
    refusal_seen(page, words["refused"], f"{name}-2-refused")
    assert errors == []
