"""A table played on real phones: Debian's Chromium at a phone's size, driven by Playwright
against the live app (CSRF on). Every number below is worked by hand from RR-1 and RR-2:
cards left are worth 1-9: 5, 10-12: 10, action: 15, sabotage: 20, flex: 25, and the player
who went out collects them all."""

from __future__ import annotations

import re
import time
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

THREE = ("Ann", "Ben", "Cat")
KINDS = ("low", "high", "action", "sabotage", "flex")


# ---------------------------------------------------------------- helpers


def start_table(page: Page, base: str, players=THREE, schedule: str = "all", title: str = "") -> dict[str, str]:
    """Start a table from the home page, as a player would; returns its links and id."""
    page.goto(base + "/")
    page.get_by_role("link", name="Rummathon Royale", exact=True).click()
    expect(page).to_have_url(base + "/new/rummathon-royale")
    for seat, name in enumerate(players, 1):
        page.fill(f"#seat{seat}", name)
    page.check(f"input[name='opt-schedule'][value='{schedule}']")
    if title:
        page.fill("#title", title)
    page.get_by_role("button", name="Start the table").click()
    expect(page).to_have_url(re.compile(r"/t/[\w-]+\?key=[\w-]+$"))
    parts = urlsplit(page.url)
    table_id = parts.path.rsplit("/", 1)[1]
    key = parse_qs(parts.query)["key"][0]
    edit = page.locator("#edit-link").input_value()
    view = page.locator("#view-link").input_value()
    assert edit == f"{base}/t/{table_id}?key={key}"
    assert view == f"{base}/t/{table_id}"
    return {"id": table_id, "key": key, "edit": edit, "view": view}


def tap_choice(page: Page, name: str, value: str) -> None:
    """Tap a choice in a row of choices (a radio drawn as a button), and see it taken: Playwright's check
    taps the label and fails at once if its radio is not chosen after (a tap lost to a page still settling)."""
    page.locator(f"label.seg:has(input[name='{name}'][value='{value}'])").check()


def chosen(page: Page, name: str):
    """The choice tapped in a row of choices, to check its value."""
    return page.locator(f"form.entry input[name='{name}']:checked")


def fill_hand(page: Page, players, out: str | None = None, left=None, progress=None, extra=None) -> None:
    """Fill the hand form. left: {name: {kind: n}}, progress: {name: value}, extra: {name: n}."""
    if out is not None:
        tap_choice(page, "out", out)
    for name, counts in (left or {}).items():
        i = players.index(name)
        for kind, n in counts.items():
            page.fill(f"#p{i}_{kind}", str(n))
    for name, step in (progress or {}).items():
        tap_choice(page, f"p{players.index(name)}_progress", step)
    for name, n in (extra or {}).items():
        page.fill(f"#p{players.index(name)}_extra", str(n))


def open_hand_form(page: Page, number: int) -> None:
    page.get_by_role("link", name=f"Enter hand {number}", exact=True).click()
    expect(page.locator("h1")).to_have_text(f"Enter hand {number}")


def enter_hand(page: Page, players, number: int, **hand) -> None:
    """Enter hand `number` from the table page and wait for the scores to come back."""
    open_hand_form(page, number)
    fill_hand(page, players, **hand)
    page.get_by_role("button", name=f"Save hand {number}", exact=True).click()
    expect(page.locator(".flash")).to_contain_text("Hand saved.")
    expect(page.locator(f"#board #hand-{number}")).to_have_count(1)


def total(page: Page, name: str):
    """The Total cell of a player's row on the scoreboard."""
    row = page.locator("#board table.standings tbody tr").filter(
        has=page.locator("th", has_text=re.compile("^" + re.escape(name) + "$")))
    return row.locator("td.total")


def expect_totals(page: Page, totals: dict[str, int], timeout: float | None = None) -> None:
    for name, points in totals.items():
        expect(total(page, name)).to_have_text(str(points), timeout=timeout)


