"""What many browser tests do as a player would: start a table from the home page, pick cards from the
grid, enter a Royals round's boards, and read the totals and the chip stacks off the board."""

from __future__ import annotations

from collections.abc import Mapping

from playwright.sync_api import Page, expect

#: What each game calls a round: the link to the first one's form is "Enter <noun> 1".
NOUNS = {"Alliance Royals": "round", "Battle Royals": "round", "Marriage Royals": "round", "Indian Rummy": "deal",
         "Rummy Royal": "deal", "Rally the King": "hand", "Rummathon Royale": "hand", "Royalty": "turn"}


def start(page: Page, base: str, game: str, players: tuple[str, ...], **options: str) -> None:
    """A new table as a player starts one: the game's link on the home page, the names seat by seat, each
    option's choice, then Start the table; done when the link to the first round's form shows."""
    page.goto(base + "/")
    page.get_by_role("link", name=game, exact=True).click()
    for seat, name in enumerate(players, 1):
        page.fill(f"#seat{seat}", name)
    for name, value in options.items():
        page.check(f"input[name='opt-{name}'][value='{value}']")
    page.get_by_role("button", name="Start the table").click()
    expect(page.get_by_role("link", name=f"Enter {NOUNS[game]} 1", exact=True)).to_be_visible()


def pick(page: Page, field: str, cards: str) -> None:
    """Enter cards through the picker: Pick, then one tap on the card grid for each card (AR-1)."""
    page.click(f"[data-pick='{field}']")
    picker = page.locator(".picker")
    expect(picker).to_be_visible()
    for card in cards.split():
        picker.locator(f"[data-grid-card='{card}']").click()
    picker.locator("[data-picker-close]").click()
    expect(page.locator(f"#{field}")).to_have_value(cards)


def enter_boards(page: Page, number: int, houses: Mapping[str, str], boards: Mapping[str, Mapping[str, str]],
                 picked: bool = True) -> None:
    """A round of a Royals game saved: each player's House (chosen in round 1, carried over after) and the cards
    of their boards, picked from the grid or typed."""
    page.get_by_role("link", name=f"Enter round {number}", exact=True).click()
    expect(page.locator("h1")).to_have_text(f"Enter round {number}")
    for i, (name, house) in enumerate(houses.items()):
        radio = page.locator(f"input[name='p{i}_house'][value='{house}']")
        if number == 1:
            page.locator("label.seg", has=radio).click()  # the radio is drawn as a big button around it
            expect(radio).to_be_checked()
        else:
            expect(radio).to_be_checked()  # the House carries over from the round before
        for zone, cards in boards.get(name, {}).items():
            if picked:
                pick(page, f"p{i}_{zone}", cards)
            else:
                page.fill(f"#p{i}_{zone}", cards)
    page.get_by_role("button", name=f"Save round {number}").click()
    expect(page.locator(".flash")).to_contain_text("Round saved")


def totals(page: Page) -> dict[str, str]:
    """Each player's total as the board's standings show it."""
    rows = page.locator("#board .standings tbody tr")
    return {rows.nth(i).locator("th").inner_text(): rows.nth(i).locator("td.total").inner_text()
            for i in range(rows.count())}


def stacks(page: Page) -> dict[str, str]:
    """Each player's chips as Rummy Royal's board shows them."""
    rows = page.locator("#board .stacks tbody tr")
    return {rows.nth(i).get_attribute("data-player"): rows.nth(i).locator("td.total").inner_text()
            for i in range(rows.count())}
