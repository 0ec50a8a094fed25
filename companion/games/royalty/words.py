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

DEFAULT_FILE = "words-scowl-70.txt.gz"
DEFAULT_NAME = "the default word list, SCOWL size 70"
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
    "NNS": "plural", "VBD": "past tense", "VBN": "past participle", "VBG": "-ING form",
    "VBZ": "present tense", "JJR": "comparative", "JJS": "superlative", "RBR": "comparative",
    "RBS": "superlative",
}


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
        raise ValueError(f"a list may have at most {max_words:,} words; this one has {words:,}")


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
            raise ValueError(f"house {which} word {shown} must be letters A-Z only")
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
    name: str = "the word list"
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
    def from_text(cls, text: str, name: str = "the table's word list", max_words: int | None = None) -> WordList:
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
            raise ValueError(f"{name} has no words made of the letters A-Z")
        return cls(words, name)

    @classmethod
    def from_file(cls, path: str | Path, name: str | None = None) -> WordList:
        """A table's own list: a text file (UTF-8, else ISO-8859-1), gzip-compressed or not."""
        path = Path(path)
        return cls.from_bytes(path.read_bytes(), name or f"the table's word list ({path.name})")

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "the table's word list", max_words: int | None = None
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
                raise ValueError(f"{name} is not a text file") from err
        if len(data) > MAX_LIST_BYTES:
            raise ValueError(f"{name} is larger than {MAX_LIST_BYTES // (1024 * 1024)} MB")
        if b"\x00" in data:
            raise ValueError(f"{name} is not a text file")
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
            raise ValueError(f"a house word cannot be both allowed and denied: {', '.join(sorted(both))}")
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
            also = "though" if listed else "and"
            return Verdict(word, False, (f"{word} is on the house deny list: out at this table, {also} "
                                         f"{self.name} {'has' if listed else 'does not have'} it (RY-17)",))
        if word in self.allow:
            also = "and" if listed else "though"
            return Verdict(word, True, (f"{word} is on the house allow list: good at this table, {also} "
                                        f"{self.name} {'has' if listed else 'does not have'} it (RY-17)",))
        capitalised = text[0].isupper() and text[1:].islower() and len(text) > 1
        if listed:
            reasons = [f"{word} is in {self.name} (RY-17)"]
            if capitalised:
                reasons.append(f"{text} was typed with a capital; the cards have none, and {word} is judged as "
                               "the ordinary word (RY-17)")
            return Verdict(word, True, tuple(reasons))
        reasons = [f"{word} is not in {self.name} (RY-17)"]
        if capitalised:
            reasons.append(f"{text} was typed with a capital: capitalised words such as proper names are out "
                           "(RY-17)")
        if word in ABBREVIATIONS:
            reasons.append(f"{word} is an abbreviation: abbreviations are out (RY-17)")
        elif len(word) > 1 and not VOWELS & set(word):
            reasons.append(f"{word} has no vowel, like an abbreviation: abbreviations are out (RY-17)")
        return Verdict(word, False, tuple(reasons))


