"""Fixtures for the server tests: the event store on each backend (an SQLite file, and a real
PostgreSQL that the tests start themselves, tests/server/pg_support.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pg_support import PgServer


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
