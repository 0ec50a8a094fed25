"""The hand entry screen for Rally the King (RK-1 to RK-10), and the trick referee (RK-11)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from wtforms import BooleanField, HiddenField, RadioField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, NumberRange, Optional

from ..core.messages import ENGLISH, Text, language, render, say
from ..games import rally_the_king as rules
from .forms import CountField, CourtierForm, choices, lazy_gettext, round_form_of

SLUG = rules.SLUG
TEMPLATE = "entry/rally_the_king.html"
ROUND_NAME = "hand"
KINGS = {"KS": lazy_gettext("♠ King of Spades"), "KH": lazy_gettext("♥ King of Hearts"),
         "KD": lazy_gettext("♦ King of Diamonds"), "KC": lazy_gettext("♣ King of Clubs")}
BID_GROUPS = {"points": lazy_gettext("Point contracts"), "tricks": lazy_gettext("Trick contracts"),
              "beggar": lazy_gettext("Beggar contracts")}
#: RK-2: the count boxes' labels, each class with its value.
CLASS_LABELS = {"honours": lazy_gettext("Honours (%(value)s)", value=5),
                "kings": lazy_gettext("Kings (%(value)s)", value=5),
                "queens": lazy_gettext("Queens (%(value)s)", value=4),
                "cavaliers": lazy_gettext("Cavaliers (%(value)s)", value=3),
                "valets": lazy_gettext("Valets (%(value)s)", value=2),
                "others": lazy_gettext("Others (%(value)s)", value=1)}
ALONE = "alone"
#: The countings (RK-3) as the options name them, their labels capitalised.
COUNTING_LABELS = {"individual": lazy_gettext("Individual (card values + 1 a trick)"),
                   "traditional": lazy_gettext("Traditional (each card its value − 2/3)")}


def _bid_label(bid) -> Text:
    if bid.lost_value != bid.value:
        return say("{bid} — {won} / {lost}", bid=bid.label, won=bid.value, lost=bid.lost_value)
    return say("{bid} — {value}", bid=bid.label, value=bid.value)


def bid_choices() -> list[SelectChoice]:
    out = [SelectChoice("", lazy_gettext("— choose the bid"))]
    for slug, bid in rules.BIDS.items():
        group = lazy_gettext("After “I wait”") if bid.after_wait else BID_GROUPS[bid.kind]
        out.append(SelectChoice(slug, _bid_label(bid), optgroup=group,
                                render_kw={"data-kind": bid.kind, "data-partner": str(bid.partner).lower(),
                                           "data-bird": str(bid.bird).lower()}))
    return out


def options_form(formdata=None):
    class OptionsForm(CourtierForm):
        class Meta:
            csrf = False  # part of the new-table form, which carries the token

        counting = RadioField(lazy_gettext("Counting card points (RK-3)"), default="individual", choices=choices(
            (slug, COUNTING_LABELS[slug]) for slug in rules.COUNTINGS))
        hands = CountField(lazy_gettext("Hands in the game (RK-10)"), default=4, validators=[
            Optional(), NumberRange(min=1, max=rules.MAX_HANDS, message=lazy_gettext("From 1 to 100 hands."))])

    return OptionsForm(formdata=formdata, prefix="opt")


def options_from(form, players=()) -> dict[str, Any]:
    return {"counting": form.counting.data or "individual", "hands": form.hands.data or 4}


def next_dealer(players, previous: dict[str, Any] | None) -> str:
    """RK-10: the deal passes to the left (the next seat)."""
    if previous and previous.get("dealer") in players:
        return players[(players.index(previous["dealer"]) + 1) % len(players)]
    return players[0]


def round_form(table, formdata=None, data: dict[str, Any] | None = None, base_version: int = 0,
               previous: dict[str, Any] | None = None, scored=None):
    players = table.players
    values = _formdata_for(players, data) if data is not None else {"dealer": next_dealer(players, previous)}
    return round_form_of(_hand_form(players), formdata, values, base_version)


@lru_cache(maxsize=256)  # built once per seating, not on every request
def _hand_form(players: tuple[str, ...]) -> type[CourtierForm]:
    people = choices([("", "—")] + [(p, p) for p in players])

    class HandForm(CourtierForm):
        base_version = HiddenField()
        dealer = SelectField(lazy_gettext("Dealer (RK-10)"), choices=choices((p, p) for p in players))
        bid = SelectField(lazy_gettext("Bid (RK-4)"), choices=bid_choices(), default="")
        declarer = SelectField(lazy_gettext("Declarer"), choices=people, default="")
        called_king = SelectField(lazy_gettext("Called King (RK-5)"), default="",
                                  choices=choices([("", "—")] + list(KINGS.items())))
        partner = SelectField(lazy_gettext("Who held the called King? (RK-5)"), default="", choices=choices(
            [("", "—"), (ALONE, lazy_gettext("The declarer held it, or it was in the stock"))]
            + [(p, p) for p in players]))
        declarer_points = StringField(lazy_gettext("Declarer side's card points (RK-3)"), validators=[Length(max=12)])
        declarer_tricks = CountField(lazy_gettext("Tricks the declarer won"), validators=[
            Optional(), NumberRange(min=0, max=rules.TRICKS, message=lazy_gettext("From 0 to 12 tricks."))])
        bird = SelectField(lazy_gettext("The bird of the contract (RK-6)"), default="",
                           choices=choices([("", "—")] + [(s, say("{bird} ({description})", bird=b.label,
                                                                  description=b.description))
                                                         for s, b in rules.BIRDS.items()]))
        bird_made = SelectField(lazy_gettext("Did the declarer side make its bird? (RK-6)"), default="",
                                choices=choices([("", "—"), ("yes", lazy_gettext("Yes, made")),
                                                 ("no", lazy_gettext("No, not made"))]))
        note = StringField(lazy_gettext("Note (optional)"), validators=[Length(max=200)])

    for kind, cls in rules.CARD_CLASSES.items():
        setattr(HandForm, f"c_{kind}", CountField(
            CLASS_LABELS[kind], validators=[
                Optional(), NumberRange(min=0, max=cls.in_pack,
                                        message=lazy_gettext("The pack has %(count)s.", count=cls.in_pack))]))
    HandForm.c_tricks = CountField(lazy_gettext("Tricks won"), validators=[
        Optional(), NumberRange(min=0, max=rules.TRICKS, message=lazy_gettext("From 0 to 12 tricks."))])
    for i in range(len(players)):
        setattr(HandForm, f"pp_{i}", StringField(lazy_gettext("Card points"), validators=[Length(max=12)]))
    for slug in rules.BONUSES:
        setattr(HandForm, f"bo_{slug}_side", SelectField(lazy_gettext("won or lost by"), default="", choices=choices(
            [("", "—"), ("declarer", lazy_gettext("declarer side")), ("defenders", lazy_gettext("defenders"))])))
        setattr(HandForm, f"bo_{slug}_announced", BooleanField(lazy_gettext("announced")))
        setattr(HandForm, f"bo_{slug}_made", BooleanField(lazy_gettext("made")))
    return HandForm


def _formdata_for(players, hand: dict[str, Any]) -> dict[str, Any]:
    keys = ("dealer", "bid", "declarer", "called_king", "bird", "note")
    values: dict[str, Any] = {k: hand.get(k) or "" for k in keys}
    partner = hand.get("partner")
    values["partner"] = partner or (ALONE if rules.BIDS.get(hand.get("bid", "")) and
                                    getattr(rules.BIDS[hand["bid"]], "partner", False) else "")
    if hand.get("declarer_points") is not None:
        values["declarer_points"] = str(hand["declarer_points"])
    for kind, n in (hand.get("declarer_cards") or {}).items():
        values[f"c_{kind}"] = n
    values["declarer_tricks"] = hand.get("declarer_tricks")
    for i, name in enumerate(players):
        if name in (hand.get("player_points") or {}):
            values[f"pp_{i}"] = str(hand["player_points"][name])
    for bonus in hand.get("bonuses") or []:
        slug = bonus.get("bonus")
        if slug == hand.get("bird") and bonus.get("side", "declarer") == "declarer":  # the contract's bird (RK-6)
            values["bird_made"] = "yes" if bonus.get("made") else "no"
        elif slug in rules.BONUSES:
            values[f"bo_{slug}_side"] = bonus.get("side", "declarer")
            values[f"bo_{slug}_announced"] = bool(bonus.get("announced"))
            values[f"bo_{slug}_made"] = bool(bonus.get("made"))
    return values


def _counted(form) -> list[str]:
    """The card-count boxes the player filled (RK-3)."""
    return [f"c_{kind}" for kind in rules.CARDS_FIELDS if form[f"c_{kind}"].data is not None]


def validate_extra(form) -> bool:
    """What WTForms cannot see field by field: a choice that needs another (RK-3, RK-5, RK-6)."""
    bid = rules.BIDS.get(form.bid.data or "")
    ok = True

    def refuse(name: str, message: str) -> None:
        nonlocal ok
        form[name].errors = [*form[name].errors, message]
        ok = False

    if bid is None:
        return ok
    if bid.partner:
        if not form.called_king.data:
            refuse("called_king", lazy_gettext("Choose the King the declarer called (RK-5)."))
        if not form.partner.data:
            refuse("partner", lazy_gettext("Choose who held the called King: a player, or “The declarer held it, "
                                           "or it was in the stock” (RK-5)."))
    if bid.kind == "points":
        counted = _counted(form)
        if counted and (form.declarer_points.data or "").strip():
            refuse("declarer_points", lazy_gettext("Give the card points or count the cards, not both: clear one "
                                                   "(RK-3)."))
            for name in counted:
                refuse(name, lazy_gettext("Counted beside typed card points: clear the points or the counts (RK-3)."))
        if bid.bird and form.bird_made.data and not form.bird.data:
            refuse("bird_made", lazy_gettext("Choose first which bird the contract names (RK-6)."))
        if bid.bird and form.bird.data:
            if not form.bird_made.data:
                refuse("bird_made", lazy_gettext("Say whether the declarer side made the bird the contract names "
                                                 "(RK-6)."))
            if form[f"bo_{form.bird.data}_side"].data == "declarer":
                refuse(f"bo_{form.bird.data}_side", lazy_gettext("This is the contract's own bird: say above whether "
                                                                 "it was made; use this row only for the defenders "
                                                                 "(RK-6)."))
    return ok


def _number(text: str) -> int | str:
    """Whole numbers go as numbers; anything else ("35 2/3") as typed, for the engine to read."""
    text = text.strip()
    return int(text) if re.fullmatch(r"-?\d{1,6}", text) else text


def round_from(form, table) -> dict[str, Any]:
    """The hand's JSON (API.md) from a validated form, keeping only what the bid uses."""
    bid = rules.BIDS.get(form.bid.data or "")
    hand: dict[str, Any] = {"dealer": form.dealer.data, "bid": form.bid.data or None}
    if bid is None or bid.kind != "all-beggars":
        hand["declarer"] = form.declarer.data or None
    if bid is not None and bid.partner:
        if form.called_king.data:
            hand["called_king"] = form.called_king.data
        hand["partner"] = None if form.partner.data in ("", ALONE) else form.partner.data
    if bid is not None and bid.kind == "points":
        cards = {kind: form[f"c_{kind}"].data for kind in [*rules.CARD_CLASSES, "tricks"]
                 if form[f"c_{kind}"].data is not None}
        if cards:
            hand["declarer_cards"] = cards
        if (form.declarer_points.data or "").strip():  # both given: the engine refuses them, never one dropped
            hand["declarer_points"] = _number(form.declarer_points.data)
        if bid.bird:
            hand["bird"] = form.bird.data or None
        contract_bird = form.bird.data if bid.bird else None
        bonuses = [{"bonus": slug, "side": form[f"bo_{slug}_side"].data,
                    "announced": bool(form[f"bo_{slug}_announced"].data),
                    "made": bool(form[f"bo_{slug}_made"].data)}
                   for slug in rules.BONUSES if _bonus_filled(form, slug)]
        if contract_bird and form.bird_made.data:  # RK-6: the contract's bird, announced by the declarer side
            bonuses.insert(0, {"bonus": contract_bird, "side": "declarer", "announced": True,
                               "made": form.bird_made.data == "yes"})
        if bonuses:
            hand["bonuses"] = bonuses
    elif bid is not None and bid.kind in ("tricks", "beggar"):
        hand["declarer_tricks"] = form.declarer_tricks.data
    elif bid is not None:
        hand["player_points"] = {name: _number(form[f"pp_{i}"].data or "")
                                 for i, name in enumerate(table.players)}
    if form.note.data and form.note.data.strip():
        hand["note"] = form.note.data.strip()
    return hand


