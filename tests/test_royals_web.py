"""Battle Royals and Marriage Royals through the web: the home page, options, rounds on the
Alliance Royals entry screen, marriages on the board, surrender, referees, rules and sheets."""

from __future__ import annotations

import re

import pytest

from tests import entry_forms
from tests.entry_forms import exported, scored_game, version


def new_table(client, game, players, **options):
    defaults = {"opt-win_above": "1066", "opt-lose_below": "-333"}
    if game == "marriage-royals":
        defaults["opt-share"] = "positive"
    return entry_forms.new_table(client, game, players, defaults, **options)


def test_both_games_are_offered_on_the_home_page(client):
    home = client.get("/").get_data(as_text=True)
    assert '/new/battle-royals">Battle Royals' in home
    assert '/new/marriage-royals">Marriage Royals' in home
    assert "2 players" in home and "3 players" in home


def test_a_battle_royals_round_through_the_form_without_hostages(client):
    table, key = new_table(client, "battle-royals", ("Ann", "Ben"))
    form = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    assert "Hostages" not in form and "Alliance" not in form
    assert "the other player wins, whatever the score" in form
    response = client.post(f"{table}/hands?key={key}", data={
        "base_version": version(client, table, key), "p0_house": "S", "p1_house": "H",
        "p0_spoils": "KS QS JS", "p1_spoils": "7C"})
    assert response.status_code == 303
    assert scored_game(client, table).totals == {"Ann": 30, "Ben": 10}  # BR-2: 15 x 2; 10
    board = client.get(table).get_data(as_text=True)
    assert "1037 to pass 1066" in board
    assert 'href="/rules/battle-royals#BR-2"' in board
    again = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    assert '<input checked id="p0_house-0" name="p0_house" type="radio" value="S">' in again  # carried over


def test_marriage_royals_board_shows_marriages_hostages_and_sharing(client):
    table, key = new_table(client, "marriage-royals", ("Ann", "Ben", "Cat"))
    response = client.post(f"{table}/hands?key={key}", data={
        "base_version": version(client, table, key), "p0_house": "S", "p1_house": "H", "p2_house": "D",
        "p0_spoils": "KS KS QH QD", "p1_spoils": "KS", "p1_h0_card": "KS", "p1_h0_target": "Ann",
        "p2_spoils": "9C"})
    assert response.status_code == 303, response.get_data(as_text=True)
    assert scored_game(client, table).totals == {"Ann": 50, "Ben": 50, "Cat": 5}
    board = client.get(table).get_data(as_text=True)
    assert "KS + QH · spouse Ben" in board
    assert "nullified by Ben’s hostage KS" in board
    assert "Ann shares 10 from spouse Ben" in board and "Ben shares 40 from spouse Ann" in board


def test_a_hostage_with_nothing_to_hold_is_shown_beside_its_field(client):
    table, key = new_table(client, "marriage-royals", ("Ann", "Ben", "Cat"))
    response = client.post(f"{table}/hands?key={key}", data={
        "base_version": version(client, table, key), "p0_house": "S", "p1_house": "H", "p2_house": "D",
        "p2_spoils": "QH", "p2_h0_card": "QH", "p2_h0_target": "Ben"})
    assert response.status_code == 422
    assert "no married QH" in response.get_data(as_text=True)


def test_share_none_and_house_names_are_kept(client):
    table, _ = new_table(client, "marriage-royals", ("Ann", "Ben", "Cat"), share="none", house_S="Dogs")
    options = exported(client, table)["options"]
    assert options["share"] == "none" and options["house_names"]["S"] == "Dogs"


def test_a_surrender_in_battle_royals_needs_confirming_and_ends_the_game(client):
    table, key = new_table(client, "battle-royals", ("Ann", "Ben"))
    data = {"base_version": version(client, table, key), "surrender": "Ann"}
    assert client.post(f"{table}/hands?key={key}", data=data).status_code == 422
    data["confirm_surrender"] = "y"
    assert client.post(f"{table}/hands?key={key}", data=data).status_code == 303
    scored = scored_game(client, table)
    assert scored.over and scored.winners == ("Ben",)
    assert "Ann surrendered" in client.get(table).get_data(as_text=True)


@pytest.mark.parametrize("players", [("Ann",), ("Ann", "Ben", "Cat")])
def test_battle_royals_seats_two(client, players):
    response = client.post("/new/battle-royals", data={f"seat{i}": p for i, p in enumerate(players, 1)}
                           | {"opt-win_above": "1066", "opt-lose_below": "-333"})
    assert response.status_code == 422
    assert "exactly 2 players" in response.get_data(as_text=True)


def test_rules_pages_say_what_is_the_projects_reading_and_what_may_change(client):
    for game, ids in (("battle-royals", ("BR-1", "BR-2", "BR-3")),
                      ("marriage-royals", tuple(f"MR-{n}" for n in range(1, 7)))):
        page = client.get(f"/rules/{game}").get_data(as_text=True)
        assert "the project&#39;s own reading" in page or "the project's own reading" in page
        assert "What a table may change" in page
        for ruling in ids:
            assert f'id="{ruling}"' in page


