"""The event store: every accepted event of every table session, durable before it is acknowledged.

A table session is its log (DESIGN.md, event sourcing). SQLite runs in WAL mode with
``synchronous=FULL`` so a committed transaction survives a power cut, not just a crash of the
process; the referee tells a client an event was accepted only after ``append`` returned, i.e.
after the commit. Snapshots are an optimisation: resuming loads the latest one and replays only
the events after it, and the result must equal a replay from the start (tested).

One connection is shared by the referee's threads behind a lock: SQLite serialises writers
anyway, and a single connection keeps the commit order equal to the ``seq`` order.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from engine import log
from engine.i18n import message

SCHEMA_VERSION = 2
"""1: sessions, events, snapshots; 2: ``frames``, the camera's picture of each move it read."""

FRAME_MAX_BYTES = 120_000
"""Largest stored camera frame (a JPEG; ``bridge.evidence`` lowers the quality to fit)."""

FRAME_MAX_SIDE = 800
"""Stored camera frames are scaled down to at most this many pixels wide and high."""

FRAME_MAX_COUNT = 500
"""Camera frames kept per session: past it, the oldest is dropped when a new one is saved (at most
``FRAME_MAX_COUNT * FRAME_MAX_BYTES``, 60 MB, per session)."""

APPLICATION_ID = 0x48524C44
"""``PRAGMA application_id`` of every Herald event store: "HRLD" in ASCII (1213353028).

SQLite keeps it in the file header (offset 68), so ``file(1)`` and Herald itself can tell a
Herald store from another application's database before touching it."""

OUR_TABLES = frozenset({"sessions", "events", "snapshots"})
"""The tables of a Herald store before version 2; a store made before ``APPLICATION_ID`` was set
has exactly these (plus SQLite's own ``sqlite_sequence``) and ``user_version`` 1, and is adopted
(and migrated: ``_SCHEMA`` creates what a newer version adds)."""

NEWER_TABLES = frozenset({"frames"})
"""The tables later schema versions added (2: ``frames``)."""

PRIVATE_MODE = 0o600
"""The store holds the seats' join tokens in clear: only its owner may read it."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT    NOT NULL,
    game     TEXT    NOT NULL,
    header   TEXT    NOT NULL,
    tokens   TEXT    NOT NULL,
    created  REAL    NOT NULL,
    status   TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'over', 'closed'))
);
CREATE INDEX IF NOT EXISTS sessions_by_table ON sessions (table_id, status);
CREATE TABLE IF NOT EXISTS events (
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    seq        INTEGER NOT NULL,
    time       REAL    NOT NULL,
    source     TEXT    NOT NULL,
    kind       TEXT    NOT NULL,
    payload    TEXT    NOT NULL,
    state_id   INTEGER NOT NULL,
    PRIMARY KEY (session_id, seq)
);
CREATE TABLE IF NOT EXISTS snapshots (
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    seq        INTEGER NOT NULL,
    state_id   INTEGER NOT NULL,
    time       REAL    NOT NULL,
    data       TEXT    NOT NULL,
    PRIMARY KEY (session_id, seq)
);
CREATE TABLE IF NOT EXISTS frames (
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    seq        INTEGER NOT NULL,
    time       REAL    NOT NULL,
    meta       TEXT    NOT NULL,
    jpeg       BLOB    NOT NULL,
    PRIMARY KEY (session_id, seq)
);
"""


class StoreError(Exception):
    """The database is not a Herald event store, or a write broke the log's invariants."""


class StoreRefused(StoreError):
    """The store cannot be opened as asked; nothing was changed.

    ``code`` is a message-catalog code (``store/...``) and ``params`` its parameters; the text is
    the English sentence. ``path_problem`` is True when the ``--db`` path itself is unusable (a
    folder, a missing folder, no permission), which ``herald serve`` reports as a usage error.
    """

    def __init__(self, code: str, *, path_problem: bool = False, **params: Any) -> None:
        self.code = code
        self.params = params
        self.path_problem = path_problem
        super().__init__(message(code, **params))


