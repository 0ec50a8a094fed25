"""What the case books (tests/cases/*.toml) share: reading a book, naming its cases as test
ids, and checking that a case's expected problem is the one the engine reports."""

from __future__ import annotations

import copy
import json
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from companion.games.base import InputError, ScoredGame

CASES_DIR = Path(__file__).parent / "cases"
#: The keys of a case that expects a refusal: where the problem is, and what its message says.
ERROR_KEYS = {"error_where", "error_says"}


def load(name: str) -> dict[str, Any]:
    """A whole book, by its file name under tests/cases/."""
    with (CASES_DIR / name).open("rb") as f:
        return tomllib.load(f)


def slug(text: str) -> str:
    """A case name as a test id.

    >>> slug("The API example scores Ann 135, Ben -20")
    'the-api-example-scores-ann-135-ben-20'
    >>> slug("EAR to EARS warns: a mere inflection")
    'ear-to-ears-warns-a-mere-inflection'
    """
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def ids(cases: Iterable[Mapping[str, Any]]) -> list[str]:
    return [slug(c["name"]) for c in cases]


def assert_error(call: Callable[[], object], where: str, says: str) -> None:
    """``call`` raises InputError with a problem at ``where`` whose message contains ``says``."""
    with pytest.raises(InputError) as caught:
        call()
    problems = caught.value.problems
    matching = [p for p in problems if p.where == where]
    assert matching, f"no problem at {where}: {problems}"
    assert any(says in p.message for p in matching), problems


def cited(cases: Iterable[Mapping[str, Any]]) -> set[str]:
    """Every ruling the cases cite: a book has a worked example of each ruling of its game."""
    return {ruling for case in cases for ruling in case["rulings"]}


def worked_example(case: Mapping[str, Any], play: Callable[[], ScoredGame], rounds: str) -> ScoredGame | None:
    """The game ``play`` scores for ``case``, checked as every book expects: a scored round for each of the
    case's ``rounds`` (the key its rounds go under), and its outcome (:func:`check_outcome`). None when the
    case expects a refusal instead, which is checked to be the one it names (:func:`assert_error`)."""
    if "error_where" in case:
        assert_error(play, case["error_where"], case["error_says"])
        return None
    game = play()
    assert len(game.rounds) == len(case[rounds])
    check_outcome(game, case)
    return game


def check_outcome(game: ScoredGame, case: Mapping[str, Any]) -> None:
    """What a case expects of the game it scores, where it says so: each round's points (and the sides'),
    the totals (the sides' too, and the sides themselves); and always the end: over or not as the case
    says (not over when it says nothing), its winners, and a reason exactly when the game is over."""
    if "points" in case:
        assert [r.points for r in game.rounds] == case["points"]
    if "side_points" in case:
        assert [r.side_points for r in game.rounds] == case["side_points"]
    if "totals" in case:
        assert game.totals == case["totals"]
    if "side_totals" in case:
        assert game.side_totals == case["side_totals"]
    if "sides" in case:
        assert game.sides == case["sides"]
    assert game.over is case.get("over", False)
    assert list(game.winners) == case.get("winners", [])
    assert (game.reason is not None) == game.over


def check_lines_cite(game: ScoredGame, players: Iterable[str], cites: re.Pattern[str]) -> None:
    """Every player has lines explaining every round, and each line ends citing its rulings (``cites``)."""
    for scored in game.rounds:
        for name in players:
            assert scored.explain[name], f"{name} has no line explaining a round"
            for line in scored.explain[name]:
                assert cites.search(line), line


def check_repeatable(request: Mapping[str, Any], score: Callable[[Any], ScoredGame]) -> None:
    """Scoring leaves the request as it was, its answer survives JSON, and the request read back from JSON
    (the same game) scores to the same answer again."""
    untouched = copy.deepcopy(request)
    first = score(request).as_json()
    assert request == untouched, "scoring must not change its input"
    assert json.loads(json.dumps(first)) == first
    again = json.loads(json.dumps(request))
    assert again == request
    assert score(again).as_json() == first


def check_case(case: Mapping[str, Any], keys: set[str], rulings: set[str], outcome_keys: set[str]) -> bool:
    """What every book asks of a case: known keys only, rulings that exist, and either an
    expected error or an outcome, never both. True when the case expects an error."""
    assert set(case) <= keys, f"unknown keys {set(case) - keys}"
    assert case["rulings"], "every case names at least one ruling"
    assert set(case["rulings"]) <= rulings, f"no such ruling: {set(case['rulings']) - rulings}"
    if not ERROR_KEYS & set(case):
        return False
    assert set(case) >= ERROR_KEYS
    assert not (outcome_keys & set(case)), "a case expects an outcome or an error, not both"
    return True
