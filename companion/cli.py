"""The `companion` command: score games from files, and look after the database.

Every command prints JSON on stdout. Bad input exits with status 2 and the
same ``{"errors": [...]}`` body the API answers with.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import click

from . import games
from .games.base import InputError, Problem

EXIT_BAD_INPUT = 2


def _emit(body: object) -> None:
    click.echo(json.dumps(body, indent=2, ensure_ascii=False))


def _fail(problems: list[Problem]) -> None:
    _emit(InputError(problems).as_json())
    sys.exit(EXIT_BAD_INPUT)


def _read_json(source: str) -> object:
    """JSON from a file, or from stdin when the name is '-'."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except FileNotFoundError:
        _fail([Problem("FILE", f"there is no file called {source}")])
    except (OSError, UnicodeDecodeError) as err:
        _fail([Problem("FILE", f"cannot read {source}: {err}")])
    if not text.strip():
        _fail([Problem("$", f"{'stdin' if source == '-' else source} is empty; it should hold a JSON game")])
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        _fail([Problem("$", f"not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}")])
    except RecursionError:
        _fail([Problem("$", "not valid JSON: nested too deeply")])
    raise AssertionError("unreachable")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="courtier")
def main() -> None:
    """Courtier: scores and rulings for card games played at a real table.

    \b
    Score a game kept as a file (the JSON of docs/api.md):
        companion score game.json
        cat game.json | companion score -
    Look after the database of the web app (under instance/):
        companion init-db
        companion export TABLE_ID -o table.json
        companion import table.json
        companion backup backup.sqlite
    """


@main.command()
@click.argument("file", metavar="FILE")
def score(file: str) -> None:
    """Score a whole game given as JSON in FILE ('-' reads stdin).

    Prints the scored game (totals, each round's points and the "why" of every
    number, the winner once the game is over). Exits 2, printing
    {"errors": [{"where": ..., "message": ...}]}, when the game cannot be scored.
    """
    try:
        scored = games.score(_read_json(file))
    except InputError as err:
        _fail(list(err.problems))
    _emit(scored.as_json())


def _app():
    from . import create_app

    return create_app()


@main.command("init-db")
def init_db() -> None:
    """Create the database under instance/ (or bring it up to date)."""
    app = _app()
    _emit({"database": app.config["DATABASE"], "ok": True})


@main.command()
@click.argument("table_id")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write here, not stdout.")
def export(table_id: str, output: str | None) -> None:
    """Export table TABLE_ID as JSON in the API format (it re-imports and scores as is)."""
    from . import tables
    from .db import get_db

    app = _app()
    with app.app_context():
        try:
            table = tables.get_table(get_db(), table_id)
        except tables.TableNotFound:
            _fail([Problem("TABLE_ID", f"there is no table {table_id}")])
        body = tables.request_for(table, [data for _, data in tables.fold(tables.events(get_db(), table.id))])
        body["title"] = table.title
    if output:
        Path(output).write_text(json.dumps(body, indent=2, ensure_ascii=False), encoding="utf-8")
        _emit({"table": table_id, "written": output})
    else:
        _emit(body)


@main.command("import")
@click.argument("file", metavar="FILE")
def import_(file: str) -> None:
    """Create a table from a game in FILE (API format); prints its links."""
    from . import tables
    from .db import get_db

    body = _read_json(file)
    try:
        games.score(body)
    except InputError as err:
        _fail(list(err.problems))
    app = _app()
    with app.app_context():
        table = tables.create_table(get_db(), body["game"], [p.strip() for p in body["players"]],
                                    body.get("options") or {}, title=str(body.get("title") or "")[:60],
                                    rounds=body.get("rounds", []), device="command line")
    _emit({"table": table.id, "view": f"/t/{table.id}", "edit": f"/t/{table.id}?key={table.edit_key}"})


@main.command()
@click.argument("destination", type=click.Path(dir_okay=False))
def backup(destination: str) -> None:
    """Copy the live database to DESTINATION with SQLite's online backup (safe while serving)."""
    app = _app()
    source = sqlite3.connect(app.config["DATABASE"])
    target = sqlite3.connect(destination)
    try:
        with target:
            source.backup(target)
    finally:
        target.close()
        source.close()
    _emit({"database": app.config["DATABASE"], "backup": destination})
