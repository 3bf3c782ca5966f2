"""Bounds on what a web client may send, applied before anything decodes or buffers it.

Three things a client controls reach the server before a handler sees them: the HTTP body of a
long-polling POST, the JSON text of each Socket.IO packet, and the number of arguments of an
event. Each is bounded here so a refusal is one clear answer (a catalog code) and one log line,
never a traceback, a stalled request or a broken session:

- a long-polling POST over ``MAX_PACKET_BYTES`` gets HTTP 413 at once, before Engine.IO reads
  it (Engine.IO's own check closed the session and held the request until the ping timeout);
- a packet whose JSON nests deeper than ``MAX_JSON_DEPTH`` (or is not JSON) is not parsed: the
  packet is delivered as the ``UNREADABLE`` event, which the web table answers with
  ``intent/too-deep`` or ``intent/not-json`` (Python's parser recursed into a traceback).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterable
from typing import Any

from socketio import packet

from bridge.devices.limits import LogLimiter
from engine.i18n import message

MAX_JSON_DEPTH = 64
"""Deepest nesting of arrays and objects accepted in one packet. An intent nests about six
deep (the event's argument list, the intent, its move and the move's own fields)."""

UNREADABLE = "herald:unreadable"
"""The event an undecodable packet is delivered as: ``[UNREADABLE, code]``. A client sending it
on purpose only gets the same refusal."""

REFUSED_AUTH = "herald:unreadable"
"""Key of the ``auth`` object a CONNECT packet with undecodable auth is delivered with."""

_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"')
_BRACKET = re.compile(r"[\[\]{}]")

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class UnreadableJSON(ValueError):
    """A packet's JSON is refused unparsed; ``code`` is the catalog code of the reason."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether JSON ``text`` nests arrays and objects deeper than ``limit``.

    Linear and without recursion: brackets inside strings are skipped, so a move naming "[["
    counts nothing. Text with fewer opening brackets than ``limit`` is answered at C speed.
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for bracket in _BRACKET.finditer(_STRING.sub('""', text)):
        if bracket.group() in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


class BoundedJSON:
    """The JSON module of the Socket.IO packets: the standard one, with the depth checked first
    and Engine.IO's cap on integer length kept."""

    @staticmethod
    def dumps(*args: Any, **kwargs: Any) -> str:
        return json.dumps(*args, **kwargs)

    @staticmethod
    def loads(text: str | bytes, **kwargs: Any) -> Any:
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        if too_deep(text):
            raise UnreadableJSON("intent/too-deep")
        try:
            return json.loads(text, parse_int=_short_int, **kwargs)
        except (ValueError, RecursionError) as exc:
            raise UnreadableJSON("intent/not-json") from exc


def _short_int(digits: str) -> int:
    if len(digits) > 100:
        raise ValueError("integer too long")
    return int(digits)


class BoundedPacket(packet.Packet):  # type: ignore[misc]  # socketio is untyped
    """A Socket.IO packet decoded with ``BoundedJSON``; an undecodable payload becomes the
    ``UNREADABLE`` event (or, in a CONNECT, an auth carrying ``REFUSED_AUTH``), so the sender
    gets an answer under its own acknowledgement id instead of a logged traceback."""

    json = BoundedJSON

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if kwargs.get("encoded_packet") in ("", b""):  # "4": python-socketio skips decoding it
            self._unreadable(keep_id=False)

    def decode(self, encoded_packet: Any) -> int:
        try:
            attachments = int(super().decode(encoded_packet) or 0)
        except UnreadableJSON as exc:
            data: Any = None
            kind: Any = getattr(self, "packet_type", None)  # set by Packet.decode
            if kind in (packet.EVENT, packet.BINARY_EVENT):
                self.packet_type = packet.EVENT
                data = [UNREADABLE, exc.code]
            elif kind == packet.CONNECT:
                data = {REFUSED_AUTH: exc.code}
            self.data = data
            return 0
        except (ValueError, TypeError, IndexError, KeyError):
            # not a Socket.IO packet at all ("4x", an unknown type): python-socketio would
            # raise in its message handler, a traceback per packet (issue 26, finding 7)
            self._unreadable(keep_id=False)
            return 0
        if not _well_formed(self.packet_type, self.data):
            self._unreadable(keep_id=self.packet_type in (packet.EVENT, packet.BINARY_EVENT))
            return 0
        return attachments

    def add_attachment(self, attachment: Any) -> bool:
        """A binary packet's attachment; one that is not binary ends the packet as the
        ``UNREADABLE`` event (python-socketio would raise in its message handler)."""
        if isinstance(attachment, bytes):
            return bool(super().add_attachment(attachment))
        if self.packet_type != packet.BINARY_EVENT:
            self.id = None
        self.packet_type = packet.BINARY_EVENT  # what the server dispatches as an event
        self.data = [UNREADABLE, "intent/bad-packet"]
        self.attachments: list[bytes] = []
        return True

    def _unreadable(self, keep_id: bool) -> None:
        """Become the ``UNREADABLE`` event (``intent/bad-packet``), answered under the packet's
        id when it was a request, so the sender hears why."""
        self.packet_type = packet.EVENT
        self.data = [UNREADABLE, "intent/bad-packet"]
        self.namespace = getattr(self, "namespace", None)
        if not keep_id:
            self.id = None
        self.attachment_count = 0


