"""The tournament director's, the clubs', the sheets', the command line's and the API's words in the reader's
language: in the pseudo-language no word escapes translation, a few French and Hindi lines read as written,
French and Hindi sheets and packs print on as many pages as English, and the API answers in the language
asked with the why as data beside its words (docs/api.md, Languages)."""

from __future__ import annotations

import calendar
import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion import cli, games
from companion.core import messages
from companion.paper import sheets
from companion.tournaments import packs
from companion.web import language
from tests import pdf_checks
from tests.test_translations import pseudo_client, untranslated

pytestmark = pytest.mark.one_database  # the words on the pages: the same on either database

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "api.md"
EIGHT = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
#: A whole Rally the King game of four hands: a four-round sheet, which must stay on one page.
RALLY = {"game": "rally-the-king", "players": ["Ann", "Ben", "Cat", "Dan"], "rounds": [
    {"dealer": "Ann", "bid": "solo", "declarer": "Ben", "declarer_points": 64},
    {"dealer": "Ben", "bid": "solo", "declarer": "Cat", "declarer_points": 40},
    {"dealer": "Cat", "bid": "solo", "declarer": "Dan", "declarer_points": 71},
    {"dealer": "Dan", "bid": "solo", "declarer": "Ann", "declarer_points": 58}]}
POOL = {"game": "indian-rummy", "players": ["Ann", "Ben", "Cat"], "options": {"variant": "pool101"}, "rounds": [
    {"winner": "Ann", "hands": {"Ben": {"count": 30}, "Cat": {"count": 60}}},
    {"winner": "Ben", "hands": {"Ann": {"count": 20}, "Cat": {"count": 25}}},
    {"winner": "Cat", "hands": {"Ann": {"count": 10}, "Ben": {"count": 12}}},
    {"winner": "Ann", "hands": {"Ben": {"count": 5}, "Cat": {"count": 2}}}]}



def tournament(client, game="rally-the-king", entrants=EIGHT, rounds="3") -> tuple[str, str]:
    response = client.post("/tournaments/new", data={"title": "Friday club", "game": game, "rounds": rounds,
                                                     "entrants": "\n".join(entrants), "method": "round-robin"})
    assert response.status_code == 303, response.get_data(as_text=True)
    return tuple(response.headers["Location"].split("?key="))


def seated(client, tour, key, round_number=1) -> list[tuple[str, str]]:
    assert client.post(f"{tour}/rounds?key={key}", data={"round": str(round_number)}).status_code == 303
    page = client.get(f"{tour}?key={key}").get_data(as_text=True)
    return re.findall(r'href="(/t/[\w-]+)\?key=([\w-]+)"', page)


def play_a_hand(client, table, key):
    """A Solo of 64 by the table's first player (RK-3): a hand entered at the table."""
    form = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    first = re.findall(r'<option (?:selected )?value="([^"]+)">\1</option>', form)[0]
    saved = client.post(f"{table}/hands?key={key}", data={"base_version": "0", "dealer": first, "bid": "solo",
                                                         "declarer": first, "declarer_points": "64"})
    assert saved.status_code == 303
    client.get(saved.headers["Location"])  # the table's own page says it was saved (the table's words, not these)


#: A date in the pseudo-language is written as English writes it (a date is no message).
MONTHS = [calendar.month_name[n] for n in range(1, 13)]


def words_outside_marks(text: str, kept=()) -> list[str]:
    """The words of a printed text outside the pseudo-language's marks, but names and words kept as printed."""
    while (unmarked := re.sub(r"⟦[^⟦⟧]*⟧", " ", text)) != text:
        text = unmarked
    for word in sorted({*kept, *MONTHS, "Courtier", *(w for e in games.ENGINES.values() for w in e.TITLE.split())},
                       key=len, reverse=True):
        text = text.replace(word, " ")
    return re.findall(r"[^\W\d_]{2,}", text)


#: What the director's and the clubs' pages show as it was typed: the tournament's and the club's names, the
#: players', the season's.
TYPED = {*EIGHT, "Friday", "club", "Thursday", "Club", "Spring"}


