"""The poker stage's hand judge (RM-9): each player's best five cards, and who wins, in words.

Which five cards are best, and which hand beats which, is pokerkit's work (its
standard high hands: an Ace plays high or low in a straight, suits never break a
tie, no wild cards). What is Courtier's own is the explanation: the rank of each
hand named the way players say it, and where two hands part.

>>> best = best_five(["AS", "KS", "QS", "JS", "10S", "2D"])
>>> best.rank, best.cards, best.words
('straight flush', ('AS', 'KS', 'QS', 'JS', '10S'), 'a straight flush, Ace high')
>>> winners, lines = judge({"Ann": ["KH", "KD", "QS", "QC", "7H"], "Ben": ["KS", "KC", "QH", "QD", "9S"]})
>>> winners
['Ben']
>>> lines[-1]
"Ben wins: both two pair, Kings and Queens; Ben's kicker 9 beats Ann's 7 (RM-9)"
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from pokerkit import StandardHighHand

from ...core.messages import Listed, Text, say

#: RM-9, highest first: the rank names as the answer spells them.
RANKS_HIGH_FIRST = (
    "straight flush", "four of a kind", "full house", "flush", "straight",
    "three of a kind", "two pair", "one pair", "high card",
)
#: pokerkit's labels, to the names above.
_LABELS = {
    "Straight flush": "straight flush", "Four of a kind": "four of a kind", "Full house": "full house",
    "Flush": "flush", "Straight": "straight", "Three of a kind": "three of a kind", "Two pair": "two pair",
    "One pair": "one pair", "High card": "high card",
}
_ORDER = "23456789TJQKA"
_VALUE = {r: i + 2 for i, r in enumerate(_ORDER)}
_NAME = {2: say("Two"), 3: say("Three"), 4: say("Four"), 5: say("Five"), 6: say("Six"), 7: say("Seven"),
         8: say("Eight"), 9: say("Nine"), 10: say("Ten"), 11: say("Jack"), 12: say("Queen"), 13: say("King"),
         14: say("Ace")}
_PLURAL = {2: say("Twos"), 3: say("Threes"), 4: say("Fours"), 5: say("Fives"), 6: say("Sixes"), 7: say("Sevens"),
           8: say("Eights"), 9: say("Nines"), 10: say("Tens"), 11: say("Jacks"), 12: say("Queens"), 13: say("Kings"),
           14: say("Aces")}
#: The ranks of RM-9 as a sentence names them, and with the article a sentence gives them ("a flush").
RANK_WORDS = {"straight flush": say("straight flush"), "four of a kind": say("four of a kind"),
              "full house": say("full house"), "flush": say("flush"), "straight": say("straight"),
              "three of a kind": say("three of a kind"), "two pair": say("two pair"), "one pair": say("one pair"),
              "high card": say("high card")}
#: What each place of a hand's ranking key is called, in words.
PART_WORDS = {"top card": say("top card"), "four": say("four"), "kicker": say("kicker"), "three": say("three"),
              "pair": say("pair"), "highest card": say("highest card"), "second card": say("second card"),
              "third card": say("third card"), "fourth card": say("fourth card"), "fifth card": say("fifth card"),
              "second kicker": say("second kicker"), "third kicker": say("third kicker"),
              "higher pair": say("higher pair"), "lower pair": say("lower pair")}
_SHORT = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
#: What each place of a hand's ranking key is called, by rank (for "Ben's kicker 9 beats Ann's 7").
_PARTS = {
    "straight flush": ("top card",), "straight": ("top card",),
    "four of a kind": ("four", "kicker"),
    "full house": ("three", "pair"),
    "flush": ("highest card", "second card", "third card", "fourth card", "fifth card"),
    "high card": ("highest card", "second card", "third card", "fourth card", "fifth card"),
    "three of a kind": ("three", "kicker", "second kicker"),
    "two pair": ("higher pair", "lower pair", "kicker"),
    "one pair": ("pair", "kicker", "second kicker", "third kicker"),
}


def plural(value: int) -> Text:
    """A rank's name in the plural: Kings, Sixes, Aces.

    >>> plural(13), plural(6), plural(10)
    ('Kings', 'Sixes', 'Tens')
    """
    return _PLURAL[value]


def short(value: int) -> str:
    """A rank as it is printed on the card: 9, 10, J, Q, K, A."""
    return _SHORT.get(value, str(value))


@dataclass(frozen=True)
class Best:
    """A player's best five cards, their rank and the key that orders hands of one rank."""

    cards: tuple[str, ...]
    rank: str
    key: tuple[int, ...]
    strength: int  # pokerkit's: higher is better, equal is a tie

    @property
    def order(self) -> int:
        """The rank's place in RM-9's list, 0 for a straight flush."""
        return RANKS_HIGH_FIRST.index(self.rank)

    @property
    def words(self) -> Text:
        """The hand as a player says it.

        >>> best_five(["9H", "9S", "9D", "4C", "4H"]).words
        'a full house, Nines full of Fours'
        >>> best_five(["AH", "2S", "3D", "4C", "5H"]).words
        'a straight, Five high (the wheel: the Ace plays low)'
        """
        return _words(self.rank, self.key)


