"""Scoring is a fold: for every game, a valid game scored hand after hand equals the full rescoring,
number for number and line for line of the why; and so does the game after an edit of an earlier
hand, refolded from that hand (tables.state_after), whose hands before it are not scored again."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import games
from companion.games.base import InputError
from companion.storage import tables
from companion.storage.tables import Event, Table
from tests import (
    test_alliance_royals,
    test_form_properties_royals,
    test_indian_rummy,
    test_rally_the_king,
    test_royalty,
    test_rummathon_royale,
    test_rummy_royal,
)

SETTINGS = settings(max_examples=60, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def royals_family(draw, game: str) -> dict[str, Any]:
    """Battle or Marriage Royals, round after round until it ends (BR-3, MR-5) or 1-4 rounds are in."""
    players = list(test_form_properties_royals.FAMILY[game])
    options = draw(st.sampled_from([{}, {"win_above": 400, "lose_below": -400}]))
    request = {"game": game, "players": players, "options": options, "rounds": []}
    for _ in range(draw(st.integers(1, 4))):
        if games.score(request).over:
            break
        request["rounds"].append({"players": draw(test_form_properties_royals.family_rounds(players))})
    return request


@st.composite
def rally_the_king(draw) -> dict[str, Any]:
    options, hands = draw(test_rally_the_king.games())
    return {"game": "rally-the-king", "players": test_rally_the_king.PLAYERS, "options": options, "rounds": hands}


@st.composite
def indian_rummy(draw) -> dict[str, Any]:
    variant = draw(st.sampled_from(["points", "pool101", "pool201", "deals"]))
    return {"game": "indian-rummy", **draw(test_indian_rummy.games(variant))}


@st.composite
def royalty(draw) -> dict[str, Any]:
    return {"game": "royalty", **draw(test_royalty.games(draw(st.booleans())))}


@st.composite
def rummy_royal(draw) -> dict[str, Any]:
    players, options, deals = draw(test_rummy_royal.games())
    return {"game": "rummy-royal", "players": players, "options": options, "rounds": deals}


VALID_GAMES = {
    "alliance-royals": test_alliance_royals.games(),
    "battle-royals": royals_family("battle-royals"),
    "marriage-royals": royals_family("marriage-royals"),
    "rally-the-king": rally_the_king(),
    "indian-rummy": indian_rummy(),
    "royalty": royalty(),
    "rummathon-royale": test_rummathon_royale.games(),
    "rummy-royal": rummy_royal(),
}


def test_every_game_has_its_valid_games():
    assert set(VALID_GAMES) == set(games.ENGINES)


def table_of(request: dict[str, Any]) -> Table:
    return Table(id="t", edit_key="k", game=request["game"], title="", players=tuple(request["players"]),
                 options=dict(request.get("options") or {}), created_at="")


def entered(rounds: list[Any]) -> tuple[Event, ...]:
    """The log of a table whose hands were entered one after the other."""
    return tuple(Event(n, "add", n, None, data, "", "") for n, data in enumerate(rounds, 1))


def outcome(work):
    """What scoring gives: the scored game as the API shows it, or the problems named."""
    try:
        return "scored", work().as_json()
    except InputError as refused:
        return "refused", refused.as_json()


@pytest.mark.parametrize("game", sorted(VALID_GAMES))
@SETTINGS
@given(data=st.data())
def test_folding_hand_after_hand_and_after_an_edit_equals_the_full_rescoring(game, data):
    request = data.draw(VALID_GAMES[game], label="game")
    rounds = list(request["rounds"])
    reference = games.score(request)
    assert games.fold(request) == reference  # every number and every line of the why
    table, log = table_of(request), entered(rounds)

    now = tables.state_after(table, (), None)
    for n in range(1, len(log) + 1):  # a table's evening: each version folded on from the one before
        before, now = now, tables.state_after(table, log[:n], now)
        assert now.folds[:n] == before.folds[:n] and all(a is b for a, b in zip(now.folds, before.folds[:n],
                                                                               strict=False))
    assert now.scored == reference
    assert now.scored.as_json() == reference.as_json()
    if not rounds:
        return

    # An edit of hand k: another hand of the game, or the same hand typed again, or a deletion.
    k = data.draw(st.integers(0, len(rounds) - 1), label="hand edited")
    kind = data.draw(st.sampled_from(["edit", "delete"]), label="change")
    replacement = data.draw(st.sampled_from(rounds), label="replacement")
    change = Event(len(log) + 1, kind, k + 1, None, replacement if kind == "edit" else None, "", "")
    edited = ([*rounds[:k], replacement, *rounds[k + 1:]] if kind == "edit" else [*rounds[:k], *rounds[k + 1:]])
    expected = outcome(lambda: games.score({**request, "rounds": edited}))
    assert outcome(lambda: tables.state_after(table, (*log, change), now).scored) == expected
    if expected[0] == "scored":
        after = tables.state_after(table, (*log, change), now)
        assert after.scored == games.score({**request, "rounds": edited})
        # Refolded from hand k: the game after the hands before it is the very state kept before.
        assert all(a is b for a, b in zip(after.folds[:k + 1], now.folds[:k + 1], strict=True))


def hand(out: str, other: str, low: int) -> dict[str, Any]:
    """A Rummathon Royale hand: ``out`` went out and ``other`` was left holding ``low`` low cards."""
    return {"out": out, "left": {other: {"low": low}}}


def test_a_table_folds_on_from_the_newest_state_kept_reading_only_the_events_after_it(tmp_path):
    """Another server process saved hands 4 and 5: this one folds them onto its state at hand 3."""
    from companion.storage import db

    conn = db.connect(str(tmp_path / "x.sqlite"))
    db.migrate(conn)
    hands = [hand("Ann", "Ben", 2), hand("Ben", "Ann", 1), hand("Ann", "Ben", 3)]
    table = tables.create_table(conn, "rummathon-royale", ["Ann", "Ben"], {}, rounds=hands)
    cache = tables.StateCache(8, 1 << 20)
    at_three = tables.state(conn, table, cache)
    other_process = tables.StateCache(8, 1 << 20)  # a second worker, with nothing kept
    for n, (out, other) in enumerate((("Ben", "Ann"), ("Ann", "Ben")), 4):
        tables.append(conn, table, n - 1, tables.Change("add", data=hand(out, other, 4)), cache=other_process)
    now = tables.state(conn, table, cache)
    assert now.version == 5 and cache.newest(table.id) is now
    # Hands 1-3 were not scored again: the folded game after them is the one kept at version 3.
    assert all(a is b for a, b in zip(now.folds[:4], at_three.folds, strict=True))
    whole = games.score(tables.request_for(table, [*hands, hand("Ben", "Ann", 4), hand("Ann", "Ben", 4)]))
    assert now.scored == whole
    # Ann collected 2 + 3 + 4 low cards at 5 points each (RR-1, RR-2): 45; Ben 1 + 4: 25.
    assert now.scored.totals == {"Ann": 45, "Ben": 25}


def test_an_edit_of_hand_two_through_the_log_refolds_from_hand_two(tmp_path):
    from companion.storage import db

    conn = db.connect(str(tmp_path / "x.sqlite"))
    db.migrate(conn)
    hands = [hand("Ann", "Ben", 2), hand("Ben", "Ann", 1), hand("Ann", "Ben", 3)]
    table = tables.create_table(conn, "rummathon-royale", ["Ann", "Ben"], {}, rounds=hands)
    cache = tables.StateCache(8, 1 << 20)
    before = tables.state(conn, table, cache)
    _, scored = tables.append(conn, table, 3, tables.Change("edit", 2, hand("Ben", "Ann", 6)), cache=cache)
    after = cache.get((table.id, 4))
    assert after.folds[:2] == before.folds[:2] and after.folds[2] is not before.folds[2]
    assert all(a is b for a, b in zip(after.folds[:2], before.folds[:2], strict=True))
    # Ann 2 + 3 low cards = 25 (RR-1); Ben now collected 6 low cards in hand 2: 30.
    assert scored.totals == {"Ann": 25, "Ben": 30} == games.score(tables.request_for(
        table, [hands[0], hand("Ben", "Ann", 6), hands[2]])).totals


def test_the_state_cache_is_bounded_in_bytes_counting_what_each_version_adds(tmp_path):
    from companion.storage import db

    conn = db.connect(str(tmp_path / "x.sqlite"))
    db.migrate(conn)
    table = tables.create_table(conn, "rummathon-royale", ["Ann", "Ben"], {})
    cache = tables.StateCache(512, 100_000)
    for n in range(1, 21):
        tables.append(conn, table, n - 1, tables.Change("add", data=hand("Ann" if n % 2 else "Ben",
                                                                        "Ben" if n % 2 else "Ann", 1)), cache=cache)
    assert cache.bytes <= 100_000 and 1 < len(cache) < 20
    assert cache.newest(table.id).version == 20
