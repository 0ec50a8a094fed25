"""A club on a phone: started from the home page, two games of deals rummy played from its page, then
both players' pages and their head-to-head.

The games, worked by hand (IR-10: each player starts with 80 chips a deal, 160 for two; a loser pays
the winner their count):
  Game 1, Ann, Ben, Cat. Deal 1: Ann declares; Ben counts 30, Cat 50. Deal 2: Ann again; Ben 20,
          Cat 10. Ann 160 + 50 + 60 = 270, Ben 160 - 50 = 110, Cat 160 - 60 = 100: Ann 1st, Ben 2nd,
          Cat 3rd.
  Game 2, Ann and Ben. Deal 1: Ben declares, Ann counts 40; deal 2: Ben again, Ann 25.
          Ben 160 + 65 = 225, Ann 95: Ben 1st, Ann 2nd.
Ann and Ben met twice: each placed above the other once. Cat met Ann once, and placed below.
"""

from __future__ import annotations

import os
import re
import tempfile
from datetime import date, timedelta

import pytest
from playwright.sync_api import Page, expect

from companion.clubs import store
from companion.storage import db as database

pytestmark = pytest.mark.browser

DECLARATION = "AS 2S 3S | 4D 5D 6D | 7C 8C 9H 10C | JH JD JC"  # 9s wild: a pure sequence, and three more


def shot(page: Page, name: str) -> None:
    folder = os.path.join(tempfile.gettempdir(), "courtier-shots")
    os.makedirs(folder, exist_ok=True)
    page.screenshot(path=os.path.join(folder, name), full_page=True)


