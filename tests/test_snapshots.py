"""What Courtier says, kept word for word: the scored answer of about a thousand games the suite scores
(every game and rule the case books and properties reach), and a sample of pages, JSON answers, the
command line's output and a sheet's text for a table of each game.

A change that means to say something else (a new line in a why, a page's new control) updates the
kept answers on purpose, and the diff shows what changed:

    COURTIER_UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/test_snapshots.py

tests/snapshots/collect.py gathers the games (tests/snapshots/games.jsonl.gz); the answers are
tests/snapshots/scored.jsonl.gz and tests/snapshots/pages.json.gz.
"""

from __future__ import annotations

import difflib
import gzip
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from companion import games
from companion.games.base import InputError

HERE = Path(__file__).parent / "snapshots"
GAMES, SCORED, PAGES = HERE / "games.jsonl.gz", HERE / "scored.jsonl.gz", HERE / "pages.json.gz"
UPDATE = bool(os.environ.get("COURTIER_UPDATE_SNAPSHOTS"))
ROOT = Path(__file__).resolve().parent.parent


def _read_lines(path: Path) -> list[str]:
    return gzip.decompress(path.read_bytes()).decode().splitlines()


def _write(path: Path, text: str) -> None:
    path.write_bytes(gzip.compress(text.encode(), 9, mtime=0))


def _answer(request: dict) -> str:
    try:
        answer = games.score(request).as_json()
    except InputError as err:
        answer = err.as_json()
    return json.dumps(answer, ensure_ascii=False)


def _pretty(text: str) -> list[str]:
    return json.dumps(json.loads(text), ensure_ascii=False, indent=1).splitlines()


def _differences(kept: str, now: str, label: str) -> str:
    return "\n".join(difflib.unified_diff(_pretty(kept), _pretty(now), f"kept {label}", f"now {label}", lineterm="",
                                         n=2))


@pytest.mark.one_database
def test_every_kept_game_scores_word_for_word_as_it_did():
    requests = _read_lines(GAMES)
    answers = [_answer(json.loads(line)) for line in requests]
    if UPDATE or not SCORED.exists():
        _write(SCORED, "\n".join(answers))
    kept = _read_lines(SCORED)
    assert len(kept) == len(answers), "the kept answers are of other games: update them"
    changed = [i for i, (old, new) in enumerate(zip(kept, answers, strict=True)) if old != new]
    if changed:
        first = changed[0]
        pytest.fail(f"{len(changed)} of {len(answers)} games are answered otherwise than kept; the first, "
                    f"{requests[first][:300]}:\n{_differences(kept[first], answers[first], 'answer')[:6000]}")


# -- Pages, JSON answers, the command line, a sheet -----------------------------------------------

#: What differs from run to run and is not what a page says: ids, keys, tokens, times.
VOLATILE = [
    (re.compile(r"/t/[A-Za-z0-9_-]{12}"), "/t/TABLE"),
    (re.compile(r"(key=|\"edit_key\": \"|\"view_key\": \"|\"id\": \")[A-Za-z0-9_-]{12,43}"), r"\1KEY"),
    (re.compile(r'name="csrf_token" type="hidden" value="[^"]+"'), 'name="csrf_token" type="hidden" value="TOKEN"'),
    (re.compile(r'type="hidden" name="csrf_token" value="[^"]+"'), 'type="hidden" name="csrf_token" value="TOKEN"'),
    (re.compile(r'name="entry_key" value="[^"]+"'), 'name="entry_key" value="ENTRY"'),
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?"), "TIME"),
    (re.compile(r"\b(\d{4}-\d\d-\d\d )?\d\d:\d\d(:\d\d)? UTC\b"), "DAY HH:MM UTC"),
    (re.compile(r"\bPhone [0-9A-F]{4}\b"), "Phone XXXX"),
    (re.compile(r'(ETag|etag)": "[^"]+"'), r'\1": "TAG"'),
    (re.compile(r'data:image/(png|svg\+xml);base64,[A-Za-z0-9+/=]+'), "data:QR"),
    (re.compile(r"<svg[^>]*class=\"qr[^\"]*\".*?</svg>", re.S), "<svg class=\"qr\">QR</svg>"),
]


def kept_fields(text: str) -> str:
    """A JSON answer as the kept sample has it: without each round's why as data (``why``, docs/api.md
    "Languages"), which came after the sample was kept, beside fields that read as they did."""
    try:
        body = json.loads(text)
    except ValueError:
        return text
    if not isinstance(body, dict):
        return text
    scored = body.get("scored") if isinstance(body.get("scored"), dict) else body
    rounds = scored.get("rounds") if isinstance(scored, dict) else None
    schema = body.get("components", {}).get("schemas", {}).get("ScoredRound", {}).get("properties", {})
    has_why = isinstance(rounds, list) and any(isinstance(r, dict) and "why" in r for r in rounds)
    if not has_why and "why" not in schema:
        return text
    for r in rounds or []:
        if isinstance(r, dict):
            r.pop("why", None)
    schema.pop("why", None)
    spaced = text.startswith("{\n")  # the command line's answer, indented; the API's, compact
    said = json.dumps(body, ensure_ascii=False, **({"indent": 2} if spaced else {"separators": (",", ":")}))
    return said + ("\n" if text.endswith("\n") else "")


