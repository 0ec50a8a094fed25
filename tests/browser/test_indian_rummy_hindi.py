"""Indian Rummy in Hindi on a phone: a whole game of pool 101, from the language button to the sheet.

Worked by hand (IR-3 to IR-9), players Ann, Ben, Cat, pool 101:
  Deal 1, 7s wild. Ann declares AH 2H 3H | 5S 6S 7D 8S | QC QD QS | 9H 10H JH (valid, 0). Ben gives
    his 13 cards: arranged 4C 5C 6C and 8D 9D 10D, loose KS QD 2H 3S 5D 9C JC = 49. Cat first drop 20.
    Totals 0, 49, 20.
  Deal 2, 5s wild. Cat declares 2S 3S 4S | 6H 7H 8H | 9C 10C JC QC | KD KS KH. Ann counts 30; Ben
    middle drop 40. Totals 30, 89, 20.
  Deal 3, 9s wild. Ann declares AS 2S 3S | 4D 5D 6D | 7C 8C 9H 10C | JH JD JC. Ben counts 25: 114,
    out at 101 or more. Cat two pure runs 2H 3H 4H and 6S 7S 8S, loose KC QH 10S 5C 9D 2C 3C = 10 + 10
    + 10 + 5 + 0 (9D wild) + 2 + 3 = 40. Totals 30, 114, 60; nobody in play above 79: rejoining open.
  Deal 4, Qs wild. Ann declares (not entered: the table checked it). Ben is out and stays out. Cat a
    wrong show, 80: 140, out. Ann is the last player in the pool and wins (IR-9).

The page's own frame (buttons, headings) is the shared pages' and is driven by its elements, not its
words; what this game says (the form's labels and choices, the live check, the why, the board, the end,
the history's deals, the sheet) is checked word for word in Hindi.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from companion import create_app
from tests.live import served

pytestmark = pytest.mark.browser

PLAYERS = ("Ann", "Ben", "Cat")
SHOTS = Path("/tmp/shots-rummy-hi")
SIZES = [{"width": 390, "height": 844}, {"width": 360, "height": 740}]


@pytest.fixture(scope="module")
def hindi_site(tmp_path_factory):
    app = create_app({"DATABASE": str(tmp_path_factory.mktemp("hindi") / "hindi.sqlite"),
                      "SECRET_KEY": "hindi-secret", "LANGUAGES": "fr hi", "RATELIMIT_ENABLED": False})
    with served(app) as base:
        yield base


def fits(page: Page, what: str) -> None:
    """Nothing on the page is wider than the phone."""
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{what}: the page scrolls sideways by {overflow} px"


def shot(page: Page, size: dict, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{size['width']}-{name}.png"), full_page=True)


def expect_totals(page: Page, expected: dict[str, str]) -> None:
    """Each player's total on the board, waited for (the board may be swapped in anew as it is read)."""
    rows = page.locator("#board .standings tbody tr")
    expect(rows).to_have_count(len(expected))
    for i, (name, total) in enumerate(expected.items()):
        expect(rows.nth(i).locator("th")).to_have_text(name)
        expect(rows.nth(i).locator("td.total")).to_have_text(total)


def open_deal(page: Page, wild: str, winner: str) -> None:
    page.locator("a[href*='/hands/new']").first.click()
    expect(page.locator("#wild")).to_be_visible()
    page.select_option("#wild", wild)
    page.select_option("#winner", winner)