def create_private(path: str | Path, *, tighten: bool = False) -> None:
    """Create ``path`` empty with mode 0600 unless it exists; with ``tighten`` an existing file
    loses any group and other permission bits.

    SQLite gives a database's ``-wal`` and ``-shm`` files the database file's own mode, so
    creating the file first (before SQLite does, with the process umask) keeps the tokens in
    all three private. Errors are the caller's to report (``OSError``).
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE)
    except FileExistsError:
        if tighten:
            _tighten(Path(path))
        return
    os.close(fd)


def _tighten(path: Path) -> None:
    """Drop group and other permissions of an existing regular file (best effort: a file of
    another user keeps its mode)."""
    try:
        mode = path.stat().st_mode
        if stat.S_ISREG(mode) and mode & 0o077:
            path.chmod(stat.S_IMODE(mode) & 0o700)
    except OSError:
        pass


@dataclass(frozen=True)
class Tokens:
    """The secrets of one session: the host token and one join token per seat."""

    host: str
    seats: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        return {"host": self.host, "seats": dict(self.seats)}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Tokens:
        return Tokens(str(data["host"]), {str(k): str(v) for k, v in data["seats"].items()})


@dataclass(frozen=True)
class SessionRow:
    """One stored session (a game played at a table), without its events."""

    id: int
    table_id: str
    header: log.Header
    tokens: Tokens
    created: float
    status: str
    events: int
    updated: float | None


@dataclass(frozen=True)
class StoredEvent:
    """One accepted event as committed: ``payload`` is the log line (``Event.to_json()``)."""

    seq: int
    time: float
    source: str
    kind: str
    payload: dict[str, Any]
    state_id: int


@dataclass(frozen=True)
class Snapshot:
    """A saved session after event ``seq``: the engine session plus the referee's extras."""

    seq: int
    state_id: int
    data: dict[str, Any]


@dataclass(frozen=True)
class StoredFrame:
    """The camera's picture of the move logged as event ``seq`` (``jpeg`` empty when only the
    list was asked for); ``meta`` holds its size and the outlined regions."""

    seq: int
    time: float
    size: int
    meta: dict[str, Any]
    jpeg: bytes = b""


def check_frame(jpeg: bytes) -> None:
    """Refuse a frame over ``FRAME_MAX_BYTES`` or that is not a JPEG (``StoreError``)."""
    if len(jpeg) > FRAME_MAX_BYTES:
        raise StoreError(f"camera frame of {len(jpeg)} bytes (limit {FRAME_MAX_BYTES})")
    if not jpeg.startswith(b"\xff\xd8"):
        raise StoreError("camera frame is not a JPEG")


class Store(Protocol):
    """What the referee and the CLI need of an event store: the SQLite file (``EventStore``,
    the default) or a PostgreSQL database (``bridge.store_pg.PgEventStore``, for a venue)."""

    path: str
    max_frames: int
    """Camera frames kept per session (``FRAME_MAX_COUNT``)."""

    def close(self) -> None: ...
    def create_session(self, table_id: str, header: log.Header, tokens: Tokens) -> int: ...
    def replace_session(
        self, old_id: int, table_id: str, header: log.Header, tokens: Tokens
    ) -> int: ...
    def set_status(self, session_id: int, status: str) -> None: ...
    def session(self, session_id: int) -> SessionRow | None: ...
    def sessions(self, table_id: str | None = None) -> list[SessionRow]: ...
    def unfinished(self, table_id: str) -> SessionRow | None: ...
    def append(
        self, session_id: int, seq: int, source: str, event: log.Event, state_id: int
    ) -> StoredEvent: ...
    def events(self, session_id: int, after: int = 0) -> list[StoredEvent]: ...
    def save_snapshot(
        self, session_id: int, seq: int, state_id: int, data: dict[str, Any]
    ) -> None: ...
    def latest_snapshot(self, session_id: int) -> Snapshot | None: ...
    def save_frame(
        self, session_id: int, seq: int, jpeg: bytes, meta: dict[str, Any]
    ) -> StoredFrame: ...
    def frame(self, session_id: int, seq: int) -> StoredFrame | None: ...
    def frames(self, session_id: int) -> list[StoredFrame]: ...


def is_url(target: str) -> bool:
    """Whether a store's name is a PostgreSQL URL rather than the path of an SQLite file."""
    return target.startswith(("postgresql://", "postgres://"))


def open_store(target: str | Path) -> Store:
    """The store ``target`` names: a ``postgresql://`` URL or the path of an SQLite file."""
    text = str(target)
    if is_url(text):
        from bridge.store_pg import PgEventStore  # only a venue needs the PostgreSQL driver

        return PgEventStore(text)
    return EventStore(text)


