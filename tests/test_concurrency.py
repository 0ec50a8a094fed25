"""Two phones save the same hand at the same moment, fifty times, against a live threaded server.

Each time both open the form at the same version and post together. Exactly one is saved
(303); the other is answered 409 with what it typed still in the form. Nothing is lost or
doubled: the log holds one entry per 303, and the totals are what the saved hands say.
"""

from __future__ import annotations

import http.client
import json
import re
import threading
from contextlib import closing
from urllib.parse import urlencode

import pytest
from werkzeug.serving import make_server

from companion import create_app
from companion.games import score
from companion.storage import db

PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")  # six players going out in turn: no game ends in 50 hands
ITERATIONS = 50
POINTS = {"low": 5, "high": 10}  # RR-1: what the player who went out collects per card left
BASE_VERSION = re.compile(r'name="base_version"[^>]*value="(\d+)"')


@pytest.fixture
def server(database):
    """The app on a free loopback port, each request in its own thread, on the test's database
    (a SQLite file, or PostgreSQL); stopped at the end."""
    app = create_app({"DATABASE": database, "SECRET_KEY": "race-secret", "WTF_CSRF_ENABLED": False})
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_port, database
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=5)
    db.pool(app).close()


def request(port: int, method: str, path: str, form: dict[str, str] | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        return send(conn, method, path, form)
    finally:
        conn.close()


def send(conn: http.client.HTTPConnection, method: str, path: str, form: dict[str, str] | None = None):
    headers = {"Content-Type": "application/x-www-form-urlencoded"} if form is not None else {}
    conn.request(method, path, body=urlencode(form) if form is not None else None, headers=headers)
    response = conn.getresponse()
    return response.status, response.headers, response.read().decode()


def post_together(port: int, path: str, forms: dict[str, dict[str, str]]) -> dict[str, tuple[int, str]]:
    """Each client posts its form from its own thread, released at the same moment; their (status, body)."""
    answers: dict[str, tuple[int, str] | BaseException] = {}
    together = threading.Barrier(len(forms), timeout=10)

    def save(client: str) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.connect()  # connected first, so the posts leave as close together as they can
            together.wait()
            status, _, body = send(conn, "POST", path, forms[client])
            answers[client] = (status, body)
        except BaseException as err:  # raised below, not lost in the thread
            answers[client] = err
        finally:
            conn.close()

    threads = [threading.Thread(target=save, args=(client,)) for client in forms]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=15)
    assert not any(thread.is_alive() for thread in threads)
    for answer in answers.values():
        if isinstance(answer, BaseException):
            raise answer
    return answers  # type: ignore[return-value]


def entry(client: str, i: int, version: str) -> tuple[dict[str, str], dict, int, str]:
    """What a client types for hand i: the form it posts, the hand it means, the field and value to find again."""
    out = i % len(PLAYERS)
    note = f"client {client}, hand {i + 1}"
    if client == "A":
        seat, kind, count = (out + 1) % len(PLAYERS), "low", 1 + i % 4
    else:
        seat, kind, count = (out + 2) % len(PLAYERS), "high", 1 + i % 3
    form = {"base_version": version, "out": PLAYERS[out], f"p{seat}_{kind}": str(count), "note": note}
    hand = {"out": PLAYERS[out], "left": {PLAYERS[seat]: {kind: count}}, "note": note}
    return form, hand, f"p{seat}_{kind}", str(count)


def test_two_phones_saving_at_once_one_wins_and_nothing_is_lost(server):
    port, database = server
    status, headers, _ = request(port, "POST", "/new/rummathon-royale",
                                 {f"seat{i}": p for i, p in enumerate(PLAYERS, 1)})
    assert status == 303
    table, key = headers["Location"].split("?key=")
    saved: list[dict] = []
    counts = {303: 0, 409: 0}

    for i in range(ITERATIONS):
        # Both phones open the form for the next hand: the same version.
        versions = [BASE_VERSION.search(request(port, "GET", f"{table}/hands/new?key={key}")[2]).group(1)
                    for _ in ("A", "B")]
        assert versions == [str(i), str(i)]
        typed = {c: entry(c, i, versions[0]) for c in ("A", "B")}
        answers = post_together(port, f"{table}/hands?key={key}", {c: typed[c][0] for c in typed})
        statuses = {c: answers[c][0] for c in ("A", "B")}
        for status in statuses.values():
            counts[status] = counts.get(status, 0) + 1
        assert sorted(statuses.values()) == [303, 409], f"hand {i + 1}: {statuses}"
        winner = "A" if statuses["A"] == 303 else "B"
        loser = "B" if winner == "A" else "A"
        saved.append(typed[winner][1])

        # The loser is told, keeps what it typed, and its form now carries the current version.
        page = answers[loser][1]
        _, _, field, value = typed[loser]
        assert "Another phone changed this table" in page
        assert re.search(rf'id="{field}"[^>]*value="{value}"', page), f"hand {i + 1}: {field} not kept"
        assert f'value="{typed[loser][1]["note"]}"' in page
        out = typed[loser][1]["out"]
        assert re.search(rf'<input checked id="out-\d+" name="out" type="radio" value="{out}">', page)
        assert BASE_VERSION.search(page).group(1) == str(i + 1)

    assert counts == {303: ITERATIONS, 409: ITERATIONS}
    with closing(db.connect(database)) as conn:
        log = [tuple(row) for row in conn.execute("SELECT seq, kind FROM events ORDER BY seq")]
    assert log == [(seq, "add") for seq in range(1, counts[303] + 1)]  # one entry per 303, none lost

    body = json.loads(request(port, "GET", f"{table}/export.json")[2])
    assert body["rounds"] == saved
    expected = dict.fromkeys(PLAYERS, 0)
    for hand in saved:
        for left in hand["left"].values():
            expected[hand["out"]] += sum(POINTS[kind] * n for kind, n in left.items())
    assert score(body).totals == expected
