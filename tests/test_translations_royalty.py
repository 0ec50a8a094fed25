"""Royalty in the reader's language: every why line, problem and referee answer of the game is a message
(core.messages.Text) said in French and Hindi as in English, its pages, referee screens and sheets leave
no word untranslated in the pseudo-language, and a word is still judged by the English word list.

Words kept as printed: the players' names, the words on the table (in capitals, as the cards read), the
cards (Cr, *Eb), ruling ids and the game's name."""

from __future__ import annotations

import copy
import re

import pytest

from companion.core import messages
from companion.core.messages import PSEUDO, Text, render, speaking
from companion.entry import royalty as royalty_entry
from companion.games import royalty
from companion.games.base import InputError
from companion.games.royalty import words
from companion.paper import sheets
from companion.referee import royalty as referee
from companion.web import language
from tests import entry_forms, pdf_checks
from tests.casebook import load
from tests.pseudo import without_marks
from tests.test_royalty import BAD_TURNS
from tests.test_translations import _Visible, pseudo_client

CASES = load("royalty.toml")["case"]
GAMES = [c for c in CASES if "dealt" not in c]
MONARCHIES = [c for c in CASES if "dealt" in c]
WORD_BOOK = load("royalty_words.toml")
NAMES = {"Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Zed"}
#: A card as printed (Cr, *Eb, a bare * in a hand) or a word in capitals as the cards spell it.
AS_PRINTED = re.compile(r"^(\*?[A-Z][rb]?|[A-Z]{2,}|Royalty)$")
#: Problems said by the checks every game shares (games/base.py, core/limits.py, referee/bodies.py), not
#: by Royalty's own code: they are the shared code's to say in the reader's language.
SHARED = re.compile(r"is not a player at this table|^choose a player: |must be a whole number|cannot be negative|"
                    r"^a note |has no field|^send an object")



unmarked = without_marks


def outside(text: str) -> list[str]:
    """The words of ``text`` (said in the pseudo-language) outside its marks, but those kept as printed."""
    return [w for w in re.findall(r"[^\W\d_]+", unmarked(text)) if w not in NAMES and not AS_PRINTED.match(w)]


def page_words(html: str) -> list[str]:
    """The words a page in the pseudo-language shows (or reads out) outside the marks, but those kept as
    printed and the languages' own names in the chooser."""
    parser = _Visible()
    parser.feed(html)
    text = " ".join(parser.words)
    for kept in ("Courtier", *language.NAMES.values()):
        text = text.replace(kept, " ")
    return outside(text)


def said_in_pseudo(lines) -> list[str]:
    """Each line that is not a message, or that leaves words outside the marks in the pseudo-language."""
    wrong = []
    for line in lines:
        if not isinstance(line, Text):
            wrong.append(f"not a message: {line!r}")
        elif outside(render(line, PSEUDO)):
            wrong.append(f"{render(line, PSEUDO)!r}: {outside(render(line, PSEUDO))}")
    return wrong


def refused(call) -> list:
    with pytest.raises(InputError) as caught:
        call()
    return [p.message for p in caught.value.problems]


def game_of(case):
    return royalty.score(tuple(case["players"]), case.get("options", {}), copy.deepcopy(case.get("rounds", [])),
                         joined=case.get("joined"))


# ---------------------------------------------------------------------------------------
# 1. The engine, the word judge and the referees speak in messages


@pytest.mark.parametrize("case", GAMES, ids=[c["name"] for c in GAMES])
def test_every_why_and_problem_of_the_case_book_is_a_message_said_in_every_language(case):
    if "error_where" in case:
        problems = refused(lambda: game_of(case))
        assert said_in_pseudo(p for p in problems if not SHARED.search(p)) == []
        return
    game = game_of(case)
    lines = [line for r in game.rounds for explained in r.explain.values() for line in explained]
    assert said_in_pseudo(lines) == []
    if game.reason is not None:
        assert said_in_pseudo([game.reason]) == []
    for line in lines:  # every language has every line, its fields filled
        for code in ("fr", "hi"):
            assert "{" not in render(line, code) and render(line, code) != str(line) or str(line).isupper()


