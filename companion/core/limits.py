"""What one request may cost: every bound is a named setting with a safe default.

Each is read from the app's configuration (``instance/config.py`` or ``COURTIER_<NAME>``,
docs/ops.md) when the app is created; the engines, which know nothing of Flask, read the
values here.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

# The standard library knows no Unicode properties; regex knows them all (default-ignorable, joining
# types, scripts, emoji), from the Unicode version it is built with.
import regex

from .messages import Text, say

#: The settings and their defaults (docs/ops.md, *Limits*).
DEFAULTS: dict[str, Any] = {
    "MAX_NAME_CHARS": 40,        # characters in a player's, table's or tournament's name
    "MAX_NOTE_CHARS": 500,       # characters in a note or a logged ruling
    "MAX_ROUNDS": 500,           # rounds (hands, deals, turns) in one game
    "MAX_ENTRANTS": 100,         # entrants in one tournament (round-robin plans grow with the square)
    "MAX_WORDS": 200_000,        # words in a table's own word list or its house words
    "MAX_WORD_CHARS": 45,        # letters in one such word
    "MAX_JSON_DEPTH": 32,        # arrays and objects inside one another in a JSON body (a game needs 8 at most)
    "TABLE_BYTES": 4 * 1024 * 1024,  # a table's rounds as JSON: four times the largest real game (storage/bounds.py)
    "WRITE_RATE": "120 per minute; 2000 per hour",  # changes to one table (storage/bounds.py)
    "HEAVY_WORKERS": 1,          # sheets, packs and seating rendered at once
    "HEAVY_QUEUE": 4,            # heavy jobs waiting beyond those; more are answered 503
    "RETRY_AFTER": 5,            # seconds a 503 asks the phone to wait
    "HEAVY_WAIT": 1.5,           # seconds a heavy job may wait for the pool before the answer is 503
    "SHEET_SECONDS": 10,         # the CPU seconds a score sheet may take to draw, as estimated beforehand
    "CACHE_BYTES": 64 * 1024 * 1024,  # memory for all the caches together, about
    "PAGE_WAIT_SECONDS": 4,      # a phone waits this long for a page, then shows the copy it kept (static/js/sw.js)
    "CACHE_IDLE_SECONDS": 600,   # a cached table, board or sheet nobody asked for in this long is dropped
    "CREATE_RATE": "30 per minute; 300 per hour",  # new tables, imports, tournaments, rematches: together, per address
}

_values: dict[str, Any] = dict(DEFAULTS)


def configure(config: Mapping[str, Any]) -> None:
    """Take the bounds from an app's configuration (the defaults where it has none)."""
    for name, default in DEFAULTS.items():
        _values[name] = config.get(name, default)


def get(name: str) -> Any:
    return _values[name]


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def has_control(text: str) -> bool:
    """True when ``text`` holds a control character (a NUL, a line break, a tab...).

    >>> has_control("Ann"), has_control("a\\x00b"), has_control("Zoë"), has_control("a\\nb")
    (False, True, False, True)
    """
    return bool(_CONTROL.search(text)) or any(unicodedata.category(c) in ("Cc", "Cs") for c in text)


def one_line(text: str) -> str:
    """``text`` with each run of control characters (line breaks...) made one space.

    >>> one_line("Spring\\r\\nOpen")
    'Spring Open'
    """
    return re.sub(r"\s*(?:[\x00-\x1f\x7f-\x9f\u2028\u2029]\s*)+", " ", text)


# ---------------------------------------------------------------------------------------------
# The name rule: every name a person types (a player's, a table's, a tournament's, a club's, a season's)


