"""Inputs that passed the door and failed later, and requests whose cost had no bound.

Each test is one finding: it failed before the fix and passes after. The server-level ones
(connections, body size, memory, concurrent sheets) are in test_server.py.
"""

from __future__ import annotations

import gzip
import json
import threading
import time

import pytest
from click.testing import CliRunner

from companion import create_app
from companion.cli import main as cli
from companion.core import limits
from companion.core.recent import Recent, weigh
from companion.storage import db
from companion.web import heavy

AR_ROUND = {"players": {
    "Ann": {"house": "S", "spoils": ["KS", "QS", "JS", "AH", "9D"], "meld": ["10S", "10H", "10D"], "hand": ["3C"]},
    "Ben": {"house": "H", "spoils": ["8H"], "meld": [], "hand": ["QC", "KC", "2H"]},
    "Cat": {"house": "D", "spoils": ["KD", "QS", "5H"], "meld": ["AS", "AD", "AC"], "hand": []},
    "Dan": {"house": "C", "spoils": ["KC", "QH"], "meld": ["6S", "6H", "6D"], "hand": ["9S"]}}}


#: The same deal with the Alliances' hands traded (Ann's to Ben, Cat's to Dan): each Alliance leads every other deal.
AR_ROUND_TRADED = {"players": {{"Ann": "Ben", "Ben": "Ann", "Cat": "Dan", "Dan": "Cat"}[name]: hand
                               for name, hand in AR_ROUND["players"].items()}}


def long_game(rounds: int) -> dict:
    """An Alliance Royals game that does not end, of ``rounds`` deals: the Alliances take turns at the better
    side of one deal, so neither nears the highest target a table may set (100,000) in 500 deals."""
    return {"game": "alliance-royals", "players": ["Ann", "Ben", "Cat", "Dan"], "options": {"win_above": 100_000},
            "rounds": [AR_ROUND if n % 2 == 0 else AR_ROUND_TRADED for n in range(rounds)]}


def import_game(client, body) -> tuple[int, str]:
    response = client.post("/import", data={"text": json.dumps(body)})
    return response.status_code, response.get_data(as_text=True)


def royalty_import(**turn_extra) -> dict:
    return {"game": "royalty", "players": ["Ann", "Ben"],
            "rounds": [{"player": "Ann", "meld": "Cr Ar Lr Mr", **turn_extra}]}


def tables_in(app) -> int:
    with db.borrowed(app) as conn:
        return conn.value("SELECT COUNT(*) FROM tables")


# 1. Round-robin planning without bound --------------------------------------------------


def test_a_300_entrant_tournament_is_refused_at_once_with_a_message(client, app):
    entrants = "\n".join(f"Player {i}" for i in range(300))
    started = time.perf_counter()
    response = client.post("/tournaments/new", data={"title": "Huge", "game": "rally-the-king", "entrants": entrants,
                                                     "rounds": "20", "method": "round-robin"})
    assert time.perf_counter() - started < 5  # before: minutes at 100% CPU
    assert response.status_code == 422
    assert "at most 100 entries; 300 are listed" in response.get_data(as_text=True)


def test_a_100_entrant_round_robin_plans_only_the_rounds_it_seats():
    from companion.tournaments import seating

    names = [f"P{i}" for i in range(100)]
    started = time.perf_counter()
    first = seating.seat_round("round-robin", names, (4, 6), 1, [])
    assert time.perf_counter() - started < 10  # before: the whole rotation, minutes
    assert sorted(n for table in first for n in table) == sorted(names)
    # The rotation's first rounds do not depend on how far it is planned.
    eight = [["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"]]
    whole = seating.round_robin_schedule(eight[0], 4)
    assert [seating.seat_round("round-robin", eight[0], 4, r, []) for r in (1, 2, 3)] == whole[:3]


# 7. Royalty house words that overlap or are not A-Z ------------------------------------


@pytest.mark.parametrize(("allow", "deny", "message"), [
    ("ear", "ear", "EAR cannot be both allowed and refused"),
    ("éclair", "", "house words may hold only the letters A to Z; ÉCLAIR cannot be judged"),
])
def test_royalty_house_words_are_checked_on_the_new_table_form(client, app, allow, deny, message):
    data = {"seat1": "Ann", "seat2": "Ben", "opt-variant": "standard", "opt-coalitions": "",
            "opt-house_allow": allow, "opt-house_deny": deny}
    response = client.post("/new/royalty", data=data)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert tables_in(app) == 0


