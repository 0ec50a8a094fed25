"""A club's pages: started like a table, read with the members' link, managed with the director's.

The members' link reads the club and starts tables for it; the director's link does that and keeps
the roster (merges two spellings, corrects a name, moves a player to the former members). What the
pages show is kept in the database as games finish (companion.clubs); nothing is worked out again
when a page is shown.
"""

from __future__ import annotations

import io
import secrets
from urllib.parse import parse_qs, urlsplit

import segno
from flask import Blueprint, Response, abort, flash, g, render_template, request, session, url_for
from wtforms import IntegerField, SelectField, StringField
from wtforms.validators import InputRequired, Length

from .. import chart, games, tables
from ..clubs import ratings, store
from ..db import get_db
from ..entry import ENTRY
from ..forms import CourtierForm
from ..games.base import InputError
from .common import see_other

bp = Blueprint("clubs", __name__, url_prefix="/clubs")


@bp.app_template_filter("game_title")
def game_title(slug: str) -> str:
    """A game's name, as its rules name it."""
    return games.ENGINES[slug].TITLE


class ClubForm(CourtierForm):
    name = StringField("Name of the club", validators=[InputRequired("Give the club a name."), Length(max=40)])


class AddTableForm(CourtierForm):
    link = StringField("The table's edit link", validators=[InputRequired("Paste the table's edit link."),
                                                            Length(max=400)])


class MergeForm(CourtierForm):
    keep = SelectField("Keep this name", coerce=int)
    drop = SelectField("…and give it the games of", coerce=int)


class RenameForm(CourtierForm):
    player = SelectField("Player", coerce=int)
    name = StringField("New name", validators=[InputRequired("Type the new name."), Length(max=40)])


class FormerForm(CourtierForm):
    player = IntegerField()


@bp.route("/new", methods=["GET", "POST"])
def new():
    form = ClubForm()
    if request.method == "POST" and form.validate():
        try:
            club = store.create_club(get_db(), form.name.data)
        except InputError as err:
            form.name.errors = [p.message for p in err.problems]
        else:
            flash("Club started. Keep this director's link: it manages the club. Share the members' link.")
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
        abort(404, "There is no club at this link.")
    key = request.args.get("key") or ""
    given = key.encode("utf-8", "surrogatepass")
    g.director = bool(key) and secrets.compare_digest(given, g.club.director_key.encode())
    g.member = g.director or (bool(key) and secrets.compare_digest(given, g.club.member_key.encode()))
    if not g.member:
        abort(403, "This club's pages open with its members' link or its director's link; "
                   "this link has no key of this club. Ask the club's director for the members' link.")
    g.club_key = key


def _director_only():
    if not g.director:
        abort(403, "Only the club's director's link can change its roster.")


def _back(anchor: str = ""):
    return see_other(url_for("clubs.show", club_id=g.club.id, key=g.club_key) + anchor)


#: How many clubs a phone remembers, for the link back from a club's table.
REMEMBERED_CLUBS = 5


@bp.get("/<club_id>")
def show(club_id: str):
    db = get_db()
    club = g.club
    known = [c for c in session.get("clubs", []) if c[0] != club.id]
    session["clubs"] = [[club.id, g.club_key], *known][:REMEMBERED_CLUBS]
    boards = [(game, store.leaderboard(db, club.id, game)) for game in store.games_played(db, club.id)]
    roster = store.roster(db, club.id)
    live = store.club_tables(db, club.id, limit=20)
    return render_template("clubs/club.html", club=club, boards=boards, roster=roster, recent=live,
                           games=[games.ENGINES[slug] for slug in ENTRY], forms=_director_forms(roster),
                           add_form=AddTableForm(), links=_links(club), provisional=ratings.PROVISIONAL_GAMES)


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
    return {"merge": merge, "rename": rename, "former": FormerForm()}


