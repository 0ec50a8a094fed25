"""Rummy Royal, the chips-and-board game, banked as RULINGS.md RM-1 to RM-9 say.

A game is a list of deals. Before each deal every player still in antes onto the
nine spaces of the board (RM-3); then the pay cards, the Marriage and the Sequence
take their spaces (RM-4), the poker stage takes the Pot (RM-5) and the player who
goes out takes the Kitty and a chip for every card left in the other hands (RM-6).
Every chip that moves is recorded with its ruling, and after every deal the chips in
front of the players plus the chips on the board are the starting total (RM-7).

>>> game = score(("Ann", "Ben"), {"chips": 20, "poker": False}, [
...     {"dealer": "Ann", "pay_cards": {"AH": "Ben"}, "out": "Ann", "cards_left": {"Ben": 3}},
... ])
>>> game.totals
{'Ann': 17, 'Ben': 11}
>>> game.rounds[0].detail["board"]["AH"], game.rounds[0].detail["board"]["10H"]
(0, 2)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ...core.cards import CardError, parse_card, said
from ...core.messages import Listed, Signed, Text, joined, say, say_n
from ..base import (
    Decided,
    InputError,
    Problems,
    ScoredGame,
    check_count,
    check_note,
    is_whole_number,
    not_at_table,
)
from . import poker as judge

SLUG = "rummy-royal"
TITLE = "Rummy Royal"
ROUND_NAME = "deal"
MIN_PLAYERS = 2
MAX_PLAYERS = 9
OPTIONS: dict[str, Any] = {"chips": 100, "sequence": "8-9-10", "poker": True, "dealer_antes": 1}

#: Bounds of the numeric options: a table of nine with 100 000 chips each is already a casino.
MAX_CHIPS = 100_000
MAX_DEALER_ANTES = 100
#: A hand is at most the whole pack.
MAX_CARDS_LEFT = 52
#: The poker referee compares at most this many cards a player (the best five of them).
MAX_POKER_CARDS = 13

#: RM-2: the five pay cards, low to high.
PAY_CARDS = ("10H", "JH", "QH", "KH", "AH")
#: RM-2: every space of the board, in the order the board is drawn.
SPACES = (*PAY_CARDS, "marriage", "sequence", "kitty", "pot")
SPACE_NAMES = {**{c: say("the {card} space", card=c) for c in PAY_CARDS}, "marriage": say("the Marriage"),
               "sequence": say("the Sequence"), "kitty": say("the Kitty"), "pot": say("the Pot")}
SEQUENCES = {"8-9-10": "8-9-10", "6-7-8": "6-7-8"}

DEAL_FIELDS = {"dealer", "pay_cards", "sequence", "poker", "out", "cards_left", "note"}
POKER_FIELDS = {"bets", "folded", "winners", "hands"}


def spaces_for(options: Mapping[str, Any]) -> tuple[str, ...]:
    """RM-2: the spaces in play; without the poker stage there is no Pot.

    >>> len(spaces_for(OPTIONS)), spaces_for({**OPTIONS, "poker": False})[-1]
    (9, 'kitty')
    """
    return SPACES if options.get("poker", True) else SPACES[:-1]


def space_name(space: str) -> Text:
    """A space as a player calls it.

    >>> space_name("10H"), space_name("kitty")
    ('the 10H space', 'the Kitty')
    """
    return SPACE_NAMES[space]


def check_options(options: Mapping[str, Any], found: Problems) -> dict[str, Any]:
    """The options with their defaults, every value checked (RM-1 to RM-3)."""
    opts = dict(OPTIONS)
    for key, value in options.items():
        where = f"options.{key}"
        if key == "chips":
            if not is_whole_number(value) or not 1 <= value <= MAX_CHIPS:
                found.add(where, say("each player's starting chips must be a whole number from 1 to {most} (RM-1)",
                                     most=MAX_CHIPS))
            else:
                opts[key] = value
        elif key == "dealer_antes":
            if not is_whole_number(value) or not 1 <= value <= MAX_DEALER_ANTES:
                found.add(where, say("the dealer's ante must be a whole number of chips a space, 1 to {most} (RM-3)",
                                     most=MAX_DEALER_ANTES))
            else:
                opts[key] = value
        elif key == "sequence":
            if not isinstance(value, str) or value not in SEQUENCES:
                found.add(where, say("the Sequence is 8-9-10 or 6-7-8 (RM-2)"))
            else:
                opts[key] = value
        elif key == "poker":
            if not isinstance(value, bool):
                found.add(where, say("say whether the poker stage is played: true or false (RM-2)"))
            else:
                opts[key] = value
        else:
            found.add(where, say("unknown option {option}; Rummy Royal has chips, sequence, poker and dealer_antes",
                                 option=said(key)))
    return opts


@dataclass
class _Deal:
    """The bank's working state through one deal: who has what, and what moved and why."""

    players: Sequence[str]
    stacks: dict[str, int]
    board: dict[str, int]
    explain: dict[str, list[Text]] = field(default_factory=dict)
    lines: list[Text] = field(default_factory=list)
    movements: list[dict[str, Any]] = field(default_factory=list)
    notes: list[Text] = field(default_factory=list)  # lines about the board alone: what stays, the check

    def move(self, giver: str, taker: str, chips: int, why: Text, ruling: str, say: bool = True) -> None:
        """Move chips between a player and a space (or two players) and say why, citing the ruling."""
        if chips <= 0:
            return
        stacks = self.stacks
        giver_plays, taker_plays = giver in stacks, taker in stacks  # a player, or a space of the board
        (stacks if giver_plays else self.board)[giver] -= chips
        (stacks if taker_plays else self.board)[taker] += chips
        self.movements.append({"from": giver, "to": taker, "chips": chips, "ruling": ruling, "why": why})
        if not say:
            return
        if giver_plays and taker_plays:
            self.say(why, ruling, giver, taker)
        elif giver_plays or taker_plays:
            self.say(why, ruling, giver if giver_plays else taker)
        else:
            self.say(why, ruling)

    def say(self, why: Text, ruling: str, *players: str) -> None:
        line = joined([why, f"({ruling})"])
        self.lines.append(line)
        if not players:
            self.notes.append(line)
        elif len(players) == 1:
            self.explain[players[0]].append(line)
        else:
            for p in dict.fromkeys(players):
                self.explain[p].append(line)


