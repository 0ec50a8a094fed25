"""Score sheets as PDF: a table's filled sheet, and blank sheets to keep by hand.

Reading a table's sheet needs only its id (the view link), like its scoreboard.
Register with ``app.register_blueprint(sheets.bp)``: the routes carry their full paths.
"""

from __future__ import annotations

import time

from flask import Blueprint, Response, abort, current_app, g, request

from .. import games
from ..core import limits
from ..core.messages import Joined, say
from ..games.base import InputError
from ..paper import sheets
from ..paper.long_sheets import SheetTooLong
from ..storage import tables
from ..storage.db import get_db
from ..web import heavy, language
from .common import known_tables, states

bp = Blueprint("sheets", __name__)

NO_TABLE = say("There is no table at this link. Check the link, or start a new table.")


def _paper() -> str:
    try:
        return sheets.paper_size(request.args.get("paper"))
    except sheets.UnknownPaper:
        abort(400, say("The paper size must be a4 or letter (for example ?paper=letter)."))


def _pdf(body: bytes, filename: str, etag: str | None = None) -> Response:
    response = Response(body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    if etag:
        response.set_etag(etag)
        response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/t/<table_id>/sheet.pdf")
def table_sheet(table_id: str):
    """The table's filled score sheet: every round, its why, the rulings logged, the chart and the result.

    A sheet drawn already is served from the cache, and so is a refusal worked out already (a table too long
    to print stays so until it changes). Otherwise the pool is asked first: when it is full the
    answer is 503 at once, before the table is scored; when the sheet must wait behind others, it waits
    only what is left of ``HEAVY_WAIT`` counted from the request's start (its HTML is built once it has
    a worker), so the refusal comes within the 2 seconds promised however long the table."""
    deadline = time.monotonic() + limits.get("HEAVY_WAIT")
    paper = _paper()
    db = get_db()
    try:
        table = tables.get_table(db, table_id, known_tables())
        version = tables.version(db, table.id)
    except tables.TableNotFound:
        abort(404, NO_TABLE)
    cache = current_app.extensions["courtier.sheets"]
    body = _cached(cache, table.id, version, paper)
    if not isinstance(body, bytes):
        return body  # a 304
    _refuse_as_before(body)
    if not body:
        pool = heavy.pool()
        pool.check_room()
        now = tables.state(db, table, states(), current=version)
        version = now.version
        body = _cached(cache, table.id, version, paper) or _drawn(pool, cache, table, now, paper, deadline)
        if not isinstance(body, bytes):
            return body
        _refuse_as_before(body)
    return _pdf(body, f"courtier-{table.id}.pdf", _etag(table.id, version, paper))


def _etag(table_id: str, version: int, paper: str) -> str:
    return f"sheet-{table_id}-{version}-{paper}{language.tag(g.language)}"


def _cached(cache, table_id: str, version: int, paper: str) -> bytes | Response:
    """The sheet of this version from the cache (b"" when it is not there), or a 304 when the phone has it."""
    etag = _etag(table_id, version, paper)
    if request.if_none_match.contains(etag):
        response = Response(status=304)
        response.set_etag(etag)
        return response
    return cache.get((table_id, version, paper, g.language)) or b""


class _Refused(bytes):
    """A sheet refused as too long to print, kept in the cache in place of its drawing: the refusal's figures,
    said again in the words of whoever asks next (a fresh exception each time: one raised again would
    carry every earlier request's traceback)."""

    def __new__(cls, refusal: SheetTooLong):
        kept = super().__new__(cls, b"")
        kept.figures = (refusal.rounds, refusal.noun, refusal.seconds)
        return kept

    def __bool__(self) -> bool:  # found in the cache: not "nothing there yet"
        return True


def _refuse_as_before(body: bytes) -> None:
    if isinstance(body, _Refused):
        raise SheetTooLong(*body.figures)


def _drawn(pool: heavy.Pool, cache, table: tables.Table, now: tables.State, paper: str, deadline: float) -> bytes:
    """Rendered once per table version and paper, in the bounded pool, then kept in the cache.

    The sheet's HTML is built in the pool too, once the job has its worker: a sheet that waits behind
    others is refused when the wait is over, however long its HTML would take."""
    rounds = [data for _, data in now.hands]
    budget = limits.get("SHEET_SECONDS")

    def draw() -> bytes:
        # The HTML costs a fraction of a second; a sheet too long to draw is refused (SheetTooLong, 413)
        # before any drawing.
        html = sheets.html_for_filled(now.scored, table.title, table.created_at, now.table.options, None,
                                      paper, rounds=rounds, budget=budget)
        return pool.in_process(sheets.pdf_from_html, html)

    key = (table.id, now.version, paper, g.language)
    try:
        body = pool.run(draw, key=("sheet", *key), deadline=deadline)
    except SheetTooLong as refusal:
        cache.put(key, _Refused(refusal))
        raise
    cache.put(key, body)
    return body


@bp.get("/sheets/blank/<game>.pdf")
def blank_sheet(game: str):
    """A blank sheet for a game; ``?players=Ann,Ben`` writes the names in."""
    if game not in games.ENGINES:
        abort(404, say("Courtier has no such game."))
    paper = _paper()
    names = [n.strip() for n in request.args.get("players", "").split(",") if n.strip()]
    try:
        html = sheets.html_for_blank(game, names or None, paper)
        pool = heavy.pool()
        body = pool.run(pool.in_process, sheets.pdf_from_html, html)
    except InputError as err:
        abort(400, Joined([p.message for p in err.problems], "; "))
    return _pdf(body, f"courtier-{game}-blank.pdf")
