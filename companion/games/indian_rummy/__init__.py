"""Indian Rummy (13 cards), scored as RULINGS.md IR-1 to IR-10 say: points, pool and deals rummy.

Each deal names the wild rank (IR-2), the player who declared and won, and every other
player's hand: groups and loose cards, the 13 cards (arranged here for the lowest count),
a count, a drop or a wrong show. The API's example, a deal of points rummy (IR-8):

>>> game = score(("Ann", "Ben", "Cat"), {}, [{"wild": "7", "winner": "Ann", "hands": {
...     "Ann": {"groups": [["AH", "2H", "3H"], ["5S", "6S", "7D", "8S"], ["QC", "QD", "QS"], ["9H", "10H", "JH"]]},
...     "Ben": {"groups": [["4C", "5C", "6C"], ["8D", "9D", "10D"]],
...             "loose": ["KS", "QD", "2H", "3S", "5D", "9C", "JC"]},
...     "Cat": {"drop": "first"}}}])
>>> game.rounds[0].points
{'Ann': 69, 'Ben': -49, 'Cat': -20}
>>> ben = game.rounds[0].explain["Ben"]
>>> ben[0], ben[2]
('4C 5C 6C: pure sequence: three Clubs in a row (IR-4)', 'Loose: KS QD 2H 3S 5D 9C JC (IR-6)')
>>> ben[3].endswith("count: KS 10 + QD 10 + 2H 2 + 3S 3 + 5D 5 + 9C 9 + JC 10 = 49 (IR-3, IR-6)")
True
>>> ben[4]
'Pays 49 to Ann: −49 (IR-8)'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import lru_cache
from typing import Any, NamedTuple

from ...core.cards import JOKER_RANK, RANKS, SUITS, Card, CardError, format_cards, parse_card
from ...core.messages import Grouped, Listed, Signed, Text, joined, say, say_n
from ..base import (
    Decided,
    InputError,
    Problems,
    ScoredGame,
    check_count,
    check_note,
    is_whole_number,
    not_at_table,
    said,
)
from .arranger import (
    CAP,
    HAND_SIZE,
    Arrangement,
    GroupKind,
    best_arrangement,
    card_value,
    check_declaration,
    classify,
    count_detail,
    rank_values,
    wild_rank_of,
)

# The game is rescored after every entry, so each deal's hands come back again and again:
# arrange and judge each hand of cards once (the arranger's results are immutable).
_best_arrangement = lru_cache(maxsize=4096)(best_arrangement)
_check_declaration = lru_cache(maxsize=4096)(check_declaration)
_count_detail = lru_cache(maxsize=4096)(count_detail)


def clear_caches() -> None:
    """Forget every hand arranged so far (the bench measures a first scoring with it)."""
    for cached in (_best_arrangement, _check_declaration, _count_detail):
        cached.cache_clear()

SLUG = "indian-rummy"
TITLE = "Indian Rummy"
MIN_PLAYERS = 2
MAX_PLAYERS = 9
ROUND_NAME = "deal"
#: The largest point value (IR-8): money stays an exact, finite number at any score.
MAX_POINT_VALUE = 1_000_000

OPTIONS: dict[str, Any] = {"variant": "points", "decks": None, "point_value": 1, "deals": 2}

VARIANTS: dict[str, Text] = {
    "points": say("Points rummy"),
    "pool101": say("Pool rummy (101)"),
    "pool201": say("Pool rummy (201)"),
    "deals": say("Deals rummy"),
}
#: The same names inside a sentence ("this game is pool rummy (101)").
VARIANT_WORDS: dict[str, Text] = {
    "points": say("points rummy"),
    "pool101": say("pool rummy (101)"),
    "pool201": say("pool rummy (201)"),
    "deals": say("deals rummy"),
}
#: IR-9: a player is out of the pool at this total or more ...
POOL_OUT = {"pool101": 101, "pool201": 201}
#: ... and may rejoin only while no player still in is above this.
REJOIN_LIMIT = {"pool101": 79, "pool201": 174}
#: IR-7: drops, and the wrong show.
DROP_POINTS = {"pool201": {"first": 25, "middle": 50}}
DEFAULT_DROP_POINTS = {"first": 20, "middle": 40}
WRONG_SHOW = 80
#: IR-7; "missed" (three turns missed in a row) is entered as its own kind and costs a middle drop.
DROPS = {
    "first": say("First drop"),
    "middle": say("Middle drop"),
    "missed": say("Three turns missed in a row, a middle drop"),
}
#: IR-1: at most this many decks may be named; one deck is 52 cards and a printed Joker.
MAX_DECKS = 4
DECK_SIZE = 53
MAX_DEALS = 100
#: IR-3: thirteen cards count at most 13 x 10 before the cap.
MOST_RAW = HAND_SIZE * 10
#: The subject of a count's problem ("the count cannot be negative").
COUNT_SUBJECT = say("the count")

DEAL_FIELDS = {"wild", "winner", "hands", "rejoin", "note"}
HAND_FIELDS = {"groups", "loose", "cards", "count", "drop", "wrong_show"}
HAND_SHAPE = say("groups and loose cards, the 13 cards, a count, a drop or a wrong show")
KIND_WORDS = {"groups": say("groups"), "cards": say("the 13 cards"), "count": say("a count"), "drop": say("a drop"),
              "wrong_show": say("a wrong show")}


def decks_for(players: int) -> int:
    """IR-1: 2 players play with 1 deck, 3 to 6 with 2, 7 or more with 3.

    >>> [decks_for(n) for n in (2, 3, 6, 7, 9)]
    [1, 2, 2, 3, 3]
    """
    return 1 if players <= 2 else 2 if players <= 6 else 3


def penalties(variant: str) -> dict[str, int]:
    """IR-7: what a first drop, a middle drop and a wrong show cost in a variant.

    >>> penalties("points")
    {'first': 20, 'middle': 40, 'missed': 40, 'wrong_show': 80}
    >>> penalties("pool201")
    {'first': 25, 'middle': 50, 'missed': 50, 'wrong_show': 80}
    """
    drops = DROP_POINTS.get(variant, DEFAULT_DROP_POINTS)
    return {**drops, "missed": drops["middle"], "wrong_show": WRONG_SHOW}


def signed_amount(amount: int | float) -> str:
    """Money as a sheet shows it, with a true minus sign.

    >>> signed_amount(-24.5), signed_amount(6.9), signed_amount(0)
    ('−24.5', '+6.9', '0')
    """
    if amount > 0:
        return f"+{amount:g}"
    if amount < 0:
        return f"−{-amount:g}"
    return "0"


def money(points: int, point_value: int | float) -> int | float:
    """IR-8: points times the point value, in decimal so that 0.1 a point stays exact.

    >>> money(-49, 1), money(69, 0.1), money(-20, 2.5)
    (-49, 6.9, -50.0)
    """
    if isinstance(point_value, int):
        return points * point_value
    return float(Decimal(repr(point_value)) * points)


# ---------------------------------------------------------------------------------------
# A deal as entered


class Entry(NamedTuple):  # a named tuple: made for every hand of every deal, and cheaper than a dataclass
    """One player's hand in a deal, after its shape has been checked."""

    kind: str  # "groups", "cards", "count", "drop" or "wrong_show"
    where: str
    groups: tuple[tuple[Card, ...], ...] = ()
    loose: tuple[Card, ...] = ()
    cards: tuple[Card, ...] = ()
    count: int = 0
    drop: str = ""


