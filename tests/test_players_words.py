"""Every message a player meets is in the players' words.

Each test asserts the exact words a player reads: error pages asked for by the app's own
htmx forms, the Monarchy checker's cards left, counts in messages ("1 was given"), the
tournament's score differences, the minus sign, and the messages of the entry forms.
"""

from __future__ import annotations

import html as html_lib
import io
import json
import re
import threading

import pytest

from companion import create_app
from companion.core import limits
from tests.conftest import new_table

#: What htmx sends with a boosted form (hx-boost on the body): it asks for anything.
HTMX_BOOSTED = {"HX-Request": "true", "HX-Boosted": "true", "Accept": "*/*"}
#: What htmx sends for a live check swapped beside a field (hx-get with a target).
HTMX_PART = {"HX-Request": "true", "Accept": "*/*"}
#: A browser's own form post, script off.
BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def page_text(response) -> str:
    """The words of a page, tags dropped and spaces folded, as a player reads them."""
    html = response.get_data(as_text=True)
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip())


def assert_page_in_words(response, status: int, words: str) -> None:
    assert response.status_code == status
    assert response.mimetype == "text/html", response.get_data(as_text=True)[:200]
    text = page_text(response)
    assert words in text
    assert '{"errors"' not in response.get_data(as_text=True)


# ---------------------------------------------------------------------------------------
# Error pages: a page asked for by a page gets a page; only programs get JSON


EXPIRED = ("This form could not be checked (its security token is missing or old). "
           "Go back, reload the page and send it again.")


@pytest.mark.parametrize("headers", [HTMX_BOOSTED, {"Accept": "*/*"}, BROWSER], ids=["htmx", "any", "browser"])
def test_an_expired_form_sent_by_a_page_gets_a_page(csrf_app, headers):
    client = csrf_app.test_client()
    client.get("/new/rummathon-royale")
    response = client.post("/new/rummathon-royale", data={"seat1": "Ann", "seat2": "Ben", "csrf_token": "old"},
                           headers=headers)
    assert_page_in_words(response, 400, "Form expired " + EXPIRED)
    assert "<html" in response.get_data(as_text=True)  # the whole page: htmx swaps the body


def test_an_expired_form_sent_by_a_program_gets_json(csrf_app):
    client = csrf_app.test_client()
    response = client.post("/new/rummathon-royale", data={"seat1": "Ann", "seat2": "Ben"},
                           headers={"Accept": "application/json"})
    assert response.status_code == 400
    assert response.get_json() == {"errors": [{"where": "$", "message": EXPIRED}]}


def test_the_creation_limit_through_htmx_is_a_page(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "r.sqlite"), "SECRET_KEY": "x",
                      "WTF_CSRF_ENABLED": False, "CREATE_RATE": "1 per minute", "RATELIMIT_ENABLED": True})
    client = app.test_client()
    seats = {"seat1": "Ann", "seat2": "Ben"}
    assert "HX-Location" in client.post("/new/rummathon-royale", data=seats, headers=HTMX_BOOSTED).headers
    response = client.post("/new/rummathon-royale", data=seats, headers=HTMX_BOOSTED)
    assert_page_in_words(response, 429, "Too many at once This phone has made many new tables in a short time. "
                                        "Wait a minute and try again.")
    assert response.headers["Retry-After"] == "60"
    api = client.post("/new/rummathon-royale", data=seats, headers={"Accept": "application/json"})
    assert api.status_code == 429 and api.get_json()["errors"][0]["message"].startswith("This phone has made")
    limits.configure({})


def test_a_view_link_saving_through_htmx_gets_a_page(client):
    view_url, _ = new_table(client)
    response = client.post(f"{view_url}/hands", data={"base_version": "0", "out": "Ann"}, headers=HTMX_BOOSTED)
    assert_page_in_words(response, 403, "This is a view link: it can show the scores but not change them. "
                                         "Use the table's edit link to enter scores.")


def test_a_busy_server_through_htmx_is_a_page(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "b.sqlite"), "SECRET_KEY": "x",
                      "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False, "HEAVY_WORKERS": 1,
                      "HEAVY_QUEUE": 0})
    client = app.test_client()
    response = client.post("/tournaments/new", data={
        "title": "Club", "game": "rally-the-king", "entrants": "Ann\nBen\nCat\nDan", "rounds": "1",
        "method": "random"})
    tour, key = response.headers["Location"].split("?key=")
    release = threading.Event()
    app.extensions["courtier.heavy"].submit(release.wait)
    try:
        response = client.post(f"{tour}/rounds?key={key}", data={"round": "1"}, headers=HTMX_BOOSTED)
        assert_page_in_words(response, 503, "Busy Courtier is busy printing for other tables. "
                                            "Try again in a few seconds.")
        assert response.headers["Retry-After"] == "5"
    finally:
        release.set()
    limits.configure({})


