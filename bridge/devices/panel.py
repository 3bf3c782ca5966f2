"""The device panel's clients: each gets small deltas, and none can make the server hoard data.

The table display asks for the whole panel once (``devices``) and then receives
``devices_delta`` pushes. Every push goes to each subscribed client separately, after a look at
how many messages already wait in that client's send queue: a client that does not read (a
stalled tab, a hostile script) is skipped while its backlog is over :data:`MAX_BACKLOG` and gets
one whole panel when it has caught up; a client that keeps asking while its backlog stays full
is disconnected. So what the server holds for any one client stays bounded, whoever asks.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

MAX_BACKLOG = 32
"""Messages that may wait in one client's queue before pushes to it pause."""

MAX_CLIENTS = 512
"""Panel subscribers kept at most (the oldest go first; they still get room broadcasts)."""

Send = Callable[[str, str, dict[str, Any]], None]
"""``send(sid, event, payload)``."""


class PanelClients:
    """Subscribed clients and their state: in step, or stale (owed a whole panel).

    Args:
        send: Emits one message to one client.
        backlog: The number of messages waiting in a client's queue; None once it is gone.
        disconnect: Drops a client that asks for more while not reading.
    """

    def __init__(
        self,
        send: Send,
        backlog: Callable[[str], int | None],
        disconnect: Callable[[str], object],
        *,
        is_host: Callable[[str], bool] = lambda sid: False,
        max_backlog: int = MAX_BACKLOG,
        max_clients: int = MAX_CLIENTS,
    ) -> None:
        self._send = send
        self._backlog = backlog
        self._disconnect = disconnect
        self._is_host = is_host
        self.max_backlog = max_backlog
        self.max_clients = max_clients
        self._clients: OrderedDict[str, bool] = OrderedDict()  # sid → stale
        self._lock = threading.Lock()
        self.skipped = 0
        self.dropped = 0

    def subscribe(self, sid: str) -> bool:
        """A client asked for the whole panel: True when it may have it now (it is then in
        step); False when it has not read what it was sent, and it is disconnected."""
        waiting = self._backlog(sid)
        if waiting is not None and waiting > self.max_backlog:
            with self._lock:
                self._clients.pop(sid, None)
            self.dropped += 1
            self._disconnect(sid)
            return False
        with self._lock:
            self._clients.pop(sid, None)
            self._clients[sid] = False
            while len(self._clients) > self.max_clients:
                self._clients.popitem(last=False)
        return True

    def __len__(self) -> int:
        with self._lock:
            return len(self._clients)

    def push(
        self,
        event: str,
        deltas: tuple[dict[str, Any], dict[str, Any]],
        whole: Callable[[bool], dict[str, Any]],
    ) -> None:
        """Send the delta to every client in step (``deltas``: the host's, everyone else's:
        only the host's carries pairing codes); a stale one that caught up gets
        ``whole(is_host)`` (as ``devices``) instead; a backlogged one is skipped and marked
        stale."""
        with self._lock:
            clients = list(self._clients.items())
        fulls: dict[bool, dict[str, Any]] = {}
        for sid, stale in clients:
            host = self._is_host(sid)
            waiting = self._backlog(sid)
            if waiting is None:
                with self._lock:
                    self._clients.pop(sid, None)
                continue
            if waiting > self.max_backlog:
                self.skipped += 1
                with self._lock:
                    if sid in self._clients:
                        self._clients[sid] = True
                continue
            if stale:
                if host not in fulls:
                    fulls[host] = whole(host)
                self._send(sid, "devices", fulls[host])
                with self._lock:
                    if sid in self._clients:
                        self._clients[sid] = False
            else:
                self._send(sid, event, deltas[0] if host else deltas[1])