#: Characters that draw nothing, or change how the text around them is drawn, without being seen:
#: controls, format characters (zero-width spaces and joiners, direction marks and overrides, the
#: byte-order mark, tags), line and paragraph separators, lone surrogates, Unicode's default-ignorable
#: characters (variation selectors, Hangul fillers, the combining grapheme joiner...) and the blank
#: Braille pattern, which shows as a space.
_HIDDEN = regex.compile(r"[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]")
#: Of those, the ones a real name in a real script needs, each where its script puts it: one character
#: each, known by its neighbours.
_NEEDED = regex.compile(r"""
    (?<=\p{Canonical_Combining_Class=Virama})[\u200c\u200d]    # after a virama: a half form, a conjunct
  | [\u200c\u200d](?=\p{Canonical_Combining_Class=Virama})      # before one: Bengali's ra-phala (র‍্য)
  | (?<=[\p{Joining_Type=Left_Joining}\p{Joining_Type=Dual_Joining}]\p{Joining_Type=Transparent}*)
    \u200c(?=\p{Joining_Type=Transparent}*[\p{Joining_Type=Right_Joining}\p{Joining_Type=Dual_Joining}])
                                                                # between joining letters: Persian's نیم‌فاصله
  | (?<=[\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f])\u200d(?=\p{Extended_Pictographic})
                                                                # inside an emoji sequence: 👩‍💻
  | (?<=\p{Extended_Pictographic})[\ufe0e\ufe0f]                # an emoji drawn as a picture or as text
  | (?<=[#*0-9])\ufe0f(?=\u20e3)                                 # a keycap: 1️⃣
  | (?<=\p{Ideographic})[\ufe00-\ufe0d\U000e0100-\U000e01ef]    # an ideograph's registered variant: 葛󠄀
  | (?<=\p{Script=Mongolian})[\u180b-\u180f]                     # Mongolian's variant forms and vowel separator
  | (?<=\U0001f3f4[\U000e0020-\U000e007e]*)[\U000e0020-\U000e007f]  # a flag's tags: 🏴󠁧󠁢󠁳󠁣󠁴󠁿
""", regex.VERBOSE)
#: Something a reader sees: a letter, a digit, a punctuation mark or a symbol.
_SEEN = regex.compile(r"[\p{L}\p{N}\p{P}\p{S}]")
_DIRECTION = regex.compile(r"\p{Bidi_Control}")
#: Hidden characters better known by another name than Unicode's.
_CALLED = {"\ufeff": "byte-order mark", "\u00ad": "soft hyphen"}


def tidy(text: str) -> str:
    """A name as it is kept and compared: composed (NFC, so "Zoë" typed either way is one name), its ends
    trimmed. Nothing is taken out of it: :func:`name_problem` refuses what a reader could not see.

    >>> tidy("  Zoe\\u0308 ") == "Zo\\u00eb"
    True
    """
    return unicodedata.normalize("NFC", text).strip()


def hidden(name: str) -> list[int]:
    """Where ``name`` holds a character a reader cannot see and its script does not need.

    >>> hidden("A\\u200bnn"), hidden("\\u0915\\u094d\\u200d\\u0937"), hidden("\\U0001f469\\u200d\\U0001f4bb")
    ([1], [], [])
    """
    needed = {m.start() for m in _NEEDED.finditer(name)}
    return [m.start() for m in _HIDDEN.finditer(name) if m.start() not in needed]


#: What a name rule's problem calls the text it is about, in words each language says.
_WHAT: dict[str, Text] = {
    "a name": say("a name"), "a player's name": say("a player's name"), "a table's name": say("a table's name"),
    "a tournament's name": say("a tournament's name"), "a season's name": say("a season's name"),
    "a club's name": say("a club's name"), "a note": say("a note"),
}


def _what(what: str) -> str:
    return _WHAT.get(what, what)


def name_problem(name: str, what: str = "a name", most: int | None = None) -> str | None:
    """What is wrong with a name a person typed (as :func:`tidy` leaves it), in their words, or None.

    One rule for every name, title and club's name that comes in (a form, the API, an import): no
    control character; no character that cannot be seen (a zero-width space, a byte-order mark, a tag)
    unless its script needs it where it stands (a joiner after a virama, between Persian letters or inside
    an emoji: :data:`_NEEDED`); no mark that turns the writing's direction; something that shows; at most
    ``most`` characters (MAX_NAME_CHARS).

    >>> name_problem("Ann"), name_problem("a\\x00b")
    (None, 'a name cannot hold control characters such as line breaks or tabs')
    >>> name_problem("A\\u200bnn")
    'a name cannot hold a character that does not show (a zero width space, after “A”): type it again without it'
    >>> name_problem("\\u202eAnn")
    'a name cannot hold a hidden mark that turns the writing left or right (a right-to-left override, at the start)'
    """
    most = get("MAX_NAME_CHARS") if most is None else most
    wrong = characters_problem(name, what)
    if wrong is None and len(name) > most:
        return say("{what} may have at most {most} characters", what=_what(what), most=most)
    return wrong


