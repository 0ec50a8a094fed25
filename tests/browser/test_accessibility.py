"""Every kind of page as a phone shows it, light and dark: axe-core finds nothing, no text is under
12 px at 360 px (the chart's labels included), the entry forms' back link is a fingertip tall, and every
field of an entry form can be tapped whole once scrolled to (the save bar covers none of it).

axe-core is vendored under tests/browser/vendor (see its README) and put into each page by the test
(it is never served to players). A failure lists each problem in words: the rule, the page and the
element, and what axe says to fix.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser import site
from tests.conftest import BROWSER_WAIT_MS

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "vendor" / "axe-core-4.14.1.min.js"
SMALL_PHONE = {"width": 360, "height": 740}
PHONES = [SMALL_PHONE, {"width": 390, "height": 844}]
SHOTS = Path("/tmp/courtier-a11y")
#: Text under this many CSS pixels is too small to read at arm's length on a phone.
MIN_TEXT_PX = 12
MIN_TAP = 44


@pytest.fixture(scope="module")
def filled_site(tmp_path_factory):
    with site.serving(tmp_path_factory.mktemp("a11y")) as (base, pages, app):
        yield base, pages


def _context(chromium, scheme: str, viewport=SMALL_PHONE):
    context = chromium.new_context(viewport=viewport, device_scale_factor=1, is_mobile=True, has_touch=True,
                                   color_scheme=scheme)
    context.set_default_timeout(BROWSER_WAIT_MS)
    return context


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("load")


def axe_problems(page, what: str, rules: list[str] | None = None, injected: bool = False) -> list[str]:
    """axe-core's violations on the page (of ``rules`` only, when given), one line each, in words;
    ``injected`` when axe was already put into this page."""
    if not injected:
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;true")
    found = page.evaluate("""async (rules) => {
        const options = {resultTypes: ['violations']};
        if (rules) options.runOnly = {type: 'rule', values: rules};
        const result = await axe.run(document, options);
        return result.violations.flatMap(v => v.nodes.map(n =>
            [v.id, v.impact, v.help, n.target.join(' '), (n.failureSummary || '').replace(/\\s+/g, ' ')]));
    }""", rules)
    return [f"{what}: {rule} ({impact}): {help_text} at {target}. {summary}"
            for rule, impact, help_text, target, summary in found]


SMALL_TEXT = """(min) => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const text = walker.currentNode;
        if (!text.textContent.trim()) continue;
        const el = text.parentElement;
        const box = el.getBoundingClientRect();
        if (!box.width || !box.height || getComputedStyle(el).visibility === 'hidden') continue;
        if (el.closest('.visually-hidden')) continue;
        let size = parseFloat(getComputedStyle(el).fontSize);
        if (el.ownerSVGElement) size *= el.ownerSVGElement.getScreenCTM().a;  // SVG units to screen pixels
        if (size < min - 0.05)
            out.push(`"${text.textContent.trim().slice(0, 30)}" in <${el.tagName.toLowerCase()}`
                     + ` class="${el.getAttribute('class') || ''}"> at ${size.toFixed(1)} px`);
    }
    return out;
}"""


#: Text that spills out of the button it is on (a row of choices too narrow for its words): each piece
#: of text of each visible button or choice to tap must lie within the button's edges.
SPILLED_TEXT = """() => {
    const out = [];
    for (const target of document.querySelectorAll('main label.seg, main button, main a.button, main .hostage-pick')) {
        if (!target.checkVisibility()) continue;
        const box = target.getBoundingClientRect();
        const walker = document.createTreeWalker(target, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
            const text = walker.currentNode;
            if (!text.textContent.trim() || text.parentElement.closest('.visually-hidden')) continue;
            const range = document.createRange();
            range.selectNodeContents(text);
            if ([...range.getClientRects()].some(r => r.left < box.left - 0.5 || r.right > box.right + 0.5)) {
                const words = target.textContent.trim().slice(0, 40);
                out.push(`"${words}" spills out of its ${box.width.toFixed(0)} px button`);
                break;
            }
        }
    }
    return out;
}"""


CHART_TEXT_SIZES = """() => Array.from(document.querySelectorAll('svg.chart text'))
    .map(t => parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a)"""
#: What a colour scheme changes: the rest of axe's rules read the same page in light and dark.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


#: Pages each game draws with widgets of its own (card grids, rows of choices, pickers): seen in every game.
OWN_WIDGETS = ("entry form", "score pad (edit link)")


def one_of_each_kind(pages: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A page of every kind ("rules", "history", a referee's question...), from whichever game has it
    first, and every game's entry form and score pad: dark mode colours a kind of element the same on
    every page that has it."""
    seen, kept = set(), []
    for what, url in pages:
        game, _, kind = what.rpartition(": ")
        kind = re.sub(r"\d+", "N", kind) + (f" ({game})" if kind in OWN_WIDGETS else "")
        if kind not in seen:
            seen.add(kind)
            kept.append((what, url))
    return kept


