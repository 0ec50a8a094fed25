"""A game at a table: its players and options, and the append-only log of entries.

Nothing is ever overwritten. Entering a hand appends an ``add`` event; editing
it appends an ``edit`` with the whole new hand; deleting appends a ``delete``;
undo appends an ``undo`` naming the event it cancels. The hands in play are
folded from the log, and the engine scores them.

Because the log only grows, a table at a given version always holds the same
hands: a scored table is kept in a small :class:`StateCache` by (table id,
version), so the phones refreshing a table after a change share one scoring.

Scoring is a fold (games.start, games.step, games.finish): a state keeps the game
after each of its hands, so the next version steps on from the newest state kept
for the table with the work of the hands that changed (one, for a new hand; from
hand k on, for an edit of hand k), never from hand 1.
"""

from __future__ import annotations

import json
import secrets
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, NoReturn

from blinker import Namespace

from .. import games
from ..core import limits
from ..core.recent import Recent
from ..games.base import InputError, Problem, Problems, ScoredGame
from . import bounds
from .db import Database, immediate

KINDS = ("add", "edit", "delete", "undo", "rename", "seat")

#: Sent inside a save's transaction, once the change is written, with the connection and ``table``,
#: ``scored`` (the game after it): whoever keeps records of finished games (a club) updates them in the
#: same transaction, and the tables never need to know who listens.
saved = Namespace().signal("table saved")


class TableNotFound(LookupError):
    """No table has that id (or that edit key)."""


class StaleVersion(Exception):
    """The entry was based on an older version of the table than the current one."""

    def __init__(self, current: int):
        self.current = current
        super().__init__(f"the table is now at version {current}")


class AlreadyStored(Exception):
    """A save with this entry key is already in the log (a replay): nothing new is written."""

    def __init__(self, seq: int):
        self.seq = seq
        super().__init__(f"this entry is already stored as change {seq}")


#: An entry key: what a phone's script generates for each form it sends (``crypto.randomUUID``
#: or 22 URL-safe characters); anything else is refused before it reaches the log.
ENTRY_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
ENTRY_KEY_LENGTH = (16, 64)


def valid_entry_key(key: str) -> bool:
    """Whether ``key`` can be an entry key.

    >>> valid_entry_key("9f1c2a7e-58b1-4e7b-9d2e-0c6f0e3b1a55"), valid_entry_key("x"), valid_entry_key("a b" * 9)
    (True, False, False)
    """
    return ENTRY_KEY_LENGTH[0] <= len(key) <= ENTRY_KEY_LENGTH[1] and set(key) <= ENTRY_KEY_CHARS


def stored_seq(db: Database, table_id: str, entry_key: str) -> int | None:
    """The change an entry key was stored as, or None."""
    return db.value("SELECT seq FROM events WHERE table_id = ? AND entry_key = ?", [table_id, entry_key])


class NothingToUndo(Exception):
    """The log holds no change that can still be undone (or, for a redo, no undo to cancel)."""


#: Tables whose options take more room than this (a Royalty table's own word list) are
#: not kept in the caches: a few hundred of them would fill the memory.
CACHEABLE_OPTIONS = 64 * 1024


@dataclass(frozen=True)
class Table:
    id: str
    edit_key: str
    game: str
    title: str
    players: tuple[str, ...]
    options: dict[str, Any]
    created_at: str
    #: False when the table's options are too large for the tables cache (a long word list): the state
    #: cache keeps such a table with its scored game, once per version (:func:`state_by_id`).
    cacheable: bool = True
    #: The table this one is a rematch of, if it is one.
    rematch_of: str | None = None
    #: Players seated late: the first hand each plays (the API's ``joined``), from the log's "seat" changes.
    joined: dict[str, int] = field(default_factory=dict)
    #: The table as stored, when this is the table after the log's renames and late seats (:func:`seating`).
    base: Table | None = None

    @property
    def stored(self) -> Table:
        """The table as its row holds it: what the log's changes are folded onto."""
        return self.base or self

    @property
    def engine(self):
        return games.engine_for(self.game)