def field_errors(page: Page, input_id: str):
    """The error messages shown in the .field that holds an input."""
    return page.locator(".field", has=page.locator(f"#{input_id}")).locator("p.error")


def posting(page: Page):
    """Catch the next form POST's response (htmx or a plain form)."""
    return page.expect_response(lambda r: r.request.method == "POST")


# ---------------------------------------------------------------- 1. live board on another phone


def test_hand_entered_on_one_phone_shows_on_another_without_reloading(live_server, phone, tmp_path):
    editor = phone().new_page()
    table = start_table(editor, live_server)
    expect(editor.locator(".mode")).to_have_text("You can enter scores on this phone.")
    expect_totals(editor, {"Ann": 0, "Ben": 0, "Cat": 0})

    viewer = phone().new_page()
    viewer.goto(table["view"])
    expect(viewer.locator(".mode")).to_have_text("View only: this link shows the scores.")
    expect(viewer.get_by_role("link", name=re.compile("Enter hand"))).to_have_count(0)
    expect(viewer.get_by_role("button", name="Undo last change")).to_have_count(0)
    expect(viewer.locator("#edit-link")).to_have_count(0)
    expect(viewer.locator("#view-link")).to_have_value(table["view"])
    expect_totals(viewer, {"Ann": 0, "Ben": 0, "Cat": 0})
    # Mark this document: a reload or navigation would lose the mark.
    viewer.evaluate("window.__sameDocument = true")
    navigations = []
    viewer.on("framenavigated", lambda frame: navigations.append(frame.url))

    # Ben 3 × 5 + 1 × 10 = 25, Cat 1 × 25 = 25: Ann collects 50 (RR-1, RR-2).
    enter_hand(editor, THREE, 1, out="Ann", left={"Ben": {"low": 3, "high": 1}, "Cat": {"flex": 1}})
    expect_totals(editor, {"Ann": 50, "Ben": 0, "Cat": 0})
    expect(editor.locator("#hand-1 h3")).to_have_text("Hand 1 · Ann went out")
    expect(editor.get_by_role("link", name="Enter hand 2", exact=True)).to_be_visible()

    expect(total(viewer, "Ann")).to_have_text("50", timeout=30_000)
    expect_totals(viewer, {"Ben": 0, "Cat": 0})
    expect(viewer.locator("#hand-1 h3")).to_have_text("Hand 1 · Ann went out")
    expect(viewer.locator("#hand-1 .who").first).to_contain_text("+50")
    expect(viewer.get_by_role("link", name="Edit")).to_have_count(0)
    expect(viewer.get_by_role("button", name="Delete")).to_have_count(0)
    expect(viewer.get_by_role("link", name=re.compile("Enter hand"))).to_have_count(0)
    assert viewer.evaluate("window.__sameDocument") is True
    assert navigations == []
    assert viewer.url == table["view"]

    viewer.locator("#hand-1 summary", has_text="Why?").click()
    expect(viewer.locator("#why-1")).to_contain_text("Went out: collects 50 from the other hands (Ben 25, Cat 25)")

    shot = tmp_path / "table-phone.png"
    editor.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 0


# ---------------------------------------------------------------- 2. undo and history


