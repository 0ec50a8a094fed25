"""Downloading a score sheet from a table on a phone, and checking what it prints."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

pytestmark = pytest.mark.browser

#: A PDF is drawn in the server's worker process; on a loaded two-core machine that can take over 30 s.
SHEET_WAIT_MS = 180_000


def test_download_the_score_sheet_of_a_table(live_server, phone, tmp_path):
    page = phone(accept_downloads=True).new_page()
    page.goto(live_server + "/new/rummathon-royale")
    for seat, name in enumerate(("Ann", "Ben", "Cat"), 1):
        page.fill(f"#seat{seat}", name)
    page.fill("#title", "Sunday sheet")
    page.get_by_role("button", name="Start the table").click()
    page.get_by_role("link", name="Enter hand 1", exact=True).click()
    page.locator("label.seg:has(input[name='out'][value='Ann'])").click()
    page.fill("#p1_low", "3")  # Ben 3 x 5 = 15 to Ann (RR-1, RR-2)
    page.fill("#p2_flex", "1")  # Cat 25 to Ann
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".flash")).to_contain_text("Hand saved")

    with page.expect_download(timeout=SHEET_WAIT_MS) as download:
        page.get_by_role("link", name="Score sheet (PDF)").click()
    path = tmp_path / "sheet.pdf"
    download.value.save_as(path)
    reader = PdfReader(path)
    assert len(reader.pages) >= 1
    text = "\n".join(p.extract_text() for p in reader.pages)
    for expected in ("Sunday sheet", "RUMMATHON ROYALE", "Ann", "Ben", "Cat", "40", "RR-2", "Game in progress"):
        assert expected in text, expected

    with page.expect_download(timeout=SHEET_WAIT_MS) as blank:
        page.get_by_role("link", name="Blank sheet").click()
    blank_path = tmp_path / "blank.pdf"
    blank.value.save_as(blank_path)
    assert len(PdfReader(blank_path).pages) == 1
