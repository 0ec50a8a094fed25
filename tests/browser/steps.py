"""What many browser tests do as a player would: start a table from the home page, pick cards from the
grid, enter a Royals round's boards, and read the totals and the chip stacks off the board."""

from __future__ import annotations

import time
from collections.abc import Mapping

from playwright.sync_api import Page, expect

#: What each game calls a round: the link to the first one's form is "Enter <noun> 1".
NOUNS = {"Alliance Royals": "round", "Battle Royals": "round", "Marriage Royals": "round", "Indian Rummy": "deal",
         "Rummy Royal": "deal", "Rally the King": "hand", "Rummathon Royale": "hand", "Royalty": "turn"}


def wait_until(page: Page, script: str, arg=None, timeout: float = 30_000, every: float = 250) -> None:
    """Wait until an async script (the phone's caches, its outbox, a fetch) answers truthy, asking again every
    ``every`` ms. Playwright's wait_for_function does not await a promise, and a promise is truthy: it
    would return at once. Fails, saying the script's first line, when ``timeout`` ms go by first."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(script, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout / 1000:.0f} s: {script.strip().splitlines()[0]}")
        page.wait_for_timeout(every)  # between two askings of the condition, not a wait for it


#: Text typed into a field (its input event sent) and, in the same moment, where a field below it stands: before any
#: answer to the typing (a live check, a judge's verdict) can land and move it. page.evaluate(it, [typed, below, text])
TYPED_AND_BELOW = """([typed, below, text]) => {
  const field = document.querySelector(typed);
  field.value = text;
  field.dispatchEvent(new Event('input', {bubbles: true}));
  return document.querySelector(below).getBoundingClientRect().top + window.scrollY;
}"""


def start(page: Page, base: str, game: str, players: tuple[str, ...], **options: str) -> None:
    """A new table as a player starts one: the game's link on the home page, the names seat by seat, each
    option's choice, then Start the table; done when the link to the first round's form shows."""
    page.goto(base + "/")
    page.get_by_role("link", name=game, exact=True).click()
    for seat, name in enumerate(players, 1):
        page.fill(f"#seat{seat}", name)
    for name, value in options.items():
        page.check(f"input[name='opt-{name}'][value='{value}']")
    page.get_by_role("button", name="Start the table").click()
    expect(page.get_by_role("link", name=f"Enter {NOUNS[game]} 1", exact=True)).to_be_visible()


def pick(page: Page, field: str, cards: str) -> None:
    """Enter cards through the picker: Pick, then one tap on the card grid for each card (AR-1)."""
    page.click(f"[data-pick='{field}']")
    picker = page.locator(".picker")
    expect(picker).to_be_visible()
    for card in cards.split():
        picker.locator(f"[data-grid-card='{card}']").click()
    picker.locator("[data-picker-close]").click()
    expect(page.locator(f"#{field}")).to_have_value(cards)


def enter_boards(page: Page, number: int, houses: Mapping[str, str], boards: Mapping[str, Mapping[str, str]],
                 picked: bool = True) -> None:
    """A round of a Royals game saved: each player's House (chosen in round 1, carried over after) and the cards
    of their boards, picked from the grid or typed."""
    page.get_by_role("link", name=f"Enter round {number}", exact=True).click()
    expect(page.locator("h1")).to_have_text(f"Enter round {number}")
    for i, (name, house) in enumerate(houses.items()):
        radio = page.locator(f"input[name='p{i}_house'][value='{house}']")
        if number == 1:
            page.locator("label.seg", has=radio).click()  # the radio is drawn as a big button around it
            expect(radio).to_be_checked()
        else:
            expect(radio).to_be_checked()  # the House carries over from the round before
        for zone, cards in boards.get(name, {}).items():
            if picked:
                pick(page, f"p{i}_{zone}", cards)
            else:
                page.fill(f"#p{i}_{zone}", cards)
    page.get_by_role("button", name=f"Save round {number}").click()
    expect(page.locator(".flash")).to_contain_text("Round saved")


def totals(page: Page) -> dict[str, str]:
    """Each player's total as the board's standings show it."""
    rows = page.locator("#board .standings tbody tr")
    return {rows.nth(i).locator("th").inner_text(): rows.nth(i).locator("td.total").inner_text()
            for i in range(rows.count())}


def stacks(page: Page) -> dict[str, str]:
    """Each player's chips as Rummy Royal's board shows them."""
    rows = page.locator("#board .stacks tbody tr")
    return {rows.nth(i).get_attribute("data-player"): rows.nth(i).locator("td.total").inner_text()
            for i in range(rows.count())}


# ---------------------------------------------------------------------------------------
# The keyboard alone (docs/accessibility.md): every step below is a key pressed on page.keyboard, never a
# click or a tap. Reading the page (where the focus is, what a field holds) is not a step.

#: Tab presses allowed to reach a control: more than the longest form has controls.
MAX_TABS = 300


def focused(page: Page, css: str, text: str | None = None) -> bool:
    """Whether the focus is on an element matching ``css`` (whose text contains ``text``, when given)."""
    return page.evaluate("""([css, text]) => {
        const el = document.activeElement;
        return !!el && el.matches(css) && (text === null || el.textContent.includes(text));
    }""", [css, text])


def tab_to(page: Page, css: str, text: str | None = None, back: bool = False) -> None:
    """Tab (or Shift-Tab) until the focus is on ``css``: the control is reached as a keyboard reaches it."""
    for _ in range(MAX_TABS):
        if focused(page, css, text):
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"{css} {text or ''} is never reached with Tab")


def key_type(page: Page, css: str, text: str) -> None:
    """Tab to a box, clear it and type ``text``."""
    tab_to(page, css)
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.type(text)


def key_radio(page: Page, name: str, value: str) -> None:
    """Tab into a group of radio buttons (one stop of Tab) and move to ``value`` with the arrow keys."""
    tab_to(page, f"input[type=radio][name='{name}']")
    for _ in range(40):
        if focused(page, f"input[name='{name}'][value='{value}']"):
            break
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    expect(page.locator(f"input[name='{name}'][value='{value}']")).to_be_checked()


def key_select(page: Page, css: str, value: str) -> None:
    """Tab to a list and step through its choices with the arrow keys until ``value`` is chosen."""
    tab_to(page, css)
    box = page.locator(css)
    values = box.locator("option").evaluate_all("options => options.map(o => o.value)")
    at = values.index(box.input_value())
    for _ in range(abs(values.index(value) - at)):
        page.keyboard.press("ArrowDown" if values.index(value) > at else "ArrowUp")
    expect(box).to_have_value(value)


def key_press(page: Page, css: str, text: str | None = None, key: str = "Enter") -> None:
    """Tab to a button or link and press it (Enter, or ``key``)."""
    tab_to(page, css, text)
    page.keyboard.press(key)


def key_start(page: Page, base: str, game: str, players: tuple[str, ...], **options: str) -> None:
    """A new table started by keyboard: the game's link, the names seat by seat, the options, Start."""
    page.goto(base + "/")
    key_press(page, "a", game)
    expect(page.locator("#seat1")).to_be_visible()
    for seat, name in enumerate(players, 1):
        key_type(page, f"#seat{seat}", name)
    for name, value in options.items():
        key_radio(page, f"opt-{name}", value)
    key_press(page, "button", "Start the table")
    expect(page.get_by_role("link", name=f"Enter {NOUNS[game]} 1", exact=True)).to_be_visible()


