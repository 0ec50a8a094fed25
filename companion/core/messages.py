"""Words a player reads, in the player's language: the engines say *what* to say, the edge says it.

An engine (or a form, a referee, a command) never writes a sentence in English or any language: it
makes a :class:`Text` with :func:`say` or :func:`say_n`, a message id (the English template, as
gettext has it) with its values. A :class:`Text` is a ``str`` whose value is the English sentence, so
everything that only needs English (the suite's cases, logs, the JSON of a program that asks for
English) reads it as before; and it keeps what another language needs, so the edge (a page, a sheet,
the API, the command line) says it in the reader's language with :func:`render`:

>>> line = say_n("Bought {count} extra card: {points} (RR-4)", "Bought {count} extra cards: {points} (RR-4)",
...              2, points=Signed(-20))
>>> line
'Bought 2 extra cards: −20 (RR-4)'
>>> line.rulings
('RR-4',)
>>> render(line, "qps")
'⟦Ɓôûĝĥţ 2 éẋţŕå çåŕðš: −20 (RR-4)⟧'

Values are said by kind: a whole number with the language's digits and grouping (English as plain as
before, French ``1 066``), :class:`Signed` points with their sign, :class:`Listed` names joined as the
language joins a list, a nested :class:`Text` in the same language; a name, a card or a word stays as
it is. The language of the reader is :func:`language` (a context variable: each request, sheet job
and command sets its own); ``qps`` is a pseudo-language the tests use to find words that escaped
translation (each message marked ⟦ ⟧ and accented).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

#: The languages Courtier speaks, English first (the language of the message ids).
LANGUAGES = ("en", "fr", "hi")
ENGLISH = "en"
#: The test-only pseudo-language (never offered to players).
PSEUDO = "qps"
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"
DOMAIN = "messages"
RULING = re.compile(r"\b[A-Z]{2}-\d+[a-z]?\b")
_FIELDS = string.Formatter()

_language: ContextVar[str] = ContextVar("courtier_language", default=ENGLISH)


def language() -> str:
    """The reader's language for what is being said now (a request's, a job's, a command's)."""
    return _language.get()


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Say everything within in ``code``'s language (a sheet job, a command, a test)."""
    token = _language.set(code)
    try:
        yield
    finally:
        _language.reset(token)


def set_language(code: str) -> None:
    """A request's language, for the rest of its context (the web layer's hook)."""
    _language.set(code)


class Signed(int):
    """Points as a player writes them: +5, 0, −30."""


class Grouped(int):
    """A large number written with its thousands grouped, as English always wrote it (1,000,000); each
    other language groups it its own way (1 000 000 in French)."""


class Listed(tuple):
    """Items said as a list is said in the language: "Ann, Ben and Cat", "Ann, Ben et Cat"."""


class Text(str):
    """A sentence to show a player: the English words as a ``str``, with what other languages need.

    ``template`` is the message id (English, ``{name}`` fields), ``plural`` its plural form and ``count``
    the number that chooses between them, ``values`` the fields' values.
    """

    template: str
    plural: str | None = None  # a message with no plural form keeps only its template and values
    count: int | None = None
    values: Mapping[str, Any]

    def __new__(cls, template: str, values: Mapping[str, Any], plural: str | None = None,
                count: int | None = None) -> Text:
        chosen = template if plural is None or count == 1 else plural
        text = str.__new__(cls, _english(chosen, values) if values else chosen)
        if plural is not None:
            text.plural, text.count = plural, count
        text.template, text.values = template, values
        return text

    def __reduce__(self):
        return (Text, (self.template, dict(self.values), self.plural, self.count))

    @property
    def rulings(self) -> tuple[str, ...]:
        """The ruling ids the sentence cites (RULINGS.md), in order."""
        return tuple(dict.fromkeys(RULING.findall(self)))

    def said_in(self, code: str) -> str:
        return render(self, code)

    def __html__(self) -> str:
        """In a template: the reader's language, escaped (a name in it may hold anything)."""
        from markupsafe import escape

        return str(escape(render(self, language())))

    def as_data(self) -> dict[str, Any]:
        """The message as a program reads it without parsing words: its id, values and ruling ids."""
        return {"id": self.template if self.plural is None or self.count == 1 else self.plural,
                "values": {name: _data(value) for name, value in self.values.items()},
                "rulings": list(self.rulings)}