class Deal(NamedTuple):
    """One deal as read (a named tuple, as :class:`Entry`)."""

    wild: str | None  # as cut: a rank, or JK
    wild_rank: str | None  # IR-2: the rank that is wild (Aces when a printed Joker was cut)
    winner: str
    hands: Mapping[str, Entry]
    rejoin: tuple[tuple[str, str], ...]  # (name, where)
    at: str
    #: Something in the deal could not be read: the rest is still checked against the game so
    #: far (who is out, who rejoins, the winner's declaration), but the deal is not scored.
    broken: bool = False
    given: frozenset[str] = frozenset()  # the players whose hand was entered, read or not
    doubtful: frozenset[str] = frozenset()  # the players whose hand has a problem of its own


class Judged(NamedTuple):
    """What one player's hand comes to in one deal: the count, the lines, the detail (a named
    tuple, as :class:`Entry`)."""

    count: int
    lines: list[str]
    detail: dict[str, Any]


def _check_options(players: Sequence[str], options: Mapping[str, Any], found: Problems) -> dict[str, Any]:
    opts = dict(OPTIONS)
    for key, value in options.items():
        where = f"options.{key}"
        if key not in OPTIONS:
            found.add(where, say("unknown option {option}; {game} has {options}", option=said(key), game=TITLE,
                                 options=", ".join(OPTIONS)))
        elif key == "variant":
            if not isinstance(value, str) or value not in VARIANTS:
                found.add(where, say("unknown variant {variant}; use {variants} (IR-8 to IR-10)", variant=said(value),
                                     variants=", ".join(VARIANTS)))
            else:
                opts[key] = value
        elif key == "decks":
            if value is None:
                continue
            if not is_whole_number(value) or not 1 <= value <= MAX_DECKS:
                found.add(where, say("decks must be a whole number from 1 to {most}, or left out for the usual number "
                                     "(IR-1)", most=MAX_DECKS))
            elif value * DECK_SIZE < HAND_SIZE * len(players):
                found.add(where, say_n("{hands} hands of {size} cards need more than {count} deck (IR-1)",
                                       "{hands} hands of {size} cards need more than {count} decks (IR-1)", value,
                                       hands=len(players), size=HAND_SIZE))
            else:
                opts[key] = value
        elif key == "point_value":
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0 or value != value:
                found.add(where, say("the point value must be a number above 0, such as 1 or 0.25 (IR-8)"))
            elif not value <= MAX_POINT_VALUE:  # also Infinity, and a huge number whose money would overflow
                found.add(where, say("the point value may be at most {most} (IR-8)", most=Grouped(MAX_POINT_VALUE)))
            elif isinstance(value, float) and value == int(value):
                opts[key] = int(value)
            else:
                opts[key] = value
        elif key == "deals":
            if not is_whole_number(value) or not 1 <= value <= MAX_DEALS:
                found.add(where, say("deals must be a whole number from 1 to {most} (IR-10)", most=MAX_DEALS))
            else:
                opts[key] = value
    return opts


#: Every card (IR-1) by its notation, as most entries give it: read without parsing.
_CARDS_BY_NOTATION: dict[str, Card] = {str(card): card for card in
                                       [Card(rank, suit) for rank in RANKS for suit in SUITS] + [Card(JOKER_RANK, "")]}


class _DealCards:
    """The cards of one deal as read, for the deck check (IR-1): their notations, counted at
    once, and each list with where it was entered, written out card by card only when some
    card is entered too often (the rare case, which check_decks then reports)."""

    __slots__ = ("notations", "lists")

    def __init__(self) -> None:
        self.notations: list[str] = []
        self.lists: list[tuple[str, str, tuple[Card, ...], Sequence[int]]] = []  # where, label, cards, indexes

    def places(self) -> list[tuple[Card, str, str]]:
        return [(card, f"{where}[{k}]", label) for where, label, cards, indexes in self.lists
                for card, k in zip(cards, indexes, strict=True)]

    def check(self, decks: int, found: Problems) -> None:
        # A card entered decks + 1 times makes decks copies more than there are different cards.
        notations = self.notations
        if len(notations) - len(set(notations)) >= decks and max(Counter(notations).values()) > decks:
            check_decks(self.places(), decks, found)


def _is_mapping(raw: object) -> bool:
    """A JSON object: a dict as parsed, checked first as the cheap case, or any other mapping."""
    return type(raw) is dict or isinstance(raw, Mapping)


def _card_list(raw: object, where: str, found: Problems, read: _DealCards, label: str) -> tuple[Card, ...]:
    """Parsed cards; each also goes into ``read`` for the deck check (IR-1)."""
    if not isinstance(raw, list):
        found.add(where, say("give the cards as a list of cards such as KS, 10H and JK"))
        return ()
    try:  # the usual entry: every card in its notation, read without parsing
        cards = tuple([_CARDS_BY_NOTATION[text] for text in raw])
    except (KeyError, TypeError):  # some card to parse, or not a card
        return _parsed_card_list(raw, where, found, read, label)
    read.notations += raw
    read.lists.append((where, label, cards, range(len(cards))))
    return cards


