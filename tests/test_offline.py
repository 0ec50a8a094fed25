"""Offline at the table, the server's side: each entry key is stored once, and the service worker
is served with a version that follows the static files (DESIGN: "Offline at the table")."""

from __future__ import annotations

import json
import re
import threading
from contextlib import closing
from datetime import UTC, datetime, timedelta

import pytest

from companion.storage import tables
from companion.storage.db import borrowed, connect
from tests.conftest import new_table
from tests.test_web import base_version, hand_form, totals

KEY = "2b7c4f0e-9a1d-4c8b-8e3f-5d6a7b8c9d0e"


def post(client, edit, key=KEY, headers=None, **fields):
    table, link_key = edit.split("?key=")
    version = fields.pop("base_version", None) or base_version(client, f"{table}/hands/new?key={link_key}")
    return client.post(f"{table}/hands?key={link_key}", headers=headers or {},
                       data=hand_form(base_version=version, entry_key=key, **fields))


def stored_events(app, table_id):
    with borrowed(app) as db:
        return [tuple(row) for row in
                db.execute("SELECT seq, entry_key FROM events WHERE table_id = ? ORDER BY seq", [table_id])]


def test_a_save_sent_twice_is_stored_once(client, app):
    view, edit = new_table(client)
    version = base_version(client, edit.replace("?key=", "/hands/new?key="))
    first = post(client, edit, out="Ann", p1_low=3, base_version=version)
    assert first.status_code == 303
    again = post(client, edit, out="Ann", p1_low=3, base_version=version)  # a double tap, or a lost answer
    assert again.status_code == 303  # not a conflict: the hand is there
    assert again.headers["Location"].endswith("#board")
    page = client.get(again.headers["Location"]).get_data(as_text=True)
    assert "This hand was already saved." in page
    assert totals(client, view) == {"Ann": 15, "Ben": 0, "Cat": 0}  # RR-1: Ben 3 low cards x 5
    assert [k for _, k in stored_events(app, view.rsplit("/", 1)[1])] == [KEY]


def test_a_replay_after_later_changes_is_still_recognised(client, app):
    view, edit = new_table(client)
    post(client, edit, out="Ann", p1_low=3)
    post(client, edit, key="another-key-0000000000", out="Ben", p0_low=2)
    # The first save again, based on the version it was first sent with: recognised, not a conflict.
    replay = post(client, edit, out="Ann", p1_low=3, base_version="0")
    assert replay.status_code == 303
    assert totals(client, view) == {"Ann": 15, "Ben": 10, "Cat": 0}
    assert len(stored_events(app, view.rsplit("/", 1)[1])) == 2


def test_a_queued_send_is_answered_with_the_stored_version(client):
    view, edit = new_table(client)
    queued = {"X-Courtier-Queued": "1"}
    first = post(client, edit, headers=queued, out="Ann", p1_low=1, base_version="0")
    assert first.status_code == 204
    assert first.headers["X-Courtier-Version"] == "1"
    again = post(client, edit, headers=queued, out="Ann", p1_low=1, base_version="0")
    assert (again.status_code, again.headers["X-Courtier-Version"]) == (204, "1")
    # A second queued hand rebased by the phone on its own first save goes in after it.
    second = post(client, edit, key="second-key-000000000000", headers=queued, out="Cat", base_version="1")
    assert (second.status_code, second.headers["X-Courtier-Version"]) == (204, "2")
    assert totals(client, view) == {"Ann": 5, "Ben": 0, "Cat": 0}


def test_a_queued_send_behind_another_phone_gets_the_ordinary_conflict(client):
    view, edit = new_table(client)
    post(client, edit, key="other-phone-key-00000000", out="Ben", base_version="0")
    stale = post(client, edit, headers={"X-Courtier-Queued": "1"}, out="Ann", p1_low=3, base_version="0")
    assert stale.status_code == 409
    page = stale.get_data(as_text=True)
    assert "Another phone changed this table" in page
    assert re.search(r'name="p1_low"[^>]*value="3"', page)  # the input is kept


@pytest.mark.parametrize("bad", ["short", "x" * 65, "has space in it 12345", "<script>alert(1)</script>xx"])
def test_a_damaged_entry_key_is_refused_and_nothing_is_stored(client, app, bad):
    view, edit = new_table(client)
    response = post(client, edit, key=bad, out="Ann")
    assert response.status_code == 400
    assert "reload the page" in response.get_data(as_text=True)
    assert stored_events(app, view.rsplit("/", 1)[1]) == []


