"""Web flows through the test client: entering, correcting, undoing, history, live refresh,
conflicts, export and import."""

from __future__ import annotations

import csv
import gzip
import io
import json
import re

from tests.conftest import new_table


def hand_form(**fields):
    """A hand form as a browser posts it; unmentioned fields are blank or defaults."""
    data = {"out": "", "note": ""}
    data.update({k: str(v) for k, v in fields.items()})
    return data


def base_version(client, url) -> str:
    page = client.get(url).get_data(as_text=True)
    return re.search(r'name="base_version"[^>]*value="(\d+)"', page).group(1)


def totals(client, view_url):
    body = json.loads(client.get(view_url + "/export.json").data)
    from companion.games import score

    return score(body).totals


def post_hand(client, edit_url, **fields):
    table, key = edit_url.split("?key=")
    version = base_version(client, f"{table}/hands/new?key={key}")
    return client.post(f"{table}/hands?key={key}", data=hand_form(base_version=version, **fields))


def test_a_hand_entered_on_the_form_is_scored_and_shown(client):
    view, edit = new_table(client)
    response = post_hand(client, edit, out="Ann", p1_low=3, p1_high=1, p2_flex=1)
    assert response.status_code == 303
    # RR-1, RR-2: Ben 3×5 + 10 = 25, Cat 25; Ann collects 50.
    assert totals(client, view) == {"Ann": 50, "Ben": 0, "Cat": 0}
    page = client.get(view).get_data(as_text=True)
    assert "Ann went out" in page
    assert "collects 50" in page
    assert 'href="/rules/rummathon-royale#RR-2"' in page


def test_going_out_preselects_completion_without_javascript(client):
    """The form's default 'not completed' for the player who went out means completed (RR-2, RR-5)."""
    view, edit = new_table(client)
    post_hand(client, edit, out="Ann")
    body = json.loads(client.get(view + "/export.json").data)
    assert body["rounds"] == [{"out": "Ann"}]
    from companion.games import score

    assert score(body).standing["Ann"]["round"] == 2


def test_edit_delete_and_undo_write_new_versions_and_never_overwrite(client, app):
    view, edit = new_table(client, players=("Ann", "Ben"))
    table, key = edit.split("?key=")
    post_hand(client, edit, out="Ann", p1_low=2)  # Ann +10
    post_hand(client, edit, out="Ben", p0_flex=1)  # Ben +25
    assert totals(client, view) == {"Ann": 10, "Ben": 25}

    v = base_version(client, f"{table}/hands/1/edit?key={key}")
    response = client.post(f"{table}/hands/1?key={key}", data=hand_form(base_version=v, out="Ann", p1_low=4))
    assert response.status_code == 303
    assert totals(client, view) == {"Ann": 20, "Ben": 25}

    response = client.post(f"{table}/hands/2/delete?key={key}", data={"base_version": str(int(v) + 1)})
    assert response.status_code == 303
    assert totals(client, view) == {"Ann": 20, "Ben": 0}

    client.post(f"{table}/undo?key={key}", data={"base_version": str(int(v) + 2)})  # brings hand 2 back
    assert totals(client, view) == {"Ann": 20, "Ben": 25}
    client.post(f"{table}/undo?key={key}", data={"base_version": str(int(v) + 3)})  # undoes the edit
    assert totals(client, view) == {"Ann": 10, "Ben": 25}

    history = client.get(f"{view}/history").get_data(as_text=True)
    # Numbered as the board numbers the hands, each change in words.
    assert "Hand 1 entered: Ann went out" in history and "Hand 2 entered: Ben went out" in history
    assert "Hand 2 brought back" in history
    assert "Hand 1&#39;s edit taken back: Ben · cards left, 1–9: 4 → 2" in history
    assert "Hand 1 edited, then taken back (change #6): Ben · cards left, 1–9: 2 → 4" in history
    assert "Hand 2 deleted, then taken back (change #5)" in history
    with app.app_context():
        from companion.storage.db import get_db

        kinds = [r["kind"] for r in get_db().query("SELECT kind FROM events ORDER BY seq")]
    assert kinds == ["add", "add", "edit", "delete", "undo", "undo"]


