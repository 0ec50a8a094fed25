"""The database: one SQLite file, WAL mode, a connection per request, migrations.

Every write goes through :func:`immediate`, which takes the write lock up
front (BEGIN IMMEDIATE) so two phones writing at once queue instead of
failing halfway, and commits before the entry is acknowledged.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, current_app, g
from sqlite_utils import Database, Migrations

BUSY_TIMEOUT_MS = 5000

migrations = Migrations("courtier")


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
    # The log is append-only: the database itself refuses to rewrite history.
    db.execute(
        "CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
        "BEGIN SELECT RAISE(ABORT, 'the entry log is append-only'); END"
    )
    db.execute(
        "CREATE TRIGGER events_no_delete BEFORE DELETE ON events "
        "BEGIN SELECT RAISE(ABORT, 'the entry log is append-only'); END"
    )


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


def get_db() -> Database:
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.conn.close()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
    db = connect(app.config["DATABASE"])
    try:
        migrate(db)
    finally:
        db.conn.close()
