"""Bad input, from a careless thumb or a hostile program: never a 500, always a 4xx with a
message that names the field, next to that field, and everything typed kept in the form."""

from __future__ import annotations

import copy
import io
import json
from html.parser import HTMLParser

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.storage import db
from tests.conftest import new_table

GAME = "rummathon-royale"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


# ---------------------------------------------------------------------------------------
# A small DOM, to find a field's block and the values the form shows


class Node:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Node | None):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node | str] = []

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def text(self) -> str:
        """The text inside, as a reader sees it (whitespace runs made one space)."""
        return " ".join(self.raw_text().split())

    def raw_text(self) -> str:
        return "".join(c if isinstance(c, str) else c.raw_text() for c in self.children)

    def walk(self):
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.walk()


class Tree(HTMLParser):
    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {}, None)
        self.current = self.root
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, dict(attrs), self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)

    def by_id(self, element_id: str) -> Node:
        found = [n for n in self.root.walk() if n.attrs.get("id") == element_id]
        assert len(found) == 1, f"{len(found)} elements with id={element_id!r}"
        return found[0]

    def block(self, element_id: str) -> str:
        """The text of the field block (div.field) holding the element with that id."""
        node = self.by_id(element_id)
        while node is not None and not (node.tag == "div" and "field" in node.classes):
            node = node.parent
        assert node is not None, f"{element_id} is in no field block"
        return node.text()

    def value(self, element_id: str) -> str | None:
        """What the control with that id shows: an input's value or a select's chosen option."""
        node = self.by_id(element_id)
        radios = [n for n in node.walk() if n.tag == "input" and n.attrs.get("type") == "radio"]
        if radios:  # a row of choices to tap: the one chosen
            chosen = [n for n in radios if "checked" in n.attrs]
            return chosen[0].attrs.get("value") if chosen else None
        if node.tag == "select":
            chosen = [o for o in node.walk() if o.tag == "option" and "selected" in o.attrs]
            return chosen[0].attrs.get("value") if chosen else None
        if node.tag == "textarea":
            return node.raw_text().removeprefix("\r\n").removeprefix("\n")
        return node.attrs.get("value")

    def errors(self) -> list[str]:
        return [n.text() for n in self.root.walk() if "error" in n.classes]

    def alert(self) -> str:
        """What the page says when it comes: an alert, or a part the live region announces (data-announce)."""
        alerts = [n.text() for n in self.root.walk() if n.attrs.get("role") == "alert" or "data-announce" in n.attrs]
        return " ".join(alerts)


def page(response) -> Tree:
    return Tree(response.get_data(as_text=True))


def event_count(app) -> int:
    with db.borrowed(app) as conn:
        return conn.value("SELECT COUNT(*) FROM events")


def table_count(app) -> int:
    with db.borrowed(app) as conn:
        return conn.value("SELECT COUNT(*) FROM tables")


# ---------------------------------------------------------------------------------------
# The new-table form


def seats(*names: str, **extra: str) -> dict[str, str]:
    data = {f"seat{i}": n for i, n in enumerate(names, 1)}
    data.setdefault("opt-schedule", "all")
    data.setdefault("title", "")
    data.update(extra)
    return data


def test_one_player_is_refused_next_to_the_first_seat(app, client):
    response = client.post("/new/rummathon-royale", data=seats("Ann", title="Friday"))
    assert response.status_code == 422
    tree = page(response)
    assert "2 to 6 players; 1 was named" in tree.block("seat1")
    assert tree.value("seat1") == "Ann"
    assert tree.value("title") == "Friday"
    assert table_count(app) == 0


def test_no_player_at_all_is_refused(app, client):
    response = client.post("/new/rummathon-royale", data=seats())
    assert response.status_code == 422
    assert "2 to 6 players; none were named" in page(response).block("seat1")
    assert table_count(app) == 0


