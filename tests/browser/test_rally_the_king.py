"""Rally the King on a phone: a four-hand game entered by counting cards, with bonuses,
ending with the winner; bad input next to its field; the trick referee.

Worked by hand (individual counting, RK-3: card values + 1 a trick, target 60):
  Hand 1, Ann deals. Ben bids partner against the stock (3), calls the King of Hearts; Dan
    holds it. They take 2 honours, 3 kings, 2 queens, 1 cavalier, 2 valets, 15 others and
    7 tricks: 10 + 15 + 8 + 3 + 4 + 15 + 7 = 62 >= 60, won. 2 against 2: Ben, Dan +3; Ann,
    Cat -3 (RK-7). Sparrow made by them, not announced: half of 2 = 1 each way (RK-8).
    Totals Ann -4, Ben +4, Cat -4, Dan +4.
  Hand 2, Ben deals. Cat plays solo (4): 1 honour, 2 kings, 1 queen, 1 cavalier, 1 valet,
    10 others, 4 tricks: 5 + 10 + 4 + 3 + 2 + 10 + 4 = 38 < 60, lost. Alone: Cat -12, the
    others +4. Totals Ann 0, Ben +8, Cat -16, Dan +8.
  Hand 3, Cat deals. Dan bids one trick (2) and takes exactly one: won, alone: Dan +6, the
    others -2. Totals Ann -2, Ben +6, Cat -18, Dan +14.
  Hand 4, Dan deals. Ann plays solo (4): 3 honours, 4 kings, 2 queens, 2 cavaliers, 1 valet,
    12 others, 8 tricks: 15 + 20 + 8 + 6 + 2 + 12 + 8 = 71, won: Ann +12, others -4. Kings
    announced and made (2): Ann +6, others -2. Totals Ann +16, Ben 0, Cat -24, Dan +8.
  Ann wins after the fourth hand (RK-10).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.steps import start, totals

pytestmark = pytest.mark.browser

PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def start_table(page: Page, base: str) -> None:
    start(page, base, "Rally the King", PLAYERS)


def count_cards(page: Page, **counts: int) -> None:
    for kind, n in counts.items():
        page.fill(f"#c_{kind}", str(n))


def save(page: Page, number: int) -> None:
    page.get_by_role("button", name=f"Save hand {number}").click()
    expect(page.locator(".flash")).to_contain_text("Hand saved")


def test_a_four_hand_game_by_counting_cards_ends_with_the_winner(live_server, phone):
    page = phone().new_page()
    start_table(page, live_server)

    page.get_by_role("link", name="Enter hand 1", exact=True).click()
    expect(page.locator("#dealer")).to_have_value("Ann")
    expect(page.locator("#c_kings")).to_be_hidden()  # no bid yet: nothing to count
    page.select_option("#bid", "partner-against-stock")
    page.select_option("#declarer", "Ben")
    page.select_option("#called_king", "KH")
    page.select_option("#partner", "Dan")
    expect(page.locator("#declarer_tricks")).to_be_hidden()
    count_cards(page, honours=2, kings=3, queens=2, cavaliers=1, valets=2, others=15, tricks=7)
    expect(page.locator("[data-card-total]")).to_have_text("62 card points — target reached")
    page.get_by_text("Bonuses (RK-8)").click()
    page.select_option("#bo_sparrow_side", "declarer")
    page.check("#bo_sparrow_made")
    save(page, 1)
    assert totals(page) == {"Ann": "−4", "Ben": "+4", "Cat": "−4", "Dan": "+4"}

    page.get_by_role("link", name="Enter hand 2", exact=True).click()
    expect(page.locator("#dealer")).to_have_value("Ben")  # the deal passes left
    page.select_option("#bid", "solo")
    page.select_option("#declarer", "Cat")
    expect(page.locator("#partner")).to_be_hidden()
    count_cards(page, honours=1, kings=2, queens=1, cavaliers=1, valets=1, others=10, tricks=4)
    expect(page.locator("[data-card-total]")).to_have_text("38 card points — short of 60")
    save(page, 2)
    assert totals(page) == {"Ann": "0", "Ben": "+8", "Cat": "−16", "Dan": "+8"}

    page.get_by_role("link", name="Enter hand 3", exact=True).click()
    page.select_option("#bid", "one-trick")
    page.select_option("#declarer", "Dan")
    page.fill("#declarer_tricks", "1")
    save(page, 3)
    assert totals(page) == {"Ann": "−2", "Ben": "+6", "Cat": "−18", "Dan": "+14"}

    page.get_by_role("link", name="Enter hand 4", exact=True).click()
    expect(page.locator("#dealer")).to_have_value("Dan")
    page.select_option("#bid", "solo")
    page.select_option("#declarer", "Ann")
    count_cards(page, honours=3, kings=4, queens=2, cavaliers=2, valets=1, others=12, tricks=8)
    page.get_by_text("Bonuses (RK-8)").click()
    page.select_option("#bo_kings_side", "declarer")
    page.check("#bo_kings_announced")
    page.check("#bo_kings_made")
    save(page, 4)
    assert totals(page) == {"Ann": "+16", "Ben": "0", "Cat": "−24", "Dan": "+8"}
    expect(page.locator("#board .result")).to_contain_text("Winner: Ann")
    expect(page.locator("#board .result")).to_contain_text("RK-10")
    expect(page.get_by_role("link", name="Enter hand 5")).to_have_count(0)


def test_bad_input_is_shown_next_to_its_field(live_server, phone):
    page = phone().new_page()
    start_table(page, live_server)
    page.get_by_role("link", name="Enter hand 1", exact=True).click()
    page.select_option("#bid", "solo")
    page.select_option("#declarer", "Ben")
    count_cards(page, kings=5, others=10, tricks=3)  # the pack has four Kings
    save_button = page.get_by_role("button", name="Save hand 1")
    save_button.click()
    expect(page.locator("#c_kings-error")).to_have_text("The pack has 4.")
    expect(page.locator("#c_others")).to_have_value("10")  # the rest is kept
    expect(page.locator("#bid")).to_have_value("solo")

    # A partner on a solo bid (RK-5): the engine's message lands on the partner field.
    page.fill("#c_kings", "4")
    page.select_option("#bid", "partner-against-stock")
    page.select_option("#partner", "Ben")  # the declarer cannot partner themselves
    page.select_option("#called_king", "KS")
    save_button.click()
    expect(page.locator("#partner-error")).to_be_visible()
    expect(page.locator("#problems")).to_contain_text("Who held the called King")


def test_the_trick_referee(live_server, phone):
    page = phone().new_page()
    page.goto(live_server + "/referee/")
    page.get_by_role("link", name="Rally the King: Who won the trick?").click()
    page.click("[data-pick='card1']")
    for card in ("T1",):
        page.click(f".picker [data-card='{card}']")
    page.click(".picker [data-card='T21']")
    page.click(".picker [data-rank='K']")
    page.click(".picker [data-suit='H']")
    page.click(".picker [data-card='F']")
    expect(page.locator("#card4")).to_have_value("F")
    page.get_by_role("button", name="Who won?").click()
    verdict = page.locator(".verdict")
    expect(verdict).to_contain_text("Card 1 wins: T1")  # all three Honours: the Juggler wins
    expect(verdict).to_contain_text("RK-11")