def test_undo_takes_the_hand_back_and_history_keeps_both(live_server, phone):
    page = phone().new_page()
    start_table(page, live_server)
    enter_hand(page, THREE, 1, out="Ann", left={"Ben": {"low": 3, "high": 1}, "Cat": {"flex": 1}})
    expect_totals(page, {"Ann": 50, "Ben": 0, "Cat": 0})

    page.get_by_role("button", name="Undo last change").click()
    expect(page.locator(".toast")).to_contain_text("Undone")
    expect_totals(page, {"Ann": 0, "Ben": 0, "Cat": 0})
    expect(page.locator("#board li.hand")).to_have_count(0)
    expect(page.locator("#board .empty")).to_contain_text("No hands yet.")
    expect(page.get_by_role("link", name="Enter hand 1", exact=True)).to_be_visible()

    page.get_by_role("link", name="History").click()
    expect(page.locator("h1")).to_have_text("History")
    entries = page.locator("ol.history > li")
    expect(entries).to_have_count(2)
    # Newest first: the undo (#2), then the add it undid (#1).
    expect(entries.nth(0).locator(".summary")).to_have_text("Hand 1 taken back")
    expect(entries.nth(0)).to_contain_text("change #2")
    expect(entries.nth(1).locator(".summary")).to_have_text("Hand 1 entered, then taken back (change #2): Ann went out")
    expect(entries.nth(1)).to_have_class("undone")
    expect(entries.nth(0)).not_to_have_class("undone")


# ---------------------------------------------------------------- 3. two editors, one conflict


def test_a_stale_save_is_refused_and_keeps_the_entry(live_server, phone):
    a = phone().new_page()
    table = start_table(a, live_server)
    b = phone().new_page()
    b.goto(table["edit"])
    expect(b.locator(".mode")).to_have_text("You can enter scores on this phone.")

    open_hand_form(a, 1)
    open_hand_form(b, 1)
    # B types Ben out: Ann 2 × 15 = 30, Cat 1 × 20 = 20, so Ben 50.
    fill_hand(b, THREE, out="Ben", left={"Ann": {"action": 2}, "Cat": {"sabotage": 1}})
    expect(chosen(b, "p1_progress")).to_have_value("completed")  # app.js: who went out completed

    # A saves first: Ann collects 25 + 25 = 50.
    fill_hand(a, THREE, out="Ann", left={"Ben": {"low": 3, "high": 1}, "Cat": {"flex": 1}})
    a.get_by_role("button", name="Save hand 1", exact=True).click()
    expect(a.locator(".flash")).to_contain_text("Hand saved.")
    expect_totals(a, {"Ann": 50, "Ben": 0, "Cat": 0})

    with posting(b) as response:
        b.get_by_role("button", name="Save hand 1", exact=True).click()
    assert response.value.status == 409
    expect(b.locator("div.errors")).to_contain_text("Another phone changed this table")
    assert "Another phone changed this table" in b.locator("body").inner_text()
    # B's entry is all still there.
    expect(chosen(b, "out")).to_have_value("Ben")
    expect(b.locator("#p0_action")).to_have_value("2")
    expect(b.locator("#p2_sabotage")).to_have_value("1")
    expect(chosen(b, "p1_progress")).to_have_value("completed")
    for i, kind in [(0, "low"), (1, "low"), (2, "flex")]:
        expect(b.locator(f"#p{i}_{kind}")).to_have_value("")
    # ...and the board under it is the current one, with A's hand.
    expect_totals(b, {"Ann": 50, "Ben": 0, "Cat": 0})
    expect(b.locator("#hand-1 h3")).to_have_text("Hand 1 · Ann went out")
    expect(b.locator("h1")).to_have_text("Enter hand 2")

    with posting(b) as response:
        b.get_by_role("button", name="Save hand 2", exact=True).click()
    assert response.value.status == 200  # htmx: HX-Location to the table page
    expect(b.locator(".flash")).to_contain_text("Hand saved.")
    expect_totals(b, {"Ann": 50, "Ben": 50, "Cat": 0})
    expect(b.locator("#hand-2 h3")).to_have_text("Hand 2 · Ben went out")
    expect(b.locator("#hand-1 h3")).to_have_text("Hand 1 · Ann went out")
    expect(b.get_by_role("link", name="Enter hand 3", exact=True)).to_be_visible()
    expect(total(a, "Ben")).to_have_text("50", timeout=30_000)  # and A's board catches up


# ---------------------------------------------------------------- 4. the view link cannot write


