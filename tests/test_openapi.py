"""The OpenAPI description (GET /api/v1/openapi.json): valid, complete, true to docs/api.md, and a bounded
Schemathesis run of every operation against the app in-process (no 5xx; answers that match the description)."""

from __future__ import annotations

import atexit
import json
import shutil
import tempfile
import zlib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jsonschema_rs
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks

from companion import create_app, games, referee
from companion.api import openapi
from tests.test_api import examples

pytestmark = pytest.mark.one_database  # the stateless API and forms: the same on either database

DRAFT = "https://json-schema.org/draft/2020-12/schema"
SCORE = "/api/v1/score"
UNKNOWN_REFEREE = "/api/v1/referee/{game}/{question}"


def referee_path(game: str, question: str) -> str:
    return f"/api/v1/referee/{game}/{question}"


def validator(spec: dict[str, Any], schema: dict[str, Any]) -> jsonschema_rs.Validator:
    """A validator for one schema of the description, its $refs resolved against the description's components."""
    return jsonschema_rs.validator_for({"$schema": DRAFT, "components": spec["components"], "allOf": [schema]})


def request_schema(spec: dict[str, Any], path: str) -> dict[str, Any]:
    return spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]


def response_schema(spec: dict[str, Any], path: str, status: int, method: str = "post") -> dict[str, Any]:
    return spec["paths"][path][method]["responses"][str(status)]["content"]["application/json"]["schema"]


def all_schemas(spec: dict[str, Any]):
    """(where, schema) for every schema in the description: components, parameters, bodies and answers."""
    for name, schema in spec["components"]["schemas"].items():
        yield f"components.schemas.{name}", schema
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            for parameter in operation.get("parameters", []):
                yield f"{method} {path} parameter {parameter['name']}", parameter["schema"]
            for media, content in operation.get("requestBody", {}).get("content", {}).items():
                yield f"{method} {path} request {media}", content["schema"]
            for status, answer in operation["responses"].items():
                for media, content in answer.get("content", {}).items():
                    yield f"{method} {path} {status} {media}", content["schema"]


# ---------------------------------------------------------------------------------------
# The description itself


def test_the_description_is_valid_openapi():
    spec = openapi.description()
    assert spec["openapi"].startswith("3.1.")
    assert spec["servers"] == [{"url": "/"}]
    schemathesis.openapi.from_dict(openapi.description()).validate()  # the OpenAPI 3.1 meta-schema


def test_every_schema_in_it_is_valid_json_schema():
    """The OpenAPI 3.1 meta-schema does not look inside schemas: check each against JSON Schema 2020-12,
    and that its $refs resolve."""
    spec = openapi.description()
    for where, schema in all_schemas(spec):
        try:
            jsonschema_rs.meta.validate({"$schema": DRAFT, **schema})
            validator(spec, schema)
        except (jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError) as err:
            pytest.fail(f"{where}: {err}")


def test_it_is_served_as_json(client):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.get_json() == json.loads(json.dumps(openapi.description()))
    # The Schemathesis run below leaves out the operation serving its own description: checked here.
    spec = response.get_json()
    assert validator(spec, response_schema(spec, "/api/v1/openapi.json", 200, "get")).is_valid(spec)


def test_it_lists_every_engine():
    spec = openapi.description()
    schemas = spec["components"]["schemas"]
    assert schemas["GameRequest"]["properties"]["game"]["enum"] == list(games.ENGINES)
    assert schemas["ScoredGame"]["properties"]["game"]["enum"] == list(games.ENGINES)
    assert schemas["GameList"]["properties"]["games"]["items"]["properties"]["slug"]["enum"] == list(games.ENGINES)
    players = schemas["GameRequest"]["properties"]["players"]
    assert players["minItems"] == min(e.MIN_PLAYERS for e in games.ENGINES.values())
    assert players["maxItems"] == max(e.MAX_PLAYERS for e in games.ENGINES.values())
    assert players["items"]["maxLength"] == games.MAX_NAME_LENGTH
    examples_given = spec["paths"][SCORE]["post"]["requestBody"]["content"]["application/json"]["examples"]
    assert set(examples_given) == set(games.ENGINES)


