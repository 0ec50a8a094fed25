"""Properties of the entry forms of Rally the King, Rummathon Royale and Indian Rummy: a random
submission of the fields a player can see is read into the JSON the engine scores, and no filled
field is dropped: each one reaches the JSON, or the player gets a message beside it.

Each game's ``reaches(name, value, data)`` says, from the API's shape (docs/api.md), where a field's
value shows in the round's JSON; the pipeline is the web form's own (companion/views/tables.py):
the form's checks, then the game's, each problem beside its field.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from companion.entry import ENTRY, split_where
from companion.games import InputError, score
from companion.games import rally_the_king as rk
from companion.storage import tables

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def run_entry(app, game: str, players: tuple[str, ...], options: dict[str, Any], fields: dict[str, str]):
    """The web form's pipeline on one submission: (the round's JSON, {field: messages}, other messages)."""
    entry = ENTRY[game]
    table = tables.new_table(game, players, options)
    with app.test_request_context(method="POST", data=fields):
        form = entry.round_form(table, formdata=MultiDict(fields))
        extra = getattr(entry, "validate_extra", lambda form: True)
        form.validate() & extra(form)
        data = entry.round_from(form, table)
        errors = {f.short_name: list(f.errors) for f in form if f.errors}
        other = []
        try:
            score(tables.request_for(table, [data]))
        except InputError as err:
            for problem in err.problems:
                _, rest = split_where(problem.where)
                name = entry.field_for(rest, table, form)
                if name:
                    errors.setdefault(name, []).append(problem.message)
                else:
                    other.append(problem.message)
    return data, errors, other


def assert_nothing_dropped(filled: dict[str, str], data: dict[str, Any], errors: dict[str, list[str]],
                           reaches) -> None:
    for name, value in filled.items():
        assert name in errors or reaches(name, value, data), (name, value, data, errors)


# ---------------------------------------------------------------------------------------
# Rally the King

RK_PLAYERS = ("Ann", "Ben", "Cat", "Dan")
_points = st.one_of(st.integers(0, 130).map(str), st.sampled_from(["35 2/3", "lots", "-3", "64.5"]))
_count = st.one_of(st.just(""), st.integers(0, 40).map(str), st.sampled_from(["x", "-1"]))


@st.composite
def rk_hands(draw) -> dict[str, str]:
    bid = rk.BIDS[draw(st.sampled_from(sorted(rk.BIDS)))]
    fields = {"dealer": draw(st.sampled_from(RK_PLAYERS)), "bid": bid.slug}
    maybe = lambda strategy: draw(st.one_of(st.just(""), strategy))  # noqa: E731
    if bid.kind != "all-beggars":
        fields["declarer"] = maybe(st.sampled_from(RK_PLAYERS))
    if bid.partner:
        fields["called_king"] = maybe(st.sampled_from(["KS", "KH", "KD", "KC"]))
        fields["partner"] = maybe(st.sampled_from(["alone", *RK_PLAYERS]))
    if bid.kind == "points":
        if draw(st.booleans()):
            fields["declarer_points"] = draw(_points)
        if draw(st.booleans()):
            for kind in rk.CARDS_FIELDS:
                fields[f"c_{kind}"] = draw(_count)
        if bid.bird:
            fields["bird"] = maybe(st.sampled_from(sorted(rk.BIRDS)))
            fields["bird_made"] = maybe(st.sampled_from(["yes", "no"]))
        for slug in draw(st.lists(st.sampled_from(sorted(rk.BONUSES)), max_size=3, unique=True)):
            fields[f"bo_{slug}_side"] = draw(st.sampled_from(["declarer", "defenders"]))
            if draw(st.booleans()):
                fields[f"bo_{slug}_announced"] = "y"
            if draw(st.booleans()):
                fields[f"bo_{slug}_made"] = "y"
    elif bid.kind in ("tricks", "beggar"):
        fields["declarer_tricks"] = maybe(st.integers(0, 13).map(str))
    else:
        for i in range(4):
            fields[f"pp_{i}"] = maybe(_points)
    return {k: v for k, v in fields.items() if v != ""}


def rk_reaches(name: str, value: str, hand: dict[str, Any]) -> bool:
    if name in ("dealer", "bid", "declarer", "called_king", "bird"):
        return hand.get(name) == value
    if name == "partner":
        return hand.get("partner") == (None if value == "alone" else value) and "partner" in hand
    if name == "declarer_points":
        return str(hand.get("declarer_points")) == value.strip()
    if name.startswith("c_"):
        return str((hand.get("declarer_cards") or {}).get(name[2:])) == value
    if name == "declarer_tricks":
        return str(hand.get("declarer_tricks")) == value
    if name == "bird_made":
        return any(b["bonus"] == hand.get("bird") and b["side"] == "declarer" and b["made"] == (value == "yes")
                   for b in hand.get("bonuses", []))
    if name.startswith("pp_"):
        return str(hand["player_points"][RK_PLAYERS[int(name[3:])]]) == value.strip()
    if name.startswith("bo_"):
        slug, part = name[3:].rsplit("_", 1)
        rows = [b for b in hand.get("bonuses", []) if b["bonus"] == slug]
        if part == "side":
            return any(b["side"] == value for b in rows)
        return any(b[part] for b in rows)
    return False


@SETTINGS
@given(fields=rk_hands())
def test_rally_the_king_every_filled_field_reaches_the_hand_or_gets_a_message(app, fields):
    data, errors, other = run_entry(app, "rally-the-king", RK_PLAYERS, {}, fields)
    assert_nothing_dropped(fields, data, errors, rk_reaches)
    assert not other, (fields, other)  # every problem of the hand is beside a field
    if not errors:  # a valid submission is the JSON the engine scores
        game = score({"game": "rally-the-king", "players": list(RK_PLAYERS), "options": {}, "rounds": [data]})
        assert sum(game.totals.values()) == 0


@pytest.mark.parametrize(("fields", "field"), [
    # The cases first reported: typed points beside counted cards, and a blank partner.
    ({"bid": "solo", "declarer": "Ben", "declarer_points": "64", "c_kings": "0"}, "declarer_points"),
    ({"bid": "solo", "declarer": "Ben", "declarer_points": "58", "c_honours": "3", "c_kings": "4"}, "c_kings"),
    ({"bid": "partner", "declarer": "Ben", "declarer_points": "70"}, "partner"),
    ({"bid": "partner", "declarer": "Ben", "declarer_points": "70", "partner": "Cat"}, "called_king"),
])
def test_rally_the_king_refuses_what_it_used_to_guess(app, fields, field):
    _, errors, _ = run_entry(app, "rally-the-king", RK_PLAYERS, {}, {"dealer": "Ann", **fields})
    assert field in errors


def test_a_called_king_given_as_its_suit_alone(app):
    # RK-5: H is the King of Hearts. Ben and Dan (2 against 2) reach 70 in a partner contract (1): +1 each.
    data, errors, _ = run_entry(app, "rally-the-king", RK_PLAYERS, {}, {
        "dealer": "Ann", "bid": "partner", "declarer": "Ben", "called_king": "KH", "partner": "Dan",
        "declarer_points": "70"})
    assert not errors
    data["called_king"] = "H"
    game = score({"game": "rally-the-king", "players": list(RK_PLAYERS), "options": {}, "rounds": [data]})
    assert game.totals == {"Ann": -1, "Ben": 1, "Cat": -1, "Dan": 1}
    assert game.rounds[0].detail["called_king"] == "KH"


# ---------------------------------------------------------------------------------------
# Rummathon Royale

RR_PLAYERS = ("Ann", "Ben", "Cat")
RR_CLASSES = ("low", "high", "action", "sabotage", "flex")


@st.composite
def rr_hands(draw) -> dict[str, str]:
    fields = {"out": draw(st.sampled_from(["", *RR_PLAYERS]))}
    for i in range(3):
        for kind in RR_CLASSES:
            fields[f"p{i}_{kind}"] = draw(st.one_of(st.just(""), st.integers(0, 8).map(str)))
        fields[f"p{i}_progress"] = draw(st.sampled_from(["failed", "completed", "declared-completed",
                                                         "declared-failed"]))
    for i in range(3):  # a Burden on each player: one tap for who played it and how it ended (RR-3)
        by = draw(st.sampled_from(["", *(str(k) for k in range(3) if k != i)]))
        if by:
            fields[f"burden{i}"] = f"{by}:{draw(st.sampled_from(['completed', 'failed']))}"
        if draw(st.integers(0, 4)) == 0:
            fields[f"burden{i}_double"] = "y"
    for j in range(draw(st.integers(0, 2))):  # the older list of Burdens, still accepted
        fields[f"b{j}_on"] = draw(st.sampled_from(["", *RR_PLAYERS]))
        fields[f"b{j}_by"] = draw(st.sampled_from(["", *RR_PLAYERS]))
        fields[f"b{j}_result"] = draw(st.sampled_from(["", "completed", "failed"]))
        if draw(st.booleans()):
            fields[f"b{j}_double"] = "y"
    return {k: v for k, v in fields.items() if v not in ("", "0")}


def rr_reaches(name: str, value: str, hand: dict[str, Any]) -> bool:
    if name == "out":
        return hand.get("out") == value
    player, _, part = name.partition("_")
    if name.startswith("p"):
        who = RR_PLAYERS[int(player[1:])]
        if part == "progress":
            return value == "failed" or hand.get("progress", {}).get(who) == value
        return str(hand.get("left", {}).get(who, {}).get(part)) == value
    burdens = hand.get("burdens", [])
    if name.startswith("burden"):
        on = RR_PLAYERS[int(player[len("burden"):])]
        if part == "double":
            return any(b.get("on") == on and b.get("double") is True for b in burdens)
        by, _, result = value.partition(":")
        return any(b.get("on") == on and b.get("by") == RR_PLAYERS[int(by)]
                   and b.get("completed") is (result == "completed") for b in burdens)
    key = {"on": "on", "by": "by", "double": "double", "result": "completed"}[part]
    want = {"completed": True, "failed": False}.get(value, value == "y") if part in ("result", "double") else value
    return any(b.get(key) == want for b in burdens)


@SETTINGS
@given(fields=rr_hands())
def test_rummathon_royale_every_filled_field_reaches_the_hand_or_gets_a_message(app, fields):
    data, errors, other = run_entry(app, "rummathon-royale", RR_PLAYERS, {}, fields)
    assert_nothing_dropped(fields, data, errors, rr_reaches)
    assert not other, (fields, other)


def test_a_burden_without_its_player_is_asked_for(app):
    _, errors, _ = run_entry(app, "rummathon-royale", RR_PLAYERS, {}, {
        "out": "Ann", "b0_on": "Ben", "b0_result": "failed"})
    assert errors["b0_by"] == ["say who played the Burden (RR-3)"]


# ---------------------------------------------------------------------------------------
# Indian Rummy

IR_PLAYERS = ("Ann", "Ben", "Cat")
_cards = st.lists(st.sampled_from(["AH", "2H", "3H", "KS", "QD", "JK", "10C", "7S", "ZZ"]), max_size=14)


@st.composite
def ir_deals(draw) -> dict[str, str]:
    winner = draw(st.sampled_from(IR_PLAYERS))
    fields = {"wild": draw(st.sampled_from(["7", "JK", "A"])), "winner": winner}
    for i, name in enumerate(IR_PLAYERS):
        mode = "groups" if name == winner else draw(st.sampled_from(["count", "groups", "cards", "first",
                                                                      "middle", "wrong_show"]))
        if name != winner:
            fields[f"p{i}_mode"] = mode
        if mode == "count":
            fields[f"p{i}_count"] = draw(st.integers(0, 90).map(str))
        elif mode == "cards":
            fields[f"p{i}_cards"] = " ".join(draw(_cards))
        elif mode == "groups":
            fields[f"p{i}_groups"] = " | ".join(" ".join(g) for g in draw(st.lists(_cards, max_size=4)))
            if name != winner or draw(st.booleans()):
                fields[f"p{i}_loose"] = " ".join(draw(_cards))
    return {k: v for k, v in fields.items() if v.strip(" |")}


def ir_reaches(name: str, value: str, deal: dict[str, Any]) -> bool:
    if name in ("wild", "winner"):
        return deal.get(name) == value
    player, _, part = name.partition("_")
    hand = deal["hands"].get(IR_PLAYERS[int(player[1:])], {})
    if part == "mode":
        key = {"count": "count", "groups": "groups", "cards": "cards", "first": "drop", "middle": "drop",
               "wrong_show": "wrong_show"}[value]
        return key in hand
    if part == "count":
        return str(hand.get("count")) == value
    if part == "groups":
        return " ".join(c for g in hand.get("groups", []) for c in g) == " ".join(value.replace("|", " ").split())
    return " ".join(hand.get(part, [])) == " ".join(value.split())


@SETTINGS
@given(fields=ir_deals())
def test_indian_rummy_every_filled_field_reaches_the_deal_or_gets_a_message(app, fields):
    data, errors, other = run_entry(app, "indian-rummy", IR_PLAYERS, {"variant": "points"}, fields)
    assert_nothing_dropped(fields, data, errors, ir_reaches)
    assert not other, (fields, other)
