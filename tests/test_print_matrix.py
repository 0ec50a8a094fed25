"""The print matrix: every game's filled and blank sheet, on A4 and Letter, with names in eight scripts
and at 40 characters, short (4 rounds) and long (30 rounds) games.

Each sheet is rendered once (in this process) and every assertion reads the same render: the page
count, the text layer (pypdf), the fonts (pdffonts: embedded, no Type 3 fallback) and the glyphs
(no glyph 0, .notdef, anywhere in the text: every character drawn was in one of the named fonts).
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
from functools import cache
from io import BytesIO
from pathlib import Path

import pytest
from pypdf import PdfReader

from companion import games
from companion.paper import sheets

ROOT = Path(__file__).resolve().parent.parent

#: A club's names: Latin with diacritics, Greek, Cyrillic, Arabic, Hebrew, CJK, Devanagari, Tamil.
SCRIPTS = ["Łukasz Żółć", "Νικόλαος", "Дмитрий", "محمد الأحمد", "נועה כהן", "山田 美咲", "अर्जुन शर्मा", "கார்த்திக்"]
#: Names pypdf reads back from the text layer as written.
READS_BACK = {"Łukasz Żółć", "Νικόλαος", "Дмитрий", "山田 美咲"}
#: Names poppler's pdftotext reads back in their logical order (right to left, Tamil and Devanagari, each
#: shaped line marked with its text as set: companion.paper.text_layer).
POPPLER_READS_BACK = {**{name: name for name in READS_BACK}, "נועה כהן": "נועה כהן", "கார்த்திக்": "கார்த்திக்",
                      "محمد الأحمد": "محمد الأحمد", "अर्जुन शर्मा": "अर्जुन शर्मा"}
BIDI_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F])
LONG = "Anne-Marie Fitzgerald-Okonkwo of Kildare"
#: Games whose four rounds fit one page with everyday names (tests/test_paper.py) but whose why, naming
#: players and allies in every line, runs onto a second with these 40-letter names.
WHY_RUNS_ON = {"alliance-royals", "marriage-royals"}
assert len(LONG) == games.MAX_NAME_LENGTH == 40

pytestmark = pytest.mark.skipif(shutil.which("pdffonts") is None, reason="needs poppler-utils (pdffonts)")


def _bench():
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "bench" / "run.py")
    module = importlib.util.module_from_spec(spec)
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return module


@cache
def long_games() -> dict[str, dict]:
    return _bench().thirty_round_games()


def renamed(request: dict, names: list[str]) -> dict:
    """The same game with its players renamed (every mention of a name, as a JSON string, replaced)."""
    text = json.dumps(request, ensure_ascii=False)
    for old, new in zip(request["players"], names, strict=False):
        text = text.replace(json.dumps(old, ensure_ascii=False), json.dumps(new, ensure_ascii=False))
    return json.loads(text)


def names_for(slug: str, offset: int, count: int) -> list[str]:
    pool = SCRIPTS + [LONG]
    return [pool[(offset + i) % len(pool)] for i in range(count)]


def game_of(slug: str, rounds: int) -> dict:
    game = long_games()[slug]
    options = dict(game["options"])
    if slug == "rally-the-king":
        options["hands"] = rounds
    return dict(game, options=options, rounds=game["rounds"][:rounds])


#: Every game (bench/run.py has a thirty-round game of each).
SLUGS = sorted(games.ENGINES)
assert set(SLUGS) <= set(long_games())
#: Where each game's names start in the pool of scripts (each game gets a different mix).
NAME_OFFSET = {"alliance-royals": 0, "indian-rummy": 2, "rally-the-king": 4, "royalty": 6, "rummathon-royale": 8,
               "rummy-royal": 10, "battle-royals": 5, "marriage-royals": 1}
#: Short games on both papers (Letter is the shorter page); long ones on one or the other.
FILLED = [(slug, rounds, paper) for n, slug in enumerate(SLUGS)
          for rounds, paper in ((4, "a4"), (4, "letter"), (30, ("letter", "a4")[n % 2]))]
#: Every game's blank sheet on one paper or the other; both papers for the widest (Royalty's six
#: players, Indian Rummy's nine).
BLANK = [(slug, paper) for n, slug in enumerate(SLUGS)
         for paper in (("a4", "letter") if slug in ("royalty", "indian-rummy") else (("a4", "letter")[n % 2],))]


@cache
def filled(slug: str, rounds: int, paper: str):
    game = game_of(slug, rounds)
    offset = NAME_OFFSET[slug] + (rounds > 4)
    request = renamed(game, names_for(slug, offset, len(game["players"])))
    scored = games.score(request)
    pdf = sheets.render_filled(scored, "Club night", "2025-11-21", request["options"], None, paper,
                               rounds=request["rounds"])
    return request, scored, pdf


@cache
def blank(slug: str, paper: str):
    engine = games.ENGINES[slug]
    count = min(engine.MAX_PLAYERS, 9)
    names = [LONG[: 40 - len(str(i))] + str(i) if i % 2 else name for i, name in enumerate(names_for(slug, 0, count))]
    return names, sheets.render_blank(slug, names, paper)


def text_of(pdf: bytes) -> tuple[PdfReader, list[str]]:
    reader = PdfReader(BytesIO(pdf))
    return reader, [page.extract_text() for page in reader.pages]


def squeeze(text: str) -> str:
    return re.sub(r"\s", "", text)


def glyph_zero_count(pdf: bytes) -> int:
    """How often glyph 0 (.notdef: a character no font had) is drawn in the PDF's text."""
    reader = PdfReader(BytesIO(pdf))
    found = 0
    for page in reader.pages:
        data = page.get_contents().get_data().decode("latin-1")
        for block in re.findall(r"BT(.*?)ET", data, re.S):
            for hexes in re.findall(r"<([0-9a-fA-F]+)>", block):
                found += sum(hexes[i:i + 4] == "0000" for i in range(0, len(hexes), 4))
    return found


