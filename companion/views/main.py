"""Home, new tables, import, rules pages and the phone's own settings."""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup, escape
from werkzeug.datastructures import CombinedMultiDict
from wtforms import FileField, StringField, TextAreaField
from wtforms.validators import Length

from .. import games
from ..clubs import store as clubs
from ..core import limits, messages
from ..core.cards import said
from ..core.config import RULES_DIR, STATIC_DIR
from ..core.messages import Joined, render, say, say_n
from ..entry import ENTRY
from ..entry.forms import CourtierForm, lazy_gettext
from ..games.base import InputError
from ..storage import tables
from ..storage.db import get_db
from ..web import language
from . import table_actions
from .common import DEVICE_COOKIE, device_label, option_problems, remember_table, see_other

bp = Blueprint("main", __name__)

LETTER_FIELDS = [f"v_{letter}" for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]  # Royalty's letter values
SEATS = 9  # the most any game seats (Indian Rummy with three decks)


class NewTableForm(CourtierForm):
    # Its length and characters are checked with the seats (tables.check_new_table), as over the API.
    title = StringField(lazy_gettext("Name of the game (optional)"))


for _seat in range(1, SEATS + 1):
    setattr(NewTableForm, f"seat{_seat}", StringField(lazy_gettext("Seat %(number)s", number=_seat),
                                                     validators=[Length(max=games.MAX_NAME_LENGTH)]))


class ImportForm(CourtierForm):
    file = FileField(lazy_gettext("A table exported as JSON"))
    text = TextAreaField(lazy_gettext("…or paste the JSON here"))


def playable_games():
    """Games with both an engine and entry screens."""
    return [games.ENGINES[slug] for slug in ENTRY if slug in games.ENGINES]


@bp.get("/")
def home():
    recent = session.get("recent", [])
    found = {t.id: t for t in tables.get_table_list(get_db(), [r[0] for r in recent])}
    rows = [(found[tid], key) for tid, key in recent if tid in found]
    return render_template("pages/home.html", games=playable_games(), recent=rows)


@bp.route("/new/<game>", methods=["GET", "POST"])
def new_table(game: str):
    if game not in ENTRY:
        abort(404, say("Courtier has no game called {game}.", game=said(game)))
    engine = games.ENGINES[game]
    form = NewTableForm()
    club = club_from_link()
    # The files too: a game's options may take one (Royalty's own word list, RY-17).
    options = ENTRY[game].options_form(CombinedMultiDict([request.files, request.form])
                                       if request.method == "POST" else None)
    if request.method == "GET":
        return render_template("pages/new_table.html", form=form, options=options, engine=engine,
                               letter_fields=LETTER_FIELDS, club=club, roster=_roster(club))
    forms_valid = form.validate() & options.validate()
    names = [limits.tidy(form[f"seat{s}"].data or "") for s in range(1, SEATS + 1)]  # the name rule's form
    seated = [n for n in names if n]
    found = games.Problems()
    title = limits.tidy(form.title.data or "")
    table_actions.check_new_table(game, seated, title, found)
    if forms_valid and not found:
        try:
            table = _start(game, seated, ENTRY[game].options_from(options, seated), title, club)
        except InputError as err:  # options the engine refuses for these players (coalitions, ...)
            option_problems(options, err)
        else:
            remember_table(table.id, table.edit_key)
            return see_other(url_for("tables.show", table_id=table.id, key=table.edit_key))
    _seat_errors(form, names, found, engine.MAX_PLAYERS)
    return render_template("pages/new_table.html", form=form, options=options, engine=engine,
                           letter_fields=LETTER_FIELDS, club=club, roster=_roster(club)), 422


def club_from_link() -> clubs.Club | None:
    """The club a new table or tournament counts for (``?club=<id>&key=<members' or director's key>``), or None."""
    club_id = request.args.get("club")
    if not club_id:
        return None
    try:
        club = clubs.get_club(get_db(), club_id)
    except clubs.ClubNotFound:
        abort(404, say("There is no club at this link."))
    if club.role(request.args.get("key")) is None:
        abort(403, say("A table or a tournament counts for a club only when started from the club's page, with "
                       "its members' or director's link."))
    return club


def _roster(club: clubs.Club | None) -> list[str]:
    return [] if club is None else [p.name for p in clubs.roster(get_db(), club.id) if not p.former]


def _start(game: str, seated: list[str], options: dict, title: str, club: clubs.Club | None) -> tables.Table:
    joining = clubs.new_names(get_db(), club.id, seated) if club is not None else []
    if club is not None:
        table = clubs.create_table(get_db(), club, game, seated, options, title=title, device=device_label())
    else:
        table = tables.create_table(get_db(), game, seated, options, title=title, device=device_label())
    if joining:
        welcome = say("New to {club}: {names}. Welcome to the roster.", club=club.name, names=Joined(joining, ", "))
        flash(render(welcome))
    return table


