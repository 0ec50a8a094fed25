"""A kept form after a clash follows the table: phone B's form was opened before phone A
saved a round; its save is refused (409) with the input kept, and what the table had chosen for the
form (the dealer, whose turn, who is out of the pool, each player's House) is what the table chooses
now, while every value the player typed stays. Each case is worked by hand from the ruling cited."""

from __future__ import annotations

import re

import pytest
from wtforms import BooleanField

from companion.entry import ENTRY
from companion.storage import tables
from companion.storage.db import get_db

#: (game, players, options, the round phone A saved, phone B's round as typed, the field the table
#: chooses, its value when phone B opened the form, its value now, what phone B typed that must stay)
CLASHES = [
    pytest.param(
        "rally-the-king", ("Ann", "Ben", "Cat", "Dan"), {},
        {"dealer": "Ann", "bid": "solo", "declarer": "Ann", "declarer_points": 64},
        {"dealer": "Ann", "bid": "solo", "declarer": "Cat", "declarer_points": 40},
        "dealer", "Ann", "Ben",  # RK-10: the deal passes left, from Ann to Ben
        {"declarer": "Cat", "declarer_points": "40"}, id="rally-the-king"),
    pytest.param(
        "rummy-royal", ("Ann", "Ben", "Cat"), {"poker": False},
        {"dealer": "Ann", "out": "Ann", "cards_left": {"Ben": 2, "Cat": 5}},
        {"out": "Cat", "cards_left": {"Ann": 1, "Ben": 3}},
        "dealer", "Ann", "Ben",  # RM-3: Ann dealt the first deal, Ben deals the second
        {"out": "Cat"}, id="rummy-royal"),
    pytest.param(
        "royalty", ("Ann", "Ben"), {},
        {"player": "Ann", "pass": True},
        {"player": "Ann", "meld": "Ar Lr Eb"},
        "player", "Ann", "Ben",  # RY-9: Ann passed, so the turn is Ben's
        {"meld": "Ar Lr Eb"}, id="royalty"),
    pytest.param(
        "indian-rummy", ("Ann", "Ben", "Cat"), {"variant": "pool101"},
        {"wild": "J", "winner": "Cat", "hands": {"Ben": {"count": 21}, "Ann": {"drop": "first"}}},
        {"wild": "8", "winner": "Ann", "hands": {"Ben": {"count": 10}, "Cat": {"count": 30}}},
        "p1_mode", "count", "out",  # IR-9: Ben 80 + 21 = 101, out of the pool
        {"wild": "8", "winner": "Ann", "p2_count": "30"}, id="indian-rummy"),
    pytest.param(
        "alliance-royals", ("Ann", "Ben", "Cat", "Dan"), {},
        {"players": {"Ann": {"house": "S", "meld": ["6S", "6H", "6D"]}, "Ben": {"house": "H"},
                     "Cat": {"house": "D"}, "Dan": {"house": "C"}}},
        {"players": {"Ann": {"meld": ["9C"]}, "Ben": {}, "Cat": {}, "Dan": {}}},
        "p2_house", None, "D",  # AR-7: each player keeps the House of the round before
        {"p0_meld": "9C"}, id="alliance-royals"),
]

#: Indian Rummy's pool starts from a first deal that both phones saw: Ben 80 (IR-9).
FIRST_DEALS = {"indian-rummy": [
    {"wild": "6", "winner": "Ann", "hands": {"Ben": {"count": 80}, "Cat": {"drop": "first"}}}]}


def posted(form) -> dict[str, list[str]]:
    """A form as the browser would post it."""
    out: dict[str, list[str]] = {}
    for name, field in form._fields.items():
        if name == "csrf_token":
            continue
        if isinstance(field, BooleanField):
            if field.data:
                out[name] = ["y"]
        elif isinstance(field.data, list):
            out[name] = [str(v) for v in field.data]
        elif field.data is not None:
            out[name] = [str(field.data)]
    return out


