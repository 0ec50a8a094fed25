"""A club's pages: started like a table, read with the members' link, managed with the director's.

The members' link reads the club and starts tables for it; the director's link does that and keeps
the roster (merges two spellings, corrects a name, moves a player to the former members). What the
pages show is kept in the database as games finish (companion.clubs); nothing is worked out again
when a page is shown.
"""

from __future__ import annotations

import io
import json
import re
import secrets
from datetime import date
from urllib.parse import parse_qs, urlsplit

import segno
from flask import Blueprint, Response, abort, current_app, flash, g, render_template, request, session, url_for
from wtforms import FileField, IntegerField, SelectField, StringField
from wtforms.validators import InputRequired, Length

from .. import games
from ..clubs import ratings, records, store
from ..core import limits
from ..core.messages import render, say
from ..entry import ENTRY
from ..entry.forms import CourtierForm, lazy_gettext
from ..games.base import InputError, Problem
from ..paper import chart, sheets
from ..storage import tables
from ..storage.db import borrowed, get_db
from ..web import heavy
from .common import see_other

bp = Blueprint("clubs", __name__, url_prefix="/clubs")


@bp.app_template_filter("game_title")
def game_title(slug: str) -> str:
    """A game's name, as its rules name it."""
    return games.ENGINES[slug].TITLE


@bp.app_template_filter("ranked")
def ranked(lines: list[store.Line]) -> list[tuple[int, store.Line]]:
    """A leaderboard's lines with their places: equal ratings as printed, equal places (1, 2, 2, 2, 5)."""
    return list(zip(sheets.places([sheets.decimal(line.rating.ordinal) for line in lines]), lines, strict=True))


class ClubForm(CourtierForm):
    name = StringField(lazy_gettext("Name of the club"),
                       validators=[InputRequired(lazy_gettext("Give the club a name.")), Length(max=40)])


class AddTableForm(CourtierForm):
    link = StringField(lazy_gettext("The table's edit link"),
                       validators=[InputRequired(lazy_gettext("Paste the table's edit link.")), Length(max=400)])


class MergeForm(CourtierForm):
    keep = SelectField(lazy_gettext("Keep this name"), coerce=int)
    drop = SelectField(lazy_gettext("…and give it the games of"), coerce=int)


class RenameForm(CourtierForm):
    player = SelectField(lazy_gettext("Player"), coerce=int)
    name = StringField(lazy_gettext("New name"), validators=[InputRequired(lazy_gettext("Type the new name.")),
                                                             Length(max=40)])


class FormerForm(CourtierForm):
    player = IntegerField()


class SeasonForm(CourtierForm):
    season_name = StringField(lazy_gettext("Name of the season"), validators=[Length(max=40)])
    season_from = StringField(lazy_gettext("First day"))
    season_to = StringField(lazy_gettext("Last day"))


class RemoveSeasonForm(CourtierForm):
    season = StringField()


@bp.route("/new", methods=["GET", "POST"])
def new():
    form = ClubForm()
    if request.method == "POST" and form.validate():
        try:
            club = store.create_club(get_db(), form.name.data)
        except InputError as err:
            form.name.errors = [p.message for p in err.problems]
        else:
            flash(render(say("Club started. Keep this director's link: it manages the club. Share the members' "
                             "link.")))
            return see_other(url_for("clubs.show", club_id=club.id, key=club.director_key))
    status = 422 if request.method == "POST" else 200
    return render_template("clubs/new.html", form=form), status


@bp.url_value_preprocessor
def load(endpoint, values):
    if not values or "club_id" not in values:
        return
    try:
        g.club = store.get_club(get_db(), values["club_id"])
    except store.ClubNotFound:
        abort(404, render(say("There is no club at this link.")))
    key = request.args.get("key") or ""
    role = g.club.role(key)
    g.director, g.member = role == "director", role is not None
    if not g.member:
        abort(403, render(say("This club's pages open with its members' link or its director's link; this link "
                              "has no key of this club. Ask the club's director for the members' link.")))
    g.club_key = key


def _director_only():
    if not g.director:
        abort(403, render(say("Only the club's director's link can change its roster.")))


def _back(anchor: str = ""):
    return see_other(url_for("clubs.show", club_id=g.club.id, key=g.club_key) + anchor)