def say(template: str, /, **values: Any) -> Text:
    """A sentence, its fields ``{name}`` filled from ``values`` (never an f-string: the template is the id)."""
    key = _said_key(template, values)
    if key is None:
        return Text(template, values)
    return _SAID.get(key) or _keep_said(key, Text(template, values))


def say_n(singular: str, plural: str, count: int, /, **values: Any) -> Text:
    """A sentence that depends on a number, ``{count}`` in both forms; each language has its own plural rules."""
    values = {"count": count, **values}
    key = _said_key((singular, plural), values)
    if key is None:
        return Text(singular, values, plural, count)
    return _SAID.get(key) or _keep_said(key, Text(singular, values, plural, count))


#: Messages said lately, by what tells each from every other. A why says the same lines round after round
#: and table after table ("Hand empty: 0 (AR-6)", a player's Home House), and a message never changes once
#: made, so one said again is the one made before: its English words are not filled in again.
#: docs/measurements.md, "Every why a message", has what it saves.
_SAID: dict[tuple, Text] = {}
_SAID_MOST = 4096
#: The kinds of value a message is known by as they are: equal values of one of these kinds are said alike in
#: every language. A Signed 5 is said apart from a plain 5, so each value's kind is part of the key.
_PLAIN = frozenset([str, int, Signed])


def _said_key(template: str | tuple[str, str], values: Mapping[str, Any]) -> tuple | None:
    """What tells a message from every other: its template (a plural message's two forms), and each value with
    its kind. A message or joined sentence within is known by its identity, for two can have the same English
    words and other words in another language; the message kept holds it, so that identity is never another's.
    Names listed are known as they are. None for a message holding any other kind of value: it is made anew.

    >>> say("{name} went out", name="Ann") is say("{name} went out", name="Ann")
    True
    >>> say("Bonus {points}", points=Signed(5)) == say("Bonus {points}", points=5)
    False
    """
    key: list[Any] = [template]
    for name, value in values.items():
        kind = value.__class__
        if kind in _PLAIN:
            key.append((name, kind, value))
        elif kind in _BY_IDENTITY:
            key.append((name, id(value)))
        elif kind is Listed and all(item.__class__ is str for item in value):  # names, said alike everywhere
            key.append((name, kind, value))
        else:
            return None
    return tuple(key)


def _keep_said(key: tuple, text: Text) -> Text:
    if len(_SAID) >= _SAID_MOST:
        _SAID.clear()  # bounded; the lines a table says again are kept again at its next round
    _SAID[key] = text
    return text


def forget_said() -> None:
    """Make every message anew from here (the bench's cold scoring, as on a server just started)."""
    _SAID.clear()


class Joined(Text):
    """Sentences said one after another, each in the reader's language (the join itself is no message)."""

    def __new__(cls, parts: Iterable[str], separator: str = " ") -> Joined:
        parts = tuple(parts)
        text = str.__new__(cls, separator.join(parts))
        text.template, text.plural, text.count = separator.join("{}" for _ in parts), None, None
        text.values, text.parts, text.separator = {}, parts, separator
        return text

    def __reduce__(self):
        return (Joined, (self.parts, self.separator))

    def as_data(self) -> dict[str, Any]:
        return {"id": None, "parts": [_data(part) for part in self.parts], "rulings": list(self.rulings)}


#: The kinds of value a kept message or joined sentence knows by their identity, not by their words: two
#: messages can have the same English words and other words in another language (:func:`_said_key`).
_BY_IDENTITY = frozenset([Text, Joined])


