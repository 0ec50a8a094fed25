"""A club's record out of Courtier and into another: JSON that restores the club exactly (its roster,
seasons, every table with its rounds, and each finished game's places in the order the games
finished), and CSV for a spreadsheet (one row per player per finished game).

An import checks everything before it writes anything: every problem is named at once, where it is,
in words; nothing stored can break a page later.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import Any

from .. import games
from ..core import limits
from ..core.messages import say
from ..core.wording import spreadsheet_text
from ..entry import ENTRY
from ..games.base import InputError, Problems
from ..storage import tables
from ..storage.db import Database, immediate
from . import moments, store

#: The kind and version an export says it is, so an import knows what it reads.
FORMAT = "courtier club"
VERSION = 1
#: The most tables an import takes: a long-lived club's record, and a bound on one request's work.
MAX_TABLES = 5000


def export(db: Database, club: store.Club) -> dict[str, Any]:
    """The club's whole record: finished tables in the order they finished, then those still playing."""
    roster = store.roster(db, club.id, with_merged=True)
    names = {p.id: p.name for p in roster}
    rows = db.execute("SELECT table_id, finish_order, finished_at FROM club_tables WHERE club_id = ? "
                      "ORDER BY finish_order IS NULL, finish_order, added_at, table_id", [club.id]).fetchall()
    out_tables = []
    for table_id, order, finished_at in rows:  # each table's rounds as its log holds them: nothing scored
        now, hands = tables.seating(tables.get_table(db, table_id), tables.events(db, table_id))
        entry = tables.request_for(now, [data for _, data in hands])
        entry["title"] = now.title
        if order is not None:
            entry["finished_at"] = finished_at
            entry["places"] = [
                {"player": names[p], "side": team, "place": place, "won": bool(won), "total": total,
                 "moments": json.loads(best)}
                for p, team, place, won, total, best in db.execute(
                    "SELECT player_id, team, place, won, total, moments FROM club_places WHERE table_id = ? "
                    "ORDER BY team, player_id", [table_id])]
        out_tables.append(entry)
    return {
        "format": FORMAT, "version": VERSION, "name": club.name,
        "seasons": [s.as_json() for s in club.seasons],
        "players": [{"name": p.name, "former": p.former,
                     "spellings": [q.name for q in roster if q.merged_into == p.id]}
                    for p in roster if p.merged_into is None],
        "tables": out_tables,
    }