def _seat_errors(form, names, found, shown: int) -> None:
    """Attach player-list problems to the seat fields they are about (or the last seat the page shows),
    and the table's name's to its own field."""
    seated_fields = [f"seat{min(s, shown)}" for s, n in enumerate(names, 1) if n]
    for problem in found:
        m = re.match(r"players\[(\d+)\]", problem.where)
        target = "title" if problem.where == "title" else seated_fields[int(m.group(1))] if m else "seat1"
        form[target].errors = [*form[target].errors, problem.message]


@bp.route("/import", methods=["GET", "POST"])
def import_table():
    form = ImportForm()
    if request.method == "GET":
        return render_template("pages/import.html", form=form, errors=[])
    errors: list[str] = []
    if form.validate():
        upload = form.file.data
        if hasattr(upload, "read"):
            raw = upload.read()
        else:  # a file field sent as plain text, or nothing: take the pasted JSON
            raw = (upload if isinstance(upload, str) and upload.strip() else form.text.data or "").encode()
        try:
            body = limits.read_json(raw) if raw.strip() else None
        except limits.TooDeep as err:
            body = None
            errors.append(err.args[0])
        except ValueError:
            body = None
            errors.append(say("That is not valid JSON. Export a table from Courtier and import that file."))
        if body is None and not errors:
            errors.append(say("Choose a file or paste a table's JSON."))
        if body is not None:
            try:
                table = table_actions.import_table(get_db(), body, device_label())
            except InputError as err:
                errors.extend(say("{where}: {message}", where=p.where, message=p.message) for p in err.problems)
            else:
                remember_table(table.id, table.edit_key)
                count = len(body.get("rounds", []))
                flash(render(say_n("Imported {count} rounds.", "Imported {count} rounds.", count)))
                return see_other(url_for("tables.show", table_id=table.id, key=table.edit_key))
    return render_template("pages/import.html", form=form, errors=errors), 422


#: A heading that states a ruling: its id is the heading's anchor in every language.
_RULING_HEADING = re.compile(r"([A-Z]{2}-\d{1,2})\b")


def _rules_path(slug: str, code: str):
    """A game's rules in a language (docs/rules/<code>/<game>.md), English's at the folder's top."""
    return RULES_DIR / f"{slug}.md" if code == messages.ENGLISH else RULES_DIR / code / f"{slug}.md"


def _headings(text: str) -> list[str]:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    return [tokens[i + 1].content for i, token in enumerate(tokens) if token.type == "heading_open"]


def _anchor(heading: str) -> str:
    m = _RULING_HEADING.match(heading)
    if m:
        return m.group(1)
    # "A player who arrives late" -> a-player-who-arrives-late, for links from the app
    return re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-")


@cache
def _rules_html(slug: str, code: str = messages.ENGLISH) -> tuple[str, str, str]:
    """A game's rules page in a language: its title, its HTML and the language it is written in
    (English where the language has no document for the game).

    Every heading's anchor is the English document's, heading for heading (a translation keeps the
    headings' structure), so that a link into a ruling or a section lands in any language."""
    path = _rules_path(slug, code)
    if not path.exists():
        code, path = messages.ENGLISH, _rules_path(slug, messages.ENGLISH)
    text = path.read_text(encoding="utf-8")
    english = _rules_path(slug, messages.ENGLISH).read_text(encoding="utf-8")
    anchors = [_anchor(heading) for heading in _headings(english)]
    own = _headings(text)
    if len(own) != len(anchors):  # a translation out of step: its own anchors, the rulings' still right
        anchors = [_anchor(heading) for heading in own]
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    count = iter(range(len(anchors)))

    # A ruling's heading is read as one ("ruling AR-1 — The pack"), not as letters and a minus sign.
    ruling = messages.catalog(code).ugettext("ruling %(id)s").replace("%(id)s", "").strip()

    def heading_open(renderer, tokens, idx, options, env):
        m = _RULING_HEADING.match(tokens[idx + 1].content)
        anchor = anchors[next(count)]
        tokens[idx].attrSet("id", m.group(1) if m else anchor)
        if m and tokens[idx + 1].children:
            said = Token("html_inline", "", 0, content=f'<span class="visually-hidden">{escape(ruling)} </span>')
            tokens[idx + 1].children.insert(0, said)
        return renderer.renderToken(tokens, idx, options, env)

    md.add_render_rule("heading_open", heading_open)
    title = text.splitlines()[0].lstrip("# ").strip()
    return title, md.render(text), code


