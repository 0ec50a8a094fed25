"""Every game walked through by tap on a phone, in French at 360x740 and in Hindi at 390x844: a table started on
the new-table page in that language, a hand or two entered by the form, and the pages read as a careful native
editor writes them, in the cases players met (the rules of tests/test_language_rules.py, applied to what the
screen shows: the innerText of main). Screenshots of each game's table page and its why go to /tmp/walkthrough/.

The hands, worked by hand:
  Alliance Royals (AR-1): Ann Spoils KS QS JS picked, Meld 2S 2H 2D 2C; Ben Spoils AH; Dan's Meld AH AH AH typed
    is a fourth AH where the pack holds three: refused beside Dan's Meld. Emptied, the round saves.
  Battle Royals (BR-2, AR-4, AR-5), as tests/browser/test_royals.py: Ann Spoils KS QS JS ×3 = 45, Meld
    2S…2C 3S…3C matched = 160, natural 205, three Royal sets: × 4 = 820; Ben Spoils AH = 5. A fourth AH typed in
    Ben's Meld is refused first.
  Marriage Royals (MR-2 to MR-4), as tests/browser/test_royals.py: Ann 620, Ben 610, Cat 610 (a fourth AD in
    Cat's Meld refused first).
  Royalty (RY-6, RY-10): Ann melds CALM, all red, 16, the first play doubled: 32. A challenge by Ben named
    without its outcome is refused; not upheld, the turn stands: Ann 32.
  Rally the King (RK-3 to RK-8), hand 1 of tests/browser/test_rally_the_king.py: five Kings counted are refused
    (the pack has 4); then Ben calls KH, Dan holds it, 62 card points, the sparrow made: Ann −4, Ben +4, Cat −4,
    Dan +4.
  Indian Rummy (IR-5 to IR-7), deal 1 of tests/browser/test_indian_rummy_hindi.py: Ann declares, Ben's 13 cards
    arranged for 49, Cat's first drop 20: 0, 49, 20.
  Rummathon Royale (RR-2, RR-5, RR-6), the first six rounds, four at the table: Ben out with cards left is refused
    ("Ben n'a plus de cartes"). Then three hands in which Ann, Ben and Cat each declare Rummathon Royale and
    complete it (up two rounds a hand: round 1 → 3 → 5 → finished), Ann, Ben, Cat going out in turn and taking
    Dan's one low card, 5: Ann 5, Ben 5, Cat 5, Dan 0, all three finished on round 6: a shared win.
  Rummy Royal (RM-3 to RM-7), deal 1 of tests/browser/test_rummy_royal.py: Ann 89, Ben 104, Cat 115, Dan 88.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from companion import create_app
from tests.browser.steps import stacks, totals
from tests.browser.test_card_picker import SEEN, closed_and_stays, picker_opens_on
from tests.live import served
from tests.test_language_rules import problems

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/walkthrough")
PHONES = {"fr": {"width": 360, "height": 740}, "hi": {"width": 390, "height": 844}}
BUTTONS = {"fr": "Français", "hi": "हिन्दी"}
TITLES = ("Alliance Royals", "Battle Royals", "Marriage Royals", "Royalty", "Rally the King", "Indian Rummy",
          "Rummathon Royale", "Rummy Royal", "Courtier")
#: English a page in French or Hindi should not show (game titles, names, cards and ruling ids are kept as printed).
ENGLISH = re.compile(r"\b(Spades|Hearts|Diamonds|Clubs|Winners?|Round|Deal|Hand|Turn|Save|Enter|Spoils|Meld|House|"
                     r"Done|Pick|Players?|the|and|of|with|went out|saved|shared|draw)\b")
#: A French past participle that guesses a player's gender, said as a player's state (« Sorti : ramasse 5 », a
#: choice « Couché »): the glossary has « Ann sort », « se couche », « sortie d’Ann ». A rule's hint
#: (« Éliminé à 101 ») is no one's.
GENDERED = re.compile(r"^(Sorti|Couché|Éliminé|Revenu)(?![e\w])(?! à \d)")
#: Three names listed with commas alone ("Ann, Ben, Cat"): each language ends its list with its "and".
COMMAS_ONLY = re.compile(r"\b(Ann|Ben|Cat|Dan), (Ann|Ben|Cat|Dan), (Ann|Ben|Cat|Dan)\b(?!,| et | और )")
#: A verb in the singular (the respectful plural is रखते/लेते/देते हैं); a card, पत्ता, is no verb, and a card
#: "गिना जाता है" (is counted) is no player.
SINGULAR_HI = re.compile(r"\S+(?<!पत्)(?<!जा)(?<!हो)ता (है|था)(?=[\s(।:;]|$)|(?<!\S)(देता|लेता|रखता|लगाता)(?=[\s(।:;]|$)")
#: What each language calls the refused save's words and the Royals' places.
SAID = {"fr": {"done": "Fini", "zones": ("Butin", "Pose", "Main"), "and": " et ", "refused_four": "3 dans le paquet"},
        "hi": {"done": "हो गया", "zones": ("लूट", "मेल्ड"), "and": " और ", "refused_four": "3"}}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    app = create_app({"DATABASE": str(tmp_path_factory.mktemp("walkthrough") / "site.sqlite"),
                      "SECRET_KEY": "walkthrough-secret", "LANGUAGES": "fr hi", "RATELIMIT_ENABLED": False})
    with served(app) as base:
        yield base


class Walk:
    """One phone's walk through one game in one language: what it read wrong, gathered, and its screenshots."""

    def __init__(self, page: Page, code: str, slug: str):
        self.page, self.code, self.slug = page, code, slug
        self.wrong: dict[str, list[str]] = {}

    def read(self, where: str, css: str = "main") -> str:
        """The words ``css`` shows, line by line against the language's rules; what is wrong is kept."""
        text = self.page.locator(css).first.inner_text()
        for line in filter(None, (line.strip() for line in text.splitlines())):
            found = problems(line, self.code, self.slug) + self.more_problems(line)
            if found:
                self.wrong[f"{where}: {line[:200]}"] = found
        return text

    def more_problems(self, line: str) -> list[str]:
        found = []
        bare = line
        for title in TITLES:
            bare = bare.replace(title, "")
        found += [f"English {m.group(0)!r}" for m in ENGLISH.finditer(bare)]
        found += [f"English {m.group(0)!r}" for m in re.finditer(r"\bAlliances?\b", bare) if self.code == "hi"]
        found += [f"names listed without the language's and: {m.group(0)!r}" for m in COMMAS_ONLY.finditer(line)]
        if self.code == "fr":
            found += [f"a gender guessed: {m.group(0)!r}" for m in GENDERED.finditer(line)]
        return found

    def shot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONES[self.code]["width"], f"{name}: {width} px wide"
        self.page.screenshot(path=str(SHOTS / f"{self.code}-{self.slug}-{name}.png"), full_page=True)

    def start(self, base: str, players: tuple[str, ...], **options: str) -> tuple[str, str]:
        """The new-table page in the phone's language (its button tapped there), the seats, the options, Start:
        answers the table's address and its edit key."""
        page = self.page
        page.goto(f"{base}/new/{self.slug}")
        page.get_by_role("button", name=BUTTONS[self.code]).tap()
        expect(page.locator("html")).to_have_attribute("lang", self.code)
        for seat, name in enumerate(players, 1):
            page.fill(f"#seat{seat}", name)
        for name, value in options.items():
            page.locator("label", has=page.locator(f"input[name='opt-{name}'][value='{value}']")).tap()
            expect(page.locator(f"input[name='opt-{name}'][value='{value}']")).to_be_checked()
        self.read("new table")
        page.locator("form button[type='submit'].primary").tap()
        expect(page.locator("a[href*='/hands/new']").first).to_be_visible()
        table, key = page.url.split("#")[0].split("?key=")
        return table, key

    def open_form(self) -> None:
        self.page.locator("a[href*='/hands/new']").first.tap()
        expect(self.page.locator("form button[type='submit'].primary")).to_be_visible()

    def save(self) -> None:
        """Save the form; done when the table's page it opens shows its flash."""
        form_page = self.page.url
        self.page.locator("form button[type='submit'].primary").tap()
        expect(self.page).not_to_have_url(form_page)
        expect(self.page.locator(".flash").first).to_be_visible()
        expect(self.page.locator("#board")).to_be_visible()

    def refused(self, field: str) -> str:
        """Save, and the save refused: the problem beside ``field``, the field marked invalid. Answers the problem."""
        self.page.locator("form button[type='submit'].primary").tap()
        error = self.page.locator(f"#{field}-error")
        expect(error).not_to_have_text("")
        expect(self.page.locator(f"#{field}")).to_have_attribute("aria-invalid", "true")
        self.read("refused form")
        return error.inner_text()

    def why(self, table: str, number: int = 1) -> str:
        """The why of round ``number`` on its own page, read and shot."""
        self.page.goto(f"{table}/hands/{number}/why")
        expect(self.page.locator("html")).to_have_attribute("lang", self.code)
        text = self.read(f"why of {number}")
        if self.code == "hi":  # a why speaks of named players: in the respectful plural
            self.wrong.update({f"why of {number}: {line[:160]}": ["a player in the singular"]
                               for line in text.splitlines() if SINGULAR_HI.search(line)})
        self.shot(f"why-{number}")
        return text

    def table_page(self, table: str, key: str) -> str:
        self.page.goto(f"{table}?key={key}")
        expect(self.page.locator("#board")).to_be_visible()
        text = self.read("table")
        self.shot("table")
        return text

    def history(self, table: str, key: str) -> None:
        self.page.goto(f"{table}/history?key={key}")
        expect(self.page.locator("ol.history > li").first).to_be_visible()
        self.read("history")


