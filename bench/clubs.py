"""A big club's pages and its ratings: 200 players, 10,000 finished games.

    .venv/bin/python bench/clubs.py

Targets: the club page and a player page each render in under 200 ms; a finished game updates the
ratings in under 20 ms (timed as the save that finishes it, against the same save on a table that
counts for no club).
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from words import median_time  # bench/words.py, beside this file

from companion import create_app
from companion.clubs import store
from companion.storage import tables
from companion.storage.db import get_db, immediate

PLAYERS = 200
GAMES = 10_000
PAGE_BUDGET = 0.200
RATING_BUDGET = 0.020
#: Times each figure is measured; the median is printed.
RUNS = 7


def deal(players: list[str], rng: random.Random) -> dict:
    """One deal of deals rummy (IR-10): the first player declares, the others pay a count."""
    return {"winner": players[0], "hands": {p: {"count": rng.randrange(2, 80)} for p in players[1:]}}


def fill(app, rng: random.Random) -> store.Club:
    """The club's 10,000 games, written as the saves that finished them would write them, rated once."""
    names = [f"Player {n:03d}" for n in range(PLAYERS)]
    with app.app_context():
        db = get_db()
        club = store.create_club(db, "Big Club")
        with immediate(db):
            for order in range(1, GAMES + 1):
                seated = rng.sample(names, rng.choice((2, 3, 4)))
                table = tables.new_table("indian-rummy", seated, {"variant": "deals", "deals": 1})
                tables.store_table(db, table, [deal(seated, rng)])
                db.execute("INSERT INTO club_tables (table_id, club_id, game, added_at, finish_order, finished_at) "
                           "VALUES (?, ?, ?, ?, ?, ?)", [table.id, club.id, table.game, tables.now(), order,
                                                         tables.now()])
                scored = tables.state_after(table, tuple(tables.events(db, table.id)), None).scored
                store.insert_places(db, club.id, table.game, order, table.id, store.places_of(db, club.id, scored))
            store.replay(db, club.id, "indian-rummy", 1)
        return club


def finishing_save(app, club: store.Club | None, rng: random.Random) -> float:
    """The save of the deal that finishes a two-player table (of the club, or of no club)."""
    runs = []
    for _ in range(RUNS):
        with app.app_context():
            db = get_db()
            seated = [f"Player {n:03d}" for n in rng.sample(range(PLAYERS), 3)]
            table = tables.new_table("indian-rummy", seated, {"variant": "deals", "deals": 1})
            if club is None:
                with immediate(db):
                    tables.store_table(db, table)
            else:
                store.start_table(db, club, table)
            start = time.perf_counter()
            tables.append(db, table, 0, tables.Change("add", data=deal(seated, rng)))
            runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main() -> None:
    rng = random.Random(29)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "club.sqlite"), "RATELIMIT_ENABLED": False})
        start = time.perf_counter()
        club = fill(app, rng)
        print(f"club of {PLAYERS} players and {GAMES:,} finished games built in {time.perf_counter() - start:.0f} s")
        client = app.test_client()
        member = f"key={club.member_key}"
        page = median_time(lambda: client.get(f"/clubs/{club.id}?{member}"), RUNS)
        player = median_time(lambda: client.get(f"/clubs/{club.id}/players/1?{member}"), RUNS)
        api = median_time(lambda: client.get(f"/api/v1/clubs/{club.id}",
                                              headers={"Authorization": f"Bearer {club.member_key}"}), RUNS)
        for what, took in (("club page", page), ("player page", player), ("club over the API", api)):
            verdict = "within" if took < PAGE_BUDGET else "OVER"
            print(f"{what}: {took * 1e3:.1f} ms, {verdict} its {PAGE_BUDGET * 1e3:.0f} ms budget")
        for what, url in (("the record as JSON", f"/clubs/{club.id}/export.json?{member}"),
                          ("the record as CSV", f"/clubs/{club.id}/export.csv?{member}")):
            start = time.perf_counter()
            size = len(client.get(url).data)
            print(f"{what}: {time.perf_counter() - start:.2f} s for {size / 1e6:.1f} MB (in the bounded pool)")
        plain, counted = finishing_save(app, None, rng), finishing_save(app, club, rng)
        extra = counted - plain
        verdict = "within" if extra < RATING_BUDGET else "OVER"
        print(f"the save that finishes a game: {plain * 1e3:.1f} ms for no club, {counted * 1e3:.1f} ms for the club: "
              f"the ratings' update {extra * 1e3:.1f} ms, {verdict} its {RATING_BUDGET * 1e3:.0f} ms budget")


if __name__ == "__main__":
    main()
