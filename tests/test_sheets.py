"""Score sheets: the filled sheet of every worked example in docs/api.md, blank sheets, paper sizes,
the PDF route, the `companion sheet` command, and a look at the pages rendered to PNG."""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import threading
from io import BytesIO
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from companion import games
from companion.cli import main
from companion.paper import sheets
from companion.views import sheets as sheet_views
from tests.conftest import new_table

DOCS = Path(__file__).resolve().parent.parent / "docs" / "api.md"
A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)
RULING = re.compile(r"\b(?:AR|BR|MR|RY|RK|IR|RR|RM)-\d{1,2}\b")


def scoring_examples() -> list[tuple[str, dict]]:
    """(heading, request) for every worked scoring example in docs/api.md that scores (200)."""
    text = DOCS.read_text(encoding="utf-8")
    found = []
    for heading, body in re.findall(r"### ([^\n]*)\n(?:(?!### ).)*?```json request\n(.*?)```", text, re.S):
        request = json.loads(body)
        try:
            games.score(request)
        except games.InputError:
            continue  # the error examples
        found.append((heading, request))
    return found


EXAMPLES = scoring_examples()


def pdf_text(pdf: bytes) -> tuple[PdfReader, str]:
    reader = PdfReader(BytesIO(pdf))
    return reader, "\n".join(page.extract_text() for page in reader.pages)


def size(page) -> tuple[float, float]:
    box = page.mediabox
    return round(float(box.width), 2), round(float(box.height), 2)


#: What each game's sheet must show of its options (the option values, in the sheet's words).
def option_words(request: dict, scored) -> list[str]:
    options = scored.options
    return {
        "alliance-royals": lambda: [sheets.number(options["win_above"]), sheets.number(options["lose_below"]),
                                    *options["house_names"].values()],
        "rally-the-king": lambda: [options["counting"], f"Hands in the game {options['hands']}"],
        "indian-rummy": lambda: [games.ENGINES["indian-rummy"].VARIANTS[options["variant"]],
                                 f"Decks {options['decks']}"],
        "royalty": lambda: ["Joust" if options["variant"] == "joust" else "standard",
                            f"Junior royalties {'yes' if options['junior'] else 'no'}", "Letter values (RY-2)"],
        "rummathon-royale": lambda: [f"Schedule of rounds {options['schedule']}"],
        "battle-royals": lambda: [sheets.number(options["win_above"]), sheets.number(options["lose_below"])],
        "marriage-royals": lambda: [sheets.number(options["win_above"]), "Sharing between spouses", options["share"]],
        "rummy-royal": lambda: [f"Starting chips {options['chips']}", f"Sequence {options['sequence']}"],
    }[scored.game]()


def test_the_docs_give_a_worked_example_for_every_game():
    assert {request["game"] for _, request in EXAMPLES} == set(games.ENGINES)


@pytest.mark.parametrize("heading,request_body", EXAMPLES, ids=[h for h, _ in EXAMPLES])
def test_every_worked_example_prints_a_filled_sheet(heading, request_body):
    scored = games.score(request_body)
    pdf = sheets.render_filled(scored, "Friday at Ann's", "2025-11-21T19:30:00+00:00", request_body.get("options"),
                               None, rounds=request_body["rounds"])
    assert pdf.startswith(b"%PDF-")
    reader, text = pdf_text(pdf)
    assert 1 <= len(reader.pages) <= 1 + len(scored.rounds) // 3
    assert all(size(page) == A4 for page in reader.pages)
    assert "Friday at Ann's" in text and "21 November 2025" in text
    assert games.ENGINES[scored.game].TITLE.upper() in text
    for player in scored.players:
        assert player in text
    # The grid's last line: each player's total, then each side's.
    expected = [sheets.number(scored.totals[p]) for p in scored.players]
    expected += [sheets.number(v) for v in (scored.side_totals or {}).values()]
    total_lines = [line.split()[1:] for line in text.splitlines() if line.startswith("TOTAL ")]
    assert expected in total_lines, total_lines
    # The result line.
    if scored.over:
        label = "Winner" if len(scored.winners) == 1 else "Winners"
        assert f"{label}: {' and '.join(scored.winners)}" in text
        assert re.sub(r"\s", "", scored.reason)[:40] in re.sub(r"\s", "", text)  # pypdf may split "T wo"
    else:
        assert "Game in progress" in text
    # A ruling id from the why lines, and the why itself in small print.
    rulings = {m for r in scored.rounds for lines in r.explain.values() for line in lines for m in RULING.findall(line)}
    assert rulings and rulings <= set(RULING.findall(text))
    assert "WHY EACH SCORE" in text
    for word in option_words(request_body, scored):
        assert re.sub(r"\s", "", word) in re.sub(r"\s", "", text), word
    # The word judge's verdicts logged with the turns (Royalty).
    for raw in request_body["rounds"]:
        for verdict in raw.get("judged") or []:
            assert verdict["word"] in text
    # The chart: one line per player; a game played by sides (Alliance Royals, Royalty's coalitions)
    # charts its sides, whose pooled totals decide it (AR-11, RY-14).
    html = sheets.html_for_filled(scored, "Friday at Ann's", None, request_body.get("options"), None,
                                  rounds=request_body["rounds"])
    lines = scored.sides or scored.players
    assert html.count("<polyline") == len(lines)