def tap_seg(page: Page, name: str, value: str) -> None:
    """A choice drawn as a button around its radio, tapped, and seen taken."""
    radio = page.locator(f"input[name='{name}'][value='{value}']")
    page.locator("label", has=radio).first.tap()
    expect(radio).to_be_checked()


# ---------------------------------------------------------------------------------------------- the Royals


def house_names_in_the_language(walk: Walk) -> None:
    """The Royals' new-table form offers the pack's House names in the reader's language, not in English."""
    page = walk.page
    for suit in "SHDC":
        value = page.locator(f"#opt-house_{suit}").input_value()
        if value in ("Spades", "Hearts", "Diamonds", "Clubs"):
            walk.wrong[f"new table: the {suit} House is named {value!r}"] = ["English House name"]


def picked_by_tap(walk: Walk, field: str, place: str, cards: str) -> None:
    """A place's box tapped opens the picker on it; its cards tapped; Done closes it and it stays closed."""
    page = walk.page
    page.locator(f"#{field}").tap()
    picker_opens_on(page, place)
    tabs = page.locator(".picker .zone-tab").all_inner_texts()
    walk.wrong.update({f"picker tab {t!r}": ["the Royals' Hand is « Main »"] for t in tabs if "Donne" in t})
    for card in cards.split():
        page.locator(f".picker [data-grid-card='{card}']").tap()
    done = page.locator(".picker [data-picker-close]")
    expect(done).to_have_text(SAID[walk.code]["done"])
    done.tap()
    closed_and_stays(page, f"#{field}")
    expect(page.locator(f"#{field}")).to_have_value(cards)


