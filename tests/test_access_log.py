"""Keys are never logged (API.md, Tables; docs/ops.md): gunicorn started as docs/ops.md starts it, asked for an
access log, writes a line per request with its method, path and status, and no key: not a table's edit or
view key in a link's query string, not one an API call put there and had refused, not one sent as
Authorization (Bearer, or Basic, whose user name gunicorn's default line shows). Waitress writes no access
log (companion.serve)."""

from __future__ import annotations

import base64
import http.client
import json
import os
import re
import subprocess
import sys
import time

import pytest

from tests.test_crash import ROOT, free_port

gunicorn_config = pytest.importorskip("gunicorn.config", reason="gunicorn is an optional extra (docs/ops.md)")

LINE = re.compile(r'^127\.0\.0\.1 - - \[[^]]+\] "(?P<request>[^"]+)" (?P<status>\d{3}) ')


def call(port: int, method: str, path: str, body=None, headers=None) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=None if body is None else json.dumps(body),
                           headers={"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        data = response.read()
        return response.status, (json.loads(data) if response.getheader("Content-Type") == "application/json" else {})
    finally:
        connection.close()


def requests_logged(log) -> list[str]:
    """The access log's lines but the fixture's readiness checks."""
    return [line for line in log.read_text().splitlines() if "/healthz" not in line]


@pytest.fixture
def gunicorn(tmp_path):
    """gunicorn from the checkout, as docs/ops.md runs it, with --access-logfile; yields (port, log path)."""
    port, log = free_port(), tmp_path / "access.log"
    # One thread: it writes a request's line before it takes the next request, so the lines keep their order.
    command = [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "1", "--threads", "1",
               "--preload", "--access-logfile", str(log), "wsgi:app"]
    if "control_socket_disable" in gunicorn_config.Config().settings:  # gunicorn 25 and later: one per user
        command[-1:-1] = ["--no-control-socket"]
    env = dict(os.environ, COURTIER_DATABASE=str(tmp_path / "db.sqlite"), COURTIER_SECRET_KEY="access-log",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    with open(tmp_path / "server.out", "wb") as out:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, (tmp_path / "server.out").read_text()
            try:
                if call(port, "GET", "/healthz")[0] == 200:
                    break
            except OSError:
                assert time.monotonic() < deadline, "gunicorn did not answer within 60 s"
                time.sleep(0.1)
        yield port, log
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_gunicorns_access_log_holds_every_request_and_no_key(gunicorn):
    port, log = gunicorn
    status, table = call(port, "POST", "/api/v1/tables", {"game": "indian-rummy", "players": ["Ann", "Ben", "Cat"]})
    assert status == 201
    path, edit_key, view_key = f"/api/v1/tables/{table['id']}", table["edit_key"], table["view_key"]
    basic = base64.b64encode(f"{edit_key}:".encode()).decode()
    calls = [("GET", f"{path}?key={edit_key}", {}, 400),  # refused: the key goes in the Authorization header
             ("GET", f"{path}?v={view_key}", {"Authorization": f"Bearer {edit_key}"}, 400),
             ("GET", path, {"Authorization": f"Basic {basic}"}, 401),
             ("GET", path, {"Authorization": f"Bearer {view_key}"}, 200),
             ("GET", f"/t/{table['id']}?key={edit_key}", {}, 200)]  # the table's edit link, on a phone
    for method, address, headers, expected in calls:
        assert call(port, method, address, headers=headers)[0] == expected, address
    deadline = time.monotonic() + 30
    while len(requests_logged(log)) < 1 + len(calls):  # gunicorn writes each line after its answer
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)
    text = log.read_text()
    assert edit_key not in text and view_key not in text and basic not in text
    lines = [LINE.match(line) for line in requests_logged(log)]
    assert all(lines), text
    assert [(m["request"], int(m["status"])) for m in lines] == [
        ("POST /api/v1/tables HTTP/1.1", 201),
        (f"GET {path}?(left-out) HTTP/1.1", 400), (f"GET {path}?(left-out) HTTP/1.1", 400),
        (f"GET {path} HTTP/1.1", 401), (f"GET {path} HTTP/1.1", 200),
        (f"GET /t/{table['id']}?(left-out) HTTP/1.1", 200)]