def first_example(game: str) -> dict:
    return copy.deepcopy(next(request for _, request in EXAMPLES if request["game"] == game))


def test_royalty_prints_the_word_judges_verdicts():
    request = first_example("royalty")
    turns = [r for r in request["rounds"] if r.get("meld") or r.get("capture")]
    turns[0]["judged"] = [{"word": "QWERTZ", "valid": False, "why": "QWERTZ is not in the default word list (RY-17)",
                           "warnings": []}]
    turns[1]["judged"] = [{"word": "CLAIMS", "valid": True, "why": "CLAIMS uses every letter of CLAIM (RY-7)",
                           "warnings": ["CLAIMS may be only an inflection of CLAIM (RY-7)"]}]
    scored = games.score(request)
    log = sheets.rulings_from(request["rounds"], "royalty")
    assert [entry["word"] for entry in log][:2] == ["QWERTZ", "CLAIMS"]
    _, text = pdf_text(sheets.render_filled(scored, "Words", None, {}, log, rounds=request["rounds"]))
    flat = re.sub(r"\s+", " ", text)
    assert "QWERTZ" in text and "not accepted" in text
    assert "CLAIMS" in text and "accepted" in text
    assert "QWERTZ is not in the default word list (RY-17)" in flat
    assert "only an inflection of CLAIM" in flat


def test_a_game_in_progress_and_a_game_with_no_rounds():
    request = {"game": "rummathon-royale", "players": ["Ann", "Ben"], "rounds": []}
    _, text = pdf_text(sheets.render_filled(games.score(request), "Not started", None, {}, []))
    assert "Game in progress" in text and "No hands played yet" in text


def test_a_game_without_its_own_template_uses_the_default():
    data = games.score(first_example("rummathon-royale")).as_json()
    data["game"] = "snap"  # a game with no sheet template of its own
    assert sheets.environment().select_template(["filled/snap.html", "filled/_default.html"]).name == \
        "filled/_default.html"
    html = sheets.html_for_filled(data, "Snap night", None, {}, [])
    assert "Snap night" in html and "Ann" in html and "WHY EACH SCORE".lower() in html.lower()


def test_the_html_is_self_contained_and_the_same_from_json_or_scored_game():
    request = first_example("alliance-royals")
    scored = games.score(request)
    html = sheets.html_for_filled(scored, "T", "2025-01-02", {}, [], rounds=request["rounds"])
    assert html == sheets.html_for_filled(scored.as_json(), "T", "2025-01-02", {}, [], rounds=request["rounds"])
    assert "<link" not in html and "<script" not in html and "url(" not in html
    assert "@page { size: A4 portrait; margin: 16.8mm 6mm 18.8mm 6mm; }" in html


def test_names_are_escaped():
    request = {"game": "rummathon-royale", "players": ["<b>Ann</b>", "Ben & co"],
               "rounds": [{"out": "<b>Ann</b>", "left": {"Ben & co": {"low": 1}}}]}
    html = sheets.html_for_filled(games.score(request), "<script>x</script>", None, {}, [], rounds=request["rounds"])
    assert "<b>Ann</b>" not in html and "<script>x" not in html
    assert "&lt;b&gt;Ann&lt;/b&gt;" in html and "Ben &amp; co" in html