@lru_cache(maxsize=4096)  # said of every player's hand in every pot, and a night deals the same few ranks
def _words(rank: str, k: tuple[int, ...]) -> Text:
    """:attr:`Best.words` for a hand of ``rank`` ordered by the key ``k``."""
    if rank == "straight flush":
        return (say("a straight flush, {card} high (the wheel: the Ace plays low)", card=_NAME[k[0]]) if k[0] == 5
                else say("a straight flush, {card} high", card=_NAME[k[0]]))
    if rank == "straight":
        return (say("a straight, {card} high (the wheel: the Ace plays low)", card=_NAME[k[0]]) if k[0] == 5
                else say("a straight, {card} high", card=_NAME[k[0]]))
    if rank == "four of a kind":
        return say("four {ranks}, kicker {card}", ranks=plural(k[0]), card=short(k[1]))
    if rank == "full house":
        return say("a full house, {ranks} full of {others}", ranks=plural(k[0]), others=plural(k[1]))
    if rank == "flush":
        return say("a flush, {cards}", cards=" ".join(short(v) for v in k))
    if rank == "three of a kind":
        return say("three {ranks}, kickers {cards}", ranks=plural(k[0]), cards=f"{short(k[1])} {short(k[2])}")
    if rank == "two pair":
        return say("two pair, {ranks} and {others}, kicker {card}", ranks=plural(k[0]), others=plural(k[1]),
                   card=short(k[2]))
    if rank == "one pair":
        return say("a pair of {ranks}, kickers {cards}", ranks=plural(k[0]), cards=" ".join(short(v) for v in k[1:]))
    return say("{card} high, {cards}", card=_NAME[k[0]], cards=" ".join(short(v) for v in k))


def _key(rank: str, values: Sequence[int]) -> tuple[int, ...]:
    """The ranks of five cards in the order that compares two hands of one rank."""
    counts = Counter(values)
    grouped = sorted(counts, key=lambda v: (counts[v], v), reverse=True)
    if rank in ("straight flush", "straight"):
        top = max(values)
        return (5,) if set(values) == {14, 2, 3, 4, 5} else (top,)
    if rank in ("flush", "high card"):
        return tuple(sorted(values, reverse=True))
    return tuple(grouped)


def _text(card) -> str:
    """pokerkit's card (``Ts``) in Courtier's notation (``10S``)."""
    rank = card.rank.value
    return ("10" if rank == "T" else rank) + card.suit.value.upper()