@dataclass(frozen=True)
class Event:
    seq: int
    kind: str
    slot: int | None
    undoes: int | None
    data: Any
    device: str
    created_at: str
    #: When a save sent late (kept on a phone without signal) was typed; None when it came at once.
    typed_at: str | None = None


@dataclass(frozen=True)
class State:
    """A table at one version: its log, the hands in play, and the game scored."""

    log: tuple[Event, ...]
    hands: list[tuple[int, Any]]
    scored: ScoredGame
    #: The table at this version: its players renamed and seated as the log says (:func:`seating`).
    table: Table
    #: The game folded after 0, 1, ... len(hands) hands: what the next version steps on (empty when
    #: the game could only be scored whole).
    folds: tuple[games.Folding, ...] = ()
    #: About how many bytes this state holds that its parent did not (see :func:`state_after`).
    weight: int = 0

    @property
    def version(self) -> int:
        return self.log[-1].seq if self.log else 0


class StateCache(Recent[State]):
    """The most recently used table states, by (table id, version), bounded in entries and bytes.

    Entries never go stale: the log up to a version never changes. A state
    is shared between requests, so nothing that reads one may change it. The
    newest state kept for each table is where the next version's fold starts.

    A state shares its log, hands and folded rounds with the state it was folded
    from; each is weighed as what it adds (:attr:`State.weight`), so the bound
    counts every byte at least once.
    """

    def __init__(self, size: int = 512, max_bytes: int | None = None):
        super().__init__(size, max_bytes, weight=lambda state: state.weight)
        self._newest: dict[str, int] = {}

    def put(self, key, value: State) -> None:
        super().put(key, value)
        table_id, version = key
        if version >= self._newest.get(table_id, -1):
            self._newest[table_id] = version
        if len(self._newest) > 2 * self.size:  # forget the tables whose states are all gone
            self._newest = {t: v for t, v in self._newest.items() if self.get((t, v)) is not None}

    def newest(self, table_id: str) -> State | None:
        """The newest state kept for a table, if any."""
        version = self._newest.get(table_id)
        return None if version is None else self.get((table_id, version))


def cancelled(events: Sequence[Event]) -> dict[int, int]:
    """The events an undo cancels, each with the undo that cancels it.

    An undo may itself be undone (that is a redo): a cancelled undo cancels nothing, so the
    log is read from its newest end.

    >>> e = lambda seq, kind, undoes=None: Event(seq, kind, seq, undoes, None, "", "")
    >>> sorted(cancelled([e(1, "add"), e(2, "undo", 1)]))
    [1]
    >>> sorted(cancelled([e(1, "add"), e(2, "undo", 1), e(3, "undo", 2)]))  # undone, then redone
    [2]
    """
    out: dict[int, int] = {}
    for e in reversed(events):
        if e.kind == "undo" and e.seq not in out and e.undoes is not None:
            out.setdefault(e.undoes, e.seq)
    return out


def fold(events: Sequence[Event]) -> list[tuple[int, Any]]:
    """The hands in play, as (slot, data) in the order they were first entered.

    >>> e = lambda seq, kind, slot=None, data=None, undoes=None: Event(seq, kind, slot, undoes, data, "", "")
    >>> fold([e(1, "add", 1, "h1"), e(2, "add", 2, "h2"), e(3, "edit", 1, "h1b")])
    [(1, 'h1b'), (2, 'h2')]
    >>> fold([e(1, "add", 1, "h1"), e(2, "edit", 1, "h1b"), e(3, "undo", undoes=2)])
    [(1, 'h1')]
    >>> fold([e(1, "add", 1, "h1"), e(2, "edit", 1, "h1b"), e(3, "undo", undoes=2), e(4, "undo", undoes=3)])
    [(1, 'h1b')]
    >>> fold([e(1, "add", 1, "h1"), e(2, "add", 2, "h2"), e(3, "delete", 1)])
    [(2, 'h2')]
    """
    hands: dict[int, Any] = {}
    for e in in_force(events):
        _fold_hand(hands, e)
    return sorted(hands.items())


def in_force(events: Sequence[Event]) -> list[Event]:
    """The changes that stand: every event but the undos and what they cancelled."""
    undone = cancelled(events)
    return [e for e in events if e.kind != "undo" and e.seq not in undone]


