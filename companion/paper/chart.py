"""A small self-drawn SVG line chart: each player's running total after each round.

Made for the printed score sheet, so every line differs in its dash pattern and
its markers as well as its colour: the chart still reads when printed in black
and white. Pure: names and numbers in, SVG text out (names are escaped).

>>> svg = progression_svg(["Ann", "Ben"], [{"Ann": 10, "Ben": -5}, {"Ann": 0, "Ben": 20}])
>>> svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
True
>>> svg.count("<polyline")
2
>>> 'stroke-dasharray="6 3"' in svg, ">Ann</text>" in svg
(True, True)
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from ..core.messages import number, render, say

#: Dark enough to print well, far enough apart to tell on screen.
COLOURS = ("#1f4e9c", "#b03a2e", "#1e7b45", "#7d3c98", "#a35a00", "#0e6f80", "#4d4d4d", "#c2185b", "#5b6f00")
#: One dash pattern per line (solid first), so black-and-white prints keep the lines apart.
DASHES = ("", "6 3", "2 2", "9 3 2 3", "1 3", "12 4", "5 2 1 2 1 2", "3 5", "14 3 3 3")
#: One marker shape per line, for the same reason.
MARKERS = ("circle", "square", "triangle", "diamond", "ring", "box", "down", "cross", "plus")
#: Markers are drawn while the points stay this far apart.
MARKER_MIN_GAP = 9
#: The chart's own text is numbers and English words; names go in the page's legend.
FONT = "DejaVu Sans, sans-serif"
#: The y axis spans at least this much, so a game of small (or no) scores keeps whole-number ticks.
MIN_SPAN = 5
#: How far apart (in SVG units) the lines of players on equal totals are drawn, at most.
NUDGE = 1.3
#: The width of a player's line: a line drawn off its true place by half of it still covers that place.
LINE_WIDTH = 1.6


def nice_step(span: float, ticks: int = 5) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about ``ticks`` intervals over ``span``.

    >>> nice_step(100), nice_step(1066), nice_step(7), nice_step(0)
    (20, 500, 2, 1)
    """
    if span <= 0:
        return 1
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            step = factor * power
            return int(step) if step >= 1 else step
    return int(10 * power)  # pragma: no cover - the loop always returns


def running_totals(players: Sequence[str], rounds_points: Sequence[Mapping[str, float]],
                   start: Mapping[str, float] | None = None) -> dict[str, list[float]]:
    """Each player's total before the first round and after every round.

    >>> running_totals(["Ann", "Ben"], [{"Ann": 5, "Ben": 0}, {"Ann": -2, "Ben": 3}])
    {'Ann': [0, 5, 3], 'Ben': [0, 0, 3]}
    """
    out: dict[str, list[float]] = {}
    for p in players:
        total = (start or {}).get(p, 0)
        series = [total]
        for points in rounds_points:
            total += points.get(p, 0) or 0
            series.append(total)
        out[p] = series
    return out


def _number(value: float) -> str:
    """An axis label as the reader's language writes numbers (``1 000`` in French), the minus sign a true
    minus; in English whole numbers plainly."""
    return number(value if isinstance(value, float) and not value.is_integer() else int(value))


