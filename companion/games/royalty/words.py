"""Royalty's word judge (RY-17) and capture check (RY-7): is it a word, and do the letters work?

The default list is SCOWL size 70 (english, american and british words; no proper names,
abbreviations or contractions), built by scripts/build_wordlist.py into
companion/games/royalty/data/words-scowl-70.txt.gz, UPPER CASE, one word a line; SCOWL's copyright notice
is companion/games/royalty/data/SCOWL-COPYRIGHT.txt. It is loaded once per process. A table may use its
own list (:meth:`WordList.from_file`) and add house allow and deny words
(:meth:`WordList.with_house`). Words are compared in upper case, the letters on the cards.

>>> words = WordList(frozenset({"EAR", "EARS", "BEARS", "RING", "EARRING", "HEAR"}), "a test list")
>>> words.judge("bears").valid, words.judge("Paris").valid
(True, False)
>>> check = capture_check("ear", "bears", words)
>>> check.valid, check.added, check.warnings
(True, 'BS', ())
>>> capture_check("EAR", "EARRING", words).warnings[0]
'EARRING looks like EAR joined to RING, a word of its own: the table decides by challenge (RY-17, RY-10)'
"""

from __future__ import annotations

import functools
import gzip
import re
import zlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ...core.cards import said
from ...core.messages import Text, joined, say

DEFAULT_FILE = "words-scowl-70.txt.gz"
DEFAULT_NAME = say("the default word list, SCOWL size 70")
#: A table's own list, uploaded without a file name.
TABLES_LIST = say("the table's word list")
LETTERS = re.compile(r"[A-Za-z]+")
#: A table's own list, unpacked, may be at most this large: the default list is 1.2 MB, and a
#: small compressed file must not unpack into a huge one.
MAX_LIST_BYTES = 4 * 1024 * 1024
VOWELS = frozenset("AEIOUY")

#: Well-known abbreviations and acronyms, named as such when someone asks about one.
#: None of them is in the default list; a word list or the house allow list still decides.
ABBREVIATIONS = frozenset({
    "ASAP", "BBC", "CEO", "CIA", "CD", "DIY", "DNA", "DVD", "EU", "ETC", "FAQ", "FBI", "GB", "GMT", "HQ", "IOU",
    "KG", "KM", "LOL", "MPH", "MR", "MRS", "NASA", "NATO", "NB", "OMG", "PC", "PM", "PTO", "RSVP", "SMS", "TBA",
    "TV", "UFO", "UK", "UN", "UNESCO", "USA", "VIP", "VS",
})

#: Affixes whose bare addition to the target makes a word that "looks like a mere affix of it" (RY-17).
#: Inflections (-S, -ED, -ING, -ER/-EST of adjectives) are lemminflect's; -ER and -Y are left out as
#: too often accidental (CAP/CAPER, ARM/ARMY).
PREFIXES = ("ANTI", "DIS", "MIS", "NON", "OUT", "OVER", "PRE", "RE", "SEMI", "SUB", "SUPER", "UN", "UNDER")
SUFFIXES = ("ABLE", "DOM", "FUL", "HOOD", "ISH", "ISM", "IST", "LESS", "LY", "MENT", "NESS", "SHIP")

#: A target joined to another word: that word must have three letters or more, or be one of these
#: two-letter words (UP + SET, AT + ONE), so that SH + EAR or B + EAR do not count.
JOINING_PAIRS = frozenset({
    "AN", "AS", "AT", "BE", "BY", "DO", "GO", "HE", "IF", "IN", "IS", "IT", "ME", "MY", "NO", "OF", "ON", "OR",
    "SO", "TO", "UP", "US", "WE",
})

#: lemminflect's Penn tags, in words.
FORMS = {
    "NNS": say("plural"), "VBD": say("past tense"), "VBN": say("past participle"), "VBG": say("-ING form"),
    "VBZ": say("present tense"), "JJR": say("comparative"), "JJS": say("superlative"), "RBR": say("comparative"),
    "RBS": say("superlative"),
}


class Many(Text):
    """A count that may run into thousands, said with its thousands grouped in English as ever (1,066),
    and as each other language groups them (1 066 in French).

    >>> from ...core.messages import render
    >>> Many(1066), render(Many(1066), "fr"), Many(1066).as_data()["values"]
    ('1,066', '1\u202f066', {'count': 1066})
    """

    def __new__(cls, count: int) -> Many:
        text = str.__new__(cls, f"{count:,}")
        text.template, text.plural, text.count, text.values = "{count}", None, None, {"count": count}
        return text

    def __reduce__(self):
        return (Many, (self.values["count"],))


