"""The referee endpoints: answers, unknown questions, and bad bodies that never become a 500."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.referee import REFEREES

pytestmark = pytest.mark.one_database  # the stateless API and forms: the same on either database

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)
CARD_ISH = st.sampled_from(["AS", "2S", "KS", "10H", "qd", "JK", "1S", "", "♠A", "A♠", "T21", 5, None])


def test_battle_answers_with_the_winning_index(client):
    answer = client.post("/api/v1/referee/alliance-royals/battle", json={"cards": ["AS", "2S", "KS", "10H"]})
    assert answer.status_code == 200
    body = answer.get_json()
    assert (body["winner"], body["card"]) == (1, "2S")  # the Sneak beats the led Ace (AR-14)
    assert all("AR-14" in line for line in body["explain"][-1:])


def test_privileges_answer_every_field(client):
    body = {"house": "S", "ally_house": "D", "spoils": ["KS", "QS", "AH"], "ally_spoils": [], "meld": [],
            "hand": ["5C"], "battle_won": True}
    answer = client.post("/api/v1/referee/alliance-royals/privileges", json=body).get_json()
    assert answer["may_meld"] is True and answer["may_take_discard_bundle"] is True
    assert answer["may_end_round"] is True and answer["end_round_needs"] == []
    assert answer["assassins"] == [{"card": "AH", "strikes": "H"}]
    assert answer["may_change_house"] == []


def test_an_unknown_question_is_a_404_with_an_errors_body(client):
    answer = client.post("/api/v1/referee/alliance-royals/who-cheated", json={})
    assert answer.status_code == 404
    assert "alliance-royals/battle" in answer.get_json()["errors"][0]["message"]


def test_bad_cards_name_their_place(client):
    answer = client.post("/api/v1/referee/alliance-royals/battle", json={"cards": ["AS", "1S", "KS"]})
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["where"] == "cards[1]"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(sorted(REFEREES)), body=JSON | st.fixed_dictionaries(
    {"cards": st.lists(CARD_ISH, max_size=6)},
    optional={"house": CARD_ISH, "ally_house": CARD_ISH, "spoils": st.lists(CARD_ISH, max_size=6),
              "hand": st.lists(CARD_ISH, max_size=4), "battle_won": JSON}))
def test_any_body_is_answered_or_refused_never_a_500(client, path, body):
    game, question = path
    answer = client.post(f"/api/v1/referee/{game}/{question}", data=json.dumps(body),
                         content_type="application/json")
    assert answer.status_code in (200, 422), (body, answer.status_code)
    if answer.status_code == 422:
        errors = answer.get_json()["errors"]
        assert errors and all(isinstance(e["where"], str) and e["message"] for e in errors)
