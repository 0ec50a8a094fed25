"""Every form under random input (hypothesis): never a 500, and a 422 always says what is wrong.

The field names come from the form classes themselves (the new-table form and each game's options, each
game's hand form for a real table, each referee question's form, the tournament form), so a field added
to a form is fuzzed without touching this file. Each example starts from what a browser would send
(the form's defaults) and drops, keeps or replaces each field: random unicode, huge numbers, empty
values, several values where one is expected, and fields the form does not have. CSRF is off (the
``app`` fixture), so the bodies reach the views.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wtforms import BooleanField, FileField

from companion import games
from companion.entry import ENTRY
from companion.storage import tables
from companion.storage.db import get_db
from companion.views.main import ImportForm, NewTableForm
from companion.views.tournaments import TournamentForm
from tests.test_bad_input import page

FUZZ = settings(max_examples=30, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large])
REFEREE_QUESTIONS = sorted((game, question) for game, module in ENTRY.items()
                           for question in getattr(module, "REFEREE", {}))
KEEP, DROP = object(), object()
#: A form's fields: name -> (what a browser sends for it untouched, or None for nothing; its choices).
Fields = dict[str, tuple[Any, list[str]]]

ODD = st.sampled_from([
    "", " ", "\t", "0", "-0", "-1", "1", "2", "3", "13", "24", "100", "1e309", "9" * 40, "-" + "9" * 40,
    "NaN", "inf", "-inf", "3.5", "1,000", "٣", "²", "0x10", "null", "true", "[]", "{}", "y", "on",
    "<script>alert(1)</script>", "' OR 1=1 --", "\x00", "\u202e\u200b", "🂡 ♠ ♥", "Ann", "ann ", "AS 2S KS 10H",
    "T21 F T1", "JK", "Zb Cr *O", "ZEBRA", "e\u0301", "x" * 300,
])
SCALAR = (ODD | st.text(max_size=30) | st.text(st.characters(codec="utf-8"), max_size=120)
          | st.integers(-(10**30), 10**30).map(str) | st.just("x" * 5000))


def value(choices: list[str]) -> st.SearchStrategy[Any]:
    """One field's random value: a scalar (often one of its choices), or a list where one value is expected."""
    one = st.sampled_from(choices) | SCALAR if choices else SCALAR
    return one | st.lists(one, min_size=2, max_size=3)


@st.composite
def bodies(draw, fields: Fields, only_choices: frozenset[str] = frozenset()) -> dict[str, Any]:
    """A form body: each field kept at its default, dropped or replaced, plus a few fields the form lacks.

    A field in ``only_choices`` is replaced only by one of its choices.
    """
    body: dict[str, Any] = {}
    for name, (default, choices) in fields.items():
        how = draw(st.sampled_from([KEEP, DROP, None]))
        if how is KEEP and default is not None:
            body[name] = default
        elif how is None:
            body[name] = draw(st.sampled_from(choices) if name in only_choices else value(choices))
    for name, extra in draw(st.dictionaries(st.text(min_size=1, max_size=12), SCALAR, max_size=2)).items():
        body.setdefault(name, extra)
    return body


def fields_of(form) -> Fields:
    """Each field's name, what a browser sends for it untouched (None: nothing), and its choices."""
    out = {}
    for field in form:
        if isinstance(field, FileField):
            continue  # sent as an upload; see the import test
        choices = [str(c[0]) for c in field.iter_choices()] if hasattr(field, "iter_choices") else []
        if isinstance(field, BooleanField):
            default, choices = ("y" if field.data else None), ["y", "", "false"]
        elif choices:
            default = None if field.data is None else str(field.data)
        else:
            default = field._value()
        out[field.name] = (default, choices)
    return out


def form_fields(app, make_form) -> Fields:
    """The fields of the form ``make_form()`` builds, inside a request as the views build it."""
    with app.test_request_context("/", method="GET"):
        fields: Fields = {}
        for form in make_form():
            fields.update(fields_of(form))
        return fields


def says_what_is_wrong(response) -> bool:
    tree = page(response)
    return any(text.strip() for text in tree.errors()) or bool(tree.alert().strip())


def check(response, sent: object) -> None:
    """Never a 500; a 422 names the problem. ``sent`` is shown with ascii() (it may hold right-to-left marks)."""
    page_text = response.get_data(as_text=True)
    assert response.status_code < 500, (response.status_code, ascii(sent), page_text[:500])
    if response.status_code == 422:
        assert says_what_is_wrong(response), (ascii(sent), page_text)


def seats(count: int) -> dict[str, str]:
    return {f"seat{i}": f"Player {i}" for i in range(1, count + 1)}


