"""Every message a player can be shown is in players' words: a corpus of bad entries per game,
through the entry forms and through the API, and not one message may speak JSON or code.

A message fails when it holds a brace, null, None, True or False, "(true or false)", an
instruction about the JSON ("list them in rejoin"), or one of the game's internal names (a bid's
slug such as partner-against-stock, a progress such as declared-failed). Messages through the
forms must not name the JSON's fields either (declarer_points, wrong_show); the API's messages
may, as its fields are its contract (docs/api.md).

Each game's corpus is a ``Corpus`` in ``CORPORA``: the table to open, bad form posts (the
fields of one entry) and bad API rounds. A game is added by adding its corpus.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.games import rally_the_king as rk
from companion.games import rummathon_royale as rr


@dataclass
class Corpus:
    game: str
    players: tuple[str, ...]
    options: dict[str, str]  # the new-table form's option fields
    api_options: dict[str, Any]
    forms: list[dict[str, str]]
    api: list[Any]  # each one round (hand or deal) of the game's JSON
    slugs: tuple[str, ...] = ()  # internal names no player may see
    defaults: dict[str, str] = field(default_factory=dict)  # fields every form post carries


# A message must not hold any of these, shown to a player or to a program.
_ALWAYS = re.compile(r"[{}]|\bnull\b|\bNone\b|\bTrue\b|\bFalse\b|\(true or false\)|list them in|"
                     r"must be an object|e\.g\. \[")
# Through a form, a message must not name the JSON's fields either.
_FIELD_NAME = re.compile(r"\b[a-z]+_[a-z_]+\b")


def problems_in(message: str, slugs: tuple[str, ...], form: bool) -> list[str]:
    """What in ``message`` a player should never see.

    >>> problems_in('add {"bonus": "owl"} or made false', (), True)
    ['{', '}']
    >>> problems_in("one of one-trick, partner-against-stock", ("partner-against-stock",), False)
    ['partner-against-stock']
    >>> problems_in("give declarer_points or declarer_cards", (), True)
    ['declarer_points', 'declarer_cards']
    >>> problems_in("Choose who held the called King (RK-5).", ("partner",), True)
    []
    """
    found = _ALWAYS.findall(message)
    found += [slug for slug in slugs if re.search(rf"(?<![\w-]){re.escape(slug)}(?![\w-])", message)]
    if form:
        found += _FIELD_NAME.findall(message)
    return found


_HYPHENATED = tuple(s for s in (*rk.BIDS, *rk.BONUSES, *rr.PROGRESS) if "-" in s)


RALLY = Corpus(
    game="rally-the-king", players=("Ann", "Ben", "Cat", "Dan"),
    options={"opt-counting": "individual", "opt-hands": "4"}, api_options={"counting": "individual", "hands": 4},
    defaults={"dealer": "Ann"},
    slugs=_HYPHENATED,
    forms=[
        {},
        {"bid": ""},
        {"bid": "solo"},
        {"bid": "solo", "declarer": "Ben"},
        {"bid": "solo", "declarer": "Ben", "declarer_points": "64", "c_kings": "0"},
        {"bid": "solo", "declarer": "Ben", "declarer_points": "58", "c_honours": "3", "c_kings": "4", "c_others": "20"},
        {"bid": "solo", "declarer": "Ben", "declarer_points": "lots"},
        {"bid": "solo", "declarer": "Ben", "declarer_points": "130"},
        {"bid": "solo", "declarer": "Ben", "declarer_points": "-4"},
        {"bid": "solo", "declarer": "Ben", "declarer_points": "59 1/2"},
        {"bid": "solo", "declarer": "Ben", "c_kings": "5"},
        {"bid": "solo", "declarer": "Ben", "c_tricks": "13"},
        {"bid": "solo", "declarer": "Ben", "c_others": "x"},
        {"bid": "solo", "declarer": "Zed", "declarer_points": "70"},
        {"bid": "partner", "declarer": "Ben", "declarer_points": "70"},
        {"bid": "partner-against-stock", "declarer": "Ben", "declarer_points": "70"},
        {"bid": "partner", "declarer": "Ben", "partner": "Ben", "called_king": "KH", "declarer_points": "70"},
        {"bid": "partner-with-bird", "declarer": "Ben", "called_king": "KS", "partner": "Cat",
         "declarer_points": "70"},
        {"bid": "solo-with-bird", "declarer": "Ben", "bird": "owl", "declarer_points": "70"},
        {"bid": "solo-with-bird", "declarer": "Ben", "declarer_points": "70"},
        {"bid": "solo-with-bird", "declarer": "Ben", "bird": "owl", "bird_made": "yes", "declarer_points": "70",
         "bo_owl_side": "declarer"},
        {"bid": "solo", "declarer": "Ben", "declarer_points": "70", "bo_last-king_side": "declarer",
         "bo_last-king_made": "y"},
        {"bid": "partner", "declarer": "Ben", "called_king": "KH", "partner": "Cat", "declarer_points": "70",
         "bo_last-king_side": "defenders", "bo_last-king_made": "y"},
        {"bid": "solo", "declarer": "Ben", "c_kings": "2", "c_tricks": "6", "bo_kings_side": "declarer",
         "bo_kings_made": "y"},
        {"bid": "solo", "declarer": "Ben", "c_tricks": "6", "bo_slam_side": "declarer", "bo_slam_made": "y"},
        {"bid": "one-trick", "declarer": "Ben"},
        {"bid": "one-trick", "declarer": "Ben", "declarer_tricks": "13"},
        {"bid": "beggar", "declarer": "", "declarer_tricks": "0"},
        {"bid": "all-beggars"},
        {"bid": "all-beggars", "pp_0": "10", "pp_1": "lots", "pp_2": "", "pp_3": "30"},
        {"bid": "all-beggars", "pp_0": "60", "pp_1": "60", "pp_2": "60", "pp_3": "60"},
        {"bid": "teleport", "declarer": "Ben"},
        {"bid": "solo", "declarer": "Ben", "declarer_points": "70", "dealer": "Zed"},
        {"bid": "solo", "declarer": "Ben", "declarer_points": "70", "note": "x" * 300},
    ],
    api=[
        "solo", None, {}, {"bid": "grand", "declarer": "Ben", "declarer_points": 64},
        {"bid": "solo", "declarer": None, "declarer_points": 64},
        {"bid": "solo", "declarer": True, "declarer_points": 64},
        {"bid": "solo", "declarer": "Ben", "declarer_points": 64, "declarer_cards": {"kings": 0}},
        {"bid": "solo", "declarer": "Ben"},
        {"bid": "solo", "declarer": "Ben", "declarer_points": [64]},
        {"bid": "solo", "declarer": "Ben", "declarer_points": None, "declarer_cards": []},
        {"bid": "solo", "declarer": "Ben", "declarer_cards": {"jacks": 1}},
        {"bid": "solo", "declarer": "Ben", "declarer_cards": {"kings": True}},
        {"bid": "solo", "declarer": "Ben", "declarer_cards": {"kings": 2.5}},
        {"bid": "partner", "declarer": "Ben", "called_king": "QH", "partner": "Cat", "declarer_points": 64},
        {"bid": "partner", "declarer": "Ben", "called_king": 13, "partner": "Cat", "declarer_points": 64},
        {"bid": "partner", "declarer": "Ben", "called_king": "KH", "partner": "Ben", "declarer_points": 64},
        {"bid": "solo", "declarer": "Ben", "partner": "Cat", "called_king": "KH", "declarer_points": 64},
        {"bid": "solo-with-bird", "declarer": "Ben", "bird": "owl", "declarer_points": 64},
        {"bid": "solo-with-bird", "declarer": "Ben", "bird": "eagle", "declarer_points": 64},
        {"bid": "solo-with-bird", "declarer": "Ben", "declarer_points": 64},
        {"bid": "solo", "declarer": "Ben", "bird": "owl", "declarer_points": 64},
        {"bid": "solo", "declarer": "Ben", "declarer_points": 64, "bonuses": "slam"},
        {"bid": "solo", "declarer": "Ben", "declarer_points": 64, "bonuses": [None]},
        {"bid": "solo", "declarer": "Ben", "declarer_points": 64, "bonuses": [{"bonus": "grand"}]},
        {"bid": "solo", "declarer": "Ben", "declarer_points": 64, "bonuses": [{"bonus": "slam"}]},
        {"bid": "solo", "declarer": "Ben", "declarer_points": 64,
         "bonuses": [{"bonus": "slam", "side": "declarer", "announced": None, "made": None}]},
        {"bid": "solo", "declarer": "Ben", "declarer_points": 64,
         "bonuses": [{"bonus": "last-king", "side": "declarer", "announced": False, "made": True}]},
        {"bid": "solo", "declarer": "Ben", "declarer_points": 64,
         "bonuses": [{"bonus": "slam", "side": "declarer", "announced": False, "made": True}] * 2},
        {"bid": "one-trick", "declarer": "Ben"},
        {"bid": "one-trick", "declarer": "Ben", "declarer_tricks": "1"},
        {"bid": "one-trick", "declarer": "Ben", "declarer_tricks": 1, "declarer_points": 5},
        {"bid": "one-trick", "declarer": "Ben", "declarer_tricks": 1,
         "bonuses": [{"bonus": "slam", "side": "declarer", "announced": False, "made": True}]},
        {"bid": "all-beggars", "player_points": None},
        {"bid": "all-beggars", "player_points": {"Ann": 10}},
        {"bid": "all-beggars", "player_points": {"Ann": 10, "Ben": 10, "Cat": 10, "Dan": 10, "Zed": 1}},
        {"bid": "solo", "declarer": "Ben", "declarer_points": 64, "tricks": 7},
        {"bid": "solo", "declarer": "Ben", "declarer_points": 64, "note": 5},
        {"dealer": "Zed", "bid": "solo", "declarer": "Ben", "declarer_points": 64},
    ],
)

RUMMATHON = Corpus(
    game="rummathon-royale", players=("Ann", "Ben", "Cat"),
    options={"opt-schedule": "all"}, api_options={"schedule": "all"},
    slugs=_HYPHENATED,
    forms=[
        {},
        {"out": "Zed"},
        {"out": "Ann", "p0_low": "2"},
        {"out": "Ann", "p1_low": "x"},
        {"out": "Ann", "p1_low": "-1"},
        {"out": "Ann", "p1_low": "500"},
        {"out": "Ann", "p1_extra": "30"},
        {"out": "Ann", "p1_extra": "2"},
        {"out": "Ann", "p0_progress": "declared-failed"},
        {"out": "Ann", "p0_progress": "failed", "p1_progress": "teleported"},
        {"out": "Ann", "b0_on": "Ben"},
        {"out": "Ann", "b0_on": "Ben", "b0_result": "failed"},
        {"out": "Ann", "b0_by": "Cat", "b0_result": "failed"},
        {"out": "Ann", "b0_on": "Ben", "b0_by": "Cat"},
        {"out": "Ann", "b0_result": "completed"},
        {"out": "Ann", "b0_double": "y"},
        {"out": "Ann", "b0_on": "Ben", "b0_by": "Ben", "b0_result": "failed"},
        {"out": "Ann", "b0_on": "Ben", "b0_by": "Cat", "b0_result": "failed", "b1_on": "Ben", "b1_by": "Ann",
         "b1_result": "completed"},
        {"out": "Ann", "p2_low": "3", "p2_high": "abc", "p2_flex": "1.5"},
        {"out": "Ann", "b0_on": "Ben", "b0_by": "Cat", "b0_result": "failed", "p1_progress": "completed"},
        {"out": "", "p0_progress": "failed"},
        {"out": "", "p0_progress": "double-completed", "p1_progress": "double-completed"},
        {"out": "Ann", "p1_extra": "abc"},
        {"out": "Ann", "b0_on": "Zed", "b0_by": "Cat", "b0_result": "failed"},
    ],
    api=[
        "Ann went out", None, {}, {"out": None}, {"out": 5}, {"out": "Zed"},
        {"out": "Ann", "winner": "Ann"},
        {"out": "Ann", "left": ["Ben"]},
        {"out": "Ann", "left": {"Ben": 5}},
        {"out": "Ann", "left": {"Ben": {"jokers": 1}}},
        {"out": "Ann", "left": {"Ben": {"low": "3"}}},
        {"out": "Ann", "left": {"Ben": {"low": 3.5}}},
        {"out": "Ann", "left": {"Ben": {"low": True}}},
        {"out": "Ann", "left": {"Ben": {"low": None}}},
        {"out": "Ann", "left": {"Zed": {"low": 1}}},
        {"out": "Ann", "progress": {"Ben": ["completed"]}},
        {"out": "Ann", "progress": {"Ben": "teleported"}},
        {"out": "Ann", "progress": {"Ben": None}},
        {"out": "Ann", "progress": {"Ann": "declared-failed"}},
        {"out": "Ann", "burdens": {"on": "Ben"}},
        {"out": "Ann", "burdens": ["Ben"]},
        {"out": "Ann", "burdens": [{"on": "Ben", "by": None, "completed": False}]},
        {"out": "Ann", "burdens": [{"on": None, "by": "Cat", "completed": False}]},
        {"out": "Ann", "burdens": [{"on": "Ben", "by": "Cat", "completed": None}]},
        {"out": "Ann", "burdens": [{"on": "Ben", "by": "Cat", "double": 1, "completed": False}]},
        {"out": "Ann", "burdens": [{"on": "Ben", "by": "Cat", "completed": False, "card": "x"}]},
        {"out": "Ann", "extra_cards": {"Ben": "2"}},
        {"out": "Ann", "extra_cards": {"Ben": 99}},
        {"out": "Ann", "extra_cards": {"Ben": None}},
        {"out": "Ann", "extra_cards": ["Ben"]},
    ],
)

RUMMY = Corpus(
    game="indian-rummy", players=("Ann", "Ben", "Cat"),
    options={"opt-variant": "points"}, api_options={"variant": "points"},
    slugs=_HYPHENATED + ("pool101", "pool201"),
    forms=[
        {},
        {"wild": "7"},
        {"winner": "Ann"},
        {"wild": "7", "winner": "Ann", "p1_mode": "count"},
        {"wild": "7", "winner": "Ann", "p1_mode": "count", "p1_count": "x", "p2_mode": "first"},
        {"wild": "7", "winner": "Ann", "p1_mode": "count", "p1_count": "500", "p2_mode": "first"},
        {"wild": "7", "winner": "Ann", "p1_mode": "cards", "p1_cards": "4C 5C ZZ", "p2_mode": "first"},
        {"wild": "7", "winner": "Ann", "p1_mode": "cards", "p1_cards": "4C 5C 6C", "p2_mode": "first"},
        {"wild": "7", "winner": "Ann", "p1_mode": "groups", "p1_groups": "4C 5C 6C | QQ", "p2_mode": "first"},
        {"wild": "7", "winner": "Ann", "p1_mode": "groups", "p1_groups": "4C 5C", "p1_loose": "1Z",
         "p2_mode": "first"},
        {"wild": "7", "winner": "Ann", "p0_groups": "AH 2H 3H | KD AD 2D | 5C 6C 7C 8C | 9S 9H 9D",
         "p1_mode": "count", "p1_count": "20", "p2_mode": "first"},
        {"wild": "7", "winner": "Ann", "p0_groups": "AH 2H 3H | 4S 4H 4D", "p1_mode": "count", "p1_count": "20",
         "p2_mode": "first"},
        {"wild": "7", "winner": "Ann", "p0_groups": "AH 2H 3H 4H 5H 6H 8H 9H 10H JH QH KH 2S",
         "p1_mode": "count", "p1_count": "20", "p2_mode": "first"},
        {"wild": "7", "winner": "Ann", "p0_groups": "AH 2H 3H | 5S 6S 7D 8S | QC QD QS | 9H 10H JH",
         "p0_loose": "KS", "p1_mode": "count", "p1_count": "20", "p2_mode": "first"},
        {"wild": "7", "winner": "Ann", "p0_cards": "AH 2H", "p0_mode": "cards", "p1_mode": "count",
         "p1_count": "20", "p2_mode": "first"},
        {"wild": "7", "winner": "Ann", "p1_mode": "cards",
         "p1_cards": "AS AS AS AS AS AS AS AS AS AS AS AS AS", "p2_mode": "first"},
        {"wild": "teleport", "winner": "Ann", "p1_mode": "first", "p2_mode": "first"},
        {"wild": "7", "winner": "Zed", "p1_mode": "first", "p2_mode": "first"},
        {"wild": "7", "winner": "Ann", "p1_mode": "out", "p2_mode": "first"},
        {"wild": "7", "winner": "Ann", "p1_mode": "teleport", "p2_mode": "first"},
        {"wild": "7", "winner": "Ann", "p1_mode": "count", "p1_count": "20", "p2_mode": "first", "p1_rejoin": "y"},
    ],
    api=[
        "deal", None, {}, {"wild": "7"}, {"wild": None, "winner": "Ann", "hands": {}},
        {"wild": "Z", "winner": "Ann", "hands": {"Ben": {"count": 5}, "Cat": {"count": 5}}},
        {"wild": [7], "winner": "Ann", "hands": {"Ben": {"count": 5}, "Cat": {"count": 5}}},
        {"wild": "7", "winner": None, "hands": {"Ben": {"count": 5}, "Cat": {"count": 5}}},
        {"wild": "7", "winner": True, "hands": {"Ben": {"count": 5}, "Cat": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "hands": ["Ben"]},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": None, "Cat": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 5, "drop": "first"}, "Cat": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": "5"}, "Cat": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": None}, "Cat": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 500}, "Cat": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"drop": "late"}, "Cat": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"drop": None}, "Cat": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"wrong_show": False}, "Cat": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"cards": "4C 5C"}, "Cat": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"cards": [None, 5]}, "Cat": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"groups": "4C 5C 6C"}, "Cat": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"groups": [["4C"]], "loose": None}, "Cat": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 5, "colour": "red"}, "Cat": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 5}, "Cat": {"count": 5}, "Zed": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 5}, "Cat": {"count": 5}}, "rejoin": ["Ben"]},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 5}, "Cat": {"count": 5}}, "rejoin": "Ben"},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 5}, "Cat": {"count": 5}}, "note": 5},
        {"wild": "7", "winner": "Ann", "hands": {"Ann": {"groups": [["AH", "2H"]]}, "Ben": {"count": 5},
                                                 "Cat": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "hands": {"Ann": {"cards": ["AH", "2H", "3H", "4C", "9D", "KS", "QS",
                                                                   "JC", "10D", "2S", "5S", "8H", "6D"]},
                                                 "Ben": {"count": 5}, "Cat": {"count": 5}}},
        {"wild": "7", "winner": "Ann", "dealer": "Ben", "hands": {"Ben": {"count": 5}, "Cat": {"count": 5}}},
    ],
)

ROYAL_PAY = ("10H", "JH", "QH", "KH", "AH")
RUMMY_ROYAL = Corpus(
    game="rummy-royal", players=("Ann", "Ben", "Cat", "Dan"),
    options={"opt-chips": "100", "opt-sequence": "8-9-10", "opt-poker": "yes", "opt-dealer_antes": "1"},
    api_options={}, slugs=(),
    forms=[
        {}, {"out": ""}, {"out": "Zed"}, {"dealer": "Zed", "out": "Ann"},
        {"pay_KH": ["Ann", "Ben"], "out": "Ann"}, {"pay_AH": "Zed", "out": "Ann"},
        {"sequence": "Zed", "out": "Ann"}, {"winners": "Zed", "out": "Ann"},
        {"p0_bet": "95", "winners": "Ann", "out": "Ann"}, {"p0_bet": "-3", "winners": "Ann", "out": "Ann"},
        {"p1_bet": "x", "out": "Ann"}, {"p2_fold": "y", "winners": "Cat", "out": "Ann"},
        {"out": "Cat", "p2_left": "3"}, {"out": "Ann", "p1_left": "60"}, {"out": "Ann", "p1_left": "-1"},
        {"out": "Ann", "p1_left": "a few"},
        {"out": "Ann", "p0_cards": "AS KS QS JS 10S", "p1_cards": "AS 2D 3D 4D 5D"},
        {"out": "Ann", "p0_cards": "AS KS QS"}, {"out": "Ann", "p0_cards": "ZZ QQ XX YY WW"},
        {"out": "Ann", "note": "x" * 300}, {"end_to": "Zed"},
        {"pay_10H": "Ann", "pay_JH": "Ann", "pay_QH": ["Cat", "Dan"], "out": "Ben", "p1_left": "2"},
    ],
    api=[
        None, [], "deal", {}, {"out": "Zed"}, {"out": None}, {"out": 5},
        {"out": "Ann", "pay_cards": {"ZZ": "Ann"}}, {"out": "Ann", "pay_cards": {"KH": "Zed"}},
        {"out": "Ann", "pay_cards": "KH"}, {"out": "Ann", "sequence": "Ann"}, {"out": "Ann", "sequence": ["Zed"]},
        {"out": "Ann", "poker": {"bets": {"Ann": -1}, "winners": ["Ann"]}},
        {"out": "Ann", "poker": {"bets": {"Ann": "x"}, "winners": ["Ann"]}},
        {"out": "Ann", "poker": {"bets": {"Ann": 2}, "winners": ["Zed"]}},
        {"out": "Ann", "poker": {"bets": {"Ann": 2}, "folded": ["Ann"], "winners": ["Ann"]}},
        {"out": "Ann", "poker": "Ann"}, {"out": "Ann", "cards_left": {"Ben": -2}},
        {"out": "Ann", "cards_left": {"Ben": "x"}}, {"out": "Ann", "cards_left": {"Zed": 2}},
        {"out": "Ann", "cards_left": {"Ann": 2}}, {"out": "Ann", "dealer": "Zed"}, {"out": "Ann", "dealer": 5},
        {"end": {"board_to": "Zed"}}, {"end": "Ben"}, {"out": "Ann", "note": 5}, {"out": "Ann", "extra": 1},
    ],
)


def royals_corpus(game: str, players: tuple[str, ...], options: dict[str, str]) -> Corpus:
    """Battle Royals (two) or Marriage Royals (three): boards as in Alliance Royals, hostages only in the
    second (MR-2), a surrender of one player's."""
    houses = dict(zip(players, "SHD", strict=False))
    last = len(players) - 1

    def board(**over):
        return {"house": "S", "spoils": [], "meld": [], "hand": [], **over}

    def api_round(**boards):
        full = {p: board(house=h) for p, h in houses.items()}
        full.update(boards)
        return {"players": full}

    return Corpus(
        game=game, players=players, options=options, api_options={},
        defaults={f"p{i}_house": h for i, h in enumerate(houses.values())},
        forms=[
            {"p0_house": ""}, {"p0_house": "X"}, {"p0_spoils": "ZZ"}, {"p0_spoils": "KS KS KS KS"},
            {"p0_spoils": "10X"}, {"p0_spoils": "K"}, {"p0_meld": "2S", "p1_hand": "2S 2S"},
            {"p0_spoils": "♠K"}, {"p0_hand": "AS AS AS AS", "p1_spoils": "JH JH JH JH"},
            {f"p{last}_meld": "7C 7C 7C 7C 7C"}, {"p0_spoils": "x" * 500}, {"p1_meld": "KS QS JS 10S 9S 8S 7S 1S"},
            {"surrender": "Ann"}, {"surrender": "Zed", "confirm_surrender": "y"},
            {"p0_h0_card": "QH", "p0_h0_target": "Ben"}, {"p0_h0_card": "ZZ", "p0_h0_target": "Zed"},
            {"p1_hand": "QQ"}, {"note": "x" * 600},
        ],
        api=[
            api_round(Ann=board(house=None)), api_round(Ann=board(house="X")), api_round(Ann=board(house=5)),
            api_round(Ann=board(spoils=["ZZ"])), api_round(Ann=board(spoils="KS QS")),
            api_round(Ann=board(spoils=[5])), api_round(Ann=board(spoils=[None])), api_round(Ann=board(spoils=["1S"])),
            api_round(Ann=board(spoils=["KS"] * 4)), api_round(Ann=board(meld=["2S", "2S", "2S", "2S", "2S"])),
            api_round(Ann=board(hostages=[{"card": "QS", "target": "Zed"}])),
            api_round(Ann=board(hostages="QH")), api_round(Ann=board(color="red")), api_round(Ann=None),
            api_round(Ann="S"), {"players": {"Ann": board()}}, {"players": {**api_round()["players"], "Zed": board()}},
            {**api_round(), "surrender": "Zed"}, {**api_round(), "surrender": 5}, {}, None, [], "round",
            {**api_round(), "extra": 1}, {**api_round(), "note": 5}, {"players": []},
        ],
    )


