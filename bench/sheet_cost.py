"""What a score sheet costs to draw against what Courtier estimates beforehand, for every game and size.

    .venv/bin/python bench/sheet_cost.py              # every game at 2 to 250 rounds, then its largest table
    .venv/bin/python bench/sheet_cost.py rummy-royal 9 55 100

Each game is made here round by round (:func:`game`), at any number of players its rules allow and any
number of rounds, with everyday, 40-letter or non-Latin names and, for the largest table the limits
allow, a 500-character note on every round. :func:`drawn_seconds` draws the sheet's HTML as the web does
(companion.paper.sheets.pdf_from_html) and counts the CPU time of the process that draws it
(``time.process_time``), the least of a few draws: a loaded machine slows the wall clock, not the CPU
time a drawing needs, though it still spoils a cache now and then. The estimate
(companion.paper.long_sheets.estimate_seconds) should be within 1.5 times of it either way.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import games  # noqa: E402
from companion.core import limits
from companion.paper import long_sheets, sheets

EVERYDAY = ["Margaret", "Jonathan", "Priya", "Tomás", "Ann", "Ben", "Cat", "Dan", "Eve"]
#: Forty letters each, the longest the limits allow (MAX_NAME_CHARS), with the spaces a real name has.
LONG = [f"{first} Fitzgerald-Okonkwo of Kildare"[:40].ljust(40, "x") for first in
        ("Anne-Marie", "Bartholomew", "Cassiopeia", "Demetrius", "Evangeline", "Ferdinand", "Gwendolyn",
         "Hieronymus", "Isadora")]
SCRIPTS = ["Łukasz Żółć", "Νικόλαος", "Дмитрий", "محمد الأحمد", "נועה כהן", "山田 美咲", "अर्जुन शर्मा",
           "கார்த்திக்", "สมชาย ใจดี"]
NAMES = {"everyday": EVERYDAY, "long": LONG, "scripts": SCRIPTS}
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["S", "H", "D", "C"]
#: AR-1: 2 to 8 once, 9 to Ace three times, in each of the four suits.
ROYALS_PACK = [rank + suit for suit in SUITS for rank in RANKS for _ in range(3 if RANKS.index(rank) >= 7 else 1)]
WORDS = ["Cr Ar Lr Mr", "Pb Eb Ab Lb", "Mr Ar Cr Er", "Pb Ab Rb Kb", "Cr Ar Pr Er Rr", "Ab Lb Eb"]
#: A note as long as the limits allow (MAX_NOTE_CHARS), in words.
NOTE = ("Spilled a drink on the table, the cards were dried and the deal went on as it stood; " * 8)[:500]


def _royals(players: list[str], rounds: int, rng: random.Random) -> list[dict[str, Any]]:
    """Each round dealt afresh from the pack: a House each (a different suit), Spoils, Meld and Hand."""
    out = []
    for _ in range(rounds):
        cards = rng.sample(ROYALS_PACK, len(ROYALS_PACK))
        boards = {}
        for player, house in zip(players, rng.sample(SUITS, len(players)), strict=True):
            board: dict[str, Any] = {"house": house}
            for zone, (least, most) in (("spoils", (5, 9)), ("meld", (0, 6)), ("hand", (0, 4))):
                n = rng.randint(least, most)
                board[zone], cards = cards[:n], cards[n:]
            boards[player] = board
        out.append({"players": boards})
    return out


def _indian_rummy(players: list[str], rounds: int, rng: random.Random) -> list[dict[str, Any]]:
    """Every deal dealt afresh: half the losers' hands entered as 13 cards, the rest as groups, a count or a drop."""
    decks = games.ENGINES["indian-rummy"].decks_for(len(players))
    ranks = ["A", *RANKS[:-1]]
    out = []
    for deal in range(rounds):
        cards = [rank + suit for _ in range(decks) for suit in SUITS for rank in ranks] + ["JK"] * decks
        rng.shuffle(cards)
        winner = players[deal % len(players)]
        hands: dict[str, Any] = {}
        for player in players:
            if player == winner:
                continue
            hand, cards = cards[:13], cards[13:]
            kind = rng.choice(["cards", "cards", "cards", "count", "drop", "groups"])
            hands[player] = {"cards": {"cards": hand}, "groups": {"groups": [hand[:3], hand[3:6]], "loose": hand[6:]},
                             "count": {"count": rng.randint(0, 120)},
                             "drop": {"drop": rng.choice(["first", "middle"])}}[kind]
        out.append({"wild": rng.choice(ranks), "winner": winner, "hands": hands})
    return out


