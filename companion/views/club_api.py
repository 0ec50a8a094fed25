"""Clubs over the JSON API (API.md, Clubs): start a club, read its record with either of its keys.

A table that counts for a club is started by ``POST /api/v1/tables`` with ``"club"`` and the club's
member or director key (:func:`api_common.club_for_key`). This module reads requests and
shapes answers; the record itself is companion.clubs.
"""

from __future__ import annotations

from flask import Blueprint, current_app, url_for

from ..clubs import store
from ..core.messages import say
from ..games.base import InputError, Problem, Problems
from ..storage.db import get_db
from .api import json_body
from .api_common import answer_refusals, club_for_key

bp = Blueprint("club_api", __name__, url_prefix="/api/v1/clubs")
answer_refusals(bp)

NEW_CLUB_FIELDS = ("name",)


def links(club: store.Club) -> dict[str, str]:
    return {"api": url_for("club_api.show", club_id=club.id, _external=True),
            "members": url_for("clubs.show", club_id=club.id, key=club.member_key, _external=True),
            "director": url_for("clubs.show", club_id=club.id, key=club.director_key, _external=True)}


@bp.post("")
def create():
    body = json_body()
    if not isinstance(body, dict):
        raise InputError([Problem("$", say('send a JSON object: {"name": "..."}'))])
    found = Problems()
    for name in body:
        if name not in NEW_CLUB_FIELDS:
            found.add(name, say("a new club takes only its name; leave this field out"))
    wrong = store.name_problem(body.get("name"))
    if wrong:
        found.add("name", wrong)
    found.raise_if_any()
    club = store.create_club(get_db(), body["name"])
    answer = {"id": club.id, "name": club.name, "director_key": club.director_key, "member_key": club.member_key,
              "links": links(club)}
    response = current_app.make_response((answer, 201))
    response.headers["Location"] = answer["links"]["api"]
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/<club_id>")
def show(club_id: str):
    club = club_for_key(club_id)
    body = store.as_json(get_db(), club)
    body["links"] = {"api": url_for("club_api.show", club_id=club.id, _external=True)}
    response = current_app.make_response(body)
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["Vary"] = "Authorization"
    return response
