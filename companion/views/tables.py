"""A table's pages: the scoreboard, entering and correcting rounds, history, export.

Reading needs only the table id (the view link). Every write needs the edit
key, checked here on every request, and carries the version it was based on.
"""

from __future__ import annotations

import csv
import io
import json
import secrets
from collections.abc import Callable
from functools import wraps

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from wtforms import HiddenField, StringField

from .. import games
from ..clubs import store as clubs
from ..core.messages import Joined, listed, per_reader, say
from ..core.messages import number as written
from ..core.messages import render as in_words
from ..core.wording import spreadsheet_text
from ..entry import ENTRY, split_where
from ..entry.forms import CourtierForm, error_ids, gettext, lazy_gettext
from ..games.base import InputError
from ..games.royalty import said_verdict
from ..paper import scorepad, sheets
from ..storage import history as history_words
from ..storage import tables
from ..storage.db import get_db
from ..tournaments import store as tournament_store
from ..web import kept_copies, language
from ..web.rounds import round_text
from . import entry_fields, table_actions
from .common import (
    device_label,
    key_from_link,
    known_tables,
    link_rulings,
    phone_name,
    remember_table,
    see_other,
    states,
)

bp = Blueprint("tables", __name__, url_prefix="/t")

VIEW_ONLY = say("This is a view link: it can show the scores but not change them. "
                "Use the table's edit link to enter scores.")
NO_TABLE = say("There is no table at this link. Check the link, or start a new table.")
EXPIRED = say("This button's form expired. Reload the page and try again.")
FORM_EXPIRED = say("This form expired. Reload the page and try again.")


@bp.errorhandler(tables.TableNotFound)
def table_gone(_error: tables.TableNotFound):
    """A table removed while this request was under way (its round's seating undone, on any server)."""
    from ..web.security import _error_response

    return _error_response(404, say("Not Found"), NO_TABLE)


def why_filter(text: str):
    return link_rulings(text)


bp.add_app_template_filter(per_reader(why_filter), "why")


bp.add_app_template_filter(phone_name, "phone")

bp.add_app_template_global(entry_fields.tap_choices, "tap_choices")  # a row of choices to tap
bp.add_app_template_global(entry_fields.burden_taps, "burden_taps")  # Rummathon Royale's Burden grid (RR-3)


bp.add_app_template_filter(said_verdict, "verdict_words")  # a logged verdict's why, in the reader's language (RY-17)


def card_attrs(field, zone_label: str, **extra: str) -> dict[str, str]:
    """HTML attributes of a card-entry input: the picker's hooks, and when invalid the links to each of its problems."""
    attrs = {"data-cards": "", "data-zone": zone_label, "autocomplete": "off", "autocapitalize": "characters",
             "spellcheck": "false", **extra}
    if field.errors:
        attrs.update({"aria-invalid": "true", "aria-describedby": " ".join(error_ids(field.id, field.errors))})
    return attrs


@bp.url_value_preprocessor
def load_table(endpoint, values):
    if values and "table_id" in values:
        try:  # from the state cache when this version is there: a table's row is not read again
            now = tables.state_by_id(get_db(), values["table_id"], known_tables(), states())
        except tables.TableNotFound:
            abort(404, NO_TABLE)
        # The table as the log has it now: names corrected, late players seated (tables.seating).
        g.table_state = now
        g.table = now.table
        g.key = key_from_link(g.table.edit_key, say("This edit link is not valid for this table. "
                                                  "Ask for the edit link again."), VIEW_ONLY)
        g.can_edit = g.key is not None


def needs_edit_key(view):
    """Refuse a write without the table's edit key (a view link cannot write)."""
    @wraps(view)
    def checked(*args, **kwargs):
        if not g.can_edit:
            abort(403, VIEW_ONLY)
        return view(*args, **kwargs)
    return checked


def table_url(endpoint: str, **values) -> str:
    """A URL on this table, carrying the edit key when this page has it."""
    if g.get("key"):
        values["key"] = g.key
    return url_for(endpoint, table_id=g.table.id, **values)


def hand_urls(endpoint: str, with_key: bool = True) -> Callable[[int], str]:
    """The URL of ``endpoint`` for any hand's slot, built by Flask once per board: a board links each
    of its hands up to three times, and building a URL is most of what a link costs."""
    url = table_url(endpoint, slot=0) if with_key else url_for(endpoint, table_id=g.table.id, slot=0)
    head, _, tail = url.rpartition("/hands/0")
    return lambda slot: f"{head}/hands/{int(slot)}{tail}"


