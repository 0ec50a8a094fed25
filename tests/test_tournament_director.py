"""A director's evening through the web: the game's options on every table, seating confirmed by
round number (a second tap seats nothing), undoing a seating, calling time and adjusting a result.

Worked by hand (pool 101, IR-9: the lowest count is best; match points 2, 1, 0 at a table of three):
  Round 1, table 1 is Ann, Ben, Cat (the round-robin rotation's first round). One deal: Ann
  declares, Ben counts 80, Cat 30. Time is called: the table counts as it stands, Ann 0 (1st,
  2 points), Cat 30 (2nd, 1 point), Ben 80 (3rd, 0). The average is 110/3, so Ann's score
  difference is +36⅔, Cat's +6⅔ and Ben's −43⅓.
  The director then adjusts table 2 (Dan, Eve, Fay, nothing entered): Dan 10, Eve 10, Fay 40,
  "scores taken from the paper sheet". Dan and Eve share 1st and 2nd: 1½ points each, Fay 0; the
  average is 20, so Dan and Eve +10, Fay −20 (low wins).
"""

from __future__ import annotations

import html
import json
import re

from companion.storage.db import borrowed
from companion.tournaments import store

PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy")
DECLARATION = "AH 2H 3H | 5S 6S 7D 8S | QC QD QS | 9H 10H JH"


