"""What a score sheet costs to draw against what Courtier estimates before drawing it (companion.paper.long_sheets):
within half as much again either way, for every game, short and long; and the largest table the limits allow
is drawn within the budget or refused in words before any drawing.

Timing on a shared machine: each sheet's cost is the CPU time of this process while it draws
(``time.process_time``, not the wall clock), the least of three draws; and the estimates are compared with the
drawings as a set, each against the set's median (a machine twice as fast or as busy scales every drawing
alike and leaves the ratios between sizes as they are). bench/sheet_cost.py draws every game at seven sizes.
"""

from __future__ import annotations

import statistics

import pytest

from companion import games
from companion.core import limits
from companion.paper import long_sheets, sheets

from .print_games import sheet_cost

#: Each game at four rounds (at its most players, where it costs most), and two long games: Rummy Royal at nine
#: for 55 deals (estimated at three times its cost, and refused), Indian Rummy's compact sheet at nine for 60.
CASES = [(slug, games.ENGINES[slug].MAX_PLAYERS, 4) for slug in sorted(games.ENGINES)] + [
    ("rummy-royal", 9, 55), ("indian-rummy", 9, 60)]
#: How far an estimate may be from the drawing, either way.
WITHIN = 1.5


@pytest.fixture(scope="module")
def measured() -> dict[tuple[str, int, int], tuple[float, float]]:
    bench = sheet_cost()
    return {case: bench.measure(*case, samples=3) for case in CASES}


def test_every_estimate_is_within_half_again_of_the_drawing(measured):
    ratios = {case: estimated / drawn for case, (estimated, drawn) in measured.items()}
    # This machine against the busy one the costs were fitted on: the same two cores with no neighbours at work
    # drew every sheet 2.0 to 2.5 times as fast (the estimates then err on the side of refusing).
    machine = statistics.median(ratios.values())
    assert 1 / 3 <= machine <= 3, f"this machine draws {machine:.2f} times as fast as the fitted costs say"
    off = {case: round(ratio / machine, 2) for case, ratio in ratios.items()
           if not 1 / WITHIN <= ratio / machine <= WITHIN}
    assert not off, (off, {case: (round(e, 2), round(d, 2)) for case, (e, d) in measured.items()})


def test_rummy_royal_at_nine_for_55_deals_prints_from_the_web(measured):
    """It was estimated at 10.2 s of drawing, three times its cost, and refused (413)."""
    estimated, drawn = measured["rummy-royal", 9, 55]
    assert estimated < limits.get("SHEET_SECONDS")
    bench = sheet_cost()
    html = bench.sheet_html(bench.game("rummy-royal", 9, 55), budget=limits.get("SHEET_SECONDS"))
    assert "ledger" in html or "<table" in html


@pytest.mark.parametrize("slug", sorted(games.ENGINES))
def test_the_largest_table_the_limits_allow_is_refused_in_words_before_drawing(slug):
    """The most players, MAX_ROUNDS rounds (Rally the King's 100 hands, Rummathon Royale's last hand before
    someone completes the schedule), 40-letter names, a 500-character note on every round: estimated over the
    budget and refused, its rounds and the export named, or estimated within it."""
    bench = sheet_cost()
    request = bench.largest(slug)
    budget = limits.get("SHEET_SECONDS")
    try:
        html = bench.sheet_html(request, budget=budget)
    except long_sheets.SheetTooLong as refused:
        assert f"its {len(request['rounds'])} {sheets.round_name(slug)}s would take" in refused.message
        assert f"at most {budget} seconds" in refused.message and "export" in refused.message
    else:
        assert long_sheets.estimate_seconds(html) <= budget