def test_an_error_swapped_beside_a_field_is_a_fragment_in_words(client):
    response = client.get("/no-such-page", headers=HTMX_PART)
    assert response.status_code == 404 and response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert "<html" not in html and html.startswith('<p class="error" role="alert">')
    assert page_text(response).startswith("Not Found. The requested URL was not found on the server.")


def test_the_api_answers_json_even_to_a_browser(client):
    response = client.post("/api/v1/score", data="{", headers=BROWSER, content_type="application/json")
    assert response.status_code in (400, 422)
    assert "errors" in response.get_json()


# ---------------------------------------------------------------------------------------
# The Monarchy checker: the cards left as players write them, not a Python list


def test_the_monarchy_checker_names_the_cards_left_as_cards(client):
    # RY-16: CALM and ZEBRA from the deal; 25 − 4 − 5 = 16 cards left, in the order dealt (of the
    # two Eb and two Ab dealt, one each is left, named where the first was dealt).
    response = client.post("/referee/royalty/monarchy", data={
        "dealt": "Zb Cr Pr Qr Mb Eb Ar Ab Ur * Bb Lr Rr Ir Ob Rb Mr Tb Er Nb Ab Ir Eb Sr Tr",
        "words": "Cr Ar Lr Mr\nZb Eb Bb Rb Ab"})
    text = page_text(response)
    assert "Valid so far 16 cards left: Pr Qr Mb Eb Ab Ur * Rr Ir Ob Tb Er Nb Ir Sr Tr " in text
    assert "[" not in text and "'" not in text.split("16 cards left")[1].split("Monarchy checker")[0]


def test_a_monarchy_deal_of_one_card_says_one_was_given(client):
    response = client.post("/referee/royalty/monarchy", data={"dealt": "Cr", "words": "Cr Ar Lr Mr"})
    assert response.status_code == 422
    assert "Monarchy deals 25 cards; 1 was given (RY-16)" in page_text(response)


# ---------------------------------------------------------------------------------------
# Counts: "1 was given", "1 extra card", "1 table"


@pytest.mark.parametrize("players,words", [
    (["Ann"], "Rummathon Royale is played by 2 to 6 players; 1 was named"),
    ([], "Rummathon Royale is played by 2 to 6 players; none were named"),
    (["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"], "Rummathon Royale is played by 2 to 6 players; 7 were named"),
])
def test_the_number_of_players_reads_as_a_sentence(client, players, words):
    response = client.post("/api/v1/score", json={"game": "rummathon-royale", "players": players, "rounds": []})
    assert response.status_code == 422
    assert response.get_json()["errors"] == [{"where": "players", "message": words}]


def test_one_extra_card_is_singular(client):
    # RR-4: 5 points buy ceil(5 / 10) = 1 extra card; asking for 2 is refused.
    response = client.post("/api/v1/score", json={"game": "rummathon-royale", "players": ["Ann", "Ben"], "rounds": [
        {"out": "Ben", "left": {"Ann": {"low": 1}}},
        {"out": "Ann", "extra_cards": {"Ben": 2}}]})
    assert response.get_json()["errors"] == [{"where": "rounds[1].extra_cards.Ben",
                                             "message": "Ben has 5 points, which buy at most 1 extra card (RR-4)"}]


def test_one_card_left_pays_one_chip_in_the_singular():
    from companion import games

    # RM-6: Ann went out; Ben's one card left pays her one chip.
    scored = games.score({"game": "rummy-royal", "players": ["Ann", "Ben"], "options": {"poker": False},
                          "rounds": [{"dealer": "Ann", "out": "Ann", "cards_left": {"Ben": 1}}]})
    assert "Ben had 1 card left: pays Ann 1 chip (RM-6)" in scored.rounds[0].explain["Ben"]


# ---------------------------------------------------------------------------------------
# Tournament standings: differences as a player reads them, one decimal


