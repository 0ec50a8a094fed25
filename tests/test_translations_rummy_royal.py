"""Rummy Royal in the reader's language (RM-1 to RM-9): every why line and every problem of the bank and of
its poker referee is a message (a Text) said whole in the pseudo-language; the game's own parts of its pages
and sheets leave no word untranslated; French and Hindi lines word for word (the poker hands as French
players name them); the sheets print on as many pages in French and Hindi as in English.

As for Rally the King (tests/test_translations_rally.py), the shared frame around the game's own parts is
checked by the shared templates' tests."""

from __future__ import annotations

import pytest

from companion.core import messages
from companion.core.messages import render
from companion.games import score
from companion.games.base import InputError
from companion.games.rummy_royal import poker as judge
from companion.paper import sheets
from companion.referee.rummy_royal import poker
from companion.web import language
from tests import entry_forms, pdf_checks
from tests.casebook import load
from tests.test_translations import pseudo_client
from tests.test_translations_rally import SHARED_PROBLEMS, between, every, said_whole, untranslated_in

PLAYERS = ("Ann", "Ben", "Cat", "Dan")
CASES = load("rummy_royal.toml")["case"]
POKER_CASES = load("rummy_royal_poker.toml")["case"]



def _request(case):
    return {"game": "rummy-royal", "players": case["players"], "options": case.get("options", {}),
            "rounds": case["deals"]}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_every_why_and_problem_of_the_case_book_is_a_message_said_whole(case):
    try:
        game = score(_request(case))
    except InputError as err:
        lines = [p.message for p in err.problems if not SHARED_PROBLEMS.match(p.message)]
    else:
        lines = [line for r in game.rounds for p in game.players for line in r.explain[p]]
        lines += [line for r in game.rounds for line in r.detail["lines"]]
        lines += [m["why"] for r in game.rounds for m in r.detail["movements"]]
        lines += [game.reason] if game.reason else []
    assert {line: said_whole(line) for line in lines if said_whole(line)} == {}


@pytest.mark.parametrize("case", POKER_CASES, ids=[c["name"] for c in POKER_CASES])
def test_every_poker_referee_answer_is_a_message_said_whole(case):
    try:
        answer = poker({"hands": case["hands"]})
    except InputError as err:
        lines = [p.message for p in err.problems if not SHARED_PROBLEMS.match(p.message)]
    else:
        lines = answer["explain"] + [b["words"] for b in answer["best"].values()]
    assert {line: said_whole(line) for line in lines if said_whole(line)} == {}


@pytest.mark.parametrize("deal", [
    {"dealer": "Zed", "pay_cards": {"ZZ": "Ann", "2H": "Ben", "AH": ["Ann", "Ben"]}, "out": "Ann"},
    {"pay_cards": "Ann", "sequence": "Ben", "out": "Ann", "cards_left": [3]},
    {"out": "Ann", "cards_left": {"Ann": 3, "Ben": 99}, "poker": {"bets": {"Ann": 500}, "winners": ["Ben"]}},
    {"out": "Ann", "poker": {"folded": ["Ann", "Ben", "Cat", "Dan"]}},
    {"out": "Ann", "poker": {"bets": [1], "folded": ["Ben"], "winners": ["Ben"], "colour": 1}},
    {"out": "Ann", "poker": {"hands": {"Ann": ["AS", "AS", "KS", "QS", "JS"], "Ben": ["2C"]}}},
    {"out": "Ann", "poker": {"hands": {"Ann": ["AS", "KS", "QS", "JS", "10S"]}}},
    {"out": "Ann", "poker": {"winners": ["Ben"], "hands": {"Ann": ["AS", "KS", "QS", "JS", "10S"],
                                                          "Ben": ["2C", "3C", "4C", "5C", "7D"],
                                                          "Cat": ["2D", "3D", "4D", "5D", "7H"],
                                                          "Dan": ["2H", "3H", "4H", "5H", "7S"]}}},
    {"out": "Ann", "poker": "yes"},
    {"out": "Ann", "colour": "red"},
    {"end": {"board_to": "Ann"}, "out": "Ann"},
    {"end": "Ann"},
    "a deal",
])
def test_more_refusals_are_messages_said_whole(deal):
    with pytest.raises(InputError) as caught:
        score({"game": "rummy-royal", "players": list(PLAYERS), "options": {}, "rounds": [deal]})
    problems = [p.message for p in caught.value.problems if not SHARED_PROBLEMS.match(p.message)]
    assert problems
    assert {line: said_whole(line) for line in problems if said_whole(line)} == {}