BATTLE = royals_corpus("battle-royals", ("Ann", "Ben"), {"opt-win_above": "1066", "opt-lose_below": "-333"})
MARRIAGE = royals_corpus("marriage-royals", ("Ann", "Ben", "Cat"),
                         {"opt-win_above": "1066", "opt-lose_below": "-333", "opt-share": "positive"})

CORPORA: dict[str, Corpus] = {c.game: c for c in (RALLY, RUMMATHON, RUMMY, RUMMY_ROYAL, BATTLE, MARRIAGE)}


def _messages_in_page(page: str) -> list[str]:
    """The messages an entry page shows: beside the fields and in the list at the top."""
    found = re.findall(r'<p class="error"[^>]*>(.*?)</p>', page, re.S)
    box = re.search(r'<div class="errors"[^>]*>(.*?)</div>', page, re.S)
    if box:
        found += re.findall(r"<li>(.*?)</li>", box.group(1), re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", m)).strip() for m in found]


def _open_table(client, corpus: Corpus) -> tuple[str, str]:
    data = {f"seat{i}": p for i, p in enumerate(corpus.players, 1)} | corpus.options
    response = client.post(f"/new/{corpus.game}", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    table, key = response.headers["Location"].split("?key=")
    return table, key


def _version(client, table: str, key: str) -> str:
    page = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    return re.search(r'name="base_version"[^>]*value="(\d+)"', page).group(1)


@pytest.mark.parametrize("game", sorted(CORPORA))
def test_each_corpus_holds_at_least_forty_bad_entries(game):
    corpus = CORPORA[game]
    assert len(corpus.forms) + len(corpus.api) >= 40
    assert len(corpus.forms) >= 15 and len(corpus.api) >= 15


@pytest.mark.parametrize("game", sorted(CORPORA))
def test_every_message_through_the_form_is_in_players_words(client, game):
    corpus = CORPORA[game]
    table, key = _open_table(client, corpus)
    version = _version(client, table, key)
    bad: list[tuple[dict[str, str], str, list[str]]] = []
    shown = 0
    for fields in corpus.forms:
        data = {"base_version": version, **corpus.defaults, **fields}
        response = client.post(f"{table}/hands?key={key}", data=data)
        assert response.status_code == 422, (fields, response.status_code)
        messages = _messages_in_page(response.get_data(as_text=True))
        assert messages, f"{fields} was refused without a message"
        shown += len(messages)
        bad += [(fields, m, p) for m in messages if (p := problems_in(m, corpus.slugs, form=True))]
    assert not bad, "\n".join(f"{f}: {m!r} shows {p}" for f, m, p in bad)
    assert shown >= len(corpus.forms)


@pytest.mark.parametrize("game", sorted(CORPORA))
def test_every_message_through_the_api_is_in_players_words(client, game):
    corpus = CORPORA[game]
    bad: list[tuple[Any, str, list[str]]] = []
    for entry in corpus.api:
        body = {"game": game, "players": list(corpus.players), "options": corpus.api_options, "rounds": [entry]}
        response = client.post("/api/v1/score", json=body)
        assert response.status_code == 422, (entry, response.get_data(as_text=True))
        for problem in response.get_json()["errors"]:
            assert problem["where"], entry  # the place stays for programs
            found = problems_in(problem["message"], corpus.slugs, form=False)
            if found:
                bad.append((entry, problem["message"], found))
    assert not bad, "\n".join(f"{e}: {m!r} shows {p}" for e, m, p in bad)
