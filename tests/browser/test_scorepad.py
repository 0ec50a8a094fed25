"""The table page as the score pad, on phones: the grid of a finished game of each kind,
light and dark, at 390x844 and 360x740; rematch, rename, undo and redo, the history in the
phone's time, and the sheet download's feedback. Screenshots go to /tmp/scorepad/."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion import games
from companion.paper import scorepad
from companion.storage import db as database
from companion.storage import tables
from tests.finished_games import all_finished

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/scorepad")
SIZES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}
#: Each phone size in one colour scheme and each scheme at one size: both sizes and both schemes are
#: seen, at half the runs of every pairing.
LOOKS = [("360x740", "light"), ("390x844", "dark")]
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
@pytest.mark.parametrize(("size", "scheme"), LOOKS)
def test_the_grid_of_a_finished_game(live_server, chromium, tmp_path, kind, scheme, size):
    request = FINISHED[kind]
    table = seat(tmp_path, request)
    grid = scorepad.build(games.score(request), request["rounds"])
    context = chromium.new_context(viewport=SIZES[size], device_scale_factor=1, is_mobile=True, has_touch=True,
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
        shown = rows.evaluate_all("""rows => rows.map(r => Array.from(r.querySelectorAll('td'), td => [
            (td.querySelector('.pts') || {}).textContent, (td.querySelector('.run') || {}).textContent]))""")
        read = [[[" ".join((text or "").split()) for text in pair] for pair in row[:len(want.cells)]]
                for row, want in zip(shown, grid.rows, strict=True)]
        assert read == [[[c.points_text, c.total_text] for c in row.cells] for row in grid.rows]
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
            expect(page.locator(f"#why-{n} .why-body")).to_be_visible()  # loaded when opened, for older rounds
            expect(page.locator(f"#hand-{n}").get_by_role("link", name="Edit")).to_be_in_viewport()
        assert errors == [], errors
    finally:
        context.close()


def phone_context(chromium, size="390x844", scheme="light", **extra):
    return chromium.new_context(viewport=SIZES[size], device_scale_factor=1, is_mobile=True, has_touch=True,
                                color_scheme=scheme, **extra)


@pytest.mark.parametrize(("size", "scheme"), LOOKS)
def test_rematch_seats_the_same_players_one_place_on(live_server, chromium, tmp_path, scheme, size):
    request = FINISHED["rally-the-king"]
    table = seat(tmp_path, request)
    context = phone_context(chromium, size, scheme)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{table.id}?key={table.edit_key}")
        first = page.url
        page.get_by_role("button", name="Rematch").click()
        expect(page.locator(".flash")).to_contain_text("Rematch: a new table")
        assert page.url != first
        # Seats rotated as the deal passes (RK-10): the second seat first, the first seat last.
        players = request["players"]
        expect(page.locator("table.pad thead th .name")).to_have_text([*players[1:], players[0]])
        expect(page.locator("table.pad tbody tr[data-hand]")).to_have_count(0)
        expect(page.get_by_role("link", name="Enter hand 1")).to_be_visible()
        # The same options: the old table's number of hands.
        expect(page.locator("#board")).to_contain_text(f"Hand 0 of {request['options'].get('hands', 4)}")
        # Links back to the table it follows, with the edit link this phone already had.
        back = page.locator(".rematch-of a")
        expect(back).to_have_text(table.title)
        no_sideways_scroll(page)
        shot(page, f"rematch-{scheme}-{size}")
        back.click()
        expect(page.locator("table.pad tbody tr[data-hand]")).to_have_count(len(request["rounds"]))
        expect(page.get_by_role("button", name="Undo last change")).to_be_visible()
        # A second rematch from the same table is a table of its own, again and again.
        for _ in range(2):
            page.goto(first)
            page.get_by_role("button", name="Rematch").click()
            expect(page.locator(".flash")).to_contain_text("Rematch: a new table")
    finally:
        context.close()


@pytest.mark.parametrize(("size", "scheme"), LOOKS)
def test_undo_asks_nothing_and_offers_redo(live_server, chromium, tmp_path, scheme, size):
    request = FINISHED["rummathon-royale"]
    table = seat(tmp_path, request)
    context = phone_context(chromium, size, scheme)
    try:
        page = context.new_page()
        page.on("dialog", lambda d: pytest.fail(f"undo asked: {d.message}"))
        page.goto(f"{live_server}/t/{table.id}?key={table.edit_key}")
        rows = page.locator("table.pad tbody tr[data-hand]")
        n = len(request["rounds"])
        expect(rows).to_have_count(n)
        for _ in range(2):  # undo, redo, and again
            page.get_by_role("button", name="Undo last change").click()
            toast = page.locator(".toast")
            expect(toast).to_contain_text("Undone")
            expect(rows).to_have_count(n - 1)
            shot(page, f"undone-{scheme}-{size}")
            toast.get_by_role("button", name="Redo").click()
            expect(page.locator(".flash")).to_contain_text("Redone.")
            expect(rows).to_have_count(n)
            expect(page.locator(".toast")).to_have_count(0)
        # Two undos, two redos: the redo stack walks back in order.
        page.get_by_role("button", name="Undo last change").click()
        expect(rows).to_have_count(n - 1)
        page.get_by_role("button", name="Undo last change").click()
        expect(rows).to_have_count(n - 2)
        page.locator(".toast").get_by_role("button", name="Redo").click()
        expect(rows).to_have_count(n - 1)
        # The notice goes away after a while (the page keeps a plain Undo).
        page.get_by_role("button", name="Undo last change").click()
        expect(page.locator(".toast")).to_be_hidden(timeout=30_000)
    finally:
        context.close()


def test_delete_confirms(live_server, chromium, tmp_path):
    table = seat(tmp_path, FINISHED["rummathon-royale"])
    context = phone_context(chromium)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{table.id}?key={table.edit_key}")
        rows = page.locator("table.pad tbody tr[data-hand]")
        n = rows.count()
        asked = []
        page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        rows.nth(0).locator("td").first.click()
        page.locator("#hand-1").get_by_role("button", name="Delete").click()
        expect(rows).to_have_count(n)
        assert asked and "Delete hand 1?" in asked[0]
        page.once("dialog", lambda d: d.accept())
        page.locator("#hand-1").get_by_role("button", name="Delete").click()
        expect(rows).to_have_count(n - 1)
    finally:
        context.close()


@pytest.mark.parametrize("timezone", ["Pacific/Auckland", "America/New_York"])
def test_the_history_is_in_the_phones_time_and_in_words(live_server, chromium, tmp_path, timezone):
    request = FINISHED["rummathon-royale"]
    table = seat(tmp_path, request)
    context = phone_context(chromium, timezone_id=timezone, locale="en-GB")
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{table.id}?key={table.edit_key}")
        page.get_by_role("button", name="Undo last change").click()
        expect(page.locator(".toast")).to_be_visible()
        page.get_by_role("link", name="History").click()
        entries = page.locator("ol.history > li")
        expect(entries).to_have_count(len(request["rounds"]) + 1)
        expect(entries.nth(0).locator(".summary")).to_have_text(f"Hand {len(request['rounds'])} taken back")
        expect(entries.nth(1).locator(".summary")).to_contain_text(f"Hand {len(request['rounds'])} entered")
        # The time shown is the phone's: the same instant the server wrote, in the phone's zone.
        time = entries.nth(0).locator("time")
        written = time.get_attribute("datetime")
        expected = page.evaluate(
            """([iso, zone]) => new Date(iso).toLocaleString('en-GB', {timeZone: zone, weekday: 'short',
                 day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', second: '2-digit'})""",
            [written, timezone])
        expect(time).to_have_text(expected)
        assert "UTC" not in time.inner_text()
        # The JSON is one tap away, and closed until asked for.
        json_box = entries.nth(1).locator("details.json")
        expect(json_box.locator("pre")).to_be_hidden()
        json_box.locator("summary").click()
        expect(json_box.locator("pre")).to_contain_text('"out"')
        no_sideways_scroll(page)
        shot(page, f"history-{timezone.replace('/', '-')}")
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_sheet_download_shows_it_is_working(live_server, chromium, tmp_path, scheme):
    table = seat(tmp_path, FINISHED["royalty"])
    context = phone_context(chromium, scheme=scheme, accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{table.id}?key={table.edit_key}")
        # Every state the link goes through is recorded, however quickly the sheet comes back.
        page.evaluate("""() => { window.seen = []; new MutationObserver(() => {
            document.querySelectorAll('a[aria-busy=true]').forEach(a => window.seen.push(a.textContent)); })
          .observe(document.body, {subtree: true, attributes: true, childList: true, characterData: true}); }""")
        link = page.get_by_role("link", name="Score sheet (PDF)")
        for i in range(2):
            with page.expect_download(timeout=60_000) as download:
                link.click()
                if i == 0:
                    shot(page, f"sheet-busy-{scheme}")
            assert download.value.suggested_filename.endswith(".pdf")
            # At once on the tap: the link said it was working.
            assert "Preparing the sheet…" in page.evaluate("window.seen")
            page.evaluate("window.seen = []")
            expect(page.locator("#sheet-status")).to_contain_text("Sheet ready", timeout=30_000)
            expect(page.get_by_role("link", name="Score sheet (PDF)")).to_have_count(1)
    finally:
        context.close()
