"""Battle Royals and Marriage Royals on a phone (390x844): each played to its end on the
Alliance Royals entry screen, round 1 through the card picker, round 2 typed.

Battle Royals, worked by hand (BR-2, AR-4, AR-5):
  Ann (Spades) Spoils KS QS JS x3 = 9 x 5 = 45; Meld 2S 2H 2D 2C and 3S 3H 3D 3C, matched:
               8 x 10 x 2 = 160. Natural 205; three Royal sets: 205 x 4 = 820 a round.
  Ben (Hearts) Spoils AH = 5.
  After round 2 Ann has 1640 > 1066: Ann wins (BR-3).

Marriage Royals, worked by hand (MR-2 to MR-4):
  Ann (Spades) Spoils KS QS JS KS QS JS QH KD = 40; Meld 2S 2H 2D 2C = 80; natural 120.
               Ben's House first (his seat is on her left): KS + QH, spouse Ben; then Cat's:
               QS + KD, spouse Cat. Two Royal sets, two marriages: 120 x 5 = 600.
  Ben (Hearts) Spoils AH = 5, spouse once: 10. Cat (Diamonds) Spoils AD = 5, spouse once: 10.
  Sharing: Ann 600 + 10 + 10 = 620; Ben 10 + 600 = 610; Cat 610.
  After round 2 Ann has 1240 > 1066 and the highest total: Ann wins (MR-6).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.steps import enter_boards, start

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/royals")


def test_battle_royals_played_to_its_end(live_server, phone):
    SHOTS.mkdir(exist_ok=True)
    page = phone().new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    start(page, live_server, "Battle Royals", ("Ann", "Ben"))
    houses = {"Ann": "S", "Ben": "H"}
    boards = {"Ann": {"spoils": "KS QS JS KS QS JS KS QS JS", "meld": "2S 2H 2D 2C 3S 3H 3D 3C"},
              "Ben": {"spoils": "AH"}}

    page.get_by_role("link", name="Enter round 1", exact=True).click()
    expect(page.locator("h1")).to_have_text("Enter round 1")
    expect(page.locator("details.hostages")).to_have_count(0)  # BR-2: nobody to hold hostage
    page.screenshot(path=str(SHOTS / "battle-entry.png"), full_page=True)
    page.get_by_role("link", name="← Back to the scores").click()

    enter_boards(page, 1, houses, boards)  # round 1 through the card picker
    board = page.locator("#board")
    expect(board.locator(".royals tbody tr").nth(0)).to_contain_text("820")
    expect(board.locator(".royals tbody tr").nth(0)).to_contain_text("247 to pass 1066")
    board.locator("#why-1 summary").click()
    expect(board.locator("#why-1")).to_contain_text("Score 205 × (1 + 3 Royal sets) = 205 × 4 = 820 (BR-2)")
    expect(board.locator("#why-1").get_by_role("link", name="BR-2").first).to_have_attribute(
        "href", "/rules/battle-royals#BR-2")

    enter_boards(page, 2, houses, boards, picked=False)  # round 2 typed
    result = page.locator("#board .result")
    expect(result).to_contain_text("Winner: Ann")
    expect(result).to_contain_text("BR-3")
    expect(page.locator("#board .royals tbody tr").nth(0)).to_contain_text("1640")
    expect(page.get_by_role("link", name="Enter round 3")).to_have_count(0)
    page.screenshot(path=str(SHOTS / "battle-end.png"), full_page=True)
    assert errors == []


def test_marriage_royals_played_to_its_end(live_server, phone):
    SHOTS.mkdir(exist_ok=True)
    page = phone().new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    start(page, live_server, "Marriage Royals", ("Ann", "Ben", "Cat"))
    houses = {"Ann": "S", "Ben": "H", "Cat": "D"}
    boards = {"Ann": {"spoils": "KS QS JS KS QS JS QH KD", "meld": "2S 2H 2D 2C"},
              "Ben": {"spoils": "AH"}, "Cat": {"spoils": "AD"}}

    page.get_by_role("link", name="Enter round 1", exact=True).click()
    expect(page.locator("h1")).to_have_text("Enter round 1")
    expect(page.locator("details.hostages")).to_have_count(3)  # MR-3: hostages against any other player
    page.locator("details.hostages summary").first.click()
    page.screenshot(path=str(SHOTS / "marriage-entry.png"), full_page=True)
    page.get_by_role("link", name="← Back to the scores").click()

    enter_boards(page, 1, houses, boards)  # round 1 through the card picker
    board = page.locator("#board")
    expect(board.locator(".royals tbody tr").nth(0)).to_contain_text("620")
    marriages = board.locator(".marriages")
    expect(marriages).to_contain_text("Ann holds KS + QH · spouse Ben")
    expect(marriages).to_contain_text("Ann holds QS + KD · spouse Cat")
    expect(marriages).to_contain_text("Ben shares 600 from spouse Ann")
    board.locator("#why-1 summary").click()
    why = board.locator("#why-1")
    expect(why).to_contain_text("Score before sharing 120 × (1 + 2 Royal sets + 2 own marriages) = 120 × 5 = 600")
    expect(why).to_contain_text("Round score 600 + 10 + 10 = 620 (MR-4)")

    enter_boards(page, 2, houses, boards, picked=False)  # round 2 typed
    result = page.locator("#board .result")
    expect(result).to_contain_text("Winner: Ann")
    expect(result).to_contain_text("MR-6")
    expect(page.locator("#board .royals tbody tr").nth(1)).to_contain_text("1220")
    page.screenshot(path=str(SHOTS / "marriage-end.png"), full_page=True)
    assert errors == []