def _marker(shape: str, x: float, y: float, colour: str) -> str:
    r = 2.6
    filled = f'fill="{colour}" stroke="none"'
    hollow = f'fill="#fff" stroke="{colour}" stroke-width="1.1"'
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" {filled}/>'
    if shape == "ring":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" {hollow}/>'
    if shape in ("square", "box"):
        style = filled if shape == "square" else hollow
        return f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" {style}/>'
    if shape in ("triangle", "down"):
        d = -1 if shape == "triangle" else 1
        tip, base = y + d * r * 1.2, y - d * r * 0.8
        pts = f"{x:.1f},{tip:.1f} {x - r * 1.1:.1f},{base:.1f} {x + r * 1.1:.1f},{base:.1f}"
        return f'<polygon points="{pts}" {filled}/>'
    if shape == "diamond":
        pts = f"{x:.1f},{y - r * 1.3:.1f} {x + r * 1.3:.1f},{y:.1f} {x:.1f},{y + r * 1.3:.1f} {x - r * 1.3:.1f},{y:.1f}"
        return f'<polygon points="{pts}" {hollow}/>'
    if shape == "cross":
        return (f'<path d="M{x - r:.1f},{y - r:.1f}L{x + r:.1f},{y + r:.1f}M{x - r:.1f},{y + r:.1f}'
                f'L{x + r:.1f},{y - r:.1f}" stroke="{colour}" stroke-width="1.3" fill="none"/>')
    return (f'<path d="M{x - r:.1f},{y:.1f}H{x + r:.1f}M{x:.1f},{y - r:.1f}V{y + r:.1f}" '
            f'stroke="{colour}" stroke-width="1.3" fill="none"/>')


def legend_swatch(n: int, width: int = 26, height: int = 10) -> str:
    """The sample of line ``n`` (its colour, dash and marker) for a legend set beside the chart.

    A printed sheet sets its legend in HTML under the plot, where names in any script are shaped
    and read in their own direction; the SVG gives only the line's sample.

    >>> legend_swatch(1).count("stroke-dasharray")
    1
    """
    colour, dash, shape = COLOURS[n % len(COLOURS)], DASHES[n % len(DASHES)], MARKERS[n % len(MARKERS)]
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    y = height / 2
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="swatch" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" aria-hidden="true"><line x1="1" y1="{y}" x2="{width - 1}" y2="{y}" '
            f'stroke="{colour}" stroke-width="1.6"{dash_attr}/>{_marker(shape, width / 2, y, colour)}</svg>')


def _from_joining(line: Sequence[float], joined: tuple[int, float] | None) -> list[tuple[int, float]]:
    """The points of a player's line: from the start, or for a player seated late (``joined``: their
    first round and the score they joined with) from that score before their first round.

    >>> _from_joining([0, 20, 40], None)
    [(0, 0), (1, 20), (2, 40)]
    >>> _from_joining([0, 0, 40], (2, 10))
    [(1, 10), (2, 40)]
    >>> _from_joining([0, 0], (2, 10))
    []
    """
    if joined is None or joined[0] <= 1:
        return list(enumerate(line))
    first, joined_with = joined
    if first >= len(line):
        return []  # seated for a round not yet played
    return [(first - 1, joined_with)] + [(i, line[i]) for i in range(first, len(line))]


@dataclass(frozen=True)
class _Frame:
    """Where a value and a round land on the plot."""

    left: float
    top: float
    plot_w: float
    plot_h: float
    low: float
    high: float
    rounds: int

    def x(self, i: float) -> float:
        return self.left + (self.plot_w * i / self.rounds if self.rounds else 0)

    def y(self, v: float) -> float:
        return self.top + self.plot_h * (self.high - v) / (self.high - self.low)


def near_targets(values: Sequence[float], targets: Sequence[tuple[float, str]] = (),
                 from_zero: bool = True) -> tuple[list[tuple[float, str]], list[tuple[float, str]]]:
    """The game's bounds split into those near its scores, drawn across the plot, and those far off, which
    would flatten every line to a sliver: those are marked at the plot's edge instead. A bound is near when
    it lies within half the scores' own span beyond them.

    >>> near_targets([0, 40, -25], [(1066, "above 1066 wins"), (-333, "below −333 ends")])[1]
    [(1066, 'above 1066 wins'), (-333, 'below −333 ends')]
    >>> near_targets([100, 700], [(1066, "a"), (-333, "b")])
    ([(-333, 'b')], [(1066, 'a')])
    """
    values = list(values) or [0]
    low, high = (min(0, *values), max(0, *values)) if from_zero else (min(values), max(values))
    reach = max(high - low, MIN_SPAN) / 2
    near = [t for t in targets if low - reach <= t[0] <= high + reach]
    return near, [t for t in targets if t not in near]


