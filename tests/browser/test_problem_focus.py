"""A refused entry on a phone (390x844) puts the focus on the row of choices the problem is about, and the page's
status region reads the problem: a Home House not chosen (Alliance Royals), a poker hand with bets and no winner
(Rummy Royal). The row's first choice is in sight, its problem beside it.

Screenshots are saved to /tmp/entry2/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.test_messages_beside_fields import enter, open_table, save

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/entry2")

CASES = {
    "alliance-royals": (("Ann", "Ben", "Cat", "Dan"), [("p1_house", "H"), ("p2_house", "D"), ("p3_house", "C")],
                        "p0_house", "choose Ann's Home House at the end of the round (AR-3)"),
    "rummy-royal": (("Ann", "Ben", "Cat", "Dan"), [("out", "Ann"), ("p0_bet", "3"), ("p1_bet", "3")], "winners",
                    "name who won the poker hand (or give the cards and let the referee decide) (RM-5)"),
}


@pytest.mark.parametrize("game", sorted(CASES))
def test_the_focus_lands_on_the_row_and_its_problem_is_read(live_server, phone, game):
    players, fields, row, problem = CASES[game]
    page = phone().new_page()
    page.goto(open_table(page, live_server, game, players, {}))
    enter(page, fields)
    save(page)
    first = page.locator(f"#{row}-0")
    expect(first).to_be_focused()
    expect(first).to_have_attribute("aria-invalid", "true")
    expect(first).to_have_attribute("aria-describedby", f"{row}-error")
    expect(page.locator(f"#{row}-error")).to_have_text(problem)
    expect(page.locator(f"#{row}-error")).to_be_in_viewport()
    expect(page.locator("#announce")).to_contain_text(problem)
    # What a screen reader says on the focused choice: its own name, then the problem it is described by.
    said = first.evaluate("e => e.getAttribute('aria-describedby').split(' ')"
                          ".map(id => document.getElementById(id).textContent.trim()).join(' ')")
    assert said == problem
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{game}-focus.png"))
