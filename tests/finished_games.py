"""Finished games of each kind, taken from the case books (games worked by hand), for the
pages and browser tests that need a whole game on a table: the longest finished case of
each book, and a six-player game played to its end."""

from __future__ import annotations

from typing import Any

from companion import games
from tests import casebook

BOOKS = {"alliance-royals": ("alliance_royals.toml", "rounds"), "indian-rummy": ("indian_rummy.toml", "rounds"),
         "rally-the-king": ("rally_the_king.toml", "rounds"), "royalty": ("royalty.toml", "rounds"),
         "rummathon-royale": ("rummathon_royale.toml", "hands")}


def finished(slug: str) -> dict[str, Any]:
    """The finished case with the most rounds in ``slug``'s book, as an API request."""
    book, key = BOOKS[slug]
    cases = [c for c in casebook.load(book)["case"] if c.get("over") is True and c.get(key)]
    case = max(cases, key=lambda c: (len(c["players"]), len(c[key])))
    return {"game": slug, "players": case["players"], "options": case.get("options", {}), "rounds": case[key]}


def six_players() -> dict[str, Any]:
    """Rummathon Royale for six, on the half schedule, played until Ann has finished her rounds."""
    players = ["Annabelle", "Bartholomew", "Cat", "Dan", "Eve", "Fay"]
    request = {"game": "rummathon-royale", "players": players, "options": {"schedule": "half"}, "rounds": []}
    n = 0
    while not games.score(request).over:
        out = players[(n * 5) % 6] if n % 3 else "Annabelle"
        left = {p: {"low": (n + i) % 3 + 1} for i, p in enumerate(players) if p != out}
        hand: dict[str, Any] = {"out": out, "left": left}
        if out == "Annabelle":
            hand["progress"] = {"Annabelle": "completed"}
        request["rounds"].append(hand)
        n += 1
    return request


def all_finished() -> dict[str, dict[str, Any]]:
    out = {slug: finished(slug) for slug in BOOKS}
    out["six-players"] = six_players()
    return out
