"""Club-night tournaments: who sits at which table each round.

Pure functions, like the rules engines: the same entrants, history, standings
and seed always give the same tables (only random seating without a seed does
not). Nothing here touches Flask, the database or the file system.

**Seating.** :func:`seat_round` returns the tables of one round, each a tuple of
entrant names in seat order. A table size is a number of seats (``4``) or a
range ``(min, max)``; :func:`table_sizes` says how a room of entrants is split.
Nobody sits out: when the tables cannot absorb everyone, :class:`SeatingError`
says so (there are no byes).

>>> table_sizes(10, (3, 4))
(4, 3, 3)
>>> seat_round("round-robin", ["Ann", "Ben", "Cat", "Dan"], 2, 2, [])
[('Ann', 'Cat'), ('Ben', 'Dan')]
>>> seat_round("swiss", ["Ann", "Ben", "Cat", "Dan"], 2, 2, [[("Ann", "Cat"), ("Ben", "Dan")]],
...            standings={"Ann": (1, 40), "Ben": (0, -40), "Cat": (1, 10), "Dan": (0, -10)})
[('Ann', 'Dan'), ('Cat', 'Ben')]

Alliance Royals is played by fixed teams of two, allies opposite each other:
:func:`seat_teams` seats two teams a table, seats 1 and 3 for one, 2 and 4 for
the other.

>>> seat_teams("round-robin", [("Ann", "Cat"), ("Ben", "Dan")], 1, [])
[('Ann', 'Ben', 'Cat', 'Dan')]

The Swiss search lives in :mod:`.swiss`, the round-robin rotations in :mod:`.round_robin`,
the standings in :mod:`.standings`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core.cards import said
from ..core.messages import say, say_n
from ..games.base import is_whole_number
from .round_robin import _round_robin_plan
from .swiss import REPAIR_BUDGET, SEARCH_BUDGET, _swiss_positions

if TYPE_CHECKING:
    from .standings import Standing

METHODS = ("random", "round-robin", "swiss")

#: One table of a round: entrant names in seat order.
Table = tuple[str, ...]
#: Indices into the entrants, the form the seating algorithms work in.
_Tables = tuple[tuple[int, ...], ...]




class SeatingError(ValueError):
    """The entrants cannot be seated as asked; the message says why in a director's words."""


# ---------------------------------------------------------------------------------------
# Table sizes


