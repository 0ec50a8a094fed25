"""What a phone keeps and records, on real phones (lose nothing, record nothing wrong):
a kept entry stays on the phone until the server has it, a kept form follows the table, waiting
hands count on the board and are sent from any page, no cached page holds an edit key once the
table's tabs are closed, a table knows when its time was called, and a seating needs its round.

Rummathon Royale hands worked by hand from RR-1, RR-2 (a low card left is worth 5, the player who
went out collects them); Rally the King from RK-3, RK-7, RK-10 (a solo of 64 is won: +12 and three
times -4; the deal passes left)."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from tests.browser.steps import start, wait_until
from tests.browser.test_accessibility import COLOUR_RULES, axe_problems
from tests.browser.test_offline import (
    SLOW,
    _shots,
    an_entry_that_needs_a_look,
    offline_table,
    ready_for_offline,
    rounds,
    save_offline,
)
from tests.browser.test_table_flow import start_table
from tests.browser.test_tournament import create as create_tournament
from tests.browser.test_tournament import open_table

pytestmark = pytest.mark.browser

SMALL = {"width": 360, "height": 740}
FOUR = ("Ann", "Ben", "Cat", "Dan")


def shot(page: Page, name: str) -> None:
    page.screenshot(path=str(_shots() / f"{name}.png"), full_page=True)


OUTBOX = """() => new Promise((resolve, reject) => {
        const req = indexedDB.open('courtier', 1);
        req.onupgradeneeded = () => req.result.createObjectStore('outbox', { keyPath: 'id' });
        req.onsuccess = () => {
            const all = req.result.transaction('outbox').objectStore('outbox').getAll();
            all.onsuccess = () => resolve(all.result.map(i => i.id + ':' + i.state));
            all.onerror = () => reject(all.error);
        };
        req.onerror = () => reject(req.error);
    })"""


def assert_no_axe_problems(page: Page, what: str) -> None:
    """axe-core's every rule on what the page shows now, in light, and its colour rules in dark."""
    problems = axe_problems(page, f"{what} (light)")
    page.emulate_media(color_scheme="dark")
    problems += axe_problems(page, f"{what} (dark)", COLOUR_RULES)
    page.emulate_media(color_scheme="light")
    assert problems == [], "\n".join(problems)


def outbox_ids(page: Page) -> list[str]:
    """The entries waiting in the phone's IndexedDB outbox."""
    return page.evaluate(OUTBOX)


def outbox_emptied(page: Page) -> None:
    """Wait until the phone's outbox holds nothing: an entry leaves it once the server's answer is in,
    which may be a moment after the board shows the saved hand."""
    wait_until(page, f"async () => ({OUTBOX})().then(ids => ids.length === 0)", timeout=SLOW)


# ---------------------------------------------------------------- a kept entry, opened without signal


def test_open_it_without_signal_keeps_the_entry_until_the_server_has_it(phone, live_server):
    context, page, table = an_entry_that_needs_a_look(phone, live_server)
    look = page.locator("#outbox .needs-look")
    context.set_offline(True)  # the signal drops again
    look.get_by_role("button", name="Open it").click()
    expect(look).to_contain_text("No signal: Hand 1 stays on this phone. Open it when the signal is back.")
    expect(page.locator("#board")).to_be_visible()
    assert [i.split(":")[1] for i in outbox_ids(page)] == ["look"]
    shot(page, "open-it-offline")
    assert_no_axe_problems(page, "a board with an entry that needs a look, offline")
    page.reload()  # the entry survives a reload from the phone's cache
    expect(page.locator("#outbox .needs-look")).to_contain_text("Hand 1 needs a look", timeout=SLOW)

    context.set_offline(False)
    page.locator("#outbox .needs-look").get_by_role("button", name="Open it").click()
    expect(page.locator("main")).to_contain_text("Another phone changed this table", timeout=SLOW)
    expect(page.locator("#p1_low")).to_have_value("3")
    assert len(outbox_ids(page)) == 1  # still on the phone while the player looks
    page.get_by_role("button", name="Save hand 2", exact=True).click()
    expect(page.locator("#board")).to_have_attribute("data-version", "2", timeout=SLOW)
    expect(page.locator("#outbox")).to_have_count(0, timeout=SLOW)
    assert [r["out"] for r in rounds(table["view"])] == ["Ben", "Ann"]  # once each
    outbox_emptied(page)


