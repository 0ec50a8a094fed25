"""Club-night tournaments: seating (:mod:`.seating`, :mod:`.swiss`, :mod:`.round_robin`), standings
(:mod:`.standings`), their storage (:mod:`.store`) and the printed round packs (:mod:`.packs`).

The seating and standings modules are pure, like the rules engines; the store and the packs
touch the database and the file system.
"""

from .seating import (
    METHODS,
    REPAIR_BUDGET,
    SEARCH_BUDGET,
    SeatingError,
    Table,
    repeated_pairs,
    round_robin_schedule,
    seat_round,
    seat_teams,
    table_sizes,
    team_name,
)
from .standings import ResultsError, Standing, TableScore, show_difference, show_fraction, standings

__all__ = [
    "METHODS", "REPAIR_BUDGET", "SEARCH_BUDGET", "ResultsError", "SeatingError", "Standing", "Table", "TableScore",
    "repeated_pairs", "round_robin_schedule", "seat_round", "seat_teams", "show_difference", "show_fraction",
    "standings", "table_sizes", "team_name",
]
