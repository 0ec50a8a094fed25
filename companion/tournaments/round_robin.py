"""Round-robin rotations: rounds of tables in which every two entrants meet.

Works on indices into the entrants; :func:`.seating.round_robin_schedule` names them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

#: Indices into the entrants, one tuple per table.
_Tables = tuple[tuple[int, ...], ...]

#: Orders of the finite fields the affine-plane rotation is built on (every prime power up to 9).
_FIELD_ORDERS = {2: (2, 1), 3: (3, 1), 4: (2, 2), 5: (5, 1), 7: (7, 1), 8: (2, 3), 9: (3, 2)}
#: Irreducible polynomials (coefficients, lowest power first) for the fields that are not prime.
_IRREDUCIBLE = {4: (1, 1, 1), 8: (1, 1, 0, 1), 9: (1, 0, 1)}


@lru_cache(maxsize=64)
def _round_robin_plan(n: int, sizes: tuple[int, ...], most: int | None = None) -> tuple[_Tables, ...]:
    """The rotation's rounds; with ``most``, only its first ``most`` rounds (the greedy rotation's
    rounds do not depend on the later ones, so a tournament plans no further than it plays)."""
    if len(sizes) == 1:
        return ((tuple(range(n)),),)
    if set(sizes) == {2}:
        return _circle(n)
    k, t = sizes[0], len(sizes)
    if len(set(sizes)) == 1 and t in _FIELD_ORDERS and k % t == 0:
        return _affine(t, k // t)
    return _greedy_plan(n, sizes, most)


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


def _greedy_plan(n: int, sizes: tuple[int, ...], most: int | None = None) -> tuple[_Tables, ...]:
    """Rounds built greedily for new pairs until every pair has met.

    ``met[a][b]`` counts the rounds a and b have shared so far. Among seatings with
    as many new pairs, those that spread the repeats win (fewer meetings in all).
    """
    met = [[0] * n for _ in range(n)]
    unmet = n * (n - 1) // 2
    rounds = []
    while unmet and (most is None or len(rounds) < most):
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