@pytest.mark.parametrize("options", [{"chips": 0}, {"dealer_antes": 0}, {"sequence": "1-2-3"}, {"poker": "yes"},
                                     {"colour": "red"}])
def test_bad_options_are_refused_in_messages(options):
    with pytest.raises(InputError) as caught:
        score({"game": "rummy-royal", "players": list(PLAYERS), "options": options, "rounds": []})
    assert [said_whole(p.message) for p in caught.value.problems] == [[]]


FIVE, OTHER_FIVE = ["AS", "KS", "QS", "JS", "10S"], ["2S", "3S", "4S", "5S", "6S"]


@pytest.mark.parametrize("body", [{"hands": {"Ann": ["AS"]}}, {"hands": {"Ann": FIVE, "ann": OTHER_FIVE}},
                                  {"hands": {"": FIVE, "Ben": OTHER_FIVE}}])
def test_a_bad_poker_question_is_refused_in_messages(body):
    with pytest.raises(InputError) as caught:
        poker(body)
    problems = [p.message for p in caught.value.problems if not SHARED_PROBLEMS.match(p.message)]
    assert {line: said_whole(line) for line in problems if said_whole(line)} == {}


# ---------------------------------------------------------------------------------------
# The game's parts of its pages, in the pseudo-language


def _table(app):
    client = app.test_client()
    defaults = {"opt-chips": "100", "opt-sequence": "8-9-10", "opt-poker": "yes", "opt-dealer_antes": "1"}
    table, key = entry_forms.new_table(client, "rummy-royal", PLAYERS, defaults)
    deals = [dict(dealer="Ann", pay_10H="Ann", pay_QH="Cat", pay_KH="Cat", pay_AH="Ben", marriage="Cat",
                  sequence="Dan", p0_bet="2", p1_bet="2", p2_bet="1", p2_fold="y", winners="Ann", out="Ben",
                  p0_left="3", p2_left="5", p3_left="0"),
             dict(p0_bet="1", p1_bet="1", p2_bet="1", p3_bet="1", p0_cards="9S 9C 4D 4C 2S",
                  p1_cards="9d 9h 4s 4h 7c", p2_cards="AS KS QD JC 3D", p3_cards="2H 3H 5D 8C 10S", out="Cat",
                  p0_left="1", p1_left="2", p3_left="4")]
    for deal in deals:
        response = entry_forms.post(client, table, key, **deal)
        assert response.status_code == 303, response.get_data(as_text=True)
    return client, table, key


def test_the_deal_form_its_problems_and_the_board_are_translated(speaking_app):
    client, table, key = _table(speaking_app)
    pseudo = pseudo_client(speaking_app)
    form = pseudo.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    assert untranslated_in(between(form, '<p class="hint">', '<details class="end card"')) == []
    refused = pseudo.post(f"{table}/hands?key={key}", data={
        "base_version": entry_forms.version(client, table, key), "p0_bet": "900", "p1_fold": "y", "winners": "Ben",
        "p2_left": "99"})
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert untranslated_in(between(page, '<p class="hint">', '<details class="end card"')) == []
    assert untranslated_in(every(page, r'<p class="error"[^>]*>(.*?)</p>')) == []
    board = pseudo.get(f"{table}/board").get_data(as_text=True)
    mine = between(board, '<div class="rr-board"', '<p class="conservation"') + between(
        board, '<p class="conservation"', "</p>")
    assert untranslated_in(mine) == []
    assert untranslated_in(every(board, r"<h3>(.*?)</h3>")) == []
    assert untranslated_in(every(board, r"<li>(.*?)</li>")) == []


def test_the_poker_referee_is_translated(speaking_app):
    pseudo = pseudo_client(speaking_app)
    for page in (pseudo.get("/referee/rummy-royal/poker"),
                 pseudo.post("/referee/rummy-royal/poker", data={
                     "name1": "Ann", "cards1": "KH KD QS QC 7H", "name2": "Ben", "cards2": "KS KC QH QD 9S"}),
                 pseudo.post("/referee/rummy-royal/poker", data={"name1": "Ann", "cards1": "KH KD"})):
        html = page.get_data(as_text=True)
        mine = (between(html, '<p class="hint">', "</p>") + every(html, r'<section class="verdict.*?</section>')
                + every(html, r'<p class="footnote">.*?</p>') + every(html, r'<p class="error"[^>]*>.*?</p>')
                + every(html, r"<summary>.*?</summary>") + every(html, r'<input[^>]*class="poker-name"[^>]*>'))
        assert untranslated_in(mine) == []
        assert messages.pseudo("Who wins?") in html


