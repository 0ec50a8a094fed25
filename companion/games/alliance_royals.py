"""Alliance Royals, scored as RULINGS.md AR-1 to AR-13 say.

Four players in two Alliances enter each round when it ends: every player's
Home House and the cards in their Spoils, Meld and Hand, with any Hostages
declared. The API's worked example (API.md):

>>> game = score(("Ann", "Ben", "Cat", "Dan"), {}, [{"players": {
...     "Ann": {"house": "S", "spoils": ["KS", "QS", "JS", "AH", "9D"], "meld": ["10S", "10H", "10D"],
...             "hand": ["3C"]},
...     "Ben": {"house": "H", "spoils": ["8H"], "meld": [], "hand": ["QC", "KC", "2H"]},
...     "Cat": {"house": "D", "spoils": ["KD", "QS", "5H"], "meld": ["AS", "AD", "AC"], "hand": []},
...     "Dan": {"house": "C", "spoils": ["KC", "QH"], "meld": ["6S", "6H", "6D"], "hand": ["9S"]}}}])
>>> game.totals
{'Ann': 135, 'Ben': -20, 'Cat': 100, 'Dan': 130}
>>> game.side_totals, game.over
({'A': 235, 'B': 110}, False)
>>> game.rounds[0].explain["Ann"][-2]
'Score 45 × (1 + 1 Royal set + 1 marriage) = 45 × 3 = 135 (AR-10)'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any, NamedTuple

from ..core.cards import RANKS, Card, CardError, format_cards, parse_card, parse_card_text, parse_suit
from ..core.messages import Text, joined, say, say_n
from .base import (
    Decided,
    InputError,
    Problems,
    ScoredGame,
    check_groups,
    check_note,
    is_whole_number,
    not_at_table,
)

SLUG = "alliance-royals"
TITLE = "Alliance Royals"
MIN_PLAYERS = 4
MAX_PLAYERS = 4
ROUND_NAME = "round"
OPTIONS: dict[str, Any] = {
    "teams": None,
    "win_above": 1066,
    "lose_below": -333,
    "house_names": {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"},
}
MAX_HOUSE_NAME = 20
#: The scores a new table may set to end its game (AR-12), in every Royals game: the new-table form, the API
#: and an import all hold them to these (games.bound_problems); the engine states their signs.
WIN_ABOVE_MOST = 100_000
LOSE_BELOW_LEAST = -100_000
OPTION_BOUNDS = {"win_above": (1, WIN_ABOVE_MOST), "lose_below": (LOSE_BELOW_LEAST, -1)}

#: AR-1: the ranks printed three times per suit; the others are printed once.
TRIPLED_RANKS = frozenset({"9", "10", "J", "Q", "K", "A"})
#: AR-7: a player's Royals are these ranks of their Home House.
ROYAL_RANKS = ("K", "Q", "J")
#: AR-8: only Kings and Queens marry; AR-9: only they can be held hostage.
SPOUSE_RANKS = ("K", "Q")

SECTIONS = ("spoils", "meld", "hand")
#: The places of a board and the end-of-game scores, as players call them.
SECTION_NAMES = {"spoils": say("Spoils"), "meld": say("Meld"), "hand": say("Hand")}
#: The four Houses' names when the table keeps the pack's own (AR-1): said in the reader's language.
HOUSE_WORDS = {"S": say("Spades"), "H": say("Hearts"), "D": say("Diamonds"), "C": say("Clubs")}
BOARD_FIELDS = {"house", *SECTIONS, "hostages"}
#: A round may also carry the table's free-text note (the entry screen writes one).
ROUND_FIELDS = {"players", "surrender", "note"}
HOSTAGE_FIELDS = {"card", "target"}

RANK_PLURALS = {
    "2": say("twos"), "3": say("threes"), "4": say("fours"), "5": say("fives"), "6": say("sixes"),
    "7": say("sevens"), "8": say("eights"), "9": say("nines"), "10": say("tens"), "J": say("jacks"),
    "Q": say("queens"), "K": say("kings"), "A": say("aces"),
}
#: AR-4 by rank, looked up once per card (a round scores some sixty cards).
_POINTS = {rank: 5 if rank in TRIPLED_RANKS else 10 for rank in RANKS}
_NONE_MATCHED: frozenset[str] = frozenset()
#: Each rank's place in battle order (RANKS).
_RANK_PLACE = {rank: i for i, rank in enumerate(RANKS)}
_NOTHING_LOST: Mapping[str, int] = MappingProxyType({})


def copies_in_pack(rank: str) -> int:
    """AR-1: how many copies of one card the 100-card pack holds.

    >>> copies_in_pack("Q"), copies_in_pack("8")
    (3, 1)
    >>> sum(copies_in_pack(r) for r in RANKS) * 4
    100
    """
    return 3 if rank in TRIPLED_RANKS else 1


def card_points(card: Card) -> int:
    """AR-4: 5 for 9, 10, J, Q, K, A; 10 for 2 to 8.

    >>> card_points(Card("A", "S")), card_points(Card("2", "S"))
    (5, 10)
    """
    return 5 if card.rank in TRIPLED_RANKS else 10


def times(pair: str, n: int) -> str:
    """A marriage and how many times it occurs, in words.

    >>> times("KD + QS", 1), times("KD + QS", 2), times("KD + QS", 3), times("KD + QS", 4)
    ('KD + QS', 'KD + QS twice', 'KD + QS three times', 'KD + QS 4 times')
    """
    if n == 1:
        return pair
    if n == 2:
        return say("{pair} twice", pair=pair)
    if n == 3:
        return say("{pair} three times", pair=pair)
    return say("{pair} {count} times", pair=pair, count=n)


def house_word(suit: str, names: Mapping[str, str]) -> str:
    """A House's name in a sentence: the table's own name, or the pack's said in the reader's language.

    >>> house_word("S", OPTIONS["house_names"]), house_word("S", {"S": "Dogs"})
    ('Spades', 'Dogs')
    """
    name = names[suit]
    return HOUSE_WORDS[suit] if name == OPTIONS["house_names"].get(suit) else name


def both(items: Sequence[str]) -> str:
    """Items joined with "and" between each two, as the sentences have always listed them.

    >>> both(["Ann"]), both(["Ann", "Ben", "Cat"])
    ('Ann', 'Ann and Ben and Cat')
    """
    said_so = items[0]
    for item in items[1:]:
        said_so = say("{first} and {second}", first=said_so, second=item)
    return said_so


def counted_as(rank_suit: str, n: int) -> str:
    """A card and, beyond one, how many: "KS", "KS ×2".

    >>> counted_as("KS", 1), counted_as("KS", 2)
    ('KS', 'KS ×2')
    """
    return rank_suit if n <= 1 else f"{rank_suit} ×{n}"


def matched_ranks(spoils: Sequence[Card], meld: Sequence[Card]) -> frozenset[str]:
    """AR-5: ranks with a card in Meld and three or more in Meld + Spoils together.

    >>> sorted(matched_ranks([Card("10", "S")], [Card("10", "H"), Card("10", "D")]))
    ['10']
    >>> matched_ranks([Card("K", "S"), Card("K", "S"), Card("K", "H")], [])  # Royals only in Spoils
    frozenset()
    >>> matched_ranks([], [Card("6", "S"), Card("6", "H")])  # two of a rank
    frozenset()
    """
    if not meld:
        return _NONE_MATCHED
    in_meld = [c.rank for c in meld]
    in_spoils = [c.rank for c in spoils]
    return frozenset(rank for rank in in_meld if in_meld.count(rank) + in_spoils.count(rank) >= 3)


def section_points(cards: Sequence[Card], matched: frozenset[str]) -> int:
    """AR-4 with AR-5's doubling: the points of Spoils or Meld.

    >>> section_points([Card("6", "S"), Card("6", "H"), Card("6", "D")], frozenset({"6"}))
    60
    """
    points = _POINTS
    if not matched:
        return sum([points[c.rank] for c in cards])
    return sum([points[c.rank] * 2 if c.rank in matched else points[c.rank] for c in cards])


def hand_points(hand: Sequence[Card]) -> int:
    """AR-6: cards left in Hand, never doubled.

    >>> hand_points([Card("3", "C"), Card("3", "C")])
    20
    """
    points = _POINTS
    return sum([points[c.rank] for c in hand])


def marriages(spoils: Sequence[Card], house: str, ally_house: str) -> tuple[int, int]:
    """AR-8: marriages in one Spoils, as (own K + ally Q, own Q + ally K).

    >>> marriages([Card("K", "D"), Card("Q", "S"), Card("Q", "S")], "D", "S")
    (1, 0)
    >>> marriages([Card("K", "S"), Card("Q", "S")], "S", "S")  # allies of one House
    (0, 0)
    """
    if house == ally_house:
        return (0, 0)
    own_k = own_q = ally_k = ally_q = 0
    for card in spoils:  # counted by hand: this runs for every board of every round
        rank = card.rank
        if rank == "K":
            if card.suit == house:
                own_k += 1
            elif card.suit == ally_house:
                ally_k += 1
        elif rank == "Q":
            if card.suit == house:
                own_q += 1
            elif card.suit == ally_house:
                ally_q += 1
    return (min(own_k, ally_q), min(own_q, ally_k))


def marriage_kind(card: Card, house: str, ally_house: str) -> int | None:
    """Which kind of marriage (0: own K + ally Q, 1: own Q + ally K) a card can be part of.

    >>> marriage_kind(Card("K", "D"), "D", "S"), marriage_kind(Card("K", "S"), "D", "S")
    (0, 1)
    >>> marriage_kind(Card("K", "H"), "D", "S") is None
    True
    """
    if house == ally_house or card.rank not in SPOUSE_RANKS:
        return None
    if card in (Card("K", house), Card("Q", ally_house)):
        return 0
    if card in (Card("Q", house), Card("K", ally_house)):
        return 1
    return None


def pair_text(kind: int, house: str, ally_house: str) -> str:
    """The two cards of a marriage, the Spoils owner's card first.

    >>> pair_text(0, "D", "S"), pair_text(1, "D", "S")
    ('KD + QS', 'QD + KS')
    """
    if kind == 0:
        return f"K{house} + Q{ally_house}"
    return f"Q{house} + K{ally_house}"


@dataclass(frozen=True)
class Hostage:
    """AR-9: a King or Queen in the holder's Spoils, declared against a target."""

    card: Card
    target: str
    where: str