def test_the_form_has_six_seats_and_a_forged_seventh_name_is_refused(app, client):
    tree = page(client.get("/new/rummathon-royale"))
    assert [n.attrs["name"] for n in tree.root.walk() if (n.attrs.get("name") or "").startswith("seat")] == [
        f"seat{i}" for i in range(1, 7)]
    names = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")
    response = client.post("/new/rummathon-royale", data=seats(*names))
    assert response.status_code == 422
    assert "played by 2 to 6 players; 7 were named" in response.get_data(as_text=True)
    assert table_count(app) == 0


def test_duplicate_names_ignoring_case_are_refused_next_to_the_second(app, client):
    response = client.post("/new/rummathon-royale", data=seats("Ann", "Ben", "ANN", "Cat"))
    assert response.status_code == 422
    tree = page(response)
    assert "two players are called ANN" in tree.block("seat3")
    assert not tree.errors() or all("ANN" in e for e in tree.errors())
    assert [tree.value(f"seat{i}") for i in range(1, 5)] == ["Ann", "Ben", "ANN", "Cat"]
    assert table_count(app) == 0


def test_duplicates_after_a_gap_are_reported_at_the_right_seat(app, client):
    response = client.post("/new/rummathon-royale", data=seats("Ann", "", "Ben", "", "ben"))
    assert response.status_code == 422
    tree = page(response)
    assert "two players are called ben" in tree.block("seat5")
    assert "two players" not in tree.block("seat3")
    assert tree.value("seat5") == "ben"


def test_a_41_character_name_is_refused_next_to_its_seat(app, client):
    long_name = "Anne-Marie Fitzgerald-Okonkwo of Kildare"
    assert len(long_name) == 40
    response = client.post("/new/rummathon-royale", data=seats("Ann", long_name + "x"))
    assert response.status_code == 422
    tree = page(response)
    assert "40 characters" in tree.block("seat2")
    assert tree.value("seat2") == long_name + "x"
    assert tree.value("seat1") == "Ann"
    assert table_count(app) == 0
    assert client.post("/new/rummathon-royale", data=seats("Ann", long_name)).status_code == 303


def test_an_unknown_schedule_is_refused(app, client):
    response = client.post("/new/rummathon-royale", data=seats("Ann", "Ben", **{"opt-schedule": "weekly"}))
    assert response.status_code == 422
    assert "Not a valid choice" in response.get_data(as_text=True)
    assert page(response).value("seat2") == "Ben"
    assert table_count(app) == 0


def test_a_61_character_title_is_refused_and_a_blank_one_is_fine(app, client):
    response = client.post("/new/rummathon-royale", data=seats("Ann", "Ben", title="t" * 61))
    assert response.status_code == 422
    assert "60 characters" in page(response).block("title")
    view_url, _ = new_table(client, players=("Ann", "Ben"), title="")
    assert "<h1>Rummathon Royale</h1>" in client.get(view_url).get_data(as_text=True)


# ---------------------------------------------------------------------------------------
# The hand form (players Ann, Ben, Cat are p0, p1, p2)


@pytest.fixture
def table(client):
    view_url, edit_url = new_table(client, players=("Ann", "Ben", "Cat"))
    return view_url, edit_url.split("key=")[1]


def post_hand(client, table, slot=None, **fields):
    view_url, key = table
    url = f"{view_url}/hands?key={key}" if slot is None else f"{view_url}/hands/{slot}?key={key}"
    return client.post(url, data=fields)


def saved(client, table, **fields):
    response = post_hand(client, table, **fields)
    assert response.status_code == 303, page(response).errors() or page(response).alert()


FILLED = {"p1_low": "3", "p2_high": "2", "p2_flex": "1", "note": "kept note"}


def assert_kept(tree: Tree, fields: dict[str, str]) -> None:
    for name, value in fields.items():
        assert tree.value(name) == value, (name, tree.value(name), value)