def _parsed_card_list(raw: list, where: str, found: Problems, read: _DealCards, label: str) -> tuple[Card, ...]:
    cards, indexes = [], []
    for k, text in enumerate(raw):
        card = _CARDS_BY_NOTATION.get(text) if isinstance(text, str) else None
        if card is None:
            try:
                card = parse_card(text, allow_joker=True)
            except CardError as err:
                found.add(f"{where}[{k}]", err.args[0])
                continue
        cards.append(card)
        indexes.append(k)
        read.notations.append(str(card))
    read.lists.append((where, label, tuple(cards), indexes))
    return tuple(cards)


def _parse_entry(raw: object, at: str, name: str, found: Problems, read: _DealCards) -> Entry | None:
    if not _is_mapping(raw):
        found.add(at, say("give {name}'s hand as an object: {shape}", name=name, shape=HAND_SHAPE))
        return None
    for key in raw:
        if key not in HAND_FIELDS:
            found.add(f"{at}.{key}", say("unknown field {field}; a hand has {fields}", field=said(key),
                                         fields=", ".join(sorted(HAND_FIELDS))))
    kinds = [k for k in ("groups", "cards", "count", "drop", "wrong_show") if k in raw]
    if "loose" in raw and "groups" not in kinds:
        kinds.insert(0, "groups")
    if len(kinds) != 1:
        if kinds:
            found.add(at, say("give exactly one of {shape} for {name} ({given} were given)", shape=HAND_SHAPE,
                              name=name, given=Listed([KIND_WORDS[k] for k in kinds])))
        else:
            found.add(at, say("give exactly one of {shape} for {name}", shape=HAND_SHAPE, name=name))
        return None
    kind = kinds[0]
    if kind == "groups":
        raw_groups = raw.get("groups", [])
        if not isinstance(raw_groups, list):
            found.add(f"{at}.groups", say("give the groups as a list, each group a list of cards such as AH 2H 3H"))
            return None
        label = say("{name}'s groups", name=name)
        groups = tuple([_card_list(g, f"{at}.groups[{k}]", found, read, label) for k, g in enumerate(raw_groups)])
        loose = _card_list(raw.get("loose", []), f"{at}.loose", found, read, say("{name}'s loose cards", name=name))
        given = len(loose) + sum([len(g) for g in groups])
        if given != HAND_SIZE and all(isinstance(g, list) for g in raw_groups):
            found.add(f"{at}.groups" if "groups" in raw else f"{at}.loose",
                      say("{name}'s groups and loose cards hold {given} cards; a hand has {size} (IR-5)", name=name,
                          given=given, size=HAND_SIZE))
        return Entry("groups", at, groups=groups, loose=loose)
    if kind == "cards":
        cards = _card_list(raw["cards"], f"{at}.cards", found, read, say("{name}'s cards", name=name))
        if isinstance(raw["cards"], list) and len(raw["cards"]) != HAND_SIZE:
            n = len(raw["cards"])
            found.add(f"{at}.cards", say_n("{name}'s hand has {size} cards; {count} was given (IR-5)",
                                           "{name}'s hand has {size} cards; {count} were given (IR-5)", n, name=name,
                                           size=HAND_SIZE))
        return Entry("cards", at, cards=cards)
    if kind == "count":
        n = check_count(found, f"{at}.count", raw["count"], MOST_RAW,
                        lambda: say("13 cards count at most {most}, and any count is capped at {cap} (IR-3, IR-6)",
                                    most=MOST_RAW, cap=CAP),
                        what=COUNT_SUBJECT)
        return None if n is None else Entry("count", at, count=n)
    if kind == "drop":
        drop = raw["drop"]
        if not isinstance(drop, str) or drop not in DROPS:
            found.add(f"{at}.drop", say("unknown drop {drop}; use first, middle or missed (three turns missed) (IR-7)",
                                        drop=said(drop)))
            return None
        return Entry("drop", at, drop=drop)
    if raw["wrong_show"] is not True:
        found.add(f"{at}.wrong_show", say("a wrong show is marked only for a player who showed a wrong declaration "
                                          "(IR-7)"))
        return None
    return Entry("wrong_show", at)


def _parse_deal(raw: object, at: str, players: Sequence[str], decks: int, found: Problems) -> Deal | None:
    if not _is_mapping(raw):
        found.add(at, say("each deal needs the wild joker, the winner and the players' hands (API.md)"))
        return None
    for key in raw:
        if key not in DEAL_FIELDS:
            found.add(f"{at}.{key}", say("unknown field {field}; a deal has {fields}", field=said(key),
                                         fields=", ".join(sorted(DEAL_FIELDS))))
    check_note(found, at, raw)

    wild_text = raw.get("wild")
    if is_whole_number(wild_text):
        wild_text = str(wild_text)
    wild = wild_rank = None
    if wild_text is not None:
        try:
            wild_rank = wild_rank_of(wild_text) if isinstance(wild_text, str) else wild_rank_of(said(wild_text))
            wild = JOKER_RANK if str(wild_text).strip().upper() == JOKER_RANK else wild_rank
        except ValueError as err:
            found.add(f"{at}.wild", say("{error} (IR-2)", error=err.args[0]))

    winner = raw.get("winner")
    if not isinstance(winner, str) or winner not in players:
        if winner is None:
            found.add(f"{at}.winner", say("name the player who made a valid declaration and won the deal (IR-5)"))
        else:
            not_at_table(found, f"{at}.winner", winner, players)
        winner = None

    rejoin = _parse_rejoin([] if raw.get("rejoin") is None else raw["rejoin"], at, players, found)

    before = len(list(found))
    hands: dict[str, Entry] = {}
    doubtful: set[str] = set()
    raw_hands = raw.get("hands")
    read = _DealCards()
    hands_given = _is_mapping(raw_hands)
    if not hands_given:
        found.add(f"{at}.hands", say("give each player's hand by name: {shape}", shape=HAND_SHAPE))
    else:
        hands, doubtful = _parse_hands(raw_hands, at, players, found, read)
    read.check(decks, found)
    # IR-2: the wild joker matters only to cards judged here; a deal of counts, drops and an
    # unentered declaration scores the same whatever was cut, so it may leave the wild out.
    judged = any(entry.kind in ("groups", "cards") for entry in hands.values())
    if wild_text is None and (judged or not hands_given):
        found.add(f"{at}.wild", say("give the wild joker: the rank of the card cut (2-10, J, Q, K, A), or JK when a "
                                    "printed Joker was cut (IR-2)"))
    if winner is None or not hands_given:
        return None
    broken = (wild is None and (wild_text is not None or judged)) or len(list(found)) > before
    return Deal(wild, wild_rank, winner, hands, tuple(rejoin), at, broken,
                frozenset(n for n in raw_hands if n in players), frozenset(doubtful))


