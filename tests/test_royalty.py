"""Royalty: the worked examples in cases/royalty.toml, and properties.

Every number in the case book was worked by hand from RULINGS.md RY-1 to RY-16, and each
case says which rulings it shows. The property tests play random games turn by turn
(melds, captures of what lies on the table, passes, trades, challenges, an end) and check
what must hold for any of them. The engine is called directly, as the lead registers it.
"""

from __future__ import annotations

import copy
import json
import re
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import games as registry
from companion.games import royalty
from companion.games.base import InputError
from companion.games.royalty.words import WordList
from tests.casebook import ERROR_KEYS, assert_error, check_case, check_lines_cite, cited, ids, worked_example

CASES_FILE = Path(__file__).parent / "cases" / "royalty.toml"
RULINGS = {f"RY-{n}" for n in range(1, 18)}
#: RY-17 (the dictionary) belongs to the word judge; the engine's case book covers the rest.
ENGINE_RULINGS = {f"RY-{n}" for n in range(1, 17)}
OUTCOME_KEYS = {"points", "side_points", "totals", "side_totals", "sides", "domains", "table", "over", "winners",
                "says"}
MONARCHY_RESULT = {"valid", "solved", "unused"}
MONARCHY_KEYS = {"dealt", "words"} | MONARCHY_RESULT
CASE_KEYS = {"name", "rulings", "players", "options", "rounds", "joined"} | OUTCOME_KEYS | MONARCHY_KEYS | ERROR_KEYS
EXPECTATION_KEYS = (OUTCOME_KEYS | {"valid", "solved", "unused"} | ERROR_KEYS)
LINE_CITES = re.compile(r"\(RY-\d+(, RY-\d+)*\)\.?$")

#: RY-2, written out again so the properties do not lean on the engine's table.
VALUES = {"A": 2, "B": 6, "C": 6, "D": 4, "E": 2, "F": 6, "G": 4, "H": 6, "I": 2, "J": 8, "K": 6, "L": 2, "M": 6,
          "N": 2, "O": 2, "P": 6, "Q": 10, "R": 2, "S": 2, "T": 2, "U": 2, "V": 6, "W": 6, "X": 8, "Y": 6, "Z": 10}
LETTERS = sorted(VALUES)
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


with CASES_FILE.open("rb") as f:
    CASES = tomllib.load(f)["case"]
GAMES = [c for c in CASES if "dealt" not in c]
MONARCHIES = [c for c in CASES if "dealt" in c]


def play(case: dict[str, Any]):
    if "joined" in case:  # a late player: the request as the API takes it (games.check_joined)
        return registry.score({"game": "royalty", "players": case["players"], "options": case.get("options", {}),
                               "rounds": copy.deepcopy(case.get("rounds", [])), "joined": case["joined"]})
    return royalty.score(tuple(case["players"]), case.get("options", {}), copy.deepcopy(case.get("rounds", [])))


# ---------------------------------------------------------------------------------------
# The case book itself


def test_the_case_book_has_enough_cases_with_unique_names():
    assert len(CASES) >= 30
    names = ids(CASES)
    assert len(names) == len(set(names))


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_each_case_cites_rulings_that_exist_and_expects_one_thing(case):
    if check_case(case, CASE_KEYS, RULINGS, OUTCOME_KEYS | MONARCHY_RESULT):
        return
    if "dealt" in case:
        assert set(case) >= MONARCHY_RESULT and "RY-16" in case["rulings"]
    else:
        assert "points" in case or "totals" in case


def test_every_engine_ruling_has_a_worked_example():
    assert cited(CASES) == ENGINE_RULINGS


def test_every_expectation_has_its_arithmetic_written_above_it():
    lines = CASES_FILE.read_text(encoding="utf-8").splitlines()
    key = re.compile(r"^([a-z_]+) = ")
    checked = 0
    for n, line in enumerate(lines):
        m = key.match(line)
        if m and m.group(1) in EXPECTATION_KEYS - {"error_says"}:
            assert lines[n - 1].startswith("#"), f"line {n + 1}: no worked arithmetic above {m.group(1)}"
            checked += 1
    assert checked >= 60


# ---------------------------------------------------------------------------------------
# The worked examples


