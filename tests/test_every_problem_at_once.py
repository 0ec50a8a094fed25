"""Every problem of an entry in one pass: for each game, an entry with three or four independent
mistakes is refused with all of them named at once, through the API (each at its own `where`)
and through the entry form (each beside its own field), never one layer after another.

Each case reads as a table's mistake: "the wrong player's turn, a captured word missing a card,
and a card that does not exist" must all be said the first time the entry is saved.
"""

from __future__ import annotations

import copy
import html
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import score
from companion.games.base import InputError

P4 = ["Ann", "Ben", "Cat", "Dan"]
P3 = P4[:3]


def board(house, **sections):
    return {"house": house, "spoils": [], "meld": [], "hand": [], **sections}


CALM = {"player": "Ann", "meld": "Cr Ar Lr Mr"}

#: (game, players, options, rounds, {where: words the message holds}); the last round holds the mistakes.
API_CASES = {
    "royalty: out of turn, a capture missing a card, an unreadable meld, a self-challenge": (
        "royalty", P3, {}, [CALM, {
            "player": "Cat", "capture": {"target": "CALM", "cards": "Cr Ar Lr Mb Sr"}, "meld": "Zq Ob",
            "challenge": {"by": "Cat", "upheld": False}}],
        {"rounds[1].player": "it is Ben's turn, not Cat's",
         "rounds[1].capture.cards": "Mr is missing",
         "rounds[1].meld": "Zq is not a Royalty card",
         "rounds[1].challenge.by": "Cat cannot challenge their own word"}),
    "royalty: a word not on the table beside a bad meld and eight cards from hand": (
        "royalty", P3, {}, [CALM, {
            "player": "Ben", "capture": {"target": "CALX", "cards": "Cr Ar Lr Xr Sr"}, "meld": "Zq Ob"}],
        {"rounds[1].capture.target": "no word CALX lies on the table",
         "rounds[1].meld": "Zq is not a Royalty card"}),
    "royalty: out of turn and eight cards from hand": (
        "royalty", P3, {}, [CALM, {"player": "Cat", "meld": "Ar Br Cr Dr Er Fr Gr Hr"}],
        {"rounds[1].player": "it is Ben's turn", "rounds[1]": "8 cards were played from hand"}),
    "royalty joust: out of turn, a bad card, a self-challenge": (
        "royalty", ["Ann", "Ben"], {"variant": "joust"}, [{"player": "Ann", "meld": "Or Xb"}, {
            "player": "Ann", "meld": "Zq Ob", "challenge": {"by": "Ann", "upheld": False}},
            {"player": "Ben", "pass": True}],
        {"rounds[1].meld": "Zq is not a Royalty card", "rounds[1].challenge.by": "cannot challenge their own word"}),
    "rally the king: a stranger declaring, a partner on a solo, too many points, a bonus with no side": (
        "rally-the-king", P4, {}, [{"bid": "solo", "declarer": "Zed", "declarer_points": 130, "partner": "Cat",
                                    "bonuses": [{"bonus": "slam", "side": "x", "made": True}]}],
        {"rounds[0].declarer": "Zed", "rounds[0].partner": "a solo is played without a partner",
         "rounds[0].declarer_points": "cannot take 130", "rounds[0].bonuses[0].side": "say which side"}),
    "rummathon royale: a stranger out, a count in words, a self-burden, too many extra cards": (
        "rummathon-royale", P3, {}, [{"out": "Zed", "left": {"Ben": {"low": "x"}},
                                      "burdens": [{"on": "Cat", "by": "Cat", "completed": False}],
                                      "extra_cards": {"Ben": 99}}],
        {"rounds[0].out": "Zed", "rounds[0].left.Ben.low": "whole number",
         "rounds[0].burdens[0].on": "Cat cannot burden themselves", "rounds[0].extra_cards.Ben": "at most 20"}),
    "indian rummy: a bad wild, a count too high, a bad card, a short hand": (
        "indian-rummy", P3, {}, [{"wild": "Z", "winner": "Ann", "hands": {
            "Ben": {"count": 500}, "Cat": {"cards": ["4C", "5C", "ZZ"]}}}],
        {"rounds[0].wild": "Z is not a rank", "rounds[0].hands.Ben.count": "at most 130",
         "rounds[0].hands.Cat.cards[2]": "ZZ is not a card", "rounds[0].hands.Cat.cards": "3 were given"}),
    "indian rummy pool: a count too high, too many copies, a rejoin of a player still in": (
        "indian-rummy", P3, {"variant": "pool101"}, [{"wild": "7", "winner": "Ann", "hands": {
            "Ben": {"count": 500}, "Cat": {"cards": ["AS"] * 13}}, "rejoin": ["Ben"]}],
        {"rounds[0].hands.Ben.count": "at most 130", "rounds[0].hands.Cat.cards[2]": "13 in Cat's cards",
         "rounds[0].rejoin[0]": "Ben is still in the pool"}),
    "indian rummy: the winner's declaration fails beside a loser's bad count and a missing hand": (
        "indian-rummy", P4, {}, [{"wild": "7", "winner": "Ann", "hands": {
            "Ann": {"groups": [["AH", "2H", "3H"], ["4S", "4H", "4D"], ["9C", "10C", "JC"], ["KD", "KH", "KS", "QC"]]},
            "Ben": {"count": "lots"}, "Cat": {"drop": "late"}}}],
        {"rounds[0].hands.Ann.groups[3]": "Ann won the deal, but the declaration is not valid",
         "rounds[0].hands.Ben.count": "whole number", "rounds[0].hands.Cat.drop": "",
         "rounds[0].hands.Dan": "enter Dan's hand"}),
    "alliance royals: a bad House, a bad card, a hostage held against a stranger, nine copies": (
        "alliance-royals", P4, {}, [{"players": {
            "Ann": board("X", spoils=["ZZ"]), "Ben": board("H", meld=["2S"] * 9),
            "Cat": board("D", hostages=[{"card": "QH", "target": "Zed"}]), "Dan": board("C")}}],
        {"rounds[0].players.Ann.house": "X is not a suit", "rounds[0].players.Ann.spoils[0]": "ZZ is not a card",
         "rounds[0].players.Cat.hostages[0].target": "Zed", "rounds[0].players.Ben.meld[1]": "the pack has only 1 2S"}),
    "alliance royals: too many copies beside a hostage not in its holder's Spoils and no House": (
        "alliance-royals", P4, {}, [{"players": {
            "Ann": board("S", spoils=["QD", "QD"]), "Ben": board("H", spoils=["QD", "QD"]), "Cat": board(None),
            "Dan": board("C", hostages=[{"card": "QH", "target": "Ben"}])}}],
        {"rounds[0].players.Ben.spoils[1]": "the pack has only 3 QD", "rounds[0].players.Cat.house": "choose Cat's",
         "rounds[0].players.Dan.hostages[0].card": "Dan's Spoils hold no QH"}),
    "battle royals: a bad House, a bad card, five copies, a hostage": (
        "battle-royals", P4[:2], {}, [{"players": {
            "Ann": board("X", spoils=["ZZ"]),
            "Ben": board("H", meld=["KS"] * 5, hostages=[{"card": "QH", "target": "Ann"}])}}],
        {"rounds[0].players.Ann.house": "X is not a suit", "rounds[0].players.Ann.spoils[0]": "ZZ is not a card",
         "rounds[0].players.Ben.meld[3]": "the pack has only 3 KS",
         "rounds[0].players.Ben.hostages[0]": "Battle Royals has no hostages"}),
    "marriage royals: a bad card, five copies, a hostage that is a Jack": (
        "marriage-royals", P3, {}, [{"players": {
            "Ann": board("S", spoils=["ZZ"]), "Ben": board("H", meld=["KS"] * 5),
            "Cat": board("D", spoils=["JH"], hostages=[{"card": "JH", "target": "Ann"}])}}],
        {"rounds[0].players.Ann.spoils[0]": "ZZ is not a card", "rounds[0].players.Ben.meld[3]": "only 3 KS",
         "rounds[0].players.Cat.hostages[0].card": "JH cannot be a hostage"}),
    "rummy royal: a stranger dealing, a pay card to a stranger, a folded winner, too many cards left": (
        "rummy-royal", P4, {}, [{"dealer": "Zed", "pay_cards": {"10H": "Zed"}, "out": "Ann",
                                 "poker": {"bets": {"Ann": 2}, "folded": ["Ann"], "winners": ["Ann"]},
                                 "cards_left": {"Ben": 99}}],
        {"rounds[0].dealer": "Zed", "rounds[0].pay_cards.10H": "Zed",
         "rounds[0].poker.winners[0]": "Ann folded", "rounds[0].cards_left.Ben": "more than 52"}),
}


