"""Royalty's word judge and capture check: the worked examples in cases/royalty_words.toml, and properties.

The examples were written by hand from RULINGS.md RY-7 and RY-17 (RY-10 for warnings), and
each says which rulings it shows. The referees are called directly (``royalty.word``,
``royalty.capture``) so that these tests do not depend on the registry. The default list
is checked for size and content, for being loaded once, and, when Debian's scowl package
is installed, for being exactly what scripts/build_wordlist.py makes of it.
"""

from __future__ import annotations

import gzip
import importlib.util
import re
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import InputError
from companion.games.royalty.words import ABBREVIATIONS, WordList, added_letters, capture_check, judge
from companion.referee.royalty import capture, word
from tests.casebook import ERROR_KEYS, slug

ROOT = Path(__file__).parent.parent
CASES = tomllib.loads((Path(__file__).parent / "cases" / "royalty_words.toml").read_text(encoding="utf-8"))
WORDS, CAPTURES = CASES["word"], CASES["capture"]
DATA = ROOT / "companion" / "games" / "royalty" / "data"
RULINGS = {f"RY-{n}" for n in range(1, 18)}
CITES = re.compile(r"\(RY-\d+(, RY-\d+)*\)$")
WORD_KEYS = {"name", "rulings", "word", "allow", "deny", "valid", "answer", "says"} | ERROR_KEYS
CAPTURE_KEYS = {"name", "rulings", "target", "word", "allow", "deny", "valid", "added", "warns", "says"} | ERROR_KEYS
BOX_WORDS = ["ALE", "PEAL", "PARE", "MACE", "PARK", "CAPER", "CALM", "CAMP", "ZEBRA", "ROYALTY"]


