"""The engine registry and the one entry point every caller uses: :func:`score`.

Web pages, the JSON API, the CLI and the sheets all score a game by handing
its JSON form (API.md) to :func:`score`. Adding a game means adding an engine
module with ``SLUG``, ``TITLE``, ``MIN_PLAYERS``, ``MAX_PLAYERS``,
``OPTIONS`` (defaults) and ``score(players, options, rounds)``, and listing it
in ``ENGINES``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from ..core import limits
from ..core.cards import said
from ..core.messages import Grouped, say
from ..core.round_words import round_text
from ..core.wording import given
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
from .base import InputError, Problem, Problems, ScoredGame, is_whole_number

ENGINES: dict[str, ModuleType] = {
    engine.SLUG: engine
    for engine in (alliance_royals, indian_rummy, rally_the_king, royalty, rummathon_royale, rummy_royal)
}
ENGINES.update({engine.SLUG: engine for engine in (battle_royals, marriage_royals)})  # one engine: games/royals.py

#: The longest player name, in characters, everywhere a name is given (the new-table form, the API,
#: tournaments): the default of the ``MAX_NAME_CHARS`` setting (companion.core.limits), which the checks read.
#: Sheets wrap names of this length inside their columns.
MAX_NAME_LENGTH = limits.DEFAULTS["MAX_NAME_CHARS"]

#: The prefix of each game's ruling ids (RULINGS.md) and the game whose rules page states them.
RULES_PAGES = {"AR": "alliance-royals", "BR": "battle-royals", "MR": "marriage-royals", "RY": "royalty",
               "RK": "rally-the-king", "IR": "indian-rummy", "RR": "rummathon-royale", "RM": "rummy-royal"}
#: A ruling id cited in an explanation, such as AR-12: (prefix, number).
RULING = re.compile(rf"\b({'|'.join(RULES_PAGES)})-(\d{{1,2}})\b")


#: Where a game's rounds name players (API.md): dotted paths, ``*`` any key or item, ``{}`` the keys of
#: the mapping there. A rename follows every one of them, and nothing else (a card or a word is never a name).
ROUND_NAMES: dict[str, tuple[str, ...]] = {
    "alliance-royals": ("players.{}", "players.*.hostages.*.target", "surrender"),
    "battle-royals": ("players.{}", "players.*.hostages.*.target", "surrender"),
    "marriage-royals": ("players.{}", "players.*.hostages.*.target", "surrender"),
    "royalty": ("player", "capture.owner", "challenge.by", "end.went_out", "end.unplayed.{}"),
    "rally-the-king": ("dealer", "declarer", "partner", "player_points.{}"),
    "indian-rummy": ("winner", "hands.{}", "rejoin.*"),
    "rummathon-royale": ("out", "left.{}", "progress.{}", "burdens.*.on", "burdens.*.by", "extra_cards.{}"),
    "rummy-royal": ("dealer", "pay_cards.*", "sequence.*", "poker.bets.{}", "poker.folded.*", "poker.winners.*",
                    "out", "cards_left.{}", "end.board_to"),
}
#: Where a game's options name players: Alliance Royals' teams (AR-2), Royalty's coalitions (RY-14).
OPTION_NAMES: dict[str, tuple[str, ...]] = {"alliance-royals": ("teams.*.*",), "royalty": ("coalitions.*.*",)}


def _renamed(value: Any, parts: Sequence[str], old: str, new: str) -> Any:
    """``value`` with ``old`` replaced by ``new`` at the path ``parts`` (see :data:`ROUND_NAMES`).

    >>> _renamed({"out": "Ben", "left": {"Ben": {"low": 2}}}, ["left", "{}"], "Ben", "Benedict")
    {'out': 'Ben', 'left': {'Benedict': {'low': 2}}}
    >>> _renamed({"burdens": [{"on": "Ben", "by": "Ann"}]}, ["burdens", "*", "on"], "Ben", "Bo")
    {'burdens': [{'on': 'Bo', 'by': 'Ann'}]}
    """
    if not parts:
        return new if value == old else value
    head, rest = parts[0], parts[1:]
    if head == "{}":
        return {(new if k == old else k): v for k, v in value.items()} if isinstance(value, Mapping) else value
    if head == "*":
        if isinstance(value, list):
            return [_renamed(v, rest, old, new) for v in value]
        if isinstance(value, Mapping):
            return {k: _renamed(v, rest, old, new) for k, v in value.items()}
        return value
    if isinstance(value, Mapping) and head in value:
        return {**value, head: _renamed(value[head], rest, old, new)}
    return value


def rename_round(slug: str, data: Any, old: str, new: str) -> Any:
    """A round as entered, with a player's name changed wherever the game's rounds name players.

    >>> rename_round("indian-rummy", {"wild": "7", "winner": "Ben", "hands": {"Ann": {"count": 7}}}, "Ben", "Bo")
    {'wild': '7', 'winner': 'Bo', 'hands': {'Ann': {'count': 7}}}
    """
    for path in ROUND_NAMES.get(slug, ()):
        data = _renamed(data, path.split("."), old, new)
    return data


def rename_options(slug: str, options: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    """A table's options with a player's name changed where they name players (teams, coalitions).

    >>> rename_options("alliance-royals", {"teams": [["Ann", "Cat"], ["Ben", "Dan"]]}, "Ben", "Bo")
    {'teams': [['Ann', 'Cat'], ['Bo', 'Dan']]}
    """
    out: Any = dict(options)
    for path in OPTION_NAMES.get(slug, ()):
        out = _renamed(out, path.split("."), old, new)
    return dict(out)


def late_players_refused(slug: str, options: Mapping[str, Any]) -> str | None:
    """Why this game cannot seat a player during play, in the players' words; None when it can.

    >>> late_players_refused("rummathon-royale", {}) is None
    True
    >>> late_players_refused("alliance-royals", {})
    'Alliance Royals is played by the same players from the first round to the last: nobody can join during the game'
    """
    engine = ENGINES[slug]
    refused = getattr(engine, "late_players_refused", None)
    if refused is None:
        return round_text("same_players", engine.ROUND_NAME, game=engine.TITLE)
    return refused(options_with_defaults(slug, options))


def check_joined(joined: object, players: Sequence[str], rounds: int, engine: ModuleType, options: object,
                 found: Problems) -> dict[str, int]:
    """The request's ``joined`` (a late player's first round, counted from 1), checked; only the late ones kept."""
    if joined is None:
        return {}
    noun = getattr(engine, "ROUND_NAME", "round")
    if not isinstance(joined, Mapping):
        found.add("joined", round_text("joined_object", noun))
        return {}
    late: dict[str, int] = {}
    for name, first in joined.items():
        where = f"joined.{name}"
        if name not in players:
            found.add(where, say("{name} is not one of the players; a late player is listed with the others, "
                                 "in the seat they take", name=name))
        elif isinstance(first, bool) or not isinstance(first, int) or first < 1:
            found.add(where, round_text("first_number", noun, name=name))
        elif first > rounds + 1:
            found.add(where, round_text("too_late", noun, name=name, first=first, count=rounds, latest=rounds + 1))
        elif first > 1:
            late[name] = first
    if late:
        refused = late_players_refused(engine.SLUG, options if isinstance(options, Mapping) else {})
        if refused:
            found.add("joined", refused)
        elif len(players) - len(late) < engine.MIN_PLAYERS:
            found.add("joined", round_text("needs_from_first", noun, game=engine.TITLE, count=engine.MIN_PLAYERS))
    return late


def engine_for(slug: str) -> ModuleType:
    """The engine module for a game slug; ``KeyError`` when there is none."""
    return ENGINES[slug]


def check_players(names: object, engine: ModuleType, found: Problems, where: str = "players", rule: bool = True):
    """Validate a list of player names for ``engine`` by the name rule (:func:`limits.name_problem`); returns
    them stripped. Two names a reader could not tell apart are refused as one name.

    The names are checked as :func:`limits.tidy` composes them, and returned as given: what comes in is
    composed where it comes in (a form, a JSON body, an import), and a table stored before keeps its names.
    Without ``rule`` (a stored table scored again) the names are taken as they were kept: a table named
    before the rule still opens, and its names are mended by renaming them."""
    if not isinstance(names, list):
        found.add(where, say("give the players as a list of names, in seat order"))
        return []
    cleaned: list[str] = []
    seen: set[str] = set()
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            found.add(f"{where}[{i}]", say("each player needs a name"))
            continue
        name = name.strip()
        wrong = limits.name_problem(limits.tidy(name)) if rule else None
        if wrong:
            found.add(f"{where}[{i}]", wrong)
            continue
        key = limits.name_key(name) if rule else name.casefold()
        if key in seen:
            found.add(f"{where}[{i}]", say("two players are called {name}; give each a different name", name=name))
            continue
        seen.add(key)
        cleaned.append(name)
    if not (engine.MIN_PLAYERS <= len(names) <= engine.MAX_PLAYERS):
        named = given(len(names), "named")
        if engine.MIN_PLAYERS == engine.MAX_PLAYERS:
            found.add(where, say("{game} is played by exactly {count} players; {named}", game=engine.TITLE,
                                 count=engine.MIN_PLAYERS, named=named))
        else:
            found.add(where, say("{game} is played by {least} to {most} players; {named}", game=engine.TITLE,
                                 least=engine.MIN_PLAYERS, most=engine.MAX_PLAYERS, named=named))
    return cleaned


def bound_problems(engine: ModuleType, options: object) -> list[Problem]:
    """The options beyond the bounds their game declares for a new table (``OPTION_BOUNDS``, which its
    new-table form holds to as well): the API, an import and every new table are held to them alike, a table
    stored before keeps what it was made with. Only the end away from zero is told here: the engine says
    what a value of the wrong sign is.

    >>> from . import battle_royals
    >>> [p.where for p in bound_problems(battle_royals, {"win_above": 10**30, "lose_below": -5})]
    ['options.win_above']
    """
    if not isinstance(options, Mapping):
        return []
    found = []
    for key, (least, most) in getattr(engine, "OPTION_BOUNDS", {}).items():
        value = options.get(key)
        if not is_whole_number(value):
            continue
        if most > 0 and value > most:
            found.append(Problem(f"options.{key}", say("{option} may be at most {most}", option=key,
                                                       most=Grouped(most))))
        elif least < 0 and value < least:
            found.append(Problem(f"options.{key}", say("{option} may be no lower than {least}", option=key,
                                                       least=Grouped(least))))
    return found


def _checked(request: object, rounds: object, stored: bool = False,
             ) -> tuple[ModuleType, list[str], dict[str, Any], dict[str, int]]:
    """The request's game, players, options and late players, checked; raises InputError naming every problem.

    ``rounds`` is the request's rounds (their number bounds the late players' first rounds).
    """
    found = Problems()
    if not isinstance(request, Mapping):
        raise InputError([Problem("$", say("the body must be a JSON object with game, players and rounds"))])
    slug = request.get("game")
    if not isinstance(slug, str) or slug not in ENGINES:
        known = ", ".join(sorted(ENGINES))
        if slug is None:
            found.add("game", say("say which game: one of {known}", known=known))
        else:
            found.add("game", say("unknown game {game}; known games: {known}", game=said(slug), known=known))
        found.raise_if_any()
    engine = ENGINES[slug]
    players = check_players(request.get("players"), engine, found, rule=not stored)
    options = request.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        found.add("options", say("options must be an object (or left out for the defaults)"))
    elif not stored:
        for problem in bound_problems(engine, options):
            found.add(problem.where, problem.message)
    if not isinstance(rounds, list):
        found.add("rounds", say("rounds must be a list"))
    elif len(rounds) > limits.get("MAX_ROUNDS"):
        found.add("rounds", say("a game may have at most {most} rounds; {given}", most=limits.get("MAX_ROUNDS"),
                                given=given(len(rounds))))
    joined = check_joined(request.get("joined"), players, len(rounds) if isinstance(rounds, list) else 0, engine,
                          options, found)
    found.raise_if_any()
    return engine, players, dict(options), joined


def score(request: object, stored: bool = False) -> ScoredGame:
    """Score a whole game given in the API's JSON shape: the full rescoring, which the fold equals.

    Raises :class:`InputError` naming every problem found in the request. A ``stored`` game (a table's,
    scored again) has its players' names taken as they were kept (:func:`check_players`).

    >>> game = score({"game": "rummathon-royale", "players": ["Ann", "Ben"],
    ...               "rounds": [{"out": "Ann", "left": {"Ben": {"flex": 1}}}]})
    >>> game.totals
    {'Ann': 25, 'Ben': 0}
    >>> score({"game": "snap", "players": ["Ann", "Ben"], "rounds": []})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.games.base.InputError: game: unknown game “snap”; known games: alliance-royals, ...
    """
    rounds = request.get("rounds", []) if isinstance(request, Mapping) else []
    engine, players, options, joined = _checked(request, rounds, stored)
    if not joined:
        return engine.score(tuple(players), options, list(rounds))
    scored = engine.score(tuple(players), options, list(rounds), joined=joined)
    return dataclasses.replace(scored, joined=joined)


@dataclasses.dataclass(frozen=True)
class Folding:
    """A game scored round by round (base.Fold): the engine, its state after ``count`` rounds, the late players.

    Never changed once made: the folding after round N can be stepped again with another round N+1.
    """

    engine: ModuleType
    state: Any
    joined: dict[str, int]
    count: int = 0


def start(request: object, stored: bool = False) -> Folding:
    """A game before its first round, from the API's JSON shape (its ``rounds`` are not read; a late
    player's first round is checked against the rounds folded by :func:`finish`).

    >>> folding = start({"game": "rummathon-royale", "players": ["Ann", "Ben"]})
    >>> finish(step(folding, {"out": "Ann", "left": {"Ben": {"flex": 1}}})).totals
    {'Ann': 25, 'Ben': 0}
    """
    joined = request.get("joined") if isinstance(request, Mapping) else None
    firsts = [n for n in joined.values() if is_whole_number(n)] if isinstance(joined, Mapping) else []
    before_the_last = [None] * max(0, min(max(firsts, default=1) - 1, limits.get("MAX_ROUNDS")))
    engine, players, options, joined = _checked(request, before_the_last, stored)
    return Folding(engine, engine.start(tuple(players), options, joined=joined), joined)


def step(folding: Folding, raw: object) -> Folding:
    """The game after one more round, with the work of that round; raises InputError naming what is wrong."""
    if folding.count >= limits.get("MAX_ROUNDS"):
        most = limits.get("MAX_ROUNDS")
        raise InputError([Problem("rounds", say("a game may have at most {most} rounds; {given}", most=most,
                                                given=given(folding.count + 1)))])
    return Folding(folding.engine, folding.engine.step(folding.state, raw), folding.joined, folding.count + 1)


def finish(folding: Folding) -> ScoredGame:
    """The scored game a folding stands for, as :func:`score` gives it."""
    late = {p: n for p, n in folding.joined.items() if n > folding.count + 1}
    if late:
        raise InputError([Problem(f"joined.{p}", say("{name} joins after the rounds entered", name=p)) for p in late])
    scored = folding.engine.finish(folding.state)
    return dataclasses.replace(scored, joined=folding.joined) if folding.joined else scored


def fold(request: Mapping[str, Any]) -> ScoredGame:
    """A whole game scored round after round by the fold (what a table does as hands come in)."""
    folding = start(request)
    for raw in request.get("rounds", []):
        folding = step(folding, raw)
    return finish(folding)


def options_with_defaults(slug: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game's default options overlaid with the ones given."""
    merged = dict(ENGINES[slug].OPTIONS)
    merged.update(options or {})
    return merged


__all__ = ["ENGINES", "Folding", "InputError", "Problem", "ScoredGame", "engine_for", "finish", "fold", "score",
           "start",
           "step"]
