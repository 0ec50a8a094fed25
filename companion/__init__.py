"""Courtier: the scoring companion and referee for card games at a real table."""

from __future__ import annotations

import gc
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

from .core import config
from .web.routing import SharedBuilderRule


def _instance_secret_key(instance: Path) -> str:
    """Generate SECRET_KEY once and keep it under instance/, so sessions survive restarts."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def _number_filters(app: Flask) -> None:
    """Numbers on every screen read as on the sheets: a true minus sign (U+2212), a round's points
    signed (+5, 0, −30), a total plain, a rating to one decimal (−1.2, never −0.0); counts in words
    ("1 table", "3 tables"); a printed name's Thai (Lao, Khmer, Myanmar) words kept whole."""
    from .core.messages import per_reader
    from .core.wording import counted
    from .entry.forms import count_field, error_ids
    from .paper.sheets import decimal, number, signed, unbroken

    app.jinja_env.globals["error_ids"] = error_ids  # each of a field's problems its own id (aria-describedby)
    app.jinja_env.globals["count"] = count_field  # a count's box, its buttons and its problems
    app.jinja_env.filters.update({name: per_reader(fn) for name, fn in (
        ("num", number), ("signed", signed), ("counted", counted), ("decimal", decimal), ("unbroken", unbroken))})


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The application factory: configuration, database, blueprints, security headers."""
    app = Flask(__name__, instance_relative_config=True,
                static_folder=str(config.STATIC_DIR), template_folder=str(config.TEMPLATES_DIR))
    app.url_rule_class = SharedBuilderRule
    _configure(app, test_config)
    _number_filters(app)

    # First imported here, once the configuration is read, and in this order (the views before the web's
    # layers), as always; each step below names again the modules it uses.
    from .core import limits  # noqa: F401
    from .core.recent import Recent, start_sweeping  # noqa: F401
    from .storage import db  # noqa: F401
    from .storage.tables import StateCache  # noqa: F401
    from .views import api, club_api, clubs, health, main, referee, sheets, table_api, tables, tournaments  # noqa: F401
    from .web import board_poll, compression, heavy, kept_copies, metrics, security  # noqa: F401

    _open_stores(app)
    _wrap_answers(app)
    _register_views(app)
    return app


def _configure(app: Flask, test_config: dict[str, Any] | None) -> None:
    """The defaults, then instance/config.py and COURTIER_* (or the tests' own), then a kept SECRET_KEY."""
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE=str(instance / "courtier.sqlite"),
        MAX_CONTENT_LENGTH=1024 * 1024,
        WTF_CSRF_TIME_LIMIT=None,  # a table stays open all evening
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        JSON_SORT_KEYS=False,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env("COURTIER")
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret_key(instance)
    app.json.sort_keys = False
    app.json.ensure_ascii = False


def _open_stores(app: Flask) -> None:
    """The limits, the database, the pool for heavy work, and the caches in memory."""
    from .core import limits
    from .core.recent import Recent, start_sweeping
    from .storage import db
    from .storage.tables import StateCache
    from .web import heavy

    for name, default in limits.DEFAULTS.items():
        app.config.setdefault(name, default)
    limits.configure(app.config)
    db.init_app(app)
    heavy.init_app(app)
    # The caches share CACHE_BYTES: scored tables half, sheets a quarter, boards an eighth, hand forms a
    # sixteenth, tables a little.
    budget = limits.get("CACHE_BYTES")
    # Tables by id: a table's row never changes (tables.version checks it is still there, each request).
    app.extensions["courtier.tables"] = Recent(4096, budget // 32)
    app.extensions["courtier.states"] = StateCache(512, budget // 2)
    app.extensions["courtier.boards"] = Recent(256, budget // 8)  # rendered scoreboards: views.tables.render_board
    app.extensions["courtier.sheets"] = Recent(256, budget // 4)  # score sheets by table, version and paper
    app.extensions["courtier.forms"] = Recent(256, budget // 16)  # new hands' form pages: views.tables.new_hand
    start_sweeping(lambda: limits.get("CACHE_IDLE_SECONDS"))  # a table no longer played gives its memory back


def _wrap_answers(app: Flask) -> None:
    """What every answer passes through, in this order: compression, security headers, the reader's
    language, the session (which a kept copy leaves alone), the board poll, the proxies, the metrics."""
    from .web import board_poll, compression, kept_copies, language, metrics, security

    compression.init_app(app)  # first: its after_request runs last, on the finished answer
    security.init_app(app)
    language.init_app(app)
    kept_copies.init_app(app)  # a copy a phone keeps for later neither takes nor sets the session's messages
    board_poll.init_app(app)  # an unchanged board's 304 without Flask: most of an evening's requests
    if app.config.get("TRUSTED_PROXIES"):  # behind N proxies: the phone's address is the proxies' X-Forwarded-For
        from werkzeug.middleware.proxy_fix import ProxyFix

        hops = int(app.config["TRUSTED_PROXIES"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
    metrics.init_app(app)  # after every other layer of the app is in place: it counts what they answer


def _register_views(app: Flask) -> None:
    """The blueprints; the JSON calls exempt from CSRF; the creations counted against CREATE_RATE."""
    from .views import api, club_api, clubs, health, main, referee, sheets, table_api, tables, tournaments
    from .web import security

    app.register_blueprint(main.bp)
    app.register_blueprint(tables.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(tournaments.bp)
    app.register_blueprint(sheets.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(health.bp)
    app.register_blueprint(table_api.bp)
    app.register_blueprint(clubs.bp)
    app.register_blueprint(club_api.bp)
    security.csrf.exempt(api.bp)
    security.csrf.exempt(table_api.bp)  # keys in a header, never a cookie: no CSRF to guard against
    security.csrf.exempt(club_api.bp)
    security.limit_creation(app, ["main.new_table", "main.import_table", "tournaments.new", "tables.rematch",
                                  "table_api.create", "clubs.new", "clubs.import_club", "club_api.create"])


def freeze_startup_objects() -> None:
    """Leave what a server built at its start (the modules, the app, its compiled templates) out of
    the garbage collector's passes from now on.

    None of it is ever garbage, yet each full pass walked all of it: 90 to 110 ms a pass, during
    which every thread of the process waits, the slowest requests of an evening (docs/measurements.md,
    *Pauses*). Called once the templates are compiled; under gunicorn --preload before the workers
    fork, so their pages of memory also stay shared (a pass no longer writes to every object).
    """
    gc.collect()
    gc.freeze()


def compile_templates(app: Flask) -> None:
    """Compile every template before the first request (the servers call this at start): compiling
    them was nearly all of the first page a process served, 60-70 ms for a table page."""
    for name in app.jinja_env.list_templates():
        app.jinja_env.get_template(name)
