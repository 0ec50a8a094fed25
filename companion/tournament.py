"""Club-night tournaments: who sits at which table each round, and the standings.

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

**Standings.** :func:`standings` turns each table's result into match points
by finishing place and a score difference, summed over the rounds.

>>> board = standings([
...     {"round": 1, "table": 1, "players": ["Ann", "Ben", "Cat"], "totals": {"Ann": 90, "Ben": 60, "Cat": 60},
...      "winners": ["Ann"], "over": True},
... ])
>>> [(s.rank, s.name, s.match_points_display, s.score_difference_display) for s in board]
[(1, 'Ann', '2', '+20'), (2, 'Ben', '½', '−10'), (2, 'Cat', '½', '−10')]
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from .games.base import InputError, Problem, Problems, is_whole_number

METHODS = ("random", "round-robin", "swiss")

#: One table of a round: entrant names in seat order.
Table = tuple[str, ...]
#: Indices into the entrants, the form the seating algorithms work in.
_Tables = tuple[tuple[int, ...], ...]

#: The Swiss search for a seating with no repeated pair tries at most this many placements
#: (see :func:`seat_round`); club-night rooms stay far below it. When some pair must repeat,
#: the search for the fewest repeats gets :data:`REPAIR_BUDGET` more.
SEARCH_BUDGET = 100_000
REPAIR_BUDGET = 20_000

#: Orders of the finite fields the affine-plane rotation is built on (every prime power up to 9).
_FIELD_ORDERS = {2: (2, 1), 3: (3, 1), 4: (2, 2), 5: (5, 1), 7: (7, 1), 8: (2, 3), 9: (3, 2)}
#: Irreducible polynomials (coefficients, lowest power first) for the fields that are not prime.
_IRREDUCIBLE = {4: (1, 1, 1), 8: (1, 1, 0, 1), 9: (1, 0, 1)}


class SeatingError(ValueError):
    """The entrants cannot be seated as asked; the message says why in a director's words."""


class ResultsError(InputError):
    """The table results cannot be turned into standings; ``problems`` lists every reason."""


# ---------------------------------------------------------------------------------------
# Table sizes


