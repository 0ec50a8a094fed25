"""Indian Rummy hands, judged exactly: groups (IR-4), declarations (IR-5), counts (IR-6).

Cards are :class:`~companion.core.cards.Card` objects or their notation (``"7H"``, ``"JK"``).
``wild_rank`` is the rank whose every card is a joker (IR-2): ``"7"``, ``"A"`` ... A
cut printed Joker may be passed as ``"JK"``; it makes Aces wild. ``None`` means only
the printed Jokers are wild.

>>> classify(["QS", "KS", "AS"], "7").kind, classify(["KS", "AS", "2S"], "7").kind
('pure', 'invalid')
>>> classify(["6H", "7H", "8H"], "7").kind  # the wild 7H in its own place (IR-4)
'pure'
>>> hand = ["AH", "2H", "3H", "5S", "6S", "7D", "8S", "QC", "QD", "QS", "9H", "10H", "JH"]
>>> check_declaration([hand[:3], hand[3:7], hand[7:10], hand[10:]], "7").valid
True
>>> best = best_arrangement(["AH", "2H", "3H", "5S", "6S", "JK", "8S", "QC", "QD", "QS", "9H", "10H", "2C"], "7")
>>> best.count, format_cards(best.loose)
(21, '9H 10H 2C')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ...core.cards import JOKER_RANK, RANKS, SUITS, Card, format_cards, parse_card, typed
from ...core.messages import Text, say, say_n

PURE, IMPURE, SET, INVALID = "pure", "impure", "set", "invalid"
KIND_NAMES = {PURE: say("pure sequence"), IMPURE: say("impure sequence"), SET: say("set"),
              INVALID: say("not a valid group")}
#: IR-5: a hand, and so a declaration, has 13 cards.
HAND_SIZE = 13
#: IR-6: no count is above 80.
CAP = 80
SUIT_NAMES = {"S": say("Spades"), "H": say("Hearts"), "D": say("Diamonds"), "C": say("Clubs")}

#: IR-4: places in a run, Ace low = 1 ... King = 13; an Ace high stands at 14.
LOW: dict[str, int] = {"A": 1, **{str(n): n for n in range(2, 11)}, "J": 11, "Q": 12, "K": 13}
HIGH_ACE = 14
RANK_AT: dict[int, str] = {**{pos: rank for rank, pos in LOW.items()}, HIGH_ACE: "A"}
#: IR-3: A, K, Q, J = 10; 2-10 their face value; jokers 0 (see :func:`card_value`).
VALUES: dict[str, int] = {"A": 10, "K": 10, "Q": 10, "J": 10, **{str(n): n for n in range(2, 11)}}
NUMBER_WORDS = {3: say("three"), 4: say("four"), 5: say("five"), 6: say("six"), 7: say("seven"), 8: say("eight")}
RANK_PLURALS = {"A": say("Aces"), "K": say("Kings"), "Q": say("Queens"), "J": say("Jacks")}


def _rank_plural(rank: str) -> Text:
    """A rank as a set of it is named: Kings, 7s."""
    return RANK_PLURALS.get(rank) or say("{rank}s", rank=rank)



# ---------------------------------------------------------------------------------------
# Cards and jokers


def wild_rank_of(cut: str | None) -> str | None:
    """IR-2: the wild rank for the card cut; a cut printed Joker makes Aces wild.

    >>> wild_rank_of("7"), wild_rank_of("jk"), wild_rank_of("q"), wild_rank_of(None)
    ('7', 'A', 'Q', None)
    >>> wild_rank_of("11")
    Traceback (most recent call last):
    ...
    ValueError: 11 is not a rank: the wild joker is 2-10, J, Q, K, A, or JK for a cut printed Joker
    """
    if cut is None:
        return None
    text = str(cut).strip().upper()
    if text == JOKER_RANK:
        return "A"
    if text not in RANKS:
        raise ValueError(say("{cut} is not a rank: the wild joker is 2-10, J, Q, K, A, or JK for a cut printed Joker",
                             cut=typed(cut)))
    return text


def as_card(card: Card | str) -> Card:
    """A card from a :class:`Card` or its notation (the printed joker allowed).

    >>> as_card("10h"), as_card("JK")
    (Card(rank='10', suit='H'), Card(rank='JK', suit=''))
    """
    return card if isinstance(card, Card) else parse_card(card, allow_joker=True)


def as_cards(cards: Iterable[Card | str]) -> tuple[Card, ...]:
    return tuple([c if isinstance(c, Card) else parse_card(c, allow_joker=True) for c in cards])


def is_joker(card: Card, wild_rank: str | None) -> bool:
    """IR-2: a printed Joker, or any card of the wild rank (Aces when a printed Joker was cut).

    >>> is_joker(Card("JK", ""), "7"), is_joker(Card("7", "S"), "7"), is_joker(Card("8", "S"), "7")
    (True, True, False)
    >>> is_joker(Card("A", "S"), "JK")
    True
    """
    return card.is_joker or card.rank == wild_rank or (wild_rank == JOKER_RANK and card.rank == "A")


def card_value(card: Card, wild_rank: str | None) -> int:
    """IR-3: A, K, Q, J = 10; 2-10 face value; printed and wild jokers 0.

    >>> [card_value(as_card(c), "7") for c in ("AS", "KD", "10C", "2H", "7S", "JK")]
    [10, 10, 10, 2, 0, 0]
    """
    if is_joker(card, wild_rank):
        return 0
    return VALUES[card.rank]


def _values_with(wild_rank: str | None) -> dict[str, int]:
    """IR-3 by rank with ``wild_rank`` wild (IR-2): what :func:`card_value` gives each rank."""
    return {rank: card_value(Card(rank, "S"), wild_rank) for rank in (*VALUES, JOKER_RANK)}


#: card_value as a table by rank, for each wild rank: every hand is valued card by card.
_RANK_VALUES: dict[str | None, dict[str, int]] = {wild: _values_with(wild) for wild in (None, *VALUES, JOKER_RANK)}


def rank_values(wild_rank: str | None) -> dict[str, int]:
    """IR-3: each rank's value, ``rank_values(wild)[card.rank] == card_value(card, wild)``.

    >>> rank_values("7")["7"], rank_values("7")["K"], rank_values("JK")["A"], rank_values(None)["JK"]
    (0, 10, 0, 0)
    """
    known = _RANK_VALUES.get(wild_rank)
    return known if known is not None else _values_with(wild_rank)


def hand_value(cards: Iterable[Card], wild_rank: str | None) -> int:
    """IR-3: the value of some cards, before any cap.

    >>> hand_value(as_cards(["KS", "9D", "JK", "7C"]), "7")
    19
    """
    values = rank_values(wild_rank)
    return sum([values[c.rank] for c in cards])


def _fan_places() -> dict[tuple[str, str], int]:
    """(rank, suit) -> place when a player fans the cards: by suit, then Ace low to King;
    printed jokers last."""
    places = {(rank, suit): 16 * k + place for k, suit in enumerate(SUITS) for rank, place in LOW.items()}
    places.update({(JOKER_RANK, suit): 16 * len(SUITS) for suit in ("", *SUITS)})
    return places


_FAN_PLACES = _fan_places()


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """By suit (S, H, D, C), then Ace to King, printed jokers last.

    >>> format_cards(sort_cards(as_cards(["JK", "KH", "2S", "AH"])))
    '2S AH KH JK'
    """
    return tuple(sorted(cards, key=lambda c: _FAN_PLACES[c.rank, c.suit]))


# ---------------------------------------------------------------------------------------
# IR-4: one group


@dataclass(frozen=True)
class GroupKind:
    """What a group is under IR-4, and why, in a player's words.

    >>> k = classify(["5D", "6D", "JK", "8D"], "3")
    >>> k.kind, k.valid, k.sequence
    ('impure', True, True)
    >>> k.reason
    'impure sequence: 5D to 8D in Diamonds, JK standing in for 7D (IR-4)'
    """

    kind: str
    reason: str

    @property
    def valid(self) -> bool:
        return self.kind != INVALID

    @property
    def sequence(self) -> bool:
        return self.kind in (PURE, IMPURE)

    @property
    def name(self) -> str:
        return KIND_NAMES[self.kind]


def _consecutive(positions: Sequence[int]) -> bool:
    return all(b - a == 1 for a, b in zip(positions, positions[1:], strict=False))


def _ace_words(positions: Sequence[int]) -> str:
    if positions[0] == 1:
        return say(", Ace low")
    if positions[-1] == HIGH_ACE:
        return say(", Ace high")
    return ""


def _run_window(naturals: Sequence[tuple[int, Card]], size: int) -> tuple[int, int] | None:
    """The places lo..hi a run of ``size`` cards takes around its natural cards, or None.

    ``naturals`` are (place, card) pairs of one suit with distinct places, in one Ace
    reading. The run fills gaps with jokers, then grows upwards, then downwards.
    """
    places = sorted(p for p, _ in naturals)
    lo, hi = places[0], places[-1]
    if hi - lo + 1 > size or size > HAND_SIZE:
        return None
    bottom = 2 if hi == HIGH_ACE else 1
    top = HIGH_ACE if lo >= 2 and hi == HIGH_ACE else HAND_SIZE
    extra = size - (hi - lo + 1)
    grow_up = min(extra, top - hi)
    hi += grow_up
    lo -= extra - grow_up
    if lo < bottom:
        return None
    return lo, hi


def _wraps(places: Sequence[int], size: int) -> bool:
    """True when natural cards would fit only by running round the Ace (K-A-2)."""
    ps = sorted(set(places))
    if 1 not in ps or len(ps) < 2:
        return False
    gaps = [(b - a, i) for i, (a, b) in enumerate(zip(ps, ps[1:], strict=False))]
    widest, _ = max(gaps)
    circular = HAND_SIZE - widest + 1
    return circular <= size and widest > ps[0] + HAND_SIZE - ps[-1]


def classify(group: Iterable[Card | str], wild_rank: str | None) -> GroupKind:
    """IR-4: a pure sequence, an impure sequence, a set, or not a valid group (with the reason).

    A group that could be read both as a sequence and as a set counts as the sequence,
    since a sequence is worth more under IR-5 and IR-6.

    >>> classify(["AS", "2S", "3S"], "7").reason
    'pure sequence: three Spades in a row, Ace low (IR-4)'
    >>> classify(["KS", "AS", "2S"], "7").reason
    'not a valid group: K-A-2 runs round the Ace; an Ace is low (A-2-3) or high (Q-K-A), never both (IR-4)'
    >>> classify(["8S", "8H", "8S"], "7").reason
    'not a valid group: 8S twice; no two cards of a set may share a suit (IR-4)'
    >>> classify(["JK", "JK", "JK"], "7").reason
    'not a valid group: JK JK JK are all jokers; a group needs at least one natural card (IR-4)'
    >>> classify(["7C", "7H", "JK"], "7").reason
    'set: three 7s, the wild 7C 7H natural as their own rank, joker JK standing in for 7S (IR-4)'
    >>> classify(["7C", "7H", "7S"], "7").reason
    'set: three 7s, the wild 7C 7H 7S natural as their own rank (IR-4)'
    >>> classify(["9C", "9D", "JK", "4S"], "4").reason
    'set: four 9s, no suit twice, jokers JK 4S standing in for 9S 9H (IR-4)'
    """
    cards = as_cards(group)
    wild = wild_rank_of(wild_rank)
    size = len(cards)
    if size < 3:
        return _invalid(say("{cards}: a group needs at least three cards", cards=format_cards(cards)) if cards
                        else say("no cards: a group needs at least three cards"))
    # IR-2: the printed Jokers and every card of the wild rank (never JK once read) are jokers.
    jokers = [c for c in cards if c.rank == JOKER_RANK or c.rank == wild]
    naturals = [c for c in cards if c.rank != JOKER_RANK and c.rank != wild]
    if not naturals:
        return _without_naturals(cards, wild)

    # The sequence first: a group read both ways counts as the sequence (IR-5, IR-6).
    return (_pure_sequence(cards, wild) or _impure_sequence(naturals, jokers, size)
            or _one_rank_set(naturals, jokers, size) or _why_invalid(cards, naturals, jokers))


def _pure_sequence(cards: Sequence[Card], wild: str | None) -> GroupKind | None:
    """Pure: one suit, no printed Joker, every card (wild ones included) in its own place."""
    size = len(cards)
    if not any(c.is_joker for c in cards) and len({c.suit for c in cards}) == 1 and size <= HAND_SIZE:
        suit = SUIT_NAMES[cards[0].suit]
        for ace in (1, HIGH_ACE):
            places = sorted(ace if c.rank == "A" else LOW[c.rank] for c in cards)
            if _consecutive(places):
                own = [c for c in cards if c.rank == wild]
                kept = say(", the wild {card} in its own place", card=str(own[0])) if own else ""
                return GroupKind(PURE, say("pure sequence: {count} {suit} in a row{ace}{kept} (IR-4)",
                                           count=NUMBER_WORDS.get(size, size), suit=suit, ace=_ace_words(places),
                                           kept=kept))
    return None


def _impure_sequence(naturals: Sequence[Card], jokers: Sequence[Card], size: int) -> GroupKind | None:
    """Natural cards of one suit, no rank twice, with jokers filling a run of ``size``."""
    # IR-4 sets no limit on jokers in an impure sequence: one natural card is enough.
    if len({c.suit for c in naturals}) == 1 and len({c.rank for c in naturals}) == len(naturals):
        suit_letter = naturals[0].suit
        for ace in (1, HIGH_ACE):
            placed = [(ace if c.rank == "A" else LOW[c.rank], c) for c in naturals]
            window = _run_window(placed, size)
            if window is None:
                continue
            lo, hi = window
            taken = {p for p, _ in placed}
            missing = [f"{RANK_AT[p]}{suit_letter}" for p in range(lo, hi + 1) if p not in taken]
            first, last = f"{RANK_AT[lo]}{suit_letter}", f"{RANK_AT[hi]}{suit_letter}"
            return GroupKind(IMPURE, say("impure sequence: {first} to {last} in {suit}, {jokers} standing in for "
                                         "{missing} (IR-4)", first=first, last=last, suit=SUIT_NAMES[suit_letter],
                                         jokers=format_cards(jokers), missing=" ".join(missing)))
    return None


def _one_rank_set(naturals: Sequence[Card], jokers: Sequence[Card], size: int) -> GroupKind | None:
    """Three or four natural cards of one rank, no suit twice, jokers standing in for the rest."""
    suits = {c.suit for c in naturals}
    if len({c.rank for c in naturals}) == 1 and len(suits) == len(naturals) and size in (3, 4):
        rank = naturals[0].rank
        missing = [f"{rank}{s}" for s in SUITS if s not in suits][: len(jokers)]
        with_jokers = (say(", jokers {jokers} standing in for {missing}", jokers=format_cards(jokers),
                           missing=" ".join(missing)) if len(jokers) > 1 else
                       say(", joker {joker} standing in for {missing}", joker=str(jokers[0]), missing=missing[0])
                       if jokers else "")
        return GroupKind(SET, say("set: {count} {ranks}, no suit twice{jokers} (IR-4)",
                                  count=NUMBER_WORDS.get(size, size), ranks=_rank_plural(rank), jokers=with_jokers))
    return None


def _invalid(why: Text, rulings: str = "IR-4") -> GroupKind:
    return GroupKind(INVALID, say("not a valid group: {why} ({rulings})", why=why, rulings=rulings))


def _without_naturals(cards: Sequence[Card], wild: str | None) -> GroupKind:
    """IR-4 for a group of jokers only: a set of the wild rank, or not a valid group."""
    size = len(cards)
    # IR-2 makes every card of the wild rank a joker; IR-4: one standing as its own rank is a
    # natural card, in its own place in a run, and in a set of its own rank: with 7s wild,
    # 7C 7H JK is a set of sevens and 7C 7H 7S three natural sevens.
    own_rank = [c for c in cards if not c.is_joker and c.rank == wild]
    if own_rank and size in (3, 4):
        kept: list[Card] = []
        for c in own_rank:
            if c.suit not in {k.suit for k in kept}:
                kept.append(c)
        standing = list(cards)
        for c in kept:
            standing.remove(c)
        missing = [f"{wild}{s}" for s in SUITS if s not in {c.suit for c in kept}][: len(standing)]
        with_jokers = (say(", jokers {jokers} standing in for {missing}", jokers=format_cards(standing),
                           missing=" ".join(missing)) if len(standing) > 1 else
                       say(", joker {joker} standing in for {missing}", joker=format_cards(standing),
                           missing=" ".join(missing)) if standing else "")
        natural = (say("set: {count} {ranks}, the wild {cards} natural as its own rank{jokers} (IR-4)",
                       count=NUMBER_WORDS.get(size, size), ranks=_rank_plural(wild), cards=format_cards(kept),
                       jokers=with_jokers) if len(kept) == 1 else
                   say("set: {count} {ranks}, the wild {cards} natural as their own rank{jokers} (IR-4)",
                       count=NUMBER_WORDS.get(size, size), ranks=_rank_plural(wild), cards=format_cards(kept),
                       jokers=with_jokers))
        return GroupKind(SET, natural)
    if any(not c.is_joker for c in cards):
        return _invalid(say("{cards} are all jokers ({rank}s are wild); a group needs at least one natural card",
                            cards=format_cards(cards), rank=wild), "IR-2, IR-4")
    return _invalid(say("{cards} are all jokers; a group needs at least one natural card", cards=format_cards(cards)))


def _why_invalid(cards: Sequence[Card], naturals: Sequence[Card], jokers: Sequence[Card]) -> GroupKind:
    """IR-4: why some cards with natural ones among them make no valid group."""
    size = len(cards)
    suits = {c.suit for c in naturals}
    ranks = {c.rank for c in naturals}
    # Why not: the most helpful reason first.
    if len(suits) == 1:
        repeated = [c for c, n in Counter(naturals).items() if n > 1]
        if repeated:
            if len(ranks) == 1:
                return _invalid(say("{card} twice; no two cards of a set may share a suit", card=str(repeated[0])))
            return _invalid(say("{card} twice; a sequence uses each place once", card=str(repeated[0])))
        if size > HAND_SIZE:
            return _invalid(say("{size} cards; a sequence has at most {most}", size=size, most=HAND_SIZE))
        places = [LOW[c.rank] for c in naturals]
        if _wraps(places, size):
            return _invalid(say("{run} runs round the Ace; an Ace is low (A-2-3) or high (Q-K-A), never both",
                                run="-".join(c.rank for c in _wrap_order(naturals))))
        lo, hi = min(places), max(places)
        if "A" in ranks:
            hi_places = [HIGH_ACE if c.rank == "A" else LOW[c.rank] for c in naturals]
            lo, hi = min((lo, hi), (min(hi_places), max(hi_places)), key=lambda w: w[1] - w[0])
        needed = hi - lo + 1 - len(naturals)
        return _invalid(say_n("{first} to {last} needs {count} joker in between, and the group has {jokers}",
                              "{first} to {last} needs {count} jokers in between, and the group has {jokers}",
                              needed, first=f"{RANK_AT[lo]}{naturals[0].suit}",
                              last=f"{RANK_AT[hi]}{naturals[0].suit}", jokers=len(jokers)))
    if len(ranks) == 1:
        repeated = [c for c, n in Counter(c.suit for c in naturals).items() if n > 1]
        if size > 4:
            return _invalid(say("{size} cards; a set has three or four cards", size=size))
        same = [c for c in naturals if c.suit == repeated[0]]
        return _invalid(say("{card} twice; no two cards of a set may share a suit", card=str(same[0]))
                        if len(set(same)) == 1 else
                        say("{cards} share a suit; a set needs a different suit for each card",
                            cards=format_cards(same)))
    return _invalid(say("{cards} mixes suits and ranks: a sequence is one suit, a set is one rank",
                        cards=format_cards(cards)))


def _wrap_order(naturals: Sequence[Card]) -> list[Card]:
    """Cards of a K-A-2 style group in the order a player would read them round the Ace."""
    high = sorted((c for c in naturals if LOW[c.rank] >= 8), key=lambda c: LOW[c.rank])
    aces = [c for c in naturals if c.rank == "A"]
    low = sorted((c for c in naturals if 1 < LOW[c.rank] < 8), key=lambda c: LOW[c.rank])
    return high + aces + low


# ---------------------------------------------------------------------------------------
# IR-5: a declaration; IR-6: a count


@dataclass(frozen=True)
class Declaration:
    """IR-5 applied to some groups: valid or not, each group's kind, and why."""

    valid: bool
    kinds: tuple[GroupKind, ...]
    reasons: tuple[str, ...]
    cards: int
    sequences: int
    pure: int