@cache
def covered() -> frozenset[int]:
    """Every character some font of the sheets' stack (print.css) has a glyph for."""
    from fontTools.ttLib import TTCollection, TTFont

    css = (ROOT / "scoresheets" / "print.css").read_text(encoding="utf-8")
    stack = re.search(r"html \{\s*font-family: (.*?);", css, re.S).group(1)
    families = re.findall(r'"([^"]+)"', stack)
    chars: set[int] = set()
    for family in families:
        path = subprocess.run(["fc-match", "-f", "%{file}", family], capture_output=True, text=True,
                              check=True).stdout
        with TTCollection(path) if path.endswith(".ttc") else TTFont(path, lazy=True) as font:
            first = font.fonts[0] if isinstance(font, TTCollection) else font
            chars.update(first.getBestCmap() or {})
    return frozenset(chars)


def uncovered(text: str) -> set[str]:
    return {c for c in text if not c.isspace() and ord(c) not in covered()}


def pdftotext(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return out.translate(BIDI_CONTROLS)


def check_fonts(pdf: bytes, tmp_path: Path) -> list[str]:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
    rows = out.splitlines()[2:]
    assert rows, "no fonts at all"
    for row in rows:
        assert "Type 3" not in row, row
        assert " yes yes yes " in row, f"not embedded, subset and mapped to Unicode: {row}"
    return [row.split()[0].split("+")[-1] for row in rows]


@pytest.mark.parametrize(("slug", "rounds", "paper"), [
    pytest.param(s, r, p, id=f"{s}-{r}-{p}") for s, r, p in FILLED])
def test_filled_sheet(slug, rounds, paper, tmp_path):
    request, scored, pdf = filled(slug, rounds, paper)
    reader, pages = text_of(pdf)
    # Sized to the game: four rounds fit one page; thirty, each round's why restated in full, no more than
    # seven. Rummy Royal prints every chip's movement (RM-7) and the board after each deal as well, so it
    # takes a page more; so does the Royals' why with names this long (WHY_RUNS_ON).
    most = (1 if rounds == 4 else 7) + (slug == "rummy-royal") + (rounds == 4 and slug in WHY_RUNS_ON)
    assert len(reader.pages) <= most, f"{slug}: {rounds} rounds on {len(reader.pages)} pages"
    size = (612.0, 792.0) if paper == "letter" else (595.28, 841.89)
    assert all((round(float(p.mediabox.width), 2), round(float(p.mediabox.height), 2)) in (size, size[::-1])
               for p in reader.pages)
    text = "\n".join(pages)
    for name in set(request["players"]) & READS_BACK:
        assert squeeze(name) in squeeze(text), name
    poppler = squeeze(pdftotext(pdf, tmp_path))
    for name in set(request["players"]) & set(POPPLER_READS_BACK):
        assert squeeze(POPPLER_READS_BACK[name]) in poppler, name
    assert not uncovered("".join(request["players"]))
    if "│" in text:  # a long game's ledger (companion.paper.long_sheets): its last line holds the totals
        last = next(p for p in pages if re.search(rf"^\s*{len(request['rounds'])}\s", p, re.M))
        assert re.search(rf"^\s*{len(request['rounds']) - 1}\s", last, re.M), "the last line is not stranded"
    else:  # the total is never stranded: the page with TOTAL also carries rows of the grid above it
        total_page = next(p for p in pages if re.search(r"^TOTAL\b", p, re.M))
        assert len(re.findall(r"^\s*\d+\s", total_page, re.M)) >= 2
    # A note on the grid follows its TOTAL row on the same page.
    for page in pages:
        if "Under each score" in page:
            assert re.search(r"^TOTAL\b", page.split("Under each score")[0], re.M), page[:300]
    # Totals as the engine gives them, with a true minus sign.
    for player in scored.players:
        assert sheets.number(scored.totals[player]) in text
    # a negative number is printed with a true minus sign; hyphens in words and in ranges (8-9-10) are fine
    assert not re.search(r"(?<![\w-])-\d", text.split("WHY EACH SCORE")[0])
    assert glyph_zero_count(pdf) == 0
    fonts = check_fonts(pdf, tmp_path)
    assert any(font.startswith("DejaVu") for font in fonts)


@pytest.mark.parametrize(("slug", "paper"), BLANK, ids=[f"{s}-{p}" for s, p in BLANK])
def test_blank_sheet(slug, paper, tmp_path):
    names, pdf = blank(slug, paper)
    reader, pages = text_of(pdf)
    assert len(reader.pages) == 1, f"{slug}: {len(names)} names on {len(reader.pages)} pages"
    landscape = float(reader.pages[0].mediabox.width) > float(reader.pages[0].mediabox.height)
    assert landscape == (slug != "royalty"), "Royalty's six players print in portrait, the rest across"
    text = squeeze(pages[0])
    for name in set(names) & READS_BACK:
        assert squeeze(name) in text, name
    poppler = squeeze(pdftotext(pdf, tmp_path))
    for name in set(names) & set(POPPLER_READS_BACK):
        assert squeeze(POPPLER_READS_BACK[name]) in poppler, name
    assert not uncovered("".join(names))
    # Long names wrap inside their column: every character of them is on the page.
    for name in names:
        if name.startswith("Anne-Marie"):
            assert squeeze(name).replace("-", "") in text.replace("-", "")
    assert glyph_zero_count(pdf) == 0
    check_fonts(pdf, tmp_path)


def test_the_scripts_draw_from_the_noto_families(tmp_path):
    fonts = set()
    for slug, rounds, paper in FILLED:
        fonts.update(check_fonts(filled(slug, rounds, paper)[2], tmp_path))
    assert {"Noto-Sans-CJK-JP", "Noto-Sans-Devanagari", "Noto-Sans-Tamil"} <= fonts, fonts


def test_the_coverage_check_finds_a_character_no_font_has():
    # U+0D80 is unassigned (in the Sinhala block): no font has it; every script of the club's names is covered.
    assert uncovered("Ann \u0d80") == {"\u0d80"}
    assert not uncovered("".join(SCRIPTS) + LONG + "♠♥♦♣−⚠")


def test_an_arabic_name_keeps_the_numbers_after_it_in_place():
    html = str(sheets.isolate("Łukasz 10 + محمد الأحمد 65 = 75"))
    assert html == 'Łukasz 10 + <bdi dir="rtl">محمد الأحمد</bdi> 65 = 75'
    request, scored, _pdf = filled("indian-rummy", 4, "a4")
    html = sheets.html_for_filled(scored, "Club night", rounds=request["rounds"])
    plot = html.split('class="chart"')[1].split("</svg>")[0]
    legend = html.split('class="chart-legend"')[1].split("</ul>")[0]
    for name in request["players"]:
        assert name not in plot and name in legend, f"{name}: names go in the HTML legend, not the SVG"


@pytest.mark.parametrize("slug", SLUGS)
def test_a_total_reads_the_same_in_the_grid_and_the_standing(slug):
    """What a round gave is signed (+16); a total is plain (16) in the grid and the standing alike."""
    request, scored, _pdf = filled(slug, 4, "a4")
    html = sheets.html_for_filled(scored, "Club night", rounds=request["rounds"])
    standing = re.split(r'<table class="standing(?: bounded)?">', html)[1].split("</table>")[0]
    cells = re.findall(r'<td class="num">([^<]*)</td>', standing)
    assert cells and not [c for c in cells if c.strip().startswith("+")], cells
    grid_totals = re.findall(r'<td class="tot final"[^>]*>([^<]*)</td>', html)
    assert not [c for c in grid_totals if c.strip().startswith("+")], grid_totals


def test_money_with_cents_keeps_two_decimals_throughout():
    request = {"game": "indian-rummy", "players": ["Ann", "Ben", "Cat"], "options": {"point_value": 0.25},
               "rounds": [{"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 40},
                                                                    "Cat": {"count": 13}}}]}
    scored = games.score(request)
    html = sheets.html_for_filled(scored, "Club night", rounds=request["rounds"])
    standing = html.split('<table class="standing">')[1].split("</table>")[0]
    money = [re.findall(r'<td class="num">([^<]*)</td>', row)[1] for row in standing.split("<tr")[2:]]
    assert money == ["13.25", "\u221210.00", "\u22123.25"], money  # 53 × 0.25; 40 × 0.25; 13 × 0.25


