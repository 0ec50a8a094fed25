"""The database: one small interface, answered by a SQLite file or by a PostgreSQL server.

``DATABASE`` (``COURTIER_DATABASE``) is a file path, the default (``instance/courtier.sqlite``),
or a ``postgresql://`` URL. The engines and the views see only :class:`Database`:

* ``db.execute(sql, params)`` runs one statement (``?`` placeholders on both) and gives a
  cursor of tuples; ``db.rows(...)`` gives the rows as dicts, ``db.value(...)`` the first
  column of the first row (None when there is none).
* ``with immediate(db, lock=("tables", table_id)):`` is a write transaction. SQLite takes the
  file's write lock up front (BEGIN IMMEDIATE), so two phones writing at once queue instead of
  failing halfway; PostgreSQL locks the named row (``SELECT ... FOR UPDATE``), so writers to one
  table or tournament queue on every server while writers to others go on. Both commit before
  the entry is acknowledged.

A request borrows a connection from the app's pool and gives it back at the end: for SQLite,
opening one per request cost more than the rest of a small request (closing the last
connection to a WAL database checkpoints the WAL and deletes it, every time); for PostgreSQL,
psycopg's pool keeps a few open to the server.

A pool belongs to the process that opened it. gunicorn ``--preload`` builds the app in its master
and forks the workers from it: a connection (or psycopg's pool threads) carried across that fork
would be shared by several processes, each reading the others' answers. So the app migrates on a
connection of its own and opens no pool at start; each process opens its own on its first request,
and a process forked from one that had a pool starts with none (:func:`os.register_at_fork`).

A database that cannot answer (PostgreSQL stopped, restarting, unreachable; a SQLite file locked
too long) raises one of :func:`unavailable_errors` within ``DATABASE_WAIT`` seconds, which the
app answers 503 in words (companion.web.security), never a 500 and never a long wait.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from flask import Flask, current_app, g, has_app_context

BUSY_TIMEOUT_MS = 5000
IDLE_CONNECTIONS = 16  # kept open between requests; more than any server's thread count here
#: How long a request waits for a PostgreSQL connection before it is answered 503: a pool larger than a
#: worker's threads never makes a request wait, so a wait this long means the database is not answering.
WAIT_SECONDS = 3.0
#: How long one attempt to open a PostgreSQL connection may take (a URL's own connect_timeout wins).
CONNECT_TIMEOUT_SECONDS = 5
#: How long psycopg's pool goes on retrying one lost connection, its waits doubling from 1 s, before it
#: starts again from 1 s: bounded, so a database back after a long outage is found within seconds.
RECONNECT_SECONDS = 8.0
#: A PostgreSQL connection idle longer than this is checked (one empty query) before a request gets it.
CHECK_IDLE_SECONDS = 1.0
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
#: The rows a write may lock, by table: the only names ``lock=`` accepts (they go into the SQL).
LOCKABLE = frozenset({"tables", "tournaments", "clubs"})


def is_postgresql(target: str) -> bool:
    """Whether a DATABASE setting names a PostgreSQL server rather than a SQLite file.

    >>> is_postgresql("postgresql://courtier@db/courtier"), is_postgresql("instance/courtier.sqlite")
    (True, False)
    """
    return str(target).startswith(POSTGRES_SCHEMES)


def safe_name(target: str) -> str:
    """A DATABASE setting fit to print: a URL without its password.

    >>> safe_name("postgresql://courtier:s3cret@db:5432/courtier"), safe_name("x.sqlite")
    ('postgresql://courtier:***@db:5432/courtier', 'x.sqlite')
    """
    return re.sub(r"^(\w+://[^:/@]*):[^@]*@", r"\1:***@", str(target))


class Unreachable(RuntimeError):
    """The database named by DATABASE cannot be opened at start; the message says why, in words."""


def unreachable(target: str, error: Exception) -> Unreachable:
    """The words an operator reads when the server cannot start on its database.

    >>> print(unreachable("postgresql://c:pw@db/c", OSError("server does not support SSL")))  # doctest: +ELLIPSIS
    Courtier cannot open its database postgresql://c:***@db/c: server does not support SSL. Check ...
    """
    reason = " ".join(str(error).split()) or type(error).__name__
    return Unreachable(f"Courtier cannot open its database {safe_name(target)}: {reason.rstrip('.')}. "
                       "Check COURTIER_DATABASE (docs/ops.md, *A hosted Courtier*).")


class Database:
    """One connection, as the engines and the views use it, whichever database answers."""

    #: "sqlite" or "postgresql": for the storage code only (migrations, copying, backups).
    kind: str
    #: Whether the database compresses long text by itself (PostgreSQL's TOAST does).
    compresses_text: bool
    #: Errors a constraint (unique, check, append-only) raises here.
    integrity_errors: tuple[type[Exception], ...]

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement with ``?`` placeholders; a cursor over tuples."""
        raise NotImplementedError

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        cursor = self.execute(sql, params)
        keys = [d[0] for d in cursor.description]
        return [dict(zip(keys, row, strict=True)) for row in cursor]

    def query(self, sql: str, params: Sequence[Any] = ()) -> Iterator[dict[str, Any]]:
        """The rows as dicts, as sqlite-utils' ``query`` gives them (the name older code knows)."""
        return iter(self.rows(sql, params))

    def value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = self.execute(sql, params).fetchone()
        return row[0] if row else None

    def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        raise NotImplementedError

    def begin(self, lock: tuple[str, str] | None) -> None:
        raise NotImplementedError

    def lock_row(self, table: str, key: str) -> None:
        """Inside a write transaction: make other writers to this row wait until it ends."""
        raise NotImplementedError

    @property
    def in_transaction(self) -> bool:
        raise NotImplementedError

    def rollback(self) -> None:
        self.execute("ROLLBACK")

    def table_names(self) -> list[str]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class SQLiteDatabase(Database):
    kind = "sqlite"
    compresses_text = False
    integrity_errors = (sqlite3.IntegrityError,)

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, params)

    def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.conn.executemany(sql, rows)

    def begin(self, lock: tuple[str, str] | None) -> None:
        self.conn.execute("BEGIN IMMEDIATE")  # the file's one write lock: every row is locked

    def lock_row(self, table: str, key: str) -> None:
        pass  # BEGIN IMMEDIATE holds the whole file already

    @property
    def in_transaction(self) -> bool:
        return self.conn.in_transaction

    def table_names(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]

    def close(self) -> None:
        self.conn.close()

    @property
    def utils(self):
        """The connection as sqlite-utils sees it (its migrations)."""
        from sqlite_utils import Database as Utils

        return Utils(self.conn)


