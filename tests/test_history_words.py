"""The history in words after undos and redos, as a person would tell it: every combination (an entry, an
edit, a deletion, a renaming and a late seat, each taken back, put back, and taken back again), on the
history page and in the API's history.

The log below, worked by hand (Indian Rummy, points, IR-8): deals 1 to 3 entered; deal 3 taken back
(#4) and put back (#5); deal 1's Ben 30 → 20 (#6), taken back (#7); deal 2 deleted (#8), brought back
(#9), deleted again (#10, the redo), brought back again (#11). #4 was cancelled by #5, #6 by #7, #9 by
#10 and #8 by #11 (a cancelled undo cancels nothing, so #8 stood from #10 to #11).
"""

from __future__ import annotations

import html
import re

from companion.storage.history import lines
from companion.storage.tables import Event

TABLES = "/api/v1/tables"
GAME = {"game": "indian-rummy", "players": ["Ann", "Ben", "Cat"], "options": {"variant": "points"}}
DEALS = [{"winner": "Ann", "hands": {"Ben": {"count": 30}, "Cat": {"count": 60}}},
         {"winner": "Ben", "hands": {"Ann": {"count": 25}, "Cat": {"count": 45}}},
         {"winner": "Cat", "hands": {"Ann": {"count": 10}, "Ben": {"count": 20}}}]
EDITED = {"winner": "Ann", "hands": {"Ben": {"count": 20}, "Cat": {"count": 60}}}

#: Oldest first, as the API lists them (the page lists them newest first).
WORDS = [
    "Deal 1 entered: Ann declared",
    "Deal 2 entered: Ben declared",
    "Deal 3 entered: Cat declared",
    "Deal 3 taken back, then put back (change #5)",
    "Deal 3 put back",
    "Deal 1 edited, then taken back (change #7): Ben · Count: 30 → 20",
    "Deal 1's edit taken back: Ben · Count: 20 → 30",
    "Deal 2 deleted, then taken back (change #11)",
    "Deal 2 brought back, then deleted again (change #10)",
    "Deal 2 deleted again",
    "Deal 2 brought back again",
]


def play(client) -> tuple[str, str]:
    """The log above, through the tables API: the table's id and edit key."""
    table = client.post(TABLES, json=GAME).get_json()
    url, edit = f"{TABLES}/{table['id']}", {"Authorization": f"Bearer {table['edit_key']}"}
    steps = [("post", "rounds", {"round": deal}) for deal in DEALS] + [
        ("post", "undo", {}), ("post", "redo", {}), ("put", "rounds/1", {"round": EDITED}), ("post", "undo", {}),
        ("delete", "rounds/2", {}), ("post", "undo", {}), ("post", "redo", {}), ("post", "undo", {})]
    for version, (method, path, body) in enumerate(steps):
        answer = getattr(client, method)(f"{url}/{path}", json={**body, "base_version": version}, headers=edit)
        assert answer.status_code in (200, 201), (path, answer.get_json())
    return table["id"], table["edit_key"]


def test_each_undo_and_redo_is_told_as_a_person_would_tell_it(client):
    table, key = play(client)
    changes = client.get(f"{TABLES}/{table}/history", headers={"Authorization": f"Bearer {key}"}).get_json()["changes"]
    assert [c["summary"] for c in changes] == WORDS
    assert [c["undone_by"] for c in changes] == [None, None, None, 5, None, 7, None, 11, 10, None, None]
    # The details of an edit, and of an edit taken back (the other way round), one phrase each.
    assert (changes[5]["details"], changes[6]["details"]) == (["Ben · Count: 30 → 20"], ["Ben · Count: 20 → 30"])
    page = client.get(f"/t/{table}/history").get_data(as_text=True)
    shown = [html.unescape(re.sub(r"<[^>]+>", "", m)) for m in re.findall(r'<p class="summary">(.*?)</p>', page)]
    assert shown == WORDS[::-1]
    assert "Undone:" not in page and "Redone:" not in page and "undone by" not in page


def event(seq, kind, slot=None, data=None, undoes=None) -> Event:
    return Event(seq, kind, slot, undoes, data, "", "")


def test_a_renaming_and_a_late_seat_taken_back_and_put_back():
    """The same words for the changes that are not a round's: a renaming and a late seat."""
    log = [event(1, "add", 1, {"out": "Ann"}), event(2, "rename", data={"from": "Ann", "to": "Annie"}),
           event(3, "undo", undoes=2), event(4, "undo", undoes=3),
           event(5, "seat", data={"name": "Dan"}), event(6, "undo", undoes=5), event(7, "undo", undoes=6),
           event(8, "undo", undoes=5)]
    heading = lambda data, n: f"Hand {n} · {data['out']} went out"  # noqa: E731 - as the entry names a hand
    told = [line.summary for line in lines(log, ["Ann", "Ben"], "hand", heading)]
    assert told == [
        "Hand 1 entered: Ann went out",
        "Ann renamed Annie",
        "Renaming of Ann to Annie taken back, then made again (change #4)",
        "Ann renamed Annie again",
        "Dan seated late, playing from hand 2, then taken back (change #8)",
        "Dan's late seat taken back, then seated again (change #7)",
        "Dan seated again",
        "Dan's late seat taken back again",
    ]


def test_an_edit_is_told_with_the_entry_screens_names_in_the_readers_language(client):
    table, key = play(client)
    for language, edit in (("fr", "\xa0: Ben · Compte\xa0: 30 → 20"),
                           ("hi", "Ben · पॉइंट: 30 → 20")):
        changes = client.get(f"{TABLES}/{table}/history", headers={
            "Authorization": f"Bearer {key}", "Accept-Language": language}).get_json()["changes"]
        assert edit in changes[5]["summary"], changes[5]["summary"]
