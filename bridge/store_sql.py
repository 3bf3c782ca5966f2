"""The event store's queries, written once for SQLite and PostgreSQL (issue #28, item 6).

Both backends keep the same four tables and make the same promises (``bridge.store_records``),
so every session, event, snapshot and frame statement is the same SQL; only the placeholder
differs (``?`` for ``sqlite3``, ``%s`` for psycopg), and ``Queries.with_placeholder`` rewrites
it once, when a backend's class is made. ``SqlEventStore`` runs those statements.

What stays in each backend, because the databases really differ there: opening and checking
the file or database (whose it is, its schema version, migrations), how a transaction begins
and serialises writers, how a new session's id comes back (``lastrowid`` or ``RETURNING``),
and which driver errors mean "already stored" or "connection lost". Those are the connection
layers, ``bridge.store`` (SQLite) and ``bridge.store_pg`` (PostgreSQL); they import this
module and ``bridge.store_records``, never each other.

Why not SQLAlchemy Core: the shared statements are a dozen lines of portable SQL, the parts
that differ (PRAGMAs, ``application_id``, advisory locks, ``quick_check``) would stay raw SQL
under it anyway, and a third-party import on every ``herald serve`` start and every CLI
command (bench/startup.py) would buy nothing the placeholder rewrite does not.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar, Protocol, TypeVar

from bridge.store_records import (
    SessionRow,
    Snapshot,
    StoredEvent,
    StoredFrame,
    StoreError,
    StoreUnavailable,
    Tokens,
    check_frame,
)
from engine import log

_LOG = logging.getLogger(__name__)
T = TypeVar("T")

RETRY_FOR = 5.0
"""Seconds a store call keeps reconnecting to a database that went away (a PostgreSQL restart
takes well under one) before it answers ``StoreUnavailable`` ("try again")."""


class Cursor(Protocol):
    """The part of a DB-API cursor the queries read (``sqlite3`` and psycopg alike)."""

    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    """The part of a DB-API connection the queries use: both drivers' ``execute`` shortcut,
    with rows read by column name (``sqlite3.Row``, psycopg's ``dict_row``)."""

    def execute(self, query: str, params: Any = ..., /) -> Any: ...
    def close(self) -> None: ...


def _sessions_where(where: str) -> str:
    """Sessions with their event count and last event time (``n``, ``updated``)."""
    join = "LEFT JOIN events e ON e.session_id = s.id"
    return (
        f"SELECT s.*, COUNT(e.seq) AS n, MAX(e.time) AS updated FROM sessions s {join} "
        f"{where}{' ' if where else ''}GROUP BY s.id ORDER BY s.id"
    )


def _upsert(table: str, columns: tuple[str, ...]) -> str:
    """Insert a row keyed by ``(session_id, seq)``, or overwrite the one with that key (the
    standard ``ON CONFLICT`` clause: SQLite since 3.24, PostgreSQL since 9.5)."""
    marks = ", ".join("?" for _ in columns)
    updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in columns if c not in ("session_id", "seq"))
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks}) "
        f"ON CONFLICT (session_id, seq) DO UPDATE SET {updates}"
    )


