"""The deal entry screen for Indian Rummy (IR-1 to IR-10), and the declaration referee."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from wtforms import BooleanField, HiddenField, IntegerField, RadioField, SelectField, StringField, TextAreaField
from wtforms.validators import Length, NumberRange, Optional

from ..core.cards import CardError, parse_card
from ..core.messages import joined, say
from ..games import indian_rummy as rules
from ..games.indian_rummy import classify, wild_rank_of
from .alliance_royals import GRID_ROWS, SUIT_SYMBOLS
from .forms import CountField, CourtierForm, choices, gettext, lazy_gettext, lazy_ngettext, round_form_of

SLUG = rules.SLUG
TEMPLATE = "entry/indian_rummy.html"
ROUND_NAME = "deal"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
WILD_CHOICES = choices([("", lazy_gettext("— the card cut"))]
                       + [(r, lazy_gettext("%(rank)ss are wild", rank=r)) for r in RANKS]
                       + [("JK", lazy_gettext("A printed Joker was cut: Aces are wild (IR-2)"))])
MODES = {
    "count": lazy_gettext("Just their count"),
    "groups": lazy_gettext("Their groups and loose cards"),
    "cards": lazy_gettext("Their 13 cards: Courtier arranges them"),
    "first": lazy_gettext("Dropped before the first draw"),
    "middle": lazy_gettext("Dropped later (middle drop)"),
    "wrong_show": lazy_gettext("Wrong show"),
    "out": lazy_gettext("Not in this deal"),
}
#: What a count may be, in words (IR-3, IR-6).
COUNT_BOUNDS = lazy_gettext("A count is 0 to %(most)s: 13 cards add up to %(most)s at most (IR-3), and a count over "
                            "%(cap)s counts %(cap)s (IR-6).", most=rules.MOST_RAW, cap=rules.CAP)
VARIANT_CHOICES = choices([("points", lazy_gettext("Points rummy (IR-8)")),
                           ("pool101", lazy_gettext("Pool 101 (IR-9)")), ("pool201", lazy_gettext("Pool 201 (IR-9)")),
                           ("deals", lazy_gettext("Deals rummy (IR-10)"))])


def options_form(formdata=None):
    class OptionsForm(CourtierForm):
        class Meta:
            csrf = False  # part of the new-table form, which carries the token

        variant = RadioField(lazy_gettext("Variant"), choices=VARIANT_CHOICES, default="points")
        deals = SelectField(lazy_gettext("Deals (deals rummy)"), default="2", choices=choices(
            [(str(n), lazy_ngettext("%(num)d deal", "%(num)d deals", n)) for n in (2, 3, 6)]))
        point_value = IntegerField(lazy_gettext("Value of a point (points rummy)"), default=1,
                                   validators=[Optional(), NumberRange(min=1, max=rules.MAX_POINT_VALUE)])
        decks = SelectField(lazy_gettext("Decks (IR-1)"), default="", choices=choices(
            [("", lazy_gettext("By the number of players"))]
            + [(str(n), lazy_ngettext("%(num)d deck", "%(num)d decks", n)) for n in (1, 2, 3)]))

    return OptionsForm(formdata=formdata, prefix="opt")


def options_from(form, players=()) -> dict[str, Any]:
    options: dict[str, Any] = {"variant": form.variant.data or "points"}
    if options["variant"] == "deals":
        options["deals"] = int(form.deals.data or 2)
    if options["variant"] == "points" and form.point_value.data:
        options["point_value"] = form.point_value.data
    if form.decks.data:
        options["decks"] = int(form.decks.data)
    return options


def _out_players(scored) -> set[str]:
    standing = (scored.standing or {}) if scored is not None else {}
    return {p for p, s in standing.get("players", {}).items() if s.get("out")}


def round_form(table, formdata=None, data: dict[str, Any] | None = None, base_version: int = 0,
               previous: dict[str, Any] | None = None, scored=None):
    players = table.players
    if data is not None:
        values = _formdata_for(players, data)
    else:
        values = {f"p{i}_mode": "out" for i, p in enumerate(players) if p in _out_players(scored)}
    return round_form_of(_deal_form(players), formdata, values, base_version)


@lru_cache(maxsize=256)  # built once per seating, not on every request
def _deal_form(players: tuple[str, ...]) -> type[CourtierForm]:
    class DealForm(CourtierForm):
        base_version = HiddenField()
        wild = SelectField(lazy_gettext("Wild joker: the rank cut (IR-2)"), choices=WILD_CHOICES, default="")
        winner = SelectField(lazy_gettext("Who declared and won? (IR-5)"), default="",
                             choices=choices([("", "—")] + [(p, p) for p in players]))
        note = StringField(lazy_gettext("Note (optional)"), validators=[Length(max=200)])

    for i in range(len(players)):
        setattr(DealForm, f"p{i}_mode", SelectField(lazy_gettext("What to enter"), default="count",
                                                    choices=choices(MODES.items())))
        # Card zones wrap on a phone, so a whole hand stays in sight (never cut off at the box's edge).
        setattr(DealForm, f"p{i}_groups", TextAreaField(lazy_gettext("Groups, separated by |"),
                                                        validators=[Length(max=200)]))
        setattr(DealForm, f"p{i}_loose", TextAreaField(lazy_gettext("Loose cards"), validators=[Length(max=120)]))
        setattr(DealForm, f"p{i}_cards", TextAreaField(lazy_gettext("The 13 cards"), validators=[Length(max=120)]))
        # IR-6: a hand adding up to more than 80 counts 80, so 95 is taken and scored 80; past the most
        # 13 cards can add up to (IR-3) the number cannot be a count.
        setattr(DealForm, f"p{i}_count", CountField(lazy_gettext("Count (IR-6)"), validators=[
            Optional(), NumberRange(min=0, max=rules.MOST_RAW, message=COUNT_BOUNDS)]))
        setattr(DealForm, f"p{i}_rejoin", BooleanField(lazy_gettext("Rejoins the pool this deal (IR-9)")))
    return DealForm


def _formdata_for(players, deal: dict[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {"wild": deal.get("wild") or "", "winner": deal.get("winner") or "",
                              "note": deal.get("note", "")}
    hands = deal.get("hands") or {}
    for i, name in enumerate(players):
        hand = hands.get(name)
        if hand is None:
            values[f"p{i}_mode"] = "out"
            continue
        if "groups" in hand:
            values[f"p{i}_mode"] = "groups"
            values[f"p{i}_groups"] = " | ".join(" ".join(g) for g in hand["groups"])
            values[f"p{i}_loose"] = " ".join(hand.get("loose") or [])
        elif "cards" in hand:
            values[f"p{i}_mode"] = "cards"
            values[f"p{i}_cards"] = " ".join(hand["cards"])
        elif "count" in hand:
            values[f"p{i}_mode"] = "count"
            values[f"p{i}_count"] = hand["count"]
        elif hand.get("drop"):
            values[f"p{i}_mode"] = hand["drop"]
        elif hand.get("wrong_show"):
            values[f"p{i}_mode"] = "wrong_show"
        values[f"p{i}_rejoin"] = name in (deal.get("rejoin") or [])
    return values


def cards_in(text: str | None) -> list[str]:
    return [t for t in re.split(r"[\s,;]+", (text or "").strip()) if t]


def groups_in(text: str | None) -> list[list[str]]:
    """Groups typed as cards separated by '|'.

    >>> groups_in("AH 2H 3H | 5S 6S 7D 8S |")
    [['AH', '2H', '3H'], ['5S', '6S', '7D', '8S']]
    """
    return [cards for part in (text or "").split("|") if (cards := cards_in(part))]


def round_from(form, table) -> dict[str, Any]:
    deal: dict[str, Any] = {"wild": form.wild.data or None, "winner": form.winner.data or None, "hands": {}}
    rejoin = []
    for i, name in enumerate(table.players):
        mode = form[f"p{i}_mode"].data
        if form[f"p{i}_rejoin"].data:
            rejoin.append(name)
        if mode == "out" and name not in rejoin:
            continue
        if name == deal["winner"] and not (form[f"p{i}_groups"].data or "").strip(" |\r\n\t") \
                and not (form[f"p{i}_loose"].data or "").strip():
            if cards_in(form[f"p{i}_cards"].data):  # the winner's 13 cards, arranged and checked (IR-5)
                deal["hands"][name] = {"cards": cards_in(form[f"p{i}_cards"].data)}
            continue  # IR-5: a declaration not entered is taken as valid (the table checked it)
        if name == deal["winner"] or mode == "groups":
            hand: dict[str, Any] = {"groups": groups_in(form[f"p{i}_groups"].data)}
            loose = cards_in(form[f"p{i}_loose"].data)
            if name != deal["winner"] or loose:  # a winner's loose cards are refused by the game (IR-5)
                hand["loose"] = loose
        elif mode == "cards":
            hand = {"cards": cards_in(form[f"p{i}_cards"].data)}
        elif mode == "count":
            hand = {"count": form[f"p{i}_count"].data}
        elif mode in ("first", "middle"):
            hand = {"drop": mode}
        elif mode == "wrong_show":
            hand = {"wrong_show": True}
        else:
            hand = {"cards": cards_in(form[f"p{i}_cards"].data)}
        deal["hands"][name] = hand
    if rejoin:
        deal["rejoin"] = rejoin
    if form.note.data and form.note.data.strip():
        deal["note"] = form.note.data.strip()
    return deal


def field_for(where: str, table, form) -> str | None:
    if where.startswith("wild"):
        return "wild"
    if where.startswith("winner"):
        return "winner"
    m = re.match(r"rejoin(?:\[(\d+)\])?", where)
    if m:  # the k-th player ticked to rejoin, in seat order (as round_from lists them)
        ticked = [i for i in range(len(table.players)) if form[f"p{i}_rejoin"].data]
        k = int(m.group(1)) if m.group(1) else 0
        return f"p{ticked[k]}_rejoin" if k < len(ticked) else None
    m = re.match(r"hands\.(.+?)(?:\.(groups|loose|cards|count|drop|wrong_show)\b.*)?$", where)
    if not m or m.group(1) not in table.players:
        return None
    i = table.players.index(m.group(1))
    part = m.group(2)
    if part in ("groups", "loose", "cards", "count"):
        return f"p{i}_{part}"
    return f"p{i}_mode"


def field_title(field, table) -> str:
    m = re.match(r"p(\d+)_", field.short_name)
    if m:
        return f"{table.players[int(m.group(1))]} · {field.label.text}"
    return field.label.text


def round_heading(deal: dict[str, Any], number: int) -> str:
    """A deal's heading: its number and who declared, each part in the reader's language."""
    if deal.get("winner"):
        return joined([say("Deal {number}", number=number), say("{name} declared", name=deal.get("winner"))], " · ")
    return say("Deal {number}", number=number)


def group_summary(wild: str | None, text: str | None) -> list[tuple[str, bool, str]]:
    """Each typed group judged on its own (IR-4): (cards, valid, why), for the live check."""
    try:
        wild_rank = wild_rank_of(wild) if wild else None
    except ValueError:
        wild_rank = None
    out = []
    for group in groups_in(text):
        try:
            cards = [parse_card(c, allow_joker=True) for c in group]
        except CardError as err:
            out.append((" ".join(group), False, err.args[0] if err.args else str(err)))
            continue
        kind = classify(cards, wild_rank)
        out.append((" ".join(str(c) for c in cards), kind.valid, kind.reason))
    return out


#: A hand of 13 cards (IR-5): the picker counts the cards of a hand against it.
HAND_SIZE = 13


def pack(decks: int = 2) -> dict[str, Any]:
    """The card picker's pack: every card of the 52 its own button, one tap a card, and a printed
    Joker; each card as many times as there are decks (IR-1)."""
    grid = [[(f"{rank}{suit}", f"{rank}{SUIT_SYMBOLS[suit]}") if rank else None
             for rank in pair for suit in SUIT_SYMBOLS] for pair in GRID_ROWS]
    grid[-1][4] = ("JK", gettext("Joker"), gettext("a printed Joker"))
    return {"ranks": RANKS, "copies": dict.fromkeys(RANKS, decks), "card_copies": {"JK": decks},
            "singles": ["JK"], "single_copies": decks, "separator": True, "grid": grid, "hand_size": HAND_SIZE}


def decks_for_table(table) -> int:
    return table.options.get("decks") or rules.decks_for(len(table.players))


# ---------------------------------------------------------------- the declaration referee

class DeclarationForm(CourtierForm):
    wild = SelectField(lazy_gettext("Wild joker: the rank cut (IR-2)"), choices=WILD_CHOICES, default="")
    groups = TextAreaField(lazy_gettext("The groups, separated by |"), validators=[Length(max=200)])
    cards = TextAreaField(lazy_gettext("…or just the 13 cards: Courtier finds the best arrangement"),
                          validators=[Length(max=120)])

    def validate(self, extra_validators=None) -> bool:
        ok = super().validate(extra_validators)
        if (self.groups.data or "").strip() and (self.cards.data or "").strip():
            message = lazy_gettext("Give the groups or the 13 cards, not both: clear one (IR-5).")
            self.groups.errors = [*self.groups.errors, message]
            self.cards.errors = [*self.cards.errors, message]
            return False
        return ok


def _declaration_body(form) -> dict[str, Any]:
    body: dict[str, Any] = {"wild": form.wild.data or None}
    if (form.cards.data or "").strip():  # both given is refused by the form (never one silently)
        body["cards"] = cards_in(form.cards.data)
    if (form.groups.data or "").strip() or "cards" not in body:
        body["groups"] = groups_in(form.groups.data)
    return body


def _declaration_field(where: str) -> str | None:
    head = re.split(r"[.\[]", where)[0]
    return head if head in ("wild", "groups", "cards") else None


#: A group's kind as the referee's answer names it beside its cards (IR-4).
KIND_WORDS = {"pure": lazy_gettext("pure"), "impure": lazy_gettext("impure"), "set": lazy_gettext("set"),
              "invalid": lazy_gettext("invalid")}

REFEREE = {"declaration": (lazy_gettext("Is this declaration valid?"), DeclarationForm, _declaration_body,
                           _declaration_field)}