def best_five(cards: Sequence[str]) -> Best:
    """The best five of five or more cards, already checked (canonical, no repeats).

    A table's game is scored again after every entry, with the same hands: the answer for a
    set of cards is remembered (the order they were given in does not matter).

    >>> best_five(["2C", "3D", "4H", "5S", "AC", "KD", "KS"]).words
    'a straight, Five high (the wheel: the Ace plays low)'
    """
    best, runs = _best_five(tuple(sorted(cards)))
    if len(runs) == len(best.cards):
        return best  # every card has a place of its own
    given = {c: i for i, c in enumerate(cards)}
    # equal cards (a pair's, a three's) in the order the player gave them
    shown = [c for run in runs for c in (run if len(run) == 1 else sorted(run, key=given.__getitem__))]
    return Best(tuple(shown), best.rank, best.key, best.strength)


@lru_cache(maxsize=4096)
def _best_five(cards: tuple[str, ...]) -> tuple[Best, tuple[tuple[str, ...], ...]]:
    """The best five of sorted cards, in the order they are shown, and the runs of cards that share a
    place there (the cards of a pair, of a three), for :func:`best_five` to order as they were given."""
    text = "".join(("T" if c[:-1] == "10" else c[:-1]) + c[-1].lower() for c in cards)
    hand = StandardHighHand.from_game(text)
    rank = _LABELS[hand.entry.label.value]
    values = [_VALUE[c.rank.value] for c in hand.cards]
    key = _key(rank, values)
    places = {c: _place(rank, key, _VALUE[c.rank.value]) for c in hand.cards}
    shown = sorted(hand.cards, key=places.__getitem__)
    runs: list[list[str]] = []
    for i, card in enumerate(shown):
        if i and places[card] == places[shown[i - 1]]:
            runs[-1].append(_text(card))
        else:
            runs.append([_text(card)])
    best = Best(tuple(_text(c) for c in shown), rank, key, hand.entry.index)
    return best, tuple(tuple(run) for run in runs)


def _place(rank: str, key: tuple[int, ...], value: int) -> tuple[int, int]:
    """Where a card is shown in a best five: the groups first, high to low; the wheel's Ace last."""
    if rank in ("straight flush", "straight") and key == (5,):
        return (0, -(1 if value == 14 else value))
    if rank not in ("flush", "high card", "straight flush", "straight"):
        return (key.index(value), 0)
    return (0, -value)


def _names(names: Sequence[str]) -> Listed:
    return Listed(names)


def _shared(rank: str, key: tuple[int, ...], upto: int) -> Text:
    """Both hands of one rank, and what they have in common before they part at place ``upto``."""
    k, a = key, _a(rank)
    if upto == 0:
        return a
    if rank == "two pair":
        return (say("two pair, {ranks} and {others}", ranks=plural(k[0]), others=plural(k[1])) if upto >= 2 else
                say("two pair, {ranks} high", ranks=plural(k[0])))
    if rank == "one pair":
        return (say("a pair of {ranks} with {cards}", ranks=plural(k[0]), cards=" ".join(short(v) for v in k[1:upto]))
                if upto > 1 else say("a pair of {ranks}", ranks=plural(k[0])))
    if rank == "three of a kind":
        return (say("three of a kind, {ranks} with {card}", ranks=plural(k[0]), card=short(k[1])) if upto > 1 else
                say("three of a kind, {ranks}", ranks=plural(k[0])))
    if rank == "four of a kind":
        return say("four of a kind, {ranks}", ranks=plural(k[0]))
    if rank == "full house":
        return say("a full house, {ranks} full", ranks=plural(k[0]))
    return say("{hand}, {cards}", hand=a, cards=" ".join(short(v) for v in k[:upto]))


