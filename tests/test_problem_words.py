"""A refused entry's problems read as words, in English, French and Hindi, and each sits by its field.

For every game, the bad entries of the message corpora (tests/test_entry_messages.py,
tests/test_messages_royals.py) and the entries with several mistakes at once
(tests/test_every_problem_at_once.py) are saved through the entry form, and sent to the API, in each
language. Every problem a person reads, in the list at the top and beside the fields, is the text of
the page as a browser shows it (its tags dropped, its entities read once): it must hold no entity
left over ("n&#39;a" is a message escaped twice), no markup, no None, null, JSON or the form's own
field names. Every problem beside a field is tied to that field: the field is marked invalid and names
the problem in its aria-describedby; every line of the list at the top links to a field on the page.
The API's messages are words too: no entity or markup in them (JSON is not HTML).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.web import language
from tests.test_entry_messages import CORPORA
from tests.test_every_problem_at_once import FORM_CASES
from tests.test_messages_royals import AR_ENGINE, AR_FORMS, AR_PLAYERS, RY_ENGINE, RY_FORMS, RY_PLAYERS

LANGUAGES = ("en", "fr", "hi")


@dataclass
class Game:
    """A game's table (seats, new-table fields), the rounds saved before, the bad form posts and the bad API
    rounds (each a list of rounds, the last holding the mistakes)."""

    players: tuple[str, ...]
    options: dict[str, str]
    forms: list[dict[str, str]]
    api: list[list[Any]]
    api_options: dict[str, Any] = field(default_factory=dict)
    saved_first: list[dict[str, str]] = field(default_factory=list)
    defaults: dict[str, str] = field(default_factory=dict)
    slugs: tuple[str, ...] = ()


def _games() -> dict[str, Game]:
    games = {name: Game(c.players, c.options, list(c.forms), [[entry] for entry in c.api], c.api_options,
                        defaults=c.defaults, slugs=c.slugs) for name, c in CORPORA.items()}
    games["alliance-royals"] = Game(tuple(AR_PLAYERS), {"opt-seating": "13-24", "opt-win_above": "1066",
                                                        "opt-lose_below": "-333"},
                                    list(AR_FORMS), [[entry] for entry in AR_ENGINE])
    games["royalty"] = Game(tuple(RY_PLAYERS), {"opt-variant": "standard", "opt-coalitions": ""},
                            list(RY_FORMS), list(RY_ENGINE))
    return games


GAMES = _games()

#: The entries with several mistakes at once, each on a table of its own (its seats and options).
MANY_AT_ONCE = {name: case for name, case in FORM_CASES.items()}

#: What a person must never read in a problem.
NOT_WORDS = {
    "an HTML entity": re.compile(r"&(#\d+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);"),
    "markup": re.compile(r"</?[A-Za-z][^>]*>"),
    "JSON": re.compile(r"[{}]|\[\d+\]"),
    "a code value": re.compile(r"\b(None|null|NaN|undefined|True|False|true|false)\b"),
}
#: Through the form, the form's own field names are not words either (the API's fields are its contract).
FIELD_NAMES = re.compile(r"\b[a-z]+_[a-z_]+\b|\b(p\d+_\w+|[ub]\d+)\b")


def read_as_shown(fragment: str) -> str:
    """The text a browser shows for a piece of a page: its tags dropped, its entities read once."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def not_words(text: str, slugs: tuple[str, ...], form: bool) -> list[str]:
    """What in a problem a person should never read.

    >>> not_words("Ben n&#39;a plus de cartes", (), True)
    ['an HTML entity']
    >>> not_words("Ben n'a plus de cartes (RR-2)", (), True)
    []
    >>> not_words("give declarer_points", (), True), not_words("give declarer_points", (), False)
    (['a field name'], [])
    """
    found = [name for name, pattern in NOT_WORDS.items() if pattern.search(text)]
    if form and FIELD_NAMES.search(text):
        found.append("a field name")
    found += [slug for slug in slugs if re.search(rf"(?<![\w-]){re.escape(slug)}(?![\w-])", text)]
    return found


