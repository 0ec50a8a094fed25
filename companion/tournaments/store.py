"""Club-night tournaments in the database: entrants, rounds of real tables, standings.

Seating and standings are pure (seating, standings); this module stores a
tournament, seats a round by creating ordinary tables linked to it, and reads
the tables' scored results back for the standings.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import games
from ..clubs import store as clubs
from ..core import limits
from ..core.messages import say
from ..core.recent import Recent
from ..storage import tables
from ..storage.db import Database, immediate
from . import seating
from .standings import standings

TEAM_JOIN = " & "


class TournamentNotFound(LookupError):
    """No tournament has that id."""


class RoundAlreadySeated(Exception):
    """The round asked for is seated already (a second tap, or another device first)."""

    def __init__(self, round_number: int | None = None):
        self.round = round_number
        super().__init__(say("round {number} is already seated", number=round_number) if round_number
                         else say("already seated"))


class DirectorRefused(ValueError):
    """A director's change the tournament's state does not allow; the message says why."""


#: A seat's stand-in in the tournament's options, for options that name players (Royalty's
#: coalitions): each table's own players replace them when its round is seated.
SEAT = "\x1fseat {}"


def seat_stand_ins(count: int) -> list[str]:
    return [SEAT.format(i) for i in range(1, count + 1)]


def options_for(options: Any, players: Sequence[str]) -> Any:
    """The tournament's options for one table, each seat's stand-in replaced by the player in it.

    >>> options_for({"coalitions": [[SEAT.format(1), SEAT.format(3)]], "junior": True}, ["Ann", "Ben", "Cat"])
    {'coalitions': [['Ann', 'Cat']], 'junior': True}
    """
    names = {SEAT.format(i): p for i, p in enumerate(players, 1)}
    if isinstance(options, str):
        return names.get(options, options)
    if isinstance(options, list):
        return [options_for(v, players) for v in options]
    if isinstance(options, dict):
        return {k: options_for(v, players) for k, v in options.items()}
    return options


@dataclass(frozen=True)
class Tournament:
    id: str
    director_key: str
    game: str
    title: str
    entrants: tuple[str, ...]
    teams: dict[str, tuple[str, ...]]
    options: dict[str, Any]
    method: str
    rounds: int
    table_size: Any
    created_at: str

    def players_of(self, entrant: str) -> tuple[str, ...]:
        return self.teams.get(entrant, (entrant,))


@dataclass(frozen=True)
class SeatedTable:
    round: int
    number: int
    table_id: str
    entrants: tuple[str, ...]


def _row(row) -> Tournament:
    raw = json.loads(row["entrants"])
    entrants, teams = [], {}
    for entrant in raw:
        if isinstance(entrant, list):
            name = TEAM_JOIN.join(entrant)
            teams[name] = tuple(entrant)
            entrants.append(name)
        else:
            entrants.append(entrant)
    return Tournament(id=row["id"], director_key=row["director_key"], game=row["game"], title=row["title"],
                      entrants=tuple(entrants), teams=teams, options=json.loads(row["options"]),
                      method=row["method"], rounds=row["rounds"], table_size=json.loads(row["table_size"]),
                      created_at=row["created_at"])


def create(db: Database, game: str, title: str, entrants: Sequence[Any], options: dict[str, Any], method: str,
           rounds: int, table_size: Any, club: clubs.Club | None = None) -> Tournament:
    """A new tournament; run for ``club``, every table it seats counts for the club."""
    tid, key = tables.new_id(), secrets.token_urlsafe(16)
    with immediate(db):
        db.execute(
            "INSERT INTO tournaments (id, director_key, game, title, entrants, options, method, rounds, table_size, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [tid, key, game, title, json.dumps(list(entrants)), json.dumps(options), method, rounds,
             json.dumps(table_size), tables.now()],
        )
        if club is not None:
            clubs.add_tournament(db, club, tid)
    return get(db, tid)


def get(db: Database, tid: str) -> Tournament:
    rows = db.rows("SELECT * FROM tournaments WHERE id = ?", [tid])
    if not rows:
        raise TournamentNotFound(tid)
    return _row(rows[0])


def seated(db: Database, tid: str) -> list[SeatedTable]:
    return [SeatedTable(r["round"], r["number"], r["table_id"], tuple(json.loads(r["seats"])))
            for r in db.rows("SELECT * FROM tournament_tables WHERE tournament_id = ? ORDER BY round, number",
                             [tid])]


def rounds_seated(db: Database, tid: str) -> int:
    return db.value("SELECT COALESCE(MAX(round), 0) FROM tournament_tables WHERE tournament_id = ?", [tid])


def version(db: Database, tid: str) -> str:
    """Changes whenever any of the tournament's tables changes, a round is seated or undone, time
    is called or a result adjusted: the standings page's ETag."""
    row = db.rows(
        "SELECT COUNT(*) AS n, COALESCE(MAX(e.id), 0) AS last, COALESCE(MAX(tt.table_id), '') AS newest "
        "FROM tournament_tables tt LEFT JOIN events e ON e.table_id = tt.table_id WHERE tt.tournament_id = ?", [tid])[0]
    director = db.rows(
        "SELECT (SELECT COUNT(*) FROM tournament_calls WHERE tournament_id = ?) AS calls, "
        "(SELECT COALESCE(MAX(created_at), '') FROM tournament_adjustments WHERE tournament_id = ?) AS adjusted",
        [tid, tid])[0]
    return f"{row['n']}-{row['last']}-{row['newest'][:6]}-{director['calls']}-{director['adjusted']}"


