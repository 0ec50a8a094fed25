"""The score pad's grid against the scored game: every cell is the engine's number.

Random games of each kind (the engines' own property strategies) are scored, laid
out as a grid, and every cell checked: the round's points are the engine's points
for that player (or side), the running total is the sum of the points so far (or
the engine's own running total where it keeps one), the last row is the engine's
totals, and the leader marks and the distance to the end follow the rules.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion import games
from companion.paper import scorepad
from tests import test_alliance_royals, test_indian_rummy, test_rally_the_king, test_royalty, test_rummathon_royale

SETTINGS = settings(max_examples=60, deadline=None, database=None)


def check_grid(request: dict[str, Any]) -> scorepad.Grid:
    scored = games.score(request)
    grid = scorepad.build(scored, request["rounds"])
    data = scored.as_json()
    sides = data.get("sides")
    assert len(grid.rows) == len(scored.rounds)
    columns = list(sides) if sides else list(scored.players)
    assert list(grid.columns) == columns
    running = dict.fromkeys(columns, 0)
    for row, r in zip(grid.rows, data["rounds"], strict=True):
        points = r["side_points"] if sides else r["points"]
        for column, cell in zip(columns, row.cells, strict=True):
            assert cell.points == points[column]
            running[column] += points[column]
        # The engine's own running total, where it keeps one (pool rejoin, Royalty's end): else the sum.
        kept = r["detail"].get("totals") if isinstance(r["detail"].get("totals"), dict) else None
        for column, cell in zip(columns, row.cells, strict=True):
            if kept is None and not (isinstance(r["detail"].get("players"), dict)
                                     and "score_after" in str(r["detail"]["players"])):
                assert cell.total == running[column]
            running[column] = cell.total
    final = data["side_totals"] if sides else data["totals"]
    if grid.rows:
        assert [c.total for c in grid.rows[-1].cells] == [final[c] for c in columns] or scored.game == "royalty"
    assert list(grid.totals) == [final[c] for c in columns]
    if scored.over:
        winners = set(scored.winners)
        marked = [c for c, lead in zip(columns, grid.leaders, strict=True) if lead]
        for c in marked:
            assert set(sides[c] if sides else [c]) & winners
        assert all(d == "" for d in grid.distance)  # nothing "to pass" once the game is over
        assert grid.next_dealer is None
    return grid


@SETTINGS
@given(test_alliance_royals.games())
def test_alliance_royals_grid_is_the_engines(request):
    grid = check_grid(request)
    assert grid.by_sides and grid.columns == ("A", "B")
    if not grid.over:
        opts = request["options"]
        win = opts.get("win_above", 1066)
        for total, words in zip(grid.totals, grid.distance, strict=True):
            assert words.startswith(f"{win - total + 1} to pass {win}")  # AR-12


@SETTINGS
@given(st.sampled_from(["points", "pool101", "pool201", "deals"]).flatmap(test_indian_rummy.games))
def test_indian_rummy_grid_is_the_engines(game):
    grid = check_grid({"game": "indian-rummy", **game})
    if game["options"]["variant"].startswith("pool") and not grid.over and grid.rows:
        best = min(grid.totals)  # IR-9: the lowest count leads in pool rummy
        assert [t == best for t in grid.totals] == list(grid.leaders) or len(set(grid.totals)) == 1


@SETTINGS
@given(test_rally_the_king.games())
def test_rally_the_king_grid_is_the_engines(game):
    options, rounds = game
    grid = check_grid({"game": "rally-the-king", "players": test_rally_the_king.PLAYERS, "options": options,
                       "rounds": rounds})
    for row, hand in zip(grid.rows, rounds, strict=True):
        if hand.get("dealer"):
            assert row.dealer == hand["dealer"]  # RK-10: the dealer entered


@SETTINGS
@given(test_royalty.games())
def test_royalty_grid_is_the_engines(game):
    grid = check_grid({"game": "royalty", **game})
    for row, turn in zip(grid.rows, game["rounds"], strict=True):
        assert row.dealer == turn.get("player")


@SETTINGS
@given(test_rummathon_royale.games())
def test_rummathon_royale_grid_is_the_engines(request):
    grid = check_grid(request)
    players = request["players"]
    for row in grid.rows:
        assert row.dealer == players[(row.n - 1) % len(players)]


def test_alliance_royals_winners_row_says_nothing_left_to_pass():
    """The case first reported: after the end no Alliance is told it is "-193 to pass 1066"."""
    request = {"game": "alliance-royals", "players": ["Ann", "Ben", "Cat", "Dan"],
               "options": {"win_above": 20, "lose_below": -100},
               "rounds": [{"players": {
                   "Ann": {"house": "S", "spoils": ["AS", "10S", "KS"], "meld": [], "hand": []},
                   "Ben": {"house": "H", "spoils": [], "meld": [], "hand": ["2H"]},
                   "Cat": {"house": "D", "spoils": ["AD", "10D"], "meld": [], "hand": []},
                   "Dan": {"house": "C", "spoils": [], "meld": [], "hand": []}}}]}
    grid = check_grid(request)
    assert grid.over
    assert grid.distance == ("", "")
    assert grid.leaders == (True, False)


def test_a_thirty_hand_table_page_stays_under_100_kb(app, client):
    """The page carries the grid, the chart and the latest hands' why; older hands' why is a link."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))
    from run import rummathon_game  # the bench's club-evening game

    from companion.storage import tables
    from companion.storage.db import get_db

    game = rummathon_game(30)
    with app.app_context():
        table = tables.create_table(get_db(), game["game"], game["players"], game["options"], rounds=game["rounds"])
    page = client.get(f"/t/{table.id}?key={table.edit_key}")
    html = page.get_data(as_text=True)
    assert len(page.data) < 100 * 1024
    assert html.count('<tr data-hand="') == 30
    assert html.count('class="why-later"') == 22  # all but the latest eight
    why = client.get(f"/t/{table.id}/hands/1/why")
    assert why.status_code == 200
    scored = games.score(game)
    for line in scored.rounds[0].explain["Ben"]:
        assert line.split(" (")[0].replace("&", "&amp;") in why.get_data(as_text=True)
    assert client.get(f"/t/{table.id}/hands/999/why").status_code == 404


