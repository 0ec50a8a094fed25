"""Side by side: how many tables each way of serving Courtier holds, on this machine, in one run.

    .venv/bin/python bench/side_by_side.py                      # 200, 250, 300 tables, 3 rounds, 45 s each
    .venv/bin/python bench/side_by_side.py --tables 150,200 --rounds 1 --seconds 20

Plays `bench/load.py`'s evening (every phone polls its board every 2 s, a hand every ~10 s a
table) under each way of serving, at each number of tables, several rounds over, and prints one
line a run and then a table: for each way and number of tables the median p99 (all requests,
board polls, entry posts), how many of its runs held (0 errors, every acknowledged entry stored,
p99 under 100 ms for all three), the median CPU per request and the cores the servers and the
load used. A way holds a number of tables when most of its runs there held, and every smaller
number too. The way `stand-in-gunicorn` serves bench/stand_in.py, which does none of Courtier's
work: what serving the evening costs on its own, the floor under the other ways.

Why rounds, interleaved: a shared machine's speed is not constant. On the two-core machine
these figures were taken on, the same pure-Python loop takes anywhere from 0.34 to 0.70 s
from one minute to the next with nothing else running. So the ways take turns, in a new order
each round, and a figure is the median of its rounds; each run also times a fixed loop before
and after (``speed``, ms: lower is faster) so a run taken while the machine slowed can be seen.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # noqa: E402 - bench/load.py, beside this file

#: The ways of serving compared, each as bench/load.py's options.
WAYS: dict[str, dict[str, object]] = {
    "sqlite-waitress": {"server": "waitress", "database": "sqlite", "servers": 1, "gunicorn_workers": 1},
    "sqlite-gunicorn": {"server": "gunicorn", "database": "sqlite", "servers": 1, "gunicorn_workers": 2},
    "postgresql-2": {"server": "gunicorn", "database": "postgresql", "servers": 2, "gunicorn_workers": 1},
    # docs/ops.md's hosted shape: several servers of several --preload workers each, on PostgreSQL.
    "postgresql-2x2": {"server": "gunicorn", "database": "postgresql", "servers": 2, "gunicorn_workers": 2},
    # The same evening with none of Courtier's work (bench/stand_in.py): the floor under the others.
    "stand-in-gunicorn": {"server": "gunicorn", "database": "sqlite", "servers": 1, "gunicorn_workers": 2,
                          "stand_in": True},
}
DESCRIBED = {
    "sqlite-waitress": "SQLite, waitress, 1 process",
    "sqlite-gunicorn": "SQLite, gunicorn, 2 workers",
    "postgresql-2": "PostgreSQL, 2 servers of 1 worker",
    "postgresql-2x2": "PostgreSQL, 2 servers of 2 workers",
    "stand-in-gunicorn": "stand-in, gunicorn, 2 workers",
}


def speed() -> float:
    """Milliseconds a fixed pure-Python loop takes now (best of three): the machine's speed at the moment."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        total = 0
        for i in range(300_000):
            total += i * i
        best = min(best, time.process_time() - start)
    return best * 1000


@dataclass
class Run:
    way: str
    tables: int
    p99: dict[str, float]
    held: bool
    errors: int
    cpu_ms: float | None  # server (and database) CPU per request
    speed: tuple[float, float]  # the loop's ms before and after
    cores: tuple[float | None, float]  # the servers' (and database's) cores, the load generator's


def cores_used(outcome: load.Outcome) -> tuple[float | None, float]:
    server_cpu, load_cpu, _ = outcome.record.cpu
    return None if server_cpu is None else server_cpu / outcome.elapsed, load_cpu / outcome.elapsed


def one_run(way: str, tables: int, args: argparse.Namespace) -> Run:
    options = load.parse(["--tables", str(tables), "--seconds", str(args.seconds)])
    for name, value in WAYS[way].items():
        setattr(options, name, value)
    before = speed()
    outcome = load.evening(options)
    after = speed()
    requests = sum(len(v) for v in outcome.record.latency.values())
    server_cpu = outcome.record.cpu[0]
    return Run(way, tables, outcome.p99(), outcome.holds(), len(outcome.record.errors) + outcome.lost,
               None if server_cpu is None or not requests else server_cpu / requests * 1000, (before, after),
               cores_used(outcome))


def show(run: Run) -> str:
    p99 = " / ".join(f"{v:.0f}" for v in run.p99.values())
    cpu = "?" if run.cpu_ms is None else f"{run.cpu_ms:.2f}"
    server_cores = "?" if run.cores[0] is None else f"{run.cores[0]:.2f}"
    return (f"{DESCRIBED[run.way]:36} {run.tables:>4} tables: p99 {p99} ms (all / polls / posts), "
            f"errors {run.errors}, CPU {cpu} ms a request, cores {server_cores} + load {run.cores[1]:.2f}, "
            f"speed {run.speed[0]:.0f}->{run.speed[1]:.0f} ms: "
            f"{'held' if run.held else 'missed'}")


