"""The pseudo-language's marks (core.messages.pseudo): what of a text said in it is outside every mark."""

from __future__ import annotations

import re

_INNERMOST = re.compile(r"⟦[^⟦⟧]*⟧")


def without_marks(text: str) -> str:
    """``text`` with every marked message taken out, innermost first (a message said inside another is
    marked inside its marks).

    >>> without_marks("⟦Ɓôûĝĥţ ⟦ţŵô⟧ çåŕðš⟧ by Ann")
    '  by Ann'
    """
    before = None
    while before != text:
        before, text = text, _INNERMOST.sub(" ", text)
    return text
