"""The public contract: POST /api/v1/score, and every worked example in docs/api.md."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.one_database  # the stateless API and forms: the same on either database

DOCS = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def examples():
    """(path, request, status, response) from the fenced blocks of docs/api.md.

    A request block is tagged ```json request (posted to /api/v1/score) or
    ```json request POST /api/v1/referee/...; the block after it, ```json response
    or ```json 422, is the exact answer.
    """
    blocks = re.findall(r"```json (request(?: POST (\S+))?|response|422)\n(.*?)```",
                        DOCS.read_text(encoding="utf-8"), re.S)
    pairs = []
    for (kind, path, body), (answer_kind, _, answer) in zip(blocks[::2], blocks[1::2], strict=True):
        assert kind.startswith("request") and answer_kind in ("response", "422")
        pairs.append((path or "/api/v1/score", json.loads(body), 200 if answer_kind == "response" else 422,
                      json.loads(answer)))
    return pairs


def test_docs_have_worked_examples_for_every_game_and_referee():
    found = examples()
    games = {body.get("game") for path, body, _, _ in found if path == "/api/v1/score"}
    from companion.games import ENGINES
    from companion.referee import REFEREES

    assert set(ENGINES) <= games
    assert {f"/api/v1/referee/{g}/{q}" for g, q in REFEREES} <= {path for path, *_ in found}


def as_documented(answer: dict, expected: dict) -> dict:
    """The answer as a worked example shows it: the game examples leave out each round's why as data (``why``,
    docs/api.md "Languages"), which its own examples show."""
    if "rounds" not in answer or any("why" in r for r in expected.get("rounds", ())):
        return answer
    return {**answer, "rounds": [{k: v for k, v in r.items() if k != "why"} for r in answer["rounds"]]}


@pytest.mark.parametrize("path,request_body,status,expected", examples())
def test_every_example_in_the_api_docs_is_exact(client, path, request_body, status, expected):
    response = client.post(path, json=request_body)
    assert response.status_code == status
    assert as_documented(response.get_json(), expected) == expected


def test_score_response_has_the_contract_fields(client):
    body = {"game": "rummathon-royale", "players": ["Ann", "Ben"],
            "rounds": [{"out": "Ann", "left": {"Ben": {"low": 1}}}]}
    answer = client.post("/api/v1/score", json=body).get_json()
    assert list(answer)[:2] == ["game", "players"]
    for field in ("sides", "rounds", "totals", "over", "winners", "reason"):
        assert field in answer
    assert answer["sides"] is None
    assert answer["rounds"][0]["points"] == {"Ann": 5, "Ben": 0}
    assert all(re.search(r"RR-\d", line) for line in answer["rounds"][0]["explain"]["Ann"][:-1])


def test_score_needs_no_csrf_token(csrf_app):
    body = {"game": "rummathon-royale", "players": ["Ann", "Ben"], "rounds": []}
    assert csrf_app.test_client().post("/api/v1/score", json=body).status_code == 200


def test_errors_name_where_and_what(client):
    body = {"game": "rummathon-royale", "players": ["Ann", "Ben"],
            "rounds": [{"out": "Ann", "extra_cards": {"Ben": 21}, "left": {"Zed": {"low": 1}}}]}
    response = client.post("/api/v1/score", json=body)
    assert response.status_code == 422
    wheres = {e["where"] for e in response.get_json()["errors"]}
    assert wheres == {"rounds[0].extra_cards.Ben", "rounds[0].left.Zed"}


@pytest.mark.parametrize("raw", [b"", b"{", b"[1, 2", b"\xff\xfe", b"nul"])
def test_malformed_json_is_a_422(client, raw):
    response = client.post("/api/v1/score", data=raw, content_type="application/json")
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["where"] == "$"


def test_games_are_listed(client):
    games = client.get("/api/v1/games").get_json()["games"]
    assert {"slug": "rummathon-royale", "title": "Rummathon Royale", "min_players": 2, "max_players": 6,
            "options": {"schedule": "all"}} in games
