"""Tables over the JSON API (API.md, Tables): each call and each of its answers, the keys, versions and
entry keys the phones use, and the pages' own checks and words.

The games are worked by hand: in pool rummy (IR-9) a deal's loser adds their count to their total and the
winner adds 0; a player reaching 101 is out. In Rummathon Royale (RR-1, RR-2) the player who went out
collects the cards left in the other hands: 1-9 are 5 each, 10-12 are 10.
"""

from __future__ import annotations

import html
import json
import logging
import re
from pathlib import Path

import pytest

from companion import create_app
from companion.storage import tables
from companion.storage.db import borrowed
from tests import test_tournament_director as director
from tests.conftest import new_table
from tests.test_offline import post as phone_save
from tests.test_offline import stored_events

TABLES = "/api/v1/tables"
POOL = {"game": "indian-rummy", "players": ["Ann", "Ben", "Cat"], "options": {"variant": "pool101"}}
# Ben 30 and Cat 60 to Ann's valid show: totals Ann 0, Ben 30, Cat 60 (IR-9).
DEAL_1 = {"winner": "Ann", "hands": {"Ben": {"count": 30}, "Cat": {"count": 60}}}
# Ben wins; Ann 25 and Cat 45: totals Ann 25, Ben 30, Cat 105, and Cat is out at 101 (IR-9).
DEAL_2 = {"winner": "Ben", "hands": {"Ann": {"count": 25}, "Cat": {"count": 45}}}


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def start(client, body=None) -> dict:
    response = client.post(TABLES, json=body or POOL)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def add(client, table, data, base, key=None, **headers):
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.post(f"{TABLES}/{table['id']}/rounds", json={"round": data, "base_version": base},
                       headers={**bearer(table["edit_key"]), **headers})


def read(client, table, key=None):
    response = client.get(f"{TABLES}/{table['id']}", headers=bearer(key or table["edit_key"]))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def scored_by_the_stateless_api(client, body) -> dict:
    request = {k: body[k] for k in ("game", "players", "options", "rounds")}
    if "joined" in body:
        request["joined"] = body["joined"]
    response = client.post("/api/v1/score", json=request)
    assert response.status_code == 200
    return response.get_json()


def one_problem(response, status, where):
    assert response.status_code == status, response.get_json()
    errors = response.get_json()["errors"]
    assert [e["where"] for e in errors] == [where]
    return errors[0]["message"]


# ---------------------------------------------------------------------------------------------
# Starting a table


def test_a_table_started_over_the_api_is_the_table_the_phones_open(client):
    response = client.post(TABLES, json={**POOL, "title": "  Friday pool  "})
    assert response.status_code == 201
    table = response.get_json()
    assert table["version"] == 0 and table["players"] == ["Ann", "Ben", "Cat"]
    assert table["title"] == "Friday pool"
    assert response.headers["Location"] == f"http://localhost{TABLES}/{table['id']}"
    assert table["links"]["edit"] == f"http://localhost/t/{table['id']}?key={table['edit_key']}"
    assert table["view_key"] not in (table["edit_key"], table["id"])
    # The edit link the answer gives opens the table on a phone, ready for scores.
    page = client.get(table["links"]["edit"]).get_data(as_text=True)
    assert "You can enter scores on this phone." in page and "Friday pool" in page
    with borrowed(client.application) as db:
        assert [e.device for e in tables.events(db, table["id"])] == []


@pytest.mark.parametrize(("players", "title", "where"), [
    (["Ann", "ann", "Cat"], "", "players[1]"),
    (["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"], "", "players"),
    (["Ann", "B" * 41, "Cat"], "", "players[1]"),
    (["Ann", "Ben", "Cat"], "T" * 61, "title"),
])
def test_a_new_table_is_refused_with_the_forms_own_words(client, players, title, where):
    """The API and the new-table form run one check (tables.check_new_table): the same message."""
    answer = client.post(TABLES, json={"game": "rummathon-royale", "players": players, "title": title})
    message = one_problem(answer, 422, where)
    form = {f"seat{i}": name for i, name in enumerate(players, 1)} | {"title": title, "opt-schedule": "all"}
    page = client.post("/new/rummathon-royale", data=form)
    assert page.status_code == 422
    assert message in html.unescape(page.get_data(as_text=True))