def test_the_sheets_own_words_are_translated(speaking_app):
    client, table, _ = _table(speaking_app)
    game = entry_forms.scored_game(client, table)
    rounds = entry_forms.exported(client, table)["rounds"]
    with messages.speaking(messages.PSEUDO):
        filled = sheets.html_for_filled(game, "Friday", None, game.options, None, "a4", rounds=rounds)
        blank = sheets.html_for_blank("rummy-royal", list(PLAYERS), "a4")
    mine = (every(filled, r'<th[^>]*class="what"[^>]*>.*?</th>') + every(filled, r'<td class="info"[^>]*>.*?</td>')
            + between(filled, f"<h2>{messages.pseudo('Chips')}</h2>", "</p>")
            + between(filled, '<section class="board-box">', "</section>"))
    assert untranslated_in(mine) == []
    form = between(blank, '<table class="form rr-tally">', "</table>") + every(blank, r"<p><b>.*?</p>")
    assert untranslated_in(form) == []


# ---------------------------------------------------------------------------------------
# French and Hindi, word for word


def test_poker_hands_as_french_players_name_them():
    hands = {"Ann": ["KH", "KD", "QS", "QC", "7H"], "Ben": ["KS", "KC", "QH", "QD", "9S"]}
    winners, lines = judge.judge(hands)
    assert winners == ["Ben"]
    assert render(lines[-1], "fr") == ("Ben gagne\u00a0: tous deux une double paire (Rois et Dames)\u00a0; kicker de "
                                       "Ben (9) bat Ann (7) (RM-9)")
    assert render(lines[-1], "hi") == ("Ben जीतते हैं: दोनों के पास टू पेयर, बादशाह और बेगम; Ben का किकर 9, Ann के 7 को "
                                       "हराता है (RM-9)")
    words = {cards: render(judge.best_five(cards.split()).words, "fr") for cards in (
        "AS KS QS JS 10S", "9H 9S 9D 4C 4H", "AH 2S 3D 4C 5H", "7C 7D 7H 7S 2C", "AS AD 5H 8C KD")}
    assert words == {"AS KS QS JS 10S": "une quinte flush hauteur As",
                     "9H 9S 9D 4C 4H": "un full aux 9 par les 4",
                     "AH 2S 3D 4C 5H": "une quinte hauteur 5 (la roue\u00a0: l’As joue en bas)",
                     "7C 7D 7H 7S 2C": "un carré (7), kicker 2",
                     "AS AD 5H 8C KD": "une paire (As), kickers K 8 5"}


def test_a_deal_is_said_in_french_and_hindi_with_numbers_as_each_writes_them():
    game = score({"game": "rummy-royal", "players": ["Ann", "Ben"], "options": {"chips": 5000, "poker": False},
                  "rounds": [{"dealer": "Ann", "pay_cards": {"AH": "Ben"}, "out": "Ann", "cards_left": {"Ben": 3}}]})
    ann = game.rounds[0].explain["Ann"]
    assert render(ann[0], "fr") == "Ann mise 1 jeton sur chacune des 8 cases, comme donneur\u00a0: 8 jetons (RM-3)"
    assert render(ann[-1], "fr") == "Donne −3\u00a0; Ann a maintenant 4\u202f997 jetons (RM-7)"
    assert render(ann[-1], "hi") == "डील −3; अब Ann के पास 4,997 चिप्स हैं (RM-7)"
    assert ann[-1] == "Deal −3; Ann now has 4997 chips (RM-7)"


@pytest.mark.parametrize("code", ["fr", "hi"])
def test_the_sheets_print_on_as_many_pages_as_in_english(speaking_app, code):
    pdf_checks.needs_poppler()
    client, table, _ = _table(speaking_app)
    english = client.get(f"{table}/sheet.pdf")
    other = speaking_app.test_client()
    other.set_cookie(language.COOKIE, code)
    translated = other.get(f"{table}/sheet.pdf")
    assert english.status_code == translated.status_code == 200
    assert pdf_checks.page_count(translated.data) == pdf_checks.page_count(english.data)
    packed = "".join(" ".join(pdf_checks.page_texts(translated.data)).split())
    assert ("jetons(RM-7)" if code == "fr" else "पॉट") in packed
    blank_en = client.get("/sheets/blank/rummy-royal.pdf?players=Ann,Ben,Cat,Dan")
    blank = other.get("/sheets/blank/rummy-royal.pdf?players=Ann,Ben,Cat,Dan")
    assert pdf_checks.page_count(blank.data) == pdf_checks.page_count(blank_en.data)
