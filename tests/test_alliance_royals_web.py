"""Alliance Royals through the web forms: options, rounds, surrender, bad input, referee pages."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import entry_forms
from tests.entry_forms import exported, scored_game, version

PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def new_table(client, **options):
    defaults = {"opt-seating": "13-24", "opt-win_above": "1066", "opt-lose_below": "-333"}
    return entry_forms.new_table(client, "alliance-royals", PLAYERS, defaults, **options)


def round_data(**fields):
    data = {f"p{i}_house": h for i, h in enumerate("SHDC")}
    data.update(fields)
    return data


def test_the_api_example_entered_through_the_form(client):
    table, key = new_table(client)
    response = client.post(f"{table}/hands?key={key}", data=round_data(
        base_version=version(client, table, key),
        p0_spoils="KS QS JS AH 9D", p0_meld="10S 10H 10D", p0_hand="3C",
        p1_spoils="8H", p1_hand="QC KC 2H",
        p2_spoils="KD QS 5H", p2_meld="AS AD AC",
        p3_spoils="KC QH", p3_meld="6S 6H 6D", p3_hand="9S"))
    assert response.status_code == 303

    scored = scored_game(client, table)
    assert scored.totals == {"Ann": 135, "Ben": -20, "Cat": 100, "Dan": 130}
    assert scored.side_totals == {"A": 235, "B": 110}
    board = client.get(table).get_data(as_text=True)
    assert "A: Ann &amp; Cat" in board and "832 to pass 1066" in board


def test_options_teams_house_names_and_thresholds(client):
    table, key = new_table(client, seating="12-34", house_S="Dogs", win_above="500", lose_below="-100")
    options = exported(client, table)["options"]
    assert options["teams"] == [["Ann", "Ben"], ["Cat", "Dan"]]
    assert options["house_names"]["S"] == "Dogs"
    assert (options["win_above"], options["lose_below"]) == (500, -100)
    form = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    assert "♠ Dogs" in form


def test_bad_options_are_refused_with_the_input_kept(client):
    data = {f"seat{i}": p for i, p in enumerate(PLAYERS, 1)}
    data.update({"opt-seating": "13-24", "opt-win_above": "lots", "opt-lose_below": "50"})
    response = client.post("/new/alliance-royals", data=data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'value="lots"' in page and 'value="Ann"' in page
    assert "Number must be" in page or "Give a number" in page


def test_three_players_cannot_play(client):
    response = client.post("/new/alliance-royals", data={"seat1": "Ann", "seat2": "Ben", "seat3": "Cat"})
    assert response.status_code == 422
    assert "played by exactly 4 players; 3 were named" in response.get_data(as_text=True)


def test_surrender_needs_confirming_then_ends_the_game(client):
    table, key = new_table(client)
    response = client.post(f"{table}/hands?key={key}",
                           data={"base_version": version(client, table, key), "surrender": "Ben"})
    assert response.status_code == 422
    assert "Tick this to confirm" in response.get_data(as_text=True)
    response = client.post(f"{table}/hands?key={key}", data={"base_version": "0", "surrender": "Ben",
                                                              "confirm_surrender": "y"})
    assert response.status_code == 303
    page = client.get(f"{table}?key={key}").get_data(as_text=True)
    assert "Winners: Ann and Cat" in page and "surrendered" in page
    assert "Enter round 2" not in page


def test_a_house_carries_over_to_the_next_round(client):
    table, key = new_table(client)
    client.post(f"{table}/hands?key={key}", data=round_data(base_version="0", p0_house="C"))
    form = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    assert re.search(r'<input checked id="p0_house-3" name="p0_house" type="radio" value="C">', form)


def test_a_missing_house_is_shown_next_to_the_player(client):
    table, key = new_table(client)
    data = round_data(base_version="0")
    del data["p2_house"]
    response = client.post(f"{table}/hands?key={key}", data=data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'id="p2_house-error"' in page


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fields=st.dictionaries(
    st.sampled_from(["p0_house", "p1_spoils", "p2_meld", "p3_hand", "p0_h0_card", "p0_h0_target", "surrender",
                     "confirm_surrender", "note", "base_version"]),
    st.text(max_size=30) | st.sampled_from(["S", "QD QD QD QD", "AS 2S", "Ben", "y", "0", "KS"]), max_size=8))
def test_any_round_form_is_saved_or_refused_never_a_500(app, fields):
    client = app.test_client()
    table, key = new_table(client)
    response = client.post(f"{table}/hands?key={key}", data=round_data(**fields))
    assert response.status_code in (303, 409, 422), response.status_code


def test_referee_pages_answer_and_refuse_bad_cards(client):
    page = client.post("/referee/alliance-royals/battle", data={"card1": "AS", "card2": "2S", "card3": "KS"})
    assert page.status_code == 200 and "Card 2 wins" in page.get_data(as_text=True)
    page = client.post("/referee/alliance-royals/battle", data={"card1": "AS", "card2": "ZZ"})
    assert page.status_code == 422
    text = page.get_data(as_text=True)
    assert 'id="card2-error"' in text and 'value="ZZ"' in text
    page = client.post("/referee/alliance-royals/privileges", data={"house": "S", "ally_house": "D",
                                                                    "spoils": "KS QS", "hand": "JC"})
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "still needs" in text
    assert client.get("/referee/alliance-royals/nothing").status_code == 404
    assert client.get("/referee/").status_code == 200


def test_the_csv_has_the_alliances_beside_the_players(client):
    """The API example twice (AR-11: an Alliance scores its members' points together). Round 1: Ann 135,
    Ben −20, Cat 100, Dan 130, so Alliance A (Ann & Cat) 235 and B (Ben & Dan) 110; round 2 the same
    again, so the running totals double: Ann 270, Ben −40, Cat 200, Dan 260, A 470, B 220."""
    import csv
    import io

    table, key = new_table(client)
    the_round = {"p0_spoils": "KS QS JS AH 9D", "p0_meld": "10S 10H 10D", "p0_hand": "3C",
                 "p1_spoils": "8H", "p1_hand": "QC KC 2H", "p2_spoils": "KD QS 5H", "p2_meld": "AS AD AC",
                 "p3_spoils": "KC QH", "p3_meld": "6S 6H 6D", "p3_hand": "9S"}
    for _ in range(2):
        response = client.post(f"{table}/hands?key={key}",
                               data=round_data(base_version=version(client, table, key), **the_round))
        assert response.status_code == 303
    rows = list(csv.reader(io.StringIO(client.get(f"{table}/export.csv").get_data(as_text=True))))
    assert rows[0] == ["round", "Ann", "Ben", "Cat", "Dan", "Ann total", "Ben total", "Cat total", "Dan total",
                       "Alliance A (Ann & Cat)", "Alliance B (Ben & Dan)",
                       "Alliance A (Ann & Cat) total", "Alliance B (Ben & Dan) total"]
    assert rows[1] == ["1", "135", "-20", "100", "130", "135", "-20", "100", "130", "235", "110", "235", "110"]
    assert rows[2] == ["2", "135", "-20", "100", "130", "270", "-40", "200", "260", "235", "110", "470", "220"]
    assert rows[3] == ["total", "270", "-40", "200", "260", "", "", "", "", "470", "220", "", ""]
    assert len(rows) == 4