def value_scale(values: Sequence[float], targets: Sequence[tuple[float, str]] = (),
                from_zero: bool = True) -> tuple[float, float, float]:
    """The y axis: its lowest and highest ticks and the step between them, over every value and bound.

    A game scored from 0 keeps 0 on the axis; a game of chips (``from_zero=False``) spans only the
    totals reached, so that its swings show.

    >>> value_scale([-40, 95]), value_scale([96, 104, 117], from_zero=False)
    ((-50, 100, 50), (95, 120, 5))
    """
    values = [*values, *(value for value, _ in targets)] or [0]
    low, high = (min(0, *values), max(0, *values)) if from_zero else (min(values), max(values))
    if high - low < MIN_SPAN:
        high = low + MIN_SPAN
    step = nice_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if any(value == high for value, _ in targets):
        high += step  # room above a bound on the top line for its label
    return low, high, step


def nudges(count: int) -> list[float]:
    """How far each of ``count`` lines is drawn off its true place, so that equal totals stay visible side
    by side: never more than half a line's width, so every point still covers its true value.

    >>> nudges(2), max(map(abs, nudges(9))) <= LINE_WIDTH / 2
    ([-0.65, 0.65], True)
    """
    spacing = min(NUDGE, LINE_WIDTH / max(count - 1, 1))
    return [round((n - (count - 1) / 2) * spacing, 3) for n in range(count)]


#: The x axis's first label: the totals before the first round.
START = say("start")
#: The chart's words for each game's round, in the reader's language (the axis's title, the chart's label).
AFTER_EACH = {"round": say("after each round"), "hand": say("after each hand"), "deal": say("after each deal"),
              "turn": say("after each turn")}
RUNNING_TOTALS = {"round": say("Running totals after each round"), "hand": say("Running totals after each hand"),
                  "deal": say("Running totals after each deal"), "turn": say("Running totals after each turn")}


def progression_svg(players: Sequence[str], rounds_points: Sequence[Mapping[str, float]],
                    width: int = 520, height: int = 190, *, start: Mapping[str, float] | None = None,
                    round_name: str = "round", targets: Sequence[tuple[float, str]] = (),
                    legend: bool = True, joined: Mapping[str, tuple[int, float]] | None = None,
                    font_size: float = 8.5, titled: bool = True) -> str:
    """An SVG line chart of each player's running total, from the start through every round.

    ``rounds_points`` holds, for each round, the points each player scored in it;
    ``start`` the totals before the first round (0 for all when left out: a game of chips gives the
    starting chips, and its axis then spans the totals reached rather than reaching down to 0);
    ``targets`` the game's bounds, each a value and its label (Alliance Royals' 1066 and −333, pool
    rummy's 101), drawn as dashed lines across the plot. ``legend=False`` leaves the legend to the page
    (see :func:`legend_swatch`): a printed sheet sets names in HTML, where every script is shaped.
    ``joined`` gives a player seated late their first round and the score they joined with: their
    line starts there. ``font_size`` is the text's size in the chart's units (a printed sheet, which
    scales the chart down to its column, asks for more). ``titled=False`` leaves out the x axis's title (a
    printed sheet in a script the PDF's drawing of SVG text does not shape says it under the chart).
    """
    series = running_totals(players, rounds_points, start)
    drawn = {p: _from_joining(series[p], (joined or {}).get(p)) for p in players}
    rounds = len(rounds_points)
    from_zero = not any((start or {}).values())
    values = [v for line in drawn.values() for _, v in line]
    targets, far = near_targets(values, targets, from_zero)
    low, high, step = value_scale(values, targets, from_zero)
    labels = [(low + k * step, _number(low + k * step)) for k in range(round((high - low) / step) + 1)]
    em = font_size / 8.5
    legend_w = 34 + 5.6 * min(max((len(p) for p in players), default=4), 24) if legend else 0
    left = 10 + 5.2 * em * max(len(label) for _, label in labels)
    right = width - legend_w - 10
    title = render(AFTER_EACH.get(round_name) or say("after each {noun}", noun=round_name)) if titled else ""
    above = [label for value, label in far if value > high]
    rows = bottom_rows(title, [label for value, label in far if value < low], left, right, font_size)
    top = 8 + ROW * em * len(above)  # a strip for each bound far above
    bottom = X_LABELS * em + ROW * em * max(len(rows), 1)  # the x labels, then a row for each line of captions
    frame = _Frame(left, top, right - left, height - top - bottom, low, high, rounds)
    label = RUNNING_TOTALS.get(round_name) or say("Running totals after each {noun}", noun=round_name)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="{FONT}" font-size="{font_size:g}" role="img" '
           f'aria-label="{escape(render(label))}">']
    out += _axes(frame, labels, targets, em, font_size)
    out += _lines(players, drawn, frame)
    # Every caption after the lines, on a ground of its own: no line crosses its letters.
    captions = near_captions(frame, targets, font_size) + far_captions(frame, above, rows, height, font_size)
    out += [c.svg() for c in captions]
    if legend:
        out += _svg_legend(players, width - legend_w, frame.top)
    out.append("</svg>")
    return "\n".join(out)


