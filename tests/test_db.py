"""The database: SQLite's WAL and busy timeout, PostgreSQL's row locks, migrations on both, the
append-only log, one SECRET_KEY kept."""

from __future__ import annotations

import itertools
import sqlite3
import string
import threading
import time
from contextlib import closing
from pathlib import Path

import pytest

from companion import create_app
from companion.storage import db, migrations, tables
from companion.tournaments import store


@pytest.fixture
def conn(database):
    """A connection of its own to the test's database (SQLite file or PostgreSQL), migrated."""
    with closing(db.connect(database)) as opened:
        db.migrate(opened)
        yield opened


def test_wal_busy_timeout_and_migrations(tmp_path):
    path = str(tmp_path / "x.sqlite")
    conn = db.connect(path)
    db.migrate(conn)
    db.migrate(conn)  # applying twice is harmless
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == db.BUSY_TIMEOUT_MS
    assert {"tables", "events", "rate_counts", "_sqlite_migrations"} <= set(conn.table_names())
    assert migrations.applied(conn)[-1] == "m010_clubs"


def test_postgresql_gets_the_same_tables_and_steps(postgres):
    url = postgres.create_database()
    try:
        with closing(db.connect(url)) as conn:
            db.migrate(conn)  # the template was migrated already: applying again is harmless
            assert {"tables", "events", "tournaments", "tournament_tables", "tournament_calls",
                    "tournament_adjustments", "rate_counts", "courtier_migrations", "clubs", "club_players",
                    "club_tables", "club_places", "club_tournaments"} == set(conn.table_names())
            assert migrations.applied(conn) == [name for name, _ in migrations.POSTGRES_STEPS]
    finally:
        postgres.drop_database(url)