@pytest.mark.parametrize("case", GAMES, ids=ids(GAMES))
def test_case(case):
    game = worked_example(case, lambda: play(case), "rounds")
    if game is None:
        return
    if "domains" in case:
        assert game.standing["domains"] == case["domains"]
    if "table" in case:
        table = [{k: w[k] for k in expected} for w, expected in zip(game.standing["table"], case["table"],
                                                                     strict=False)]
        assert len(game.standing["table"]) == len(case["table"])
        assert table == case["table"]
    if game.over:
        assert re.search(r"\(RY-\d+", game.reason)
        assert game.standing["next"] is None
    for name, words in case.get("says", {}).items():
        lines = [line for r in game.rounds for line in r.explain[name]]
        assert any(words in line for line in lines), lines
    check_lines_cite(game, case["players"], LINE_CITES)  # every player gets a line on every entry


@pytest.mark.parametrize("case", MONARCHIES, ids=ids(MONARCHIES))
def test_monarchy_case(case):
    if "error_where" in case:
        assert_error(lambda: royalty.monarchy(case["dealt"], case["words"]), case["error_where"], case["error_says"])
        return
    answer = royalty.monarchy(case["dealt"], case["words"])
    assert answer["valid"] is case["valid"]
    assert answer["solved"] is case["solved"]
    assert sorted(answer["unused"]) == sorted(case["unused"])
    assert answer["unused_count"] == len(case["unused"])
    assert all(line.endswith("(RY-16)") for line in answer["explain"])


def test_the_box_examples_come_out_under_the_default_values():
    words = {"Ar Lr Eb": 6, "Pr Eb Ar Lr": 12, "Pb Ar Rr Eb": 12, "Mr Ab Cr Eb": 16, "Pb Ar Rb Kb": 16,
             "Cr Ab Pr Er Rr": 18}
    for text, value in words.items():
        assert royalty.word_value(royalty.parse_word(text)) == value
    calm, camp = royalty.parse_word("Cr Ar Lr Mr"), royalty.parse_word("Cb Ab Mb Pb")
    assert royalty.one_coloured(calm) and royalty.one_coloured(camp)
    assert 2 * royalty.word_value(calm) == 32 and 2 * royalty.word_value(camp) == 40


def test_the_letter_table_says_which_values_are_provisional():
    assert dict(royalty.DEFAULT_LETTER_VALUES) == VALUES
    assert set(LETTERS) - set("AELRCKMP") == royalty.PROVISIONAL
    rows = royalty.letter_table({"q": 9})
    assert [r["letter"] for r in rows] == LETTERS
    assert {r["letter"] for r in rows if r["provisional"]} == royalty.PROVISIONAL
    assert [r for r in rows if r["overridden"]] == [{"letter": "Q", "value": 9, "provisional": True,
                                                    "overridden": True}]
    assert royalty.OPTIONS == {"letter_values": {}, "junior": False, "coalitions": None, "variant": "standard",
                               "word_list": None}
    assert (royalty.SLUG, royalty.TITLE, royalty.MIN_PLAYERS, royalty.MAX_PLAYERS, royalty.ROUND_NAME) == (
        "royalty", "Royalty", 2, 6, "turn")


def test_no_turns_yet_is_an_empty_table_with_the_first_seat_next():
    game = royalty.score(("Ann", "Ben"), {}, [])
    assert game.totals == {"Ann": 0, "Ben": 0} and not game.over
    assert game.standing == {"table": [], "domains": {"Ann": 0, "Ben": 0}, "scores": {"Ann": 0, "Ben": 0},
                             "next": "Ann", "must_pass": []}
    assert game.options["letter_values"] == VALUES
    assert game.as_json()["sides"] is None


def test_the_api_example_turns_score():
    # API.md's Royalty turns, with the players the example implies
    game = royalty.score(("Ann", "Ben", "Cat", "Dan"), {}, [
        {"player": "Ann", "meld": "Cr Ar Lr Mr"},
        {"player": "Ben", "capture": {"target": "CALM", "owner": "Ann", "cards": "Cr Lr Ar Ib Mr"},
         "meld": "Db Ob Gb"},
        {"player": "Cat", "pass": True},
        {"player": "Dan", "trade": True},
        {"player": "Ann", "meld": "Zr Er Br Rr Ar", "challenge": {"by": "Ben", "upheld": True}},
        {"end": {"went_out": "Ann", "unplayed": {"Ben": "Xr Qb", "Cat": "", "Dan": "Eb"}}}])
    # CALM first play: 16 doubled = 32; CLAIM 18 + DOG 10 = 28; ZEBRA void. End: Ben's CLAIM
    # (5) and DOG (3) go to his Domain; Ann collects 8 + 10 + 2 = 20 and 3 cards (Domain 3);
    # Ben's 8 is the most: +20
    assert [r.points["Ann"] for r in game.rounds] == [32, 0, 0, 0, 0, 20]
    assert [r.points["Ben"] for r in game.rounds] == [0, 28, 0, 0, 0, 20]
    assert game.totals == {"Ann": 52, "Ben": 48, "Cat": 0, "Dan": 0}
    assert game.standing["domains"] == {"Ann": 3, "Ben": 8, "Cat": 0, "Dan": 0}
    assert game.winners == ("Ann",)
    assert json.loads(json.dumps(game.as_json()))["rounds"][1]["detail"]["capture"]["added"] == "Ib"


