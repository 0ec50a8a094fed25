"""What the public pages a phone may ask for cost the server, uncached: CPU time and the process's peak memory.

    .venv/bin/python bench/costly_pages.py            # every case
    .venv/bin/python bench/costly_pages.py history    # one: history, sheet, standings or header

* ``history``: a Royalty table of 500 turns, each with a 500-character note and the word judge's log as full
  as the limits allow (four verdicts, each a 500-character why and eight 500-character warnings), stored as it
  could be before tables were bounded in bytes; its history asked for by 4 phones, one after another,
  each from a cold start, reading its newest page and the one before (the whole history, before it was paged).
* ``sheet``: the same table's sheet, refused as too long to print, asked for three times.
* ``standings``: a tournament of 100 entrants, one round seated, its standings PDF asked for 10 times.
* ``header``: a request to /healthz with a 250 KB ``Accept-Language``, 20 times.

Each case runs in a fresh process of its own (``time.process_time`` counts the server's work, the test
client's too, which is small; ``resource.getrusage`` gives the peak resident memory, children included for
the PDFs' worker processes).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

WHY = ("The word was looked up in the default list and in the table's house words, and found in neither. " * 6)[:500]
CASES = ("history", "sheet", "standings", "header")
#: Phones that each read the history, one after another, each from a cold start: its newest page and the
#: one before (the whole history when it is one page).
PHONES = 4
PAGES_READ = 2


def _app(folder: str):
    from companion import create_app

    return create_app({"DATABASE": f"{folder}/bench.sqlite", "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                       "RATELIMIT_ENABLED": False})


def full_judge_log() -> list[dict]:
    """The word judge's log as full as the limits allow: four verdicts, each word 45 letters, each why and
    each of eight warnings 500 characters."""
    return [{"word": ("CALM" * 12)[:45], "valid": i % 2 == 0, "why": WHY, "warnings": [WHY] * 8} for i in range(4)]


def royalty_table(app) -> str:
    """A 500-turn Royalty table with full judge logs, written straight to the log (as it could be saved turn by
    turn before the byte bound); its view address."""
    import sheet_cost

    from companion.storage import tables
    from companion.storage.db import borrowed

    game = sheet_cost.game("royalty", 4, 500, "long", notes=True)
    for turn in game["rounds"]:
        turn["judged"] = full_judge_log()
    with borrowed(app) as db:
        table = tables.create_table(db, "royalty", game["players"], game["options"], rounds=game["rounds"])
    return f"/t/{table.id}"


def _cold(app) -> None:
    for name in ("courtier.states", "courtier.sheets", "courtier.boards"):
        app.extensions[name].forget_idle(-1)


def history(app, client, table: str) -> str:
    pages = sizes = 0
    biggest = 0
    for _ in range(PHONES):
        _cold(app)
        address = f"{table}/history"
        for _ in range(PAGES_READ):
            page = client.get(address)
            assert page.status_code == 200, page.status_code
            text = page.get_data(as_text=True)
            pages += 1
            sizes += len(page.data)
            biggest = max(biggest, len(page.data))
            older = text.split('rel="next" href="')[1].split('"')[0] if 'rel="next" href="' in text else None
            if not older:
                break
            address = older.replace("&amp;", "&")
    return f"{pages} requests, largest {biggest / 1e6:.2f} MB, {sizes / 1e6:.1f} MB in all"


def sheet(app, client, table: str) -> str:
    statuses = [client.get(f"{table}/sheet.pdf").status_code for _ in range(3)]
    return f"statuses {statuses}"


def tournament(app, client) -> str:
    """A tournament of 100 entrants at tables of four, its first round seated; its address."""
    entrants = "\n".join(f"Entrant {n:03d}" for n in range(100))
    made = client.post("/tournaments/new", data={"title": "Big night", "game": "indian-rummy", "entrants": entrants,
                                                 "rounds": "3", "method": "swiss", "table_min": "4",
                                                 "table_max": "4", "opt-variant": "pool101"})
    assert made.status_code == 303, made.get_data(as_text=True)[:2000]
    tour, key = made.headers["Location"].split("?key=")
    assert client.post(f"{tour}/rounds?key={key}", data={"round": "1"}).status_code == 303
    return tour


def standings(app, client, tour: str) -> str:
    statuses = [client.get(f"{tour}/standings.pdf").status_code for _ in range(10)]
    return f"statuses {set(statuses)}"


def header(app, client, _: None) -> str:
    tags = ",".join(f"x-{n:06d};q=0.{n % 9 + 1}" for n in range(250_000 // 16))
    statuses = [client.get("/healthz", headers={"Accept-Language": tags}).status_code for _ in range(20)]
    return f"{len(tags) // 1000} KB header, statuses {set(statuses)}"


def run_case(name: str) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        app = _app(folder)
        client = app.test_client()
        client.get("/healthz")
        made = royalty_table(app) if name in ("history", "sheet") else tournament(app, client) \
            if name == "standings" else None
        if name == "sheet":
            _cold(app)
        before = time.process_time()
        said = globals()[name](app, client, made)
        spent = time.process_time() - before
        processes = app.extensions["courtier.heavy"]._processes
        if processes is not None:  # the PDFs' workers, waited for: their CPU time is then counted
            processes.shutdown(wait=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"case": name, "cpu_s": round(spent + children.ru_utime + children.ru_stime, 2),
            "peak_mb": round(peak), "children_peak_mb": round(children.ru_maxrss / 1024), "said": said}


def main(argv: list[str]) -> None:
    if argv and argv[0] == "--one":
        print(json.dumps(run_case(argv[1])))
        return
    for name in argv or CASES:
        out = subprocess.run([sys.executable, __file__, "--one", name], capture_output=True, text=True, check=True)
        print(json.loads(out.stdout.strip().splitlines()[-1]))


if __name__ == "__main__":
    main(sys.argv[1:])
