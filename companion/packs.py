"""Round packs for a tournament: one printed page per table, built off the request path.

A pack for 20 tables takes seconds to render, so no phone waits on it: the
first request starts a background thread that writes the PDF under
instance/packs/, and the page polls until it is there. A pack is rebuilt only
when it does not exist yet.
"""

from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import Any

import segno
from flask import Flask, render_template, url_for

from . import PROJECT_ROOT, tables, tournament_store
from .db import connect

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
    """Build the pack in a background thread, unless it exists or is being built."""
    job = f"{tid}-{round_number}"
    with _lock:
        if job in _building or pack_path(app, tid, round_number).exists():
            return
        _building.add(job)
    threading.Thread(target=_build, args=(app, tid, round_number, base_url), daemon=True).start()


def qr_svg(text: str) -> str:
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=3, border=1, xmldecl=False, svgns=True)
    return out.getvalue().decode()


def pack_html(app: Flask, tid: str, round_number: int, base_url: str, progress=None) -> str:
    db = connect(app.config["DATABASE"])
    try:
        t = tournament_store.get(db, tid)
        pages: list[dict[str, Any]] = []
        seats = [s for s in tournament_store.seated(db, tid) if s.round == round_number]
        for i, seat in enumerate(seats, 1):
            table = tables.get_table(db, seat.table_id)
            with app.test_request_context(base_url=base_url):
                edit = url_for("tables.show", table_id=table.id, key=table.edit_key, _external=True)
            pages.append({"number": seat.number, "entrants": seat.entrants, "players": table.players,
                          "edit": edit, "qr": qr_svg(edit)})
            if progress:
                progress(i, len(seats))
    finally:
        db.conn.close()
    with app.app_context():
        return render_template("packs/round.html", t=t, round_number=round_number, pages=pages,
                               css=(PROJECT_ROOT / "scoresheets" / "print.css").read_text()
                               if (PROJECT_ROOT / "scoresheets" / "print.css").exists() else "")


def render_pdf(html: str) -> bytes:
    from weasyprint import HTML

    return HTML(string=html, base_url=str(PROJECT_ROOT)).write_pdf()


def _build(app: Flask, tid: str, round_number: int, base_url: str) -> None:
    target = pack_path(app, tid, round_number)
    progress_file = target.with_suffix(".progress")
    try:
        def progress(done: int, total: int) -> None:
            progress_file.write_text(f"{done} of {total} tables laid out")

        html = pack_html(app, tid, round_number, base_url, progress)
        progress_file.write_text("rendering the PDF")
        partial = target.with_suffix(".part")
        partial.write_bytes(render_pdf(html))
        partial.replace(target)  # atomic: a reader sees the whole file or none
    except Exception:
        app.logger.exception("building pack %s round %s", tid, round_number)
    finally:
        progress_file.unlink(missing_ok=True)
        with _lock:
            _building.discard(f"{tid}-{round_number}")
