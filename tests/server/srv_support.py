"""Helpers for the server tests: an in-process table, and ``herald serve`` in a subprocess."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bridge.referee import Notice, Referee, Update
from bridge.simtable import SimConfig, SimTable
from bridge.store import open_store
from bridge.web.follow import StateFollower
from engine import get_game
from engine.registry import GROUP

SEATS = ("blue", "green", "pink")


@dataclass
class Recorder:
    """A transport that keeps what the referee published (for referee-level tests)."""

    updates: list[Update] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)

    def publish(self, update: Update) -> None:
        self.updates.append(update)

    def notice(self, notice: Notice) -> None:
        self.notices.append(notice)


def open_referee(db: Path | str, **kwargs: Any) -> Referee:
    """A Middle Ages referee on the store ``db`` names (an SQLite path or a PostgreSQL URL)."""
    store = open_store(db)
    return Referee.open(store, get_game("middle-ages"), "t1", SEATS, {}, **kwargs)


def play_table_moves(referee: Referee) -> int:
    """Observe chance moves until a seat is to act; returns how many were made."""
    sim = SimTable(referee, SimConfig(mode="table", seed=7))
    made = 0
    while sim.step():
        made += 1
    return made


def play_moves(referee: Referee, count: int, seed: int = 3) -> int:
    """Observe up to ``count`` moves of every kind (the simulated table's path)."""
    sim = SimTable(referee, SimConfig(mode="all", seed=seed))
    made = 0
    while made < count and sim.step():
        made += 1
    return made


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    """A ``herald serve`` subprocess and the links it printed."""

    proc: subprocess.Popen[str]
    port: int
    db: Path
    output: str
    table_url: str
    host_url: str
    seat_urls: dict[str, str]
    log: str = ""
    """Everything the server printed, complete once it stopped (``stop``)."""
    tls: ssl.SSLContext | None = None
    """A client context trusting the server's ``--tls-cert`` (None: the server speaks HTTP)."""

    @property
    def base(self) -> str:
        scheme = "https" if self.tls is not None else "http"
        return f"{scheme}://127.0.0.1:{self.port}"

    def token(self, seat: str) -> str:
        return self.seat_urls[seat].rsplit("/", 1)[1]

    @property
    def host_token(self) -> str:
        return self.host_url.rsplit("/", 1)[1]

    def health(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"{self.base}/healthz", timeout=5, context=self.tls) as r:
            data: dict[str, Any] = json.loads(r.read())
            return data

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        if self.proc.stdout is not None and not self.proc.stdout.closed:
            self.log = self.output + self.proc.stdout.read()
            self.proc.stdout.close()


def herald_bin() -> str:
    """The ``herald`` console script of the interpreter running the tests."""
    beside = Path(sys.executable).parent / "herald"
    found = str(beside) if beside.exists() else shutil.which("herald")
    assert found, "the herald console script is not installed (pip install -e .)"
    return found


def _start(
    db: Path,
    args: tuple[str, ...],
    table: str | None,
    env: dict[str, str] | None,
    prefix: tuple[str, ...] = (),
    umask: int = -1,
    game: str | None = "middle-ages",
) -> tuple[subprocess.Popen[str], int]:
    """``herald serve`` on a free port (run under ``prefix``, e.g. ``setpriv ...``)."""
    port = free_port()
    named = any(a == "--table" or a.startswith("--table=") for a in args)
    table_args = () if named or table is None else ("--table", table)
    # the server tests play Middle Ages unless they name a game (or ``game`` is None: none)
    has_game = any(a.split("=")[0] in ("--game", "--default-game") for a in args)
    game_args = () if has_game or game is None else ("--game", game)
    cmd = [*prefix, herald_bin(), "serve", "--db", str(db), "--port", str(port),
           "--no-qr", "--table-id", "t1", *game_args, *table_args, *args]  # fmt: skip
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, umask=umask)  # fmt: skip
    return proc, port


def _until_serving(proc: subprocess.Popen[str], timeout: float) -> tuple[bool, str]:
    """Read the server's output until it says it serves (True) or exits (False)."""
    assert proc.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            return False, "".join(lines)
        lines.append(line)
        if "Ctrl+C" in line:
            return True, "".join(lines)
    return False, "".join(lines)


def refused(
    db: Path, *args: str, prefix: tuple[str, ...] = (), table: str | None = "moves"
) -> tuple[int, str]:
    """Run ``herald serve`` that must refuse to start: its exit code and everything it printed.

    A server that starts serving instead is stopped, and the calling test fails.
    """
    proc, _ = _start(db, args, table, None, prefix)
    serving, output = _until_serving(proc, WAIT)
    if serving:
        proc.send_signal(signal.SIGTERM)
        rest = proc.communicate(timeout=WAIT)[0]
        raise AssertionError(f"herald serve started instead of refusing:\n{output}{rest}")
    assert proc.stdout is not None
    output += proc.stdout.read()
    proc.stdout.close()
    return proc.wait(timeout=WAIT), output


