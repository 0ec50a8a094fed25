"""Form pieces every game's entry screen uses."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import NamedTuple

from babel.support import NullTranslations, Translations
from flask import has_app_context
from flask_babel.speaklater import LazyString
from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from wtforms import IntegerField, widgets
from wtforms.fields.choices import SelectChoice
from wtforms.i18n import messages_path
from wtforms.validators import StopValidation

from ..core import messages


class Lazy(LazyString):
    """A label or message said in the reader's language when shown, escaped in a page as any text is
    (flask_babel's own lazy string would put its words in a page unescaped)."""

    def __html__(self) -> str:
        return str(escape(str(self)))


def gettext(message: str, **values: object) -> str:
    """flask_babel's gettext as the app's domain answers it (web.language: Courtier's catalog of the reader's
    language; English outside the app), without looking the domain up through the request each time: a
    hand's form reads a hundred labels, a board links a hundred rulings."""
    said = messages.gettext(message) if has_app_context() else message
    return messages.filled(said, values) if values else said


def ngettext(singular: str, plural: str, num: int, **values: object) -> str:
    """flask_babel's ngettext as :func:`gettext` is its gettext."""
    values.setdefault("num", num)
    if has_app_context():
        return messages.filled(messages.ngettext(singular, plural, num), values)
    return (singular if num == 1 else plural) % values


def markup_gettext(message: str, **values: object) -> Markup:
    """``message`` in the reader's language as a template's ``_()`` says it: the catalog's words are
    markup, the values put in them escaped (gathered for translating as ``say`` is: the Makefile)."""
    values = dict(values)
    return Markup(messages.elided(messages.gettext(message), values)) % values  # noqa: S704


def lazy_gettext(message: str, /, **values: object) -> Lazy:
    """flask_babel's lazy_gettext, for words defined before any request (a form's labels, its choices):
    ``message`` is the English text, ``%(name)s`` its fields.

    >>> str(lazy_gettext("Seat %(number)s", number=3))
    'Seat 3'
    """
    return Lazy(gettext, message, **values)


def lazy_ngettext(singular: str, plural: str, num: int, /, **values: object) -> Lazy:
    """flask_babel's lazy_ngettext: the form ``num`` asks for in the reader's language, ``%(num)d`` its field.

    >>> str(lazy_ngettext("%(num)d deck", "%(num)d decks", 2))
    '2 decks'
    """
    return Lazy(ngettext, singular, plural, num, **values)


@lru_cache(maxsize=8)
def wtforms_catalog(code: str) -> Translations | NullTranslations | None:
    """WTForms' own messages ("Not a valid integer value.") in a language, read once a process: Flask-WTF
    reads the catalog again for every request, a millisecond a form. English (the messages as written)
    needs none; the pseudo-language marks them as it marks Courtier's own."""
    if code == messages.ENGLISH:
        return None
    if code == messages.PSEUDO:
        return messages.catalog(code)
    return Translations.load(messages_path(), [code], domain="wtforms")


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
            raise ValueError(lazy_gettext("Enter a whole number, like 3.")) from err

    def pre_validate(self, form):
        if self.process_errors:  # one clear message, not a second one about the range
            raise StopValidation()


def error_ids(field_id: str, errors: Sequence[object]) -> list[str]:
    """The ids of a field's problems, each its own, for the field's ``aria-describedby`` to name them all.

    >>> error_ids("p1_low", ["a", "b"]), error_ids("out", [])
    (['p1_low-error', 'p1_low-error-2'], [])
    """
    return [f"{field_id}-error" + (f"-{i + 1}" if i else "") for i in range(len(errors))]


def count_field(field, picks: int = 0, hint: str | None = None, **attrs: object) -> Markup:
    """A count's box as the entry screens lay it out: its label, the box between a fewer and a more button,
    a hint, ``picks`` + 1 numbers to tap (0 to ``picks``, shown by app.js) and its problems. Written here,
    not as a template macro: a hand's form has up to thirty counts, and a macro call for each was a sixth
    of the page's drawing (the same HTML, byte for byte: tests/test_form_rendering.py)."""
    errors = field.errors
    out = [f'\n<div class="field count{" has-error" if errors else ""}">\n'
           f'  <label for="{escape(field.id)}">{escape(field.label.text)}</label>\n  <div class="stepper">\n'
           f'    <button type="button" class="step" data-step="-1" aria-label="{escape(messages.gettext("one fewer"))}"'
           ' hidden>−</button>\n    ']
    if errors:
        out.append(field(type="number", inputmode="numeric", min="0", placeholder="0", aria_invalid="true",
                         aria_describedby=" ".join(error_ids(field.id, errors)), **attrs) + "\n    ")
    else:
        out.append(field(type="number", inputmode="numeric", min="0", placeholder="0", **attrs))
    more = escape(messages.gettext("one more"))
    out.append(f'\n    <button type="button" class="step" data-step="1" aria-label="{more}" hidden>+</button>'
               '\n  </div>\n  ')
    if hint:
        out.append(f'<small class="hint">{escape(hint)}</small>')
    out.append("\n  ")
    if picks:
        named = markup_gettext("%(field)s: tap a number", field=field.label.text)  # the label escaped into them
        out.append(f'<div class="quick-counts" role="group" aria-label="{named}" hidden>')
        out.extend(f'<button type="button" class="quick" data-set-count="{n}" aria-pressed="'
                   f'{"true" if field.data == n else "false"}">{n}</button>' for n in range(picks + 1))
        out.append("</div>")
    out.append("\n  ")
    out.extend(f'<p class="error" id="{problem_id}">{escape(problem)}</p>'
               for problem, problem_id in zip(errors, error_ids(field.id, errors), strict=True))
    out.append("\n</div>")
    return Markup("".join(out))  # noqa: S704 - every value in it escaped


def round_form_of(form_class: type[FlaskForm], formdata, data: dict | None, base_version: int) -> FlaskForm:
    """A round's entry form: what was posted, else ``data`` with the version of the table it is based on."""
    form = form_class(formdata=formdata, data=data)
    if formdata is None:
        form.base_version.data = str(base_version)
    return form


# -- Rendering ------------------------------------------------------------------------------------
#
# A hand's form has up to sixty fields, and WTForms' widgets build every attribute with
# Markup.format: rendering took most of an entry page's time. The renderers below write the
# very same HTML for the widgets Courtier uses (a test compares them with WTForms' own on
# every field of every game's form); any other widget is left to WTForms.


def attributes(**kwargs: object) -> str:
    """HTML attributes, written exactly as ``wtforms.widgets.html_params`` writes them.

    >>> attributes(name="n", id="f", class_="a b", data_sum_target="s", checked=True, readonly=False)
    'checked class="a b" data-sum-target="s" id="f" name="n"'
    >>> attributes(value='say "hi" <b>')
    'value="say &#34;hi&#34; &lt;b&gt;"'
    """
    parts = []
    for key, value in sorted(kwargs.items()):
        if value is False:
            continue
        key = key.rstrip("_")
        if key.startswith(("data_", "aria_")):
            key = key.replace("_", "-")
        if value is True:
            parts.append(key)
        else:
            parts.append(f'{key}="{str(escape(value)).replace(chr(34), "&quot;")}"')
    return " ".join(parts)


def _validation_attributes(widget, field, kwargs: dict) -> None:
    flags = field.flags
    for name in widget.validation_attrs:
        if name not in kwargs and name in flags.__dict__:
            value = flags.__dict__[name]
            kwargs[name] = value() if callable(value) and not isinstance(widget, widgets.Select) else value


def _input(widget, field, kwargs: dict) -> Markup:
    kwargs.setdefault("id", field.id)
    kwargs.setdefault("type", widget.input_type)
    if "value" not in kwargs:
        kwargs["value"] = field._value()
    _validation_attributes(widget, field, kwargs)
    return Markup(f"<input {attributes(name=field.name, **kwargs)}>")  # noqa: S704 - escaped above


def _number(widget, field, kwargs: dict) -> Markup:
    for name in ("step", "min", "max"):
        if getattr(widget, name) is not None:
            kwargs.setdefault(name, getattr(widget, name))
    return _input(widget, field, kwargs)


def _checkbox(widget, field, kwargs: dict) -> Markup:
    if getattr(field, "checked", field.data):
        kwargs.setdefault("checked", True)
    return _input(widget, field, kwargs)


def _radio(widget, field, kwargs: dict) -> Markup:
    if field.checked:
        kwargs.setdefault("checked", True)
    return _input(widget, field, kwargs)


def _select(widget, field, kwargs: dict) -> Markup | None:
    if widget.multiple or field.has_groups():
        return None
    kwargs.setdefault("id", field.id)
    _validation_attributes(widget, field, kwargs)
    html = [f"<select {attributes(name=field.name, **kwargs)}>"]
    for choice in field.iter_choices():
        value = str(choice.value) if isinstance(choice.value, bool) else choice.value
        option = {"value": value, **(choice.render_kw or {})}
        if choice.selected:
            option["selected"] = True
        html.append(f"<option {attributes(**option)}>{escape(choice.label or choice.value)}</option>")
    html.append("</select>")
    return Markup("".join(html))  # noqa: S704 - escaped above


def _textarea(widget, field, kwargs: dict) -> Markup:
    kwargs.setdefault("id", field.id)
    _validation_attributes(widget, field, kwargs)
    return Markup(f"<textarea {attributes(name=field.name, **kwargs)}>\r\n{escape(field._value())}</textarea>")  # noqa: S704


_RENDERERS = {
    widgets.TextArea: _textarea,
    widgets.TextInput: _input,
    widgets.HiddenInput: _input,
    widgets.NumberInput: _number,
    widgets.CheckboxInput: _checkbox,
    widgets.RadioInput: _radio,
    widgets.Select: _select,
}


def render_field(field, render_kw: dict) -> Markup:
    """A field as HTML: the fast renderer for its widget when there is one, else WTForms'."""
    kwargs = {widgets.core.clean_key(k): v for k, v in render_kw.items()}
    if field.render_kw is not None:
        kwargs = {**{widgets.core.clean_key(k): v for k, v in field.render_kw.items()}, **kwargs}
    renderer = _RENDERERS.get(type(field.widget))
    if renderer is not None and getattr(field, "_datalist", None) is None:
        html = renderer(field.widget, field, dict(kwargs))  # a copy: a fallback gets them untouched
        if html is not None:
            return html
    return field.widget(field, **kwargs)


class RadioOption(NamedTuple):
    """One choice of a radio field: its value, its radio button as HTML, its label."""

    value: object
    html: Markup
    label: object


def radio_options(field) -> Iterator[RadioOption]:
    """Each choice of a radio field with its button, the very HTML that iterating the field and rendering
    each option writes, without WTForms' subfield for each choice (bound, processed and flagged: most
    of the cost of a row of taps; tests/test_form_rendering.py compares the two on every radio field)."""
    flags: dict[str, object] = {}
    for validator in field.validators:
        flags.update(getattr(validator, "field_flags", {}))
    attrs = {widgets.core.clean_key(k): v for k, v in (field.render_kw or {}).items()}
    for name in field.option_widget.validation_attrs:
        if name not in attrs and name in flags:
            attrs[name] = flags[name]() if callable(flags[name]) else flags[name]
    for i, choice in enumerate(field._iter_choices_normalized()):
        kwargs = {"id": f"{field.id}-{i}", "type": "radio", "value": str(choice.value), **attrs}
        if choice.selected:
            kwargs.setdefault("checked", True)
        yield RadioOption(choice.value, Markup(f"<input {attributes(name=field.name, **kwargs)}>"),  # noqa: S704
                          choice.label or choice.value)


class CourtierForm(FlaskForm):
    """The base of every form here: a FlaskForm (CSRF) whose fields render through :func:`render_field`."""

    class Meta:
        def render_field(self, field, render_kw):
            return render_field(field, render_kw)

        def get_translations(self, form):
            return wtforms_catalog(messages.language())