#: How many clubs a phone remembers, for the link back from a club's table.
REMEMBERED_CLUBS = 5


@bp.get("/<club_id>")
def show(club_id: str):
    known = [c for c in session.get("clubs", []) if c[0] != g.club.id]
    session["clubs"] = [[g.club.id, g.club_key], *known][:REMEMBERED_CLUBS]
    return _club_page()


def chosen_season(club: store.Club) -> store.Season | None:
    """The season asked for (``?season=<name>``; ``all`` for all time), else the one under way today."""
    asked = request.args.get("season")
    if asked == "all":
        return None
    if asked is not None:
        found = next((s for s in club.seasons if s.name == asked), None)
        if found is None:
            abort(404, render(say("The club has no season of that name.")))
        return found
    today = date.today().isoformat()
    return next((s for s in reversed(club.seasons) if s.first <= today <= s.last), None)


def boards_of(club: store.Club, season: store.Season | None) -> list[tuple[str, list[store.Line]]]:
    db = get_db()
    return [(game, store.leaderboard(db, club.id, game, season=season))
            for game in store.games_played(db, club.id, season=season)]


def _club_page(problem: str | None = None, where: str | None = None, **forms):
    """The club's page; after a refused form, with the problem beside its field and what was typed kept."""
    db = get_db()
    roster = store.roster(db, g.club.id)
    director = _director_forms(roster)
    if director is not None:
        director.update({k: v for k, v in forms.items() if k in director})
    add_form = forms.get("add") or AddTableForm()
    season = chosen_season(g.club)
    page = render_template(
        "clubs/club.html", club=g.club, boards=boards_of(g.club, season), season=season, roster=roster,
        recent=store.club_tables(db, g.club.id, limit=20), games=[games.ENGINES[slug] for slug in ENTRY],
        forms=director, add_form=add_form, links=_links(g.club), provisional=ratings.PROVISIONAL_GAMES,
        open=where, problem=problem)
    return page, (422 if problem else 200)


def _links(club: store.Club) -> dict[str, str]:
    out = {"members": url_for("clubs.show", club_id=club.id, key=club.member_key, _external=True)}
    if g.director:
        out["director"] = url_for("clubs.show", club_id=club.id, key=club.director_key, _external=True)
    return out


def _director_forms(roster: list[store.Player]) -> dict[str, CourtierForm] | None:
    if not g.director:
        return None
    choices = [(p.id, p.name) for p in roster]
    merge, rename = MergeForm(), RenameForm()
    merge.keep.choices = merge.drop.choices = rename.player.choices = choices
    return {"merge": merge, "rename": rename, "former": FormerForm(), "season": SeasonForm(),
            "remove_season": RemoveSeasonForm()}


@bp.get("/<club_id>/players/<int:player_id>")
def player(club_id: str, player_id: int):
    db = get_db()
    found = store.player(db, g.club.id, player_id)
    if found is None:
        abort(404, render(say("There is no such player in this club.")))
    if found.merged_into is not None:
        return see_other(url_for("clubs.player", club_id=g.club.id, player_id=found.merged_into, key=g.club_key))
    played = []
    for game in store.games_played(db, g.club.id, player_id):
        line = store.leaderboard(db, g.club.id, game, player_id=player_id)[0]
        history = store.history(db, g.club.id, player_id, game)
        played.append((games.ENGINES[game], line, _rating_chart(found.name, history)))
    return render_template("clubs/player.html", club=g.club, player=found, played=played,
                           meetings=store.head_to_head(db, g.club.id, player_id),
                           moments=store.best_moments(db, g.club.id, player_id),
                           recent=store.club_tables(db, g.club.id, limit=50, player_id=player_id),
                           provisional=ratings.PROVISIONAL_GAMES)


def _rating_chart(name: str, history: list[ratings.Rating]) -> str | None:
    """The player's rating (its ordinal) after each game, drawn as the score pad draws totals."""
    if len(history) < 2:
        return None
    ordinals = [ratings.START.ordinal] + [round(r.ordinal, 1) for r in history]
    steps = [{name: b - a} for a, b in zip(ordinals, ordinals[1:], strict=False)]
    # 300 units drawn at 300 px or more on a phone (the card's width at 360 px): its text stays 13 px.
    return chart.progression_svg([name], steps, width=300, height=180, round_name="game", legend=False,
                                 font_size=13)