#: How deep a message kept as data may nest (a why line's value is at most a message with its own values).
DATA_DEPTH = 3


def from_data(data: Any, depth: int = 0) -> Text:
    """The message :meth:`Text.as_data` gave, again: for words kept with a table (the word judge's verdict)
    and said in whoever reads them later. Only a message Courtier itself says is one: anything else is a
    ``ValueError`` (kept data may come from a program).

    >>> line = say("{word} is in {list} (RY-17)", word="OX", list=say("the table's word list"))
    >>> again = from_data(line.as_data())
    >>> again == line, render(again, "qps")
    (True, "⟦OX îš îñ ⟦ţĥé ţåƀļé'š ŵôŕð ļîšţ⟧ (RY-17)⟧")
    >>> from_data({"id": "{0.__class__}", "values": {}})
    Traceback (most recent call last):
    ValueError: not a message Courtier says
    """
    if not isinstance(data, Mapping) or depth > DATA_DEPTH or set(data) - {"id", "values", "rulings", "parts"}:
        raise ValueError("not a message Courtier says")
    if data.get("id") is None and isinstance(data.get("parts"), list) and len(data["parts"]) <= 8:
        return joined([_value_from_data(part, depth + 1) for part in data["parts"]])
    template, values = data.get("id"), data.get("values", {})
    singular, plural = _said_ids().get(template, (None, None)) if isinstance(template, str) else (None, None)
    if singular is None or not isinstance(values, Mapping) or len(values) > 8:
        raise ValueError("not a message Courtier says")
    fields = {name for _, name, _, _ in _FIELDS.parse(template) if name}
    if set(values) != fields or not all(isinstance(name, str) for name in values):
        raise ValueError("not a message Courtier says")
    kept = {name: _value_from_data(value, depth + 1) for name, value in values.items()}
    if plural is None:
        return Text(singular, kept)
    count = kept.get("count")
    if not isinstance(count, int) or isinstance(count, bool):
        raise ValueError("not a message Courtier says")
    return Text(singular, kept, plural, count)


def _value_from_data(value: Any, depth: int) -> Any:
    if isinstance(value, Mapping):
        return from_data(value, depth)
    if isinstance(value, list) and len(value) <= 16:
        return Listed(_value_from_data(item, depth + 1) for item in value)
    if isinstance(value, bool) or value is None or isinstance(value, int | float):
        return value
    if isinstance(value, str) and len(value) <= 200:
        return value
    raise ValueError("not a message Courtier says")


