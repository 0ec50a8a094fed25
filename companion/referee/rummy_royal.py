"""Rummy Royal referee: who wins the poker stage, from each player's cards (RM-9).

>>> answer = poker({"hands": {"Ann": ["AS", "KS", "QS", "JS", "10S"], "Ben": ["2H", "2D", "2C", "9S", "9D"]}})
>>> answer["winners"], answer["best"]["Ann"]["rank"], answer["best"]["Ben"]["rank"]
(['Ann'], 'straight flush', 'full house')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import limits
from ..core.messages import say
from ..games.base import InputError, Problems
from ..games.rummy_royal import MAX_PLAYERS, check_cards
from ..games.rummy_royal import poker as judge
from .bodies import checked_body

#: A name is printed in narrow columns, as at a table (companion.games.MAX_NAME_LENGTH).
MAX_NAME_LENGTH = 24


def poker(body: object) -> dict[str, Any]:
    """RM-9: each player's best five of their cards, and the winner or winners, with the reason.

    >>> poker({"hands": {"Ann": ["AH", "2S", "3D", "4C", "5H"], "Ben": ["6S", "7S", "8D", "9C", "10H"]}})["winners"]
    ['Ben']
    """
    found = Problems()
    body = checked_body(body, ("hands",), found, ': {"hands": {"Ann": ["AS", ...], "Ben": [...]}}')
    hands = body.get("hands")
    if not isinstance(hands, Mapping) or not 2 <= len(hands) <= MAX_PLAYERS:
        found.add("hands", say("give 2 to {most} players' cards: {example} (RM-9)", most=MAX_PLAYERS,
                               example='{"Ann": ["AS", "KS", ...], "Ben": [...]}'))
        found.raise_if_any()
    cards: dict[str, list[str]] = {}
    seen: dict[str, str] = {}
    for name, given in hands.items():
        where = f"hands.{name}"
        shown = limits.tidy(name)
        wrong = say("each player needs a name") if not shown else limits.name_problem(shown, most=MAX_NAME_LENGTH)
        if wrong:
            found.add(where, wrong)
            continue
        if limits.name_key(shown) in {limits.name_key(n) for n in cards}:
            found.add(where, say("two players are called {name}; give each a different name", name=shown))
            continue
        parsed = check_cards(given, where, found, seen, shown)
        if parsed is not None:
            cards[shown] = parsed
    found.raise_if_any()
    best = {name: judge.best_five(c) for name, c in cards.items()}
    winners, explain = judge.decide(best)
    return {"winners": winners,
            "best": {name: {"cards": list(b.cards), "rank": b.rank, "words": b.words} for name, b in best.items()},
            "explain": explain}


__all__ = ["InputError", "poker"]
