"""Every public page and file costs a bounded amount: a long history is read a page at a time, a sheet's
refusal and the standings' PDF are worked out once a version, an ``Accept-Language`` is read from a
bounded prefix, and a table is bounded in bytes and in how fast it is written."""

from __future__ import annotations

import re

import pytest

from companion.paper import sheets
from companion.storage import tables
from companion.storage.db import borrowed
from companion.web import language

from .test_bounds import imported_table, long_indian_rummy
from .test_tables_api import TABLES, bearer

pytestmark = pytest.mark.one_database  # pages, caches and counts: the same on either database

WHY = ("The word was looked up in the default list and in the table's house words, and found in neither. " * 6)[:500]
NOTE = ("Spilled a drink on the table, the cards were dried and the deal went on as it stood; " * 8)[:500]
WORDS = ["Cr Ar Lr Mr", "Pb Eb Ab Lb", "Mr Ar Cr Er", "Pb Ab Rb Kb"]
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def turn(n: int, judged: bool = True) -> dict:
    """Turn ``n`` of a Royalty game: a meld, a 500-character note and, with ``judged``, the word judge's log
    as full as the limits allow (four verdicts, each a 500-character why and eight such warnings)."""
    made = {"player": PLAYERS[n % 4], "meld": WORDS[n % 4], "note": NOTE}
    if judged:
        made["judged"] = [{"word": "CALM", "valid": True, "why": WHY, "warnings": [WHY] * 8} for _ in range(4)]
    return made


def stored_royalty(app, turns: int, judged: bool = True) -> str:
    """A Royalty table of ``turns`` turns written straight to its log; its view address."""
    with borrowed(app) as db:
        table = tables.create_table(db, "royalty", PLAYERS, {}, rounds=[turn(n, judged) for n in range(turns)])
    return f"/t/{table.id}"


def _older(page: str) -> str | None:
    found = re.search(r'rel="next" href="([^"]+)"', page)
    return found.group(1).replace("&amp;", "&") if found else None


# The history, a page at a time ---------------------------------------------------------------------------


def test_a_500_turn_royalty_history_is_read_a_bounded_page_at_a_time_newest_first(make_app):
    # Caches large enough to keep the table scored: each page's own cost is what is looked at here.
    app = make_app(WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False, CACHE_BYTES=1024 ** 3)
    client = app.test_client()
    table = stored_royalty(app, 500)
    address, seen, sizes = f"{table}/history", [], []
    while address:
        response = client.get(address)
        assert response.status_code == 200
        page = response.get_data(as_text=True)
        sizes.append(len(response.data))
        seen.extend(int(n) for n in re.findall(r'id="change-(\d+)"', page))
        if len(sizes) == 1:  # the newest first, its JSON a tap away as before
            assert seen[0] == 500 and "Show the JSON" in page and 'rel="prev"' not in page
        address = _older(page)
        assert len(sizes) < 100
    # Each change once, newest first; each turn's JSON is about 19 KB, so a page holds ten of them, not 50.
    assert seen == list(range(500, 0, -1))
    assert max(sizes) < 512 * 1024, max(sizes)  # the whole history was 10 MB on one page
    assert len(sizes) == 50, len(sizes)
    last = client.get(f"{table}/history?before=11").get_data(as_text=True)
    assert "Changes #10 to #1 of 500, newest first." in last and _older(last) is None
    assert 'rel="prev" href="/t/' in last


def test_a_real_game_pages_its_history_by_fifty_with_newer_and_older_links(app, client):
    table = stored_royalty(app, 60, judged=False)
    first = client.get(f"{table}/history").get_data(as_text=True)
    assert "Changes #60 to #11 of 60, newest first." in first and len(re.findall(r'id="change-', first)) == 50
    assert _older(first) == f"{table}/history?before=11" and 'rel="prev"' not in first
    second = client.get(_older(first)).get_data(as_text=True)
    assert "Changes #10 to #1 of 60, newest first." in second and _older(second) is None
    assert f'rel="prev" href="{table}/history"' in second  # back to the newest page, no ?before
    short = stored_royalty(app, 3, judged=False)
    page = client.get(f"{short}/history").get_data(as_text=True)
    assert len(re.findall(r'id="change-', page)) == 3 and "Changes #" not in page  # one page: no links
    assert client.get(f"{table}/history?before=0").status_code == 404


