"""The running-totals chart's words keep apart and stay readable over its lines (companion/paper/chart.py).

The Royals games' charts carry two bounds (AR-12, BR-3, MR-6): 1066 above, −333 below. Drawn for the
table page (300 units, 12-unit letters, shown on a 360 px phone) and for the sheet (400 units, the
sheet's 9.6), narrower still, in English, French and Hindi, with the scores near 0 (both bounds far,
named outside the plot), near −333 (that bound drawn across the plot) and near both: no two of the
chart's texts (the bounds' captions, the x axis's title, the axes' labels) share any room, each is
within the chart, and every caption is drawn after (over) the players' lines and markers, on a white
ground of its own.
"""

from __future__ import annotations

import itertools
import re

import pytest

from companion.core import messages
from companion.paper import chart, sheets

LANGUAGES = ("en", "fr", "hi")
GAMES = ("alliance-royals", "battle-royals", "marriage-royals")
#: (width, height, font size): the table page's chart, the sheet's (a short game's lower), and narrower ones.
SIZES = ((300, 190, 12), (240, 190, 12), (400, 125, sheets.CHART_FONT), (300, 125, sheets.CHART_FONT),
         (400, sheets.SHORT_CHART_HEIGHT, sheets.CHART_FONT))
#: Each round's points for two lines.
GAMES_PLAYED = {
    "near 0": [{"A": 40, "B": -25}, {"A": -15, "B": 35}, {"A": 30, "B": -50}],
    "near -333": [{"A": -120, "B": 30}, {"A": -100, "B": 10}, {"A": -90, "B": -20}],  # A on −310
    "near both": [{"A": 400, "B": -120}, {"A": 300, "B": -100}, {"A": 250, "B": -90}],  # A on 950, B on −310
}
ROUND_NAME = "hand"

TEXT = re.compile(r'<text (?P<attrs>[^>]*)>(?P<body>.*?)</text>', re.S)
GROUND = re.compile(r'<rect class="caption-ground" x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)"')
ATTR = re.compile(r'([\w-]+)="([^"]*)"')


def texts(svg: str, font_size: float) -> list[tuple[str, tuple[float, float, float, float], bool]]:
    """Every text of the chart: its words, the room its letters take (from its position, anchor and size, its
    width as chart.caption_width estimates it, erring wide; from a capital's top to a descender's foot), and
    whether it is a caption."""
    found = []
    for m in TEXT.finditer(svg):
        attrs = dict(ATTR.findall(m.group("attrs")))
        words = re.sub(r"<[^>]+>", "", m.group("body")).replace("&amp;", "&")
        size, x, y = float(attrs.get("font-size", font_size)), float(attrs["x"]), float(attrs["y"])
        wide = chart.caption_width(words, size)
        x0 = x - {"start": 0, "middle": wide / 2, "end": wide}[attrs.get("text-anchor", "start")]
        found.append((words, (x0, y - 0.74 * size, x0 + wide, y + 0.22 * size), attrs.get("class") == "caption"))
    return found


def grounds(svg: str) -> list[tuple[float, float, float, float]]:
    """The white grounds the captions are drawn on, in the order drawn."""
    return [(float(x), float(y), float(x) + float(w), float(y) + float(h)) for x, y, w, h in GROUND.findall(svg)]


def chart_of(game: str, code: str, played: list[dict[str, int]], width: int, height: int, font_size: float) -> str:
    messages.set_language(code)
    targets = sheets.chart_targets(game, {})
    return chart.progression_svg(["A", "B"], played, width=width, height=height, round_name=ROUND_NAME,
                                 targets=targets, legend=False, font_size=font_size)


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("played", sorted(GAMES_PLAYED))
def test_the_charts_words_never_share_room(game, code, played):
    wrong = []
    for width, height, font_size in SIZES:
        svg = chart_of(game, code, GAMES_PLAYED[played], width, height, font_size)
        found = texts(svg, font_size)
        assert len(found) >= 5, svg  # the y labels, "start" and the hands, the title, the bounds
        said = f"{width}x{height} at {font_size}"
        for (a, box_a, _), (b, box_b, _) in itertools.combinations(found, 2):
            if chart.overlaps(box_a, box_b):
                wrong.append(f"{said}: {a!r} {box_a} meets {b!r} {box_b}")
        captions = [(words, box) for words, box, caption in found if caption]
        for ground, (words, own) in zip(grounds(svg), captions, strict=True):
            wrong += [f"{said}: the ground of {words!r} hides {other!r}" for other, box, _ in found
                      if box != own and chart.overlaps(ground, box)]
        for words, (x0, y0, x1, y1) in captions:
            if x0 < 0 or x1 > width or y0 < 0 or y1 > height:
                wrong.append(f"{said}: {words!r} {(x0, y0, x1, y1)} leaves the chart")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("played", sorted(GAMES_PLAYED))
def test_the_bounds_captions_are_drawn_over_the_lines_on_a_ground_of_their_own(code, played):
    for width, height, font_size in SIZES:
        svg = chart_of("alliance-royals", code, GAMES_PLAYED[played], width, height, font_size)
        last_line = max(svg.rindex("<polyline"), *(svg.rfind(f"<{shape}") for shape in ("circle", "polygon")))
        captions = [m.start() for m in re.finditer(r'<text class="caption"', svg)]
        grounds = [m.start() for m in re.finditer(r'<rect class="caption-ground"', svg)]
        # Two bounds and the x axis's title, each on its own ground just before its words.
        assert len(captions) == len(grounds) == 3, svg
        assert min(grounds) > last_line, "a caption is drawn under the lines"
        assert all(g < c for g, c in zip(grounds, captions, strict=True))
        assert 'fill="#fff"' in svg[grounds[0]:captions[0]]


def test_the_french_bound_below_and_the_axis_title_take_rows_of_their_own_when_they_cannot_share_one():
    """The table page in French, scores near 0: "↓ en dessous de −333 : fin" and "après chaque donne" do
    not fit side by side on a 300-unit chart at 12 units, so the bound's caption takes the row above the
    title; in English at the sheet's size they still share one."""
    svg = chart_of("alliance-royals", "fr", GAMES_PLAYED["near 0"], 300, 190, 12)
    found = {words: box for words, box, _ in texts(svg, 12)}
    bound = next(box for words, box in found.items() if words.startswith("\u2193"))
    title = found[messages.render(chart.AFTER_EACH["hand"], "fr")]
    assert bound[3] <= title[1], (bound, title)  # the bound's row wholly above the title's
    svg = chart_of("alliance-royals", "en", GAMES_PLAYED["near 0"], 400, 125, sheets.CHART_FONT)
    found = {words: box for words, box, _ in texts(svg, sheets.CHART_FONT)}
    bound, title = found["\u2193 below \u2212333 ends"], found["after each hand"]
    assert abs(bound[3] - title[3]) < 0.5 and title[2] < bound[0], (bound, title)


def test_a_caption_box_meeting_another_is_caught():
    """The check itself: boxes that share room are told apart from boxes that only touch."""
    near = chart.Caption("below \u2212333 ends", 100, 50, "end", 10)
    assert chart.overlaps(near.box(), chart.Caption("after each hand", 20, 52, "start", 10).box())
    assert not chart.overlaps(near.box(), chart.Caption("after each hand", 20, 70, "start", 10).box())