def left(html: str) -> list[str]:
    """The words of a page in the pseudo-language outside its marks, but what was typed (names). A message said
    inside another (a round's name in a sentence) is marked inside its marks: the innermost go first."""
    while (unmarked := re.sub(r"⟦[^⟦⟧]*⟧", " ", html)) != html:
        html = unmarked
    return [word for word in untranslated(html) if word not in TYPED]


def as_page(html: str) -> str:
    """A sheet's HTML as a page of the pseudo-language reads it (its language as the test's helpers look for it)."""
    assert '<html lang="qps">' in html
    return html


# ---------------------------------------------------------------------------------------------
# The pseudo-language: no word escapes translation


def test_the_directors_pages_leave_no_word_left(speaking_app):
    client = pseudo_client(speaking_app)
    tour, key = tournament(client)
    links = seated(client, tour, key)
    play_a_hand(client, *links[0])
    director = client.get(f"{tour}?key={key}")
    assert director.status_code == 200
    assert left(director.get_data(as_text=True)) == []
    assert client.post(f"{tour}/rounds/1/call?key={key}").status_code == 303
    after_time = client.get(f"{tour}?key={key}").get_data(as_text=True)
    assert messages.pseudo("Time called.") in after_time
    assert left(after_time) == []
    for path in (tour, f"{tour}/board", f"{tour}/rounds/1/pack?key={key}"):
        page = client.get(path).get_data(as_text=True)
        if "<html" not in page:  # the board and the pack's state are parts of a page
            page = f'<html lang="qps">{page}</html>'
        assert left(page) == [], path
    adjust = re.search(r'href="([^"]+/adjust\?key=[^"]+)"', after_time).group(1).replace("&amp;", "&")
    form = client.get(adjust).get_data(as_text=True)
    assert left(form) == []
    refused = client.post(adjust, data={"total0": "x", "reason": ""}).get_data(as_text=True)
    assert messages.pseudo("Give a whole number of points, like 42 or -7.") in refused
    assert left(refused) == []


def test_a_directors_flashes_and_refusals_are_translated(speaking_app):
    client = pseudo_client(speaking_app)
    tour, key = tournament(client)
    seated(client, tour, key)
    again = client.post(f"{tour}/rounds?key={key}", data={"round": "1"}, follow_redirects=True)
    assert messages.pseudo("Round {number} is seated already; nothing changed.").replace("{number}", "1") in \
        again.get_data(as_text=True)
    assert left(again.get_data(as_text=True)) == []
    stale = client.post(f"{tour}/rounds?key={key}", data={})
    assert stale.status_code == 422 and left(stale.get_data(as_text=True)) == []
    wrong = client.get(f"{tour}/rounds/9/pack?key={key}")
    assert wrong.status_code == 404 and messages.pseudo("That round is not seated yet.") in wrong.get_data(as_text=True)
    too_few = client.post("/tournaments/new", data={"title": "Two", "game": "rally-the-king", "rounds": "1",
                                                    "entrants": "Ann\nBen", "method": "round-robin"})
    assert too_few.status_code == 422 and left(too_few.get_data(as_text=True)) == []


def test_the_club_pages_leave_no_word_left(speaking_app):
    client = pseudo_client(speaking_app)
    made = client.post("/clubs/new", data={"name": "Thursday Club"})
    director = made.headers["Location"]
    club_id, key = re.search(r"/clubs/([\w-]+)\?key=([\w-]+)", director).groups()
    page = client.get(director).get_data(as_text=True)
    assert left(page) == []
    started = client.post("/api/v1/tables", json={"game": "indian-rummy", "players": ["Ann", "Ben", "Cat"],
                                                  "options": {"variant": "deals", "deals": 1}, "club": club_id},
                          headers={"Authorization": f"Bearer {key}"}).get_json()
    done = client.post(f"/api/v1/tables/{started['id']}/rounds",
                       json={"round": {"winner": "Ann", "hands": {"Ben": {"count": 30}, "Cat": {"count": 12}}},
                             "base_version": 0}, headers={"Authorization": f"Bearer {started['edit_key']}"})
    assert done.status_code == 201 and done.get_json()["scored"]["over"]
    client.post(f"/clubs/{club_id}/seasons?key={key}", data={"season_name": "Spring", "season_from": "2020-01-01",
                                                             "season_to": "2999-12-31"})
    with_games = client.get(director).get_data(as_text=True)
    assert 'class="card leaderboard"' in with_games and left(with_games) == []
    player = re.search(r'href="(/clubs/[\w-]+/players/\d+\?key=[^"]+)"', with_games).group(1).replace("&amp;", "&")
    assert left(client.get(player).get_data(as_text=True)) == []
    refused = client.post(f"/clubs/{club_id}/tables?key={key}", data={"link": "https://example.com/nothing"})
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422 and left(html) == []
    assert left(client.get("/clubs/import").get_data(as_text=True)) == []
    bad = client.post("/clubs/import", data={"file": (io.BytesIO(b"{"), "club.json")},
                      content_type="multipart/form-data")
    assert bad.status_code == 422 and left(bad.get_data(as_text=True)) == []


