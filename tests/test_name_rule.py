"""The name rule (companion.core.limits.name_problem): one rule for every player's name, table's and tournament's
title and club's name, wherever it comes in (the forms, the JSON API, the imports, tournaments, clubs).

A name is composed (NFC) and trimmed; it may not hold a character a reader cannot see -- a zero-width
space, a byte-order mark, a tag, a Hangul filler, the blank Braille pattern -- nor a mark that turns the
writing's direction, unless the script it is written in needs that character where it stands (a joiner
after a virama, between Persian letters, inside an emoji). Two names that read the same are one name."""

from __future__ import annotations

import json
import unicodedata
from html import unescape

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.clubs import records, store
from companion.core import limits
from companion.storage import tables
from companion.storage.db import borrowed, get_db
from tests.test_bad_input import page, seats, table_count
from tests.test_tables_api import TABLES, bearer

pytestmark = pytest.mark.one_database

ZWSP, ZWNJ, ZWJ, RLO, BOM = "\u200b", "\u200c", "\u200d", "\u202e", "\ufeff"

#: Names in real scripts, each with the invisible character its script needs (or none).
REAL_NAMES = [
    "Ann", "Zoë", "Søren Kierkegaard", "José María", "Ανδρέας", "Владимир", "محمد", "דוד", "山田\u3000太郎",
    "क्षितिज", f"क्{ZWJ}ष",             # Devanagari: a half form, the joiner after the virama
    f"ශ්{ZWJ}රී",                      # Sinhala: Sri, with its touching letters
    f"র{ZWJ}্যাচেল",                   # Bengali: Rachel, the joiner before the virama (ra-phala)
    f"علی{ZWNJ}رضا",                   # Persian: Alireza, the non-joiner between two letters
    f"👩{ZWJ}💻 Ann", f"👨🏽{ZWJ}🚀", "❤️", "1️⃣ Ann",   # emoji sequences, a keycap
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Hamish",   # the flag of Scotland's tags
    "葛\U000e0100飾",                   # Katsushika with the registered form of its first ideograph
    "ᠨᠠ\u180eᠠ",                         # Mongolian with its vowel separator
]

#: Names that hide a character, and the words each is refused with.
HIDDEN = [
    (ZWSP, "a character that does not show (a zero width space, at the start)"),
    (f"A{ZWSP}nn", "a character that does not show (a zero width space, after “A”)"),
    (f"A{ZWJ}nn", "a character that does not show (a zero width joiner, after “A”)"),
    (f"{RLO}Ann", "a hidden mark that turns the writing left or right (a right-to-left override, at the start)"),
    (f"Ann{BOM}", "a character that does not show (a byte-order mark, after “Ann”)"),
    ("Ann\U000e0041\U000e0042", "a character that does not show (a tag latin capital letter a, after “Ann”)"),
    ("\u3164", "a character that does not show (a hangul filler, at the start)"),
    ("Ann\u2800", "a character that does not show (a braille pattern blank, after “Ann”)"),
    ("\u2066Ann\u2069", "a hidden mark that turns the writing left or right (a left-to-right isolate"),
    ("A\u00adnn", "a character that does not show (a soft hyphen, after “A”)"),
    ("\u0301", "a name needs a letter, a digit or a sign that shows"),
]


# The rule itself -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", REAL_NAMES)
def test_a_real_name_in_a_real_script_passes(name):
    assert limits.name_problem(limits.tidy(name)) is None


@pytest.mark.parametrize("name,says", HIDDEN)
def test_a_name_hiding_a_character_is_refused_in_words_saying_where(name, says):
    wrong = limits.name_problem(limits.tidy(name))
    assert wrong is not None and says in wrong, wrong


@given(st.text(max_size=30))
def test_tidying_is_composed_trimmed_and_idempotent(text):
    once = limits.tidy(text)
    assert limits.tidy(once) == once
    assert unicodedata.is_normalized("NFC", once) and once == once.strip()


@given(st.text(max_size=30))
def test_a_name_that_passes_shows_something_and_hides_only_what_its_script_needs(text):
    name = limits.tidy(text)
    if not name or limits.name_problem(name) is not None:
        return
    assert any(unicodedata.category(c)[0] in "LNPS" and c != "\u2800" for c in name)
    for i, c in enumerate(name):
        if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs"):
            assert c in (ZWNJ, ZWJ, "\u180e") or 0xE0020 <= ord(c) <= 0xE007F, (name, i)
            assert i > 0  # never at the start: there is always a letter or a symbol it joins


