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

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.steps import TYPED_AND_BELOW, start

pytestmark = pytest.mark.browser

PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def start_table(page: Page, base: str) -> None:
    start(page, base, "Royalty", PLAYERS)


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
    build(page, "u0", "X")
    build(page, "u1", "QO", black="01")
    expect(page.locator("#u1")).to_have_value("Qb Ob")
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


class Taps:
    """Counts taps and typed letters, so the suite can print what an entry costs."""

    def __init__(self, page: Page):
        self.page, self.taps, self.keys = page, 0, 0

    def tap(self, target) -> None:
        (self.page.locator(target) if isinstance(target, str) else target).tap()
        self.taps += 1

    def choose(self, select: str, label: str) -> None:
        self.page.select_option(select, label=label)
        self.taps += 2  # open the list, tap the choice

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.keys += len(text)


def chips(page: Page, field: str):
    return page.locator(f"[data-word-builder]:has(#{field}) .chip")


def test_a_meld_costs_its_letters_and_three_taps_and_the_hint_is_on_screen(live_server, phone, capsys):
    """CALM with a black A (not a royalty, 16 points, doubled as the first play, RY-6: 32)."""
    page = phone().new_page()
    start_table(page, live_server)
    page.get_by_role("link", name="Enter turn 1", exact=True).click()
    expect(page.locator("[data-word-builder]:has(#meld) .builder-hint")).to_be_visible()
    expect(page.locator("[data-word-builder]:has(#meld) .builder-hint")).to_contain_text("tap one to make it black")
    taps = Taps(page)
    taps.tap("#meld-letters")
    taps.type("CALM")
    taps.tap(chips(page, "meld").nth(1))
    expect(page.locator("#meld")).to_have_value("Cr Ab Lr Mr")
    taps.tap(page.get_by_role("button", name="Save turn 1"))
    expect(page.locator(".flash")).to_contain_text("Turn saved")
    with capsys.disabled():
        print(f"\nRoyalty, a meld of CALM with one black letter: {taps.keys} letters + {taps.taps} taps "
              "(before: the same, 4 + 3)")
    assert taps.taps <= 3 and taps.keys == 4
    assert scores(page)["Ann"] == "32"


def test_inserting_a_letter_mid_word_keeps_every_letter_colour(live_server, phone):
    page = phone().new_page()
    start_table(page, live_server)
    page.get_by_role("link", name="Enter turn 1", exact=True).click()
    page.fill("#meld-letters", "BRD")
    for i in (0, 2, 2):  # B black; D black, then a Knave
        chips(page, "meld").nth(i).tap()
    expect(page.locator("#meld")).to_have_value("Bb Rr *Db")
    # Put the caret after B and type an E: the E takes its left neighbour's colour; the others keep theirs.
    page.locator("#meld-letters").evaluate("el => { el.focus(); el.setSelectionRange(1, 1); }")
    page.keyboard.type("E")
    expect(page.locator("#meld")).to_have_value("Bb Eb Rr *Db")
    page.locator("#meld-letters").evaluate("el => { el.focus(); el.setSelectionRange(3, 3); }")
    page.keyboard.type("A")
    expect(page.locator("#meld")).to_have_value("Bb Eb Rr Ar *Db")
    page.locator("#meld-letters").evaluate("el => { el.focus(); el.setSelectionRange(2, 2); }")
    page.keyboard.press("Backspace")  # BRAD, without the E
    expect(page.locator("#meld")).to_have_value("Bb Rr Ar *Db")
    for _ in range(3):  # taps keep working, tap after tap
        chips(page, "meld").nth(2).tap()
    expect(page.locator("#meld")).to_have_value("Bb Rr Ar *Db")


