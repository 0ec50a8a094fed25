"""A phone's board refresh with nothing new, answered before Flask: the commonest request of an evening.

Every open table page asks for its board every few seconds with the tag of the board it shows
(``If-None-Match: "<table>-<version>-<e or v>"``). When the table is still at that version the answer
is a 304 with no body, which needs one read of the version from the database and, for an edit
link, the table's key from the tables cache. Going through Flask for it (the request context, the
blueprint's table loading, the after-request hooks) cost the server three times that work, and at a
few hundred tables the polls are most of what a server does (docs/measurements.md, *`make load`: an evening*).

Anything else (another tag, a changed version, a key that is not the table's, a table not in the
cache, a table gone, a database that does not answer) goes on to Flask unchanged, so the view's
own answer (views.tables.board) stays the reference: the tests compare the two, header for header.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

from flask import Flask

from ..storage import db as database
from ..storage import tables
from . import language
from .metrics import ROUTE
from .security import DATABASE_UNAVAILABLE, DEFAULT_HEADERS, FIXED_HEADERS

BOARD_PATH = re.compile(r"/t/([A-Za-z0-9_-]{1,64})/board")
#: The tag views.tables.board gives (its language's after the link's letter, but for English), with the
#: coding Flask-Compress may have added to it (compression.py).
BOARD_TAG = re.compile(r'\s*"([A-Za-z0-9_-]{1,64})-(\d{1,12})-([ev])((?:-[a-z]{2,3})?)'
                       r'(?::(?:zstd|br|gzip|deflate))?"\s*')


class UnchangedBoards:
    """WSGI middleware: a board refresh whose board has not changed is answered 304 here."""

    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]]):
        self.app = app
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        tag = self._unchanged(environ)
        if tag is None:
            return self.wsgi_app(environ, start_response)
        environ[ROUTE] = "tables.board"  # counted as the view's own answer (companion.web.metrics)
        start_response("304 NOT MODIFIED", not_modified_headers(tag))
        return []

    def _unchanged(self, environ: dict[str, Any]) -> str | None:
        """The board's tag when the phone already has this version of it, else None."""
        asked = environ.get("HTTP_IF_NONE_MATCH")
        if not asked or environ.get("REQUEST_METHOD") != "GET":  # every other request passes at once
            return None
        path = BOARD_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if path is None:
            return None
        tag = BOARD_TAG.fullmatch(asked)
        if tag is None or tag[1] != path[1]:
            return None
        table_id, version, link, spoken = path[1], int(tag[2]), tag[3], tag[4]
        if spoken != language.tag(language.chosen(environ, language.offered(self.app))):
            return None  # the phone has changed language: the board in its new one
        keys = parse_qs(environ.get("QUERY_STRING", ""), keep_blank_values=True).get("key")
        if not self._same_link(table_id, link, keys):
            return None
        try:
            with database.borrowed(self.app) as db:
                if tables.version(db, table_id) != version:
                    return None
        except tables.TableNotFound:
            return None  # Flask answers it in words (404)
        except database.unavailable_errors() as err:
            environ[DATABASE_UNAVAILABLE] = err  # Flask answers it in words (503), waiting no more
            return None
        return f"{table_id}-{version}-{link}{spoken}"

    def _same_link(self, table_id: str, link: str, keys: list[str] | None) -> bool:
        """Whether this request's link is the one the tag was given for (as key_from_link judges it)."""
        if link == "v":
            return keys is None  # any key at all is Flask's to judge (a wrong one is refused in words)
        if keys is None or len(keys) != 1:
            return False
        table = self.app.extensions["courtier.tables"].get(table_id)
        return table is not None and secrets.compare_digest(keys[0].encode(), table.edit_key.encode())


def not_modified_headers(tag: str) -> list[tuple[str, str]]:
    """The headers views.tables.board's 304 goes out with, security.security_headers' among them."""
    return [
        ("ETag", f'"{tag}"'),
        ("Cache-Control", "no-cache"),
        *DEFAULT_HEADERS.items(),
        *FIXED_HEADERS.items(),
        ("Vary", "Accept-Encoding"),  # Flask-Compress's, on every answer
    ]


def init_app(app: Flask) -> None:
    app.wsgi_app = UnchangedBoards(app, app.wsgi_app)  # type: ignore[method-assign]