def check_declaration(groups: Iterable[Iterable[Card | str]], wild_rank: str | None) -> Declaration:
    """IR-5: all 13 cards in valid groups, at least two sequences, at least one of them pure.

    >>> d = check_declaration([["3H", "4H", "5H", "6H"], ["JC", "7H", "QC"], ["QS", "QD", "QC"],
    ...                        ["9S", "9H", "9C"]], "7")
    >>> d.valid, [k.kind for k in d.kinds], d.reasons[-1]
    (True, ['pure', 'impure', 'set', 'set'], 'a valid declaration: 13 cards in groups, 2 sequences, 1 pure (IR-5)')
    >>> d = check_declaration([["3H", "4H", "5H", "6H"], ["JC", "KC", "QC"], ["QS", "QD", "QC"],
    ...                        ["9S", "9H", "9C"]], "7")
    >>> d.valid, d.reasons[-1]
    (True, 'a valid declaration: 13 cards in groups, 2 sequences, 2 pure (IR-5)')
    >>> d = check_declaration([["3H", "4H", "5H"], ["QS", "QD", "QC"], ["9S", "9H", "9C"], ["2D", "2S", "2C", "2H"]],
    ...                       "7")
    >>> d.valid, d.reasons
    (False, ('only 1 sequence; a declaration needs at least two (IR-5)',))
    """
    parsed = [as_cards(g) for g in groups]
    kinds = tuple(classify(g, wild_rank) for g in parsed)
    cards = sum(len(g) for g in parsed)
    sequences = sum(k.sequence for k in kinds)
    pure = sum(k.kind == PURE for k in kinds)
    reasons = []
    if cards != HAND_SIZE:
        reasons.append(say("{cards} cards in the groups; a declaration uses all {size} (IR-5)", cards=cards,
                           size=HAND_SIZE))
    for g, k in zip(parsed, kinds, strict=True):
        if not k.valid:
            reasons.append(say("{cards} is {reason}", cards=format_cards(g), reason=k.reason))
    if sequences < 2:
        reasons.append(say_n("only {count} sequence; a declaration needs at least two (IR-5)",
                             "only {count} sequences; a declaration needs at least two (IR-5)", sequences))
    if pure < 1:
        reasons.append(say("no pure sequence; a declaration needs at least one (IR-5)"))
    valid = not reasons
    if valid:
        reasons.append(say("a valid declaration: {cards} cards in groups, {sequences} sequences, {pure} pure (IR-5)",
                           cards=cards, sequences=sequences, pure=pure))
    return Declaration(valid, kinds, tuple(reasons), cards, sequences, pure)


