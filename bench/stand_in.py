"""A stand-in for Courtier that does none of Courtier's work: what serving the evening costs on its own.

    .venv/bin/python bench/load.py --server gunicorn --stand-in --tables 300

bench/load.py's evening played against this WSGI app measures the floor under every figure it
gives for Courtier: the server (gunicorn's or waitress's own request handling), the loopback
network and the load generator, with Courtier's work (the database, the forms, the templates,
the scoring) taken out. It answers every request the evening sends as Courtier answers it (the
same statuses, headers that matter, and bodies of the size Courtier's would be at the same point
of a Rummathon Royale game), from a few counters and prepared bytes.

Its state (how many tables, each table's version) lives in memory shared by gunicorn's workers,
made before they fork (`--preload`), so a board refreshed on one worker sees a hand saved on the
other, and a stale save is answered 409 as Courtier answers it.
"""

from __future__ import annotations

import mmap
import multiprocessing
import re
import struct
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

#: Tables it can hold (bench/load.py creates at most 1000).
CAPACITY = 1000
KEY = "standin"
#: Courtier's page sizes for a Rummathon Royale table of 4 (bytes, measured at 1 to 41 hands): the
#: board grows with each hand, and the form and the table page carry the board.
BOARD_BASE, BOARD_PER_HAND, FORM_EXTRA, PAGE_EXTRA = 8_400, 1_650, 40_000, 4_700

_slots = mmap.mmap(-1, 4 * (CAPACITY + 1))  # [tables made, version of table 0, version of table 1, ...]
_lock = multiprocessing.Lock()

_BOARD = re.compile(r"/t/s(\d{1,4})/board")
_TABLE = re.compile(r"/t/s(\d{1,4})")
_NEW_FORM = re.compile(r"/t/s(\d{1,4})/hands/new")
_EDIT_FORM = re.compile(r"/t/s(\d{1,4})/hands/(\d{1,6})/edit")
_SAVE = re.compile(r"/t/s(\d{1,4})/hands(?:/\d{1,6})?")


def _get(index: int) -> int:
    return struct.unpack_from("<i", _slots, 4 * index)[0]


def _set(index: int, value: int) -> None:
    struct.pack_into("<i", _slots, 4 * index, value)


def _filler(size: int) -> bytes:
    return b"<p>" + b"x" * max(0, size - 7) + b"</p>"


Answer = tuple[str, list[tuple[str, str]], bytes]


def _html(body: bytes, status: str = "200 OK", extra: list[tuple[str, str]] | None = None) -> Answer:
    return status, [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body))),
                    *(extra or [])], body


def _redirect(location: str) -> Answer:
    return "303 SEE OTHER", [("Location", location), ("Content-Length", "0")], b""


def _board_size(version: int) -> int:
    return BOARD_BASE + BOARD_PER_HAND * version


def _make_table() -> Answer:
    with _lock:
        made = _get(0)
        if made >= CAPACITY:
            return _html(b"full", "503 SERVICE UNAVAILABLE")
        _set(0, made + 1)
        _set(1 + made, 0)
    return _redirect(f"/t/s{made}?key={KEY}")


def _board(table: int, environ: dict[str, Any]) -> Answer:
    version = _get(1 + table)
    tag = f'"s{table}-{version}-e"'
    headers = [("ETag", tag), ("Cache-Control", "no-cache")]
    if environ.get("HTTP_IF_NONE_MATCH") == tag:
        return "304 NOT MODIFIED", headers, b""
    return _html(_filler(_board_size(version)), extra=headers)


def _form(table: int, _environ: dict[str, Any]) -> Answer:
    version = _get(1 + table)
    field = f'<input name="base_version" type="hidden" value="{version}">'.encode()
    return _html(field + _filler(_board_size(version) + FORM_EXTRA))


def _page(table: int, _environ: dict[str, Any]) -> Answer:
    return _html(_filler(_board_size(_get(1 + table)) + PAGE_EXTRA))


def _save(table: int, environ: dict[str, Any]) -> Answer:
    length = int(environ.get("CONTENT_LENGTH") or 0)
    form = parse_qs(environ["wsgi.input"].read(min(length, 65_536)).decode())
    based_on = form.get("base_version", ["-1"])[0]
    with _lock:
        version = _get(1 + table)
        if based_on != str(version):
            return _html(_filler(_board_size(version) + FORM_EXTRA), "409 CONFLICT")
        _set(1 + table, version + 1)
    return _redirect(f"/t/s{table}?key={KEY}#hand-{version + 1}")


#: The requests of a table, each with its method, its path and what answers it.
_ROUTES = (("GET", _BOARD, _board), ("GET", _NEW_FORM, _form), ("GET", _EDIT_FORM, _form),
           ("GET", _TABLE, _page), ("POST", _SAVE, _save))


def _answer(environ: dict[str, Any]) -> Answer:
    method, path = environ["REQUEST_METHOD"], environ.get("PATH_INFO", "")
    if method == "POST" and path == "/new/rummathon-royale":
        return _make_table()
    if method == "GET" and path == "/":
        return _html(b"<h1>stand-in</h1>")
    for wanted, pattern, handler in _ROUTES:
        found = pattern.fullmatch(path)
        if found and method == wanted and int(found[1]) < _get(0):
            return handler(int(found[1]), environ)
    return _html(b"not here", "404 NOT FOUND")


def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    status, headers, body = _answer(environ)
    start_response(status, headers)
    return [body]
