"""A phone asks for its table's board only while someone looks (the Page Visibility API): a hidden
page asks nothing and catches up the moment it is seen; a table nobody changes is asked less often,
and the first change seen brings it back to every 2 s. The viewer's clock is Playwright's, moved on
by the test, so minutes of an evening pass in seconds; each board request is counted in the page."""

from __future__ import annotations

from datetime import datetime

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_table_flow import THREE, enter_hand, start_table, total

pytestmark = pytest.mark.browser

#: Counts the board requests the page sends, and how many are still on their way.
COUNT_BOARD_ASKS = """
window.__asks = 0; window.__inflight = 0;
const send = window.fetch;
window.fetch = function (url) {
  const board = String(url).includes("/board");
  const answer = send.apply(this, arguments);
  if (board) {
    window.__asks += 1; window.__inflight += 1;
    const done = () => { window.__inflight -= 1; };
    answer.then(done, done);
  }
  return answer;
};
"""
STEP_MS = 500


def asks(page: Page) -> int:
    return page.evaluate("window.__asks")


def let_time_pass(page: Page, ms: int, step: int = STEP_MS) -> None:
    """Move the page's clock on by ``ms``, a step at a time, each step's board request answered before
    the next (the refresh sets its next timer only once its answer is in)."""
    for _ in range(ms // step):
        page.clock.run_for(step)
        page.wait_for_function("() => window.__inflight === 0")


def set_seen(page: Page, seen: bool) -> None:
    """What a browser does when its tab is hidden or the phone sleeps, and when it is seen again."""
    state = "visible" if seen else "hidden"
    page.evaluate("""state => {
        Object.defineProperty(document, "hidden", {configurable: true, get: () => state === "hidden"});
        Object.defineProperty(document, "visibilityState", {configurable: true, get: () => state});
        document.dispatchEvent(new Event("visibilitychange"));
    }""", state)


def test_a_hidden_page_asks_nothing_an_idle_table_is_asked_less_and_a_change_brings_it_back(live_server, phone):
    editor = phone().new_page()
    table = start_table(editor, live_server)

    viewer = phone().new_page()
    viewer.add_init_script(COUNT_BOARD_ASKS)
    viewer.clock.install(time=datetime(2026, 11, 27, 20, 0))
    viewer.goto(table["view"])
    # Paused a little ahead of the page's own clock (in seconds), however slowly the page loaded.
    viewer.clock.pause_at(viewer.evaluate("Date.now()") / 1000 + 5)
    viewer.wait_for_function("() => window.__asks >= 1 && window.__inflight === 0")

    # While play goes on: every 2 s.
    first = asks(viewer)
    let_time_pass(viewer, 20_000)
    assert 9 <= asks(viewer) - first <= 11

    # Hidden (the phone asleep in a pocket): ten minutes without a single request.
    set_seen(viewer, False)
    hidden = asks(viewer)
    viewer.clock.run_for(10 * 60_000)  # a request sent meanwhile would be counted at once
    assert asks(viewer) == hidden

    # A hand saved on another phone meanwhile is on the board the moment the page is seen again.
    enter_hand(editor, THREE, 1, out="Ann", left={"Ben": {"low": 3, "high": 1}, "Cat": {"flex": 1}})
    set_seen(viewer, True)
    viewer.wait_for_function(f"() => window.__asks === {hidden + 1}")
    expect(total(viewer, "Ann")).to_have_text("50")

    # Nothing changes for six minutes: the table is asked every 6 s, not every 2 s.
    let_time_pass(viewer, 6 * 60_000, step=1_000)
    quiet = asks(viewer)
    let_time_pass(viewer, 60_000)
    assert 8 <= asks(viewer) - quiet <= 11

    # A change at the quiet table is still seen within one slow refresh, and play is followed every 2 s again.
    enter_hand(editor, THREE, 2, out="Ben", left={"Ann": {"low": 2}, "Cat": {"low": 1}})
    let_time_pass(viewer, 6_500)
    expect(total(viewer, "Ben")).to_have_text("15")
    again = asks(viewer)
    let_time_pass(viewer, 20_000)
    assert 9 <= asks(viewer) - again <= 11