class Board(NamedTuple):
    """One player's end of round as entered (AR-3). A named tuple, never changed once read: every
    round reads one per player, and a frozen dataclass costs several times as much to make."""

    house: str
    spoils: tuple[Card, ...]
    meld: tuple[Card, ...]
    hand: tuple[Card, ...]
    hostages: tuple[Hostage, ...]


@dataclass(frozen=True)
class Round:
    boards: Mapping[str, Board]
    surrender: str | None


@dataclass(frozen=True)
class Alliances:
    """AR-2: the two Alliances, each listed in seat order."""

    sides: Mapping[str, tuple[str, str]]

    @cached_property
    def _seats(self) -> dict[str, tuple[str, str]]:
        """Each member's side and ally, worked out once: every board of every round asks for them."""
        seats = {}
        for side, (first, second) in self.sides.items():
            seats.setdefault(first, (side, second))
            seats.setdefault(second, (side, first))
        return seats

    def side_of(self, name: str) -> str:
        return self._seats[name][0]

    def ally_of(self, name: str) -> str:
        return self._seats[name][1]

    def named(self, side: str) -> Text:
        first, second = self.sides[side]
        return say("Alliance {side} ({first} and {second})", side=side, first=first, second=second)


class PlayerScore(NamedTuple):
    """One player's round, worked through AR-4 to AR-10 (a named tuple, as :class:`Board` is)."""

    spoils: int
    meld: int
    hand: int
    matched: tuple[str, ...]
    royals: tuple[str, ...]
    royal_sets: int
    own_marriages: int
    ally_marriages: int
    notes: tuple[str, ...]

    @property
    def board(self) -> int:
        return self.spoils + self.meld

    @property
    def natural(self) -> int:
        return self.board - self.hand

    @property
    def multiplier(self) -> int:
        return 1 + self.royal_sets + self.own_marriages + self.ally_marriages

    @property
    def score(self) -> int:
        return self.natural * self.multiplier


# ---------------------------------------------------------------------------------------
# Options