BAD_TURNS = {
    "not an object": (["Ann"], "rounds[0]", "whose it was and what they did"),
    "stranger": ({"player": "Zed", "pass": True}, "rounds[0].player", "not a player"),
    "two things": ({"player": "Ann", "pass": True, "meld": "Cr Ar"}, "rounds[0]", "does one thing"),
    "nothing": ({"player": "Ann"}, "rounds[0]", "does one thing"),
    "unknown field": ({"player": "Ann", "pass": True, "bid": 3}, "rounds[0].bid", "a turn has no bid"),
    "pass false": ({"player": "Ann", "pass": False, "meld": "Cr Ar"}, "rounds[0].pass", "say yes to it"),
    "meld not text": ({"player": "Ann", "meld": 5}, "rounds[0].meld", "card tokens"),
    "empty meld": ({"player": "Ann", "meld": "  "}, "rounds[0].meld", "at least one card"),
    "bare Knave in a word": ({"player": "Ann", "meld": "Cr * Lr"}, "rounds[0].meld", "which letter"),
    "challenge of a pass": ({"player": "Ann", "pass": True, "challenge": {"by": "Ben", "upheld": True}},
                            "rounds[0].challenge", "only a word"),
    "challenge by oneself": ({"player": "Ann", "meld": "Ob Xb", "challenge": {"by": "Ann", "upheld": False}},
                             "rounds[0].challenge.by", "own word"),
    "challenge without outcome": ({"player": "Ann", "meld": "Ob Xb", "challenge": {"by": "Ben"}},
                                  "rounds[0].challenge.upheld", "upheld"),
    "target not letters": ({"player": "Ann", "capture": {"target": "Cr Ar", "cards": "Cr Ar Sb"}},
                           "rounds[0].capture.target", "letters"),
    "capture from a stranger": ({"player": "Ann", "capture": {"target": "CALM", "owner": "Zed", "cards": "Cr"}},
                                "rounds[0].capture.owner", "not a player"),
    "end not an object": ({"end": "Ann"}, "rounds[0].end", "says who went out"),
    "went out a stranger": ({"end": {"went_out": "Zed"}}, "rounds[0].end.went_out", "not a player"),
    "goer-out holding cards": ({"end": {"went_out": "Ann", "unplayed": {"Ann": "Qb"}}},
                               "rounds[0].end.unplayed.Ann", "holds no cards"),
    "eight in hand": ({"end": {"unplayed": {"Ben": "Ar Ar Ar Ar Ar Ar Ar Ar"}}}, "rounds[0].end.unplayed.Ben",
                      "at most 7"),
    "bad card in hand": ({"end": {"unplayed": {"Ben": "Ar 9x"}}}, "rounds[0].end.unplayed.Ben", "9x is not a Royalty"),
}


@pytest.mark.parametrize("raw", BAD_TURNS.values(), ids=BAD_TURNS.keys())
def test_bad_turns_are_input_errors(raw):
    turn, where, says = raw
    assert_error(lambda: royalty.score(("Ann", "Ben"), {}, [turn]), where, says)


