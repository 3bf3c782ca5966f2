"""The event store on PostgreSQL, for a venue: many tables, several Herald processes, one database.

The same interface and the same promises as the SQLite store (``bridge.store``): an event is
acknowledged only after its transaction committed (PostgreSQL's default ``synchronous_commit``
makes a commit durable), ``append`` refuses a gap or an overwrite so two referees can never fork a
session's log, and a database that is not Herald's is refused before anything is written.

Why not share the SQL with the SQLite store: the two differ exactly where it matters (how a
database says whose it is, how writers are serialised, identity columns), and each backend's
dozen statements read best on their own. The store test suite runs over both (tests/server).

Whose database it is: the ``herald_meta`` table names the application and the schema version
(SQLite keeps the same facts in ``application_id`` and ``user_version``). A database whose
schema holds other tables and no ``herald_meta`` is another application's and is refused; a
newer schema version is refused; migrations (``MIGRATIONS``) run in order inside one
transaction under an advisory lock, so two processes starting at once do not both create.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg.rows import dict_row

from bridge.store import (
    APPLICATION_ID,
    FRAME_MAX_COUNT,
    SCHEMA_VERSION,
    SessionRow,
    Snapshot,
    StoredEvent,
    StoredFrame,
    StoreError,
    StoreRefused,
    Tokens,
    check_frame,
    session_row,
    stored_event,
    stored_frame,
)
from engine import log

APPLICATION = "herald"

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


def shown(url: str) -> str:
    """The URL as messages and logs may show it: without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