def _rummy_royal(players: list[str], rounds: int, rng: random.Random) -> list[dict[str, Any]]:
    """Every deal paid out: the pay cards, a sequence, the poker stage's bets and winners, the cards left."""
    out = []
    n = len(players)
    for i in range(rounds):
        staying = rng.sample(players, rng.randint(2, n))
        out.append({"pay_cards": {card: rng.choice([None, *players]) for card in ("10H", "JH", "QH", "KH", "AH")},
                    "sequence": rng.sample(players, rng.randint(0, min(3, n))),
                    "poker": {"bets": {p: rng.randint(0, 3) for p in players},
                              "folded": [p for p in players if p not in staying],
                              "winners": rng.sample(staying, 1)},
                    "out": players[(i + 3) % n],
                    "cards_left": {p: rng.randint(0, 12) for p in players if p != players[(i + 3) % n]}})
    return out


def _rally_the_king(players: list[str], rounds: int, rng: random.Random) -> list[dict[str, Any]]:
    return [{"dealer": players[i % 4], "bid": "solo", "declarer": players[(i + 1) % 4],
             "declarer_points": rng.randint(40, 90),
             "bonuses": [{"bonus": "sparrow", "side": "declarer", "announced": False, "made": rng.random() < 0.7}]}
            for i in range(rounds)]


def _rummathon(players: list[str], rounds: int, rng: random.Random) -> list[dict[str, Any]]:
    n = len(players)
    return [{"out": players[i % n],
             "left": {p: {"low": rng.randint(0, 4), "high": rng.randint(0, 2), "flex": rng.randint(0, 1)}
                      for p in players if p != players[i % n]},
             "burdens": [{"on": players[(i + 1) % n], "by": players[(i + 2) % n], "completed": False}]}
            for i in range(rounds)]


def _royalty(players: list[str], rounds: int, rng: random.Random) -> list[dict[str, Any]]:
    return [{"player": players[i % len(players)], "meld": rng.choice(WORDS)} for i in range(rounds)]


MAKERS = {"alliance-royals": _royals, "battle-royals": _royals, "marriage-royals": _royals,
          "indian-rummy": _indian_rummy, "rummy-royal": _rummy_royal, "rally-the-king": _rally_the_king,
          "rummathon-royale": _rummathon, "royalty": _royalty}
#: Options that keep a game going for as many rounds as it is asked for.
ENDLESS = {"alliance-royals": {"win_above": 100_000, "lose_below": -100_000},
           "battle-royals": {"win_above": 100_000, "lose_below": -100_000},
           "marriage-royals": {"win_above": 100_000, "lose_below": -100_000},
           "indian-rummy": {"variant": "points"}, "rummy-royal": {"chips": 100_000}, "royalty": {},
           "rummathon-royale": {"schedule": "all"}}


def most_rounds(slug: str, players: int) -> int:
    """The most rounds a game of ``slug`` at ``players`` can have: the limits' MAX_ROUNDS, Rally the King's 100
    hands (RK-10), and in Rummathon Royale the hands before someone completes the twelfth round (RR-5)."""
    if slug == "rally-the-king":
        return 100
    if slug == "rummathon-royale":
        return 11 * players + 1
    return limits.get("MAX_ROUNDS")


