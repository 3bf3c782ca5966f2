"""The PostgreSQL store's own guards (issue 18: a venue's store), against a real PostgreSQL.

The behaviour both stores share runs on both in test_server_store.py and test_server_crash.py;
here: whose database it is, schema versions, two referees on one session, unreachable servers,
and passwords kept out of messages."""

from __future__ import annotations

import json
import random
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from pg_support import PgServer
from srv_support import WAIT, herald_bin, open_referee, play_moves, refused, serve

from bridge.store import SCHEMA_VERSION, StoreError, StoreRefused, open_store
from bridge.store_pg import MIGRATIONS, PgEventStore, shown
from engine import codec, log


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


@pytest.fixture
def own_pg() -> Iterator[PgServer]:
    """A PostgreSQL of the test's own, to restart without disturbing the other tests'."""
    try:
        server = PgServer()
    except FileNotFoundError:
        pytest.skip("PostgreSQL is not installed (make test installs it: scripts/system-deps.sh)")
    yield server
    server.close()


def _stored_seqs(url: str, session: int) -> list[int]:
    store = open_store(url)
    try:
        return [e.seq for e in store.events(session)]
    finally:
        store.close()


def test_a_postgresql_restart_mid_game_loses_and_doubles_nothing(own_pg: PgServer) -> None:
    """Issue 26, finding 5: after a 0.2 s restart of PostgreSQL every move answered
    ``server/internal`` until Herald restarted. The store reconnects and runs the transaction
    again; while the database stays away a move is refused with ``store/unavailable`` and
    changes nothing."""
    url = own_pg.new_database()
    referee = open_referee(url)
    assert play_moves(referee, 5) == 5
    restarted = threading.Event()

    def restart() -> None:
        own_pg.stop("fast")
        own_pg.start()
        restarted.set()

    # moves keep coming while the server restarts under them
    mover = threading.Thread(target=restart)
    mover.start()
    made = 0
    while not restarted.is_set() or made < 10:
        assert play_moves(referee, 1, seed=made) == 1, "a move was refused across a restart"
        made += 1
    mover.join()
    assert _stored_seqs(url, referee.row.id) == list(range(1, referee.state_id + 1))

    # down for longer than the store waits: refused, clearly, nothing changed
    referee.store.retry_for = 0.5  # type: ignore[attr-defined]
    before = referee.state_id
    own_pg.stop("fast")
    state = referee.session.state
    move = codec.encode(
        referee.game.sample_chance(state, random.Random(11)) or referee.game.legal_moves(state)[0]
    )
    outcome = referee.observe("test", move, before)
    assert outcome.code == "store/unavailable", outcome
    assert "Try again" in (outcome.message or "") and referee.state_id == before
    own_pg.start()
    assert referee.observe("test", move, before).ok  # the same move, once it is back
    seqs = _stored_seqs(url, referee.row.id)
    assert seqs == list(range(1, referee.state_id + 1)) and referee.state_id == before + 1
    resumed = open_referee(url)  # a restart of Herald replays exactly the acknowledged log
    assert resumed.state_id == referee.state_id and resumed.current().state_id == before + 1
    resumed.store.close()
    referee.store.close()


def _health(port: int) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=WAIT) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _until_health(port: int, status: int) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        code, body = _health(port)
        if code == status:
            return body
        time.sleep(0.1)
    raise AssertionError(f"/healthz never answered {status}")


def test_serve_on_postgresql_tells_a_store_outage_and_plays_on(
    own_pg: PgServer, tmp_path: Path
) -> None:
    """Finding 5: while PostgreSQL was down ``/healthz`` said ok and the log filled with
    tracebacks; a second server on the same table was not refused."""
    url = own_pg.new_database()
    served = serve(tmp_path / "pg.db", "--store", url, "--sim", "all", "--move-delay", "0.1",
                   table="moves")  # fmt: skip
    try:
        assert _health(served.port)[1]["store"] == "ok"
        code, output = refused(tmp_path / "other.db", "--store", url)
        assert code == 1 and "already refereeing table 't1'" in output, output
        own_pg.stop("fast")
        down = _until_health(served.port, 503)
        assert down["ok"] is False and down["store"] == "unavailable" and down["code"]
        own_pg.start()
        back = _until_health(served.port, 200)
        deadline = time.monotonic() + WAIT
        while _health(served.port)[1]["state_id"] < back["state_id"] + 3:
            assert time.monotonic() < deadline, "no move after the store came back"
            time.sleep(0.1)
    finally:
        served.stop()
    assert "Traceback" not in served.log, served.log
    session = back["session"]
    assert _stored_seqs(url, session) == list(range(1, len(_stored_seqs(url, session)) + 1))