def test_every_problem_with_a_new_table_at_once(client):
    answer = client.post(TABLES, json={"game": "indian-rummy", "players": ["Ann"], "options": {"variant": "pool7"},
                                       "colour": "red"})
    assert answer.status_code == 422
    assert [e["where"] for e in answer.get_json()["errors"]] == ["colour", "players"]
    assert answer.get_json()["errors"][1]["message"] == "Indian Rummy is played by 2 to 9 players; 1 was named"
    answer = client.post(TABLES, json={"game": "snap", "players": ["Ann", "Ben"]})
    assert "unknown game “snap”" in one_problem(answer, 422, "game")
    answer = client.post(TABLES, json={"game": "indian-rummy", "players": ["Ann", "Ben"],
                                       "options": {"variant": "pool7"}})
    assert answer.status_code == 422 and answer.get_json()["errors"][0]["where"].startswith("options")
    assert client.post(TABLES, json=["indian-rummy"]).status_code == 422
    assert one_problem(client.post(TABLES, data=b"{", content_type="application/json"), 422, "$")


def test_the_api_keeps_the_forms_creation_limit(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "limit.sqlite"), "SECRET_KEY": "t",
                      "CREATE_RATE": "2 per minute"})
    client = app.test_client()
    assert [client.post(TABLES, json=POOL).status_code for _ in range(3)] == [201, 201, 429]
    refused = client.post(TABLES, json=POOL)
    assert refused.headers["Retry-After"] == "60"
    assert "many new tables in a short time" in refused.get_json()["errors"][0]["message"]


def test_the_api_needs_no_csrf_token(csrf_app):
    client = csrf_app.test_client()
    table = start(client)
    assert add(client, table, DEAL_1, 0).status_code == 201


# ---------------------------------------------------------------------------------------------
# Reading it


def test_a_table_reads_as_the_stateless_api_scores_it(client):
    table = start(client)
    add(client, table, DEAL_1, 0)
    for key in (table["edit_key"], table["view_key"]):
        body = read(client, table, key)
        assert body["version"] == 1 and body["rounds"] == [DEAL_1]
        assert body["scored"] == scored_by_the_stateless_api(client, body)
        assert body["scored"]["totals"] == {"Ann": 0, "Ben": 30, "Cat": 60}
        assert body["links"] == {"api": f"http://localhost{TABLES}/{table['id']}",
                                 "view": f"http://localhost/t/{table['id']}"}