@pytest.mark.parametrize("case", MONARCHIES, ids=[c["name"] for c in MONARCHIES])
def test_every_monarchy_line_is_a_message(case):
    if "error_where" in case:
        problems = refused(lambda: royalty.monarchy(case["dealt"], case["words"]))
        assert said_in_pseudo(p for p in problems if not SHARED.search(p)) == []
        return
    assert said_in_pseudo(royalty.monarchy(case["dealt"], case["words"])["explain"]) == []


@pytest.mark.parametrize("raw", BAD_TURNS.values(), ids=BAD_TURNS.keys())
def test_every_refused_turn_is_told_in_messages(raw):
    turn, _, _ = raw
    problems = refused(lambda: royalty.score(("Ann", "Ben"), {}, [turn]))
    assert said_in_pseudo(p for p in problems if not SHARED.search(p)) == []


@pytest.mark.parametrize("options", [
    {"letter_values": {"AB": 3}}, {"letter_values": [1, 2]}, {"junior": "yes"}, {"variant": "monarchy"},
    {"coalitions": [["Ann", "Cat"]]}, {"coalitions": [["Ann", "Cat"], ["Ben", "Cat"]]},
    {"coalitions": [["Ann", "Cat"], ["Ben"]]}, {"word_list": 7}, {"word_list": ["ok", "no-no"]}, {"speed": "fast"},
    {"house_allow": ["QI"], "house_deny": ["QI"]}, {"variant": "joust"}, {"letter_values": {"Q": 101}},
])
def test_every_refused_option_is_told_in_messages(options):
    problems = refused(lambda: royalty.score(("Ann", "Ben", "Cat", "Dan"), options, []))
    assert said_in_pseudo(p for p in problems if not SHARED.search(p)) == []


@pytest.mark.parametrize("book", ["word", "capture"])
def test_every_verdict_of_the_word_judge_is_a_message(book):
    lines = []
    for case in WORD_BOOK.get(book, []):
        try:
            body = {key: case[key] for key in ("word", "target", "allow", "deny") if key in case}
            answer = referee.word(body) if book == "word" else referee.capture(body)
        except InputError as err:
            lines.extend(p.message for p in err.problems if not SHARED.search(p.message))
            continue
        lines.extend(answer["explain"])
        lines.extend(answer.get("warnings", []))
    assert lines and said_in_pseudo(lines) == []


@pytest.mark.parametrize("body", [
    {"word": ""}, {"word": "x" * 41}, {"word": 5}, {"word": "ok", "allow": "QI"}, {"word": "ok", "deny": ["QI", 3]},
    {"word": "ok", "allow": ["Q-I"]}, {"word": "ok", "allow": ["QI"], "deny": ["QI"]},
])
def test_the_word_judge_refuses_in_messages(body):
    assert said_in_pseudo(p for p in refused(lambda: referee.word(body)) if not SHARED.search(p)) == []


def test_the_monarchy_checker_refuses_in_messages():
    for body in ({"dealt": "Cr " * 30, "words": ["Cr"] * 26}, {"dealt": "x" * 201, "words": "Cr"},
                 {"dealt": "Cr Zq", "words": ["Cr 5"]}, {"dealt": "", "words": []}):
        problems = refused(lambda body=body: referee.monarchy(body))
        assert said_in_pseudo(p for p in problems if not SHARED.search(p)) == []


def test_the_word_lists_refusals_are_messages():
    for call in (lambda: words.WordList.from_bytes(b"\x00\x01"), lambda: words.WordList.from_text("#\n"),
                 lambda: words.WordList(frozenset({"EAR"})).with_house(allow=["EAR"], deny=["EAR"]),
                 lambda: words.capture_check("E-A-R", "BEAR")):
        with pytest.raises(ValueError) as caught:
            call()
        assert said_in_pseudo([caught.value.args[0]]) == []


# ---------------------------------------------------------------------------------------
# 3. French and Hindi, word for word

