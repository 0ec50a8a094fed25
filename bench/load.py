"""Load: a busy evening's phones against Courtier served for real, on loopback.

    make load                                   # the stress evening, 60 s under waitress, 8 threads
    make load EVENING=club                      # an evening as a club plays it
    .venv/bin/python bench/load.py --evening club --tables 300   # an evening as a club plays it
    .venv/bin/python bench/load.py --seconds 20
    .venv/bin/python bench/load.py --server gunicorn   # when gunicorn is installed
    .venv/bin/python bench/load.py --database postgresql --servers 2   # a hosted Courtier
    .venv/bin/python bench/load.py --server gunicorn --stand-in  # the same evening, none of Courtier's work
    .venv/bin/python bench/load.py --target http://127.0.0.1:5000 --tables 10 --seconds 20  # a running site

Starts waitress-serve (or gunicorn) on a free 127.0.0.1 port with a database in a
temporary folder, creates 100 Rummathon Royale tables of 4 players, then for the
given time plays the evening: every phone refreshes its table's scoreboard every
2 s (a conditional GET, answered 304 when nothing changed; the page itself waits
3 s, so this is the harder case), and every ~10 s one
phone of each table enters a hand (opens the form, types for a moment, saves, and
loads the table page it is sent to). Now and then two phones enter the same hand
at once; the second is answered 409 and counts as a conflict, not an error.

Prints what was done, the throughput, p50/p99 latency overall and for board
polls and entry posts, the errors, and whether the targets hold: no errors and
p99 under 100 ms. Latency depends on the machine (the load runs on the same
cores as the server), so this prints figures and never fails on them. It exits
1 only when something went wrong: an error, or an acknowledged entry missing
from the database (2 when the server cannot start). It also prints the CPU the
server, the load and the rest of the machine used: figures taken while other
work ran are marked as disturbed.

Two evenings (--evening): the stress evening above (every phone always looking, a hand every
~10 s at every table), and a club evening as it is played: a hand every few minutes (~3, half as
much again or less), each phone looked at for half a minute or so after each hand and asleep
between (a sleeping phone asks nothing, as static/js/app.js does with the Page Visibility API), and
tables finishing after a game of 12 hands, a new one starting at that place a minute or two later.

With --stand-in it serves bench/stand_in.py in place of Courtier: the same answers, sizes and
conflicts from a few counters, so the figures are what the server, the network and the load
cost on their own, the floor under Courtier's.

With --target URL it starts nothing and plays the evening against a site already running (a
`make run`, or nginx in front of gunicorn) as phones would: each table's phones keep the session
cookie the site gives them and send the CSRF token of the form they opened. Its tables count against
the site's creation limit (CREATE_RATE, 30 a minute from one address by default), and the entries it
saved cannot be counted in a database it does not hold.
"""

from __future__ import annotations

import argparse
import contextlib
import heapq
import http.client
import importlib.util
import itertools
import os
import random
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PLAYERS = ("Ann", "Ben", "Cat", "Dan")
TARGET_P99_MS = 100.0
HANDS_PER_GAME = 40  # four players going out in turn finish all twelve rounds at hand 45
CLUB_HANDS_PER_GAME = 12  # the club evening: a table finishes after this many hands and another starts
#: Seconds between hands at a table, by evening, unless --hand-every says otherwise.
HAND_EVERY = {"stress": 10.0, "club": 180.0}
BASE_VERSION = re.compile(r'name="base_version"[^>]*value="(\d+)"')
CSRF_TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
REQUEST_TIMEOUT = 10.0
START_TIMEOUT = 30.0


# -- the server ---------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: Seconds an idle keep-alive connection stays open on the server: longer than a phone's poll interval,
#: so that a poll finds its connection still open (gunicorn's own default, 2 s, equals the poll and
#: closes connections just as the next poll is sent).
KEEP_ALIVE = 30
#: The load creates its tables faster than the venue's creation limit allows one phone (CREATE_RATE,
#: docs/ops.md): its own server, and only that one, gets this limit instead.
LOAD_CREATE_RATE = "100000 per minute"


#: What is served: Courtier, or the stand-in that does none of its work (bench/stand_in.py).
APPS = {False: "wsgi:app", True: "bench.stand_in:app"}


