"""Alliance Royals: the worked examples in cases/alliance_royals*.toml, and properties.

The examples are a rule book's: every number in them was worked by hand from
RULINGS.md AR-1 to AR-15, and each case says which rulings it shows. The property
tests deal random rounds from the real 100-card pack and check what must hold for
any of them.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import InputError, score
from companion.referee import REFEREES, ask
from tests.casebook import (
    ERROR_KEYS,
    assert_error,
    check_case,
    check_lines_cite,
    check_repeatable,
    cited,
    ids,
    load,
    worked_example,
)

CASES_DIR = Path(__file__).parent / "cases"
RULINGS = {f"AR-{n}" for n in range(1, 16)}
SCORING_RULINGS = {f"AR-{n}" for n in range(1, 14)}
OUTCOME_KEYS = {"points", "side_points", "totals", "side_totals", "sides", "over", "winners", "notes", "explains"}
CASE_KEYS = {"name", "rulings", "players", "options", "rounds"} | OUTCOME_KEYS | ERROR_KEYS
BATTLE_KEYS = {"name", "rulings", "cards", "winner", "card"} | ERROR_KEYS
PRIVILEGE_KEYS = {"name", "rulings", "body", "expect", "needs"} | ERROR_KEYS
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]

#: AR-1 and AR-4, written out again so the properties do not lean on the engine's tables.
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["S", "H", "D", "C"]
TRIPLED = {"9", "10", "J", "Q", "K", "A"}
PACK = [rank + suit for suit in SUITS for rank in RANKS for _ in range(3 if rank in TRIPLED else 1)]


CASES = load("alliance_royals.toml")["case"]
REFEREE_BOOK = load("alliance_royals_battle.toml")
BATTLES = REFEREE_BOOK["battle"]
PRIVILEGES = REFEREE_BOOK["privileges"]


def request_for(case: dict[str, Any]) -> dict[str, Any]:
    return {"game": "alliance-royals", "players": case["players"], "options": case.get("options", {}),
            "rounds": case.get("rounds", [])}


def rank_of(card: str) -> str:
    return card[:-1]


def points_of(card: str) -> int:
    return 5 if rank_of(card) in TRIPLED else 10


# ---------------------------------------------------------------------------------------
# The case books themselves


def test_the_case_books_have_enough_cases_with_unique_names():
    assert len(CASES) >= 24
    assert len(BATTLES) >= 10
    assert len(PRIVILEGES) >= 6
    for book in (CASES, BATTLES, PRIVILEGES):
        names = ids(book)
        assert len(names) == len(set(names))


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_each_case_cites_rulings_that_exist_and_expects_one_thing(case):
    if not check_case(case, CASE_KEYS, SCORING_RULINGS, OUTCOME_KEYS):
        assert "points" in case or "totals" in case


@pytest.mark.parametrize("case", BATTLES + PRIVILEGES, ids=ids(BATTLES) + ids(PRIVILEGES))
def test_each_referee_case_cites_rulings_that_exist(case):
    keys = BATTLE_KEYS if "cards" in case else PRIVILEGE_KEYS
    assert set(case) <= keys, f"unknown keys {set(case) - keys}"
    assert case["rulings"] and set(case["rulings"]) <= RULINGS
    assert ("AR-14" if "cards" in case else "AR-15") in case["rulings"]
    assert bool(ERROR_KEYS & set(case)) != bool({"winner", "expect"} & set(case))


def test_every_scoring_ruling_has_a_worked_example():
    assert cited(CASES) == SCORING_RULINGS


# ---------------------------------------------------------------------------------------
# The worked examples


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_case(case):
    request = request_for(case)
    game = worked_example(case, lambda: score(request), "rounds")
    if game is None:
        return
    if game.over:
        assert "AR-12" in game.reason
    for name, words in case.get("notes", {}).items():
        assert any(words in note for note in game.rounds[0].detail["players"][name]["notes"])
    for name, line in case.get("explains", {}).items():
        assert line in game.rounds[0].explain[name]
    check_lines_cite(game, case["players"], re.compile(r"\(AR-\d+(, AR-\d+)*\)\.?$"))


def test_the_api_example_comes_out_exactly():
    game = score(request_for(CASES[0])).as_json()
    assert game["sides"] == {"A": ["Ann", "Cat"], "B": ["Ben", "Dan"]}
    assert game["rounds"][0]["points"] == {"Ann": 135, "Ben": -20, "Cat": 100, "Dan": 130}
    assert game["rounds"][0]["side_points"] == {"A": 235, "B": 110}
    assert game["totals"] == {"Ann": 135, "Ben": -20, "Cat": 100, "Dan": 130}
    assert game["side_totals"] == {"A": 235, "B": 110}
    assert (game["over"], game["winners"], game["reason"]) == (False, [], None)
    ann = game["rounds"][0]["explain"]["Ann"]
    assert "Spoils KS QS JS AH 9D: 25 (AR-4)" in ann
    assert "Hand 3C: −10 (AR-6)" in ann
    assert "Marriages: 0 in own Spoils, 1 in Cat's Spoils (KD + QS) (AR-8)" in ann
    assert game["standing"]["A"] == {"total": 235, "to_win": 1066 - 235 + 1, "to_lose": 235 + 333 + 1}


@pytest.mark.parametrize("case", BATTLES, ids=ids(BATTLES))
def test_battle_case(case):
    body = {"cards": case["cards"]}
    if "error_where" in case:
        assert_error(lambda: ask("alliance-royals", "battle", body), case["error_where"], case["error_says"])
        return
    answer = ask("alliance-royals", "battle", body)
    assert (answer["winner"], answer["card"]) == (case["winner"], case["card"])
    assert answer["explain"] and all("(AR-14)" in line for line in answer["explain"])


@pytest.mark.parametrize("case", PRIVILEGES, ids=ids(PRIVILEGES))
def test_privileges_case(case):
    if "error_where" in case:
        assert_error(lambda: ask("alliance-royals", "privileges", case["body"]), case["error_where"],
                     case["error_says"])
        return
    answer = ask("alliance-royals", "privileges", case["body"])
    for key, value in case["expect"].items():
        assert answer[key] == value, (key, answer)
    if "needs" in case:
        assert len(answer["end_round_needs"]) == len(case["needs"]), answer["end_round_needs"]
        for words, line in zip(case["needs"], answer["end_round_needs"], strict=True):
            assert words in line
    assert answer["may_end_round"] is (not answer["end_round_needs"])
    assert all(re.search(r"AR-(15|7|8|13)", line) for line in answer["explain"])


def test_the_referees_are_registered_and_unknown_questions_are_key_errors():
    assert {("alliance-royals", "battle"), ("alliance-royals", "privileges")} <= set(REFEREES)
    with pytest.raises(KeyError):
        ask("alliance-royals", "weather", {})
    with pytest.raises(KeyError):
        ask("snap", "battle", {"cards": ["AS", "KS"]})


@pytest.mark.parametrize("body", [None, [], "AS KS", {"cards": "AS KS"}, {"cards": ["AS", "KS"], "trump": "S"},
                                  {"cards": ["AS", 5]}, {"cards": ["AS", "KS", "QS", "JS", "10S"]}])
def test_a_bad_battle_body_is_an_input_error(body):
    with pytest.raises(InputError):
        ask("alliance-royals", "battle", body)


@pytest.mark.parametrize("body", [None, {"house": "X", "ally_house": "S"},
                                  {"house": "S", "ally_house": "D", "spoils": "KS"},
                                  {"house": "S", "ally_house": "D", "battle_won": "yes"},
                                  {"house": "S", "ally_house": "D", "mood": "good"}])
def test_a_bad_privileges_body_is_an_input_error(body):
    with pytest.raises(InputError):
        ask("alliance-royals", "privileges", body)


BAD_ROUNDS = {
    "not an object": (["Ann"], "rounds[0]", "a round is each player's board"),
    "unknown round field": ({"players": {}, "winner": "Ann"}, "rounds[0].winner", "a round has no winner"),
    "unknown board field": ({"players": {p: {"house": "S", "tricks": 3} for p in PLAYERS}},
                            "rounds[0].players.Ann.tricks", "a board has no tricks"),
    "stranger": ({"players": {"Zed": {"house": "S"}}}, "rounds[0].players.Zed", "not a player"),
    "bad house": ({"players": {p: {"house": "Dogs"} for p in PLAYERS}}, "rounds[0].players.Ann.house", "not a suit"),
    "spoils not a list": ({"players": {p: {"house": "S", "spoils": "KS"} for p in PLAYERS}},
                          "rounds[0].players.Ann.spoils", "give the cards one by one"),
    "surrender by a stranger": ({"surrender": "Zed"}, "rounds[0].surrender", "not a player"),
    "hostage against oneself": ({"players": {p: {"house": "S", "spoils": ["KH"] if p == "Ann" else [],
                                                 "hostages": [{"card": "KH", "target": "Ann"}] if p == "Ann" else []}
                                             for p in PLAYERS}},
                                "rounds[0].players.Ann.hostages[0].target", "against themselves"),
}


@pytest.mark.parametrize("raw", BAD_ROUNDS.values(), ids=BAD_ROUNDS.keys())
def test_bad_rounds_are_input_errors(raw):
    rnd, where, says = raw
    assert_error(lambda: score({"game": "alliance-royals", "players": PLAYERS, "rounds": [rnd]}), where, says)


@pytest.mark.parametrize(("options", "where"), [
    ({"teams": [["Ann", "Cat"]]}, "options.teams"),
    ({"teams": [["Ann", "Cat"], ["Ben", "Zed"]]}, "options.teams[1][1]"),
    ({"win_above": "lots"}, "options.win_above"),
    ({"win_above": -5}, "options.win_above"),
    ({"lose_below": True}, "options.lose_below"),
    ({"house_names": {"X": "Cats"}}, "options.house_names.X"),
    ({"house_names": {"S": "A" * 21}}, "options.house_names.S"),
    ({"house_names": ["Dogs"]}, "options.house_names"),
    ({"speed": "fast"}, "options.speed"),
])
def test_bad_options_are_input_errors(options, where):
    assert_error(lambda: score({"game": "alliance-royals", "players": PLAYERS, "options": options, "rounds": []}),
                 where, "")


def test_no_rounds_yet_is_a_game_at_zero_with_its_distance_to_each_threshold():
    game = score({"game": "alliance-royals", "players": PLAYERS, "options": {"win_above": 500}, "rounds": []})
    assert game.side_totals == {"A": 0, "B": 0}
    assert game.standing == {"A": {"total": 0, "to_win": 501, "to_lose": 334},
                             "B": {"total": 0, "to_win": 501, "to_lose": 334}}
    assert game.options["house_names"]["S"] == "Spades"


# ---------------------------------------------------------------------------------------
# Properties of random rounds dealt from the real pack


def married_counts(spoils: list[str], house: str, ally_house: str) -> list[int]:
    """AR-8, again: [own K + ally Q, own Q + ally K]."""
    if house == ally_house:
        return [0, 0]
    held = Counter(spoils)
    return [min(held["K" + house], held["Q" + ally_house]), min(held["Q" + house], held["K" + ally_house])]


@st.composite
def rounds_dealt(draw, allies: dict[str, str]) -> dict[str, Any]:
    """One round whose cards are distinct physical cards of the pack, with valid hostages."""
    order = draw(st.permutations(range(len(PACK))))
    cards = [PACK[i] for i in order]
    if draw(st.booleans()):  # a courtly deal: Kings, Queens and Jacks go to the Spoils first
        cards.sort(key=lambda c: rank_of(c) not in {"K", "Q", "J"})
    houses = {p: draw(st.sampled_from(SUITS)) for p in PLAYERS}
    boards: dict[str, dict[str, Any]] = {p: {"house": houses[p]} for p in PLAYERS}
    for section in ("spoils", "meld", "hand"):
        for p in PLAYERS:
            n = draw(st.integers(min_value=0, max_value=7))
            boards[p][section], cards = cards[:n], cards[n:]
    # AR-9: hostages that find a married identical card, each nullifying one marriage.
    left = {p: married_counts(boards[p]["spoils"], houses[p], houses[allies[p]]) for p in PLAYERS}
    for holder in PLAYERS:
        held = Counter(boards[holder]["spoils"])
        for card, copies in held.items():
            if rank_of(card) not in {"K", "Q"} or card[-1] == houses[holder]:
                continue
            for _ in range(copies):
                targets = []
                for target in PLAYERS:
                    h, a = houses[target], houses[allies[target]]
                    kind = 0 if card in ("K" + h, "Q" + a) else 1 if card in ("Q" + h, "K" + a) else None
                    if target != holder and kind is not None and h != a and left[target][kind] > 0:
                        targets.append((target, kind))
                if targets and draw(st.booleans()):
                    target, kind = draw(st.sampled_from(targets))
                    left[target][kind] -= 1
                    boards[holder].setdefault("hostages", []).append({"card": card, "target": target})
    return {"players": boards}


@st.composite
def games(draw) -> dict[str, Any]:
    teams = draw(st.sampled_from([None, [["Ann", "Cat"], ["Ben", "Dan"]], [["Ann", "Ben"], ["Cat", "Dan"]],
                                  [["Dan", "Ben"], ["Cat", "Ann"]]]))
    sides = teams or [["Ann", "Cat"], ["Ben", "Dan"]]
    allies = {a: b for x, y in sides for a, b in ((x, y), (y, x))}
    options: dict[str, Any] = {} if teams is None else {"teams": teams}
    if draw(st.booleans()):
        options["win_above"] = draw(st.integers(min_value=1, max_value=3000))
        options["lose_below"] = draw(st.integers(min_value=-3000, max_value=-1))
    request = {"game": "alliance-royals", "players": PLAYERS, "options": options, "rounds": []}
    wanted = draw(st.integers(min_value=1, max_value=4))
    while len(request["rounds"]) < wanted and not score(request).over:
        request["rounds"].append(draw(rounds_dealt(allies)))
    return request


PROPERTY_SETTINGS = settings(max_examples=150, deadline=None, database=None)


@PROPERTY_SETTINGS
@given(games())
def test_every_score_is_the_natural_score_times_the_multiplier(request):
    game = score(request)
    assert len(game.rounds) == len(request["rounds"])
    for scored in game.rounds:
        for name in PLAYERS:
            d = scored.detail["players"][name]
            assert d["multiplier"] == 1 + d["royal_sets"] + d["own_marriages"] + d["ally_marriages"]
            assert d["natural"] == d["board"] - d["hand"]
            assert d["score"] == d["natural"] * d["multiplier"] == scored.points[name]
            assert 0 <= d["royal_sets"] <= 3


@PROPERTY_SETTINGS
@given(games())
def test_board_and_hand_points_follow_the_cards(request):
    game = score(request)
    for raw, scored in zip(request["rounds"], game.rounds, strict=True):
        for name, board in raw["players"].items():
            meld, spoils = Counter(map(rank_of, board["meld"])), Counter(map(rank_of, board["spoils"]))
            matched = {r for r in meld if meld[r] + spoils[r] >= 3}
            expected = sum(points_of(c) * (2 if rank_of(c) in matched else 1) for c in board["spoils"] + board["meld"])
            d = scored.detail["players"][name]
            assert d["board"] == expected
            assert d["hand"] == sum(points_of(c) for c in board["hand"])
            assert set(d["matched"]) == matched


@PROPERTY_SETTINGS
@given(games())
def test_marriages_without_hostages_follow_the_spoils(request):
    game = score(request)
    allies = {a: b for x, y in game.sides.values() for a, b in ((x, y), (y, x))}
    for raw, scored in zip(request["rounds"], game.rounds, strict=True):
        boards = raw["players"]
        if any(b.get("hostages") for b in boards.values()):
            continue
        for name in PLAYERS:
            ally = allies[name]
            d = scored.detail["players"][name]
            h, a = boards[name]["house"], boards[ally]["house"]
            assert d["own_marriages"] == sum(married_counts(boards[name]["spoils"], h, a))
            assert d["ally_marriages"] == sum(married_counts(boards[ally]["spoils"], a, h))


@PROPERTY_SETTINGS
@given(games())
def test_sides_and_totals_add_up(request):
    game = score(request)
    for scored in game.rounds:
        for side, members in game.sides.items():
            assert scored.side_points[side] == sum(scored.points[p] for p in members)
    for name in PLAYERS:
        assert game.totals[name] == sum(r.points[name] for r in game.rounds)
    for side in game.sides:
        assert game.side_totals[side] == sum(r.side_points[side] for r in game.rounds)
        standing = game.standing[side]
        assert standing["total"] == game.side_totals[side]
    assert sorted(p for members in game.sides.values() for p in members) == sorted(PLAYERS)
    if game.over:
        a, b = game.side_totals["A"], game.side_totals["B"]
        expected = PLAYERS if a == b else game.sides["A" if a > b else "B"]
        assert sorted(game.winners) == sorted(expected)


@PROPERTY_SETTINGS
@given(games(), st.data())
def test_one_card_over_the_pack_is_an_error_naming_it_never_a_score(request, data):
    rnd = data.draw(st.sampled_from(request["rounds"]))
    card = data.draw(st.sampled_from(PACK))
    allowed = 3 if rank_of(card) in TRIPLED else 1
    dealt = sum(b[s].count(card) for b in rnd["players"].values() for s in ("spoils", "meld", "hand"))
    bad = copy.deepcopy(request)
    index = request["rounds"].index(rnd)
    boards = bad["rounds"][index]["players"]
    for _ in range(allowed - dealt + 1):
        name = data.draw(st.sampled_from(PLAYERS))
        section = data.draw(st.sampled_from(["spoils", "meld", "hand"]))
        boards[name][section].insert(data.draw(st.integers(0, len(boards[name][section]))), card)
    with pytest.raises(InputError) as caught:
        score(bad)
    mention = re.compile(rf"(?<![0-9A-Z]){card}(?![0-9A-Z])")
    named = [p for p in caught.value.problems if mention.search(p.message)]
    assert named, caught.value.problems
    for problem in named:
        match = re.fullmatch(r"rounds\[(\d+)\]\.players\.(\w+)\.(spoils|meld|hand)\[(\d+)\]", problem.where)
        assert match, problem.where
        r, name, section, i = int(match[1]), match[2], match[3], int(match[4])
        assert r == index
        assert bad["rounds"][r]["players"][name][section][i] == card


@PROPERTY_SETTINGS
@given(games())
def test_the_game_survives_json_and_scoring_is_deterministic(request):
    check_repeatable(request, score)


@st.composite
def battles(draw) -> list[str]:
    count = draw(st.integers(min_value=2, max_value=4))
    if draw(st.booleans()):  # crowd the Battle into one or two suits so that it is contested
        suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=2, unique=True))
        pool = [c for c in PACK if c[-1] in suits]
    else:
        pool = PACK
    picked = draw(st.lists(st.integers(0, len(pool) - 1), min_size=count, max_size=count, unique=True))
    return [pool[i] for i in picked]


@PROPERTY_SETTINGS
@given(battles())
def test_the_battle_winner_is_always_of_the_led_suit(cards):
    answer = ask("alliance-royals", "battle", {"cards": cards})
    winner = answer["winner"]
    assert cards[winner] == answer["card"]
    assert answer["card"][-1] == cards[0][-1]
    led = [(i, c) for i, c in enumerate(cards) if c[-1] == cards[0][-1]]
    ranks = {rank_of(c) for _, c in led}
    if {"2", "A"} <= ranks:
        assert rank_of(answer["card"]) == "2"
    else:
        best = max(RANKS.index(rank_of(c)) for _, c in led)
        assert RANKS.index(rank_of(answer["card"])) == best
        assert winner == min(i for i, c in led if c == answer["card"])


@PROPERTY_SETTINGS
@given(battles(), st.sampled_from(SUITS), st.sampled_from(SUITS))
def test_privileges_answer_every_question_for_any_cards(cards, house, ally_house):
    half = len(cards) // 2
    answer = ask("alliance-royals", "privileges", {"house": house, "ally_house": ally_house, "spoils": cards[:half],
                                                   "ally_spoils": cards[half:], "battle_won": True})
    assert answer["may_meld"] is bool(answer["royals"])
    assert answer["may_take_discard_bundle"] is (len({rank_of(r) for r in answer["royals"]}) >= 2)
    assert all(r[-1] == house and rank_of(r) in {"K", "Q", "J"} for r in answer["royals"])
    assert [a["card"] for a in answer["assassins"]] == [c for c in cards[:half] if rank_of(c) == "A"]


def test_the_pack_the_properties_deal_from_is_the_real_one():
    assert len(PACK) == 100
    assert Counter(PACK)["QD"] == 3 and Counter(PACK)["5H"] == 1