@dataclass(frozen=True)
class Count:
    """IR-6 applied to one loser's groups and loose cards."""

    count: int
    raw: int
    lives: bool
    counted: tuple[Card, ...]
    kinds: tuple[GroupKind, ...]

    @property
    def capped(self) -> bool:
        return self.raw > self.count


def has_lives(kinds: Iterable[GroupKind]) -> bool:
    """IR-6: two sequences among the valid groups, at least one of them pure.

    >>> has_lives([GroupKind(PURE, ""), GroupKind(SET, ""), GroupKind(IMPURE, "")])
    True
    >>> has_lives([GroupKind(IMPURE, ""), GroupKind(IMPURE, "")])
    False
    """
    kinds = list(kinds)
    return sum(k.sequence for k in kinds) >= 2 and any(k.kind == PURE for k in kinds)


def count_detail(groups: Iterable[Iterable[Card | str]], loose: Iterable[Card | str],
                 wild_rank: str | None) -> Count:
    """IR-6 with its workings: which cards count, their value, and the cap.

    >>> c = count_detail([["4C", "5C", "6C"], ["8D", "9D", "JK"], ["KS", "KD", "KH"]], ["QD", "2H", "3S"], "5")
    >>> c.count, c.lives, format_cards(c.counted)
    (15, True, 'QD 2H 3S')
    >>> c = count_detail([["4C", "5C", "6C"], ["KS", "KD", "KH"]], ["QD", "2H", "3S", "JC", "JS", "10H", "9C"], "5")
    >>> c.count, c.raw, c.lives
    (80, 94, False)
    """
    parsed = [as_cards(g) for g in groups]
    spare = as_cards(loose)
    wild = wild_rank_of(wild_rank)
    kinds = tuple(classify(g, wild) for g in parsed)
    lives = has_lives(k for k in kinds if k.valid)
    if lives:
        counted = tuple(c for g, k in zip(parsed, kinds, strict=True) if not k.valid for c in g) + spare
    else:
        counted = tuple(c for g in parsed for c in g) + spare
    raw = hand_value(counted, wild)
    return Count(min(raw, CAP), raw, lives, counted, kinds)