@bp.app_context_processor
def inject_table_url():
    return {"table_url": table_url, "hand_urls": hand_urls, "entry_for": ENTRY.__getitem__, "card_attrs": card_attrs,
            "max_name_length": games.MAX_NAME_LENGTH, "print_font_stack": sheets.font_stack()}


class ActionForm(CourtierForm):
    """Buttons that change the log (undo, delete): just the CSRF token and the version."""


class NameForm(CourtierForm):
    """A player's name: corrected for a player at the table, or a late player's to seat."""

    name = StringField(lazy_gettext("Name"))
    base_version = HiddenField()


def _state():
    """The table's state as this request read it (once: every part of a page shows the same version)."""
    if "table_state" not in g:
        g.table_state = tables.state(get_db(), g.table, states())
    now = g.table_state
    return now.log, now.hands, now.scored, now.version


#: Stands in for the CSRF field in a shared board; each page puts its own token in.
_CSRF_SLOT = "\x00csrf\x00"


def render_board(scored, hands, version: int) -> Markup:
    """The scoreboard with every round and its why, as HTML.

    Every phone sees the same board at a version (only the edit link in its
    addresses and the CSRF token in its forms differ), so it is rendered
    once per version and link, kept in the app's board cache, and this page's
    token is put in. The phones polling a table after a change then share
    one rendering.
    """
    cache = current_app.extensions["courtier.boards"]
    key = (g.table.id, version, g.key or "", request.script_root, g.language)
    html = cache.get(key)
    if html is None:
        pad = scorepad.build(scored, [data for _, data in hands])
        log = _state()[0]
        svg, legend = running_chart(scored)
        # The chart says in words who leads and by how much (chart_words, shown under it): its description.
        svg = Markup(str(svg).replace('role="img" ', 'role="img" aria-describedby="chart-says" ', 1))  # noqa: S704
        html = render_template("fragments/board.html", table=g.table, scored=scored, hands=hands, version=version,
                               changed_at=log[-1].created_at if log else "", pad=pad, chart=svg, legend=legend,
                               chart_says=chart_words(pad) if svg else "",
                               csrf_field=Markup(_CSRF_SLOT))  # noqa: S704 - a constant
        cache.put(key, html)
    form = ActionForm()
    token = str(form.csrf_token) if "csrf_token" in form else ""
    return Markup(html.replace(_CSRF_SLOT, token))  # noqa: S704 - rendered by autoescaped templates


def chart_words(pad) -> str:
    """What the chart shows, in a sentence for whoever cannot see it: who leads (or won), and by how much.

    The leaders are the pad's (the lowest totals where the lowest wins); the margin is to the nearest other total."""
    leaders = [i for i, lead in enumerate(pad.leaders) if lead]
    if not leaders:
        return gettext("Nobody is ahead: the totals are level.") if not pad.over else gettext("A draw.")
    names = listed([in_words(pad.labels[i]) for i in leaders])  # a side's name in the reader's words
    total = pad.totals[leaders[0]]
    others = [t for i, t in enumerate(pad.totals) if i not in leaders]
    if not others:
        return gettext("%(names)s, on %(total)s.", names=names, total=written(total))
    margin = written(min(abs(total - t) for t in others))
    if len(leaders) > 1:
        return gettext("%(names)s lead together on %(total)s, %(margin)s ahead of the rest.", names=names,
                       total=written(total), margin=margin)
    if pad.over:
        return gettext("%(name)s won on %(total)s, by %(margin)s.", name=names, total=written(total), margin=margin)
    return gettext("%(name)s leads on %(total)s, by %(margin)s.", name=names, total=written(total), margin=margin)


def running_chart(scored) -> tuple[Markup, list]:
    """The sheet's chart of the running totals with the game's bounds (sheets.running_chart): the
    players, or the sides in games played by sides; and its legend. Empty before the first round.

    Drawn 300 units wide with 12-unit labels: their font size is 12 px, and a 360 px phone, showing
    the chart about 328 px wide, draws them at 13 px (the sheet's 8.5 on 400 units would be 7 px there)."""
    svg, legend = sheets.running_chart(scored.as_json(), _entry().ROUND_NAME, width=300, height=190,
                                       font_size=12)
    return Markup(svg), legend  # noqa: S704 - chart.py escapes every name


