"""Crash safety: kill -9 the real server in the middle of a stream of entries, start it again on
the same database, and find every acknowledged entry there, in order, with the database intact;
five times over, each burst going on from what the last restart found.

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

from companion.storage import db

ROOT = Path(__file__).resolve().parent.parent
WAITRESS = Path(sys.executable).parent / "waitress-serve"
PLAYERS = ("Ann", "Ben", "Cat", "Dan")
BUDGET = 19.0  # seconds for a server to start again after a kill
KILLS = 5
STREAM_SECONDS = 6.0  # for each burst to reach its kill
START_TIMEOUT = 60.0  # the server imports the whole app before it listens: a loaded machine takes long
TABLES_PER_POSTER = 3
MAX_POSTS = 3 * 40  # per poster and burst
# Five bursts of at most 30 acknowledged hands (and a few more before the kill lands) over six tables
# keep each table well before a 4-player game ends (hand 45).


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
        self.answering(deadline)

    def answering(self, deadline: float, path: str = "/") -> None:
        """Wait until the server just started answers ``path``, or say why it did not by ``deadline``."""
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with status {self.proc.returncode}: {self.log_tail()}")
            try:
                status, _, _ = self.request("GET", path, timeout=1)
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"the server did not answer in time: {self.log_tail()}")

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


def test_a_server_killed_five_times_loses_no_acknowledged_entry(servers, database):
    if not WAITRESS.exists():
        pytest.skip(f"waitress-serve is not installed at {WAITRESS}; the crash test needs the real server")
    seed = random.randrange(2**32)
    draw = random.Random(seed)
    first = servers()
    try:
        first.start(time.monotonic() + START_TIMEOUT)
    except RuntimeError as err:
        pytest.skip(f"waitress-serve cannot start here, so the crash test cannot run: {err}")
    tables = [new_table(first) for _ in range(2 * TABLES_PER_POSTER)]
    server = first
    for kill in range(1, KILLS + 1):
        burst_then_kill(server, tables, draw.randint(12, 30), f"seed {seed}, kill {kill}")
        server = servers()
        server.start(time.monotonic() + BUDGET)  # the same database, after a crash: this must work, not skip
        stored = every_acknowledged_entry_is_there(server, tables, f"seed {seed}, kill {kill}")
    # The restarted server takes the next entry of a table at the version the log is at.
    table = tables[0]
    status, _, _ = server.request("POST", f"/t/{table.id}/hands?key={table.key}",
                                  {"base_version": str(len(table.acknowledged)),
                                   "out": PLAYERS[len(table.acknowledged) % 4]})
    assert status == 303
    server.stop()

    with closing(db.connect(database)) as conn:
        if conn.kind == "sqlite":
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.value("SELECT COUNT(*) FROM events") == stored + 1


def new_table(server: Server) -> Table:
    status, headers, _ = server.request(
        "POST", "/new/rummathon-royale", {f"seat{i}": p for i, p in enumerate(PLAYERS, 1)})
    assert status == 303
    table_id, key = headers["Location"].removeprefix("/t/").split("?key=")
    return Table(table_id, key)


def burst_then_kill(server: Server, tables: list[Table], kill_after: int, which: str) -> None:
    """Two phones post hands as fast as the server answers; kill -9 after ``kill_after`` were acknowledged."""
    acked, count, stop = threading.Condition(), [0], threading.Event()
    stream_deadline = time.monotonic() + STREAM_SECONDS
    posters = [Poster(f"poster {i + 1}", server, tables[i * TABLES_PER_POSTER:(i + 1) * TABLES_PER_POSTER],
                      acked, count, stop, stream_deadline) for i in range(2)]
    for poster in posters:
        poster.start()
    with acked:
        acked.wait_for(lambda: count[0] >= kill_after, timeout=max(0.0, stream_deadline - time.monotonic()))
    server.kill()  # mid-stream: both posters are still sending
    stop.set()
    for poster in posters:
        poster.join(timeout=5)
        assert not poster.is_alive()
        assert not poster.unexpected, poster.unexpected
    assert count[0] >= kill_after, f"{which}: only {count[0]} entries before the stream ran out of time"


def every_acknowledged_entry_is_there(server: Server, tables: list[Table], which: str) -> int:
    """Every acknowledged hand stored, in order, and nothing else but the one in flight at the kill;
    each table then goes on from what is stored. Returns how many hands are stored in all."""
    stored = 0
    for table in tables:
        status, _, body = server.request("GET", f"/t/{table.id}/export.json")
        assert status == 200
        rounds = json.loads(body)["rounds"]
        stored += len(rounds)
        kept = rounds[:len(table.acknowledged)]
        assert kept == table.acknowledged, f"{which}: table {table.id} lost or changed an acknowledged hand"
        extra = rounds[len(table.acknowledged):]
        assert extra in ([], [table.in_flight]), f"{which}: table {table.id} has hands nobody sent: {extra}"
        table.acknowledged, table.in_flight = rounds, None
    return stored