def server_command(kind: str, port: int, threads: int, workers: int, stand_in: bool = False) -> list[str]:
    if kind == "waitress":
        return [str(BIN / "waitress-serve"), f"--listen=127.0.0.1:{port}", f"--threads={threads}",
                f"--channel-timeout={KEEP_ALIVE}", APPS[stand_in]]
    return [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
            "--threads", str(threads), "--keep-alive", str(KEEP_ALIVE), "--preload", APPS[stand_in]]


def installed(command: list[str]) -> bool:
    if command[0] == sys.executable:
        return importlib.util.find_spec(command[2]) is not None
    return shutil.which(command[0]) is not None


def start_server(command: list[str], database: str, log) -> subprocess.Popen:
    env = dict(os.environ, COURTIER_DATABASE=str(database), COURTIER_SECRET_KEY="load-bench",
               COURTIER_WTF_CSRF_ENABLED="false", COURTIER_CREATE_RATE=LOAD_CREATE_RATE, MALLOC_ARENA_MAX="2")
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def wait_ready(proc: subprocess.Popen, port: int) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with status {proc.returncode}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            try:
                conn.request("GET", "/")
                if conn.getresponse().status == 200:
                    return
            finally:
                conn.close()
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the server did not answer within {START_TIMEOUT:.0f} s")


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU a process and its children (gunicorn's workers) have used so far
    (Linux /proc; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    used = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    for child in _children(pid):
        used += cpu_seconds(child) or 0.0
    return used


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError, ValueError):  # a thread gone, or no such file here
            found += [int(c) for c in (task / "children").read_text().split()]
    return found


def machine_busy_seconds() -> float | None:
    """CPU time all processes on the machine have used so far, summed over cores (Linux /proc/stat)."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()
    except (OSError, IndexError):
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in fields[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


# -- the client ---------------------------------------------------------------------------------

@dataclass
class Response:
    status: int
    headers: http.client.HTTPMessage
    body: bytes


class Client:
    """One keep-alive connection per worker thread, all closed at the end."""

    def __init__(self, port: int, host: str = "127.0.0.1", tls: bool = False):
        self.port, self.host, self.tls = port, host, tls
        self.local = threading.local()
        self.lock = threading.Lock()
        self.connections: list[http.client.HTTPConnection] = []
        self.retried = 0  # GETs sent again after the server closed an idle connection

    def _connection(self) -> http.client.HTTPConnection:
        conn = getattr(self.local, "conn", None)
        if conn is None:
            kind = http.client.HTTPSConnection if self.tls else http.client.HTTPConnection
            conn = kind(self.host, self.port, timeout=REQUEST_TIMEOUT)
            self.local.conn = conn
            with self.lock:
                self.connections.append(conn)
        return conn

    def request(self, method: str, path: str, body: dict[str, str] | None = None,
                headers: dict[str, str] | None = None) -> Response:
        """One request on this thread's keep-alive connection. As a browser does, an idempotent GET sent on
        a reused connection that the server had closed meanwhile is sent again, once, on a new one."""
        reused = getattr(self.local, "conn", None) is not None
        try:
            return self._send(method, path, body, headers)
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            if method != "GET" or not reused:
                raise
            with self.lock:
                self.retried += 1
            return self._send(method, path, body, headers)

    def _send(self, method: str, path: str, body: dict[str, str] | None,
              headers: dict[str, str] | None) -> Response:
        conn = self._connection()
        headers = dict(headers or {})
        data = None
        if body is not None:
            data = urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            payload = response.read()
        except BaseException:
            conn.close()
            self.local.conn = None
            raise
        if response.will_close:
            conn.close()
            self.local.conn = None
        return Response(response.status, response.headers, payload)

    def close(self) -> None:
        with self.lock:
            for conn in self.connections:
                conn.close()


def site_client(target: str) -> Client:
    """The client of a running site, from its address (http://host:port or https://...)."""
    parts = urlsplit(target)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"--target takes an http:// or https:// address, not {target!r}")
    tls = parts.scheme == "https"
    return Client(parts.port or (443 if tls else 80), parts.hostname, tls)


def with_cookie(headers: dict[str, str] | None, cookie: str) -> dict[str, str] | None:
    return {**(headers or {}), "Cookie": cookie} if cookie else headers


def kept_cookie(response: Response, cookie: str) -> str:
    """The session cookie a phone keeps: the one the site just set, else the one it had."""
    given = response.headers.get("Set-Cookie")
    return given.split(";", 1)[0] if given else cookie


# -- what happened --------------------------------------------------------------------------------

class Record:
    def __init__(self):
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)  # category -> ms
        self.statuses: dict[str, Counter] = defaultdict(Counter)
        self.errors: list[str] = []
        self.lag: list[float] = []  # ms between when a request was due and when it was sent
        self.acknowledged = 0
        self.conflicts = 0
        self.cpu: tuple[float | None, float, float | None] = (None, 0.0, None)  # seconds: server, load, machine
        self.retried = 0  # board polls sent again on a new connection
        self.started = 0  # tables started during the evening (the club evening)

    def add(self, category: str, ms: float, status: int) -> None:
        with self.lock:
            self.latency[category].append(ms)
            self.statuses[category][status] += 1

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


