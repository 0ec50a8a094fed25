"""Round packs for a tournament: a seating list for the director, then one printed page per
table, built off the request path.

Each table's page is the game's own blank score sheet (scoresheets/blank/) with the table's
players in seat order, headed with the table number (large), the round, the date and the
tournament's options, and a QR code of the table's edit link in a box of its own.

A pack for 20 tables takes seconds to render, so no phone waits on it: the first request
queues it in the heavy pool (companion.web.heavy), which writes the PDF under instance/packs/,
and the page polls until it is there. The progress only moves forward: preparing each sheet, laying out each
page, then writing the file. A pack is rebuilt only when it does not exist yet; undoing a
round's seating forgets its packs.
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

from flask import Flask, url_for
from markupsafe import Markup

from .. import games
from ..core import messages
from ..core.messages import joined, render, say
from ..paper import sheets
from ..storage import tables
from ..storage.db import borrowed
from . import store

_building: set[str] = set()
_lock = threading.Lock()

#: Paper names a pack is printed on (sheets.PAPERS).
PAPERS = ("a4", "letter")


def pack_dir(app: Flask) -> Path:
    path = Path(app.instance_path) / "packs"
    path.mkdir(parents=True, exist_ok=True)
    return path


def pack_path(app: Flask, tid: str, round_number: int, paper: str = "a4") -> Path:
    """The round's pack, named after the tables it prints: a round seated again (after its seating was
    undone, perhaps on another server, whose files these are not) never gets an older round's pack."""
    with borrowed(app) as db:
        seated = "".join(s.table_id for s in store.round_tables(db, tid, round_number))
    seating = hashlib.blake2s(seated.encode(), digest_size=4).hexdigest()
    return pack_dir(app) / f"{tid}-round-{round_number}-{seating}-{paper}{_spoken()}.pdf"


def _spoken() -> str:
    """What a pack's file and job add for the language it is printed in: nothing for English. A pack is
    printed in its director's language (the request's), and a pack in one language is never another's."""
    code = messages.language()
    return "" if code == messages.ENGLISH else f"-{code}"


def status(app: Flask, tid: str, round_number: int, paper: str = "a4") -> str:
    """'ready', 'building' (with progress) or 'missing'."""
    target = pack_path(app, tid, round_number, paper)
    if target.exists():
        return "ready"
    progress = target.with_suffix(".progress")
    if progress.exists():
        return f"building: {progress.read_text().strip()}"
    return "building" if f"{tid}-{round_number}-{paper}{_spoken()}" in _building else "missing"


def start(app: Flask, tid: str, round_number: int, base_url: str, paper: str = "a4") -> None:
    """Build the pack in the heavy pool, unless it exists or is being built (companion.web.heavy.Busy when full)."""
    job = f"{tid}-{round_number}-{paper}{_spoken()}"
    target = pack_path(app, tid, round_number, paper)
    with _lock:
        if job in _building or target.exists():
            return
        _building.add(job)
    try:
        app.extensions["courtier.heavy"].submit(_build, app, tid, round_number, base_url, paper)
    except Exception:
        with _lock:
            _building.discard(job)
        raise
    with _lock:
        if not target.exists():
            _note(str(target.with_suffix(".progress")), 0, render(say("starting")))


def forget(app: Flask, tid: str, round_number: int) -> None:
    """Remove a round's packs (its seating was undone: the tables they print are gone)."""
    for path in pack_dir(app).glob(f"{tid}-round-{round_number}-*.pdf"):
        path.unlink(missing_ok=True)


#: How the seating list names a tournament's seating method.
METHOD_WORDS = {"random": say("random"), "round-robin": say("round robin"), "swiss": say("swiss")}


def _options_line(game: str, options: dict) -> str:
    chosen = sheets.describe_options(game, games.ENGINES[game].OPTIONS | options, options)
    return joined([say("{label}: {value}", label=o["label"], value=o["value"]) for o in chosen if o["house"]], ", ")


def pack_documents(app: Flask, tid: str, round_number: int, base_url: str, paper: str = "a4",
                   progress=None) -> list[str]:
    """The seating list, then one page per table, as HTML: the game's own blank sheet with the
    table's players in seat order, headed with what the pack knows, and its edit link as a QR code."""
    with borrowed(app) as db:
        t = store.get(db, tid)
        seats = store.round_tables(db, tid, round_number)
        rows = []
        for seat in seats:
            table = tables.get_table(db, seat.table_id)
            with app.test_request_context(base_url=base_url):
                edit = url_for("tables.show", table_id=table.id, key=table.edit_key, _external=True)
            rows.append((seat, table, edit))
    date = sheets.format_date(rows[0][1].created_at if rows else None)
    options = _options_line(t.game, {k: v for k, v in t.options.items() if k != "word_list"})
    if "word_list" in t.options:
        options = joined(filter(None, [options, say("the tournament's own word list")]), ", ")
    documents = [sheets.environment().get_template("tournament/seating.html").render(
        tournament=t.title, round=round_number, rounds=t.rounds, date=date, paper=sheets.paper_size(paper),
        game_title=games.ENGINES[t.game].TITLE, method=METHOD_WORDS.get(t.method, t.method.replace("-", " ")),
        options=options,
        tables=[{"number": seat.number, "players": table.players} for seat, table, _ in rows],
        css=Markup(sheets.print_css()), lang=messages.language())]  # noqa: S704 - our own file
    for done, (seat, table, edit) in enumerate(rows, 1):
        documents.append(sheets.html_for_blank(
            table.game, table.players, paper,
            heading=say("{title} · Round {round} · Table {table}", title=t.title, round=round_number,
                        table=seat.number),
            link=edit, pack={"tournament": t.title, "round": round_number, "rounds": t.rounds, "table": seat.number,
                             "date": date, "options": options}))
        if progress:
            progress(done, len(rows))
    return documents


# Three steps, one after another, each counted: preparing the sheets (a fifth of the way),
# laying out the pages (to 90%), writing the file (the last tenth).
def _note(progress_file: str, percent: int, text: str) -> None:
    Path(progress_file).write_text(f"{percent}% · {text}")


def render_pack(documents: list[str], progress_file: str, code: str = messages.ENGLISH) -> bytes:
    """The pack's PDF, saying how far it has got in ``progress_file`` in language ``code`` (run in a worker
    process)."""
    def laid_out(done: int, total: int) -> None:
        if done == total:
            _note(progress_file, 90, render(say("writing the PDF file"), code))
        else:
            _note(progress_file, 20 + 70 * done // total,
                  render(say("laying out page {done} of {total}", done=done, total=total), code))

    return sheets.pdf_from_documents(documents, laid_out)


def _build(app: Flask, tid: str, round_number: int, base_url: str, paper: str) -> None:
    target = pack_path(app, tid, round_number, paper)
    progress_file = target.with_suffix(".progress")
    try:
        def prepared(done: int, total: int) -> None:
            _note(str(progress_file), 20 * done // total,
                  render(say("preparing sheet {done} of {total}", done=done, total=total)))

        documents = pack_documents(app, tid, round_number, base_url, paper, prepared)
        partial = target.with_suffix(".part")
        pdf = app.extensions["courtier.heavy"].in_process(render_pack, documents, str(progress_file),
                                                          messages.language())
        partial.write_bytes(pdf)
        partial.replace(target)  # atomic: a reader sees the whole file or none
    except Exception:
        app.logger.exception("building pack %s round %s", tid, round_number)
    finally:
        progress_file.unlink(missing_ok=True)
        with _lock:
            _building.discard(f"{tid}-{round_number}-{paper}{_spoken()}")
