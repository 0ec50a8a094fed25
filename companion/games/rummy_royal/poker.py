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
_NAME = {2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight", 9: "Nine",
         10: "Ten", 11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}
_PLURAL = {6: "Sixes"}
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


def plural(value: int) -> str:
    """A rank's name in the plural: Kings, Sixes, Aces.

    >>> plural(13), plural(6), plural(10)
    ('Kings', 'Sixes', 'Tens')
    """
    return _PLURAL.get(value, _NAME[value] + "s")


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
    def words(self) -> str:
        """The hand as a player says it.

        >>> best_five(["9H", "9S", "9D", "4C", "4H"]).words
        'a full house, Nines full of Fours'
        >>> best_five(["AH", "2S", "3D", "4C", "5H"]).words
        'a straight, Five high (the wheel: the Ace plays low)'
        """
        return _words(self.rank, self.key)


@lru_cache(maxsize=4096)  # said of every player's hand in every pot, and a night deals the same few ranks
def _words(rank: str, k: tuple[int, ...]) -> str:
    """:attr:`Best.words` for a hand of ``rank`` ordered by the key ``k``."""
    if rank in ("straight flush", "straight"):
        wheel = " (the wheel: the Ace plays low)" if k[0] == 5 else ""
        return f"a {rank}, {_NAME[k[0]]} high{wheel}"
    if rank == "four of a kind":
        return f"four {plural(k[0])}, kicker {short(k[1])}"
    if rank == "full house":
        return f"a full house, {plural(k[0])} full of {plural(k[1])}"
    if rank == "flush":
        return f"a flush, {' '.join(short(v) for v in k)}"
    if rank == "three of a kind":
        return f"three {plural(k[0])}, kickers {short(k[1])} {short(k[2])}"
    if rank == "two pair":
        return f"two pair, {plural(k[0])} and {plural(k[1])}, kicker {short(k[2])}"
    if rank == "one pair":
        return f"a pair of {plural(k[0])}, kickers {' '.join(short(v) for v in k[1:])}"
    return f"{_NAME[k[0]]} high, {' '.join(short(v) for v in k)}"


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


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _shared(rank: str, key: tuple[int, ...], upto: int) -> str:
    """What two hands of one rank have in common before they part at place ``upto``."""
    if upto == 0:
        return ""
    k = key
    if rank == "two pair":
        return f", {plural(k[0])} and {plural(k[1])}" if upto >= 2 else f", {plural(k[0])} high"
    if rank == "one pair":
        return f" of {plural(k[0])}" + (f" with {' '.join(short(v) for v in k[1:upto])}" if upto > 1 else "")
    if rank == "three of a kind":
        return f", {plural(k[0])}" + (f" with {short(k[1])}" if upto > 1 else "")
    if rank == "four of a kind":
        return f", {plural(k[0])}"
    if rank == "full house":
        return f", {plural(k[0])} full"
    return f", {' '.join(short(v) for v in k[:upto])}"


def compare(winner: str, a: Best, loser: str, b: Best) -> str:
    """Why ``a`` (``winner``'s) beats ``b`` (``loser``'s), in one sentence.

    >>> compare("Ann", best_five(["AS", "AD", "AH", "2C", "3C"]), "Ben", best_five(["KS", "KD", "QH", "QC", "3D"]))
    "Ann's three of a kind beats Ben's two pair: three of a kind ranks above two pair (RM-9)"
    """
    if a.rank != b.rank:
        return f"{winner}'s {a.rank} beats {loser}'s {b.rank}: {_a(a.rank)} ranks above {_a(b.rank)} (RM-9)"
    place = next(i for i, (x, y) in enumerate(zip(a.key, b.key, strict=True)) if x != y)
    part = _PARTS[a.rank][place]
    x, y = a.key[place], b.key[place]
    if part in ("three", "four", "pair", "higher pair", "lower pair"):
        tail = f"{winner}'s {part}, {plural(x)}, beats {loser}'s {plural(y)}"
    else:
        tail = f"{winner}'s {part} {short(x)} beats {loser}'s {short(y)}"
    return f"both {_BOTH.get(a.rank, a.rank)}{_shared(a.rank, a.key, place)}; {tail} (RM-9)"


def _a(rank: str) -> str:
    """A rank's name with its article: "a flush", "two pair"."""
    return _BOTH.get(rank, rank)


_BOTH = {"one pair": "a pair", "flush": "a flush", "straight": "a straight", "straight flush": "a straight flush",
         "full house": "a full house"}


def judge(hands: Mapping[str, Sequence[str]]) -> tuple[list[str], list[str]]:
    """RM-9: the winner or winners among the players' cards (already checked), and why.

    >>> judge({"Ann": ["AH", "KH", "9H", "7H", "3H"], "Ben": ["AD", "KD", "9D", "7D", "3D"]})[1][-1]
    'Ann and Ben share it: both a flush, A K 9 7 3; suits never break a tie (RM-9)'
    """
    best = {name: best_five(cards) for name, cards in hands.items()}
    return decide(best)


def decide(best: Mapping[str, Best]) -> tuple[list[str], list[str]]:
    """The winners among best fives already found, and the lines that say why."""
    lines = [f"{name}: {' '.join(b.cards)}, {b.words} (RM-9)" for name, b in best.items()]
    top = max(b.strength for b in best.values())
    winners = [name for name, b in best.items() if b.strength == top]
    if len(best) == 1:
        lines.append(f"{winners[0]} is the only player left in, and wins (RM-5)")
        return winners, lines
    losers = [name for name in best if name not in winners]
    if len(winners) > 1:
        lines.append(f"{_names(winners)} share it: both {_article(best[winners[0]])}; "
                     "suits never break a tie (RM-9)" if len(winners) == 2 else
                     f"{_names(winners)} share it: each has {_article(best[winners[0]])}; "
                     "suits never break a tie (RM-9)")
        return winners, lines
    w = winners[0]
    closest = max(best[name].strength for name in losers)
    runner = next(name for name in losers if best[name].strength == closest)
    lines.append(f"{w} wins: {compare(w, best[w], runner, best[runner])}")
    return winners, lines


def _article(b: Best) -> str:
    """A hand for "both ...": the words without the kickers' label when they are the whole hand."""
    if b.rank in ("flush", "high card"):
        return f"{'a flush' if b.rank == 'flush' else 'high card'}, {' '.join(short(v) for v in b.key)}"
    return b.words


__all__ = ["RANKS_HIGH_FIRST", "Best", "best_five", "compare", "decide", "judge"]