def _bonus_filled(form, slug: str) -> bool:
    """A bonus row the player touched: a side chosen, or announced or made ticked. One ticked without a
    side still reaches the game, which asks for the side beside it (RK-8), rather than being dropped."""
    return bool(form[f"bo_{slug}_side"].data or form[f"bo_{slug}_announced"].data or form[f"bo_{slug}_made"].data)


def field_for(where: str, table, form) -> str | None:
    """The form field an engine problem (the part after ``rounds[i].``) belongs to."""
    parts = re.split(r"[.\[\]]+", where.strip("."))
    parts = [p for p in parts if p]
    head = parts[0] if parts else ""
    if head in ("dealer", "bid", "declarer", "called_king", "partner", "declarer_points", "declarer_tricks",
                "bird"):
        return head
    if head == "declarer_cards":
        return f"c_{parts[1]}" if len(parts) > 1 and f"c_{parts[1]}" in form else "c_honours"
    if head == "player_points":
        if len(parts) > 1 and parts[1] in table.players:
            return f"pp_{table.players.index(parts[1])}"
        return "pp_0"
    if head == "bonuses" and len(parts) == 1:
        return "bird_made" if form.bird.data else None
    if head == "bonuses" and len(parts) > 1 and parts[1].isdigit():
        used = [slug for slug in rules.BONUSES if _bonus_filled(form, slug)]
        bid = rules.BIDS.get(form.bid.data or "")
        if bid is not None and bid.bird and form.bird.data and form.bird_made.data:
            used.insert(0, "")  # the contract's bird comes first, from its own question
        k = int(parts[1])
        if k < len(used) and not used[k]:
            return "bird_made"
        if k < len(used):
            sub = parts[2] if len(parts) > 2 and parts[2] in ("announced", "made") else "side"
            return f"bo_{used[k]}_{sub}"
    return None


