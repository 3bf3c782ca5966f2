"""Per-client send queues kept bounded: a client that does not read is cut off, not fed.

python-socketio hands every room broadcast to each participant's Engine.IO queue, and that
queue has no bound: a client that stops reading (a stalled tab, a hostile script with a tiny
receive window) makes the server hold every state the table publishes, for as long as it stays
connected. So before a broadcast :func:`cut_off_stalled` closes the Engine.IO connection of any
participant with more than :data:`MAX_QUEUED` messages waiting. Nothing more is queued for it;
a real page that was only slow reads what it had, sees the connection close and reconnects by
itself (its resync brings it the current state). Requests are guarded the same way
(:func:`guarded`): a client that keeps asking (``sync``, ``devices``, any event) without reading
the answers is cut off instead of answered. What the server holds for any client, token or not,
is bounded by :data:`MAX_QUEUED` messages.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from bridge.devices.limits import LogLimiter
from engine.i18n import message

log = logging.getLogger(__name__)
_logs = LogLimiter(log)
"""One line every few seconds, however many clients are cut off (each costs a connection)."""

MAX_QUEUED = 64
"""Messages that may wait in one client's queue; a client with more is cut off."""

NAMESPACE = "/"


def _socket(server: Any, sid: str) -> Any:
    """The Engine.IO socket under Socket.IO session ``sid``, or None once it is gone."""
    eio_sid = server.manager.eio_sid_from_sid(sid, NAMESPACE)
    sock = server.eio.sockets.get(eio_sid) if eio_sid is not None else None
    return None if sock is None or sock.closed else sock


def queued(server: Any, sid: str) -> int | None:
    """How many messages wait in client ``sid``'s send queue; None once it is gone."""
    sock = _socket(server, sid)
    return None if sock is None else int(sock.queue.qsize())


def cut_off(server: Any, sid: str) -> bool:
    """Close client ``sid``'s connection without waiting for its queue to drain (it may never:
    the client is not reading). True when there was one to close."""
    eio_sid = server.manager.eio_sid_from_sid(sid, NAMESPACE)
    sock = _socket(server, sid)
    if sock is None:
        return False
    sock.close(wait=False, abort=True)  # the disconnect handlers run; nothing more is queued
    server.eio.sockets.pop(eio_sid, None)
    _logs.warning("stalled", message("limits/stalled-client", sid=sid))
    return True


def cut_off_stalled(server: Any, room: str, limit: int = MAX_QUEUED) -> list[str]:
    """Cut off every participant of ``room`` with more than ``limit`` messages waiting."""
    stalled = []
    for sid, _eio_sid in list(server.manager.get_participants(NAMESPACE, room)):
        waiting = queued(server, sid)
        if waiting is not None and waiting > limit:
            stalled.append(sid)
    for sid in stalled:
        cut_off(server, sid)
    return stalled


def guarded(server: Any, current_sid: Callable[[], str], handler: Callable[..., Any]) -> Any:
    """``handler`` for a Socket.IO event, answering only a client that reads its answers: one
    with more than :data:`MAX_QUEUED` messages waiting is cut off and gets no answer."""

    def guard(*args: Any) -> Any:
        sid = current_sid()
        waiting = queued(server, sid)
        if waiting is not None and waiting > MAX_QUEUED:
            cut_off(server, sid)
            return None
        return handler(*args)

    return guard