def royals_round(walk: Walk, houses: dict[str, str], boards: dict[str, dict[str, str]],
                 refused_field: str, refused_cards: str) -> None:
    """Round 1: the Houses tapped, the first player's Spoils picked, the rest typed; a save with too many copies of a
    card in ``refused_field`` (typed with the picker open) is refused beside it, the picker closed; emptied, saved."""
    page = walk.page
    walk.open_form()
    if walk.code == "fr":
        expect(page.locator("h1")).to_have_text("Saisir la manche 1")
    players = list(houses)
    for i, house in enumerate(houses.values()):
        tap_seg(page, f"p{i}_house", house)
    first = players[0]
    zones = SAID[walk.code]["zones"]
    picked_by_tap(walk, "p0_spoils", f"{first} · {zones[0]}", boards[first]["spoils"])
    for name, board in boards.items():
        for zone, cards in board.items():
            if (name, zone) != (first, "spoils"):
                page.fill(f"#p{players.index(name)}_{zone}", cards)
    walk.read("round form")
    page.locator(f"#{refused_field}").tap()
    expect(page.locator(".picker")).to_be_visible()
    page.locator(f"#{refused_field}").fill(refused_cards)
    said = walk.refused(refused_field)
    assert SAID[walk.code]["refused_four"] in said, said
    closed_and_stays(page, f"#{refused_field}")
    assert page.evaluate(SEEN, f"#{refused_field}-error"), "the problem is on the screen, nothing over it"
    walk.shot("refused")
    page.locator(f"#{refused_field}").fill("")
    walk.save()


def alliance_royals(walk: Walk, base: str) -> None:
    table, key = walk.start(base, ("Ann", "Ben", "Cat", "Dan"))
    royals_round(walk, {"Ann": "S", "Ben": "H", "Cat": "D", "Dan": "C"},
                 {"Ann": {"spoils": "KS QS JS", "meld": "2S 2H 2D 2C"}, "Ben": {"spoils": "AH"}},
                 "p3_meld", "AH AH AH")
    walk.table_page(table, key)
    walk.why(table)
    walk.history(table, key)


