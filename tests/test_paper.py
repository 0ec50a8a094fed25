"""The paper as good as the engine: every total printed for any name, as few pages as the game needs,
nothing under 7.5pt and no word within 5 mm of the paper's edge, charts that tell the truth.

Each sheet is rendered once (cached) and every assertion reads the same render.
"""

from __future__ import annotations

import random
import re
import secrets
import string
import subprocess
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from companion import games
from companion.core import limits
from companion.paper import chart, sheets

from . import (
    test_alliance_royals,
    test_indian_rummy,
    test_rally_the_king,
    test_royals,
    test_royalty,
    test_rummathon_royale,
    test_rummy_royal,
)
from .pdf_checks import layout_differences, near_the_edge, needs_poppler, page_count, page_texts, too_small, words
from .print_games import everyday_game, sheet_cost

SLUGS = sorted(games.ENGINES)
PAPERS = ["a4", "letter"]
#: Forty letters, no space: the longest name the limits allow (MAX_NAME_CHARS), as one word.
ONE_WORD = "Wolfeschlegelsteinhausenbergerdorffvoral"
assert len(ONE_WORD) == games.MAX_NAME_LENGTH


def rename(value: Any, names: dict[str, str]) -> Any:
    """A request with its players renamed: every string (or key) that is exactly a player's name."""
    if isinstance(value, dict):
        return {names.get(k, k): rename(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [rename(v, names) for v in value]
    return names.get(value, value) if isinstance(value, str) else value


def render(request: dict[str, Any], paper: str) -> bytes:
    scored = games.score(request)
    return sheets.render_filled(scored, "Club night", "2025-11-21", request.get("options"), None, paper,
                                rounds=request["rounds"])


@cache
def everyday_sheet(slug: str, paper: str) -> bytes:
    return render(everyday_game(slug), paper)


def grid_totals(pdf: bytes) -> list[str]:
    """The numbers of the grid's TOTAL row, as the text layer gives them."""
    found = [line.split()[1:] for page in PdfReader(BytesIO(pdf)).pages for line in page.extract_text().splitlines()
             if line.startswith("TOTAL ")]
    return found[0] if found else []


def expected_totals(request: dict[str, Any]) -> list[str]:
    scored = games.score(request)
    return [sheets.number(scored.totals[p]) for p in scored.players] + \
        [sheets.number(v) for v in (scored.side_totals or {}).values()]


# ---------------------------------------------------------------------------------------
# As few pages as the game needs


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("slug", SLUGS)
def test_four_rounds_with_everyday_names_print_on_one_page(slug, paper):
    pdf = everyday_sheet(slug, paper)
    pages = page_texts(pdf)
    if slug == "rummy-royal":
        # Under its deals the board after each deal, its caption with it; four deals' why, restated in full
        # (every chip's movement, RM-7), runs onto a second page.
        assert len(pages) == 2, len(pages)
        assert "THE BOARD AFTER EACH DEAL" in pages[0] and "WHY EACH SCORE" in pages[0]
        assert "Each row: the chips left on every space" in re.sub(r"\s+", " ", pages[0])
        assert "Deal 4" in pages[1]
    else:
        assert len(pages) == 1, f"{slug} on {paper}: {len(pages)} pages"
    assert grid_totals(pdf) == expected_totals(everyday_game(slug))


@cache
def sized_sheet(slug: str, players: int | None, rounds: int, names: str, paper: str) -> bytes:
    bench = sheet_cost()
    return sheets.pdf_from_html(bench.sheet_html(bench.game(slug, players, rounds, names), paper))


#: Sizes printed on both papers (four rounds with 40-letter and non-Latin names: tests/test_print_matrix.py):
#: the games found a page longer on Letter (30 rounds of Battle Royals and of Rummathon Royale), and Marriage
#: Royals' twelve rounds with names in eight scripts.
SIZES = [("battle-royals", None, 30, "everyday"), ("rummathon-royale", None, 30, "everyday"),
         ("marriage-royals", 3, 12, "scripts")]


@pytest.mark.parametrize(("slug", "players", "rounds", "names"), SIZES,
                         ids=[f"{s}-{r}-{n}" for s, _, r, n in SIZES])
def test_a_sheet_takes_the_same_pages_on_letter_as_on_a4(slug, players, rounds, names):
    """A sheet is laid out in the room both papers have (sheets.SHEET_BOX_MM): the same pages, each word in
    the same place on the page but for the margins, on A4 and on Letter."""
    a4, letter = (sized_sheet(slug, players, rounds, names, paper) for paper in PAPERS)
    assert layout_differences(a4, letter) == []


@pytest.mark.parametrize("slug", SLUGS)
def test_four_rounds_with_everyday_names_take_the_same_pages_on_either_paper(slug):
    assert layout_differences(everyday_sheet(slug, "a4"), everyday_sheet(slug, "letter")) == []


@pytest.mark.parametrize(("players", "deals"), [(4, 10), (9, 8)])
def test_rummy_royals_board_follows_its_deals_and_the_last_page_holds_why(players, deals):
    """The board after each deal (RM-4, RM-7) prints under the deals' grid; the why comes last, so no page
    holds the board alone (10 deals at four and 8 at nine left it alone on a third and fourth page)."""
    pages = page_texts(sized_sheet("rummy-royal", players, deals, "everyday", "a4"))
    board = next(n for n, page in enumerate(pages) if "THE BOARD AFTER EACH DEAL" in page)
    grid = next(n for n, page in enumerate(pages) if re.search(r"^TOTAL\b", page, re.M))
    assert board in (grid, grid + 1)
    assert "WHY EACH SCORE" in "".join(pages[board:]) and "THE BOARD" not in "".join(pages[board + 1:])
    assert f"Deal {deals}" in pages[-1]


# ---------------------------------------------------------------------------------------
# Legible: nothing under 7.5pt, nothing within 5 mm of the edge


@cache
def blank_sheet(slug: str, paper: str) -> bytes:
    engine = games.ENGINES[slug]
    names = [ONE_WORD[: 39] + str(n) for n in range(min(engine.MAX_PLAYERS, 9))]
    return sheets.render_blank(slug, names, paper)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("slug", SLUGS)
def test_filled_sheets_print_nothing_small_and_nothing_near_the_edge(slug, paper):
    pdf = everyday_sheet(slug, paper)
    assert too_small(pdf) == []
    assert near_the_edge(pdf) == []


@pytest.mark.parametrize("slug", SLUGS)
def test_blank_sheets_print_nothing_small_and_nothing_near_the_edge(slug):
    for paper in PAPERS:
        pdf = blank_sheet(slug, paper)
        assert page_count(pdf) == 1, f"{slug} on {paper}"
        assert too_small(pdf) == [], paper
        assert near_the_edge(pdf) == [], paper


def test_the_smallest_text_check_finds_small_text():
    tiny = sheets.pdf_from_html("<p style='font-size: 6pt'>small print</p><p>body</p>")
    assert too_small(tiny) == [(6.0, "small print")]
    at_the_edge = sheets.pdf_from_html("<style>@page { margin: 2mm }</style><p>edge</p>")
    assert [w.text for w in near_the_edge(at_the_edge)] == ["edge"]


def test_a_pack_page_prints_nothing_small_and_nothing_near_the_edge():
    for paper in PAPERS:
        html = sheets.html_for_blank("indian-rummy", ["Ann", ONE_WORD, "محمد"], paper,
                                     heading="Club night · Round 1 · Table 3", link="http://club.example/t/x?key=y",
                                     pack={"tournament": "Club night", "round": 1, "rounds": 3, "table": 3,
                                           "date": "21 November 2025", "options": "Variant: Pool rummy (101)"})
        pdf = sheets.pdf_from_html(html)
        assert page_count(pdf) == 1
        assert too_small(pdf) == [], paper
        assert near_the_edge(pdf) == [], paper


def test_nine_long_names_on_letter_print_every_total_with_the_chart_on_page_one():
    nine = test_indian_rummy.NAMES[:9]
    request = {"game": "indian-rummy", "players": nine, "options": {"variant": "points"},
               "rounds": [{"wild": "7", "winner": nine[n], "hands": {p: {"count": 10 + 7 * ((i + n) % 9)}
                                                                     for i, p in enumerate(nine) if p != nine[n]}}
                          for n in range(4)]}
    request = rename(request, {p: ONE_WORD[:38] + f"{i:02d}" for i, p in enumerate(nine)})
    pdf = render(request, "letter")
    assert grid_totals(pdf) == expected_totals(request)
    assert near_the_edge(pdf) == [] and too_small(pdf) == []
    # What does not fit goes on to page 2 without leaving page 1 half blank: page 1's words reach its
    # lowest quarter (the footer apart).
    first = [w for w in words(pdf) if w.page == 1]
    footer = min(w.y0 for w in first if w.text == "Courtier")
    assert max(w.y1 for w in first if w.y1 < footer) > 0.75 * first[0].height


# ---------------------------------------------------------------------------------------
# Every total printed, whatever the names: a property over random names and random valid games


#: Letters of many scripts, and emoji: names are drawn from any mix of them.
LETTERS = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZÀÉÎÕÜçñßøŁłŻźĞş'-"
           "ΑΒΓΔαβγδЖЯщыДабв" "ابتثجحخدمحد" "אבגדהוזחטנועה" "山田美咲李王张伟金민준" "अरजुनशमा" "கார்த்தி" "กขคง"
           "😀🎉🃏🎲🦊👑")
WORD = st.text(alphabet=LETTERS, min_size=1, max_size=40)
NAME = st.one_of(WORD, st.lists(st.text(alphabet=LETTERS, min_size=1, max_size=12), min_size=2, max_size=5)
                 .map(" ".join).filter(lambda name: len(name) <= games.MAX_NAME_LENGTH))


@st.composite
def family_games(draw, slug: str, players: list[str]) -> dict[str, Any]:
    """Battle Royals (two players) or Marriage Royals (three): one to four rounds dealt from the pack."""
    request = {"game": slug, "players": players, "options": {}, "rounds": []}
    for _ in range(draw(st.integers(1, 4))):
        if games.score(request).over:
            break
        request["rounds"].append(test_royals.dealt(draw, players))
    return request


def any_game(slug: str) -> st.SearchStrategy[dict[str, Any]]:
    """A random valid game of ``slug``, from the generators its own tests use."""
    players = test_rally_the_king.PLAYERS
    return {
        "alliance-royals": test_alliance_royals.games(),
        "battle-royals": family_games("battle-royals", ["Ann", "Ben"]),
        "marriage-royals": family_games("marriage-royals", ["Ann", "Ben", "Cat"]),
        "indian-rummy": st.sampled_from(["points", "pool101", "pool201", "deals"]).flatmap(test_indian_rummy.games)
        .map(lambda r: {"game": "indian-rummy", **r}),
        "rally-the-king": test_rally_the_king.games().map(
            lambda g: {"game": "rally-the-king", "players": players, "options": g[0], "rounds": g[1]}),
        "royalty": st.booleans().flatmap(lambda joust: test_royalty.games(joust=joust))
        .map(lambda r: {"game": "royalty", **r}),
        "rummathon-royale": test_rummathon_royale.games(),
        "rummy-royal": test_rummy_royal.games().map(
            lambda g: {"game": "rummy-royal", "players": g[0], "options": g[1], "rounds": g[2]}),
    }[slug].filter(lambda request: request["rounds"])


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=3, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
@given(data=st.data())
def test_every_total_is_printed_and_nothing_nears_the_edge_whatever_the_names(slug, data):
    needs_poppler()
    request = data.draw(any_game(slug), label="game")
    names = data.draw(st.lists(NAME.map(limits.tidy).filter(lambda name: limits.name_problem(name) is None),
                               min_size=len(request["players"]),
                               max_size=len(request["players"]), unique_by=str.casefold), label="names")
    request = rename(request, dict(zip(request["players"], names, strict=True)))
    pdf = render(request, data.draw(st.sampled_from(PAPERS), label="paper"))
    assert grid_totals(pdf) == expected_totals(request)
    assert near_the_edge(pdf) == []


@pytest.mark.parametrize("paper", PAPERS)
def test_a_no_declaring_tag_wraps_inside_the_standing(paper):
    """Cat declared and failed (RR-5): the standing says "no declaring" beside her round, under it
    when the column is full, never over her score or off the paper."""
    needs_poppler()
    request = {"game": "rummathon-royale", "players": ["Ann", "Ben", "Cat", "Dan"], "options": {},
               "rounds": [{"out": "Ann", "left": {"Ben": {}, "Cat": {}},
                           "burdens": [{"on": "Dan", "by": "Ann", "double": True, "completed": True}],
                           "progress": {"Cat": "declared-failed", "Dan": "completed"}}]}
    pdf = render(request, paper)
    assert "NO DECLARING" in page_texts(pdf)[0]
    assert near_the_edge(pdf) == []


# ---------------------------------------------------------------------------------------
# Scripts and emoji


def test_an_emoji_in_a_name_prints_in_an_embedded_font(tmp_path):
    needs_poppler()
    request = rename(everyday_game("indian-rummy"), {"Margaret": "Maggie 🃏", "Jonathan": "Jon🎉"})
    pdf = render(request, "a4")
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
    emoji = [row for row in fonts.splitlines() if "Emoji" in row]
    assert emoji and all(" yes yes yes " in row and "Type 3" not in row for row in emoji), fonts
    digits = [row for row in fonts.splitlines()[2:] if "DejaVu" in row]
    assert digits, "the digits stay in DejaVu"
    text = "".join(page_texts(pdf))
    assert "Maggie 🃏" in text and "Jon🎉" in text
    assert grid_totals(pdf) == expected_totals(request)


def test_rally_the_king_keeps_one_trick_together():
    hand = {"dealer": "Ann", "bid": "one-trick", "declarer": "Ben", "declarer_tricks": 1}  # RK-4
    request = {"game": "rally-the-king", "players": ["Ann", "Ben", "Cat", "Dan"], "options": {}, "rounds": [hand]}
    html = sheets.html_for_filled(games.score(request), "Club", rounds=request["rounds"])
    assert "1&nbsp;trick" in html
    lines = [line for page in page_texts(render(request, "letter")) for line in page.splitlines()]
    assert any("1\u00a0trick" in line or "1 trick" in line for line in lines)


# ---------------------------------------------------------------------------------------
# Charts that tell the truth


#: The chart writes its coordinates to a tenth of a unit: a point, and the grid line it is read against,
#: may each sit 0.05 off besides the nudge.
ROUNDING = 0.1


def half_a_line(value) -> float:
    """Half a line's width (and the rounding of coordinates), as a value on the chart's axis."""
    return (chart.LINE_WIDTH / 2 + ROUNDING) * abs(value(1) - value(0))


def chart_points(svg: str) -> tuple[list[list[tuple[float, float]]], Any]:
    """Each polyline's points, and the map from a y position back to a value (read from the grid lines)."""
    polylines = re.findall(r'<polyline points="([^"]+)"', svg)
    lines = [[tuple(map(float, pt.split(","))) for pt in points.split()] for points in polylines]
    ticks = re.findall(r'<line x1="[\d.]+" y1="([\d.]+)" x2="[\d.]+" y2="[\d.]+" stroke="#d5d5d5"[^>]*/>\s*'
                       r'<text [^>]*text-anchor="end">([^<]+)</text>', svg)
    (y_a, v_a), (y_b, v_b) = [(float(y), float(label.replace("\u2212", "-"))) for y, label in (ticks[0], ticks[-1])]
    return lines, lambda y: v_a + (y - y_a) * (v_b - v_a) / (y_b - y_a)


def test_equal_totals_are_nudged_by_at_most_half_a_line():
    nine = [f"P{n}" for n in range(9)]
    rounds = [dict.fromkeys(nine, 80), dict.fromkeys(nine, 549)]
    svg = chart.progression_svg(nine, rounds, width=400, height=125, legend=False)
    lines, value = chart_points(svg)
    assert len(lines) == 9
    for line in lines:
        for (_, y), true in zip(line, [0, 80, 629], strict=True):
            assert abs(value(y) - true) <= half_a_line(value), (value(y), true)
    assert max(map(abs, chart.nudges(9))) <= chart.LINE_WIDTH / 2


def test_a_chip_game_starts_at_the_starting_chips_and_spans_the_swings():
    request = everyday_game("rummy-royal")
    scored = games.score(request)
    svg, _ = sheets.running_chart(scored.as_json(), "deal")
    lines, value = chart_points(svg)
    chips = request["options"]["chips"]
    assert all(abs(value(line[0][1]) - chips) <= half_a_line(value) for line in lines)
    reached = [t for r in range(len(scored.rounds)) for t in sheets._running(scored.as_json())[r].values()]
    low_tick = float(re.findall(r'text-anchor="end">([^<]+)</text>', svg)[0].replace("\u2212", "-"))
    assert low_tick > 0 and low_tick <= min(reached)  # the axis spans the chips held, not down to 0
    for line, player in zip(lines, scored.players, strict=True):
        last = value(line[-1][1])
        assert abs(last - scored.totals[player]) <= half_a_line(value)


@cache
def axis_sheet() -> bytes:
    """The sheets' chart (400 units printed 112 mm wide, text 9.6 units) of 1 to 60 rounds, one to a line."""
    charts = "".join(f'<div style="width: 112mm; break-inside: avoid">{chart.progression_svg(["A", "B"], [{"A": 5, "B": -5}] * n, width=400, height=84, font_size=sheets.CHART_FONT, legend=False)}</div>' for n in range(1, 61))  # noqa: E501
    return sheets.pdf_from_html(f"<style>{sheets.print_css()}</style>{charts}")


def test_the_x_axis_labels_never_touch():
    """"start" and the rounds under the plot: every label its own word, at least 1 pt from the next
    ("start2" was read when the first round's label touched "start")."""
    found = words(axis_sheet())
    starts = [w for w in found if w.text.startswith("start")]
    assert len(starts) == 60 and all(w.text == "start" for w in starts), [w.text for w in starts if w.text != "start"]
    for start in starts:
        line = sorted((w for w in found if w.page == start.page and abs(w.y0 - start.y0) < 1), key=lambda w: w.x0)
        assert [w.text for w in line][0] == "start" and all(w.text.isdigit() for w in line[1:])
        gaps = [b.x0 - a.x1 for a, b in zip(line, line[1:], strict=False)]
        assert min(gaps) >= 1, (line[-1].text, [w.text for w in line], gaps)


def plot_height(svg: str) -> tuple[float, float]:
    """The plot's top and bottom, from the y axis."""
    top, bottom = re.search(r'<line x1="[\d.]+" y1="([\d.]+)" x2="[\d.]+" y2="([\d.]+)" stroke="#000" '
                            r'stroke-width="0.8"/>', svg).groups()
    return float(top), float(bottom)


def test_bounds_far_from_the_scores_are_marked_at_the_edge_and_the_lines_use_the_plot():
    """Alliance Royals' 1066 and −333 (AR-12) with totals within 60 of 0: the axis spans the scores, the lines
    use most of the plot's height, and each bound is named with an arrow outside the plot. A bound the scores
    come near is drawn across the plot, dashed."""
    targets = sheets.chart_targets("alliance-royals", {})
    near_zero = [{"A": 40, "B": -25}, {"A": -15, "B": 35}, {"A": 30, "B": -50}]
    svg = chart.progression_svg(["A", "B"], near_zero, width=400, height=125, targets=targets, legend=False)
    top, bottom = plot_height(svg)
    ys = [y for line in chart_points(svg)[0] for _, y in line]
    assert max(ys) - min(ys) >= 0.5 * (bottom - top), (min(ys), max(ys), top, bottom)
    assert 'stroke-dasharray="4 2"' not in svg
    assert "\u2191 <tspan>above 1066 wins</tspan>" in svg and "\u2193 <tspan>below \u2212333 ends</tspan>" in svg
    halfway = [{"A": 400, "B": -25}, {"A": 300, "B": 35}]  # A on 700: 1066 is far above, −333 near
    svg = chart.progression_svg(["A", "B"], halfway, width=400, height=125, targets=targets, legend=False)
    assert svg.count('stroke-dasharray="4 2"') == 1 and ">below \u2212333 ends</text>" in svg
    assert "\u2191 <tspan>above 1066 wins</tspan>" in svg
    near_the_end = halfway + [{"A": 250, "B": 0}]  # A on 950: both bounds drawn across the plot
    svg = chart.progression_svg(["A", "B"], near_the_end, width=400, height=125, targets=targets, legend=False)
    assert svg.count('stroke-dasharray="4 2"') == 2 and ">above 1066 wins</text>" in svg
    # In the PDF, at the sheet's size and the table page's: the bound named below keeps clear of the x axis's
    # title on the same line.
    for width, font_size in ((400, sheets.CHART_FONT), (300, 11.5)):  # the table page draws 11.5-unit labels
        svg = chart.progression_svg(["A", "B"], near_zero, width=width, height=125, targets=targets, legend=False,
                                    font_size=font_size)
        found = words(sheets.pdf_from_html(f'<div style="width: 112mm">{svg}</div>'))
        title, bound = (next(w for w in found if w.text == text) for text in ("round", "\u2193"))
        assert abs(title.y0 - bound.y0) < 1 and title.x1 + 2 < bound.x0, (title, bound)


def test_a_forty_letter_name_keeps_its_swatch_and_its_letters_together_in_the_legend(tmp_path):
    """The legend sets a 40-letter one-word name beside its line's sample, shortened with an ellipsis
    rather than broken mid-word (the grid and the standing print it whole)."""
    from PIL import Image

    request = rename(everyday_game("battle-royals"), {"Margaret": ONE_WORD})
    pdf = render(request, "a4")
    found = words(pdf)
    legend = [w for w in found if w.text.startswith("Wolfe") and w.text.endswith("\u2026")]
    assert len(legend) == 1, [w.text for w in found if "Wolfe" in w.text]
    assert not [w for w in found if w.text in ("voral", "dorffvoral")]
    name = legend[0]
    (tmp_path / "sheet.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "150", "-f", "1", "-l", "1", "-png", "-singlefile", str(tmp_path / "sheet.pdf"),
                    str(tmp_path / "page")], check=True)
    image = Image.open(tmp_path / "page.png").convert("RGB")
    scale = 150 / 72
    # The first line's sample (chart.COLOURS[0], #1f4e9c) is in the 8 mm left of the name, on its line.
    left, right = int((name.x0 - 8 * 72 / 25.4) * scale), int(name.x0 * scale)
    rows = [y for y in range(int((name.y0 - 12) * scale), int((name.y1 + 12) * scale))
            if any(sum(abs(a - b) for a, b in zip(image.getpixel((x, y)), (0x1F, 0x4E, 0x9C), strict=True)) < 90
                   for x in range(left, right))]
    assert rows, "no sample beside the name"
    middle = (min(rows) + max(rows)) / 2 / scale
    assert name.y0 - 1 <= middle <= name.y1 + 1, (middle, name.y0, name.y1)


