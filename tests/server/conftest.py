"""Fixtures of the server tests: a real redis-server for the venue's message queue."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from queue_support import Service, find_exe, start_redis


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