@lru_cache(maxsize=1024)  # a deal says some thirty amounts, nearly all of them the same few
def _chips(n: int) -> Text:
    return say_n("{count} chip", "{count} chips", n)


def _names(names: Sequence[str]) -> Listed:
    return Listed(names)


@dataclass(frozen=True)
class Tally(Decided):
    """The game after some deals (base.Tallied): the stacks, the board's spaces, who is out and who dealt."""

    players: tuple[str, ...]
    opts: dict[str, Any]
    stacks: dict[str, int]
    board: dict[str, int]
    out_of_game: tuple[str, ...] = ()  # RM-3: in the order they went out
    dealer: str | None = None

    @property
    def starting_total(self) -> int:
        return self.opts["chips"] * len(self.players)


def start(players: Sequence[str], options: Mapping[str, Any], joined: Mapping[str, int] | None = None) -> Tally:
    """The game before its first deal; raises InputError for the options."""
    found = Problems()
    opts = check_options(options, found)
    found.raise_if_any()
    return Tally(tuple(players), opts, dict.fromkeys(players, opts["chips"]), dict.fromkeys(spaces_for(opts), 0))


def step(tally: Tally, raw: object) -> Tally:
    """The game after one more deal (base.Fold); raises InputError naming what is wrong with it."""
    found = Problems()
    tally = _advance(tally, raw, found)
    found.raise_if_any()
    return tally