def test_a_capture_starts_from_the_words_own_cards_and_a_past_capture_can_be_corrected(live_server, phone, capsys):
    """Ann melds ZEBRA, all black (the first play, five letters one-coloured: 22 x 4 = 88, RY-6).
    Ben captures it as ZEBRAS with a black S: the six cards are 24 points (RY-7). Then Cat melds
    EAR. Correcting turn 2 offers ZEBRA, the word on the table before it, and saves."""
    page = phone().new_page()
    start_table(page, live_server)
    turn(page, 1, "Ann")
    build(page, "meld", "ZEBRA", black="01234")
    save(page, 1)

    page.get_by_role("link", name="Enter turn 2", exact=True).click()
    taps = Taps(page)
    taps.tap("label.choice:has(input[name='kind'][value='capture'])")
    taps.choose("#target", "ZEBRA (Ann)")
    expect(page.locator("#capture_cards")).to_have_value("Zb Eb Bb Rb Ab")  # its own cards, colours kept
    expect(page.locator("#capture_cards-letters")).to_have_value("ZEBRA")
    taps.tap("#capture_cards-letters")
    page.keyboard.press("End")
    taps.type("S")
    expect(page.locator("#capture_cards")).to_have_value("Zb Eb Bb Rb Ab Sb")
    expect(page.locator("[data-target-from] [data-judge]")).to_contain_text("adds S from hand")
    taps.tap(page.get_by_role("button", name="Save turn 2"))
    expect(page.locator(".flash")).to_contain_text("Turn saved")
    with capsys.disabled():
        print(f"\nRoyalty, capturing ZEBRA as ZEBRAS: {taps.keys} letter + {taps.taps} taps "
              "(before: 6 letters + 11 taps, the word retyped and its five black cards tapped again)")
    assert taps.keys == 1 and taps.taps <= 5
    assert scores(page)["Ben"] == "24"

    turn(page, 3, "Cat")
    build(page, "meld", "EAR")
    save(page, 3)

    page.locator("#hand-2 .hand-actions").get_by_role("link", name="Edit").click()
    expect(page.locator("h1")).to_have_text("Correct turn 2")
    expect(page.locator(".on-table-box")).to_contain_text("ZEBRA")
    expect(page.locator(".on-table-box")).not_to_contain_text("EAR ")
    expect(page.locator("#target")).to_have_value("Ann|ZEBRA")
    expect(page.locator("#capture_cards")).to_have_value("Zb Eb Bb Rb Ab Sb")
    page.locator("#capture_cards-letters").evaluate("el => { el.focus(); el.setSelectionRange(0, 0); }")
    page.keyboard.type("")  # nothing changed: the correction saves as it stands
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator(".flash")).to_contain_text("Turn corrected")
    assert scores(page)["Ben"] == "24"


def test_the_end_of_game_boxes_are_named_and_built_by_tapping(live_server, phone):
    """Dan went out; Ann holds X (8) and a Knave (0), Ben Q and O, black (10 + 2): Dan gains 20 and
    four cards (RY-11), the only Domain, the most: +20 (RY-12). Dan 40."""
    page = phone().new_page()
    start_table(page, live_server)
    page.get_by_role("link", name="Enter turn 1", exact=True).click()
    page.locator("input[name='kind'][value='end']").check()
    for name in PLAYERS:
        expect(page.get_by_role("textbox", name=f"{name}'s cards left in hand", exact=True)).to_be_visible()
    page.select_option("#went_out", "Dan")
    page.locator("#u0-letters").tap()
    page.keyboard.type("X*")
    expect(page.locator("#u0")).to_have_value("Xr *")
    page.locator("#u1-letters").tap()
    page.keyboard.type("QO")
    for i in (0, 1, 1, 1):  # Q black; O black, red, black: the chips keep answering
        chips(page, "u1").nth(i).tap()
    expect(page.locator("#u1")).to_have_value("Qb Ob")
    page.screenshot(path=_shot("royalty-end.png"))
    page.get_by_role("button", name="Save turn 1").click()
    expect(page.locator("#board .result")).to_contain_text("Winner: Dan")
    assert scores(page)["Dan"] == "40"