# ---------------------------------------------------------------------------------------
# A QR code every phone reads


def _token(draw: random.Random, length: int) -> str:
    """A random token in the alphabet of :func:`secrets.token_urlsafe`."""
    return "".join(draw.choice(string.ascii_letters + string.digits + "-_") for _ in range(length))


def _pack_codes_at_150_dpi(links: list[str], tmp: Path) -> list[Path]:
    """The pack's QR box (sheets.qr_svg at PACK_QR_MM in print.css's qr-box), one a page, printed and
    scanned at 150 dpi: the top left of each page, where the code is, 320 pixels (54 mm) square."""
    needs_poppler()
    boxes = "".join(f'<div class="pack-qr" style="break-after: page"><div class="qr-box">'
                    f'{sheets.qr_svg(link, sheets.PACK_QR_MM)}</div></div>' for link in links)
    pdf = sheets.pdf_from_html(f"<html><head><style>@page {{ size: A4; margin: 8mm }} {sheets.print_css()}</style>"
                               f"</head><body>{boxes}</body></html>")
    (tmp / "codes.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "150", "-W", "320", "-H", "320", "-gray", "-png", f"{tmp}/codes.pdf",
                    f"{tmp}/page"], check=True)
    return sorted(tmp.glob("page-*.png"))


def _table_links(draw: random.Random, count: int) -> list[str]:
    return [f"http://club.example/t/{_token(draw, 12)}?key={_token(draw, 22)}" for _ in range(count)]


