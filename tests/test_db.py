"""The database: WAL, busy timeout, migrations, append-only log, one SECRET_KEY kept."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion import create_app, db, tables


def test_wal_busy_timeout_and_migrations(tmp_path):
    path = str(tmp_path / "x.sqlite")
    conn = db.connect(path)
    db.migrate(conn)
    db.migrate(conn)  # applying twice is harmless
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == db.BUSY_TIMEOUT_MS
    assert {"tables", "events", "_sqlite_migrations"} <= set(conn.table_names())


def test_the_log_refuses_updates_and_deletes(tmp_path):
    conn = db.connect(str(tmp_path / "x.sqlite"))
    db.migrate(conn)
    table = tables.create_table(conn, "rummathon-royale", ["Ann", "Ben"], {}, rounds=[{"out": "Ann"}])
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE events SET data = '{}'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM events")
    assert len(tables.events(conn, table.id)) == 1


def test_a_write_holds_the_lock_from_its_first_statement(tmp_path):
    """BEGIN IMMEDIATE: a second writer cannot start while the first is open."""
    path = str(tmp_path / "x.sqlite")
    first, second = db.connect(path), db.connect(path)
    db.migrate(first)
    second.execute("PRAGMA busy_timeout = 50")
    with db.immediate(first), pytest.raises(sqlite3.OperationalError, match="locked"):
        second.execute("BEGIN IMMEDIATE")
    second.execute("BEGIN IMMEDIATE")
    second.execute("ROLLBACK")


def test_secret_key_is_generated_once_and_kept(tmp_path):
    config = {"DATABASE": str(tmp_path / "x.sqlite")}
    app = create_app(dict(config, SECRET_KEY=None))
    first = app.config["SECRET_KEY"]
    assert len(first) == 64
    assert (Path(app.instance_path) / "secret_key").read_text().strip() == first
    assert create_app(dict(config, SECRET_KEY=None)).config["SECRET_KEY"] == first


def test_stale_version_is_refused_in_the_transaction(tmp_path):
    conn = db.connect(str(tmp_path / "x.sqlite"))
    db.migrate(conn)
    table = tables.create_table(conn, "rummathon-royale", ["Ann", "Ben"], {})
    tables.append(conn, table, 0, tables.Change("add", data={"out": "Ann"}))
    with pytest.raises(tables.StaleVersion) as stale:
        tables.append(conn, table, 0, tables.Change("add", data={"out": "Ben"}))
    assert stale.value.current == 1
    assert len(tables.events(conn, table.id)) == 1


def test_the_log_made_before_renames_keeps_every_row_and_stays_append_only(tmp_path):
    """m006 rebuilds the log to allow "rename" and "seat": a database from before it keeps its rows,
    entry keys and triggers, and still refuses a kind nobody knows."""
    conn = db.connect(str(tmp_path / "old.sqlite"))
    db.migrations.apply(conn, stop_before="m006_player_changes")
    table = tables.create_table(conn, "rummathon-royale", ["Ann", "Ben"], {}, rounds=[{"out": "Ann"}, {"out": "Ben"}])
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO events (table_id, seq, kind, created_at) VALUES (?, 3, 'rename', 'now')",
                     [table.id])
    db.migrate(conn)
    assert [e.data for e in tables.events(conn, table.id)] == [{"out": "Ann"}, {"out": "Ben"}]
    tables.rename(conn, table, 2, "Ben", "Benedict")
    assert tables.state(conn, table).table.players == ("Ann", "Benedict")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM events")
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO events (table_id, seq, kind, created_at) VALUES (?, 9, 'bogus', 'now')",
                     [table.id])
    assert conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'events_entry_key'").fetchone()[0] == 1