@pytest.mark.parametrize(("options", "where"), [
    ({"letter_values": {"AB": 3}}, "options.letter_values.AB"),
    ({"letter_values": {"Q": -1}}, "options.letter_values.Q"),
    ({"letter_values": {"Q": "ten"}}, "options.letter_values.Q"),
    ({"letter_values": [1, 2]}, "options.letter_values"),
    ({"junior": "yes"}, "options.junior"),
    ({"variant": "monarchy"}, "options.variant"),
    ({"coalitions": [["Ann", "Cat"]]}, "options.coalitions"),
    ({"coalitions": [["Ann", "Cat"], ["Ben", "Zed"]]}, "options.coalitions[1][1]"),
    ({"coalitions": [["Ann", "Cat"], ["Ben", "Cat"]]}, "options.coalitions[1][1]"),
    ({"coalitions": [["Ann", "Cat"], ["Ben"]]}, "options.coalitions"),
    ({"variant": "joust", "coalitions": [["Ann"], ["Ben"]]}, "options.coalitions"),
    ({"word_list": 7}, "options.word_list"),
    ({"speed": "fast"}, "options.speed"),
])
def test_bad_options_are_input_errors(options, where):
    players = ("Ann", "Ben") if options.get("variant") == "joust" else ("Ann", "Ben", "Cat", "Dan")
    assert_error(lambda: royalty.score(players, options, []), where, "")


def test_joust_refuses_captures_trades_and_hands():
    for turn, where in (({"player": "Ann", "trade": True}, "rounds[0].trade"),
                        ({"player": "Ann", "capture": {"target": "EAR", "cards": "Er Ar Rr Sb"}},
                         "rounds[0].capture"),
                        ({"end": {"unplayed": {"Ann": "Qb"}}}, "rounds[0].end.unplayed.Ann"),
                        ({"player": "Ann", "meld": "Ar Ar Ar Ar Ar Ar Ar Ar"}, "rounds[0].meld")):
        assert_error(lambda turn=turn: royalty.score(("Ann", "Ben"), {"variant": "joust"}, [turn]), where, "")


def test_joust_allows_an_end_entry_after_two_passes_but_nothing_more():
    turns = [{"player": "Ann", "pass": True}, {"player": "Ben", "pass": True}, {"end": {}}]
    game = royalty.score(("Ann", "Ben"), {"variant": "joust"}, turns)
    # both Domains empty: tied, +5 each, on the second pass; the end entry adds nothing
    assert [r.points for r in game.rounds] == [{"Ann": 0, "Ben": 0}, {"Ann": 5, "Ben": 5}, {"Ann": 0, "Ben": 0}]
    assert game.over and game.winners == ("Ann", "Ben")
    assert_error(lambda: royalty.score(("Ann", "Ben"), {"variant": "joust"}, [*turns, {"end": {}}]), "rounds[3]",
                 "ended")


def test_monarchy_refuses_bad_cards_and_shapes():
    deal = " ".join(["Ar"] * 25)
    assert_error(lambda: royalty.monarchy(deal.replace("Ar", "Aq", 1), []), "dealt", "Aq is not a Royalty card")
    assert_error(lambda: royalty.monarchy(deal, "Ar Ar Ar Ar"), "words", "one by one")
    assert_error(lambda: royalty.monarchy(deal, ["Ar Ar", "Ar 5"]), "words[1]", "5 is not a Royalty card")


# ---------------------------------------------------------------------------------------
# Properties


PROPERTY_SETTINGS = settings(max_examples=150, deadline=None, database=None)


@st.composite
def card_tokens(draw, knaves: bool = True) -> str:
    letter = draw(st.sampled_from(LETTERS))
    if knaves and draw(st.integers(0, 9)) == 0:
        return "*" + letter + draw(st.sampled_from(["r", "b", ""]))
    return letter + draw(st.sampled_from(["r", "b"]))


def value_of(token: str, values: dict[str, int]) -> int:
    return 0 if token.startswith("*") else values[token[0]]


def word_of(tokens: list[str]) -> str:
    return " ".join(tokens)


