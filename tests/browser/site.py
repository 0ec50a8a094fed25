"""A whole site to look at: a table of every game with rounds played (from the case books, games
worked by hand), a finished table, a rematch, a tournament with a round seated, and the address of
every kind of page, for the checks that go over every page (axe-core, text sizes)."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion import create_app
from companion.clubs import store as club_store
from companion.entry import ENTRY
from companion.storage import tables
from companion.storage.db import get_db
from companion.tournaments import store as tournament_store
from tests import casebook
from tests.finished_games import finished
from tests.live import served

#: Each game's case book, and the key its rounds go under.
BOOKS = {"alliance-royals": ("alliance_royals.toml", "rounds"), "battle-royals": ("battle_royals.toml", "rounds"),
         "marriage-royals": ("marriage_royals.toml", "rounds"), "indian-rummy": ("indian_rummy.toml", "rounds"),
         "rally-the-king": ("rally_the_king.toml", "rounds"), "royalty": ("royalty.toml", "rounds"),
         "rummathon-royale": ("rummathon_royale.toml", "hands"), "rummy-royal": ("rummy_royal.toml", "deals")}


def _players(case: dict[str, Any], key: str) -> list[str]:
    """A case's players: listed, or (Battle and Marriage Royals) the players of its first round."""
    return case.get("players") or list(case[key][0]["players"])


def game_in_play(slug: str) -> dict[str, Any]:
    """The case of ``slug``'s book with the most rounds (then players) as an import, stopped a round
    before its end when it ends, so that the next round can be entered."""
    book, key = BOOKS[slug]
    cases = [c for c in casebook.load(book)["case"]
             if not casebook.ERROR_KEYS & set(c) and c.get(key)]
    case = max(cases, key=lambda c: (len(c[key]) - (c.get("over") is True), len(_players(c, key))))
    rounds = case[key][:-1] if case.get("over") is True else case[key]
    return {"players": _players(case, key), "options": case.get("options", {}), "rounds": rounds,
            "joined": case.get("joined")}


def _table_pages(label: str, table, slot_count: int, over: bool) -> list[tuple[str, str]]:
    edit = f"?key={table.edit_key}"
    base = f"/t/{table.id}"
    pages = [(f"{label}: score pad (edit link)", base + edit), (f"{label}: score pad (view link)", base),
             (f"{label}: history", base + "/history" + edit), (f"{label}: players", base + "/players" + edit),
             (f"{label}: why of round 1", base + "/hands/1/why")]
    if not over:
        pages.append((f"{label}: entry form", base + "/hands/new" + edit))
    pages.append((f"{label}: correcting round {slot_count}", f"{base}/hands/{slot_count}/edit{edit}"))
    return pages


def build(app) -> list[tuple[str, str]]:
    """Fill ``app``'s database and answer (what, address) for every kind of page."""
    pages = [("home", "/"), ("import", "/import"), ("referee questions", "/referee/"),
             ("new tournament", "/tournaments/new"), ("no such page (404)", "/no-such-page"),
             ("no such table (404)", "/t/nosuchtable")]
    with app.app_context():
        db = get_db()
        for slug in BOOKS:
            game = game_in_play(slug)
            table = tables.create_table(db, slug, game["players"], game["options"], rounds=game["rounds"],
                                        joined=game["joined"])
            pages += [(f"{slug}: new table", f"/new/{slug}"), (f"{slug}: rules", f"/rules/{slug}")]
            pages += [(f"{slug}: referee, {q}", f"/referee/{slug}/{q}") for q in getattr(ENTRY[slug], "REFEREE", {})]
            pages += _table_pages(slug, table, len(game["rounds"]), over=False)
        done = finished("alliance-royals")
        over = tables.create_table(db, "alliance-royals", done["players"], done["options"], rounds=done["rounds"])
        pages += _table_pages("alliance-royals finished", over, len(done["rounds"]), over=True)
        again = tables.create_table(db, **tables.rematch(over))
        pages.append(("a rematch (linking back)", f"/t/{again.id}?key={again.edit_key}"))
        pages.append(("view link refused a write (403)", f"/t/{again.id}/hands/new"))
        pages += _tournament_pages(db)
        # Six at the table, two with long names: every row of choices is as full as it gets (RR-3: a Burden
        # row per player, each naming the five others).
        six = tables.create_table(db, "rummathon-royale",
                                  ["Bartholomew", "Maximiliana", "Ann", "Ben", "Cat", "Dan"], {})
        pages.append(("rummathon-royale, six with long names: entry form", f"/t/{six.id}/hands/new?key={six.edit_key}"))
        pages += _club_pages(db)
    return pages


def _tournament_pages(db) -> list[tuple[str, str]]:
    """A tournament before its first seating, and one whose round 1 was seated, a hand played at its first
    table, and time called: its tables count as they stand (the standings mark them †), and the table
    and its entry form say that time was called."""
    entrants = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    fresh = tournament_store.create(db, "indian-rummy", "Friday club", entrants, {}, "round-robin", 3, 3)
    called = tournament_store.create(db, "indian-rummy", "Saturday club", entrants, {}, "round-robin", 3, 3)
    first = tournament_store.seat_next_round(db, called, seed=1)[0]
    table = tables.get_table(db, first.table_id)
    tables.append(db, table, 0, tables.Change("add", data={  # IR-8: Ben 20 and Cat 34 pay the winner
        "wild": "7", "winner": table.players[0],
        "hands": {table.players[1]: {"count": 20}, table.players[2]: {"count": 34}}}))
    tournament_store.call_time(db, called, 1)
    director, edit = f"?key={called.director_key}", f"?key={table.edit_key}"
    return [("tournament: director", f"/tournaments/{fresh.id}?key={fresh.director_key}"),
            ("tournament: standings", f"/tournaments/{fresh.id}"),
            ("tournament: director, time called", f"/tournaments/{called.id}{director}"),
            ("tournament: standings, time called", f"/tournaments/{called.id}"),
            ("tournament: a round's pack", f"/tournaments/{called.id}/rounds/1/pack{director}"),
            ("tournament: adjusting a table", f"/tournaments/{called.id}/tables/{table.id}/adjust{director}"),
            ("tournament table, time called: score pad (edit link)", f"/t/{table.id}{edit}"),
            ("tournament table, time called: entry form", f"/t/{table.id}/hands/new{edit}")]


def _club_pages(db) -> list[tuple[str, str]]:
    """A club that played the season of tests/cases/club_season.toml, and its pages."""
    season = tomllib.loads((Path(__file__).parents[1] / "cases" / "club_season.toml").read_text())
    club = club_store.create_club(db, "Thursday Club")
    for case in season["game"]:
        table = tables.new_table(case["game"], case["players"], case["options"])
        club_store.start_table(db, club, table, rounds=case["rounds"])
    base, member = f"/clubs/{club.id}", f"?key={club.member_key}"
    return [("new club", "/clubs/new"), ("club: club director", f"{base}?key={club.director_key}"),
            ("club: members", base + member), ("club: player", f"{base}/players/1{member}"),
            ("club: new table for the club", f"/new/indian-rummy?club={club.id}&key={club.member_key}"),
            ("club: wrong key (403)", f"{base}?key=wrong")]


@contextmanager
def serving(tmp_path) -> Iterator[tuple[str, list[tuple[str, str]], Any]]:
    """The app served on a free loopback port with a filled database: (base URL, pages, app)."""
    app = create_app({"DATABASE": str(tmp_path / "site.sqlite"), "SECRET_KEY": "site-secret",
                      "RATELIMIT_ENABLED": False})
    pages = build(app)
    with served(app) as base:
        yield base, pages, app
