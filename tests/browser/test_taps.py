"""Taps per hand, as a new player makes them, on a 390x844 and a 360x740 phone: each count is
printed with the count before this change and fails above its target.

How taps are counted (the rule of tests/browser/test_entry_flows.py): a press on the screen is a
tap: a button, a choice in a row of choices, a card, a number beside a count. A dropdown is two
(open it, choose). Typing is one tap to put the cursor in the box, plus one per character.

The counts before were measured with the same flows on the forms of main at 70a4a60 (dropdowns,
typed numbers, a rank and a suit for each card):

  Rummathon Royale, a hand with a Burden  21  (target 12)
  Rummy Royal, deal 1 below               22  (target 14)
  Indian Rummy, 13 cards in the picker    27  (target 15)
  Alliance Royals, a board with a Hostage 16  (target 12)

Worked by hand:
  Rummathon Royale (RR-1..RR-3, RR-5), Ann, Ben, Cat, Dan. Ann goes out (completes her round);
    Ben completes his; Cat declared Rummathon Royale and failed; Dan completes his, and the
    Burden Cat played on him (Dan +50). Left: Ben 3 low + 1 high = 25, Cat 2 low + 1 action =
    25, Dan 1 Sabotage + 1 Flex = 45: Ann 95. Totals Ann 95, Ben 0, Cat 0, Dan 50.
  Rummy Royal, deal 1 of tests/browser/test_rummy_royal.py: Ann 10H, Cat QH and KH (the
    Marriage), Ben AH, Dan the Sequence; bets Ann 2, Ben 5, Cat 5, Dan folds, Ben wins; Cat
    goes out, 4 + 2 + 7 cards left. Ann 89, Ben 104, Cat 115, Dan 88.
  Indian Rummy, points (IR-6, IR-8), 7s wild (Ben has none): Ben's 13 cards 4C 5C 6C 8D 9D
    10D KS QD 2H 3S 5D 9C JC: two pure sequences, so only the seven loose cards count: 10+10+2+3+5+9+10 = 49. Cat 20,
    Dan 30: Ann +99.
  Alliance Royals (AR-4..AR-10): Ann (Spades) Spoils KS QS JS QD, Meld 2S 2H: 20 + 20 = 40;
    one Royal set, one marriage (KS + QD). Cat (Diamonds) Spoils KS QD: 10, her marriage
    (QD + KS). Ann's QD is a Hostage against Cat (AR-9): Cat's marriage no longer counts. Ann
    40 x (1 + 1 + 1) = 120, Cat 10 x (1 + 1) = 20: Alliance A 140.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.steps import stacks, start, totals

pytestmark = pytest.mark.browser

PLAYERS = ("Ann", "Ben", "Cat", "Dan")
PHONES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}
SHOTS = Path(os.environ.get("COURTIER_SHOTS") or "/tmp/courtier-taps")


class Taps:
    """Plays a flow on the page and counts its taps (the rule in the docstring above)."""

    def __init__(self, page: Page):
        self.page, self.n = page, 0

    def tap(self, target) -> None:
        locator = self.page.locator(target) if isinstance(target, str) else target
        locator.tap()
        self.n += 1

    def choice(self, name: str, value: str) -> None:
        """A choice in a row of choices: its button (the label drawn around the radio)."""
        self.tap(f"label.seg:has(input[name='{name}'][value='{value}'])")
        expect(self.page.locator(f"input[name='{name}'][value='{value}']")).to_be_checked()

    def number(self, box: str, n: int) -> None:
        """The number ``n`` tapped beside the count box ``box``."""
        field = self.page.locator(".field.count", has=self.page.locator(box))
        self.tap(field.locator(f"[data-set-count='{n}']"))
        expect(self.page.locator(box)).to_have_value(str(n))

    def type(self, selector: str, text: str) -> None:
        self.page.fill(selector, text)
        self.n += 1 + len(text)


@pytest.fixture(params=sorted(PHONES))
def screen(request, phone):
    """A fresh phone page at each of the two sizes."""
    page = phone().new_page()
    page.set_viewport_size(PHONES[request.param])
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield request.param, page
    assert [e for e in errors if "status of 422" not in e] == []


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def report(capsys, game: str, before: int, after: int, target: int) -> None:
    with capsys.disabled():
        print(f"\nTAPS {game}: before {before}, after {after} (target {target})")
    assert after <= target, f"{game}: {after} taps, above the target of {target}"


def no_overflow(page: Page) -> None:
    """Nothing wider than the phone, and every button of a row of choices at least 44 px tall."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    small = page.evaluate("""() => [...document.querySelectorAll('form.entry label.seg')]
        .filter(l => l.checkVisibility()).map(l => l.getBoundingClientRect())
        .filter(r => r.height < 44 || r.width < 44).length""")
    assert small == 0


# ---------------------------------------------------------------------------------------
# Rummathon Royale


def test_rummathon_royale_a_hand_with_a_burden_in_a_dozen_taps(live_server, screen, capsys):
    size, page = screen
    start(page, live_server, "Rummathon Royale", PLAYERS)
    page.get_by_role("link", name="Enter hand 1", exact=True).click()

    # Several taps in a row keep working: whoever went out has completed the round (RR-2), and
    # tapping someone else takes it back.
    taps = Taps(page)
    for name in ("Ben", "Cat", "Ann", "Dan", "Ann"):
        taps.choice("out", name)
        seat = PLAYERS.index(name)
        expect(page.locator(f"input[name='p{seat}_progress'][value='completed']")).to_be_checked()
        for other in set(range(4)) - {seat}:
            expect(page.locator(f"input[name='p{other}_progress'][value='failed']")).to_be_checked()
    taps.choice("burden3", "0:failed")
    taps.choice("burden3", "")
    taps.choice("burden3", "1:completed")
    taps.choice("burden3", "")

    taps = Taps(page)
    taps.choice("out", "Ann")
    taps.choice("p1_progress", "completed")
    taps.choice("p2_progress", "declared-failed")
    taps.choice("p3_progress", "completed")
    taps.choice("burden3", "2:completed")  # Cat's Burden on Dan, completed
    for seat, counts in {1: {"low": 3, "high": 1}, 2: {"low": 2, "action": 1}, 3: {"sabotage": 1, "flex": 1}}.items():
        for kind, n in counts.items():
            taps.number(f"#p{seat}_{kind}", n)
    expect(page.locator("#sum-3")).to_have_text("Worth 45 points")
    no_overflow(page)
    shot(page, f"rummathon-royale-{size}.png")
    taps.tap("button.primary")
    expect(page.locator(".flash")).to_contain_text("Hand saved")
    assert totals(page) == {"Ann": "95", "Ben": "0", "Cat": "0", "Dan": "50"}
    report(capsys, f"Rummathon Royale, a hand with a Burden ({size})", 21, taps.n, 12)

    # Corrected, the hand comes back with every tap where it was.
    page.goto(page.url.split("#")[0])
    page.locator("#board .hand-actions a", has_text=re.compile("Correct|Edit")).first.click()
    for name, value in (("out", "Ann"), ("p1_progress", "completed"), ("p2_progress", "declared-failed"),
                        ("p3_progress", "completed"), ("burden3", "2:completed"), ("burden0", "")):
        expect(page.locator(f"input[name='{name}'][value='{value}']")).to_be_checked()


# ---------------------------------------------------------------------------------------
# Rummy Royal


def holder(taps: Taps, field: str, name: str) -> None:
    taps.tap(taps.page.locator(f"#{field} label.seg", has_text=name))


def test_rummy_royal_a_deal_in_fourteen_taps(live_server, screen, capsys):
    size, page = screen
    start(page, live_server, "Rummy Royal", PLAYERS)
    page.get_by_role("link", name="Enter deal 1", exact=True).click()

    # The Marriage row and the K♥ and Q♥ rows keep each other right, tap after tap (RM-4): the Marriage
    # ticks both cards and a second tap takes back what it ticked; both cards tick the Marriage; a card
    # unticked takes the Marriage with it and keeps the other card.
    taps = Taps(page)
    married = page.locator("input[name='marriage'][value='Cat']")
    king, queen = (page.locator(f"input[name='{row}'][value='Cat']") for row in ("pay_KH", "pay_QH"))
    for _ in range(2):
        holder(taps, "marriage", "Cat")
        expect(king).to_be_checked()
        expect(queen).to_be_checked()
        holder(taps, "marriage", "Cat")
        expect(king).not_to_be_checked()
        expect(queen).not_to_be_checked()
        holder(taps, "pay_KH", "Cat")
        holder(taps, "pay_QH", "Cat")
        expect(married).to_be_checked()
        holder(taps, "pay_KH", "Cat")
        expect(married).not_to_be_checked()
        expect(queen).to_be_checked()
        holder(taps, "pay_QH", "Cat")
        expect(queen).not_to_be_checked()
    for name in ("Ann", "Ben", "Dan", "Cat"):  # went out: one player at a time
        holder(taps, "out", name)
    expect(page.locator("#out input:checked")).to_have_count(1)
    for n in (3, 0, 5):
        taps.number("#p0_bet", n)

    taps = Taps(page)
    holder(taps, "pay_10H", "Ann")
    holder(taps, "marriage", "Cat")  # Q♥ and K♥ in one tap
    holder(taps, "pay_AH", "Ben")
    holder(taps, "sequence", "Dan")
    taps.number("#p0_bet", 2)
    taps.number("#p1_bet", 5)
    taps.number("#p2_bet", 5)
    taps.tap("label.seg:has(#p3_fold)")
    holder(taps, "winners", "Ben")
    holder(taps, "out", "Cat")
    taps.number("#p0_left", 4)
    taps.number("#p1_left", 2)
    taps.number("#p3_left", 7)
    no_overflow(page)
    shot(page, f"rummy-royal-{size}.png")
    taps.tap("button.primary")
    expect(page.locator(".flash")).to_contain_text("Deal saved")
    assert stacks(page) == {"Ann": "89", "Ben": "104", "Cat": "115", "Dan": "88"}
    page.locator("#why-1 summary").click()
    expect(page.locator("#why-1")).to_contain_text("Cat holds KH and QH: takes the Marriage, 4 chips (RM-4)")
    report(capsys, f"Rummy Royal, a deal ({size})", 22, taps.n, 14)


# ---------------------------------------------------------------------------------------
# Indian Rummy: the card picker

BEN = ["4C", "5C", "6C", "8D", "9D", "10D", "KS", "QD", "2H", "3S", "5D", "9C", "JC"]


def test_indian_rummy_thirteen_cards_in_fourteen_taps_counted_against_thirteen(live_server, screen, capsys):
    size, page = screen
    start(page, live_server, "Indian Rummy", PLAYERS)
    page.get_by_role("link", name="Enter deal 1", exact=True).click()
    page.select_option("#wild", "7")
    page.select_option("#winner", "Ann")
    page.select_option("#p1_mode", "cards")
    count = page.locator(".picker [data-hand-count]")

    taps = Taps(page)
    taps.tap("[data-pick='p1_cards']")
    expect(count).to_have_text("Ben: 0 of 13 cards")
    for k, card in enumerate(BEN, 1):
        taps.tap(f".picker [data-grid-card='{card}']")
        expect(page.locator("#p1_cards")).to_have_value(" ".join(BEN[:k]))
        expect(count).to_have_text("Ben: 13 cards chosen." if k == 13 else f"Ben: {k} of 13 cards")
    report(capsys, f"Indian Rummy, 13 cards in the picker ({size})", 27, taps.n, 15)
    shot(page, f"indian-rummy-picker-{size}.png")

    # A 14th card is refused in words; one taken back, another goes in; tap after tap.
    page.locator(".picker [data-grid-card='AS']").tap()
    expect(count).to_have_text("Ben has 13 cards already: take one back with ⌫ before adding another.")
    expect(page.locator("#p1_cards")).to_have_value(" ".join(BEN))
    page.locator(".picker [data-picker-undo]").tap()
    expect(count).to_have_text("Ben: 12 of 13 cards")
    page.locator(".picker [data-grid-card='JK']").tap()  # a printed Joker: two decks, two Jokers (IR-1)
    expect(count).to_have_text("Ben: 13 cards chosen.")
    expect(page.locator(".picker [data-grid-card='JK'] [data-left]")).to_have_text("1")
    page.locator(".picker [data-picker-undo]").tap()
    page.locator(".picker [data-grid-card='JC']").tap()
    expect(page.locator("#p1_cards")).to_have_value(" ".join(BEN))
    # Two decks: two of each card; the second 4C is the last (IR-1).
    expect(page.locator(".picker [data-grid-card='4C'] [data-left]")).to_have_text("1")
    page.locator("[data-picker-close]").tap()
    no_overflow(page)

    page.fill("#p2_count", "20")
    page.fill("#p3_count", "30")
    page.get_by_role("button", name="Save deal 1").click()
    expect(page.locator(".flash")).to_contain_text("Deal saved")
    assert totals(page)["Ann"] == "99"


def test_indian_rummy_groups_through_the_grid_with_their_live_checks(live_server, screen):
    """The groups of a declaration, one tap a card, with | between groups and the live check of
    each group after every tap (IR-4); the count goes across the groups and the loose cards."""
    size, page = screen
    start(page, live_server, "Indian Rummy", PLAYERS)
    page.get_by_role("link", name="Enter deal 1", exact=True).click()
    page.select_option("#wild", "7")
    page.select_option("#winner", "Ann")
    page.click("[data-pick='p0_groups']")
    for card in ("AH", "2H", "3H"):
        page.locator(f".picker [data-grid-card='{card}']").tap()
        expect(page.locator("#p0_groups-check")).to_contain_text(card, timeout=15_000)
    page.locator(".picker [data-separator]").tap()
    for card in ("QC", "QD", "QS"):
        page.locator(f".picker [data-grid-card='{card}']").tap()
    expect(page.locator("#p0_groups")).to_have_value("AH 2H 3H | QC QD QS")
    expect(page.locator("#p0_groups-check li.yes")).to_have_count(2, timeout=15_000)
    expect(page.locator(".picker [data-hand-count]")).to_have_text("Ann: 6 of 13 cards")
    # the Loose cards tab, for Ben in groups mode (the winner has none): they count with his groups
    page.select_option("#p1_mode", "groups")
    page.click("[data-pick='p1_groups']")
    for card in ("5S", "6S", "7S"):
        page.locator(f".picker [data-grid-card='{card}']").tap()
    page.locator(".picker [data-zone-tab='p1_loose']").tap()
    for card in ("KD", "2C"):
        page.locator(f".picker [data-grid-card='{card}']").tap()
    expect(page.locator("#p1_loose")).to_have_value("KD 2C")
    expect(page.locator(".picker [data-hand-count]")).to_have_text("Ben: 5 of 13 cards")
    shot(page, f"indian-rummy-groups-{size}.png")


# ---------------------------------------------------------------------------------------
# Alliance Royals: a board with a Hostage


def test_alliance_royals_a_board_with_a_hostage_in_a_dozen_taps(live_server, screen, capsys):
    size, page = screen
    from tests.browser.test_alliance_royals import start_table
    start_table(page, live_server)
    page.get_by_role("link", name="Enter round 1", exact=True).click()
    for seat, house in ((1, "H"), (2, "D"), (3, "C")):  # the other boards, not counted
        page.locator(f"label.seg:has(input[name='p{seat}_house'][value='{house}'])").tap()
    page.fill("#p2_spoils", "KS QD")
    picks = page.locator("fieldset[data-player='Ann'] [data-hostage-picks]")
    expect(picks).to_be_hidden()

    taps = Taps(page)
    taps.choice("p0_house", "S")
    taps.tap("[data-pick='p0_spoils']")
    for card in ("KS", "QS", "JS", "QD"):
        taps.tap(f".picker [data-grid-card='{card}']")
    taps.tap(".picker [data-zone-tab='p0_meld']")
    for card in ("2S", "2H"):
        taps.tap(f".picker [data-grid-card='{card}']")
    # Q♦ is a Queen of another House in Ann's Spoils: offered as a Hostage (AR-9); K♠ and Q♠ are hers.
    expect(picks.locator("[data-hostage-card]")).to_have_count(1)
    taps.tap(picks.locator("[data-hostage-card='QD']"))
    expect(page.locator("#p0_h0_card")).to_have_value("QD")
    expect(page.locator("#p0_h0_target label.seg", has_text="Ann")).to_have_count(0)  # not against herself
    taps.choice("p0_h0_target", "Cat")
    no_overflow(page)
    shot(page, f"alliance-royals-hostage-{size}.png")
    taps.tap("button.primary")
    expect(page.locator(".flash")).to_contain_text("Round saved")
    expect(page.locator("#board .alliances tbody tr").nth(0)).to_contain_text("140")
    report(capsys, f"Alliance Royals, a board with a Hostage ({size})", 16, taps.n, 12)

    # Corrected: the Hostage comes back; a tap takes it back, another puts it in again.
    page.get_by_role("link", name="Edit", exact=True).first.click()
    expect(page.locator("#p0_h0_card")).to_have_value("QD")
    expect(page.locator("input[name='p0_h0_target'][value='Cat']")).to_be_checked()
    chip = page.locator("fieldset[data-player='Ann'] [data-hostage-card='QD']")
    expect(chip).to_have_attribute("aria-pressed", "true")
    for _ in range(2):
        chip.tap()
        expect(page.locator("#p0_h0_card")).to_have_value("")
        expect(page.locator("input[name='p0_h0_target'][value='']")).to_be_checked()
        chip.tap()
        expect(page.locator("#p0_h0_card")).to_have_value("QD")
    page.locator("label.seg:has(input[name='p0_h0_target'][value='Cat'])").tap()
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator(".flash")).to_contain_text("Round corrected")
    expect(page.locator("#board .alliances tbody tr").nth(0)).to_contain_text("140")


# ---------------------------------------------------------------------------------------
# Without JavaScript, and by keyboard: the rows of choices are real radio inputs


def test_the_rows_of_choices_work_without_javascript(live_server, chromium):
    """Rummathon Royale and Rummy Royal entered with JavaScript off: every row of choices is a
    radio (or a checkbox) inside its label, so a tap on the drawn button chooses it; the Marriage
    row stands for K♥ and Q♥ on the server too (RM-4)."""
    context = chromium.new_context(viewport=PHONES["360x740"], java_script_enabled=False)
    page = context.new_page()
    try:
        start(page, live_server, "Rummathon Royale", PLAYERS)
        page.get_by_role("link", name="Enter hand 1", exact=True).click()
        for name, value in (("out", "Ben"), ("out", "Ann"), ("p0_progress", "completed"), ("p1_progress", "completed"),
                            ("p2_progress", "declared-failed"), ("p3_progress", "completed"),
                            ("burden3", "1:failed"), ("burden3", "2:completed")):
            page.locator(f"label.seg:has(input[name='{name}'][value='{value}'])").click()
        for box, n in (("#p1_low", "3"), ("#p1_high", "1"), ("#p2_low", "2"), ("#p2_action", "1"),
                       ("#p3_sabotage", "1"), ("#p3_flex", "1")):
            page.fill(box, n)
        page.get_by_role("button", name="Save hand 1").click()
        expect(page.locator(".flash")).to_contain_text("Hand saved")
        assert totals(page) == {"Ann": "95", "Ben": "0", "Cat": "0", "Dan": "50"}

        start(page, live_server, "Rummy Royal", PLAYERS)
        page.get_by_role("link", name="Enter deal 1", exact=True).click()
        for row, who in (("pay_10H", "Ann"), ("marriage", "Cat"), ("pay_AH", "Ben"), ("sequence", "Dan"),
                         ("winners", "Ben"), ("out", "Cat")):
            page.locator(f"#{row} label.seg", has_text=who).click()
        page.locator("label.seg:has(#p3_fold)").click()
        for box, n in (("#p0_bet", "2"), ("#p1_bet", "5"), ("#p2_bet", "5"), ("#p0_left", "4"), ("#p1_left", "2"),
                       ("#p3_left", "7")):
            page.fill(box, n)
        page.get_by_role("button", name="Save deal 1").click()
        expect(page.locator(".flash")).to_contain_text("Deal saved")
        assert stacks(page) == {"Ann": "89", "Ben": "104", "Cat": "115", "Dan": "88"}
    finally:
        context.close()


def test_the_rows_of_choices_by_keyboard(live_server, screen):
    """Arrow keys move along a row of choices, as in any radio group; Tab leaves it; the focused
    button shows a ring."""
    size, page = screen
    start(page, live_server, "Rummathon Royale", PLAYERS)
    page.get_by_role("link", name="Enter hand 1", exact=True).click()
    page.locator("input[name='out'][value='Ann']").focus()
    page.keyboard.press("Space")
    expect(page.locator("input[name='out'][value='Ann']")).to_be_checked()
    for name in ("Ben", "Cat"):
        page.keyboard.press("ArrowRight")
        expect(page.locator(f"input[name='out'][value='{name}']")).to_be_checked()
    expect(page.locator("input[name='p2_progress'][value='completed']")).to_be_checked()  # RR-2, as by a tap
    ring = page.locator("label.seg:has(input[name='out'][value='Cat'])").evaluate(
        "l => getComputedStyle(l).outlineStyle")
    assert ring == "solid"
    # every choice has a name a screen reader reads, in a group named by its legend
    dan = page.get_by_role("group", name="Dan's round (RR-5)")
    expect(dan.get_by_role("radio", name="Completed the round")).to_have_count(1)
    burden = page.get_by_role("group", name="Burden on Dan (RR-3)")
    expect(burden.get_by_role("radio", name="Cat's Burden, completed")).to_have_count(1)
