"""Counts in messages as a player writes them: "1 card", "3 cards", "1 was given", "none were given";
and text put in a spreadsheet as text (:func:`spreadsheet_text`).

>>> counted(1, "card"), counted(3, "card"), counted(0, "extra card")
('1 card', '3 cards', '0 extra cards')
>>> given(1), given(0), given(7, "named")
('1 was given', 'none were given', '7 were named')
>>> plain(-8), plain(12), counted(-2, "card")
('−8', '12', '−2 cards')
"""

from __future__ import annotations


def plain(n: int) -> str:
    """A whole number as shown to people: a true minus sign (U+2212), no plus."""
    return f"\u2212{-n}" if n < 0 else str(n)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for one."""
    return f"{plain(n)} {noun if n == 1 else (plural or noun + 's')}"


def given(n: int, verb: str = "given") -> str:
    """How many were given (or named): "1 was given", "none were given", "3 were given"."""
    from .messages import say, say_n

    if verb == "named":
        return say("none were named") if n == 0 else say_n("{count} was named", "{count} were named", n)
    if verb == "given":
        return say("none were given") if n == 0 else say_n("{count} was given", "{count} were given", n)
    if n == 0:
        return f"none were {verb}"
    return f"{n} {'was' if n == 1 else 'were'} {verb}"


__all__ = ["counted", "given", "plain"]


#: A spreadsheet reads a cell starting with one of these as a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(value: str) -> str:
    """A text cell a spreadsheet shows as text: a leading quote defuses a formula.

    >>> spreadsheet_text("=HYPERLINK(1)"), spreadsheet_text("Ann")
    ("'=HYPERLINK(1)", 'Ann')
    """
    return "'" + value if value.startswith(FORMULA_STARTS) else value
