"""What every rules engine shares: problems in the input, and the scored game.

An engine is a pure function of the game: the same players, options and
rounds always give the same scored game. Nothing here touches Flask, the
database or the file system.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from ..core.cards import said  # noqa: F401 - re-exported: the engines name values with it
from ..core.messages import Text, say, say_n


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input: where it is, and what is wrong, in a player's words.

    >>> Problem("rounds[0].out", "Zed is not at this table").as_json()
    {'where': 'rounds[0].out', 'message': 'Zed is not at this table'}
    """

    where: str
    message: str

    def as_json(self) -> dict[str, str]:
        return {"where": self.where, "message": self.message}


#: The most problems one answer names: a body of a megabyte can hold a hundred thousand bad cards, and its
#: answer stays a few kilobytes (the rest are counted, in words).
MAX_PROBLEMS = 100


def _at_most(problems: Iterable[Problem], more: int = 0) -> tuple[Problem, ...]:
    """The first :data:`MAX_PROBLEMS` problems, and a last one counting the rest, in words.

    >>> [p.message for p in _at_most([Problem("a", "x")], more=2)]
    ['x', 'and 2 more problems like these: correct those named first']
    """
    kept = []
    for problem in problems:
        if len(kept) < MAX_PROBLEMS:
            kept.append(problem)
        else:
            more += 1
    if more:
        kept.append(Problem("$", say_n("and {more} more problem like these: correct those named first",
                                       "and {more} more problems like these: correct those named first", more,
                                       more=_Grouped(more))))
    return tuple(kept)


class _Grouped(Text):
    """A large count with its thousands grouped as the reader's language groups them (English "149,903",
    as these answers always wrote it; French "149 903")."""

    def __new__(cls, n: int) -> _Grouped:
        text = str.__new__(cls, f"{n:,}")
        text.template, text.plural, text.count, text.values = "{n}", None, None, {"n": n}
        return text

    def __reduce__(self):
        return (_Grouped, (self.values["n"],))


class InputError(ValueError):
    """The game as entered cannot be scored; ``problems`` says every reason found (the first
    :data:`MAX_PROBLEMS` of them, and how many more there are)."""

    def __init__(self, problems: Iterable[Problem], more: int = 0):
        self.problems = _at_most(problems, more)
        super().__init__("; ".join(f"{p.where}: {p.message}" for p in self.problems))

    def as_json(self) -> dict[str, list[dict[str, str]]]:
        return {"errors": [p.as_json() for p in self.problems]}


class Problems:
    """Collects problems so that one pass over the input reports all of them.

    >>> found = Problems()
    >>> found.add("rounds[1].out", "Zed is not at this table")
    >>> bool(found)
    True
    >>> found.raise_if_any()
    Traceback (most recent call last):
    ...
    companion.games.base.InputError: rounds[1].out: Zed is not at this table
    """

    def __init__(self) -> None:
        self._found: list[Problem] = []
        self._more = 0  # found beyond MAX_PROBLEMS: counted, not kept

    def add(self, where: str, message: str) -> None:
        if len(self._found) < MAX_PROBLEMS:
            self._found.append(Problem(where, message))
        else:
            self._more += 1

    def __bool__(self) -> bool:
        return bool(self._found)

    def __iter__(self):
        return iter(self._found)

    def raise_if_any(self) -> None:
        if self._found:
            raise InputError(self._found, self._more)


@dataclass(frozen=True)
class ScoredRound:
    """One round (hand, deal, turn) after scoring."""

    points: dict[str, int]
    explain: dict[str, list[str]]
    detail: dict[str, Any] = field(default_factory=dict)
    side_points: dict[str, int] | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"points": self.points}
        if self.side_points is not None:
            out["side_points"] = self.side_points
        out["explain"] = self.explain
        out["detail"] = self.detail
        return out


