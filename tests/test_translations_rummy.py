"""Indian Rummy and Rummathon Royale in the reader's language: every why line and every problem their
engines say is a message (never English words glued together), the games' pages leave no word
untranslated in the pseudo-language, a few French and Hindi lines read as written, and their sheets
print on as many pages in French and Hindi as in English."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from companion.core import messages
from companion.core.messages import Text, render
from companion.entry import indian_rummy as ir_entry
from companion.games import indian_rummy as ir
from companion.games import rummathon_royale as rr
from companion.games.base import InputError
from companion.paper import sheets
from companion.referee import indian_rummy as ir_referee
from tests import entry_forms
from tests.pdf_checks import needs_poppler
from tests.pseudo import without_marks
from tests.test_translations import ROOT, pseudo_client, untranslated

CASES = Path(__file__).parent / "cases"
PLAYERS = ("Ann", "Ben", "Cat")
DECLARATION = "AH 2H 3H | 5S 6S 7D 8S | QC QD QS | 9H 10H JH"  # valid with 7s wild
CARD = re.compile(r"\b(?:10|[2-9AKQJ])[SHDC]\b|\bJK\b")
#: Problems said by the helpers every engine shares (games/base.py, core/cards.py): translated there.
SHARED_PROBLEMS = re.compile(r"is not a player at this table|^choose a player|must be a whole number|cannot be "
                             r"negative|^a note |is not a card|not a card|^give a card")



def _book(name: str) -> list[dict]:
    with (CASES / name).open("rb") as f:
        return tomllib.load(f)["case"]


def unmarked(text: str, kept: set[str] = frozenset()) -> list[str]:
    """The words of a line said in the pseudo-language outside its marks (innermost marks first, as a
    sentence inside a sentence is marked inside its marks), but names, cards, ruling ids and ``kept``."""
    text = CARD.sub(" ", messages.RULING.sub(" ", without_marks(text)))
    return [word for word in re.findall(r"[^\W\d_]{2,}", text) if word not in kept]


#: These games' own templates; the words of every other page part (the entry form's frame, the card
#: picker, the history's sentences, the shared helpers' problems) are translated where they are written.
OWN_TEMPLATES = {"boards/indian-rummy.html", "boards/rummathon-royale.html", "entry/indian_rummy.html",
                 "entry/rummathon_royale.html", "entry/_rummy_macros.html", "referee/indian-rummy-declaration.html",
                 "referee/_groups.html"}
SHARED_SOURCES = [*(path for path in (ROOT / "templates").rglob("*.html")
                    if path.relative_to(ROOT / "templates").as_posix() not in OWN_TEMPLATES),
                  *(ROOT / "companion/views").glob("*.py"), ROOT / "companion/storage/history.py",
                  ROOT / "companion/entry/forms.py", ROOT / "companion/games/base.py", ROOT / "companion/core/cards.py",
                  ROOT / "companion/core/wording.py", ROOT / "companion/core/limits.py",
                  ROOT / "companion/paper/scorepad.py", ROOT / "companion/paper/chart.py"]
SHARED_WORDS = {word for path in SHARED_SOURCES
                for word in re.findall(r"[^\W\d_]{2,}", path.read_text(encoding="utf-8"))} | {
    "Deal"}  # the game's round, "deal", as the shared pages name it ("Deal saved.", a sheet's column)


def nested_untranslated(html: str, shared: set[str] = SHARED_WORDS) -> list[str]:
    """:func:`tests.test_translations.untranslated`, the marks of a sentence inside a sentence taken off
    from the innermost out (a why line names a group's kind inside its own words); cards, and the
    words of the parts these games share with every other (``shared``), left out."""
    before = None
    while before != html:
        before, html = html, re.sub(r"⟦[^⟦⟧]*⟧", " ", html)
    return [word for word in untranslated(html) if not CARD.fullmatch(word) and word not in shared]


def said_lines(game) -> list:
    return [line for scored in game.rounds for lines in scored.explain.values() for line in lines]


def problems_of(call) -> list:
    with pytest.raises(InputError) as caught:
        call()
    return [p.message for p in caught.value.problems]


def assert_said(lines, players) -> None:
    kept = {*players, "Indian", "Rummy", "Rummathon", "Royale"}
    for line in lines:
        if SHARED_PROBLEMS.search(line):
            continue
        assert isinstance(line, Text), f"not a message: {line!r}"
        assert unmarked(render(line, messages.PSEUDO), kept) == [], (line, render(line, messages.PSEUDO))


# ---------------------------------------------------------------------------------------
# Indian Rummy: the engine

IR_CASES = _book("indian_rummy.toml")


@pytest.mark.parametrize("case", IR_CASES, ids=[c["name"][:60] for c in IR_CASES])
def test_every_indian_rummy_why_and_problem_of_the_case_book_is_a_message(case):
    def play():
        return ir.score(case["players"], case.get("options", {}), case.get("rounds", []), case.get("joined"))

    if "error_where" in case:
        assert_said(problems_of(play), case["players"])
    else:
        game = play()
        assert_said(said_lines(game) + ([game.reason] if game.reason else []), case["players"])


REFUSED_DEALS = [
    ({"variant": "pool301"}, []),
    ({"decks": 9, "point_value": -1, "deals": 0, "colour": "red"}, []),
    ({"point_value": 10 ** 9}, []),
    ({}, ["not a deal"]),
    ({}, [{"wild": "11", "winner": "Ann", "hands": {"Ben": {"count": 3, "drop": "first"}, "Cat": "x"}}]),
    ({}, [{"winner": "Ann", "hands": {"Ben": {"groups": "AH", "loose": []}, "Cat": {"cards": ["AH"]}}}]),
    ({}, [{"wild": "7", "winner": "Ann", "hands": {"Ben": {"drop": "late"}, "Cat": {"wrong_show": False}},
           "rejoin": ["Ben"], "extra": 1}]),
    ({}, [{"wild": "7", "winner": "Ann", "hands": {"Ann": {"groups": [["AH", "2H"]], "loose": ["3H"]},
                                                    "Ben": {"count": 3}, "Cat": {"count": 4}}}]),
    ({}, [{"wild": "7", "winner": "Ann", "hands": {"Ann": {"groups": [["KS", "AS", "2S"], ["4H", "5H", "6H"],
                                                                       ["8C", "8D", "8H"], ["9S", "10S", "JS", "QS"]]},
                                                    "Ben": {"count": 3}, "Cat": {"count": 4}}}]),
    ({}, [{"wild": "7", "winner": "Ann", "hands": {
        "Ann": {"cards": ["AH", "2H", "4H", "5S", "6S", "8D", "QC", "QD", "KS", "9H", "JH", "JK", "3C"]},
        "Ben": {"count": 3}, "Cat": {"count": 4}}}]),
    ({}, [{"wild": "7", "winner": "Ann", "hands": {"Ann": {"count": 0}, "Ben": {"count": 3}}}]),
    ({"decks": 1}, [{"wild": "7", "winner": "Ann", "hands": {"Ben": {"cards": ["JK"] * 13},
                                                              "Cat": {"groups": [["AH", "AH", "AH"]] * 4,
                                                                      "loose": ["2C"]}}}]),
    ({"variant": "pool101"}, [{"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 80}, "Cat": {"count": 80}}},
                              {"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 30}, "Cat": {"count": 2}},
                               "rejoin": ["Ann", "Ben", "Ben"]}]),
    ({"variant": "pool101"}, [{"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 80}, "Cat": {"count": 80}}},
                              {"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 30}, "Cat": {"count": 2}}},
                              {"wild": "7", "winner": "Ben", "hands": {"Ann": {"count": 3}}}]),
    ({}, [{"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 3}, "Cat": {"count": 4}}, "rejoin": ["Cat"]}]),
    ({"variant": "deals", "deals": 1}, [{"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 3},
                                                                                "Cat": {"count": 4}}}] * 2),
]


@pytest.mark.parametrize("options, rounds", REFUSED_DEALS)
def test_every_problem_of_a_refused_indian_rummy_game_is_a_message(options, rounds):
    assert_said(problems_of(lambda: ir.score(PLAYERS, options, rounds)), PLAYERS)


def test_a_late_player_refused_and_the_late_rules_are_messages():
    assert_said(problems_of(lambda: ir.score(PLAYERS, {"variant": "deals"}, [], {"Cat": 2})), PLAYERS)
    five = ("Ann", "Ben", "Cat", "Dan", "Eve")
    assert_said(problems_of(lambda: ir.score(five, {"decks": 1}, [])), five)
    for variant in ("points", "pool101", "deals"):
        refused = ir.late_players_refused({"variant": variant})
        assert_said([ir.late_rule({"variant": variant})] + ([refused] if refused else []), PLAYERS)
    pool = [{"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 80}}}]
    assert_said(problems_of(lambda: ir.score(PLAYERS, {"variant": "pool101"}, pool, {"Cat": 2})), PLAYERS)


@pytest.mark.parametrize("body", [
    {"wild": "7", "groups": [["AH", "2H", "3H"], ["5S", "6S", "7D", "8S"], ["QC", "QD", "QS"], ["9H", "10H", "JH"]]},
    {"wild": "JK", "cards": ["AS", "2H", "3H", "5D", "6D", "7D", "KC", "KS", "KH", "9C", "10C", "JC", "4S"]},
    {"wild": "5", "groups": [["4C", "5C", "6C"], ["KS", "KD", "KH"], ["2D", "2S", "2C"], ["9H", "9H", "9S", "JK"]],
     "loose": []},
    {"wild": "4", "groups": [["JK", "4S", "4D"], ["9C", "9D", "JK", "4H"], [], ["2C", "3D", "9S"]],
     "loose": ["KD", "KS", "AH"]},
    {"wild": "Q", "cards": ["2S", "3S", "9D", "KD", "KH", "KC", "JK", "9C", "10C", "5H", "8H", "QS", "4D"]},
])
def test_the_declaration_referee_says_every_line_as_a_message(body):
    assert_said(ir_referee.declaration(body)["explain"], ())


@pytest.mark.parametrize("body", [
    [], {"wild": None, "cards": ["AH"] * 20, "groups": [], "decks": 9, "extra": 1}, {"wild": "11", "groups": "x"},
    {"wild": [1], "cards": ["AH"]}, {"wild": "7", "groups": [["AH", "2H"]], "loose": ["3H"]}, {"wild": "7"},
])
def test_the_declaration_referee_refuses_in_messages(body):
    assert_said(problems_of(lambda: ir_referee.declaration(body)), ())


def test_french_and_hindi_why_lines_read_as_written():
    game = ir.score(("Ann", "Ben", "Cat"), {"point_value": 1500}, [{"wild": "7", "winner": "Ann", "hands": {
        "Ann": {"groups": [["AH", "2H", "3H"], ["5S", "6S", "7D", "8S"], ["QC", "QD", "QS"], ["9H", "10H", "JH"]]},
        "Ben": {"groups": [["4C", "5C", "6C"], ["8D", "9D", "10D"]],
                "loose": ["KS", "QD", "2H", "3S", "5D", "9C", "JC"]},
        "Cat": {"drop": "first"}}}])
    ben, ann = game.rounds[0].explain["Ben"], game.rounds[0].explain["Ann"]
    assert render(ben[0], "fr") == "4C 5C 6C\u00a0: séquence pure\u00a0: trois cartes de Trèfle à la suite (IR-4)"
    assert render(ben[0], "hi") == "4C 5C 6C: प्योर सीक्वेंस: चिड़ी के तीन पत्ते लगातार (IR-4)"
    assert render(ben[4], "fr") == "Paie 49 à Ann\u00a0: −49 (IR-8)"
    assert render(ben[4], "hi") == "Ann को 49 देते हैं: −49 (IR-8)"
    # Money at 1,500 a point: French groups thousands with a narrow no-break space, Hindi as India writes lakhs.
    assert render(ben[5], "fr") == "À 1\u202f500 le point\u00a0: −49 × 1\u202f500 = −73\u202f500 (IR-8)"
    assert render(ben[5], "hi") == "1,500 प्रति पॉइंट: −49 × 1,500 = −73,500 (IR-8)"
    assert render(ann[-1], "hi") == "1,500 प्रति पॉइंट: +69 × 1,500 = +1,03,500 (IR-8)"
    assert render(ann[-2], "hi") == "हारने वालों से 69 लेते हैं (Ben 49, Cat 20): +69 (IR-8)"
    pool = ir.score(PLAYERS, {"variant": "pool101"}, [
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 80}, "Cat": {"count": 80}}},
        {"wild": "7", "winner": "Ann", "hands": {"Ben": {"count": 30}, "Cat": {"count": 30}}}])
    assert render(pool.rounds[1].explain["Ben"][-1], "hi") == "110 यानी 101 या ज़्यादा: पूल से बाहर (IR-9)"
    assert render(pool.reason, "fr") == ("Ann est le dernier joueur dans le pool après la donne 2\u00a0; tous les "
                                         "autres ont atteint 101 (IR-9).")
    assert render(pool.reason, "hi") == "डील 2 के बाद पूल में सिर्फ़ Ann बचे; बाक़ी सब 101 तक पहुँच गए (IR-9)।"


# ---------------------------------------------------------------------------------------
# Indian Rummy: the pages


def ir_table(client, **options):
    defaults = {"opt-variant": "pool101", "opt-deals": "2", "opt-point_value": "1", "opt-decks": ""}
    return entry_forms.new_table(client, "indian-rummy", PLAYERS, defaults, **options)


def play_pool(client, table, key):
    """Three deals of pool 101: Cat goes out at 110 after the second (IR-9), Ann and Ben play on."""
    entry_forms.post(client, table, key, wild="7", winner="Ann", p0_groups=DECLARATION, p1_mode="groups",
                     p1_groups="4S 5S 6S | 10H JH QH", p1_loose="2D 3D 4C 9S JS KC 8C", p2_mode="count",
                     p2_count="80")
    entry_forms.post(client, table, key, wild="JK", winner="Ben", p0_mode="cards",
                     p0_cards="2S 3S 4S KD KH KC JK 9C 10C 5H 8H QS 4D", p2_mode="count", p2_count="30")
    entry_forms.post(client, table, key, wild="Q", winner="Ann", p1_mode="middle", p2_mode="out")


@pytest.fixture
def pool_table(speaking_app):
    client = pseudo_client(speaking_app)
    table, key = ir_table(client)
    play_pool(client, table, key)
    return client, table, key


def test_the_indian_rummy_pages_leave_no_word_untranslated(pool_table):
    client, table, key = pool_table
    for path in (f"{table}?key={key}", f"{table}/board", f"{table}/hands/2/why", f"{table}/hands/1/why",
                 f"{table}/hands/new?key={key}", f"{table}/hands/1/edit?key={key}",
                 "/new/indian-rummy", "/referee/indian-rummy/declaration"):
        page = client.get(path)
        assert page.status_code == 200, path
        html = page.get_data(as_text=True)
        html = html if "<html" in html else '<html lang="qps">' + html  # the board: a fragment the page polls
        assert nested_untranslated(html) == [], path
    # The history: each deal told with what its heading says after the number; a change's data shown as the
    # API writes it (its field names, "loose", as printed).
    history = client.get(f"{table}/history?key={key}").get_data(as_text=True)
    assert nested_untranslated(history, SHARED_WORDS | {"loose"}) == []


def test_a_deal_s_heading_names_who_declared_after_its_number_in_the_reader_s_language():
    """The history tells a deal entered by what its heading says after the number (" · "), in the reader's
    language: the heading is said part by part, so that part is a whole sentence in any language."""
    heading = ir_entry.round_heading({"winner": "Ann"}, 3)
    assert heading == "Deal 3 · Ann declared" and ir_entry.round_heading({}, 3) == "Deal 3"
    assert render(heading, "hi").partition(" · ")[2] == "Ann ने डिक्लेयर किया"
    assert render(heading, "fr") == "Donne 3 · Ann a déclaré"


def test_the_indian_rummy_deal_form_shows_its_problems_translated(pool_table):
    client, table, key = pool_table
    bad = entry_forms.post(client, table, key, wild="7", winner="Ann", p0_groups="KS AS 2S | 4H 5H 6H | 8C 8D 8H",
                           p1_mode="cards", p1_cards="4C 5C 6C", p2_mode="count", p2_count="200")
    assert bad.status_code == 422
    html = bad.get_data(as_text=True)
    assert 'id="p0_groups-error"' in html and 'id="p1_cards-error"' in html and 'id="p2_count-error"' in html
    assert nested_untranslated(html) == []


@pytest.mark.parametrize("form", [
    {"wild": "7", "groups": "AH 2H 3H | 5S 6S 7D 8S | QC QD QS | 9H 10H JH"},
    {"wild": "JK", "cards": "AS 2H 3H 5D 6D 7D KC KS KH 9C 10C JC 4S"},
    {"wild": "5", "groups": "4C 5C 6C | KS KD KH | 2D 2S 2C | 9H 9H 9S JK"},
    {"wild": "5", "groups": "4C 5C", "cards": "AH"},
])
def test_the_declaration_referee_answers_in_the_pseudo_language(speaking_app, form):
    client = pseudo_client(speaking_app)
    page = client.post("/referee/indian-rummy/declaration", data=form)
    assert page.status_code in (200, 422)
    assert nested_untranslated(page.get_data(as_text=True)) == []



def test_the_live_group_check_answers_in_the_pseudo_language(speaking_app):
    client = pseudo_client(speaking_app)
    check = client.get("/referee/indian-rummy/groups", query_string={"wild": "7", "groups": "AH 2H 3H | KS AS 2S"})
    assert check.status_code == 200
    html = '<html lang="qps">' + check.get_data(as_text=True)
    assert messages.pseudo("pure sequence")[1:-1] in html and nested_untranslated(html) == []


#: The sheets' shared frame (their base templates and sheets.py), translated with the rest of the sheets.
SHEET_FRAME = {word for path in [*(ROOT / "scoresheets").glob("*.html"), *(ROOT / "scoresheets").glob("*/_*.html"),
                                 ROOT / "companion/paper/sheets.py", ROOT / "companion/paper/long_sheets.py"]
               for word in re.findall(r"[^\W\d_]{2,}", path.read_text(encoding="utf-8"))}
#: The day these tests' sheets print: their own, never the day the suite runs on.
PRINTED = "2026-03-14"


def sheet_words_of_its_own(html: str, printed: str = PRINTED) -> set[str]:
    """The words of a sheet said in the pseudo-language that are neither the sheets' shared frame, the
    sheet's title nor the date it prints (the month is Babel's word, written as each language writes it)."""
    with messages.speaking(messages.PSEUDO):
        date = sheets.format_date(printed)
    assert date in html, date
    html = html.replace('<html lang="en">', '<html lang="qps">').replace(date, " ")
    return set(nested_untranslated(html)) - {"Thursday"} - SHEET_FRAME


def test_the_indian_rummy_sheets_leave_no_word_of_their_own_untranslated(pool_table):
    client, table, key = pool_table
    game = entry_forms.scored_game(client, table)
    with messages.speaking(messages.PSEUDO):
        filled = sheets.html_for_filled(game, "Thursday", PRINTED)
        blank = sheets.html_for_blank("indian-rummy", list(PLAYERS))
    assert sheet_words_of_its_own(filled) == set()
    assert set(nested_untranslated(blank.replace('<html lang="en">', '<html lang="qps">'))) <= SHEET_FRAME
    assert messages.pseudo("Standing") in filled and messages.pseudo("Wild (IR-2)") in blank


@pytest.mark.parametrize("code", ["fr", "hi"])
def test_the_indian_rummy_sheets_print_on_as_many_pages_in_french_and_hindi(pool_table, code):
    needs_poppler()
    client, table, _ = pool_table
    game = entry_forms.scored_game(client, table)
    with messages.speaking("en"):
        english = sheets.render_filled(game, "Thursday", PRINTED)
        english_blank = sheets.render_blank("indian-rummy", list(PLAYERS))
    with messages.speaking(code):
        said = sheets.render_filled(game, "Thursday", PRINTED)
        said_blank = sheets.render_blank("indian-rummy", list(PLAYERS))
    assert _pages(said) == _pages(english) and _pages(said_blank) == _pages(english_blank)
    # The standing's heading prints in capitals; Devanagari is read back from the PDF as shaped text.
    assert ("CLASSEMENT" if code == "fr" else "विजेता") in _text(said)
    assert ("Variante" if code == "fr" else "प्रकार: पॉइंट्स") in _text(said_blank)


def _pages(pdf: bytes) -> int:
    from io import BytesIO

    from pypdf import PdfReader

    return len(PdfReader(BytesIO(pdf)).pages)


def _text(pdf: bytes) -> str:
    import subprocess

    done = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True)
    return done.stdout.decode()


# ---------------------------------------------------------------------------------------
# Rummathon Royale: the engine and the pages

RR_CASES = _book("rummathon_royale.toml")


@pytest.mark.parametrize("case", RR_CASES, ids=[c["name"][:60] for c in RR_CASES])
def test_every_rummathon_royale_why_and_problem_of_the_case_book_is_a_message(case):
    def play():
        return rr.score(case["players"], case.get("options", {}), case.get("hands", []), case.get("joined"))

    if "error_where" in case:
        assert_said(problems_of(play), case["players"])
    else:
        game = play()
        assert_said(said_lines(game) + ([game.reason] if game.reason else []), case["players"])


REFUSED_HANDS = [
    ({"schedule": "weekly", "speed": 1}, []),
    ({}, ["a hand"]),
    ({}, [{"out": "Ann", "left": {"Ann": {"low": 2}, "Ben": {"tiny": 1}, "Cat": "x"}, "progress": {"Ann": "failed",
                                                                                                  "Ben": "won"},
           "burdens": [{"on": "Ben", "by": "Ben", "double": "yes"}, {"on": "Cat", "by": "Ann", "completed": True,
                                                                      "colour": 1}, "x"],
           "extra_cards": {"Cat": 3}, "speed": 2}]),
    ({}, [{"progress": {"Ann": "double-completed", "Ben": "double-completed"}}]),
    ({}, [{"out": "Ann", "burdens": [{"on": "Ben", "by": "Cat", "completed": True},
                                     {"on": "Ben", "by": "Ann", "completed": False}], "progress": {"Ben": "failed"},
           "left": "x", "extra_cards": []}]),
    ({}, [{"out": "Ann", "burdens": [{"on": "Cat", "by": "Ann", "completed": False}],
           "progress": {"Cat": "completed"}}]),
    ({"schedule": "half"}, [{"out": "Ann", "progress": {"Ben": "declared-failed"}},
                            {"out": "Ann", "progress": {"Ben": "declared-completed"}}]),
    ({}, [{"out": "Ann", "progress": {"Ann": "double-completed"}}, {"out": "Ben"}]),
]


@pytest.mark.parametrize("options, hands", REFUSED_HANDS)
def test_every_problem_of_a_refused_rummathon_royale_game_is_a_message(options, hands):
    assert_said(problems_of(lambda: rr.score(PLAYERS, options, hands)), PLAYERS)


def test_rummathon_royale_s_late_players_and_ends_are_messages():
    assert_said([rr.late_rule({})], PLAYERS)
    late = rr.score(PLAYERS, {}, [{"out": "Ann", "left": {"Ben": {"low": 2}}}, {"out": "Cat", "extra_cards": {"Ann": 1},
                                                                              "burdens": [{"on": "Ben", "by": "Cat",
                                                                                           "double": True,
                                                                                           "completed": False}]}],
                    {"Cat": 2})
    assert_said(said_lines(late), PLAYERS)
    assert_said(problems_of(lambda: rr.score(PLAYERS, {}, [{"out": "Cat"}], {"Cat": 2})), PLAYERS)
    declaring = {"out": "Ann", "progress": {"Ben": "declared-completed"}}
    tie = rr.score(("Ann", "Ben"), {"schedule": "half"}, [declaring] * 3)
    assert_said(said_lines(tie) + [tie.reason], ("Ann", "Ben"))
    declared = tie.rounds[0].explain["Ben"][-2]
    assert render(declared, "fr") == ("A annoncé Rummathon Royale et réussi la manche 2\u00a0: passe de la manche 1 à "
                                      "la manche 3 (RR-5)")
    assert render(declared, "hi") == "Rummathon Royale डिक्लेयर करके राउंड 2 पूरा किया: राउंड 1 से राउंड 3 पर (RR-5)"


def rr_table(client):
    return entry_forms.new_table(client, "rummathon-royale", PLAYERS, {"opt-schedule": "all"})


@pytest.fixture
def rummathon_table(speaking_app):
    client = pseudo_client(speaking_app)
    table, key = rr_table(client)
    entry_forms.post(client, table, key, out="Ann", p1_low="3", p1_flex="1", p0_progress="completed",
                     p2_progress="declared-failed", burden1="0:failed", p2_extra="")
    entry_forms.post(client, table, key, out="Ben", p0_high="2", p0_extra="1", p1_progress="declared-completed",
                     burden2="1:completed", burden2_double="y", p2_progress="completed")
    return client, table, key


def test_the_rummathon_royale_pages_leave_no_word_untranslated(rummathon_table):
    client, table, key = rummathon_table
    for path in (f"{table}?key={key}", f"{table}/board", f"{table}/hands/1/why", f"{table}/hands/2/why",
                 f"{table}/hands/new?key={key}", f"{table}/hands/2/edit?key={key}", "/new/rummathon-royale"):
        page = client.get(path)
        assert page.status_code == 200, path
        html = page.get_data(as_text=True)
        html = html if "<html" in html else '<html lang="qps">' + html
        assert nested_untranslated(html) == [], path
    bad = entry_forms.post(client, table, key, out="Ann", p0_extra="20", p1_low="500", p2_progress="declared-completed",
                           burden0="1:completed")
    assert bad.status_code == 422
    assert nested_untranslated(bad.get_data(as_text=True)) == []


def test_the_rummathon_royale_sheets_translate_their_own_words(rummathon_table):
    needs_poppler()
    client, table, _ = rummathon_table
    game = entry_forms.scored_game(client, table)
    with messages.speaking(messages.PSEUDO):
        filled = sheets.html_for_filled(game, "Thursday", PRINTED)
        blank = sheets.html_for_blank("rummathon-royale", list(PLAYERS))
    assert sheet_words_of_its_own(filled) == set()
    assert set(nested_untranslated(blank.replace('<html lang="en">', '<html lang="qps">'))) <= SHEET_FRAME
    pages = {}
    for code in ("en", "fr", "hi"):
        with messages.speaking(code):
            pages[code] = (_pages(sheets.render_filled(game, "Thursday", PRINTED)),
                           _pages(sheets.render_blank("rummathon-royale", list(PLAYERS))))
    assert pages["fr"] == pages["en"] == pages["hi"]


@pytest.mark.parametrize("month", range(1, 13))
def test_the_sheets_words_check_holds_in_every_month_and_prints_it_in_each_language(pool_table, rummathon_table,
                                                                                      month):
    """The check above passes on whatever day the suite runs: it is run here with the sheet dated in each
    month of a year, and the month prints as French and Hindi write it."""
    from babel.dates import get_month_names

    printed = f"2027-{month:02}-28"
    for client, table, _ in (pool_table, rummathon_table):
        game = entry_forms.scored_game(client, table)
        with messages.speaking(messages.PSEUDO):
            assert sheet_words_of_its_own(sheets.html_for_filled(game, "Thursday", printed), printed) == set()
        for code in ("fr", "hi"):
            with messages.speaking(code):
                html = sheets.html_for_filled(game, "Thursday", printed)
            assert f"28 {get_month_names('wide', locale=code)[month]} 2027" in html