def _etag(version: int) -> str:
    return f'{g.table.id}-{version}-{"e" if g.can_edit else "v"}{language.tag(g.language)}'


@bp.get("/<table_id>")
def show(table_id: str):
    log, hands, scored, version = _state()
    remember_table(g.table.id, g.key)
    links = {"view": url_for("tables.show", table_id=g.table.id, _external=True)}
    if g.can_edit:
        links["edit"] = url_for("tables.show", table_id=g.table.id, key=g.key, _external=True)
    previous = None
    if g.table.rematch_of:
        try:
            previous = tables.get_table(get_db(), g.table.rematch_of, known_tables())
        except tables.TableNotFound:
            previous = None
    back = url_for("tables.reopen", table_id=previous.id) if previous is not None else None
    return render_template("pages/table.html", table=g.table, previous=previous, back=back, scored=scored,
                           hands=hands, version=version,
                           board=render_board(scored, hands, version), links=links, action=ActionForm(),
                           can_undo=tables.undo_target(log) is not None,
                           undone=request.args.get("undone") == "1" and tables.redo_target(log) is not None,
                           device=device_label(), time_called=_time_called(), club=_club_link())


def _club_link() -> tuple[str, str | None] | None:
    """The club this table counts for: its name, and its page when this phone has opened it."""
    club_id = clubs.club_of_table(get_db(), g.table.id)
    if club_id is None:
        return None
    club = clubs.get_club(get_db(), club_id)
    key = next((k for c, k in session.get("clubs", []) if c == club_id), None)
    return club.name, url_for("clubs.show", club_id=club_id, key=key) if key else None


@bp.get("/<table_id>/open")
def reopen(table_id: str):
    """A table this phone opened before, with the edit key it had then (kept in the session).

    The pages that list such tables (the home page's recent tables, a rematch's link back) link
    here, so no page whose address holds no key holds an edit key: the service worker deletes the
    pages holding a table's key once no tab shows the table (docs/ops.md), and it finds them by
    their address.
    """
    kept = next((r[1] for r in session.get("recent", []) if r[0] == g.table.id), "") or ""
    mine = bool(kept) and secrets.compare_digest(kept.encode(), g.table.stored.edit_key.encode())
    return redirect(url_for("tables.show", table_id=g.table.id, key=kept if mine else None), 303)


