"""A table's log in words: each change numbered as the board numbers its hands, and what it changed.

The log keeps a hand's slot (the order it was first entered in); the board numbers the hands
in play from 1. A change is told with the number the hand had on the board when the change was
made ("Hand 7 edited: Tom's cards left 3 → 2"). Pure: events in, lines out.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .tables import Event, cancelled, fold, is_redo


@dataclass(frozen=True)
class Line:
    event: Event
    #: What happened, in words ("Hand 7 edited: Tom's cards left 3 → 2").
    summary: str
    #: The changes in detail, one phrase each (empty for an undo or a delete).
    changes: tuple[str, ...]
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


def _words(value: Any) -> str:
    """A value as a player reads it.

    >>> _words(None), _words(True), _words(["AS", "KH"]), _words([["AS"], ["KH", "QH"]]), _words(3)
    ('nothing', 'yes', 'AS KH', 'AS | KH QH', '3')
    """
    if value is None or value == "" or value == [] or value == {}:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        if all(isinstance(v, list) for v in value):
            return " | ".join(_words(v) for v in value)
        return " ".join(_words(v) if not isinstance(v, Mapping) else _words(list(v.values())) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_words(v)}" for k, v in value.items())
    return str(value)


def _label(path: tuple[str, ...], players: Sequence[str]) -> str:
    """A path as words, a player's name first: ("left", "Tom", "cards") is "Tom's left cards".

    >>> _label(("left", "Tom", "cards"), ["Tom"]), _label(("wrong_show",), ["Tom"])
    ("Tom's left cards", 'wrong show')
    >>> _label(("players", "Tom", "hand"), ["Tom"])
    "Tom's hand"
    """
    names = [p for p in path if p in players]
    # "players" is only the key a round keeps its players' boards under (Alliance Royals...).
    rest = [p.replace("_", " ") for p in path if p not in players and not (names and p == "players")]
    text = " ".join(rest)
    return f"{names[0]}'s {text}".strip() if names else text


def differences(before: Any, after: Any, players: Sequence[str]) -> list[str]:
    """What changed from one version of a hand to the next, in words.

    >>> differences({"out": "Ann", "left": {"Tom": {"cards": 3}}}, {"out": "Ann", "left": {"Tom": {"cards": 2}}},
    ...             ["Ann", "Tom"])
    ["Tom's left cards 3 → 2"]
    """
    old, new = _flat(before or {}), _flat(after or {})
    out = []
    for path in [*old, *(p for p in new if p not in old)]:
        a, b = old.get(path), new.get(path)
        if _words(a) != _words(b) and path and path[-1] not in ("judged",):
            out.append(f"{_label(path, players)} {_words(a)} → {_words(b)}")
    return out


def _lower(text: str, names: Collection[str] = ()) -> str:
    """A summary inside a sentence: its first letter small, unless it starts with a name.

    >>> _lower("Hand 3 edited"), _lower("Ben renamed Bo", {"Ben"})
    ('hand 3 edited', 'Ben renamed Bo')
    """
    if any(text == n or text.startswith(n + " ") for n in names):
        return text
    return text[:1].lower() + text[1:]


def lines(events: Sequence[Event], players: Sequence[str], noun: str,
          heading: Callable[[Any, int], str] | None = None,
          hands: Callable[[Sequence[Event]], list[tuple[int, Any]]] = fold) -> list[Line]:
    """Every change in the log, oldest first, in words.

    ``hands`` gives the hands in play after some of the log; a table with renames gives them under
    the names of that moment (tables.seating), so that an edit after a rename is compared with the
    hand as it then read, not with the names it was first entered under.
    """
    undone = cancelled(events)
    by_seq = {e.seq: e for e in events}
    out: list[Line] = []
    told: dict[int, str] = {}
    names = set(players)
    Noun = noun.capitalize()  # noqa: N806 - the noun at the start of a sentence
    for i, e in enumerate(events):
        before = hands(events[:i])
        slots_before = [s for s, _ in before]
        changes: tuple[str, ...] = ()
        if e.kind == "add":
            n = len(slots_before) + 1
            what = heading(e.data, n).partition(" · ")[2] if heading else ""
            summary = f"{Noun} {n} entered" + (f": {what}" if what else "")
        elif e.kind == "edit":
            n = slots_before.index(e.slot) + 1 if e.slot in slots_before else len(slots_before) + 1
            changes = tuple(differences(dict(before).get(e.slot), e.data, players))
            summary = f"{Noun} {n} edited" + (f": {'; '.join(changes)}" if changes else " (nothing changed)")
        elif e.kind == "rename":
            names.update((e.data["from"], e.data["to"]))
            summary = f"{e.data['from']} renamed {e.data['to']}"
        elif e.kind == "seat":
            names.add(e.data["name"])
            summary = f"{e.data['name']} seated late, playing from {noun} {len(slots_before) + 1}"
        elif e.kind == "delete":
            n = slots_before.index(e.slot) + 1 if e.slot in slots_before else "?"
            summary = f"{Noun} {n} deleted"
        else:
            target = told.get(e.undoes or 0, f"change #{e.undoes}")
            if is_redo(e, events):
                cancelled_undo = by_seq.get(e.undoes or 0)
                inner = told.get(cancelled_undo.undoes or 0, "") if cancelled_undo else ""
                summary = f"Redone: {_lower(inner or target, names)}"
            else:
                summary = f"Undone: {_lower(target, names)}"
        told[e.seq] = summary.split(":")[0] if e.kind not in ("undo", "rename", "seat") else summary
        out.append(Line(e, summary, changes, undone.get(e.seq)))
    return out
