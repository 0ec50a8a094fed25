"""Rally the King in French on a phone, the game French tarot players know: a whole four-hand game entered
with the French chooser, every hand (cards counted, a King called, a bird, a bonus, a trick contract, a
refused count), the why, the history, the end and its winner, the sheet; the game's words in French
(le preneur, le Roi appelé, les bouts, le chien…) and nothing wider than the phone. Screenshots of each
step go to /tmp/shots-rally-fr/.

The game is the one tests/browser/test_rally_the_king.py works by hand (RK-3 to RK-10):
  1. Ann deals; Ben, partner against the stock (Appel garde contre, 3), calls KH, Dan holds it; 62 card
     points counted, won; the sparrow made, not announced. Ann −4, Ben +4, Cat −4, Dan +4.
  2. Ben deals; Cat's solo, 38 card points, lost (a fifth King refused first). Ann 0, Ben +8, Cat −16, Dan +8.
  3. Cat deals; Dan's one trick, exactly one taken, won. Ann −2, Ben +6, Cat −18, Dan +14.
  4. Dan deals; Ann's solo, 71, won, the Kings announced and made. Ann +16, Ben 0, Cat −24, Dan +8: Ann wins.
"""

from __future__ import annotations

import base64
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from companion import create_app
from tests import pdf_checks
from tests.browser.steps import totals
from tests.live import served

pytestmark = pytest.mark.browser

PLAYERS = ("Ann", "Ben", "Cat", "Dan")
SHOTS = Path("/tmp/shots-rally-fr")
SIZES = [{"width": 390, "height": 844}, {"width": 360, "height": 740}]
#: English words of the game's own sentences: none of them may show in its French parts.
ENGLISH = re.compile(r"\b(declarer|defenders|against|card points|called|held it|alone|each way|announced|target|"
                     r"won|lost|tricks?|Honours|Kings|Queens|Bonuses|Dealer|Partner|Solo by|Hand \d)\b")


@pytest.fixture
def french_site(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "rally-fr.sqlite"), "SECRET_KEY": "rally-fr-secret",
                      "LANGUAGES": "fr hi"})
    with served(app) as base:
        yield base


