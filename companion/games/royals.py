"""The Royals games played each for themselves: Battle Royals (BR) and Marriage Royals (MR).

Both are scored by one engine built on Alliance Royals (AR-1, AR-3 to AR-6, AR-13 hold as
they are; the card points, matches, pack check and round reading are Alliance Royals' own).
What differs between the games is data, a :class:`Family`:

- Battle Royals, two players: nobody to marry, so no marriages and no hostages (BR-2);
- Marriage Royals, three players: a marriage pairs the holder's own King or Queen with the
  Queen or King of another player's House, that player being the spouse (MR-2), hostages
  nullify marriages (MR-3), and spouses share positive scores (MR-4).

Alliance Royals itself keeps its own module: its marriages are between allies and its
scores add up by Alliance, which is a different shape of game, not a different number.

>>> game = score(BATTLE, ("Ann", "Ben"), {}, [{"players": {
...     "Ann": {"house": "S", "spoils": ["KS", "QS", "JS", "9H"], "meld": ["5H", "5D", "5C"], "hand": []},
...     "Ben": {"house": "H", "spoils": ["AD"], "meld": [], "hand": ["3C"]}}}])
>>> game.totals  # Ann (20 + matched fives 60) x (1 + 1 set) = 160; Ben (5 - 10) x 1 = -5
{'Ann': 160, 'Ben': -5}
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..core.cards import Card, said
from ..core.messages import Signed, Text, joined, say, say_n
from . import alliance_royals as ar
from .base import Decided, InputError, Problems, ScoredGame, is_whole_number

SHARE_CHOICES = ("positive", "none")


@dataclass(frozen=True, eq=False)  # one object per game: hashed by identity
class Family:
    """What one game of the family is: its seats and whether its players marry."""

    slug: str
    title: str
    seats: int
    marries: bool  # MR-2: spouses from the other players' Houses; BR-2: nobody
    ruling: str  # the game's ruling prefix: BR or MR
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def end(self) -> str:
        """The ruling that ends the game (BR-3; MR-6 says as BR-3)."""
        return "MR-6" if self.marries else "BR-3"


_COMMON_OPTIONS = {"win_above": 1066, "lose_below": -333, "house_names": dict(ar.OPTIONS["house_names"])}
BATTLE = Family("battle-royals", "Battle Royals", 2, False, "BR", dict(_COMMON_OPTIONS))
MARRIAGE = Family("marriage-royals", "Marriage Royals", 3, True, "MR", {**_COMMON_OPTIONS, "share": "positive"})


@dataclass
class Marriage:
    """MR-2: one marriage in ``holder``'s Spoils: their own card with a card of the spouses' House."""

    holder: str
    spouses: tuple[str, ...]
    own: Card
    other: Card
    nullified_by: tuple[str, Card] | None = None

    @property
    def counted(self) -> bool:
        return self.nullified_by is None

    def cards(self) -> str:
        return f"{self.own} + {self.other}"

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"holder": self.holder, "spouses": list(self.spouses),
                               "cards": [str(self.own), str(self.other)], "counted": self.counted}
        if self.nullified_by:
            out["nullified_by"] = {"holder": self.nullified_by[0], "card": str(self.nullified_by[1])}
        return out


def seat_order_from_left(players: Sequence[str], name: str) -> list[str]:
    """The other players, starting with the one on ``name``'s left (the next seat).

    >>> seat_order_from_left(("Ann", "Ben", "Cat"), "Ben")
    ['Cat', 'Ann']
    """
    i = players.index(name)
    return [players[(i + k) % len(players)] for k in range(1, len(players))]


def find_marriages(players: Sequence[str], houses: Mapping[str, str], spoils: Mapping[str, Sequence[Card]],
                   holder: str) -> list[Marriage]:
    """MR-2: the marriages in ``holder``'s Spoils, in the order they are counted.

    Each other House is taken in seat order from the holder's left; the holder's own Kings
    and Queens are used up as they marry. Players sharing the holder's House marry nobody.

    >>> houses = {"Ann": "S", "Ben": "H", "Cat": "D"}
    >>> spoils = {"Ann": [Card("K", "S"), Card("Q", "D"), Card("Q", "H")], "Ben": [], "Cat": []}
    >>> [(m.cards(), m.spouses) for m in find_marriages(("Ann", "Ben", "Cat"), houses, spoils, "Ann")]
    [('KS + QH', ('Ben',))]
    """
    house = houses[holder]
    held: dict[tuple[str, str], int] = {}  # the Kings and Queens in the Spoils, by rank and suit
    for card in spoils[holder]:
        if card.rank == "K" or card.rank == "Q":  # ar.SPOUSE_RANKS
            key = (card.rank, card.suit)
            held[key] = held.get(key, 0) + 1
    left = {"K": held.get(("K", house), 0), "Q": held.get(("Q", house), 0)}
    found: list[Marriage] = []
    if not left["K"] and not left["Q"]:
        return found  # no own King or Queen to marry
    if all([suit == house for _, suit in held]):
        return found  # no other House's King or Queen to marry them to
    order = seat_order_from_left(players, holder)
    for other_house in dict.fromkeys([houses[p] for p in order]):
        if other_house == house or not (held.get(("Q", other_house)) or held.get(("K", other_house))):
            continue  # the holder's own House, or a House with no King or Queen in these Spoils
        spouses = tuple([p for p in order if houses[p] == other_house])
        for own_rank, other_rank in (("K", "Q"), ("Q", "K")):
            n = min(left[own_rank], held.get((other_rank, other_house), 0))
            if n:
                left[own_rank] -= n
                found.extend([Marriage(holder, spouses, Card(own_rank, house), Card(other_rank, other_house))
                              for _ in range(n)])
    return found


@dataclass
class PlayerRound:
    """One player's round, worked through AR-4 to AR-6 and BR-2 or MR-2 to MR-4."""

    spoils: int
    meld: int
    hand: int
    matched: tuple[str, ...]
    royals: tuple[str, ...]
    royal_sets: int
    own_marriages: int
    spouse_marriages: int
    notes: tuple[str, ...]
    shared: dict[str, int] = field(default_factory=dict)

    @property
    def natural(self) -> int:
        return self.spoils + self.meld - self.hand

    @property
    def multiplier(self) -> int:
        return 1 + self.royal_sets + self.own_marriages + self.spouse_marriages

    @property
    def before_sharing(self) -> int:
        return self.natural * self.multiplier

    @property
    def score(self) -> int:
        return self.before_sharing + sum(self.shared.values())