@pytest.mark.parametrize(("fields", "where", "says"), [
    ({"out": "Zed"}, "out", "Not a valid choice"),
    ({"out": "Ann", "p1_low": "-1"}, "p1_low", "from 0 to 112"),
    ({"out": "Ann", "p1_sabotage": "113"}, "p1_sabotage", "from 0 to 112"),
    ({"out": "Ann", "p1_high": "abc"}, "p1_high", "whole number"),
    ({"out": "Ann", "p1_action": "2.5"}, "p1_action", "whole number"),
    ({"out": "Ann", "p1_low": "9" * 5000}, "p1_low", "whole number"),
    ({"out": "Ann", "p1_extra": "21"}, "p1_extra", "At most 20 extra cards"),
    ({"out": "Ann", "p1_extra": "1"}, "p1_extra", "Ben has 0 points, which buy at most 0 extra cards (RR-4)"),
    ({"out": "Ann", "p1_progress": "teleported"}, "p1_progress", "Not a valid choice"),
    ({"out": "Ann", "p0_low": "2"}, "p0_low", "Ann went out, so Ann has no cards left"),
    ({"out": "Ann", "p0_progress": "declared-failed"}, "p0_progress",
     "yet the entry says Ann declared Rummathon Royale and failed"),
    ({"out": "Ann", "b0_on": "Ben", "b0_by": "Cat", "b0_result": "failed",
      "b1_on": "Ben", "b1_by": "Ann", "b1_result": "completed"}, "b1_on", "Ben is already burdened this hand"),
    ({"out": "Ann", "b0_on": "Ben", "b0_by": "Ben", "b0_result": "failed"}, "b0_on", "Ben cannot burden themselves"),
    ({"out": "Ann", "b0_on": "Ben", "b0_by": "Zed", "b0_result": "failed"}, "b0_by", "Not a valid choice"),
    ({"out": "Ann", "b0_on": "Ben", "b0_by": "Cat"}, "b0_result",
     "say whether the burdened player completed the Burden"),
    ({"out": "Ann", "b0_on": "Ben", "b0_result": "failed"}, "b0_by", "say who played the Burden"),
])
def test_a_bad_hand_is_refused_next_to_its_field_with_the_rest_kept(app, client, table, fields, where, says):
    data = {**FILLED, **fields, "base_version": "0"}
    response = post_hand(client, table, **data)
    assert response.status_code == 422
    tree = page(response)
    block = tree.block(where)
    assert says in block, (block, tree.alert())
    assert f'id="{where}-error"' in response.get_data(as_text=True)
    # every other value typed is still in the form
    kept = {k: v for k, v in data.items() if k != where and k != "base_version"}
    if kept.get("out") == "Zed":
        kept.pop("out")  # not a choice, so there is nothing to show it selected
    assert_kept(tree, kept)
    if tree.by_id(where).tag == "input":
        assert tree.value(where) == fields[where]  # the refused value too, to correct it
    assert event_count(app) == 0


def test_declaring_right_after_a_failed_declaration_is_refused(app, client, table):
    saved(client, table, out="Ann", p1_progress="declared-failed", p1_low="2", base_version="0")
    response = post_hand(client, table, out="Cat", p1_progress="declared-completed", p0_high="1", base_version="1")
    assert response.status_code == 422
    tree = page(response)
    assert "Ben declared and failed last hand, so may not declare this hand (RR-5)" in tree.block("p1_progress")
    assert_kept(tree, {"out": "Cat", "p1_progress": "declared-completed", "p0_high": "1"})
    assert event_count(app) == 1
    # the hand after that, Ben may declare again
    saved(client, table, out="Cat", base_version="1")
    saved(client, table, out="Cat", p1_progress="declared-completed", base_version="2")


