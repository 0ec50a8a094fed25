"""Copying a venue's database between a SQLite file and PostgreSQL, either way (``companion copy-db``).

Every row of every kind is copied as stored (ids, versions, entry keys, the log's own ids), in one
read snapshot of the source and one transaction on the target: a copy is whole or not made. The
target must hold nothing yet; a copy never merges into, or overwrites, a database in use.

The source is only ever read: a SQLite file is opened read-only (``mode=ro``), a PostgreSQL
database in read-only transactions, and either must be an up-to-date Courtier database (its
record of migrations says so); it is never migrated. A target must be new, empty, or an empty
Courtier database; anything else is refused before a byte of it is written.
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlite_utils import Database as SQLiteUtils

from . import migrations, tables
from .db import BUSY_TIMEOUT_MS, Database, PostgresDatabase, SQLiteDatabase, immediate, is_postgresql, safe_name

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
#: Every table a Courtier database holds: the kinds copied, the creation limit's counts, and the record of
#: the migrations (SQLite's and PostgreSQL's). SQLite's own (sqlite_sequence...) are no one's.
COURTIER_TABLES = frozenset({name for name, _, _ in KINDS} | {"rate_counts", "_sqlite_migrations",
                                                               "courtier_migrations"})
#: Tables that are neither Courtier's nor another program's: SQLite's own, and those Litestream adds to the
#: file it replicates (``_litestream_seq``, ``_litestream_lock``).
BESIDE_COURTIER = ("sqlite_", "_litestream_")
SQLITE_HEADER = b"SQLite format 3\x00"


class Refused(Exception):
    """A copy that is not made, in words; ``where`` is SOURCE or TARGET."""

    def __init__(self, where: str, message: str):
        self.where = where
        super().__init__(message)


class TargetNotEmpty(Refused):
    """The target database already holds rows: the counts, by kind."""

    def __init__(self, name: str, counts: dict[str, int]):
        self.counts = counts
        held = ", ".join(f"{n} {kind}" for kind, n in counts.items() if n)
        super().__init__("TARGET", f"{safe_name(name)} is not empty (it already holds {held}); copy into an empty "
                                   "database, or move that one aside first")


def counts(db: Database) -> dict[str, int]:
    """How many rows of each kind the database holds (a kind whose table an older Courtier lacks: none)."""
    present = set(db.table_names())
    return {word: db.value(f"SELECT COUNT(*) FROM {name}") if name in present else 0  # noqa: S608 - constants
            for name, word, _ in KINDS}


class ReadOnlySQLite(SQLiteDatabase):
    """A SQLite file opened read-only. A file in WAL mode with no WAL beside it (no server has it open)
    is read as immutable, so that SQLite leaves no -wal or -shm file beside it; :meth:`unchanged` then
    tells whether anything wrote to it meanwhile (a writer makes the WAL first, a checkpoint touches
    the file), which locking would otherwise have kept out of the snapshot."""

    def __init__(self, path: Path):
        with path.open("rb") as f:
            header = f.read(100)
        self.path = path
        self.immutable = header[18:19] == b"\x02" and not wal_of(path).exists()
        self.stamp = stamp(path)
        uri = f"{path.resolve().as_uri()}?mode=ro{'&immutable=1' if self.immutable else ''}"
        super().__init__(sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                                         check_same_thread=False))

    def unchanged(self) -> bool:
        return not self.immutable or (stamp(self.path) == self.stamp and not wal_of(self.path).exists())


def wal_of(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def stamp(path: Path) -> tuple[int, int, int]:
    found = path.stat()
    return found.st_ino, found.st_size, found.st_mtime_ns


def first_bytes(path: Path) -> bytes:
    """The start of a file: SQLite's own header, when it is a SQLite database (nothing, when it is empty)."""
    with path.open("rb") as f:
        return f.read(len(SQLITE_HEADER))


def known_steps(kind: str) -> list[str]:
    """The migrations this Courtier knows, in order (SQLite's: all pending on a database of nothing)."""
    if kind == "postgresql":
        return [name for name, _ in migrations.POSTGRES_STEPS]
    return [m.name for m in migrations.sqlite_migrations.pending(SQLiteUtils(memory=True))]


def applied_steps(db: Database) -> set[str]:
    if db.kind == "postgresql":
        return {r[0] for r in db.execute("SELECT name FROM courtier_migrations")}
    return {m.name for m in migrations.sqlite_migrations.applied(db.utils)}