@lru_cache(maxsize=1)
def _said_ids() -> dict[str, tuple[str, str | None]]:
    """Every message id Courtier says, each with its (singular, plural): read from the first translation's
    catalog, which holds every one (tests/test_translations.py)."""
    from babel.messages.pofile import read_po

    with (TRANSLATIONS / LANGUAGES[1] / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as po:
        template = read_po(po)
    ids: dict[str, tuple[str, str | None]] = {}
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            singular, plural = message.id[0], message.id[1]
            ids[singular] = ids[plural] = (singular, plural)
        else:
            ids[message.id] = (message.id, None)
    return ids


def joined(parts: Iterable[str], separator: str = " ") -> Joined:
    """Sentences said one after another, each in the reader's language.

    >>> joined([say("Went out."), say("Collects {n}.", n=20)])
    'Went out. Collects 20.'
    """
    parts = tuple(parts)
    key = _joined_key(parts, separator)
    if key is None:
        return Joined(parts, separator)
    return _SAID.get(key) or _keep_said(key, Joined(parts, separator))


#: What a joined sentence's key starts with, so that it is never a message's (whose key starts with its template).
_JOINED = object()


def _joined_key(parts: tuple[str, ...], separator: str) -> tuple | None:
    """What tells a joined sentence from every other: its separator and each part, a plain ``str`` as it is and
    a message by its identity (as in :func:`_said_key`). None when a part is of any other kind.

    >>> a, b = say("{count} Royal set", count=1), say("{count} marriage", count=2)
    >>> joined([a, b], " + ") is joined([a, b], " + "), joined([a, b], " + ") is joined([a, b])
    (True, False)
    """
    key: list[Any] = [_JOINED, separator]
    for part in parts:
        kind = part.__class__
        if kind is str:
            key.append(part)
        elif kind in _BY_IDENTITY:
            key.append(id(part))
        else:
            return None
    return tuple(key)


def render(value: Any, code: str | None = None) -> str:
    """``value`` said in ``code``'s language (the reader's by default): a :class:`Text`, or a value as a
    message shows it."""
    code = code or language()
    if isinstance(value, Text):
        if code == ENGLISH:
            return str.__str__(value)
        if isinstance(value, Joined):
            return spaced(value.separator, code).join(render(part, code) for part in value.parts)
        translations = catalog(code)
        chosen = (translations.ugettext(value.template) if value.plural is None
                  else translations.ungettext(value.template, value.plural, value.count))
        return _format(chosen, value.values, code)
    return _value(value, code)


#: The languages that put a no-break space before these signs (French: « total : 5 ; fin »).
SPACED_BEFORE = {"fr": frozenset(":;!?")}


def spaced(separator: str, code: str) -> str:
    """A separator between sentences as the language writes it.

    >>> spaced("; ", "fr"), spaced("; ", "en"), spaced(", ", "fr")
    ('\\xa0; ', '; ', ', ')
    """
    signs = SPACED_BEFORE.get(code)
    if signs and separator[:1] in signs:
        return "\u00a0" + separator
    return separator


def _english(template: str, values: Mapping[str, Any]) -> str:
    """A message's English words, as :func:`_format` writes them in English. A name, a message within (its
    English words) or a count of zero or more is its own words, put in as it is; only the other values are
    worded first. Every why line of every round is worded as it is scored: this is most of an engine's work."""
    worded = None
    for name, value in values.items():
        kind = type(value)
        if kind is str or kind is Text or kind is Joined or (kind is int and 0 <= value < _LONGEST_WRITTEN):
            continue
        if worded is None:
            worded = dict(values)
        worded[name] = _value(value, ENGLISH)
    return template.format_map(values if worded is None else worded)


def _format(template: str, values: Mapping[str, Any], code: str) -> str:
    if not values:
        return template
    # str.format_map: string.Formatter's vformat is the same in Python, six times slower (a board says
    # every line of its latest rounds).
    worded = {name: _value(value, code) for name, value in values.items()}
    if code in ELIDING and _elides(template):
        template = elided(template, worded, code)
    return template.format_map(worded)


#: The languages whose small words change before the value put after them (French: « d’Ann », « du tour »).
ELIDING = frozenset(["fr"])
#: A word French writes elided before a vowel, and the field after it: ``{name}`` or a page's ``%(name)s``.
_ELIDABLE = re.compile(r"(?<![\w’'])(de|que|le|la|ne|se|jusque|lorsque|puisque|à) (\{(\w+)\}|%\((\w+)\)s)",
                       re.IGNORECASE)
#: A name or word starting with one of these takes the elided word (an h may be mute or not: left as it is).
_VOWELS = frozenset("aeiouàâäéèêëîïôöùûüœæAEIOUÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆ")
#: « de le tour » is « du tour », « à les Rois » « aux Rois ».
_CONTRACTED = {("de", "le"): "du", ("de", "les"): "des", ("à", "le"): "au", ("à", "les"): "aux"}


@lru_cache(maxsize=4096)
def _elides(template: str) -> bool:
    return _ELIDABLE.search(template) is not None


def elided(template: str, worded: dict[str, Any], code: str | None = None) -> str:
    """``template`` with each small word before a field written as the field's words ask: French elides
    *de*, *que*, *le*, *la*… before a vowel and contracts *de le* and *à le*. The template is changed, not
    the sentence, so that a name holding these words stays as it is; a field contracted with its article
    is put in ``worded`` without it, under a name of its own.

    >>> elided("Tour de {name} ; le mot de {other}", {"name": "Ann", "other": "Ben"}, "fr")
    'Tour d’{name} ; le mot de {other}'
    >>> words = {"round": "le tour 3"}
    >>> elided("Modification de {round}", words, "fr").format_map(words)
    'Modification du tour 3'
    """
    if (code or language()) not in ELIDING:
        return template

    def rewrite(found: re.Match[str]) -> str:
        word, field, name = found.group(1), found.group(2), found.group(3) or found.group(4)
        value = worded.get(name)
        if not isinstance(value, str) or not value:
            return found.group(0)
        article, _, rest = value.partition(" ")
        contracted = _CONTRACTED.get((word.lower(), article)) if rest else None
        if contracted:
            worded[f"{name}_without_article"] = rest
            start = contracted.capitalize() if word[0].isupper() else contracted
            return start + " " + field.replace(name, f"{name}_without_article")
        if word.lower() != "à" and value[0] in _VOWELS:
            return f"{word[:-1]}’{field}"
        return found.group(0)

    return _ELIDABLE.sub(rewrite, template)


def _value(value: Any, code: str) -> str:
    if isinstance(value, Text):
        return render(value, code)
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, Signed):
        return ("+" if value > 0 else "") + number(int(value), code)
    if isinstance(value, Grouped) and code in (ENGLISH, PSEUDO):
        return f"{int(value):,}".replace("-", "\u2212")
    if isinstance(value, int | float | Fraction):
        return number(value, code)
    if isinstance(value, Listed):
        return listed([_value(item, code) for item in value], code)
    return str(value)


