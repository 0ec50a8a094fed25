"""Battle Royals and Marriage Royals: the worked examples in cases/battle_royals.toml and
cases/marriage_royals.toml, and properties of the one engine they share (games/royals.py).

Every number in the examples was worked by hand from RULINGS.md BR-1 to BR-3 and MR-1 to
MR-6 (with the AR rulings they keep); each case names its rulings. The properties deal
random rounds from the real 100-card pack.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import score
from tests.casebook import ERROR_KEYS, assert_error, check_case, check_outcome, ids, load

AR_RULINGS = {f"AR-{n}" for n in range(1, 14)}
BOOKS = {
    "battle-royals": (load("battle_royals.toml")["case"], ["Ann", "Ben"], {"BR-1", "BR-2", "BR-3"}),
    "marriage-royals": (load("marriage_royals.toml")["case"], ["Ann", "Ben", "Cat"],
                        {f"MR-{n}" for n in range(1, 7)} | {"BR-3"}),
}
OUTCOME_KEYS = {"points", "totals", "over", "winners", "notes", "explain_has", "marriages"}
CASE_KEYS = {"name", "rulings", "players", "options", "rounds"} | OUTCOME_KEYS | ERROR_KEYS
ALL = [(game, case) for game, (cases, _, _) in BOOKS.items() for case in cases]
ALL_IDS = [f"{game}-{name}" for game, (cases, _, _) in BOOKS.items() for name in ids(cases)]

#: AR-1 written out again so the properties do not lean on the engine's tables.
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["S", "H", "D", "C"]
TRIPLED = {"9", "10", "J", "Q", "K", "A"}
PACK = [rank + suit for suit in SUITS for rank in RANKS for _ in range(3 if rank in TRIPLED else 1)]


def request_for(game: str, case: dict[str, Any]) -> dict[str, Any]:
    return {"game": game, "players": case.get("players", BOOKS[game][1]), "options": case.get("options", {}),
            "rounds": case.get("rounds", [])}


def marriage_text(m: dict[str, Any]) -> str:
    text = f"{m['holder']} {'+'.join(m['cards'])} -> {', '.join(m['spouses'])}"
    if "nullified_by" in m:
        text += f" nullified by {m['nullified_by']['holder']} {m['nullified_by']['card']}"
    return text


def test_the_books_have_the_cases_asked_for():
    battle, marriage = BOOKS["battle-royals"][0], BOOKS["marriage-royals"][0]
    assert len(battle) >= 15
    assert len(marriage) >= 20
    for book in (battle, marriage):
        assert len(set(ids(book))) == len(book)


@pytest.mark.parametrize(("game", "case"), ALL, ids=ALL_IDS)
def test_case(game, case):
    rulings = BOOKS[game][2] | AR_RULINGS
    request = request_for(game, case)
    if check_case(case, CASE_KEYS, rulings, OUTCOME_KEYS):
        assert_error(lambda: score(request), case["error_where"], case["error_says"])
        return
    played = score(request)
    assert [r.points for r in played.rounds] == case["points"]
    totals = {p: sum(r[p] for r in case["points"]) for p in request["players"]}
    assert played.totals == case.get("totals", totals) == totals
    check_outcome(played, case)
    assert played.sides is None
    if played.over:
        assert ("MR-6" if game == "marriage-royals" else "BR-3") in played.reason
    first = played.rounds[0]
    for name, words in case.get("notes", {}).items():
        assert any(words in note for note in first.detail["players"][name]["notes"])
    for name, words in case.get("explain_has", {}).items():
        assert any(words in line for line in first.explain[name]), first.explain[name]
    if "marriages" in case:
        assert [marriage_text(m) for m in first.detail["marriages"]] == case["marriages"]
    for scored in played.rounds:
        for name in request["players"]:
            for line in scored.explain[name]:
                assert re.search(r"\((?:AR|BR|MR)-\d+(, (?:AR|BR|MR)-\d+)*\)\.?$", line), line


def test_scores_come_out_of_the_api_as_json(client):
    battle = BOOKS["battle-royals"][0][1]
    answer = client.post("/api/v1/score", json=request_for("battle-royals", battle))
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["sides"] is None and "side_totals" not in body
    assert body["rounds"][0]["points"] == {"Ann": 30, "Ben": 10}
    assert body["rounds"][0]["detail"]["players"]["Ann"]["multiplier"] == 2
    refused = client.post("/api/v1/score", json=request_for("battle-royals", BOOKS["battle-royals"][0][-3]))
    assert refused.status_code == 422


# ---------------------------------------------------------------------------------------
# Properties


def dealt(draw, players: list[str]) -> dict[str, Any]:
    """A round dealt from the pack: each player's House and random Spoils, Meld and Hand."""
    cards = draw(st.permutations(PACK))
    sizes = draw(st.lists(st.integers(0, 10), min_size=3 * len(players), max_size=3 * len(players)))
    boards, at = {}, 0
    for i, name in enumerate(players):
        board: dict[str, Any] = {"house": draw(st.sampled_from(SUITS))}
        for j, zone in enumerate(("spoils", "meld", "hand")):
            n = sizes[3 * i + j]
            board[zone] = cards[at:at + n]
            at += n
        boards[name] = board
    return {"players": boards}


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_battle_royals_score_is_natural_times_one_plus_sets(data):
    rnd = dealt(data.draw, ["Ann", "Ben"])
    played = score({"game": "battle-royals", "players": ["Ann", "Ben"], "rounds": [rnd]})
    for name, board in rnd["players"].items():
        d = played.rounds[0].detail["players"][name]
        own = Counter(c[:-1] for c in board["spoils"] if c[-1] == board["house"])
        sets = min(own["K"], own["Q"], own["J"])  # BR-2: only the player's own Spoils
        assert d["royal_sets"] == sets
        assert played.rounds[0].points[name] == d["natural"] * (1 + sets)


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(["positive", "none"]))
def test_each_marriage_adds_one_to_its_holder_and_one_to_each_spouse(data, share):
    players = ["Ann", "Ben", "Cat"]
    rnd = dealt(data.draw, players)
    played = score({"game": "marriage-royals", "players": players, "options": {"share": share},
                    "rounds": [rnd]})
    detail = played.rounds[0].detail
    counted = [m for m in detail["marriages"] if m["counted"]]
    for name in players:
        d = detail["players"][name]
        holder = sum(1 for m in counted if m["holder"] == name)
        spouse = sum(1 for m in counted if name in m["spouses"])
        assert d["multiplier"] == 1 + d["royal_sets"] + holder + spouse
        assert d["before_sharing"] == d["natural"] * d["multiplier"]
        if share == "none":
            assert played.rounds[0].points[name] == d["before_sharing"]
        else:
            assert played.rounds[0].points[name] >= d["before_sharing"]
            assert all(v > 0 for v in d["shared"].values())
    for m in detail["marriages"]:
        houses = {detail["players"][p]["house"] for p in m["spouses"]}
        assert houses == {m["cards"][1][-1]} != {detail["players"][m["holder"]]["house"]}
    assert detail["no_marriage"] == (not counted)