def test_a_correction_that_breaks_a_later_hand_is_refused(app, client, table):
    view_url, key = table
    saved(client, table, out="Ben", p0_low="4", base_version="0")  # Ben collects 20
    saved(client, table, out="Ann", p1_extra="2", base_version="1")  # Ben buys 2 cards with them
    response = post_hand(client, table, slot=1, out="Ann", p1_low="1", base_version="2")
    assert response.status_code == 422
    tree = page(response)
    alert = tree.alert()
    assert "Hand 2 would no longer add up" in alert
    assert "Ben has 0 points, which buy at most 0 extra cards (RR-4)" in alert
    assert_kept(tree, {"out": "Ann", "p1_low": "1"})
    assert "Correct hand 1" in response.get_data(as_text=True)
    assert event_count(app) == 2
    exported = json.loads(client.get(f"{view_url}/export.json").data)
    assert exported["rounds"][0]["out"] == "Ben"


@pytest.mark.parametrize("fields", [{"out": "Ann"}, {"out": "Zed"}])
def test_a_hand_slot_that_does_not_exist_is_a_404(app, client, table, fields):
    saved(client, table, out="Ann", base_version="0")
    for slot in (2, 99, 10**30):
        response = post_hand(client, table, slot=slot, base_version="1", **fields)
        assert response.status_code == 404, (slot, response.status_code)
        assert "no longer in play" in response.get_data(as_text=True)
    assert event_count(app) == 1


def test_a_deleted_hand_cannot_be_corrected(app, client, table):
    view_url, key = table
    saved(client, table, out="Ann", base_version="0")
    assert client.post(f"{view_url}/hands/1/delete?key={key}", data={"base_version": "1"}).status_code == 303
    assert post_hand(client, table, slot=1, out="Ben", base_version="2").status_code == 404
    assert client.get(f"{view_url}/hands/1/edit?key={key}").status_code == 404
    assert event_count(app) == 2


def test_deleting_a_hand_that_does_not_exist_writes_nothing(app, client, table):
    view_url, key = table
    response = client.post(f"{view_url}/hands/7/delete?key={key}", data={"base_version": "0"})
    assert response.status_code in (303, 404, 422)
    assert event_count(app) == 0
    if response.status_code == 303:
        assert "no hand 7" in client.get(response.headers["Location"]).get_data(as_text=True)


@pytest.mark.parametrize("base", ["abc", "", "1.5", "-1", "99999999999999999999999999", "0x0"])
def test_a_strange_base_version_is_handled(app, client, table, base):
    view_url, key = table
    # A version that is not the table's current one is never written blind: it is a conflict.
    response = post_hand(client, table, out="Ann", p1_low="1", base_version=base)
    assert response.status_code == 409, response.status_code
    assert json.loads(client.get(f"{view_url}/export.json").data)["rounds"] == []
    assert page(response).value("p1_low") == "1"
    saved(client, table, out="Ann", base_version="0")
    for route in ("undo", "hands/1/delete"):
        response = client.post(f"{view_url}/{route}?key={key}", data={"base_version": base})
        assert response.status_code == 303, (route, response.status_code)
        assert "nothing was changed" in client.get(response.headers["Location"]).get_data(as_text=True)
    assert event_count(app) == 1


def test_a_stale_base_version_is_409_with_the_entry_kept(app, client, table):
    saved(client, table, out="Ann", base_version="0")
    response = post_hand(client, table, out="Ben", p0_flex="2", base_version="0")
    assert response.status_code == 409
    tree = page(response)
    assert "Another phone changed this table" in tree.alert()
    assert_kept(tree, {"out": "Ben", "p0_flex": "2", "base_version": "1"})
    assert event_count(app) == 1


# ---------------------------------------------------------------------------------------
# The API


def score(client, body=None, *, raw: bytes | None = None):
    if raw is not None:
        return client.post("/api/v1/score", data=raw, content_type="application/json")
    return client.post("/api/v1/score", json=body)


