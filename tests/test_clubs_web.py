"""A club's pages, its API and its paper: keys refused in words, input kept beside its field, seasons,
the standings on one page, and a roster of 500."""

from __future__ import annotations

import io
import json
import re
import subprocess
from datetime import date, timedelta
from html import unescape
from pathlib import Path

import pytest

from companion.clubs import store
from companion.storage import tables
from companion.storage.db import get_db
from tests.pdf_checks import near_the_edge, page_count, page_texts, too_small, words

ALLIANCE_ROUND = {"players": {
    "Ann": {"house": "S", "spoils": ["KS", "QS", "JS", "KS", "QS", "JS", "QD", "KD"], "meld": ["2S", "2H", "2D", "2C"],
            "hand": []},
    "Ben": {"house": "H", "spoils": [], "meld": [], "hand": []},
    "Cat": {"house": "D", "spoils": ["KD", "QD", "JD"], "meld": ["3S", "3H", "3D", "3C"], "hand": []},
    "Dan": {"house": "C", "spoils": [], "meld": [], "hand": []}}}


def deal(winner: str, counts: dict[str, int]) -> dict:
    """One deal of deals rummy (IR-10): the winner declares, the others pay their counts."""
    return {"winner": winner, "hands": {name: {"count": n} for name, n in counts.items()}}


def finish(app, club, players, counts, game="indian-rummy") -> tables.Table:
    """A finished club game: deals rummy of one deal won by the first player, or Alliance Royals to 1066."""
    with app.app_context():
        db = get_db()
        if game == "indian-rummy":
            table = tables.new_table(game, players, {"variant": "deals", "deals": 1})
            store.start_table(db, club, table, rounds=[deal(players[0], dict(zip(players[1:], counts, strict=True)))])
        else:
            names = dict(zip(["Ann", "Ben", "Cat", "Dan"], players, strict=True))
            board = {"players": {names[k]: v for k, v in ALLIANCE_ROUND["players"].items()}}
            table = tables.new_table(game, players, {})
            store.start_table(db, club, table, rounds=[board, board])
        return table


@pytest.fixture
def club(app):
    with app.app_context():
        return store.create_club(get_db(), "Thursday Club")


def text(response) -> str:
    """A page's text as a reader sees it (its character references read)."""
    return unescape(response.get_data(as_text=True))


def page(client, club, key=None, path="", **args):
    query = "&".join(f"{k}={v}" for k, v in {"key": key or club.member_key, **args}.items())
    return client.get(f"/clubs/{club.id}{path}?{query}")


# ---------------------------------------------------------------------------------------------
# Keys


def test_a_club_page_opens_with_either_key_and_refuses_any_other_in_words(client, club):
    assert page(client, club).status_code == 200
    assert b"you can start tables for the club" in page(client, club).data
    assert b"you can manage the club" in page(client, club, club.director_key).data
    for key in ("wrong", ""):
        refused = client.get(f"/clubs/{club.id}?key={key}")
        assert refused.status_code == 403
        assert "this link has no key of this club" in text(refused)
    assert client.get("/clubs/nosuchclub?key=x").status_code == 404


def test_only_the_director_changes_the_roster(client, club, app):
    finish(app, club, ["Ann", "Ben"], [30])
    for path, data in (("/merge", {"keep": 1, "drop": 2}), ("/rename", {"player": 1, "name": "Anne"}),
                       ("/former", {"player": 1}), ("/seasons", {"season_name": "Spring"})):
        refused = client.post(f"/clubs/{club.id}{path}?key={club.member_key}", data=data)
        assert refused.status_code == 403, path
        assert "Only the club's director's link can change its roster" in text(refused)
    with app.app_context():
        assert [p.name for p in store.roster(get_db(), club.id)] == ["Ann", "Ben"]


def test_a_table_for_a_club_needs_one_of_its_keys(client, club):
    form = {"seat1": "Ann", "seat2": "Ben", "opt-variant": "deals", "opt-deals": "2"}
    refused = client.post(f"/new/indian-rummy?club={club.id}&key=wrong", data=form)
    assert refused.status_code == 403
    assert "started from the club's page" in text(refused)
    started = client.post(f"/new/indian-rummy?club={club.id}&key={club.member_key}", data=form)
    assert started.status_code == 303
    table_id = started.headers["Location"].split("/t/")[1].split("?")[0]
    assert club.id in text(page(client, club))
    assert f"/t/{table_id}" in text(page(client, club))


