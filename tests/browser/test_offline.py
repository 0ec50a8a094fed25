"""Offline at the table on real phones: Playwright's offline mode cuts the signal, the service
worker serves the table's last pages, saves wait on the phone and are stored exactly once when
the signal comes back (DESIGN: "Offline at the table"). Hands worked by hand from RR-1, RR-2:
a low card left is worth 5, and the player who went out collects them all."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from tests.browser.steps import wait_until
from tests.browser.test_table_flow import THREE, fill_hand, open_hand_form, start_table

pytestmark = pytest.mark.browser

#: Generous: the service worker installs and the phone's queue is sent on a loaded machine.
SLOW = 30_000


def rounds(view: str) -> list:
    with urllib.request.urlopen(view + "/export.json", timeout=30) as answer:
        return json.loads(answer.read())["rounds"]


def ready_for_offline(page: Page) -> None:
    """Wait until the service worker controls the page and holds the table's entry form."""
    page.wait_for_function("() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)", timeout=SLOW)
    page.reload()  # the first controlled load fetches the entry form through the worker
    wait_until(page, """async () => {
        const names = await caches.keys();
        for (const name of names.filter(n => n.startsWith('courtier-pages-'))) {
            const keys = await (await caches.open(name)).keys();
            if (keys.some(r => r.url.includes('/hands/new'))) return true;
        }
        return false;
    }""", timeout=SLOW)


def offline_table(phone, base: str):
    """A new table on a phone whose service worker holds the table's pages, then the signal cut and the page
    loaded again from the phone's cache: the phone's context, the page and the table."""
    context = phone()
    page = context.new_page()
    table = start_table(page, base)
    ready_for_offline(page)
    context.set_offline(True)
    page.reload()  # from the phone's cache
    return context, page, table


def save_offline(page: Page, number_shown: int, waiting: str, **hand) -> None:
    open_hand_form(page, number_shown)
    fill_hand(page, THREE, **hand)
    page.get_by_role("button", name=f"Save hand {number_shown}", exact=True).click()
    expect(page.locator("#outbox")).to_contain_text(f"{waiting}: waiting to send", timeout=SLOW)


def test_hands_saved_offline_are_stored_once_when_the_signal_returns(phone, live_server):
    context, page, table = offline_table(phone, live_server)
    expect(page.locator("#offline-banner")).to_contain_text("Offline since", timeout=SLOW)
    expect(page.locator("#board")).to_have_attribute("data-version", "0")
    page.screenshot(path=str(_shots() / "offline-board.png"), full_page=True)

    save_offline(page, 1, "Hand 1", out="Ann", left={"Ben": {"low": 3}})  # Ann collects 15
    save_offline(page, 2, "Hand 2", out="Cat", left={"Ann": {"low": 1}})  # Cat collects 5: the board counts hand 1
    expect(page.locator("#outbox .outbox-item")).to_have_count(2)
    page.screenshot(path=str(_shots() / "offline-waiting.png"), full_page=True)
    assert rounds(table["view"]) == []  # nothing reached the server yet

    context.set_offline(False)
    expect(page.locator("#outbox")).to_have_count(0, timeout=SLOW)
    expect(page.locator("#offline-banner")).to_have_count(0)
    expect(page.locator("#board")).to_have_attribute("data-version", "2", timeout=SLOW)
    stored = rounds(table["view"])
    assert [r["out"] for r in stored] == ["Ann", "Cat"]  # both, in order, once each

    other = phone().new_page()  # a second phone sees both
    other.goto(table["view"])
    expect(other.locator("#board")).to_have_attribute("data-version", "2")
    page.screenshot(path=str(_shots() / "offline-sent.png"), full_page=True)


def an_entry_that_needs_a_look(phone, live_server):
    """A phone saves hand 1 without signal (Ann went out), another phone saves hand 1 meanwhile (Ben
    went out), and the first is back online: its entry now needs a look. Returns (context, page, table)."""
    context, page, table = offline_table(phone, live_server)
    save_offline(page, 1, "Hand 1", out="Ann", left={"Ben": {"low": 3}})  # Ann collects 15
    second = phone().new_page()
    second.goto(table["edit"])
    open_hand_form(second, 1)
    fill_hand(second, THREE, out="Ben")
    second.get_by_role("button", name="Save hand 1", exact=True).click()
    # The hand form shows the board too (at version 0): the flash says the save is through, or what stopped it.
    expect(second.locator("main")).to_contain_text("Hand saved.", timeout=SLOW)
    expect(second.locator("#board")).to_have_attribute("data-version", "1", timeout=SLOW)
    context.set_offline(False)
    expect(page.locator("#outbox .needs-look")).to_contain_text("Hand 1 needs a look: another phone saved first",
                                                                timeout=SLOW)
    return context, page, table


def test_a_hand_saved_offline_behind_another_phone_gets_the_conflict_page(phone, live_server):
    _, page, table = an_entry_that_needs_a_look(phone, live_server)
    look = page.locator("#outbox .needs-look")
    page.screenshot(path=str(_shots() / "offline-conflict.png"), full_page=True)
    assert [r["out"] for r in rounds(table["view"])] == ["Ben"]

    look.get_by_role("button", name="Open it").click()
    expect(page.locator("main")).to_contain_text("Another phone changed this table", timeout=SLOW)
    expect(page.locator("#p1_low")).to_have_value("3")  # the input is kept
    page.get_by_role("button", name="Save hand 2", exact=True).click()
    expect(page.locator("#board")).to_have_attribute("data-version", "2", timeout=SLOW)
    assert [r["out"] for r in rounds(table["view"])] == ["Ben", "Ann"]
    expect(page.locator("#outbox")).to_have_count(0)


