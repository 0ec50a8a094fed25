"""Indian Rummy through the web forms: options, deals, the live group check, bad input."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import entry_forms
from tests.entry_forms import post, scored_game

PLAYERS = ("Ann", "Ben", "Cat")
DECLARATION = "AH 2H 3H | 5S 6S 7D 8S | QC QD QS | 9H 10H JH"  # valid with 7s wild


def new_table(client, **options):
    defaults = {"opt-variant": "points", "opt-deals": "2", "opt-point_value": "1", "opt-decks": ""}
    return entry_forms.new_table(client, "indian-rummy", PLAYERS, defaults, **options)


def test_points_rummy_with_money(client):
    # Ben's count: two pure runs, loose 2D 3D 4C 9S JS KC 8C = 2 + 3 + 4 + 9 + 10 + 10 + 8 = 46
    # (IR-6); Cat dropped in the middle: 40 (IR-7). Ann +86; money at 5 a point: 430 (IR-8).
    table, key = new_table(client, point_value="5")
    response = post(client, table, key, wild="7", winner="Ann", p0_groups=DECLARATION,
                    p1_mode="groups", p1_groups="4S 5S 6S | 10H JH QH", p1_loose="2D 3D 4C 9S JS KC 8C",
                    p2_mode="middle")
    assert response.status_code == 303, response.get_data(as_text=True)
    scored = scored_game(client, table)
    assert scored.totals == {"Ann": 86, "Ben": -46, "Cat": -40}
    assert scored.standing["money"] == {"Ann": 430, "Ben": -230, "Cat": -200}


def test_deals_rummy_counts_chips(client):
    table, key = new_table(client, variant="deals", deals="2")
    post(client, table, key, wild="7", winner="Ann", p0_groups=DECLARATION, p1_mode="count", p1_count="30",
         p2_mode="first")
    # 80 x 2 = 160 chips each at the start (IR-10): Ann takes 30 + 20.
    assert scored_game(client, table).totals == {"Ann": 210, "Ben": 130, "Cat": 140}


def test_an_invalid_declaration_is_refused_next_to_the_winner_groups(client):
    table, key = new_table(client)
    wrapped = "KS AS 2S | 4H 5H 6H | 8C 8D 8H | 9S 10S JS QS"  # K-A-2 does not wrap (IR-4)
    response = post(client, table, key, wild="7", winner="Ann", p0_groups=wrapped,
                    p1_mode="count", p1_count="10", p2_mode="first")
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'id="p0_groups-error"' in page
    assert ">\r\nKS AS 2S | 4H 5H 6H | 8C 8D 8H | 9S 10S JS QS</textarea>" in page  # kept, in its wrapping box


def test_bad_cards_and_counts_are_shown_next_to_their_field(client):
    table, key = new_table(client)
    response = post(client, table, key, wild="7", winner="Ann", p0_groups=DECLARATION, p1_mode="cards",
                    p1_cards="4C 5C ZZ", p2_mode="count", p2_count="-3")
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'id="p2_count-error"' in page
    response = post(client, table, key, wild="7", winner="Ann", p0_groups=DECLARATION, p1_mode="cards",
                    p1_cards="4C 5C ZZ", p2_mode="first")
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and 'id="p1_cards-error"' in page and ">\r\n4C 5C ZZ</textarea>" in page


# IR-6 (docs/rules/indian-rummy.md's own example): a hand adding up to more than 80 counts 80. Points rummy
# (IR-8), Ann declares (taken as valid): Ben's cards add up to 95, counted 80; Cat counts 20. Ann +100,
# Ben -80, Cat -20.
CAPPED_DEAL = {"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 95}, "Cat": {"count": 20}}}
CAPPED_TOTALS = {"Ann": 100, "Ben": -80, "Cat": -20}
COUNT_BOUNDS = ("A count is 0 to 130: 13 cards add up to 130 at most (IR-3), and a count over 80 counts 80 "
                "(IR-6).")


def test_a_count_over_80_is_taken_and_counts_80_and_the_why_says_so(client):
    table, key = new_table(client)
    response = post(client, table, key, wild="7", winner="Ann", p1_mode="count", p1_count="95",
                    p2_mode="count", p2_count="20")
    assert response.status_code == 303, response.get_data(as_text=True)
    assert scored_game(client, table).totals == CAPPED_TOTALS
    why = re.sub(r"<[^>]+>", "", client.get(f"{table}/hands/1/why").get_data(as_text=True))
    assert "Count entered: 95, capped at 80 (IR-6)" in why
    # the form and both APIs agree: the stateless scorer and a table kept over the API
    request = {"game": "indian-rummy", "players": list(PLAYERS), "options": {"variant": "points"},
               "rounds": [CAPPED_DEAL]}
    scored = client.post("/api/v1/score", json=request).get_json()
    assert scored["totals"] == CAPPED_TOTALS
    started = client.post("/api/v1/tables", json={k: request[k] for k in ("game", "players", "options")}).get_json()
    added = client.post(f"/api/v1/tables/{started['id']}/rounds", json={"round": CAPPED_DEAL, "base_version": 0},
                        headers={"Authorization": f"Bearer {started['edit_key']}"})
    assert added.status_code == 201, added.get_json()
    assert added.get_json()["scored"]["totals"] == CAPPED_TOTALS


@pytest.mark.parametrize("count", ["131", "500", "-1"])
def test_a_count_no_13_cards_can_make_is_refused_in_words_beside_it(client, count):
    table, key = new_table(client)
    response = post(client, table, key, wild="7", winner="Ann", p1_mode="count", p1_count=count,
                    p2_mode="count", p2_count="20")
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert re.search(rf'<p class="error" id="p1_count-error">{re.escape(COUNT_BOUNDS)}</p>', page)
    assert re.search(rf'id="p1_count"[^>]*value="{count}"', page)  # kept
    # the API refuses what no 13 cards can add up to as well, in its own words
    request = {"game": "indian-rummy", "players": list(PLAYERS), "options": {"variant": "points"},
               "rounds": [{**CAPPED_DEAL, "hands": {"Ben": {"count": int(count)}, "Cat": {"count": 20}}}]}
    answer = client.post("/api/v1/score", json=request)
    assert answer.status_code == 422
    assert [e["where"] for e in answer.get_json()["errors"]] == ["rounds[0].hands.Ben.count"]


def test_the_live_group_check_escapes_what_was_typed(client):
    query = {"wild": "7", "p0_groups": "<b>x</b> | QC QD QS"}
    fragment = client.get("/referee/indian-rummy/groups", query_string=query)
    text = fragment.get_data(as_text=True)
    assert "<b>" not in text and "&lt;b&gt;" in text
    assert "set" in text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fields=st.dictionaries(
    st.sampled_from(["wild", "winner", "p0_mode", "p0_groups", "p1_mode", "p1_cards", "p1_count", "p2_mode",
                     "p2_loose", "p1_rejoin", "base_version"]),
    st.text(max_size=20) | st.sampled_from(["7", "JK", "Ann", "cards", "count", "out", DECLARATION, "0", "81",
                                            "|||", "first", "y"]), max_size=9))
def test_any_deal_form_is_saved_or_refused_never_a_500(app, fields):
    client = app.test_client()
    table, key = new_table(client, variant="pool101")
    response = client.post(f"{table}/hands?key={key}", data=fields)
    assert response.status_code in (303, 409, 422), response.status_code