def count(groups: Iterable[Iterable[Card | str]], loose: Iterable[Card | str], wild_rank: str | None) -> int:
    """IR-6: a loser's count from the groups they show and their loose cards.

    With two sequences (one pure) among the valid groups only the cards outside valid
    groups count; otherwise every card counts. The count is capped at 80.

    >>> count([["4C", "5C", "6C"], ["8D", "9D", "10D"]], ["KS", "QD", "2H", "3S", "5D", "9C", "JC"], "7")
    49
    >>> count([["4C", "5C", "6C"], ["QS", "QD", "QH"]], ["KS", "2H", "3S", "5D", "9C", "JC", "JK"], "7")
    80
    """
    return count_detail(groups, loose, wild_rank).count


# ---------------------------------------------------------------------------------------
# The lowest count for any hand


@dataclass(frozen=True)
class Arrangement:
    """The best arrangement of a hand under IR-6: groups, loose cards and the count.

    ``valid_declaration`` is true when every card is in a group and IR-5 holds (count 0).
    ``raw`` is the value of the counted cards before the cap; ``lives`` says whether the
    groups hold two sequences with a pure one (otherwise every card counts).
    """

    groups: tuple[tuple[Card, ...], ...]
    loose: tuple[Card, ...]
    count: int
    valid_declaration: bool
    kinds: tuple[GroupKind, ...] = ()
    raw: int = 0
    lives: bool = False