def results(db: Database, t: Tournament, cache: tables.StateCache | None = None,
            known: Recent[tables.Table] | None = None) -> list[dict[str, Any]]:
    """Each seated table's outcome, per entrant, as the standings take it (``cache`` and
    ``known`` keep scored tables and tables read, as tables.state and tables.get_table do)."""
    out = []
    called, adjusted, cuts = called_rounds(db, t.id), adjustments(db, t.id), call_versions(db, t.id)
    for seat in seated(db, t.id):
        table = tables.get_table(db, seat.table_id, known)
        now = tables.state(db, table, cache)
        scored = now.scored
        # A name corrected at the table keeps its seat: the entrant is found by seat (tables.rename).
        named = dict(zip(table.players, now.table.players, strict=False))
        if seat.round in called:  # time was called: what was entered after it does not count
            log = tables.events(db, table.id)
            cut = cuts.get(seat.table_id)  # the table's version at the call (a call before m009: its time)
            before = [e for e in log if (e.seq <= cut if cut is not None else e.created_at <= called[seat.round])]
            if len(before) < len(log):
                then, hands = tables.seating(table, before)
                scored = tables.score_hands(then, hands)
                named = dict(zip(table.players, then.players, strict=False))
        totals, winners = {}, []
        for entrant in seat.entrants:
            members = [named.get(p, p) for p in t.players_of(entrant)]
            if scored.sides and len(members) > 1:
                side = next(s for s, names in scored.sides.items() if members[0] in names)
                totals[entrant] = scored.side_totals[side]
            else:
                totals[entrant] = sum(scored.totals[p] for p in members)
            if any(p in scored.winners for p in members):
                winners.append(entrant)
        result = {"round": seat.round, "table": seat.number, "players": list(seat.entrants), "totals": totals,
                  "winners": winners, "over": scored.over, "table_id": seat.table_id, "hands": len(scored.rounds)}
        if low_wins(t):
            result["low_wins"] = True
        if seat.round in called and not scored.over:
            result["called"] = True  # time was called: the table counts as it stands
            if seat.table_id in adjusted:  # ...or as the director adjusted it
                result["totals"] = dict(adjusted[seat.table_id]["totals"])
                result["adjusted"] = adjusted[seat.table_id]["reason"]
        out.append(result)
    return out


def low_wins(t: Tournament) -> bool:
    """Whether the lowest total is best: pool rummy counts against you (IR-9)."""
    return t.game == "indian-rummy" and str(t.options.get("variant", "")).startswith("pool")


def time_rule(t: Tournament) -> str:
    """How a table still playing when time is called counts, in the director's words."""
    noun = getattr(games.ENGINES.get(t.game), "ROUND_NAME", "round")
    if low_wins(t):
        order = say("the lowest count first (IR-9), so a player already out of the pool is last")
    elif t.game == "indian-rummy" and t.options.get("variant") == "deals":
        order = say("the most chips held first")
    elif t.teams:
        order = say("the highest team total first")
    else:
        order = say("the highest total first")
    played = {"hand": say("the hands played"), "deal": say("the deals played"), "turn": say("the turns played")}
    return say("When time is called, a table still playing counts as it stands after {played}: places by {order}; "
               "equal totals share the places. What a table enters after time is called does not count. The "
               "director may type an adjusted result instead, with the reason, and it counts in place of the "
               "table's totals.", played=played.get(noun) or say("the rounds played"), order=order)


