"""Every request's cost bounded: a long game's sheet printed compactly, a sheet too long to draw
refused before the drawing starts, and a sheet waiting behind another answered "busy" within 2 s."""

from __future__ import annotations

import json
import re
import threading
import time
from io import BytesIO

import pytest
from pypdf import PdfReader

from companion import create_app
from companion.core import limits
from companion.games import score
from companion.paper import long_sheets, sheets
from companion.web import heavy

from .test_print_matrix import _bench


def long_indian_rummy(deals: int) -> dict:
    """bench/run.py's long night of points rummy at nine: the bench times its 200-deal sheet."""
    return _bench().long_indian_rummy(deals)


def ledger_figures(html: str) -> list[list[str]]:
    """Each ledger line of a compact sheet, split into its figures (the round's number first)."""
    lines = re.findall(r'<div class="ledger">(.*?)</div>', html, re.S)[0]
    rows = re.findall(r"<p(?: class=\"fifth\")?>([^<]*)</p>", lines)
    return [[cell for part in row.split("│") for cell in part.split()] for row in rows]


def test_a_long_game_prints_every_round_in_a_ledger_and_a_paragraph_of_why():
    game = long_indian_rummy(60)
    scored = score(game)
    full = sheets.html_for_filled(scored, "Long night", rounds=game["rounds"], compact=False)
    assert long_sheets.estimate_seconds(full) > long_sheets.COMPACT_ABOVE_SECONDS
    html = sheets.html_for_filled(scored, "Long night", rounds=game["rounds"])
    assert "How to read a deal" in html and '<table class="grid">' not in html
    rows = ledger_figures(html)
    assert [row[0] for row in rows] == [str(n) for n in range(1, 61)]
    for row, deal in zip(rows, scored.rounds, strict=True):
        # Each player's two figures, in seat order: what the deal gave (signed) and the total after it.
        figures = [(row[1 + 2 * i], row[2 + 2 * i]) for i in range(9)]
        assert [points for points, _ in figures] == [sheets.signed(deal.points[p]) for p in scored.players]
    assert [total for total in rows[-1][2::2]] == [sheets.number(scored.totals[p]) for p in scored.players]
    # Every deal's why is there, in one paragraph, with each player's hand.
    whys = re.findall(r'<p class="why-round"><b>(Deal \d+)[^<]*</b>([^<]*)</p>', html)
    assert [head for head, _ in whys] == [f"Deal {n}" for n in range(1, 61)]
    first = scored.rounds[0].detail["players"]
    loser = next(p for p, d in first.items() if d["entry"] == "cards" and not d["lives"])
    assert f"{loser}: no life, all count: {' '.join(first[loser]['loose'])} = {first[loser]['raw']}" in whys[0][1]

    pdf = sheets.pdf_from_html(html)
    text = "\n".join(page.extract_text() for page in PdfReader(BytesIO(pdf)).pages)
    assert "Deal 60" in text and "IR-6" in text
    assert len(PdfReader(BytesIO(pdf)).pages) <= 8


def test_a_short_game_keeps_its_full_layout():
    game = long_indian_rummy(6)
    html = sheets.html_for_filled(score(game), "Short night", rounds=game["rounds"])
    assert '<table class="grid">' in html and 'class="ledger"' not in html


def test_the_largest_sheet_fits_the_budget_and_a_longer_game_is_refused_before_drawing():
    budget = limits.get("SHEET_SECONDS")
    game = long_indian_rummy(200)
    html = sheets.html_for_filled(score(game), "Long night", rounds=game["rounds"], budget=budget)
    assert long_sheets.estimate_seconds(html) < budget
    longer = long_indian_rummy(500)
    with pytest.raises(long_sheets.SheetTooLong) as refused:
        sheets.html_for_filled(score(longer), "Long night", rounds=longer["rounds"], budget=budget)
    assert "500 deals" in refused.value.message and "export" in refused.value.message


@pytest.fixture
def tight_app(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "x",
                      "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False, "SHEET_SECONDS": 1.5})
    yield app
    limits.configure({})


def imported_table(client, body: dict) -> str:
    response = client.post("/import", data={"text": json.dumps(body)})
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].split("?")[0]


def test_a_sheet_too_long_to_draw_is_refused_at_once_in_words(tight_app, monkeypatch):
    client = tight_app.test_client()
    table = imported_table(client, long_indian_rummy(60))  # estimated at 1.7 s of drawing
    monkeypatch.setattr(sheets, "pdf_from_html", lambda html: pytest.fail("the sheet was drawn"))
    response = client.get(f"{table}/sheet.pdf")
    assert response.status_code == 413
    page = response.get_data(as_text=True)
    assert "too long to print" in page and "60 deals" in page and "at most 1.5 seconds" in page
    assert "None" not in page and "SheetTooLong" not in page


def test_a_job_waiting_behind_another_is_dropped_after_the_wait():
    pool = heavy.Pool(1, 4, wait=0.2)
    release = threading.Event()
    running = pool.submit(release.wait)
    ran = []
    with pytest.raises(heavy.Busy):
        pool.run(ran.append, "the waiting job")
    release.set()
    assert running.result(5) is True
    assert pool.run(lambda: 7) == 7 and ran == []  # dropped, never run; its slot came back