def battle_royals(walk: Walk, base: str) -> None:
    table, key = walk.start(base, ("Ann", "Ben"))
    royals_round(walk, {"Ann": "S", "Ben": "H"},
                 {"Ann": {"spoils": "KS QS JS KS QS JS KS QS JS", "meld": "2S 2H 2D 2C 3S 3H 3D 3C"},
                  "Ben": {"spoils": "AH"}}, "p1_meld", "AH AH AH")
    expect(walk.page.locator("#board .royals tbody tr").nth(0)).to_contain_text("820")
    walk.table_page(table, key)
    walk.why(table)


def marriage_royals(walk: Walk, base: str) -> None:
    table, key = walk.start(base, ("Ann", "Ben", "Cat"))
    royals_round(walk, {"Ann": "S", "Ben": "H", "Cat": "D"},
                 {"Ann": {"spoils": "KS QS JS KS QS JS QH KD", "meld": "2S 2H 2D 2C"},
                  "Ben": {"spoils": "AH"}, "Cat": {"spoils": "AD"}}, "p2_meld", "AD AD AD")
    rows = walk.page.locator("#board .royals tbody tr")
    expect(rows.nth(0)).to_contain_text("620")
    expect(rows.nth(1)).to_contain_text("610")
    text = walk.table_page(table, key) + walk.why(table)
    if walk.code == "fr":
        walk.wrong.update({f"Marriage Royals: {w!r}": ["a round is « Manche »"]
                           for w in re.findall(r"\b[Rr]ondes?\b", text)})


# ---------------------------------------------------------------------------------------------- the others


def royalty(walk: Walk, base: str) -> None:
    page = walk.page
    table, key = walk.start(base, ("Ann", "Ben", "Cat", "Dan"))
    walk.open_form()
    expect(page.locator("#player")).to_have_value("Ann")
    tap_seg(page, "kind", "meld")
    page.fill("#meld-letters", "calm")
    expect(page.locator("#meld")).to_have_value("Cr Ar Lr Mr")
    page.select_option("#challenge_by", "Ben")
    page.locator("form button[type='submit'].primary").tap()
    error = page.locator("#challenge_upheld-error")
    expect(error).to_contain_text("RY-10")
    for choice in page.locator("input[name='challenge_upheld']").all():
        expect(choice).to_have_attribute("aria-invalid", "true")
        expect(choice).to_have_attribute("aria-describedby", re.compile(r"\bchallenge_upheld-error\b"))
    # The problem is read: the page's status region says it, and the focus is on a choice that names it.
    expect(page.locator("#announce")).to_contain_text(error.inner_text())
    assert page.evaluate("document.activeElement.name") == "challenge_upheld"
    walk.read("refused turn")
    walk.shot("refused")
    tap_seg(page, "challenge_upheld", "rejected")
    walk.save()
    assert totals(page)["Ann"].split()[0] == "32", totals(page)
    walk.table_page(table, key)
    walk.why(table)


def rally_the_king(walk: Walk, base: str) -> None:
    page = walk.page
    table, key = walk.start(base, ("Ann", "Ben", "Cat", "Dan"))
    walk.open_form()
    page.select_option("#bid", "partner-against-stock")
    page.select_option("#declarer", "Ben")
    page.select_option("#called_king", "KH")
    page.select_option("#partner", "Dan")
    counts = {"honours": 2, "kings": 5, "queens": 2, "cavaliers": 1, "valets": 2, "others": 15, "tricks": 7}
    for kind, n in counts.items():
        page.fill(f"#c_{kind}", str(n))
    said = walk.refused("c_kings")
    assert "4" in said, said
    page.fill("#c_kings", "3")
    page.locator("details.bonuses > summary").tap()
    page.select_option("#bo_sparrow_side", "declarer")
    page.locator("#bo_sparrow_made").check()
    walk.read("hand form")
    walk.save()
    assert totals(page) == {"Ann": "−4", "Ben": "+4", "Cat": "−4", "Dan": "+4"}
    walk.table_page(table, key)
    walk.why(table)


def indian_rummy(walk: Walk, base: str) -> None:
    page = walk.page
    table, key = walk.start(base, ("Ann", "Ben", "Cat"), variant="pool101")
    walk.open_form()
    page.select_option("#wild", "7")
    page.select_option("#winner", "Ann")
    page.fill("#p0_groups", "AH 2H 3H | 5S 6S 7D 8S | QC QD QS | 9H 10H JH")
    expect(page.locator("#p0_groups-check li.yes")).to_have_count(4)
    page.select_option("#p1_mode", "cards")
    page.fill("#p1_cards", "4C 5C 6C 8D 9D 10D KS QD 2H 3S 5D 9C JC")
    page.select_option("#p2_mode", "first")
    walk.read("deal form")
    walk.save()
    assert totals(page) == {"Ann": "0", "Ben": "49", "Cat": "20"}
    walk.table_page(table, key)
    walk.why(table)


