"""A table's log in words: each change numbered as the board numbers its hands, and what it changed.

The log keeps a hand's slot (the order it was first entered in); the board numbers the hands
in play from 1. A change is told with the number the hand had on the board when the change was
made ("Hand 7 edited: Tom's cards left: 3 → 2"). Pure: events in, lines out.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.messages import Text, joined, render, say
from ..core.round_words import round_text
from .tables import Event, cancelled, fold


@dataclass(frozen=True)
class Line:
    event: Event
    #: What happened, in words ("Hand 7 edited: Tom's cards left: 3 → 2"), in the reader's language where shown.
    summary: Text
    #: The changes in detail, one phrase each: an edit's, and an edit's taken back or put back.
    changes: tuple[Text, ...]
    #: The change (its number in the log) that cancelled this one, if one did.
    undone_by: int | None


def _flat(value: Any, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    """Leaves of a hand's data by path.

    >>> _flat({"out": "Ann", "left": {"Ben": {"low": 2}}})
    {('out',): 'Ann', ('left', 'Ben', 'low'): 2}
    """
    if isinstance(value, Mapping):
        out: dict[tuple[str, ...], Any] = {}
        for key, inner in value.items():
            out.update(_flat(inner, (*path, str(key))))
        return out
    return {path: value}


def value_words(value: Any) -> str:
    """A value as a player reads it (cards, names and numbers as printed; nothing, yes and no in words).

    >>> said = value_words
    >>> said(None), said(True), said(["AS", "KH"]), said([["AS"], ["KH", "QH"]]), said(3)
    ('nothing', 'yes', 'AS KH', 'AS | KH QH', '3')
    """
    if value is None or value == "" or value == [] or value == {}:
        return say("nothing")
    if isinstance(value, bool):
        return say("yes") if value else say("no")
    if isinstance(value, list):
        if all(isinstance(v, list) for v in value):
            return " | ".join(value_words(v) for v in value)
        return " ".join(value_words(v) if not isinstance(v, Mapping) else value_words(list(v.values())) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {value_words(v)}" for k, v in value.items())
    return str(value)


def _label(path: tuple[str, ...], players: Sequence[str]) -> str:
    """A path as words, a player's name first: ("left", "Tom", "cards") is "Tom's left cards".

    >>> _label(("left", "Tom", "cards"), ["Tom"]), _label(("wrong_show",), ["Tom"])
    ("Tom's left cards", 'wrong show')
    >>> _label(("players", "Tom", "hand"), ["Tom"]), _label(("hands", "Tom", "count"), ["Tom"])
    ("Tom's hand", "Tom's count")
    """
    names = [p for p in path if p in players]
    # "players" and "hands" are only the keys a round keeps its players' parts under (Alliance Royals,
    # Indian Rummy...): "Dan's count", not "Dan's hands count".
    rest = [p.replace("_", " ") for p in path if p not in players and not (names and p in ("players", "hands"))]
    text = " ".join(rest)
    return f"{names[0]}'s {text}".strip() if names else text


#: How a game's screen names a part of a hand and its values, in the reader's language: (field, before,
#: after) for the path of the part, or None where the screen has no field for it.
Wording = Callable[[tuple[str, ...], Any, Any], "tuple[str, str, str] | None"]


def differences(before: Any, after: Any, players: Sequence[str], wording: Wording | None = None) -> list[Text]:
    """What changed from one version of a hand to the next, in words: each part as the game's entry screen
    names its field (``wording``), else from the hand's own keys.

    >>> differences({"out": "Ann", "left": {"Tom": {"cards": 3}}}, {"out": "Ann", "left": {"Tom": {"cards": 2}}},
    ...             ["Ann", "Tom"])
    ["Tom's left cards: 3 → 2"]
    """
    old, new = _flat(before or {}), _flat(after or {})
    out = []
    for path in [*old, *(p for p in new if p not in old)]:
        a, b = old.get(path), new.get(path)
        if value_words(a) != value_words(b) and path and path[-1] not in ("judged", "said"):
            what, was, now = (wording(path, a, b) if wording else None) or (_label(path, players), value_words(a),
                                                                            value_words(b))
            out.append(say("{what}: {before} → {after}", what=what, before=was, after=now))
    return out


#: What a redo does to each kind of change, after "then" on the line of the undo it cancels.
REDONE = {"add": say("put back"), "edit": say("put back"), "delete": say("deleted again"),
          "rename": say("made again"), "seat": say("seated again")}
TAKEN = say("taken back")
#: An undo, and a redo (an undo of an undo), in the words of the change it is about: a round's (each a
#: sentence of round_words for the game's name of a round, {number} the round's number), or a renaming's
#: ({old}, {new}) or a late player's ({name}).
TAKEN_BACK = {"add": "taken_back", "edit": "edit_taken_back", "delete": "brought_back",
              "rename": say("Renaming of {old} to {new} taken back"), "seat": say("{name}'s late seat taken back")}
PUT_BACK = {"add": "put_back", "edit": "edit_put_back", "delete": "deleted_again",
            "rename": say("{old} renamed {new} again"), "seat": say("{name} seated again")}


def lines(events: Sequence[Event], players: Sequence[str], noun: str,
          heading: Callable[[Any, int], str] | None = None,
          hands: Callable[[Sequence[Event]], list[tuple[int, Any]]] = fold,
          wording: Wording | None = None, shown: Collection[int] | None = None) -> list[Line]:
    """Every change in the log, oldest first, in words, as a person would tell it: "Hand 3 entered: Ann
    went out", "Hand 3 taken back, then put back (change #5)", "Hand 3's edit taken back: Ann's count:
    30 → 20", "Hand 2 deleted again".

    ``hands`` gives the hands in play after some of the log; a table with renames gives them under
    the names of that moment (tables.seating), so that an edit after a rename is compared with the
    hand as it then read, not with the names it was first entered under.

    With ``shown`` (the numbers of one page's changes) only those are told, each as it reads among them all:
    the hands in play are worked out only where a change shown needs them.
    """
    told = _Telling(events, players, noun, heading, wording, hands)
    for i, e in enumerate(events):
        if shown is None or e.seq in shown:
            told.tell(e, i)
        else:
            told.pass_over(e, i)
    undone = cancelled(events)
    out = []
    for e in events:
        if shown is not None and e.seq not in shown:
            continue
        head, details = told.heads[e.seq], told.details[e.seq]
        by = undone.get(e.seq)
        if by is not None:  # what became of it, said on its own line: "Hand 3 taken back, then put back"
            then = REDONE.get(told.kind_undone(e), REDONE["add"]) if e.kind == "undo" else TAKEN
            head = say("{head}, then {then} (change #{number})", head=head, then=then, number=by)
        summary = say("{head}: {details}", head=head, details=joined(details, "; ")) if details else head
        out.append(Line(e, summary, tuple(details) if e.kind in ("edit", "undo") else (), by))
    return out


#: A history page holds at most this many changes, and stops before the hands they keep pass PAGE_BYTES (as
#: JSON): a page of a long game with the word judge's log as full as the limits allow stays a few hundred KB.
PAGE_CHANGES = 50
PAGE_BYTES = 200_000


@dataclass(frozen=True)
class Page:
    """One page of a history, newest first."""

    #: The changes on the page, newest first.
    events: tuple[Event, ...]
    #: ``before`` for the page of older changes, or None on the oldest.
    older: int | None
    #: ``before`` for the page of newer changes: 0 for the newest page (no ``before`` at all), None on it.
    newer: int | None


def _weight(e: Event) -> int:
    return len(json.dumps(e.data)) if e.data is not None else 0


def _taken(run: Sequence[Event], most: int, most_bytes: int) -> list[Event]:
    """As many of ``run`` as one page holds, in order: at least one, at most ``most`` and ``most_bytes``."""
    taken, weight = [], 0
    for e in run:
        weight += _weight(e)
        if taken and (len(taken) >= most or weight > most_bytes):
            break
        taken.append(e)
    return taken


def page(events: Sequence[Event], before: int | None = None, most: int = PAGE_CHANGES,
         most_bytes: int = PAGE_BYTES) -> Page:
    """The page of the log (oldest first) holding the changes numbered below ``before`` (all of them when
    None), newest first; only the changes near the page are weighed.

    >>> log = [Event(n, "add", n, None, {"out": "Ann"}, "", "") for n in range(1, 8)]
    >>> first = page(log, most=3); [e.seq for e in first.events], first.older, first.newer
    ([7, 6, 5], 5, None)
    >>> second = page(log, first.older, most=3); [e.seq for e in second.events], second.older, second.newer
    ([4, 3, 2], 2, 0)
    >>> [e.seq for e in page(log, 2, most=3).events], page(log, 2, most=3).older, page(log, 2, most=3).newer
    ([1], None, 5)
    """
    end = len(events) if before is None else sum(1 for e in events if e.seq < before)
    shown = _taken(events[end - 1::-1] if end else [], most, most_bytes)
    start = end - len(shown)
    newer = None
    if end < len(events):
        after = _taken(events[end:], most, most_bytes)
        newer = 0 if end + len(after) >= len(events) else events[end + len(after)].seq
    return Page(tuple(shown), events[start].seq if start > 0 else None, newer)


def _after_number(heading: str) -> str:
    """What a round's heading says after its number ("Hand 3 · Ann went out": "Ann went out"), said in the
    reader's language (a log is told when it is read)."""
    return render(heading).partition(" · ")[2]


class _Telling:
    """The words of each change of one log, told in order (an undo is told in the words of its change)."""

    def __init__(self, events: Sequence[Event], players: Sequence[str], noun: str,
                 heading: Callable[[Any, int], str] | None, wording: Wording | None = None,
                 hands: Callable[[Sequence[Event]], list[tuple[int, Any]]] = fold):
        self.players, self.noun, self.heading, self.wording = players, noun, heading, wording
        self.events, self.hands = events, hands
        self.by_seq = {e.seq: e for e in events}
        self.heads: dict[int, Text] = {}
        self.details: dict[int, list[Text]] = {}
        self.edit_at: dict[int, int] = {}  # each edit's place in the log, where its hand before it is read
        self.taken_back: set[int] = set()  # the changes taken back so far (a second time is "again")
        self._in_play: dict[int, list[tuple[int, Any]]] = {}

    def in_play(self, k: int) -> list[tuple[int, Any]]:
        """The hands in play after the first ``k`` changes, worked out once and only when asked for."""
        if k not in self._in_play:
            self._in_play[k] = self.hands(self.events[:k])
        return self._in_play[k]

    def edited_from(self, seq: int) -> Any:
        """An edit's hand as it read before the edit."""
        at = self.edit_at.get(seq)
        return None if at is None else dict(self.in_play(at)).get(self.by_seq[seq].slot)

    def pass_over(self, e: Event, i: int) -> None:
        """A change not shown: only what the changes shown after it read of it is kept."""
        if e.kind == "edit":
            self.edit_at[e.seq] = i
        elif e.kind == "undo":
            target = self.by_seq.get(e.undoes or 0)
            if target is not None and target.kind in TAKEN_BACK:  # an undo, not a redo (an undo of an undo)
                self.taken_back.add(target.seq)

    def kind_undone(self, undo: Event) -> str:
        """The kind of change an undo took back."""
        target = self.by_seq.get(undo.undoes or 0)
        return target.kind if target is not None else ""

    @staticmethod
    def number(slot: int | None, before, after) -> int | str:
        """The number a hand has on the board: after the change when it is in play then, else before it."""
        for hands in (after, before):
            slots = [s for s, _ in hands]
            if slot in slots:
                return slots.index(slot) + 1
        return "?"

    def tell(self, e: Event, i: int) -> None:
        before, after = self.in_play(i), self.in_play(i + 1)
        noun, n = self.noun, self.number(e.slot, before, after)
        self.details[e.seq] = []
        if e.kind == "add":
            what = _after_number(self.heading(e.data, n)) if self.heading else ""
            self.heads[e.seq] = round_text("entered", noun, number=n)
            self.details[e.seq] = [what] if what else []
        elif e.kind == "edit":
            self.edit_at[e.seq] = i
            changes = differences(self.edited_from(e.seq), e.data, self.players, self.wording)
            self.heads[e.seq] = round_text("edited" if changes else "edited_nothing", noun, number=n)
            self.details[e.seq] = changes
        elif e.kind == "delete":
            self.heads[e.seq] = round_text("deleted_line", noun, number=n)
        elif e.kind == "rename":
            self.heads[e.seq] = say("{old} renamed {new}", old=e.data["from"], new=e.data["to"])
        elif e.kind == "seat":
            self.heads[e.seq] = round_text("seated_late", noun, name=e.data["name"], number=len(before) + 1)
        else:
            self.tell_undo(e, before, after)

    def tell_undo(self, e: Event, before, after) -> None:
        """An undo, or a redo (an undo of an undo), in the words of the change it is about."""
        cancelled_undo = self.by_seq.get(e.undoes or 0)
        redo = cancelled_undo is not None and cancelled_undo.kind == "undo"
        target = self.by_seq.get((cancelled_undo.undoes if redo else e.undoes) or 0)
        if target is None or target.kind not in TAKEN_BACK:
            self.heads[e.seq] = (say("Change #{number} put back", number=e.undoes) if redo
                                 else say("Change #{number} taken back", number=e.undoes))
            return
        data = target.data if isinstance(target.data, dict) else {}
        told = (PUT_BACK if redo else TAKEN_BACK)[target.kind]
        if isinstance(told, Text):
            words = Text(told.template, {"old": data.get("from"), "new": data.get("to"), "name": data.get("name")})
        else:
            words = round_text(told, self.noun, number=self.number(target.slot, before, after))
        again = target.seq in self.taken_back and not redo
        self.heads[e.seq] = say("{words} again", words=words) if again else words
        if not redo:
            self.taken_back.add(target.seq)
        if target.kind == "edit":  # the edit's changes, the other way round when it is taken back
            was = self.edited_from(target.seq)
            self.details[e.seq] = differences(*((was, target.data) if redo else (target.data, was)), self.players,
                                              self.wording)
