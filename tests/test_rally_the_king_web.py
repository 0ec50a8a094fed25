"""Rally the King through the web forms: options, hands, bad input next to its field."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import entry_forms
from tests.entry_forms import exported, scored_game

PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def new_table(client, counting="individual", hands="4"):
    return entry_forms.new_table(client, "rally-the-king", PLAYERS, {}, counting=counting, hands=hands)


def post(client, table, key, **fields):
    fields.setdefault("dealer", "Ann")
    return entry_forms.post(client, table, key, **fields)


def test_the_api_example_hand_through_the_form(client):
    # Solo by Ben with 64 points (>= 60, RK-3): alone, +3 x 4 = +12, the others -4 (RK-7); the
    # sparrow made by his side, not announced: half of 2 = 1, so +3 / -1 (RK-8).
    table, key = new_table(client)
    response = post(client, table, key, bid="solo", declarer="Ben", declarer_points="64",
                    bo_sparrow_side="declarer", bo_sparrow_made="y")
    assert response.status_code == 303
    assert scored_game(client, table).totals == {"Ann": -5, "Ben": 15, "Cat": -5, "Dan": -5}


def test_traditional_thirds_through_the_form(client):
    table, key = new_table(client, counting="traditional")
    # Solo with 35 2/3: just enough (RK-3): Ben +12, others -4.
    assert post(client, table, key, bid="solo", declarer="Ben", declarer_points="35 2/3").status_code == 303
    # Solo with 35 1/3: lost: Cat -12, others +4.
    assert post(client, table, key, dealer="Ben", bid="solo", declarer="Cat",
                declarer_points="35 1/3").status_code == 303
    assert scored_game(client, table).totals == {"Ann": 0, "Ben": 16, "Cat": -16, "Dan": 0}


def test_fields_the_bid_does_not_use_are_not_sent(client):
    table, key = new_table(client)
    post(client, table, key, bid="one-trick", declarer="Dan", declarer_tricks="1", declarer_points="99",
         partner="Ann", called_king="KS", bird="owl", c_kings="3")
    hand = exported(client, table)["rounds"][0]
    assert hand == {"dealer": "Ann", "bid": "one-trick", "declarer": "Dan", "declarer_tricks": 1}


def test_the_dealer_passes_left(client):
    table, key = new_table(client)
    post(client, table, key, bid="beggar", declarer="Cat", declarer_tricks="0")
    form = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    assert re.search(r'<option selected value="Ben">Ben</option>', form)


def test_bad_input_lands_next_to_its_field_and_is_kept(client):
    table, key = new_table(client)
    cases = {
        "declarer_points": dict(bid="solo", declarer="Ben", declarer_points="130"),  # above the pack's 118
        "c_kings": dict(bid="solo", declarer="Ben", c_kings="5"),  # four Kings in the pack
        "declarer": dict(bid="solo", declarer="Zed", declarer_points="70"),  # not at the table
        "bid": dict(bid="", declarer="Ben"),
        "pp_2": dict(bid="all-beggars", pp_0="10", pp_1="20", pp_2="lots", pp_3="30"),
        "partner": dict(bid="partner", declarer="Ben", partner="Ben", declarer_points="70"),
    }
    for field, data in cases.items():
        response = post(client, table, key, **data)
        assert response.status_code == 422, field
        page = response.get_data(as_text=True)
        assert f'id="{field}-error"' in page, (field, re.findall(r'class="error"[^>]*>([^<]*)', page))
        for name, value in data.items():
            if value and name not in ("bid", "declarer", "partner"):
                assert f'value="{value}"' in page, (field, name)
    assert exported(client, table)["rounds"] == []


def test_the_game_ends_after_the_agreed_number_of_hands(client):
    table, key = new_table(client, hands="1")
    post(client, table, key, bid="beggar", declarer="Cat", declarer_tricks="0")  # won: Cat +9, others -3
    page = client.get(f"{table}?key={key}").get_data(as_text=True)
    assert "Winner: Cat" in page and "Enter hand 2" not in page


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fields=st.dictionaries(
    st.sampled_from(["dealer", "bid", "declarer", "called_king", "partner", "declarer_points", "declarer_tricks",
                     "bird", "c_kings", "c_tricks", "pp_0", "bo_slam_side", "bo_slam_made", "base_version"]),
    st.text(max_size=12) | st.sampled_from(["solo", "partner", "all-beggars", "Ben", "KH", "35 2/3", "0",
                                            "declarer", "alone", "owl", "1e9", "-3"]), max_size=9))
def test_any_hand_form_is_saved_or_refused_never_a_500(app, fields):
    client = app.test_client()
    table, key = new_table(client)
    response = client.post(f"{table}/hands?key={key}", data=fields)
    assert response.status_code in (303, 409, 422), response.status_code


def test_trick_referee_page(client):
    page = client.post("/referee/rally-the-king/trick", data={"card1": "KH", "card2": "T5", "card3": "QH"})
    assert page.status_code == 200 and "Card 2 wins" in page.get_data(as_text=True)
    page = client.post("/referee/rally-the-king/trick",
                       data={"card1": "KH", "card2": "T5", "card3": "QH", "no_trumps": "y"})
    assert "Card 1 wins" in page.get_data(as_text=True)
    page = client.post("/referee/rally-the-king/trick", data={"card1": "KH", "card2": "T22"})
    assert page.status_code == 422 and 'id="card2-error"' in page.get_data(as_text=True)


def test_the_contract_bird_counts_as_announced_without_ticking_it(client):
    # Solo with a bird (4), 70 points and the owl made by the declarer: won, Ben +12 / others -4
    # (RK-6, RK-7); the owl as an announced bonus, 4: Ben +12 / others -4 (RK-8).
    table, key = new_table(client)
    response = post(client, table, key, bid="solo-with-bird", declarer="Ben", declarer_points="70", bird="owl",
                    bird_made="yes")
    assert response.status_code == 303, response.get_data(as_text=True)
    assert scored_game(client, table).totals == {"Ann": -8, "Ben": 24, "Cat": -8, "Dan": -8}
