"""Tournaments: a director seats rounds of real tables; anyone with the link watches the standings."""

from __future__ import annotations

import re

from flask import Blueprint, Response, abort, current_app, flash, g, render_template, request, send_file, url_for
from wtforms import IntegerField, RadioField, SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from werkzeug.datastructures import CombinedMultiDict

from .. import games, sheets, tables, tournaments
from ..db import get_db
from ..entry import ENTRY
from ..forms import CourtierForm, choices
from ..games.base import InputError
from ..tournaments import packs, seating, store
from .common import key_from_link, known_tables, option_problems, see_other, states
from .main import LETTER_FIELDS

bp = Blueprint("tournaments", __name__, url_prefix="/tournaments")

METHODS = {"random": "Random seats each round", "round-robin": "Round-robin rotation: meet as many as possible",
           "swiss": "Swiss: seat by standings, avoiding repeat opponents"}


class TournamentForm(CourtierForm):
    title = StringField("Name of the tournament", validators=[InputRequired("Give the tournament a name."),
                                                              Length(max=60)])
    game = SelectField("Game", choices=choices((slug, games.ENGINES[slug].TITLE) for slug in sorted(ENTRY)))
    entrants = TextAreaField("Players, one per line (Alliance Royals: a team per line, like “Ann & Cat”)",
                             validators=[InputRequired("List the players."), Length(max=4000)])
    rounds = IntegerField("Rounds", default=3, validators=[InputRequired("How many rounds?"),
                                                           NumberRange(min=1, max=20)])
    method = RadioField("Seating", default="round-robin", choices=choices(METHODS.items()))
    table_min = IntegerField("Players at a table, at least", validators=[Optional(), NumberRange(min=2, max=9)])
    table_max = IntegerField("…and at most", validators=[Optional(), NumberRange(min=2, max=9)])


def _entrants(form) -> tuple[list, list[str]]:
    """The entrants typed (teams for Alliance Royals), and what is wrong with them."""
    lines = [line.strip() for line in (form.entrants.data or "").splitlines() if line.strip()]
    problems, out, seen = [], [], set()
    for line in lines:
        if form.game.data == "alliance-royals":
            team = [p.strip() for p in re.split(r"\s*(?:&|\+|,| and )\s*", line) if p.strip()]
            if len(team) != 2:
                problems.append(f"“{line}”: an Alliance Royals team is two players, like “Ann & Cat”")
                continue
            names = team
        else:
            names = [line]
        for name in names:
            if len(name) > games.MAX_NAME_LENGTH:
                problems.append(f"“{name}”: a name may have at most {games.MAX_NAME_LENGTH} characters")
            if name.casefold() in seen:
                problems.append(f"“{name}” is listed twice")
            seen.add(name.casefold())
        out.append(names if form.game.data == "alliance-royals" else names[0])
    return out, problems


def _table_size(form):
    engine = games.ENGINES[form.game.data]
    if form.game.data == "alliance-royals":
        return 2  # two teams at each table
    low = form.table_min.data or engine.MIN_PLAYERS
    high = form.table_max.data or (engine.MAX_PLAYERS if engine.MAX_PLAYERS <= 6 else 6)
    if engine.MIN_PLAYERS == engine.MAX_PLAYERS:
        return engine.MIN_PLAYERS
    if not engine.MIN_PLAYERS <= low <= high <= engine.MAX_PLAYERS:
        raise ValueError(f"{engine.TITLE} tables seat {engine.MIN_PLAYERS} to {engine.MAX_PLAYERS} players")
    return low if low == high else [low, high]


def _player_counts(form, entrants: list, size) -> list[int]:
    """The numbers of players the round's tables seat (two teams make four players)."""
    counts = seating.table_sizes(len(entrants), tuple(size) if isinstance(size, list) else size)
    per_entrant = 2 if form.game.data == "alliance-royals" else 1
    return sorted({n * per_entrant for n in counts})


def _options(form, options, entrants: list, size) -> dict | None:
    """The game's options for every table, checked by the engine at each table size; None
    (with the problems beside the option fields) when the engine refuses them."""
    engine = games.ENGINES[form.game.data]
    chosen = ENTRY[form.game.data].options_from(options, store.seat_stand_ins(engine.MAX_PLAYERS))
    for count in _player_counts(form, entrants, size):
        players = [f"Player {i}" for i in range(1, count + 1)]
        try:
            tables.new_table(form.game.data, players, store.options_for(chosen, players))
        except InputError as err:
            option_problems(options, err)
            return None
    return chosen


def _new_page(form, game: str | None, options, status: int = 200):
    return render_template("tournaments/new.html", form=form, options=options, game=game,
                           engine=games.ENGINES.get(game or ""), letter_fields=LETTER_FIELDS,
                           games=[games.ENGINES[slug] for slug in sorted(ENTRY)]), status


