"""The turn entry screen for Royalty (RY-1 to RY-16), and the word judge's screens (RY-17)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from wtforms import BooleanField, FileField, HiddenField, RadioField, SelectField, StringField, TextAreaField
from wtforms.validators import Length, NumberRange, Optional, ValidationError

from ..core import limits
from ..core.messages import Text, joined, say
from ..core.recent import Recent
from ..games import royalty as rules
from ..games.royalty.words import TABLES_LIST, WordList, capture_check, judge
from .forms import CountField, CourtierForm, choices, lazy_gettext, round_form_of

SLUG = rules.SLUG
TEMPLATE = "entry/royalty.html"
ROUND_NAME = "turn"
KINDS = {
    "meld": lazy_gettext("Melded a word"),
    "capture": lazy_gettext("Captured a word (and maybe melded)"),
    "pass": lazy_gettext("Passed"),
    "trade": lazy_gettext("Traded cards"),
    "end": lazy_gettext("The game ended: someone went out, or everyone passed"),
}
JOUST_KINDS = {"meld": lazy_gettext("Formed a word"), "pass": lazy_gettext("Passed")}
COALITIONS = {
    "": (lazy_gettext("No coalitions: everyone plays for themselves"), None),
    "13-24": (lazy_gettext("Partners opposite: seats 1 + 3 and 2 + 4 (four players)"), [[0, 2], [1, 3]]),
    "14-25-36": (lazy_gettext("Pairs: seats 1 + 4, 2 + 5, 3 + 6 (six players)"), [[0, 3], [1, 4], [2, 5]]),
    "135-246": (lazy_gettext("Threes: seats 1 + 3 + 5 and 2 + 4 + 6 (six players)"), [[0, 2, 4], [1, 3, 5]]),
}


def options_form(formdata=None):
    class OptionsForm(CourtierForm):
        class Meta:
            csrf = False  # part of the new-table form, which carries the token

        variant = RadioField(lazy_gettext("Game"), default="standard", choices=choices(
            [("standard", "Royalty"), ("joust", lazy_gettext("Joust: two players (RY-15)"))]))
        coalitions = SelectField(lazy_gettext("Coalitions (RY-14)"), default="", choices=choices(
            (k, v[0]) for k, v in COALITIONS.items()))
        junior = BooleanField(lazy_gettext("Junior royalties: three letters of one colour score double (RY-5)"))
        house_allow = StringField(lazy_gettext("House words the judge accepts (RY-17)"), validators=[Length(max=400)])
        house_deny = StringField(lazy_gettext("House words the judge refuses (RY-17)"), validators=[Length(max=400)])
        word_file = FileField(lazy_gettext("Your own word list, instead of the default one (RY-17): a text file, one "
                                           "word a line (optional)"))

        def validate_word_file(form, field):
            field.words = None
            upload = field.data
            if not hasattr(upload, "read"):
                return  # nothing chosen (or text sent in its place): the default list
            data = upload.read()
            if not data:
                return
            try:
                field.words = WordList.from_bytes(data, upload.filename or TABLES_LIST, limits.get("MAX_WORDS"))
            except ValueError as err:
                raise ValidationError(say("{problem}. Choose a text file with one word a line.",
                                          problem=err.args[0])) from err

    for letter in rules.LETTERS:
        mark = " *" if letter in rules.PROVISIONAL else ""
        setattr(OptionsForm, f"v_{letter}", CountField(
            f"{letter}{mark}", default=rules.DEFAULT_LETTER_VALUES[letter],
            validators=[Optional(), NumberRange(min=0, max=rules.MAX_LETTER_VALUE)]))
    return OptionsForm(formdata=formdata, prefix="opt")


def options_from(form, players=()) -> dict[str, Any]:
    options: dict[str, Any] = {"variant": form.variant.data or "standard", "junior": bool(form.junior.data)}
    overrides = {letter: form[f"v_{letter}"].data for letter in rules.LETTERS
                 if form[f"v_{letter}"].data is not None
                 and form[f"v_{letter}"].data != rules.DEFAULT_LETTER_VALUES[letter]}
    if overrides:
        options["letter_values"] = overrides
    for key in ("house_allow", "house_deny"):
        words = [w.upper() for w in re.split(r"[\s,;]+", form[key].data or "") if w]
        if words:
            options[key] = words
    own = getattr(form.word_file, "words", None)
    if own is not None:
        options["word_list"] = sorted(own.words)  # kept with the table, so an export carries it
    seats = COALITIONS.get(form.coalitions.data or "", (None, None))[1]
    if seats:
        # An empty seat stays in, so the engine can say the coalitions do not fit the players.
        options["coalitions"] = [[players[i] if i < len(players) else f"seat {i + 1} (empty)" for i in group]
                                 for group in seats]
    return options


def _on_table(scored) -> list[dict[str, Any]]:
    return list((scored.standing or {}).get("table") or []) if scored is not None else []


def round_form(table, formdata=None, data: dict[str, Any] | None = None, base_version: int = 0,
               previous: dict[str, Any] | None = None, scored=None):
    players = table.players
    joust = table.options.get("variant") == "joust"
    words = _on_table(scored)
    targets = (("", "—"), *((f"{w['owner']}|{w['word']}", f"{w['word']} ({w['owner']})") for w in words))
    if data is not None:
        values = _formdata_for(players, data)
    else:
        values = {"player": ((scored.standing or {}).get("next") if scored is not None else None) or players[0]}
    return round_form_of(_turn_form(players, joust, targets), formdata, values, base_version)


@lru_cache(maxsize=256)  # built once per seating and words on the table, not on every request
def _turn_form(players: tuple[str, ...], joust: bool, targets: tuple[tuple[str, str], ...]) -> type[CourtierForm]:
    class TurnForm(CourtierForm):
        base_version = HiddenField()
        player = SelectField(lazy_gettext("Whose turn"), choices=choices((p, p) for p in players))
        kind = RadioField(lazy_gettext("What happened"), default="meld",
                          choices=choices((JOUST_KINDS if joust else KINDS).items()))
        meld = StringField(lazy_gettext("The word melded (cards)"), validators=[Length(max=80)])
        target = SelectField(lazy_gettext("The word captured (RY-7)"), default="", choices=choices(targets),
                             validate_choice=False)
        capture_cards = StringField(lazy_gettext("The new word (cards, using every card of the target)"),
                                    validators=[Length(max=80)])
        challenge_by = SelectField(lazy_gettext("Challenged by (RY-10)"), default="",
                                   choices=choices([("", lazy_gettext("— nobody"))] + [(p, p) for p in players]))
        challenge_upheld = RadioField(lazy_gettext("The challenge was"), default="", validate_choice=False,
                                      choices=choices([("upheld", lazy_gettext("upheld: the turn is void")),
                                                       ("rejected", lazy_gettext("not upheld: the challenger passes "
                                                                                 "next"))]))
        went_out = SelectField(lazy_gettext("Who went out? (RY-11)"), default="", choices=choices(
            [("", lazy_gettext("— nobody: everyone passed"))] + [(p, p) for p in players]))
        note = StringField(lazy_gettext("Note (optional)"), validators=[Length(max=200)])

    for i, name in enumerate(players):
        setattr(TurnForm, f"u{i}", StringField(lazy_gettext("%(name)s's cards left in hand", name=name),
                                               validators=[Length(max=80)]))
    return TurnForm


def _formdata_for(players, turn: dict[str, Any]) -> dict[str, Any]:
    if "end" in turn:
        end = turn["end"] or {}
        values: dict[str, Any] = {"kind": "end", "went_out": end.get("went_out") or "", "note": turn.get("note", "")}
        for i, name in enumerate(players):
            values[f"u{i}"] = (end.get("unplayed") or {}).get(name, "")
        return values
    values = {"player": turn.get("player"), "meld": turn.get("meld") or "", "note": turn.get("note", "")}
    if turn.get("capture"):
        values.update(kind="capture", target=f"{turn['capture'].get('owner', '')}|{turn['capture'].get('target')}",
                      capture_cards=turn["capture"].get("cards", ""))
    elif turn.get("pass"):
        values["kind"] = "pass"
    elif turn.get("trade"):
        values["kind"] = "trade"
    else:
        values["kind"] = "meld"
    if turn.get("challenge"):
        values["challenge_by"] = turn["challenge"].get("by", "")
        values["challenge_upheld"] = "upheld" if turn["challenge"].get("upheld") else "rejected"
    return values


def round_from(form, table) -> dict[str, Any]:
    kind = form.kind.data or "meld"
    if kind == "end":
        unplayed = {name: (form[f"u{i}"].data or "").strip() for i, name in enumerate(table.players)}
        end: dict[str, Any] = {"end": {"went_out": form.went_out.data or None, "unplayed": unplayed}}
        if form.note.data and form.note.data.strip():
            end["note"] = form.note.data.strip()
        return end
    turn: dict[str, Any] = {"player": form.player.data}
    if kind == "pass":
        turn["pass"] = True
    elif kind == "trade":
        turn["trade"] = True
    else:
        if kind == "capture":
            owner, _, word = (form.target.data or "").partition("|")
            turn["capture"] = {"target": word or None, "owner": owner or None,
                               "cards": (form.capture_cards.data or "").strip()}
        if (form.meld.data or "").strip():
            turn["meld"] = form.meld.data.strip()
        elif kind == "meld":
            turn["meld"] = ""
    if form.challenge_by.data:
        # Not chosen stays unknown, so the engine asks for it beside the choice (RY-10).
        upheld = {"upheld": True, "rejected": False}.get(form.challenge_upheld.data or "")
        turn["challenge"] = {"by": form.challenge_by.data, "upheld": upheld}
    judged = _judged(turn, table.options)
    if judged:
        turn["judged"] = judged
    if form.note.data and form.note.data.strip():
        turn["note"] = form.note.data.strip()
    return turn


def _judged(turn: dict[str, Any], options: dict[str, Any]) -> list[dict[str, Any]]:
    """What the word judge said of this turn's words when it was saved: logged with the table (RY-17)."""
    log = []
    if turn.get("capture"):
        verdict = judge_summary(letters_of(turn["capture"].get("cards")), turn["capture"].get("target"), options)
        if verdict:
            log.append(verdict)
    if turn.get("meld"):
        verdict = judge_summary(letters_of(turn["meld"]), options=options)
        if verdict:
            log.append(verdict)
    return [_logged(v) for v in log]


