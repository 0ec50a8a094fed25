"""A database that does not answer: a prompt 503 in words, a form's input kept, never a 500 or a long wait;
and a pool never carried across a fork (gunicorn --preload).

The outage is made by the pool itself refusing (what psycopg's pool raises when PostgreSQL is down,
and SQLite when its file stays locked); tests/test_hosted_as_documented.py stops a real PostgreSQL
under real servers.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time

import pytest
from markupsafe import escape
from psycopg_pool import PoolTimeout

from companion.storage import db
from tests.conftest import new_table
from tests.test_crash import ROOT

WORDS = "The scores are safe; Courtier cannot reach its database right now. Try again in a moment."


@pytest.fixture
def outage(app, monkeypatch):
    """From now on the app's pool cannot give a connection: it raises what an unreachable database raises."""
    raised = {"count": 0, "error": PoolTimeout("couldn't get a connection after 3.00 sec")}
    connections = db.pool(app)

    def refuse(timeout=None):
        raised["count"] += 1
        raise raised["error"]

    def start() -> None:
        monkeypatch.setattr(connections, "take", refuse)
    raised["start"] = start
    return raised


def test_a_page_is_a_503_in_words_with_retry_after(client, outage):
    view, _ = new_table(client)
    outage["start"]()
    response = client.get(view)
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    assert response.headers["Cache-Control"] == "no-store"
    page = response.get_data(as_text=True)
    assert str(escape(WORDS)) in page and "Something went wrong" not in page


def test_a_save_from_the_form_comes_back_with_what_was_typed_to_send_again(client, outage):
    _, edit = new_table(client)
    outage["start"]()
    typed = {"base_version": "0", "out": "Ann", "p1_low": "3", "note": "Ben's <last> hand"}
    response = client.post(edit.replace("?", "/hands?"), data=typed)
    assert response.status_code == 503
    page = response.get_data(as_text=True)
    for name, value in typed.items():
        assert f'name="{name}" value="{escape(value)}"' in page
    table_path = edit.split("?")[0]
    assert f'action="{table_path}/hands?key={edit.split("key=")[1]}"' in page  # the same address, key and all
    assert "Send again" in page and str(escape(WORDS)) in page


@pytest.mark.parametrize("error", [PoolTimeout("no connection"), sqlite3.OperationalError("database is locked")])
def test_the_api_answers_503_with_its_errors_list(client, outage, error):
    _, edit = new_table(client)
    outage["error"] = error
    outage["start"]()
    table_id = edit.split("/t/")[1].split("?")[0]
    response = client.post(f"/api/v1/tables/{table_id}/rounds", json={"round": {"out": "Ann"}, "base_version": 0},
                           headers={"Authorization": f"Bearer {edit.split('key=')[1]}"})
    assert response.status_code == 503 and response.headers["Retry-After"] == "5"
    assert response.get_json() == {"errors": [{"where": "$", "message": WORDS}]}


def test_a_board_refresh_waits_for_the_database_once_not_twice(client, outage):
    view, _ = new_table(client)
    tag = client.get(f"{view}/board").headers["ETag"]
    outage["start"]()
    response = client.get(f"{view}/board", headers={"If-None-Match": tag, "HX-Request": "true"})
    assert response.status_code == 503
    assert outage["count"] == 1  # the early answer's try is the only one: Flask answers it without asking again
    assert "cannot reach its database" in response.get_data(as_text=True)


def test_health_says_unavailable(client, outage):
    outage["start"]()
    response = client.get("/healthz")
    assert response.status_code == 503 and response.get_json()["status"] == "unavailable"


