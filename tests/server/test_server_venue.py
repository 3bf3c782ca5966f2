"""The venue: a table's ``herald serve`` and ``herald venue`` as separate processes sharing one
real redis-server (Flask-SocketIO's message queue) and one store."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest
from queue_support import Service, Tail, Venue, find_exe, start_mosquitto, wait_until
from srv_support import join, live_client, serve

pytestmark = pytest.mark.slow  # a long group: started first (tests/conftest.py)


def test_a_table_in_another_process_reaches_the_venue_page_through_redis(
    tmp_path: Path, redis_server: Service
) -> None:
    queue = redis_server.url
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
    assert "Refused a message from the message queue" not in table.log  # the venue's own traffic


def test_an_unreachable_queue_is_one_sentence_and_nothing_starts(tmp_path: Path) -> None:
    from srv_support import free_port, refused

    code, output = refused(tmp_path / "q.db", "--message-queue",
                           f"redis://herald:secret@127.0.0.1:{free_port()}/0")  # fmt: skip
    assert code == 2 and "cannot be reached" in output and "--message-queue" in output
    assert not (tmp_path / "q.db").exists()


@pytest.mark.parametrize(
    ("url", "why"),
    [("redis://127.0.0.1:6379/0", "no password"),
     ("redis://herald:secret@redis.venue.lan:6379/0", "rediss://")],
)  # fmt: skip
def test_a_queue_without_a_password_or_tls_to_another_machine_is_refused(
    tmp_path: Path, url: str, why: str
) -> None:
    """Issue 26, finding 4: the deployment doc's queue had no password. Both commands refuse a
    queue anyone on the LAN could publish on (or read the password of), before starting."""
    from srv_support import herald_bin, refused

    code, output = refused(tmp_path / "q.db", "--message-queue", url)
    assert code == 2 and "will not use the message queue" in output and why in output
    assert "secret" not in output and not (tmp_path / "q.db").exists()
    done = subprocess.run([herald_bin(), "venue", "--db", str(tmp_path / "v.db"),
                           "--message-queue", url], capture_output=True, text=True,
                          timeout=60)  # fmt: skip
    assert done.returncode == 2 and why in done.stderr + done.stdout


def test_a_rogue_publisher_on_the_queue_gets_nothing_through(
    tmp_path: Path, redis_server: Service
) -> None:
    """Issue 26, finding 4: one ``PUBLISH`` to the queue put an anonymous socket in the host
    room (it then read the pairing codes and could pair devices) and in a seat's room, and
    forged a ``state`` to the table display. Now a publisher without Herald's Redis password
    is refused by Redis, and even one holding it (an insider, a Redis left open) can neither
    move a client between rooms, nor disconnect one, nor send the table anything: the table
    takes from the queue only emits to the venue room, and who is the host comes from the
    token the connection authenticated with."""
    import json

    import redis

    from bridge.venue import QUEUE_CHANNEL

    # the simulated table keeps playing: every move sends the seats' private states
    table = serve(tmp_path / "q.db", "--table-id", "hall-9", "--message-queue", redis_server.url,
                  "--virtual-devices", "off", "--sim", "all", "--move-delay", "0.2")  # fmt: skip
    tail = Tail(table.proc)
    host, viewer = live_client(reconnection=False), live_client(reconnection=False)
    blue = live_client(reconnection=False)
    got: list[tuple[str, Any]] = []
    blue_got: list[Any] = []
    for name in ("state", "seat_state", "prompt", "host", "devices_delta"):
        viewer.on(name, lambda d, n=name: got.append((n, d)))
    blue.on("seat_state", blue_got.append)
    try:
        join(host, table.base, table.host_token)
        join(viewer, table.base)
        join(blue, table.base, table.token("blue"))
        opened = host.call("device_pairing", {"open": True}, timeout=30)
        codes = opened["pairing"]["codes"]
        assert opened["ok"] and codes, "the host sees the codes"
        viewer_sid = viewer.get_sid("/")
        # no password: Redis refuses the publisher outright
        anonymous = redis.Redis(host="127.0.0.1", port=redis_server.port)
        with pytest.raises(redis.exceptions.RedisError):
            anonymous.publish(QUEUE_CHANNEL, "{}")
        anonymous.close()
        # with Herald's own password: every forged message is dropped by the table process
        insider = redis.Redis.from_url(redis_server.url)
        forged = [
            {"method": "enter_room", "sid": viewer_sid, "room": "host:hall-9"},
            {"method": "enter_room", "sid": viewer_sid, "room": "seat:blue@hall-9"},
            {"method": "emit", "event": "state", "data": {"forged": True},
             "room": "table:hall-9", "skip_sid": None, "callback": None},
            {"method": "emit", "event": "state", "data": {"forged": True}, "room": viewer_sid,
             "skip_sid": None, "callback": None},
            {"method": "disconnect", "sid": host.get_sid("/")},
        ]  # fmt: skip
        for message in forged:
            insider.publish(QUEUE_CHANNEL, json.dumps({**message, "namespace": "/",
                                                       "host_id": "rogue"}))  # fmt: skip
        insider.close()
        # the table process says so as it drops each kind (folded): the last is the disconnect
        wait_until(lambda: tail.count("Refused a message from the message queue (disconnect")
                   == 1, "the table to drop the forged disconnect")  # fmt: skip
        assert tail.count("(enter_room host:hall-9") == 1 and tail.count("(emit state to") == 1
        # two more moves' private states reach blue's own phone; none reaches the viewer
        seen = len(blue_got)
        wait_until(lambda: len(blue_got) >= seen + 2, "two more of blue's private states")
        panel = viewer.call("devices", {}, timeout=30)
        assert panel["pairing"]["codes"] == {} and not any(c in str(panel) for c in
                                                           codes.values())  # fmt: skip
        refused_pairing = viewer.call("device_pairing", {"open": True}, timeout=30)
        assert refused_pairing["ok"] is False and refused_pairing["code"] == "devices/host-only"
        assert not [d for n, d in got if n == "state" and d.get("forged")], "a forged state"
        assert not [n for n, _ in got if n in ("seat_state", "prompt", "host")]
        assert host.connected and host.call("devices", {}, timeout=30)["pairing"]["codes"]
    finally:
        for client in (host, viewer, blue):
            client.disconnect()
        table.stop()


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
    queue = redis_server.url
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
    # each table's own emits reach the others through Redis: dropped quietly, never "refused"
    for served in (two, again):
        assert served is not None and "Refused a message from the message queue" not in served.log
