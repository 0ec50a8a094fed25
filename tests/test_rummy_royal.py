"""Rummy Royal: the worked examples in cases/rummy_royal.toml and cases/rummy_royal_poker.toml,
the poker ranks against each other, and properties of any game the bank is given.

Every number in the case books was worked by hand from RULINGS.md RM-1 to RM-9.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import InputError, score
from companion.games.rummy_royal import PAY_CARDS, spaces_for
from companion.games.rummy_royal.poker import RANKS_HIGH_FIRST
from companion.referee import ask
from tests.casebook import ERROR_KEYS, assert_error, check_case, cited, ids, load, worked_example

RULINGS = {f"RM-{n}" for n in range(1, 10)}
OUTCOME_KEYS = {"totals", "points", "board", "over", "winners", "out", "says"}
CASE_KEYS = {"name", "rulings", "players", "options", "deals"} | OUTCOME_KEYS | ERROR_KEYS
CASES = load("rummy_royal.toml")["case"]
POKER_OUTCOMES = {"winners", "ranks", "best", "says"}
POKER_KEYS = {"name", "rulings", "hands"} | POKER_OUTCOMES | ERROR_KEYS
POKER_CASES = load("rummy_royal_poker.toml")["case"]


def request_for(case: dict[str, Any]) -> dict[str, Any]:
    return {"game": "rummy-royal", "players": case["players"], "options": case.get("options", {}),
            "rounds": case["deals"]}


# ---------------------------------------------------------------------------------------
# The case books themselves


def test_the_case_book_has_at_least_thirty_cases_with_unique_names():
    names = ids(CASES)
    assert len(CASES) >= 30
    assert len(names) == len(set(names))
    assert len(set(ids(POKER_CASES))) == len(POKER_CASES)


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_each_case_cites_rulings_that_exist_and_expects_one_thing(case):
    if not check_case(case, CASE_KEYS, RULINGS, OUTCOME_KEYS):
        assert "totals" in case


def test_every_ruling_of_the_bank_has_a_worked_example():
    assert cited(CASES) == RULINGS


# ---------------------------------------------------------------------------------------
# The worked examples


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_case(case):
    request = request_for(case)
    game = worked_example(case, lambda: score(request), "deals")
    if game is None:
        return
    assert game.totals == case["totals"]
    assert game.standing["out"] == case.get("out", [])
    last = game.rounds[-1].detail
    if "board" in case:
        assert last["board"] == case["board"]
    for words in case.get("says", []):
        assert words in last["lines"], (words, last["lines"])
    start = game.options["chips"] * len(case["players"])
    for scored in game.rounds:
        assert sum(scored.detail["totals"].values()) + sum(scored.detail["board"].values()) == start
        for name in case["players"]:
            assert any(re.search(r"RM-\d", line) for line in scored.explain[name][:-1]), scored.explain[name]


# ---------------------------------------------------------------------------------------
# The poker referee


@pytest.mark.parametrize("case", POKER_CASES, ids=ids(POKER_CASES))
def test_poker_case(case):
    check_case(case, POKER_KEYS, RULINGS, POKER_OUTCOMES)
    body = {"hands": case["hands"]}
    if "error_where" in case:
        assert_error(lambda: ask("rummy-royal", "poker", body), case["error_where"], case["error_says"])
        return
    answer = ask("rummy-royal", "poker", body)
    assert answer["winners"] == case["winners"]
    for name, rank in case.get("ranks", {}).items():
        assert answer["best"][name]["rank"] == rank
    for name, cards in case.get("best", {}).items():
        assert answer["best"][name]["cards"] == cards
    text = " | ".join(answer["explain"])
    for words in case.get("says", []):
        assert words in text, (words, answer["explain"])
    assert all("RM-" in line for line in answer["explain"])


#: One hand of each rank, no card in two of them, so any two can meet at one table.
ONE_OF_EACH = {
    "straight flush": ["9C", "10C", "JC", "QC", "KC"],
    "four of a kind": ["7S", "7H", "7D", "7C", "2D"],
    "full house": ["5S", "5H", "5D", "3S", "3H"],
    "flush": ["AD", "JD", "8D", "6D", "4D"],
    "straight": ["10S", "JS", "QS", "KS", "AH"],
    "three of a kind": ["8S", "8H", "8C", "2H", "4S"],
    "two pair": ["6H", "6C", "4H", "4C", "9S"],
    "one pair": ["2C", "2S", "AS", "9H", "QH"],
    "high card": ["KH", "JH", "9D", "6S", "3C"],
}


def test_the_hands_of_each_rank_share_no_card():
    cards = [c for hand in ONE_OF_EACH.values() for c in hand]
    assert len(cards) == len(set(cards)) == 45


@pytest.mark.parametrize(("higher", "lower"), list(itertools.combinations(RANKS_HIGH_FIRST, 2)),
                         ids=[f"{a}-beats-{b}" for a, b in itertools.combinations(RANKS_HIGH_FIRST, 2)])
def test_every_rank_beats_every_rank_below_it(higher, lower):
    for first, second in (("Ann", "Ben"), ("Ben", "Ann")):  # the seat makes no difference
        answer = ask("rummy-royal", "poker", {"hands": {first: ONE_OF_EACH[higher], second: ONE_OF_EACH[lower]}})
        assert answer["winners"] == [first]
        assert answer["best"][first]["rank"] == higher
        assert answer["best"][second]["rank"] == lower
        assert f"{first}'s {higher} beats {second}'s {lower}" in answer["explain"][-1]


def test_all_nine_ranks_at_one_table():
    hands = {f"P{i}": cards for i, cards in enumerate(ONE_OF_EACH.values())}
    answer = ask("rummy-royal", "poker", {"hands": hands})
    assert answer["winners"] == ["P0"]
    assert [answer["best"][p]["rank"] for p in hands] == list(RANKS_HIGH_FIRST)


def test_poker_cards_are_read_in_any_case_and_with_suit_symbols():
    answer = ask("rummy-royal", "poker", {"hands": {"Ann": ["a♠", "k♠", "q♠", "j♠", "10♠"],
                                                     "Ben": ["2h", "2d", "2c", "9s", "9d"]}})
    assert answer["best"]["Ann"]["cards"] == ["AS", "KS", "QS", "JS", "10S"]


@pytest.mark.parametrize("body", [
    None, [], {"hands": []}, {"hands": {"Ann": "AS KS"}}, {"hands": {"Ann": ["AS"] * 5, "Ben": ["2S"] * 5}},
    {"hands": {"": ["AS", "KS", "QS", "JS", "10S"], "Ben": ["2H", "2D", "2C", "9S", "9D"]}},
    {"hands": {"A\x00nn": ["AS", "KS", "QS", "JS", "10S"], "Ben": ["2H", "2D", "2C", "9S", "9D"]}},
    {"hands": {"Ann": ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S", "AH"],
               "Ben": ["2H", "2D", "2C", "9H", "9D"]}},
    {"hands": {"Ann": [1, 2, 3, 4, 5], "Ben": ["2H", "2D", "2C", "9S", "9D"]}},
    {"hands": {"Ann": ["AS", "KS", "QS", "JS", "10S"], "Ben": ["2H", "2D", "2C", "9S", "9D"]}, "wild": "2"},
])
def test_bad_poker_questions_are_refused_with_a_reason(body):
    with pytest.raises(InputError) as caught:
        ask("rummy-royal", "poker", body)
    assert caught.value.problems
    assert all(p.message for p in caught.value.problems)


CARD_TEXT = [r + s for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A") for s in "SHDC"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(CARD_TEXT), min_size=10, max_size=14, unique=True))
def test_the_explanation_agrees_with_the_evaluator(cards):
    """The words compare hands the way pokerkit ranks them: the winner's key is the greater."""
    half = len(cards) // 2
    answer = ask("rummy-royal", "poker", {"hands": {"Ann": cards[:half], "Ben": cards[half:]}})
    a, b = (answer["best"][p] for p in ("Ann", "Ben"))
    order = {rank: i for i, rank in enumerate(RANKS_HIGH_FIRST)}
    if answer["winners"] == ["Ann"]:
        assert order[a["rank"]] <= order[b["rank"]]
    elif answer["winners"] == ["Ben"]:
        assert order[b["rank"]] <= order[a["rank"]]
    else:
        assert a["rank"] == b["rank"]
    assert set(a["cards"]) <= set(cards[:half]) and len(a["cards"]) == 5