#: Floats this large are not counted unit by unit (2**53 and beyond): they are written as a power of ten.
_EXACT_FLOAT = 2.0 ** 53
#: Whole numbers longer than this (about 3,900 digits) are written as a power of ten too: Python writes
#: at most 4,300 digits of one.
_MOST_BITS = 13_000
_LONGEST_WRITTEN = 1 << _MOST_BITS


def number(value: int | float | Fraction, code: str | None = None) -> str:
    """A number as the language writes it, the minus sign a true minus (U+2212); English plainly, as ever.
    Any size is said: a whole number digit by digit, a float too large to count in units as a power of ten,
    an infinite one as ∞, one that is not a number in words.

    >>> number(-1066), number(1066, "fr"), number(100000, "hi"), number(2.5, "fr")
    ('−1066', '1\\u202f066', '1,00,000', '2,5')
    >>> number(10**25, "fr"), number(-1e308, "hi"), number(1e25), number(float("-inf"), "fr")
    ('10\\u202f000\\u202f000\\u202f000\\u202f000\\u202f000\\u202f000\\u202f000\\u202f000', '−1E308', '1e+25', '−∞')
    """
    code = code or language()
    if isinstance(value, float):
        if value != value:
            return render(say("not a number"), code)
        if value in (float("inf"), float("-inf")):
            return "\u2212∞" if value < 0 else "∞"
        if value.is_integer() and abs(value) < _EXACT_FLOAT:
            value = int(value)
    if isinstance(value, int) and abs(value).bit_length() > _MOST_BITS:
        return _power_of_ten(value, code)
    if code in (ENGLISH, PSEUDO):
        text = f"{value:g}" if isinstance(value, float) else str(value)
    elif isinstance(value, float) and abs(value) >= _EXACT_FLOAT:
        from babel.numbers import format_scientific

        text = format_scientific(value, format="0.#####E0", locale=code)
    else:
        text = decimal_text(value, code)
    return text.replace("-", "\u2212")


def decimal_text(value: int | float | Fraction, code: str, pattern: str | None = None) -> str:
    """Babel's ``format_decimal`` with room for every digit: its default precision (28 digits) refuses a
    number of 10^25 or more."""
    import decimal

    from babel.numbers import format_decimal

    digits = len(str(abs(int(value)))) if isinstance(value, int) else 330
    with decimal.localcontext() as context:
        context.prec = max(context.prec, digits + 40)
        return format_decimal(value, format=pattern, locale=code)


