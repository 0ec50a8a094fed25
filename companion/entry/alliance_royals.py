"""The round entry screen for Alliance Royals (AR-1 to AR-13): four boards, hostages, surrender."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from wtforms import BooleanField, HiddenField, IntegerField, RadioField, SelectField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from ..core.messages import joined, say
from ..games import alliance_royals as rules
from .forms import CourtierForm, choices, lazy_gettext, round_form_of

SLUG = "alliance-royals"
TEMPLATE = "entry/alliance_royals.html"
ROUND_NAME = "round"
ZONES = ("spoils", "meld", "hand")
ZONE_LABELS = {"spoils": lazy_gettext("Spoils"), "meld": lazy_gettext("Meld"), "hand": lazy_gettext("Left in hand")}
HOSTAGE_ROWS = 2
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: AR-1: copies of each card in the 100-card pack, for the picker's "left" counts.
PACK = {**{str(n): 1 for n in range(2, 9)}, **{rank: 3 for rank in ("9", "10", "J", "Q", "K", "A")}}
SEATINGS = {
    "13-24": (lazy_gettext("Seats 1 + 3 against seats 2 + 4 (allies opposite)"), (0, 2), (1, 3)),
    "12-34": (lazy_gettext("Seats 1 + 2 against seats 3 + 4"), (0, 1), (2, 3)),
    "14-23": (lazy_gettext("Seats 1 + 4 against seats 2 + 3"), (0, 3), (1, 2)),
}
DEFAULT_HOUSES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
#: The pack's own House names, in the reader's language (a table's own names are shown as given).
HOUSE_LABELS = {"S": lazy_gettext("Spades"), "H": lazy_gettext("Hearts"), "D": lazy_gettext("Diamonds"),
                "C": lazy_gettext("Clubs")}
NUMBER_NEEDED = {"win_above": lazy_gettext("Give a number, like 1066."),
                 "lose_below": lazy_gettext("Give a number, like -333.")}


def house_names(table) -> dict[str, str]:
    return {**DEFAULT_HOUSES, **(table.options.get("house_names") or {})}


def house_field_label(suit: str):
    """The new-table form's field for one House's name (AR-1)."""
    return lazy_gettext("Name of the %(suit)s House", suit=SUIT_SYMBOLS[suit])


def house_field(suit: str) -> StringField:
    """The new-table form's field for one House's name, filled with the pack's name in the reader's language."""
    return StringField(house_field_label(suit), default=HOUSE_LABELS[suit], validators=[Optional(), Length(max=20)])


def typed_houses(form) -> dict[str, str]:
    """Each House's name as the new-table form has it: the pack's own name as the form showed it (in the
    reader's language, or in English) kept as the pack's, said in each reader's language; any other as typed.

    >>> class Typed(dict):
    ...     def __getitem__(self, key):
    ...         return type("Field", (), {"data": dict.__getitem__(self, key)})
    >>> typed_houses(Typed(house_S="Spades", house_H="", house_D=" Dogs ", house_C="Clubs"))
    {'S': 'Spades', 'H': 'Hearts', 'D': 'Dogs', 'C': 'Clubs'}
    """
    names = {}
    for suit, pack_name in DEFAULT_HOUSES.items():
        typed = str(form[f"house_{suit}"].data or "").strip()
        names[suit] = pack_name if typed in ("", str(HOUSE_LABELS[suit])) else typed
    return names


def options_form(formdata=None):
    class OptionsForm(CourtierForm):
        class Meta:
            csrf = False  # part of the new-table form, which carries the token

        seating = RadioField(lazy_gettext("Alliances (AR-2)"), default="13-24",
                             choices=choices((k, v[0]) for k, v in SEATINGS.items()))
        win_above = IntegerField(lazy_gettext("The game ends when an Alliance passes (AR-12)"), default=1066,
                                 validators=[InputRequired(NUMBER_NEEDED["win_above"]),
                                             NumberRange(min=1, max=rules.WIN_ABOVE_MOST)])
        lose_below = IntegerField(lazy_gettext("…or drops below (AR-12)"), default=-333,
                                  validators=[InputRequired(NUMBER_NEEDED["lose_below"]),
                                              NumberRange(min=rules.LOSE_BELOW_LEAST, max=-1)])

    for suit in DEFAULT_HOUSES:
        setattr(OptionsForm, f"house_{suit}", house_field(suit))
    return OptionsForm(formdata=formdata, prefix="opt")


def options_from(form, players=()) -> dict[str, Any]:
    options: dict[str, Any] = {"win_above": form.win_above.data, "lose_below": form.lose_below.data}
    names = typed_houses(form)
    if names != DEFAULT_HOUSES:
        options["house_names"] = names
    seating = form.seating.data or "13-24"
    if seating != "13-24" and len(players) == 4:
        _, a, b = SEATINGS[seating]
        options["teams"] = [[players[i] for i in a], [players[i] for i in b]]
    return options


def round_form(table, formdata=None, data: dict[str, Any] | None = None, base_version: int = 0,
               previous: dict[str, Any] | None = None, scored=None):
    players = table.players
    source = data if data is not None else _houses_only(previous)
    form_class = _round_form(players, tuple(house_names(table).items()))
    return round_form_of(form_class, formdata, _formdata_for(players, source) if source else None, base_version)


@lru_cache(maxsize=256)  # built once per seating and House names, not on every request
def _round_form(players: tuple[str, ...], house_items: tuple[tuple[str, str], ...]) -> type[CourtierForm]:
    houses = dict(house_items)
    # The pack's own names said in the reader's language; a table's own names as given.
    house_choices = choices((s, lazy_gettext("%(suit)s %(house)s", suit=SUIT_SYMBOLS[s],
                                             house=HOUSE_LABELS[s] if houses[s] == DEFAULT_HOUSES[s] else houses[s]))
                            for s in DEFAULT_HOUSES)

    class RoundForm(CourtierForm):
        base_version = HiddenField()
        surrender = SelectField(lazy_gettext("Surrender: whose Alliance gives up? (AR-12)"), default="",
                                choices=choices([("", lazy_gettext("— nobody"))]
                                                + [(p, lazy_gettext("%(name)s's Alliance", name=p)) for p in players]))
        confirm_surrender = BooleanField(lazy_gettext("Yes, we surrender: the other Alliance wins the game"))
        note = StringField(lazy_gettext("Note (optional)"), validators=[Length(max=200)])

    targets = choices([(p, p) for p in players] + [("", lazy_gettext("No one"))])
    for i in range(len(players)):
        # The engine checks the House (with a clearer message, and not at all on a surrender).
        setattr(RoundForm, f"p{i}_house", RadioField(lazy_gettext("Home House (AR-7)"), choices=house_choices,
                                                     validate_choice=False))
        for zone in ZONES:
            setattr(RoundForm, f"p{i}_{zone}", StringField(ZONE_LABELS[zone], validators=[Length(max=400)]))
        for j in range(HOSTAGE_ROWS):
            setattr(RoundForm, f"p{i}_h{j}_card", StringField(lazy_gettext("Hostage card"), validators=[Length(max=4)]))
            setattr(RoundForm, f"p{i}_h{j}_target", RadioField(lazy_gettext("Hostage against"), choices=targets,
                                                               default=""))
    return RoundForm


def _houses_only(previous: dict[str, Any] | None) -> dict[str, Any] | None:
    """A new round starts with each player's House from the round before."""
    if not previous or not previous.get("players"):
        return None
    return {"players": {name: {"house": board.get("house")}
                        for name, board in previous["players"].items() if isinstance(board, dict)}}


def _formdata_for(players, rnd: dict[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {"surrender": rnd.get("surrender") or "", "note": rnd.get("note", ""),
                              "confirm_surrender": bool(rnd.get("surrender"))}
    boards = rnd.get("players") or {}
    for i, name in enumerate(players):
        board = boards.get(name) or {}
        values[f"p{i}_house"] = board.get("house")
        for zone in ZONES:
            values[f"p{i}_{zone}"] = " ".join(board.get(zone) or [])
        for j, hostage in enumerate((board.get("hostages") or [])[:HOSTAGE_ROWS]):
            values[f"p{i}_h{j}_card"] = hostage.get("card", "")
            values[f"p{i}_h{j}_target"] = hostage.get("target", "")
    return values


def cards_in(text: str | None) -> list[str]:
    """Card tokens typed or picked into a zone, in order.

    >>> cards_in(" KS, qs  10H ")
    ['KS', 'qs', '10H']
    """
    return [t for t in re.split(r"[\s,;]+", (text or "").strip()) if t]


def round_from(form, table) -> dict[str, Any]:
    """The round's JSON (API.md) from a validated form."""
    if form.surrender.data:
        rnd: dict[str, Any] = {"surrender": form.surrender.data}
    else:
        boards = {}
        for i, name in enumerate(table.players):
            board: dict[str, Any] = {"house": form[f"p{i}_house"].data or None}
            for zone in ZONES:
                board[zone] = cards_in(form[f"p{i}_{zone}"].data)
            hostages = []
            for j in range(HOSTAGE_ROWS):
                card = (form[f"p{i}_h{j}_card"].data or "").strip()
                target = form[f"p{i}_h{j}_target"].data
                if card or target:
                    hostages.append({"card": card, "target": target or None})
            if hostages:
                board["hostages"] = hostages
            boards[name] = board
        rnd = {"players": boards, "surrender": None}
    if form.note.data and form.note.data.strip():
        rnd["note"] = form.note.data.strip()
    return rnd


def validate_extra(form) -> bool:
    """Checks the engine cannot make: a surrender must be confirmed."""
    if form.surrender.data and not form.confirm_surrender.data:
        form.confirm_surrender.errors = [*form.confirm_surrender.errors,
                                         say("Tick this to confirm: surrendering ends the game at once.")]
        return False
    return True


def field_for(where: str, table, form) -> str | None:
    """The form field an engine problem (the part after ``rounds[i].``) belongs to."""
    if where.startswith("surrender"):
        return "surrender"
    m = re.match(r"players\.(.+?)(?:\.(house|spoils|meld|hand|hostages)(?:\[(\d+)\](?:\.(card|target))?)?)?$", where)
    if not m or m.group(1) not in table.players:
        return None
    i = table.players.index(m.group(1))
    zone = m.group(2)
    if zone == "hostages":
        j = int(m.group(3) or 0)
        if j >= HOSTAGE_ROWS:
            return f"p{i}_h0_card"
        return f"p{i}_h{j}_{m.group(4) or 'card'}"
    return f"p{i}_{zone or 'house'}"


def field_title(field, table) -> str:
    m = re.match(r"p(\d+)_", field.short_name)
    if m:
        return f"{table.players[int(m.group(1))]} · {field.label.text}"
    return str(field.label.text)


def round_heading(rnd: dict[str, Any], number: int) -> str:
    if rnd.get("surrender"):
        return joined([say("Round {number}", number=number),
                       say("{name}'s Alliance surrendered", name=rnd["surrender"])], " · ")
    return say("Round {number}", number=number)


#: The card grid's rows: the low cards (2 to 8) beside the high ones (9 to A), four suits each, so
#: that one tap adds one card and every card of the pack has its own button (AR-1).
GRID_ROWS = tuple(zip(("2", "3", "4", "5", "6", "7", "8"), ("9", "10", "J", "Q", "K", "A", None), strict=True))


def pack() -> dict[str, Any]:
    """What the card picker offers, and how many copies of each card the pack has (AR-1)."""
    grid = [[(f"{rank}{suit}", f"{rank}{SUIT_SYMBOLS[suit]}") if rank else None
             for rank in pair for suit in DEFAULT_HOUSES] for pair in GRID_ROWS]
    return {"ranks": list(PACK), "copies": dict(PACK), "singles": [], "grid": grid,
            "zones": [str(ZONE_LABELS[z]) for z in ZONES]}



# ---------------------------------------------------------------- referee screens (AR-14, AR-15)

class BattleForm(CourtierForm):
    """AR-14: the cards of one Battle in the order they were played."""


for _n in range(1, 5):
    setattr(BattleForm, f"card{_n}", StringField(
        lazy_gettext("Led card") if _n == 1 else lazy_gettext("Card %(number)s", number=_n),
        validators=[Length(max=4)]))


HOUSE_CHOICES = choices((s, lazy_gettext("%(suit)s %(house)s", suit=SUIT_SYMBOLS[s], house=n))
                        for s, n in HOUSE_LABELS.items())


class PrivilegesForm(CourtierForm):
    """AR-15: what a player may do, from the boards."""

    house = RadioField(lazy_gettext("Your Home House"), choices=HOUSE_CHOICES)
    ally_house = RadioField(lazy_gettext("Your ally's Home House"), choices=HOUSE_CHOICES)
    spoils = StringField(lazy_gettext("Your Spoils"), validators=[Length(max=400)])
    ally_spoils = StringField(lazy_gettext("Your ally's Spoils"), validators=[Length(max=400)])
    meld = StringField(lazy_gettext("Your Meld"), validators=[Length(max=400)])
    hand = StringField(lazy_gettext("Your hand"), validators=[Length(max=400)])
    battle_won = BooleanField(lazy_gettext("I won this turn's Battle"))


def _battle_body(form) -> dict[str, Any]:
    return {"cards": [form[f"card{n}"].data.strip() for n in range(1, 5) if (form[f"card{n}"].data or "").strip()]}


def _privileges_body(form) -> dict[str, Any]:
    return {"house": form.house.data, "ally_house": form.ally_house.data,
            **{zone: cards_in(form[zone].data) for zone in ("spoils", "ally_spoils", "meld", "hand")},
            "battle_won": bool(form.battle_won.data)}


def _battle_field(where: str) -> str | None:
    m = re.match(r"cards\[(\d+)\]", where)
    return f"card{int(m.group(1)) + 1}" if m and int(m.group(1)) < 4 else ("card1" if where == "cards" else None)


def _privileges_field(where: str) -> str | None:
    head = re.split(r"[.\[]", where)[0]
    return head if head in PrivilegesForm.__dict__ or head in {"house", "ally_house"} else None


#: question -> (title, form class, body from form, problem place -> field name)
REFEREE = {
    "battle": (lazy_gettext("Who won the Battle?"), BattleForm, _battle_body, _battle_field),
    "privileges": (lazy_gettext("What may I do?"), PrivilegesForm, _privileges_body, _privileges_field),
}
