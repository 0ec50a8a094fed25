"""What the app keeps between requests: pooled connections, scored tables and rendered boards.

Each is shared between phones, so each is tested for what must not leak: one
phone's CSRF token or edit link into another's page, a stale score after a
change made elsewhere, a transaction left open on a pooled connection.
"""

from __future__ import annotations

import re

from companion.storage import db, tables
from companion.views.common import RULES_PAGES, RULES_PATH
from tests.conftest import csrf_token, new_table

DELETE_FORM_TOKEN = re.compile(r'action="[^"]*/hands/\d+/delete[^"]*"[^>]*>\s*<input id="csrf_token" '
                               r'name="csrf_token" type="hidden" value="([^"]+)"')


def _honest_table(client):
    token = csrf_token(client.get("/new/rummathon-royale").get_data(as_text=True))
    response = client.post("/new/rummathon-royale", data={"seat1": "Ann", "seat2": "Ben", "opt-schedule": "all",
                                                           "csrf_token": token})
    assert response.status_code == 303
    return response.headers["Location"]


def _enter_hand(client, edit_url, out="Ann"):
    table, key = edit_url.split("?key=")
    page = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    version = re.search(r'name="base_version"[^>]*value="(\d+)"', page).group(1)
    form = {"base_version": version, "out": out, "p1_low": "2"}
    if "csrf_token" in page:  # the app with CSRF on
        form["csrf_token"] = csrf_token(page)
    response = client.post(f"{table}/hands?key={key}", data=form)
    assert response.status_code == 303, response.data


def test_a_shared_board_carries_each_phones_own_token(csrf_app):
    first, second = csrf_app.test_client(), csrf_app.test_client()
    edit = _honest_table(first)
    _enter_hand(first, edit)
    table, key = edit.split("?key=")
    boards = [phone.get(f"{table}/board?key={key}").get_data(as_text=True) for phone in (first, second)]
    tokens = [DELETE_FORM_TOKEN.search(board).group(1) for board in boards]
    assert tokens[0] != tokens[1]
    # The other phone's token is refused; each phone's own is accepted.
    refused = second.post(f"{table}/hands/1/delete?key={key}", data={"base_version": "1", "csrf_token": tokens[0]})
    assert refused.status_code == 400
    deleted = second.post(f"{table}/hands/1/delete?key={key}", data={"base_version": "1", "csrf_token": tokens[1]})
    assert deleted.status_code == 303


def test_the_hand_form_is_built_once_a_version_each_phone_with_its_own_token_and_never_stale(csrf_app):
    """Every phone opening the form at a version gets the page built for it once (the forms cache), with
    its own CSRF token, which saves; another phone's save makes the next version's page at once."""
    first, second = csrf_app.test_client(), csrf_app.test_client()
    edit = _honest_table(first)
    table, key = edit.split("?key=")
    kept = csrf_app.extensions["courtier.forms"]
    pages = [phone.get(f"{table}/hands/new?key={key}").get_data(as_text=True) for phone in (first, second)]
    assert len(kept) == 1
    tokens = [csrf_token(page) for page in pages]
    assert tokens[0] != tokens[1] and tokens[0] not in pages[1]
    assert pages[0].replace(tokens[0], "") == pages[1].replace(tokens[1], "")
    assert 'name="base_version" type="hidden" value="0"' in pages[1]

    _enter_hand(first, edit)  # the first phone saves hand 1: version 1
    after = second.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    assert 'name="base_version" type="hidden" value="1"' in after and "Enter hand 2" in after
    assert len(kept) == 2
    saved = second.post(f"{table}/hands?key={key}", data={"base_version": "1", "out": "Ben", "p0_low": "1",
                                                            "csrf_token": csrf_token(after)})
    assert saved.status_code == 303
    # A phone with a message waiting (the flash after a save) gets it on a page built for it alone.
    with_message = second.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    assert "Hand saved." in with_message and len(kept) == 2
    again = second.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    assert "Hand saved." not in again and len(kept) == 3


def test_a_view_link_never_gets_the_board_rendered_for_the_edit_link(client):
    view, edit = new_table(client, players=("Ann", "Ben"))
    _enter_hand(client, edit)
    key = edit.split("?key=")[1]
    assert "Delete" in client.get(f"{view}/board?key={key}").get_data(as_text=True)
    viewer = client.application.test_client()
    board = viewer.get(f"{view}/board").get_data(as_text=True)
    assert key not in board and "Delete" not in board and "/edit" not in board
    assert "Hand 1" in board


def test_a_change_made_elsewhere_is_seen_and_a_stale_base_refused(app, client):
    """Another process writing the same file: the cached score of the old version is not reused."""
    view, edit = new_table(client, players=("Ann", "Ben"))
    _enter_hand(client, edit)  # version 1, scored and cached by this app
    table_id, key = view.rsplit("/", 1)[1], edit.split("?key=")[1]
    other = db.connect(app.config["DATABASE"])  # its own connection, as another process would have
    try:
        table = tables.get_table(other, table_id)
        tables.append(other, table, 1, tables.Change("add", data={"out": "Ben", "left": {"Ann": {"flex": 1}}}))
    finally:
        other.close()
    board = client.get(f"{view}/board").get_data(as_text=True)
    assert "Hand 2" in board
    response = client.post(f"{view}/hands?key={key}", data={"base_version": "1", "out": "Ann"})
    assert response.status_code == 409
    assert "Another phone changed this table" in response.get_data(as_text=True)