def test_the_view_link_cannot_write(live_server, phone):
    editor = phone().new_page()
    table = start_table(editor, live_server)
    enter_hand(editor, THREE, 1, out="Ann", left={"Ben": {"low": 3, "high": 1}, "Cat": {"flex": 1}})

    viewer_context = phone()
    viewer = viewer_context.new_page()
    viewer.goto(table["view"])
    expect_totals(viewer, {"Ann": 50})
    # A valid CSRF token for this phone's session, so only the missing key can refuse the write.
    viewer.goto(live_server + "/new/rummathon-royale")
    token = viewer.locator("input[name='csrf_token']").first.input_value()
    assert token

    base = f"{live_server}/t/{table['id']}"
    hand = {"csrf_token": token, "base_version": "1", "out": "Ben", "p0_low": "1", "note": ""}
    writes = {
        "/undo": {"csrf_token": token, "base_version": "1"},
        "/hands": hand,
        "/hands/1": hand,
        "/hands/1/delete": {"csrf_token": token, "base_version": "1"},
    }
    request = viewer_context.request
    for path, form in writes.items():
        response = request.post(base + path, form=form, max_redirects=0)
        assert response.status == 403, (path, response.status)
        assert "This is a view link" in response.text()
        wrong = request.post(base + path + "?key=not-the-key", form=form, max_redirects=0)
        assert wrong.status == 403, (path, wrong.status)
        assert "This edit link is not valid for this table" in wrong.text()
    # Without a token too: the missing key is what refuses it (403), before the CSRF check.
    for path in ("/undo", "/hands"):
        response = request.post(base + path, form={"base_version": "1"}, max_redirects=0)
        assert response.status == 403, (path, response.status)
        assert "This is a view link" in response.text()

    # Nothing changed: one hand, one event, the same totals.
    viewer.goto(table["view"])
    expect_totals(viewer, {"Ann": 50, "Ben": 0, "Cat": 0})
    expect(viewer.locator("#board")).to_have_attribute("data-version", "1")
    viewer.goto(base + "/history")
    expect(viewer.locator("ol.history > li")).to_have_count(1)


# ---------------------------------------------------------------- 5. no JavaScript at all


