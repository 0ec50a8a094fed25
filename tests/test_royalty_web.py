"""Royalty through the web forms: options, turns, the judge beside each word, bad input."""

from __future__ import annotations

import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import entry_forms
from tests.entry_forms import exported, post, scored_game


def new_table(client, players=("Ann", "Ben", "Cat", "Dan"), **options):
    return entry_forms.new_table(client, "royalty", players, {"opt-variant": "standard", "opt-coalitions": ""},
                                 **options)


def test_letter_values_junior_and_coalitions_are_options(client):
    table, key = new_table(client, **{"v_Z": "12", "junior": "y", "coalitions": "13-24"})
    options = exported(client, table)["options"]
    assert options["letter_values"] == {"Z": 12}
    assert options["junior"] is True
    assert options["coalitions"] == [["Ann", "Cat"], ["Ben", "Dan"]]
    # ALE, all red, three letters: a junior royalty doubles it (RY-5): 6 x 2 = 12, but as the
    # first play RY-6 doubles it instead (no stacking): 12.
    post(client, table, key, player="Ann", kind="meld", meld="Ar Lr Er")
    assert scored_game(client, table).side_totals == {"A": 12, "B": 0}


def test_coalitions_that_do_not_fit_the_players_are_refused_on_the_form(client):
    data = {"seat1": "Ann", "seat2": "Ben", "seat3": "Cat", "opt-variant": "standard", "opt-coalitions": "13-24"}
    response = client.post("/new/royalty", data=data)
    assert response.status_code == 422
    assert 'value="Cat"' in response.get_data(as_text=True)


def test_each_turn_logs_what_the_word_judge_said(client):
    table, key = new_table(client)
    post(client, table, key, player="Ann", kind="meld", meld="Er Ar Rr")
    post(client, table, key, player="Ben", kind="capture", target="Ann|EAR", capture_cards="Er Ar Rr Sb")
    turns = exported(client, table)["rounds"]
    assert turns[0]["judged"][0]["word"] == "EAR" and turns[0]["judged"][0]["valid"] is True
    assert "inflection" in turns[1]["judged"][0]["warnings"][0]
    page = client.get(table).get_data(as_text=True)
    assert "Word judge: <strong>EARS</strong> accepted" in page


def test_the_live_judge_fragment(client):
    assert "Yes" in client.get("/referee/royalty/judge?word=zebra").get_data(as_text=True)
    text = client.get("/referee/royalty/judge?word=EARRING&target=EAR").get_data(as_text=True)
    assert "⚠" in text
    assert client.get("/referee/royalty/judge?word=<b>").get_data(as_text=True).strip() == ""


def test_bad_turns_are_shown_next_to_their_field_with_the_input_kept(client):
    table, key = new_table(client)
    post(client, table, key, player="Ann", kind="meld", meld="Cr Ar Lr Mr")
    cases = {
        # a capture that drops a target letter (RY-7)
        "capture_cards": dict(player="Ben", kind="capture", target="Ann|CALM", capture_cards="Cr Ar Lr Ib"),
        # a target that is not on the table
        "target": dict(player="Ben", kind="capture", target="Ann|ZEBRA", capture_cards="Zr Er Br Rr Ar"),
        # an unknown owner
        "target ": dict(player="Ben", kind="capture", target="Zed|CALM", capture_cards="Cr Lr Ar Ib Mr"),
        # a card that is not a card
        "meld": dict(player="Ben", kind="meld", meld="C1 Ar"),
    }
    for field, data in cases.items():
        response = post(client, table, key, **data)
        assert response.status_code == 422, field
        page = response.get_data(as_text=True)
        assert f'id="{field.strip()}-error"' in page, (field, re.findall(r'class="error"[^>]*>([^<]*)', page))
        for name in ("capture_cards", "meld"):
            if data.get(name):
                assert f'value="{data[name]}"' in page
    # Capturing one's own word is refused (RY-7).
    response = post(client, table, key, player="Ben", kind="pass")
    assert response.status_code == 303
    response = post(client, table, key, player="Cat", kind="capture", target="Ann|CALM", capture_cards="Cr Lr Ar Ib Mr")
    assert response.status_code == 303
    response = post(client, table, key, player="Dan", kind="capture", target="Dan|CLAIM",
                    capture_cards="Cr Lr Ar Ib Mr Sb")
    assert response.status_code == 422
    assert len(exported(client, table)["rounds"]) == 3


