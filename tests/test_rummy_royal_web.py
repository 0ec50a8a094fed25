"""Rummy Royal through the web forms: options, the deal form stage by stage, the board, the
poker referee screen, and bad input answered beside its field."""

from __future__ import annotations

import re
import time

import pytest
from pypdf import PdfReader

from companion.tournaments import packs
from tests import entry_forms
from tests.entry_forms import exported, post, scored_game

PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def new_table(client, players=PLAYERS, **options):
    defaults = {"opt-chips": "100", "opt-sequence": "8-9-10", "opt-poker": "yes", "opt-dealer_antes": "1"}
    return entry_forms.new_table(client, "rummy-royal", players, defaults, **options)


def error_beside(html: str, field_id: str) -> str:
    """The message shown next to a field (its error paragraph)."""
    m = re.search(rf'<p class="error" id="{re.escape(field_id)}-error">(.*?)</p>', html, re.S)
    assert m, f"no error beside {field_id}"
    return re.sub(r"<[^>]+>", "", m.group(1))


def test_the_options_reach_the_table(client):
    table, key = new_table(client, chips="50", sequence="6-7-8", poker="no", dealer_antes="2")
    body = exported(client, table)
    assert body["options"] == {"chips": 50, "sequence": "6-7-8", "poker": False, "dealer_antes": 2}
    page = client.get(f"{table}?key={key}").get_data(as_text=True)
    assert 'data-space="pot"' not in page and 'data-space="kitty"' in page
    form = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    assert "Poker (RM-5)" not in form and "Sequence 6-7-8 of one suit" in form


@pytest.mark.parametrize(("field", "value", "says"), [
    ("chips", "0", "From 1 to 100000 chips."), ("chips", "1e999", "Not a valid integer value."),
    ("dealer_antes", "-1", "From 1 to 100 chips a space."), ("sequence", "5-6-7", "Not a valid choice"),
])
def test_bad_options_are_answered_beside_the_field(client, field, value, says):
    data = {f"seat{i}": p for i, p in enumerate(PLAYERS, 1)}
    data.update({"opt-chips": "100", "opt-sequence": "8-9-10", "opt-poker": "yes", "opt-dealer_antes": "1",
                 f"opt-{field}": value})
    response = client.post("/new/rummy-royal", data=data)
    assert response.status_code == 422
    assert says in response.get_data(as_text=True)


def test_the_api_example_deal_through_the_form(client):
    table, key = new_table(client)
    response = post(client, table, key, dealer="Ann", pay_10H="Ann", pay_QH="Cat", pay_KH="Cat", pay_AH="Ben",
                    sequence="Dan", p0_bet="2", p1_bet="5", p2_bet="5", p3_fold="y", winners="Ben",
                    out="Cat", p0_left="4", p1_left="2", p3_left="7")
    assert response.status_code == 303, response.get_data(as_text=True)
    scored = scored_game(client, table)
    assert scored.totals == {"Ann": 89, "Ben": 104, "Cat": 115, "Dan": 88}
    page = client.get(f"{table}?key={key}").get_data(as_text=True)
    # the board: JH's 4 chips stayed; the stacks; the check of RM-7
    assert re.search(r'data-space="JH">\s*<span class="space-name">J♥</span>\s*<span class="space-chips num">4</span>',
                     page)
    assert "Chips conserved: 396 with the players + 4 on the board = 400, the starting total 400 ✓" in page
    assert "Cat holds KH and QH: takes the Marriage, 4 chips" in page
    assert "Nobody held JH: its 4 chips stay for the next deal" in page


@pytest.mark.parametrize("cards", [{}, {"pay_KH": "Ann"}, {"pay_KH": "Ann", "pay_QH": "Ann"}],
                         ids=["Marriage alone", "Marriage and K♥", "Marriage and both cards"])