def test_letter_and_a4_paper():
    request = first_example("indian-rummy")
    scored = games.score(request)
    a4 = PdfReader(BytesIO(sheets.render_filled(scored, "T", None, {}, [], paper="A4")))
    letter = PdfReader(BytesIO(sheets.render_filled(scored, "T", None, {}, [], paper="letter")))
    assert size(a4.pages[0]) == A4
    assert size(letter.pages[0]) == LETTER
    blank = PdfReader(BytesIO(sheets.render_blank("indian-rummy", paper="letter")))
    assert size(blank.pages[0]) == (LETTER[1], LETTER[0])  # blank sheets are landscape, for room to write
    with pytest.raises(sheets.UnknownPaper):
        sheets.render_blank("indian-rummy", paper="legal")


BLANK_HEADINGS = {
    "alliance-royals": ["Spoils", "Meld", "Hand", "Natural", "×", "Score", "Alliance A", "Alliance B", "1066", "−333"],
    "rally-the-king": ["Dealer", "Bid", "Declarer", "Partner", "Points", "Bonuses", "payout", "total"],
    "royalty": ["Round of turns", "word", "score", "total", "Domain cards", "Domain bonus", "Final score"],
    "indian-rummy": ["Deal", "Wild", "Winner", "count", "drop", "total", "POOL TOTAL"],
    "rummathon-royale": ["Hand", "Went out", "Burdens", "round", "reached", "hand points", "total"],
    "battle-royals": ["Spoils", "Meld", "Hand", "Natural", "×", "Score", "1066", "−333", "BR-2"],
    "marriage-royals": ["Natural", "×", "Score", "+ shared", "Marriages", "MR-4", "MR-6"],
    "rummy-royal": ["Deal", "Dealer", "Marriage", "Sequence", "Kitty", "Pot", "Left on the board", "Chips each player"],
}


@pytest.mark.parametrize("game", sorted(games.ENGINES))
def test_blank_sheets_fit_one_page_with_the_games_columns(game):
    reader, text = pdf_text(sheets.render_blank(game))
    assert len(reader.pages) == 1
    # Across the page, for the columns a hand needs; Royalty's word, score and total fit upright.
    assert size(reader.pages[0]) == (A4 if game == "royalty" else (A4[1], A4[0]))
    for heading in BLANK_HEADINGS[game]:
        assert re.sub(r"\s", "", heading) in re.sub(r"\s", "", text), heading
    most = games.ENGINES[game].MAX_PLAYERS
    names = [f"Player{i}" for i in range(1, most + 1)]
    reader, text = pdf_text(sheets.render_blank(game, names, paper="letter"))
    assert len(reader.pages) == 1
    assert all(name in text for name in names)


def test_blank_sheets_refuse_names_that_do_not_suit_the_game():
    with pytest.raises(games.InputError):
        sheets.render_blank("alliance-royals", ["Ann", "Ben"])
    with pytest.raises(KeyError):
        sheets.render_blank("snap")


# ---------------------------------------------------------------------------------------
# The routes


@pytest.fixture
def sheet_client(client):
    """The test client, with the sheets blueprint registered (as create_app does once the lead adds it)."""
    if "sheets" not in client.application.blueprints:
        client.application.register_blueprint(sheet_views.bp)
    return client


