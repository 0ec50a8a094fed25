"""The entry flows that used to go wrong, now working on a phone (390x844), and the taps a typical
hand costs, before and after, printed by the suite.

A tap is a press on the screen: a button, a box to type in, a key of the phone's keyboard (each
character typed), and two for a choice from a list (open it, choose). ``Taps`` counts them as the
test plays them.

Worked by hand:
  Rally the King, individual counting (RK-3: card values + 1 a trick, target 60). Ben's solo
    (4) with 2 Honours, 3 Kings, 2 Queens, 1 Cavalier, 2 Valets, 15 others and 7 tricks:
    10 + 15 + 8 + 3 + 4 + 15 + 7 = 62, won: Ben +12, the others -4 (RK-7).
  Rummathon Royale (RR-1, RR-2): Ann goes out; Ben holds 3 low and 1 high (25), Cat 2 low and
    1 action (25), Dan 1 sabotage and 1 flex (45): Ann collects 95.
  Indian Rummy, points rummy (IR-8): Ann declares (taken as valid); Ben counts 34, Cat 20,
    Dan 51: Ann +105.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.steps import start, totals

pytestmark = pytest.mark.browser


class Taps:
    """Plays a flow on the page and counts its taps."""

    def __init__(self, page: Page):
        self.page, self.n = page, 0

    def tap(self, selector: str) -> None:
        self.page.click(selector)
        self.n += 1

    def number(self, box: str, n: int) -> None:
        """The number ``n`` tapped beside the count box ``box``."""
        self.page.locator(".field.count", has=self.page.locator(box)).locator(f"[data-set-count='{n}']").click()
        self.n += 1

    def choose(self, selector: str, value: str) -> None:
        self.page.select_option(selector, value)
        self.n += 2

    def type(self, selector: str, text: str) -> None:
        self.page.fill(selector, text)
        self.n += 1 + len(text)


# ---------------------------------------------------------------------------------------
# Rally the King

RK = ("Ann", "Ben", "Cat", "Dan")
TAKE = {"honours": 2, "kings": 3, "queens": 2, "cavaliers": 1, "valets": 2, "others": 15, "tricks": 7}


def test_rally_the_king_refuses_points_beside_counted_cards_and_asks_for_the_partner(live_server, phone):
    page = phone().new_page()
    start(page, live_server, "Rally the King", RK)
    page.get_by_role("link", name="Enter hand 1", exact=True).click()
    page.select_option("#bid", "solo")
    page.select_option("#declarer", "Ben")
    page.fill("#declarer_points", "64")
    page.fill("#c_kings", "0")  # the case first reported: a 0 left in a count box
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#declarer_points-error")).to_contain_text("not both")
    expect(page.locator("#c_kings-error")).to_be_visible()

    # A partner contract left blank is asked for, beside the visible fields, all at once.
    page.fill("#c_kings", "")
    page.select_option("#bid", "partner")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#called_king-error")).to_be_visible()
    expect(page.locator("#partner-error")).to_contain_text("The declarer held it, or it was in the stock")
    expect(page.locator("#partner")).to_be_visible()
    page.select_option("#called_king", "KH")
    page.select_option("#partner", "alone")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".flash")).to_contain_text("Hand saved")
    # Partner (1), 64 >= 60, Ben alone against three: +3, the others -1 (RK-5, RK-7).
    assert totals(page) == {"Ann": "−1", "Ben": "+3", "Cat": "−1", "Dan": "−1"}
    page.screenshot(path="/tmp/entry-a-rk-partner.png", full_page=True)


def test_rally_the_king_counted_cards_cost_fewer_taps(live_server, phone):
    page = phone().new_page()
    start(page, live_server, "Rally the King", RK)

    # Before: each count stepped with its + button.
    page.get_by_role("link", name="Enter hand 1", exact=True).click()
    before = Taps(page)
    before.choose("#bid", "solo")
    before.choose("#declarer", "Ben")
    for kind, n in TAKE.items():
        for _ in range(n):
            before.tap(f"#c_{kind} ~ [data-step='1']")
    expect(page.locator("[data-card-total]")).to_have_text("62 card points — target reached")
    before.tap("button.primary")
    expect(page.locator(".flash")).to_contain_text("Hand saved")
    assert totals(page) == {"Ann": "−4", "Ben": "+12", "Cat": "−4", "Dan": "−4"}

    # After: a number tapped beside each small count, the others typed.
    page.get_by_role("link", name="Enter hand 2", exact=True).click()
    after = Taps(page)
    after.choose("#bid", "solo")
    after.choose("#declarer", "Ben")
    for kind, n in TAKE.items():
        if kind == "others":
            after.type("#c_others", str(n))
        else:
            after.number(f"#c_{kind}", n)
            expect(page.locator(f"#c_{kind}")).to_have_value(str(n))
    expect(page.locator("[data-card-total]")).to_have_text("62 card points — target reached")
    page.screenshot(path="/tmp/entry-a-rk-counts.png", full_page=True)
    after.tap("button.primary")
    expect(page.locator(".flash")).to_contain_text("Hand saved")
    assert totals(page) == {"Ann": "−8", "Ben": "+24", "Cat": "−8", "Dan": "−8"}
    print(f"\nTAPS Rally the King, a hand counted by cards: before {before.n}, after {after.n}")
    assert after.n <= 15 < before.n


# ---------------------------------------------------------------------------------------
# Rummathon Royale

RR = ("Ann", "Ben", "Cat", "Dan")
LEFT = {1: {"low": 3, "high": 1}, 2: {"low": 2, "action": 1}, 3: {"sabotage": 1, "flex": 1}}


def test_rummathon_royale_a_burden_without_its_player_gets_a_real_message(live_server, phone):
    page = phone().new_page()
    start(page, live_server, "Rummathon Royale", RR)
    page.get_by_role("link", name="Enter hand 1", exact=True).click()
    page.locator("label.seg:has(input[name='out'][value='Ann'])").click()
    page.check("#burden1_double")  # a Double Burden on Ben, with nobody tapped as its player
    page.fill("#p2_extra", "30")  # a second problem, the form's own, shown in the same pass
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#burden1-error").first).to_have_text("say who played the Burden (RR-3)")
    expect(page.locator("#p2_extra-error")).to_be_visible()
    expect(page.locator("#burden1_double")).to_be_checked()
    text = page.locator("main").inner_text()
    assert "None" not in text and "true or false" not in text


def test_rummathon_royale_a_hand_costs_fewer_taps(live_server, phone):
    page = phone().new_page()
    start(page, live_server, "Rummathon Royale", RR)

    page.get_by_role("link", name="Enter hand 1", exact=True).click()
    before = Taps(page)
    before.tap("label.seg:has(input[name='out'][value='Ann'])")
    for i, counts in LEFT.items():
        for kind, n in counts.items():
            for _ in range(n):
                before.tap(f"#p{i}_{kind} ~ [data-step='1']")
    before.tap("button.primary")
    expect(page.locator(".flash")).to_contain_text("Hand saved")
    assert totals(page)["Ann"] == "95"

    page.get_by_role("link", name="Enter hand 2", exact=True).click()
    after = Taps(page)
    after.tap("label.seg:has(input[name='out'][value='Ann'])")
    for i, counts in LEFT.items():
        for kind, n in counts.items():
            after.number(f"#p{i}_{kind}", n)
    expect(page.locator("#sum-1")).to_have_text("Worth 25 points")
    page.screenshot(path="/tmp/entry-a-rr-hand.png", full_page=True)
    after.tap("button.primary")
    expect(page.locator(".flash")).to_contain_text("Hand saved")
    assert totals(page)["Ann"] == "190"
    print(f"\nTAPS Rummathon Royale, a hand: before {before.n}, after {after.n}")
    assert after.n <= 15


# ---------------------------------------------------------------------------------------
# Indian Rummy

IR = ("Ann", "Ben", "Cat", "Dan")
COUNTS = {1: "34", 2: "20", 3: "51"}


def pick_cards(page: Page, zone: str, cards: list[str], check: str | None = None) -> None:
    """Tap cards into a zone one after another (one tap a card), letting each live check swap in between."""
    for k, card in enumerate(cards, 1):
        page.click(f".picker [data-grid-card='{card}']")
        expect(page.locator(zone)).to_have_value(re.compile(r"^\s*" + r"\s+".join(cards[:k]) + r"\s*$"))
        if check:
            expect(page.locator(check)).to_contain_text(" ".join(cards[:k]), timeout=15_000)


def test_indian_rummy_the_picker_keeps_working_through_live_checks(live_server, phone):
    page = phone().new_page()
    start(page, live_server, "Indian Rummy", IR)
    page.get_by_role("link", name="Enter deal 1", exact=True).click()
    page.select_option("#wild", "7")
    page.select_option("#winner", "Ann")
    page.click("[data-pick='p0_groups']")
    pick_cards(page, "#p0_groups", ["AH", "2H", "3H"], check="#p0_groups-check")
    expect(page.locator("#p0_groups-check")).to_contain_text("pure sequence")
    page.click(".picker [data-separator]")
    done = []
    for card in ("QC", "QD", "QS"):  # the second group, each tap after the check of the one before
        page.click(f".picker [data-grid-card='{card}']")
        done.append(card)
        expect(page.locator("#p0_groups-check")).to_contain_text(" ".join(done), timeout=15_000)
    expect(page.locator("#p0_groups")).to_have_value("AH 2H 3H | QC QD QS")
    expect(page.locator("#p0_groups-check li.yes")).to_have_count(2, timeout=15_000)
    page.screenshot(path="/tmp/entry-a-ir-picker.png", full_page=True)


def test_indian_rummy_the_declaration_referee_picker_and_both_fields(live_server, phone):
    page = phone().new_page()
    page.goto(live_server + "/referee/indian-rummy/declaration")
    page.select_option("#wild", "7")
    page.click("[data-pick='groups']")
    pick_cards(page, "#groups", ["5S", "6S", "7S"], check="#groups-check")
    page.click("[data-picker-close]")
    hand = "4C 5C 6C 8D 9D 10D KS QD 2H 3S 5D 9C JC"
    page.fill("#cards", hand)
    page.get_by_role("button", name="Judge it").click()
    expect(page.locator("#cards-error")).to_contain_text("not both")
    expect(page.locator("#groups-error")).to_contain_text("not both")
    expect(page.locator("#cards")).to_have_value(hand)  # all 13 kept, in a box that wraps
    box = page.locator("#cards").bounding_box()
    assert box["height"] > 50  # two lines: the hand is not cut off at the edge
    page.screenshot(path="/tmp/entry-a-ir-referee.png", full_page=True)


def test_indian_rummy_a_deal_of_counts_costs_two_taps_and_one_a_player(live_server, phone):
    page = phone().new_page()
    start(page, live_server, "Indian Rummy", IR)

    # Before: each player's entry first switched to "Just their count".
    page.get_by_role("link", name="Enter deal 1", exact=True).click()
    before = Taps(page)
    before.choose("#winner", "Ann")
    for i, count in COUNTS.items():
        before.choose(f"#p{i}_mode", "count")
        before.type(f"#p{i}_count", count)
    before.tap("button.primary")
    expect(page.locator(".flash")).to_contain_text("Deal saved")
    assert totals(page)["Ann"] == "105"

    page.get_by_role("link", name="Enter deal 2", exact=True).click()
    after = Taps(page)
    after.choose("#winner", "Ann")
    for i, count in COUNTS.items():
        after.type(f"#p{i}_count", count)
    taps_without_keys = 2 + len(COUNTS)
    page.screenshot(path="/tmp/entry-a-ir-counts.png", full_page=True)
    after.tap("button.primary")
    expect(page.locator(".flash")).to_contain_text("Deal saved")
    assert totals(page)["Ann"] == "210"
    keys = sum(len(c) for c in COUNTS.values())
    print(f"\nTAPS Indian Rummy, a deal of counts: before {before.n}, after {after.n} "
          f"({taps_without_keys} taps + Save + {keys} keys typed)")
    assert after.n - keys - 1 == 2 + len(COUNTS)
