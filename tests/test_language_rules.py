"""French and Hindi as a careful editor writes them, over every game's case-book whys and problems and
over a table of each game's pages: French elides *de*, *que*, *le*… before a vowel, puts a no-break
space before its colons, never joins with an English "and"; neither language writes a minus sign as a
hyphen, shows markup in a message, or uses a word its glossary (docs/glossary-fr.md, -hi.md) sets aside.
"""

from __future__ import annotations

import copy
import re
from html.parser import HTMLParser
from typing import Any

import pytest

from companion.core.messages import Text, render
from companion.games import InputError, score
from companion.web import language
from tests.casebook import load

#: Each game's case book and the key its rounds go under.
BOOKS = {"alliance-royals": ("alliance_royals.toml", "rounds"), "battle-royals": ("battle_royals.toml", "rounds"),
         "marriage-royals": ("marriage_royals.toml", "rounds"), "indian-rummy": ("indian_rummy.toml", "rounds"),
         "rally-the-king": ("rally_the_king.toml", "rounds"), "royalty": ("royalty.toml", "rounds"),
         "rummathon-royale": ("rummathon_royale.toml", "hands"), "rummy-royal": ("rummy_royal.toml", "deals")}
SEATS = {"alliance-royals": ["Ann", "Ben", "Cat", "Dan"], "battle-royals": ["Ann", "Ben"],
         "marriage-royals": ["Ann", "Ben", "Cat"]}
ROYALS = ("alliance-royals", "battle-royals", "marriage-royals")

VOWEL = "aeiouàâäéèêëîïôöùûüœAEIOUÀÂÄÉÈÊËÎÏÔÖÙÛÜŒ"
#: French elides these before a vowel: « d’Ann », « qu’un », « l’As ».
UNELIDED = re.compile(rf"(?<![\w’'-])(de|que|le|la|ne|se|jusque|lorsque|puisque) [{VOWEL}]", re.IGNORECASE)
#: « de le tour » is « du tour ».
UNCONTRACTED = re.compile(r"(?<![\w’'-])(de|à) (le|les) ", re.IGNORECASE)
ENGLISH_JOINER = re.compile(r" (and|or) ")
MARKUP = re.compile(r"&#?\w+;|</?[a-zA-Z][^<>]*>")
#: French puts a no-break space (U+00A0, or the narrow U+202F) before : ; ! ?; a time (20:15) or an address
#: (https:) is no punctuation.
BARE_PUNCTUATION = re.compile(r"(?<![\u00a0\u202f\d])(:(?!//)|[;!?](?=\s|$|\)))|(?<=\d)[;!?](?=\s|$)|(?<=\d):(?!\d)")
#: A hyphen-minus written as a minus sign: "-333", "(−20" is right, "2-10" and "AR-4" are not signs.
HYPHEN_MINUS = re.compile(r"(?<![\w\-–.])(?<!comme )(?<!जैसे )-\d")  # "comme -7": what to type
#: What each glossary sets aside, in every game or in some.
BANNED_FR = [(re.compile(r"(?<![Qq]ui )(?<!quelqu’un )(?<!quelqu'un )(?<!monde )(?<![’'])\b(est|s’est|s'est) "
                         r"(sorti|couché|éliminé|revenu|arrivé|parti)e?s?\b"),
              "a player's gender guessed"),
             (re.compile(r"\bcontre (lui|elle)\b"), "a player's gender guessed")]
BANNED_FR_ROYALS = [(re.compile(r"\b[Dd]onnes?\b"), "a Royals game's Hand is « Main », its round « manche »"),
                    (re.compile(r"\b[Rr]ondes?\b"), "a Royals game's round is « manche »")]
BANNED_HI = [(re.compile("नेव"), "the Knave is ग़ुलाम"),
             (re.compile("बूट"), "the ante is एंटी"),
             (re.compile(r"(?<!\S)अंक(?=[\s,।)]|$)"), "points are पॉइंट"), (re.compile("फिर फिर"), "फिर से, once"),
             (re.compile(r"(?<!\()\b(Ann|Ben|Cat|Dan|Eve)\b(?! और)(?!\))[^;:।,()]*?"
                         r"(रख|ले|दे|बाँट|कर|पा|जीत|हार)ता (है|था)"), "a player in the respectful plural")]


