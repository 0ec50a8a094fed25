"""Score sheets to print: a game's filled sheet, and blank sheets to keep by hand.

The sheets are HTML templates under ``scoresheets/`` (at the project root) laid
out for paper by ``scoresheets/print.css`` and turned into PDF by WeasyPrint.
The template is chosen by the game's slug: ``filled/<slug>.html`` and
``blank/<slug>.html``, with ``filled/_default.html`` (and ``blank/_default.html``)
for a game that has none of its own, so a game's sheet is added by adding a
template. ``html_for_filled`` / ``html_for_blank`` give the HTML alone (it is
self-contained: the CSS inlined, the chart inline SVG, no outside resources),
so the rendering can be measured apart from the templating.

Numbers read one way on every sheet: what a round gave is signed (+5, 0, −30), a total plain
(463, −20), both in the grid and in the standing; money keeps two decimals throughout when
the point value has cents.

A sheet is printed in the language of whoever asks for it (:func:`companion.core.messages.language`): its
templates' words through ``_()``, the why of every score as the engine said it, numbers and dates as that
language writes them (English exactly as ever).

>>> paper_size("letter"), paper_size("A4"), paper_size(None)
('letter', 'A4', 'A4')
>>> format_date("2025-11-22T09:30:00+00:00")
'22 November 2025'
>>> signed(5), signed(-30), number(-333), number(2.5)
('+5', '−30', '−333', '2.5')
"""

from __future__ import annotations

import io
import math
import os
import re
import threading
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date, datetime
from functools import cache
from typing import Any

import segno
from jinja2 import Environment, FileSystemLoader, TemplateNotFound, select_autoescape
from markupsafe import Markup

from .. import games
from ..core import messages
from ..core.config import SHEETS_DIR
from ..core.messages import Listed, Text, joined, say, say_n
from ..core.round_words import NAMES as round_text_names
from ..core.round_words import round_text
from ..games.base import InputError, Problems, ScoredGame
from ..games.royalty import said_verdict
from . import chart, long_sheets, text_layer
from .long_sheets import counted_rounds

PAPERS = {"a4": "A4", "letter": "letter"}
#: Nicer names for the options the games have; any other option shows its key in words.
OPTION_LABELS = {
    "teams": say("Alliances"),
    "win_above": say("The game ends above"),
    "lose_below": say("…or below"),
    "house_names": say("Names of the Houses"),
    "counting": say("Counting"),
    "hands": say("Hands in the game"),
    "variant": say("Variant"),
    "decks": say("Decks"),
    "point_value": say("Value of a point"),
    "deals": say("Deals in the game"),
    "schedule": say("Schedule of rounds"),
    "letter_values": say("Letter values"),
    "junior": say("Junior royalties"),
    "coalitions": say("Coalitions"),
    "word_list": say("Word list"),
    "house_allow": say("House words the judge accepts"),
    "house_deny": say("Words the judge refuses here"),
    "share": say("Sharing between spouses"),
    "chips": say("Starting chips"),
    "sequence": say("Sequence"),
    "poker": say("Poker stage"),
    "dealer_antes": say("Dealer's ante"),
}
#: Right-to-left letters (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms).
_RTL_LETTER = "\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc"
#: A run of right-to-left words: RTL letters, with the marks, spaces and joiners between them.
_RTL_RUN = re.compile(f"[{_RTL_LETTER}](?:[{_RTL_LETTER}\\s\u200c\u200d'.-]*[{_RTL_LETTER}])?")


#: Names longer than this wrap to two lines in a blank sheet's column head; the rows then give up a
#: little height so that the sheet still fits its page.
LONG_NAME = 16


#: A why of more characters than this (about half a page of its two columns) fills its columns in turn on
#: its last page rather than balancing them: WeasyPrint balances by laying the page out again and again,
#: each time a little taller, which can cost more than the rest of the sheet and cannot be told beforehand.
BALANCED_WHY_CHARS = 6000


#: A game of this many rounds or fewer is short: its chart is drawn lower, so that it fits one page.
SHORT_GAME = 6
SHORT_CHART_HEIGHT = 84
#: The chart's text size in its own units: its 400 units are printed 112 mm wide at the narrowest (the chart's
#: column on upright A4), so 9.6 of them are 7.6pt, over the sheets' floor of 7.5pt.
CHART_FONT = 9.6


#: Each paper's width and height, upright, in mm.
PAPER_MM = {"A4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: The page's least margins (top, right, bottom, left) in mm: print.css's, the footer in the bottom one.
MARGINS_MM = (8.0, 8.0, 10.0, 8.0)
#: The box a filled sheet is laid out in, upright and across (width, height, in mm): the room both papers
#: have (upright, A4's width less 6 mm a side and Letter's height within its margins; across, Letter's
#: width and A4's height within theirs). A sheet is laid out in the same box on either paper, so it breaks
#: into the same pages on both, line for line; the paper with more room keeps it as margin, shared on both
#: sides.
SHEET_BOX_MM = {False: (198.0, 261.4), True: (263.4, 192.0)}
#: The round-by-round grid's columns before the players', in mm, by game: wide enough for their words
#: with everyday names; a long name wraps inside them. A game not listed gives each 20 mm.
INFO_COLUMNS_MM = {"rally-the-king": (15, 33, 31), "indian-rummy": (11, 17), "royalty": (15, 34),
                   "rummathon-royale": (21, 31), "rummy-royal": (16, 16), "alliance-royals": (),
                   "battle-royals": (), "marriage-royals": ()}
#: The "#" column of the grid, in mm.
N_COLUMN_MM = 6.0
#: A player's (or side's) two columns: the round's points take this share, the running total the rest.
POINTS_SHARE = 0.55
#: Players beyond this many turn the filled sheet across the page.
UPRIGHT_PLAYERS = 6


class UnknownPaper(ValueError):
    """A paper size the sheets are not laid out for."""


# ---------------------------------------------------------------------------------------
# Small formatting helpers, also the templates' filters


def paper_size(paper: str | None) -> str:
    """The CSS page size for a paper name (A4 when none is given); :class:`UnknownPaper` otherwise."""
    if paper is None or paper == "":
        return "A4"
    size = PAPERS.get(str(paper).strip().lower())
    if size is None:
        raise UnknownPaper(f"paper must be a4 or letter, not {str(paper)[:20]!r}")
    return size


def number(value: Any) -> str:
    """A number as printed: whole numbers plainly, the minus sign a true minus; in French and Hindi as
    they write numbers (``1 066``, ``1,00,000``, ``2,5``).

    >>> with messages.speaking("fr"):
    ...     number(-1066), signed(12), decimal(-1.25)
    ('−1\u202f066', '+12', '−1,2')
    """
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value)
    if isinstance(value, int | float):  # any size, in any language (messages.number)
        return messages.number(value)
    return str(value).replace("-", "\u2212")


def signed(value: Any) -> str:
    """Points as a player writes them: +5, 0, −30."""
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return "+" + number(value)
    return number(value)


def amount(value: Any, cents: bool = False) -> str:
    """Money: with two decimals throughout when the point value has cents, so that a column reads alike.

    >>> amount(-162, cents=True), amount(-98.25, cents=True), amount(40)
    ('−162.00', '−98.25', '40')
    """
    if cents and isinstance(value, int | float) and not isinstance(value, bool):
        return _fixed(value, 2)
    return number(value)