def steady(text: str, secrets: dict[str, str] | None = None) -> str:
    """``text`` with what differs from run to run named in its place (the run's own ids and keys first)."""
    text = kept_fields(text)
    for secret, name in (secrets or {}).items():
        text = text.replace(secret, name)
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    return text


#: A table of each game, started and played as the API examples play them (docs/api.md's shapes).
TABLES = {
    "rummathon-royale": (["Ann", "Ben", "Cat"], {}, [{"out": "Ann", "left": {"Ben": {"low": 3, "high": 1}}}]),
    "indian-rummy": (["Ann", "Ben", "Cat", "Dan"], {"variant": "pool101"},
                     [{"winner": "Ann", "hands": {"Ben": {"count": 30}, "Cat": {"count": 60}, "Dan": {"count": 80}}}]),
    "alliance-royals": (["Ann", "Ben", "Cat", "Dan"], {}, []),
    "battle-royals": (["Ann", "Ben"], {}, []),
    "marriage-royals": (["Ann", "Ben", "Cat"], {}, []),
    "royalty": (["Ann", "Ben", "Cat"], {}, []),
    "rally-the-king": (["Ann", "Ben", "Cat", "Dan"], {}, []),
    "rummy-royal": (["Ann", "Ben", "Cat", "Dan"], {}, []),
}


def _pages(client) -> dict[str, str]:
    from tests.conftest import new_table

    seen: dict[str, str] = {}
    secrets: dict[str, str] = {}
    for path in ("/", "/referee", "/new/rummathon-royale", "/new/indian-rummy", "/new/alliance-royals",
                 "/new/royalty", "/new/rally-the-king", "/new/rummy-royal", "/new/battle-royals",
                 "/new/marriage-royals", "/rules/alliance-royals", "/api/v1/openapi.json"):
        seen[path] = steady(client.get(path).get_data(as_text=True))
    for game, (players, options, rounds) in TABLES.items():
        answer = client.post("/api/v1/tables", json={"game": game, "players": players, "options": options})
        made = answer.get_json()
        secrets.update({made["id"]: f"T{len(secrets)}", made["edit_key"]: "EDIT-KEY", made["view_key"]: "VIEW-KEY"})
        seen[f"{game} started"] = steady(json.dumps(made, ensure_ascii=False, indent=1), secrets)
        auth = {"Authorization": f"Bearer {made['edit_key']}"}
        for version, one in enumerate(rounds):
            saved = client.post(f"/api/v1/tables/{made['id']}/rounds", json={"round": one, "base_version": version},
                                headers=auth)
            seen[f"{game} round {version + 1} saved"] = steady(saved.get_data(as_text=True), secrets)
        table, key = f"/t/{made['id']}", made["edit_key"]
        why = f"{table}/hands/1" if rounds else ""
        for label, path in (("table page", f"{table}?key={key}"), ("view page", table), ("board", f"{table}/board"),
                            ("hand form", f"{table}/hands/new?key={key}"), ("why", why),
                            ("history", f"{table}/history"), ("export", f"{table}/export.json"),
                            ("csv", f"{table}/export.csv"), ("api", f"/api/v1/tables/{made['id']}")):
            if not path:
                continue
            response = client.get(path, headers=auth if label == "api" else {})
            seen[f"{game} {label}"] = f"{response.status_code}\n" + steady(response.get_data(as_text=True), secrets)
    view, _ = new_table(client)
    seen["rummathon-royale from the form"] = steady(client.get(view).get_data(as_text=True))
    return seen


def _command_line() -> dict[str, str]:
    game = json.dumps({"game": "rummathon-royale", "players": ["Ann", "Ben"], "rounds": [{"out": "Ann"}]})
    said = {}
    for label, args, stdin in (("score", ["score", "-"], game), ("score refused", ["score", "-"], '{"game": 3}'),
                               ("help", ["--help"], "")):
        done = subprocess.run([str(ROOT / ".venv" / "bin" / "companion"), *args], input=stdin, capture_output=True,
                              text=True, cwd=ROOT, timeout=120, check=False)
        said[f"companion {label}"] = f"{done.returncode}\n{kept_fields(done.stdout)}{done.stderr}"
    return said


def test_a_sample_of_pages_answers_and_commands_reads_as_kept(make_app, database):
    if database != str(database) or database.startswith("postgresql"):
        pytest.skip("pages are kept from the SQLite run (the PostgreSQL run answers the same, as test_db shows)")
    client = make_app(WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False).test_client()
    now = {**_pages(client), **_command_line()}
    if UPDATE or not PAGES.exists():
        _write(PAGES, json.dumps(now, ensure_ascii=False, indent=0, sort_keys=True))
    kept = json.loads(gzip.decompress(PAGES.read_bytes()))
    assert sorted(kept) == sorted(now), "the kept sample is of other pages: update it"
    changed = [name for name in sorted(now) if kept[name] != now[name]]
    if changed:
        first = changed[0]
        diff = "\n".join(difflib.unified_diff(kept[first].splitlines(), now[first].splitlines(), "kept", "now",
                                              lineterm="", n=2))
        pytest.fail(f"{len(changed)} kept pages read otherwise ({', '.join(changed[:12])}); the first, {first}:\n"
                    f"{diff[:6000]}")
