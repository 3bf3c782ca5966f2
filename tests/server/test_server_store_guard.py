"""The event store defends its data (issue 16, findings 5-9; docs/security.md).

Each test runs the real ``herald serve`` on a real SQLite file: a damaged store, another
application's database and an unusable ``--db`` path are refused with one sentence before
anything is written (the files are compared byte for byte, with their modification times);
``--new`` does not close another game's unfinished session unless forced; the store and its
companion files are private to their owner.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest
from srv_support import open_referee, play_moves, refused, serve

from bridge.store import EventStore

HERALD = 0x48524C44
"""``PRAGMA application_id`` of a Herald store, as docs/protocol.md gives it ("HRLD")."""
PAGE = 4096
QUIET = ("--sim", "off", "--virtual-devices", "off")


def files_of(folder: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file in ``folder``: its bytes, modification time (ns) and mode."""
    return {
        f.name: (f.read_bytes(), f.stat().st_mtime_ns, f.stat().st_mode)
        for f in sorted(folder.iterdir())
        if f.is_file()
    }


def integrity(db: Path) -> str:
    """``PRAGMA integrity_check`` of ``db``, read as an immutable file (nothing written)."""
    con = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    try:
        return "; ".join(r[0] for r in con.execute("PRAGMA integrity_check"))
    except sqlite3.DatabaseError as exc:
        return str(exc)
    finally:
        con.close()


