"""Courtier in the reader's language: the catalogs hold every message the code marks, a phone's
choice (or its browser's) decides the language, and whatever is kept by version is kept by language.

The pseudo-language (``qps``, test-only) marks and accents every translated message, so a page
rendered in it shows at once any words that escaped translation: the pages listed in
``TRANSLATED_PAGES`` must show none."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from babel.support import Translations
from flask import render_template

from companion.clubs import store as clubs
from companion.core import messages
from companion.games import ENGINES
from companion.storage.db import get_db
from companion.web import language
from tests.conftest import new_table

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = messages.TRANSLATIONS
#: The languages a player may be offered, each with a catalog of its own.
TRANSLATED = [code for code in messages.LANGUAGES if code != messages.ENGLISH]
#: The pages every word of which is translated (the pseudo-language shows none outside its marks).
TRANSLATED_PAGES = ["/", "/new/indian-rummy", "/new/rally-the-king", "/referee/", "/tournaments/new",
                    "/tournaments/new?game=indian-rummy", "/tournaments/new?game=rally-the-king", "/clubs/new",
                    "/import", "/offline"]
#: Words a page shows as they are in every language: the name, the games' names, the languages' own names.
AS_PRINTED = {"Courtier", *language.NAMES.values()}
#: A phone's name in a table's history, as the phone gave it or as it was named when it first saved
#: (views.common.device_label: "Phone 1A2B"): a name, not words to translate.
DEVICE = re.compile(r"\bPhone [0-9A-F]{4}\b")


def marked_messages() -> set[str]:
    """Every message id the code marks (a plural message by its singular, as the catalogs key it): the
    templates' _(), the engines' say and say_n, the forms' lazy_gettext and lazy_ngettext, the rows to tap's
    markup_gettext, a catalog's own ugettext (babel.cfg, the Makefile's `translations`)."""
    found = set()
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "ugettext": None, "say": None, "say_n": (1, 2),
                "lazy_gettext": None, "lazy_ngettext": (1, 2), "markup_gettext": None}
    for folder, method in (("templates", "jinja2"), ("scoresheets", "jinja2"), ("companion", "python")):
        mapping = [(f"**.{'html' if method == 'jinja2' else 'py'}", method)]
        for _, _, message, _, _ in extract_from_dir(ROOT / folder, mapping, keywords=keywords):
            found.add(message if isinstance(message, str) else message[0])
    return found


def po(code: str):
    with open(CATALOGS / code / "LC_MESSAGES" / "messages.po", "rb") as file:
        return read_po(file)


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_catalog_holds_every_marked_message_translated_and_nothing_else(code):
    catalog = po(code)
    held = {message.id if isinstance(message.id, str) else message.id[0]: message for message in catalog
            if message.id}
    marked = marked_messages()
    missing = sorted(marked - held.keys())
    assert missing == [], f"{code}: not in the catalog (run `make translations`, then translate): {missing}"
    empty = [key for key, message in held.items()
             if not (all(message.string) if isinstance(message.string, tuple) else message.string)]
    fuzzy = [key for key, message in held.items() if message.fuzzy]
    assert empty == [] and fuzzy == [], f"{code}: empty {empty}, fuzzy {fuzzy}"
    gone = sorted(held.keys() - marked)
    assert gone == [], f"{code}: no longer marked in the code (run `make translations`): {gone}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalog_says_what_its_po_file_says(code):
    """`make catalogs` (run by `make run` and `make test`) compiles each .po: what the app reads is never older."""
    compiled = Translations.load(str(CATALOGS), [code], messages.DOMAIN)
    assert isinstance(compiled, Translations), f"{code}: no compiled catalog; `make catalogs` compiles it"
    for message in po(code):
        if message.id and isinstance(message.id, str):
            assert compiled.ugettext(message.id) == message.string, message.id


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_message_keeps_its_fields(code):
    """A translation names the same fields as its message, or the page could not say it."""
    field = re.compile(r"%\((\w+)\)s|\{(\w+)\}")
    for message in po(code):
        if message.id and isinstance(message.id, str):
            assert sorted(field.findall(message.id)) == sorted(field.findall(message.string)), message.id


class _Visible(HTMLParser):
    """The words a page shows or reads out: text outside scripts and styles, the title, alternative texts."""

    def __init__(self):
        super().__init__()
        self.words: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._hidden += 1
        for name, value in attrs:
            if value and (name in ("alt", "placeholder", "aria-label", "title")
                          or (tag == "meta" and name == "content" and ("name", "description") in attrs)):
                self.words.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self.words.append(data)


def escaped(html: str) -> list[str]:
    """The words of a page outside the pseudo-language's marks, but numbers, signs and words kept as printed."""
    parser = _Visible()
    parser.feed(html)
    text = " ".join(parser.words)
    while "⟦" in text:  # a sentence inside a sentence is marked inside its marks: the innermost first
        text, found = re.subn(r"⟦[^⟦⟧]*⟧", " ", text)
        if not found:
            break
    for kept in sorted(AS_PRINTED, key=len, reverse=True):
        text = text.replace(kept, " ")
    text = DEVICE.sub(" ", text)
    return [word for word in re.findall(r"[^\W\d_]{2,}", text)]



