"""Indian Rummy on a phone: a three-deal pool 101 game with a drop, an auto-arranged loser and
an elimination; the declaration referee.

Worked by hand (IR-3..IR-9), players Ann, Ben, Cat, pool 101:
  Deal 1, 7s wild. Ann declares AH 2H 3H | 5S 6S 7D 8S | QC QD QS | 9H 10H JH: two pure runs,
    one impure (7D stands in for 7S), a set: valid, 0. Ben gives his 13 cards; the best
    arrangement is 4C 5C 6C and 8D 9D 10D (two pure runs), loose KS QD 2H 3S 5D 9C JC =
    10 + 10 + 2 + 3 + 5 + 9 + 10 = 49. Cat dropped first: 20. Totals 0, 49, 20.
  Deal 2, 5s wild. Cat declares 2S 3S 4S | 6H 7H 8H | 9C 10C JC QC | KD KS KH. Ann's count is
    30; Ben dropped in the middle: 40. Totals 30, 89, 20.
  Deal 3, 9s wild. Ann declares AS 2S 3S | 4D 5D 6D | 7C 8C 9H 10C | JH JD JC. Ben's count
    25: 114, out at 101 or more (IR-9). Cat has two pure runs 2H 3H 4H and 6S 7S 8S, loose
    KC QH 10S 5C 9D 2C 3C = 10 + 10 + 10 + 5 + 0 (9D is wild) + 2 + 3 = 40. Totals 30, 114, 60.
  Ben may rejoin while nobody in play is above 79 (IR-9): open, at 60 + 1.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.steps import TYPED_AND_BELOW, start, totals

pytestmark = pytest.mark.browser

PLAYERS = ("Ann", "Ben", "Cat")


def start_table(page: Page, base: str) -> None:
    start(page, base, "Indian Rummy", PLAYERS, variant="pool101")


def open_deal(page: Page, number: int, wild: str, winner: str) -> None:
    page.get_by_role("link", name=f"Enter deal {number}", exact=True).click()
    page.select_option("#wild", wild)
    page.select_option("#winner", winner)


def save(page: Page, number: int) -> None:
    page.get_by_role("button", name=f"Save deal {number}").click()
    expect(page.locator(".flash")).to_contain_text("Deal saved")


def test_a_pool_game_with_a_drop_an_arranged_loser_and_an_elimination(live_server, phone):
    page = phone().new_page()
    start_table(page, live_server)

    open_deal(page, 1, "7", "Ann")
    expect(page.locator("#p0_mode")).to_be_hidden()  # the winner gives a declaration
    # The first group through the picker (one tap a card), with its live check; the rest typed.
    page.click("[data-pick='p0_groups']")
    for card in ("AH", "2H", "3H"):
        page.click(f".picker [data-grid-card='{card}']")
    page.click(".picker [data-separator]")
    page.click(".picker [data-picker-close]")
    expect(page.locator("#p0_groups-check")).to_contain_text("pure sequence")
    page.fill("#p0_groups", "AH 2H 3H | 5S 6S 7D 8S | QC QD QS | 9H 10H JH")
    expect(page.locator("#p0_groups-check li.yes")).to_have_count(4)
    page.select_option("#p1_mode", "cards")
    expect(page.locator("#p1_groups")).to_be_hidden()
    page.fill("#p1_cards", "4C 5C 6C 8D 9D 10D KS QD 2H 3S 5D 9C JC")
    page.select_option("#p2_mode", "first")
    save(page, 1)
    assert totals(page) == {"Ann": "0", "Ben": "49", "Cat": "20"}
    page.locator("#why-1 summary").click()
    expect(page.locator("#why-1")).to_contain_text("Cards arranged for the lowest count")
    expect(page.locator("#why-1")).to_contain_text("First drop: 20")

    open_deal(page, 2, "5", "Cat")
    page.fill("#p2_groups", "2S 3S 4S | 6H 7H 8H | 9C 10C JC QC | KD KS KH")
    page.select_option("#p0_mode", "count")
    page.fill("#p0_count", "30")
    page.select_option("#p1_mode", "middle")
    save(page, 2)
    assert totals(page) == {"Ann": "30", "Ben": "89", "Cat": "20"}

    open_deal(page, 3, "9", "Ann")
    page.fill("#p0_groups", "AS 2S 3S | 4D 5D 6D | 7C 8C 9H 10C | JH JD JC")
    page.select_option("#p1_mode", "count")
    page.fill("#p1_count", "25")
    page.select_option("#p2_mode", "groups")
    page.fill("#p2_groups", "2H 3H 4H | 6S 7S 8S")
    page.fill("#p2_loose", "KC QH 10S 5C 9D 2C 3C")
    save(page, 3)
    assert totals(page) == {"Ann": "30", "Ben": "114", "Cat": "60"}
    ben = page.locator("#board .standings tbody tr").nth(1)
    expect(ben).to_contain_text("out")
    expect(page.locator("#board")).to_contain_text("rejoining is open now")

    # Deal 4's form leaves Ben out, and offers the rejoin.
    page.get_by_role("link", name="Enter deal 4", exact=True).click()
    expect(page.locator("#p1_mode")).to_have_value("out")
    expect(page.locator("#p1_rejoin")).to_be_visible()


def test_the_declaration_referee_arranges_and_judges(live_server, phone):
    page = phone().new_page()
    page.goto(live_server + "/referee/")
    page.get_by_role("link", name="Indian Rummy: Is this declaration valid?").click()
    page.select_option("#wild", "7")
    page.fill("#cards", "3H AH 2H 8S 5S 7D 6S QS QC QD JH 9H 10H")
    page.get_by_role("button", name="Judge it").click()
    verdict = page.locator(".verdict")
    expect(verdict).to_contain_text("Valid declaration · count 0")
    expect(verdict.locator(".group-check li")).to_have_count(4)

    page.fill("#cards", "")
    page.fill("#groups", "KS AS 2S | 4H 5H 6H | 8C 8D 8H | 9S 10S JS QS")
    expect(page.locator("#groups-check")).to_contain_text("not a valid group")  # K-A-2 never wraps (IR-4)
    page.get_by_role("button", name="Judge it").click()
    expect(page.locator(".verdict")).to_contain_text("Not a valid declaration")


def test_a_count_over_80_counts_80_and_one_no_hand_can_make_is_refused_beside_it(live_server, phone):
    """IR-6 (and the rules page's own example, 95 counts 80): points rummy (IR-8), Ann declares, Ben's
    cards add up to 95, Cat's to 20: Ben counts 80, and Ann collects 100. A count past the most 13 cards
    add up to (130, IR-3) is refused in words beside the box, and what was typed is kept."""
    page = phone(viewport={"width": 360, "height": 740}).new_page()
    page.goto(live_server + "/new/indian-rummy")
    for seat, name in enumerate(PLAYERS, 1):
        page.fill(f"#seat{seat}", name)
    page.get_by_role("button", name="Start the table").click()
    open_deal(page, 1, "7", "Ann")
    expect(page.locator("#p1_count").locator("xpath=../..").locator(".hint")).to_have_text(
        "What the cards add up to: over 80 counts 80 (IR-6).")
    page.fill("#p1_count", "95")
    page.fill("#p2_count", "20")
    save(page, 1)
    assert totals(page) == {"Ann": "100", "Ben": "−80", "Cat": "−20"}
    page.locator("#why-1 summary").click()
    expect(page.locator("#why-1")).to_contain_text("Count entered: 95, capped at 80 (IR-6)")
    open_deal(page, 2, "5", "Cat")
    page.fill("#p0_count", "131")
    page.fill("#p1_count", "10")
    page.get_by_role("button", name="Save deal 2").click()
    expect(page.locator("#p0_count-error")).to_have_text(
        "A count is 0 to 130: 13 cards add up to 130 at most (IR-3), and a count over 80 counts 80 (IR-6).")
    expect(page.locator("#p0_count")).to_have_value("131")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the form scrolls sideways by {overflow} px"


#: Where the next player's first field stands now (the live check asks 300 ms after the last key).
BELOW_NOW = "document.querySelector('#p1_mode').getBoundingClientRect().top + window.scrollY"


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 360, "height": 740}],
                         ids=["390x844", "360x740"])
def test_each_group_s_verdict_lands_in_room_kept_for_it_and_moves_no_field_below(live_server, phone, size):
    """The live check (IR-4) answers a moment after the typing stops, a verdict of two lines for each group: its
    room is kept as soon as the group is begun, so the next player's fields stay where a finger may already be
    going (each verdict moved them 42 px down). Groups taken out give their room back."""
    page = phone(viewport=size).new_page()
    start_table(page, live_server)
    open_deal(page, 1, "7", "Ann")
    verdicts = page.locator("#p0_groups-check li")
    groups = ["AH 2H 3H", "5S 6S 7D 8S", "QC QD QS", "9H 10H JH"]
    for n in range(1, len(groups) + 1):
        before = page.evaluate(TYPED_AND_BELOW, ["#p0_groups", "#p1_mode", " | ".join(groups[:n])])
        expect(verdicts).to_have_count(n)
        assert page.evaluate(BELOW_NOW) == pytest.approx(before, abs=1), groups[n - 1]
    page.evaluate(TYPED_AND_BELOW, ["#p0_groups", "#p1_mode", ""])
    expect(verdicts).to_have_count(0)
    assert page.locator("#p0_groups-check").bounding_box()["height"] == 0
