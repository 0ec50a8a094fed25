"""A club night on the director's phone.

Pool 101 Indian Rummy, nine players over three rounds of round-robin tables of three. The
rotation seats round 1: Ann Ben Cat | Dan Eve Fay | Gus Hal Ivy; round 2: Ann Dan Gus | Ben Eve
Hal | Cat Fay Ivy; round 3: Ann Eve Ivy | Ben Fay Gus | Cat Dan Hal.

At every finished table the first seat declares twice (0), the second counts 80 and 80 (160),
the third 60 and 50 (110): both are out at 101 or more (IR-9) and the first seat wins. Places
by the lowest count: 2, 1, 0 match points; the average is 90, so the score differences are
+90, −20 (third seat) and −70 (second seat).
Round 3, table 3 (Cat, Dan, Hal) plays one deal, Cat declares, Dan 80, Hal 30, and the director
calls time: it counts as it stands, Cat 2 (+36⅔), Hal 1 (+6⅔), Dan 0 (−43⅓).

Final standings, worked by hand:
  Ann 6 (+270), Cat 5 (+106⅔), Ben 4 (+110), Gus 4 (+50), Ivy 3 (−60), Dan 2 (−23⅓),
  Hal 2 (−83⅓), Fay 1 (−160), Eve 0 (−210).
(Ben: 0 + 2 + 2 with −70 + 90 + 90; Gus 2 + 1 + 1 with 90 − 20 − 20; Cat 1 + 2 + 2 with
−20 + 90 + 36⅔.) Ben is above Gus on score difference, both on 4.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy")
DECLARATION = "AH 2H 3H | 5S 6S 7D 8S | QC QD QS | 9H 10H JH"
SHOTS = Path("/tmp/club")
# Differences show to one decimal (standings.show_difference): 106⅔ reads 106.7.
FINAL = [("1", "Ann", "6", "+270"), ("2", "Cat", "5", "+106.7"), ("3", "Ben", "4", "+110"), ("4", "Gus", "4", "+50"),
         ("5", "Ivy", "3", "−60"), ("6", "Dan", "2", "−23.3"), ("7", "Hal", "2", "−83.3"), ("8", "Fay", "1", "−160"),
         ("9", "Eve", "0", "−210")]


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def create(page: Page, base: str, game: str, players, rounds: str, options=None, table_size=None) -> str:
    page.goto(base + "/")
    page.get_by_role("link", name="Run a tournament").click()
    page.locator(".game-list").get_by_role("link", name=game, exact=True).click()
    page.fill("#title", "Friday club")
    page.fill("#entrants", "\n".join(players))
    page.fill("#rounds", rounds)
    if table_size:
        page.fill("#table_min", table_size)
        page.fill("#table_max", table_size)
    for name, value in (options or {}).items():
        page.check(f"input[name='{name}'][value='{value}']")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.get_by_role("heading", name="Director")).to_be_visible()
    return page.url


def seat(page: Page, number: int) -> None:
    page.get_by_text(f"Seat round {number}…").click()
    page.get_by_role("button", name=f"Yes, seat round {number}").click()
    expect(page.locator(".flash")).to_contain_text(f"Round {number} seated")


def open_table(page: Page, director: str, round_number: int, table: int) -> None:
    page.goto(director)
    page.locator("details.table-links summary").click()
    page.get_by_role("link", name=f"Round {round_number}, table {table}", exact=True).click()


def deal(page: Page, number: int, winner: str, counts: tuple[int, int]) -> None:
    page.get_by_role("link", name=f"Enter deal {number}", exact=True).click()
    page.select_option("#wild", "7")
    page.select_option("#winner", winner)
    page.fill("#p0_groups", DECLARATION)
    for i, count in enumerate(counts, 1):
        page.select_option(f"#p{i}_mode", "count")
        page.fill(f"#p{i}_count", str(count))
    page.get_by_role("button", name=f"Save deal {number}").click()
    expect(page.locator(".flash")).to_contain_text("Deal saved")


def standings(page: Page) -> list[tuple[str, str, str, str]]:
    rows = page.locator("#board table.standings tbody tr")
    out = []
    for i in range(rows.count()):
        row = rows.nth(i)
        out.append((row.locator("td").first.inner_text(), row.locator("th").inner_text(),
                    row.locator("td.total").inner_text(), row.locator("td").last.inner_text()))
    return out


def test_a_pool_101_night_of_nine_players_to_final_standings_with_time_called(live_server, phone):
    page = phone().new_page()
    page.set_viewport_size({"width": 360, "height": 740})  # the smaller phone; the Rally night plays at 390
    director = create(page, live_server, "Indian Rummy", PLAYERS, "3", {"opt-variant": "pool101"}, "3")
    seating = {1: ["Ann", "Dan", "Gus"], 2: ["Ann", "Ben", "Cat"], 3: ["Ann", "Ben", "Cat"]}
    for rnd in (1, 2, 3):
        if rnd == 1:  # a double tap on the confirmation seats the round once
            page.get_by_text("Seat round 1…").click()
            page.get_by_role("button", name="Yes, seat round 1").dblclick()
            expect(page.get_by_text("Seat round 2…")).to_be_visible()
            expect(page.locator(".round-status")).to_have_text(re.compile(r"^\s*Round 1: 0 of 3 tables finished"))
        else:
            seat(page, rnd)
        for table in (1, 2, 3):
            first = seating[rnd][table - 1]
            open_table(page, director, rnd, table)
            if rnd == 3 and table == 3:
                deal(page, 1, first, (80, 30))
                continue
            deal(page, 1, first, (80, 60))
            deal(page, 2, first, (80, 50))
            expect(page.locator(".result")).to_contain_text(f"Winner: {first}")
        page.goto(director)
        if rnd == 1:
            expect(page.locator(".round-status")).to_contain_text("Round 1: 3 of 3 tables finished")
            shot(page, "ir-director-round1-360")

    page.goto(director)
    expect(page.locator(".round-status")).to_contain_text("Round 3: 2 of 3 tables finished, 1 playing")
    expect(page.locator(".final-banner")).to_have_count(0)
    page.get_by_text("Call time on round 3…").click()
    expect(page.locator("details.confirm[open]")).to_contain_text("lowest count first (IR-9)")
    page.get_by_role("button", name="Call time on round 3").click()
    expect(page.locator(".flash")).to_contain_text("Time called on round 3")
    banner = page.locator(".final-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("1st: Ann")
    expect(banner).to_contain_text("2nd: Cat")
    expect(banner).to_contain_text("Ben is above Gus: level on match points, ahead on score difference.")
    expect(banner).to_contain_text("No two entrants are level on both")
    assert standings(page) == FINAL
    # The standings come before the director's controls; the tables' links are folded away.
    board_top = page.locator("#board").bounding_box()["y"]
    assert board_top < page.get_by_role("heading", name="Director").bounding_box()["y"]
    expect(page.locator("details.table-links")).not_to_have_attribute("open", "")
    expect(page.locator("#board")).to_contain_text("time called")
    expect(page.get_by_label("Standings link")).to_have_value(re.compile(r"/tournaments/[\w-]+$"))
    expect(page.get_by_alt_text("QR code of the standings link")).to_be_visible()
    # Nothing wider than the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "ir-director-final-360")

    # The standings link, as a player sees it: the same table, no director's controls.
    page.goto(page.get_by_label("Standings link").input_value())
    expect(page.get_by_role("heading", name="Director")).to_have_count(0)
    assert standings(page) == FINAL
    shot(page, "ir-standings-360")


def test_a_rally_the_king_night_with_a_seating_undone(live_server, phone):
    page = phone().new_page()
    players = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
    director = create(page, live_server, "Rally the King", players, "2")
    seat(page, 1)
    first_links = page.locator("details.table-links a").evaluate_all("links => links.map(a => a.href)")
    # Undo: the seating goes, and round 1 can be seated again (three taps in a row, each one works).
    for _ in range(3):
        page.get_by_role("button", name="Undo the seating of round 1").click()
        expect(page.locator(".flash")).to_contain_text("Round 1's seating is undone: its 2 tables are gone.")
        expect(page.get_by_text("Seat round 1…")).to_be_visible()
        expect(page.locator(".round-status")).to_have_count(0)
        seat(page, 1)
    assert page.goto(first_links[0]).status == 404  # the undone tables are gone
    # A hand at table 1: the seating can no longer be undone.
    open_table(page, director, 1, 1)
    page.get_by_role("link", name="Enter hand 1", exact=True).click()
    expect(page.locator("#dealer")).to_be_visible()
    names = page.locator("#dealer option").evaluate_all("options => options.map(o => o.value)")
    page.select_option("#bid", "solo")
    page.select_option("#declarer", names[-1])
    for kind, n in {"honours": 3, "kings": 4, "queens": 2, "cavaliers": 2, "valets": 1, "others": 12,
                    "tricks": 8}.items():
        page.fill(f"#c_{kind}", str(n))
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".flash")).to_contain_text("Hand saved")
    page.goto(director)
    expect(page.get_by_role("button", name="Undo the seating of round 1")).to_have_count(0)
    expect(page.locator(".round-status")).to_contain_text("Round 1: 0 of 2 tables finished, 2 playing")
    # Seating round 2 now asks first, saying round 1 is still playing.
    page.get_by_text("Seat round 2…").click()
    expect(page.locator("details.confirm[open] .warning")).to_contain_text("Round 1 still has 2 tables playing")
    shot(page, "rk-director-confirm")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
