"""How pages travel: compressed for a browser that takes it, the board's 304 as cheap as before, keys
kept out of every cache while the other pages may be kept (the back/forward cache), and a description
on every page."""

from __future__ import annotations

import gzip
import re

import brotli
import pytest
from backports import zstd

from companion import create_app
from companion.views import tables as table_views
from tests.browser import site
from tests.conftest import new_table

BROWSER = {"Accept-Encoding": "gzip, deflate, br, zstd"}
UNPACK = {"gzip": gzip.decompress, "br": brotli.decompress, "zstd": zstd.decompress}


@pytest.fixture(scope="module")
def every_page(tmp_path_factory):
    """A filled site (tests/browser/site.py): every kind of page, each with its address."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path_factory.mktemp("site") / "site.sqlite"),
                      "SECRET_KEY": "test-secret", "RATELIMIT_ENABLED": False})
    return app, site.build(app)


@pytest.mark.parametrize("accepts, coding", [("gzip", "gzip"), ("gzip, deflate, br", "br"), ("gzip, zstd", "zstd"),
                                             ("gzip, deflate, br, zstd", "br"), ("identity", None)])
def test_pages_scripts_and_json_go_compressed_in_the_coding_the_browser_takes(client, accepts, coding):
    view, edit = new_table(client)
    for url in (view, edit, "/rules/royalty", "/static/css/app.css", "/static/vendor/htmx-2.0.11.min.js",
                "/api/v1/games", "/api/v1/openapi.json", f"{view}/qr/view.svg"):
        with client.get(url, headers={"Accept-Encoding": "identity"}) as plain, \
                client.get(url, headers={"Accept-Encoding": accepts}) as packed:
            assert plain.status_code == packed.status_code == 200, url
            body, sent = plain.data, packed.data
        assert "Content-Encoding" not in plain.headers, url
        assert packed.headers.get("Content-Encoding") == coding, url
        assert "Accept-Encoding" in packed.headers["Vary"]
        if coding:
            assert signed_anew(UNPACK[coding](sent)) == signed_anew(body), url
            assert len(sent) < len(body) / 2, url


def signed_anew(page: bytes) -> bytes:
    """A page without its forms' tokens: each is signed with the second it was made in, so two answers
    a second apart differ there alone."""
    return re.sub(rb'name="csrf_token" type="hidden" value="[^"]*"', b'name="csrf_token"', page)


def test_pdfs_go_as_they_are(client):
    view, _ = new_table(client)
    sheet = client.get("/sheets/blank/rummathon-royale.pdf", headers=BROWSER)
    assert sheet.status_code == 200 and sheet.data.startswith(b"%PDF") and "Content-Encoding" not in sheet.headers


def test_the_compressed_boards_etag_still_gets_the_cheap_304(client, monkeypatch):
    """The phone sends back the ETag it was given, with the coding Flask-Compress put on it; the view
    still answers 304 without rendering the board."""
    view, edit = new_table(client)
    first = client.get(view + "/board", headers=BROWSER)
    etag = first.headers["ETag"]
    assert first.status_code == 200 and first.headers["Content-Encoding"] == "br" and etag.endswith(':br"')

    def no_rendering(*args, **kwargs):
        raise AssertionError("the board was rendered for a 304")

    with monkeypatch.context() as patched:
        patched.setattr(table_views, "render_board", no_rendering)
        again = client.get(view + "/board", headers={**BROWSER, "If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    client.post(edit.replace("?", "/hands?"), data={"base_version": "0", "out": "Ben"})
    changed = client.get(view + "/board", headers={**BROWSER, "If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert "Ben went out" in brotli.decompress(changed.data).decode()


def test_static_files_answer_304_to_their_compressed_etag(client):
    with client.get("/static/js/app.js", headers=BROWSER) as first:
        assert first.headers["Content-Encoding"] == "br"
    with client.get("/static/js/app.js", headers={**BROWSER, "If-None-Match": first.headers["ETag"]}) as again:
        assert again.status_code == 304


def test_pages_are_kept_for_the_back_button_and_redirects_handing_out_a_key_never(app):
    """Every page, an edit link's included, is ``private, no-cache``: never in a shared cache, checked again
    before it is shown, and kept by the phone's back/forward cache (its key is in its own address, which the
    phone keeps anyway). A redirect that hands out a key is never stored."""
    phone = app.test_client()
    view, edit = new_table(phone)
    table, key = edit.split("?key=")
    for page in (edit, f"{table}/history?key={key}", f"{table}/hands/new?key={key}", view, "/rules/rummathon-royale"):
        assert phone.get(page).headers["Cache-Control"] == "private, no-cache", page
    assert phone.get(f"{table}/board?key={key}").headers["Cache-Control"] == "no-cache"  # polled, 304
    # The home page lists this phone's tables through /open, which answers with a redirect to the edit
    # link: the page holds no key, the redirect hands one out and is not stored.
    home = phone.get("/")
    assert f"{table}/open" in home.get_data(as_text=True) and "key=" not in home.get_data(as_text=True)
    assert home.headers["Cache-Control"] == "private, no-cache"
    reopened = phone.get(f"{table}/open")
    assert reopened.headers["Location"].endswith(f"?key={key}") and reopened.headers["Cache-Control"] == "no-store"
    # A rematch: the redirect to its edit link hands out a key; its pages may be kept.
    again = phone.post(f"{table}/rematch?key={key}")
    assert "key=" in again.headers["Location"] and again.headers["Cache-Control"] == "no-store"
    assert phone.get(again.headers["Location"]).headers["Cache-Control"] == "private, no-cache"


def test_every_page_has_a_title_and_a_description(every_page):
    app, pages = every_page
    client = app.test_client()
    seen = set()
    for what, url in pages:
        html = client.get(url).get_data(as_text=True)
        title = re.search(r"<title>([^<]+)</title>", html)
        description = re.search(r'<meta name="description" content="([^"]+)">', html)
        assert title and description, what
        assert len(description.group(1)) > 40, what
        seen.add(description.group(1))
    table_page = client.get(next(url for what, url in pages if what == "royalty: score pad (view link)"))
    assert "Ann, Ben" in re.search(r'name="description" content="([^"]+)"', table_page.get_data(as_text=True))[1]
    assert len(seen) > 10  # tables and rules pages say what they are, each its own
