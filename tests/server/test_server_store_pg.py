"""The PostgreSQL store's own guards (issue 18: a venue's store), against a real PostgreSQL.

The behaviour both stores share runs on both in test_server_store.py and test_server_crash.py;
here: whose database it is, schema versions, two referees on one session, unreachable servers,
and passwords kept out of messages."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import psycopg
import pytest
from pg_support import PgServer
from srv_support import herald_bin, open_referee, play_moves

from bridge.store import SCHEMA_VERSION, StoreError, StoreRefused, open_store
from bridge.store_pg import MIGRATIONS, PgEventStore, shown
from engine import log


def _tables(url: str) -> set[str]:
    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema='public'"
        ).fetchall()
    return {r[0] for r in rows}


def test_a_new_database_gets_the_schema_and_its_version(pg: PgServer) -> None:
    url = pg.new_database()
    store = open_store(url)
    assert isinstance(store, PgEventStore)
    assert store.schema_version() == SCHEMA_VERSION == max(MIGRATIONS)
    assert _tables(url) == {"herald_meta", "sessions", "events", "snapshots", "frames"}
    store.close()
    again = PgEventStore(url)  # opening again migrates nothing and keeps the data
    assert again.schema_version() == SCHEMA_VERSION
    again.close()


def test_a_version_1_database_gains_the_frames_table(pg: PgServer) -> None:
    """A venue database from before the audit trail (schema 1) is migrated to 2 when opened."""
    url = pg.new_database()
    with psycopg.connect(url, autocommit=True) as db:
        for statement in MIGRATIONS[1].split(";"):
            if statement.strip():
                db.execute(statement.encode())
        db.execute("INSERT INTO herald_meta VALUES ('application', 'herald'), "
                   "('schema_version', '1')")  # fmt: skip
    assert "frames" not in _tables(url)
    store = PgEventStore(url)
    assert store.schema_version() == SCHEMA_VERSION == 2
    assert "frames" in _tables(url) and store.frames(1) == []
    store.close()


def test_another_applications_database_is_refused_untouched(pg: PgServer) -> None:
    url = pg.new_database()
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total NUMERIC)")
        db.execute("INSERT INTO invoices VALUES (1, 9.5)")
    with pytest.raises(StoreRefused) as refused:
        PgEventStore(url)
    assert refused.value.code == "store/foreign-pg" and "invoices" in str(refused.value)
    assert _tables(url) == {"invoices"}


def test_a_newer_schema_is_refused_untouched(pg: PgServer) -> None:
    url = pg.new_database()
    PgEventStore(url).close()
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("UPDATE herald_meta SET value='99' WHERE key='schema_version'")
    with pytest.raises(StoreRefused) as refused:
        PgEventStore(url)
    assert refused.value.code == "store/newer"
    with psycopg.connect(url) as db:
        row = db.execute("SELECT value FROM herald_meta WHERE key='schema_version'").fetchone()
    assert row == ("99",)


def test_two_referees_on_one_session_cannot_fork_its_log(pg: PgServer) -> None:
    """Two processes serving one table (a venue): each append checks the session's last event
    under a row lock, so the second writer of the same event number is refused."""
    url = pg.new_database()
    first = open_referee(url)
    play_moves(first, 5)
    other = open_store(url)
    event = log.Event("undo", by="host")
    n = first.state_id
    other.append(first.row.id, n + 1, "other", event, n + 1)
    with pytest.raises(StoreError):
        first.store.append(first.row.id, n + 1, "first", event, n + 1)
    assert [e.source for e in other.events(first.row.id)][-1] == "other"
    other.close()


def test_the_password_never_shows_in_a_message() -> None:
    url = "postgresql://herald:s3cret@127.0.0.1:1/venue"
    assert "s3cret" not in shown(url) and shown(url).startswith("postgresql://herald:***@")
    with pytest.raises(StoreRefused) as refused:
        PgEventStore(url)
    assert refused.value.code == "store/cannot-connect" and refused.value.path_problem
    assert "s3cret" not in str(refused.value)


def test_serve_with_an_unreachable_store_says_so_and_exits_2(tmp_path: Path) -> None:
    url = "postgresql://herald:s3cret@127.0.0.1:1/venue"
    proc = subprocess.run(
        [herald_bin(), "serve", "--game", "middle-ages", "--db", str(tmp_path / "h.db"),
         "--store", url, "--no-qr"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert "cannot be reached" in proc.stderr and "--store" in proc.stderr
    assert "s3cret" not in proc.stderr + proc.stdout
    assert "Traceback" not in proc.stderr


def test_herald_sessions_reads_a_postgresql_store(pg: PgServer) -> None:
    url = pg.new_database()
    referee = open_referee(url)
    play_moves(referee, 4)
    proc = subprocess.run([herald_bin(), "sessions", "--db", url, "list", "--json"],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (row,) = json.loads(proc.stdout)
    assert row["session"] == referee.row.id and row["events"] == 4
