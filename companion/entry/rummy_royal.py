"""The deal entry screen for Rummy Royal, in the order the stages are played (RM-3 to RM-6).

The antes are automatic. Then: who held each pay card (one tap on the holder; nobody
tapped means nobody held it), who held the Sequence, the poker stage (each player's
bet, who folded, who won, or each player's cards for the referee to judge), and who
went out with the cards left in the other hands.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from flask import g
from wtforms import (
    BooleanField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
    widgets,
)
from wtforms.validators import Length, NumberRange, Optional, ValidationError

from ..core.cards import said
from ..core.messages import Text, render, say
from ..games import rummy_royal as rules
from .alliance_royals import cards_in
from .forms import CountField, CourtierForm, choices, lazy_gettext, round_form_of

SLUG = rules.SLUG
TEMPLATE = "entry/rummy_royal.html"
ROUND_NAME = "deal"

SPACE_LABELS = {"10H": "10♥", "JH": "J♥", "QH": "Q♥", "KH": "K♥", "AH": "A♥",
                "marriage": lazy_gettext("Marriage K♥ Q♥"), "sequence": lazy_gettext("Sequence"),
                "kitty": lazy_gettext("Kitty"), "pot": lazy_gettext("Pot")}


def options_form(formdata=None):
    class OptionsForm(CourtierForm):
        class Meta:
            csrf = False  # part of the new-table form, which carries the token

        chips = IntegerField(lazy_gettext("Starting chips each (RM-1)"), default=rules.OPTIONS["chips"],
                             validators=[Optional(), NumberRange(min=1, max=rules.MAX_CHIPS, message=lazy_gettext(
                                 "From 1 to %(most)s chips.", most=rules.MAX_CHIPS))])
        sequence = RadioField(lazy_gettext("The Sequence (RM-2)"), default="8-9-10", choices=choices([
            ("8-9-10", lazy_gettext("8-9-10 of one suit")), ("6-7-8", lazy_gettext("6-7-8 of one suit"))]))
        poker = RadioField(lazy_gettext("Poker stage (RM-2, RM-5)"), default="yes", choices=choices([
            ("yes", lazy_gettext("Played: a Pot space on the board")),
            ("no", lazy_gettext("Left out: no Pot, eight spaces"))]))
        dealer_antes = IntegerField(lazy_gettext("Dealer's ante, chips on each space (RM-3)"), default=1,
                                    validators=[Optional(), NumberRange(min=1, max=rules.MAX_DEALER_ANTES,
                                                                        message=lazy_gettext(
                                                                            "From 1 to 100 chips a space."))])

    return OptionsForm(formdata=formdata, prefix="opt")


def options_from(form, players=()) -> dict[str, Any]:
    return {"chips": form.chips.data or rules.OPTIONS["chips"], "sequence": form.sequence.data or "8-9-10",
            "poker": form.poker.data != "no", "dealer_antes": form.dealer_antes.data or 1}


class TapField(SelectMultipleField):
    """Players tapped as holders: checkboxes shown as chips; none tapped is nobody."""

    widget = widgets.ListWidget(prefix_label=False)
    option_widget = widgets.CheckboxInput()

    def pre_validate(self, form):
        if self.data:
            known = {c.value for c in self.iter_choices()}
            for value in self.data:
                if value not in known:
                    raise ValidationError(lazy_gettext("%(name)s is not a player at this table.", name=said(value)))


def round_form(table, formdata=None, data: dict[str, Any] | None = None, base_version: int = 0,
               previous: dict[str, Any] | None = None, scored=None):
    players = table.players
    form = round_form_of(_deal_form(players), formdata, _formdata_for(players, data) if data else None,
                         base_version)
    if formdata is None and not data and scored is not None and scored.standing:
        form.dealer.data = scored.standing.get("next_dealer") or ""
    return form


@lru_cache(maxsize=256)
def _deal_form(players: tuple[str, ...]) -> type[CourtierForm]:
    people = choices([(p, p) for p in players])

    class DealForm(CourtierForm):
        base_version = HiddenField()
        dealer = SelectField(lazy_gettext("Dealer (RM-3)"), default="",
                             choices=choices([("", lazy_gettext("— the next in turn"))] + [(p, p) for p in players]))
        sequence = TapField(lazy_gettext("Sequence"), choices=people)
        winners = TapField(lazy_gettext("Won the poker hand"), choices=people)
        # One player tapped; none, or a name not at the table, is answered by the game (RM-6).
        out = RadioField(lazy_gettext("Went out first (RM-6)"), choices=people, default="", validate_choice=False)
        # RM-4: the holder of both K♥ and Q♥ takes the Marriage; one tap here stands for the two.
        marriage = TapField(lazy_gettext("Marriage K♥ Q♥"), choices=people)
        note = StringField(lazy_gettext("Note (optional)"), validators=[Length(max=200)])
        end_to = SelectField(lazy_gettext("Who won the last poker hand and takes the board? (RM-8)"), default="",
                             choices=choices([("", lazy_gettext("— the game goes on"))] + [(p, p) for p in players]))

    for card in rules.PAY_CARDS:
        setattr(DealForm, f"pay_{card}", TapField(SPACE_LABELS[card], choices=people))
    for i in range(len(players)):
        setattr(DealForm, f"p{i}_bet", CountField(lazy_gettext("Bet"), validators=[Optional(), NumberRange(
            min=0, max=rules.MAX_CHIPS * rules.MAX_PLAYERS, message=lazy_gettext("Enter the chips bet, 0 or more."))]))
        setattr(DealForm, f"p{i}_fold", BooleanField(lazy_gettext("Folded")))
        setattr(DealForm, f"p{i}_cards", StringField(lazy_gettext("Cards for the referee"),
                                                     validators=[Length(max=80)]))
        setattr(DealForm, f"p{i}_left", CountField(lazy_gettext("Cards left"), validators=[Optional(), NumberRange(
            min=0, max=rules.MAX_CARDS_LEFT, message=lazy_gettext("Enter a count from 0 to 52."))]))
    return DealForm


def _formdata_for(players, deal: dict[str, Any]) -> dict[str, Any]:
    """A stored deal as form data, to correct it."""
    if "end" in deal:
        return {"end_to": (deal.get("end") or {}).get("board_to") or ""}
    values: dict[str, Any] = {"dealer": deal.get("dealer") or "", "out": deal.get("out") or "",
                              "sequence": list(deal.get("sequence") or []), "note": deal.get("note", "")}
    for card, who in (deal.get("pay_cards") or {}).items():
        values[f"pay_{card}"] = who if isinstance(who, list) else ([who] if who else [])
    poker = deal.get("poker") or {}
    pay = deal.get("pay_cards") or {}
    values["marriage"] = [p for p in players if pay.get("KH") == p and pay.get("QH") == p]
    values["winners"] = list(poker.get("winners") or [])
    bets, folded, hands = poker.get("bets") or {}, poker.get("folded") or [], poker.get("hands") or {}
    left = deal.get("cards_left") or {}
    for i, name in enumerate(players):
        values[f"p{i}_bet"] = bets.get(name)
        values[f"p{i}_fold"] = name in folded
        values[f"p{i}_cards"] = " ".join(hands.get(name) or [])
        values[f"p{i}_left"] = left.get(name)
    return values


def round_from(form, table) -> dict[str, Any]:
    """The deal's JSON (API.md) from a validated form; a player out of the game sends nothing."""
    players = table.players
    if form.end_to.data:
        return {"end": {"board_to": form.end_to.data}}
    deal: dict[str, Any] = {}
    if form.dealer.data:
        deal["dealer"] = form.dealer.data
    pay = {}
    married = list(form.marriage.data or [])
    for card in rules.PAY_CARDS:
        held = list(form[f"pay_{card}"].data or [])
        if card in ("KH", "QH"):
            held += [name for name in married if name not in held]
        pay[card] = held[0] if len(held) == 1 else (list(held) if held else None)
    deal["pay_cards"] = pay
    deal["sequence"] = list(form.sequence.data or [])
    if table.options.get("poker", True):
        bets = {name: form[f"p{i}_bet"].data for i, name in enumerate(players) if form[f"p{i}_bet"].data}
        folded = [name for i, name in enumerate(players) if form[f"p{i}_fold"].data]
        poker: dict[str, Any] = {"bets": bets, "folded": folded, "winners": list(form.winners.data or [])}
        hands = {name: cards_in(form[f"p{i}_cards"].data) for i, name in enumerate(players)
                 if (form[f"p{i}_cards"].data or "").strip()}
        if hands:
            poker["hands"] = hands
        if bets or folded or poker["winners"] or hands:
            deal["poker"] = poker
    deal["out"] = form.out.data or None
    deal["cards_left"] = {name: form[f"p{i}_left"].data for i, name in enumerate(players)
                          if form[f"p{i}_left"].data is not None and (form[f"p{i}_left"].data or name != deal["out"])}
    if form.note.data and form.note.data.strip():
        deal["note"] = form.note.data.strip()[:200]
    return deal


