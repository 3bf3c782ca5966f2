"""Which device may speak for which seat: pairings, the pairing window and its codes.

A device's events count only once the host has paired it: a seat box to one seat, a dice tower
to the table. Two ways, both ending in :meth:`PairingDesk.pair`:

* **A code.** While the host has the pairing window open, the table display and the host page
  show one code per seat and one for the table, :data:`CODE_LENGTH` digits of 1–3 (1 confirm,
  2 pass, 3 undo: a seat box enters them with its three buttons). The device sends the code it
  was given (``pair`` message); the code names the seat (or the table) it is paired to. A wrong
  code counts against the window: after :data:`MAX_WRONG` the window closes. Codes change every
  time the window opens and it closes itself after :data:`WINDOW_SECONDS`.
* **The host's approval.** A device that spoke while unpaired is listed as pending (at most
  :data:`MAX_PENDING`, each forgotten after :data:`PENDING_SECONDS` unheard) and the host pairs
  it on the host page.

Pairings are kept in the ``.devices`` SQLite file beside the event store, so they survive a
restart; the host can unpair a device at any time. Why codes and not trust in ids: anything on
the LAN can publish under any device id on an open broker, so an id proves nothing; a code
proves someone could read the table display or the host page while the host was pairing.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CODE_LENGTH = 6
CODE_DIGITS = "123"
"""Code digits: a seat box's buttons in order (1 confirm, 2 pass, 3 undo)."""

WINDOW_SECONDS = 300.0
MAX_WRONG = 10
MAX_PENDING = 16
PENDING_SECONDS = 600.0

TABLE_TARGET = "table"
"""The target a dice tower is paired to (a seat box's target is its seat name)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS paired (
    device TEXT PRIMARY KEY,
    role TEXT NOT NULL,
    seat TEXT,
    device_kind TEXT,
    paired_at REAL NOT NULL,
    how TEXT NOT NULL
) WITHOUT ROWID;
"""


@dataclass(frozen=True)
class Pairing:
    """One device's pairing: ``role`` ``seat`` (with ``seat``) or ``table``."""

    device: str
    role: str
    seat: str | None = None
    device_kind: str | None = None
    how: str = "host"

    @property
    def label(self) -> str:
        """``seat:red`` or ``table``, as the device panel shows it."""
        return f"seat:{self.seat}" if self.role == "seat" else TABLE_TARGET

    def to_json(self) -> dict[str, Any]:
        return {"device": self.device, "role": self.role, "seat": self.seat, "how": self.how}


class PairingStore:
    """Pairings in SQLite (the ``.devices`` file), safe to share between threads."""

    def __init__(self, path: str | Path) -> None:
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        self._cache = {p.device: p for p in self._load()}

    def _load(self) -> list[Pairing]:
        rows = self._db.execute("SELECT device, role, seat, device_kind, how FROM paired")
        return [Pairing(d, r, s, k, h) for d, r, s, k, h in rows.fetchall()]

    def get(self, device: str) -> Pairing | None:
        with self._lock:
            return self._cache.get(device)

    def all(self) -> list[Pairing]:
        with self._lock:
            return [self._cache[k] for k in sorted(self._cache)]

    def put(self, pairing: Pairing) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO paired VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(device) DO UPDATE SET "
                "role = excluded.role, seat = excluded.seat, device_kind = excluded.device_kind,"
                " paired_at = excluded.paired_at, how = excluded.how",
                (pairing.device, pairing.role, pairing.seat, pairing.device_kind, time.time(),
                 pairing.how),
            )  # fmt: skip
            self._cache[pairing.device] = pairing

    def remove(self, device: str) -> bool:
        with self._lock:
            self._db.execute("DELETE FROM paired WHERE device = ?", (device,))
            return self._cache.pop(device, None) is not None

    def close(self) -> None:
        with self._lock:
            self._db.close()


def new_code(taken: set[str]) -> str:
    """A fresh code of :data:`CODE_LENGTH` digits from :data:`CODE_DIGITS`, not in ``taken``."""
    while True:
        code = "".join(secrets.choice(CODE_DIGITS) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


@dataclass(frozen=True)
class Pending:
    """An unpaired device that spoke recently (for the host page's approve list)."""

    device: str
    device_kind: str | None
    last_seen: float
    tried_code: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"device": self.device, "device_kind": self.device_kind,
                "tried_code": self.tried_code}  # fmt: skip