def _fold_hand(hands: dict[int, Any], e: Event) -> bool:
    """Apply an add, edit or delete to the hands in play; False for any other change."""
    if e.kind in ("add", "edit"):
        hands[e.slot] = e.data
    elif e.kind == "delete":
        hands.pop(e.slot, None)
    else:
        return False
    return True


def seating(table: Table, events: Sequence[Event]) -> tuple[Table, list[tuple[int, Any]]]:
    """The table after the log's renames and late seats, and the hands in play under today's names.

    A rename changes the name everywhere the game's rounds and options name that player
    (games.rename_round), so the hands entered before it read as if the new name had always been
    used; the rename itself stays in the log, which keeps every version of the name. A late seat
    adds a player at the end of the seat order, from the first hand entered after it.
    """
    table = table.stored
    hands: dict[int, Any] = {}
    players, options = list(table.players), dict(table.options)
    seated_at: dict[str, int] = {}
    for e in in_force(events):
        if _fold_hand(hands, e):
            continue
        if e.kind == "rename":
            old, new = e.data["from"], e.data["to"]
            players = [new if p == old else p for p in players]
            options = games.rename_options(table.game, options, old, new)
            hands = {slot: games.rename_round(table.game, data, old, new) for slot, data in hands.items()}
            seated_at = {(new if p == old else p): seq for p, seq in seated_at.items()}
        elif e.kind == "seat":  # at the end of the seats, or where an import's seat order put them
            players.insert(e.data.get("seat", len(players)), e.data["name"])
            seated_at[e.data["name"]] = e.seq
    in_play = sorted(hands.items())
    if players == list(table.players) and options == table.options and not seated_at:
        return table, in_play
    joined = {p: 1 + sum(1 for slot, _ in in_play if slot < seq) for p, seq in seated_at.items()}
    return replace(table, players=tuple(players), options=options, joined=joined, base=table), in_play


def undo_target(events: Sequence[Event]) -> Event | None:
    """The most recent change not yet undone (undo walks back one change at a time)."""
    undone = cancelled(events)
    for e in reversed(events):
        if e.kind != "undo" and e.seq not in undone:
            return e
    return None


def redo_target(events: Sequence[Event]) -> Event | None:
    """The most recent undo that Redo would cancel: only while no new change came after it.

    >>> e = lambda seq, kind, undoes=None: Event(seq, kind, seq, undoes, None, "", "")
    >>> redo_target([e(1, "add"), e(2, "add"), e(3, "undo", 2), e(4, "undo", 1)]).seq
    4
    >>> redo_target([e(1, "add"), e(2, "add"), e(3, "undo", 2), e(4, "undo", 1), e(5, "undo", 4)]).seq
    3
    >>> redo_target([e(1, "add"), e(2, "undo", 1), e(3, "add")]) is None
    True
    """
    undone = cancelled(events)
    kinds = {e.seq: e.kind for e in events}
    for e in reversed(events):
        if e.kind != "undo":
            return None
        if e.seq not in undone and kinds.get(e.undoes) != "undo":
            return e
    return None


def is_redo(event: Event, events: Sequence[Event]) -> bool:
    """An undo of an undo: the log's way of writing a redo."""
    return event.kind == "undo" and any(e.seq == event.undoes and e.kind == "undo" for e in events)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


#: How far a phone's clock may run ahead of the server's, and how long a save may wait on a phone.
CLOCK_SLACK = timedelta(minutes=5)
LONGEST_WAIT = timedelta(days=2)


def typed_at(sent: str | None) -> str | None:
    """When a phone says a late save was typed, as the log keeps times (UTC, to the second); None
    when it says nothing, or a time that cannot be right (not a time, in the future, days ago).

    >>> typed_at("2000-01-01T20:51:07.123Z") is None, typed_at("soon"), typed_at(None)
    (True, None, None)
    """
    try:
        when = datetime.fromisoformat((sent or "").strip())
    except ValueError:
        return None
    if when.tzinfo is None:
        return None
    moment = datetime.now(UTC)
    if not moment - LONGEST_WAIT <= when <= moment + CLOCK_SLACK:
        return None
    return min(when.astimezone(UTC), moment).isoformat(timespec="seconds")


