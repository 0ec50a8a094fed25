"""Helpers the blueprints share: the device label, recent tables, ruling links."""

from __future__ import annotations

import json
import re
import secrets

from flask import g, request, session, url_for
from markupsafe import Markup, escape

DEVICE_COOKIE = "courtier_device"
RECENT_LIMIT = 8
_RULING = re.compile(r"\b(AR|RY|RK|IR|RR)-(\d{1,2})\b")
RULES_PAGES = {"AR": "alliance-royals", "RY": "royalty", "RK": "rally-the-king",
               "IR": "indian-rummy", "RR": "rummathon-royale"}


def device_label() -> str:
    """The name this phone goes by in a table's history."""
    if "device" not in g:
        label = (request.cookies.get(DEVICE_COOKIE) or "").strip()[:40]
        g.device_is_new = not label
        g.device = label or f"Phone {secrets.token_hex(2).upper()}"
    return g.device


def remember_table(table_id: str, key: str | None) -> None:
    """Keep the tables this browser opened, newest first, for the home page."""
    recent = [r for r in session.get("recent", []) if r[0] != table_id]
    previous_key = next((r[1] for r in session.get("recent", []) if r[0] == table_id), "")
    recent.insert(0, [table_id, key or previous_key])
    session["recent"] = recent[:RECENT_LIMIT]


def link_rulings(text: str) -> Markup:
    """Escape a "why" line and turn each ruling id in it into a link to the rules page.

    >>> str(link_rulings("Bought 3 <extra> cards (RR-4)"))
    'Bought 3 &lt;extra&gt; cards (<a href="/rules/rummathon-royale#RR-4">RR-4</a>)'
    """
    escaped = str(escape(text))

    def link(m: re.Match[str]) -> str:
        page = RULES_PAGES[m.group(1)]
        try:
            href = url_for("main.rules", game=page, _anchor=m.group(0))
        except RuntimeError:  # outside a request (doctest)
            href = f"/rules/{page}#{m.group(0)}"
        return f'<a href="{href}">{m.group(0)}</a>'

    return Markup(_RULING.sub(link, escaped))  # noqa: S704 - built from escaped text


def see_other(url: str):
    """Redirect after a successful POST.

    A boosted (htmx) form gets HX-Location instead, so htmx loads the page and
    puts its address in the history; a plain form gets the 303 it expects.
    """
    from flask import Response, redirect

    if request.headers.get("HX-Request") == "true":
        response = Response(status=200)
        response.headers["HX-Location"] = json.dumps({"path": url, "target": "body"})
        return response
    return redirect(url, 303)