def table_sizes(count: int, table_size: int | tuple[int, int], what: str = "entrants") -> tuple[int, ...]:
    """How ``count`` entrants are split into tables: as few tables as possible, as even as possible.

    ``table_size`` is an exact number of seats or a range ``(min, max)``. The sizes
    come largest first, so the top tables of a Swiss round are the big ones.

    >>> table_sizes(8, 4), table_sizes(10, (3, 4)), table_sizes(7, (2, 6)), table_sizes(12, (2, 9))
    ((4, 4), (4, 3, 3), (4, 3), (6, 6))
    >>> table_sizes(5, 4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.tournaments.seating.SeatingError: 5 entrants cannot be split into tables of exactly 4 (1 would be ...)
    >>> table_sizes(3, 4)
    Traceback (most recent call last):
    ...
    companion.tournaments.seating.SeatingError: 3 entrants are too few for one table of 4
    """
    low, high = _size_range(table_size)
    if not is_whole_number(count) or count < 0:
        raise SeatingError(f"the number of {what} must be a whole number, not {said(count)}")
    wanted = str(low) if low == high else say("{low} to {high}", low=low, high=high)
    if count < low:
        if what == "teams":
            raise SeatingError(say_n("{count} team is too few for one table of {size}",
                                     "{count} teams are too few for one table of {size}", count, size=wanted))
        raise SeatingError(say_n("{count} entrant is too few for one table of {size}",
                                 "{count} entrants are too few for one table of {size}", count, size=wanted))
    tables = -(-count // high)  # as few tables as possible: ceil(count / high)
    base, extra = divmod(count, tables)
    if base < low:
        # More tables would only make them smaller, so no split fits the range.
        entrants = (say_n("{count} team", "{count} teams", count) if what == "teams"
                    else say_n("{count} entrant", "{count} entrants", count))
        if low == high:
            raise SeatingError(say("{entrants} cannot be split into tables of exactly {size} ({left} would be left "
                                   "over)", entrants=entrants, size=low, left=count % low))
        raise SeatingError(say("{entrants} cannot be split into tables of {size}", entrants=entrants, size=wanted))
    return (base + 1,) * extra + (base,) * (tables - extra)


def _size_range(table_size: object) -> tuple[int, int]:
    """(min, max) seats from an exact size or a range; every table has at least 2 seats."""
    if is_whole_number(table_size):
        low = high = table_size
    elif (isinstance(table_size, Sequence) and not isinstance(table_size, str) and len(table_size) == 2
          and all(is_whole_number(v) for v in table_size)):
        low, high = table_size
    else:
        raise SeatingError(f"a table size is a number of seats or a range (min, max), not {said(table_size)}")
    if low < 2:
        raise SeatingError(f"a table needs at least 2 seats, not {low}")
    if low > high:
        raise SeatingError(f"the smallest table ({low}) cannot be bigger than the largest ({high})")
    return low, high


# ---------------------------------------------------------------------------------------
# Seating one round


def seat_round(method: str, entrants: Sequence[Any], table_size: int | tuple[int, int], round_number: int,
               history: Sequence[Sequence[Sequence[str]]],
               standings: Iterable[Standing] | Mapping[str, tuple[Any, Any]] | None = None,
               seed: int | str | None = None) -> list[Table]:
    """The tables of one round, each a tuple of entrant names in seat order.

    ``entrants`` are names in a fixed order (registration order, say); when they
    are teams, pairs of player names, this is :func:`seat_teams` and ``table_size``
    must be 4. ``history`` is the tables of the rounds played so far, as this
    function returned them. ``round_number`` counts from 1.

    ``"random"``
        Shuffled and split into :func:`table_sizes`. The same ``seed`` and round
        number give the same tables; each round number gives its own shuffle.
        Without a seed the tables are not reproducible. ``history`` is not consulted.
    ``"round-robin"``
        Round ``round_number`` of the fixed rotation :func:`round_robin_schedule`
        (which see for what it guarantees). After its last round it starts again.
        ``history`` is not consulted: the rotation depends only on the entrants'
        order and the table sizes.
    ``"swiss"``
        Entrants in order of ``standings``: match points, then score difference,
        both higher first; equal entrants keep their order in ``entrants`` (shuffled
        first by ``seed`` when one is given). ``standings`` is what :func:`standings`
        returned, or a mapping of name to (match points, score difference); anyone
        missing has 0 and 0, so round 1 can pass None. They are grouped top-down into
        tables, biggest tables first, unless that seats together two entrants who
        shared a table in ``history``. Then a backtracking search finds the seating
        nearest top-down (the top table as high as it can be, then the next...)
        that repeats no pair. It is complete within :data:`SEARCH_BUDGET`
        placements, so if any seating of the round has no repeated pair, the one
        returned has none (the budget was never reached in trials up to 60
        entrants and 8 rounds). When some pair must repeat, swaps between tables
        bring the repeats down and branch and bound, within :data:`REPAIR_BUDGET`,
        looks for fewer; in rooms small enough for it to finish (all those of up to
        10 entrants checked by brute force) the result has the fewest repeats
        possible and is the nearest top-down among those. Seats follow the standings.

    >>> seat_round("random", ["Ann", "Ben", "Cat", "Dan"], 2, 1, [], seed=7) == \\
    ...     seat_round("random", ["Ann", "Ben", "Cat", "Dan"], 2, 1, [], seed=7)
    True
    >>> seat_round("knockout", ["Ann", "Ben"], 2, 1, [])
    Traceback (most recent call last):
    ...
    companion.tournaments.seating.SeatingError: unknown seating method “knockout”; use random, round-robin or swiss
    """
    if entrants and not all(isinstance(e, str) for e in entrants):
        low, high = _size_range(table_size)
        if (low, high) != (4, 4):
            raise SeatingError("teams of two sit two teams to a table of 4 seats; the table size must be 4")
        return seat_teams(method, entrants, round_number, history, standings, seed)
    names = _check_names(entrants)
    sizes = table_sizes(len(names), table_size)
    index = {name: i for i, name in enumerate(names)}
    tables = _seat(method, names, sizes, round_number, _met(len(names), history, index.get), standings, seed)
    return [tuple(names[i] for i in table) for table in tables]


def seat_teams(method: str, teams: Sequence[Sequence[str]], round_number: int,
               history: Sequence[Sequence[Sequence[str]]],
               standings: Iterable[Standing] | Mapping[str, tuple[Any, Any]] | None = None,
               seed: int | str | None = None) -> list[tuple[str, str, str, str]]:
    """Alliance Royals: two fixed teams of two at each table, allies opposite.

    Each table is four player names in seat order: the first team in seats 1 and
    3, the other in seats 2 and 4, each team's players in the order given. The
    teams are seated as :func:`seat_round` seats entrants at tables of 2, with the
    same methods and guarantees; ``history`` holds tables of four players as this
    function returned them, and ``standings`` names each team by :func:`team_name`.
    An odd number of teams cannot be seated (there are no byes).

    >>> teams = [("Ann", "Cat"), ("Ben", "Dan"), ("Eve", "Gus"), ("Fay", "Hal")]
    >>> seat_teams("round-robin", teams, 2, [])
    [('Ann', 'Eve', 'Cat', 'Gus'), ('Ben', 'Fay', 'Dan', 'Hal')]
    >>> seat_teams("swiss", teams[:3], 1, [])
    Traceback (most recent call last):
    ...
    companion.tournaments.seating.SeatingError: 3 teams cannot be split into tables of exactly 2 (1 would be left over)
    """
    pairs = _check_teams(teams)
    names = [team_name(t) for t in pairs]
    team_of = {player: i for i, team in enumerate(pairs) for player in team}
    sizes = table_sizes(len(pairs), 2, what="teams")
    met = _met(len(pairs), history, team_of.get)
    tables = _seat(method, names, sizes, round_number, met, standings, seed)
    out = []
    for first, second in tables:
        (a1, a2), (b1, b2) = pairs[first], pairs[second]
        out.append((a1, b1, a2, b2))
    return out


def team_name(team: Sequence[str]) -> str:
    """How a team is named in standings and table results.

    >>> team_name(("Ann", "Cat"))
    'Ann & Cat'
    """
    return " & ".join(team)


def _seat(method: str, names: Sequence[str], sizes: tuple[int, ...], round_number: int,
          met: list[list[int]], standings: object, seed: int | str | None) -> _Tables:
    if method not in METHODS:
        raise SeatingError(f"unknown seating method {said(method)}; use random, round-robin or swiss")
    if not is_whole_number(round_number) or round_number < 1:
        raise SeatingError(f"rounds are numbered from 1, not {said(round_number)}")
    if method == "random":
        rng = random.Random(f"{seed}:{round_number}") if seed is not None else random.Random()
        order = list(range(len(names)))
        rng.shuffle(order)
        return _chunk(order, sizes)
    if method == "round-robin":
        plan = _round_robin_plan(len(names), sizes, round_number)  # planned no further than this round
        return plan[(round_number - 1) % len(plan)]
    order = list(range(len(names)))
    if seed is not None:
        random.Random(f"{seed}:swiss").shuffle(order)
    keys = _standing_keys(standings)
    order.sort(key=lambda i: keys.get(names[i], (0, 0)), reverse=True)  # stable: ties keep their order
    clash = [[met[a][b] > 0 for b in order] for a in order]
    return tuple(tuple(order[p] for p in table) for table in _swiss_positions(clash, sizes))


def _chunk(order: Sequence[int], sizes: Sequence[int]) -> _Tables:
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(order[start:start + size]))
        start += size
    return tuple(tables)


