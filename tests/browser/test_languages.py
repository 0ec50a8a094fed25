"""A phone's choice of language, made with the buttons at the foot of the page, by tap and by keyboard:
the whole page in that language (its ``lang`` too), the same page, nothing wider than the phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion import create_app
from tests.live import served


@pytest.fixture
def speaking_site(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "languages.sqlite"), "SECRET_KEY": "languages-secret",
                      "LANGUAGES": "en fr hi"})
    with served(app) as base:
        yield base


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 360, "height": 740}])
def test_a_phone_changes_language_again_and_again_and_stays_on_its_page(speaking_site, phone, size):
    page = phone(viewport=size).new_page()
    page.goto(speaking_site + "/new/indian-rummy")
    for name, code, label in (("Français", "fr", "Langue"), ("हिन्दी", "hi", "भाषा"), ("English", "en", "Language"),
                              ("Français", "fr", "Langue")):
        page.get_by_role("button", name=name).tap()
        expect(page.locator("html")).to_have_attribute("lang", code)
        expect(page.locator("#language-label")).to_have_text(label)
        expect(page.get_by_role("button", name=name)).to_have_attribute("aria-pressed", "true")
        assert page.url == speaking_site + "/new/indian-rummy"
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    box = page.get_by_role("button", name="English").bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44

    page.get_by_role("button", name="हिन्दी").focus()
    page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", "hi")
    expect(page.get_by_role("heading", level=1)).not_to_have_text("")