def game(slug: str, players: int | None = None, rounds: int = 4, names: str = "everyday", *,
         notes: bool = False, seed: int = 4) -> dict[str, Any]:
    """``rounds`` rounds of ``slug`` at ``players`` (the game's fixed number, or up to its most) as an API
    request, named from :data:`NAMES` (``everyday``, ``long`` or ``scripts``); with ``notes``, a note as long
    as the limits allow on every round. A game that cannot last so long is as long as it can be
    (:func:`most_rounds`)."""
    engine = games.ENGINES[slug]
    count = players or min(max(engine.MIN_PLAYERS, 4), engine.MAX_PLAYERS)
    who = NAMES[names][:count]
    rounds = min(rounds, most_rounds(slug, count))
    rng = random.Random(f"{slug}-{count}-{rounds}-{seed}")
    made = MAKERS[slug](who, rounds, rng)
    if notes:
        made = [dict(r, note=NOTE) for r in made]
    options = {"hands": rounds} if slug == "rally-the-king" else dict(ENDLESS.get(slug, {}))
    request = {"game": slug, "players": who, "options": options, "rounds": made}
    games.score(request)  # a valid game, or InputError here
    return request


def sheet_html(request: dict[str, Any], paper: str = "A4", budget: float | None = None) -> str:
    """The sheet's HTML as the web makes it (the compact layout chosen by the estimate)."""
    return sheets.html_for_filled(games.score(request), "Club night", "2025-11-21", request.get("options"), None,
                                  paper, rounds=request["rounds"], budget=budget)


def drawn_seconds(html: str, samples: int = 3) -> float:
    """The CPU seconds this process takes to draw ``html`` to PDF: the least of ``samples`` draws."""
    sheets.pdf_from_html("<p>warm</p>")  # the thread's fonts found once, as in a worker that has drawn before
    best = float("inf")
    for _ in range(samples):
        start = time.process_time()
        sheets.pdf_from_html(html)
        best = min(best, time.process_time() - start)
    return best


def measure(slug: str, players: int | None, rounds: int, names: str = "everyday", paper: str = "A4",
            samples: int = 3, notes: bool = False) -> tuple[float, float]:
    """(estimated, drawn) CPU seconds of one sheet."""
    html = sheet_html(game(slug, players, rounds, names, notes=notes), paper)
    return long_sheets.estimate_seconds(html), drawn_seconds(html, samples)


#: The sizes the bench draws each game at (rounds; a game that cannot last so long is as long as it can be).
SIZES = (2, 5, 12, 30, 60, 120, 250)


def largest(slug: str) -> dict[str, Any]:
    """The largest table of ``slug`` the limits allow: the most players and rounds, 40-letter names and a
    500-character note on every round."""
    engine = games.ENGINES[slug]
    return game(slug, engine.MAX_PLAYERS, limits.get("MAX_ROUNDS"), "long", notes=True)


def main(argv: list[str]) -> None:
    """Print each sheet's estimate against its drawing, then what the largest table of each game comes to."""
    if argv:
        slug, players, *sizes = argv
        cases = [(slug, int(players), int(r)) for r in sizes]
    else:
        cases = [(slug, games.ENGINES[slug].MAX_PLAYERS, r) for slug in sorted(games.ENGINES) for r in SIZES]
    ratios = []
    for slug, players, rounds in cases:
        estimated, drawn = measure(slug, players, rounds)
        ratios.append(estimated / drawn)
        print(f"{slug:17} {players} players {rounds:4} rounds: estimated {estimated:5.2f} s, drawn {drawn:5.2f} s "
              f"of CPU, estimate/drawn {estimated / drawn:.2f}", flush=True)
    print(f"estimate/drawn from {min(ratios):.2f} to {max(ratios):.2f} (target 0.67 to 1.5)")
    budget = limits.get("SHEET_SECONDS")
    for slug in sorted(games.ENGINES):
        request = largest(slug)
        try:
            html = sheet_html(request, budget=budget)
        except long_sheets.SheetTooLong as refused:
            print(f"largest {slug} ({len(request['rounds'])} rounds): refused before drawing, estimated "
                  f"{refused.seconds:.0f} s: {refused.message}")
        else:
            estimated = long_sheets.estimate_seconds(html)
            print(f"largest {slug} ({len(request['rounds'])} rounds): estimated {estimated:.1f} s, drawn "
                  f"{drawn_seconds(html, 1):.1f} s (budget {budget} s)")


if __name__ == "__main__":
    main(sys.argv[1:])
