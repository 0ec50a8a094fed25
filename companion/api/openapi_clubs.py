"""The clubs' part of the OpenAPI description (companion.api.openapi): the paths under ``/api/v1/clubs``,
their schemas and the club key they take (docs/api.md, Clubs)."""

from __future__ import annotations

from typing import Any

from .openapi_tables import KEY_IN_ADDRESS, NO_KEY, TOO_LARGE, _errors, _json, _ref

CLUB_KEY = [{"clubKey": []}]

SECURITY_SCHEMES = {"clubKey": {
    "type": "http", "scheme": "bearer",
    "description": "A club's members' key or director's key, as Authorization: Bearer <key>: either reads the club "
                   "and starts tables that count for it.",
}}

RATING = {
    "type": "object", "required": ["mu", "sigma", "ordinal"],
    "description": "openskill's Plackett-Luce rating (its defaults) after every finished game of the player in this "
                   "game, in finishing order; ordinal is mu - 3 sigma, the number the pages show",
    "properties": {"mu": {"type": "number"}, "sigma": {"type": "number"}, "ordinal": {"type": "number"}},
}

SCHEMAS_OF_CLUBS: dict[str, Any] = {
    "ClubRequest": {
        "type": "object", "required": ["name"], "additionalProperties": False,
        "properties": {"name": {"type": "string", "description": "the club's name: 1 to 40 characters, one line"}},
    },
    "ClubCreated": {
        "type": "object", "required": ["id", "name", "director_key", "member_key", "links"],
        "properties": {
            "id": {"type": "string"}, "name": {"type": "string"},
            "director_key": {"type": "string", "description": "manages the club (its roster); keep it to yourself"},
            "member_key": {"type": "string", "description": "reads the club and starts tables for it; share it"},
            "links": {"type": "object", "required": ["api", "members", "director"],
                      "properties": {"api": {"type": "string"}, "members": {"type": "string"},
                                     "director": {"type": "string"}}},
        },
    },
    "Club": {
        "type": "object", "required": ["id", "name", "players", "tables"],
        "properties": {
            "id": {"type": "string"}, "name": {"type": "string"},
            "players": {"type": "array", "description": "the roster, by name", "items": {
                "type": "object", "required": ["name", "games"],
                "properties": {
                    "name": {"type": "string"},
                    "former": {"type": "boolean", "description": "listed under former members (absent if not)"},
                    "games": {"type": "object", "description": "per game finished: played, won and the rating",
                              "additionalProperties": {
                                  "type": "object", "required": ["played", "won", "rating"],
                                  "properties": {"played": {"type": "integer", "minimum": 1},
                                                 "won": {"type": "integer", "minimum": 0}, "rating": RATING}}},
                },
            }},
            "tables": {"type": "array", "description": "the club's tables, newest first (at most 200)", "items": {
                "type": "object", "required": ["id", "game", "title", "players", "finished", "finished_at"],
                "properties": {"id": {"type": "string"}, "game": {"type": "string"}, "title": {"type": "string"},
                               "players": {"type": "array", "items": {"type": "string"}},
                               "finished": {"type": "boolean"},
                               "finished_at": {"type": ["string", "null"]}},
            }},
            "links": {"type": "object"},
        },
    },
}

CLUB_ID = {"name": "club_id", "in": "path", "required": True, "description": "the club's id",
           "schema": {"type": "string", "minLength": 1}}


def paths() -> dict[str, Any]:
    return {
        "/api/v1/clubs": {"post": {
            "operationId": "club-create", "tags": ["clubs"], "summary": "Start a club",
            "description": "A club is kept like a table: an id and two keys, no accounts. Tables started with "
                           "POST /api/v1/tables and \"club\" count for it.",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": _ref("ClubRequest"), "example": {"name": "Thursday Club"}}}},
            "responses": {"201": _json(_ref("ClubCreated"), "the new club, its keys and links"),
                          "400": KEY_IN_ADDRESS, "413": TOO_LARGE,
                          "422": _errors("the body or the name cannot be used, in words"),
                          "429": _errors("too many new clubs and tables from this address in a short time")},
        }},
        "/api/v1/clubs/{club_id}": {"get": {
            "operationId": "club-show", "tags": ["clubs"], "summary": "A club's record: its players, their ratings, "
                                                                     "its tables",
            "security": CLUB_KEY, "parameters": [CLUB_ID],
            "responses": {"200": _json(_ref("Club"), "the club now"), "400": KEY_IN_ADDRESS, "401": NO_KEY,
                          "403": _errors("the key is not a key of this club"),
                          "404": _errors("no club has this id")},
        }},
    }


__all__ = ["SCHEMAS_OF_CLUBS", "SECURITY_SCHEMES", "paths"]