def _advance(tally: Tally, raw: object, found: Problems) -> Tally:
    """Play one deal on ``tally``; the problems it finds go to ``found`` (the tally is then of no use)."""
    players, index, at = tally.players, tally.count, f"rounds[{tally.count}]"
    if tally.over:
        found.add(at, say("the game ended after deal {number}; correct an earlier deal instead", number=index))
        return tally
    if not isinstance(raw, Mapping):
        found.add(at, say("each deal needs who dealt, who held the pay cards and the Sequence, the poker stage, "
                          "who went out and the cards left (API.md)"))
        return tally
    spaces = spaces_for(tally.opts)
    stacks, out_of_game = dict(tally.stacks), list(tally.out_of_game)
    deal = _Deal(players, stacks, dict(tally.board), {p: [] for p in players})
    for p in out_of_game:
        deal.explain[p].append(say("{name} is out of the game for want of an ante, keeping {chips} (RM-3)", name=p,
                                   chips=_chips(stacks[p])))
    over, winners, reason, dealer = False, tally.winners, tally.reason, tally.dealer
    if "end" in raw:
        if not _end(raw, at, deal, out_of_game, found):
            return tally
        over = True
        winners, reason = _most_chips(players, stacks, say("The table ended the game after deal {number}",
                                                           number=index))
        detail = _detail(deal, spaces, tally.starting_total, out_of_game, None)
    else:
        dealer = _deal(raw, at, deal, tally.opts, spaces, out_of_game, dealer, found)
        if dealer is None:
            return tally
        detail = _detail(deal, spaces, tally.starting_total, out_of_game, dealer)
        able = [p for p in players if p not in out_of_game and stacks[p] >= len(spaces)]
        if len(able) < 2:
            over = True
            why = (say("After deal {number} only {name} can pay one chip a space for another deal", number=index + 1,
                       name=able[0]) if able else
                   say("After deal {number} nobody can pay one chip a space for another deal", number=index + 1))
            winners, reason = _most_chips(players, stacks, why)
    points = {p: stacks[p] - tally.stacks[p] for p in players}
    for p in players:
        deal.explain[p].append(say("Deal {points}; {name} now has {chips} (RM-7)", points=Signed(points[p]), name=p,
                                   chips=_chips(stacks[p])))
    played = tally.played_with(points, deal.explain, detail)
    return Tally(players, tally.opts, stacks, deal.board, tuple(out_of_game), dealer, played=played, over=over,
                 winners=winners, reason=reason)


def finish(tally: Tally) -> ScoredGame:
    """The scored game a tally stands for (base.Fold)."""
    players, stacks, spaces, out_of_game = tally.players, tally.stacks, spaces_for(tally.opts), tally.out_of_game
    standing = {
        "board": dict(tally.board),
        "spaces": list(spaces),
        "out": list(out_of_game),
        "players": {p: {"chips": stacks[p], "out": p in out_of_game,
                        "can_ante": p not in out_of_game and stacks[p] >= len(spaces)} for p in players},
        "starting_total": tally.starting_total,
        "next_dealer": None if tally.over else _next_dealer(players, out_of_game, tally.dealer, stacks, len(spaces)),
    }
    return ScoredGame(game=SLUG, players=players, options=tally.opts, rounds=tally.rounds,
                      totals=dict(stacks), over=tally.over, winners=tally.winners, reason=tally.reason,
                      standing=standing)


def score(players: Sequence[str], options: Mapping[str, Any], rounds: Sequence[object]) -> ScoredGame:
    """Score a whole game of Rummy Royal; raises InputError listing every problem.

    The reference the fold (:func:`start`, :func:`step`, :func:`finish`) is tested against. Each deal
    is played on the chips the deals before it left, so the deals after one with a problem are not
    played (their chips are not known).
    """
    tally = start(players, options)
    found = Problems()
    for index, raw in enumerate(rounds):
        tally = _advance(tally, raw, found)
        if tally.count == index:
            break
    found.raise_if_any()
    return finish(tally)


def _next_dealer(players, out_of_game, last: str | None, stacks, spaces: int) -> str | None:
    """The deal passes to the left: the next player still in after the last dealer (the first, to start)."""
    seats = list(players)
    begin = 0 if last is None else seats.index(last) + 1
    for step in range(len(seats)):
        p = seats[(begin + step) % len(seats)]
        if p not in out_of_game and stacks[p] >= spaces:
            return p
    return None


def _most_chips(players, stacks, why: Text) -> tuple[tuple[str, ...], Text]:
    """RM-8: the most chips wins; equal most is a draw."""
    best = max(stacks.values())
    top = tuple(p for p in players if stacks[p] == best)
    if len(top) == 1:
        return top, say("{why}; {name} has the most chips, {chips} (RM-8).", why=why, name=top[0], chips=best)
    return top, say("{why}; {names} draw with {chips} chips each (RM-8).", why=why, names=_names(top), chips=best)


def _detail(deal: _Deal, spaces, starting_total: int, out_of_game, dealer) -> dict[str, Any]:
    """What a deal's detail holds: the board after it, every movement, the stacks and the check of RM-7."""
    on_board = sum(deal.board.values())
    held = sum(deal.stacks.values())
    if held + on_board != starting_total:  # pragma: no cover - the properties check it never happens
        raise AssertionError(f"chips not conserved: {held} + {on_board} != {starting_total}")
    check = say("Chips conserved: {held} in front of the players + {board} on the board = {total}, the starting total",
                held=held, board=on_board, total=starting_total)
    deal.say(check, "RM-7")
    return {
        "dealer": dealer,
        "board": {s: deal.board[s] for s in spaces},
        "totals": dict(deal.stacks),
        "out": list(out_of_game),
        "movements": deal.movements,
        "lines": deal.lines,
        "notes": deal.notes,
        "conservation": {"players": held, "board": on_board, "total": held + on_board,
                         "starting": starting_total, "ok": True},
    }


