"""Attacks on the web app: headers, inline code, CSRF, edit keys, XSS, CSV injection,
open redirects, oversized bodies and the append-only log.

Each test plays the attacker and then checks what actually happened: the status, and
whether anything was written (the table's history, the database, a cookie).
"""

from __future__ import annotations

import csv
import io
import json
import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from markupsafe import escape

from companion.storage import db
from tests.conftest import csrf_token, new_table

MB = 1024 * 1024

#: Player names are at most 40 characters, so the classic payloads are trimmed to fit.
HOSTILE_NAMES = ("<script>alert(1)", '"><img src=x onerror=1>', "<svg/onload=alert(1)>")
HOSTILE_NOTE = '<script>alert(1)</script>"><img src=x onerror=alert(1)>'
HOSTILE_TITLE = '<script>alert(1)</script>"><img src=x onerror=alert(1)>'
HOSTILE_DEVICE = "<script>alert(1)</script><b onclick=1>"


# ---------------------------------------------------------------------------------------
# Helpers


class Inspector(HTMLParser):
    """Collects everything in a page that would run code or style inline."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}={value!r}> (event handler attribute)")
            if name == "style":
                self.problems.append(f"<{tag} style={value!r}> (inline style)")
            if name in ("href", "src", "action", "formaction") and (value or "").strip().lower().startswith(
                    "javascript:"):
                self.problems.append(f"<{tag} {name}={value!r}> (javascript: URL)")
        if tag == "script":
            self.in_script = True
            if not attributes.get("src"):
                self.problems.append("<script> without src")
        if tag == "style":
            self.problems.append("<style> element (inline style)")
        if tag == "img" and attributes.get("src") == "x":
            self.problems.append("<img src=x> injected")
        # The running-totals chart and its legend's line samples are ours (chart.py), and carry no names.
        if tag == "svg" and attributes.get("class") not in ("chart", "swatch"):
            self.problems.append("<svg> injected")

    def handle_endtag(self, tag):
        if tag == "script":
            self.in_script = False

    def handle_data(self, data):
        if self.in_script and data.strip():
            self.problems.append(f"inline <script> with content {data.strip()[:60]!r}")


def inline_code(html: str) -> list[str]:
    """Inline scripts, event handler attributes, inline styles and injected tags in a page."""
    inspector = Inspector()
    inspector.feed(html)
    inspector.close()
    return inspector.problems


def assert_hardened(response) -> None:
    """The security headers every HTML response carries, and no inline code in it."""
    assert response.mimetype == "text/html", response.mimetype
    csp = response.headers.get("Content-Security-Policy", "")
    directives = {d.strip().split()[0]: d.strip().split()[1:] for d in csp.split(";") if d.strip()}
    assert directives.get("script-src") == ["'self'"], csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, csp
    assert "'none'" in directives.get("frame-ancestors", []), csp
    assert response.headers.get("Referrer-Policy") == "no-referrer"
    assert response.headers.get("X-Content-Type-Options") == "nosniff"
    assert response.headers.get("X-Frame-Options") == "DENY"
    html = response.get_data(as_text=True)
    assert inline_code(html) == [], inline_code(html)


def key_of(edit_url: str) -> str:
    return edit_url.split("key=", 1)[1]


def history_count(app, view_url: str) -> int:
    table_id = view_url.rsplit("/", 1)[1]
    with db.borrowed(app) as conn:
        return conn.value("SELECT COUNT(*) FROM events WHERE table_id = ?", [table_id])


def table_count(app) -> int:
    with db.borrowed(app) as conn:
        return conn.value("SELECT COUNT(*) FROM tables")


def exported_rounds(client, view_url: str) -> list:
    response = client.get(f"{view_url}/export.json")
    assert response.status_code == 200
    return json.loads(response.data)["rounds"]


def hand(out="Ann", **extra) -> dict[str, str]:
    data = {"out": out, "base_version": extra.pop("base_version", "")}
    data.update(extra)
    return data


def current_version(client, view_url: str, key: str) -> str:
    form = client.get(f"{view_url}/hands/new?key={key}").get_data(as_text=True)
    return re.search(r'name="base_version"[^>]*value="(\d+)"', form).group(1)


def add_hand(client, edit_url: str, **fields) -> None:
    view_url, key = edit_url.split("?")[0], key_of(edit_url)
    fields.setdefault("base_version", current_version(client, view_url, key))
    response = client.post(f"{view_url}/hands?key={key}", data=hand(**fields))
    assert response.status_code == 303, response.get_data(as_text=True)


def csv_rows(client, view_url: str) -> list[list[str]]:
    response = client.get(f"{view_url}/export.csv")
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.get_data(as_text=True))))


# ---------------------------------------------------------------------------------------
# Headers and inline code


def test_every_page_is_hardened_and_has_no_inline_code(client):
    view_url, edit_url = new_table(client, players=("Ann", "Ben", "Cat"))
    key = key_of(edit_url)
    add_hand(client, edit_url, p1_low="3", note="first hand")
    pages = {
        "home": client.get("/"),
        "new table": client.get("/new/rummathon-royale"),
        "new table, refused": client.post("/new/rummathon-royale", data={"seat1": "Ann"}),
        "table, view": client.get(view_url),
        "table, edit": client.get(edit_url),
        "board": client.get(f"{view_url}/board"),
        "hand form": client.get(f"{view_url}/hands/new?key={key}"),
        "hand form, refused": client.post(f"{view_url}/hands?key={key}", data=hand(out="Zed")),
        "edit form": client.get(f"{view_url}/hands/1/edit?key={key}"),
        "history": client.get(f"{view_url}/history"),
        "players": client.get(f"{view_url}/players?key={key}"),
        "player name, refused": client.post(f"{view_url}/players/0?key={key}",
                                            data={"p0-name": "", "p0-base_version": "1"}),
        "rules": client.get("/rules/rummathon-royale"),
        "import": client.get("/import"),
        "import, refused": client.post("/import", data={"text": "{not json"}),
        "404 page": client.get("/t/no-such-table"),
        "404 unknown path": client.get("/no/such/page"),
        "403 page": client.get(f"{view_url}/hands/new"),
        "403 wrong key": client.get(f"{view_url}?key=wrong"),
        "405 page": client.get("/device"),
        "413 page": client.post("/new/rummathon-royale", data={"seat1": "x" * (MB + 1)}),
    }
    expected = {"new table, refused": 422, "hand form, refused": 422, "player name, refused": 422,
                "import, refused": 422,
                "404 page": 404, "404 unknown path": 404, "403 page": 403, "403 wrong key": 403,
                "405 page": 405, "413 page": 413}
    for name, response in pages.items():
        assert response.status_code == expected.get(name, 200), (name, response.status_code)
        try:
            assert_hardened(response)
        except AssertionError as err:
            raise AssertionError(f"{name}: {err}") from err


def test_the_csrf_error_page_is_hardened_too(csrf_app):
    response = csrf_app.test_client().post("/new/rummathon-royale", data={"seat1": "Ann", "seat2": "Ben"})
    assert response.status_code == 400
    assert_hardened(response)
    assert "Form expired" in response.get_data(as_text=True)


def test_non_html_responses_carry_the_headers_as_well(client):
    view_url, _ = new_table(client)
    for url in (f"{view_url}/export.json", f"{view_url}/export.csv", f"{view_url}/qr/view.svg", "/api/v1/games"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["X-Content-Type-Options"] == "nosniff", url
        assert "script-src 'self'" in response.headers["Content-Security-Policy"], url
        assert response.headers["Referrer-Policy"] == "no-referrer", url


# ---------------------------------------------------------------------------------------
# CSRF


def test_new_table_without_the_token_is_refused_and_creates_nothing(csrf_app):
    client = csrf_app.test_client()
    data = {"seat1": "Ann", "seat2": "Ben", "opt-schedule": "all", "title": ""}
    response = client.post("/new/rummathon-royale", data=data)
    assert response.status_code == 400
    assert table_count(csrf_app) == 0
    response = client.post("/new/rummathon-royale", data={**data, "csrf_token": "forged"})
    assert response.status_code == 400
    assert table_count(csrf_app) == 0

    token = csrf_token(client.get("/new/rummathon-royale").get_data(as_text=True))
    response = client.post("/new/rummathon-royale", data={**data, "csrf_token": token})
    assert response.status_code == 303
    assert table_count(csrf_app) == 1


def test_a_token_from_another_session_is_refused(csrf_app):
    victim, attacker = csrf_app.test_client(), csrf_app.test_client()
    token = csrf_token(attacker.get("/new/rummathon-royale").get_data(as_text=True))
    victim.get("/")  # the victim has a session of their own
    response = victim.post("/new/rummathon-royale",
                           data={"seat1": "Ann", "seat2": "Ben", "opt-schedule": "all", "csrf_token": token})
    assert response.status_code == 400
    assert table_count(csrf_app) == 0


@pytest.fixture
def csrf_table(csrf_app):
    """A table on the CSRF-protected app, made the honest way; returns (client, view_url, key)."""
    client = csrf_app.test_client()
    token = csrf_token(client.get("/new/rummathon-royale").get_data(as_text=True))
    response = client.post("/new/rummathon-royale", data={"seat1": "Ann", "seat2": "Ben", "seat3": "Cat",
                                                           "opt-schedule": "all", "csrf_token": token})
    assert response.status_code == 303
    edit_url = response.headers["Location"]
    return client, edit_url.split("?")[0], key_of(edit_url)


def test_entering_a_hand_needs_the_token(csrf_app, csrf_table):
    client, view_url, key = csrf_table
    response = client.post(f"{view_url}/hands?key={key}", data=hand(base_version="0", p1_low="2"))
    assert response.status_code == 400
    assert history_count(csrf_app, view_url) == 0
    assert exported_rounds(client, view_url) == []

    token = csrf_token(client.get(f"{view_url}/hands/new?key={key}").get_data(as_text=True))
    response = client.post(f"{view_url}/hands?key={key}", data=hand(base_version="0", p1_low="2", csrf_token=token))
    assert response.status_code == 303
    assert history_count(csrf_app, view_url) == 1


def test_correcting_a_hand_needs_the_token(csrf_app, csrf_table):
    client, view_url, key = csrf_table
    token = csrf_token(client.get(f"{view_url}/hands/new?key={key}").get_data(as_text=True))
    assert client.post(f"{view_url}/hands?key={key}",
                       data=hand(base_version="0", csrf_token=token)).status_code == 303
    response = client.post(f"{view_url}/hands/1?key={key}", data=hand(out="Ben", base_version="1"))
    assert response.status_code == 400
    assert history_count(csrf_app, view_url) == 1
    assert exported_rounds(client, view_url)[0]["out"] == "Ann"


@pytest.mark.parametrize("route", ["undo", "hands/1/delete"])
def test_undo_and_delete_need_the_token(csrf_app, csrf_table, route):
    client, view_url, key = csrf_table
    token = csrf_token(client.get(f"{view_url}/hands/new?key={key}").get_data(as_text=True))
    assert client.post(f"{view_url}/hands?key={key}",
                       data=hand(base_version="0", csrf_token=token)).status_code == 303

    response = client.post(f"{view_url}/{route}?key={key}", data={"base_version": "1"})
    assert response.status_code == 400
    assert history_count(csrf_app, view_url) == 1
    assert len(exported_rounds(client, view_url)) == 1

    response = client.post(f"{view_url}/{route}?key={key}", data={"base_version": "1", "csrf_token": token})
    assert response.status_code == 303
    assert history_count(csrf_app, view_url) == 2
    assert exported_rounds(client, view_url) == []


def test_naming_the_device_needs_the_token(csrf_app):
    client = csrf_app.test_client()
    response = client.post("/device", data={"device": "Hacked", "next": "/"})
    assert response.status_code == 400
    assert client.get_cookie("courtier_device") is None or client.get_cookie("courtier_device").value != "Hacked"

    token = csrf_token(client.get("/new/rummathon-royale").get_data(as_text=True))
    response = client.post("/device", data={"device": "Kitchen", "next": "/", "csrf_token": token})
    assert response.status_code == 303
    assert client.get_cookie("courtier_device").value == "Kitchen"


def test_import_needs_the_token(csrf_app):
    client = csrf_app.test_client()
    body = json.dumps({"game": "rummathon-royale", "players": ["Ann", "Ben"], "rounds": [{"out": "Ann"}]})
    response = client.post("/import", data={"text": body})
    assert response.status_code == 400
    assert table_count(csrf_app) == 0

    token = csrf_token(client.get("/import").get_data(as_text=True))
    response = client.post("/import", data={"text": body, "csrf_token": token})
    assert response.status_code == 303
    assert table_count(csrf_app) == 1


def test_the_api_needs_no_token(csrf_app):
    client = csrf_app.test_client()
    response = client.post("/api/v1/score", json={"game": "rummathon-royale", "players": ["Ann", "Ben"],
                                                  "rounds": [{"out": "Ann", "left": {"Ben": {"flex": 1}}}]})
    assert response.status_code == 200
    assert response.get_json()["totals"] == {"Ann": 25, "Ben": 0}


# ---------------------------------------------------------------------------------------
# The edit key, on every write


@pytest.fixture
def two_tables(client):
    """Two tables; the first has one hand. Returns (view_url, key, other_key)."""
    view_url, edit_url = new_table(client, players=("Ann", "Ben", "Cat"))
    add_hand(client, edit_url, p1_low="2")
    _, other_edit = new_table(client, players=("Ann", "Ben", "Cat"))
    key = key_of(edit_url)
    assert key.swapcase() != key
    return view_url, key, key_of(other_edit)


def bad_keys(key: str, other_key: str) -> dict[str, str]:
    return {"no key": "", "wrong key": "?key=AAAAAAAAAAAAAAAAAAAAAA", "another table's key": f"?key={other_key}",
            "key in another case": f"?key={key.swapcase()}", "key with a suffix": f"?key={key}x",
            "non-ASCII key": "?key=%C3%A9t%C3%A9", "empty key": "?key="}


WRITES = {
    "add a hand": ("hands", hand(out="Ben", p0_low="5", base_version="1")),
    "correct a hand": ("hands/1", hand(out="Cat", base_version="1")),
    "delete a hand": ("hands/1/delete", {"base_version": "1"}),
    "undo": ("undo", {"base_version": "1"}),
}


@pytest.mark.parametrize("write", WRITES)
def test_every_write_checks_the_edit_key(app, client, two_tables, write):
    view_url, key, other_key = two_tables
    route, data = WRITES[write]
    before = exported_rounds(client, view_url)
    for name, query in bad_keys(key, other_key).items():
        response = client.post(f"{view_url}/{route}{query}", data=data)
        assert response.status_code == 403, (write, name, response.status_code)
        assert history_count(app, view_url) == 1, (write, name)
        assert exported_rounds(client, view_url) == before, (write, name)
    history = client.get(f"{view_url}/history").get_data(as_text=True)
    assert "Hand 1 entered" in history
    assert "edited" not in history and "deleted" not in history and "Undone" not in history

    # the real key still works, so the 403s above were about the key and nothing else
    response = client.post(f"{view_url}/{route}?key={key}", data=data)
    assert response.status_code == 303
    assert history_count(app, view_url) == 2


@pytest.mark.parametrize("form", ["hands/new", "hands/1/edit"])
def test_the_hand_forms_need_the_edit_key(client, two_tables, form):
    view_url, key, other_key = two_tables
    for name, query in bad_keys(key, other_key).items():
        response = client.get(f"{view_url}/{form}{query}")
        assert response.status_code == 403, (form, name)
        assert 'name="out"' not in response.get_data(as_text=True)
    assert client.get(f"{view_url}/{form}?key={key}").status_code == 200


def test_the_view_link_shows_no_way_to_edit(client, two_tables):
    view_url, key, other_key = two_tables
    html = client.get(view_url).get_data(as_text=True)
    assert "View only" in html
    for sign_of_editing in ("/hands/new", "/qr/edit.svg", "/undo", "/delete", "/edit", "Edit link",
                            'name="device"', "key="):
        assert sign_of_editing not in html, sign_of_editing
    for name, query in bad_keys(key, other_key).items():
        if not query:
            continue
        assert client.get(f"{view_url}/qr/edit.svg{query}").status_code in (403, 404), name
    response = client.get(f"{view_url}/qr/edit.svg")
    assert response.status_code in (403, 404)
    assert response.mimetype != "image/svg+xml"
    # the view QR is public, and the edit QR appears once the key is given
    assert client.get(f"{view_url}/qr/view.svg").mimetype == "image/svg+xml"
    assert client.get(f"{view_url}/qr/edit.svg?key={key}").mimetype == "image/svg+xml"


def test_the_edit_key_never_leaks_to_readers(client, two_tables):
    view_url, key, _ = two_tables
    client.get(f"{view_url}?key={key}")  # the editor's own visit must not seep into what others see
    reader = client.application.test_client()
    for url in (view_url, f"{view_url}/board", f"{view_url}/history", f"{view_url}/export.json",
                f"{view_url}/export.csv", f"{view_url}/qr/view.svg", "/"):
        response = reader.get(url)
        assert response.status_code == 200, url
        assert key not in response.get_data(as_text=True), url
        assert key not in str(response.headers), url
    # the editor's own export does not carry the key either
    for url in (f"{view_url}/export.json", f"{view_url}/export.csv"):
        assert key not in client.get(url).get_data(as_text=True)
    board = reader.get(f"{view_url}/board")
    assert board.headers["ETag"].endswith('-v"')


# ---------------------------------------------------------------------------------------
# Hostile names and notes


def test_hostile_names_notes_titles_and_devices_are_escaped_everywhere(client):
    client.set_cookie("courtier_device", HOSTILE_DEVICE)
    view_url, edit_url = new_table(client, players=HOSTILE_NAMES, title=HOSTILE_TITLE)
    key = key_of(edit_url)
    add_hand(client, edit_url, out=HOSTILE_NAMES[1], p0_low="2", b0_on=HOSTILE_NAMES[0], b0_by=HOSTILE_NAMES[2],
             b0_result="failed", note=HOSTILE_NOTE)
    pages = {
        "table, view": client.get(view_url),
        "table, edit": client.get(edit_url),
        "board": client.get(f"{view_url}/board"),
        "history": client.get(f"{view_url}/history"),
        "hand form": client.get(f"{view_url}/hands/new?key={key}"),
        "edit form": client.get(f"{view_url}/hands/1/edit?key={key}"),
        "refused form": client.post(f"{view_url}/hands?key={key}", data=hand(out="Zed", note=HOSTILE_NOTE)),
        "players": client.get(f"{view_url}/players?key={key}"),
        "home": client.get("/"),
    }
    for name, response in pages.items():
        html = response.get_data(as_text=True)
        assert response.status_code in (200, 422), name
        assert inline_code(html) == [], (name, inline_code(html))
        for hostile in (*HOSTILE_NAMES, HOSTILE_NOTE, HOSTILE_TITLE, HOSTILE_DEVICE):
            assert hostile not in html, (name, hostile)
        assert "<script>alert" not in html and "<img src=x" not in html and "<svg/onload" not in html, name
    # the names really are on the pages, escaped (not simply left out)
    for name in ("table, view", "board", "hand form", "players"):
        html = pages[name].get_data(as_text=True)
        for hostile in HOSTILE_NAMES:
            assert str(escape(hostile)) in html, (name, hostile)
    assert str(escape(HOSTILE_NOTE)) in pages["board"].get_data(as_text=True)
    assert str(escape(HOSTILE_NOTE)) in pages["edit form"].get_data(as_text=True)
    assert str(escape(HOSTILE_TITLE)) in pages["table, view"].get_data(as_text=True)
    history = pages["history"].get_data(as_text=True)
    assert str(escape(HOSTILE_DEVICE)) in history
    assert "\\u003cscript\\u003e" in history  # the entered hand, as JSON with < escaped


def test_hostile_names_are_refused_by_the_api_only_when_too_long(client):
    response = client.post("/api/v1/score", json={"game": "rummathon-royale",
                                                  "players": ["<script>alert(1)</script>" * 2, "Ben"], "rounds": []})
    assert response.status_code == 422  # over MAX_NAME_CHARS (40)
    assert response.get_json()["errors"][0]["where"] == "players[0]"
    response = client.post("/api/v1/score", json={"game": "rummathon-royale", "players": list(HOSTILE_NAMES),
                                                  "rounds": [{"out": HOSTILE_NAMES[0]}]})
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert list(response.get_json()["totals"]) == list(HOSTILE_NAMES)


@pytest.mark.parametrize("lead", ["=", "+", "-", "@"])
def test_csv_export_defuses_spreadsheet_formulas_in_names(client, lead):
    names = (f"{lead}HYPERLINK(1)", "Ben", f"{lead}1+1")
    view_url, edit_url = new_table(client, players=names)
    add_hand(client, edit_url, out=names[0], p1_low="4")  # names[0] scores 20
    add_hand(client, edit_url, out="Ben", p0_extra="2", p2_low="1")  # names[0] pays 20 for 2 cards
    rows = csv_rows(client, view_url)
    assert rows[0] == ["round", f"'{names[0]}", "Ben", f"'{names[2]}",
                       f"'{names[0]} total", "Ben total", f"'{names[2]} total"]
    for row in rows:
        for cell in row:
            assert re.fullmatch(r"-?\d+", cell) or not cell.startswith(("=", "+", "-", "@")), (row, cell)
    # numbers stay numbers: a negative hand is written as -20, not defused into text
    assert rows[1] == ["1", "20", "0", "0", "20", "0", "0"]
    assert rows[2] == ["2", "-20", "5", "0", "0", "5", "0"]
    assert rows[3] == ["total", "0", "5", "0", "", "", ""]


# ---------------------------------------------------------------------------------------
# Open redirect


@pytest.mark.parametrize("target", [
    "//evil.example", "https://evil.example", "http://evil.example/", "//evil.example/%2F..", "///evil.example",
    "/\\evil.example", "\\\\evil.example", "/\t/evil.example", "/\n/evil.example", "/\r\n/evil.example",
    "javascript:alert(1)", "evil.example", " //evil.example", "https:evil.example", "/%09/evil.example",
])
def test_the_device_form_only_redirects_to_a_local_path(client, target):
    response = client.post("/device", data={"device": "Kitchen", "next": target})
    assert response.status_code == 303
    location = response.headers["Location"]
    parts = urlsplit(location)
    assert location.startswith("/") and not location.startswith("//"), location
    assert "\\" not in location and not any(ord(c) < 0x20 for c in location), location
    assert parts.scheme == "" and parts.netloc == "", location
    # the browser's reading: tabs and newlines dropped, backslashes as slashes
    browser = "".join(c for c in location if c not in "\t\r\n").replace("\\", "/")
    assert not browser.startswith("//"), location


def test_the_device_form_keeps_a_local_next(client):
    view_url, _ = new_table(client)
    response = client.post("/device", data={"device": "Kitchen", "next": f"{view_url}?x=1#board"})
    assert response.status_code == 303
    assert response.headers["Location"] == f"{view_url}?x=1#board"


# ---------------------------------------------------------------------------------------
# Oversized bodies


def test_an_oversized_api_body_is_a_413_with_json_errors(client):
    response = client.post("/api/v1/score", data=b" " * (MB + 1), content_type="application/json")
    assert response.status_code == 413
    body = response.get_json()
    assert isinstance(body["errors"], list) and body["errors"]
    assert all(isinstance(e["where"], str) and isinstance(e["message"], str) for e in body["errors"])


def test_an_oversized_form_is_a_413_page(app, client):
    view_url, edit_url = new_table(client)
    key = key_of(edit_url)
    posts = {
        "/new/rummathon-royale": {"seat1": "Ann", "seat2": "Ben", "title": "x" * (MB + 1)},
        f"{view_url}/hands?key={key}": hand(note="x" * (MB + 1)),
        "/import": {"text": "x" * (MB + 1)},
        "/device": {"device": "x" * (MB + 1)},
    }
    for url, data in posts.items():
        response = client.post(url, data=data)
        assert response.status_code == 413, url
        assert response.mimetype == "text/html", url
        assert "larger than" in response.get_data(as_text=True), url
    assert table_count(app) == 1
    assert history_count(app, view_url) == 0
    # a file upload, its multipart body built by hand (the test client would spool it to an unclosed temp file)
    body = (b'--b\r\nContent-Disposition: form-data; name="file"; filename="big.json"\r\n'
            b"Content-Type: application/json\r\n\r\n" + b"{" * (MB + 1) + b"\r\n--b--\r\n")
    upload = client.post("/import", data=body, content_type="multipart/form-data; boundary=b")
    assert upload.status_code == 413
    assert table_count(app) == 1


def test_an_oversized_form_is_a_413_with_csrf_on(csrf_app):
    response = csrf_app.test_client().post("/new/rummathon-royale", data={"seat1": "x" * (MB + 1)})
    assert response.status_code == 413
    assert table_count(csrf_app) == 0


# ---------------------------------------------------------------------------------------
# Unknown tables and the append-only log


@pytest.mark.parametrize("path", ["", "/board", "/history", "/export.json", "/export.csv", "/qr/view.svg",
                                  "/hands/new?key=x"])
def test_an_unknown_table_is_a_friendly_404(client, path):
    response = client.get(f"/t/NoSuchTable{path}")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert "There is no table at this link" in html
    assert "Traceback" not in html
    assert inline_code(html) == []


def test_writes_to_an_unknown_table_are_404(app, client):
    for route in ("hands", "hands/1", "hands/1/delete", "undo"):
        assert client.post(f"/t/NoSuchTable/{route}?key=x", data=hand()).status_code == 404, route
    with db.borrowed(app) as conn:
        assert conn.value("SELECT COUNT(*) FROM events") == 0


def test_the_log_is_append_only_in_the_database_itself(app, client):
    view_url, edit_url = new_table(client)
    add_hand(client, edit_url, p1_low="2")
    with db.borrowed(app) as conn:
        with pytest.raises(conn.integrity_errors, match="append-only"):
            conn.execute("UPDATE events SET data = '{\"out\": \"Ben\"}'")
        with pytest.raises(conn.integrity_errors, match="append-only"):
            conn.execute("DELETE FROM events")
        assert conn.value("SELECT COUNT(*) FROM events") == 1
    assert exported_rounds(client, view_url)[0]["out"] == "Ann"