def play_from_the_club(page: Page, players: tuple[str, ...], deals: list[tuple[str, dict[str, str]]]) -> None:
    page.locator("#play").get_by_role("link", name="Indian Rummy", exact=True).click()
    expect(page.locator("#for-club")).to_contain_text("the game counts in the club's record")
    for seat, name in enumerate(players, 1):
        page.fill(f"#seat{seat}", name)
    page.locator("label.choice", has=page.locator("input[value='deals']")).click()
    page.get_by_role("button", name="Start the table").click()
    for number, (winner, counts) in enumerate(deals, 1):
        page.get_by_role("link", name=f"Enter deal {number}", exact=True).click()
        page.select_option("#wild", "9")
        page.select_option("#winner", winner)
        page.fill(f"#p{players.index(winner)}_groups", DECLARATION)
        for name, count in counts.items():
            seat = players.index(name)
            page.select_option(f"#p{seat}_mode", "count")
            page.fill(f"#p{seat}_count", count)
        page.get_by_role("button", name=f"Save deal {number}").click()
        expect(page.locator(".flash")).to_contain_text("Deal saved")
    expect(page.locator("#board .result")).to_contain_text(f"Winner: {deals[0][0]}")
    page.locator("#club-of a").click()  # back to the club this phone opened
    expect(page.locator("h1")).to_have_text("Thursday Club")


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 360, "height": 740}], ids=["390", "360"])
def test_a_club_plays_two_games_and_shows_each_player_and_their_head_to_head(live_server, phone, size):
    page = phone(viewport=size).new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(live_server + "/")
    page.get_by_role("link", name="Start a club").click()
    page.fill("#name", "Thursday Club")
    page.get_by_role("button", name="Start the club").click()
    expect(page.locator("h1")).to_have_text("Thursday Club")
    expect(page.locator(".mode")).to_contain_text("Director's page")
    expect(page.locator("#play")).to_be_visible()

    play_from_the_club(page, ("Ann", "Ben", "Cat"), [("Ann", {"Ben": "30", "Cat": "50"}),
                                                      ("Ann", {"Ben": "20", "Cat": "10"})])
    play_from_the_club(page, ("ann", "Ben"), [("Ben", {"ann": "40"}), ("Ben", {"ann": "25"})])

    board = page.locator("#board-indian-rummy tbody tr")
    expect(board).to_have_count(3)  # "ann" was Ann: three players, not four
    rows = {board.nth(i).locator("th").inner_text(): board.nth(i).inner_text() for i in range(3)}
    assert re.search(r"\b2\s+1\s+50\s+1\.5\b", rows["Ann"]), rows["Ann"]  # played 2, won 1, 50%, average 1.5
    assert re.search(r"\b2\s+1\s+50\s+1\.5\b", rows["Ben"]), rows["Ben"]
    assert re.search(r"\b1\s+0\s+0\s+3\.0\b", rows["Cat"]), rows["Cat"]
    expect(page.locator("#tables li")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]  # nothing wider than the phone
    shot(page, f"club-{page.viewport_size['width']}.png")

    page.locator("#board-indian-rummy").get_by_role("link", name="Ann").click()
    expect(page.locator("h1")).to_have_text("Ann")
    expect(page.locator("#game-indian-rummy")).to_contain_text("Played2")
    meetings = page.locator("#head-to-head table[data-game='indian-rummy'] tbody tr")
    expect(meetings).to_have_count(2)
    expect(meetings.nth(0)).to_contain_text("Ben")
    assert meetings.nth(0).locator("td.num").all_inner_texts()[:3] == ["2", "1", "1"]
    assert meetings.nth(1).locator("td.num").all_inner_texts()[:3] == ["1", "1", "0"]
    expect(page.locator(".rating-chart svg")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    shot(page, f"club-player-{page.viewport_size['width']}.png")

    page.locator("#head-to-head").get_by_role("link", name="Ben").click()
    expect(page.locator("h1")).to_have_text("Ben")
    expect(page.locator("#head-to-head tbody tr").nth(0)).to_contain_text("Ann")
    page.locator("#head-to-head").get_by_role("link", name="Ann").click()
    expect(page.locator("h1")).to_have_text("Ann")
    assert errors == []


def stored_club(tmp_path) -> store.Club:
    """The season of tests/cases/club_season.toml, played straight into the live server's database."""
    from tests.test_clubs import SEASON, play

    conn = database.connect(str(tmp_path / "live.sqlite"))
    try:
        club = store.create_club(conn, "Thursday Club")
        for case in SEASON["game"]:
            play(conn, club, case)
        return club
    finally:
        conn.close()


def test_the_director_names_a_season_merges_two_spellings_and_corrects_a_name(live_server, phone, tmp_path):
    club = stored_club(tmp_path)
    page = phone(viewport={"width": 360, "height": 740}).new_page()
    page.goto(f"{live_server}/clubs/{club.id}?key={club.director_key}")
    expect(page.locator("#board-indian-rummy tbody tr")).to_have_count(5)  # Ann, Ben, Benjamin, Cat, Dan

    # A season whose end comes before its start: told beside the field, what was typed kept.
    page.locator("#season-tools summary").click()
    page.fill("#season_name", "Autumn")
    page.fill("#season_from", "2026-11-30")
    page.fill("#season_to", "2026-09-01")
    page.get_by_role("button", name="Add the season").click()
    expect(page.locator("#season_to-error")).to_have_text("a season ends on or after the day it starts")
    expect(page.locator("#season_name")).to_have_value("Autumn")
    # A season under way on the day the suite runs, whatever day that is.
    today = date.today()
    page.fill("#season_from", (today - timedelta(days=365)).isoformat())
    page.fill("#season_to", (today + timedelta(days=365)).isoformat())
    page.get_by_role("button", name="Add the season").click()
    expect(page.locator(".flash")).to_contain_text("Season Autumn added.")
    expect(page.locator(".season-picks [aria-current='page']")).to_have_text("Autumn")

    # Benjamin is Ben: merged, the leaderboard has one Ben with three games.
    page.locator("#roster summary", has_text="Merge").click()
    page.select_option("#keep", label="Ben")
    page.select_option("#drop", label="Benjamin")
    page.get_by_role("button", name="Merge").click()
    expect(page.locator(".flash")).to_contain_text("Merged")
    expect(page.locator("#board-indian-rummy tbody tr")).to_have_count(4)
    ben = page.locator("#board-indian-rummy tbody tr", has_text="Ben")
    expect(ben.locator("td.num").first).to_have_text("3")
    expect(page.locator("#recomputed")).to_contain_text("after Benjamin was merged into Ben")

    # Two Anns: the director tells them apart; a name already taken is refused beside the field.
    page.locator("#roster summary", has_text="Correct a name").click()
    page.select_option("#player", label="Ann")
    page.fill("#name", "cat")
    page.get_by_role("button", name="Save the name").click()
    taken = "Cat is already on the roster; merge the two if they are one person"
    expect(page.locator("#name-error")).to_have_text(taken)
    page.fill("#name", "Ann Smith")
    page.get_by_role("button", name="Save the name").click()
    expect(page.locator(".flash")).to_contain_text("Name corrected.")
    expect(page.locator("#roster")).to_contain_text("Ann Smith")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "club-director-360.png")
