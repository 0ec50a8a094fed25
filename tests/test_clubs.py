"""Club records: the ratings a club shows are openskill's own, game after game (tests/cases/club_season.toml).

The season is played as phones play it: each table started for the club, its rounds saved one at a
time; then a finished game is corrected, one game is undone back to unfinished and finished again,
and two spellings of one person are merged. After each step every rating the club keeps is compared
with openskill's Plackett-Luce model (its defaults) run here on the places worked out by hand.
"""

from __future__ import annotations

import tomllib
from contextlib import closing
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from companion.clubs import store
from companion.games.base import InputError
from companion.storage import db, tables

SEASON = tomllib.loads((Path(__file__).parent / "cases" / "club_season.toml").read_text())


@pytest.fixture
def conn(database):
    with closing(db.connect(database)) as opened:
        db.migrate(opened)
        yield opened


def expected_ratings(games: list[tuple[str, list]], rename: dict[str, str] | None = None) -> dict:
    """openskill's own ratings after ``games`` ((game, places) in finishing order): {(game, name): rating}."""
    model = PlackettLuce()
    now: dict[tuple[str, str], object] = {}
    for game, places in games:
        sides = [[(rename or {}).get(name, name) for name in side] for side, _ in places]
        teams = [[now.get((game, name)) or model.rating() for name in side] for side in sides]
        rated = model.rate(teams, ranks=[place for _, place in places])
        for side, team in zip(sides, rated, strict=True):
            for name, rating in zip(side, team, strict=True):
                now[(game, name)] = rating
    return now


def shown_ratings(conn, club) -> dict:
    """Every rating the club's API answer shows: {(game, name): (mu, sigma, played)}."""
    shown = {}
    for p in store.as_json(conn, club)["players"]:
        for game, line in p["games"].items():
            shown[(game, p["name"])] = (line["rating"]["mu"], line["rating"]["sigma"], line["played"])
    return shown


def assert_same(conn, club, games, rename=None):
    expected = expected_ratings(games, rename)
    shown = shown_ratings(conn, club)
    assert set(shown) == set(expected)
    for key, rating in expected.items():
        mu, sigma, _ = shown[key]
        assert mu == pytest.approx(rating.mu, abs=1e-9), key
        assert sigma == pytest.approx(rating.sigma, abs=1e-9), key


def play(conn, club, case) -> tables.Table:
    """A table started from the club's page, its rounds saved one by one as the phones save them."""
    table = tables.new_table(case["game"], case["players"], case["options"])
    store.start_table(conn, club, table)
    for version, data in enumerate(case["rounds"]):
        tables.append(conn, table, version, tables.Change("add", data=data))
    return table


def test_a_season_rated_as_openskill_rates_it_through_an_edit_an_undo_and_a_merge(conn):
    club = store.create_club(conn, "Thursday Club")
    played = []
    ids = []
    for case in SEASON["game"]:
        ids.append(play(conn, club, case))
        played.append((case["game"], case["places"]))
        assert_same(conn, club, played)
    # "ANN" found Ann on the roster: one Ann, who played three games.
    assert [p.name for p in store.roster(conn, club.id)] == ["Ann", "Ben", "Benjamin", "Cat", "Dan"]
    assert store.find_player(conn, club.id, " ANN").name == "Ann"

    # A finished game corrected: its places change, and the ratings are worked out again from it on.
    edit = SEASON["edit"]
    first = ids[edit["game"] - 1]
    slot = tables.fold(tables.events(conn, first.id))[0][0]
    tables.append(conn, first, tables.version(conn, first.id), tables.Change("edit", slot=slot, data=edit["round"]))
    played[edit["game"] - 1] = (played[edit["game"] - 1][0], edit["places"])
    assert_same(conn, club, played)
    assert store.get_club(conn, club.id).recomputed["table"] == first.id

    # The team game undone back to unfinished: it no longer counts...
    team = ids[2]
    tables.append(conn, team, tables.version(conn, team.id), tables.Change("undo"))
    assert_same(conn, club, [g for i, g in enumerate(played) if i != 2])
    # ...and redone, it finishes again: after the others, as it finished last.
    tables.append(conn, team, tables.version(conn, team.id), tables.Change("redo"))
    played.append(played.pop(2))
    assert_same(conn, club, played)

    # Benjamin is Ben: his game joins Ben's, and the name still finds Ben.
    merge = SEASON["merge"]
    keep, drop = (store.find_player(conn, club.id, merge[k]) for k in ("keep", "drop"))
    store.merge(conn, club, keep.id, drop.id)
    assert_same(conn, club, played, rename={merge["drop"]: merge["keep"]})
    assert store.find_player(conn, club.id, "benjamin").name == "Ben"
    assert [p.name for p in store.roster(conn, club.id)] == ["Ann", "Ben", "Cat", "Dan"]
    ben = next(p for p in store.as_json(conn, club)["players"] if p["name"] == "Ben")
    assert ben["games"]["indian-rummy"]["played"] == 3 and ben["games"]["indian-rummy"]["won"] == 2


