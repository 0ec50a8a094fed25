"""Build Royalty's default word list (RY-17) from the SCOWL category files.

    apt-get install -y scowl
    .venv/bin/python scripts/build_wordlist.py

Reads the SCOWL "final" lists that Debian's ``scowl`` package installs under
/usr/share/dict/scowl/ and writes companion/games/royalty/data/words-scowl-70.txt.gz, the list
``companion.games.royalty.words.WordList.load_default()`` loads, and companion/games/royalty/data/SCOWL-COPYRIGHT.txt,
the package's copyright file, which must travel with the list.

What goes in (RY-17: an English list of SCOWL size 70, no proper names, abbreviations or
contractions):

- the ``words`` sub-category of the ``english``, ``american`` and ``british`` spelling
  categories, sizes 10, 20, 35, 40, 50, 55, 60 and 70 (so both AMERICAN COLOR and BRITISH
  COLOUR spellings are words; the ``variant_*``, ``british_z``, ``canadian`` and
  ``australian`` categories are not read);
- never the ``proper-names``, ``upper`` (capitalised words), ``abbreviations`` or
  ``contractions`` sub-categories, nor the ``special-*`` lists (roman numerals, hacker
  words): the script refuses a selection that names one;
- of those files, only entries made of the letters a-z alone: possessives (``'s``),
  hyphenated and accented words (café, aperçu) and anything capitalised are dropped, and so
  are the few unit and function symbols SCOWL files as lower-case words (kb, lm, csc, ...:
  ``SYMBOLS``), since they are abbreviations.

The output is one word per line in UPPER CASE (the letters on Royalty's cards, and the
canonical form the judge answers in), sorted and de-duplicated, after a few ``#`` header
lines naming the source; gzip level 9 with a fixed mtime and no file name in the gzip
header, so that the same SCOWL files always give the same bytes. Files are read as UTF-8
(Debian converts them) and, failing that, as ISO-8859-1 (upstream SCOWL's encoding).
"""

from __future__ import annotations

import argparse
import gzip
import re
import shutil
import sys
from pathlib import Path

SCOWL_DIR = Path("/usr/share/dict/scowl")
SCOWL_DOC = Path("/usr/share/doc/scowl")
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "companion" / "games" / "royalty" / "data" / "words-scowl-70.txt.gz"
COPYRIGHT_OUT = ROOT / "companion" / "games" / "royalty" / "data" / "SCOWL-COPYRIGHT.txt"

SPELLINGS = ("english", "american", "british")
SIZES = (10, 20, 35, 40, 50, 55, 60, 70)
EXCLUDED = re.compile(r"proper-names|upper|abbreviations|contractions|roman-numerals|special-")
WORD = re.compile(r"[a-z]+")
#: Unit and function symbols that SCOWL files as lower-case "words" at size 70: abbreviations (RY-17).
SYMBOLS = frozenset({"csc", "csch", "dkl", "hhd", "kb", "lm", "ln", "lx", "mb", "mf"})
GZIP_MTIME = 0  # fixed, so the output is reproducible


def category_files(scowl_dir: Path, max_size: int = 70) -> list[Path]:
    """The SCOWL files read, in a fixed order; a missing one is an error (the package is incomplete).

    >>> [p.name for p in category_files(Path("/x"), 10)]
    ['english-words.10', 'american-words.10', 'british-words.10']
    """
    names = [f"{spelling}-words.{size}" for size in SIZES if size <= max_size for spelling in SPELLINGS]
    for name in names:
        if EXCLUDED.search(name):
            raise ValueError(f"{name} is an excluded SCOWL category (RY-17)")
    return [scowl_dir / name for name in names]


def read_entries(path: Path) -> list[str]:
    """The lines of one SCOWL file: UTF-8 as Debian ships them, else ISO-8859-1 as upstream does."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("iso-8859-1")
    return text.splitlines()


def keep(entry: str) -> bool:
    """Only plain lower-case words: no capitals, apostrophes, hyphens, accents, spaces or unit symbols.

    >>> [keep(w) for w in ["zebra", "zebra's", "Paris", "café", "well-known", "", "kb"]]
    [True, False, False, False, False, False, False]
    """
    return WORD.fullmatch(entry) is not None and entry not in SYMBOLS


def scowl_version(doc_dir: Path) -> str:
    """The SCOWL version from the package's README ("Version 2020.12.07"), or "unknown"."""
    readme = doc_dir / "README.gz"
    if readme.exists():
        with gzip.open(readme, "rt", encoding="utf-8", errors="replace") as f:
            for line in f:
                match = re.match(r"Version (\S+)", line)
                if match:
                    return match.group(1)
    return "unknown"


def build(scowl_dir: Path, doc_dir: Path, out: Path, copyright_out: Path, max_size: int = 70) -> tuple[int, list[str]]:
    """Write the list and the copyright file; the number of words and the files read."""
    files = category_files(scowl_dir, max_size)
    missing = [str(p) for p in files if not p.exists()]
    if missing:
        raise FileNotFoundError(f"missing SCOWL files (apt-get install scowl): {', '.join(missing)}")
    words = {entry.upper() for path in files for entry in read_entries(path) if keep(entry)}
    header = [
        f"# Royalty's default word list (RY-17): SCOWL {scowl_version(doc_dir)}, size {max_size}, "
        f"{'/'.join(SPELLINGS)} words",
        "# Generated by scripts/build_wordlist.py; do not edit. Copyright and licence: SCOWL-COPYRIGHT.txt",
        f"# Read: {' '.join(p.name for p in files)}",
    ]
    text = "\n".join(header + sorted(words)) + "\n"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(gzip.compress(text.encode("ascii"), compresslevel=9, mtime=GZIP_MTIME))
    shutil.copyfile(doc_dir / "copyright", copyright_out)
    return len(words), [p.name for p in files]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Build Royalty's default word list (RY-17): the english, american and british 'words' "
                    "categories of SCOWL up to size 70 (no proper names, capitalised words, abbreviations, "
                    "contractions or roman numerals), kept to plain a-z words (less a few unit symbols such as "
                    "kb), written UPPER CASE, sorted and de-duplicated to a reproducible gzip file, with SCOWL's "
                    "copyright file copied beside it.",
        epilog="Needs Debian's scowl package (apt-get install scowl).")
    parser.add_argument("--scowl-dir", type=Path, default=SCOWL_DIR, help=f"SCOWL category files (default {SCOWL_DIR})")
    parser.add_argument("--doc-dir", type=Path, default=SCOWL_DOC,
                        help=f"where the package's copyright and README.gz are (default {SCOWL_DOC})")
    parser.add_argument("--out", type=Path, default=OUT, help="the gzip word list to write (default %(default)s)")
    parser.add_argument("--copyright-out", type=Path, default=COPYRIGHT_OUT,
                        help="where to copy the copyright file (default %(default)s)")
    args = parser.parse_args(argv)
    try:
        count, files = build(args.scowl_dir, args.doc_dir, args.out, args.copyright_out)
    except (OSError, ValueError) as err:
        print(f"build_wordlist: {err}", file=sys.stderr)
        return 1
    print(f"{count} words from {len(files)} SCOWL files -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
