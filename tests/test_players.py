"""Correcting a player's name and seating a late player at a table (the table's "Players" page).

A rename is a change in the table's log: every stored reference follows it (the rounds, the
options that name players, a tournament's seat), the history tells it in words and an undo
takes it back. A late player is seated from the next hand, where the game allows it.
"""

from __future__ import annotations

import re

from companion.storage import tables
from companion.storage.db import get_db
from tests.conftest import csrf_token

BOARD = {"house": "S", "spoils": [], "meld": [], "hand": []}


def alliance_table(app, **options):
    hand = {"players": {"Ann": dict(BOARD, spoils=["AS", "10S"]), "Ben": dict(BOARD, house="H", hand=["2H"]),
                        "Cat": dict(BOARD, house="D", spoils=["AD"]), "Dan": dict(BOARD, house="C")}}
    with app.app_context():
        return tables.create_table(get_db(), "alliance-royals", ["Ann", "Ben", "Cat", "Dan"], options,
                                   rounds=[hand, hand])


def version_of(html: str, prefix: str) -> str:
    return re.search(rf'name="{prefix}-base_version" type="hidden" value="(\d+)"', html).group(1)


def rename(client, table, seat: int, name: str):
    page = client.get(f"/t/{table.id}/players?key={table.edit_key}").get_data(as_text=True)
    return client.post(f"/t/{table.id}/players/{seat}?key={table.edit_key}",
                       data={f"p{seat}-name": name, f"p{seat}-base_version": version_of(page, f"p{seat}")})


def test_a_rename_follows_every_reference_and_the_log_keeps_the_old_name(app, client):
    table = alliance_table(app, teams=[["Ann", "Ben"], ["Cat", "Dan"]])
    before = client.get(f"/t/{table.id}/export.json").get_json()
    assert rename(client, table, 1, "  Benedict ").status_code == 303
    body = client.get(f"/t/{table.id}/export.json").get_json()
    assert body["players"] == ["Ann", "Benedict", "Cat", "Dan"]
    assert body["options"]["teams"] == [["Ann", "Benedict"], ["Cat", "Dan"]]  # AR-2's Alliances follow
    assert all("Benedict" in r["players"] and "Ben" not in r["players"] for r in body["rounds"])
    assert [r["players"]["Benedict"] for r in body["rounds"]] == [r["players"]["Ben"] for r in before["rounds"]]
    page = client.get(f"/t/{table.id}?key={table.edit_key}").get_data(as_text=True)
    assert "Benedict" in page and ">Ben<" not in page
    history = client.get(f"/t/{table.id}/history").get_data(as_text=True)
    assert "Ben renamed Benedict" in history
    # The scores did not move: the same Alliances, the same totals.
    with app.app_context():
        now = tables.state(get_db(), tables.get_table(get_db(), table.id))
    from companion import games

    was = games.score(before).totals
    assert now.scored.totals == {"Ann": was["Ann"], "Benedict": was["Ben"], "Cat": was["Cat"], "Dan": was["Dan"]}
    assert now.scored.sides == {"A": ["Ann", "Benedict"], "B": ["Cat", "Dan"]}


def test_undo_takes_a_rename_back_and_redo_brings_it_again(app, client):
    table = alliance_table(app)
    rename(client, table, 0, "Annie")
    page = client.get(f"/t/{table.id}?key={table.edit_key}").get_data(as_text=True)
    version = re.search(r'name="base_version" value="(\d+)"', page).group(1)
    assert client.post(f"/t/{table.id}/undo?key={table.edit_key}", data={"base_version": version}).status_code == 303
    assert client.get(f"/t/{table.id}/export.json").get_json()["players"][0] == "Ann"
    history = client.get(f"/t/{table.id}/history").get_data(as_text=True)
    assert "Renaming of Ann to Annie taken back" in history
    assert client.post(f"/t/{table.id}/redo?key={table.edit_key}",
                       data={"base_version": str(int(version) + 1)}).status_code == 303
    assert client.get(f"/t/{table.id}/export.json").get_json()["players"][0] == "Annie"


def test_a_bad_name_gets_its_message_beside_the_field(app, client):
    table = alliance_table(app)
    for name, message in (("", "Each player needs a name."),
                          ("x" * 41, "A name may have at most 40 characters."),
                          ("cat", "Cat already sits at this table; give each player a different name."),
                          ("Be\tn", "A name cannot hold control characters such as line breaks or tabs."),
                          ("Ben", "Ben is already called that.")):
        response = rename(client, table, 1, name)
        assert response.status_code == 422, name
        html = response.get_data(as_text=True)
        assert f'<p class="error" id="p1-name-error">{message}</p>' in html, (name, html[-3000:])
        assert 'aria-invalid="true"' in html
    assert client.get(f"/t/{table.id}/export.json").get_json()["players"][1] == "Ben"
    assert rename(client, table, 1, "BEN").status_code == 303  # a player may change the case of their own name