def tournament_with_thirds(client):
    """Three players at one table of Rummathon Royale: differences in thirds of a point."""
    response = client.post("/tournaments/new", data={
        "title": "Thirds", "game": "rummathon-royale", "entrants": "Ann\nBen\nCat", "rounds": "1",
        "method": "random", "opt-schedule": "half", "size": "3"})
    assert response.status_code == 303, page_text(response)
    tour, key = response.headers["Location"].split("?key=")
    client.post(f"{tour}/rounds?key={key}", data={"round": "1"})
    page = client.get(f"{tour}?key={key}").get_data(as_text=True)
    table, table_key = re.search(r'href="(/t/[\w-]+)\?key=([\w-]+)">Round 1, table 1', page).groups()
    return tour, key, table, table_key


def standings_rows(page: str) -> dict[str, tuple[str, str]]:
    rows = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", page, re.S):
        cells = [html_lib.unescape(re.sub(r"<[^>]+>", " ", c)).split() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>",
                                                                                                row, re.S)]
        words = [" ".join(c) for c in cells]
        if len(words) >= 4 and words[1] in ("Ann", "Ben", "Cat"):
            rows[words[1]] = (words[-2], words[-1])
    return rows


def test_score_differences_show_one_decimal_with_a_true_minus(client):
    tour, key, table, table_key = tournament_with_thirds(client)
    players = client.get(f"{table}/export.json").get_json()["players"]
    # Each hand: the first player goes out and collects 1 Flex (25) from the second, until the first
    # has finished the half schedule (6 rounds, RR-5, RR-6). Totals 150, 0, 0: average 50.
    first, second, third = players
    # Hand 1: the second goes out and collects the first's one card of 1-9, 5 (RR-1, RR-2). Then the
    # first goes out six times, each time collecting the second's Flex, 25, and finishes the half
    # schedule in hand 7 (RR-5, RR-6). Totals 150, 5, 0.
    response = client.post(f"{table}/hands?key={table_key}", data={"base_version": "0", "out": second,
                                                                   "p0_low": "1"})
    assert response.status_code == 303
    for n in range(1, 7):
        response = client.post(f"{table}/hands?key={table_key}", data={
            "base_version": str(n), "out": first, "p0_progress": "completed", "p1_flex": "1"})
        assert response.status_code == 303, page_text(response)
    page = client.get(tour).get_data(as_text=True)
    rows = standings_rows(page)
    # Average 155/3 = 51⅔: differences 150 − 51⅔ = +98⅓, 5 − 51⅔ = −46⅔, −51⅔; places 2, 1, 0 points.
    assert rows == {first: ("2", "+98.3"), second: ("1", "−46.7"), third: ("0", "−51.7")}, rows
    sheet = pdf_text(client.get(f"{tour}/standings.pdf").data)
    assert "+98.3" in sheet and "−46.7" in sheet and "−51.7" in sheet


# ---------------------------------------------------------------------------------------
# Rummathon Royale: a contradictory choice is refused beside its field, never changed


def error_beside(page: str, field_id: str) -> str:
    m = re.search(rf'<p class="error" id="{re.escape(field_id)}-error">(.*?)</p>', page, re.S)
    assert m, f"no message beside {field_id}"
    return html_lib.unescape(re.sub(r"<[^>]+>", "", m.group(1))).strip()


def selected(page: str, field_id: str) -> str:
    """The choice made in a dropdown or a row of choices to tap."""
    select = re.search(rf'<select[^>]*id="{field_id}"[^>]*>(.*?)</select>', page, re.S)
    if select:
        return re.search(r'<option selected value="([^"]*)"', select.group(1)).group(1)
    radio = rf'<input checked id="{field_id}-\d+" name="{field_id}" type="radio" value="([^"]*)"'
    return re.search(radio, page).group(1)


