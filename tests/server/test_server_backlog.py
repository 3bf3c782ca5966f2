"""Issue 16, finding 2: no client, token or not, can make the server hold memory by not reading.

The probe: a viewer with no token sent requests without reading the replies and the server grew
by 146 MB, never released. Every answer went into that client's Engine.IO queue, which has no
bound. Now a request from a client with more than ``MAX_QUEUED`` messages waiting is not
answered: the client is cut off (``bridge.web.backlog``); and every broadcast first cuts off
the table room's stalled clients.
"""

from __future__ import annotations

import queue
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import websocket
from srv_support import Served, join, live_client, serve

from bridge.web import backlog

CUT_OFF = "stopped reading what it is sent"
"""The server's log line (catalog ``limits/stalled-client``, English)."""


def wait_for(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    s = serve(tmp_path / "b.db", "--sim", "off", "--virtual-devices", "off")
    yield s
    s.stop()


def test_a_viewer_asking_for_snapshots_without_reading_is_cut_off(served: Served) -> None:
    """3,000 ``sync`` requests (each answered with the whole state) from a viewer with a tiny
    receive window that reads nothing: before, every answer was queued (about 10 MB held, all
    3,000 answers delivered eventually); now the server stops answering once the client's queue
    is full and closes its connection, while other clients are served as usual."""
    said: list[str] = []

    def follow() -> None:
        assert served.proc.stdout is not None
        for line in served.proc.stdout:
            said.append(line)

    threading.Thread(target=follow, daemon=True).start()
    url = f"ws://127.0.0.1:{served.port}/socket.io/?EIO=4&transport=websocket"
    tiny = ((socket.SOL_SOCKET, socket.SO_RCVBUF, 4096),)
    flood = websocket.create_connection(url, timeout=10, sockopt=tiny)
    try:
        assert flood.recv().startswith("0{")
        flood.send("40")
        requests = 3000
        for ack in range(1, requests + 1):
            flood.send(f'42{ack}["sync",{{"state_id":0}}]')
        # another viewer is served meanwhile
        other = live_client()
        join(other, served.base)
        try:
            assert other.call("sync", {"state_id": 0}, timeout=10)["ok"] is True
        finally:
            other.disconnect()
        # the server says it cut the client off (it may take a while to get through 3,000
        # requests on a busy machine: until then the client reads nothing)
        wait_for(lambda: any(CUT_OFF in line for line in said), timeout=120,
                 what="the server to cut the client off")  # fmt: skip
        # read what the flood got: far fewer answers, then the server's close
        flood.settimeout(20)
        answers, closed = 0, False
        try:
            while True:
                frame = flood.recv()
                if not frame:
                    closed = True
                    break
                answers += frame.startswith("43")
        except websocket.WebSocketConnectionClosedException:
            closed = True
        except websocket.WebSocketTimeoutException:
            pass
        assert closed, f"the connection stayed open after {answers} answers"
        assert answers < requests // 2, answers
    finally:
        flood.close()
    assert served.health()["ok"]


# ---------------------------------------------------------------------------------------------
# cut_off_stalled on its own. A stand-in for python-socketio's server (its manager's rooms and
# Engine.IO's sockets with their queues): a broadcast path cannot be driven hard enough from a
# real game to overflow the kernel's socket buffers in a test, so the room sweep is shown here.


@dataclass
class FakeSocket:
    queue: queue.Queue[Any] = field(default_factory=queue.Queue)
    closed: bool = False
    aborted: bool = False

    def close(self, wait: bool = True, abort: bool = False) -> None:
        assert not wait, "waiting for a stalled client's queue to drain would hang"
        self.closed, self.aborted = True, abort


class FakeManager:
    def __init__(self, rooms: dict[str, list[str]]) -> None:
        self.rooms = rooms

    def eio_sid_from_sid(self, sid: str, namespace: str) -> str:
        return f"eio-{sid}"

    def get_participants(self, namespace: str, room: str) -> Iterator[tuple[str, str]]:
        for sid in self.rooms.get(room, []):
            yield sid, f"eio-{sid}"


@dataclass
class FakeEio:
    sockets: dict[str, FakeSocket]


@dataclass
class FakeServer:
    manager: FakeManager
    eio: FakeEio


def test_a_broadcast_first_cuts_off_the_rooms_stalled_clients() -> None:
    sockets = {f"eio-{sid}": FakeSocket() for sid in ("reader", "stalled", "slow")}
    for _ in range(backlog.MAX_QUEUED + 1):
        sockets["eio-stalled"].queue.put("state")
    for _ in range(backlog.MAX_QUEUED):
        sockets["eio-slow"].queue.put("state")  # at the bound, not over it: kept
    rooms = FakeManager({"table": ["reader", "stalled", "slow"]})
    server = FakeServer(rooms, FakeEio(dict(sockets)))
    assert backlog.cut_off_stalled(server, "table") == ["stalled"]
    assert "eio-stalled" not in server.eio.sockets
    assert sockets["eio-stalled"].aborted
    assert not sockets["eio-reader"].closed and not sockets["eio-slow"].closed
    assert backlog.queued(server, "stalled") is None
    answered: list[str] = []
    guard = backlog.guarded(server, lambda: "slow", lambda *a: answered.append("slow") or "ok")
    assert guard() == "ok" and answered == ["slow"]
    sockets["eio-slow"].queue.put("one more")
    assert guard() is None and answered == ["slow"]  # over the bound: cut off, not answered
    assert sockets["eio-slow"].aborted
