"""Security headers, CSRF protection and the error pages that never show a traceback."""

from __future__ import annotations

from flask import Flask, Response, render_template, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import HTTPException

from ..core import limits
from ..core.config import CONTENT_SECURITY_POLICY
from ..core.messages import Text, render, say
from ..paper.long_sheets import SheetTooLong
from ..storage import bounds, db
from .heavy import Busy

csrf = CSRFProtect()

#: Where a board refresh answered before Flask (board_poll) leaves the error of a database not answering.
DATABASE_UNAVAILABLE = "courtier.database_unavailable"
#: What a player reads while the database does not answer.
UNAVAILABLE = say("The scores are safe; Courtier cannot reach its database right now. Try again in a moment.")
#: The titles of the HTTP refusals a person may meet, in words (werkzeug names them in English).
TITLES = {"Bad Request": say("Bad Request"), "Forbidden": say("Forbidden"), "Not Found": say("Not Found"),
          "Method Not Allowed": say("Method Not Allowed"), "Conflict": say("Conflict"), "Gone": say("Gone"),
          "Request Entity Too Large": say("Request Entity Too Large"),
          "Unprocessable Entity": say("Unprocessable Entity"), "Too Many Requests": say("Too Many Requests"),
          "Internal Server Error": say("Internal Server Error"), "Service Unavailable": say("Service Unavailable"),
          # werkzeug's own words for the refusals a person meets without a message of Courtier's
          "The browser (or proxy) sent a request that this server could not understand.":
              say("The browser (or proxy) sent a request that this server could not understand."),
          "The requested URL was not found on the server. If you entered the URL manually please check your "
          "spelling and try again.":
              say("The requested URL was not found on the server. If you entered the URL manually please check "
                  "your spelling and try again."),
          "The method is not allowed for the requested URL.": say("The method is not allowed for the requested URL.")}


UNEXPECTED = say("Courtier hit an unexpected problem. Nothing you entered before was lost.")
#: What a refusal says when its view gave no words of its own (werkzeug's defaults speak of servers and URLs).
DESCRIPTIONS = {
    403: say("This address does not let you do that. An edit needs the table's edit link."),
    409: say("Something changed at the same time. Reload the page and try again."),
    410: say("This is no longer here."),
    422: say("What was sent could not be used. Check what was entered and send it again."),
    429: say("Too many requests at once. Wait a moment and try again."),
    500: UNEXPECTED,
    503: say("Courtier is busy right now. Try again in a moment."),
}


def _description(error: HTTPException) -> str | Text:
    """A refusal's words: its view's own, else Courtier's for its status, else werkzeug's said in the
    reader's language."""
    own = error.description is not None and error.description != type(error).description
    if not own and error.code in DESCRIPTIONS:
        return DESCRIPTIONS[error.code]
    return _said(error.description or error.name)


def _said(text: str) -> str | Text:
    """An error's words for a person: werkzeug's own English for a refusal that gave none of its own said
    in the reader's language too."""
    if isinstance(text, Text):
        return text
    return TITLES.get(text, text)


def wants_json() -> bool:
    """Only a program gets its error as JSON: a request to /api/, or one whose Accept names JSON
    itself, at least as high as HTML. A page asked for by a page -- an htmx request (HX-Request),
    or a browser's form with ``Accept: */*`` -- gets a page in words."""
    if request.headers.get("HX-Request") == "true":
        return False
    if request.path.startswith("/api/"):
        return True
    accept = request.accept_mimetypes
    named_json = max((q for value, q in accept if value == "application/json" or value.endswith("+json")),
                     default=0)
    return named_json > 0 and named_json >= accept["text/html"]


def _error_response(status: int, title: str | Text, message: str | Text) -> tuple[object, int]:
    if wants_json():
        return {"errors": [{"where": "$", "message": render(message)}]}, status
    if request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true":
        # htmx swaps this beside a field (a live check), not as the whole page
        return render_template("fragments/error.html", title=title, message=message), status
    return render_template("pages/error.html", title=title, message=message, status=status), status


def limit_creation(app: Flask, endpoints: list[str]) -> None:
    """New tables, imports, tournaments and rematches: at most CREATE_RATE per client address, all of them
    counted together, in the database every worker and server shares (companion.storage.ratelimit) unless
    RATELIMIT_STORAGE_URI names another store (Redis, memcached)."""
    from ..storage import ratelimit
    from ..storage.db import pool

    app.config.setdefault("RATELIMIT_STORAGE_URI", "courtier://")
    if app.config["RATELIMIT_STORAGE_URI"].split("://")[0] in ratelimit.DatabaseStorage.STORAGE_SCHEME:
        app.config["RATELIMIT_STORAGE_OPTIONS"] = {"pool": pool(app)}
    limiter = Limiter(get_remote_address, app=app)
    # The limits are the creations' own (the decorator below checks them when one of those views runs),
    # so the limiter's check before every request finds nothing to do: a sixth of a board poll's time
    # (0.1 to 0.2 ms of 0.8). It is taken out; every creation is still counted, in its view.
    before = app.before_request_funcs.get(None, [])
    before[:] = [hook for hook in before if getattr(hook, "__self__", None) is not limiter]
    app.extensions["courtier.limiter"] = limiter
    creations = limiter.shared_limit(lambda: limits.get("CREATE_RATE"), scope="create", methods=["POST"])
    for endpoint in endpoints:
        app.view_functions[endpoint] = creations(app.view_functions[endpoint])