def test_axe_finds_nothing_on_any_page_in_light_and_no_colour_problem_in_dark(chromium, filled_site):
    """Every rule of axe on a page of every kind (one template makes every page of a kind, and every
    game's own widgets are a kind of their own), and on every page no text under 12 px at 360 px (the
    charts' labels included) and no page wider than the phone. On each page of a kind, the same page
    is then turned dark (as a phone set to dark shows it) and axe's rules of colour run again: the
    rest of the page is as in light."""
    base, pages = filled_site
    context = _context(chromium, "light")
    page = context.new_page()
    problems, dark, small, wide, chart_sizes = [], [], [], [], []
    kinds = set(one_of_each_kind(pages))
    try:
        for what, url in pages:
            _open(page, base + url)
            if (what, url) in kinds:
                problems += axe_problems(page, what)
                page.emulate_media(color_scheme="dark")
                dark += axe_problems(page, what, COLOUR_RULES, injected=True)
                page.emulate_media(color_scheme="light")
            small += [f"{what}: {found}" for found in page.evaluate(SMALL_TEXT, MIN_TEXT_PX)]
            chart_sizes += page.evaluate(CHART_TEXT_SIZES)
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            if overflow > 0:
                wide.append(f"{what}: {overflow} px wider than the phone")
    finally:
        context.close()
    assert len(kinds) > 15
    assert not problems, f"{len(problems)} accessibility problems:\n" + "\n".join(problems)
    assert not dark, f"{len(dark)} accessibility problems (dark):\n" + "\n".join(dark)
    assert not small, f"{len(small)} pieces of text under {MIN_TEXT_PX} px:\n" + "\n".join(small)
    assert not wide, "\n".join(wide)
    assert len(chart_sizes) > 100 and min(chart_sizes) >= MIN_TEXT_PX  # the charts were there, and read


def test_axe_and_text_sizes_with_the_pickers_open_and_problems_shown(chromium, filled_site):
    """The parts a page shows after a tap: the card picker and grid (their text 12 px or more too), the
    why of a round, the problems of a form sent with a card that is not one."""
    base, pages = filled_site
    urls = dict(pages)
    problems = []
    for scheme in ("light", "dark"):
        context = _context(chromium, scheme)
        page = context.new_page()
        try:
            _open(page, base + urls["indian-rummy: entry form"])
            page.select_option("#p1_mode", "cards")
            page.locator("[data-pick=p1_cards]").click()
            page.locator(".picker").first.wait_for(state="visible")
            problems += axe_problems(page, f"Indian Rummy picker ({scheme})")
            problems += [f"Indian Rummy picker: {t}" for t in page.evaluate(SMALL_TEXT, MIN_TEXT_PX)]
            _open(page, base + urls["alliance-royals: entry form"])
            page.locator(".pick").first.click()
            page.locator(".card-grid").wait_for(state="visible")
            problems += axe_problems(page, f"Alliance Royals card grid ({scheme})")
            problems += [f"Alliance Royals card grid: {t}" for t in page.evaluate(SMALL_TEXT, MIN_TEXT_PX)]
            page.locator("[data-picker-close]").click()
            _open(page, base + urls["battle-royals: entry form"])
            page.fill("#p0_spoils", "ZZ")
            page.locator("form.entry button[type=submit]").click()
            page.locator(".error").first.wait_for()
            problems += axe_problems(page, f"Battle Royals form with a card that is not one ({scheme})")
            _open(page, base + urls["rummathon-royale: score pad (edit link)"])
            page.locator("#why-1 summary").click()
            problems += axe_problems(page, f"a round's why ({scheme})")
        finally:
            context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("viewport", PHONES, ids=lambda v: f"{v['width']}x{v['height']}")