#: Rummathon Royale's rule-card round is राउंड (docs/glossary-hi.md), never चरण (Rummy Royal's poker stage is).
BANNED_HI_RUMMATHON = [(re.compile("चरण"), "Rummathon Royale's round is राउंड")]


def problems(text: str, code: str, game: str = "") -> list[str]:
    """What ``text``, said in ``code``, does against the language's rules."""
    found = []
    if MARKUP.search(text):
        found.append("markup")
    if ENGLISH_JOINER.search(text):
        found.append("an English joiner")
    if HYPHEN_MINUS.search(text):
        found.append("a hyphen for a minus")
    if code == "fr":
        found += [f"unelided {m.group(0)!r}" for m in UNELIDED.finditer(text)]
        found += [f"uncontracted {m.group(0)!r}" for m in UNCONTRACTED.finditer(text)]
        found += [f"no no-break space before {m.group(0)!r}" for m in BARE_PUNCTUATION.finditer(text)]
        banned = BANNED_FR + (BANNED_FR_ROYALS if game in ROYALS else [])
    else:
        banned = BANNED_HI + (BANNED_HI_RUMMATHON if game == "rummathon-royale" else [])
    found += [why for pattern, why in banned if pattern.search(text)]
    return found


def test_the_checks_catch_what_an_editor_would():
    assert problems("Tour de Ann\u00a0: 0", "fr") == ["unelided 'de A'"]
    assert problems("Modification de le tour 3", "fr") == ["uncontracted 'de le '"]
    assert problems("Ann and Ben ont gagné", "fr") == ["an English joiner"]
    assert problems("Score\u00a0: -333", "fr") == ["a hyphen for a minus"]
    assert problems("Gagnants : Ann", "fr") == ["no no-break space before ':'"]
    assert problems("n’a que 1 2S ; 2 saisis (Donne de Ben)", "fr", "battle-royals") == [
        "no no-break space before ';'", "a Royals game's Hand is « Main », its round « manche »"]
    assert problems("Ann est sorti", "fr") == ["a player's gender guessed"]
    assert problems("Qui est sorti\u00a0?", "fr") == []
    assert problems("<b>Score</b>", "hi") == ["markup"]
    assert problems("Ann पॉट रखता है", "hi") == ["a player in the respectful plural"]
    assert problems("Ann ने चरण 2 पूरा किया", "hi", "rummathon-royale") == ["Rummathon Royale's round is राउंड"]
    assert problems("पोकर चरण", "hi", "rummy-royal") == []
    assert problems("Tour d’Ann\u00a0: −333 (AR-4, 2-10, 20:15)", "fr") == []


def _said(game: str) -> list[Text]:
    """Every why line, end and problem the game's case book makes."""
    book, key = BOOKS[game]
    said: list[Text] = []
    for case in load(book)["case"]:
        request = {"game": game, "players": case.get("players", SEATS.get(game)), "options": case.get("options", {}),
                   "rounds": copy.deepcopy(case.get(key, [])),
                   **({"joined": case["joined"]} if "joined" in case else {})}
        try:
            scored = score(request)
        except InputError as refused:
            said += [p.message for p in refused.problems if isinstance(p.message, Text)]
            continue
        said += [line for r in scored.rounds for lines in r.explain.values() for line in lines]
        said += [scored.reason] if scored.reason is not None else []
    return said


@pytest.mark.parametrize("code", ["fr", "hi"])
@pytest.mark.parametrize("game", list(BOOKS))
def test_every_case_book_why_and_problem_reads_as_the_language_writes(game, code):
    said = _said(game)
    assert len(said) > 20
    wrong = {}
    for text in {render(line, code) for line in said}:
        if found := problems(text, code, game):
            wrong[text] = found
    assert wrong == {}, "\n".join(map(repr, wrong.items()))