def _end(raw: Mapping, at: str, deal: _Deal, out_of_game, found: Problems) -> bool:
    """RM-8: the table ends the game; what is left on the board goes to the named winner of a last poker hand."""
    end = raw.get("end")
    extra = [k for k in raw if k != "end"]
    for key in extra:
        found.add(f"{at}.{key}", say("the end of the game is given alone, naming only who takes the board (RM-8)"))
    if not isinstance(end, Mapping) or set(end) - {"board_to"}:
        found.add(f"{at}.end", say("the end of the game names the player who takes the board, such as Ben (RM-8)"))
        return False
    taker = end.get("board_to")
    in_game = [p for p in deal.players if p not in out_of_game]
    if not isinstance(taker, str) or taker not in deal.players:
        not_at_table(found, f"{at}.end.board_to", taker, deal.players)
        return False
    if taker not in in_game:
        found.add(f"{at}.end.board_to", say("{name} is out of the game, so cannot play the last poker hand "
                                            "(RM-3, RM-8)", name=taker))
        return False
    if extra:
        return False
    total = sum(deal.board.values())
    deal.say(say("The table ends the game: {name} won the last poker hand and takes what is left on the board, "
                 "{chips}", name=taker, chips=_chips(total)), "RM-8", *deal.players)
    for space, chips in deal.board.items():
        if chips:
            deal.move(space, taker, chips, say("{name} takes {space}, {chips}", name=taker, space=space_name(space),
                                               chips=_chips(chips)), "RM-8")
    return True


def _player(found: Problems, where: str, value: object, players: Sequence[str], active: Sequence[str],
            out_of_game: Sequence[str]) -> str | None:
    """A player still in this deal, or a problem recorded at ``where``."""
    if not isinstance(value, str) or value not in players:
        not_at_table(found, where, value, players)
        return None
    if value not in active:
        found.add(where, say("{name} is out of the game for want of an ante, so takes no part in this deal (RM-3)",
                             name=value))
        return None
    return value


def _names_list(found: Problems, where: str, value: object, players, active, out_of_game, what: Text) -> list[str]:
    """A list of distinct players still in, or problems recorded for each bad entry."""
    if value is None:
        return []
    if not isinstance(value, list):
        found.add(where, say("give {what} as a list of names", what=what))
        return []
    names: list[str] = []
    for i, name in enumerate(value):
        p = _player(found, f"{where}[{i}]", name, players, active, out_of_game)
        if p is None:
            continue
        if p in names:
            found.add(f"{where}[{i}]", say("{name} is listed twice", name=p))
            continue
        names.append(p)
    return names


