"""What a table's pages and the JSON API both do to a table, written once so the two agree.

Starting a table with the new-table form's checks, finding a round by its number on the board,
telling the log in words, the key a program reads a table with, and the table as it stood at a
version (what a save sent twice is answered with). The writes themselves are :mod:`companion.storage.tables`'
(``create_table``, ``append``); nothing here reads or writes the database but through it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Collection, Sequence
from functools import cached_property
from typing import Any

from sqlite_utils import Database

from .. import games
from ..clubs import store as clubs
from ..core import limits
from ..core.cards import said
from ..core.messages import Text, render, say
from ..entry import ENTRY
from ..games.base import Problems
from ..storage import history as history_words
from ..storage import tables
from ..storage.tables import TITLE_CHARS, check_new_table


def playable_problem(game: object) -> Text | None:
    """Why a table of ``game`` cannot be started here, in words; None when it can.

    >>> playable_problem("royalty") is None, playable_problem("snap")[:21]
    (True, 'unknown game “snap”; ')
    """
    if isinstance(game, str) and game in ENTRY and game in games.ENGINES:
        return None
    known = ", ".join(sorted(ENTRY))
    if game is None:
        return say("say which game: one of {known}", known=known)
    return say("unknown game {game}; known games: {known}", game=said(str(game)), known=known)


def start_table(db: Database, game: str, players: object, options: dict[str, Any], title: str = "",
                device: str = "", club: clubs.Club | None = None) -> tables.Table:
    """A new table, refused (InputError, every problem at once) as the new-table form refuses it; one
    that counts for ``club`` when given (its players join the club's roster)."""
    found = Problems()
    names = check_new_table(game, players, title, found)
    found.raise_if_any()
    if club is not None:
        return clubs.create_table(db, club, game, names, options, title=title, device=device)
    return tables.create_table(db, game, names, options, title=title, device=device)


def rematch(db: Database, table: tables.Table, device: str = "", for_club: bool = True) -> tables.Table:
    """A new table with the same players (seats rotated), options and title, linked to this one; it counts
    for the club this one counts for when ``for_club`` (asked with the table's edit key: a view link
    does not add games to a club's record)."""
    club_id = clubs.club_of_table(db, table.id) if for_club else None
    if club_id is not None:
        return clubs.create_table(db, clubs.get_club(db, club_id), **tables.rematch(table), device=device)
    return tables.create_table(db, **tables.rematch(table), device=device)


def import_table(db: Database, body: object, device: str = "") -> tables.Table:
    """A table from a game exported as JSON (API.md's shape, with its ``title``; a page's upload, the
    command line's file): every text composed, the whole game scored, then the names and the title
    checked as the new-table form checks them, and each field of the type it must be. Raises
    :class:`InputError` naming every problem."""
    body = limits.composed(body)
    games.score(body)  # the game, the players, options that are an object, every round
    found = Problems()
    wrong = playable_problem(body["game"])
    if wrong:
        found.add("game", wrong)
    title = body.get("title")
    if isinstance(title, str):  # an export's title may be longer than a typed one (a tournament's round)
        title = limits.tidy(title)[:TITLE_CHARS].rstrip()
    names = check_new_table(body["game"], body["players"], "" if title is None else title, found) \
        if not wrong else []
    found.raise_if_any()
    options = body.get("options")
    return tables.create_table(db, body["game"], names, {} if options is None else options, title=title or "",
                               rounds=body.get("rounds", []), device=device, joined=body.get("joined"))


def slot_of(hands: Sequence[tuple[int, Any]], number: int) -> int | None:
    """The log's slot of the round numbered ``number`` on the board (from 1), or None.

    >>> slot_of([(1, "a"), (3, "b")], 2), slot_of([(1, "a")], 2), slot_of([(1, "a")], 0)
    (3, None, None)
    """
    return hands[number - 1][0] if 1 <= number <= len(hands) else None


def history_lines(table: tables.Table, log: Sequence[tables.Event],
                  shown: Collection[int] | None = None) -> list[history_words.Line]:
    """Every change in the log (or only those numbered ``shown``), oldest first, in words, numbered as the
    board numbers its rounds."""
    entry = ENTRY[table.game]
    return history_words.lines(log, table.players, entry.ROUND_NAME, entry.round_heading,
                               hands=lambda some: tables.seating(table, some)[1], wording=FieldWording(table),
                               shown=shown)


#: What a field's label says last in brackets (its ruling ids, "optional", a class's points), left out where a
#: change names the field: "Tom · Round failed → completed", not "Round (RR-5)".
_LABEL_ASIDE = re.compile(r"\s*\([^()]*\)\s*$")


class FieldWording:
    """A part of a hand named as the game's entry screen names its field, in the reader's language ("Tom ·
    Low cards left"), and a value as the field's choice reads ("completed"): the history's words for an
    edit. The form is made only when an edit is told."""

    def __init__(self, table: tables.Table):
        self.table, self.entry = table, ENTRY[table.game]

    @cached_property
    def form(self):
        return self.entry.round_form(self.table)

    def __call__(self, path: tuple[str, ...], before: Any, after: Any) -> tuple[str, str, str] | None:
        try:
            name = self.entry.field_for(".".join(path), self.table, self.form)
        except (KeyError, IndexError, ValueError, TypeError):
            return None
        if name is None and len(path) == 1:
            name = path[0]  # a part the form names as the hand does (the note)
        field = self.form[name] if name and name in self.form else None
        if field is None:
            return None
        # the title in the reader's words, its aside left out ("Ben · cartes restées en main, 1 à 9")
        label = _LABEL_ASIDE.sub("", render(self.entry.field_title(field, self.table)))
        return label, self._value(field, path[-1], before), self._value(field, path[-1], after)

    @staticmethod
    def _value(field, key: str, value: Any) -> str:
        """A value as the field's choice says it where it has one (a part ticked, such as Royalty's ``pass``,
        is the choice of its name), else as the history says any value."""
        chosen = key if value is True else value
        for choice in getattr(field, "choices", None) or ():
            if isinstance(chosen, str) and chosen != "" and getattr(choice, "value", None) == chosen:
                return str(choice.label)
        return history_words.value_words(value)


def change_kind(event: tables.Event, log: Sequence[tables.Event]) -> str:
    """What a change was, as the pages' buttons name it: a redo is logged as an undo of an undo."""
    return "redo" if tables.is_redo(event, log) else event.kind


def view_key(table: tables.Table) -> str:
    """The key that reads a table over the API but cannot change it: derived from the edit key, so it
    needs no storage, is the same on every server of a table, and gives no way back to the edit key.

    >>> len(view_key(tables.Table("t", "k" * 22, "royalty", "", (), {}, "")))
    22
    """
    digest = hmac.new(table.stored.edit_key.encode(), b"courtier view key", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def entry_key_for(idempotency_key: str) -> str:
    """The entry key an API call's Idempotency-Key is kept as: the key itself when a phone's offline
    queue could have sent it (the two are one mechanism), else a digest of it in that form.

    >>> entry_key_for("9f1c2a7e-58b1-4e7b-9d2e-0c6f0e3b1a55")
    '9f1c2a7e-58b1-4e7b-9d2e-0c6f0e3b1a55'
    >>> key = entry_key_for("order 17"); tables.valid_entry_key(key), key == entry_key_for("order 17")
    (True, True)
    """
    if tables.valid_entry_key(idempotency_key):
        return idempotency_key
    digest = hashlib.sha256(idempotency_key.encode("utf-8", "surrogatepass")).digest()
    return "idem-" + base64.urlsafe_b64encode(digest).decode().rstrip("=")


def state_at(db: Database, table: tables.Table, version: int,
             cache: tables.StateCache | None = None) -> tables.State:
    """The table as it stood at ``version``: the log up to a version never changes, so this is what
    every answer given at that version said."""
    table = table.stored
    found = cache.get((table.id, version)) if cache is not None else None
    if found is not None:
        return found
    return tables.state_after(table, tuple(e for e in tables.events(db, table.id) if e.seq <= version), None)
