"""The rules pages in the reader's language: each game's rules translated into French and Hindi
(docs/rules/<language>/<game>.md) keep the English document's ruling ids, in the same order, and its
headings, so that every link into a ruling (the why's, the referee's) lands in any language; a page
shows the reader's language's document, English where there is none."""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from companion import games
from companion.core import messages
from companion.core.config import RULES_DIR
from companion.web import language
from tests.test_translations import TRANSLATED, pseudo_client, untranslated

GAMES = sorted(games.RULES_PAGES.values())
#: Every translation there is, (language, game).
TRANSLATIONS = [(code, slug) for code in TRANSLATED for slug in GAMES if (RULES_DIR / code / f"{slug}.md").exists()]
#: A sentence of each language's rules page for a game, as written there.
SAID = {
    ("en", "rally-the-king"): "Rally the King is a tarot game for four.",
    ("fr", "rally-the-king"): "Rally the King est un jeu de tarot à quatre.",
    ("hi", "indian-rummy"): "Indian Rummy 2 से 9 खिलाड़ियों के लिए 13 पत्तों की रमी है।",
}



def english(slug: str) -> str:
    return (RULES_DIR / f"{slug}.md").read_text(encoding="utf-8")


def translated(code: str, slug: str) -> str:
    return (RULES_DIR / code / f"{slug}.md").read_text(encoding="utf-8")


def rulings(text: str) -> list[str]:
    return messages.RULING.findall(text)


def headings(text: str) -> dict[str, int]:
    """How many headings a document has at each level (h1, h2, …)."""
    counted: dict[str, int] = {}
    for token in MarkdownIt("commonmark").enable("table").parse(text):
        if token.type == "heading_open":
            counted[token.tag] = counted.get(token.tag, 0) + 1
    return counted


def blocks(text: str) -> dict[str, int]:
    """How many tables, table rows, lists, list items and quotes a document has (a line of a translation
    wrapped before a "+" or a "1." would make a list of its own)."""
    kinds = ("table_open", "tr_open", "bullet_list_open", "ordered_list_open", "list_item_open", "blockquote_open")
    counted: dict[str, int] = {}
    for token in MarkdownIt("commonmark").enable("table").parse(text):
        if token.type in kinds:
            counted[token.type] = counted.get(token.type, 0) + 1
    return counted


def ids(html: str) -> list[str]:
    return re.findall(r'<h\d id="([^"]+)"', html)


def test_every_game_s_rules_are_translated_into_every_language():
    expected = [(code, slug) for code in TRANSLATED for slug in GAMES]
    assert expected == TRANSLATIONS


@pytest.mark.parametrize(("code", "slug"), TRANSLATIONS)
def test_each_translation_keeps_the_english_ruling_ids_in_their_order(code, slug):
    assert rulings(translated(code, slug)) == rulings(english(slug))


@pytest.mark.parametrize(("code", "slug"), TRANSLATIONS)
def test_each_translation_keeps_the_english_headings(code, slug):
    assert headings(translated(code, slug)) == headings(english(slug))


@pytest.mark.parametrize(("code", "slug"), TRANSLATIONS)
def test_each_translation_keeps_the_english_tables_and_lists(code, slug):
    assert blocks(translated(code, slug)) == blocks(english(slug))


@pytest.mark.parametrize(("code", "slug"), TRANSLATIONS)
def test_each_translation_keeps_the_game_s_name(code, slug):
    assert translated(code, slug).splitlines()[0] == english(slug).splitlines()[0]


@pytest.mark.parametrize("slug", GAMES)
def test_french_rules_set_a_no_break_space_before_the_high_punctuation(slug):
    """As French typesetting has it (and the French catalog): "Exemple :", "« J’attends »"."""
    prose = re.sub(r"`[^`]*`", "", translated("fr", slug))
    assert re.findall(r".{12} [:;?!»]", prose) == []
    assert re.findall(r"« .{12}", prose) == []


@pytest.mark.parametrize(("code", "slug"), TRANSLATIONS)
def test_a_rules_page_keeps_every_anchor_in_every_language(speaking_app, code, slug):
    """Rulings by their id, the other sections by the English heading's anchor (links from the app)."""
    client = speaking_app.test_client()
    anchors = ids(client.get(f"/rules/{slug}").get_data(as_text=True))
    client.set_cookie(language.COOKIE, code)
    page = client.get(f"/rules/{slug}").get_data(as_text=True)
    assert f'<html lang="{code}">' in page
    assert ids(page) == anchors
    assert 'class="card rules">' in page  # written in the page's language: no lang of its own


