"""The back button on a phone (360x740): a table's page, opened with its edit link, and its hand form are
kept whole by the browser's back/forward cache, so going back shows them at once; the board then
refreshes itself at once, with what another phone saved meanwhile.

Playwright starts Chromium with the back/forward cache turned off; these tests start one with it on, as
a phone has it. A page shown again from that cache fires ``pageshow`` with ``persisted``; a page loaded
again does not (and its navigation entry says why it was not kept).

Worked by hand (IR-9, pool 101): Ann declares deal 1, Ben counts 30 and Cat 60; then, from another
phone while this one is away, Ben declares deal 2, Ann counts 25 and Cat 45: Ann 25, Ben 30, Cat 105.
"""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import BROWSER_WAIT_MS, CHROMIUM

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 740}
POOL = {"game": "indian-rummy", "players": ["Ann", "Ben", "Cat"], "options": {"variant": "pool101"}}
DEAL_1 = {"winner": "Ann", "hands": {"Ben": {"count": 30}, "Cat": {"count": 60}}}
DEAL_2 = {"winner": "Ben", "hands": {"Ann": {"count": 25}, "Cat": {"count": 45}}}
#: Every time the page is shown: true when it came from the back/forward cache.
SHOWN = ("addEventListener('pageshow', e => {"
         " window.courtierShown = (window.courtierShown || []).concat([e.persisted]); });")


@pytest.fixture(scope="module")
def with_bfcache(chromium):
    """A second Chromium, with the back/forward cache on (Playwright turns it off by default)."""
    browser = chromium.browser_type.launch(
        executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--no-first-run"],
        ignore_default_args=["--disable-back-forward-cache"])
    yield browser
    browser.close()


def call(base: str, method: str, path: str, body: dict, key: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
    request = urllib.request.Request(base + path, json.dumps(body).encode(), headers, method=method)
    with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310 - the test's own loopback server
        return json.loads(answer.read())


def back_from_elsewhere(page: Page, base: str) -> None:
    """Go to another page of the site (a page load of its own, not an htmx swap), then back."""
    page.goto(base + "/rules/indian-rummy")
    page.go_back(wait_until="commit")  # a page shown from the cache fires no load event
    page.wait_for_function("() => (window.courtierShown || []).length > 0 && document.readyState === 'complete'")


def restored(page: Page) -> tuple[bool, str]:
    """Whether the page shown last came from the back/forward cache, and if not, why not (in Chromium's words)."""
    shown = page.evaluate("window.courtierShown")
    why = page.evaluate("JSON.stringify(performance.getEntriesByType('navigation')[0].notRestoredReasons)")
    return shown[-1] is True, why


def test_the_table_page_and_its_hand_form_come_back_at_once_and_the_board_catches_up(live_server, with_bfcache):
    table = call(live_server, "POST", "/api/v1/tables", POOL)
    call(live_server, "POST", f"/api/v1/tables/{table['id']}/rounds", {"round": DEAL_1, "base_version": 0},
         key=table["edit_key"])
    edit = f"{live_server}/t/{table['id']}?key={table['edit_key']}"
    context = with_bfcache.new_context(viewport=SMALL_PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    context.set_default_timeout(BROWSER_WAIT_MS)
    context.add_init_script(SHOWN)
    page = context.new_page()
    try:
        page.goto(edit)
        # The first visit installs the service worker, which then takes charge of the open page (a page
        # taken over so is never kept): as on a phone that has been to Courtier before, start from a page
        # it served.
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        page.reload()
        rows = page.locator("#board table.pad tbody tr[data-hand]")
        expect(rows).to_have_count(1)
        page.evaluate("window.courtierShown = []")
        # Another phone saves deal 2 while this one is on the rules.
        page.goto(live_server + "/rules/indian-rummy")
        call(live_server, "POST", f"/api/v1/tables/{table['id']}/rounds", {"round": DEAL_2, "base_version": 1},
             key=table["edit_key"])
        page.go_back(wait_until="commit")
        page.wait_for_function("() => (window.courtierShown || []).length > 0")
        kept, why = restored(page)
        assert kept, f"the table page was loaded again, not kept: {why}"
        expect(rows).to_have_count(2)  # refreshed at once on coming back
        totals = page.locator("#board table.pad tfoot .totals td")
        expect(totals).to_have_text(["25", "30", "105"])

        page.goto(f"{live_server}/t/{table['id']}/hands/new?key={table['edit_key']}")
        page.fill("#p0_count", "12")  # typed, not saved: still there when the form comes back
        back_from_elsewhere(page, live_server)
        kept, why = restored(page)
        assert kept, f"the hand form was loaded again, not kept: {why}"
        expect(page.locator("#p0_count")).to_have_value("12")
    finally:
        context.close()