def percentile(values: list[float], p: float) -> float:
    """Nearest rank: the smallest value with at least p% of the values at or below it."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


# -- the evening --------------------------------------------------------------------------------

@dataclass
class Table:
    id: str
    key: str
    client: Client  # the server its phones talk to (one of several behind a balancer)
    hands: int = 0  # hands acknowledged
    etags: list[str | None] = field(default_factory=lambda: [None] * len(PLAYERS))
    # The club evening: until when each phone is looked at, whether its refresh is running, the game over.
    awake_until: list[float] = field(default_factory=lambda: [0.0] * len(PLAYERS))
    polling: list[bool] = field(default_factory=lambda: [False] * len(PLAYERS))
    done: bool = False
    # Each phone's session cookie, which its CSRF tokens belong to (a running site's: --target).
    cookies: list[str] = field(default_factory=lambda: [""] * len(PLAYERS))


@dataclass
class Made:
    status: int
    table: Table | None


def create_table(client: Client, with_form: bool) -> Made:
    """A new table as the home page's form makes one; on a running site (``with_form``), the form is fetched
    first, for its CSRF token and the session cookie the token belongs to."""
    seats = {f"seat{i}": name for i, name in enumerate(PLAYERS, 1)}
    cookie = ""
    if with_form:
        form = client.request("GET", "/new/rummathon-royale")
        cookie = kept_cookie(form, "")
        token = CSRF_TOKEN.search(form.body.decode())
        if token:
            seats["csrf_token"] = token.group(1)
    made = client.request("POST", "/new/rummathon-royale", body=seats, headers=with_cookie(None, cookie))
    if made.status != 303:
        return Made(made.status, None)
    table_id, key = made.headers["Location"].removeprefix("/t/").split("?key=")
    cookies = [kept_cookie(made, cookie)] + [""] * (len(PLAYERS) - 1)  # the phone that made it, and the others
    return Made(made.status, Table(table_id, key, client, cookies=cookies))


class Evening:
    def __init__(self, record: Record, args: argparse.Namespace, rng: random.Random):
        self.record, self.args, self.rng = record, args, rng
        self.heap: list[tuple[float, int, Callable[[float], None]]] = []
        self.order = itertools.count()
        self.lock = threading.Condition()
        self.end = 0.0
        self.club = args.evening == "club"

    def at(self, due: float, task: Callable[[float], None]) -> None:
        with self.lock:
            heapq.heappush(self.heap, (due, next(self.order), task))
            self.lock.notify()

    def timed(self, table: Table, category: str, method: str, path: str, headers: dict[str, str] | None = None,
              phone: int = 0, cookie: str | None = None, **kwargs) -> Response | None:
        """One request of a phone, with its session cookie (or ``cookie``: the one its form came with)."""
        sent = table.cookies[phone] if cookie is None else cookie
        start = time.perf_counter()
        try:
            response = table.client.request(method, path, headers=with_cookie(headers, sent), **kwargs)
        except Exception as err:  # a refused or reset connection, a timeout: all errors
            self.record.error(f"{category} {method} {path.split('?')[0]}: {type(err).__name__}: {err}")
            return None
        self.record.add(category, (time.perf_counter() - start) * 1000, response.status)
        if cookie is not None or table.cookies[phone] == sent:  # not an older request's, answered late
            table.cookies[phone] = kept_cookie(response, sent)
        return response

    def expect(self, category: str, path: str, response: Response | None, statuses: tuple[int, ...]) -> bool:
        if response is None:
            return False
        if response.status not in statuses:
            self.record.error(f"{category} {path.split('?')[0]}: HTTP {response.status}")
            return False
        return True

    # A phone's scoreboard refresh, every poll interval (static/js/app.js asks every 2 s while play goes
    # on). In the club evening, only while the phone is looked at: asleep, it asks nothing.
    def poll(self, table: Table, phone: int) -> Callable[[float], None]:
        def task(due: float) -> None:
            if self.club and (table.done or due > table.awake_until[phone]):
                table.polling[phone] = False
                return
            self.at(due + self.args.poll, self.poll(table, phone))
            path = f"/t/{table.id}/board?key={table.key}"
            etag = table.etags[phone]
            response = self.timed(table, "board", "GET", path, headers={"If-None-Match": etag} if etag else None,
                                  phone=phone)
            if self.expect("board", path, response, (200, 304)):
                table.etags[phone] = response.headers.get("ETag") or etag
        return task

    def wake(self, table: Table, phone: int, now: float, seconds: float) -> None:
        """A phone looked at for ``seconds``: seen again, it asks for the board at once, then every poll."""
        table.awake_until[phone] = max(table.awake_until[phone], now + seconds)
        if not table.polling[phone]:
            table.polling[phone] = True
            self.at(now, self.poll(table, phone))

    # One hand entered at a table: sometimes by two phones at once.
    def hand_due(self, table: Table) -> Callable[[float], None]:
        def task(due: float) -> None:
            if table.done:
                return
            spread = 0.5 if self.club else 0.2
            jitter = self.rng.uniform(-spread, spread) * self.args.hand_every
            self.at(due + self.args.hand_every + jitter, self.hand_due(table))
            phones = self.rng.sample(range(len(PLAYERS)), 2 if self.rng.random() < self.args.clash else 1)
            for phone in phones:
                self.open_form(table, phone)
        return task

    def open_form(self, table: Table, phone: int) -> None:
        if self.club:
            self.wake(table, phone, time.monotonic(), 60.0)  # the phone that enters the hand is looked at
        correcting = table.hands >= HANDS_PER_GAME  # late in a long run: correct hand 1, keep the game open
        path = f"/t/{table.id}/hands/1/edit?key={table.key}" if correcting else \
            f"/t/{table.id}/hands/new?key={table.key}"
        sent = table.cookies[phone]
        response = self.timed(table, "page", "GET", path, phone=phone)
        if not self.expect("page", path, response, (200,)):
            return
        form_cookie = kept_cookie(response, sent)  # the session the form's CSRF token belongs to
        found = BASE_VERSION.search(response.body.decode())
        if not found:
            self.record.error(f"page {path.split('?')[0]}: no base_version in the form")
            return
        number = 0 if correcting else table.hands
        out = PLAYERS[number % len(PLAYERS)]
        fields = {"base_version": found.group(1), "out": out, "note": f"phone {phone + 1}"}
        token = CSRF_TOKEN.search(response.body.decode())
        if token:  # a site with CSRF on (a running one): the form's token goes back with it
            fields["csrf_token"] = token.group(1)
        for seat in range(len(PLAYERS)):
            if PLAYERS[seat] != out:
                fields[f"p{seat}_low"] = str(self.rng.randint(0, 6))
                fields[f"p{seat}_high"] = str(self.rng.randint(0, 2))
        target = f"/t/{table.id}/hands/1?key={table.key}" if correcting else f"/t/{table.id}/hands?key={table.key}"
        typing = self.rng.uniform(0.5, 2.0)
        self.at(time.monotonic() + typing, lambda due: self.save(table, phone, target, fields, form_cookie))

    def save(self, table: Table, phone: int, path: str, fields: dict[str, str], cookie: str) -> None:
        response = self.timed(table, "entry", "POST", path, body=fields, phone=phone, cookie=cookie)
        if response is not None and response.status == 409:
            with self.record.lock:
                self.record.conflicts += 1  # the other phone saved first; this one sees it and stops
            return
        if not self.expect("entry", path, response, (303,)):
            return
        with self.record.lock:
            self.record.acknowledged += 1
            table.hands += 1
        location = response.headers["Location"].split("#")[0]
        self.expect("page", location, self.timed(table, "page", "GET", location, phone=phone), (200,))
        if self.club:
            self.after_club_hand(table)

    def after_club_hand(self, table: Table) -> None:
        """The players look at the scores for a while; after the game's last hand the table finishes and
        a new one starts at that place a minute or two later."""
        now = time.monotonic()
        for phone in range(len(PLAYERS)):
            if self.rng.random() < 0.75:
                self.wake(table, phone, now, self.rng.uniform(20, 60))
        if table.hands >= CLUB_HANDS_PER_GAME and not table.done:
            table.done = True
            self.at(now + self.rng.uniform(60, 120), lambda due: self.new_table(table.client))

    def new_table(self, client: Client) -> None:
        made = self.timed_create(client)
        if made is None:
            return
        with self.record.lock:
            self.record.started += 1
        self.seat(made, time.monotonic())

    def timed_create(self, client: Client) -> Table | None:
        start = time.perf_counter()
        try:
            made = create_table(client, bool(self.args.target))
        except Exception as err:
            self.record.error(f"page POST /new/rummathon-royale: {type(err).__name__}: {err}")
            return None
        self.record.add("page", (time.perf_counter() - start) * 1000, made.status)
        if made.status != 303:
            self.record.error(f"page POST /new/rummathon-royale: HTTP {made.status}")
            return None
        return made.table

    def seat(self, table: Table, start: float) -> None:
        """A table's phones as the players sit down: each looking at the table, the first hand to come."""
        for phone in range(len(PLAYERS)):
            if self.club:
                table.awake_until[phone] = start + self.rng.uniform(20, 60)
            table.polling[phone] = True
            self.at(start + self.rng.uniform(0, self.args.poll), self.poll(table, phone))
        self.at(start + self.rng.uniform(0, self.args.hand_every), self.hand_due(table))

    def run(self, tables: list[Table]) -> float:
        start = time.monotonic()
        self.end = start + self.args.seconds
        for table in tables:
            if self.club:  # an evening under way: tables at every stage of their game
                table.hands = self.rng.randrange(CLUB_HANDS_PER_GAME)
            self.seat(table, start)
        slots = threading.BoundedSemaphore(self.args.workers)

        def work(task: Callable[[float], None], due: float) -> None:
            try:
                with self.record.lock:
                    self.record.lag.append((time.monotonic() - due) * 1000)
                task(due)
            except Exception as err:  # a bug in the load itself must show, not vanish in a thread
                self.record.error(f"load task: {type(err).__name__}: {err}")
            finally:
                slots.release()

        with ThreadPoolExecutor(max_workers=self.args.workers) as pool:
            while True:
                with self.lock:
                    now = time.monotonic()
                    if now >= self.end:
                        break
                    if not self.heap or self.heap[0][0] > now:
                        wait = (self.heap[0][0] - now) if self.heap else 0.05
                        self.lock.wait(timeout=min(wait, 0.05, self.end - now))
                        continue
                    due, _, task = heapq.heappop(self.heap)
                slots.acquire()  # bounded: at most `workers` requests in flight
                pool.submit(work, task, due)
        return time.monotonic() - start  # the pool has drained: requests in flight are done