@bp.get("/<club_id>/qr/<which>.svg")
def qr(club_id: str, which: str):
    if which not in _links(g.club):
        abort(404)
    buffer = io.BytesIO()
    segno.make(_links(g.club)[which], error="m").save(buffer, kind="svg", scale=5, border=2, dark="#111",
                                                      light="#fff", xmldecl=False)
    response = Response(buffer.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=86400"
    return response


@bp.post("/<club_id>/tables")
def add_table(club_id: str):
    """A table already started counts for the club, given its edit link (members and director)."""
    form = AddTableForm()
    problem = None
    if form.validate():
        found = _table_from_link(form.link.data)
        if isinstance(found, str):
            problem = found
        else:
            try:
                store.add_table(get_db(), g.club, found)
            except InputError as err:
                problem = err.problems[0].message
            else:
                flash(render(say("{table} counts for {club} now.", table=found.title, club=g.club.name)))
                return _back("#tables")
    else:
        problem = next(iter(form.errors.values()))[0]
    form.link.errors = [problem]
    return _club_page(problem, "add", add=form)


def _table_from_link(link: str) -> tables.Table | str:
    """The table an edit link opens, or what is wrong with the link, in words."""
    parts = urlsplit(link.strip())
    path = parts.path.rstrip("/").split("/")
    key = (parse_qs(parts.query).get("key") or [""])[0]
    if len(path) < 2 or path[-2] != "t" or not key:
        return say("That is not a table's edit link: it looks like …/t/<table>?key=<key>. Copy it from the table's "
                   "Share.")
    try:
        table = tables.get_table(get_db(), path[-1])
    except tables.TableNotFound:
        return say("There is no table at that link.")
    if not secrets.compare_digest(key.encode("utf-8", "surrogatepass"), table.edit_key.encode()):
        return say("That link's key is not the table's edit key: a view link cannot add a table. Use the edit link.")
    return table


@bp.post("/<club_id>/merge")
def merge(club_id: str):
    _director_only()
    form = _director_forms(store.roster(get_db(), g.club.id))["merge"]
    try:
        if not form.validate():
            raise InputError([Problem("merge", say("choose the two names to merge"))])
        store.merge(get_db(), g.club, form.keep.data, form.drop.data)
    except InputError as err:
        form.drop.errors = [err.problems[0].message]
        return _club_page(err.problems[0].message, "merge", merge=form)
    flash(render(say("Merged: the games of both names are one player's now, and the ratings were worked out "
                     "again.")))
    return _back("#roster")


@bp.post("/<club_id>/rename")
def rename(club_id: str):
    _director_only()
    form = _director_forms(store.roster(get_db(), g.club.id))["rename"]
    try:
        if not form.validate():
            raise InputError([Problem("name", next(iter(form.errors.values()))[0])])
        store.rename(get_db(), g.club, form.player.data, form.name.data)
    except InputError as err:
        form.name.errors = [err.problems[0].message]
        return _club_page(err.problems[0].message, "rename", rename=form)
    flash(render(say("Name corrected.")))
    return _back("#roster")


@bp.post("/<club_id>/former")
def former(club_id: str):
    _director_only()
    form = FormerForm()
    found = store.player(get_db(), g.club.id, form.player.data or 0) if form.validate() else None
    if found is None:
        abort(400, render(say("This button's form expired. Reload the page and try again.")))
    store.set_former(get_db(), g.club, found.id, not found.former)
    flash(render(say("{name} is back on the roster.", name=found.name) if found.former
                 else say("{name} is listed under former members.", name=found.name)))
    return _back("#roster")


@bp.post("/<club_id>/seasons")
def add_season(club_id: str):
    _director_only()
    form = SeasonForm()
    try:
        if not form.validate():
            raise InputError([Problem("season_name", next(iter(form.errors.values()))[0])])
        club = store.add_season(get_db(), g.club, form.season_name.data, form.season_from.data, form.season_to.data)
    except InputError as err:
        for problem in err.problems:
            form[problem.where].errors = [*form[problem.where].errors, problem.message]
        return _club_page(err.problems[0].message, "season", season=form)
    added = next(s for s in club.seasons if s.name == " ".join(form.season_name.data.split()))
    flash(render(say("Season {season} added.", season=added.name)))
    return see_other(url_for("clubs.show", club_id=club.id, key=g.club_key, season=added.name))


@bp.post("/<club_id>/seasons/remove")
def remove_season(club_id: str):
    _director_only()
    form = RemoveSeasonForm()
    if not form.validate():
        abort(400, render(say("This button's form expired. Reload the page and try again.")))
    store.remove_season(get_db(), g.club, form.season.data or "")
    flash(render(say("Season {season} removed; its games stay in the club's record.", season=form.season.data)))
    return _back("#seasons")


@bp.get("/<club_id>/standings.pdf")
def standings_pdf(club_id: str):
    """The season's standings (or all time) on paper: one page for a club of up to 40 players, however
    many games they play (the rows grow tighter as there are more of them)."""
    paper = (request.args.get("paper") or "a4").strip().lower()
    if paper not in sheets.PAPERS:
        abort(404, render(say("The standings print on A4 or Letter paper.")))
    season = chosen_season(g.club)
    boards = boards_of(g.club, season)
    rows = sum(len(lines) + 3 for _, lines in boards)  # a game's heading and table head count as rows
    body_pt, cell_pad, columns = (9.5, 2.5, 1) if rows <= 45 else (8.5, 1.5, 1) if rows <= 60 else (7.5, 0.4, 2)
    html = render_template("clubs/standings_sheet.html", club=g.club, season=season, boards=boards,
                           paper=sheets.paper_size(paper), now=tables.now(), body_pt=body_pt, cell_pad=cell_pad,
                           columns=columns, compact=columns > 1,
                           provisional=ratings.PROVISIONAL_GAMES, print_font_stack=sheets.font_stack())
    pool = heavy.pool()
    response = Response(pool.run(pool.in_process, sheets.pdf_from_html, html), mimetype="application/pdf")
    name = "all-time" if season is None else re.sub(r"[^A-Za-z0-9]+", "-", season.name).strip("-") or "season"
    response.headers["Content-Disposition"] = f'attachment; filename="standings-{g.club.id}-{name}-{paper}.pdf"'
    return response


@bp.get("/<club_id>/export.json")
def export_json(club_id: str):
    """The club's whole record, to import into another Courtier (Start a club → import)."""
    # Every table's log is read: for a club of thousands of games that is seconds, so it runs in the
    # bounded pool (a 503 "busy, try in a minute" when it is full), never in the request's own thread.
    body = heavy.pool().run(_export, current_app._get_current_object(), g.club, "json")
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="courtier-club-{g.club.id}.json"'
    return response


def _export(app, club: store.Club, kind: str) -> str:
    with borrowed(app) as db:
        if kind == "csv":
            return records.export_csv(db, club)
        return json.dumps(records.export(db, club), ensure_ascii=False, separators=(",", ":"))


@bp.get("/<club_id>/export.csv")
def export_csv(club_id: str):
    """One row per player per finished game, for a spreadsheet."""
    response = Response(heavy.pool().run(_export, current_app._get_current_object(), g.club, "csv"),
                        mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="courtier-club-{g.club.id}.csv"'
    return response


class ImportClubForm(CourtierForm):
    file = FileField(lazy_gettext("A club's record (JSON), exported from Courtier"))


@bp.route("/import", methods=["GET", "POST"])
def import_club():
    form = ImportClubForm()
    errors: list[str] = []
    if request.method == "POST" and form.validate():
        upload = form.file.data
        raw = upload.read() if hasattr(upload, "read") else b""
        try:
            body = limits.read_json(raw) if raw.strip() else None
        except limits.TooDeep as err:
            body, errors = None, [err.args[0]]
        except ValueError:
            body, errors = None, [say("That is not valid JSON. Export a club's record from its page and import that "
                                      "file.")]
        if body is None and not errors:
            errors.append(say("Choose the file of a club's record."))
        if body is not None:
            try:
                club = records.import_club(get_db(), body)
            except InputError as err:
                errors.extend(say("{where}: {problem}", where=p.where, problem=p.message) for p in err.problems[:50])
            else:
                flash(render(say("Imported {club}: a new club with its own links. Keep this director's link.",
                                 club=club.name)))
                return see_other(url_for("clubs.show", club_id=club.id, key=club.director_key))
    status = 422 if request.method == "POST" else 200
    return render_template("clubs/import.html", form=form, errors=errors), status
