"""Fixtures for the server tests: the event store on each backend (an SQLite file, and a real
PostgreSQL that the tests start themselves, tests/server/pg_support.py), a real redis-server
for the venue's message queue (tests/server/queue_support.py), the worker's chromium for the
page tests (tests/server/browser_fixtures.py) and the played-store cache (played_support.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_fixtures import browser, launch_chromium, playwright  # noqa: F401 (fixtures)
from pg_support import PgServer
from played_support import played  # noqa: F401 (a fixture)
from queue_support import Service, find_exe, start_redis


@pytest.fixture(scope="session")
def pg() -> Iterator[PgServer]:
    try:
        server = PgServer()
    except FileNotFoundError:
        pytest.skip("PostgreSQL is not installed (make test installs it: scripts/system-deps.sh)")
    yield server
    server.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's event store lives: an SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "s.db")
    server: PgServer = request.getfixturevalue("pg")
    return server.new_database()


@pytest.fixture
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """Debian's redis-server on a free loopback port (scripts/system-deps.sh installs it)."""
    exe = find_exe("redis-server")
    if exe is None:
        pytest.skip("redis-server not installed (make test installs it as root)")
    server = start_redis(exe, Path(tmp_path_factory.mktemp("redis")))
    try:
        yield server
    finally:
        server.stop()
