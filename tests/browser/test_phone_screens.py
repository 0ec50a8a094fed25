"""Every kind of page on a small phone (360x740), as a new player taps it: nothing to tap smaller than
a fingertip, no text too small to read, and a player with a long one-word name on every game's board
and hand form.

- Anything a player can tap (a link, a button, a box, a list, a summary, a label around a box) is at
  least 24x24 px (WCAG 2.5.8, the very least); the controls a hand is entered with are at least 44x44
  (DESIGN.md, *Phone first*): the save buttons, the rows of the score pad, the rows of choices and the
  card pickers. Pages are read with every ``<details>`` open, so a why or a hidden part is read too.
- No visible text is under 12 px.
- A 25-letter one-word name (as some players have) on every game's board and hand form: the page never
  scrolls sideways, and the card picker's Done stays on the screen, so the picker can be closed.

One server and one set of tables (tests/browser/site.py, and a table of each game with the long name)
for the whole module.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from companion.storage import tables
from companion.storage.db import get_db
from tests import test_history_words as history_words
from tests.browser import site
from tests.browser.test_accessibility import one_of_each_kind
from tests.browser.test_back_forward import call
from tests.conftest import BROWSER_WAIT_MS

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 740}
LONG = "Maximiliankonstantinovich"
MIN_TEXT_PX = 12
LEAST = 24
FINGER = 44
SHOTS = Path("/tmp/courtier-screens")


def long_name_tables(app) -> dict[str, tables.Table]:
    """Each game's table of tests/browser/site.py with its first player called ``LONG``, and a Rummy Royal
    table with the poker stage (where the picker takes each player's cards)."""
    made = {}
    with app.app_context():
        db = get_db()
        for slug in site.BOOKS:
            game = site.game_in_play(slug)
            renamed = json.loads(json.dumps(game).replace(json.dumps(game["players"][0]), json.dumps(LONG)))
            made[slug] = tables.create_table(db, slug, renamed["players"], renamed["options"],
                                             rounds=renamed["rounds"], joined=renamed["joined"])
        made["rummy-royal, poker"] = tables.create_table(db, "rummy-royal", [LONG, "Ben", "Cat"], {})
    return made


@pytest.fixture(scope="module")
def screens(tmp_path_factory):
    """The site served once: (base URL, every page of the site, the long-named tables)."""
    with site.serving(tmp_path_factory.mktemp("screens")) as (base, pages, app):
        yield base, pages, long_name_tables(app)


@pytest.fixture(scope="module")
def small_phone(chromium):
    context = chromium.new_context(viewport=SMALL_PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    context.set_default_timeout(BROWSER_WAIT_MS)
    page = context.new_page()
    yield page
    context.close()


def _open(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("load")


def sideways(page: Page) -> int:
    """How far the page scrolls sideways on the phone (0 when it fits)."""
    return page.evaluate("document.documentElement.scrollWidth") - SMALL_PHONE["width"]


#: Each visible thing to tap, as (what, width, height, primary). A box inside a label, or beside the label
#: of a tick box or a choice, is tapped by that label too: the label is measured as well (a control kept
#: visually hidden, 1 px, is measured by its label alone). Primary: what a hand is entered with (the save
#: buttons, the rows of choices and tick boxes of a hand form, the card pickers, the number buttons and
#: steppers, the letters of a word), the score pad's rows, and the links at the top of a hand form.
TARGETS = """() => {
    const out = [];
    const primary = 'button[type=submit], input[type=submit], .pad tr[data-hand] a, label.seg, .picker button, '
        + '[data-pick], [data-set-count], .step, .chip, form.entry .check > label, form.entry > h1 + p a';
    const tappable = 'a[href], button, input:not([type=hidden]), select, textarea, summary, label';
    for (const el of document.querySelectorAll(tappable)) {
        if (!el.checkVisibility({visibilityProperty: true}) || el.closest('.visually-hidden')) continue;
        if (el.matches('label') && !(el.control && el.control.matches('[type=checkbox], [type=radio]'))) continue;
        if (el.matches('input, select, textarea') && el.closest('label')) continue;
        const box = el.getBoundingClientRect();
        if (!box.width && !box.height) continue;
        const words = (el.getAttribute('aria-label') || el.textContent || el.name || el.id || '').trim();
        const what = `<${el.tagName.toLowerCase()}${el.className ? ' class="' + el.className + '"' : ''}> `
            + `"${words.replace(/\\s+/g, ' ').slice(0, 40)}"`;
        out.push([what, Math.round(box.width * 10) / 10, Math.round(box.height * 10) / 10, el.matches(primary)]);
    }
    return out;
}"""

#: Visible text under ``min`` px: its computed font size (what the style sheet asks for, in the chart's
#: units for a chart's labels), and for a chart's labels the size they are drawn at on the screen too.
SMALL_TEXT = """(min) => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const text = walker.currentNode;
        const el = text.parentElement;
        if (!text.textContent.trim() || !el.checkVisibility({visibilityProperty: true})) continue;
        if (el.closest('.visually-hidden')) continue;
        const computed = parseFloat(getComputedStyle(el).fontSize);
        const drawn = el.ownerSVGElement ? computed * el.ownerSVGElement.getScreenCTM().a : computed;
        if (Math.min(computed, drawn) < min - 0.05)
            out.push(`"${text.textContent.trim().slice(0, 30)}" in <${el.tagName.toLowerCase()}`
                     + ` class="${el.getAttribute('class') || ''}"> at ${computed.toFixed(1)} px`
                     + (drawn !== computed ? ` (drawn at ${drawn.toFixed(1)} px)` : ''));
    }
    return out;
}"""

#: The score pad's rows: each round's whole row is tapped for its why (static/js/pad.js).
PAD_ROWS = """() => [...document.querySelectorAll('.pad tr[data-hand]')].filter(r => r.checkVisibility())
    .map(r => { const b = r.getBoundingClientRect(); return [r.dataset.hand, b.width, b.height]; })"""


def small_targets(page: Page, what: str) -> list[str]:
    """Every visible target under 24x24 px, and every primary one under 44x44, in words."""
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    found = []
    for target, width, height, primary in page.evaluate(TARGETS):
        least = FINGER if primary else LEAST
        if width < least - 0.05 or height < least - 0.05:
            found.append(f"{what}: {target} is {width:g}x{height:g} px, under {least}x{least}")
    for n, width, height in page.evaluate(PAD_ROWS):
        if width < FINGER or height < FINGER - 0.05:
            found.append(f"{what}: the score pad's row {n} is {width:g}x{height:g} px, under {FINGER}x{FINGER}")
    return found


def page_kinds(pages: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A page of every kind, and every game's table page, hand form, why, history and referee pages."""
    kinds = one_of_each_kind(pages)
    every_game = [(what, url) for what, url in pages
                  if any(what.endswith(kind) for kind in (": entry form", ": score pad (edit link)", ": history",
                                                          ": why of round 1", ": new table"))
                  or ": referee, " in what]
    return kinds + [p for p in every_game if p not in kinds]


def test_every_page_kind_has_fingertip_targets_and_readable_text(screens, small_phone):
    """The home page, a new table, every game's table page, hand form, why, history and referee pages,
    the tournaments' and clubs' pages, and the long-named tables' pages: every target at least 24x24,
    the primary ones 44x44, and no text under 12 px."""
    base, pages, long_named = screens
    page = small_phone
    walked = page_kinds(pages) + [(f"{slug} with a long name: {kind}", url)
                                  for slug, t in long_named.items()
                                  for kind, url in (("score pad", f"/t/{t.id}?key={t.edit_key}"),
                                                    ("entry form", f"/t/{t.id}/hands/new?key={t.edit_key}"))]
    small, tiny_text = [], []
    for what, url in walked:
        _open(page, base + url)
        small += small_targets(page, what)
        tiny_text += [f"{what}: {found}" for found in page.evaluate(SMALL_TEXT, MIN_TEXT_PX)]
    assert len(walked) > 60
    assert not small, f"{len(small)} targets too small:\n" + "\n".join(small)
    assert not tiny_text, f"{len(tiny_text)} pieces of text under {MIN_TEXT_PX} px:\n" + "\n".join(tiny_text)


def open_picker(page: Page, slug: str) -> bool:
    """Open the card picker on the long-named player's first place for cards; False when the form has none."""
    if slug == "indian-rummy" and page.locator("#p0_mode").is_visible():
        page.select_option("#p0_mode", "cards")
    if page.locator(".referee-cards summary").count():  # Rummy Royal's poker stage
        page.locator(".referee-cards summary").click()
    zone = page.locator(f"[data-cards][data-zone^='{LONG}']:visible").first
    if not zone.count():
        return False
    zone.scroll_into_view_if_needed()
    page.locator(f"[data-pick='{zone.get_attribute('id')}']").click()
    page.locator(".picker:not([hidden])").first.wait_for()
    return True


def test_a_25_letter_name_fits_every_board_and_hand_form(screens, small_phone):
    """With "Maximiliankonstantinovich" at the table, no board or hand form scrolls sideways at 360 px, and
    the card picker's header ("Adding to Maximiliankonstantinovich · Spoils") leaves Done on the screen:
    tapped, it closes the picker."""
    base, _, long_named = screens
    page = small_phone
    SHOTS.mkdir(parents=True, exist_ok=True)
    wide, done_off, pickers = [], [], []
    for slug, table in long_named.items():
        for kind, url in (("board", f"/t/{table.id}?key={table.edit_key}"),
                          ("hand form", f"/t/{table.id}/hands/new?key={table.edit_key}")):
            _open(page, base + url)
            if sideways(page) > 0:
                wide.append(f"{slug} {kind}: {sideways(page)} px wider than the phone")
            page.screenshot(path=str(SHOTS / f"long-name-{slug}-{kind.replace(' ', '-')}.png"), full_page=True)
        if not open_picker(page, slug):
            continue
        pickers.append(slug)
        page.screenshot(path=str(SHOTS / f"long-name-{slug}-picker.png"))
        done = page.locator(".picker:not([hidden]) [data-picker-close]")
        box = done.bounding_box()
        if box["x"] < 0 or box["x"] + box["width"] > SMALL_PHONE["width"]:
            done_off.append(f"{slug}: Done lies from x = {box['x']:.0f} to {box['x'] + box['width']:.0f}")
            continue
        if sideways(page) > 0:
            wide.append(f"{slug} with the picker open: {sideways(page)} px wider than the phone")
        done.tap()
        assert page.locator(".picker:not([hidden])").count() == 0, f"{slug}: Done left the picker open"
    assert sorted(pickers) == ["alliance-royals", "battle-royals", "indian-rummy", "marriage-royals",
                               "rummy-royal, poker"]
    assert not wide + done_off, "\n".join(wide + done_off)


def test_the_history_tells_undos_and_redos_in_words(screens, small_phone):
    """After an undo, a redo, an edit taken back and a deletion taken back, put back and taken back again
    (tests/test_history_words.py, worked by hand), the history page at 360 px says each as a person would,
    newest first, the changes that no longer count in grey, and fits the phone."""
    base, _, _ = screens
    table = call(base, "POST", "/api/v1/tables", history_words.GAME)
    steps = [("POST", "rounds", {"round": deal}) for deal in history_words.DEALS] + [
        ("POST", "undo", {}), ("POST", "redo", {}), ("PUT", "rounds/1", {"round": history_words.EDITED}),
        ("POST", "undo", {}), ("DELETE", "rounds/2", {}), ("POST", "undo", {}), ("POST", "redo", {}),
        ("POST", "undo", {})]
    for version, (method, path, body) in enumerate(steps):
        call(base, method, f"/api/v1/tables/{table['id']}/{path}", {**body, "base_version": version}, table["edit_key"])
    page = small_phone
    _open(page, f"{base}/t/{table['id']}/history?key={table['edit_key']}")
    entries = page.locator("ol.history > li")
    expect(entries.locator(".summary")).to_have_text(history_words.WORDS[::-1])
    undone = entries.evaluate_all("items => items.map(li => li.classList.contains('undone'))")
    assert undone == [n in (4, 6, 8, 9) for n in range(11, 0, -1)]  # changes #4, #6, #8 and #9 no longer count
    assert sideways(page) <= 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "history-after-undos-and-redos.png"), full_page=True)