def test_the_marriage_row_records_both_cards_without_javascript(client, cards):
    """RM-4: the Marriage row stands for K♥ and Q♥ in one hand. Posted with or without the cards (a phone
    without JavaScript sends only what was ticked), the deal records both cards and the Marriage: Ann takes
    4 + 4 + 4 (the hand-worked deal of tests/browser/test_rummy_royal.py: Ann 97, Ben 104, Cat 107, Dan 88)."""
    table, key = new_table(client)
    response = post(client, table, key, marriage="Ann", pay_AH="Ben", pay_10H="Cat", sequence="Dan",
                    p0_bet="2", p1_bet="5", p2_bet="5", p3_fold="y", winners="Ben",
                    out="Cat", p0_left="4", p1_left="2", p3_left="7", **cards)
    assert response.status_code == 303, response.get_data(as_text=True)
    deal = exported(client, table)["rounds"][0]
    assert (deal["pay_cards"]["KH"], deal["pay_cards"]["QH"]) == ("Ann", "Ann")
    assert scored_game(client, table).totals == {"Ann": 97, "Ben": 104, "Cat": 107, "Dan": 88}
    correcting = client.get(f"{table}/hands/1/edit?key={key}").get_data(as_text=True)
    for row in ("pay_KH", "pay_QH", "marriage"):  # the correction form shows all three ticked
        assert re.search(rf'<input checked id="{row}-0" name="{row}" type="checkbox" value="Ann">', correcting), row


def test_the_referee_decides_the_poker_stage_on_the_deal_form(client):
    table, key = new_table(client, players=("Ann", "Ben", "Cat"))
    response = post(client, table, key, p0_bet="1", p1_bet="1", p2_bet="1",
                    p0_cards="9S 9C 4D 4C 2S", p1_cards="9d 9h 4s 4h 7c", p2_cards="AS KS QD JC 3D",
                    out="Ann", p1_left="1", p2_left="2")
    assert response.status_code == 303, response.get_data(as_text=True)
    assert scored_game(client, table).totals == {"Ann": 96, "Ben": 95, "Cat": 88}
    page = client.get(f"{table}?key={key}").get_data(as_text=True)
    assert "Ben&#39;s kicker 7 beats Ann&#39;s 2" in page


def test_the_dealer_passes_to_the_left_by_default(client):
    table, key = new_table(client, players=("Ann", "Ben"))
    form = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    assert re.search(r'<option selected value="Ann">Ann</option>', form)
    post(client, table, key, out="Ann", p1_left="0")
    form = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    assert re.search(r'<option selected value="Ben">Ben</option>', form)


@pytest.mark.parametrize(("fields", "field_id", "says"), [
    ({"pay_KH": ["Ann", "Ben"], "out": "Ann"}, "pay_KH", "only one player can have held it"),
    ({"p0_bet": "95", "winners": "Ann", "out": "Ann"}, "p0_bet", "Ann has only 91 chips at the poker stage"),
    ({"p2_fold": "y", "winners": "Cat", "out": "Ann"}, "winners", "Cat folded, so Cat cannot win"),
    ({"out": "Cat", "p2_left": "3"}, "p2_left", "Cat went out, so Cat has no cards left"),
    ({"out": ""}, "out", "name the player who went out"),
    ({"out": "Ann", "p1_left": "60"}, "p1_left", "Enter a count from 0 to 52."),
    ({"out": "Ann", "p1_bet": "x"}, "p1_bet", "Enter a whole number"),
    ({"out": "Ann", "p0_cards": "AS KS QS JS 10S", "p1_cards": "AS 2D 3D 4D 5D"}, "p1_cards", "AS is given twice"),
    ({"out": "Ann", "p0_cards": "AS KS QS"}, "p0_cards", "5 to 13 cards"),
    ({"out": "Ann", "pay_AH": "Zed"}, "pay_AH", "is not a player at this table"),
])
def test_bad_input_gets_a_clear_message_beside_the_field(client, fields, field_id, says):
    table, key = new_table(client)
    response = post(client, table, key, **fields)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert says in error_beside(html, field_id)
    assert "None" not in error_beside(html, field_id) and "null" not in html.split("<main")[1].split("</form>")[0]
    assert scored_game(client, table).rounds == ()


def test_a_player_who_cannot_ante_is_shown_out_and_left_off_the_form(client):
    table, key = new_table(client, players=("Ann", "Ben", "Cat"), chips="20", poker="no")
    post(client, table, key, dealer="Ann", pay_AH="Ben", out="Ann", p1_left="2", p2_left="15")
    page = client.get(f"{table}?key={key}").get_data(as_text=True)
    assert re.search(r'data-player="Cat">.*?cannot ante', page, re.S)
    form = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    assert "<strong>Cat</strong> is out: 0 chips" in form
    assert 'id="p2_left"' not in form
    post(client, table, key, out="Ben", p0_left="3")
    page = client.get(f"{table}?key={key}").get_data(as_text=True)
    assert re.search(r'data-player="Cat">.*?out \(', page, re.S)
    assert scored_game(client, table).standing["out"] == ["Cat"]


