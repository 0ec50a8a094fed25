"""The pages as a phone shows them: tap targets, no sideways scrolling, dark mode, no CSP breaks."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

MIN_TAP = 44


def start_table(page, base, players=("Ann", "Ben", "Cat")):
    page.goto(base + "/new/rummathon-royale")
    for seat, name in enumerate(players, 1):
        page.fill(f"#seat{seat}", name)
    page.click("text=Start the table")
    page.wait_for_selector("text=Enter hand 1")


def small_targets(page):
    """Buttons, selects, inputs and stand-alone links smaller than a fingertip."""
    return page.evaluate(
        """(min) => Array.from(document.querySelectorAll(
              'button, select, input:not([type=hidden]), a.button, summary, nav a, .recent a'))
            .filter(el => el.offsetParent !== null)
            .map(el => [el.outerHTML.slice(0, 80), el.getBoundingClientRect()])
            .filter(([_, r]) => r.height < min || r.width < min)
            .map(([h, r]) => h + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))""",
        MIN_TAP,
    )


def assert_phone_friendly(page):
    # Checkboxes and radios are 24 px but sit inside a 44 px tall label row.
    offenders = [t for t in small_targets(page) if 'type="checkbox"' not in t and 'type="radio"' not in t]
    assert offenders == []
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"


def test_every_page_fits_a_phone_and_has_big_tap_targets(live_server, phone):
    page = phone().new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(live_server + "/")
    assert_phone_friendly(page)
    start_table(page, live_server, players=("Annabelle-Marguerite", "Bartholomew", "Cat", "Dan", "Eve", "Fay"))
    assert_phone_friendly(page)
    page.click("text=Enter hand 1")
    page.wait_for_selector("input[name='out']", state="attached")
    assert_phone_friendly(page)
    page.locator("label.seg:has(input[name='out'][value='Cat'])").click()
    page.fill("#p0_low", "2")
    page.click("text=Save hand 1")
    page.wait_for_selector("text=Hand saved")
    page.click("#why-1 summary")
    assert_phone_friendly(page)
    page.goto(live_server + "/rules/rummathon-royale")
    assert_phone_friendly(page)
    assert errors == [], errors  # no CSP violation or script error on the way


def test_dark_mode_follows_the_phone(live_server, phone):
    light = phone(color_scheme="light").new_page()
    dark = phone(color_scheme="dark").new_page()
    for page in (light, dark):
        page.goto(live_server + "/")
    background = "getComputedStyle(document.body).backgroundColor"
    assert light.evaluate(background) != dark.evaluate(background)
    assert dark.evaluate(background) == "rgb(15, 18, 24)"
