"""A server's access log without keys (gunicorn.conf.py): what a request line may carry of a key is left out.

Keys travel in two places a server could log: an address's query string (a table's edit link,
``/t/<id>?key=…``, and an API call that put its key there and was refused) and the Authorization
header (an API key; gunicorn's ``%(u)s`` is the user name of a Basic one). A log line keeps the
method, the path, the status, the size, the time and the client: enough to follow a request, with
no key. Waitress (``companion.serve``) writes no access log at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: What stands in the log for a query string that was there.
LEFT_OUT = "?(left-out)"

#: Request headers never logged, by gunicorn's ``{name}i`` and ``{http_name}e`` atoms.
SECRET_HEADERS = ("authorization", "proxy-authorization", "cookie")

#: WSGI environ values that hold the query string.
ADDRESSES_WITH_QUERY = ("query_string", "raw_uri", "request_uri")


def without_query(address: str) -> str:
    """An address (a path, or a full URL as a Referer gives it) with its query string marked as left out.

    >>> without_query("/t/Ab3?key=k3y&x=1"), without_query("/api/v1/tables"), without_query("-")
    ('/t/Ab3?(left-out)', '/api/v1/tables', '-')
    """
    path, mark, _ = address.partition("?")
    return path + (LEFT_OUT if mark else "")


def keys_left_out(atoms: Mapping[str, Any], environ: Mapping[str, Any]) -> dict[str, Any]:
    """gunicorn's atoms of an access log line, keeping nothing that may hold a key.

    >>> environ = {"REQUEST_METHOD": "GET", "RAW_URI": "/api/v1/tables/T1?key=k3y", "SERVER_PROTOCOL": "HTTP/1.1",
    ...            "QUERY_STRING": "key=k3y"}
    >>> atoms = {"r": "GET /api/v1/tables/T1?key=k3y HTTP/1.1", "q": "key=k3y", "u": "k3y", "s": "400",
    ...          "{authorization}i": "Bearer k3y", "{raw_uri}e": "/api/v1/tables/T1?key=k3y", "f": "-"}
    >>> kept = keys_left_out(atoms, environ)
    >>> kept["r"], kept["q"], kept["u"], kept["s"], sorted(kept)
    ('GET /api/v1/tables/T1?(left-out) HTTP/1.1', '?(left-out)', '-', '400', ['f', 'q', 'r', 's', 'u'])
    """
    kept = dict(atoms)
    kept["r"] = " ".join([str(environ.get("REQUEST_METHOD", "-")), without_query(str(environ.get("RAW_URI", ""))),
                          str(environ.get("SERVER_PROTOCOL", "-"))])
    kept["q"] = LEFT_OUT if environ.get("QUERY_STRING") else ""
    kept["u"] = "-"
    for header in SECRET_HEADERS:
        kept.pop(f"{{{header}}}i", None)
        kept.pop(f"{{http_{header.replace('-', '_')}}}e", None)
    for name in ADDRESSES_WITH_QUERY:
        kept.pop(f"{{{name}}}e", None)
    for referer in ("f", "{referer}i", "{http_referer}e"):
        if isinstance(kept.get(referer), str):
            kept[referer] = without_query(kept[referer])
    return kept