def table_players(t: Tournament, entrants: Sequence[str]) -> list[str]:
    """The players of a table in seat order; two teams sit allies opposite (seats 1 + 3, 2 + 4, AR-2)."""
    if t.teams and len(entrants) == 2:
        a, b = (t.players_of(e) for e in entrants)
        return [a[0], b[0], a[1], b[1]]
    return [p for e in entrants for p in t.players_of(e)]


def seat_next_round(db: Database, t: Tournament, seed: int | None = None,
                    round_number: int | None = None) -> list[SeatedTable]:
    """Seat the next round: create its tables (ordinary tables, linked here) and return them.

    ``round_number`` is the round the director meant to seat: when it is seated already (a
    second tap, another device) :class:`RoundAlreadySeated` is raised and nothing changes.
    """
    done = rounds_seated(db, t.id)
    if round_number is not None and round_number <= done:
        raise RoundAlreadySeated(round_number)
    if round_number is not None and round_number != done + 1:
        raise seating.SeatingError(say("round {next} is the next to seat, not round {number}", next=done + 1,
                                       number=round_number))
    if done >= t.rounds:
        raise seating.SeatingError(say("all {rounds} rounds are seated", rounds=t.rounds))
    history = {}
    for seat in seated(db, t.id):
        history.setdefault(seat.round, []).append(seat.entrants)
    ranking = standings(results(db, t)) if t.method == "swiss" else None
    layout = seating.seat_round(t.method, list(t.entrants), _size(t), done + 1,
                                   [history[r] for r in sorted(history)], standings=ranking,
                                   seed=seed if seed is not None else secrets.randbits(32))
    new_tables = []
    for number, entrants in enumerate(layout, 1):
        title = f"{limits.one_line(t.title)} · round {done + 1}, table {number}"
        players = table_players(t, entrants)
        new_tables.append((number, entrants, tables.new_table(t.game, players, options_for(t.options, players),
                                                              title)))
    with immediate(db, lock=("tournaments", t.id)):  # a second tap, on any server, waits here
        if rounds_seated(db, t.id) != done:
            raise RoundAlreadySeated()
        for number, entrants, table in new_tables:
            tables.store_table(db, table, device="tournament")
            db.execute("INSERT INTO tournament_tables (tournament_id, round, number, table_id, seats) "
                       "VALUES (?, ?, ?, ?, ?)", [t.id, done + 1, number, table.id, json.dumps(list(entrants))])
        clubs.count_seated_tables(db, t.id, [table for _, _, table in new_tables])
    return [SeatedTable(done + 1, n, table.id, tuple(e)) for n, e, table in new_tables]


def round_tables(db: Database, tid: str, round_number: int) -> list[SeatedTable]:
    return [s for s in seated(db, tid) if s.round == round_number]


def unseat_round(db: Database, t: Tournament, round_number: int,
                 known: Recent[tables.Table] | None = None) -> int:
    """Undo the seating of the last round seated, while none of its tables has a hand entered.

    Its tables are removed (they hold nothing; ``known``, the cache of tables read, forgets
    them); the number of tables removed is returned.
    """
    with immediate(db, lock=("tournaments", t.id)):
        done = rounds_seated(db, t.id)
        if round_number != done or done == 0:
            raise DirectorRefused(say("only the last round seated (round {number}) can be undone", number=done)
                                  if done else say("no round is seated"))
        ids = [s.table_id for s in round_tables(db, t.id, round_number)]
        for table_id in ids:  # a hand being saved on another server now finishes first, and is seen below
            db.lock_row("tables", table_id)
        started = db.rows(
            "SELECT tt.number FROM tournament_tables tt JOIN events e ON e.table_id = tt.table_id "
            "WHERE tt.tournament_id = ? AND tt.round = ? ORDER BY tt.number LIMIT 1", [t.id, round_number])
        if started:
            raise DirectorRefused(say("table {table} of round {number} has a hand entered, so its seating stays; "
                                      "call time on the round instead", table=started[0]["number"],
                                      number=round_number))
        db.execute("DELETE FROM tournament_calls WHERE tournament_id = ? AND round = ?", [t.id, round_number])
        db.execute("DELETE FROM tournament_adjustments WHERE table_id IN (SELECT table_id FROM tournament_tables "
                   "WHERE tournament_id = ? AND round = ?)", [t.id, round_number])
        db.execute("DELETE FROM tournament_tables WHERE tournament_id = ? AND round = ?", [t.id, round_number])
        for table_id in ids:
            db.execute("DELETE FROM club_tables WHERE table_id = ?", [table_id])  # nothing played: nothing rated
            db.execute("DELETE FROM tables WHERE id = ?", [table_id])
    for table_id in ids if known is not None else ():
        known.discard(table_id)
    return len(ids)