def _logged(verdict: dict[str, Any]) -> dict[str, Any]:
    """A verdict as the log keeps it: its words in English, and as messages to say them in any reader's
    language (``said``)."""
    why = (verdict["reasons"] or [""])[0]
    logged = {"word": verdict["word"], "valid": verdict["valid"], "why": str(why),
              "warnings": [str(w) for w in verdict["warnings"]]}
    if isinstance(why, Text) and all(isinstance(w, Text) for w in verdict["warnings"]):
        logged["said"] = {"why": why.as_data(), "warnings": [w.as_data() for w in verdict["warnings"]]}
    return logged


def field_for(where: str, table, form=None) -> str | None:
    parts = [p for p in re.split(r"[.\[\]]+", where) if p]
    head = parts[0] if parts else ""
    if head in ("player", "meld", "note"):
        return head
    if head == "capture":
        sub = parts[1] if len(parts) > 1 else "cards"
        return "capture_cards" if sub == "cards" else "target"
    if head == "challenge":
        return "challenge_upheld" if len(parts) > 1 and parts[1] == "upheld" else "challenge_by"
    if head in ("pass", "trade"):
        return "kind"
    if head == "end":
        if len(parts) > 2 and parts[1] == "unplayed" and parts[2] in table.players:
            return f"u{table.players.index(parts[2])}"
        return "went_out"
    if not head and form is not None:
        # The turn as a whole (more cards from hand than a hand holds): beside the cards entered.
        kind = form.kind.data or "meld"
        return "capture_cards" if kind == "capture" else "meld" if kind == "meld" else "kind"
    return None


