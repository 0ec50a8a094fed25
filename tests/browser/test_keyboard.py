"""Every game with the keyboard alone, on a phone's screen (390x844), and what a screen reader is given.

Each game's test starts a table and plays a hand with ``page.keyboard`` only (Tab, Shift-Tab, Enter, Space,
the arrow keys, Escape: tests/browser/steps.py), never a click or a tap, and checks the hand stored (the
board's totals) and announced once in the page's live region with the totals it moved. Then the card
pickers and the word builder by keyboard, the referee, a tournament round's results and a club table; and
through Playwright's accessibility snapshot the names and roles a screen reader reads: cards in words, the
pad's headers, the live region. docs/accessibility.md says what each control takes.

Worked by hand:
  Indian Rummy, points (IR-8): Ann declares; Ben counts 34, Cat 20, Dan 51: Ann +105.
  Rally the King (RK-5, RK-7): Ben's solo with 64 card points, target 60: Ben +12, the others −4.
  Rummathon Royale (RR-1, RR-2): Ann goes out, Ben holds 3 low and 1 high (25): Ann 25.
  Royalty (RY-6): Ann melds CALM with a black A: 16 points, doubled as the first play: 32.
  Alliance Royals (AR-4..AR-11): Ann (Spades) Spoils 9H 10H: 10, the others nothing: Alliance A 10.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser import site
from tests.browser.steps import (
    arrow_to,
    focused,
    key_pick,
    key_press,
    key_radio,
    key_select,
    key_start,
    key_type,
    tab_to,
    totals,
)

pytestmark = pytest.mark.browser

FOUR = ("Ann", "Ben", "Cat", "Dan")


def keyboard_page(phone) -> Page:
    page = phone().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def open_form(page: Page, noun: str, number: int) -> None:
    """The link to the next hand's form, by keyboard; the focus lands on the form's heading."""
    key_press(page, "a", f"Enter {noun} {number}")
    expect(page.locator("h1")).to_have_text(f"Enter {noun} {number}")
    expect(page.locator("h1")).to_be_focused()


def save_and_hear(page: Page, noun: str, number: int, said: str, *moved: str) -> None:
    """Save with Enter on the save button; the board shows the new totals and the live region says, once,
    that the hand was saved and which totals it moved."""
    key_press(page, "button[type=submit]", f"Save {noun} {number}")
    expect(page.locator(".flash")).to_contain_text(said)
    region = page.locator("#announce")
    expect(region).to_contain_text(said)
    for part in moved:
        expect(region).to_contain_text(part)
    assert page.locator("#announce").count() == 1
    tree = region.aria_snapshot()  # what a screen reader is given: a status, polite, holding the totals
    assert tree.startswith("- status:") and said in tree, tree
    expect(region).to_have_attribute("aria-live", "polite")
    assert not page.errors, page.errors  # type: ignore[attr-defined]


def test_indian_rummy_a_deal_by_keyboard(live_server, phone):
    page = keyboard_page(phone)
    key_start(page, live_server, "Indian Rummy", FOUR)
    open_form(page, "deal", 1)
    key_select(page, "#winner", "Ann")
    for i, count in {1: "34", 2: "20", 3: "51"}.items():
        key_select(page, f"#p{i}_mode", "count")
        key_type(page, f"#p{i}_count", count)
    save_and_hear(page, "deal", 1, "Deal saved", "Totals:", "Ann 105 (+105)")
    assert totals(page)["Ann"] == "105"
    page.screenshot(path="/tmp/keyboard-indian-rummy.png", full_page=True)


def test_rally_the_king_a_hand_by_keyboard(live_server, phone):
    page = keyboard_page(phone)
    key_start(page, live_server, "Rally the King", FOUR)
    open_form(page, "hand", 1)
    key_select(page, "#bid", "solo")
    key_select(page, "#declarer", "Ben")
    key_type(page, "#declarer_points", "64")
    save_and_hear(page, "hand", 1, "Hand saved", "Hand saved. Totals: Ann −4 (−4), Ben 12 (+12)")
    assert totals(page) == {"Ann": "−4", "Ben": "+12", "Cat": "−4", "Dan": "−4"}


def test_rummathon_royale_a_hand_by_keyboard(live_server, phone):
    page = keyboard_page(phone)
    key_start(page, live_server, "Rummathon Royale", FOUR)
    open_form(page, "hand", 1)
    key_radio(page, "out", "Ann")
    key_type(page, "#p1_low", "3")
    key_type(page, "#p1_high", "1")
    save_and_hear(page, "hand", 1, "Hand saved", "Ann 25 (+25)")
    assert totals(page)["Ann"] == "25"


def test_royalty_a_meld_built_by_keyboard(live_server, phone):
    """The word builder by keyboard: the letters typed, then Tab to a letter's chip and Enter makes it black."""
    page = keyboard_page(phone)
    key_start(page, live_server, "Royalty", FOUR)
    open_form(page, "turn", 1)
    key_radio(page, "kind", "meld")
    key_type(page, "#meld-letters", "CALM")
    key_press(page, "[data-word-builder]:has(#meld) .chip[data-index='1']")
    expect(page.locator("#meld")).to_have_value("Cr Ab Lr Mr")
    assert focused(page, ".chip[data-index='1']"), "the focus stays on the letter just coloured"
    expect(page.locator(".chip[data-index='1']")).to_have_attribute("aria-label", "A, black")
    save_and_hear(page, "turn", 1, "Turn saved", "Ann 32 (+32)")


