"""What one hand of the stress evening costs Courtier, request by request, in CPU time.

    .venv/bin/python bench/evening_parts.py --tables 300 --stand-in-ms 0.54

The requests of `make load`'s stress evening (Rummathon Royale, four players a table, a hand every
~10 s, every phone polling the board every 2 s) replayed in one process through Flask's test client,
so that no HTTP server's work is in them: the new hand's form page, the save, the table page after
it, each phone's first poll after the change, and a poll with nothing new. From these, the cores
Courtier's own work takes at ``--tables`` tables, and what a hand's requests could cost at most for
the servers' CPU a request to stay within 1.5x the stand-in's (bench/side_by_side.py measures the
stand-in's, which does none of Courtier's work, behind the same gunicorn).
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import tempfile
import time

from companion import create_app

PLAYERS = ("Ann", "Ben", "Cat", "Dan")
HAND_EVERY, POLL_EVERY = 10.0, 2.0  # bench/load.py's stress evening
KINDS = ("the form page", "the save", "the table page after it", "a poll after the change", "a poll, nothing new")


def replay(folder: str, tables: int, hands: int) -> dict[str, list[float]]:
    """``hands`` hands at each of ``tables`` tables, each request's CPU seconds by kind."""
    app = create_app({"DATABASE": f"{folder}/evening.sqlite", "SECRET_KEY": "bench",
                      "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False})
    client = app.test_client()
    rng = random.Random(1)
    cost: dict[str, list[float]] = {kind: [] for kind in KINDS}

    def timed(kind: str, method: str, path: str, **sent):
        started = time.process_time()
        response = client.open(path, method=method, **sent)
        cost[kind].append(time.process_time() - started)
        return response

    made = [client.post("/new/rummathon-royale", data={f"seat{i + 1}": p for i, p in enumerate(PLAYERS)})
            for _ in range(tables)]
    addresses = [response.headers["Location"].split("?key=") for response in made]
    etags = ["none"] * tables
    for hand in range(hands):
        for t, (url, key) in enumerate(addresses):
            page = timed(KINDS[0], "GET", f"{url}/hands/new?key={key}")
            base = re.search(r'name="base_version"[^>]*value="(\d+)"', page.get_data(as_text=True)).group(1)
            out = PLAYERS[hand % len(PLAYERS)]
            fields = {"base_version": base, "out": out, "note": "phone 1"}
            for seat, player in enumerate(PLAYERS):
                if player != out:
                    fields[f"p{seat}_low"], fields[f"p{seat}_high"] = str(rng.randint(0, 6)), str(rng.randint(0, 2))
            saved = timed(KINDS[1], "POST", f"{url}/hands?key={key}", data=fields)
            assert saved.status_code == 303, saved.status_code
            timed(KINDS[2], "GET", saved.headers["Location"])
            for _phone in PLAYERS:
                board = timed(KINDS[3], "GET", f"{url}/board", headers={"If-None-Match": etags[t]})
                for _ in range(round(HAND_EVERY / POLL_EVERY) - 1):
                    unchanged = timed(KINDS[4], "GET", f"{url}/board", headers={"If-None-Match": board.headers["ETag"]})
                    assert unchanged.status_code == 304, unchanged.status_code
            etags[t] = board.headers["ETag"]
    return cost


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=300, help="tables of the evening (default 300)")
    parser.add_argument("--stand-in-ms", type=float, default=None,
                        help="the stand-in's CPU a request at those tables, from bench/side_by_side.py")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 1000 or (args.stand_in_ms is not None and not 0 < args.stand_in_ms < 100):
        parser.error("--tables 1-1000; --stand-in-ms a number of milliseconds above 0")
    with tempfile.TemporaryDirectory() as folder:  # the evening's database, gone with it
        cost = {kind: statistics.median(seconds) * 1e3 for kind, seconds in replay(folder, 60, 3).items()}
    print("one hand of the stress evening, Rummathon Royale, 4 players (CPU ms, the median of 180 of each):")
    for kind, ms in cost.items():
        print(f"  {kind}: {ms:.2f} ms")
    phones = len(PLAYERS)
    hand = cost[KINDS[0]] + cost[KINDS[1]] + cost[KINDS[2]] + phones * cost[KINDS[3]]
    hands, polls = args.tables / HAND_EVERY, args.tables * phones / POLL_EVERY
    requests = polls + 3 * hands
    own = (hands * hand + (polls - phones * hands) * cost[KINDS[4]]) / 1e3
    print(f"a hand, its three requests and the {phones} polls that see it: {hand:.1f} ms")
    print(f"at {args.tables} tables: {hands:.0f} hands and {requests:.0f} requests a second; Courtier's own work "
          f"{own:.2f} cores, {own / requests * 1e3:.2f} ms a request on average")
    if args.stand_in_ms is not None:
        allowed = args.stand_in_ms / 2  # 1.5x the stand-in leaves Courtier half the stand-in's cost a request
        print(f"within 1.5x the stand-in's {args.stand_in_ms:.2f} ms a request, Courtier's own work may average "
              f"{allowed:.2f} ms a request: {own / requests * 1e3 / allowed:.1f}x that allowance")


if __name__ == "__main__":
    main()
