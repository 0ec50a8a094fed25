"""Courtier's fast field rendering writes exactly the HTML WTForms' own widgets write.

Every field of every form the app shows is rendered both ways, blank, filled from a
posted form (with the errors validation leaves) and with the attributes templates pass.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict
from wtforms.meta import DefaultMeta
from wtforms.validators import InputRequired
from wtforms.widgets import html_params

from companion.entry import ENTRY, forms
from companion.storage import tables
from companion.views.main import ImportForm, NewTableForm
from companion.views.tables import ActionForm
from companion.views.tournaments import TournamentForm

pytestmark = pytest.mark.one_database  # the stateless API and forms: the same on either database

SEATINGS = {
    "alliance-royals": ("Ann", "Ben", "Cat", "Dan"),
    "indian-rummy": ("Ann", "Ben", "Cat"),
    "rally-the-king": ("Ann", "Ben", "Cat", "Dan", "Eve"),
    "royalty": ("Ann", "Ben"),
    "rummathon-royale": ("Ann", "Ben", "Cat", "Dan"),
    "battle-royals": ("Ann", "Ben"),
    "marriage-royals": ("Ann", "Ben", "Cat"),
    "rummy-royal": ("Ann", "Ben", "Cat", "Dan"),
}
#: Attributes the templates pass when rendering fields.
PASSED = [{}, {"class_": "out"}, {"maxlength": "200"}, {"aria_invalid": "true", "aria_describedby": "x-error"},
          {"type": "number", "inputmode": "numeric", "min": "0", "placeholder": "0"},
          {"data_points": 5, "data_cards": "", "autocomplete": "off"}, {"checked": False, "readonly": True}]


def wtforms_render(field, render_kw):
    return DefaultMeta.render_field(field.meta, field, render_kw)


def every_field(form):
    for field in form:
        yield field
        if field.type in ("RadioField", "TapField"):
            yield from field  # each radio button (or tap box) renders on its own too


def assert_same(form):
    for field in every_field(form):
        for passed in PASSED:
            assert str(field.meta.render_field(field, dict(passed))) == str(wtforms_render(field, dict(passed))), (
                field.name, passed)


def forms_for(slug: str, formdata=None):
    entry = ENTRY[slug]
    table = tables.Table("t", "k", slug, "A table", SEATINGS[slug], {}, "")
    yield entry.round_form(table, formdata=formdata)
    yield entry.options_form(formdata)
    for _title, form_class, *_ in getattr(entry, "REFEREE", {}).values():  # the referee screens' forms
        yield form_class(formdata=formdata)


@pytest.mark.parametrize("slug", sorted(ENTRY))
def test_every_entry_form_renders_as_wtforms_would(app, slug):
    with app.test_request_context("/"):
        for form in forms_for(slug):
            assert_same(form)


@pytest.mark.parametrize("slug", sorted(ENTRY))
def test_a_posted_form_with_its_errors_renders_as_wtforms_would(app, slug):
    with app.test_request_context("/", method="POST"):
        form = next(forms_for(slug, MultiDict({"base_version": "3", "note": 'a "quoted" <note>'})))
        names = [field.name for field in form]
        posted = MultiDict({name: value for name, value in zip(names, ["1", "Ben", "x", "99999", "y", "on"] * 20,
                                                                  strict=False)})
        for form in forms_for(slug, posted):
            form.validate()
            assert_same(form)


def assert_same_options(form) -> int:
    """Every radio field's choices as radio_options gives them against iterating the field as WTForms does."""
    compared = 0
    for field in form:
        if field.type != "RadioField":
            continue
        wtforms_own = [(option.data, str(wtforms_render(option, {})), str(option.label.text)) for option in field]
        assert [(o.value, str(o.html), str(o.label)) for o in forms.radio_options(field)] == wtforms_own, field.name
        compared += len(wtforms_own)
    return compared


@pytest.mark.parametrize("slug", sorted(ENTRY))
def test_a_radio_fields_choices_are_written_as_wtforms_writes_them(app, slug):
    with app.test_request_context("/", method="POST"):
        compared = sum(assert_same_options(form) for form in forms_for(slug))
        chosen = MultiDict({"out": "1", "p0_progress": "completed", "burden1": "0:failed", "kind": "x"})
        for form in forms_for(slug, chosen):
            form.validate()
            compared += assert_same_options(form)
        with_attributes = next(forms_for(slug))
        for field in with_attributes:
            field.render_kw = {"class_": "seg", "data_x": "<y>"}  # required: from the validator
            field.validators = [InputRequired()]
        compared += assert_same_options(with_attributes)
    assert compared > 0


def test_the_apps_other_forms_render_as_wtforms_would(app):
    with app.test_request_context("/"):
        for form in (NewTableForm(), ImportForm(), ActionForm(), TournamentForm()):
            assert_same(form)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["name", "id", "class_", "data_x_y", "aria_label", "value", "for_", "min"]),
                       st.one_of(st.booleans(), st.text(max_size=8), st.integers(-5, 5)), max_size=5))
def test_attributes_are_written_as_wtforms_writes_them(kwargs):
    assert forms.attributes(**kwargs) == str(html_params(**kwargs))


@pytest.mark.parametrize("slug", sorted(ENTRY))
def test_the_entry_forms_fields_take_the_fast_path(app, slug):
    with app.test_request_context("/"):
        form = next(forms_for(slug))
        fields = list(every_field(form))
        fast = [f for f in fields if type(f.widget) in forms._RENDERERS]
        assert type(form.meta).render_field is not DefaultMeta.render_field
        assert len(fast) >= 0.8 * len(fields), [f.name for f in fields if f not in fast]


