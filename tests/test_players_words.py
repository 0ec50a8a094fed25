"""Every message a player meets is in the players' words (issue 24, "Speak to players").

Each test asserts the exact words a player reads: error pages asked for by the app's own
htmx forms, the Monarchy checker's cards left, counts in messages ("1 was given"), the
tournament's score differences, the minus sign, and the messages of the entry forms.
"""

from __future__ import annotations

import html as html_lib
import re
import threading

import pytest

from companion import create_app, limits
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
    sheet = client.get(f"{tour}/standings.pdf")
    assert sheet.status_code == 200