_PLACEHOLDER_OR_PERCENT = re.compile(r"('(?:[^']|'')*')|\?|%")


@lru_cache(maxsize=1024)
def postgres_sql(sql: str) -> str:
    """A statement written with ``?`` placeholders, as psycopg takes it: ``%s``, and a literal % doubled
    (a ``?`` inside a quoted string is text, not a placeholder).

    >>> postgres_sql("SELECT * FROM t WHERE a = ? AND b LIKE '%x?' AND c = 'it''s?'")
    "SELECT * FROM t WHERE a = %s AND b LIKE '%%x?' AND c = 'it''s?'"
    """
    def replace(match: re.Match) -> str:
        if match.group(1):
            return match.group(1).replace("%", "%%")
        return "%s" if match.group(0) == "?" else "%%"

    return _PLACEHOLDER_OR_PERCENT.sub(replace, sql)


class PostgresDatabase(Database):
    kind = "postgresql"
    compresses_text = True

    def __init__(self, conn):
        import psycopg

        self.conn = conn
        self.integrity_errors = (psycopg.IntegrityError,)

    def execute(self, sql: str, params: Sequence[Any] = ()):
        if not params:  # psycopg reads placeholders (and a doubled %) only when there are parameters
            return self.conn.execute(sql)
        return self.conn.execute(postgres_sql(sql), params)

    def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self.conn.cursor() as cursor:
            cursor.executemany(postgres_sql(sql), rows)

    def begin(self, lock: tuple[str, str] | None) -> None:
        self.conn.execute("BEGIN")
        if lock is not None:
            try:
                self.lock_row(*lock)
            except BaseException:
                self.conn.rollback()
                raise

    def lock_row(self, table: str, key: str) -> None:
        if table not in LOCKABLE:
            raise ValueError(f"no lock on {table}")
        self.conn.execute(f"SELECT 1 FROM {table} WHERE id = %s FOR UPDATE", [key])  # noqa: S608 - LOCKABLE

    @property
    def in_transaction(self) -> bool:
        from psycopg.pq import TransactionStatus

        return self.conn.info.transaction_status != TransactionStatus.IDLE

    def rollback(self) -> None:
        self.conn.rollback()

    def table_names(self) -> list[str]:
        return [r[0] for r in self.conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")]

    def close(self) -> None:
        self.conn.close()


def connection_options(target: str) -> dict[str, Any]:
    """psycopg's settings for a connection: autocommit (transactions are explicit), and a bounded time to
    connect unless the URL sets its own, so a server that does not answer is found out in seconds."""
    options: dict[str, Any] = {"autocommit": True}
    if "connect_timeout" not in target:
        options["connect_timeout"] = CONNECT_TIMEOUT_SECONDS
    return options


def connect(target: str) -> Database:
    """A connection of its own (in autocommit mode: transactions are explicit); close it after."""
    if is_postgresql(target):
        import psycopg

        return PostgresDatabase(psycopg.connect(target, **connection_options(target)))
    conn = sqlite3.connect(target, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    return SQLiteDatabase(conn)


def migrate(db: Database) -> None:
    """Bring the schema up to date (companion.storage.migrations)."""
    from . import migrations

    migrations.apply(db)


@contextmanager
def immediate(db: Database, lock: tuple[str, str] | None = None) -> Iterator[Database]:
    """A write transaction; ``lock`` names the row (``("tables", id)``) whose writers queue behind it."""
    db.begin(lock)
    try:
        yield db
    except BaseException:
        db.rollback()
        raise
    db.execute("COMMIT")


#: Pools of this process; a process forked from it starts each of them afresh (:func:`_forked`).
_POOLS: weakref.WeakSet = weakref.WeakSet()
#: What a forked process inherited from its parent's pools. Kept, never closed nor collected: closing a
#: connection here would end it for the parent too (PostgreSQL's goodbye on the shared socket; SQLite's
#: checkpoint on close, without the parent's locks).
_INHERITED: list[Any] = []


def _forked() -> None:
    for connections in list(_POOLS):
        connections.forget_inherited()


os.register_at_fork(after_in_child=_forked)


class Pool:
    """Idle connections to one SQLite file, handed to one request at a time.

    Connections are opened on demand and at most ``keep`` idle ones are kept,
    so any threading model works (waitress's fixed threads, or a thread per
    request). A connection comes back in autocommit mode: a request that
    failed inside a transaction has it rolled back first.
    """

    def __init__(self, path: str, keep: int = IDLE_CONNECTIONS, wait: float = WAIT_SECONDS):
        self.path = path
        self.keep = keep
        self._idle: list[Database] = []
        self._lock = threading.Lock()
        _POOLS.add(self)

    def take(self, timeout: float | None = None) -> Database:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return connect(self.path)

    def give_back(self, db: Database) -> None:
        if db.in_transaction:
            db.rollback()
        with self._lock:
            if len(self._idle) < self.keep:
                self._idle.append(db)
                return
        db.close()

    def forget_inherited(self) -> None:
        _INHERITED.append(self._idle)
        self._idle, self._lock = [], threading.Lock()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for db in idle:
            db.close()


class PostgresPool:
    """psycopg's pool of connections to one PostgreSQL database, each in autocommit mode, opened by the
    first request of each process (never carried across a fork).

    A connection given back inside a failed transaction is rolled back by the pool. One that has
    been idle for more than ``CHECK_IDLE_SECONDS`` is checked with an empty query before a request
    gets it, and replaced when the server dropped it. One given back a moment ago is not: under load
    a connection is reused within milliseconds, and a check on every request was a second round trip
    for a board refresh that needs one. A request waits at most ``wait`` seconds in all for a
    connection: then the database is not answering, and :class:`psycopg_pool.PoolTimeout` says so.
    """

    def __init__(self, url: str, size: int = IDLE_CONNECTIONS, wait: float = WAIT_SECONDS):
        self.path, self.size, self.wait = url, size, wait
        self._pool = None
        self._given_back: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()
        _POOLS.add(self)

    @property
    def pool(self):
        """psycopg's pool for this process, opened on first use."""
        if self._pool is None:
            with self._lock:
                if self._pool is None:
                    from psycopg_pool import ConnectionPool

                    self._pool = ConnectionPool(
                        self.path, min_size=1, max_size=self.size, timeout=self.wait, num_workers=1,
                        reconnect_timeout=RECONNECT_SECONDS, kwargs=connection_options(self.path), open=True,
                        name="courtier")
        return self._pool

    def take(self, timeout: float | None = None) -> Database:
        import psycopg
        from psycopg_pool import PoolTimeout

        connections = self.pool
        deadline = time.monotonic() + (self.wait if timeout is None else timeout)
        for _ in range(connections.max_size + 1):  # every idle connection may be a dropped one, and then a new one
            conn = connections.getconn(max(0.0, deadline - time.monotonic()) or 0.001)
            with self._lock:
                back = self._given_back.pop(conn, None)
            if back is not None and time.monotonic() - back <= CHECK_IDLE_SECONDS:
                return PostgresDatabase(conn)
            try:
                conn.execute("")
            except psycopg.Error:
                conn.close()
                connections.putconn(conn)  # the pool drops a closed connection and opens another
                if time.monotonic() >= deadline:
                    raise PoolTimeout("PostgreSQL dropped every connection tried") from None
                continue
            return PostgresDatabase(conn)
        raise psycopg.OperationalError("PostgreSQL keeps dropping new connections")

    def give_back(self, db: Database) -> None:
        with self._lock:
            self._given_back[db.conn] = time.monotonic()
        self.pool.putconn(db.conn)

    def stats(self) -> dict[str, int]:
        """psycopg's counts for this process's pool (connections, waiting requests...); empty before it opens."""
        return self._pool.get_stats() if self._pool is not None else {}

    def forget_inherited(self) -> None:
        _INHERITED.append(self._pool)
        self._pool, self._lock, self._given_back = None, threading.Lock(), weakref.WeakKeyDictionary()

    def close(self) -> None:
        """Close the connections; the next request opens the pool again."""
        with self._lock:
            opened, self._pool = self._pool, None
        if opened is not None:
            opened.close()


def open_pool(target: str, size: int = IDLE_CONNECTIONS, wait: float = WAIT_SECONDS) -> Pool | PostgresPool:
    return (PostgresPool if is_postgresql(target) else Pool)(target, size, wait)


def pool(app: Flask) -> Pool | PostgresPool:
    return app.extensions["courtier.db"]


def get_db() -> Database:
    if "db" not in g:
        g.db = pool(current_app).take()
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        pool(current_app).give_back(db)


@contextmanager
def borrowed(app: Flask | None = None, timeout: float | None = None) -> Iterator[Database]:
    """A connection for work outside a request (a heavy job's thread, a command): the request's own
    when there is one, else one borrowed from the app's pool (waiting at most ``timeout`` seconds
    for PostgreSQL's) and given back after."""
    if app is None and has_app_context() and "db" in g:
        yield g.db
        return
    connections = pool(app or current_app)
    db = connections.take(timeout)
    try:
        yield db
    finally:
        connections.give_back(db)


def unavailable_errors() -> tuple[type[Exception], ...]:
    """What a database that cannot answer raises: down, restarting, unreachable, out of connections, locked
    too long. Not a constraint refused nor a statement wrong: those are faults, and stay 500s."""
    import psycopg
    from psycopg_pool import PoolTimeout

    return (sqlite3.OperationalError, psycopg.OperationalError, PoolTimeout)


def ping(db: Database) -> float:
    """Ask the database a trivial question; how long the answer took, in milliseconds."""
    started = time.perf_counter()
    db.value("SELECT 1")
    return (time.perf_counter() - started) * 1000


def migrate_at_start(target: str) -> None:
    """Bring the schema up to date on a connection of the start's own, closed after: nothing of it is left
    for a fork to carry (module docstring). A database that cannot be opened is :class:`Unreachable`."""
    try:
        db = connect(target)
        try:
            migrate(db)
        finally:
            db.close()
    except (sqlite3.DatabaseError, *unavailable_errors()) as err:  # a file that is not a database, too
        raise unreachable(target, err) from err


def init_app(app: Flask) -> None:
    app.config.setdefault("DATABASE_POOL", IDLE_CONNECTIONS)
    app.config.setdefault("DATABASE_WAIT", WAIT_SECONDS)
    app.teardown_appcontext(close_db)
    target = app.config["DATABASE"]
    migrate_at_start(target)
    app.extensions["courtier.db"] = connections = open_pool(target, int(app.config["DATABASE_POOL"]),
                                                           float(app.config["DATABASE_WAIT"]))
    weakref.finalize(app, connections.close)  # an app dropped (a test's) closes its files and connections