def test_the_etag_names_the_version_and_a_304_costs_nothing_until_it_changes(client):
    table = start(client)
    first = client.get(f"{TABLES}/{table['id']}", headers=bearer(table["view_key"]))
    etag = first.headers["ETag"]
    assert etag == f'"{table["id"]}-0"'
    again = client.get(f"{TABLES}/{table['id']}", headers={**bearer(table["view_key"]), "If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    add(client, table, DEAL_1, 0)
    changed = client.get(f"{TABLES}/{table['id']}", headers={**bearer(table["view_key"]), "If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] == f'"{table["id"]}-1"'
    assert changed.get_json()["scored"]["totals"] == {"Ann": 0, "Ben": 30, "Cat": 60}


def test_a_compressed_answers_etag_gets_its_304_too(client):
    """A program that takes gzip gets the ETag with its coding (compression.py); sent back, it is a 304."""
    table = start(client)
    add(client, table, DEAL_1, 0)
    url = f"{TABLES}/{table['id']}"
    first = client.get(url, headers={**bearer(table["view_key"]), "Accept-Encoding": "gzip"})
    assert first.headers["Content-Encoding"] == "gzip"
    assert first.headers["ETag"] == f'"{table["id"]}-1:gzip"'
    again = client.get(url, headers={**bearer(table["view_key"]), "Accept-Encoding": "gzip",
                                     "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


def test_a_renamed_and_a_late_player_read_as_the_board_shows_them(client):
    """A name corrected on a phone (the log's rename) and a late seat: the API's players and joined are the
    board's, and scored is still exactly the stateless API's for them (RR-9: a late player starts at 0)."""
    table = start(client, {"game": "rummathon-royale", "players": ["Ann", "Ben"]})
    add(client, table, {"out": "Ann", "left": {"Ben": {"low": 2}}}, 0)
    with borrowed(client.application) as db:
        stored = tables.get_table(db, table["id"])
        tables.rename(db, stored, 1, "Ben", "Benedict")
        now = tables.state(db, stored)
        tables.seat(db, now.table, 2, "Cat", now.scored)
    body = read(client, table)
    assert body["players"] == ["Ann", "Benedict", "Cat"]
    assert body["joined"] == {"Cat": 2}
    assert body["rounds"] == [{"out": "Ann", "left": {"Benedict": {"low": 2}}}]
    assert body["scored"] == scored_by_the_stateless_api(client, body)
    assert body["scored"]["totals"] == {"Ann": 10, "Benedict": 0, "Cat": 0}


# ---------------------------------------------------------------------------------------------
# Keys


@pytest.mark.parametrize(("method", "path"), [
    ("get", ""), ("get", "/history"), ("post", "/rounds"), ("put", "/rounds/1"), ("delete", "/rounds/1"),
    ("post", "/undo"), ("post", "/redo"),
])
def test_every_call_on_a_table_needs_its_key(client, method, path):
    table = start(client)
    add(client, table, DEAL_1, 0)
    url = f"{TABLES}/{table['id']}{path}"
    body = {"round": DEAL_2, "base_version": 1}
    call = getattr(client, method)
    no_key = call(url, json=body)
    assert "Authorization: Bearer <key>" in one_problem(no_key, 401, "Authorization")
    assert no_key.headers["WWW-Authenticate"].startswith("Bearer")
    assert one_problem(call(url, json=body, headers={"Authorization": f"Basic {table['edit_key']}"}), 401,
                       "Authorization") == "send the table's key as Authorization: Bearer <key>"
    assert "not a key of this table" in one_problem(call(url, json=body, headers=bearer("x" * 22)), 403,
                                                    "Authorization")
    other = start(client)
    assert one_problem(call(url, json=body, headers=bearer(other["edit_key"])), 403, "Authorization")
    assert "no table with this id" in one_problem(
        call(f"{TABLES}/nosuchtable{path}", json=body, headers=bearer(table["edit_key"])), 404, "id")
    in_address = call(f"{url}?key={table['edit_key']}", json=body)
    assert "Authorization header" in one_problem(in_address, 400, "key")
    assert one_problem(call(f"{url}?k={table['view_key']}", json=body, headers=bearer(table["edit_key"])), 400, "k")
    with_view_key = call(url, json=body, headers=bearer(table["view_key"]))
    if method == "get":
        assert with_view_key.status_code == 200
    else:
        assert "view key" in one_problem(with_view_key, 403, "Authorization")
    assert read(client, table)["version"] == 1  # nothing above changed the table


def test_keys_are_never_logged(client, caplog, monkeypatch):
    """Not in a refusal, not in an unexpected error's traceback: a key is only ever in a header."""
    caplog.set_level(logging.DEBUG)
    table = start(client)
    add(client, table, DEAL_1, 0)
    client.get(f"{TABLES}/{table['id']}?key={table['edit_key']}")
    client.post(f"{TABLES}/{table['id']}/undo", headers=bearer(table["view_key"]))

    def broken(*args, **kwargs):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(tables, "append", broken)
    failed = add(client, table, DEAL_2, 1)
    assert failed.status_code == 500 and "unexpected problem" in failed.get_json()["errors"][0]["message"]
    assert any("the disk is full" in (r.exc_text or "") for r in caplog.records)
    for record in caplog.records:
        text = record.getMessage() + (record.exc_text or "")
        assert table["edit_key"] not in text and table["view_key"] not in text


# ---------------------------------------------------------------------------------------------
# Adding rounds


def test_a_round_added_is_scored_and_its_answer_is_the_new_version(client):
    table = start(client)
    first = add(client, table, DEAL_1, 0)
    assert first.status_code == 201
    assert first.get_json()["version"] == 1
    assert first.get_json()["scored"] == scored_by_the_stateless_api(client, {**POOL, "rounds": [DEAL_1]})
    second = add(client, table, DEAL_2, 1).get_json()
    assert second["scored"]["totals"] == {"Ann": 25, "Ben": 30, "Cat": 105}
    assert second["scored"]["standing"]["players"]["Cat"]["out"] is True
    # The phone's board shows what the API stored, named as the API's change.
    board = client.get(f"/t/{table['id']}/board").get_data(as_text=True)
    assert "105" in board
    with borrowed(client.application) as db:
        assert [e.device for e in tables.events(db, table["id"])] == ["API", "API"]


def test_a_stale_base_version_is_a_409_with_the_version_and_stores_nothing(client):
    table = start(client)
    add(client, table, DEAL_1, 0)
    stale = add(client, table, DEAL_2, 0)
    assert "now at version 1" in one_problem(stale, 409, "base_version")
    assert stale.get_json()["version"] == 1
    assert read(client, table)["rounds"] == [DEAL_1]
    assert one_problem(add(client, table, DEAL_2, 7), 409, "base_version")
    assert len(stored_events(client.application, table["id"])) == 1


def test_a_bad_round_gets_the_errors_of_the_stateless_api(client):
    table = start(client)
    add(client, table, DEAL_1, 0)
    bad = {"winner": "Zed", "hands": {"Ben": {"count": -3}, "Cat": {"drop": "sideways"}}}
    refused = add(client, table, bad, 1)
    assert refused.status_code == 422
    stateless = client.post("/api/v1/score", json={**POOL, "rounds": [DEAL_1, bad]})
    assert refused.get_json() == stateless.get_json()
    assert {e["where"] for e in refused.get_json()["errors"]} >= {"rounds[1].winner", "rounds[1].hands.Ben.count"}
    assert read(client, table)["version"] == 1


@pytest.mark.parametrize(("body", "where"), [
    ({"round": DEAL_1}, "base_version"),
    ({"round": DEAL_1, "base_version": "0"}, "base_version"),
    ({"round": DEAL_1, "base_version": True}, "base_version"),
    ({"base_version": 0}, "round"),
    ([DEAL_1], "$"),
])
def test_a_change_says_what_it_is_based_on(client, body, where):
    table = start(client)
    answer = client.post(f"{TABLES}/{table['id']}/rounds", json=body, headers=bearer(table["edit_key"]))
    assert one_problem(answer, 422, where)


def test_a_round_after_the_game_ended_is_refused_as_the_engine_refuses_it(client):
    table = start(client, {"game": "rummathon-royale", "players": ["Ann", "Ben"], "options": {"schedule": "half"}})
    version = 0
    hand = {"out": "Ann", "left": {"Ben": {"low": 1}}, "progress": {"Ann": "completed"}}
    while not (answer := add(client, table, hand, version).get_json())["scored"]["over"]:
        version = answer["version"]
    message = one_problem(add(client, table, hand, answer["version"]), 422, f"rounds[{answer['version']}]")
    assert "the game ended" in message


# ---------------------------------------------------------------------------------------------
# Idempotency: the offline queue's entry keys


def test_the_same_idempotency_key_gets_the_first_answer_and_stores_nothing_twice(client):
    table = start(client)
    first = add(client, table, DEAL_1, 0, key="deal 1 · Friday pool")
    again = add(client, table, DEAL_1, 0, key="deal 1 · Friday pool")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    add(client, table, DEAL_2, 1)
    # Later, after another change: still the first answer, the table as it stood then.
    late = add(client, table, DEAL_1, 0, key="deal 1 · Friday pool")
    assert late.get_json() == first.get_json()
    assert read(client, table)["rounds"] == [DEAL_1, DEAL_2]


def test_an_idempotency_key_used_for_another_change_is_refused(client):
    table = start(client)
    add(client, table, DEAL_1, 0, key="key-one")
    other = add(client, table, DEAL_2, 1, key="key-one")
    assert "already used for another change (change #1: Deal 1 entered" in one_problem(other, 422,
                                                                                       "Idempotency-Key")
    undo = client.post(f"{TABLES}/{table['id']}/undo", headers={**bearer(table["edit_key"]),
                                                                "Idempotency-Key": "key-one"})
    assert one_problem(undo, 422, "Idempotency-Key")
    assert one_problem(add(client, table, DEAL_2, 1, key=" "), 422, "Idempotency-Key")
    assert one_problem(add(client, table, DEAL_2, 1, key="k" * 256), 422, "Idempotency-Key")
    assert read(client, table)["version"] == 1


def test_a_phones_entry_key_and_an_idempotency_key_are_one_mechanism(client, app):
    """A hand saved on a phone with its entry key, then sent over the API with that key: stored once."""
    view, edit = new_table(client)
    table_id = view.rsplit("/", 1)[1]
    entry_key = "5d0c8f1e-2b3a-4c5d-8e9f-0a1b2c3d4e5f"
    assert phone_save(client, edit, key=entry_key, out="Ann", p1_low=3, base_version="0").status_code == 303
    edit_key = edit.split("?key=")[1]
    stored = client.get(f"{TABLES}/{table_id}", headers=bearer(edit_key)).get_json()
    replay = client.post(f"{TABLES}/{table_id}/rounds", json={"round": stored["rounds"][0], "base_version": 0},
                         headers={**bearer(edit_key), "Idempotency-Key": entry_key})
    assert replay.status_code == 201 and replay.headers["Idempotent-Replayed"] == "true"
    assert replay.get_json() == {"version": 1, "scored": stored["scored"]}
    assert replay.get_json()["scored"]["totals"] == {"Ann": 15, "Ben": 0, "Cat": 0}  # RR-1: 3 low cards x 5
    # ...and the other way: a key the API stored first is the phone's "already saved".
    api_key = "0f9e8d7c-6b5a-4948-8372-6150a4b3c2d1"
    client.post(f"{TABLES}/{table_id}/rounds", json={"round": {"out": "Ben"}, "base_version": 1},
                headers={**bearer(edit_key), "Idempotency-Key": api_key})
    again = phone_save(client, edit, key=api_key, out="Ben", base_version="1")
    assert "This hand was already saved." in client.get(again.headers["Location"]).get_data(as_text=True)
    assert [k for _, k in stored_events(app, table_id)] == [entry_key, api_key]


# ---------------------------------------------------------------------------------------------
# Correcting, deleting, undo and redo


def test_a_round_is_corrected_by_its_number_on_the_board(client):
    table = start(client)
    add(client, table, DEAL_1, 0)
    add(client, table, DEAL_2, 1)
    corrected = {"winner": "Ann", "hands": {"Ben": {"count": 20}, "Cat": {"count": 60}}}
    answer = client.put(f"{TABLES}/{table['id']}/rounds/1", json={"round": corrected, "base_version": 2},
                        headers=bearer(table["edit_key"]))
    assert answer.status_code == 200
    # Ben 20 + 0, Ann 0 + 25, Cat 60 + 45 = 105 (IR-9).
    assert answer.get_json()["version"] == 3
    assert answer.get_json()["scored"]["totals"] == {"Ann": 25, "Ben": 20, "Cat": 105}
    assert read(client, table)["rounds"] == [corrected, DEAL_2]
    history = client.get(f"{TABLES}/{table['id']}/history", headers=bearer(table["view_key"])).get_json()
    assert history["changes"][-1]["summary"] == "Deal 1 edited: Ben · Count: 30 → 20"


@pytest.mark.parametrize("number", ["0", "3", "x", "-1", "1000000"])
def test_a_round_not_on_the_board_is_a_404(client, number):
    table = start(client)
    add(client, table, DEAL_1, 0)
    add(client, table, DEAL_2, 1)
    for method in ("put", "delete"):
        answer = getattr(client, method)(f"{TABLES}/{table['id']}/rounds/{number}",
                                         json={"round": DEAL_1, "base_version": 2}, headers=bearer(table["edit_key"]))
        assert f"no deal {number} in play at this table: it has 2" in one_problem(answer, 404, "number")


def test_a_stale_correction_or_delete_is_a_409(client):
    table = start(client)
    add(client, table, DEAL_1, 0)
    add(client, table, DEAL_2, 1)
    url = f"{TABLES}/{table['id']}/rounds/2"
    stale = client.put(url, json={"round": DEAL_1, "base_version": 1}, headers=bearer(table["edit_key"]))
    assert stale.get_json()["version"] == 2 and one_problem(stale, 409, "base_version")
    stale = client.delete(url, json={"base_version": 1}, headers=bearer(table["edit_key"]))
    assert one_problem(stale, 409, "base_version")
    assert one_problem(client.delete(url, headers=bearer(table["edit_key"])), 422, "base_version")
    assert read(client, table)["version"] == 2


def test_a_correction_the_game_cannot_take_gets_the_errors_of_the_stateless_api(client):
    """422 as /score names it for the table's rounds with this one in its place; nothing is stored."""
    table = start(client)
    add(client, table, DEAL_1, 0)
    add(client, table, DEAL_2, 1)
    bad = {"winner": "Zed", "hands": {"Ben": {"count": -3}, "Cat": {"count": 60}}}
    refused = client.put(f"{TABLES}/{table['id']}/rounds/1", json={"round": bad, "base_version": 2},
                         headers=bearer(table["edit_key"]))
    assert refused.status_code == 422
    assert refused.get_json() == client.post("/api/v1/score", json={**POOL, "rounds": [bad, DEAL_2]}).get_json()
    assert [e["where"] for e in refused.get_json()["errors"]] == ["rounds[0].winner", "rounds[0].hands.Ben.count"]
    assert read(client, table)["rounds"] == [DEAL_1, DEAL_2] and read(client, table)["version"] == 2


def test_a_delete_that_leaves_a_later_turn_impossible_is_refused_as_the_stateless_api_refuses_it(client):
    """Royalty: Ben's capture of CALM (RY-7) needs Ann's CALM on the table; without the turn that laid it,
    the game cannot be scored, so the delete is a 422 with /score's errors for the turns left, and stores
    nothing."""
    table = start(client, {"game": "royalty", "players": ["Ann", "Ben"]})
    turns = [{"player": "Ann", "meld": "Cr Ar Lr Mr"},
             {"player": "Ben", "capture": {"target": "CALM", "cards": "Cr Lr Ar Ib Mr"}}]
    for n, turn in enumerate(turns):
        assert add(client, table, turn, n).status_code == 201
    refused = client.delete(f"{TABLES}/{table['id']}/rounds/1", json={"base_version": 2},
                            headers=bearer(table["edit_key"]))
    assert refused.status_code == 422
    stateless = client.post("/api/v1/score", json={"game": "royalty", "players": ["Ann", "Ben"], "rounds": turns[1:]})
    assert stateless.status_code == 422 and refused.get_json() == stateless.get_json()
    assert "no word CALM lies on the table" in refused.get_json()["errors"][0]["message"]
    assert read(client, table)["rounds"] == turns and read(client, table)["version"] == 2


def test_a_correction_a_delete_and_a_redo_sent_twice_with_their_keys_are_stored_once(client):
    table = start(client)
    add(client, table, DEAL_1, 0)
    add(client, table, DEAL_2, 1)
    url, edit = f"{TABLES}/{table['id']}", bearer(table["edit_key"])
    corrected = {"winner": "Ann", "hands": {"Ben": {"count": 20}, "Cat": {"count": 60}}}
    sends = [("put", "/rounds/1", {"round": corrected, "base_version": 2}, "fix deal 1"),
             ("delete", "/rounds/2", {"base_version": 3}, "drop deal 2"),
             ("post", "/undo", None, "undo the drop"),
             ("post", "/redo", None, "redo the drop")]
    for method, path, body, key in sends:
        first, again = (getattr(client, method)(url + path, json=body, headers={**edit, "Idempotency-Key": key})
                        for _ in range(2))
        assert (first.status_code, again.status_code) == (200, 200), (path, again.get_json())
        assert again.get_json() == first.get_json() and again.headers["Idempotent-Replayed"] == "true"
    # Ben 20 in deal 1 and deal 2 deleted again by the redo: Ann 0, Ben 20, Cat 60 (IR-9).
    now = read(client, table)
    assert now["version"] == 6 and now["scored"]["totals"] == {"Ann": 0, "Ben": 20, "Cat": 60}
    kinds = [c["kind"] for c in client.get(f"{url}/history", headers=edit).get_json()["changes"]]
    assert kinds == ["add", "add", "edit", "delete", "undo", "redo"]


def test_delete_undo_and_redo_walk_the_log_as_the_pages_buttons_do(client):
    table = start(client)
    add(client, table, DEAL_1, 0)
    add(client, table, DEAL_2, 1)
    url = f"{TABLES}/{table['id']}"
    edit = bearer(table["edit_key"])
    deleted = client.delete(f"{url}/rounds/1", json={"base_version": 2}, headers=edit)
    assert deleted.status_code == 200
    # Only deal 2 now: Ann 25, Cat 45 (IR-9).
    assert deleted.get_json()["scored"]["totals"] == {"Ann": 25, "Ben": 0, "Cat": 45}
    undone = client.post(f"{url}/undo", headers=edit)
    assert undone.status_code == 200 and undone.get_json()["version"] == 4
    assert undone.get_json()["scored"]["totals"] == {"Ann": 25, "Ben": 30, "Cat": 105}
    redone = client.post(f"{url}/redo", json={"base_version": 4}, headers=edit)
    assert redone.get_json()["scored"]["totals"] == {"Ann": 25, "Ben": 0, "Cat": 45}
    assert "nothing left to redo" in one_problem(client.post(f"{url}/redo", headers=edit), 409, "$")
    assert one_problem(client.post(f"{url}/undo", json={"base_version": 3}, headers=edit), 409, "base_version")
    summaries = [c["summary"] for c in client.get(f"{url}/history", headers=edit).get_json()["changes"]]
    assert summaries == ["Deal 1 entered: Ann declared", "Deal 2 entered: Ben declared", "Deal 1 deleted",
                         "Deal 1 brought back, then deleted again (change #5)", "Deal 1 deleted again"]


def test_nothing_to_undo_is_a_409_that_changes_nothing(client):
    table = start(client)
    answer = client.post(f"{TABLES}/{table['id']}/undo", headers=bearer(table["edit_key"]))
    assert one_problem(answer, 409, "$") == "there is nothing left to undo at this table; nothing was changed"
    assert answer.get_json()["version"] == 0


def test_an_undo_sent_twice_with_its_key_undoes_once(client):
    table = start(client)
    add(client, table, DEAL_1, 0)
    add(client, table, DEAL_2, 1)
    headers = {**bearer(table["edit_key"]), "Idempotency-Key": "undo-deal-2-000000"}
    first = client.post(f"{TABLES}/{table['id']}/undo", headers=headers)
    again = client.post(f"{TABLES}/{table['id']}/undo", headers=headers)
    assert first.get_json() == again.get_json() and again.status_code == 200
    assert read(client, table)["rounds"] == [DEAL_1]


# ---------------------------------------------------------------------------------------------
# History


def test_the_history_is_the_pages_in_words_and_the_logs_as_data(client):
    table = start(client)
    add(client, table, DEAL_1, 0)
    client.delete(f"{TABLES}/{table['id']}/rounds/1", json={"base_version": 1}, headers=bearer(table["edit_key"]))
    client.post(f"{TABLES}/{table['id']}/undo", headers=bearer(table["edit_key"]))
    answer = client.get(f"{TABLES}/{table['id']}/history", headers=bearer(table["view_key"]))
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["version"] == 3
    first, deleted, undo = body["changes"]
    assert (first["change"], first["kind"], first["data"], first["device"]) == (1, "add", DEAL_1, "API")
    assert (deleted["kind"], deleted["undone_by"], undo["kind"], undo["undoes"]) == ("delete", 3, "undo", 2)
    page = html.unescape(client.get(f"/t/{table['id']}/history").get_data(as_text=True))
    told = re.findall(r'<p class="summary">([^<]+)', page)
    assert [t.strip() for t in told] == [c["summary"] for c in reversed(body["changes"])]


def test_a_long_history_is_read_a_page_at_a_time_oldest_first_on_each(client):
    """As the history page: the newest 50 changes, then ``before`` the answer's ``older`` for the rest (60
    deals of points rummy, which never ends)."""
    table = start(client, {**POOL, "options": {"variant": "points"}})
    for version in range(60):
        assert add(client, table, DEAL_1, version).status_code == 201
    url, key = f"{TABLES}/{table['id']}/history", bearer(table["view_key"])
    newest = client.get(url, headers=key).get_json()
    assert [c["change"] for c in newest["changes"]] == list(range(11, 61)) and newest["older"] == 11
    oldest = client.get(url, query_string={"before": 11}, headers=key).get_json()
    assert [c["change"] for c in oldest["changes"]] == list(range(1, 11)) and oldest["older"] is None
    assert oldest["changes"][0]["summary"] == "Deal 1 entered: Ann declared"
    for wrong in ("0", "-3", "ten"):
        assert one_problem(client.get(url, query_string={"before": wrong}, headers=key), 422, "before") == (
            "before is the number of a change, 1 or more, as the answer's older gives it")


def test_a_tournament_round_saved_after_time_is_asked_for_once_more(client):
    """As the page asks (409, nothing stored): sent again with "after_time": true, it is saved on the table."""
    tour, director_key = director.create(client, **{"opt-variant": "pool101"})
    director.seat(client, tour, director_key, 1)
    (link, edit_key), *_ = director.edit_links(client, tour, director_key, 1)
    client.post(f"{tour}/rounds/1/call?key={director_key}")
    table = {"id": link.rsplit("/", 1)[1], "edit_key": edit_key}
    first, second, third = read(client, table)["players"]
    deal = {"winner": first, "hands": {second: {"count": 30}, third: {"count": 60}}}
    asked = add(client, table, deal, 0)
    message = one_problem(asked, 409, "after_time")
    assert message.startswith("time was called on round 1 of Club night: this deal will not count")
    assert asked.get_json()["version"] == 0 and read(client, table)["version"] == 0
    saved = client.post(f"{TABLES}/{table['id']}/rounds", json={"round": deal, "base_version": 0, "after_time": True},
                        headers=bearer(edit_key))
    assert saved.status_code == 201
    assert saved.get_json()["scored"]["totals"] == {first: 0, second: 30, third: 60}


# ---------------------------------------------------------------------------------------------
# docs/api.md: every worked example of a table, in order, on one table

DOCS = Path(__file__).resolve().parent.parent / "docs" / "api.md"
SERVER = "https://courtier.example"
PLACEHOLDER = re.compile(r"<(id|edit_key|view_key)>")
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$")


def table_examples() -> list[tuple[str, str]]:
    """(request, answer) blocks of docs/api.md's tables section, in the order written."""
    text = DOCS.read_text(encoding="utf-8")
    blocks = re.findall(r"```http (request|answer)\n(.*?)```", text, re.S)
    kinds = [kind for kind, _ in blocks]
    assert kinds == ["request", "answer"] * (len(blocks) // 2), "each request block is followed by its answer"
    return [(request, answer) for (_, request), (_, answer) in zip(blocks[::2], blocks[1::2], strict=True)]


def _parts(block: str) -> tuple[str, dict[str, str], str]:
    head, _, body = block.partition("\n\n")
    first, *lines = head.strip().splitlines()
    return first, dict(line.split(": ", 1) for line in lines), body.strip()


class Bound(dict):
    """The placeholders' values, bound from the first answer that shows each."""

    def fill(self, text: str) -> str:
        return PLACEHOLDER.sub(lambda m: self[m.group(1)], text)


def _matches(expected, actual, bound: Bound, client, where="$") -> None:
    if expected == "<scored>":
        now = client.get(f"{TABLES}/{bound['id']}", headers=bearer(bound["edit_key"])).get_json()
        assert actual == scored_by_the_stateless_api(client, now), where
    elif expected == "<time>":
        assert isinstance(actual, str) and TIME.match(actual), where
    elif isinstance(expected, str) and (m := PLACEHOLDER.fullmatch(expected)) and m.group(1) not in bound:
        assert isinstance(actual, str) and actual, where
        bound[m.group(1)] = actual
    elif isinstance(expected, str):
        assert actual == bound.fill(expected), where
    elif isinstance(expected, dict):
        if isinstance(actual, dict) and "why" not in expected and "explain" in expected:  # as docs/api.md shows it
            actual = {key: value for key, value in actual.items() if key != "why"}
        assert isinstance(actual, dict) and list(actual) == list(expected), (where, list(actual))
        for key, value in expected.items():
            _matches(value, actual[key], bound, client, f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), where
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            _matches(e, a, bound, client, f"{where}[{i}]")
    else:
        assert actual == expected and type(actual) is type(expected), where


def test_the_openapi_description_covers_every_api_path_and_method(app):
    from companion.api import openapi

    described = openapi.description()["paths"]
    routes = [(re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule), method.lower())
              for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/")
              for method in rule.methods - {"HEAD", "OPTIONS"}]
    assert len(routes) >= 9
    for path, method in routes:
        assert method in described.get(path, {}), f"{method.upper()} {path} is not in the OpenAPI description"


def test_the_docs_have_a_worked_example_for_every_call_and_answer():
    calls = {(_parts(request)[0].split()[0], re.sub(r"<id>|no-such-table", "{id}", _parts(request)[0].split()[1]
                                                    .split("?")[0]).replace("/rounds/1", "/rounds/{n}")
              .replace("/rounds/2", "/rounds/{n}"))
             for request, _ in table_examples()}
    from companion.api import openapi

    described = {(method.upper(), path.replace("{table_id}", "{id}").replace("{number}", "{n}"))
                 for path, item in openapi.description()["paths"].items() if path.startswith(TABLES)
                 for method in item}
    assert described <= calls
    statuses = {int(_parts(answer)[0].split()[1]) for _, answer in table_examples()}
    assert statuses >= {200, 201, 304, 400, 401, 403, 404, 409, 422}


def test_every_table_example_in_the_api_docs_is_exact(client):
    bound = Bound()
    for request, answer in table_examples():
        first, headers, body = _parts(request)
        method, path = first.split()
        sent = {"headers": {k: bound.fill(v) for k, v in headers.items() if k != "Content-Type"},
                "base_url": SERVER}
        if body:
            sent["json"] = json.loads(bound.fill(body))
        response = client.open(bound.fill(path), method=method, **sent)
        status_line, expected_headers, expected_body = _parts(answer)
        assert response.status_code == int(status_line.split()[1]), (first, response.get_json())
        if expected_body:
            _matches(json.loads(expected_body), response.get_json(), bound, client, first)
        else:
            assert response.data == b""
        for name, value in expected_headers.items():
            assert response.headers.get(name) == bound.fill(value), (first, name)
