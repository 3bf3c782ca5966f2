"""The venue's message queue, trusted only as far as it must be (issue 26, finding 4).

python-socketio's Redis queue carries, besides emits, requests to put any client in any room
(``enter_room``), to take it out, to close a room and to disconnect a client. Anyone who can
``PUBLISH`` on the queue's channel could so put an anonymous socket in the host's room or a
seat's private room, or send a forged ``state`` to every table display. Two defences:

* **The queue is authenticated.** ``herald serve``/``herald venue`` take a queue URL only with
  a password (:func:`bridge.venue.queue_url_problem`), and TLS (``rediss://``) unless Redis is
  on this machine; docs/deployment.md gives the Redis ACL that lets only Herald's user publish on
  the channel. A stranger on the LAN then cannot publish at all.
* **What the queue may do is narrow.** Every Herald process puts its own clients in rooms and
  disconnects them itself; the only thing one process ever sends another's clients is a table's
  summary for the venue page. So :class:`GuardedRedisManager` drops every room, close and
  disconnect request from the queue, and every emit to anything but the public rooms it is given
  (the venue room). Every process's emits and disconnects reach all the others through the queue
  (python-socketio's pub/sub works so): one aimed at rooms or clients this process does not have
  is another table's own traffic, dropped quietly; one aimed at this process's own clients is
  forged, and logged (one folded line per kind). Host-only and seat-only checks use the role
  the connection authenticated with, kept in the server's own session, never room membership.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Sequence
from typing import Any

import socketio

from bridge.venue import QUEUE_CHANNEL
from engine.i18n import message

_LOG = logging.getLogger(__name__)

FOLD_SECONDS = 10.0
"""At most one log line per kind of refused queue message in this many seconds."""


class GuardedRedisManager(socketio.RedisManager):  # type: ignore[misc]  # untyped library
    """A Redis client manager that takes from the queue only emits to ``public_rooms``.

    Args:
        url: The Redis URL (with its user and password).
        channel: The pub/sub channel every Herald process of the venue uses.
        public_rooms: Rooms another process may send to (the venue room).
    """

    def __init__(self, url: str, channel: str, public_rooms: Iterable[str]) -> None:
        super().__init__(url, channel=channel)
        self.public_rooms = frozenset(public_rooms)
        self.refused = 0
        self._folded: dict[str, tuple[float, int]] = {}
        self._lock = threading.Lock()

    # --- what another process may ask of this one -----------------------------------------------

    def _handle_emit(self, message: dict[str, Any]) -> Any:
        if message.get("host_id") == self.host_id:  # this process's own emit, handled here
            return super()._handle_emit(message)
        room = message.get("room")
        rooms = room if isinstance(room, list | tuple) else [room]
        public = bool(rooms) and all(isinstance(r, str) and r in self.public_rooms for r in rooms)
        if public and message.get("callback") is None:  # no process asks for callbacks across
            return super()._handle_emit(message)
        if not self._reaches_ours(message.get("namespace"), rooms):
            return None  # another process's own traffic: nobody here to deliver it to
        return self._refuse(f"emit {message.get('event')!s:.40} to {room!s:.60}")

    def _handle_enter_room(self, message: dict[str, Any]) -> None:
        if self._ours(message):
            self._refuse(f"enter_room {message.get('room')!s:.60}")

    def _handle_leave_room(self, message: dict[str, Any]) -> None:
        if self._ours(message):
            self._refuse(f"leave_room {message.get('room')!s:.60}")

    def _handle_close_room(self, message: dict[str, Any]) -> None:
        if self._reaches_ours(message.get("namespace"), [message.get("room")]):
            self._refuse(f"close_room {message.get('room')!s:.60}")

    def _handle_disconnect(self, message: dict[str, Any]) -> None:
        if message.get("host_id") == self.host_id:  # this process disconnecting its client
            super()._handle_disconnect(message)
        elif self._ours(message):
            self._refuse("disconnect")

    def _handle_callback(self, message: dict[str, Any]) -> None:
        if message.get("host_id") == self.host_id:  # no process of ours asks for one
            self._refuse("callback")

    # --- whose clients a message names ---------------------------------------------------------

    def _ours(self, message: dict[str, Any]) -> bool:
        """Whether the client ``message`` names is connected to this process."""
        sid, namespace = message.get("sid"), message.get("namespace") or "/"
        if not isinstance(sid, str):
            return False
        return bool(self.is_connected(sid, namespace) or self.is_pre_connected(sid, namespace))

    def _reaches_ours(self, namespace: Any, rooms: Sequence[Any]) -> bool:
        """Whether any of ``rooms`` (a room, a client's sid, None: everyone) has a client of
        this process."""
        found = self.rooms.get(namespace if isinstance(namespace, str) else "/", {})
        if any(room is None for room in rooms):
            return bool(found.get(None))
        return any(isinstance(room, str) and found.get(room) for room in rooms)

    # --- refusing --------------------------------------------------------------------------------

    def _refuse(self, what: str) -> None:
        """Count a refused queue message; log the first of its kind, then one line every
        :data:`FOLD_SECONDS` with how many were folded (a flood costs a few lines)."""
        kind = what.split(" ", 1)[0]
        now = time.monotonic()
        with self._lock:
            self.refused += 1
            last, folded = self._folded.get(kind, (-FOLD_SECONDS, 0))
            if now - last < FOLD_SECONDS:
                self._folded[kind] = (last, folded + 1)
                return
            self._folded[kind] = (now, 0)
        _LOG.warning("%s", message("queue/refused", what=what, folded=folded))


def queue_options(url: str | None, public_rooms: Iterable[str]) -> dict[str, Any]:
    """Flask-SocketIO options for ``url``: the guarded manager, or nothing without a queue."""
    if url is None:
        return {}
    return {"client_manager": GuardedRedisManager(url, QUEUE_CHANNEL, public_rooms)}