# -- report ---------------------------------------------------------------------------------------

@dataclass
class Outcome:
    """What one evening gave: its record, how long it ran, the entries the database holds at the end
    (None when they could not be counted) and waitress's full-queue warnings."""
    record: Record
    elapsed: float
    stored: int | None
    queue_warnings: int = 0

    def p99(self) -> dict[str, float]:
        """p99 in ms of every request, of the board polls and of the entry posts."""
        everything = [ms for values in self.record.latency.values() for ms in values]
        return {"all": percentile(everything, 99), "board polls": percentile(self.record.latency.get("board", []), 99),
                "entry posts": percentile(self.record.latency.get("entry", []), 99)}

    @property
    def lost(self) -> bool:
        return self.stored is not None and self.stored != self.record.acknowledged

    def holds(self) -> bool:
        """The targets: no errors, no acknowledged entry missing, p99 under 100 ms for all three."""
        return not self.record.errors and not self.lost and all(v <= TARGET_P99_MS for v in self.p99().values())


def report(outcome: Outcome, args: argparse.Namespace) -> bool:
    """Print what the evening gave; True when nothing went wrong (the targets aside)."""
    record, elapsed, stored = outcome.record, outcome.elapsed, outcome.stored
    everything = [ms for values in record.latency.values() for ms in values]
    total = len(everything)
    print(f"requests: {total} in {elapsed:.1f} s = {total / elapsed:.1f} req/s "
          f"(hands entered: {record.acknowledged}, conflicts answered 409: {record.conflicts}"
          + (f", tables started: {record.started})" if args.evening == "club" else ")"))
    print(f"{'':14}{'count':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}   statuses")
    rows = [("all", everything, sum(record.statuses.values(), Counter()))]
    names = {"board": "board polls", "entry": "entry posts", "page": "pages"}
    for category in ("board", "entry", "page"):
        rows.append((names[category], record.latency.get(category, []), record.statuses.get(category, Counter())))
    for name, values, statuses in rows:
        shown = ", ".join(f"{code}: {n}" for code, n in sorted(statuses.items()))
        print(f"{name:14}{len(values):>8}{percentile(values, 50):>9.1f}{percentile(values, 99):>9.1f}"
              f"{max(values, default=float('nan')):>9.1f}   {shown}")
    print(f"load generator: start lag p99 {percentile(record.lag, 99):.1f} ms (how late requests left the client: "
          f"late when all {args.workers} slots were waiting on the server, or the client was short of CPU)")
    server_cpu, client_cpu, machine = record.cpu
    if server_cpu is not None:
        print(f"CPU during the run: server{'s and database' if args.servers > 1 or args.database != 'sqlite' else ''} "
              f"{server_cpu:.1f} s ({server_cpu / elapsed:.0%} of one core), "
              f"load generator {client_cpu:.1f} s ({client_cpu / elapsed:.0%} of one core)")
    if server_cpu is not None and machine is not None:
        other = max(0.0, machine - server_cpu - client_cpu)
        print(f"other work on the machine: {other:.1f} s ({other / elapsed:.0%} of one core)"
              + ("  <-- the figures are disturbed: measure again on a quiet machine"
                 if other / elapsed > 0.10 else ""))
    if outcome.queue_warnings:
        print(f"server: waitress reported a task queue {outcome.queue_warnings} times (all its threads were busy)")
    print(f"errors: {len(record.errors)}")
    for line in Counter(record.errors).most_common(10):
        print(f"  {line[1]} x {line[0]}")
    if stored is not None:
        print(f"entries acknowledged: {record.acknowledged}; entries in the database: {stored}"
              + ("" if not outcome.lost else "  <-- MISMATCH"))
    print("targets (no errors; p99 under 100 ms overall, for board polls, for entry posts): "
          + ("hold" if outcome.holds() else "missed")
          + f"  [no errors: {'yes' if not record.errors else 'no'}; "
          + "; ".join(f"{name} p99 {ms:.1f} ms: {'yes' if ms <= TARGET_P99_MS else 'no'}"
                      for name, ms in outcome.p99().items()) + "]")
    return not record.errors and not outcome.lost


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the evening lasts (default 60)")
    parser.add_argument("--tables", type=int, default=100, help="tables of 4 players (default 100)")
    parser.add_argument("--poll", type=float, default=2.0, help="seconds between a phone's board refreshes")
    parser.add_argument("--evening", choices=("stress", "club"), default="stress",
                        help="stress: every phone always looking, a hand every ~10 s at every table (default); "
                             "club: a hand every ~3 minutes, phones asleep between, tables finishing and starting")
    parser.add_argument("--hand-every", type=float, default=None,
                        help="seconds between hands at a table (default 10 in the stress evening, 180 in the club's)")
    parser.add_argument("--clash", type=float, default=0.05,
                        help="share of hands two phones enter at once (default 0.05)")
    parser.add_argument("--workers", type=int, default=64, help="requests in flight at most (default 64)")
    parser.add_argument("--server", choices=("waitress", "gunicorn"), default="waitress")
    parser.add_argument("--threads", type=int, default=8, help="server threads (per gunicorn worker)")
    parser.add_argument("--gunicorn-workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite",
                        help="a SQLite file (default), or a throwaway PostgreSQL (tests/throwaway_postgres.py)")
    parser.add_argument("--servers", type=int, default=1,
                        help="servers sharing the database, each table's phones on one of them (default 1)")
    parser.add_argument("--stand-in", action="store_true",
                        help="serve bench/stand_in.py, which does none of Courtier's work, in place of Courtier: "
                             "what the server, the network and the load cost on their own")
    parser.add_argument("--target", metavar="URL",
                        help="a site already running (http://127.0.0.1:5000): the evening is played against it, "
                             "CSRF tokens and session cookies as the phones send them; nothing is started")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.target:
        if args.stand_in or args.database != "sqlite" or args.servers != 1 or args.server != "waitress":
            parser.error("--target plays against a site already running: it starts no --server, --database, "
                         "--servers or --stand-in")
        try:
            site_client(args.target)
        except ValueError as err:
            parser.error(str(err))
    if not 0 < args.seconds <= 3600 or not 0 < args.tables <= 1000 or not 0 < args.workers <= 512 \
            or not 0 < args.servers <= 8:
        parser.error("--seconds 0-3600, --tables 1-1000, --workers 1-512, --servers 1-8")
    if args.hand_every is None:
        args.hand_every = HAND_EVERY[args.evening]
    if args.stand_in and args.database != "sqlite":
        parser.error("--stand-in keeps its few counters in memory: it takes no --database")
    return args