def test_undo_with_nothing_left_says_so(client):
    view, edit = new_table(client)
    table, key = edit.split("?key=")
    response = client.post(f"{table}/undo?key={key}", data={"base_version": "0"}, follow_redirects=True)
    assert "nothing left to undo" in response.get_data(as_text=True)


def test_a_stale_edit_is_refused_with_the_input_kept(client):
    view, edit = new_table(client)
    table, key = edit.split("?key=")
    stale = base_version(client, f"{table}/hands/new?key={key}")
    post_hand(client, edit, out="Ann", p1_low=1)  # another phone saves first
    response = client.post(f"{table}/hands?key={key}",
                           data=hand_form(base_version=stale, out="Cat", p0_high=2, note="second phone"))
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Another phone changed this table" in page
    assert re.search(r'id="p0_high"[^>]*value="2"', page)
    assert 'value="second phone"' in page
    assert "Ann went out" in page  # the current state is shown
    assert totals(client, view) == {"Ann": 5, "Ben": 0, "Cat": 0}
    # Saving again from the conflict page (its form now carries the current version) works.
    fresh = re.search(r'name="base_version"[^>]*value="(\d+)"', page).group(1)
    response = client.post(f"{table}/hands?key={key}", data=hand_form(base_version=fresh, out="Cat", p0_high=2))
    assert response.status_code == 303
    assert totals(client, view) == {"Ann": 5, "Ben": 0, "Cat": 20}


