"""Referees: stateless answers to one question about a game in progress (API.md).

Each referee takes the JSON body of ``POST /api/v1/referee/<game>/<question>``
and returns the answer as a dict, or raises :class:`InputError` naming every
problem with the body.

>>> ask("alliance-royals", "battle", {"cards": ["AS", "2S", "KS", "10H"]})["winner"]
1
>>> ask("alliance-royals", "weather", {})
Traceback (most recent call last):
...
KeyError: "no referee answers 'weather' for 'alliance-royals'"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..games.base import InputError, Problem
from . import alliance_royals, indian_rummy, rally_the_king, royals, royalty, rummy_royal

Referee = Callable[[Any], dict[str, Any]]

REFEREES: dict[tuple[str, str], Referee] = {
    ("alliance-royals", "battle"): alliance_royals.battle,
    ("alliance-royals", "privileges"): alliance_royals.privileges,
    **royals.REFEREES,  # Battle Royals and Marriage Royals
    ("rally-the-king", "trick"): rally_the_king.trick,
    ("indian-rummy", "declaration"): indian_rummy.declaration,
    ("royalty", "word"): royalty.word,
    ("royalty", "capture"): royalty.capture,
    ("royalty", "monarchy"): royalty.monarchy,
    ("rummy-royal", "poker"): rummy_royal.poker,
}


def ask(game: str, question: str, body: object, **context: Any) -> dict[str, Any]:
    """The referee's answer; ``KeyError`` for an unknown game or question, ``InputError`` for a bad body.

    ``context`` is what a screen knows beside the body, such as a Royalty table's word list (RY-17)."""
    referee = REFEREES.get((game, question))
    if referee is None:
        raise KeyError(f"no referee answers {question!r} for {game!r}")
    return referee(body, **context)


__all__ = ["REFEREES", "InputError", "Problem", "ask"]
