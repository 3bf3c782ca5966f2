"""Serving a Herald page server (a table, the venue view) on gunicorn's threaded worker.

Werkzeug's development server did the TLS handshake in its accept loop, so one TCP connection
that never sent a TLS hello froze every page load and reconnect, and its reading threads had
no timeout (issue 26, finding 6). Flask-SocketIO documents gunicorn's threaded worker with
simple-websocket as a production server for ``async_mode="threading"``; gevent or eventlet
would need every one of the referee's threads (devices, MQTT, camera, pyserial, the simulated
table) monkey-patched. So the worker is gunicorn's ``gthread`` and, here, each connection gets:

- the TLS handshake in its worker thread, never in the accept loop;
- a timeout on every blocking read and write of its socket, short while a request comes in
  (``read_timeout``: the TLS handshake, the headers, an uploaded frame) and longer on an upgraded
  websocket, whose quiet spells last up to a ping interval (``socket_timeout``). gunicorn
  switches a connection between blocking (worker thread) and non-blocking (poller) and its
  blocking mode has no timeout, so the sockets here are subclasses whose blocking mode is a
  timeout; a system-level ``SO_RCVTIMEO`` would not do, as Python's TLS layer retries a
  blocking read that timed out, forever;
- ``TCP_NODELAY`` (with Nagle on, a state message's last segment waited for the client's
  delayed ACK, about 40 ms);

The worker runs inside the ``herald`` process, not under gunicorn's forking master: the
referee, its store connection and its threads are made before serving and would not survive a
fork, and a refusal at start (a second server on the same store, a bad option) must stay a
sentence and an exit code. A crashed process is restarted by the service manager
(docs/deployment.md), which is what gunicorn's master would have done.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import socket
import ssl
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gunicorn.config import Config
from gunicorn.glogging import Logger
from gunicorn.sock import create_sockets
from gunicorn.workers.gthread import TConn, ThreadWorker

from bridge.devices.limits import LogLimiter

READ_TIMEOUT = 10.0
"""Seconds a request may leave its connection silent (the TLS handshake, a header, a part of an
uploaded frame) before the connection is closed; a phone on a poor LAN sends a 200 KB frame
in well under that."""
THREADS = 1024
"""Requests and websockets served at once. Each live websocket keeps one thread for its life
(a table has a few dozen; the fan-out bench and a venue view up to a thousand), so past this a
new websocket would wait for one to close. An idle thread costs its stack's touched pages."""
MAX_CONNECTIONS = 2048
"""Open connections (kept-alive ones included) before the worker stops accepting."""
GRACE = 2
"""Seconds a stopping server lets requests in flight finish."""