def test_entry_forms_back_link_and_every_field_can_be_tapped_whole(chromium, filled_site, viewport):
    """Scrolled to as the browser does (the least scroll that shows it), each field of each entry form is
    the element under every point of its height: the save bar, keeping to the bottom of the screen once
    something is entered, covers none of it. "← Back to the scores" is a 44 px target, and no button's
    words spill out of it (a name, or "Nobody: a Double Rummathon Royale ended the hand", in a row of
    choices: a long one takes a row of its own, a word too long for the phone breaks)."""
    base, pages = filled_site
    context = _context(chromium, "light", viewport)
    page = context.new_page()
    covered, spilled = [], []
    try:
        for what, url in pages:
            if "entry form" not in what and "correcting" not in what:
                continue
            _open(page, base + url)
            spilled += [f"{what}: {found}" for found in page.evaluate(SPILLED_TEXT)]
            back = page.get_by_role("link", name=re.compile("^← Back to the (scores|board)$"))
            height = back.bounding_box()["height"]
            assert height >= MIN_TAP, f"{what}: the back link is {height:.0f} px tall"
            # The save bar waits at the end of the form until something is entered, then keeps to the
            # bottom of the screen: the fields must stay tappable whole in that state.
            bar = page.locator("form.entry .sticky-save")
            assert bar.evaluate("e => getComputedStyle(e).position") == "relative", what
            page.locator("form.entry [name=note]").fill("Played at the club")
            assert bar.evaluate("e => getComputedStyle(e).position") == "sticky", what
            covered += [f"{what}: {found}" for found in page.evaluate("""() => {
                const out = [];
                const fields = document.querySelectorAll(
                    'form.entry select, form.entry input:not([type=hidden]), form.entry textarea');
                for (const el of fields) {
                    if (!el.checkVisibility() || el.closest('.sticky-save')) continue;
                    const target = el.closest('label.seg') || el;  // a tap row's hidden radio is tapped by its label
                    target.scrollIntoView({block: 'nearest'});
                    const box = target.getBoundingClientRect();
                    const x = box.left + box.width / 2;
                    let hit = 0, rows = 0;
                    for (let y = Math.ceil(box.top) + 1; y < box.bottom - 1; y += 2) {
                        rows++;
                        const under = document.elementFromPoint(x, y);
                        if (under && (under === target || target.contains(under) || under.control === el)) hit++;
                    }
                    if (hit < rows) out.push(`#${el.id || el.name}: ${hit} of ${rows} rows can be tapped`);
                }
                return out;
            }""")]
    finally:
        context.close()
    assert not covered, "\n".join(covered)
    assert not spilled, "\n".join(spilled)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", PHONES, ids=lambda v: f"{v['width']}x{v['height']}")
def test_screenshots_of_a_table_and_a_form(chromium, filled_site, scheme, viewport):
    """Pictures to look at (under /tmp/courtier-a11y): a score pad with its chart and a form, at each size."""
    base, pages = filled_site
    urls = dict(pages)
    context = _context(chromium, scheme, viewport)
    page = context.new_page()
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        for what in ("royalty: score pad (edit link)", "alliance-royals finished: score pad (view link)",
                     "indian-rummy: entry form"):
            _open(page, base + urls[what])
            name = "".join(c if c.isalnum() else "-" for c in what)
            page.screenshot(path=str(SHOTS / f"{name}-{scheme}-{viewport['width']}.png"), full_page=True)
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{what} scrolls sideways by {overflow} px"
    finally:
        context.close()
