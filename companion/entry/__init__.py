"""Entry screens per game: the WTForms form for one round, and the way back and forth
between the form and the round's JSON (API.md).

Each game module provides:

- ``options_form(formdata=None)``: the game's options on the new-table page;
- ``options_from(form)``: the options as the engine takes them;
- ``round_form(table, formdata=None, data=None, base_version=0, previous=None, scored=None)``: a form
  for one round (``previous`` is the round before, ``scored`` the game so far, for defaults);
- ``round_from(form, table)``: the round's JSON;
- ``field_for(where, table)``: which form field an engine problem belongs to;
- ``TEMPLATE``: the template that lays the form out.
"""

from __future__ import annotations

import re
from types import ModuleType

from . import alliance_royals, indian_rummy, rally_the_king, royalty, rummathon_royale, rummy_royal

ENTRY: dict[str, ModuleType] = {
    module.SLUG: module for module in (alliance_royals, indian_rummy, rally_the_king, royalty, rummathon_royale,
                                       rummy_royal)
}

_ROUND_PREFIX = re.compile(r"^rounds\[(\d+)\]\.?")


def split_where(where: str) -> tuple[int | None, str]:
    """Split an engine problem's place into the round index and the rest.

    >>> split_where("rounds[3].left.Ben.low")
    (3, 'left.Ben.low')
    >>> split_where("options.schedule")
    (None, 'options.schedule')
    """
    m = _ROUND_PREFIX.match(where)
    if not m:
        return None, where
    return int(m.group(1)), where[m.end():]