@bp.get("/<table_id>/board")
def board(table_id: str):
    """The scoreboard alone, for phones that poll it; 304 when nothing changed.

    The version is the one this request read with the table (one query, not two), so the tag and
    the board it is sent with are always of one version: read again, a save landing in between
    gave a tag of the new version on the old board, and the phone kept the old board until the
    next change."""
    _, hands, scored, version = _state()
    etag = _etag(version)
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        response = Response(render_board(scored, hands, version))
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/<table_id>/qr/<which>.svg")
def qr(table_id: str, which: str):
    if which == "edit" and g.can_edit:
        target = url_for("tables.show", table_id=g.table.id, key=g.key, _external=True)
    elif which == "view":
        target = url_for("tables.show", table_id=g.table.id, _external=True)
    else:
        abort(404)
    buffer = io.BytesIO()
    segno.make(target, error="m").save(buffer, kind="svg", scale=5, border=2, dark="#111",
                                       light="#fff", xmldecl=False)
    response = Response(buffer.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=86400"
    return response


def _entry():
    return ENTRY[g.table.game]


def _before(hands, slot: int | None, scored):
    """The game as it stood before the round in ``slot`` (for a new round, the game so far): an edit
    is made against the table as it was then (a Royalty capture's target, who was still in)."""
    slots = [s for s, _ in hands]
    if slot is None or slot not in slots:
        return scored
    now = g.get("table_state")
    folds = now.folds if now is not None and now.hands is hands else ()
    try:
        if folds:  # the game folded up to the hand before it: no rescoring
            return games.finish(folds[slots.index(slot)])
        return tables.score_hands(g.table, hands[:slots.index(slot)])
    except InputError:
        return scored


def _time_called() -> dict | None:
    """The tournament round of this table, when its time was called (tournaments.store.time_called_on)."""
    if "time_called" not in g:
        g.time_called = tournament_store.time_called_on(get_db(), g.table.id)
    return g.time_called


def _render_form(form, slot=None, status=200, message=None, other_errors=(), scored=None, hands=None,
                 version=None, after_time=False):
    if scored is None:
        _, hands, scored, version = _state()
    number = len(hands) + 1 if slot is None else [s for s, _ in hands].index(slot) + 1
    # The form shows the game as it stood before its round (standings, stacks, the extra cards a
    # score buys): correcting hand 3 of 9 is done against the table after hand 2, not today's.
    # The board below it is today's.
    before = _before(hands, slot, scored)
    # A kept form keeps its entry key, so saving it again (or the phone's queue sending it) stores it once.
    entry_key = request.form.get("entry_key", "") if request.method == "POST" else ""
    return render_template(_entry().TEMPLATE, table=g.table, form=form, slot=slot, number=number,
                           field_title=_entry().field_title, before=before,
                           message=message, other_errors=list(other_errors), scored=before,
                           hands=hands, version=version, board=render_board(scored, hands, version),
                           action=ActionForm(), time_called=_time_called(), after_time=after_time,
                           entry_key=entry_key if tables.valid_entry_key(entry_key) else ""), status


def _kept_form_page(version: int, render: Callable[[], tuple[str, int]]) -> tuple[str, int]:
    """The new hand's form page, rendered once per table version, link, address and language and kept
    (the forms cache): every phone that opens the form at a version gets the same page but its CSRF
    token, put in as the board's is. Another phone's save makes a new version, so a kept page is never
    stale; a page with a message for this phone (a flash), or a tournament's called time, is rendered anew.
    """
    if kept_copies.has_page_messages():
        return render()
    key = (g.table.id, version, g.key or "", request.full_path, g.language, repr(_time_called()))
    cache = current_app.extensions["courtier.forms"]
    token = generate_csrf()
    page = cache.get(key)
    if page is None:
        html, status = render()
        if status != 200:
            return html, status
        page = html.replace(token, _CSRF_SLOT)
        cache.put(key, page)
    return page.replace(_CSRF_SLOT, token), 200


@bp.get("/<table_id>/hands/new")
@needs_edit_key
def new_hand(table_id: str):
    log, hands, scored, version = _state()
    if scored.over:
        flash(in_words(round_text("over", _entry().ROUND_NAME)))
        return see_other(table_url("tables.show"))

    def render() -> tuple[str, int]:
        form = _entry().round_form(g.table, base_version=version, previous=hands[-1][1] if hands else None,
                                   scored=scored)
        return _render_form(form, scored=scored, hands=hands, version=version)

    return _kept_form_page(version, render)


@bp.get("/<table_id>/hands/<int:slot>/edit")
@needs_edit_key
def edit_hand(table_id: str, slot: int):
    log, hands, scored, version = _state()
    data = dict(hands).get(slot)
    if data is None:
        abort(404, round_text("gone", _entry().ROUND_NAME))
    form = _entry().round_form(g.table, data=data, base_version=version, scored=_before(hands, slot, scored))
    return _render_form(form, slot=slot, scored=scored, hands=hands, version=version)


@bp.get("/<table_id>/hands/<int:slot>/why")
def why(table_id: str, slot: int):
    """One round's why as a page of its own; the table page loads it into an older round's card."""
    _, hands, scored, _ = _state()
    slots = [s for s, _ in hands]
    if slot not in slots:
        abort(404, round_text("gone", _entry().ROUND_NAME))
    n = slots.index(slot) + 1
    hand = hands[n - 1][1]
    return render_template("pages/why.html", table=g.table, r=scored.rounds[n - 1], hand=hand, n=n, slot=slot,
                           heading=_entry().round_heading(hand, n))


@bp.post("/<table_id>/hands")
@needs_edit_key
def add_hand(table_id: str):
    return _save(tables.Change("add"), None)


@bp.post("/<table_id>/hands/<int:slot>")
@needs_edit_key
def save_hand(table_id: str, slot: int):
    _require_live(slot)
    return _save(tables.Change("edit", slot), slot)


def _require_live(slot: int) -> None:
    """404 for a hand slot that is not in play (never entered, deleted or undone)."""
    _, hands, _, _ = _state()
    if slot not in dict(hands):
        abort(404, round_text("gone", _entry().ROUND_NAME))


def _base_version(form) -> int | None:
    try:
        return int(form.base_version.data)
    except (TypeError, ValueError):
        return None


#: Sent by the phone's script when it sends a save it had to keep while offline: the answer is
#: then 204 with the stored version (X-Courtier-Version) instead of a redirect to the board.
QUEUED_HEADER = "X-Courtier-Queued"


def _entry_key() -> str | None:
    """The save's entry key (static/js/app.js adds one to every entry form it sends), or None."""
    key = request.form.get("entry_key", "")
    if not key:
        return None
    if not tables.valid_entry_key(key):
        abort(400, say("This form was damaged on its way here. Go back, reload the page and enter the hand again."))
    return key


def _stored(seq: int, message: str, news: str | None = None):
    """The answer to a save that is in the log: the board, or for a queued send its version."""
    if request.headers.get(QUEUED_HEADER):
        response = current_app.response_class(status=204)
        response.headers["X-Courtier-Version"] = str(seq)
        return response
    flash(in_words(message))
    if news:
        flash(news)
    return see_other(table_url("tables.show") + "#board")


def _totals(scored) -> dict[str, int]:
    """The totals the score pad shows: each side's in a game played by sides, else each player's."""
    if scored.sides and scored.side_totals is not None:
        word = scorepad.SIDE_WORD.get(scored.game, "Side")
        return {f"{word} {side}": scored.side_totals.get(side, 0) for side in scored.sides}
    return dict(scored.totals)


def totals_news(before, after) -> str | None:
    """The totals a change moved, in words, for the page's flash and its live region (a screen reader
    hears them once): "Totals: Ann 120 (+40), Ben 80 (−10)."; None when none moved."""
    then, now = _totals(before), _totals(after)
    moved = [gettext("%(name)s %(total)s (%(change)s)", name=name, total=written(total),
                     change=("+" if total - then.get(name, 0) > 0 else "") + written(total - then.get(name, 0)))
             for name, total in now.items() if total != then.get(name, 0)]
    return gettext("Totals: %(moved)s.", moved=", ".join(moved)) if moved else None


def _save(change: tables.Change, slot: int | None):
    entry = _entry()
    entry_key = _entry_key()
    if entry_key is not None and (seq := tables.stored_seq(get_db(), g.table.id, entry_key)) is not None:
        return _stored(seq, round_text("already", entry.ROUND_NAME))
    _, hands, scored_before, _ = _state()
    form = entry.round_form(g.table, formdata=request.form, scored=_before(hands, slot, scored_before))
    extra_checks = getattr(entry, "validate_extra", lambda form: True)
    if not form.validate() & extra_checks(form):
        other = _engine_problems_too(form, slot)
        return _render_form(form, slot=slot, status=422, other_errors=other,
                            message=say("Some fields need a look: see the messages next to them."))
    if _time_called() and request.form.get("after_time") != "yes":
        return _ask_after_time(form, slot)
    data = entry.round_from(form, g.table)
    base = _base_version(form)
    try:
        seq, scored = tables.append(get_db(), g.table, base, tables.Change(change.kind, change.slot, data),
                                    device=device_label(), cache=states(), entry_key=entry_key,
                                    typed_at=tables.typed_at(request.form.get("typed_at")))
    except tables.AlreadyStored as stored:
        return _stored(stored.seq, round_text("already", entry.ROUND_NAME))
    except tables.StaleVersion as stale:
        g.pop("table_state", None)  # the scores shown with the form are the current ones
        if slot is None:
            _follow_the_table(form, base)
        form.base_version.data = str(stale.current)
        return _render_form(
            form, slot=slot, status=409,
            message=say("Another phone changed this table while you were typing. The scores below are "
                        "the current ones; your entry is kept in the form. Check it and save again."))
    except InputError as err:
        if slot is not None:
            _require_live(slot)  # another phone deleted it while this form was open
        return _render_form(form, slot=slot, status=422,
                            message=round_text("unscorable", _entry().ROUND_NAME),
                            other_errors=_attach(err, form, slot))
    noun = _entry().ROUND_NAME
    done = round_text("saved" if change.kind == "add" else "corrected", noun)
    news = totals_news(scored_before, scored)
    if _time_called() and not request.headers.get(QUEUED_HEADER):
        flash(in_words(round_text("after_time", noun)))
    if scored.over and not request.headers.get(QUEUED_HEADER):
        flash(in_words(done))
        if news:
            flash(news)
        flash(in_words(say("Game over: {reason}", reason=scored.reason)))
        return see_other(table_url("tables.show") + "#board")
    return _stored(seq, done, news)


def _new_round_form(table, hands, scored):
    """The form a new round opens with at this state of the table: its defaults (the dealer, whose
    turn it is, who is out, each player's House) come from the hands so far."""
    return _entry().round_form(table, previous=hands[-1][1] if hands else None, scored=scored)


def _follow_the_table(form, base: int | None) -> None:
    """A kept form brought up to date after a clash: each value the table had chosen for it (the
    dealer, RK-10 and RM-3; whose turn, RY-9; who is out, IR-9; the Houses, AR-7) and that the player
    left as it was becomes what the table chooses now; every value the player typed stays."""
    log, hands, scored, _ = _state()
    then_log = [e for e in log if base is not None and e.seq <= base]
    if base is None or len(then_log) == len(log):
        return
    then_table, then_hands = tables.seating(g.table, then_log)
    try:
        then = _new_round_form(then_table, then_hands, tables.score_hands(then_table, then_hands))
    except InputError:  # every stored version scores; a table that no longer does keeps the form as sent
        return
    now = _new_round_form(g.table, hands, scored)
    for name, field in form._fields.items():
        if name in ("csrf_token", "base_version") or name not in then._fields or name not in now._fields:
            continue
        chosen_then, chosen_now = then[name].data, now[name].data
        if chosen_then != chosen_now and field.data == chosen_then:
            field.data = chosen_now
            field.raw_data = []  # shown from its data, not from what was posted


#: Why a save was not stored, for the phone's queue (static/js/offline.js) when the status alone is not enough.
REFUSED_HEADER = "X-Courtier-Refused"


def _ask_after_time(form, slot: int | None):
    """Time was called on this table's tournament round: a round saved now no longer counts there, so
    the form comes back (409) with the input kept and asks once more; saving it again stores it."""
    called = _time_called()
    message = round_text("will_not_count", _entry().ROUND_NAME, round=called["round"], title=called["title"])
    body, status = _render_form(form, slot=slot, status=409, message=message, after_time=True)
    response = current_app.make_response((body, status))
    response.headers[REFUSED_HEADER] = "time-called"
    return response


def _engine_problems_too(form, slot: int | None) -> list[str]:
    """Every problem at once: the game's own checks run on what the form could read, and each
    problem lands beside a field that has no message yet (the form's own message stays first)."""
    entry = _entry()
    flagged = {f.short_name for f in form if f.errors}
    for f in form:  # what the form could not read goes to the game as if blank
        if f.short_name in flagged and f.type in ("CountField", "IntegerField"):
            f.data = None
    try:
        data = entry.round_from(form, g.table)
    except Exception:  # noqa: BLE001 - a form too broken to build: its own messages are all there is
        return []
    _, hands, _, _ = _state()
    trial = [*hands, (None, data)] if slot is None else [(s, data if s == slot else d) for s, d in hands]
    try:
        tables.score_hands(g.table, trial)
    except InputError as err:
        problems = InputError([p for p in err.problems
                               if _field_of(p.where, form, slot) not in flagged])
        return _attach(problems, form, slot)
    return []


def _field_of(where: str, form, slot: int | None) -> str | None:
    _, rest = split_where(where)
    return _entry().field_for(rest, g.table, form)


def _attach(err: InputError, form, slot: int | None) -> list[str]:
    """Put each engine problem next to its field; return the ones about other hands."""
    _, hands, _, _ = _state()
    slots = [s for s, _ in hands]
    this_index = len(slots) if slot is None else slots.index(slot)
    other = []
    for problem in err.problems:
        index, rest = split_where(problem.where)
        name = _entry().field_for(rest, g.table, form) if index == this_index else None
        if name:
            form[name].errors = [*form[name].errors, problem.message]
        elif index is not None and index != this_index:
            other.append(round_text("no_longer", _entry().ROUND_NAME, number=index + 1, problem=problem.message))
        else:
            other.append(problem.message)
    return other


@bp.post("/<table_id>/hands/<int:slot>/delete")
@needs_edit_key
def delete_hand(table_id: str, slot: int):
    _require_live(slot)
    return _simple_change(tables.Change("delete", slot),
                          round_text("deleted", _entry().ROUND_NAME))


@bp.post("/<table_id>/undo")
@needs_edit_key
def undo(table_id: str):
    """Undo asks nothing: the page after it offers Redo for a while ("Undone — Redo")."""
    return _simple_change(tables.Change("undo"), None, then={"undone": 1})


@bp.post("/<table_id>/redo")
@needs_edit_key
def redo(table_id: str):
    return _simple_change(tables.Change("redo"), say("Redone."))


def _simple_change(change: tables.Change, done: str | None, then: dict | None = None):
    form = ActionForm()
    if not form.validate():
        abort(400, EXPIRED)
    before = _state()[2]
    try:
        _, after = tables.append(get_db(), g.table, _base_version_from(request.form), change, device=device_label(),
                                 cache=states())
    except tables.StaleVersion:
        flash(in_words(say("Another phone changed this table a moment ago; nothing was changed. Check the scores and "
                         "try again.")))
    except tables.NothingToUndo:
        flash(in_words(say("There is nothing left to redo.") if change.kind == "redo"
                     else say("There is nothing left to undo.")))
    except InputError as err:
        flash(in_words(say("That would leave the game unscorable: {problems}",
                           problems=Joined([p.message for p in err.problems], "; "))))
    else:
        if done:
            flash(in_words(done))
        if news := totals_news(before, after):
            flash(news)
        return see_other(table_url("tables.show", **(then or {})) + "#top")
    return see_other(table_url("tables.show") + "#top")


def _base_version_from(formdata) -> int | None:
    try:
        return int(formdata.get("base_version", ""))
    except ValueError:
        return None


@bp.post("/<table_id>/rematch")
def rematch(table_id: str):
    """A new table: the same players, seats rotated as the deal passes, the same options.

    Any link may ask for it (a rematch changes nothing here); the new table's edit link
    goes to the phone that asked.
    """
    if not ActionForm().validate():
        abort(400, EXPIRED)
    try:
        new = table_actions.rematch(get_db(), g.table, device=device_label(), for_club=g.can_edit)
    except InputError as err:  # a name kept before the name rule: mended on the Players page first
        abort(422, say("No rematch yet: {problem}. Correct it on the Players page (its edit link), then start the "
                       "rematch.", problem=err.problems[0].message))
    remember_table(new.id, new.edit_key)
    flash(in_words(say("Rematch: a new table, the same players; {player} sits in the first seat.",
                     player=new.players[0])))
    return see_other(url_for("tables.show", table_id=new.id, key=new.edit_key))


def _players_page(forms=None, seat_form=None, status=200):
    _, hands, scored, version = _state()
    forms = forms or {}
    rename_forms = []
    for i, name in enumerate(g.table.players):
        form = forms.get(i) or NameForm(prefix=f"p{i}", formdata=None, data={"name": name})
        form.base_version.data = str(version)
        form.name.label.text = lazy_gettext("Seat %(number)s", number=i + 1)
        rename_forms.append((i, name, form))
    refused = tables.late_refusal(g.table, scored)
    if seat_form is None and not refused:
        seat_form = NameForm(prefix="late", formdata=None)
    if seat_form is not None:
        seat_form.base_version.data = str(version)
        seat_form.name.label.text = lazy_gettext("Name of the player joining")
    noun = _entry().ROUND_NAME
    return render_template("pages/players.html", table=g.table, forms=rename_forms, seat_form=seat_form,
                           refused=in_words(refused) if refused else refused, next_number=len(hands) + 1, noun=noun,
                           late_rule=getattr(g.table.engine, "late_rule", lambda options: "")(
                               games.options_with_defaults(g.table.game, g.table.options))), status


@bp.get("/<table_id>/players")
@needs_edit_key
def players(table_id: str):
    """Correct a player's name, or seat a player who arrives late (where the game allows it)."""
    return _players_page()


@bp.post("/<table_id>/players/<int:seat>")
@needs_edit_key
def rename_player(table_id: str, seat: int):
    if not 0 <= seat < len(g.table.players):
        abort(404, say("There is no such seat at this table."))
    form = NameForm(prefix=f"p{seat}")
    if not form.validate():
        abort(400, FORM_EXPIRED)
    old = g.table.players[seat]
    try:
        tables.rename(get_db(), g.table, _base_version(form), old, form.name.data or "", device=device_label(),
                      cache=states())
    except tables.StaleVersion:
        form.name.errors = [say("Another phone changed this table a moment ago. Check the names and save again.")]
        return _players_page(forms={seat: form}, status=409)
    except InputError as err:
        form.name.errors = [_as_sentence(p.message) for p in err.problems]
        return _players_page(forms={seat: form}, status=422)
    flash(in_words(say("{old} is now called {new}. The history keeps the old name.", old=old,
                     new=form.name.data.strip())))
    return see_other(table_url("tables.show") + "#board")


@bp.post("/<table_id>/players/late")
@needs_edit_key
def seat_player(table_id: str):
    form = NameForm(prefix="late")
    if not form.validate():
        abort(400, FORM_EXPIRED)
    _, hands, scored, _ = _state()
    try:
        tables.seat(get_db(), g.table, _base_version(form), form.name.data or "", scored, device=device_label(),
                    cache=states())
    except tables.StaleVersion:
        form.name.errors = [say("Another phone changed this table a moment ago. Check and save again.")]
        return _players_page(seat_form=form, status=409)
    except InputError as err:
        form.name.errors = [_as_sentence(p.message) for p in err.problems]
        return _players_page(seat_form=form, status=422)
    flash(in_words(round_text("joins", _entry().ROUND_NAME, name=form.name.data.strip(), number=len(hands) + 1)))
    return see_other(table_url("tables.show") + "#board")


def _as_sentence(message: str) -> str:
    """A problem said as a sentence of its own, in the reader's language: a capital and a full stop."""
    said = in_words(message)
    return said[:1].upper() + said[1:] + "."


@bp.get("/<table_id>/history")
def history(table_id: str):
    """A page of the table's changes, newest first (``?before=<change>`` for older ones): a long game with
    long notes and judge's logs is read a page at a time, each a bounded size."""
    before = request.args.get("before", type=int)
    if before is not None and before < 1:
        abort(404, say("There is no such page of this table's history."))
    db = get_db()
    kept = states().get((g.table.id, tables.version(db, g.table.id)))  # the log as the board last read it
    log = list(kept.log) if kept is not None else tables.events(db, g.table.id)
    page = history_words.page(log, before)
    told = table_actions.history_lines(g.table, log, shown={e.seq for e in page.events})
    return render_template("pages/history.html", table=g.table, lines=list(reversed(told)), page=page,
                           changes=len(log))


@bp.get("/<table_id>/export.json")
def export_json(table_id: str):
    _, hands, _, _ = _state()
    body = tables.request_for(g.table, [data for _, data in hands])
    body["title"] = g.table.title
    response = Response(json.dumps(body, indent=2, ensure_ascii=False), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="courtier-{g.table.id}.json"'
    return response


@bp.get("/<table_id>/export.csv")
def export_csv(table_id: str):
    """Each round's points and running totals per player, then per side where the game is played by
    sides (Alliance Royals' Alliances, AR-11; Royalty's coalitions, RY-14), as the pad shows them."""
    _, _, scored, _ = _state()
    out = io.StringIO()
    writer = csv.writer(out)
    players = list(g.table.players)
    sides = scored.sides or {}
    side_names = [f"{scorepad.SIDE_WORD.get(g.table.game, 'Side')} {s} ({' & '.join(sides[s])})" for s in sides]
    text = spreadsheet_text
    writer.writerow(["round", *[text(p) for p in players], *[text(f"{p} total") for p in players],
                     *[text(n) for n in side_names], *[text(f"{n} total") for n in side_names]])
    running = dict.fromkeys(players, 0)
    side_running = dict.fromkeys(sides, 0)
    for number, scored_round in enumerate(scored.rounds, 1):
        kept = scored_round.detail.get("totals")  # chips held, for the games that keep them (IR-10, RM-7)
        for p in players:
            running[p] = kept[p] if isinstance(kept, dict) and p in kept else running[p] + scored_round.points[p]
        side_points = [(scored_round.side_points or {}).get(s, 0) for s in sides]
        for s, points in zip(sides, side_points, strict=True):
            side_running[s] += points
        writer.writerow([number, *[scored_round.points[p] for p in players], *[running[p] for p in players],
                         *side_points, *side_running.values()])
    writer.writerow(["total", *[scored.totals[p] for p in players], *["" for _ in players],
                     *[(scored.side_totals or {}).get(s, "") for s in sides], *["" for _ in sides]])
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="courtier-{g.table.id}.csv"'
    return response