def _well_formed(kind: Any, data: Any) -> bool:
    """Whether a decoded packet has the shape python-socketio's handlers index into: an event
    is ``["name", ...]`` (a string name), an acknowledgement a list of arguments."""
    if kind in (packet.EVENT, packet.BINARY_EVENT):
        return isinstance(data, list) and bool(data) and isinstance(data[0], str)
    if kind in (packet.ACK, packet.BINARY_ACK):
        return isinstance(data, list)
    return kind in (packet.CONNECT, packet.DISCONNECT)  # a client never sends CONNECT_ERROR


def limit_polling_posts(app: WSGIApp, prefix: str, limit: int) -> WSGIApp:
    """Wrap ``app`` so a request under ``prefix`` with a body over ``limit`` bytes gets HTTP 413
    (``http/too-large``) at once; Engine.IO never sees it and the session stays usable.

    A body up to ``DRAIN_FACTOR`` times the limit is read and dropped first, so the client
    reads the answer instead of a reset connection; a larger one is not read at all and the
    connection is closed.
    """

    def bounded(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if not str(environ.get("PATH_INFO", "")).startswith(prefix):
            return app(environ, start_response)
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = limit + 1
        if length <= limit:
            return app(environ, start_response)
        if length <= limit * DRAIN_FACTOR:
            _drain(environ["wsgi.input"], length)
        body = json.dumps(
            {
                "ok": False,
                "code": "http/too-large",
                "message": message("http/too-large", size=length, limit=limit),
                "params": {"size": length, "limit": limit},
            }
        ).encode()
        headers = [
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(body))),
            ("Connection", "close"),
        ]
        start_response("413 Request Entity Too Large", headers)
        return [body]

    return bounded


DRAIN_FACTOR = 16
"""Bodies up to this many times the limit are read and dropped before the 413 is sent."""


def _drain(stream: Any, length: int) -> None:
    left = length
    while left > 0:
        chunk = stream.read(min(left, 64 * 1024))
        if not chunk:
            return
        left -= len(chunk)


class FoldedErrors(logging.Filter):
    """A logger's tracebacks as one line per kind of exception every few seconds.

    The safety net under ``BoundedPacket``: whatever else a client sends that makes Engine.IO's
    or Socket.IO's message handler raise is logged by Engine.IO with its traceback, once per
    packet (500 a second from one socket, issue 26 finding 7). Here the first of a kind is one
    line, the next ones are counted and told with the next line that gets through."""

    def __init__(self, limiter: LogLimiter) -> None:
        super().__init__()
        self.limiter = limiter

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.exc_info or record.exc_info[1] is None:
            return True
        exc = record.exc_info[1]
        kind = type(exc).__name__
        held = self.limiter.allow(f"{record.name}:{kind}")
        if held is None:
            return False
        text = f"{record.getMessage()}: {kind}: {exc}"
        if held:
            text = message("devices/log-more", text=text, count=held,
                           seconds=round(self.limiter.interval))  # fmt: skip
        record.msg, record.args, record.exc_info, record.exc_text = text, (), None, None
        return True


def fold_handler_errors() -> None:
    """Fold the tracebacks Engine.IO and Socket.IO log for a packet their handlers could not
    take (``FoldedErrors``); once per process."""
    for name in ("engineio.server", "socketio.server"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, FoldedErrors) for f in logger.filters):
            logger.addFilter(FoldedErrors(LogLimiter(logger)))