def shown(html: str, name: str) -> str | None:
    """The value a select, a radio group or an input shows for ``name``."""
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', html, re.S)
    if select:
        chosen = re.search(r'<option selected value="([^"]*)"', select.group(1))
        return chosen.group(1) if chosen else None
    radio = re.search(rf'<input checked[^>]*name="{name}"[^>]*value="([^"]*)"', html)
    if radio:
        return radio.group(1)
    box = re.search(rf'<(?:input|textarea)[^>]*name="{name}"[^>]*>', html)
    if box and "<textarea" in box.group(0):
        return re.search(rf'name="{name}"[^>]*>([^<]*)</textarea>', html).group(1)
    value = re.search(r'value="([^"]*)"', box.group(0)) if box else None
    return value.group(1) if value else None


@pytest.mark.parametrize(("game", "players", "options", "first", "typed", "chosen", "then", "now", "kept"), CLASHES)
def test_a_kept_form_follows_the_table_and_keeps_what_was_typed(app, client, game, players, options, first, typed,
                                                                  chosen, then, now, kept):
    with app.app_context():
        table = tables.create_table(get_db(), game, players, options, rounds=FIRST_DEALS.get(game, []))
        base = tables.version(get_db(), table.id)
        entry = ENTRY[game]
        state = tables.state(get_db(), table)
        opened = entry.round_form(table, previous=state.hands[-1][1] if state.hands else None, scored=state.scored)
        assert opened[chosen].data == then  # what phone B's form showed when it opened
        filled = entry.round_form(table, data=typed, scored=state.scored)
        filled[chosen].data = opened[chosen].data  # the player left the table's choice as it was
        tables.append(get_db(), table, base, tables.Change("add", data=first))  # phone A saves first
    body = posted(filled)
    body["base_version"] = [str(base)]
    url = f"/t/{table.id}/hands?key={table.edit_key}"
    answer = client.post(url, data=body)
    assert answer.status_code == 409
    html = answer.get_data(as_text=True)
    assert shown(html, chosen) == now
    for name, value in kept.items():
        assert shown(html, name) == value, name


def test_a_dealer_the_player_chose_stays_after_the_clash(app, client):
    """RK-10: a dealer picked by hand (Cat, not the Ann the form offered) is the player's own choice."""
    with app.app_context():
        table = tables.create_table(get_db(), "rally-the-king", ("Ann", "Ben", "Cat", "Dan"), {})
        tables.append(get_db(), table, 0, tables.Change(
            "add", data={"dealer": "Ann", "bid": "solo", "declarer": "Ann", "declarer_points": 64}))
    url = f"/t/{table.id}/hands?key={table.edit_key}"
    answer = client.post(url, data={"base_version": "0", "dealer": "Cat", "bid": "solo", "declarer": "Ben",
                                    "declarer_points": "40"})
    assert answer.status_code == 409
    assert shown(answer.get_data(as_text=True), "dealer") == "Cat"


def test_saved_again_after_the_clash_the_hand_has_the_next_dealer(app, client):
    """Phone B's hand, saved again from the kept form, is hand 2 dealt by Ben (RK-10), and the pad
    then names Cat to deal hand 3."""
    with app.app_context():
        table = tables.create_table(get_db(), "rally-the-king", ("Ann", "Ben", "Cat", "Dan"), {})
        tables.append(get_db(), table, 0, tables.Change(
            "add", data={"dealer": "Ann", "bid": "solo", "declarer": "Ann", "declarer_points": 64}))
    url = f"/t/{table.id}/hands?key={table.edit_key}"
    typed = {"dealer": "Ann", "bid": "solo", "declarer": "Cat", "declarer_points": "40"}
    html = client.post(url, data={"base_version": "0", **typed}).get_data(as_text=True)
    again = {**typed, "dealer": shown(html, "dealer"), "base_version": shown(html, "base_version")}
    assert client.post(url, data=again).status_code == 303
    exported = client.get(f"/t/{table.id}/export.json").get_json()
    assert [r["dealer"] for r in exported["rounds"]] == ["Ann", "Ben"]
    assert "Next: Cat deals" in client.get(f"/t/{table.id}").get_data(as_text=True)
