"""`companion`: scoring files, and export / import / backup of the web app's tables."""

from __future__ import annotations

import json
import sqlite3

from click.testing import CliRunner

from companion.cli import main

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