@pytest.mark.parametrize(("code", "slug"), [key for key in SAID if key[0] != "en"])
def test_a_rules_page_shows_the_reader_s_language_s_document(speaking_app, code, slug):
    client = speaking_app.test_client()
    client.set_cookie(language.COOKIE, code)
    page = client.get(f"/rules/{slug}").get_data(as_text=True)
    assert SAID[code, slug] in page
    assert SAID["en", "rally-the-king"] not in page


def test_a_rules_page_is_english_without_a_choice(speaking_app):
    page = speaking_app.test_client().get("/rules/rally-the-king").get_data(as_text=True)
    assert '<html lang="en">' in page
    assert SAID["en", "rally-the-king"] in page
    assert SAID["fr", "rally-the-king"] not in page
    assert "the rules as Courtier scores them, each ruling numbered." in page


def test_the_rendered_rules_are_kept_by_language(speaking_app):
    """One phone reads French, the next English, the next French again: each its own document."""
    french, plain = speaking_app.test_client(), speaking_app.test_client()
    french.set_cookie(language.COOKIE, "fr")
    for _ in range(2):
        assert SAID["fr", "rally-the-king"] in french.get("/rules/rally-the-king").get_data(as_text=True)
        assert SAID["en", "rally-the-king"] in plain.get("/rules/rally-the-king").get_data(as_text=True)


def test_the_page_s_title_and_description_are_translated(speaking_app):
    client = speaking_app.test_client()
    client.set_cookie(language.COOKIE, "fr")
    page = client.get("/rules/rally-the-king").get_data(as_text=True)
    assert "<title>Rally the King · Courtier</title>" in page
    assert "Rally the King\u00a0: les règles telles que Courtier les compte, chaque décision numérotée." in page


@pytest.mark.parametrize("slug", GAMES)
def test_the_rules_page_s_frame_is_translated_its_document_english_in_the_pseudo_language(speaking_app, slug):
    """The pseudo-language has no rules documents of its own: the page shows the English one (marked
    as English), and every word around it (title, description, chooser, links) is translated."""
    page = pseudo_client(speaking_app).get(f"/rules/{slug}").get_data(as_text=True)
    assert '<article class="card rules" lang="en">' in page
    frame = re.sub(r'<article class="card rules" lang="en">.*?</article>', "", page, flags=re.DOTALL)
    assert frame != page
    assert untranslated(frame) == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_game_without_a_translation_shows_its_english_rules_marked_english(speaking_app, code, monkeypatch):
    from companion.views import main
    main._rules_html.cache_clear()
    real = main._rules_path
    monkeypatch.setattr(main, "_rules_path", lambda slug, lang: real(slug, lang if lang == "en" else "none"))
    client = speaking_app.test_client()
    client.set_cookie(language.COOKIE, code)
    page = client.get("/rules/rally-the-king").get_data(as_text=True)
    main._rules_html.cache_clear()
    assert f'<html lang="{code}">' in page
    assert '<article class="card rules" lang="en">' in page
    assert SAID["en", "rally-the-king"] in page


@pytest.mark.parametrize(("code", "said"), [("fr", "ils sont jugés sur la liste de mots anglais"),
                                            ("hi", "हर शब्द अंग्रेज़ी शब्द-सूची से जाँचा जाता है")])
def test_royalty_s_page_says_words_are_judged_against_the_english_list(speaking_app, code, said):
    """Royalty's words are English words in every language: its page says so near the top."""
    client = speaking_app.test_client()
    client.set_cookie(language.COOKIE, code)
    page = client.get("/rules/royalty").get_data(as_text=True)
    assert said in page
    assert page.index(said) < page.index('id="RY-1"')


@pytest.mark.parametrize("code,word", [("en", "ruling"), ("fr", "règle"), ("hi", "नियम")])
def test_a_ruling_s_heading_is_read_as_a_ruling_in_each_language(speaking_app, code, word):
    """A screen reader says "ruling AR-1 — The pack", not letters and a minus sign: the word is there for it
    alone (visually hidden), the heading's anchor the ruling id."""
    client = speaking_app.test_client()
    client.set_cookie(language.COOKIE, code)
    page = client.get("/rules/alliance-royals").get_data(as_text=True)
    assert f'<h2 id="AR-1"><span class="visually-hidden">{word} </span>AR-1 — ' in page