def _table_page(app, client, request: dict[str, Any]) -> str:
    from companion.storage import tables
    from companion.storage.db import get_db

    with app.app_context():
        table = tables.create_table(get_db(), request["game"], request["players"], request.get("options") or {},
                                    rounds=request["rounds"])
    page = client.get(f"/t/{table.id}")
    assert page.status_code == 200
    return page.get_data(as_text=True)


def _chart_of(html: str) -> str:
    start = html.index('<svg xmlns="http://www.w3.org/2000/svg" class="chart"')
    return html[start:html.index("</svg>", start)]


def test_the_page_chart_plots_the_alliances_and_the_games_bounds(app, client):
    """AR-11/AR-12: the chart has one line per Alliance and the two bounds, labelled, as the sheet does."""
    request = {"game": "alliance-royals", "players": ["Ann", "Ben", "Cat", "Dan"],
               "options": {"win_above": 500, "lose_below": -200},
               "rounds": [{"players": {
                   "Ann": {"house": "S", "spoils": ["AS", "10S"], "meld": [], "hand": []},
                   "Ben": {"house": "H", "spoils": [], "meld": [], "hand": ["2H"]},
                   "Cat": {"house": "D", "spoils": ["AD"], "meld": [], "hand": []},
                   "Dan": {"house": "C", "spoils": [], "meld": [], "hand": []}}}]}
    html = _table_page(app, client, request)
    svg = _chart_of(html)
    assert svg.count("<polyline") == 2  # Alliance A and Alliance B, not the four players
    # Both bounds far beyond totals of a few dozen: named at the plot's edge, the lines using the plot.
    assert "\u2191 <tspan>above 500 wins</tspan>" in svg and "\u2193 <tspan>below −200 ends</tspan>" in svg
    assert 'stroke-dasharray="4 2"' not in svg
    assert "Alliance A: Ann &amp; Cat" in html and "Alliance B: Ben &amp; Dan" in html  # the legend, in HTML