def test_whole_flow_works_without_javascript(live_server, phone):
    page = phone(java_script_enabled=False).new_page()
    start_table(page, live_server)
    expect(page.locator("[data-copy]").first).to_be_hidden()  # app.js never ran

    page.get_by_role("link", name="Enter hand 1", exact=True).click()
    expect(page.locator("h1")).to_have_text("Enter hand 1")
    expect(page.locator(".step").first).to_be_hidden()
    # Ben 25, Cat 25: Ann 50. Without app.js nothing preselects Ann's round: "not completed" for
    # the player who went out is refused beside her round, in words (RR-2, RR-5); she taps Completed.
    fill_hand(page, THREE, out="Ann", left={"Ben": {"low": 3, "high": 1}, "Cat": {"flex": 1}})
    page.get_by_role("button", name="Save hand 1", exact=True).click()
    expect(page.locator("#p0_progress-error")).to_contain_text("Ann went out, which completes the round")
    expect(chosen(page, "out")).to_have_value("Ann")
    expect(page.locator("#p1_low")).to_have_value("3")
    tap_choice(page, "p0_progress", "completed")
    with posting(page) as response:
        page.get_by_role("button", name="Save hand 1", exact=True).click()
    assert response.value.status == 303
    expect(page).to_have_url(re.compile(r"/t/[\w-]+\?key=[\w-]+#board$"))
    expect(page.locator(".flash")).to_contain_text("Hand saved.")
    expect_totals(page, {"Ann": 50, "Ben": 0, "Cat": 0})
    ann_round = page.locator("#board table.standings tbody tr").nth(0).locator("td").nth(0)
    expect(ann_round).to_have_text("2")  # Ann on round 2

    page.get_by_role("link", name="Edit", exact=True).click()
    expect(page.locator("h1")).to_have_text("Correct hand 1")
    expect(chosen(page, "out")).to_have_value("Ann")
    expect(page.locator("#p1_low")).to_have_value("3")
    expect(page.locator("#p1_high")).to_have_value("1")
    expect(page.locator("#p2_flex")).to_have_value("1")
    # Ben now 5 × 5 + 1 × 10 = 35, Cat 25 + 1 × 20 = 45: Ann 80.
    page.fill("#p1_low", "5")
    page.fill("#p2_sabotage", "1")
    with posting(page) as response:
        page.get_by_role("button", name="Save correction").click()
    assert response.value.status == 303
    expect(page.locator(".flash")).to_contain_text("Hand corrected.")
    expect_totals(page, {"Ann": 80, "Ben": 0, "Cat": 0})
    expect(page.locator("#board li.hand")).to_have_count(1)

    with posting(page) as response:
        page.get_by_role("button", name="Delete", exact=True).click()  # no confirm() without JS
    assert response.value.status == 303
    expect(page.locator(".flash")).to_contain_text("Hand deleted. Undo brings it back.")
    expect_totals(page, {"Ann": 0, "Ben": 0, "Cat": 0})
    expect(page.locator("#board li.hand")).to_have_count(0)

    page.get_by_role("button", name="Undo last change").click()
    expect(page.locator(".toast")).to_contain_text("Undone")
    expect_totals(page, {"Ann": 80, "Ben": 0, "Cat": 0})

    page.get_by_role("link", name="History").click()
    entries = page.locator("ol.history > li")
    expect(entries).to_have_count(4)
    expect(entries.nth(0)).to_contain_text("Hand 1 brought back")
    expect(entries.nth(1)).to_contain_text("Hand 1 deleted, then taken back")
    expect(entries.nth(2)).to_contain_text("Hand 1 edited: ")
    expect(entries.nth(3)).to_contain_text("Hand 1 entered")


# ---------------------------------------------------------------- 6. bad input


def test_a_completed_burden_preselects_its_targets_round_and_a_change_takes_it_back(live_server, phone):
    """A completed Burden lays its target's round down (RR-3, RR-5): Ann's round shows Completed at once; the
    Burden changed to failed takes that back, and a round tapped by hand stays as tapped."""
    page = phone().new_page()
    start_table(page, live_server)
    open_hand_form(page, 1)
    tap_choice(page, "out", "Ben")
    tap_choice(page, "burden0", "2:completed")  # Cat's Burden on Ann, completed
    expect(chosen(page, "p0_progress")).to_have_value("completed")
    tap_choice(page, "burden0", "2:failed")
    expect(chosen(page, "p0_progress")).to_have_value("failed")
    tap_choice(page, "burden0", "2:completed")
    tap_choice(page, "p0_progress", "declared-completed")  # by hand: kept whatever the Burden does next
    tap_choice(page, "burden0", "")
    expect(chosen(page, "p0_progress")).to_have_value("declared-completed")
    expect(chosen(page, "p1_progress")).to_have_value("completed")  # Ben went out all along


