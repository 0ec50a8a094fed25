"""`companion`: scoring files, and export / import / backup of the web app's tables."""

from __future__ import annotations

import hashlib
import itertools
import json
import sqlite3
import string
from contextlib import closing

from click.testing import CliRunner

from companion.cli import main
from companion.clubs import store as clubs
from companion.storage import copydb, db, migrations, tables
from companion.tournaments import store

GAME = {"game": "rummathon-royale", "players": ["Ann", "Ben"],
        "rounds": [{"out": "Ann", "left": {"Ben": {"high": 2}}}]}


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_score_a_file(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(GAME))
    result = run("score", str(path))
    assert result.exit_code == 0
    assert json.loads(result.output)["totals"] == {"Ann": 20, "Ben": 0}


def test_score_from_stdin_matches_the_api(client):
    result = run("score", "-", input=json.dumps(GAME))
    assert result.exit_code == 0
    assert json.loads(result.output) == client.post("/api/v1/score", json=GAME).get_json()


def test_bad_input_exits_2_with_the_errors_json(tmp_path):
    bad = dict(GAME, rounds=[{"out": "Zed"}])
    result = run("score", "-", input=json.dumps(bad))
    assert result.exit_code == 2
    assert json.loads(result.output)["errors"][0]["where"] == "rounds[0].out"
    for args, stdin in ((["score", str(tmp_path / "missing.json")], None), (["score", "-"], "{oops"),
                        (["score", "-"], "")):
        result = run(*args, input=stdin)
        assert result.exit_code == 2, result.output
        assert json.loads(result.output)["errors"]


def test_help_documents_the_commands():
    result = run("--help")
    for word in ("score", "export", "import", "backup", "init-db"):
        assert word in result.output
    assert "exits 2" in run("score", "--help").output.lower().replace("\n", " ")


def test_import_export_and_backup_round_trip(tmp_path, monkeypatch):
    monkeypatch.setenv("COURTIER_DATABASE", str(tmp_path / "cli.sqlite"))
    monkeypatch.setenv("COURTIER_SECRET_KEY", "cli")
    source = tmp_path / "in.json"
    source.write_text(json.dumps(dict(GAME, title="From a file")))
    created = run("import", str(source))
    assert created.exit_code == 0, created.output
    table_id = json.loads(created.output)["table"]
    exported = run("export", table_id)
    assert exported.exit_code == 0
    body = json.loads(exported.output)
    assert body["rounds"] == GAME["rounds"] and body["title"] == "From a file"
    backup = tmp_path / "backup.sqlite"
    assert run("backup", str(backup)).exit_code == 0
    with sqlite3.connect(backup) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT id FROM tables").fetchall() == [(table_id,)]
        assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1
    assert run("export", "no-such-table").exit_code == 2


def test_a_table_whose_random_id_began_with_a_dash_is_exported_by_its_id(tmp_path, monkeypatch):
    """One id in 64 drawn by token_urlsafe starts with "-", which a command line reads as an option
    (`companion export -x...` was a usage error, exit 2): ids are drawn again until they do not."""
    monkeypatch.setenv("COURTIER_DATABASE", str(tmp_path / "cli.sqlite"))
    monkeypatch.setenv("COURTIER_SECRET_KEY", "cli")
    draws = iter(["-dashFirst12", "plainId12345"])
    real = tables.secrets.token_urlsafe
    monkeypatch.setattr(tables.secrets, "token_urlsafe", lambda n: next(draws) if n == 9 else real(n))
    source = tmp_path / "in.json"
    source.write_text(json.dumps(GAME))
    created = run("import", str(source))
    assert json.loads(created.output)["table"] == "plainId12345"
    assert run("export", "plainId12345").exit_code == 0