def compare(winner: str, a: Best, loser: str, b: Best) -> Text:
    """Why ``a`` (``winner``'s) beats ``b`` (``loser``'s), in one sentence.

    >>> compare("Ann", best_five(["AS", "AD", "AH", "2C", "3C"]), "Ben", best_five(["KS", "KD", "QH", "QC", "3D"]))
    "Ann's three of a kind beats Ben's two pair: three of a kind ranks above two pair (RM-9)"
    """
    if a.rank != b.rank:
        return say("{winner}'s {rank} beats {loser}'s {other}: {a_rank} ranks above {an_other} (RM-9)", winner=winner,
                   rank=RANK_WORDS[a.rank], loser=loser, other=RANK_WORDS[b.rank], a_rank=_a(a.rank),
                   an_other=_a(b.rank))
    place = next(i for i, (x, y) in enumerate(zip(a.key, b.key, strict=True)) if x != y)
    part = _PARTS[a.rank][place]
    x, y = a.key[place], b.key[place]
    if part in ("three", "four", "pair", "higher pair", "lower pair"):
        tail = say("{winner}'s {part}, {ranks}, beats {loser}'s {others}", winner=winner, part=PART_WORDS[part],
                   ranks=plural(x), loser=loser, others=plural(y))
    else:
        tail = say("{winner}'s {part} {card} beats {loser}'s {other}", winner=winner, part=PART_WORDS[part],
                   card=short(x), loser=loser, other=short(y))
    return say("both {hand}; {why} (RM-9)", hand=_shared(a.rank, a.key, place), why=tail)


def _a(rank: str) -> Text:
    """A rank's name with its article: "a flush", "two pair"."""
    return _BOTH.get(rank) or RANK_WORDS[rank]


_BOTH = {"one pair": say("a pair"), "flush": say("a flush"), "straight": say("a straight"),
         "straight flush": say("a straight flush"), "full house": say("a full house")}


def judge(hands: Mapping[str, Sequence[str]]) -> tuple[list[str], list[Text]]:
    """RM-9: the winner or winners among the players' cards (already checked), and why.

    >>> judge({"Ann": ["AH", "KH", "9H", "7H", "3H"], "Ben": ["AD", "KD", "9D", "7D", "3D"]})[1][-1]
    'Ann and Ben share it: both a flush, A K 9 7 3; suits never break a tie (RM-9)'
    """
    best = {name: best_five(cards) for name, cards in hands.items()}
    return decide(best)


def decide(best: Mapping[str, Best]) -> tuple[list[str], list[Text]]:
    """The winners among best fives already found, and the lines that say why."""
    lines = [say("{name}: {cards}, {hand} (RM-9)", name=name, cards=" ".join(b.cards), hand=b.words)
             for name, b in best.items()]
    top = max(b.strength for b in best.values())
    winners = [name for name, b in best.items() if b.strength == top]
    if len(best) == 1:
        lines.append(say("{name} is the only player left in, and wins (RM-5)", name=winners[0]))
        return winners, lines
    losers = [name for name in best if name not in winners]
    if len(winners) > 1:
        lines.append(say("{names} share it: both {hand}; suits never break a tie (RM-9)", names=_names(winners),
                         hand=_article(best[winners[0]])) if len(winners) == 2 else
                     say("{names} share it: each has {hand}; suits never break a tie (RM-9)", names=_names(winners),
                         hand=_article(best[winners[0]])))
        return winners, lines
    w = winners[0]
    closest = max(best[name].strength for name in losers)
    runner = next(name for name in losers if best[name].strength == closest)
    lines.append(say("{name} wins: {why}", name=w, why=compare(w, best[w], runner, best[runner])))
    return winners, lines


def _article(b: Best) -> Text:
    """A hand for "both ...": the words without the kickers' label when they are the whole hand."""
    if b.rank in ("flush", "high card"):
        return say("{hand}, {cards}", hand=say("a flush") if b.rank == "flush" else say("high card"),
                   cards=" ".join(short(v) for v in b.key))
    return b.words


__all__ = ["RANKS_HIGH_FIRST", "Best", "best_five", "compare", "decide", "judge"]
