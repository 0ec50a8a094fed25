"""Royalty, the word game played with lettered cards, scored as RULINGS.md RY-1 to RY-16 say.

Each entry is one turn, in the order played (API.md): a meld, a capture with or
without a meld, a pass or a trade, perhaps with a challenge; a last entry says
how the game ended. Whether a word is in the dictionary is the word judge's
question (RY-17); this engine scores what the table accepted and refuses only
what cannot physically have happened. The box's examples, under the default
letter values (RY-2):

>>> [word_value(parse_word(w)) for w in ("Ar Lr Eb", "Pr Eb Ar Lr", "Pr Ab Rr Eb", "Mb Ar Cr Eb", "Pr Ab Rr Kb")]
[6, 12, 12, 16, 16]
>>> game = score(("Ann", "Ben"), {}, [
...     {"player": "Ann", "meld": "Cr Ar Pr Eb Rr"},
...     {"player": "Ben", "meld": "Cr Ar Lr Mr"},
...     {"player": "Ann", "meld": "Cb Ab Mb Pb"}])
>>> [r.points for r in game.rounds]
[{'Ann': 36, 'Ben': 0}, {'Ann': 0, 'Ben': 32}, {'Ann': 40, 'Ben': 0}]
>>> game.rounds[0].explain["Ann"][:2]
['Meld CAPER (red and black): 6 + 2 + 6 + 2 + 2 = 18 (RY-3, RY-4)', 'First play: CAPER 18 doubled = 36 (RY-6)']
>>> game.rounds[1].explain["Ben"][0]
'Meld CALM (all red): 6 + 2 + 2 + 6 = 16, royalty ×2 = 32 (RY-3, RY-5)'
>>> game.standing["table"][0], game.standing["domains"], game.standing["next"]
({'word': 'CALM', 'owner': 'Ben', 'cards': 'Cr Ar Lr Mr'}, {'Ann': 5, 'Ben': 0}, 'Ben')
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from ...core import limits
from ...core.cards import said
from ...core.messages import Signed, Text, from_data, joined, say, say_n
from ..base import (
    InputError,
    Problems,
    ScoredGame,
    Tallied,
    check_count,
    check_groups,
    check_note,
    not_at_table,
)
from .words import Many, WordList

SLUG = "royalty"
TITLE = "Royalty"
MIN_PLAYERS = 2
MAX_PLAYERS = 6
ROUND_NAME = "turn"
OPTIONS: dict[str, Any] = {
    "letter_values": {},
    "junior": False,
    "coalitions": None,
    "variant": "standard",
    "word_list": None,
}
VARIANTS = ("standard", "joust")
#: Options for the word judge only (RY-17): kept with the game when a table sets them.
HOUSE_WORD_OPTIONS = ("house_allow", "house_deny")

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: RY-2: the default letter values. A, E, L, R and C, K, M, P are fixed by the box examples.
DEFAULT_LETTER_VALUES: Mapping[str, int] = MappingProxyType({
    "A": 2, "B": 6, "C": 6, "D": 4, "E": 2, "F": 6, "G": 4, "H": 6, "I": 2, "J": 8, "K": 6, "L": 2, "M": 6,
    "N": 2, "O": 2, "P": 6, "Q": 10, "R": 2, "S": 2, "T": 2, "U": 2, "V": 6, "W": 6, "X": 8, "Y": 6, "Z": 10,
})
#: RY-2: the letters whose default value the box examples fix.
FIXED_BY_THE_BOX = frozenset("ACEKLMPR")
#: RY-2: the letters whose default value is the project's guess; a table types in its own.
PROVISIONAL = frozenset(LETTERS) - FIXED_BY_THE_BOX
#: RY-8: a hand holds seven cards.
HAND_SIZE = 7
#: RY-5: a meld royalty needs this many letters (junior: JUNIOR_ROYALTY_LENGTH).
ROYALTY_LENGTH = 4
JUNIOR_ROYALTY_LENGTH = 3
#: RY-6: the first play needs three letters; five one-coloured letters make it quadruple.
FIRST_PLAY_LENGTH = 3
FIRST_PLAY_QUADRUPLE_LENGTH = 5
#: RY-7: a capture is doubled when four or more one-coloured cards come from hand.
CAPTURE_DOUBLE_CARDS = 4
#: RY-12 and RY-15: the Domain bonuses.
DOMAIN_BONUS, DOMAIN_BONUS_TIED = 20, 10
JOUST_BONUS, JOUST_BONUS_TIED = 10, 5
#: RY-13: the word that doubles a final score.
ROYALTY = "ROYALTY"
#: RY-15, RY-16: a royalty of any colours has seven letters.
MIXED_ROYALTY_LENGTH = 7
#: RY-16: Monarchy deals a five by five square.
MONARCHY_DEAL = 25
#: The bad cards of one word or hand a message names; the others are counted.
BAD_CARDS_NAMED = 5
MAX_LETTER_VALUE = 100
MAX_WORD_LIST = 200

COLOURS = {"r": "red", "b": "black"}
CARD_RULE = ("write a letter A-Z and its colour r or b (e.g. Cr), or * and the letter a Knave "
             "stands for (e.g. *Eb) (RY-1)")
_TOKEN = re.compile(r"(\*)?([A-Za-z])?([RrBb])?")
# "judged" holds what the word judge said when the turn was entered (RY-17): logged, never scored.
TURN_FIELDS = {"player", "meld", "capture", "pass", "trade", "challenge", "note", "judged"}
END_FIELDS = {"went_out", "unplayed"}
CAPTURE_FIELDS = {"target", "owner", "cards"}
CHALLENGE_FIELDS = {"by", "upheld"}


class WordError(ValueError):
    """Text that is not a Royalty card or word; the message (a :class:`Text`) names the bad token."""

    @property
    def text(self) -> str:
        return self.args[0]


# ---------------------------------------------------------------------------------------
# RY-1 to RY-4: cards, words, values, colours


@dataclass(frozen=True)
class RoyaltyCard:
    """One card (RY-1): a letter in red (``r``) or black (``b``), or the Knave.

    A Knave carries the letter it stands for in the word it is in (and may carry
    a colour, which never counts: RY-4). A Knave still in a hand or a deal may
    stand for nothing yet: its letter is then empty.

    >>> str(RoyaltyCard("C", "r")), str(RoyaltyCard("E", "b", knave=True)), str(RoyaltyCard("", None, knave=True))
    ('Cr', '*Eb', '*')
    """

    letter: str
    colour: str | None
    knave: bool = False

    def __str__(self) -> str:
        return ("*" if self.knave else "") + self.letter + (self.colour or "")

    @property
    def key(self) -> tuple[str, str]:
        """What identifies the physical card: letter and colour, or just "a Knave" (RY-1, RY-7).

        >>> RoyaltyCard("E", "b", knave=True).key == RoyaltyCard("S", None, knave=True).key
        True
        """
        return ("*", "") if self.knave else (self.letter, self.colour or "")


@dataclass(frozen=True)
class Word:
    """A word as laid on the table: its cards in order. ``str(word)`` is the canonical notation.

    >>> w = parse_word("cr AR lr mR")
    >>> str(w), w.text, len(w)
    ('Cr Ar Lr Mr', 'CALM', 4)
    """

    cards: tuple[RoyaltyCard, ...]

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def text(self) -> str:
        return "".join(c.letter for c in self.cards)

    @property
    def knaves(self) -> int:
        return sum(c.knave for c in self.cards)


def parse_card(token: object, *, bare_knave: bool = False) -> RoyaltyCard:
    """One card token, case-insensitive (API.md). ``bare_knave`` allows ``*`` alone (a Knave in a hand).

    >>> parse_card("cr"), str(parse_card("*eB")), str(parse_card("*s"))
    (RoyaltyCard(letter='C', colour='r', knave=False), '*Eb', '*S')
    >>> parse_card("Cg")
    Traceback (most recent call last):
    ...
    companion.games.royalty.WordError: Cg is not a Royalty card: write a letter A-Z and its colour r or b \
(e.g. Cr), or * and the letter a Knave stands for (e.g. *Eb) (RY-1)
    """
    if not isinstance(token, str):
        raise WordError(_not_a_card(token))
    m = _TOKEN.fullmatch(token.strip())
    if m is None or not token.strip():
        raise WordError(_not_a_card(token))
    star, letter, colour = m.groups()
    if star:
        if letter is None and not bare_knave:
            raise WordError(say("{card}: a Knave in a word must say which letter it stands for, e.g. *E (RY-1)",
                                card=_typed(token)))
        return RoyaltyCard((letter or "").upper(), colour.lower() if colour else None, knave=True)
    if letter is None or colour is None:
        raise WordError(_not_a_card(token))
    return RoyaltyCard(letter.upper(), colour.lower())


def _not_a_card(token: object) -> Text:
    """RY-1: what a card is, for a token that is none (CARD_RULE)."""
    return say("{card} is not a Royalty card: write a letter A-Z and its colour r or b (e.g. Cr), or * and the "
               "letter a Knave stands for (e.g. *Eb) (RY-1)", card=_typed(token))


def _typed(token: object) -> str:
    """A Royalty card as typed, named in a message (its colour letter kept in lower case, as written)."""
    return " ".join(token.split())[:8] or say("a blank") if isinstance(token, str) else said(token)


def _parse_cards(text: object, *, bare_knave: bool, what: str) -> tuple[RoyaltyCard, ...]:
    if isinstance(text, list) and all(isinstance(t, str) for t in text):
        text = " ".join(text)
    if not isinstance(text, str):
        raise WordError(say('give the word as card tokens separated by spaces, e.g. "Cr Ar Lr Mr"') if what == "word"
                        else say('give the cards as card tokens separated by spaces, e.g. "Cr Ar Lr Mr"'))
    cards, bad = [], []
    for token in text.split():
        try:
            cards.append(parse_card(token, bare_knave=bare_knave))
        except WordError as err:
            bad.append(err.text)
    if bad:  # the first few named; a pasted page of text is not answered with a page of messages
        extra = len(bad) - BAD_CARDS_NAMED
        named = bad[:BAD_CARDS_NAMED]
        if extra > 0:
            named.append(say_n("and {more} more that are not Royalty cards",
                               "and {more} more that are not Royalty cards", extra, more=Many(extra)))
        raise WordError(named[0] if len(named) == 1 else joined(named, "; "))
    return tuple(cards)


def parse_word(text: object) -> Word:
    """A word written as space-separated card tokens (API.md); case-insensitive, spaces free.

    >>> str(parse_word("  zr er  br rr ar ")), parse_word("Cr *ab Lr Mr").text
    ('Zr Er Br Rr Ar', 'CALM')
    >>> parse_word("Cr Ar 7r Mr")
    Traceback (most recent call last):
    ...
    companion.games.royalty.WordError: 7r is not a Royalty card: write a letter A-Z and its colour r or b \
