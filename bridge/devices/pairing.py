"""Which device may speak for which seat: pairings, the pairing window and its codes.

A device's events count only once the host has paired it: a seat box to one seat, a dice tower
to the table. Two ways, both ending in :meth:`PairingDesk.pair`:

* **A code.** While the host has the pairing window open, the host page (the table display
  opened with the host's link) shows one code for each seat that has no device yet and one for
  the table if it has none, :data:`CODE_LENGTH` digits of 1–3 (1 confirm, 2 pass, 3 undo: a seat
  box enters them with its three buttons). No viewer's or seat's page gets a code. The device
  sends the code it was given (``pair`` message); the code names the seat (or the table) it is
  paired to, and is then spent: one code pairs one device. A second device for a target that
  has one needs the host's approval.
* **The host's approval.** A device that spoke while unpaired is listed as pending (at most
  :data:`MAX_PENDING`, each forgotten after :data:`PENDING_SECONDS` unheard) and the host pairs
  it on the host page.

Guessing. A wrong code is counted against the device id that sent it and against the source it
came through (the broker connection or the serial port): each is made to wait before its next
code is looked at (:class:`Backoff`), and nobody but the host can close the window. After
:data:`GUESS_BUDGET` wrong codes in one window, from anyone, a right code no longer pairs by
itself: the device waits on the host page, marked with the target its code named, for the
host's approval. So a blind guesser's chance of a pairing in one window is at most
``GUESS_BUDGET × targets / 3**CODE_LENGTH`` (:func:`blind_chance`): with 8 seats and the table,
5 × 9 / 531,441 ≈ 1 in 11,800 (docs/security.md).

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

CODE_LENGTH = 12
CODE_DIGITS = "123"
"""Code digits: a seat box's buttons in order (1 confirm, 2 pass, 3 undo)."""

WINDOW_SECONDS = 300.0
GUESS_BUDGET = 5
"""Wrong codes in one window (from anyone) after which a right code needs the host's approval."""

DEVICE_WAIT = (0, 2.0, 60.0)
"""Per device id: wrong codes let through before waits start, the first wait, the longest (s)."""

SOURCE_WAIT = (3, 1.0, 10.0)
"""Per source (a broker connection, a serial port): the same, gentler (honest boxes share it)."""

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
CREATE TABLE IF NOT EXISTS setting (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
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

    def setting(self, key: str, make: Callable[[], str]) -> str:
        """A value kept beside the pairings (``make()`` writes it the first time): why the MQTT
        client id's random part lives here, so it stays the same across restarts."""
        with self._lock:
            row = self._db.execute("SELECT value FROM setting WHERE key = ?", (key,)).fetchone()
            if row is not None:
                return str(row[0])
            value = make()
            self._db.execute("INSERT INTO setting VALUES (?, ?)", (key, value))
            return value

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


def blind_chance(targets: int, budget: int = GUESS_BUDGET, length: int = CODE_LENGTH) -> float:
    """The most a blind guesser's chance of pairing in one window can be: only the first
    ``budget`` wrong codes can be followed by a code that pairs without the host, and each
    guess hits one of ``targets`` codes among ``3**length``."""
    space: int = len(CODE_DIGITS) ** length
    return budget * targets / space


@dataclass(frozen=True)
class Refusal:
    """Why a code did not pair: a catalog code; ``retry`` seconds to wait (``pair-wait``);
    ``target`` the seat (or table) a right code named when it awaits the host's approval."""

    code: str
    retry: float = 0.0
    target: str | None = None


class Backoff:
    """Wrong codes per key (device id or source), and how long a key must wait before its next
    code is looked at; bounded (the least recently heard keys go), since ids can be invented.

    Args:
        free: Wrong codes a key may send before it has to wait.
        first: The first wait (s); it doubles with each further wrong code.
        longest: The longest wait (s).
    """

    def __init__(self, free: int, first: float, longest: float, size: int = 1024) -> None:
        self.free, self.first, self.longest, self.size = free, first, longest, size
        self._keys: OrderedDict[str, tuple[int, float]] = OrderedDict()  # key → (wrong, until)

    def wait(self, key: str, now: float) -> float:
        """Seconds ``key`` must still wait (0: its code may be looked at now)."""
        entry = self._keys.get(key)
        return max(0.0, entry[1] - now) if entry else 0.0

    def wrong(self, key: str, now: float) -> int:
        """Count a wrong code of ``key``; returns how many it has sent."""
        count, _ = self._keys.pop(key, (0, 0.0))
        count += 1
        over = count - self.free
        until = now + min(self.first * 2 ** (over - 1), self.longest) if over > 0 else 0.0
        self._keys[key] = (count, until)
        while len(self._keys) > self.size:
            self._keys.popitem(last=False)
        return count

    def count(self, key: str) -> int:
        entry = self._keys.get(key)
        return entry[0] if entry else 0

    def clear(self) -> None:
        self._keys.clear()


@dataclass(frozen=True)
class Pending:
    """An unpaired device that spoke recently (for the host page's approve list); ``claims``:
    the target a right code of its named while pairing by code needed the host's approval."""

    device: str
    device_kind: str | None
    last_seen: float
    tried_code: bool = False
    claims: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"device": self.device, "device_kind": self.device_kind,
                "tried_code": self.tried_code, "claims": self.claims}  # fmt: skip