def damaged_store(folder: Path) -> Path:
    """A store of a played game with one page in its middle overwritten (as a bad sector or a
    stray write would), the first such page that ``integrity_check`` reports."""
    db = folder / "damaged.db"
    referee = open_referee(db)
    play_moves(referee, 120)
    referee.store.close()
    data = db.read_bytes()
    pages = len(data) // PAGE
    assert pages > 8, pages
    for page in range(pages // 2, pages):
        damaged = data[: page * PAGE] + b"\xa5" * PAGE + data[(page + 1) * PAGE :]
        db.write_bytes(damaged)
        if integrity(db) != "ok":
            return db
    raise AssertionError("no overwritten page was noticed by integrity_check")


def test_a_damaged_store_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    """Finding 5: the probe's store with an overwritten middle page started and served."""
    db = damaged_store(tmp_path)
    before = files_of(tmp_path)
    code, out = refused(db)
    assert code == 1, out
    assert "is damaged" in out and "left untouched" in out and str(db) in out, out
    assert "Traceback" not in out
    assert files_of(tmp_path) == before


def foreign_db(path: Path, kind: str) -> None:
    """An SQLite database some other application made (rollback journal, its own marks)."""
    con = sqlite3.connect(path)
    if kind == "tables":
        con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        con.execute("INSERT INTO notes (text) VALUES ('buy milk')")
    elif kind == "application-id":
        con.execute("PRAGMA application_id=0x47504B47")  # a GeoPackage, say
    else:
        con.execute("PRAGMA user_version=7")
    con.commit()
    con.close()


@pytest.mark.parametrize("kind", ["tables", "application-id", "user-version"])
def test_another_applications_database_is_refused_untouched(tmp_path: Path, kind: str) -> None:
    """Finding 6: the probe's database got three tables, WAL mode and a user_version."""
    db = tmp_path / "other.sqlite"
    foreign_db(db, kind)
    before = files_of(tmp_path)
    code, out = refused(db)
    assert code == 1, out
    assert "another application's SQLite database" in out and "left untouched" in out, out
    assert "Traceback" not in out
    assert files_of(tmp_path) == before  # no table, no WAL, no user_version: not one byte
    con = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    con.close()


def test_an_empty_file_becomes_a_marked_store(tmp_path: Path) -> None:
    db = tmp_path / "empty.db"
    db.touch()
    served = serve(db, *QUIET)
    served.stop()
    store = EventStore(db)
    assert store.pragma("application_id") == HERALD
    assert len(store.sessions()) == 1
    store.close()


def test_a_store_made_before_the_mark_is_adopted(tmp_path: Path) -> None:
    """A store written by a Herald without ``application_id`` (its tables and user_version 1)
    keeps working, and gets the mark."""
    db = tmp_path / "old.db"
    referee = open_referee(db)
    play_moves(referee, 5)
    referee.store.close()
    con = sqlite3.connect(db)
    con.execute("PRAGMA application_id=0")
    con.commit()
    con.close()
    store = EventStore(db)
    assert store.pragma("application_id") == HERALD
    assert len(store.events(referee.row.id)) == 5
    store.close()


def without_root_override() -> tuple[str, ...]:
    """A command prefix under which permission bits bind: as root, ``setpriv`` drops the
    capabilities that let root write anywhere (util-linux); as anyone else, nothing."""
    if os.geteuid() != 0:
        return ()
    found = shutil.which("setpriv")
    if found is None:
        pytest.skip("running as root without setpriv (util-linux): cannot make a folder unwritable")
    return (found, "--bounding-set=-dac_override,-dac_read_search", "--")


@pytest.mark.parametrize(
    ("case", "says"),
    [
        ("folder", "is a folder"),
        ("missing-folder", "does not exist"),
        ("folder-is-a-file", "is a file, not a folder"),
        ("unwritable-folder", "cannot be created: Permission denied"),
        ("read-only-store", "cannot be written"),
    ],
)
def test_an_unusable_db_path_is_one_sentence_and_exit_2(
    tmp_path: Path, case: str, says: str
) -> None:
    """Finding 7: these gave a raw ``sqlite3.OperationalError`` traceback."""
    prefix: tuple[str, ...] = ()
    locked = tmp_path / "locked"
    if case == "folder":
        db = tmp_path
    elif case == "missing-folder":
        db = tmp_path / "no-such-folder" / "herald.db"
    elif case == "folder-is-a-file":
        (tmp_path / "plain.txt").write_text("a file")
        db = tmp_path / "plain.txt" / "herald.db"
    else:
        locked.mkdir()
        db = locked / "herald.db"
        if case == "read-only-store":
            EventStore(db).close()
            db.chmod(0o444)
        locked.chmod(0o555)
        prefix = without_root_override()
    before = files_of(locked) if locked.exists() else {}
    try:
        code, out = refused(db, *QUIET, prefix=prefix)
    finally:
        if locked.exists():
            locked.chmod(0o755)
    assert code == 2, out
    (line,) = [x for x in out.splitlines() if x.startswith("Error:")]
    assert line.startswith("Error: Invalid value for --db: ") and says in line, out
    assert "Traceback" not in out and "OperationalError" not in out
    if locked.exists():
        assert files_of(locked) == before


def test_new_does_not_close_another_games_open_session_unless_forced(tmp_path: Path) -> None:
    """Finding 8: ``--new`` with another ``--game`` silently closed the open session."""
    db = tmp_path / "t.db"
    first = serve(db, *QUIET)
    old = first.health()["session"]
    first.stop()

    code, out = refused(db, "--game", "glory", "--new", *QUIET)
    assert code == 1, out
    assert f"unfinished Middle Ages game (session {old}" in out and "--force" in out, out
    store = EventStore(db)
    assert [(r.id, r.header.game, r.status) for r in store.sessions()] == [
        (old, "middle-ages", "open")
    ]
    store.close()

    forced = serve(db, "--game", "glory", "--new", "--force", *QUIET)
    new = forced.health()["session"]
    forced.stop()
    assert f"Closed the unfinished Middle Ages game of table 't1' (session {old})" in forced.log
    store = EventStore(db)
    assert [(r.id, r.header.game, r.status) for r in store.sessions()] == [
        (old, "middle-ages", "closed"),
        (new, "glory", "open"),
    ]
    store.close()


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_store_and_its_companions_are_private(tmp_path: Path) -> None:
    """Finding 9: the store, its ``-wal`` and the ``.devices`` file were created 0644 (the
    store holds every seat's token in clear). Served with the usual umask 022."""
    db = tmp_path / "herald.db"
    served = serve(db, *QUIET, umask=0o022)
    try:
        made = {p.name: mode(p) for p in tmp_path.iterdir()}
    finally:
        served.stop()
    assert {"herald.db", "herald.db-wal", "herald.db-shm", "herald.db.devices"} <= set(made)
    assert made == {name: 0o600 for name in made}, made

    db.chmod(0o644)  # a store an older Herald made: tightened when served again
    again = serve(db, *QUIET, umask=0o022)
    try:
        assert mode(db) == 0o600 and mode(Path(f"{db}-wal")) == 0o600
    finally:
        again.stop()