def assert_errors(response, where: str | None = None, says: str | None = None) -> list[dict]:
    assert response.status_code == 422, (response.status_code, response.get_data(as_text=True)[:300])
    body = response.get_json()
    assert isinstance(body, dict) and isinstance(body["errors"], list) and body["errors"]
    for e in body["errors"]:
        assert isinstance(e["where"], str) and e["where"], e
        assert isinstance(e["message"], str) and e["message"], e
    if where is not None:
        matching = [e for e in body["errors"] if e["where"] == where]
        assert matching, (where, body["errors"])
        if says is not None:
            assert any(says in e["message"] for e in matching), (says, matching)
    return body["errors"]


def game(players=("Ann", "Ben", "Cat"), rounds=None, **extra):
    players = list(players) if isinstance(players, tuple) else players  # anything else is sent as it is
    body = {"game": GAME, "players": players, "rounds": rounds if rounds is not None else [{"out": "Ann"}]}
    body.update(extra)
    return body


RAW_BODIES = {
    "malformed JSON": (b'{"game": "rummathon-royale", ', "$", "not valid JSON"),
    "empty body": (b"", "$", "empty"),
    "only spaces": (b"   \n ", "$", "empty"),
    "a JSON array": (b'[{"game": "rummathon-royale"}]', "$", "JSON object"),
    "a string": (b'"rummathon-royale"', "$", "JSON object"),
    "a number": (b"42", "$", "JSON object"),
    "null": (b"null", "$", "JSON object"),
    "10000 nested arrays": (b"[" * 10000 + b"]" * 10000, "$", "more than 32 deep inside one another"),
    "10000 nested objects": (b'{"a":' * 10000 + b"1" + b"}" * 10000, "$", "more than 32 deep inside one another"),
    "not UTF-8": (b'{"game": "\xff\xfe"}', "$", "not valid JSON"),
    "a 5000-digit number": (b'{"game": ' + b"9" * 5000 + b"}", "$", "not valid JSON"),
    "NaN in a count": (b'{"game": "rummathon-royale", "players": ["A", "B"], "rounds": '
                       b'[{"out": "A", "left": {"B": {"low": NaN}}}]}', "rounds[0].left.B.low", "whole number"),
    "a nested list as the game": (b'{"game": ' + b"[" * 900 + b"]" * 900 + b"}", "$", "more than 32 deep"),
}


@pytest.mark.parametrize("name", RAW_BODIES)
def test_the_api_refuses_a_body_that_is_no_game(client, name):
    raw, where, says = RAW_BODIES[name]
    assert_errors(score(client, raw=raw), where, says)