@bp.get("/rules/<game>")
def rules(game: str):
    if game not in games.ENGINES or not _rules_path(game, messages.ENGLISH).exists():
        abort(404, say("There is no rules page for that game yet."))
    title, html, written_in = _rules_html(game, messages.language())
    return render_template("pages/rules.html", title=title, body=Markup(html), game=game,  # noqa: S704
                           written_in=written_in)


def _local_path(target: str) -> str | None:
    """``target`` if it is a path on this site, else None.

    Browsers read a backslash as a slash and drop tabs and newlines, so "/\\evil"
    and "/\t/evil" would leave the site as surely as "//evil" does.
    """
    if not target.startswith("/") or target.startswith("//"):
        return None
    if "\\" in target or any(ord(c) < 0x20 or ord(c) == 0x7F for c in target):
        return None
    parts = urlsplit(target)
    return None if parts.scheme or parts.netloc else target


@bp.post("/device")
def set_device():
    label = (request.form.get("device") or "").strip()[:40]
    target = _local_path(request.form.get("next") or "") or url_for("main.home")
    response = redirect(target, 303)
    if label:
        response.set_cookie(DEVICE_COOKIE, label, max_age=3600 * 24 * 365, samesite="Lax", httponly=True)
        flash(render(say("This phone is now called {label}.", label=label)))
    return response


@bp.post("/language")
def set_language():
    """A phone's choice of language, kept on that phone; back to the page it was chosen on."""
    code = request.form.get("language") or ""
    target = _local_path(request.form.get("next") or "") or url_for("main.home")
    if code not in language.offered(current_app):
        abort(400, say("Courtier does not speak that language yet; the page is as it was."))
    response = redirect(target, 303)
    response.set_cookie(language.COOKIE, code, max_age=language.COOKIE_SECONDS, samesite="Lax", httponly=True,
                        secure=request.is_secure)
    return response


#: Static files the service worker does not keep: notes and licences (the licences stay on disk).
_NOT_PRECACHED = (".md", ".txt")


@cache
def _service_worker(script_root: str, page_wait_ms: int) -> tuple[str, str]:
    """The service worker's source with its version and the files it keeps, and the version.

    The version is a digest of every static file, so a release that changes any of them
    installs a new worker, which drops the old caches (static/js/sw.js).
    """
    digest = hashlib.sha256(str(page_wait_ms).encode())  # a new wait is a new worker too
    files = sorted(p for p in STATIC_DIR.rglob("*") if p.is_file())
    for path in files:
        digest.update(path.relative_to(STATIC_DIR).as_posix().encode() + b"\0" + path.read_bytes())
    version = digest.hexdigest()[:16]
    keep = [f"{script_root}/static/{p.relative_to(STATIC_DIR).as_posix()}" for p in files
            if not p.name.endswith(_NOT_PRECACHED) and p.name != "sw.js"]
    source = (STATIC_DIR / "js" / "sw.js").read_text(encoding="utf-8")
    source = source.replace("__PAGE_WAIT_MS__", str(page_wait_ms))
    return source.replace("__VERSION__", version).replace("__PRECACHE__", json.dumps(keep)), version


@bp.get("/sw.js")
def service_worker():
    """The service worker, at the top of the site so that it serves every page (docs/ops.md)."""
    source, version = _service_worker(request.script_root, round(current_app.config["PAGE_WAIT_SECONDS"] * 1000))
    response = current_app.response_class(source, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(version)
    return response.make_conditional(request)


@bp.get("/offline")
def offline():
    """The page the service worker shows without signal for a page this phone never kept, in the phone's
    language (its Content-Language tells the worker which one it holds)."""
    response = current_app.make_response(render_template("pages/offline.html"))
    response.headers["Content-Language"] = g.language
    return response


@bp.get("/manifest.webmanifest")
def manifest():
    body = {
        "name": "Courtier", "short_name": "Courtier", "start_url": "/", "display": "standalone",
        "background_color": "#14213d", "theme_color": "#14213d",
        "description": "Scores and rulings for card games at a real table",
        "icons": [{"src": url_for("static", filename=f"icons/icon-{n}.png"), "sizes": f"{n}x{n}",
                   "type": "image/png"} for n in (192, 512)]
        + [{"src": url_for("static", filename="icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
           # The crown inside the safe zone on a full-bleed ground, for launchers that cut icons to a shape.
           {"src": url_for("static", filename="icons/icon-maskable-512.png"), "sizes": "512x512",
            "type": "image/png", "purpose": "maskable"}],
        # One app for the whole site, whatever page it was added from.
        "id": url_for("main.home"), "scope": url_for("main.home"),
    }
    return current_app.response_class(json.dumps(body), mimetype="application/manifest+json")


@bp.after_app_request
def remember_device(response):
    if g.get("device_is_new"):
        response.set_cookie(DEVICE_COOKIE, device_label(), max_age=3600 * 24 * 365, samesite="Lax",
                            httponly=True)
    return response
