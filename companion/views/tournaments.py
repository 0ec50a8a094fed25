"""Tournaments: a director seats rounds of real tables; anyone with the link watches the standings."""

from __future__ import annotations

import io
import re
from functools import partial

import segno
from flask import Blueprint, Response, abort, current_app, flash, g, render_template, request, send_file, url_for
from werkzeug.datastructures import CombinedMultiDict
from wtforms import IntegerField, RadioField, SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from .. import games, tournaments
from ..core import limits, messages
from ..core.messages import per_reader, render, say
from ..entry import ENTRY
from ..entry.forms import CourtierForm, choices, lazy_gettext
from ..games.base import InputError
from ..paper import sheets
from ..storage import tables
from ..storage.db import borrowed, get_db
from ..storage.tables import TITLE_CHARS
from ..tournaments import packs, seating, store
from ..web import heavy, language
from .common import key_from_link, known_tables, option_problems, see_other, states
from .main import LETTER_FIELDS, club_from_link

bp = Blueprint("tournaments", __name__, url_prefix="/tournaments")

#: Each method's name alone, as the tournament's page names it.
METHOD_NAMES = {"random": lazy_gettext("Random seats each round"), "round-robin": lazy_gettext("Round-robin rotation"),
                "swiss": lazy_gettext("Swiss")}
METHODS = {"random": lazy_gettext("Random seats each round"),
           "round-robin": lazy_gettext("Round-robin rotation: meet as many as possible"),
           "swiss": lazy_gettext("Swiss: seat by standings, avoiding repeat opponents")}


