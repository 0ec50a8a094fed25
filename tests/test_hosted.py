"""A hosted Courtier: two real app servers, on two ports, sharing one PostgreSQL.

Nothing a player sees may depend on which server answered: a save on one is on the other's next
page, an undo on one is redone on the other, two saves of one hand from one version give one save
and one conflict, a table removed on one is gone from the other at once, an offline save's key is
honoured once, and one phone's creations are counted once across both.

The servers are `waitress-serve wsgi:app` processes, as production runs them, started once for the
module against a database of their own on the run's throwaway PostgreSQL, and stopped after.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import threading
import time
from urllib.parse import urlencode

import pytest

from companion import create_app
from companion.storage import db
from tests.test_crash import ROOT, WAITRESS, Server, free_port
from tests.test_tournament_director import PLAYERS as ENTRANTS

START_TIMEOUT = 30.0
PLAYERS = ("Ann", "Ben", "Cat", "Dan")
BASE_VERSION = re.compile(r'name="base_version"[^>]*value="(\d+)"')
#: The creation limit the servers share. This module's other tests create tables from 127.0.0.1,
#: fewer than this; the test of the limit is a phone of its own, 127.0.0.2.
CREATE_RATE = "8 per minute"
PHONE = "127.0.0.2"


class AppServer(Server):
    """waitress-serve on a free loopback port against the shared PostgreSQL, with the creation limit on."""

    def start(self, deadline: float) -> None:
        self.port = free_port()
        env = dict(os.environ, COURTIER_DATABASE=self.database, COURTIER_SECRET_KEY="hosted-test",
                   COURTIER_WTF_CSRF_ENABLED="false", COURTIER_CREATE_RATE=CREATE_RATE)
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen([str(WAITRESS), f"--listen=127.0.0.1:{self.port}", "--threads=8", "wsgi:app"],
                                         cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        self.answering(deadline, "/healthz")

    def send(self, method: str, path: str, form: dict[str, str] | None = None, source: str = "127.0.0.1"):
        """(status, headers, page) for one request, from the loopback address ``source`` (a phone)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20, source_address=(source, 0))
        try:
            headers = {"Content-Type": "application/x-www-form-urlencoded"} if form is not None else {}
            conn.request(method, path, body=urlencode(form) if form is not None else None, headers=headers)
            response = conn.getresponse()
            return response.status, response.headers, response.read().decode()
        finally:
            conn.close()


@pytest.fixture(scope="module")
def servers(postgres, tmp_path_factory):
    """Two app servers, A and B, on one PostgreSQL database of their own."""
    url = postgres.create_database()
    logs = tmp_path_factory.mktemp("servers")
    started = [AppServer(url, logs / f"{name}.log") for name in "AB"]
    try:
        for server in started:
            server.start(time.monotonic() + START_TIMEOUT)
        yield started
    finally:
        for server in started:
            server.stop()
        postgres.drop_database(url)


def new_table(server: AppServer, source: str = "127.0.0.1") -> tuple[str, str]:
    """A Rummathon Royale table made on ``server``: (its address, its edit key)."""
    status, headers, page = server.send("POST", "/new/rummathon-royale",
                                        {f"seat{i}": p for i, p in enumerate(PLAYERS, 1)}, source)
    assert status == 303, page[:500]
    table, key = headers["Location"].split("?key=")
    return table, key


def hand(version: str, out: str, left: str = "Ben", count: int = 2, **extra: str) -> dict[str, str]:
    """A hand of Rummathon Royale as the form sends it: ``out`` went out, ``left`` was caught with low cards."""
    seat = PLAYERS.index(left)
    return {"base_version": version, "out": out, f"p{seat}_low": str(count), **extra}


def version_on(server: AppServer, table: str, key: str) -> str:
    return BASE_VERSION.search(server.send("GET", f"{table}/hands/new?key={key}")[2]).group(1)


