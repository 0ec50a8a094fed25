"""Every message Royalty and Alliance Royals can show a player, for a corpus of bad entries
(typed into the forms, and sent to the engines as the API and the command line do), is in
players' words: no JSON, no null/None/true/false, no field names or internal slugs.

The corpus is at least 40 bad entries per game; each must be refused with at least one message.
"""

from __future__ import annotations

import html
import re

import pytest

from companion.games import score
from companion.games.base import InputError
from tests.entry_forms import new_table

#: What a player must never read: JSON, code values, field names and slugs (the `where` path keeps them).
FORBIDDEN = {
    "a brace (JSON)": re.compile(r"[{}]"),
    "null": re.compile(r"\bnull\b"),
    "None": re.compile(r"\bNone\b"),
    "true or false": re.compile(r"\b(true|false|True|False)\b"),
    "a field name": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "a game slug": re.compile(r"\b(alliance-royals|rally-the-king|indian-rummy|rummathon-royale)\b"),
    "a list index": re.compile(r"\[\d+\]"),
    "a form field id": re.compile(r"\b(p\d_\w+|u\d)\b"),
}


def offences(message: str) -> list[str]:
    return [name for name, pattern in FORBIDDEN.items() if pattern.search(message)]


def form_messages(page: str) -> list[str]:
    """The messages a refused form shows: beside each field, and in the list at the top."""
    found = re.findall(r'<p class="error"[^>]*>(.*?)</p>', page, re.S)
    found += re.findall(r'<div class="errors" id="problems"[^>]*>(.*?)</div>', page, re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", m)).strip() for m in found]


def assert_in_words(messages: list[str]) -> None:
    """A bad entry is refused, and every message refusing it is in players' words."""
    assert messages, "a bad entry must be refused"
    for message in messages:
        assert not offences(message), (message, offences(message))


def assert_form_refused_in_words(client, table: str, key: str, fields: dict[str, str]) -> None:
    """The round form, sent with ``fields``, is refused, and every message it shows is in players' words."""
    response = client.post(f"{table}/hands?key={key}", data={"base_version": "0", **fields})
    assert response.status_code == 422
    assert_in_words(form_messages(response.get_data(as_text=True)))


# ---------------------------------------------------------------------------------------------- Alliance Royals

AR_PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def ar_board(**over):
    return {"house": "S", "spoils": [], "meld": [], "hand": [], **over}


def ar_round(**boards):
    full = {p: ar_board(house=h) for p, h in zip(AR_PLAYERS, "SHDC", strict=True)}
    full.update(boards)
    return {"players": full}


AR_ENGINE = [
    ar_round(Ann=ar_board(house=None)), ar_round(Ann=ar_board(house="X")), ar_round(Ann=ar_board(house=5)),
    ar_round(Ann=ar_board(spoils=["ZZ"])), ar_round(Ann=ar_board(spoils="KS QS")), ar_round(Ann=ar_board(spoils=[5])),
    ar_round(Ann=ar_board(spoils=[None])), ar_round(Ann=ar_board(spoils=["1S"])),
    ar_round(Ann=ar_board(spoils=["KS"] * 4)), ar_round(Ann=ar_board(meld=["2S", "2S"])),
    ar_round(Ann=ar_board(hand=["QD"] * 2), Ben=ar_board(house="H", spoils=["QD", "QD"])),
    ar_round(Ann=ar_board(hostages=[{"card": "QS", "target": "Zed"}])),
    ar_round(Ann=ar_board(hostages=[{"card": "QH", "target": "Ben"}])),
    ar_round(Ann=ar_board(hostages=[{"card": "QH"}])), ar_round(Ann=ar_board(hostages=[{"target": "Ben"}])),
    ar_round(Ann=ar_board(hostages=[{"card": None, "target": None}])),
    ar_round(Ann=ar_board(hostages="QH")), ar_round(Ann=ar_board(hostages=["QH"])),
    ar_round(Ann=ar_board(spoils=["KS"], hostages=[{"card": "KS", "target": "Ben"}])),
    ar_round(Ann=ar_board(spoils=["JH"], hostages=[{"card": "JH", "target": "Ben"}])),
    ar_round(Ann=ar_board(spoils=["QH"], hostages=[{"card": "QH", "target": "Ann"}])),
    ar_round(Ann=ar_board(spoils=["QH"], hostages=[{"card": "QH", "target": "Ben"}])),
    ar_round(Ann=ar_board(spoils=["QH"], hostages=[{"card": "QH", "target": "Ben", "when": 1}])),
    ar_round(Ann=ar_board(color="red")), ar_round(Ann=None), ar_round(Ann="S"), ar_round(Ann=[]),
    {"players": {p: ar_board() for p in AR_PLAYERS[:3]}}, {"players": {**ar_round()["players"], "Zed": ar_board()}},
    {**ar_round(), "surrender": "Zed"}, {**ar_round(), "surrender": 5}, {"surrender": None}, {}, None, [], "round",
    {**ar_round(), "extra": 1}, {**ar_round(), "note": 5}, {"players": []}, {"players": "Ann"},
]
AR_OPTIONS = [{"win_above": "x"}, {"win_above": -5}, {"lose_below": 5}, {"lose_below": None}, {"teams": [["Ann"]]},
              {"teams": "Ann"}, {"teams": [["Ann", "Ann"], ["Ben", "Dan"]]}, {"house_names": {"S": None}},
              {"house_names": {"X": "Dogs"}}, {"house_names": "Dogs"}, {"bogus": 1}]


def engine_messages(game: str, players, rounds, options=None) -> list[str]:
    try:
        score({"game": game, "players": players, "options": options or {}, "rounds": rounds})
    except InputError as err:
        return [p.message for p in err.problems]
    return []


@pytest.mark.parametrize("entry", range(len(AR_ENGINE) + len(AR_OPTIONS)))
def test_alliance_royals_engine_messages_are_in_players_words(entry):
    if entry < len(AR_ENGINE):
        messages = engine_messages("alliance-royals", AR_PLAYERS, [AR_ENGINE[entry]])
    else:
        messages = engine_messages("alliance-royals", AR_PLAYERS, [ar_round()], AR_OPTIONS[entry - len(AR_ENGINE)])
    assert_in_words(messages)


def ar_form(**over):
    fields = {f"p{i}_house": h for i, h in enumerate("SHDC")}
    fields.update(over)
    return fields


AR_FORMS = [
    ar_form(p0_house=""), ar_form(p0_house="X"), ar_form(p0_spoils="ZZ"), ar_form(p0_spoils="KS KS KS KS"),
    ar_form(p0_spoils="10X"), ar_form(p0_spoils="K"), ar_form(p0_meld="2S", p1_hand="2S"),
    ar_form(p0_spoils="KS QS", p0_h0_card="QH", p0_h0_target="Ben"), ar_form(p0_h0_card="QH"),
    ar_form(p0_h0_target="Ben"), ar_form(p0_spoils="QH", p0_h0_card="QH", p0_h0_target="Ann"),
    ar_form(p0_h0_card="ZZ", p0_h0_target="Ben"), ar_form(p0_spoils="KS", p0_h0_card="KS", p0_h0_target="Cat"),
    ar_form(surrender="Ann"), ar_form(surrender="Zed", confirm_surrender="y"), ar_form(p0_spoils="x" * 500),
    {"p0_house": "S"}, {}, ar_form(p0_hand="AS AS AS AS", p1_spoils="JH JH JH JH"),
    ar_form(p0_spoils="♠K"), ar_form(p3_meld="7C 7C"), ar_form(p0_h1_card="QD", p0_h1_target="Zed"),
]


@pytest.fixture
def ar_table(client):
    defaults = {"opt-seating": "13-24", "opt-win_above": "1066", "opt-lose_below": "-333"}
    return new_table(client, "alliance-royals", AR_PLAYERS, defaults)


@pytest.mark.parametrize("entry", range(len(AR_FORMS)))
def test_alliance_royals_form_messages_are_in_players_words(client, ar_table, entry):
    assert_form_refused_in_words(client, *ar_table, AR_FORMS[entry])


def test_the_alliance_royals_corpus_has_forty_bad_entries_or_more():
    assert len(AR_ENGINE) + len(AR_OPTIONS) + len(AR_FORMS) >= 40


# ---------------------------------------------------------------------------------------------- Royalty

RY_PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
CALM = {"player": "Ann", "meld": "Cr Ar Lr Mr"}

RY_ENGINE = [
    [{"player": None, "meld": "Cr Ar"}], [{"player": "Zed", "meld": "Cr Ar"}], [{"player": 5, "meld": "Cr Ar"}],
    [{"player": "Ann", "meld": "Cq Ar"}], [{"player": "Ann", "meld": ""}], [{"player": "Ann", "meld": 5}],
    [{"player": "Ann", "meld": "* Ar"}], [{"player": "Ann", "meld": "C1"}], [{"player": "Ann"}],
    [{"player": "Ann", "pass": False}], [{"player": "Ann", "pass": True, "meld": "Cr Ar"}],
    [{"player": "Ann", "trade": "yes"}], [{"player": "Ann", "pass": True, "bid": 3}], ["Ann"], [None], [5],
    [{"player": "Ann", "capture": "CALM"}], [{"player": "Ann", "capture": {"target": None, "cards": "Cr"}}],
    [{"player": "Ann", "capture": {"target": "Cr Ar", "cards": "Cr"}}],
    [{"player": "Ann", "capture": {"target": "CALM", "cards": None}}],
    [{"player": "Ann", "capture": {"target": "CALM", "cards": "Cr", "when": 1}}],
    [CALM, {"player": "Ben", "capture": {"target": "CALM", "owner": "Zed", "cards": "Cr Lr Ar Ib Mr"}}],
    [CALM, {"player": "Ben", "capture": {"target": "ZEBRA", "cards": "Zr Er Br Rr Ar Sr"}}],
    [CALM, {"player": "Ben", "capture": {"target": "CALM", "cards": "Cr Ar Lr Ib"}}],
    [CALM, {"player": "Ben", "capture": {"target": "CALM", "cards": "Cr Ar Lr Mr"}}],
    [CALM, {"player": "Ben", "pass": True}, {"player": "Cat", "pass": True}, {"player": "Dan", "pass": True},
     {"player": "Ann", "capture": {"target": "CALM", "cards": "Cr Lr Ar Ib Mr"}}],
    [{"player": "Ann", "pass": True, "challenge": {"by": "Ben", "upheld": True}}],
    [{"player": "Ann", "meld": "Ob Xb", "challenge": {"by": "Ann", "upheld": False}}],
    [{"player": "Ann", "meld": "Ob Xb", "challenge": {"by": "Ben"}}],
    [{"player": "Ann", "meld": "Ob Xb", "challenge": {"by": None, "upheld": True}}],
    [{"player": "Ann", "meld": "Ob Xb", "challenge": {"upheld": "yes"}}],
    [{"player": "Ann", "meld": "Ob Xb", "challenge": "Ben"}],
    [{"player": "Ann", "meld": "Ob Xb", "challenge": {"by": "Ben", "upheld": False, "why": "x"}}],
    [CALM, {"player": "Cat", "meld": "Ob Xb"}],
    [{"end": "Ann"}], [{"end": {"went_out": "Zed"}}], [{"end": {"unplayed": "Xr"}}],
    [{"end": {"unplayed": {"Ben": "Ar " * 8}}}], [{"end": {"unplayed": {"Zed": "Xr"}}}],
    [{"end": {"unplayed": {"Ben": "Xq"}}}], [{"end": {"went_out": "Ann", "unplayed": {"Ann": "Xr"}}}],
    [{"end": {"who": "Ann"}}], [{"end": None, "player": "Ann"}], [{"player": "Ann", "meld": "Cr", "note": 5}],
    [{"end": {}}, CALM],
]
RY_OPTIONS = [{"letter_values": {"B": -1}}, {"letter_values": {"1": 3}}, {"letter_values": "B3"},
              {"junior": "yes"}, {"variant": "monarchy"}, {"variant": "joust"}, {"coalitions": [["Ann"]]},
              {"coalitions": [["Ann", "Cat"], ["Ben"]]}, {"word_list": 5}, {"bogus": 1}]


@pytest.mark.parametrize("entry", range(len(RY_ENGINE) + len(RY_OPTIONS)))
def test_royalty_engine_messages_are_in_players_words(entry):
    if entry < len(RY_ENGINE):
        messages = engine_messages("royalty", RY_PLAYERS, RY_ENGINE[entry])
    else:
        messages = engine_messages("royalty", RY_PLAYERS, [CALM], RY_OPTIONS[entry - len(RY_ENGINE)])
    assert_in_words(messages)


RY_FORMS = [
    dict(player="Ann", kind="meld", meld=""), dict(player="Ann", kind="meld", meld="Cq Ar"),
    dict(player="Ann", kind="meld", meld="* Ar"), dict(player="", kind="meld", meld="Cr Ar"),
    dict(player="Zed", kind="meld", meld="Cr Ar"), dict(player="Ann", kind="meld", meld="Cr Ar Lr Mr Er Ar Rr Ar"),
    dict(player="Ann", kind="capture", target="", capture_cards="Cr Ar"),
    dict(player="Ann", kind="capture", target="Ben|ZEBRA", capture_cards=""),
    dict(player="Ann", kind="capture", target="nonsense", capture_cards="Cr"),
    dict(player="Ann", kind="meld", meld="Cr Ar", challenge_by="Ben"),
    dict(player="Ann", kind="meld", meld="Cr Ar", challenge_by="Ann", challenge_upheld="upheld"),
    dict(player="Ann", kind="pass", challenge_by="Ben", challenge_upheld="upheld"),
    dict(player="Ann", kind="meld", meld="Cr Ar", challenge_by="Zed", challenge_upheld="maybe"),
    dict(kind="end", went_out="Zed"), dict(kind="end", u1="Ar " * 8), dict(kind="end", u1="Xq"),
    dict(kind="end", went_out="Ann", u0="Xr"), dict(kind="bogus", player="Ann"), dict(player="Ann", meld="x" * 90),
]


@pytest.fixture
def ry_table(client):
    return new_table(client, "royalty", RY_PLAYERS, {"opt-variant": "standard", "opt-coalitions": ""})


@pytest.mark.parametrize("entry", range(len(RY_FORMS)))
def test_royalty_form_messages_are_in_players_words(client, ry_table, entry):
    assert_form_refused_in_words(client, *ry_table, RY_FORMS[entry])


def test_the_royalty_corpus_has_forty_bad_entries_or_more():
    assert len(RY_ENGINE) + len(RY_OPTIONS) + len(RY_FORMS) >= 40


def test_four_mistakes_in_one_alliance_royals_round_are_shown_at_once_beside_their_fields(client, ar_table):
    """No House for Ann, a card that does not exist in Ben's Spoils, a fourth KS (AR-1: three in the
    pack) in Dan's Hand, and a hostage with no player for Cat: four messages, each by its field."""
    table, key = ar_table
    fields = ar_form(p0_house="", p0_spoils="KS KS", p1_spoils="ZZ 9H", p2_spoils="QH", p2_h0_card="QH",
                     p3_hand="KS KS")
    page = client.post(f"{table}/hands?key={key}", data={"base_version": "0", **fields}).get_data(as_text=True)
    for field, says in (("p0_house", "choose Ann's Home House"), ("p1_spoils", "ZZ"),
                        ("p3_hand", "the pack has only 3 KS; 4 were entered (2 in Ann's Spoils, 2 in Dan's Hand)"),
                        ("p2_h0_target", "choose the player Cat's hostage is held against")):
        beside = re.search(rf'<p class="error" id="{field}-error">(.*?)</p>', page, re.S)
        assert beside and says in html.unescape(beside.group(1)), (field, form_messages(page))


def test_a_challenge_with_no_outcome_chosen_is_asked_for_not_taken_as_not_upheld(client, ry_table):
    table, key = ry_table
    response = client.post(f"{table}/hands?key={key}", data={
        "base_version": "0", "player": "Ann", "kind": "meld", "meld": "Cr Ar Lr Mr", "challenge_by": "Ben"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert re.search(r'id="challenge_upheld-error">say whether the challenge was upheld', page)
