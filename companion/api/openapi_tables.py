"""The tables' part of the OpenAPI description (companion.api.openapi): the paths under ``/api/v1/tables``,
their schemas and the bearer key they take (docs/api.md, Tables)."""

from __future__ import annotations

from typing import Any

from .. import games
from ..entry import ENTRY

JSON = "application/json"
SCHEMAS = "#/components/schemas/"
KEY = [{"tableKey": []}]


def _ref(name: str) -> dict[str, str]:
    return {"$ref": SCHEMAS + name}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


def _errors(description: str) -> dict[str, Any]:
    return _json(_ref("Errors"), description)


SECURITY_SCHEMES = {"tableKey": {
    "type": "http", "scheme": "bearer",
    "description": "A table's key, as Authorization: Bearer <key>: its edit key changes and reads the table, its "
                   "view key only reads it. Never in the address: a key in the query string is refused (400).",
}}

VERSION = {"type": "integer", "minimum": 0, "description": "the table's version: the number of its latest change"}
NAMES = {"type": "array", "items": {"type": "string"}}

SCHEMAS_OF_TABLES: dict[str, Any] = {
    "TableRequest": {
        "type": "object", "required": ["game", "players"], "additionalProperties": False,
        "description": "A new table, checked as the new-table form checks it.",
        "properties": {
            "game": {"type": "string", "enum": [slug for slug in games.ENGINES if slug in ENTRY]},
            "players": {**NAMES, "description": "the names in seat order, as for POST /api/v1/score"},
            "options": {"type": ["object", "null"], "description": "house rules, as for POST /api/v1/score"},
            "title": {"type": ["string", "null"],
                      "description": "the table's name, at most 60 characters once trimmed; the game's name when "
                                     "left out"},
            "club": {"type": ["string", "null"],
                     "description": "a club's id: the table counts for the club; send the club's members' or "
                                    "director's key as Authorization: Bearer <key>"},
        },
    },
    "TableLinks": {
        "type": "object", "required": ["api", "view"],
        "properties": {"api": {"type": "string", "description": "this table over the API"},
                       "view": {"type": "string", "description": "the table's page that shows the scores"},
                       "edit": {"type": "string", "description": "the table's page that enters scores (holds the "
                                                                 "edit key: give it only to the scorers)"}},
    },
    "TableCreated": {
        "type": "object",
        "required": ["id", "edit_key", "view_key", "version", "game", "players", "options", "title", "links"],
        "properties": {
            "id": {"type": "string"}, "edit_key": {"type": "string"}, "view_key": {"type": "string"},
            "version": VERSION, "game": {"type": "string"}, "players": NAMES, "options": {"type": "object"},
            "title": {"type": "string"}, "links": _ref("TableLinks"),
            "club": {"type": "string", "description": "the club the table counts for, when one was given"},
        },
    },
    "Table": {
        "type": "object",
        "required": ["id", "game", "players", "options", "title", "version", "rounds", "scored"],
        "properties": {
            "id": {"type": "string"}, "game": {"type": "string"},
            "players": {**NAMES, "description": "the names now, in seat order (renames and late seats applied)"},
            "options": {"type": "object", "description": "the options as the table was started with them"},
            "title": {"type": "string"}, "version": VERSION,
            "rounds": {"type": "array", "description": "the rounds in play, numbered from 1 in this order"},
            "joined": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 2},
                       "description": "players seated late and the first round each plays; absent when none"},
            "scored": {**_ref("ScoredGame"), "description": "exactly what POST /api/v1/score answers for game, "
                                                            "players, options, rounds (and joined)"},
            "links": _ref("TableLinks"),
        },
    },
    "RoundChange": {
        "type": "object", "required": ["round", "base_version"],
        "properties": {
            "round": {"description": "one round, as POST /api/v1/score takes each of its rounds for this game"},
            "base_version": {"type": "integer", "minimum": 0,
                             "description": "the version the change is based on; another is a 409"},
            "after_time": {"type": "boolean", "description": "save a round on a tournament table after time was "
                                                             "called (it does not count in the standings)"},
        },
    },
    "BaseVersion": {
        "type": "object",
        "properties": {"base_version": {"type": "integer", "minimum": 0,
                                        "description": "the version the change is based on; another is a 409"}},
    },
    "TableChanged": {
        "type": "object", "required": ["version", "scored"],
        "properties": {"version": VERSION, "scored": _ref("ScoredGame")},
    },
    "Conflict": {
        "type": "object", "required": ["errors", "version"],
        "description": "Nothing was stored: the table is not where the change expected it.",
        "properties": {"errors": {"type": "array", "minItems": 1, "items": _ref("Problem")}, "version": VERSION},
    },
    "TableHistory": {
        "type": "object", "required": ["id", "version", "changes"],
        "properties": {
            "id": {"type": "string"}, "version": VERSION,
            "older": {"type": ["integer", "null"], "minimum": 1,
                      "description": "the `before` that asks for the page of older changes; null on the oldest"},
            "changes": {"type": "array", "description": "the page's changes (the newest 50, or fewer past about "
                                                        "200 KB), oldest first", "items": {
                "type": "object",
                "required": ["change", "kind", "summary", "details", "undoes", "undone_by", "data", "device", "at"],
                "properties": {
                    "change": {"type": "integer", "minimum": 1, "description": "its number: the version it made"},
                    "kind": {"type": "string", "enum": ["add", "edit", "delete", "undo", "redo", "rename", "seat"]},
                    "summary": {"type": "string", "description": "what happened, in words, as the history page "
                                                                 "says it"},
                    "details": {"type": "array", "items": {"type": "string"},
                                "description": "an edit's changes, one phrase each"},
                    "undoes": {"type": ["integer", "null"], "description": "the change an undo or redo cancels"},
                    "undone_by": {"type": ["integer", "null"], "description": "the change that cancelled this one"},
                    "data": {"description": "the round (or name) as stored; null for a delete, undo or redo"},
                    "device": {"type": "string", "description": "the phone's name, or API"},
                    "at": {"type": "string", "description": "when it was stored (UTC)"},
                    "typed_at": {"type": ["string", "null"],
                                 "description": "when a save kept on a phone without signal was typed"},
                },
            }},
        },
    },
}

