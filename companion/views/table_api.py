"""Tables over the JSON API (API.md, Tables): everything a phone does to a table, a program can do.

The same table, keys, versions and entry keys as the pages: a write is :func:`tables.append`, as
the pages' saves, corrections, deletes, undos and redos are; a new table is
:func:`table_actions.start_table`, as the new-table form's. Keys travel only in the
``Authorization`` header (``Bearer <key>``): the edit key writes and reads, the view key
(:func:`table_actions.view_key`) reads. This module reads requests and shapes answers, no more.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, current_app, g, request, url_for

from .. import games
from ..api.answers import spoken
from ..clubs import store as clubs
from ..core.messages import localised, say
from ..core.round_words import round_text
from ..entry import ENTRY
from ..games.base import InputError, Problem
from ..storage import history as history_words
from ..storage import tables
from ..storage.db import get_db
from ..tournaments import store as tournament_store
from ..web import language
from . import table_actions
from .api import json_body
from .api_common import WHERE_KEY, Refused, answer_refusals, club_for_key
from .common import known_tables, states

bp = Blueprint("table_api", __name__, url_prefix="/api/v1/tables")
answer_refusals(bp)

#: How an API change is named in a table's history (a phone's changes carry the phone's name).
DEVICE = "API"

#: What a table's rounds are called (the entry's ROUND_NAME), in the caller's language.

#: The fields a new table takes (API.md); any other is refused rather than silently dropped.
NEW_TABLE_FIELDS = ("game", "players", "options", "title", "club")

#: Query parameters that would carry a key in an address: refused on every API call.
KEY_PARAMETERS = frozenset({"key", "edit_key", "view_key", "member_key", "director_key", "club_key", "api_key",
                            "apikey", "access_token", "token", "auth", "authorization", "bearer"})

#: The longest Idempotency-Key taken; any string up to it is kept (as a digest when it is not an entry key).
IDEMPOTENCY_KEY_CHARS = 255

@bp.before_app_request
def keys_stay_out_of_addresses():
    """A key in an API call's address is refused before anything else: addresses end up in server logs,
    proxies and browser histories, the Authorization header does not."""
    if not request.path.startswith("/api/"):
        return None
    named = next((name for name in request.args if name.lower() in KEY_PARAMETERS), None)
    if named is None and request.args:
        named = _parameter_holding_a_key()
    if named is None:
        return None
    return {"errors": [{"where": named, "message": localised(say(
        "a key never goes in the address of an API call (here as {name}=… in the query string), where "
        "server logs and browser histories keep it: send it in the Authorization header instead, as "
        "Authorization: Bearer <key>", name=named))}]}, 400


def _parameter_holding_a_key() -> str | None:
    """The query parameter, under whatever name, whose value is a key of the table or the club the call
    names (in its path, or a new table's club in its body); None when there is none."""
    is_a_key = _the_calls_keys()
    if is_a_key is None:
        return None
    return next((name for name, value in request.args.items(multi=True) if is_a_key(value)), None)


def _the_calls_keys():
    """A test of whether a text is a key of the table or club this call names, or None when it names none."""
    named = request.view_args or {}
    if named.get("table_id"):
        try:
            table = tables.get_table(get_db(), named["table_id"], known_tables())
        except tables.TableNotFound:
            return None
        keys = (table.edit_key, table_actions.view_key(table))
        return keys.__contains__
    club_id = named.get("club_id") or (_new_tables_club() if request.endpoint == "table_api.create" else None)
    if not isinstance(club_id, str) or not club_id:
        return None
    try:
        club = clubs.get_club(get_db(), club_id)
    except clubs.ClubNotFound:
        return None
    return lambda value: club.role(value) is not None


def _new_tables_club() -> object:
    """The club a new table's body names, when the body is a JSON object (its problems are told later)."""
    try:
        body = json_body()
    except InputError:
        return None
    return body.get("club") if isinstance(body, dict) else None


# ---------------------------------------------------------------------------------------------
# Keys and bodies


def _same(given: str, secret: str) -> bool:
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"), secret.encode())


def _key() -> str:
    header = request.headers.get("Authorization", "").strip()
    scheme, _, key = header.partition(" ")
    if not header:
        raise Refused(401, WHERE_KEY, say("this call needs the table's key, sent as the header Authorization: "
                                          "Bearer <key> (the edit key changes the table; the edit or view key reads "
                                          "it)"))
    if scheme.lower() != "bearer" or not key.strip():
        raise Refused(401, WHERE_KEY, say("send the table's key as Authorization: Bearer <key>"))
    return key.strip()


def _table(table_id: str, write: bool) -> tables.Table:
    """The table as stored, once the key in the Authorization header may do this call."""
    key = _key()
    try:
        table = tables.get_table(get_db(), table_id, known_tables())
    except tables.TableNotFound:
        raise Refused(404, "id", say("there is no table with this id; check it, or start a new table with "
                                     "POST /api/v1/tables")) from None
    if _same(key, table.edit_key):
        return table
    if _same(key, table_actions.view_key(table)):
        if write:
            raise Refused(403, WHERE_KEY, say("this is the table's view key: it reads the table but cannot change "
                                              "it; send the edit key to change it"))
        return table
    raise Refused(403, WHERE_KEY, say("this key is not a key of this table; check it, or ask the table for its "
                                      "edit or view key again"))


def _object_body(optional: bool = False) -> dict[str, Any]:
    if optional and not request.get_data(cache=True).strip():
        return {}
    body = json_body()
    if not isinstance(body, dict):
        raise InputError([Problem("$", say("the body must be a JSON object"))])
    return body


def _base_version(body: dict[str, Any], current: int | None = None) -> int:
    """The version a change is based on; ``current`` stands in when it may be left out (undo, redo)."""
    base = body.get("base_version")
    if base is None and current is not None:
        return current
    if base is None:
        raise InputError([Problem("base_version", say("give the version this change is based on: the table's "
                                                      "version as GET /api/v1/tables/<id> last answered it"))])
    if isinstance(base, bool) or not isinstance(base, int) or base < 0:
        raise InputError([Problem("base_version", say("the version is a whole number, 0 or more, as the table "
                                                      "answered it"))])
    return base


def _round(body: dict[str, Any]) -> Any:
    if "round" not in body:
        raise InputError([Problem("round", say("give the round to store, as one of the rounds POST /api/v1/score "
                                               "takes for this game"))])
    return body["round"]


def _number(table: tables.Table, hands, number: str) -> int:
    """The slot of the round numbered ``number`` on the board, or a 404 in words."""
    noun = _round_word(table)
    slot = table_actions.slot_of(hands, int(number)) if number.isdigit() and len(number) < 6 else None
    if slot is None:
        raise Refused(404, "number", say("there is no {noun} {number} in play at this table: it has {count}, "
                                         "numbered from 1 as the board numbers them", noun=noun, number=number,
                                         count=len(hands)))
    return slot


def _round_word(table: tables.Table) -> str:
    return round_text("word", ENTRY[table.game].ROUND_NAME)


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not key.strip() or len(key) > IDEMPOTENCY_KEY_CHARS:
        raise InputError([Problem("Idempotency-Key", say("an Idempotency-Key is 1 to {most} characters, a new one "
                                                         "for each change", most=IDEMPOTENCY_KEY_CHARS))])
    return table_actions.entry_key_for(key)


# ---------------------------------------------------------------------------------------------
# Answers


def _changed(version: int, scored, status: int = 200):
    return {"version": version, "scored": spoken(scored)}, status


def _replayed(table: tables.Table, entry_key: str | None, kind: str, data: Any = None):
    """The first answer to a change already stored under this entry key, or None when none is."""
    if entry_key is None:
        return None
    seq = tables.stored_seq(get_db(), table.id, entry_key)
    return None if seq is None else _first_answer(table, seq, kind, data)


def _first_answer(table: tables.Table, seq: int, kind: str, data: Any):
    then = table_actions.state_at(get_db(), table, seq, states())
    event = then.log[-1]
    was = table_actions.change_kind(event, then.log)
    if was != kind or (kind in ("add", "edit") and event.data != data):
        told = table_actions.history_lines(then.table, then.log)[-1].summary
        raise InputError([Problem("Idempotency-Key", say("this key was already used for another change (change "
                                                         "#{change}: {told}); send a new key with each change",
                                                         change=seq, told=told))])
    body, status = _changed(seq, then.scored, 201 if kind == "add" else 200)
    response = current_app.make_response((body, status))
    response.headers["Idempotent-Replayed"] = "true"
    return response


def _append(table: tables.Table, base: int, change: tables.Change, entry_key: str | None, status: int = 200):
    try:
        seq, scored = tables.append(get_db(), table, base, change, device=DEVICE, cache=states(),
                                    entry_key=entry_key)
    except tables.AlreadyStored as stored:  # the same call, sent twice at once: the other one won
        return _first_answer(table, stored.seq, change.kind, change.data)
    except tables.StaleVersion as stale:
        raise _stale(base, stale.current) from None
    except tables.NothingToUndo:
        left = (say("there is nothing left to redo at this table; nothing was changed") if change.kind == "redo"
                else say("there is nothing left to undo at this table; nothing was changed"))
        raise Refused(409, "$", left, version=tables.version(get_db(), table.id)) from None
    return _changed(seq, scored, status)


def _stale(base: int, current: int) -> Refused:
    return Refused(409, "base_version", say("the table changed after version {base}: it is now at version "
                                            "{current}, and nothing was stored; read it again and send the change "
                                            "based on version {current}", base=base, current=current),
                   version=current)


def _not_after_time(table: tables.Table, body: dict[str, Any], version: int) -> None:
    """A round saved after time was called on the table's tournament round is asked for once more, as the
    page asks: it does not count in the tournament (``after_time: true`` saves it anyway)."""
    after_time = body.get("after_time")
    if after_time is not None and not isinstance(after_time, bool):
        raise InputError([Problem("after_time", say("after_time is true or false: true saves a round on this "
                                                    "table after time was called on its tournament round"))])
    called = tournament_store.time_called_on(get_db(), table.id)
    if called and after_time is not True:
        noun = _round_word(table)
        raise Refused(409, "after_time", say("time was called on round {round} of {title}: this {noun} will not "
                                             "count in the tournament's standings; send it again with "
                                             '"after_time": true to save it on this table anyway',
                                             round=called["round"], title=called["title"], noun=noun),
                      version=version)


def _links(table: tables.Table, edit_key: str | None = None) -> dict[str, str]:
    links = {"api": url_for("table_api.show", table_id=table.id, _external=True),
             "view": url_for("tables.show", table_id=table.id, _external=True)}
    if edit_key:
        links["edit"] = url_for("tables.show", table_id=table.id, key=edit_key, _external=True)
    return links


# ---------------------------------------------------------------------------------------------
# The calls


@bp.post("")
def create():
    body = _object_body()
    found = games.Problems()
    for name in body:
        if name not in NEW_TABLE_FIELDS:
            found.add(name, say("a new table takes game, players, options, title and club; leave this field out"))
    club = None
    if body.get("club") is not None:  # a table for a club: its member or director key, checked first

        club = club_for_key(body["club"], where="club")
    options = {} if body.get("options") is None else body["options"]
    if not isinstance(options, dict):  # 0, false, "" and [] are not "no options": they are refused
        found.add("options", say("options must be an object (or left out for the defaults)"))
    title = body.get("title") if body.get("title") is not None else ""
    wrong = table_actions.playable_problem(body.get("game"))
    if wrong:
        found.add("game", wrong)
    else:  # every problem at once: the seats and the name too, as the form shows them all
        table_actions.check_new_table(body["game"], body.get("players"), title, found)
    found.raise_if_any()
    table = table_actions.start_table(get_db(), body["game"], body.get("players"), options, title, device=DEVICE,
                                      club=club)
    answer = {"id": table.id, "edit_key": table.edit_key, "view_key": table_actions.view_key(table), "version": 0,
              "game": table.game, "players": list(table.players), "options": table.options, "title": table.title,
              "links": _links(table, table.edit_key)}
    if club is not None:
        answer["club"] = club.id
    response = current_app.make_response((answer, 201))
    response.headers["Location"] = answer["links"]["api"]
    return response


@bp.get("/<table_id>")
def show(table_id: str):
    """The table and its scores; 304 while its version is the one the caller has (as the board's refresh)."""
    table = _table(table_id, write=False)
    version = tables.version(get_db(), table.id)
    if request.if_none_match.contains(_etag(table, version)):
        response = current_app.response_class(status=304)
    else:
        now = tables.state(get_db(), table, states())
        version = now.version
        body = {"id": table.id, "game": table.game, "players": list(now.table.players),
                "options": now.table.options, "title": table.title, "version": version,
                "rounds": [data for _, data in now.hands], "scored": spoken(now.scored),
                "links": _links(table)}
        if now.table.joined:
            body["joined"] = dict(now.table.joined)
        response = current_app.make_response(body)
    response.set_etag(_etag(table, version))
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["Vary"] = "Authorization"
    return response


def _etag(table: tables.Table, version: int) -> str:
    return f"{table.id}-{version}{language.tag(g.language)}"


def _round_sent(table_id: str, kind: str):
    """A round added or corrected: the table (its key checked for writing), the body, the idempotency
    key, the round, and the first answer when the key was used before (else None)."""
    table = _table(table_id, write=True)
    body = _object_body()
    entry_key = _idempotency_key()
    data = _round(body)
    return table, body, entry_key, data, _replayed(table, entry_key, kind, data)


@bp.post("/<table_id>/rounds")
def add_round(table_id: str):
    table, body, entry_key, data, replay = _round_sent(table_id, "add")
    if replay is not None:
        return replay
    base = _base_version(body)
    _not_after_time(table, body, tables.version(get_db(), table.id))
    return _append(table, base, tables.Change("add", data=data), entry_key, status=201)


@bp.put("/<table_id>/rounds/<number>")
def edit_round(table_id: str, number: str):
    table, body, entry_key, data, replay = _round_sent(table_id, "edit")
    if replay is not None:
        return replay
    now, base = _current(table, body)
    slot = _number(now.table, now.hands, number)
    _not_after_time(table, body, now.version)
    return _append(table, base, tables.Change("edit", slot, data), entry_key)


@bp.delete("/<table_id>/rounds/<number>")
def delete_round(table_id: str, number: str):
    table = _table(table_id, write=True)
    body = _object_body(optional=True)
    entry_key = _idempotency_key()
    replay = _replayed(table, entry_key, "delete")
    if replay is not None:
        return replay
    now, base = _current(table, body)
    return _append(table, base, tables.Change("delete", _number(now.table, now.hands, number)), entry_key)


def _current(table: tables.Table, body: dict[str, Any]) -> tuple[tables.State, int]:
    """The table now, once the change's base version is its version: a round's number is read on the board
    the caller saw."""
    base = _base_version(body)
    now = tables.state(get_db(), table, states())
    if base != now.version:
        raise _stale(base, now.version)
    return now, base


@bp.post("/<table_id>/undo")
def undo(table_id: str):
    return _undo_or_redo(table_id, "undo")


@bp.post("/<table_id>/redo")
def redo(table_id: str):
    return _undo_or_redo(table_id, "redo")


def _undo_or_redo(table_id: str, kind: str):
    """Undo the latest change still in force, or redo the latest undo, as the page's buttons do; a
    ``base_version`` makes sure it is the change the caller saw."""
    table = _table(table_id, write=True)
    body = _object_body(optional=True)
    entry_key = _idempotency_key()
    replay = _replayed(table, entry_key, kind)
    if replay is not None:
        return replay
    base = _base_version(body, current=tables.version(get_db(), table.id))
    return _append(table, base, tables.Change(kind), entry_key)


@bp.get("/<table_id>/history")
def history(table_id: str):
    """The changes, oldest first, in words as the history page tells them and as the log keeps them: the
    newest page of them (as the page holds: 50 changes or about 200 KB), ``?before=<change>`` for older ones,
    so that a long game with full judge's logs is read a bounded answer at a time."""
    table = _table(table_id, write=False)
    before = request.args.get("before")
    if before is not None and not (before.isdigit() and int(before) >= 1):
        raise Refused(422, "before", say("before is the number of a change, 1 or more, as the answer's "
                                         "older gives it"))
    now = tables.state(get_db(), table, states())
    page = history_words.page(now.log, int(before) if before is not None else None)
    changes = []
    for line in table_actions.history_lines(now.table, now.log, shown={e.seq for e in page.events}):
        e = line.event
        changes.append({"change": e.seq, "kind": table_actions.change_kind(e, now.log), "summary": line.summary,
                        "details": list(line.changes), "undoes": e.undoes, "undone_by": line.undone_by,
                        "data": e.data, "device": e.device, "at": e.created_at, "typed_at": e.typed_at})
    return localised({"id": table.id, "version": now.version, "changes": changes, "older": page.older})