def held_up_to(runs: list[Run], way: str, counts: list[int]) -> int:
    """The most tables ``way`` held in most of its runs, every smaller count held too (0: none)."""
    best = 0
    for tables in sorted(counts):
        these = [r for r in runs if r.way == way and r.tables == tables]
        if not these or sum(r.held for r in these) * 2 <= len(these):
            break
        best = tables
    return best


def cpu_against_stand_in(runs: list[Run], ways: list[str], counts: list[int]) -> None:
    """Each way's CPU a request against the stand-in's at the same number of tables (target 1.5x)."""
    if "stand-in-gunicorn" not in ways:
        return
    for tables in counts:
        median_cpu = {}
        for way in ways:
            cpu = [r.cpu_ms for r in runs if r.way == way and r.tables == tables and r.cpu_ms is not None]
            if cpu:
                median_cpu[way] = statistics.median(cpu)
        stand_in = median_cpu.pop("stand-in-gunicorn", None)
        if stand_in is None:
            continue
        for way, cpu in median_cpu.items():
            print(f"{DESCRIBED[way]} at {tables} tables: CPU {cpu:.2f} ms a request = {cpu / stand_in:.1f}x the "
                  f"stand-in's {stand_in:.2f} ms (target 1.5x)")


def summary(runs: list[Run], ways: list[str], counts: list[int]) -> None:
    print("\nmedians over the rounds: p99 ms (all / polls / posts); runs held; CPU ms a request; "
          "cores used by the servers + the load")
    print(f"{'tables':>6} | " + " | ".join(f"{DESCRIBED[w]:52}" for w in ways))
    for tables in counts:
        cells = []
        for way in ways:
            these = [r for r in runs if r.way == way and r.tables == tables]
            p99 = " / ".join(f"{statistics.median(r.p99[k] for r in these):.0f}" for k in these[0].p99)
            cell = f"{p99}; {sum(r.held for r in these)} of {len(these)}"
            cpu = [r.cpu_ms for r in these if r.cpu_ms is not None]
            if cpu:
                cell += f"; {statistics.median(cpu):.2f}"
            server_cores = [r.cores[0] for r in these if r.cores[0] is not None]
            if server_cores:
                cell += f"; {statistics.median(server_cores):.2f} + {statistics.median(r.cores[1] for r in these):.2f}"
            cells.append(cell)
        print(f"{tables:>6} | " + " | ".join(f"{c:52}" for c in cells))
    cpu_against_stand_in(runs, ways, counts)
    held = {way: held_up_to(runs, way, counts) for way in ways}
    print("\ntables held: " + "; ".join(f"{DESCRIBED[w]} {held[w]}" for w in ways))
    if "sqlite-gunicorn" in held and "postgresql-2" in held and held["sqlite-gunicorn"]:
        print(f"PostgreSQL with 2 servers holds {held['postgresql-2'] / held['sqlite-gunicorn']:.0%} of the tables "
              f"SQLite with gunicorn's 2 workers holds (target: at least 80%)")


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="200,250,300", help="numbers of tables, comma-separated")
    parser.add_argument("--ways", default="sqlite-gunicorn,postgresql-2",
                        help=f"ways of serving, comma-separated, of: {', '.join(WAYS)}")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each way at each number (default 3)")
    parser.add_argument("--seconds", type=float, default=45.0, help="length of each run (default 45)")
    args = parser.parse_args(argv)
    try:
        args.counts = sorted({int(n) for n in args.tables.split(",")})
    except ValueError:
        parser.error("--tables: whole numbers, comma-separated, such as 200,250")
    args.ways = [w.strip() for w in args.ways.split(",")]
    unknown = [w for w in args.ways if w not in WAYS]
    if unknown or not 1 <= args.rounds <= 9 or not all(1 <= n <= 1000 for n in args.counts):
        parser.error(f"--ways of {', '.join(WAYS)}; --rounds 1-9; --tables 1-1000 each")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    print(f"Courtier side by side: {', '.join(DESCRIBED[w] for w in args.ways)}; tables "
          f"{', '.join(map(str, args.counts))}; {args.rounds} rounds of {args.seconds:g} s; "
          f"the load on the same cores")
    runs: list[Run] = []
    for round_number in range(args.rounds):
        # A new order each round, so no way always runs first (or last) at a number of tables.
        ways = args.ways[round_number % len(args.ways):] + args.ways[:round_number % len(args.ways)]
        for tables in args.counts:
            for way in ways:
                try:
                    runs.append(one_run(way, tables, args))
                except RuntimeError as err:
                    print(f"{DESCRIBED[way]}: cannot start the evening: {err}")
                    return 2
                print(show(runs[-1]), flush=True)
    summary(runs, args.ways, args.counts)
    return 1 if any(r.errors for r in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
