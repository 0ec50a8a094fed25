"""Tournament standings: match points by finishing place at each table, then score difference.

Pure functions, like the rules engines.

:func:`standings` turns each table's result into match points
by finishing place and a score difference, summed over the rounds.

>>> board = standings([
...     {"round": 1, "table": 1, "players": ["Ann", "Ben", "Cat"], "totals": {"Ann": 90, "Ben": 60, "Cat": 60},
...      "winners": ["Ann"], "over": True},
... ])
>>> [(s.rank, s.name, s.match_points_display, s.score_difference_display) for s in board]
[(1, 'Ann', '2', '+20'), (2, 'Ben', '½', '−10'), (2, 'Cat', '½', '−10')]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ..core import messages
from ..core.cards import said
from ..games.base import InputError, Problem, Problems, is_whole_number


class ResultsError(InputError):
    """The table results cannot be turned into standings; ``problems`` lists every reason."""


@dataclass(frozen=True)
class TableScore:
    """One entrant's result at one table, as counted in the standings."""

    round: int
    table: int
    size: int
    total: int
    place: int
    tied: bool
    match_points: Fraction
    score_difference: Fraction
    #: False when time was called on the table before its game ended: it counted as it stood.
    finished: bool = True

    @property
    def match_points_display(self) -> str:
        return show_fraction(self.match_points)

    def as_json(self) -> dict[str, Any]:
        return {
            "round": self.round, "table": self.table, "size": self.size, "total": self.total,
            "place": self.place, "tied": self.tied,
            "match_points": str(self.match_points), "score_difference": str(self.score_difference),
            "finished": self.finished,
        }


@dataclass(frozen=True)
class Standing:
    """One entrant's line in the standings. Points are exact fractions; the displays are for people."""

    rank: int
    name: str
    match_points: Fraction
    score_difference: Fraction
    played: int
    tables: tuple[TableScore, ...]

    @property
    def match_points_display(self) -> str:
        return show_fraction(self.match_points)

    @property
    def score_difference_display(self) -> str:
        return show_difference(self.score_difference)

    def as_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank, "name": self.name,
            "match_points": str(self.match_points), "match_points_display": self.match_points_display,
            "score_difference": str(self.score_difference),
            "score_difference_display": self.score_difference_display,
            "played": self.played, "tables": [t.as_json() for t in self.tables],
        }


def standings(results: Sequence[Mapping[str, Any]], include_unfinished: bool = False,
              entrants: Iterable[str] = ()) -> list[Standing]:
    """The standings after the tables in ``results``, best first.

    Each result is one table: ``{"round": 1, "table": 2, "players": [...], "totals":
    {name: points}, "winners": [...], "over": true}`` (for Alliance Royals the
    players are the teams, named by :func:`team_name`, with the teams' totals). Add
    ``"low_wins": true`` for a game where the lowest total is best (pool rummy), and
    ``"called": true`` for a table still playing when the director called time: it
    counts as it stands, by totals, and its scores are marked unfinished.
    Other fields (a table's id, say) are the caller's and are ignored.

    Places at a table: the winners of a finished game first, sharing the top
    places whatever their totals (a surrender decides a game); then everyone
    else by total, best first. Equal totals share places.

    Match points: at a table of k entrants the places are worth k - 1, k - 2, ..., 0.
    Entrants sharing places share those points equally (two tied for 2nd and 3rd
    at a table of 4 get 1½ each), so every table hands out k(k - 1)/2 match points
    and a tie is worth no more than a decided place.

    Score difference: the entrant's total minus the average total at the table
    (the average minus the total when low wins), so it sums to 0 at each table
    and tables of different sizes compare.

    Both are exact :class:`fractions.Fraction` sums over the tables played;
    ``match_points_display`` and ``score_difference_display`` show them as
    people write them (``3½``, ``−12⅓``). A table whose game is not over is
    left out, unless ``include_unfinished`` (time was called): then it counts as
    it stands, by totals. Names in ``entrants`` who played no counted table are
    listed with 0 of everything.

    The order: match points, then score difference, both higher first, then name.
    Entrants equal on both points share a rank (1, 2, 2, 4).
    """
    if isinstance(results, str | bytes | Mapping) or not isinstance(results, Sequence):
        raise ResultsError([Problem("results", "give the results as a list of tables")])
    return _ranked(_table_scores(results, include_unfinished, entrants))