class ServeError(Exception):
    """The server could not start (its port taken, its certificate unreadable): one sentence."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


@dataclass(frozen=True)
class ServerOptions:
    """Where and how to serve: the address, the TLS pair (both or neither) and the timeouts."""

    host: str
    port: int
    tls_cert: str | None = None
    tls_key: str | None = None
    read_timeout: float = READ_TIMEOUT
    socket_timeout: float = 60.0
    """A websocket's quiet limit: longer than Engine.IO's ping interval plus its ping timeout,
    so only a client that has gone away is cut."""
    threads: int = THREADS


class _FoldingLogger(Logger):  # type: ignore[misc]  # gunicorn is untyped
    """gunicorn's logger, with a connection's timeout or reset as one line and not a traceback.

    A slow or vanished client is ordinary on a LAN of phones; gunicorn logs the socket error of
    a request with ``log.exception``. One line per connection names it (docs/security.md)."""

    def __init__(self, cfg: Any) -> None:
        super().__init__(cfg)
        self._folded = LogLimiter(logging.getLogger("gunicorn.error"))

    def exception(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        exc = sys.exc_info()[1]
        if isinstance(exc, OSError) and _quiet(exc):
            self.info("connection dropped: %s", exc.strerror or type(exc).__name__)
            return
        if self._folded.allow(f"exception:{type(exc).__name__}") is None:
            return  # the same failure again within seconds: counted, not logged
        super().exception(msg, *args, **kwargs)

    def warning(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        """One line per kind of warning every few seconds (a client sending plain HTTP or junk
        to the TLS port gets "Invalid request" each time), with how many more there were."""
        held = self._folded.allow(f"warning:{msg}")
        if held is None:
            return
        if held:
            msg = f"{msg} (and {held} more like it)"
        super().warning(msg, *args, **kwargs)


def _quiet(exc: OSError) -> bool:
    return isinstance(exc, TimeoutError | ssl.SSLError) or exc.errno in (
        errno.EAGAIN,
        errno.ETIMEDOUT,
        errno.ECONNRESET,
        errno.EPIPE,
    )


class _TimedSocket(socket.socket):
    """A connection whose blocking mode is a timeout (see the module's docstring)."""

    herald_timeout: float = READ_TIMEOUT

    def setblocking(self, flag: bool) -> None:
        if flag:
            self.settimeout(self.herald_timeout)
        else:
            super().setblocking(False)

    def send(self, data: Any, flags: int = 0) -> int:
        """All of ``data``, as a blocking socket sends: simple-websocket writes each message
        with one ``send``, which in timeout mode could write part of it."""
        if self.gettimeout() == 0:  # the poller's non-blocking mode: gunicorn's own business
            return super().send(data, flags)
        self.sendall(data, flags)
        return len(data)


class _TimedSSLSocket(ssl.SSLSocket):
    """The TLS side of a ``_TimedSocket``: ``SSLContext.sslsocket_class`` builds it on the wrap,
    which copies the plain socket's timeout, so the handshake is bounded too."""

    herald_timeout: float = READ_TIMEOUT

    def setblocking(self, flag: bool) -> None:
        if flag:
            self.settimeout(self.herald_timeout)
        else:
            super().setblocking(False)


def _timed(cls: type[Any], seconds: float) -> type[Any]:
    return type(cls.__name__, (cls,), {"herald_timeout": seconds})


class HeraldWorker(ThreadWorker):  # type: ignore[misc]
    """gunicorn's threaded worker with per-connection timeouts, run in this process.

    It keeps the connections it is serving, so a stop can close them: a websocket's thread
    blocks in ``recv`` until its socket is shut down, and the process could not exit."""

    options: ServerOptions

    def __init__(self, options: ServerOptions, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.options = options
        self._live: set[Any] = set()
        self._live_lock = threading.Lock()
        self._socket_class = _timed(_TimedSocket, options.read_timeout)

    def is_parent_alive(self) -> bool:
        """Always: there is no gunicorn master, and the process that started ``herald`` (a
        shell, a service manager) may go away without the server stopping."""
        return True

    def accept(self, listener: Any) -> None:
        """gunicorn's ``accept``, with the connection made a timed socket without Nagle."""
        try:
            client, address = listener.accept()
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        timed = self._socket_class(client.family, client.type, client.proto,
                                   fileno=client.detach())  # fmt: skip
        with contextlib.suppress(OSError):
            timed.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        timed.setblocking(True)
        self.enqueue_req(TConn(self.cfg, timed, address, listener.getsockname()))

    def handle(self, conn: Any) -> Any:
        with self._live_lock:
            self._live.add(conn)
        try:
            return super().handle(conn)
        finally:
            with self._live_lock:
                self._live.discard(conn)

    def handle_request(self, req: Any, conn: Any) -> Any:
        upgrade = {k.lower(): v.lower() for k, v in req.headers}.get("upgrade")
        if upgrade == "websocket":
            conn.sock.herald_timeout = self.options.socket_timeout
            conn.sock.settimeout(self.options.socket_timeout)
        return super().handle_request(req, conn)

    def handle_exit(self, sig: int, frame: Any) -> None:
        """A stop (SIGTERM): finish, then cut the live connections (websockets never finish)."""
        super().handle_exit(sig, frame)
        self.close_live()

    def handle_quit(self, sig: int, frame: Any) -> None:
        """Ctrl+C (SIGINT) and SIGQUIT: stop now, like Werkzeug's server did."""
        self.alive = False
        self.close_live()
        raise KeyboardInterrupt

    def close_live(self) -> None:
        """Shut every served connection down, so the threads blocked on them return."""
        with self._live_lock:
            live = list(self._live)
        for conn in live:
            with contextlib.suppress(OSError, ValueError):
                conn.sock.shutdown(socket.SHUT_RDWR)


class _App:
    """What gunicorn's worker loads: the WSGI app already built, told the read timeout
    (``environ["herald.read_timeout"]``) for the sentence of a stalled request."""

    def __init__(self, wsgi: Callable[..., Any], read_timeout: float) -> None:
        self._wsgi = wsgi
        self._read_timeout = read_timeout

    def wsgi(self) -> Callable[..., Any]:
        def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
            environ["herald.read_timeout"] = self._read_timeout
            return self._wsgi(environ, start_response)

        return app


def _config(options: ServerOptions) -> Config:
    cfg = Config()
    settings: dict[str, Any] = {
        "threads": options.threads,
        "worker_connections": MAX_CONNECTIONS,
        "keepalive": 5,
        "graceful_timeout": GRACE,
        "timeout": 0,
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "warning",
        "proc_name": "herald",
    }
    if options.tls_cert:
        settings["certfile"] = options.tls_cert
        settings["keyfile"] = options.tls_key
    for key, value in settings.items():
        cfg.set(key, value)
    if options.tls_cert:
        context = _tls_context(options)
        cfg.set("ssl_context", lambda _config, _default: context)
    return cfg


def _tls_context(options: ServerOptions) -> ssl.SSLContext:
    """One context for every connection (gunicorn would load the PEM files on each)."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(certfile=str(options.tls_cert), keyfile=options.tls_key)
    except (OSError, ssl.SSLError) as exc:
        raise ServeError("serve/tls-unreadable", str(exc)) from exc
    context.set_alpn_protocols(["http/1.1"])
    context.sslsocket_class = _timed(_TimedSSLSocket, options.read_timeout)
    return context


def _listen(options: ServerOptions) -> socket.socket:
    family = socket.AF_INET6 if ":" in options.host else socket.AF_INET
    try:
        return socket.create_server((options.host, options.port), family=family, backlog=128)
    except OSError as exc:
        raise ServeError("serve/cannot-listen", exc.strerror or str(exc)) from exc


def serve(wsgi: Callable[..., Any], options: ServerOptions) -> None:
    """Serve ``wsgi`` until SIGTERM (graceful) or SIGINT; returns when stopped.

    Raises:
        ServeError: the address cannot be listened on or the TLS pair cannot be read; nothing
            was served.
    """
    cfg = _config(options)
    listening = _listen(options)
    log = _FoldingLogger(cfg)
    sockets = create_sockets(cfg, log, fds=[listening.detach()])  # gunicorn owns it now
    worker = HeraldWorker(options, 0, 0, sockets, _App(wsgi, options.read_timeout), 0, cfg, log)
    worker.ppid = 0
    try:
        worker.init_process()
    except KeyboardInterrupt:
        pass
    finally:
        worker.close_live()
        if worker.tpool is not None:
            worker.tpool.shutdown(wait=False, cancel_futures=True)
        for listener in sockets:
            with contextlib.suppress(OSError):
                listener.close()
        with contextlib.suppress(OSError):
            worker.tmp.close()