(e.g. Cr), or * and the letter a Knave stands for (e.g. *Eb) (RY-1)
    >>> parse_word("")
    Traceback (most recent call last):
    ...
    companion.games.royalty.WordError: a word needs at least one card, e.g. "Cr Ar Lr Mr"
    """
    cards = _parse_cards(text, bare_knave=False, what="word")
    if not cards:
        raise WordError(say('a word needs at least one card, e.g. "Cr Ar Lr Mr"'))
    return Word(cards)


def format_word(word: Word) -> str:
    """The canonical notation of a word (the inverse of :func:`parse_word`).

    >>> format_word(parse_word("*lB eb")) == "*Lb Eb"
    True
    """
    return str(word)


def parse_hand(text: object) -> tuple[RoyaltyCard, ...]:
    """Cards held in a hand (RY-11) or dealt (RY-16): a Knave may be a bare ``*``; empty is allowed.

    >>> [str(c) for c in parse_hand("xr * qB")], parse_hand("")
    (['Xr', '*', 'Qb'], ())
    """
    return _parse_cards(text, bare_knave=True, what="cards")


def letter_values(overrides: Mapping[str, int] | None = None) -> dict[str, int]:
    """RY-2: the default table with a table's own values laid over it (keys already checked).

    >>> letter_values({"b": 3})["B"], letter_values()["Q"]
    (3, 10)
    """
    values = dict(DEFAULT_LETTER_VALUES)
    for letter, value in (overrides or {}).items():
        values[letter.upper()] = value
    return values


def letter_table(overrides: Mapping[str, int] | None = None) -> list[dict[str, Any]]:
    """RY-2 for the entry screen: every letter, its value, and whether it is provisional or the table's own.

    >>> letter_table({"B": 3})[:3]  # doctest: +NORMALIZE_WHITESPACE
    [{'letter': 'A', 'value': 2, 'provisional': False, 'overridden': False},
     {'letter': 'B', 'value': 3, 'provisional': True, 'overridden': True},
     {'letter': 'C', 'value': 6, 'provisional': False, 'overridden': False}]
    """
    given = {k.upper() for k in (overrides or {})}
    values = letter_values(overrides)
    return [{"letter": x, "value": values[x], "provisional": x in PROVISIONAL, "overridden": x in given}
            for x in LETTERS]


def card_value(card: RoyaltyCard, values: Mapping[str, int] = DEFAULT_LETTER_VALUES) -> int:
    """RY-1, RY-3: a letter's value; the Knave is worth 0 whatever it stands for.

    >>> card_value(parse_card("Qb")), card_value(parse_card("*Qb"))
    (10, 0)
    """
    return 0 if card.knave else values[card.letter]


def word_value(word: Word, values: Mapping[str, int] = DEFAULT_LETTER_VALUES) -> int:
    """RY-3: the sum of the word's letter values, a Knave counting 0.

    >>> word_value(parse_word("Cr Ar Mb Pb")), word_value(parse_word("Cr *Ab Mb Pb"))
    (20, 18)
    """
    return sum(card_value(c, values) for c in word.cards)


def one_coloured(cards: Word | Sequence[RoyaltyCard]) -> bool:
    """RY-4: all non-Knave cards share a colour. With no card but Knaves, there is no second colour: True.

    >>> one_coloured(parse_word("Cr Ar Lr Mr")), one_coloured(parse_word("Cr *Ab Lr Mr")), one_coloured(
    ...     parse_word("Cr Ab"))
    (True, True, False)
    """
    cards = cards.cards if isinstance(cards, Word) else cards
    return len({c.colour for c in cards if not c.knave}) <= 1


def colour_words(cards: Word | Sequence[RoyaltyCard]) -> str:
    """The colours of some cards, as an explanation says them.

    >>> colour_words(parse_word("Cr *Ab Lr")), colour_words(parse_word("Cb Ar")), colour_words(parse_word("*E"))
    ('all red, Knave as A', 'red and black', 'all Knaves, Knave as E')
    """
    cards = cards.cards if isinstance(cards, Word) else tuple(cards)
    found = {c.colour for c in cards if not c.knave}
    if not found:
        text = say("all Knaves")
    elif len(found) == 1:
        text = say("all red") if found.pop() == "r" else say("all black")
    else:
        text = say("red and black")
    knaves = [c.letter for c in cards if c.knave and c.letter]
    if knaves:
        text = say_n("{colours}, Knave as {letters}", "{colours}, Knaves as {letters}", len(knaves), colours=text,
                     letters=", ".join(knaves))
    return text


def is_royalty(word: Word) -> bool:
    """RY-15, RY-16: four or more letters in one colour, or seven letters of any colours.

    Read literally, "seven letters of any colours" is exactly seven: an eight-letter word of
    two colours is no royalty (RY-16).

    >>> is_royalty(parse_word("Cr Ar Lr Mr")), is_royalty(parse_word("Cr Ab Lr Mr"))
    (True, False)
    >>> is_royalty(parse_word("Rr Ob Yr Ab Lr Tb Yr"))
    True
    """
    return (len(word) >= ROYALTY_LENGTH and one_coloured(word)) or len(word) == MIXED_ROYALTY_LENGTH


def _sum_text(cards: Sequence[RoyaltyCard], values: Mapping[str, int]) -> str:
    """The value of some cards, added up where there are several.

    >>> _sum_text(parse_word("Cr *Ab Lr").cards, DEFAULT_LETTER_VALUES), _sum_text([parse_card("Qb")], {"Q": 10})
    ('6 + 0 + 2 = 8', '10')
    """
    parts = [card_value(c, values) for c in cards]
    if len(parts) == 1:
        return str(parts[0])
    return " + ".join(map(str, parts)) + f" = {sum(parts)}"


def _cards_text(cards: Sequence[RoyaltyCard]) -> str:
    return " ".join(map(str, cards)) if cards else say("none")


def _cards(n: int) -> Text:
    """So many cards: "1 card", "5 cards"."""
    return say_n("{count} card", "{count} cards", n)


def _letters(n: int) -> Text:
    return say_n("{count} letter", "{count} letters", n)


# ---------------------------------------------------------------------------------------
# RY-16: the Monarchy checker


def monarchy(dealt: object, words: object, wordlist: WordList | None = None) -> dict[str, Any]:
    """RY-16: are the words made from a Monarchy deal all royalties from the dealt cards, and is it solved?

    ``dealt`` is the 25 dealt cards (a Knave may be a bare ``*``), ``words`` a list of words in
    card notation. Bad cards raise :class:`InputError`; a word that is no royalty, that is not a
    word of ``wordlist`` (the table's list with its house words; the default list when None), or
    that uses a card not dealt (or used already), makes the answer not valid.

    >>> deal = "Cr Ar Lr Mr Zb Eb Bb Rb Ab Mr Ar Cr Er Db Ob Ob Rb Sr Tr Ar Rr Er * Qb Xb"
    >>> answer = monarchy(deal, ["Cr Ar Lr Mr", "Zb Eb Bb Rb Ab", "Dr Ar Rr Er"])
    >>> answer["valid"], answer["solved"], answer["unused"][:3]
    (False, False, ['Cr', 'Ar', 'Mr'])
    >>> answer["explain"][3]
    'DARE (all red, 4 letters) is a royalty, but Dr is not among the dealt cards left (RY-16)'
    >>> answer = monarchy(deal, ["Qb Xb Zb Bb"])
    >>> answer["valid"], answer["words"][0]["in_word_list"]
    (False, False)
    >>> answer["explain"][1]
    'QXZB (all black, 4 letters) is a royalty, but QXZB is not in the default word list, SCOWL size 70 (RY-16, RY-17)'
    """
    found = Problems()
    deal = _read_deal(dealt, found)
    made = _read_words_made(words, found)
    found.raise_if_any()

    if wordlist is None:
        wordlist = WordList.load_default()
    # Each word takes its cards from those dealt and not used yet: a card serves one word only.
    left = Counter(c.key for c in deal)
    explain = [say("Dealt {cards}: {dealt} (RY-16)", cards=_cards(len(deal)), dealt=_cards_text(deal))]
    checked = []
    valid = True
    for word in made:
        check = _check_word_made(word, left, wordlist, explain)
        valid = valid and check["valid"]
        checked.append(check)
    unused = _cards_left(deal, left)
    solved = valid and not unused
    explain.append(say("Unused: {unused} ({cards}) (RY-16)", unused=_cards_text(unused), cards=_cards(len(unused))))
    explain.append(_monarchy_verdict(valid, solved, unused))
    return {"valid": valid, "solved": solved, "words": checked, "unused": [str(c) for c in unused],
            "unused_count": len(unused), "explain": explain}


def _read_deal(dealt: object, found: Problems) -> tuple[RoyaltyCard, ...]:
    """RY-16: the dealt cards, which should be 25; nothing dealt when they cannot be read."""
    try:
        deal = parse_hand(dealt)
    except WordError as err:
        found.add("dealt", err.text)
        return ()
    if not deal:
        found.add("dealt", say("Monarchy deals {deal} cards; none were given (RY-16)", deal=MONARCHY_DEAL))
    elif len(deal) != MONARCHY_DEAL:
        found.add("dealt", say_n("Monarchy deals {deal} cards; {given} was given (RY-16)",
                                 "Monarchy deals {deal} cards; {given} were given (RY-16)", len(deal),
                                 deal=MONARCHY_DEAL, given=len(deal)))
    return deal


def _read_words_made(words: object, found: Problems) -> list[Word]:
    """RY-16: the words made from the deal, each read as its cards; a word that cannot be read is left out."""
    made: list[Word] = []
    if not isinstance(words, list):
        found.add("words", say("give the words made one by one, each as its cards, such as Cr Ar Lr Mr (RY-16)"))
        return made
    for i, text in enumerate(words):
        try:
            made.append(parse_word(text))
        except WordError as err:
            found.add(f"words[{i}]", err.text)
    return made


def _take_from_deal(word: Word, left: Counter) -> list[str]:
    """RY-16: takes the word's cards out of those left; the cards it needs that are not left, as named."""
    missing = []
    for card in word.cards:
        if left[card.key] > 0:
            left[card.key] -= 1
        else:
            missing.append(str(card) if not card.knave else say("a Knave"))
    return missing


def _check_word_made(word: Word, left: Counter, wordlist: WordList, explain: list[str]) -> dict[str, Any]:
    """RY-16: one word made from the deal is a royalty, a word of the list (RY-17) and made of cards left."""
    royal = is_royalty(word)
    missing = _take_from_deal(word, left)
    verdict = wordlist.judge(word.text)  # RY-16: a royalty must be a word (RY-17)
    listed = verdict.valid
    faults = []
    if not listed:
        faults.append(wordlist.fault(word.text))
    if missing:
        faults.append(say_n("{cards} is not among the dealt cards left", "{cards} are not among the dealt cards left",
                            len(missing), cards=_and(missing)))
    fault = _and(faults) if faults else None
    values = {"word": word.text, "colours": colour_words(word), "letters": _letters(len(word))}
    if royal and not faults:
        line = say("{word} ({colours}, {letters}) is a royalty (RY-16)", **values)
    elif royal:
        line = (say("{word} ({colours}, {letters}) is a royalty, but {fault} (RY-16)", fault=fault, **values)
                if listed else
                say("{word} ({colours}, {letters}) is a royalty, but {fault} (RY-16, RY-17)", fault=fault, **values))
    elif not faults:
        line = say("{word} ({colours}, {letters}) is not a royalty: it needs 4 or more letters in one colour, or 7 "
                   "letters (RY-16)", **values)
    elif listed:
        line = say("{word} ({colours}, {letters}) is not a royalty: it needs 4 or more letters in one colour, or 7 "
                   "letters, and {fault} (RY-16)", fault=fault, **values)
    else:
        line = say("{word} ({colours}, {letters}) is not a royalty: it needs 4 or more letters in one colour, or 7 "
                   "letters, and {fault} (RY-16, RY-17)", fault=fault, **values)
    explain.append(line)
    ok = royal and listed and not missing
    return {"word": word.text, "cards": str(word), "royalty": royal, "in_word_list": listed,
            "uses_dealt_cards": not missing, "valid": ok}


def _and(items: Sequence[str]) -> str:
    """Items said one "and" after another, as the explanations have always said them: "Ar and Br and Cr"."""
    if len(items) == 1:
        return items[0]
    return say("{first} and {second}", first=items[0], second=_and(items[1:]))


def _cards_left(deal: Sequence[RoyaltyCard], left: Counter) -> list[RoyaltyCard]:
    """RY-16: the dealt cards no word used, in the order dealt."""
    unused = []
    for card in deal:
        if left[card.key] > 0:
            left[card.key] -= 1
            unused.append(card)
    return unused


def _monarchy_verdict(valid: bool, solved: bool, unused: Sequence[RoyaltyCard]) -> str:
    """RY-16: solved, not valid, or not solved yet, in one line."""
    if solved:
        return say("Solved: every dealt card is in a royalty (RY-16)")
    if not valid:
        return say("Not valid: every word must be a royalty, a word of the list, made from the dealt cards, "
                   "each used once (RY-16)")
    return say_n("Not solved yet: {count} card left (RY-16)", "Not solved yet: {count} cards left (RY-16)",
                 len(unused))


# ---------------------------------------------------------------------------------------
# Reading the options and the turns


@dataclass(frozen=True)
class Coalitions:
    """RY-14: the partnerships, each listed in seat order, named A, B, C in the order given."""

    sides: Mapping[str, tuple[str, ...]]

    def side_of(self, name: str) -> str:
        return next(side for side, members in self.sides.items() if name in members)

    def named(self, side: str) -> Text:
        return say("coalition {side} ({members})", side=side, members=_and(self.sides[side]))


@dataclass(frozen=True)
class Capture:
    target: str
    owner: str | None
    word: Word | None  # None when the new word's cards could not be read (the target is still checked)


@dataclass(frozen=True)
class Challenge:
    by: str
    upheld: bool


@dataclass(frozen=True)
class Turn:
    player: str
    action: str  # "play", "pass" or "trade"
    meld: Word | None = None
    capture: Capture | None = None
    challenge: Challenge | None = None
    #: Something in the turn could not be read: what could be read is still checked against the
    #: table (every problem at once), but the turn is not scored.
    broken: bool = False


@dataclass(frozen=True)
class End:
    went_out: str | None
    unplayed: Mapping[str, tuple[RoyaltyCard, ...]]


def _check_options(players: Sequence[str], options: Mapping[str, Any], found: Problems) -> dict[str, Any]:
    opts = {key: value for key, value in OPTIONS.items()}
    overrides: dict[str, int] = {}
    for key, value in options.items():
        where = f"options.{key}"
        if key not in OPTIONS and key not in HOUSE_WORD_OPTIONS:
            found.add(where, say("{game} has no option called {key}; its options are the letter values, junior "
                                 "royalties, the variant, coalitions, the word list and house words", game=TITLE,
                                 key=key))
        elif key == "letter_values":
            overrides = _letter_value_overrides(value, where, found)
        elif key == "junior":
            if not isinstance(value, bool):
                found.add(where, say("say yes or no to junior royalties, three letters of one colour (RY-5)"))
            else:
                opts["junior"] = value
        elif key == "variant":
            if value not in VARIANTS:
                found.add(where, say("{value} is not a way to play Royalty: choose the standard game or Joust (RY-15)",
                                     value=value))
            else:
                opts["variant"] = value
        elif key == "coalitions":
            opts["coalitions"] = _check_coalitions(players, value, found)
        elif key in HOUSE_WORD_OPTIONS:
            # House words for the judge (RY-17): kept with the game when given, never scored.
            words = _word_list(value, where, found, house=True)
            if words is not None:
                opts[key] = sorted(set(words))
        elif key == "word_list":
            _check_word_list_choice(value, where, found, opts)
    opts["letter_values"] = letter_values(overrides)
    _check_options_agree(players, opts, found)
    return opts


def _letter_value_overrides(value: object, where: str, found: Problems) -> dict[str, int]:
    """RY-2: the table's own letter values, letter by letter, in capitals; the ones that cannot be read left out."""
    overrides: dict[str, int] = {}
    if value is None:
        return overrides
    if not isinstance(value, Mapping):
        found.add(where, say("give the letter values letter by letter, such as B worth 3 and Q worth 10 (RY-2)"))
        return overrides
    for letter, number in value.items():
        at = f"{where}.{letter}"
        if not isinstance(letter, str) or letter.upper() not in LETTERS or len(letter) != 1:
            found.add(at, say("{letter} is not a letter A to Z (RY-2)", letter=letter))
            continue
        checked = check_count(found, at, number, MAX_LETTER_VALUE,
                              lambda: say("a letter value may be at most {most} (RY-2)", most=MAX_LETTER_VALUE),
                              what=say("the value of {letter}", letter=letter.upper()))
        if checked is not None:
            overrides[letter.upper()] = checked
    return overrides


def _check_word_list_choice(value: object, where: str, found: Problems, opts: dict[str, Any]) -> None:
    """RY-17: the table's word list, by name or as its words, kept in ``opts`` when it can be used."""
    # RY-17 belongs to the word judge: the engine keeps the choice and never reads the list.
    if value is not None and not isinstance(value, str) and not (
            isinstance(value, list) and all(isinstance(w, str) for w in value)):
        found.add(where, say("the table's word list must be a list of words, or the name of one (RY-17)"))
    elif isinstance(value, str) and len(value) > MAX_WORD_LIST:
        found.add(where, say("a word list's name may have at most {most} characters", most=MAX_WORD_LIST))
    elif isinstance(value, str) and limits.has_control(value):
        found.add(where, say("a word list's name cannot hold control characters"))
    elif isinstance(value, list):
        if _word_list(value, where, found, house=False) is not None:
            opts["word_list"] = value
    else:
        opts["word_list"] = value


def _check_options_agree(players: Sequence[str], opts: Mapping[str, Any], found: Problems) -> None:
    """Options each fine alone that cannot go together: a word both allowed and refused (RY-17), and a
    Joust with other than two players or with coalitions (RY-14, RY-15)."""
    both = set(opts.get("house_allow") or ()) & set(opts.get("house_deny") or ())
    if both:
        found.add("options.house_deny", say("{words} cannot be both allowed and refused by the house; keep each word "
                                            "in one list only (RY-17)", words=", ".join(sorted(both)[:5])))
    if opts["variant"] == "joust":
        if len(players) != 2:
            found.add("options.variant", say_n("Joust is for exactly two players; {count} is seated (RY-15)",
                                               "Joust is for exactly two players; {count} are seated (RY-15)",
                                               len(players)))
        if opts["coalitions"] is not None:
            found.add("options.coalitions", say("Joust is for two players, each alone: no coalitions (RY-14, RY-15)"))


_LETTERS_ONLY = re.compile(r"[A-Za-z]+")


def _word_list(value: object, where: str, found: Problems, house: bool) -> list[str] | None:
    """Words of letters A-Z, in capitals, no more of them nor longer than the limits allow (RY-17): the
    house words (``house``) or a table's own list."""
    most, longest = limits.get("MAX_WORDS"), limits.get("MAX_WORD_CHARS")
    if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
        found.add(where, say("house words must be given as a list of words") if house
                  else say("a word list must be given as a list of words"))
        return None
    bad = [w for w in value if not _LETTERS_ONLY.fullmatch(w)]
    if bad:
        shown = ", ".join(bad[:3])[:100]
        found.add(where, say("house words may hold only the letters A to Z; {words} cannot be judged", words=shown)
                  if house else
                  say("a word list may hold only the letters A to Z; {words} cannot be judged", words=shown))
        return None
    if len(value) > most:
        found.add(where, say("a list may have at most {most} words; this one has {count}", most=Many(most),
                             count=Many(len(value))))
        return None
    if any(len(w) > longest for w in value):
        found.add(where, say("a word may have at most {most} letters", most=longest))
        return None
    return [w.upper() for w in value]


def _check_coalitions(players: Sequence[str], value: object, found: Problems) -> list[list[str]] | None:
    where = "options.coalitions"
    if value is None:
        return None
    if not isinstance(value, list) or len(value) < 2 or not all(isinstance(c, list) and c for c in value):
        found.add(where, say("give two or more coalitions, each a group of players, such as Ann with Cat and Ben "
                             "with Dan (RY-14)"))
        return None
    grouped = check_groups(value, players, where, found, _InTwo())
    ok = grouped is not None
    seen = {name for group in grouped or [] for name in group}
    missing = [p for p in players if p not in seen]
    if ok and missing:
        found.add(where, say_n("{names} is in no coalition; with coalitions every player is in one (RY-14)",
                               "{names} are in no coalition; with coalitions every player is in one (RY-14)",
                               len(missing), names=", ".join(missing)))
        ok = False
    if not ok:
        return None
    return [[p for p in players if p in {m.strip() for m in members}] for members in value]


class _InTwo:
    """RY-14: the words for a player named in two coalitions (check_groups fills in the name)."""

    def format(self, name: str) -> Text:
        return say("{name} is in two coalitions; each player is in exactly one (RY-14)", name=name)


def coalitions_of(players: Sequence[str], coalitions: list[list[str]] | None) -> Coalitions | None:
    """RY-14: the sides A, B, C ... in the order the coalitions were given, members in seat order.

    >>> coalitions_of(("Ann", "Ben", "Cat", "Dan"), [["Dan", "Ben"], ["Cat", "Ann"]]).sides
    {'A': ('Ben', 'Dan'), 'B': ('Ann', 'Cat')}
    """
    if coalitions is None:
        return None
    return Coalitions({LETTERS[i]: tuple(p for p in players if p in members) for i, members in enumerate(coalitions)})


def _player(value: object, where: str, players: Sequence[str], found: Problems, missing: str | None = None
            ) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        found.add(where, missing or say("choose the player"))
        return None
    if not isinstance(value, str) or value.strip() not in players:
        not_at_table(found, where, value, players)
        return None
    return value.strip()


def _word_at(value: object, where: str, found: Problems) -> Word | None:
    try:
        return parse_word(value)
    except WordError as err:
        found.add(where, err.text)
        return None


def _judged_shape() -> Text:
    return say("the word judge's log is a list of verdicts, each a word, whether it was accepted and why (RY-17)")


def _check_judged(value: object, where: str, found: Problems) -> None:
    """What the word judge said when the turn was saved (RY-17): logged and shown, never scored,
    so it is checked to be the shape the pages show.

    >>> found = Problems()
    >>> _check_judged(5, "t.judged", found); _check_judged([{"word": "OX", "valid": True, "why": ["x"]}], "u", found)
    >>> [p.where for p in found]
    ['t.judged', 'u[0].why']
    """
    if not isinstance(value, list) or len(value) > 4:
        found.add(where, _judged_shape())
        return
    for i, verdict in enumerate(value):
        at = f"{where}[{i}]"
        if not isinstance(verdict, Mapping) or set(verdict) - {"word", "valid", "why", "warnings", "said"}:
            found.add(at, _judged_shape())
            continue
        word = verdict.get("word")
        if not isinstance(word, str) or len(word) > limits.get("MAX_WORD_CHARS") or limits.has_control(word):
            found.add(f"{at}.word", say("the judged word must be a word of letters"))
        if not isinstance(verdict.get("valid"), bool):
            found.add(f"{at}.valid", say("valid must be true or false"))
        wrong = limits.note_problem(verdict.get("why", ""), say("the judge's reason"))
        if wrong:
            found.add(f"{at}.why", wrong)
        warnings = verdict.get("warnings", [])
        if not isinstance(warnings, list) or len(warnings) > 8 or any(
                limits.note_problem(w) for w in warnings):
            found.add(f"{at}.warnings", say("warnings must be a list of short lines of text"))
        if "said" in verdict and _said_messages(verdict) is None:
            found.add(f"{at}.said", say("said must hold the why and warnings as Courtier's messages (RY-17)"))


def said_verdict(verdict: Mapping[str, Any]) -> tuple[str, list[str]]:
    """The judge's why and warnings to show: as messages, said in the reader's language, when the verdict
    keeps them as data (``said``: ``why`` and ``warnings``, as :meth:`Text.as_data` gives them); else its
    words as they were logged.

    >>> why = say("{word} is in {list} (RY-17)", word="OX", list=say("the table's word list"))
    >>> said_verdict({"word": "OX", "valid": True, "why": str(why), "said": {"why": why.as_data(), "warnings": []}})
    ("OX is in the table's word list (RY-17)", [])
    >>> said_verdict({"why": "as logged", "said": {"why": {"id": "anything", "values": {}}, "warnings": []}})
    ('as logged', [])
    """
    return _said_messages(verdict) or (str(verdict.get("why") or ""), [str(w) for w in verdict.get("warnings") or []])


def _said_messages(verdict: Mapping[str, Any]) -> tuple[Text, list[Text]] | None:
    """A verdict's ``said`` as messages, or None when it has none or they are not Courtier's messages."""
    said = verdict.get("said")
    if not isinstance(said, Mapping) or set(said) != {"why", "warnings"} or not isinstance(said["warnings"], list) \
            or len(said["warnings"]) > 8:
        return None
    try:
        return from_data(said["why"]), [from_data(w) for w in said["warnings"]]
    except ValueError:
        return None
    try:
        return from_data(said["why"]), [from_data(w) for w in said["warnings"]]
    except ValueError:
        return None


def _parse_entry(raw: object, at: str, players: Sequence[str], joust: bool, found: Problems) -> Turn | End | None:
    if not isinstance(raw, Mapping):
        found.add(at, say("a turn says whose it was and what they did, such as Ann melding Cr Ar Lr Mr"))
        return None
    check_note(found, at, raw)
    if raw.get("judged") is not None:
        _check_judged(raw["judged"], f"{at}.judged", found)
    if "end" in raw:
        return _parse_end(raw, at, players, joust, found)
    before = len(list(found))
    for key in raw:
        if key not in TURN_FIELDS:
            found.add(f"{at}.{key}", say("a turn has no {key}: it says whose turn it was and whether they melded, "
                                         "captured, passed or traded, and any challenge (or that the game ended)",
                                         key=key))
    player = _player(raw.get("player"), f"{at}.player", players, found, say("choose whose turn it was"))
    for flag in ("pass", "trade"):
        if flag in raw and raw[flag] is not True:
            found.add(f"{at}.{flag}", say("leave the pass out, or say yes to it") if flag == "pass"
                      else say("leave the trade out, or say yes to it"))
    passing, trading = raw.get("pass") is True, raw.get("trade") is True
    has_meld, has_capture = raw.get("meld") is not None, raw.get("capture") is not None
    if passing + trading + (has_meld or has_capture) != 1:
        found.add(at, say("a turn does one thing: a meld, a capture (with or without a meld), a pass or a trade"))
        return None
    if joust and (trading or has_capture):
        found.add(f"{at}.{'trade' if trading else 'capture'}",
                  say("in Joust a turn forms one word from the exposed cards or passes (RY-15)"))
        return None
    meld = _word_at(raw["meld"], f"{at}.meld", found) if has_meld else None
    capture = _parse_capture(raw["capture"], f"{at}.capture", players, found) if has_capture else None
    challenge = None
    if raw.get("challenge") is not None:
        challenge = _parse_challenge(raw["challenge"], f"{at}.challenge", players, found)
        if not (has_meld or has_capture):
            found.add(f"{at}.challenge", say("only a word can be challenged, and this turn played none (RY-10)"))
        elif challenge is not None and challenge.by == player:
            found.add(f"{at}.challenge.by", say("{player} cannot challenge their own word (RY-10)", player=player))
    action = "pass" if passing else "trade" if trading else "play"
    broken = len(list(found)) > before or player is None or (has_meld and meld is None) or (
        has_capture and (capture is None or capture.word is None))
    return Turn(player, action, meld, capture, challenge, broken)


def _parse_capture(raw: object, at: str, players: Sequence[str], found: Problems) -> Capture | None:
    if not isinstance(raw, Mapping):
        found.add(at, say("a capture names the word taken (and whose it was) and the new word's cards, such as CALM "
                          "taken as Cr Lr Ar Ib Mr (RY-7)"))
        return None
    for key in raw:
        if key not in CAPTURE_FIELDS:
            found.add(f"{at}.{key}", say("a capture has no {key}: it names the word taken, whose it was and the new "
                                         "word's cards (RY-7)", key=key))
    target = raw.get("target")
    if target is None or (isinstance(target, str) and not target.strip()):
        found.add(f"{at}.target", say("choose the word captured, one of the words on the table (RY-7)"))
        target = None
    elif not isinstance(target, str) or not target.strip().isalpha() or not target.strip().isascii():
        found.add(f"{at}.target", say("name the word captured by its letters, such as CALM, not {target} (RY-7)",
                                      target=target))
        target = None
    owner = raw.get("owner")
    if owner is not None:
        owner = _player(owner, f"{at}.owner", players, found)
    word = _word_at(raw.get("cards"), f"{at}.cards", found)
    if target is None:
        return None
    return Capture(target.strip().upper(), owner, word)


def _parse_challenge(raw: object, at: str, players: Sequence[str], found: Problems) -> Challenge | None:
    if not isinstance(raw, Mapping):
        found.add(at, say("a challenge names the challenger and whether it was upheld (RY-10)"))
        return None
    for key in raw:
        if key not in CHALLENGE_FIELDS:
            found.add(f"{at}.{key}", say("a challenge has no {key}: it names the challenger and whether it was "
                                         "upheld (RY-10)", key=key))
    by = _player(raw.get("by"), f"{at}.by", players, found, say("choose who challenged (RY-10)"))
    upheld = raw.get("upheld")
    if not isinstance(upheld, bool):
        found.add(f"{at}.upheld", say("say whether the challenge was upheld (the turn is void) or not (the "
                                      "challenger passes next) (RY-10)"))
        return None
    return Challenge(by, upheld) if by is not None else None


def _parse_end(raw: Mapping[str, Any], at: str, players: Sequence[str], joust: bool, found: Problems) -> End | None:
    for key in raw:
        if key not in ("end", "note"):
            found.add(f"{at}.{key}", _no_such_end(key))
    end = raw["end"]
    if end is None:
        end = {}
    if not isinstance(end, Mapping):
        found.add(f"{at}.end", say("the end of the game says who went out and the cards left in each hand, such as "
                                   "Ben holding Xr Qb (RY-11)"))
        return None
    for key in end:
        if key not in END_FIELDS:
            found.add(f"{at}.end.{key}", _no_such_end(key))
    # RY-11: went_out null means every player passed; a missing went_out reads the same (TOML has no null).
    went_out = end.get("went_out")
    if went_out is not None:
        went_out = _player(went_out, f"{at}.end.went_out", players, found)
        if joust and went_out is not None:
            found.add(f"{at}.end.went_out", say("nobody goes out in Joust: it ends when both players pass (RY-15)"))
    unplayed: dict[str, tuple[RoyaltyCard, ...]] = {}
    raw_unplayed = end.get("unplayed")
    if raw_unplayed is None:
        raw_unplayed = {}
    elif not isinstance(raw_unplayed, Mapping):
        found.add(f"{at}.end.unplayed", say("give the cards left in each player's hand under their name, such as "
                                            "Ben holding Xr Qb (RY-11)"))
        raw_unplayed = {}
    for name, text in raw_unplayed.items():
        where = f"{at}.end.unplayed.{name}"
        if name not in players:
            not_at_table(found, where, name, players)
            continue
        try:
            cards = parse_hand(text if text is not None else "")
        except WordError as err:
            found.add(where, err.text)
            continue
        if len(cards) > HAND_SIZE:
            found.add(where, say("a hand holds at most {most} cards; {count} were entered (RY-11)", most=HAND_SIZE,
                                 count=len(cards)))
        elif cards and joust:
            found.add(where, say("Joust has no hands: only the Domains count (RY-15)"))
        elif cards and name == went_out:
            found.add(where, say("{name} went out, so {name} holds no cards (RY-11)", name=name))
        elif cards:
            unplayed[name] = cards
    return End(went_out, unplayed)


def _no_such_end(key: str) -> Text:
    return say("the end of the game has no {key}: it says who went out and the cards left in each hand (RY-11)",
               key=key)


# ---------------------------------------------------------------------------------------
# Scoring one turn


@dataclass
class TableWord:
    """RY-9: a word lying in front of its owner."""

    word: Word
    owner: str

    def as_json(self) -> dict[str, str]:
        return {"word": self.word.text, "owner": self.owner, "cards": str(self.word)}


@dataclass
class State:
    """The table as the turns go by (mutable inside one call to :func:`score` only)."""

    players: tuple[str, ...]
    table: list[TableWord] = field(default_factory=list)
    domains: dict[str, int] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)
    royalty_melds: Counter = field(default_factory=Counter)
    must_pass: set[str] = field(default_factory=set)
    next: str | None = None
    plays_left: int = 1
    last_was_pass: bool = False
    turns: int = 0
    over: bool = False