def body_of(case: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {key: case[key] for key in keys if key in case}


def assert_says(lines: list[str], phrases: list[str]) -> None:
    for phrase in phrases:
        assert any(phrase in line for line in lines), f"no line says {phrase!r}: {lines}"


def assert_error(call, body: dict[str, Any], case: dict[str, Any]) -> None:
    with pytest.raises(InputError) as raised:
        call(body)
    problems = [p.as_json() for p in raised.value.problems]
    assert any(p["where"] == case["error_where"] and case["error_says"] in p["message"] for p in problems), problems


# ---------------------------------------------------------------------------------------
# The case file


def test_case_file_is_well_formed():
    assert len(WORDS) + len(CAPTURES) >= 20
    for cases, keys in ((WORDS, WORD_KEYS), (CAPTURES, CAPTURE_KEYS)):
        names = [c["name"] for c in cases]
        assert len(set(names)) == len(names)
        for case in cases:
            assert set(case) <= keys, case["name"]
            assert case["rulings"] and set(case["rulings"]) <= RULINGS, case["name"]
            assert ("valid" in case) != bool(ERROR_KEYS & set(case)), case["name"]


@pytest.mark.parametrize("case", WORDS, ids=[slug(c["name"]) for c in WORDS])
def test_word_case(case):
    body = body_of(case, ("word", "allow", "deny"))
    if "error_where" in case:
        assert_error(word, body, case)
        return
    answer = word(body)
    assert answer["word"] == case["answer"]
    assert answer["valid"] is case["valid"]
    assert_says(answer["explain"], case.get("says", []))
    assert all(CITES.search(line) for line in answer["explain"]), answer["explain"]


@pytest.mark.parametrize("case", CAPTURES, ids=[slug(c["name"]) for c in CAPTURES])
def test_capture_case(case):
    body = body_of(case, ("target", "word", "allow", "deny"))
    if "error_where" in case:
        assert_error(capture, body, case)
        return
    answer = capture(body)
    assert answer["valid"] is case["valid"]
    assert answer["added"] == case["added"]
    if case["warns"]:
        assert answer["warnings"], "expected a warning"
        assert_says(answer["warnings"], case["warns"])
    else:
        assert answer["warnings"] == []
    assert_says(answer["explain"], case.get("says", []))
    assert all(CITES.search(line) for line in answer["explain"] + answer["warnings"])


def test_ry17_examples_together():
    """RY-17 in one place: EAR to EARS and EARRING warn; to BEARS, CARE, ZEBRA, AIRED and HEAR they do not."""
    for new in ("EARS", "EARRING"):
        assert capture_check("EAR", new).warnings, new
    for new in ("BEARS", "CARE", "ZEBRA", "AIRED", "HEAR"):
        check = capture_check("EAR", new)
        assert check.valid and check.warnings == (), (new, check)


def test_api_shapes():
    assert set(word({"word": "zebra"})) == {"word", "valid", "explain"}
    assert {"valid", "added", "warnings", "explain"} <= set(capture({"target": "EAR", "word": "BEARS"}))
    for bad in (None, [], "zebra"):
        with pytest.raises(InputError):
            word(bad)
    with pytest.raises(InputError) as raised:
        capture({"target": "EAR", "word": "BEARS", "colour": "red"})
    assert raised.value.problems[0].where == "colour"


# ---------------------------------------------------------------------------------------
# The default list


def test_default_list_is_plausible():
    words = WordList.load_default()
    assert isinstance(words.words, frozenset)
    assert 80_000 < len(words) < 200_000
    for w in BOX_WORDS + ["EAR", "EARS", "EARRING", "AIRED", "BEARS", "CARE", "HEAR", "COLOR", "COLOUR"]:
        assert w in words, w
    for w in ["PARIS", "LONDON", "USA", "DONT", "KB"]:
        assert w not in words, w
    assert all(re.fullmatch(r"[A-Z]+", w) for w in words.words)
    assert not ABBREVIATIONS & words.words


def test_default_list_loads_once():
    assert WordList.load_default() is WordList.load_default()
    assert judge("zebra").valid


def test_data_file_and_copyright():
    raw = (DATA / "words-scowl-70.txt.gz").read_bytes()
    assert raw[4:8] == b"\0\0\0\0", "the gzip mtime is fixed (reproducible output)"
    lines = gzip.decompress(raw).decode("ascii").splitlines()
    header = [line for line in lines if line.startswith("#")]
    body = lines[len(header):]
    assert "SCOWL" in header[0] and "SCOWL-COPYRIGHT.txt" in header[1]
    assert body == sorted(set(body))
    notice = (DATA / "SCOWL-COPYRIGHT.txt").read_text(encoding="utf-8")
    assert "Kevin Atkinson" in notice and "Permission to use, copy, modify" in notice


@pytest.mark.skipif(not Path("/usr/share/dict/scowl/english-words.70").exists(),
                    reason="Debian's scowl package is not installed (apt-get install scowl)")
def test_build_script_reproduces_the_data_file(tmp_path):
    spec = importlib.util.spec_from_file_location("build_wordlist", ROOT / "scripts" / "build_wordlist.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    out, notice = tmp_path / "words.txt.gz", tmp_path / "COPYRIGHT"
    assert build.main(["--out", str(out), "--copyright-out", str(notice)]) == 0
    assert out.read_bytes() == (DATA / "words-scowl-70.txt.gz").read_bytes()
    assert notice.read_bytes() == (DATA / "SCOWL-COPYRIGHT.txt").read_bytes()
    assert not [name for name in build.category_files(Path("/x")) if build.EXCLUDED.search(name.name)]


# ---------------------------------------------------------------------------------------
# A table's own list and house words


def test_table_list_from_file(tmp_path):
    text = "# our list\nzebra\near\nears\nParis\nUSA\nrock'n'roll\ncafé\n\n"
    plain, packed = tmp_path / "ours.txt", tmp_path / "ours.txt.gz"
    plain.write_text(text, encoding="utf-8")
    packed.write_bytes(gzip.compress(text.encode("utf-8")))
    for path in (plain, packed):
        words = WordList.from_file(path)
        assert words.words == {"ZEBRA", "EAR", "EARS"}
        assert "ours.txt" in words.name
        verdict = words.judge("bears")
        assert not verdict.valid and "ours.txt" in verdict.reasons[0]
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no words"):
        WordList.from_file(empty)


def test_house_words():
    base = WordList.load_default()
    house = base.with_house(allow=["za"], deny=["zebra"])
    assert "ZA" in house and "ZEBRA" not in house and "EAR" in house
    assert "ZA" not in base and "ZEBRA" in base, "the default list itself is unchanged"
    assert house.words is base.words, "house words do not copy the list"
    assert capture_check("EAR", "BEARS", house.with_house(deny=["BEARS"])).valid is False
    with pytest.raises(ValueError):
        base.with_house(allow=["o'er"])


def test_target_must_be_letters():
    with pytest.raises(ValueError):
        capture_check("E A R", "BEARS")


# ---------------------------------------------------------------------------------------
# Properties

LIST_WORDS = sorted(WordList.load_default().words)
LETTER = st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
TEXT = st.text(alphabet="ABCDEEIORSTZ", min_size=1, max_size=8)


def contains(word: str, target: str) -> bool:
    return not Counter(target) - Counter(word)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT, st.one_of(TEXT, st.sampled_from(LIST_WORDS)))
def test_capture_needs_every_target_letter(target, new):
    check = capture_check(target, new)
    if not contains(new, target):
        assert not check.valid
        assert any("lacks" in line for line in check.reasons)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(LIST_WORDS), st.data())
def test_added_plus_target_is_the_word(new, data):
    """A target taken from the new word's own letters: when the capture is good, added + target == word."""
    keep = data.draw(st.lists(st.booleans(), min_size=len(new), max_size=len(new)))
    letters = [c for c, k in zip(new, keep, strict=True) if k] or [new[0]]
    target = "".join(data.draw(st.permutations(letters)))
    check = capture_check(target, new)
    assert Counter(check.added) + Counter(target) == Counter(new)
    assert check.valid is bool(check.added), "every list word is good; only a mere rearrangement is not"


@given(TEXT, st.lists(LETTER, max_size=4))
def test_added_letters_is_the_multiset_difference(target, extra):
    new = target + "".join(extra)
    added, lacks = added_letters(target, new)
    assert lacks == "" and Counter(added) == Counter(extra)
    assert Counter(added_letters(new, target)[1]) == Counter(extra)
