"""Royalty referees: is it a word (RY-17), and does a capture work (RY-7, RY-17)?

Both judge with the default SCOWL list (companion.games.royalty.words), plus the house words a body
may give as ``allow`` and ``deny``.

>>> word({"word": "zebra"})["valid"], word({"word": "Paris"})["valid"]
(True, False)
>>> answer = capture({"target": "EAR", "word": "BEARS"})
>>> answer["valid"], answer["added"], answer["warnings"]
(True, 'BS', [])
>>> capture({"target": "EAR", "word": "EARS"})["warnings"][0][:44]
'EARS looks like a mere inflection of EAR (it'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.cards import said
from ..core.messages import Text, say, say_n
from ..games.base import InputError, Problem, Problems
from ..games.royalty.words import LETTERS, Many, WordList, capture_check
from .bodies import checked_body

WORD_FIELDS = {"word", "allow", "deny"}
CAPTURE_FIELDS = {"target", "word", "allow", "deny"}
MONARCHY_FIELDS = {"dealt", "words", "allow", "deny"}
#: Longer than any word the cards can make; longer text is a mistake, not a word.
MAX_LENGTH = 40
MAX_HOUSE_WORDS = 1000
#: The most characters the 25 cards of a Monarchy deal, or one word made from them, are written in
#: (three a card, with room for spaces; the screen's field for the deal takes as many).
MONARCHY_TEXT = 200


def _text(body: Mapping[str, Any], key: str, what: str, example: str, found: Problems) -> str | None:
    """A non-empty string of at most MAX_LENGTH characters at ``key``, or a problem there."""
    value = body.get(key)
    if value is None:
        found.add(key, _said(what, say('give the word, e.g. "{example}"', example=example),
                             say('give the target, e.g. "{example}"', example=example),
                             say('give the new word, e.g. "{example}"', example=example)))
    elif not isinstance(value, str):
        values = {"example": example, "value": said(value)}
        found.add(key, _said(what, say('the word must be text, e.g. "{example}", not {value}', **values),
                             say('the target must be text, e.g. "{example}", not {value}', **values),
                             say('the new word must be text, e.g. "{example}", not {value}', **values)))
    elif not value.strip():
        found.add(key, _said(what, say("the word is empty: type one word"), say("the target is empty: type one word"),
                             say("the new word is empty: type one word")))
    elif len(value) > MAX_LENGTH:
        values = {"count": len(value), "most": MAX_LENGTH}
        found.add(key, _said(what, say("the word is {count} characters long; a word has at most {most}", **values),
                             say("the target is {count} characters long; a word has at most {most}", **values),
                             say("the new word is {count} characters long; a word has at most {most}", **values)))
    else:
        return value
    return None


def _said(what: str, word: Text, target: Text, new_word: Text) -> Text:
    """The problem said of the field it is about: the word, the target or the new word."""
    return {"the word": word, "the target": target}.get(what, new_word)


def _house(body: Mapping[str, Any], found: Problems) -> dict[str, list[str]]:
    """The house allow and deny words, each letters A-Z only, none both allowed and denied (RY-17)."""
    house: dict[str, list[str]] = {"allow": [], "deny": []}
    for key in house:
        raw = body.get(key)
        if raw is None:
            continue
        if not isinstance(raw, list):
            found.add(key, say("give the house allow words as a list of words, such as QI and ZA") if key == "allow"
                      else say("give the house deny words as a list of words, such as QI and ZA"))
            continue
        if len(raw) > MAX_HOUSE_WORDS:
            values = {"count": len(raw), "most": MAX_HOUSE_WORDS}
            found.add(key, say("{count} house allow words were given; at most {most}", **values) if key == "allow"
                      else say("{count} house deny words were given; at most {most}", **values))
            continue
        for i, entry in enumerate(raw):
            where = f"{key}[{i}]"
            allow = key == "allow"
            if not isinstance(entry, str):
                found.add(where, say("a house allow word must be text, not {value}", value=said(entry)) if allow
                          else say("a house deny word must be text, not {value}", value=said(entry)))
            elif len(entry) > MAX_LENGTH:
                values = {"most": MAX_LENGTH, "count": len(entry)}
                found.add(where, say("a house allow word has at most {most} letters; this one has {count}", **values)
                          if allow else
                          say("a house deny word has at most {most} letters; this one has {count}", **values))
            elif not LETTERS.fullmatch(entry.strip()):
                found.add(where, say("a house allow word is letters A-Z only, as on the cards: “{word}” is not (RY-17)",
                                     word=entry) if allow else
                          say("a house deny word is letters A-Z only, as on the cards: “{word}” is not (RY-17)",
                              word=entry))
            else:
                house[key].append(entry.strip().upper())
    allowed = set(house["allow"])
    for i, entry in enumerate(house["deny"]):
        if entry in allowed:
            found.add(f"deny[{i}]", say("{word} is on the house allow list too: a word is allowed or denied, not "
                                        "both", word=entry))
    return house


def _wordlist(house: dict[str, list[str]], base: WordList | None = None) -> WordList:
    """The list to judge with: ``base`` (a table's own list with its house words; else the default
    list) and the body's house words on top (RY-17)."""
    wordlist = base if base is not None else WordList.load_default()
    if house["allow"] or house["deny"]:
        wordlist = wordlist.with_house(allow=house["allow"], deny=house["deny"])
    return wordlist