def _table_scores(results: Sequence[Mapping[str, Any]], include_unfinished: bool,
                  entrants: Iterable[str]) -> dict[str, list[TableScore]]:
    """Each entrant's scores at the tables that count, in the order given; every problem raised at once."""
    found = Problems()
    lines: dict[str, list[TableScore]] = {name: [] for name in entrants}
    seen_tables: dict[tuple[int, int], int] = {}
    seated: dict[tuple[int, str], int] = {}
    for i, raw in enumerate(results):
        table = _parse_result(raw, f"results[{i}]", found)
        if table is None:
            continue
        rnd, number, players, totals, winners, over, low_wins = table
        called = raw.get("called") is True
        if (rnd, number) in seen_tables:
            found.add(f"results[{i}].table",
                      f"round {rnd} table {number} is already given as results[{seen_tables[rnd, number]}]")
            continue
        seen_tables[rnd, number] = i
        clashes = False
        for name in players:
            if (rnd, name) in seated:
                found.add(f"results[{i}].players",
                          f"{name} is also at results[{seated[rnd, name]}] in round {rnd}; one table a round")
                clashes = True
            seated[rnd, name] = i
        if clashes or (not over and not include_unfinished and not called):
            continue
        for name, score in _score_table(rnd, number, players, totals, winners if over else (), low_wins):
            lines.setdefault(name, []).append(score if over else replace(score, finished=False))
    if found:
        raise ResultsError(found)
    return lines


def _ranked(lines: dict[str, list[TableScore]]) -> list[Standing]:
    """The entrants by match points, then score difference, then name; equals share a rank."""
    rows = []
    for name, scores in lines.items():
        scores.sort(key=lambda s: (s.round, s.table))
        rows.append((sum((s.match_points for s in scores), Fraction(0)),
                     sum((s.score_difference for s in scores), Fraction(0)), name, tuple(scores)))
    rows.sort(key=lambda r: (-r[0], -r[1], r[2].casefold(), r[2]))
    out: list[Standing] = []
    for position, (mp, sd, name, scores) in enumerate(rows, start=1):
        rank = out[-1].rank if out and (out[-1].match_points, out[-1].score_difference) == (mp, sd) else position
        out.append(Standing(rank, name, mp, sd, len(scores), scores))
    return out


def _parse_result(raw: object, at: str, found: Problems):
    """One table's result after its shape is checked, or None (with problems recorded)."""
    if not isinstance(raw, Mapping):
        found.add(at, "each result is an object with round, table, players, totals, winners and over")
        return None
    before = len(list(found))
    rnd, number = raw.get("round"), raw.get("table")
    if not is_whole_number(rnd) or rnd < 1:
        found.add(f"{at}.round", f"rounds are numbered from 1, not {said(rnd)}")
    if not is_whole_number(number) or number < 1:
        found.add(f"{at}.table", f"tables are numbered from 1, not {said(number)}")
    players = raw.get("players")
    if not isinstance(players, list) or len(players) < 2:
        found.add(f"{at}.players", "give the entrants at the table as a list of at least two names")
        players = []
    names: list[str] = []
    for j, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            found.add(f"{at}.players[{j}]", f"each entrant needs a name, not {said(name)}")
        elif name in names:
            found.add(f"{at}.players[{j}]", f"{name} is at this table twice")
        else:
            names.append(name)
    totals = raw.get("totals")
    if not isinstance(totals, Mapping):
        found.add(f"{at}.totals", "give each entrant's total as an object of name to points")
        totals = {}
    for name in names:
        if name not in totals:
            found.add(f"{at}.totals", f"{name}'s total is missing")
        elif not is_whole_number(totals[name]):
            found.add(f"{at}.totals.{name}", f"a total is a whole number of points, not {said(totals[name])}")
    for name in totals:
        if name not in names:
            found.add(f"{at}.totals.{name}", f"{said(name)} is not at this table ({', '.join(names)})")
    winners = raw.get("winners", [])
    if not isinstance(winners, list):
        found.add(f"{at}.winners", "winners must be a list of names")
        winners = []
    for name in winners:
        if not isinstance(name, str) or name not in names:
            found.add(f"{at}.winners", f"{said(name)} is not at this table ({', '.join(names)})")
    over, low_wins = raw.get("over"), raw.get("low_wins", False)
    if not isinstance(over, bool):
        found.add(f"{at}.over", "say whether the game is over (true or false)")
    if not isinstance(low_wins, bool):
        found.add(f"{at}.low_wins", "low_wins must be true or false")
    if len(list(found)) > before:
        return None
    return rnd, number, names, {n: totals[n] for n in names}, tuple(dict.fromkeys(winners)), over, low_wins


