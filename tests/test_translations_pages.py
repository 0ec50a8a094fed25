"""The pages every game shares, in the reader's language: a new table of each game, a table's page and
board, its why, history and players, the import, the error pages with their messages, the offline page
and a hand form showing its problems; the words the page's scripts write; the sentences the shared code
says (flashes, refusals, the problems every game shares) in French and Hindi as written.

In the pseudo-language no word of these pages may stand outside the marks, but what each game says of
itself and translates with its own engine and screens (its why lines, its options, its fields, its
board), names, cards and ruling ids."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

from companion.core import messages
from companion.core.messages import render, speaking
from companion.core.round_words import _SAYINGS, NAMES, round_text
from companion.entry import ENTRY
from companion.games import options_with_defaults, score
from companion.games.base import Problem, _at_most
from companion.web import language, script_words
from tests.conftest import new_table
from tests.test_translations import escaped, untranslated
from tests.test_web import hand_form

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("Ann", "Ben", "Cat")
#: What a game's own screens put in a shared page (each game translates its own): its options, its
#: board beside the score pad, the chart's and the pad's notes, and the JSON a history line shows as data.
THE_GAME_S_OWN = [r'<fieldset>\s*<legend>⟦Ôþţîôñš⟧</legend>.*?</fieldset>', r"<svg.*?</svg>",
                  r'<p class="hint pad-note">.*?</p>', r'<table class="standings">.*?</table>', r"<pre>.*?</pre>",
                  r"Phone [0-9A-F]{4}"]


def shared_parts(html: str) -> str:
    for own in THE_GAME_S_OWN:
        html = re.sub(own, "", html, flags=re.S)
    return html


def _words(texts) -> set[str]:
    return {word for text in texts for word in re.findall(r"[^\W\d_]{2,}", str(text))}


def engines_words(client, view: str) -> set[str]:
    """The words the game's engine and entry screens say of the table (its why lines, its end, its rounds'
    headings, its late-player rule), the phones' names as the history shows them."""
    body = json.loads(client.get(view + "/export.json").data)
    scored = score(body)
    lines = [line for r in scored.rounds for said in r.explain.values() for line in said]
    lines += [line for r in scored.rounds for line in (r.detail or {}).get("notes", [])]
    lines += [scored.reason or ""]
    entry = ENTRY[body["game"]]
    lines += [entry.round_heading(hand, n) for n, hand in enumerate(body["rounds"], 1)]
    engine = __import__("companion.games", fromlist=["ENGINES"]).ENGINES[body["game"]]
    lines += [getattr(engine, "late_rule", lambda options: "")(options_with_defaults(body["game"], body["options"]))]
    return _words(lines) | {"Phone", "UTC"}  # a phone's default name; a time before the script writes it


def shown(client, url: str, status: int = 200) -> str:
    page = client.get(url)
    assert page.status_code == status, url
    return page.get_data(as_text=True)


def version_of(client, url: str) -> str:
    return re.search(r'name="base_version"[^>]*value="(\d+)"', shown(client, url)).group(1)


@pytest.fixture
def table(speaking_app):
    """A Rummathon Royale table of three hands, entered on a phone that reads the pseudo-language."""
    client = speaking_app.test_client()
    client.set_cookie(language.COOKIE, messages.PSEUDO)
    view, edit = new_table(client, PLAYERS)
    table_url, key = edit.split("?key=")
    for out, left in (("Ann", {"p1_low": 3}), ("Ben", {"p0_flex": 1}), ("Cat", {"p0_low": 1})):
        version = version_of(client, f"{table_url}/hands/new?key={key}")
        saved = client.post(f"{table_url}/hands?key={key}", data=hand_form(base_version=version, out=out, **left))
        assert saved.status_code == 303, saved.get_data(as_text=True)
    return client, view, key


def words_of(html: str) -> dict:
    """The words a page carries for its scripts."""
    block = re.search(r"""<div hidden id="courtier-words" data-words='(.*?)'></div>""", html, re.S)
    return json.loads(unescape(block.group(1)))


def pseudo(app):
    client = app.test_client()
    client.set_cookie(language.COOKIE, messages.PSEUDO)
    return client


@pytest.mark.parametrize("game", sorted(ENTRY))
def test_a_new_table_of_each_game_is_translated_but_its_options(speaking_app, game):
    html = shown(pseudo(speaking_app), f"/new/{game}")
    assert messages.pseudo("Options") in html and messages.pseudo("Start the table") in html
    assert untranslated(shared_parts(html)) == []


