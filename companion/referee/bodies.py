"""What every referee does first with the JSON body of its question (API.md): it must be an object, and
each field it holds must be one the question takes."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from ..core.cards import said
from ..games.base import Problems


def checked_body(body: object, fields: Collection[str], found: Problems, wanted: str | None = None,
                 takes: str | None = None) -> Mapping[str, Any]:
    """``body``, when it is a JSON object; when it is not, the problem is raised at once (nothing else in it
    can be read). Each field the question does not take is a problem in ``found``. ``wanted`` says what the
    object should be after "the body must be a JSON object" (by default: with its fields), ``takes`` names
    the fields the question takes (by default: all of them, in order).

    >>> found = Problems()
    >>> checked_body({"cards": [], "colour": "red"}, {"cards"}, found)
    {'cards': [], 'colour': 'red'}
    >>> [(p.where, p.message) for p in found]
    [('colour', 'unknown field “colour”; this question takes cards')]
    >>> checked_body([], {"cards"}, Problems())
    Traceback (most recent call last):
    ...
    companion.games.base.InputError: $: the body must be a JSON object with cards
    """
    listing = ", ".join(sorted(fields))
    if not isinstance(body, Mapping):
        found.add("$", "the body must be a JSON object" + (wanted if wanted is not None else f" with {listing}"))
        found.raise_if_any()
    for key in body:
        if key not in fields:
            found.add(key, f"unknown field {said(key)}; this question takes {takes or listing}")
    return body
