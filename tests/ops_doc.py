"""The commands and files docs/ops.md gives an operator, read out of the page itself, so that what the
tests run is what the page says.

A block is the fenced code block that follows a line ``<!-- tested: NAME -->``.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

OPS = Path(__file__).resolve().parent.parent / "docs" / "ops.md"
_BLOCK = re.compile(r"<!-- tested: (?P<name>[^>]+?) -->\n```[^\n]*\n(?P<body>.*?)\n```", re.DOTALL)


def blocks() -> dict[str, str]:
    """Every tested block of docs/ops.md, by name."""
    found: dict[str, str] = {}
    for match in _BLOCK.finditer(OPS.read_text()):
        assert match["name"] not in found, f"two blocks named {match['name']!r} in docs/ops.md"
        found[match["name"]] = match["body"]
    return found


def block(name: str) -> str:
    found = blocks()
    assert name in found, f"docs/ops.md has no block marked <!-- tested: {name} -->"
    return found[name]


def replaced(text: str, changes: dict[str, str]) -> str:
    """``text`` with each of ``changes``' keys replaced by its value; each key must be there."""
    for old, new in changes.items():
        assert old in text, f"{old!r} is no longer in the documented block:\n{text}"
        text = text.replace(old, new)
    return text


def exports(text: str) -> dict[str, str]:
    """The variables a block of ``export NAME='value'`` lines sets."""
    found = {}
    for line in text.splitlines():
        if line.startswith("export "):
            name, _, value = line[len("export "):].partition("=")
            found[name] = shlex.split(value)[0]
    return found


def command_lines(text: str) -> list[list[str]]:
    """A shell block's commands, continuation lines joined, each split as the shell would."""
    joined = re.sub(r"\\\n\s*", " ", text)
    return [shlex.split(line) for line in joined.splitlines() if line.strip() and not line.startswith("#")]


def with_option(words: list[str], option: str, value: str) -> list[str]:
    """``words`` with ``option``'s value (the word after it) set to ``value``; the option must be there."""
    assert option in words, f"{option} is no longer in the documented command {' '.join(words)}"
    at = words.index(option)
    return [*words[:at + 1], value, *words[at + 2:]]