def new_table(app, client, game: str) -> tuple[str, str]:
    """A table of ``game`` made through the new-table form with its defaults; (table id, edit key)."""
    body = {name: default for name, (default, _) in
            form_fields(app, lambda: [ENTRY[game].options_form()]).items() if default is not None}
    body.update(seats(games.ENGINES[game].MIN_PLAYERS))
    response = client.post(f"/new/{game}", data=body)
    assert response.status_code == 303, response.get_data(as_text=True)
    path, key = response.headers["Location"].split("?key=")
    return path.rsplit("/", 1)[1], key


# ---------------------------------------------------------------------------------------
# The forms


@pytest.mark.parametrize("game", sorted(ENTRY))
def test_new_table_form(app, client, game):
    fields = form_fields(app, lambda: [NewTableForm(), ENTRY[game].options_form()])
    assert {"title", "seat1"} <= set(fields)
    # Seats past the game's most players are posted too, as a forged form would.

    @FUZZ
    @given(body=bodies(fields))
    def run(body):
        check(client.post(f"/new/{game}", data=body), body)

    run()


def test_import_form(app, client):
    fields = form_fields(app, lambda: [ImportForm()])
    assert set(fields) == {"text"}  # and the file, below: as an upload, or as plain text

    @FUZZ
    @given(body=bodies(fields), text=SCALAR.map(str))
    def run_text(body, text):
        body["file"] = text
        check(client.post("/import", data=body), body)

    run_text()

    @FUZZ
    @given(body=bodies(fields), upload=st.none() | st.binary(max_size=300) | SCALAR.map(str.encode),
           filename=st.sampled_from(["table.json", "", "x" * 300, "../../etc/passwd", "é.json"]))
    def run(body, upload, filename):
        if upload is not None:
            body["file"] = (io.BytesIO(upload), filename)
        check(client.post("/import", data=body, content_type="multipart/form-data"), body)

    run()


def test_device_form(client):
    @FUZZ
    @given(body=bodies({"device": ("Kitchen phone", []), "next": ("/", ["/", "//evil.example", "/t/x", "/\\x"])}))
    def run(body):
        response = client.post("/device", data=body)
        check(response, body)
        assert response.status_code == 303

    run()


@pytest.mark.parametrize("game", sorted(ENTRY))
def test_hand_form(app, client, game):
    table_id, key = new_table(app, client, game)

    def hand_form():
        table = tables.get_table(get_db(), table_id)
        return [ENTRY[game].round_form(table)]

    fields = form_fields(app, hand_form)
    assert "base_version" in fields

    @FUZZ
    @given(body=bodies(fields))
    def run(body):
        check(client.post(f"/t/{table_id}/hands?key={key}", data=body), body)

    run()


@pytest.mark.parametrize(("game", "question"), REFEREE_QUESTIONS)
def test_referee_form(app, client, game, question):
    form_class = ENTRY[game].REFEREE[question][1]
    fields = form_fields(app, lambda: [form_class(formdata=None)])
    assert fields

    @FUZZ
    @given(body=bodies(fields))
    def run(body):
        check(client.post(f"/referee/{game}/{question}", data=body), body)

    run()


def test_new_tournament_form(app, client):
    fields = form_fields(app, lambda: [TournamentForm()])
    assert {"title", "game", "entrants", "rounds", "method"} <= set(fields)
    fields["entrants"] = ("Ann\nBen\nCat\nDan\nEve\nFay\nGus\nHal", [])

    @FUZZ
    @given(body=bodies(fields, only_choices=frozenset()))
    def run(body):
        check(client.post("/tournaments/new", data=body), body)

    run()


def test_seat_round_form(client):
    response = client.post("/tournaments/new", data={
        "title": "Fuzz cup", "game": "rummathon-royale", "entrants": "Ann\nBen\nCat\nDan\nEve\nFay",
        "rounds": "20", "method": "swiss"})
    assert response.status_code == 303, response.get_data(as_text=True)
    show = response.headers["Location"]
    path, key = show.split("?key=")

    @FUZZ
    @given(body=bodies({"csrf_token": (None, []), "base_version": (None, [])}))
    def run(body):
        check(client.post(f"{path}/rounds?key={key}", data=body), body)

    run()
    assert client.get(show).status_code == 200


# ---------------------------------------------------------------------------------------
# Bugs the fuzzing found, each kept as a test of its own.


def test_a_seat_past_the_most_players_gets_a_message(client):
    body = {**seats(2), "seat7": "x" * 30}  # Rummathon Royale shows six seats
    check(client.post("/new/rummathon-royale", data=body), body)


def test_an_unknown_seating_method_gets_a_message(client):
    body = {"title": "Cup", "game": "royalty", "entrants": "Ann\nBen\nCat\nDan", "rounds": "3", "method": "zzz"}
    check(client.post("/tournaments/new", data=body), body)


def test_a_file_field_sent_as_text_is_not_a_500(client):
    body = {"text": "", "file": "{}"}
    check(client.post("/import", data=body), body)
