"""The round entry screen for Battle Royals (BR-1 to BR-3): two boards, no hostages."""

from __future__ import annotations

from functools import partial

from ..games.royals import BATTLE as FAMILY
from . import royals
from .alliance_royals import (  # noqa: F401 - the screen is Alliance Royals' own
    field_title,
    pack,
    round_from,
    validate_extra,
)
from .forms import lazy_gettext

SLUG = FAMILY.slug
TEMPLATE = "entry/alliance_royals.html"
ROUND_NAME = "round"
HOSTAGES = FAMILY.marries
SURRENDER_HINT = royals.surrender_hint(FAMILY)
REFEREE = {
    "battle": royals.battle_spec(FAMILY),
    "privileges": (lazy_gettext("What may I do?"), *royals.privileges_spec(FAMILY)),
}
options_form = partial(royals.options_form, FAMILY)
options_from = partial(royals.options_from, FAMILY)
round_form = partial(royals.round_form, FAMILY)
field_for = partial(royals.field_for, FAMILY)
round_heading = royals.round_heading