def test_rummy_royal_a_deal_by_keyboard(live_server, phone):
    page = keyboard_page(phone)
    key_start(page, live_server, "Rummy Royal", FOUR)
    open_form(page, "deal", 1)
    key_press(page, "input[name='pay_10H'][value='Ann']", key="Space")  # a row of holders: a box each
    expect(page.locator("input[name='pay_10H'][value='Ann']")).to_be_checked()
    key_radio(page, "out", "Cat")
    for i, left in {0: "4", 1: "2", 3: "7"}.items():
        key_type(page, f"#p{i}_left", left)
    save_and_hear(page, "deal", 1, "Deal saved", "Totals:")


def royals_round(page: Page, base: str, game: str, players: tuple[str, ...], houses: dict[str, str],
                 spoils: dict[str, str]) -> None:
    """A Royals round by keyboard: each House by the arrow keys, each Spoils through the card grid."""
    key_start(page, base, game, players)
    open_form(page, "round", 1)
    for i, name in enumerate(players):
        key_radio(page, f"p{i}_house", houses[name])
        if name in spoils:
            key_pick(page, f"p{i}_spoils", spoils[name])


def test_alliance_royals_a_round_through_the_card_grid_by_keyboard(live_server, phone):
    page = keyboard_page(phone)
    royals_round(page, live_server, "Alliance Royals", FOUR, {"Ann": "S", "Ben": "H", "Cat": "D", "Dan": "C"},
                 {"Ann": "9H 10H"})
    save_and_hear(page, "round", 1, "Round saved", "Alliance A 10 (+10)")


def test_battle_royals_a_round_by_keyboard(live_server, phone):
    page = keyboard_page(phone)
    royals_round(page, live_server, "Battle Royals", ("Ann", "Ben"), {"Ann": "S", "Ben": "H"}, {"Ben": "AH"})
    save_and_hear(page, "round", 1, "Round saved", "Ben 5 (+5)")


def test_marriage_royals_a_round_by_keyboard(live_server, phone):
    page = keyboard_page(phone)
    royals_round(page, live_server, "Marriage Royals", ("Ann", "Ben", "Cat"), {"Ann": "S", "Ben": "H", "Cat": "D"},
                 {"Cat": "AD"})
    save_and_hear(page, "round", 1, "Round saved", "Totals:", "Cat")


# ---------------------------------------------------------------------------------------
# The pickers, a refusal, an undo


