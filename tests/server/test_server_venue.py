"""The venue: a table's ``herald serve`` and ``herald venue`` as separate processes sharing one
real redis-server (Flask-SocketIO's message queue) and one store."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import socketio
from queue_support import Service, Venue, wait_until
from srv_support import serve


def test_a_table_in_another_process_reaches_the_venue_page_through_redis(
    tmp_path: Path, redis_server: Service
) -> None:
    queue = f"redis://127.0.0.1:{redis_server.port}/0"
    db = tmp_path / "venue.db"
    table = serve(db, "--table-id", "hall-1", "--move-delay", "0.05", "--message-queue", queue,
                  "--virtual-devices", "off")  # fmt: skip
    venue = Venue(db, "--message-queue", queue)
    got: list[tuple[str, Any]] = []
    lock = threading.Lock()
    client = socketio.Client(reconnection=False)
    client.on("venue", lambda d: got.append(("venue", d)))
    client.on("venue_table", lambda d: got.append(("venue_table", d)))
    try:
        client.connect(venue.base, transports=["websocket"], wait_timeout=10)
        wait_until(lambda: any(n == "venue" for n, _ in got), "the venue's listing")
        (listing,) = [d for n, d in got if n == "venue"]
        (stored,) = listing["tables"]
        assert stored["table_id"] == "hall-1" and stored["game"] == "middle-ages"
        assert stored["live"] is False and stored["table_url"] is None  # the store knows no URL

        def live_beyond(state_id: int) -> list[dict[str, Any]]:
            with lock:
                return [d for n, d in got if n == "venue_table" and d["state_id"] > state_id]

        # the table process emits to the venue room; only Redis carries it to this process
        wait_until(lambda: live_beyond(stored["state_id"]), "a live summary through Redis")
        summary = live_beyond(stored["state_id"])[-1]
        assert summary["table_id"] == "hall-1" and summary["live"] is True
        assert summary["table_url"] == table.table_url
        assert summary["phones"] == 0 and isinstance(summary["to_act"], list)
        assert "token" not in str(summary) and table.token("blue") not in str(got)
    finally:
        client.disconnect()
        venue.stop()
        table.stop()


def test_an_unreachable_queue_is_one_sentence_and_nothing_starts(tmp_path: Path) -> None:
    from srv_support import free_port, refused

    code, output = refused(tmp_path / "q.db", "--message-queue",
                           f"redis://127.0.0.1:{free_port()}/0")  # fmt: skip
    assert code == 2 and "cannot be reached" in output and "--message-queue" in output
    assert not (tmp_path / "q.db").exists()