def cache_control(response: Response) -> str:
    """How an answer may be kept, unless its view said. A page is ``private, no-cache``: never in a shared
    cache, checked again before it is shown, and kept whole by the phone's back/forward cache, so the back
    button shows it at once. An edit link's page too: its key is in the page's own address, which the phone
    keeps anyway (its history, the home page's recent tables). A redirect that hands out a key
    (``/t/<id>/open``, a new table, a rematch) is ``no-store``: there is nothing in it worth keeping.
    """
    return "no-store" if "key=" in response.headers.get("Location", "") else "private, no-cache"


#: Headers every answer carries unless its view set its own (board_poll.py sends them as they are).
DEFAULT_HEADERS = {"Content-Security-Policy": CONTENT_SECURITY_POLICY, "Cross-Origin-Opener-Policy": "same-origin"}
#: Headers every answer carries as they are. Edit keys live in links: never send a page address to another site.
FIXED_HEADERS = {"Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"}


def init_app(app: Flask) -> None:
    csrf.init_app(app)
    _answer_overload(app)
    _answer_database_unavailable(app)
    app.after_request(security_headers)
    _answer_refusals(app)


def _answer_overload(app: Flask) -> None:
    """Too many new tables, a sheet too long to print, the heavy pool full: each refused in words."""

    @app.errorhandler(RateLimitExceeded)
    def too_many(error: RateLimitExceeded):
        body, status = _error_response(
            429, say("Too many at once"),
            say("This phone has made many new tables in a short time. Wait a minute and try again."))
        response = app.make_response((body, status))
        response.headers["Retry-After"] = "60"
        return response

    @app.errorhandler(bounds.TooManyChanges)
    def too_many_changes(error: bounds.TooManyChanges):
        body, status = _error_response(429, say("Too many at once"), error.message)
        response = app.make_response((body, status))
        response.headers["Retry-After"] = "60"
        return response

    @app.errorhandler(bounds.TableFull)
    def table_full(error: bounds.TableFull):
        return _error_response(413, say("This table is full"), error.message)

    @app.errorhandler(SheetTooLong)
    def too_long_to_print(error: SheetTooLong):
        return _error_response(413, say("Too long to print"), error.message)

    @app.errorhandler(Busy)
    def busy(error: Busy):
        body, status = _error_response(503, say("Busy"), error.message)
        response = app.make_response((body, status))
        response.headers["Retry-After"] = str(limits.get("RETRY_AFTER"))
        return response


def _answer_database_unavailable(app: Flask) -> None:
    """The database not answering, whether a view found it so or board_poll did before Flask: 503 in words."""

    def database_unavailable(error: Exception):
        """The database did not answer in time: 503 in words, and a form's input kept to send again."""
        app.logger.warning("the database did not answer: %s", " ".join(str(error).split()) or type(error).__name__)
        message = UNAVAILABLE
        if request.method == "POST" and request.form and not wants_json():
            kept = [(name, value) for name, value in request.form.items(multi=True)]
            body = render_template("pages/unavailable.html", title=say("Cannot reach the scores"), message=message,
                                   kept=kept, files=bool(request.files))
        else:
            body, _ = _error_response(503, say("Cannot reach the scores"), message)
        response = app.make_response((body, 503))
        response.headers["Retry-After"] = str(limits.get("RETRY_AFTER"))
        response.headers["Cache-Control"] = "no-store"
        return response

    for unavailable in db.unavailable_errors():
        app.register_error_handler(unavailable, database_unavailable)

    @app.url_value_preprocessor  # the first of a request's hooks: before a blueprint's own loads the table
    def database_found_unavailable(endpoint, values) -> None:
        """A board refresh that found the database not answering before Flask (board_poll) is answered so
        at once, not after a second wait for it."""
        error = request.environ.get(DATABASE_UNAVAILABLE)
        if error is not None:
            raise error


def security_headers(response: Response) -> Response:
    """DEFAULT_HEADERS unless the view set its own, FIXED_HEADERS always, and how the answer may be kept."""
    for name, value in DEFAULT_HEADERS.items():
        response.headers.setdefault(name, value)
    for name, value in FIXED_HEADERS.items():
        response.headers[name] = value
    if request.endpoint != "static" and "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = cache_control(response)
    return response


def _answer_refusals(app: Flask) -> None:
    """An expired form, a body too large, any other HTTP refusal, and whatever else went wrong: never a
    traceback."""

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError):
        return _error_response(
            400, say("Form expired"),
            say("This form could not be checked (its security token is missing or old). "
                "Go back, reload the page and send it again."),
        )

    @app.errorhandler(413)
    def too_large(error: HTTPException):
        limit = app.config["MAX_CONTENT_LENGTH"] // 1024
        return _error_response(413, say("Too large"), say("The request is larger than {limit} KB.", limit=limit))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        body, status = _error_response(error.code or 500, _said(error.name), _description(error))
        response = app.make_response((body, status))
        allow = dict(error.get_headers()).get("Allow")
        if allow:  # a 405 says which methods the address does take
            response.headers["Allow"] = allow
        return response

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        app.logger.exception("unexpected error")
        return _error_response(
            500, say("Something went wrong"),
            UNEXPECTED,
        )