BAD_GAMES = {
    "missing game": ({"players": ["Ann", "Ben"], "rounds": []}, "game", "say which game: one of alliance-royals"),
    "unknown game": (game(game="snap"), "game", "unknown game “snap”"),
    "game not a string": (game(game=["rummathon-royale"]), "game", "unknown game"),
    "missing players": ({"game": GAME, "rounds": []}, "players", "as a list of names"),
    "players not a list": (game(players="Ann, Ben"), "players", "as a list of names"),
    "players an object": (game(players={"Ann": 1, "Ben": 2}), "players", "as a list of names"),
    "1 player": (game(players=["Ann"]), "players", "2 to 6 players; 1 was named"),
    "0 players": (game(players=[]), "players", "2 to 6 players; none were named"),
    "7 players": (game(players=["A", "B", "C", "D", "E", "F", "G"]), "players", "7 were named"),
    "duplicate players": (game(players=["Ann", "Ben", "ann"]), "players[2]", "two players are called ann"),
    "a blank name": (game(players=["Ann", "   "]), "players[1]", "needs a name"),
    "a number as a name": (game(players=["Ann", 7]), "players[1]", "needs a name"),
    "a 41-character name": (game(players=["Ann", "x" * 41]), "players[1]", "at most 40 characters"),
    "rounds not a list": (game(rounds={"0": {"out": "Ann"}}), "rounds", "must be a list"),
    "rounds a string": (game(rounds="Ann went out"), "rounds", "must be a list"),
    "a round that is a string": (game(rounds=["Ann went out"]), "rounds[0]", "each hand needs who went out"),
    "a round that is null": (game(rounds=[None]), "rounds[0]", "each hand needs who went out"),
    "options not an object": (game(options=["all"]), "options", "must be an object"),
    "an unknown option": (game(options={"speed": "fast"}), "options.speed", "unknown option"),
    "a schedule that is a list": (game(options={"schedule": ["all"]}), "options.schedule", "unknown schedule"),
    "an unknown field in a hand": (game(rounds=[{"out": "Ann", "winner": "Ann"}]), "rounds[0].winner",
                                   "unknown field “winner”"),
    "out not at the table": (game(rounds=[{"out": "Zed"}]), "rounds[0].out", "“Zed” is not a player"),
    "out missing": (game(rounds=[{"left": {"Ben": {"low": 1}}}]), "rounds[0].out", "name the player who went out"),
    "a count as a string": (game(rounds=[{"out": "Ann", "left": {"Ben": {"low": "3"}}}]),
                            "rounds[0].left.Ben.low", "whole number, not “3”"),
    "a count as a float": (game(rounds=[{"out": "Ann", "left": {"Ben": {"low": 3.0}}}]),
                           "rounds[0].left.Ben.low", "whole number, not 3.0"),
    "a count as a boolean": (game(rounds=[{"out": "Ann", "left": {"Ben": {"low": True}}}]),
                             "rounds[0].left.Ben.low", "whole number, not a yes-or-no answer"),
    "a huge count": (game(rounds=[{"out": "Ann", "left": {"Ben": {"low": 10**30}}}]),
                     "rounds[0].left.Ben.low", "only 112 playing cards"),
    "a negative count": (game(rounds=[{"out": "Ann", "left": {"Ben": {"low": -1}}}]),
                         "rounds[0].left.Ben.low", "cannot be negative"),
    "an unknown card class": (game(rounds=[{"out": "Ann", "left": {"Ben": {"jokers": 1}}}]),
                              "rounds[0].left.Ben.jokers", "unknown class"),
    "cards left not an object": (game(rounds=[{"out": "Ann", "left": {"Ben": 5}}]), "rounds[0].left.Ben",
                                 "as counts"),
    "extra cards as a string": (game(rounds=[{"out": "Ann", "extra_cards": {"Ben": "2"}}]),
                                "rounds[0].extra_cards.Ben", "whole number"),
    "extra cards huge": (game(rounds=[{"out": "Ann", "extra_cards": {"Ben": 10**30}}]),
                         "rounds[0].extra_cards.Ben", "at most 20"),
    "extra cards not affordable": (game(rounds=[{"out": "Ann", "extra_cards": {"Ben": 1}}]),
                                   "rounds[0].extra_cards.Ben", "Ben has 0 points, which buy at most 0"),
    "a progress that is a list": (game(rounds=[{"out": "Ann", "progress": {"Ben": ["completed"]}}]),
                                  "rounds[0].progress.Ben", "is not a way a round can go"),
    "a progress that is an object": (game(rounds=[{"out": "Ann", "progress": {"Ben": {"x": 1}}}]),
                                     "rounds[0].progress.Ben", "is not a way a round can go"),
    "burdens not a list": (game(rounds=[{"out": "Ann", "burdens": {"on": "Ben"}}]), "rounds[0].burdens",
                           "give the Burdens as a list"),
    "a burden that is a string": (game(rounds=[{"out": "Ann", "burdens": ["Ben"]}]), "rounds[0].burdens[0]",
                                  "a Burden needs who it was on"),
    "double as a number": (game(rounds=[{"out": "Ann", "burdens": [
        {"on": "Ben", "by": "Cat", "double": 1, "completed": False}]}]), "rounds[0].burdens[0].double",
        "say whether it was a Double Burden"),
    "a burden on a list": (game(rounds=[{"out": "Ann", "burdens": [
        {"on": ["Ben"], "by": "Cat", "completed": False}]}]), "rounds[0].burdens[0].on", "not a player"),
    "a hand after the game ended": (game(players=["Ann", "Ben"], rounds=[
        {"out": None, "progress": {"Ann": "double-completed"}}, {"out": "Ben"}]), "rounds[1]", "the game ended"),
}


