"""Numbers of any size, and JSON of any depth, through every route that takes them, in every language.

Babel writes at most 28 digits by default: a number of 10^25 or more used to stop a French or Hindi page
with a 500, and a table that held one was broken for good there. Every such number is now either refused
in words (a 4xx naming the field) or said; a body nested past MAX_JSON_DEPTH (32) is refused in words
on every route that reads JSON, however deep, without recursing.
"""

from __future__ import annotations

import io
import json
import re

import pytest

from companion.core import messages
from companion.storage.db import borrowed

#: Numbers are said the same whatever the database keeps: every test here runs once, on SQLite.
pytestmark = pytest.mark.one_database

HUGE = [1e25, 1e308, -1e308, 10**30]
LANGUAGES = ["en", "fr", "hi"]
#: A word of every language's error pages: a 500 says this, a refusal in words does not.
CRASHED = "Internal Server Error"

ROYALTY_TURN = {"player": "Ann", "meld": "Cr Ar Lr Mr"}


def verdict_with(value) -> dict:
    """A Royalty turn whose word judge's logged verdict says ``value`` where the list's name goes."""
    said = {"why": {"id": "{word} is in {list} (RY-17)", "values": {"word": "CALM", "list": value}}, "warnings": []}
    return {**ROYALTY_TURN, "judged": [{"word": "CALM", "valid": True, "why": "", "warnings": [], "said": said}]}


#: (game, players, options, rounds, joined): a game with ``HUGE`` put where a number goes. ``X`` is replaced.
X = object()
GAMES = {
    "royals-win-above": ("battle-royals", ["Ann", "Ben"], {"win_above": X}, [], None),
    "royals-lose-below": ("marriage-royals", ["Ann", "Ben", "Cat"], {"lose_below": X}, [], None),
    "alliance-win-above": ("alliance-royals", ["Ann", "Ben", "Cat", "Dan"], {"win_above": X}, [], None),
    "point-value": ("indian-rummy", ["Ann", "Ben", "Cat"], {"point_value": X}, [], None),
    "rummy-royal-chips": ("rummy-royal", ["Ann", "Ben", "Cat"], {"chips": X}, [], None),
    "rally-hands": ("rally-the-king", ["Ann", "Ben", "Cat", "Dan"], {"hands": X}, [], None),
    "rally-points": ("rally-the-king", ["Ann", "Ben", "Cat", "Dan"], {},
                     [{"dealer": "Ann", "bid": "solo", "declarer": "Ben", "declarer_points": X}], None),
    "rally-cards": ("rally-the-king", ["Ann", "Ben", "Cat", "Dan"], {},
                    [{"dealer": "Ann", "bid": "solo", "declarer": "Ben",
                      "declarer_cards": {"honours": X, "kings": 1, "queens": 0, "cavaliers": 0, "valets": 0,
                                         "others": 0, "tricks": 3}}], None),
    "rally-player-points": ("rally-the-king", ["Ann", "Ben", "Cat", "Dan"], {},
                            [{"dealer": "Ann", "bid": "all-beggars", "player_points": {"Ann": X}}], None),
    "rummathon-left": ("rummathon-royale", ["Ann", "Ben"], {},
                       [{"out": "Ann", "left": {"Ben": {"low": X, "high": 0, "action": 0, "sabotage": 0, "flex": 0}}}],
                       None),
    "rummathon-joined": ("rummathon-royale", ["Ann", "Ben", "Cat"], {}, [{"out": "Ann"}], {"Cat": X}),
    "indian-count": ("indian-rummy", ["Ann", "Ben", "Cat"], {},
                     [{"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": X}, "Cat": {"count": 3}}}], None),
    "royalty-verdict": ("royalty", ["Ann", "Ben"], {}, [verdict_with(X)], None),
    "royalty-capture-target": ("royalty", ["Ann", "Ben"], {},
                               [ROYALTY_TURN, {"player": "Ben", "capture": {"target": X, "owner": "Ann",
                                                                            "cards": "Cr Lr Ar Ib Mr"}}], None),
    "royalty-letter-value": ("royalty", ["Ann", "Ben"], {"letter_values": {"A": X}}, [ROYALTY_TURN], None),
}


def filled(value, shape):
    """``shape`` with every ``X`` made ``value``."""
    if shape is X:
        return value
    if isinstance(shape, dict):
        return {k: filled(value, v) for k, v in shape.items()}
    if isinstance(shape, list):
        return [filled(value, v) for v in shape]
    return shape


def game_body(case: str, value) -> dict:
    game, players, options, rounds, joined = GAMES[case]
    body = {"game": game, "players": players, "options": filled(value, options), "rounds": filled(value, rounds)}
    if joined is not None:
        body["joined"] = filled(value, joined)
    return body


