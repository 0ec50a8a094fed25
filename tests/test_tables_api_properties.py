"""Properties of tables over the API, for any valid game of any kind (the games' own strategies):

* entered round by round through the API, the table scores exactly as POST /api/v1/score scores the
  same rounds, after every round and at the end;
* an edit or a delete of round k, then an undo, returns the table to exactly where it was (and a change
  the game refuses stores nothing).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from companion import create_app
from companion.games import score
from tests.test_alliance_royals import games as alliance_royals_games
from tests.test_indian_rummy import games as indian_rummy_games
from tests.test_rally_the_king import PLAYERS as RALLY_PLAYERS
from tests.test_rally_the_king import games as rally_the_king_games
from tests.test_royals import dealt
from tests.test_royalty import games as royalty_games
from tests.test_rummathon_royale import games as rummathon_royale_games
from tests.test_rummy_royal import games as rummy_royal_games
from tests.test_tables_api import TABLES, bearer, scored_by_the_stateless_api


@st.composite
def royals_family_games(draw, game: str, players: list[str]) -> dict[str, Any]:
    """Battle Royals or Marriage Royals: rounds dealt from the pack until the game ends or 1-3 are played."""
    request: dict[str, Any] = {"game": game, "players": players, "options": {}, "rounds": []}
    for _ in range(draw(st.integers(1, 3))):
        if score(request).over:
            break
        request["rounds"].append(dealt(draw, players))
    return request


#: A strategy of valid games for each game, as POST /api/v1/score requests: every prefix of a game's rounds
#: scores too (each strategy builds its game round by round against the game so far).
VALID_GAMES: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "alliance-royals": alliance_royals_games(),
    "battle-royals": royals_family_games("battle-royals", ["Ann", "Ben"]),
    "marriage-royals": royals_family_games("marriage-royals", ["Ann", "Ben", "Cat"]),
    "indian-rummy": st.sampled_from(["points", "pool101", "pool201", "deals"]).flatmap(indian_rummy_games).map(
        lambda g: {"game": "indian-rummy", **g}),
    "rally-the-king": rally_the_king_games().map(
        lambda g: {"game": "rally-the-king", "players": RALLY_PLAYERS, "options": g[0], "rounds": g[1]}),
    "royalty": royalty_games().map(lambda g: {"game": "royalty", **g}),
    "rummathon-royale": rummathon_royale_games(),
    "rummy-royal": rummy_royal_games().map(
        lambda g: {"game": "rummy-royal", "players": g[0], "options": g[1], "rounds": g[2]}),
}


def test_every_game_has_its_strategy():
    from companion.games import ENGINES

    assert set(VALID_GAMES) == set(ENGINES)


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path_factory.mktemp("api") / "tables.sqlite"),
                      "SECRET_KEY": "properties", "RATELIMIT_ENABLED": False})
    return app.test_client()


PROPERTY_SETTINGS = settings(max_examples=10, deadline=None, database=None,
                             suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def enter(api, game: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A table started over the API and the game's rounds added one by one; returns the table and each answer."""
    started = api.post(TABLES, json={k: game[k] for k in ("game", "players", "options")})
    assert started.status_code == 201, started.get_json()
    table = started.get_json()
    answers = []
    for n, data in enumerate(game["rounds"]):
        answer = api.post(f"{TABLES}/{table['id']}/rounds", json={"round": data, "base_version": n},
                          headers=bearer(table["edit_key"]))
        assert answer.status_code == 201, answer.get_json()
        answers.append(answer.get_json())
    return table, answers


def read(api, table) -> dict[str, Any]:
    answer = api.get(f"{TABLES}/{table['id']}", headers=bearer(table["view_key"]))
    assert answer.status_code == 200
    return answer.get_json()


@pytest.mark.parametrize("slug", VALID_GAMES)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_a_game_entered_round_by_round_scores_as_the_stateless_api(api, slug, data):
    game = data.draw(VALID_GAMES[slug], label="game")
    table, answers = enter(api, game)
    for n, answer in enumerate(answers, 1):
        assert answer["version"] == n
        assert answer["scored"] == scored_by_the_stateless_api(api, {**game, "rounds": game["rounds"][:n]})
    now = read(api, table)
    assert now["rounds"] == game["rounds"]
    assert now["version"] == len(game["rounds"])
    assert now["scored"] == scored_by_the_stateless_api(api, game)


@pytest.mark.parametrize("slug", VALID_GAMES)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_an_edit_or_a_delete_then_undo_returns_the_table_to_where_it_was(api, slug, data):
    game = data.draw(VALID_GAMES[slug], label="game")
    assume(game["rounds"])
    table, _ = enter(api, game)
    before = read(api, table)
    k = data.draw(st.integers(1, len(game["rounds"])), label="k")
    url = f"{TABLES}/{table['id']}/rounds/{k}"
    if data.draw(st.booleans(), label="edit"):
        # Another round of the same game in round k's place (the game may refuse it: a 422 stores nothing).
        other = data.draw(st.sampled_from(game["rounds"]), label="replacement")
        changed = api.put(url, json={"round": other, "base_version": before["version"]},
                          headers=bearer(table["edit_key"]))
    else:
        changed = api.delete(url, json={"base_version": before["version"]}, headers=bearer(table["edit_key"]))
    event("refused" if changed.status_code == 422 else "changed")
    if changed.status_code == 422:
        assert read(api, table) == before
        return
    assert changed.status_code == 200, changed.get_json()
    assert changed.get_json()["scored"] == read(api, table)["scored"]
    undone = api.post(f"{TABLES}/{table['id']}/undo", json={"base_version": before["version"] + 1},
                      headers=bearer(table["edit_key"]))
    assert undone.status_code == 200, undone.get_json()
    after = read(api, table)
    assert after["version"] == before["version"] + 2
    assert {**after, "version": before["version"]} == before
    assert undone.get_json()["scored"] == before["scored"]
