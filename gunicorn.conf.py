"""gunicorn's settings for Courtier. gunicorn reads this file from the folder it starts in: the checkout,
where wsgi.py is (docs/ops.md starts it there). Any other setting stays on the command line.

Its access log, when one is asked for (``--access-logfile``), never holds a key: a line keeps the
method, path, status, size, time and client, with no query string (edit links carry their key there)
and no Authorization header (companion/access_log.py).
"""

from gunicorn.glogging import Logger

from companion.access_log import keys_left_out


class KeysLeftOut(Logger):
    """gunicorn's logger, its access lines written without what may hold a key."""

    def atoms(self, resp, req, environ, request_time):
        return keys_left_out(super().atoms(resp, req, environ, request_time), environ)


logger_class = KeysLeftOut
