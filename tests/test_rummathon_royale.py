"""Rummathon Royale: the worked examples in cases/rummathon_royale.toml, and properties.

The examples are a rule book's: every number in them was worked by hand from
RULINGS.md RR-1 to RR-6, and each case says which rulings it shows. The property
tests play random valid games and check what must hold for any of them.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import score
from tests.casebook import ERROR_KEYS, check_case, check_repeatable, cited, slug, worked_example

CASES_FILE = Path(__file__).parent / "cases" / "rummathon_royale.toml"
RULINGS = {f"RR-{n}" for n in range(1, 7)}
OUTCOME_KEYS = {"totals", "points", "over", "winners", "rounds"}
CASE_KEYS = {"name", "rulings", "players", "options", "hands", "joined"} | OUTCOME_KEYS | ERROR_KEYS

#: RR-1, written out again here so the properties do not lean on the engine's table.
CARD_VALUES = {"low": 5, "high": 10, "action": 15, "sabotage": 20, "flex": 25}


def load_cases() -> list[dict[str, Any]]:
    with CASES_FILE.open("rb") as f:
        return tomllib.load(f)["case"]


CASES = load_cases()


def request_for(case: dict[str, Any]) -> dict[str, Any]:
    return {
        "game": "rummathon-royale",
        "players": case["players"],
        "options": case.get("options", {}),
        "rounds": case["hands"],
        **({"joined": case["joined"]} if "joined" in case else {}),
    }


# ---------------------------------------------------------------------------------------
# The case book itself


def test_the_case_book_has_enough_cases_with_unique_names():
    names = [slug(case["name"]) for case in CASES]
    assert len(CASES) >= 16
    assert len(names) == len(set(names))


@pytest.mark.parametrize("case", CASES, ids=[slug(c["name"]) for c in CASES])
def test_each_case_cites_rulings_that_exist_and_expects_one_thing(case):
    if not check_case(case, CASE_KEYS, RULINGS, OUTCOME_KEYS):
        assert "totals" in case


def test_every_ruling_has_a_worked_example():
    assert cited(CASES) == RULINGS


# ---------------------------------------------------------------------------------------
# The worked examples


@pytest.mark.parametrize("case", CASES, ids=[slug(c["name"]) for c in CASES])
def test_case(case):
    request = request_for(case)
    game = worked_example(case, lambda: score(request), "hands")
    if game is None:
        return
    assert game.totals == case["totals"]
    if game.over:
        assert game.reason
    for name, expected in case.get("rounds", {}).items():
        standing = game.standing[name]
        if expected == "finished":
            assert standing["finished"] is True, (name, standing)
            assert standing["round"] is None, (name, standing)
        else:
            assert standing["finished"] is False, (name, standing)
            assert standing["round"] == expected, (name, standing)
    for scored in game.rounds:
        for name in case["players"]:
            assert any(re.search(r"RR-\d", line) for line in scored.explain[name]), scored.explain


# ---------------------------------------------------------------------------------------
# Properties of any valid game

PLAYER_NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
SCHEDULE_LENGTHS = {"all": 12, "even": 6, "odd": 6, "half": 6}
ADVANCED = {"completed", "declared-completed", "double-completed"}


def rummathon(players: list[str], options: dict[str, Any], hands: list[dict[str, Any]]):
    return {"game": "rummathon-royale", "players": players, "options": options, "rounds": hands}


@st.composite
def games(draw) -> dict[str, Any]:
    """A valid game: 2-6 players, 1-12 hands, stopping early if the game ends.

    Each hand is drawn against the game scored so far, so that extra cards stay within
    what the buyer's score allows (RR-4) and declarations are made only where RR-5
    allows them.
    """
    count = draw(st.integers(min_value=2, max_value=6))
    players = PLAYER_NAMES[:count]
    schedule = draw(st.sampled_from([None, "all", "even", "odd", "half"]))
    options = {} if schedule is None else {"schedule": schedule}
    last = SCHEDULE_LENGTHS[schedule or "all"]
    hands: list[dict[str, Any]] = []
    wanted = draw(st.integers(min_value=1, max_value=12))
    game = score(rummathon(players, options, hands))
    while len(hands) < wanted and not game.over:
        out = draw(st.sampled_from(players))
        hand: dict[str, Any] = {"out": out}

        left = {}
        for name in players:
            if name == out or not draw(st.booleans()):
                continue
            left[name] = {
                kind: n
                for kind in CARD_VALUES
                if (n := draw(st.integers(min_value=0, max_value=6)))
            }
        hand["left"] = left

        burdens = []
        targets = draw(st.lists(st.sampled_from(players), unique=True, max_size=count))
        for on in targets:
            by = draw(st.sampled_from([p for p in players if p != on]))
            completed = True if on == out else draw(st.booleans())
            burdens.append({"on": on, "by": by, "double": draw(st.booleans()),
                            "completed": completed})
        if burdens:
            hand["burdens"] = burdens
        burden_on = {b["on"]: b["completed"] for b in burdens}

        progress = {}
        for name in players:
            standing = game.standing[name]
            steps = ["completed", "failed"]
            if standing["may_declare"] and standing["rounds_done"] + 1 < last:
                steps += ["declared-completed", "declared-failed"]
            if name == out or burden_on.get(name) is True:
                steps = [s for s in steps if s in ADVANCED]
            elif burden_on.get(name) is False:
                steps = [s for s in steps if s not in ADVANCED]
            step = draw(st.sampled_from([None, *steps]))
            if step is not None:
                progress[name] = step
        if progress:
            hand["progress"] = progress

        extra = {}
        for name in players:
            allowance = min(20, -(-game.totals[name] // 10))
            n = draw(st.integers(min_value=0, max_value=allowance))
            if n:
                extra[name] = n
        if extra:
            hand["extra_cards"] = extra

        hands.append(hand)
        game = score(rummathon(players, options, hands))
    return rummathon(players, options, hands)


PROPERTY_SETTINGS = settings(max_examples=200, deadline=None, database=None)


@PROPERTY_SETTINGS
@given(games())
def test_totals_are_the_sum_of_the_hands(request):
    game = score(request)
    for name in request["players"]:
        assert game.totals[name] == sum(r.points[name] for r in game.rounds)


@PROPERTY_SETTINGS
@given(games())
def test_no_score_ever_goes_below_zero(request):
    game = score(request)
    running = dict.fromkeys(request["players"], 0)
    for scored in game.rounds:
        for name in request["players"]:
            running[name] += scored.points[name]
            assert running[name] >= 0
            assert scored.detail["players"][name]["score_after"] == running[name]


@PROPERTY_SETTINGS
@given(games())
def test_a_plain_hand_pays_out_exactly_the_cards_left(request):
    game = score(request)
    for hand, scored in zip(request["rounds"], game.rounds, strict=True):
        if hand.get("burdens") or hand.get("extra_cards"):
            continue
        cards_left = sum(
            CARD_VALUES[kind] * n
            for name, cards in hand["left"].items()
            if name != hand["out"]
            for kind, n in cards.items()
        )
        assert sum(scored.points.values()) == cards_left
        assert scored.points[hand["out"]] == cards_left


@PROPERTY_SETTINGS
@given(games())
def test_the_scored_game_survives_json_and_scoring_is_deterministic(request):
    check_repeatable(request, score)


@PROPERTY_SETTINGS
@given(games())
def test_the_request_survives_json_and_scores_the_same(request):
    text = json.dumps(request)
    again = json.loads(text)
    assert again == request
    assert score(again).as_json() == score(request).as_json()
