"""Rally the King in the reader's language (RK-1 to RK-11): every why line and every problem the engine
and its trick referee say is a message (a Text), said whole in the pseudo-language; the game's own parts of
its pages and sheets leave no word untranslated; a few French and Hindi lines word for word; the sheets
print on as many pages in French and Hindi as in English.

The pages around the game's own parts (the table page's frame, the entry form's heading and save, the
history's sentences, the sheets' frame) are the shared templates' and are checked by their own tests: the
checks here read the parts this game's templates and modules write."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from companion.core import messages
from companion.core.messages import Text, render
from companion.games import rally_the_king as engine
from companion.games.base import InputError
from companion.paper import sheets
from companion.referee.rally_the_king import trick
from companion.web import language
from tests import entry_forms, pdf_checks
from tests.casebook import load
from tests.pseudo import without_marks
from tests.test_rally_the_king import BAD_HANDS
from tests.test_translations import pseudo_client

PLAYERS = ("Ann", "Ben", "Cat", "Dan")
CASES = load("rally_the_king.toml")["case"]
TRICKS = load("rally_the_king_tricks.toml")["trick"]
#: Words a line shows as they are: the players' names, cards' letters, ruling ids, the API's names in a message
#: about the API's JSON.
KEPT = re.compile(r"^(Ann|Ben|Cat|Dan|Zed|[AKQJCV][SHDC]|RK|RM|API|md)$")
#: Problems the shared checks (games.base: a note, a count's shape, a stranger's name; core.cards: a French-pack
#: card) say in their own words.
SHARED_PROBLEMS = re.compile(r"^(a note |.* must be a whole number|.* cannot be negative$|“.*” is not a player at|"
                             r".* is not a card: use a rank 2-10)")


def outside_marks(text: str) -> list[str]:
    """The words of ``text`` outside the pseudo-language's marks (marks nest: a message inside a message),
    but names, cards and ruling ids."""
    return [word for word in re.findall(r"[^\W\d_]{2,}", without_marks(text)) if not KEPT.match(word)]


def said_whole(line: object) -> list[str]:
    """What is wrong with a line: not a Text, or words outside the marks when said in the pseudo-language."""
    if not isinstance(line, Text):
        return [f"not a Text: {line!r}"]
    return outside_marks(render(line, messages.PSEUDO))



def _game(case):
    return engine.score(tuple(case["players"]), case.get("options", {}), case["rounds"])


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_every_why_and_problem_of_the_case_book_is_a_message_said_whole(case):
    try:
        game = _game(case)
    except InputError as err:
        lines = [p.message for p in err.problems if not SHARED_PROBLEMS.match(p.message)]
    else:
        lines = [line for r in game.rounds for p in game.players for line in r.explain[p]]
        lines += [game.reason] if game.reason else []
        lines += [p["label"] for r in game.rounds for p in r.detail["payouts"]] + [
            r.detail["bid_label"] for r in game.rounds]
    assert lines
    assert {line: said_whole(line) for line in lines if said_whole(line)} == {}


@pytest.mark.parametrize("raw", BAD_HANDS.values(), ids=BAD_HANDS.keys())
def test_every_refusal_is_a_message_said_whole(raw):
    hand = raw[0]
    with pytest.raises(InputError) as caught:
        engine.score(PLAYERS, {}, [hand])
    problems = [p.message for p in caught.value.problems if not SHARED_PROBLEMS.match(p.message)]
    assert {line: said_whole(line) for line in problems if said_whole(line)} == {}


@pytest.mark.parametrize("options", [{"counting": 3}, {"hands": 0}, {"speed": "fast"}])
def test_bad_options_are_refused_in_messages(options):
    with pytest.raises(InputError) as caught:
        engine.score(PLAYERS, options, [])
    assert [said_whole(p.message) for p in caught.value.problems] == [[]]


@pytest.mark.parametrize("bad", [
    {"bid": "solo", "declarer": "Ben", "declarer_points": "lots"},
    {"bid": "solo", "declarer": "Ben", "declarer_points": "59 1/2"},
    {"bid": "solo", "declarer": "Ben", "declarer_points": 130},
    {"bid": "solo", "declarer": "", "declarer_points": 64},
    {"bid": "beggar", "declarer": "Ben"},
    {"bid": "partner", "declarer": "Ben", "called_king": "QH", "declarer_points": 64, "partner": "Ben"},
    {"bid": "partner", "declarer": "Ben", "called_king": "JH", "declarer_points": 64},
    {"bid": "solo-with-bird", "declarer": "Ben", "declarer_points": 64},
    {"bid": "solo", "declarer": "Ben", "bird": "owl", "declarer_points": 64, "partner": "Cat"},
    {"bid": "solo-with-bird", "declarer": "Ben", "bird": "owl", "declarer_points": 64, "bonuses": []},
    {"bid": "solo", "declarer": "Ben", "declarer_cards": {"kings": 5}, "declarer_points": 3},
    {"bid": "one-trick", "declarer": "Ben", "declarer_tricks": 1, "declarer_cards": {"kings": 1}},
    {"bid": "all-beggars", "player_points": {"Ann": 60, "Ben": 60, "Cat": 10}},
    {"bid": "solo", "declarer": "Ben", "declarer_cards": {"kings": 2, "tricks": 3},
     "bonuses": [{"bonus": "kings", "side": "declarer", "announced": True, "made": True, "when": 1}]},
    {"bid": "solo", "declarer": "Ben", "declarer_points": 64, "bonuses": [{"bonus": "slam", "side": "x"}]},
    {"bid": "solo", "declarer": "Ben", "declarer_points": 64,
     "bonuses": [{"bonus": "slam", "side": "defenders", "announced": "no", "made": True}]},
    {"bid": "solo", "declarer": "Ben", "declarer_points": 64, "colour": "red"},
])
def test_more_refusals_are_messages_said_whole(bad):
    with pytest.raises(InputError) as caught:
        engine.score(PLAYERS, {"counting": "individual"}, [bad])
    problems = [p.message for p in caught.value.problems if not SHARED_PROBLEMS.match(p.message)]
    assert problems
    assert {line: said_whole(line) for line in problems if said_whole(line)} == {}


def test_a_game_past_its_end_is_refused_in_a_message():
    hand = {"bid": "solo", "declarer": "Ben", "declarer_points": 64}
    with pytest.raises(InputError) as caught:
        engine.score(PLAYERS, {"hands": 1}, [hand, hand])
    assert [said_whole(p.message) for p in caught.value.problems] == [[]]


@pytest.mark.parametrize("case", TRICKS, ids=[c["name"] for c in TRICKS])
def test_every_trick_referee_answer_is_a_message_said_whole(case):
    body = {"cards": case["cards"], **({"no_trumps": case["no_trumps"]} if "no_trumps" in case else {})}
    try:
        lines = trick(body)["explain"]
    except InputError as err:
        lines = [p.message for p in err.problems]
    assert {line: said_whole(line) for line in lines if said_whole(line)} == {}


@pytest.mark.parametrize("body", [{"cards": ["T1"]}, {"cards": ["T1", "JS"]}, {"cards": ["KH", "KH"]},
                                  {"cards": ["T1", "zz"]}, {"cards": ["T1", 5]},
                                  {"cards": ["T1", "T2"], "no_trumps": "yes"}])
def test_a_bad_trick_is_refused_in_messages(body):
    with pytest.raises(InputError) as caught:
        trick(body)
    assert {p.message: said_whole(p.message) for p in caught.value.problems if said_whole(p.message)} == {}


# ---------------------------------------------------------------------------------------
# The game's parts of its pages, in the pseudo-language


class _Words(HTMLParser):
    """The visible words of a piece of HTML, and the labels a screen reader reads."""

    def __init__(self):
        super().__init__()
        self.words: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.words += [value for name, value in attrs if value and name in ("placeholder", "aria-label", "title")]

    def handle_data(self, data):
        self.words.append(data)


def untranslated_in(html: str) -> list[str]:
    parser = _Words()
    parser.feed(html)
    return outside_marks(" ".join(parser.words))


def between(html: str, start: str, end: str) -> str:
    """The piece of ``html`` from ``start`` to the first ``end`` after it (both kept)."""
    at = html.index(start)
    return html[at:html.index(end, at) + len(end)]


def every(html: str, pattern: str) -> str:
    return " ".join(re.findall(pattern, html, re.S))


def _table(app):
    client = app.test_client()
    table, key = entry_forms.new_table(client, "rally-the-king", PLAYERS, {}, counting="individual", hands="4")
    hands = [dict(dealer="Ann", bid="partner-with-bird", declarer="Ben", called_king="KH", partner="Dan",
                  c_honours="2", c_kings="3", c_queens="2", c_cavaliers="1", c_valets="2", c_others="15",
                  c_tricks="7", bird="sparrow", bird_made="yes", bo_kings_side="defenders"),
             dict(dealer="Ben", bid="one-trick", declarer="Cat", declarer_tricks="2"),
             dict(dealer="Cat", bid="all-beggars", pp_0="70", pp_1="20", pp_2="10", pp_3="10")]
    for hand in hands:
        assert entry_forms.post(client, table, key, **hand).status_code == 303
    return client, table, key


def test_the_entry_form_and_its_problems_are_translated(speaking_app):
    client, table, key = _table(speaking_app)
    pseudo = pseudo_client(speaking_app)
    form = pseudo.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    assert untranslated_in(between(form, '<label for="dealer"', "</details>")) == []
    assert messages.pseudo("Trick referee") in form
    refused = pseudo.post(f"{table}/hands?key={key}", data={
        "base_version": entry_forms.version(client, table, key), "dealer": "Dan", "bid": "partner",
        "declarer": "Zed", "declarer_points": "130", "c_kings": "5", "bo_slam_made": "y"})
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    errors = every(page, r'<p class="error"[^>]*>(.*?)</p>')
    assert errors.count("⟦") >= 4
    assert untranslated_in(between(page, '<label for="dealer"', "</details>")) == []


def test_the_board_the_why_and_the_headings_are_translated(speaking_app):
    _, table, key = _table(speaking_app)
    pseudo = pseudo_client(speaking_app)
    board = pseudo.get(f"{table}/board").get_data(as_text=True)
    mine = between(board, "<p class=\"hint\">", '<table class="standings">') + between(
        board, '<table class="standings">', "</table>")
    assert untranslated_in(mine) == []
    headings = every(board, r"<h3>(.*?)</h3>")
    assert headings.count(messages.pseudo("Hand {number}")[:6]) == 3 and untranslated_in(headings) == []
    lines = every(board, r"<li>(.*?)</li>")
    assert lines.count("RK-") > 20 and untranslated_in(lines) == []
    why = pseudo.get(f"{table}/hands/1/why").get_data(as_text=True)
    assert untranslated_in(every(why, r"<li>(.*?)</li>")) == []
    over = pseudo.get(f"{table}?key={key}").get_data(as_text=True)
    assert untranslated_in(between(over, '<table class="standings">', "</table>")) == []


def test_the_trick_referee_is_translated(speaking_app):
    pseudo = pseudo_client(speaking_app)
    for page in (pseudo.get("/referee/rally-the-king/trick"),
                 pseudo.post("/referee/rally-the-king/trick", data={"card1": "KS", "card2": "T1", "card3": "T21",
                                                                     "card4": "F", "no_trumps": "y"}),
                 pseudo.post("/referee/rally-the-king/trick", data={"card1": "KS", "card2": "JS"})):
        html = page.get_data(as_text=True)
        mine = (between(html, '<p class="hint">', "</p>") + every(html, r"<label[^>]*>(.*?)</label>")
                + every(html, r'<section class="verdict.*?</section>') + every(html, r'<p class="footnote">.*?</p>')
                + every(html, r'<div class="errors".*?</div>') + every(html, r'<p class="error"[^>]*>.*?</p>'))
        assert untranslated_in(mine) == []
        assert messages.pseudo("Who won?") in html


def _scored(client, table):
    return entry_forms.scored_game(client, table)


def test_the_sheets_own_words_are_translated(speaking_app):
    client, table, _ = _table(speaking_app)
    game = _scored(client, table)
    rounds = entry_forms.exported(client, table)["rounds"]
    with messages.speaking(messages.PSEUDO):
        filled = sheets.html_for_filled(game, "Friday", None, game.options, None, "a4", rounds=rounds)
        blank = sheets.html_for_blank("rally-the-king", list(PLAYERS), "a4")
    mine = (every(filled, r'<th[^>]*class="what"[^>]*>.*?</th>') + every(filled, r'<td class="info">.*?</td>')
            + between(filled, f"<h2>{messages.pseudo('Standing')}</h2>", "</p>"))
    assert mine.count("⟦") > 10 and untranslated_in(mine) == []
    form = between(blank, '<table class="form rk">', "</table>") + every(blank, r"<p><b>.*?</p>")
    assert untranslated_in(form) == []


# ---------------------------------------------------------------------------------------
# French and Hindi, word for word


def test_french_and_hindi_lines_as_written():
    game = engine.score(PLAYERS, {"counting": "individual", "hands": 1}, [
        {"dealer": "Ann", "bid": "partner-with-bird", "declarer": "Ben", "called_king": "KH", "partner": "Dan",
         "declarer_cards": {"honours": 2, "kings": 3, "queens": 2, "cavaliers": 1, "valets": 2, "others": 15,
                            "tricks": 7}, "bird": "sparrow",
         "bonuses": [{"bonus": "sparrow", "side": "declarer", "announced": True, "made": True}]}])
    lines = game.rounds[0].explain["Ann"]
    assert [render(line, "fr") for line in lines[1:4]] == [
        "Ben a appelé KH\u00a0; Dan l’avait\u00a0: Ben et Dan contre Ann et Cat (RK-5)",
        "Cartes prises par le camp du preneur, décompte individuel\u00a0: 2 bouts × 5 + 3 Rois × 5 + 2 Dames × 4 "
        "+ 1 Cavalier × 3 + 2 Valets × 2 + 15 autres × 1 + 7 plis × 1 = 62 (RK-2, RK-3)",
        "Appel avec oiseau (moineau) par Ben\u00a0: 62 points atteignent l’objectif de 60 et le moineau est "
        "réussi — gagné (RK-3, RK-4, RK-6)"]
    assert render(lines[1], "hi") == "Ben ने KH बुलाया; वह Dan के पास था: Ben और Dan, Ann और Cat के ख़िलाफ़ (RK-5)"
    assert render(game.reason, "fr") == ("Après 1 donne, la partie est finie\u00a0: Ben et Dan partagent le "
                                         "meilleur total, +4 (RK-10).")
    assert render(game.reason, "hi") == "1 बाज़ी के बाद खेल ख़त्म: सबसे ज़्यादा कुल Ben और Dan का बराबर है, +4 (RK-10)।"


def test_big_numbers_are_written_as_each_language_writes_them():
    # A long game of solos against the stock: Ben wins 8 × 3 = 24 a hand (RK-4, RK-7); after 60 hands his
    # total is 1 440, written with a French thin space and an Indian comma.
    hand = {"bid": "solo-against-stock", "declarer": "Ben", "declarer_points": 80}
    game = engine.score(PLAYERS, {"hands": 60}, [hand] * 60)
    last = game.rounds[-1].explain["Ben"][-1]
    assert render(last, "fr") == "Donne +24\u00a0; total +1\u202f440 (RK-7, RK-10)"
    assert render(last, "hi") == "बाज़ी +24; कुल +1,440 (RK-7, RK-10)"
    assert last == "Hand +24; total +1440 (RK-7, RK-10)"


def test_a_problem_is_said_in_french_and_hindi():
    with pytest.raises(InputError) as caught:
        engine.score(PLAYERS, {}, [{"bid": "solo", "declarer": "Ben", "declarer_points": 64, "partner": "Cat"}])
    problem = caught.value.problems[0].message
    assert render(problem, "fr") == ("«\u00a0solo\u00a0» se joue sans partenaire\u00a0: seuls Appel garde contre, "
                                     "Appel avec oiseau et Appel appellent un Roi (RK-4, RK-5)")
    assert render(problem, "hi") == ("सोलो बिना साथी खेली जाती है: सिर्फ़ साथी, स्टॉक के ख़िलाफ़, साथी, पक्षी के साथ "
                                     "और साथी में बादशाह बुलाया जाता है (RK-4, RK-5)")


def test_the_trick_referee_answers_in_french():
    answer = trick({"cards": ["KS", "T1", "T21", "F"]})
    assert [render(line, "fr") for line in answer["explain"]] == [
        "KS en entame\u00a0: Pique (RK-11)",
        "Le Petit (T1), le 21 (T21) et l’Excuse (F) sont tous dans le pli\u00a0: le Petit le remporte (le pli de "
        "l’Empereur) (RK-11)",
        "Les cartes de couleur ne battent pas un atout\u00a0: KS (RK-11)",
        "La deuxième carte jouée, T1, remporte le pli (RK-11)"]


@pytest.mark.parametrize("code", ["fr", "hi"])
def test_the_sheets_print_on_as_many_pages_as_in_english(speaking_app, code):
    pdf_checks.needs_poppler()
    client, table, _ = _table(speaking_app)
    view = table
    english = client.get(f"{view}/sheet.pdf")
    other = speaking_app.test_client()
    other.set_cookie(language.COOKIE, code)
    translated = other.get(f"{view}/sheet.pdf")
    assert english.status_code == translated.status_code == 200
    assert pdf_checks.page_count(translated.data) == pdf_checks.page_count(english.data)
    said = " ".join(pdf_checks.page_texts(translated.data))
    # pdftotext reads a shaped Devanagari vowel sign before its consonant now and then ("नितीजा"): the word's tail.
    assert ("Contrat" if code == "fr" else "तीजा") in said
    blank_en = client.get("/sheets/blank/rally-the-king.pdf?players=Ann,Ben,Cat,Dan")
    blank = other.get("/sheets/blank/rally-the-king.pdf?players=Ann,Ben,Cat,Dan")
    assert pdf_checks.page_count(blank.data) == pdf_checks.page_count(blank_en.data)
    assert ("Preneur" if code == "fr" else "बाज़ी") in " ".join(pdf_checks.page_texts(blank.data))
