"""The light clients of the fan-out bench: raw Engine.IO v4 websockets, many per process.

A python-socketio client costs the measuring process more CPU per message than the server
spends sending it (the old bench's own profile: ~210 ms per event for 200 clients under one
GIL), so here each client only does what the wire needs: the Engine.IO open, the Socket.IO
namespace connect (with the page's ``auth``), answering pings, and, for each ``state`` event,
reading ``state_id`` and ``accepted_at`` with a regular expression instead of parsing the JSON.
One thread per socket, blocked in ``recv`` (the GIL is released there), in several processes.

The server stamps ``accepted_at`` (``time.time()``) right after the commit; the client takes
``time.time()`` on receipt. Both run on this machine, so the difference is the delivery time.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

import websocket

STATE = re.compile(r'^42\["state",')
STATE_ID = re.compile(r'"state_id":\s*(\d+)')
ACCEPTED = re.compile(r'"accepted_at":\s*([0-9.eE+-]+)')


def ws_url(base: str) -> str:
    return base.replace("http://", "ws://", 1) + "/socket.io/?EIO=4&transport=websocket"


def _client(
    url: str,
    auth: dict[str, Any],
    connected: threading.Semaphore,
    record_from: list[float],
    out: list[tuple[str, int, float, int]],
    stop: threading.Event,
) -> None:
    """One socket: handshake, then record every ``state`` (url, state_id, delay s, bytes) whose
    ``accepted_at`` is at or after ``record_from[0]`` (set once every client is connected)."""
    for attempt in range(8):
        try:
            ws = websocket.create_connection(url, timeout=60, skip_utf8_validation=True)
            break
        except OSError:
            time.sleep(0.1 * (attempt + 1))
    else:
        return
    try:
        opened = ws.recv()
        if not str(opened).startswith("0"):
            return
        ws.send("40" + json.dumps(auth))
        while not stop.is_set():
            msg = ws.recv()
            now = time.time()
            if not isinstance(msg, str) or not msg:
                continue
            if msg == "2":
                ws.send("3")
            elif msg.startswith("40"):
                connected.release()
            elif STATE.match(msg):
                found_at = ACCEPTED.search(msg)
                found_id = STATE_ID.search(msg)
                if found_at is None or found_id is None:
                    continue
                accepted = float(found_at.group(1))
                if record_from[0] and accepted >= record_from[0]:
                    out.append((url, int(found_id.group(1)), now - accepted, len(msg.encode())))
            elif msg.startswith("41") or msg.startswith("44"):
                return  # disconnected or refused by the server
    except (OSError, websocket.WebSocketException):
        return
    finally:
        with contextlib.suppress(OSError, websocket.WebSocketException):
            ws.close()


def run_clients(urls: list[str], auth: dict[str, Any], pipe: Connection) -> None:
    """A client process: one socket per URL in ``urls`` (a table's base URL, repeated).

    Protocol with the bench over ``pipe``: sends ``("connected", n)`` once every socket has its
    namespace (or after 120 s with how many did); receives ``("record", t0)``, then
    ``("stop", None)``; answers the second with ``("results", [(url, state_id, delay, bytes),
    ...], [per-socket counts])``.
    """
    connected = threading.Semaphore(0)
    record_from = [0.0]
    stop = threading.Event()
    outs: list[list[tuple[str, int, float, int]]] = [[] for _ in urls]
    threads = [
        threading.Thread(
            target=_client,
            args=(ws_url(u), auth, connected, record_from, outs[i], stop),
            daemon=True,
        )
        for i, u in enumerate(urls)
    ]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 120
    got = 0
    while got < len(urls) and time.monotonic() < deadline:
        if connected.acquire(timeout=1):
            got += 1
    pipe.send(("connected", got))
    while True:
        kind, value = pipe.recv()
        if kind == "record":
            record_from[0] = float(value)
        elif kind == "stop":
            stop.set()
            rows = [row for out in outs for row in out]
            pipe.send(("results", rows, [len(o) for o in outs]))
            return