def field_title(field, table) -> str:
    """A field named where its problem is listed: a player's or a bonus's field says whose (said in the
    reader's language now, while the page is made)."""
    m = re.match(r"pp_(\d+)$", field.short_name)
    if m:
        return f"{table.players[int(m.group(1))]} · {field.label.text}"
    m = re.match(r"bo_(.+)_(side|announced|made)$", field.short_name)
    if m:
        return f"{render(rules.BONUSES[m.group(1)].label)} · {field.label.text}"
    return field.label.text


def round_heading(hand: dict[str, Any], number: int) -> Text:
    bid = rules.BIDS.get(hand.get("bid") or "")
    if bid is None:
        return say("Hand {number}", number=number)
    if bid.kind == "all-beggars":
        return say("Hand {number} · All beggars", number=number)
    return say("Hand {number} · {bid} by {declarer}", number=number, bid=bid.label, declarer=str(hand.get("declarer")))


def counting_name(table) -> str:
    """The table's counting (RK-3) as a sentence names it, in the reader's language."""
    names = rules.COUNTING_NAMES
    return render(names.get(table.options.get("counting", "individual"), names["individual"]))


def counting_table(table) -> dict[str, Any]:
    """What the page's script needs to add up counted cards live (RK-3)."""
    counting = rules.COUNTINGS[table.options.get("counting", "individual")]
    thirds = int(counting.per_card * 3)
    table_words = {"classes": {kind: 3 * cls.value + thirds for kind, cls in rules.CARD_CLASSES.items()},
                   "trick": int(counting.per_trick * 3), "target3": int(counting.target * 3),
                   "target": rules.format_points(counting.target)}
    if language() != ENGLISH:  # the script's own English words otherwise, the English page as it was
        table_words["said"] = {
            "reached": render(say("{points} card points — target reached", points="{points}")),
            "short": render(say("{points} card points — short of {target}", points="{points}",
                                target=table_words["target"]))}
    return table_words


