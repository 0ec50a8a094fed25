"""Every field of every JSON endpoint is of its type: an object where an object is asked for, a list where
a list is; 0, false, "" or [] never stand for "none" (only a field left out, or null, does). Anything else
is a 422 naming the field, in words (API.md, Errors).

The sweep takes every worked example of docs/api.md (the scoring API and the referee's questions) and puts
a value of another type in each of its fields in turn; the tables' and clubs' calls and the imports are
checked field by field below."""

from __future__ import annotations

import copy
import io
import json
import re
from html import unescape

import pytest

from companion.clubs import records
from tests.test_api import examples
from tests.test_tables_api import POOL, TABLES, bearer, start

pytestmark = pytest.mark.one_database

#: Values of the other types, for a field of each type.
OTHERS = {
    dict: [0, False, "", [], "x"],
    list: [0, False, "", {}, "x"],
    str: [0, False, True, [], {}],
    int: [False, True, [], {}],
    bool: [0, 1, "true", "", [], {}],
}


def documented_alternative(body: dict, field: tuple, value: object) -> bool:
    """A value of another type the docs name for this field (docs/api.md)."""
    if body.get("game") == "rally-the-king" and field[-1] in ("declarer_points", "Ann", "Ben", "Cat", "Dan"):
        return isinstance(value, (int, float, str)) and not isinstance(value, bool)  # "35 2/3" or a number
    if body.get("game") == "rummy-royal" and "pay_cards" in field:
        return value == []  # a list of the holders, none of them: nobody held it
    return False


def fields(value, path=()):
    """(path, value) of every field below the top of a body, the first three items of each list."""
    items = value.items() if isinstance(value, dict) else enumerate(value[:3]) if isinstance(value, list) else ()
    for key, inner in items:
        yield (*path, key), inner
        yield from fields(inner, (*path, key))


def replaced(body: dict, field: tuple, value: object) -> dict:
    out = copy.deepcopy(body)
    inner = out
    for key in field[:-1]:
        inner = inner[key]
    inner[field[-1]] = value
    return out


def test_every_field_of_every_worked_example_refuses_a_value_of_another_type(client):
    holes, tried = [], set()
    for path, body, status, _ in examples():
        if status != 200:
            continue
        for field, value in fields(body):
            for other in OTHERS.get(type(value), []):
                shape = (path, body.get("game"), tuple(k if isinstance(k, str) else 0 for k in field), repr(other))
                if shape in tried or documented_alternative(body, field, other):
                    continue
                tried.add(shape)
                response = client.post(path, json=replaced(body, field, other))
                if response.status_code != 422:
                    holes.append((response.status_code, path, body.get("game"), field, other))
                    continue
                errors = response.get_json()["errors"]
                assert errors and all(set(e) == {"where", "message"} and e["message"] for e in errors), errors
    assert len(tried) > 1000  # every example, every field
    assert holes == []


@pytest.mark.parametrize("path,body,where", [
    # A falsy value in place of an object or a list, in fields the worked examples leave out.
    ("/api/v1/referee/marriage-royals/privileges", {"house": "S", "others": False}, "others"),
    ("/api/v1/referee/marriage-royals/privileges", {"house": "S", "others": {}}, "others"),
    ("/api/v1/score", {"game": "indian-rummy", "players": ["Ann", "Ben"], "options": {"variant": "pool101"},
                       "rounds": [{"winner": "Ann", "hands": {"Ben": {"count": 30}}, "rejoin": False}]},
     "rounds[0].rejoin"),
    ("/api/v1/score", {"game": "royalty", "players": ["Ann", "Ben"],
                       "rounds": [{"end": {"went_out": None, "unplayed": 0}}]}, "rounds[0].end.unplayed"),
    ("/api/v1/score", {"game": "rummathon-royale", "players": ["Ann", "Ben"],
                       "rounds": [{"out": "Ann", "extra_cards": False}]}, "rounds[0].extra_cards"),
    ("/api/v1/score", {"game": "rummy-royal", "players": ["Ann", "Ben"],
                       "rounds": [{"dealer": "Ann", "poker": {"bets": 0, "winners": ["Ann"]}, "out": "Ann"}]},
     "rounds[0].poker.bets"),
])
def test_a_falsy_value_is_not_an_empty_one(client, path, body, where):
    response = client.post(path, json=body)
    assert response.status_code == 422, response.get_json()
    assert where in [e["where"] for e in response.get_json()["errors"]], response.get_json()


def test_null_still_stands_for_a_field_left_out(client):
    game = {"game": "rummathon-royale", "players": ["Ann", "Ben"], "options": None,
            "rounds": [{"out": "Ann", "left": {"Ben": {"low": 1}}, "burdens": None, "extra_cards": None}]}
    assert client.post("/api/v1/score", json=game).get_json()["totals"] == {"Ann": 5, "Ben": 0}  # RR-2: 1-9 are 5
    privileges = {"house": "S", "spoils": [], "others": None}
    assert client.post("/api/v1/referee/marriage-royals/privileges", json=privileges).status_code == 200
    assert client.post(TABLES, json={**POOL, "options": None, "title": None}).status_code == 201