@pytest.mark.parametrize("case", sorted(API_CASES))
def test_every_mistake_of_an_entry_is_named_at_once_by_the_engine(case):
    game, players, options, rounds, expected = API_CASES[case]
    with pytest.raises(InputError) as caught:
        score({"game": game, "players": players, "options": options, "rounds": rounds})
    said = {}
    for problem in caught.value.problems:
        said.setdefault(problem.where, []).append(problem.message)
    for where, words in expected.items():
        assert where in said, f"{where} is not named; the engine said {said}"
        assert any(words in m for m in said[where]), (where, said[where])


@pytest.mark.parametrize("case", sorted(API_CASES))
def test_every_mistake_of_an_entry_is_named_at_once_by_the_api(client, case):
    game, players, options, rounds, expected = API_CASES[case]
    response = client.post("/api/v1/score", json={"game": game, "players": players, "options": options,
                                                  "rounds": rounds})
    assert response.status_code == 422
    places = {e["where"] for e in response.get_json()["errors"]}
    assert set(expected) <= places, set(expected) - places


# ---------------------------------------------------------------------------------------------- the forms


def _table(client, game: str, players: list[str], options: dict[str, str]) -> tuple[str, str]:
    data = {f"seat{i}": p for i, p in enumerate(players, 1)} | options
    response = client.post(f"/new/{game}", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    table, key = response.headers["Location"].split("?key=")
    return table, key


def _version(client, table: str, key: str) -> str:
    page = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    return re.search(r'name="base_version"[^>]*value="(\d+)"', page).group(1)


def beside(page: str, field: str) -> str:
    """The message shown beside ``field`` (empty when none)."""
    found = re.search(rf'<p class="error" id="{re.escape(field)}-error">(.*?)</p>', page, re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))) if found else ""