def said_or_refused(response, code: str) -> None:
    """A 2xx or 3xx, or a 4xx that says what is wrong in words: never a 500."""
    text = response.get_data().decode("utf-8", "replace")
    assert response.status_code < 500, text[:2000]
    assert CRASHED not in text
    if response.status_code >= 400 and response.is_json:
        errors = response.get_json()["errors"]
        assert errors and all(e["message"].strip() and e["where"] for e in errors)
        if code != "en":  # in the caller's words
            assert any(re.search(r"[^\x00-\x7f]", e["message"]) for e in errors) or all(
                "must" not in e["message"] for e in errors), errors


@pytest.fixture
def client(speaking_app):
    return speaking_app.test_client()


def asked(code: str) -> dict[str, str]:
    return {"Accept-Language": code}


# ---------------------------------------------------------------------------------------------
# Saying any number


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("value", [*HUGE, float("inf"), float("-inf"), float("nan"), -(10**30), 10**5000],
                         ids=["1e25", "1e308", "-1e308", "10**30", "inf", "-inf", "nan", "-10**30", "10**5000"])
def test_any_number_is_said_in_every_language(code, value):
    text = messages.number(value, code)
    assert text and "-" not in text
    assert messages.render(messages.say("{who} passed {bound} with {total}", who="Ann", bound=value, total=value),
                           code)


def test_huge_numbers_are_said_as_each_language_writes_them():
    assert messages.number(10**30, "fr") == "1\u202f000\u202f000\u202f000\u202f000\u202f000\u202f000\u202f000" \
                                            "\u202f000\u202f000\u202f000"
    assert messages.number(10**30, "hi") == "10,00,00,00,00,00,00,00,00,00,00,00,00,00,000"
    assert messages.number(10**30, "en") == "1000000000000000000000000000000"
    # a float this large is not counted unit by unit: its power of ten is said
    assert (messages.number(1e25), messages.number(1e25, "fr"), messages.number(-1e308, "hi")) == \
           ("1e+25", "1E25", "\u22121E308")
    assert (messages.number(2.5e25, "fr"), messages.number(float("-inf"), "hi")) == ("2,5E25", "\u2212∞")
    assert messages.number(float("nan"), "fr") == "une valeur qui n’est pas un nombre"
    assert messages.number(-3 * 10**5000, "fr") == "\u22123E5000"


# ---------------------------------------------------------------------------------------------
# Every route that takes numbers


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("value", HUGE, ids=str)
@pytest.mark.parametrize("case", GAMES)
def test_score_answers_every_huge_number_in_words(client, case, value, code):
    response = client.post("/api/v1/score", json=game_body(case, value), headers=asked(code))
    said_or_refused(response, code)


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("value", HUGE, ids=str)
@pytest.mark.parametrize("case", GAMES)
def test_tables_api_takes_every_huge_number_or_refuses_it(client, case, value, code):
    body = game_body(case, value)
    rounds = body.pop("rounds")
    started = client.post("/api/v1/tables", json=body, headers=asked(code))
    said_or_refused(started, code)
    if started.status_code != 201:
        return
    table = started.get_json()
    key = {"Authorization": f"Bearer {table['edit_key']}", **asked(code)}
    version = table["version"]
    for data in rounds:
        added = client.post(f"/api/v1/tables/{table['id']}/rounds", json={"round": data, "base_version": version},
                            headers=key)
        said_or_refused(added, code)
        if added.status_code == 201:
            version = added.get_json()["version"]
    for path in ("", "/history"):
        said_or_refused(client.get(f"/api/v1/tables/{table['id']}{path}", headers=key), code)
    if code != "en":  # English never formatted through Babel: its pages are read by every other test
        pages_render(client, table["id"], table["edit_key"], code, sheet=value in PRINTED)


@pytest.mark.parametrize("value", [10**30, 1e25])
@pytest.mark.parametrize("option", ["win_above", "lose_below"])
def test_a_target_past_the_forms_bound_is_refused_by_the_api_beside_the_field(client, option, value):
    """The new-table form holds win_above to 1..100,000 and lose_below to -100,000..-1 (AR-12); the API and
    an import hold them the same."""
    value = -value if option == "lose_below" else value
    for game, players in (("battle-royals", ["Ann", "Ben"]), ("alliance-royals", ["Ann", "Ben", "Cat", "Dan"])):
        for code in LANGUAGES:
            response = client.post("/api/v1/tables", json={"game": game, "players": players,
                                                            "options": {option: value}}, headers=asked(code))
            assert response.status_code == 422
            assert [e["where"] for e in response.get_json()["errors"]] == [f"options.{option}"]
        imported = client.post("/import", data={"text": json.dumps({"game": game, "players": players,
                                                                    "options": {option: value}, "rounds": []})})
        assert imported.status_code == 422 and f"options.{option}" in imported.get_data(as_text=True)


