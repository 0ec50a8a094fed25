"""Crash safety: kill -9 the real server in the middle of a stream of entries, start it again on
the same database, and find every acknowledged entry there, in order, with the database intact.

An entry is acknowledged when its 303 reaches the phone, and it is committed (BEGIN IMMEDIATE,
synchronous FULL) before that 303 is sent. The one entry in flight at the kill may or may not
have been committed: it is allowed, once, at the end of its table, and nothing else is.
On PostgreSQL the app server commits before the 303 as well (the table's row locked, then
COMMIT), and the same is asked of it: a killed app server loses no acknowledged entry.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from contextlib import closing
from pathlib import Path
from urllib.parse import urlencode

import pytest

from companion import db

ROOT = Path(__file__).resolve().parent.parent
WAITRESS = Path(sys.executable).parent / "waitress-serve"
PLAYERS = ("Ann", "Ben", "Cat", "Dan")
BUDGET = 19.0  # seconds for the whole test, every wait included
START_TIMEOUT = 8.0  # the server imports the whole app before it listens
TABLES_PER_POSTER = 3
MAX_POSTS = 3 * 40  # per poster: at most 40 hands a table, well before a 4-player game ends (hand 45)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """waitress-serve on a free loopback port, as production runs it."""

    def __init__(self, database: Path | str, log: Path):
        self.database, self.log_path = database, log
        self.proc: subprocess.Popen | None = None
        self.port = 0

    def start(self, deadline: float) -> None:
        self.port = free_port()
        env = dict(os.environ, COURTIER_DATABASE=str(self.database), COURTIER_SECRET_KEY="crash-test",
                   COURTIER_WTF_CSRF_ENABLED="false")
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [str(WAITRESS), f"--listen=127.0.0.1:{self.port}", "--threads=8", "wsgi:app"],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"waitress-serve exited with status {self.proc.returncode}: {self.log_tail()}")
            try:
                status, _, _ = self.request("GET", "/", timeout=1)
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"waitress-serve did not answer in time: {self.log_tail()}")

    def request(self, method: str, path: str, form: dict[str, str] | None = None, timeout: float = 5):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            headers = {"Content-Type": "application/x-www-form-urlencoded"} if form is not None else {}
            conn.request(method, path, body=urlencode(form) if form is not None else None, headers=headers)
            response = conn.getresponse()
            return response.status, response.headers, response.read()
        finally:
            conn.close()

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, no atexit; whatever was not on disk is gone."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(timeout=5)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)

    def log_tail(self) -> str:
        return self.log_path.read_text(errors="replace")[-1500:]


class Table:
    def __init__(self, table_id: str, key: str):
        self.id, self.key = table_id, key
        self.acknowledged: list[dict] = []  # the hands whose 303 arrived, in order
        self.in_flight: dict | None = None  # the hand sent when the connection broke


class Poster(threading.Thread):
    """Posts hands to its own tables as fast as the server answers, until stopped or the server dies."""

    def __init__(self, name: str, server: Server, tables: list[Table], acked: threading.Condition,
                 count: list[int], stop: threading.Event, deadline: float):
        super().__init__(name=name, daemon=True)
        self.server, self.tables, self.acked, self.count = server, tables, acked, count
        self.stop, self.deadline = stop, deadline
        self.rng = random.Random(name)
        self.unexpected: list[str] = []

    def run(self) -> None:
        for n in range(MAX_POSTS):
            if self.stop.is_set() or time.monotonic() > self.deadline:
                return
            table = self.tables[n % len(self.tables)]
            number = len(table.acknowledged)
            out = number % len(PLAYERS)
            low, high = (out + 1) % len(PLAYERS), (out + 2) % len(PLAYERS)
            a, b = self.rng.randint(1, 9), self.rng.randint(1, 3)
            note = f"{self.name} hand {number + 1}"
            form = {"base_version": str(number), "out": PLAYERS[out], f"p{low}_low": str(a),
                    f"p{high}_high": str(b), "note": note}
            hand = {"out": PLAYERS[out], "left": {PLAYERS[low]: {"low": a}, PLAYERS[high]: {"high": b}},
                    "note": note}
            try:
                status, _, body = self.server.request("POST", f"/t/{table.id}/hands?key={table.key}", form)
            except (OSError, http.client.HTTPException):  # the server is gone: this hand may have been committed
                table.in_flight = hand
                return
            except Exception as err:  # anything else is a bug in the test: report it, never lose it
                self.unexpected.append(f"{type(err).__name__}: {err}")
                return
            if status != 303:
                self.unexpected.append(f"HTTP {status} for {note}: {body[:200]!r}")
                return
            table.acknowledged.append(hand)
            with self.acked:
                self.count[0] += 1
                self.acked.notify_all()


@pytest.fixture
def servers(tmp_path, database):
    """Make servers on one database (a SQLite file, or PostgreSQL); every one is stopped at the end,
    whatever happened."""
    made: list[Server] = []

    def make() -> Server:
        server = Server(database, tmp_path / "server.log")
        made.append(server)
        return server

    yield make
    for server in made:
        server.stop()


def test_a_killed_server_loses_no_acknowledged_entry(servers, database):
    if not WAITRESS.exists():
        pytest.skip(f"waitress-serve is not installed at {WAITRESS}; the crash test needs the real server")
    budget = time.monotonic() + BUDGET
    seed = random.randrange(2**32)
    kill_after = random.Random(seed).randint(20, 60)
    first = servers()
    try:
        first.start(min(budget, time.monotonic() + START_TIMEOUT))
    except RuntimeError as err:
        pytest.skip(f"waitress-serve cannot start here, so the crash test cannot run: {err}")

    def new_table() -> Table:
        status, headers, _ = first.request(
            "POST", "/new/rummathon-royale", {f"seat{i}": p for i, p in enumerate(PLAYERS, 1)})
        assert status == 303
        table_id, key = headers["Location"].removeprefix("/t/").split("?key=")
        return Table(table_id, key)

    tables = [new_table() for _ in range(2 * TABLES_PER_POSTER)]
    acked, count, stop = threading.Condition(), [0], threading.Event()
    stream_deadline = min(budget - 6, time.monotonic() + 6)
    posters = [Poster(f"poster {i + 1}", first, tables[i * TABLES_PER_POSTER:(i + 1) * TABLES_PER_POSTER],
                      acked, count, stop, stream_deadline) for i in range(2)]
    for poster in posters:
        poster.start()
    with acked:
        acked.wait_for(lambda: count[0] >= kill_after, timeout=max(0.0, stream_deadline - time.monotonic()))
    first.kill()  # mid-stream: both posters are still sending
    stop.set()
    for poster in posters:
        poster.join(timeout=5)
        assert not poster.is_alive()
        assert not poster.unexpected, poster.unexpected
    acknowledged = sum(len(t.acknowledged) for t in tables)
    assert acknowledged >= kill_after, f"seed {seed}: only {acknowledged} entries before the stream ran out of time"

    second = servers()
    second.start(budget)  # the same database, after a crash: this must work, not skip
    stored = 0
    for table in tables:
        status, _, body = second.request("GET", f"/t/{table.id}/export.json")
        assert status == 200
        rounds = json.loads(body)["rounds"]
        stored += len(rounds)
        kept = rounds[:len(table.acknowledged)]
        assert kept == table.acknowledged, f"seed {seed}: table {table.id} lost or changed an acknowledged hand"
        extra = rounds[len(table.acknowledged):]
        assert extra in ([], [table.in_flight]), f"seed {seed}: table {table.id} has hands nobody sent: {extra}"
    # The restarted server takes the next entry of a table at the version the log is at.
    table = tables[0]
    version = len(json.loads(second.request("GET", f"/t/{table.id}/export.json")[2])["rounds"])
    status, _, _ = second.request("POST", f"/t/{table.id}/hands?key={table.key}",
                                  {"base_version": str(version), "out": PLAYERS[version % 4]})
    assert status == 303
    second.stop()

    with closing(db.connect(database)) as conn:
        if conn.kind == "sqlite":
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.value("SELECT COUNT(*) FROM events") == stored + 1
