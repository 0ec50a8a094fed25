"""Offline at the table in the phone's language: the words the scripts write (the list of saves waiting, the
offline banner) and the service worker's "No signal" page in French and in Hindi, at both phone sizes,
nothing wider than the phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from companion import create_app
from tests.browser.test_offline import SLOW, ready_for_offline
from tests.browser.test_table_flow import THREE, fill_hand
from tests.live import served

pytestmark = pytest.mark.browser

#: What each language says, as its catalog has it: the hand form's link and save, a save waiting, the banner,
#: the worker's page for a page the phone never kept.
SAID = {
    "fr": {"enter": "Saisir la donne 1", "save": "Enregistrer la donne 1",
           "waiting": "Donne 1\u00a0: en attente d’envoi", "banner": "Hors ligne depuis", "no_signal": "Pas de réseau",
           "start": "Ouvrir la table"},
    "hi": {"enter": "बाज़ी 1 दर्ज करें", "save": "बाज़ी 1 सेव करें", "waiting": "बाज़ी 1: भेजे जाने की राह में",
           "banner": "से ऑफ़लाइन।", "no_signal": "सिग्नल नहीं", "start": "मेज़ शुरू करें"},
}


@pytest.fixture(scope="module")
def speaking_site(tmp_path_factory):
    app = create_app({"DATABASE": str(tmp_path_factory.mktemp("offline-languages") / "site.sqlite"),
                      "SECRET_KEY": "offline-languages", "LANGUAGES": "en fr hi"})
    with served(app) as base:
        yield base


def start(page: Page, base: str, start_label: str) -> None:
    page.goto(base + "/new/rummathon-royale")
    for seat, name in enumerate(THREE, 1):
        page.fill(f"#seat{seat}", name)
    page.get_by_role("button", name=start_label).click()
    expect(page).to_have_url(re.compile(r"/t/[\w-]+\?key=[\w-]+$"))


@pytest.mark.parametrize(("code", "size"), [("fr", {"width": 390, "height": 844}),
                                            ("hi", {"width": 360, "height": 740})])
def test_a_hand_saved_offline_and_the_no_signal_page_are_in_the_phone_s_language(speaking_site, phone, code, size):
    said = SAID[code]
    context = phone(viewport=size)
    context.add_cookies([{"name": "courtier-language", "value": code, "url": speaking_site}])
    page = context.new_page()
    start(page, speaking_site, said["start"])
    ready_for_offline(page)
    context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-banner")).to_contain_text(said["banner"], timeout=SLOW)
    page.get_by_role("link", name=said["enter"], exact=True).click()
    fill_hand(page, THREE, out="Ann", left={"Ben": {"low": 2}})
    page.get_by_role("button", name=said["save"], exact=True).click()
    expect(page.locator("#outbox")).to_contain_text(said["waiting"], timeout=SLOW)
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    page.screenshot(path=f"/tmp/courtier-offline-{code}-{size['width']}.png", full_page=True)

    page.goto(speaking_site + "/rules/royalty")  # never opened on this phone
    expect(page.locator("h1")).to_have_text(said["no_signal"], timeout=SLOW)
    expect(page.locator("html")).to_have_attribute("lang", code)
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