def test_referee_pages(client):
    page = client.post("/referee/royalty/word", data={"word": "zebra"}).get_data(as_text=True)
    assert "Yes" in page
    response = client.post("/referee/royalty/word", data={"word": ""})
    assert response.status_code == 422 and 'id="word-error"' in response.get_data(as_text=True)
    page = client.post("/referee/royalty/capture", data={"target": "ear", "word": "bears"}).get_data(as_text=True)
    assert "Yes" in page and "adds" in page
    response = client.post("/referee/royalty/monarchy", data={"dealt": "Cr Ar Lr", "words": "Cr Ar"})
    assert response.status_code in (200, 422)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fields=st.dictionaries(
    st.sampled_from(["player", "kind", "meld", "target", "capture_cards", "challenge_by", "challenge_upheld",
                     "went_out", "u0", "u1", "base_version"]),
    st.text(max_size=16) | st.sampled_from(["Ann", "Ben", "meld", "capture", "end", "pass", "Cr Ar Lr Mr",
                                            "Ann|CALM", "*Eb", "upheld", "0"]), max_size=9))
def test_any_turn_form_is_saved_or_refused_never_a_500(app, fields):
    client = app.test_client()
    table, key = new_table(client)
    response = client.post(f"{table}/hands?key={key}", data=fields)
    assert response.status_code in (303, 409, 422), response.status_code


def test_house_words_are_judged_for_the_table(client):
    table, key = new_table(client, **{"house_allow": "qi, za", "house_deny": "ear"})
    options = exported(client, table)["options"]
    assert options["house_allow"] == ["QI", "ZA"] and options["house_deny"] == ["EAR"]
    table_id = table.rsplit("/", 1)[1]
    allowed = client.get(f"/referee/royalty/judge?word=qi&table={table_id}").get_data(as_text=True)
    assert "Yes" in allowed
    denied = client.get(f"/referee/royalty/judge?word=ear&table={table_id}").get_data(as_text=True)
    assert "No" in denied and "Yes" not in denied
    assert "Yes" in client.get("/referee/royalty/judge?word=ear").get_data(as_text=True)  # other tables
    post(client, table, key, player="Ann", kind="meld", meld="Er Ar Rr")
    assert exported(client, table)["rounds"][0]["judged"][0]["valid"] is False


def test_a_table_can_judge_by_its_own_word_list(client):
    """RY-17: a table loads its own list; the judge, the logged verdicts, the sheet and an export use it."""
    import io

    upload = (io.BytesIO(b"# our club's list\nzebra\nxyzzy\nqi\nParis\ndon't\n"), "club.txt")
    data = {"seat1": "Ann", "seat2": "Ben", "opt-variant": "standard", "opt-coalitions": "",
            "opt-house_deny": "zebra", "opt-word_file": upload}
    response = client.post("/new/royalty", data=data, content_type="multipart/form-data")
    assert response.status_code == 303, response.get_data(as_text=True)
    table, key = response.headers["Location"].split("?key=")
    table_id = table.rsplit("/", 1)[1]
    body = exported(client, table)
    assert body["options"]["word_list"] == ["QI", "XYZZY", "ZEBRA"]  # names and contractions left out

    def says(word):
        return client.get(f"/referee/royalty/judge?word={word}&table={table_id}").get_data(as_text=True)

    assert "Yes" in says("xyzzy") and "own word list" in says("xyzzy")
    assert "Yes" not in says("ear")  # in the default list, not in this table's
    assert "Yes" not in says("zebra")  # the house deny list still applies on top
    post(client, table, key, player="Ann", kind="meld", meld="Qr Ir")
    assert exported(client, table)["rounds"][0]["judged"][0]["valid"] is True

    sheet_text = client.get(f"/t/{table_id}/sheet.pdf")
    assert sheet_text.status_code == 200
    from io import BytesIO

    from pypdf import PdfReader

    text = "".join(page.extract_text() for page in PdfReader(BytesIO(sheet_text.data)).pages)
    assert "the table's own list, 3 words" in text and "XYZZY" not in text

    imported = client.post("/import", data={"text": json.dumps(body)})
    assert imported.status_code == 303
    again = imported.headers["Location"].split("?")[0]
    assert exported(client, again)["options"]["word_list"] == ["QI", "XYZZY", "ZEBRA"]