@bp.get("/<club_id>/players/<int:player_id>")
def player(club_id: str, player_id: int):
    db = get_db()
    found = store.player(db, g.club.id, player_id)
    if found is None:
        abort(404, "There is no such player in this club.")
    if found.merged_into is not None:
        return see_other(url_for("clubs.player", club_id=g.club.id, player_id=found.merged_into, key=g.club_key))
    played = []
    for game in store.games_played(db, g.club.id, player_id):
        line = store.leaderboard(db, g.club.id, game, player_id=player_id)[0]
        history = store.history(db, g.club.id, player_id, game)
        played.append((games.ENGINES[game], line, _rating_chart(found.name, history)))
    return render_template("clubs/player.html", club=g.club, player=found, played=played,
                           meetings=store.head_to_head(db, g.club.id, player_id),
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
                flash(f"{found.title} counts for {g.club.name} now.")
                return _back("#tables")
    else:
        problem = next(iter(form.errors.values()))[0]
    return _page_with(problem, "add")


def _table_from_link(link: str) -> tables.Table | str:
    """The table an edit link opens, or what is wrong with the link, in words."""
    parts = urlsplit(link.strip())
    path = parts.path.rstrip("/").split("/")
    key = (parse_qs(parts.query).get("key") or [""])[0]
    if len(path) < 2 or path[-2] != "t" or not key:
        return "That is not a table's edit link: it looks like …/t/<table>?key=<key>. Copy it from the table's Share."
    try:
        table = tables.get_table(get_db(), path[-1])
    except tables.TableNotFound:
        return "There is no table at that link."
    if not secrets.compare_digest(key.encode("utf-8", "surrogatepass"), table.edit_key.encode()):
        return "That link's key is not the table's edit key: a view link cannot add a table. Use the edit link."
    return table


def _page_with(problem: str, where: str):
    """The club page again, the problem beside the form it concerns, what was typed kept."""
    db = get_db()
    roster = store.roster(db, g.club.id)
    forms = _director_forms(roster)
    add_form = AddTableForm()
    if where == "add":
        add_form.link.errors = [problem]
    elif forms is not None:
        field = {"merge": forms["merge"].drop, "rename": forms["rename"].name}[where]
        field.errors = [problem]
    boards = [(game, store.leaderboard(db, g.club.id, game)) for game in store.games_played(db, g.club.id)]
    return render_template("clubs/club.html", club=g.club, boards=boards, roster=roster,
                           recent=store.club_tables(db, g.club.id, limit=20),
                           games=[games.ENGINES[slug] for slug in ENTRY], forms=forms, add_form=add_form,
                           links=_links(g.club), provisional=ratings.PROVISIONAL_GAMES, open=where), 422


@bp.post("/<club_id>/merge")
def merge(club_id: str):
    _director_only()
    form = _director_forms(store.roster(get_db(), g.club.id))["merge"]
    if not form.validate():
        return _page_with("Choose the two names to merge.", "merge")
    try:
        store.merge(get_db(), g.club, form.keep.data, form.drop.data)
    except InputError as err:
        return _page_with(err.problems[0].message, "merge")
    flash("Merged: the games of both names are one player's now, and the ratings were worked out again.")
    return _back("#roster")


@bp.post("/<club_id>/rename")
def rename(club_id: str):
    _director_only()
    form = _director_forms(store.roster(get_db(), g.club.id))["rename"]
    if not form.validate():
        return _page_with(next(iter(form.errors.values()))[0], "rename")
    try:
        store.rename(get_db(), g.club, form.player.data, form.name.data)
    except InputError as err:
        return _page_with(err.problems[0].message, "rename")
    flash("Name corrected.")
    return _back("#roster")


@bp.post("/<club_id>/former")
def former(club_id: str):
    _director_only()
    form = FormerForm()
    found = store.player(get_db(), g.club.id, form.player.data or 0) if form.validate() else None
    if found is None:
        abort(400, "This button's form expired. Reload the page and try again.")
    store.set_former(get_db(), g.club, found.id, not found.former)
    flash(f"{found.name} is {'back on the roster' if found.former else 'listed under former members'}.")
    return _back("#roster")
