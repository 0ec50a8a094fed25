"""Referee screens: one question each (who won the Battle, what may I do, ...)."""

from __future__ import annotations

from functools import partial

from flask import Blueprint, abort, render_template, request

from .. import games, referee
from ..core.messages import say
from ..entry import ENTRY
from ..games.base import InputError
from ..storage import tables
from ..storage.db import get_db
from ..web import heavy
from .common import known_tables, states

bp = Blueprint("referee", __name__, url_prefix="/referee")


def _spec(game: str, question: str):
    spec = getattr(ENTRY.get(game), "REFEREE", {}).get(question)
    if spec is None:
        abort(404, say("Courtier has no such referee question."))
    return spec


@bp.get("/")
def index():
    questions = [(games.ENGINES[slug], q, spec[0]) for slug, module in ENTRY.items()
                 for q, spec in getattr(module, "REFEREE", {}).items()]
    return render_template("referee/index.html", questions=questions)


@bp.get("/indian-rummy/groups")
def rummy_groups():
    """The live check of typed groups (IR-4), as a fragment htmx swaps in beside the field."""
    text = next((v for k, v in request.args.items() if k.endswith("groups")), "")
    return render_template("referee/_groups.html", summary=ENTRY["indian-rummy"].group_summary(
        request.args.get("wild"), text))


def _table_options() -> dict | None:
    """The options of the table named by ``?table=`` (a table's id is public), or None."""
    if not request.args.get("table"):
        return None
    try:
        # The state cache's copy: the same lists on every request, so the judge builds its list once.
        return tables.state_by_id(get_db(), request.args["table"], known_tables(), states()).table.options
    except tables.TableNotFound:
        return None


@bp.get("/royalty/judge")
def royalty_judge():
    """The word judge beside a word being entered (RY-17; with a target, the capture check of RY-7)."""
    verdict = ENTRY["royalty"].judge_summary(request.args.get("word"), request.args.get("target"), _table_options())
    return render_template("referee/_judge.html", verdict=verdict)


def _ask(game: str, question: str, body: dict, context: dict):
    """The referee's answer; a whole-deal check in the bounded pool of checks, as over the API."""
    from .api import POOLED

    if (game, question) in POOLED:
        return heavy.checks().run(partial(referee.ask, game, question, body, **context))
    return referee.ask(game, question, body, **context)


@bp.route("/<game>/<question>", methods=["GET", "POST"])
def page(game: str, question: str):
    title, form_class, body_from, field_for = _spec(game, question)
    form = form_class(formdata=request.form if request.method == "POST" else None)
    result, status, problems = None, 200, []
    context, table_words = {}, None
    table_options = _table_options() if game == "royalty" else None
    if table_options is not None:  # opened from a table: its own list and house words (RY-17)
        context["wordlist"] = table_words = ENTRY[game].wordlist_for(table_options)
    if request.method == "POST":
        if form.validate():
            try:
                result = _ask(game, question, body_from(form), context)
            except InputError as err:
                status = 422
                for problem in err.problems:
                    name = field_for(problem.where)
                    if name and name in form:
                        form[name].errors = [*form[name].errors, problem.message]
                    else:
                        problems.append(problem.message)
        else:
            status = 422
    return render_template(f"referee/{game}-{question}.html", title=title, form=form, result=result,
                           problems=problems, engine=games.ENGINES[game], game=game,
                           pack=ENTRY[game].pack() if hasattr(ENTRY[game], "pack") else None,
                           entry=ENTRY[game], table_words=table_words,
                           table_id=request.args.get("table") if table_words is not None else None), status
