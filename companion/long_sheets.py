"""A long game's score sheet, printed compactly, and what any sheet may cost to draw.

WeasyPrint's time grows with the boxes it lays out (about a millisecond for each table cell or
inline element) and with the text it sets. A 9-player, 200-deal Indian Rummy sheet laid out
like a short one holds some 18,000 elements and 450 KB of why: 29 s and more of CPU. A long
game's sheet therefore prints

- its grid as a *ledger*: one line of figures per round, in a fixed-width font so that the
  columns line up without a table cell for each figure (a seat number heads each player's
  columns; the players' names are listed by seat above it);
- the why of each round as one paragraph, every round and every player kept: the engine's
  lines as they are, or, for a game that says it more briefly from the round's detail (Indian
  Rummy: the groups and the cards counted), those words.

Before the work starts, :func:`estimate_seconds` tells from the HTML what the drawing will
cost; a sheet over ``SHEET_SECONDS`` (companion.limits) is refused in words
(:class:`SheetTooLong`) and never drawn.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import limits

#: A sheet whose full layout would cost more than this many seconds is printed compactly.
COMPACT_ABOVE_SECONDS = 5.0

# What the drawing costs, fitted to sheets drawn on the shared two-core machine under load (a
# 9-player Indian Rummy sheet of 50 and 200 deals, compact, and of 200 deals in full: 2.5, 6.2 and
# 45 s): per element (a table cell, a paragraph, a bold word), per 1,000 characters of text set
# (in two columns), and the fixed cost of a sheet (fonts, the chart, the head). On a quiet machine
# a sheet takes less than this says.
SECONDS_PER_ELEMENT = 0.0016
SECONDS_PER_KCHAR = 0.03
SECONDS_FIXED = 1.0

_TAG = re.compile(r"<[a-zA-Z]")
_MARKUP = re.compile(r"<[^>]*>")
_STYLE = re.compile(r"<style>.*?</style>", re.S)


class SheetTooLong(Exception):
    """A sheet that would take too long to draw: refused before the drawing starts."""

    def __init__(self, rounds: int, noun: str, seconds: float):
        self.rounds, self.noun, self.seconds = rounds, noun, seconds
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return (f"This game is too long to print as a score sheet: its {self.rounds} {self.noun}s would take "
                f"about {round(self.seconds)} seconds to draw, and Courtier draws a sheet in at most "
                f"{limits.get('SHEET_SECONDS')} seconds. The table page shows every {self.noun}, and its "
                f"export (CSV or JSON) keeps the whole game.")


def estimate_seconds(html: str) -> float:
    """The CPU seconds WeasyPrint will take to draw ``html``, from its elements and its text.

    >>> round(estimate_seconds("<p>" + "x" * 1000 + "</p>"), 4)
    1.0316
    """
    body = _STYLE.sub("", html)
    elements = len(_TAG.findall(body))
    chars = len(_MARKUP.sub("", body))
    return SECONDS_FIXED + elements * SECONDS_PER_ELEMENT + chars / 1000 * SECONDS_PER_KCHAR


# ---------------------------------------------------------------------------------------
# The ledger: the grid of a long game, one line of fixed-width figures per round

_WIDE = {"W", "F"}
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
#: The figures of a column take at least this many characters.
MIN_COLUMN = 9


def _narrow(text: str) -> bool:
    """True when ``text`` keeps its place in a fixed-width line: no wide (CJK) letters, no right-to-left ones."""
    return not _RTL.search(text) and all(unicodedata.east_asian_width(c) not in _WIDE for c in text)


def _head(seat: str, name: str, width: int) -> str:
    """A column's head: the seat and as much of the name as fits (the seat alone for a name that does not set
    left to right in fixed-width letters).

    >>> _head("1", "Annapurna Krishnamurthy", 12), _head("2", "Ben", 12), _head("3", "محمد", 12)
    ('1 Annapurna…', '2 Ben', '3')
    """
    label = f"{seat} {name}" if _narrow(name) else seat
    return label if len(label) <= width else label[:width - 1] + "…"


def ledger(rows: Sequence[Mapping[str, Any]], players: Sequence[str], sides: Mapping[str, Any],
           side_word: str, fmt: Callable[[Any], str], fmt_signed: Callable[[Any], str]) -> dict[str, Any]:
    """The lines of a long game's grid: the heads, then each round's number and, for each player (and side),
    what the round gave and the total after it.

    >>> out = ledger([{"n": 1, "points": {"Ann": 5, "Ben": -5}, "totals": {"Ann": 5, "Ben": -5}}],
    ...              ["Ann", "Ben"], {}, "Side", str, lambda v: f"{v:+d}")
    >>> out["heads"][0], out["lines"][0]
    ('#  │ 1 Ann      │ 2 Ben     ', '1  │  +5      5 │  −5     −5')
    """
    columns = [(str(i), p, lambda row, p=p: (row["points"].get(p), row["totals"].get(p)))
               for i, p in enumerate(players, 1)]
    columns += [(f"{side_word} {side}", "", lambda row, side=side: ((row.get("side_points") or {}).get(side, 0),
                                                                      (row.get("side_totals") or {}).get(side)))
                for side in sides]
    cells = [[_pair(get(row), fmt, fmt_signed) for row in rows] for _, _, get in columns]
    widths = []
    for cells_of in cells:
        points = max([len("pts")] + [len(a) for a, _ in cells_of])
        total = max([len("total")] + [len(b) for _, b in cells_of])
        widths.append((points, max(total, MIN_COLUMN - points - 2)))
    n_width = max(len(str(len(rows))), 2)
    heads = ["#".ljust(n_width), " " * n_width]
    for (seat, name, _), (points, total) in zip(columns, widths, strict=True):
        width = points + 2 + total
        heads[0] += " │ " + _head(seat, name, width).ljust(width)
        heads[1] += " │ " + "pts".rjust(points) + "  " + "total".rjust(total)
    lines = []
    for i, row in enumerate(rows):
        line = str(row["n"]).ljust(n_width)
        for cells_of, (points, total) in zip(cells, widths, strict=True):
            a, b = cells_of[i]
            line += " │ " + a.rjust(points) + "  " + b.rjust(total)
        lines.append(line.replace("-", "\u2212"))
    return {"heads": heads, "lines": lines, "chars": max(len(line) for line in heads + lines)}


def _pair(values: tuple[Any, Any], fmt: Callable[[Any], str], fmt_signed: Callable[[Any], str]) -> tuple[str, str]:
    points, total = values
    if points is None:  # a player not yet seated (or out of the pool) in this round
        return "–", "" if total is None else fmt(total)
    return fmt_signed(points), "" if total is None else fmt(total)


def ledger_font_pt(chars: int, width_mm: float) -> float:
    """The ledger's font size: 8.5 pt, smaller when its longest line needs it to fit ``width_mm``, and never
    under the sheets' 7.5 pt.

    >>> ledger_font_pt(100, 194.0), ledger_font_pt(150, 263.4), ledger_font_pt(200, 194.0)
    (8.5, 8.2, 7.5)
    """
    fits = width_mm / (max(chars, 1) * 0.602 * 25.4 / 72)  # DejaVu Sans Mono: 0.602 em a letter
    return max(7.5, min(8.5, int(fits * 10) / 10))


# ---------------------------------------------------------------------------------------
# A round's why in one paragraph


def generic_why(why: Mapping[str, Any]) -> str:
    """The engine's lines for a round, folded as the sheet folds them, in one paragraph.

    >>> generic_why({"shared": ["Ann dealt (RK-10)"], "players": [("Ann", ["won", "+5"]), ("Ben", ["lost"])]})
    'Ann dealt (RK-10) · Ann: won; +5 · Ben: lost'
    """
    parts = list(why.get("shared") or [])
    parts += [f"{label}: {'; '.join(lines)}" for label, lines in why.get("players") or [] if lines]
    return " · ".join(parts)


def _ir_hand(entry: Mapping[str, Any]) -> str:
    """One player's hand in an Indian Rummy deal, as briefly as a score keeper writes it."""
    kind = entry.get("entry")
    count = entry.get("count", 0)
    if kind in ("cards", "groups"):
        groups = [f"{k} {' '.join(g)}" for k, g in zip(entry.get("kinds") or [], entry.get("groups") or [],
                                                       strict=False)]
        if count == 0 and not entry.get("loose"):
            return "won: " + ", ".join(groups) if groups else "won"
        counted = " ".join(entry.get("loose") or []) or "no cards"
        raw = entry.get("raw", count)
        if entry.get("lives"):
            text = f"{', '.join(groups)}; counts {counted} = {raw}"
        else:
            text = f"no life, all count: {counted} = {raw}"
        return text + (f", capped {count}" if entry.get("capped") else "")
    if kind == "declared":
        return "won, declaration taken as valid"
    if kind == "count":
        return f"count {entry.get('raw', count)}" + (f", capped {count}" if entry.get("capped") else "")
    if kind == "drop":
        return {"first": "first drop", "middle": "middle drop", "missed": "missed three turns"}.get(
            entry.get("drop"), "drop") + f" {count}"
    if kind == "wrong_show":
        return f"wrong show {count}"
    if kind == "out":
        return "out of the pool"
    return str(count)


