"""What the web tests of every game do through the forms: start a table on the new-table form, read the
version its entry form carries, save a round through that form, and read the table back as the API
takes it (its export)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games import ScoredGame, score


def new_table(client, game: str, players: Sequence[str], defaults: Mapping[str, str], **options: str) -> list[str]:
    """A table of ``game`` started through the new-table form: the seats, the form's ``defaults`` for the
    game's options, and ``options`` (named without the form's ``opt-`` prefix) over them. Returns the
    table's address and its edit key."""
    data = {f"seat{i}": p for i, p in enumerate(players, 1)}
    data.update(defaults)
    data.update({f"opt-{k}": v for k, v in options.items()})
    response = client.post(f"/new/{game}", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].split("?key=")


def version(client, table: str, key: str) -> str:
    """The version the table's entry form carries: a save names the version it was made against."""
    page = client.get(f"{table}/hands/new?key={key}").get_data(as_text=True)
    return re.search(r'name="base_version"[^>]*value="(\d+)"', page).group(1)


def post(client, table: str, key: str, **fields: str):
    """A round saved through the entry form, against the version the form carries unless one is given."""
    fields.setdefault("base_version", version(client, table, key))
    return client.post(f"{table}/hands?key={key}", data=fields)


def exported(client, table: str) -> dict[str, Any]:
    """The table as its export gives it: the game, players, options and rounds, in the API's shape."""
    return json.loads(client.get(f"{table}/export.json").data)


def scored_game(client, table: str) -> ScoredGame:
    """The table's game, scored again from its export."""
    return score(exported(client, table))