# ---------------------------------------------------------------------------------------
# Options


def _check_options(family: Family, options: Mapping[str, Any], found: Problems) -> dict[str, Any]:
    opts = dict(family.options)
    opts["house_names"] = dict(family.options["house_names"])
    for key, value in options.items():
        where = f"options.{key}"
        if key not in family.options:
            found.add(where, say("unknown option {key}; {game} has {options}", key=said(key), game=family.title,
                                 options=", ".join(family.options)))
        elif key in ("win_above", "lose_below"):
            if not is_whole_number(value):
                found.add(where, say("{key} must be a whole number, not {value}", key=key, value=said(value)))
            elif key == "win_above" and value <= 0:
                found.add(where, say("win_above must be above 0 (the rules say 1066) ({rulings})", rulings=family.end))
            elif key == "lose_below" and value >= 0:
                found.add(where, say("lose_below must be below 0 (the rules say -333) ({rulings})",
                                     rulings=family.end))
            else:
                opts[key] = value
        elif key == "house_names":
            ar._check_house_names(value, opts["house_names"], found)
        elif key == "share":
            if value not in SHARE_CHOICES:
                found.add(where, say("share must be \"positive\" (spouses share positive scores) or \"none\", not "
                                     "{value} (MR-4)", value=said(value)))
            else:
                opts[key] = value
    return opts


# ---------------------------------------------------------------------------------------
# Scoring a round


def _hostage_alone(family: Family, holder: str, board: ar.Board, hostage: ar.Hostage, declared: Counter,
                   found: Problems) -> bool:
    """BR-2, MR-3: what the holder's own board says of a hostage (checked even in a round that
    cannot be scored, so that every problem shows at once)."""
    if not family.marries:
        found.add(hostage.where, say("{game} has no hostages: with no ally or spouse there are no marriages to "
                                     "hold (BR-2)", game=family.title))
        return False
    return ar.hostage_in_spoils(holder, board, hostage, declared, found, cite="MR-3, AR-9")


def _hostages_alone(family: Family, boards: Mapping[str, ar.Board], found: Problems) -> None:
    for holder, board in boards.items():
        declared: Counter = Counter()
        for hostage in board.hostages:
            _hostage_alone(family, holder, board, hostage, declared, found)