def test_french_and_hindi_lines_word_for_word():
    game = royalty.score(("Ann", "Ben"), {}, [
        {"player": "Ann", "meld": "Cr Ar Pr Eb Rr"}, {"player": "Ben", "meld": "Cr Ar Lr Mr"},
        {"player": "Ann", "capture": {"target": "CALM", "cards": "Cr Ar Lr Mr Sb"}}])
    first, capture = game.rounds[0].explain["Ann"], game.rounds[2].explain["Ann"]
    assert render(first[0], "fr") == "Pose CAPER (rouge et noir)\u00a0: 6 + 2 + 6 + 2 + 2 = 18 (RY-3, RY-4)"
    assert render(first[1], "fr") == "Premier coup\u00a0: CAPER 18 doublé = 36 (RY-6)"
    assert render(first[0], "hi") == "मेल्ड CAPER (लाल और काले): 6 + 2 + 6 + 2 + 2 = 18 (RY-3, RY-4)"
    assert render(game.rounds[1].explain["Ben"][0], "hi") == (
        "मेल्ड CALM (सब लाल): 6 + 2 + 2 + 6 = 16, रॉयल्टी ×2 = 32 (RY-3, RY-5)")
    assert render(capture[0], "fr") == "Mots passés au Domaine\u00a0: CAPER (5 cartes)\u00a0; Domaine 5 cartes (RY-9)"
    assert render(capture[1], "fr") == "Pris CALM à Ben en CALMS\u00a0: 6 + 2 + 2 + 6 + 2 = 18 (RY-3, RY-7)"
    assert render(capture[2], "hi") == "हाथ से Sb (1 पत्ता, सब काले): 4 से कम, दोगुना नहीं (RY-7)"
    # the why as data: its message id, values and rulings, whatever the reader's language
    assert first[1].as_data() == {"id": "First play: {word} {value} doubled = {score} (RY-6)",
                                  "values": {"word": "CAPER", "value": 18, "score": 36}, "rulings": ["RY-6"]}


def test_thousands_are_grouped_as_each_language_groups_them():
    problem = refused(lambda: royalty.score(("Ann", "Ben"), {}, [{"player": "Ann", "meld": "Zz " * 1071}]))[0]
    assert problem.endswith("; and 1,066 more that are not Royalty cards")
    assert render(problem, "fr").endswith("; et 1\u202f066 autres qui ne sont pas des cartes de Royalty")
    assert render(problem, "hi").endswith("; और 1,066 और, जो Royalty के पत्ते नहीं हैं")
    verdict = referee.word({"word": "zebra"})["explain"][0]
    assert render(verdict, "fr") == "ZEBRA est dans la liste de mots par défaut, SCOWL taille 70 (RY-17)"
    assert render(verdict, "hi") == "ZEBRA डिफ़ॉल्ट शब्द-सूची, SCOWL साइज़ 70 में है (RY-17)"


def test_a_word_is_judged_by_the_english_list_in_every_language(speaking_app):
    client = speaking_app.test_client()
    for code, says in (("fr", "liste de mots anglais"), ("hi", "अंग्रेज़ी शब्द-सूची")):
        client.set_cookie("courtier-language", code)
        page = client.post("/referee/royalty/word", data={"word": "zebra"}).get_data(as_text=True)
        assert says in page and "ZEBRA" in page
    client.set_cookie("courtier-language", "en")
    assert "English word list" not in client.get("/referee/royalty/word").get_data(as_text=True)
    table, key = table_with_turns(client)
    assert "data-red" not in client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    client.set_cookie("courtier-language", "fr")
    form = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    # the word builder's hint, and the words a screen reader says for each card (static/js/forms.js)
    assert "d'après une liste de mots anglais" in form.replace("&#39;", "'")
    assert 'data-knave="un Valet" data-as-knave=", Valet" data-black=", noire" data-red=", rouge"' in form


def test_the_word_judges_log_is_said_in_the_readers_language_after_a_restart(speaking_app, make_app):
    client = speaking_app.test_client()
    table, _ = table_with_turns(client)
    logged = client.get(f"{table}/export.json").get_json()["rounds"][1]["judged"][0]
    # kept in English words for any program, and as messages (RY-17)
    assert logged["word"] == "CALMS" and logged["why"].startswith("CALMS uses every letter of CALM")
    assert logged["said"]["why"]["id"].startswith("{word} uses every letter of {target}")
    restarted = make_app(WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False, LANGUAGES="fr hi qps").test_client()
    restarted.set_cookie("courtier-language", "fr")
    board = restarted.get(table).get_data(as_text=True).replace("&#39;", "'")
    assert "CALMS reprend toutes les lettres de CALM" in board
    sheet = " ".join(pdf_checks.page_texts(restarted.get(f"{table}/sheet.pdf").data))
    assert "CALMS reprend toutes les lettres de CALM" in " ".join(sheet.split())


