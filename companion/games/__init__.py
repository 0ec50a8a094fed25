"""The engine registry and the one entry point every caller uses: :func:`score`.

Web pages, the JSON API, the CLI and the sheets all score a game by handing
its JSON form (API.md) to :func:`score`. Adding a game means adding an engine
module with ``SLUG``, ``TITLE``, ``MIN_PLAYERS``, ``MAX_PLAYERS``,
``OPTIONS`` (defaults) and ``score(players, options, rounds)``, and listing it
in ``ENGINES``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from .. import limits
from ..cards import said
from . import (
    alliance_royals,
    battle_royals,
    indian_rummy,
    marriage_royals,
    rally_the_king,
    royalty,
    rummathon_royale,
    rummy_royal,
)
from .base import InputError, Problem, Problems, ScoredGame

ENGINES: dict[str, ModuleType] = {
    engine.SLUG: engine
    for engine in (alliance_royals, indian_rummy, rally_the_king, royalty, rummathon_royale, rummy_royal)
}
ENGINES.update({engine.SLUG: engine for engine in (battle_royals, marriage_royals)})  # one engine: games/royals.py

#: The longest player name, in characters, everywhere a name is given (the new-table form, the API,
#: tournaments): the default of the ``MAX_NAME_CHARS`` setting (companion.limits), which the checks read.
#: Sheets wrap names of this length inside their columns.
MAX_NAME_LENGTH = limits.DEFAULTS["MAX_NAME_CHARS"]

#: The prefix of each game's ruling ids (RULINGS.md) and the game whose rules page states them.
RULES_PAGES = {"AR": "alliance-royals", "BR": "battle-royals", "MR": "marriage-royals", "RY": "royalty",
               "RK": "rally-the-king", "IR": "indian-rummy", "RR": "rummathon-royale", "RM": "rummy-royal"}
#: A ruling id cited in an explanation, such as AR-12: (prefix, number).
RULING = re.compile(rf"\b({'|'.join(RULES_PAGES)})-(\d{{1,2}})\b")


def engine_for(slug: str) -> ModuleType:
    """The engine module for a game slug; ``KeyError`` when there is none."""
    return ENGINES[slug]


def check_players(names: object, engine: ModuleType, found: Problems, where: str = "players"):
    """Validate a list of player names for ``engine``; returns them stripped."""
    if not isinstance(names, list):
        found.add(where, "give the players as a list of names, in seat order")
        return []
    cleaned: list[str] = []
    seen: set[str] = set()
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            found.add(f"{where}[{i}]", "each player needs a name")
            continue
        name = name.strip()
        wrong = limits.name_problem(name)
        if wrong:
            found.add(f"{where}[{i}]", wrong)
            continue
        if name.casefold() in seen:
            found.add(f"{where}[{i}]", f"two players are called {name}; give each a different name")
            continue
        seen.add(name.casefold())
        cleaned.append(name)
    if not (engine.MIN_PLAYERS <= len(names) <= engine.MAX_PLAYERS):
        wanted = (f"exactly {engine.MIN_PLAYERS}" if engine.MIN_PLAYERS == engine.MAX_PLAYERS
                  else f"{engine.MIN_PLAYERS} to {engine.MAX_PLAYERS}")
        found.add(where, f"{engine.TITLE} is played by {wanted} players; {len(names)} were given")
    return cleaned


def score(request: object) -> ScoredGame:
    """Score a whole game given in the API's JSON shape.

    Raises :class:`InputError` naming every problem found in the request.

    >>> game = score({"game": "rummathon-royale", "players": ["Ann", "Ben"],
    ...               "rounds": [{"out": "Ann", "left": {"Ben": {"flex": 1}}}]})
    >>> game.totals
    {'Ann': 25, 'Ben': 0}
    >>> score({"game": "snap", "players": ["Ann", "Ben"], "rounds": []})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.games.base.InputError: game: unknown game “snap”; known games: alliance-royals, ...
    """
    found = Problems()
    if not isinstance(request, Mapping):
        raise InputError([Problem("$", "the body must be a JSON object with game, players and rounds")])
    slug = request.get("game")
    if not isinstance(slug, str) or slug not in ENGINES:
        known = ", ".join(sorted(ENGINES))
        if slug is None:
            found.add("game", f"say which game: one of {known}")
        else:
            found.add("game", f"unknown game {said(slug)}; known games: {known}")
        found.raise_if_any()
    engine = ENGINES[slug]
    players = check_players(request.get("players"), engine, found)
    options = request.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        found.add("options", "options must be an object (or left out for the defaults)")
    rounds = request.get("rounds", [])
    if not isinstance(rounds, list):
        found.add("rounds", "rounds must be a list")
    elif len(rounds) > limits.get("MAX_ROUNDS"):
        found.add("rounds", f"a game may have at most {limits.get('MAX_ROUNDS')} rounds; {len(rounds)} were given")
    found.raise_if_any()
    return engine.score(tuple(players), dict(options), list(rounds))


def options_with_defaults(slug: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game's default options overlaid with the ones given."""
    merged = dict(ENGINES[slug].OPTIONS)
    merged.update(options or {})
    return merged


__all__ = ["ENGINES", "InputError", "Problem", "ScoredGame", "engine_for", "score"]