def _axes(frame: _Frame, labels: Sequence[tuple[float, str]], targets: Sequence[tuple[float, str]],
          em: float, font_size: float) -> list[str]:
    """The grid, the y labels, the game's bounds, the axes and the x labels."""
    left, top, plot_w, plot_h = frame.left, frame.top, frame.plot_w, frame.plot_h
    out = []
    # Grid lines and the y axis labels; the zero line darker, as the baseline. On a plot too low for a label at
    # every line (a short game's sheet), every n-th line is labelled, 0 among them, so that no two labels touch.
    apart = plot_h / max(len(labels) - 1, 1)
    every = next(n for n in range(1, len(labels) + 1) if n * apart >= 1.1 * font_size or n == len(labels))
    step = (labels[1][0] - labels[0][0]) if len(labels) > 1 else 1
    for tick, label in labels:
        y = frame.y(tick)
        if tick != 0:
            out.append(f'<line x1="{left:.1f}" y1="{y:.1f}" x2="{left + plot_w:.1f}" y2="{y:.1f}" stroke="#d5d5d5" '
                       f'stroke-width="0.5"/>')
        if round(tick / step) % every == 0:
            out.append(f'<text x="{left - 4:.1f}" y="{y + 3 * em:.1f}" text-anchor="end">{label}</text>')
    # The game's bounds, dashed across the plot (their captions are drawn over the lines: near_captions).
    for value, _label in targets:
        y = frame.y(value)
        out.append(f'<line x1="{left:.1f}" y1="{y:.1f}" x2="{left + plot_w:.1f}" y2="{y:.1f}" stroke="#000" '
                   f'stroke-width="0.7" stroke-dasharray="4 2"/>')
    # Axes: the y axis at the left, the baseline at zero (when zero is on the axis).
    out.append(f'<line x1="{left:.1f}" y1="{top}" x2="{left:.1f}" y2="{top + plot_h:.1f}" stroke="#000" '
               f'stroke-width="0.8"/>')
    base = frame.y(0) if frame.low <= 0 <= frame.high else top + plot_h
    out.append(f'<line x1="{left:.1f}" y1="{base:.1f}" x2="{left + plot_w:.1f}" y2="{base:.1f}" stroke="#000" '
               f'stroke-width="0.9"/>')
    # X labels under the plot: the start and the rounds, thinned so that they never touch.
    for i, x, anchor, text in x_labels(frame, font_size):
        tick = frame.x(i)
        out.append(f'<line x1="{tick:.1f}" y1="{top + plot_h:.1f}" x2="{tick:.1f}" y2="{top + plot_h + 3:.1f}" '
                   f'stroke="#000" stroke-width="0.6"/>')
        out.append(f'<text x="{x:.1f}" y="{top + plot_h + 12 * em:.1f}" text-anchor="{anchor}">{text}</text>')
    return out