# ---------------------------------------------------------------------------------------
# 2. The pages, referee screens and sheets in the pseudo-language

def table_with_turns(client):
    table, key = entry_forms.new_table(client, "royalty", ("Ann", "Ben", "Cat"),
                                       {"opt-variant": "standard", "opt-coalitions": ""})
    entry_forms.post(client, table, key, player="Ann", kind="meld", meld="Cr Ar Lr Mr")
    entry_forms.post(client, table, key, player="Ben", kind="capture", target="Ann|CALM",
                     capture_cards="Cr Ar Lr Mr Sb", challenge_by="Cat", challenge_upheld="rejected")
    entry_forms.post(client, table, key, player="Cat", kind="pass")
    return table, key


def royalty_words(html: str) -> list[str]:
    return page_words(html)


def test_the_new_table_form_is_translated(speaking_app):
    page = pseudo_client(speaking_app).get("/new/royalty")
    assert page.status_code == 200 and royalty_words(page.get_data(as_text=True)) == []


def test_the_referee_screens_and_answers_are_translated(speaking_app):
    client = pseudo_client(speaking_app)
    for path, data in (("/referee/royalty/word", {"word": "Paris"}), ("/referee/royalty/word", {"word": ""}),
                       ("/referee/royalty/capture", {"target": "ear", "word": "ears"}),
                       ("/referee/royalty/capture", {"target": "e-a-r", "word": "bear"}),
                       ("/referee/royalty/monarchy", {"dealt": "Cr Ar Lr Mr Zb", "words": "Cr Ar Lr Mr\nZb Q9"}),
                       ("/referee/royalty/monarchy", {"dealt": "Cr Ar Lr Mr", "words": "Cr Ar Lr Mr"})):
        got = client.get(path)
        assert royalty_words(got.get_data(as_text=True)) == [], path
        answered = client.post(path, data=data)
        assert royalty_words(answered.get_data(as_text=True)) == [], (path, data)
    fragment = client.get("/referee/royalty/judge?word=EARRING&target=EAR").get_data(as_text=True)
    assert "⚠" in fragment and page_words(fragment) == []


#: What Royalty's own templates and messages fill on the pages the game shares with every other: its board
#: (standings, Domains, the words on the table), each turn's why, the result, its turn form's fields and the
#: problems a bad turn shows. The frame around them (the score pad, the history's headings, the buttons)
#: is the pages' own, said by them.
ROYALTY_PARTS = [re.compile(p, re.S) for p in (
    r'<table class="standings">.*?(?=<(?:p class="label"|ul class="on-table"|/section|h2|details|ol))',
    r'<p class="label">.*?</ul>', r'<div class="why-body">.*?</div>', r'<div class="result".*?</div>',
    r'<section class="on-table-box">.*?<fieldset data-kinds="end">.*?</fieldset>',
    r'<div class="errors"[^>]*>\s*<p><strong>.*?</strong></p>(.*?)</div>', r'<p class="error"[^>]*>.*?</p>')]
#: What Royalty's sheet templates print inside the sheets' frame (scoresheets/*/_default.html).
SHEET_PARTS = [re.compile(p, re.S) for p in (
    r'<dl class="options">.*?</dl>', r'<p class="small">.*?</p>', r'<table class="letters">.*?</table>',
    r'<th rowspan="2" class="what">.*?</th>', r'<td class="info">.*?</td>',
    r'<h2>[^<]*</h2>\s*<table class="standing">.*?</table>',
    r'<p class="hint">.*?</p>', r'<p class="line[^"]*">.*?</p>', r'<section class="rulings-box">\s*<h2>.*?</h2>',
    r'<p class="empty">.*?</p>', r'<table class="form ry">.*?</table>', r'<p><b>.*?</p>')]


def royalty_parts(html: str, parts=ROYALTY_PARTS) -> str:
    found = [m.group(m.re.groups and 1 or 0) for pattern in parts for m in pattern.finditer(html)]
    assert found
    return "\n".join(found)


