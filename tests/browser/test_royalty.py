"""Royalty on a phone: a four-player game from the first meld to going out, with a capture,
challenges and the word judge; the judge's own screen.

Worked by hand (default letter values, RY-2; players Ann, Ben, Cat, Dan):
  1 Ann melds CALM, all red: 6 + 2 + 2 + 6 = 16, the first play of the game: doubled, 32
    (RY-6; four letters, so not quadrupled, and RY-5 does not add to it).
  2 Ben captures CALM as CLAIM, adding a black I: 6 + 2 + 2 + 2 + 6 = 18; one card from hand,
    so no capture royalty (RY-7). CALM leaves Ann's table.
  3 Cat melds ZEBRA, all black: 10 + 2 + 6 + 2 + 2 = 22, a royalty: 44 (RY-5). Dan challenges
    and is not upheld: Dan passes his next turn (RY-10).
  4 Dan passes.   5 Ann melds PEAL, all red: 12, doubled: 24.   6 Ben passes; CLAIM goes to
    his Domain (5 cards, RY-9).   7 Cat melds MACE; Ann challenges and is upheld: the turn is
    void (RY-10). ZEBRA went to Cat's Domain (5).   8 Dan melds PARK, all red: 16 x 2 = 32.
  The end: Dan went out. Ann's Xr (8) and Ben's Qb Ob (10 + 2) add 20 to Dan and 3 cards to his
    Domain (RY-11); PEAL and PARK go to their owners' Domains: Ann 4, Ben 5, Cat 5, Dan 4 + 3 =
    7, the most: +20 (RY-12). Final: Ann 56, Ben 18, Cat 44, Dan 72. Dan wins.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def start_table(page: Page, base: str) -> None:
    page.goto(base + "/")
    page.get_by_role("link", name="Royalty", exact=True).click()
    for seat, name in enumerate(PLAYERS, 1):
        page.fill(f"#seat{seat}", name)
    page.get_by_role("button", name="Start the table").click()
    expect(page.get_by_role("link", name="Enter turn 1", exact=True)).to_be_visible()


def build(page: Page, field: str, letters: str, black: str = "") -> None:
    """Type a word's letters in the builder, then tap the letters at the positions in `black`."""
    page.fill(f"#{field}-letters", letters)
    for i in black:
        page.locator(f"[data-word-builder]:has(#{field}) .chip").nth(int(i)).click()


def turn(page: Page, number: int, player: str, kind: str = "meld") -> None:
    page.get_by_role("link", name=f"Enter turn {number}", exact=True).click()
    expect(page.locator("h1")).to_have_text(f"Enter turn {number}")
    expect(page.locator("#player")).to_have_value(player)  # the app knows whose turn it is
    page.locator(f"input[name='kind'][value='{kind}']").check()


def save(page: Page, number: int) -> None:
    page.get_by_role("button", name=f"Save turn {number}").click()
    expect(page.locator(".flash")).to_contain_text("Turn saved")


def challenge(page: Page, by: str, upheld: bool) -> None:
    page.select_option("#challenge_by", by)
    page.locator(f"input[name='challenge_upheld'][value='{'upheld' if upheld else 'rejected'}']").check()


def scores(page: Page) -> dict[str, str]:
    rows = page.locator("#board .standings tbody tr")
    return {rows.nth(i).locator("th").inner_text().split()[0]: rows.nth(i).locator("td.total").inner_text()
            for i in range(rows.count())}


def test_a_four_player_game_from_first_meld_to_going_out(live_server, phone):
    page = phone().new_page()
    start_table(page, live_server)

    turn(page, 1, "Ann")
    build(page, "meld", "calm")
    expect(page.locator("#meld")).to_have_value("Cr Ar Lr Mr")
    expect(page.locator("[data-judge]").last).to_contain_text("Yes")  # the judge, as the word is typed
    save(page, 1)

    turn(page, 2, "Ben", "capture")
    page.select_option("#target", label="CALM (Ann)")
    build(page, "capture_cards", "CLAIM", black="3")
    expect(page.locator("#capture_cards")).to_have_value("Cr Lr Ar Ib Mr")
    expect(page.locator("[data-target-from] [data-judge]")).to_contain_text("adds I from hand")
    save(page, 2)

    turn(page, 3, "Cat")
    build(page, "meld", "ZEBRA", black="01234")
    challenge(page, "Dan", upheld=False)
    save(page, 3)

    turn(page, 4, "Dan", "pass")
    save(page, 4)
    turn(page, 5, "Ann")
    build(page, "meld", "PEAL")
    save(page, 5)
    turn(page, 6, "Ben", "pass")
    save(page, 6)
    turn(page, 7, "Cat")
    build(page, "meld", "MACE", black="0123")
    challenge(page, "Ann", upheld=True)
    save(page, 7)
    turn(page, 8, "Dan")
    build(page, "meld", "PARK")
    save(page, 8)
    assert scores(page) == {"Ann": "56", "Ben": "18", "Cat": "44", "Dan": "32"}

    page.get_by_role("link", name="Enter turn 9", exact=True).click()
    page.locator("input[name='kind'][value='end']").check()
    page.select_option("#went_out", "Dan")
    page.fill("#u0", "Xr")
    page.fill("#u1", "Qb Ob")
    page.get_by_role("button", name="Save turn 9").click()
    expect(page.locator("#board .result")).to_contain_text("Winner: Dan")
    assert scores(page) == {"Ann": "56", "Ben": "18", "Cat": "44", "Dan": "72"}
    page.locator("#board .hands > li").last.locator("summary").click()
    expect(page.locator("#board")).to_contain_text("Word judge: CALM accepted")


def test_the_word_judge_screen_says_yes_or_no_and_warns_on_inflections(live_server, phone):
    page = phone().new_page()
    page.goto(live_server + "/referee/royalty/word")
    page.fill("#word", "zebra")
    page.get_by_role("button", name="Judge").click()
    expect(page.locator(".verdict .yesno")).to_have_text("Yes")
    page.fill("#word", "Paris")
    page.get_by_role("button", name="Judge").click()
    expect(page.locator(".verdict .yesno")).to_have_text("No")

    page.goto(live_server + "/referee/royalty/capture")
    page.fill("#target", "ear")
    page.fill("#word", "earring")
    page.get_by_role("button", name="Judge").click()
    expect(page.locator(".verdict .warn")).to_contain_text("EAR")
    page.fill("#word", "zebra")
    page.get_by_role("button", name="Judge").click()
    expect(page.locator(".verdict .warn")).to_have_count(0)


def test_a_table_with_its_own_word_list(live_server, phone, tmp_path):
    """RY-17: the list chosen on the new-table page is the one the judge uses beside each word."""
    words = tmp_path / "club-words.txt"
    words.write_text("calm\nxyzzy\n")
    page = phone().new_page()
    page.goto(live_server + "/new/royalty")
    for seat, name in enumerate(("Ann", "Ben"), 1):
        page.fill(f"#seat{seat}", name)
    page.get_by_label("Your own word list").set_input_files(str(words))
    page.get_by_role("button", name="Start the table").click()
    turn(page, 1, "Ann")
    build(page, "meld", "xyzzy")
    expect(page.locator("[data-judge]").last).to_contain_text("Yes")
    expect(page.locator("[data-judge]").last).to_contain_text("own word list")
    build(page, "meld", "zebra")  # in the default list, not in this table's
    expect(page.locator("[data-judge]").last).to_contain_text("No")
