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


def choose(page, name: str, code: str) -> None:
    """A language tapped at the foot of the page: done when the page has come back in it."""
    page.get_by_role("button", name=name).tap()
    expect(page.locator("html")).to_have_attribute("lang", code)


def test_what_was_typed_stays_through_a_change_of_language(speaking_site, phone):
    """A language chosen in the middle of typing brings the same page back in that language with everything typed
    in it put back: the seats of a new table, and a deal half entered, its live check (IR-4) asked again in the
    new language. Saved after a change back, the deal scores as typed (tests/browser/test_indian_rummy.py's
    first deal: Ann declares, Ben's 13 cards arranged for 49, Cat's first drop 20)."""
    from tests.browser.steps import start, totals

    page = phone().new_page()
    page.goto(speaking_site + "/new/indian-rummy")
    page.fill("#seat1", "Ann")
    page.fill("#seat2", "Ben")
    choose(page, "Français", "fr")
    expect(page.locator("#seat1")).to_have_value("Ann")
    expect(page.locator("#seat2")).to_have_value("Ben")
    choose(page, "English", "en")

    start(page, speaking_site, "Indian Rummy", ("Ann", "Ben", "Cat"), variant="pool101")
    page.get_by_role("link", name="Enter deal 1", exact=True).click()
    page.select_option("#wild", "7")
    page.select_option("#winner", "Ann")
    page.fill("#p0_groups", "AH 2H 3H | 5S 6S 7D 8S | QC QD QS | 9H 10H JH")
    expect(page.locator("#p0_groups-check li.yes")).to_have_count(4)
    page.select_option("#p1_mode", "cards")
    page.fill("#p1_cards", "4C 5C 6C 8D 9D 10D KS QD 2H 3S 5D 9C JC")
    page.select_option("#p2_mode", "first")
    choose(page, "Français", "fr")
    expect(page.locator("#wild")).to_have_value("7")
    expect(page.locator("#winner")).to_have_value("Ann")
    expect(page.locator("#p0_groups")).to_have_value("AH 2H 3H | 5S 6S 7D 8S | QC QD QS | 9H 10H JH")
    expect(page.locator("#p0_groups-check li.yes")).to_have_count(4)
    expect(page.locator("#p0_groups-check")).to_contain_text("séquence pure")
    expect(page.locator("#p1_cards")).to_be_visible()
    expect(page.locator("#p1_cards")).to_have_value("4C 5C 6C 8D 9D 10D KS QD 2H 3S 5D 9C JC")
    expect(page.locator("#p2_mode")).to_have_value("first")
    choose(page, "English", "en")
    expect(page.locator("#p0_groups-check")).to_contain_text("pure sequence")
    page.get_by_role("button", name="Save deal 1").click()
    expect(page.locator(".flash")).to_contain_text("Deal saved")
    assert totals(page) == {"Ann": "0", "Ben": "49", "Cat": "20"}
    # What was kept is put back once, into that page alone: the next deal's form starts empty.
    assert page.evaluate("sessionStorage.getItem('courtier-typed')") is None
    page.get_by_role("link", name="Enter deal 2", exact=True).click()
    expect(page.locator("#winner")).to_have_value("")