def test_the_board_answers_304_until_something_changes(client):
    view, edit = new_table(client)
    first = client.get(view + "/board")
    assert first.status_code == 200
    etag = first.headers["ETag"]
    again = client.get(view + "/board", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    post_hand(client, edit, out="Ben")
    changed = client.get(view + "/board", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert "Ben went out" in changed.get_data(as_text=True)


def test_a_save_landing_while_the_board_is_read_sends_the_tag_of_the_board_sent(app, client):
    """Another phone's save lands after the table was read and before the board is built: the board
    and its tag are of one version, so the next poll fetches the new one (a tag of the new version on
    the old board left the phone on the old board until the next change)."""
    from contextlib import closing

    from flask import request

    from companion.storage import tables
    from companion.storage.db import connect

    landed = []

    @app.before_request  # runs after the table is read (a url_value_preprocessor), before the view
    def another_phone_saves():
        if request.endpoint == "tables.board" and not landed:
            landed.append(True)
            with closing(connect(app.config["DATABASE"])) as db:
                table = tables.get_table(db, request.view_args["table_id"])
                tables.append(db, table, 0, tables.Change("add", data={"out": "Ben"}))

    view, _ = new_table(client)
    first = client.get(view + "/board")
    assert landed and first.status_code == 200
    sent = re.search(r'data-version="(\d+)"', first.get_data(as_text=True))[1]
    assert f"-{sent}-" in first.headers["ETag"]
    again = client.get(view + "/board", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200 and "Ben went out" in again.get_data(as_text=True)


def test_game_over_is_shown_and_further_hands_refused(client):
    view, edit = new_table(client, players=("Ann", "Ben"), schedule="half")
    for _ in range(6):
        post_hand(client, edit, out="Ann", p1_low=1)
    page = client.get(edit).get_data(as_text=True)
    assert "Winner: Ann" in page
    assert "Enter hand 7" not in page
    table, key = edit.split("?key=")
    response = client.get(f"{table}/hands/new?key={key}")
    assert response.status_code == 303
    response = client.post(f"{table}/hands?key={key}", data=hand_form(base_version="6", out="Ben"))
    assert response.status_code == 422
    assert "the game ended after hand 6" in response.get_data(as_text=True)


def test_export_json_reimports_to_the_same_game(client):
    view, edit = new_table(client, players=("Ann", "Ben", "Cat"), schedule="odd", title="Friday")
    post_hand(client, edit, out="Ann", p1_low=1, b0_on="Ben", b0_by="Cat", b0_result="failed")
    post_hand(client, edit, out="Cat", p0_sabotage=1, p1_progress="completed")
    exported = json.loads(client.get(view + "/export.json").data)
    assert exported["options"] == {"schedule": "odd"} and exported["title"] == "Friday"
    response = client.post("/import", data={"text": json.dumps(exported)})
    assert response.status_code == 303
    reimported = json.loads(client.get(response.headers["Location"].split("?")[0] + "/export.json").data)
    assert reimported == exported


def test_export_csv_has_rounds_and_running_totals(client):
    view, edit = new_table(client, players=("Ann", "Ben"))
    post_hand(client, edit, out="Ann", p1_low=2)  # Ann +10
    post_hand(client, edit, out="Ben", p0_flex=2)  # Ben +50
    rows = list(csv.reader(io.StringIO(client.get(view + "/export.csv").get_data(as_text=True))))
    assert rows[0] == ["round", "Ann", "Ben", "Ann total", "Ben total"]
    assert rows[1] == ["1", "10", "0", "10", "0"]
    assert rows[2] == ["2", "0", "50", "10", "50"]
    assert rows[3][:3] == ["total", "10", "50"]


def test_qr_codes_encode_the_links(client):
    view, edit = new_table(client)
    table, key = edit.split("?key=")
    svg = client.get(f"{table}/qr/view.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml" and b"<svg" in svg.data
    assert client.get(f"{table}/qr/edit.svg?key={key}").status_code == 200


def test_the_device_label_is_recorded_in_the_history(client):
    view, edit = new_table(client)
    client.post("/device", data={"device": "Ann's phone", "next": edit})
    post_hand(client, edit, out="Ann")
    assert "Ann&#39;s phone" in client.get(view + "/history").get_data(as_text=True)


def test_recent_tables_are_listed_on_the_home_page(client):
    new_table(client, title="Tuesday club")
    page = client.get("/").get_data(as_text=True)
    assert "Tuesday club" in page and "can edit" in page


def test_rules_page_anchors_every_ruling(client):
    page = client.get("/rules/rummathon-royale").get_data(as_text=True)
    for n in range(1, 7):
        assert f'id="RR-{n}"' in page


def test_manifest_and_icons(client):
    manifest = client.get("/manifest.webmanifest").get_json(force=True)
    assert manifest["name"] == "Courtier"
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as response:
            assert response.status_code == 200
    assert manifest["id"] == manifest["scope"] == "/"


def test_the_maskable_icon_keeps_the_crown_inside_the_safe_zone(client):
    """A launcher may cut a maskable icon to any shape that holds the central circle of 80 % of its
    width: outside that circle there is only the ground colour, and the crown is inside it."""
    import io

    from PIL import Image

    manifest = client.get("/manifest.webmanifest").get_json(force=True)
    (maskable,) = [i for i in manifest["icons"] if i.get("purpose") == "maskable"]
    with client.get(maskable["src"]) as response:
        image = Image.open(io.BytesIO(response.data)).convert("RGB")
    assert image.size == (512, 512) == tuple(int(n) for n in maskable["sizes"].split("x"))
    ground = image.getpixel((0, 0))
    assert ground == (0x14, 0x21, 0x3d)
    outside = crown = 0
    for x in range(0, 512, 4):
        for y in range(0, 512, 4):
            inside = (x - 255.5) ** 2 + (y - 255.5) ** 2 <= (0.4 * 512) ** 2
            differs = max(abs(a - b) for a, b in zip(image.getpixel((x, y)), ground, strict=True)) > 8
            outside += differs and not inside
            crown += differs
    assert outside == 0 and crown > 1000


def test_first_page_is_small(client):
    """The home page with its CSS and scripts: under 100 KB transferred to a phone (the page and its
    files go compressed), and the files themselves kept in check too."""
    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
    sent, html = len(page.data), gzip.decompress(page.data).decode()
    files = len(html)
    for asset in re.findall(r'(?:src|href)="(/static/[^"]+\.(?:css|js))"', html):
        with client.get(asset, headers={"Accept-Encoding": "gzip"}) as response:
            sent += len(response.data)
            packed = response.headers.get("Content-Encoding") == "gzip"
            body = gzip.decompress(response.data) if packed else response.data
            files += len(body)
        with client.get(asset) as plain:  # a client that takes no gzip gets the file as it is
            assert plain.data == body and "Content-Encoding" not in plain.headers
    assert sent < 50_000
    # 112 KB with the card picker's touch handling and the refused save's focus: the files as the
    # phone's browser parses them; what the phone downloads is the 50 KB above
    assert files < 115_000