def _deal(raw: Mapping, at: str, deal: _Deal, opts, spaces, out_of_game: list[str], last_dealer,
          found: Problems) -> str | None:
    """Play one deal through the bank; returns its dealer, or None when the deal has problems."""
    players = deal.players
    stacks, board = deal.stacks, deal.board
    before_problems = len(list(found))
    for key in raw:
        if key not in DEAL_FIELDS:
            found.add(f"{at}.{key}", say("unknown field {key}; a deal has {fields}", key=said(key),
                                         fields=", ".join(sorted(DEAL_FIELDS))))
    check_note(found, at, raw)
    in_game = [p for p in players if p not in out_of_game]
    # The dealer: as given, else the deal passes to the left. A dealer who cannot deal is a problem;
    # the rest of the deal is still read, the antes as if the deal had passed to the left, so that
    # every problem shows at once; the deal is not scored (problems were found).
    dealer = raw.get("dealer")
    if dealer is not None:
        dealer = _player(found, f"{at}.dealer", dealer, players, in_game, out_of_game)
    if dealer is None:
        dealer = _next_dealer(players, out_of_game, last_dealer, stacks, len(spaces)) or in_game[0]
    _antes(deal, in_game, dealer, opts["dealer_antes"], spaces, out_of_game)
    active = [p for p in in_game if p not in out_of_game]
    if len(active) < 2:
        found.add(f"{at}.dealer", say("fewer than two players can pay the ante, so no deal can be played; end the "
                                      "game instead (RM-8)"))
        return None

    # RM-4: the pay cards, the Marriage, the Sequence.
    holders = _pay_cards(raw.get("pay_cards"), f"{at}.pay_cards", players, active, out_of_game, found)
    sequence = _names_list(found, f"{at}.sequence", raw.get("sequence"), players, active, out_of_game,
                           say("the players who held the Sequence"))
    poker = _poker(raw, at, opts, players, active, out_of_game, found)
    went_out = raw.get("out")
    if went_out is None:
        found.add(f"{at}.out", say("name the player who went out in the Michigan stage (RM-6)"))
    else:
        went_out = _player(found, f"{at}.out", went_out, players, active, out_of_game)
    cards_left = _cards_left(raw.get("cards_left"), f"{at}.cards_left", players, active, out_of_game, went_out,
                             found)
    # The stages are played on what could be read even when something could not, so that the bets
    # are checked against the stacks as they stand at the poker stage: every problem at once.
    # A deal with problems is not scored (its chips are thrown away with it).
    _pay_stage(deal, holders, sequence, SEQUENCES[opts["sequence"]])

    # RM-5: the poker stage; a bet can be no more than the player has by then.
    if poker is not None:
        for p, bet in poker.bets.items():
            if bet > stacks[p]:
                found.add(f"{at}.poker.bets.{p}", say("{name} has only {chips} at the poker stage, so cannot bet {bet} "
                                                      "(RM-5)", name=p, chips=_chips(stacks[p]), bet=bet))
    if len(list(found)) > before_problems:
        return None
    if poker is not None:
        _play_poker(deal, poker)
    elif opts["poker"]:
        deal.say(say("No poker hand was entered: the Pot's {chips} stay", chips=_chips(board["pot"])), "RM-5")
    assert went_out is not None
    _michigan(deal, active, went_out, cards_left)
    return dealer


def _antes(deal: _Deal, in_game: Sequence[str], dealer: str, dealer_antes: int, spaces: Sequence[str],
           out_of_game: list[str]) -> None:
    """RM-3: the antes. A player who cannot pay the whole ante is out, and keeps what is left."""
    stacks = deal.stacks
    on_each = 0  # what the players put on each space, added to the board once they have all paid
    for p in in_game:
        each = dealer_antes if p == dealer else 1
        ante = each * len(spaces)
        if stacks[p] < ante:
            out_of_game.append(p)
            deal.say(say("{name} has {chips} and cannot pay the ante of {ante}: out of the game from this deal on, "
                         "keeping {chips}", name=p, chips=_chips(stacks[p]), ante=ante), "RM-3", p)
            continue
        on_each += each
        stacks[p] -= ante
        why = (say("{name} antes {chips} on each of the {spaces} spaces as the dealer", name=p, chips=_chips(each),
                   spaces=len(spaces)) if p == dealer else
               say("{name} antes {chips} on each of the {spaces} spaces", name=p, chips=_chips(each),
                   spaces=len(spaces)))
        deal.movements.append({"from": p, "to": "board", "chips": ante, "ruling": "RM-3", "why": why})
        deal.say(say("{why}: {chips}", why=why, chips=_chips(ante)), "RM-3", p)
    for space in spaces:
        deal.board[space] += on_each


def _pay_stage(deal: _Deal, holders: Mapping[str, str], sequence: Sequence[str], seq: str) -> None:
    """RM-4: each pay card's space to its holder, the Marriage to the holder of KH and QH, the Sequence
    shared by its holders; what nobody claims stays for the next deal."""
    board = deal.board
    for card in PAY_CARDS:
        holder = holders.get(card)
        if holder:
            deal.move(card, holder, board[card], say("{name} holds {card}: takes {space}, {chips}", name=holder,
                                                     card=card, space=space_name(card), chips=_chips(board[card])),
                      "RM-4")
        else:
            deal.say(say("Nobody held {card}: its {chips} stay for the next deal", card=card,
                         chips=_chips(board[card])), "RM-4")
    kh, qh = holders.get("KH"), holders.get("QH")
    if kh and kh == qh:
        deal.move("marriage", kh, board["marriage"],
                  say("{name} holds KH and QH: takes the Marriage, {chips}", name=kh, chips=_chips(board["marriage"])),
                  "RM-4")
    else:
        chips = _chips(board["marriage"])
        deal.say(say("KH ({kh}) and QH ({qh}) were in different hands: the Marriage's {chips} stay", kh=kh, qh=qh,
                     chips=chips) if kh and qh else
                 say("Nobody held both KH and QH: the Marriage's {chips} stay", chips=chips), "RM-4")
    if sequence:
        pile = board["sequence"]
        share, left = divmod(pile, len(sequence))
        for p in sequence:
            deal.move("sequence", p, share, say("{name} holds the Sequence ({sequence} of one suit): takes {chips}, an "
                                                "equal share of {pile}", name=p, sequence=seq, chips=_chips(share),
                                                pile=pile) if len(sequence) > 1 else
                      say("{name} holds the Sequence ({sequence} of one suit): takes {chips}", name=p, sequence=seq,
                          chips=_chips(share)), "RM-4")
        if len(sequence) > 1 and left:
            deal.say(say("{names} share the Sequence's {pile}: {share} each, and {chips} stay on it",
                         names=_names(sequence), pile=pile, share=share, chips=_chips(left)), "RM-4", *sequence)
    else:
        deal.say(say("Nobody held the Sequence ({sequence} of one suit): its {chips} stay", sequence=seq,
                     chips=_chips(board["sequence"])), "RM-4")