def test_a_view_link_cannot_rename_and_a_form_needs_its_csrf_token(app, client, csrf_app):
    table = alliance_table(app)
    assert client.get(f"/t/{table.id}/players").status_code == 403
    assert client.post(f"/t/{table.id}/players/0", data={"p0-name": "X", "p0-base_version": "2"}).status_code == 403
    assert client.post(f"/t/{table.id}/players/9?key={table.edit_key}", data={}).status_code == 404
    guarded = csrf_app.test_client()
    with csrf_app.app_context():
        other = tables.create_table(get_db(), "rummathon-royale", ["Ann", "Ben"], {})
    refused = guarded.post(f"/t/{other.id}/players/0?key={other.edit_key}",
                           data={"p0-name": "X", "p0-base_version": "0"})
    assert refused.status_code == 400
    page = guarded.get(f"/t/{other.id}/players?key={other.edit_key}").get_data(as_text=True)
    ok = guarded.post(f"/t/{other.id}/players/0?key={other.edit_key}",
                      data={"p0-csrf_token": csrf_token(page.replace('name="p0-csrf_token"', 'name="csrf_token"')),
                            "p0-name": "Annie", "p0-base_version": "0"})
    assert ok.status_code == 303


def test_a_stale_rename_is_refused_with_the_form_kept(app, client):
    table = alliance_table(app)
    response = client.post(f"/t/{table.id}/players/1?key={table.edit_key}",
                           data={"p1-name": "Benedict", "p1-base_version": "1"})
    assert response.status_code == 409
    assert 'value="Benedict"' in response.get_data(as_text=True)


def seat_late(client, table, name: str):
    page = client.get(f"/t/{table.id}/players?key={table.edit_key}").get_data(as_text=True)
    return client.post(f"/t/{table.id}/players/late?key={table.edit_key}",
                       data={"late-name": name, "late-base_version": version_of(page, "late")})


def test_a_late_player_is_seated_from_the_next_hand_and_the_grid_leaves_their_past_blank(app, client):
    hand = {"out": "Ann", "left": {"Ben": {"low": 2}}}
    with app.app_context():
        table = tables.create_table(get_db(), "rummathon-royale", ["Ann", "Ben"], {}, rounds=[hand, hand])
    assert seat_late(client, table, "Eve").status_code == 303
    body = client.get(f"/t/{table.id}/export.json").get_json()
    assert body["players"] == ["Ann", "Ben", "Eve"] and body["joined"] == {"Eve": 3}
    page = client.get(f"/t/{table.id}?key={table.edit_key}").get_data(as_text=True)
    assert page.count('<td class="num late">') == 2  # hands 1 and 2: Eve was not there
    assert "joins at hand 3" in page
    assert "Eve seated late, playing from hand 3" in client.get(f"/t/{table.id}/history").get_data(as_text=True)
    # Hand 3 names her; the form offers her fields.
    form = client.get(f"/t/{table.id}/hands/new?key={table.edit_key}").get_data(as_text=True)
    assert "Eve" in form


def test_a_fixed_seat_game_or_a_bad_name_cannot_seat_a_late_player(app, client):
    table = alliance_table(app)
    page = client.get(f"/t/{table.id}/players?key={table.edit_key}").get_data(as_text=True)
    assert "nobody can join during the game" in page and 'name="late-name"' not in page
    response = client.post(f"/t/{table.id}/players/late?key={table.edit_key}",
                           data={"late-name": "Eve", "late-base_version": "2"})
    assert response.status_code == 422
    with app.app_context():
        other = tables.create_table(get_db(), "indian-rummy", ["Ann", "Ben"], {"variant": "pool101"}, rounds=[
            {"wild": "3", "winner": "Ann", "hands": {"Ben": {"count": 80}}}])
    for name, message in (("ann", "Ann already sits at this table"), ("", "Each player needs a name"),
                          ("Eve", "Eve cannot join the pool at deal 2: Ben has 80, above 79")):
        response = seat_late(client, other, name)
        assert response.status_code == 422, name
        assert message in response.get_data(as_text=True), name