def test_the_card_grid_escape_focus_and_no_trap(live_server, phone):
    """The grid is one stop of Tab; the arrow keys move in it, Escape closes it from anywhere in it and gives
    the focus back to Pick; Tab leaves it (no trap); each card is named in words with its count."""
    page = keyboard_page(phone)
    key_start(page, live_server, "Alliance Royals", FOUR)
    open_form(page, "round", 1)
    key_press(page, "[data-pick='p0_meld']")
    grid = page.locator(".picker [data-card-grid]")
    expect(grid).to_be_visible()
    assert focused(page, "[data-grid-card='2S']"), "the focus goes into the grid, on its first card"
    expect(page.locator("[data-grid-card='KH']")).to_have_accessible_name("King of Hearts, 3 left")
    expect(page.locator("[data-grid-card='2S']")).to_have_accessible_name("2 of Spades, 1 left")
    page.keyboard.press("ArrowRight")
    assert focused(page, "[data-grid-card='2H']")
    page.keyboard.press("ArrowDown")
    assert focused(page, "[data-grid-card='3H']")
    page.screenshot(path="/tmp/keyboard-grid-open.png")  # the focus ring on 3♥, in the grid at the foot
    page.keyboard.press("Enter")
    expect(page.locator("#p0_meld")).to_have_value("3H")
    # its only copy taken: the card goes grey, the focus moves on to the next card, never lost
    expect(page.locator("[data-grid-card='3H']")).to_be_disabled()
    expect(page.locator("[data-grid-card='3H']")).to_have_accessible_name("3 of Hearts, none left")
    page.wait_for_function("document.activeElement && document.activeElement.dataset.gridCard === '3D'")
    # one Tab leaves the grid of 100 cards: only one card is in the tab order
    assert page.locator("[data-card-grid] [data-grid-card][tabindex='0']").count() == 1
    page.keyboard.press("Tab")
    assert focused(page, "[data-picker-undo]")
    page.keyboard.press("Tab")
    assert not focused(page, ".picker *"), "Tab goes on past the picker: no keyboard trap"
    tab_to(page, "[data-grid-card]", back=True)
    page.keyboard.press("Escape")
    expect(grid).to_be_hidden()
    assert focused(page, "[data-pick='p0_meld']"), "Escape gives the focus back to Pick"
    page.screenshot(path="/tmp/keyboard-grid-closed.png", full_page=False)


def test_the_rank_and_suit_picker_by_keyboard(live_server, phone):
    """Rally the King's referee picker: a rank (arrow keys along the row), Enter, then a suit, Enter."""
    page = keyboard_page(phone)
    page.goto(live_server + "/referee/rally-the-king/trick")
    key_press(page, "[data-pick='card1']")
    expect(page.locator(".picker")).to_be_visible()
    assert focused(page, ".picker [data-card], .picker [data-rank]")
    tab_to(page, ".picker [data-rank='7']")
    page.keyboard.press("ArrowRight")
    assert focused(page, ".picker [data-rank='8']")
    tab_to(page, ".picker [data-rank='K']")
    expect(page.locator(".picker [data-rank='K']")).to_have_accessible_name("King")
    page.keyboard.press("Enter")
    assert focused(page, ".picker [data-suit='S']"), "a rank chosen, on to the suits"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(page.locator("#card1")).to_have_value("KH")
    page.keyboard.press("Escape")
    expect(page.locator(".picker")).to_be_hidden()


def test_a_refusal_is_tied_to_its_field_and_heard_once(live_server, phone):
    """A hand that cannot be saved: the focus lands on the field with the problem (aria-describedby reads its
    message), and the live region says the refusal."""
    page = keyboard_page(phone)
    key_start(page, live_server, "Rally the King", FOUR)
    open_form(page, "hand", 1)
    key_select(page, "#bid", "solo")
    key_select(page, "#declarer", "Ben")
    key_type(page, "#declarer_points", "64")
    key_type(page, "#c_kings", "0")
    key_press(page, "button[type=submit]", "Save hand 1")
    expect(page.locator("#announce")).to_contain_text("Some fields need a look")
    expect(page.locator("#declarer_points")).to_be_focused()
    expect(page.locator("#declarer_points")).to_have_attribute("aria-describedby", "declarer_points-error")
    expect(page.locator("#declarer_points-error")).to_contain_text("not both")
    key_type(page, "#c_kings", "")
    save_and_hear(page, "hand", 1, "Hand saved", "Ben 12 (+12)")
    # Undo, by keyboard: heard with the totals it moved back
    key_press(page, "button", "Undo last change")
    expect(page.locator("#announce")).to_contain_text("Undone")
    expect(page.locator("#announce")).to_contain_text("Ben 0 (−12)")


def test_another_phones_save_is_heard_with_the_totals_it_moved(live_server, phone):
    watcher = keyboard_page(phone)
    player = keyboard_page(phone)
    key_start(player, live_server, "Indian Rummy", ("Ann", "Ben"))
    watcher.goto(player.url.split("#")[0])
    expect(watcher.locator("#board")).to_be_visible()
    open_form(player, "deal", 1)
    key_select(player, "#winner", "Ann")
    key_select(player, "#p1_mode", "count")
    key_type(player, "#p1_count", "30")
    save_and_hear(player, "deal", 1, "Deal saved", "Ann 30 (+30)")
    expect(watcher.locator("#announce")).to_have_text("Changed on another phone. Ann 30, Ben −30.")


# ---------------------------------------------------------------------------------------
# The referee, a tournament round's results, a club table: on the filled site of tests/browser/site.py