TAG = re.compile(r"<([a-zA-Z]+)((?:\s+[\w:-]+(?:=\"[^\"]*\"|='[^']*')?)*)\s*/?>")
ATTRIBUTE = re.compile(r"([\w:-]+)(?:=\"([^\"]*)\"|='([^']*)')?")


def tags(page: str) -> list[tuple[str, dict[str, str]]]:
    """Every opening tag of the page: its name and its attributes (their values as written)."""
    out = []
    for name, attrs in TAG.findall(page):
        out.append((name.lower(), {a: (v or w) for a, v, w in ATTRIBUTE.findall(attrs)}))
    return out


def problems_beside_fields(page: str) -> dict[str, str]:
    """Each problem shown beside a field: its id and its text as shown."""
    return {pid: read_as_shown(text)
            for pid, text in re.findall(r'<p class="error" id="([^"]+)"[^>]*>(.*?)</p>', page, re.S)}


def problems_at_the_top(page: str) -> list[tuple[str | None, str]]:
    """Each line of the list at the top: the field it links to (None when it names none), and its text."""
    box = re.search(r'<div class="errors" id="problems"[^>]*>(.*?)</div>', page, re.S)
    assert box, "a refused entry shows its problems at the top"
    lines = []
    for line in re.findall(r"<li>(.*?)</li>", box.group(1), re.S):
        link = re.match(r'\s*<a href="#([^"]+)">', line)
        lines.append((link.group(1) if link else None, read_as_shown(line)))
    heading = re.search(r"<p><strong>(.*?)</strong></p>", box.group(1), re.S)
    return [(None, read_as_shown(heading.group(1)))] + lines if heading else lines


def untied(page: str, beside: dict[str, str]) -> list[str]:
    """The problems beside fields that no field names in its aria-describedby while marked invalid. A row of
    choices to tap is one field: its fieldset names the problem, and the focus a refusal puts on it lands on
    its chosen choice (static/js/app.js, placeFocus)."""
    tied: set[str] = set()
    for name, attrs in tags(page):
        if attrs.get("aria-invalid") == "true" or name == "fieldset":
            tied.update(attrs.get("aria-describedby", "").split())
    return [pid for pid in beside if pid not in tied]


def words_wrong(page: str, slugs: tuple[str, ...]) -> list[str]:
    """What a person reads in a refused entry's problems that is not words, said so that a failure shows where."""
    wrong = []
    for pid, text in problems_beside_fields(page).items():
        wrong += [f"beside {pid}: {text!r} holds {what}" for what in not_words(text, slugs, form=True)]
        if not text:
            wrong.append(f"beside {pid}: nothing to read")
    for _target, text in problems_at_the_top(page):
        wrong += [f"at the top: {text!r} holds {what}" for what in not_words(text, slugs, form=True)]
    return wrong


def ties_wrong(page: str) -> list[str]:
    """The problems of a refused entry's page that are not tied to their field, or link to none on the page."""
    beside = problems_beside_fields(page)
    ids = {attrs["id"] for _name, attrs in tags(page) if "id" in attrs}
    wrong = [f"at the top: {text!r} links to #{target}, which is not on the page"
             for target, text in problems_at_the_top(page) if target is not None and target not in ids]
    return wrong + [f"beside {pid}: {beside[pid]!r} is not tied to an invalid field" for pid in untied(page, beside)]


def check_page(page: str, slugs: tuple[str, ...]) -> list[str]:
    return words_wrong(page, slugs) + ties_wrong(page)


