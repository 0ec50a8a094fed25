"""Indian Rummy: the worked examples in cases/indian_rummy.toml, the referee, and properties.

The examples are a rule book's: every number in them was worked by hand from
RULINGS.md IR-1 to IR-10, and each case says which rulings it shows. The engine and the
referee are called directly (``score(players, options, rounds)`` and ``declaration(body)``).
The property tests deal random games from real decks and check what must hold for any
of them: points rummy sums to zero, pool totals are the counts added up, chips are kept.
"""

from __future__ import annotations

import copy
import json
import random
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import games as registry
from companion.games import indian_rummy
from companion.referee.indian_rummy import declaration
from tests.casebook import ERROR_KEYS, assert_error, check_case, check_lines_cite, cited, slug, worked_example

CASES_FILE = Path(__file__).parent / "cases" / "indian_rummy.toml"
RULINGS = {f"IR-{n}" for n in range(1, 11)}
OUTCOME_KEYS = {"points", "totals", "counts", "money", "over", "winners", "explains"}
CASE_KEYS = {"name", "rulings", "players", "options", "rounds", "joined"} | OUTCOME_KEYS | ERROR_KEYS
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]

#: IR-1 and IR-3, written out again so the properties do not lean on the engine's tables.
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
VALUE = {"A": 10, "K": 10, "Q": 10, "J": 10, **{str(n): n for n in range(2, 11)}}
LINE_CITES = re.compile(r"\(IR-\d+(, IR-\d+)*\)\.?$")


with CASES_FILE.open("rb") as f:
    CASES: list[dict[str, Any]] = tomllib.load(f)["case"]
IDS = [slug(c["name"]) for c in CASES]


def play(case: dict[str, Any]):
    if "joined" in case:  # a late player: the request as the API takes it (games.check_joined)
        return registry.score({"game": "indian-rummy", "players": case["players"], "options": case.get("options", {}),
                            "rounds": case.get("rounds", []), "joined": case["joined"]})
    return indian_rummy.score(tuple(case["players"]), case.get("options", {}), case.get("rounds", []))


# ---------------------------------------------------------------------------------------
# The case book itself


def test_the_case_book_has_enough_cases_with_unique_names():
    assert len(CASES) >= 34
    assert len(IDS) == len(set(IDS))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_each_case_cites_rulings_that_exist_and_expects_one_thing(case):
    if not check_case(case, CASE_KEYS, RULINGS, OUTCOME_KEYS):
        assert "points" in case and "totals" in case


def test_every_ruling_has_a_worked_example():
    assert cited(CASES) == RULINGS


def test_every_expectation_has_its_arithmetic_above_it():
    """Each expectation line in the book is preceded by a comment worked by hand (winners may
    share the comment of the ``over`` line above them)."""
    lines = CASES_FILE.read_text(encoding="utf-8").splitlines()
    keys = ("points", "totals", "counts", "money", "over", "winners", "error_where")
    for n, line in enumerate(lines):
        key = line.split(" = ")[0]
        if key in keys:
            above = lines[n - 1]
            shared = key == "winners" and above.startswith("over = ") and lines[n - 2].startswith("#")
            assert above.startswith("#") or shared, f"line {n + 1}: {line!r} has no worked arithmetic above it"


# ---------------------------------------------------------------------------------------
# The worked examples


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_case(case):
    game = worked_example(case, lambda: play(case), "rounds")
    if game is None:
        return
    assert [r.points for r in game.rounds] == case["points"]
    assert game.totals == case["totals"]
    if "counts" in case:
        assert [r.detail["counts"] for r in game.rounds] == case["counts"]
    if "money" in case:
        assert [r.detail["money"] for r in game.rounds] == case["money"]
    for deal, expected in zip(game.rounds, case.get("explains", []), strict=False):
        for name, words in expected.items():
            assert any(words in line for line in deal.explain[name]), (words, deal.explain[name])
    check_lines_cite(game, case["players"], LINE_CITES)
    if game.over:
        assert re.search(r"\(IR-(9|10)\)\.$", game.reason)


