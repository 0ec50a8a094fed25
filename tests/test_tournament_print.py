"""A tournament on paper: round packs and standings on A4 and Letter. Each table's page of a pack,
rendered at 100 dpi as a cheap printer or a phone's camera sees it, gives back that table's
edit link from its QR code."""

from __future__ import annotations

import base64
import io
import random
import re
import shutil
import subprocess
import time

import pytest
from pypdf import PdfReader

from companion.paper import sheets
from companion.storage import tables
from companion.storage.db import borrowed
from companion.tournaments import packs, store

from .test_tournament_director import PLAYERS, create, edit_links, enter_deal, seat

#: Rendering packs and standings: the same work on either database, and the tables they print are
#: stored and read on both by test_tournaments_web and test_tournament_director.
pytestmark = pytest.mark.one_database
cv2 = pytest.importorskip("cv2")
PAGE_POINTS = {"a4": (595, 842), "letter": (612, 792)}


def png_pages(pdf: bytes, tmp_path, dpi: int = 100) -> list:
    """The PDF's pages as images (poppler's pdftoppm), for OpenCV."""
    if not shutil.which("pdftoppm"):
        pytest.skip("poppler-utils (pdftoppm) is not installed")
    source = tmp_path / "in.pdf"
    source.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(source), str(tmp_path / "page")], check=True)
    return [cv2.imread(str(p)) for p in sorted(tmp_path.glob("page-*.png"))]


def size_in_points(page) -> tuple[int, int]:
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    return round(min(width, height)), round(max(width, height))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_table_page_of_a_pack_gives_back_its_edit_link(client, app, tmp_path, paper, monkeypatch):
    # The tables' ids and keys from a fixed seed: a run reads the same codes as the last, never a new draw
    # (tests/test_paper.py reads 50 more links drawn from a seed of its own).
    draw = random.Random(f"pack-{paper}")
    monkeypatch.setattr(tables.secrets, "token_urlsafe",
                        lambda n: base64.urlsafe_b64encode(draw.randbytes(n)).rstrip(b"=").decode())
    tour, key = create(client, **{"opt-variant": "pool101"})
    seat(client, tour, key, 1)
    links = {f"{table}?key={table_key}" for table, table_key in edit_links(client, tour, key, 1)}
    tid = tour.rsplit("/", 1)[1]
    documents = packs.pack_documents(app, tid, 1, "http://club.example/", paper)
    pdf = sheets.pdf_from_documents(documents)
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 4  # the seating list, then three tables
    assert all(size_in_points(p) == tuple(sorted(PAGE_POINTS[paper])) for p in reader.pages)
    seating = reader.pages[0].extract_text()
    assert "round 1 of 3 seating" in seating and "Ann · Ben · Cat" in seating
    detector = cv2.QRCodeDetector()
    found = set()
    for number, image in enumerate(png_pages(pdf, tmp_path, dpi=150)[1:], 1):
        text, points, _ = detector.detectAndDecode(image)
        assert text, f"no QR code read on table {number}'s page"
        assert text.startswith("http://club.example/t/")
        found.add(text.removeprefix("http://club.example"))
        # At least 25 mm of modules: the corners OpenCV found, at 150 dpi (5.91 px a mm).
        side = float(abs(points[0][1][0] - points[0][0][0])) / (150 / 25.4)
        assert side >= 25, f"the QR code is {side:.1f} mm across"
        flat = re.sub(r"\s", "", reader.pages[number].extract_text())
        assert f"Table{number}" in flat and "Round1of3" in flat and "Variant:Poolrummy(101)" in flat
    assert found == links  # every table's own edit link, each once


def test_the_pack_page_and_file_follow_the_paper(client, app):
    tour, key = create(client)
    seat(client, tour, key, 1)
    page = client.get(f"{tour}/rounds/1/pack?key={key}&paper=letter").get_data(as_text=True)
    assert "Letter" in page
    assert client.get(f"{tour}/rounds/1/pack?key={key}&paper=a3").status_code == 404
    tid = tour.rsplit("/", 1)[1]
    for _ in range(600):
        if packs.pack_path(app, tid, 1, "letter").exists():
            break
        time.sleep(0.1)
    response = client.get(f"{tour}/rounds/1/pack.pdf?key={key}&paper=letter")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == 'attachment; filename="Club night-round-1-letter.pdf"'
    with PdfReader(io.BytesIO(response.data)) as reader:
        assert size_in_points(reader.pages[0]) == (612, 792)
    response.close()


