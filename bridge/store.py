"""The event store: every accepted event of every table session, durable before it is acknowledged.

A table session is its log (DESIGN.md, event sourcing). SQLite runs in WAL mode with
``synchronous=FULL`` so a committed transaction survives a power cut, not just a crash of the
process; the referee tells a client an event was accepted only after ``append`` returned, i.e.
after the commit. Snapshots are an optimisation: resuming loads the latest one and replays only
the events after it, and the result must equal a replay from the start (tested).

This module is the SQLite connection layer (``EventStore``: the file's checks, its PRAGMAs, its
transactions) and ``open_store``, which picks the backend a ``--db``/``--store`` names. The
queries are ``bridge.store_sql``'s, shared with the PostgreSQL store; the records, errors and
limits are ``bridge.store_records``'s, re-exported here under the names callers have always
imported.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import stat
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bridge.store_records import (
    APPLICATION_ID,
    FRAME_MAX_BYTES,
    FRAME_MAX_COUNT,
    FRAME_MAX_SIDE,
    SCHEMA_VERSION,
    SessionRow,
    Snapshot,
    Store,
    StoredEvent,
    StoredFrame,
    StoreError,
    StoreRefused,
    StoreUnavailable,
    Tokens,
    check_frame,
)
from bridge.store_sql import Queries, SqlEventStore

__all__ = [
    "APPLICATION_ID",
    "FRAME_MAX_BYTES",
    "FRAME_MAX_COUNT",
    "FRAME_MAX_SIDE",
    "SCHEMA_VERSION",
    "EventStore",
    "SessionRow",
    "Snapshot",
    "Store",
    "StoreError",
    "StoreRefused",
    "StoreUnavailable",
    "StoredEvent",
    "StoredFrame",
    "Tokens",
    "check_frame",
    "create_private",
    "is_url",
    "open_store",
]

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


class EventStore(SqlEventStore):
    """SQLite event store (WAL, ``synchronous=FULL``), safe to share between threads."""

    _db: sqlite3.Connection
    _queries = Queries()
    _duplicate_errors = (sqlite3.IntegrityError,)

    def __init__(self, path: str | Path) -> None:
        """Open (or create) the store at ``path``; ``StoreRefused`` when it cannot be used.

        Before anything is written the file is checked: an SQLite database of another
        application (another ``application_id``, or tables of its own) and a damaged store
        (``PRAGMA quick_check``) are refused and left byte for byte as they were.
        """
        self.path = str(path)
        self.max_frames = FRAME_MAX_COUNT
        self._lock = threading.RLock()
        self._claims: list[int] = []
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

    def _reconnect(self) -> None:
        """Never needed: SQLite's connection is to a file, it has no server to lose."""

    def claim(self, table_id: str) -> None:
        """Make this process the one referee of ``table_id`` in this file, until it closes the
        store or exits (even by a crash: the lock is the system's). A second ``herald serve``
        on the same table gets ``StoreRefused`` (``store/table-taken``) before it writes; two
        referees would each append to the log the other is also appending to.

        The lock is a byte of the file ``<db>.lock`` (one byte per table), not of the store
        itself: SQLite's own locks on the store are POSIX locks too, and closing any other
        descriptor of it would drop them all."""
        if self.path == ":memory:":
            return
        fd = os.open(self.path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, zlib.crc32(table_id.encode()))
        except OSError as exc:
            os.close(fd)
            raise StoreRefused("store/table-taken", db=self.path, table_id=table_id) from exc
        self._claims.append(fd)

    def close(self) -> None:
        super().close()
        for fd in self._claims:
            os.close(fd)
        self._claims.clear()

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

    def _new_id(self, cursor: Any) -> int:
        return int(cursor.lastrowid or 0)

    def pragma(self, name: str) -> Any:
        with self._lock:
            return self._db.execute(f"PRAGMA {name}").fetchone()[0]


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
