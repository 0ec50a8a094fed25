"""The database: one SQLite file, WAL mode, a small pool of connections, migrations.

Every write goes through :func:`immediate`, which takes the write lock up
front (BEGIN IMMEDIATE) so two phones writing at once queue instead of
failing halfway, and commits before the entry is acknowledged.

A request borrows a connection from the app's pool and gives it back at the
end. Opening a connection per request cost more than the rest of a small
request: closing the last connection to a WAL database checkpoints the WAL
and deletes it, every time.
"""

from __future__ import annotations

import sqlite3
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, current_app, g
from sqlite_utils import Database, Migrations

BUSY_TIMEOUT_MS = 5000
IDLE_CONNECTIONS = 16  # kept open between requests; more than any server's thread count here

migrations = Migrations("courtier")


def append_only(db: Database) -> None:
    """The log is append-only: the database itself refuses to rewrite history."""
    db.execute(
        "CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
        "BEGIN SELECT RAISE(ABORT, 'the entry log is append-only'); END"
    )
    db.execute(
        "CREATE TRIGGER events_no_delete BEFORE DELETE ON events "
        "BEGIN SELECT RAISE(ABORT, 'the entry log is append-only'); END"
    )


@migrations()
def m001_tables_and_events(db: Database) -> None:
    db["tables"].create(
        {
            "id": str,  # public: the view link
            "edit_key": str,  # secret: the edit link
            "game": str,
            "title": str,
            "players": str,  # JSON list, seat order
            "options": str,  # JSON object
            "created_at": str,
        },
        pk="id",
    )
    db["tables"].create_index(["edit_key"], unique=True)
    db.execute(
        """
        CREATE TABLE events (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            table_id TEXT NOT NULL REFERENCES tables(id),
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('add', 'edit', 'delete', 'undo')),
            slot INTEGER,
            undoes INTEGER,
            data TEXT,
            device TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            UNIQUE (table_id, seq)
        )
        """
    )
    append_only(db)


@migrations()
def m002_tournaments(db: Database) -> None:
    db["tournaments"].create(
        {
            "id": str,  # public: the standings link
            "director_key": str,  # secret: the director's link
            "game": str,
            "title": str,
            "entrants": str,  # JSON list of names (or of teams: lists of two names)
            "options": str,  # JSON: the game's options for every table
            "method": str,  # random, round-robin, swiss
            "rounds": int,
            "table_size": str,  # JSON: a number, or [min, max]
            "created_at": str,
        },
        pk="id",
    )
    db["tournaments"].create_index(["director_key"], unique=True)
    db.execute(
        """
        CREATE TABLE tournament_tables (
            tournament_id TEXT NOT NULL REFERENCES tournaments(id),
            round INTEGER NOT NULL,
            number INTEGER NOT NULL,
            table_id TEXT NOT NULL REFERENCES tables(id),
            seats TEXT NOT NULL,
            PRIMARY KEY (tournament_id, round, number)
        )
        """
    )


@migrations()
def m003_entry_keys(db: Database) -> None:
    """Each save from a phone carries a key of its own; a key is stored once per table, so a
    replayed save (a double tap, a lost answer, an offline queue sent again) never doubles an entry."""
    db.execute("ALTER TABLE events ADD COLUMN entry_key TEXT")
    db.execute("CREATE UNIQUE INDEX events_entry_key ON events (table_id, entry_key) WHERE entry_key IS NOT NULL")


@migrations()
def m004_tournament_time(db: Database) -> None:
    """Calling time on a round, and the director's adjusted results with their reasons."""
    db.execute(
        """
        CREATE TABLE tournament_calls (
            tournament_id TEXT NOT NULL REFERENCES tournaments(id),
            round INTEGER NOT NULL,
            called_at TEXT NOT NULL,
            PRIMARY KEY (tournament_id, round)
        )
        """
    )
    db.execute(
        """
        CREATE TABLE tournament_adjustments (
            tournament_id TEXT NOT NULL REFERENCES tournaments(id),
            table_id TEXT NOT NULL REFERENCES tables(id),
            totals TEXT NOT NULL,
            reason TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (tournament_id, table_id)
        )
        """
    )


@migrations()
def m005_rematch_of(db: Database) -> None:
    """A rematch remembers the table it follows (its page links back)."""
    db["tables"].add_column("rematch_of", str)


@migrations()
def m006_player_changes(db: Database) -> None:
    """The log also records a player's name corrected ("rename") and a late player seated ("seat").

    SQLite cannot change a CHECK constraint in place, so the log is copied, row for row, into a
    table that allows the two new kinds; its indexes and append-only triggers are made again.
    """
    db.execute(
        """
        CREATE TABLE events_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            table_id TEXT NOT NULL REFERENCES tables(id),
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('add', 'edit', 'delete', 'undo', 'rename', 'seat')),
            slot INTEGER,
            undoes INTEGER,
            data TEXT,
            device TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            entry_key TEXT,
            UNIQUE (table_id, seq)
        )
        """
    )
    columns = "id, table_id, seq, kind, slot, undoes, data, device, created_at, entry_key"
    db.execute(f"INSERT INTO events_new ({columns}) SELECT {columns} FROM events")  # noqa: S608 - constant
    db.execute("DROP TABLE events")  # its triggers go with it, before the rows (none fires)
    db.execute("ALTER TABLE events_new RENAME TO events")
    db.execute("CREATE UNIQUE INDEX events_entry_key ON events (table_id, entry_key) WHERE entry_key IS NOT NULL")
    append_only(db)


@migrations()
def m007_typed_at_and_table_rounds(db: Database) -> None:
    """A save sent late (kept on a phone without signal) remembers when it was typed, beside when it
    arrived; and a table finds its tournament round (to say when time was called) without a scan."""
    db.execute("ALTER TABLE events ADD COLUMN typed_at TEXT")
    db.execute("CREATE INDEX tournament_tables_table ON tournament_tables (table_id)")


def connect(path: str) -> Database:
    """Open the database in autocommit mode; transactions are explicit."""
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                           check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    return Database(conn)


def migrate(db: Database) -> None:
    """Bring the schema up to date; WAL is set here once, as it stays with the file."""
    db.execute("PRAGMA journal_mode = WAL")
    migrations.apply(db)


@contextmanager
def immediate(db: Database) -> Iterator[Database]:
    """A write transaction that holds the write lock from its first statement."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


class Pool:
    """Idle connections to one database file, handed to one request at a time.

    Connections are opened on demand and at most ``keep`` idle ones are kept,
    so any threading model works (waitress's fixed threads, or a thread per
    request). A connection comes back in autocommit mode: a request that
    failed inside a transaction has it rolled back first.
    """

    def __init__(self, path: str, keep: int = IDLE_CONNECTIONS):
        self.path = path
        self.keep = keep
        self._idle: list[Database] = []
        self._lock = threading.Lock()

    def take(self) -> Database:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return connect(self.path)

    def give_back(self, db: Database) -> None:
        if db.conn.in_transaction:
            db.conn.rollback()
        with self._lock:
            if len(self._idle) < self.keep:
                self._idle.append(db)
                return
        db.conn.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for db in idle:
            db.conn.close()


def pool(app: Flask) -> Pool:
    return app.extensions["courtier.db"]


def get_db() -> Database:
    if "db" not in g:
        g.db = pool(current_app).take()
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        pool(current_app).give_back(db)


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
    db = connect(app.config["DATABASE"])
    try:
        migrate(db)
    finally:
        db.conn.close()
    app.extensions["courtier.db"] = connections = Pool(app.config["DATABASE"])
    weakref.finalize(app, connections.close)  # an app dropped (a test's) closes its files