def _michigan(deal: _Deal, active: Sequence[str], went_out: str, cards_left: Mapping[str, int]) -> None:
    """RM-6: the first player out takes the Kitty and a chip for every card left in each other hand."""
    stacks = deal.stacks
    deal.move("kitty", went_out, deal.board["kitty"], say("{name} went out first: takes the Kitty, {chips}",
                                                          name=went_out, chips=_chips(deal.board["kitty"])), "RM-6")
    for p in active:
        if p == went_out:
            continue
        n = cards_left.get(p, 0)
        paid = min(n, stacks[p])
        if n == 0:
            deal.say(say("{name} had no cards left: pays {taker} nothing", name=p, taker=went_out), "RM-6", p)
        elif paid < n:
            deal.move(p, went_out, paid, say_n("{name} had {count} card left but only {chips}: pays {taker} all they "
                                               "have, {chips}",
                                               "{name} had {count} cards left but only {chips}: pays {taker} all they "
                                               "have, {chips}", n, name=p, chips=_chips(paid), taker=went_out), "RM-6")
        else:
            deal.move(p, went_out, paid, say_n("{name} had {count} card left: pays {taker} {chips}",
                                               "{name} had {count} cards left: pays {taker} {chips}", n, name=p,
                                               taker=went_out, chips=_chips(paid)), "RM-6")


@dataclass(frozen=True)
class _Poker:
    bets: dict[str, int]
    folded: list[str]
    winners: list[str]
    judged: list[str]  # the referee's lines when the cards were given
    staying: list[str]  # who did not fold


def _pay_cards(value, where, players, active, out_of_game, found: Problems) -> dict[str, str]:
    """RM-4: who held each pay card; a card held by two players is refused."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        found.add(where, say("give who held each pay card (10H, JH, QH, KH, AH), or nobody (RM-4)"))
        return {}
    holders: dict[str, str] = {}
    for key, who in value.items():
        at = f"{where}.{key}"
        try:
            card = str(parse_card(key))
        except CardError as err:
            found.add(at, say("{problem}; the pay cards are {cards}", problem=err.args[0], cards=", ".join(PAY_CARDS)))
            continue
        if card not in PAY_CARDS:
            found.add(at, say("{card} is not a pay card; the pay cards are {cards} (RM-2)", card=card,
                              cards=", ".join(PAY_CARDS)))
            continue
        if card in holders or (card != key and card in value):
            found.add(at, say("{card} is given twice", card=card))
            continue
        names = who if isinstance(who, list) else [] if who is None else [who]
        if len(names) > 1:
            shown = [n if isinstance(n, str) else said(n) for n in names]
            found.add(at, say("{card} was marked for {names}, but the pack has one {card}: only one player "
                              "can have held it (RM-4)", card=card, names=_names(shown)))
            continue
        if names:
            p = _player(found, at, names[0], players, active, out_of_game)
            if p is not None:
                holders[card] = p
    return holders


#: The subjects of a count's problem ("the number of cards left cannot be negative").
CARDS_LEFT, BET = say("the number of cards left"), say("a bet")
#: The most a bet can be: every chip the largest table can start with (a bound on what is entered).
MOST_BET = MAX_CHIPS * MAX_PLAYERS


def _too_many_cards_left() -> Text:
    return say("the cards left cannot be more than {most}", most=MAX_CARDS_LEFT)


def _too_big_a_bet() -> Text:
    return say("a bet cannot be more than {most}", most=MOST_BET)


def _cards_left(value, where, players, active, out_of_game, went_out, found: Problems) -> dict[str, int]:
    """RM-6: the cards left in each other hand when the player went out."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        found.add(where, say("give the cards left as {name: number of cards, ...}"))
        return {}
    left: dict[str, int] = {}
    for name, n in value.items():
        at = f"{where}.{name}"
        p = _player(found, at, name, players, active, out_of_game)
        n = check_count(found, at, n, MAX_CARDS_LEFT, _too_many_cards_left, what=CARDS_LEFT)
        if p is None or n is None:
            continue
        if p == went_out and n:
            found.add(at, say("{name} went out, so {name} has no cards left (RM-6)", name=p))
            continue
        left[p] = n
    return left