def field_for(where: str, table, form) -> str | None:
    """The form field an engine problem (the part after ``rounds[i].``) belongs to."""
    players = table.players
    parts = [p for p in re.split(r"[.\[\]]", where) if p]
    head = parts[0] if parts else ""
    if head in ("dealer", "out", "sequence"):
        return head
    if head == "end":
        return "end_to"
    if head == "pay_cards" and form.marriage.data and len(parts) > 1 and parts[1].upper() in ("KH", "QH") \
            and not form[f"pay_{parts[1].upper()}"].data:
        return "marriage"  # the card was entered only through the Marriage row
    if head == "pay_cards":
        if len(parts) > 1 and f"pay_{parts[1].upper()}" in form:
            return f"pay_{parts[1].upper()}"
        return "pay_10H"
    if head == "cards_left" and len(parts) > 1 and parts[1] in players:
        return f"p{players.index(parts[1])}_left"
    if head == "poker":
        sub = parts[1] if len(parts) > 1 else ""
        name = parts[2] if len(parts) > 2 else None
        if sub == "bets" and name in players:
            return f"p{players.index(name)}_bet"
        if sub == "hands" and name in players:
            return f"p{players.index(name)}_cards"
        if sub == "folded":
            index = int(name) if name and name.isdigit() else None
            folded = [i for i in range(len(players)) if form[f"p{i}_fold"].data]
            return f"p{folded[index]}_fold" if index is not None and index < len(folded) else "winners"
        return "winners"
    return None