def _check_options(players: Sequence[str], options: Mapping[str, Any], found: Problems):
    opts = dict(OPTIONS)
    opts["house_names"] = dict(OPTIONS["house_names"])
    for key, value in options.items():
        where = f"options.{key}"
        if key not in OPTIONS:
            found.add(where, say("{game} has no option called {key}; its options are the teams, the score that "
                                 "wins, the score that loses and the House names", game=TITLE, key=key))
        elif key == "teams":
            opts["teams"] = _check_teams(players, value, found)
        elif key in ("win_above", "lose_below"):
            if not is_whole_number(value):
                found.add(where, say("the score that wins the game must be a whole number, such as 1066 (AR-12)")
                          if key == "win_above" else
                          say("the score that loses the game must be a whole number, such as -333 (AR-12)"))
            elif key == "win_above" and value <= 0:
                found.add(where, say("the score that wins the game must be above 0 (the rules say 1066) (AR-12)"))
            elif key == "lose_below" and value >= 0:
                found.add(where, say("the score that loses the game must be below 0 (the rules say -333) (AR-12)"))
            else:
                opts[key] = value
        elif key == "house_names":
            _check_house_names(value, opts["house_names"], found)
    return opts


def _check_teams(players: Sequence[str], value: object, found: Problems) -> list[list[str]] | None:
    where = "options.teams"
    if value is None:
        return None
    shape = say("give the teams as two Alliances of two players each, such as Ann with Cat against Ben with Dan "
                "(AR-2)")
    if not isinstance(value, list) or len(value) != 2 or not all(
            isinstance(team, list) and len(team) == 2 for team in value):
        found.add(where, shape)
        return None
    return check_groups(value, players, where, found, TEAMS_TWICE)


#: AR-2: a name given twice in the teams (``{name}`` filled in by check_groups).
TEAMS_TWICE = "{name} is in the teams twice; each player is in exactly one Alliance (AR-2)"


def _check_house_names(value: object, names: dict[str, str], found: Problems) -> None:
    where = "options.house_names"
    if not isinstance(value, Mapping):
        found.add(where, say("give the House names for S, H, D and C, such as Dogs for S (AR-1)"))
        return
    for key, name in value.items():
        try:
            suit = parse_suit(key)
        except CardError:
            found.add(f"{where}.{key}", say("{key} is not a House: the Houses are S, H, D and C (AR-1)", key=key))
            continue
        if not isinstance(name, str) or not name.strip():
            found.add(f"{where}.{key}", say("each House needs a name"))
        elif len(name.strip()) > MAX_HOUSE_NAME:
            found.add(f"{where}.{key}", say("a House name may have at most {count} characters",
                                            count=MAX_HOUSE_NAME))
        else:
            names[suit] = name.strip()


def alliances(players: Sequence[str], teams: list[list[str]] | None) -> Alliances:
    """AR-2: seats 1 and 3 against seats 2 and 4, unless teams are given.

    >>> alliances(("Ann", "Ben", "Cat", "Dan"), None).sides
    {'A': ('Ann', 'Cat'), 'B': ('Ben', 'Dan')}
    >>> alliances(("Ann", "Ben", "Cat", "Dan"), [["Dan", "Ann"], ["Cat", "Ben"]]).sides
    {'A': ('Ann', 'Dan'), 'B': ('Ben', 'Cat')}
    """
    if teams is None:
        return Alliances({"A": (players[0], players[2]), "B": (players[1], players[3])})
    a = [p for p in players if p in teams[0]]
    b = [p for p in players if p in teams[1]]
    return Alliances({"A": (a[0], a[1]), "B": (b[0], b[1])})


# ---------------------------------------------------------------------------------------
# Reading a round


