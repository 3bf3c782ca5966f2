"""Durable duplicate detection for device events, keyed by ``(device, boot, seq)``, in windows.

Duplicates are normal, not exceptional: MQTT QoS 1 redelivers, devices resend until acked, a
replugged cable replays. The store lives in SQLite (WAL, ``synchronous=FULL`` so a commit is on
disk before the event is handed on), so a Herald restart does not accept an old roll twice.

A device counts its boots (one flash write per boot) and numbers its events from 1 in every
boot. Herald keeps, per device, a window for each of the last :data:`KEEP_BOOTS` boots it heard:
the recent seqs it accepted (:attr:`DedupStore.window` of them) above a *floor* at or below which
everything counts as seen. What arrives is checked against the window before anything else
(:meth:`DedupStore.check`), and a number far ahead of what the device has been sending is
**refused, not adopted**: a seq more than :data:`SEQ_AHEAD` past the boot's highest, or a boot
more than :data:`BOOT_AHEAD` past the newest, is nakked (``devices/seq-jump``,
``devices/boot-jump``) and changes nothing. So one spoofed ``seq = 2^53-1`` can no longer make
every later event of the real device look old. An event of a boot older than every window kept
is nakked ``devices/stale-boot`` with the newest boot, and the device starts a boot above it.

Re-pairing a device (:meth:`DedupStore.forget`) starts its numbering afresh: the host's way to
take back a device whose flash was wiped.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

SEQ_AHEAD = 1024
"""How far past a boot's highest accepted seq a new event may be. A device holds 32 unsent
events at most and starts a new boot long before it runs this far ahead of its acks."""

BOOT_AHEAD = 1024
"""How far past the newest boot Herald knows a device's next boot may be."""

KEEP_BOOTS = 4
"""Boot windows kept per device (older boots' late resends are nakked as stale)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS boot_seen (
    device TEXT NOT NULL,
    boot INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (device, boot, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS boot_window (
    device TEXT NOT NULL,
    boot INTEGER NOT NULL,
    floor INTEGER NOT NULL,
    high INTEGER NOT NULL,
    PRIMARY KEY (device, boot)
) WITHOUT ROWID;
"""

Verdict = Literal["new", "duplicate", "devices/seq-jump", "devices/boot-jump", "devices/stale-boot"]


@dataclass(frozen=True)
class Check:
    """What :meth:`DedupStore.check` found; ``newest`` is the newest boot Herald knows."""

    verdict: Verdict
    newest: int | None = None

    @property
    def refused(self) -> bool:
        return self.verdict not in ("new", "duplicate")


class DedupStore:
    """Remembers which ``(device, boot, seq)`` were accepted; safe to share between threads.

    Args:
        path: SQLite file, or ``":memory:"`` for tests that do not restart.
        window: Seqs kept per boot above its floor; older ones fold into the floor.
    """

    def __init__(self, path: str | Path, *, window: int = 4096) -> None:
        self.path = str(path)
        self.window = window
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the database; the next :class:`DedupStore` on the same file resumes."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> DedupStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ queries

    def _windows(self, device: str) -> dict[int, tuple[int, int]]:
        rows = self._db.execute(
            "SELECT boot, floor, high FROM boot_window WHERE device = ?", (device,)
        ).fetchall()
        return {int(b): (int(f), int(h)) for b, f, h in rows}

    def _check(self, device: str, seq: int, boot: int) -> Check:
        windows = self._windows(device)
        newest = max(windows) if windows else None
        if boot in windows:
            floor, high = windows[boot]
            if seq <= floor:
                return Check("duplicate", newest)
            hit = self._db.execute(
                "SELECT 1 FROM boot_seen WHERE device = ? AND boot = ? AND seq = ?",
                (device, boot, seq),
            ).fetchone()
            if hit is not None:
                return Check("duplicate", newest)
            return Check("new" if seq <= high + SEQ_AHEAD else "devices/seq-jump", newest)
        if newest is not None and boot < newest:
            return Check("devices/stale-boot", newest)
        if newest is not None and boot > newest + BOOT_AHEAD:
            return Check("devices/boot-jump", newest)
        return Check("new" if seq <= SEQ_AHEAD else "devices/seq-jump", newest)

    def check(self, device: str, seq: int, boot: int = 0) -> Check:
        """Whether ``(device, boot, seq)`` is new, a duplicate, or refused (a query)."""
        with self._lock:
            return self._check(device, seq, boot)

    def seen(self, device: str, seq: int, boot: int = 0) -> bool:
        """Whether ``(device, boot, seq)`` was already marked (a query: changes nothing)."""
        return self.check(device, seq, boot).verdict == "duplicate"

    def last_seq(self, device: str) -> int | None:
        """Highest seq marked in the device's newest boot, or None if none."""
        with self._lock:
            windows = self._windows(device)
            return windows[max(windows)][1] if windows else None

    def newest_boot(self, device: str) -> int | None:
        with self._lock:
            windows = self._windows(device)
            return max(windows) if windows else None

    # ------------------------------------------------------------------ changes

    def mark(self, device: str, seq: int, boot: int = 0) -> bool:
        """Record ``(device, boot, seq)``; True when it is new, False when seen or refused.

        The pair is committed (and fsynced) before this returns True, so a crash right after
        cannot make the same event new again.
        """
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                if self._check(device, seq, boot).verdict != "new":
                    db.execute("ROLLBACK")
                    return False
                db.execute("INSERT INTO boot_seen VALUES (?, ?, ?)", (device, boot, seq))
                row = db.execute(
                    "SELECT floor, high FROM boot_window WHERE device = ? AND boot = ?",
                    (device, boot),
                ).fetchone()
                floor, high = (int(row[0]), int(row[1])) if row else (0, 0)
                high = max(high, seq)
                new_floor = max(floor, high - self.window)
                if new_floor > floor:
                    db.execute(
                        "DELETE FROM boot_seen WHERE device = ? AND boot = ? AND seq <= ?",
                        (device, boot, new_floor),
                    )
                db.execute(
                    "INSERT INTO boot_window VALUES (?, ?, ?, ?) ON CONFLICT(device, boot) "
                    "DO UPDATE SET floor = excluded.floor, high = excluded.high",
                    (device, boot, new_floor, high),
                )
                self._prune_boots(device)
                db.execute("COMMIT")
                return True
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def _prune_boots(self, device: str) -> None:
        boots = sorted(self._windows(device), reverse=True)
        for old in boots[KEEP_BOOTS:]:
            self._db.execute("DELETE FROM boot_window WHERE device = ? AND boot = ?", (device, old))
            self._db.execute("DELETE FROM boot_seen WHERE device = ? AND boot = ?", (device, old))

    def unmark(self, device: str, seq: int, boot: int = 0) -> None:
        """Undo :meth:`mark` for one event whose consumer could not take it (in the window
        only; one folded into the floor stays seen)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "DELETE FROM boot_seen WHERE device = ? AND boot = ? AND seq = ?",
                (device, boot, seq),
            )
            self._db.execute("COMMIT")

    def forget(self, device: str) -> None:
        """Drop everything known about ``device`` (re-paired, or its flash was wiped)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM boot_seen WHERE device = ?", (device,))
            self._db.execute("DELETE FROM boot_window WHERE device = ?", (device,))
            self._db.execute("COMMIT")
