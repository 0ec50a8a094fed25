"""The round entry screen for Battle Royals (BR-1 to BR-3): two boards, no hostages."""

from __future__ import annotations

from ..games.royals import BATTLE as FAMILY
from . import royals

(SLUG, TEMPLATE, ROUND_NAME, HOSTAGES, SURRENDER_HINT, REFEREE, options_form, options_from, round_form, round_from,
 field_for, field_title, round_heading, pack, validate_extra) = royals.screen(FAMILY)