def test_the_same_key_sent_at_once_from_two_threads_is_stored_once(app):
    """Two copies of one save racing (a retry while the first is still in flight)."""
    client = app.test_client()
    view, edit = new_table(client)
    with borrowed(app) as db:
        table = tables.get_table(db, view.rsplit("/", 1)[1])
    outcomes, barrier = [], threading.Barrier(2)

    def send():
        with closing(connect(app.config["DATABASE"])) as db:
            barrier.wait()
            try:
                tables.append(db, table, 0, tables.Change("add", data={"out": "Ann"}), entry_key=KEY)
                outcomes.append("stored")
            except tables.AlreadyStored as done:
                outcomes.append(f"already {done.seq}")
            except tables.StaleVersion:
                outcomes.append("stale")

    threads = [threading.Thread(target=send) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(outcomes) == ["already 1", "stored"]
    assert stored_events(app, table.id) == [(1, KEY)]


@pytest.mark.parametrize("moment", ["events", "state_after"])  # before the log is read; before the lock
def test_a_copy_that_lands_at_any_moment_of_a_save_makes_it_already_stored(app, monkeypatch, moment):
    """The other copy of the save commits at each point where the table can be found moved on:
    the save is told its own copy is there, never that another phone wrote first."""
    client = app.test_client()
    view, edit = new_table(client)
    with borrowed(app) as db:
        table = tables.get_table(db, view.rsplit("/", 1)[1])
    change = tables.Change("add", data={"out": "Ann"})
    landed = []

    def the_other_copy_lands():
        if not landed:
            landed.append(True)
            with closing(connect(app.config["DATABASE"])) as other:
                tables.append(other, table, 0, change, entry_key=KEY)

    real = getattr(tables, moment)

    def with_the_other_copy(*args, **kwargs):
        the_other_copy_lands()
        return real(*args, **kwargs)

    monkeypatch.setattr(tables, moment, with_the_other_copy)
    with closing(connect(app.config["DATABASE"])) as db, pytest.raises(tables.AlreadyStored) as done:
        tables.append(db, table, 0, change, entry_key=KEY)
    assert done.value.seq == 1
    assert stored_events(app, table.id) == [(1, KEY)]


def test_the_service_worker_is_served_at_the_top_with_its_version(client, app, tmp_path, monkeypatch):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    source = response.get_data(as_text=True)
    version = re.search(r'var VERSION = "([0-9a-f]{16})";', source).group(1)
    precache = json.loads(re.search(r"var PRECACHE = (\[.*?\]);", source).group(1))
    assert {"/static/css/app.css", "/static/js/app.js", "/static/js/offline.js"} <= set(precache)
    assert not [p for p in precache if p.endswith((".md", ".txt", "sw.js"))]
    assert client.get("/sw.js", headers={"If-None-Match": f'"{version}"'}).status_code == 304

    # A release that changes any static file is a new worker (and so new caches).
    from companion.views import main

    static = tmp_path / "static"
    (static / "js").mkdir(parents=True)
    (static / "js" / "sw.js").write_text((main.STATIC_DIR / "js" / "sw.js").read_text())
    (static / "css.css").write_text("a{}")
    monkeypatch.setattr(main, "STATIC_DIR", static)
    main._service_worker.cache_clear()
    try:
        first = main._service_worker("", 4000)[1]
        (static / "css.css").write_text("a{color:red}")
        main._service_worker.cache_clear()
        assert main._service_worker("", 4000)[1] != first
    finally:
        main._service_worker.cache_clear()


def test_a_phone_waits_for_a_page_as_long_as_the_setting_says(make_app):
    """PAGE_WAIT_SECONDS: 4 s at a venue, then the kept copy; another wait is another worker."""
    venue = make_app().test_client().get("/sw.js")
    assert "var NETWORK_TIMEOUT_MS = 4000;" in venue.get_data(as_text=True)
    patient = make_app(PAGE_WAIT_SECONDS=12.5).test_client().get("/sw.js")
    assert "var NETWORK_TIMEOUT_MS = 12500;" in patient.get_data(as_text=True)
    assert patient.headers["ETag"] != venue.headers["ETag"]


def test_every_page_names_the_service_worker_and_the_offline_script(client):
    page = client.get("/").get_data(as_text=True)
    assert 'data-service-worker="/sw.js"' in page
    assert 'src="/static/js/offline.js"' not in page  # the first page stays small


def test_a_hand_sent_late_keeps_when_it_was_typed_beside_when_it_arrived(client):
    """The phone's queue sends the time each waiting hand was typed; the history gives both."""
    view, edit = new_table(client)
    typed = (datetime.now(UTC) - timedelta(minutes=13)).replace(microsecond=0)
    answer = post(client, edit, out="Ann", p1_low=3, headers={"X-Courtier-Queued": "1"},
                  typed_at=typed.isoformat().replace("+00:00", ".000Z"))
    assert answer.status_code == 204
    history = client.get(view + "/history").get_data(as_text=True)
    said = re.search(r'Typed <time datetime="([^"]+)" data-local>[^<]*</time> on a phone without signal; '
                     r'arrived <time datetime="([^"]+)"', history)
    assert said, history
    assert datetime.fromisoformat(said.group(1)) == typed
    arrived = datetime.fromisoformat(said.group(2))
    assert timedelta(minutes=12) < arrived - typed < timedelta(minutes=14)


@pytest.mark.parametrize("claimed", ["yesterday", timedelta(hours=1), -timedelta(days=3), "21:04"])
def test_a_typed_time_that_cannot_be_right_is_left_out(client, claimed):
    """Not a time, an hour ahead of the server's clock, three days back: each as far from the day the
    suite runs on, whatever day that is."""
    if isinstance(claimed, timedelta):
        claimed = (datetime.now(UTC) + claimed).isoformat()
    view, edit = new_table(client)
    assert post(client, edit, out="Ann", typed_at=claimed).status_code == 303
    assert "Typed <time" not in client.get(view + "/history").get_data(as_text=True)


def test_pages_whose_address_has_no_key_hold_no_edit_key(client):
    """The home page's recent tables and a rematch's link back reach the edit link through the phone's
    session (/t/<id>/open), so a cached page holds an edit key only when its address does."""
    view, edit = new_table(client)
    key = edit.split("?key=")[1]
    page = client.get(edit).get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    rematch = client.post(edit.replace("?key=", "/rematch?key="), data={"csrf_token": token.group(1) if token else ""})
    assert rematch.status_code == 303
    new_edit = rematch.headers["Location"]
    new_view, new_key = new_edit.split("?key=")
    for address in ("/", new_view, view):
        html = client.get(address).get_data(as_text=True)
        assert key not in html and new_key not in html, address
    assert f'href="{view}/open"' in client.get(new_view).get_data(as_text=True)  # the rematch's link back
    assert f'href="{view}/open"' in client.get("/").get_data(as_text=True)
    back = client.get(f"{view}/open")
    assert back.status_code == 303 and back.headers["Location"] == edit
    stranger = client.application.test_client()  # a phone that never had the edit link
    assert stranger.get(f"{view}/open").headers["Location"] == view


COPY = {"X-Courtier-Copy": "1"}  # what the phone's scripts send for a page they only keep (web.kept_copies)


@pytest.mark.parametrize("said", ["rematch", "save"])
def test_copies_kept_for_later_leave_the_phones_message_to_the_page_it_was_said_for(client, said):
    """The service worker keeps the "No signal" page and a table's view page, and a table's page keeps its
    entry form, while the phone opens the page a tap led to. A copy fetched between the tap's answer and
    that page left the page without its message ("Rematch: a new table", "Hand saved."): the copies now
    neither show nor take it, and never set the session, so a late one cannot put back the session as
    it was before the tap."""
    view, edit = new_table(client)
    if said == "rematch":
        answer = client.post(edit.replace("?key=", "/rematch?key="))
        message = "Rematch: a new table"
    else:
        answer = post(client, edit, out="Ann", p1_low=3)
        message = "Hand saved."
    assert answer.status_code == 303
    opened = answer.headers["Location"].split("#")[0]
    table, key = opened.split("?key=")
    old_form = edit.replace("?key=", "/hands/new?key=")
    for kept in ("/offline", table, f"{table}/hands/new?key={key}", view, old_form):
        copy = client.get(kept, headers=COPY)
        assert copy.status_code == 200, kept
        assert "Set-Cookie" not in copy.headers, kept
        assert "Cookie" in copy.headers["Vary"] or kept == "/offline", kept  # the page it read is the phone's
        assert message not in copy.get_data(as_text=True), kept
    page = client.get(opened).get_data(as_text=True)
    assert message in page
    assert message not in client.get(opened).get_data(as_text=True)  # said once, on the page it was for


def test_a_form_sent_as_a_copy_is_a_form_sent(client):
    """Only a page fetched is a copy: a save that says it is one is still answered as a save, its message kept
    for the page it opens."""
    view, edit = new_table(client)
    answer = post(client, edit, headers=COPY, out="Ann", p1_low=3)
    assert answer.status_code == 303 and "Set-Cookie" in answer.headers
    assert "Hand saved." in client.get(answer.headers["Location"]).get_data(as_text=True)