@contextlib.contextmanager
def shared_database(kind: str, folder: Path):
    """Where the servers keep their data (a file's path or PostgreSQL's URL), how to count the entries
    it holds at the end, and the database server's own processes (PostgreSQL's CPU counts as the servers')."""
    if kind == "sqlite":
        path = folder / "load.sqlite"

        def count_sqlite() -> int:
            with contextlib.closing(sqlite3.connect(path)) as conn:
                return conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        yield str(path), count_sqlite, []
        return
    sys.path.insert(0, str(ROOT))
    from tests.throwaway_postgres import ThrowawayPostgres

    server = ThrowawayPostgres().start()
    try:
        url = server.create_database()

        def count_postgres() -> int:
            import psycopg

            with psycopg.connect(url) as conn:
                return conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
        yield url, count_postgres, [postmaster]
    finally:
        server.stop()


@dataclass
class Server:
    proc: subprocess.Popen
    port: int
    log: Path


def start_servers(args: argparse.Namespace, database: str, folder: Path) -> list[Server]:
    """``--servers`` servers on the one database; raises RuntimeError (with the log) when one will not start."""
    servers = []
    for n in range(args.servers):
        port, log = free_port(), folder / f"server-{n + 1}.log"
        command = server_command(args.server, port, args.threads, args.gunicorn_workers, args.stand_in)
        with open(log, "wb") as out:
            servers.append(Server(start_server(command, database, out), port, log))
    for server in servers:
        try:
            wait_ready(server.proc, server.port)
        except RuntimeError as err:
            raise RuntimeError(f"{err}\n{server.log.read_text(errors='replace')[-2000:]}") from err
    return servers