def test_fifty_fresh_random_table_links_read_back_at_150_dpi_with_a_phones_reader(tmp_path):
    """New random keys every run, read by ZXing, the open reader many phone apps are built on."""
    zxingcpp = pytest.importorskip("zxingcpp")
    from PIL import Image

    links = _table_links(random.Random(secrets.randbits(64)), 50)
    images = _pack_codes_at_150_dpi(links, tmp_path)
    read = [[code.text for code in zxingcpp.read_barcodes(Image.open(image))] for image in images]
    assert read == [[link] for link in links], [link for got, link in zip(read, links, strict=True) if got != [link]]


def test_fifty_random_table_links_read_back_at_150_dpi_with_opencv(tmp_path):
    """OpenCV's standard detector, on fifty random keys drawn from a fixed seed: it misses about one
    random code in 500 at 150 dpi (14 in 1000 drawn pixel-perfect, which ZXing all reads; which codes
    depends on their content, not their size or quiet zone), so fresh keys each run would fail now and
    then. These fifty are new random keys all the same, and the same every run."""
    cv2 = pytest.importorskip("cv2")
    links = _table_links(random.Random(25), 50)
    detector = cv2.QRCodeDetector()
    read = [detector.detectAndDecode(cv2.imread(str(image)))[0] for image in _pack_codes_at_150_dpi(links, tmp_path)]
    assert read == links, [n for n, (got, link) in enumerate(zip(read, links, strict=True)) if got != link]


def test_the_pack_code_is_at_least_26_mm_with_a_quiet_zone():
    svg = sheets.qr_svg("http://club.example/t/abcdefghijkl?key=" + "k" * 22, sheets.PACK_QR_MM)
    width = float(re.search(r'width="([\d.]+)mm"', svg).group(1))
    assert sheets.PACK_QR_MM >= 26 and width > sheets.PACK_QR_MM  # the modules, then four more all round
