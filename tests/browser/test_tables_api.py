"""A program and the phones at one table: a round a program adds over the API appears on an open phone's
board at its next refresh, without a reload, and a phone whose form was opened before it gets the
ordinary conflict page when it saves, its entry kept. Debian's Chromium at phone sizes, the live app
(CSRF on). Numbers by hand from RR-1 and RR-2: 1-9 are 5, 10-12 are 10, action 15, sabotage 20, flex 25."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.test_table_flow import THREE, chosen, expect_totals, fill_hand, open_hand_form, posting, total

pytestmark = pytest.mark.browser

SIZES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}


def call(base: str, method: str, path: str, body=None, key: str | None = None) -> tuple[int, dict]:
    """One API call, as a program on another machine makes it."""
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, method=method, data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - the test's own loopback server
        return response.status, json.loads(response.read())


@pytest.mark.parametrize("size", SIZES)
def test_a_round_from_the_api_reaches_the_board_and_a_stale_phone_gets_the_conflict_page(live_server, phone,
                                                                                         tmp_path, size):
    status, table = call(live_server, "POST", "/api/v1/tables",
                         {"game": "rummathon-royale", "players": list(THREE), "title": "Club room TV"})
    assert status == 201

    board = phone().new_page()
    board.set_viewport_size(SIZES[size])
    board.goto(table["links"]["view"])
    expect(board.locator(".mode")).to_have_text("View only: this link shows the scores.")
    expect_totals(board, {"Ann": 0, "Ben": 0, "Cat": 0})
    board.evaluate("window.__sameDocument = true")  # a reload or a navigation would lose the mark
    navigations = []
    board.on("framenavigated", lambda frame: navigations.append(frame.url))

    scorer = phone().new_page()
    scorer.set_viewport_size(SIZES[size])
    scorer.goto(table["links"]["edit"])
    open_hand_form(scorer, 1)
    # The scorer types Ben out: Ann 2 x 15 = 30, Cat 1 x 20 = 20, so Ben would collect 50.
    fill_hand(scorer, THREE, out="Ben", left={"Ann": {"action": 2}, "Cat": {"sabotage": 1}})

    # Meanwhile a program adds hand 1: Ben 3 x 5 + 1 x 10 = 25, Cat 1 x 25 = 25, so Ann collects 50.
    status, added = call(live_server, "POST", f"/api/v1/tables/{table['id']}/rounds",
                         {"round": {"out": "Ann", "left": {"Ben": {"low": 3, "high": 1}, "Cat": {"flex": 1}}},
                          "base_version": 0}, key=table["edit_key"])
    sent = time.monotonic()
    assert status == 201 and added["scored"]["totals"] == {"Ann": 50, "Ben": 0, "Cat": 0}

    expect(total(board, "Ann")).to_have_text("50")
    shown_after = time.monotonic() - sent
    expect(board.locator("#hand-1 h3")).to_have_text("Hand 1 · Ann went out")
    expect_totals(board, {"Ben": 0, "Cat": 0})
    assert board.evaluate("window.__sameDocument") is True and navigations == []
    print(f"\n{size}: the program's hand was on the board {shown_after:.1f} s after its answer (refresh: 3 s)")
    board.screenshot(path=str(tmp_path / f"board-{size}.png"), full_page=True)

    with posting(scorer) as response:
        scorer.get_by_role("button", name="Save hand 1", exact=True).click()
    assert response.value.status == 409
    expect(scorer.locator("div.errors")).to_contain_text("Another phone changed this table")
    # The scorer's entry is all still there, and the board under it holds the program's hand.
    expect(chosen(scorer, "out")).to_have_value("Ben")
    expect(scorer.locator("#p0_action")).to_have_value("2")
    expect(scorer.locator("#p2_sabotage")).to_have_value("1")
    expect(scorer.locator("h1")).to_have_text("Enter hand 2")
    expect_totals(scorer, {"Ann": 50, "Ben": 0, "Cat": 0})
    scorer.screenshot(path=str(tmp_path / f"conflict-{size}.png"), full_page=True)

    # Saved again as hand 2, it counts after the program's: Ben collects 50 (RR-1, RR-2).
    scorer.get_by_role("button", name="Save hand 2", exact=True).click()
    expect(scorer.locator(".flash")).to_contain_text("Hand saved.")
    expect_totals(scorer, {"Ann": 50, "Ben": 50, "Cat": 0})
    status, now = call(live_server, "GET", f"/api/v1/tables/{table['id']}", key=table["view_key"])
    assert now["version"] == 2 and now["scored"]["totals"] == {"Ann": 50, "Ben": 50, "Cat": 0}

    scorer.get_by_role("link", name="History").click()
    entries = scorer.locator("ol.history > li")
    expect(entries).to_have_count(2)
    expect(entries.nth(1)).to_contain_text("Hand 1 entered: Ann went out")
    expect(entries.nth(1)).to_contain_text("API")