def test_the_bounds_are_the_forms_and_the_apis_alike(client):
    """At the bound the API takes the target, one past it refuses it, and the form says the same."""
    from companion.games import alliance_royals

    most, least = alliance_royals.WIN_ABOVE_MOST, alliance_royals.LOSE_BELOW_LEAST
    assert (most, least) == (100_000, -100_000)
    body = {"game": "battle-royals", "players": ["Ann", "Ben"]}
    assert client.post("/api/v1/tables", json={**body, "options": {"win_above": most}}).status_code == 201
    refused = client.post("/api/v1/tables", json={**body, "options": {"win_above": most + 1}})
    assert refused.get_json()["errors"][0]["message"] == "win_above may be at most 100,000"
    refused = client.post("/api/v1/tables", json={**body, "options": {"lose_below": least - 1}},
                          headers=asked("fr"))
    assert refused.get_json()["errors"][0]["message"] == "lose_below ne peut pas être plus bas que −100\u202f000"
    form = {"seat1": "Ann", "seat2": "Ben", "opt-win_above": str(most + 1), "opt-lose_below": "-333"}
    assert client.post("/new/battle-royals", data=form).status_code == 422
    assert client.post("/new/battle-royals", data={**form, "opt-win_above": str(most)}).status_code == 303


REFEREE_BODIES = {
    "royalty/capture": {"target": X, "word": "BEARS"},
    "royalty/word": {"word": X},
    "rally-the-king/trick": {"cards": [X, "KH", "F", "T1"]},
    "alliance-royals/battle": {"cards": [X, "2S"]},
    "indian-rummy/declaration": {"wild": X, "cards": ["AH"]},
    "rummy-royal/poker": {"hands": {"Ann": [X, "KS", "QS", "JS", "10S"], "Ben": ["2H", "3H", "4H", "5H", "7C"]}},
}


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("value", HUGE, ids=str)
@pytest.mark.parametrize("question", REFEREE_BODIES)
def test_the_referees_answer_every_huge_number_in_words(client, question, value, code):
    response = client.post(f"/api/v1/referee/{question}", json=filled(value, REFEREE_BODIES[question]),
                           headers=asked(code))
    said_or_refused(response, code)
    assert response.status_code in (200, 422)


def test_a_capture_of_a_huge_target_is_refused_in_words(client):
    response = client.post("/api/v1/referee/royalty/capture", json={"target": -1e308, "word": "BEARS"},
                           headers=asked("hi"))
    assert response.status_code == 422
    assert [e["where"] for e in response.get_json()["errors"]] == ["target"]


# ---------------------------------------------------------------------------------------------
# The imports


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("value", HUGE, ids=str)
@pytest.mark.parametrize("case", GAMES)
def test_an_import_takes_every_huge_number_or_refuses_it(client, case, value, code):
    response = client.post("/import", data={"text": json.dumps(game_body(case, value))}, headers=asked(code))
    said_or_refused(response, code)
    if response.status_code == 303:
        table_id = response.headers["Location"].split("/t/")[1].split("?")[0]
        key = re.search(r"key=([^&]+)", response.headers["Location"]).group(1)
        if code != "en":
            pages_render(client, table_id, key, code, sheet=value in PRINTED)


def club_record(value) -> dict:
    """A club's record, as its page exports it, with ``value`` where a table's win_above goes and where a
    season's table counts a Rummathon player's late hand."""
    return {"name": "Huge club", "players": ["Ann", "Ben"], "seasons": [],
            "tables": [{"game": "battle-royals", "players": ["Ann", "Ben"], "options": {"win_above": value},
                        "title": "", "rounds": []},
                       {"game": "rummathon-royale", "players": ["Ann", "Ben"], "joined": {"Ben": value},
                        "rounds": [{"out": "Ann"}]}]}


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("value", HUGE, ids=str)
def test_a_club_import_takes_every_huge_number_or_refuses_it(client, value, code):
    upload = (io.BytesIO(json.dumps(club_record(value)).encode()), "club.json")
    response = client.post("/clubs/import", data={"file": upload}, headers=asked(code),
                           content_type="multipart/form-data")
    said_or_refused(response, code)


# ---------------------------------------------------------------------------------------------
# A table that holds a huge number anyway