_WORD_LINE = re.compile(r"^[ \t\r]*[A-Za-z]+[ \t\r]*$", re.M)
_LOWER_LINE = re.compile(r"^[ \t\r]*[a-z]+[ \t\r]*$", re.M)


def _refuse_long(text: str, max_words: int) -> None:
    """ValueError when ``text`` holds more than ``max_words`` words, counted before any is read in: a list of
    430,000 words would take some 100 MB to read, and the server would keep much of it after refusing it.

    >>> _refuse_long("ear\\nzebra\\nParis\\n", 2)
    >>> _refuse_long("EAR\\nZEBRA\\nPARIS\\n", 2)
    Traceback (most recent call last):
    ...
    ValueError: a list may have at most 2 words; this one has 3
    """
    lower = sum(1 for _ in _LOWER_LINE.finditer(text))
    words = lower or sum(1 for _ in _WORD_LINE.finditer(text))  # lower-case words: only those are read
    if words > max_words:
        raise ValueError(say("a list may have at most {most} words; this one has {count}", most=Many(max_words),
                             count=Many(words)))


@dataclass(frozen=True)
class Verdict:
    """The judge's answer about one word: its canonical (upper-case) form, whether it is good, and why."""

    word: str
    valid: bool
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class CaptureVerdict:
    """RY-7 and RY-17 on a capture: good or not, the letters added from hand, warnings for the table, why."""

    target: str
    word: str
    valid: bool
    added: str
    warnings: tuple[str, ...]
    reasons: tuple[str, ...]


def _house_words(words: Iterable[str], which: str) -> frozenset[str]:
    """House words in upper case; each must be letters A-Z only (they are played with cards).

    >>> sorted(_house_words(["zebra", " Qi "], "allow"))
    ['QI', 'ZEBRA']
    >>> _house_words(["don't"], "deny")
    Traceback (most recent call last):
    ...
    ValueError: house deny word “don't” must be letters A-Z only
    """
    out = set()
    for word in words:
        if not isinstance(word, str) or not LETTERS.fullmatch(word.strip()):
            shown = f"“{word}”" if isinstance(word, str) else said(word)
            raise ValueError(say("house allow word {word} must be letters A-Z only", word=shown) if which == "allow"
                             else say("house deny word {word} must be letters A-Z only", word=shown))
        out.add(word.strip().upper())
    return frozenset(out)


