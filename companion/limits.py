"""What one request may cost: every bound is a named setting with a safe default.

Each is read from the app's configuration (``instance/config.py`` or ``COURTIER_<NAME>``,
docs/ops.md) when the app is created; the engines, which know nothing of Flask, read the
values here.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

#: The settings and their defaults (docs/ops.md, *Limits*).
DEFAULTS: dict[str, Any] = {
    "MAX_NAME_CHARS": 40,        # characters in a player's, table's or tournament's name
    "MAX_NOTE_CHARS": 500,       # characters in a note or a logged ruling
    "MAX_ROUNDS": 500,           # rounds (hands, deals, turns) in one game
    "MAX_ENTRANTS": 100,         # entrants in one tournament (round-robin plans grow with the square)
    "MAX_WORDS": 200_000,        # words in a table's own word list or its house words
    "MAX_WORD_CHARS": 45,        # letters in one such word
    "HEAVY_WORKERS": 1,          # sheets, packs and seating rendered at once
    "HEAVY_QUEUE": 4,            # heavy jobs waiting beyond those; more are answered 503
    "RETRY_AFTER": 5,            # seconds a 503 asks the phone to wait
    "HEAVY_WAIT": 1.5,           # seconds a heavy job may wait for the pool before the answer is 503
    "SHEET_SECONDS": 10,         # the CPU seconds a score sheet may take to draw, as estimated beforehand
    "CACHE_BYTES": 64 * 1024 * 1024,  # memory for all the caches together, about
    "CACHE_IDLE_SECONDS": 600,   # a cached table, board or sheet nobody asked for in this long is dropped
    "CREATE_RATE": "30 per minute; 300 per hour",  # new tables, imports, tournaments, rematches: together, per address
}

_values: dict[str, Any] = dict(DEFAULTS)


def configure(config: Mapping[str, Any]) -> None:
    """Take the bounds from an app's configuration (the defaults where it has none)."""
    for name, default in DEFAULTS.items():
        _values[name] = config.get(name, default)


def get(name: str) -> Any:
    return _values[name]


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def has_control(text: str) -> bool:
    """True when ``text`` holds a control character (a NUL, a line break, a tab...).

    >>> has_control("Ann"), has_control("a\\x00b"), has_control("Zoë"), has_control("a\\nb")
    (False, True, False, True)
    """
    return bool(_CONTROL.search(text)) or any(unicodedata.category(c) in ("Cc", "Cs") for c in text)


def one_line(text: str) -> str:
    """``text`` with each run of control characters (line breaks...) made one space.

    >>> one_line("Spring\\r\\nOpen")
    'Spring Open'
    """
    return re.sub(r"\s*(?:[\x00-\x1f\x7f-\x9f\u2028\u2029]\s*)+", " ", text)


def name_problem(name: str, what: str = "a name") -> str | None:
    """What is wrong with a name a player typed, in their words, or None.

    >>> name_problem("Ann"), name_problem("a\\x00b")
    (None, 'a name cannot hold control characters such as line breaks or tabs')
    """
    most = get("MAX_NAME_CHARS")
    if has_control(name):
        return f"{what} cannot hold control characters such as line breaks or tabs"
    if len(name) > most:
        return f"{what} may have at most {most} characters"
    return None


def note_problem(value: object, what: str = "a note") -> str | None:
    """A note is text, without control characters other than line breaks, and not too long."""
    if not isinstance(value, str):
        return f"{what} must be text"
    most = get("MAX_NOTE_CHARS")
    if len(value) > most:
        return f"{what} may have at most {most} characters"
    if has_control(value.replace("\n", " ").replace("\r", " ").replace("\t", " ")):
        return f"{what} cannot hold control characters"
    return None