def _hostages(family: Family, rnd: ar.Round, players: Sequence[str], married: Mapping[str, list[Marriage]],
              found: Problems) -> dict[str, list[tuple[Card, str, Marriage]]]:
    """MR-3 (as AR-9): each hostage nullifies the last counted marriage at the target holding its twin.

    BR-2: Battle Royals has no hostages at all. Returns, per holder, what each hostage did.
    """
    held_by: dict[str, list[tuple[Card, str, Marriage]]] = {p: [] for p in players}
    for holder in players:
        board = rnd.boards[holder]
        if not board.hostages:
            continue  # as nearly every board: no Counter to make
        declared: Counter[Card] = Counter()
        for hostage in board.hostages:
            card, target = hostage.card, hostage.target
            if not _hostage_alone(family, holder, board, hostage, declared, found):
                continue
            twins = [m for m in married[target] if card in (m.own, m.other)]
            free = [m for m in twins if m.counted]
            if not twins:
                found.add(f"{hostage.where}.target",
                          say("{name}'s Spoils hold no married {card}, so there is nothing to hold hostage (MR-3, "
                              "AR-9)", name=target, card=card))
                continue
            if not free:
                found.add(f"{hostage.where}.target",
                          say("other hostages already nullify every marriage with {card} in {name}'s Spoils; no "
                              "married {card} is left (MR-3, AR-9)", card=card, name=target))
                continue
            last = free[-1]
            last.nullified_by = (holder, card)
            held_by[holder].append((card, target, last))
    return held_by


def _score_round(family: Family, rnd: ar.Round, players: Sequence[str], opts: Mapping[str, Any],
                 found: Problems) -> tuple[dict[str, PlayerRound], dict[str, list[str]], list[Marriage]]:
    boards = rnd.boards
    names = opts["house_names"]
    houses = {p: boards[p].house for p in players}
    spoils = {p: boards[p].spoils for p in players}
    married = {p: find_marriages(players, houses, spoils, p) if family.marries else [] for p in players}
    held_by = _hostages(family, rnd, players, married, found)
    every = [m for p in players for m in married[p]]

    scores: dict[str, PlayerRound] = {}
    explain: dict[str, list[str]] = {}
    for name in players:
        board = boards[name]
        lines = [say("Home House {house} ({rulings})", house=ar.house_word(board.house, names),
                     rulings=f"{family.ruling}-1, AR-3")]
        spoils_pts, meld_pts, hand_pts, matched = ar._board_points(board, lines)
        notes = ar._own_royals_in_meld(name, board)
        as_spouse = [m for m in every if name in m.spouses]
        sets, royals = _royal_sets(family, board, married[name], as_spouse, ar.house_word(board.house, names), lines)
        own_m = len([m for m in married[name] if m.counted])
        spouse_m = len([m for m in as_spouse if m.counted])
        if family.marries:
            lines.extend(_marriage_lines(name, married[name], every, held_by[name]))
        player = PlayerRound(spoils_pts, meld_pts, hand_pts, ar._in_rank_order(matched), royals,
                             sets, own_m, spouse_m, tuple(notes))
        lines.extend(notes)
        lines.append(_score_line(family, spoils_pts + meld_pts - hand_pts, sets, own_m, spouse_m))
        scores[name] = player
        explain[name] = lines

    if family.marries:
        _share(players, scores, explain, every, opts["share"])
        if not any([m.counted for m in every]):
            for name in players:
                explain[name].append(say("No marriage counts on any board this round; the authors say a round "
                                         "cannot end before someone is married, so it is scored with this note "
                                         "(MR-5)"))
    return scores, explain, every


def _score_line(family: Family, natural: int, sets: int, own_m: int, spouse_m: int) -> str:
    """BR-2, MR-3: the natural score times one plus the Royal sets and the marriages."""
    multiplier = 1 + sets + own_m + spouse_m
    parts = [ar.royal_sets_said(sets)] if sets else []
    if own_m:
        parts.append(say_n("{count} own marriage", "{count} own marriages", own_m))
    if spouse_m:
        parts.append(say_n("spouse in {count} marriage", "spouse in {count} marriages", spouse_m))
    values = {"natural": natural, "multiplier": multiplier, "score": natural * multiplier}
    how = say("(1 + {parts}) = {natural} × {multiplier}", parts=joined(parts, " + "), **values) if parts else "1"
    if family.marries:
        return say("Score before sharing {natural} × {how} = {score} (MR-3)", how=how, **values)
    return say("Score {natural} × {how} = {score} (BR-2)", how=how, **values)


