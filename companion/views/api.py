"""The stateless JSON API (API.md): scoring and, as games land, referees.

Every word an answer holds is said in the caller's language (``Accept-Language``; English when absent or
not offered, exactly as ever), and each round's why comes as data too (:func:`..api.answers.spoken`).
"""

from __future__ import annotations

import json

from flask import Blueprint, request

from .. import games
from ..api.answers import spoken
from ..core import limits, messages
from ..games.base import InputError
from ..web import heavy

bp = Blueprint("api", __name__, url_prefix="/api/v1")

#: Referee questions that check a whole deal: answered in the bounded pool of checks (companion.web.heavy).
POOLED = frozenset({("royalty", "monarchy")})


def json_body():
    """The request's JSON with its texts composed (NFC) and its depth bounded (:func:`limits.read_json`), or
    an InputError that says why it will not do."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        raise InputError([games.Problem("$", messages.say("the body is empty; send a JSON object"))])
    try:
        return limits.read_json(raw)
    except limits.TooDeep as err:
        raise InputError([games.Problem("$", err.args[0])]) from None
    except ValueError as err:
        if isinstance(err, json.JSONDecodeError):
            said = messages.say("the body is not valid JSON ({error} at line {line}, column {column})",
                                error=err.msg, line=err.lineno, column=err.colno)
        else:
            said = messages.say("the body is not valid JSON")
        raise InputError([games.Problem("$", said)]) from None


@bp.errorhandler(InputError)
def input_error(error: InputError):
    return messages.localised(error.as_json()), 422


@bp.post("/score")
def score():
    return spoken(games.score(json_body()))


@bp.get("/games")
def game_list():
    return {"games": [{"slug": e.SLUG, "title": e.TITLE, "min_players": e.MIN_PLAYERS,
                       "max_players": e.MAX_PLAYERS, "options": e.OPTIONS}
                      for e in games.ENGINES.values()]}


@bp.post("/referee/<game>/<question>")
def ask_referee(game: str, question: str):
    from .. import referee

    if (game, question) not in referee.REFEREES:
        known = ", ".join(f"{g}/{q}" for g, q in sorted(referee.REFEREES))
        said = messages.say("no referee question {question}; known: {known}", question=f"{game}/{question}",
                            known=known)
        return {"errors": [{"where": "$", "message": messages.render(said)}]}, 404
    body = json_body()
    if (game, question) in POOLED:
        return messages.localised(heavy.checks().run(referee.ask, game, question, body))
    return messages.localised(referee.ask(game, question, body))


@bp.get("/openapi.json")
def openapi_description():
    """The OpenAPI description of this API, built from the registered games and referees."""
    from ..api import openapi

    return openapi.description()