def test_taps_made_before_the_forms_script_arrives_still_complete_the_rounds_they_lay_down(live_server, phone):
    """On a slow signal the form's script (forms.js, loaded once the form shows) can arrive after the first
    taps: the rounds of whoever went out and of a completed Burden's target are still preselected as
    completed (RR-2, RR-3, RR-5), so the save goes through. No service worker here: it would serve the
    script from the phone's cache at once."""
    page = phone(service_workers="block").new_page()
    held = []
    page.route("**/js/forms.js", lambda route: held.append(route))
    start_table(page, live_server)
    with page.expect_request("**/js/forms.js"):
        open_hand_form(page, 1)
    tap_choice(page, "out", "Ben")
    tap_choice(page, "burden0", "2:completed")  # Cat's Burden on Ann, completed
    assert chosen(page, "p1_progress").get_attribute("value") == "failed"  # the script has not run
    deadline = time.monotonic() + 30  # the request is asked for: its handler is called as Playwright's events come in
    while not held:
        assert time.monotonic() < deadline, "forms.js was asked for, but its route handler never ran"
        page.wait_for_timeout(50)
    held[0].continue_()
    expect(chosen(page, "p1_progress")).to_have_value("completed")
    expect(chosen(page, "p0_progress")).to_have_value("completed")
    expect(chosen(page, "p2_progress")).to_have_value("failed")
    page.fill("#p0_low", "2")  # Ann holds two low cards: Ben collects 10 (RR-1); Ann's Burden, 50 (RR-3)
    page.get_by_role("button", name="Save hand 1", exact=True).click()
    expect(page.locator(".flash")).to_contain_text("Hand saved.")
    expect_totals(page, {"Ann": 50, "Ben": 10, "Cat": 0})


def test_bad_counts_are_shown_next_to_their_fields_and_the_rest_is_kept(live_server, phone):
    page = phone().new_page()
    start_table(page, live_server)
    open_hand_form(page, 1)

    tap_choice(page, "out", "Ann")
    # Chromium's number input refuses letters; make it a text box, as an old browser would be.
    page.evaluate("document.getElementById('p1_low').type = 'text'")
    page.fill("#p1_low", "abc")
    page.fill("#p1_high", "1")
    page.fill("#p2_high", "-2")
    page.fill("#p2_flex", "1")
    page.fill("#p0_extra", "21")
    with posting(page) as response:
        page.get_by_role("button", name="Save hand 1", exact=True).click()
    assert response.value.status == 422

    expect(page.locator("div.errors")).to_contain_text("Some fields need a look")
    expect(field_errors(page, "p1_low")).to_have_text(["Enter a whole number, like 3."])  # one message
    expect(page.locator("#p1_low")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#p1_low")).to_have_attribute("aria-describedby", "p1_low-error")
    expect(field_errors(page, "p2_high")).to_have_text(["Enter a count from 0 to 112."])
    expect(field_errors(page, "p0_extra")).to_have_text(["At most 20 extra cards a hand (RR-4)."])
    for clean in ("p1_high", "p2_flex", "p0_low", "p1_extra"):
        expect(field_errors(page, clean)).to_have_count(0)
    # What was typed is kept.
    expect(chosen(page, "out")).to_have_value("Ann")
    expect(page.locator("#p1_high")).to_have_value("1")
    expect(page.locator("#p2_high")).to_have_value("-2")
    expect(page.locator("#p2_flex")).to_have_value("1")
    expect(page.locator("#p0_extra")).to_have_value("21")
    expect(page.locator("h1")).to_have_text("Enter hand 1")

    # Fix the counts; 1 extra card is still too many for Ann's 0 points (RR-4, from the engine).
    page.fill("#p1_low", "3")
    page.fill("#p2_high", "")
    page.fill("#p0_extra", "1")
    with posting(page) as response:
        page.get_by_role("button", name="Save hand 1", exact=True).click()
    assert response.value.status == 422
    expect(page.locator("div.errors")).to_contain_text("This hand cannot be scored as entered.")
    expect(field_errors(page, "p0_extra")).to_have_text(["Ann has 0 points, which buy at most 0 extra cards (RR-4)"])
    expect(field_errors(page, "p1_low")).to_have_count(0)
    expect(page.locator("#p1_low")).to_have_value("3")

    page.fill("#p0_extra", "")
    page.get_by_role("button", name="Save hand 1", exact=True).click()
    expect(page.locator(".flash")).to_contain_text("Hand saved.")
    # Ben 3 × 5 + 10 = 25, Cat 25: Ann 50.
    expect_totals(page, {"Ann": 50, "Ben": 0, "Cat": 0})


# ---------------------------------------------------------------- 7. hostile names


def test_hostile_names_are_shown_as_text(live_server, phone):
    evil = "<svg onload=alert(1)>"  # <img src=x onerror=alert(1)> is over the 24-character name limit
    quoted = "\"'><b>Bo</b>"
    title = "<script>alert(2)</script>"
    players = (evil, quoted)
    page = phone().new_page()
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))

    start_table(page, live_server, players=players, title=title)
    expect(page.locator("h1")).to_have_text(title)
    expect(page.locator("#board table.standings tbody th")).to_have_text([evil, quoted])
    expect(page.locator("svg, b, script:not([src])")).to_have_count(0)

    open_hand_form(page, 1)
    expect(page.locator("fieldset.player > legend").nth(1)).to_contain_text(quoted)
    # The second player is left with 1 × 25, collected by the first, who went out (RR-1, RR-2).
    fill_hand(page, players, out=evil, left={quoted: {"flex": 1}})
    expect(chosen(page, "p0_progress")).to_have_value("completed")
    page.get_by_role("button", name="Save hand 1", exact=True).click()
    expect(page.locator(".flash")).to_contain_text("Hand saved.")
    expect_totals(page, {evil: 25, quoted: 0})
    expect(page.locator("#hand-1 h3")).to_have_text(f"Hand 1 · {evil} went out")
    page.locator("#hand-1 summary", has_text="Why?").click()
    expect(page.locator("#why-1")).to_contain_text(f"= 25, collected by {evil}")

    text = page.locator("body").inner_text()
    assert evil in text and quoted in text and title in text
    # The only svgs are the chart of the running totals and its legend's line samples; the legend
    # beside it has the names as text.
    expect(page.locator("svg:not(.chart):not(.swatch), b, script:not([src])")).to_have_count(0)
    expect(page.locator(".chart-legend li", has_text=evil)).to_have_count(1)

    page.goto(live_server + "/")
    expect(page.locator("ul.recent")).to_contain_text(f"{evil}, {quoted}")
    expect(page.locator("svg, b, script:not([src])")).to_have_count(0)
    assert dialogs == []