def new_id() -> str:
    """A table (or tournament) id: 72 random bits, short enough to read out, far too many to guess.
    Never starting with "-": on a command line (``companion export ID``) it would read as an option."""
    while (found := secrets.token_urlsafe(9)).startswith("-"):
        pass
    return found


def new_edit_key() -> str:
    """An edit key: 128 random bits."""
    return secrets.token_urlsafe(16)


#: Options longer than this (a table's own word list) are stored compressed, as zlib bytes.
COMPRESS_OPTIONS = 4096


def _options_column(options: Mapping[str, Any], compress: bool = True) -> str | bytes:
    """The options as stored: JSON text, or compressed JSON when long (a word list shrinks about 4x)
    where the database does not compress long text itself (``compress``).

    >>> _options_column({"variant": "points"})
    '{"variant": "points"}'
    >>> column = _options_column({"word_list": ["EAR"] * 5000}); isinstance(column, bytes), len(column) < 200
    (True, True)
    >>> _options_of(column) == {"word_list": ["EAR"] * 5000}
    True
    """
    text = json.dumps(options)
    return zlib.compress(text.encode(), 6) if compress and len(text) > COMPRESS_OPTIONS else text


def _options_of(column: str | bytes) -> dict[str, Any]:
    return json.loads(zlib.decompress(column) if isinstance(column, bytes) else column)


def _row_to_table(row: Mapping[str, Any]) -> Table:
    options = row["options"]
    return Table(
        id=row["id"], edit_key=row["edit_key"], game=row["game"], title=row["title"],
        players=tuple(json.loads(row["players"])), options=_options_of(options),
        created_at=row["created_at"],
        cacheable=(len(options) if isinstance(options, str) else 4 * len(options)) <= CACHEABLE_OPTIONS,
        rematch_of=row.get("rematch_of"),
    )


def get_table(db: Database, table_id: str, cache: Recent[Table] | None = None) -> Table:
    """A table by its id; ``cache`` keeps tables already read (a table's row never changes)."""
    found = cache.get(table_id) if cache is not None else None
    if found is None:
        rows = db.rows("SELECT * FROM tables WHERE id = ?", [table_id])
        if not rows:
            raise TableNotFound(table_id)
        found = _row_to_table(rows[0])
        if cache is not None and found.cacheable:
            cache.put(table_id, found)
    return found


def get_table_list(db: Database, ids: Sequence[str]) -> list[Table]:
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    found = {r["id"]: _row_to_table(r) for r in db.rows(f"SELECT * FROM tables WHERE id IN ({marks})", list(ids))}  # noqa: S608
    return [found[i] for i in ids if i in found]


def events(db: Database, table_id: str) -> list[Event]:
    return [
        Event(r["seq"], r["kind"], r["slot"], r["undoes"],
              json.loads(r["data"]) if r["data"] is not None else None, r["device"], r["created_at"],
              r.get("typed_at"))
        for r in db.rows("SELECT * FROM events WHERE table_id = ? ORDER BY seq", [table_id])
    ]


def version(db: Database, table_id: str) -> int:
    """The table's version as the database holds it now; :class:`TableNotFound` when the table is gone
    (a round's seating undone), so a table kept in a cache is never shown after it was removed."""
    found = db.value("SELECT COALESCE((SELECT MAX(seq) FROM events WHERE table_id = tables.id), 0) "
                     "FROM tables WHERE id = ?", [table_id])
    if found is None:
        raise TableNotFound(table_id)
    return found


def events_since(db: Database, table_id: str, seq: int) -> list[Event]:
    """The events after ``seq``: what a state kept at version ``seq`` lacks."""
    return [
        Event(r["seq"], r["kind"], r["slot"], r["undoes"],
              json.loads(r["data"]) if r["data"] is not None else None, r["device"], r["created_at"],
              r.get("typed_at"))
        for r in db.rows("SELECT * FROM events WHERE table_id = ? AND seq > ? ORDER BY seq", [table_id, seq])
    ]