def _parse_cards(raw: object, where: str, found: Problems) -> tuple[Card, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        found.add(where, say("give the cards one by one, such as KS and 10H (AR-3)"))
        return ()
    try:  # every card readable, as nearly always; otherwise each problem is named below
        return tuple(map(parse_card, raw))
    except CardError:
        pass
    cards = []
    for i, text in enumerate(raw):
        if text is None or text == "":
            found.add(f"{where}[{i}]", say("a card is missing here: give each card as a rank and a suit, such as KS "
                                           "or 10H (AR-13)"))
            continue
        try:
            cards.append(parse_card(text))
        except CardError as err:
            found.add(f"{where}[{i}]", cited(err, "AR-13"))
    return tuple(cards)


def _plain_board(raw: object) -> Board | None:
    """A board without hostages and with nothing wrong in it, read without naming the place of each
    field (as nearly every board is); None when the board needs :func:`_parse_board` to name its problems."""
    if type(raw) is not dict or not raw.keys() <= BOARD_FIELDS or raw.get("hostages") not in (None, []):
        return None
    try:
        house = parse_suit(raw.get("house"))
        sections: list[tuple[Card, ...]] = []
        for section in SECTIONS:
            cards = raw.get(section)
            if cards is None:
                sections.append(())
            elif type(cards) is list:
                sections.append(tuple(map(parse_card_text, cards)))
            else:
                return None
    except (CardError, TypeError):  # TypeError: a card given as a list or a set of fields
        return None
    return Board(house, *sections, ())


def _parse_board(raw: object, at: str, name: str, players: Sequence[str], found: Problems) -> Board | None:
    plain = _plain_board(raw)
    if plain is not None:
        return plain
    if type(raw) is not dict and not isinstance(raw, Mapping):
        found.add(at, say("{name}'s board is the Home House and the cards in Spoils, Meld and Hand (AR-3)", name=name))
        return None
    for key in raw:
        if key not in BOARD_FIELDS:
            found.add(f"{at}.{key}", say("a board has no {key}: it holds the Home House, the cards in Spoils, Meld "
                                         "and Hand, and any hostages (AR-3)", key=key))
    house = None
    if raw.get("house") is None:
        found.add(f"{at}.house", say("choose {name}'s Home House at the end of the round (AR-3)", name=name))
    else:
        try:
            house = parse_suit(raw["house"])
        except CardError as err:
            found.add(f"{at}.house", cited(err, "AR-3"))
    spoils, meld, hand = (_parse_cards(raw.get(s), f"{at}.{s}", found) for s in SECTIONS)
    hostages = _parse_hostages(raw.get("hostages"), at, name, players, found)
    # Without a House the round is refused, but the board's cards still count against the pack, so
    # that every problem of the round is found in one pass (AR-13).
    return Board(house, spoils, meld, hand, hostages)  # type: ignore[arg-type]


def _parse_hostages(raw_hostages: object, at: str, name: str, players: Sequence[str],
                    found: Problems) -> tuple[Hostage, ...]:
    """A board's hostages (AR-9): each a King or Queen and the player it is held against."""
    hostages = []
    if raw_hostages is not None and not isinstance(raw_hostages, list):
        found.add(f"{at}.hostages", say("give each hostage as a card and the player it is held against, such as "
                                        "QD against Ben (AR-9)"))
        raw_hostages = []
    for j, entry in enumerate(raw_hostages or []):
        where = f"{at}.hostages[{j}]"
        if not isinstance(entry, Mapping):
            found.add(where, say("a hostage is a card and the player it is held against, such as QD against Ben "
                                 "(AR-9)"))
            continue
        for key in entry:
            if key not in HOSTAGE_FIELDS:
                found.add(f"{where}.{key}", say("a hostage has no {key}: it is a card and the player it is held "
                                                "against (AR-9)", key=key))
        card = None
        if entry.get("card") in (None, ""):
            found.add(f"{where}.card", say("give the hostage card {name} holds, a King or Queen such as QD (AR-9)",
                                           name=name))
        else:
            try:
                card = parse_card(entry.get("card"))
            except CardError as err:
                found.add(f"{where}.card", cited(err, "AR-9"))
        target = entry.get("target")
        if target in (None, ""):
            found.add(f"{where}.target", say("choose the player {name}'s hostage is held against (AR-9)", name=name))
            target = None
        elif not isinstance(target, str) or target not in players:
            not_at_table(found, f"{where}.target", target, players)
            target = None
        elif target == name:
            found.add(f"{where}.target", say("{name} cannot hold a hostage against themselves; name another player "
                                             "(AR-9)", name=name))
            target = None
        if card is not None and target is not None:
            hostages.append(Hostage(card, target, where))
    return tuple(hostages)


def hostage_in_spoils(holder: str, board: Board, hostage: Hostage, declared: Counter, found: Problems,
                      cite: str = "AR-9") -> bool:
    """AR-9: what the holder's own board says of a hostage: a King or Queen, not of the holder's
    own House, in the holder's Spoils (as often as it is declared). False, with a problem, when not."""
    card = hostage.card
    declared[card] += 1
    if card.rank not in SPOUSE_RANKS:
        found.add(f"{hostage.where}.card", say("{card} cannot be a hostage: only a King or Queen can ({rulings})",
                                               card=card, rulings=cite))
        return False
    if board.house is not None and card.suit == board.house:
        found.add(f"{hostage.where}.card",
                  say("{card} is {name}'s own Royal; a hostage must be another House's King or Queen ({rulings})",
                      card=card, name=holder, rulings=cite))
        return False
    held = board.spoils.count(card)
    if declared[card] > held:
        found.add(f"{hostage.where}.card",
                  say("{name}'s Spoils hold {held} {card}, declared hostage {count} times; a hostage must be in "
                      "the holder's Spoils ({rulings})", name=holder, held=held, card=card, count=declared[card],
                      rulings=cite) if held else
                  say("{name}'s Spoils hold no {card}; a hostage must be in the holder's Spoils ({rulings})",
                      name=holder, card=card, rulings=cite))
        return False
    return True


def _hostages_alone(boards: Mapping[str, Board], found: Problems) -> None:
    """A round that cannot be scored still has its hostages checked against their holders' own
    boards, so that every problem of the round shows at once (AR-9)."""
    for holder, board in boards.items():
        declared: Counter = Counter()
        for hostage in board.hostages:
            hostage_in_spoils(holder, board, hostage, declared, found)


def _parse_round(raw: object, at: str, players: Sequence[str], found: Problems,
                 hostages_alone: Callable[[Mapping[str, Board], Problems], None] = _hostages_alone
                 ) -> Round | None:
    if type(raw) is not dict and not isinstance(raw, Mapping):
        found.add(at, say("a round is each player's board, or the player whose Alliance surrendered (AR-3, AR-12)"))
        return None
    for key in raw:
        if key not in ROUND_FIELDS:
            found.add(f"{at}.{key}", say("a round has no {key}: it holds the players' boards, a surrender and a note",
                                         key=key))
    check_note(found, at, raw)
    surrender = raw.get("surrender")
    if surrender is not None and (not isinstance(surrender, str) or surrender not in players):
        not_at_table(found, f"{at}.surrender", surrender, players)
        return None
    raw_boards = raw.get("players")
    if raw_boards is None:
        raw_boards = {}
        if surrender is None:
            found.add(f"{at}.players", say("enter each player's board: the Home House and the cards in Spoils, "
                                           "Meld and Hand (AR-3)"))
            return None
    if not isinstance(raw_boards, Mapping):
        found.add(f"{at}.players", say("give each player's board under the player's name (AR-3)"))
        return None
    boards: dict[str, Board] = {}
    ok = True
    for name, board in raw_boards.items():
        if name not in players:
            not_at_table(found, f"{at}.players.{name}", name, players)
            ok = False
            continue
        # the place of the board is named only when something in it is wrong
        parsed = _plain_board(board) or _parse_board(board, f"{at}.players.{name}", name, players, found)
        if parsed is None or parsed.house is None:
            ok = False
        if parsed is not None:
            boards[name] = parsed
    if surrender is None:
        for name in players:
            if name not in raw_boards:
                found.add(f"{at}.players.{name}", say("enter {name}'s board: the Home House and the cards in "
                                                      "Spoils, Meld and Hand (AR-3)", name=name))
                ok = False
    _check_pack(boards, at, players, found)
    if not ok:
        hostages_alone(boards, found)
        return None
    return Round({p: boards[p] for p in players if p in boards}, surrender)


def _check_pack(boards: Mapping[str, Board], at: str, players: Sequence[str], found: Problems) -> None:
    """AR-1, AR-13: no card may be entered more often than the pack holds it."""
    # Counted first, in one flat list: a round almost never holds a card too often.
    keys = [(card.rank, card.suit) for board in boards.values()
            for cards in (board.spoils, board.meld, board.hand) for card in cards]
    entered = dict.fromkeys(keys, 0)
    if len(entered) == len(keys):
        return  # no card entered twice
    for key in keys:
        entered[key] += 1
    for (rank, _), n in entered.items():
        if n > 1 and (n > 3 or rank not in TRIPLED_RANKS):
            break
    else:
        return
    seen: dict[Card, list[tuple[str, str]]] = {}
    first_over: dict[Card, str] = {}
    for name in players:
        board = boards.get(name)
        if board is None:
            continue
        for section in SECTIONS:
            for i, card in enumerate(getattr(board, section)):
                places = seen.setdefault(card, [])
                places.append((name, section))
                if len(places) == copies_in_pack(card.rank) + 1:
                    first_over[card] = f"{at}.players.{name}.{section}[{i}]"
    for card, where in first_over.items():
        places = seen[card]
        counted = [say("{count} in {place}", count=n, place=_place(*place)) if n > 1 else _place(*place)
                   for place, n in Counter(places).items()]
        found.add(where, say("the pack has only {copies} {card}; {count} were entered ({places}) (AR-1, AR-13)",
                             copies=copies_in_pack(card.rank), card=card, count=len(places),
                             places=joined(counted, ", ")))


def _place(name: str, section: str) -> Text:
    """Where a card was entered: "Ann's Spoils". The cards held are a message of their own: French calls them
    « Main », and the word "Hand" alone is also the name other games give a round (« Donne »)."""
    if section == "hand":
        return say("{name}'s Hand", name=name)
    return say("{name}'s {section}", name=name, section=SECTION_NAMES[section])


def cited(err: Exception, rulings: str) -> Text:
    """A card's problem (core.cards says it) followed by the rulings it breaks."""
    return say("{problem} ({rulings})", problem=err.args[0] if err.args else str(err), rulings=rulings)


# ---------------------------------------------------------------------------------------
# Scoring a round


def _nullify(rnd: Round, sides: Alliances, found: Problems):
    """AR-9: check each hostage and count the marriages it nullifies.

    AR-9 says "another player", so the target may be the holder's ally. A hostage card
    stays in the holder's Spoils: it still scores there and may still marry there.

    Hostages are taken in seat order of their holders, each in the order entered. Each
    needs a marriage holding an identical card that no earlier hostage has nullified:
    AR-9 says each hostage nullifies one such marriage, so two hostages against the
    two spouses of a single marriage are one too many.
    """
    if not any([board.hostages for board in rnd.boards.values()]):
        return _no_hostages(rnd.boards)
    nullified = {p: [0, 0] for p in rnd.boards}  # per Spoils owner, per kind of marriage
    lost_own: dict[str, dict[str, int]] = {p: {} for p in rnd.boards}  # own-House Royals that stop counting (AR-7)
    by = {p: [] for p in rnd.boards}  # (holder, card, kind) per target
    held_by = {p: [] for p in rnd.boards}  # (card, target) per holder
    for holder, board in rnd.boards.items():
        if not board.hostages:
            continue  # as nearly every board: no Counter to make
        declared: Counter[Card] = Counter()
        for hostage in board.hostages:
            card, target = hostage.card, hostage.target
            if not hostage_in_spoils(holder, board, hostage, declared, found):
                continue
            if target not in rnd.boards or sides.ally_of(target) not in rnd.boards:
                continue  # a surrender round without every board is not scored
            target_house = rnd.boards[target].house
            ally_house = rnd.boards[sides.ally_of(target)].house
            kind = marriage_kind(card, target_house, ally_house)
            married = marriages(rnd.boards[target].spoils, target_house, ally_house)
            if kind is None or married[kind] == 0:
                found.add(f"{hostage.where}.target",
                          say("{name}'s Spoils hold no married {card}, so there is nothing to hold hostage (AR-9)",
                              name=target, card=card))
                continue
            if nullified[target][kind] >= married[kind]:
                found.add(f"{hostage.where}.target",
                          say_n("{name}'s Spoils hold one marriage with {card} and other hostages already nullify "
                                "it; no married {card} is left (AR-9)",
                                "{name}'s Spoils hold {count} marriages with {card} and other hostages already "
                                "nullify them; no married {card} is left (AR-9)", married[kind],
                                name=target, card=card))
                continue
            nullified[target][kind] += 1
            if card.suit == target_house:
                lost_own[target][card.rank] = lost_own[target].get(card.rank, 0) + 1
            by[target].append((holder, card, kind))
            held_by[holder].append((card, target))
    return nullified, lost_own, by, held_by


def _no_hostages(boards: Mapping[str, Board]):
    """What :func:`_nullify` finds in a round without hostages, as nearly every round is (read only)."""
    return (dict.fromkeys(boards, (0, 0)), dict.fromkeys(boards, _NOTHING_LOST), dict.fromkeys(boards, ()),
            dict.fromkeys(boards, ()))


def _score_round(rnd: Round, sides: Alliances, house_names: Mapping[str, str], found: Problems):
    nullified, lost_own, hostages_on, held_by = _nullify(rnd, sides, found)
    boards = rnd.boards
    allies = {name: sides.ally_of(name) for name in boards}
    counted = {}
    for name, board in boards.items():
        married = marriages(board.spoils, board.house, boards[allies[name]].house)
        counted[name] = (married[0] - nullified[name][0], married[1] - nullified[name][1])

    scores: dict[str, PlayerScore] = {}
    explain: dict[str, list[str]] = {}
    for name, board in boards.items():
        ally = allies[name]
        ally_board = boards[ally]
        lines = [say("Home House {house}; ally {ally} ({ally_house}) (AR-2, AR-3)",
                     house=house_word(board.house, house_names), ally=ally,
                     ally_house=house_word(ally_board.house, house_names))]
        spoils_pts, meld_pts, hand_pts, matched = _board_points(board, lines)
        notes = _own_royals_in_meld(name, board)
        sets, royals = _royal_sets(name, board, ally, ally_board, counted, lost_own[name], house_names, lines)
        if hostages_on[name] or hostages_on[ally] or held_by[name]:
            _hostage_lines(name, board, ally, ally_board, hostages_on, held_by, lines)
        lines.append(_marriages_line(name, ally, board, ally_board, counted, nullified))

        own_m, ally_m = counted[name][0] + counted[name][1], counted[ally][0] + counted[ally][1]
        player = PlayerScore(spoils_pts, meld_pts, hand_pts, _in_rank_order(matched), royals,
                             sets, own_m, ally_m, tuple(notes))
        lines.extend(notes)
        lines.append(_score_line(spoils_pts + meld_pts - hand_pts, sets, own_m + ally_m))
        scores[name] = player
        explain[name] = lines
    return scores, explain


def _in_rank_order(ranks: Iterable[str]) -> tuple[str, ...]:
    """Ranks in battle order, low to high (a board matches one or two ranks: no walk over all thirteen)."""
    return tuple(ranks) if len(ranks) < 2 else tuple(sorted(ranks, key=_RANK_PLACE.__getitem__))


def _score_line(natural: int, sets: int, marriage_total: int) -> str:
    """AR-10: the natural score times one plus the Royal sets and the marriages."""
    if not sets and not marriage_total:
        return say("Score {natural} × 1 = {natural} (AR-10)", natural=natural)
    parts = [royal_sets_said(sets)] if sets else []
    if marriage_total:
        parts.append(say_n("{count} marriage", "{count} marriages", marriage_total))
    multiplier = 1 + sets + marriage_total
    return say("Score {natural} × (1 + {parts}) = {natural} × {multiplier} = {score} (AR-10)", natural=natural,
               parts=joined(parts, " + "), multiplier=multiplier, score=natural * multiplier)


def royal_sets_said(sets: int) -> Text:
    """AR-7: "1 Royal set", "2 Royal sets"."""
    return say_n("{count} Royal set", "{count} Royal sets", sets)


def _board_points(board: Board, lines: list[str]) -> tuple[int, int, int, frozenset[str]]:
    """AR-4, AR-5, AR-6: the points of Spoils, Meld and Hand, each explained on ``lines``.

    The ranks are read once per board and shared by the points and their lines (as
    :func:`matched_ranks` and :func:`section_points` would find them)."""
    spoils, meld, hand = board.spoils, board.meld, board.hand
    points = _POINTS.__getitem__
    spoils_ranks = [c.rank for c in spoils]
    meld_ranks = [c.rank for c in meld]
    if meld:  # AR-5: each Meld rank, in Meld order, with its cards in Meld + Spoils
        in_both = {rank: meld_ranks.count(rank) + spoils_ranks.count(rank) for rank in meld_ranks}
        matched = frozenset([rank for rank, n in in_both.items() if n >= 3])
    else:
        in_both, matched = {}, _NONE_MATCHED
    spoils_pts = sum(map(points, spoils_ranks))
    meld_pts = sum(map(points, meld_ranks))
    for rank in matched:  # AR-5: a matched card scores double, its points once more
        spoils_pts += points(rank) * spoils_ranks.count(rank)
        meld_pts += points(rank) * meld_ranks.count(rank)
    hand_pts = sum(map(points, [c.rank for c in hand]))
    lines.append(_spoils_line(spoils, spoils_ranks, matched, spoils_pts))
    lines.append(_meld_line(meld, in_both, matched, meld_pts))
    lines.append(say("Hand {cards}: {points} (AR-6)", cards=format_cards(hand), points=-hand_pts) if hand
                 else say("Hand empty: 0 (AR-6)"))
    lines.append(say("Natural score {spoils} + {meld} − {hand} = {natural} (AR-6)", spoils=spoils_pts, meld=meld_pts,
                     hand=hand_pts, natural=spoils_pts + meld_pts - hand_pts))
    return spoils_pts, meld_pts, hand_pts, matched


def _own_royals_in_meld(name: str, board: Board) -> list[str]:
    """AR-13: an own Royal in own Meld is allowed; it is a meld card and nothing more. "Scores only
    its card points" is read as: it scores as any meld card (AR-5 matches apply to it) but
    counts for no Royal set (AR-7 says Royals in Meld do not count)."""
    notes: list[str] = []
    house = board.house
    for card in board.meld:
        if card.suit == house and card.rank in ROYAL_RANKS:
            note = say("{card} in Meld is {name}'s own Royal: allowed, it scores as a meld card but does not count "
                       "as a Royal (AR-13, AR-7)", card=card, name=name)
            if note not in notes:
                notes.append(note)
    return notes


def _royal_sets(name: str, board: Board, ally: str, ally_board: Board, counted: Mapping[str, tuple[int, int]],
                lost: Mapping[str, int], house_names: Mapping[str, str], lines: list[str]
                ) -> tuple[int, tuple[str, ...]]:
    """AR-7: own Royals in own Spoils, plus own-House K/Q married in the ally's Spoils. Read
    literally, a marriage nullified by AR-9 leaves both spouses unmarried: the ally-House
    spouse stops counting for its owner whichever spouse the hostage named, while an
    own-House card in its owner's Spoils stops counting only when it is the hostage's card."""
    house = board.house
    kings = queens = jacks = 0
    for card in board.spoils:
        if card.suit == house:
            if card.rank == "K":
                kings += 1
            elif card.rank == "Q":
                queens += 1
            elif card.rank == "J":
                jacks += 1
    if lost:  # AR-9: only a King or Queen is ever held hostage
        kings -= lost.get("K", 0)
        queens -= lost.get("Q", 0)
    # AR-8: the ally's own K married to a Q of this House, and the ally's own Q married to a K of it
    via_q, via_k = counted[ally] if house != ally_board.house else (0, 0)
    owned = {"K": kings + via_k, "Q": queens + via_q, "J": jacks}
    sets = min(owned.values())
    royals = ("K" + house,) * owned["K"] + ("Q" + house,) * owned["Q"] + ("J" + house,) * jacks
    lines.append(_royals_line(sets, owned, via_k, via_q, lost, house, house_word(house, house_names), ally))
    return sets, royals


def _hostage_lines(name: str, board: Board, ally: str, ally_board: Board, hostages_on, held_by,
                   lines: list[str]) -> None:
    """AR-8, AR-9: the hostages held against this player's marriages and their ally's, and those they hold."""
    house, ally_house = board.house, ally_board.house
    for holder, card, kind in hostages_on[name]:
        pair = pair_text(kind, house, ally_house)
        if card.suit == house:
            lines.append(say("{holder} holds {card} hostage: one marriage ({pair}) in {name}'s Spoils is nullified "
                             "and {card} no longer counts as {name}'s Royal (AR-9)",
                             holder=holder, card=card, pair=pair, name=name))
        else:
            lines.append(say("{holder} holds {card} hostage: one marriage ({pair}) in {name}'s Spoils is nullified "
                             "(AR-9)", holder=holder, card=card, pair=pair, name=name))
    for holder, card, kind in hostages_on[ally]:
        pair = pair_text(kind, ally_house, house)
        mine = pair.split(" + ")[1]  # the spouse of this player's House
        lines.append(say("{holder} holds {card} hostage against {ally}: one marriage ({pair}) in {ally}'s Spoils is "
                         "nullified and that {mine} no longer counts as {name}'s Royal (AR-9)",
                         holder=holder, card=card, ally=ally, pair=pair, mine=mine, name=name))
    for card, target in held_by[name]:
        lines.append(say("Holds {card} hostage against {target} (AR-9)", card=card, target=target))


def _spoils_line(spoils: Sequence[Card], ranks: Sequence[str], matched: frozenset[str], points: int) -> str:
    """AR-4, AR-5: the Spoils and their points; ``ranks`` are the Spoils' ranks."""
    if not spoils:
        return say("Spoils empty: 0 (AR-4)")
    doubled = _in_rank_order([r for r in matched if r in ranks]) if matched else None
    if not doubled:
        return say("Spoils {cards}: {points} (AR-4)", cards=format_cards(spoils), points=points)
    named = joined([RANK_PLURALS[r] for r in doubled], ", ")
    return say("Spoils {cards}: {points} — {ranks} matched with the Meld, doubled (AR-4, AR-5)",
               cards=format_cards(spoils), points=points, ranks=named)


def _meld_line(meld: Sequence[Card], in_both: Mapping[str, int], matched: frozenset[str], points: int) -> str:
    """AR-4, AR-5: the Meld and its points; ``in_both`` holds each Meld rank's cards in Meld + Spoils."""
    if not meld:
        return say("Meld empty: 0 (AR-4)")
    clauses = [say("{ranks} matched ({count} in Meld + Spoils), doubled", ranks=RANK_PLURALS[rank], count=n)
               if rank in matched else
               say("{ranks} not matched ({count} in Meld + Spoils, 3 needed)", ranks=RANK_PLURALS[rank], count=n)
               for rank, n in in_both.items()]
    ruling = "AR-5" if matched else "AR-4, AR-5"
    return say("Meld {cards}: {points} — {clauses} ({rulings})", cards=format_cards(meld), points=points,
               clauses=joined(clauses, "; "), rulings=ruling)


def _royals_line(sets: int, owned: Mapping[str, int], via_k: int, via_q: int, lost: Mapping[str, int],
                 house: str, house_name: str, ally: str) -> str:
    held = royals_held(owned, house_name)
    extras = []
    if via_k > 0 or via_q > 0:
        married = [counted_as(f"{rank}{house}", n) for rank, n in (("K", via_k), ("Q", via_q)) if n > 0]
        extras.append(say("{cards} married in {name}'s Spoils", cards=both(married), name=ally))
    gone = [counted_as(f"{rank}{house}", lost[rank]) for rank in SPOUSE_RANKS if lost.get(rank, 0)] if lost else None
    if gone:
        extras.append(say("{cards} held hostage, not counted", cards=both(gone)))
    if extras:
        return say("Royal sets: {count} ({held}; {more}) (AR-7)", count=sets, held=held, more=joined(extras, "; "))
    return say("Royal sets: {count} ({held}) (AR-7)", count=sets, held=held)


def royals_held(owned: Mapping[str, int], house_name: str) -> Text:
    """AR-7: the Royals a player owns, by rank ("K ×2, Q of Spades"), or none."""
    if owned["K"] or owned["Q"] or owned["J"]:
        ranks = ", ".join([counted_as(rank, owned[rank]) for rank in ROYAL_RANKS if owned[rank]])
        return say("{ranks} of {house}", ranks=ranks, house=house_name)
    return say("no Royals of {house} owned", house=house_name)


def _marriages_in(counted: tuple[int, int], nullified: Sequence[int], owner_house: str, other_house: str,
                  label: str) -> str:
    """AR-8, AR-9: the marriages in one Spoils, counted and nullified, by kind."""
    if not (counted[0] or counted[1] or nullified[0] or nullified[1]):
        return say("{count} in {where}", count=0, where=label)
    pieces = []
    for kind in (0, 1):
        how_many, none_left = counted[kind], nullified[kind]
        if how_many or none_left:
            pair = pair_text(kind, owner_house, other_house)
            if how_many:
                pieces.append(times(pair, how_many))
            if none_left:
                pieces.append(say("{pairs} nullified", pairs=times(pair, none_left)))
    return say("{count} in {where} ({pieces})", count=counted[0] + counted[1], where=label,
               pieces=joined(pieces, ", "))


def _marriages_line(name, ally, board, ally_board, counted, nullified) -> str:
    if board.house == ally_board.house:
        return say("Marriages: none, since {name} and {ally} share a House (AR-8)", name=name, ally=ally)
    own = _marriages_in(counted[name], nullified[name], board.house, ally_board.house, say("own Spoils"))
    theirs = _marriages_in(counted[ally], nullified[ally], ally_board.house, board.house,
                           say("{name}'s Spoils", name=ally))
    return say("Marriages: {own}, {theirs} (AR-8)", own=own, theirs=theirs)


# ---------------------------------------------------------------------------------------
# The game


@dataclass(frozen=True)
class Tally(Decided):
    """The game after some rounds (base.Tallied): the Alliances, and each player's and each Alliance's total."""

    players: tuple[str, ...]
    opts: dict[str, Any]
    sides: Alliances
    totals: dict[str, int]
    side_totals: dict[str, int]


def start(players: Sequence[str], options: Mapping[str, Any], joined: Mapping[str, int] | None = None) -> Tally:
    """The game before its first round; raises InputError for the options."""
    found = Problems()
    opts = _check_options(players, options, found)
    found.raise_if_any()
    sides = alliances(players, opts["teams"])
    return Tally(tuple(players), opts, sides, dict.fromkeys(players, 0), dict.fromkeys(sides.sides, 0))


def step(tally: Tally, raw: object) -> Tally:
    """The game after one more round (base.Fold); raises InputError naming what is wrong with it."""
    found = Problems()
    at = f"rounds[{tally.count}]"
    if tally.over:
        found.add(at, game_ended(tally.count, "AR-12"))
    rnd = _parse_round(raw, at, tally.players, found)
    if found and rnd is not None:
        _hostages_alone(rnd.boards, found)
    found.raise_if_any()
    tally = _advance(tally, rnd, found)
    found.raise_if_any()
    return tally


def _round_detail(rnd: Round, players: Sequence[str], scores: Mapping[str, PlayerScore]) -> dict[str, Any]:
    detail = {}
    for p in players:
        s = scores[p]
        board = s.spoils + s.meld
        natural, multiplier = board - s.hand, 1 + s.royal_sets + s.own_marriages + s.ally_marriages
        detail[p] = {"house": rnd.boards[p].house, "board": board, "spoils": s.spoils, "meld": s.meld,
                     "hand": s.hand, "natural": natural, "matched": list(s.matched), "royals": list(s.royals),
                     "royal_sets": s.royal_sets, "own_marriages": s.own_marriages,
                     "ally_marriages": s.ally_marriages, "multiplier": multiplier, "score": natural * multiplier,
                     "notes": list(s.notes)}
    return detail


def _advance(tally: Tally, rnd: Round, found: Problems) -> Tally:
    """Score one parsed round on ``tally``; the problems it finds go to ``found``."""
    players, sides = tally.players, tally.sides
    if len(rnd.boards) == len(players):
        scores, explain = _score_round(rnd, sides, tally.opts["house_names"], found)
        detail_players = _round_detail(rnd, players, scores)
        points = {p: detail_players[p]["score"] for p in players}  # explain is already in seat order
    else:
        # AR-12: an Alliance surrendered and the boards were not all entered. Boards are
        # scored only when all four are given; otherwise the round is 0 for everyone.
        _nullify(rnd, sides, found)  # still check the hostages that were entered
        points = dict.fromkeys(players, 0)
        explain = {p: [say("{name} surrendered before every board was entered: the round scores 0 ({rulings})",
                           name=rnd.surrender, rulings="AR-12")] for p in players}
        detail_players = {p: {"score": 0, "scored": False} for p in players}

    side_points = {side: points[first] + points[second] for side, (first, second) in sides.sides.items()}
    totals = {p: tally.totals[p] + points[p] for p in players}
    side_totals = {side: tally.side_totals[side] + side_points[side] for side in sides.sides}
    for side, members in sides.sides.items():
        first, second = members
        line = say("Alliance {side}: {first} {first_points} + {second} {second_points} = {points}; total {total} "
                   "(AR-11)", side=side, first=first, first_points=points[first], second=second,
                   second_points=points[second], points=side_points[side], total=side_totals[side])
        for p in members:
            explain[p].append(line)
    detail = {
        "players": detail_players,
        "sides": {side: {"players": list(members), "points": side_points[side], "total": side_totals[side]}
                  for side, members in sides.sides.items()},
        "surrender": rnd.surrender,
    }
    played = tally.played_with(points, explain, detail, side_points)
    tally = Tally(tally.players, tally.opts, sides, totals, side_totals, played=played, over=tally.over,
                  winners=tally.winners, reason=tally.reason)
    return _decided(tally, rnd)


def _decided(tally: Tally, rnd: Round) -> Tally:
    """The tally after a round, with the end of the game if that round ended it."""
    sides, side_totals, number_of_round = tally.sides, tally.side_totals, tally.count
    # AR-12: a surrender ends the game at once and decides it, even in a round that also
    # crosses a threshold; otherwise a total strictly above win_above or below lose_below does.
    if rnd.surrender is not None:
        loser = sides.side_of(rnd.surrender)
        winner = next(s for s in sides.sides if s != loser)
        return replace(tally, over=True, winners=sides.sides[winner],
                       reason=say("{name} surrendered for {loser} in round {round}, so {winner} wins whatever the "
                                  "score (AR-12).", name=rnd.surrender, loser=sides.named(loser),
                                  round=number_of_round, winner=sides.named(winner)))
    win_above, lose_below = tally.opts["win_above"], tally.opts["lose_below"]
    crossed = []
    for side, total in side_totals.items():
        if total > win_above:
            crossed.append(say("{who} passed {bound} with {total}", who=sides.named(side), bound=win_above,
                               total=total))
        elif total < lose_below:
            crossed.append(say("{who} fell below {bound} with {total}", who=sides.named(side), bound=lose_below,
                               total=total))
    if not crossed:
        return tally
    a, b = side_totals["A"], side_totals["B"]
    if a == b:
        winners = tally.players
        outcome = say("the totals are equal at {total}, so the game is a draw", total=a)
    else:
        best = "A" if a > b else "B"
        other = "B" if best == "A" else "A"
        winners = sides.sides[best]
        outcome = say("{who} wins with the higher total, {total} to {other}", who=sides.named(best),
                      total=side_totals[best], other=side_totals[other])
    return replace(tally, over=True, winners=winners,
                   reason=say("After round {round}, {crossed}; {outcome} ({rulings}).", round=number_of_round,
                              crossed=both(crossed), outcome=outcome, rulings="AR-12"))


def game_ended(rounds: int, rulings: str) -> Text:
    """A round entered after the end of the game (AR-12, BR-3, MR-6)."""
    return say("the game ended after round {round}; correct an earlier round instead ({rulings})", round=rounds,
               rulings=rulings)


def finish(tally: Tally) -> ScoredGame:
    """The scored game a tally stands for (base.Fold)."""
    players, sides, opts = tally.players, tally.sides, tally.opts
    win_above, lose_below = opts["win_above"], opts["lose_below"]
    standing = {
        side: {"total": total, "to_win": win_above - total + 1, "to_lose": total - lose_below + 1}
        for side, total in tally.side_totals.items()
    }
    return ScoredGame(
        game=SLUG, players=players, options=opts, rounds=tally.rounds, totals=dict(tally.totals),
        over=tally.over, winners=tuple(p for p in players if p in tally.winners), reason=tally.reason,
        sides={side: list(members) for side, members in sides.sides.items()},
        side_totals=dict(tally.side_totals), standing=standing,
    )


def score(players: Sequence[str], options: Mapping[str, Any], rounds: Sequence[object]) -> ScoredGame:
    """Score a whole game of Alliance Royals; raises InputError listing every problem.

    The reference the fold (:func:`start`, :func:`step`, :func:`finish`) is tested against: every
    round is read first, so every problem in the game is named at once.
    """
    tally = start(players, options)
    found = Problems()
    parsed = [_parse_round(raw, f"rounds[{i}]", tally.players, found) for i, raw in enumerate(rounds)]
    if found:  # the rounds that could be read still have their hostages checked: every problem at once
        for rnd in parsed:
            if rnd is not None:
                _hostages_alone(rnd.boards, found)
    found.raise_if_any()
    for index, rnd in enumerate(parsed):
        assert rnd is not None
        if tally.over:
            found.add(f"rounds[{index}]", game_ended(index, "AR-12"))
            break
        tally = _advance(tally, rnd, found)
    found.raise_if_any()
    return finish(tally)


__all__ = ["OPTIONS", "SLUG", "TITLE", "InputError", "card_points", "copies_in_pack", "marriages",
           "matched_ranks", "score"]
