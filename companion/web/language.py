"""The reader's language: a phone's own choice, else its browser's, else English.

A phone chooses with the language buttons at the foot of every page (a cookie, remembered on that
phone); without a choice its ``Accept-Language`` decides among the languages offered, and English
when none matches. The choice is made once a request, from the request alone (no database), so
that the board refresh answered before Flask (board_poll) and the views agree on it.

Which languages are offered is the ``LANGUAGES`` setting (codes separated by spaces, English
always among them): a language is offered once its catalog holds every message. The rest of the
request says everything in that language (``core.messages.language``): the templates' ``_()``
through Flask-Babel, the engines' :class:`~companion.core.messages.Text` where a page shows it.
Whatever is kept by version (a board, a sheet) is kept by version and language, and its tag says
the language, so a phone that changes language never gets a 304 for the other one's page.
"""

from __future__ import annotations

from collections.abc import Mapping
from http.cookies import CookieError, SimpleCookie
from typing import Any

from flask import Flask, g, request
from flask_babel import Babel, Domain
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from ..core import messages

#: The cookie a phone's choice is kept in, for a year.
COOKIE = "courtier-language"
COOKIE_SECONDS = 365 * 24 * 3600
#: Each language's name in its own words, for the chooser.
NAMES = {"en": "English", "fr": "Français", "hi": "हिन्दी", messages.PSEUDO: "Ƥšéûðô"}
_OFFERED = "courtier.languages"
#: How much of an ``Accept-Language`` is read: a browser sends a few tags in a few dozen bytes; a header of
#: 250 KB would otherwise be parsed whole on every request, /healthz and static files included.
ACCEPT_LANGUAGE_BYTES = 500
ACCEPT_LANGUAGE_ENTRIES = 20


def offered(app: Flask) -> tuple[str, ...]:
    """The languages a phone may read Courtier in, English first."""
    return app.extensions[_OFFERED]


def chosen(environ: Mapping[str, Any], languages: tuple[str, ...]) -> str:
    """The language of a request, from its cookie or its ``Accept-Language`` (WSGI environ alone)."""
    if len(languages) == 1:
        return languages[0]
    kept = _cookie(environ.get("HTTP_COOKIE", ""))
    if kept in languages:
        return kept
    accepted = parse_accept_header(accept_language_read(environ.get("HTTP_ACCEPT_LANGUAGE")), LanguageAccept)
    return accepted.best_match(languages, default=messages.ENGLISH) or messages.ENGLISH


def accept_language_read(header: str | None) -> str | None:
    """The part of an ``Accept-Language`` that is parsed: its first ACCEPT_LANGUAGE_BYTES bytes, up to the
    last whole entry in them, and at most ACCEPT_LANGUAGE_ENTRIES entries.

    >>> accept_language_read("fr-CH, fr;q=0.9, en;q=0.8")
    'fr-CH, fr;q=0.9, en;q=0.8'
    >>> accept_language_read(",".join(["hi"] * 30)).count("hi"), len(accept_language_read("x" * 600 + ",fr"))
    (20, 0)
    """
    if not header or len(header) <= ACCEPT_LANGUAGE_BYTES and header.count(",") < ACCEPT_LANGUAGE_ENTRIES:
        return header
    kept = header[:ACCEPT_LANGUAGE_BYTES]
    if len(header) > ACCEPT_LANGUAGE_BYTES:
        kept = kept.rpartition(",")[0]  # an entry cut in two is left out, not read as another tag
    return ",".join(kept.split(",")[:ACCEPT_LANGUAGE_ENTRIES])


def _cookie(header: str) -> str | None:
    if COOKIE not in header:  # most requests: no parsing at all
        return None
    if len(header) > 4096:  # more than a browser sends: only the choice's own cookie is read
        header = header[header.find(COOKIE):][:64]
    try:
        morsel = SimpleCookie(header).get(COOKIE)
    except CookieError:
        return None
    return morsel.value if morsel is not None else None


def tag(language: str) -> str:
    """What a version's tag adds for a language: nothing for English (the tags as they always were)."""
    return "" if language == messages.ENGLISH else f"-{language}"


class _Catalogs(Domain):
    """Flask-Babel's domain answering from Courtier's catalogs, the test-only pseudo-language among them."""

    def get_translations(self):
        return messages.catalog(messages.language())


def _languages_setting(app: Flask) -> tuple[str, ...]:
    asked = app.config.get("LANGUAGES") or " ".join(messages.LANGUAGES)
    codes = asked.split() if isinstance(asked, str) else list(asked)
    known = (*messages.LANGUAGES, messages.PSEUDO)
    unknown = [code for code in codes if code not in known]
    if unknown:
        raise ValueError(f"LANGUAGES: {', '.join(unknown)} is not a language Courtier has "
                         f"(it has {', '.join(messages.LANGUAGES)})")
    return (messages.ENGLISH, *dict.fromkeys(code for code in codes if code != messages.ENGLISH))


class _Babel(Babel):
    @property
    def domain_instance(self) -> Domain:
        return _CATALOGS


_CATALOGS = _Catalogs(translation_directories=str(messages.TRANSLATIONS), domain=messages.DOMAIN)


def init_app(app: Flask) -> None:
    app.extensions[_OFFERED] = _languages_setting(app)
    _Babel(app, locale_selector=messages.language, default_domain=messages.DOMAIN,
           default_translation_directories=str(messages.TRANSLATIONS))
    # The templates' _() and ngettext() read the catalog of the reader's language at once, as the sheets' do
    # (what Flask-Babel's domain answers, _Catalogs), rather than finding the domain through the request
    # for each of a page's sixty messages.
    messages.install_gettext(app.jinja_env)
    from . import rounds, script_words

    app.jinja_env.globals.update(round_says=rounds.round_says, script_words=script_words.words)
    app.jinja_env.filters["listed"] = messages.per_reader(rounds.names_joined)

    # Before the blueprints' own address readers (a table's, a club's), which may refuse the request
    # (no such table): their error page is said in the reader's language too. The app's own readers run
    # first, and every request sets its language, so none is left over from the thread's last request.
    @app.url_value_preprocessor
    def _speak(endpoint: str | None, values: dict[str, Any] | None) -> None:
        g.language = chosen(request.environ, offered(app))
        messages.set_language(g.language)

    @app.context_processor
    def _chooser() -> dict[str, Any]:
        languages = offered(app)
        return {"current_language": messages.language(),
                "languages": [(code, NAMES[code]) for code in languages] if len(languages) > 1 else []}