def _royal_sets(family: Family, board: ar.Board, mine: list[Marriage], as_spouse: list[Marriage],
                house_name: str, lines: list[str]) -> tuple[int, tuple[str, ...]]:
    """BR-2 / MR-3: Royals in own Spoils, plus own-House Royals married in a spouse's Spoils."""
    house = board.house
    own = {"K": 0, "Q": 0, "J": 0}
    for card in board.spoils:
        if card.suit == house and card.rank in own:
            own[card.rank] += 1
    for m in mine:
        if m.nullified_by and m.nullified_by[1] == m.own:
            own[m.own.rank] -= 1  # the hostage's twin stops counting as its owner's Royal (AR-9)
    via: dict[str, int] = {}
    for m in as_spouse:
        if m.counted:
            via[m.other.rank] = via.get(m.other.rank, 0) + 1
    owned = {"K": own["K"] + via.get("K", 0), "Q": own["Q"] + via.get("Q", 0), "J": own["J"] + via.get("J", 0)}
    sets = min(owned.values())
    royals = ("K" + house,) * owned["K"] + ("Q" + house,) * owned["Q"] + ("J" + house,) * owned["J"]
    rulings = "MR-3, AR-7" if family.marries else "BR-2, AR-7"
    held = ar.royals_held(owned, house_name)
    if via:
        spouse_spoils = sorted({m.holder for m in as_spouse if m.counted})
        married = say("{cards} married in {name}'s Spoils", cards=ar.both([f"{r}{house}" for r in ar.SPOUSE_RANKS
                                                                          if via.get(r)]),
                      name=ar.both(spouse_spoils))
        lines.append(say("Royal sets: {count} ({held}; {more}) ({rulings})", count=sets, held=held, more=married,
                         rulings=rulings))
    else:
        lines.append(say("Royal sets: {count} ({held}) ({rulings})", count=sets, held=held, rulings=rulings))
    return sets, royals


def _marriage_lines(name: str, mine: list[Marriage], every: list[Marriage],
                    held_by: list[tuple[Card, str, Marriage]]) -> list[str]:
    lines = []
    for m in mine:
        spouse = ar.both(m.spouses)
        if m.counted:
            lines.append(say("Marriage {cards} in own Spoils, spouse {spouse} (MR-2)", cards=m.cards(), spouse=spouse))
        else:
            who, card = m.nullified_by
            lines.append(say("Marriage {cards} in own Spoils, spouse {spouse}: nullified by {holder}'s hostage {card} "
                             "(MR-3, AR-9)", cards=m.cards(), spouse=spouse, holder=who, card=card))
    for m in every:
        if name in m.spouses:
            if m.counted:
                lines.append(say("Spouse in {holder}'s marriage {cards}: {card} counts as own Royal (MR-2, MR-3)",
                                 holder=m.holder, cards=m.cards(), card=m.other))
            else:
                lines.append(say("{holder}'s marriage {cards} with {name} is nullified by {by}'s hostage {card} "
                                 "(MR-3, AR-9)", holder=m.holder, cards=m.cards(), name=name,
                                 by=m.nullified_by[0], card=m.nullified_by[1]))
    for card, target, m in held_by:
        lines.append(say("Holds {card} hostage against {target}: nullifies {target}'s marriage {cards} (MR-3, AR-9)",
                         card=card, target=target, cards=m.cards()))
    if not mine and not any([name in m.spouses for m in every]):
        lines.append(say("Marriages: none (MR-2)"))
    return lines


def _share(players: Sequence[str], scores: dict[str, PlayerRound], explain: dict[str, list[str]],
           every: list[Marriage], share: str) -> None:
    """MR-4: each player adds, once per spouse, that spouse's positive score before sharing."""
    wed = set()  # (player, spouse), both ways round, for every marriage that counts
    for m in every:
        if m.counted:
            for spouse in m.spouses:
                wed.add((m.holder, spouse))
                wed.add((spouse, m.holder))
    for name in players:
        spouses = [p for p in players if p != name and (name, p) in wed]
        if not spouses:
            continue
        if share == "none":
            explain[name].append(say("Spouses {spouses}: nothing shared, the table plays share: none (MR-4)",
                                     spouses=ar.both(spouses)))
            continue
        for spouse in spouses:
            theirs = scores[spouse].before_sharing
            if theirs > 0:
                scores[name].shared[spouse] = theirs
                explain[name].append(say("Shares spouse {spouse}'s score before sharing: {points} (MR-4)",
                                         spouse=spouse, points=Signed(theirs)))
            else:
                explain[name].append(say("Spouse {spouse}'s score before sharing is {points}: only positive scores "
                                         "are shared (MR-4)", spouse=spouse, points=theirs))
        added = scores[name].before_sharing
        for shared in scores[name].shared.values():
            added = say("{sum} + {points}", sum=added, points=shared)
        explain[name].append(say("Round score {sum} = {score} (MR-4)", sum=added, score=scores[name].score))