def _parse_rejoin(raw_rejoin: object, at: str, players: Sequence[str], found: Problems) -> list[tuple[str, str]]:
    """The players a deal lists as rejoining (IR-9), each with where it names them."""
    rejoin: list[tuple[str, str]] = []
    if not isinstance(raw_rejoin, list):
        found.add(f"{at}.rejoin", say("give the players who rejoin as a list of names (IR-9)"))
        raw_rejoin = []
    for k, name in enumerate(raw_rejoin):
        where = f"{at}.rejoin[{k}]"
        if not isinstance(name, str) or name not in players:
            not_at_table(found, where, name, players)
        elif name in (n for n, _ in rejoin):
            found.add(where, say("{name} is rejoining twice in one deal (IR-9)", name=name))
        else:
            rejoin.append((name, where))
    return rejoin


def _parse_hands(raw_hands: Mapping, at: str, players: Sequence[str], found: Problems, read: _DealCards
                 ) -> tuple[dict[str, Entry], set[str]]:
    """Each player's hand as read, and the players whose hand has a problem of its own."""
    hands: dict[str, Entry] = {}
    doubtful: set[str] = set()
    for name, hand in raw_hands.items():
        where = f"{at}.hands.{name}"
        if name not in players:
            not_at_table(found, where, name, players)
            continue
        problems = len(list(found)) if found else 0  # counted only once there are some
        entry = _parse_entry(hand, where, name, found, read)
        if found and len(list(found)) > problems:
            doubtful.add(name)
        if entry is not None:
            hands[name] = entry
    return hands, doubtful


def check_decks(places: Sequence[tuple[Card, str, str]], decks: int, found: Problems) -> None:
    """IR-1: no card, and no printed Joker, more often than the decks hold it.

    Reported at the first copy too many, naming every place the card was entered. Read
    literally: each deck holds one of each card and one printed Joker; the card cut for
    the wild joker is not taken off, since a deal names only its rank (IR-2).
    """
    held = Counter([(card.rank, card.suit) for card, _, _ in places])  # cheaper to count than the cards
    if max(held.values(), default=0) <= decks:
        return  # the usual case, counted at once
    seen: dict[Card, list[str]] = {}
    first_over: dict[Card, str] = {}
    for card, where, label in places:
        labels = seen.setdefault(card, [])
        labels.append(label)
        if len(labels) == decks + 1:
            first_over[card] = where
    for card, where in first_over.items():
        places = joined([say("{count} in {place}", count=n, place=place) if n > 1 else place
                         for place, n in Counter(seen[card]).items()], ", ")
        entered = len(seen[card])
        if card.is_joker:
            found.add(where, say_n("1 deck holds only {count} printed Joker; {entered} were entered ({places}) (IR-1)",
                                   "{count} decks hold only {count} printed Jokers; {entered} were entered ({places}) "
                                   "(IR-1)", decks, entered=entered, places=places))
        else:
            found.add(where, say_n("1 deck holds only {count} {card}; {entered} were entered ({places}) (IR-1)",
                                   "{count} decks hold only {count} {card}; {entered} were entered ({places}) (IR-1)",
                                   decks, card=str(card), entered=entered, places=places))


# ---------------------------------------------------------------------------------------
# Judging one hand


def _counted_text(cards: Sequence[Card], wild: str) -> str:
    """Counted cards with their values, as a player adds them up (IR-3)."""
    if not cards:
        return say("no cards, 0")
    values = rank_values(wild)
    parts = [f"{c.rank}{c.suit} {values[c.rank]}" for c in cards]
    total = sum([values[c.rank] for c in cards])
    return f"{' + '.join(parts)} = {total}"


def group_line(cards: Sequence[Card], kind: GroupKind) -> Text:
    """A group and what it is (IR-4), as the why and the referee show it."""
    if not cards:
        return say("(empty group): {kind}", kind=kind.reason)
    return say("{cards}: {kind}", cards=format_cards(cards), kind=kind.reason)


def _group_lines(groups: Sequence[Sequence[Card]], kinds: Sequence[GroupKind]) -> list[str]:
    return [group_line(g, k) for g, k in zip(groups, kinds, strict=True)]


def _capped(raw: int) -> Text | str:
    return say(", capped at {cap}", cap=CAP) if raw > CAP else ""


def _count_lines(counted: Sequence[Card], raw: int, lives: bool, wild: str,
                 arranged: bool = False) -> tuple[list[str], int]:
    capped = min(raw, CAP)
    cap = _capped(raw)
    if lives:
        return [say("Two sequences, one of them pure: only the cards outside valid groups count: {counted}{cap} "
                    "(IR-3, IR-6)", counted=_counted_text(counted, wild), cap=cap)], capped
    if arranged:
        return [say("No arrangement gives two sequences with a pure one, so all {cards} cards count: {counted}{cap} "
                    "(IR-3, IR-6)", cards=len(counted), counted=_counted_text(counted, wild), cap=cap)], capped
    return [say("Not two sequences with a pure one, so all {cards} cards count: {counted}{cap} (IR-3, IR-6)",
                cards=len(counted), counted=_counted_text(counted, wild), cap=cap)], capped


def _notations(cards: Sequence[Card]) -> list[str]:
    """The cards as the detail lists them: what ``str(card)`` gives, without a call per card."""
    return [c.rank + c.suit for c in cards]


def _arranged(arrangement: Arrangement) -> dict[str, Any]:
    return {
        "groups": [_notations(g) for g in arrangement.groups],
        "kinds": [k.kind for k in arrangement.kinds],
        "loose": _notations(arrangement.loose),
    }