def state(db: Database, table: Table, cache: StateCache | None = None, current: int | None = None) -> State:
    """The table as it stands now, scored: from the cache when this version was scored before, else
    folded on from the newest state kept for the table (reading only the events after it).

    ``current`` is the table's version when the caller has just read it from the database.

    Every table's state is kept, a table with a long word list too (RY-17): its list is then read
    and checked once per version, not once per request (its bytes are counted in the first state
    of the table kept, :func:`state_after`).
    """
    table = table.stored
    parent = None
    if cache is not None:
        found = cache.get((table.id, version(db, table.id) if current is None else current))
        if found is not None:
            return found
        parent = cache.newest(table.id)
    if parent is not None:
        log = parent.log + tuple(events_since(db, table.id, parent.version))
    else:
        log = tuple(events(db, table.id))
    found = state_after(table, log, parent)
    if cache is not None:
        cache.put((table.id, found.version), found)
    return found


def state_by_id(db: Database, table_id: str, tables: Recent[Table] | None, cache: StateCache | None) -> State:
    """The table ``table_id`` as it stands now: from the state cache when this version is there, without
    reading the table's row (a table with a long word list is not kept in the tables cache)."""
    if cache is not None:
        found = cache.get((table_id, version(db, table_id)))
        if found is not None:
            return found
    return state(db, get_table(db, table_id, tables), cache)


def state_after(table: Table, log: tuple[Event, ...], parent: State | None) -> State:
    """The table scored at the end of ``log``, folding on from ``parent`` (a state of an earlier
    version of the same log) where its hands and game are the same; raises InputError as
    :func:`score_hands` does."""
    now_table, hands = seating(table, log)
    start = parent if parent is not None and parent.folds and _same_game(parent.table, now_table) else None
    kept = _same_hands(start.hands, hands) if start is not None else 0
    folds = list(start.folds[:kept + 1]) if start is not None else []
    try:
        if not folds:
            folds.append(games.start(request_for(now_table, []), stored=True))
        for _, data in hands[kept:]:
            folds.append(games.step(folds[-1], data))
        scored = games.finish(folds[-1])
    except InputError:
        # The full rescoring names every problem in the game at once (and is the reference).
        scored, folds = score_hands(now_table, hands), []
    added_events = log if parent is None else log[len(parent.log):]
    added_rounds = scored.rounds if parent is None else scored.rounds[kept:]
    # A round's whys are messages (core.messages.Text: the words with their template and values), thrice as
    # heavy as the words alone.
    weight = (_about_bytes([e.data for e in added_events]) + 3 * _about_bytes([r.as_json() for r in added_rounds])
              + EVENT_BYTES * len(added_events) + FOLD_BYTES * len(added_rounds)
              + 8 * (len(log) + 2 * len(hands)))  # the references to what is shared
    if parent is None:  # a long word list (RY-17): held by the table, and checked and copied by the engine
        weight += 2 * sum(_about_bytes(v) for v in now_table.options.values() if isinstance(v, list) and len(v) > 64)
    return State(log, hands, scored, now_table, tuple(folds), weight)


def _about_bytes(value: Any) -> int:
    """About how many bytes ``value`` takes in memory, from its JSON text: a Python object of the
    scores and whys takes 4 to 8 times its JSON (measured on every game's rounds), so 8x bounds it.
    Walking the objects (recent.weigh) cost a long table's save more than its scoring."""
    return 8 * len(json.dumps(value, ensure_ascii=False, default=str))


#: About what an event holds beyond its data (its seq, kind, device and time).
EVENT_BYTES = 400
#: About what one folded hand's own state holds beyond its scored round (totals and the like).
FOLD_BYTES = 1024


def _same_game(before: Table, now: Table) -> bool:
    """Whether two versions of a table play the same game: the same players, options and late seats."""
    return (before.game == now.game and before.players == now.players and before.joined == now.joined
            and (before.options is now.options or before.options == now.options))


def _same_hands(before: Sequence[tuple[int, Any]], now: Sequence[tuple[int, Any]]) -> int:
    """How many hands, from the first, two versions have in common."""
    kept = 0
    for (slot, data), (now_slot, now_data) in zip(before, now, strict=False):
        if slot != now_slot or (data is not now_data and data != now_data):
            break
        kept += 1
    return kept