def decimal(value: float, places: int = 1) -> str:
    """A number to a fixed number of decimals, as a rating prints: a true minus sign, and none on a value
    that rounds to zero (−0.04 is "0.0", not "−0.0").

    >>> decimal(-0.04), decimal(-0.11), decimal(2.794), decimal(-12.25, 2)
    ('0.0', '−0.1', '2.8', '−12.25')
    """
    if not math.isfinite(value) or abs(value) >= 2.0 ** 53:  # beyond decimals: said as messages.number says it
        return messages.number(value)
    text = f"{value:.{places}f}"
    if float(text) == 0:
        text = text.lstrip("-")
    if messages.language() not in (messages.ENGLISH, messages.PSEUDO):
        return _fixed(float(text), places)
    return text.replace("-", "\u2212")


def _fixed(value: float, places: int) -> str:
    """``value`` to ``places`` decimals as the reader's language writes it, a true minus sign."""
    if messages.language() in (messages.ENGLISH, messages.PSEUDO):
        return f"{value:.{places}f}".replace("-", "\u2212")
    if not math.isfinite(value):
        return messages.number(value)
    pattern = "#,##0." + "0" * places if places else "#,##0"
    return messages.decimal_text(value, messages.language(), pattern).replace("-", "\u2212")


def places(keys: Sequence[Any]) -> list[int]:
    """Each line's place in a list already in order, equal keys sharing the place of the first of them
    and the next counted on past them (standard competition ranking: 1, 2, 2, 2, 5).

    >>> places(["2.8", "0.0", "0.0", "0.0", "−1.2"])
    [1, 2, 2, 2, 5]
    """
    out: list[int] = []
    for n, key in enumerate(keys):
        out.append(out[-1] if n and key == keys[n - 1] else n + 1)
    return out


def has_cents(value: Any) -> bool:
    """True when a point value is not a whole number (0.25 a point)."""
    return isinstance(value, float) and not value.is_integer()


def format_date(value: str | date | datetime | None) -> str:
    """A date as printed on the sheet ("22 November 2025"); today when none is given."""
    if value is None or value == "":
        value = datetime.now(UTC)
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return value
    if messages.language() not in (messages.ENGLISH, messages.PSEUDO):
        from babel.dates import format_date as babel_date

        return babel_date(value, "d MMMM y", locale=messages.language())
    return f"{value.day} {value:%B %Y}"


#: A word of a script written without spaces between words (Thai, Lao, Khmer, Myanmar), up to 20 letters:
#: Pango would break it at the dictionary's word boundaries ("สม|ชาย"); a name keeps each such word whole.
_UNSPACED = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff"
_UNSPACED_WORD = re.compile(f"(?<![{_UNSPACED}])[{_UNSPACED}]{{2,20}}(?![{_UNSPACED}])")


def unbroken(text: Any) -> Markup:
    """Escape ``text``, setting each word of a script written without spaces in a ``<span class="word">``
    that the sheets' CSS keeps on one line (a name breaks between its words, never inside one).

    >>> str(unbroken("สมชาย ใจดี & Ann"))
    '<span class="word">สมชาย</span> <span class="word">ใจดี</span> &amp; Ann'
    """
    escaped = str(Markup.escape(text))
    return Markup(_UNSPACED_WORD.sub(lambda m: f'<span class="word">{m.group(0)}</span>', escaped))  # noqa: S704


def isolate(text: str) -> Markup:
    """Escape ``text``, setting each run of right-to-left words apart in a ``<bdi>`` (and each word of a script
    written without spaces whole: :func:`unbroken`).

    Arabic and Hebrew names then read right to left while the numbers and words around them
    keep their places: "Łukasz 10 + محمد 65 = 75" does not turn into "… 75 = 65 محمد".
    Every value a sheet template prints passes through here (the environment's ``finalize``).

    >>> str(isolate("Łukasz 10 + محمد الأحمد 65 = 75"))
    'Łukasz 10 + <bdi dir="rtl">محمد الأحمد</bdi> 65 = 75'
    >>> str(isolate("<b>Ann</b>"))
    '&lt;b&gt;Ann&lt;/b&gt;'
    """
    escaped = str(unbroken(text))
    if not _RTL_RUN.search(escaped):
        return Markup(escaped)  # noqa: S704 - escaped just above
    return Markup(_RTL_RUN.sub(lambda m: f'<bdi dir="rtl">{m.group(0)}</bdi>', escaped))  # noqa: S704


