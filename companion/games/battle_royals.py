"""Battle Royals, two players (BR-1 to BR-3): the Royals family engine with this game's data (games/royals.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import royals
from .base import ScoredGame

FAMILY = royals.BATTLE
SLUG = FAMILY.slug
TITLE = FAMILY.title
MIN_PLAYERS = MAX_PLAYERS = FAMILY.seats
ROUND_NAME = "round"
OPTIONS: dict[str, Any] = dict(FAMILY.options)


def start(players: Sequence[str], options: Mapping[str, Any], joined: Mapping[str, int] | None = None):
    """The game before its first round (base.Fold): nobody joins a game of the family late."""
    return royals.start(FAMILY, players, options)


step, finish = royals.step, royals.finish


def score(players: Sequence[str], options: Mapping[str, Any], rounds: Sequence[object]) -> ScoredGame:
    """Score a whole game; raises InputError listing every problem."""
    return royals.score(FAMILY, players, options, rounds)
