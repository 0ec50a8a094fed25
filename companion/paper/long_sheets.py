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
cost, within half as much again either way for every game at every size (bench/sheet_cost.py measures
it; tests/test_sheet_cost.py keeps it so); a sheet over ``SHEET_SECONDS`` (companion.core.limits) is refused
in words (:class:`SheetTooLong`) and never drawn.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core import limits
from ..core.messages import joined, render, say, say_n
from ..core.round_words import round_text

#: A sheet whose full layout would cost more than this many seconds is printed compactly.
COMPACT_ABOVE_SECONDS = 5.0

# What the drawing costs, in CPU seconds of the process that draws: fitted to every game's sheets at 2 to 250
# rounds, at its fewest and most players, with everyday, 40-letter and non-Latin names and with a note on
# every round, drawn on the shared two-core machine (bench/sheet_cost.py, the least of two draws each), so
# that the estimate is within 1.5 times of the drawing either way for every one of them (0.72 to 1.39). The
# terms: a sheet's fixed part; each table cell, and each other element, outside the why; each 1,000
# characters of text there; each element and 1,000 characters of the why, laid out in two columns; those
# characters again when its columns are balanced (a why of half a page or less, whose last page WeasyPrint
# lays out several times: print.css); each element of the chart; each script with a font of its own.
COSTS = {"fixed": 0.21, "cells": 0.0016, "elements": 0.0001, "kchars": 0.024, "why_elements": 0.0017,
         "why_kchars": 0.024, "balanced_kchars": 0.049, "chart_elements": 0.0013, "scripts": 0.12}

_TAG = re.compile(r"<[a-zA-Z]")
_CELL = re.compile(r"<t[dh][\s>]")
_MARKUP = re.compile(r"<[^>]*>")
_STYLE = re.compile(r"<style>.*?</style>", re.S)
_SVG = re.compile(r"<svg.*?</svg>", re.S)
_WHY = re.compile(r'<section class="why-box">.*?</section>', re.S)
_UNBALANCED = re.compile(r'class="why [^"]*unbalanced')
#: Scripts set in a font of their own (Hebrew, Arabic, the Indic scripts, Thai..., CJK).
_SCRIPTS = [re.compile(f"[{block}]") for block in (
    "\u0590-\u05ff", "\u0600-\u08ff", "\u0900-\u0dff", "\u0e00-\u0eff", "\u1100-\u11ff\uac00-\ud7af",
    "\u3040-\u30ff\u4e00-\u9fff")]


#: What each game calls a round, in the reader's language.


def counted_rounds(noun: str, count: int) -> str:
    """``count`` rounds of a game, as the game calls them ("3 hands"), in the reader's language.

    >>> counted_rounds("deal", 1), counted_rounds("hand", 3), counted_rounds("turn", 0)
    ('1 deal', '3 hands', '0 turns')
    """
    if noun == "hand":
        return say_n("{count} hand", "{count} hands", count)
    if noun == "deal":
        return say_n("{count} deal", "{count} deals", count)
    if noun == "turn":
        return say_n("{count} turn", "{count} turns", count)
    if noun == "round":
        return say_n("{count} round", "{count} rounds", count)
    return f"{count} {noun if count == 1 else noun + 's'}"



class SheetTooLong(Exception):
    """A sheet that would take too long to draw: refused before the drawing starts."""

    def __init__(self, rounds: int, noun: str, seconds: float):
        self.rounds, self.noun, self.seconds = rounds, noun, seconds
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """Why the sheet is refused, in the reader's language."""
        return render(say("This game is too long to print as a score sheet: its {rounds} would take about "
                          "{seconds} seconds to draw, and Courtier draws a sheet in at most {most} seconds. The "
                          "table page shows every {noun}, and its export (CSV or JSON) keeps the whole game.",
                          rounds=counted_rounds(self.noun, self.rounds), seconds=round(self.seconds),
                          most=limits.get("SHEET_SECONDS"), noun=round_text("word", self.noun)))


def cost_features(html: str) -> dict[str, float]:
    """What the drawing of ``html`` costs for, counted from the HTML (the terms of :data:`COSTS`).

    >>> cost_features('<p>Ann <b>10</b></p><section class="why-box"><div class="why"><p>x</p></div></section>')
    {'fixed': 1, 'cells': 0, 'elements': 2, 'kchars': 0.006, 'why_elements': 3, 'why_kchars': 0.001, \
'balanced_kchars': 0.001, 'chart_elements': 0, 'scripts': 0}
    """
    body = _STYLE.sub("", html)
    why = "".join(_WHY.findall(body))
    rest = _WHY.sub("", body)
    charts = "".join(_SVG.findall(rest))
    rest = _SVG.sub("", rest)
    cells = len(_CELL.findall(rest))
    why_kchars = len(_MARKUP.sub("", why)) / 1000
    return {"fixed": 1, "cells": cells, "elements": len(_TAG.findall(rest)) - cells,
            "kchars": len(_MARKUP.sub("", rest)) / 1000, "why_elements": len(_TAG.findall(why)),
            "why_kchars": why_kchars, "balanced_kchars": 0 if _UNBALANCED.search(why) else why_kchars,
            "chart_elements": len(_TAG.findall(charts)), "scripts": sum(bool(s.search(body)) for s in _SCRIPTS)}