def test_servers_starting_together_migrate_a_new_postgresql_once(postgres):
    """Several app servers started at once against an empty database: one applies each step,
    the others wait on the advisory lock and find it applied."""
    url = postgres.create_database(template="template0")
    errors: list[BaseException] = []
    together = threading.Barrier(3, timeout=10)

    def start():
        try:
            with closing(db.connect(url)) as conn:
                together.wait()
                db.migrate(conn)
        except BaseException as err:  # raised below
            errors.append(err)

    try:
        threads = [threading.Thread(target=start) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert errors == []
        with closing(db.connect(url)) as conn:
            assert conn.value("SELECT COUNT(*) FROM courtier_migrations") == len(migrations.POSTGRES_STEPS)
    finally:
        postgres.drop_database(url)


def test_the_log_refuses_updates_and_deletes(conn):
    table = tables.create_table(conn, "rummathon-royale", ["Ann", "Ben"], {}, rounds=[{"out": "Ann"}])
    with pytest.raises(conn.integrity_errors, match="append-only"):
        conn.execute("UPDATE events SET data = '{}'")
    with pytest.raises(conn.integrity_errors, match="append-only"):
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


def test_on_postgresql_a_write_locks_its_table_and_no_other(postgres):
    """Two servers writing to one table queue on its row; a write to another table goes on."""
    import psycopg

    database = postgres.empty_database()
    conn = db.connect(database)
    one = tables.create_table(conn, "rummathon-royale", ["Ann", "Ben"], {})
    other = tables.create_table(conn, "rummathon-royale", ["Cat", "Dan"], {})
    with closing(db.connect(database)) as second, db.immediate(conn, lock=("tables", one.id)):
        second.execute("SET lock_timeout = 100")
        with pytest.raises(psycopg.errors.LockNotAvailable):
            second.begin(("tables", one.id))
        second.rollback()
        with db.immediate(second, lock=("tables", other.id)):
            tables.store_table(second, tables.new_table("royalty", ["Eve", "Fay"], {}))
    with pytest.raises(ValueError, match="no lock on events"):
        conn.begin(("events", "x"))
    conn.rollback()
    conn.close()


def test_secret_key_is_generated_once_and_kept(tmp_path):
    config = {"DATABASE": str(tmp_path / "x.sqlite")}
    app = create_app(dict(config, SECRET_KEY=None))
    first = app.config["SECRET_KEY"]
    assert len(first) == 64
    assert (Path(app.instance_path) / "secret_key").read_text().strip() == first
    assert create_app(dict(config, SECRET_KEY=None)).config["SECRET_KEY"] == first


def test_stale_version_is_refused_in_the_transaction(conn):
    table = tables.create_table(conn, "rummathon-royale", ["Ann", "Ben"], {})
    tables.append(conn, table, 0, tables.Change("add", data={"out": "Ann"}))
    with pytest.raises(tables.StaleVersion) as stale:
        tables.append(conn, table, 0, tables.Change("add", data={"out": "Ben"}))
    assert stale.value.current == 1
    assert len(tables.events(conn, table.id)) == 1


def test_an_entry_key_and_a_change_number_are_unique_in_the_database_itself(conn):
    """Whatever server writes, the database refuses a second row with a table's change number or entry key."""
    table = tables.create_table(conn, "rummathon-royale", ["Ann", "Ben"], {})
    key = "k" * 22
    tables.append(conn, table, 0, tables.Change("add", data={"out": "Ann"}), entry_key=key)
    insert = ("INSERT INTO events (table_id, seq, kind, slot, data, created_at, entry_key) "
              "VALUES (?, ?, 'add', ?, '{\"out\": \"Ben\"}', 'now', ?)")
    with pytest.raises(conn.integrity_errors):
        conn.execute(insert, [table.id, 1, 1, None])  # change 1 again
    with pytest.raises(conn.integrity_errors):
        conn.execute(insert, [table.id, 2, 2, key])  # the key again
    assert [e.seq for e in tables.events(conn, table.id)] == [1]


def test_a_table_removed_elsewhere_is_gone_even_when_cached(conn):
    """A cached table is not enough: its version is read from the database, which says it is gone."""
    table = tables.create_table(conn, "rummathon-royale", ["Ann", "Ben"], {})
    known = tables.StateCache()
    assert tables.state(conn, table, known).version == 0
    conn.execute("DELETE FROM tables WHERE id = ?", [table.id])  # as undoing a round's seating does
    with pytest.raises(tables.TableNotFound):
        tables.state(conn, table, known)


def test_long_options_come_back_whole_on_either_database(conn):
    words = ["".join(w) for w in itertools.islice(itertools.product(string.ascii_uppercase, repeat=4), 3000)]
    # about 24 KB of JSON: compressed in a SQLite file, as text in PostgreSQL (which compresses it itself)
    table = tables.create_table(conn, "royalty", ["Ann", "Ben"], {"word_list": words})
    stored = conn.value("SELECT options FROM tables WHERE id = ?", [table.id])
    assert isinstance(stored, bytes) == (conn.kind == "sqlite")
    assert tables.get_table(conn, table.id).options["word_list"] == words


def test_the_log_made_before_renames_keeps_every_row_and_stays_append_only(tmp_path):
    """m006 rebuilds the log to allow "rename" and "seat": a database from before it keeps its rows,
    entry keys and triggers, and still refuses a kind nobody knows."""
    conn = db.connect(str(tmp_path / "old.sqlite"))
    migrations.sqlite_migrations.apply(conn.utils, stop_before="m006_player_changes")
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


def test_placeholders_and_a_literal_percent_mean_the_same_on_both(conn):
    table = tables.create_table(conn, "rummathon-royale", ["Ann", "Ben"], {}, title="100% fun?")
    assert conn.value("SELECT COUNT(*) FROM tables WHERE title LIKE '100%'") == 1
    assert conn.value("SELECT id FROM tables WHERE title LIKE '%fun?' AND id = ?", [table.id]) == table.id
    assert conn.rows("SELECT title FROM tables WHERE id = ?", [table.id]) == [{"title": "100% fun?"}]


def test_undoing_a_seating_waits_for_a_hand_being_saved_and_then_keeps_the_seating(database, conn):
    """A hand saved on one server while the director undoes the round's seating on another: the undo
    waits for the save, sees the hand and refuses, never a half-removed round or a broken log."""
    t = store.create(conn, "rally-the-king", "Club night", ["Ann", "Ben", "Cat", "Dan"], {}, "random", 2, 4)
    (seat,) = store.seat_next_round(conn, t, seed=3)
    table = tables.get_table(conn, seat.table_id)
    outcome: list[object] = []
    with closing(db.connect(database)) as director:
        if director.kind == "sqlite":
            director.execute(f"PRAGMA busy_timeout = {db.BUSY_TIMEOUT_MS}")
        with db.immediate(conn, lock=("tables", table.id)):  # the save is under way...
            tables._insert(conn, table.id, tables.Event(1, "seat", None, None, {"name": "Eve"}, "", tables.now()))

            def undo():
                try:
                    outcome.append(store.unseat_round(director, t, 1))
                except store.DirectorRefused as err:
                    outcome.append(err)

            undoing = threading.Thread(target=undo)
            undoing.start()
            undoing.join(timeout=0.5)
            assert undoing.is_alive()  # ...and the undo waits for it
        undoing.join(timeout=10)
    assert len(outcome) == 1 and isinstance(outcome[0], store.DirectorRefused), outcome
    assert "has a hand entered" in str(outcome[0])
    assert store.rounds_seated(conn, t.id) == 1 and tables.version(conn, table.id) == 1


def _backend_gone(url: str, pid: int) -> bool:
    import psycopg

    deadline = time.monotonic() + 30
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        while time.monotonic() < deadline:
            if admin.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone()[0] == 0:
                return True
            time.sleep(0.05)
    return False


def test_a_postgresql_connection_the_server_dropped_while_idle_is_replaced_before_a_request_gets_it(
        postgres, monkeypatch):
    url = postgres.create_database()
    pool = db.PostgresPool(url, size=2)
    try:
        first = pool.take()
        dropped = first.value("SELECT pg_backend_pid()")
        pool.give_back(first)
        assert _backend_gone(url, dropped)  # as when PostgreSQL restarts between two requests
        monkeypatch.setattr(db, "CHECK_IDLE_SECONDS", 0.0)  # the connection has been idle a while
        again = pool.take()
        assert again.value("SELECT pg_backend_pid()") != dropped
        pool.give_back(again)
    finally:
        pool.close()
        postgres.drop_database(url)


def test_a_postgresql_connection_given_back_a_moment_ago_is_not_checked_again(postgres, monkeypatch):
    """A board refresh needs one round trip to PostgreSQL; a check on every request made it two."""
    import psycopg

    url = postgres.create_database()
    # One connection: with two, the pool may open its second in the background and hand that out next
    # (it hands out its oldest idle one first), a connection never given back and so rightly checked.
    pool = db.PostgresPool(url, size=1)
    sent: list[str] = []
    real_execute = psycopg.Connection.execute
    monkeypatch.setattr(psycopg.Connection, "execute",
                        lambda self, query, *args, **kwargs: sent.append(query) or real_execute(self, query, *args,
                                                                                                 **kwargs))
    try:
        first = pool.take()
        first.value("SELECT 1")
        pool.give_back(first)
        sent.clear()
        monkeypatch.setattr(db, "CHECK_IDLE_SECONDS", 3600.0)
        again = pool.take()
        again.value("SELECT 2")
        pool.give_back(again)
        assert sent == ["SELECT 2"]
        monkeypatch.setattr(db, "CHECK_IDLE_SECONDS", 0.0)
        sent.clear()
        pool.give_back(pool.take())
        assert sent == [""]  # idle too long: checked with an empty query
    finally:
        pool.close()
        postgres.drop_database(url)
