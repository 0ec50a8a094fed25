"""The schema, for both databases, and the steps that bring an older database up to date.

SQLite's steps are sqlite-utils migrations (recorded in ``_sqlite_migrations``), one per change
since the first release, as every venue's file went through them. PostgreSQL starts from the
schema those steps arrived at (:data:`POSTGRES_STEPS`, recorded in ``courtier_migrations``);
a change from now on is a step on each side, under the same name.

Several app servers may start at once against one PostgreSQL: the steps run under an advisory
lock, so one server applies them and the others find them applied.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from sqlite_utils import Database as SQLiteUtils
from sqlite_utils import Migrations


class Database(Protocol):
    """The connection the steps are given (companion.storage.db's, either database): what they use of it."""

    kind: str
    conn: Any

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any: ...

    def rollback(self) -> None: ...

    @property
    def utils(self) -> SQLiteUtils: ...

sqlite_migrations = Migrations("courtier")


def append_only(db: SQLiteUtils) -> None:
    """The log is append-only: the database itself refuses to rewrite history."""
    db.execute(
        "CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
        "BEGIN SELECT RAISE(ABORT, 'the entry log is append-only'); END"
    )
    db.execute(
        "CREATE TRIGGER events_no_delete BEFORE DELETE ON events "
        "BEGIN SELECT RAISE(ABORT, 'the entry log is append-only'); END"
    )


@sqlite_migrations()
def m001_tables_and_events(db: SQLiteUtils) -> None:
    db["tables"].create(
        {
            "id": str,  # public: the view link
            "edit_key": str,  # secret: the edit link
            "game": str,
            "title": str,
            "players": str,  # JSON list, seat order
            "options": str,  # JSON object
            "created_at": str,
        },
        pk="id",
    )
    db["tables"].create_index(["edit_key"], unique=True)
    db.execute(
        """
        CREATE TABLE events (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            table_id TEXT NOT NULL REFERENCES tables(id),
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('add', 'edit', 'delete', 'undo')),
            slot INTEGER,
            undoes INTEGER,
            data TEXT,
            device TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            UNIQUE (table_id, seq)
        )
        """
    )
    append_only(db)


@sqlite_migrations()
def m002_tournaments(db: SQLiteUtils) -> None:
    db["tournaments"].create(
        {
            "id": str,  # public: the standings link
            "director_key": str,  # secret: the director's link
            "game": str,
            "title": str,
            "entrants": str,  # JSON list of names (or of teams: lists of two names)
            "options": str,  # JSON: the game's options for every table
            "method": str,  # random, round-robin, swiss
            "rounds": int,
            "table_size": str,  # JSON: a number, or [min, max]
            "created_at": str,
        },
        pk="id",
    )
    db["tournaments"].create_index(["director_key"], unique=True)
    db.execute(TOURNAMENT_TABLES)


@sqlite_migrations()
def m003_entry_keys(db: SQLiteUtils) -> None:
    """Each save from a phone carries a key of its own; a key is stored once per table, so a
    replayed save (a double tap, a lost answer, an offline queue sent again) never doubles an entry."""
    db.execute("ALTER TABLE events ADD COLUMN entry_key TEXT")
    db.execute(EVENTS_ENTRY_KEY)


@sqlite_migrations()
def m004_tournament_time(db: SQLiteUtils) -> None:
    """Calling time on a round, and the director's adjusted results with their reasons."""
    db.execute(TOURNAMENT_CALLS)
    db.execute(TOURNAMENT_ADJUSTMENTS)


@sqlite_migrations()
def m005_rematch_of(db: SQLiteUtils) -> None:
    """A rematch remembers the table it follows (its page links back)."""
    db["tables"].add_column("rematch_of", str)


@sqlite_migrations()
def m006_player_changes(db: SQLiteUtils) -> None:
    """The log also records a player's name corrected ("rename") and a late player seated ("seat").

    SQLite cannot change a CHECK constraint in place, so the log is copied, row for row, into a
    table that allows the two new kinds; its indexes and append-only triggers are made again.
    """
    db.execute(EVENTS.format(name="events_new", id="INTEGER PRIMARY KEY AUTOINCREMENT"))
    columns = "id, table_id, seq, kind, slot, undoes, data, device, created_at, entry_key"
    db.execute(f"INSERT INTO events_new ({columns}) SELECT {columns} FROM events")  # noqa: S608 - constant
    db.execute("DROP TABLE events")  # its triggers go with it, before the rows (none fires)
    db.execute("ALTER TABLE events_new RENAME TO events")
    db.execute(EVENTS_ENTRY_KEY)
    append_only(db)


@sqlite_migrations()
def m007_typed_at_and_table_rounds(db: SQLiteUtils) -> None:
    """A save sent late (kept on a phone without signal) remembers when it was typed, beside when it
    arrived; and a table finds its tournament round (to say when time was called) without a scan."""
    for statement in TYPED_AT_AND_TABLE_ROUNDS:
        db.execute(statement)


@sqlite_migrations()
def m008_rate_limits(db: SQLiteUtils) -> None:
    """Creation limits counted in the database (companion.storage.ratelimit): one count per phone, for every
    process and server that shares the database."""
    db.execute(RATE_COUNTS.replace("DOUBLE PRECISION", "REAL"))


@sqlite_migrations()
def m009_call_versions(db: SQLiteUtils) -> None:
    """Time called on a round keeps each of its tables' versions at that moment: a hand saved in the
    same second as the call is then still known to come after it."""
    db.execute(CALL_VERSIONS)


@sqlite_migrations()
def m010_clubs(db: SQLiteUtils) -> None:
    """Club records: a club, its roster, the tables that count for it and every finished game's places
    with the ratings after it (companion.clubs)."""
    for statement in CLUBS:
        db.execute(statement.replace("DOUBLE PRECISION", "REAL"))


# What both databases create alike, in the same words (SQLite keeps each table's text as it is written).

#: The log as m006 left it, with the kinds of change it records; ``name`` and ``id`` are each database's own:
#: SQLite copies the log into a new table whose rows keep their numbers, PostgreSQL numbers them by an identity.
EVENTS = """CREATE TABLE {name} (
            id {id},
            table_id TEXT NOT NULL REFERENCES tables(id),
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('add', 'edit', 'delete', 'undo', 'rename', 'seat')),
            slot INTEGER,
            undoes INTEGER,
            data TEXT,
            device TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            entry_key TEXT,
            UNIQUE (table_id, seq)
        )"""

EVENTS_ENTRY_KEY = "CREATE UNIQUE INDEX events_entry_key ON events (table_id, entry_key) WHERE entry_key IS NOT NULL"

#: A tournament's tables, round by round, each with its seats.
TOURNAMENT_TABLES = """CREATE TABLE tournament_tables (
            tournament_id TEXT NOT NULL REFERENCES tournaments(id),
            round INTEGER NOT NULL,
            number INTEGER NOT NULL,
            table_id TEXT NOT NULL REFERENCES tables(id),
            seats TEXT NOT NULL,
            PRIMARY KEY (tournament_id, round, number)
        )"""

TOURNAMENT_CALLS = """CREATE TABLE tournament_calls (
            tournament_id TEXT NOT NULL REFERENCES tournaments(id),
            round INTEGER NOT NULL,
            called_at TEXT NOT NULL,
            PRIMARY KEY (tournament_id, round)
        )"""

TOURNAMENT_ADJUSTMENTS = """CREATE TABLE tournament_adjustments (
            tournament_id TEXT NOT NULL REFERENCES tournaments(id),
            table_id TEXT NOT NULL REFERENCES tables(id),
            totals TEXT NOT NULL,
            reason TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (tournament_id, table_id)
        )"""

TYPED_AT_AND_TABLE_ROUNDS = [
    "ALTER TABLE events ADD COLUMN typed_at TEXT",
    "CREATE INDEX tournament_tables_table ON tournament_tables (table_id)",
]

CALL_VERSIONS = "ALTER TABLE tournament_calls ADD COLUMN versions TEXT"

#: A club is kept like a table: an unguessable id and two keys. ``club_tables.finish_order`` numbers
#: the club's games in the order they finished (NULL while a table is playing); ``club_places`` holds
#: one row per player of each finished game: the place, and the rating after it (the ratings'
#: history, read for charts and as the point to recompute from).
CLUBS = [
    """CREATE TABLE clubs (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        director_key TEXT NOT NULL UNIQUE,
        member_key TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        recomputed TEXT,
        seasons TEXT NOT NULL DEFAULT '[]'
    )""",
    """CREATE TABLE club_players (
        club_id TEXT NOT NULL REFERENCES clubs(id),
        id INTEGER NOT NULL,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        former INTEGER NOT NULL DEFAULT 0,
        merged_into INTEGER,
        PRIMARY KEY (club_id, id),
        UNIQUE (club_id, name_key)
    )""",
    """CREATE TABLE club_tables (
        table_id TEXT PRIMARY KEY REFERENCES tables(id),
        club_id TEXT NOT NULL REFERENCES clubs(id),
        game TEXT NOT NULL,
        added_at TEXT NOT NULL,
        finish_order INTEGER,
        finished_at TEXT
    )""",
    "CREATE INDEX club_tables_club ON club_tables (club_id, finish_order)",
    """CREATE TABLE club_places (
        club_id TEXT NOT NULL REFERENCES clubs(id),
        game TEXT NOT NULL,
        finish_order INTEGER NOT NULL,
        table_id TEXT NOT NULL REFERENCES tables(id),
        player_id INTEGER NOT NULL,
        team INTEGER NOT NULL,
        place INTEGER NOT NULL,
        won INTEGER NOT NULL,
        total INTEGER NOT NULL,
        moments TEXT NOT NULL DEFAULT '{}',
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (club_id, game, finish_order, player_id)
    )""",
    "CREATE INDEX club_places_player ON club_places (club_id, player_id, game, finish_order)",
    # A leaderboard reads every place of one game, player by player: this index alone answers it.
    "CREATE INDEX club_places_board ON club_places (club_id, game, player_id, finish_order, place, won)",
    "CREATE INDEX club_places_table ON club_places (table_id)",
    # A tournament run for a club: each table it seats counts for the club.
    """CREATE TABLE club_tournaments (
        tournament_id TEXT PRIMARY KEY REFERENCES tournaments(id),
        club_id TEXT NOT NULL REFERENCES clubs(id)
    )""",
]

RATE_COUNTS = """
CREATE TABLE rate_counts (
    key TEXT PRIMARY KEY,
    hits INTEGER NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL
)
"""

#: PostgreSQL's schema: the SQLite file's after m006, in PostgreSQL's types (the log's id an
#: identity, long options kept as text: TOAST compresses them), then the steps after it.
POSTGRES_STEPS: list[tuple[str, list[str]]] = [
    ("m006_player_changes", [
        """CREATE TABLE tables (
            id TEXT PRIMARY KEY,
            edit_key TEXT NOT NULL,
            game TEXT NOT NULL,
            title TEXT NOT NULL,
            players TEXT NOT NULL,
            options TEXT NOT NULL,
            created_at TEXT NOT NULL,
            rematch_of TEXT
        )""",
        "CREATE UNIQUE INDEX idx_tables_edit_key ON tables (edit_key)",
        EVENTS.format(name="events", id="BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
        EVENTS_ENTRY_KEY,
        """CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION USING ERRCODE = 'restrict_violation', MESSAGE = 'the entry log is append-only';
        END $$""",
        "CREATE TRIGGER events_no_update BEFORE UPDATE ON events FOR EACH ROW EXECUTE FUNCTION events_append_only()",
        "CREATE TRIGGER events_no_delete BEFORE DELETE ON events FOR EACH ROW EXECUTE FUNCTION events_append_only()",
        """CREATE TABLE tournaments (
            id TEXT PRIMARY KEY,
            director_key TEXT NOT NULL,
            game TEXT NOT NULL,
            title TEXT NOT NULL,
            entrants TEXT NOT NULL,
            options TEXT NOT NULL,
            method TEXT NOT NULL,
            rounds INTEGER NOT NULL,
            table_size TEXT NOT NULL,
            created_at TEXT NOT NULL
        )""",
        "CREATE UNIQUE INDEX idx_tournaments_director_key ON tournaments (director_key)",
        TOURNAMENT_TABLES,
        TOURNAMENT_CALLS,
        TOURNAMENT_ADJUSTMENTS,
    ]),
    ("m007_typed_at_and_table_rounds", TYPED_AT_AND_TABLE_ROUNDS),
    ("m008_rate_limits", [RATE_COUNTS]),
    ("m009_call_versions", [CALL_VERSIONS]),
    ("m010_clubs", CLUBS),
]

#: Any constant: the advisory lock that lets one server at a time bring the schema up to date.
MIGRATION_LOCK = 0x436F7572  # "Cour"


def apply(db: Database) -> None:
    if db.kind == "postgresql":
        apply_postgres(db)
    else:
        db.execute("PRAGMA journal_mode = WAL")  # set once: it stays with the file
        sqlite_migrations.apply(db.utils)


def apply_postgres(db: Database, stop_before: str | None = None) -> None:
    db.execute("BEGIN")
    try:
        db.execute("SELECT pg_advisory_xact_lock(?)", [MIGRATION_LOCK])
        db.execute("CREATE TABLE IF NOT EXISTS courtier_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
        done = {r[0] for r in db.execute("SELECT name FROM courtier_migrations")}
        for name, statements in POSTGRES_STEPS:
            if name == stop_before:
                break
            if name in done:
                continue
            for statement in statements:
                db.conn.execute(statement)  # no parameters: the text goes as written
            db.execute("INSERT INTO courtier_migrations (name, applied_at) VALUES (?, now()::text)", [name])
    except BaseException:
        db.rollback()
        raise
    db.execute("COMMIT")


def applied(db: Database) -> list[str]:
    """The steps this database went through, in order."""
    if db.kind == "postgresql":
        return [r[0] for r in db.execute("SELECT name FROM courtier_migrations ORDER BY name")]
    return [r[0] for r in db.execute("SELECT name FROM _sqlite_migrations ORDER BY name")]