def _check_names(entrants: Sequence[Any]) -> list[str]:
    if isinstance(entrants, str) or not isinstance(entrants, Sequence):
        raise SeatingError("give the entrants as a list of names")
    seen: set[str] = set()
    for name in entrants:
        if not isinstance(name, str) or not name.strip():
            raise SeatingError(f"each entrant needs a name, not {said(name)}")
        if name in seen:
            raise SeatingError(f"{name} is entered twice; each entrant sits at one table a round")
        seen.add(name)
    return list(entrants)


def _check_teams(teams: Sequence[Sequence[str]]) -> list[tuple[str, str]]:
    if isinstance(teams, str) or not isinstance(teams, Sequence):
        raise SeatingError("give the teams as a list of pairs of player names")
    pairs: list[tuple[str, str]] = []
    seen: set[str] = set()
    for team in teams:
        if isinstance(team, str) or not isinstance(team, Sequence) or len(team) != 2:
            raise SeatingError(f"a team is a pair of player names, not {said(team)}")
        for name in team:
            if not isinstance(name, str) or not name.strip():
                raise SeatingError(f"each player needs a name, not {said(name)}")
            if name in seen:
                raise SeatingError(f"{name} is in two teams; a team is never split")
            seen.add(name)
        pairs.append((team[0], team[1]))
    return pairs