# ---------------------------------------------------------------------------------------
# The game


def _leaders(players: Sequence[str], totals: Mapping[str, int]) -> tuple[str, ...]:
    best = max(totals[p] for p in players)
    return tuple(p for p in players if totals[p] == best)


@dataclass(frozen=True)
class Tally(Decided):
    """A game of the family after some rounds (base.Tallied): the family, and each player's total."""

    family: Family
    players: tuple[str, ...]
    opts: dict[str, Any]
    totals: dict[str, int]


def start(family: Family, players: Sequence[str], options: Mapping[str, Any],
          joined: Mapping[str, int] | None = None) -> Tally:
    """The game before its first round; raises InputError for the options. Nobody joins a game of the
    family late (:func:`companion.games.late_players_refused` says so before), so ``joined`` is never read."""
    found = Problems()
    opts = _check_options(family, options, found)
    found.raise_if_any()
    return Tally(family, tuple(players), opts, dict.fromkeys(players, 0))


def _ended(family: Family, index: int) -> Text:
    return ar.game_ended(index, family.end)


def step(tally: Tally, raw: object) -> Tally:
    """The game after one more round (base.Fold); raises InputError naming what is wrong with it."""
    found = Problems()
    at = f"rounds[{tally.count}]"
    if tally.over:
        found.add(at, _ended(tally.family, tally.count))
    alone = functools.partial(_hostages_alone, tally.family)
    rnd = ar._parse_round(raw, at, tally.players, found, alone)
    if found and rnd is not None:
        alone(rnd.boards, found)
    found.raise_if_any()
    tally = _advance(tally, rnd, found)
    found.raise_if_any()
    return tally


def _advance(tally: Tally, rnd: ar.Round, found: Problems) -> Tally:
    """Score one parsed round on ``tally``; the problems it finds go to ``found``."""
    family, players = tally.family, tally.players
    detail: dict[str, Any] = {"surrender": rnd.surrender}
    if len(rnd.boards) == len(players):
        scores, explain, every = _score_round(family, rnd, players, tally.opts, found)
        detail["players"] = {p: _player_detail(rnd.boards[p].house, s) for p, s in scores.items()}
        points = {p: detail["players"][p]["score"] for p in players}
        if family.marries:
            detail["marriages"] = [m.as_json() for m in every]
            detail["no_marriage"] = not any([m.counted for m in every])
    else:
        points = dict.fromkeys(players, 0)
        explain = {p: [say("{name} surrendered before every board was entered: the round scores 0 ({rulings})",
                           name=rnd.surrender, rulings=family.end)] for p in players}
        detail["players"] = {p: {"score": 0, "scored": False} for p in players}
    totals = {p: tally.totals[p] + points[p] for p in players}
    for p in players:
        explain[p].append(say("Total {total} ({rulings})", total=totals[p], rulings=family.end))
    played = tally.played_with(points, explain, detail)
    tally = Tally(family, players, tally.opts, totals, played=played, over=tally.over, winners=tally.winners,
                  reason=tally.reason)
    return _decided(tally, rnd)


def _player_detail(house: str, s: PlayerRound) -> dict[str, Any]:
    natural, multiplier = s.spoils + s.meld - s.hand, 1 + s.royal_sets + s.own_marriages + s.spouse_marriages
    before_sharing = natural * multiplier
    return {"house": house, "board": s.spoils + s.meld, "spoils": s.spoils, "meld": s.meld,
            "hand": s.hand, "natural": natural, "matched": list(s.matched), "royals": list(s.royals),
            "royal_sets": s.royal_sets, "own_marriages": s.own_marriages,
            "spouse_marriages": s.spouse_marriages, "multiplier": multiplier,
            "before_sharing": before_sharing, "shared": dict(s.shared),
            "score": before_sharing + sum(s.shared.values()), "notes": list(s.notes)}


