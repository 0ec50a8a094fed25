"""Alliance Royals, Battle Royals and Marriage Royals in the reader's language.

Every why line, every end of a game and every problem the Royals engines say is a message (a ``Text``),
said in the pseudo-language with no word outside its marks, over the three case books and over inputs
the engines refuse; the referees' answers too. The games' own parts of their pages (the entry form, the
board, the why, the referee screens and answers, the sheets) leave no word untranslated in the
pseudo-language; the page around them (the table page's frame, the sheets' header) is the pages' own and
is tested with them. A few French and Hindi lines are checked word for word, and the French and Hindi
sheets print on as many pages as the English ones.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest

from companion.core import messages
from companion.core.messages import Text, render
from companion.games import ENGINES, InputError, score
from companion.paper import sheets
from companion.referee import ask
from companion.web import language
from tests import entry_forms
from tests.casebook import load
from tests.pdf_checks import needs_poppler, page_count
from tests.pseudo import without_marks
from tests.test_translations import pseudo_client, untranslated

GAMES = ("alliance-royals", "battle-royals", "marriage-royals")
SEATS = {"alliance-royals": ("Ann", "Ben", "Cat", "Dan"), "battle-royals": ("Ann", "Ben"),
         "marriage-royals": ("Ann", "Ben", "Cat")}
DEFAULTS = {"alliance-royals": {"opt-seating": "13-24", "opt-win_above": "1066", "opt-lose_below": "-333"},
            "battle-royals": {"opt-win_above": "1066", "opt-lose_below": "-333"},
            "marriage-royals": {"opt-win_above": "1066", "opt-lose_below": "-333", "opt-share": "positive"}}
BOOKS = {"alliance-royals": load("alliance_royals.toml")["case"], "battle-royals": load("battle_royals.toml")["case"],
         "marriage-royals": load("marriage_royals.toml")["case"]}
CASES = [(game, case) for game, cases in BOOKS.items() for case in cases]
REFEREE_BOOK = load("alliance_royals_battle.toml")
#: Problems the shared checks say (games/: a name not at the table, a name twice in the teams, a round's note,
#: the number of players; core/cards.py: a card or a suit it cannot read): theirs to turn into messages, not
#: these games'. A card's problem these games cite a ruling after is a message around the shared words.
SHARED_PROBLEMS = re.compile(r"is not a player at this table|^choose a player: |is in the teams twice|note|"
                             r"is played by exactly|is not a card|is not a suit|^give a (suit|card) as|"
                             r"this question takes")
#: A name, a card (KS, 10H) or a ruling id (AR-9): as printed in every language.
AS_PRINTED = re.compile(r"^(Ann|Ben|Cat|Dan|Zed|[AKQJ]?[SHDC]|[A-Z]{2})$")


def flat(text: str) -> str:
    """The pseudo-language's marks with those nested inside others dropped: a sentence said inside another
    (a count inside a score's line) is inside the outer marks."""
    out, depth = [], 0
    for char in text:
        if char == "⟦":
            depth += 1
            if depth > 1:
                continue
        elif char == "⟧":
            depth -= 1
            if depth > 0:
                continue
        out.append(char)
    return "".join(out)


def outside_marks(text: str) -> list[str]:
    """The words of a line said in the pseudo-language that are outside its marks."""
    return re.findall(r"[^\W\d_]{2,}", without_marks(flat(text)))


def check_said(line: object) -> None:
    assert isinstance(line, Text), f"not a message: {line!r}"
    said = render(line, messages.PSEUDO)
    assert said.startswith("⟦") and outside_marks(said) == [], said


def request_for(game: str, case: dict[str, Any]) -> dict[str, Any]:
    return {"game": game, "players": case.get("players", list(SEATS[game])), "options": case.get("options", {}),
            "rounds": case.get("rounds", [])}


def problems_of(request: dict[str, Any]) -> list[Any]:
    with pytest.raises(InputError) as caught:
        score(request)
    return [problem.message for problem in caught.value.problems]


# ---------------------------------------------------------------------------------------
# The engines and referees


@pytest.mark.parametrize(("game", "case"), CASES, ids=[f"{g}-{c['name'][:60]}" for g, c in CASES])
def test_every_why_line_end_and_problem_of_the_case_books_is_a_message(game, case):
    request = request_for(game, case)
    if "error_where" in case:
        for message in [m for m in problems_of(request) if not SHARED_PROBLEMS.search(m)]:
            check_said(message)
        return
    game_scored = score(request)
    for scored in game_scored.rounds:
        for lines in scored.explain.values():
            for line in lines:
                check_said(line)
    if game_scored.reason is not None:
        check_said(game_scored.reason)


BAD_ROUNDS = [
    ["Ann"],
    {"players": {}, "winner": "Ann"},
    {"players": {"Ann": {"house": "S", "tricks": 3}}},
    {"players": {"Ann": {"house": None, "spoils": "KS"}}},
    {"players": {"Ann": {"house": "S", "spoils": ["KS", "", "KS", "KS", "KS"]}}},
    {"players": {"Ann": {"house": "S", "spoils": ["KH"], "hostages": "KH"}}},
    {"players": {"Ann": {"house": "S", "spoils": ["KH"], "hostages": [["KH"], {"card": "", "target": ""},
                                                                      {"card": "KH", "target": "Ann", "why": 1},
                                                                      {"card": "9H", "target": "Ben"},
                                                                      {"card": "KS", "target": "Ben"},
                                                                      {"card": "QD", "target": "Ben"}]}}},
    {"players": "all of them"},
]
BAD_OPTIONS = [{"win_above": "lots"}, {"win_above": -5}, {"lose_below": 3}, {"lose_below": True},
               {"house_names": ["Dogs"]}, {"house_names": {"X": "Cats", "S": "", "H": "A" * 21}},
               {"speed": "fast"}, {"teams": [["Ann"]]}, {"share": "all"}]


@pytest.mark.parametrize("game", GAMES)
def test_every_problem_with_a_refused_round_or_option_is_a_message(game):
    players = list(SEATS[game])
    said = []
    for rnd in BAD_ROUNDS:
        said += problems_of({"game": game, "players": players, "rounds": [rnd]})
    for options in BAD_OPTIONS:
        if "share" in options and game != "marriage-royals" or "teams" in options and game != "alliance-royals":
            continue
        said += problems_of({"game": game, "players": players, "options": options, "rounds": []})
    ended = {"players": {p: {"house": "S", "spoils": ["2S", "3S", "4S", "5S", "6S", "7S", "8S"] if p == "Ann"
                             else []} for p in players}}
    said += problems_of({"game": game, "players": players, "options": {"win_above": 1}, "rounds": [ended, ended]})
    mine = [m for m in said if not SHARED_PROBLEMS.search(m)]
    assert len(mine) >= 20
    for message in mine:
        check_said(message)


def test_hostage_problems_are_messages():
    four = ["Ann", "Ben", "Cat", "Dan"]
    board = {"house": "S", "spoils": [], "meld": [], "hand": []}
    rnd = {"players": {"Ann": {**board, "spoils": ["QH", "QH"], "hostages": [{"card": "QH", "target": "Ben"}] * 2},
                       "Ben": {**board, "house": "H"}, "Cat": {**board, "house": "D"}, "Dan": {**board, "house": "C"}}}
    said = problems_of({"game": "alliance-royals", "players": four, "rounds": [rnd]})
    rnd["players"]["Ann"]["hostages"] = [{"card": "QH", "target": "Ben"}]
    said += problems_of({"game": "marriage-royals", "players": four[:3],
                         "rounds": [{"players": {p: rnd["players"][p] for p in four[:3]}}]})
    said += problems_of({"game": "battle-royals", "players": four[:2],
                         "rounds": [{"players": {p: rnd["players"][p] for p in four[:2]}}]})
    assert len(said) >= 3
    for message in said:
        check_said(message)


REFEREE_BODIES = {
    "battle": [{"cards": ["AS", "2S"]}, {"cards": ["KS", "QS", "2S"]}, {"cards": ["9H", "9H", "AS"]},
               {"cards": ["9H", "9H", "9H", "2H"]}, {"cards": ["5C", "KS"]}],
    "privileges": [{"house": "S", "ally_house": "D", "spoils": ["KS", "QS", "AH"], "ally_spoils": ["KD", "QS"],
                    "meld": ["JS", "9C", "9C", "9C"], "hand": ["KD"]},
                   {"house": "S", "ally_house": "S", "spoils": [], "battle_won": False},
                   {"house": "H", "ally_house": "C", "spoils": ["KH", "JH"], "battle_won": True}],
}
REFUSED = {"battle": [{"cards": "AS"}, {"cards": ["AS", "XX"]}, {"cards": ["AS", "AS", "AS", "AS"]}],
           "privileges": [{"house": None, "ally_house": None, "battle_won": "yes"}, {"house": "S", "spoils": "KS"}]}


@pytest.mark.parametrize("game", GAMES)
def test_the_referees_answers_and_refusals_are_messages(game):
    for question, bodies in REFEREE_BODIES.items():
        for body in bodies:
            if game != "alliance-royals":
                body = {k: v for k, v in body.items() if not k.startswith("ally")}
                if question == "battle":
                    body = {"cards": body["cards"][:SEATS[game].__len__()]}
                if question == "privileges" and game == "marriage-royals":
                    body["others"] = [{"house": "D", "spoils": ["KD", "QS", "QS"]}, {"house": "H", "spoils": []}]
            answer = ask(game, question, body)
            for line in answer["explain"] + answer.get("end_round_needs", []):
                check_said(line)
        for body in REFUSED[question]:
            with pytest.raises(InputError) as caught:
                ask(game, question, body)
            for problem in caught.value.problems:
                if not SHARED_PROBLEMS.search(problem.message):
                    check_said(problem.message)


# ---------------------------------------------------------------------------------------
# The pages


class _Parts(HTMLParser):
    """The words inside the elements a game's templates write (by a class or id each holds), with the
    alternative texts and labels a reader hears there."""

    def __init__(self, wanted: set[str]):
        super().__init__()
        self.wanted, self.depth, self.words = wanted, 0, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        names = {*(attrs.get("class") or "").split(), attrs.get("id") or "", tag}
        if self.depth or names & self.wanted:
            if tag not in ("input", "br", "img", "meta", "col", "link"):
                self.depth += 1
            self.words += [attrs[key] for key in ("alt", "placeholder", "aria-label", "title") if attrs.get(key)]

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.words.append(data)


def escaped_from(html: str, *wanted: str) -> list[str]:
    """The words of the wanted parts of a page, in the pseudo-language, outside its marks; names, cards,
    ruling ids and the games' names as printed."""
    parts = _Parts(set(wanted))
    parts.feed(flat(html))
    assert parts.words, f"none of {wanted} on the page"
    titles = {word for game in ENGINES.values() for word in re.findall(r"[^\W\d_]{2,}", game.TITLE)}
    return [word for word in outside_marks(" ".join(parts.words)) if not AS_PRINTED.match(word) and word not in titles]


ROUND = {"p0_house": "S", "p1_house": "H", "p2_house": "D", "p3_house": "C", "p0_spoils": "KS QH JS AD",
         "p0_meld": "5H 5D 5C", "p1_spoils": "KH QS", "p1_hand": "3C 9D", "p2_spoils": "10C"}



@pytest.fixture
def tables(speaking_app):
    """A table of each game with two rounds entered (in English), and a client reading in the pseudo-language."""
    english = speaking_app.test_client()
    made = {}
    for game in GAMES:
        table, key = entry_forms.new_table(english, game, SEATS[game], DEFAULTS[game])
        for _ in range(2):
            assert entry_forms.post(english, table, key, **ROUND).status_code == 303
        made[game] = (table, key)
    return made, pseudo_client(speaking_app)


def test_the_new_table_forms_are_translated(speaking_app):
    client = pseudo_client(speaking_app)
    for game in GAMES:
        html = client.get(f"/new/{game}").get_data(as_text=True)
        assert untranslated(flat(html)) == [], game


@pytest.mark.parametrize("game", GAMES)
def test_the_games_parts_of_the_table_board_why_and_entry_pages_are_translated(tables, game):
    made, client = tables
    table, key = made[game]
    board = client.get(f"{table}/board").get_data(as_text=True)
    assert escaped_from(board, "standings", "marriages", "label") == []
    page = client.get(f"{table}?key={key}").get_data(as_text=True)
    assert escaped_from(page, "standings") == []
    why = client.get(f"{table}/hands/2/why").get_data(as_text=True)
    assert escaped_from(why, "why", "h1") == []
    assert messages.pseudo("Spoils {cards}: {points} (AR-4)").split("{")[0] in why
    form = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    assert escaped_from(form, "board-entry", "surrender", "hint") == []


def problems_listed(page: str) -> str:
    """The problems listed above a form (the list's frame is the entry form's own)."""
    listed = re.search(r'<div class="errors"[^>]*>.*?(<ul>.*?</ul>)', page, re.S)
    assert listed, "no problems listed"
    return listed.group(1)


@pytest.mark.parametrize("game", GAMES)
def test_the_entry_form_shows_its_problems_translated(tables, game):
    made, client = tables
    table, key = made[game]
    bad = {**ROUND, "p0_spoils": "KS KS KS KS", "p1_house": "", "surrender": SEATS[game][1],
           "base_version": entry_forms.version(client, table, key)}
    page = client.post(f"{table}/hands?key={key}", data=bad).get_data(as_text=True)
    assert 'class="error"' in page
    assert escaped_from(page, "error", "board-entry", "surrender") == []
    del bad["surrender"]
    page = client.post(f"{table}/hands?key={key}", data=bad).get_data(as_text=True)
    assert messages.pseudo("the pack has only")[:12] in page
    assert escaped_from(page, "error", "board-entry") == []
    assert escaped_from(problems_listed(page), "ul") == []


@pytest.mark.parametrize("game", GAMES)
def test_the_referee_screens_and_answers_are_translated(speaking_app, game):
    """The hint, the fields' labels, the footnote and the answers; the screen around them is the referees' own."""
    client = pseudo_client(speaking_app)
    for question in ("battle", "privileges"):
        html = client.get(f"/referee/{game}/{question}").get_data(as_text=True)
        assert escaped_from(html, "hint", "footnote", "label", "legend") == [], (game, question)
    answer = client.post(f"/referee/{game}/battle", data={"card1": "AS", "card2": "2S"}).get_data(as_text=True)
    assert escaped_from(answer, "li") == []
    privileges = {"house": "S", "ally_house": "D", "spoils": "KS QS AH", "hand": "KD", "meld": "9C 9C 9C",
                  "left_house": "D", "left_spoils": "QS", "right_house": "H"}
    answer = client.post(f"/referee/{game}/privileges", data=privileges).get_data(as_text=True)
    assert 'class="verdict' in answer and escaped_from(answer, "verdict") == []
    refused = client.post(f"/referee/{game}/privileges", data={"spoils": "KS XX"}).get_data(as_text=True)
    assert escaped_from(refused, "error") == []


MARRIED = {"game": "marriage-royals", "players": ["Ann", "Ben", "Cat"], "options": {}, "rounds": [
    {"players": {"Ann": {"house": "S", "spoils": ["KS", "QH", "JS"], "meld": ["5H", "5D", "5C"]},
                 "Ben": {"house": "H", "spoils": ["AD", "QS"], "hand": ["3C"],
                         "hostages": [{"card": "QS", "target": "Cat"}]},
                 "Cat": {"house": "D", "spoils": ["KD", "QS"]}}},
    {"players": {"Ann": {"house": "S"}, "Ben": {"house": "H"}, "Cat": {"house": "D"}}}]}
ALLIANCE = {"game": "alliance-royals", "players": ["Ann", "Ben", "Cat", "Dan"],
            "options": {"house_names": {"S": "Dogs"}}, "rounds": BOOKS["alliance-royals"][0]["rounds"]}


@pytest.mark.parametrize("request_", [MARRIED, ALLIANCE, {**MARRIED, "game": "battle-royals", "players": ["Ann", "Ben"],
                                                          "rounds": [{"players": {"Ann": {"house": "S"},
                                                                                  "Ben": {"house": "H"}}}]}],
                         ids=["marriage", "alliance", "battle"])
def test_the_sheets_own_words_are_translated(request_, speaking_app):
    with messages.speaking(messages.PSEUDO):
        filled = sheets.html_for_filled(score(request_), "Friday")
        blank = sheets.html_for_blank(request_["game"], request_["players"])
    # The standings and the marriages, the hints and every why line (the rounds' names are the sheets' own)
    own = re.findall(r'<table class="standing">.*?</table>|<table class="standing marriages small">.*?</table>'
                     r'|<p class="(?:hint|grid-note|line)">.*?</p>', filled, re.S)
    assert escaped_from("".join(own).replace("<th>Round ", "<th>"), "table", "p") == []
    assert messages.pseudo("Total") in filled
    own = re.findall(r'<table class="form ar">.*?</table>|<div class="legend">.*?</div>', blank, re.S)
    assert escaped_from("".join(own), "table", "div") == []
    assert messages.pseudo("Ends above").rstrip("⟧") in blank


# ---------------------------------------------------------------------------------------
# French and Hindi, word for word


def test_french_and_hindi_lines_as_written():
    game = score({"game": "alliance-royals", "players": ["Ann", "Ben", "Cat", "Dan"], "options": {"win_above": 100},
                  "rounds": BOOKS["alliance-royals"][0]["rounds"]})
    ann = game.rounds[0].explain["Ann"]
    assert render(ann[-2], "fr") == "Score 45 × (1 + 1 série royale + 1 mariage) = 45 × 3 = 135 (AR-10)"
    assert render(ann[0], "fr") == "Maison Pique\u00a0; allié Cat (Carreau) (AR-2, AR-3)"
    assert render(ann[0], "hi") == "घर हुकुम; साथी Cat (ईंट) (AR-2, AR-3)"
    assert render(ann[-1], "hi") == "गठबंधन A: Ann 135 + Cat 100 = 235; कुल 235 (AR-11)"
    assert render(game.reason, "fr") == (
        "Après la manche 1, l’Alliance A (Ann et Cat) a dépassé 100 avec 235 et l’Alliance B (Ben et Dan) a "
        "dépassé 100 avec 110\u00a0; l’Alliance A (Ann et Cat) gagne avec le plus haut total, 235 contre 110 (AR-12).")
    # BR-2: Ann (115 + 40) x (1 + 3 Royal sets) = 620 a round; Ben -140 a round; BR-3 after round 2
    spoils = ["KS", "QS", "JS"] * 3 + ["2C", "3C", "4C", "5C", "6C", "7C", "8C"]
    hand = [rank + suit for suit in "HD" for rank in "2345678"]
    rnd = {"players": {"Ann": {"house": "S", "spoils": spoils, "meld": ["2S", "3S", "4S", "5S"]},
                       "Ben": {"house": "H", "hand": hand}}}
    bounds = score({"game": "battle-royals", "players": ["Ann", "Ben"], "options": {"lose_below": -200},
                    "rounds": [rnd, rnd]})
    last = bounds.rounds[-1].explain
    assert render(last["Ann"][-1], "fr") == "Total 1\u202f240 (BR-3)"
    assert render(last["Ann"][-2], "fr") == ("Score 155 × (1 + 3 séries royales) = 155 × 4 = 620 (BR-2)")
    assert render(bounds.reason, "fr") == ("Après la manche 2, Ann a dépassé 1\u202f066 avec 1\u202f240 et Ben est "
                                          "passé sous −200 avec −280\u00a0; Ann gagne avec le plus haut total, "
                                          "1\u202f240 (BR-3).")
    assert render(last["Ben"][-2], "hi") == "स्कोर −140 × 1 = −140 (BR-2)"
    assert render(bounds.reason, "hi") == ("राउंड 2 के बाद, Ann 1,240 के साथ 1,066 के पार और Ben −280 के साथ −200 से "
                                          "नीचे; Ann सबसे ज़्यादा कुल 1,240 से जीतते हैं (BR-3)।")


def test_french_and_hindi_problems_as_written():
    said = problems_of({"game": "alliance-royals", "players": ["Ann", "Ben", "Cat", "Dan"],
                        "options": {"win_above": -5}, "rounds": []})
    assert [render(m, "fr") for m in said] == [
        "le score qui gagne la partie doit être au-dessus de 0 (la règle dit 1\u202f066) (AR-12)"]
    assert [render(m, "hi") for m in said] == ["जीत का स्कोर 0 से ऊपर होना चाहिए (नियम 1066 कहते हैं) (AR-12)"]


@pytest.mark.parametrize("game", GAMES)
def test_the_french_and_hindi_sheets_print_on_as_many_pages_as_the_english(tables, game, speaking_app):
    needs_poppler()
    made, _ = tables
    table, _key = made[game]
    client = speaking_app.test_client()
    counts = {}
    for code in ("en", "fr", "hi"):
        client.set_cookie(language.COOKIE, code)
        filled = client.get(f"{table}/sheet.pdf")
        blank = client.get(f"/sheets/blank/{game}.pdf")
        assert filled.status_code == blank.status_code == 200
        counts[code] = (page_count(filled.data), page_count(blank.data))
    assert counts["fr"] == counts["hi"] == counts["en"], counts
    client.set_cookie(language.COOKIE, "fr")
    board = client.get(f"{table}/board").get_data(as_text=True)
    assert "pour dépasser 1\u202f066" in board and "pour passer sous −333" in board
    client.set_cookie(language.COOKIE, "hi")
    assert "1,066 पार करने को" in client.get(f"{table}/board").get_data(as_text=True)
