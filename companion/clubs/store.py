"""A club in the database: its keys, its roster, the tables that count for it, and each finished
game's places with the ratings after it.

Ratings are kept as games finish, never worked out again when a page is shown: a table of the club
that finishes adds its places and rates them (:func:`record`, inside the save's own transaction);
a finished game edited, or undone back to unfinished, rates that game's kind again from that game
on (:func:`replay`), and the club remembers it to say so on its pages.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from ..core import limits
from ..core.messages import say
from ..games.base import InputError, Problem, ScoredGame
from ..paper.scorepad import LOW_WINS_VARIANTS
from ..storage import tables
from ..storage.db import Database, immediate
from . import moments, ratings

#: The most players a club's roster holds: a big club, and a bound on every page that lists them.
MAX_ROSTER = 1000


class ClubNotFound(LookupError):
    pass


@dataclass(frozen=True)
class Club:
    id: str
    name: str
    director_key: str
    member_key: str
    created_at: str
    #: The last time ratings were worked out again after a finished game changed, in words; or None.
    recomputed: dict[str, Any] | None = None
    #: The seasons the director named, oldest first.
    seasons: tuple[Season, ...] = ()

    def role(self, key: str | None) -> str | None:
        """What ``key`` opens: "director", "member", or None (compared in constant time; any text,
        even one no keyboard types, is compared rather than refused with an error)."""
        given = (key or "").encode("utf-8", "surrogatepass")
        if given and secrets.compare_digest(given, self.director_key.encode()):
            return "director"
        if given and secrets.compare_digest(given, self.member_key.encode()):
            return "member"
        return None


@dataclass(frozen=True)
class Season:
    """A named range of dates, both days included (the club's games that finished then)."""

    name: str
    first: str  # YYYY-MM-DD
    last: str

    @property
    def since(self) -> str:
        return self.first

    @property
    def until(self) -> str:
        """The day after the last, as the finishing times compare: "2026-05-31T23:59..." < "2026-06-01"."""
        return (date.fromisoformat(self.last) + timedelta(days=1)).isoformat()

    def as_json(self) -> dict[str, str]:
        return {"name": self.name, "from": self.first, "to": self.last}


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    former: bool
    merged_into: int | None


def name_key(name: str) -> str:
    """How a name is matched to the roster: composed, case and spaces ignored, and the characters nobody
    sees (:func:`limits.name_key`), so "A\\u200bnn" kept before the name rule is Ann's.

    >>> name_key("  Mary  Ann ") == name_key("mary ann") == name_key("Mary A\\u200bnn")
    True
    """
    return limits.name_key(name)


def kept_name(name: str) -> str:
    """A name as the roster keeps it: composed, trimmed, each run of spaces one space.

    >>> kept_name(" Zoe\\u0308  Ann ") == "Zo\\u00eb Ann"
    True
    """
    return " ".join(limits.tidy(name).split())


def name_problem(name: object, what: str = "a club's name") -> str | None:
    """The name rule (:func:`limits.name_problem`) for a club's, a season's or a roster's name, in words."""
    if name is not None and not isinstance(name, str):
        return f"{what} is text"
    if name is None or not name.strip():
        return f"{what} cannot be empty"
    return limits.name_problem(limits.tidy(name), what)


# ---------------------------------------------------------------------------------------------
# The club and its keys


def create_club(db: Database, name: object) -> Club:
    wrong = name_problem(name)
    if wrong:
        raise InputError([Problem("name", wrong)])
    with immediate(db):
        return insert_club(db, str(name))


def insert_club(db: Database, name: str) -> Club:
    """A new club, its keys drawn now (the caller holds the write transaction)."""
    club = Club(tables.new_id(), kept_name(name), tables.new_edit_key(), tables.new_edit_key(), tables.now())
    db.execute("INSERT INTO clubs (id, name, director_key, member_key, created_at) VALUES (?, ?, ?, ?, ?)",
               [club.id, club.name, club.director_key, club.member_key, club.created_at])
    return club


def get_club(db: Database, club_id: str) -> Club:
    row = db.execute("SELECT id, name, director_key, member_key, created_at, recomputed, seasons FROM clubs "
                     "WHERE id = ?", [club_id]).fetchone()
    if row is None:
        raise ClubNotFound(club_id)
    seasons = tuple(Season(s["name"], s["from"], s["to"]) for s in json.loads(row[6] or "[]"))
    return Club(*row[:5], recomputed=json.loads(row[5]) if row[5] else None, seasons=seasons)


#: The most seasons a club names: a season a month for several years.
MAX_SEASONS = 60


def season_problems(name: object, first: object, last: object, taken: Iterable[str] = ()) -> list[Problem]:
    """What is wrong with a season as the director typed it, each beside its field, in their words."""
    found = []
    wrong = name_problem(name, "a season's name")
    if not wrong and name_key(str(name)) in {name_key(t) for t in taken}:
        wrong = say("the club has a season called {name} already", name=name)
    if wrong:
        found.append(Problem("season_name", wrong))
    days = {}
    for where, value in (("season_from", first), ("season_to", last)):
        try:
            days[where] = date.fromisoformat(str(value))
        except ValueError:
            found.append(Problem(where, say("give the date as year-month-day, like 2026-03-01")))
            continue
        if not 1900 <= days[where].year <= 2999:
            found.append(Problem(where, say("give a date between the years 1900 and 2999")))
            del days[where]
    if len(days) == 2 and days["season_to"] < days["season_from"]:
        found.append(Problem("season_to", say("a season ends on or after the day it starts")))
    return found


def add_season(db: Database, club: Club, name: object, first: object, last: object) -> Club:
    with immediate(db, lock=("clubs", club.id)):
        now = get_club(db, club.id)
        found = season_problems(name, first, last, [s.name for s in now.seasons])
        if len(now.seasons) >= MAX_SEASONS:
            found.append(Problem("season_name", say("a club names at most {most} seasons; remove an old one",
                                                    most=MAX_SEASONS)))
        if found:
            raise InputError(found)
        season = Season(kept_name(str(name)), str(first), str(last))
        seasons = sorted([*now.seasons, season], key=lambda s: (s.first, s.last, s.name))
        db.execute("UPDATE clubs SET seasons = ? WHERE id = ?", [json.dumps([s.as_json() for s in seasons]), club.id])
    return get_club(db, club.id)


def remove_season(db: Database, club: Club, name: str) -> None:
    with immediate(db, lock=("clubs", club.id)):
        kept = [s.as_json() for s in get_club(db, club.id).seasons if s.name != name]
        db.execute("UPDATE clubs SET seasons = ? WHERE id = ?", [json.dumps(kept), club.id])


def club_of_table(db: Database, table_id: str) -> str | None:
    return db.value("SELECT club_id FROM club_tables WHERE table_id = ?", [table_id])


# ---------------------------------------------------------------------------------------------
# The roster


def roster(db: Database, club_id: str, with_merged: bool = False) -> list[Player]:
    rows = db.execute("SELECT id, name, former, merged_into FROM club_players WHERE club_id = ? ORDER BY name_key",
                      [club_id]).fetchall()
    players = [Player(r[0], r[1], bool(r[2]), r[3]) for r in rows]
    return players if with_merged else [p for p in players if p.merged_into is None]


def find_player(db: Database, club_id: str, name: str) -> Player | None:
    """The roster's player of this name (case and spaces ignored; a merged spelling finds whom it joined)."""
    row = db.execute("SELECT id, name, former, merged_into FROM club_players WHERE club_id = ? AND name_key = ?",
                     [club_id, name_key(name)]).fetchone()
    if row is None:
        return None
    if row[3] is not None:
        return player(db, club_id, row[3])
    return Player(row[0], row[1], bool(row[2]), None)


def player(db: Database, club_id: str, player_id: int) -> Player | None:
    if not 0 < player_id < 2**31:  # no roster id is out there; the database would refuse the number
        return None
    row = db.execute("SELECT id, name, former, merged_into FROM club_players WHERE club_id = ? AND id = ?",
                     [club_id, player_id]).fetchone()
    return None if row is None else Player(row[0], row[1], bool(row[2]), row[3])


def add_player(db: Database, club_id: str, name: str) -> Player:
    """Add a name to the roster (the caller holds the write transaction); the player already there if any."""
    found = find_player(db, club_id, name)
    if found is not None:
        return found
    count = db.value("SELECT COUNT(*) FROM club_players WHERE club_id = ?", [club_id])
    if count >= MAX_ROSTER:
        raise InputError([Problem("players", say("a club's roster holds at most {most} names; merge or remove some "
                                                 "before adding more", most=MAX_ROSTER))])
    new_id = count + 1  # ids are never reused: a merged or former player keeps their row
    db.execute("INSERT INTO club_players (club_id, id, name, name_key) VALUES (?, ?, ?, ?)",
               [club_id, new_id, kept_name(name), name_key(name)])
    return Player(new_id, kept_name(name), False, None)


def new_names(db: Database, club_id: str, names: Iterable[str]) -> list[str]:
    """The names not on the club's roster yet: they are added when the table starts."""
    return [n for n in names if find_player(db, club_id, n) is None]


def merge(db: Database, club: Club, keep: int, drop: int) -> None:
    """Two spellings of one person: ``drop``'s games become ``keep``'s, and the ratings of every game
    ``drop`` played are worked out again from their first game on. Their name still finds ``keep``."""
    with immediate(db, lock=("clubs", club.id)):
        kept, dropped = player(db, club.id, keep), player(db, club.id, drop)
        if kept is None or dropped is None or kept.merged_into is not None or dropped.merged_into is not None:
            raise InputError([Problem("merge", say("choose two players of the club's roster"))])
        if keep == drop:
            raise InputError([Problem("merge", say("choose two different players to merge"))])
        shared = db.value("SELECT t.title FROM club_places a JOIN club_places b ON a.table_id = b.table_id "
                          "JOIN tables t ON t.id = a.table_id WHERE a.club_id = ? AND a.player_id = ? "
                          "AND b.player_id = ?", [club.id, keep, drop])
        if shared is not None:
            raise InputError([Problem("merge", say("{kept} and {dropped} played at the same table ({table}): they are "
                                                   "two people; rename one instead", kept=kept.name,
                                                   dropped=dropped.name, table=shared))])
        firsts = db.execute("SELECT game, MIN(finish_order) FROM club_places WHERE club_id = ? AND player_id = ? "
                            "GROUP BY game", [club.id, drop]).fetchall()
        db.execute("UPDATE club_places SET player_id = ? WHERE club_id = ? AND player_id = ?", [keep, club.id, drop])
        db.execute("UPDATE club_players SET merged_into = ? WHERE club_id = ? AND (id = ? OR merged_into = ?)",
                   [keep, club.id, drop, drop])
        for game, first in firsts:
            replay(db, club.id, game, first)
        if firsts:
            note = {"merged": dropped.name, "into": kept.name, "at": tables.now()}
            db.execute("UPDATE clubs SET recomputed = ? WHERE id = ?", [json.dumps(note), club.id])


def rename(db: Database, club: Club, player_id: int, name: object) -> None:
    """Correct a name on the roster (to tell apart two people of one name, say); their games stay theirs."""
    wrong = name_problem(name, "a player's name")
    with immediate(db, lock=("clubs", club.id)):
        found = player(db, club.id, player_id)
        if found is None or found.merged_into is not None:
            raise InputError([Problem("player", say("there is no such player on the club's roster"))])
        other = None if wrong else find_player(db, club.id, str(name))
        if other is not None and other.id != player_id:
            wrong = say("{name} is already on the roster; merge the two if they are one person", name=other.name)
        if wrong:
            raise InputError([Problem("name", wrong)])
        db.execute("UPDATE club_players SET name = ?, name_key = ? WHERE club_id = ? AND id = ?",
                   [kept_name(str(name)), name_key(str(name)), club.id, player_id])


def set_former(db: Database, club: Club, player_id: int, former: bool = True) -> None:
    """Take a player off the roster's list (their results stay, under "former members"), or back."""
    with immediate(db, lock=("clubs", club.id)):
        db.execute("UPDATE club_players SET former = ? WHERE club_id = ? AND id = ?", [int(former), club.id, player_id])


# ---------------------------------------------------------------------------------------------
# The club's tables, and what a finished one gives


def create_table(db: Database, club: Club, game: str, players: Sequence[str], options: Mapping[str, Any],
                 title: str = "", rounds: Sequence[Any] = (), device: str = "", rematch_of: str | None = None,
                 joined: Mapping[str, int] | None = None) -> tables.Table:
    """:func:`tables.create_table` for a table that counts for the club: its players join the roster."""
    table = tables.new_table(game, players, options, title, rounds, rematch_of, joined)
    start_table(db, club, table, rounds, device, players, joined)
    return table


def start_table(db: Database, club: Club, table: tables.Table, rounds: Sequence[Any] = (), device: str = "",
                seats: Sequence[str] = (), joined: Mapping[str, int] | None = None) -> None:
    """Store a new table (made by :func:`tables.new_table`) that counts for the club, its players on the roster
    (:func:`tables.store_table`'s ``seats`` and ``joined`` as an import gives them)."""
    with immediate(db, lock=("clubs", club.id)):
        tables.store_table(db, table, rounds, device, seats, joined)
        for name in table.players:
            add_player(db, club.id, name)
        db.execute("INSERT INTO club_tables (table_id, club_id, game, added_at) VALUES (?, ?, ?, ?)",
                   [table.id, club.id, table.game, tables.now()])
        if rounds:
            record(db, table, tables.state_after(table, tuple(tables.events(db, table.id)), None).scored)


def add_table(db: Database, club: Club, table: tables.Table) -> None:
    """Count a table already started for the club (its edit link was given): its players join the roster,
    and if it is finished its places are rated now, after the club's other finished games."""
    with immediate(db, lock=("tables", table.id)):  # as a save locks: the table, then its club
        db.lock_row("clubs", club.id)
        held = club_of_table(db, table.id)
        if held == club.id:
            return
        if held is not None:
            raise InputError([Problem("table", say("this table already counts for another club"))])
        now = tables.state(db, table)
        for name in now.table.players:
            add_player(db, club.id, name)
        db.execute("INSERT INTO club_tables (table_id, club_id, game, added_at) VALUES (?, ?, ?, ?)",
                   [table.id, club.id, table.game, tables.now()])
        record(db, now.table, now.scored)


def club_of_tournament(db: Database, tournament_id: str) -> str | None:
    return db.value("SELECT club_id FROM club_tournaments WHERE tournament_id = ?", [tournament_id])


def add_tournament(db: Database, club: Club, tournament_id: str) -> None:
    """A tournament run for the club (the caller holds the write transaction): the tables it seats count."""
    db.execute("INSERT INTO club_tournaments (tournament_id, club_id) VALUES (?, ?)", [tournament_id, club.id])


def count_seated_tables(db: Database, tournament_id: str, seated: Sequence[tables.Table]) -> None:
    """The tables a tournament just seated (inside its transaction) count for its club, if it has one."""
    club_id = club_of_tournament(db, tournament_id)
    if club_id is None:
        return
    db.lock_row("clubs", club_id)
    for table in seated:
        for name in table.players:
            add_player(db, club_id, name)
        db.execute("INSERT INTO club_tables (table_id, club_id, game, added_at) VALUES (?, ?, ?, ?)",
                   [table.id, club_id, table.game, tables.now()])


def sides_of(scored: ScoredGame) -> list[ratings.Side]:
    """The places a finished game gives, a partnership as one side (AR-2; Royalty's coalitions)."""
    low_wins = (scored.game, scored.options.get("variant")) in LOW_WINS_VARIANTS
    if scored.sides and scored.side_totals is not None:
        sides = [tuple(m) for m in scored.sides.values()]
        totals = {m[0]: scored.side_totals[s] for s, m in zip(scored.sides, sides, strict=True)}
    else:
        sides = [(p,) for p in scored.players]
        totals = {p: scored.totals[p] for p in scored.players}
    return ratings.places(sides, totals, scored.winners, low_wins)


def record(db: Database, table: tables.Table, scored: ScoredGame) -> None:
    """After a change to a table (inside its write transaction): if it counts for a club, keep its places
    and ratings in step with it. A table still playing, or a change that leaves its places as they were,
    costs one lookup."""
    found = db.execute("SELECT club_id, game, finish_order FROM club_tables WHERE table_id = ?",
                       [table.id]).fetchone()
    if found is None:
        return
    club_id, game, order = found
    db.lock_row("clubs", club_id)  # one club's games are numbered and rated one at a time, on every server
    places = places_of(db, club_id, scored) if scored.over else None  # its places and best moments
    if places == _stored_places(db, table.id):
        return
    if order is None:  # a game finishing: the club's newest, rated on top of the ratings as they stand
        order = (db.value("SELECT MAX(finish_order) FROM club_tables WHERE club_id = ?", [club_id]) or 0) + 1
        db.execute("UPDATE club_tables SET finish_order = ?, finished_at = ? WHERE table_id = ?",
                   [order, tables.now(), table.id])
        insert_places(db, club_id, game, order, table.id, places)
        replay(db, club_id, game, order)
        return
    db.execute("DELETE FROM club_places WHERE table_id = ?", [table.id])
    if places is None:  # undone back to unfinished: it finishes again when it does
        db.execute("UPDATE club_tables SET finish_order = NULL, finished_at = NULL WHERE table_id = ?", [table.id])
    else:
        insert_places(db, club_id, game, order, table.id, places)
    replay(db, club_id, game, order)
    note = {"table": table.id, "title": table.title, "at": tables.now(), "finished": places is not None}
    db.execute("UPDATE clubs SET recomputed = ? WHERE id = ?", [json.dumps(note), club_id])


def _record_a_save(db: Database, table: tables.Table, scored: ScoredGame) -> None:
    """Every save of any table is told to the clubs (tables.saved): :func:`record` keeps the club's in step."""
    record(db, table, scored)


tables.saved.connect(_record_a_save, weak=False)


#: One player's row of a finished game: (player, side, place, won, total, moments as JSON).
PlaceRow = tuple[int, int, int, int, int, str]


def places_of(db: Database, club_id: str, scored: ScoredGame) -> list[PlaceRow]:
    """Each player's row of a finished game, the players on the roster."""
    best = moments.moments(scored)
    out = []
    for team, side in enumerate(sides_of(scored)):
        for name in side.players:
            out.append((add_player(db, club_id, name).id, team, side.place, int(side.won), side.total,
                        json.dumps(best.get(name, {}), sort_keys=True)))
    return sorted(out)


def _stored_places(db: Database, table_id: str) -> list[PlaceRow] | None:
    rows = db.execute("SELECT player_id, team, place, won, total, moments FROM club_places WHERE table_id = ?",
                      [table_id]).fetchall()
    return sorted(tuple(r) for r in rows) or None


def insert_places(db: Database, club_id: str, game: str, order: int, table_id: str,
                  places: Sequence[PlaceRow]) -> None:
    db.execute_many(
        "INSERT INTO club_places (club_id, game, finish_order, table_id, player_id, team, place, won, total, moments, "
        "mu, sigma) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(club_id, game, order, table_id, *p, ratings.START.mu, ratings.START.sigma) for p in places])


def ratings_before(db: Database, club_id: str, game: str, order: int,
                   players: Iterable[int]) -> dict[int, ratings.Rating]:
    """Each of ``players``' rating in ``game`` before the club's game numbered ``order`` (one indexed
    lookup each: a club of 10,000 games rates its newest in a few of them)."""
    out = {}
    for player_id in players:
        row = db.execute("SELECT mu, sigma FROM club_places WHERE club_id = ? AND player_id = ? AND game = ? "
                         "AND finish_order < ? ORDER BY finish_order DESC LIMIT 1",
                         [club_id, player_id, game, order]).fetchone()
        if row is not None:
            out[player_id] = ratings.Rating(row[0], row[1])
    return out


def replay(db: Database, club_id: str, game: str, order: int) -> None:
    """Rate the club's games of ``game`` again, in finishing order, from the game numbered ``order`` on."""
    rows = db.execute("SELECT finish_order, player_id, team, place FROM club_places "
                      "WHERE club_id = ? AND game = ? AND finish_order >= ? ORDER BY finish_order, team, player_id",
                      [club_id, game, order]).fetchall()
    current = ratings_before(db, club_id, game, order, {r[1] for r in rows})
    updates = []
    for number, players in _by_game(rows):
        teams: dict[int, list[tuple[int, int]]] = {}
        for player_id, team, place in players:
            teams.setdefault(team, []).append((player_id, place))
        sides = list(teams.values())
        after = ratings.rate([[current.get(p, ratings.START) for p, _ in side] for side in sides],
                             [side[0][1] for side in sides])
        for side, rated in zip(sides, after, strict=True):
            for (player_id, _), rating in zip(side, rated, strict=True):
                current[player_id] = rating
                updates.append((rating.mu, rating.sigma, club_id, game, number, player_id))
    db.execute_many("UPDATE club_places SET mu = ?, sigma = ? "
                    "WHERE club_id = ? AND game = ? AND finish_order = ? AND player_id = ?", updates)


def _by_game(rows: Sequence[tuple[int, int, int, int]]) -> list[tuple[int, list[tuple[int, int, int]]]]:
    out: list[tuple[int, list[tuple[int, int, int]]]] = []
    for number, player_id, team, place in rows:
        if not out or out[-1][0] != number:
            out.append((number, []))
        out[-1][1].append((player_id, team, place))
    return out


# ---------------------------------------------------------------------------------------------
# What the club's pages and the API show


@dataclass(frozen=True)
class Line:
    """A player's line in a leaderboard for one game."""

    player_id: int
    name: str
    played: int
    won: int
    average_place: float
    rating: ratings.Rating
    former: bool

    @property
    def provisional(self) -> bool:
        return self.played < ratings.PROVISIONAL_GAMES

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


def leaderboard(db: Database, club_id: str, game: str, player_id: int | None = None,
                season: Season | None = None) -> list[Line]:
    """Each player's games of ``game`` for the club (in the season, when given: the rating as it stood at
    its end), best rated first."""
    where, params = "p.club_id = ? AND p.game = ?", [club_id, game]
    if player_id is not None:
        where += " AND p.player_id = ?"
        params.append(player_id)
    join = ""
    if season is not None:  # the season's games: only then is each place's finishing time needed
        join = " JOIN club_tables t ON t.table_id = p.table_id"
        where += " AND t.finished_at >= ? AND t.finished_at < ?"
        params += [season.since, season.until]
    rows = db.execute(
        "SELECT a.player_id, c.name, a.played, a.won, a.places, r.mu, r.sigma, c.former FROM ("  # noqa: S608
        " SELECT p.player_id, COUNT(*) AS played, SUM(p.won) AS won, SUM(p.place) AS places,"
        f" MAX(p.finish_order) AS last FROM club_places p{join}"
        f" WHERE {where} GROUP BY p.player_id) a"
        " JOIN club_places r ON r.club_id = ? AND r.game = ? AND r.finish_order = a.last AND r.player_id = a.player_id"
        " JOIN club_players c ON c.club_id = ? AND c.id = a.player_id",
        [*params, club_id, game, club_id]).fetchall()
    lines = [Line(r[0], r[1], r[2], r[3], r[4] / r[2], ratings.Rating(r[5], r[6]), bool(r[7])) for r in rows]
    return sorted(lines, key=lambda line: (-line.rating.ordinal, line.name.casefold()))


def games_played(db: Database, club_id: str, player_id: int | None = None,
                 season: Season | None = None) -> list[str]:
    """The games the club (or one player) has finished (in the season, when given), most played first."""
    if player_id is not None:
        rows = db.execute("SELECT game, COUNT(*) FROM club_places WHERE club_id = ? AND player_id = ? GROUP BY game",
                          [club_id, player_id]).fetchall()
    elif season is not None:
        rows = db.execute("SELECT game, COUNT(*) FROM club_tables WHERE club_id = ? AND finished_at >= ? "
                          "AND finished_at < ? GROUP BY game", [club_id, season.since, season.until]).fetchall()
    else:
        rows = db.execute("SELECT game, COUNT(*) FROM club_tables WHERE club_id = ? AND finish_order IS NOT NULL "
                          "GROUP BY game", [club_id]).fetchall()
    return [g for g, _ in sorted(rows, key=lambda r: (-r[1], r[0]))]


@dataclass(frozen=True)
class ClubTable:
    id: str
    game: str
    title: str
    players: tuple[str, ...]
    added_at: str
    finished_at: str | None


def club_tables(db: Database, club_id: str, limit: int = 20, player_id: int | None = None) -> list[ClubTable]:
    """The club's tables: those still playing, newest first, then the finished ones, the last to finish
    first (a player's: the tables they finished)."""
    columns = "t.id, t.game, t.title, t.players, c.added_at, c.finished_at"
    if player_id is not None:
        rows = db.execute(
            f"SELECT {columns} FROM club_places p JOIN club_tables c ON c.table_id = p.table_id"  # noqa: S608
            " JOIN tables t ON t.id = c.table_id WHERE p.club_id = ? AND p.player_id = ?"
            " ORDER BY p.finish_order DESC LIMIT ?", [club_id, player_id, limit]).fetchall()
    else:
        rows = db.execute(
            f"SELECT {columns} FROM club_tables c JOIN tables t ON t.id = c.table_id"  # noqa: S608
            " WHERE c.club_id = ? AND c.finish_order IS NULL ORDER BY c.added_at DESC, t.id LIMIT ?",
            [club_id, limit]).fetchall()
        rows += db.execute(
            f"SELECT {columns} FROM club_tables c JOIN tables t ON t.id = c.table_id"  # noqa: S608
            " WHERE c.club_id = ? AND c.finish_order IS NOT NULL ORDER BY c.finish_order DESC LIMIT ?",
            [club_id, max(0, limit - len(rows))]).fetchall()
    return [ClubTable(r[0], r[1], r[2], tuple(json.loads(r[3])), r[4], r[5]) for r in rows]


@dataclass(frozen=True)
class Meeting:
    """One opponent in a player's head-to-head, in one game."""

    opponent_id: int
    name: str
    game: str
    together: int
    higher: int
    lower: int
    rating_difference: float


def head_to_head(db: Database, club_id: str, player_id: int) -> list[Meeting]:
    """Against each player met at a finished table: games together, who placed higher, and the
    difference of their ratings now (this player's ordinal minus theirs)."""
    rows = db.execute(
        "SELECT o.player_id, c.name, me.game, COUNT(*), SUM(me.place < o.place), SUM(me.place > o.place)"
        " FROM club_places me JOIN club_places o ON o.table_id = me.table_id AND o.player_id != me.player_id"
        " JOIN club_players c ON c.club_id = me.club_id AND c.id = o.player_id"
        " WHERE me.club_id = ? AND me.player_id = ? GROUP BY o.player_id, c.name, me.game",
        [club_id, player_id]).fetchall()
    now = {}
    for game in {r[2] for r in rows}:  # each one's rating now: the latest of their places, one lookup each
        met = {r[0] for r in rows if r[2] == game} | {player_id}
        now.update({(p, game): rating.ordinal for p, rating in ratings_before(db, club_id, game, 2**62, met).items()})
    meetings = [Meeting(r[0], r[1], r[2], r[3], r[4] or 0, r[5] or 0,
                        now[(player_id, r[2])] - now[(r[0], r[2])]) for r in rows]
    return sorted(meetings, key=lambda m: (-m.together, m.name.casefold(), m.game))


def history(db: Database, club_id: str, player_id: int, game: str) -> list[ratings.Rating]:
    """A player's rating after each of their finished games of ``game``, oldest first."""
    rows = db.execute("SELECT mu, sigma FROM club_places WHERE club_id = ? AND player_id = ? AND game = ? "
                      "ORDER BY finish_order", [club_id, player_id, game]).fetchall()
    return [ratings.Rating(mu, sigma) for mu, sigma in rows]


def as_json(db: Database, club: Club) -> dict[str, Any]:
    """The club as the API shows it (API.md, Clubs)."""
    games = games_played(db, club.id)
    boards = {game: {line.player_id: line for line in leaderboard(db, club.id, game)} for game in games}
    players = []
    for p in roster(db, club.id):
        played = {game: boards[game][p.id] for game in games if p.id in boards[game]}
        players.append({"name": p.name, **({"former": True} if p.former else {}), "games": {
            game: {"played": line.played, "won": line.won, "rating": line.rating.as_json()}
            for game, line in played.items()}})
    return {"id": club.id, "name": club.name, "players": players,
            "tables": [{"id": t.id, "game": t.game, "title": t.title, "players": list(t.players),
                        "finished": t.finished_at is not None, "finished_at": t.finished_at}
                       for t in club_tables(db, club.id, limit=200)]}



@dataclass(frozen=True)
class Moment:
    kind: str
    value: Any
    game: str
    table_id: str
    title: str

    @property
    def words(self) -> str:
        return moments.KINDS[self.kind][0]


def best_moments(db: Database, club_id: str, player_id: int) -> list[Moment]:
    """A player's best moment of each kind over all their finished games (the first, on a tie)."""
    best: dict[str, Moment] = {}
    for game, table_id, title, kept in db.execute(
            "SELECT p.game, p.table_id, t.title, p.moments FROM club_places p JOIN tables t ON t.id = p.table_id "
            "WHERE p.club_id = ? AND p.player_id = ? AND p.moments != '{}' ORDER BY p.finish_order",
            [club_id, player_id]):
        for kind, value in json.loads(kept).items():
            if kind in moments.KINDS and moments.better(kind, value, best[kind].value if kind in best else None):
                best[kind] = Moment(kind, value, game, table_id, title)
    return [best[k] for k in moments.KINDS if k in best]