#: Hindi's first places in words, as a standings board says them; the rest are written "5वाँ".
HINDI_ORDINALS = {1: "पहला", 2: "दूसरा", 3: "तीसरा", 4: "चौथा", 6: "छठा"}


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 22nd; in French 1er, 2e; in Hindi पहला, दूसरा, 5वाँ.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '22nd', '101st']
    >>> with messages.speaking("fr"):
    ...     [ordinal(n) for n in (1, 2, 11)]
    ['1er', '2e', '11e']
    >>> with messages.speaking("hi"):
    ...     [ordinal(n) for n in (1, 3, 5)]
    ['पहला', 'तीसरा', '5वाँ']
    """
    code = messages.language()
    if code == "fr":
        return "1er" if n == 1 else f"{n}e"
    if code == "hi":
        return HINDI_ORDINALS.get(n, f"{n}वाँ")
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return messages.pseudo(f"{n}{suffix}") if code == messages.PSEUDO else f"{n}{suffix}"


bp.add_app_template_filter(per_reader(ordinal), "ordinal")


def _said(err: Exception) -> str:
    """An error's message in the reader's language (a :class:`Text` it was raised with, said now)."""
    return render(err.args[0]) if err.args else str(err)


class TournamentForm(CourtierForm):
    title = StringField(lazy_gettext("Name of the tournament"), validators=[
        InputRequired(lazy_gettext("Give the tournament a name.")), Length(max=TITLE_CHARS)])
    game = SelectField(lazy_gettext("Game"),
                       choices=choices((slug, games.ENGINES[slug].TITLE) for slug in sorted(ENTRY)))
    entrants = TextAreaField(
        lazy_gettext("Players, one per line (Alliance Royals: a team per line, like “Ann & Cat”)"),
        validators=[InputRequired(lazy_gettext("List the players.")), Length(max=4000)])
    rounds = IntegerField(lazy_gettext("Rounds"), default=3,
                          validators=[InputRequired(lazy_gettext("How many rounds?")), NumberRange(min=1, max=20)])
    method = RadioField(lazy_gettext("Seating"), default="round-robin", choices=choices(METHODS.items()))
    table_min = IntegerField(lazy_gettext("Players at a table, at least"),
                             validators=[Optional(), NumberRange(min=2, max=9)])
    table_max = IntegerField(lazy_gettext("…and at most"), validators=[Optional(), NumberRange(min=2, max=9)])


def _entrants(form) -> tuple[list, list[str]]:
    """The entrants typed (teams for Alliance Royals), and what is wrong with them."""
    lines = [limits.tidy(line) for line in (form.entrants.data or "").splitlines() if line.strip()]
    problems, out, seen = [], [], set()
    for line in lines:
        if form.game.data == "alliance-royals":
            team = [p.strip() for p in re.split(r"\s*(?:&|\+|,| and )\s*", line) if p.strip()]
            if len(team) != 2:
                problems.append(say("“{line}”: an Alliance Royals team is two players, like “Ann & Cat”", line=line))
                continue
            names = team
        else:
            names = [line]
        for name in names:
            wrong = limits.name_problem(name)
            if wrong:
                problems.append(say("“{name}”: {problem}", name=name, problem=wrong))
            if limits.name_key(name) in seen:
                problems.append(say("“{name}” is listed twice", name=name))
            seen.add(limits.name_key(name))
        out.append(names if form.game.data == "alliance-royals" else names[0])
    most = limits.get("MAX_ENTRANTS")
    if len(out) > most:
        problems.append(say("A tournament may have at most {most} entries; {count} are listed. For a larger event, "
                            "run a tournament in each room.", most=most, count=len(out)))
    return out, problems


def safe_filename(title: str) -> str:
    """A title as a download's file name: letters, digits, spaces and - _ . only (no line breaks, quotes, slashes).

    >>> safe_filename('Spring "Open"\\r\\nSet-Cookie: x=1 / 2026')
    'Spring Open Set-Cookie x1 2026'
    """
    kept = re.sub(r"[^\w .-]+", "", title.replace("\r", " ").replace("\n", " "))
    return re.sub(r"\s+", " ", kept).strip(" .") or "tournament"


def _table_size(form):
    engine = games.ENGINES[form.game.data]
    if form.game.data == "alliance-royals":
        return 2  # two teams at each table
    low = form.table_min.data or engine.MIN_PLAYERS
    high = form.table_max.data or (engine.MAX_PLAYERS if engine.MAX_PLAYERS <= 6 else 6)
    if engine.MIN_PLAYERS == engine.MAX_PLAYERS:
        return engine.MIN_PLAYERS
    if not engine.MIN_PLAYERS <= low <= high <= engine.MAX_PLAYERS:
        raise ValueError(say("{game} tables seat {low} to {high} players", game=engine.TITLE, low=engine.MIN_PLAYERS,
                             high=engine.MAX_PLAYERS))
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
    club = club_from_link()
    return render_template("tournaments/new.html", form=form, options=options, game=game,
                           engine=games.ENGINES.get(game or ""), letter_fields=LETTER_FIELDS,
                           games=[games.ENGINES[slug] for slug in sorted(ENTRY)], club=club,
                           club_args={"club": club.id, "key": request.args["key"]} if club else {}), status


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
            form.table_min.errors = [*form.table_min.errors, err.args[0]]
            size = None
        if problems:
            form.entrants.errors = [*form.entrants.errors, *problems]
        wrong = limits.name_problem(limits.tidy(form.title.data or ""), "a tournament's name", most=TITLE_CHARS)
        if wrong:
            form.title.errors = [*form.title.errors, wrong[0].upper() + wrong[1:] + "."]
            problems.append("title")
        if size is not None and not problems:
            try:  # the first round must be seatable: check it before anything is stored
                heavy.pool().run(partial(tournaments.seat_round, form.method.data, [str(e) for e in entrants],
                                         tuple(size) if isinstance(size, list) else size, 1, [], seed=0))
            except tournaments.SeatingError as err:
                form.entrants.errors = [*form.entrants.errors, err.args[0] if err.args else str(err)]
            else:
                chosen = _options(form, options, entrants, size)
                if chosen is not None:
                    t = store.create(get_db(), form.game.data, limits.tidy(form.title.data), entrants, chosen,
                                     form.method.data, form.rounds.data, size, club=club_from_link())
                    return see_other(url_for("tournaments.show", tid=t.id, key=t.director_key))
    return _new_page(form, game, options, 422)


@bp.url_value_preprocessor
def load(endpoint, values):
    if values and "tid" in values:
        try:
            g.tournament = store.get(get_db(), values["tid"])
        except store.TournamentNotFound:
            abort(404, render(say("There is no tournament at this link.")))
        g.tkey = key_from_link(g.tournament.director_key,
                               render(say("This director's link is not valid for this tournament.")),
                               render(say("Only the director's link can seat rounds or build packs.")))
        g.director = g.tkey is not None


class SeatForm(CourtierForm):
    round = IntegerField(validators=[Optional()])  # the round the director saw on the button


class AdjustForm(CourtierForm):
    reason = StringField(lazy_gettext("Reason (kept with the result)"),
                         validators=[InputRequired(lazy_gettext("Say why the result is adjusted.")), Length(max=200)])


def _standings_context():
    db = get_db()
    t = g.tournament
    results = store.results(db, t, states(), known_tables())
    rows = tournaments.standings(results, entrants=t.entrants)
    seats = store.seated(db, t.id)
    called = store.called_rounds(db, t.id)
    by_round: dict[int, list] = {}
    playing: dict[tuple[int, str], bool] = {}
    for seat, result in zip(seats, results, strict=True):
        by_round.setdefault(seat.round, []).append((seat, result))
        if not result["over"] and not result.get("called"):
            playing.update({(seat.round, e): True for e in seat.entrants})
    status = []
    for n, pairs in sorted(by_round.items()):
        finished = sum(1 for _, r in pairs if r["over"])
        status.append({"round": n, "tables": len(pairs), "finished": finished, "playing": len(pairs) - finished,
                       "called": n in called, "started": any(r["hands"] for _, r in pairs),
                       "open": finished < len(pairs) and n not in called})
    final = (len(by_round) == t.rounds and bool(status)
             and all(r["over"] or r.get("called") for pairs in by_round.values() for _, r in pairs))
    cells = {s.name: {ts.round: ts for ts in s.tables} for s in rows}
    ties = [[s.name for s in rows if s.rank == rank] for rank in sorted({s.rank for s in rows})]
    broken = [(a.name, b.name) for a, b in zip(rows, rows[1:], strict=False)
              if a.match_points == b.match_points and a.rank != b.rank and a.rank <= 3]
    method_name = METHOD_NAMES[t.method]
    return {"t": t, "engine_title": games.ENGINES[t.game].TITLE, "method_name": method_name,
            "standings": rows, "by_round": by_round, "seated": len(by_round), "status": status,
            "cells": cells, "playing": playing, "final": final, "broken": broken,
            "ties": [names for names in ties if len(names) > 1],
            "noun": getattr(games.ENGINES[t.game], "ROUND_NAME", "round"),
            "rounds_counted": sheets.counted_rounds,
            "called": called, "time_rule": store.time_rule(t), "low_wins": store.low_wins(t),
            "version": store.version(db, t.id), "now": tables.now()}


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
    version = store.version(get_db(), tid) + language.tag(g.language)
    if request.if_none_match.contains(version):
        response = Response(status=304)
    else:
        response = Response(render_template("tournaments/_standings.html", **_standings_context()))
    response.set_etag(version)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/<tid>/qr.svg")
def qr(tid: str):
    """The standings link as a QR code, for the room's screen."""
    buffer = io.BytesIO()
    segno.make(url_for("tournaments.show", tid=tid, _external=True), error="m").save(
        buffer, kind="svg", scale=5, border=4, dark="#111", light="#fff", xmldecl=False)
    response = Response(buffer.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=86400"
    return response


def _director_form(form=None):
    if not g.director:
        abort(403, render(say("Only the director's link can change the tournament.")))
    if not (form or CourtierForm()).validate():
        abort(400, render(say("This button's form expired. Reload the page and try again.")))


def _back(tid: str):
    return see_other(url_for("tournaments.show", tid=tid, key=g.tkey))


@bp.post("/<tid>/rounds")
def seat_round(tid: str):
    form = SeatForm()
    if not g.director:
        abort(403, render(say("Only the director's link can change the tournament.")))
    if not form.validate() and "csrf_token" in form.errors:
        abort(400, render(say("This button's form expired. Reload the page and try again.")))
    if form.round.data is None:  # an old page or a script: seating "the next round" again would seat another
        return _seat_refused()
    try:
        seated = heavy.pool().run(_seat_next, current_app._get_current_object(), g.tournament, form.round.data)
    except tournaments.SeatingError as err:
        flash(render(say("Could not seat the round: {reason}.", reason=_said(err))))
    except store.RoundAlreadySeated:
        flash(render(say("Round {number} is seated already; nothing changed.", number=form.round.data)
                     if form.round.data else say("This round is seated already; nothing changed.")))
    else:
        flash(render(say("Round {number} seated: {tables} tables. Until a table of it has a hand entered, you can "
                         "undo this seating.", number=seated[0].round, tables=len(seated))))
    return _back(tid)


def _seat_refused():
    """The director's page again (422), saying in words why nothing was seated."""
    context = _standings_context()
    problem = say("Nothing was seated: the button did not say which round to seat (an old page, or a form sent "
                  "without it). Round {number} is the next to seat: check the rounds below, then tap “Seat round "
                  "{number}…”.", number=context["seated"] + 1)
    if context["seated"] >= g.tournament.rounds:
        problem = say("Nothing was seated: all {rounds} rounds are seated already.", rounds=g.tournament.rounds)
    edit_keys = {seat.table_id: tables.get_table(get_db(), seat.table_id, known_tables()).edit_key
                 for pairs in context["by_round"].values() for seat, _ in pairs}
    return render_template("tournaments/show.html", action=CourtierForm(), edit_keys=edit_keys, problem=problem,
                           **context), 422


@bp.post("/<tid>/rounds/<int:round_number>/undo")
def unseat_round(tid: str, round_number: int):
    _director_form()
    try:
        count = store.unseat_round(get_db(), g.tournament, round_number, known_tables())
    except store.DirectorRefused as err:
        flash(render(say("The seating stays: {reason}.", reason=_said(err))))
    else:
        packs.forget(current_app._get_current_object(), tid, round_number)
        flash(render(say("Round {number}'s seating is undone: its {tables} tables are gone.", number=round_number,
                         tables=count)))
    return _back(tid)


@bp.post("/<tid>/rounds/<int:round_number>/call")
def call_time(tid: str, round_number: int):
    _director_form()
    try:
        store.call_time(get_db(), g.tournament, round_number)
    except store.DirectorRefused as err:
        abort(404, render(say("Time cannot be called: {reason}.", reason=_said(err))))
    flash(render(say("Time called on round {number}: tables still playing count as they stand.",
                     number=round_number)))
    return _back(tid)


@bp.route("/<tid>/tables/<table_id>/adjust", methods=["GET", "POST"])
def adjust(tid: str, table_id: str):
    """The director types a table's result (its time was called), with the reason."""
    if not g.director:
        abort(403, render(say("Only the director's link can adjust a result.")))
    db = get_db()
    seat = next((s for s in store.seated(db, tid) if s.table_id == table_id), None)
    if seat is None:
        abort(404, render(say("That table is not part of this tournament.")))
    if seat.round not in store.called_rounds(db, tid):
        abort(409, render(say("Call time on round {number} before adjusting one of its tables.", number=seat.round)))
    result = next(r for r in store.results(db, g.tournament, states(), known_tables()) if r["table_id"] == table_id)
    form = AdjustForm()
    values, errors = {}, {}
    for i, entrant in enumerate(seat.entrants):
        raw = (request.form.get(f"total{i}") if request.method == "POST" else None)
        values[entrant] = str(result["totals"][entrant]) if raw is None else raw
        if request.method == "POST":
            try:
                number = int(raw.strip().replace("−", "-"))
                if abs(number) > 1_000_000:
                    raise ValueError
            except (AttributeError, ValueError):
                errors[entrant] = say("Give a whole number of points, like 42 or -7.")
    if request.method == "POST":
        valid = form.validate()
        if valid and not errors:
            store.adjust(db, g.tournament, table_id, {e: int(values[e].strip().replace("−", "-"))
                                                      for e in seat.entrants}, form.reason.data.strip())
            flash(render(say("Round {number}, table {table}: the adjusted result counts.", number=seat.round,
                             table=seat.number)))
            return _back(tid)
    return render_template("tournaments/adjust.html", t=g.tournament, seat=seat, form=form, values=values,
                           errors=errors, result=result), 422 if request.method == "POST" else 200


def _paper() -> str:
    paper = (request.args.get("paper") or "a4").strip().lower()
    if paper not in packs.PAPERS:
        abort(404, render(say("Packs and standings print on A4 or Letter paper.")))
    return paper


def _seat_next(app, t, asked: int | None):
    """Seat the next round on a connection of its own (it runs in the heavy pool's thread)."""
    with borrowed(app) as db:
        return store.seat_next_round(db, t, round_number=asked)


@bp.get("/<tid>/rounds/<int:round_number>/pack")
def pack(tid: str, round_number: int):
    """The round's pack: started in the background on first ask, then offered when ready."""
    if not g.director:
        abort(403, render(say("Only the director's link can print the round packs.")))
    if not 1 <= round_number <= store.rounds_seated(get_db(), tid):
        abort(404, render(say("That round is not seated yet.")))
    paper = _paper()
    packs.start(current_app._get_current_object(), tid, round_number, request.host_url, paper)
    state = packs.status(current_app, tid, round_number, paper)
    template = "tournaments/_pack_status.html" if request.args.get("poll") else "tournaments/pack.html"
    response = Response(render_template(template, t=g.tournament, round_number=round_number, state=state,
                                        paper=paper))
    response.set_etag(state + language.tag(g.language))
    return response


@bp.get("/<tid>/rounds/<int:round_number>/pack.pdf")
def pack_pdf(tid: str, round_number: int):
    if not g.director:
        abort(403, render(say("Only the director's link can print the round packs.")))
    paper = _paper()
    path = packs.pack_path(current_app, tid, round_number, paper)
    if not path.exists():
        abort(404, render(say("The pack is not ready yet; its page shows the progress.")))
    return send_file(path, mimetype="application/pdf", as_attachment=True,
                     download_name=f"{safe_filename(g.tournament.title)}-round-{round_number}-{paper}.pdf")


@bp.get("/<tid>/standings.pdf")
def standings_pdf(tid: str):
    """The standings on paper, drawn once per version of the tournament, paper and language and then kept
    with the score sheets (its time stamp says when it was drawn: nothing has changed since)."""
    paper = _paper()
    version = store.version(get_db(), tid)
    key = ("standings", tid, version, paper, g.language)
    etag = f"standings-{tid}-{version}-{paper}{language.tag(g.language)}"
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        cache = current_app.extensions["courtier.sheets"]
        body = cache.get(key)
        if body is None:
            pool = heavy.pool()
            pool.check_room()  # busy: refused before the standings are worked out
            html = render_template("tournaments/standings_sheet.html", paper=sheets.paper_size(paper),
                                   **_standings_context())
            body = pool.run(pool.in_process, sheets.pdf_from_html, html, key=key)
            cache.put(key, body)
        response = Response(body, mimetype="application/pdf")
        response.headers["Content-Disposition"] = f'attachment; filename="standings-{tid}-{paper}.pdf"'
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response