def test_open_it_when_the_signal_drops_on_the_way_keeps_the_entry(phone, live_server):
    """The phone believes it is online, but "Open it" never reaches the server (a signal that drops
    as it is sent): the browser shows its error page, and back at the table the entry is still there."""
    _, page, table = an_entry_that_needs_a_look(phone, live_server)
    look = page.locator("#outbox .needs-look")

    page.route("**/hands", lambda route: route.abort("internetdisconnected"))
    look.get_by_role("button", name="Open it").click()
    page.wait_for_url(lambda url: "/hands?" in url, wait_until="commit", timeout=SLOW)  # the browser's error page
    page.unroute("**/hands")
    page.goto(table["edit"])
    expect(page.locator("#outbox .needs-look")).to_contain_text("Hand 1 needs a look", timeout=SLOW)
    assert [i.split(":")[1] for i in outbox_ids(page)] == ["look"]
    assert [r["out"] for r in rounds(table["view"])] == ["Ben"]  # the server never had it


# ---------------------------------------------------------------- a kept form follows the table


def start_rally(page: Page, base: str) -> str:
    start(page, base, "Rally the King", FOUR)
    return page.url


def solo(page: Page, declarer: str, points: str) -> None:
    page.select_option("#bid", "solo")
    page.select_option("#declarer", declarer)
    page.fill("#declarer_points", points)


@pytest.mark.parametrize("size", [None, SMALL])
def test_after_a_clash_the_kept_rally_the_king_hand_is_dealt_by_the_next_dealer(phone, live_server, size):
    a = phone().new_page()
    edit = start_rally(a, live_server)
    b = phone().new_page()
    if size:
        b.set_viewport_size(size)
    b.goto(edit)
    for page in (a, b):
        page.get_by_role("link", name="Enter hand 1", exact=True).click()
        expect(page.locator("#dealer")).to_have_value("Ann")  # RK-10: the first seat deals first
    solo(b, "Cat", "40")  # B types the next hand's solo: Cat, 40 card points
    solo(a, "Ann", "64")
    a.get_by_role("button", name="Save hand 1").click()
    expect(a.locator(".flash")).to_contain_text("Hand saved")

    b.get_by_role("button", name="Save hand 1").click()
    expect(b.locator("div.errors")).to_contain_text("Another phone changed this table")
    expect(b.locator("h1")).to_have_text("Enter hand 2")
    expect(b.locator("#dealer")).to_have_value("Ben")  # the deal passed left from Ann
    expect(b.locator("#declarer")).to_have_value("Cat")  # what B typed stays
    expect(b.locator("#declarer_points")).to_have_value("40")
    shot(b, f"rk-kept-form-{(size or {'width': 390})['width']}")
    b.get_by_role("button", name="Save hand 2").click()
    expect(b.locator(".flash")).to_contain_text("Hand saved")
    expect(b.locator("#board tr.next")).to_contain_text("Next: Cat deals")
    with urllib.request.urlopen(edit.split("?")[0] + "/export.json", timeout=30) as answer:
        assert [(h["dealer"], h["declarer"]) for h in json.loads(answer.read())["rounds"]] == [
            ("Ann", "Ann"), ("Ben", "Cat")]


# ---------------------------------------------------------------- waiting hands count, and say when typed


def test_waiting_hands_count_on_the_board_and_the_history_says_when_they_were_typed(phone, live_server):
    context, page, table = offline_table(phone, live_server)
    expect(page.locator("#board tr.next")).to_contain_text("Next: Ann deals")
    save_offline(page, 1, "Hand 1", out="Ann", left={"Ben": {"low": 3}})  # Ann collects 15
    expect(page.get_by_role("link", name="Enter hand 2", exact=True)).to_be_visible()
    expect(page.locator("#board tr.next")).to_contain_text("Next: Ben deals")
    save_offline(page, 2, "Hand 2", out="Cat", left={"Ann": {"low": 1}})  # Cat collects 5
    expect(page.get_by_role("link", name="Enter hand 3", exact=True)).to_be_visible()
    expect(page.locator("#board tr.next")).to_contain_text("Next: Cat deals")
    expect(page.locator("#board tr.waiting")).to_have_text([re.compile(r"^1\s*Ann deals · waiting to send$"),
                                                            re.compile(r"^2\s*Ben deals · waiting to send$")])
    expect(page.locator("#board p.empty")).to_have_text("2 waiting on this phone, not sent yet.")
    page.get_by_role("link", name="Enter hand 3", exact=True).click()
    expect(page.locator("h1")).to_have_text("Enter hand 3")  # the form the phone kept counts them too
    expect(page.get_by_role("button", name="Save hand 3", exact=True)).to_be_visible()
    shot(page, "waiting-form")
    page.go_back()
    expect(page.locator("#outbox .outbox-item")).to_have_count(2)
    shot(page, "waiting-board")
    assert_no_axe_problems(page, "a board with two hands waiting, offline")

    context.set_offline(False)
    expect(page.locator("#outbox")).to_have_count(0, timeout=SLOW)
    expect(page.locator("#board")).to_have_attribute("data-version", "2", timeout=SLOW)
    assert [r["out"] for r in rounds(table["view"])] == ["Ann", "Cat"]
    expect(page.locator("#board tr.waiting")).to_have_count(0)
    expect(page.get_by_role("link", name="Enter hand 3", exact=True)).to_be_visible()
    page.get_by_role("link", name="History").click()
    typed = page.locator("ol.history li").filter(has_text="entered")
    expect(typed).to_have_count(2)
    expect(typed.first).to_contain_text("on a phone without signal; arrived")
    expect(typed.last).to_contain_text("on a phone without signal; arrived")
    shot(page, "history-typed")


