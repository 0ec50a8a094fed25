"""Rally the King, scored as RULINGS.md RK-1 to RK-10 say.

Four players bid; the declarer plays alone or with the holder of a called King
against the rest. Each hand is entered when it ends: the bid, who declared, the
partner, the declarer side's card points (or the cards it took, by class) or
tricks, and the bonuses. Every payment is zero-sum (RK-7). The API's example
(API.md): Ben's solo with 64 card points and an unannounced sparrow:

>>> game = score(("Ann", "Ben", "Cat", "Dan"), {}, [
...     {"dealer": "Ann", "bid": "solo", "declarer": "Ben", "called_king": None, "partner": None,
...      "declarer_points": 64,
...      "bonuses": [{"bonus": "sparrow", "side": "declarer", "announced": False, "made": True}]}])
>>> game.totals
{'Ann': -5, 'Ben': 15, 'Cat': -5, 'Dan': -5}
>>> game.rounds[0].explain["Ben"][1:4]
['Solo by Ben: 64 card points against a target of 60 — won (RK-3, RK-4)', \
'Ben alone against three: +3 × 4 = +12 (RK-7)', \
'Sparrow made by the declarer side, not announced: half of 2 = 1 each way (RK-8)']
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..core.cards import SUIT_SYMBOLS, SUITS, CardError, typed
from .base import (
    InputError,
    Problems,
    ScoredGame,
    Tallied,
    check_count,
    check_note,
    is_whole_number,
    listed,
    not_at_table,
    said,
    signed,
)

SLUG = "rally-the-king"
TITLE = "Rally the King"
MIN_PLAYERS = 4
MAX_PLAYERS = 4
ROUND_NAME = "hand"
OPTIONS: dict[str, Any] = {"counting": "individual", "hands": 4}
#: RK-10: a game is four hands by default; a table may agree on more, within reason.
MAX_HANDS = 100

# ---------------------------------------------------------------------------------------
# RK-1, RK-2: the pack and its cards

#: RK-1: suit cards from high to low.
SUIT_RANKS: tuple[str, ...] = ("K", "Q", "C", "V", "10", "9", "8", "7")
TRUMP = "T"
TOMFOOL = "F"
#: RK-1: the Juggler (trump 1), the World (trump 21) and Tomfool.
HONOURS: tuple[str, ...] = ("T1", "T21", "F")
TRUMP_NAMES = {"1": "the Juggler", "2": "the Female Pope", "3": "the Empress", "4": "the Emperor",
               "21": "the World", TOMFOOL: "Tomfool"}
SUIT_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
RANK_NAMES = {"K": "King", "Q": "Queen", "C": "Cavalier", "V": "Valet"}
CARD_RULE = ("use T1-T21 for trumps, F for Tomfool, or a rank K, Q, C, V, 10, 9, 8 or 7 "
             "and a suit S, H, D or C (RK-1)")
_INVISIBLE = {"\ufe0e", "\ufe0f", "\u200b", "\u200d"}


@dataclass(frozen=True)
class TarotCard:
    """One card of the 54-card pack (RK-1). ``str(card)`` is its canonical notation.

    Trumps have suit ``T`` and rank ``1`` to ``21``; Tomfool is the trump of rank ``F``.

    >>> str(TarotCard("21", "T")), str(TarotCard("F", "T")), str(TarotCard("C", "S"))
    ('T21', 'F', 'CS')
    >>> TarotCard("F", "T").strength > TarotCard("21", "T").strength > TarotCard("K", "S").strength
    True
    """

    rank: str
    suit: str

    def __str__(self) -> str:
        if self.suit != TRUMP:
            return self.rank + self.suit
        return TOMFOOL if self.rank == TOMFOOL else TRUMP + self.rank

    @property
    def is_trump(self) -> bool:
        return self.suit == TRUMP

    @property
    def strength(self) -> int:
        """Order within its suit: trumps 1-21 and Tomfool 22 (RK-1); suit cards 0 (a 7) to 7 (a King).

        >>> TarotCard("7", "H").strength, TarotCard("K", "H").strength, TarotCard("F", "T").strength
        (0, 7, 22)
        """
        if self.is_trump:
            return 22 if self.rank == TOMFOOL else int(self.rank)
        return len(SUIT_RANKS) - 1 - SUIT_RANKS.index(self.rank)

    @property
    def name(self) -> str:
        """The card in words.

        >>> TarotCard("1", "T").name, TarotCard("C", "S").name, TarotCard("9", "D").name
        ('the Juggler (T1)', 'the Cavalier of Spades', 'the 9 of Diamonds')
        """
        if self.is_trump:
            called = TRUMP_NAMES.get(self.rank)
            return f"{called} ({self})" if called else f"trump {self.rank}"
        return f"the {RANK_NAMES.get(self.rank, self.rank)} of {SUIT_NAMES[self.suit]}"

    @property
    def card_class(self) -> str:
        """RK-1, RK-2: the class the card is counted in.

        >>> [TarotCard(r, s).card_class for r, s in (("F", "T"), ("2", "T"), ("Q", "H"), ("10", "C"))]
        ['honours', 'others', 'queens', 'others']
        """
        if str(self) in HONOURS:
            return "honours"
        return {"K": "kings", "Q": "queens", "C": "cavaliers", "V": "valets"}.get(
            self.rank if not self.is_trump else "", "others")

    @property
    def value(self) -> int:
        """RK-2: the card's value.

        >>> TarotCard("21", "T").value, TarotCard("K", "D").value, TarotCard("V", "D").value
        (5, 5, 2)
        """
        return CARD_CLASSES[self.card_class].value


def parse_tarot_card(text: object) -> TarotCard:
    """Read one card as a player types it (API.md notation), case-insensitive.

    >>> parse_tarot_card("t21"), parse_tarot_card(" f "), parse_tarot_card("10♣")
    (TarotCard(rank='21', suit='T'), TarotCard(rank='F', suit='T'), TarotCard(rank='10', suit='C'))
    >>> str(parse_tarot_card("cs")), str(parse_tarot_card("vD"))
    ('CS', 'VD')
    >>> parse_tarot_card("JS")
    Traceback (most recent call last):
    ...
    companion.core.cards.CardError: JS is not a card: a Valet is V and a Cavalier is C; \