def test_not_completed_for_who_went_out_is_refused_beside_the_field(client):
    view_url, edit_url = new_table(client)
    key = edit_url.split("key=")[1]
    response = client.post(f"{view_url}/hands?key={key}", data={
        "base_version": "0", "out": "Ann", "p0_progress": "failed", "p1_low": "2"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert error_beside(page, "p0_progress") == ("Ann went out, which completes the round, yet the entry says Ann "
                                                 "did not complete the round (RR-2, RR-5)")
    assert selected(page, "p0_progress") == "failed"  # what was chosen is kept, not changed
    assert client.get(f"{view_url}/export.json").get_json()["rounds"] == []


def test_not_completed_for_who_completed_a_burden_is_refused_beside_the_field(client):
    view_url, edit_url = new_table(client)
    key = edit_url.split("key=")[1]
    response = client.post(f"{view_url}/hands?key={key}", data={
        "base_version": "0", "out": "Ann", "p0_progress": "completed", "p1_progress": "failed",
        "b0_on": "Ben", "b0_by": "Cat", "b0_result": "completed"})
    assert response.status_code == 422
    assert error_beside(response.get_data(as_text=True), "p1_progress") == (
        "Ben completed a Burden, which lays down the round, yet the entry says Ben did not complete the round (RR-3)")


def test_a_form_that_does_not_send_the_round_leaves_it_to_the_rules(client):
    """A post without the field (a script, an old form) chose nothing: going out completes the round (RR-2)."""
    view_url, edit_url = new_table(client)
    key = edit_url.split("key=")[1]
    response = client.post(f"{view_url}/hands?key={key}", data={"base_version": "0", "out": "Ann", "p1_low": "2"})
    assert response.status_code == 303
    played = client.get(f"{view_url}/export.json").get_json()["rounds"]
    assert played == [{"out": "Ann", "left": {"Ben": {"low": 2}}}]


# ---------------------------------------------------------------------------------------
# Rummy Royal: every problem of a deal at once


def test_rummy_royal_shows_a_bet_too_big_and_a_missing_winner_together(client):
    response = client.post("/new/rummy-royal", data={"seat1": "Ann", "seat2": "Ben", "seat3": "Cat",
                                                     "opt-chips": "100", "opt-sequence": "8-9-10",
                                                     "opt-poker": "yes", "opt-dealer_antes": "1"})
    table, key = response.headers["Location"].split("?key=")
    response = client.post(f"{table}/hands?key={key}", data={"base_version": "0", "dealer": "Ann", "p0_bet": "500",
                                                             "out": "Ben", "p0_left": "3"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    # RM-3: Ann antes 1 on each of the 9 spaces, 100 − 9 = 91 at the poker stage (RM-5).
    assert error_beside(page, "p0_bet") == "Ann has only 91 chips at the poker stage, so cannot bet 500 (RM-5)"
    assert error_beside(page, "winners") == ("name who won the poker hand (or give the cards and let the referee "
                                             "decide) (RM-5)")


# ---------------------------------------------------------------------------------------
# Correcting an old hand: the form shows the game as it stood before that hand


def legend(page: str, player: str) -> str:
    m = re.search(rf'<legend>{player} <small>(.*?)</small></legend>', page)
    return html_lib.unescape(m.group(1))


def hint_beside(page: str, field_id: str) -> str:
    m = re.search(rf'id="{field_id}".*?<small class="hint">(.*?)</small>', page, re.S)
    return html_lib.unescape(m.group(1))


def test_correcting_an_old_hand_shows_and_uses_the_standings_before_it(client):
    view_url, edit_url = new_table(client, players=("Ann", "Ben"))
    key = edit_url.split("key=")[1]
    # Hand 1: Ann out, Ben's 2 Flex = 50 (RR-1, RR-2); hand 2: Ann out, Ben's 3 of 1-9 = 15. Ann 65.
    for n, left in enumerate(({"p1_flex": "2"}, {"p1_low": "3"})):
        response = client.post(f"{view_url}/hands?key={key}", data={"base_version": str(n), "out": "Ann",
                                                                    "p0_progress": "completed", **left})
        assert response.status_code == 303
    slots = [int(s) for s in re.findall(rf'{view_url}/hands/(\d+)/edit', client.get(edit_url).get_data(as_text=True))]
    first, second = sorted(set(slots))[:2]
    page = client.get(f"{view_url}/hands/{first}/edit?key={key}").get_data(as_text=True)
    assert legend(page, "Ann") == "on round 1 · 0 points" and legend(page, "Ben") == "on round 1 · 0 points"
    assert hint_beside(page, "p0_extra") == "Ann's 0 points buy up to 0 extra cards (RR-4)"
    page = client.get(f"{view_url}/hands/{second}/edit?key={key}").get_data(as_text=True)
    assert legend(page, "Ann") == "on round 2 · 50 points"
    assert hint_beside(page, "p0_extra") == "Ann's 50 points buy up to 5 extra cards (RR-4)"
    new = client.get(f"{view_url}/hands/new?key={key}").get_data(as_text=True)
    assert legend(new, "Ann") == "on round 3 · 65 points"  # a new hand: the game today
    # Saving the correction is checked against the same state: 5 extra cards, not 6 (RR-4).
    response = client.post(f"{view_url}/hands/{second}?key={key}", data={
        "base_version": "2", "out": "Ann", "p0_progress": "completed", "p1_low": "3", "p0_extra": "6"})
    assert response.status_code == 422
    assert error_beside(response.get_data(as_text=True), "p0_extra") == (
        "Ann has 50 points, which buy at most 5 extra cards (RR-4)")
    response = client.post(f"{view_url}/hands/{second}?key={key}", data={
        "base_version": "2", "out": "Ann", "p0_progress": "completed", "p1_low": "3", "p0_extra": "5"})
    assert response.status_code == 303
    # RR-4: 5 extra cards cost 50; hand 2 is then +15 − 50 = −35, and Ann has 15.
    assert client.get(f"{view_url}/export.json").get_json()["rounds"][1]["extra_cards"] == {"Ann": 5}


def test_correcting_an_old_rummy_royal_deal_shows_the_board_before_it(client):
    response = client.post("/new/rummy-royal", data={"seat1": "Ann", "seat2": "Ben", "opt-chips": "100",
                                                     "opt-sequence": "8-9-10", "opt-poker": "no",
                                                     "opt-dealer_antes": "1"})
    table, key = response.headers["Location"].split("?key=")
    # Deal 1: nobody held the AH; its 2 chips stay (RM-3, RM-4). Deal 2 adds 2 more.
    for n in range(2):
        assert client.post(f"{table}/hands?key={key}", data={"base_version": str(n), "out": "Ann"}).status_code == 303
    slots = sorted({int(s) for s in re.findall(rf'{table}/hands/(\d+)/edit', client.get(f"{table}?key={key}")
                                               .get_data(as_text=True))})

    def on_the_ace(address: str) -> str:
        page = client.get(address).get_data(as_text=True)
        return re.search(r'A♥ <small class="on-space">(\d+) on it with the antes</small>', page).group(1)

    assert on_the_ace(f"{table}/hands/{slots[0]}/edit?key={key}") == "2"
    assert on_the_ace(f"{table}/hands/{slots[1]}/edit?key={key}") == "4"
    assert on_the_ace(f"{table}/hands/new?key={key}") == "6"


# ---------------------------------------------------------------------------------------
# The command line: a message and exit 2, never a traceback


def run(*args, input=None):
    from click.testing import CliRunner

    from companion.cli import main

    return CliRunner().invoke(main, list(args), input=input)


@pytest.mark.parametrize("command", ["score", "import"])
def test_an_endless_file_is_refused_in_words(command):
    result = run(command, "/dev/zero")
    assert result.exit_code == 2, result.output
    assert not isinstance(result.exception, MemoryError)
    assert json.loads(result.output)["errors"] == [{"where": "FILE", "message": (
        "/dev/zero holds more than 32 MB, far more than any game; is it the right file? "
        "A game file is the JSON of docs/api.md")}]


def test_a_file_that_is_not_text_is_refused_in_words(tmp_path):
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0 not a game")
    result = run("score", str(path))
    assert result.exit_code == 2
    assert json.loads(result.output)["errors"][0]["message"] == (
        f"{path} is not text in UTF-8, so not a game file (the JSON of docs/api.md)")


@pytest.fixture
def database(tmp_path, monkeypatch):
    path = tmp_path / "live.sqlite"
    monkeypatch.setenv("COURTIER_DATABASE", str(path))
    monkeypatch.setenv("COURTIER_SECRET_KEY", "cli")
    assert run("init-db").exit_code == 0
    return path


def test_a_backup_onto_the_live_database_is_refused(database, monkeypatch, tmp_path):
    size = database.stat().st_size
    for name in (str(database), str(tmp_path / "." / "live.sqlite")):
        result = run("backup", name)
        assert result.exit_code == 2, result.output
        assert json.loads(result.output)["errors"] == [{"where": "DESTINATION", "message": (
            f"{name} is the live database itself, so a backup there would copy nothing; name another file, such "
            "as backups/courtier.sqlite")}]
    assert database.stat().st_size == size
    monkeypatch.chdir(tmp_path)
    assert run("backup", "live.sqlite").exit_code == 2  # the same file by a relative name


def test_a_backup_into_a_missing_folder_is_refused(database, tmp_path):
    result = run("backup", str(tmp_path / "backups" / "monday.sqlite"))
    assert result.exit_code == 2, result.output
    assert json.loads(result.output)["errors"] == [{"where": "DESTINATION", "message": (
        f"there is no folder {tmp_path / 'backups'} to write monday.sqlite in; create it first "
        f"(mkdir -p {tmp_path / 'backups'})")}]
    assert not (tmp_path / "backups").exists()
    (tmp_path / "backups").mkdir()
    assert run("backup", str(tmp_path / "backups" / "monday.sqlite")).exit_code == 0


def test_a_backup_onto_a_file_that_is_not_a_database_is_refused(database, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping: milk, eggs, and a new pack of cards\n" * 20)
    result = run("backup", str(notes))
    assert result.exit_code == 2
    assert json.loads(result.output)["errors"][0]["message"].startswith(f"cannot write the backup to {notes}: ")


# ---------------------------------------------------------------------------------------
# One minus sign: U+2212 for every number shown to people, on screens and on sheets


#: A hyphen standing for a minus before a number, as a player would read it: "-5", "(-5", "= -5".
HYPHEN_MINUS = re.compile(r"(?:^|[\s(=:,;×/·])-\d")


def pdf_text(pdf: bytes) -> str:
    from pypdf import PdfReader

    return " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


def minus_games() -> dict[str, dict]:
    from tests.finished_games import all_finished

    games_ = all_finished()
    # Rummy Royal: Ben pays Ann for his cards, a deal of −13 for him (RM-3, RM-6).
    games_["rummy-royal"] = {"game": "rummy-royal", "players": ["Ann", "Ben"], "options": {"poker": False},
                             "rounds": [{"dealer": "Ann", "out": "Ann", "cards_left": {"Ben": 5}}]}
    return games_


@pytest.mark.parametrize("name,body", sorted(minus_games().items()))
def test_every_page_of_a_table_shows_negative_numbers_with_a_true_minus(client, name, body):
    response = client.post("/import", data={"text": json.dumps(body)})
    assert response.status_code == 303, page_text(response)
    edit_url = response.headers["Location"]
    table, key = edit_url.split("?key=")
    page = client.get(edit_url).get_data(as_text=True)
    slots = sorted({int(s) for s in re.findall(rf"{table}/hands/(\d+)/edit", page)})
    addresses = [edit_url, f"{table}/board", f"{table}/history?key={key}", f"{table}/players?key={key}"]
    addresses += [f"{table}/hands/{s}/why" for s in slots] + [f"{table}/hands/{slots[0]}/edit?key={key}"]
    shown = []
    for address in addresses:
        response = client.get(address)
        assert response.status_code == 200, address
        text = page_text(response)
        assert not HYPHEN_MINUS.search(text), (address, HYPHEN_MINUS.search(text), text)
        shown.append(text)
    scored = client.post("/api/v1/score", json=body).get_json()
    if any(v < 0 for r in scored["rounds"] for v in r["points"].values()):
        assert "−" in " ".join(shown)  # there was a minus to show, and it was the true one
        words = pdf_text(client.get(f"{table}/sheet.pdf").data)
        assert "−" in words and not HYPHEN_MINUS.search(words), HYPHEN_MINUS.search(words)


def test_the_tournament_adjustment_takes_either_minus(client):
    response = client.post("/tournaments/new", data={"title": "Club", "game": "rally-the-king",
                                                     "entrants": "Ann\nBen\nCat\nDan", "rounds": "1",
                                                     "method": "random"})
    tour, key = response.headers["Location"].split("?key=")
    client.post(f"{tour}/rounds?key={key}", data={"round": "1"})
    page = client.get(f"{tour}?key={key}").get_data(as_text=True)
    table = re.search(r'href="/t/([\w-]+)\?key=[\w-]+">Round 1, table 1', page).group(1)
    assert client.post(f"{tour}/rounds/1/call?key={key}").status_code == 303
    form = client.get(f"{tour}/tables/{table}/adjust?key={key}").get_data(as_text=True)
    names = re.findall(r'<label for="total(\d)">([^<]+)</label>', form)
    assert len(names) == 4, form
    values = {"total0": "12", "total1": "-4", "total2": "−4", "total3": "−4", "reason": "Time called mid-hand"}
    response = client.post(f"{tour}/tables/{table}/adjust?key={key}", data=values)
    assert response.status_code == 303, page_text(response)
    standings = page_text(client.get(tour))
    assert "-4" not in standings and "−4" in standings