TABLE_ID = {"name": "table_id", "in": "path", "required": True, "description": "the table's id",
            "schema": {"type": "string", "minLength": 1}}
NUMBER = {"name": "number", "in": "path", "required": True, "description": "the round's number on the board, from 1",
          "schema": {"type": "integer", "minimum": 1}}
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "description": "Any string, new for each change: sent again, the same key gets the first answer (with "
                   "Idempotent-Replayed: true) and stores nothing twice. A phone's offline queue uses the same keys.",
    "schema": {"type": "string", "minLength": 1, "maxLength": 255},
}
IF_NONE_MATCH = {"name": "If-None-Match", "in": "header", "required": False,
                 "description": "the ETag of the last answer: 304 while the table is at that version",
                 "schema": {"type": "string"}}

KEY_IN_ADDRESS = _errors("a key was put in the query string: it goes in the Authorization header")
NO_KEY = _errors("no key in the Authorization header")
WRONG_KEY = _errors("the key is not this table's, or is its view key on a change")
NO_TABLE = _errors("no table has this id (or, for a round, no round has this number)")
CONFLICT = _json(_ref("Conflict"), "stale base_version (another change came first), nothing to undo or redo, or a "
                                   "round saved after time was called; nothing was stored")
BAD = _errors("the body or the change cannot be used: every problem, in words (the round's as POST /api/v1/score "
              "names them)")
TOO_LARGE = _errors("the body is over 1 MB")
CHANGED = _json(_ref("TableChanged"), "stored: the table's new version, scored")


#: The bodies of docs/api.md's first worked examples of tables: a pool of Indian Rummy, and its first deal.
EXAMPLES = {
    "TableRequest": {"game": "indian-rummy", "players": ["Ann", "Ben", "Cat"], "options": {"variant": "pool101"}},
    "RoundChange": {"round": {"winner": "Ann", "hands": {"Ben": {"count": 30}, "Cat": {"count": 60}}},
                    "base_version": 0},
}