class PairingDesk:
    """Pairings, the pairing window and the pending list of one table.

    Args:
        store: Where pairings persist.
        seats: The table's seats (the targets of seat codes).
        clock: Monotonic seconds (window expiry, pending age), injected for tests.
    """

    def __init__(
        self,
        store: PairingStore,
        seats: tuple[str, ...],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.seats = seats
        self._clock = clock
        self._lock = threading.Lock()
        self._codes: dict[str, str] = {}  # code → target (seat name or "table")
        self._closes_at = 0.0
        self._wrong = 0
        self._pending: OrderedDict[str, Pending] = OrderedDict()

    # --- the window ----------------------------------------------------------------------------

    def open_window(self, seconds: float = WINDOW_SECONDS) -> dict[str, str]:
        """Open (or reopen, with new codes) the pairing window; returns target → code."""
        with self._lock:
            self._codes = {}
            for target in (*self.seats, TABLE_TARGET):
                self._codes[new_code(set(self._codes))] = target
            self._closes_at = self._clock() + seconds
            self._wrong = 0
            return {t: c for c, t in self._codes.items()}

    def close_window(self) -> None:
        with self._lock:
            self._codes, self._closes_at = {}, 0.0

    def codes(self) -> dict[str, str] | None:
        """Target → code while the window is open, else None."""
        with self._lock:
            if not self._open():
                return None
            return {t: c for c, t in self._codes.items()}

    def closes_in(self) -> float:
        with self._lock:
            return max(0.0, self._closes_at - self._clock()) if self._open() else 0.0

    def _open(self) -> bool:
        if self._codes and self._clock() >= self._closes_at:
            self._codes = {}
        return bool(self._codes)

    # --- pairing -------------------------------------------------------------------------------

    def get(self, device: str) -> Pairing | None:
        return self.store.get(device)

    def redeem(self, device: str, code: str, device_kind: str | None) -> Pairing | str:
        """Pair ``device`` by the code it sent; the pairing, or the refusal's catalog code."""
        with self._lock:
            if not self._open():
                return "devices/pairing-closed"
            target = self._codes.get(code)
            if target is None:
                self._wrong += 1
                if self._wrong >= MAX_WRONG:
                    self._codes = {}
                    return "devices/pairing-too-many"
                return "devices/bad-pair-code"
        return self.pair(device, None if target == TABLE_TARGET else target, device_kind, "code")

    def pair(
        self, device: str, seat: str | None, device_kind: str | None = None, how: str = "host"
    ) -> Pairing:
        """Pair ``device`` to ``seat`` (None: to the table), replacing any earlier pairing."""
        role = "table" if seat is None else "seat"
        pairing = Pairing(device, role, seat, device_kind, how)
        self.store.put(pairing)
        with self._lock:
            self._pending.pop(device, None)
        return pairing

    def unpair(self, device: str) -> bool:
        return self.store.remove(device)

    # --- pending -------------------------------------------------------------------------------

    def heard_unpaired(
        self, device: str, device_kind: str | None = None, *, tried_code: bool = False
    ) -> None:
        """An unpaired device spoke: list it as pending (bounded, oldest forgotten first)."""
        now = self._clock()
        with self._lock:
            old = self._pending.pop(device, None)
            kind = device_kind or (old.device_kind if old else None)
            tried = tried_code or (old.tried_code if old else False)
            self._pending[device] = Pending(device, kind, now, tried)
            self._expire(now)
            while len(self._pending) > MAX_PENDING:
                self._pending.popitem(last=False)

    def pending(self) -> list[Pending]:
        with self._lock:
            self._expire(self._clock())
            return list(self._pending.values())

    def is_pending(self, device: str) -> bool:
        with self._lock:
            return device in self._pending

    def _expire(self, now: float) -> None:
        while self._pending:
            device, entry = next(iter(self._pending.items()))
            if now - entry.last_seen < PENDING_SECONDS:
                return
            del self._pending[device]