def test_a_second_sheet_is_answered_503_within_2_s_while_the_pool_is_full(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "b.sqlite"), "SECRET_KEY": "x",
                      "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False})  # the defaults: 1 worker, 4 waiting
    client = app.test_client()
    table = imported_table(client, long_indian_rummy(3))
    release = threading.Event()
    app.extensions["courtier.heavy"].submit(release.wait)  # a sheet being drawn
    try:
        started = time.perf_counter()
        response = client.get(f"{table}/sheet.pdf")
        waited = time.perf_counter() - started
        assert response.status_code == 503 and response.headers["Retry-After"] == str(limits.get("RETRY_AFTER"))
        assert "busy" in response.get_data(as_text=True)
        # The sheet in the pool never ends until released: an answer at all is one that did not wait for it
        # (the pool's wait, HEAVY_WAIT, is 2 s; the margin is for a loaded machine, never a sheet's time).
        assert waited < limits.get("HEAVY_WAIT") + 10, waited
    finally:
        release.set()
        limits.configure({})


# A table's house word list, read once per table version ----------------------------------------------


def house_words(count: int) -> list[str]:
    """``count`` different words of letters A to Z, as a club's house list would hold (RY-17)."""
    import itertools
    import string

    return ["".join(letters) for letters in itertools.islice(itertools.product(string.ascii_uppercase, repeat=4),
                                                             count)]


@pytest.fixture
def royalty_tables(app):
    from companion.storage import tables
    from companion.storage.db import get_db

    turn = [{"player": "Ann", "meld": "Cr Ar Lr Mr"}]
    with app.app_context():
        plain = tables.create_table(get_db(), "royalty", ["Ann", "Ben"], {}, rounds=turn)
        listed = tables.create_table(get_db(), "royalty", ["Ann", "Ben"],
                                     {"house_allow": house_words(limits.get("MAX_WORDS"))}, rounds=turn)
    return plain, listed


def test_a_long_house_list_is_read_and_checked_once_per_table_version(app, client, royalty_tables, monkeypatch):
    from companion import games

    _, listed = royalty_tables
    scored = []  # the game scored whole, or a fold started: each reads and checks the options (RY-17)
    real_score, real_start = games.score, games.start
    monkeypatch.setattr(games, "score", lambda request, **kw: scored.append("scored") or real_score(request, **kw))
    monkeypatch.setattr(games, "start", lambda request, **kw: scored.append("started") or real_start(request, **kw))
    board = client.get(f"/t/{listed.id}/board")
    assert board.status_code == 200
    for _ in range(5):
        assert client.get(f"/t/{listed.id}/board", headers={"If-None-Match": board.headers["ETag"]}).status_code == 304
        assert client.get(f"/t/{listed.id}/board").status_code == 200
        assert client.get(f"/t/{listed.id}").status_code == 200
        judged = client.get(f"/referee/royalty/judge?word=AAAB&table={listed.id}").get_data(as_text=True)
        assert "AAAB" in judged and "house" in judged.lower()
    assert len(scored) == 1  # scored (and its 200,000 words checked) once, for its one version


def test_a_board_poll_on_a_table_with_a_200000_word_list_costs_what_it_costs_on_any_other(client, royalty_tables):
    plain, listed = royalty_tables

    def poll_cost(table) -> float:
        """The least CPU time of one poll (an unchanged board, 304) over a few runs of 50."""
        etag = client.get(f"/t/{table.id}/board").headers["ETag"]
        runs = []
        for _ in range(5):
            started = time.process_time()
            for _ in range(50):
                client.get(f"/t/{table.id}/board", headers={"If-None-Match": etag})
            runs.append((time.process_time() - started) / 50)
        return min(runs)

    poll_cost(plain), poll_cost(listed)  # both warm
    ratio = poll_cost(listed) / poll_cost(plain)
    assert ratio < 2, f"a poll on the listed table costs {ratio:.1f}x one on a plain table"


# Memory after the caches' owners are gone ---------------------------------------------------------------


def multipart(fields: dict[str, str], name: str, filename: str, data: bytes) -> tuple[bytes, str]:
    boundary = "courtier-bounds-test"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
             for k, v in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                 "Content-Type: application/gzip\r\n\r\n".encode() + data + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def test_refused_uploads_of_a_430000_word_list_leave_the_memory_where_it_was(tmp_path):
    import gzip
    import http.client
    import itertools
    import string

    from tests.test_server import Served

    words = "\n".join("".join(w) for w in itertools.islice(itertools.product(string.ascii_lowercase, repeat=5),
                                                            430_000))
    body, content_type = multipart({"seat1": "Ann", "seat2": "Ben", "opt-variant": "standard",
                                    "opt-coalitions": ""}, "opt-word_file", "club.txt.gz",
                                   gzip.compress(words.encode()))
    assert len(body) < 1_000_000  # under the request limit: it is read, and refused for its words
    server = Served(tmp_path)
    try:
        server.request("GET", "/new/royalty")
        before = server.rss_mb()
        for _ in range(3):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=180)
            try:
                conn.request("POST", "/new/royalty", body=body, headers={"Content-Type": content_type})
                response = conn.getresponse()
                page = response.read().decode()
            finally:
                conn.close()
            assert response.status == 422 and "at most 200,000 words; this one has 430,000" in page
        after = server.rss_mb()
    finally:
        server.stop()
    print(f"server RSS: {before:.0f} MB before, {after:.0f} MB after three refused 430,000-word uploads")
    assert after - before < 50, (before, after)
