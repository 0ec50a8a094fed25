"""Copying a venue's database between a SQLite file and PostgreSQL, either way (``companion copy-db``).

Every row of every kind is copied as stored (ids, versions, entry keys, the log's own ids), in one
read snapshot of the source and one transaction on the target: a copy is whole or not made. The
target must hold nothing yet; a copy never merges into, or overwrites, a database in use.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from . import tables
from .db import Database, immediate

#: What is copied, in an order the foreign keys accept: (table, the word a report uses, its columns).
KINDS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("tables", "tables", ("id", "edit_key", "game", "title", "players", "options", "created_at", "rematch_of")),
    ("events", "entries", ("id", "table_id", "seq", "kind", "slot", "undoes", "data", "device", "created_at",
                           "entry_key", "typed_at")),
    ("tournaments", "tournaments", ("id", "director_key", "game", "title", "entrants", "options", "method",
                                    "rounds", "table_size", "created_at")),
    ("tournament_tables", "tournament tables", ("tournament_id", "round", "number", "table_id", "seats")),
    ("tournament_calls", "rounds called", ("tournament_id", "round", "called_at", "versions")),
    ("tournament_adjustments", "adjusted results", ("tournament_id", "table_id", "totals", "reason", "created_at")),
    ("clubs", "clubs", ("id", "name", "director_key", "member_key", "created_at", "recomputed", "seasons")),
    ("club_players", "club players", ("club_id", "id", "name", "name_key", "former", "merged_into")),
    ("club_tables", "club tables", ("table_id", "club_id", "game", "added_at", "finish_order", "finished_at")),
    ("club_tournaments", "club tournaments", ("tournament_id", "club_id")),
    ("club_places", "club places", ("club_id", "game", "finish_order", "table_id", "player_id", "team", "place",
                                    "won", "total", "moments", "mu", "sigma")),
)
BATCH = 500


class TargetNotEmpty(Exception):
    """The target database already holds rows: the counts, by kind."""

    def __init__(self, counts: dict[str, int]):
        self.counts = counts
        held = ", ".join(f"{n} {kind}" for kind, n in counts.items() if n)
        super().__init__(f"it already holds {held}")


def counts(db: Database) -> dict[str, int]:
    """How many rows of each kind the database holds."""
    return {word: db.value(f"SELECT COUNT(*) FROM {name}") for name, word, _ in KINDS}  # noqa: S608 - constants


@contextmanager
def snapshot(db: Database) -> Iterator[Database]:
    """One consistent view of the source while it is read, even while it is being written to."""
    db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" if db.kind == "postgresql" else "BEGIN")
    try:
        yield db
    finally:
        db.rollback()


def options_for(value: str | bytes, target: Database) -> str | bytes:
    """A table's options as the target stores them: long options compressed where it does not compress text.

    >>> import json
    >>> class Target: compresses_text = False
    >>> long = json.dumps({"word_list": ["EAR"] * 5000})
    >>> isinstance(options_for(long, Target()), bytes), options_for('{"a": 1}', Target())
    (True, '{"a": 1}')
    """
    text = zlib.decompress(value).decode() if isinstance(value, bytes) else value
    if not target.compresses_text and len(text) > tables.COMPRESS_OPTIONS:
        return zlib.compress(text.encode(), 6)
    return text


def copy(source: Database, target: Database) -> dict[str, int]:
    """Copy every row from ``source`` into ``target`` (both migrated); the counts copied, by kind.

    Raises :class:`TargetNotEmpty`, writing nothing, when the target holds any row.
    """
    held = counts(target)
    if any(held.values()):
        raise TargetNotEmpty(held)
    copied: dict[str, int] = {}
    with snapshot(source), immediate(target):
        for name, word, columns in KINDS:
            cursor = source.execute(f"SELECT {', '.join(columns)} FROM {name}")  # noqa: S608 - constants
            insert = f"INSERT INTO {name} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"  # noqa: S608
            copied[word] = 0
            while batch := cursor.fetchmany(BATCH):
                if name == "tables":
                    where = columns.index("options")
                    batch = [(*row[:where], options_for(row[where], target), *row[where + 1:]) for row in batch]
                target.execute_many(insert, [tuple(row) for row in batch])
                copied[word] += len(batch)
        if target.kind == "postgresql":  # the log's next id follows the ids copied
            target.execute("SELECT setval(pg_get_serial_sequence('events', 'id'), "
                           "(SELECT COALESCE(MAX(id), 0) + 1 FROM events), false)")
    return copied


def report(copied: dict[str, Any]) -> str:
    """The counts in words.

    >>> report({"tables": 2, "entries": 31, "tournaments": 0})
    '2 tables, 31 entries, 0 tournaments'
    """
    return ", ".join(f"{n} {word}" for word, n in copied.items())