def _judge_loser(entry: Entry, name: str, deal: Deal, variant: str) -> Judged:
    """IR-6 and IR-7: what a player who did not win the deal counts."""
    wild = deal.wild_rank
    if entry.kind == "groups":
        c = _count_detail(entry.groups, entry.loose, wild)
        lines = _group_lines(entry.groups, c.kinds)
        if entry.loose:
            lines.append(say("Loose: {cards} (IR-6)", cards=format_cards(entry.loose)))
        more, n = _count_lines(c.counted, c.raw, c.lives, wild)
        return Judged(n, lines + more, {
            "entry": "groups", "count": n, "raw": c.raw, "capped": c.raw > n, "lives": c.lives,
            "groups": [_notations(g) for g in entry.groups], "kinds": [k.kind for k in c.kinds],
            "loose": _notations(entry.loose)})
    if entry.kind == "cards":
        best = _best_arrangement(entry.cards, wild)
        lines = [say("Cards arranged for the lowest count (IR-6)")]
        lines += _group_lines(best.groups, best.kinds)
        if best.lives:
            if best.loose:
                lines.append(say("Loose: {cards} (IR-6)", cards=format_cards(best.loose)))
            more, n = _count_lines(best.loose, best.raw, True, wild)
        else:
            more, n = _count_lines(best.loose, best.raw, False, wild, arranged=True)
        return Judged(n, lines + more, {"entry": "cards", "count": n, "raw": best.raw, "capped": best.raw > n,
                                        "lives": best.lives, **_arranged(best)})
    if entry.kind == "count":  # IR-6: a count entered above 80 (the cards' raw total) is capped too
        n = min(entry.count, CAP)
        return Judged(n, [say("Count entered: {count}{cap} (IR-6)", count=entry.count, cap=_capped(entry.count))],
                      {"entry": "count", "count": n, "raw": entry.count, "capped": entry.count > CAP})
    if entry.kind == "drop":
        n = penalties(variant)[entry.drop]
        line = (say("{drop}: {count} in 201 pool (IR-7)", drop=DROPS[entry.drop], count=n) if variant == "pool201"
                else say("{drop}: {count} (IR-7)", drop=DROPS[entry.drop], count=n))
        return Judged(n, [line], {"entry": "drop", "drop": entry.drop, "count": n})
    return Judged(WRONG_SHOW, [say("Wrong show: {count} (IR-7)", count=WRONG_SHOW)],
                  {"entry": "wrong_show", "count": WRONG_SHOW})


def _won_line(declaration: Any) -> Text:
    """The winner's last line: the IR-5 verdict and the count of 0.

    >>> _won_line(check_declaration([["AH", "2H", "3H"], ["5S", "6S", "7D", "8S"], ["QC", "QD", "QS"],
    ...                              ["9H", "10H", "JH"]], "7"))
    'Won the deal with a valid declaration: 13 cards in groups, 3 sequences, 2 pure; count 0 (IR-5)'
    """
    return say("Won the deal with a valid declaration: {cards} cards in groups, {sequences} sequences, {pure} pure; "
               "count 0 (IR-5)", cards=declaration.cards, sequences=declaration.sequences, pure=declaration.pure)


def _judge_winner(entry: Entry | None, name: str, deal: Deal, found: Problems) -> Judged:
    """IR-5: the winner's hand must be a valid declaration; it counts 0."""
    wild = deal.wild_rank
    if entry is None:  # IR-5: the table checked the show; the app need not see the 13 cards
        return Judged(0, [say("Won the deal; the declaration was not entered and is taken as valid: count 0 (IR-5)")],
                      {"entry": "declared", "count": 0})
    where = entry.where
    if entry.kind == "groups":
        if entry.loose:
            found.add(f"{where}.loose", say("{name} won the deal, so every card is in a group: a winning declaration "
                                            "has no loose cards (IR-5)", name=name))
            return Judged(0, [], {})
        declaration = _check_declaration(entry.groups, wild)
        if not declaration.valid:
            bad = next((k for k, kind in enumerate(declaration.kinds) if not kind.valid), None)
            found.add(f"{where}.groups" if bad is None else f"{where}.groups[{bad}]",
                      say("{name} won the deal, but the declaration is not valid: {reasons}", name=name,
                          reasons=joined(declaration.reasons, "; ")))
            return Judged(0, [], {})
        lines = _group_lines(entry.groups, declaration.kinds)
        lines.append(_won_line(declaration))
        return Judged(0, lines, {"entry": "groups", "count": 0, "groups": [_notations(g) for g in entry.groups],
                                 "kinds": [k.kind for k in declaration.kinds], "loose": []})
    if entry.kind == "cards":
        best = _best_arrangement(entry.cards, wild)
        if not best.valid_declaration:
            found.add(f"{where}.cards", say("{name} won the deal, but these cards make no valid declaration: the best "
                                            "arrangement leaves {cards} out of the groups (IR-5)", name=name,
                                            cards=format_cards(best.loose)) if best.lives else
                      say("{name} won the deal, but these cards make no valid declaration: the best arrangement gives "
                          "no two sequences with a pure one (IR-5)", name=name))
            return Judged(0, [], {})
        lines = [say("Cards arranged into a declaration (IR-5)")] + _group_lines(best.groups, best.kinds)
        lines.append(_won_line(_check_declaration(best.groups, wild)))
        return Judged(0, lines, {"entry": "cards", "count": 0, **_arranged(best)})
    found.add(where, say("{name} won the deal, so their hand is the declaration: give its groups, or its cards, or "
                         "leave it out (IR-5)", name=name))
    return Judged(0, [], {})


# ---------------------------------------------------------------------------------------
# The game


def late_players_refused(options: Mapping[str, Any]) -> str | None:
    """Deals rummy is a match of a set number of deals for the same players (IR-10); points and
    pool rummy seat a late player from the next deal."""
    if options.get("variant") == "deals":
        return say("deals rummy is a match of a set number of deals, played by the same players from the first "
                   "deal to the last (IR-10): nobody can join during it")
    return None


def late_rule(options: Mapping[str, Any]) -> str:
    """The starting score of a late player, in the players' words (the rules page says the same)."""
    variant = options.get("variant")
    if variant in POOL_OUT:
        limit = REJOIN_LIMIT[variant]
        return say("In pool rummy they start as a player who rejoins does: at one more than the highest count among "
                   "the players still in, and only while nobody still in is above {limit} (IR-9).", limit=limit)
    return say("In points rummy they start at 0: each deal is settled on its own (IR-8).")


@dataclass(frozen=True)
class Tally(Decided):
    """The game after some deals (base.Tallied): the late players, the totals, and in pool rummy who is out."""

    players: tuple[str, ...]
    opts: dict[str, Any]
    joined: dict[str, int]
    totals: dict[str, int]
    out_since: dict[str, int] = field(default_factory=dict)  # pool: who is out, since which deal (1-based)