def test_each_problem_of_a_field_has_its_own_id_and_the_field_names_them_all(app):
    """A field with two problems: both read with it (aria-describedby), no id twice on the page."""
    from wtforms import StringField

    from companion.entry.forms import CourtierForm

    class Form(CourtierForm):
        name = StringField("Name")

    with app.test_request_context("/"):
        form = Form(meta={"csrf": False})
        form.name.errors = ["Too long.", "Not a name at this table."]
        html = app.jinja_env.from_string('{% from "fragments/macros.html" import field %}{{ field(f) }}').render(
            f=form.name)
    assert 'aria-describedby="name-error name-error-2"' in html
    assert html.count('id="name-error"') == 1 and html.count('id="name-error-2"') == 1


#: The count macro the entry templates used, kept as the reference for entry.forms.count_field.
COUNT_MACRO = (Path(__file__).parent / "count_macro.html").read_text().rstrip("\n")


@pytest.mark.parametrize("slug", ["indian-rummy", "rally-the-king", "rummathon-royale", "rummy-royal"])
@pytest.mark.parametrize("language", ["en", "fr", "qps"])
def test_a_count_is_laid_out_as_the_macro_laid_it_out(make_app, slug, language):
    from companion.core import messages

    app = make_app(WTF_CSRF_ENABLED=False, LANGUAGES="fr hi qps")
    reference = app.jinja_env.from_string(COUNT_MACRO)
    table = tables.Table("t", "k", slug, "A table", ("Ann", "B&n <i>", "Cat", "Dan"), {}, "")
    wrong = MultiDict({name: "-3" for name in ("p0_low", "p1_high", "p0_count", "p1_count", "p0_extra", "c_kings",
                                               "c_others", "declarer_tricks", "p0_cards_left")})
    compared = 0
    with app.test_request_context("/"), messages.speaking(language):
        for formdata in (None, wrong):
            form = ENTRY[slug].round_form(table, formdata=formdata)
            if formdata is not None:
                form.validate()
            for field in form:
                if not isinstance(field, forms.CountField):
                    continue
                for picks, hint, attrs in ((0, None, {}), (5, "B&n's <hint>", {}), (3, None, {"data_points": 5})):
                    assert str(forms.count_field(field, picks, hint, **attrs)) == reference.render(
                        f=field, picks=picks, hint=hint, attrs=attrs), (field.name, picks, hint, attrs)
                    compared += 1
    assert compared >= 6


#: The row of choices to tap and the Burden grid as the templates laid them out, the references for
#: views.entry_fields.tap_choices and burden_taps.
TAPS_MACRO = (Path(__file__).parent / "taps_macro.html").read_text().rstrip("\n")
BURDEN_TAPS = (Path(__file__).parent / "burden_taps.html").read_text().rstrip("\n")


def rummathon_forms(players):
    """Rummathon Royale's hand form blank, as posted with choices it refuses, and with problems of its
    own beside its rows (two of them, a ruling named in one, markup in a player's words)."""
    table = tables.Table("t", "k", "rummathon-royale", "A table", players, {}, "")
    wrong = MultiDict({"out": "nobody", "p0_progress": "halfway", "burden1": "9:won", "burden2": "0:completed",
                       "burden2_double": "y", "burden3": "1:failed"})
    blank = ENTRY["rummathon-royale"].round_form(table)
    posted = ENTRY["rummathon-royale"].round_form(table, formdata=wrong)
    assert not posted.validate() and posted.out.errors and posted.burden1.errors and posted.p0_progress.errors
    named = ENTRY["rummathon-royale"].round_form(table, formdata=wrong)
    for name in ("out", "p1_progress", "burden0", "burden0_double", "burden2_double"):
        named[name].errors = ["Only one Burden <on> a player a hand (RR-3).", "Tap one, like the others."]
    return blank, posted, named


@pytest.mark.parametrize("language", ["en", "fr", "qps"])
def test_the_rows_to_tap_are_laid_out_as_the_template_laid_them_out(make_app, language):
    from companion.core import messages
    from companion.views import entry_fields

    app = make_app(WTF_CSRF_ENABLED=False, LANGUAGES="fr hi qps")
    taps, burdens = app.jinja_env.from_string(TAPS_MACRO), app.jinja_env.from_string(BURDEN_TAPS)
    players = ("Ann", "B&n <i>", "Cat", "Dan")
    compared = linked = 0
    with app.test_request_context("/"), messages.speaking(language):
        short = {"failed": forms.lazy_gettext("Not completed"), "declared-failed": "<Declared>, failed"}
        for form in rummathon_forms(players):
            rows = [form.out] + [form[f"p{i}_progress"] for i in range(4)]
            legend = f"{players[1]}'s round"
            ways = (("", None, None), ("out", "B&n's <hint>", None), ("progress", None, short))
            for row in rows:
                for class_, hint, shorter in ways:
                    mine = entry_fields.tap_choices(row, legend, class_=class_, hint=hint, short=shorter)
                    assert str(mine) == taps.render(f=row, legend=legend, class_=class_, hint=hint,
                                                    short=shorter or {}), (row.name, class_, hint)
                    compared += 1
            for i, name in enumerate(players):
                burden, double = form[f"burden{i}"], form[f"burden{i}_double"]
                assert str(entry_fields.burden_taps(burden, double, players, name)) == burdens.render(
                    bf=burden, df=double, table={"players": players}, p=name), burden.name
                compared += 1
                linked += '#RR-3" aria-label=' in str(entry_fields.burden_taps(burden, double, players, name))
    assert compared == 3 * (5 * 3 + 4) and linked == 2  # the named problems' rulings linked