def test_the_printed_standings_leave_no_word_left(speaking_app):
    client = pseudo_client(speaking_app)
    tour, key = tournament(client)
    seated(client, tour, key)
    texts = pdf_checks.page_texts(client.get(f"{tour}/standings.pdf").data)
    assert words_outside_marks(" ".join(texts), kept=[*EIGHT, "Friday", "club", "UTC", "PDF"]) == []
    made = client.post("/clubs/new", data={"name": "Thursday Club"})
    texts = pdf_checks.page_texts(client.get(made.headers["Location"].replace("?", "/standings.pdf?")).data)
    assert words_outside_marks(" ".join(texts), kept=["Thursday", "Club", "UTC"]) == []


@pytest.mark.parametrize("game", ["rally-the-king", "indian-rummy", "alliance-royals", "royalty"])
def test_the_shared_sheet_parts_leave_no_word_left(game):
    """The shared parts of the sheets (head, result, options, grid, chart, standing, notes, the blank sheet's
    fill-in lines): their words are marked; what a game's own template and engine say are its own."""
    with messages.speaking(messages.PSEUDO):
        blank = as_page(sheets.html_for_blank(game, None, "A4"))
        game_words = {"rally-the-king": RALLY, "indian-rummy": POOL}.get(game)
        filled = as_page(sheets.html_for_filled(games.score(game_words), "Friday", "2026-11-27")) if game_words else ""
    for part in ("Courtier score sheet", "Scorer"):
        assert messages.pseudo(part) in blank + filled or part == "Scorer"
    if filled:
        head = filled.split('<section class="grid-box">')[0].split("</style>")[1]
        # The engine's own words are the game's (the reason the game ended, an option's value): left out here.
        head = re.sub(r'<p class="reason">.*?</p>|<span class="reason">.*?</span>|<dd>.*?</dd>', " ", head, flags=re.S)
        assert words_outside_marks(re.sub(r"<[^>]+>", " ", head), kept=[*EIGHT, "Friday", "November", "and"]) == []
        for said in ("Options and house rules", "Running totals", "Why each score"):
            assert messages.pseudo(said) in filled


def test_a_round_pack_leaves_no_word_left(speaking_app):
    client = pseudo_client(speaking_app)
    tour, key = tournament(client)
    seated(client, tour, key)
    tid = tour.rsplit("/", 1)[1]
    with messages.speaking(messages.PSEUDO):
        documents = packs.pack_documents(speaking_app, tid, 1, "http://courtier.example/")
    seating = documents[0]
    assert '<html lang="qps">' in seating
    assert words_outside_marks(re.sub(r"<[^>]+>|<style>.*?</style>", " ", seating.split("</style>")[1]),
                               kept=[*EIGHT, "Friday", "club"]) == []
    head = documents[1].split("</style>")[1].split('<table class="form"')[0]
    assert words_outside_marks(re.sub(r"<[^>]+>", " ", head.split("<svg")[0]), kept=[*EIGHT, "Friday", "club"]) == []


# ---------------------------------------------------------------------------------------------
# French and Hindi, as written


