"""A player's best moments in a finished game, kept with their place: pure, like the engines.

- the highest score of one round (games where a high score is good: not pool rummy, IR-9);
- the longest word melded (Royalty);
- the biggest pot taken at once: the most chips moved to the player from one space of the board or
  the kitty (Rummy Royal, RM-4);
- the fewest points conceded in a deal lost (Indian Rummy: the count a player paid, IR-6).
"""

from __future__ import annotations

from typing import Any

from ..core.messages import say
from ..games.base import ScoredGame
from ..paper.scorepad import LOW_WINS_VARIANTS

#: Each moment, how it reads on a player's page, and whether more is better.
KINDS = {"hand": (say("Highest score of a round"), True), "word": (say("Longest word"), True),
         "pot": (say("Biggest pot taken"), True), "conceded": (say("Fewest points conceded in a deal lost"), False)}


def moments(scored: ScoredGame) -> dict[str, dict[str, Any]]:
    """Each player's best moments of this game: {name: {kind: value}} (a word is kept as the word).

    >>> from companion import games
    >>> game = games.score({"game": "indian-rummy", "players": ["Ann", "Ben", "Cat"],
    ...     "options": {"variant": "deals", "deals": 2}, "rounds": [
    ...     {"winner": "Ann", "hands": {"Ben": {"count": 30}, "Cat": {"count": 12}}},
    ...     {"winner": "Ben", "hands": {"Ann": {"count": 4}, "Cat": {"count": 50}}}]})
    >>> moments(game)["Cat"], moments(game)["Ann"]["conceded"]
    ({'hand': -12, 'conceded': 12}, 4)
    """
    out: dict[str, dict[str, Any]] = {p: {} for p in scored.players}
    high_is_good = (scored.game, scored.options.get("variant")) not in LOW_WINS_VARIANTS
    for scored_round in scored.rounds:
        if high_is_good:
            for p, points in scored_round.points.items():
                _keep(out[p], "hand", points)
        _word(out, scored_round.detail)
        _pots(out, scored_round.detail)
        _conceded(out, scored_round.detail)
    return out


def better(kind: str, new: Any, old: Any) -> bool:
    """Whether ``new`` beats ``old`` as a moment of ``kind`` (a word by its length)."""
    if old is None:
        return True
    if kind == "word":
        return len(new) > len(old)
    return new > old if KINDS[kind][1] else new < old


def _keep(found: dict[str, Any], kind: str, value: Any) -> None:
    if better(kind, value, found.get(kind)):
        found[kind] = value


def _word(out: dict[str, dict[str, Any]], detail: dict[str, Any]) -> None:
    meld, player = detail.get("meld"), detail.get("player")
    if isinstance(meld, dict) and isinstance(meld.get("word"), str) and player in out:
        _keep(out[player], "word", meld["word"])


def _pots(out: dict[str, dict[str, Any]], detail: dict[str, Any]) -> None:
    for move in detail.get("movements") or ():
        if move.get("to") in out and move.get("from") not in out and isinstance(move.get("chips"), int):
            _keep(out[move["to"]], "pot", move["chips"])


def _conceded(out: dict[str, dict[str, Any]], detail: dict[str, Any]) -> None:
    counts, winner = detail.get("counts"), detail.get("winner")
    if not isinstance(counts, dict) or winner is None:
        return
    for p, count in counts.items():
        if p != winner and p in out and isinstance(count, int):
            _keep(out[p], "conceded", count)
