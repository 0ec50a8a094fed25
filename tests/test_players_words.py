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