def test_the_api_example_comes_out_as_json():
    game = play(CASES[0]).as_json()
    assert game["game"] == "indian-rummy" and game["sides"] is None
    deal = game["rounds"][0]
    assert deal["detail"]["decks"] == 3  # IR-1: seven players
    assert deal["detail"]["players"]["Cat"]["groups"][0] == ["2S", "3S", "4S"]
    assert deal["detail"]["players"]["Cat"]["loose"] == ["QS", "5H", "8H", "4D"]
    assert game["totals"]["Ann"] == 250
    assert json.loads(json.dumps(game)) == game


def test_the_defaults_follow_the_rulings():
    assert indian_rummy.OPTIONS == {"variant": "points", "decks": None, "point_value": 1, "deals": 2}
    assert (indian_rummy.SLUG, indian_rummy.MIN_PLAYERS, indian_rummy.MAX_PLAYERS) == ("indian-rummy", 2, 9)
    assert indian_rummy.ROUND_NAME == "deal"
    game = indian_rummy.score(("Ann", "Ben", "Cat"), {}, [])
    assert game.totals == {"Ann": 0, "Ben": 0, "Cat": 0} and not game.over
    assert game.options["decks"] == 2
    chips = indian_rummy.score(("Ann", "Ben"), {"variant": "deals", "deals": 3}, [])
    assert chips.totals == {"Ann": 240, "Ben": 240}  # IR-10: 80 x 3 each


@pytest.mark.parametrize(("options", "where"), [
    ({"variant": "gin"}, "options.variant"),
    ({"variant": ["points"]}, "options.variant"),
    ({"decks": 0}, "options.decks"),
    ({"decks": "two"}, "options.decks"),
    ({"point_value": 0}, "options.point_value"),
    ({"point_value": True}, "options.point_value"),
    ({"point_value": "1"}, "options.point_value"),
    ({"deals": 0}, "options.deals"),
    ({"colour": "red"}, "options.colour"),
])
def test_bad_options_are_input_errors(options, where):
    assert_error(lambda: indian_rummy.score(("Ann", "Ben"), options, []), where, "")


def test_too_few_decks_for_the_table_is_refused():
    names = tuple(NAMES[:6])
    assert_error(lambda: indian_rummy.score(names, {"decks": 1}, []), "options.decks", "need more than 1 deck")