def _body(schema_name: str, required: bool = True) -> dict[str, Any]:
    media: dict[str, Any] = {"schema": _ref(schema_name)}
    if schema_name in EXAMPLES:
        media["example"] = EXAMPLES[schema_name]
    return {"required": required, "content": {JSON: media}}


def _change(operation_id: str, summary: str, description: str, body: dict[str, Any] | None,
            parameters: list[dict[str, Any]], created: bool = False) -> dict[str, Any]:
    operation: dict[str, Any] = {
        "operationId": operation_id, "tags": ["tables"], "summary": summary, "description": description,
        "security": KEY, "parameters": [*parameters, IDEMPOTENCY_KEY],
        "responses": {"201" if created else "200": CHANGED, "400": KEY_IN_ADDRESS, "401": NO_KEY, "403": WRONG_KEY,
                      "404": NO_TABLE, "409": CONFLICT, "413": TOO_LARGE, "422": BAD},
    }
    if body is not None:
        operation["requestBody"] = body
    return operation


def paths() -> dict[str, Any]:
    return {
        "/api/v1/tables": {"post": {
            "operationId": "table-create", "tags": ["tables"], "summary": "Start a table",
            "description": "The same checks, messages and creation limit as the new-table form. The answer holds "
                           "the table's keys: the edit key changes it, the view key reads it.",
            "requestBody": _body("TableRequest"),
            "responses": {"201": _json(_ref("TableCreated"), "the new table, its keys and links"),
                          "400": KEY_IN_ADDRESS, "401": _errors("club given without a key of the club"),
                          "403": _errors("club given with a key that is not the club's"),
                          "404": _errors("club given, and no club has this id"), "413": TOO_LARGE, "422": BAD,
                          "429": _errors("too many new tables from this address in a short time")},
        }},
        "/api/v1/tables/{table_id}": {"get": {
            "operationId": "table-show", "tags": ["tables"], "summary": "A table, its rounds and its scores",
            "security": KEY, "parameters": [TABLE_ID, IF_NONE_MATCH],
            "responses": {"200": _json(_ref("Table"), "the table now; its ETag names its version"),
                          "304": {"description": "the table is still at the version of If-None-Match"},
                          "400": KEY_IN_ADDRESS, "401": NO_KEY, "403": WRONG_KEY, "404": NO_TABLE},
        }},
        "/api/v1/tables/{table_id}/rounds": {"post": _change(
            "table-add-round", "Add a round",
            "As the page's save: stored only when base_version is the table's version and the game still scores.",
            _body("RoundChange"), [TABLE_ID], created=True)},
        "/api/v1/tables/{table_id}/rounds/{number}": {
            "put": _change("table-edit-round", "Correct a round",
                           "As the page's correction: the round numbered as the board numbers it, replaced.",
                           _body("RoundChange"), [TABLE_ID, NUMBER]),
            "delete": _change("table-delete-round", "Delete a round",
                              "As the page's delete: the round leaves the game; undo brings it back.",
                              _body("BaseVersion"), [TABLE_ID, NUMBER]),
        },
        "/api/v1/tables/{table_id}/undo": {"post": _change(
            "table-undo", "Undo the latest change still in force",
            "As the page's Undo. Without a body it undoes whatever change is latest; with base_version, only if the "
            "table is still at that version.", _body("BaseVersion", required=False), [TABLE_ID])},
        "/api/v1/tables/{table_id}/redo": {"post": _change(
            "table-redo", "Redo the latest undo",
            "As the page's Redo: only while no other change came after the undo.",
            _body("BaseVersion", required=False), [TABLE_ID])},
        "/api/v1/tables/{table_id}/history": {"get": {
            "operationId": "table-history", "tags": ["tables"], "summary": "Every change, in words and as data",
            "security": KEY, "parameters": [TABLE_ID, {
                "name": "before", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1},
                "description": "the page of changes numbered below this (the answer's `older`); the newest without"}],
            "responses": {"200": _json(_ref("TableHistory"), "a page of the log, oldest first"),
                          "400": KEY_IN_ADDRESS, "422": _errors("before is not a change's number"),
                          "401": NO_KEY, "403": WRONG_KEY, "404": NO_TABLE},
        }},
    }


__all__ = ["SCHEMAS_OF_TABLES", "SECURITY_SCHEMES", "paths"]