def test_the_table_its_form_board_why_and_history_are_translated(speaking_app):
    client = pseudo_client(speaking_app)
    table, key = table_with_turns(client)
    for path in (f"{table}?key={key}", f"{table}/board", f"{table}/hands/new?key={key}",
                 *(f"{table}/hands/{slot}/why?key={key}" for slot in (1, 2, 3))):
        page = client.get(path)
        assert page.status_code == 200 and royalty_words(royalty_parts(page.get_data(as_text=True))) == [], path
    form = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    for label in ("Whose turn", "What happened", "Melded a word", "Challenged by (RY-10)", "Who went out? (RY-11)"):
        assert messages.pseudo(label) in form
    assert client.get(f"{table}/history").status_code == 200  # its lines are the history's own (storage.history)
    headings = [royalty_entry.round_heading(turn, n) for n, turn in enumerate(entry_forms.exported(
        client, table)["rounds"], 1)]
    assert [render(h, PSEUDO) for h in headings] == [
        "⟦Ţûŕñ 1⟧ · ⟦Ann ɱéļðéð⟧", "⟦Ţûŕñ 2⟧ · ⟦Ben çåþţûŕéð CALM⟧", "⟦Ţûŕñ 3⟧ · ⟦Cat þåššéð⟧"]
    assert headings[1] == "Turn 2 · Ben captured CALM"
    bad = entry_forms.post(client, table, key, player="Ann", kind="capture", target="Cat|NOPE",
                           capture_cards="Cr Zq", challenge_by="Ann")
    html = bad.get_data(as_text=True)
    assert bad.status_code == 422 and 'class="error"' in html and royalty_words(royalty_parts(html)) == []


def test_the_filled_and_blank_sheets_are_translated(speaking_app):
    client = speaking_app.test_client()
    table, _ = table_with_turns(client)
    game = entry_forms.scored_game(client, table)
    rounds = entry_forms.exported(client, table)["rounds"]
    with speaking(PSEUDO):
        filled = sheets.html_for_filled(game, "Friday", None, game.options, None, "A4", rounds=rounds)
        blank = sheets.html_for_blank("royalty", ["Ann", "Ben", "Cat"])
    assert page_words(royalty_parts(filled, SHEET_PARTS)) == []
    assert page_words(royalty_parts(blank, SHEET_PARTS)) == []
    for said in ("Domains and scores", "Junior royalties", "Play", "(challenged by %(player)s, not upheld)"):
        assert messages.pseudo(said).replace("%(player)s", "Cat") in filled
    for said in ("Round of turns", "Domain bonus (RY-12)", "Final score", "Letter values (RY-2):"):
        assert messages.pseudo(said) in blank


def test_the_sheets_print_in_the_askers_language_on_as_many_pages(speaking_app):
    pdf_checks.needs_poppler()
    client = speaking_app.test_client()
    table, _ = table_with_turns(client)
    counts, texts = {}, {}
    for code in ("en", "fr", "hi"):
        client.set_cookie("courtier-language", code)
        filled = client.get(f"{table}/sheet.pdf")
        blank = client.get("/sheets/blank/royalty.pdf?players=Ann,Ben,Cat")
        assert filled.status_code == blank.status_code == 200
        counts[code] = (pdf_checks.page_count(filled.data), pdf_checks.page_count(blank.data))
        texts[code] = " ".join(" ".join(pdf_checks.page_texts(filled.data) + pdf_checks.page_texts(blank.data)).lower()
                               .split())
    assert counts["fr"] == counts["en"] and counts["hi"] == counts["en"]
    assert "pose calm (tout rouge)" in texts["fr"] and "tour de table" in texts["fr"]
    assert "domaines et scores" in texts["fr"] and "valeur des lettres" in texts["fr"]
    # Devanagari comes out of a PDF's text in its glyphs' order: the Hindi sheets are counted in its letters
    assert len(re.findall(r"[\u0900-\u097f]", texts["hi"])) > 400 and "calm" in texts["hi"]


def test_the_catalogs_have_every_royalty_message():
    """The French and Hindi catalogs hold each of the game's messages (test_translations checks them all)."""
    for code in ("fr", "hi"):
        catalog = messages.catalog(code)
        for line in (royalty.late_rule({}), words.DEFAULT_NAME, royalty.colour_words(royalty.parse_word("Cr Ab"))):
            assert render(line, code) != str(line)
        assert catalog.ugettext("Word judge") != "Word judge"