def test_waiting_hands_are_sent_from_a_rules_page_and_the_no_signal_page(phone, live_server):
    context = phone()
    page = context.new_page()
    table = start_table(page, live_server)
    page.goto(live_server + "/rules/rummathon-royale")  # opened once with signal: kept for later
    page.goto(table["edit"])
    ready_for_offline(page)
    context.set_offline(True)
    page.reload()
    save_offline(page, 1, "Hand 1", out="Ann", left={"Ben": {"low": 3}})  # Ann collects 15
    page.goto(live_server + "/rules/rummathon-royale")  # a fresh load from the phone's cache: no table script
    expect(page.locator("h1")).to_contain_text("Rummathon Royale")
    context.set_offline(False)
    _wait_for_rounds(page, table, 1)
    assert page.url.endswith("/rules/rummathon-royale")  # sent without opening the table

    page.goto(table["edit"])  # with signal: the phone's copies of the table are current again
    _wait_for_cached_form(page, "Enter hand 2")
    context.set_offline(True)
    page.reload()
    save_offline(page, 2, "Hand 2", out="Cat", left={"Ann": {"low": 1}})  # Cat collects 5
    page.goto(live_server + "/rules/royalty")  # never opened: the phone has no copy
    expect(page.locator("h1")).to_have_text("No signal")
    shot(page, "no-signal-page")
    assert_no_axe_problems(page, "the No signal page")
    context.set_offline(False)
    _wait_for_rounds(page, table, 2)
    expect(page.locator("h1")).to_have_text("No signal")
    assert [r["out"] for r in rounds(table["view"])] == ["Ann", "Cat"]


def _wait_for_cached_form(page: Page, heading: str) -> None:
    """Wait until the phone's cached entry form, and the cached table page that links to it, are the
    current ones (the service worker stores a page's new copy a moment after showing it)."""
    wait_until(page, r"""async (heading) => {
        const current = {form: false, table: false};
        for (const name of (await caches.keys()).filter(n => n.startsWith('courtier-pages-'))) {
            const cache = await caches.open(name);
            for (const request of await cache.keys()) {
                const path = new URL(request.url).pathname;
                const kind = path.endsWith('/hands/new') ? 'form' : /^\/t\/[^/]+$/.test(path) ? 'table' : null;
                if (kind && (await (await cache.match(request)).text()).includes(heading)) current[kind] = true;
            }
        }
        return current.form && current.table;
    }""", heading, timeout=SLOW)


def _wait_for_rounds(page: Page, table: dict, count: int) -> None:
    """Wait (on the condition, polling the server) until the table holds ``count`` hands."""
    wait_until(page, """async ([url, count]) => {
        const r = await fetch(url, { cache: 'no-store' });
        return r.ok && (await r.json()).rounds.length >= count;
    }""", [table["view"] + "/export.json", count], timeout=SLOW)


# ---------------------------------------------------------------- edit keys leave the phone's cache