def create_tables(args: argparse.Namespace, clients: list[Client]) -> list[Table]:
    """The evening's tables, dealt round the servers as a balancer would; RuntimeError if one is refused."""
    setup = time.monotonic()
    tables = []
    for n in range(args.tables):
        made = create_table(clients[n % len(clients)], bool(args.target))
        if made.status == 429:
            raise RuntimeError(f"table {n + 1} was refused by the site's creation limit (CREATE_RATE): fewer "
                               "--tables, or a higher limit on the site for the run")
        if made.table is None:
            raise RuntimeError(f"cannot create a table: HTTP {made.status}")
        tables.append(made.table)
    print(f"setup: {args.tables} tables created in {time.monotonic() - setup:.1f} s")
    return tables


def play(args: argparse.Namespace, tables: list[Table], pids: list[int],
         rng: random.Random) -> tuple[Record, float]:
    """The evening itself, with the CPU the servers (and database), the load and the rest of the machine used."""
    record = Record()

    def servers_cpu() -> float | None:
        if not pids:  # a site running elsewhere: its CPU is not ours to read
            return None
        used = [cpu_seconds(pid) for pid in pids]
        return None if None in used else sum(used)
    server_cpu, client_cpu, machine = servers_cpu(), time.process_time(), machine_busy_seconds()
    elapsed = Evening(record, args, rng).run(tables)
    after, machine_after = servers_cpu(), machine_busy_seconds()
    record.cpu = (None if server_cpu is None or after is None else after - server_cpu,
                  time.process_time() - client_cpu,
                  None if machine is None or machine_after is None else machine_after - machine)
    return record, elapsed


