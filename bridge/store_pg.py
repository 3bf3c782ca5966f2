"""The event store on PostgreSQL, for a venue: many tables, several Herald processes, one database.

The same interface and the same promises as the SQLite store (``bridge.store``): an event is
acknowledged only after its transaction committed (PostgreSQL's default ``synchronous_commit``
makes a commit durable), ``append`` refuses a gap or an overwrite so two referees can never fork a
session's log, and a database that is not Herald's is refused before anything is written.

The session, event, snapshot and frame statements are ``bridge.store_sql``'s, shared with the
SQLite store with ``%s`` for its ``?``; this module is the connection layer, where the two really
differ: how a database says whose it is (and migrates), how a transaction runs, identity columns
(``RETURNING id``), the row lock that serialises appends across processes, and psycopg's errors.
The store test suite runs over both (tests/server).

Whose database it is: the ``herald_meta`` table names the application and the schema version
(SQLite keeps the same facts in ``application_id`` and ``user_version``). A database whose
schema holds other tables and no ``herald_meta`` is another application's and is refused; a
newer schema version is refused; migrations (``MIGRATIONS``) run in order inside one
transaction under an advisory lock, so two processes starting at once do not both create.
"""

from __future__ import annotations

import contextlib
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg.rows import dict_row

from bridge.store_records import APPLICATION_ID, FRAME_MAX_COUNT, SCHEMA_VERSION, StoreRefused
from bridge.store_sql import Queries, SqlEventStore

APPLICATION = "herald"
CONNECT_TIMEOUT = 5
"""Seconds a connection attempt may take (psycopg's default is to wait forever)."""

MIGRATIONS: dict[int, str] = {
    1: """
CREATE TABLE herald_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sessions (
    id       BIGSERIAL PRIMARY KEY,
    table_id TEXT NOT NULL,
    game     TEXT NOT NULL,
    header   TEXT NOT NULL,
    tokens   TEXT NOT NULL,
    created  DOUBLE PRECISION NOT NULL,
    status   TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'over', 'closed'))
);
CREATE INDEX sessions_by_table ON sessions (table_id, status);
CREATE TABLE events (
    session_id BIGINT NOT NULL REFERENCES sessions (id),
    seq        INTEGER NOT NULL,
    time       DOUBLE PRECISION NOT NULL,
    source     TEXT NOT NULL,
    kind       TEXT NOT NULL,
    payload    TEXT NOT NULL,
    state_id   INTEGER NOT NULL,
    PRIMARY KEY (session_id, seq)
);
CREATE TABLE snapshots (
    session_id BIGINT NOT NULL REFERENCES sessions (id),
    seq        INTEGER NOT NULL,
    state_id   INTEGER NOT NULL,
    time       DOUBLE PRECISION NOT NULL,
    data       TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
);
""",
    2: """
CREATE TABLE frames (
    session_id BIGINT NOT NULL REFERENCES sessions (id),
    seq        INTEGER NOT NULL,
    time       DOUBLE PRECISION NOT NULL,
    meta       TEXT NOT NULL,
    jpeg       BYTEA NOT NULL,
    PRIMARY KEY (session_id, seq)
);
""",
}
"""Schema version → the statements that bring the previous version to it, run in order."""

assert max(MIGRATIONS) == SCHEMA_VERSION

QUERIES = replace(
    Queries(),
    insert_session=Queries.insert_session + " RETURNING id",
    lock_session="SELECT id FROM sessions WHERE id=? FOR UPDATE",
).with_placeholder("%s")
"""The shared statements in psycopg's paramstyle; a new session's id comes back from the
``INSERT`` itself, and an append locks its session's row first (several processes of a venue
may write to one database)."""


