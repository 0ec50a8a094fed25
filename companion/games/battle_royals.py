"""Battle Royals, two players (BR-1 to BR-3): the Royals family engine with this game's data (games/royals.py)."""

from __future__ import annotations

from . import royals
from .alliance_royals import OPTION_BOUNDS  # noqa: F401 - the new-table bounds of every Royals game

FAMILY = royals.BATTLE
SLUG, TITLE, MIN_PLAYERS, MAX_PLAYERS, ROUND_NAME, OPTIONS, start, step, finish, score = royals.engine(FAMILY)
