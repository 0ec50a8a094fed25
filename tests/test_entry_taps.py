"""The entry forms' rows of choices to tap, read into the JSON the engines score.

Worked by hand:
  Rummathon Royale (RR-2, RR-3), Ann, Ben, Cat, Dan: Ann goes out; Ben holds 3 low cards (15).
    Cat's Burden on Dan, completed: Dan +50. Ann's Double Burden on Ben, failed: Ann +100.
    Totals Ann 115, Ben 0, Cat 0, Dan 50.
  Rummy Royal (RM-3, RM-4), Ann, Ben, Cat, Dan, 100 chips each: antes of 1 on each of the nine
    spaces, 4 chips a space. Cat held K♥ and Q♥ (the Marriage row): the K♥, Q♥ and Marriage
    spaces, 12 chips.
"""

from __future__ import annotations

import pytest

from companion.entry import ENTRY
from companion.entry import rummathon_royale as rr_entry
from companion.games import score
from companion.storage import tables
from tests.test_entry_properties import run_entry

PLAYERS = ("Ann", "Ben", "Cat", "Dan")


# ---------------------------------------------------------------------------------------
# Rummathon Royale: a Burden row on each player


def test_a_burden_row_on_each_player_reaches_the_hand_in_seat_order(app):
    hand, errors, other = run_entry(app, "rummathon-royale", PLAYERS, {}, {
        "out": "Ann", "p1_low": "3", "burden3": "2:completed", "burden1": "0:failed", "burden1_double": "y"})
    assert not errors and not other
    assert hand["burdens"] == [
        {"on": "Ben", "by": "Ann", "double": True, "completed": False},
        {"on": "Dan", "by": "Cat", "double": False, "completed": True},
    ]
    scored = score(tables.request_for(tables.new_table("rummathon-royale", PLAYERS, {}), [hand]))
    assert scored.totals == {"Ann": 115, "Ben": 0, "Cat": 0, "Dan": 50}


def test_the_older_list_of_burdens_is_scored_as_sent(app):
    """A hand saved by the page before the rows (waiting on a phone offline, or a script) keeps
    its Burden on the player it names, beside the rows of the new form."""
    new, _, _ = run_entry(app, "rummathon-royale", PLAYERS, {}, {
        "out": "Ann", "p1_low": "3", "burden3": "2:completed"})
    old, errors, other = run_entry(app, "rummathon-royale", PLAYERS, {}, {
        "out": "Ann", "p1_low": "3", "b0_on": "Dan", "b0_by": "Cat", "b0_result": "completed"})
    assert not errors and not other
    assert old == new


def test_a_double_ticked_without_its_player_is_asked_for_beside_the_row(app):
    _, errors, _ = run_entry(app, "rummathon-royale", PLAYERS, {}, {"out": "Ann", "burden2_double": "y"})
    assert "say who played the Burden (RR-3)" in errors["burden2"]


@pytest.mark.parametrize("tapped", ["2:completed", "0:failed", "9:failed", "x", "1:maybe"])
def test_a_burden_row_answers_every_value_in_words(app, tapped):
    """Only the choices drawn reach the game; anything else (a hand-made post) is refused beside the row."""
    hand, errors, other = run_entry(app, "rummathon-royale", PLAYERS, {}, {"out": "Ann", "burden1": tapped})
    if tapped in ("2:completed", "0:failed"):
        assert not errors and not other and hand["burdens"][0]["on"] == "Ben"
    else:
        assert errors["burden1"] == ["Not a valid choice."]


def test_a_stored_hand_comes_back_in_its_rows(app):
    hand = {"out": "Ann", "left": {"Ben": {"low": 3}},
            "progress": {"Ben": "completed", "Cat": "declared-failed"},
            "burdens": [{"on": "Dan", "by": "Cat", "double": False, "completed": True},
                        {"on": "Ben", "by": "Ann", "double": True, "completed": False}]}
    table = tables.new_table("rummathon-royale", PLAYERS, {})
    with app.test_request_context():
        form = rr_entry.round_form(table, data=hand)
        assert form.out.data == "Ann"
        assert (form.burden3.data, form.burden3_double.data) == ("2:completed", False)
        assert (form.burden1.data, form.burden1_double.data) == ("0:failed", True)
        assert not any(rr_entry.burden_used(form, j) for j in range(4))
        assert rr_entry.round_from(form, table)["burdens"] == sorted(hand["burdens"], key=lambda b: b["on"])


# ---------------------------------------------------------------------------------------
# Rummy Royal: who went out as a row, the Marriage row


def test_the_marriage_row_stands_for_the_king_and_queen_of_hearts(app):
    deal, errors, other = run_entry(app, "rummy-royal", PLAYERS, {}, {"marriage": "Cat", "out": "Ann"})
    assert not errors and not other
    assert (deal["pay_cards"]["KH"], deal["pay_cards"]["QH"]) == ("Cat", "Cat")
    table = tables.new_table("rummy-royal", PLAYERS, {})
    scored = score(tables.request_for(table, [deal]))
    assert scored.totals["Cat"] == 100 - 9 + 12  # nine antes, then K♥, Q♥ and the Marriage
    with app.test_request_context():
        form = ENTRY["rummy-royal"].round_form(table, data=deal)
        assert form.marriage.data == ["Cat"]


def test_the_marriage_row_against_another_holder_of_the_king_is_answered_beside_the_king(app):
    _, errors, _ = run_entry(app, "rummy-royal", PLAYERS, {}, {"marriage": "Cat", "pay_KH": "Ann", "out": "Ben"})
    assert any("only one player can have held it" in m for m in errors["pay_KH"])


@pytest.mark.parametrize(("out", "field", "says"), [
    ("Zed", "out", "“Zed” is not a player at this table (Ann, Ben, Cat, Dan)"),
    ("", "out", "name the player who went out in the Michigan stage (RM-6)"),
])
def test_who_went_out_is_asked_for_in_words(app, out, field, says):
    _, errors, _ = run_entry(app, "rummy-royal", PLAYERS, {}, {"out": out} if out else {})
    assert errors[field] == [says]  # once, in the game's words


# ---------------------------------------------------------------------------------------
# Indian Rummy: the picker's pack


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_the_indian_rummy_grid_has_each_card_of_the_pack_once_and_a_joker(decks):
    pack = ENTRY["indian-rummy"].pack(decks)
    cards = [cell[0] for row in pack["grid"] for cell in row if cell]
    assert len(cards) == len(set(cards)) == 53
    assert set(cards) == {r + s for r in pack["ranks"] for s in "SHDC"} | {"JK"}
    assert pack["copies"] == dict.fromkeys(pack["ranks"], decks) and pack["card_copies"] == {"JK": decks}
    assert pack["hand_size"] == 13  # IR-5


def test_not_completed_beside_a_completed_burden_row_is_refused_not_overridden(app):
    """A completed Burden lays its target's round down (RR-3, RR-5): "not completed" tapped for
    Dan beside it contradicts the entry, and is answered beside Dan's round."""
    _, errors, _ = run_entry(app, "rummathon-royale", PLAYERS, {}, {
        "out": "Ann", "burden3": "2:completed", "p0_progress": "completed", "p3_progress": "failed"})
    assert list(errors) == ["p3_progress"]
    assert "RR-" in errors["p3_progress"][0]