@st.composite
def games(draw, joust: bool = False) -> dict[str, Any]:
    """A game entered turn by turn; captures pick words the standing says lie on the table."""
    n = 2 if joust else draw(st.integers(2, 6))
    players = NAMES[:n]
    options: dict[str, Any] = {"variant": "joust"} if joust else {}
    if not joust and draw(st.booleans()):
        options["junior"] = True
    if draw(st.booleans()):
        options["letter_values"] = draw(st.dictionaries(st.sampled_from(LETTERS), st.integers(0, 12), max_size=5))
    if not joust and n >= 3 and draw(st.booleans()):
        split = draw(st.integers(1, n - 1))
        seats = draw(st.permutations(players))
        options["coalitions"] = [list(seats[:split]), list(seats[split:])]
    rounds: list[dict[str, Any]] = []
    owing: set[str] = set()
    for _ in range(draw(st.integers(0, 12))):
        standing = royalty.score(tuple(players), options, rounds).standing
        if standing["next"] is None:
            break
        player = standing["next"]
        if player in owing:
            rounds.append({"player": player, "pass": True})
            owing.discard(player)
            continue
        kind = draw(st.sampled_from(["meld", "meld", "capture", "pass", "trade"] if not joust else
                                    ["meld", "meld", "meld", "pass"]))
        targets = [w for w in standing["table"] if w["owner"] != player]
        turn: dict[str, Any] = {"player": player}
        added = 0
        if kind == "capture" and targets:
            target = draw(st.sampled_from(targets))
            extra = draw(st.lists(card_tokens(), min_size=1, max_size=5))
            added = len(extra)
            cards = draw(st.permutations(target["cards"].split() + extra))
            turn["capture"] = {"target": target["word"], "owner": target["owner"], "cards": word_of(list(cards))}
            kind = draw(st.sampled_from(["meld", "none"]))
        if kind == "meld" and added < 7:
            turn["meld"] = word_of(draw(st.lists(card_tokens(), min_size=1, max_size=7 - added)))
        elif kind in ("pass", "trade") or "capture" not in turn:
            turn[kind if kind in ("pass", "trade") else "pass"] = True
        if ("meld" in turn or "capture" in turn) and draw(st.integers(0, 4)) == 0:
            by = draw(st.sampled_from([p for p in players if p != player]))
            upheld = draw(st.booleans())
            turn["challenge"] = {"by": by, "upheld": upheld}
            if not upheld:
                owing.add(by)
        rounds.append(turn)
    if draw(st.booleans()):
        went_out = None if joust else draw(st.sampled_from([None, *players]))
        unplayed = {} if joust else {p: word_of(draw(st.lists(card_tokens(), max_size=7)))
                                     for p in players if p != went_out and draw(st.booleans())}
        end: dict[str, Any] = {"unplayed": unplayed}
        if went_out is not None:
            end["went_out"] = went_out
        if royalty.score(tuple(players), options, rounds).standing["next"] is not None or joust:
            rounds.append({"end": end})
    return {"players": players, "options": options, "rounds": rounds}


def run(game: dict[str, Any]):
    return royalty.score(tuple(game["players"]), game["options"], game["rounds"])


@PROPERTY_SETTINGS
@given(games())
def test_totals_are_the_turns_plus_the_end_bonuses_as_reported(game):
    scored = run(game)
    players = game["players"]
    turn_sum = {p: sum(r.detail["turn_points"][p] for r in scored.rounds) for p in players}
    ends = [r.detail["end"] for r in scored.rounds if "end" in r.detail]
    assert len(ends) == (1 if scored.over else 0)
    for p in players:
        assert scored.totals[p] == sum(r.points[p] for r in scored.rounds)
        extra = 0
        for end in ends:
            extra += end["unplayed"][p]
            if end["by"] == "player":
                extra += end["domain_bonus"][p] + end["royalty_bonus"][p]
        assert scored.totals[p] == turn_sum[p] + extra
    if scored.sides is not None:
        for side, members in scored.sides.items():
            bonus = sum(end["domain_bonus"][side] + end["royalty_bonus"][side] for end in ends)
            assert scored.side_totals[side] == sum(r.side_points[side] for r in scored.rounds)
            assert scored.side_totals[side] == sum(scored.totals[p] for p in members) + bonus
    assert scored.standing["scores"] == scored.totals
    if scored.over:
        best = max((scored.side_totals or scored.totals).values())
        if scored.sides is None:
            assert list(scored.winners) == [p for p in players if scored.totals[p] == best]
        else:
            top = {s for s, t in scored.side_totals.items() if t == best}
            assert list(scored.winners) == [p for p in players if any(p in scored.sides[s] for s in top)]