def test_no_cached_page_holds_an_edit_key_once_no_tab_shows_the_table(phone, live_server):
    context = phone()
    page = context.new_page()
    table = start_table(page, live_server)
    ready_for_offline(page)
    page.get_by_role("button", name="Rematch").click()
    expect(page.locator(".rematch-of")).to_contain_text("Rematch of")
    rematch_key = re.search(r"key=([\w-]+)", page.url).group(1)
    page.locator(".rematch-of a").click()  # the link back still opens the first table with its edit key
    expect(page).to_have_url(table["edit"])
    expect(page.get_by_role("link", name="Enter hand 1", exact=True)).to_be_visible()
    page.goto(live_server + "/")
    expect(page.get_by_role("heading", name="Your recent tables")).to_be_visible()
    page.close()

    home = context.new_page()
    home.goto(live_server + "/")
    keys = [table["key"], rematch_key]
    wait_until(home, """async () => {
        for (const name of (await caches.keys()).filter(n => n.startsWith('courtier-pages-'))) {
            const urls = (await (await caches.open(name)).keys()).map(r => r.url);
            if (urls.some(u => u.includes('key='))) return false;
            if (!urls.some(u => new URL(u).pathname === '/')) return false;
        }
        return true;
    }""", timeout=SLOW)
    holding = home.evaluate("""async (keys) => {
        const out = [];
        for (const name of (await caches.keys()).filter(n => n.startsWith('courtier-pages-'))) {
            const cache = await caches.open(name);
            for (const request of await cache.keys()) {
                const text = await (await cache.match(request)).text();
                if (keys.some(k => text.includes(k))) out.push(request.url);
            }
        }
        return out;
    }""", keys)
    assert holding == []

    context.set_offline(True)  # a recent table, opened without signal: its last board, view only
    home.reload()
    home.locator("ul.recent a").last.click()
    expect(home.locator("#board")).to_be_visible(timeout=SLOW)
    expect(home.get_by_role("link", name="Enter hand 1")).to_have_count(0)


# ---------------------------------------------------------------- called time, and a seating needs its round


def test_a_table_whose_time_was_called_says_so_and_asks_before_saving(phone, live_server):
    page = phone().new_page()
    director = create_tournament(page, live_server, "Rally the King", FOUR + ("Eve", "Fay", "Gus", "Hal"), "2")
    page.get_by_text("Seat round 1…").click()
    page.get_by_role("button", name="Yes, seat round 1").click()
    expect(page.locator(".flash")).to_contain_text("Round 1 seated")
    open_table(page, director, 1, 1)
    expect(page).to_have_url(re.compile(r"/t/[\w-]+\?key="))
    table = page.url
    page.get_by_role("link", name="Enter hand 1", exact=True).click()
    dealer = page.locator("#dealer").input_value()
    solo(page, dealer, "64")  # won: the dealer +12, the others -4
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".flash")).to_contain_text("Hand saved")
    expect(page.locator("#time-called")).to_have_count(0)

    page.goto(director)
    page.get_by_text("Call time on round 1…").click()
    page.get_by_role("button", name="Call time on round 1").click()
    expect(page.locator(".flash")).to_contain_text("Time called on round 1")

    page.goto(table)
    expect(page.locator("#time-called")).to_contain_text("Time was called on round 1 of Friday club")
    shot(page, "time-called-table")
    page.get_by_role("link", name="Enter hand 2", exact=True).click()
    expect(page.locator("#time-called")).to_contain_text("a hand saved now does not count")
    names = page.locator("#declarer option").evaluate_all("options => options.map(o => o.value).filter(Boolean)")
    solo(page, names[1], "40")
    page.get_by_role("button", name="Save hand 2").click()
    expect(page.locator("div.errors")).to_contain_text("this hand will not count in the tournament's standings")
    expect(page.locator("#declarer_points")).to_have_value("40")  # kept
    expect(page.locator("#declarer")).to_have_value(names[1])
    shot(page, "time-called-confirm")
    assert len(rounds(table.split("?")[0])) == 1
    page.get_by_role("button", name="Save hand 2").click()  # asked once more: saved
    expect(page.locator(".flash")).to_contain_text("Saved after time was called: this hand does not count")
    assert len(rounds(table.split("?")[0])) == 2


def test_a_seating_sent_without_its_round_is_refused_in_words(phone, live_server):
    page = phone().new_page()
    page.set_viewport_size(SMALL)
    create_tournament(page, live_server, "Rally the King", FOUR + ("Eve", "Fay", "Gus", "Hal"), "2")
    page.get_by_text("Seat round 1…").click()
    page.locator("input[name=round]").evaluate("input => input.remove()")  # an old cached form
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.get_by_role("button", name="Yes, seat round 1").click()
    assert answer.value.status == 422
    expect(page.locator("#problems")).to_contain_text(
        "Nothing was seated: the button did not say which round to seat")
    expect(page.locator("#problems")).to_contain_text("Round 1 is the next to seat")
    expect(page.locator(".mode")).to_contain_text("0 of 2 rounds seated")
    shot(page, "seat-without-round")
