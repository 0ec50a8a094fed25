"""Places and ratings from finished games: pure functions, like the rules engines.

A finished table gives each side a place: the winners first (sharing the top places whatever
their totals), then everyone else by total, best first (lowest first in pool rummy, IR-9);
equal standing, equal place. A side is a player alone, or a partnership: Alliance Royals'
Alliances (AR-2), Royalty's coalitions. Ratings are openskill's Plackett-Luce model with its
default parameters; a rating shows as its ordinal (mu - 3 sigma), a conservative number.

>>> sides = places([("Ann",), ("Ben",), ("Cat",)], {"Ann": 90, "Ben": 60, "Cat": 60}, ["Ann"], low_wins=False)
>>> [(s.players, s.place, s.won) for s in sides]
[(('Ann',), 1, True), (('Ben',), 2, False), (('Cat',), 2, False)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: openskill's Plackett-Luce model, its defaults (mu 25, sigma 25/3): what every club rating uses.
MODEL = PlackettLuce()

#: A rating is "provisional" until a player has finished this many games of that game.
PROVISIONAL_GAMES = 5


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """openskill's conservative number: the rating the player is very likely above."""
        return self.mu - 3 * self.sigma

    def as_json(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


#: A player new to a game starts at openskill's default rating.
START = Rating(MODEL.mu, MODEL.sigma)


@dataclass(frozen=True)
class Side:
    """One side of a finished table: its players, the place they share, and their total."""

    players: tuple[str, ...]
    place: int
    won: bool
    total: int


def places(sides: Sequence[Sequence[str]], totals: Mapping[str, int], winners: Iterable[str],
           low_wins: bool) -> list[Side]:
    """Each side's place at a finished table, in the order the sides are given.

    ``totals`` are each side's total, keyed by its first player's name.

    >>> [(s.place, s.won) for s in places([("A", "C"), ("B", "D")], {"A": 1100, "B": 400}, ["A", "C"], False)]
    [(1, True), (2, False)]
    >>> [s.place for s in places([("A",), ("B",), ("C",)], {"A": 40, "B": 0, "C": 95}, [], low_wins=True)]
    [2, 1, 3]
    """
    won = set(winners)
    sign = -1 if low_wins else 1

    def key(side: Sequence[str]) -> tuple[bool, int]:
        return any(p in won for p in side), sign * totals[side[0]]

    keys = [key(side) for side in sides]
    return [Side(tuple(side), 1 + sum(other > mine for other in keys), mine[0], totals[side[0]])
            for side, mine in zip(sides, keys, strict=True)]


def rate(before: Sequence[Sequence[Rating]], ranks: Sequence[int]) -> list[list[Rating]]:
    """The ratings after one game: ``before`` holds each side's players' ratings, ``ranks`` each
    side's place (1 first; equal places tie). A game of one side changes nothing.

    >>> after = rate([[START], [START]], [1, 2])
    >>> after[0][0].mu > START.mu > after[1][0].mu
    True
    """
    if len(before) < 2:
        return [list(side) for side in before]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in side] for side in before]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [[Rating(r.mu, r.sigma) for r in side] for side in rated]
