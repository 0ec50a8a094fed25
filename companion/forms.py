"""Form pieces every game's entry screen uses."""

from __future__ import annotations

from collections.abc import Iterable

from wtforms import IntegerField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import StopValidation


def choices(pairs: Iterable[tuple[str, str]]) -> list[SelectChoice]:
    """(value, label) pairs as the choices of a select or radio field.

    >>> [c.value for c in choices([("a", "Ann"), ("b", "Ben")])]
    ['a', 'b']
    """
    return [SelectChoice(value, label) for value, label in pairs]


class CountField(IntegerField):
    """A count of cards: blank means none; anything but a whole number is refused."""

    def process_formdata(self, valuelist):
        if valuelist and valuelist[0].strip() == "":
            self.data = None
            return
        try:
            super().process_formdata(valuelist)
        except ValueError as err:
            raise ValueError("Enter a whole number, like 3.") from err

    def pre_validate(self, form):
        if self.process_errors:  # one clear message, not a second one about the range
            raise StopValidation()
