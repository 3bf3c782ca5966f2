"""A client for Tabletop Simulator's External Editor API, with Herald in the editor's seat.

TTS and the editor talk over two localhost TCP ports: TTS listens on 39999 for the editor's
requests, the editor listens on 39998 for everything TTS says. Each message is one JSON object
on a connection of its own: the sender writes it and closes, so the receiver reads until EOF
(a large message arrives in several chunks). Answers never come back on the request's
connection; they arrive later as a new connection to the editor's port.

Threads, not asyncio: the client is used from the synchronous CLI and from a referee server that
runs its own threads, and TTS's traffic is a trickle of short connections. One listener thread
accepts connections and reads each to EOF *in turn*, so messages are handled in the order TTS
opened them (a ``print`` that happened before a ``return`` is seen before it). Requests that
expect an answer are serialised by a lock: one in flight at a time, each with a timeout, because
the API has no documented way to pair an answer with its request.

Listener callbacks run on the listener thread; an exception in one is logged and swallowed so a
faulty callback can never stop Herald from hearing TTS.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import socket
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bridge.tts.errors import (
    TTSConnectionError,
    TTSError,
    TTSListenError,
    TTSLuaError,
    TTSNotRunning,
    TTSPortInUse,
    TTSProtocolError,
    TTSTimeout,
)
from bridge.tts.messages import (
    ErrorMessage,
    GameLoaded,
    IncomingMessage,
    PrintMessage,
    ReturnValue,
    ScriptState,
    custom_message_request,
    execute_request,
    get_scripts_request,
    parse_message,
    save_and_play_request,
)

log = logging.getLogger(__name__)

DEFAULT_HOST = "127.0.0.1"
TTS_PORT = 39999
EDITOR_PORT = 39998

#: A message larger than this is refused rather than buffered (a whole save is a few MiB).
MAX_MESSAGE_BYTES = 64 * 1024 * 1024

_ADDR_IN_USE = {errno.EADDRINUSE, 10048}  # 10048: WSAEADDRINUSE on Windows

MessageListener = Callable[[IncomingMessage], None]
ErrorListener = Callable[[TTSError], None]


@dataclass(frozen=True)
class ExecuteResult:
    """What one Execute Lua request produced: its return value and the prints seen meanwhile."""

    value: Any
    prints: tuple[str, ...] = ()


@dataclass
class _Pending:
    """The one request waiting for an answer; filled by the listener thread."""

    want: type[IncomingMessage]
    guid: str = "-1"
    accept: Callable[[Any], bool] | None = None
    done: threading.Event = field(default_factory=threading.Event)
    answer: IncomingMessage | None = None
    error: TTSError | None = None
    prints: list[str] = field(default_factory=list)

    def offer(self, msg: IncomingMessage) -> bool:
        """Take ``msg`` if it answers this request; True when it was consumed."""
        if self.done.is_set():
            return False
        if isinstance(msg, PrintMessage):
            self.prints.append(msg.message)
            return False
        if self.want is ReturnValue and isinstance(msg, ErrorMessage):
            # TTS does not say which request an error belongs to; an error from the script we
            # ran (same guid, or no guid at all) is taken as this request's failure.
            if msg.guid in (None, "", self.guid):
                self.error = TTSLuaError(msg.error, msg.guid, msg.prefix)
                self.done.set()
                return True
            return False
        if isinstance(msg, self.want):
            if isinstance(msg, ReturnValue) and self.accept is not None:
                try:
                    ok = self.accept(msg.return_value)
                except Exception:
                    ok = False
                if not ok:
                    log.info("dropping a return value that does not answer the request")
                    return False
            self.answer = msg
            self.done.set()
            return True
        return False

    def fail(self, error: TTSError) -> None:
        if not self.done.is_set():
            self.error = error
            self.done.set()


class EditorClient:
    """Herald's end of the External Editor API: a listener on the editor port and a sender.

    Use as a context manager, or call ``start()`` / ``close()``::

        with EditorClient() as tts:
            result = tts.execute("return 1 + 1")

    Args:
        tts_host: where TTS listens (always localhost in practice).
        tts_port: TTS's port, 39999 unless a test stand-in says otherwise.
        listen_host: the address Herald listens on for TTS.
        listen_port: Herald's port, 39998 (the editor port TTS connects to); 0 picks a free
            port, which only a stand-in can use since real TTS always connects to 39998.
        connect_timeout: seconds to wait when opening a connection to TTS.
        read_timeout: seconds of silence after which an incoming connection that never closes
            is dropped as malformed.
    """

    def __init__(
        self,
        tts_host: str = DEFAULT_HOST,
        tts_port: int = TTS_PORT,
        listen_host: str = DEFAULT_HOST,
        listen_port: int = EDITOR_PORT,
        *,
        connect_timeout: float = 2.0,
        read_timeout: float = 5.0,
    ) -> None:
        self.tts_host = tts_host
        self.tts_port = tts_port
        self.listen_host = listen_host
        self.listen_port = listen_port
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout
        self._server: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._state_lock = threading.Lock()
        self._request_lock = threading.Lock()
        self._pending: _Pending | None = None
        self._listeners: list[MessageListener] = []
        self._error_listeners: list[ErrorListener] = []

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> None:
        """Open the editor port and start hearing TTS.

        Raises:
            TTSPortInUse: the port is taken (another editor plugin is attached).
            TTSListenError: the port cannot be opened for another reason.
        """
        if self._server is not None:
            return
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            if sys.platform == "win32" and hasattr(socket, "SO_EXCLUSIVEADDRUSE"):
                # On Windows SO_REUSEADDR would let two editors share the port silently.
                server.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)
            else:
                # Lets Herald restart at once; on POSIX it never allows two live listeners.
                server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            server.bind((self.listen_host, self.listen_port))
            server.listen(16)
            server.settimeout(0.1)
        except OSError as exc:
            server.close()
            if exc.errno in _ADDR_IN_USE:
                raise TTSPortInUse(
                    "tts/port-in-use", host=self.listen_host, port=self.listen_port
                ) from exc
            raise TTSListenError(
                "tts/listen-failed",
                host=self.listen_host,
                port=self.listen_port,
                detail=exc.strerror or str(exc),
            ) from exc
        self._server = server
        self.listen_port = server.getsockname()[1]
        self._stop.clear()
        self._thread = threading.Thread(target=self._serve, name="tts-editor-listener", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop listening, fail any waiting request, and join the listener thread."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if self._server is not None:
            self._server.close()
            self._server = None
        with self._state_lock:
            if self._pending is not None:
                self._pending.fail(TTSConnectionError("tts/not-started"))

    def __enter__(self) -> EditorClient:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # -- listeners -------------------------------------------------------------------------

    def add_listener(self, listener: MessageListener) -> None:
        """Call ``listener`` (on the listener thread) with every message TTS sends."""
        self._listeners.append(listener)

    def add_error_listener(self, listener: ErrorListener) -> None:
        """Call ``listener`` with every unreadable message (the client keeps running)."""
        self._error_listeners.append(listener)

    # -- requests --------------------------------------------------------------------------

    def send(self, payload: Mapping[str, Any]) -> None:
        """Write one message to TTS on a fresh connection and close it.

        Raises:
            TTSNotRunning: the connection was refused (TTS not running).
            TTSConnectionError: any other failure to connect or write.
        """
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        where = {"host": self.tts_host, "port": self.tts_port}
        try:
            with socket.create_connection(
                (self.tts_host, self.tts_port), timeout=self.connect_timeout
            ) as conn:
                conn.sendall(data)
                with contextlib.suppress(OSError):
                    conn.shutdown(socket.SHUT_WR)
        except ConnectionRefusedError as exc:
            raise TTSNotRunning("tts/not-running", **where) from exc
        except TimeoutError as exc:
            raise TTSConnectionError("tts/connect-failed", detail="timed out", **where) from exc
        except OSError as exc:
            raise TTSConnectionError(
                "tts/connect-failed", detail=exc.strerror or str(exc), **where
            ) from exc

    def custom_message(self, data: Mapping[str, Any]) -> None:
        """Send ``data`` to the game's ``onExternalMessage`` (messageID 2; no answer)."""
        self.send(custom_message_request(data))

    def execute(
        self,
        script: str,
        guid: str = "-1",
        *,
        timeout: float = 5.0,
        accept: Callable[[Any], bool] | None = None,
    ) -> ExecuteResult:
        """Run Lua in TTS and wait for the value it returns (messageID 3 → 5).

        The script must ``return`` something: TTS sends no answer for code that returns
        nothing, so such a call ends in ``TTSTimeout`` (use ``execute_no_return``).

        Args:
            script: Lua source.
            guid: ``"-1"`` for Global, else the GUID of an object that has a script.
            timeout: seconds to wait for the answer.
            accept: optional check of a return value; a value it rejects is treated as a late
                answer to an earlier request and skipped. Herald's own snippets return a nonce
                so a stale answer can never be taken for a fresh one.

        Raises:
            TTSNotRunning, TTSConnectionError: TTS cannot be reached.
            TTSLuaError: TTS answered with an error message.
            TTSProtocolError: TTS sent an unreadable message while we waited.
            TTSTimeout: no answer in time (or another request held the line).
        """
        pending = _Pending(want=ReturnValue, guid=guid, accept=accept)
        answer = self._request(execute_request(script, guid), pending, timeout, "Execute Lua")
        assert isinstance(answer, ReturnValue)
        return ExecuteResult(value=answer.return_value, prints=tuple(pending.prints))

    def execute_no_return(self, script: str, guid: str = "-1") -> None:
        """Send Lua to TTS without waiting (for scripts that return nothing)."""
        self.send(execute_request(script, guid))

    def get_scripts(self, *, timeout: float = 10.0) -> GameLoaded:
        """Ask for every script and UI in the game (messageID 0, answered by messageID 1)."""
        pending = _Pending(want=GameLoaded)
        answer = self._request(get_scripts_request(), pending, timeout, "Get Lua Scripts")
        assert isinstance(answer, GameLoaded)
        return answer

    def save_and_play(
        self, script_states: Sequence[ScriptState], *, timeout: float = 30.0
    ) -> GameLoaded:
        """Replace scripts/UI of the listed objects and reload (messageID 1, answered by 1).

        TTS deletes the script or UI of a listed object whose ``script``/``ui`` is missing, so
        pass both for every object you list.
        """
        pending = _Pending(want=GameLoaded)
        answer = self._request(
            save_and_play_request(script_states), pending, timeout, "Save & Play"
        )
        assert isinstance(answer, GameLoaded)
        return answer

    def _request(
        self, payload: Mapping[str, Any], pending: _Pending, timeout: float, what: str
    ) -> IncomingMessage:
        if not self.running:
            raise TTSConnectionError("tts/not-started")
        if not self._request_lock.acquire(timeout=timeout):
            raise TTSTimeout("tts/busy", seconds=_fmt(timeout))
        try:
            with self._state_lock:
                self._pending = pending
            try:
                # The answer may arrive before send() returns: the slot is set up first.
                self.send(payload)
                if not pending.done.wait(timeout):
                    raise TTSTimeout("tts/timeout", seconds=_fmt(timeout), what=what)
            finally:
                with self._state_lock:
                    self._pending = None
            if pending.error is not None:
                raise pending.error
            assert pending.answer is not None
            return pending.answer
        finally:
            self._request_lock.release()

    # -- listener thread -------------------------------------------------------------------

    def _serve(self) -> None:
        server = self._server
        assert server is not None
        while not self._stop.is_set():
            try:
                conn, _addr = server.accept()
            except TimeoutError:
                continue
            except OSError:
                if self._stop.is_set():
                    break
                continue
            with conn:
                try:
                    data = self._read_to_eof(conn)
                    msg = parse_message(data)
                except TTSProtocolError as exc:
                    self._report_error(exc)
                    continue
            self._dispatch(msg)

    def _read_to_eof(self, conn: socket.socket) -> bytes:
        conn.settimeout(self.read_timeout)
        chunks: list[bytes] = []
        size = 0
        while True:
            try:
                chunk = conn.recv(65536)
            except TimeoutError as exc:
                raise TTSProtocolError(
                    "tts/malformed-message",
                    detail=f"the connection stayed open {_fmt(self.read_timeout)} s without "
                    "finishing its message",
                ) from exc
            except OSError as exc:
                raise TTSProtocolError(
                    "tts/malformed-message", detail=f"connection broken ({exc})"
                ) from exc
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > MAX_MESSAGE_BYTES:
                raise TTSProtocolError(
                    "tts/malformed-message",
                    detail=f"message larger than {MAX_MESSAGE_BYTES} bytes",
                )
            chunks.append(chunk)

    def _dispatch(self, msg: IncomingMessage) -> None:
        with self._state_lock:
            if self._pending is not None:
                self._pending.offer(msg)
        for listener in list(self._listeners):
            try:
                listener(msg)
            except Exception:
                log.exception("a TTS message listener failed")

    def _report_error(self, error: TTSError) -> None:
        log.warning("%s", error)
        with self._state_lock:
            if self._pending is not None:
                # An unreadable message while a request waits is most likely its answer.
                self._pending.fail(error)
        for listener in list(self._error_listeners):
            try:
                listener(error)
            except Exception:
                log.exception("a TTS error listener failed")


def _fmt(seconds: float) -> str:
    return f"{seconds:g}"
