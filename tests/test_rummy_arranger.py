"""The Indian Rummy arranger (companion/games/indian_rummy/arranger.py) against a plain brute force.

The brute force below is written from RULINGS.md IR-2 to IR-6 on its own: it reads a
group by trying every window of places a run could take, and finds the lowest count by
trying every way of putting the cards into groups. It is far too slow for 13 cards, so
it checks the arranger exactly on hands of 5 to 8 cards (IR-6 applied to the cards
given); on 13-card hands the tests check properties any right answer has.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.core.cards import format_cards
from companion.games.indian_rummy.arranger import (
    CAP,
    best_arrangement,
    check_declaration,
    classify,
    count,
    count_detail,
    wild_rank_of,
)

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
PLACE = {rank: n for n, rank in enumerate(RANKS, start=1)}
VALUE = {"A": 10, "K": 10, "Q": 10, "J": 10, **{str(n): n for n in range(2, 11)}}


# ---------------------------------------------------------------------------------------
# The brute force, from the rulings


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def joker(card: str, wild: str | None) -> bool:
    """IR-2: a printed Joker or a card of the wild rank."""
    return card == "JK" or rank(card) == wild


def places(card: str) -> tuple[int, ...]:
    """IR-4: an Ace is 1 (low) or 14 (high)."""
    return (1, 14) if rank(card) == "A" else (PLACE[rank(card)],)


def is_pure(group: Sequence[str]) -> bool:
    """Three or more cards of one suit in a row, each in its own place (no printed Joker)."""
    if "JK" in group or not 3 <= len(group) <= 13 or len({suit(c) for c in group}) != 1:
        return False
    for ace in (1, 14):
        ps = sorted(ace if rank(c) == "A" else PLACE[rank(c)] for c in group)
        if all(b - a == 1 for a, b in itertools.pairwise(ps)):
            return True
    return False


def is_run(group: Sequence[str], wild: str | None) -> bool:
    """A run with jokers standing in: some window of places holds every natural card once."""
    naturals = [c for c in group if not joker(c, wild)]
    if not naturals or not 3 <= len(group) <= 13 or len({suit(c) for c in naturals}) != 1:
        return False
    n = len(group)
    for start in range(1, 16 - n):
        window = set(range(start, start + n))
        if {1, 14} <= window:
            continue  # K-A-2: never both
        spots = []
        for c in naturals:
            inside = [p for p in places(c) if p in window]
            if not inside:
                break
            spots.append(inside[0])
        else:
            if len(set(spots)) == len(spots):
                return True
    return False


def is_set(group: Sequence[str], wild: str | None) -> bool:
    naturals = [c for c in group if not joker(c, wild)]
    if not naturals and len(group) in (3, 4):
        # IR-4: a card of the wild rank standing as its own rank is natural in a set of that rank;
        # the others (printed Jokers, or a second wild card of a suit) stand in for the missing suits.
        return any(c != "JK" for c in group)
    return (bool(naturals) and len(group) in (3, 4) and len({rank(c) for c in naturals}) == 1
            and len({suit(c) for c in naturals}) == len(naturals))


def kind_of(group: Sequence[str], wild: str | None) -> str:
    if is_pure(group) and any(not joker(c, wild) for c in group):
        return "pure"
    if is_run(group, wild):
        return "impure"
    if is_set(group, wild):
        return "set"
    return "invalid"


def value(cards: Sequence[str], wild: str | None) -> int:
    """IR-3."""
    return sum(0 if joker(c, wild) else VALUE[rank(c)] for c in cards)


def ir6(groups: Sequence[Sequence[str]], loose: Sequence[str], wild: str | None) -> int:
    """IR-6 for an arrangement: with two sequences (one pure) among the valid groups, only the
    cards outside valid groups count; otherwise all count; capped at 80."""
    kinds = [kind_of(g, wild) for g in groups]
    sequences = sum(k in ("pure", "impure") for k in kinds)
    if sequences >= 2 and "pure" in kinds:
        counted = [c for g, k in zip(groups, kinds, strict=True) if k == "invalid" for c in g] + list(loose)
    else:
        counted = [c for g in groups for c in g] + list(loose)
    return min(value(counted, wild), CAP)


def brute_force(hand: Sequence[str], wild: str | None) -> tuple[int, bool]:
    """The lowest IR-6 count over every way of putting the cards into valid groups, and
    whether some way puts every card in a group with two sequences, one pure."""
    hand = list(hand)
    best = [min(value(hand, wild), CAP)]
    all_grouped = [False]
    kinds: dict[tuple[int, ...], str] = {}

    def walk(rest: tuple[int, ...], loose: int, sequences: int, pure: int, left_out: int) -> None:
        if not rest:
            if sequences >= 2 and pure >= 1:
                best[0] = min(best[0], min(loose, CAP))
                all_grouped[0] = all_grouped[0] or not left_out
            return
        first, others = rest[0], rest[1:]
        walk(others, loose + value([hand[first]], wild), sequences, pure, left_out + 1)
        for size in range(2, len(others) + 1):
            for more in itertools.combinations(others, size):
                index = (first, *more)
                if index not in kinds:
                    kinds[index] = kind_of([hand[i] for i in index], wild)
                k = kinds[index]
                if k != "invalid":
                    walk(tuple(i for i in others if i not in more), loose, sequences + (k != "set"),
                         pure + (k == "pure"), left_out)

    walk(tuple(range(len(hand))), 0, 0, 0, 0)
    return best[0], all_grouped[0]


def test_the_brute_force_reads_the_rulings():
    assert kind_of(["QS", "KS", "AS"], "7") == "pure" and kind_of(["KS", "AS", "2S"], "7") == "invalid"
    assert kind_of(["6H", "7H", "8H"], "7") == "pure" and kind_of(["6H", "7S", "8H"], "7") == "impure"
    assert kind_of(["8S", "8S", "8H"], "7") == "invalid" and kind_of(["JK", "7S", "7D"], "7") == "set"
    assert kind_of(["JK", "JK", "JK"], "7") == "invalid"  # IR-4: a group needs a natural card
    assert brute_force(["AS", "2S", "3S", "9H", "10H", "JK", "KD"], "7") == (10, False)
    assert brute_force(["AS", "2S", "3S", "9H", "10H", "JK"], "7") == (0, True)


# ---------------------------------------------------------------------------------------
# classify, check_declaration and count


GROUPS = [
    (["AS", "2S", "3S"], "7", "pure", "Ace low"),
    (["QD", "KD", "AD"], "7", "pure", "Ace high"),
    (["KD", "AD", "2D"], "7", "invalid", "K-A-2"),
    (["KD", "JK", "2D"], "7", "invalid", "needs 10 jokers"),
    (["6H", "7H", "8H"], "7", "pure", "the wild 7H in its own place"),
    (["6H", "7S", "8H"], "7", "impure", "7S standing in for 7H"),
    (["5D", "6D", "JK", "8D"], "3", "impure", "JK standing in for 7D"),
    (["5D", "JK", "JK"], "3", "impure", "5D to 7D"),
    (["JK", "JK", "JK"], "7", "invalid", "all jokers"),
    (["JK", "JK", "7C"], "7", "set", "jokers JK JK standing in for 7S 7H"),  # IR-4: 7C natural as a seven
    (["7S", "7H", "7D"], "7", "set", "the wild 7S 7H 7D natural as their own rank"),
    (["7S", "7S", "7H"], "7", "set", "joker 7S standing in for 7D"),
    (["9S", "9H", "9D", "9C"], "7", "set", "four 9s"),
    (["9S", "9H", "JK"], "7", "set", "joker JK standing in for 9D"),
    (["9S", "9S", "9H"], "7", "invalid", "9S twice"),
    (["9S", "9H", "9D", "9C", "JK"], "7", "invalid", "three or four"),
    (["AH", "2H", "3H"], "JK", "pure", "the wild AH in its own place"),
    (["2H", "3H", "AS"], "JK", "impure", "AS standing in for"),
    (["QC", "KC", "AC", "2C"], "5", "invalid", "K-A-2"),
    (["AS", "2S"], "7", "invalid", "at least three cards"),
    (["4C", "8H", "KS"], "7", "invalid", "mixes suits and ranks"),
    (["4C", "6C", "9C", "JK"], "7", "invalid", "needs 3 jokers in between, and the group has 1"),
    ([f"{r}S" for r in RANKS], "7", "pure", "13 Spades in a row"),
]


@pytest.mark.parametrize(("group", "wild", "kind", "words"), GROUPS,
                         ids=[" ".join(g) + f" wild {w}" for g, w, _, _ in GROUPS])
def test_classify_names_the_kind_and_says_why(group, wild, kind, words):
    found = classify(group, wild)
    assert found.kind == kind
    assert words in found.reason, found.reason
    assert found.reason.endswith("(IR-4)") or found.reason.endswith("(IR-2, IR-4)")
    wild_rank = wild_rank_of(wild)
    if len(group) >= 3:
        assert found.kind == kind_of(group, wild_rank), "the arranger and the brute force agree"


def test_a_declaration_needs_13_cards_two_sequences_and_a_pure_one():
    groups = [["AH", "2H", "3H"], ["5S", "6S", "7D", "8S"], ["QC", "QD", "QS"], ["9H", "10H", "JH"]]
    assert check_declaration(groups, "7").valid
    assert not check_declaration(groups[:3], "7").valid  # 10 cards
    no_pure = [["AH", "2H", "JK"], ["5S", "6S", "7D", "8S"], ["QC", "QD", "QS"], ["9H", "10H", "7C"]]
    verdict = check_declaration(no_pure, "7")
    assert not verdict.valid and "no pure sequence" in verdict.reasons[-1]
    one_sequence = [["AH", "2H", "3H"], ["5S", "5D", "5C", "5H"], ["QC", "QD", "QS"], ["9H", "9S", "9C"]]
    assert "only 1 sequence" in check_declaration(one_sequence, "7").reasons[-1]


def test_a_count_uses_the_loose_cards_only_with_two_lives():
    assert count([["4C", "5C", "6C"], ["8D", "9D", "10D"]], ["KS", "QD", "2H", "3S", "5D", "9C", "JC"], "7") == 49
    assert count([["4C", "5C", "6C"], ["8D", "9D", "10D"]], ["KS", "7D", "JK"], "7") == 10  # jokers 0 (IR-3)
    detail = count_detail([["4C", "5C", "6C"], ["QS", "QD", "QH"]], ["KS", "2H", "3S", "5D", "9C", "JC", "8D"], "7")
    assert (detail.raw, detail.count, detail.lives, detail.capped) == (92, 80, False, True)
    # an invalid group's cards count, even with two lives
    assert count([["KD", "AD", "2D"], ["5C", "6C", "7C"], ["8H", "9S", "10H"]], ["3S", "4S", "QH", "6D"], "9") == 45


# ---------------------------------------------------------------------------------------
# The arranger against the brute force


def deal_hand(rng: random.Random, size: int, decks: int, wild: str | None, jokers: int) -> list[str]:
    """A hand from ``decks`` real decks (IR-1): ``jokers`` printed or wild, the rest crowded
    into near-runs or near-sets so that the groups compete for cards."""
    printed = min(decks, rng.randint(0, jokers))
    wild_cards = [wild + s for s in SUITS for _ in range(decks)] if wild else []
    jokers = min(jokers - printed, len(wild_cards))
    naturals = [r + s for r in RANKS for s in SUITS for _ in range(decks) if r != wild]
    shape = rng.randrange(4)
    if shape == 0:  # near-runs: one or two suits
        keep = rng.sample(SUITS, rng.randint(1, 2))
        pool = [c for c in naturals if suit(c) in keep]
    elif shape == 1:  # near-sets: three to five ranks
        keep = rng.sample(sorted({rank(c) for c in naturals}), rng.randint(3, 5))
        pool = [c for c in naturals if rank(c) in keep]
    elif shape == 2:  # a window of ranks in one suit, and the same ranks in others
        low = rng.randint(0, 8)
        window = RANKS[low:low + 5]
        one = rng.choice(SUITS)
        pool = [c for c in naturals if rank(c) in window and (suit(c) == one or rng.random() < 0.3)]
    else:
        pool = naturals
    if len(pool) < size - printed - jokers:
        pool = naturals
    hand = ["JK"] * printed + rng.sample(wild_cards, jokers) + rng.sample(pool, size - printed - jokers)
    rng.shuffle(hand)
    return hand


@st.composite
def small_hands(draw) -> tuple[list[str], str | None]:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    wild = rng.choice([*RANKS, None])
    size = draw(st.integers(5, 8))
    return deal_hand(rng, size, rng.randint(1, 3), wild, rng.randint(0, 3)), wild


@settings(max_examples=150, deadline=None, database=None)
@given(small_hands())
def test_the_arranger_finds_the_true_minimum_on_small_hands(dealt):
    hand, wild = dealt
    best = best_arrangement(hand, wild)
    lowest, grouped = brute_force(hand, wild)
    assert best.count == lowest, (hand, wild, best)
    assert (best.lives and not best.loose) == grouped, (hand, wild, best)


@pytest.mark.parametrize("seed", range(40))
def test_the_arranger_finds_the_true_minimum_on_more_small_hands(seed):
    rng = random.Random(seed)
    wild = rng.choice(RANKS)
    hand = deal_hand(rng, 8, 2, wild, rng.randint(0, 4))
    assert best_arrangement(hand, wild).count == brute_force(hand, wild)[0], hand


def exhaustive(hand: Sequence[str], wild: str | None) -> int:
    """The lowest IR-6 count by a slower exhaustive search that also works for 13 cards: the
    first card left is loose, or in a group with any of the cards that share its suit or
    rank, or any jokers (a joker first may go with anything), for every size of group."""
    hand = tuple(sorted(hand))
    kinds: dict[tuple[int, ...], str] = {}

    @functools.cache
    def lowest(rest: tuple[int, ...], sequences: int, pure: int) -> int:
        if not rest:
            return 0 if sequences >= 2 and pure >= 1 else 10**9
        first, others = rest[0], rest[1:]
        card = hand[first]
        found = value([card], wild) + lowest(others, sequences, pure)
        mates = [i for i in others if joker(card, wild) or joker(hand[i], wild) or suit(hand[i]) == suit(card)
                 or rank(hand[i]) == rank(card)]
        for size in range(2, len(mates) + 1):
            for more in itertools.combinations(mates, size):
                index = (first, *more)
                if index not in kinds:
                    kinds[index] = kind_of([hand[i] for i in index], wild)
                k = kinds[index]
                if k != "invalid":
                    left = tuple(i for i in others if i not in more)
                    found = min(found, lowest(left, min(2, sequences + (k != "set")), pure or k == "pure"))
        return found

    return min(lowest(tuple(range(len(hand))), 0, 0), value(hand, wild), CAP)


@pytest.mark.parametrize("seed", range(25))
def test_the_arranger_matches_an_exhaustive_search_on_13_card_hands(seed):
    rng = random.Random(1000 + seed)
    wild = rng.choice(RANKS)
    hand = deal_hand(rng, 13, rng.randint(1, 3), wild, rng.randint(0, 4))
    assert best_arrangement(hand, wild).count == exhaustive(hand, wild), hand


# ---------------------------------------------------------------------------------------
# 13-card hands: properties of any right answer


def random_arrangement(rng: random.Random, hand: Sequence[str], wild: str | None):
    """Some valid arrangement a player might lay down: groups picked at random."""
    rest = list(hand)
    groups = []
    for _ in range(60):
        if len(rest) < 3:
            break
        size = rng.randint(3, min(5, len(rest)))
        pick = rng.sample(range(len(rest)), size)
        group = [rest[i] for i in pick]
        if kind_of(group, wild) != "invalid":
            groups.append(group)
            rest = [c for i, c in enumerate(rest) if i not in pick]
    return groups, rest


@st.composite
def full_hands(draw) -> tuple[list[str], str | None, int]:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    decks = rng.randint(1, 3)
    wild = rng.choice(RANKS)
    return deal_hand(rng, 13, decks, wild, draw(st.integers(0, 6))), wild, decks


@settings(max_examples=300, deadline=None, database=None)
@given(full_hands(), st.integers(0, 2**32 - 1))
def test_a_13_card_arrangement_is_valid_uses_the_cards_and_is_never_beaten(dealt, seed):
    hand, wild, decks = dealt
    rng = random.Random(seed)
    best = best_arrangement(hand, wild)
    laid = [[str(c) for c in g] for g in best.groups]
    loose = [str(c) for c in best.loose]
    # the groups and the loose cards are exactly the cards given
    assert Counter(c for g in laid for c in g) + Counter(loose) == Counter(hand)
    assert all(n <= decks for n in Counter(hand).values())
    # every group is valid, and the count is IR-6 applied to the arrangement
    assert all(kind_of(g, wild) != "invalid" for g in laid), laid
    assert [k.kind for k in best.kinds] == [kind_of(g, wild) for g in laid]
    assert best.count == ir6(laid, loose, wild)
    assert best.count <= min(value(hand, wild), CAP)
    if best.valid_declaration:
        assert best.count == 0 and not loose and check_declaration(best.groups, wild).valid
    # no arrangement a player could lay down counts less
    for _ in range(20):
        groups, rest = random_arrangement(rng, hand, wild)
        assert best.count <= ir6(groups, rest, wild), (hand, groups, rest, best)


@st.composite
def declarations(draw) -> tuple[list[str], str]:
    """A 13-card hand built as a declaration: a pure run first, another run, then runs and
    sets, from two decks; some runs have a joker (printed, or of the wild rank) for a card."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    wild = rng.choice(RANKS)
    others = [r for r in RANKS if r != wild]
    spare = ["JK", "JK"] + [wild + s for s in SUITS for _ in range(2)]
    rng.shuffle(spare)
    groups: list[list[str]] = []
    held: Counter[str] = Counter()
    for _ in range(1000):
        laid = sum(map(len, groups))
        if laid == 13:
            break
        left = 13 - laid
        size = left if left <= 5 else rng.randint(3, min(5, left - 3))
        if len(groups) < 2 or rng.random() < 0.5:
            s = rng.choice(SUITS)
            start = rng.randint(0, 14 - size)  # index 13 is the Ace high
            cards = [(RANKS[start + k] if start + k < 13 else "A") + s for k in range(size)]
            use_joker = bool(groups) and bool(spare) and rng.random() < 0.5
            if use_joker:
                cards[rng.randrange(size)] = spare[-1]
        else:
            use_joker = False
            cards = [rng.choice(others) + s for s in rng.sample(SUITS, min(size, 4))]
            cards = [rank(cards[0]) + suit(c) for c in cards]
        kind = kind_of(cards, wild)
        if kind == "invalid" or (not groups and kind != "pure"):
            continue
        if any(held[c] + n > 2 for c, n in Counter(cards).items()):
            continue
        held.update(cards)
        groups.append(cards)
        if use_joker:
            spare.pop()
    assume(sum(map(len, groups)) == 13)
    hand = [c for g in groups for c in g]
    rng.shuffle(hand)
    return hand, wild


