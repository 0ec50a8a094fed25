"""The entry screens' rows of choices to tap, written in Python as ``entry.forms.count_field`` writes a count.

Rummathon Royale's hand form has, for each player, a row to tap for their round and a grid to tap for
the Burden on them: some forty radio buttons a player. Laid out by Jinja (a macro for each row, a loop
for each grid) they were a third of the page's drawing; here they are the very same HTML, byte for byte
(tests/test_form_rendering.py keeps the template they replace as the reference).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from markupsafe import Markup, escape

from ..entry.forms import error_ids, markup_gettext, radio_options
from .common import link_rulings


def _problems(field) -> str:
    """A field's problems, each a paragraph with its own id, its rulings linked."""
    return "".join(f'<p class="error" id="{problem_id}">{link_rulings(problem)}</p>'
                   for problem, problem_id in zip(field.errors, error_ids(field.id, field.errors), strict=True))


def _described_by(field) -> str:
    """The ``aria-describedby`` naming a field's problems, or nothing when it has none."""
    if not field.errors:
        return ""
    return f' aria-describedby="{escape(" ".join(error_ids(field.id, field.errors)))}"'


def tap_choices(field, legend: str, class_: str = "", hint: str | None = None,
                short: Mapping[str, str] | None = None) -> Markup:
    """A row of choices to tap: real radio inputs drawn as buttons (44 px), in a fieldset whose legend
    names them, so that they work without JavaScript, by keyboard and with a screen reader. ``short``: a
    shorter text to show on a button, its full label kept for screen readers."""
    short = short or {}
    out = [f'<div class="field tap-choices {escape(class_)}{" has-error" if field.errors else ""}">\n'
           f'<fieldset id="{escape(field.id)}"{_described_by(field)}>\n'
           f'  <legend class="label">{escape(legend)}</legend>\n  ']
    if hint:
        out.append(f'<p class="hint">{escape(hint)}</p>')
    out.append('\n  <div class="tap-options">')
    for option in radio_options(field):
        if option.value in short:
            text = (f'<span aria-hidden="true">{escape(short[option.value])}</span>'
                    f'<span class="visually-hidden">{escape(option.label)}</span>')
        else:
            text = f"<span>{escape(option.label)}</span>"
        out.append(f'<label class="seg">{option.html}{text}</label>')
    out.append(f"</div>\n</fieldset>\n  {_problems(field)}\n</div>")
    return Markup("".join(out))  # noqa: S704 - every value in it escaped


def burden_taps(burden, double, players: Sequence[str], name: str) -> Markup:
    """The Burden on ``name`` (RR-3) to tap: no Burden, or who played it and how it ended, each player's
    pair under their name; the Double Burden box; the problems of both."""
    grid = []
    for option in radio_options(burden):
        if not option.value:
            text = escape(option.label)
            grid.append(f'\n        <label class="seg no-burden">{option.html}<span>{text}</span></label>')
            continue
        by_seat, result = option.value.split(":")
        by = players[int(by_seat)]
        if result == "completed":
            grid.append(f'<span class="by">{escape(by)}</span>')
        whose = markup_gettext("%(name)s's Burden, ", name=by)
        outcome = markup_gettext("completed") if result == "completed" else markup_gettext("failed")
        grid.append(f'\n        <label class="seg">{option.html}<span><span class="visually-hidden">{whose}</span>'
                    f"{outcome}</span></label>")
    if double.errors:
        box = double(aria_invalid="true", aria_describedby=" ".join(error_ids(double.id, double.errors)))
    else:
        box = double()
    legend = markup_gettext("Burden on %(name)s (RR-3)", name=name)
    hint = markup_gettext("Tap who played it and how it ended. Completed: %(name)s scores 50. Failed: the player "
                          "who played it scores 50. A Double Burden, 100.", name=name)
    html = (f'<div class="field burden-taps{" has-error" if burden.errors or double.errors else ""}">\n'
            f'    <fieldset id="{escape(burden.id)}"{_described_by(burden)}>\n'
            f'      <legend class="label">{legend}</legend>\n      <p class="hint">{hint}</p>\n'
            f'      <div class="burden-grid">{"".join(grid)}</div>\n    </fieldset>\n'
            f'      <div class="field check">{box} {double.label()}</div>\n'
            f"      {_problems(burden)}\n      {_problems(double)}\n    </div>")
    return Markup(html)  # noqa: S704 - every value in it escaped