def describe(args: argparse.Namespace) -> str:
    if args.target:
        served = f"the site running at {args.target}"
        return (f"the {args.evening} evening against {served}; {args.tables} tables x {len(PLAYERS)} phones; "
                f"a hand every ~{args.hand_every:g} s per table; {args.workers} requests in flight at most; "
                f"{args.seconds:g} s")
    served = f"{args.server}" + (f" ({args.gunicorn_workers} workers)" if args.server == "gunicorn" else "") \
        + f", {args.threads} threads" + (f", {args.servers} servers" if args.servers > 1 else "")
    if args.stand_in:
        served = f"the stand-in that does none of Courtier's work (bench/stand_in.py), under {served}"
    else:
        served += f", on {'PostgreSQL' if args.database == 'postgresql' else 'a SQLite file'}"
    phones = (f"board every {args.poll:g} s" if args.evening == "stress" else
              f"board every {args.poll:g} s while a phone is looked at, after each hand; asleep between")
    return (f"the {args.evening} evening: {served}; {args.tables} tables x {len(PLAYERS)} phones; {phones}; "
            f"a hand every ~{args.hand_every:g} s per table; {args.workers} requests in flight at most; "
            f"{args.seconds:g} s; {os.cpu_count()} CPUs shared by servers, database and load")


