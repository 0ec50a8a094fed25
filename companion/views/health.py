"""The health route a load balancer asks: is this server up, and does its database answer?

No key, no cookie, nothing private: the answer says only whether the database answered and how fast.
"""

from __future__ import annotations

from flask import Blueprint

from ..storage import db

bp = Blueprint("health", __name__)

#: How long the check waits for a connection: a database that cannot give one by then is not answering.
WAIT_SECONDS = 2


@bp.get("/healthz")
def healthz():
    """200 with the database's answer time in milliseconds, or 503 when it does not answer."""
    try:
        with db.borrowed(timeout=WAIT_SECONDS) as conn:
            ms = db.ping(conn)
    except db.unavailable_errors():
        answer = {"status": "unavailable", "database": "not answering"}, 503
    else:
        answer = {"status": "ok", "database": "answering", "ms": round(ms, 2)}, 200
    return answer[0], answer[1], {"Cache-Control": "no-store"}  # every check asks the database again
