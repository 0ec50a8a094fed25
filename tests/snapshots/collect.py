"""A pytest plugin that gathers every game the suite scores (``-p tests.snapshots.collect``), for
tests/snapshots/games.jsonl: the inputs whose scored answers tests/test_snapshots.py keeps word for word.

    .venv/bin/pytest -p tests.snapshots.collect -q tests/test_*.py -k "not browser" -n 0

Each distinct game (as canonical JSON) is written once, with the game's own name and where it came from.
"""

from __future__ import annotations

import json
from pathlib import Path

import companion.games as games

OUT = Path(__file__).with_name("games.jsonl")
_seen: dict[str, dict] = {}


def _canonical(request) -> str | None:
    try:
        return json.dumps(request, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return None


def pytest_configure(config):
    original = games.score

    def recording(request, *args, **kwargs):
        key = _canonical(request)
        if key is not None and key not in _seen and isinstance(request, dict) and isinstance(request.get("game"), str):
            _seen[key] = request
        return original(request, *args, **kwargs)

    games.score = recording
    for slug, engine in games.ENGINES.items():  # the case books call an engine's own score too
        engine.score = _engine_recording(slug, engine.score)


def _engine_recording(slug, original):
    def recording(players, options, rounds, *args, **kwargs):
        request = {"game": slug, "players": list(players), "options": dict(options or {}), "rounds": list(rounds)}
        key = _canonical(request)
        if key is not None and key not in _seen:
            _seen[key] = request
        return original(players, options, rounds, *args, **kwargs)
    return recording


def pytest_unconfigure(config):
    if _seen:
        with OUT.open("w") as out:
            for key in sorted(_seen):
                out.write(key + "\n")