def _poker(raw: Mapping, at: str, opts, players, active, out_of_game, found: Problems) -> _Poker | None:
    """RM-5: the poker stage as entered (bets, folds, winners or the cards), checked against the stacks later."""
    value = raw.get("poker")
    where = f"{at}.poker"
    if not opts["poker"]:
        if value is not None:
            found.add(where, say("this table plays without the poker stage (the option is off), so there is no "
                                 "poker hand to enter (RM-2)"))
        return None
    if value is None:
        return None
    if not isinstance(value, Mapping):
        found.add(where, say("the poker stage needs bets, folded and winners (or each player's cards)"))
        return None
    for key in value:
        if key not in POKER_FIELDS:
            found.add(f"{where}.{key}",
                      say("unknown field {key}; the poker stage has bets, folded, winners and hands", key=said(key)))
    bets = _poker_bets(value.get("bets"), f"{where}.bets", players, active, out_of_game, found)
    folded = _names_list(found, f"{where}.folded", value.get("folded"), players, active, out_of_game,
                         say("the players who folded"))
    staying = [p for p in active if p not in folded]
    if not staying:
        found.add(f"{where}.folded", say("everyone folded; at least one player stays in and takes the Pot (RM-5)"))
    winners = _names_list(found, f"{where}.winners", value.get("winners"), players, active, out_of_game,
                          say("the winners of the poker hand"))
    for i, w in enumerate(winners):
        if w in folded:
            found.add(f"{where}.winners[{i}]", say("{name} folded, so {name} cannot win the poker hand (RM-5)", name=w))
    judged: list[Text] = []
    hands = value.get("hands")
    if hands is not None:
        winners, judged = _winners_by_the_cards(hands, where, players, active, out_of_game, folded, staying,
                                                winners, found)
    if len(staying) == 1:
        if winners and winners != staying:
            found.add(f"{where}.winners", say("everyone else folded, so {name} wins the poker hand (RM-5)",
                                              name=staying[0]))
        winners = staying
    elif staying and not winners and hands is None:
        found.add(f"{where}.winners", say("name who won the poker hand (or give the cards and let the referee "
                                          "decide) (RM-5)"))
    return _Poker(bets, folded, winners, judged, staying)


def _poker_bets(raw_bets: object, where: str, players, active, out_of_game, found: Problems) -> dict[str, int]:
    """RM-5: each player's bet in the poker stage, in chips."""
    bets: dict[str, int] = {}
    if raw_bets is None:
        raw_bets = {}
    elif not isinstance(raw_bets, Mapping):
        found.add(where, say("give the bets as {name: chips, ...}"))
        raw_bets = {}
    for name, n in raw_bets.items():
        p = _player(found, f"{where}.{name}", name, players, active, out_of_game)
        n = check_count(found, f"{where}.{name}", n, MOST_BET, _too_big_a_bet, what=BET)
        if p is not None and n is not None:
            bets[p] = n
    return bets


def _winners_by_the_cards(hands: object, where: str, players, active, out_of_game, folded: list[str],
                          staying: list[str], winners: list[str], found: Problems) -> tuple[list[str], list[str]]:
    """RM-9: with the cards of every player still in, the referee names the winners (and says why); the winners
    entered must agree. Without them, the winners entered and no judging."""
    cards = _hands(hands, f"{where}.hands", players, active, out_of_game, folded, found)
    judged: list[Text] = []
    if cards is not None:
        missing = [p for p in staying if p not in cards]
        if missing and len(staying) > 1:
            found.add(f"{where}.hands", say("give the cards of every player who did not fold: {names} missing (RM-9)",
                                            names=_names(missing)))
        elif len(staying) > 1:
            decided, judged = judge.judge({p: cards[p] for p in staying})
            if winners and sorted(winners) != sorted(decided):
                found.add(f"{where}.winners", say("the cards say {names} won the poker hand, not {entered} (RM-9)",
                                                  names=_names(decided), entered=_names(winners)))
            winners = decided
    return winners, judged