def serve(
    db: Path,
    *args: str,
    timeout: float = 120.0,
    table: str | None = "moves",
    env: dict[str, str] | None = None,
    umask: int = -1,
    game: str | None = "middle-ages",
) -> Served:
    """Start ``herald serve`` on a free port and wait until it answers ``/healthz``.

    The server tests exercise the referee, the store and the sockets, so they run the
    move-level simulated table (its seats blue, green, pink): ``table`` is passed as
    ``--table`` unless it is None (the server's own default) or ``args`` name one, and Middle
    Ages unless ``args`` name a ``--game`` (``game=None``: no game named, a first run).
    ``umask`` (default: the test's) is the server's.
    """
    deadline = time.monotonic() + timeout
    proc, port = _start(db, args, table, env, umask=umask, game=game)
    serving, output = _until_serving(proc, timeout)
    if not serving:
        proc.kill()
        proc.wait(timeout=WAIT)
        raise RuntimeError(f"herald serve exited or did not start: {output}")
    seats = dict(re.findall(r"Seat (\w+): (\S+)", output))
    host = re.search(r"Host display.*?: (\S+)", output)
    table = re.search(r"Table display: (\S+)", output)
    assert host and table, output
    served = Served(proc, port, db, output, table.group(1), host.group(1), seats)
    if "--tls-cert" in args:
        served.tls = trusting(Path(args[args.index("--tls-cert") + 1]))
    while time.monotonic() < deadline:
        try:
            served.health()
            return served
        except OSError:
            time.sleep(0.1)
    served.stop(signal.SIGKILL)
    raise RuntimeError(f"herald serve did not answer: {output}")


def trusting(cert: Path) -> ssl.SSLContext:
    """A client context that trusts the self-signed ``cert`` (made by ``self_signed``)."""
    context = ssl.create_default_context(cafile=str(cert))
    context.check_hostname = False
    return context


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A throwaway certificate and key for 127.0.0.1 (``openssl``; the test skips without it)."""
    import pytest

    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not installed")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)  # fmt: skip
    return cert, key


SOCKET_WAIT = 30.0  # python-socketio's own defaults (1 s, 5 s) lapse on a loaded machine


def live_client(**options: Any) -> Any:
    """A python-socketio client for a served table, with waits a loaded machine needs."""
    import socketio

    return socketio.Client(request_timeout=SOCKET_WAIT, **options)


def join(client: Any, base: str, token: str | None = None) -> None:
    """Connect a test client over WebSocket, as a seat when given its token.

    One place for the connect options: a call that forgot `wait_timeout` failed CI once when
    the namespace handshake took longer than python-socketio's 1 s default.
    """
    auth = {"token": token} if token else None
    client.connect(base, auth=auth, transports=["websocket"], wait_timeout=SOCKET_WAIT)


def ordered_client() -> Any:
    """A python-socketio client whose handlers run in the order the messages arrived.

    Engine.IO's client hands every message to a new thread, so handlers may run out of arrival
    order on a loaded machine; a test that checks the server's order must see the wire's order,
    so this client handles messages in its read loop (its handlers must be quick).
    """
    client = live_client(reconnection=False)
    eio = client.eio
    trigger = eio._trigger_event

    def in_arrival_order(event: str, *args: Any, **kwargs: Any) -> Any:
        if event == "message":
            kwargs["run_async"] = False
        return trigger(event, *args, **kwargs)

    eio._trigger_event = in_arrival_order
    return client


WAIT = 90.0  # an upper bound for a loaded machine (load 16 on 2 cores), not a timing assertion


class Watcher:
    """A python-socketio client that records every event it receives."""

    def __init__(
        self, url: str, token: str | None = None, transport: str = "websocket", **connect: Any
    ) -> None:
        self.events: list[tuple[str, Any]] = []
        self._cond = threading.Condition()
        self.follower = StateFollower()
        self.client = ordered_client()
        for name in ("state", "seat_state", "prompt", "error", "violation", "host", "roll"):
            self.client.on(name, self._recorder(name))
        auth = {"token": token} if token else None
        self.client.connect(
            url, auth=auth, transports=[transport], wait_timeout=SOCKET_WAIT, **connect
        )

    def _recorder(self, name: str) -> Callable[[Any], None]:
        def record(data: Any) -> None:
            if name == "state":  # whole states, as a page holds them (patches applied)
                data = self.follower.follow(data)
                if data is None:
                    self.client.emit("sync", {"state_id": self.follower.state_id})
                    return
            with self._cond:
                self.events.append((name, data))
                self._cond.notify_all()

        return record

    def of(self, name: str) -> list[Any]:
        with self._cond:
            return [d for n, d in self.events if n == name]

    def wait_for(self, name: str, test: Callable[[Any], bool]) -> Any:
        with self._cond:
            found: list[Any] = []

            def ready() -> bool:
                found[:] = [d for n, d in self.events if n == name and test(d)]
                return bool(found)

            assert self._cond.wait_for(ready, timeout=WAIT), f"no matching {name}"
            return found[-1]

    def close(self) -> None:
        self.client.disconnect()


GAMES_DIR = Path(__file__).resolve().parents[1] / "games"
"""The games written for the tests (the tiny Take-away)."""


def plugin_path(root: Path) -> str:
    """A ``PYTHONPATH`` on which the tiny game is an installed ``herald.games`` plugin (the
    metadata ``pip install`` leaves behind), so ``herald serve`` finds it like any game."""
    dist = root / "herald_takeaway-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: herald-takeaway\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(f"[{GROUP}]\ntakeaway = takeaway:GAME\n")
    return os.pathsep.join([str(root), str(GAMES_DIR), os.environ.get("PYTHONPATH", "")])


def serve_takeaway(root: Path) -> Served:
    """``herald serve`` on the tiny game installed as a plugin: two phones, the simulated
    table rolling the die only."""
    env = {"PYTHONPATH": plugin_path(root / "site")}
    args = ("--game", "takeaway", "--players", "2", "--sim", "table", "--move-delay", "0.05")
    return serve(root / "takeaway.db", *args, env=env)
