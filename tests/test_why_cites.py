"""Every line of every game's why cites the ruling it applies, reads in numbers as a player
writes them (a true minus sign, "1 card" never "1 cards"), and the game's result does too.

The games are the worked cases of every book in tests/cases (those that end in a score), and
random valid games of every kind drawn by the strategies the engines' own property tests use.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import games
from companion.games import royalty
from tests import casebook
from tests.test_alliance_royals import games as alliance_royals_games
from tests.test_indian_rummy import games as indian_rummy_games
from tests.test_rally_the_king import PLAYERS as RALLY_PLAYERS
from tests.test_rally_the_king import games as rally_the_king_games
from tests.test_royals import dealt
from tests.test_royalty import games as royalty_games
from tests.test_rummathon_royale import games as rummathon_royale_games
from tests.test_rummy_royal import games as rummy_royal_games

#: Each book of worked games: its game, where its rounds are, and its players when the case names none.
BOOKS = {
    "alliance_royals.toml": ("alliance-royals", "rounds", None),
    "battle_royals.toml": ("battle-royals", "rounds", ["Ann", "Ben"]),
    "marriage_royals.toml": ("marriage-royals", "rounds", ["Ann", "Ben", "Cat"]),
    "indian_rummy.toml": ("indian-rummy", "rounds", None),
    "rally_the_king.toml": ("rally-the-king", "rounds", None),
    "royalty.toml": ("royalty", "rounds", None),
    "rummathon_royale.toml": ("rummathon-royale", "hands", None),
    "rummy_royal.toml": ("rummy-royal", "deals", None),
}
#: A hyphen standing for a minus: "-5", "(-5", "= -5", never "1-9", "RR-4" or "8-9-10".
HYPHEN_MINUS = re.compile(r"(?:^|[\s(=:,;×])-\d")
#: A count of one with a plural noun: "1 cards", "1 chips", "1 were given".
ONE_PLURAL = re.compile(r"(?<![\d.,/\u2212-])\b1 (?:cards|chips|points|players|rounds|hands|deals|letters|words"
                        r"|extra cards|tricks|tables|were)\b")


def worked_games() -> Iterator[tuple[str, dict[str, Any]]]:
    for book, (slug, key, players) in BOOKS.items():
        for case in casebook.load(book)["case"]:
            if casebook.ERROR_KEYS & set(case) or "dealt" in case:  # the Monarchy checker's: see below
                continue
            request = {"game": slug, "players": case.get("players", players), "options": case.get("options", {}),
                       "rounds": case.get(key, [])}
            if "joined" in case:
                request["joined"] = case["joined"]
            yield f"{slug}: {case['name']}", request


WORKED = list(worked_games())


def why_lines(scored) -> Iterator[tuple[str, str]]:
    """Every line the why shows, with where it is: each player's lines, the board's notes, the result."""
    for n, rnd in enumerate(scored.rounds, 1):
        for player, lines in rnd.explain.items():
            for line in lines:
                yield f"round {n}, {player}", line
        for line in (rnd.detail or {}).get("notes", []):
            yield f"round {n}, the board", line
    if scored.reason:
        yield "the result", scored.reason


def assert_lines_cite_and_read_well(request: dict[str, Any]) -> int:
    scored = games.score(request)
    bad = []
    count = 0
    for where, line in why_lines(scored):
        count += 1
        if not games.RULING.search(line):
            bad.append(f"{where}: no ruling in {line!r}")
        if HYPHEN_MINUS.search(line):
            bad.append(f"{where}: a hyphen for a minus in {line!r}")
        if ONE_PLURAL.search(line):
            bad.append(f"{where}: one with a plural in {line!r}")
    assert not bad, "\n".join(bad)
    return count


def test_the_books_cover_every_game():
    assert {slug for slug, _, _ in BOOKS.values()} == set(games.ENGINES)
    assert {request["game"] for _, request in WORKED} == set(games.ENGINES)


@pytest.mark.parametrize("request_", [r for _, r in WORKED], ids=[casebook.slug(name) for name, _ in WORKED])
def test_every_line_of_a_worked_game_cites_its_ruling(request_):
    assert_lines_cite_and_read_well(request_)


MONARCHY = [c for c in casebook.load("royalty.toml")["case"] if "dealt" in c and not casebook.ERROR_KEYS & set(c)]


@pytest.mark.parametrize("case", MONARCHY, ids=casebook.ids(MONARCHY))
def test_every_line_of_the_monarchy_checker_cites_its_ruling(case):
    answer = royalty.monarchy(case["dealt"], case["words"])
    for line in answer["explain"]:
        assert games.RULING.search(line) and not HYPHEN_MINUS.search(line) and not ONE_PLURAL.search(line), line


def test_the_summary_lines_cite_their_rulings():
    """The lines that sum up a hand, which once cited nothing."""
    rummathon = games.score({"game": "rummathon-royale", "players": ["Ann", "Ben"], "rounds": [
        {"out": "Ann", "left": {"Ben": {"flex": 2, "high": 2}}, "burdens": [
            {"on": "Ben", "by": "Ann", "completed": False}]},
        {"out": "Ben", "left": {"Ann": {"low": 1}}, "extra_cards": {"Ann": 2}},
    ]})
    assert rummathon.rounds[0].explain["Ann"][-1] == "Hand +120; total 120 (RR-2, RR-3)"
    assert rummathon.rounds[0].explain["Ben"][-1] == "Hand 0; total 0 (RR-2)"
    assert rummathon.rounds[1].explain["Ann"][-1] == "Hand −20; total 100 (RR-2, RR-4)"
    royal = games.score({"game": "rummy-royal", "players": ["Ann", "Ben"], "options": {"poker": False},
                         "rounds": [{"dealer": "Ann", "out": "Ben", "cards_left": {"Ann": 3}}]})
    # Each antes 1 on each of 8 spaces; Ben takes the Kitty (2) and 3 chips from Ann (RM-3, RM-6).
    assert royal.rounds[0].explain["Ann"][-1] == "Deal −11; Ann now has 89 chips (RM-7)"
    assert royal.rounds[0].explain["Ben"][-1] == "Deal −3; Ben now has 97 chips (RM-7)"


PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(alliance_royals_games())
def test_every_line_of_a_random_alliance_royals_game_cites_its_ruling(request_):
    assert_lines_cite_and_read_well(request_)


@PROPERTY
@given(st.sampled_from(["battle-royals", "marriage-royals"]), st.data())
def test_every_line_of_a_random_royals_game_cites_its_ruling(slug, data):
    players = ["Ann", "Ben"] if slug == "battle-royals" else ["Ann", "Ben", "Cat"]
    rounds = [dealt(data.draw, players) for _ in range(data.draw(st.integers(1, 3)))]
    assert_lines_cite_and_read_well({"game": slug, "players": players, "rounds": rounds})


@PROPERTY
@given(st.sampled_from(["points", "pool101", "pool201", "deals"]), st.data())
def test_every_line_of_a_random_indian_rummy_game_cites_its_ruling(variant, data):
    game = data.draw(indian_rummy_games(variant))
    assert_lines_cite_and_read_well({"game": "indian-rummy", **game})


@PROPERTY
@given(rally_the_king_games())
def test_every_line_of_a_random_rally_the_king_game_cites_its_ruling(drawn):
    options, hands = drawn
    assert_lines_cite_and_read_well({"game": "rally-the-king", "players": RALLY_PLAYERS, "options": options,
                                     "rounds": hands})


@PROPERTY
@given(st.booleans(), st.data())
def test_every_line_of_a_random_royalty_game_cites_its_ruling(joust, data):
    game = data.draw(royalty_games(joust=joust))
    assert_lines_cite_and_read_well({"game": "royalty", **game, "players": list(game["players"])})


@PROPERTY
@given(rummathon_royale_games())
def test_every_line_of_a_random_rummathon_royale_game_cites_its_ruling(request_):
    assert_lines_cite_and_read_well(request_)


@PROPERTY
@given(rummy_royal_games())
def test_every_line_of_a_random_rummy_royal_game_cites_its_ruling(drawn):
    players, options, deals = drawn
    assert_lines_cite_and_read_well({"game": "rummy-royal", "players": players, "options": options,
                                     "rounds": deals})
