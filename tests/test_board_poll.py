"""A board refresh with nothing new is answered before Flask (companion/web/board_poll.py), exactly as the
board's own view answers it: the same status and the same headers, and every other refresh (a change,
a wrong key, a table gone) still the view's."""

from __future__ import annotations

import pytest

from companion.views import tables as table_views
from companion.web import board_poll
from tests.conftest import new_table

BROWSER = {"Accept-Encoding": "gzip, deflate, br, zstd"}


def through_flask(client, url: str, headers: dict[str, str], monkeypatch) -> tuple[int, dict[str, str], bytes]:
    """The answer of the view itself, with the early answer turned off."""
    with monkeypatch.context() as patched:
        patched.setattr(board_poll.UnchangedBoards, "_unchanged", lambda self, environ: None)
        answer = client.get(url, headers=headers)
    return answer.status_code, dict(answer.headers), answer.data


def early(client, url: str, headers: dict[str, str], monkeypatch) -> tuple[int, dict[str, str], bytes]:
    """The answer when Flask's view must not be reached."""
    def not_reached(*args, **kwargs):
        raise AssertionError("the board's view was reached")

    with monkeypatch.context() as patched:
        patched.setattr(table_views, "_state", not_reached)
        answer = client.get(url, headers=headers)
    return answer.status_code, dict(answer.headers), answer.data


@pytest.mark.parametrize("link", ["view", "edit"])
@pytest.mark.parametrize("accepts", [BROWSER, {"Accept-Encoding": "identity"}])
def test_an_unchanged_board_gets_the_views_own_304_without_flask(client, monkeypatch, link, accepts):
    view, edit = new_table(client)
    url = (view + "/board") if link == "view" else edit.replace("?", "/board?")
    first = client.get(url, headers=accepts)
    assert first.status_code == 200
    asked = {**accepts, "If-None-Match": first.headers["ETag"]}
    expected = through_flask(client, url, asked, monkeypatch)
    assert expected[0] == 304
    assert early(client, url, asked, monkeypatch) == expected


def test_a_changed_board_is_sent_whole_by_the_view(client):
    view, edit = new_table(client)
    etag = client.get(view + "/board").headers["ETag"]
    assert client.post(edit.replace("?", "/hands?"), data={"base_version": "0", "out": "Ben"}).status_code == 303
    changed = client.get(view + "/board", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert "Ben went out" in changed.get_data(as_text=True)


def _but_cookie(headers) -> dict:
    return {name: value for name, value in dict(headers).items() if name != "Set-Cookie"}


def test_a_refresh_the_early_answer_cannot_vouch_for_is_the_views(client, monkeypatch):
    """A wrong key, a key on a view link's tag, a key sent twice, another table's tag and a tag sent
    with others each reach the view, which answers them as it always did."""
    view, edit = new_table(client)
    other_view, _ = new_table(client)
    key = edit.split("key=")[1]
    view_tag = client.get(view + "/board").headers["ETag"]
    edit_tag = client.get(edit.replace("?", "/board?")).headers["ETag"]
    other_tag = client.get(other_view + "/board").headers["ETag"]
    cases = [
        (f"{view}/board?key=wrong{key}", edit_tag, 403),
        (f"{view}/board?key={key}", view_tag, 200),  # the edit link's board, not the view link's
        (f"{view}/board?key={key}&key={key}", edit_tag, 304),
        (f"{view}/board", other_tag, 200),
        (f"{view}/board", f"{view_tag}, {other_tag}", 304),
    ]
    real = table_views._state
    for url, tag, status in cases:
        reached = []
        with monkeypatch.context() as patched:
            patched.setattr(table_views, "_state", lambda seen=reached: seen.append(True) or real())
            answer = client.get(url, headers={"If-None-Match": tag})
        assert answer.status_code == status, (url, tag)
        assert reached or status == 403, (url, tag)  # a wrong key is refused before the board is read
        # The same answer, but the session cookie a page with a form signs anew each time (its CSRF token).
        status_then, headers_then = through_flask(client, url, {"If-None-Match": tag}, monkeypatch)[:2]
        assert (answer.status_code, _but_cookie(answer.headers)) == (status_then, _but_cookie(headers_then)), (url, tag)


def test_a_table_gone_is_the_views_404_in_words(client, app):
    view, _ = new_table(client)
    tag = client.get(view + "/board").headers["ETag"]
    with app.app_context():
        from companion.storage.db import get_db, immediate
        db = get_db()
        with immediate(db):
            db.execute("DELETE FROM events WHERE table_id = ?", [view.rsplit("/", 1)[1]])
            db.execute("DELETE FROM tables WHERE id = ?", [view.rsplit("/", 1)[1]])
    app.extensions["courtier.tables"].discard(view.rsplit("/", 1)[1])
    gone = client.get(view + "/board", headers={"If-None-Match": tag})
    assert gone.status_code == 404 and "table" in gone.get_data(as_text=True).lower()
