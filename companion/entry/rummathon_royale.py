"""The hand entry screen for Rummathon Royale (RR-1 to RR-5)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from wtforms import BooleanField, HiddenField, RadioField, SelectField, StringField
from wtforms.validators import NumberRange, Optional

from ..core.messages import joined, say
from ..games import rummathon_royale as rules
from .forms import CountField, CourtierForm, choices, lazy_gettext, round_form_of

SLUG = rules.SLUG
TEMPLATE = "entry/rummathon_royale.html"
ROUND_NAME = "hand"

PROGRESS_CHOICES = choices([
    ("failed", lazy_gettext("Not completed — stays")),
    ("completed", lazy_gettext("Completed the round")),
    ("declared-completed", lazy_gettext("Declared Rummathon Royale, completed")),
    ("declared-failed", lazy_gettext("Declared Rummathon Royale, failed")),
    ("double-completed", lazy_gettext("Double Rummathon Royale, completed")),
])
#: A Burden's outcome as one tap (RR-3): who played it, and whether its target completed it.
RESULTS = {"completed": True, "failed": False}
CLASS_LABELS = {
    "low": lazy_gettext("1–9 (5)"),
    "high": lazy_gettext("10–12 (10)"),
    "action": lazy_gettext("Burden / Bypass / Block (15)"),
    "sabotage": lazy_gettext("Sabotage (20)"),
    "flex": lazy_gettext("Flex (25)"),
}
SCHEDULE_CHOICES = choices([("all", lazy_gettext("All twelve rounds")), ("even", lazy_gettext("Even rounds only")),
                            ("odd", lazy_gettext("Odd rounds only")), ("half", lazy_gettext("The first six rounds"))])


def options_form(formdata=None):
    class OptionsForm(CourtierForm):
        class Meta:
            csrf = False  # part of the new-table form, which carries the token

        schedule = RadioField(lazy_gettext("Rounds played (RR-5)"), choices=SCHEDULE_CHOICES, default="all")

    return OptionsForm(formdata=formdata, prefix="opt")


def options_from(form, players=()) -> dict[str, Any]:
    return {"schedule": form.schedule.data or "all"}


def round_form(table, formdata=None, data: dict[str, Any] | None = None, base_version: int = 0,
               previous: dict[str, Any] | None = None, scored=None):
    players = table.players
    return round_form_of(_hand_form(players), formdata, _formdata_for(players, data) if data else None, base_version)


@lru_cache(maxsize=256)  # built once per seating: every request used to build the class afresh
def _hand_form(players: tuple[str, ...]) -> type[CourtierForm]:
    class HandForm(CourtierForm):
        base_version = HiddenField()
        out = RadioField(lazy_gettext("Who went out? (RR-2)"), default="",
                         choices=choices([(p, p) for p in players]
                                         + [("", lazy_gettext("Nobody: a Double Rummathon Royale ended the hand"))]))

    for i in range(len(players)):
        for kind, label in CLASS_LABELS.items():
            setattr(HandForm, f"p{i}_{kind}", CountField(
                label, validators=[Optional(), NumberRange(min=0, max=rules.MAX_CARDS_OF_A_CLASS,
                                                  message=lazy_gettext("Enter a count from 0 to 112."))]))
        setattr(HandForm, f"p{i}_progress", RadioField(lazy_gettext("Round (RR-5)"), choices=PROGRESS_CHOICES,
                                                       default="failed"))
        setattr(HandForm, f"p{i}_extra", CountField(
            lazy_gettext("Extra cards bought before the deal (RR-4)"),
            validators=[Optional(), NumberRange(min=0, max=rules.MAX_EXTRA_CARDS,
                                                message=lazy_gettext("At most 20 extra cards a hand (RR-4)."))]))
        # RR-3: a player is burdened at most once a hand, so each player has one Burden row, in
        # their own box: who played it and how it ended, in one tap.
        setattr(HandForm, f"burden{i}", RadioField(lazy_gettext("Burden (RR-3)"), default="", choices=choices(
            [("", lazy_gettext("No Burden"))]
            + [(f"{k}:{result}", lazy_gettext("%(name)s's Burden, completed", name=by) if result == "completed"
                else lazy_gettext("%(name)s's Burden, failed", name=by))
               for k, by in enumerate(players) if k != i for result in RESULTS])))
        setattr(HandForm, f"burden{i}_double", BooleanField(lazy_gettext("Double Burden (100)")))
    # Burdens as a list of rows (on, by, result): the form before the rows above, kept so that
    # a hand saved by an older page (one waiting on a phone offline, a script) is scored as sent.
    people = choices([("", "—")] + [(p, p) for p in players])
    for j in range(len(players)):
        setattr(HandForm, f"b{j}_on", SelectField(lazy_gettext("Burden on"), choices=people, default=""))
        setattr(HandForm, f"b{j}_by", SelectField(lazy_gettext("played by"), choices=people, default=""))
        setattr(HandForm, f"b{j}_double", BooleanField(lazy_gettext("Double Burden (100)")))
        setattr(HandForm, f"b{j}_result", SelectField(lazy_gettext("result"), default="", choices=choices([
            ("", "—"), ("completed", lazy_gettext("completed (target scores)")),
            ("failed", lazy_gettext("failed (player scores)"))])))
    HandForm.note = StringField(lazy_gettext("Note (optional)"))
    return HandForm


def _formdata_for(players, hand: dict[str, Any]) -> dict[str, Any]:
    """A stored hand as form data, to edit it."""
    values: dict[str, Any] = {"out": hand.get("out") or "", "note": hand.get("note", "")}
    left = hand.get("left", {}) or {}
    progress = hand.get("progress", {}) or {}
    extra = hand.get("extra_cards", {}) or {}
    for i, name in enumerate(players):
        for kind in CLASS_LABELS:
            values[f"p{i}_{kind}"] = (left.get(name) or {}).get(kind) or None
        values[f"p{i}_progress"] = progress.get(name, "failed")
        values[f"p{i}_extra"] = extra.get(name) or None
    free = iter(range(len(players)))
    for b in hand.get("burdens", []) or []:
        on, by, completed = b.get("on"), b.get("by"), b.get("completed")
        if on in players and by in players and on != by and isinstance(completed, bool) \
                and not values.get(f"burden{players.index(on)}"):
            i = players.index(on)
            result = "completed" if completed else "failed"
            values[f"burden{i}"] = f"{players.index(by)}:{result}"
            values[f"burden{i}_double"] = bool(b.get("double"))
            continue
        j = next(free, None)  # anything else keeps its own row, to be corrected there
        if j is None:
            break
        values[f"b{j}_on"] = on or ""
        values[f"b{j}_by"] = by or ""
        values[f"b{j}_double"] = bool(b.get("double"))
        values[f"b{j}_result"] = {True: "completed", False: "failed"}.get(completed, "")
    return values


def extra_cards_allowed(score: int) -> int:
    """RR-4: the extra cards a score buys, for the hint beside the field."""
    return rules.max_extra_cards(score)


def burden_used(form, j: int) -> bool:
    """A Burden row of the older list with anything filled in goes to the game, to be scored or
    refused (never dropped)."""
    return bool(form[f"b{j}_on"].data or form[f"b{j}_by"].data or form[f"b{j}_result"].data
                or form[f"b{j}_double"].data)


def _burdens(form, players) -> list[tuple[dict[str, Any], str, str]]:
    """Every Burden entered, in the order sent to the game: (its JSON, the field its problems go
    beside, the field of its Double). A Double ticked with no Burden tapped is sent too, to be
    refused in words rather than dropped."""
    out = []
    for i, target in enumerate(players):
        tapped, double = form[f"burden{i}"].data or "", bool(form[f"burden{i}_double"].data)
        by, _, result = tapped.partition(":")
        drawn = by.isdigit() and int(by) < len(players) and int(by) != i and result in RESULTS
        if (tapped and not drawn) or (not tapped and not double):
            continue  # nothing tapped, or not one of the choices drawn (the form's own message stands)
        burden = {"on": target, "by": players[int(by)] if drawn else None, "double": double,
                  "completed": RESULTS.get(result)}
        out.append((burden, f"burden{i}", f"burden{i}_double"))
    for j in range(len(players)):
        if burden_used(form, j):
            out.append(({"on": form[f"b{j}_on"].data or None, "by": form[f"b{j}_by"].data or None,
                         "double": bool(form[f"b{j}_double"].data),
                         "completed": RESULTS.get(form[f"b{j}_result"].data)}, f"b{j}_on", f"b{j}_double"))
    return out


def round_from(form, table) -> dict[str, Any]:
    """The hand's JSON (API.md) from a validated form.

    "Not completed" is the form's default, so it is left out, except when it was sent for
    the player who went out or completed a Burden: going out and a completed Burden lay the
    round down (RR-2, RR-3, RR-5), so that choice contradicts the entry and goes to the game,
    which refuses it beside the field, never silently turned into "completed". (A post that
    does not send the field at all leaves it to the game's default.)
    """
    players = table.players
    hand: dict[str, Any] = {"out": form.out.data or None}
    left, progress, extra = {}, {}, {}
    laid_down = {hand["out"]} | {form[f"b{j}_on"].data for j in range(len(players))
                                 if form[f"b{j}_result"].data == "completed"} \
        | {name for i, name in enumerate(players) if (form[f"burden{i}"].data or "").endswith(":completed")}
    for i, name in enumerate(players):
        counts = {kind: form[f"p{i}_{kind}"].data or 0 for kind in CLASS_LABELS}
        if any(counts.values()):
            left[name] = {k: n for k, n in counts.items() if n}
        step = form[f"p{i}_progress"].data
        chosen = bool(form[f"p{i}_progress"].raw_data)
        if step and (step != "failed" or (chosen and name in laid_down)):
            progress[name] = step
        if form[f"p{i}_extra"].data:
            extra[name] = form[f"p{i}_extra"].data
    burdens = [burden for burden, _, _ in _burdens(form, players)]
    for key, value in (("left", left), ("progress", progress), ("burdens", burdens), ("extra_cards", extra)):
        if value:
            hand[key] = value
    if form.note.data and form.note.data.strip():
        hand["note"] = form.note.data.strip()[:200]
    return hand


def field_for(where: str, table, form) -> str | None:
    """The form field an engine problem (the part after ``rounds[i].``) belongs to."""
    players = table.players
    parts = where.replace("[", ".").replace("]", "").split(".")
    head = parts[0]
    if head == "out":
        return "out"
    if head in ("left", "progress", "extra_cards") and len(parts) > 1 and parts[1] in players:
        i = players.index(parts[1])
        if head == "left":
            return f"p{i}_{parts[2]}" if len(parts) > 2 and parts[2] in CLASS_LABELS else f"p{i}_low"
        return f"p{i}_progress" if head == "progress" else f"p{i}_extra"
    if head == "burdens" and len(parts) > 1 and parts[1].isdigit():
        entered = _burdens(form, players)
        k = int(parts[1])
        if k < len(entered):
            _, row, double = entered[k]
            sub = parts[2] if len(parts) > 2 else "on"
            if sub == "double":
                return double
            if row.startswith("burden"):
                return row  # one row holds who played it and how it ended
            j = row[1:row.index("_")]
            return {"on": f"b{j}_on", "by": f"b{j}_by", "completed": f"b{j}_result"}.get(sub, row)
    return None


def field_title(field, table) -> str:
    """A field's name as the error summary shows it, with the player it belongs to."""
    name = field.short_name
    if name.startswith("p") and "_" in name and name[1:name.index("_")].isdigit():
        player = table.players[int(name[1:name.index("_")])]
        if name.partition("_")[2] in CLASS_LABELS:  # a count of the cards left in hand, by class (RR-1)
            return say("{name} · cards left, {kind}", name=player, kind=str(field.label.text))
        return f"{player} · {field.label.text}"
    if name.startswith("burden"):
        seat = name[len("burden"):].split("_")[0]
        on = table.players[int(seat)]
        if name.endswith("_double"):
            return say("Burden on {name} · Double", name=on)
        return say("Burden on {name}", name=on)
    if name.startswith("b") and "_" in name and name[1:name.index("_")].isdigit():
        return say("Burden {number} · {label}", number=int(name[1:name.index("_")]) + 1, label=str(field.label.text))
    return field.label.text


def round_heading(hand: dict[str, Any], number: int) -> str:
    """How a scored hand is titled on the board."""
    if hand.get("out"):
        return joined([say("Hand {number}", number=number), say("{name} went out", name=hand["out"])], " · ")
    return joined([say("Hand {number}", number=number), say("Double Rummathon Royale")], " · ")