def test_the_table_page_and_its_board_are_translated(table):
    client, view, key = table
    engine = engines_words(client, view)
    edit = shown(client, f"{view}?key={key}")
    for said in ("Enter hand {number}", "Undo last change", "Rematch", "Share this table: QR codes and links"):
        assert messages.pseudo(said).replace("{number}", "4") in edit
    assert 'id="courtier-words"' in edit
    for html in (edit, shown(client, view), '<html lang="qps">' + shown(client, f"{view}/board")):
        assert set(untranslated(shared_parts(html))) <= engine


def test_the_why_history_and_players_pages_are_translated(table):
    client, view, key = table
    engine = engines_words(client, view)
    for url in (f"{view}/hands/1/why", f"{view}/history", f"{view}/players?key={key}"):
        assert set(untranslated(shared_parts(shown(client, url)))) <= engine, url
    history = shown(client, f"{view}/history")
    assert messages.pseudo("Hand {number} entered").replace("{number}", "3") in history


def test_an_undone_and_redone_change_is_told_in_the_reader_s_words(table):
    client, view, key = table
    for action in ("undo", "redo"):
        version = version_of(client, f"{view}/hands/new?key={key}")
        assert client.post(f"{view}/{action}?key={key}", data={"base_version": version}).status_code == 303
    history = shown(client, f"{view}/history")
    assert set(untranslated(shared_parts(history))) <= engines_words(client, view)
    assert messages.pseudo("Hand {number} put back").replace("{number}", "3") in history


def test_the_import_and_offline_pages_are_translated(speaking_app):
    client = pseudo(speaking_app)
    for url in ("/import", "/offline"):
        assert untranslated(shown(client, url)) == [], url
    refused = client.post("/import", data={"text": "{]"})
    assert refused.status_code == 422
    assert untranslated(refused.get_data(as_text=True)) == []
    assert messages.pseudo("That is not valid JSON. Export a table from Courtier and import that file.") in (
        refused.get_data(as_text=True).replace("&#39;", "'"))


@pytest.mark.parametrize(("url", "status"), [
    ("/new/no-such-game", 404), ("/t/nothing-here", 404), ("/t/nothing-here/history", 404),
    ("/rules/no-such-game", 404), ("/referee/royalty/nothing", 404), ("/sheets/blank/snap.pdf", 404),
    ("/sheets/blank/royalty.pdf?paper=a0", 400), ("/nowhere", 404)])
def test_the_error_pages_are_translated_their_messages_too(speaking_app, url, status):
    assert untranslated(shown(pseudo(speaking_app), url, status)) == []


def test_a_view_link_refused_a_write_and_an_expired_form_are_said_in_words(table):
    client, view, key = table
    refused = client.post(f"{view}/undo", data={"base_version": "1"})
    assert refused.status_code == 403
    assert untranslated(refused.get_data(as_text=True)) == []
    speaking_app = client.application
    with_csrf = speaking_app.test_client()
    speaking_app.config["WTF_CSRF_ENABLED"] = True
    try:
        with_csrf.set_cookie(language.COOKIE, messages.PSEUDO)
        expired = with_csrf.post(f"{view}/undo?key={key}", data={"base_version": "1"})
    finally:
        speaking_app.config["WTF_CSRF_ENABLED"] = False
    assert expired.status_code == 400
    assert untranslated(expired.get_data(as_text=True)) == []


def test_the_hand_form_showing_its_problems_is_translated_around_the_game_s_fields(table):
    client, view, key = table
    version = version_of(client, f"{view}/hands/new?key={key}")
    refused = client.post(f"{view}/hands?key={key}", data=hand_form(base_version=version, out="Ann", p1_low="x"))
    assert refused.status_code == 422
    html = refused.get_data(as_text=True)
    problems = re.search(r'<div class="errors" id="problems"[^>]*>\s*<p><strong>(.*?)</strong>', html, re.S)
    assert problems.group(1) == messages.pseudo("Some fields need a look: see the messages next to them.")
    frame = [re.search(pattern, html, re.S).group(0) for pattern in (
        r"<title>.*?</title>", r"<h1>.*?</h1>", r"<p><a href=[^>]*>.*?</p>", r'<div class="sticky-save">.*?</div>',
        r'<h2 class="current">.*?</h2>')]
    assert escaped(" ".join(frame)) == ["Rummathon", "Royale"]  # the game's name, in the title
    assert messages.pseudo("Save hand {number}").replace("{number}", "4") in html


