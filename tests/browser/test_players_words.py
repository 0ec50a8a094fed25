"""Players' words in a real browser (390x844): an expired form sent through htmx shows a page in
words, not JSON; Rummathon Royale refuses "not completed" for who went out beside the field and
keeps the choice; the Monarchy checker names the cards left as cards."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.steps import start
from tests.browser.test_table_flow import chosen, tap_choice

pytestmark = pytest.mark.browser
SHOTS = "/tmp/words-{}.png"


def test_an_expired_form_through_htmx_shows_a_page_in_words(live_server, phone):
    context = phone()
    page = context.new_page()
    page.goto(live_server + "/new/rummathon-royale")
    page.fill("#seat1", "Ann")
    page.fill("#seat2", "Ben")
    context.clear_cookies()  # the session, and with it the form's token, is gone: the form has expired
    page.get_by_role("button", name="Start the table").click()
    expect(page.get_by_role("heading", name="Form expired")).to_be_visible()
    expect(page.locator("main")).to_contain_text("This form could not be checked (its security token is missing "
                                                 "or old). Go back, reload the page and send it again.")
    page.screenshot(path=SHOTS.format("expired"), full_page=True)
    assert "errors" not in page.locator("body").inner_text()


def test_not_completed_for_who_went_out_is_refused_beside_the_field_and_kept(live_server, phone):
    page = phone().new_page()
    start(page, live_server, "Rummathon Royale", ("Ann", "Ben", "Cat"))
    page.get_by_role("link", name="Enter hand 1", exact=True).click()
    tap_choice(page, "out", "Ann")
    expect(chosen(page, "p0_progress")).to_have_value("completed")  # preselected, visibly
    tap_choice(page, "p0_progress", "failed")  # and then contradicted on purpose
    tap_choice(page, "burden2", "1:completed")  # a Burden Ben played on Cat, completed by Cat
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#p0_progress-error")).to_have_text(
        "Ann went out, which completes the round, yet the entry says Ann did not complete the round (RR-2, RR-5)")
    expect(chosen(page, "p0_progress")).to_have_value("failed")
    page.locator("#p0_progress").scroll_into_view_if_needed()
    page.screenshot(path=SHOTS.format("contradiction"))
    tap_choice(page, "p0_progress", "completed")
    expect(chosen(page, "p2_progress")).to_have_value("completed")  # laid down by the completed Burden (RR-3)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".flash")).to_contain_text("Hand saved")


def test_the_monarchy_checker_lists_the_cards_left_as_cards(live_server, phone):
    page = phone().new_page()
    page.goto(live_server + "/referee/royalty/monarchy")
    page.fill("#dealt", "Zb Cr Pr Qr Mb Eb Ar Ab Ur * Bb Lr Rr Ir Ob Rb Mr Tb Er Nb Ab Ir Eb Sr Tr")
    page.fill("#words", "Cr Ar Lr Mr\nZb Eb Bb Rb Ab")
    page.get_by_role("button", name="Check").click()
    verdict = page.locator(".verdict")
    expect(verdict).to_contain_text("16 cards left: Pr Qr Mb Eb Ab Ur * Rr Ir Ob Tb Er Nb Ir Sr Tr")
    assert not re.search(r"[\[\]']", verdict.locator("p").nth(1).inner_text())
    page.screenshot(path=SHOTS.format("monarchy"))
