"""Round entry for the Royals played each for themselves, Battle Royals and Marriage Royals.

The screen is Alliance Royals' board entry (entry/alliance_royals.py and its template, with
the card picker counting the 100-card pack across every board, Houses carried over from the
round before); what differs is the family's data (games/royals.py): the seats, whether
there are hostages to declare, who a surrender hands the game to, and the sharing option.
The game modules ``battle_royals`` and ``marriage_royals`` are each :func:`screen` of their family.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache, partial
from typing import Any, NamedTuple

from wtforms import BooleanField, IntegerField, RadioField, SelectField, StringField
from wtforms.validators import InputRequired, Length, NumberRange

from ..core.messages import Text, joined, say
from ..games.alliance_royals import LOSE_BELOW_LEAST, WIN_ABOVE_MOST
from ..games.royals import Family
from . import alliance_royals as ar
from .forms import CourtierForm, choices, lazy_gettext, round_form_of

SHARE_CHOICES = {"positive": lazy_gettext("Spouses add each other's positive scores (the project's reading)"),
                 "none": lazy_gettext("No sharing: each keeps their own score")}


def options_form(family: Family, formdata=None):
    class OptionsForm(CourtierForm):
        class Meta:
            csrf = False  # part of the new-table form, which carries the token

        win_above = IntegerField(lazy_gettext("The game ends when a player passes (%(rulings)s)", rulings=family.end),
                                 default=1066, validators=[InputRequired(ar.NUMBER_NEEDED["win_above"]),
                                                           NumberRange(min=1, max=WIN_ABOVE_MOST)])
        lose_below = IntegerField(lazy_gettext("…or drops below (%(rulings)s)", rulings=family.end), default=-333,
                                  validators=[InputRequired(ar.NUMBER_NEEDED["lose_below"]),
                                              NumberRange(min=LOSE_BELOW_LEAST, max=-1)])

    if family.marries:
        OptionsForm.share = RadioField(lazy_gettext("Sharing between spouses (MR-4)"), default="positive",
                                       choices=choices(SHARE_CHOICES.items()))
    for suit in ar.DEFAULT_HOUSES:
        setattr(OptionsForm, f"house_{suit}", ar.house_field(suit))
    return OptionsForm(formdata=formdata, prefix="opt")


def options_from(family: Family, form, players=()) -> dict[str, Any]:
    options: dict[str, Any] = {"win_above": form.win_above.data, "lose_below": form.lose_below.data}
    names = ar.typed_houses(form)
    if names != ar.DEFAULT_HOUSES:
        options["house_names"] = names
    if family.marries and form.share.data in SHARE_CHOICES:
        options["share"] = form.share.data
    return options


def round_form(family: Family, table, formdata=None, data: dict[str, Any] | None = None, base_version: int = 0,
               previous: dict[str, Any] | None = None, scored=None):
    players = table.players
    source = data if data is not None else ar._houses_only(previous)
    form_class = _round_form(family, players, tuple(ar.house_names(table).items()))
    return round_form_of(form_class, formdata, ar._formdata_for(players, source) if source else None, base_version)


@lru_cache(maxsize=256)
def _round_form(family: Family, players: tuple[str, ...], house_items: tuple[tuple[str, str], ...]):
    """Alliance Royals' round form, with a surrender that is one player's, not an Alliance's."""

    class RoundForm(ar._round_form(players, house_items)):
        surrender = SelectField(lazy_gettext("Surrender: who gives up? (%(rulings)s)", rulings=family.end), default="",
                                choices=choices([("", lazy_gettext("— nobody"))] + [(p, p) for p in players]))
        confirm_surrender = BooleanField(lazy_gettext("Yes, I give up: the game ends at once"))

    if not family.marries:  # no Hostage is drawn (BR-2): one posted anyway is the engine's to refuse, above the form
        for i in range(len(players)):
            for j in range(ar.HOSTAGE_ROWS):
                target = getattr(RoundForm, f"p{i}_h{j}_target")
                setattr(RoundForm, f"p{i}_h{j}_target", RadioField(*target.args, **{**target.kwargs,
                                                                               "validate_choice": False}))
    return RoundForm


def round_heading(rnd: dict[str, Any], number: int) -> Text:
    if rnd.get("surrender"):
        return joined([say("Round {number}", number=number), say("{name} surrendered", name=rnd["surrender"])], " · ")
    return say("Round {number}", number=number)


def surrender_hint(family: Family) -> Text:
    if family.seats == 2:
        return say("A surrender ends the game at once: the other player wins, whatever the score ({rulings}).",
                   rulings=family.end)
    return say("A surrender ends the game at once: of the other two, the higher total wins ({rulings}). The boards "
               "above are ignored.", rulings=family.end)