def test_royalty_seats_a_late_player_but_not_in_a_joust_or_with_coalitions(app, client):
    turn = {"player": "Ann", "pass": True}
    with app.app_context():
        table = tables.create_table(get_db(), "royalty", ["Ann", "Ben"], {}, rounds=[turn])
        joust = tables.create_table(get_db(), "royalty", ["Ann", "Ben"], {"variant": "joust"})
        paired = tables.create_table(get_db(), "royalty", ["Ann", "Ben", "Cat", "Dan"],
                                     {"coalitions": [["Ann", "Cat"], ["Ben", "Dan"]]})
    assert seat_late(client, table, "Eve").status_code == 303
    body = client.get(f"/t/{table.id}/export.json").get_json()
    assert body["joined"] == {"Eve": 2}
    page = client.get(f"/t/{table.id}?key={table.edit_key}").get_data(as_text=True)
    assert "Next: Ben plays" in page  # Ben's seat comes before Eve's
    for other, why in ((joust, "Joust is a game for exactly two players"),
                       (paired, "coalitions were made at the start")):
        page = client.get(f"/t/{other.id}/players?key={other.edit_key}").get_data(as_text=True)
        assert why in page and 'name="late-name"' not in page


def test_an_export_with_a_late_player_imports_as_the_same_game(app, client):
    """The export carries ``joined``; the import seats the late player in the log before their first hand,
    in the seat the export gives them."""
    request = {"game": "rummathon-royale", "players": ["Ann", "Eve", "Ben"], "joined": {"Eve": 2}, "options": {},
               "rounds": [{"out": "Ann", "left": {"Ben": {"low": 4}}}, {"out": "Eve", "left": {"Ann": {"high": 1}}}]}
    with app.app_context():
        table = tables.create_table(get_db(), request["game"], request["players"], {}, rounds=request["rounds"],
                                    joined=request["joined"])
    body = client.get(f"/t/{table.id}/export.json").get_json()
    assert body["players"] == ["Ann", "Eve", "Ben"] and body["joined"] == {"Eve": 2}
    assert body["rounds"] == request["rounds"]
    imported = client.post("/import", data={"text": __import__("json").dumps(body)})
    assert imported.status_code == 303
    again = client.get(imported.headers["Location"].split("?")[0] + "/export.json").get_json()
    assert again["players"] == body["players"] and again["joined"] == body["joined"]
    page = client.get(f"/t/{table.id}").get_data(as_text=True)
    assert page.count('<td class="num late">') == 1  # Eve's hand 1


def test_a_late_players_line_starts_where_they_joined_at_their_starting_score():
    """Rummathon Royale: Eve joins at hand 3 with the lowest score at the table, Ben's 0 (RR-6 and the
    rules page); her line starts after hand 2 at 0 and never runs along the axis for the hands she missed."""
    from companion import games
    from companion.paper import chart, sheets

    game = {"game": "rummathon-royale", "players": ["Ann", "Ben", "Eve"], "joined": {"Eve": 3},
            "rounds": [{"out": "Ann", "left": {"Ben": {"low": 2}}, "progress": {"Ann": "completed"}},
                       {"out": "Ann", "left": {"Ben": {"low": 2}}, "progress": {"Ann": "completed"}},
                       {"out": "Eve", "left": {"Ann": {"low": 1}, "Ben": {"low": 2}}}]}
    data = games.score(game).as_json()
    svg, _ = sheets.running_chart(data, "hand")
    lines = [[tuple(map(float, xy.split(","))) for xy in p.split()]
             for p in re.findall(r'<polyline points="([^"]+)"', svg)]
    ann, ben, eve = lines
    assert len(ann) == len(ben) == 4 and len(eve) == 2  # start and three hands; Eve: her start and hand 3
    assert eve[0][0] == ann[2][0] and eve[1][0] == ann[3][0]  # drawn from after hand 2 to after hand 3
    assert chart._from_joining([0, 0, 0, 15], (3, 0)) == [(2, 0), (3, 15)]


def test_an_edit_after_a_rename_is_told_under_the_new_name_only(app, client):
    table = alliance_table(app)
    assert rename(client, table, 1, "Benedict").status_code == 303
    with app.app_context():
        db = get_db()
        log = tables.events(db, table.id)
        first = next(e for e in log if e.kind == "add")
        hand = tables.seating(tables.get_table(db, table.id), log)[1][0][1]
        edited = {"players": dict(hand["players"], Benedict=dict(BOARD, house="H", hand=["2H", "3H"]))}
        tables.append(db, tables.get_table(db, table.id), tables.version(db, table.id),
                      tables.Change("edit", first.slot, edited))
    history = client.get(f"/t/{table.id}/history").get_data(as_text=True)
    told = re.search(r"Round 1 edited[^<]*", history).group(0)
    assert "Benedict" in told and not re.search(r"\bBen\b", told), told  # before: "players Ben house H → nothing"