def schema_problem(db: Database, name: str, source: bool) -> str | None:
    """Why a database is not fit to copy from (``source``) or into, in words; None when it is. A source is
    an up-to-date Courtier database (what else it holds is not copied); a target holds nothing yet, or is
    a Courtier database and nothing else (an older one is brought up to date before the copy)."""
    held = sorted(t for t in db.table_names() if not t.startswith(BESIDE_COURTIER))
    courtiers = bool(set(held) & {"_sqlite_migrations", "courtier_migrations"})
    if source and not courtiers:
        return (f"{name} is not a Courtier database (it holds {listed(held)})" if held else
                f"{name} is not a Courtier database (it holds no tables): the source comes first, then the "
                "database to copy into")
    if not source and (foreign := [t for t in held if t not in COURTIER_TABLES or not courtiers]):
        return f"{name} holds tables that are not Courtier's ({listed(foreign)}): copy into a new file or an " \
               "empty database"
    if not held:
        return None
    known, done = known_steps(db.kind), applied_steps(db)
    if newer := sorted(done - set(known)):
        return f"{name} was made by a newer Courtier (it has {listed(newer)}): copy it with that version"
    if source and (lacking := [step for step in known if step not in done]):
        return (f"{name} was made by an older Courtier (it lacks {listed(lacking)}): bring it up to date "
                f"first with COURTIER_DATABASE={name} companion init-db")
    return None


def listed(names: list[str], most: int = 5) -> str:
    """Names for a message, the first few of a long list.

    >>> listed(["a", "b"]), listed(list("abcdefgh"), 3)
    ('a, b', 'a, b, c and 5 more')
    """
    return ", ".join(names) if len(names) <= most else f"{', '.join(names[:most])} and {len(names) - most} more"


def open_read_only(name: str) -> Database:
    """A database to read and never write: a SQLite file read-only, PostgreSQL in read-only transactions."""
    if not is_postgresql(name):
        return ReadOnlySQLite(Path(name))
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    params = conninfo_to_dict(name)
    params["options"] = f"{params.get('options') or ''} -c default_transaction_read_only=on".strip()
    return PostgresDatabase(psycopg.connect(autocommit=True, **params))


def open_source(name: str) -> Database:
    """The source, read-only, once it is known to be an up-to-date Courtier database; :class:`Refused` if not."""
    if not is_postgresql(name):
        header = first_bytes(Path(name))
        if not header:
            raise Refused("SOURCE", f"{name} is an empty file, not a Courtier database")
        if header != SQLITE_HEADER:
            raise Refused("SOURCE", f"{name} is not a SQLite database, so not a Courtier one")
    source = open_read_only(name)
    try:
        problem = schema_problem(source, safe_name(name), source=True)
    except BaseException:
        source.close()
        raise
    if problem:
        source.close()
        raise Refused("SOURCE", problem)
    return source


def check_target(name: str) -> None:
    """Refuse (:class:`Refused`) a target that holds anything but an empty Courtier database, reading it only."""
    if not is_postgresql(name):
        if not Path(name).exists() or not (header := first_bytes(Path(name))):
            return  # a new file
        if header != SQLITE_HEADER:
            raise Refused("TARGET", f"{name} is not a SQLite database: name a new file to copy into")
    target = open_read_only(name)
    try:
        if problem := schema_problem(target, safe_name(name), source=False):
            raise Refused("TARGET", problem)
        if any((held := counts(target)).values()):
            raise TargetNotEmpty(name, held)
    finally:
        target.close()


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
    """Copy every row from ``source`` into ``target`` (both up to date); the counts copied, by kind.

    Raises :class:`Refused`, writing nothing, when the target holds any row or the source changed
    while it was read.
    """
    held = counts(target)
    if any(held.values()):
        raise TargetNotEmpty("the target", held)
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
        if not getattr(source, "unchanged", lambda: True)():
            raise Refused("SOURCE", f"{getattr(source, 'path', 'the source')} changed while it was copied: a server "
                                    "is using it; stop the server, then copy again")
    return copied


def report(copied: dict[str, Any]) -> str:
    """The counts in words.

    >>> report({"tables": 2, "entries": 31, "tournaments": 0})
    '2 tables, 31 entries, 0 tournaments'
    """
    return ", ".join(f"{n} {word}" for word, n in copied.items())