@PROPERTY_SETTINGS
@given(games())
def test_each_turn_scores_its_capture_and_meld_with_the_premiums(game):
    scored = run(game)
    values = dict(VALUES)
    values.update({k.upper(): v for k, v in game["options"].get("letter_values", {}).items()})
    junior = game["options"].get("junior", False)
    for index, (raw, r) in enumerate(zip(game["rounds"], scored.rounds, strict=True)):
        d = r.detail
        if "end" in raw:
            assert d["turn_points"] == dict.fromkeys(game["players"], 0)
            continue
        player = raw["player"]
        assert all(v == 0 for p, v in d["turn_points"].items() if p != player)
        if d["void"] or "pass" in raw or "trade" in raw:
            assert d["turn_points"][player] == 0
            continue
        total = 0
        from_hand = 0
        if "capture" in raw:
            tokens = raw["capture"]["cards"].split()
            cap = d["capture"]
            assert cap["value"] == sum(value_of(t, values) for t in tokens)
            added = cap["added"].split()
            assert len(tokens) - len(added) == len(cap["target_cards"].split())
            colours = {t[-1].lower() for t in added if not t.startswith("*")}
            assert cap["doubled"] is (len(added) >= 4 and len(colours) <= 1)
            total += cap["value"] * (2 if cap["doubled"] else 1)
            from_hand += len(added)
        if "meld" in raw:
            tokens = raw["meld"].split()
            value = sum(value_of(t, values) for t in tokens)
            one = len({t[-1].lower() for t in tokens if not t.startswith("*")}) <= 1
            if index == 0 and len(tokens) >= 3:
                factor = 4 if one and len(tokens) >= 5 else 2
            else:
                factor = 2 if one and len(tokens) >= (3 if junior else 4) else 1
            total += value * factor
            from_hand += len(tokens)
        assert d["from_hand"] == from_hand
        assert d["turn_points"][player] == total * (2 if from_hand == 7 else 1)


@PROPERTY_SETTINGS
@given(games())
def test_domains_are_never_negative_except_after_all_pass(game):
    scored = run(game)
    for raw, r in zip(game["rounds"], scored.rounds, strict=True):
        subtracted = "end" in raw and raw["end"].get("went_out") is None
        if not subtracted:
            assert all(n >= 0 for n in r.detail["domains"].values()), r.detail["domains"]
        else:
            for p, n in r.detail["domains"].items():
                held = len(raw["end"].get("unplayed", {}).get(p, "").split())
                assert n >= -held
    assert scored.standing["domains"] == (scored.rounds[-1].detail["domains"] if scored.rounds
                                          else dict.fromkeys(game["players"], 0))


@PROPERTY_SETTINGS
@given(games())
def test_the_table_and_domains_hold_every_card_placed(game):
    """RY-9: cards never vanish: the table plus the Domains are the cards that stayed placed."""
    scored = run(game)
    if scored.over:
        assert scored.standing["table"] == []
    for r in scored.rounds:
        on_table = sum(len(w["cards"].split()) for w in r.detail["table"])
        for w in r.detail["table"]:
            assert royalty.parse_word(w["cards"]).text == w["word"]
        assert on_table >= 0
    for w in scored.standing["table"]:
        assert w["owner"] in game["players"]


@PROPERTY_SETTINGS
@given(games(joust=True))
def test_a_joust_scores_face_values_and_the_domain_bonus(game):
    scored = run(game)
    values = dict(VALUES)
    values.update({k.upper(): v for k, v in game["options"].get("letter_values", {}).items()})
    face = dict.fromkeys(game["players"], 0)
    cards = dict.fromkeys(game["players"], 0)
    for raw, r in zip(game["rounds"], scored.rounds, strict=True):
        if "meld" in raw and not r.detail["void"]:
            face[raw["player"]] += sum(value_of(t, values) for t in raw["meld"].split())
            cards[raw["player"]] += len(raw["meld"].split())
    assert scored.standing["domains"] == cards
    bonus = dict.fromkeys(game["players"], 0)
    if scored.over:
        a, b = game["players"]
        if cards[a] == cards[b]:
            bonus = {a: 5, b: 5}
        else:
            bonus[a if cards[a] > cards[b] else b] = 10
    assert scored.totals == {p: face[p] + bonus[p] for p in game["players"]}


@PROPERTY_SETTINGS
@given(st.lists(card_tokens(), min_size=1, max_size=12), st.data())
def test_words_survive_format_and_parse_whatever_the_case_and_spacing(tokens, data):
    word = royalty.parse_word(" ".join(tokens))
    assert royalty.format_word(word) == " ".join(t[0] + t[1].upper() + t[2:] if t.startswith("*") else t
                                                 for t in tokens)
    messy = "".join(data.draw(st.sampled_from([str.lower, str.upper, str.swapcase]))(t)
                    + data.draw(st.sampled_from([" ", "  ", "\t"])) for t in tokens)
    assert royalty.parse_word(messy) == word
    assert royalty.parse_word(royalty.format_word(word)) == word
    assert word.text == "".join(t.lstrip("*")[0].upper() for t in tokens)