def shown(url: str) -> str:
    """The URL as messages and logs may show it: without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


class PgEventStore(SqlEventStore):
    """PostgreSQL event store with ``bridge.store.EventStore``'s interface, thread-safe."""

    _db: psycopg.Connection[Any]
    _queries = QUERIES
    _duplicate_errors = (psycopg.errors.UniqueViolation,)
    _lost_errors = (psycopg.OperationalError,)

    def __init__(self, url: str) -> None:
        """Connect, check whose the database is, migrate; ``StoreRefused`` when it cannot be
        used (unreachable, refused credentials, another application's tables, a newer schema),
        with nothing written."""
        self.path = shown(url)
        self.max_frames = FRAME_MAX_COUNT
        self._lock = threading.RLock()
        self._url = url
        self._claims: dict[str, int] = {}
        try:
            self._db = self._connect()
        except psycopg.Error as exc:
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise StoreRefused("store/cannot-connect", path_problem=True, db=self.path,
                               reason=reason) from exc  # fmt: skip
        try:
            self._migrate()
        except BaseException:
            self._db.close()
            raise

    def _connect(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self._url, autocommit=True, row_factory=dict_row,
                               connect_timeout=CONNECT_TIMEOUT)  # fmt: skip

    def _reconnect(self) -> None:
        """A new connection after the server went away (a restart, a failover), holding the
        tables this store had claimed again: the server let go of them with the old session,
        so if another process took one meanwhile this one must stop writing it."""
        with self._lock:
            with contextlib.suppress(psycopg.Error):
                self._db.close()
            self._db = self._connect()
            for table_id, key in self._claims.items():
                if not self._try_lock(key):
                    raise StoreRefused("store/table-taken", db=self.path, table_id=table_id)

    def _try_lock(self, key: int) -> bool:
        row = self._db.execute(
            "SELECT pg_try_advisory_lock(%s, %s) AS got", (APPLICATION_ID, key)
        ).fetchone()
        return bool(row and row["got"])

    def claim(self, table_id: str) -> None:
        """Make this process the one referee of ``table_id`` in this database, for as long as
        its connection lives (a session-level advisory lock: a crashed process's lock goes with
        its connection). A second ``herald serve`` of the table gets ``StoreRefused``."""
        key = zlib.crc32(table_id.encode()) - 2**31  # the lock's second key is a signed int4
        with self._lock:
            if not self._try_lock(key):
                raise StoreRefused("store/table-taken", db=self.path, table_id=table_id)
            self._claims[table_id] = key

    def _migrate(self) -> None:
        with self._tx() as db:
            db.execute("SELECT pg_advisory_xact_lock(%s)", (APPLICATION_ID,))
            names = {
                r["table_name"]
                for r in db.execute(
                    "SELECT table_name FROM information_schema.tables "
                    "WHERE table_schema = current_schema()"
                )
            }
            version = 0
            if "herald_meta" in names:
                meta = {r["key"]: r["value"] for r in db.execute("SELECT * FROM herald_meta")}
                if meta.get("application") != APPLICATION:
                    raise StoreRefused("store/foreign-pg", db=self.path,
                                       tables=", ".join(sorted(names)))  # fmt: skip
                version = int(meta.get("schema_version", "0"))
            elif names:
                raise StoreRefused("store/foreign-pg", db=self.path,
                                   tables=", ".join(sorted(names)))  # fmt: skip
            if version > SCHEMA_VERSION:
                raise StoreRefused("store/newer", db=self.path, version=version,
                                   supported=SCHEMA_VERSION)  # fmt: skip
            for step in range(version + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[step].split(";"):
                    if statement.strip():
                        db.execute(statement.encode())
            db.execute(
                "INSERT INTO herald_meta VALUES ('application', %s), ('schema_version', %s) "
                "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                (APPLICATION, str(SCHEMA_VERSION)),
            )

    @contextmanager
    def _tx(self) -> Iterator[psycopg.Connection[Any]]:
        """One transaction: committed on exit (durable once this returns), rolled back on error."""
        with self._lock, self._db.transaction():
            yield self._db

    def _new_id(self, cursor: Any) -> int:
        row = cursor.fetchone()
        assert row is not None
        return int(row["id"])

    def schema_version(self) -> int:
        with self._lock:
            row = self._db.execute(
                "SELECT value FROM herald_meta WHERE key = 'schema_version'"
            ).fetchone()
        return int(row["value"]) if row else 0
