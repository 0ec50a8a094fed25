"""The score pad: a scored game laid out as players keep it on paper.

One row per round (hand, deal, turn), one column per player -- or per side where
the game is played by sides (Alliance Royals' Alliances, Royalty's coalitions) --
each cell the round's points and the running total after it; the leader after
each round; who dealt (or whose turn it was) and who deals next; and how far each
column is from the game's end. Pure: the scored game in, plain data out.

The running totals are the engine's own (as ``sheets`` reads them), so a grid cell
never disagrees with the scored game or the printed sheet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core import messages
from ..core.messages import joined as one_after_another
from ..core.messages import say, say_n
from ..games.base import ScoredGame, signed
from .sheets import _running as player_running  # the engine's running totals, as the sheet prints them
from .sheets import _side_running as side_running

#: What a side is called in the games played by sides.
SIDE_WORD = {"alliance-royals": "Alliance", "royalty": "Coalition"}
#: Games where the lower total is the better one (pool rummy counts towards elimination).
#: Games whose hands name their dealer (RK-10, RM-3): the grid follows the named dealer.
NAMED_DEALER = {"rally-the-king", "rummy-royal"}
LOW_WINS_VARIANTS = {("indian-rummy", "pool101"), ("indian-rummy", "pool201")}


@dataclass(frozen=True)
class Cell:
    points: int
    total: int
    lead: bool
    #: The player was not at the table yet (seated late, ``joined``): the cell is left empty.
    blank: bool = False

    @property
    def points_text(self) -> str:
        return signed(self.points)

    @property
    def total_text(self) -> str:
        return signed(self.total).replace("+", "") if self.total >= 0 else signed(self.total)


@dataclass(frozen=True)
class Row:
    n: int
    cells: tuple[Cell, ...]
    #: Who dealt this round, or whose turn it was; None when the game does not say.
    dealer: str | None


@dataclass(frozen=True)
class Grid:
    #: The columns' keys: the players' names, or the sides' keys (as the scored game's ``sides``).
    columns: tuple[str, ...]
    #: Their headings: a player's name, or "Alliance A" / "Coalition A".
    labels: tuple[str, ...]
    members: tuple[tuple[str, ...], ...]
    rows: tuple[Row, ...]
    totals: tuple[int, ...]
    #: The columns leading now (the winners' once the game is over).
    leaders: tuple[bool, ...]
    #: Each column's distance to the game's end, in words ("" when there is none to say).
    distance: tuple[str, ...]
    #: What "dealer" means in this game: "deals" or "plays".
    dealer_word: str
    next_dealer: str | None
    over: bool
    note: str = ""
    by_sides: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


#: "joins at hand 3": a player seated late, before their first round.
JOINS_AT = {"round": lambda n: say("joins at round {number}", number=n),
            "hand": lambda n: say("joins at hand {number}", number=n),
            "deal": lambda n: say("joins at deal {number}", number=n),
            "turn": lambda n: say("joins at turn {number}", number=n)}


def side_label(game: str, side: str) -> str:
    """A side's heading, "Alliance A" or "Coalition A", in the reader's language."""
    if game == "alliance-royals":
        return say("Alliance {side}", side=side)
    if game == "royalty":
        return say("Coalition {side}", side=side)
    return say("Side {side}", side=side)


def round_word(game: str) -> str:
    """What the game calls a round (hand, deal, turn), from its engine."""
    from .. import games

    return getattr(games.ENGINES.get(game), "ROUND_NAME", "round")


def _best(values: Sequence[int], low_wins: bool) -> list[bool]:
    """Which of the values lead; nobody leads while all are equal (the start of a game)."""
    if not values or len(set(values)) == 1:
        return [False] * len(values)
    best = min(values) if low_wins else max(values)
    return [v == best for v in values]


def _dealers(game: str, players: Sequence[str], data: Mapping[str, Any], raw_rounds: Sequence[Any]
             ) -> tuple[list[str | None], str | None, str]:
    """Who dealt each round (or whose turn it was), who deals next, and the verb for it."""
    rounds = data["rounds"]
    standing = data.get("standing") or {}
    if game == "royalty":
        # A turn belongs to one player; the engine says whose turn is next (RY-9).
        who = [(raw.get("player") if isinstance(raw, Mapping) else None) for raw in raw_rounds]
        who += [None] * (len(rounds) - len(who))
        return who, standing.get("next"), "plays"
    if game in NAMED_DEALER:
        # A hand that names its dealer (RK-10, RM-3) is followed; the engine says who deals next.
        who = [(r.get("detail") or {}).get("dealer") or (r.get("detail") or {}).get("expected_dealer")
               for r in rounds]
        upcoming = standing.get("next_dealer")
        if upcoming is None and not data.get("over"):  # nobody has dealt yet: the first seat deals
            upcoming = players[len(rounds) % len(players)] if not any(who) else None
        return who, upcoming, "deals"
    # The other games: the first seat deals first and the deal passes left, to the next seat in the
    # list; a player seated late (``joined``) takes their turn from the hand they join at.
    order = passing_left(players, data.get("joined") or {}, len(rounds) + 1)
    return order[:-1], None if data.get("over") else order[-1], "deals"


def passing_left(players: Sequence[str], joined: Mapping[str, int], hands: int) -> list[str]:
    """Who deals each of the first ``hands`` hands: the first seat, then the next seat in the list
    (the player on the dealer's left), skipping a player not yet seated (``joined``: their first hand).

    >>> passing_left(["Ann", "Ben", "Cat"], {}, 4)
    ['Ann', 'Ben', 'Cat', 'Ann']
    >>> passing_left(["Ann", "Ben", "Cat", "Eve"], {"Eve": 3}, 6)
    ['Ann', 'Ben', 'Cat', 'Eve', 'Ann', 'Ben']
    >>> passing_left(["Ann", "Ben", "Eve"], {"Eve": 4}, 5)
    ['Ann', 'Ben', 'Ann', 'Ben', 'Eve']
    """
    out: list[str] = []
    for n in range(1, hands + 1):
        seated = [p for p in players if joined.get(p, 1) <= n] or list(players)
        if not out:
            out.append(seated[0])
            continue
        i = players.index(out[-1])
        out.append(next(p for p in [*players[i + 1:], *players[:i + 1]] if p in seated))
    return out


def _distance(game: str, data: Mapping[str, Any], columns: Sequence[str], by_sides: bool) -> tuple[list[str], str]:
    """Each column's distance to the end, and a note for the whole game; nothing once it is over."""
    opts = data.get("options") or {}
    standing = data.get("standing") or {}
    blank = [""] * len(columns)
    if data.get("over"):
        return blank, ""
    if game == "alliance-royals":  # AR-12
        win, lose = opts.get("win_above", 1066), opts.get("lose_below", -333)
        if messages.language() == messages.ENGLISH:  # as the pad has always written them: -333, a hyphen
            win, lose = str(win), str(lose)
        out = []
        for side in columns:
            s = standing.get(side) or {}
            out.append(one_after_another([say("{count} to pass {bound}", count=s.get("to_win", 0), bound=win),
                                          say("{count} to fall below {bound}", count=s.get("to_lose", 0),
                                              bound=lose)], " · "))
        return out, say("The game ends after a round in which an Alliance passes {above} or falls below {below} "
                        "(AR-12).", above=win, below=lose)
    if game == "rally-the-king":  # RK-10
        left = standing.get("hands_left", 0)
        return blank, say_n("{count} hand left (RK-10).", "{count} hands left (RK-10).", left)
    if game == "indian-rummy":
        variant = opts.get("variant", "points")
        if variant in ("pool101", "pool201"):  # IR-9
            by_player = standing.get("players") or {}
            out = [say("out") if (by_player.get(p) or {}).get("out")
                   else say("{count} to go", count=(by_player.get(p) or {}).get("to_out")) for p in columns]
            return out, say("Out at {score} or more (IR-9).", score=standing.get("out_at"))
        if variant == "deals":  # IR-10
            left = standing.get("left", 0)
            return blank, say_n("{count} deal left (IR-10).", "{count} deals left (IR-10).", left)
        return blank, ""
    if game == "rummathon-royale":  # RR-4
        out = []
        for p in columns:
            s = standing.get(p) or {}
            out.append(say("finished") if s.get("finished")
                       else say("round {number}", number=s.get("round")) if s.get("round") else "")
        return out, say("The first to finish the last round ends the game (RR-6).")
    if game == "royalty" and "plays_left" in standing:  # RY-15
        left = standing["plays_left"]
        return blank, say_n("{count} play left (RY-15).", "{count} plays left (RY-15).", left)
    return blank, ""


def build(scored: ScoredGame | Mapping[str, Any], raw_rounds: Sequence[Any] = ()) -> Grid:
    """The grid of a scored game; ``raw_rounds`` are the rounds as entered (for whose turn it was)."""
    data = scored.as_json() if isinstance(scored, ScoredGame) else scored
    game = data["game"]
    players = list(data["players"])
    sides = data.get("sides") or {}
    by_sides = bool(sides)
    variant = (data.get("options") or {}).get("variant")
    low_wins = (game, variant) in LOW_WINS_VARIANTS
    if by_sides:
        columns = list(sides)
        members = [tuple(sides[s]) for s in columns]
        totals_after = side_running(data)
        points = [[(r.get("side_points") or {}).get(s, 0) for s in columns] for r in data["rounds"]]
        final = [(data.get("side_totals") or {}).get(s, 0) for s in columns]
    else:
        columns = players
        members = [(p,) for p in players]
        totals_after = player_running(data)
        points = [[r["points"].get(p, 0) for p in columns] for r in data["rounds"]]
        final = [data["totals"][p] for p in columns]
    dealers, next_dealer, verb = _dealers(game, players, data, list(raw_rounds))
    joined = {} if by_sides else (data.get("joined") or {})
    rows = []
    for i, after in enumerate(totals_after):
        seated = [joined.get(c, 1) <= i + 1 for c in columns]
        totals = [after[c] for c in columns]
        lead = _best([t for t, s in zip(totals, seated, strict=True) if s], low_wins)
        lead_of = iter(lead)
        cells = tuple(Cell(pt, tot, next(lead_of)) if s else Cell(pt, tot, False, blank=True)
                      for pt, tot, s in zip(points[i], totals, seated, strict=True))
        rows.append(Row(i + 1, cells, dealers[i]))
    if data.get("over"):
        winners = set(data.get("winners") or [])
        leaders = [any(m in winners for m in ms) for ms in members]
        if all(leaders):  # a draw: nobody is marked ahead of anybody
            leaders = [False] * len(columns)
    else:
        # A player seated for the next hand has not played yet: they lead nobody.
        here = [c not in joined or joined[c] <= len(rows) for c in columns]
        best = iter(_best([t for t, h in zip(final, here, strict=True) if h], low_wins))
        leaders = [next(best) if h else False for h in here]
    distance, note = _distance(game, data, columns, by_sides)
    distance = [JOINS_AT.get(round_word(game), JOINS_AT["round"])(joined[c]) if c in joined and joined[c] > len(rows)
                else d for c, d in zip(columns, distance, strict=True)]
    labels = [side_label(game, c) for c in columns] if by_sides else columns
    return Grid(columns=tuple(columns), labels=tuple(labels), members=tuple(members), rows=tuple(rows),
                totals=tuple(final),
                leaders=tuple(leaders), distance=tuple(distance), dealer_word=verb,
                next_dealer=None if data.get("over") else next_dealer, over=bool(data.get("over")),
                note=note, by_sides=by_sides)