class Walk:
    """One phone's walk through the game: each step checked for width and shot."""

    def __init__(self, page: Page, size: dict[str, int]):
        self.page, self.size, self.step = page, size, 0

    def shot(self, name: str) -> None:
        """Nothing wider than the phone, then a screenshot of the whole page."""
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= self.size["width"], f"{name}: {width}px wide on a {self.size['width']}px phone"
        self.step += 1
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{self.size['width']}-{self.step:02d}-{name}.png"), full_page=True)

    def french_only(self, locator) -> None:
        """The game's own words in this part of the page are French."""
        text = locator.inner_text()
        assert not ENGLISH.findall(text), (ENGLISH.findall(text), text)

    def new_hand(self, number: int, dealer: str) -> None:
        self.page.locator("a[href*='/hands/new']").first.click()
        expect(self.page.locator("label[for='dealer']")).to_have_text("Donneur (RK-10)")
        expect(self.page.locator("#dealer")).to_have_value(dealer)  # the deal passes left (RK-10)

    def save(self, expected: dict[str, str]) -> None:
        """Save, and wait for the table's page the save opens: the form's page shows the board too, and a
        change that moves no total (a note) would be seen there before the save had landed."""
        form_page = self.page.url
        self.page.locator("form.rk-entry button[type='submit']").click()
        expect(self.page).not_to_have_url(form_page)
        expect(self.page.locator(".flash").first).to_be_visible()
        expect(self.page.locator("#board .standings")).to_be_visible()
        expect(self.page.locator("#board .standings tbody tr td.total").first).to_have_text(expected["Ann"])
        assert totals(self.page) == expected

    def count(self, **counts: int) -> None:
        for kind, n in counts.items():
            self.page.fill(f"#c_{kind}", str(n))


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_a_whole_game_of_rally_the_king_in_french(french_site, phone, size):
    page = phone(viewport=size).new_page()
    walk = Walk(page, size)
    page.goto(french_site + "/")
    page.get_by_role("button", name="Français").tap()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.get_by_role("link", name="Rally the King", exact=True).click()
    expect(page.get_by_text("Décompte des points (RK-3)")).to_be_visible()
    for seat, name in enumerate(PLAYERS, 1):
        page.fill(f"#seat{seat}", name)
    walk.shot("nouvelle-table")
    page.get_by_role("button", name="Ouvrir la table").click()
    expect(page.locator("a[href*='/hands/new']").first).to_be_visible()
    expect(page.locator("#board p.hint:not(.pad-note):not(.chart-says)")).to_contain_text("Donne 0 sur 4")
    walk.shot("table")

    # Hand 1: a King called, the cards counted, the sparrow (RK-3, RK-5, RK-7, RK-8).
    walk.new_hand(1, "Ann")
    expect(page.locator("#bid option[value='partner-against-stock']")).to_have_text("Appel garde contre — 3")
    page.select_option("#bid", "partner-against-stock")
    expect(page.locator("label[for='declarer']")).to_have_text("Preneur")
    page.select_option("#declarer", "Ben")
    expect(page.locator("#called_king option[value='KH']")).to_have_text("♥ Roi de Cœur")
    page.select_option("#called_king", "KH")
    expect(page.locator("label[for='partner']")).to_have_text("Qui avait le Roi appelé\u00a0? (RK-5)")
    page.select_option("#partner", "Dan")
    expect(page.locator("label[for='c_honours']")).to_have_text("Bouts (5)")
    walk.count(honours=2, kings=3, queens=2, cavaliers=1, valets=2, others=15, tricks=7)
    expect(page.locator("[data-card-total]")).to_have_text("62 points — objectif atteint")
    page.get_by_text("Primes (RK-8)").click()
    page.select_option("#bo_sparrow_side", "declarer")
    page.check("#bo_sparrow_made")
    walk.french_only(page.locator("form.rk-entry fieldset, form.rk-entry details.bonuses").first)
    walk.french_only(page.locator("form.rk-entry details.bonuses"))
    walk.shot("donne-1")
    walk.save({"Ann": "−4", "Ben": "+4", "Cat": "−4", "Dan": "+4"})
    expect(page.locator("#board h3").first).to_have_text("Donne 1 · Appel garde contre par Ben")
    walk.shot("apres-donne-1")

    # Hand 2: a fifth King refused beside its box, then Cat's solo, short of 60 (RK-1, RK-3).
    walk.new_hand(2, "Ben")
    page.select_option("#bid", "solo")
    page.select_option("#declarer", "Cat")
    expect(page.locator("#partner")).to_be_hidden()
    walk.count(honours=1, kings=5, queens=1, cavaliers=1, valets=1, others=10, tricks=4)
    page.locator("form.rk-entry button[type='submit']").click()
    expect(page.locator("#c_kings-error")).to_have_text("Le jeu en compte 4.")
    expect(page.locator("#c_others")).to_have_value("10")
    walk.shot("donne-2-refusee")
    page.fill("#c_kings", "2")
    expect(page.locator("[data-card-total]")).to_have_text("38 points — il en faut 60")
    walk.save({"Ann": "0", "Ben": "+8", "Cat": "−16", "Dan": "+8"})

    # Hand 3: one trick, exactly one taken (RK-4).
    walk.new_hand(3, "Cat")
    page.select_option("#bid", "one-trick")
    page.select_option("#declarer", "Dan")
    expect(page.locator("label[for='declarer_tricks']")).to_have_text("Plis faits par le preneur")
    page.fill("#declarer_tricks", "1")
    walk.shot("donne-3")
    walk.save({"Ann": "−2", "Ben": "+6", "Cat": "−18", "Dan": "+14"})

    # Hand 4: Ann's solo and the Kings announced and made; the game ends (RK-8, RK-10).
    walk.new_hand(4, "Dan")
    page.select_option("#bid", "solo")
    page.select_option("#declarer", "Ann")
    walk.count(honours=3, kings=4, queens=2, cavaliers=2, valets=1, others=12, tricks=8)
    page.get_by_text("Primes (RK-8)").click()
    page.select_option("#bo_kings_side", "declarer")
    page.check("#bo_kings_announced")
    page.check("#bo_kings_made")
    walk.shot("donne-4")
    walk.save({"Ann": "+16", "Ben": "0", "Cat": "−24", "Dan": "+8"})
    result = page.locator("#board .result")
    expect(result).to_contain_text("Après 4 donnes, la partie est finie\u00a0: Ann a le meilleur total, +16 (RK-10).")
    expect(page.locator("#board p.hint:not(.pad-note):not(.chart-says)").first).to_contain_text("Donne 4 sur 4")
    expect(page.locator("a[href*='/hands/new']")).to_have_count(0)
    walk.french_only(page.locator("#board .standings"))
    walk.shot("fin")

    # The why of hand 1, on the board and on its own page (RK-5, RK-7, RK-8).
    page.locator("#why-1 summary").click()
    why = page.locator("#why-1 .why-body")
    expect(why).to_contain_text("Ben a appelé KH\u00a0; Dan l’avait\u00a0: Ben et Dan contre Ann et Cat (RK-5)")
    expect(why).to_contain_text("Cartes prises par le camp du preneur, décompte individuel\u00a0: 2 bouts × 5")
    expect(why).to_contain_text("Moineau réussi par le camp du preneur, non annoncé\u00a0: moitié de 2 = 1 par joueur")
    expect(why).to_contain_text("Donne −4\u00a0; total −4 (RK-7, RK-10)")
    walk.french_only(why.locator("ul").first)
    why.scroll_into_view_if_needed()
    walk.shot("pourquoi-donne-1")
    table = page.url.split("?")[0]
    key = page.url.split("key=")[1] if "key=" in page.url else ""
    page.goto(table + "/hands/4/why")
    expect(page.locator("body")).to_contain_text("Rois annoncé et réussi par le camp du preneur\u00a0: 2 par joueur")
    walk.french_only(page.locator("ul").first)
    walk.shot("pourquoi-donne-4")

    # A note added to hand 4 afterwards: the scores stand.
    page.goto(f"{table}/hands/4/edit?key={key}")
    expect(page.locator("label[for='note']")).to_have_text("Note (facultatif)")
    page.fill("#note", "Petit au bout")
    walk.save({"Ann": "+16", "Ben": "0", "Cat": "−24", "Dan": "+8"})

    # The history names each hand's contract, the part of a hand changed and the phone, in French.
    page.goto(f"{table}/history" + (f"?key={key}" if key else ""))
    expect(page.locator("body")).to_contain_text("Appel garde contre par Ben")
    expect(page.locator("body")).to_contain_text("Un pli par Dan")
    expect(page.locator("body")).to_contain_text("Donne 4 modifiée\u00a0: Note\u00a0: rien → Petit au bout")
    expect(page.locator(".meta").first).to_contain_text("Téléphone ")
    walk.french_only(page.locator("main"))
    walk.shot("historique")

    # The sheet, printed in the asker's language on one page.
    # Fetched by the page itself, with the phone's language: what its sheet link downloads.
    pdf = base64.b64decode(page.evaluate(
        """async (url) => {
             const answer = await fetch(url);
             if (!answer.ok) return "";
             const bytes = new Uint8Array(await answer.arrayBuffer());
             let text = "";
             for (const b of bytes) text += String.fromCharCode(b);
             return btoa(text);
           }""", table + "/sheet.pdf"))
    assert pdf.startswith(b"%PDF")
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / f"{size['width']}-feuille.pdf").write_bytes(pdf)
    assert pdf_checks.page_count(pdf) == 1
    if shutil.which("pdftotext"):
        text = " ".join(pdf_checks.page_texts(pdf))
        packed = "".join(text.split())  # the PDF's text breaks a word where its letters are kerned apart
        for words in ("Contrat", "Résultat", "Appelgardecontre", "Classement", "Décompte",
                      "BenaappeléKH", "Donne−6;total−24(RK-7,RK-10)"):
            assert words.casefold() in packed.casefold(), words  # a sheet's headings print in capitals
        assert not re.search(r"\b(Dealer|Contract|Result|Standing|won|lost|against|declarer)\b", text), text
    if shutil.which("pdftoppm"):
        walk.step += 1
        subprocess.run(["pdftoppm", "-png", "-r", "60", "-singlefile", str(SHOTS / f"{size['width']}-feuille.pdf"),
                        str(SHOTS / f"{size['width']}-{walk.step:02d}-feuille")], check=True)

    # The trick referee answers in French (RK-11).
    page.goto(french_site + "/referee/rally-the-king/trick")
    for n, card in enumerate(("KS", "T1", "T21", "F"), 1):
        page.fill(f"#card{n}", card)
    page.get_by_role("button", name="Qui gagne\u00a0?").click()
    verdict = page.locator(".verdict")
    expect(verdict).to_contain_text("La carte 2 gagne\u00a0: T1")
    expect(verdict).to_contain_text("Le Petit (T1), le 21 (T21) et l’Excuse (F) sont tous dans le pli")
    walk.french_only(verdict)
    walk.shot("arbitre-du-pli")