def untranslated(html: str) -> list[str]:
    """The words of a page in the pseudo-language outside its marks, but the games' names."""
    assert '<html lang="qps">' in html
    titles = {word for game in ENGINES.values() for word in re.findall(r"[^\W\d_]{2,}", game.TITLE)}
    return [word for word in escaped(html) if word not in titles]


def pseudo_client(app):
    client = app.test_client()
    client.set_cookie(language.COOKIE, messages.PSEUDO)
    return client


@pytest.mark.parametrize("path", TRANSLATED_PAGES)
def test_no_words_escape_translation(speaking_app, path):
    page = pseudo_client(speaking_app).get(path)
    assert page.status_code == 200
    assert untranslated(page.get_data(as_text=True)) == []


@pytest.mark.parametrize("path", ["/new/indian-rummy", "/tournaments/new", "/tournaments/new?game=rally-the-king"])
def test_a_club_s_new_table_and_tournament_pages_are_translated_the_club_s_name_as_it_is(speaking_app, path):
    with speaking_app.app_context():
        club = clubs.create_club(get_db(), "Thursday Club")
    separator = "&" if "?" in path else "?"
    page = pseudo_client(speaking_app).get(f"{path}{separator}club={club.id}&key={club.member_key}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'id="for-club"' in html and "Thursday Club" in html
    assert untranslated(html) == []


def test_the_error_pages_are_translated_the_words_from_python_too(speaking_app):
    """An error's title and message are said in the reader's language, as the page around them."""
    page = pseudo_client(speaking_app).get("/new/no-such-game")
    assert page.status_code == 404
    html = page.get_data(as_text=True)
    said = re.search(r"<h1>(.*?)</h1>\s*<p>(.*?)</p>", html, re.S)
    assert said.groups() == (messages.pseudo("Not Found"),
                             messages.pseudo("Courtier has no game called {game}.").replace("{game}", "“no-such-game”"))
    assert messages.pseudo("Home") in html
    assert untranslated(html) == []


@pytest.mark.parametrize("code", [400, 403, 404, 405, 409, 410, 422, 429, 500, 503])
def test_a_refusal_without_words_of_its_own_is_said_in_the_readers_language(make_app, code):
    from flask import abort

    app = make_app(WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False, LANGUAGES="fr hi qps")
    app.add_url_rule(f"/refused/{code}", f"refused_{code}", lambda: abort(code))
    page = pseudo_client(app).get(f"/refused/{code}")
    assert page.status_code == code
    html = page.get_data(as_text=True)
    assert re.search(r"<h1>⟦.*?⟧</h1>\s*<p>⟦.*?⟧</p>", html, re.S), html
    assert untranslated(html) == []


def test_the_page_that_keeps_a_form_through_an_outage_is_translated(speaking_app):
    from companion.web.security import UNAVAILABLE

    with speaking_app.test_request_context("/new/indian-rummy", method="POST"), messages.speaking(messages.PSEUDO):
        html = render_template("pages/unavailable.html", title=messages.say("Cannot reach the scores"),
                               message=UNAVAILABLE, kept=[("seat1", "Ann")], files=True)
    assert messages.pseudo("Send again") in html and messages.pseudo("Home") in html
    assert messages.pseudo("Cannot reach the scores") in html
    assert '<html lang="qps">' in html
    assert escaped(html) == []


def test_the_browser_language_decides_until_the_phone_chooses(speaking_app):
    client = speaking_app.test_client()
    french = client.get("/", headers={"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"}).get_data(as_text=True)
    assert '<html lang="fr">' in french and "Tenez la marque. Tranchez le litige." in french
    assert "4 joueurs" in french  # Alliance Royals, four players
    german = client.get("/", headers={"Accept-Language": "de-DE"}).get_data(as_text=True)
    assert '<html lang="en">' in german and "Keep the score. Settle the argument." in german

    chosen = client.post("/language", data={"language": "hi", "next": "/rules/indian-rummy"})
    assert chosen.status_code == 303 and chosen.headers["Location"] == "/rules/indian-rummy"
    hindi = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert '<html lang="hi">' in hindi and "स्कोर रखिए। बहस निपटाइए।" in hindi
    assert 'value="hi" lang="hi" class="button small" aria-pressed="true"' in hindi


def test_a_language_not_offered_is_refused_in_words_and_the_page_kept(speaking_app):
    client = speaking_app.test_client()
    refused = client.post("/language", data={"language": "de", "next": "/"})
    assert refused.status_code == 400
    assert "does not speak that language" in refused.get_data(as_text=True)
    elsewhere = client.post("/language", data={"language": "fr", "next": "https://example.com/"})
    assert elsewhere.status_code == 303 and elsewhere.headers["Location"] == "/"


def test_every_language_is_offered_by_default_and_english_alone_when_the_setting_says_so(client, make_app):
    """LANGUAGES offers English, French and Hindi by default; `en` alone offers no chooser, whatever the
    browser asks."""
    offered = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert '<html lang="fr">' in offered and 'class="languages"' in offered
    assert all(f'value="{code}" lang="{code}"' in offered for code in ("en", "fr", "hi"))
    english = make_app(LANGUAGES="en").test_client()
    page = english.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert '<html lang="en">' in page and 'class="languages"' not in page
    assert english.post("/language", data={"language": "fr"}).status_code == 400


def test_a_board_kept_in_one_language_is_never_the_answer_in_another(speaking_app):
    """The board's tag says its language, so a phone that changes language gets the board anew, not a 304."""
    client = speaking_app.test_client()
    view_url, _ = new_table(client)
    english = client.get(view_url + "/board")
    tag = english.headers["ETag"]
    assert client.get(view_url + "/board", headers={"If-None-Match": tag}).status_code == 304
    client.set_cookie(language.COOKIE, "fr")
    french = client.get(view_url + "/board", headers={"If-None-Match": tag})
    assert french.status_code == 200 and french.headers["ETag"] != tag and french.headers["ETag"].endswith('-fr"')
    assert client.get(view_url + "/board", headers={"If-None-Match": french.headers["ETag"]}).status_code == 304


def test_the_setting_names_only_languages_courtier_has(make_app):
    with pytest.raises(ValueError, match="de is not a language Courtier has"):
        make_app(LANGUAGES="fr de")


def test_a_filter_on_a_constant_is_said_in_each_reader_s_language(speaking_app):
    """Jinja would run a filter on a constant once, when it compiles the template, in the language of
    that moment (core.messages.per_reader): compiled in English, the template is read in French."""
    with speaking_app.test_request_context("/"), messages.speaking("en"):
        template = speaking_app.jinja_env.from_string("{{ 'RM-7'|why }} {{ 1066|num }} {{ 2|ordinal }}")
        english = template.render()
    assert english == '<a href="/rules/rummy-royal#RM-7" aria-label="ruling RM-7">RM-7</a> 1066 2nd'
    with speaking_app.test_request_context("/"), messages.speaking("fr"):
        assert template.render() == ('<a href="/rules/rummy-royal#RM-7" aria-label="règle RM-7">RM-7</a> '
                                     '1\u202f066 2e')


def test_a_sheet_says_the_options_own_values_in_its_reader_s_language():
    from companion.paper import sheets

    with messages.speaking("fr"):
        said = {o["key"]: str(messages.render(o["value"])) for o in sheets.describe_options(
            "rally-the-king", {"counting": "traditional", "hands": 4}, {})}
    assert said == {"counting": "traditionnel", "hands": "4"}
    english = {o["key"]: o["value"] for o in sheets.describe_options("rummathon-royale", {"schedule": "half"}, {})}
    assert english == {"schedule": "half"}


def test_a_message_said_again_is_the_one_made_before_and_said_alike_in_every_language():
    """core.messages keeps the messages said lately: one said again with the same values is the same message,
    worded in every language exactly as one made anew."""
    say, Signed = messages.say, messages.Signed
    first = say("Hand {cards}: {points} (AR-6)", cards="K♠ 9♥", points=-15)
    assert say("Hand {cards}: {points} (AR-6)", cards="K♠ 9♥", points=-15) is first
    fresh = messages.Text("Hand {cards}: {points} (AR-6)", {"cards": "K♠ 9♥", "points": -15})
    for code in (*messages.LANGUAGES, messages.PSEUDO):
        assert messages.render(first, code) == messages.render(fresh, code)
    assert first.as_data() == fresh.as_data()
    # A value of another kind is another message: a Signed 5 is "+5", a count 5 is "5".
    assert say("Bonus {points}", points=Signed(5)) == "Bonus +5"
    assert say("Bonus {points}", points=5) == "Bonus 5"


def test_messages_with_the_same_english_words_are_kept_apart():
    """Two messages within can have the same English words and other words in French: the message holding
    either is kept by which one it holds. So are a plural message's forms, and a message beside a plural one."""
    say, say_n = messages.say, messages.say_n
    own = say("{count} in {where}", count=2, where=say("own Spoils"))
    named = say("{count} in {where}", count=2, where=messages.Text("own Spoils", {}))
    assert own == named and own is not named
    assert messages.render(own, "fr") == messages.render(named, "fr")  # the same template within: said alike
    # "1066 points" in English either way; in French the count is grouped, the words as written are not.
    counted = say("Total: {what}", what=say("{n} points", n=1066))
    written = say("Total: {what}", what=messages.Text("1066 points", {}))
    assert counted == written
    assert (messages.render(counted, "fr"), messages.render(written, "fr")) == ("Total: 1\u202f066 points",
                                                                                "Total: 1066 points")
    trick = say("{count} {what}", count=1, what=say_n("{count} trick", "{count} tricks", 1))
    card = say("{count} {what}", count=1, what=say_n("{count} card", "{count} tricks", 1))
    assert (trick, card) == ("1 1 trick", "1 1 card")
    assert say_n("{count} card", "{count} cards", 1) is not say("{count} card", count=1)
    assert messages.render(say_n("{count} card", "{count} cards", 3), messages.PSEUDO) == "⟦3 çåŕðš⟧"


def test_joined_sentences_and_names_listed_are_kept_and_said_alike_in_every_language():
    """A joined sentence of the same parts is the one made before, and so is a message holding it (AR-10's
    score line); so are names listed. Parts with the same English words that are other messages are
    another sentence, and names listed with a message among them are made anew."""
    say, say_n, joined, Listed, Text = messages.say, messages.say_n, messages.joined, messages.Listed, messages.Text
    template = "Score {natural} × (1 + {parts}) = {score} (AR-10)"

    def score_line():
        parts = [say_n("{count} Royal set", "{count} Royal sets", 1), say_n("{count} marriage", "{count} marriages", 2)]
        return say(template, natural=20, parts=joined(parts, " + "), score=80)

    first = score_line()
    assert score_line() is first and first.values["parts"] is score_line().values["parts"]
    parts = [say_n("{count} Royal set", "{count} Royal sets", 1), say_n("{count} marriage", "{count} marriages", 2)]
    fresh = Text(template, {"natural": 20, "parts": messages.Joined(parts, " + "), "score": 80})
    for code in (*messages.LANGUAGES, messages.PSEUDO):
        assert messages.render(first, code) == messages.render(fresh, code)
    counted, written = joined([say("{n} points", n=1066)]), joined([Text("1066 points", {})])
    assert counted == written and counted is not written
    assert (messages.render(counted, "fr"), messages.render(written, "fr")) == ("1\u202f066 points", "1066 points")
    won = say("{names} won", names=Listed(["Ann", "Cat"]))
    assert say("{names} won", names=Listed(["Ann", "Cat"])) is won
    assert messages.render(won, "fr") == messages.render(Text("{names} won", {"names": Listed(["Ann", "Cat"])}), "fr")
    assert say("{names} won", names=Listed(["Ann", "Cat"])) is not say("{names} won", names=("Ann", "Cat"))
    mixed = say("{names} won", names=Listed(["Ann", say("own Spoils")]))
    assert say("{names} won", names=Listed(["Ann", say("own Spoils")])) is not mixed


def test_the_messages_kept_are_bounded():
    messages.forget_said()
    for n in range(messages._SAID_MOST + 10):
        messages.say("{name} went out", name=f"Player {n}")
    assert 0 < len(messages._SAID) <= messages._SAID_MOST
    messages.forget_said()
    assert not messages._SAID


#: A count out of bounds in each game that counts something, as a program might send it (API.md).
WRONG_COUNTS = {
    "rally-the-king": {"players": ["Ann", "Ben", "Cat", "Dan"], "rounds": [
        {"dealer": "Ann", "bid": "solo", "declarer": "Ben", "declarer_cards": {"kings": -1, "tricks": 1.5}}]},
    "rummathon-royale": {"players": ["Ann", "Ben"], "rounds": [{"out": "Ann", "extra_cards": {"Ben": -1}}]},
    "indian-rummy": {"players": ["Ann", "Ben"], "rounds": [{"winner": "Ann", "hands": {"Ben": {"count": -3}}}]},
    "rummy-royal": {"players": ["Ann", "Ben", "Cat"], "rounds": [
        {"dealer": "Ann", "out": "Ben", "cards_left": {"Ann": -2, "Cat": 1},
         "poker": {"bets": {"Ann": -5}}}]},
}


@pytest.mark.parametrize("slug", WRONG_COUNTS)
def test_a_count_s_problem_names_what_was_counted_in_the_reader_s_language(slug):
    """A count that is negative or no whole number names what was counted ("the number of kings", "the bet"):
    in the reader's words, never an English name for it inside a French sentence."""
    from companion.games import InputError, score
    from tests.pseudo import without_marks

    with pytest.raises(InputError) as refused:
        score({"game": slug, **WRONG_COUNTS[slug]})
    counts = [p.message for p in refused.value.problems if "negative" in p.message or "whole number" in p.message]
    assert counts, [p.message for p in refused.value.problems]
    for message in counts:
        assert not re.search(r"[A-Za-z]{3,}", without_marks(messages.render(message, messages.PSEUDO))), message
        assert "the" not in messages.render(message, "fr")