def _power_of_ten(value: int, code: str) -> str:
    """A whole number too long to write out, as its first digits and its power of ten (1.2345E5000)."""
    import decimal

    with decimal.localcontext() as context:
        context.prec = 6
        text = f"{(+decimal.Decimal(value)).normalize():E}".replace("E+", "E")
    if code not in (ENGLISH, PSEUDO):
        from babel.numbers import get_decimal_symbol

        text = text.replace(".", get_decimal_symbol(code))
    return text.replace("-", "\u2212")


def listed(items: Sequence[str], code: str | None = None) -> str:
    """Items joined as the language joins a list.

    >>> listed(["Ann", "Ben", "Cat"]), listed(["Ann", "Ben", "Cat"], "fr"), listed(["Ann"])
    ('Ann, Ben and Cat', 'Ann, Ben et Cat', 'Ann')
    """
    code = code or language()
    if not items:
        return ""
    if code in (ENGLISH, PSEUDO):  # as the English sentences have always been written: no serial comma
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    from babel.lists import format_list

    return format_list(list(items), locale=code)


def _data(value: Any) -> Any:
    if isinstance(value, Text):
        return value.as_data()
    if isinstance(value, Listed):
        return [_data(item) for item in value]
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, int | float | str) or value is None:
        return int(value) if isinstance(value, Signed) else value
    return str(value)


@lru_cache(maxsize=8)
def catalog(code: str):
    """The compiled catalog of a language (``make`` compiles the .po files), or the pseudo-language's."""
    if code == PSEUDO:
        return Pseudo()
    from babel.support import NullTranslations, Translations

    found = Translations.load(str(TRANSLATIONS), [code], DOMAIN)
    return found if isinstance(found, Translations) else NullTranslations()