def request_for(table: Table, rounds: Sequence[Any]) -> dict[str, Any]:
    """The table as an API request (API.md), ready for the engine or for export."""
    out = {"game": table.game, "players": list(table.players), "options": dict(table.options),
           "rounds": list(rounds)}
    if table.joined:
        out["joined"] = dict(table.joined)
    return out


def score_hands(table: Table, hands: Sequence[tuple[int, Any]]) -> ScoredGame:
    """The game scored whole (the full rescoring: every problem at once)."""
    return games.score(request_for(table, [data for _, data in hands]), stored=True)


#: The longest name a table may have (the new-table form's field says the same).
TITLE_CHARS = 60


def check_new_table(game: str, players: object, title: object, found: Problems) -> list[str]:
    """The new-table form's checks of the seats and the table's name, each problem added to ``found``
    in the players' words, by the name rule (:func:`limits.name_problem`); returns the names, trimmed.
    The options are the engine's to check (:func:`tables.create_table` scores the empty game before it
    stores anything)."""
    names = games.check_players(players, games.ENGINES[game], found)
    if not isinstance(title, str):
        found.add("title", "a table's name is text (or leave it out for the game's name)")
        return names
    title = limits.tidy(title)
    wrong = limits.characters_problem(title, "a table's name")
    if wrong:
        found.add("title", wrong)
    elif len(title) > TITLE_CHARS:
        found.add("title", f"a table's name may have at most {TITLE_CHARS} characters; this one has {len(title)}")
    return names


def new_table(game: str, players: Sequence[str], options: Mapping[str, Any], title: str = "",
              rounds: Sequence[Any] = (), rematch_of: str | None = None,
              joined: Mapping[str, int] | None = None) -> Table:
    """A table not yet stored, its game scored first so it is never stored in a state the engine refuses.

    ``joined`` (an import's late players, the API's field) leaves those players out of the stored
    seats: :func:`store_table` seats them in the log before their first hand.

    Every way to a new table comes here (the form, the API, an import, a rematch, a tournament's round),
    so the name rule's characters are checked here once more (:func:`limits.characters_problem`): a
    rematch of a table whose names were kept before the rule is refused, in words, until they are mended.
    """
    title = limits.tidy(title)
    found = [Problem("title", wrong)] if (wrong := limits.characters_problem(title, "a table's name")) else []
    found += [Problem(f"players[{i}]", f"{name}: {wrong}") for i, name in enumerate(players)
              if (wrong := limits.characters_problem(limits.tidy(name), "a player's name"))]
    found += games.bound_problems(games.engine_for(game), options)
    if found:
        raise InputError(found)
    table = Table(id=new_id(), edit_key=new_edit_key(), game=game,
                  title=title or games.engine_for(game).TITLE,
                  players=tuple(players), options=dict(options), created_at=now(), rematch_of=rematch_of,
                  joined={p: k for p, k in (joined or {}).items() if k > 1})
    score_hands(table, list(enumerate(rounds, 1)))
    return replace(table, players=tuple(p for p in players if p not in table.joined), joined={})


def store_table(db: Database, table: Table, rounds: Sequence[Any] = (), device: str = "",
                seats: Sequence[str] = (), joined: Mapping[str, int] | None = None) -> None:
    """Write a new table and its first hands; the caller holds the write transaction.

    ``joined`` players (an import's late players) are seated in the log before their first hand,
    each where ``seats`` (every player, in seat order) puts them.
    """
    db.execute(
        "INSERT INTO tables (id, edit_key, game, title, players, options, created_at, rematch_of) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [table.id, table.edit_key, table.game, table.title, json.dumps(list(table.players)),
         _options_column(table.options, not db.compresses_text), table.created_at, table.rematch_of],
    )
    final = list(seats) or list(table.players)
    late = {p: k for p, k in (joined or {}).items() if k > 1}
    present = set(table.players)
    seq = 0
    for n in range(1, len(rounds) + 2):
        for p in (p for p in final if late.get(p) == n):
            seq += 1
            seat_at = sum(1 for q in final[:final.index(p)] if q in present)
            present.add(p)
            _insert(db, table.id, Event(seq, "seat", None, None, {"name": p, "seat": seat_at}, device[:40], now()))
        if n <= len(rounds):
            seq += 1
            _insert(db, table.id, Event(seq, "add", seq, None, rounds[n - 1], device[:40], now()))