BAD_DEALS = {
    "not an object": (["Ann"], "rounds[0]", "each deal needs the wild joker"),
    "unknown field": ({"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 5}}, "dealer": "Ann"},
                      "rounds[0].dealer", "unknown field"),
    "no wild": ({"winner": "Ann", "hands": {"Ben": {"cards": ["4C"] * 13}}}, "rounds[0].wild", "wild joker"),
    "no winner": ({"wild": "7", "hands": {"Ben": {"count": 5}}}, "rounds[0].winner", "won the deal"),
    "hands not an object": ({"wild": "7", "winner": "Ann", "hands": ["Ben"]}, "rounds[0].hands",
                            "give each player's hand by name"),
    "two kinds at once": ({"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 5, "drop": "first"}}},
                          "rounds[0].hands.Ben", "exactly one"),
    "unknown drop": ({"wild": "7", "winner": "Ann", "hands": {"Ben": {"drop": "late"}}},
                     "rounds[0].hands.Ben.drop", "unknown drop"),
    "wrong show false": ({"wild": "7", "winner": "Ann", "hands": {"Ben": {"wrong_show": False}}},
                         "rounds[0].hands.Ben.wrong_show", "marked only for a player who showed"),
    "negative count": ({"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": -3}}},
                       "rounds[0].hands.Ben.count", "negative"),
    "count too big": ({"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 131}}},
                      "rounds[0].hands.Ben.count", "at most 130"),
    "not a card": ({"wild": "7", "winner": "Ann", "hands": {"Ben": {"cards": ["1S"] + ["2S"] * 12}}},
                   "rounds[0].hands.Ben.cards[0]", "not a card"),
    "groups not lists": ({"wild": "7", "winner": "Ann", "hands": {"Ben": {"groups": "AS 2S 3S"}}},
                         "rounds[0].hands.Ben.groups", "list"),
    "winner's loose cards": ({"wild": "7", "winner": "Ann", "hands": {
        "Ann": {"groups": [["AH", "2H", "3H"], ["4S", "5S", "6S"], ["QS", "QD", "QC"]],
                "loose": ["8D", "9D", "10D", "JD"]}, "Ben": {"count": 5}}},
        "rounds[0].hands.Ann.loose", "no loose cards"),
    "winner's cards make no declaration": ({"wild": "7", "winner": "Ann", "hands": {
        "Ann": {"cards": ["2S", "5S", "9S", "KS", "3H", "8H", "JH", "AD", "6D", "10D", "QC", "9C", "5C"]},
        "Ben": {"count": 5}}}, "rounds[0].hands.Ann.cards", "no valid declaration"),
    "a note that is not text": ({"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 5}}, "note": 5},
                                "rounds[0].note", "text"),
}


@pytest.mark.parametrize("raw", BAD_DEALS.values(), ids=BAD_DEALS.keys())
def test_bad_deals_are_input_errors(raw):
    deal, where, says = raw
    assert_error(lambda: indian_rummy.score(("Ann", "Ben"), {}, [deal]), where, says)


def test_a_winner_may_give_the_cards_and_the_engine_finds_the_declaration():
    game = indian_rummy.score(("Ann", "Ben"), {}, [{"wild": "10", "winner": "Ann", "hands": {
        "Ann": {"cards": ["AS", "2S", "3S", "4H", "5H", "6H", "7C", "8C", "9C", "KD", "KH", "KS", "JK"]},
        "Ben": {"count": 12}}}])
    assert game.totals == {"Ann": 12, "Ben": -12}
    assert game.rounds[0].detail["players"]["Ann"]["kinds"] == ["pure", "pure", "pure", "set"]


def test_the_wild_may_be_given_as_a_number_and_in_lower_case():
    for wild in (7, "7", "jk", "q"):
        game = indian_rummy.score(("Ann", "Ben"), {}, [{"wild": wild, "winner": "Ann", "hands": {"Ben": {"count": 1}}}])
        assert game.rounds[0].detail["wild_rank"] in {"7", "A", "Q"}


# ---------------------------------------------------------------------------------------
# The referee (API.md: indian-rummy/declaration)


def test_the_referee_judges_groups():
    answer = declaration({"wild": "7", "groups": [["AH", "2H", "3H"], ["5S", "6S", "7D", "8S"], ["QC", "QD", "QS"],
                                                  ["9H", "10H", "JH"]]})
    assert answer["valid"] is True and answer["count"] == 0
    assert answer["kinds"] == ["pure", "impure", "set", "pure"]
    assert answer["groups"][1] == ["5S", "6S", "7D", "8S"]
    assert len(answer["explain"]) == 4 + 1 + 1
    assert all(LINE_CITES.search(line) for line in answer["explain"])


def test_the_referee_finds_the_best_arrangement_of_13_cards():
    answer = declaration({"wild": "7", "cards": ["AS", "2S", "3S", "2D", "3D", "7D", "5D", "9H", "10H", "7S", "QH",
                                                 "KH", "7C"]})
    assert answer["valid"] is True and answer["count"] == 0
    assert sorted(c for g in answer["groups"] for c in g) == sorted(
        ["AS", "2S", "3S", "2D", "3D", "7D", "5D", "9H", "10H", "7S", "QH", "KH", "7C"])
    assert answer["kinds"][0] == "pure"
    assert all(LINE_CITES.search(line) for line in answer["explain"])


def test_the_referee_counts_a_hand_that_is_not_a_declaration():
    answer = declaration({"wild": "7", "groups": [["4C", "5C", "6C"], ["8D", "9D", "10D"]],
                          "loose": ["KS", "QD", "2H", "3S", "5D", "9C", "JC"]})
    assert answer["valid"] is False and answer["count"] == 49  # IR-6, as in the API example
    assert any("13 cards" in line or "loose" in line.lower() for line in answer["explain"])
    answer = declaration({"wild": "JK", "groups": [["KS", "AS", "2S"], ["5D", "6D", "7D"], ["9C", "10C", "JC"],
                                                   ["QH", "QD", "QS", "QC"]]})
    assert answer["valid"] is False and answer["kinds"][0] == "invalid"  # no joker joins K to 2 (IR-4)


def test_the_referee_keeps_a_wild_ace_in_its_own_place_pure():
    answer = declaration({"wild": "JK", "groups": [["QS", "KS", "AS"], ["5D", "6D", "7D"], ["9C", "10C", "JC"],
                                                   ["QH", "QD", "QS", "QC"]]})
    assert answer["valid"] is True and answer["kinds"] == ["pure", "pure", "pure", "set"]  # IR-2, IR-4


@pytest.mark.parametrize(("body", "where"), [
    (None, "$"),
    ({"cards": ["AS"] * 13}, "wild"),
    ({"wild": "7"}, "$"),
    ({"wild": "7", "cards": [], "groups": []}, "$"),
    ({"wild": "7", "cards": ["AS", "2S"]}, "cards"),
    ({"wild": "7", "cards": ["AS"] * 4 + ["2S"] * 9}, "cards[3]"),
    ({"wild": "7", "groups": [["AS", "2S", "3S"]]}, "groups"),
    ({"wild": "7", "groups": "AS 2S 3S"}, "groups"),
    ({"wild": "1", "cards": ["AS"] * 13}, "wild"),
    ({"wild": "7", "cards": ["AS"] * 13, "decks": 9}, "decks"),
    ({"wild": "7", "cards": ["AS"] * 13, "mood": "good"}, "mood"),
])
def test_a_bad_declaration_body_is_an_input_error(body, where):
    assert_error(lambda: declaration(body), where, "")


# ---------------------------------------------------------------------------------------
# Properties of random games dealt from real decks


PROPERTY_SETTINGS = settings(max_examples=60, deadline=None, database=None)


def pack(decks: int) -> list[str]:
    return [rank + suit for suit in SUITS for rank in RANKS for _ in range(decks)] + ["JK"] * decks


@st.composite
def games(draw, variant: str) -> dict[str, Any]:
    """A game whose every deal is dealt from the table's real decks (IR-1)."""
    n = draw(st.integers(min_value=2, max_value=6))
    players = NAMES[:n]
    decks = 1 if n == 2 else 2
    deals = draw(st.integers(min_value=1, max_value=4))
    options: dict[str, Any] = {"variant": variant}
    if variant == "deals":
        options["deals"] = deals
    if variant == "points" and draw(st.booleans()):
        options["point_value"] = draw(st.sampled_from([1, 2, 0.5, 0.1, 0.25]))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    rounds = []
    out: set[str] = set()
    totals = dict.fromkeys(players, 0)
    limit = {"pool101": 101, "pool201": 201}.get(variant)
    for _ in range(deals):
        playing = [p for p in players if p not in out]
        if len(playing) < 2:
            break
        cards = pack(decks)
        rng.shuffle(cards)
        winner = rng.choice(playing)
        hands: dict[str, Any] = {}
        for p in playing:
            if p == winner:
                continue
            hand, cards = cards[:13], cards[13:]
            kind = rng.choice(["cards", "cards", "count", "drop", "wrong_show", "groups"])
            if kind == "cards":
                hands[p] = {"cards": hand}
            elif kind == "groups":
                hands[p] = {"groups": [hand[:3], hand[3:6]], "loose": hand[6:]}
            elif kind == "count":
                hands[p] = {"count": rng.randint(0, 120)}
            elif kind == "drop":
                hands[p] = {"drop": rng.choice(["first", "middle", "missed"])}
            else:
                hands[p] = {"wrong_show": True}
        rounds.append({"wild": rng.choice(RANKS + ["JK"]), "winner": winner, "hands": hands})
        if limit:  # follow the pool so that no deal includes a player who is out
            game = indian_rummy.score(tuple(players), options, rounds)
            totals = game.totals
            out = {p for p in players if totals[p] >= limit}
    return {"players": players, "options": options, "rounds": rounds}


@PROPERTY_SETTINGS
@given(games("points"))
def test_points_rummy_deals_sum_to_zero(game):
    scored = indian_rummy.score(tuple(game["players"]), game["options"], game["rounds"])
    value = game["options"].get("point_value", 1)
    for deal in scored.rounds:
        assert sum(deal.points.values()) == 0
        counts = deal.detail["counts"]
        winner = deal.detail["winner"]
        assert deal.points[winner] == sum(c for p, c in counts.items() if p != winner)
        assert all(0 <= c <= 80 for c in counts.values())
        for p, amount in deal.detail["money"].items():
            assert amount == pytest.approx(deal.points[p] * value)
    for p in game["players"]:
        assert scored.totals[p] == sum(deal.points[p] for deal in scored.rounds)
    assert not scored.over


@PROPERTY_SETTINGS
@given(st.sampled_from(["pool101", "pool201"]).flatmap(games))
def test_pool_totals_are_the_deal_counts_added_up(game):
    scored = indian_rummy.score(tuple(game["players"]), game["options"], game["rounds"])
    limit = 101 if game["options"]["variant"] == "pool101" else 201
    for p in game["players"]:
        assert scored.totals[p] == sum(deal.points[p] for deal in scored.rounds)
    for deal in scored.rounds:
        assert deal.points[deal.detail["winner"]] == 0
        assert all(points >= 0 for points in deal.points.values())
    still_in = [p for p in game["players"] if scored.totals[p] < limit]
    assert scored.over is (len(still_in) == 1)
    if scored.over:
        assert list(scored.winners) == still_in


@PROPERTY_SETTINGS
@given(games("deals"))
def test_chips_are_kept_in_deals_rummy(game):
    scored = indian_rummy.score(tuple(game["players"]), game["options"], game["rounds"])
    n = game["options"]["deals"]
    start = 80 * n
    chips = dict.fromkeys(game["players"], start)
    for deal in scored.rounds:
        assert sum(deal.points.values()) == 0
        for p, points in deal.points.items():
            chips[p] += points
        assert deal.detail["chips"] == chips
        assert sum(chips.values()) == start * len(game["players"])
    assert scored.totals == chips
    assert all(c >= 0 for c in chips.values())  # at most 80 a deal, for n deals
    assert scored.over is (len(scored.rounds) == n)
    if scored.over:
        most = max(chips.values())
        assert list(scored.winners) == [p for p in game["players"] if chips[p] == most]


@PROPERTY_SETTINGS
@given(games("points"))
def test_scoring_is_deterministic_and_leaves_its_input_alone(game):
    untouched = copy.deepcopy(game)
    first = indian_rummy.score(tuple(game["players"]), game["options"], game["rounds"]).as_json()
    assert game == untouched
    again = indian_rummy.score(tuple(game["players"]), game["options"], json.loads(json.dumps(game["rounds"])))
    assert again.as_json() == first


def test_a_pool_with_rejoins_adds_each_restart_to_the_counts():
    """IR-9: a rejoin restarts a total, so totals = deal counts + each restart's jump."""
    case = next(c for c in CASES if c["name"].startswith("Pool 101: a player who is out rejoins"))
    game = play(case)
    jumps = {p: 0 for p in case["players"]}
    for deal in game.rounds:
        for p, moved in deal.detail["rejoined"].items():
            jumps[p] += moved["to"] - moved["from"]
    for p in case["players"]:
        assert game.totals[p] == sum(deal.points[p] for deal in game.rounds) + jumps[p]
    assert game.standing["players"]["Ben"] == {"total": 85, "out": False, "to_out": 16}