def gettext(message: str) -> str:
    """``message`` (a catalog's id, ``%(name)s`` fields left in) in the reader's language: a template's
    ``_()``, the pages' and the sheets', and the forms' labels.

    >>> with speaking("fr"):
    ...     gettext("one more")
    'un de plus'
    """
    code = language()
    return message if code == ENGLISH else catalog(code).ugettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message ``n`` asks for in the reader's language: a template's ``ngettext()``."""
    code = language()
    if code == ENGLISH:
        return singular if n == 1 else plural
    return catalog(code).ungettext(singular, plural, n)


def filled(message: str, values: Mapping[str, Any]) -> str:
    """A catalog's message (``%(name)s`` fields) with its values put in, the small words before them
    written as the values ask (:func:`elided`): a form's label, a page's words.

    >>> with speaking("fr"):
    ...     filled("Cartes de %(name)s", {"name": "Ann"})
    'Cartes d’Ann'
    """
    values = dict(values)
    return worded_for(message, values) % values


def worded_for(message: str, variables: dict[str, Any]) -> str:
    """``message`` readied for its ``variables`` in the reader's language: its numbers written as the language
    writes them (:func:`figured`), the small words before its fields as their values ask (:func:`elided`)."""
    return elided(figured(message, variables), variables)


def figured(message: str, variables: dict[str, Any]) -> str:
    """``message`` (``%(name)s`` fields) with each number among its ``variables`` written as the reader's
    language writes numbers (:func:`number`: French ``1 066``, ``−333``), its ``%(name)d`` field made a
    ``%(name)s`` for it; in English each is put in as it always was (``1066``, ``-333``).

    >>> with speaking("fr"):
    ...     words = {"count": 1067, "bound": -333, "name": "Ann"}
    ...     figured("%(count)d pour %(bound)s", words) % words
    '1\u202f067 pour −333'
    >>> figured("%(count)d to pass", {"count": 1067})
    '%(count)d to pass'
    """
    code = language()
    if code in (ENGLISH, PSEUDO):
        return message
    for name, value in variables.items():
        if isinstance(value, int | float | Fraction) and not isinstance(value, bool):
            variables[name] = number(value, code)
            message = message.replace(f"%({name})d", f"%({name})s")
    return message


def install_gettext(env) -> None:
    """A Jinja environment's ``_()``, ``gettext()`` and ``ngettext()``: Jinja's own (the message a format
    string, its variables put in, escaped), the message in the reader's language, with its numbers written
    as the language writes them (:func:`figured`) and the small words before its variables as the variables
    ask (:func:`elided`)."""
    from jinja2 import pass_context
    from markupsafe import Markup

    env.install_gettext_callables(gettext, ngettext, newstyle=True)

    def said(context, message: str, variables: dict[str, Any]) -> str:
        if variables:
            message = worded_for(message, variables)
        # a catalog's own words are markup, as Jinja's _() has them; the values put in are escaped
        return (Markup(message) if context.eval_ctx.autoescape else message) % variables  # noqa: S704

    @pass_context
    def gettext_(context, __string: str, **variables: Any) -> str:
        return said(context, gettext(__string), variables)

    @pass_context
    def ngettext_(context, __singular: str, __plural: str, __num: int, **variables: Any) -> str:
        variables.setdefault("num", __num)
        return said(context, ngettext(__singular, __plural, __num), variables)

    env.globals.update(gettext=gettext_, ngettext=ngettext_)
    # A separator a template writes between two pieces (a field's name and its problem): as the reader's
    # language writes it, « Rois (5)\u00a0: … » in French.
    env.filters["spaced"] = lambda separator: spaced(separator, language())


_ACCENTED = str.maketrans("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                          "åƀçðéƒĝĥîĵķļɱñôþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÔÞǪŔŠŢÛṼŴẊÝŽ")
_KEPT = re.compile(r"(\{[^{}]*\}|%\([a-z_]+\)[sd]|%[sd]|<[^>]*>|&[a-z]+;|\b[A-Z]{2}-\d+[a-z]?\b)")


def pseudo(text: str) -> str:
    """``text`` marked and accented, its fields, markup and ruling ids kept as they are.

    >>> pseudo("Enter hand {number} (RR-1)")
    '⟦Éñţéŕ ĥåñð {number} (RR-1)⟧'
    """
    if not text:
        return text
    parts = _KEPT.split(text)
    return "⟦" + "".join(part if i % 2 else part.translate(_ACCENTED) for i, part in enumerate(parts)) + "⟧"


class Pseudo:
    """gettext's interface, answering every message in the pseudo-language."""

    def ugettext(self, message: str) -> str:
        return pseudo(message)

    def ungettext(self, singular: str, plural: str, n: int) -> str:
        return pseudo(singular if n == 1 else plural)

    def upgettext(self, context: str, message: str) -> str:
        return pseudo(message)

    def unpgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return pseudo(singular if n == 1 else plural)

    gettext, ngettext, pgettext, npgettext = ugettext, ungettext, upgettext, unpgettext


def per_reader(fn):
    """``fn`` as a template filter that Jinja never runs while compiling the template.

    Jinja writes a filter applied to a constant (``'RM-7'|why``, ``1066|num``) into the compiled
    template once, in the language of whoever compiled it; a filter taking the template's context is
    always run when the page is rendered, in its reader's language.
    """
    from functools import wraps

    from jinja2 import pass_context

    @pass_context
    @wraps(fn)
    def filter_(context, *args, **kwargs):
        return fn(*args, **kwargs)

    return filter_


def localised(value: Any, code: str | None = None) -> Any:
    """A JSON-ready structure with every :class:`Text` in it said in ``code``'s language (the API's edge)."""
    code = code or language()
    if isinstance(value, Text):
        return render(value, code)
    if isinstance(value, dict):
        return {key: localised(item, code) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [localised(item, code) for item in value]
    return value