def rummathon_royale(walk: Walk, base: str) -> None:
    page = walk.page
    players = ("Ann", "Ben", "Cat", "Dan")
    table, key = walk.start(base, players, schedule="half")
    walk.open_form()
    tap_seg(page, "out", "Ben")
    page.fill("#p1_low", "2")
    walk.refused("p1_low")
    box = page.locator("#problems").inner_text()
    assert "&#" not in box and "&amp;" not in box, box
    if walk.code == "fr":
        assert re.search(r"Ben n['’]a plus de cartes", box), box
    walk.shot("refused")
    page.fill("#p1_low", "")
    for number, out in enumerate(("Ann", "Ben", "Cat"), 1):
        if number > 1:
            walk.open_form()
        tap_seg(page, "out", out)
        for i in range(3):
            tap_seg(page, f"p{i}_progress", "declared-completed")
        page.fill("#p3_low", "1")
        walk.save()
    assert totals(page) == {"Ann": "5", "Ben": "5", "Cat": "5", "Dan": "0"}
    text = walk.table_page(table, key)
    result = page.locator("#board .result").inner_text()
    listed = "Ann, Ben" + SAID[walk.code]["and"] + "Cat"
    assert listed in result, result
    assert not re.search(r"\band\b", text), result
    shared_win_words(walk, text)
    walk.why(table, 3)


def shared_win_words(walk: Walk, text: str) -> None:
    """The result is named one way: a shared win is not also called a draw, nor a tie somewhere else."""
    words = {"fr": {"shared": r"victoire partagée|gagnants? ex aequo", "draw": r"match nul|égalité parfaite"},
             "hi": {"shared": r"साझा जीत", "draw": r"ड्रॉ|बराबरी पर ख़त्म"}}[walk.code]
    if not re.search(words["shared"], text, re.IGNORECASE):
        walk.wrong["the shared win"] = [f"not called {words['shared']!r}"]
    if re.search(words["draw"], text, re.IGNORECASE):
        walk.wrong["the shared win"] = [f"also called {words['draw']!r}"]


def rummy_royal(walk: Walk, base: str) -> None:
    page = walk.page
    table, key = walk.start(base, ("Ann", "Ben", "Cat", "Dan"))
    walk.open_form()
    for space, holder in (("pay_10H", "Ann"), ("pay_QH", "Cat"), ("pay_KH", "Cat"), ("pay_AH", "Ben"),
                          ("sequence", "Dan"), ("winners", "Ben")):
        page.locator(f"#{space} label.seg", has_text=holder).tap()
    for i, bet in ((0, "2"), (1, "5"), (2, "5")):
        page.fill(f"#p{i}_bet", bet)
    page.locator("label.seg:has(#p3_fold)").tap()
    tap_seg(page, "out", "Cat")
    for i, left in ((0, "4"), (1, "2"), (3, "7")):
        page.fill(f"#p{i}_left", left)
    walk.read("deal form")
    walk.save()
    assert stacks(page) == {"Ann": "89", "Ben": "104", "Cat": "115", "Dan": "88"}
    walk.table_page(table, key)
    why = walk.why(table)
    if walk.code == "hi":
        assert re.search("रखते हैं|लेते हैं", why), why


GAMES: dict[str, Callable[[Walk, str], None]] = {
    "alliance-royals": alliance_royals, "battle-royals": battle_royals, "marriage-royals": marriage_royals,
    "royalty": royalty, "rally-the-king": rally_the_king, "indian-rummy": indian_rummy,
    "rummathon-royale": rummathon_royale, "rummy-royal": rummy_royal}


@pytest.mark.parametrize("slug", list(GAMES))
@pytest.mark.parametrize("code", ["fr", "hi"])
def test_each_game_walked_through_reads_as_the_language_writes(site, phone, code, slug):
    page = phone(viewport=PHONES[code]).new_page()
    walk = Walk(page, code, slug)
    if slug.endswith("-royals") and code == "fr":
        page.goto(f"{site}/new/{slug}")
        page.get_by_role("button", name=BUTTONS[code]).tap()
        expect(page.locator("html")).to_have_attribute("lang", code)
        house_names_in_the_language(walk)
    GAMES[slug](walk, site)
    assert walk.wrong == {}, "\n".join(f"{where} → {', '.join(why)}" for where, why in walk.wrong.items())