# 8. A small upload stored large; tables created without limit ------------------------


def test_a_word_list_of_one_huge_word_is_refused(client, app):
    data = {"seat1": "Ann", "seat2": "Ben", "opt-variant": "standard", "opt-coalitions": "",
            "opt-word_file": (__import__("io").BytesIO(gzip.compress(b"a" * 4_000_000)), "w.txt.gz")}
    response = client.post("/new/royalty", data=data, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "a word may have at most 45 letters" in response.get_data(as_text=True)
    assert tables_in(app) == 0


def test_a_long_word_list_is_stored_compressed(client, app):
    words = [f"{a}{b}{c}{d}" for a in "ABCDEFGHIJ" for b in "KLMNOPQRST" for c in "UVWXY" for d in "ZABCDEFGHI"]
    status, _ = import_game(client, {"game": "royalty", "players": ["Ann", "Ben"],
                                     "options": {"word_list": words}, "rounds": []})
    assert status == 303
    with db.borrowed(app) as conn:
        if conn.kind == "sqlite":  # compressed by Courtier
            stored = conn.value("SELECT options FROM tables")
            assert isinstance(stored, bytes) and len(stored) < len(json.dumps(words)) / 3
        else:  # kept as text, compressed by PostgreSQL itself (TOAST)
            assert conn.value("SELECT pg_column_size(options) FROM tables") < len(json.dumps(words)) / 2


def test_new_tables_are_rate_limited_per_address(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "r.sqlite"), "SECRET_KEY": "x",
                      "WTF_CSRF_ENABLED": False, "CREATE_RATE": "5 per minute",
                      "RATELIMIT_ENABLED": True})
    client = app.test_client()
    codes = [client.post("/new/rummathon-royale", data={"seat1": "Ann", "seat2": "Ben"}).status_code
             for _ in range(7)]
    assert codes == [303] * 5 + [429, 429]
    refused = client.post("/new/rummathon-royale", data={"seat1": "Ann", "seat2": "Ben"})
    assert refused.headers["Retry-After"] == "60" and "Wait a minute" in refused.get_data(as_text=True)
    other = client.post("/new/rummathon-royale", data={"seat1": "Ann", "seat2": "Ben"},
                        environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert other.status_code == 303  # another phone is not held back
    assert client.get("/t/nothing").status_code == 404  # reading is never limited


# 9. A crafted import that breaks every page later ----------------------------------------


@pytest.mark.parametrize(("extra", "where"), [
    ({"judged": 5}, "rounds[0].judged"),
    ({"judged": [{"word": "CALM", "valid": True, "why": ["x"], "warnings": []}]}, "rounds[0].judged[0].why"),
    ({"judged": [{"word": "CALM", "valid": "yes", "why": "", "warnings": []}]}, "rounds[0].judged[0].valid"),
    ({"judged": [{"word": "CALM", "valid": True, "why": "", "warnings": 3}]}, "rounds[0].judged[0].warnings"),
    ({"judged": [{"word": "CALM", "valid": True, "why": "", "warnings": [],
                  "said": {"why": {"id": "{0.__class__}", "values": {}}, "warnings": []}}]},
     "rounds[0].judged[0].said"),
    ({"judged": [{"word": "CALM", "valid": True, "why": "", "warnings": [],
                  "said": {"why": {"id": "{word} is in {list} (RY-17)", "values": {"word": "CALM"}}, "warnings": []}}]},
     "rounds[0].judged[0].said"),
    ({"note": {"x": 1}}, "rounds[0].note"),
    ({"note": "x" * 501}, "rounds[0].note"),
])
def test_a_crafted_royalty_import_is_refused_at_the_door(client, app, extra, where):
    status, page = import_game(client, royalty_import(**extra))
    assert status == 422 and where in page
    assert tables_in(app) == 0


def test_a_royalty_import_with_the_judges_log_as_saved_is_accepted_and_shown(client):
    judged = [{"word": "CALM", "valid": True, "why": "CALM is in the list (RY-17)", "warnings": []}]
    client.post("/import", data={"text": json.dumps(royalty_import(judged=judged))})
    table = client.get("/").get_data(as_text=True)
    link = __import__("re").search(r'href="(/t/[^"?/]+)', table).group(1)
    assert "Word judge: <strong>CALM</strong> accepted" in client.get(link).get_data(as_text=True)
    assert client.get(f"{link}/sheet.pdf").status_code == 200


@pytest.mark.parametrize("game", ["rummathon-royale", "rally-the-king", "alliance-royals", "indian-rummy"])
def test_a_note_that_is_not_text_is_refused_in_every_game(game):
    from companion import games

    with pytest.raises(games.InputError) as err:
        games.score({"game": game, "players": ["Ann", "Ben", "Cat", "Dan"], "rounds": [{"note": ["x"]}]})
    assert "rounds[0].note: a note must be text" in str(err.value)


# 10. Indian Rummy point value 1e308 or Infinity -----------------------------------------


@pytest.mark.parametrize("value", ["1e308", "Infinity", "1" + "0" * 400])
def test_an_enormous_point_value_is_refused_by_the_api_the_import_and_the_cli(client, tmp_path, value):
    body = '{"game": "indian-rummy", "players": ["Ann", "Ben"], "options": {"point_value": ' + value + '}}'
    response = client.post("/api/v1/score", data=body, content_type="application/json")
    assert response.status_code == 422
    assert response.json["errors"] == [{"where": "options.point_value",
                                        "message": "the point value may be at most 1,000,000 (IR-8)"}]
    imported = client.post("/import", data={"text": body})
    assert imported.status_code == 422 and "at most 1,000,000" in imported.get_data(as_text=True)
    game = tmp_path / "g.json"
    game.write_text(body)
    result = CliRunner().invoke(cli, ["score", str(game)])
    assert result.exit_code == 2 and "at most 1,000,000" in result.output


# 11. Small requests with large answers ------------------------------------------------------


def test_200000_empty_rounds_are_refused_quickly_and_briefly(client):
    body = json.dumps({"game": "rummathon-royale", "players": ["Ann", "Ben"], "rounds": [{}] * 200_000})
    response = client.post("/api/v1/score", data=body, content_type="application/json")
    assert response.status_code == 422 and len(response.data) < 1000  # before: 23 MB, after 5-8 s of work
    assert response.json["errors"][0]["message"] == "a game may have at most 500 rounds; 200000 were given"


# 12. Seating the same round twice --------------------------------------------------------


def test_seating_the_same_round_twice_seats_it_once(client):
    from tests.test_tournaments_web import create

    tour, key = create(client, method="swiss")
    first = client.post(f"{tour}/rounds?key={key}", data={"round": "1"})
    again = client.post(f"{tour}/rounds?key={key}", data={"round": "1"})
    assert first.status_code == again.status_code == 303
    page = client.get(f"{tour}?key={key}").get_data(as_text=True)
    assert "Round 1 is seated already; nothing changed." in page
    assert 'name="round" value="2"' in page and 'name="round" value="3"' not in page
    nxt = client.post(f"{tour}/rounds?key={key}", data={"round": "2"})
    assert nxt.status_code == 303 and "Round 2 seated" in client.get(f"{tour}?key={key}").get_data(as_text=True)


# 13. A tournament title with a line break --------------------------------------------------


def test_a_title_with_a_line_break_is_refused_and_a_stored_one_downloads_safely(client, app):
    response = client.post("/tournaments/new", data={"title": "Spring\r\nSet-Cookie: a=b", "game": "rally-the-king",
                                                     "entrants": "Ann\nBen\nCat\nDan", "rounds": "1",
                                                     "method": "random"})
    assert response.status_code == 422 and "control characters" in response.get_data(as_text=True)
    from companion.storage.db import connect
    from companion.tournaments import packs, store

    db = connect(app.config["DATABASE"])
    t = store.create(db, "rally-the-king", 'Spring "Open"\r\nSet-Cookie: a=b', ["Ann", "Ben", "Cat", "Dan"], {},
                     "random", 1, 4)
    store.seat_next_round(db, t)
    db.conn.close()
    with app.app_context():
        path = packs.pack_path(app, t.id, 1)
    path.write_bytes(b"%PDF-1.4 test")
    try:
        download = client.get(f"/tournaments/{t.id}/rounds/1/pack.pdf?key={t.director_key}")
        download.close()
    finally:
        path.unlink()
    assert download.status_code == 200  # before: 500 (header injection refused)
    assert download.headers["Content-Disposition"] == 'attachment; filename="Spring Open Set-Cookie ab-round-1-a4.pdf"'


# 14. Control characters in names ------------------------------------------------------------


@pytest.mark.parametrize("name", ["a\x00b", "Ann\nBen", "tab\there", "bell\x07"])
def test_names_with_control_characters_are_refused(client, app, name):
    response = client.post("/new/rummathon-royale", data={"seat1": name, "seat2": "Ben"})
    assert response.status_code == 422
    assert "cannot hold control characters" in response.get_data(as_text=True)
    status, _ = import_game(client, {"game": "rummathon-royale", "players": [name, "Ben"], "rounds": []})
    assert status == 422 and tables_in(app) == 0


def test_names_up_to_the_configured_limit_are_taken(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "n.sqlite"), "SECRET_KEY": "x",
                      "WTF_CSRF_ENABLED": False, "MAX_NAME_CHARS": 12})
    from companion import games

    assert limits.get("MAX_NAME_CHARS") == 12
    with pytest.raises(games.InputError, match="at most 12 characters"):
        games.score({"game": "rummathon-royale", "players": ["A" * 13, "Ben"]})
    limits.configure({})
    assert games.score({"game": "rummathon-royale", "players": ["Zoë " + "x" * 36, "Ben"]}).players[0]
    del app


