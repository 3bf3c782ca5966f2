"""The venue: a table's ``herald serve`` and ``herald venue`` as separate processes sharing one
real redis-server (Flask-SocketIO's message queue) and one store."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from queue_support import Service, Venue, find_exe, start_mosquitto, wait_until
from srv_support import join, live_client, serve

pytestmark = pytest.mark.slow  # a long group: started first (tests/conftest.py)


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
    client = live_client(reconnection=False)
    client.on("venue", lambda d: got.append(("venue", d)))
    client.on("venue_table", lambda d: got.append(("venue_table", d)))
    try:
        join(client, venue.base)
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


def test_three_processes_two_tables_survive_a_sigkill(
    tmp_path: Path, redis_server: Service, pg: Any
) -> None:
    """Two tables and the venue share one Redis and one PostgreSQL store; table one's process is
    SIGKILLed and restarted: no acknowledged event is lost, table two's clients stay connected
    and keep receiving, and the venue hears the restarted table (DESIGN.md, Scale)."""
    import signal

    from srv_support import Watcher

    from bridge.store import open_store

    exe = find_exe("mosquitto")
    if exe is None:
        pytest.skip("mosquitto not installed (make test installs it as root)")
    broker = start_mosquitto(exe, tmp_path)
    queue = f"redis://127.0.0.1:{redis_server.port}/0"
    store = pg.new_database()
    common = ("--store", store, "--message-queue", queue, "--virtual-devices", "off",
              "--mqtt", f"mqtt://127.0.0.1:{broker.port}")  # fmt: skip
    # table one plays slowly enough that, however loaded the machine, its game is not over
    # before the kill (an ended game leaves nothing to resume)
    one = serve(tmp_path / "one.db", "--table-id", "one", "--move-delay", "0.5", *common)
    two = serve(tmp_path / "two.db", "--table-id", "two", "--move-delay", "0.1", *common)
    venue = Venue(store, "--message-queue", queue)
    heard: list[dict[str, Any]] = []
    listener = live_client(reconnection=False)
    listener.on("venue_table", heard.append)
    watchers: list[Watcher] = []
    again = None
    try:
        join(listener, venue.base)
        for served in (one, two):  # one broker for the venue, topics per table
            assert f"Devices: MQTT broker mqtt://127.0.0.1:{broker.port}" in served.output
        seen_one = Watcher(one.base)
        viewer_two, phone_two = Watcher(two.base), Watcher(two.base, two.token("blue"))
        watchers += [seen_one, viewer_two, phone_two]
        seen_one.wait_for("state", lambda d: d["state_id"] >= 15 and not d["over"])
        one.proc.send_signal(signal.SIGKILL)
        one.stop()
        acknowledged = max(d["state_id"] for d in seen_one.of("state"))
        at_kill = max(d["state_id"] for d in viewer_two.of("state"))
        again = serve(tmp_path / "one.db", "--table-id", "one", "--resume", "--sim", "off",
                      *common)  # fmt: skip
        assert again.health()["state_id"] >= acknowledged
        for client in (viewer_two, phone_two):  # the other table's clients: same connection
            client.wait_for("state", lambda d: d["state_id"] > at_kill + 2)
            assert client.client.connected
        restarted = again.table_url
        wait_until(lambda: any(d["table_url"] == restarted for d in list(heard)),
                   "the venue to hear the restarted table")  # fmt: skip
        assert listener.connected and {d["table_id"] for d in heard} == {"one", "two"}
        opened = open_store(store)
        (row,) = opened.sessions("one")
        seqs = [e.seq for e in opened.events(row.id)]
        opened.close()
        assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) >= acknowledged
    finally:
        for watcher in watchers:
            watcher.close()
        listener.disconnect()
        venue.stop()
        for served in (again, two, one):
            if served is not None:
                served.stop()
        broker.stop()