def totals(server: AppServer, table: str) -> dict[str, int]:
    status, _, body = server.send("GET", f"{table}/export.json")
    assert status == 200
    from companion.games import score

    return score(json.loads(body)).totals


def test_a_hand_saved_on_one_server_is_on_the_others_next_page(servers):
    a, b = servers
    table, key = new_table(a)
    assert "Hand 1" not in b.send("GET", f"{table}/board")[2]  # B has read (and cached) the empty table
    status, _, _ = a.send("POST", f"{table}/hands?key={key}", hand("0", "Ann", "Ben", 3))
    assert status == 303
    board = b.send("GET", f"{table}/board")[2]
    assert "Hand 1" in board
    assert totals(b, table) == {"Ann": 15, "Ben": 0, "Cat": 0, "Dan": 0}  # RR-1: 3 low cards at 5 each
    assert version_on(b, table, key) == "1"


def test_undo_on_one_server_and_redo_on_the_other(servers):
    a, b = servers
    table, key = new_table(b)
    assert a.send("POST", f"{table}/hands?key={key}", hand("0", "Cat", "Dan", 2))[0] == 303
    assert b.send("POST", f"{table}/hands?key={key}", hand("1", "Ann", "Ben", 1))[0] == 303
    assert totals(a, table) == {"Ann": 5, "Ben": 0, "Cat": 10, "Dan": 0}
    assert a.send("POST", f"{table}/undo?key={key}", {"base_version": "2"})[0] == 303
    assert totals(b, table) == {"Ann": 0, "Ben": 0, "Cat": 10, "Dan": 0}  # B sees hand 2 undone
    assert b.send("POST", f"{table}/redo?key={key}", {"base_version": "3"})[0] == 303
    assert totals(a, table) == {"Ann": 5, "Ben": 0, "Cat": 10, "Dan": 0}  # and A sees it redone
    assert version_on(a, table, key) == version_on(b, table, key) == "4"


