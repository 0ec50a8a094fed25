"""gunicorn's settings for Courtier. gunicorn reads this file from the folder it starts in: the checkout,
where wsgi.py is (docs/ops.md starts it there). Any other setting stays on the command line.

Its access log, when one is asked for (``--access-logfile``), never holds a key: a line keeps the
method, path, status, size, time and client, with no query string (edit links carry their key there)
and no Authorization header (companion/web/access_log.py).

With ``--preload`` the app is built once, in gunicorn's master, and the workers are forked from it:
each opens its own database connections on its first request (companion/storage/db.py). The metrics an
operator scrapes (``COURTIER_METRICS_TOKEN``, companion/web/metrics.py) are counted by every worker in
files of one folder, which this file makes for the server's lifetime unless
``PROMETHEUS_MULTIPROC_DIR`` names one.
"""

import os
import shutil
import sys
import tempfile

REPLICA_REFUSED = ("COURTIER_REPLICA is set, but gunicorn runs no Litestream, so nothing would be copied there. "
                   "Serve with make run (python -m companion.serve), which runs it, or run `litestream replicate` "
                   "beside gunicorn yourself and unset COURTIER_REPLICA.")
if os.environ.get("COURTIER_REPLICA"):  # Litestream runs beside `make run` (companion/serve.py), never here
    sys.exit(REPLICA_REFUSED)

if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):  # before the app (and prometheus_client) is imported
    _metrics_folder = tempfile.mkdtemp(prefix="courtier-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = _metrics_folder
else:
    _metrics_folder = None

from gunicorn.glogging import Logger  # noqa: E402 - after the metrics' folder is named

from companion.web.access_log import keys_left_out  # noqa: E402


class KeysLeftOut(Logger):
    """gunicorn's logger, its access lines written without what may hold a key."""

    def atoms(self, resp, req, environ, request_time):
        return keys_left_out(super().atoms(resp, req, environ, request_time), environ)


logger_class = KeysLeftOut


def child_exit(server, worker):
    """A worker gone: its gauges (connections in use, heavy jobs) no longer count; its counters still do."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    if _metrics_folder:
        shutil.rmtree(_metrics_folder, ignore_errors=True)


def when_ready(server):
    """A replica named in instance/config.py is refused as one in the environment is (the app is built by now
    with --preload, the documented way)."""
    app = getattr(server.app, "callable", None)
    if app is not None and getattr(app, "config", {}).get("REPLICA"):
        sys.exit(REPLICA_REFUSED)