def _decided(tally: Tally, rnd: ar.Round) -> Tally:
    """The tally after a round, with the end of the game if that round ended it."""
    family, players, totals, n = tally.family, tally.players, tally.totals, tally.count
    if rnd.surrender is not None:
        others = [p for p in players if p != rnd.surrender]
        winners = _leaders(others, totals)
        who = ar.both(winners)
        if len(others) == 1:
            reason = say("{name} surrendered in round {round}, so {winner} wins whatever the score ({rulings}).",
                         name=rnd.surrender, round=n, winner=who, rulings=family.end)
        elif len(winners) == 1:
            reason = say("{name} surrendered in round {round}, which ends the game; of the others, {winner} wins "
                         "with the higher total ({rulings}).", name=rnd.surrender, round=n, winner=who,
                         rulings=family.end)
        else:
            reason = say("{name} surrendered in round {round}, which ends the game; of the others, {winners} win "
                         "with the higher total ({rulings}).", name=rnd.surrender, round=n, winners=who,
                         rulings=family.end)
        return replace(tally, over=True, winners=winners, reason=reason)
    win_above, lose_below = tally.opts["win_above"], tally.opts["lose_below"]
    crossed = []
    for p in players:
        if totals[p] > win_above:
            crossed.append(say("{who} passed {bound} with {total}", who=p, bound=win_above, total=totals[p]))
        elif totals[p] < lose_below:
            crossed.append(say("{who} fell below {bound} with {total}", who=p, bound=lose_below, total=totals[p]))
    if not crossed:
        return tally
    winners = _leaders(players, totals)
    top = totals[winners[0]]
    if len(winners) == 1:
        outcome = say("{winner} wins with the highest total, {total}", winner=winners[0], total=top)
    else:
        outcome = say("{winners} are level on {total}, so the game is a draw between them", winners=ar.both(winners),
                      total=top)
    return replace(tally, over=True, winners=winners,
                   reason=say("After round {round}, {crossed}; {outcome} ({rulings}).", round=n,
                              crossed=ar.both(crossed), outcome=outcome, rulings=family.end))


def finish(tally: Tally) -> ScoredGame:
    """The scored game a tally stands for (base.Fold)."""
    win_above, lose_below = tally.opts["win_above"], tally.opts["lose_below"]
    standing = {p: {"total": t, "to_win": win_above - t + 1, "to_lose": t - lose_below + 1}
                for p, t in tally.totals.items()}
    return ScoredGame(game=tally.family.slug, players=tally.players, options=tally.opts,
                      rounds=tally.rounds, totals=dict(tally.totals), over=tally.over,
                      winners=tuple(p for p in tally.players if p in tally.winners), reason=tally.reason,
                      standing=standing)


def score(family: Family, players: Sequence[str], options: Mapping[str, Any], rounds: Sequence[object]) -> ScoredGame:
    """Score a whole game of Battle Royals or Marriage Royals; raises InputError listing every problem.

    The reference the fold (:func:`start`, :func:`step`, :func:`finish`) is tested against: every
    round is read first, so every problem in the game is named at once.
    """
    tally = start(family, players, options)
    found = Problems()
    alone = functools.partial(_hostages_alone, family)
    parsed = [ar._parse_round(raw, f"rounds[{i}]", tally.players, found, alone) for i, raw in enumerate(rounds)]
    if found:  # the rounds that could be read still have their hostages checked: every problem at once
        for rnd in parsed:
            if rnd is not None:
                alone(rnd.boards, found)
    found.raise_if_any()
    for index, rnd in enumerate(parsed):
        assert rnd is not None
        if tally.over:
            found.add(f"rounds[{index}]", _ended(family, index))
            break
        tally = _advance(tally, rnd, found)
    found.raise_if_any()
    return finish(tally)


def engine(family: Family) -> tuple[Any, ...]:
    """What an engine module offers the registry (games/__init__.py), for one game of the family, in the order
    battle_royals.py and marriage_royals.py unpack it: SLUG, TITLE, MIN_PLAYERS, MAX_PLAYERS, ROUND_NAME and
    OPTIONS, then the fold (base.Fold: start, step, finish) and score, bound to the family.

    >>> slug, title, fewest, most, noun, options, *calls = engine(BATTLE)
    >>> slug, fewest, most, noun, options["win_above"], [call.__name__ for call in calls[1:3]]
    ('battle-royals', 2, 2, 'round', 1066, ['step', 'finish'])
    """
    return (family.slug, family.title, family.seats, family.seats, "round", dict(family.options),
            functools.partial(start, family), step, finish, functools.partial(score, family))


__all__ = ["BATTLE", "MARRIAGE", "Family", "InputError", "Marriage", "engine", "find_marriages", "score"]