def start(players: Sequence[str], options: Mapping[str, Any], joined: Mapping[str, int] | None = None) -> Tally:
    """The game before its first deal; raises InputError for the options and the late players."""
    found = Problems()
    opts = _check_options(players, options, found)
    found.raise_if_any()
    opts["decks"] = opts["decks"] or decks_for(len(players))
    if joined and late_players_refused(opts):
        found.add("joined", late_players_refused(opts) or "")
        found.raise_if_any()
    starting = 80 * opts["deals"] if opts["variant"] == "deals" else 0
    return Tally(tuple(players), opts, dict(joined or {}), dict.fromkeys(players, starting))


def step(tally: Tally, raw: object) -> Tally:
    """The game after one more deal (base.Fold); raises InputError naming what is wrong with it."""
    found = Problems()
    at = f"rounds[{tally.count}]"
    if tally.over:
        found.add(at, say("the game ended after deal {number}: {reason} Correct an earlier deal instead.",
                          number=tally.count, reason=tally.reason))
    deal = _parse_deal(raw, at, tally.players, tally.opts["decks"], found)
    found.raise_if_any()
    tally = _advance(tally, deal, found)
    found.raise_if_any()
    return tally


def _advance(tally: Tally, deal: Deal, found: Problems) -> Tally:
    """Score one read deal on ``tally``; the problems it finds go to ``found`` (the tally is then of no use)."""
    players, joined, variant = tally.players, tally.joined, tally.opts["variant"]
    number = tally.count + 1
    totals, out_since = dict(tally.totals), dict(tally.out_since)
    explain: dict[str, list[str]] = {p: [] for p in players}
    waiting = [p for p in players if joined.get(p, 1) > number] if joined else []  # most games seat nobody late
    for p in waiting:
        explain[p].append(say("Not at the table yet: joins at deal {number} ({ruling})", number=joined[p],
                              ruling="IR-9" if variant in POOL_OUT else "IR-8"))
    arriving = [p for p in players if joined.get(p, 1) == number > 1] if joined else []
    _seat_late(arriving, number, variant, totals, out_since, waiting, explain, found)
    rejoined = _rejoin(deal, variant, players, totals, out_since, waiting, explain, found)
    playing = [p for p in players if p not in out_since and p not in waiting]
    _check_takers(deal, joined, playing, waiting, rejoined, totals, found)
    if deal.broken:
        if (deal.wild_rank is not None and deal.winner in playing and deal.winner in deal.hands
                and deal.winner not in deal.doubtful):
            _judge_winner(deal.hands[deal.winner], deal.winner, deal, found)
        return tally
    if found:
        return tally
    # IR-5 to IR-7: each player's count for the deal.
    judged: dict[str, Judged] = {}
    for name in playing:
        if name == deal.winner:
            judged[name] = _judge_winner(deal.hands.get(name), name, deal, found)
        else:
            judged[name] = _judge_loser(deal.hands[name], name, deal, variant)
    if found:
        return tally
    detail_players: dict[str, dict[str, Any]] = {}
    for p in playing:
        explain[p].extend(judged[p].lines)
        detail_players[p] = judged[p].detail
    counts = {p: judged[p].count for p in playing}
    points, detail = _settle(tally, deal, counts, playing, waiting, rejoined, totals, out_since, explain,
                             detail_players)
    detail["players"] = {p: detail_players[p] for p in players if p in detail_players}
    detail["totals"] = dict(totals)
    played = tally.played_with(points, explain, detail)
    # Made directly: dataclasses.replace looks up the fields on every call.
    return _decided(Tally(tally.players, tally.opts, tally.joined, totals, out_since, played=played,
                          over=tally.over, winners=tally.winners, reason=tally.reason))


def _rejoin(deal: Deal, variant: str, players: Sequence[str], totals: dict[str, int], out_since: dict[str, int],
            waiting: Sequence[str], explain: dict[str, list[str]], found: Problems) -> dict[str, dict[str, int]]:
    """IR-9: rejoining happens before the deal it is listed in; the players who rejoined, from and to.

    "Above 79" is read literally: at 79 the pool is still open, at 80 it is closed. Several players
    rejoining together all start at the highest score among the players already in + 1; a player may
    rejoin again after going out again, as IR-9 sets no limit.
    """
    rejoined: dict[str, dict[str, int]] = {}
    if deal.rejoin and variant not in POOL_OUT:
        found.add(f"{deal.at}.rejoin", say("only pool rummy has rejoining; this game is {variant} (IR-9)",
                                           variant=VARIANT_WORDS[variant]))
    elif deal.rejoin:
        active = [p for p in players if p not in out_since and p not in waiting]
        high = max(totals[p] for p in active)
        limit = REJOIN_LIMIT[variant]
        leader = next(p for p in active if totals[p] == high)
        for name, where in deal.rejoin:
            if name not in out_since:
                found.add(where, say("{name} is still in the pool; only a player who is out may rejoin (IR-9)",
                                     name=name))
            elif high > limit:
                found.add(where, say("{name} cannot rejoin: {leader} has {high}, above {limit}; rejoining is open "
                                     "only while nobody in the pool is above {limit} (IR-9)", name=name,
                                     leader=leader, high=high, limit=limit))
            else:
                rejoined[name] = {"from": totals[name], "to": high + 1}
        for name, moved in rejoined.items():
            del out_since[name]
            totals[name] = moved["to"]
            explain[name].append(say("Rejoins the pool at {total}, one more than the highest score in it ({high}) "
                                     "(IR-9)", total=moved["to"], high=high))
    return rejoined