def pack() -> dict[str, Any]:
    """The tarot pack for the picker: trumps and the Tomfool as single cards, then the suit cards (RK-1)."""
    ranks = ["7", "8", "9", "10", "V", "C", "Q", "K"]
    singles = [f"T{n}" for n in range(1, 22)] + ["F"]
    return {"ranks": ranks, "copies": dict.fromkeys(ranks, 1), "singles": singles, "single_copies": 1,
            "single_labels": {"F": lazy_gettext("Fool")}}


# ---------------------------------------------------------------- the trick referee (RK-11)

class TrickForm(CourtierForm):
    """RK-11: the cards of one trick in play order."""

    no_trumps = BooleanField(lazy_gettext("Played at No trumps"))


for _n in range(1, 5):
    setattr(TrickForm, f"card{_n}", StringField(lazy_gettext("Led card") if _n == 1 else
                                                lazy_gettext("Card %(number)s", number=_n), validators=[Length(max=4)]))


def _trick_body(form) -> dict[str, Any]:
    cards = [form[f"card{n}"].data.strip() for n in range(1, 5) if (form[f"card{n}"].data or "").strip()]
    return {"cards": cards, "no_trumps": bool(form.no_trumps.data)}


def _trick_field(where: str) -> str | None:
    m = re.match(r"cards\[(\d+)\]", where)
    return f"card{int(m.group(1)) + 1}" if m and int(m.group(1)) < 4 else ("card1" if where == "cards" else None)


REFEREE = {"trick": (lazy_gettext("Who won the trick?"), TrickForm, _trick_body, _trick_field)}