def _meld(word: Word, values: Mapping[str, int], junior: bool, first: bool) -> tuple[int, list[str], dict]:
    """RY-3, RY-5, RY-6: a meld's score and the lines that explain it."""
    value = word_value(word, values)
    length, single = len(word), one_coloured(word)
    colours = colour_words(word)
    rulings = "RY-3, RY-4" if word.knaves or not single else "RY-3"
    said = {"word": word.text, "colours": colours, "sum": _sum_text(word.cards, values), "rulings": rulings}
    need = JUNIOR_ROYALTY_LENGTH if junior else ROYALTY_LENGTH
    royal = single and length >= need
    info = {"word": word.text, "cards": str(word), "value": value, "one_coloured": single}
    if first and length >= FIRST_PLAY_LENGTH:
        # RY-6 replaces RY-5 for the first meld: one premium, never both.
        factor = 4 if single and length >= FIRST_PLAY_QUADRUPLE_LENGTH else 2
        lines = [say("Meld {word} ({colours}): {sum} ({rulings})", **said),
                 say("First play: {word} {value} quadrupled (one colour, {length} letters) = {score} (RY-6)",
                     word=word.text, value=value, length=length, score=value * factor) if factor == 4 else
                 say("First play: {word} {value} doubled = {score} (RY-6)", word=word.text, value=value,
                     score=value * factor)]
        info.update(premium="first play ×4" if factor == 4 else "first play ×2", score=value * factor)
        return value * factor, lines, info
    if royal:
        label = "junior royalty" if junior and length < ROYALTY_LENGTH else "royalty"
        info.update(premium=f"{label} ×2", score=value * 2)
        named = say("junior royalty") if label == "junior royalty" else say("royalty")
        return value * 2, [say("Meld {word} ({colours}): {sum}, {royalty} ×2 = {score} ({rulings}, RY-5)",
                               royalty=named, score=value * 2, **said)], info
    info.update(premium=None, score=value)
    if first:
        return value, [say("Meld {word} ({colours}): {sum}; a first play under {length} letters earns no premium "
                           "({rulings}, RY-6)", length=FIRST_PLAY_LENGTH, **said)], info
    return value, [say("Meld {word} ({colours}): {sum} ({rulings})", **said)], info