@dataclass(frozen=True)
class ScoredGame:
    """The whole game after scoring, in the shape of the public API (API.md)."""

    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any]
    rounds: tuple[ScoredRound, ...]
    totals: dict[str, int]
    over: bool
    winners: tuple[str, ...]
    reason: str | None
    sides: dict[str, list[str]] | None = None
    side_totals: dict[str, int] | None = None
    standing: dict[str, Any] | None = None
    #: Players seated late: the first round each plays (API.md's ``joined``); None when nobody was.
    joined: dict[str, int] | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "players": list(self.players),
            "options": dict(self.options),
            **({"joined": dict(self.joined)} if self.joined else {}),
            "sides": self.sides,
            "rounds": [r.as_json() for r in self.rounds],
            "totals": self.totals,
        }
        if self.side_totals is not None:
            out["side_totals"] = self.side_totals
        out["over"] = self.over
        out["winners"] = list(self.winners)
        out["reason"] = self.reason
        if self.standing is not None:
            out["standing"] = self.standing
        return out


@dataclass(frozen=True, slots=True)
class Played:
    """The rounds scored so far, newest first: a persistent list, so the state after round N+1 holds
    the one after round N's rounds without copying them (a fold's step costs one round, not N).

    >>> played = Played.of(Played.of(None, "r1"), "r2")
    >>> played.count, Played.in_order(played), Played.in_order(None)
    (2, ('r1', 'r2'), ())
    """

    last: Any
    before: Played | None
    count: int

    @staticmethod
    def of(before: Played | None, scored: Any) -> Played:
        return Played(scored, before, (before.count if before else 0) + 1)

    @staticmethod
    def in_order(played: Played | None) -> tuple[Any, ...]:
        out = []
        while played is not None:
            out.append(played.last)
            played = played.before
        return tuple(reversed(out))


@dataclass(frozen=True, kw_only=True)
class Tallied:
    """What every engine's tally (its fold's state, :class:`Fold`) holds beside its own: the rounds scored
    so far. Given by name, after the engine's own fields; never changed once made.

    >>> tally = Tallied(played=Tallied().played_with({"Ann": 5}, {"Ann": ["Hand +5"]}, {}))
    >>> tally.count, Tallied().count, [r.points for r in tally.rounds]
    (1, 0, [{'Ann': 5}])
    """

    played: Played | None = None

    @property
    def count(self) -> int:
        """How many rounds have been scored."""
        return self.played.count if self.played else 0

    @property
    def rounds(self) -> tuple[ScoredRound, ...]:
        """The rounds scored so far, first to last, as the scored game lists them."""
        return Played.in_order(self.played)

    def played_with(self, points: dict[str, int], explain: dict[str, list[str]], detail: dict[str, Any],
                    side_points: dict[str, int] | None = None) -> Played:
        """The rounds scored so far and one more, scored as ``points``, explained by ``explain`` (each player's
        lines), with its ``detail`` (and, where players play in sides, the sides' points)."""
        return Played.of(self.played, ScoredRound(points=points, explain=explain, detail=detail,
                                                  side_points=side_points))


@dataclass(frozen=True, kw_only=True)
class Decided(Tallied):
    """A tally that also knows the end of the game, once a round has ended it: the winners, and why."""

    over: bool = False
    winners: tuple[str, ...] = ()
    reason: str | None = None


S = TypeVar("S")


class Fold(Protocol[S]):
    """Scoring as a fold, which every engine module offers beside its ``score``.

    ``start`` is the game before its first round, ``step`` scores one more round on a state (with the
    work of that round alone) and ``finish`` turns a state into the scored game. A state is never
    changed once made: the state after round N can be stepped again with a corrected round N+1.
    ``step`` raises :class:`InputError` naming what is wrong with that round; the engine's ``score``
    (the full rescoring, every problem at once) stays the reference the fold equals.
    """

    def start(self, players: Sequence[str], options: Mapping[str, Any],
              joined: Mapping[str, int] | None = None) -> S: ...

    def step(self, state: S, raw: object) -> S: ...

    def finish(self, state: S) -> ScoredGame: ...


def listed(words: Sequence[str], last: str = "and") -> str:
    """Words joined as a sentence lists them.

    >>> listed(["Ann"]), listed(["Ann", "Cat", "Dan"]), listed(["a", "b"], "or")
    ('Ann', 'Ann, Cat and Dan', 'a or b')
    """
    return ", ".join(words[:-1]) + f" {last} " + words[-1] if len(words) > 1 else "".join(words)