def _venue(path) -> dict[str, str]:
    """A venue's SQLite file after an evening: a game with a correction, an undo, an offline save, a
    rename and a late player; a rematch; a table with its own long word list; a tournament with a
    round seated, time called and a result adjusted. Its tables' ids and their exports."""
    conn = db.connect(str(path))
    try:
        db.migrate(conn)
        game = tables.create_table(conn, "rummathon-royale", ["Ann", "Ben"], {}, title="Evening")
        tables.append(conn, game, 0, tables.Change("add", data={"out": "Ann", "left": {"Ben": {"low": 2}}}),
                      entry_key="offline-save-000000001")
        tables.append(conn, game, 1, tables.Change("edit", 1, {"out": "Ben", "left": {"Ann": {"high": 1}}}))
        tables.append(conn, game, 2, tables.Change("undo"))
        tables.rename(conn, game, 3, "Ben", "Benedict")
        now = tables.state(conn, game)
        tables.seat(conn, now.table, 4, "Cat", now.scored)
        tables.create_table(conn, **tables.rematch(game))
        words = ["".join(w) for w in itertools.islice(itertools.product(string.ascii_uppercase, repeat=4), 2000)]
        tables.create_table(conn, "royalty", ["Ann", "Ben"], {"word_list": words})
        t = store.create(conn, "rally-the-king", "Club night", ["Ann", "Ben", "Cat", "Dan"], {}, "random", 2, 4)
        seated = store.seat_next_round(conn, t, seed=7)
        store.call_time(conn, t, 1)
        store.adjust(conn, t, seated[0].table_id, {e: 10 for e in seated[0].entrants}, "a card was lost")
        club = clubs.create_club(conn, "Thursday Club")  # a finished club game: its places and ratings go too
        finished = tables.new_table("indian-rummy", ["Ann", "Ben"], {"variant": "deals", "deals": 1})
        clubs.start_table(conn, club, finished, rounds=[{"winner": "Ann", "hands": {"Ben": {"count": 20}}}])
        ids = [r[0] for r in conn.execute("SELECT id FROM tables ORDER BY id")]
        return {i: _export(conn, i) for i in ids}
    finally:
        conn.close()


def _export(conn, table_id: str) -> dict:
    table = tables.get_table(conn, table_id)
    now, hands = tables.seating(table, tables.events(conn, table_id))
    return dict(tables.request_for(now, [data for _, data in hands]), title=now.title, log=[
        (e.seq, e.kind, e.slot, e.undoes, e.data, e.created_at) for e in tables.events(conn, table_id)])


def _rows(target: str) -> dict[str, list]:
    with closing(db.connect(target)) as conn:
        out = {}
        for name, _, columns in copydb.KINDS:
            rows = conn.execute(f"SELECT {', '.join(columns)} FROM {name} ORDER BY {', '.join(columns)}")
            # A long word list is compressed in a SQLite file, text in PostgreSQL: compared as what it holds.
            out[name] = [tuple(tables._options_of(v) if c == "options" and name == "tables" else v
                               for c, v in zip(columns, row, strict=True)) for row in rows]
        return out


def test_copy_db_moves_a_venue_to_postgresql_and_back(tmp_path, postgres):
    exports = _venue(tmp_path / "venue.sqlite")
    url = postgres.create_database()
    try:
        there = run("copy-db", str(tmp_path / "venue.sqlite"), url)
        assert there.exit_code == 0, there.output
        assert json.loads(there.output)["copied"] == {
            "tables": 5, "entries": 6, "tournaments": 1, "tournament tables": 1, "rounds called": 1,
            "adjusted results": 1, "clubs": 1, "club players": 2, "club tables": 1, "club tournaments": 0,
            "club places": 2}
        with closing(db.connect(url)) as conn:
            assert {i: _export(conn, i) for i in exports} == exports
            # The log's ids go on after the copied ones, and the offline save's key is still known.
            game = next(t for t in (tables.get_table(conn, i) for i in exports) if t.title == "Evening"
                        and t.rematch_of is None)
            assert tables.stored_seq(conn, game.id, "offline-save-000000001") == 1
            tables.append(conn, game, 5, tables.Change("add", data={"out": "Cat"}))
            tables.append(conn, game, 6, tables.Change("undo"))
        back = run("copy-db", url, str(tmp_path / "back.sqlite"))
        assert back.exit_code == 0, back.output
        assert json.loads(back.output)["copied"]["entries"] == 8
        assert _rows(str(tmp_path / "back.sqlite")) == _rows(url)

        again = run("copy-db", str(tmp_path / "venue.sqlite"), url)  # never over a database in use
        assert again.exit_code == 2
        message = json.loads(again.output)["errors"][0]["message"]
        assert "is not empty (it already holds 5 tables, 8 entries, 1 tournaments" in message
        assert "copy into an empty database" in message
        with closing(db.connect(url)) as conn:
            assert copydb.counts(conn)["entries"] == 8  # untouched
    finally:
        postgres.drop_database(url)


def test_copy_db_says_what_is_wrong_and_exits_2(tmp_path):
    _venue(tmp_path / "venue.sqlite")
    for args, where, says in (
        (["copy-db", str(tmp_path / "missing.sqlite"), str(tmp_path / "new.sqlite")], "SOURCE",
         "there is no database file"),
        (["copy-db", str(tmp_path / "venue.sqlite"), str(tmp_path / "venue.sqlite")], "TARGET", "the same database"),
        (["copy-db", str(tmp_path / "venue.sqlite"), "postgresql://nobody@/none?host=/nonexistent&connect_timeout=2"],
         "TARGET", "cannot open postgresql://nobody@/none"),
    ):
        result = run(*args)
        assert result.exit_code == 2, result.output
        problem = json.loads(result.output)["errors"][0]
        assert problem["where"] == where and says in problem["message"], problem
    assert not (tmp_path / "missing.sqlite").exists() and not (tmp_path / "new.sqlite").exists()