@pytest.fixture(scope="module")
def filled_site(tmp_path_factory):
    with site.serving(tmp_path_factory.mktemp("keyboard")) as (base, pages, _app):
        yield base, dict(pages)


def test_the_battle_referee_by_keyboard(filled_site, phone):
    """One card a field: a card chosen on the grid moves on to the next field's grid; the verdict is heard."""
    base, _ = filled_site
    page = keyboard_page(phone)
    page.goto(base + "/referee/alliance-royals/battle")
    key_press(page, "[data-pick='card1']")
    for field, card in (("card1", "9S"), ("card2", "2S"), ("card3", "AS")):
        arrow_to(page, card)
        page.keyboard.press("Enter")
        expect(page.locator(f"#{field}")).to_have_value(card)
    page.keyboard.press("Escape")
    key_press(page, "button", "Who won?")
    expect(page.locator(".verdict")).to_contain_text("Card 2 wins")
    expect(page.locator("h1")).to_be_focused()


def test_a_tournament_rounds_results_by_keyboard(filled_site, phone):
    base, pages = filled_site
    page = keyboard_page(phone)
    page.goto(base + pages["tournament: adjusting a table"])
    for i, total in enumerate(("0", "20", "34")):
        key_type(page, f"#total{i}", total)
    key_type(page, "#reason", "time called")
    key_press(page, "button", "Count this result")
    expect(page.locator(".flash")).to_contain_text("the adjusted result counts")
    expect(page.locator("#announce")).to_contain_text("the adjusted result counts")


def test_a_club_table_by_keyboard(filled_site, phone):
    base, pages = filled_site
    page = keyboard_page(phone)
    page.goto(base + pages["club: new table for the club"])
    for seat, name in enumerate(("Ann", "Ben"), 1):
        key_type(page, f"#seat{seat}", name)
    key_press(page, "button", "Start the table")
    expect(page.locator("#club-of")).to_contain_text("Thursday Club")
    open_form(page, "deal", 1)
    key_select(page, "#winner", "Ann")
    key_select(page, "#p1_mode", "count")
    key_type(page, "#p1_count", "30")
    save_and_hear(page, "deal", 1, "Deal saved", "Ann 30 (+30)")


# ---------------------------------------------------------------------------------------
# What a screen reader is given: Playwright's accessibility snapshot


def test_the_accessibility_snapshot_cards_in_words_pad_headers_and_the_live_region(filled_site, phone):
    base, pages = filled_site
    page = keyboard_page(phone)
    page.goto(base + pages["alliance-royals: entry form"])
    key_press(page, "[data-pick='p0_spoils']")
    grid = page.locator("[data-card-grid]")
    expect(grid).to_be_visible()
    tree = grid.aria_snapshot()
    assert re.search(r'button "King of Hearts, \d left"', tree), tree
    assert re.search(r'button "Ace of Spades, (\d|none) left"', tree), tree
    assert not re.search(r'button "[^"]*[♠♥♦♣]', tree), "no card is named by its symbol"

    page.goto(base + pages["indian-rummy: score pad (edit link)"])
    pad = page.locator(".pad")
    tree = pad.aria_snapshot()
    assert re.search(r'columnheader "Deal"', tree), tree
    for name in page.locator(".pad thead th.num .name").all_inner_texts():
        assert re.search(f'columnheader ".*{re.escape(name)}', tree), (name, tree)
    assert re.search(r'rowheader "Deal 1 in detail', tree), tree
    assert re.search(r'rowheader "Total"', tree), tree
    chart = page.locator("svg.chart")
    expect(chart).to_have_attribute("aria-describedby", "chart-says")
    expect(page.locator("#chart-says")).to_have_text(re.compile(r".+ (leads|lead together) on .+"))



def test_a_hand_saved_without_signal_is_heard_as_waiting_to_send(live_server, phone):
    from tests.browser.test_offline import SLOW, offline_table

    _context, page, _table = offline_table(phone, live_server)
    key_press(page, "a", "Enter hand 1")
    expect(page.locator("h1")).to_have_text("Enter hand 1")
    key_radio(page, "out", "Ann")
    key_type(page, "#p1_low", "1")
    key_press(page, "button[type=submit]", "Save hand 1")
    expect(page.locator("#outbox")).to_contain_text("Hand 1: waiting to send", timeout=SLOW)
    expect(page.locator("#announce")).to_contain_text("Hand 1: waiting to send", timeout=SLOW)