@pytest.mark.parametrize("name", BAD_GAMES)
def test_the_api_refuses_a_game_it_cannot_score(client, name):
    body, where, says = BAD_GAMES[name]
    assert_errors(score(client, body), where, says)


def test_unicode_names_are_welcome_and_kept_exactly(client):
    players = ["Zoë", "李雷", "Ólafur 🃏"]
    response = score(client, game(players=players, rounds=[{"out": "李雷", "left": {"Zoë": {"flex": 1}}}]))
    assert response.status_code == 200
    body = response.get_json()
    assert body["players"] == players
    assert body["totals"] == {"Zoë": 0, "李雷": 25, "Ólafur 🃏": 0}
    assert "李雷".encode() in response.data  # sent as UTF-8, not as \\u escapes


@pytest.mark.parametrize(("players", "rounds", "where", "says"), [
    (["Zoë", "Ben"], [{"out": "Zoe"}], "rounds[0].out", "“Zoe” is not a player"),
    (["ÉMILE", "émile"], [], "players[1]", "two players are called émile"),
    (["Ann", "\u3000\u00a0"], [], "players[1]", "needs a name"),
    (["Ann", "é" * 41], [], "players[1]", "at most 40 characters"),
])
def test_unicode_names_that_cannot_play_are_refused(client, players, rounds, where, says):
    assert_errors(score(client, game(players=players, rounds=rounds)), where, says)


def test_the_api_answers_json_even_when_html_is_preferred(client):
    response = client.post("/api/v1/score", data=b"{", content_type="application/json",
                           headers={"Accept": "text/html"})
    assert response.status_code == 422
    assert response.mimetype == "application/json"


# ---------------------------------------------------------------------------------------
# The API under random input (hypothesis)

NAMES = ["Ann", "Ben", "Cat"]
WORDS = st.sampled_from([
    *NAMES, "Zed", "", " ", "ann", GAME, "snap", "out", "left", "progress", "burdens", "extra_cards", "note",
    "low", "high", "action", "sabotage", "flex", "on", "by", "double", "completed", "failed",
    "declared-completed", "declared-failed", "double-completed", "schedule", "all", "half", "even", "odd",
])
LEAVES = (st.none() | st.booleans() | st.integers(-3, 130) | st.integers() | st.just(10**30)
          | st.floats(allow_nan=True, allow_infinity=True) | WORDS | st.text(max_size=12))
JSON = st.recursive(
    LEAVES,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(WORDS | st.text(max_size=6), children,
                                                                      max_size=4),
    max_leaves=25,
)
VALID = {
    "game": GAME, "players": NAMES, "options": {"schedule": "half"},
    "rounds": [
        {"out": "Ann", "left": {"Ben": {"low": 3, "high": 1}, "Cat": {"flex": 2}},
         "burdens": [{"on": "Ben", "by": "Cat", "double": False, "completed": False}], "note": "first"},
        {"out": "Ben", "left": {"Ann": {"sabotage": 1}}, "extra_cards": {"Ann": 3},
         "progress": {"Cat": "declared-failed"}},
        {"out": "Cat", "left": {"Ben": {"action": 2}}, "progress": {"Ann": "declared-completed"}},
    ],
}
API_SETTINGS = settings(max_examples=150, deadline=None,
                        suppress_health_check=[HealthCheck.function_scoped_fixture])  # the API is stateless


def check_answer(response) -> None:
    assert response.status_code in (200, 422), (response.status_code, response.get_data(as_text=True)[:300])
    if response.status_code == 422:
        assert_errors(response)
        return
    body = response.get_json()
    players = body["players"]
    assert set(body["totals"]) == set(players)
    for p in players:
        assert body["totals"][p] == sum(r["points"][p] for r in body["rounds"]), p
        assert all(isinstance(r["points"][p], int) for r in body["rounds"])