def _not_letters(text: str) -> list[str]:
    """Why a typed word that is not letters A-Z alone is out (RY-17).

    >>> _not_letters("rock'n'roll")
    ["rock'n'roll has an apostrophe: contractions and possessives are out (RY-17)"]
    >>> _not_letters("R2-D2")
    ['R2-D2 is hyphenated: hyphenated words are out (RY-17)', 'R2-D2 has 2, which is not a letter A-Z (RY-17)']
    """
    if not text:
        return ["nothing was typed: give one word (RY-17)"]
    reasons = []
    if any(c.isspace() for c in text):
        reasons.append(f"{' '.join(text.split())} is more than one word: a word is one word (RY-17)")
    if any(c in "'’‘`" for c in text):
        reasons.append(f"{text} has an apostrophe: contractions and possessives are out (RY-17)")
    if any(c in "-‐‑–—" for c in text):
        reasons.append(f"{text} is hyphenated: hyphenated words are out (RY-17)")
    if "." in text:
        reasons.append(f"{text} has full stops, like an abbreviation: abbreviations are out (RY-17)")
    foreign = sorted({c for c in text if c.isalpha() and not ("A" <= c.upper() <= "Z" and c.isascii())})
    if foreign:
        reasons.append(f"{text} has {', '.join(foreign)}, not on the cards: accented and foreign words are out "
                       "(RY-17)")
    other = sorted({c for c in text if not c.isalpha() and not c.isspace() and c not in "'’‘`-‐‑–—."})
    if other:
        reasons.append(f"{text} has {' '.join(other)}, which {'is' if len(other) == 1 else 'are'} not "
                       f"{'a letter' if len(other) == 1 else 'letters'} A-Z (RY-17)")
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
        raise ValueError(f"the target {target.strip() or 'word'} must be letters A-Z only")
    target_word = target_text.upper()
    verdict = wordlist.judge(typed)
    word = verdict.word
    letters = "".join(c for c in word if "A" <= c <= "Z")
    added, lacks = added_letters(target_word, letters)
    reasons = []
    letters_ok = not lacks and bool(added)
    if lacks:
        reasons.append(f"{word} lacks {', '.join(lacks)} of {target_word}: a capture uses every letter of the "
                       "target (RY-7)")
    elif word == target_word:
        reasons.append(f"{word} is the target itself: a capture makes a different word (RY-7)")
    elif not added:
        reasons.append(f"{word} adds no letter to {target_word}: a capture adds at least one card from hand "
                       "(RY-7)")
    else:
        reasons.append(f"{word} uses every letter of {target_word} and adds {', '.join(added)} from hand (RY-7)")
    reasons.extend(verdict.reasons)
    warnings = tuple(_warnings(target_word, word, wordlist)) if letters_ok and verdict.valid else ()
    valid = letters_ok and verdict.valid
    if valid:
        reasons.append(f"{word} is a good capture of {target_word} (RY-7, RY-17)" if not warnings else
                       f"{word} is a good capture of {target_word} by the list, with a warning: the table "
                       "decides by challenge (RY-7, RY-17, RY-10)")
    else:
        reasons.append(f"{word} is not a good capture of {target_word} (RY-7, RY-17)")
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
        found.append(f"{word} looks like {affix}")
    else:  # HOPE + LESS is said once, as a suffix
        found.extend(f"{word} looks like {how}, a word of its own" for how in joins(target, word, wordlist))
    return [f"{line}: the table decides by challenge (RY-17, RY-10)" for line in found]


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
        found.append(f"{target} joined to {word[len(target):]}")
    if word.endswith(target) and _joinable(word[:-len(target)], wordlist):
        found.append(f"{word[:-len(target)]} joined to {target}")
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
            return f"the prefix {prefix}- on {target}"
    for suffix in SUFFIXES:
        if word == target + suffix:
            return f"{target} with the suffix -{suffix}"
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
    lead = f"{word} looks like a mere inflection of {target}"
    tags = _forms_of(t, w, getAllInflections)
    if tags:
        return f"{lead} (its {', '.join(dict.fromkeys(FORMS[tag] for tag in tags))})"
    target_lemmas = {t} | {lemma for lemmas in getAllLemmas(t).values() for lemma in lemmas}
    word_lemmas = {lemma for lemmas in getAllLemmas(w).values() for lemma in lemmas}
    if not word_lemmas:
        word_lemmas = {lemma for upos in ("NOUN", "VERB", "ADJ")
                       for lemma in getAllLemmasOOV(w, upos).get(upos, ())} - {w}
    shared = sorted(target_lemmas & word_lemmas)
    if shared == [t]:
        return lead
    if shared:
        return f"{lead} (both are forms of {' or '.join(lemma.upper() for lemma in shared)})"
    return None


def _forms_of(lemma: str, word: str, get_all_inflections) -> list[str]:
    """The tags under which ``word`` is an inflection of ``lemma`` (its base forms left out)."""
    return [tag for tag, forms in get_all_inflections(lemma).items()
            if word in forms and tag in FORMS and word != lemma]


__all__ = ["CaptureVerdict", "Verdict", "WordList", "added_letters", "capture_check", "judge"]