def test_it_lists_every_referee_with_its_documented_body():
    spec = openapi.description()
    for game, question in referee.REFEREES:
        operation = spec["paths"][referee_path(game, question)]["post"]
        assert set(operation["responses"]) == {"200", "413", "422"}
    assert set(openapi.REFEREE_BODIES) == set(referee.REFEREES), (
        "describe each referee's body and answer in companion/api/openapi.py REFEREE_BODIES, as in docs/api.md")
    unknown = spec["paths"][UNKNOWN_REFEREE]["post"]
    assert "404" in unknown["responses"]
    for game, question in referee.REFEREES:
        assert f"{game}/{question}" in unknown["description"]


def test_new_games_and_referees_appear_by_themselves(monkeypatch):
    engine = SimpleNamespace(SLUG="snap", TITLE="Snap", MIN_PLAYERS=2, MAX_PLAYERS=12, OPTIONS={"speed": "fast"})
    monkeypatch.setitem(games.ENGINES, "snap", engine)
    monkeypatch.setitem(referee.REFEREES, ("snap", "pair"), lambda body: {})
    spec = openapi.description()
    assert "snap" in spec["components"]["schemas"]["GameRequest"]["properties"]["game"]["enum"]
    assert spec["components"]["schemas"]["GameRequest"]["properties"]["players"]["maxItems"] == 12
    assert "speed" in spec["components"]["schemas"]["GameRequest"]["properties"]["options"]["description"]
    assert "snap" in spec["paths"][SCORE]["post"]["requestBody"]["content"]["application/json"]["examples"]
    operation = spec["paths"][referee_path("snap", "pair")]["post"]
    assert request_schema(spec, referee_path("snap", "pair")) == {"type": "object"}
    assert operation["summary"] == "Referee: snap/pair"
    schemathesis.openapi.from_dict(spec).validate()


# ---------------------------------------------------------------------------------------
# The description agrees with docs/api.md and with the app


@pytest.mark.parametrize(("path", "request_body", "status", "answer"), examples())
def test_every_worked_example_in_the_docs_fits_the_description(path, request_body, status, answer):
    spec = openapi.description()
    if status == 200:  # the error examples send what the engines refuse, and some of it the schema refuses too
        errors = [e.message for e in validator(spec, request_schema(spec, path)).iter_errors(request_body)]
        assert not errors, errors
    errors = [e.message for e in validator(spec, response_schema(spec, path, status)).iter_errors(answer)]
    assert not errors, errors


def test_the_examples_in_the_description_are_answered(client):
    """Each example body in the description gets a 200 that fits the description."""
    spec = openapi.description()
    bodies = [(SCORE, e["value"]) for e in spec["paths"][SCORE]["post"]["requestBody"]["content"]
              ["application/json"]["examples"].values()]
    bodies += [(referee_path(g, q), body["example"]) for (g, q), body in openapi.REFEREE_BODIES.items()]
    assert len(bodies) == len(games.ENGINES) + len(referee.REFEREES)
    for path, body in bodies:
        assert validator(spec, request_schema(spec, path)).is_valid(body), (path, body)
        response = client.post(path, json=body)
        assert response.status_code == 200, (path, response.get_json())
        errors = [e.message for e in validator(spec, response_schema(spec, path, 200)).iter_errors(
            response.get_json())]
        assert not errors, (path, errors)


def test_the_game_list_fits_the_description(client):
    spec = openapi.description()
    answer = client.get("/api/v1/games").get_json()
    assert validator(spec, response_schema(spec, "/api/v1/games", 200, "get")).is_valid(answer)


@pytest.mark.parametrize("path", [SCORE, *(referee_path(g, q) for g, q in sorted(referee.REFEREES))])
def test_a_body_over_1_mb_is_a_413_as_described(client, path):
    spec = openapi.description()
    response = client.post(path, data=b"[" + b" " * (1024 * 1024) + b"]", content_type="application/json")
    assert response.status_code == 413
    assert validator(spec, response_schema(spec, path, 413)).is_valid(response.get_json())


def test_an_unknown_question_is_a_404_as_described(client):
    spec = openapi.description()
    response = client.post(referee_path("royalty", "weather"), json={})
    assert response.status_code == 404
    assert validator(spec, response_schema(spec, UNKNOWN_REFEREE, 404)).is_valid(response.get_json())


# ---------------------------------------------------------------------------------------
# Schemathesis against the app, in-process (schemathesis 4: openapi.from_wsgi, schema.parametrize)

