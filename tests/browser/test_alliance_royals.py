"""Alliance Royals on a phone: a whole game to 1066 entered through the card picker, an
impossible board refused next to the card, and the two referee screens.

Round worked by hand (AR-4..AR-11), entered twice:
  Ann (Spades)   Spoils KS QS JS KS QS JS QD KD = 8 x 5 = 40; Meld 2S 2H 2D 2C: the 2s are
                 matched (4 in Meld), doubled: 4 x 20 = 80. Natural 120. Two Royal sets; two
                 marriages in her Spoils (KS + QD, QS + KD). x (1 + 2 + 2) = 600.
  Cat (Diamonds) Spoils KD QD JD = 15; Meld 3S 3H 3D 3C = 80. Natural 95. One Royal set; no
                 marriage of her own, two in Ann's Spoils. x (1 + 1 + 2) = 380.
  Ben, Dan       nothing on their boards: 0.
  Alliance A 980 after round 1, 1960 after round 2: above 1066, A wins (AR-12).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.steps import enter_boards, start

pytestmark = pytest.mark.browser

PLAYERS = ("Ann", "Ben", "Cat", "Dan")
HOUSES = {"Ann": "S", "Ben": "H", "Cat": "D", "Dan": "C"}
BOARDS = {
    "Ann": {"spoils": "KS QS JS KS QS JS QD KD", "meld": "2S 2H 2D 2C"},
    "Cat": {"spoils": "KD QD JD", "meld": "3S 3H 3D 3C"},
}


def start_table(page: Page, base: str) -> None:
    start(page, base, "Alliance Royals", PLAYERS)


def enter_round(page: Page, number: int) -> None:
    enter_boards(page, number, HOUSES, BOARDS)  # every card through the picker, each round


def test_a_whole_game_to_1066_through_the_card_picker(live_server, phone):
    page = phone().new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    start_table(page, live_server)

    # The picker counts the pack (AR-1): with two KS already in Ann's Spoils, one is left.
    page.get_by_role("link", name="Enter round 1", exact=True).click()
    page.click("[data-pick='p0_spoils']")
    for _ in range(2):
        page.click(".picker [data-grid-card='KS']")
    expect(page.locator(".picker [data-grid-card='KS'] [data-left]")).to_have_text("1")
    expect(page.locator(".picker [data-grid-card='KH'] [data-left]")).to_have_text("3")
    page.click(".picker [data-grid-card='2S']")
    expect(page.locator(".picker [data-grid-card='2S']")).to_be_disabled()  # only one 2S in the pack
    page.click(".picker [data-picker-undo]")
    expect(page.locator("#p0_spoils")).to_have_value("KS KS")
    page.get_by_role("link", name="← Back to the scores").click()

    enter_round(page, 1)
    board = page.locator("#board")
    expect(board.locator(".alliances tbody tr").nth(0)).to_contain_text("980")
    expect(board.locator(".alliances tbody tr").nth(0)).to_contain_text("87 to pass 1066")
    expect(board.locator(".alliances tbody tr").nth(1)).to_contain_text("0")
    expect(board.locator(".result")).to_have_count(0)
    board.locator("#why-1 summary").click()
    why = board.locator("#why-1")
    expect(why).to_contain_text("Score 120 × (1 + 2 Royal sets + 2 marriages) = 120 × 5 = 600")
    expect(why).to_contain_text("Score 95 × (1 + 1 Royal set + 2 marriages) = 95 × 4 = 380")
    expect(why.get_by_role("link", name="AR-10").first).to_have_attribute("href", "/rules/alliance-royals#AR-10")

    enter_round(page, 2)
    result = page.locator("#board .result")
    expect(result).to_contain_text("Winners: Ann and Cat")
    expect(result).to_contain_text("AR-12")
    expect(page.locator("#board .alliances tbody tr").nth(0)).to_contain_text("1960")
    expect(page.get_by_role("link", name="Enter round 3")).to_have_count(0)
    assert errors == []


def test_the_card_grid_waits_for_its_script_instead_of_dropping_a_tap(live_server, phone):
    """On a slow connection the picker can open before the grid's script has come: its cards stay
    disabled until then, so a tap is not taken and silently dropped; then every tap counts (AR-1)."""
    page = phone(service_workers="block").new_page()  # no copy kept by the offline worker either
    held = []
    page.route("**/card-grid.js*", lambda route: held.append(route))  # the script's request waits here
    start_table(page, live_server)
    page.get_by_role("link", name="Enter round 1", exact=True).click()
    page.click("[data-pick='p0_spoils']")
    expect(page.locator(".picker")).to_be_visible()
    king = page.locator(".picker [data-grid-card='KS']")
    expect(king).to_be_disabled()
    if not held:  # events reach this test only inside a Playwright call: none is missed in between
        page.wait_for_event("request", lambda request: "card-grid.js" in request.url)
    held[0].continue_()
    for _ in range(2):
        king.click()
    expect(king.locator("[data-left]")).to_have_text("1")
    expect(page.locator("#p0_spoils")).to_have_value("KS KS")


def test_an_impossible_board_is_refused_next_to_the_card_with_the_input_kept(live_server, phone):
    page = phone().new_page()
    start_table(page, live_server)
    page.get_by_role("link", name="Enter round 1", exact=True).click()
    for i, name in enumerate(PLAYERS):
        page.locator("label.seg", has=page.locator(f"input[name='p{i}_house'][value='{HOUSES[name]}']")).click()
    # Four Queens of Diamonds: the pack has three (AR-1, AR-13). Typed, as the picker would not allow it.
    page.fill("#p0_spoils", "QD QD 9S")
    page.fill("#p2_spoils", "KD QD")
    page.fill("#p2_hand", "qd")
    page.fill("#p3_meld", "7C 7H 7S")
    page.get_by_role("button", name="Save round 1").click()
    error = page.locator("#p2_hand-error")
    expect(error).to_contain_text("the pack has only 3 QD; 4 were entered")
    expect(page.locator("#p2_hand")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#problems")).to_contain_text("Cat · Left in hand")
    for field, value in (("p0_spoils", "QD QD 9S"), ("p2_spoils", "KD QD"), ("p2_hand", "qd"),
                         ("p3_meld", "7C 7H 7S")):
        expect(page.locator(f"#{field}")).to_have_value(value)
    expect(page.locator("input[name='p1_house'][value='H']")).to_be_checked()
    # Nothing was saved.
    page.get_by_role("link", name="← Back to the scores").click()
    expect(page.locator("#board .hands")).to_have_count(0)


def test_the_battle_and_privileges_referees(live_server, phone):
    page = phone().new_page()
    page.goto(live_server + "/")
    page.get_by_role("link", name="Referee").click()
    page.get_by_role("link", name="Alliance Royals: Who won the Battle?").click()
    # Led AS, then 2S (the Sneak), KS, AH: the Sneak beats the Ace of the led suit (AR-14).
    page.click("[data-pick='card1']")
    for card in ("AS", "2S", "KS", "AH"):  # the picker moves on to the next card by itself
        page.click(f".picker [data-grid-card='{card}']")
    page.get_by_role("button", name="Who won?").click()
    expect(page.locator(".verdict")).to_contain_text("Card 2 wins: 2S")
    expect(page.locator(".verdict")).to_contain_text("AR-14")

    page.get_by_role("link", name="What may I do?").click()
    page.locator("input[name='house'][value='S']").check(force=True)
    page.locator("input[name='ally_house'][value='D']").check(force=True)
    page.fill("#spoils", "KS QS AH")
    page.fill("#hand", "5C")
    page.check("#battle_won")
    page.get_by_role("button", name="What may I do?").click()
    verdict = page.locator(".verdict")
    expect(verdict.locator("li.yes")).to_have_count(3)  # meld, discard bundle, end the round
    expect(verdict).to_contain_text("AH strikes one H card")


class Taps:
    """Counts the taps a person makes, so the suite can print what a board costs."""

    def __init__(self, page: Page):
        self.page, self.count = page, 0

    def tap(self, selector: str) -> None:
        self.page.locator(selector).tap()
        self.count += 1


def test_one_board_of_eight_cards_in_a_dozen_taps_and_the_grid_survives_a_refusal(live_server, phone, capsys):
    """A board of 8 cards (Spoils KS QS JS KD QD, Meld 2S 2H 2D) costs: the House, the Spoils
    field, five cards, the Meld tab, three cards = 11 taps. Before the grid, each card was a rank
    and a suit, with Pick and Done around each place: 1 + (1 + 10 + 1) + (1 + 6 + 1) = 21."""
    page = phone().new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    start_table(page, live_server)
    page.get_by_role("link", name="Enter round 1", exact=True).click()
    taps = Taps(page)
    taps.tap("label.seg:has(input[name='p0_house'][value='S'])")
    taps.tap("[data-pick='p0_spoils']")
    for card in ("KS", "QS", "JS", "KD", "QD"):
        taps.tap(f".picker [data-grid-card='{card}']")
    taps.tap(".picker [data-zone-tab='p0_meld']")
    expect(page.locator(".picker [data-picker-label]")).to_have_text("Ann · Meld")
    for card in ("2S", "2H", "2D"):
        taps.tap(f".picker [data-grid-card='{card}']")
    expect(page.locator("#p0_spoils")).to_have_value("KS QS JS KD QD")
    expect(page.locator("#p0_meld")).to_have_value("2S 2H 2D")
    expect(page.locator("input[name='p0_house'][value='S']")).to_be_checked()
    with capsys.disabled():
        print(f"\nAlliance Royals, one board of 8 cards: {taps.count} taps (before the grid: 21)")
    assert taps.count <= 12

    # The next player is one tap away; the copies left count every board (AR-1).
    taps.tap(".picker [data-zone-tab='p1_spoils']")
    expect(page.locator(".picker [data-picker-label]")).to_have_text("Ben · Spoils")
    expect(page.locator(".picker [data-grid-card='KS'] [data-left]")).to_have_text("2")
    expect(page.locator(".picker [data-grid-card='2S']")).to_be_disabled()
    for card in ("KS", "KS", "9C"):
        taps.tap(f".picker [data-grid-card='{card}']")
    expect(page.locator(".picker [data-grid-card='KS']")).to_be_disabled()  # all three are out
    expect(page.locator("#p1_spoils")).to_have_value("KS KS 9C")

    # A refused round comes back through htmx with the input kept; the grid works on, tap after tap.
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("#problems")).to_be_visible()
    expect(page.locator("#p0_spoils")).to_have_value("KS QS JS KD QD")
    page.click("[data-pick='p3_hand']")
    for card in ("5C", "6C", "7C", "AC"):
        page.click(f".picker [data-grid-card='{card}']")
    expect(page.locator("#p3_hand")).to_have_value("5C 6C 7C AC")
    expect(page.locator(".picker [data-grid-card='5C']")).to_be_disabled()
    page.screenshot(path=_shot("ar-grid.png"))
    assert [e for e in errors if "status of 422" not in e] == []


def _shot(name: str) -> str:
    import os
    import tempfile
    folder = os.path.join(tempfile.gettempdir(), "courtier-shots")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, name)
