"""Tournaments through the web: create, seat rounds as real tables, standings, packs."""

from __future__ import annotations

import json
import re
import time

import pytest
from pypdf import PdfReader

from companion.tournaments import packs


def create(client, game="rally-the-king", entrants=("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"),
           rounds="3", method="round-robin", **extra):
    data = {"title": "Friday club", "game": game, "entrants": "\n".join(entrants), "rounds": rounds,
            "method": method, **extra}
    response = client.post("/tournaments/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    location = response.headers["Location"]
    return location.split("?key=")


def seat(client, tour, key, round_number=1):
    response = client.post(f"{tour}/rounds?key={key}", data={"round": str(round_number)})
    assert response.status_code == 303
    return client.get(f"{tour}?key={key}").get_data(as_text=True)


def test_seating_a_round_creates_real_tables_and_standings_follow_their_results(client):
    tour, key = create(client)
    page = seat(client, tour, key)
    assert "Round 1 seated: 2 tables" in page
    links = re.findall(r'href="(/t/[\w-]+)\?key=([\w-]+)">Round 1, table (\d)', page)
    assert len(links) == 2
    # Table 1: a solo by its first player, 64 points: won, +12 against three at -4 (RK-3, RK-7).
    table, table_key, _ = links[0]
    form = client.get(f"{table}/hands/new?key={table_key}").get_data(as_text=True)
    players = re.findall(r'<option (?:selected )?value="([^"]+)">\1</option>', form)[:4]
    client.post(f"{table}/hands?key={table_key}", data={"base_version": "0", "dealer": players[0], "bid": "solo",
                                                         "declarer": players[0], "declarer_points": "64"})
    standings = client.get(tour).get_data(as_text=True)
    assert "Standings" in standings
    # Unfinished tables do not count yet: nobody has played a finished game.
    assert "No results yet" in standings or players[0] in standings


def test_only_the_director_seats_rounds(client):
    tour, key = create(client)
    assert client.post(f"{tour}/rounds").status_code == 403
    assert client.post(f"{tour}/rounds?key=wrong").status_code == 403
    assert "Seat round 1" not in client.get(tour).get_data(as_text=True)


@pytest.mark.parametrize("sent", [{}, {"round": ""}, {"round": "two"}])
def test_seating_without_a_round_number_is_refused_in_words(client, sent):
    """An old cached form or a script that leaves out the round would seat the next round each time
    it is sent: it is refused, nothing is seated, and the page says which round is next."""
    tour, key = create(client)
    seat(client, tour, key, 1)
    answer = client.post(f"{tour}/rounds?key={key}", data=sent)
    assert answer.status_code == 422
    page = answer.get_data(as_text=True)
    assert "Nothing was seated: the button did not say which round to seat" in page
    assert "Round 2 is the next to seat" in page
    assert "1 of 3 rounds seated" in page
    assert "1 of 3 rounds seated" in client.get(f"{tour}?key={key}").get_data(as_text=True)


def test_impossible_seating_is_refused_with_the_input_kept(client):
    data = {"title": "Odd", "game": "rally-the-king", "entrants": "Ann\nBen\nCat\nDan\nEve", "rounds": "2",
            "method": "random"}
    response = client.post("/tournaments/new", data=data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "cannot be split into tables of exactly 4" in page and "Eve" in page


def test_alliance_royals_teams_sit_opposite(client):
    tour, key = create(client, game="alliance-royals", entrants=("Ann & Cat", "Ben & Dan", "Eve & Gus", "Fay & Hal"),
                       rounds="3")
    page = seat(client, tour, key)
    table, table_key = re.findall(r'href="(/t/[\w-]+)\?key=([\w-]+)">Round 1, table 1', page)[0]
    import json

    players = json.loads(client.get(f"{table}/export.json").data)["players"]
    # Seats 1 + 3 are one team and 2 + 4 the other (AR-2).
    teams = [{"Ann", "Cat"}, {"Ben", "Dan"}, {"Eve", "Gus"}, {"Fay", "Hal"}]
    assert {players[0], players[2]} in teams and {players[1], players[3]} in teams


def test_the_round_pack_is_built_off_the_request_path(client, app):
    tour, key = create(client, entrants=[f"P{i}" for i in range(1, 9)])
    seat(client, tour, key)
    status = client.get(f"{tour}/rounds/1/pack?key={key}")
    assert status.status_code == 200
    path = packs.pack_path(app, tour.rsplit("/", 1)[1], 1)
    deadline = time.monotonic() + 120  # a pool's job, on a machine that may be running the whole suite
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert path.exists()
    pdf = client.get(f"{tour}/rounds/1/pack.pdf?key={key}")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    reader = PdfReader(path)
    assert len(reader.pages) == 3  # the seating list, then one page per table
    assert "round 1 of 3 seating" in reader.pages[0].extract_text()
    text = reader.pages[1].extract_text()
    flat = re.sub(r"\s", "", text)  # pypdf splits words at kerned capitals ("T able")
    assert "Round1of3" in flat and "Table1" in flat and "Fridayclub" in flat
    # The game's own blank sheet, the table's players in seat order, and its edit link.
    assert "Bid (RK-4)" in text and "Bonuses (RK-8)" in text  # Rally the King's own sheet
    table_page = client.get(f"{tour}?key={key}").get_data(as_text=True)
    first_table, first_key = re.findall(r'href="(/t/[\w-]+)\?key=([\w-]+)">Round 1, table 1', table_page)[0]
    # pypdf splits words at kerned capitals ("T able"), so the link is looked for without white space.
    assert first_key in re.sub(r"\s", "", text)
    players = json.loads(client.get(f"{first_table}/export.json").data)["players"]
    assert [text.index(p) for p in players] == sorted(text.index(p) for p in players)
    assert client.get(f"{tour}/rounds/1/pack.pdf").status_code == 403
    pdf.close()


@pytest.mark.one_database  # rendering PDFs: the same work on either database
def test_standings_pdf(client):
    tour, key = create(client)
    seat(client, tour, key)
    response = client.get(f"{tour}/standings.pdf")
    assert response.status_code == 200
    import io

    assert "Friday club" in PdfReader(io.BytesIO(response.data)).pages[0].extract_text()


@pytest.mark.one_database  # rendering PDFs: the same work on either database
def test_a_twenty_table_pack(client, app):
    tour, key = create(client, entrants=[f"Player {i:02d}" for i in range(1, 81)], method="random")
    seat(client, tour, key)
    started = client.get(f"{tour}/rounds/1/pack?key={key}").get_data(as_text=True)
    assert "Building the pack" in started or "Download the pack" in started  # the page never waits for it
    path = packs.pack_path(app, tour.rsplit("/", 1)[1], 1)
    deadline = time.monotonic() + 300  # 24 s alone; a loaded two-core machine takes several times that
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(PdfReader(path).pages) == 21  # the seating list and 20 tables
    assert "Download the pack" in client.get(f"{tour}/rounds/1/pack?key={key}").get_data(as_text=True)


def test_a_table_whose_time_was_called_says_so_and_asks_before_saving(client):
    """Time called on round 1: its tables say so, and a hand saved after it (which the standings
    leave out) is saved only once the player confirms, with what was typed kept in between."""
    tour, key = create(client)
    page = seat(client, tour, key)
    table, table_key, _ = re.findall(r'href="(/t/[\w-]+)\?key=([\w-]+)">Round 1, table (\d)', page)[0]
    players = json.loads(client.get(f"{table}/export.json").data)["players"]
    hand = {"base_version": "0", "dealer": players[0], "bid": "solo", "declarer": players[0],
            "declarer_points": "64"}  # a solo of 64 points: won, +12 and three times -4 (RK-3, RK-7)
    assert client.post(f"{table}/hands?key={table_key}", data=hand).status_code == 303
    assert "Time was called" not in client.get(f"{table}?key={table_key}").get_data(as_text=True)
    assert client.post(f"{tour}/rounds/1/call?key={key}").status_code == 303

    shown = client.get(f"{table}?key={table_key}").get_data(as_text=True)
    assert "Time was called on round 1 of Friday club" in shown
    assert "hands saved now do not count in its standings" in shown
    form = client.get(f"{table}/hands/new?key={table_key}").get_data(as_text=True)
    assert "a hand saved now does not count in the tournament" in form

    second = {"base_version": "1", "dealer": players[1], "bid": "solo", "declarer": players[1],
              "declarer_points": "40"}  # 40 < 60: lost, -12 and three times +4
    asked = client.post(f"{table}/hands?key={table_key}", data=second)
    assert asked.status_code == 409
    html = asked.get_data(as_text=True)
    assert "Time was called on round 1 of Friday club: this hand will not count" in html
    assert 'name="after_time" type="hidden" value="yes"' in html or 'name="after_time" value="yes"' in html
    assert 'value="40"' in html  # what was typed stays
    assert len(json.loads(client.get(f"{table}/export.json").data)["rounds"]) == 1  # nothing saved yet

    saved = client.post(f"{table}/hands?key={table_key}", data={**second, "after_time": "yes"})
    assert saved.status_code == 303
    rounds = json.loads(client.get(f"{table}/export.json").data)["rounds"]
    assert [r["declarer_points"] for r in rounds] == [64, 40]
    standings = client.get(f"{tour}/board").get_data(as_text=True)
    assert "+12" in standings and "−12" not in standings  # the standings keep the table as it stood