#: The height of a row of captions, and of the x labels' row under the plot, in the chart's ems (8.5 units).
ROW = 11
X_LABELS = 14
#: The room kept between two captions on one row, and around a caption's ground, in ems of its size.
CAPTION_GAP = 1.0
CAPTION_PAD = 0.15


@dataclass(frozen=True)
class Caption:
    """A line of the chart's words: its baseline's start, middle or end at (x, y), at ``size``, drawn on a
    white ground a little wider than its letters, so that a line under it never crosses them."""

    text: str
    x: float
    y: float
    anchor: str
    size: float
    fill: str = "#333"

    def box(self) -> tuple[float, float, float, float]:
        """Where its ground lies: left, top, right, bottom."""
        w, pad = caption_width(self.text, self.size), CAPTION_PAD * self.size
        x0 = self.x - {"start": 0, "middle": w / 2, "end": w}[self.anchor]
        return x0 - pad, self.y - 0.82 * self.size - pad, x0 + w + pad, self.y + 0.26 * self.size + pad

    def svg(self) -> str:
        x0, y0, x1, y1 = self.box()
        size = f' font-size="{self.size:.2f}"'
        return (f'<rect class="caption-ground" x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" '
                f'height="{y1 - y0:.1f}" fill="#fff" fill-opacity="0.9"/>'
                f'<text class="caption" x="{self.x:.1f}" y="{self.y:.1f}" text-anchor="{self.anchor}"{size} '
                f'fill="{self.fill}">{_arrowed(self.text)}</text>')


def _arrowed(text: str) -> str:
    """A caption's words escaped; a far bound's arrow apart from its words, which a sheet's test reads alone."""
    if text[:1] in "\u2191\u2193" and text[1:2] == " ":
        return f"{text[0]} <tspan>{escape(text[2:])}</tspan>"
    return escape(text)


def overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether two boxes (left, top, right, bottom) share any room.

    >>> overlaps((0, 0, 10, 10), (9, 9, 20, 20)), overlaps((0, 0, 10, 10), (10, 0, 20, 10))
    (True, False)
    """
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _fitted(text: str, size: float, room: float) -> float:
    """The size ``text`` is drawn at to keep within ``room``: its own, or smaller for a caption too long."""
    wide = caption_width(text, size)
    return size if wide <= room else size * room / wide


def bottom_rows(title: str, below: Sequence[str], left: float, right: float,
                font_size: float) -> list[list[tuple[str, str]]]:
    """The rows of captions under the x labels, the x axis's title last: each a list of (text, anchor). A
    bound far below is named at the right of the title's row when both fit on it apart, else on a row of
    its own above it.

    >>> bottom_rows("after each hand", ["\u2193 below \u2212333 ends"], 30, 500, 8.5)
    [[('after each hand', 'start'), ('\u2193 below \u2212333 ends', 'end')]]
    >>> bottom_rows("apr\u00e8s chaque donne", ["\u2193 en dessous de \u2212333 : fin"], 30, 290, 12)
    [[('\u2193 en dessous de \u2212333 : fin', 'end')], [('apr\u00e8s chaque donne', 'middle')]]
    """
    rows: list[list[tuple[str, str]]] = [[(text, "end")] for text in below]
    if not title:
        return rows
    gap = CAPTION_GAP * font_size
    if rows and caption_width(title, font_size) + gap + caption_width(rows[-1][0][0], font_size) <= right - left:
        rows[-1].insert(0, (title, "start"))
        return rows
    return [*rows, [(title, "middle")]]


def far_captions(frame: _Frame, above: Sequence[str], rows: Sequence[Sequence[tuple[str, str]]], height: float,
                 font_size: float) -> list[Caption]:
    """The bounds far beyond the scores, named with an arrow outside the plot at its right, a row each: above it
    for a bound above; under the x labels for one below, beside or above the x axis's title (:func:`bottom_rows`)."""
    em, right = font_size / 8.5, frame.left + frame.plot_w
    room = right - 2
    out = [Caption(text, right, 8 * em + 1 + ROW * em * n, "end", _fitted(text, font_size, room))
           for n, text in enumerate(f"\u2191 {label}" for label in above)]
    for n, row in enumerate(rows):
        y = height - max(2, 0.26 * font_size) - ROW * em * (len(rows) - 1 - n)  # a descender's foot in the chart
        for text, anchor in row:
            if anchor == "end":
                text = f"\u2193 {text}"
            x = {"start": frame.left, "middle": frame.left + frame.plot_w / 2, "end": right}[anchor]
            size = _fitted(text, font_size, room if anchor == "end" else frame.plot_w)
            out.append(Caption(text, x, y, anchor, size, "#444" if anchor != "end" else "#333"))
    return out