def test_french_and_hindi_lines_read_as_written(speaking_app):
    client = speaking_app.test_client()
    tour, key = tournament(client)
    client.set_cookie(language.COOKIE, "fr")
    flashed = client.post(f"{tour}/rounds?key={key}", data={"round": "1"}, follow_redirects=True)
    page = flashed.get_data(as_text=True)
    assert "Ronde 1 placée\u00a0: 2 tables." in page
    assert "8 joueurs · 0 sur 3 rondes placées" not in page and "8 joueurs · 1 sur 3 rondes placées" in page
    client.set_cookie(language.COOKIE, "hi")
    hindi = client.get(f"{tour}?key={key}").get_data(as_text=True)
    assert "राउंड 2 की सीटें तय करें…" in hindi and "अंकतालिका का लिंक" in hindi
    with messages.speaking("fr"):
        assert sheets.number(-1066) == "−1\u202f066" and sheets.format_date("2026-11-27") == "27 novembre 2026"
        assert messages.render(sheets.counted_rounds("deal", 3)) == "3 donnes"
    with messages.speaking("hi"):
        assert sheets.number(100000) == "1,00,000"
        assert messages.render(sheets.counted_rounds("hand", 2)) == "2 बाज़ियाँ"


def test_the_command_line_speaks_the_environments_language(tmp_path):
    runner = CliRunner()
    missing = str(tmp_path / "nothing.json")
    french = runner.invoke(cli.main, ["score", missing], env={"LANGUAGE": "", "LC_ALL": "", "LANG": "fr_FR.UTF-8"})
    assert french.exit_code == 2
    assert json.loads(french.output)["errors"][0]["message"] == f"aucun fichier ne s'appelle {missing}"
    hindi = runner.invoke(cli.main, ["sheet", "--blank", "snap", "-o", str(tmp_path / "x.pdf")],
                          env={"LANGUAGE": "hi:en", "LC_ALL": "", "LANG": "C.UTF-8"})
    assert json.loads(hindi.output)["errors"][0]["message"].startswith("अनजान खेल “snap”; ये खेल हैं: ")
    english = runner.invoke(cli.main, ["score", missing], env={"LANGUAGE": "", "LC_ALL": "C", "LANG": "fr_FR.UTF-8"})
    assert json.loads(english.output)["errors"][0]["message"] == f"there is no file called {missing}"
    with messages.speaking("en"):
        scored = runner.invoke(cli.main, ["score", "-"], input=json.dumps(RALLY), env={"LANG": "fr_FR.UTF-8"})
    rounds = json.loads(scored.output)["rounds"]
    assert [line["rulings"] for line in rounds[0]["why"]["Ann"]][0] == ["RK-10"]


# ---------------------------------------------------------------------------------------------
# The API: the caller's language, the why as data


def test_the_api_answers_in_the_language_asked_and_english_as_ever(speaking_app, client):
    english = client.post("/api/v1/score", json=POOL).get_json()
    asked = speaking_app.test_client()
    assert asked.post("/api/v1/score", json=POOL).get_json() == english  # no Accept-Language: English, as ever
    assert asked.post("/api/v1/score", json=POOL, headers={"Accept-Language": "de"}).get_json() == english
    for code in ("fr", "hi"):
        said = asked.post("/api/v1/score", json=POOL, headers={"Accept-Language": code}).get_json()
        assert said["totals"] == english["totals"] and said["rounds"][0]["why"] == english["rounds"][0]["why"]
    empty = asked.post("/api/v1/score", data=b"", content_type="application/json", headers={"Accept-Language": "fr"})
    assert empty.status_code == 422
    assert empty.get_json()["errors"] == [{"where": "$", "message": "le corps est vide\u00a0; envoyez un objet JSON"}]
    bad = asked.post("/api/v1/score", data=b"{", content_type="application/json", headers={"Accept-Language": "hi"})
    assert bad.get_json()["errors"][0]["message"].startswith("बॉडी सही JSON नहीं है (पंक्ति 1, कॉलम 2 पर")


def test_each_line_of_the_why_comes_as_data(client):
    answer = client.post("/api/v1/score", json=RALLY).get_json()
    for played in answer["rounds"]:
        assert list(played)[:3] == ["points", "explain", "why"]
        for player, lines in played["explain"].items():
            data = played["why"][player]
            assert len(data) == len(lines)
            for line, said in zip(lines, data, strict=True):
                assert set(said) >= {"id", "values", "rulings"}
                assert said["rulings"] == list(dict.fromkeys(re.findall(r"\b[A-Z]{2}-\d+[a-z]?\b", line)))
    spoken = messages.say_n("{name} pays {count} (IR-8)", "{name} pays {count} (IR-8)", 49, name="Ben")
    from companion.api.answers import why_line

    assert why_line(spoken) == {"id": "{name} pays {count} (IR-8)", "values": {"count": 49, "name": "Ben"},
                                "rulings": ["IR-8"]}