# ---------------------------------------------------------------- referee screens (AR-14, AR-15)

def battle_spec(family: Family):
    """AR-14's screen with one card field per player."""
    title, form_class, body, field = ar.REFEREE["battle"]
    fewer = type("BattleForm", (form_class,), {f"card{n}": None for n in range(family.seats + 1, 5)})
    return title, fewer, body_of_cards(family), field


def body_of_cards(family: Family):
    def body(form) -> dict[str, Any]:
        return {"cards": [form[f"card{n}"].data.strip() for n in range(1, family.seats + 1)
                          if (form[f"card{n}"].data or "").strip()]}
    return body


OTHER_SEATS = (("left", (lazy_gettext("Home House of the player on your left"),
                          lazy_gettext("Spoils of the player on your left"))),
               ("right", (lazy_gettext("Home House of the player on your right"),
                          lazy_gettext("Spoils of the player on your right"))))


def privileges_spec(family: Family):
    """AR-15's screen: the player's boards, and in Marriage Royals the others' Houses and Spoils."""

    class PrivilegesForm(CourtierForm):
        house = RadioField(lazy_gettext("Your Home House"), choices=ar.HOUSE_CHOICES)
        spoils = StringField(lazy_gettext("Your Spoils"), validators=[Length(max=400)])
        meld = StringField(lazy_gettext("Your Meld"), validators=[Length(max=400)])
        hand = StringField(lazy_gettext("Your hand"), validators=[Length(max=400)])
        battle_won = BooleanField(lazy_gettext("I won this turn's Battle"))

    if family.marries:
        for key, (house_label, spoils_label) in OTHER_SEATS:
            setattr(PrivilegesForm, f"{key}_house", RadioField(house_label, choices=ar.HOUSE_CHOICES,
                                                               validate_choice=False))
            setattr(PrivilegesForm, f"{key}_spoils", StringField(spoils_label, validators=[Length(max=400)]))

    def body(form) -> dict[str, Any]:
        out: dict[str, Any] = {"house": form.house.data, "battle_won": bool(form.battle_won.data),
                               **{zone: ar.cards_in(form[zone].data) for zone in ("spoils", "meld", "hand")}}
        if family.marries:
            out["others"] = [{"house": form[f"{key}_house"].data or None,
                              "spoils": ar.cards_in(form[f"{key}_spoils"].data)} for key, _ in OTHER_SEATS]
        return out

    def field(where: str) -> str | None:
        m = re.match(r"others\[(\d)\]\.(house|spoils)", where)
        if m:
            return f"{OTHER_SEATS[int(m.group(1))][0]}_{m.group(2)}"
        head = re.split(r"[.\[]", where)[0]
        return head if head in ("house", "spoils", "meld", "hand", "battle_won") else None

    return PrivilegesForm, body, field


def field_for(family: Family, where: str, table, form) -> str | None:
    """The form field an engine problem belongs to; Battle Royals shows no hostage fields, so a
    hostage posted anyway is reported above the form (BR-2)."""
    if not family.marries and ".hostages" in where:
        return None
    return ar.field_for(where, table, form)


class Screen(NamedTuple):
    """What an entry module offers (entry/__init__.py), for one game of the family: the board entry,
    the field titles, the pack and the checks across boards are Alliance Royals' own."""

    SLUG: str
    TEMPLATE: str
    ROUND_NAME: str
    HOSTAGES: bool
    SURRENDER_HINT: Text
    REFEREE: dict[str, tuple]
    options_form: Callable[..., Any]
    options_from: Callable[..., dict[str, Any]]
    round_form: Callable[..., Any]
    round_from: Callable[..., dict[str, Any]]
    field_for: Callable[..., str | None]
    field_title: Callable[..., str]
    round_heading: Callable[[dict[str, Any], int], Text]
    pack: Callable[[], Any]
    validate_extra: Callable[..., bool]


def screen(family: Family) -> Screen:
    """The round entry screen of one game of the family, with its referee screens (AR-14, AR-15).

    >>> from companion.games.royals import BATTLE
    >>> battle = screen(BATTLE)
    >>> battle.SLUG, battle.HOSTAGES, sorted(battle.REFEREE)
    ('battle-royals', False, ['battle', 'privileges'])
    """
    referee = {"battle": battle_spec(family),
               "privileges": (lazy_gettext("What may I do?"), *privileges_spec(family))}
    return Screen(family.slug, "entry/alliance_royals.html", "round", family.marries, surrender_hint(family),
                  referee, partial(options_form, family), partial(options_from, family),
                  partial(round_form, family), ar.round_from, partial(field_for, family), ar.field_title,
                  round_heading, ar.pack, ar.validate_extra)
