"""Card notation shared by the games that use French-suited cards (API.md).

A card is written rank then suit: ``KS``, ``10H``, ``2D``, ``AC``. Input is
case-insensitive, may use the suit symbols ♠♥♦♣ (or the hollow ♤♡♢♧) and may
contain spaces; output is always canonical upper case. Indian Rummy's printed
joker is ``JK``, accepted only where a game asks for it.

>>> parse_card("10h"), str(parse_card("q ♠"))
(Card(rank='10', suit='H'), 'QS')
>>> parse_card("1S")
Traceback (most recent call last):
...
companion.core.cards.CardError: 1S is not a card: use a rank 2-10, J, Q, K or A and a suit S, H, D or C
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from .messages import say


def said(value: object) -> str:
    """A value as a message shows it to a player: never JSON, ``None`` or ``True``.

    >>> said("Zed"), said(None), said(True), said(3), said([1, 2]), said({"a": 1}), said(float("nan"))
    ('“Zed”', 'nothing', 'a yes-or-no answer', '3', 'a list', 'a set of fields', 'not a number')
    """
    if value is None:
        return say("nothing")
    if isinstance(value, bool):
        return say("a yes-or-no answer")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else say("not a number")
    if isinstance(value, str):
        text = " ".join(value.split())
        if not text:
            return say("a blank")
        return f"“{text[:40]}…”" if len(text) > 40 else f"“{text}”"
    if isinstance(value, (list, tuple)):
        return say("a list")
    if isinstance(value, dict):
        return say("a set of fields")
    return say("something else")


def typed(text: object) -> str:
    """A card, rank or suit as a player typed it, named in a message: the notation itself, no quotes.

    >>> typed(" zz "), typed(""), typed("K S X Q H D"), typed(7)
    ('ZZ', 'a blank', 'K S X Q…', '7')
    """
    if not isinstance(text, str):
        return said(text)
    text = " ".join(text.split()).upper()
    if not text:
        return say("a blank")
    return text[:7].rstrip() + "…" if len(text) > 8 else text

#: Ranks in battle order, low to high.
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
#: Suits in the order the rules list them.
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
#: Court cards: jacks, queens and kings.
FACES: frozenset[str] = frozenset({"J", "Q", "K"})
#: Indian Rummy's printed joker: rank "JK", no suit.
JOKER_RANK = "JK"

SUIT_SYMBOLS: dict[str, str] = {
    "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "♤": "S", "♡": "H", "♢": "D", "♧": "C",
}
#: Emoji presentation selectors that phones add after a suit symbol ("♥️").
_INVISIBLE = {"\ufe0e", "\ufe0f", "\u200b", "\u200d"}

RULE = say("use a rank 2-10, J, Q, K or A and a suit S, H, D or C")


class CardError(ValueError):
    """Text that is not a card; the message says so in a player's words."""


@dataclass(frozen=True, order=True)
class Card:
    """One card. ``str(card)`` is its canonical notation.

    >>> str(Card("10", "H")), str(Card(JOKER_RANK, ""))
    ('10H', 'JK')
    >>> Card("A", "S").is_face, Card("K", "S").is_face
    (False, True)
    """

    rank: str
    suit: str

    def __str__(self) -> str:
        return self.rank + self.suit

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def is_face(self) -> bool:
        """A jack, queen or king (a "face card" in the rules)."""
        return self.rank in FACES

    @property
    def strength(self) -> int:
        """Position in battle order, 0 for a 2 up to 12 for an Ace (the joker has none).

        >>> Card("2", "S").strength, Card("A", "S").strength
        (0, 12)
        """
        return RANKS.index(self.rank)


def _clean(text: str) -> str:
    return "".join(ch for ch in text if not ch.isspace() and ch not in _INVISIBLE)


def parse_suit(text: object) -> str:
    """A suit letter or symbol, canonical upper case.

    >>> parse_suit("h"), parse_suit(" ♣ "), parse_suit("♢")
    ('H', 'C', 'D')
    >>> parse_suit("X")
    Traceback (most recent call last):
    ...
    companion.core.cards.CardError: X is not a suit: use S, H, D or C
    """
    if not isinstance(text, str):
        raise CardError(say("give a suit as S, H, D or C, not {value}", value=said(text)))
    return _parse_suit_text(text)


@lru_cache(maxsize=256)
def _parse_suit_text(text: str) -> str:
    """parse_suit on text, remembered: every board of every round names its House."""
    cleaned = _clean(text)
    suit = SUIT_SYMBOLS.get(cleaned, cleaned.upper())
    if suit not in SUITS:
        raise CardError(say("{suit} is not a suit: use S, H, D or C", suit=typed(text)))
    return suit


def parse_card(text: object, *, allow_joker: bool = False) -> Card:
    """Read one card as a player types it.

    >>> parse_card("kS"), parse_card(" 10 ♥️ "), parse_card("a♧")
    (Card(rank='K', suit='S'), Card(rank='10', suit='H'), Card(rank='A', suit='C'))
    >>> parse_card("jk", allow_joker=True)
    Card(rank='JK', suit='')
    >>> parse_card("JK")
    Traceback (most recent call last):
    ...
    companion.core.cards.CardError: JK is not a card here: this game has no jokers
    >>> parse_card(12)
    Traceback (most recent call last):
    ...
    companion.core.cards.CardError: give a card as text such as KS or 10H, not 12
    """
    if not isinstance(text, str):
        raise CardError(say("give a card as text such as KS or 10H, not {value}", value=said(text)))
    return _parse_text(text, allow_joker)


@lru_cache(maxsize=4096)
def _parse_text(text: str, allow_joker: bool) -> Card:
    """parse_card on text, remembered: a game names the same few cards over and over."""
    cleaned = _clean(text)
    shown = text.strip()
    if cleaned.upper() == JOKER_RANK:
        if allow_joker:
            return Card(JOKER_RANK, "")
        raise CardError(say("{card} is not a card here: this game has no jokers", card=typed(shown)))
    if len(cleaned) < 2:
        raise CardError(say("{card} is not a card: {rule}", card=typed(shown), rule=RULE))
    rank, suit_text = cleaned[:-1].upper(), cleaned[-1]
    suit = SUIT_SYMBOLS.get(suit_text, suit_text.upper())
    if rank not in RANKS or suit not in SUITS:
        raise CardError(say("{card} is not a card: {rule}", card=typed(shown), rule=RULE))
    return Card(rank, suit)


@lru_cache(maxsize=4096)
def parse_card_text(text: str) -> Card:
    """parse_card for a game without jokers, remembered by the text alone (the cache's quickest
    key): for a reader that parses card after card. Text that is not hashable raises TypeError.

    >>> parse_card_text("kS")
    Card(rank='K', suit='S')
    >>> parse_card_text("JK")
    Traceback (most recent call last):
    ...
    companion.core.cards.CardError: JK is not a card here: this game has no jokers
    """
    if not isinstance(text, str):
        raise CardError(say("give a card as text such as KS or 10H, not {value}", value=said(text)))
    return _parse_text(text, False)


def format_card(card: Card) -> str:
    """The canonical notation of a card (the same as ``str(card)``).

    >>> format_card(Card("Q", "D"))
    'QD'
    """
    return str(card)


def format_cards(cards) -> str:
    """Cards as a space-separated line.

    >>> format_cards([Card("K", "S"), Card("10", "H")])
    'KS 10H'
    """
    return " ".join([c.rank + c.suit for c in cards])


__all__ = ["FACES", "JOKER_RANK", "RANKS", "SUITS", "Card", "CardError", "format_card", "format_cards",
           "parse_card", "parse_card_text", "parse_suit"]
