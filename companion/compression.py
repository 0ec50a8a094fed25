"""Static text files (CSS, scripts, SVG) sent gzip-compressed to browsers that take it.

A phone's first visit fetches htmx, the app's script and its CSS: about 95 KB as files, about
30 KB compressed. Each file is compressed once per version of the file (its ETag) and kept.
Pages themselves are small and change with every entry; they are sent as they are.
"""

from __future__ import annotations

import gzip
import threading

from flask import Flask, Response, request

COMPRESSED_TYPES = {"text/css", "text/javascript", "application/javascript", "image/svg+xml"}
#: Smaller files are not worth the trouble.
MIN_BYTES = 1024

_cache: dict[tuple[str, str], bytes] = {}
_lock = threading.Lock()


def _compressed(path: str, etag: str, body: bytes) -> bytes:
    key = (path, etag)
    with _lock:
        hit = _cache.get(key)
    if hit is None:
        hit = gzip.compress(body, compresslevel=9, mtime=0)
        with _lock:
            if len(_cache) > 256:  # a release changes a few files; never grows past the static folder
                _cache.clear()
            _cache[key] = hit
    return hit


def init_app(app: Flask) -> None:
    @app.after_request
    def gzip_static(response: Response) -> Response:
        if (request.endpoint != "static" or response.status_code != 200 or response.mimetype not in COMPRESSED_TYPES
                or "gzip" not in request.headers.get("Accept-Encoding", "") or "Content-Encoding" in response.headers):
            return response
        response.direct_passthrough = False
        body = response.get_data()
        if len(body) < MIN_BYTES:
            return response
        etag, _ = response.get_etag()
        response.set_data(_compressed(request.path, etag or "", body))
        response.headers["Content-Encoding"] = "gzip"
        response.vary.add("Accept-Encoding")
        return response
