"""Swiss seating: the seating nearest top-down with the fewest repeated pairs.

Works on indices into the entrants ordered by standings; :func:`.seating.seat_round` calls it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

#: The Swiss search for a seating with no repeated pair tries at most this many placements
#: (see :func:`seat_round`); club-night rooms stay far below it. When some pair must repeat,
#: the search for the fewest repeats gets :data:`REPAIR_BUDGET` more.
SEARCH_BUDGET = 100_000
REPAIR_BUDGET = 20_000


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
        if _hopeless(clash, seated, left, cost, bound[0]):
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


def _hopeless(clash: list[list[bool]], seated: list[bool], left: Counter[int], cost: int, bound: int) -> bool:
    """Is the bound out of reach? Someone with too few strangers left repeats at least the shortfall;
    with no repeat to spare, everyone must find a table's worth of mutual strangers."""
    need = min(s for s, c in left.items() if c) - 1
    free = [p for p in range(len(clash)) if not seated[p]]
    strangers = {p: [q for q in free if q != p and not clash[p][q]] for p in free}
    shortfall = sum(max(0, need - len(s)) for s in strangers.values())
    if cost + (shortfall + 1) // 2 > bound:
        return True
    return cost == bound and need >= 2 and not all(_has_clique(clash, s, need) for s in strangers.values())


def _has_clique(clash: list[list[bool]], pool: list[int], size: int) -> bool:
    """Are there ``size`` entrants in ``pool`` of whom no two have met?"""
    if size <= 0:
        return True
    for i, p in enumerate(pool):
        rest = [q for q in pool[i + 1:] if not clash[p][q]]
        if len(rest) >= size - 1 and _has_clique(clash, rest, size - 1):
            return True
    return False