def check_note(found: Problems, where: str, raw: Mapping[str, Any]) -> None:
    """A round's ``note``, when given: text, without control characters, not too long (limits.MAX_NOTE_CHARS).

    >>> found = Problems()
    >>> check_note(found, "rounds[0]", {"note": ["x"]}); check_note(found, "rounds[1]", {"note": "Ann dealt"})
    >>> [(p.where, p.message) for p in found]
    [('rounds[0].note', 'a note must be text')]
    """
    note = raw.get("note")
    if note is not None:
        from ..core import limits  # here, not per round: most rounds carry no note

        wrong = limits.note_problem(note)
        if wrong:
            found.add(f"{where}.note", wrong)


def is_whole_number(value: object) -> bool:
    """True for ints, but not for booleans (JSON true is not a count).

    >>> is_whole_number(3), is_whole_number(True), is_whole_number(3.0)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


#: What a count counts when its checker does not say (a count's problem names it: "the number of cards ...").
NUMBER_OF_CARDS = say("the number of cards")


def check_count(found: Problems, where: str, value: object, most: int, too_many: Callable[[], str],
                what: Text = NUMBER_OF_CARDS) -> int | None:
    """A whole number from 0 to ``most``, or a problem recorded at ``where``. ``too_many`` says the problem of a
    number over ``most``, only when there is one: a count checked in every round of every game says nothing else.
    ``what`` is what was counted, a message in the reader's words.

    >>> found = Problems()
    >>> check_count(found, "x", 3, 20, lambda: "too many"), check_count(found, "y", -1, 20, lambda: "too many")
    (3, None)
    >>> [(p.where, p.message) for p in found]
    [('y', 'the number of cards cannot be negative')]
    """
    if not is_whole_number(value):
        found.add(where, say("{what} must be a whole number, not {value}", what=what, value=said(value)))
    elif value < 0:
        found.add(where, say("{what} cannot be negative", what=what))
    elif value > most:
        found.add(where, too_many())
    else:
        return value
    return None


def not_at_table(found: Problems, where: str, name: object, players: Sequence[str]) -> None:
    """Record that ``name`` is not one of the table's players.

    >>> found = Problems()
    >>> not_at_table(found, "rounds[0].out", "Zed", ("Ann", "Ben"))
    >>> [(p.where, p.message) for p in found]
    [('rounds[0].out', '“Zed” is not a player at this table (Ann, Ben)')]
    """
    if name is None or (isinstance(name, str) and not name.strip()):
        found.add(where, say("choose a player: {players}", players=", ".join(players)))
    else:
        found.add(where, say("{name} is not a player at this table ({players})", name=said(name),
                             players=", ".join(players)))


def check_groups(groups: list, players: Sequence[str], where: str, found: Problems,
                 twice: str) -> list[list[str]] | None:
    """Players grouped into sides (teams, coalitions): each a player at the table, in one group only.

    ``twice`` says what is wrong when a name comes back, with ``{name}`` for the name.

    >>> found = Problems()
    >>> check_groups([["Ann", "Cat"], ["Ben", "Ann"]], ("Ann", "Ben", "Cat"), "teams", found, "{name} twice")
    >>> [(p.where, p.message) for p in found]
    [('teams[1][1]', 'Ann twice')]
    """
    out: list[list[str]] = []
    seen: set[str] = set()
    ok = True
    for i, group in enumerate(groups):
        names = []
        for j, name in enumerate(group):
            at = f"{where}[{i}][{j}]"
            cleaned = name.strip() if isinstance(name, str) else None
            if cleaned not in players:
                not_at_table(found, at, name, players)
                ok = False
            elif cleaned in seen:
                found.add(at, twice.format(name=cleaned))
                ok = False
            else:
                seen.add(cleaned)
                names.append(cleaned)
        out.append(names)
    return out if ok else None


def signed(n: int) -> str:
    """Points as a player writes them on a sheet.

    >>> signed(5), signed(0), signed(-30)
    ('+5', '0', '−30')
    """
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"−{-n}"
    return "0"
