"""Rummathon Royale, scored as RULINGS.md RR-1 to RR-6 say.

A game is a list of hands. Each hand names who went out, the cards left in
the other hands by class, each player's progress through the schedule of
rounds, the Burdens played and the extra cards bought before the deal.

>>> game = score(("Ann", "Ben", "Cat"), {}, [
...     {"out": "Ann", "left": {"Ben": {"low": 3, "high": 1}, "Cat": {"flex": 1}},
...      "progress": {"Ben": "completed"}},
... ])
>>> game.totals
{'Ann': 50, 'Ben': 0, 'Cat': 0}
>>> game.standing["Ben"]["round"], game.standing["Cat"]["round"]
(2, 1)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..core.messages import Listed, Signed, Text, joined, say, say_n
from .base import (
    Decided,
    InputError,
    Problems,
    ScoredGame,
    check_count,
    check_note,
    not_at_table,
    said,
)

SLUG = "rummathon-royale"
TITLE = "Rummathon Royale"
ROUND_NAME = "hand"
MIN_PLAYERS = 2
MAX_PLAYERS = 6
OPTIONS: dict[str, Any] = {"schedule": "all"}

#: RR-5: which rounds of the twelve on the rule card are played.
SCHEDULES: dict[str, tuple[int, ...]] = {
    "all": tuple(range(1, 13)),
    "even": tuple(range(2, 13, 2)),
    "odd": tuple(range(1, 13, 2)),
    "half": tuple(range(1, 7)),
}
SCHEDULE_NAMES = {
    "all": say("all twelve rounds"),
    "even": say("even rounds only"),
    "odd": say("odd rounds only"),
    "half": say("the first six rounds"),
}

#: RR-1: points of each class of card left in a hand.
CARD_CLASSES: dict[str, tuple[int, str]] = {
    "low": (5, "1-9"),
    "high": (10, "10-12"),
    "action": (15, "Burden/Bypass/Block"),
    "sabotage": (20, "Sabotage"),
    "flex": (25, "Flex"),
}
#: The pack has 112 playing cards; no hand can hold more of one class.
MAX_CARDS_OF_A_CLASS = 112

PROGRESS = {
    "completed": say("completed the round"),
    "failed": say("did not complete the round"),
    "declared-completed": say("declared Rummathon Royale and completed the next round too"),
    "declared-failed": say("declared Rummathon Royale and failed"),
    "double-completed": say("declared Double Rummathon Royale and completed it"),
}
PROGRESS_LIST = say("{ways} or {last}", ways=joined(list(PROGRESS.values())[:-1], ", "),
                    last=list(PROGRESS.values())[-1])
DECLARATIONS = {"declared-completed", "declared-failed", "double-completed"}
#: RR-3: what a Burden is worth, to its target when completed, else to who played it.
BURDEN_POINTS = {False: 50, True: 100}
#: RR-4
MAX_EXTRA_CARDS = 20
#: Their subject in a problem ("the number of extra cards bought cannot be negative").
EXTRA_CARDS = say("the number of extra cards bought")
EXTRA_CARD_COST = 10

BURDEN_FIELDS = {"on", "by", "double", "completed"}
HAND_FIELDS = {"out", "left", "progress", "burdens", "extra_cards", "note"}


@dataclass(frozen=True)
class Burden:
    on: str
    by: str
    double: bool
    completed: bool


@dataclass(frozen=True)
class Hand:
    """One hand as entered, after its shape has been checked."""

    out: str | None
    left: Mapping[str, Mapping[str, int]]
    progress: Mapping[str, str]
    burdens: tuple[Burden, ...]
    extra_cards: Mapping[str, int]


def cards_left_points(cards: Mapping[str, int]) -> int:
    """RR-1: the points of the cards left in one hand.

    >>> cards_left_points({"low": 3, "high": 1, "flex": 1})
    50
    """
    return sum(CARD_CLASSES[kind][0] * n for kind, n in cards.items())


def describe_cards(cards: Mapping[str, int]) -> str:
    """The cards left in a hand, class by class, as the explanation prints them (the cards' names as printed).

    >>> describe_cards({"low": 3, "high": 0, "flex": 1})
    '3 × 1-9 (15) + 1 × Flex (25)'
    """
    parts = [
        f"{n} × {CARD_CLASSES[kind][1]} ({n * CARD_CLASSES[kind][0]})"
        for kind, n in cards.items()
        if n
    ]
    return " + ".join(parts) if parts else say("no cards")


def max_extra_cards(score: int) -> int:
    """RR-4: how many extra cards a score can buy (rounded up, at most 20).

    >>> [max_extra_cards(s) for s in (0, 5, 95, 100, 101, 500)]
    [0, 1, 10, 10, 11, 20]
    """
    return min(MAX_EXTRA_CARDS, math.ceil(score / EXTRA_CARD_COST))


def extra_cards_cost(count: int, score: int) -> int:
    """RR-4: 10 points a card, but never more than the player has.

    >>> extra_cards_cost(10, 95), extra_cards_cost(3, 200)
    (95, 30)
    """
    return min(count * EXTRA_CARD_COST, score)


def _parse_hand(raw: object, at: str, players: Sequence[str], found: Problems) -> Hand | None:
    """One hand as entered, read field by field; its problems are added to ``found`` in that order."""
    if not isinstance(raw, Mapping):
        found.add(at, say("each hand needs who went out, the cards left, each player's round, the Burdens and the "
                          "extra cards bought (API.md)"))
        return None
    _check_hand_fields(raw, at, found)
    out = raw.get("out")
    out_given = out is not None
    if out_given:
        out = _player_at_table(out, f"{at}.out", players, found)
    left = _read_cards_left(raw, at, out, players, found)
    progress = _read_progress(raw, at, out, players, found)
    burdens = _read_burdens(raw.get("burdens"), at, players, found)
    _apply_burdens_to_progress(burdens, progress, at, found)
    extra = _read_extra_cards(raw, at, players, found)
    _check_how_the_hand_ended(out_given, progress, at, found)
    return Hand(out, left, progress, burdens, extra)


def _check_hand_fields(raw: Mapping, at: str, found: Problems) -> None:
    for key in raw:
        if key not in HAND_FIELDS:
            found.add(f"{at}.{key}", say("unknown field {field}; a hand has {fields}", field=said(key),
                                         fields=", ".join(sorted(HAND_FIELDS))))
    check_note(found, at, raw)


def _player_at_table(value: object, where: str, players: Sequence[str], found: Problems,
                     missing: str = "") -> str | None:
    """``value`` if it names a player at the table; ``missing`` is what to say when it is left blank."""
    if missing and (value is None or value == ""):
        found.add(where, missing)
        return None
    if not isinstance(value, str) or value not in players:
        not_at_table(found, where, value, players)
        return None
    return value


def _per_player(raw: Mapping, key: str, shape: str, at: str, players: Sequence[str], found: Problems):
    """(name, value, where) for each entry of a player-keyed field of the hand."""
    value = raw.get(key)
    if value is None:  # left out, or null: nobody
        return
    if not isinstance(value, Mapping):
        found.add(f"{at}.{key}", say("give {shape} for each player by name", shape=shape))
        return
    for name, item in value.items():
        where = f"{at}.{key}.{name}"
        if _player_at_table(name, where, players, found) is not None:
            yield name, item, where


def _read_cards_left(raw: Mapping, at: str, out: str | None, players: Sequence[str],
                     found: Problems) -> dict[str, dict[str, int]]:
    """RR-1: the cards left in each player's hand, every class counted; who went out has none (RR-2)."""
    left: dict[str, dict[str, int]] = {}
    for name, cards, where in _per_player(raw, "left", say("the cards left in hand, by class,"), at, players, found):
        if not isinstance(cards, Mapping):
            found.add(where, say("give the cards left as counts: low, high, action, sabotage, flex"))
            continue
        counts = _card_counts(cards, where, found)
        if name == out and any(counts.values()):
            found.add(where, say("{name} went out, so {name} has no cards left (RR-2)", name=name))
        left[name] = {kind: counts.get(kind, 0) for kind in CARD_CLASSES}
    return left


def _card_counts(cards: Mapping, where: str, found: Problems) -> dict[str, int]:
    """RR-1: one hand's cards left, the classes that were entered and could be read."""
    counts = {}
    for kind, n in cards.items():
        if kind not in CARD_CLASSES:
            found.add(f"{where}.{kind}", say("unknown class of card {kind}; use low, high, action, sabotage or flex "
                                             "(RR-1)", kind=said(kind)))
            continue
        n = check_count(found, f"{where}.{kind}", n, MAX_CARDS_OF_A_CLASS,
                        lambda: say("the pack has only {most} playing cards", most=MAX_CARDS_OF_A_CLASS))
        if n is not None:
            counts[kind] = n
    return counts


def _read_progress(raw: Mapping, at: str, out: str | None, players: Sequence[str],
                   found: Problems) -> dict[str, str]:
    """RR-5: how each player's round went; going out completes it (RR-2)."""
    progress: dict[str, str] = {}
    for name, value, where in _per_player(raw, "progress", say("how their round went"), at, players, found):
        if not isinstance(value, str) or value not in PROGRESS:  # a list is unhashable
            found.add(where, say("{value} is not a way a round can go: a player {ways} (RR-5)", value=said(value),
                                 ways=PROGRESS_LIST))
        else:
            progress[name] = value
    if out is not None:
        progress.setdefault(out, "completed")
        if progress[out] in ("failed", "declared-failed"):
            found.add(
                f"{at}.progress.{out}",
                say("{name} went out, which completes the round, yet the entry says {name} {progress} (RR-2, RR-5)",
                    name=out, progress=PROGRESS[progress[out]]),
            )
    return progress


def _read_burdens(raw_burdens: object, at: str, players: Sequence[str], found: Problems) -> tuple[Burden, ...]:
    """RR-3: the Burdens played this hand, in order; nobody is burdened twice."""
    if raw_burdens is None:
        raw_burdens = []
    elif not isinstance(raw_burdens, list):
        found.add(f"{at}.burdens", say("give the Burdens as a list (RR-3)"))
        raw_burdens = []
    burdens: list[Burden] = []
    burdened: set[str] = set()
    for i, b in enumerate(raw_burdens):
        where = f"{at}.burdens[{i}]"
        burden = _read_burden(b, where, players, found)
        if burden is None:
            continue
        if burden.on in burdened:
            found.add(f"{where}.on", say("{name} is already burdened this hand; nobody is burdened twice (RR-3)",
                                         name=burden.on))
            continue
        burdened.add(burden.on)
        burdens.append(burden)
    return tuple(burdens)


def _read_burden(b: object, where: str, players: Sequence[str], found: Problems) -> Burden | None:
    """RR-3: one Burden, when every part of it can be read and it was played on someone else."""
    if not isinstance(b, Mapping):
        found.add(where, say("a Burden needs who it was on, who played it, whether it was double and whether it "
                             "was completed (RR-3)"))
        return None
    for key in b:
        if key not in BURDEN_FIELDS:
            found.add(f"{where}.{key}", say("unknown field {field}; a burden has on, by, double and completed",
                                            field=said(key)))
    on = _player_at_table(b.get("on"), f"{where}.on", players, found, say("say who the Burden was played on (RR-3)"))
    by = _player_at_table(b.get("by"), f"{where}.by", players, found, say("say who played the Burden (RR-3)"))
    double = b.get("double", False)
    completed = b.get("completed")
    if not isinstance(double, bool):
        found.add(f"{where}.double", say("say whether it was a Double Burden (RR-3)"))
    if not isinstance(completed, bool):
        found.add(f"{where}.completed", say("say whether the burdened player completed the Burden (RR-3)"))
    if on is None or by is None or not isinstance(double, bool) or not isinstance(completed, bool):
        return None
    if on == by:
        found.add(f"{where}.on", say("{name} cannot burden themselves", name=on))
        return None
    return Burden(on, by, double, completed)


def _apply_burdens_to_progress(burdens: Sequence[Burden], progress: dict[str, str], at: str,
                               found: Problems) -> None:
    # A Burden is part of its target's round: completing it completes the round,
    # failing it means the round is repeated (RR-3 with the seed's Burden card).
    for b in burdens:
        step = progress.setdefault(b.on, "completed" if b.completed else "failed")
        advanced = step in ("completed", "declared-completed", "double-completed")
        # RR-3: a completed Burden is kept when the same player's declaration then fails.
        if b.completed and not advanced and step != "declared-failed":
            found.add(f"{at}.progress.{b.on}",
                      say("{name} completed a Burden, which lays down the round, yet the entry says {name} "
                          "{progress} (RR-3)", name=b.on, progress=PROGRESS[step]))
        elif not b.completed and advanced:
            found.add(f"{at}.progress.{b.on}",
                      say("{name} did not complete a Burden, so repeats the round, yet the entry says {name} "
                          "{progress} (RR-3)", name=b.on, progress=PROGRESS[step]))


def _read_extra_cards(raw: Mapping, at: str, players: Sequence[str], found: Problems) -> dict[str, int]:
    """RR-4: the extra cards each player bought before the deal."""
    extra: dict[str, int] = {}
    for name, n, where in _per_player(raw, "extra_cards", EXTRA_CARDS, at, players, found):
        n = check_count(found, where, n, MAX_EXTRA_CARDS,
                        lambda: say("at most {most} extra cards may be bought in a hand (RR-4)", most=MAX_EXTRA_CARDS),
                        what=EXTRA_CARDS)
        if n:
            extra[name] = n
    return extra


def _check_how_the_hand_ended(out_given: bool, progress: Mapping[str, str], at: str, found: Problems) -> None:
    """A hand ends when a player goes out, or when the first player completes a Double Rummathon Royale."""
    doubles = [p for p, v in progress.items() if v == "double-completed"]
    if not out_given and not doubles:
        found.add(f"{at}.out", say("name the player who went out (or mark a completed Double Rummathon Royale)"))
    if len(doubles) > 1:
        found.add(
            f"{at}.progress.{doubles[1]}",
            say("only one player can complete a Double Rummathon Royale: the game ends when the first does"),
        )


def late_players_refused(options: Mapping[str, Any]) -> str | None:
    """Everyone plays their own round of the schedule, so a player can join from any hand."""
    return None


def late_rule(options: Mapping[str, Any]) -> str:
    """The starting score of a late player, in the players' words (the rules page says the same)."""
    return say("They start on the first round of the schedule with the lowest score at the table when they sit down "
               "(0 if nobody has scored yet): nobody is overtaken by a newcomer, and since they are behind on the "
               "rounds, a tie on points goes against them (RR-6).")


def _late_mentions(hand: Hand, waiting: Sequence[str]) -> list[tuple[str, str]]:
    """Where a hand names a player who was not yet at the table: (where, name)."""
    out = [("out", hand.out)] if hand.out in waiting else []
    for key, names in (("left", hand.left), ("progress", hand.progress), ("extra_cards", hand.extra_cards)):
        out += [(f"{key}.{name}", name) for name in names if name in waiting]
    for i, b in enumerate(hand.burdens):
        out += [(f"burdens[{i}].{role}", name) for role, name in (("on", b.on), ("by", b.by)) if name in waiting]
    return out


@dataclass(frozen=True)
class Tally(Decided):
    """The game after some hands (base.Tallied): the totals, where each player is in the schedule, and who
    failed a declaration last hand."""

    players: tuple[str, ...]
    opts: dict[str, Any]
    joined: dict[str, int]
    totals: dict[str, int]
    position: dict[str, int]  # index into the schedule; its length once finished
    banned: frozenset[str] = frozenset()  # declared and failed last hand (RR-5)

    @property
    def schedule(self) -> tuple[int, ...]:
        return SCHEDULES[self.opts["schedule"]]

    def round_name(self, pos: int) -> Text:
        return say("finished") if pos >= len(self.schedule) else say("round {number}", number=self.schedule[pos])


def start(players: Sequence[str], options: Mapping[str, Any], joined: Mapping[str, int] | None = None) -> Tally:
    """The game before its first hand; raises InputError for the options."""
    found = Problems()
    opts = dict(OPTIONS)
    for key, value in options.items():
        if key != "schedule":
            found.add(f"options.{key}", say("unknown option {option}; Rummathon Royale has only the schedule",
                                            option=said(key)))
        elif not isinstance(value, str) or value not in SCHEDULES:  # a list is unhashable
            found.add("options.schedule", say("unknown schedule {schedule}; use all, even, odd or half (RR-5)",
                                              schedule=said(value)))
        else:
            opts[key] = value
    found.raise_if_any()
    return Tally(tuple(players), opts, dict(joined or {}), dict.fromkeys(players, 0), dict.fromkeys(players, 0))


def step(tally: Tally, raw: object) -> Tally:
    """The game after one more hand (base.Fold); raises InputError naming what is wrong with it."""
    found = Problems()
    at = f"rounds[{tally.count}]"
    if tally.over:
        found.add(at, say("the game ended after hand {number}; correct an earlier hand instead", number=tally.count))
        found.raise_if_any()
    hand = _parse_hand(raw, at, tally.players, found)
    if hand is not None:
        tally = _advance(tally, hand, found)
    found.raise_if_any()
    return tally


def _advance(tally: Tally, hand: Hand, found: Problems) -> Tally:
    """Score one hand on ``tally``; the problems it finds go to ``found`` (the tally is then of no use)."""
    everyone, joined = tally.players, tally.joined
    at, number = f"rounds[{tally.count}]", tally.count + 1
    waiting = [p for p in everyone if joined.get(p, 1) > number]
    players = [p for p in everyone if p not in waiting]  # those at the table for this hand
    arriving = [p for p in players if joined.get(p, 1) == number > 1]
    late = list(_late_mentions(hand, waiting))
    for where, name in late:
        found.add(f"{at}.{where}", say("{name} joins at hand {number}, after this hand, and takes no part in it",
                                       name=name, number=joined[name]))
    if late:
        return tally
    totals, position = dict(tally.totals), dict(tally.position)
    explain: dict[str, list[str]] = {p: [] for p in everyone}
    for p in waiting:
        explain[p].append(say("Not at the table yet: joins at hand {number} on the first round of the schedule "
                              "(RR-5)", number=joined[p]))
    if arriving:
        low = min(totals[p] for p in players if p not in arriving)
        for p in arriving:
            totals[p] = low
            explain[p].append(say("Joins the table at hand {number} on {round}, with {low}: the lowest score at the "
                                  "table, so a tie on points goes against them (RR-5, RR-6)", number=number,
                                  round=tally.round_name(0), low=low))
    points = dict.fromkeys(everyone, 0)
    detail: dict[str, dict[str, Any]] = {p: {"score_before": totals[p]} for p in players}
    _extra_cards(hand, at, totals, points, detail, explain, found)
    _went_out(hand, players, points, detail, explain)
    _burdens(hand, points, detail, explain)
    _progress(tally, hand, at, players, position, detail, explain, found)
    for name in players:
        totals[name] += points[name]
        detail[name]["score_after"] = totals[name]
        explain[name].append(say("Hand {points}; total {total} ({rulings})", points=Signed(points[name]),
                                 total=totals[name], rulings=_sources(hand, name)))
    played = tally.played_with(points, explain, {"players": detail})
    tally = replace(tally, totals=totals, position=position, played=played,
                    banned=frozenset(p for p, v in hand.progress.items() if v == "declared-failed"))
    # RR-6 and the Double Rummathon Royale of RR-5.
    doubles = [p for p, v in hand.progress.items() if v == "double-completed"]
    finished = [p for p in everyone if position[p] >= len(tally.schedule)]
    if doubles:
        return replace(tally, over=True, winners=(doubles[0],),
                       reason=say("{name} completed a Double Rummathon Royale in hand {number} (RR-5).",
                                  name=doubles[0], number=number))
    if finished:
        winners, reason = _decide(everyone, totals, position, finished, number)
        return replace(tally, over=True, winners=winners, reason=reason)
    return tally


def _extra_cards(hand: Hand, at: str, totals, points, detail, explain, found: Problems) -> None:
    """RR-4: extra cards are bought before the deal, from the score so far."""
    for name, n in hand.extra_cards.items():
        allowed = max_extra_cards(totals[name])
        if n > allowed:
            found.add(
                f"{at}.extra_cards.{name}",
                say_n("{name} has {count} point, which buy at most {cards} (RR-4)",
                      "{name} has {count} points, which buy at most {cards} (RR-4)", totals[name], name=name,
                      cards=say_n("{count} extra card", "{count} extra cards", allowed)),
            )
            continue
        cost = extra_cards_cost(n, totals[name])
        points[name] -= cost
        detail[name]["extra_cards"] = n
        if cost < n * EXTRA_CARD_COST:
            explain[name].append(say_n("Bought {count} extra card: {points} (all the points they had) (RR-4)",
                                       "Bought {count} extra cards: {points} (all the points they had) (RR-4)", n,
                                       points=Signed(-cost)))
        else:
            explain[name].append(say_n("Bought {count} extra card: {points} (RR-4)",
                                       "Bought {count} extra cards: {points} (RR-4)", n, points=Signed(-cost)))


def _went_out(hand: Hand, players: Sequence[str], points, detail, explain) -> None:
    """RR-1, RR-2: the player who went out collects every card left elsewhere."""
    if hand.out is not None:
        collected = 0
        shares = []
        for name in players:
            cards = hand.left.get(name)
            if name == hand.out or not cards:
                continue
            value = cards_left_points(cards)
            if value:
                collected += value
                shares.append(say("{name} {count}", name=name, count=value))
                explain[name].append(say("Cards left: {cards} = {count}, collected by {out}; nothing is subtracted "
                                         "(RR-1, RR-2)", cards=describe_cards(cards), count=value, out=hand.out))
            detail[name]["cards_left_points"] = value
        points[hand.out] += collected
        detail[hand.out]["went_out"] = True
        explain[hand.out].append(
            say("Went out: collects {count} from the other hands ({shares}) (RR-1, RR-2)", count=collected,
                shares=joined(shares, ", ")) if shares else
            say("Went out: collects {count} from the other hands (RR-1, RR-2)", count=collected))
    for name in players:
        if name != hand.out and not hand.left.get(name) and hand.out is not None:
            explain[name].append(say("No cards left recorded; {out} went out (RR-2)", out=hand.out))


def _burdens(hand: Hand, points, detail, explain) -> None:
    """RR-3: a completed Burden pays its target, a failed one pays who played it."""
    for b in hand.burdens:
        value = BURDEN_POINTS[b.double]
        receiver = b.on if b.completed else b.by
        points[receiver] += value
        detail[receiver]["burden_points"] = detail[receiver].get("burden_points", 0) + value
        if b.completed and b.double:
            explain[b.on].append(say("Completed the Double Burden {by} played on them: {points} (RR-3)", by=b.by,
                                     points=Signed(value)))
        elif b.completed:
            explain[b.on].append(say("Completed the Burden {by} played on them: {points} (RR-3)", by=b.by,
                                     points=Signed(value)))
        elif b.double:
            explain[b.by].append(say("Double Burden played on {on} was not completed: {points} (RR-3)", on=b.on,
                                     points=Signed(value)))
        else:
            explain[b.by].append(say("Burden played on {on} was not completed: {points} (RR-3)", on=b.on,
                                     points=Signed(value)))


def _progress(tally: Tally, hand: Hand, at: str, players: Sequence[str], position, detail, explain,
              found: Problems) -> None:
    """RR-5: move each player along the schedule."""
    schedule, last, round_name = tally.schedule, len(tally.schedule), tally.round_name
    for name in players:
        step = hand.progress.get(name, "failed")
        where = f"{at}.progress.{name}"
        before = position[name]
        if step in DECLARATIONS and name in tally.banned:
            found.add(where, say("{name} declared and failed last hand, so may not declare this hand (RR-5)",
                                 name=name))
            continue
        if step in DECLARATIONS and before + 1 >= last:
            found.add(where, say("{name} is on the last round; there is no next round to declare (RR-5)", name=name))
            continue
        after, line = _moved(step, before, last, round_name)
        position[name] = after
        detail[name].update(round_before=_round_number(schedule, before),
                            round_after=_round_number(schedule, after), progress=step)
        explain[name].append(line)


def _moved(step: str, before: int, last: int, round_name) -> tuple[int, Text]:
    """RR-5: where a player's round leaves them in the schedule, and the line that says so."""
    if step == "completed":
        after = before + 1
        if after >= last:
            return after, say("Completed {round}: now finished (RR-5)", round=round_name(before))
        return after, say("Completed {round}: now on {next} (RR-5)", round=round_name(before), next=round_name(after))
    if step == "declared-completed":
        after = before + 2
        if after >= last:
            return after, say("Declared Rummathon Royale and completed {next}: moves from {round} to the end of the "
                              "schedule (RR-5)", next=round_name(before + 1), round=round_name(before))
        return after, say("Declared Rummathon Royale and completed {next}: moves from {round} to {after} (RR-5)",
                          next=round_name(before + 1), round=round_name(before), after=round_name(after))
    if step == "declared-failed":
        return before, say("Declared Rummathon Royale and failed: stays on {round} and may not declare next hand "
                           "(RR-5)", round=round_name(before))
    if step == "double-completed":
        return min(before + 2, last), say("Declared Double Rummathon Royale and completed it: wins the game at once "
                                          "(RR-5)")
    return before, say("Did not complete {round}: stays there (RR-5)", round=round_name(before))


def finish(tally: Tally) -> ScoredGame:
    """The scored game a tally stands for (base.Fold)."""
    schedule, last, position = tally.schedule, len(tally.schedule), tally.position
    standing = {
        p: {"round": _round_number(schedule, position[p]), "finished": position[p] >= last,
            "rounds_done": position[p], "may_declare": p not in tally.banned}
        for p in tally.players
    }
    return ScoredGame(
        game=SLUG, players=tally.players, options=tally.opts, rounds=tally.rounds,
        totals=dict(tally.totals), over=tally.over, winners=tally.winners, reason=tally.reason, standing=standing,
    )


def score(players: Sequence[str], options: Mapping[str, Any], rounds: Sequence[object],
          joined: Mapping[str, int] | None = None) -> ScoredGame:
    """Score a whole game of Rummathon Royale; raises InputError listing every problem.

    ``joined`` names the players seated late, each with the first hand they play (games.check_joined):
    they take no part before it, and start as :func:`late_rule` says. The reference the fold
    (:func:`start`, :func:`step`, :func:`finish`) is tested against.
    """
    tally = start(players, options, joined)
    found = Problems()
    # Every hand is read first. A hand read only in part is still checked against the game so far
    # (extra cards the score allows, declarations), so every problem shows at once; the hands after
    # it are not scored, as the game they would follow is not known.
    hands, unread = [], []
    for i, raw in enumerate(rounds):
        before = len(list(found))
        hands.append(_parse_hand(raw, f"rounds[{i}]", players, found))
        unread.append(len(list(found)) > before)
    for index, hand in enumerate(hands):
        if tally.over:
            found.add(f"rounds[{index}]", say("the game ended after hand {number}; correct an earlier hand instead",
                                              number=index))
            break
        if hand is None:
            break
        tally = _advance(tally, hand, found)
        if unread[index] or tally.count == index:  # a hand not read in full, or naming a player not yet seated
            break
    found.raise_if_any()
    return finish(tally)


def _sources(hand: Hand, name: str) -> str:
    """The rulings a player's points in a hand come from, for the hand's summary line: the cards
    collected or not (RR-2), Burdens (RR-3), extra cards bought (RR-4); a hand ended by a Double
    Rummathon Royale with none of these scores by RR-5."""
    cited = []
    if hand.out is not None:
        cited.append("RR-2")
    if any(name == (b.on if b.completed else b.by) for b in hand.burdens):
        cited.append("RR-3")
    if hand.extra_cards.get(name):
        cited.append("RR-4")
    return ", ".join(cited or ["RR-5"])


def _round_number(schedule: Sequence[int], pos: int) -> int | None:
    """The rule-card round a player stands on; None once past the last."""
    return schedule[pos] if pos < len(schedule) else None


def _decide(players, totals, position, finished, hand_number) -> tuple[tuple[str, ...], str]:
    """RR-6: highest score, then further along, then the player who finished."""
    best = max(totals[p] for p in players)
    leaders = [p for p in players if totals[p] == best]
    done = Listed(finished)  # names as the reader's language lists them: "Ann, Ben and Cat"
    tied = len(leaders) > 1
    if tied:
        furthest = max(position[p] for p in leaders)
        leaders = [p for p in leaders if position[p] == furthest]
        if len(leaders) > 1:
            who_finished = [p for p in leaders if p in finished]
            leaders = who_finished or leaders
    if len(leaders) == len(players):  # a win every player shares is a draw, as the board says it
        reason = say("{done} completed the last round in hand {number}; {names} share the highest score, {best}: "
                     "a draw (RR-6).", done=done, number=hand_number, names=Listed(leaders), best=best)
    elif len(leaders) > 1:
        reason = say("{done} completed the last round in hand {number}; {names} share the highest score, {best} "
                     "(a shared win) (RR-6).", done=done, number=hand_number, names=Listed(leaders), best=best)
    elif tied:
        reason = say("{done} completed the last round in hand {number}; {name} has the highest score, {best} after a "
                     "tie on points, settled by progress (RR-6).", done=done, number=hand_number, name=leaders[0],
                     best=best)
    else:
        reason = say("{done} completed the last round in hand {number}; {name} has the highest score, {best} (RR-6).",
                     done=done, number=hand_number, name=leaders[0], best=best)
    return tuple(leaders), reason


__all__ = ["SLUG", "TITLE", "InputError", "score"]