def called_rounds(db: Database, tid: str) -> dict[int, str]:
    """The rounds on which time was called, with when."""
    return {r["round"]: r["called_at"]
            for r in db.rows("SELECT round, called_at FROM tournament_calls WHERE tournament_id = ?", [tid])}


def call_versions(db: Database, tid: str) -> dict[str, int]:
    """Each table's version when time was called on its round: what came after it does not count."""
    cuts: dict[str, int] = {}
    for r in db.rows("SELECT versions FROM tournament_calls WHERE tournament_id = ? AND versions IS NOT NULL", [tid]):
        cuts.update(json.loads(r["versions"]))
    return cuts


def time_called_on(db: Database, table_id: str) -> dict[str, Any] | None:
    """For a table of a tournament round whose time was called: the round, when, and the tournament's
    name; None for any other table."""
    row = next(db.query(
        "SELECT tt.round, tc.called_at, t.title FROM tournament_tables tt "
        "JOIN tournament_calls tc ON tc.tournament_id = tt.tournament_id AND tc.round = tt.round "
        "JOIN tournaments t ON t.id = tt.tournament_id WHERE tt.table_id = ?", [table_id]), None)
    return dict(row) if row else None


def call_time(db: Database, t: Tournament, round_number: int) -> None:
    """End a round: its unfinished tables count as they stand (or as the director adjusts them)."""
    with immediate(db, lock=("tournaments", t.id)):
        if not 1 <= round_number <= rounds_seated(db, t.id):
            raise DirectorRefused(say("round {number} is not seated", number=round_number))
        versions = {s.table_id: tables.version(db, s.table_id) for s in seated(db, t.id) if s.round == round_number}
        db.execute("INSERT INTO tournament_calls (tournament_id, round, called_at, versions) VALUES (?, ?, ?, ?) "
                   "ON CONFLICT DO NOTHING",
                   [t.id, round_number, tables.now(), json.dumps(versions)])


def adjustments(db: Database, tid: str) -> dict[str, dict[str, Any]]:
    return {r["table_id"]: {"totals": json.loads(r["totals"]), "reason": r["reason"], "at": r["created_at"]}
            for r in db.rows("SELECT * FROM tournament_adjustments WHERE tournament_id = ?", [tid])}


def adjust(db: Database, t: Tournament, table_id: str, totals: dict[str, int], reason: str) -> None:
    """Give a table of a round whose time was called the result the director typed, with the reason."""
    with immediate(db, lock=("tournaments", t.id)):
        seat = next((s for s in seated(db, t.id) if s.table_id == table_id), None)
        if seat is None:
            raise DirectorRefused(say("that table is not part of this tournament"))
        if seat.round not in called_rounds(db, t.id):
            raise DirectorRefused(say("call time on round {number} before adjusting one of its tables",
                                      number=seat.round))
        if set(totals) != set(seat.entrants):
            raise DirectorRefused(say("give a total for everyone at the table"))
        db.execute("INSERT INTO tournament_adjustments (tournament_id, table_id, totals, reason, created_at) "
                   "VALUES (?, ?, ?, ?, ?) ON CONFLICT (tournament_id, table_id) DO UPDATE SET "
                   "totals = excluded.totals, reason = excluded.reason, created_at = excluded.created_at",
                   [t.id, table_id, json.dumps(totals), reason, tables.now()])


def _size(t: Tournament):
    size = t.table_size
    return tuple(size) if isinstance(size, list) else size