def ar_fields(**over):
    return {f"p{i}_house": h for i, h in enumerate("SHDC")} | over


#: (game, players, new-table options, form posts saved first, the bad post, {field: words beside it}).
FORM_CASES = {
    "royalty": (
        "royalty", P3, {"opt-variant": "standard", "opt-coalitions": ""},
        [{"player": "Ann", "kind": "meld", "meld": "Cr Ar Lr Mr"}],
        {"player": "Cat", "kind": "capture", "target": "Ann|CALM", "capture_cards": "Cr Ar Lr Mb Sr",
         "meld": "Zq Ob", "challenge_by": "Cat", "challenge_upheld": "rejected"},
        {"player": "it is Ben's turn, not Cat's", "capture_cards": "Mr is missing",
         "meld": "Zq is not a Royalty card", "challenge_by": "Cat cannot challenge their own word"}),
    "rally-the-king": (
        "rally-the-king", P4, {"opt-counting": "individual", "opt-hands": "4"}, [],
        {"dealer": "Ann", "bid": "partner", "declarer": "Ben", "called_king": "", "partner": "Ben",
         "declarer_points": "130", "bo_slam_made": "y"},
        {"called_king": "King", "partner": "Ben is the declarer", "declarer_points": "130",
         "bo_slam_side": "say which side"}),
    "rummathon-royale": (
        "rummathon-royale", P3, {"opt-schedule": "all"}, [],
        {"out": "Ann", "p0_low": "2", "p1_low": "500", "b0_on": "Cat", "b0_by": "Cat", "b0_result": "failed",
         "p2_extra": "3"},
        {"p0_low": "Ann went out, so Ann has no cards left", "p1_low": "", "b0_on": "Cat cannot burden themselves",
         "p2_extra": "buy at most 0 extra cards"}),
    "indian-rummy": (
        "indian-rummy", P3, {"opt-variant": "pool101"}, [],
        {"wild": "7", "winner": "Ann", "p0_mode": "groups", "p0_groups": "AH 2H 3H | 4S 4H 4D",
         "p1_mode": "count", "p1_count": "500", "p1_rejoin": "y", "p2_mode": "cards", "p2_cards": "4C 5C ZZ"},
        {"p0_groups": "a hand has 13", "p1_count": "", "p1_rejoin": "Ben is still in the pool",
         "p2_cards": "ZZ is not a card"}),
    "alliance-royals": (
        "alliance-royals", P4, {"opt-seating": "13-24", "opt-win_above": "1066", "opt-lose_below": "-333"}, [],
        ar_fields(p0_house="", p0_spoils="QD QD", p1_spoils="QD QD ZZ", p3_h0_card="QH", p3_h0_target="Ben"),
        {"p0_house": "choose Ann's Home House", "p1_spoils": "ZZ is not a card",
         "p3_h0_card": "Dan's Spoils hold no QH"}),
    "marriage-royals": (
        "marriage-royals", P3, {"opt-win_above": "1066", "opt-lose_below": "-333", "opt-share": "positive"}, [],
        {"p0_house": "S", "p1_house": "", "p0_spoils": "ZZ", "p2_house": "D", "p2_spoils": "JH",
         "p2_h0_card": "JH", "p2_h0_target": "Ann"},
        {"p1_house": "choose Ben's Home House", "p0_spoils": "ZZ is not a card",
         "p2_h0_card": "JH cannot be a hostage"}),
    "rummy-royal": (
        "rummy-royal", P4, {}, [],
        {"out": "Ann", "p0_left": "3", "p1_left": "99", "p0_fold": "y", "winners": "Ann", "pay_AH": "Ann"},
        {"p0_left": "Ann went out", "p1_left": "", "winners": "Ann folded"}),
}