def estimate_seconds(html: str) -> float:
    """The CPU seconds WeasyPrint will take to draw ``html`` (:data:`COSTS` times :func:`cost_features`)."""
    return sum(COSTS[term] * count for term, count in cost_features(html).items())


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
    columns += [(render(say("{side_word} {side}", side_word=side_word, side=side)), "",
                 lambda row, side=side: ((row.get("side_points") or {}).get(side, 0),
                                         (row.get("side_totals") or {}).get(side)))
                for side in sides]
    cells = [[_pair(get(row), fmt, fmt_signed) for row in rows] for _, _, get in columns]
    pts, tot = render(say("pts")), render(say("total"))
    widths = []
    for cells_of in cells:
        points = max([len(pts)] + [len(a) for a, _ in cells_of])
        total = max([len(tot)] + [len(b) for _, b in cells_of])
        widths.append((points, max(total, MIN_COLUMN - points - 2)))
    n_width = max(len(str(len(rows))), 2)
    heads = ["#".ljust(n_width), " " * n_width]
    for (seat, name, _), (points, total) in zip(columns, widths, strict=True):
        width = points + 2 + total
        heads[0] += " │ " + _head(seat, name, width).ljust(width)
        heads[1] += " │ " + pts.rjust(points) + "  " + tot.rjust(total)
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
    parts += [say("{names}: {lines}", names=label, lines=joined(lines, "; "))
              for label, lines in why.get("players") or [] if lines]
    return joined(parts, " · ")


def _ir_hand(entry: Mapping[str, Any]) -> str:
    """One player's hand in an Indian Rummy deal, as briefly as a score keeper writes it."""
    kind = entry.get("entry")
    count = entry.get("count", 0)
    if kind in ("cards", "groups"):
        groups = joined([say("{kind} {cards}", kind=GROUP_KINDS.get(k, k), cards=" ".join(g))
                         for k, g in zip(entry.get("kinds") or [], entry.get("groups") or [], strict=False)], ", ")
        if count == 0 and not entry.get("loose"):
            return say("won: {groups}", groups=groups) if groups else say("won")
        counted = " ".join(entry.get("loose") or []) or say("no cards")
        raw = entry.get("raw", count)
        if entry.get("lives"):
            text = say("{groups}; counts {cards} = {raw}", groups=groups, cards=counted, raw=raw)
        else:
            text = say("no life, all count: {cards} = {raw}", cards=counted, raw=raw)
        return say("{said}, capped {count}", said=text, count=count) if entry.get("capped") else text
    if kind == "declared":
        return say("won, declaration taken as valid")
    if kind == "count":
        said = say("count {raw}", raw=entry.get("raw", count))
        return say("{said}, capped {count}", said=said, count=count) if entry.get("capped") else said
    if kind == "drop":
        drop = {"first": say("first drop {count}", count=count), "middle": say("middle drop {count}", count=count),
                "missed": say("missed three turns {count}", count=count)}
        return drop.get(entry.get("drop")) or say("drop {count}", count=count)
    if kind == "wrong_show":
        return say("wrong show {count}", count=count)
    if kind == "out":
        return say("out of the pool")
    return str(count)


#: The kinds of an Indian Rummy group, as the compact sheet names them (IR-3).
GROUP_KINDS = {"pure": say("pure"), "impure": say("impure"), "set": say("set")}


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
    parts = [say("{names}: {lines}", names=p, lines=_ir_hand(hands[p])) for p in players
             if isinstance(hands.get(p), Mapping)]
    for p, moved in (detail.get("rejoined") or {}).items():
        parts.append(say("{name} rejoined at {total}", name=p, total=moved.get("to")))
    if detail.get("eliminated"):
        parts.append(say("out of the pool: {names}", names=", ".join(detail["eliminated"])))
    return joined(parts, " · ")


#: What a compact sheet prints above the rounds' why, for a game whose compact why has a key.
KEYS = {
    "indian-rummy": say("How to read a deal: the winner counts 0 (IR-5); a loser's groups are named (pure or "
                        "impure sequence, set) and only the cards outside them count, if the hand has two sequences, "
                        "one of them pure; otherwise every card counts (IR-3, IR-6); a count is capped at 80; a first "
                        "drop, a middle drop and a wrong show cost what IR-7 says; the ledger above gives what each "
                        "deal paid (IR-8, IR-9, IR-10)."),
}

#: A game whose compact why is said from the round's detail rather than the engine's lines.
COMPACT_WHY: dict[str, Callable[[Mapping[str, Any], Sequence[str]], str]] = {"indian-rummy": indian_rummy_why}


def compact_why(slug: str, row: Mapping[str, Any], players: Sequence[str]) -> str:
    own = COMPACT_WHY.get(slug)
    return own(row, players) if own else generic_why(row["why"])