def test_a_paged_history_tells_an_undo_in_the_words_of_the_change_it_took_back(app, client):
    view, edit = _api_royalty(client)
    for n in range(55):
        assert _add(client, edit, turn(n, judged=False), n).status_code == 201
    undone = client.post(f"{TABLES}/{edit['id']}/undo", json={"base_version": 55}, headers=bearer(edit["edit_key"]))
    assert undone.status_code == 200, undone.get_json()
    newest = client.get(f"/t/{edit['id']}/history").get_data(as_text=True)
    assert "Turn 55 taken back" in newest
    # Turn 55, on the first page, is told as undone by change #56 though the page was told alone.
    assert "then taken back (change #56)" in newest


# A sheet's refusal and the standings' PDF, worked out once a version ----------------------------------------


def test_a_sheet_too_long_to_print_is_refused_again_without_being_worked_out_again(make_app, monkeypatch):
    app = make_app(WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False, SHEET_SECONDS=1.5)
    client = app.test_client()
    table = imported_table(client, long_indian_rummy(60))  # estimated at 1.7 s of drawing
    built, real = [], sheets.html_for_filled
    monkeypatch.setattr(sheets, "html_for_filled", lambda *a, **k: built.append(1) or real(*a, **k))
    monkeypatch.setattr(sheets, "pdf_from_html", lambda html: pytest.fail("the sheet was drawn"))
    answers = [client.get(f"{table}/sheet.pdf") for _ in range(3)]
    assert [a.status_code for a in answers] == [413, 413, 413]
    assert all("too long to print" in a.get_data(as_text=True) and "60 deals" in a.get_data(as_text=True)
               for a in answers)
    assert len(built) == 1  # worked out once; the two after it from the cache
    french = client.get(f"{table}/sheet.pdf", headers={"Accept-Language": "fr"})
    assert french.status_code == 413 and "60 donnes" in french.get_data(as_text=True)


def _tournament(client) -> tuple[str, str]:
    data = {"title": "Friday club", "game": "rally-the-king", "entrants": "\n".join(f"P{n}" for n in range(8)),
            "rounds": "3", "method": "round-robin"}
    response = client.post("/tournaments/new", data=data)
    assert response.status_code == 303
    tour, key = response.headers["Location"].split("?key=")
    assert client.post(f"{tour}/rounds?key={key}", data={"round": "1"}).status_code == 303
    return tour, key


def test_the_standings_pdf_is_drawn_once_a_version_of_the_tournament(app, client, monkeypatch):
    tour, key = _tournament(client)
    pool = app.extensions["courtier.heavy"]
    drawn, real = [], pool.in_process
    monkeypatch.setattr(pool, "in_process", lambda fn, *a: drawn.append(fn) or real(fn, *a))
    first = client.get(f"{tour}/standings.pdf")
    again = client.get(f"{tour}/standings.pdf")
    assert first.status_code == again.status_code == 200 and first.data.startswith(b"%PDF")
    assert again.data == first.data and drawn == [sheets.pdf_from_html]
    unchanged = client.get(f"{tour}/standings.pdf", headers={"If-None-Match": first.headers["ETag"]})
    assert unchanged.status_code == 304 and drawn == [sheets.pdf_from_html]
    assert client.get(f"{tour}/standings.pdf?paper=letter").status_code == 200 and len(drawn) == 2
    assert client.post(f"{tour}/rounds/1/call?key={key}").status_code == 303  # time called: a new version
    called = client.get(f"{tour}/standings.pdf")
    assert called.status_code == 200 and len(drawn) == 3 and called.headers["ETag"] != first.headers["ETag"]
    assert client.get(f"{tour}/standings.pdf").status_code == 200 and len(drawn) == 3


# A header read from a bounded prefix -------------------------------------------------------------------


