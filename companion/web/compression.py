"""Responses sent compressed (zstd, Brotli or gzip, whichever the browser takes) with Flask-Compress.

Pages, board refreshes, JSON, CSS, scripts and SVG shrink to a fifth or so (docs/measurements.md gives
the figures); PDFs and PNGs are compressed already and go as they are.

Flask-Compress marks a compressed answer's ETag with its coding (``"t-5-e"`` becomes ``"t-5-e:br"``),
as a strong validator must change with the bytes. A phone then asks ``If-None-Match: "t-5-e:br"``;
the coding is taken off again before any view reads it, so a board refresh with nothing new is
still the view's own cheap 304 (views.tables.board), never a board rendered to be thrown away.
"""

from __future__ import annotations

import re

from flask import Flask, Response, request
from flask_compress import Compress

#: What is worth compressing: text. (PDFs, PNGs and the word lists' gzip files are packed already.)
MIMETYPES = ["text/html", "text/css", "text/javascript", "application/javascript", "application/json",
             "application/manifest+json", "image/svg+xml", "text/csv", "text/plain"]
#: In order of preference when a browser takes several (every current one takes all three). Brotli at
#: quality 5 packs a 44 KB entry form into 4.4 KB in about a millisecond; zstd (level 3) is faster
#: still but gives 5.1 KB, gzip 5.2 KB (docs/measurements.md).
ALGORITHMS = ["br", "zstd", "gzip"]
#: Flask-Compress's own suffixes on an ETag it compressed (``"abc:gzip"``, ``W/"abc:br"``).
_CODING_SUFFIX = re.compile(r':(?:zstd|br|gzip|deflate)(?=")')

def init_app(app: Flask) -> None:
    """Register before the app's other after_request hooks: Flask runs those in reverse, so compressing
    comes last, after the headers that read the page (security.cache_control)."""
    app.config.setdefault("COMPRESS_MIMETYPES", MIMETYPES)
    app.config.setdefault("COMPRESS_ALGORITHM", ALGORITHMS)
    # Streams are left alone: Flask-Compress's streaming path never closes the file it wraps. Static
    # files are read whole instead (below), a few KB each, and compressed like a page.
    app.config.setdefault("COMPRESS_STREAMS", False)
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)  # below that the headers cost more than is saved

    @app.before_request
    def plain_validators() -> None:
        """If-None-Match as the views made it: without the coding Flask-Compress added to the ETag."""
        asked = request.environ.get("HTTP_IF_NONE_MATCH")
        if asked and ":" in asked:
            request.environ["HTTP_IF_NONE_MATCH"] = _CODING_SUFFIX.sub("", asked)

    app.extensions["courtier.compress"] = Compress(app)

    @app.after_request
    def whole_static_file(response: Response) -> Response:
        """A static text file read into memory (the file is closed with the answer), so that the
        compressing hook, which runs after this one, takes it."""
        if (request.endpoint == "static" and response.status_code == 200 and response.mimetype in MIMETYPES
                and response.is_streamed):
            response.direct_passthrough = False
            response.get_data()
        return response