def test_the_words_the_scripts_write_are_the_catalogs(speaking_app):
    """Every sentence a script writes is one the page's data block carries, said in the page's language;
    an English page carries no block and the scripts write their English as it is."""
    written = set()
    for script in (ROOT / "static" / "js").glob("*.js"):
        source = script.read_text(encoding="utf-8")
        written |= set(re.findall(r'\b(?:say|courtierSay)\("((?:[^"\\]|\\.)*)"', source))
        states = re.search(r"var STATES = \{(.*?)\};", source, re.S)
        if states:
            written |= set(re.findall(r'"([^"]+)"', states.group(1)))
            written |= set(re.findall(r'"time-called": "([^"]+)"', source))
    written.discard("")
    client = pseudo(speaking_app)
    words = words_of(shown(client, "/"))
    assert written <= words.keys(), sorted(written - words.keys())
    for english, said in words.items():
        forms = said if isinstance(said, list) else [said]
        assert all(form.startswith("⟦") and form.endswith("⟧") for form in forms), english
    english = speaking_app.test_client().get("/").get_data(as_text=True)
    assert "courtier-words" not in english


def test_a_hand_form_tells_its_script_which_round_it_is(table):
    client, view, key = table
    html = shown(client, f"{view}/hands/2/edit?key={key}")
    assert words_of(html)["page"] == {"round": messages.pseudo("Hand"), "number": 2, "correction": True}


def test_the_scripts_plurals_are_said_for_none_one_and_more(speaking_app):
    with speaking("fr"):
        said = script_words.words()
    assert said["{count} left"] == ["{count} restante", "{count} restante", "{count} restantes"]
    with speaking("hi"):
        said = script_words.words()
    assert said["{count} left"] == ["{count} बचा", "{count} बचा", "{count} बचे"]


def test_every_sentence_about_rounds_has_one_message_for_each_name_of_a_round():
    for kind, sayings in _SAYINGS.items():
        assert len(sayings) == len(NAMES), kind
        for noun, said in zip(NAMES, sayings, strict=True):
            assert noun in said.template.lower(), (kind, noun)


@pytest.mark.parametrize(("noun", "french", "hindi"), [
    ("hand", "Saisir la donne 4", "बाज़ी 4 दर्ज करें"), ("deal", "Saisir la donne 4", "डील 4 दर्ज करें"),
    ("round", "Saisir la manche 4", "राउंड 4 दर्ज करें"), ("turn", "Saisir le tour 4", "बारी 4 दर्ज करें")])
def test_a_round_is_named_as_each_game_names_it(noun, french, hindi):
    said = round_text("enter", noun, number=4)
    assert str(said) == f"Enter {noun} 4"
    assert render(said, "fr") == french and render(said, "hi") == hindi


def test_french_and_hindi_say_the_shared_sentences_as_written():
    assert render(round_text("deleted", "turn"), "fr") == "Tour supprimé. «\u00a0Annuler\u00a0» le rétablit."
    assert render(round_text("deleted", "hand"), "fr") == "Donne supprimée. «\u00a0Annuler\u00a0» la rétablit."
    assert render(round_text("saved", "round"), "hi") == "राउंड सेव हो गया।"
    assert render(round_text("saved", "deal"), "hi") == "डील सेव हो गई।"
    many = _at_most([Problem("a", "x")] * 100, more=149_903)[-1].message
    assert str(many) == "and 149,903 more problems like these: correct those named first"  # as ever
    assert render(many, "fr") == "et 149\u202f903 autres problèmes de ce genre\u00a0: corrigez d’abord ceux nommés"
    assert render(many, "hi") == "और ऐसी 1,49,903 और समस्याएँ: पहले ऊपर बताई गई ठीक करें"


def test_a_phone_reading_french_is_told_in_french(speaking_app):
    client = speaking_app.test_client()
    client.set_cookie(language.COOKIE, "fr")
    view, edit = new_table(client, PLAYERS)
    table_url, key = edit.split("?key=")
    version = version_of(client, f"{table_url}/hands/new?key={key}")
    saved = client.post(f"{table_url}/hands?key={key}", data=hand_form(base_version=version, out="Ann"))
    page = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "<p>Donne enregistrée.</p>" in page and "Saisir la donne 2" in page
    assert "Ensuite\u00a0: Ben distribue" in page
    missing = client.get("/new/snap").get_data(as_text=True)
    assert "<h1>Introuvable</h1>" in missing and "Courtier n’a pas de jeu appelé “snap”." in missing
    client.set_cookie(language.COOKIE, "hi")
    hindi = client.get(f"{table_url}?key={key}").get_data(as_text=True)
    assert "बाज़ी 2 दर्ज करें" in hindi and "आगे: Ben बाँटेंगे" in hindi