def key_pick(page: Page, field: str, cards: str) -> None:
    """Cards entered through the card grid by keyboard: Pick, the arrow keys to each card and Enter, then
    Escape, which closes the grid and puts the focus back on Pick."""
    key_press(page, f"[data-pick='{field}']")
    grid = page.locator(".picker [data-card-grid]")
    expect(grid).to_be_visible()
    for card in cards.split():
        arrow_to(page, card)
        page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    expect(grid).to_be_hidden()
    assert focused(page, f"[data-pick='{field}']"), "Escape puts the focus back on Pick"
    expect(page.locator(f"#{field}")).to_have_value(cards)


def arrow_to(page: Page, card: str) -> None:
    """The focus moved onto ``card`` of the open card grid with the arrow keys alone."""
    grid = page.locator(".picker [data-card-grid]")
    for _ in range(120):
        if focused(page, f"[data-grid-card='{card}']"):
            return
        here = page.evaluate("document.activeElement.dataset.gridCard || ''")
        page.keyboard.press(_towards(grid, here, card))
    raise AssertionError(f"{card} is never reached with the arrow keys")


def _towards(grid, here: str, card: str) -> str:
    """The arrow key that brings the focus nearer ``card`` on the grid, as the eye finds it."""
    if not here:
        return "ArrowRight"
    a, b = (grid.locator(f"[data-grid-card='{c}']").bounding_box() for c in (here, card))
    if abs(a["y"] - b["y"]) > a["height"] / 2:
        return "ArrowDown" if b["y"] > a["y"] else "ArrowUp"
    return "ArrowRight" if b["x"] > a["x"] else "ArrowLeft"
