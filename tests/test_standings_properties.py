"""Standings properties over random evenings: every entrant is listed once; at each table the
match points of each round add up to the table's k(k − 1)/2 (tables of k); entrants with equal
totals at a table share their places (the same place, the same points); rank follows the points."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.tournaments import standings

NAMES = [f"P{i}" for i in range(12)]


@st.composite
def evenings(draw):
    """Entrants, and rounds of tables over some of them: finished, time called or still playing."""
    entrants = NAMES[:draw(st.integers(2, 12))]
    results = []
    for rnd in range(1, draw(st.integers(1, 4)) + 1):
        order = draw(st.permutations(entrants))
        sizes, left = [], len(order)
        while left >= 2:
            size = draw(st.integers(2, min(5, left)))
            sizes.append(size)
            left -= size
        start = 0
        for number, size in enumerate(sizes, 1):
            players = list(order[start:start + size])
            start += size
            totals = {p: draw(st.integers(-30, 30)) for p in players}
            state = draw(st.sampled_from(["over", "called", "playing"]))
            winners = draw(st.sampled_from([[], [players[0]]])) if state == "over" else []
            results.append({"round": rnd, "table": number, "players": players, "totals": totals,
                            "winners": winners, "over": state == "over", "called": state == "called",
                            "low_wins": draw(st.booleans())})
    return entrants, results


@settings(max_examples=150, deadline=None)
@given(evenings())
def test_standings_properties(evening):
    entrants, results = evening
    board = standings(results, entrants=entrants)
    # Every entrant once, those who sat out or whose tables are still playing too.
    assert sorted(s.name for s in board) == sorted(entrants)
    counted = [r for r in results if r["over"] or r["called"]]
    by_table: dict[tuple[int, int], list] = {}
    for s in board:
        for ts in s.tables:
            by_table.setdefault((ts.round, ts.table), []).append((s.name, ts))
    assert set(by_table) == {(r["round"], r["table"]) for r in counted}
    for r in counted:
        scores = dict(by_table[r["round"], r["table"]])
        k = len(r["players"])
        assert set(scores) == set(r["players"])
        # The round's match points at the table add up to its total, k(k - 1)/2.
        assert sum((ts.match_points for ts in scores.values()), Fraction(0)) == Fraction(k * (k - 1), 2)
        assert sum((ts.score_difference for ts in scores.values()), Fraction(0)) == 0
        # Ties share: equal totals (and both winners or both not) give the same place and points.
        for a in r["players"]:
            for b in r["players"]:
                same = r["totals"][a] == r["totals"][b] and ((a in r["winners"]) == (b in r["winners"]) or
                                                            not r["over"])
                if same:
                    assert scores[a].place == scores[b].place and scores[a].match_points == scores[b].match_points
                    assert a == b or scores[a].tied
        # A table time was called on is marked unfinished; a finished one is not.
        assert all(ts.finished == r["over"] for ts in scores.values())
    # The order: more match points first, then score difference; level on both shares a rank.
    for upper, lower in zip(board, board[1:], strict=False):
        assert (upper.match_points, upper.score_difference) >= (lower.match_points, lower.score_difference)
        level = (upper.match_points, upper.score_difference) == (lower.match_points, lower.score_difference)
        assert (upper.rank == lower.rank) == level
    # Each entrant's line is the sum of their tables.
    for s in board:
        assert s.match_points == sum((ts.match_points for ts in s.tables), Fraction(0))
        assert s.played == len(s.tables)