def create(client, game="indian-rummy", entrants=PLAYERS, rounds="3", **options):
    data = {"title": "Club night", "game": game, "entrants": "\n".join(entrants), "rounds": rounds,
            "method": "round-robin", "table_min": "3", "table_max": "3", **options}
    response = client.post("/tournaments/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].split("?key=")


def seat(client, tour, key, round_number):
    return client.post(f"{tour}/rounds?key={key}", data={"round": str(round_number)})


def edit_links(client, tour, key, round_number):
    page = client.get(f"{tour}?key={key}").get_data(as_text=True)
    return re.findall(rf'href="(/t/[\w-]+)\?key=([\w-]+)">Round {round_number}, table \d', page)


def enter_deal(client, table, table_key, counts, **more):
    """One deal: the first seat declares, the others' counts as given (IR-6)."""
    data = {"base_version": "0", "wild": "7", "winner": "Ann", "p0_mode": "groups", "p0_groups": DECLARATION, **more}
    for i, count in enumerate(counts, 1):
        data |= {f"p{i}_mode": "count", f"p{i}_count": str(count)}
    response = client.post(f"{table}/hands?key={table_key}", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)


def standings_on(page: str) -> dict[str, tuple[str, str]]:
    """Each entrant's match points and score difference, as the standings show them."""
    rows = re.findall(r'<th scope="row">([^<]+)</th>.*?<td class="num total">([^<]+)</td>\s*<td class="num">([^<]+)',
                      page, re.S)
    return {name: (mp, diff) for name, mp, diff in rows}


def test_the_form_asks_for_the_game_then_offers_its_options(client):
    page = client.get("/tournaments/new").get_data(as_text=True)
    assert 'href="/tournaments/new?game=indian-rummy"' in page and "opt-variant" not in page
    page = client.get("/tournaments/new?game=indian-rummy").get_data(as_text=True)
    assert 'value="pool101"' in page and "These options apply to every table" in page
    page = client.get("/tournaments/new?game=rally-the-king").get_data(as_text=True)
    assert 'name="opt-counting"' in page and 'name="opt-hands"' in page
    page = client.get("/tournaments/new?game=royalty").get_data(as_text=True)
    assert 'name="opt-house_allow"' in page and 'name="opt-word_file"' in page and 'name="opt-v_Q"' in page


def test_the_options_reach_every_table_of_every_round(client):
    tour, key = create(client, **{"opt-variant": "pool101"})
    for n in (1, 2, 3):
        assert seat(client, tour, key, n).status_code == 303
        for table, _ in edit_links(client, tour, key, n):
            assert json.loads(client.get(f"{table}/export.json").data)["options"]["variant"] == "pool101"


def test_rally_the_king_options_and_royalty_coalitions_follow_each_tables_players(client):
    tour, key = create(client, game="rally-the-king", entrants=PLAYERS[:8],
                       **{"opt-counting": "traditional", "opt-hands": "8"})
    seat(client, tour, key, 1)
    for table, _ in edit_links(client, tour, key, 1):
        assert json.loads(client.get(f"{table}/export.json").data)["options"] == {"counting": "traditional",
                                                                                   "hands": 8}
    tour, key = create(client, game="royalty", entrants=PLAYERS[:8], **{
        "opt-coalitions": "13-24", "opt-house_allow": "qi, zax", "table_min": "4", "table_max": "4"})
    seat(client, tour, key, 1)
    for table, _ in edit_links(client, tour, key, 1):
        exported = json.loads(client.get(f"{table}/export.json").data)
        p = exported["players"]
        assert exported["options"]["coalitions"] == [[p[0], p[2]], [p[1], p[3]]]  # RY-14, per table
        assert exported["options"]["house_allow"] == ["QI", "ZAX"]


def test_options_the_engine_refuses_come_back_beside_their_field(client):
    # Coalitions need four or six players (RY-14): tables of three cannot have them.
    response = client.post("/tournaments/new", data={
        "title": "Words", "game": "royalty", "entrants": "\n".join(PLAYERS), "rounds": "2", "method": "random",
        "table_min": "3", "table_max": "3", "opt-coalitions": "13-24"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'class="error"' in page and "Ivy" in page  # the input is kept


def test_seating_is_by_round_number_so_a_second_tap_seats_nothing(client, app):
    tour, key = create(client)
    assert seat(client, tour, key, 1).status_code == 303
    again = seat(client, tour, key, 1)
    assert again.status_code == 303
    page = client.get(f"{tour}?key={key}").get_data(as_text=True)
    assert "Round 1 is seated already; nothing changed." in page
    with borrowed(app) as db:
        assert store.rounds_seated(db, tour.rsplit("/", 1)[1]) == 1
        assert len(store.seated(db, tour.rsplit("/", 1)[1])) == 3
    # A form for a round two ahead is refused, with the round that comes next named.
    seat(client, tour, key, 3)
    assert "round 2 is the next to seat, not round 3" in client.get(f"{tour}?key={key}").get_data(as_text=True)


def test_a_seating_is_undone_until_a_table_of_it_has_a_hand(client):
    tour, key = create(client)
    seat(client, tour, key, 1)
    first = edit_links(client, tour, key, 1)
    page = client.get(f"{tour}?key={key}").get_data(as_text=True)
    assert "Undo the seating of round 1" in page
    assert client.post(f"{tour}/rounds/1/undo?key={key}").status_code == 303
    page = html.unescape(client.get(f"{tour}?key={key}").get_data(as_text=True))
    assert "Round 1's seating is undone: its 3 tables are gone." in page and "Seat round 1" in page
    assert client.get(first[0][0]).status_code == 404  # the tables went with it
    seat(client, tour, key, 1)
    table, table_key = edit_links(client, tour, key, 1)[0]
    enter_deal(client, table, table_key, [80, 30])
    page = client.get(f"{tour}?key={key}").get_data(as_text=True)
    assert "Undo the seating of round 1" not in page
    client.post(f"{tour}/rounds/1/undo?key={key}")
    page = client.get(f"{tour}?key={key}").get_data(as_text=True)
    assert "The seating stays: table 1 of round 1 has a hand entered" in page
    assert client.post(f"{tour}/rounds/1/undo").status_code == 403  # the standings link changes nothing


def test_calling_time_counts_a_table_as_it_stands_and_an_adjusted_result_with_its_reason(client):
    tour, key = create(client, **{"opt-variant": "pool101"})
    seat(client, tour, key, 1)
    (t1, k1), (t2, _), _ = edit_links(client, tour, key, 1)
    enter_deal(client, t1, k1, [80, 30])
    page = client.get(tour).get_data(as_text=True)
    assert "playing" in page and "No results yet" not in page
    assert client.post(f"{tour}/rounds/1/call").status_code == 403
    assert client.post(f"{tour}/rounds/1/call?key={key}").status_code == 303
    page = client.get(tour).get_data(as_text=True)
    assert "lowest count first (IR-9)" in page and "time called" in page
    got = standings_on(page)  # Ann 1st (2), Cat 2nd (1), Ben 3rd (0)
    assert got["Ann"] == ("2", "+36.7") and got["Cat"] == ("1", "+6.7") and got["Ben"] == ("0", "−43.3")
    # Adjusting table 2: nothing entered there.
    form = client.get(f"{tour}/tables/{t2.rsplit('/', 1)[1]}/adjust?key={key}")
    assert form.status_code == 200
    bad = client.post(f"{tour}/tables/{t2.rsplit('/', 1)[1]}/adjust?key={key}",
                      data={"total0": "ten", "total1": "10", "total2": "40", "reason": ""})
    assert bad.status_code == 422
    text = bad.get_data(as_text=True)
    assert "Give a whole number of points" in text and "Say why the result is adjusted." in text
    assert 'value="ten"' in text
    ok = client.post(f"{tour}/tables/{t2.rsplit('/', 1)[1]}/adjust?key={key}",
                     data={"total0": "10", "total1": "10", "total2": "40",
                           "reason": "scores taken from the paper sheet"})
    assert ok.status_code == 303
    page = client.get(tour).get_data(as_text=True)
    assert "adjusted by the director: scores taken from the paper sheet" in page
    got = standings_on(page)
    assert got["Dan"] == ("1½", "+10") and got["Eve"] == ("1½", "+10") and got["Fay"] == ("0", "−20")
    # Every entrant is listed. Table 3 had nothing entered when time was called: it stands at
    # 0 all round, so Gus, Hal and Ivy share all three places, (2 + 1 + 0) / 3 = 1 point each.
    assert set(got) == set(PLAYERS)
    assert got["Gus"] == got["Hal"] == got["Ivy"] == ("1", "0")


def test_what_a_table_enters_after_time_is_called_does_not_count(client, app):
    tour, key = create(client, **{"opt-variant": "pool101"})
    seat(client, tour, key, 1)
    (t1, k1), *_ = edit_links(client, tour, key, 1)
    client.post(f"{tour}/rounds/1/call?key={key}")
    enter_deal(client, t1, k1, [80, 30], after_time="yes")  # in the same second, as often as not
    got = standings_on(client.get(tour).get_data(as_text=True))
    assert got["Ann"] == got["Ben"] == got["Cat"] == ("1", "0")  # nothing entered by then: all level