@given(st.text(alphabet=st.characters(categories=["L", "N", "Zs"]), min_size=1, max_size=12),
       st.sampled_from([ZWSP, BOM, RLO, "\u2060", "\u00ad", "\U000e0041"]), st.integers(0, 12))
def test_a_hidden_character_anywhere_is_refused_and_the_name_matches_without_it(text, hidden, at):
    at = min(at, len(text))
    name = limits.tidy(text[:at] + hidden + text[at:])
    if hidden in name:  # not trimmed away
        assert limits.name_problem(name) is not None
    assert limits.name_key(name) == limits.name_key(text)


def test_two_names_that_read_the_same_are_one_name():
    assert limits.name_key("Zoe\u0308") == limits.name_key("ZOË") == limits.name_key(" zoë ")
    assert limits.name_key("Mary  Ann") == limits.name_key("Mary\u00a0Ann")
    assert limits.name_key(f"علی{ZWNJ}رضا") != limits.name_key("علیرضا")  # the non-joiner shows: two spellings


# The forms: the message beside the field, the input kept, 422 ---------------------------------------------


def test_the_new_table_form_refuses_a_hidden_character_beside_its_seat_and_keeps_the_input(app, client):
    response = client.post("/new/rummathon-royale", data=seats("Ann", f"A{ZWSP}nn", ZWSP * 3,
                                                               title=f"{RLO}Friday"))
    assert response.status_code == 422
    tree = page(response)
    assert "a character that does not show (a zero width space, after “A”)" in tree.block("seat2")
    assert "a character that does not show (a zero width space, at the start)" in tree.block("seat3")
    assert "a hidden mark that turns the writing left or right" in tree.block("title")
    assert [tree.value(f"seat{i}") for i in (1, 2, 3)] == ["Ann", f"A{ZWSP}nn", ZWSP * 3]
    assert table_count(app) == 0


def test_the_new_table_form_keeps_a_name_composed_and_a_persian_name_whole(app, client):
    response = client.post("/new/rummathon-royale", data=seats("Zoe\u0308", f"علی{ZWNJ}رضا", "Ann"))
    assert response.status_code == 303
    with borrowed(app) as conn:
        assert json.loads(conn.value("SELECT players FROM tables")) == ["Zoë", f"علی{ZWNJ}رضا", "Ann"]


def test_the_new_table_form_refuses_two_names_that_read_the_same(client):
    response = client.post("/new/rummathon-royale", data=seats("Zoë", "Zoe\u0308"))
    assert response.status_code == 422
    assert "two players are called Zoë" in page(response).block("seat2")


def test_renaming_a_player_or_seating_one_late_follows_the_rule(app, client):
    from tests.test_players import rename

    with app.app_context():
        table = tables.create_table(get_db(), "rummathon-royale", ["Ann", "Ben"], {})
    response = rename(client, table, 1, f"Ben{RLO}")
    assert response.status_code == 422
    assert "a hidden mark that turns the writing left or right" in unescape(response.get_data(as_text=True))
    assert rename(client, table, 1, "Zoe\u0308").status_code == 303
    with app.app_context():
        assert tables.state(get_db(), tables.get_table(get_db(), table.id)).table.players == ("Ann", "Zoë")


def test_a_tournament_refuses_a_hidden_entrant_and_title_in_words(client):
    data = {"title": f"Spring{BOM}", "game": "rally-the-king", "rounds": "1", "method": "random",
            "entrants": f"Ann\nBen\nC{ZWSP}at\nDan\nEve\nFay\nGus\nHal\nann\u00a0"}
    response = client.post("/tournaments/new", data=data)
    assert response.status_code == 422
    tree = page(response)
    assert "“C\u200bat”: a name cannot hold a character that does not show (a zero width space, after “C”)" \
        in tree.block("entrants")
    assert "“ann” is listed twice" in tree.block("entrants")
    assert "A tournament's name cannot hold a character that does not show (a byte-order mark" in tree.block("title")
    assert tree.value("entrants").endswith("ann\u00a0")


def test_a_club_refuses_a_hidden_name_beside_its_field(client):
    response = client.post("/clubs/new", data={"name": f"Thursday{ZWSP}"})
    assert response.status_code == 422
    assert "a club's name cannot hold a character that does not show" in page(response).block("name")