def test_a_waiting_hand_can_be_edited_or_cancelled_before_it_is_sent(phone, live_server):
    context, page, table = offline_table(phone, live_server)
    save_offline(page, 1, "Hand 1", out="Ann", left={"Ben": {"low": 3}})
    save_offline(page, 2, "Hand 2", out="Cat")

    page.locator("#outbox .outbox-item").first.get_by_role("button", name="Edit").click()
    expect(page.locator("#p1_low")).to_have_value("3", timeout=SLOW)  # the form opens as it was typed
    expect(page.locator("form.entry input[name='out']:checked")).to_have_value("Ann")
    page.fill("#p1_low", "2")
    page.get_by_role("button", name="Save hand 1", exact=True).click()
    expect(page.locator("#outbox .outbox-item")).to_have_count(2, timeout=SLOW)  # replaced, not added

    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#outbox .outbox-item").filter(has_text="Hand 2").get_by_role("button", name="Cancel").click()
    expect(page.locator("#outbox .outbox-item")).to_have_count(1)

    context.set_offline(False)
    expect(page.locator("#outbox")).to_have_count(0, timeout=SLOW)
    [stored] = rounds(table["view"])
    assert (stored["out"], stored["left"]) == ("Ann", {"Ben": {"low": 2}})  # the edited hand, once


def test_pages_holding_the_edit_key_leave_the_phone_with_the_table(phone, live_server):
    context = phone()
    page = context.new_page()
    table = start_table(page, live_server)
    ready_for_offline(page)
    page.close()
    home = context.new_page()
    home.goto(live_server + "/")
    wait_until(home, """async (id) => {
        for (const name of (await caches.keys()).filter(n => n.startsWith('courtier-pages-'))) {
            const urls = (await (await caches.open(name)).keys()).map(r => r.url);
            if (urls.some(u => u.includes('key='))) return false;
            if (!urls.some(u => u.endsWith('/t/' + id))) return false;
        }
        return true;
    }""", table["id"], timeout=SLOW)
    context.set_offline(True)
    home.goto(table["edit"])  # the view copy stands in: the last board, without the key
    expect(home.locator("#board")).to_have_count(1, timeout=SLOW)
    expect(home.get_by_role("link", name="Enter hand 1")).to_have_count(0)


def test_a_look_at_another_page_and_back_keeps_the_tables_offline_copy(phone, live_server):
    """The edit-key copies go 15 s after the table was last asked for, not at the next page elsewhere: a
    phone that glances at the home page without signal comes back to a table it can still enter hands at."""
    context, page, table = offline_table(phone, live_server)
    page.goto(live_server + "/")  # from the phone's cache
    page.reload()  # no window shows the table now
    page.goto(table["edit"])
    open_hand_form(page, 1)
    expect(page.locator("main")).not_to_contain_text("No signal")


def test_the_copies_a_phone_keeps_say_so_and_leave_its_messages_alone(phone, tmp_path):
    """The "No signal" page, a table's view page and its entry form, fetched only to be kept, reach the
    server marked as copies (web.kept_copies): a copy fetched just after a tap would otherwise take the
    message meant for the page the tap opens ("Rematch: a new table")."""
    from flask import request

    from companion import create_app
    from tests.live import served

    app = create_app({"DATABASE": str(tmp_path / "copies.sqlite"), "SECRET_KEY": "copies-secret"})
    seen: list[tuple[str, str | None]] = []
    app.before_request(lambda: seen.append((request.full_path.rstrip("?"), request.headers.get("X-Courtier-Copy"))))
    with served(app) as base:
        page = phone().new_page()
        table = start_table(page, base)
        ready_for_offline(page)
        kept = {"/offline", f"/t/{table['id']}", f"/t/{table['id']}/hands/new?key={table['key']}"}
        deadline = time.monotonic() + SLOW / 1000
        while not kept <= {path for path, copy in list(seen) if copy == "1"}:
            assert time.monotonic() < deadline, f"copies seen: {sorted(set(seen))}"
            page.wait_for_timeout(100)
        # Those addresses were never opened by the player here: every request for them was a kept copy.
        assert [path for path, copy in list(seen) if path in kept and copy != "1"] == []
        page.close()


def test_a_view_only_phone_offline_shows_the_last_board(phone, live_server):
    owner = phone().new_page()
    table = start_table(owner, live_server)
    context = phone()
    page = context.new_page()
    page.goto(table["view"])
    page.wait_for_function("() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)", timeout=SLOW)
    page.reload()
    context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-banner")).to_contain_text("Offline since", timeout=SLOW)
    expect(page.locator("#board")).to_have_count(1)


def _shots():
    import pathlib
    import tempfile

    path = pathlib.Path(tempfile.gettempdir()) / "courtier-shots"
    path.mkdir(exist_ok=True)
    return path