def _check_takers(deal: Deal, joined: Mapping[str, int], playing: Sequence[str], waiting: Sequence[str],
                  rejoined: Mapping[str, Any], totals: Mapping[str, int], found: Problems) -> None:
    """The winner and every hand entered belong to players in this deal, and every player in it has a hand."""
    at = deal.at
    if deal.winner in waiting:
        found.add(f"{at}.winner", say("{name} joins at deal {number}, after this deal; choose a player who was at "
                                      "the table", name=deal.winner, number=joined[deal.winner]))
    elif deal.winner not in playing:
        found.add(f"{at}.winner", say("{name} is out of the pool and takes no part unless they rejoin first (IR-9)",
                                      name=deal.winner))
    refused = {name for name, _ in deal.rejoin if name not in rejoined}
    for name, entry in deal.hands.items():
        if name in waiting:
            found.add(entry.where, say("{name} joins at deal {number}, after this deal, and takes no part in it",
                                       name=name, number=joined[name]))
        elif name not in playing and name not in refused:  # a refused rejoin says why, beside it
            found.add(entry.where, say("{name} is out of the pool (total {total}) and takes no part unless they "
                                       "rejoin (IR-9)", name=name, total=totals[name]))
    missing = [p for p in playing if p != deal.winner and p not in deal.given]
    for name in missing:
        found.add(f"{at}.hands.{name}", say("enter {name}'s hand: {shape} (IR-6, IR-7)", name=name, shape=HAND_SHAPE))


def _settle(tally: Tally, deal: Deal, counts: Mapping[str, int], playing: Sequence[str], waiting: Sequence[str],
            rejoined: Mapping[str, Any], totals: dict[str, int], out_since: dict[str, int],
            explain: dict[str, list[str]],
            detail_players: dict[str, dict[str, Any]]) -> tuple[dict[str, int], dict[str, Any]]:
    """The deal's points, moved into ``totals``, and its detail."""
    variant = tally.opts["variant"]
    points = dict.fromkeys(tally.players, 0)
    detail: dict[str, Any] = {"variant": variant, "wild": deal.wild, "wild_rank": deal.wild_rank,
                              "decks": tally.opts["decks"], "winner": deal.winner,
                              "counts": {p: counts[p] for p in playing}}
    # IR-8 sets no end to points rummy: each deal is settled, and the game is never over.
    # IR-10: the winner takes each loser's whole count; at most 80 a deal, so nobody's
    # 80 x N chips can run out within N deals.
    if variant in ("points", "deals"):
        _pay_the_winner(tally, deal.winner, counts, playing, totals, explain, points, detail)
        return points, detail
    eliminated = _add_to_the_pool(tally, deal.winner, counts, playing, waiting, totals, out_since, explain,
                                  detail_players, points)
    detail["eliminated"] = eliminated
    detail["rejoined"] = rejoined
    detail["out"] = [p for p in tally.players if p in out_since]
    return points, detail


def _pay_the_winner(tally: Tally, winner: str, counts: Mapping[str, int], playing: Sequence[str],
                    totals: dict[str, int], explain: dict[str, list[str]], points: dict[str, int],
                    detail: dict[str, Any]) -> None:
    """Points rummy (IR-8) and deals rummy (IR-10): each loser pays the winner their count, in points or chips."""
    players, variant, point_value = tally.players, tally.opts["variant"], tally.opts["point_value"]
    losers = [p for p in playing if p != winner]
    collected = sum(counts[p] for p in losers)
    shares = joined([say("{name} {count}", name=p, count=counts[p]) for p in losers], ", ")
    points[winner] = collected
    for p in losers:
        points[p] = -counts[p]
    if variant == "points":
        explain[winner].append(say("Collects {count} from the losers ({shares}): {points} (IR-8)", count=collected,
                                   shares=shares, points=Signed(collected)))
        for p in losers:
            explain[p].append(say("Pays {count} to {winner}: {points} (IR-8)", count=counts[p], winner=winner,
                                  points=Signed(-counts[p])))
        detail["money"] = {p: money(points[p], point_value) for p in players}
        if point_value != 1:
            for p in playing:
                amount = detail["money"][p]
                explain[p].append(say("At {value} a point: {points} × {value} = {sign}{money} (IR-8)",
                                      value=point_value, points=Signed(points[p]),
                                      sign="+" if amount > 0 else "−" if amount < 0 else "", money=abs(amount)))
    else:
        explain[winner].append(say("Takes {count} chips from the losers ({shares}): chips {before} + {count} = "
                                   "{after} (IR-10)", count=collected, shares=shares, before=totals[winner],
                                   after=totals[winner] + collected))
        for p in losers:
            explain[p].append(say("Gives {count} chips to {winner}: chips {before} − {count} = {after} (IR-10)",
                                  count=counts[p], winner=winner, before=totals[p], after=totals[p] - counts[p]))
    for p in players:
        totals[p] += points[p]
    if variant == "deals":
        detail["chips"] = dict(totals)


def _add_to_the_pool(tally: Tally, winner: str, counts: Mapping[str, int], playing: Sequence[str],
                     waiting: Sequence[str], totals: dict[str, int], out_since: dict[str, int],
                     explain: dict[str, list[str]], detail_players: dict[str, dict[str, Any]],
                     points: dict[str, int]) -> list[str]:
    """Pool rummy (IR-9): each count added to its player's total; the players it puts out of the pool."""
    players, number = tally.players, tally.count + 1
    limit = POOL_OUT[tally.opts["variant"]]
    eliminated: list[str] = []
    for p in playing:
        points[p] = counts[p]
        before = totals[p]
        totals[p] += counts[p]
        if p == winner:
            explain[p].append(say("Won the deal: 0; total stays {total} (IR-9)", total=totals[p]))
        else:
            explain[p].append(say("Deal count {count}: total {before} + {count} = {total} (IR-9)", count=counts[p],
                                  before=before, total=totals[p]))
        if totals[p] >= limit:
            out_since[p] = number
            eliminated.append(p)
            explain[p].append(say("{total} is {limit} or more: out of the pool (IR-9)", total=totals[p], limit=limit))
    for p in players:
        if p not in playing and p not in waiting:
            explain[p].append(say("Out of the pool since deal {number}: takes no part (IR-9)", number=out_since[p]))
            detail_players[p] = {"entry": "out", "count": 0}
    return eliminated


def _decided(tally: Tally) -> Tally:
    """The end of the game, per variant, after the deal just scored."""
    players, variant, totals, number = tally.players, tally.opts["variant"], tally.totals, tally.count
    if variant in POOL_OUT:
        left = [p for p in players if p not in tally.out_since]
        if len(left) == 1:
            return replace(tally, over=True, winners=(left[0],),
                           reason=say("{name} is the last player left in the pool after deal {number}; everyone "
                                      "else reached {limit} (IR-9).", name=left[0], number=number,
                                      limit=POOL_OUT[variant]))
    elif variant == "deals" and number == tally.opts["deals"]:
        most = max(totals.values())
        winners = tuple(p for p in players if totals[p] == most)
        if len(winners) == 1:
            reason = say_n("After {count} deal {name} has the most chips, {most} (IR-10).",
                           "After {count} deals {name} has the most chips, {most} (IR-10).", number, name=winners[0],
                           most=most)
        else:
            reason = say_n("After {count} deal {names} share the most chips, {most} (IR-10).",
                           "After {count} deals {names} share the most chips, {most} (IR-10).", number,
                           names=Listed(winners) if len(winners) == 2 else " and ".join(winners), most=most)
        return replace(tally, over=True, winners=winners, reason=reason)
    return tally