@pytest.mark.one_database  # rendering PDFs: the same work on either database
def test_a_tables_sheet_is_a_pdf(sheet_client):
    client = sheet_client
    view, edit = new_table(client, title="Friday night")
    table, key = edit.split("?key=")
    page = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    version = re.search(r'name="base_version"[^>]*value="(\d+)"', page).group(1)
    posted = client.post(f"{table}/hands?key={key}", data={"base_version": version, "out": "Ann", "note": "",
                                                            "p1_low": "3", "p1_high": "1", "p2_flex": "1"})
    assert posted.status_code == 303
    response = client.get(f"{view}/sheet.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert f'filename="courtier-{view.rsplit("/", 1)[1]}.pdf"' in response.headers["Content-Disposition"]
    reader, text = pdf_text(response.data)
    assert size(reader.pages[0]) == A4
    assert "Friday night" in text and "Ann went out" in text and "RR-2" in text
    assert [line for line in text.splitlines() if line.startswith("TOTAL ")] == ["TOTAL 50 0 0"]
    # Unchanged since: 304.
    again = client.get(f"{view}/sheet.pdf", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    letter = client.get(f"{view}/sheet.pdf?paper=letter")
    assert size(PdfReader(BytesIO(letter.data)).pages[0]) == LETTER
    # The edit link works too, but is not needed.
    assert client.get(f"{view}/sheet.pdf?key={key}").status_code == 200


def test_sheet_routes_refuse_unknown_tables_games_and_papers(sheet_client):
    client = sheet_client
    view, _ = new_table(client)
    assert client.get("/t/no-such-table/sheet.pdf").status_code == 404
    bad = client.get(f"{view}/sheet.pdf?paper=legal")
    assert bad.status_code == 400
    assert "a4 or letter" in bad.get_data(as_text=True)
    assert client.get("/sheets/blank/snap.pdf").status_code == 404
    assert client.get("/sheets/blank/royalty.pdf?paper=tabloid").status_code == 400
    assert client.get("/sheets/blank/alliance-royals.pdf?players=Ann,Ben").status_code == 400


@pytest.mark.one_database  # rendering PDFs: the same work on either database
def test_a_blank_sheet_route_writes_the_names(sheet_client):
    response = sheet_client.get("/sheets/blank/royalty.pdf?paper=letter&players=Ann,Ben,Cat")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    reader, text = pdf_text(response.data)
    assert len(reader.pages) == 1 and size(reader.pages[0]) == LETTER  # Royalty, three players: upright
    assert all(name in text for name in ("Ann", "Ben", "Cat"))


# ---------------------------------------------------------------------------------------
# The command line


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_cli_prints_a_game_file(tmp_path):
    game = tmp_path / "game.json"
    game.write_text(json.dumps(dict(first_example("rummathon-royale"), title="From a file")))
    out = tmp_path / "sheet.pdf"
    result = run("sheet", str(game), "-o", str(out), "--paper", "letter")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["written"] == str(out)
    reader, text = pdf_text(out.read_bytes())
    assert size(reader.pages[0]) == LETTER and "From a file" in text


def test_cli_bad_json_or_an_unscorable_game_exits_2(tmp_path):
    out = tmp_path / "sheet.pdf"
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    result = run("sheet", str(bad), "-o", str(out))
    assert result.exit_code == 2
    assert json.loads(result.output)["errors"][0]["where"] == "$"
    result = run("sheet", "-", "-o", str(out), input=json.dumps(
        {"game": "rummathon-royale", "players": ["Ann", "Ben"], "rounds": [{"out": "Zed"}]}))
    assert result.exit_code == 2
    assert json.loads(result.output)["errors"][0]["where"] == "rounds[0].out"
    assert not out.exists()
    assert run("sheet", "--blank", "snap", "-o", str(out)).exit_code == 2
    assert run("sheet", "-o", str(out)).exit_code == 2
    help_text = run("sheet", "--help").output
    assert "--blank" in help_text and "--paper" in help_text and "exits 2" in help_text.lower().replace("\n", " ")


def test_cli_prints_a_stored_table_and_a_blank_sheet(tmp_path, monkeypatch):
    monkeypatch.setenv("COURTIER_DATABASE", str(tmp_path / "cli.sqlite"))
    monkeypatch.setenv("COURTIER_SECRET_KEY", "cli")
    source = tmp_path / "in.json"
    source.write_text(json.dumps(dict(first_example("rally-the-king"), title="Club night")))
    created = run("import", str(source))
    assert created.exit_code == 0, created.output
    table_id = json.loads(created.output)["table"]
    out = tmp_path / "table.pdf"
    result = run("sheet", table_id, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "Club night" in pdf_text(out.read_bytes())[1]
    assert run("sheet", "no-such-table", "-o", str(out)).exit_code == 2
    blank = tmp_path / "blank.pdf"
    result = run("sheet", "--blank", "alliance-royals", "--players", "Ann,Ben,Cat,Dan", "-o", str(blank))
    assert result.exit_code == 0, result.output
    reader, text = pdf_text(blank.read_bytes())
    assert len(reader.pages) == 1 and "Spoils" in text and "Dan" in text


# ---------------------------------------------------------------------------------------
# The pages as a printer would see them


@pytest.mark.parametrize("game", sorted(games.ENGINES))
def test_the_first_page_of_each_filled_sheet_renders_to_a_png_with_ink_on_it(game, tmp_path):
    pdftoppm = shutil.which("pdftoppm")
    if not pdftoppm:
        pytest.skip("pdftoppm is not installed (apt-get install -y poppler-utils); PNG check skipped")
    request = first_example(game)
    pdf = tmp_path / f"{game}.pdf"
    pdf.write_bytes(sheets.render_filled(games.score(request), "Ink", None, request.get("options"), None,
                                         rounds=request["rounds"]))
    subprocess.run([pdftoppm, "-png", "-gray", "-r", "40", "-f", "1", "-l", "1", "-singlefile", str(pdf),
                    str(tmp_path / game)], check=True, timeout=60)
    png = tmp_path / f"{game}.png"
    assert png.exists() and png.stat().st_size > 2000
    dark, total = dark_pixels(png.read_bytes())
    assert 0.005 < dark / total < 0.5, (dark, total)  # text and rules on white, not blank and not black


def dark_pixels(png: bytes) -> tuple[int, int]:
    """Count the pixels darker than mid-grey in an 8-bit grey or RGB PNG, with the stdlib only."""
    import struct
    import zlib

    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks, header = 8, [], None
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", data)
        elif kind == b"IDAT":
            chunks.append(data)
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (0, 2) and not interlace, header
    bpp = 1 if colour == 0 else 3
    stride = width * bpp
    raw = zlib.decompress(b"".join(chunks))
    previous = bytearray(stride)
    dark = 0
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        kind, row = line[0], bytearray(line[1:])
        for x in range(stride):  # undo the PNG filter of this row
            left = row[x - bpp] if x >= bpp else 0
            up, up_left = previous[x], (previous[x - bpp] if x >= bpp else 0)
            if kind == 1:
                row[x] = (row[x] + left) & 0xFF
            elif kind == 2:
                row[x] = (row[x] + up) & 0xFF
            elif kind == 3:
                row[x] = (row[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                row[x] = (row[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else up_left)) & 0xFF
        dark += sum(1 for x in range(0, stride, bpp) if sum(row[x:x + bpp]) < 128 * bpp)
        previous = row
    return dark, width * height


def test_each_thread_keeps_one_font_configuration_for_its_sheets():
    """Pango's fonts are kept from one sheet to the next (a fifth of a long sheet's time), and never
    shared by two threads, whose objects they are not safe for."""
    mine = sheets._font_config()
    assert sheets._font_config() is mine
    theirs = []
    thread = threading.Thread(target=lambda: theirs.append(sheets._font_config()))
    thread.start()
    thread.join()
    assert theirs and theirs[0] is not mine


@pytest.mark.parametrize(("paper", "rows"), [("A4", 21), ("letter", 19)])
def test_royaltys_blank_sheet_gives_six_players_room_for_a_word_and_fills_the_page(paper, rows):
    """Six players upright: each player's word column is the widest of their three (a word is written
    whole), and turn rows fill the page down to the end of the game's rows and the rules, on one page."""
    from .pdf_checks import words

    pdf = sheets.render_blank("royalty", ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"], paper)
    assert len(PdfReader(BytesIO(pdf)).pages) == 1
    found = words(pdf)
    mm = 72 / 25.4
    heads = {w.text: w for w in found if w.text in ("Ann", "Ben")}
    score, total = (min((w for w in found if w.text == text and w.x0 > heads["Ann"].x0), key=lambda w: w.x0)
                    for text in ("score", "total"))
    group = heads["Ben"].x0 - heads["Ann"].x0  # a player's three columns
    total_width = 2 * (heads["Ben"].x0 - 0.6 * mm - (total.x0 + total.x1) / 2)  # "total" centred in its column
    score_width = (total.x0 + total.x1) - (score.x0 + score.x1) - total_width
    word_width = group - score_width - total_width
    assert word_width / mm >= 12 and word_width > max(score_width, total_width) + 3 * mm, \
        (word_width / mm, score_width / mm, total_width / mm)
    turns = [int(w.text) for w in found if w.text.isdigit() and w.x1 < heads["Ann"].x0]
    assert turns == list(range(1, rows + 1))
    footer = min(w.y0 for w in found if w.text == "Courtier")
    last = max(w.y1 for w in found if w.y1 < footer - 1)
    assert last > footer - 25 * mm, (footer - last) / mm  # the rules end near the foot of the page