def test_a_pooled_connection_comes_back_without_an_open_transaction(tmp_path):
    path = str(tmp_path / "pool.sqlite")
    first = db.connect(path)
    db.migrate(first)
    first.conn.close()
    pool = db.Pool(path, keep=1)
    borrowed = pool.take()
    borrowed.execute("BEGIN IMMEDIATE")  # a request that failed halfway through a write
    pool.give_back(borrowed)
    again = pool.take()
    assert again is borrowed and not again.conn.in_transaction
    writer = db.connect(path)
    writer.execute("PRAGMA busy_timeout = 50")
    with db.immediate(writer):  # the lock was released: another writer gets it at once
        writer.execute("INSERT INTO tables (id, edit_key, game, title, players, options, created_at) "
                       "VALUES ('t', 'k', 'royalty', '', '[]', '{}', '')")
    writer.conn.close()
    pool.give_back(again)
    spare = db.connect(path)
    pool.give_back(spare)  # beyond what the pool keeps: closed, not kept
    assert len(pool._idle) == 1
    pool.close()


def test_ruling_links_point_at_the_rules_pages(app):
    with app.test_request_context("/"):
        from flask import url_for

        for page in RULES_PAGES.values():
            assert url_for("main.rules", game=page) == RULES_PATH.format(page=page)


def test_a_table_with_a_large_word_list_is_kept_once_per_version_and_weighed_in_full(app, client):
    """A Royalty table's own list can run to megabytes: its state is kept (so the list is read and
    checked once per version, not on every request), weighed in full against the cache's bytes,
    with the list held once (the scored game's copy is the table's own), never in the tables cache."""
    import io
    import itertools

    from companion.core.recent import weigh

    letters = "abcdefghijklmnopqrstuvwxyz"
    words = ["".join(w) for w in itertools.islice(itertools.product(letters, repeat=4), 20_000)]
    upload = (io.BytesIO("\n".join(words).encode()), "big.txt")
    response = client.post("/new/royalty", content_type="multipart/form-data", data={
        "seat1": "Ann", "seat2": "Ben", "opt-variant": "standard", "opt-coalitions": "", "opt-word_file": upload})
    assert response.status_code == 303
    table, key = response.headers["Location"].split("?key=")
    table_id = table.rsplit("/", 1)[1]
    page = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    version = int(re.search(r'name="base_version"[^>]*value="(\d+)"', page).group(1))
    saved = client.post(f"{table}/hands?key={key}", data={"base_version": version, "player": "Ann", "kind": "meld",
                                                          "meld": "Ar Ar Ar Ar"})
    assert saved.status_code == 303
    assert "AAAA" in client.get(f"{table}/board").get_data(as_text=True)
    assert "Yes" in client.get(f"/referee/royalty/judge?word=aaab&table={table_id}").get_data(as_text=True)
    kept = app.extensions
    assert kept["courtier.tables"].get(table_id) is None
    now = kept["courtier.states"].get((table_id, version + 1))
    assert now is not None and len(now.table.options["word_list"]) == 20_000
    assert now.scored.options["word_list"] is now.table.options["word_list"]  # held once
    assert kept["courtier.states"].bytes >= weigh(now.table.options["word_list"]) > 20_000 * 50
    assert kept["courtier.states"].bytes <= kept["courtier.states"].max_bytes


def test_entries_nobody_asks_for_leave_every_cache(client, app):
    """A table no longer played leaves the scored states, boards and tables caches (CACHE_IDLE_SECONDS,
    docs/ops.md); a table asked for again is scored again from its log, the same."""
    from companion.core.recent import forget_idle_everywhere

    view, edit = new_table(client)
    _enter_hand(client, edit)
    board = client.get(view + "/board").get_data(as_text=True)
    kept = ("courtier.states", "courtier.boards", "courtier.tables")
    sizes = [len(app.extensions[name]) for name in kept]
    assert all(sizes)
    # Counted in this app's caches only: the process may still hold earlier tests' apps, not yet collected,
    # whose entries are idle by now.
    forget_idle_everywhere(60)
    assert [len(app.extensions[name]) for name in kept] == sizes  # used a moment ago: kept
    assert forget_idle_everywhere(0) > 0
    assert not any(len(app.extensions[name]) for name in kept)
    assert client.get(view + "/board").get_data(as_text=True) == board


def test_each_server_process_drops_idle_entries_in_the_background(app):
    import threading

    assert "courtier-cache-sweeper" in [thread.name for thread in threading.enumerate()]


def test_a_server_leaves_what_it_built_at_its_start_out_of_the_collectors_passes(tmp_path):
    """wsgi.py (gunicorn, waitress) freezes the modules, the app and its compiled templates once they are
    built: a full pass of the garbage collector walked all of them, 90 to 110 ms with every thread waiting."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, COURTIER_DATABASE=str(tmp_path / "frozen.sqlite"), COURTIER_SECRET_KEY="frozen")
    code = ("import gc, wsgi; frozen = gc.get_freeze_count(); "
            "templates = len(wsgi.app.jinja_env.cache); print(frozen, templates)")
    done = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    frozen, templates = map(int, done.stdout.split())
    assert templates > 20  # compiled first, then frozen with the rest
    assert frozen > 50_000  # the objects of the modules, the app and the templates
