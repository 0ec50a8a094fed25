"""Round packs for a tournament: one printed page per table, built off the request path.

Each page is the game's own blank score sheet (scoresheets/blank/) with the table's players
in seat order, headed with the tournament, the round and the table, and a QR code of the
table's edit link.

A pack for 20 tables takes seconds to render, so no phone waits on it: the
first request queues it in the heavy pool (companion.heavy), which writes the PDF under
instance/packs/, and the page polls until it is there. A pack is rebuilt only
when it does not exist yet.
"""

from __future__ import annotations

import threading
from pathlib import Path

from flask import Flask, url_for

from .. import sheets, tables
from ..db import connect
from . import store

_building: set[str] = set()
_lock = threading.Lock()


def pack_dir(app: Flask) -> Path:
    path = Path(app.instance_path) / "packs"
    path.mkdir(parents=True, exist_ok=True)
    return path


def pack_path(app: Flask, tid: str, round_number: int) -> Path:
    return pack_dir(app) / f"{tid}-round-{round_number}.pdf"


def status(app: Flask, tid: str, round_number: int) -> str:
    """'ready', 'building' (with progress) or 'missing'."""
    if pack_path(app, tid, round_number).exists():
        return "ready"
    progress = pack_path(app, tid, round_number).with_suffix(".progress")
    if progress.exists():
        return f"building: {progress.read_text().strip()}"
    return "building" if f"{tid}-{round_number}" in _building else "missing"


def start(app: Flask, tid: str, round_number: int, base_url: str) -> None:
    """Build the pack in the heavy pool, unless it exists or is being built (companion.heavy.Busy when full)."""
    job = f"{tid}-{round_number}"
    with _lock:
        if job in _building or pack_path(app, tid, round_number).exists():
            return
        _building.add(job)
    try:
        app.extensions["courtier.heavy"].submit(_build, app, tid, round_number, base_url)
    except Exception:
        with _lock:
            _building.discard(job)
        raise


def pack_documents(app: Flask, tid: str, round_number: int, base_url: str) -> list[str]:
    """One page per table, as HTML: the game's own blank sheet with the table's players in
    seat order, headed with the tournament, round and table, and its edit link as a QR code."""
    db = connect(app.config["DATABASE"])
    try:
        t = store.get(db, tid)
        documents: list[str] = []
        seats = [s for s in store.seated(db, tid) if s.round == round_number]
        for seat in seats:
            table = tables.get_table(db, seat.table_id)
            with app.test_request_context(base_url=base_url):
                edit = url_for("tables.show", table_id=table.id, key=table.edit_key, _external=True)
            documents.append(sheets.html_for_blank(
                table.game, table.players, heading=f"{t.title} · Round {round_number} · Table {seat.number}",
                link=edit))
    finally:
        db.conn.close()
    return documents


def render_pack(documents: list[str], progress_file: str) -> bytes:
    """The pack's PDF, saying how far it has got in ``progress_file`` (run in a worker process)."""
    def progress(done: int, total: int) -> None:
        Path(progress_file).write_text(f"{done} of {total} tables laid out")

    return sheets.pdf_from_documents(documents, progress)


def _build(app: Flask, tid: str, round_number: int, base_url: str) -> None:
    target = pack_path(app, tid, round_number)
    progress_file = target.with_suffix(".progress")
    try:
        documents = pack_documents(app, tid, round_number, base_url)
        partial = target.with_suffix(".part")
        pdf = app.extensions["courtier.heavy"].in_process(render_pack, documents, str(progress_file))
        partial.write_bytes(pdf)
        partial.replace(target)  # atomic: a reader sees the whole file or none
    except Exception:
        app.logger.exception("building pack %s round %s", tid, round_number)
    finally:
        progress_file.unlink(missing_ok=True)
        with _lock:
            _building.discard(f"{tid}-{round_number}")
