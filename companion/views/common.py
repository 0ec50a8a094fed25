"""Helpers the blueprints share: the device label, recent tables, ruling links."""

from __future__ import annotations

import json
import re
import secrets
from functools import lru_cache

from flask import abort, current_app, g, has_request_context, request, session
from markupsafe import Markup, escape

from ..core.messages import render, say
from ..entry.forms import gettext
from ..games import RULES_PAGES, RULING

DEVICE_COOKIE = "courtier_device"
RECENT_LIMIT = 8


def key_from_link(secret: str, wrong: str, read_only: str) -> str | None:
    """This request's ``?key=`` when it is ``secret`` (an edit or director's key), else None.

    A wrong key is refused (403, ``wrong``), and so is any POST without the right one
    (``read_only``): every POST under these pages writes, so it is refused before anything
    else is looked at.
    """
    key = request.args.get("key")
    # As bytes: compare_digest refuses str with non-ASCII characters (a 500 for ?key=é).
    granted = bool(key) and secrets.compare_digest(key.encode(), secret.encode())
    if key and not granted:
        abort(403, wrong)
    if request.method == "POST" and not granted:
        abort(403, read_only)
    return key if granted else None


def states():
    """The app's cache of scored tables (tables.StateCache)."""
    return current_app.extensions["courtier.states"]


def known_tables():
    """The app's cache of tables read by id (a table's row never changes)."""
    return current_app.extensions["courtier.tables"]


#: The name a phone goes by until its players name it: kept in English with the changes, said in each
#: reader's language where it is shown (:func:`phone_name`).
GIVEN_PHONE_NAME = re.compile(r"Phone ([0-9A-F]{4})")


def device_label() -> str:
    """The name this phone goes by in a table's history."""
    if "device" not in g:
        label = (request.cookies.get(DEVICE_COOKIE) or "").strip()[:40]
        g.device_is_new = not label
        g.device = label or f"Phone {secrets.token_hex(2).upper()}"
    return g.device


def phone_name(label: str | None) -> str:
    """A phone's name as a reader reads it: the name it was given by Courtier in the reader's language, a
    name its players chose as they wrote it.

    >>> from companion.core.messages import render
    >>> render(phone_name("Phone 1A2B"), "fr"), phone_name("Ann's phone")
    ('Téléphone 1A2B', "Ann's phone")
    """
    given = GIVEN_PHONE_NAME.fullmatch(label or "")
    return say("Phone {code}", code=given.group(1)) if given else (label or "")


def remember_table(table_id: str, key: str | None) -> None:
    """Keep the tables this browser opened, newest first, for the home page."""
    recent = [r for r in session.get("recent", []) if r[0] != table_id]
    previous_key = next((r[1] for r in session.get("recent", []) if r[0] == table_id), "")
    recent.insert(0, [table_id, key or previous_key])
    session["recent"] = recent[:RECENT_LIMIT]


def link_rulings(text: str) -> Markup:
    """Escape a "why" line and turn each ruling id in it into a link to the rules page.

    Each link is named as a ruling, so that a screen reader says "ruling RR-4", not "RR minus 4".

    >>> str(link_rulings("Bought 3 <extra> cards (RR-4)"))
    'Bought 3 &lt;extra&gt; cards (<a href="/rules/rummathon-royale#RR-4" aria-label="ruling RR-4">RR-4</a>)'

    Text a template already escaped (messages joined there) is escaped once, not twice:

    >>> str(link_rulings(Markup("Ben n&#39;a plus de cartes (RR-2)"))).startswith("Ben n&#39;a plus")
    True
    """
    if isinstance(text, Markup):
        text = text.unescape()
    root = request.script_root if has_request_context() else ""
    return _linked(render(text), root, gettext("ruling %(id)s", id="\x00"))  # said first: cached by the words shown


#: The rules pages' address (views.main.rules); a test checks it against url_for.
RULES_PATH = "/rules/{page}"


@lru_cache(maxsize=8192)
def _linked(text: str, root: str, named: str) -> Markup:
    # Cached: a board repeats the same lines on every refresh, and url_for per id was half its cost.
    # ``named``: how a ruling link is read, in the reader's language, its id where the NUL is.
    def link(m: re.Match[str]) -> str:
        href = root + RULES_PATH.format(page=RULES_PAGES[m.group(1)]) + "#" + m.group(0)
        label = escape(named.replace("\x00", m.group(0)))
        return f'<a href="{href}" aria-label="{label}">{m.group(0)}</a>'

    return Markup(RULING.sub(link, str(escape(text))))  # noqa: S704 - built from escaped text


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


def option_problems(options, err) -> None:
    """Put the engine's problems with a game's options beside the option fields they are about."""
    for problem in err.problems:
        name = problem.where.removeprefix("options.").split(".")[0].split("[")[0]
        name = {"word_list": "word_file"}.get(name, name)  # a table's own list comes from its file field
        target = options[name] if name in options else next(iter(options))
        target.errors = [*target.errors, problem.message]
