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
from ..core.messages import Listed, Signed, Text, joined, say, say_n
from .base import (
    InputError,
    Problems,
    ScoredGame,
    Tallied,
    check_count,
    check_note,
    is_whole_number,
    not_at_table,
    said,
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
TRUMP_NAMES = {"1": say("the Juggler ({card})", card="T1"), "2": say("the Female Pope ({card})", card="T2"),
               "3": say("the Empress ({card})", card="T3"), "4": say("the Emperor ({card})", card="T4"),
               "21": say("the World ({card})", card="T21"), TOMFOOL: say("Tomfool ({card})", card="F")}
SUIT_NAMES = {"S": say("Spades"), "H": say("Hearts"), "D": say("Diamonds"), "C": say("Clubs")}
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
    def name(self) -> Text:
        """The card in words.

        >>> TarotCard("1", "T").name, TarotCard("C", "S").name, TarotCard("9", "D").name
        ('the Juggler (T1)', 'the Cavalier of Spades', 'the 9 of Diamonds')
        """
        if self.is_trump:
            return TRUMP_NAMES.get(self.rank) or say("trump {number}", number=int(self.rank))
        suit = SUIT_NAMES[self.suit]
        if self.rank == "K":
            return say("the King of {suit}", suit=suit)
        if self.rank == "Q":
            return say("the Queen of {suit}", suit=suit)
        if self.rank == "C":
            return say("the Cavalier of {suit}", suit=suit)
        if self.rank == "V":
            return say("the Valet of {suit}", suit=suit)
        return say("the {rank} of {suit}", rank=self.rank, suit=suit)

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
        raise CardError(say("give a card as text such as T21, F, KH or 10C, not {value}", value=said(text)))
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
            raise CardError(say("{card} is not a card: a Valet is V and a Cavalier is C; use T1-T21 for trumps, F for "
                                "Tomfool, or a rank K, Q, C, V, 10, 9, 8 or 7 and a suit S, H, D or C (RK-1)",
                                card=typed(shown)))
    raise CardError(say("{card} is not a card: use T1-T21 for trumps, F for Tomfool, or a rank K, Q, C, V, 10, 9, 8 "
                        "or 7 and a suit S, H, D or C (RK-1)", card=typed(shown)))


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
    label: Text


CARD_CLASSES: dict[str, CardClass] = {
    "honours": CardClass(5, 3, say("Honours")),
    "kings": CardClass(5, 4, say("Kings")),
    "queens": CardClass(4, 4, say("Queens")),
    "cavaliers": CardClass(3, 4, say("Cavaliers")),
    "valets": CardClass(2, 4, say("Valets")),
    "others": CardClass(1, 35, say("others")),
}
#: A count's subject when it is wrong ("the number of kings cannot be negative").
COUNT_SUBJECTS = {"honours": say("the number of honours"), "kings": say("the number of kings"),
                  "queens": say("the number of queens"), "cavaliers": say("the number of cavaliers"),
                  "valets": say("the number of valets"), "others": say("the number of other cards"),
                  "tricks": say("the number of tricks")}
#: The classes as a sentence names them ("the pack has only 3 honours").
CLASS_WORDS = {"honours": say("honours"), "kings": say("kings"), "queens": say("queens"),
               "cavaliers": say("cavaliers"), "valets": say("valets"), "others": say("others")}
#: RK-3: a hand has twelve tricks.
TRICKS = 12
CARDS_FIELDS = (*CARD_CLASSES, "tricks")


@dataclass(frozen=True)
class Counting:
    """RK-3: one way of counting card points (and RK-9's double payment threshold)."""

    slug: str
    label: Text
    per_card: Fraction  # added to each card's value
    per_trick: int  # added for each trick won
    pack: Fraction  # the whole pack, tricks included
    target: Fraction  # a point contract needs this or more
    double_above: Fraction  # RK-9: the all-beggars loser pays double above this


COUNTINGS: dict[str, Counting] = {
    "individual": Counting("individual", say("individual (card values + 1 a trick)"), Fraction(0), 1,
                           Fraction(118), Fraction(60), Fraction(60)),
    "traditional": Counting("traditional", say("traditional (each card its value − 2/3)"), Fraction(-2, 3), 0,
                            Fraction(70), Fraction(107, 3), Fraction(36)),
}
#: The countings' names as a sentence says them ("counted individual", "under traditional counting").
COUNTING_NAMES = {"individual": say("individual"), "traditional": say("traditional")
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
    shown = (" ".join(value.split())[:20] or say("a blank")) if isinstance(value, str) else said(value)
    if exact is None:
        raise ValueError(say("{value} is not a number of card points; give a number, or text such as "
                             "\"35 2/3\" (RK-3)", value=shown))
    if counting == "traditional":
        if (exact * 3).denominator != 1:
            raise ValueError(say("{value} is not a whole number of thirds; traditional counting gives points in "
                                 "thirds, such as 35 2/3 (RK-3)", value=shown))
    elif exact.denominator != 1:
        raise ValueError(say("{value} is not a whole number; individual counting gives whole card points (RK-3)",
                             value=shown))
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


def cards_in_words(cards: Mapping[str, int], counting: str = "individual") -> Text:
    """How a take of cards is counted, for an explanation.

    >>> cards_in_words({"honours": 1, "kings": 0, "others": 3, "tricks": 2})
    '1 Honour × 5 + 3 others × 1 + 2 tricks × 1 = 10'
    >>> cards_in_words({"honours": 1, "others": 3, "tricks": 2}, "traditional")
    '(1 Honour × 5 + 3 others × 1) − 4 cards × 2/3 = 5 1/3'
    """
    parts = [_class_count(k, cards[k]) for k in CARD_CLASSES if cards.get(k)]
    total = format_points(count_cards(cards, counting))
    if counting == "traditional":
        n = sum(cards.get(k, 0) for k in CARD_CLASSES)
        body = joined(parts, " + ") if parts else say("no cards")
        return say_n("({body}) − {count} card × 2/3 = {total}", "({body}) − {count} cards × 2/3 = {total}", n,
                     body=body, total=total)
    tricks = cards.get("tricks", 0)
    parts.append(say_n("{count} trick × 1", "{count} tricks × 1", tricks))
    return say("{sum} = {total}", sum=joined(parts, " + "), total=total)


def _class_count(kind: str, n: int) -> Text:
    """So many cards of a class, times the value of each (RK-2)."""
    value = CARD_CLASSES[kind].value
    if kind == "honours":
        return say_n("{count} Honour × {value}", "{count} Honours × {value}", n, value=value)
    if kind == "kings":
        return say_n("{count} King × {value}", "{count} Kings × {value}", n, value=value)
    if kind == "queens":
        return say_n("{count} Queen × {value}", "{count} Queens × {value}", n, value=value)
    if kind == "cavaliers":
        return say_n("{count} Cavalier × {value}", "{count} Cavaliers × {value}", n, value=value)
    if kind == "valets":
        return say_n("{count} Valet × {value}", "{count} Valets × {value}", n, value=value)
    return say_n("{count} others × {value}", "{count} others × {value}", n, value=value)


# ---------------------------------------------------------------------------------------
# RK-4 to RK-6, RK-8: bids and bonuses


@dataclass(frozen=True)
class Bid:
    """RK-4: one bid, what it is worth and what the declarer contracts to do."""

    slug: str
    label: Text
    kind: str  # "points", "tricks", "beggar" or "all-beggars"
    value: int  # won (RK-4); also lost, except for solo-with-stock
    lost_value: int
    target: str
    partner: bool = False  # RK-5: the declarer calls a King
    bird: bool = False  # RK-6: the contract names a bird
    tricks: int | None = None  # trick and beggar contracts: exactly this many tricks
    after_wait: bool = False  # only after "I wait"

    @property
    def word(self) -> Text:
        """The bid as a sentence names it, in lower case ("a beggar has none")."""
        return BID_WORDS[self.slug]


POINT_TARGET = "the point target: 60 or more (individual), 35 2/3 or more (traditional) (RK-3)"
BIDS: dict[str, Bid] = {bid.slug: bid for bid in (
    Bid("one-trick", say("One trick"), "tricks", 2, 2, "exactly 1 trick, playing alone", tricks=1),
    Bid("two-tricks", say("Two tricks"), "tricks", 2, 2, "exactly 2 tricks, playing alone", tricks=2),
    Bid("partner-against-stock", say("Partner against the stock"), "points", 3, 3, POINT_TARGET, partner=True),
    Bid("beggar", say("Beggar"), "beggar", 3, 3, "no trick at all, playing alone", tricks=0),
    Bid("partner-with-bird", say("Partner with a bird"), "points", 2, 2, POINT_TARGET + " and the bird named",
        partner=True, bird=True),
    Bid("solo", say("Solo"), "points", 4, 4, POINT_TARGET + ", playing alone"),
    Bid("one-trick-exposed", say("One trick exposed"), "tricks", 5, 5, "exactly 1 trick, alone, hand face up",
        tricks=1),
    Bid("no-trumps", say("No trumps"), "points", 5, 5, POINT_TARGET + ", playing alone without trump power"),
    Bid("beggar-exposed", say("Beggar exposed"), "beggar", 6, 6, "no trick at all, alone, hand face up", tricks=0),
    Bid("solo-with-bird", say("Solo with a bird"), "points", 4, 4, POINT_TARGET + " and the bird named, playing alone",
        bird=True),
    Bid("solo-against-stock", say("Solo against the stock"), "points", 8, 8, POINT_TARGET + ", playing alone"),
    Bid("partner", say("Partner"), "points", 1, 1, POINT_TARGET, partner=True, after_wait=True),
    Bid("solo-with-stock", say("Solo with the stock"), "points", 2, 4,
        POINT_TARGET + ", playing alone; 2 if won, 4 if lost", after_wait=True),
    Bid("all-beggars", say("All beggars"), "all-beggars", 1, 1,
        "everyone alone; the most card points pays each other player 1 (2 above 60 / 36) (RK-9)",
        after_wait=True),
)}
#: The bids as a sentence names them.
BID_WORDS: dict[str, Text] = {
    "one-trick": say("one trick"),
    "two-tricks": say("two tricks"),
    "partner-against-stock": say("partner against the stock"),
    "beggar": say("beggar"),
    "partner-with-bird": say("partner with a bird"),
    "solo": say("solo"),
    "one-trick-exposed": say("one trick exposed"),
    "no-trumps": say("no trumps"),
    "beggar-exposed": say("beggar exposed"),
    "solo-with-bird": say("solo with a bird"),
    "solo-against-stock": say("solo against the stock"),
    "partner": say("partner"),
    "solo-with-stock": say("solo with the stock"),
    "all-beggars": say("all beggars"),
}
PARTNER_BIDS = tuple(slug for slug, bid in BIDS.items() if bid.partner)
BIRD_BIDS = tuple(slug for slug, bid in BIDS.items() if bid.bird)


@dataclass(frozen=True)
class Bonus:
    """RK-8: a bonus and its full value."""

    slug: str
    label: Text
    value: int
    description: Text
    bird: bool = False

    @property
    def word(self) -> Text:
        """The bonus as a sentence names it, in lower case ("the sparrow was made")."""
        return BONUS_WORDS[self.slug]

    @property
    def half(self) -> int:
        return self.value // 2


BONUSES: dict[str, Bonus] = {bonus.slug: bonus for bonus in (
    Bonus("sparrow", say("Sparrow"), 2, say("the last trick won with the Juggler (T1)"), bird=True),
    Bonus("owl", say("Owl"), 4, say("the second-to-last trick won with the Female Pope (T2)"), bird=True),
    Bonus("cockatoo", say("Cockatoo"), 6, say("the third-to-last trick won with the Empress (T3)"), bird=True),
    Bonus("pelican", say("Pelican"), 8, say("the fourth-to-last trick won with the Emperor (T4)"), bird=True),
    Bonus("last-king", say("Last king"), 2, say("the last trick won with the called King")),
    Bonus("slam", say("Slam"), 8, say("one side wins every trick")),
    Bonus("honours", say("Honours"), 2, say("one side wins all three Honours")),
    Bonus("kings", say("Kings"), 2, say("one side wins all four Kings")),
)}
#: The bonuses as a sentence names them.
BONUS_WORDS: dict[str, Text] = {
    "sparrow": say("sparrow"),
    "owl": say("owl"),
    "cockatoo": say("cockatoo"),
    "pelican": say("pelican"),
    "last-king": say("last king"),
    "slam": say("slam"),
    "honours": say("honours"),
    "kings": say("kings"),
}
BIRDS: dict[str, Bonus] = {slug: bonus for slug, bonus in BONUSES.items() if bonus.bird}
SIDES = ("declarer", "defenders")


#: Messages name bids and birds as players say them, never by their slugs.
def _either(items: Sequence[Text]) -> Text:
    """Items said as choices: "a, b or c"."""
    return say("{items} or {last}", items=joined(items[:-1], ", "), last=items[-1])


BID_NAMES = _either([b.label for b in BIDS.values()])
PARTNER_NAMES = Listed(BIDS[s].label for s in PARTNER_BIDS)
BIRD_NAMES = Listed(BIDS[s].label for s in BIRD_BIDS)
BIRD_LIST = _either([b.word for b in BIRDS.values()])
#: What the declarer side took, as a problem names it (RK-3, RK-4).
TAKE_WORDS = {"declarer_points": say("the declarer side's card points"),
              "declarer_cards": say("the cards the declarer side took"),
              "declarer_tricks": say("the declarer's tricks"),
              "player_points": say("each player's card points")}

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
            found.add(where, say("unknown option {option}; {game} has the options {options}", option=said(key),
                                 game=TITLE, options=", ".join(OPTIONS)))
        elif key == "counting":
            if not isinstance(value, str) or value not in COUNTINGS:
                found.add(where, say("unknown counting {value}; use individual or traditional (RK-3)",
                                     value=said(value)))
            else:
                opts[key] = value
        elif key == "hands":
            if not is_whole_number(value) or not 1 <= value <= MAX_HANDS:
                found.add(where, say("hands must be a whole number from 1 to {most} (the rules say 4) (RK-10)",
                                     most=MAX_HANDS))
            else:
                opts[key] = value
    return opts


# ---------------------------------------------------------------------------------------
# Reading a hand


def _player(value: object, where: str, players: Sequence[str], found: Problems, role: str) -> str | None:
    """A player named for ``role`` (dealer, declarer or partner), or a problem saying who may be named."""
    if not isinstance(value, str) or value.strip() not in players:
        seated = ", ".join(players)
        if isinstance(value, str) and not value.strip():
            found.add(where, {"dealer": say("choose the dealer: {players}", players=seated),
                              "declarer": say("choose the declarer: {players}", players=seated),
                              "partner": say("choose the partner: {players}", players=seated)}[role])
        else:
            name = said(value)
            found.add(where, {
                "dealer": say("the dealer, {name}, is not a player at this table ({players})", name=name,
                              players=seated),
                "declarer": say("the declarer, {name}, is not a player at this table ({players})", name=name,
                                players=seated),
                "partner": say("the partner, {name}, is not a player at this table ({players})", name=name,
                               players=seated)}[role])
        return None
    return value.strip()


def _points(value: object, where: str, counting: Counting, found: Problems, whose: str) -> Fraction | None:
    try:
        points = read_points(value, counting.slug)
    except ValueError as err:
        found.add(where, err.args[0])
        return None
    if points < 0:
        found.add(where, say("card points cannot be negative (RK-3)"))
        return None
    if points > counting.pack:
        found.add(where, say("{whose} cannot take {points} card points: the whole pack holds {pack} under {counting} "
                             "counting (RK-3)", whose=whose, points=format_points(points),
                             pack=format_points(counting.pack), counting=COUNTING_NAMES[counting.slug]))
        return None
    return points


def _too_many_tricks() -> Text:
    return say("a hand has only {count} tricks (RK-3)", count=TRICKS)


def _cards(raw: object, where: str, found: Problems) -> dict[str, int] | None:
    if not isinstance(raw, Mapping):
        found.add(where, say("count the cards the declarer side took by class (Honours, Kings, Queens, Cavaliers, "
                             "Valets and others) and its tricks (RK-3)"))
        return None
    counts: dict[str, int] = {}
    ok = True
    for key, n in raw.items():
        at = f"{where}.{key}"
        if key not in CARDS_FIELDS:
            found.add(at, say("unknown class of card {key}; count {fields} (RK-3)", key=said(key),
                              fields=", ".join(CARDS_FIELDS)))
            ok = False
            continue
        if key == "tricks":
            most = TRICKS
            too_many = _too_many_tricks
        else:
            cls = CARD_CLASSES[key]
            most = cls.in_pack
            def too_many(cls=cls, key=key, n=n) -> Text:
                return say("the pack has only {most} {cards}; {count} were entered (RK-1)", most=cls.in_pack,
                           cards=CLASS_WORDS[key], count=n)
        checked = check_count(found, at, n, most, too_many, what=COUNT_SUBJECTS[key])
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
        found.add(where, say("give the bonuses as a list, each bonus with its name, its side, and whether it was "
                             "announced and made (RK-8)"))
        return None
    if raw and bid is not None and bid.kind != "points":
        found.add(where, say("bonuses are scored only on point contracts; a {bid} has none (RK-8)", bid=bid.word))
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
        found.add(here, say("a bonus needs bonus, side, announced and made (RK-8)"))
        return None, False
    ok = _bonus_fields_known(item, here, found)
    slug = item.get("bonus")
    if not isinstance(slug, str) or slug not in BONUSES:
        found.add(f"{here}.bonus", say("unknown bonus {value}; the bonuses are {bonuses} (RK-8)", value=said(slug),
                                       bonuses=Listed(b.word for b in BONUSES.values())))
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
        found.add(f"{here}.made", say("say whether the {bonus} bonus was made (RK-8)", bonus=bonus.word))
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
            found.add(f"{here}.{key}", say("unknown field {key}; a bonus has bonus, side, announced and made",
                                           key=said(key)))
            known = False
    return known


def _bonus_side(side: object, contract: bool, here: str, bonus: Bonus, found: Problems) -> str | None:
    """RK-8: the side that won or lost the bonus; the contract's bird is the declarer side's (RK-6)."""
    if contract and side is None:
        side = "declarer"
    if side not in SIDES:
        found.add(f"{here}.side", say("say which side won or lost the {bonus} bonus: the declarer side "
                                      "or the defenders (RK-8)", bonus=bonus.word))
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
        found.add(f"{here}.announced", say("say whether the {bonus} bonus was announced (RK-8)", bonus=bonus.word))
        return None, False
    if contract and not announced:
        found.add(f"{here}.announced", say("the {bonus} is the bird the contract names, so it counts "
                                           "as announced (RK-6)", bonus=bonus.word))
        return announced, False
    return announced, True


def _last_king_fits(side: str, here: str, at: str, bid: Bid | None, called_king: str | None,
                    found: Problems) -> bool:
    """RK-5, RK-8: the last king is won with the called King, so by the declarer side of a partner contract."""
    if bid is not None and not bid.partner:
        found.add(f"{here}.bonus", say("the last king is scored only on partner contracts, where a King is called "
                                       "(RK-5, RK-8)"))
        return False
    if side != "declarer":
        found.add(f"{here}.side", say("the called King is held by the declarer side, so only the declarer "
                                      "side can make the last king (RK-5, RK-8)"))
        return False
    if bid is not None and called_king is None:
        found.add(f"{at}.called_king", say("enter the called King: the last king is won with it "
                                           "(RK-5, RK-8)"))
        return False
    return True


def _entered_once(slug: str, side: str, j: int, here: str, seen: dict[tuple[str, str], int],
                  found: Problems) -> bool:
    """RK-8: each side's bonus is entered once; ``seen`` keeps where each was first entered."""
    key = (slug, side)
    if key in seen:
        said_twice = (say("the {bonus} for the declarer side is entered twice (bonuses {first} and {second}) (RK-8)",
                          bonus=BONUSES[slug].word, first=seen[key] + 1, second=j + 1) if side == "declarer" else
                      say("the {bonus} for the defenders is entered twice (bonuses {first} and {second}) (RK-8)",
                          bonus=BONUSES[slug].word, first=seen[key] + 1, second=j + 1))
        found.add(here, said_twice)
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
            found.add(where, say("only one side can make the {bonus}; both were entered as made (RK-8)",
                                 bonus=BONUSES[slug].word))
            ok = False
    return ok


def _contradiction(slug: str, side: str, cards: Mapping[str, int]) -> Text | None:
    """A made bonus that the declarer side's cards show cannot have been made (RK-8)."""
    need = {"slam": ("tricks", TRICKS, say("tricks")), "honours": ("honours", 3, say("Honours")),
            "kings": ("kings", 4, say("Kings"))}.get(slug)
    if need is None:
        return None
    key, full, words = need
    took = cards[key]
    label = BONUSES[slug].word
    if side == "declarer" and took != full:
        return say("the declarer side took {took} of the {full} {cards}, so it did not make the {bonus} (RK-8)",
                   took=took, full=full, cards=words, bonus=label)
    if side == "defenders" and took != 0:
        return say("the declarer side took {took} of the {full} {cards}, so the defenders did not make the {bonus} "
                   "(RK-8)", took=took, full=full, cards=words, bonus=label)
    return None


def _parse_hand(raw: object, at: str, players: Sequence[str], counting: Counting, found: Problems) -> Hand | None:
    """One hand as entered, read field by field; None, with its problems added to ``found``, unless all is well."""
    if not isinstance(raw, Mapping):
        found.add(at, say("each hand needs its dealer, bid, declarer and the declarer side's take (API.md)"))
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
            found.add(f"{at}.{key}", say("unknown field {key}; a hand has {fields}", key=said(key),
                                         fields=", ".join(HAND_FIELDS)))
    check_note(found, at, raw)


def _read_bid(slug: object, at: str, found: Problems) -> Bid | None:
    """RK-4: the bid that won the bidding."""
    if slug is None:
        found.add(f"{at}.bid", say("choose the bid (RK-4)"))
    elif not isinstance(slug, str) or slug not in BIDS:
        found.add(f"{at}.bid", say("{value} is not a bid; the bids are {bids} (RK-4)", value=said(slug),
                                   bids=BID_NAMES))
    else:
        return BIDS[slug]
    return None


def _read_declarer(declarer: object, at: str, bid: Bid | None, players: Sequence[str],
                   found: Problems) -> str | None:
    """RK-4: the player who won the bidding; all beggars has none (RK-9)."""
    if declarer is not None:
        return _player(declarer, f"{at}.declarer", players, found, "declarer")
    if bid is None or bid.kind != "all-beggars":
        found.add(f"{at}.declarer", say("name the declarer, the player who won the bidding (RK-4)"))
    return None


def _read_partner(partner: object, at: str, bid: Bid | None, declarer: str | None, players: Sequence[str],
                  found: Problems) -> str | None:
    """RK-5: who held the called King, on a contract that calls one; never the declarer."""
    if partner is None:
        return None
    if bid is not None and not bid.partner:
        found.add(f"{at}.partner", say("a {bid} is played without a partner: only {bids} call a King (RK-4, RK-5)",
                                       bid=bid.word, bids=PARTNER_NAMES))
        return None
    partner = _player(partner, f"{at}.partner", players, found, "partner")
    if partner is not None and partner == declarer:
        found.add(f"{at}.partner", say("{name} is the declarer; when the declarer holds the called King "
                                       "(or it is in the stock) the declarer plays alone, with no partner "
                                       "(RK-5)", name=partner))
        return None
    return partner


def _read_called_king(called: object, at: str, bid: Bid | None, found: Problems) -> str | None:
    """RK-5: the King a partner contract calls, in its canonical notation."""
    if called is None:
        return None
    if bid is not None and not bid.partner:
        found.add(f"{at}.called_king", say("a {bid} calls no King; only {bids} do (RK-5)", bid=bid.word,
                                           bids=PARTNER_NAMES))
        return None
    try:
        card = parse_called_king(called)
    except CardError as err:
        found.add(f"{at}.called_king", err.args[0])
        return None
    if card.rank != "K" or card.is_trump:
        found.add(f"{at}.called_king", say("{card} is not a King; the declarer calls a King, "
                                           "such as KH or just H for the King of Hearts (RK-5)", card=card.name))
        return None
    return str(card)


def _read_bird(bird: object, at: str, bid: Bid | None, found: Problems) -> str | None:
    """RK-6: the bird a bird contract names, which it must."""
    if bird is None:
        if bid is not None and bid.bird:
            found.add(f"{at}.bird", say("a {bid} names its bird: the {birds} (RK-6)", bid=bid.word, birds=BIRD_LIST))
        return None
    if bid is not None and not bid.bird:
        found.add(f"{at}.bird", say("a {bid} names no bird; only {bids} do (RK-6)", bid=bid.word, bids=BIRD_NAMES))
        return None
    if not isinstance(bird, str) or bird not in BIRDS:
        found.add(f"{at}.bird", say("{value} is not a bird; the birds are {birds} (RK-6, RK-8)", value=said(bird),
                                    birds=BIRD_LIST))
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
        give = (say("{one} or {other}", one=TAKE_WORDS["declarer_cards"], other=TAKE_WORDS["declarer_points"])
                if len(wanted) > 1 else TAKE_WORDS[min(wanted)])
        if key == "declarer_cards":
            found.add(f"{at}.{key}", say("{what} are not entered for a {bid}; give {wanted} (RK-3, RK-4)",
                                         what=TAKE_WORDS[key], bid=bid.word, wanted=give))
        else:
            found.add(f"{at}.{key}", say("{what} is not entered for a {bid}; give {wanted} (RK-3, RK-4)",
                                         what=TAKE_WORDS[key], bid=bid.word, wanted=give))
    if kind == "points":
        points, cards = _read_card_points_or_cards(raw, given, at, counting, found)
    elif kind in ("tricks", "beggar"):
        if "declarer_tricks" not in given:
            found.add(f"{at}.declarer_tricks", say("enter how many tricks {name} took (RK-4)", name=declarer)
                      if declarer else say("enter how many tricks the declarer took (RK-4)"))
        else:
            tricks = check_count(found, f"{at}.declarer_tricks", raw["declarer_tricks"], TRICKS,
                                 _too_many_tricks,
                                 what=COUNT_SUBJECTS["tricks"])
    elif kind == "all-beggars":
        player_points = _player_points(raw.get("player_points"), f"{at}.player_points", players, counting, found)
    return points, cards, tricks, player_points


def _read_card_points_or_cards(raw: Mapping, given: set[str], at: str, counting: Counting,
                               found: Problems) -> tuple[Fraction | None, dict[str, int] | None]:
    """RK-3: a point contract's take, as the declarer side's card points or as the cards it took, never both."""
    if given >= {"declarer_points", "declarer_cards"}:
        found.add(f"{at}.declarer_cards", say("give the declarer side's card points or the cards it took, not both: "
                                              "the two could disagree (RK-3)"))
    elif "declarer_points" in given:
        return _points(raw["declarer_points"], f"{at}.declarer_points", counting, found, say("the declarer side")), None
    elif "declarer_cards" in given:
        return None, _cards(raw["declarer_cards"], f"{at}.declarer_cards", found)
    else:
        found.add(f"{at}.declarer_points", say("enter the declarer side's card points, or count the cards it took "
                                               "(RK-3)"))
    return None, None


def _check_contract_bird_entered(at: str, bid: Bid | None, bird: str | None,
                                 bonuses: tuple[BonusEntry, ...] | None, found: Problems) -> None:
    """RK-6: a bird contract is won only with its bird, so the bonuses must say whether it was made."""
    if (bid is not None and bid.bird and bird is not None and bonuses is not None
            and not any(e.contract for e in bonuses)):
        found.add(f"{at}.bonuses", say("say whether the declarer side made the {bird} the contract names (RK-6)",
                                       bird=BIRDS[bird].word))


def _player_points(raw: object, where: str, players: Sequence[str], counting: Counting,
                   found: Problems) -> dict[str, Fraction] | None:
    if not isinstance(raw, Mapping):
        found.add(where, say("enter each player's card points: everyone plays alone in all beggars (RK-9)"))
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
            found.add(f"{where}.{name}", say("enter {name}'s card points: everyone plays alone in all beggars (RK-9)",
                                             name=name))
            ok = False
    if ok and sum(out.values()) > counting.pack:
        found.add(where, say("the four players' card points add up to {points}, more than the whole pack's {pack} "
                             "(RK-3, RK-9)", points=format_points(sum(out.values())),
                             pack=format_points(counting.pack)))
        ok = False
    return {p: out[p] for p in players} if ok else None


# ---------------------------------------------------------------------------------------
# Scoring a hand


def _names(names: Sequence[str]) -> Listed:
    """Names joined as a sentence lists them.

    >>> from companion.core.messages import render
    >>> [render(_names(names), "en") for names in (["Ann"], ["Ann", "Cat"], ["Ann", "Cat", "Dan"])]
    ['Ann', 'Ann and Cat', 'Ann, Cat and Dan']
    >>> render(_names(["Ann", "Cat", "Dan"]), "fr")
    'Ann, Cat et Dan'
    """
    return Listed(names)


def _share_lines(players: Sequence[str], side: Sequence[str], others: Sequence[str], paid: Mapping[str, int],
                 value: int, bonus: Text | None) -> dict[str, Text]:
    """Each player's line for one payment (RK-7), for the contract or for ``bonus``."""
    lines = {}
    for name in players:
        amount = paid[name]
        if len(side) == 1 or len(others) == 1:
            lone = side[0] if len(side) == 1 else others[0]
            three = others if len(side) == 1 else side
            if name == lone:
                factor = 3 if amount > 0 else -3 if amount < 0 else 0
                values = {"name": lone, "factor": Signed(factor), "value": value, "points": Signed(amount)}
                lines[name] = (say("{name} alone against three: {factor} × {value} = {points} (RK-7)", **values)
                               if bonus is None else
                               say("{bonus}: {name} alone against three: {factor} × {value} = {points} (RK-7)",
                                   bonus=bonus, **values))
            else:
                values = {"names": _names(three), "name": lone, "points": Signed(amount)}
                lines[name] = (say("{names} against {name} alone: {points} each (RK-7)", **values)
                               if bonus is None else
                               say("{bonus}: {names} against {name} alone: {points} each (RK-7)", bonus=bonus,
                                   **values))
        else:
            mine = side if name in side else others
            theirs = others if name in side else side
            values = {"names": _names(mine), "others": _names(theirs), "points": Signed(amount)}
            lines[name] = (say("{names} against {others}: {points} each (RK-7)", **values) if bonus is None else
                           say("{bonus}: {names} against {others}: {points} each (RK-7)", bonus=bonus, **values))
    return lines


def _bonus_outcome(entry: BonusEntry) -> tuple[int, bool | None, Text]:
    """RK-8: what one bonus is worth each way, whether its side gains (None: nothing changes hands), and why."""
    bonus, side = entry.bonus, entry.side
    label = bonus.label
    whose = say("the declarer side") if side == "declarer" else say("the defenders")
    if entry.contract:
        if entry.made:
            return bonus.value, True, say("{bonus}, the contract's bird, made by the declarer side: counted as "
                                          "announced, {value} each way (RK-6, RK-8)", bonus=label, value=bonus.value)
        return bonus.value, False, say("{bonus}, the contract's bird, not made by the declarer side: counted as "
                                       "announced, the declarer side pays {value} each way (RK-6, RK-8)",
                                       bonus=label, value=bonus.value)
    if entry.announced:
        if entry.made:
            return bonus.value, True, say("{bonus} announced and made by {side}: {value} each way (RK-8)",
                                          bonus=label, side=whose, value=bonus.value)
        if side == "declarer":
            return bonus.value, False, say("{bonus} announced by the declarer side and failed: the declarer side pays "
                                           "{value} each way (RK-8)", bonus=label, value=bonus.value)
        return bonus.value, False, say("{bonus} announced by the defenders and failed: the defenders pay "
                                       "{value} each way (RK-8)", bonus=label, value=bonus.value)
    if entry.made:
        return bonus.half, True, say("{bonus} made by {side}, not announced: half of {value} = {half} each way (RK-8)",
                                     bonus=label, side=whose, value=bonus.value, half=bonus.half)
    if bonus.bird:
        # RK-8: an unannounced bird entered as not made is read as played in its trick and lost.
        return bonus.half, False, say("{bonus} of {side} played in its trick and lost, not announced: costs half of "
                                      "{value} = {half} each way (RK-8)", bonus=label, side=whose, value=bonus.value,
                                      half=bonus.half)
    return 0, None, say("{bonus} tried by {side}, not announced and not made: costs nothing (RK-8)", bonus=label,
                        side=whose)


def _score_hand(hand: Hand, players: Sequence[str], counting: Counting):
    """One hand's points, explanation lines and detail."""
    explain: dict[str, list[Text]] = {p: [] for p in players}
    points = dict.fromkeys(players, 0)
    payouts: list[dict[str, Any]] = []
    bid = hand.bid
    detail: dict[str, Any] = {"bid": bid.slug, "bid_label": bid.label, "kind": bid.kind, "counting": counting.slug,
                              "declarer": hand.declarer}

    def pay(item: str, label: Text, paid: Mapping[str, int], value: int, **extra: Any) -> None:
        for name in players:
            points[name] += paid.get(name, 0)
        payouts.append({"item": item, "label": label, "value": value, **extra,
                        "points": {p: paid.get(p, 0) for p in players}})

    def everyone(line: Text) -> None:
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
        everyone(say("{bid} is worth {won} if won, {lost} if lost: {value} (RK-4)", bid=bid.label, won=bid.value,
                     lost=bid.lost_value, value=value))
    winners, losers = (side, defenders) if won else (defenders, side)
    paid = settle(winners, losers, value)
    lines = _share_lines(players, side, defenders, paid, value, None)
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
    declarer, king = hand.declarer, hand.called_king
    if hand.partner:
        values = {"declarer": declarer, "partner": hand.partner, "side": _names(side), "defenders": _names(defenders)}
        everyone(say("{declarer} called {king}; {partner} held it: {side} against {defenders} (RK-5)", king=king,
                     **values) if king else
                 say("{declarer} called a King; {partner} held it: {side} against {defenders} (RK-5)", **values))
    else:
        everyone(say("{declarer} called {king} and no other player held it: {declarer} plays alone against three "
                     "(RK-5)", declarer=declarer, king=king) if king else
                 say("{declarer} called a King and no other player held it: {declarer} plays alone against three "
                     "(RK-5)", declarer=declarer))


def _point_contract_won(hand: Hand, counting: Counting, everyone, detail) -> bool:
    """RK-3, RK-4: whether the declarer side reached the target (and made the bird the contract names, RK-6)."""
    bid = hand.bid
    taken = _card_points_taken(hand, counting, everyone)
    how = format_points(taken)
    reached = taken >= counting.target
    target = format_points(counting.target)
    won = reached
    if bid.bird:
        made = next(e.made for e in hand.bonuses if e.contract)
        won = reached and made
        everyone(_bird_contract_line(hand, how, target, reached, made))
    else:
        values = {"bid": bid.label, "declarer": hand.declarer, "points": how, "target": target}
        everyone(say("{bid} by {declarer}: {points} card points against a target of {target} — won (RK-3, RK-4)",
                     **values) if won else
                 say("{bid} by {declarer}: {points} card points against a target of {target} — lost (RK-3, RK-4)",
                     **values))
    detail.update(card_points=format_points(taken), target=format_points(counting.target), reached=reached)
    return won


def _card_points_taken(hand: Hand, counting: Counting, everyone) -> Fraction:
    """RK-3: the declarer side's card points, as entered or counted from the cards it took."""
    if hand.points is not None:
        return hand.points
    assert hand.cards is not None
    taken = count_cards(hand.cards, counting.slug)
    everyone(say("Cards taken by the declarer side, counted {counting}: {sum} (RK-2, RK-3)",
                 counting=COUNTING_NAMES[counting.slug], sum=cards_in_words(hand.cards, counting.slug)))
    return taken


def _bird_contract_line(hand: Hand, how: str, target: str, reached: bool, made: bool) -> Text:
    """RK-6: a bird contract is won only when the target is reached and its bird is made."""
    values = {"bid": hand.bid.label, "bird": BIRDS[hand.bird].word, "declarer": hand.declarer, "points": how,
              "target": target}
    if reached and made:
        return say("{bid} ({bird}) by {declarer}: {points} card points reach the target of {target} and the {bird} "
                   "was made — won (RK-3, RK-4, RK-6)", **values)
    if reached:
        return say("{bid} ({bird}) by {declarer}: {points} card points reach the target of {target} but the {bird} "
                   "was not made by the declarer side — lost (RK-3, RK-4, RK-6)", **values)
    if made:
        return say("{bid} ({bird}) by {declarer}: {points} card points fall short of the target of {target}, though "
                   "the {bird} was made — lost (RK-3, RK-4, RK-6)", **values)
    return say("{bid} ({bird}) by {declarer}: {points} card points fall short of the target of {target} and the "
               "{bird} was not made — lost (RK-3, RK-4, RK-6)", **values)


def _trick_contract_won(hand: Hand, everyone, detail) -> bool:
    """RK-4: trick and beggar contracts are won by taking exactly the tricks the bid names."""
    bid = hand.bid
    assert hand.tricks is not None and bid.tricks is not None
    won = hand.tricks == bid.tricks
    taken = say_n("{count} trick taken", "{count} tricks taken", hand.tricks)
    needed = (say("none allowed") if bid.tricks == 0 else
              say_n("exactly {count} needed", "exactly {count} needed", bid.tricks))
    values = {"bid": bid.label, "declarer": hand.declarer, "taken": taken, "needed": needed}
    everyone(say("{bid} by {declarer}: {taken}, {needed} — won (RK-4)", **values) if won else
             say("{bid} by {declarer}: {taken}, {needed} — lost (RK-4)", **values))
    detail.update(declarer_tricks=hand.tricks,
                  target=say_n("exactly {count} trick", "exactly {count} tricks", bid.tricks))
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
        lines = _share_lines(players, side, defenders, paid, each, entry.bonus.label)
        for name in players:
            explain[name].append(lines[name])
    pay(entry.bonus.slug, entry.bonus.label, paid, each, side=entry.side, announced=entry.announced,
        made=entry.made, contract_bird=entry.contract, to=to)


def _score_all_beggars(hand: Hand, players, counting: Counting, everyone, explain, pay, detail) -> None:
    """RK-9: the player (or players tied) with the most card points pays each other player."""
    taken = hand.player_points
    assert taken is not None
    for name in players:
        explain[name].append(say("All beggars: everyone plays alone; {name} took {points} card points (RK-9)",
                                 name=name, points=format_points(taken[name])))
    most = max(taken.values())
    losers = [p for p in players if taken[p] == most]
    above = format_points(counting.double_above)
    for loser in losers:
        value = 2 if taken[loser] > counting.double_above else 1
        why = (say("more than {points}, so double", points=above) if value == 2 else
               say("not more than {points}", points=above))
        values = {"name": loser, "points": format_points(taken[loser]), "why": why, "value": value}
        if len(losers) > 1:
            everyone(say("{name} took the most card points, {points}, tied for the most with {others} ({why}): pays "
                         "each other player {value} (RK-9)", others=_names([p for p in losers if p != loser]),
                         **values))
        else:
            everyone(say("{name} took the most card points, {points} ({why}): pays each other player {value} (RK-9)",
                         **values))
        paid = {p: (value if p != loser else -value * (len(players) - 1)) for p in players}
        for name in players:
            if name == loser:
                explain[name].append(say("{name} pays three players {value} each: {points} (RK-7, RK-9)", name=name,
                                         value=value, points=Signed(paid[name])))
            else:
                explain[name].append(say("{payer} pays {name} {value}: {points} (RK-7, RK-9)", payer=loser, name=name,
                                         value=value, points=Signed(paid[name])))
        pay("all-beggars", say("{name} pays", name=loser), paid, value, payer=loser)
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
    found.add(f"rounds[{index}]", say_n("the game is {count} hand and ended after hand {count}; correct an earlier "
                                        "hand or start a new game (RK-10)",
                                        "the game is {count} hands and ended after hand {count}; correct an earlier "
                                        "hand or start a new game (RK-10)", hands_in_game))


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
        explain[name].append(say("Hand {points}; total {total} (RK-7, RK-10)", points=Signed(points[name]),
                                 total=Signed(totals[name])))
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
        over_after = say_n("After {count} hand the game is over", "After {count} hands the game is over",
                           hands_in_game)
        reason = (say("{over}: {name} has the highest total, {total} (RK-10).", over=over_after, name=winners[0],
                      total=Signed(best)) if len(winners) == 1 else
                  say("{over}: {names} share the highest total, {total} (RK-10).", over=over_after,
                      names=_names(list(winners)), total=Signed(best)))
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


def _dealer_line(dealer: str | None, previous: str | None, players: Sequence[str]) -> Text | None:
    if dealer is None:
        return None
    expected = _next_dealer(previous, players)
    # RK-10: the players are listed in seat order, and the player to a dealer's left is the next one
    # in that order. A dealer out of turn is noted, not refused: the table may have had its reasons.
    if expected is None or dealer == expected:
        return say("{dealer} dealt (RK-10)", dealer=dealer)
    return say("{dealer} dealt, though the deal passes left from {previous} to {expected} (RK-10)", dealer=dealer,
               previous=previous, expected=expected)


__all__ = ["BIDS", "BIRDS", "BONUSES", "CARD_CLASSES", "COUNTINGS", "OPTIONS", "SLUG", "TITLE", "Bid", "Bonus",
           "InputError", "TarotCard", "count_cards", "format_points", "parse_called_king", "parse_tarot_card",
           "read_points", "score", "settle"]