#: Right-to-left names as poppler reads them back: as set, the lam-alef ligature of "الأحمد" included.
RTL_READ = {"محمد الأحمد": "محمد الأحمد", "נועה כהן": "נועה כהן"}


@pytest.mark.parametrize("slug", [s for s in SLUGS if set(RTL_READ) & set(names_for(s, NAME_OFFSET[s], 9))])
def test_a_colon_after_a_right_to_left_name_follows_it(slug, tmp_path):
    """"محمد الأحمد: House ♦": each right-to-left name is isolated (<bdi>), so the colon after it follows it
    in the text read back and sits right of it on the page, where an English line puts it."""
    request, scored, pdf = filled(slug, 4, "a4")
    html = sheets.html_for_filled(scored, "Club night", "2025-11-21", request["options"], None, "a4",
                                  rounds=request["rounds"])
    plain = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html.split("<body")[1]))
    flat = re.sub(r"\s+", " ", pdftotext(pdf, tmp_path))
    from .pdf_checks import words

    found = words(pdf)
    for name in set(RTL_READ) & set(request["players"]):
        wanted = plain.count(f"{name}:")
        assert wanted and flat.count(f"{RTL_READ[name]}:") == wanted, (name, wanted)
        assert f":{RTL_READ[name]}" not in flat.replace(" ", "")
        # On the page: the word carrying the colon is the name's first word (drawn rightmost), the colon last
        # (a shaped line's text is read as one word, in the order drawn: companion.paper.text_layer).
        first = name.split()[0]
        drawn = [w for w in found if w.text.endswith(":") and w.text[:-1].split()[-1:] == [first[::-1]]]
        assert len(drawn) == wanted, (name, [w.text for w in found if first[::-1] in w.text])


@pytest.mark.parametrize("slug", SLUGS)
def test_four_rounds_with_long_and_non_latin_names_take_the_same_pages_on_either_paper(slug):
    """Laid out in the room both papers have (sheets.SHEET_BOX_MM): Marriage Royals with such names took one
    A4 page and two Letter pages, seven lines on the second."""
    from .pdf_checks import layout_differences

    assert layout_differences(filled(slug, 4, "a4")[2], filled(slug, 4, "letter")[2]) == []