def test_referee_screens_for_two_and_three_players(client):
    page = client.get("/referee/battle-royals/battle").get_data(as_text=True)
    assert 'name="card2"' in page and 'name="card3"' not in page
    page = client.get("/referee/marriage-royals/battle").get_data(as_text=True)
    assert 'name="card3"' in page and 'name="card4"' not in page
    answer = client.post("/referee/battle-royals/battle", data={"card1": "AS", "card2": "2S"})
    assert answer.status_code == 200 and "2S" in answer.get_data(as_text=True)
    answer = client.post("/referee/marriage-royals/privileges", data={
        "house": "S", "spoils": "JS KS", "left_house": "H", "left_spoils": "KH QS", "right_house": "D",
        "battle_won": "y"})
    text = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert "Married in the Spoils of the player on your left: KH + QS" in text
    answer = client.post("/referee/battle-royals/privileges", data={"house": "S", "spoils": "AH"})
    assert answer.status_code == 200 and "in Battle Royals nobody else" in answer.get_data(as_text=True)


def test_the_referee_api_answers_for_two_and_three_players(client):
    r = client.post("/api/v1/referee/battle-royals/battle", json={"cards": ["AS", "2S"]})
    assert r.get_json()["winner"] == 1
    r = client.post("/api/v1/referee/battle-royals/battle", json={"cards": ["AS", "2S", "KS"]})
    assert r.status_code == 422 and "at most 2 cards" in r.get_json()["errors"][0]["message"]
    r = client.post("/api/v1/referee/marriage-royals/battle", json={"cards": ["9H", "KS", "10H"]})
    assert r.get_json()["card"] == "10H"
    body = {"house": "H", "spoils": ["JH", "KH"], "hand": [], "battle_won": True,
            "others": [{"house": "D", "spoils": []}, {"house": "S", "spoils": ["KS", "QH"]}]}
    r = client.post("/api/v1/referee/marriage-royals/privileges", json=body)
    answer = r.get_json()
    assert answer["royals"] == ["KH", "QH", "JH"] and answer["may_end_round"] is True
    r = client.post("/api/v1/referee/battle-royals/privileges", json={"house": "S", "ally_spoils": []})
    assert r.status_code == 422 and r.get_json()["errors"][0]["where"] == "ally_spoils"


@pytest.mark.one_database  # rendering PDFs: the same work on either database
def test_sheets_for_both_games(client):
    table, key = new_table(client, "marriage-royals", ("Ann", "Ben", "Cat"))
    client.post(f"{table}/hands?key={key}", data={
        "base_version": version(client, table, key), "p0_house": "S", "p1_house": "H", "p2_house": "D",
        "p0_spoils": "KS QH", "p1_spoils": "AD", "p2_spoils": "9C"})
    for game in ("battle-royals", "marriage-royals"):
        sheet = client.get(f"/sheets/blank/{game}.pdf")
        assert sheet.status_code == 200 and sheet.data.startswith(b"%PDF")
    filled = client.get(f"{table}/sheet.pdf")
    assert filled.status_code == 200 and filled.data.startswith(b"%PDF")


@pytest.mark.parametrize(("game", "entrants", "seats"), [
    ("battle-royals", ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay"), 2),
    ("marriage-royals", ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay"), 3),
])
def test_tournaments_seat_head_to_head_and_three_handed_tables(client, game, entrants, seats):
    response = client.post("/tournaments/new", data={"title": "Club", "game": game, "entrants": "\n".join(entrants),
                                                     "rounds": "2", "method": "round-robin"})
    assert response.status_code == 303, response.get_data(as_text=True)
    tour, key = response.headers["Location"].split("?key=")
    assert client.post(f"{tour}/rounds?key={key}", data={"round": "1"}).status_code == 303
    page = client.get(f"{tour}?key={key}").get_data(as_text=True)
    links = re.findall(r'href="(/t/[\w-]+)\?key=([\w-]+)">Round 1, table (\d)', page)
    assert len(links) == len(entrants) // seats
    table, table_key, _ = links[0]
    played = exported(client, table)
    assert played["game"] == game and len(played["players"]) == seats
    # The table plays to its end: one player passes 1066 (BR-3 / MR-6) and the standings follow.
    first, *_ = played["players"]
    boards = {p: {"house": h, "spoils": [], "meld": [], "hand": []}
              for p, h in zip(played["players"], "SHD"[:seats], strict=True)}
    boards[first] = {"house": "S", "spoils": ["KS", "KS", "KS", "QS", "QS", "QS", "JS", "JS", "JS"],
                     "meld": ["5H", "5D", "5C", "6H", "6D", "6C", "7H", "7D", "7C", "8H", "8D", "8C"], "hand": []}
    data = {"base_version": version(client, table, table_key)}
    for i, p in enumerate(played["players"]):
        data[f"p{i}_house"] = boards[p]["house"]
        for zone in ("spoils", "meld", "hand"):
            data[f"p{i}_{zone}"] = " ".join(boards[p][zone])
    assert client.post(f"{table}/hands?key={table_key}", data=data).status_code == 303
    assert scored_game(client, table).winners == (first,)
    standings = client.get(tour).get_data(as_text=True)
    assert first in standings


def test_a_hostage_posted_to_battle_royals_is_refused_in_words_above_the_form(client):
    table, key = new_table(client, "battle-royals", ("Ann", "Ben"))
    response = client.post(f"{table}/hands?key={key}", data={
        "base_version": version(client, table, key), "p0_house": "S", "p1_house": "H",
        "p0_spoils": "QH", "p1_spoils": "KH QH", "p0_h0_card": "QH", "p0_h0_target": "Ben"})
    assert response.status_code == 422
    assert "Battle Royals has no hostages" in response.get_data(as_text=True)