def test_the_table_ends_the_game_from_the_deal_form(client):
    table, key = new_table(client, players=("Ann", "Ben"), poker="no")
    post(client, table, key, out="Ann", p1_left="5")
    response = post(client, table, key, end_to="Ben", out="Ann")
    assert response.status_code == 303
    scored = scored_game(client, table)
    assert scored.over and scored.winners == ("Ben",)
    assert scored.totals == {"Ann": 99, "Ben": 101}
    page = client.get(f"{table}?key={key}").get_data(as_text=True)
    assert "Winner: Ben" in page
    assert f"{table}/hands/new" not in page


def test_a_deal_can_be_corrected(client):
    table, key = new_table(client, players=("Ann", "Ben"))
    post(client, table, key, dealer="Ann", pay_AH="Ben", p0_bet="3", p1_fold="y", out="Ann", p1_left="2")
    page = client.get(f"{table}?key={key}").get_data(as_text=True)
    edit = re.search(r'href="([^"]*/hands/\d+/edit[^"]*)"', page).group(1).replace("&amp;", "&")
    form = client.get(edit).get_data(as_text=True)
    assert re.search(r'checked[^>]*value="Ben"|value="Ben"[^>]*checked', form)
    assert 'value="3"' in form


def test_the_poker_referee_screen(client):
    page = client.get("/referee/rummy-royal/poker")
    assert page.status_code == 200
    response = client.post("/referee/rummy-royal/poker", data={
        "name1": "Ann", "cards1": "KH KD QS QC 7H", "name2": "Ben", "cards2": "KS KC QH QD 9S"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Ben wins" in html and "Ben&#39;s kicker 9 beats Ann&#39;s 7" in html
    bad = client.post("/referee/rummy-royal/poker", data={
        "name1": "Ann", "cards1": "KH KD QS QC 7H", "name2": "Ben", "cards2": "KH KC QH QD 9S"})
    assert bad.status_code == 422
    assert "KH is given twice" in error_beside(bad.get_data(as_text=True), "cards2")
    assert "/referee/rummy-royal/poker" in client.get("/referee/").get_data(as_text=True)


def test_the_rules_page_and_the_game_on_the_home_page(client):
    assert "/new/rummy-royal" in client.get("/").get_data(as_text=True)
    rules = client.get("/rules/rummy-royal")
    assert rules.status_code == 200
    html = rules.get_data(as_text=True)
    for n in range(1, 10):
        assert f'id="RM-{n}"' in html


def test_a_rummy_royal_tournament_seats_tables_and_ranks_a_finished_one(client, app):
    data = {"title": "Board night", "game": "rummy-royal", "entrants": "\n".join(
        ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")), "rounds": "2", "method": "random"}
    response = client.post("/tournaments/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    tour, key = response.headers["Location"].split("?key=")
    assert client.post(f"{tour}/rounds?key={key}", data={"round": "1"}).status_code == 303
    page = client.get(f"{tour}?key={key}").get_data(as_text=True)
    links = re.findall(r'href="(/t/[\w-]+)\?key=([\w-]+)">Round 1, table (\d)', page)
    assert len(links) >= 2
    table, table_key, _ = links[0]
    seated = exported(client, table)["players"]
    # one deal: the first player goes out and the second holds 5 cards; then the table ends it (RM-8)
    fields = {"out": seated[0], "p1_left": "5"}
    assert post(client, table, table_key, **fields).status_code == 303
    assert post(client, table, table_key, end_to=seated[0]).status_code == 303
    scored = scored_game(client, table)
    assert scored.over and scored.winners == (seated[0],)
    standings = client.get(tour).get_data(as_text=True)
    assert seated[0] in standings and "Standings" in standings
    # the round's pack: each table's blank board tally, built off the request path
    assert client.get(f"{tour}/rounds/1/pack?key={key}").status_code == 200
    path = packs.pack_path(app, tour.rsplit("/", 1)[1], 1)
    deadline = time.monotonic() + 60
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    text = re.sub(r"\s", "", PdfReader(path).pages[1].extract_text())  # after the director's seating list
    assert "Leftontheboard" in text and "Chipseachplayerholds" in text


def test_the_csv_export_gives_the_chips_held_after_each_deal(client):
    table, key = new_table(client, players=("Ann", "Ben"), poker="no")
    post(client, table, key, out="Ann", p1_left="5")
    rows = client.get(f"{table}/export.csv").get_data(as_text=True).splitlines()
    assert rows[1] == "1,-1,-13,99,87"  # Ann antes 8, takes the Kitty 2 and 5 from Ben
    assert rows[2] == "total,99,87,,"