# ---------------------------------------------------------------- 8. a game to the end


def test_a_half_schedule_game_played_to_the_end(live_server, phone):
    players = ("Ann", "Ben")
    page = phone().new_page()
    start_table(page, live_server, players=players, schedule="half")
    # Ann goes out every hand (so completes rounds 1-6); Ben completes every round but the
    # third and holds hand-number low cards: Ann collects 5 × (1 + 2 + ... + 6) = 105.
    for number in range(1, 7):
        expect(page.locator("#board .result")).to_have_count(0)
        enter_hand(page, players, number, out="Ann", left={"Ben": {"low": number}},
                   progress={"Ben": "failed" if number == 3 else "completed"})
        expect(total(page, "Ann")).to_have_text(str(5 * sum(range(1, number + 1))))

    result = page.locator("#board .result")
    expect(result).to_contain_text("Winner: Ann")
    expect(result).to_contain_text(
        "Ann completed the last round in hand 6; Ann has the highest score, 105 (RR-6).")
    expect(result.get_by_role("link", name="RR-6")).to_have_attribute("href", "/rules/rummathon-royale#RR-6")
    expect(page.locator(".flash")).to_contain_text("Game over:")
    expect_totals(page, {"Ann": 105, "Ben": 0})
    rounds = page.locator("#board table.standings tbody tr td:not(.total)")
    expect(rounds).to_have_text(["finished", "6"])
    expect(page.get_by_role("link", name=re.compile("Enter hand"))).to_have_count(0)

    # The entry page itself turns a phone away once the game is over.
    page.goto(page.url.split("#")[0].replace("?key=", "/hands/new?key="))
    expect(page.locator(".flash")).to_contain_text("The game is over.")
    expect(page.locator("h1")).not_to_have_text(re.compile("Enter hand"))