def _score_table(rnd: int, number: int, players: Sequence[str], totals: Mapping[str, int],
                 winners: Sequence[str], low_wins: bool) -> list[tuple[str, TableScore]]:
    """Places, match points and score differences at one table.

    >>> [(name, s.place, s.tied, str(s.match_points), str(s.score_difference))
    ...  for name, s in _score_table(1, 1, ["A", "B", "C", "D"], {"A": 9, "B": 5, "C": 5, "D": 1}, (), False)]
    [('A', 1, False, '3', '4'), ('B', 2, True, '3/2', '0'), ('C', 2, True, '3/2', '0'), ('D', 4, False, '0', '-4')]
    """
    k = len(players)
    sign = -1 if low_wins else 1
    average = Fraction(sum(totals.values()), k)

    def key(name: str) -> tuple[bool, int]:
        return name in winners, sign * totals[name]

    ranked = sorted(players, key=key, reverse=True)
    out = []
    place = 0
    while place < k:
        group = [p for p in ranked if key(p) == key(ranked[place])]
        # Places place..place+m-1 (0 is first) are worth k-1-place down to k-place-m; they share the average.
        points = Fraction(2 * (k - 1 - place) - (len(group) - 1), 2)
        for name in group:
            out.append((name, TableScore(rnd, number, k, totals[name], place + 1, len(group) > 1, points,
                                         sign * (totals[name] - average))))
        place += len(group)
    order = {name: i for i, name in enumerate(players)}
    return sorted(out, key=lambda item: order[item[0]])


_VULGAR = {
    (1, 2): "½", (1, 3): "⅓", (2, 3): "⅔", (1, 4): "¼", (3, 4): "¾", (1, 5): "⅕", (2, 5): "⅖", (3, 5): "⅗",
    (4, 5): "⅘", (1, 6): "⅙", (5, 6): "⅚", (1, 7): "⅐", (1, 8): "⅛", (3, 8): "⅜", (5, 8): "⅝", (7, 8): "⅞",
    (1, 9): "⅑", (1, 10): "⅒",
}


def show_fraction(value: Fraction | int, signed: bool = False) -> str:
    """An exact number as people write it: whole part, then the fraction, a true minus sign.

    >>> [show_fraction(Fraction(n, d)) for n, d in ((7, 2), (1, 2), (-37, 3), (0, 1), (31, 12))]
    ['3½', '½', '−12⅓', '0', '2 7/12']
    >>> show_fraction(Fraction(5, 4), signed=True), show_fraction(Fraction(-1, 11), signed=True)
    ('+1¼', '−1/11')
    """
    value = Fraction(value)
    sign = "−" if value < 0 else ("+" if signed and value > 0 else "")
    whole, part = divmod(abs(value), 1)
    if not part:
        return f"{sign}{whole}"
    fraction = _VULGAR.get((part.numerator, part.denominator), f"{part.numerator}/{part.denominator}")
    if not whole:
        return f"{sign}{fraction}"
    return f"{sign}{whole}{fraction}" if len(fraction) == 1 else f"{sign}{whole} {fraction}"


def show_difference(value: Fraction | int) -> str:
    """A score difference as a player reads it: signed, whole numbers plainly, else one decimal.

    Differences are sums of thirds, fifths, sixths... of a point (a table's average), so a
    fraction would read "+7/10" or "−37 3/10"; one decimal reads at a glance and lines up in
    the column. The ranking uses the exact value; the display rounds half away from zero, and
    a difference too small to show keeps its sign ("+0.0").

    >>> [show_difference(Fraction(n, d)) for n, d in ((7, 10), (-373, 10), (130, 3), (-20, 3), (0, 1), (30, 1))]
    ['+0.7', '−37.3', '+43.3', '−6.7', '0', '+30']
    >>> show_difference(Fraction(1, 20)), show_difference(Fraction(-1, 30))
    ('+0.1', '−0.0')
    >>> with messages.speaking("fr"):
    ...     show_difference(Fraction(-373, 10))
    '−37,3'
    """
    value = Fraction(value)
    if value.denominator == 1:
        return show_fraction(value, signed=True)
    tenths = (abs(value) * 10 + Fraction(1, 2)).__floor__()
    sign = "−" if value < 0 else "+"
    point = "," if messages.language() == "fr" else "."  # the decimal comma, as French writes it
    return f"{sign}{tenths // 10}{point}{tenths % 10}"


__all__ = ["ResultsError", "Standing", "TableScore", "show_difference", "show_fraction", "standings"]