def test_a_shared_win_lists_its_winners_as_each_language_does():
    """Three of four players share the highest score: a shared win, not a draw, its names listed as the
    language lists them, its verbs agreeing with them (or needing no agreement)."""
    from companion.games import rummathon_royale

    four = ["Ann", "Ben", "Cat", "Dan"]
    winners, reason = rummathon_royale._decide(four, {"Ann": 30, "Ben": 30, "Cat": 30, "Dan": 5},
                                               {"Ann": 6, "Ben": 6, "Cat": 6, "Dan": 2}, four[:3], 4)
    assert winners == ("Ann", "Ben", "Cat")
    assert str(reason) == ("Ann, Ben and Cat completed the last round in hand 4; Ann, Ben and Cat share the highest "
                           "score, 30 (a shared win) (RR-6).")
    assert render(reason, "fr") == ("Dernière manche réussie par Ann, Ben et Cat à la donne 4\u00a0; "
                                    "Ann, Ben et Cat ont le meilleur score à égalité, 30 (victoire partagée) (RR-6).")
    assert render(reason, "hi").startswith("Ann, Ben और Cat ने ")
    two = ["Ann", "Ben"]
    _, everyone = rummathon_royale._decide(two, {"Ann": 30, "Ben": 30}, {"Ann": 6, "Ben": 6}, two, 4)
    assert str(everyone).endswith("Ann and Ben share the highest score, 30: a draw (RR-6).")
    assert render(everyone, "fr").endswith("Ann et Ben ont le meilleur score à égalité, 30\u00a0: match nul "
                                           "(RR-6).")


# ---------------------------------------------------------------------------------------
# The pages


class _Words(HTMLParser):
    """A page's words as a reader meets them: its text, its fields' values and what it says to a screen
    reader, outside scripts and styles; apart, what a field holds as typed (``typed``) and the words the
    chart draws (``drawn``)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.words, self.typed, self.drawn, self._hidden, self._drawing = [], [], [], 0, 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self._hidden += 1
        self._drawing += tag == "svg"  # the chart is the sheets' drawing
        attrs = dict(attrs)
        for key in ("title", "aria-label", "placeholder", "alt"):
            if attrs.get(key):
                (self.drawn if self._drawing else self.words).append(attrs[key])
        if tag == "input" and attrs.get("type") in (None, "text", "number") and attrs.get("value"):
            self.typed.append(attrs["value"])

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template"):
            self._hidden -= 1
        self._drawing -= tag == "svg"

    def handle_data(self, data):
        if not self._hidden and data.strip() and not data.strip().startswith("{"):  # a round's JSON is data
            said = re.sub(r"[ \t\r\n]+", " ", data.strip(" \t\r\n"))
            (self.drawn if self._drawing else self.words).append(said)


def page_words(html: str) -> list[str]:
    """The words a page says, with what its text fields hold (typed or put back)."""
    parser = _Words()
    parser.feed(html)
    return parser.words + [value for value in parser.typed if not value.lstrip("-").isdigit()]


#: A number of four digits or more written without the grouping French and Hindi write (1 066, 1,066);
#: what is no number is left: a time (20:15), a year after its month, a history's moment (2026-12-07 16:07:48
#: UTC, as every language reads it), a ruling id, a table's address.
UNGROUPED = re.compile(r"(?<![\w\u202f\u00a0,.:/#-])\d{4,}(?![\w:/])")
_YEAR = re.compile(r"(?<=\w )(19|20|21)\d\d\b|\b\d{4}-\d\d-\d\d\b")


def number_problems(text: str) -> list[str]:
    """What ``text``, said in French or Hindi, does against the language's one way of writing numbers."""
    found = [f"ungrouped {m.group(0)!r}" for m in UNGROUPED.finditer(_YEAR.sub("", text))]
    if HYPHEN_MINUS.search(text):
        found.append("a hyphen for a minus")
    return found


def shown_numbers(html: str) -> list[str]:
    """Every piece of a page (or a sheet) that shows numbers to read, the chart's included, the fields'
    values (what a player types back, plain digits) apart."""
    parser = _Words()
    parser.feed(html)
    return parser.words + parser.drawn


def test_the_number_checks_catch_what_an_editor_would():
    assert number_problems("1067 pour dépasser 1\u202f066") == ["ungrouped '1067'"]
    assert number_problems("−333 · -333") == ["a hyphen for a minus"]
    assert number_problems("1\u202f067 pour dépasser 1\u202f066 · 335 pour passer sous −333") == []
    assert number_problems("1,067 · 1,00,000 · 20:15 · 7 décembre 2026 · AR-1066 · /t/1234") == []
    assert number_problems("2026-12-07 16:07:48 UTC") == []
    assert number_problems("Total 12345") == ["ungrouped '12345'"]
    words = _Words()
    words.feed('<p>−12</p><input type="number" value="-12"><svg><text>1066</text></svg>')
    assert (words.words, words.typed, words.drawn) == (["−12"], ["-12"], ["1066"])