def test_backup_of_a_postgresql_database_is_a_sqlite_file(tmp_path, postgres, monkeypatch):
    url = postgres.create_database()
    try:
        with closing(db.connect(url)) as conn:
            table = tables.create_table(conn, "rummathon-royale", ["Ann", "Ben"], {}, rounds=GAME["rounds"])
        monkeypatch.setenv("COURTIER_DATABASE", url)
        monkeypatch.setenv("COURTIER_SECRET_KEY", "cli")
        backup = tmp_path / "backup.sqlite"
        result = run("backup", str(backup))
        assert result.exit_code == 0, result.output
        assert json.loads(result.output)["copied"]["entries"] == 1
        with sqlite3.connect(backup) as copy:
            assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert copy.execute("SELECT id FROM tables").fetchall() == [(table.id,)]
        copy.close()
        assert run("restore").exit_code == 2  # Litestream restores a file; PostgreSQL has its own backups
    finally:
        postgres.drop_database(url)


def _as_found(folder) -> dict[str, str]:
    """Every file in a folder and a checksum of its bytes: what a refused copy must leave as it was."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def _foreign(path, wal: bool = False) -> None:
    """Someone else's SQLite file: a table of birds, one row."""
    with closing(sqlite3.connect(path)) as conn:
        if wal:
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE birds (name TEXT)")
        conn.execute("INSERT INTO birds VALUES ('wren')")
        conn.commit()


def _refused(args: list[str], where: str) -> str:
    result = run(*args)
    assert result.exit_code == 2, result.output
    problem = json.loads(result.output)["errors"][0]
    assert problem["where"] == where, problem
    return problem["message"]


def test_copy_db_refuses_a_source_that_is_not_courtiers_and_writes_nothing(tmp_path):
    """The source is only read: an empty file, a text file or someone else's SQLite file (in either journal
    mode) is refused in words, and neither it nor anything beside it changes; no target is made."""
    folder = tmp_path / "sources"
    folder.mkdir()
    (folder / "empty.sqlite").touch()
    (folder / "notes.txt").write_text("not a database\n")
    _foreign(folder / "birds.sqlite")
    _foreign(folder / "birds-wal.sqlite", wal=True)
    found = _as_found(folder)
    target = tmp_path / "new.sqlite"
    for name, says in (("empty.sqlite", "is an empty file, not a Courtier database"),
                       ("notes.txt", "is not a SQLite database, so not a Courtier one"),
                       ("birds.sqlite", "is not a Courtier database (it holds birds)"),
                       ("birds-wal.sqlite", "is not a Courtier database (it holds birds)")):
        message = _refused(["copy-db", str(folder / name), str(target)], "SOURCE")
        assert f"{folder / name} {says}" in message, message
        assert _as_found(folder) == found, name
        assert not target.exists()


def test_copy_db_refuses_a_target_holding_someone_elses_table_and_writes_nothing(tmp_path):
    _venue(tmp_path / "venue.sqlite")
    _foreign(tmp_path / "birds.sqlite")
    found = _as_found(tmp_path)
    message = _refused(["copy-db", str(tmp_path / "venue.sqlite"), str(tmp_path / "birds.sqlite")], "TARGET")
    assert message == (f"{tmp_path / 'birds.sqlite'} holds tables that are not Courtier's (birds): copy into a "
                       "new file or an empty database"), message
    assert _as_found(tmp_path) == found
    (tmp_path / "notes.txt").write_text("not a database\n")
    message = _refused(["copy-db", str(tmp_path / "venue.sqlite"), str(tmp_path / "notes.txt")], "TARGET")
    assert message == f"{tmp_path / 'notes.txt'} is not a SQLite database: name a new file to copy into"
    assert (tmp_path / "notes.txt").read_text() == "not a database\n"


def test_courtiers_tables_are_those_a_new_database_holds(tmp_path, postgres):
    """What copy-db counts as Courtier's own (a target may hold them, empty) is what migrating makes."""
    url = postgres.create_database()
    try:
        for name in (str(tmp_path / "new.sqlite"), url):
            with closing(db.connect(name)) as conn:
                db.migrate(conn)
                held = {t for t in conn.table_names() if not t.startswith("sqlite_")}
            assert held == copydb.COURTIER_TABLES - {"courtier_migrations" if name.endswith("sqlite")
                                                     else "_sqlite_migrations"}
    finally:
        postgres.drop_database(url)