def indian_rummy_why(row: Mapping[str, Any], players: Sequence[str]) -> str:
    """An Indian Rummy deal in one line per player, from the deal's detail (IR-3 to IR-9 in the key above).

    >>> indian_rummy_why({"detail": {"players": {"Ann": {"entry": "declared", "count": 0},
    ...     "Ben": {"entry": "cards", "count": 80, "raw": 96, "capped": True, "lives": False, "groups": [],
    ...             "kinds": [], "loose": ["4S", "6S"]},
    ...     "Cat": {"entry": "cards", "count": 9, "raw": 9, "capped": False, "lives": True,
    ...             "groups": [["4H", "5H", "6H"], ["7S", "JK", "9S"]], "kinds": ["pure", "impure"],
    ...             "loose": ["9D"]}}}}, ["Ann", "Ben", "Cat"]).split(" · ")
    ['Ann: won, declaration taken as valid', 'Ben: no life, all count: 4S 6S = 96, capped 80', \
'Cat: pure 4H 5H 6H, impure 7S JK 9S; counts 9D = 9']
    """
    detail = row.get("detail") or {}
    hands = detail.get("players") or {}
    parts = [f"{p}: {_ir_hand(hands[p])}" for p in players if isinstance(hands.get(p), Mapping)]
    for p, moved in (detail.get("rejoined") or {}).items():
        parts.append(f"{p} rejoined at {moved.get('to')}")
    if detail.get("eliminated"):
        parts.append(f"out of the pool: {', '.join(detail['eliminated'])}")
    return " · ".join(parts)


#: What a compact sheet prints above the rounds' why, for a game whose compact why has a key.
KEYS = {
    "indian-rummy": "How to read a deal: the winner counts 0 (IR-5); a loser's groups are named (pure or impure "
                    "sequence, set) and only the cards outside them count, if the hand has two sequences, one of "
                    "them pure; otherwise every card counts (IR-3, IR-6); a count is capped at 80; a first drop, a "
                    "middle drop and a wrong show cost what IR-7 says; the ledger above gives what each deal paid "
                    "(IR-8, IR-9, IR-10).",
}

#: A game whose compact why is said from the round's detail rather than the engine's lines.
COMPACT_WHY: dict[str, Callable[[Mapping[str, Any], Sequence[str]], str]] = {"indian-rummy": indian_rummy_why}


def compact_why(slug: str, row: Mapping[str, Any], players: Sequence[str]) -> str:
    own = COMPACT_WHY.get(slug)
    return own(row, players) if own else generic_why(row["why"])