def test_a_250_kb_accept_language_is_answered_and_read_from_its_first_500_bytes(speaking_app, monkeypatch):
    parsed, real = [], language.parse_accept_header
    monkeypatch.setattr(language, "parse_accept_header", lambda value, cls: parsed.append(value) or real(value, cls))
    client = speaking_app.test_client()
    filler = ",".join(f"x-{n:06d};q=0.1" for n in range(250_000 // 15 + 1))
    assert len(filler) > 250_000
    for address in ("/healthz", "/static/css/app.css", "/"):
        french_first = client.get(address, headers={"Accept-Language": f"fr;q=0.9,{filler}"})
        french_first.close()  # a static file is sent from its open file
        assert french_first.status_code == 200
    assert 'lang="fr"' in french_first.get_data(as_text=True)
    hindi_late = client.get("/", headers={"Accept-Language": f"{filler},hi"})  # beyond the part read
    assert hindi_late.status_code == 200 and 'lang="en"' in hindi_late.get_data(as_text=True)
    assert len(parsed) == 4
    assert all(len(value) <= 500 and value.count(",") < 20 for value in parsed), [len(v) for v in parsed]
    assert parsed[0].startswith("fr;q=0.9,x-000000;q=0.1,") and parsed[0].count(",") == 19
    assert client.get("/", headers={"Accept-Language": "hi, en;q=0.5"}).get_data(as_text=True).count('lang="hi"')


# A table bounded in bytes, and in how fast it is written --------------------------------------------------


def _api_royalty(client) -> tuple[str, dict]:
    made = client.post(TABLES, json={"game": "royalty", "players": PLAYERS})
    assert made.status_code == 201, made.get_json()
    body = made.get_json()
    return f"/t/{body['id']}", body


def _add(client, table: dict, data: dict, base: int, **headers):
    return client.post(f"{TABLES}/{table['id']}/rounds", json={"round": data, "base_version": base},
                       headers={**bearer(table["edit_key"]), **headers})


@pytest.mark.parametrize("spoken,says", [
    ("en", "This table is full: it keeps at most 1 MB of rounds, notes and the word judge's logs"),
    ("fr", "Cette table est pleine"),
    ("hi", "यह मेज़ भर चुकी है"),
])
def test_a_save_past_the_tables_bytes_is_refused_in_words_and_an_undo_still_goes_through(make_app, spoken, says):
    app = make_app(WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False, LANGUAGES="fr hi", TABLE_BYTES=1024 * 1024)
    client = app.test_client()
    _, table = _api_royalty(client)
    # Each turn keeps 18,924 bytes: 55 of them are 1,040,820 bytes, and a 56th would pass 1,048,576.
    for n in range(55):
        assert _add(client, table, turn(n), n).status_code == 201
    refused = _add(client, table, turn(55), 55, **{"Accept-Language": spoken})
    assert refused.status_code == 413
    assert says in refused.get_json()["errors"][0]["message"], refused.get_json()
    assert client.get(f"{TABLES}/{table['id']}", headers=bearer(table["edit_key"])).get_json()["version"] == 55
    small = _add(client, table, {"player": "Dan", "pass": True}, 55)  # 31 bytes still fit
    assert small.status_code == 201
    taken_back = client.post(f"{TABLES}/{table['id']}/undo", json={"base_version": 56},
                             headers=bearer(table["edit_key"]))
    assert taken_back.status_code == 200


def test_a_table_written_faster_than_the_rate_is_refused_in_words_a_view_key_spending_none_of_it(make_app):
    app = make_app(WTF_CSRF_ENABLED=False, WRITE_RATE="3 per minute", CREATE_RATE="100 per minute")
    client = app.test_client()
    _, table = _api_royalty(client)
    _, other = _api_royalty(client)
    for n in range(5):  # a view key's writes are refused before they are counted
        sent = client.post(f"{TABLES}/{table['id']}/rounds", json={"round": turn(n, False), "base_version": 0},
                           headers=bearer(table["view_key"]))
        assert sent.status_code == 403
    for n in range(3):
        assert _add(client, table, turn(n, False), n).status_code == 201
    refused = _add(client, table, turn(3, False), 3)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "60"
    assert refused.get_json()["errors"][0]["message"] == (
        "This table has taken a great many changes in a short time. Nothing was stored. Wait a minute and save "
        "again.")
    french = _add(client, table, turn(3, False), 3, **{"Accept-Language": "fr"})
    assert french.status_code == 429 and "Rien n'a été enregistré" in french.get_json()["errors"][0]["message"]
    assert _add(client, other, turn(0, False), 0).status_code == 201  # another table has its own count