# ---------------------------------------------------------------------------------------------
# The API (API.md, Clubs)


def test_the_club_api_starts_a_club_and_its_tables_and_refuses_in_words(client):
    made = client.post("/api/v1/clubs", json={"name": "  Thursday   Club "})
    assert made.status_code == 201
    body = made.get_json()
    assert body["name"] == "Thursday Club" and body["director_key"] != body["member_key"]
    for bad, where, says in (({}, "name", "a club's name cannot be empty"),
                             ({"name": "x", "colour": "red"}, "colour", "a new club takes only its name"),
                             ([], "$", "send a JSON object")):
        answer = client.post("/api/v1/clubs", json=bad)
        assert answer.status_code == 422
        assert [(e["where"], e["message"].split(";")[0]) for e in answer.get_json()["errors"]][0][0] == where
        assert says in answer.get_json()["errors"][0]["message"]
    url = f"/api/v1/clubs/{body['id']}"
    assert client.get(url).status_code == 401
    wrong = client.get(url, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403 and "not a key of this club" in wrong.get_json()["errors"][0]["message"]
    assert client.get("/api/v1/clubs/none", headers={"Authorization": "Bearer x"}).status_code == 404
    table = {"game": "indian-rummy", "players": ["Ann", "Ben"], "options": {"variant": "deals", "deals": 2},
             "club": body["id"]}
    assert client.post("/api/v1/tables", json=table).status_code == 401
    assert client.post("/api/v1/tables", json=table, headers={"Authorization": "Bearer no"}).status_code == 403
    missing = client.post("/api/v1/tables", json={**table, "club": "none"}, headers={"Authorization": "Bearer x"})
    assert missing.status_code == 404 and missing.get_json()["errors"][0]["where"] == "club"
    for key in (body["member_key"], body["director_key"]):
        started = client.post("/api/v1/tables", json=table, headers={"Authorization": f"Bearer {key}"})
        assert started.status_code == 201 and started.get_json()["club"] == body["id"]
    shown = client.get(url, headers={"Authorization": f"Bearer {body['member_key']}"}).get_json()
    assert [p["name"] for p in shown["players"]] == ["Ann", "Ben"]
    assert len(shown["tables"]) == 2 and not any(t["finished"] for t in shown["tables"])


def test_a_club_key_in_the_address_of_an_api_call_is_refused_saying_where_it_goes(client):
    """As a table's keys (API.md, Clubs: "Keys, as for tables"): under a key's name, or under any name when
    it is this club's key, in the call's path or in a new table's body; the key never gets the call through."""
    club = client.post("/api/v1/clubs", json={"name": "Thursday Club"}).get_json()
    url = f"/api/v1/clubs/{club['id']}"
    member = {"Authorization": f"Bearer {club['member_key']}"}
    table = {"game": "indian-rummy", "players": ["Ann", "Ben"], "club": club["id"]}
    for name, key in (("member_key", club["member_key"]), ("director_key", club["director_key"]),
                      ("m", club["member_key"]), ("d", club["director_key"])):
        for call in (lambda q: client.get(f"{url}?{q}"), lambda q: client.get(f"{url}?{q}", headers=member),
                     lambda q: client.post(f"/api/v1/tables?{q}", json=table, headers=member)):
            refused = call(f"{name}={key}")
            assert refused.status_code == 400, (name, refused.get_json())
            [problem] = refused.get_json()["errors"]
            assert problem["where"] == name
            assert "send it in the Authorization header instead, as Authorization: Bearer <key>" in problem["message"]
    # A parameter that holds no key of this club is not a key: the call goes on to its own answer. None of
    # the refused new tables was started.
    shown = client.get(f"{url}?m=Ann", headers=member)
    assert shown.status_code == 200 and shown.get_json()["tables"] == []


DOCS = Path(__file__).resolve().parent.parent / "docs" / "api.md"
RATED = re.compile(r'"name": "(\w+)", "games": \{"indian-rummy": \{"played": (\d+), "won": (\d+),\s*'
                   r'"rating": \{"mu": ([-\d.]+), "sigma": ([-\d.]+), "ordinal": ([-\d.]+)\}', re.S)


def club_example() -> list[tuple[str, str, str | None, object]]:
    """docs/api.md's club example, as (method, path, Authorization, body or answer text) in the order written."""
    section = DOCS.read_text(encoding="utf-8").split("## Clubs: `/api/v1/clubs`", 1)[1]
    block = re.search(r"\nExample:\n\n```\n(.*?)```", section, re.S).group(1)
    steps = []
    for chunk in block.strip().split("\n\n"):
        first, *rest = chunk.splitlines()
        if first[:3].isdigit():
            steps.append(("answer", first[:3], None, "\n".join([first[4:], *rest])))
            continue
        method, path = first.split()
        key = next((line.split("Bearer ", 1)[1] for line in rest if line.startswith("Authorization:")), None)
        body = "\n".join(line for line in rest if not line.startswith("Authorization:"))
        steps.append((method, path, key, json.loads(body) if body else None))
    return steps


def test_the_docs_club_example_is_answered_as_written(client):
    """Every call of docs/api.md's club example, in order, with the ids and keys the app gives in place of the
    written ones; each answer's status as written, and the ratings as written (to the 3 places shown)."""
    steps = club_example()
    assert [s[0] for s in steps] == ["POST", "answer", "POST", "POST", "GET", "answer"]
    club_id, member_key = re.search(r'"id": "(\w+)".*"member_key": "(\w+…)"', steps[1][3], re.S).groups()
    real: dict[str, str] = {}
    answers = []
    for method, path, key, body in steps:
        if method == "answer":
            assert answers[-1].status_code == int(path), answers[-1].get_json()
            continue
        for written, value in real.items():
            path, key = path.replace(written, value), key.replace(written, value) if key else key
            body = json.loads(json.dumps(body).replace(written, value))
        answers.append(client.open(path, method=method, json=body,
                                   headers={"Authorization": f"Bearer {key}"} if key else {}))
        answered = answers[-1].get_json()
        assert answers[-1].status_code in (200, 201), (path, answered)
        if path == "/api/v1/clubs":
            real |= {club_id: answered["id"], member_key: answered["member_key"]}
        elif path == "/api/v1/tables":
            real |= {"<id>": answered["id"], "<the table's edit key>": answered["edit_key"]}
    written = {m[0]: (int(m[1]), int(m[2]), *map(float, m[3:])) for m in RATED.findall(steps[-1][3])}
    assert set(written) == {"Ann", "Ben", "Cat"}
    club = answers[-1].get_json()
    assert {p["name"]: (p["games"]["indian-rummy"]["played"], p["games"]["indian-rummy"]["won"],
                        *(round(p["games"]["indian-rummy"]["rating"][k], 3) for k in ("mu", "sigma", "ordinal")))
            for p in club["players"]} == written
    assert [t["finished"] for t in club["tables"]] == [True]


# ---------------------------------------------------------------------------------------------
# A table added by its edit link


def test_a_table_is_added_by_its_edit_link_and_its_new_players_join_the_roster(client, club, app):
    with app.app_context():
        table = tables.create_table(get_db(), "indian-rummy", ["Zoë", "Ann"], {"variant": "deals", "deals": 1},
                                    rounds=[deal("Zoë", {"Ann": 20})])
    url = f"/clubs/{club.id}/tables?key={club.member_key}"
    for link, says in ((f"http://x/t/{table.id}", "That is not a table's edit link"),
                       (f"http://x/t/{table.id}?key=wrong", "a view link cannot add a table"),
                       ("http://x/t/none?key=abc", "There is no table at that link."),
                       ("", "Paste the table's edit link.")):
        refused = client.post(url, data={"link": link})
        assert refused.status_code == 422
        html = text(refused)
        assert 'id="link-error"' in html and says in html
        assert f'value="{link}"' in html  # what was typed is kept
    added = client.post(url, data={"link": f"http://venue.local/t/{table.id}?key={table.edit_key}"})
    assert added.status_code == 303
    with app.app_context():
        shown = store.as_json(get_db(), club)
        other = store.create_club(get_db(), "Friday Club")
    assert {p["name"]: p["games"]["indian-rummy"]["won"] for p in shown["players"]} == {"Ann": 0, "Zoë": 1}
    elsewhere = client.post(f"/clubs/{other.id}/tables?key={other.member_key}",
                            data={"link": f"/t/{table.id}?key={table.edit_key}"})
    assert elsewhere.status_code == 422 and "already counts for another club" in text(elsewhere)


# ---------------------------------------------------------------------------------------------
# Seasons


def test_a_season_is_named_beside_its_fields_and_one_without_games_says_so(client, club, app):
    finish(app, club, ["Ann", "Ben"], [30])
    url = f"/clubs/{club.id}/seasons?key={club.director_key}"
    refused = client.post(url, data={"season_name": "Spring", "season_from": "2026-05-01", "season_to": "2026-04-01"})
    assert refused.status_code == 422
    html = text(refused)
    assert 'id="season_to-error"' in html and "a season ends on or after the day it starts" in html
    assert 'value="Spring"' in html and 'value="2026-05-01"' in html
    refused = client.post(url, data={"season_name": "", "season_from": "May", "season_to": "2026-06-01"})
    html = text(refused)
    assert "a season's name cannot be empty" in html and "like 2026-03-01" in html
    assert client.post(url, data={"season_name": "Long ago", "season_from": "2001-01-01",
                                  "season_to": "2001-12-31"}).status_code == 303
    # "Now" holds the day the game was finished, whatever day the suite runs on.
    today = date.today()
    assert client.post(url, data={"season_name": "Now", "season_from": (today - timedelta(days=365)).isoformat(),
                                  "season_to": (today + timedelta(days=365)).isoformat()}).status_code == 303
    empty = text(page(client, club, season="Long ago"))
    assert "No game finished for the club in Long ago (2001-01-01 to 2001-12-31)." in empty
    assert "Ann" in text(page(client, club, season="Now")).split('id="tables"')[0]
    assert page(client, club, season="Never").status_code == 404
    with app.app_context():
        now = store.get_club(get_db(), club.id)
        assert [s.name for s in now.seasons] == ["Long ago", "Now"]
        assert store.leaderboard(get_db(), club.id, "indian-rummy", season=now.seasons[0]) == []
        assert len(store.leaderboard(get_db(), club.id, "indian-rummy", season=now.seasons[1])) == 2


# ---------------------------------------------------------------------------------------------
# Paper, and a big roster


def forty(prefix: str) -> list[str]:
    """Forty names of forty letters, no space: the longest a name may be."""
    return [(f"{prefix}{n:02d}" + "abcdefghij" * 4)[:40] for n in range(40)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_standings_of_forty_players_in_two_games_print_on_one_page(client, club, app, paper, tmp_path):
    names = forty("Player")
    for i in range(0, 40, 4):
        finish(app, club, names[i:i + 3] + [names[i + 3]], [10, 20, 30])
        finish(app, club, names[i:i + 4], [], game="alliance-royals")
    response = client.get(f"/clubs/{club.id}/standings.pdf?key={club.member_key}&season=all&paper={paper}")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    pdf = response.data
    assert page_count(pdf) == 1
    text = re.sub(r"\s+", "", page_texts(pdf)[0])
    assert all(name in text for name in names)  # every name whole, none cut at the paper's edge
    assert "IndianRummy" in text and "AllianceRoyals" in text and "Thursday Club".replace(" ", "") in text
    assert too_small(pdf) == [] and near_the_edge(pdf) == []
    path = tmp_path / f"standings-{paper}.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(path), str(tmp_path / paper)], check=True)


def test_a_season_without_games_prints_saying_so(client, club, app):
    with app.app_context():
        store.add_season(get_db(), club, "Winter", "2001-01-01", "2001-02-01")
    response = client.get(f"/clubs/{club.id}/standings.pdf?key={club.member_key}&season=Winter")
    assert response.status_code == 200
    assert client.get(f"/clubs/{club.id}/standings.pdf?key={club.member_key}&paper=a3").status_code == 404


def test_a_roster_of_500_players_shows_on_the_club_page(client, club, app):
    with app.app_context():
        db = get_db()
        with db_transaction(db):
            for n in range(500):
                store.add_player(db, club.id, f"Member {n:03d}")
    html = text(page(client, club))
    assert all(f"Member {n:03d}" in html for n in range(500))


def db_transaction(db):
    from companion.storage.db import immediate

    return immediate(db)


# ---------------------------------------------------------------------------------------------
# The record out and in


def season_club(app):
    """The club of tests/cases/club_season.toml: its games, the edit of the first, the merge of Benjamin."""
    from tests.test_clubs import SEASON, play

    with app.app_context():
        db = get_db()
        club = store.create_club(db, "Thursday Club")
        played = [play(db, club, case) for case in SEASON["game"]]
        first = played[0]
        slot = tables.fold(tables.events(db, first.id))[0][0]
        tables.append(db, first, tables.version(db, first.id),
                      tables.Change("edit", slot=slot, data=SEASON["edit"]["round"]))
        store.merge(db, club, store.find_player(db, club.id, "Ben").id, store.find_player(db, club.id, "Benjamin").id)
        store.add_season(db, club, "Autumn", "2026-09-01", "2026-11-30")
        unfinished = tables.new_table("indian-rummy", ["Ann", "=cmd|' /C calc'!A0"], {"variant": "deals", "deals": 2})
        store.start_table(db, club, unfinished)
        return store.get_club(db, club.id)


def shown(app, club) -> dict:
    with app.app_context():
        return {k: v for k, v in store.as_json(get_db(), store.get_club(get_db(), club.id)).items() if k != "id"}


def test_a_club_s_record_imported_elsewhere_shows_the_same_ratings_roster_and_seasons(client, app, make_app, tmp_path):
    club = season_club(app)
    exported = client.get(f"/clubs/{club.id}/export.json?key={club.member_key}")
    assert exported.status_code == 200
    record = exported.get_json()
    assert [p["name"] for p in record["players"]] == ["=cmd|' /C calc'!A0", "Ann", "Ben", "Cat", "Dan"]
    assert next(p for p in record["players"] if p["name"] == "Ben")["spellings"] == ["Benjamin"]
    elsewhere = make_app(DATABASE=str(tmp_path / "elsewhere.sqlite"), WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False)
    imported = elsewhere.test_client().post("/clubs/import", data={"file": (io.BytesIO(exported.data), "club.json")},
                                            content_type="multipart/form-data")
    assert imported.status_code == 303
    with elsewhere.app_context():
        copy = next(iter(store.get_club(get_db(), r[0]) for r in get_db().execute("SELECT id FROM clubs")))
        assert store.find_player(get_db(), copy.id, "benjamin").name == "Ben"  # the merged spelling still finds Ben
    before, after = shown(app, club), shown(elsewhere, copy)
    assert before["players"] == after["players"]  # every rating, number for number
    assert sorted((t["game"], t["players"], t["finished"]) for t in before["tables"]) == \
        sorted((t["game"], t["players"], t["finished"]) for t in after["tables"])
    assert copy.seasons == club.seasons and copy.member_key != club.member_key


def test_the_csv_has_a_row_per_player_per_finished_game_and_defuses_formulas(client, app):
    club = season_club(app)
    finish(app, club, ["=cmd|' /C calc'!A0", "Ann"], [5])
    lines = text(client.get(f"/clubs/{club.id}/export.csv?key={club.member_key}")).splitlines()
    assert lines[0].startswith("finished_at,game,table,title,player,side,place,won,total,rating_mu")
    assert len(lines) == 1 + 3 + 3 + 4 + 2 + 2  # the season's games, then the last one
    assert any(",'=cmd|' /C calc'!A0," in line or "\"'=cmd|' /C calc'!A0\"" in line for line in lines)


@pytest.mark.parametrize("change, where, says", [
    (lambda r: r.update(format="table"), "$", "this is not a club's record"),
    (lambda r: r.update(name=""), "name", "a club's name cannot be empty"),
    (lambda r: r["players"].append({"name": "ann"}), "players[5].name", "ann is on the roster twice"),
    (lambda r: r["tables"][0]["places"][0].update(player="Zed"), "tables[0].places[0].player",
     "Zed is not in the record's players"),
    (lambda r: r["tables"][-1].update(finished_at="2026-01-01", places=[]), "tables[4].finished_at",
     "this table's rounds do not finish its game"),
    (lambda r: r["tables"][1]["rounds"][0].update(winner="Nobody"), "tables[1].rounds[0].winner", "Nobody"),
    (lambda r: r["seasons"].append({"name": "Autumn", "from": "x", "to": "2026-01-01"}), "seasons[1].name",
     "the club has a season called Autumn already"),
])
def test_an_import_that_will_not_do_says_where_and_writes_nothing(client, app, change, where, says):
    club = season_club(app)
    record = client.get(f"/clubs/{club.id}/export.json?key={club.member_key}").get_json()
    change(record)
    with app.app_context():
        clubs_before = get_db().value("SELECT COUNT(*) FROM clubs")
        tables_before = get_db().value("SELECT COUNT(*) FROM tables")
    refused = client.post("/clubs/import", data={"file": (io.BytesIO(json.dumps(record).encode()), "club.json")},
                          content_type="multipart/form-data")
    assert refused.status_code == 422
    html = text(refused)
    assert f"{where}: " in html and says in html, html[html.find("cannot be imported"):][:800]
    with app.app_context():
        assert get_db().value("SELECT COUNT(*) FROM clubs") == clubs_before
        assert get_db().value("SELECT COUNT(*) FROM tables") == tables_before


def test_an_import_of_something_else_is_refused_in_words(client):
    for raw, says in ((b"not json", "That is not valid JSON"), (b"", "Choose the file of a club"),
                      (b"[1, 2]", "this is not a club's record")):
        refused = client.post("/clubs/import", data={"file": (io.BytesIO(raw), "club.json")},
                              content_type="multipart/form-data")
        assert refused.status_code == 422 and says in text(refused)


def test_a_tournament_run_for_the_club_counts_every_table_it_seats(client, club, app):
    form = {"title": "Club night", "game": "indian-rummy", "entrants": "Ann\nBen\nCat\nDan", "rounds": "2",
            "method": "round-robin", "table_min": "2", "table_max": "2", "opt-variant": "deals", "opt-deals": "2"}
    refused = client.post(f"/tournaments/new?club={club.id}&key=wrong", data=form)
    assert refused.status_code == 403
    made = client.post(f"/tournaments/new?club={club.id}&key={club.member_key}", data=form)
    assert made.status_code == 303, text(made)[:2000]
    director = made.headers["Location"]
    tid = director.split("/tournaments/")[1].split("?")[0]
    seat = director.replace(f"/tournaments/{tid}", f"/tournaments/{tid}/rounds")
    assert client.post(seat, data={"round": "1"}).status_code == 303
    unseat = director.replace(f"/tournaments/{tid}", f"/tournaments/{tid}/rounds/1/undo")
    assert client.post(unseat).status_code == 303  # undone before a hand: its tables leave the club too
    with app.app_context():
        assert get_db().value("SELECT COUNT(*) FROM club_tables WHERE club_id = ?", [club.id]) == 0
    assert client.post(seat, data={"round": "1"}).status_code == 303
    with app.app_context():
        db = get_db()
        seated = [r[0] for r in db.execute("SELECT table_id FROM tournament_tables WHERE tournament_id = ?", [tid])]
        assert len(seated) == 2
        assert {store.club_of_table(db, t) for t in seated} == {club.id}
        table = tables.get_table(db, seated[0])
        tables.append(db, table, 0, tables.Change("add", data=deal(table.players[0], {table.players[1]: 25})))
        tables.append(db, table, 1, tables.Change("add", data=deal(table.players[0], {table.players[1]: 5})))
        shown = store.as_json(db, club)
    won = {p["name"]: p["games"].get("indian-rummy", {}).get("won") for p in shown["players"]}
    assert won[table.players[0]] == 1 and won[table.players[1]] == 0
    assert len(shown["players"]) == 4 and len(shown["tables"]) == 2


def test_an_imported_table_s_names_get_the_new_table_form_s_checks(client, app):
    club = season_club(app)
    record = client.get(f"/clubs/{club.id}/export.json?key={club.member_key}").get_json()
    record["tables"][0]["players"][1] = "Ben\nand a line"
    record["tables"][0]["title"] = "x" * 61
    refused = client.post("/clubs/import", data={"file": (io.BytesIO(json.dumps(record).encode()), "club.json")},
                          content_type="multipart/form-data")
    assert refused.status_code == 422
    html = text(refused)
    assert "tables[0].players[1]: a name cannot hold control characters" in html
    assert "tables[0].title: a table's name may have at most 60 characters; this one has 61" in html


def test_numbers_and_dates_out_of_range_are_a_404_or_a_message_never_a_500(client, club):
    huge = "9" * 25
    assert client.get(f"/clubs/{club.id}/players/{huge}?key={club.member_key}").status_code == 404
    assert client.post(f"/clubs/{club.id}/former?key={club.director_key}", data={"player": huge}).status_code == 400
    refused = client.post(f"/clubs/{club.id}/seasons?key={club.director_key}",
                          data={"season_name": "Forever", "season_from": "2026-01-01", "season_to": "9999-12-31"})
    assert refused.status_code == 422 and "between the years 1900 and 2999" in text(refused)


def test_ratings_print_with_a_true_minus_never_minus_zero_and_equal_ratings_share_a_place(client, club, app):
    """Deals rummy, one deal a game (IR-10). Ann wins a table of five; Ben, Cat and Dan count 10 each (equal
    standing, one place, and so one rating: −0.11), Eve 80. Fay, Gus, Hal and Ivy play three games, won by
    Hal, Ivy and Gus, the others counting 10, 20 and 30 in seat order: Hal ends on −0.046, "0.0" (never
    "−0.0"). On the club page and on the standings PDF alike: places 1, 2, 3, 4, 5, 5, 5, 8, 9 (equal
    ratings, equal places) and every minus a true minus."""
    with app.app_context():
        db = get_db()
        five = tables.new_table("indian-rummy", ["Ann", "Ben", "Cat", "Dan", "Eve"], {"variant": "deals", "deals": 1})
        store.start_table(db, club, five, rounds=[{"winner": "Ann", "hands": {
            "Ben": {"count": 10}, "Cat": {"count": 10}, "Dan": {"count": 10}, "Eve": {"count": 80}}}])
        four = ["Fay", "Gus", "Hal", "Ivy"]
        for winner in ("Hal", "Ivy", "Gus"):
            table = tables.new_table("indian-rummy", four, {"variant": "deals", "deals": 1})
            losers = [p for p in four if p != winner]
            store.start_table(db, club, table, rounds=[{"winner": winner, "hands": {
                p: {"count": 10 * n} for n, p in enumerate(losers, 1)}}])
    expected = [("1", "Fay", "5.5"), ("2", "Gus", "3.9"), ("3", "Ann", "2.8"), ("4", "Hal", "0.0"),
                *[("5", p, "\u22120.1") for p in ("Ben", "Cat", "Dan")], ("8", "Eve", "\u22121.2"),
                ("9", "Ivy", "\u22123.3")]
    board = text(page(client, club)).split('id="board-indian-rummy"')[1].split("</table>")[0]
    rows = [(re.search(r"<td>(\d+)</td>", row)[1], re.search(r'">([^<]+)</a>', row)[1],
             re.findall(r'<td class="num">([^<]+?)(?: <abbr|</td>)', row)[-1]) for row in board.split("<tr>")[2:]]
    assert rows == expected, rows
    pdf = client.get(f"/clubs/{club.id}/standings.pdf?key={club.member_key}&season=all").data
    named = {name for _, name, _ in expected}
    by_line: dict[float, list] = {}
    for word in words(pdf):
        by_line.setdefault(round(word.y0), []).append(word)
    lines = [[w.text for w in sorted(line, key=lambda w: w.x0)] for _, line in sorted(by_line.items())]
    printed = [(line[0], line[1], line[-1] if line[-1] != "p" else line[-2]) for line in lines
               if len(line) > 2 and line[1] in named]
    assert printed == expected, printed