# The tables' and the clubs' calls ----------------------------------------------------------------------


@pytest.mark.parametrize("field,value", [
    ("options", 0), ("options", False), ("options", ""), ("options", []), ("options", "pool101"),
    ("title", 0), ("title", False), ("title", []), ("players", {}), ("players", "Ann, Ben"), ("game", 0),
    ("game", False), ("club", 0), ("club", False), ("club", []),
])
def test_a_new_table_refuses_each_field_of_another_type(client, field, value):
    response = client.post(TABLES, json={**POOL, field: value}, headers=bearer("any"))
    assert response.status_code == 422, response.get_json()
    assert [e["where"] for e in response.get_json()["errors"]] == [field], response.get_json()


@pytest.mark.parametrize("body,where", [
    ({"round": {"winner": "Ann", "hands": {"Ben": {"count": 30}, "Cat": {"count": 60}}}, "base_version": "0"},
     "base_version"),
    ({"round": {"winner": "Ann", "hands": {"Ben": {"count": 30}, "Cat": {"count": 60}}}, "base_version": False},
     "base_version"),
    ({"round": {"winner": "Ann", "hands": {"Ben": {"count": 30}, "Cat": {"count": 60}}}, "base_version": 0,
      "after_time": "yes"}, "after_time"),
    ({"round": {"winner": "Ann", "hands": {"Ben": {"count": 30}, "Cat": {"count": 60}}}, "base_version": 0,
      "after_time": 1}, "after_time"),
    ({"round": 0, "base_version": 0}, "rounds[0]"),
    ({"round": {"winner": "Ann", "hands": []}, "base_version": 0}, "rounds[0].hands"),
])
def test_a_round_sent_to_a_table_refuses_each_field_of_another_type(client, body, where):
    table = start(client)
    response = client.post(f"{TABLES}/{table['id']}/rounds", json=body, headers=bearer(table["edit_key"]))
    assert response.status_code == 422, response.get_json()
    assert where in [e["where"] for e in response.get_json()["errors"]], response.get_json()
    assert client.get(f"{TABLES}/{table['id']}", headers=bearer(table["edit_key"])).get_json()["version"] == 0


@pytest.mark.parametrize("name,says", [(5, "a club's name is text"), (False, "a club's name is text"),
                                       ("", "cannot be empty"), ([], "a club's name is text")])
def test_a_new_club_refuses_a_name_of_another_type(client, name, says):
    response = client.post("/api/v1/clubs", json={"name": name})
    assert response.status_code == 422
    assert response.get_json() == {"errors": [{"where": "name", "message": says if says != "cannot be empty"
                                               else "a club's name cannot be empty"}]}


# Imports: a table's JSON, a club's record ----------------------------------------------------------------


def _import(client, body) -> tuple[int, str]:
    response = client.post("/import", data={"text": json.dumps(body)})
    return response.status_code, re.sub(r"\s+", " ", unescape(response.get_data(as_text=True)))


@pytest.mark.parametrize("field,value,says", [
    ("options", False, "options must be an object"), ("options", 0, "options must be an object"),
    ("title", 0, "a table's name is text"), ("title", False, "a table's name is text"),
    ("title", ["Spring"], "a table's name is text"),
])
def test_an_imported_table_refuses_a_field_of_another_type(client, field, value, says):
    status, page = _import(client, {**POOL, "rounds": [], field: value})
    assert status == 422 and says in page, page[-2000:]


def test_an_imported_tables_title_is_kept_and_null_is_no_title(client):
    status, _ = _import(client, {**POOL, "rounds": [], "title": None, "options": None})
    assert status == 303
    kept = client.post("/import", data={"text": json.dumps({**POOL, "rounds": [], "title": "Friday night"})})
    page = client.get(kept.headers["Location"]).get_data(as_text=True)
    assert "Friday night" in page


def _club_record() -> dict:
    """A club's record as its export writes it: no tables yet, one player on the roster."""
    return {"format": records.FORMAT, "version": records.VERSION, "name": "Thursday club", "seasons": [],
            "players": [{"name": "Ben"}], "tables": []}


@pytest.mark.parametrize("change,where", [
    (lambda r: r["players"].append({"name": "Ann", "spellings": "Annie"}), "spellings"),
    (lambda r: r["players"].append({"name": "Ann", "spellings": False}), "spellings"),
    (lambda r: r["players"].append({"name": "Ann", "former": "no"}), "former"),
    (lambda r: r["players"].append({"name": 7}), "players[1].name"),
    (lambda r: r.update(name=0), "name"),
])
def test_an_imported_clubs_record_refuses_a_field_of_another_type(client, change, where):
    record = _club_record()
    change(record)
    response = client.post("/clubs/import", data={"file": (io.BytesIO(json.dumps(record).encode()), "club.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 422
    assert where in response.get_data(as_text=True)