class EventStore:
    """SQLite event store (WAL, ``synchronous=FULL``), safe to share between threads."""

    def __init__(self, path: str | Path) -> None:
        """Open (or create) the store at ``path``; ``StoreRefused`` when it cannot be used.

        Before anything is written the file is checked: an SQLite database of another
        application (another ``application_id``, or tables of its own) and a damaged store
        (``PRAGMA quick_check``) are refused and left byte for byte as they were.
        """
        self.path = str(path)
        self.max_frames = FRAME_MAX_COUNT
        self._lock = threading.RLock()
        memory = self.path == ":memory:"
        if not memory:
            _prepare_file(Path(self.path))
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreRefused("store/cannot-open", path_problem=True, db=self.path,
                               reason=str(exc)) from exc  # fmt: skip
        self._db.row_factory = sqlite3.Row
        try:
            if not memory:
                self._check()
            self._setup()
            for suffix in ("", "-wal", "-shm"):  # a store an older Herald made 0644
                if not memory:
                    _tighten(Path(self.path + suffix))
        except StoreError:
            self._db.close()
            raise
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise _refusal(self.path, exc) from exc

    def _check(self) -> None:
        """Refuse, before any write, a file that is not an empty database or a sound store of
        ours. Only reads: a refused file is left exactly as it was."""
        db = self._db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        names.discard("sqlite_sequence")
        objects = db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]
        empty = app_id == 0 and version == 0 and objects == 0
        ours = OUR_TABLES <= names <= OUR_TABLES | NEWER_TABLES
        legacy = app_id == 0 and 1 <= version <= SCHEMA_VERSION and ours
        if app_id != APPLICATION_ID and not empty and not legacy:
            shown = ", ".join(sorted(names)) or "-"
            raise StoreRefused("store/foreign", db=self.path, app_id=f"0x{app_id:08x}",
                               tables=shown)  # fmt: skip
        if version > SCHEMA_VERSION:
            raise StoreRefused("store/newer", db=self.path, version=version,
                               supported=SCHEMA_VERSION)  # fmt: skip
        problems = [r[0] for r in db.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise StoreRefused("store/malformed", db=self.path, detail="; ".join(problems))

    def _setup(self) -> None:
        mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal" and self.path != ":memory:":
            raise StoreError(f"{self.path}: could not switch to WAL journal mode (got {mode})")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        with self._tx() as db:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed (and fsynced) on exit, rolled back on error."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def pragma(self, name: str) -> Any:
        with self._lock:
            return self._db.execute(f"PRAGMA {name}").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- sessions ----------------------------------------------------------------------------

    def create_session(self, table_id: str, header: log.Header, tokens: Tokens) -> int:
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO sessions (table_id, game, header, tokens, created) VALUES (?,?,?,?,?)",
                (
                    table_id,
                    header.game,
                    json.dumps(header.to_json()),
                    json.dumps(tokens.to_json()),
                    time.time(),
                ),
            )
            return int(cur.lastrowid or 0)

    def replace_session(
        self, old_id: int, table_id: str, header: log.Header, tokens: Tokens
    ) -> int:
        """Close session ``old_id`` (unless it is ``over``) and open a new one, atomically.

        The host's "new game": one transaction, so a crash cannot close the old game without
        opening its successor (``herald serve --resume`` then finds one of the two, never none).
        """
        with self._tx() as db:
            db.execute(
                "UPDATE sessions SET status='closed' WHERE id=? AND status='open'", (old_id,)
            )
            cur = db.execute(
                "INSERT INTO sessions (table_id, game, header, tokens, created) VALUES (?,?,?,?,?)",
                (
                    table_id,
                    header.game,
                    json.dumps(header.to_json()),
                    json.dumps(tokens.to_json()),
                    time.time(),
                ),
            )
            return int(cur.lastrowid or 0)

    def set_status(self, session_id: int, status: str) -> None:
        with self._tx() as db:
            db.execute("UPDATE sessions SET status=? WHERE id=?", (status, session_id))

    def session(self, session_id: int) -> SessionRow | None:
        rows = self._sessions("WHERE s.id = ?", (session_id,))
        return rows[0] if rows else None

    def sessions(self, table_id: str | None = None) -> list[SessionRow]:
        if table_id is None:
            return self._sessions("", ())
        return self._sessions("WHERE s.table_id = ?", (table_id,))

    def unfinished(self, table_id: str) -> SessionRow | None:
        """The newest open session of the table: what ``herald serve`` resumes by default."""
        rows = self._sessions("WHERE s.table_id = ? AND s.status = 'open'", (table_id,))
        return rows[-1] if rows else None

    def _sessions(self, where: str, args: tuple[Any, ...]) -> list[SessionRow]:
        query = (
            "SELECT s.*, COUNT(e.seq) AS n, MAX(e.time) AS updated FROM sessions s "
            f"LEFT JOIN events e ON e.session_id = s.id {where} GROUP BY s.id ORDER BY s.id"
        )
        with self._lock:
            rows = self._db.execute(query, args).fetchall()
        return [session_row(r) for r in rows]

    # --- events ------------------------------------------------------------------------------

    def append(
        self, session_id: int, seq: int, source: str, event: log.Event, state_id: int
    ) -> StoredEvent:
        """Commit one accepted event; returns only once it is durable.

        ``seq`` must be the next number of the session's log (no gap, no overwrite): a second
        referee writing to the same session fails here instead of forking the log.
        """
        payload = event.to_json()
        stamp = time.time()
        try:
            with self._tx() as db:
                last = db.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id=?", (session_id,)
                ).fetchone()[0]
                if seq != last + 1:
                    raise StoreError(f"session {session_id}: event {seq} after {last}")
                db.execute(
                    "INSERT INTO events VALUES (?,?,?,?,?,?,?)",
                    (session_id, seq, stamp, source, event.kind, json.dumps(payload), state_id),
                )
        except sqlite3.IntegrityError as exc:
            raise StoreError(f"session {session_id}: event {seq} already stored") from exc
        return StoredEvent(seq, stamp, source, event.kind, payload, state_id)

    def events(self, session_id: int, after: int = 0) -> list[StoredEvent]:
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM events WHERE session_id=? AND seq>? ORDER BY seq",
                (session_id, after),
            ).fetchall()
        return [stored_event(r) for r in rows]

    # --- snapshots ---------------------------------------------------------------------------

    def save_snapshot(self, session_id: int, seq: int, state_id: int, data: dict[str, Any]) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT OR REPLACE INTO snapshots VALUES (?,?,?,?,?)",
                (session_id, seq, state_id, time.time(), json.dumps(data)),
            )

    def latest_snapshot(self, session_id: int) -> Snapshot | None:
        with self._lock:
            row = self._db.execute(
                "SELECT * FROM snapshots WHERE session_id=? ORDER BY seq DESC LIMIT 1",
                (session_id,),
            ).fetchone()
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
        with self._tx() as db:
            if db.execute("SELECT 1 FROM events WHERE session_id=? AND seq=?",
                          (session_id, seq)).fetchone() is None:  # fmt: skip
                raise StoreError(f"session {session_id}: no event {seq} for a camera frame")
            db.execute("INSERT OR REPLACE INTO frames VALUES (?,?,?,?,?)",
                       (session_id, seq, stamp, json.dumps(meta), jpeg))  # fmt: skip
            db.execute(
                "DELETE FROM frames WHERE session_id=? AND seq NOT IN (SELECT seq FROM frames "
                "WHERE session_id=? ORDER BY seq DESC LIMIT ?)",
                (session_id, session_id, self.max_frames),
            )
        return StoredFrame(seq, stamp, len(jpeg), meta, jpeg)

    def frame(self, session_id: int, seq: int) -> StoredFrame | None:
        with self._lock:
            row = self._db.execute(
                "SELECT * FROM frames WHERE session_id=? AND seq=?", (session_id, seq)
            ).fetchone()
        return None if row is None else stored_frame(row, with_jpeg=True)

    def frames(self, session_id: int) -> list[StoredFrame]:
        """The session's kept frames in event order, without their pictures."""
        with self._lock:
            rows = self._db.execute(
                "SELECT session_id, seq, time, meta, length(jpeg) AS size FROM frames "
                "WHERE session_id=? ORDER BY seq",
                (session_id,),
            ).fetchall()
        return [stored_frame(r) for r in rows]


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


def _prepare_file(path: Path) -> None:
    """Check that ``path`` can hold a store and create it (0600) if it does not exist yet."""
    db = str(path)
    try:
        if path.is_dir():
            raise StoreRefused("store/is-folder", path_problem=True, db=db)
        folder = path.parent
        if not folder.is_dir():
            code = "store/folder-is-file" if folder.exists() else "store/no-folder"
            raise StoreRefused(code, path_problem=True, db=db, folder=str(folder))
        create_private(path)
    except OSError as exc:
        raise StoreRefused("store/cannot-create", path_problem=True, db=db,
                           reason=exc.strerror or str(exc)) from exc  # fmt: skip


def _refusal(path: str, exc: sqlite3.DatabaseError) -> StoreRefused:
    """The sentence for an SQLite error met while opening ``path``."""
    text = str(exc)
    if "not a database" in text:
        return StoreRefused("store/not-sqlite", db=path)
    if "malformed" in text or "corrupt" in text:
        return StoreRefused("store/malformed", db=path, detail=text)
    if "readonly" in text or "unable to open" in text or "disk I/O" in text:
        return StoreRefused("store/cannot-write", path_problem=True, db=path, reason=text)
    return StoreRefused("store/cannot-open", path_problem=True, db=path, reason=text)