def near_captions(frame: _Frame, targets: Sequence[tuple[float, str]], font_size: float) -> list[Caption]:
    """The captions of the bounds drawn across the plot: at the left of each line, where the lines start from
    the first totals and the latest totals at the right stay in sight; above the line, or under it when above
    would leave the plot or meet another bound's caption."""
    out: list[Caption] = []
    room = frame.plot_w - 6
    for value, label in sorted(targets, key=lambda t: -t[0]):
        if not label:
            continue
        size, y = _fitted(label, font_size, room), frame.y(value)
        clear = (0.26 + CAPTION_PAD) * size + 1  # its ground keeps off the bound's own line
        caption = Caption(label, frame.left + 3, y - clear, "start", size)
        if caption.box()[1] < frame.top or any(overlaps(caption.box(), c.box()) for c in out):
            caption = Caption(label, frame.left + 3, y + (0.82 + CAPTION_PAD) * size + 1, "start", size)
        out.append(caption)
    return out


#: The advance widths, in ems, of DejaVu Sans's letters, a little over the widest of each kind, for the
#: chart's own words in any language: the captions must keep apart even where the estimate errs.
_CAPTION_ADVANCE = {**dict.fromkeys("0123456789", 0.64), " ": 0.32, "\u2212": 0.84, "\u2191": 0.84,
                    "\u2193": 0.84, **dict.fromkeys("iljtfr.,:;!|'\u2019()-", 0.42), **dict.fromkeys("mw", 0.98)}


def caption_width(text: str, font_size: float) -> float:
    """About how wide the chart draws a caption in any language, in its units, erring wide: a mark that joins
    its letter (Devanagari's vowel signs) takes no room, a capital or a wide letter more than a small one.

    >>> round(caption_width("below \u2212333 ends", 10), 1), caption_width("\u0915\u093f", 10) < caption_width("ab", 10)
    (94.2, True)
    """
    wide = 0.0
    for char in text:
        if unicodedata.category(char) in ("Mn", "Me"):
            continue
        if char in _CAPTION_ADVANCE:
            wide += _CAPTION_ADVANCE[char]
        elif unicodedata.east_asian_width(char) in "WF":
            wide += 1.0
        else:
            wide += 0.35 if unicodedata.category(char) == "Mc" else 0.8 if char.isupper() else 0.66
    return wide * font_size


#: DejaVu Sans's advance widths, in ems, of what the x axis prints: digits and the word "start".
_ADVANCE = {**dict.fromkeys("0123456789", 0.636), "s": 0.521, "t": 0.392, "a": 0.613, "r": 0.411}
#: The least room between two x labels, in ems.
X_LABEL_GAP = 0.6


def text_width(text: str, font_size: float) -> float:
    """How wide the chart prints ``text`` (digits and "start"), in its own units.

    >>> round(text_width("start", 10), 2), round(text_width("12", 10), 2)
    (23.29, 12.72)
    """
    return sum(_ADVANCE.get(c, 0.7) for c in text) * font_size