@dataclass(frozen=True)
class Queries:
    """Every statement the store runs once a database is open, in ``?`` (qmark) form.

    ``lock_session`` is the one statement a backend may go without: PostgreSQL serves a venue
    from several processes and locks the session's row before an append; SQLite's
    ``BEGIN IMMEDIATE`` already admits one writer at a time (``None``: no lock, no check).
    """

    insert_session: str = (
        "INSERT INTO sessions (table_id, game, header, tokens, created) VALUES (?, ?, ?, ?, ?)"
    )
    close_open_session: str = "UPDATE sessions SET status='closed' WHERE id=? AND status='open'"
    set_status: str = "UPDATE sessions SET status=? WHERE id=?"
    all_sessions: str = _sessions_where("")
    session: str = _sessions_where("WHERE s.id = ?")
    table_sessions: str = _sessions_where("WHERE s.table_id = ?")
    open_sessions: str = _sessions_where("WHERE s.table_id = ? AND s.status = 'open'")
    lock_session: str | None = None
    last_seq: str = "SELECT COALESCE(MAX(seq), 0) AS last FROM events WHERE session_id=?"
    insert_event: str = "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)"
    events: str = "SELECT * FROM events WHERE session_id=? AND seq>? ORDER BY seq"
    save_snapshot: str = _upsert("snapshots", ("session_id", "seq", "state_id", "time", "data"))
    latest_snapshot: str = "SELECT * FROM snapshots WHERE session_id=? ORDER BY seq DESC LIMIT 1"
    event_exists: str = "SELECT 1 FROM events WHERE session_id=? AND seq=?"
    event_at: str = "SELECT * FROM events WHERE session_id=? AND seq=?"
    save_frame: str = _upsert("frames", ("session_id", "seq", "time", "meta", "jpeg"))
    trim_frames: str = (
        "DELETE FROM frames WHERE session_id=? AND seq NOT IN (SELECT seq FROM frames "
        "WHERE session_id=? ORDER BY seq DESC LIMIT ?)"
    )
    frame: str = "SELECT * FROM frames WHERE session_id=? AND seq=?"
    frames: str = (
        "SELECT session_id, seq, time, meta, length(jpeg) AS size FROM frames "
        "WHERE session_id=? ORDER BY seq"
    )

    def with_placeholder(self, mark: str) -> Queries:
        """The same statements for a driver whose paramstyle writes ``mark`` for ``?`` (no
        statement holds a ``?`` or a ``%`` of its own)."""
        changes: dict[str, Any] = {}
        for f in fields(self):
            text = getattr(self, f.name)
            changes[f.name] = None if text is None else text.replace("?", mark)
        return replace(self, **changes)