# A database of its own in a folder removed at exit: the tables' calls read and write it.
_DATABASE = Path(tempfile.mkdtemp(prefix="courtier-openapi-"))
atexit.register(shutil.rmtree, _DATABASE, True)
APP = create_app({"TESTING": True, "DATABASE": str(_DATABASE / "openapi.sqlite"), "SECRET_KEY": "openapi-test",
                  "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False})  # the creation limit: test_tables_api
SCHEMA = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", APP)

#: The checks that hold for this API: no 5xx; only documented status codes and content types; every answer
#: (200, 404, 413, 422) matches its schema. Left out on purpose: positive_data_acceptance (the schemas are
#: permissive below the top level, so most schema-valid rounds and cards are still a 422), negative_data_rejection
#: (names are measured after trimming, so a padded 25-character name is accepted).
CHECKS = [checks.not_a_server_error, checks.status_code_conformance, checks.content_type_conformance,
          checks.response_schema_conformance, checks.unsupported_method]


_TABLE: dict[str, str] = {}


def _a_table() -> dict[str, str]:
    """One table for every generated call on /api/v1/tables/{table_id}, made through the API itself."""
    if not _TABLE:
        body = {"game": "indian-rummy", "players": ["Ann", "Ben", "Cat"], "options": {"variant": "pool101"}}
        _TABLE.update(APP.test_client().post("/api/v1/tables", json=body).get_json())
    return _TABLE


_CLUB: dict[str, str] = {}


def aim_at_a_club(case) -> None:
    """Most calls on /api/v1/clubs/{club_id} go to a real club with one of its keys (now and then no key,
    another club's id, or a wrong key)."""
    if "club_id" not in (case.path_parameters or {}):
        return
    if not _CLUB:
        _CLUB.update(APP.test_client().post("/api/v1/clubs", json={"name": "Thursday Club"}).get_json())
    pick = zlib.crc32(repr((case.path_parameters, case.headers)).encode()) % 6
    case.path_parameters["club_id"] = _CLUB["id"] if pick else "no-such-club"
    keys = {1: None, 2: "not-a-key-of-this-club", 3: _CLUB["director_key"]}
    key = keys.get(pick, _CLUB["member_key"])
    case.headers = {**(case.headers or {}), **({"Authorization": f"Bearer {key}"} if key else {})}


def aim_at_a_table(case) -> None:
    """Random ids and keys would only ever find no table: most calls go to a real one, with its edit key (and,
    now and then, its view key, no key, or an id no table has); a base_version is made current now and then."""
    if "table_id" not in (case.path_parameters or {}):
        return
    table = _a_table()
    pick = zlib.crc32(repr((case.operation.label, case.path_parameters, case.body, case.headers)).encode()) % 8
    case.path_parameters["table_id"] = table["id"] if pick else "no-such-table"
    headers = {**(case.headers or {})}
    if pick != 1:
        headers["Authorization"] = f"Bearer {table['view_key'] if pick == 2 else table['edit_key']}"
    case.headers = headers
    if isinstance(case.body, dict) and isinstance(case.body.get("base_version"), int) and pick >= 4:
        version = APP.test_client().get(f"/api/v1/tables/{table['id']}",
                                        headers={"Authorization": f"Bearer {table['edit_key']}"}).get_json()["version"]
        case.body["base_version"] = version


def test_the_run_covers_every_operation_of_the_description():
    """Every operation described is generated for, but the one serving the description, which Schemathesis
    leaves out of its own accord (test_it_is_served_as_json checks it); none is dropped as unreadable."""
    operations = list(SCHEMA.get_all_operations())
    assert all(type(o).__name__ == "Ok" for o in operations), [o for o in operations if type(o).__name__ != "Ok"]
    run = {o.ok().label for o in operations}
    described = {f"{method.upper()} {path}" for path, item in openapi.description()["paths"].items()
                 for method in item}
    assert described - run == {"GET /api/v1/openapi.json"} and run <= described
    assert {"POST /api/v1/tables", "GET /api/v1/tables/{table_id}", "DELETE /api/v1/tables/{table_id}/rounds/{number}",
            "GET /api/v1/tables/{table_id}/history", "GET /api/v1/clubs/{club_id}"} <= run


@SCHEMA.parametrize()
@settings(max_examples=25, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
def test_the_api_keeps_to_its_description(case):
    aim_at_a_table(case)
    aim_at_a_club(case)
    # Schemathesis reads the body as sent: asked for no coding, the app sends it uncompressed (compression.py).
    case.headers = {**(case.headers or {}), "Accept-Encoding": "identity"}
    case.call_and_validate(checks=CHECKS)