def test_copy_db_from_an_older_courtier_asks_for_it_to_be_brought_up_to_date(tmp_path):
    older = tmp_path / "older.sqlite"
    with closing(db.connect(str(older))) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
        migrations.sqlite_migrations.apply(conn.utils, stop_before="m010_clubs")
    found = _as_found(tmp_path)
    message = _refused(["copy-db", str(older), str(tmp_path / "new.sqlite")], "SOURCE")
    assert message == (f"{older} was made by an older Courtier (it lacks m010_clubs): bring it up to date first "
                       f"with COURTIER_DATABASE={older} companion init-db"), message
    assert _as_found(tmp_path) == found


def test_copy_db_leaves_the_venues_file_as_it_was(tmp_path):
    """A copy reads the source without a lock file or a journal left beside it: after a clean stop the
    venue's folder holds the one file, and still does after the copy."""
    folder = tmp_path / "venue"
    folder.mkdir()
    exports = _venue(folder / "courtier.sqlite")
    found = _as_found(folder)
    assert list(found) == ["courtier.sqlite"]
    result = run("copy-db", str(folder / "courtier.sqlite"), str(tmp_path / "copy.sqlite"))
    assert result.exit_code == 0, result.output
    assert _as_found(folder) == found
    with closing(db.connect(str(tmp_path / "copy.sqlite"))) as conn:
        assert {i: _export(conn, i) for i in exports} == exports


def test_copy_db_takes_a_venues_file_that_litestream_replicated(tmp_path):
    """Litestream adds two tables of its own to the file it replicates: neither Courtier's nor foreign."""
    exports = _venue(tmp_path / "venue.sqlite")
    with closing(sqlite3.connect(tmp_path / "venue.sqlite")) as conn:
        conn.execute("CREATE TABLE _litestream_seq (id INTEGER PRIMARY KEY, seq INTEGER)")
        conn.execute("CREATE TABLE _litestream_lock (id INTEGER)")
        conn.commit()
    result = run("copy-db", str(tmp_path / "venue.sqlite"), str(tmp_path / "copy.sqlite"))
    assert result.exit_code == 0, result.output
    with closing(db.connect(str(tmp_path / "copy.sqlite"))) as conn:
        assert {i: _export(conn, i) for i in exports} == exports
    # Into a replicated Courtier database: refused for its rows, not for Litestream's tables.
    message = _refused(["copy-db", str(tmp_path / "copy.sqlite"), str(tmp_path / "venue.sqlite")], "TARGET")
    assert "is not empty (it already holds 5 tables" in message, message


def test_a_copy_from_a_file_changed_while_it_was_read_is_not_kept(tmp_path):
    """A server started on the venue's file during the copy (against the advice to stop it first) could
    change what was being read: the copy is then refused whole, and the target left empty."""
    _venue(tmp_path / "venue.sqlite")
    source = copydb.open_source(str(tmp_path / "venue.sqlite"))
    try:
        with closing(db.connect(str(tmp_path / "venue.sqlite"))) as server:
            tables.create_table(server, "rummathon-royale", ["Ann", "Ben"], {})
        with closing(db.connect(str(tmp_path / "copy.sqlite"))) as target:
            db.migrate(target)
            try:
                copydb.copy(source, target)
            except copydb.Refused as err:
                assert err.where == "SOURCE" and "changed while it was copied" in str(err)
            else:
                raise AssertionError("a copy from a changed file was kept")
            assert not any(copydb.counts(target).values())
    finally:
        source.close()


def test_copy_db_refuses_a_postgresql_source_or_target_that_is_not_courtiers(tmp_path, postgres):
    empty = postgres.create_database(template="template0")
    birds = postgres.create_database(template="template0")
    try:
        message = _refused(["copy-db", empty, str(tmp_path / "new.sqlite")], "SOURCE")
        assert message == (f"{empty} is not a Courtier database (it holds no tables): the source comes first, "
                           "then the database to copy into"), message
        with closing(db.connect(empty)) as conn:
            assert conn.table_names() == []
        assert not (tmp_path / "new.sqlite").exists()

        with closing(db.connect(birds)) as conn:
            conn.execute("CREATE TABLE birds (name TEXT)")
        _venue(tmp_path / "venue.sqlite")
        message = _refused(["copy-db", str(tmp_path / "venue.sqlite"), birds], "TARGET")
        assert "holds tables that are not Courtier's (birds)" in message, message
        with closing(db.connect(birds)) as conn:
            assert conn.table_names() == ["birds"]
    finally:
        postgres.drop_database(empty)
        postgres.drop_database(birds)