def field_title(field, table) -> str:
    """A field's name as the error summary shows it, with the player it belongs to."""
    name = field.short_name
    m = re.match(r"p(\d+)_", name)
    if m:
        return f"{table.players[int(m.group(1))]} · {field.label.text}"
    if name.startswith("pay_"):
        return render(say("Who held {card}", card=str(field.label.text)))
    return field.label.text


def round_heading(deal: dict[str, Any], number: int) -> Text:
    """How a scored deal is titled on the board."""
    if "end" in deal:
        return say("The end · {name} takes the board", name=str(deal["end"].get("board_to")))
    return (say("Deal {number} · {name} went out", number=number, name=str(deal.get("out"))) if deal.get("out") else
            say("Deal {number}", number=number))


def pack() -> dict[str, Any]:
    """The French pack for the card picker on the poker referee screen."""
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    return {"ranks": ranks, "copies": dict.fromkeys(ranks, 1)}


# ---------------------------------------------------------------- the poker referee (RM-9)

class PokerForm(CourtierForm):
    """RM-9: up to nine players' names and cards."""


for _n in range(1, rules.MAX_PLAYERS + 1):
    setattr(PokerForm, f"name{_n}", StringField(lazy_gettext("Player %(number)s", number=_n),
                                                validators=[Length(max=24)]))
    setattr(PokerForm, f"cards{_n}", StringField(lazy_gettext("Player %(number)s's cards", number=_n),
                                                 validators=[Length(max=80)]))


def _poker_body(form) -> dict[str, Any]:
    """The referee's question from the screen; a player left unnamed is "Player n"."""
    hands: dict[str, list[str]] = {}
    fields: dict[str, str] = {}
    for n in range(1, rules.MAX_PLAYERS + 1):
        text = (form[f"cards{n}"].data or "").strip()
        if text:
            name = (form[f"name{n}"].data or "").strip() or f"Player {n}"
            hands[name] = cards_in(text)
            fields.setdefault(name, f"cards{n}")
    g.poker_fields = fields  # where each answer's problem goes back to, for _poker_field
    return {"hands": hands}


def _poker_field(where: str) -> str | None:
    m = re.match(r"hands\.([^\[]+)", where)
    if m:
        return g.get("poker_fields", {}).get(m.group(1))
    return "cards1" if where == "hands" else None


REFEREE = {"poker": (lazy_gettext("Who wins the poker hand?"), PokerForm, _poker_body, _poker_field)}