def x_labels(frame: _Frame, font_size: float) -> list[tuple[int, float, str, str]]:
    """The x axis's labels (round, x, anchor, text): "start" and every n-th round, n the least of 1, 2, 5,
    10, ... that keeps every label's box :data:`X_LABEL_GAP` apart from the next, the last round always
    labelled (a label too near it left out).

    >>> [text for _, _, _, text in x_labels(_Frame(30, 8, 300, 100, 0, 10, 30), 9.6)]
    ['start', '5', '10', '15', '20', '25', '30']
    """
    rounds = frame.rounds
    start = escape(render(START))
    if rounds <= 0:
        return [(0, frame.x(0), "middle", start)]
    gap = X_LABEL_GAP * font_size

    def box(i: int) -> tuple[float, float]:
        if i == 0:
            return frame.x(0) - 2, frame.x(0) - 2 + text_width(start, font_size)
        half = text_width(number(i), font_size) / 2
        return frame.x(i) - half, frame.x(i) + half

    for every in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500):
        shown = [*range(0, rounds, every), rounds]
        while len(shown) > 2 and box(shown[-1])[0] - box(shown[-2])[1] < gap:
            del shown[-2]  # too near the last round's label
        if all(box(b)[0] - box(a)[1] >= gap for a, b in zip(shown, shown[1:], strict=False)):
            break
    else:
        shown = [0, rounds]
    return [(i, box(i)[0] if i == 0 else frame.x(i), "start" if i == 0 else "middle", start if i == 0 else number(i))
            for i in shown]


def _lines(players: Sequence[str], drawn: Mapping[str, list[tuple[int, float]]], frame: _Frame) -> list[str]:
    """One line per player, a hair apart (:func:`nudges`) so that equal totals stay visible side by side,
    but never outside the plot."""
    show_markers = frame.rounds == 0 or frame.plot_w / frame.rounds >= MARKER_MIN_GAP
    bottom = frame.top + frame.plot_h

    def at(v: float, nudge: float) -> float:
        return min(max(frame.y(v) + nudge, frame.top), bottom)

    out = []
    for n, (p, nudge) in enumerate(zip(players, nudges(len(players)), strict=True)):
        colour, dash, shape = COLOURS[n % len(COLOURS)], DASHES[n % len(DASHES)], MARKERS[n % len(MARKERS)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        if not drawn[p]:
            continue
        points = " ".join(f"{frame.x(i):.1f},{at(v, nudge):.1f}" for i, v in drawn[p])
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="{LINE_WIDTH}"'
                   f' stroke-linejoin="round"{dash_attr}/>')
        if show_markers:
            out.extend(_marker(shape, frame.x(i), at(v, nudge), colour) for i, v in drawn[p] if i)
    return out


def _svg_legend(players: Sequence[str], lx: float, top: float) -> list[str]:
    """The legend, at the right of the plot: a sample of each line with its marker, and the name."""
    out = []
    for n, p in enumerate(players):
        colour, dash, shape = COLOURS[n % len(COLOURS)], DASHES[n % len(DASHES)], MARKERS[n % len(MARKERS)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        y = top + 6 + n * 13
        out.append(f'<line x1="{lx:.1f}" y1="{y}" x2="{lx + 24:.1f}" y2="{y}" stroke="{colour}" '
                   f'stroke-width="{LINE_WIDTH}"{dash_attr}/>')
        out.append(_marker(shape, lx + 12, y, colour))
        out.append(f'<text x="{lx + 29:.1f}" y="{y + 3}" direction="{direction(p)}" '
                   f'unicode-bidi="plaintext">{escape(p)}</text>')
    return out


def direction(text: str) -> str:
    """``rtl`` when the first strong letter of ``text`` is Hebrew or Arabic, ``ltr`` otherwise.

    >>> direction("محمد"), direction("Ann"), direction("1 נועה")
    ('rtl', 'ltr', 'rtl')
    """
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            return "rtl"
        if kind == "L":
            return "ltr"
    return "ltr"