def _seated_next(tally: Tally, found: Problems) -> None:
    """A player seated for the next deal: can they still join? (IR-9)"""
    number = tally.count + 1
    _seat_late([p for p in tally.players if tally.joined.get(p, 1) == number > 1], number, tally.opts["variant"],
               dict(tally.totals), dict(tally.out_since), [], {p: [] for p in tally.players}, found)


def finish(tally: Tally) -> ScoredGame:
    """The scored game a tally stands for (base.Fold); raises InputError when a player seated for the
    next deal cannot join (IR-9)."""
    if not tally.over:
        found = Problems()
        _seated_next(tally, found)
        found.raise_if_any()
    return ScoredGame(game=SLUG, players=tally.players, options=tally.opts, rounds=tally.rounds,
                      totals=dict(tally.totals), over=tally.over, winners=tally.winners, reason=tally.reason,
                      standing=_standing(tally.players, tally.opts, tally.totals, tally.out_since, tally.count))


def score(players: Sequence[str], options: Mapping[str, Any], rounds: Sequence[object],
          joined: Mapping[str, int] | None = None) -> ScoredGame:
    """Score a whole game of Indian Rummy; raises InputError listing every problem.

    ``joined`` names the players seated late, each with the first deal they play (games.check_joined):
    they take no part before it, and start as :func:`late_rule` says. The reference the fold
    (:func:`start`, :func:`step`, :func:`finish`) is tested against.
    """
    found = Problems()
    opts = _check_options(players, options, found)
    found.raise_if_any()
    decks = opts["decks"] or decks_for(len(players))
    # Every deal is read first. A deal read only in part is still checked against the game so far
    # (every problem at once), and the deals after it are not scored.
    parsed = [_parse_deal(raw, f"rounds[{i}]", players, decks, found) for i, raw in enumerate(rounds)]
    read_problems = len(list(found))
    if joined and late_players_refused(opts):
        found.add("joined", late_players_refused(opts) or "")
        found.raise_if_any()
    tally = start(players, options, joined)
    for index, deal in enumerate(parsed):
        if deal is None:
            break
        if tally.over:
            found.add(deal.at, say("the game ended after deal {number}: {reason} Correct an earlier deal instead.",
                                   number=index, reason=tally.reason))
        if len(list(found)) > read_problems:  # later deals depend on this one: report its problems first
            break
        tally = _advance(tally, deal, found)
        if tally.count == index:
            break
    found.raise_if_any()
    return finish(tally)  # which checks that a player seated for the next deal can join


def _seat_late(arriving: Sequence[str], number: int, variant: str, totals: dict[str, int],
               out_since: Mapping[str, int], waiting: Sequence[str], explain: dict[str, list[str]],
               found: Problems) -> None:
    """Players joining at deal ``number`` take their starting score (:func:`late_rule`).

    Pool rummy treats them as a rejoin does (IR-9): one more than the highest count among the
    players still in, and only while nobody still in is above the rejoining limit. Points rummy
    settles each deal on its own (IR-8), so they start at 0.
    """
    if not arriving:
        return
    if variant not in POOL_OUT:
        for p in arriving:
            totals[p] = 0
            explain[p].append(say("Joins the table at deal {number}, starting at 0: each deal is settled on its own "
                                  "(IR-8)", number=number))
        return
    active = [p for p in totals if p not in out_since and p not in waiting and p not in arriving]
    high = max((totals[p] for p in active), default=0)
    limit = REJOIN_LIMIT[variant]
    for p in arriving:
        if high > limit:
            leader = next(q for q in active if totals[q] == high)
            found.add(f"joined.{p}", say("{name} cannot join the pool at deal {number}: {leader} has {high}, above "
                                         "{limit}; a player can join, as one can rejoin, only while nobody in the "
                                         "pool is above {limit} (IR-9)", name=p, number=number, leader=leader,
                                         high=high, limit=limit))
            continue
        totals[p] = high + 1
        explain[p].append(say("Joins the pool at deal {number} at {total}, one more than the highest count in it "
                              "({high}), as a player who rejoins does (IR-9)", number=number, total=high + 1,
                              high=high))


def _standing(players: Sequence[str], opts: Mapping[str, Any], totals: Mapping[str, int],
              out_since: Mapping[str, int], played: int) -> dict[str, Any]:
    """Where the game stands, per variant: money owed, distance to elimination, or chips."""
    variant = opts["variant"]
    if variant == "points":
        return {"point_value": opts["point_value"], "money": {p: money(totals[p], opts["point_value"])
                                                              for p in players}}
    if variant == "deals":
        return {"deals": opts["deals"], "played": played, "left": opts["deals"] - played, "chips": dict(totals)}
    limit, rejoin = POOL_OUT[variant], REJOIN_LIMIT[variant]
    active = [p for p in players if p not in out_since]
    open_ = bool(out_since) and len(active) > 1 and max(totals[p] for p in active) <= rejoin
    return {"out_at": limit, "rejoin_while_at_most": rejoin, "rejoin_open": open_,
            "players": {p: {"total": totals[p], "out": p in out_since,
                            "to_out": None if p in out_since else limit - totals[p]} for p in players}}


__all__ = ["DROPS", "MAX_PLAYERS", "MIN_PLAYERS", "OPTIONS", "POOL_OUT", "REJOIN_LIMIT", "ROUND_NAME", "SLUG", "TITLE",
           "VARIANTS", "WRONG_SHOW", "InputError", "check_decks", "decks_for", "money", "penalties", "score",
           "signed_amount", "group_line",
           # the arranger's public names (arranger.py), for the referee and the deal form
           "CAP", "HAND_SIZE", "Arrangement", "GroupKind", "best_arrangement", "card_value", "check_declaration",
           "classify", "count_detail", "wild_rank_of"]