def test_a_word_list_that_is_not_text_is_refused_on_the_form(client):
    import gzip
    import io

    bomb = gzip.compress(b"zebra\n" * 1_000_000)  # 6 MB unpacked from a few KB
    for content in (b"\x00\x01\x02binary", b"", b"12345\n---\n", bomb):
        data = {"seat1": "Ann", "seat2": "Ben", "opt-variant": "standard", "opt-coalitions": "",
                "opt-word_file": (io.BytesIO(content), "words.bin")}
        response = client.post("/new/royalty", data=data, content_type="multipart/form-data")
        if not content:  # an empty file is no list at all: the default one
            assert response.status_code == 303
            continue
        assert response.status_code == 422
        page = response.get_data(as_text=True)
        assert "Choose a text file with one word a line" in page
        assert ("larger than 4 MB" in page) == (content is bomb)
        assert 'value="Ann"' in page and 'value="Ben"' in page  # the rest of the form is kept


def test_the_judge_screens_opened_from_a_table_use_its_house_words_and_list(client):
    """RY-17 everywhere: the Word judge, the capture check and the Monarchy checker linked from a
    table's turn form judge by that table's house words; the same screens without a table do not."""
    table, key = new_table(client, **{"house_allow": "za", "house_deny": "ear"})
    table_id = table.rsplit("/", 1)[1]
    form = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    assert f"/referee/royalty/word?table={table_id}" in form
    here = f"?table={table_id}"
    page = client.post(f"/referee/royalty/word{here}", data={"word": "ear"}).get_data(as_text=True)
    assert "No</span>" in page and "house deny list" in page and "this table's words" in page
    assert f"/referee/royalty/capture?table={table_id}" in page  # the links keep the table
    assert "Yes</span>" in client.post(f"/referee/royalty/word{here}", data={"word": "za"}).get_data(as_text=True)
    assert "No</span>" in client.post("/referee/royalty/word", data={"word": "za"}).get_data(as_text=True)
    assert "Yes</span>" in client.post("/referee/royalty/word", data={"word": "ear"}).get_data(as_text=True)
    page = client.post(f"/referee/royalty/capture{here}", data={"target": "e", "word": "ear"}).get_data(as_text=True)
    assert "No</span>" in page
    # Monarchy (RY-16): ZA is no royalty anywhere, but a word at this table; EAR is refused here only.
    deal = "Cr Ar Lr Mr Er Ar Rr Lr Zr Ar " + " ".join(["Xb"] * 15)
    words = {"dealt": deal, "words": "Cr Ar Lr Mr\nEr Ar Rr\nZr Ar"}
    page = client.post(f"/referee/royalty/monarchy{here}", data=words).get_data(as_text=True)
    assert "EAR is on the house deny list" in page and "ZA is not in" not in page
    page = client.post("/referee/royalty/monarchy", data=words).get_data(as_text=True)
    assert "EAR is on the house deny list" not in page and "ZA is not in the default word list" in page


def test_the_monarchy_checker_refuses_royalties_that_are_no_words(client):
    """RY-16: QXZK and JVWFH are one-coloured and long enough, but they are no words: never solved."""
    deal = "Qb Xb Zb Kb Jb Vb Wb Fb Hb " + " ".join(["Cr Ar Lr Mr"] * 4)
    response = client.post("/referee/royalty/monarchy", data={
        "dealt": deal, "words": "Qb Xb Zb Kb\nJb Vb Wb Fb Hb\n" + "Cr Ar Lr Mr\n" * 4})
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Solved" not in page
    assert "QXZK is not in the default word list" in page and "JVWFH is not in the default word list" in page
    body = client.post("/api/v1/referee/royalty/monarchy", json={
        "dealt": deal, "words": ["Qb Xb Zb Kb", "Jb Vb Wb Fb Hb", *["Cr Ar Lr Mr"] * 4]}).get_json()
    assert body["valid"] is False and body["solved"] is False and body["unused"] == []
    assert [w["in_word_list"] for w in body["words"]] == [False, False, True, True, True, True]