def save(page: Page, size: dict, number: int) -> None:
    page.locator("form button[type='submit'].primary").click()
    expect(page.locator(".flash")).to_be_visible()
    expect(page.locator("#board")).to_be_visible()
    fits(page, f"deal {number} saved")
    shot(page, size, f"deal-{number}-saved")


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_a_pool_101_game_in_hindi_to_its_end(hindi_site, phone, size):
    context = phone(viewport=size)
    page = context.new_page()
    page.goto(hindi_site + "/")
    page.get_by_role("button", name="हिन्दी").tap()
    expect(page.locator("html")).to_have_attribute("lang", "hi")

    page.goto(hindi_site + "/new/indian-rummy")
    for seat, name in enumerate(PLAYERS, 1):
        page.fill(f"#seat{seat}", name)
    page.check("input[name='opt-variant'][value='pool101']")
    expect(page.locator("label", has=page.locator("input[value='pool101']"))).to_contain_text("पूल 101 (IR-9)")
    fits(page, "new table")
    shot(page, size, "new-table")
    page.locator("form button[type='submit'].primary").click()
    expect(page.locator("a[href*='/hands/new']").first).to_be_visible()
    table, key = page.url.split("#")[0].split("?key=")

    # Deal 1: the form's words, the live check of a group, an arranged loser, a first drop.
    open_deal(page, "7", "Ann")
    expect(page.locator("label[for='wild']")).to_have_text("वाइल्ड जोकर: कटा हुआ पत्ता (IR-2)")
    expect(page.locator("#wild option[value='7']")).to_have_text("7 जोकर हैं")
    expect(page.locator("#p2_mode option[value='first']")).to_have_text("फ़र्स्ट ड्रॉप (पहली चाल से पहले)")
    page.fill("#p0_groups", "AH 2H 3H | 5S 6S 7D 8S | QC QD QS | 9H 10H JH")
    expect(page.locator("#p0_groups-check li.yes")).to_have_count(4)
    expect(page.locator("#p0_groups-check")).to_contain_text("प्योर सीक्वेंस: पान के तीन पत्ते लगातार, इक्का छोटा")
    expect(page.locator("#p0_groups-check")).to_contain_text("इम्प्योर सीक्वेंस: हुकुम में 5S से 8S, 7S की जगह 7D")
    page.select_option("#p1_mode", "cards")
    page.fill("#p1_cards", "4C 5C 6C 8D 9D 10D KS QD 2H 3S 5D 9C JC")
    page.select_option("#p2_mode", "first")
    fits(page, "deal 1 form")
    shot(page, size, "deal-1-form")
    save(page, size, 1)
    expect_totals(page, {"Ann": "0", "Ben": "49", "Cat": "20"})

    # The why of deal 1, in Hindi.
    page.locator("#why-1 summary").click()
    why = page.locator("#why-1")
    expect(why).to_contain_text("पत्ते सबसे कम पॉइंट के लिए जमाए (IR-6)")
    expect(why).to_contain_text("फ़र्स्ट ड्रॉप: 20 (IR-7)")
    expect(why).to_contain_text("इस डील के पॉइंट 49: कुल 0 + 49 = 49 (IR-9)")
    expect(why).to_contain_text("सही डिक्लेयर से डील जीती: 13 पत्ते ग्रुप में, 3 सीक्वेंस, 2 प्योर; पॉइंट 0 (IR-5)")
    fits(page, "why of deal 1")
    shot(page, size, "why-1")

    # Deal 2: a declaration, a count, a middle drop.
    open_deal(page, "5", "Cat")
    page.fill("#p2_groups", "2S 3S 4S | 6H 7H 8H | 9C 10C JC QC | KD KS KH")
    page.select_option("#p0_mode", "count")
    page.fill("#p0_count", "30")
    page.select_option("#p1_mode", "middle")
    save(page, size, 2)
    expect_totals(page, {"Ann": "30", "Ben": "89", "Cat": "20"})

    # Deal 3: Ben goes out of the pool; the board says rejoining is open.
    open_deal(page, "9", "Ann")
    page.fill("#p0_groups", "AS 2S 3S | 4D 5D 6D | 7C 8C 9H 10C | JH JD JC")
    page.select_option("#p1_mode", "count")
    page.fill("#p1_count", "25")
    page.select_option("#p2_mode", "groups")
    page.fill("#p2_groups", "2H 3H 4H | 6S 7S 8S")
    page.fill("#p2_loose", "KC QH 10S 5C 9D 2C 3C")
    save(page, size, 3)
    expect_totals(page, {"Ann": "30", "Ben": "114", "Cat": "60"})
    board = page.locator("#board")
    expect(board.locator(".standings tbody tr").nth(1)).to_contain_text("बाहर")
    expect(board).to_contain_text("अभी रीजॉइन खुला है")
    expect(board.locator(".standings thead")).to_contain_text("खिलाड़ी")

    # Deal 4: Ben stays out; Cat's wrong show puts Cat out too, and Ann wins.
    open_deal(page, "Q", "Ann")
    expect(page.locator("#p1_mode")).to_have_value("out")
    expect(page.locator("label[for='p1_rejoin']")).to_have_text("इस डील में रीजॉइन (IR-9)")
    page.select_option("#p2_mode", "wrong_show")
    shot(page, size, "deal-4-form")
    save(page, size, 4)
    expect_totals(page, {"Ann": "30", "Ben": "114", "Cat": "140"})
    rows = board.locator(".standings tbody tr")
    expect(rows.nth(1)).to_contain_text("बाहर")
    expect(rows.nth(2)).to_contain_text("बाहर")
    expect(board.locator(".result")).to_contain_text(
        "डील 4 के बाद पूल में सिर्फ़ Ann बचे; बाक़ी सब 101 तक पहुँच गए (IR-9)।")
    page.locator("#why-4 summary").click()
    expect(page.locator("#why-4")).to_contain_text("रॉन्ग शो: 80 (IR-7)")
    expect(page.locator("#why-4")).to_contain_text("140 यानी 101 या ज़्यादा: पूल से बाहर (IR-9)")
    expect(page.locator("#why-4")).to_contain_text("डील 3 से पूल से बाहर: नहीं खेलते (IR-9)")
    fits(page, "the game's end")
    shot(page, size, "end")

    # The history: every deal entered, on the phone's width.
    page.goto(f"{table}/history?key={key}")
    expect(page.locator("html")).to_have_attribute("lang", "hi")
    expect(page.locator("ol.history > li")).to_have_count(4)
    expect(page.locator("ol.history > li").first).to_contain_text("डील 4 दर्ज हुई: Ann ने डिक्लेयर किया")
    fits(page, "history")
    shot(page, size, "history")

    # The sheet prints in the phone's language: Devanagari shaped, one page, as in English.
    pdf = page.request.get(table + "/sheet.pdf").body()
    path = SHOTS / f"{size['width']}-sheet.pdf"
    path.write_bytes(pdf)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, check=True).stdout.decode()
    assert "विजेता" in text and "बाहर" in text and "रॉन्ग शो" in text
    assert "page 1 of 1" in text or "1 / 1" in text or text.count("\f") == 1
    subprocess.run(["pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", str(path),
                    str(SHOTS / f"{size['width']}-sheet")], check=True)
