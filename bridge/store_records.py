"""What an event store holds and promises, whichever database keeps it: the records, the errors,
the limits and the ``Store`` interface.

Its own module so that the query layer (``bridge.store_sql``) and both connection layers
(``bridge.store`` for SQLite, ``bridge.store_pg`` for PostgreSQL) import it and not each other:
the PostgreSQL store used to import these from the SQLite module, which imported it back.
"""

from __future__ import annotations

from dataclasses import dataclass
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


class StoreUnavailable(StoreError):
    """The database stayed unreachable for the store's whole retry time; nothing was written
    (an event is acknowledged only once committed). The caller says "try again"."""

    code = "store/unavailable"

    def __init__(self, db: str, cause: BaseException) -> None:
        first = str(cause).strip().splitlines()
        self.reason = first[0] if first else type(cause).__name__
        super().__init__(message(self.code, db=db, reason=self.reason))


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
    """What the referee and the CLI need of an event store: the SQLite file
    (``bridge.store.EventStore``, the default) or a PostgreSQL database
    (``bridge.store_pg.PgEventStore``, for a venue); both are ``bridge.store_sql.SqlEventStore``."""

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
    def ping(self) -> None: ...
    def claim(self, table_id: str) -> None: ...
