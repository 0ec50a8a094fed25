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

from sqlite_utils import Database

from .. import limits, tables
from ..db import immediate
from ..recent import Recent
from . import seating
from .standings import standings

TEAM_JOIN = " & "


class TournamentNotFound(LookupError):
    """No tournament has that id."""


class RoundAlreadySeated(Exception):
    """Another request seated this round first (``round``: the round asked for, when known)."""

    def __init__(self, round_number: int | None = None):
        self.round = round_number
        super().__init__(f"round {round_number} is already seated" if round_number else "already seated")


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
           rounds: int, table_size: Any) -> Tournament:
    tid, key = secrets.token_urlsafe(9), secrets.token_urlsafe(16)
    with immediate(db):
        db.execute(
            "INSERT INTO tournaments (id, director_key, game, title, entrants, options, method, rounds, table_size, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [tid, key, game, title, json.dumps(list(entrants)), json.dumps(options), method, rounds,
             json.dumps(table_size), tables.now()],
        )
    return get(db, tid)


def get(db: Database, tid: str) -> Tournament:
    rows = list(db.query("SELECT * FROM tournaments WHERE id = ?", [tid]))
    if not rows:
        raise TournamentNotFound(tid)
    return _row(rows[0])


def seated(db: Database, tid: str) -> list[SeatedTable]:
    return [SeatedTable(r["round"], r["number"], r["table_id"], tuple(json.loads(r["seats"])))
            for r in db.query("SELECT * FROM tournament_tables WHERE tournament_id = ? ORDER BY round, number",
                              [tid])]


def rounds_seated(db: Database, tid: str) -> int:
    return next(db.query("SELECT COALESCE(MAX(round), 0) AS n FROM tournament_tables WHERE tournament_id = ?",
                         [tid]))["n"]


def version(db: Database, tid: str) -> str:
    """Changes whenever any of the tournament's tables changes: the standings page's ETag."""
    row = next(db.query(
        "SELECT COUNT(*) AS n, COALESCE(MAX(e.id), 0) AS last FROM tournament_tables tt "
        "LEFT JOIN events e ON e.table_id = tt.table_id WHERE tt.tournament_id = ?", [tid]))
    return f"{row['n']}-{row['last']}"


def results(db: Database, t: Tournament, cache: tables.StateCache | None = None,
            known: Recent[tables.Table] | None = None) -> list[dict[str, Any]]:
    """Each seated table's outcome, per entrant, as the standings take it (``cache`` and
    ``known`` keep scored tables and tables read, as tables.state and tables.get_table do)."""
    out = []
    for seat in seated(db, t.id):
        table = tables.get_table(db, seat.table_id, known)
        scored = tables.state(db, table, cache).scored
        totals, winners = {}, []
        for entrant in seat.entrants:
            members = t.players_of(entrant)
            if scored.sides and len(members) > 1:
                side = next(s for s, names in scored.sides.items() if members[0] in names)
                totals[entrant] = scored.side_totals[side]
            else:
                totals[entrant] = sum(scored.totals[p] for p in members)
            if any(p in scored.winners for p in members):
                winners.append(entrant)
        result = {"round": seat.round, "table": seat.number, "players": list(seat.entrants), "totals": totals,
                  "winners": winners, "over": scored.over, "table_id": seat.table_id, "hands": len(scored.rounds)}
        if t.game == "indian-rummy" and str(t.options.get("variant", "")).startswith("pool"):
            result["low_wins"] = True  # pool rummy counts against you (IR-9)
        out.append(result)
    return out


def table_players(t: Tournament, entrants: Sequence[str]) -> list[str]:
    """The players of a table in seat order; two teams sit allies opposite (seats 1 + 3, 2 + 4, AR-2)."""
    if t.teams and len(entrants) == 2:
        a, b = (t.players_of(e) for e in entrants)
        return [a[0], b[0], a[1], b[1]]
    return [p for e in entrants for p in t.players_of(e)]


def seat_next_round(db: Database, t: Tournament, seed: int | None = None,
                    round_number: int | None = None) -> list[SeatedTable]:
    """Seat the next round: create its tables (ordinary tables, linked here) and return them.

    ``round_number``, when given, is the round the director meant to seat: when that round
    is already seated (the button pressed twice, or on two phones) nothing is seated and
    :class:`RoundAlreadySeated` is raised, so a second press never seats the round after.
    """
    done = rounds_seated(db, t.id)
    if round_number is not None and round_number != done + 1:
        raise RoundAlreadySeated(round_number)
    if done >= t.rounds:
        raise seating.SeatingError(f"all {t.rounds} rounds are seated")
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
        new_tables.append((number, entrants, tables.new_table(t.game, table_players(t, entrants), t.options, title)))
    with immediate(db):
        if rounds_seated(db, t.id) != done:
            raise RoundAlreadySeated()
        for number, entrants, table in new_tables:
            tables.store_table(db, table, device="tournament")
            db.execute("INSERT INTO tournament_tables (tournament_id, round, number, table_id, seats) "
                       "VALUES (?, ?, ?, ?, ?)", [t.id, done + 1, number, table.id, json.dumps(list(entrants))])
    return [SeatedTable(done + 1, n, table.id, tuple(e)) for n, e, table in new_tables]


def _size(t: Tournament):
    size = t.table_size
    return tuple(size) if isinstance(size, list) else size