def _met(n: int, history: object, unit_of: Callable[[str], int | None]) -> list[list[int]]:
    """How often each two of the n entrants shared a table in ``history``.

    ``unit_of`` maps a name seated in the history to an entrant's index, or to None
    for someone no longer entered (they are ignored).
    """
    if isinstance(history, str) or not isinstance(history, Sequence):
        raise SeatingError("give the history as a list of rounds, each a list of tables")
    met = [[0] * n for _ in range(n)]
    for r, tables in enumerate(history, start=1):
        if isinstance(tables, str) or not isinstance(tables, Sequence):
            raise SeatingError(f"round {r} of the history must be a list of tables")
        for table in tables:
            if isinstance(table, str) or not isinstance(table, Sequence):
                raise SeatingError(f"each table of round {r} of the history must be a list of names")
            units = set()
            for seated in table:
                if not isinstance(seated, str):
                    raise SeatingError(f"round {r} of the history seats {said(seated)}, which is not a name")
                unit = unit_of(seated)
                if unit is not None:
                    units.add(unit)
            for a in units:
                for b in units:
                    if a != b:
                        met[a][b] += 1
    return met


def _standing_keys(standings: object) -> dict[str, tuple[Any, Any]]:
    """Name to (match points, score difference), from :func:`standings` or a mapping."""
    if standings is None:
        return {}
    try:
        if isinstance(standings, Mapping):
            keys = {name: (mp, sd) for name, (mp, sd) in standings.items()}
        else:
            keys = {s.name: (s.match_points, s.score_difference) for s in standings}
        sorted(keys.values())  # the points must compare
    except (AttributeError, TypeError, ValueError):
        raise SeatingError("give the standings as standings() returned them, or as a mapping of "
                           "name to (match points, score difference)") from None
    return keys


def repeated_pairs(tables: Iterable[Sequence[str]],
                   history: Sequence[Sequence[Sequence[str]]]) -> list[tuple[str, str]]:
    """The pairs at the same table in ``tables`` who already shared one in ``history``.

    >>> repeated_pairs([("Ann", "Ben", "Cat")], [[("Ann", "Cat", "Dan")], [("Ben", "Eve")]])
    [('Ann', 'Cat')]
    """
    before = {frozenset((a, b)) for rnd in history for table in rnd for a in table for b in table if a != b}
    return [(a, b) for table in tables for i, a in enumerate(table) for b in table[i + 1:]
            if frozenset((a, b)) in before]


# ---------------------------------------------------------------------------------------
# Round-robin: a rotation in which every two entrants meet


def round_robin_schedule(entrants: Sequence[str], table_size: int | tuple[int, int]) -> list[list[Table]]:
    """Every round of the round-robin rotation; every two entrants share a table in one of them.

    The rotation is fixed by the entrants' order and the table sizes. It ends with
    the round in which the last two entrants who had not met meet. No rotation can
    be shorter than ceil((n - 1) / (k - 1)) rounds for n entrants at tables of k
    (each round an entrant meets at most k - 1 others). This one is that short:

    * one table: 1 round;
    * tables of 2, n even: the circle method, n - 1 rounds, each pair meeting exactly once;
    * t tables of k where t is 2, 3, 4, 5, 7, 8 or 9 and k is a multiple of t (8 at
      tables of 4, 12 at 6, 9 at 3, 18 at 6, 16 at 4, 25 at 5...): t + 1 rounds, from the
      affine plane of order t with each of its t * t points a block of k / t entrants.
      When k = t every pair meets exactly once.

    Otherwise (6 at tables of 3, 12 at 4, tables of mixed sizes such as 10 at 3-4)
    each round is built greedily to seat together as many pairs who have not yet
    met as it can (spreading the repeats when there is a choice), improved by
    swapping entrants between tables while that helps. The early rounds are the
    freshest, which suits an evening cut short. Every round meets at least one new
    pair, so all pairs are met in at most n(n - 1)/2 rounds. Measured for every room
    of up to 32 entrants: at most 3 rounds over the bound at exact sizes of 3 to 9
    seats (6 at 3: 4 rounds, which is optimal; 12 at 4: 6), at most 4 over with a
    range of sizes (the bound taken at the largest).

    >>> for rnd in round_robin_schedule(["A", "B", "C", "D", "E", "F", "G", "H"], 4):
    ...     print(rnd)
    [('A', 'B', 'C', 'D'), ('E', 'F', 'G', 'H')]
    [('A', 'B', 'E', 'F'), ('C', 'D', 'G', 'H')]
    [('A', 'B', 'G', 'H'), ('C', 'D', 'E', 'F')]
    """
    names = _check_names(entrants)
    plan = _round_robin_plan(len(names), table_sizes(len(names), table_size))
    return [[tuple(names[i] for i in table) for table in rnd] for rnd in plan]


__all__ = [
    "METHODS", "REPAIR_BUDGET", "SEARCH_BUDGET", "SeatingError", "Table", "repeated_pairs", "round_robin_schedule",
    "seat_round", "seat_teams", "table_sizes", "team_name",
]