def _find_target(state: State, turn: Turn, capture: Capture, moved: list[TableWord], at: str,
                 found: Problems) -> tuple[TableWord, list[RoyaltyCard]] | None:
    """RY-7: the word the capture builds on, and the cards that came from hand."""
    player = turn.player
    if player is not None and capture.owner == player:
        found.add(f"{at}.capture.owner", say("{player} cannot capture their own word (RY-7)", player=player))
        return None
    same = [w for w in state.table if w.word.text == capture.target]
    if capture.owner is not None:
        same = [w for w in same if w.owner == capture.owner]
    if not same:
        own = [w for w in moved if w.word.text == capture.target]
        if own and capture.owner is None:
            found.add(f"{at}.capture.target",
                      say("{word} is {player}'s own word, which went into {player}'s Domain as this turn began "
                          "(RY-9); a player never captures their own word (RY-7)", word=capture.target, player=player))
        else:
            lying = ", ".join(f"{w.word.text} ({w.owner})" for w in state.table) or say("nothing")
            found.add(f"{at}.capture.target",
                      say("no {owner}'s word {word} lies on the table; it holds {lying} (RY-7, RY-9)",
                          owner=capture.owner, word=capture.target, lying=lying) if capture.owner else
                      say("no word {word} lies on the table; it holds {lying} (RY-7, RY-9)", word=capture.target,
                          lying=lying))
        return None
    owners = list(dict.fromkeys(w.owner for w in same))
    if len(owners) > 1:
        found.add(f"{at}.capture.owner",
                  say("{count} words on the table read {word} ({owners}): say whose is captured with owner (RY-7)",
                      count=len(same), word=capture.target, owners=", ".join(owners)))
        return None
    if capture.word is None:
        return None  # the new word's cards could not be read: the target is all there is to check
    # One owner with the same word twice: take the first whose cards the new word covers.
    last_problem = ""
    for target in same:
        need = Counter(c.key for c in target.word.cards)
        added: list[RoyaltyCard] = []
        for card in capture.word.cards:
            if need[card.key] > 0:
                need[card.key] -= 1
            else:
                added.append(card)
        missing = [(say("a Knave") if k[0] == "*" else k[0] + k[1]) for k, n in need.items() for _ in range(n)]
        if missing:
            last_problem = say_n("the new word must use every card of {word} ({cards}); {missing} is missing (a Knave "
                                 "may change its letter but stays a Knave) (RY-7)",
                                 "the new word must use every card of {word} ({cards}); {missing} are missing (a "
                                 "Knave may change its letter but stays a Knave) (RY-7)", len(missing),
                                 word=target.word.text, cards=str(target.word), missing=_and(missing))
            continue
        if not added:
            found.add(f"{at}.capture.cards",
                      say("{word} adds no card from hand to {target}: a capture adds at least one card and makes a "
                          "different word (RY-7)", word=capture.word.text, target=target.word.text))
            return None
        return target, added
    found.add(f"{at}.capture.cards", last_problem)
    return None