def create_table(db: Database, game: str, players: Sequence[str], options: Mapping[str, Any],
                 title: str = "", rounds: Sequence[Any] = (), device: str = "", rematch_of: str | None = None,
                 joined: Mapping[str, int] | None = None) -> Table:
    """Create a table (optionally with hands already played, and players who joined late, as an import does).
    One that counts for a club is the club's to create (``clubs.store.create_table``)."""
    table = new_table(game, players, options, title, rounds, rematch_of, joined)
    with immediate(db):
        store_table(db, table, rounds, device, players, joined)
    return table


def rotated(players: Sequence[str]) -> tuple[str, ...]:
    """The seats for a rematch: the deal passes left, so the second seat deals first.

    Rotating by one seat keeps everyone's neighbours and the players opposite each other
    (Alliance Royals' default Alliances, AR-2, are the same after it).

    >>> rotated(["Ann", "Ben", "Cat", "Dan"])
    ('Ben', 'Cat', 'Dan', 'Ann')
    """
    return (*players[1:], *players[:1])


def rematch(table: Table) -> dict[str, Any]:
    """What a rematch of ``table`` is made of, for :func:`create_table` (or a club's): the same players (seats
    rotated), options and title, linked to this one."""
    return {"game": table.game, "players": rotated(table.players), "options": table.options, "title": table.title,
            "rematch_of": table.id}


def _insert(db: Database, table_id: str, event: Event, entry_key: str | None = None) -> None:
    columns = ["table_id", "seq", "kind", "slot", "undoes", "data", "device", "created_at", "entry_key"]
    values = [table_id, event.seq, event.kind, event.slot, event.undoes,
              None if event.data is None else json.dumps(event.data), event.device, event.created_at, entry_key]
    if event.typed_at is not None:  # only a late save has it (and a log from before m007 has no such column)
        columns.append("typed_at")
        values.append(event.typed_at)
    db.execute(f"INSERT INTO events ({', '.join(columns)}) VALUES ({', '.join('?' * len(values))})",  # noqa: S608
               values)


@dataclass(frozen=True)
class Change:
    kind: str
    slot: int | None = None
    data: Any = None


def append(db: Database, table: Table, base_version: int | None, change: Change,
           device: str = "", cache: StateCache | None = None, entry_key: str | None = None,
           typed_at: str | None = None) -> tuple[int, ScoredGame]:
    """Append one change to the log, atomically, if it is based on the current version.

    Raises :class:`StaleVersion` when another phone wrote first, and
    :class:`InputError` when the game after the change cannot be scored.
    Returns the new version and the scored game.

    A change sent with an ``entry_key`` that is already in the table's log raises
    :class:`AlreadyStored` and writes nothing: a replay of a save that went through is
    recognised even after later changes (the key is looked up before a change is called
    stale, and always under the write lock).

    The change is scored before the write lock is taken, against the log at
    ``base_version``; the lock is held only to check that no other change came
    in between (the log at that version is then the one scored) and to insert.
    """
    table = table.stored
    current = version(db, table.id)
    if base_version != current:  # unknown (None) counts as stale: never write blind
        _refuse_stale(db, table.id, entry_key, current)
    before = state(db, table, cache, current) if cache is not None else None
    log = before.log if before is not None else tuple(events(db, table.id))
    if (log[-1].seq if log else 0) != current:  # another change came in between the two reads
        _refuse_stale(db, table.id, entry_key, log[-1].seq)
    seq = current + 1
    slot, undoes, data = None, None, None
    if change.kind in ("undo", "redo"):  # a redo is written as an undo of the undo
        target = undo_target(log) if change.kind == "undo" else redo_target(log)
        if target is None:
            raise NothingToUndo()
        undoes = target.seq
    elif change.kind in ("rename", "seat"):
        data = change.data
    else:
        slot, data = (seq if change.kind == "add" else change.slot), change.data
        if change.kind != "add" and slot not in dict(before.hands if before is not None else fold(log)):
            raise InputError([_no_such_hand(slot)])
    pending = Event(seq, "undo" if change.kind == "redo" else change.kind, slot, undoes, data, device[:40], now(),
                    typed_at)
    bounds.check_room(db, table.id, data)  # a table bounded in bytes as well as rounds
    after = state_after(table, (*log, pending), before)
    bounds.count_write(table.id)
    with immediate(db, lock=("tables", table.id)):  # writers to this table queue here, on every server
        if entry_key is not None and (stored := stored_seq(db, table.id, entry_key)) is not None:
            raise AlreadyStored(stored)  # the same save, sent twice at once: the other one won
        current = version(db, table.id)
        if current != base_version:
            raise StaleVersion(current)
        _insert(db, table.id, pending, entry_key)
        saved.send(db, table=after.table, scored=after.scored)  # a club's places and ratings change with it
    if cache is not None:
        cache.put((table.id, seq), after)
    return seq, after.scored