def test_the_tables_api_speaks_the_callers_language_and_keeps_each_languages_answer_apart(speaking_app):
    client = speaking_app.test_client()
    made = client.post("/api/v1/tables", json={"game": "indian-rummy", "players": ["Ann", "Ben", "Cat"],
                                               "options": {"variant": "pool101"}}).get_json()
    auth = {"Authorization": f"Bearer {made['edit_key']}"}
    refused = client.get(f"/api/v1/tables/{made['id']}", headers={"Accept-Language": "hi"})
    assert refused.status_code == 401 and refused.get_json()["errors"][0]["message"].startswith("इस कॉल के लिए")
    stale = client.post(f"/api/v1/tables/{made['id']}/rounds", headers={**auth, "Accept-Language": "fr"},
                        json={"round": POOL["rounds"][0], "base_version": 7})
    assert stale.status_code == 409
    assert stale.get_json()["errors"][0]["message"].startswith("la table a changé après la version 7\u00a0:")
    saved = client.post(f"/api/v1/tables/{made['id']}/rounds", headers={**auth, "Accept-Language": "hi"},
                        json={"round": POOL["rounds"][0], "base_version": 0})
    assert saved.status_code == 201 and "why" in saved.get_json()["scored"]["rounds"][0]
    english = client.get(f"/api/v1/tables/{made['id']}", headers=auth)
    french = client.get(f"/api/v1/tables/{made['id']}", headers={**auth, "Accept-Language": "fr"})
    assert english.headers["ETag"] == f'"{made["id"]}-1"' and french.headers["ETag"] == f'"{made["id"]}-1-fr"'
    again = client.get(f"/api/v1/tables/{made['id']}", headers={**auth, "Accept-Language": "fr",
                                                                 "If-None-Match": english.headers["ETag"]})
    assert again.status_code == 200  # English's tag is not the French answer's
    kept = client.get(f"/api/v1/tables/{made['id']}", headers={**auth, "Accept-Language": "fr",
                                                                "If-None-Match": french.headers["ETag"]})
    assert kept.status_code == 304
    gone = client.delete(f"/api/v1/tables/{made['id']}/rounds/9", headers={**auth, "Accept-Language": "fr"},
                         json={"base_version": 1})
    assert gone.status_code == 404
    assert gone.get_json()["errors"][0]["message"].startswith("pas de donne 9 en jeu à cette table")


def language_examples() -> list[tuple[str, dict, int, dict]]:
    """(language, request, status, answer) of docs/api.md's Languages section, in the order written."""
    text = DOCS.read_text(encoding="utf-8")
    blocks = re.findall(r"```json (request POST /api/v1/score|answer (\d+)), Accept-Language: (\w+)\n(.*?)```",
                        text, re.S)
    pairs = []
    for (kind, _, code, body), (answer, status, answer_code, said) in zip(blocks[::2], blocks[1::2], strict=True):
        assert kind.startswith("request") and answer.startswith("answer") and code == answer_code
        pairs.append((code, json.loads(body), int(status), json.loads(said)))
    return pairs


def test_the_docs_have_a_french_and_a_hindi_example():
    assert {code for code, *_ in language_examples()} == {"fr", "hi"}


@pytest.mark.parametrize("code,body,status,expected", language_examples())
def test_every_language_example_in_the_api_docs_is_exact(speaking_app, code, body, status, expected):
    answer = speaking_app.test_client().post("/api/v1/score", json=body, headers={"Accept-Language": code})
    assert answer.status_code == status
    assert answer.get_json() == expected, json.dumps(answer.get_json(), ensure_ascii=False, indent=2)


def test_the_docs_refusals_in_french_and_hindi_are_exact(speaking_app):
    text = DOCS.read_text(encoding="utf-8")
    french = re.search(r"An empty body, in French, is \*\*(\d+)\*\*\n`(.*?)`", text, re.S)
    hindi = re.search(r"a table read without its key, in Hindi, is \*\*(\d+)\*\*\n`(.*?)`", text, re.S)
    client = speaking_app.test_client()
    empty = client.post("/api/v1/score", data=b"", content_type="application/json", headers={"Accept-Language": "fr"})
    assert (empty.status_code, empty.get_json()) == (int(french[1]), json.loads(french[2]))
    unkeyed = client.get("/api/v1/tables/abc", headers={"Accept-Language": "hi"})
    assert (unkeyed.status_code, unkeyed.get_json()) == (int(hindi[1]), json.loads(hindi[2]))