def test_progress_only_moves_forward(app, client, monkeypatch):
    tour, key = create(client)
    seat(client, tour, key, 1)
    tid = tour.rsplit("/", 1)[1]
    notes: list[str] = []
    real_write = type(packs.pack_path(app, tid, 1)).write_text

    def record(path, text, *args, **kwargs):
        if path.suffix == ".progress":
            notes.append(text)
        return real_write(path, text, *args, **kwargs)

    monkeypatch.setattr(type(packs.pack_path(app, tid, 1)), "write_text", record)
    heavy = app.extensions["courtier.heavy"]
    monkeypatch.setattr(heavy, "in_process", lambda fn, *args: fn(*args))  # the layout's progress, seen here
    packs._building.add(f"{tid}-1-a4")
    packs._build(app, tid, 1, "http://club.example/", "a4")
    percents = [int(n.split("%")[0]) for n in notes]
    assert percents == sorted(percents) and percents[-1] == 90 and notes[-1] == "90% · writing the PDF file"
    assert any("preparing sheet 3 of 3" in n for n in notes) and any("laying out page" in n for n in notes)
    assert packs.status(app, tid, 1) == "ready"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_standings_sheet_lists_everyone_round_by_round_with_a_time_stamp_and_page_numbers(
        client, app, tmp_path, paper):
    tour, key = create(client, **{"opt-variant": "pool101"})
    seat(client, tour, key, 1)
    (t1, k1), *_ = edit_links(client, tour, key, 1)
    enter_deal(client, t1, k1, [80, 30])
    client.post(f"{tour}/rounds/1/call?key={key}")
    seat(client, tour, key, 2)
    response = client.get(f"{tour}/standings.pdf?paper={paper}")
    assert response.status_code == 200
    reader = PdfReader(io.BytesIO(response.data))
    assert size_in_points(reader.pages[0]) == tuple(sorted(PAGE_POINTS[paper]))
    text = "\n".join(p.extract_text() for p in reader.pages)
    for name in PLAYERS:
        assert name in text
    assert "Round 1" in text and "Round 2" in text and "page 1 of" in text
    assert re.search(r"standings at \d{4}-\d\d-\d\d \d\d:\d\d UTC", text)
    assert "Time called" in text and "lowest count first (IR-9)" in text
    assert "1st · 2 mp" in text and "†" in text  # Ann at the table time was called on
    assert "playing" in text  # round 2 has started, nothing entered
    with borrowed(app) as db:
        assert store.called_rounds(db, tour.rsplit("/", 1)[1]).keys() == {1}
    if paper == "letter":  # kept for looking at
        (tmp_path / "standings.pdf").write_bytes(response.data)


def test_right_to_left_names_keep_their_order_in_the_standings_lists(client, app):
    """"Cat, محمد, דוד" prints in that order, each name isolated, not as "Cat, דוד ,محمد"."""
    from .pdf_checks import words

    entrants = ["Cat", "محمد", "דוד", "Eve", "Fay", "Gus"]
    tour, key = create(client, entrants=entrants, **{"opt-variant": "pool101"})
    seat(client, tour, key, 1)
    with borrowed(app) as db:
        tables = store.round_tables(db, tour.rsplit("/", 1)[1], 1)
    response = client.get(f"{tour}/standings.pdf?paper=letter")
    assert response.status_code == 200
    found = words(response.data)
    for table in tables:
        label = next(w for n, w in enumerate(found) if w.text == f"{table.number}:" and found[n - 1].text == "table")
        line = sorted((w for w in found if w.page == label.page and abs(w.y0 - label.y0) < 2 and w.x0 > label.x0),
                      key=lambda w: w.x0)
        shown = [w.text.strip(",()") for w in line][:len(table.entrants)]
        # poppler gives an Arabic word's letters as drawn, right to left: the order of the names is the point
        assert [name if name in (word, word[::-1]) else word for word, name in zip(shown, table.entrants,
                                                                                   strict=True)] == list(table.entrants)


def test_a_thai_name_breaks_between_its_words_never_inside_one(client, app):
    """Thai writes no space between words, and Pango breaks a line at the dictionary's word boundaries: a
    name too wide for its column broke inside its surname ("ประเสริฐ|วงศ์ตระกูล"). Each of a name's words
    is kept whole (sheets.unbroken): the name wraps at its space, in the standings and in the tables' list."""
    from .pdf_checks import words

    names = ["มหาสมบูรณ์เจริญทรัพย์ ประเสริฐวงศ์ตระกูล", "สมชาย ใจดี"]
    tour, key = create(client, entrants=[*names, "Ann", "Ben", "Cat", "Dan"], **{"opt-variant": "pool101"})
    seat(client, tour, key, 1)
    response = client.get(f"{tour}/standings.pdf?paper=letter")
    assert response.status_code == 200
    lines: dict[tuple[int, int], list] = {}
    for word in words(response.data):
        if any("\u0e00" <= c <= "\u0e7f" for c in word.text):
            lines.setdefault((word.page, round(word.y0)), []).append(word)
    whole = "|".join(word for name in names for word in name.split())
    # a shaped line (Thai) reads back as set, spaces and all (paper/text_layer.py): its words are what counts
    printed = ["".join(w.text.replace(" ", "").strip(",()") for w in sorted(line, key=lambda w: w.x0))
               for line in lines.values()]
    assert len(printed) >= 3  # the long name on two lines in the standings, then the tables' list
    assert all(re.fullmatch(f"(?:{whole})+", text) for text in printed), printed
