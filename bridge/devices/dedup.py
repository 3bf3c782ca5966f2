"""Durable duplicate detection for device events, keyed by ``(device, seq)``.

Duplicates are normal, not exceptional: MQTT QoS 1 redelivers, devices resend until acked, a
replugged cable replays. The store lives in SQLite (WAL, ``synchronous=FULL`` so a commit is on
disk before the event is handed on), so a Herald restart does not accept an old roll twice.

Each device keeps the recent seqs it sent (a window of :attr:`DedupStore.window`) plus a
*floor*: every seq at or below the floor counts as seen. That bounds the table's size while
still rejecting a replay of anything old. Devices keep ``seq`` increasing across their own
reboots (the firmware reserves blocks of seqs in flash); a device whose memory was wiped starts
over from 1 and must be forgotten with :meth:`DedupStore.forget`.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

_SCHEMA = """
CREATE TABLE IF NOT EXISTS seen (
    device TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (device, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS floor (
    device TEXT PRIMARY KEY,
    seq INTEGER NOT NULL
) WITHOUT ROWID;
"""


class DedupStore:
    """Remembers which ``(device, seq)`` pairs were accepted; safe to share between threads.

    Args:
        path: SQLite file, or ``":memory:"`` for tests that do not restart.
        window: Seqs kept per device above the floor; older ones fold into the floor.
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

    def mark(self, device: str, seq: int) -> bool:
        """Record ``(device, seq)``; True when it is new, False when it was seen before.

        The pair is committed (and fsynced) before this returns True, so a crash right after
        cannot make the same event new again.
        """
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute("SELECT seq FROM floor WHERE device = ?", (device,)).fetchone()
                floor = row[0] if row else 0
                if seq <= floor:
                    db.execute("ROLLBACK")
                    return False
                cur = db.execute("INSERT OR IGNORE INTO seen VALUES (?, ?)", (device, seq))
                if cur.rowcount == 0:
                    db.execute("ROLLBACK")
                    return False
                self._prune(device, seq, floor)
                db.execute("COMMIT")
                return True
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def _prune(self, device: str, seq: int, floor: int) -> None:
        new_floor = seq - self.window
        if new_floor <= floor:
            return
        self._db.execute("DELETE FROM seen WHERE device = ? AND seq <= ?", (device, new_floor))
        self._db.execute(
            "INSERT INTO floor VALUES (?, ?) ON CONFLICT(device) DO UPDATE SET seq = excluded.seq",
            (device, new_floor),
        )

    def seen(self, device: str, seq: int) -> bool:
        """Whether ``(device, seq)`` was already marked (a query: changes nothing)."""
        with self._lock:
            row = self._db.execute("SELECT seq FROM floor WHERE device = ?", (device,)).fetchone()
            if row and seq <= row[0]:
                return True
            hit = self._db.execute(
                "SELECT 1 FROM seen WHERE device = ? AND seq = ?", (device, seq)
            ).fetchone()
            return hit is not None

    def last_seq(self, device: str) -> int | None:
        """Highest seq marked for ``device``, or None if none."""
        with self._lock:
            row = self._db.execute(
                "SELECT MAX(seq) FROM seen WHERE device = ?", (device,)
            ).fetchone()
            if row and row[0] is not None:
                return int(row[0])
            row = self._db.execute("SELECT seq FROM floor WHERE device = ?", (device,)).fetchone()
            return int(row[0]) if row else None

    def unmark(self, device: str, seq: int) -> None:
        """Undo :meth:`mark` for one pair whose event the consumer could not take.

        Only pairs still in the window can be undone; one already folded into the floor stays
        seen (it is far older than anything a device still resends).
        """
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM seen WHERE device = ? AND seq = ?", (device, seq))
            self._db.execute("COMMIT")

    def forget(self, device: str) -> None:
        """Drop everything known about ``device`` (after its seq counter was wiped)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM seen WHERE device = ?", (device,))
            self._db.execute("DELETE FROM floor WHERE device = ?", (device,))
            self._db.execute("COMMIT")