def test_the_valid_game_used_below_is_valid(client):
    response = score(client, VALID)
    assert response.status_code == 200, response.get_json()
    check_answer(response)
    # Ann 75 - 30 (3 extra cards); Ben 20; Cat 50 (failed Burden) + 30
    assert response.get_json()["totals"] == {"Ann": 45, "Ben": 20, "Cat": 80}


@API_SETTINGS
@given(body=JSON)
def test_random_json_is_a_200_or_a_422(client, body):
    check_answer(client.post("/api/v1/score", data=json.dumps(body), content_type="application/json"))


@API_SETTINGS
@given(body=st.fixed_dictionaries({"game": st.just(GAME) | JSON, "players": st.just(NAMES) | JSON},
                                  optional={"options": JSON, "rounds": st.lists(JSON, max_size=3)}))
def test_random_games_are_a_200_or_a_422(client, body):
    check_answer(client.post("/api/v1/score", data=json.dumps(body), content_type="application/json"))


@st.composite
def mutations(draw):
    """The valid game with one place in it replaced, removed or added to."""
    doc = copy.deepcopy(VALID)
    node = doc
    while True:
        keys = sorted(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = draw(st.sampled_from(keys))
        child = node[key]
        action = draw(st.sampled_from(["descend", "replace", "delete", "add"] if isinstance(child, dict | list)
                                      else ["replace", "delete", "add"]))
        if action == "descend":
            node = child
            continue
        if action == "replace":
            node[key] = draw(JSON)
        elif action == "delete":
            del node[key]
        elif isinstance(node, dict):
            node[draw(WORDS | st.text(max_size=6))] = draw(JSON)
        else:
            node.insert(key, draw(JSON))
        break
    return doc


@API_SETTINGS
@given(body=mutations())
def test_mutations_of_a_valid_game_are_a_200_or_a_422(client, body):
    check_answer(client.post("/api/v1/score", data=json.dumps(body), content_type="application/json"))


# ---------------------------------------------------------------------------------------
# The import form


def import_text(client, text: str):
    return client.post("/import", data={"text": text})


@pytest.mark.parametrize(("text", "says"), [
    ("{not json", "not valid JSON"),
    ("", "Choose a file or paste a table's JSON"),
    ("[" * 10000 + "]" * 10000, "more than 32 deep inside one another"),
    ("null", "Choose a file"),
    ('"a string"', "$: the body must be a JSON object"),
    ("[1, 2]", "$: the body must be a JSON object"),
    (json.dumps({"game": GAME, "players": ["Ann"], "rounds": []}), "players: Rummathon Royale is played by 2 to 6"),
    (json.dumps({"game": "snap", "players": ["Ann", "Ben"]}), "game: unknown game “snap”"),
    (json.dumps(game(rounds=[{"out": "Ann", "extra_cards": {"Ben": 3}}])),
     "rounds[0].extra_cards.Ben: Ben has 0 points"),
    (json.dumps(game(rounds=[{"out": "Zed", "progress": {"Ben": ["x"]}}])), "rounds[0].out: “Zed” is not a player"),
])
def test_an_unimportable_table_is_refused_with_its_reasons(app, client, text, says):
    response = import_text(client, text)
    assert response.status_code == 422
    tree = page(response)
    assert says in tree.alert(), tree.alert()
    assert tree.value("text") == text  # what was pasted is still there, to fix it
    assert table_count(app) == 0
    assert event_count(app) == 0


def test_an_unimportable_file_is_refused(app, client):
    response = client.post("/import", data={"file": (io.BytesIO(b"\xff\xfe not json"), "table.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 422
    assert "not valid JSON" in page(response).alert()
    assert table_count(app) == 0


def test_a_good_import_still_works(app, client):
    response = import_text(client, json.dumps(VALID))
    assert response.status_code == 303
    assert table_count(app) == 1
    assert event_count(app) == 3
