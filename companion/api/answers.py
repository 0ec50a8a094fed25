"""What the API and the command line answer with, in the caller's language: a scored game's words said in
it, and each line of its why as data a program reads without parsing words (docs/api.md, Languages)."""

from __future__ import annotations

from typing import Any

from ..core import messages
from ..games.base import ScoredGame


def why_line(line: str) -> dict[str, Any]:
    """One line of a why as a program reads it: its message id, its values and the rulings it cites.

    A line said without a message of its own (a plain sentence) is its own id, with no values.

    >>> why_line(messages.say("{name} pays {count} (IR-8)", name="Ben", count=49))
    {'id': '{name} pays {count} (IR-8)', 'values': {'name': 'Ben', 'count': 49}, 'rulings': ['IR-8']}
    >>> why_line("Hand 3C: −10 (AR-6)")
    {'id': 'Hand 3C: −10 (AR-6)', 'values': {}, 'rulings': ['AR-6']}
    """
    if isinstance(line, messages.Text):
        return line.as_data()
    return {"id": str(line), "values": {}, "rulings": list(dict.fromkeys(messages.RULING.findall(str(line))))}


def spoken(scored: ScoredGame) -> dict[str, Any]:
    """A scored game as the API answers it: each round's why as data (``why``, after ``explain``), and
    every sentence said in the reader's language (in English, the words exactly as they always were)."""
    answer = scored.as_json()
    rounds = []
    for said, played in zip(answer["rounds"], scored.rounds, strict=True):
        out: dict[str, Any] = {}
        for name, value in said.items():
            out[name] = value
            if name == "explain":
                out["why"] = {player: [why_line(line) for line in lines] for player, lines in played.explain.items()}
        rounds.append(out)
    answer["rounds"] = rounds
    return messages.localised(answer)