def characters_problem(name: str, what: str = "a name") -> str | None:
    """The name rule without its length: what a table checks of every name and title it is made with,
    however long its maker (a tournament's round, an import) let them be."""
    if has_control(name):
        return say("{what} cannot hold control characters such as line breaks or tabs", what=_what(what))
    at = hidden(name)
    if at:
        place = _place(name, at[0])
        if _DIRECTION.match(name, at[0]):
            return say("{what} cannot hold a hidden mark that turns the writing left or right ({place})",
                       what=_what(what), place=place)
        return say("{what} cannot hold a character that does not show ({place}): type it again without it",
                   what=_what(what), place=place)
    if name and not _SEEN.search(name):
        return say("{what} needs a letter, a digit or a sign that shows", what=_what(what))
    return None


def _place(name: str, index: int) -> Text:
    """The character at ``index`` named (by its Unicode name, as printed), and where it is: after the visible
    text before it."""
    what = _CALLED.get(name[index]) or unicodedata.name(name[index], "").lower() or f"U+{ord(name[index]):04X}"
    article = "an" if what[:1] in "aeiou" else "a"
    before = regex.sub(_HIDDEN, "", name[:index]).strip()[-12:]
    character = f"{article} {what}"
    if before:
        return say("{character}, after “{before}”", character=character, before=before)
    return say("{character}, at the start", character=character)


class TooDeep(ValueError):
    """A JSON body that nests its arrays and objects deeper than MAX_JSON_DEPTH; its message says so in words."""

    def __init__(self) -> None:
        super().__init__(too_deep())


def too_deep() -> Text:
    return say("the JSON nests arrays and objects more than {most} deep inside one another; no game needs as many",
               most=get("MAX_JSON_DEPTH"))


def json_depth(value: Any, most: int | None = None) -> int:
    """How deep ``value``'s arrays and objects go, counted without recursion (a stack of what is left to
    look at), and no further than one past ``most``.

    >>> json_depth(3), json_depth([]), json_depth({"a": [1, {"b": []}]}), json_depth([[[[[]]]]], most=2)
    (0, 1, 4, 3)
    """
    deepest, waiting = 0, [(value, 1)]
    while waiting:
        item, depth = waiting.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        deepest = max(deepest, depth)
        if most is not None and deepest > most:
            break
        waiting.extend((inner, depth + 1) for inner in item if isinstance(inner, list | dict))
    return deepest


def read_json(raw: bytes | str) -> Any:
    """A JSON body, every text in it composed (:func:`composed`), nested no deeper than MAX_JSON_DEPTH.
    Raises :class:`TooDeep` past that depth (however deep: the parser's own bound on nesting is taken as
    too deep), or ``ValueError`` (``json.JSONDecodeError`` for a syntax error) for what is not JSON."""
    import json

    try:
        body = json.loads(raw)
    except RecursionError:
        raise TooDeep() from None
    if json_depth(body, get("MAX_JSON_DEPTH")) > get("MAX_JSON_DEPTH"):
        raise TooDeep()
    return composed(body)


def composed(value: Any) -> Any:
    """A JSON value with every text in it, keys too, composed (NFC): a body that names "Zoë" typed one way
    in its players and the other in its rounds names one player. It recurses: a body read by :func:`read_json`
    is bounded in depth first.

    >>> composed({"players": ["Zoe\\u0308"], "rounds": [{"Zoe\\u0308": 3}]}) == {"players": ["Zo\\u00eb"],
    ...                                                                       "rounds": [{"Zo\\u00eb": 3}]}
    True
    """
    if isinstance(value, str):
        return value if unicodedata.is_normalized("NFC", value) else unicodedata.normalize("NFC", value)
    if isinstance(value, list):
        return [composed(v) for v in value]
    if isinstance(value, dict):
        return {composed(k): composed(v) for k, v in value.items()}
    return value


def name_key(name: str) -> str:
    """How two names are told to be the same person's: composed, without the characters nobody sees, case
    and runs of spaces ignored (a roster's matching, two seats at one table, two entrants).

    >>> name_key("  Mary  Ann ") == name_key("mary ann") == name_key("Mary\\u00a0A\\u200bnn")
    True
    """
    name = unicodedata.normalize("NFC", name)
    drop = set(hidden(name))
    return " ".join("".join(c for i, c in enumerate(name) if i not in drop).split()).casefold()


def note_problem(value: object, what: str = "a note") -> str | None:
    """A note is text, without control characters other than line breaks, and not too long."""
    if not isinstance(value, str):
        return say("{what} must be text", what=_what(what))
    most = get("MAX_NOTE_CHARS")
    if len(value) > most:
        return say("{what} may have at most {most} characters", what=_what(what), most=most)
    if has_control(value.replace("\n", " ").replace("\r", " ").replace("\t", " ")):
        return say("{what} cannot hold control characters", what=_what(what))
    return None