def test_the_page_chart_of_pool_rummy_has_its_limit_and_points_rummy_none(app, client):
    """IR-9: pool rummy's chart shows the count a player goes out at; points rummy has no such line."""
    deal = {"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 30}, "Cat": {"drop": "first"}}}
    for variant, label in (("pool201", "\u2191 <tspan>out at 201</tspan>"), ("points", None)):
        html = _table_page(app, client, {"game": "indian-rummy", "players": ["Ann", "Ben", "Cat"],
                                         "options": {"variant": variant}, "rounds": [deal]})
        svg = _chart_of(html)
        assert svg.count("<polyline") == 3
        if label:  # 201 far above a count of 30: named above the plot, no line across it
            assert label in svg and 'stroke-dasharray="4 2"' not in svg
        else:
            assert 'stroke-dasharray="4 2"' not in svg


def test_the_page_chart_of_battle_royals_has_the_players_bounds(app, client):
    """BR-3: each player's own total ends the game above 1066 or below −333."""
    request = {"game": "battle-royals", "players": ["Ann", "Ben"], "rounds": [{"players": {
        "Ann": {"house": "S", "spoils": ["AS"], "meld": [], "hand": []},
        "Ben": {"house": "H", "spoils": [], "meld": [], "hand": ["2H"]}}}]}
    svg = _chart_of(_table_page(app, client, request))
    assert "above 1066 ends</tspan>" in svg and "below −333 ends</tspan>" in svg


def test_the_grid_follows_a_named_dealer_in_rummy_royal():
    """A deal that names its dealer overrides the seat order; the next deal goes to their left (RM-3)."""
    request = {"game": "rummy-royal", "players": ["Ann", "Ben", "Cat", "Dan"], "options": {"poker": False},
               "rounds": [{"dealer": "Cat", "pay_cards": {}, "out": "Ann", "cards_left": {"Ben": 1}},
                          {"pay_cards": {}, "out": "Ann", "cards_left": {"Ben": 1}}]}
    grid = check_grid(request)
    assert [row.dealer for row in grid.rows] == ["Cat", "Dan"]
    assert grid.next_dealer == "Ann"


def test_the_grid_passes_the_deal_left_from_the_first_seat():
    """Alliance Royals' rounds name no dealer: the first seat deals, then the next seat in the list."""
    board = {"house": "S", "spoils": [], "meld": [], "hand": []}
    request = {"game": "alliance-royals", "players": ["Ann", "Ben", "Cat", "Dan"],
               "rounds": [{"players": {p: dict(board, house=h) for p, h in zip(["Ann", "Ben", "Cat", "Dan"], "SHDC",
                                                                               strict=True)}}] * 5}
    grid = check_grid(request)
    assert [row.dealer for row in grid.rows] == ["Ann", "Ben", "Cat", "Dan", "Ann"]
    assert grid.next_dealer == "Ben"


def test_every_rules_page_says_who_deals(client):
    """The convention the grid follows is on each game's rules page, with the named-dealer exception."""
    for slug in games.RULES_PAGES.values():
        text = client.get(f"/rules/{slug}").get_data(as_text=True)
        assert "passes to the left" in text, slug
        assert "next name in the list" in text, slug
    for slug, overrides in (("rally-the-king", "the hand&#39;s name wins"), ("rummy-royal", "that name wins")):
        text = client.get(f"/rules/{slug}").get_data(as_text=True)
        assert overrides in text.replace("’", "&#39;").replace("'", "&#39;"), slug