def open_table(client, game: str, players, options: dict[str, str]) -> tuple[str, str]:
    data = {f"seat{i}": p for i, p in enumerate(players, 1)} | options
    response = client.post(f"/new/{game}", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return tuple(response.headers["Location"].split("?key="))


def base_version(client, table: str, key: str) -> str:
    page = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    return re.search(r'name="base_version"[^>]*value="(\d+)"', page).group(1)


def refused_page(client, table: str, key: str, version: str, fields: dict[str, str]) -> str:
    response = client.post(f"{table}/hands?key={key}", data={"base_version": version, **fields})
    assert response.status_code == 422, (fields, response.status_code)
    return response.get_data(as_text=True)


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_refused_form_says_its_problems_in_words(client, game, code):
    corpus = GAMES[game]
    client.set_cookie(language.COOKIE, code)
    table, key = open_table(client, game, corpus.players, corpus.options)
    version = base_version(client, table, key)
    wrong = []
    for fields in corpus.forms:
        page = refused_page(client, table, key, version, {**corpus.defaults, **fields})
        wrong += [f"{fields}: {w}" for w in words_wrong(page, corpus.slugs)]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_problem_beside_a_field_is_tied_to_it(client, game):
    corpus = GAMES[game]
    table, key = open_table(client, game, corpus.players, corpus.options)
    version = base_version(client, table, key)
    wrong = []
    for fields in corpus.forms:
        page = refused_page(client, table, key, version, {**corpus.defaults, **fields})
        wrong += [f"{fields}: {w}" for w in ties_wrong(page)]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("case", sorted(MANY_AT_ONCE))
def test_several_mistakes_at_once_are_each_said_in_words_beside_their_fields(client, case, code):
    game, players, options, first, bad, expected = MANY_AT_ONCE[case]
    client.set_cookie(language.COOKIE, code)
    table, key = open_table(client, game, players, options)
    for fields in first:
        saved = client.post(f"{table}/hands?key={key}", data={"base_version": base_version(client, table, key),
                                                               **fields})
        assert saved.status_code == 303, saved.get_data(as_text=True)[:2000]
    page = refused_page(client, table, key, base_version(client, table, key), bad)
    wrong = words_wrong(page, ()) + ties_wrong(page)
    assert not wrong, "\n".join(wrong)
    beside = problems_beside_fields(page)
    for where in expected:  # each mistake beside its own field, whatever the language
        assert any(pid == f"{where}-error" or pid.startswith(f"{where}-error-") for pid in beside), (where, beside)


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_problem_the_api_answers_is_in_words(client, game, code):
    corpus = GAMES[game]
    wrong = []
    for rounds in corpus.api:
        body = {"game": game, "players": list(corpus.players), "options": corpus.api_options, "rounds": rounds}
        response = client.post("/api/v1/score", json=body, headers={"Accept-Language": code})
        assert response.status_code == 422, (rounds, response.get_data(as_text=True)[:500])
        problems = response.get_json()["errors"]
        assert problems, rounds
        for problem in problems:
            message = problem["message"]
            found = not_words(message, corpus.slugs, form=False)
            found += ["nothing to read"] if not message.strip() else []
            wrong += [f"{rounds[-1]!r} at {problem['where']}: {message!r} holds {what}" for what in found]
    assert not wrong, "\n".join(wrong)


def test_the_double_escaped_apostrophe_is_gone_from_the_list_at_the_top(client):
    """Rummathon Royale in French: Ben went out with cards left in hand. The message beside the field and its
    line in the list at the top read alike, the apostrophe an apostrophe (it was "n&#39;a" at the top)."""
    client.set_cookie(language.COOKIE, "fr")
    table, key = open_table(client, "rummathon-royale", ("Ann", "Ben", "Cat"), {"opt-schedule": "all"})
    page = refused_page(client, table, key, base_version(client, table, key), {"out": "Ben", "p1_low": "2"})
    said = problems_beside_fields(page)["p1_low-error"]
    assert "Ben n'a plus de cartes (RR-2)" in said
    assert any(text.endswith(": " + said) and target == "p1_low" for target, text in problems_at_the_top(page))
    assert "&amp;#39;" not in page


def test_a_royalty_challenge_with_no_outcome_is_tied_to_its_choices(client):
    """Royalty: a challenge named without saying how it ended. The two choices are marked invalid and name the
    message; the list at the top links to the first of them."""
    table, key = open_table(client, "royalty", ("Ann", "Ben", "Cat"), {"opt-variant": "standard"})
    page = refused_page(client, table, key, base_version(client, table, key),
                        {"player": "Ann", "kind": "meld", "meld": "Cr Ar Lr Mr", "challenge_by": "Ben"})
    choices = [attrs for name, attrs in tags(page) if attrs.get("name") == "challenge_upheld"]
    assert [c["value"] for c in choices] == ["upheld", "rejected"]
    assert all(c.get("aria-invalid") == "true" and c.get("aria-describedby") == "challenge_upheld-error"
               for c in choices), choices
    assert problems_beside_fields(page)["challenge_upheld-error"].startswith("say whether the challenge was upheld")
    assert ("challenge_upheld-0", "The challenge was: say whether the challenge was upheld (the turn is void) or "
            "not (the challenger passes next) (RY-10)") in problems_at_the_top(page)


def test_a_page_with_a_problem_escaped_twice_or_left_untied_is_caught():
    """The checks themselves: an entity left over, markup shown as text, and a problem no field names."""
    page = ('<div class="errors" id="problems"><p><strong>Refused</strong></p><ul>'
            '<li><a href="#p1_low">Ben</a>: n&amp;#39;a plus</li><li><a href="#gone">x</a>: y</li></ul></div>'
            '<input id="p1_low" aria-invalid="true" aria-describedby="p1_low-error">'
            '<p class="error" id="p1_low-error">n&#39;a plus</p>'
            '<select id="wild"></select><p class="error" id="wild-error">&lt;b&gt;None&lt;/b&gt;</p>')
    wrong = check_page(page, ())
    assert "at the top: 'Ben: n&#39;a plus' holds an HTML entity" in wrong
    assert "at the top: 'x: y' links to #gone, which is not on the page" in wrong
    assert "beside wild-error: '<b>None</b>' holds markup" in wrong
    assert "beside wild-error: '<b>None</b>' holds a code value" in wrong
    assert "beside wild-error: '<b>None</b>' is not tied to an invalid field" in wrong
    assert not [w for w in wrong if "p1_low-error" in w]


def choices_named(page: str, name: str) -> list[dict[str, str]]:
    return [attrs for tag, attrs in tags(page) if tag == "input" and attrs.get("name") == name]


def test_a_home_house_left_out_is_tied_to_each_house(client):
    """Alliance Royals: Ann's House not chosen. Her four Houses are each marked invalid and read the message (the
    focus a refusal puts on the first reads it); the line at the top links to the first, Spades."""
    table, key = open_table(client, "alliance-royals", AR_PLAYERS, GAMES["alliance-royals"].options)
    page = refused_page(client, table, key, base_version(client, table, key),
                        {"p0_house": "", "p1_house": "H", "p2_house": "D", "p3_house": "C"})
    houses = choices_named(page, "p0_house")
    assert [h["value"] for h in houses] == ["S", "H", "D", "C"]
    assert all(h.get("aria-invalid") == "true" and h.get("aria-describedby") == "p0_house-error" for h in houses)
    assert not any("aria-invalid" in h for h in choices_named(page, "p1_house"))
    assert problems_beside_fields(page)["p0_house-error"] == "choose Ann's Home House at the end of the round (AR-3)"
    assert houses[0]["id"] in dict(problems_at_the_top(page))


def test_a_hostage_with_no_target_links_to_the_first_player_it_can_be_held_against(client):
    """Alliance Royals: Ann holds the QH as a hostage against no one. Her own name is not among the choices, so
    the line at the top links to the first one drawn, Ben."""
    table, key = open_table(client, "alliance-royals", AR_PLAYERS, GAMES["alliance-royals"].options)
    page = refused_page(client, table, key, base_version(client, table, key),
                        {"p0_house": "S", "p1_house": "H", "p2_house": "D", "p3_house": "C", "p0_h0_card": "QH"})
    drawn = choices_named(page, "p0_h0_target")
    assert [(c["id"], c["value"]) for c in drawn] == [("p0_h0_target-0", "Ben"), ("p0_h0_target-1", "Cat"),
                                                      ("p0_h0_target-2", "Dan"), ("p0_h0_target-3", "")]
    assert ("p0_h0_target-0", "Ann · Hostage against: choose the player Ann's hostage is held against (AR-9)") \
        in problems_at_the_top(page)
    assert ties_wrong(page) == []


def test_a_hostage_posted_to_battle_royals_is_said_above_the_form_linking_nowhere(client):
    """Battle Royals draws no Hostage (BR-2). One posted anyway is refused in the engine's words above the form,
    once, and no line links to a field the page does not draw."""
    table, key = open_table(client, "battle-royals", ("Ann", "Ben"), GAMES["battle-royals"].options)
    page = refused_page(client, table, key, base_version(client, table, key),
                        {"p0_house": "S", "p1_house": "H", "p0_h0_card": "QD", "p0_h0_target": "Zed"})
    top = problems_at_the_top(page)
    assert (None, "“Zed” is not a player at this table (Ann, Ben)") in top
    assert [target for target, _text in top if target] == []
    assert "Not a valid choice" not in page


def test_an_indian_rummy_card_box_names_each_of_its_problems(client):
    """Ben's 13 cards given as 4C 5C ZZ: two problems, both read by the box."""
    table, key = open_table(client, "indian-rummy", ("Ann", "Ben", "Cat"), {"opt-variant": "points"})
    page = refused_page(client, table, key, base_version(client, table, key),
                        {"wild": "7", "winner": "Ann", "p1_mode": "cards", "p1_cards": "4C 5C ZZ", "p2_mode": "first"})
    box = next(attrs for tag, attrs in tags(page) if attrs.get("name") == "p1_cards")
    assert box["aria-invalid"] == "true" and box["aria-describedby"] == "p1_cards-error p1_cards-error-2"
    assert problems_beside_fields(page)["p1_cards-error-2"] == "Ben's hand has 13 cards; 3 were given (IR-5)"


def test_a_rejoin_on_a_points_table_is_shown_ticked_with_its_problem(client):
    """A points table draws no rejoin box; a rejoin posted anyway is refused (IR-9) and the box is drawn, ticked
    and tied to the problem, so that the player sees what was refused and can untick it."""
    table, key = open_table(client, "indian-rummy", ("Ann", "Ben", "Cat"), {"opt-variant": "points"})
    fields = {"wild": "7", "winner": "Ann", "p1_mode": "count", "p1_count": "20", "p2_mode": "first"}
    assert 'name="p1_rejoin"' not in client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    page = refused_page(client, table, key, base_version(client, table, key), {**fields, "p1_rejoin": "y"})
    (box,) = choices_named(page, "p1_rejoin")
    assert "checked" in box and box["aria-invalid"] == "true" and box["aria-describedby"] == "p1_rejoin-error"
    assert problems_beside_fields(page)["p1_rejoin-error"] == \
        "only pool rummy has rejoining; this game is points rummy (IR-9)"
    assert not choices_named(page, "p0_rejoin")


def test_a_folded_winner_is_tied_to_each_player_who_could_win(client):
    """Rummy Royal: Cat folded and is tapped as the poker hand's winner. Each of the four choices reads the
    problem; the line at the top links to the first, Ann."""
    table, key = open_table(client, "rummy-royal", ("Ann", "Ben", "Cat", "Dan"), GAMES["rummy-royal"].options)
    page = refused_page(client, table, key, base_version(client, table, key),
                        {"p2_fold": "y", "winners": "Cat", "out": "Ann"})
    winners = choices_named(page, "winners")
    assert [(w["id"], w["value"]) for w in winners] == [(f"winners-{i}", p) for i, p in enumerate(("Ann", "Ben",
                                                                                                    "Cat", "Dan"))]
    assert all(w.get("aria-invalid") == "true" and w.get("aria-describedby") == "winners-error" for w in winners)
    assert problems_beside_fields(page)["winners-error"] == "Cat folded, so Cat cannot win the poker hand (RM-5)"
    assert "winners-0" in dict(problems_at_the_top(page))
    assert not any("aria-invalid" in c for c in choices_named(page, "out"))
