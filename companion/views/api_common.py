"""What the tables' and the clubs' JSON calls share: a refusal in words with its status, bad input as
422, and the club a key opens (a table started for a club is a tables call that needs the club's key).
"""

from __future__ import annotations

from typing import Any

from flask import current_app, request

from ..clubs import store
from ..core.messages import localised, render, say
from ..games.base import InputError
from ..storage.db import get_db

WHERE_KEY = "Authorization"
#: The realm a refused club key names (a table's is "Courtier tables").
CLUBS_REALM = "Courtier clubs"


class Refused(Exception):
    """A call answered with a status and one problem in words (401, 403, 404, 409...)."""

    def __init__(self, status: int, where: str, message: str, realm: str = "Courtier tables", **extra: Any):
        super().__init__(message)
        self.status, self.where, self.message, self.realm, self.extra = status, where, message, realm, extra


def refused(error: Refused):
    response = current_app.make_response(({"errors": [{"where": error.where, "message": render(error.message)}],
                                            **error.extra}, error.status))
    if error.status == 401:
        response.headers["WWW-Authenticate"] = f'Bearer realm="{error.realm}"'
    return response


def input_error(error: InputError):
    return localised(error.as_json()), 422


def answer_refusals(bp) -> None:
    """A blueprint's refusals and bad input, answered as every JSON call answers them."""
    bp.register_error_handler(Refused, refused)
    bp.register_error_handler(InputError, input_error)


def club_for_key(club_id: object, where: str = "id") -> store.Club:
    """The club, once the key in the Authorization header is its member or director key."""
    header = request.headers.get("Authorization", "").strip()
    scheme, _, key = header.partition(" ")
    if not header or scheme.lower() != "bearer" or not key.strip():
        raise Refused(401, WHERE_KEY, say("this call needs the club's member or director key, sent as the header "
                                          "Authorization: Bearer <key>"), realm=CLUBS_REALM)
    if not isinstance(club_id, str) or not club_id:
        raise Refused(422, where, say("name the club by its id, as POST /api/v1/clubs gave it"))
    try:
        club = store.get_club(get_db(), club_id)
    except store.ClubNotFound:
        raise Refused(404, where, say("there is no club with this id; check it, or start a club with "
                                      "POST /api/v1/clubs")) from None
    if club.role(key.strip()) is None:
        raise Refused(403, WHERE_KEY, say("this key is not a key of this club; use the members' or the director's "
                                          "key the club was given"))
    return club