def _capture_lines(target: TableWord, word: Word, added: Sequence[RoyaltyCard],
                   values: Mapping[str, int]) -> tuple[int, list[str], dict]:
    """RY-7: the whole new word's value, doubled for four or more one-coloured cards from hand."""
    value = word_value(word, values)
    lines = [say("Captured {target} from {owner} as {word}: {sum} (RY-3, RY-7)", target=target.word.text,
                 owner=target.owner, word=word.text, sum=_sum_text(word.cards, values))]
    doubled = len(added) >= CAPTURE_DOUBLE_CARDS and one_coloured(added)
    hand = {"cards": _cards_text(added), "number": _cards(len(added)), "colours": colour_words(added)}
    if doubled:
        lines.append(say("From hand {cards} ({number}, {colours}): 4 or more in one colour, capture doubled = "
                         "{score} (RY-4, RY-7)", score=value * 2, **hand))
    elif len(added) >= CAPTURE_DOUBLE_CARDS:
        lines.append(say("From hand {cards} ({number}, {colours}): not one colour, not doubled (RY-4, RY-7)", **hand))
    else:
        lines.append(say("From hand {cards} ({number}, {colours}): fewer than 4, not doubled (RY-7)", **hand))
    score_ = value * 2 if doubled else value
    info = {"target": target.word.text, "from": target.owner, "target_cards": str(target.word), "word": word.text,
            "cards": str(word), "added": _cards_text(added) if added else "", "value": value, "doubled": doubled,
            "score": score_}
    return score_, lines, info


# ---------------------------------------------------------------------------------------
# The game


def _party_of(name: str, sides: Coalitions | None) -> str:
    return sides.side_of(name) if sides else name


def _party_name(party: str, sides: Coalitions | None) -> str:
    return sides.named(party) if sides else party


def late_players_refused(options: Mapping[str, Any]) -> str | None:
    """Royalty seats a late player from the next turn; a Joust (two players, RY-15) and a game of
    coalitions (partnerships fixed at the start, RY-14) do not."""
    if options.get("variant") == "joust":
        return say("a Joust is a game for exactly two players (RY-15): nobody can join during it")
    if options.get("coalitions"):
        return say("the coalitions were made at the start (RY-14), so nobody can join during the game; "
                   "start a new table with the new coalitions")
    return None


def late_rule(options: Mapping[str, Any]) -> str:
    """The starting score of a late player, in the players' words (the rules page says the same)."""
    return say("They start with 0 points, an empty Domain and no words on the table, and take their first turn "
               "when play next reaches their seat (RY-8, RY-9).")


def _late_mentions(entry: Turn | End, waiting: Sequence[str]) -> list[tuple[str, str]]:
    """Where a turn names a player who was not yet at the table: (where, name)."""
    if isinstance(entry, End):
        out = [("end.went_out", entry.went_out)] if entry.went_out in waiting else []
        return out + [(f"end.unplayed.{p}", p) for p in entry.unplayed if p in waiting]
    out = [("player", entry.player)] if entry.player in waiting else []
    if entry.capture is not None and entry.capture.owner in waiting:
        out.append(("capture.owner", entry.capture.owner))
    if entry.challenge is not None and entry.challenge.by in waiting:
        out.append(("challenge.by", entry.challenge.by))
    return out


@dataclass(frozen=True)
class Tally(Tallied):
    """The game after some turns (base.Tallied), and the coalitions' totals.

    Its :class:`State` is the table after those turns; a step works on a copy of it.
    """

    players: tuple[str, ...]
    opts: dict[str, Any]
    joined: dict[str, int]
    sides: Coalitions | None
    state: State
    side_totals: dict[str, int] | None
    winners: tuple[str, ...] = ()
    reason: str | None = None
    ended_at: int | None = None
    last_player: str | None = None


def _copied(state: State) -> State:
    """A copy of ``state`` that a turn may change without changing the tally it came from."""
    return State(state.players, list(state.table), dict(state.domains), dict(state.totals),
                 Counter(state.royalty_melds), set(state.must_pass), state.next, state.plays_left,
                 state.last_was_pass, state.turns, state.over)


def start(players: Sequence[str], options: Mapping[str, Any], joined: Mapping[str, int] | None = None) -> Tally:
    """The game before its first turn; raises InputError for the options and the late players."""
    players, joined = tuple(players), dict(joined or {})
    found = Problems()
    opts = _check_options(players, options, found)
    found.raise_if_any()
    if joined and late_players_refused(opts):
        found.add("joined", late_players_refused(opts) or "")
        found.raise_if_any()
    sides = coalitions_of(players, opts["coalitions"])
    state = State(tuple(p for p in players if joined.get(p, 1) <= 1), domains=dict.fromkeys(players, 0),
                  totals=dict.fromkeys(players, 0))
    return Tally(players, opts, joined, sides, state, dict.fromkeys(sides.sides, 0) if sides else None)