class SqlEventStore(ABC):
    """The ``Store`` interface over one shared, lock-guarded connection; a backend subclass
    opens ``_db``, sets ``_queries`` and says how a transaction runs and a new id comes back.

    One connection is shared by the referee's threads behind ``_lock``: the database
    serialises writers anyway, and a single connection keeps the commit order equal to the
    ``seq`` order.
    """

    path: str
    max_frames: int
    """Camera frames kept per session (``FRAME_MAX_COUNT``)."""
    _db: Connection
    _lock: threading.RLock
    _queries: ClassVar[Queries]
    _duplicate_errors: ClassVar[tuple[type[Exception], ...]]
    """What the driver raises when an event's ``(session_id, seq)`` is already stored."""
    _lost_errors: ClassVar[tuple[type[Exception], ...]] = ()
    """Driver errors that mean the database server went away: the call reconnects and runs
    again (``_retrying``), and after ``retry_for`` seconds raises ``StoreUnavailable``."""
    retry_for: float = RETRY_FOR

    @abstractmethod
    def _reconnect(self) -> None:
        """Open a new connection in place of a lost one (``_lost_errors``)."""

    def _retrying(
        self, work: Callable[[Connection], T], write: bool = True, within: float | None = None
    ) -> T:
        """Run ``work`` in one transaction (``write``) or under the lock, reconnecting and
        running it again while the database is away, up to ``retry_for`` seconds.

        A write that failed may still have committed (the connection dropped after the commit,
        before its answer), so ``work`` must be safe to run twice: ``append`` checks whether its
        event is already the stored one. ``within``: another retry time than ``retry_for``.
        """
        deadline = time.monotonic() + (self.retry_for if within is None else within)
        delay = 0.05
        lost: Exception | None = None
        while True:
            try:
                if lost is not None:
                    self._reconnect()
                if write:
                    with self._tx() as db:
                        result = work(db)
                else:
                    with self._lock:
                        result = work(self._db)
                if lost is not None:
                    _LOG.warning("store %s: reconnected", self.path)
                return result
            except self._lost_errors as exc:
                if lost is None:
                    _LOG.warning("store %s: connection lost (%s); reconnecting", self.path,
                                 str(exc).strip().splitlines()[0] if str(exc).strip() else
                                 type(exc).__name__)  # fmt: skip
                lost = exc
                if time.monotonic() + delay > deadline:
                    raise StoreUnavailable(self.path, exc) from exc
                time.sleep(delay)
                delay = min(delay * 2, 0.5)

    def ping(self) -> None:
        """Ask the database for an answer (``/healthz``); ``StoreUnavailable`` when none comes
        (after one reconnection)."""
        within = min(self.retry_for, 1.0)
        self._retrying(lambda db: db.execute("SELECT 1").fetchone(), write=False, within=within)

    @abstractmethod
    def _tx(self) -> AbstractContextManager[Connection]:
        """One write transaction under ``_lock``: committed (durable) on exit, rolled back on
        error."""

    @abstractmethod
    def _new_id(self, cursor: Any) -> int:
        """The id of the session ``Queries.insert_session`` just inserted."""

    def _all(self, query: str, args: tuple[Any, ...]) -> list[Any]:
        return self._retrying(lambda db: list(db.execute(query, args).fetchall()), write=False)

    def _one(self, query: str, args: tuple[Any, ...]) -> Any:
        return self._retrying(lambda db: db.execute(query, args).fetchone(), write=False)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- sessions ----------------------------------------------------------------------------

    def _insert_session(
        self, db: Connection, table_id: str, header: log.Header, tokens: Tokens
    ) -> int:
        row = (
            table_id,
            header.game,
            json.dumps(header.to_json()),
            json.dumps(tokens.to_json()),
            time.time(),
        )
        return self._new_id(db.execute(self._queries.insert_session, row))

    def create_session(self, table_id: str, header: log.Header, tokens: Tokens) -> int:
        with self._tx() as db:  # not retried: a lost commit could open the session twice
            return self._insert_session(db, table_id, header, tokens)

    def replace_session(
        self, old_id: int, table_id: str, header: log.Header, tokens: Tokens
    ) -> int:
        """Close session ``old_id`` (unless it is ``over``) and open a new one, atomically.

        The host's "new game": one transaction, so a crash cannot close the old game without
        opening its successor (``herald serve --resume`` then finds one of the two, never none).
        """
        with self._tx() as db:
            db.execute(self._queries.close_open_session, (old_id,))
            return self._insert_session(db, table_id, header, tokens)

    def set_status(self, session_id: int, status: str) -> None:
        self._retrying(lambda db: db.execute(self._queries.set_status, (status, session_id)))

    def session(self, session_id: int) -> SessionRow | None:
        rows = self._all(self._queries.session, (session_id,))
        return session_row(rows[0]) if rows else None

    def sessions(self, table_id: str | None = None) -> list[SessionRow]:
        if table_id is None:
            rows = self._all(self._queries.all_sessions, ())
        else:
            rows = self._all(self._queries.table_sessions, (table_id,))
        return [session_row(r) for r in rows]

    def unfinished(self, table_id: str) -> SessionRow | None:
        """The newest open session of the table: what ``herald serve`` resumes by default."""
        rows = self._all(self._queries.open_sessions, (table_id,))
        return session_row(rows[-1]) if rows else None

    # --- events ------------------------------------------------------------------------------

    def append(
        self, session_id: int, seq: int, source: str, event: log.Event, state_id: int
    ) -> StoredEvent:
        """Commit one accepted event; returns only once it is durable.

        ``seq`` must be the next number of the session's log (no gap, no overwrite): a second
        referee writing to the same session fails here instead of forking the log. Where the
        backend has ``Queries.lock_session``, the session's row is locked first, so referees in
        other processes append to one session one at a time.
        """
        payload = event.to_json()
        stamp = time.time()
        q = self._queries
        text = json.dumps(payload)
        attempts = 0

        def write(db: Connection) -> StoredEvent:
            nonlocal attempts
            attempts += 1
            if q.lock_session and db.execute(q.lock_session, (session_id,)).fetchone() is None:
                raise StoreError(f"session {session_id}: no such session")
            last = db.execute(q.last_seq, (session_id,)).fetchone()["last"]
            if attempts > 1 and last == seq:
                # the connection went away after the commit: the event is stored, once
                row = db.execute(q.event_at, (session_id, seq)).fetchone()
                if (row["source"], row["kind"], row["payload"]) == (source, event.kind, text):
                    return stored_event(row)
            if seq != last + 1:
                raise StoreError(f"session {session_id}: event {seq} after {last}")
            db.execute(q.insert_event, (session_id, seq, stamp, source, event.kind, text, state_id))
            return StoredEvent(seq, stamp, source, event.kind, payload, state_id)

        try:
            return self._retrying(write)
        except self._duplicate_errors as exc:
            raise StoreError(f"session {session_id}: event {seq} already stored") from exc

    def events(self, session_id: int, after: int = 0) -> list[StoredEvent]:
        return [stored_event(r) for r in self._all(self._queries.events, (session_id, after))]

    # --- snapshots ---------------------------------------------------------------------------

    def save_snapshot(self, session_id: int, seq: int, state_id: int, data: dict[str, Any]) -> None:
        row = (session_id, seq, state_id, time.time(), json.dumps(data))
        self._retrying(lambda db: db.execute(self._queries.save_snapshot, row))

    def latest_snapshot(self, session_id: int) -> Snapshot | None:
        row = self._one(self._queries.latest_snapshot, (session_id,))
        if row is None:
            return None
        return Snapshot(row["seq"], row["state_id"], json.loads(row["data"]))

    # --- camera frames -----------------------------------------------------------------------

    def save_frame(
        self, session_id: int, seq: int, jpeg: bytes, meta: dict[str, Any]
    ) -> StoredFrame:
        """Keep the camera's picture of event ``seq`` (replacing one kept before); the session's
        oldest frames go past ``FRAME_MAX_COUNT``. ``StoreError``: over ``FRAME_MAX_BYTES``, not
        a JPEG, or no such event."""
        check_frame(jpeg)
        stamp = time.time()
        q = self._queries

        def write(db: Connection) -> None:
            if db.execute(q.event_exists, (session_id, seq)).fetchone() is None:
                raise StoreError(f"session {session_id}: no event {seq} for a camera frame")
            db.execute(q.save_frame, (session_id, seq, stamp, json.dumps(meta), jpeg))
            db.execute(q.trim_frames, (session_id, session_id, self.max_frames))

        self._retrying(write)
        return StoredFrame(seq, stamp, len(jpeg), meta, jpeg)

    def frame(self, session_id: int, seq: int) -> StoredFrame | None:
        row = self._one(self._queries.frame, (session_id, seq))
        return None if row is None else stored_frame(row, with_jpeg=True)

    def frames(self, session_id: int) -> list[StoredFrame]:
        """The session's kept frames in event order, without their pictures."""
        return [stored_frame(r) for r in self._all(self._queries.frames, (session_id,))]


def stored_frame(r: Any, with_jpeg: bool = False) -> StoredFrame:
    """A ``frames`` row, as both backends read it (``size`` selected, or the picture)."""
    jpeg = bytes(r["jpeg"]) if with_jpeg else b""
    size = len(jpeg) if with_jpeg else int(r["size"])
    return StoredFrame(int(r["seq"]), float(r["time"]), size, json.loads(r["meta"]), jpeg)


def session_row(r: Any) -> SessionRow:
    """A ``sessions`` row joined with its event count and last time (``n``, ``updated``), as
    both backends read it (an ``sqlite3.Row`` or a psycopg dict row)."""
    return SessionRow(
        id=int(r["id"]),
        table_id=r["table_id"],
        header=log.decode_header(json.loads(r["header"])),
        tokens=Tokens.from_json(json.loads(r["tokens"])),
        created=r["created"],
        status=r["status"],
        events=int(r["n"]),
        updated=r["updated"],
    )


def stored_event(r: Any) -> StoredEvent:
    """An ``events`` row, as both backends read it."""
    return StoredEvent(
        r["seq"], r["time"], r["source"], r["kind"], json.loads(r["payload"]), r["state_id"]
    )