def test_a_save_that_leaves_a_finished_game_s_places_alone_rates_nothing_again(conn):
    club = store.create_club(conn, "Quiet Club")
    case = SEASON["game"][0]
    table = play(conn, club, case)
    before = shown_ratings(conn, club)
    tables.append(conn, table, 1, tables.Change("rename", data={"from": "Ben", "to": "Ben"}))
    assert shown_ratings(conn, club) == before
    assert store.get_club(conn, club.id).recomputed is None


def test_two_people_who_shared_a_table_are_not_merged(conn):
    club = store.create_club(conn, "Careful Club")
    play(conn, club, SEASON["game"][0])
    ann, ben = (store.find_player(conn, club.id, n) for n in ("Ann", "Ben"))
    with pytest.raises(InputError) as err:
        store.merge(conn, club, ann.id, ben.id)
    assert "played at the same table" in err.value.problems[0].message


def test_a_name_used_by_two_people_is_told_apart_by_renaming_one(conn):
    club = store.create_club(conn, "Two Anns")
    play(conn, club, SEASON["game"][0])
    ann = store.find_player(conn, club.id, "Ann")
    store.rename(conn, club, ann.id, "Ann Smith")
    assert store.find_player(conn, club.id, "Ann") is None  # the next "Ann" is the other Ann
    with pytest.raises(InputError) as err:
        store.rename(conn, club, ann.id, "  ben ")
    assert err.value.problems[0].message == "Ben is already on the roster; merge the two if they are one person"


def test_a_club_with_no_finished_game_shows_its_players_and_no_ratings(conn):
    club = store.create_club(conn, "New Club")
    table = tables.new_table("indian-rummy", ["Ann", "Ben"], {"variant": "deals", "deals": 1})
    store.start_table(conn, club, table)
    shown = store.as_json(conn, club)
    assert [p["name"] for p in shown["players"]] == ["Ann", "Ben"]
    assert all(p["games"] == {} for p in shown["players"])
    assert shown["tables"][0]["finished"] is False
    assert store.leaderboard(conn, club.id, "indian-rummy") == []


@pytest.mark.parametrize("name, message", [
    ("", "a club's name cannot be empty"),
    ("   ", "a club's name cannot be empty"),
    ("Line\nbreak", "a club's name cannot hold control characters such as line breaks or tabs"),
    ("x" * 41, "a club's name may have at most 40 characters"),
    (7, "a club's name is text"),
])
def test_a_club_s_name_is_refused_in_words(conn, name, message):
    with pytest.raises(InputError) as err:
        store.create_club(conn, name)
    assert [(p.where, p.message) for p in err.value.problems] == [("name", message)]


def test_a_player_s_best_moments_are_the_best_of_their_finished_games(conn):
    """Worked by hand from the season: Ann scored 600 in each Alliance Royals round (AR-10), and conceded
    60 in the one deal she lost (ANN in game 2); Cat conceded 30 (game 1), then 45 (game 4): 30 is her best."""
    club = store.create_club(conn, "Moments")
    for case in SEASON["game"]:
        play(conn, club, case)
    best = {p: {m.kind: (m.value, m.game) for m in store.best_moments(conn, club.id, store.find_player(conn, club.id,
                                                                                                      p).id)}
            for p in ("Ann", "Cat", "Dan")}
    assert best["Ann"]["hand"] == (600, "alliance-royals")
    assert best["Ann"]["conceded"] == (60, "indian-rummy")
    assert best["Cat"]["conceded"] == (30, "indian-rummy")
    assert best["Dan"]["conceded"] == (10, "indian-rummy")