def step(tally: Tally, raw: object) -> Tally:
    """The game after one more turn (base.Fold); raises InputError naming what is wrong with it."""
    found = Problems()
    entry = _parse_entry(raw, f"rounds[{tally.count}]", tally.players, tally.opts["variant"] == "joust", found)
    found.raise_if_any()
    tally = _advance(tally, entry, found)
    found.raise_if_any()
    return tally


def _advance(tally: Tally, entry: Turn | End, found: Problems) -> Tally:
    """Score one read entry on ``tally``; the problems it finds go to ``found`` (the tally is then of no use)."""
    players, joined, sides, index = tally.players, tally.joined, tally.sides, tally.count
    at, joust, values = f"rounds[{index}]", tally.opts["variant"] == "joust", tally.opts["letter_values"]
    waiting = [p for p in players if joined.get(p, 1) > index + 1]
    for where, name in _late_mentions(entry, waiting):
        found.add(f"{at}.{where}", say("{name} joins at turn {turn}, after this turn, and takes no part in it",
                                       name=name, turn=joined[name]))
    if isinstance(entry, Turn) and entry.player in waiting:
        return tally  # a turn played by someone not yet seated has nothing more to score
    state = _copied(tally.state)
    seated = tuple(p for p in players if p not in waiting)
    if seated != state.players:  # a late player sits down: play passes on to the next seat, theirs included
        state.players = seated
        if tally.last_player is not None and state.next is not None:
            state.next = seated[(seated.index(tally.last_player) + 1) % len(seated)]
    if state.over:
        if joust and isinstance(entry, End) and tally.ended_at is not None and index == tally.ended_at + 1:
            # RY-15: two passes already ended the Joust; an end entry after them is allowed and adds nothing.
            lines = [say("Two passes in a row had already ended the Joust: nothing more to score (RY-15)")]
            detail = _detail(state, "end", None, dict.fromkeys(players, 0), values=set())
            return replace(tally, played=tally.played_with(
                dict.fromkeys(players, 0), {p: list(lines) for p in players}, detail,
                dict.fromkeys(sides.sides, 0) if sides else None))
        found.add(at, say("the game ended at turn {turn}; correct an earlier turn instead ({ruling})",
                          turn=tally.ended_at + 1, ruling="RY-15" if joust else "RY-11"))
        return tally
    if isinstance(entry, End):
        result = _end(state, entry, sides, values, joust)
    elif joust:
        result = _joust_turn(state, entry, index, at, values, found)
    else:
        result = _turn(state, entry, index, at, values, tally.opts["junior"], found)
    if result is None:
        return tally
    points, side_bonus, explain, detail = result
    if waiting:
        points = {p: points.get(p, 0) for p in players}
        for p in waiting:
            explain[p] = [say("Not at the table yet: joins at turn {turn} with 0 points and an empty Domain "
                              "(RY-8, RY-9)", turn=joined[p])]
    for p in players:
        state.totals[p] += points[p]
    side_points, side_totals = None, tally.side_totals
    if sides is not None and side_totals is not None:
        side_points = {s: sum(points[p] for p in members) + side_bonus.get(s, 0)
                       for s, members in sides.sides.items()}
        side_totals = {s: side_totals[s] + side_points[s] for s in sides.sides}
    tally = replace(tally, state=state, side_totals=side_totals,
                    last_player=entry.player if isinstance(entry, Turn) else tally.last_player,
                    played=tally.played_with(points, explain, detail, side_points))
    if state.over:
        winners, reason = _outcome(state, sides, side_totals, entry, joust)
        tally = replace(tally, ended_at=index, winners=winners, reason=reason)
    return tally


def finish(tally: Tally) -> ScoredGame:
    """The scored game a tally stands for (base.Fold)."""
    players, sides, side_totals = tally.players, tally.sides, tally.side_totals
    state = _copied(tally.state)
    waiting = [p for p in players if tally.joined.get(p, 1) > tally.count]
    if waiting and not state.over and tally.last_player is not None:  # seated for the next turn
        state.players = tuple(players)
        state.next = players[(players.index(tally.last_player) + 1) % len(players)]
    standing = {
        "table": [w.as_json() for w in state.table],
        "domains": dict(state.domains),
        "scores": dict(state.totals),
        "next": None if state.over else (state.next or players[0]),
        "must_pass": [p for p in players if p in state.must_pass],
    }
    if tally.opts["variant"] == "joust":
        standing["plays_left"] = 0 if state.over else state.plays_left
    if sides is not None and side_totals is not None:
        standing["side_domains"] = {s: sum(state.domains[p] for p in m) for s, m in sides.sides.items()}
        standing["side_scores"] = dict(side_totals)
    out_opts = dict(tally.opts)
    out_opts["letter_values"] = dict(tally.opts["letter_values"])
    return ScoredGame(
        game=SLUG, players=players, options=out_opts, rounds=tally.rounds,
        totals=dict(state.totals), over=state.over, winners=tally.winners, reason=tally.reason,
        sides={s: list(m) for s, m in sides.sides.items()} if sides else None,
        side_totals=dict(side_totals) if side_totals is not None else None, standing=standing,
    )


def score(players: Sequence[str], options: Mapping[str, Any], rounds: Sequence[object],
          joined: Mapping[str, int] | None = None) -> ScoredGame:
    """Score a whole game of Royalty (or a Joust); raises InputError listing every problem found.

    ``joined`` names the players seated late, each with the first turn they may play (games.check_joined):
    until then they are not at the table; they start as :func:`late_rule` says. The reference the
    fold (:func:`start`, :func:`step`, :func:`finish`) is tested against.
    """
    players = tuple(players)
    found = Problems()
    opts = _check_options(players, options, found)
    found.raise_if_any()
    joust = opts["variant"] == "joust"
    # Every entry is read first; an entry that cannot be read in full is still checked against the
    # table as far as it can be (whose turn, the word captured), so every problem shows at once,
    # and the turns after it are not scored (the table they would be played on is not known).
    parsed, unread = [], []
    for i, raw in enumerate(rounds):
        before = len(list(found))
        parsed.append(_parse_entry(raw, f"rounds[{i}]", players, joust, found))
        unread.append(len(list(found)) > before)
    refused = late_players_refused(opts) if joined else None
    if refused:
        found.add("joined", refused)
    tally = start(players, options, None if refused else joined)
    for index, entry in enumerate(parsed):
        if entry is None:
            break
        tally = _advance(tally, entry, found)
        if unread[index] or tally.count == index:
            break
    found.raise_if_any()
    return finish(tally)


def _detail(state: State, kind: str, player: str | None, turn_points: Mapping[str, int],
            values: set[str] | Mapping[str, int], **more: Any) -> dict[str, Any]:
    detail: dict[str, Any] = {"kind": kind, "player": player, "turn_points": dict(turn_points)}
    detail.update(more)
    detail["table"] = [w.as_json() for w in state.table]
    detail["domains"] = dict(state.domains)
    detail["values"] = dict(values) if isinstance(values, Mapping) else {}
    return detail


def _values_used(values: Mapping[str, int], *words: Word | Sequence[RoyaltyCard] | None) -> dict[str, int]:
    letters = sorted({c.letter for w in words if w is not None
                      for c in (w.cards if isinstance(w, Word) else w) if not c.knave and c.letter})
    return {x: values[x] for x in letters}


def _check_turn_order(state: State, turn: Turn, at: str, joust: bool, found: Problems) -> bool:
    player = turn.player
    if state.next is not None and player != state.next:
        if joust and state.plays_left > 1:
            why = say("{player} has {count} plays in a row (RY-15)", player=state.next, count=state.plays_left)
        elif joust:
            why = say("the turns alternate unless a royalty or a pass gives extra plays (RY-15)")
        else:
            why = say("play passes to the next seat")
        if state.next in state.must_pass:
            found.add(f"{at}.player", say("it is {next}'s turn, not {player}'s: {why}; {next} must pass it after a "
                                          "failed challenge (RY-10)", next=state.next, player=player, why=why))
        else:
            found.add(f"{at}.player", say("it is {next}'s turn, not {player}'s: {why}", next=state.next, player=player,
                                          why=why))
        return False
    if player in state.must_pass and turn.action != "pass":
        found.add(f"{at}.player", say("{player} challenged and was not upheld, so this turn must be a pass (RY-10)",
                                      player=player))
        return False
    return True


def _challenge_lines(turn: Turn, explain: dict[str, list[str]]) -> bool:
    """RY-10: the challenge's lines; True when the turn is void."""
    ch = turn.challenge
    if ch is None:
        return False
    # A challenger not yet at the table has no lines of their own: the turn is refused for it
    # (_late_mentions), and every other problem of the turn is still found.
    explain.setdefault(ch.by, [])
    if ch.upheld:
        explain[turn.player].append(say("Challenged by {player} and upheld: the turn is void, 0, the cards go back "
                                        "and nothing is placed; it counts as a pass (RY-10)", player=ch.by))
        explain[ch.by].append(say("Challenged {player}'s word and was upheld (RY-10)", player=turn.player))
        return True
    explain[turn.player].append(say("Challenged by {player}, not upheld: the turn stands (RY-10)", player=ch.by))
    explain[ch.by].append(say("Challenged {player}'s word and was not upheld: must pass the next turn (RY-10)",
                              player=turn.player))
    return False


def _turn(state: State, turn: Turn, index: int, at: str, values: Mapping[str, int], junior: bool,
          found: Problems):
    players, player = state.players, turn.player
    # A turn out of order is still read against the table (the word captured, the cards from
    # hand), so that every problem shows at once; it is not scored.
    in_order = player is not None and _check_turn_order(state, turn, at, False, found)
    explain: dict[str, list[str]] = {p: [] for p in players}
    lines = explain.setdefault(player, [])
    forced = player in state.must_pass
    state.must_pass.discard(player)
    moved = _words_to_domain(state, player, lines)

    captured = _scored_capture(state, turn, moved, at, values, lines, found)
    if captured is None:
        return None
    target, added, capture_score, capture_info = captured
    meld_score, meld_info = _scored_meld(turn, index == 0, values, junior, lines)
    from_hand = len(added) + (len(turn.meld) if turn.meld is not None else 0)
    if from_hand > HAND_SIZE:
        found.add(at, say("{count} cards were played from hand, but a hand holds {most} (RY-8)", count=from_hand,
                          most=HAND_SIZE))
        return None
    if not in_order or turn.broken:
        return None

    turn_score, seven = _turn_total(turn, capture_score, meld_score, from_hand, lines)
    void = _challenge_lines(turn, explain)
    if void:
        turn_score = 0
    else:
        _lay_words_down(state, turn, target, explain)
    lines.append(_turn_score_line(state, turn, turn_score, forced, void))
    for p in players:
        if p != player and not explain[p]:
            explain[p].append(say("{player}'s turn: 0 (RY-8)", player=player))

    points = dict.fromkeys(players, 0)
    points[player] = turn_score
    state.next = players[(players.index(player) + 1) % len(players)]
    state.turns += 1
    detail = _detail(
        state, "turn", player, points, _values_used(values, turn.meld, turn.capture.word if turn.capture else None),
        action="capture" if turn.capture else "meld" if turn.meld else turn.action,
        capture=capture_info, meld=meld_info, from_hand=from_hand, seven=seven, void=void,
        challenge={"by": turn.challenge.by, "upheld": turn.challenge.upheld} if turn.challenge else None,
        moved_to_domain=[w.as_json() for w in moved])
    return points, {}, explain, detail


