"""The durable (device, seq) filter."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from bridge.devices.dedup import DedupStore


def test_marks_once_and_survives_restart(tmp_path: Path) -> None:
    db = tmp_path / "dedup.db"
    with DedupStore(db) as store:
        assert store.mark("a", 1) and store.mark("a", 2) and store.mark("b", 1)
        assert not store.mark("a", 1)
    with DedupStore(db) as store:  # a Herald restart
        assert not store.mark("a", 2) and not store.mark("b", 1)
        assert store.mark("a", 3)
        assert store.last_seq("a") == 3 and store.last_seq("zz") is None
    mode = sqlite3.connect(db).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_window_folds_into_a_floor_that_still_rejects_old_seqs(tmp_path: Path) -> None:
    with DedupStore(tmp_path / "d.db", window=10) as store:
        for seq in range(1, 101):
            assert store.mark("a", seq)
        rows = store._db.execute("SELECT COUNT(*) FROM boot_seen").fetchone()[0]
        assert rows <= 11
        assert not store.mark("a", 5)  # below the floor: seen
        assert store.seen("a", 50) and not store.seen("a", 101)
        assert store.mark("a", 95) is False
        assert store.last_seq("a") == 100


def test_out_of_order_arrivals_inside_the_window(tmp_path: Path) -> None:
    with DedupStore(tmp_path / "d.db") as store:
        assert store.mark("a", 5) and store.mark("a", 3) and store.mark("a", 4)
        assert not store.mark("a", 3)


def test_unmark_and_forget(tmp_path: Path) -> None:
    with DedupStore(tmp_path / "d.db") as store:
        store.mark("a", 1)
        store.unmark("a", 1)
        assert store.mark("a", 1)
        store.forget("a")  # the device's seq memory was wiped
        assert store.mark("a", 1)


def test_concurrent_marks_accept_each_pair_once(tmp_path: Path) -> None:
    accepted: list[int] = []
    with DedupStore(tmp_path / "d.db") as store:

        def worker() -> None:
            for seq in range(1, 51):
                if store.mark("a", seq):
                    accepted.append(seq)

        threads = [threading.Thread(target=worker) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert sorted(accepted) == list(range(1, 51))