def _refuse_stale(db: Database, table_id: str, entry_key: str | None, current: int) -> NoReturn:
    """Another change came first: :class:`AlreadyStored` when it was this very save (a retry that
    raced its first copy, or a replay), else :class:`StaleVersion`. Every path that finds the table
    moved on asks, so a retry is never shown to its own phone as a clash."""
    if entry_key is not None and (seq := stored_seq(db, table_id, entry_key)) is not None:
        raise AlreadyStored(seq)
    raise StaleVersion(current)


def name_problem(table: Table, name: str, keeping: str | None = None) -> str | None:
    """What is wrong with ``name`` (as :func:`limits.tidy` leaves it) as a player's name at this table, in the
    players' words, or None: as for a new table's names (not empty, the name rule, no two a reader could not
    tell apart); ``keeping`` is the player being renamed (they may change the case of their own name)."""
    if not name:
        return "each player needs a name"
    wrong = limits.name_problem(name)
    if wrong:
        return wrong
    for p in table.players:
        if p != keeping and limits.name_key(p) == limits.name_key(name):
            return f"{p} already sits at this table; give each player a different name"
    return None


def rename(db: Database, table: Table, base_version: int | None, old: str, new: str, device: str = "",
           cache: StateCache | None = None) -> tuple[int, ScoredGame]:
    """Correct a player's name (``table`` as it stands now); the log keeps the old one.

    Raises :class:`InputError` (where ``name``) when the new name will not do.
    """
    new = limits.tidy(new)
    wrong = name_problem(table, new, keeping=old) or (f"{old} is already called that" if new == old else None)
    if old not in table.players:
        wrong = f"nobody called {old} sits at this table"
    if wrong:
        raise InputError([Problem("name", wrong)])
    return append(db, table, base_version, Change("rename", data={"from": old, "to": new}), device, cache)


def late_refusal(table: Table, scored: ScoredGame) -> str | None:
    """Why no player can be seated late at this table now, in the players' words; None when one can."""
    engine = table.engine
    wrong = games.late_players_refused(table.game, table.options)
    if not wrong and scored.over:
        wrong = f"the game is over; correct an earlier {engine.ROUND_NAME} to carry on, or start a rematch"
    if not wrong and len(table.players) >= engine.MAX_PLAYERS:
        wrong = f"{engine.TITLE} is played by at most {engine.MAX_PLAYERS} players, and all the seats are taken"
    return wrong


def seat(db: Database, table: Table, base_version: int | None, name: str, scored: ScoredGame, device: str = "",
         cache: StateCache | None = None) -> tuple[int, ScoredGame]:
    """Seat a late player (``table`` as it stands now), playing from the next hand on; the game's own
    rule sets their starting score (its rules page says which).

    Raises :class:`InputError` (where ``name``) when the game or the name will not have it.
    """
    name = limits.tidy(name)
    wrong = late_refusal(table, scored) or name_problem(table, name)
    if wrong:
        raise InputError([Problem("name", wrong)])
    try:
        return append(db, table, base_version, Change("seat", data={"name": name}), device, cache)
    except InputError as err:  # the game's own rule for a late player (a pool's rejoining window, IR-9)
        raise InputError([Problem("name", p.message) for p in err.problems]) from err


def _no_such_hand(slot: int | None):
    return Problem("slot", f"there is no hand {slot} in play at this table")