def test_a_rematch_of_a_table_named_before_the_rule_is_refused_in_words(app, client):
    with app.app_context():  # stored as a table was before the rule: straight into the database
        old = tables.new_table("rummathon-royale", ["Ann", "Ben"], {})
        old = tables.Table(**{**old.__dict__, "players": ("Ann", f"B{ZWSP}en")})
        with borrowed(app) as conn:
            tables.store_table(conn, old)
    assert client.get(f"/t/{old.id}?key={old.edit_key}").status_code == 200  # it still opens
    response = client.post(f"/t/{old.id}/rematch?key={old.edit_key}")
    assert response.status_code == 422
    said = unescape(response.get_data(as_text=True))
    assert "No rematch yet" in said and "a zero width space, after “B”" in said and "Players page" in said


# The JSON API and the imports: 422 naming the field --------------------------------------------------------


@pytest.mark.parametrize("body,where,says", [
    ({"game": "rummathon-royale", "players": ["Ann", f"A{ZWSP}nn"]}, "players[1]", "(a zero width space, after “A”)"),
    ({"game": "rummathon-royale", "players": ["Ann", ZWSP]}, "players[1]", "at the start"),
    ({"game": "rummathon-royale", "players": ["Ann", "Ben"], "title": f"{BOM}Friday"}, "title", "byte-order mark"),
    ({"game": "rummathon-royale", "players": ["Zoë", "Zoe\u0308"]}, "players[1]", "two players are called Zoë"),
    ({"game": "rummathon-royale", "players": ["Ann", "Ben\U000e0041"]}, "players[1]", "a tag latin capital"),
])
def test_a_new_table_over_the_api_follows_the_rule(client, body, where, says):
    response = client.post(TABLES, json=body)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert [e["where"] for e in errors] == [where] and says in errors[0]["message"], errors


def test_a_table_over_the_api_is_kept_composed_and_its_rounds_name_the_same_players(client):
    created = client.post(TABLES, json={"game": "rummathon-royale", "players": ["Zoe\u0308", "Ann"]}).get_json()
    assert created["players"] == ["Zoë", "Ann"]
    saved = client.post(f"{TABLES}/{created['id']}/rounds", headers=bearer(created["edit_key"]),
                        json={"round": {"out": "Ann", "left": {"Zoe\u0308": {"low": 1}}}, "base_version": 0})
    assert saved.status_code == 201 and saved.get_json()["scored"]["totals"] == {"Zoë": 0, "Ann": 5}  # RR-2


def test_the_stateless_score_follows_the_rule(client):
    body = {"game": "rummathon-royale", "players": [f"Ann{RLO}", "Ben"], "rounds": []}
    response = client.post("/api/v1/score", json=body)
    assert response.status_code == 422 and response.get_json()["errors"][0]["where"] == "players[0]"


def test_an_imported_table_follows_the_rule(app, client):
    body = {"game": "rummathon-royale", "players": [f"{BOM}Ann", "Ben"], "rounds": [], "title": "Night"}
    response = client.post("/import", data={"text": json.dumps(body)})
    assert response.status_code == 422
    assert "a byte-order mark" in unescape(response.get_data(as_text=True))
    body = {"game": "rummathon-royale", "players": ["Ann", "Ben"], "rounds": [], "title": f"Night{ZWSP}"}
    assert client.post("/import", data={"text": json.dumps(body)}).status_code == 422
    assert table_count(app) == 0


def test_a_club_over_the_api_and_an_imported_record_follow_the_rule(app, client):
    response = client.post("/api/v1/clubs", json={"name": ZWSP * 2})
    assert response.status_code == 422 and "does not show" in response.get_json()["errors"][0]["message"]
    record = {"format": records.FORMAT, "version": records.VERSION, "name": "Thursday club", "seasons": [],
              "players": [{"name": "Ann"}, {"name": f"A{ZWSP}nn"}], "tables": []}
    with app.app_context(), pytest.raises(records.InputError) as refused:
        records.import_club(get_db(), record)
    assert [p.where for p in refused.value.problems] == ["players[1].name"]


def test_a_roster_matches_a_name_without_its_hidden_characters(app):
    with app.app_context():
        club = store.create_club(get_db(), "Thursday club")
        with borrowed(app) as conn:  # a roster row kept before the rule, its key worked out now
            store.add_player(conn, club.id, "Ann")
            assert store.find_player(conn, club.id, f"A{ZWSP}nn").name == "Ann"
            assert store.find_player(conn, club.id, "ANN\u00a0").name == "Ann"
        with pytest.raises(store.InputError) as refused:
            store.rename(get_db(), club, 1, f"Ann{RLO}")
        assert "a hidden mark" in refused.value.problems[0].message