@bp.route("/new", methods=["GET", "POST"])
def new():
    """A tournament of one game, its options chosen here apply to every table of every round."""
    if request.method == "GET":
        game = request.args.get("game")
        if game not in ENTRY:
            return _new_page(TournamentForm(), None, None)  # first the game, then its options
        form = TournamentForm(game=game)
        return _new_page(form, game, ENTRY[game].options_form())
    form = TournamentForm()
    game = form.game.data if form.game.data in ENTRY else None
    # A form sent without the game's options (from a script, say) takes the game's defaults.
    sent = any(k.startswith("opt-") for k in request.form) or bool(request.files)
    options = None
    if game:
        options = ENTRY[game].options_form(CombinedMultiDict([request.files, request.form]) if sent else None)
    valid = form.validate() & (options is not None and (options.validate() if sent else True))
    if valid:
        entrants, problems = _entrants(form)
        try:
            size = _table_size(form)
        except ValueError as err:
            form.table_min.errors = [*form.table_min.errors, str(err)]
            size = None
        if problems:
            form.entrants.errors = [*form.entrants.errors, *problems]
        if size is not None and not problems:
            try:  # the first round must be seatable: check it before anything is stored
                tournaments.seat_round(form.method.data, [str(e) for e in entrants], tuple(size)
                                       if isinstance(size, list) else size, 1, [], seed=0)
            except tournaments.SeatingError as err:
                form.entrants.errors = [*form.entrants.errors, str(err)]
            else:
                chosen = _options(form, options, entrants, size)
                if chosen is not None:
                    t = store.create(get_db(), form.game.data, form.title.data.strip(), entrants, chosen,
                                     form.method.data, form.rounds.data, size)
                    return see_other(url_for("tournaments.show", tid=t.id, key=t.director_key))
    return _new_page(form, game, options, 422)


@bp.url_value_preprocessor
def load(endpoint, values):
    if values and "tid" in values:
        try:
            g.tournament = store.get(get_db(), values["tid"])
        except store.TournamentNotFound:
            abort(404, "There is no tournament at this link.")
        g.tkey = key_from_link(g.tournament.director_key, "This director's link is not valid for this tournament.",
                               "Only the director's link can seat rounds or build packs.")
        g.director = g.tkey is not None


def _standings_context():
    db = get_db()
    t = g.tournament
    results = store.results(db, t, states(), known_tables())
    rows = tournaments.standings(results)
    seats = store.seated(db, t.id)
    by_round: dict[int, list] = {}
    for seat, result in zip(seats, results, strict=True):
        by_round.setdefault(seat.round, []).append((seat, result))
    return {"t": t, "standings": rows, "by_round": by_round, "seated": len(by_round),
            "version": store.version(db, t.id)}


@bp.get("/<tid>")
def show(tid: str):
    context = _standings_context()
    edit_keys = {}
    if g.director:
        edit_keys = {seat.table_id: tables.get_table(get_db(), seat.table_id, known_tables()).edit_key
                     for pairs in context["by_round"].values() for seat, _ in pairs}
    return render_template("tournaments/show.html", action=CourtierForm(), edit_keys=edit_keys, **context)


@bp.get("/<tid>/board")
def board(tid: str):
    version = store.version(get_db(), tid)
    if request.if_none_match.contains(version):
        response = Response(status=304)
    else:
        response = Response(render_template("tournaments/_standings.html", **_standings_context()))
    response.set_etag(version)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.post("/<tid>/rounds")
def seat_round(tid: str):
    if not CourtierForm().validate():
        abort(400, "This button's form expired. Reload the page and try again.")
    try:
        seated = store.seat_next_round(get_db(), g.tournament)
    except tournaments.SeatingError as err:
        flash(f"Could not seat the round: {err}")
    except store.RoundAlreadySeated:
        flash("Another device seated this round a moment ago.")
    else:
        flash(f"Round {seated[0].round} seated: {len(seated)} tables.")
    return see_other(url_for("tournaments.show", tid=tid, key=g.tkey))


@bp.get("/<tid>/rounds/<int:round_number>/pack")
def pack(tid: str, round_number: int):
    """The round's pack: started in the background on first ask, then offered when ready."""
    if not g.director:
        abort(403, "Only the director's link can print the round packs.")
    if not 1 <= round_number <= store.rounds_seated(get_db(), tid):
        abort(404, "That round is not seated yet.")
    packs.start(current_app._get_current_object(), tid, round_number, request.host_url)
    state = packs.status(current_app, tid, round_number)
    template = "tournaments/_pack_status.html" if request.args.get("poll") else "tournaments/pack.html"
    response = Response(render_template(template, t=g.tournament, round_number=round_number, state=state))
    response.set_etag(state)
    return response


@bp.get("/<tid>/rounds/<int:round_number>/pack.pdf")
def pack_pdf(tid: str, round_number: int):
    if not g.director:
        abort(403, "Only the director's link can print the round packs.")
    path = packs.pack_path(current_app, tid, round_number)
    if not path.exists():
        abort(404, "The pack is not ready yet; its page shows the progress.")
    return send_file(path, mimetype="application/pdf", as_attachment=True,
                     download_name=f"{g.tournament.title}-round-{round_number}.pdf")


@bp.get("/<tid>/standings.pdf")
def standings_pdf(tid: str):
    context = _standings_context()
    html = render_template("tournaments/standings_sheet.html", **context)
    response = Response(sheets.pdf_from_html(html), mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'attachment; filename="standings-{tid}.pdf"'
    return response