def table_sizes(count: int, table_size: int | tuple[int, int], what: str = "entrants") -> tuple[int, ...]:
    """How ``count`` entrants are split into tables: as few tables as possible, as even as possible.

    ``table_size`` is an exact number of seats or a range ``(min, max)``. The sizes
    come largest first, so the top tables of a Swiss round are the big ones.

    >>> table_sizes(8, 4), table_sizes(10, (3, 4)), table_sizes(7, (2, 6)), table_sizes(12, (2, 9))
    ((4, 4), (4, 3, 3), (4, 3), (6, 6))
    >>> table_sizes(5, 4)
    Traceback (most recent call last):
    ...
    companion.tournament.SeatingError: 5 entrants cannot be split into tables of exactly 4 (1 would be left over)
    >>> table_sizes(3, 4)
    Traceback (most recent call last):
    ...
    companion.tournament.SeatingError: 3 entrants are too few for one table of 4
    """
    low, high = _size_range(table_size)
    if not is_whole_number(count) or count < 0:
        raise SeatingError(f"the number of {what} must be a whole number, not {count!r}")
    wanted = f"exactly {low}" if low == high else f"{low} to {high}"
    if count < low:
        are = f"1 {what.removesuffix('s')} is" if count == 1 else f"{count} {what} are"
        raise SeatingError(f"{are} too few for one table of {wanted.removeprefix('exactly ')}")
    tables = -(-count // high)  # as few tables as possible: ceil(count / high)
    base, extra = divmod(count, tables)
    if base < low:
        # More tables would only make them smaller, so no split fits the range.
        if low == high:
            raise SeatingError(f"{count} {what} cannot be split into tables of exactly {low} "
                               f"({count % low} would be left over)")
        raise SeatingError(f"{count} {what} cannot be split into tables of {wanted}")
    return (base + 1,) * extra + (base,) * (tables - extra)


def _size_range(table_size: object) -> tuple[int, int]:
    """(min, max) seats from an exact size or a range; every table has at least 2 seats."""
    if is_whole_number(table_size):
        low = high = table_size
    elif (isinstance(table_size, Sequence) and not isinstance(table_size, str) and len(table_size) == 2
          and all(is_whole_number(v) for v in table_size)):
        low, high = table_size
    else:
        raise SeatingError(f"a table size is a number of seats or a range (min, max), not {table_size!r}")
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
    companion.tournament.SeatingError: unknown seating method 'knockout'; use random, round-robin or swiss
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
    companion.tournament.SeatingError: 3 teams cannot be split into tables of exactly 2 (1 would be left over)
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
        raise SeatingError(f"unknown seating method {method!r}; use random, round-robin or swiss")
    if not is_whole_number(round_number) or round_number < 1:
        raise SeatingError(f"rounds are numbered from 1, not {round_number!r}")
    if method == "random":
        rng = random.Random(f"{seed}:{round_number}") if seed is not None else random.Random()
        order = list(range(len(names)))
        rng.shuffle(order)
        return _chunk(order, sizes)
    if method == "round-robin":
        plan = _round_robin_plan(len(names), sizes)
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
            raise SeatingError(f"each entrant needs a name, not {name!r}")
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
            raise SeatingError(f"a team is a pair of player names, not {team!r}")
        for name in team:
            if not isinstance(name, str) or not name.strip():
                raise SeatingError(f"each player needs a name, not {name!r}")
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
                    raise SeatingError(f"round {r} of the history seats {seated!r}, which is not a name")
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
# Swiss: the seating nearest top-down with the fewest repeated pairs


class _OutOfSteps(Exception):
    pass


def _swiss_positions(clash: list[list[bool]], sizes: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Tables of positions in the standings (0 is the leader) for a Swiss round.

    ``clash[p][q]`` says the entrants at positions p and q shared a table before.
    Top-down when that repeats no pair. Otherwise a complete search for a seating
    with no repeated pair; if there is none, swaps between tables cut the repeats
    down, and branch and bound looks for fewer. The searches walk seatings in the
    same order (the leader's table as high as possible, then the next table's...),
    so a search that finishes returns the seating nearest top-down among those
    with the fewest repeats.

    >>> clash = [[False] * 4 for _ in range(4)]
    >>> clash[0][1] = clash[1][0] = True  # the two leaders met last round
    >>> _swiss_positions(clash, (2, 2))
    [(0, 2), (1, 3)]
    """
    top_down = [tuple(range(start, start + size)) for start, size in zip(_starts(sizes), sizes, strict=True)]
    if _repeats(clash, top_down) == 0:
        return top_down
    bound = [0]
    try:
        for tables, _ in _seatings(clash, sizes, bound, SEARCH_BUDGET):
            return tables
    except _OutOfSteps:
        pass
    best = _fewer_repeats(clash, top_down)
    bound[0] = _repeats(clash, best)
    try:
        for tables, cost in _seatings(clash, sizes, bound, REPAIR_BUDGET):
            best, bound[0] = tables, cost - 1
            if cost == 0:
                break
    except _OutOfSteps:
        pass
    return best


def _starts(sizes: Sequence[int]) -> list[int]:
    starts, at = [], 0
    for size in sizes:
        starts.append(at)
        at += size
    return starts


def _repeats(clash: list[list[bool]], tables: Iterable[Sequence[int]]) -> int:
    return sum(clash[a][b] for t in tables for i, a in enumerate(t) for b in t[i + 1:])


def _fewer_repeats(clash: list[list[bool]], tables: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """Swap two entrants at different tables while that repeats fewer pairs, nearest in standing first."""
    seats = [list(t) for t in tables]
    table_of = {p: i for i, t in enumerate(seats) for p in t}
    n = len(table_of)
    candidates = sorted(((p, q) for p in range(n) for q in range(p + 1, n)), key=lambda pq: (pq[1] - pq[0], pq))

    def cost_at(p: int, table: list[int], leaving: int) -> int:
        return sum(clash[p][r] for r in table if r != leaving and r != p)

    improved = True
    while improved:
        improved = False
        for p, q in candidates:
            tp, tq = seats[table_of[p]], seats[table_of[q]]
            if tp is tq:
                continue
            if cost_at(q, tp, p) + cost_at(p, tq, q) < cost_at(p, tp, p) + cost_at(q, tq, q):
                tp[tp.index(p)], tq[tq.index(q)] = q, p
                table_of[p], table_of[q] = table_of[q], table_of[p]
                improved = True
    return [tuple(sorted(t)) for t in seats]


def _seatings(clash: list[list[bool]], sizes: tuple[int, ...], bound: list[int],
              budget: int) -> Iterator[tuple[list[tuple[int, ...]], int]]:
    """Every seating with at most ``bound[0]`` repeated pairs, nearest top-down first.

    ``bound`` may be lowered while the seatings are being read. The highest
    unseated position always opens the next table (someone must sit with them),
    at each size still to fill, bigger first; companions are taken highest first.
    Raises :class:`_OutOfSteps` after ``budget`` placements.
    """
    n = len(clash)
    steps = 0
    seated = [False] * n
    left = Counter(sizes)
    tables: list[list[int]] = []

    def step() -> None:
        nonlocal steps
        steps += 1
        if steps > budget:
            raise _OutOfSteps

    def has_clique(pool: list[int], size: int) -> bool:
        """Are there ``size`` entrants in ``pool`` of whom no two have met?"""
        if size <= 0:
            return True
        for i, p in enumerate(pool):
            rest = [q for q in pool[i + 1:] if not clash[p][q]]
            if len(rest) >= size - 1 and has_clique(rest, size - 1):
                return True
        return False

    def hopeless(cost: int) -> bool:
        """Is the bound out of reach? Someone with too few strangers left repeats at least the shortfall;
        with no repeat to spare, everyone must find a table's worth of mutual strangers."""
        need = min(s for s, c in left.items() if c) - 1
        free = [p for p in range(n) if not seated[p]]
        strangers = {p: [q for q in free if q != p and not clash[p][q]] for p in free}
        shortfall = sum(max(0, need - len(s)) for s in strangers.values())
        if cost + (shortfall + 1) // 2 > bound[0]:
            return True
        return cost == bound[0] and need >= 2 and not all(has_clique(s, need) for s in strangers.values())

    def fill(table: list[int], size: int, start: int, cost: int) -> Iterator[tuple[list[tuple[int, ...]], int]]:
        if len(table) == size:
            yield from place(cost)
            return
        for p in range(start, n):
            if seated[p]:
                continue
            extra = sum(clash[p][q] for q in table)
            if cost + extra > bound[0]:
                continue
            step()
            seated[p] = True
            table.append(p)
            yield from fill(table, size, p + 1, cost + extra)
            table.pop()
            seated[p] = False

    def place(cost: int) -> Iterator[tuple[list[tuple[int, ...]], int]]:
        first = next((p for p in range(n) if not seated[p]), None)
        if first is None:
            yield [tuple(t) for t in tables], cost
            return
        if hopeless(cost):
            return
        for size in sorted((s for s, c in left.items() if c), reverse=True):
            left[size] -= 1
            seated[first] = True
            table = [first]
            tables.append(table)
            yield from fill(table, size, first + 1, cost)
            tables.pop()
            seated[first] = False
            left[size] += 1

    yield from place(0)


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


@lru_cache(maxsize=64)
def _round_robin_plan(n: int, sizes: tuple[int, ...]) -> tuple[_Tables, ...]:
    if len(sizes) == 1:
        return ((tuple(range(n)),),)
    if set(sizes) == {2}:
        return _circle(n)
    k, t = sizes[0], len(sizes)
    if len(set(sizes)) == 1 and t in _FIELD_ORDERS and k % t == 0:
        return _affine(t, k // t)
    return _greedy_plan(n, sizes)


def _circle(n: int) -> tuple[_Tables, ...]:
    """The circle method for an even n: 0 stays put, the others turn one place a round.

    >>> _circle(4)
    (((0, 3), (1, 2)), ((0, 2), (1, 3)), ((0, 1), (2, 3)))
    """
    others = list(range(1, n))
    rounds = []
    for _ in range(n - 1):
        ring = [0, *others]
        tables = sorted(tuple(sorted((ring[i], ring[n - 1 - i]))) for i in range(n // 2))
        rounds.append(tuple(tables))
        others = others[-1:] + others[:-1]
    return tuple(rounds)


def _affine(q: int, block: int) -> tuple[_Tables, ...]:
    """The q + 1 parallel classes of the affine plane over GF(q), each point a block of entrants.

    Point (x, y) holds entrants block * (x * q + y) onwards. Round 1 is the lines
    x = c (entrants in their order), then y = m x + b for each slope m. Two points
    lie on exactly one line, so two entrants share a table in exactly one round,
    or in every round when they share a block.

    >>> _affine(3, 1)[1]
    ((0, 3, 6), (1, 4, 7), (2, 5, 8))
    """
    add, mul = _field(q)
    classes = [[[(x, y) for y in range(q)] for x in range(q)]]
    for m in range(q):
        lines: dict[int, list[tuple[int, int]]] = {}
        for x in range(q):
            for y in range(q):
                # y = m x + b, so b = y - m x; in characteristic p, -v is v added p - 1 times.
                b = y
                for _ in range(_FIELD_ORDERS[q][0] - 1):
                    b = add(b, mul(m, x))
                lines.setdefault(b, []).append((x, y))
        classes.append([lines[b] for b in sorted(lines)])
    rounds = []
    for lines in classes:
        tables = [tuple(sorted(block * (x * q + y) + i for x, y in line for i in range(block))) for line in lines]
        rounds.append(tuple(sorted(tables)))
    return tuple(rounds)


def _field(q: int):
    """Addition and multiplication in GF(q), its elements numbered 0..q-1 by their base-p digits.

    >>> add, mul = _field(4)
    >>> [mul(2, v) for v in range(4)], add(2, 3)
    ([0, 2, 3, 1], 1)
    """
    p, m = _FIELD_ORDERS[q]

    def digits(v: int) -> list[int]:
        return [(v // p ** i) % p for i in range(m)]

    def number(ds: Sequence[int]) -> int:
        return sum(d * p ** i for i, d in enumerate(ds))

    def add(a: int, b: int) -> int:
        return number([(x + y) % p for x, y in zip(digits(a), digits(b), strict=True)])

    def mul(a: int, b: int) -> int:
        if m == 1:
            return a * b % p
        product = [0] * (2 * m - 1)
        for i, x in enumerate(digits(a)):
            for j, y in enumerate(digits(b)):
                product[i + j] = (product[i + j] + x * y) % p
        poly = _IRREDUCIBLE[q]
        for top in range(len(product) - 1, m - 1, -1):  # reduce by the monic irreducible polynomial
            c = product[top]
            if c:
                for i, coeff in enumerate(poly):
                    product[top - m + i] = (product[top - m + i] - c * coeff) % p
        return number(product[:m])

    return add, mul


def _greedy_plan(n: int, sizes: tuple[int, ...]) -> tuple[_Tables, ...]:
    """Rounds built greedily for new pairs until every pair has met.

    ``met[a][b]`` counts the rounds a and b have shared so far. Among seatings with
    as many new pairs, those that spread the repeats win (fewer meetings in all).
    """
    met = [[0] * n for _ in range(n)]
    unmet = n * (n - 1) // 2
    rounds = []
    while unmet:
        tables = _improve(_greedy_round(met, sizes), met)
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1:]:
                    unmet -= not met[a][b]
                    met[a][b] += 1
                    met[b][a] += 1
        rounds.append(tuple(sorted(tuple(sorted(t)) for t in tables)))
    return tuple(rounds)


def _greedy_round(met: list[list[int]], sizes: Sequence[int]) -> list[list[int]]:
    """Open each table with whoever has most partners left to meet, then add the most new pairs."""
    free = list(range(len(met)))
    tables = []
    for size in sizes:
        def still_to_meet(p: int) -> int:
            return sum(not met[p][q] for q in free if q != p)

        first = max(free, key=lambda p: (still_to_meet(p), -p))
        free.remove(first)
        table = [first]
        while len(table) < size:
            best = max(free, key=lambda p: (sum(not met[p][q] for q in table), -sum(met[p][q] for q in table),
                                            still_to_meet(p), -p))
            free.remove(best)
            table.append(best)
        tables.append(table)
    return tables


def _improve(tables: list[list[int]], met: list[list[int]]) -> list[list[int]]:
    """Swap two entrants between tables while that seats more new pairs together, or as many with fewer repeats."""

    def value(p: int, table: list[int], leaving: int) -> tuple[int, int]:
        """(new pairs, minus earlier meetings) p would have at ``table`` once ``leaving`` has left it."""
        others = [q for q in table if q != leaving and q != p]
        return sum(not met[p][q] for q in others), -sum(met[p][q] for q in others)

    def gains(t1: list[int], a: int, t2: list[int], b: int) -> bool:
        after = [x + y for x, y in zip(value(b, t1, a), value(a, t2, b), strict=True)]
        before = [x + y for x, y in zip(value(a, t1, a), value(b, t2, b), strict=True)]
        return after > before

    while True:
        swap = next(((t1, x, t2, y) for i, t1 in enumerate(tables) for t2 in tables[i + 1:]
                     for x, a in enumerate(t1) for y, b in enumerate(t2) if gains(t1, a, t2, b)), None)
        if swap is None:
            return tables
        t1, x, t2, y = swap
        t1[x], t2[y] = t2[y], t1[x]


# ---------------------------------------------------------------------------------------
# Standings


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

    def as_json(self) -> dict[str, Any]:
        return {
            "round": self.round, "table": self.table, "size": self.size, "total": self.total,
            "place": self.place, "tied": self.tied,
            "match_points": str(self.match_points), "score_difference": str(self.score_difference),
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
        return show_fraction(self.score_difference, signed=True)

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
    ``"low_wins": true`` for a game where the lowest total is best (pool rummy).
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
    found = Problems()
    if isinstance(results, str | bytes | Mapping) or not isinstance(results, Sequence):
        raise ResultsError([Problem("results", "give the results as a list of tables")])
    lines: dict[str, list[TableScore]] = {name: [] for name in entrants}
    seen_tables: dict[tuple[int, int], int] = {}
    seated: dict[tuple[int, str], int] = {}
    for i, raw in enumerate(results):
        table = _parse_result(raw, f"results[{i}]", found)
        if table is None:
            continue
        rnd, number, players, totals, winners, over, low_wins = table
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
        if clashes or (not over and not include_unfinished):
            continue
        for name, score in _score_table(rnd, number, players, totals, winners if over else (), low_wins):
            lines.setdefault(name, []).append(score)
    if found:
        raise ResultsError(found)

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
        found.add(f"{at}.round", f"rounds are numbered from 1, not {rnd!r}")
    if not is_whole_number(number) or number < 1:
        found.add(f"{at}.table", f"tables are numbered from 1, not {number!r}")
    players = raw.get("players")
    if not isinstance(players, list) or len(players) < 2:
        found.add(f"{at}.players", "give the entrants at the table as a list of at least two names")
        players = []
    names: list[str] = []
    for j, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            found.add(f"{at}.players[{j}]", f"each entrant needs a name, not {name!r}")
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
            found.add(f"{at}.totals.{name}", f"a total is a whole number of points, not {totals[name]!r}")
    for name in totals:
        if name not in names:
            found.add(f"{at}.totals.{name}", f"{name!r} is not at this table ({', '.join(names)})")
    winners = raw.get("winners", [])
    if not isinstance(winners, list):
        found.add(f"{at}.winners", "winners must be a list of names")
        winners = []
    for name in winners:
        if not isinstance(name, str) or name not in names:
            found.add(f"{at}.winners", f"{name!r} is not at this table ({', '.join(names)})")
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


__all__ = [
    "METHODS", "REPAIR_BUDGET", "SEARCH_BUDGET", "ResultsError", "SeatingError", "Standing", "TableScore",
    "repeated_pairs", "round_robin_schedule", "seat_round", "seat_teams", "show_fraction", "standings",
    "table_sizes", "team_name",
]