# ---------------------------------------------------------------------------------------
# Properties of any game


@st.composite
def games(draw):
    """A random valid game, built deal by deal from what the bank says after each one."""
    players = ["Ann", "Ben", "Cat", "Dan", "Eve"][: draw(st.integers(2, 5))]
    options = {"chips": draw(st.integers(8, 60)), "poker": draw(st.booleans()),
               "dealer_antes": draw(st.integers(1, 2))}
    nspaces = len(spaces_for(options))
    deals: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(1, 6))):
        game = score({"game": "rummy-royal", "players": players, "options": options, "rounds": deals})
        if game.over:
            break
        if draw(st.integers(0, 9)) == 0:
            in_game = [p for p in players if not game.standing["players"][p]["out"]]
            deals.append({"end": {"board_to": draw(st.sampled_from(in_game))}})
            break
        dealer = game.standing["next_dealer"]
        stacks = game.totals
        active = [p for p in players if not game.standing["players"][p]["out"]
                  and stacks[p] >= nspaces * (options["dealer_antes"] if p == dealer else 1)]
        if len(active) < 2:
            break
        left = {p: stacks[p] - nspaces * (options["dealer_antes"] if p == dealer else 1) for p in active}
        deal: dict[str, Any] = {"dealer": dealer,
                                "pay_cards": {c: draw(st.sampled_from([None, *active])) for c in PAY_CARDS},
                                "sequence": draw(st.lists(st.sampled_from(active), unique=True, max_size=3))}
        if options["poker"]:
            folded = draw(st.lists(st.sampled_from(active), unique=True, max_size=len(active) - 1))
            staying = [p for p in active if p not in folded]
            deal["poker"] = {"bets": {p: draw(st.integers(0, left[p])) for p in active},
                             "folded": folded,
                             "winners": draw(st.lists(st.sampled_from(staying), unique=True, min_size=1))}
        out = draw(st.sampled_from(active))
        deal["out"] = out
        deal["cards_left"] = {p: draw(st.integers(0, 20)) for p in active if p != out}
        deals.append(deal)
    return players, options, deals


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_chips_are_conserved_no_stack_goes_negative_and_carry_overs_only_grow(game_input):
    players, options, deals = game_input
    game = score({"game": "rummy-royal", "players": players, "options": options, "rounds": deals})
    start = options["chips"] * len(players)
    board_before = dict.fromkeys(spaces_for(options), 0)
    for scored in game.rounds:
        detail = scored.detail
        assert sum(detail["totals"].values()) + sum(detail["board"].values()) == start  # RM-7
        assert detail["conservation"]["total"] == start
        assert all(chips >= 0 for chips in detail["totals"].values())
        assert all(chips >= 0 for chips in detail["board"].values())
        claimed = {m["from"] for m in detail["movements"]}
        for space, chips in detail["board"].items():
            if space not in claimed:  # a carry-over space only grows until claimed
                assert chips >= board_before[space]
        # what the players won or lost in a deal is what the board lost or gained
        assert sum(scored.points.values()) == sum(board_before.values()) - sum(detail["board"].values())
        board_before = detail["board"]


def test_a_game_of_no_deals_is_everyone_at_the_starting_chips():
    game = score({"game": "rummy-royal", "players": ["Ann", "Ben"], "options": {"chips": 50}, "rounds": []})
    assert game.totals == {"Ann": 50, "Ben": 50}
    assert game.standing["board"] == dict.fromkeys(spaces_for({"poker": True}), 0)
    assert game.standing["next_dealer"] == "Ann"


@pytest.mark.parametrize("options", [{"chips": float("inf")}, {"chips": float("nan")}, {"chips": True},
                                     {"chips": 0}, {"chips": 10**9}, {"dealer_antes": 0}, {"poker": "yes"},
                                     {"colour": "red"}])
def test_options_out_of_range_are_refused(options):
    with pytest.raises(InputError) as caught:
        score({"game": "rummy-royal", "players": ["Ann", "Ben"], "options": options, "rounds": []})
    assert caught.value.problems[0].where.startswith("options.")
