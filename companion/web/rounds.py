"""The sentences the shared pages say about a game's rounds (core.round_words), put in a page."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from ..core.messages import ENGLISH, PSEUDO, language, listed, pseudo, render
from ..core.round_words import round_template, round_text

__all__ = ["names_joined", "round_says", "round_text"]


def round_says(kind: str, noun: str, **values: Any) -> Markup:
    """The sentence ``kind`` in the reader's language, for a page: its values escaped unless they are
    markup already (a ``<time>`` the page's script writes in the phone's own time zone)."""
    template = render(round_template(kind, noun), language())
    said = {name: value if hasattr(value, "__html__") else escape(render(value)) for name, value in values.items()}
    return Markup(template.format(**{name: Markup(value) for name, value in said.items()}))  # noqa: S704


def names_joined(names) -> str:
    """Winners' names as the reader's language joins them ("Ann and Ben", « Ann et Ben »); English as the
    board always wrote them, every name joined by "and"."""
    code = language()
    if code == ENGLISH:
        return " and ".join(names)
    if code == PSEUDO:
        return f" {pseudo('and')} ".join(names)
    return listed(list(names), code)