def word(body: object, wordlist: WordList | None = None) -> dict[str, Any]:
    """RY-17: is this a word at this table, and why.

    >>> word({"word": "Zebra", "deny": ["zebra"]})["explain"][0][:35]
    'ZEBRA is on the house deny list: ou'
    >>> word({"word": ""})
    Traceback (most recent call last):
    ...
    companion.games.base.InputError: word: the word is empty: type one word
    """
    found = Problems()
    body = checked_body(body, WORD_FIELDS, found)
    typed = _text(body, "word", "the word", "zebra", found)
    house = _house(body, found)
    found.raise_if_any()
    verdict = _wordlist(house, wordlist).judge(typed)
    return {"word": verdict.word, "valid": verdict.valid, "explain": list(verdict.reasons)}


def capture(body: object, wordlist: WordList | None = None) -> dict[str, Any]:
    """RY-7 and RY-17: does the new word capture the target, with warnings the table may challenge (RY-10).

    >>> capture({"target": "EAR", "word": "ARE"})["valid"]
    False
    >>> capture({"target": "E-A-R", "word": "BEARS"})
    Traceback (most recent call last):
    ...
    companion.games.base.InputError: target: the target is a word on the table, letters A-Z only: “E-A-R” is not
    """
    found = Problems()
    body = checked_body(body, CAPTURE_FIELDS, found)
    target = _text(body, "target", "the target", "EAR", found)
    if target is not None and not LETTERS.fullmatch(target.strip()):
        found.add("target", say("the target is a word on the table, letters A-Z only: “{target}” is not",
                                target=target))
    typed = _text(body, "word", "the new word", "BEARS", found)
    house = _house(body, found)
    found.raise_if_any()
    check = capture_check(target, typed, _wordlist(house, wordlist))
    return {
        "target": check.target,
        "word": check.word,
        "valid": check.valid,
        "added": check.added,
        "warnings": list(check.warnings),
        "explain": list(check.reasons),
    }


def monarchy(body: object, wordlist: WordList | None = None) -> dict[str, Any]:
    """RY-16: check a Monarchy deal: {"dealt": "25 cards", "words": ["Cr Ar Lr Mr", ...]}; each word a
    royalty and a word of the list (RY-17), with the house words a body may give as ``allow`` and ``deny``."""
    from ..games import royalty as rules

    if not isinstance(body, Mapping):
        raise InputError([Problem("$", say("send an object with dealt (the 25 cards) and words (a list)"))])
    found = Problems()
    checked_body(body, MONARCHY_FIELDS, found)
    _monarchy_bounds(body, found)
    house = _house(body, found)
    found.raise_if_any()
    return rules.monarchy(body.get("dealt"), body.get("words"), _wordlist(house, wordlist))


def _monarchy_bounds(body: Mapping[str, Any], found: Problems) -> None:
    """RY-16: no more words than the deal can make, none longer than the deal, before any card is read.

    Every word takes at least one of the 25 cards dealt, so a 26th word can never be made from them: the
    answer (a verdict and a line per word) stays a few kilobytes, and the check milliseconds."""
    from ..games.royalty import MONARCHY_DEAL

    dealt, words = body.get("dealt"), body.get("words")
    if isinstance(dealt, list) and len(dealt) > MONARCHY_DEAL:
        found.add("dealt", say_n("Monarchy deals {deal} cards; {given} was given (RY-16)",
                                 "Monarchy deals {deal} cards; {given} were given (RY-16)", len(dealt),
                                 deal=MONARCHY_DEAL, given=Many(len(dealt))))
    elif isinstance(dealt, str) and len(dealt) > MONARCHY_TEXT:
        found.add("dealt", say("the {deal} cards dealt are written in at most {most} characters; these are {count} "
                               "(RY-16)", deal=MONARCHY_DEAL, most=MONARCHY_TEXT, count=Many(len(dealt))))
    if not isinstance(words, list):
        return
    if len(words) > MONARCHY_DEAL:
        found.add("words", say("every word takes at least one of the {deal} cards dealt, so at most {deal} words can "
                               "be made; {count} were given (RY-16)", deal=MONARCHY_DEAL, count=Many(len(words))))
        return
    for i, text in enumerate(words):
        if _cards_in(text) > MONARCHY_DEAL:
            found.add(f"words[{i}]", say("a word made from the {deal} cards dealt has at most {deal} cards; this one "
                                         "is longer (RY-16)", deal=MONARCHY_DEAL))


def _cards_in(text: object) -> int:
    """How many cards a word is written with (a list of them, or tokens in a string), at most one over the
    deal for a string too long to hold a word of the deal; 0 for what is not a word (told later)."""
    from ..games.royalty import MONARCHY_DEAL

    if isinstance(text, list):
        return len(text)
    if isinstance(text, str):
        return len(text.split()) if len(text) <= MONARCHY_TEXT else MONARCHY_DEAL + 1
    return 0


__all__ = ["InputError", "capture", "monarchy", "word"]