def field_title(field, table) -> str:
    return field.label.text  # the end-of-game boxes carry the player's name in their label


def round_heading(turn: dict[str, Any], number: int) -> str:
    """A turn's heading, its two parts joined by " · " (the history tells the second part alone)."""
    if "end" in turn:
        went_out = (turn["end"] or {}).get("went_out")
        return joined([say("The end"), say("{player} went out", player=went_out) if went_out else
                       say("everyone passed")], " · ")
    player = turn.get("player")
    if turn.get("capture"):
        what = say("{player} captured {word}", player=player, word=str(turn["capture"].get("target")))
    elif turn.get("pass"):
        what = say("{player} passed", player=player)
    elif turn.get("trade"):
        what = say("{player} traded", player=player)
    else:
        what = say("{player} melded", player=player)
    return joined([say("Turn {number}", number=number), what], " · ")


def letters_of(text: str | None) -> str:
    """The word a card notation spells: "Cr Ar *Lb Mr" is CALM."""
    return "".join(t.lstrip("*")[:1].upper() for t in (text or "").split() if t.lstrip("*")[:1].isalpha())


def wordlist_for(options: dict[str, Any] | None) -> WordList:
    """The table's list (its own, else the default) with its house words (RY-17).

    Built once for a table's options as the state cache holds them (the same list objects on every
    request, tables.state_by_id), not on every word typed: a 200,000-word house list takes a tenth
    of a second to build.
    """
    options = options or {}
    own, allow, deny = options.get("word_list"), options.get("house_allow"), options.get("house_deny")
    key = (id(own), id(allow), id(deny))
    kept = _built.get(key)
    if kept is not None and kept[0] is own and kept[1] is allow and kept[2] is deny:
        return kept[3]
    words = _own_list(tuple(own)) if isinstance(own, list) and own else WordList.load_default()
    if allow or deny:
        words = words.with_house(allow=allow or (), deny=deny or ())
    if any(isinstance(v, list) and len(v) > 64 for v in (own, allow, deny)):
        _built.put(key, (own, allow, deny, words))  # holding the lists keeps their ids from being reused
    return words