def _finalize(value: Any) -> Any:
    """What the templates print: plain text escaped with its right-to-left runs isolated."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return isolate(value)
    return value


def plain(value: Any) -> Markup:
    """Text for a place that takes no markup (the document's title): escaped, nothing isolated."""
    return Markup.escape(messages.render(value) if isinstance(value, messages.Text) else str(value))


def bound(number_said: str) -> Markup:
    """A game's bound in a column's head ("pour passer sous −100 000"), kept whole on a line of its own.

    >>> str(bound("−100\u202f000"))
    '<span class="bound">−100\u202f000</span>'
    """
    return Markup('<span class="bound">%s</span>') % number_said


def rulings_in(text: str) -> Markup:
    """Escape a line and set its ruling ids (AR-10, RR-3, ...) in bold, as the sheet prints them."""
    escaped = str(isolate(text))
    return Markup(games.RULING.sub(lambda m: f"<b class=\"ruling\">{m.group(0)}</b>", escaped))  # noqa: S704


def rounds_named(rounds: Sequence[int]) -> str:
    """Rounds as a label, runs of consecutive rounds as a range.

    >>> rounds_named([2]), rounds_named([1, 2, 3]), rounds_named([1, 4, 5, 6, 9])
    ('Round 2', 'Rounds 1–3', 'Rounds 1, 4–6, 9')
    >>> messages.render(rounds_named([1, 4, 5, 6, 9]), "qps")
    '⟦Ŕôûñðš 1, 4–6, 9⟧'
    """
    runs: list[list[int]] = []
    for n in rounds:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    said = ", ".join(f"{run[0]}–{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)) for run in runs)
    return say_n("Round {rounds}", "Rounds {rounds}", len(rounds), rounds=said)


# ---------------------------------------------------------------------------------------
# The templates


@cache
def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(SHEETS_DIR), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True, finalize=_finalize, extensions=["jinja2.ext.i18n"])
    # A sheet's own words in the language of whoever asks for it (the job keeps the request's language).
    messages.install_gettext(env)
    # Each said in the sheet's language when it is printed (core.messages.per_reader), never once when compiled.
    env.filters.update({name: messages.per_reader(fn) for name, fn in (
        ("signed", signed), ("num", number), ("amount", amount), ("rulings", rulings_in), ("plain", plain),
        ("rounds_named", rounds_named))})
    env.globals.update(grid_columns=grid_columns, bound=bound)
    env.tests["with_cents"] = has_cents
    return env


@cache
def print_css() -> str:
    return (SHEETS_DIR / "print.css").read_text(encoding="utf-8")


@cache
def font_stack() -> Markup:
    """The sheets' font stack as print.css names it, for other printed pages (a tournament's standings).

    >>> font_stack().startswith('"DejaVu Sans", "Noto Sans"') and "Noto Sans CJK JP" in font_stack()
    True
    """
    found = re.search(r"^html \{\s*font-family: (.*?);", print_css(), re.S | re.M)
    return Markup(" ".join(found.group(1).split()) if found else "sans-serif")  # noqa: S704 - our own file


def _entry_module(slug: str):
    from ..entry import ENTRY

    return ENTRY.get(slug)


#: Each game's round in a sheet's words, in the reader's language: the grid's column, its heading, a count.
def round_words(noun: str) -> dict[str, str]:
    """A game's round in the sheet's words (core.round_words: each sentence a message for each name a game
    gives its rounds; a noun no game uses is said as a round)."""
    known = noun if noun in round_text_names else "round"
    return {key: round_text(key, known) for key in ("word", "noun", "by", "none", "each", "played_in")}


def round_name(slug: str) -> str:
    """What the game calls one scored round: round, hand, deal, turn."""
    entry = _entry_module(slug)
    return getattr(entry, "ROUND_NAME", None) or getattr(games.ENGINES.get(slug), "ROUND_NAME", "round")


def _heading(slug: str, raw: Any, n: int) -> str:
    entry = _entry_module(slug)
    if entry is not None and isinstance(raw, Mapping):
        try:
            return entry.round_heading(raw, n)
        except (KeyError, TypeError, AttributeError):
            pass
    return f"{round_name(slug).capitalize()} {n}"


# ---------------------------------------------------------------------------------------
# What the filled sheet shows, worked out once for every template


def rulings_from(rounds: Sequence[Any] | None, slug: str = "") -> list[dict[str, Any]]:
    """The referee rulings logged with the rounds as they were entered.

    Royalty turns carry the word judge's verdicts (``judged``: word, valid, why,
    warnings), logged when the turn was saved (RY-17).

    >>> log = rulings_from([{"player": "Ann", "meld": "Ox", "judged": [
    ...     {"word": "OX", "valid": True, "why": "OX is in the list (RY-17)", "warnings": []}]}], "royalty")
    >>> [(r["n"], r["heading"], r["word"], r["valid"], r["why"]) for r in log]
    [(1, 'Turn 1 · Ann melded', 'OX', True, 'OX is in the list (RY-17)')]
    """
    log = []
    for n, raw in enumerate(rounds or [], 1):
        if not isinstance(raw, Mapping):
            continue
        for verdict in raw.get("judged") or []:
            if not isinstance(verdict, Mapping):
                continue
            why, warnings = said_verdict(verdict)
            log.append({"n": n, "heading": _heading(slug, raw, n), "player": raw.get("player"),
                        "word": str(verdict.get("word") or ""), "valid": bool(verdict.get("valid")),
                        "why": why, "warnings": warnings})
    return log


def _running(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each player's total after each round, as the engine keeps it.

    Most engines give it in ``detail`` (``totals``, or ``players[name].score_after``);
    otherwise it is the sum of the points so far.
    """
    players = data["players"]
    so_far = dict.fromkeys(players, 0)
    out = []
    for r in data["rounds"]:
        detail = r.get("detail") or {}
        totals = detail.get("totals")
        by_player = detail.get("players") if isinstance(detail.get("players"), Mapping) else {}
        for p in players:
            if isinstance(totals, Mapping) and isinstance(totals.get(p), int | float):
                so_far[p] = totals[p]
            elif isinstance(by_player.get(p), Mapping) and isinstance(by_player[p].get("score_after"), int | float):
                so_far[p] = by_player[p]["score_after"]
            else:
                so_far[p] += r["points"].get(p, 0)
        out.append(dict(so_far))
    return out


def _side_running(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    sides = data.get("sides") or {}
    so_far = dict.fromkeys(sides, 0)
    out = []
    for r in data["rounds"]:
        for side in sides:
            so_far[side] += (r.get("side_points") or {}).get(side, 0)
        out.append(dict(so_far))
    return out


def _names(name: str, line: str) -> bool:
    """True when ``line`` names ``name`` as a whole name (Ann is not named by "Anne")."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", line) is not None


_MATCHED = re.compile(r"(\w+) matched \((\d+) in Meld \+ Spoils\), doubled")
_UNMATCHED = re.compile(r"(\w+) not matched \((\d+) in Meld \+ Spoils, 3 needed\)")
_RULINGS_AT_END = re.compile(r"(.*) (\((?:[A-Z]{2}-\d+(?:, )?)+\))$")
_SUIT = {"Spades": "♠", "Hearts": "♥", "Diamonds": "♦", "Clubs": "♣"}
#: Royals' why lines that add nothing on paper (see :func:`paper_line`).
_ADDS_NOTHING = (
    re.compile(r"Royal sets: 0 \((?!.*married)[^)]*\)"),
    re.compile(r"Marriages: 0 in own Spoils, 0 in [^,]+'s Spoils"),
    re.compile(r"(Hand|Meld) empty: 0 "),
    re.compile(r"Score (before sharing )?(\d+) × 1 = \2 \("),
    re.compile(r"Marriages: none \("),
    re.compile(r"Total -?\d+ \(MR-6\)$"),  # the grid's TOTAL column
)
#: The Royals' why in fewer words on paper: every number and card stays.
_PAPER_WORDS = (
    (re.compile(r"^Home House (\w+)(; ally (.+) \((\w+)\))?"),
     lambda m: f"House {_SUIT.get(m[1], m[1])}" + (f"; ally {m[3]} {_SUIT.get(m[4], m[4])}" if m[2] else "")),
    (re.compile(r"^Natural score "), lambda m: "Natural "),
    (re.compile(r"^(Score(?: before sharing)?) (\S+) × \(1 \+ (.+)\) = \2 × (\d+) = "),
     lambda m: f"{m[1]} {m[2]} × {m[4]} (1 + {m[3]}) = "),
    (re.compile(r"^Shares spouse (.+)'s score before sharing: "), lambda m: f"Shares spouse {m[1]}'s "),
    (re.compile(r"^No marriage counts on any board this round; the authors say .+ (\(MR-5\))$"),
     lambda m: f"No marriage on any board, though a round should not end before one {m[1]}"),
    (re.compile(r" matched with the Meld, doubled"), lambda m: " doubled by the Meld"),
    (re.compile(r"^(\S+) in Meld is .+'s own Royal: allowed, it scores as a meld card but does not count as a Royal"),
     lambda m: f"{m[1]} in Meld: own Royal, scored as a meld card"),
)


def _paper_house(house: Any) -> Any:
    """A House on paper: the pack's own name as its suit's sign, a table's own name as given."""
    return _SUIT.get(str.__str__(house), house) if isinstance(house, str) else house


def _paper_score(line: Text) -> Text:
    how = line.values.get("how")
    parts = line.values.get("parts") if how is None else getattr(how, "values", {}).get("parts")
    if parts is None:
        return line
    values = {key: line.values[key] for key in ("natural", "score")}
    multiplier = line.values["multiplier"] if how is None else how.values["multiplier"]
    if line.template.startswith("Score before sharing"):
        return say("Score before sharing {natural} × {multiplier} (1 + {parts}) = {score} (MR-3)", parts=parts,
                   multiplier=multiplier, **values)
    rulings = "BR-2" if how is not None else "AR-10"
    return say("Score {natural} × {multiplier} (1 + {parts}) = {score} ({rulings})", parts=parts,
               multiplier=multiplier, rulings=rulings, **values)


def _paper_meld(line: Text) -> Text:
    clauses = line.values["clauses"]
    parts = getattr(clauses, "parts", (clauses,))
    doubled = [clause.values["ranks"] for clause in parts
               if isinstance(clause, Text) and clause.template.startswith("{ranks} matched")]
    values = {key: line.values[key] for key in ("cards", "points", "rulings")}
    if not doubled:
        return say("Meld {cards}: {points} ({rulings})", **values)
    return say("Meld {cards}: {points} — {ranks} doubled ({rulings})", ranks=joined(doubled, ", "), **values)


#: The Royals' why in fewer words on paper, for lines said in the reader's language (as _PAPER_WORDS for
#: English text): each message id and the shorter message the sheet prints instead.
_PAPER_TEXTS: dict[str, Any] = {
    "Home House {house}; ally {ally} ({ally_house}) (AR-2, AR-3)": lambda line: say(
        "House {house}; ally {ally} {ally_house} (AR-2, AR-3)", house=_paper_house(line.values["house"]),
        ally=line.values["ally"], ally_house=_paper_house(line.values["ally_house"])),
    "Home House {house} ({rulings})": lambda line: say(
        "House {house} ({rulings})", house=_paper_house(line.values["house"]), rulings=line.values["rulings"]),
    "Natural score {spoils} + {meld} − {hand} = {natural} (AR-6)": lambda line: say(
        "Natural {spoils} + {meld} − {hand} = {natural} (AR-6)", **line.values),
    "Score {natural} × (1 + {parts}) = {natural} × {multiplier} = {score} (AR-10)": _paper_score,
    "Score before sharing {natural} × {how} = {score} (MR-3)": _paper_score,
    "Score {natural} × {how} = {score} (BR-2)": _paper_score,
    "Shares spouse {spouse}'s score before sharing: {points} (MR-4)": lambda line: say(
        "Shares spouse {spouse}'s {points} (MR-4)", **line.values),
    "No marriage counts on any board this round; the authors say a round cannot end before someone is married, "
    "so it is scored with this note (MR-5)": lambda line: say(
        "No marriage on any board, though a round should not end before one (MR-5)"),
    "Spoils {cards}: {points} — {ranks} matched with the Meld, doubled (AR-4, AR-5)": lambda line: say(
        "Spoils {cards}: {points} — {ranks} doubled by the Meld (AR-4, AR-5)", **line.values),
    "{card} in Meld is {name}'s own Royal: allowed, it scores as a meld card but does not count as a Royal "
    "(AR-13, AR-7)": lambda line: say("{card} in Meld: own Royal, scored as a meld card (AR-13, AR-7)",
                                       card=line.values["card"]),
    "Meld {cards}: {points} — {clauses} ({rulings})": _paper_meld,
}


def paper_line(line: str) -> str:
    """A why line as the paper prints it: the Royals' lines in fewer words (Houses as suits, a Meld's
    doubled ranks in one clause), and "" for a line that adds nothing to the number it explains (a nil
    Royal set or marriage, an empty hand or Meld, a score × 1, the ranks a Meld left undoubled, a
    running total): the grid prints each score × its multiplier and every total, and the natural
    score's sum shows every 0. Every card and every number that counts stays, so four rounds of
    Alliance Royals fit the page they are scored on; the screen's why keeps every line.

    >>> paper_line("Meld 9D 10C KH: 25 — nines not matched (2 in Meld + Spoils, 3 needed); tens not matched "
    ...            "(1 in Meld + Spoils, 3 needed); kings matched (3 in Meld + Spoils), doubled (AR-5)")
    'Meld 9D 10C KH: 25 — kings doubled (AR-5)'
    >>> paper_line("Meld 9D 10C: 20 — nines not matched (2 in Meld + Spoils, 3 needed) (AR-4, AR-5)")
    'Meld 9D 10C: 20 (AR-4, AR-5)'
    >>> paper_line("Home House Clubs; ally Priya (Spades) (AR-2, AR-3)")
    'House ♣; ally Priya ♠ (AR-2, AR-3)'
    >>> [paper_line(line) for line in ("Marriages: 0 in own Spoils, 0 in Priya's Spoils (AR-8)",
    ...  "Royal sets: 0 (K of Clubs) (AR-7)", "Hand empty: 0 (AR-6)", "Score 55 × 1 = 55 (AR-10)")]
    ['', '', '', '']
    >>> paper_line("Score before sharing 70 × (1 + 1 own marriage) = 70 × 2 = 140 (MR-3)")
    'Score before sharing 70 × 2 (1 + 1 own marriage) = 140 (MR-3)'
    >>> paper_line("Royal sets: 0 (Q of Hearts; QH married in Dan's Spoils) (AR-7)")
    "Royal sets: 0 (Q of Hearts; QH married in Dan's Spoils) (AR-7)"
    """
    if any(pattern.match(line) for pattern in _ADDS_NOTHING):
        return ""
    if isinstance(line, Text):  # said in the reader's language: the same fewer words, message by message
        shorter = _PAPER_TEXTS.get(line.template)
        if shorter is None:
            return line
        said_so, english = shorter(line), _paper_words(str.__str__(line))
        return said_so if said_so == english else english  # an odd House name: the English words, as ever
    return _paper_words(line)


def _paper_words(line: str) -> str:
    """:func:`paper_line` on English text."""
    for pattern, words in _PAPER_WORDS:
        if pattern.search(line):  # a line left as it is stays the message it is (core.messages.Text)
            line = pattern.sub(words, line)
    head, dash, rest = line.partition(" — ")
    ruled = _RULINGS_AT_END.match(rest) if dash else None
    if not ruled:
        return line
    clauses = ruled[1].split("; ")
    doubled = [m for m in map(_MATCHED.fullmatch, clauses) if m]
    short = [m for m in map(_UNMATCHED.fullmatch, clauses) if m]
    if len(doubled) + len(short) != len(clauses):
        return line
    if not doubled:
        return f"{head} {ruled[2]}"
    return f"{head}{dash}{', '.join(m[1] for m in doubled)} doubled {ruled[2]}"


def _why(explain: Mapping[str, Sequence[str]], players: Sequence[str]) -> dict[str, Any]:
    """A round's explain lines, folded: a line every player has, or one that names every player who has
    it, is printed once, unlabelled; a line several players share is printed once under all their names.

    >>> _why({"Ann": ["Ann dealt (RK-10)", "won"], "Ben": ["Ann dealt (RK-10)", "lost"]}, ["Ann", "Ben"])
    {'shared': ['Ann dealt (RK-10)'], 'players': [('Ann', ['won']), ('Ben', ['lost'])]}
    >>> _why({"A": ["x", "pay 4", "−4"], "B": ["x", "pay 4", "−8"], "C": ["x", "+12"]}, ["A", "B", "C"])["players"]
    [('A, B', ['pay 4']), ('A', ['−4']), ('B', ['−8']), ('C', ['+12'])]
    >>> _why({"Ann": ["Ann and Ben against Cat: −4 each"], "Ben": ["Ann and Ben against Cat: −4 each"],
    ...       "Cat": ["Cat alone: +8"]}, ["Ann", "Ben", "Cat"])
    {'shared': ['Ann and Ben against Cat: −4 each'], 'players': [('Cat', ['Cat alone: +8'])]}
    """
    lines = {p: [line for line in dict.fromkeys(map(paper_line, explain.get(p) or [])) if line] for p in players}
    who: dict[str, list[str]] = {}
    for p in players:
        for line in lines[p]:
            who.setdefault(line, []).append(p)
    # Printed once, unlabelled: a line every player has, and a line that names all the players who have
    # it ("Ann, Ben and Cat against Dan alone: −4 each" needs no "Ann, Ben, Cat:" before it). A line of
    # one player's keeps its label: their lines run on after it in one paragraph.
    shared = [line for line, names in who.items() if len(players) > 1 and (
        len(names) == len(players) or len(names) > 1 and all(_names(n, line) for n in names))]
    groups: dict[tuple[str, ...], list[str]] = {}
    for line, names in who.items():
        if line not in shared:
            groups.setdefault(tuple(names), []).append(line)
    order = sorted(groups, key=lambda names: (-len(names), [players.index(n) for n in names]))
    return {"shared": shared, "players": [(", ".join(names), groups[names]) for names in order]}


def _describe(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return say("yes") if value else say("no")
    if isinstance(value, int | float):
        return number(value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_describe(v)}" for k, v in value.items()) or "—"
    if isinstance(value, list | tuple):
        if value and all(isinstance(v, list | tuple) for v in value):
            groups = [" & ".join(str(x) for x in group) for group in value]
            said: str = groups[0]
            for group in groups[1:]:
                said = say("{sides} against {side}", sides=said, side=group)
            return said
        return ", ".join(_describe(v) for v in value) or "—"
    return str(value)


#: A longer house list (RY-17) is printed as its number of words and the first of them.
HOUSE_WORDS_SHOWN = 12


#: The options' own values as a sheet prints them (the new-table forms' choices; English as it always
#: printed them, the value itself); any other value (a name, a number, a list) as it is. Indian Rummy's
#: variants are said by the engine's own names (VARIANTS).
OPTION_VALUES = {
    "all": say("all"), "even": say("even"), "half": say("half"),
    "individual": say("individual"), "joust": say("joust"), "no": say("no"), "none": say("none"), "odd": say("odd"),
    "positive": say("positive"), "standard": say("standard"),
    "traditional": say("traditional"), "yes": say("yes"),
}


def describe_options(slug: str, applied: Mapping[str, Any], chosen: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The options in play, in words; ``house`` marks those the table set away from the default.

    >>> [(o["label"], o["value"], o["house"]) for o in describe_options(
    ...     "rummathon-royale", {"schedule": "half"}, {"schedule": "half"})]
    [('Schedule of rounds', 'half', True)]
    >>> describe_options("royalty", {"house_allow": [f"W{i:05}" for i in range(20000)]}, {})[0]["value"][:44]
    '20000 words: W00000, W00001, W00002, W00003,'
    """
    engine = games.ENGINES.get(slug)
    defaults = getattr(engine, "OPTIONS", {})
    chosen = chosen or {}
    variants = getattr(engine, "VARIANTS", None)
    out = []
    for key, value in applied.items():
        text = OPTION_VALUES.get(value) if isinstance(value, str) and key != "word_list" else None
        text = text or _describe(value)
        if key == "word_list":  # RY-17: a table's own list is thousands of words: say what it is
            text = (say("the table's own list, {count} words", count=number(len(value)))
                    if isinstance(value, list) and value
                    else str(value) if isinstance(value, str) and value else say("the default list (SCOWL, size 70)"))
        if key in ("house_allow", "house_deny") and isinstance(value, list) and len(value) > HOUSE_WORDS_SHOWN:
            # RY-17: a house list may hold 200,000 words; the sheet says how many, and the first few
            text = say("{count} words: {words}, …", count=number(len(value)),
                       words=", ".join(value[:HOUSE_WORDS_SHOWN]))
        if key == "variant" and isinstance(variants, Mapping) and value in variants:
            text = variants[value]  # a message: the sheet says it in its reader's language
        house = key in chosen and chosen[key] is not None and chosen[key] != defaults.get(key)
        out.append({"key": key, "label": OPTION_LABELS.get(key, key.replace("_", " ").capitalize()),
                    "value": text, "raw": value, "house": bool(house)})
    return out


def chart_targets(slug: str, options: Mapping[str, Any]) -> list[tuple[float, str]]:
    """The bounds a game is played to, as lines on its chart: the Royals games' 1066 and −333
    (AR-12, BR-3, MR-6), pool rummy's 101 or 201 (IR-9).

    >>> chart_targets("alliance-royals", {"win_above": 1066, "lose_below": -333})
    [(1066, 'above 1066 wins'), (-333, 'below −333 ends')]
    >>> chart_targets("battle-royals", {"win_above": 500})
    [(500, 'above 500 ends'), (-333, 'below −333 ends')]
    >>> chart_targets("indian-rummy", {"variant": "pool101"})
    [(101, 'out at 101')]
    >>> chart_targets("indian-rummy", {"variant": "deals"}), chart_targets("rally-the-king", {})
    ([], [])
    """
    if slug in ("alliance-royals", "battle-royals", "marriage-royals"):
        defaults = games.ENGINES[slug].OPTIONS
        win = options.get("win_above", defaults.get("win_above", 1066))
        lose = options.get("lose_below", defaults.get("lose_below", -333))
        # An Alliance above the line wins (AR-12); a player above it ends the game, the higher total winning (BR-3).
        above = (say("above {score} wins", score=number(win)) if slug == "alliance-royals"
                 else say("above {score} ends", score=number(win)))
        return [(win, messages.render(above)), (lose, messages.render(say("below {score} ends", score=number(lose))))]
    pool = getattr(games.ENGINES.get(slug), "POOL_OUT", {}).get(options.get("variant"))
    return [(pool, messages.render(say("out at {score}", score=pool)))] if pool else []


def running_chart(data: Mapping[str, Any], noun: str, *, width: int = 400, height: int = 125,
                  font_size: float = 8.5, titled: bool = True) -> tuple[str, list[dict[str, Any]]]:
    """The chart of running totals with the game's bounds (:func:`chart_targets`), and its legend
    (set in HTML beside it): the sheet's chart, and the table page's.

    A game played by sides (Alliance Royals' Alliances, Royalty's coalitions, whose scores are
    pooled: AR-11, RY-14) charts the sides, not the players. A game of chips (Rummy Royal, deals
    rummy) starts each line at the chips the player started with, and its axis spans the chips held.
    """
    if not data["rounds"]:
        return "", []
    players = list(data["players"])
    lines, series = players, _running(data)
    named = {p: p for p in players}
    if data.get("sides"):
        lines, series = list(data["sides"]), _side_running(data)
        named = {side: (say("Alliance {side}: {members}", side=side, members=" & ".join(members))
                        if data["game"] == "alliance-royals" else
                        say("Coalition {side}: {members}", side=side, members=" & ".join(members)))
                 for side, members in data["sides"].items()}
    first = data["rounds"][0]
    first_points = (first.get("side_points") if data.get("sides") else first.get("points")) or {}
    start = {p: series[0][p] - first_points.get(p, 0) for p in lines}  # the starting chips; 0 in most games
    deltas = [{p: series[0][p] - start[p] for p in lines}]
    deltas += [{p: series[i][p] - series[i - 1][p] for p in lines} for i in range(1, len(series))]
    # A player seated late: their line starts before their first round, at the score they joined with.
    joined = {} if data.get("sides") else {
        p: (first, series[first - 1][p] - (data["rounds"][first - 1].get("points") or {}).get(p, 0))
        for p, first in (data.get("joined") or {}).items() if 1 < first <= len(series)}
    targets = chart_targets(data["game"], data.get("options") or {})
    if not titled:  # the bounds' words are said under the chart (chart_caption)
        targets = [(value, "") for value, _ in targets]
    svg = chart.progression_svg(lines, deltas, width=width, height=height, round_name=noun, legend=False,
                                targets=targets, joined=joined, start=start, font_size=font_size, titled=titled)
    legend = [{"name": named[line], "swatch": Markup(chart.legend_swatch(n))}  # noqa: S704 - our own SVG
              for n, line in enumerate(lines)]
    return svg, legend


#: The room for a name in the sheet's chart legend, in ems of its 7.5 pt: each of its two columns (half the
#: chart's 58% of the sheet, less the gap) less the 8 mm its line's sample takes; upright and across.
LEGEND_EMS = {False: 17.5, True: 24.5}


def _ems(text: str) -> float:
    """About how wide ``text`` prints, in ems (DejaVu Sans, rounded up; a wide CJK letter is one em)."""
    return sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.78 if c.isupper() else 0.62 for c in text)


def legend_name(name: str, ems: float) -> str:
    """A name as the chart's legend prints it: whole, wrapping between its words, and each word wider than the
    legend's column shortened with an ellipsis (the grid and the standing print it whole).

    >>> legend_name("Wolfeschlegelsteinhausenbergerdorffvoral", 17.5)
    'Wolfeschlegelsteinhausenbe…'
    >>> legend_name("Anne-Marie Fitzgerald-Okonkwo of Kildare", 17.5)
    'Anne-Marie Fitzgerald-Okonkwo of Kildare'
    """
    words = []
    for word in name.split(" "):
        if _ems(word) > ems:
            while word and _ems(word) + 1 > ems:
                word = word[:-1]
            word += "…"
        words.append(word)
    return " ".join(words)


def final_score(data: Mapping[str, Any]) -> str:
    """The final score, as the result line gives it after the winners' names.

    A side game gives the sides' totals, the winning side's first; any other game the
    winner's total against the nearest other (the runner-up, whether the game is won high or low).

    >>> final_score({"winners": ["Ann", "Cat"], "sides": {"A": ["Ann", "Cat"], "B": ["Ben", "Dan"]},
    ...              "side_totals": {"A": 1120, "B": -40}, "totals": {}})
    '1120 to −40'
    >>> final_score({"winners": ["Ben"], "totals": {"Ann": 12, "Ben": 75, "Cat": 75.5}})
    '75 to 75.5'
    """
    winners = list(data.get("winners") or [])
    sides, side_totals = data.get("sides") or {}, data.get("side_totals") or {}
    won = [side for side, members in sides.items() if winners and set(winners) <= set(members)]
    if won and side_totals:
        rest = [number(v) for side, v in side_totals.items() if side != won[0]]
        said: str = number(side_totals.get(won[0], 0))
        for other in rest:
            said = say("{score} to {other}", score=said, other=other)
        return said
    totals = data.get("totals") or {}
    if not winners or winners[0] not in totals:
        return ""
    best = totals[winners[0]]
    others = sorted((v for p, v in totals.items() if p not in winners), key=lambda v: abs(v - best))
    return say("{score} to {other}", score=number(best), other=number(others[0])) if others else number(best)


def grid_columns(slug: str, paper: str, players: int, sides: int, info: int) -> list[float]:
    """The widths, in mm, of the filled sheet's grid: "#", the game's own columns, then each player's and
    each side's points and total, sharing what is left of the page's width. The grid is laid out
    fixed to these: a name of 40 letters without a space wraps inside its column, and no total is
    pushed past the paper's edge.

    >>> grid_columns("rally-the-king", "A4", 4, 0, 3)
    [6.0, 15, 33, 31, 15.54, 12.71, 15.54, 12.71, 15.54, 12.71, 15.54, 12.71]
    >>> abs(sum(grid_columns("indian-rummy", "letter", 9, 0, 2)) - SHEET_BOX_MM[True][0]) < 0.1
    True
    """
    width = SHEET_BOX_MM[players > UPRIGHT_PLAYERS][0]
    fixed = list(INFO_COLUMNS_MM.get(slug, ()))[:info]
    fixed += [20.0] * (info - len(fixed))
    first = N_COLUMN_MM if info else 2 * N_COLUMN_MM  # with no column of its own beside it, room for "TOTAL"
    pair = (width - first - sum(fixed)) / max(players + sides, 1)
    points = round(pair * POINTS_SHARE, 2)
    return [first, *fixed, *[points, round(pair - points, 2)] * (players + sides)]


def page_margins(paper: str, landscape: bool) -> str:
    """The filled sheet's page margins on ``paper``, as CSS: those that leave :data:`SHEET_BOX_MM`.

    >>> page_margins("A4", False), page_margins("letter", False)
    ('16.8mm 6mm 18.8mm 6mm', '8mm 8.95mm 10mm 8.95mm')
    >>> page_margins("A4", True), page_margins("letter", True)
    ('8mm 16.8mm 10mm 16.8mm', '10.95mm 8mm 12.95mm 8mm')
    """
    width, height = PAPER_MM[paper_size(paper)]
    if landscape:
        width, height = height, width
    box_width, box_height = SHEET_BOX_MM[landscape]
    top, right, bottom, left = MARGINS_MM
    across = (width - box_width - left - right) / 2
    down = (height - box_height - top - bottom) / 2
    return " ".join(f"{round(mm, 2):g}mm" for mm in (top + down, right + across, bottom + down, left + across))


def _result(data: Mapping[str, Any], noun: str) -> dict[str, Any]:
    rounds = len(data["rounds"])
    if data.get("over"):
        winners = list(data.get("winners") or [])
        # Three winners and more joined by "and" each time, as the English sheet has always said them.
        names = " and ".join(winners) if messages.language() == messages.ENGLISH else Listed(winners)
        score = final_score(data)
        return {"over": True, "line": say_n("Winner: {names}", "Winners: {names}", len(winners), names=names),
                "score": score, "reason": data.get("reason") or ""}
    return {"over": False, "line": say("Game in progress"),
            "reason": say("After {rounds}.", rounds=counted_rounds(noun, rounds)) if rounds
            else round_words(noun)["none"]}


def _as_json(game: ScoredGame | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(game, ScoredGame):
        return game.as_json()
    if isinstance(game, Mapping) and {"game", "players", "rounds", "totals"} <= set(game):
        return dict(game)
    raise TypeError("render a scored game: a ScoredGame or its as_json() form")


def filled_context(game: ScoredGame | Mapping[str, Any], title: str, created: Any = None,
                   options: Mapping[str, Any] | None = None, rulings_log: Iterable[Mapping[str, Any]] | None = None,
                   paper: str | None = "A4", *, rounds: Sequence[Any] | None = None,
                   compact: bool = False) -> dict[str, Any]:
    """Everything a filled sheet template needs, from the scored game (and the rounds as entered).

    ``compact`` prints a long game's grid as a ledger and each round's why in one paragraph
    (companion.paper.long_sheets).
    """
    data = _as_json(game)
    slug = data["game"]
    engine = games.ENGINES.get(slug)
    players = list(data["players"])
    noun = round_name(slug)
    raw_rounds = list(rounds or [])
    rows = _filled_rows(data, players, raw_rounds)
    svg, legend = _chart_and_legend(data, noun, players)
    context = {
        "kind": "filled",
        "slug": slug,
        "game_title": getattr(engine, "TITLE", slug),
        "title": title or getattr(engine, "TITLE", slug),
        "date": format_date(created),
        "paper": paper_size(paper),
        "players": players,
        "sides": data.get("sides") or {},
        "options": dict(data.get("options") or {}),
        "option_list": describe_options(slug, data.get("options") or {}, options),
        "chosen_options": dict(options or {}),
        "rows": rows,
        "totals": data["totals"],
        "side_totals": data.get("side_totals") or {},
        "standing": data.get("standing") or {},
        "over": bool(data.get("over")),
        "winners": list(data.get("winners") or []),
        "reason": data.get("reason"),
        "result": _result(data, noun),
        "noun": noun,
        "words": round_words(noun),
        "rounds_counted": counted_rounds(noun, len(rows)),
        "lang": messages.language(),
        "chart": Markup(svg),  # noqa: S704 - built by chart.py, which escapes every name
        "chart_caption": chart_caption(data, noun),
        "long_names": any(len(p) > LONG_NAME for p in players),
        "legend": legend,
        "rulings": list(rulings_log if rulings_log is not None else rulings_from(raw_rounds, slug)),
        "notes": [(row["n"], row["note"]) for row in rows if row["note"]],
        "css": Markup(print_css()),  # noqa: S704 - our own file
        "page_margin": page_margins(paper, len(players) > UPRIGHT_PLAYERS),
        "compact": compact,
        "ledger": None,
    }
    if compact:
        _make_compact(context)
    context["why_balanced"] = _why_chars(context) <= BALANCED_WHY_CHARS
    return context


def _filled_rows(data: Mapping[str, Any], players: list[str], raw_rounds: list[Any]) -> list[dict[str, Any]]:
    """One row of the grid for each round scored: its points, the totals after it, its heading, note and why."""
    slug = data["game"]
    running = _running(data)
    side_running = _side_running(data)
    rows = []
    for i, r in enumerate(data["rounds"]):
        n = i + 1
        raw = raw_rounds[i] if i < len(raw_rounds) else None
        heading = _heading(slug, raw, n)
        rows.append({
            "n": n, "points": r["points"], "explain": r.get("explain") or {}, "detail": r.get("detail") or {},
            "side_points": r.get("side_points"), "totals": running[i], "side_totals": side_running[i],
            "heading": heading, "what": heading.parts[-1] if len(getattr(heading, "parts", ())) > 1 else
            heading.partition(" · ")[2],
            "note": str(raw.get("note") or "") if isinstance(raw, Mapping) else "",
            "raw": raw if isinstance(raw, Mapping) else {},
            "why": _why(r.get("explain") or {}, players),
        })
    return rows


#: Languages whose script WeasyPrint's drawing of SVG text does not shape (it sets each letter apart): their
#: chart's words are printed under it, in HTML, where every script is shaped.
UNSHAPED_IN_SVG = frozenset({"hi"})


def chart_caption(data: Mapping[str, Any], noun: str) -> str:
    """The chart's words said under it ("after each deal · out at 101"), for a language in :data:`UNSHAPED_IN_SVG`;
    "" for any other, whose chart says them itself."""
    if messages.language() not in UNSHAPED_IN_SVG or not data["rounds"]:
        return ""
    after = chart.AFTER_EACH.get(noun) or say("after each {noun}", noun=noun)
    return " · ".join([messages.render(after),
                       *(label for _, label in chart_targets(data["game"], data.get("options") or {}))])


def _chart_and_legend(data: Mapping[str, Any], noun: str, players: list[str]) -> tuple[str, list[dict[str, Any]]]:
    """The running totals' chart, as SVG, and its legend with each name as printed."""
    # A short game's lines need less height to read, and the page is wanted for its why.
    short = len(data["rounds"]) <= SHORT_GAME
    svg, legend = running_chart(data, noun, height=SHORT_CHART_HEIGHT if short else 125, font_size=CHART_FONT,
                                titled=messages.language() not in UNSHAPED_IN_SVG)
    for item in legend:
        # a side's name said in the sheet's language first ("Alliance A : Ann & Cat"), then fitted
        item["printed"] = legend_name(messages.render(item["name"]), LEGEND_EMS[len(players) > UPRIGHT_PLAYERS])
    return svg, legend


def _why_chars(context: Mapping[str, Any]) -> int:
    """How many characters the sheet's why prints, about."""
    if context["compact"]:
        return sum(len(row["compact_why"]) for row in context["rows"])
    return sum(len(line) for row in context["rows"] for line in
               [*row["why"]["shared"], *(text for _, lines in row["why"]["players"] for text in lines)])


def _make_compact(context: dict[str, Any]) -> None:
    """A long game's sheet: the grid as a ledger, each round's why in one paragraph (companion.paper.long_sheets)."""
    players, sides, slug = context["players"], context["sides"], context["slug"]
    word = {"alliance-royals": "Alliance", "royalty": "Coalition"}.get(slug, "Side")
    cents = has_cents((context["options"] or {}).get("point_value"))
    context["ledger"] = long_sheets.ledger(context["rows"], players, sides, word,
                                           lambda v: amount(v, cents), signed)
    width = SHEET_BOX_MM[len(players) > UPRIGHT_PLAYERS][0]
    context["ledger_pt"] = long_sheets.ledger_font_pt(context["ledger"]["chars"], width)
    context["why_key"] = long_sheets.KEYS.get(slug)
    for row in context["rows"]:
        row["compact_why"] = long_sheets.compact_why(slug, row, players)


#: The turn rows of Royalty's blank sheet on each paper: as many as fit the page under the longest names
#: and a round pack's head, with the end of the game's rows and the rules below them.
ROYALTY_TURN_ROWS = {"A4": 21, "letter": 19}


def blank_context(game_slug: str, players: Sequence[str] | None = None, paper: str | None = "A4", *,
                  heading: str | None = None, link: str | None = None,
                  pack: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What a blank sheet template needs: the game, and the players' names when they are known.

    A tournament's round pack gives each table's sheet a ``heading`` (the tournament, round
    and table) and the table's edit ``link``, printed with its QR code; ``pack`` holds what
    the pack knows of the table (``tournament``, ``round``, ``rounds``, ``table``, ``date``,
    ``options``), printed in the head in place of blanks to fill in, the QR code then at
    least :data:`PACK_QR_MM` across with a four-module quiet zone, in a box of its own.
    """
    engine = games.ENGINES[game_slug]  # KeyError: no such game
    names: list[str] = []
    if players:
        found = Problems()
        names = games.check_players(list(players), engine, found)
        found.raise_if_any()
    default_seats = min(max(engine.MIN_PLAYERS, 4), engine.MAX_PLAYERS)
    seats = len(names) or default_seats
    return {
        "kind": "blank",
        "long_names": any(len(name) > LONG_NAME for name in names),
        "slug": game_slug,
        "game_title": engine.TITLE,
        "title": heading or engine.TITLE,
        "paper": paper_size(paper),
        "link": link,
        # segno's SVG of our own link
        "qr": Markup(qr_svg(link, PACK_QR_MM if pack else None)) if link else None,  # noqa: S704
        "pack": dict(pack) if pack else None,
        "players": names,
        "seats": [names[i] if i < len(names) else "" for i in range(seats)],
        "options": dict(engine.OPTIONS),
        "engine": engine,
        "noun": round_name(game_slug),
        "words": round_words(round_name(game_slug)),
        "lang": messages.language(),
        "turn_rows": ROYALTY_TURN_ROWS[paper_size(paper)],
        "css": Markup(print_css()),  # noqa: S704 - our own file
    }


def _template(kind: str, slug: str):
    try:
        return environment().select_template([f"{kind}/{slug}.html", f"{kind}/_default.html"])
    except TemplateNotFound as err:  # pragma: no cover - the default templates ship with the app
        raise LookupError(f"no {kind} sheet template for {slug}") from err


#: A game of more figures than this (rounds x players and sides) is printed compactly without first trying
#: the full layout (companion.paper.long_sheets).
LEDGER_FIGURES = 600


def html_for_filled(game: ScoredGame | Mapping[str, Any], title: str, created: Any = None,
                    options: Mapping[str, Any] | None = None,
                    rulings_log: Iterable[Mapping[str, Any]] | None = None, paper: str | None = "A4", *,
                    rounds: Sequence[Any] | None = None, compact: bool | None = None,
                    budget: float | None = None) -> str:
    """The filled sheet as one self-contained HTML document.

    A long game (``compact`` None: one whose full layout would cost WeasyPrint more than
    :data:`long_sheets.COMPACT_ABOVE_SECONDS`) is printed compactly. With a ``budget`` in
    seconds, a sheet that would cost more is refused (:class:`long_sheets.SheetTooLong`)
    before it is drawn.
    """
    data = _as_json(game)
    figures = len(data["rounds"]) * (len(data["players"]) + len(data.get("sides") or {}))
    args = (data, title, created, options, rulings_log, paper)
    html = None
    if compact is False or (compact is None and figures <= LEDGER_FIGURES):
        context = filled_context(*args, rounds=rounds)
        html = _template("filled", context["slug"]).render(context)
        if compact is None and long_sheets.estimate_seconds(html) > long_sheets.COMPACT_ABOVE_SECONDS:
            html = None
    if html is None:
        context = filled_context(*args, rounds=rounds, compact=True)
        html = _template("filled", context["slug"]).render(context)
    if budget is not None:
        seconds = long_sheets.estimate_seconds(html)
        if seconds > budget:
            raise long_sheets.SheetTooLong(len(data["rounds"]), round_name(data["game"]), seconds)
    return html


def html_for_blank(game_slug: str, players: Sequence[str] | None = None, paper: str | None = "A4", *,
                   heading: str | None = None, link: str | None = None, pack: Mapping[str, Any] | None = None) -> str:
    """A blank sheet for ``game_slug`` as one self-contained HTML document.

    Raises ``KeyError`` for an unknown game and :class:`InputError` for names that do not suit it.
    """
    context = blank_context(game_slug, players, paper, heading=heading, link=link, pack=pack)
    return _template("blank", game_slug).render(context)


#: The printed width of a round pack's QR code, quiet zone apart: a phone camera reads 2 cm and more.
PACK_QR_MM = 26


#: A dot at 150 dpi, in mm: a printed QR code's modules are whole numbers of these.
DOT_150_MM = 25.4 / 150


def qr_svg(text: str, size_mm: float | None = None) -> str:
    """A QR code of ``text`` as inline SVG, for a printed page: at least ``size_mm`` across (its modules,
    then a quiet zone of four modules all round), or small and unsized when none is given.

    Each module is a whole number of dots at 150 dpi (so of 300 and 600 dpi too): a cheap printer or a
    scan at those resolutions draws every module as whole dots, with no grey edge between them, and
    OpenCV's standard detector reads every code at 150 dpi where it missed one in a hundred.

    >>> svg = qr_svg("http://club.example/t/abcdefghijkl?key=" + "k" * 22, PACK_QR_MM)
    >>> 26 <= float(svg.split('width="')[1].split('mm')[0]) * 33 / 41 <= 29
    True
    """
    out = io.BytesIO()
    code = segno.make(text, error="m", micro=False)
    if size_mm is None:
        code.save(out, kind="svg", scale=3, border=1, xmldecl=False, svgns=True)
    else:
        modules = code.symbol_size(border=0)[0]
        module_mm = math.ceil(size_mm / modules / DOT_150_MM - 1e-9) * DOT_150_MM
        code.save(out, kind="svg", scale=module_mm, unit="mm", border=4, xmldecl=False, svgns=True)
    return out.getvalue().decode()


def _url_fetcher():
    """A fetcher that fetches nothing but data: URLs: a sheet never loads anything from outside."""
    try:
        from weasyprint.urls import URLFetcher

        return URLFetcher(allowed_protocols={"data"}, timeout=1)
    except (ImportError, TypeError):  # pragma: no cover - older WeasyPrint
        return None


_fonts = threading.local()


def _font_config():
    """This thread's WeasyPrint font configuration, kept from one sheet to the next.

    Pango keeps in it the fonts it has found for the sheets' text, so a 30-round sheet drawn with
    the one kept costs a fifth less than with a new one each time. Its objects are not for two
    threads at once, nor for a process forked from the one that made them: one per thread, and
    made again in a new process.
    """
    from weasyprint.text.fonts import FontConfiguration

    text_layer.install()  # every sheet's text copies and searches as it was set, in every script
    kept = getattr(_fonts, "kept", None)
    if kept is None or kept[0] != os.getpid():
        kept = _fonts.kept = (os.getpid(), FontConfiguration())
    return kept[1]


#: A filled sheet of two pages whose second holds less than this share of a page is set again tight
#: (print.css ``.tight``), and printed so when that keeps it to one page.
LEAST_LAST_PAGE = 0.3
_FILLED_BODY = '<body class="filled'


def pdf_from_html(html: str) -> bytes:
    """Render one of the sheets' HTML documents to PDF: a filled sheet whose second page would hold a few
    lines only, set tight on one page where that fits it."""
    document = _laid_out(html)
    if html.count(_FILLED_BODY) == 1 and len(document.pages) == 2 and last_page_fill(document) < LEAST_LAST_PAGE:
        tight = _laid_out(html.replace(_FILLED_BODY, _FILLED_BODY + " tight"))
        if len(tight.pages) == 1:
            document = tight
    return document.write_pdf()


def _laid_out(html: str):
    from weasyprint import HTML

    return HTML(string=html, base_url=str(SHEETS_DIR), url_fetcher=_url_fetcher()).render(font_config=_font_config())


def last_page_fill(document) -> float:
    """How much of its page's height the last page's text takes, from the top of the page's content to the
    foot of its lowest line (the footer in the margin apart): 0 to 1."""
    from weasyprint.formatting_structure.boxes import MarginBox, TextBox

    page = document.pages[-1]._page_box
    top, height = page.content_box_y(), page.height
    lowest = top
    for child in page.children:
        if isinstance(child, MarginBox):
            continue
        for box in child.descendants():
            if isinstance(box, TextBox):
                lowest = max(lowest, box.position_y + box.height)
    return (lowest - top) / height if height else 1.0


def pdf_from_documents(htmls: Sequence[str], progress=None) -> bytes:
    """Render several sheets' HTML documents into one PDF, their pages one after another.

    Each document keeps its own page size and orientation. ``progress(done, total)`` is
    called after each document is laid out.
    """
    from weasyprint import HTML

    rendered = []
    for done, html in enumerate(htmls, 1):
        rendered.append(HTML(string=html, base_url=str(SHEETS_DIR), url_fetcher=_url_fetcher()).render(
            font_config=_font_config()))
        if progress:
            progress(done, len(htmls))
    if not rendered:
        raise ValueError("no pages to render")
    return rendered[0].copy([page for document in rendered for page in document.pages]).write_pdf()


def render_filled(game: ScoredGame | Mapping[str, Any], title: str, created: Any = None,
                  options: Mapping[str, Any] | None = None, rulings_log: Iterable[Mapping[str, Any]] | None = None,
                  paper: str | None = "A4", *, rounds: Sequence[Any] | None = None) -> bytes:
    """The filled score sheet of a scored game, as PDF.

    ``game`` is a :class:`ScoredGame` or its ``as_json()``; ``options`` the options
    the table chose (those away from the default print as house rules);
    ``rulings_log`` the referee rulings to print (by default those logged in
    ``rounds``, the rounds as entered, which also give each round's heading and note).
    """
    return pdf_from_html(html_for_filled(game, title, created, options, rulings_log, paper, rounds=rounds))


def render_blank(game_slug: str, players: Sequence[str] | None = None, paper: str | None = "A4") -> bytes:
    """A blank score sheet to fill in by hand, as PDF (one page)."""
    return pdf_from_html(html_for_blank(game_slug, players, paper))


__all__ = ["InputError", "UnknownPaper", "html_for_blank", "html_for_filled", "pdf_from_documents", "pdf_from_html",
           "qr_svg", "render_blank", "render_filled", "rulings_from"]
