"""A table's log in words: each change numbered as the board numbers its hands, and what it changed.

The log keeps a hand's slot (the order it was first entered in); the board numbers the hands
in play from 1. A change is told with the number the hand had on the board when the change was
made ("Hand 7 edited: Tom's cards left: 3 → 2"). Pure: events in, lines out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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
          wording: Wording | None = None) -> list[Line]:
    """Every change in the log, oldest first, in words, as a person would tell it: "Hand 3 entered: Ann
    went out", "Hand 3 taken back, then put back (change #5)", "Hand 3's edit taken back: Ann's count:
    30 → 20", "Hand 2 deleted again".

    ``hands`` gives the hands in play after some of the log; a table with renames gives them under
    the names of that moment (tables.seating), so that an edit after a rename is compared with the
    hand as it then read, not with the names it was first entered under.
    """
    told = _Telling(events, players, noun, heading, wording)
    in_play = [hands(events[:k]) for k in range(len(events) + 1)]
    for i, e in enumerate(events):
        told.tell(e, in_play[i], in_play[i + 1])
    undone = cancelled(events)
    out = []
    for e in events:
        head, details = told.heads[e.seq], told.details[e.seq]
        by = undone.get(e.seq)
        if by is not None:  # what became of it, said on its own line: "Hand 3 taken back, then put back"
            then = REDONE.get(told.kind_undone(e), REDONE["add"]) if e.kind == "undo" else TAKEN
            head = say("{head}, then {then} (change #{number})", head=head, then=then, number=by)
        summary = say("{head}: {details}", head=head, details=joined(details, "; ")) if details else head
        out.append(Line(e, summary, tuple(details) if e.kind in ("edit", "undo") else (), by))
    return out


def _after_number(heading: str) -> str:
    """What a round's heading says after its number ("Hand 3 · Ann went out": "Ann went out"), said in the
    reader's language (a log is told when it is read)."""
    return render(heading).partition(" · ")[2]


class _Telling:
    """The words of each change of one log, told in order (an undo is told in the words of its change)."""

    def __init__(self, events: Sequence[Event], players: Sequence[str], noun: str,
                 heading: Callable[[Any, int], str] | None, wording: Wording | None = None):
        self.players, self.noun, self.heading, self.wording = players, noun, heading, wording
        self.by_seq = {e.seq: e for e in events}
        self.heads: dict[int, Text] = {}
        self.details: dict[int, list[Text]] = {}
        self.edited_from: dict[int, Any] = {}  # each edit's hand as it read before the edit
        self.taken_back: set[int] = set()  # the changes taken back so far (a second time is "again")

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

    def tell(self, e: Event, before, after) -> None:
        noun, n = self.noun, self.number(e.slot, before, after)
        self.details[e.seq] = []
        if e.kind == "add":
            what = _after_number(self.heading(e.data, n)) if self.heading else ""
            self.heads[e.seq] = round_text("entered", noun, number=n)
            self.details[e.seq] = [what] if what else []
        elif e.kind == "edit":
            self.edited_from[e.seq] = dict(before).get(e.slot)
            changes = differences(self.edited_from[e.seq], e.data, self.players, self.wording)
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
            was = self.edited_from.get(target.seq)
            self.details[e.seq] = differences(*((was, target.data) if redo else (target.data, was)), self.players,
                                              self.wording)
