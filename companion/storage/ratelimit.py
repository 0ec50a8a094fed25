"""Creation limits counted in Courtier's own database: one count per phone, for every worker and server.

flask-limiter keeps its counts in a storage named by ``RATELIMIT_STORAGE_URI``. Its ``memory://``
counts per process, so two workers or two servers each allowed a phone the whole limit. Courtier's
default, ``courtier://``, is this storage: each count is one row of ``rate_counts``, raised with one
atomic upsert, in the database every server already shares (SQLite file or PostgreSQL). A site that
runs Redis or memcached may name it instead (``redis://host:6379``; docs/ops.md).
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager

from flask import current_app, has_app_context
from limits.storage import Storage

from .db import Database

#: One count in this many also sweeps away the counts whose window has ended.
SWEEP_EVERY = 200

_INCREMENT = (
    "INSERT INTO rate_counts (key, hits, expires_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET "
    "hits = CASE WHEN rate_counts.expires_at <= ? THEN excluded.hits ELSE rate_counts.hits + excluded.hits END, "
    "expires_at = CASE WHEN rate_counts.expires_at <= ? THEN excluded.expires_at ELSE rate_counts.expires_at END "
    "RETURNING hits"
)


class DatabaseStorage(Storage):
    """limits' storage (fixed windows) over the ``rate_counts`` table of the app's database."""

    STORAGE_SCHEME = ["courtier"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, pool=None, **options):
        super().__init__(uri, wrap_exceptions, **options)
        self.pool = pool

    @property
    def base_exceptions(self):
        import psycopg

        return (sqlite3.Error, psycopg.Error)

    @contextmanager
    def _db(self) -> Iterator[Database]:
        """The request's own connection when there is one, else one from the pool for this call."""
        if has_app_context() and current_app.extensions.get("courtier.db") is self.pool:
            from .db import get_db

            yield get_db()
            return
        db = self.pool.take()
        try:
            yield db
        finally:
            self.pool.give_back(db)

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        with self._db() as db:
            if random.randrange(SWEEP_EVERY) == 0:
                db.execute("DELETE FROM rate_counts WHERE expires_at <= ?", [now])
            return db.value(_INCREMENT, [key, amount, now + expiry, now, now])

    def get(self, key: str) -> int:
        with self._db() as db:
            return db.value("SELECT hits FROM rate_counts WHERE key = ? AND expires_at > ?", [key, time.time()]) or 0

    def get_expiry(self, key: str) -> float:
        now = time.time()
        with self._db() as db:
            return db.value("SELECT expires_at FROM rate_counts WHERE key = ? AND expires_at > ?", [key, now]) or now

    def check(self) -> bool:
        try:
            with self._db() as db:
                return db.value("SELECT 1") == 1
        except self.base_exceptions:
            return False

    def reset(self) -> int | None:
        with self._db() as db:
            return db.execute("DELETE FROM rate_counts").rowcount

    def clear(self, key: str) -> None:
        with self._db() as db:
            db.execute("DELETE FROM rate_counts WHERE key = ?", [key])