def _words_to_domain(state: State, player: str, lines: list[str]) -> list[TableWord]:
    """RY-9: the player's uncaptured words go into their Domain as the turn begins, whatever they do."""
    moved = [w for w in state.table if w.owner == player]
    if moved:
        state.table = [w for w in state.table if w.owner != player]
        cards = sum(len(w.word) for w in moved)
        state.domains[player] += cards
        lines.append(say("Words moved to the Domain: {words}; Domain {cards} (RY-9)", words=_words_listed(moved),
                         cards=_cards(state.domains[player])))
    return moved


def _scored_capture(state: State, turn: Turn, moved: list[TableWord], at: str, values: Mapping[str, int],
                    lines: list[str], found: Problems
                    ) -> tuple[TableWord | None, list[RoyaltyCard], int, dict | None] | None:
    """RY-7: the word captured, the cards added from hand, the capture's score and its detail (no word, no
    cards, 0 and None for a turn without a capture); None when the capture cannot have happened."""
    if turn.capture is None:
        return None, [], 0, None
    hit = _find_target(state, turn, turn.capture, moved, at, found)
    if hit is None:
        return None
    target, added = hit
    capture_score, capture_lines, capture_info = _capture_lines(target, turn.capture.word, added, values)
    lines.extend(capture_lines)
    return target, added, capture_score, capture_info


def _scored_meld(turn: Turn, first: bool, values: Mapping[str, int], junior: bool, lines: list[str]
                 ) -> tuple[int, dict | None]:
    """RY-3 to RY-6: the meld's score and its detail (0 and None for a turn without a meld)."""
    if turn.meld is None:
        return 0, None
    meld_score, meld_lines, meld_info = _meld(turn.meld, values, junior, first=first)
    lines.extend(meld_lines)
    return meld_score, meld_info


def _turn_total(turn: Turn, capture_score: int, meld_score: int, from_hand: int, lines: list[str]
                ) -> tuple[int, bool]:
    """RY-8: a capture and a meld add up, and a whole hand of seven cards played doubles the turn."""
    turn_score = capture_score + meld_score
    if turn.capture is not None and turn.meld is not None:
        lines.append(say("Turn: capture {capture} + meld {meld} = {score} (RY-8)", capture=capture_score,
                         meld=meld_score, score=turn_score))
    seven = from_hand == HAND_SIZE
    if seven:
        lines.append(say("Seven cards from hand: turn {score} doubled = {doubled} (RY-8)", score=turn_score,
                         doubled=turn_score * 2))
        turn_score *= 2
    return turn_score, seven


def _lay_words_down(state: State, turn: Turn, target: TableWord | None, explain: dict[str, list[str]]) -> None:
    """A turn that stands: the challenger who was not upheld passes next (RY-10), the captured word leaves
    the table for the new one (RY-7, RY-9), the meld is laid down and ROYALTY is counted (RY-13)."""
    player = turn.player
    if turn.challenge is not None:
        state.must_pass.add(turn.challenge.by)
    if target is not None:
        state.table.remove(target)
        explain[target.owner].append(say("{target} captured by {player} as {word}: it leaves the table (RY-7, RY-9)",
                                         target=target.word.text, player=player, word=turn.capture.word.text))
        state.table.append(TableWord(turn.capture.word, player))
    if turn.meld is not None:
        state.table.append(TableWord(turn.meld, player))
        if turn.meld.text == ROYALTY:
            state.royalty_melds[player] += 1
            explain[player].append(say("ROYALTY melded: the final score will be doubled (RY-13)"))


def _turn_score_line(state: State, turn: Turn, turn_score: int, forced: bool, void: bool) -> str:
    """RY-8, RY-10: the turn's last line: a pass (perhaps owed after a failed challenge), a trade, or the score."""
    if turn.action == "pass":
        return say("Passed, as the failed challenge required: 0 (RY-10)") if forced else say("Passed: 0 (RY-8)")
    if turn.action == "trade":
        return say("Traded the hand for fresh cards: 0 (RY-8)")
    cite = "RY-8, RY-10" if void else "RY-8"
    return say("Turn score {score}; total {total} ({rulings})", score=_raw(turn_score),
               total=_raw(state.totals[turn.player] + turn_score), rulings=cite)


def _raw(n: int) -> int | str:
    """A number that these lines have always printed with a hyphen for its minus sign (the others print −)."""
    return n if n >= 0 else str(n)


def _words_listed(words: Sequence[TableWord]) -> Text:
    """RY-9: words going to a Domain, each with its number of cards."""
    return joined([say("{word} ({cards})", word=w.word.text, cards=_cards(len(w.word))) for w in words], ", ")


def _joust_turn(state: State, turn: Turn, index: int, at: str, values: Mapping[str, int], found: Problems):
    """RY-15: one word from the exposed cards, straight to the Domain at face value."""
    players, player = state.players, turn.player
    in_order = player is not None and _check_turn_order(state, turn, at, True, found)
    explain: dict[str, list[str]] = {p: [] for p in players}
    lines = explain.setdefault(player, [])
    other = players[1] if player == players[0] else players[0]
    forced = player in state.must_pass
    state.must_pass.discard(player)
    points = dict.fromkeys(players, 0)
    if turn.meld is not None and len(turn.meld) > HAND_SIZE:
        found.add(f"{at}.meld", say("Joust exposes {most} cards; a word of {count} cannot be formed (RY-15)",
                                    most=HAND_SIZE, count=len(turn.meld)))
        return None
    if not in_order or turn.broken:
        return None

    played, royal, word_score = _joust_word(state, turn, values, explain)
    points[player] = word_score
    passed = not played
    if turn.action == "pass":
        lines.append(say("Passed, as the failed challenge required: 0 (RY-10)") if forced else
                     say("Passed: 0 (RY-15)"))
    state.turns += 1
    _joust_next(state, player, other, passed, royal, lines)
    lines.append(say("Turn score {score}; Domain {cards}; total {total} (RY-15)", score=points[player],
                     cards=_cards(state.domains[player]), total=state.totals[player] + points[player]))
    if not explain[other]:
        explain[other].append(say("{player}'s turn: 0 (RY-15)", player=player))

    # Two passes in a row end the Joust on this turn: its Domain bonus comes with the turn's points.
    bonus: dict[str, int] = {}
    end_info = None
    if state.over:
        bonus, end_info = _joust_end(state, explain)
        points = {p: points[p] + bonus[p] for p in players}
    turn_points = dict.fromkeys(players, 0)
    turn_points[player] = points[player] - bonus.get(player, 0)
    detail = _detail(state, "turn", player, turn_points, _values_used(values, turn.meld),
                     action=turn.action if turn.action != "play" else "meld", royalty=royal, void=passed and
                     turn.action == "play", plays_left=0 if state.over else state.plays_left, next=state.next,
                     challenge={"by": turn.challenge.by, "upheld": turn.challenge.upheld} if turn.challenge else None)
    if end_info is not None:
        detail["end"] = end_info
    return points, {}, explain, detail


def _joust_word(state: State, turn: Turn, values: Mapping[str, int], explain: dict[str, list[str]]
                ) -> tuple[bool, bool, int]:
    """RY-15: the word formed goes to the Domain at face value unless a challenge is upheld (RY-10).
    Whether a word stands, whether it is a royalty (which plays again), and its score."""
    word, player = turn.meld, turn.player
    if word is None:
        return False, False, 0
    lines = explain[player]
    value = word_value(word, values)
    royal = is_royalty(word)
    lines.append(say("Word {word} ({colours}): {sum}, straight to the Domain at face value (RY-3, RY-15)",
                     word=word.text, colours=colour_words(word), sum=_sum_text(word.cards, values)))
    if _challenge_lines(turn, explain):
        return False, False, 0
    if turn.challenge is not None:
        state.must_pass.add(turn.challenge.by)
    state.domains[player] += len(word)
    if royal:
        lines.append(say("{word} is a royalty: {player} plays again (RY-15)", word=word.text, player=player))
    return True, royal, value


def _joust_next(state: State, player: str, other: str, passed: bool, royal: bool, lines: list[str]) -> None:
    """RY-15: who plays next. A pass gives the other player two plays, and a second pass in a row ends the
    Joust; a royalty gives its player one more play."""
    if passed:
        if state.last_was_pass:
            state.over = True
            lines.append(say("Two passes in a row: the Joust is over (RY-15)"))
        else:
            lines.append(say("After a pass {player} plays twice (RY-15)", player=other))
            state.next, state.plays_left = other, 2
        state.last_was_pass = True
        return
    state.last_was_pass = False
    state.plays_left -= 1
    if royal:
        state.plays_left += 1
    if state.plays_left == 0:
        state.next, state.plays_left = other, 1
    else:
        state.next = player


def _joust_end(state: State, explain: dict[str, list[str]]) -> tuple[dict[str, int], dict[str, Any]]:
    """RY-15: +10 to the larger Domain, +5 each when they are equal."""
    a, b = state.players
    bonus = dict.fromkeys(state.players, 0)
    if state.domains[a] == state.domains[b]:
        bonus = dict.fromkeys(state.players, JOUST_BONUS_TIED)
        for p in state.players:
            explain[p].append(say("Domains equal at {cards}: {bonus} each (RY-15)", cards=_cards(state.domains[p]),
                                  bonus=Signed(JOUST_BONUS_TIED)))
    else:
        big = a if state.domains[a] > state.domains[b] else b
        small = b if big == a else a
        bonus[big] = JOUST_BONUS
        explain[big].append(say("Larger Domain, {cards} to {other}: {bonus} (RY-15)", cards=_cards(state.domains[big]),
                                other=_raw(state.domains[small]), bonus=Signed(JOUST_BONUS)))
        explain[small].append(say("Smaller Domain, {cards} to {other}: no bonus (RY-15)",
                                  cards=_cards(state.domains[small]), other=_raw(state.domains[big])))
    for p in state.players:
        explain[p].append(say("Final score {score} (RY-15)", score=state.totals[p] + bonus[p]))
    info = {"went_out": None, "unplayed": dict.fromkeys(state.players, 0), "domain_bonus": bonus,
            "royalty_bonus": dict.fromkeys(state.players, 0), "by": "player"}
    return bonus, info