#: The lives the rest of a hand still needs, coded 3 * pure + sequences (pure 0 or 1,
#: sequences 0 to 2, never fewer sequences than pure ones). A hand starts needing both.
NEED_ALL = 3 * 1 + 2
#: What is still needed after a group: a set changes nothing; a sequence, or a pure one
#: not kept as the pure sequence, settles a sequence; a pure one kept pure settles both.
_AFTER_SET = tuple(range(6))
_AFTER_SEQ = tuple(3 * (n // 3) + max(n // 3, n % 3 - 1) for n in range(6))
_AFTER_PURE = tuple(max(0, n % 3 - 1) for n in range(6))
_INF = 1 << 30
_FIELD = 4  # bits per distinct card in a packed hand: a guard bit (8) over a count of 0 to 7
_GUARD = 8
_MAX_COPIES = 7
#: The solver lists runs of 3 to 5 places only. A run of 6 or more splits into a run of
#: its first three places and a run of the rest: the same natural cards and no more
#: jokers, one more sequence, a pure run splits into pure runs, and two runs have more
#: room for spare jokers than one. So the longer runs can never do better.
_LONGEST_RUN = 5


class _Group(NamedTuple):
    """A candidate group for the solver: the distinct cards it takes, and its jokers."""

    take: int  # packed counts of the distinct cards it uses
    jokers: int  # jokers it needs: the gaps in a run, and up to three cards in all
    after: tuple[int, ...]  # lives needed after it, by lives needed before
    pure: bool
    room: int  # jokers it could still take (IR-4: a set holds 4 cards at most, a run 13)
    run: bool
    places: tuple[tuple[int, int], ...]  # (place, distinct card); place 0 in a set


#: A run from its first card reaches at most _LONGEST_RUN - 1 places on, and needs at most
#: this many jokers: one card and two jokers, or two cards _LONGEST_RUN - 1 places apart.
_MOST_RUN_JOKERS = _LONGEST_RUN - 2


def _shapes_for(above: int, most: int) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """The runs a card can start, as (offsets of the natural cards taken, the first card at
    0, jokers, length): ``above`` has bit d - 1 set when the hand holds the card d places
    on, ``most`` is the jokers held. Listed as a depth-first walk finds them, the next
    card nearest first."""
    later = [d for d in range(1, _LONGEST_RUN) if above >> (d - 1) & 1]
    shapes: list[tuple[tuple[int, ...], int, int]] = []

    def grow(chosen: tuple[int, ...], gaps: int) -> None:
        # gaps: the jokers between the natural cards chosen so far (IR-4)
        last = chosen[-1]
        length = max(3, last + 1)
        if length - len(chosen) <= most:
            shapes.append((chosen, length - len(chosen), length))
        for d in later:
            if d > last:
                if gaps + d - last - 1 > most:
                    break
                grow(chosen + (d,), gaps + d - last - 1)

    grow((0,), 0)
    return tuple(shapes)


#: (cards held 1 to 4 places on, jokers held) -> the runs a card can start, each as (the
#: offsets of the cards after the first, jokers, room for more jokers, lives needed after
#: it): built once, since every hand's cards fall into these few patterns.
_RUN_SHAPES = {(above, most): tuple((offsets[1:], jokers, HAND_SIZE - length, _AFTER_SEQ if jokers else _AFTER_PURE)
                                    for offsets, jokers, length in _shapes_for(above, most))
               for above in range(1 << (_LONGEST_RUN - 1)) for most in range(_MOST_RUN_JOKERS + 1)}
#: The four places below the Ace high (K, Q, J, 10) from the bits of places 10 to 13.
_DOWN_FROM_ACE = [sum(1 << (3 - k) for k in range(4) if nibble >> k & 1) for nibble in range(16)]


def _check_copies(hand: Sequence[Card]) -> None:
    """The packed hand counts each distinct card in three bits: at most 7 copies."""
    # Eight copies of one card leave at most len(hand) - 7 different cards: most hands have more.
    if len(hand) <= _MAX_COPIES or len({c.rank + c.suit for c in hand}) > len(hand) - _MAX_COPIES:
        return
    held = Counter([(c.rank, c.suit) for c in hand])
    if any(n > _MAX_COPIES for (rank, _), n in held.items() if rank != JOKER_RANK):
        raise ValueError(f"the arranger takes at most {_MAX_COPIES} copies of a card")


#: Each rank's places in a run as bits: Ace low (1) and Ace high (14) both (IR-4).
_PLACE_BITS = {rank: 1 << place | (1 << HIGH_ACE if rank == "A" else 0) for rank, place in LOW.items()}


def _may_have_lives(hand: Sequence[Card], wild: str | None) -> bool:
    """IR-4, IR-6: False when no arrangement of the hand can give two sequences with a pure one.

    A pure sequence needs three cards of one suit in a row, printed Jokers aside (Ace low or
    high; wild cards count in their own place). Without any joker (no printed Joker, no card
    of the wild rank) both sequences are pure and share no card: they need two suits with a
    run, or six cards of one suit. Most hands dealt fail here, and skip the solver.
    """
    held = dict.fromkeys(SUITS, 0)  # suit -> the places held, as bits
    jokers = False
    for card in hand:
        rank = card.rank
        if rank == JOKER_RANK:
            jokers = True
            continue
        if rank == wild:
            jokers = True
        held[card.suit] |= _PLACE_BITS[rank]
    with_runs = [suit for suit, bits in held.items() if bits & bits >> 1 & bits >> 2]
    if not with_runs:
        return False
    return jokers or len(with_runs) > 1 or sum([card.suit == with_runs[0] for card in hand]) >= 6


#: The sets a card makes with the same rank in later suits, as the subsets of those (at most
#: three) cards, in the order of a bit mask counting up.
_SUBSETS = [[tuple(k for k in range(n) if mask >> k & 1) for mask in range(1, 1 << n)] for n in range(len(SUITS))]


def _more_cards_first(g: _Group) -> tuple[int, int]:
    return -len(g.places), g.jokers


class _Solver:
    """An exact search over the partitions of one hand into IR-4 groups.

    The hand is a multiset of distinct cards packed into one integer, four bits each (a
    guard bit over a count), so that "are these cards still there?" is one subtraction
    and one mask. Wild cards come first, then natural cards by suit and Ace-low rank.
    Each step decides the first card left: a wild card becomes a joker, or stands in its
    own place in a pure run; a natural card is loose, or the first card of a group made
    with cards after it (a run upwards in its suit, for an Ace also Q-K-A downwards, or a
    set with the same rank in later suits). Spare jokers are only a number. Results are
    memoised on (cards left, jokers in hand, lives still needed).
    """

    def __init__(self, hand: Sequence[Card], wild: str | None):
        self.printed = [c for c in hand if c.rank == JOKER_RANK]
        # The distinct cards as a player fans them (sort_cards), each with its copies (at most 7:
        # best_arrangement checks), taken from the Counter's items: a Card hashes with a call.
        fanned = sorted([(_FAN_PLACES[c.rank, c.suit], c, n) for c, n in Counter(hand).items() if c.rank != JOKER_RANK])
        wilds = [(c, n) for _, c, n in fanned if c.rank == wild]
        naturals = [(c, n) for _, c, n in fanned if c.rank != wild]
        self.fields: list[Card] = [c for c, _ in wilds] + [c for c, _ in naturals]
        self.first_natural = len(wilds)
        self.units = [1 << (_FIELD * i) for i in range(len(self.fields))]
        self.guard = _GUARD * sum(self.units)
        copies = [n for _, n in wilds] + [n for _, n in naturals]
        self.start = sum([(_GUARD + n) * u for n, u in zip(copies, self.units, strict=True)])
        self.values = [0] * len(wilds) + [VALUES[c.rank] for c, _ in naturals]
        self.jokers_held = len(hand) - sum([n for _, n in naturals])
        self.places: dict[str, dict[int, int]] = {suit: {} for suit in SUITS}
        self.by_rank: dict[str, list[int]] = {}
        for i in range(self.first_natural, len(self.fields)):
            card = self.fields[i]
            self.places[card.suit][LOW[card.rank]] = i  # an Ace sits at 1 and at 14
            if card.rank == "A":
                self.places[card.suit][HIGH_ACE] = i
            self.by_rank.setdefault(card.rank, []).append(i)
        # Each suit's places up to the King as bits, for the runs (the Ace high is read apart).
        self.held_bits = {suit: sum([1 << p for p in places if p <= HAND_SIZE]) for suit, places in self.places.items()}
        wild_runs = [self._wild_runs(i) for i in range(self.first_natural)]
        natural_runs = [self._runs_from(i) for i in range(self.first_natural, len(self.fields))]
        runs = [g for listed in wild_runs for g in listed] + [g for found in natural_runs for g in found.values()]
        self.pure_takes = [g.take for g in runs if g.pure]
        self.lives_possible = bool(self.pure_takes) and self._lives_possible(runs)
        # The sets matter only to the searches, which run only when lives are possible (IR-6).
        self.groups: list[list[_Group]] = wild_runs + [
            self._groups_from(i, found) if self.lives_possible else []
            for i, found in enumerate(natural_runs, self.first_natural)]
        self.least = self._least_loose()
        self.room = self._most_room()

    # -- candidate groups -----------------------------------------------------------------

    def _run(self, places: Sequence[tuple[int, int]]) -> _Group | None:
        low, high = min(places)[0], max(places)[0]
        span = high - low + 1
        length = span if span > 3 else 3
        jokers = length - len(places)
        if jokers > self.jokers_held or span > HAND_SIZE:
            return None
        units = self.units
        take = 0
        for _, i in places:
            take += units[i]
        pure = not jokers
        return _Group(take, jokers, _AFTER_PURE if pure else _AFTER_SEQ, pure, HAND_SIZE - length, True,
                      tuple(sorted(places)))

    def _wild_runs(self, i: int) -> list[_Group]:
        """Pure runs in which wild card ``i`` stands in its own place (IR-4)."""
        card = self.fields[i]
        places = self.places[card.suit]
        out = []
        for at in ([1, HIGH_ACE] if card.rank == "A" else [LOW[card.rank]]):
            for lo in range(max(1, at - _LONGEST_RUN + 1), at + 1):
                if any(p not in places for p in range(lo, at)):
                    continue
                for hi in range(at, min(HIGH_ACE, lo + _LONGEST_RUN - 1) + 1):
                    if hi > at and hi not in places:
                        break  # a wider window misses the same card
                    if hi - lo >= 2:
                        run = self._run([(at, i)] + [(p, places[p]) for p in range(lo, hi + 1) if p != at])
                        if run is not None:
                            out.append(run)
        return sorted(out, key=lambda g: -len(g.places))

    def _runs_from(self, i: int) -> dict[tuple[int, int], _Group]:
        """Every run whose first card, in the solver's order, is natural card ``i``, by
        (cards taken, jokers): upwards in its suit, and for an Ace also Q-K-A downwards."""
        card = self.fields[i]
        found: dict[tuple[int, int], _Group] = {}
        self._add_runs(found, i, LOW[card.rank], 1)
        if card.rank == "A":  # Ace high: read Q-K-A downwards from the top
            self._add_runs(found, i, HIGH_ACE, -1)
        return found

    def _add_runs(self, found: dict[tuple[int, int], _Group], i: int, start: int, step: int) -> None:
        """Add to ``found`` the runs of card ``i`` at place ``start`` with the cards of its
        suit ``step`` places apart, a run taking no card twice."""
        suit = self.fields[i].suit
        places = self.places[suit]  # the places past card i hold later cards of its suit
        held = self.held_bits[suit]
        above = (held >> (start + 1)) & 0b1111 if step > 0 else _DOWN_FROM_ACE[(held >> 10) & 0b1111]
        units = self.units
        for later, jokers, room, after in _RUN_SHAPES[above, min(self.jokers_held, _MOST_RUN_JOKERS)]:
            chosen = [(start, i)]
            take = units[i]
            for d in later:
                j = places[start + step * d]
                chosen.append((start + step * d, j))
                take += units[j]
            if (take, jokers) not in found:
                found[take, jokers] = _Group(take, jokers, after, not jokers, room, True, tuple(chosen))

    def _groups_from(self, i: int, found: dict[tuple[int, int], _Group]) -> list[_Group]:
        """Every group whose first card is natural card ``i``: its runs ``found``, and sets
        of it with the same rank in later suits, best first."""
        # One natural card with two jokers makes a run as well, which is worth more, so
        # sets start at two natural cards.
        same = [j for j in self.by_rank[self.fields[i].rank] if j > i]
        units, most = self.units, self.jokers_held
        for chosen in _SUBSETS[len(same)]:
            members = [i, *[same[k] for k in chosen]]
            jokers = max(0, 3 - len(members))
            if jokers <= most:
                take = units[i]
                for k in chosen:
                    take += units[same[k]]
                if (take, jokers) not in found:
                    found[take, jokers] = _Group(take, jokers, _AFTER_SET, False, 4 - max(3, len(members)), False,
                                                 tuple([(0, j) for j in members]))
        # Groups with more natural cards first: a count of 0 then turns up sooner.
        if len(found) < 2:
            return list(found.values())
        return sorted(found.values(), key=_more_cards_first)

    def _lives_possible(self, runs: list[_Group]) -> bool:
        """IR-6: whether any two sequences, one of them pure, fit in the hand at all."""
        pure = [g for g in runs if g.pure]
        guard, wild_units = self.guard, self.units[: self.first_natural]
        for p in pure:
            rest = self.start - p.take
            for r in runs:
                left = rest - r.take
                if left & guard == guard:  # the same run twice, when the cards are there twice
                    spare = sum((left // u) % _GUARD for u in wild_units) + len(self.printed)
                    if r.jokers <= spare:
                        return True
        return False

    def first(self, state: int) -> int:
        raw = state - self.guard
        return ((raw & -raw).bit_length() - 1) // _FIELD

    # -- the two searches -----------------------------------------------------------------

    def _least_loose(self):
        """best(cards left, jokers, need, limit): the least value of loose natural cards
        (IR-6) such that the groups still give the lives needed; _INF when they cannot.

        A branch-and-bound search: an answer below ``limit`` is exact; otherwise the answer
        is only ``limit``, a lower bound. The memo remembers which of the two it holds.
        """
        memo: dict[int, tuple[int, bool]] = {}
        guard, units, values, wild_end = self.guard, self.units, self.values, self.first_natural
        groups, pure_takes = self.groups, self.pure_takes

        def best(state: int, jokers: int, need: int, limit: int = _INF) -> int:
            key = (state << 10) | (jokers << 3) | need
            known = memo.get(key)
            if known is not None and (known[1] or known[0] >= limit):
                return known[0]
            raw = state - guard
            if not raw:
                found = _INF if need else 0
                memo[key] = (found, True)
                return found
            if need >= 3:  # a pure sequence is still needed: is one still there?
                for take in pure_takes:
                    if (state - take) & guard == guard:
                        break
                else:
                    memo[key] = (_INF, True)
                    return _INF
            i = ((raw & -raw).bit_length() - 1) // _FIELD
            found = limit  # the best exact answer so far; only answers below it matter
            if i < wild_end:
                found = best(state - units[i], jokers + 1, need, found)  # a joker, spare or standing in
                for take, _, after, _, _, _, _ in groups[i]:
                    if not found:
                        break
                    left = state - take
                    if left & guard == guard:
                        value = best(left, jokers, after[need], found)
                        if value < found:
                            found = value
            else:
                for take, used, after, _, _, _, _ in groups[i]:
                    if used <= jokers:
                        left = state - take
                        if left & guard == guard:
                            value = best(left, jokers - used, after[need], found)
                            if value < found:
                                found = value
                                if not found:
                                    break
                value = values[i]
                if value < found:  # loose: only worth trying when it could be better
                    value += best(state - units[i], jokers, need, found - value)
                    if value < found:
                        found = value
            exact = found < limit
            memo[key] = (found if exact else limit, exact)
            return found if exact else limit

        return best

    def _most_room(self):
        """best(cards left, jokers, need, enough): with every natural card in a group and
        the lives needed, the most room left for jokers (room in the groups minus jokers
        left over), or -_INF when impossible. A declaration exists when this is 0 or more.

        The search stops as soon as it has ``enough``: the answer is then at least
        ``enough`` but may be less than the most; below ``enough`` it is exact.
        """
        memo: dict[int, tuple[int, bool]] = {}
        guard, units, groups, wild_end = self.guard, self.units, self.groups, self.first_natural

        def best(state: int, jokers: int, need: int, enough: int) -> int:
            key = (state << 10) | (jokers << 3) | need
            known = memo.get(key)
            if known is not None and (known[1] or known[0] >= enough):
                return known[0]
            raw = state - guard
            if not raw:
                memo[key] = (-_INF if need else -jokers, True)
                return memo[key][0]
            i = ((raw & -raw).bit_length() - 1) // _FIELD
            found = best(state - units[i], jokers + 1, need, enough) if i < wild_end else -_INF
            exact = found < enough
            if exact:
                for take, used, after, pure, room, _, _ in groups[i]:
                    if used <= jokers:
                        left = state - take
                        if left & guard == guard:
                            rest = jokers - used
                            if pure and need >= 3:  # kept as the pure sequence: it takes no jokers
                                value = best(left, rest, after[need], enough)
                                if value > found:
                                    found = value
                                    if found >= enough:
                                        exact = False
                                        break
                            value = room + best(left, rest, _AFTER_SEQ[need] if pure else after[need], enough - room)
                            if value > found:
                                found = value
                                if found >= enough:
                                    exact = False
                                    break
            memo[key] = (found, exact)
            return found

        return best

    # -- the arrangement ------------------------------------------------------------------

    def follow(self, declaring: bool) -> tuple[list[tuple[_Group, bool]], list[Card], list[Card], int]:
        """Walk one best path from the start: the groups (each with whether it is kept as the
        pure sequence), the loose natural cards, the wild cards used as jokers, and how many
        jokers are left over."""
        state, jokers, need = self.start, len(self.printed), NEED_ALL
        if declaring:
            target = self.room(state, jokers, need, 0)

            def reach(s: int, j: int, n: int, at_least: int) -> bool:
                return self.room(s, j, n, at_least) >= at_least
        else:
            target = self.least(state, jokers, need)

            def reach(s: int, j: int, n: int, at_most: int) -> bool:
                return self.least(s, j, n, at_most + 1) <= at_most
        chosen: list[tuple[_Group, bool]] = []
        loose: list[Card] = []
        spare: list[Card] = []
        while state != self.guard:
            i = self.first(state)
            if i < self.first_natural and reach(state - self.units[i], jokers + 1, need, target):
                spare.append(self.fields[i])
                state, jokers = state - self.units[i], jokers + 1
                continue
            step = None
            for g in self.groups[i]:
                left = state - g.take
                if g.jokers > jokers or left & self.guard != self.guard:
                    continue
                rest = jokers - g.jokers
                if declaring:
                    options = [(g.after[need], True, 0)] if g.pure and need >= 3 else []
                    options.append((_AFTER_SEQ[need] if g.pure else g.after[need], False, g.room))
                else:
                    options = [(g.after[need], g.pure and need >= 3, 0)]
                for after, kept, room in options:
                    if reach(left, rest, after, target - room):
                        step = (g, kept, left, rest, after, target - room)
                        break
                if step:
                    break
            if step:
                g, kept, state, jokers, need, target = step
                chosen.append((g, kept))
            else:  # loose (never when declaring)
                loose.append(self.fields[i])
                state, target = state - self.units[i], target - self.values[i]
        return chosen, loose, spare, jokers

    def cards_of(self, g: _Group, jokers: list[Card]) -> tuple[Card, ...]:
        """The cards of a group in the order a player lays them, jokers in their places."""
        if not g.run:
            return tuple(self.fields[i] for _, i in g.places) + tuple(jokers)
        at = {p: self.fields[i] for p, i in g.places}
        lo, hi = _run_window(list(at.items()), len(at) + len(jokers))  # as classify() reads it
        spare = iter(jokers)
        return tuple(at[p] if p in at else next(spare) for p in range(lo, hi + 1))


def best_arrangement(cards: Iterable[Card | str], wild_rank: str | None) -> Arrangement:
    """IR-6: the arrangement of a hand with the lowest count, found by exact search.

    A valid declaration (IR-5) is preferred whenever one exists; its count is 0. Any
    number of cards and jokers may be given (IR-6 is then applied to the cards given).

    >>> best = best_arrangement(["AH", "2H", "3H", "5S", "6S", "JK", "8S", "QC", "QD", "QS", "9H", "10H", "2C"],
    ...                         "7")
    >>> best.count, [format_cards(g) for g in best.groups], format_cards(best.loose)
    (21, ['AH 2H 3H', '5S 6S JK 8S', 'QS QD QC'], '9H 10H 2C')

    With 7s wild, the 7s stand in where runs lack a card:

    >>> best = best_arrangement(["AS", "2S", "3S", "2D", "3D", "7D", "5D", "9H", "10H", "7S", "QH", "KH", "7C"], "7")
    >>> best.valid_declaration, best.count, [format_cards(g) for g in best.groups]
    (True, 0, ['AS 2S 3S', '7S 9H 10H 7D QH KH', '2D 3D 7C 5D'])
    >>> best.kinds[1].reason
    'impure sequence: 8H to KH in Hearts, 7S 7D standing in for 8H JH (IR-4)'
    """
    hand = as_cards(cards)
    wild = wild_rank_of(wild_rank)
    total = hand_value(hand, wild)
    _check_copies(hand)
    if _may_have_lives(hand, wild):
        solver = _Solver(hand, wild)
        least = solver.least(solver.start, len(solver.printed), NEED_ALL) if solver.lives_possible else _INF
    else:  # most hands dealt: the solver could only find no lives (IR-6)
        least = _INF
    if least >= _INF:  # no two sequences with a pure one: every card counts (IR-6)
        return Arrangement((), sort_cards(hand), min(total, CAP), False, (), total, False)
    chosen, loose, spare_wilds, left = solver.follow(False)
    if least == 0 and left > sum(g.room for g, kept in chosen if not kept):
        # Every natural card is in a group but spare jokers are left over: look for the
        # arrangement with the most room for them, a declaration when there is one (IR-5).
        chosen, loose, spare_wilds, left = solver.follow(True)

    pool = list(solver.printed) + spare_wilds
    groups = []
    for g, kept in chosen:
        add = 0 if kept else min(left, g.room)  # never into the sequence kept pure (IR-4)
        left -= add
        take, pool = pool[: g.jokers + add], pool[g.jokers + add:]
        groups.append(solver.cards_of(g, take))
    loose_cards = sort_cards(loose) + tuple(pool)
    kinds = [classify(g, wild) for g in groups]
    order = sorted(range(len(groups)), key=lambda k: ([PURE, IMPURE, SET].index(kinds[k].kind), k))
    raw = hand_value(loose_cards, wild)
    valid = not loose_cards and len(hand) == HAND_SIZE
    return Arrangement(tuple(groups[k] for k in order), loose_cards, min(raw, CAP), valid,
                       tuple(kinds[k] for k in order), raw, True)


__all__ = ["CAP", "HAND_SIZE", "IMPURE", "INVALID", "KIND_NAMES", "PURE", "SET", "Arrangement", "Count", "Declaration",
           "GroupKind", "as_card", "as_cards", "best_arrangement", "card_value", "check_declaration", "classify",
           "count", "count_detail", "has_lives", "hand_value", "is_joker", "sort_cards", "wild_rank_of"]
