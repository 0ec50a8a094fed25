"""Properties of the Alliance Royals and Royalty entry forms: a random valid submission maps to
exactly the JSON the engine scores, and no filled field is dropped (each reaches the JSON, or the
entry is refused with a message on that field)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from companion.entry import ENTRY, split_where
from companion.games import royalty, score
from companion.games.alliance_royals import copies_in_pack
from companion.games.base import InputError
from companion.storage.tables import Table

SETTINGS = settings(max_examples=80, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
PLAYERS = ("Ann", "Ben", "Cat", "Dan")
ALL_CARDS = [f"{r}{s}" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A") for s in "SHDC"]


def table_of(game: str, options=None) -> Table:
    return Table(id="t", edit_key="k", game=game, title="", players=PLAYERS, options=options or {}, created_at="")


# ---------------------------------------------------------------------------------------------- Alliance Royals

@st.composite
def ar_rounds(draw):
    """Four boards dealt from the 100-card pack (AR-1): each card at most as often as the pack holds it."""
    pack = [card for card in ALL_CARDS for _ in range(copies_in_pack(card[:-1]))]
    chosen = draw(st.lists(st.sampled_from(range(len(pack))), unique=True, max_size=40))
    places = draw(st.lists(st.tuples(st.sampled_from(PLAYERS), st.sampled_from(("spoils", "meld", "hand"))),
                           min_size=len(chosen), max_size=len(chosen)))
    boards = {p: {"house": draw(st.sampled_from("SHDC")), "spoils": [], "meld": [], "hand": []} for p in PLAYERS}
    for index, (player, zone) in zip(chosen, places, strict=True):
        boards[player][zone].append(pack[index])
    note = draw(st.sampled_from(["", "a long round", "  "]))
    return boards, note


@SETTINGS
@given(ar_rounds())
def test_a_valid_alliance_royals_form_becomes_the_round_the_engine_scores(app, drawn):
    boards, note = drawn
    entry = ENTRY["alliance-royals"]
    table = table_of("alliance-royals")
    data = MultiDict({"base_version": "0", "note": note})
    for i, name in enumerate(PLAYERS):
        data[f"p{i}_house"] = boards[name]["house"]
        for zone in ("spoils", "meld", "hand"):
            data[f"p{i}_{zone}"] = "  ".join(boards[name][zone])  # typed with extra spaces
    with app.test_request_context():
        form = entry.round_form(table, formdata=data)
        assert form.validate(), form.errors
        rnd = entry.round_from(form, table)
    expected = {"players": {name: {**boards[name]} for name in PLAYERS}, "surrender": None}
    if note.strip():
        expected["note"] = note.strip()
    assert rnd == expected  # every filled field reached the JSON, as typed
    scored = score({"game": "alliance-royals", "players": list(PLAYERS), "options": {}, "rounds": [rnd]})
    assert len(scored.rounds) == 1


@SETTINGS
@given(ar_rounds(), st.sampled_from(PLAYERS), st.sampled_from(("spoils", "meld", "hand")),
       st.sampled_from(["ZZ", "1S", "KX", "K", "10", "♠"]))
def test_a_bad_card_in_any_alliance_royals_place_is_refused_on_that_field(app, drawn, player, zone, bad):
    boards, _ = drawn
    entry = ENTRY["alliance-royals"]
    table = table_of("alliance-royals")
    i = PLAYERS.index(player)
    data = MultiDict({"base_version": "0"})
    for j, name in enumerate(PLAYERS):
        data[f"p{j}_house"] = boards[name]["house"]
        for z in ("spoils", "meld", "hand"):
            data[f"p{j}_{z}"] = " ".join(boards[name][z] + ([bad] if (name, z) == (player, zone) else []))
    with app.test_request_context():
        form = entry.round_form(table, formdata=data)
        assert form.validate(), form.errors
        rnd = entry.round_from(form, table)
        with pytest.raises(InputError) as refused:
            score({"game": "alliance-royals", "players": list(PLAYERS), "options": {}, "rounds": [rnd]})
        fields = {entry.field_for(split_where(p.where)[1], table, form) for p in refused.value.problems}
    assert f"p{i}_{zone}" in fields


# ---------------------------------------------------------------------------------------------- Royalty

letter_cards = st.builds(lambda letter, colour, knave: ("*" if knave else "") + letter + colour,
                         st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), st.sampled_from("rb"), st.booleans())


@st.composite
def ry_turns(draw):
    """A first turn of the game, as the form would send it: a meld, a pass or a trade, maybe
    challenged, or the end of the game with cards left in hands."""
    kind = draw(st.sampled_from(("meld", "pass", "trade", "end")))
    fields = {"base_version": "0", "kind": kind, "player": "Ann"}
    if kind == "meld":
        fields["meld"] = " ".join(draw(st.lists(letter_cards, min_size=2, max_size=7)))
        if draw(st.booleans()):
            fields["challenge_by"] = draw(st.sampled_from(PLAYERS[1:]))
            fields["challenge_upheld"] = draw(st.sampled_from(("upheld", "rejected")))
    if kind == "end":
        fields["went_out"] = draw(st.sampled_from(("", *PLAYERS)))
        for i, name in enumerate(PLAYERS):
            if name != fields["went_out"] and draw(st.booleans()):
                fields[f"u{i}"] = " ".join(draw(st.lists(letter_cards.map(lambda c: "*" if c.startswith("*") else c),
                                                         min_size=1, max_size=7)))
    if draw(st.booleans()):
        fields["note"] = draw(st.sampled_from(("a fine word", "checked in the book")))
    return fields


@SETTINGS
@given(ry_turns())
def test_a_valid_royalty_turn_form_becomes_the_turn_the_engine_scores(app, fields):
    entry = ENTRY["royalty"]
    table = table_of("royalty")
    with app.test_request_context():
        form = entry.round_form(table, formdata=MultiDict(fields))
        assert form.validate(), form.errors
        turn = entry.round_from(form, table)
    # No filled field is dropped: each is in the JSON, as typed.
    if fields["kind"] == "end":
        end = turn["end"]
        assert end["went_out"] == (fields["went_out"] or None)
        for i, name in enumerate(PLAYERS):
            assert end["unplayed"][name] == fields.get(f"u{i}", "")
    else:
        assert turn["player"] == "Ann"
        assert turn.get("pass") is (True if fields["kind"] == "pass" else None)
        assert turn.get("trade") is (True if fields["kind"] == "trade" else None)
        assert turn.get("meld") == fields.get("meld")
        if "challenge_by" in fields:
            assert turn["challenge"] == {"by": fields["challenge_by"],
                                         "upheld": fields["challenge_upheld"] == "upheld"}
        else:
            assert "challenge" not in turn
    assert turn.get("note") == fields.get("note")
    game = {"game": "royalty", "players": list(PLAYERS), "options": {}, "rounds": [turn]}
    try:
        scored = score(game)
    except InputError as refused:  # refused only with a message on a field the player filled
        with app.test_request_context():
            named = {entry.field_for(split_where(p.where)[1], table, form) for p in refused.value.problems}
        assert named <= {k for k, v in fields.items() if v} | {"player", "kind"}, (named, fields)
    else:
        assert len(scored.rounds) == 1
        if fields["kind"] == "meld" and "challenge_by" not in fields:
            word = royalty.parse_word(fields["meld"])
            assert scored.rounds[0].points["Ann"] >= royalty.word_value(word)


# ------------------------------------------------------------------------ Battle Royals and Marriage Royals

FAMILY = {"battle-royals": PLAYERS[:2], "marriage-royals": PLAYERS[:3]}


@st.composite
def family_rounds(draw, players):
    """Two or three boards dealt from the same pack as Alliance Royals' (BR-1, MR-1)."""
    pack = [card for card in ALL_CARDS for _ in range(copies_in_pack(card[:-1]))]
    chosen = draw(st.lists(st.sampled_from(range(len(pack))), unique=True, max_size=30))
    places = draw(st.lists(st.tuples(st.sampled_from(players), st.sampled_from(("spoils", "meld", "hand"))),
                           min_size=len(chosen), max_size=len(chosen)))
    boards = {p: {"house": draw(st.sampled_from("SHDC")), "spoils": [], "meld": [], "hand": []} for p in players}
    for index, (player, zone) in zip(chosen, places, strict=True):
        boards[player][zone].append(pack[index])
    return boards