@dataclass(frozen=True, eq=False)
class WordList:
    """A set of words in upper case, plus house allow and deny words; build once, then only read.

    ``word in wordlist`` is a frozenset lookup (two more when the house has its own words).

    >>> words = WordList(frozenset({"EAR", "ZEBRA"}), "a test list").with_house(allow=["qi"], deny=["zebra"])
    >>> "EAR" in words, "QI" in words, "ZEBRA" in words, "ear" in words
    (True, True, False, False)
    >>> len(words), words.name
    (2, 'a test list')
    """

    words: frozenset[str]
    name: str = say("the word list")
    allow: frozenset[str] = field(default_factory=frozenset)
    deny: frozenset[str] = field(default_factory=frozenset)

    def __contains__(self, word: object) -> bool:
        return (word in self.words and word not in self.deny) or word in self.allow

    def __len__(self) -> int:
        return len(self.words)

    def __repr__(self) -> str:
        return f"<WordList {self.name}: {len(self.words)} words, {len(self.allow)} allowed, {len(self.deny)} denied>"

    @classmethod
    def load_default(cls) -> WordList:
        """The default SCOWL list, read once per process (later calls return the same object)."""
        return _load_default()

    @classmethod
    def from_text(cls, text: str, name: str = TABLES_LIST, max_words: int | None = None) -> WordList:
        """A list from text, one word a line; blank lines and ``#`` comments are skipped.

        Entries that are not letters A-Z alone are left out (contractions, hyphenated and
        accented words, RY-17). When the list has lower-case words, its capitalised and all
        capital entries are proper names and abbreviations and are left out too; a list all
        in capitals (as word-game lists are) is taken whole.

        >>> sorted(WordList.from_text("zebra\\nParis\\nUSA\\ndon't\\n# note\\near\\n").words)
        ['EAR', 'ZEBRA']
        >>> sorted(WordList.from_text("ZEBRA\\nEAR\\n").words)
        ['EAR', 'ZEBRA']
        """
        if max_words is not None:
            _refuse_long(text, max_words)
        entries = [line.strip() for line in text.splitlines()]
        entries = [e for e in entries if e and not e.startswith("#") and LETTERS.fullmatch(e)]
        if any(e.islower() for e in entries):
            entries = [e for e in entries if e.islower()]
        words = frozenset(e.upper() for e in entries)
        if not words:
            raise ValueError(say("{name} has no words made of the letters A-Z", name=name))
        return cls(words, name)

    @classmethod
    def from_file(cls, path: str | Path, name: str | None = None) -> WordList:
        """A table's own list: a text file (UTF-8, else ISO-8859-1), gzip-compressed or not."""
        path = Path(path)
        return cls.from_bytes(path.read_bytes(), name or say("the table's word list ({file})", file=path.name))

    @classmethod
    def from_bytes(cls, data: bytes, name: str = TABLES_LIST, max_words: int | None = None
                   ) -> WordList:
        """A list from a file's bytes (an upload): UTF-8, else ISO-8859-1, gzip-compressed or not.

        >>> sorted(WordList.from_bytes("zèbre\\nzebra\\near".encode("iso-8859-1")).words)
        ['EAR', 'ZEBRA']
        >>> WordList.from_bytes(b"\\x1f\\x8b not really gzip")
        Traceback (most recent call last):
        ...
        ValueError: the table's word list is not a text file
        >>> import gzip; WordList.from_bytes(gzip.compress(b"a" * (MAX_LIST_BYTES + 1)))
        Traceback (most recent call last):
        ...
        ValueError: the table's word list is larger than 4 MB
        """
        if data[:2] == b"\x1f\x8b":
            unpack = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)  # gzip, read no further than the limit
            try:
                data = unpack.decompress(data, MAX_LIST_BYTES + 1)
            except zlib.error as err:
                raise ValueError(say("{name} is not a text file", name=name)) from err
        if len(data) > MAX_LIST_BYTES:
            raise ValueError(say("{name} is larger than {size} MB", name=name, size=MAX_LIST_BYTES // (1024 * 1024)))
        if b"\x00" in data:
            raise ValueError(say("{name} is not a text file", name=name))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("iso-8859-1")
        return cls.from_text(text, name, max_words)

    def with_house(self, allow: Iterable[str] = (), deny: Iterable[str] = ()) -> WordList:
        """This list with house words allowed and denied (on top of any the list already had).

        >>> base = WordList(frozenset({"EAR"}), "a test list")
        >>> base.with_house(allow=["ear"], deny=["EAR"])
        Traceback (most recent call last):
        ...
        ValueError: a house word cannot be both allowed and denied: EAR
        """
        allow_set = self.allow | _house_words(allow, "allow")
        deny_set = self.deny | _house_words(deny, "deny")
        both = allow_set & deny_set
        if both:
            raise ValueError(say("a house word cannot be both allowed and denied: {words}",
                                 words=", ".join(sorted(both))))
        return WordList(self.words, self.name, allow_set, deny_set)

    def judge(self, typed: str) -> Verdict:
        """RY-17: is the word as typed good, and why.

        >>> words = WordList(frozenset({"ZEBRA", "MARK"}), "a test list")
        >>> words.judge(" zebra ")
        Verdict(word='ZEBRA', valid=True, reasons=('ZEBRA is in a test list (RY-17)',))
        >>> for line in words.judge("Paris").reasons: print(line)
        PARIS is not in a test list (RY-17)
        Paris was typed with a capital: capitalised words such as proper names are out (RY-17)
        >>> words.judge("Mark").valid
        True
        >>> [words.judge(w).valid for w in ("U.S.A.", "don't", "well-known", "café", "ice cream")]
        [False, False, False, False, False]
        """
        text = typed.strip()
        word = text.upper()
        if not LETTERS.fullmatch(text):
            return Verdict(word, False, tuple(_not_letters(text)))
        listed = word in self.words
        if word in self.deny:
            return Verdict(word, False, (self.fault(word, ruling=True),))
        if word in self.allow:
            return Verdict(word, True, (
                say("{word} is on the house allow list: good at this table, and {list} has it (RY-17)", word=word,
                    list=self.name) if listed else
                say("{word} is on the house allow list: good at this table, though {list} does not have it (RY-17)",
                    word=word, list=self.name),))
        capitalised = text[0].isupper() and text[1:].islower() and len(text) > 1
        if listed:
            reasons = [say("{word} is in {list} (RY-17)", word=word, list=self.name)]
            if capitalised:
                reasons.append(say("{typed} was typed with a capital; the cards have none, and {word} is judged as "
                                   "the ordinary word (RY-17)", typed=text, word=word))
            return Verdict(word, True, tuple(reasons))
        reasons = [self.fault(word, ruling=True)]
        if capitalised:
            reasons.append(say("{typed} was typed with a capital: capitalised words such as proper names are out "
                               "(RY-17)", typed=text))
        if word in ABBREVIATIONS:
            reasons.append(say("{word} is an abbreviation: abbreviations are out (RY-17)", word=word))
        elif len(word) > 1 and not VOWELS & set(word):
            reasons.append(say("{word} has no vowel, like an abbreviation: abbreviations are out (RY-17)", word=word))
        return Verdict(word, False, tuple(reasons))

    def fault(self, word: str, ruling: bool = False) -> Text:
        """RY-17: why ``word`` (letters A-Z, in capitals) is out at this table, the ruling cited or not (a
        Monarchy word's line cites it once for all its faults, RY-16).

        >>> WordList(frozenset({"EAR"}), "a test list").with_house(deny=["ear"]).fault("EAR")
        'EAR is on the house deny list: out at this table, though a test list has it'
        """
        listed = word in self.words
        if word in self.deny and listed:
            return (say("{word} is on the house deny list: out at this table, though {list} has it (RY-17)",
                        word=word, list=self.name) if ruling else
                    say("{word} is on the house deny list: out at this table, though {list} has it", word=word,
                        list=self.name))
        if word in self.deny:
            return (say("{word} is on the house deny list: out at this table, and {list} does not have it (RY-17)",
                        word=word, list=self.name) if ruling else
                    say("{word} is on the house deny list: out at this table, and {list} does not have it", word=word,
                        list=self.name))
        return (say("{word} is not in {list} (RY-17)", word=word, list=self.name) if ruling else
                say("{word} is not in {list}", word=word, list=self.name))


def _not_letters(text: str) -> list[str]:
    """Why a typed word that is not letters A-Z alone is out (RY-17).

    >>> _not_letters("rock'n'roll")
    ["rock'n'roll has an apostrophe: contractions and possessives are out (RY-17)"]
    >>> _not_letters("R2-D2")
    ['R2-D2 is hyphenated: hyphenated words are out (RY-17)', 'R2-D2 has 2, which is not a letter A-Z (RY-17)']
    """
    if not text:
        return [say("nothing was typed: give one word (RY-17)")]
    reasons = []
    if any(c.isspace() for c in text):
        reasons.append(say("{typed} is more than one word: a word is one word (RY-17)", typed=" ".join(text.split())))
    if any(c in "'’‘`" for c in text):
        reasons.append(say("{typed} has an apostrophe: contractions and possessives are out (RY-17)", typed=text))
    if any(c in "-‐‑–—" for c in text):
        reasons.append(say("{typed} is hyphenated: hyphenated words are out (RY-17)", typed=text))
    if "." in text:
        reasons.append(say("{typed} has full stops, like an abbreviation: abbreviations are out (RY-17)", typed=text))
    foreign = sorted({c for c in text if c.isalpha() and not ("A" <= c.upper() <= "Z" and c.isascii())})
    if foreign:
        reasons.append(say("{typed} has {letters}, not on the cards: accented and foreign words are out (RY-17)",
                           typed=text, letters=", ".join(foreign)))
    other = sorted({c for c in text if not c.isalpha() and not c.isspace() and c not in "'’‘`-‐‑–—."})
    if len(other) == 1:
        reasons.append(say("{typed} has {signs}, which is not a letter A-Z (RY-17)", typed=text, signs=other[0]))
    elif other:
        reasons.append(say("{typed} has {signs}, which are not letters A-Z (RY-17)", typed=text, signs=" ".join(other)))
    return reasons


@functools.cache
def _load_default() -> WordList:
    data = (resources.files(__package__) / "data" / DEFAULT_FILE).read_bytes()
    lines = gzip.decompress(data).decode("ascii").split("\n")
    start = 0
    while lines[start].startswith("#"):
        start += 1
    words = frozenset(lines[start:])
    return WordList(words - {""}, DEFAULT_NAME)


def judge(typed: str, wordlist: WordList | None = None) -> Verdict:
    """RY-17 with ``wordlist``, by default the SCOWL list.

    >>> judge("zebra").valid, judge("Paris").valid
    (True, False)
    """
    return (wordlist or WordList.load_default()).judge(typed)


def added_letters(target: str, word: str) -> tuple[str, str]:
    """What ``word`` adds to ``target``'s letters, in the order they stand in ``word`` (the target's letters
    taken first where they appear), and what of ``target`` it lacks, in the target's order.

    >>> added_letters("EAR", "EARRING"), added_letters("EAR", "BEARS"), added_letters("EAR", "BARS")
    (('RING', ''), ('BS', ''), ('BS', 'E'))
    """
    need = Counter(target)
    added = []
    for letter in word:
        if need[letter]:
            need[letter] -= 1
        else:
            added.append(letter)
    lacks = []
    for letter in target:
        if need[letter]:
            need[letter] -= 1
            lacks.append(letter)
    return "".join(added), "".join(lacks)


def capture_check(target: str, typed: str, wordlist: WordList | None = None) -> CaptureVerdict:
    """RY-7 and RY-17: does ``typed`` capture ``target``, with warnings the table may challenge (RY-10).

    ``target`` is a word on the table, letters A-Z (``ValueError`` otherwise); the new word is judged
    as :func:`judge` does. Order of letters may change; every letter of the target stays.

    >>> print(*capture_check("EAR", "EARS").warnings)
    EARS looks like a mere inflection of EAR (its plural, present tense): the table decides by challenge (RY-17, RY-10)
    >>> [capture_check("EAR", w).warnings for w in ("AIRED", "BEARS", "CARE", "ZEBRA", "HEAR")]
    [(), (), (), (), ()]
    >>> capture_check("EAR", "BAR").reasons[0]
    'BAR lacks E of EAR: a capture uses every letter of the target (RY-7)'
    """
    wordlist = wordlist or WordList.load_default()
    target_text = target.strip()
    if not LETTERS.fullmatch(target_text):
        raise ValueError(say("the target {target} must be letters A-Z only", target=target.strip()) if target.strip()
                         else say("the target word must be letters A-Z only"))
    target_word = target_text.upper()
    verdict = wordlist.judge(typed)
    word = verdict.word
    letters = "".join(c for c in word if "A" <= c <= "Z")
    added, lacks = added_letters(target_word, letters)
    reasons = []
    letters_ok = not lacks and bool(added)
    named = {"word": word, "target": target_word}
    if lacks:
        reasons.append(say("{word} lacks {letters} of {target}: a capture uses every letter of the target (RY-7)",
                           letters=", ".join(lacks), **named))
    elif word == target_word:
        reasons.append(say("{word} is the target itself: a capture makes a different word (RY-7)", word=word))
    elif not added:
        reasons.append(say("{word} adds no letter to {target}: a capture adds at least one card from hand (RY-7)",
                           **named))
    else:
        reasons.append(say("{word} uses every letter of {target} and adds {letters} from hand (RY-7)",
                           letters=", ".join(added), **named))
    reasons.extend(verdict.reasons)
    warnings = tuple(_warnings(target_word, word, wordlist)) if letters_ok and verdict.valid else ()
    valid = letters_ok and verdict.valid
    if valid:
        reasons.append(say("{word} is a good capture of {target} (RY-7, RY-17)", **named) if not warnings else
                       say("{word} is a good capture of {target} by the list, with a warning: the table decides by "
                           "challenge (RY-7, RY-17, RY-10)", **named))
    else:
        reasons.append(say("{word} is not a good capture of {target} (RY-7, RY-17)", **named))
    return CaptureVerdict(target_word, word, valid, added, warnings, tuple(reasons))


def _warnings(target: str, word: str, wordlist: WordList) -> list[str]:
    """RY-17: the new word looks like a mere inflection of the target, the target joined to another word,
    or the target with a prefix or suffix."""
    found = []
    form = inflection(target, word)
    if form is not None:
        found.append(form)
    affix = affixed(target, word)
    if affix is not None:
        found.append(say("{word} looks like {affix}", word=word, affix=affix))
    else:  # HOPE + LESS is said once, as a suffix
        found.extend(say("{word} looks like {join}, a word of its own", word=word, join=how)
                     for how in joins(target, word, wordlist))
    return [say("{warning}: the table decides by challenge (RY-17, RY-10)", warning=line) for line in found]


def joins(target: str, word: str, wordlist: WordList) -> list[str]:
    """How ``word`` is ``target`` joined to another word in the list (three letters or more, or a common
    two-letter word), at the front or the back.

    >>> words = WordList(frozenset({"RING", "UP", "SH", "B"}))
    >>> joins("EAR", "EARRING", words), joins("SET", "UPSET", words), joins("EAR", "SHEAR", words)
    (['EAR joined to RING'], ['UP joined to SET'], [])
    >>> joins("EAR", "BEAR", words)
    []
    """
    found = []
    if word.startswith(target) and _joinable(word[len(target):], wordlist):
        found.append(say("{first} joined to {second}", first=target, second=word[len(target):]))
    if word.endswith(target) and _joinable(word[:-len(target)], wordlist):
        found.append(say("{first} joined to {second}", first=word[:-len(target)], second=target))
    return found


def _joinable(rest: str, wordlist: WordList) -> bool:
    return (len(rest) >= 3 or rest in JOINING_PAIRS) and rest in wordlist


def affixed(target: str, word: str) -> str | None:
    """``word`` as ``target`` with a common prefix or suffix, if it is.

    >>> affixed("KIND", "UNKIND"), affixed("KIND", "KINDNESS"), affixed("EAR", "BEARS")
    ('the prefix UN- on KIND', 'KIND with the suffix -NESS', None)
    """
    for prefix in PREFIXES:
        if word == prefix + target:
            return say("the prefix {prefix}- on {target}", prefix=prefix, target=target)
    for suffix in SUFFIXES:
        if word == target + suffix:
            return say("{target} with the suffix -{suffix}", target=target, suffix=suffix)
    return None


def inflection(target: str, word: str) -> str | None:
    """How ``word`` looks like a mere inflection of ``target`` (or both are forms of one word), by lemminflect.

    lemminflect's dictionary comes first; a word it does not know is lemmatised by its
    out-of-vocabulary rules as a noun, verb and adjective. None when it is not.

    >>> inflection("WALK", "WALKING")
    'WALKING looks like a mere inflection of WALK (its -ING form)'
    >>> inflection("BIT", "BITE"), inflection("EAR", "BEARS")
    ('BITE looks like a mere inflection of BIT (both are forms of BITE)', None)
    """
    # Imported here: lemminflect's first use costs some tenths of a second, which only captures should pay.
    from lemminflect import getAllInflections, getAllLemmas, getAllLemmasOOV

    t, w = target.lower(), word.lower()
    tags = _forms_of(t, w, getAllInflections)
    if tags:
        return say("{word} looks like a mere inflection of {target} (its {forms})", word=word, target=target,
                   forms=joined(dict.fromkeys(FORMS[tag] for tag in tags), ", "))
    target_lemmas = {t} | {lemma for lemmas in getAllLemmas(t).values() for lemma in lemmas}
    word_lemmas = {lemma for lemmas in getAllLemmas(w).values() for lemma in lemmas}
    if not word_lemmas:
        word_lemmas = {lemma for upos in ("NOUN", "VERB", "ADJ")
                       for lemma in getAllLemmasOOV(w, upos).get(upos, ())} - {w}
    shared = sorted(target_lemmas & word_lemmas)
    if shared == [t]:
        return say("{word} looks like a mere inflection of {target}", word=word, target=target)
    if shared:
        return say("{word} looks like a mere inflection of {target} (both are forms of {lemmas})", word=word,
                   target=target, lemmas=_or([lemma.upper() for lemma in shared]))
    return None


def _or(items: list[str]) -> str:
    """Words said one "or" after another: "BITE or BIT"."""
    if len(items) == 1:
        return items[0]
    return say("{first} or {second}", first=items[0], second=_or(items[1:]))


def _forms_of(lemma: str, word: str, get_all_inflections) -> list[str]:
    """The tags under which ``word`` is an inflection of ``lemma`` (its base forms left out)."""
    return [tag for tag, forms in get_all_inflections(lemma).items()
            if word in forms and tag in FORMS and word != lemma]


__all__ = ["CaptureVerdict", "Verdict", "WordList", "added_letters", "capture_check", "judge"]