@pytest.mark.parametrize("game", sorted(FORM_CASES))
def test_every_mistake_of_a_form_is_shown_at_once_beside_its_field(client, game):
    game, players, options, first, bad, expected = FORM_CASES[game]
    table, key = _table(client, game, players, options)
    for fields in first:
        response = client.post(f"{table}/hands?key={key}", data={"base_version": _version(client, table, key),
                                                                 **fields})
        assert response.status_code == 303, response.get_data(as_text=True)[:3000]
    response = client.post(f"{table}/hands?key={key}", data={"base_version": _version(client, table, key), **bad})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    shown = {field: beside(page, field) for field in expected}
    for field, words in expected.items():
        assert shown[field], f"nothing beside {field}; beside the fields: {shown}"
        assert words in shown[field], (field, shown[field])


# ---------------------------------------------------------------------------------------------- a property

def _with(base: dict, **changes) -> dict:
    out = copy.deepcopy(base)
    for path, value in changes.items():
        *heads, last = path.split("__")
        at = out
        for head in heads:
            at = at[head]
        at[last] = value
    return out


def _ar_base(players):
    return {"players": {p: board(h) for p, h in zip(players, "SHDC", strict=False)}}


#: Per game: the game, players, options, the rounds before, a valid entry, and mistakes in
#: independent parts of it (each a change to the entry, written path__to__field=value).
INDEPENDENT = {
    "alliance-royals": ("alliance-royals", P4, {}, [], _ar_base(P4), [
        {"players__Ann__house": "X"}, {"players__Ben__spoils": ["ZZ"]},
        {"players__Cat__spoils": ["JH"], "players__Cat__hostages": [{"card": "JH", "target": "Ann"}]},
        {"players__Dan__meld": ["2S", "2S"]}, {"players__Ann__hand": ["KS"] * 4},
        {"players__Ben__hostages": [{"card": "QH", "target": "Cat"}]}, {"note": 5}]),
    "marriage-royals": ("marriage-royals", P3, {}, [], _ar_base(P3), [
        {"players__Ann__house": "X"}, {"players__Ben__spoils": ["ZZ"]},
        {"players__Cat__spoils": ["JH"], "players__Cat__hostages": [{"card": "JH", "target": "Ann"}]},
        {"players__Ann__meld": ["2S", "2S"]}, {"players__Ben__hostages": [{"card": "QD", "target": "Cat"}]}]),
    "battle-royals": ("battle-royals", P4[:2], {}, [], _ar_base(P4[:2]), [
        {"players__Ann__house": "X"}, {"players__Ben__spoils": ["ZZ"]}, {"players__Ann__meld": ["2S", "2S"]},
        {"players__Ben__hostages": [{"card": "QD", "target": "Ann"}]}, {"note": 5}]),
    "indian-rummy": ("indian-rummy", P4, {"variant": "pool101"}, [],
                     {"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 5}, "Cat": {"count": 6},
                                                              "Dan": {"drop": "first"}}}, [
        {"wild": "Z"}, {"hands__Ben__count": 500}, {"hands__Cat": {"cards": ["4C", "5C", "ZZ"]}},
        {"hands__Dan__drop": "late"}, {"rejoin": ["Ben"]}, {"note": 5}]),
    "rummathon-royale": ("rummathon-royale", P3, {}, [], {"out": "Ann", "left": {"Ben": {"low": 1}}}, [
        {"left__Ben__low": "x"}, {"extra_cards": {"Cat": 99}},
        {"burdens": [{"on": "Cat", "by": "Cat", "completed": False}]}, {"progress": {"Ben": "teleported"}},
        {"note": 5}]),
    "rally-the-king": ("rally-the-king", P4, {}, [], {"bid": "solo", "declarer": "Ben", "declarer_points": 70}, [
        {"dealer": "Zed"}, {"partner": "Cat"}, {"declarer_points": 130},
        {"bonuses": [{"bonus": "slam", "side": "x", "made": True}]}, {"note": 5}]),
    "rummy-royal": ("rummy-royal", P4, {}, [], {"dealer": "Ann", "out": "Ann"}, [
        {"dealer": "Zed"}, {"pay_cards": {"10H": "Zed"}}, {"sequence": ["Zed"]}, {"cards_left": {"Ben": 99}},
        {"poker": {"bets": {"Ann": 2}, "folded": ["Ann"], "winners": ["Ann"]}}, {"note": 5}]),
    "royalty": ("royalty", P3, {}, [CALM], {"player": "Ben", "meld": "Or Xb"}, [
        {"player": "Cat"}, {"meld": "Zq Ob"}, {"challenge": {"by": "Dan", "upheld": False}}, {"note": 5}]),
}


def _wheres(game, players, options, rounds) -> set[str]:
    try:
        score({"game": game, "players": players, "options": options, "rounds": rounds})
    except InputError as err:
        return {p.where for p in err.problems}
    return set()


@pytest.mark.parametrize("game", sorted(INDEPENDENT))
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_mistakes_in_independent_parts_are_all_named_together(game, data):
    """Whatever mistakes in independent parts of one entry are made together, the engine names at
    least every place it names for each of them made alone."""
    name, players, options, before, valid, mistakes = INDEPENDENT[game]
    assert not _wheres(name, players, options, [*before, valid])
    chosen = data.draw(st.sets(st.sampled_from(range(len(mistakes))), min_size=2))
    alone = set()
    for k in chosen:
        wheres = _wheres(name, players, options, [*before, _with(valid, **mistakes[k])])
        assert wheres, f"{mistakes[k]} alone is not refused"
        alone |= wheres
    together = _with(valid, **{key: value for k in sorted(chosen) for key, value in mistakes[k].items()})
    assert alone <= _wheres(name, players, options, [*before, together])
