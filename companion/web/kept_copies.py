"""Copies a phone fetches to keep for later, which nobody reads as they come.

The service worker keeps the "No signal" page and a table's view page, and the table's page keeps its
entry form (docs/ops.md, "Offline at the table"). Those requests go out beside the player's own, with
the same session cookie. Were they to read the session like a page, they would take a message meant
for the page the player is opening (a save's "Hand saved.", a rematch's new table); and were they to
write it, an answer arriving late would put back the session as it was before the player's save.

So a kept copy says so, in the ``X-Courtier-Copy`` header, and its answer neither shows this phone's
messages nor sets the session cookie.

>>> HEADER
'X-Courtier-Copy'
"""

from __future__ import annotations

from typing import Any

from flask import Flask, get_flashed_messages, has_request_context, request, session
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from werkzeug.wrappers import Response

HEADER = "X-Courtier-Copy"


def is_kept_copy() -> bool:
    """Whether this request is a copy a phone keeps for later (the header its scripts send): a page fetched,
    never a form sent."""
    return has_request_context() and request.method in ("GET", "HEAD") and request.headers.get(HEADER) == "1"


def has_page_messages() -> bool:
    """Whether the page being rendered shows this phone a message (a page kept for later never does)."""
    return not is_kept_copy() and bool(session.get("_flashes"))


def page_messages() -> list[str]:
    """This phone's messages for the page being rendered, none for a kept copy (they stay for the page)."""
    return [] if is_kept_copy() else get_flashed_messages()


class _SessionUnlessKeptCopy(SecureCookieSessionInterface):
    """Flask's signed-cookie session, which a kept copy's answer never sets (it still varies by the cookie
    it read)."""

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        if is_kept_copy():
            if session.accessed:
                response.vary.add("Cookie")
            return
        super().save_session(app, session, response)


def init_app(app: Flask) -> None:
    app.session_interface = _SessionUnlessKeptCopy()

    @app.context_processor
    def _messages() -> dict[str, Any]:
        return {"page_messages": page_messages}