class PgEventStore:
    """PostgreSQL event store with ``bridge.store.EventStore``'s interface, thread-safe."""

    def __init__(self, url: str) -> None:
        """Connect, check whose the database is, migrate; ``StoreRefused`` when it cannot be
        used (unreachable, refused credentials, another application's tables, a newer schema),
        with nothing written."""
        self.path = shown(url)
        self.max_frames = FRAME_MAX_COUNT
        self._lock = threading.RLock()
        try:
            self._db = psycopg.connect(url, autocommit=True, row_factory=dict_row)
        except psycopg.Error as exc:
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise StoreRefused("store/cannot-connect", path_problem=True, db=self.path,
                               reason=reason) from exc  # fmt: skip
        try:
            self._migrate()
        except BaseException:
            self._db.close()
            raise

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

    def schema_version(self) -> int:
        with self._lock:
            row = self._db.execute(
                "SELECT value FROM herald_meta WHERE key = 'schema_version'"
            ).fetchone()
        return int(row["value"]) if row else 0

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- sessions ----------------------------------------------------------------------------

    def _insert_session(
        self, db: psycopg.Connection[Any], table_id: str, header: log.Header, tokens: Tokens
    ) -> int:
        row = db.execute(
            "INSERT INTO sessions (table_id, game, header, tokens, created) "
            "VALUES (%s, %s, %s, %s, %s) RETURNING id",
            (
                table_id,
                header.game,
                json.dumps(header.to_json()),
                json.dumps(tokens.to_json()),
                time.time(),
            ),
        ).fetchone()
        assert row is not None
        return int(row["id"])

    def create_session(self, table_id: str, header: log.Header, tokens: Tokens) -> int:
        with self._tx() as db:
            return self._insert_session(db, table_id, header, tokens)

    def replace_session(
        self, old_id: int, table_id: str, header: log.Header, tokens: Tokens
    ) -> int:
        """Close ``old_id`` (unless over) and open a new session in one transaction."""
        with self._tx() as db:
            db.execute("UPDATE sessions SET status='closed' WHERE id=%s AND status='open'",
                       (old_id,))  # fmt: skip
            return self._insert_session(db, table_id, header, tokens)

    def set_status(self, session_id: int, status: str) -> None:
        with self._tx() as db:
            db.execute("UPDATE sessions SET status=%s WHERE id=%s", (status, session_id))

    def session(self, session_id: int) -> SessionRow | None:
        rows = self._sessions("WHERE s.id = %s", (session_id,))
        return rows[0] if rows else None

    def sessions(self, table_id: str | None = None) -> list[SessionRow]:
        if table_id is None:
            return self._sessions("", ())
        return self._sessions("WHERE s.table_id = %s", (table_id,))

    def unfinished(self, table_id: str) -> SessionRow | None:
        rows = self._sessions("WHERE s.table_id = %s AND s.status = 'open'", (table_id,))
        return rows[-1] if rows else None

    def _sessions(self, where: str, args: tuple[Any, ...]) -> list[SessionRow]:
        query = (
            "SELECT s.*, COUNT(e.seq) AS n, MAX(e.time) AS updated FROM sessions s "
            f"LEFT JOIN events e ON e.session_id = s.id {where} GROUP BY s.id ORDER BY s.id"
        )
        with self._lock:
            rows = self._db.execute(query.encode(), args).fetchall()
        return [session_row(r) for r in rows]

    # --- events ------------------------------------------------------------------------------

    def append(
        self, session_id: int, seq: int, source: str, event: log.Event, state_id: int
    ) -> StoredEvent:
        """Commit one accepted event; returns only once it is durable. The session's row is
        locked first, so referees in other processes append to one session one at a time."""
        payload = event.to_json()
        stamp = time.time()
        try:
            with self._tx() as db:
                if db.execute("SELECT id FROM sessions WHERE id=%s FOR UPDATE",
                              (session_id,)).fetchone() is None:  # fmt: skip
                    raise StoreError(f"session {session_id}: no such session")
                last = db.execute(
                    "SELECT COALESCE(MAX(seq), 0) AS last FROM events WHERE session_id=%s",
                    (session_id,),
                ).fetchone()
                assert last is not None
                if seq != last["last"] + 1:
                    raise StoreError(f"session {session_id}: event {seq} after {last['last']}")
                db.execute(
                    "INSERT INTO events VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    (session_id, seq, stamp, source, event.kind, json.dumps(payload), state_id),
                )
        except psycopg.errors.UniqueViolation as exc:
            raise StoreError(f"session {session_id}: event {seq} already stored") from exc
        except psycopg.OperationalError as exc:
            raise StoreError(f"{self.path}: {exc}") from exc
        return StoredEvent(seq, stamp, source, event.kind, payload, state_id)

    def events(self, session_id: int, after: int = 0) -> list[StoredEvent]:
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM events WHERE session_id=%s AND seq>%s ORDER BY seq",
                (session_id, after),
            ).fetchall()
        return [stored_event(r) for r in rows]

    # --- snapshots ---------------------------------------------------------------------------

    def save_snapshot(self, session_id: int, seq: int, state_id: int, data: dict[str, Any]) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO snapshots VALUES (%s, %s, %s, %s, %s) ON CONFLICT (session_id, seq) "
                "DO UPDATE SET state_id = EXCLUDED.state_id, time = EXCLUDED.time, "
                "data = EXCLUDED.data",
                (session_id, seq, state_id, time.time(), json.dumps(data)),
            )

    def latest_snapshot(self, session_id: int) -> Snapshot | None:
        with self._lock:
            row = self._db.execute(
                "SELECT * FROM snapshots WHERE session_id=%s ORDER BY seq DESC LIMIT 1",
                (session_id,),
            ).fetchone()
        if row is None:
            return None
        return Snapshot(row["seq"], row["state_id"], json.loads(row["data"]))

    # --- camera frames -----------------------------------------------------------------------

    def save_frame(
        self, session_id: int, seq: int, jpeg: bytes, meta: dict[str, Any]
    ) -> StoredFrame:
        """As ``EventStore.save_frame``."""
        check_frame(jpeg)
        stamp = time.time()
        with self._tx() as db:
            if db.execute("SELECT 1 FROM events WHERE session_id=%s AND seq=%s",
                          (session_id, seq)).fetchone() is None:  # fmt: skip
                raise StoreError(f"session {session_id}: no event {seq} for a camera frame")
            db.execute(
                "INSERT INTO frames VALUES (%s, %s, %s, %s, %s) ON CONFLICT (session_id, seq) "
                "DO UPDATE SET time = EXCLUDED.time, meta = EXCLUDED.meta, jpeg = EXCLUDED.jpeg",
                (session_id, seq, stamp, json.dumps(meta), jpeg),
            )
            db.execute(
                "DELETE FROM frames WHERE session_id=%s AND seq NOT IN (SELECT seq FROM frames "
                "WHERE session_id=%s ORDER BY seq DESC LIMIT %s)",
                (session_id, session_id, self.max_frames),
            )
        return StoredFrame(seq, stamp, len(jpeg), meta, jpeg)

    def frame(self, session_id: int, seq: int) -> StoredFrame | None:
        with self._lock:
            row = self._db.execute(
                "SELECT * FROM frames WHERE session_id=%s AND seq=%s", (session_id, seq)
            ).fetchone()
        return None if row is None else stored_frame(row, with_jpeg=True)

    def frames(self, session_id: int) -> list[StoredFrame]:
        with self._lock:
            rows = self._db.execute(
                "SELECT session_id, seq, time, meta, octet_length(jpeg) AS size FROM frames "
                "WHERE session_id=%s ORDER BY seq",
                (session_id,),
            ).fetchall()
        return [stored_frame(r) for r in rows]