use T1-T21 for trumps, F for Tomfool, or a rank K, Q, C, V, 10, 9, 8 or 7 and a suit S, H, D or C (RK-1)
    """
    if not isinstance(text, str):
        raise CardError(f"give a card as text such as T21, F, KH or 10C, not {said(text)}")
    cleaned = "".join(ch for ch in text if not ch.isspace() and ch not in _INVISIBLE)
    shown = text.strip()
    upper = cleaned.upper()
    if upper == TOMFOOL:
        return TarotCard(TOMFOOL, TRUMP)
    if re.fullmatch(r"T\d{1,2}", upper) and 1 <= int(upper[1:]) <= 21:
        return TarotCard(str(int(upper[1:])), TRUMP)
    if len(cleaned) >= 2:
        rank, suit_text = upper[:-1], cleaned[-1]
        suit = SUIT_SYMBOLS.get(suit_text, suit_text.upper())
        if rank in SUIT_RANKS and suit in SUITS:
            return TarotCard(rank, suit)
        if rank == "J" and suit in SUITS:
            raise CardError(f"{typed(shown)} is not a card: a Valet is V and a Cavalier is C; {CARD_RULE}")
    raise CardError(f"{typed(shown)} is not a card: {CARD_RULE}")


def parse_called_king(text: object) -> TarotCard:
    """RK-5: the called King, as its card (``KH``) or its suit alone (``H``, ``♥``).

    >>> str(parse_called_king("H")), str(parse_called_king("kh")), str(parse_called_king("♣"))
    ('KH', 'KH', 'KC')
    """
    if isinstance(text, str):
        cleaned = "".join(ch for ch in text if not ch.isspace() and ch not in _INVISIBLE)
        suit = SUIT_SYMBOLS.get(cleaned, cleaned.upper())
        if suit in SUITS and len(cleaned) == 1:
            return TarotCard("K", suit)
    return parse_tarot_card(text)


def full_pack() -> tuple[TarotCard, ...]:
    """RK-1: the 54 cards, trumps first.

    >>> pack = full_pack()
    >>> len(pack), sum(c.value for c in pack)
    (54, 106)
    """
    trumps = [TarotCard(str(n), TRUMP) for n in range(1, 22)] + [TarotCard(TOMFOOL, TRUMP)]
    return tuple(trumps + [TarotCard(rank, suit) for suit in SUITS for rank in SUIT_RANKS])


# ---------------------------------------------------------------------------------------
# RK-2, RK-3: counting


@dataclass(frozen=True)
class CardClass:
    """RK-2: a class of card, its value, and how many of it the pack holds (RK-1)."""

    value: int
    in_pack: int
    label: str


CARD_CLASSES: dict[str, CardClass] = {
    "honours": CardClass(5, 3, "Honours"),
    "kings": CardClass(5, 4, "Kings"),
    "queens": CardClass(4, 4, "Queens"),
    "cavaliers": CardClass(3, 4, "Cavaliers"),
    "valets": CardClass(2, 4, "Valets"),
    "others": CardClass(1, 35, "others"),
}
#: RK-3: a hand has twelve tricks.
TRICKS = 12
CARDS_FIELDS = (*CARD_CLASSES, "tricks")


@dataclass(frozen=True)
class Counting:
    """RK-3: one way of counting card points (and RK-9's double payment threshold)."""

    slug: str
    label: str
    per_card: Fraction  # added to each card's value
    per_trick: int  # added for each trick won
    pack: Fraction  # the whole pack, tricks included
    target: Fraction  # a point contract needs this or more
    double_above: Fraction  # RK-9: the all-beggars loser pays double above this


COUNTINGS: dict[str, Counting] = {
    "individual": Counting("individual", "individual (card values + 1 a trick)", Fraction(0), 1,
                           Fraction(118), Fraction(60), Fraction(60)),
    "traditional": Counting("traditional", "traditional (each card its value − 2/3)", Fraction(-2, 3), 0,
                            Fraction(70), Fraction(107, 3), Fraction(36)),
}


def format_points(points: Fraction | int) -> str:
    """Card points as a player writes them: whole, or whole and thirds.

    >>> format_points(Fraction(107, 3)), format_points(Fraction(2, 3)), format_points(Fraction(36))
    ('35 2/3', '2/3', '36')
    """
    points = Fraction(points)
    whole, rest = divmod(points, 1)
    if rest == 0:
        return str(int(whole))
    if whole == 0:
        return f"{rest.numerator}/{rest.denominator}"
    return f"{int(whole)} {rest.numerator}/{rest.denominator}"


_VULGAR = {"⅓": "1/3", "⅔": "2/3", "½": "1/2"}


def read_points(value: object, counting: str = "individual") -> Fraction:
    """Card points as entered, exactly: a number or text such as "35 2/3" (RK-3).

    Individual counting takes whole numbers only; traditional counting takes thirds.

    >>> read_points("35 2/3", "traditional"), read_points(36, "traditional"), read_points("64")
    (Fraction(107, 3), Fraction(36, 1), Fraction(64, 1))
    >>> read_points("35.5", "traditional")
    Traceback (most recent call last):
    ...
    ValueError: 35.5 is not a whole number of thirds; traditional counting gives points in thirds, \
such as 35 2/3 (RK-3)
    >>> read_points("59 1/2")
    Traceback (most recent call last):
    ...
    ValueError: 59 1/2 is not a whole number; individual counting gives whole card points (RK-3)
    """
    exact: Fraction | None = None
    if isinstance(value, bool):
        exact = None
    elif isinstance(value, int):
        exact = Fraction(value)
    elif isinstance(value, float):
        exact = Fraction(value) if math.isfinite(value) else None
    elif isinstance(value, str):
        text = value.strip()
        for symbol, words in _VULGAR.items():
            text = text.replace(symbol, " " + words)
        text = " ".join(text.split())
        text = re.sub(r"\s*/\s*", "/", text)
        mixed = re.fullmatch(r"(\d+) (\d+)/(\d+)", text)
        try:
            if mixed:
                if int(mixed[3]) == 0:
                    raise ZeroDivisionError
                exact = int(mixed[1]) + Fraction(int(mixed[2]), int(mixed[3]))
            elif re.fullmatch(r"\d+(\.\d+)?|\d+/\d+|\.\d+", text):
                exact = Fraction(text)
        except (ValueError, ZeroDivisionError):
            exact = None
    shown = (" ".join(value.split())[:20] or "a blank") if isinstance(value, str) else said(value)
    if exact is None:
        raise ValueError(f"{shown} is not a number of card points; give a number, or text such as "
                         "\"35 2/3\" (RK-3)")
    if counting == "traditional":
        if (exact * 3).denominator != 1:
            raise ValueError(f"{shown} is not a whole number of thirds; traditional counting gives points in "
                             "thirds, such as 35 2/3 (RK-3)")
    elif exact.denominator != 1:
        raise ValueError(f"{shown} is not a whole number; individual counting gives whole card points (RK-3)")
    return exact


def count_cards(cards: Mapping[str, int], counting: str = "individual") -> Fraction:
    """RK-3: a side's card points from the cards it took, by class, and its tricks.

    >>> take = {"honours": 2, "kings": 3, "queens": 2, "cavaliers": 1, "valets": 2, "others": 15, "tricks": 7}
    >>> count_cards(take), format_points(count_cards(take, "traditional"))
    (Fraction(62, 1), '38 1/3')
    >>> whole = {k: c.in_pack for k, c in CARD_CLASSES.items()} | {"tricks": TRICKS}
    >>> count_cards(whole), count_cards(whole, "traditional")
    (Fraction(118, 1), Fraction(70, 1))
    """
    how = COUNTINGS[counting]
    points = sum((n * (CARD_CLASSES[k].value + how.per_card) for k, n in cards.items() if k in CARD_CLASSES),
                 Fraction(0))
    return points + cards.get("tricks", 0) * how.per_trick


def cards_in_words(cards: Mapping[str, int], counting: str = "individual") -> str:
    """How a take of cards is counted, for an explanation.

    >>> cards_in_words({"honours": 1, "kings": 0, "others": 3, "tricks": 2})
    '1 Honour × 5 + 3 others × 1 + 2 tricks × 1 = 10'
    >>> cards_in_words({"honours": 1, "others": 3, "tricks": 2}, "traditional")
    '(1 Honour × 5 + 3 others × 1) − 4 cards × 2/3 = 5 1/3'
    """
    def label(kind: str, n: int) -> str:
        text = CARD_CLASSES[kind].label
        return text[:-1] if n == 1 and kind != "others" else text

    parts = [f"{cards[k]} {label(k, cards[k])} × {CARD_CLASSES[k].value}" for k in CARD_CLASSES if cards.get(k)]
    total = format_points(count_cards(cards, counting))
    if counting == "traditional":
        n = sum(cards.get(k, 0) for k in CARD_CLASSES)
        body = " + ".join(parts) or "no cards"
        return f"({body}) − {n} card{'s' if n != 1 else ''} × 2/3 = {total}"
    tricks = cards.get("tricks", 0)
    parts.append(f"{tricks} trick{'s' if tricks != 1 else ''} × 1")
    return " + ".join(parts) + f" = {total}"


# ---------------------------------------------------------------------------------------
# RK-4 to RK-6, RK-8: bids and bonuses


@dataclass(frozen=True)
class Bid:
    """RK-4: one bid, what it is worth and what the declarer contracts to do."""

    slug: str
    label: str
    kind: str  # "points", "tricks", "beggar" or "all-beggars"
    value: int  # won (RK-4); also lost, except for solo-with-stock
    lost_value: int
    target: str
    partner: bool = False  # RK-5: the declarer calls a King
    bird: bool = False  # RK-6: the contract names a bird
    tricks: int | None = None  # trick and beggar contracts: exactly this many tricks
    after_wait: bool = False  # only after "I wait"


POINT_TARGET = "the point target: 60 or more (individual), 35 2/3 or more (traditional) (RK-3)"
BIDS: dict[str, Bid] = {bid.slug: bid for bid in (
    Bid("one-trick", "One trick", "tricks", 2, 2, "exactly 1 trick, playing alone", tricks=1),
    Bid("two-tricks", "Two tricks", "tricks", 2, 2, "exactly 2 tricks, playing alone", tricks=2),
    Bid("partner-against-stock", "Partner against the stock", "points", 3, 3, POINT_TARGET, partner=True),
    Bid("beggar", "Beggar", "beggar", 3, 3, "no trick at all, playing alone", tricks=0),
    Bid("partner-with-bird", "Partner with a bird", "points", 2, 2, POINT_TARGET + " and the bird named",
        partner=True, bird=True),
    Bid("solo", "Solo", "points", 4, 4, POINT_TARGET + ", playing alone"),
    Bid("one-trick-exposed", "One trick exposed", "tricks", 5, 5, "exactly 1 trick, alone, hand face up",
        tricks=1),
    Bid("no-trumps", "No trumps", "points", 5, 5, POINT_TARGET + ", playing alone without trump power"),
    Bid("beggar-exposed", "Beggar exposed", "beggar", 6, 6, "no trick at all, alone, hand face up", tricks=0),
    Bid("solo-with-bird", "Solo with a bird", "points", 4, 4, POINT_TARGET + " and the bird named, playing alone",
        bird=True),
    Bid("solo-against-stock", "Solo against the stock", "points", 8, 8, POINT_TARGET + ", playing alone"),
    Bid("partner", "Partner", "points", 1, 1, POINT_TARGET, partner=True, after_wait=True),
    Bid("solo-with-stock", "Solo with the stock", "points", 2, 4,
        POINT_TARGET + ", playing alone; 2 if won, 4 if lost", after_wait=True),
    Bid("all-beggars", "All beggars", "all-beggars", 1, 1,
        "everyone alone; the most card points pays each other player 1 (2 above 60 / 36) (RK-9)",
        after_wait=True),
)}
PARTNER_BIDS = tuple(slug for slug, bid in BIDS.items() if bid.partner)
BIRD_BIDS = tuple(slug for slug, bid in BIDS.items() if bid.bird)


@dataclass(frozen=True)
class Bonus:
    """RK-8: a bonus and its full value."""

    slug: str
    label: str
    value: int
    description: str
    bird: bool = False

    @property
    def half(self) -> int:
        return self.value // 2


BONUSES: dict[str, Bonus] = {bonus.slug: bonus for bonus in (
    Bonus("sparrow", "Sparrow", 2, "the last trick won with the Juggler (T1)", bird=True),
    Bonus("owl", "Owl", 4, "the second-to-last trick won with the Female Pope (T2)", bird=True),
    Bonus("cockatoo", "Cockatoo", 6, "the third-to-last trick won with the Empress (T3)", bird=True),
    Bonus("pelican", "Pelican", 8, "the fourth-to-last trick won with the Emperor (T4)", bird=True),
    Bonus("last-king", "Last king", 2, "the last trick won with the called King"),
    Bonus("slam", "Slam", 8, "one side wins every trick"),
    Bonus("honours", "Honours", 2, "one side wins all three Honours"),
    Bonus("kings", "Kings", 2, "one side wins all four Kings"),
)}
BIRDS: dict[str, Bonus] = {slug: bonus for slug, bonus in BONUSES.items() if bonus.bird}
SIDES = ("declarer", "defenders")


#: Messages name bids and birds as players say them, never by their slugs.
BID_NAMES = listed([b.label for b in BIDS.values()], "or")
PARTNER_NAMES = listed([BIDS[s].label for s in PARTNER_BIDS])
BIRD_NAMES = listed([BIDS[s].label for s in BIRD_BIDS])
BIRD_LIST = listed([b.label.lower() for b in BIRDS.values()], "or")
TAKE_WORDS = {"declarer_points": "the declarer side's card points",
              "declarer_cards": "the cards the declarer side took", "declarer_tricks": "the declarer's tricks",
              "player_points": "each player's card points"}

HAND_FIELDS = ("dealer", "bid", "declarer", "called_king", "partner", "declarer_points", "declarer_cards",
               "declarer_tricks", "bird", "player_points", "bonuses", "note")
BONUS_FIELDS = ("bonus", "side", "announced", "made")


@dataclass(frozen=True)
class BonusEntry:
    """One bonus as entered for a hand (RK-8); ``contract`` marks the bird the contract names (RK-6)."""

    bonus: Bonus
    side: str
    announced: bool
    made: bool
    contract: bool = False


@dataclass(frozen=True)
class Hand:
    """One hand as entered, after its shape has been checked."""

    dealer: str | None
    bid: Bid
    declarer: str | None
    partner: str | None
    called_king: str | None
    points: Fraction | None = None  # the declarer side's card points, as entered
    cards: Mapping[str, int] | None = None  # or the cards it took, by class
    tricks: int | None = None  # trick and beggar contracts
    bird: str | None = None
    player_points: Mapping[str, Fraction] | None = None  # all-beggars
    bonuses: tuple[BonusEntry, ...] = ()


def settle(winners: Sequence[str], losers: Sequence[str], value: int) -> dict[str, int]:
    """RK-7: a zero-sum payment of ``value`` from the losing side to the winning side.

    Two against two: each winner +V, each loser −V. One against three: the lone player ±3V.

    >>> settle(["Ben"], ["Ann", "Cat", "Dan"], 4)
    {'Ben': 12, 'Ann': -4, 'Cat': -4, 'Dan': -4}
    >>> settle(["Ann", "Cat", "Dan"], ["Ben"], 4)
    {'Ann': 4, 'Cat': 4, 'Dan': 4, 'Ben': -12}
    >>> settle(["Ben", "Dan"], ["Ann", "Cat"], 3)
    {'Ben': 3, 'Dan': 3, 'Ann': -3, 'Cat': -3}
    """
    out: dict[str, int] = {}
    for name in winners:
        out[name] = value * len(losers) if len(winners) == 1 else value
    for name in losers:
        out[name] = -value * len(winners) if len(losers) == 1 else -value
    return out


# ---------------------------------------------------------------------------------------
# Options


def _check_options(options: Mapping[str, Any], found: Problems) -> dict[str, Any]:
    opts = dict(OPTIONS)
    for key, value in options.items():
        where = f"options.{key}"
        if key not in OPTIONS:
            found.add(where, f"unknown option {said(key)}; {TITLE} has the options {', '.join(OPTIONS)}")
        elif key == "counting":
            if not isinstance(value, str) or value not in COUNTINGS:
                found.add(where, f"unknown counting {said(value)}; use individual or traditional (RK-3)")
            else:
                opts[key] = value
        elif key == "hands":
            if not is_whole_number(value) or not 1 <= value <= MAX_HANDS:
                found.add(where, f"hands must be a whole number from 1 to {MAX_HANDS} (the rules say 4) (RK-10)")
            else:
                opts[key] = value
    return opts


# ---------------------------------------------------------------------------------------
# Reading a hand


def _player(value: object, where: str, players: Sequence[str], found: Problems, role: str) -> str | None:
    if not isinstance(value, str) or value.strip() not in players:
        if isinstance(value, str) and not value.strip():
            found.add(where, f"choose the {role}: {', '.join(players)}")
        else:
            found.add(where, f"the {role}, {said(value)}, is not a player at this table ({', '.join(players)})")
        return None
    return value.strip()


def _points(value: object, where: str, counting: Counting, found: Problems, whose: str) -> Fraction | None:
    try:
        points = read_points(value, counting.slug)
    except ValueError as err:
        found.add(where, str(err))
        return None
    if points < 0:
        found.add(where, "card points cannot be negative (RK-3)")
        return None
    if points > counting.pack:
        found.add(where, f"{whose} cannot take {format_points(points)} card points: the whole pack holds "
                         f"{format_points(counting.pack)} under {counting.slug} counting (RK-3)")
        return None
    return points


def _cards(raw: object, where: str, found: Problems) -> dict[str, int] | None:
    if not isinstance(raw, Mapping):
        found.add(where, "count the cards the declarer side took by class (Honours, Kings, Queens, Cavaliers, "
                         "Valets and others) and its tricks (RK-3)")
        return None
    counts: dict[str, int] = {}
    ok = True
    for key, n in raw.items():
        at = f"{where}.{key}"
        if key not in CARDS_FIELDS:
            found.add(at, f"unknown class of card {said(key)}; count {', '.join(CARDS_FIELDS)} (RK-3)")
            ok = False
            continue
        if key == "tricks":
            most, too_many, what = TRICKS, f"a hand has only {TRICKS} tricks (RK-3)", "the number of tricks"
        else:
            cls = CARD_CLASSES[key]
            most, what = cls.in_pack, f"the number of {cls.label.lower()}"
            too_many = f"the pack has only {cls.in_pack} {cls.label.lower()}; {n} were entered (RK-1)"
        checked = check_count(found, at, n, most, too_many, what=what)
        if checked is None:
            ok = False
        else:
            counts[key] = checked
    if not ok:
        return None
    return {key: counts.get(key, 0) for key in CARDS_FIELDS}


def _parse_bonuses(raw: object, at: str, bid: Bid | None, bird: str | None, cards: Mapping[str, int] | None,
                   called_king: str | None, found: Problems) -> tuple[BonusEntry, ...] | None:
    """RK-8: the hand's bonuses; None, with their problems added to ``found``, unless every one is well entered."""
    where = f"{at}.bonuses"
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        found.add(where, "give the bonuses as a list, each bonus with its name, its side, and whether it was "
                         "announced and made (RK-8)")
        return None
    if raw and bid is not None and bid.kind != "points":
        found.add(where, f"bonuses are scored only on point contracts; a {bid.label.lower()} has none (RK-8)")
        return None
    entries: list[BonusEntry] = []
    ok = True
    seen: dict[tuple[str, str], int] = {}  # (bonus, side): the index of the bonus that first entered it
    for j, item in enumerate(raw):
        entry, fine = _read_bonus(item, j, at, bid, bird, cards, called_king, seen, found)
        ok = ok and fine
        if entry is not None:
            entries.append(entry)
    ok = _made_by_one_side_only(entries, where, found) and ok
    return tuple(entries) if ok else None


def _read_bonus(item: object, j: int, at: str, bid: Bid | None, bird: str | None, cards: Mapping[str, int] | None,
                called_king: str | None, seen: dict[tuple[str, str], int],
                found: Problems) -> tuple[BonusEntry | None, bool]:
    """One bonus (RK-8): its entry, when it can be scored, and whether it was entered without a problem.

    An entry can be scored yet have a problem (an unknown field, the contract's bird said to be unannounced):
    it still counts when the bonuses are checked against each other.
    """
    here = f"{at}.bonuses[{j}]"
    if not isinstance(item, Mapping):
        found.add(here, "a bonus needs bonus, side, announced and made (RK-8)")
        return None, False
    ok = _bonus_fields_known(item, here, found)
    slug = item.get("bonus")
    if not isinstance(slug, str) or slug not in BONUSES:
        found.add(f"{here}.bonus", f"unknown bonus {said(slug)}; the bonuses are "
                                   f"{_names([b.label.lower() for b in BONUSES.values()])} (RK-8)")
        return None, False
    bonus = BONUSES[slug]
    # RK-6: the bird the contract names is the declarer side's, and counts as announced.
    contract = bird == slug and item.get("side") in (None, "declarer")
    side = _bonus_side(item.get("side"), contract, here, bonus, found)
    if side is None:
        return None, False
    announced, announced_ok = _bonus_announced(item.get("announced"), contract, here, bonus, found)
    made = item.get("made")
    if not isinstance(made, bool):
        found.add(f"{here}.made", f"say whether the {bonus.label.lower()} bonus was made (RK-8)")
        return None, False
    if slug == "last-king" and not _last_king_fits(side, here, at, bid, called_king, found):
        return None, False
    if not _entered_once(slug, side, j, here, seen, found):
        return None, False
    if made and not _made_as_the_cards_show(slug, side, cards, here, found):
        return None, False
    entry = BonusEntry(bonus, side, announced, made, contract) if announced is not None else None
    return entry, ok and announced_ok


def _bonus_fields_known(item: Mapping, here: str, found: Problems) -> bool:
    known = True
    for key in item:
        if key not in BONUS_FIELDS:
            found.add(f"{here}.{key}", f"unknown field {said(key)}; a bonus has bonus, side, announced and made")
            known = False
    return known


def _bonus_side(side: object, contract: bool, here: str, bonus: Bonus, found: Problems) -> str | None:
    """RK-8: the side that won or lost the bonus; the contract's bird is the declarer side's (RK-6)."""
    if contract and side is None:
        side = "declarer"
    if side not in SIDES:
        found.add(f"{here}.side", f"say which side won or lost the {bonus.label.lower()} bonus: the declarer side "
                                  "or the defenders (RK-8)")
        return None
    return side


def _bonus_announced(announced: object, contract: bool, here: str, bonus: Bonus,
                     found: Problems) -> tuple[bool | None, bool]:
    """RK-8: whether the bonus was announced (None when that cannot be read), and whether that was well entered.

    The contract's bird counts as announced (RK-6).
    """
    if contract and announced is None:
        announced = True
    if not isinstance(announced, bool):
        found.add(f"{here}.announced", f"say whether the {bonus.label.lower()} bonus was announced (RK-8)")
        return None, False
    if contract and not announced:
        found.add(f"{here}.announced", f"the {bonus.label.lower()} is the bird the contract names, so it counts "
                                       "as announced (RK-6)")
        return announced, False
    return announced, True


def _last_king_fits(side: str, here: str, at: str, bid: Bid | None, called_king: str | None,
                    found: Problems) -> bool:
    """RK-5, RK-8: the last king is won with the called King, so by the declarer side of a partner contract."""
    if bid is not None and not bid.partner:
        found.add(f"{here}.bonus", "the last king is scored only on partner contracts, where a King is called "
                                   "(RK-5, RK-8)")
        return False
    if side != "declarer":
        found.add(f"{here}.side", "the called King is held by the declarer side, so only the declarer "
                                  "side can make the last king (RK-5, RK-8)")
        return False
    if bid is not None and called_king is None:
        found.add(f"{at}.called_king", "enter the called King: the last king is won with it "
                                       "(RK-5, RK-8)")
        return False
    return True


def _entered_once(slug: str, side: str, j: int, here: str, seen: dict[tuple[str, str], int],
                  found: Problems) -> bool:
    """RK-8: each side's bonus is entered once; ``seen`` keeps where each was first entered."""
    key = (slug, side)
    if key in seen:
        whose = "the declarer side" if side == "declarer" else "the defenders"
        found.add(here, f"the {BONUSES[slug].label.lower()} for {whose} is entered twice (bonuses {seen[key] + 1} "
                        f"and {j + 1}) (RK-8)")
        return False
    seen[key] = j
    return True


def _made_as_the_cards_show(slug: str, side: str, cards: Mapping[str, int] | None, here: str,
                            found: Problems) -> bool:
    """RK-8: a bonus entered as made is one the cards the declarer side took, when counted, allow."""
    if cards is None:
        return True
    problem = _contradiction(slug, side, cards)
    if problem:
        found.add(f"{here}.made", problem)
        return False
    return True


def _made_by_one_side_only(entries: Sequence[BonusEntry], where: str, found: Problems) -> bool:
    """RK-8: a bonus is won by one side or the other, never both."""
    ok = True
    for slug in BONUSES:
        both = [e for e in entries if e.bonus.slug == slug and e.made]
        if len(both) > 1:
            found.add(where, f"only one side can make the {BONUSES[slug].label.lower()}; both were entered as "
                             "made (RK-8)")
            ok = False
    return ok


def _contradiction(slug: str, side: str, cards: Mapping[str, int]) -> str | None:
    """A made bonus that the declarer side's cards show cannot have been made (RK-8)."""
    need = {"slam": ("tricks", TRICKS, "tricks"), "honours": ("honours", 3, "Honours"),
            "kings": ("kings", 4, "Kings")}.get(slug)
    if need is None:
        return None
    key, full, words = need
    took = cards[key]
    label = BONUSES[slug].label.lower()
    if side == "declarer" and took != full:
        return f"the declarer side took {took} of the {full} {words}, so it did not make the {label} (RK-8)"
    if side == "defenders" and took != 0:
        return f"the declarer side took {took} of the {full} {words}, so the defenders did not make the {label} (RK-8)"
    return None


def _parse_hand(raw: object, at: str, players: Sequence[str], counting: Counting, found: Problems) -> Hand | None:
    """One hand as entered, read field by field; None, with its problems added to ``found``, unless all is well."""
    if not isinstance(raw, Mapping):
        found.add(at, "each hand needs its dealer, bid, declarer and the declarer side's take (API.md)")
        return None
    before = len(list(found))  # the hand is refused if any problem is added from here on
    _check_hand_fields(raw, at, found)
    dealer = raw.get("dealer")
    if dealer is not None:
        dealer = _player(dealer, f"{at}.dealer", players, found, "dealer")
    bid = _read_bid(raw.get("bid"), at, found)
    declarer = _read_declarer(raw.get("declarer"), at, bid, players, found)
    partner = _read_partner(raw.get("partner"), at, bid, declarer, players, found)
    called_king = _read_called_king(raw.get("called_king"), at, bid, found)
    bird = _read_bird(raw.get("bird"), at, bid, found)
    points, cards, tricks, player_points = _read_take(raw, at, bid, declarer, players, counting, found)
    bonuses = _parse_bonuses(raw.get("bonuses"), at, bid, bird, cards, called_king, found)
    _check_contract_bird_entered(at, bid, bird, bonuses, found)
    if len(list(found)) > before or bid is None:
        return None
    return Hand(dealer, bid, declarer, partner, called_king, points, cards, tricks, bird, player_points,
                bonuses or ())


def _check_hand_fields(raw: Mapping, at: str, found: Problems) -> None:
    for key in raw:
        if key not in HAND_FIELDS:
            found.add(f"{at}.{key}", f"unknown field {said(key)}; a hand has {', '.join(HAND_FIELDS)}")
    check_note(found, at, raw)


def _read_bid(slug: object, at: str, found: Problems) -> Bid | None:
    """RK-4: the bid that won the bidding."""
    if slug is None:
        found.add(f"{at}.bid", "choose the bid (RK-4)")
    elif not isinstance(slug, str) or slug not in BIDS:
        found.add(f"{at}.bid", f"{said(slug)} is not a bid; the bids are {BID_NAMES} (RK-4)")
    else:
        return BIDS[slug]
    return None


def _read_declarer(declarer: object, at: str, bid: Bid | None, players: Sequence[str],
                   found: Problems) -> str | None:
    """RK-4: the player who won the bidding; all beggars has none (RK-9)."""
    if declarer is not None:
        return _player(declarer, f"{at}.declarer", players, found, "declarer")
    if bid is None or bid.kind != "all-beggars":
        found.add(f"{at}.declarer", "name the declarer, the player who won the bidding (RK-4)")
    return None


def _read_partner(partner: object, at: str, bid: Bid | None, declarer: str | None, players: Sequence[str],
                  found: Problems) -> str | None:
    """RK-5: who held the called King, on a contract that calls one; never the declarer."""
    if partner is None:
        return None
    if bid is not None and not bid.partner:
        found.add(f"{at}.partner", f"a {bid.label.lower()} is played without a partner: only "
                                   f"{PARTNER_NAMES} call a King (RK-4, RK-5)")
        return None
    partner = _player(partner, f"{at}.partner", players, found, "partner")
    if partner is not None and partner == declarer:
        found.add(f"{at}.partner", f"{partner} is the declarer; when the declarer holds the called King "
                                   "(or it is in the stock) the declarer plays alone, with no partner "
                                   "(RK-5)")
        return None
    return partner


def _read_called_king(called: object, at: str, bid: Bid | None, found: Problems) -> str | None:
    """RK-5: the King a partner contract calls, in its canonical notation."""
    if called is None:
        return None
    if bid is not None and not bid.partner:
        found.add(f"{at}.called_king", f"a {bid.label.lower()} calls no King; only {PARTNER_NAMES} "
                                       "do (RK-5)")
        return None
    try:
        card = parse_called_king(called)
    except CardError as err:
        found.add(f"{at}.called_king", f"{err}")
        return None
    if card.rank != "K" or card.is_trump:
        found.add(f"{at}.called_king", f"{card.name} is not a King; the declarer calls a King, "
                                       "such as KH or just H for the King of Hearts (RK-5)")
        return None
    return str(card)


def _read_bird(bird: object, at: str, bid: Bid | None, found: Problems) -> str | None:
    """RK-6: the bird a bird contract names, which it must."""
    if bird is None:
        if bid is not None and bid.bird:
            found.add(f"{at}.bird", f"a {bid.label.lower()} names its bird: the {BIRD_LIST} (RK-6)")
        return None
    if bid is not None and not bid.bird:
        found.add(f"{at}.bird", f"a {bid.label.lower()} names no bird; only {BIRD_NAMES} do (RK-6)")
        return None
    if not isinstance(bird, str) or bird not in BIRDS:
        found.add(f"{at}.bird", f"{said(bird)} is not a bird; the birds are {BIRD_LIST} (RK-6, RK-8)")
        return None
    return bird


def _read_take(raw: Mapping, at: str, bid: Bid | None, declarer: str | None, players: Sequence[str],
               counting: Counting, found: Problems
               ) -> tuple[Fraction | None, dict[str, int] | None, int | None, dict[str, Fraction] | None]:
    """RK-3, RK-4: what the declarer side took, as the bid's kind counts it.

    Its card points or the cards it took on a point contract, its tricks on a trick or beggar contract,
    each player's card points in all beggars; the rest None.
    """
    points = cards = tricks = player_points = None
    kind = bid.kind if bid is not None else None
    given = {key for key in ("declarer_points", "declarer_cards", "declarer_tricks", "player_points")
             if raw.get(key) is not None}
    wanted = {"points": {"declarer_points", "declarer_cards"}, "tricks": {"declarer_tricks"},
              "beggar": {"declarer_tricks"}, "all-beggars": {"player_points"}}.get(kind or "", set(given))
    for key in sorted(given - wanted):
        found.add(f"{at}.{key}", f"{TAKE_WORDS[key]} {'is' if key != 'declarer_cards' else 'are'} not entered for a "
                                 f"{bid.label.lower()}; give {' or '.join(TAKE_WORDS[k] for k in sorted(wanted))} "
                                 "(RK-3, RK-4)")
    if kind == "points":
        points, cards = _read_card_points_or_cards(raw, given, at, counting, found)
    elif kind in ("tricks", "beggar"):
        if "declarer_tricks" not in given:
            found.add(f"{at}.declarer_tricks", f"enter how many tricks {declarer or 'the declarer'} took (RK-4)")
        else:
            tricks = check_count(found, f"{at}.declarer_tricks", raw["declarer_tricks"], TRICKS,
                                 f"a hand has only {TRICKS} tricks (RK-3)", what="the number of tricks")
    elif kind == "all-beggars":
        player_points = _player_points(raw.get("player_points"), f"{at}.player_points", players, counting, found)
    return points, cards, tricks, player_points


def _read_card_points_or_cards(raw: Mapping, given: set[str], at: str, counting: Counting,
                               found: Problems) -> tuple[Fraction | None, dict[str, int] | None]:
    """RK-3: a point contract's take, as the declarer side's card points or as the cards it took, never both."""
    if given >= {"declarer_points", "declarer_cards"}:
        found.add(f"{at}.declarer_cards", "give the declarer side's card points or the cards it took, not both: "
                                          "the two could disagree (RK-3)")
    elif "declarer_points" in given:
        return _points(raw["declarer_points"], f"{at}.declarer_points", counting, found, "the declarer side"), None
    elif "declarer_cards" in given:
        return None, _cards(raw["declarer_cards"], f"{at}.declarer_cards", found)
    else:
        found.add(f"{at}.declarer_points", "enter the declarer side's card points, or count the cards it took "
                                           "(RK-3)")
    return None, None


def _check_contract_bird_entered(at: str, bid: Bid | None, bird: str | None,
                                 bonuses: tuple[BonusEntry, ...] | None, found: Problems) -> None:
    """RK-6: a bird contract is won only with its bird, so the bonuses must say whether it was made."""
    if (bid is not None and bid.bird and bird is not None and bonuses is not None
            and not any(e.contract for e in bonuses)):
        label = BIRDS[bird].label.lower()
        found.add(f"{at}.bonuses", f"say whether the declarer side made the {label} the contract names (RK-6)")


def _player_points(raw: object, where: str, players: Sequence[str], counting: Counting,
                   found: Problems) -> dict[str, Fraction] | None:
    if not isinstance(raw, Mapping):
        found.add(where, "enter each player's card points: everyone plays alone in all beggars (RK-9)")
        return None
    out: dict[str, Fraction] = {}
    ok = True
    for name, value in raw.items():
        if name not in players:
            not_at_table(found, f"{where}.{name}", name, players)
            ok = False
            continue
        points = _points(value, f"{where}.{name}", counting, found, name)
        if points is None:
            ok = False
        else:
            out[name] = points
    for name in players:
        if name not in raw:
            found.add(f"{where}.{name}", f"enter {name}'s card points: everyone plays alone in all beggars (RK-9)")
            ok = False
    if ok and sum(out.values()) > counting.pack:
        found.add(where, f"the four players' card points add up to {format_points(sum(out.values()))}, more than "
                         f"the whole pack's {format_points(counting.pack)} (RK-3, RK-9)")
        ok = False
    return {p: out[p] for p in players} if ok else None


# ---------------------------------------------------------------------------------------
# Scoring a hand


def _names(names: Sequence[str]) -> str:
    """Names joined as a sentence lists them.

    >>> _names(["Ann"]), _names(["Ann", "Cat"]), _names(["Ann", "Cat", "Dan"])
    ('Ann', 'Ann and Cat', 'Ann, Cat and Dan')
    """
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _share_lines(players: Sequence[str], side: Sequence[str], others: Sequence[str], paid: Mapping[str, int],
                 value: int, prefix: str) -> dict[str, str]:
    """Each player's line for one payment (RK-7)."""
    lines = {}
    for name in players:
        amount = paid[name]
        if len(side) == 1 or len(others) == 1:
            lone = side[0] if len(side) == 1 else others[0]
            three = others if len(side) == 1 else side
            if name == lone:
                factor = 3 if amount > 0 else -3 if amount < 0 else 0
                text = f"{lone} alone against three: {signed(factor)} × {value} = {signed(amount)}"
            else:
                text = f"{_names(three)} against {lone} alone: {signed(amount)} each"
        else:
            mine = side if name in side else others
            theirs = others if name in side else side
            text = f"{_names(mine)} against {_names(theirs)}: {signed(amount)} each"
        lines[name] = f"{prefix}{text} (RK-7)"
    return lines


def _bonus_outcome(entry: BonusEntry) -> tuple[int, bool | None, str]:
    """RK-8: what one bonus is worth each way, whether its side gains (None: nothing changes hands), and why."""
    bonus, side = entry.bonus, entry.side
    label = bonus.label
    whose = f"the {side} side" if side == "declarer" else "the defenders"
    if entry.contract:
        if entry.made:
            return bonus.value, True, (f"{label}, the contract's bird, made by the declarer side: counted as "
                                       f"announced, {bonus.value} each way (RK-6, RK-8)")
        return bonus.value, False, (f"{label}, the contract's bird, not made by the declarer side: counted as "
                                    f"announced, the declarer side pays {bonus.value} each way (RK-6, RK-8)")
    if entry.announced:
        if entry.made:
            return bonus.value, True, f"{label} announced and made by {whose}: {bonus.value} each way (RK-8)"
        pays = "pays" if side == "declarer" else "pay"
        return bonus.value, False, (f"{label} announced by {whose} and failed: {whose} {pays} "
                                    f"{bonus.value} each way (RK-8)")
    if entry.made:
        return bonus.half, True, (f"{label} made by {whose}, not announced: half of {bonus.value} = {bonus.half} "
                                  "each way (RK-8)")
    if bonus.bird:
        # RK-8: an unannounced bird entered as not made is read as played in its trick and lost.
        return bonus.half, False, (f"{label} of {whose} played in its trick and lost, not announced: costs half of "
                                   f"{bonus.value} = {bonus.half} each way (RK-8)")
    return 0, None, f"{label} tried by {whose}, not announced and not made: costs nothing (RK-8)"


def _score_hand(hand: Hand, players: Sequence[str], counting: Counting):
    """One hand's points, explanation lines and detail."""
    explain: dict[str, list[str]] = {p: [] for p in players}
    points = dict.fromkeys(players, 0)
    payouts: list[dict[str, Any]] = []
    bid = hand.bid
    detail: dict[str, Any] = {"bid": bid.slug, "bid_label": bid.label, "kind": bid.kind, "counting": counting.slug,
                              "declarer": hand.declarer}

    def pay(item: str, label: str, paid: Mapping[str, int], value: int, **extra: Any) -> None:
        for name in players:
            points[name] += paid.get(name, 0)
        payouts.append({"item": item, "label": label, "value": value, **extra,
                        "points": {p: paid.get(p, 0) for p in players}})

    def everyone(line: str) -> None:
        for name in players:
            explain[name].append(line)

    if bid.kind == "all-beggars":
        _score_all_beggars(hand, players, counting, everyone, explain, pay, detail)
    else:
        _score_contract(hand, players, counting, everyone, explain, pay, detail)
    detail["payouts"] = payouts
    assert sum(points.values()) == 0, points  # RK-7: every payment is zero-sum
    return points, explain, detail


def _score_contract(hand: Hand, players: Sequence[str], counting: Counting, everyone, explain, pay,
                    detail) -> None:
    """RK-4 to RK-8: the declarer side against the defenders, for the contract and then for each bonus."""
    bid, declarer = hand.bid, hand.declarer
    assert declarer is not None
    side = [p for p in players if p in (declarer, hand.partner)]
    defenders = [p for p in players if p not in side]
    if bid.partner:
        _tell_called_king(hand, side, defenders, everyone)
    if bid.kind == "points":
        won = _point_contract_won(hand, counting, everyone, detail)
    else:
        won = _trick_contract_won(hand, everyone, detail)
    value = bid.value if won else bid.lost_value
    if bid.value != bid.lost_value:
        everyone(f"{bid.label} is worth {bid.value} if won, {bid.lost_value} if lost: {value} (RK-4)")
    winners, losers = (side, defenders) if won else (defenders, side)
    paid = settle(winners, losers, value)
    lines = _share_lines(players, side, defenders, paid, value, "")
    for name in players:
        explain[name].append(lines[name])
    pay("contract", bid.label, paid, value, won=won)
    detail.update(won=won, contract_value=value, partner=hand.partner, called_king=hand.called_king,
                  alone=len(side) == 1, bird=hand.bird,
                  sides={"declarer": side, "defenders": defenders})
    for entry in hand.bonuses:
        _pay_bonus(entry, players, side, defenders, everyone, explain, pay)


def _tell_called_king(hand: Hand, side: Sequence[str], defenders: Sequence[str], everyone) -> None:
    """RK-5: who held the called King, and so who plays with whom."""
    declarer = hand.declarer
    called = f" called {hand.called_king}" if hand.called_king else " called a King"
    if hand.partner:
        everyone(f"{declarer}{called}; {hand.partner} held it: {_names(side)} against {_names(defenders)} "
                 "(RK-5)")
    else:
        everyone(f"{declarer}{called} and no other player held it: {declarer} plays alone against three "
                 "(RK-5)")


def _point_contract_won(hand: Hand, counting: Counting, everyone, detail) -> bool:
    """RK-3, RK-4: whether the declarer side reached the target (and made the bird the contract names, RK-6)."""
    bid = hand.bid
    taken = _card_points_taken(hand, counting, everyone)
    how = f"{format_points(taken)} card points"
    reached = taken >= counting.target
    target = format_points(counting.target)
    won = reached
    if bid.bird:
        made = next(e.made for e in hand.bonuses if e.contract)
        won = reached and made
        everyone(_bird_contract_line(hand, how, target, reached, made))
    else:
        everyone(f"{bid.label} by {hand.declarer}: {how} against a target of {target} — "
                 f"{'won' if won else 'lost'} (RK-3, RK-4)")
    detail.update(card_points=format_points(taken), target=format_points(counting.target), reached=reached)
    return won


def _card_points_taken(hand: Hand, counting: Counting, everyone) -> Fraction:
    """RK-3: the declarer side's card points, as entered or counted from the cards it took."""
    if hand.points is not None:
        return hand.points
    assert hand.cards is not None
    taken = count_cards(hand.cards, counting.slug)
    everyone(f"Cards taken by the declarer side, counted {counting.slug}: "
             f"{cards_in_words(hand.cards, counting.slug)} (RK-2, RK-3)")
    return taken


def _bird_contract_line(hand: Hand, how: str, target: str, reached: bool, made: bool) -> str:
    """RK-6: a bird contract is won only when the target is reached and its bird is made."""
    label = BIRDS[hand.bird].label.lower()
    verdict = ("won" if reached and made else "lost")
    if reached and made:
        why = f"reach the target of {target} and the {label} was made"
    elif reached:
        why = f"reach the target of {target} but the {label} was not made by the declarer side"
    elif made:
        why = f"fall short of the target of {target}, though the {label} was made"
    else:
        why = f"fall short of the target of {target} and the {label} was not made"
    return f"{hand.bid.label} ({label}) by {hand.declarer}: {how} {why} — {verdict} (RK-3, RK-4, RK-6)"


def _trick_contract_won(hand: Hand, everyone, detail) -> bool:
    """RK-4: trick and beggar contracts are won by taking exactly the tricks the bid names."""
    bid = hand.bid
    assert hand.tricks is not None and bid.tricks is not None
    won = hand.tricks == bid.tricks
    taken_words = f"{hand.tricks} trick{'s' if hand.tricks != 1 else ''} taken"
    needed = "none allowed" if bid.tricks == 0 else f"exactly {bid.tricks} needed"
    everyone(f"{bid.label} by {hand.declarer}: {taken_words}, {needed} — {'won' if won else 'lost'} (RK-4)")
    detail.update(declarer_tricks=hand.tricks, target=f"exactly {bid.tricks} trick"
                  + ("s" if bid.tricks != 1 else ""))
    return won


def _pay_bonus(entry: BonusEntry, players: Sequence[str], side: Sequence[str], defenders: Sequence[str], everyone,
               explain, pay) -> None:
    """RK-8: one bonus, paid each way between the two sides (or nothing, when nothing changes hands)."""
    each, gains, why = _bonus_outcome(entry)
    everyone(why)
    mine = side if entry.side == "declarer" else defenders
    theirs = defenders if entry.side == "declarer" else side
    if gains is None:
        paid = dict.fromkeys(players, 0)
        to = None
    else:
        paid = settle(mine, theirs, each) if gains else settle(theirs, mine, each)
        to = entry.side if gains else ("defenders" if entry.side == "declarer" else "declarer")
        lines = _share_lines(players, side, defenders, paid, each, f"{entry.bonus.label}: ")
        for name in players:
            explain[name].append(lines[name])
    pay(entry.bonus.slug, entry.bonus.label, paid, each, side=entry.side, announced=entry.announced,
        made=entry.made, contract_bird=entry.contract, to=to)


def _score_all_beggars(hand: Hand, players, counting: Counting, everyone, explain, pay, detail) -> None:
    """RK-9: the player (or players tied) with the most card points pays each other player."""
    taken = hand.player_points
    assert taken is not None
    for name in players:
        explain[name].append(f"All beggars: everyone plays alone; {name} took {format_points(taken[name])} card "
                             "points (RK-9)")
    most = max(taken.values())
    losers = [p for p in players if taken[p] == most]
    above = format_points(counting.double_above)
    for loser in losers:
        value = 2 if taken[loser] > counting.double_above else 1
        why = (f"more than {above}, so double" if value == 2 else f"not more than {above}")
        tied = f", tied for the most with {_names([p for p in losers if p != loser])}" if len(losers) > 1 else ""
        everyone(f"{loser} took the most card points, {format_points(taken[loser])}{tied} ({why}): pays each "
                 f"other player {value} (RK-9)")
        paid = {p: (value if p != loser else -value * (len(players) - 1)) for p in players}
        for name in players:
            if name == loser:
                explain[name].append(f"{name} pays three players {value} each: {signed(paid[name])} (RK-7, RK-9)")
            else:
                explain[name].append(f"{loser} pays {name} {value}: {signed(paid[name])} (RK-7, RK-9)")
        pay("all-beggars", f"{loser} pays", paid, value, payer=loser)
    detail.update(player_points={p: format_points(taken[p]) for p in players}, losers=losers,
                  double_above=above, won=None, contract_value=None, sides=None)


# ---------------------------------------------------------------------------------------
# The game


@dataclass(frozen=True)
class Tally(Tallied):
    """The game after some hands (base.Tallied): the totals, and who dealt the last hand."""

    players: tuple[str, ...]
    opts: dict[str, Any]
    totals: dict[str, int]
    previous_dealer: str | None = None


def start(players: Sequence[str], options: Mapping[str, Any], joined: Mapping[str, int] | None = None) -> Tally:
    """The game before its first hand; raises InputError for the options."""
    found = Problems()
    opts = _check_options(options, found)
    found.raise_if_any()
    return Tally(tuple(players), opts, dict.fromkeys(players, 0))


def _past_the_end(found: Problems, hands_in_game: int, index: int) -> None:
    found.add(f"rounds[{index}]", f"the game is {hands_in_game} hand{'s' if hands_in_game != 1 else ''} and "
                                       f"ended after hand {hands_in_game}; correct an earlier hand or start a new "
                                       "game (RK-10)")


def step(tally: Tally, raw: object) -> Tally:
    """The game after one more hand (base.Fold); raises InputError naming what is wrong with it."""
    found = Problems()
    hand = _parse_hand(raw, f"rounds[{tally.count}]", tally.players, COUNTINGS[tally.opts["counting"]], found)
    if tally.count >= tally.opts["hands"]:
        _past_the_end(found, tally.opts["hands"], tally.count)
    found.raise_if_any()
    return _advance(tally, hand)


def _advance(tally: Tally, hand: Hand) -> Tally:
    """Score one parsed hand on ``tally``."""
    players, previous_dealer = tally.players, tally.previous_dealer
    points, explain, detail = _score_hand(hand, players, COUNTINGS[tally.opts["counting"]])
    dealer_line = _dealer_line(hand.dealer, previous_dealer, players)
    totals = {name: tally.totals[name] + points[name] for name in players}
    for name in players:
        if dealer_line:
            explain[name].insert(0, dealer_line)
        explain[name].append(f"Hand {signed(points[name])}; total {signed(totals[name])} (RK-7, RK-10)")
    detail.update(hand=tally.count + 1, dealer=hand.dealer, expected_dealer=_next_dealer(previous_dealer, players),
                  totals=dict(totals))
    played = tally.played_with(points, explain, detail)
    return Tally(players, tally.opts, totals, hand.dealer if hand.dealer is not None else previous_dealer,
                 played=played)


def finish(tally: Tally) -> ScoredGame:
    """The scored game a tally stands for (base.Fold)."""
    players, totals, hands_in_game, played = tally.players, tally.totals, tally.opts["hands"], tally.count
    over = played >= hands_in_game
    winners: tuple[str, ...] = ()
    reason = None
    if over:
        best = max(totals.values())
        winners = tuple(p for p in players if totals[p] == best)
        share = "has" if len(winners) == 1 else "share"
        reason = (f"After {hands_in_game} hand{'s' if hands_in_game != 1 else ''} the game is over: "
                  f"{_names(list(winners))} {share} the highest total, {signed(best)} (RK-10).")
    standing = {"hands_played": played, "hands_left": max(0, hands_in_game - played),
                "next_dealer": None if over else _next_dealer(tally.previous_dealer, players)}
    return ScoredGame(game=SLUG, players=players, options=tally.opts, rounds=tally.rounds,
                      totals=dict(totals), over=over, winners=winners, reason=reason, standing=standing)


def score(players: Sequence[str], options: Mapping[str, Any], rounds: Sequence[object]) -> ScoredGame:
    """Score a whole game of Rally the King; raises InputError listing every problem.

    The reference the fold (:func:`start`, :func:`step`, :func:`finish`) is tested against: every
    hand is read first, so every problem in the game is named at once.

    >>> game = score(("Ann", "Ben", "Cat", "Dan"), {"counting": "traditional", "hands": 1}, [
    ...     {"dealer": "Ann", "bid": "partner-against-stock", "declarer": "Ben", "called_king": "KH",
    ...      "partner": "Dan", "declarer_points": "35 2/3"}])
    >>> game.totals, game.over, game.winners
    ({'Ann': -3, 'Ben': 3, 'Cat': -3, 'Dan': 3}, True, ('Ben', 'Dan'))
    """
    tally = start(players, options)
    found = Problems()
    counting = COUNTINGS[tally.opts["counting"]]
    hands = [_parse_hand(raw, f"rounds[{i}]", tally.players, counting, found) for i, raw in enumerate(rounds)]
    for i in range(tally.opts["hands"], len(rounds)):
        _past_the_end(found, tally.opts["hands"], i)
    found.raise_if_any()
    for hand in hands:
        assert hand is not None
        tally = _advance(tally, hand)
    return finish(tally)


def _next_dealer(previous: str | None, players: Sequence[str]) -> str | None:
    """RK-10: the deal passes to the left, the next player in seat order.

    >>> _next_dealer("Dan", ("Ann", "Ben", "Cat", "Dan")), _next_dealer(None, ("Ann", "Ben"))
    ('Ann', None)
    """
    if previous is None:
        return None
    return players[(players.index(previous) + 1) % len(players)]


def _dealer_line(dealer: str | None, previous: str | None, players: Sequence[str]) -> str | None:
    if dealer is None:
        return None
    expected = _next_dealer(previous, players)
    # RK-10: the players are listed in seat order, and the player to a dealer's left is the next one
    # in that order. A dealer out of turn is noted, not refused: the table may have had its reasons.
    if expected is None or dealer == expected:
        return f"{dealer} dealt (RK-10)"
    return f"{dealer} dealt, though the deal passes left from {previous} to {expected} (RK-10)"


__all__ = ["BIDS", "BIRDS", "BONUSES", "CARD_CLASSES", "COUNTINGS", "OPTIONS", "SLUG", "TITLE", "Bid", "Bonus",
           "InputError", "TarotCard", "count_cards", "format_points", "parse_called_king", "parse_tarot_card",
           "read_points", "score", "settle"]
