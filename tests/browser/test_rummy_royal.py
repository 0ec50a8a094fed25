"""Rummy Royal on a phone (390x844): four players, three deals, a space carried over two
deals before it is claimed, and a poker stage the referee decides from the cards.

Worked by hand (RM-3..RM-7), players Ann, Ben, Cat, Dan, 100 chips each, nine spaces:
  Deal 1, Ann deals. Antes: 4 on every space. Ann 10H (4), Cat QH and KH and the Marriage
    (12), Ben AH (4), Dan the Sequence (4); nobody held JH: its 4 stay. Poker: Ann bets 2,
    Ben 5, Cat 5, Dan folds; Ben wins the Pot (4 + 12 = 16). Cat goes out: the Kitty (4) and
    4 + 2 + 7 cards left. Ann 89, Ben 104, Cat 115, Dan 88; JH 4 on the board.
  Deal 2, Ben deals. Antes: JH 8, the others 4. Ann AH (4); nobody held JH again. Poker:
    each bets 1; the referee reads Ann 9S 9C 4D 4C 2S, Ben 9D 9H 4S 4H 7C, Cat AS KS QD JC 3D,
    Dan 8S 8C 6D 5C 2D: Ben's Nines and Fours with a 7 beat Ann's with a 2; Ben takes 4 + 4.
    Dan goes out: the Kitty 4 and 3 + 1 + 5. Ann 80, Ben 101, Cat 100, Dan 91.
  Deal 3, Cat deals. Antes: JH 12 (carried over twice), the Sequence 8. Dan takes JH (12).
    Ann and Ben share the Sequence, 4 each. Ann, Ben and Dan fold: Cat takes the Pot, 4.
    Ann goes out: the Kitty 4, and 2 from Ben, 3 from Dan. Ann 84, Ben 94, Cat 95, Dan 91.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.steps import stacks, start
from tests.browser.test_phone_layout import assert_phone_friendly

pytestmark = pytest.mark.browser

PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def shots(tmp_path: Path) -> Path:
    """Where screenshots go: COURTIER_SHOTS when set (to look at them), else the test's own folder."""
    folder = Path(os.environ.get("COURTIER_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Taps:
    """Counts the taps a person makes on the deal form."""

    def __init__(self, page: Page):
        self.page, self.count = page, 0

    def holder(self, field: str, name: str) -> None:
        self.page.locator(f"#{field} label.seg", has_text=name).click()
        self.count += 1

    def fill(self, selector: str, value: str) -> None:
        self.page.fill(selector, value)
        self.count += 1

    def check(self, selector: str) -> None:
        self.page.locator(selector).click()
        self.count += 1


def space(page: Page, name: str):
    return page.locator(f"#board [data-space='{name}'] .space-chips")


def save(page: Page, number: int) -> None:
    page.get_by_role("button", name=f"Save deal {number}").click()
    expect(page.locator(".flash")).to_contain_text("Deal saved", timeout=15_000)


def start_table(page: Page, base: str) -> None:
    start(page, base, "Rummy Royal", PLAYERS)


def test_three_deals_with_a_carry_over_and_the_referee_deciding_the_poker(live_server, phone, tmp_path):
    folder = shots(tmp_path)
    page = phone().new_page()
    start_table(page, live_server)
    assert stacks(page) == dict.fromkeys(PLAYERS, "100")

    # Deal 1 -------------------------------------------------------------------------------
    page.get_by_role("link", name="Enter deal 1", exact=True).click()
    expect(page.locator("#dealer")).to_have_value("Ann")
    taps = Taps(page)
    # a tap and a tap back leaves nobody; the control keeps working after many taps
    for _ in range(3):
        taps.holder("pay_10H", "Ann")
        expect(page.locator("#pay_10H .nobody")).to_be_hidden()
        taps.holder("pay_10H", "Ann")
        expect(page.locator("#pay_10H .nobody")).to_be_visible()
    taps.count = 0
    taps.holder("pay_10H", "Ann")
    taps.holder("pay_QH", "Cat")
    taps.holder("pay_KH", "Cat")
    taps.holder("pay_AH", "Ben")
    expect(page.locator("#pay_JH .nobody")).to_be_visible()
    taps.holder("sequence", "Dan")
    taps.fill("#p0_bet", "2")
    taps.fill("#p1_bet", "5")
    taps.fill("#p2_bet", "5")
    taps.check("label.seg:has(#p3_fold)")
    taps.holder("winners", "Ben")
    page.locator("label.seg:has(input[name='out'][value='Cat'])").click()
    taps.count += 1
    taps.fill("#p0_left", "4")
    taps.fill("#p1_left", "2")
    taps.fill("#p3_left", "7")
    page.screenshot(path=str(folder / "rummy-royal-deal-1-form.png"), full_page=True)
    assert_phone_friendly(page)
    save(page, 1)
    deal_one_taps = taps.count + 1  # and Save
    assert deal_one_taps <= 16, deal_one_taps
    assert stacks(page) == {"Ann": "89", "Ben": "104", "Cat": "115", "Dan": "88"}
    expect(space(page, "JH")).to_have_text("4")
    expect(page.locator("#board .conservation")).to_contain_text("396 with the players + 4 on the board = 400")
    page.locator("#why-1 summary").click()
    expect(page.locator("#why-1")).to_contain_text("Cat holds KH and QH: takes the Marriage, 4 chips (RM-4)")
    expect(page.locator("#why-1")).to_contain_text("Nobody held JH: its 4 chips stay for the next deal (RM-4)")

    # Deal 2: the poker stage decided by the referee ----------------------------------------
    page.get_by_role("link", name="Enter deal 2", exact=True).click()
    expect(page.locator("#dealer")).to_have_value("Ben")
    expect(page.locator("#pay_JH .on-space")).to_have_text("8 on it with the antes")
    taps = Taps(page)
    taps.holder("pay_AH", "Ann")
    for i in range(4):
        taps.fill(f"#p{i}_bet", "1")
    page.locator(".referee-cards summary").click()
    for i, cards in enumerate(("9S 9C 4D 4C 2S", "9D 9H 4S 4H 7C", "AS KS QD JC 3D", "8S 8C 6D 5C 2D")):
        taps.fill(f"#p{i}_cards", cards)
    page.locator("label.seg:has(input[name='out'][value='Dan'])").click()
    taps.fill("#p0_left", "3")
    taps.fill("#p1_left", "1")
    taps.fill("#p2_left", "5")
    page.screenshot(path=str(folder / "rummy-royal-deal-2-form.png"), full_page=True)
    save(page, 2)
    assert stacks(page) == {"Ann": "80", "Ben": "101", "Cat": "100", "Dan": "91"}
    expect(space(page, "JH")).to_have_text("8")
    page.locator("#why-2 summary").click()
    expect(page.locator("#why-2")).to_contain_text("both two pair, Nines and Fours; Ben's kicker 7 beats Ann's 2")

    # Deal 3: the carried-over JH is claimed ---------------------------------------------------
    page.get_by_role("link", name="Enter deal 3", exact=True).click()
    expect(page.locator("#dealer")).to_have_value("Cat")
    taps = Taps(page)
    taps.holder("pay_JH", "Dan")
    taps.holder("sequence", "Ann")
    taps.holder("sequence", "Ben")
    for i in (0, 1, 3):
        taps.check(f"label.seg:has(#p{i}_fold)")
    page.locator("label.seg:has(input[name='out'][value='Ann'])").click()
    taps.fill("#p1_left", "2")
    taps.fill("#p3_left", "3")
    save(page, 3)
    assert stacks(page) == {"Ann": "84", "Ben": "94", "Cat": "95", "Dan": "91"}
    expect(space(page, "JH")).to_have_text("0")
    expect(page.locator("#board .conservation")).to_contain_text("364 with the players + 36 on the board = 400")
    page.locator("#why-3 summary").click()
    expect(page.locator("#why-3")).to_contain_text("Dan holds JH: takes the JH space, 12 chips (RM-4)")
    expect(page.locator("#why-3")).to_contain_text("Cat wins the poker hand as everyone else folded")
    page.screenshot(path=str(folder / "rummy-royal-board.png"), full_page=True)
    assert_phone_friendly(page)


def test_a_bad_deal_is_answered_beside_its_fields_and_the_input_is_kept(live_server, phone, tmp_path):
    page = phone().new_page()
    start_table(page, live_server)
    page.get_by_role("link", name="Enter deal 1", exact=True).click()
    page.locator("#pay_KH label.seg", has_text="Ann").click()
    page.locator("#pay_KH label.seg", has_text="Ben").click()
    page.fill("#p0_bet", "500")
    page.locator("label.seg:has(#p2_fold)").click()
    page.locator("#winners label.seg", has_text="Cat").click()
    page.locator("label.seg:has(input[name='out'][value='Dan'])").click()
    page.fill("#p3_left", "4")
    page.get_by_role("button", name="Save deal 1").click()
    expect(page.locator("#pay_KH-error")).to_contain_text("only one player can have held it")
    expect(page.locator("#winners-error")).to_contain_text("Cat folded, so Cat cannot win the poker hand")
    expect(page.locator("#p3_left-error")).to_contain_text("Dan went out, so Dan has no cards left")
    page.screenshot(path=str(shots(tmp_path) / "rummy-royal-errors.png"), full_page=True)
    # the bet is checked once the deal can be played: fix the others, and it is next
    page.locator("#pay_KH label.seg", has_text="Ben").click()
    page.locator("#winners label.seg", has_text="Cat").click()
    page.locator("#winners label.seg", has_text="Ann").click()
    page.fill("#p3_left", "")
    page.get_by_role("button", name="Save deal 1").click()
    expect(page.locator("#p0_bet-error")).to_contain_text("Ann has only 95 chips at the poker stage, so cannot bet 500")
    expect(page.locator("#p0_bet")).to_have_value("500")
    assert re.search(r"422|Save deal 1", page.content())


def test_the_poker_referee_screen_on_a_phone(live_server, phone, tmp_path):
    page = phone().new_page()
    page.goto(live_server + "/referee/rummy-royal/poker")
    page.fill("#name1", "Ann")
    page.fill("#cards1", "AS 2D 3C 4H 5S 9D JC")
    page.fill("#name2", "Ben")
    page.click("[data-pick='cards2']")
    for card in ("KS", "KD", "8C", "7H", "6S"):
        page.click(f".picker [data-rank='{card[:-1]}']")
        page.click(f".picker [data-suit='{card[-1]}']")
    page.click(".picker [data-picker-close]")
    expect(page.locator("#cards2")).to_have_value(re.compile(r"KS KD 8C 7H 6S"))
    page.get_by_role("button", name="Who wins?").click()
    expect(page.locator(".verdict")).to_contain_text("Winner: Ann")
    expect(page.locator(".verdict")).to_contain_text("a straight, Five high (the wheel: the Ace plays low)")
    page.screenshot(path=str(shots(tmp_path) / "rummy-royal-referee.png"), full_page=True)


# The Marriage row (RM-4) -----------------------------------------------------------------------
#
# Worked by hand (RM-3..RM-6), Ann, Ben, Cat, Dan, 100 chips each, nine spaces, Ann deals: each antes
# 9 (91 left), every space holds 4. Ann held K♥ and Q♥, so she takes K♥ (4), Q♥ (4) and the Marriage (4):
# 12. Ben A♥ (4), Cat 10♥ (4); nobody held J♥ (its 4 stay); Dan the Sequence (4). Poker: Ann bets 2,
# Ben 5, Cat 5, Dan folds; Ben takes the Pot, 4 + 12. Cat goes out: the Kitty (4), and 4 + 2 + 7 cards.
#   Ann 91 + 12 - 2 - 4 = 97; Ben 91 + 4 - 5 + 16 - 2 = 104; Cat 91 + 4 - 5 + 4 + 13 = 107;
#   Dan 91 + 4 - 7 = 88; 396 with the players + J♥'s 4 = 400.
# Had the Marriage tap cleared Ann's three (as it once did), she would have ended on 85.

SMALL_PHONE = {"width": 360, "height": 740}
MARRIAGE_TOTALS = {"Ann": 97, "Ben": 104, "Cat": 107, "Dan": 88}


def tick(page: Page, row: str, name: str) -> None:
    page.locator(f"#{row} label.seg", has_text=name).click()


def ticked(page: Page, row: str, name: str) -> bool:
    return page.locator(f"input[name='{row}'][value='{name}']").is_checked()


def note(page: Page):
    return page.locator("[data-note-for='marriage']")


def the_rest_of_deal_one(page: Page) -> None:
    tick(page, "pay_AH", "Ben")
    tick(page, "pay_10H", "Cat")
    tick(page, "sequence", "Dan")
    page.fill("#p0_bet", "2")
    page.fill("#p1_bet", "5")
    page.fill("#p2_bet", "5")
    page.locator("label.seg:has(#p3_fold)").click()
    tick(page, "winners", "Ben")
    page.locator("label.seg:has(input[name='out'][value='Cat'])").click()
    page.fill("#p0_left", "4")
    page.fill("#p1_left", "2")
    page.fill("#p3_left", "7")


@pytest.mark.parametrize("order", ["cards then Marriage", "Marriage then cards"])
def test_the_marriage_and_both_cards_are_recorded_whichever_is_tapped_first(live_server, phone, tmp_path, order):
    """A newcomer reads the Marriage row as one more thing to tick: after Ann's K♥ and Q♥ it ticks
    itself, and a tap on it then keeps all three (it used to clear them, silently); after the Marriage
    has ticked both cards, a tap on a card keeps it too. Saved, Ann has the 12 chips of RM-4."""
    page = phone(viewport=SMALL_PHONE).new_page()
    start_table(page, live_server)
    page.get_by_role("link", name="Enter deal 1", exact=True).click()
    if order == "cards then Marriage":
        tick(page, "pay_KH", "Ann")
        tick(page, "pay_QH", "Ann")
        expect(page.locator("input[name='marriage'][value='Ann']")).to_be_checked()
        expect(note(page)).to_have_text("Ann held K♥ and Q♥: the Marriage is Ann's too (RM-4).")
        tick(page, "marriage", "Ann")
        expect(note(page)).to_have_text("The Marriage stays Ann's: Ann held K♥ and Q♥ (RM-4). "
                                        "To take it back, untick K♥ or Q♥.")
    else:
        tick(page, "marriage", "Ann")
        expect(note(page)).to_have_text("Ann held K♥ and Q♥: both ticked with the Marriage (RM-4).")
        tick(page, "pay_QH", "Ann")
        expect(note(page)).to_have_text("Q♥ stays ticked for Ann: the Marriage ticked it. Tap it again to untick it.")
        tick(page, "pay_KH", "Ann")
        expect(note(page)).to_have_text("K♥ stays ticked for Ann: the Marriage ticked it. Tap it again to untick it.")
    assert [ticked(page, row, "Ann") for row in ("pay_KH", "pay_QH", "marriage")] == [True, True, True]
    the_rest_of_deal_one(page)
    page.screenshot(path=str(shots(tmp_path) / f"rummy-royal-marriage-{order.replace(' ', '-')}.png"), full_page=True)
    save(page, 1)
    assert stacks(page) == {name: str(chips) for name, chips in MARRIAGE_TOTALS.items()}
    page.locator("#why-1 summary").click()
    expect(page.locator("#why-1")).to_contain_text("Ann holds KH and QH: takes the Marriage, 4 chips (RM-4)")


def test_the_marriage_row_says_what_each_tap_does(live_server, phone):
    """The Marriage alone ticks both cards, and a second tap takes back what it ticked (and only that);
    a card unticked takes the Marriage with it and keeps the other card; every change is said in words."""
    page = phone(viewport=SMALL_PHONE).new_page()
    start_table(page, live_server)
    page.get_by_role("link", name="Enter deal 1", exact=True).click()
    expect(note(page)).to_have_text("")
    tick(page, "marriage", "Ben")
    assert [ticked(page, row, "Ben") for row in ("pay_KH", "pay_QH", "marriage")] == [True, True, True]
    tick(page, "marriage", "Ben")  # a tap back undoes the Marriage's own ticks
    expect(note(page)).to_have_text("Marriage unticked for Ben, and K♥ and Q♥ with it.")
    assert [ticked(page, row, "Ben") for row in ("pay_KH", "pay_QH", "marriage")] == [False, False, False]
    tick(page, "pay_QH", "Ben")  # the player's own Q♥ is not the Marriage's to take back
    tick(page, "marriage", "Ben")
    tick(page, "marriage", "Ben")
    expect(note(page)).to_have_text("Marriage unticked for Ben, and K♥ with it; Q♥ stays ticked.")
    assert [ticked(page, row, "Ben") for row in ("pay_KH", "pay_QH", "marriage")] == [False, True, False]
    tick(page, "pay_KH", "Ben")
    tick(page, "pay_KH", "Ben")  # a card of the Marriage unticked: the Marriage goes, the other card stays
    expect(note(page)).to_have_text("Ben no longer holds both K♥ and Q♥: the Marriage is unticked; "
                                    "Q♥ stays ticked (RM-4).")
    assert [ticked(page, row, "Ben") for row in ("pay_KH", "pay_QH", "marriage")] == [False, True, False]
    tick(page, "marriage", "Ben")
    tick(page, "pay_KH", "Ben")  # ticked by the Marriage: the first tap keeps it, the second unticks it
    tick(page, "pay_KH", "Ben")
    expect(note(page)).to_have_text("Ben no longer holds both K♥ and Q♥: the Marriage is unticked; "
                                    "Q♥ stays ticked (RM-4).")
    assert [ticked(page, row, "Ben") for row in ("pay_KH", "pay_QH", "marriage")] == [False, True, False]