def _hands(value, where, players, active, out_of_game, folded, found: Problems) -> dict[str, list[str]] | None:
    """Each player's cards for the poker referee: five or more each, no card twice (RM-9)."""
    if not isinstance(value, Mapping):
        found.add(where, say('give the cards as {name: ["AS", "KS", ...], ...}'))
        return None
    out: dict[str, list[str]] = {}
    seen: dict[str, str] = {}
    ok = True
    for name, cards in value.items():
        at = f"{where}.{name}"
        p = _player(found, at, name, players, active, out_of_game)
        if p is None:
            ok = False
            continue
        if p in folded:
            found.add(at, say("{name} folded, so {name}'s cards are not compared (RM-5)", name=p))
            ok = False
            continue
        parsed = check_cards(cards, at, found, seen, p)
        if parsed is None:
            ok = False
            continue
        out[p] = parsed
    return out if ok else None


def check_cards(cards: object, where: str, found: Problems, seen: dict[str, str], owner: str) -> list[str] | None:
    """One player's cards for the poker referee: 5 to 13 real cards, none held twice (RM-9)."""
    if not isinstance(cards, list) or not MAX_POKER_CARDS >= len(cards) >= 5:
        found.add(where, say("give 5 to {most} cards for {name}, such as AS KS QS JS 10S (RM-9)", most=MAX_POKER_CARDS,
                             name=owner))
        return None
    out: list[str] = []
    for i, text in enumerate(cards):
        try:
            card = _card_text(text) if isinstance(text, str) else str(parse_card(text))
        except CardError as err:
            found.add(f"{where}[{i}]", err.args[0])
            return None
        if card in seen:
            holder = seen[card]
            twice = (say("{card} is given twice ({holder} and {name}); the pack has one {card} (RM-1)", card=card,
                         holder=holder, name=owner) if holder != owner else
                     say("{card} is given twice in {name}'s cards; the pack has one (RM-1)", card=card, name=owner))
            found.add(f"{where}[{i}]", twice)
            return None
        seen[card] = owner
        out.append(card)
    return out


@lru_cache(maxsize=1024)
def _card_text(text: str) -> str:
    """A card's notation as the referee compares it (RM-9), remembered: a poker stage names some
    thirty cards, the same few over a night."""
    return str(parse_card(text))


def _play_poker(deal: _Deal, poker: _Poker) -> None:
    """RM-5: the bets go in, the best hand among those still in takes the Pot; equal best share it."""
    for p, bet in poker.bets.items():
        deal.move(p, "pot", bet, say("{name} put in {chips} in the poker stage and then folded", name=p,
                                     chips=_chips(bet)) if p in poker.folded else
                  say("{name} bets {chips} in the poker stage", name=p, chips=_chips(bet)), "RM-5")
    for p in poker.folded:
        if p not in poker.bets:
            deal.say(say("{name} folded", name=p), "RM-5", p)
    for line in poker.judged:
        deal.lines.append(line)
        for p in poker.winners:
            deal.explain[p].append(line)
    pile = deal.board["pot"]
    winners = poker.winners
    if len(winners) == 1:
        deal.move("pot", winners[0], pile, say("{name} wins the poker hand as everyone else folded: takes the Pot, "
                                               "{chips}", name=winners[0], chips=_chips(pile))
                  if len(poker.staying) == 1 else
                  say("{name} wins the poker hand: takes the Pot, {chips}", name=winners[0], chips=_chips(pile)),
                  "RM-5")
        return
    share, left = divmod(pile, len(winners))
    for p in winners:
        deal.move("pot", p, share, say("{name} shares the poker hand with {names}: takes {chips} of the Pot's {pile}",
                                       name=p, names=_names([w for w in winners if w != p]), chips=_chips(share),
                                       pile=pile), "RM-5")
    if left:
        deal.say(say("The Pot's {pile} split {ways} ways: {share} each, {chips} stay on the Pot", pile=pile,
                     ways=len(winners), share=share, chips=_chips(left)), "RM-5", *winners)


__all__ = ["OPTIONS", "PAY_CARDS", "SLUG", "SPACES", "TITLE", "InputError", "score", "space_name", "spaces_for"]
