"""What one table may cost to keep: its log bounded in bytes as well as in rounds, and its writes in rate.

MAX_ROUNDS bounds a game's rounds, and each round's fields are bounded, but a round may hold a 500-character
note and, in Royalty, the word judge's log (four verdicts with their reasons and warnings): 500 such turns
would keep about 10 MB. ``TABLE_BYTES`` bounds what a table's log keeps, as JSON; a save that would take it
past is refused in words (:class:`TableFull`, 413). The largest real games the limits allow, every round
with a 500-character note and the longest names, keep under 1 MB (Rummy Royal at nine for 500 deals,
0.97 MB; docs/measurements.md), so 4 MB is four times any of them.

``WRITE_RATE`` bounds how fast one table is written (every change: a round, an edit, an undo, a renaming),
counted for the table by every worker and server in the store that counts new tables
(companion.storage.ratelimit): a quick table saves a round every half a minute, a flurry of corrections a
few in a minute, so 120 a minute and 2000 an hour is far beyond any real table, and far below what would
fill the database. A save past it is refused in words (:class:`TooManyChanges`, 429). Only a save that
carries the table's edit key is counted: a view link cannot spend a table's allowance.

Both are settings (``TABLE_BYTES``, ``WRITE_RATE``), their defaults stated with the others in companion.core.limits.
"""

from __future__ import annotations

import json
from typing import Any

from flask import current_app, has_app_context
from limits import parse_many

from ..core import limits
from ..core.messages import say
from .db import Database

DEFAULTS = {name: limits.DEFAULTS[name] for name in ("TABLE_BYTES", "WRITE_RATE")}  # stated once, with the others


def setting(name: str) -> Any:
    """A bound from the app's configuration, else its default."""
    return current_app.config.get(name, DEFAULTS[name]) if has_app_context() else DEFAULTS[name]


class TableFull(Exception):
    """A save that would take the table's log past TABLE_BYTES: nothing was stored."""

    def __init__(self, kept: int, most: int):
        self.kept, self.most = kept, most
        super().__init__(self.message)

    @property
    def message(self) -> str:
        megabytes = max(1, round(self.most / (1024 * 1024)))
        return say("This table is full: it keeps at most {most} MB of rounds, notes and the word judge's logs, "
                   "and this change would take it past that. Nothing was stored. Export the table to keep "
                   "the whole game, and carry on at a rematch.", most=megabytes)


class TooManyChanges(Exception):
    """A table written faster than WRITE_RATE: nothing was stored."""

    message = say("This table has taken a great many changes in a short time. Nothing was stored. Wait a "
                  "minute and save again.")


def kept_bytes(db: Database, table_id: str) -> int:
    """What the table's log keeps of its rounds, as JSON."""
    return db.value("SELECT COALESCE(SUM(LENGTH(data)), 0) FROM events WHERE table_id = ?", [table_id]) or 0


def check_room(db: Database, table_id: str, data: Any) -> None:
    """:class:`TableFull` when storing ``data`` would take the table past TABLE_BYTES."""
    if data is None:  # an undo or a deletion keeps nothing more: a full table can still take one back
        return
    most = setting("TABLE_BYTES")
    adding = len(json.dumps(data))
    if adding > most or kept_bytes(db, table_id) + adding > most:
        raise TableFull(kept_bytes(db, table_id), most)


def count_write(table_id: str) -> None:
    """Count one change to the table against WRITE_RATE; :class:`TooManyChanges` past it."""
    limiter = current_app.extensions.get("courtier.limiter") if has_app_context() else None
    if limiter is None or not limiter.enabled:
        return
    rates = parse_many(setting("WRITE_RATE"))
    if not all(limiter.limiter.test(rate, "table-writes", table_id) for rate in rates):
        raise TooManyChanges()
    for rate in rates:
        limiter.limiter.hit(rate, "table-writes", table_id)
