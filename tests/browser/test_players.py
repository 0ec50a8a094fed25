"""A table's players on phones, light and dark, at 390x844 and 360x740: a name corrected
(several times in a row), a late player seated and their first hand entered, and the chart's
threshold lines. Screenshots go to /tmp/pad2/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.storage import tables
from tests.browser.test_scorepad import no_sideways_scroll
from tests.browser.test_scorepad import seat as stored
from tests.browser.test_table_flow import tap_choice

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/pad2")
SIZES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}
BOARD = {"house": "S", "spoils": [], "meld": [], "hand": []}


def seat(tmp_path, game, players, options, rounds) -> tables.Table:
    return stored(tmp_path, {"game": game, "players": players, "options": options, "rounds": rounds})


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def phone(chromium, size, scheme):
    context = chromium.new_context(viewport=SIZES[size], device_scale_factor=1, is_mobile=True, has_touch=True,
                                   color_scheme=scheme)
    context.set_default_timeout(30_000)
    return context


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_rename_tapped_through_changes_the_grid_and_the_history(live_server, chromium, tmp_path, scheme, size):
    hand = {"players": {"Ann": dict(BOARD, spoils=["AS", "10S"]), "Ben": dict(BOARD, house="H", hand=["2H"]),
                        "Cat": dict(BOARD, house="D", spoils=["AD"]), "Dan": dict(BOARD, house="C")}}
    table = seat(tmp_path, "alliance-royals", ["Ann", "Ben", "Cat", "Dan"], {}, [hand, hand, hand])
    context = phone(chromium, size, scheme)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{table.id}?key={table.edit_key}")
        # The chart: the Alliances and the game's bounds (AR-12).
        chart = page.locator(".chart-paper svg.chart")
        expect(chart).to_be_visible()
        expect(chart.locator("text", has_text="above 1066 wins")).to_have_count(1)
        expect(chart.locator("text", has_text="below −333 ends")).to_have_count(1)
        expect(page.locator(".chart-legend")).to_contain_text("Alliance B: Ben & Dan")
        shot(page, f"chart-alliance-{size}-{scheme}")
        for old, new in (("Ben", "Benedict"), ("Benedict", "Benny"), ("Benny", "Ben B")):  # several taps in a row
            page.get_by_role("link", name="Players").tap()
            box = page.locator("#p1-name")
            expect(box).to_have_value(old)
            box.fill(new)
            page.get_by_role("button", name=f"Rename {old}").tap()
            expect(page.locator(".pad thead")).to_contain_text(new)
        expect(page.locator(".pad thead")).not_to_contain_text("Benny")
        no_sideways_scroll(page)
        shot(page, f"renamed-{size}-{scheme}")
        # A bad name: its message beside the field.
        page.get_by_role("link", name="Players").tap()
        page.locator("#p2-name").fill("ann")
        page.get_by_role("button", name="Rename Cat").tap()
        expect(page.locator("#p2-name-error")).to_have_text(
            "Ann already sits at this table; give each player a different name.")
        no_sideways_scroll(page)
        shot(page, f"rename-error-{size}-{scheme}")
        page.get_by_role("link", name="← Back to the scores").tap()
        page.get_by_role("link", name="History").tap()
        history = page.locator("ol.history")
        expect(history).to_contain_text("Ben renamed Benedict")
        expect(history).to_contain_text("Benedict renamed Benny")
        expect(history).to_contain_text("Benny renamed Ben B")
        no_sideways_scroll(page)
        shot(page, f"rename-history-{size}-{scheme}")
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_late_player_is_seated_and_plays_the_next_hand(live_server, chromium, tmp_path, scheme, size):
    hand = {"out": "Ann", "left": {"Ben": {"low": 4}}}
    table = seat(tmp_path, "rummathon-royale", ["Ann", "Ben"], {}, [hand, {"out": "Ben", "left": {"Ann": {"high": 1}}}])
    context = phone(chromium, size, scheme)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{table.id}?key={table.edit_key}")
        page.get_by_role("link", name="Players").tap()
        expect(page.locator("#late")).to_contain_text("lowest score at the table")
        page.locator("#late-name").fill("Eve")
        page.get_by_role("button", name="Seat them from hand 3").tap()
        pad = page.locator("table.pad")
        expect(pad.locator("thead")).to_contain_text("Eve")
        expect(pad.locator("td.late")).to_have_count(2)  # hands 1 and 2: she was not there
        expect(pad.locator("tfoot .distance")).to_contain_text("joins at hand 3")
        page.get_by_role("link", name="Enter hand 3").tap()
        tap_choice(page, "out", "Eve")
        page.locator("input[name=p0_low]").fill("1")
        page.locator("input[name=p1_flex]").fill("1")
        page.get_by_role("button", name=re.compile("^Save")).first.tap()
        rows = pad.locator("tbody tr[data-hand]")
        expect(rows).to_have_count(3)
        # Eve starts with the lowest score, Ben's 10, and collects 5 + 25 (RR-1, RR-2).
        expect(rows.nth(2).locator("td").nth(2)).to_contain_text("40")
        expect(pad.locator("td.late")).to_have_count(2)
        no_sideways_scroll(page)
        shot(page, f"late-player-{size}-{scheme}")
        page.get_by_role("link", name="History").tap()
        expect(page.locator("ol.history")).to_contain_text("Eve seated late, playing from hand 3")
    finally:
        context.close()