def first_played(game: str) -> dict[str, Any]:
    """The first case of the game's book that plays three rounds or more with no late player."""
    book, key = BOOKS[game]
    for case in load(book)["case"]:
        if "error_where" not in case and "joined" not in case and len(case.get(key, [])) >= 2:
            return {"players": case.get("players", SEATS.get(game)), "options": case.get("options", {}),
                    "rounds": case[key]}
    raise AssertionError(game)


def _table(client, game: str, rounds: int | None = None) -> tuple[str, str]:
    """A table of the game playing its first case's rounds (the first ``rounds`` of them)."""
    played = first_played(game)
    made = client.post("/api/v1/tables", json={"game": game, "players": played["players"],
                                               "options": played["options"]}).get_json()
    auth = {"Authorization": f"Bearer {made['edit_key']}"}
    version = made["version"]
    for rnd in played["rounds"][:rounds]:
        answer = client.post(f"/api/v1/tables/{made['id']}/rounds", json={"round": rnd, "base_version": version},
                             headers=auth)
        assert answer.status_code == 201, answer.get_json()
        version = answer.get_json()["version"]
    return f"/t/{made['id']}", made["edit_key"]


@pytest.mark.parametrize("game", list(BOOKS))
def test_each_game_s_pages_read_as_the_language_writes(speaking_app, game):
    client = speaking_app.test_client()
    table, key = _table(client, game)
    begun, begun_key = _table(client, game, 1)  # a game under way: its distances to the end, its bounds
    paths = [f"/new/{game}", f"{table}?key={key}", f"{table}/board", f"{table}/history?key={key}",
             f"{table}/hands/1/why", f"{table}/hands/2/why", f"{table}/hands/new?key={key}",
             f"{begun}?key={begun_key}", f"{begun}/board"]
    wrong = {}
    for code in ("fr", "hi"):
        client.set_cookie(language.COOKIE, code)
        for path in paths:
            page = client.get(path, follow_redirects=True)
            assert page.status_code == 200, path
            html = page.get_data(as_text=True)
            for words in page_words(html):
                if found := problems(words, code, game):
                    wrong[(code, path.split("?")[0].replace(table, ""), words[:160])] = found
            for words in shown_numbers(html):
                if found := number_problems(words):
                    wrong[(code, path.split("?")[0].replace(table, "").replace(begun, "begun"), words[:160])] = found
    assert wrong == {}, "\n".join(map(repr, wrong.items()))


@pytest.mark.parametrize("code", ["fr", "hi"])
@pytest.mark.parametrize("game", list(BOOKS))
def test_each_game_s_sheet_writes_its_numbers_one_way(game, code):
    """The filled sheet, its chart and its legend: every number grouped and signed as the language writes it."""
    from companion.core.messages import speaking
    from companion.paper import sheets

    played = first_played(game)
    scored = score({"game": game, **copy.deepcopy(played)})
    with speaking(code):
        html = sheets.html_for_filled(scored, "Soirée", "2026-03-07", options=played["options"],
                                      rounds=played["rounds"])
    wrong = {words[:160]: found for words in shown_numbers(html) if (found := number_problems(words))}
    assert wrong == {}, "\n".join(map(repr, wrong.items()))


#: The pack's House names as each language says them (the .po files' Spades, Hearts, Diamonds, Clubs).
PACK_HOUSES = {"en": ["Spades", "Hearts", "Diamonds", "Clubs"], "fr": ["Pique", "Cœur", "Carreau", "Trèfle"],
               "hi": ["हुकुम", "पान", "ईंट", "चिड़ी"]}