class PairingDesk:
    """Pairings, the pairing window and the pending list of one table.

    Args:
        store: Where pairings persist.
        seats: The table's seats (the targets of seat codes).
        clock: Monotonic seconds (window expiry, pending age, waits), injected for tests.
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
        self._by_device = Backoff(*DEVICE_WAIT)
        self._by_source = Backoff(*SOURCE_WAIT)
        self._pending: OrderedDict[str, Pending] = OrderedDict()

    # --- the window ----------------------------------------------------------------------------

    def open_window(self, seconds: float = WINDOW_SECONDS) -> dict[str, str]:
        """Open (or reopen, with new codes) the pairing window; returns target → code, for each
        target with no device paired to it (a second device needs the host's approval)."""
        with self._lock:
            taken = {p.label for p in self.store.all()}
            self._codes = {}
            for target in (*self.seats, TABLE_TARGET):
                label = TABLE_TARGET if target == TABLE_TARGET else f"seat:{target}"
                if label not in taken:
                    self._codes[new_code(set(self._codes))] = target
            self._closes_at = self._clock() + seconds
            self._wrong = 0
            self._by_device.clear()
            self._by_source.clear()
            return {t: c for c, t in self._codes.items()}

    def close_window(self) -> None:
        with self._lock:
            self._codes, self._closes_at = {}, 0.0

    def codes(self) -> dict[str, str] | None:
        """Target → code (the codes not spent yet) while the window is open, else None."""
        with self._lock:
            if not self._open():
                return None
            return {t: c for c, t in self._codes.items()}

    def closes_in(self) -> float:
        with self._lock:
            return max(0.0, self._closes_at - self._clock()) if self._open() else 0.0

    def wrong_codes(self) -> int:
        """Wrong codes sent in this window (after :data:`GUESS_BUDGET`, codes need approval)."""
        with self._lock:
            return self._wrong

    def waits(self, device: str, source: str = "") -> float:
        """Seconds before a code of ``device`` through ``source`` will be looked at."""
        now = self._clock()
        with self._lock:
            return max(self._by_device.wait(device, now), self._by_source.wait(source, now))

    def _open(self) -> bool:
        if self._closes_at and self._clock() >= self._closes_at:
            self._codes, self._closes_at = {}, 0.0
        return self._closes_at > 0.0

    # --- pairing -------------------------------------------------------------------------------

    def get(self, device: str) -> Pairing | None:
        return self.store.get(device)

    def redeem(
        self, device: str, code: str, device_kind: str | None, source: str = ""
    ) -> Pairing | Refusal:
        """Pair ``device`` by the code it sent through ``source``; the pairing, or why not.

        A device or source that sent wrong codes waits before its next code is looked at
        (``devices/pair-wait``, not counted); a wrong code counts for both and for the window;
        a right code is spent, or, past the window's :data:`GUESS_BUDGET`, leaves the device
        pending with the host (``devices/pair-approval``).
        """
        now = self._clock()
        with self._lock:
            if not self._open():
                return Refusal("devices/pairing-closed")
            wait = max(self._by_device.wait(device, now), self._by_source.wait(source, now))
            if wait > 0:
                return Refusal("devices/pair-wait", retry=wait)
            target = self._codes.get(code)
            if target is None:
                self._wrong += 1
                self._by_device.wrong(device, now)
                self._by_source.wrong(source, now)
                return Refusal("devices/bad-pair-code")
            if self._wrong >= GUESS_BUDGET:
                self._remember(device, device_kind, now, tried=True, claims=target)
                return Refusal("devices/pair-approval", target=target)
            del self._codes[code]  # spent: one code pairs one device
        return self.pair(device, None if target == TABLE_TARGET else target, device_kind, "code")

    def pair(
        self, device: str, seat: str | None, device_kind: str | None = None, how: str = "host"
    ) -> Pairing:
        """Pair ``device`` to ``seat`` (None: to the table), replacing any earlier pairing; the
        target's code, if one is still shown, is spent with it."""
        role = "table" if seat is None else "seat"
        pairing = Pairing(device, role, seat, device_kind, how)
        self.store.put(pairing)
        target = seat if seat is not None else TABLE_TARGET
        with self._lock:
            self._pending.pop(device, None)
            self._codes = {c: t for c, t in self._codes.items() if t != target}
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
            self._remember(device, device_kind, now, tried=tried_code)

    def _remember(
        self,
        device: str,
        device_kind: str | None,
        now: float,
        *,
        tried: bool = False,
        claims: str | None = None,
    ) -> None:
        old = self._pending.pop(device, None)
        kind = device_kind or (old.device_kind if old else None)
        tried = tried or (old.tried_code if old else False)
        claims = claims or (old.claims if old else None)
        self._pending[device] = Pending(device, kind, now, tried, claims)
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