#: The value whose tables are printed too (a sheet costs a second to draw; every size of number is said by the
#: one function that pages and sheets share, tested for each above).
PRINTED = (10**30,)


def pages_render(client, table_id: str, key: str, code: str, sheet: bool = True) -> None:
    """The table's page, board, new-hand form, history and (``sheet``) sheet, in ``code``: none is a 500."""
    for path in ("", "/board", "/hands/new", "/history", *(["/sheet.pdf"] if sheet else [])):
        response = client.get(f"/t/{table_id}{path}?key={key}", headers=asked(code))
        said_or_refused(response, code)


@pytest.mark.parametrize("code", ["fr", "hi"])
@pytest.mark.parametrize("value", [10**25, 10**30, int(1e308)], ids=["10**25", "10**30", "int(1e308)"])
def test_a_table_holding_a_huge_target_still_shows_every_page(speaking_app, make_app, value, code):
    """The targets put in the database directly, as no route lets them in now (a table made before the
    bounds), then read by an app that has cached nothing of the table: a stored table keeps its targets."""
    started = speaking_app.test_client().post("/api/v1/tables", json={"game": "battle-royals",
                                                                      "players": ["Ann", "Ben"]})
    table = started.get_json()
    with borrowed(speaking_app) as conn:
        conn.execute("UPDATE tables SET options = ? WHERE id = ?",
                     [json.dumps({"win_above": value, "lose_below": -value}), table["id"]])
    fresh = make_app(WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False, LANGUAGES="fr hi qps").test_client()
    page = fresh.get(f"/t/{table['id']}?key={table['edit_key']}", headers=asked(code))
    assert page.status_code == 200, page.get_data(as_text=True)[:2000]
    pages_render(fresh, table["id"], table["edit_key"], code)


# ---------------------------------------------------------------------------------------------
# JSON of any depth


JSON_ROUTES = ["/api/v1/score", "/api/v1/tables", "/api/v1/clubs", "/api/v1/referee/royalty/word",
               "/api/v1/referee/royalty/monarchy", "/api/v1/tables/{id}/rounds"]


def nested(depth: int) -> str:
    return '{"game": ' + "[" * depth + "]" * depth + "}"


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("depth", [600, 10_000])
@pytest.mark.parametrize("route", JSON_ROUTES)
def test_a_deep_body_is_refused_in_words_on_every_api_route(client, route, depth, code):
    table = client.post("/api/v1/tables", json={"game": "rummathon-royale", "players": ["Ann", "Ben"]}).get_json()
    response = client.post(route.format(id=table["id"]), data=nested(depth), content_type="application/json",
                           headers={"Authorization": f"Bearer {table['edit_key']}", **asked(code)})
    assert response.status_code == 422, response.get_data(as_text=True)[:500]
    errors = response.get_json()["errors"]
    assert [e["where"] for e in errors] == ["$"]
    assert "32" in errors[0]["message"]
    expected = {"en": "no game needs as many", "fr": "aucune partie n’en demande autant",
                "hi": "किसी खेल को इतने नहीं चाहिए"}[code]
    assert expected in errors[0]["message"]


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("depth", [600, 10_000])
def test_a_deep_import_is_refused_in_words(client, depth, code):
    expected = {"en": "no game needs as many", "fr": "aucune partie n’en demande autant",
                "hi": "किसी खेल को इतने नहीं चाहिए"}[code]
    pasted = client.post("/import", data={"text": nested(depth)}, headers=asked(code))
    assert pasted.status_code == 422 and expected in pasted.get_data(as_text=True)
    uploaded = client.post("/import", data={"file": (io.BytesIO(nested(depth).encode()), "deep.json")},
                           headers=asked(code), content_type="multipart/form-data")
    assert uploaded.status_code == 422 and expected in uploaded.get_data(as_text=True)
    club = client.post("/clubs/import", data={"file": (io.BytesIO(nested(depth).encode()), "club.json")},
                       headers=asked(code), content_type="multipart/form-data")
    assert club.status_code == 422 and expected in club.get_data(as_text=True)


def test_a_body_at_the_depth_bound_is_read_and_one_past_it_is_not(client):
    """32 arrays within one another are JSON a game's checks read (and refuse as a game); 33 are refused
    before any check."""
    def sent(depth):
        body = '{"game": "rummathon-royale", "players": ["Ann", "Ben"], "rounds": ' + "[" * (depth - 1) + \
               "]" * (depth - 1) + "}"
        return client.post("/api/v1/score", data=body, content_type="application/json").get_json()["errors"]

    assert [e["where"] for e in sent(32)] != ["$"]
    assert [e["where"] for e in sent(33)] == ["$"]