def evening_at(args: argparse.Namespace) -> Outcome:
    """The evening against the running site at ``--target``: nothing started, nothing counted in its database."""
    client = site_client(args.target)
    try:
        tables = create_tables(args, [client])
        record, elapsed = play(args, tables, [], random.Random(args.seed))
    except OSError as err:
        raise RuntimeError(f"{args.target} does not answer: {err}") from err
    finally:
        client.close()
    record.retried = client.retried
    return Outcome(record, elapsed, None)


def evening(args: argparse.Namespace) -> Outcome:
    """Start the servers (and the database), create the tables, play the evening, stop everything.

    Raises RuntimeError when a server will not start."""
    if args.target:
        return evening_at(args)
    with tempfile.TemporaryDirectory(prefix="courtier-load-") as tmp, \
            shared_database(args.database, Path(tmp)) as (database, count_entries, database_pids):
        servers: list[Server] = []
        clients: list[Client] = []
        try:
            servers = start_servers(args, database, Path(tmp))
            clients = [Client(s.port) for s in servers]
            tables = create_tables(args, clients)
            record, elapsed = play(args, tables, [s.proc.pid for s in servers] + database_pids,
                                   random.Random(args.seed))
        finally:
            for client in clients:
                client.close()
            for server in servers:
                stop_server(server.proc)
        record.retried = sum(c.retried for c in clients)
        queue_warnings = sum(s.log.read_text(errors="replace").count("Task queue depth") for s in servers)
        return Outcome(record, elapsed, None if args.stand_in else count_entries(), queue_warnings)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if not args.target and not installed(server_command(args.server, 0, args.threads, args.gunicorn_workers)):
        print(f"{args.server} is not installed; `pip install {args.server}` to load it under {args.server}.")
        return 2
    print(f"Courtier load: {describe(args)}")
    print(f"machine load average at the start: {' / '.join(f'{v:.2f}' for v in os.getloadavg())} (1 / 5 / 15 min)")
    try:
        outcome = evening(args)
    except RuntimeError as err:
        print(f"cannot start the evening: {err}")
        return 2
    print(f"machine load average at the end: {' / '.join(f'{v:.2f}' for v in os.getloadavg())} (1 / 5 / 15 min)")
    if outcome.record.retried:
        print(f"board polls sent again on a new connection (the server had closed an idle one): "
              f"{outcome.record.retried}")
    ok = report(outcome, args)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