# 4, 5, 6. Caches bounded in bytes; heavy work bounded ----------------------------------------


def test_the_caches_are_bounded_in_bytes():
    cache = Recent(10_000, max_bytes=1_000_000)
    for i in range(50):
        cache.put(i, ["x" * 1000] * 100)  # about 100 KB each
    assert cache.bytes <= 1_000_000 and len(cache) < 12
    assert weigh(["x" * 1000] * 100) > 100_000


def test_the_heavy_pool_answers_busy_beyond_its_queue():
    pool = heavy.Pool(1, 1)
    release = threading.Event()
    running = pool.submit(release.wait)
    waiting = pool.submit(release.wait)
    with pytest.raises(heavy.Busy):
        pool.submit(release.wait)
    shared = pool.submit(release.wait, key="k") if False else None
    release.set()
    assert running.result(5) and waiting.result(5) and shared is None
    assert pool.run(lambda: 7) == 7  # the slots come back


def test_a_busy_server_answers_503_with_retry_after(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "b.sqlite"), "SECRET_KEY": "x",
                      "WTF_CSRF_ENABLED": False, "HEAVY_WORKERS": 1, "HEAVY_QUEUE": 0})
    client = app.test_client()
    release = threading.Event()
    app.extensions["courtier.heavy"].submit(release.wait)
    try:
        response = client.get("/sheets/blank/royalty.pdf")
        assert response.status_code == 503 and response.headers["Retry-After"] == "5"
        assert "busy" in response.get_data(as_text=True)
        assert client.get("/").status_code == 200  # the rest of the app answers
    finally:
        release.set()
    limits.configure({})


@pytest.mark.one_database  # rendering PDFs: the same work on either database
def test_a_sheet_is_rendered_once_per_table_version(client, monkeypatch):
    from companion.paper import sheets

    status, _ = import_game(client, long_game(3))
    link = __import__("re").search(r'href="(/t/[^"?/]+)', client.get("/").get_data(as_text=True)).group(1)
    calls = []
    real = sheets.html_for_filled
    monkeypatch.setattr(sheets, "html_for_filled", lambda *a, **k: calls.append(1) or real(*a, **k))
    first = client.get(f"{link}/sheet.pdf")
    again = client.get(f"{link}/sheet.pdf")
    assert first.status_code == again.status_code == 200 and first.data == again.data
    assert len(calls) == 1
    client.get(f"{link}/sheet.pdf?paper=letter")
    assert len(calls) == 2  # another paper is another sheet
