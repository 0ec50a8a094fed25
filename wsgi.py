"""The WSGI entry point: `waitress-serve --listen=127.0.0.1:8000 wsgi:app` or gunicorn wsgi:app."""

from companion import compile_templates, create_app, freeze_startup_objects
from companion.storage.db import Unreachable

try:
    app = create_app()
except Unreachable as err:  # one line in words, not a traceback: what is wrong with COURTIER_DATABASE
    raise SystemExit(str(err)) from None
if app.config.get("REPLICA"):  # Litestream runs beside `make run` (companion/serve.py) only: say so, copy nothing
    raise SystemExit("REPLICA is set, but this server runs no Litestream, so nothing would be copied there. "
                     "Serve with `make run`, or run `litestream replicate` beside this server yourself and unset "
                     "COURTIER_REPLICA.")
compile_templates(app)  # before gunicorn forks its workers (--preload), so that they share the work
freeze_startup_objects()  # and the garbage collector's full passes no longer walk any of it