def test_the_word_judge_opened_from_a_table_uses_its_house_words(live_server, phone):
    page = phone().new_page()
    page.goto(live_server + "/new/royalty")
    for seat, name in enumerate(("Ann", "Ben"), 1):
        page.fill(f"#seat{seat}", name)
    page.fill("#opt-house_allow", "za")
    page.get_by_role("button", name="Start the table").click()
    page.get_by_role("link", name="Enter turn 1", exact=True).click()
    with page.context.expect_page() as opened:
        page.get_by_role("link", name="Word judge").click()
    judge = opened.value
    expect(judge.locator("[data-table-words]")).to_contain_text("house words allowed: ZA")
    judge.fill("#word", "za")
    judge.get_by_role("button", name="Judge").click()
    expect(judge.locator(".verdict .yesno")).to_have_text("Yes")
    judge.get_by_role("link", name="Monarchy checker").click()
    expect(judge.locator("[data-table-words]")).to_be_visible()
    deal = "Qb Xb Zb Kb Jb Vb Wb Fb Hb " + " ".join(["Cr Ar Lr Mr"] * 4)
    judge.fill("#dealt", deal)
    judge.fill("#words", "Qb Xb Zb Kb\nJb Vb Wb Fb Hb\n" + "Cr Ar Lr Mr\n" * 4)
    judge.get_by_role("button", name="Check").click()
    expect(judge.locator(".verdict")).to_contain_text("QXZK is not in")
    expect(judge.locator(".verdict")).not_to_contain_text("Solved")
    judge.screenshot(path=_shot("royalty-monarchy.png"), full_page=True)


def _shot(name: str) -> str:
    import os
    import tempfile
    folder = os.path.join(tempfile.gettempdir(), "courtier-shots")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, name)


def test_the_word_builder_keeps_working_after_a_refused_turn(live_server, phone):
    """A refused turn comes back through htmx with the input kept; the builder answers tap after tap."""
    page = phone().new_page()
    start_table(page, live_server)
    page.get_by_role("link", name="Enter turn 1", exact=True).click()
    build(page, "meld", "CQ")
    page.fill("#meld-letters", "")  # an empty meld: refused, beside the word
    page.get_by_role("button", name="Save turn 1").click()
    expect(page.locator("#meld-error")).to_be_visible()
    build(page, "meld", "CALM", black="1111")  # A: black, Knave, red, black
    expect(page.locator("#meld")).to_have_value("Cr Ab Lr Mr")
    expect(page.locator("[data-word-builder]:has(#meld) [data-judge]")).to_contain_text("Yes")
    page.get_by_role("button", name="Save turn 1").click()
    expect(page.locator(".flash")).to_contain_text("Turn saved")


#: The meld's letters typed, and the field after the word (the judge is asked a quarter of a second after the last
#: letter: steps.TYPED_AND_BELOW measures before any answer can land).
TYPED, BELOW = "#meld-letters", "#challenge_by"


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 360, "height": 740}],
                         ids=["390x844", "360x740"])
def test_the_judges_answer_lands_in_its_own_room_and_moves_no_field_below(live_server, phone, size):
    """From the second letter the verdict's room is kept, so the answer that lands a moment later (RY-17) does
    not move the fields after the word, where the player's next tap may already be on its way; a word cut
    back to one letter gives the room back."""
    page = phone(viewport=size).new_page()
    start_table(page, live_server)
    page.get_by_role("link", name="Enter turn 1", exact=True).click()
    expect(page.locator("#meld-letters")).to_be_visible()  # the builder drawn by forms.js
    judge = page.locator("[data-word-builder]:has(#meld) [data-judge]")
    below = page.locator("#challenge_by")
    for language in ("English", "Français"):  # the French verdict takes a line more
        if language != "English":
            page.get_by_role("button", name=language).click()
            expect(page.locator("html")).to_have_attribute("lang", "fr")
            expect(page.locator("#meld-letters")).to_be_visible()
        for word in ("OX", "ZEBRA", "QZXV"):
            page.evaluate(TYPED_AND_BELOW, [TYPED, BELOW, ""])  # a new word from nothing, not the last one's verdict
            expect(judge).to_be_empty()
            before = page.evaluate(TYPED_AND_BELOW, [TYPED, BELOW, word])
            expect(judge).to_contain_text(word)
            box = below.bounding_box()
            assert box["y"] + page.evaluate("window.scrollY") == pytest.approx(before, abs=1), (language, word)
    page.evaluate(TYPED_AND_BELOW, [TYPED, BELOW, "Q"])
    expect(judge).to_be_empty()
    expect(judge).not_to_have_class(re.compile(r"\bjudging\b"))
