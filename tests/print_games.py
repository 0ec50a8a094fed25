"""Games to print: four rounds of each game as a club table plays them, with everyday names.

Rally the King, Indian Rummy, Royalty, Rummathon Royale and Rummy Royal take the first rounds of the
bench's thirty-round games (bench/run.py, each round different); the Royals games deal every round
afresh from their pack (AR-1), so that no round's why repeats another's.
"""

from __future__ import annotations

import importlib.util
import random
from functools import cache
from pathlib import Path
from typing import Any

from companion import games

from .test_print_matrix import game_of, renamed

#: Names a club's players have: a few longer, one with an accent.
EVERYDAY = ["Margaret", "Jonathan", "Priya", "Tomás", "Ann", "Ben", "Cat", "Dan", "Eve"]
#: AR-1: 2 to 8 once, 9 to Ace three times, in each of the four suits.
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["S", "H", "D", "C"]
PACK = [rank + suit for suit in SUITS for rank in RANKS for _ in range(3 if RANKS.index(rank) >= 7 else 1)]


def royals_round(rng: random.Random, players: list[str]) -> dict[str, Any]:
    """A round dealt from one pack: each player's House (each a different suit), Spoils, Meld and Hand."""
    cards = rng.sample(PACK, len(PACK))
    houses = rng.sample(SUITS, len(players))
    boards = {}
    for player, house in zip(players, houses, strict=True):
        board: dict[str, Any] = {"house": house}
        for zone, (least, most) in (("spoils", (5, 9)), ("meld", (0, 6)), ("hand", (0, 4))):
            n = rng.randint(least, most)
            board[zone], cards = cards[:n], cards[n:]
        boards[player] = board
    return {"players": boards}


def everyday_game(slug: str, rounds: int = 4, seed: int = 4) -> dict[str, Any]:
    """``rounds`` rounds of ``slug`` as an API request, its players named from :data:`EVERYDAY`."""
    game = game_of(slug, rounds)
    if slug in ("alliance-royals", "battle-royals", "marriage-royals"):
        rng = random.Random(f"{slug}-{seed}")
        game = dict(game, options={}, rounds=[royals_round(rng, game["players"]) for _ in range(rounds)])
    request = renamed(game, EVERYDAY[:len(game["players"])])
    games.score(request)  # a valid game, or InputError here
    return request


@cache
def sheet_cost():
    """bench/sheet_cost.py: games of any game at any size and names, and what their sheets cost to draw."""
    path = Path(__file__).resolve().parent.parent / "bench" / "sheet_cost.py"
    spec = importlib.util.spec_from_file_location("sheet_cost", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