def export_csv(db: Database, club: store.Club) -> str:
    """One row per player per finished game, oldest first, with the rating after it."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["finished_at", "game", "table", "title", "player", "side", "place", "won", "total",
                     "rating_mu", "rating_sigma", "rating_ordinal"])
    for row in db.execute(
            "SELECT t.finished_at, p.game, p.table_id, tb.title, c.name, p.team, p.place, p.won, p.total, p.mu, "
            "p.sigma FROM club_places p JOIN club_tables t ON t.table_id = p.table_id "
            "JOIN tables tb ON tb.id = p.table_id JOIN club_players c ON c.club_id = p.club_id AND c.id = p.player_id "
            "WHERE p.club_id = ? ORDER BY p.finish_order, p.team, p.player_id", [club.id]):
        finished_at, game, table_id, title, name, side, place, won, total, mu, sigma = row
        writer.writerow([finished_at, game, table_id, spreadsheet_text(title), spreadsheet_text(name), side + 1,
                         place, int(won), total, round(mu, 6), round(sigma, 6), round(mu - 3 * sigma, 6)])
    return out.getvalue()


# ---------------------------------------------------------------------------------------------
# Import


def import_club(db: Database, body: object) -> store.Club:
    """A new club (new keys) holding the record of an export; InputError naming every problem, and
    nothing written, when the record will not do. Its texts are composed (NFC) first, as every body is."""
    found = Problems()
    record = _check(limits.composed(body), found)
    found.raise_if_any()
    with immediate(db):  # all of it or nothing
        club = store.insert_club(db, record["name"])
        ids = _roster(db, club, record["players"])
        seasons = [{"name": store.kept_name(s["name"]), "from": s["from"], "to": s["to"]} for s in record["seasons"]]
        db.execute("UPDATE clubs SET seasons = ? WHERE id = ?", [json.dumps(seasons), club.id])
        order = 0
        for entry in record["tables"]:
            table = tables.new_table(entry["game"], entry["players"], _or_none(entry.get("options"), {}),
                                     _or_none(entry.get("title"), ""), entry.get("rounds", []),
                                     joined=entry.get("joined"))
            tables.store_table(db, table, entry.get("rounds", []), "import", entry["players"], entry.get("joined"))
            finished = entry.get("finished_at")
            if finished is not None:
                order += 1
            db.execute("INSERT INTO club_tables (table_id, club_id, game, added_at, finish_order, finished_at) "
                       "VALUES (?, ?, ?, ?, ?, ?)", [table.id, club.id, table.game, tables.now(),
                                                     order if finished else None, finished])
            if finished is not None:
                store.insert_places(db, club.id, table.game, order, table.id, [
                    (ids[store.name_key(p["player"])], p["side"], p["place"], int(p["won"]), p["total"],
                     json.dumps(p.get("moments") or {}, sort_keys=True))
                    for p in entry["places"]])
        for game in {e["game"] for e in record["tables"] if e.get("finished_at") is not None}:
            store.replay(db, club.id, game, 1)
    return store.get_club(db, club.id)


def _roster(db: Database, club: store.Club, players: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """The roster as exported: each player (former ones marked) and the spellings merged into them."""
    ids: dict[str, int] = {}
    for p in players:
        added = store.add_player(db, club.id, p["name"])
        ids[store.name_key(p["name"])] = added.id
        if p.get("former") is True:
            db.execute("UPDATE club_players SET former = 1 WHERE club_id = ? AND id = ?", [club.id, added.id])
    for p in players:
        for spelling in _or_none(p.get("spellings"), []):
            alias = store.add_player(db, club.id, spelling)
            db.execute("UPDATE club_players SET merged_into = ? WHERE club_id = ? AND id = ?",
                       [ids[store.name_key(p["name"])], club.id, alias.id])
    return ids


def _or_none(value: Any, default: Any) -> Any:
    """``value``, or ``default`` for a field left out or null: never for 0, false or "", which are refused."""
    return default if value is None else value


def _check(body: object, found: Problems) -> dict[str, Any]:
    if not isinstance(body, dict) or body.get("format") != FORMAT:
        found.add("$", say("this is not a club's record: export one from a club's page (JSON) and import that file"))
        return {}
    if body.get("version") != VERSION:
        found.add("version", say("this record is of version {given}; this Courtier reads version {version}",
                                 given=repr(body.get("version")), version=VERSION))
    wrong = store.name_problem(body.get("name"))
    if wrong:
        found.add("name", wrong)
    seasons = body.get("seasons", [])
    if not isinstance(seasons, list) or len(seasons) > store.MAX_SEASONS:
        found.add("seasons", f"seasons is a list of at most {store.MAX_SEASONS}")
        seasons = []
    taken: list[str] = []
    for i, s in enumerate(seasons):
        s = s if isinstance(s, dict) else {}
        for problem in store.season_problems(s.get("name"), s.get("from"), s.get("to"), taken):
            found.add(f"seasons[{i}].{problem.where.removeprefix('season_')}", problem.message)
        taken.append(str(s.get("name")))
    keys = _check_players(body.get("players"), found)
    records = body.get("tables")
    if not isinstance(records, list) or len(records) > MAX_TABLES:
        found.add("tables", f"tables is a list of at most {MAX_TABLES}")
        records = []
    for i, entry in enumerate(records):
        _check_table(entry, f"tables[{i}]", keys, found)
    return body


def _check_players(players: object, found: Problems) -> set[str]:
    if not isinstance(players, list) or len(players) > store.MAX_ROSTER:
        found.add("players", f"players is a list of at most {store.MAX_ROSTER}")
        return set()
    keys: set[str] = set()
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            found.add(f"players[{i}]", 'each player is an object: {"name": "Ann"}')
            continue
        if p.get("former") is not None and not isinstance(p["former"], bool):
            found.add(f"players[{i}].former", "former is true or false, as an export writes it")
        spellings = _or_none(p.get("spellings"), [])
        if not isinstance(spellings, list):
            found.add(f"players[{i}].spellings", "a player's other spellings are a list of names, as an export "
                                                 "writes them")
            spellings = []
        for where, name in [("name", p.get("name")), *((f"spellings[{k}]", s) for k, s in enumerate(spellings))]:
            wrong = store.name_problem(name, "a player's name")
            if not wrong and store.name_key(name) in keys:
                wrong = f"{name} is on the roster twice"
            if wrong:
                found.add(f"players[{i}].{where}", wrong)
            else:
                keys.add(store.name_key(name))
    return {store.name_key(p["name"]) for p in players if isinstance(p, dict) and isinstance(p.get("name"), str)}


def _check_table(entry: object, at: str, keys: set[str], found: Problems) -> None:
    if not isinstance(entry, dict) or entry.get("game") not in ENTRY:
        found.add(f"{at}.game", say("each table names a game Courtier plays, as a table's export does"))
        return
    seats = Problems()  # the new-table form's own checks of the names and the title
    tables.check_new_table(entry["game"], entry.get("players"), _or_none(entry.get("title"), ""), seats)
    for problem in seats:
        found.add(f"{at}.{problem.where}", problem.message)
    if seats:
        return
    try:
        scored = games.score({k: entry[k] for k in ("game", "players", "options", "rounds", "joined") if k in entry})
    except InputError as err:
        for problem in err.problems[:5]:
            found.add(f"{at}.{problem.where}", problem.message)
        return
    if entry.get("finished_at") is None:
        return
    if not isinstance(entry["finished_at"], str) or len(entry["finished_at"]) > 40 \
            or limits.has_control(entry["finished_at"]):
        found.add(f"{at}.finished_at", "give when the table finished as an export writes it")
    if not scored.over:
        found.add(f"{at}.finished_at", say("this table's rounds do not finish its game"))
    _check_places(entry.get("places"), f"{at}.places", keys, found)


def _check_places(places: object, at: str, keys: set[str], found: Problems) -> None:
    if not isinstance(places, list) or not 1 <= len(places) <= 20:
        found.add(at, say("a finished table lists each player's place"))
        return
    seen = set()
    for k, p in enumerate(places):
        ok = isinstance(p, dict) and isinstance(p.get("player"), str) and all(
            isinstance(p.get(f), int) and not isinstance(p.get(f), bool) for f in ("side", "place", "total")) \
            and isinstance(p.get("won"), bool) and 0 <= p["side"] < 20 and 1 <= p["place"] <= 20 \
            and abs(p["total"]) < 10**9
        if not ok:
            found.add(f"{at}[{k}]", 'each place is {"player", "side", "place", "won", "total"}, as an export '
                                    "writes it")
        elif not _moments_ok(p.get("moments", {})):
            found.add(f"{at}[{k}].moments", "moments are the best of a game, as an export writes them")
        elif store.name_key(p["player"]) not in keys:
            found.add(f"{at}[{k}].player", say("{name} is not in the record's players", name=p["player"]))
        elif store.name_key(p["player"]) in seen:
            found.add(f"{at}[{k}].player", say("{name} is placed twice at this table", name=p["player"]))
        else:
            seen.add(store.name_key(p["player"]))



def _moments_ok(kept: object) -> bool:
    """A player's best moments as an export writes them: known kinds, a number or (a word) one short line."""
    if not isinstance(kept, dict):
        return False
    for kind, value in kept.items():
        if kind not in moments.KINDS:
            return False
        if kind == "word":
            if not isinstance(value, str) or not 0 < len(value) <= 40 or limits.has_control(value):
                return False
        elif not isinstance(value, int) or isinstance(value, bool) or abs(value) >= 10**9:
            return False
    return True