@pytest.mark.parametrize("game", ROYALS)
def test_the_new_table_form_names_the_houses_in_the_reader_s_language(speaking_app, game):
    """The House names come filled in the reader's words; a table made as shown keeps the pack's own names,
    said in each reader's language, and a name typed over one is the table's own."""
    from tests.entry_forms import exported

    client = speaking_app.test_client()
    seats = {f"seat{i}": p for i, p in enumerate(SEATS[game], 1)}
    for code, names in PACK_HOUSES.items():
        client.set_cookie(language.COOKIE, code)
        form = client.get(f"/new/{game}").get_data(as_text=True)
        shown = [re.search(rf'name="opt-house_{suit}"[^>]*value="([^"]*)"', form).group(1) for suit in "SHDC"]
        assert shown == names
    client.set_cookie(language.COOKIE, "fr")
    fields = {**seats, "opt-win_above": "1066", "opt-lose_below": "-333", "opt-share": "positive",
              **{f"opt-house_{suit}": name for suit, name in zip("SHDC", PACK_HOUSES["fr"], strict=True)}}
    made = client.post(f"/new/{game}", data=fields)
    assert made.status_code == 303, made.get_data(as_text=True)
    table, key = made.headers["Location"].split("?key=")
    assert "house_names" not in exported(client, table)["options"]  # the pack's own, not French words kept
    entry = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    assert all(name in entry for name in PACK_HOUSES["fr"])
    client.set_cookie(language.COOKIE, "en")
    assert "Spades" in client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    client.set_cookie(language.COOKIE, "fr")
    typed = client.post(f"/new/{game}", data={**fields, "opt-house_S": "Chiens"})
    table, _ = typed.headers["Location"].split("?key=")
    assert exported(client, table)["options"]["house_names"] == {"S": "Chiens", "H": "Hearts", "D": "Diamonds",
                                                                  "C": "Clubs"}


def test_a_rummathon_edit_names_its_cards_left_in_the_reader_s_language(speaking_app):
    """The history of an edit names each class of the cards left as the entry form does, in the reader's words."""
    client = speaking_app.test_client()
    made = client.post("/api/v1/tables", json={"game": "rummathon-royale", "players": ["Ann", "Ben"]}).get_json()
    auth = {"Authorization": f"Bearer {made['edit_key']}"}
    rounds = f"/api/v1/tables/{made['id']}/rounds"
    first = client.post(rounds, json={"round": {"out": "Ann", "left": {"Ben": {"low": 3, "high": 1}}},
                                      "base_version": 0}, headers=auth).get_json()
    edited = client.put(f"{rounds}/1", json={"round": {"out": "Ann", "left": {"Ben": {"low": 2, "high": 2}}},
                                             "base_version": first["version"]}, headers=auth)
    assert edited.status_code == 200, edited.get_json()
    said = {}
    for code in ("en", "fr", "hi"):
        client.set_cookie(language.COOKIE, code)
        page = client.get(f"/t/{made['id']}/history?key={made['edit_key']}").get_data(as_text=True)
        said[code] = next(words for words in page_words(page) if "→" in words)
    assert said["en"] == "Hand 1 edited: Ben · cards left, 1–9: 3 → 2; Ben · cards left, 10–12: 1 → 2"
    assert said["fr"] == ("Donne 1 modifiée\u00a0: Ben · cartes restées en main, 1 à 9\u00a0: 3 → 2\u00a0; "
                          "Ben · cartes restées en main, 10 à 12\u00a0: 1 → 2")
    assert said["hi"] == ("बाज़ी 1 बदली गई: Ben · हाथ में बचे पत्ते, 1 से 9: 3 → 2; "
                          "Ben · हाथ में बचे पत्ते, 10 से 12: 1 → 2")


def test_the_hindi_catalog_calls_rummathon_royale_s_round_as_its_glossary_does():
    """Every Hindi message of Rummathon Royale (said by its modules or citing its rulings) says राउंड for a
    round of the rule card, as docs/glossary-hi.md has it, and never चरण."""
    from babel.messages.pofile import read_po

    from companion.core.messages import TRANSLATIONS

    with (TRANSLATIONS / "hi" / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po)
    said = []
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        places = " ".join(path for path, _ in message.locations)
        if message.id and ("rummathon" in places or any("RR-" in i for i in ids)):
            said.append((ids[0], " ".join(message.string if isinstance(message.string, tuple) else (message.string,))))
    rounds = [(id_, words) for id_, words in said if re.search(r"\bround\b", id_, re.IGNORECASE)]
    assert len(rounds) > 30
    assert [id_ for id_, words in said if "चरण" in words] == []
    assert [id_ for id_, words in rounds if "राउंड" not in words and "{round}" not in id_] == []
    glossary = (TRANSLATIONS.parent.parent / "docs" / "glossary-hi.md").read_text(encoding="utf-8")
    rule_card = next(line for line in glossary.splitlines() if "Rummathon Royale's rule card" in line)
    assert rule_card.split("|")[2].strip().startswith("राउंड")