# ---------------------------------------------------------------------------------------------
# Paper: the same pages in French and Hindi as in English


@pytest.mark.parametrize("game", [RALLY, POOL], ids=["rally-the-king", "indian-rummy"])
def test_a_four_round_sheet_prints_on_as_many_pages_in_french_and_hindi(game):
    scored = games.score(game)
    pdfs = {}
    for code in ("en", "fr", "hi"):
        with messages.speaking(code):
            pdfs[code] = sheets.pdf_from_html(sheets.html_for_filled(scored, "Friday", "2026-11-27",
                                                                     rounds=game["rounds"]))
    assert pdf_checks.page_count(pdfs["en"]) == 1
    assert {code: pdf_checks.page_count(pdf) for code, pdf in pdfs.items()} == {"en": 1, "fr": 1, "hi": 1}
    french = pdf_checks.page_texts(pdfs["fr"])[0].casefold()
    hindi = re.sub(r"\s", "", pdf_checks.page_texts(pdfs["hi"])[0])  # poppler reads a shaped syllable in pieces
    assert "totaux cumulés" in french and "le pourquoi de chaque score" in french and "27 novembre 2026" in french
    assert "page 1 sur 1" in french and "स्कोरशीट" in hindi and "हरस्कोरकी" in hindi and "पेज1/1" in hindi
    assert pdf_checks.near_the_edge(pdfs["fr"]) == [] and pdf_checks.near_the_edge(pdfs["hi"]) == []


def test_a_hindi_sheets_chart_says_its_words_under_it_where_they_are_shaped():
    """WeasyPrint sets an SVG text's letters one by one, which tears Devanagari's vowel signs from their letters:
    the chart of a Hindi sheet draws no words, and says them under it, in HTML."""
    with messages.speaking("hi"):
        html = sheets.html_for_filled(games.score(POOL), "Friday", "2026-11-27")
    svg = re.search(r'<svg[^>]*class="chart".*?</svg>', html, re.S).group(0)
    assert not re.search("[\u0900-\u097f]", re.sub(r'aria-label="[^"]*"', "", svg))
    assert '<p class="chart-caption">हर डील के बाद · 101 पर बाहर</p>' in html
    with messages.speaking("fr"):
        french = sheets.html_for_filled(games.score(POOL), "Friday", "2026-11-27")
    assert '<p class="chart-caption">' not in french
    assert ">après chaque donne</text>" in french and ">début</text>" in french


@pytest.mark.parametrize("game", ["rally-the-king", "indian-rummy", "alliance-royals", "royalty", "rummy-royal"])
def test_a_blank_sheet_prints_on_one_page_in_every_language(game):
    counts = {}
    for code in ("en", "fr", "hi"):
        with messages.speaking(code):
            counts[code] = pdf_checks.page_count(sheets.render_blank(game, None, "a4"))
    assert counts == {"en": 1, "fr": 1, "hi": 1}


def test_a_pack_prints_in_its_directors_language_on_as_many_pages(speaking_app):
    client = speaking_app.test_client()
    tour, key = tournament(client)
    seated(client, tour, key)
    tid = tour.rsplit("/", 1)[1]
    pages = {}
    for code in ("en", "fr", "hi"):
        with messages.speaking(code):
            documents = packs.pack_documents(speaking_app, tid, 1, "http://courtier.example/")
            pdf = sheets.pdf_from_documents(documents)
            pages[code] = (pdf_checks.page_count(pdf), pdf_checks.page_texts(pdf))
            assert packs.pack_path(speaking_app, tid, 1).name.endswith("-a4.pdf" if code == "en" else f"-a4-{code}.pdf")
    assert {code: count for code, (count, _) in pages.items()} == {"en": 3, "fr": 3, "hi": 3}
    assert "dossier de ronde courtier" in pages["fr"][1][0].casefold() and "Ronde 1 sur 3" in pages["fr"][1][1]
    assert "राउंडपैक" in re.sub(r"\s", "", pages["hi"][1][0])