@PROPERTY_SETTINGS
@given(st.lists(card_tokens(), min_size=1, max_size=12),
       st.dictionaries(st.sampled_from(LETTERS + [x.lower() for x in LETTERS]), st.integers(0, 20), max_size=8))
def test_a_word_is_worth_the_sum_of_its_letters_with_knaves_at_zero(tokens, overrides):
    values = dict(VALUES)
    values.update({k.upper(): v for k, v in overrides.items()})
    word = royalty.parse_word(" ".join(tokens))
    assert royalty.word_value(word, royalty.letter_values(overrides)) == sum(value_of(t, values) for t in tokens)
    assert royalty.word_value(word) == sum(value_of(t, VALUES) for t in tokens)
    colours = {t[-1] for t in tokens if not t.startswith("*")}
    assert royalty.one_coloured(word) is (len(colours) <= 1)


@PROPERTY_SETTINGS
@given(st.lists(card_tokens(), min_size=25, max_size=25), st.data())
def test_monarchy_accounts_for_every_dealt_card(deal, data):
    deal = [t if not t.startswith("*") else "*" for t in deal]
    picked = data.draw(st.lists(st.integers(0, 24), unique=True, max_size=25))
    words, start = [], 0
    while start < len(picked):
        size = data.draw(st.integers(1, 8))
        words.append(" ".join(deal[i] if deal[i] != "*" else "*A" for i in picked[start:start + size]))
        start += size
    answer = royalty.monarchy(" ".join(deal), words)
    used = sum(len(w.split()) for w in words)
    assert answer["unused_count"] == 25 - used
    assert Counter(answer["unused"]) + Counter(t for i, t in enumerate(deal) if i in picked) == Counter(deal)
    # RY-16: each word must be a royalty and a word of the list; here a list that has every word made,
    # then the default list, which has few of these random letter strings.
    every = WordList(frozenset(royalty.parse_word(w).text for w in words), "a list of every word made")
    royal = [royalty.is_royalty(royalty.parse_word(w)) for w in words]
    answer = royalty.monarchy(" ".join(deal), words, every)
    assert answer["valid"] is all(royal)
    assert answer["solved"] is (all(royal) and used == 25)
    listed = [WordList.load_default().judge(royalty.parse_word(w).text).valid for w in words]
    by_default = royalty.monarchy(" ".join(deal), words)
    assert by_default["valid"] is all(r and w for r, w in zip(royal, listed, strict=True))
    assert [w["in_word_list"] for w in by_default["words"]] == listed


@PROPERTY_SETTINGS
@given(games())
def test_scoring_is_deterministic_and_leaves_its_input_alone(game):
    untouched = copy.deepcopy(game)
    first = run(game).as_json()
    assert game == untouched
    assert json.loads(json.dumps(first)) == first
    assert run(json.loads(json.dumps(game))).as_json() == first


@pytest.mark.parametrize("rounds, where", [
    # Cat, seated from turn 5, challenges Ben's word at turn 4 (RY-10).
    ([{"player": "Ann", "meld": "Cr Ar Tr"}, {"player": "Ben", "meld": "Dr Or Gr"},
      {"player": "Ann", "meld": "Br Ar Tr"},
      {"player": "Ben", "meld": "Rr Ar Tr", "challenge": {"by": "Cat", "upheld": False}}],
     "rounds[3].challenge.by"),
    # Cat, seated from turn 2, plays turn 1.
    ([{"player": "Cat", "meld": "Cr Ar Tr"}], "rounds[0].player"),
])
def test_a_player_not_yet_seated_is_refused_in_words_wherever_named(rounds, where):
    """A late player (joined) named in a turn before their seat: the turn is refused for it, in words."""
    seated_from = 5 if where.endswith("challenge.by") else 2
    request = {"game": "royalty", "players": ["Ann", "Ben", "Cat"], "options": {}, "rounds": rounds,
               "joined": {"Cat": seated_from}}
    with pytest.raises(InputError) as refused:
        registry.score(request)
    assert {"where": where, "message": f"Cat joins at turn {seated_from}, after this turn, and takes no part in it"} \
        in refused.value.as_json()["errors"]