def test_a_fault_that_is_not_an_outage_stays_a_500(client, app, monkeypatch):
    """A constraint refused or a statement wrong is a fault to fix, not a database to wait for."""
    view, _ = new_table(client)

    def broken(timeout=None):
        raise sqlite3.IntegrityError("UNIQUE constraint failed")
    monkeypatch.setattr(db.pool(app), "take", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    app.testing = False
    assert client.get(view).status_code == 500


def test_postgresql_that_does_not_answer_is_given_up_within_the_wait(postgres):
    """A server that refuses connections: the pool's first request fails after DATABASE_WAIT, not 30 s."""
    import socket

    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    connections = db.PostgresPool(f"postgresql://courtier@127.0.0.1:{port}/courtier", size=2, wait=1.0)
    try:
        started = time.monotonic()
        with pytest.raises(db.unavailable_errors()):
            connections.take()
        assert time.monotonic() - started < 3
    finally:
        connections.close()


def test_a_database_that_cannot_be_opened_at_start_says_why_in_one_line(tmp_path):
    not_a_database = tmp_path / "notes.sqlite"
    not_a_database.write_text("shopping list: eggs, milk\n" * 100)
    with pytest.raises(db.Unreachable, match=r"^Courtier cannot open its database .*notes.sqlite: file is not a "
                                             r"database\. Check COURTIER_DATABASE"):
        db.migrate_at_start(str(not_a_database))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX")
def test_a_forked_process_opens_its_own_connections(app, database):
    """What gunicorn --preload does: the app built in the parent, the requests served in a child. The child
    never uses a connection the parent opened (a shared socket would mix the two processes' answers)."""
    connections = db.pool(app)
    with app.app_context():
        parent = db.get_db()
        parent_conn = parent.conn
        db.close_db()
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe
        try:
            with app.app_context():
                mine = db.get_db()
                answer = {"same": mine.conn is parent_conn, "one": mine.value("SELECT 1")}
                db.close_db()
        except BaseException as err:  # noqa: BLE001 - reported to the parent
            answer = {"error": repr(err)}
        os.write(write, json.dumps(answer).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        answer = json.loads(pipe.read())
    os.waitpid(child, 0)
    assert answer == {"same": False, "one": 1}
    with app.app_context():  # and the parent's own connection still answers, untouched by the child
        assert db.get_db().value("SELECT 2") == 2
        db.close_db()
    assert connections is db.pool(app)


def _started(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, timeout=120,
                          check=False)


@pytest.mark.parametrize("way", ["make run", "gunicorn --preload", "companion init-db"])
def test_each_way_of_starting_says_in_one_line_why_its_database_cannot_be_opened(tmp_path, way):
    """A URL asking for TLS of a server that has none (the hosted section's first trap), a password refused,
    a file that is not a database: each way of starting stops at once, says why in words, no traceback."""
    import socket

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    target = f"postgresql://courtier:s3cret@127.0.0.1:{port}/courtier?sslmode=require"
    command = {
        "make run": [sys.executable, "-m", "companion.serve", "--host", "127.0.0.1", "--port", str(port)],
        "gunicorn --preload": [str(ROOT / ".venv" / "bin" / "gunicorn"), "--bind", f"127.0.0.1:{port}", "--workers",
                               "2", "--preload", "wsgi:app"],
        "companion init-db": [str(ROOT / ".venv" / "bin" / "companion"), "init-db"],
    }[way]
    started = time.monotonic()
    done = _started(command, {"COURTIER_DATABASE": target, "COURTIER_SECRET_KEY": "outage-test"})
    said = done.stdout + done.stderr
    assert done.returncode != 0 and time.monotonic() - started < 60
    assert "Traceback" not in said, said
    assert f"Courtier cannot open its database postgresql://courtier:***@127.0.0.1:{port}/courtier?sslmode=require: " \
           in said and "Check COURTIER_DATABASE" in said, said
    assert "s3cret" not in said


def test_an_outages_503s_are_counted_under_the_views_asked_for(make_app, monkeypatch):
    """The metrics name the route of every answer: a page, a board refresh and a save refused in an outage are
    counted under their own views, not as ``unmatched`` (which is left to addresses no view answers)."""
    from prometheus_client import REGISTRY

    app = make_app(WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False, METRICS_TOKEN="metrics-test")
    client = app.test_client()
    view, edit = new_table(client)
    tag = client.get(f"{view}/board").headers["ETag"]

    def count(route: str, method: str, status: str) -> float:
        labels = {"route": route, "method": method, "status": status}
        return REGISTRY.get_sample_value("courtier_requests_total", labels) or 0.0

    routes = {(rule.rule, method): rule.endpoint for rule in app.url_map.iter_rules() for method in rule.methods}
    asked = [("GET", view, {}, routes[("/t/<table_id>", "GET")]),
             ("GET", f"{view}/board", {"If-None-Match": tag}, routes[("/t/<table_id>/board", "GET")]),
             ("POST", edit.replace("?", "/hands?"), {}, routes[("/t/<table_id>/hands", "POST")])]
    before = {route: count(route, method, "503") for method, _, _, route in asked}
    unmatched = count("unmatched", "GET", "503") + count("unmatched", "POST", "503")
    monkeypatch.setattr(db.pool(app), "take", lambda timeout=None: (_ for _ in ()).throw(PoolTimeout("down")))
    for method, path, headers, _ in asked:
        data = {"base_version": "0", "out": "Ann"} if method == "POST" else None
        assert client.open(path, method=method, headers=headers, data=data).status_code == 503
    assert {route: count(route, method, "503") - before[route] for method, _, _, route in asked} == {
        "tables.show": 1, "tables.board": 1, "tables.add_hand": 1}
    assert count("unmatched", "GET", "503") + count("unmatched", "POST", "503") == unmatched
    assert client.get("/no/such/page").status_code == 404
    assert count("unmatched", "GET", "404") >= 1