#: Word lists built for the tables' long lists, by the identity of those lists (held with them).
_built: Recent[tuple[Any, Any, Any, WordList]] = Recent(2)


@lru_cache(maxsize=2)  # a long list is kept by _built (by identity); this builds a short one once
def _own_list(words: tuple[str, ...]) -> WordList:
    return WordList(frozenset(w.upper() for w in words), say("the table's own word list"))


def judge_summary(word: str | None, target: str | None = None,
                  options: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The word judge's verdict for the live check beside a word (RY-17, RY-7)."""
    word = re.sub(r"[^A-Za-z]", "", word or "")
    if len(word) < 2:
        return None
    words = wordlist_for(options)
    verdict = judge(word, words)
    out = {"word": verdict.word, "valid": verdict.valid, "reasons": list(verdict.reasons), "warnings": []}
    target = re.sub(r"[^A-Za-z]", "", target or "")
    if target:
        cap = capture_check(target, word, words)
        out.update(valid=cap.valid, reasons=list(cap.reasons), warnings=list(cap.warnings))
    return out


# ---------------------------------------------------------------- the word judge screens (RY-16, RY-17)

class WordForm(CourtierForm):
    word = StringField(lazy_gettext("Is this a word?"), validators=[Length(max=40)])


class CaptureForm(CourtierForm):
    target = StringField(lazy_gettext("The word on the table"), validators=[Length(max=40)])
    word = StringField(lazy_gettext("The new word"), validators=[Length(max=40)])


class MonarchyForm(CourtierForm):
    dealt = TextAreaField(lazy_gettext("The 25 cards dealt"), validators=[Length(max=200)])
    words = TextAreaField(lazy_gettext("The words made, one per line"), validators=[Length(max=600)])


def _monarchy_field(where: str) -> str | None:
    head = re.split(r"[.\[]", where)[0]
    return head if head in ("dealt", "words") else None


REFEREE = {
    "word": (lazy_gettext("Is that a word?"), WordForm, lambda f: {"word": f.word.data or ""},
             lambda where: "word" if where.startswith("word") else None),
    "capture": (lazy_gettext("Does this capture work?"), CaptureForm,
                lambda f: {"target": f.target.data or "", "word": f.word.data or ""},
                lambda where: where.split(".")[0] if where.split(".")[0] in ("target", "word") else None),
    "monarchy": (lazy_gettext("Monarchy checker"), MonarchyForm,
                 lambda f: {"dealt": f.dealt.data or "",
                            "words": [line.strip() for line in (f.words.data or "").splitlines() if line.strip()]},
                 _monarchy_field),
}