@settings(max_examples=150, deadline=None, database=None)
@given(declarations())
def test_a_hand_built_as_a_declaration_is_found_to_be_one(dealt):
    hand, wild = dealt
    best = best_arrangement(hand, wild)
    assert best.valid_declaration and best.count == 0, (hand, wild, [format_cards(g) for g in best.groups])


# ---------------------------------------------------------------------------------------
# Corners


@pytest.mark.parametrize(("hand", "wild", "expected", "valid"), [
    ([f"{r}H" for r in RANKS], "5", 0, True),  # 13 hearts, 5H in its own place
    (["AS", "2S", "3S"] * 3 + ["4S"] * 3 + ["JK"], "K", 0, True),  # three decks of A-2-3-4
    (["KS", "AS", "2S", "KH", "AH", "2H", "KD", "AD", "2D", "KC", "AC", "2C", "JK"], "7", 80, False),
    (["JK", "JK", "JK", "7S", "7H", "7D", "2H", "3S", "4D", "5C", "9H", "JC", "KS"], "7", 43, False),
    (["JK"] * 3 + ["7S", "7H", "7D", "7C"] * 2 + ["7S", "7H"], "7", 0, False),  # jokers only: no groups
    (["JK", "JK", "7S", "7H", "7D", "7C", "2H", "4H", "6H", "8H", "10H", "QH", "KH"], "7", 0, True),
    (["3S", "4S", "5S", "3S", "4S", "5S", "AH", "9D"], "2", 19, False),  # the same pure run twice
])
def test_corner_hands(hand, wild, expected, valid):
    best = best_arrangement(hand, wild)
    assert (best.count, best.valid_declaration) == (expected, valid)
    assert best.count == brute_force(hand, wild)[0] if len(hand) <= 8 else True


def test_an_empty_hand_and_a_single_card_count_their_value():
    assert best_arrangement([], "7").count == 0
    assert best_arrangement(["KS"], "7").count == 10


def test_more_copies_than_any_table_holds_are_refused():
    with pytest.raises(ValueError, match="at most 7 copies"):
        best_arrangement(["KS"] * 8, "7")