def _end(state: State, end: End, sides: Coalitions | None, values: Mapping[str, int], joust: bool):
    """RY-9, RY-11, RY-12, RY-13 (or RY-15 for a Joust): the game's last entry."""
    players = state.players
    explain: dict[str, list[str]] = {p: [] for p in players}
    state.over = True
    if joust:
        explain_lines = {p: [say("The Joust ends here (RY-15)")] for p in players}
        bonus, info = _joust_end(state, explain_lines)
        detail = _detail(state, "end", None, dict.fromkeys(players, 0), {}, end=info)
        return bonus, {}, explain_lines, detail

    moved = _table_to_domains(state, explain)
    # RY-11: going out collects the others' cards; when all passed, each loses their own.
    unplayed = dict.fromkeys(players, 0)
    held = {p: end.unplayed.get(p, ()) for p in players}
    if end.went_out is not None:
        unplayed[end.went_out] = _went_out(state, end.went_out, held, values, explain)
    else:
        unplayed = _everyone_passed(state, held, values, explain)

    # RY-12 and RY-13, per player or per coalition (RY-14).
    parties = list(sides.sides) if sides else list(players)
    members = {party: (sides.sides[party] if sides else (party,)) for party in parties}
    domain_bonus, royalty_bonus = _final_bonuses(state, sides, parties, members, unplayed, explain)

    points = dict(unplayed)
    side_bonus: dict[str, int] = {}
    if sides is None:
        for p in players:
            points[p] += domain_bonus[p] + royalty_bonus[p]
    else:
        # RY-14: a coalition's bonuses belong to the coalition, not to one member: side_points only.
        side_bonus = {party: domain_bonus[party] + royalty_bonus[party] for party in parties}
    info = {"went_out": end.went_out, "unplayed": unplayed, "domain_bonus": domain_bonus,
            "royalty_bonus": royalty_bonus, "royalty_melds": {party: sum(state.royalty_melds[p] for p in members[party])
                                                              for party in parties},
            "by": "coalition" if sides else "player",
            "cards": {p: _cards_text(held[p]) if held[p] else "" for p in players},
            "moved_to_domain": [w.as_json() for w in moved]}
    detail = _detail(state, "end", end.went_out, dict.fromkeys(players, 0),
                     _values_used(values, *[held[p] for p in players]), end=info)
    return points, side_bonus, explain, detail


def _table_to_domains(state: State, explain: dict[str, list[str]]) -> list[TableWord]:
    """RY-9: at the end every word still on the table goes to its owner's Domain."""
    moved = list(state.table)
    state.table = []
    for name in state.players:
        mine = [w for w in moved if w.owner == name]
        if mine:
            state.domains[name] += sum(len(w.word) for w in mine)
            explain[name].append(say("At the end, words moved to the Domain: {words}; Domain {cards} (RY-9)",
                                     words=_words_listed(mine), cards=_cards(state.domains[name])))
    return moved


def _went_out(state: State, goer: str, held: Mapping[str, Sequence[RoyaltyCard]], values: Mapping[str, int],
              explain: dict[str, list[str]]) -> int:
    """RY-11: the player who went out takes the value of the cards the others hold, and the cards to
    their Domain; what they gained."""
    gained, count, parts = 0, 0, []
    for p in state.players:
        cards = held[p]
        if p == goer or not cards:
            continue
        v = sum(card_value(c, values) for c in cards)
        gained, count = gained + v, count + len(cards)
        parts.append(say("{player}'s {cards} ({value})", player=p, cards=_cards_text(cards), value=v))
        explain[p].append(say_n("{goer} went out: {player}'s unplayed {cards} goes to {goer} (RY-11)",
                                "{goer} went out: {player}'s unplayed {cards} go to {goer} (RY-11)", len(cards),
                                goer=goer, player=p, cards=_cards_text(cards)))
    for p in state.players:
        if p != goer and not held[p]:
            explain[p].append(say("{goer} went out; {player} held no cards (RY-11)", goer=goer, player=p))
    state.domains[goer] += count
    got = joined(parts, "; ") if parts else say("nobody held a card")
    explain[goer].append(say("Went out: {got}: +{gained} and {cards} to the Domain, now {domain} (RY-11)", got=got,
                             gained=gained, cards=_cards(count), domain=state.domains[goer]))
    return gained


def _everyone_passed(state: State, held: Mapping[str, Sequence[RoyaltyCard]], values: Mapping[str, int],
                     explain: dict[str, list[str]]) -> dict[str, int]:
    """RY-11: nobody went out, so each player loses the value of the cards they hold, and as many Domain
    cards; what each lost, as a negative number."""
    unplayed = {}
    for p in state.players:
        cards = held[p]
        v = sum(card_value(c, values) for c in cards)
        unplayed[p] = -v
        state.domains[p] -= len(cards)
        if cards:
            explain[p].append(say_n("Everyone passed: unplayed {cards} {points} and −{count} Domain card, now "
                                    "{domain} (RY-11)",
                                    "Everyone passed: unplayed {cards} {points} and −{count} Domain cards, now "
                                    "{domain} (RY-11)", len(cards), cards=_cards_text(cards), points=Signed(-v),
                                    domain=state.domains[p]))
        else:
            explain[p].append(say("Everyone passed; no cards left in hand (RY-11)"))
    return unplayed


def _final_bonuses(state: State, sides: Coalitions | None, parties: Sequence[str],
                   members: Mapping[str, tuple[str, ...]], unplayed: Mapping[str, int],
                   explain: dict[str, list[str]]) -> tuple[dict[str, int], dict[str, int]]:
    """RY-12 and RY-13 for each player, or each coalition (RY-14): the Domain bonus, and what doubling
    for each ROYALTY melded adds to the final score."""
    domain = {party: sum(state.domains[p] for p in members[party]) for party in parties}
    before = {party: sum(state.totals[p] + unplayed[p] for p in members[party]) for party in parties}
    most = max(domain.values())
    top = [party for party in parties if domain[party] == most]
    domain_bonus = {party: (DOMAIN_BONUS if len(top) == 1 else DOMAIN_BONUS_TIED) if party in top else 0
                    for party in parties}
    royalty_bonus = {}
    for party in parties:
        line = _domain_bonus_line(party, sides, domain, top, most)
        final = before[party] + domain_bonus[party]
        # RY-13: each ROYALTY melded doubles the final score once more, the Domain bonus included.
        n = sum(state.royalty_melds[p] for p in members[party])
        doubled = final * (2 ** n)
        royalty_bonus[party] = doubled - final
        for p in members[party]:
            explain[p].append(line)
            explain[p].extend(_final_score_lines(party, sides, n, final, doubled))
    return domain_bonus, royalty_bonus


def _domain_bonus_line(party: str, sides: Coalitions | None, domain: Mapping[str, int], top: Sequence[str],
                       most: int) -> str:
    """RY-12 (with RY-14 for a coalition): the largest Domain's bonus, shared when tied, in words."""
    values = {"cards": _cards(domain[party]), "rulings": "RY-12, RY-14" if sides else "RY-12"}
    if party in top and len(top) == 1:
        values["bonus"] = Signed(DOMAIN_BONUS)
        return (say("The coalition's Domain {cards}, the most: {bonus} ({rulings})", **values) if sides else
                say("Domain {cards}, the most: {bonus} ({rulings})", **values))
    if party in top:
        values.update(bonus=Signed(DOMAIN_BONUS_TIED), others=_and([_party_name(t, sides) for t in top if t != party]))
        return (say("The coalition's Domain {cards}, tied for the most with {others}: {bonus} ({rulings})", **values)
                if sides else say("Domain {cards}, tied for the most with {others}: {bonus} ({rulings})", **values))
    values.update(leader=_party_name(top[0], sides), most=most)
    return (say("The coalition's Domain {cards}; {leader} has the most ({most}): no bonus ({rulings})", **values)
            if sides else say("Domain {cards}; {leader} has the most ({most}): no bonus ({rulings})", **values))


def _final_score_lines(party: str, sides: Coalitions | None, royalties: int, final: int, doubled: int) -> list[str]:
    """RY-13: the doubling for each ROYALTY melded, if any; then the final score (the coalition's, RY-14)."""
    lines = []
    if royalties:
        lines.append(say_n("ROYALTY melded {count} time: final score {final} doubled = {doubled} (RY-13)",
                           "ROYALTY melded {count} times: final score {final} doubled {count} times = {doubled} "
                           "(RY-13)", royalties, final=final, doubled=doubled))
    if sides:
        lines.append(say("Final score of {side}: {score} ({rulings})", side=_party_name(party, sides), score=doubled,
                         rulings="RY-11, RY-12, RY-13, RY-14"))
    else:
        lines.append(say("Final score: {score} ({rulings})", score=doubled, rulings="RY-11, RY-12, RY-13"))
    return lines


def _outcome(state: State, sides: Coalitions | None, side_totals: Mapping[str, int] | None, entry: Turn | End,
             joust: bool) -> tuple[tuple[str, ...], str]:
    """The winners (highest final score, ties share) and the reason, in one sentence."""
    players = state.players
    if sides is not None and side_totals is not None:
        best = max(side_totals.values())
        top = [s for s in sides.sides if side_totals[s] == best]
        winners = tuple(p for p in players if any(p in sides.sides[s] for s in top))
        names = _and([sides.named(s) for s in top])
    else:
        best = max(state.totals.values())
        top = [p for p in players if state.totals[p] == best]
        winners = tuple(top)
        names = _and(top)
    verdict = say_n("{names} wins with {best}", "{names} share the win with {best}", len(top), names=names,
                    best=_raw(best))
    if joust:
        return winners, (say("Two passes in a row ended the Joust; {verdict} (RY-15).", verdict=verdict)
                         if isinstance(entry, Turn) else say("The Joust ended; {verdict} (RY-15).", verdict=verdict))
    assert isinstance(entry, End)
    if entry.went_out:
        return winners, say("{player} went out; {verdict} (RY-11, RY-12, RY-13).", player=entry.went_out,
                            verdict=verdict)
    return winners, say("Every player passed; {verdict} (RY-11, RY-12, RY-13).", verdict=verdict)


__all__ = ["DEFAULT_LETTER_VALUES", "MAX_PLAYERS", "MIN_PLAYERS", "OPTIONS", "PROVISIONAL", "ROUND_NAME", "SLUG",
           "TITLE", "InputError", "RoyaltyCard", "Word", "WordError", "card_value", "colour_words",
           "format_word", "is_royalty", "letter_table", "letter_values", "monarchy", "one_coloured", "parse_card",
           "parse_hand", "parse_word", "score", "word_value"]