@pytest.mark.parametrize("game", sorted(FAMILY))
@SETTINGS
@given(data=st.data())
def test_a_valid_battle_or_marriage_royals_form_becomes_the_round_the_engine_scores(app, game, data):
    players = FAMILY[game]
    boards = data.draw(family_rounds(players))
    entry = ENTRY[game]
    table = Table(id="t", edit_key="k", game=game, title="", players=players, options={}, created_at="")
    form_data = MultiDict({"base_version": "0"})
    for i, name in enumerate(players):
        form_data[f"p{i}_house"] = boards[name]["house"]
        for zone in ("spoils", "meld", "hand"):
            form_data[f"p{i}_{zone}"] = "  ".join(boards[name][zone]).lower()  # typed in lower case, spaced
    with app.test_request_context():
        form = entry.round_form(table, formdata=form_data)
        assert form.validate(), form.errors
        rnd = entry.round_from(form, table)
    reached = {name: {k: (v if k == "house" else [c.upper() for c in v]) for k, v in board.items()
                      if k != "hostages" or v} for name, board in rnd["players"].items()}
    assert reached == boards  # every filled field reached the JSON (card notation is read in any case: docs/api.md)
    assert not rnd.get("surrender")
    scored = score({"game": game, "players": list(players), "options": {}, "rounds": [rnd]})
    assert len(scored.rounds) == 1
