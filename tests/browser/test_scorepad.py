"""The table page as the score pad, on phones: the grid of a finished game of each kind,
light and dark, at 390x844 and 360x740; rematch, rename, undo and redo, the history in the
phone's time, and the sheet download's feedback. Screenshots go to /tmp/scorepad/."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion import db as database
from companion import games, scorepad, tables
from tests.finished_games import all_finished

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/scorepad")
SIZES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}
FINISHED = all_finished()


def seat(tmp_path, request) -> tables.Table:
    """Store a table with its rounds straight in the live server's database."""
    conn = database.connect(str(tmp_path / "live.sqlite"))
    try:
        return tables.create_table(conn, request["game"], request["players"], request["options"],
                                   rounds=request["rounds"])
    finally:
        conn.conn.close()


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def no_sideways_scroll(page) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"


@pytest.mark.parametrize("kind", sorted(FINISHED))
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_grid_of_a_finished_game(live_server, chromium, tmp_path, kind, scheme, size):
    request = FINISHED[kind]
    table = seat(tmp_path, request)
    grid = scorepad.build(games.score(request), request["rounds"])
    context = chromium.new_context(viewport=SIZES[size], device_scale_factor=2, is_mobile=True, has_touch=True,
                                   color_scheme=scheme)
    try:
        page = context.new_page()
        errors = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{live_server}/t/{table.id}?key={table.edit_key}")
        pad = page.locator("table.pad")
        expect(pad).to_be_visible()
        rows = pad.locator("tbody tr[data-hand]")
        expect(rows).to_have_count(len(grid.rows))
        # Every cell is the engine's: the round's points and the running total under them.
        for i, row in enumerate(grid.rows):
            cells = rows.nth(i).locator("td")
            for j, cell in enumerate(row.cells):
                expect(cells.nth(j).locator(".pts")).to_have_text(cell.points_text)
                expect(cells.nth(j).locator(".run")).to_have_text(cell.total_text)
        # The winners are marked, and nobody is told how far they are from an end already reached.
        marked = pad.locator("tfoot .totals td.lead")
        expect(marked).to_have_count(sum(grid.leaders))
        expect(pad.locator("tfoot .distance")).to_have_count(0)
        expect(page.locator("#board")).not_to_contain_text("to pass")
        # The grid fits the phone: no sideways scroll of the page, nor of the grid itself.
        no_sideways_scroll(page)
        wrap = page.locator(".pad-wrap")
        assert wrap.evaluate("e => e.scrollWidth - e.clientWidth") <= 0
        # The chart of the running totals is on the page, as SVG drawn by the server.
        expect(page.locator(".chart-paper svg polyline")).to_have_count(len(grid.columns))
        shot(page, f"grid-{kind}-{scheme}-{size}")
        # Tapping a row opens that round's why, with its Edit and Delete, again and again.
        for n in (1, len(grid.rows), 1):
            rows.nth(n - 1).locator("td").first.click()
            expect(page.locator(f"#why-{n}")).to_have_attribute("open", "")
            expect(page.locator(f"#hand-{n}").get_by_role("link", name="Edit")).to_be_in_viewport()
        assert errors == [], errors
    finally:
        context.close()