def post_together(posts: list[tuple[AppServer, str, dict[str, str]]]) -> list[tuple[int, str]]:
    """Each post from its own thread, released at the same moment; their (status, page) in order."""
    answers: list = [None] * len(posts)
    together = threading.Barrier(len(posts), timeout=10)

    def send(i: int, server: AppServer, path: str, form: dict[str, str]) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
        try:
            conn.connect()  # connected first, so the posts leave as close together as they can
            together.wait()
            conn.request("POST", path, body=urlencode(form),
                         headers={"Content-Type": "application/x-www-form-urlencoded"})
            response = conn.getresponse()
            answers[i] = (response.status, response.read().decode())
        except BaseException as err:  # raised below, not lost in the thread
            answers[i] = err
        finally:
            conn.close()

    threads = [threading.Thread(target=send, args=(i, *post)) for i, post in enumerate(posts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    for answer in answers:
        if isinstance(answer, BaseException):
            raise answer
    return answers


def test_two_saves_of_one_hand_on_two_servers_give_one_save_and_one_conflict(servers):
    a, b = servers
    table, key = new_table(a)
    saved = []
    for i in range(6):
        version = str(i)
        forms = [hand(version, "Ann", "Ben", 1, note=f"A, hand {i + 1}"),
                 hand(version, "Cat", "Dan", 2, note=f"B, hand {i + 1}")]
        answers = post_together([(a, f"{table}/hands?key={key}", forms[0]), (b, f"{table}/hands?key={key}", forms[1])])
        assert sorted(status for status, _ in answers) == [303, 409], f"hand {i + 1}: {[s for s, _ in answers]}"
        winner = 0 if answers[0][0] == 303 else 1
        loser_page = answers[1 - winner][1]
        assert "Another phone changed this table" in loser_page
        assert BASE_VERSION.search(loser_page).group(1) == str(i + 1)
        saved.append(forms[winner]["note"])
    rounds = json.loads(b.send("GET", f"{table}/export.json")[2])["rounds"]
    assert [r["note"] for r in rounds] == saved  # one entry per 303, none lost, none doubled


def test_an_offline_save_sent_to_both_servers_is_stored_once(servers):
    a, b = servers
    table, key = new_table(a)
    form = hand("0", "Ann", "Ben", 2, entry_key="9f1c2a7e-58b1-4e7b-9d2e-0c6f0e3b1a55")
    answers = post_together([(a, f"{table}/hands?key={key}", form), (b, f"{table}/hands?key={key}", form)])
    assert [status for status, _ in answers] == [303, 303]  # the replay is answered as the save it repeats
    assert len(json.loads(a.send("GET", f"{table}/export.json")[2])["rounds"]) == 1
    assert version_on(b, table, key) == "1"


def test_a_seating_undone_on_one_server_is_gone_from_the_other_at_once(servers):
    a, b = servers
    status, headers, page = a.send("POST", "/tournaments/new", {
        "title": "Club night", "game": "indian-rummy", "entrants": "\n".join(ENTRANTS), "rounds": "3",
        "method": "round-robin", "table_min": "3", "table_max": "3"})
    assert status == 303, page[:500]
    tour, tkey = headers["Location"].split("?key=")
    assert b.send("POST", f"{tour}/rounds?key={tkey}", {"round": "1"})[0] == 303
    links = re.findall(r'href="(/t/[\w-]+)\?key=([\w-]+)">Round 1, table \d', a.send("GET", f"{tour}?key={tkey}")[2])
    assert len(links) == 3
    for table, key in links:  # each server reads (and caches) every table of the round
        for server in servers:
            assert server.send("GET", f"{table}?key={key}")[0] == 200
            assert server.send("GET", f"{table}/board")[0] == 200
    assert a.send("POST", f"{tour}/rounds/1/undo?key={tkey}")[0] == 303
    for table, key in links:
        for server in servers:
            status, _, page = server.send("GET", f"{table}?key={key}")
            assert status == 404 and "There is no table at this link" in page
            assert server.send("GET", f"{table}/board")[0] == 404
            assert server.send("GET", f"{table}/sheet.pdf")[0] == 404
            assert server.send("POST", f"{table}/hands?key={key}", {"base_version": "0"})[0] == 404


def test_one_phones_creations_are_counted_together_across_both_servers(servers):
    """CREATE_RATE counts the new-table form, imports, tournaments and rematches of one phone together,
    whichever server each reaches; another phone keeps its own count."""
    a, b = servers
    table, key = new_table(a, PHONE)  # 1
    exported = json.loads(b.send("GET", f"{table}/export.json")[2])
    tournament = {"title": "Club night", "game": "indian-rummy", "entrants": "\n".join(ENTRANTS), "rounds": "2",
                  "method": "round-robin", "table_min": "3", "table_max": "3"}
    creations = [
        (b, "/import", {"text": json.dumps(exported)}),  # 2
        (a, "/tournaments/new", tournament),  # 3
        (b, f"{table}/rematch?key={key}", {}),  # 4
        (a, "/new/rummathon-royale", {f"seat{i}": p for i, p in enumerate(PLAYERS, 1)}),  # 5
        (b, "/new/rummathon-royale", {f"seat{i}": p for i, p in enumerate(PLAYERS, 1)}),  # 6
        (a, f"{table}/rematch?key={key}", {}),  # 7
        (b, "/tournaments/new", tournament),  # 8
    ]
    for server, path, form in creations:
        status, _, page = server.send("POST", path, form, PHONE)
        assert status == 303, (path, page[:300])
    for server, path, form in creations[:4]:  # the ninth, whichever way and wherever, is one too many
        status, headers, page = server.send("POST", path, form, PHONE)
        assert status == 429, (path, status)
        assert "Wait a minute and try again" in page and headers["Retry-After"] == "60"
    assert new_table(b)[0]  # another phone (127.0.0.1) is not held back
    assert a.send("GET", f"{table}/board", source=PHONE)[0] == 200  # reading is never limited


def test_both_servers_answer_the_health_check(servers):
    for server in servers:
        status, headers, body = server.send("GET", "/healthz")
        assert status == 200 and headers["Cache-Control"] == "no-store"
        answer = json.loads(body)
        assert answer["status"] == "ok" and 0 <= answer["ms"] < 5000
        assert "postgresql" not in body and "courtier" not in body.lower()  # nothing about where the data is



def test_behind_a_trusted_proxy_each_phone_is_counted_by_its_own_address(make_app):
    """Behind a reverse proxy every request comes from the proxy; TRUSTED_PROXIES = 1 takes the phone's
    address from the proxy's X-Forwarded-For, so the limit holds one phone back and not the room."""
    app = make_app(WTF_CSRF_ENABLED=False, CREATE_RATE="2 per minute", TRUSTED_PROXIES=1)
    client = app.test_client()
    form = {f"seat{i}": p for i, p in enumerate(PLAYERS, 1)}

    def create(phone: str) -> int:
        return client.post("/new/rummathon-royale", data=form, headers={"X-Forwarded-For": phone},
                           environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code

    assert [create("203.0.113.7") for _ in range(3)] == [303, 303, 429]
    assert create("203.0.113.8") == 303  # another phone, through the same proxy


def test_the_limit_counts_creations_of_every_kind_together_in_the_database(make_app):
    """Two workers (two apps) on one database: a phone's new tables, imports, tournaments and rematches
    share one count, kept in the database (on SQLite as on PostgreSQL)."""
    first, second = (make_app(WTF_CSRF_ENABLED=False, CREATE_RATE="4 per minute") for _ in range(2))
    one, two = first.test_client(), second.test_client()
    made = one.post("/new/rummathon-royale", data={f"seat{i}": p for i, p in enumerate(PLAYERS, 1)})
    assert made.status_code == 303
    table = made.headers["Location"]
    exported = one.get(table.replace("?key=", "/export.json?key=")).get_json()
    assert two.post("/import", data={"text": json.dumps(exported)}).status_code == 303
    assert one.post("/tournaments/new", data={
        "title": "Club night", "game": "indian-rummy", "entrants": "\n".join(ENTRANTS), "rounds": "1",
        "method": "random", "table_min": "3", "table_max": "3"}).status_code == 303
    rematch = table.replace("?key=", "/rematch?key=")
    assert two.post(rematch).status_code == 303
    assert one.post(rematch).status_code == 429
    assert two.post("/import", data={"text": json.dumps(exported)}).status_code == 429
    with db.borrowed(first) as conn:
        assert conn.value("SELECT SUM(hits) FROM rate_counts") >= 4


def test_the_health_check_answers_200_and_503_when_the_database_is_gone(postgres):
    """For a load balancer: no key, nothing private, and a 503 (not a hang, not a 500) when the database goes."""
    url = postgres.create_database()
    app = create_app({"TESTING": True, "DATABASE": url, "SECRET_KEY": "x"})
    try:
        client = app.test_client()
        answer = client.get("/healthz")
        assert answer.status_code == 200 and answer.get_json()["status"] == "ok"
        assert set(answer.get_json()) == {"status", "database", "ms"} and "Set-Cookie" not in answer.headers
        postgres.drop_database(url)  # the database goes away under the running app
        gone = client.get("/healthz")
        assert gone.status_code == 503
        assert gone.get_json() == {"status": "unavailable", "database": "not answering"}
    finally:
        db.pool(app).close()
        postgres.drop_database(url)


def test_the_health_check_on_a_sqlite_file(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "h.sqlite"), "SECRET_KEY": "x"})
    answer = app.test_client().get("/healthz")
    assert answer.status_code == 200 and answer.get_json()["database"] == "answering"
    assert answer.headers["Cache-Control"] == "no-store"
