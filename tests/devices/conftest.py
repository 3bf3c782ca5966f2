"""Fixtures for device tests: a real mosquitto on a free loopback port, started and stopped here."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(
    predicate: Callable[[], object], timeout: float = 20.0, what: str | Callable[[], str] = ""
) -> None:
    """Poll ``predicate`` until true; fail (not a timing assertion: a generous deadline)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    text = what() if callable(what) else what
    raise AssertionError(f"timed out waiting for {text or predicate}")


def find_mosquitto() -> str | None:
    for candidate in (shutil.which("mosquitto"), "/usr/sbin/mosquitto"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


class Broker:
    """One mosquitto process with persistence in a temp dir; restartable on the same port."""

    def __init__(self, exe: str, workdir: Path) -> None:
        self.exe = exe
        self.port = free_port()
        self.workdir = workdir
        self.conf = workdir / "mosquitto.conf"
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\n"
            "allow_anonymous true\n"
            "persistence true\n"
            f"persistence_location {workdir}/\n"
            "autosave_interval 1\n"
            f"log_dest file {workdir}/mosquitto.log\n"
        )
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.exe, "-c", str(self.conf)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

        def accepting() -> bool:
            assert self.proc is not None
            if self.proc.poll() is not None:
                log = (self.workdir / "mosquitto.log").read_text(errors="replace")
                raise RuntimeError(f"mosquitto exited: {log[-500:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return True
            except OSError:
                return False

        wait_for(accepting, 10, "mosquitto to listen")

    def stop(self, *, kill: bool = False) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    exe = find_mosquitto()
    if exe is None:
        pytest.skip(
            "mosquitto not installed (make test installs it as root: scripts/system-deps.sh)"
        )
    b = Broker(exe, tmp_path)
    b.start()
    try:
        yield b
    finally:
        b.stop()


class VirtualDevice:
    """A firmware virtual device (``python -m firmware.<module>``) in a subprocess.

    Its stdout lines are collected by a thread; commands go to its stdin.
    """

    def __init__(self, module: str, args: list[str]) -> None:
        import threading

        self.lines: list[str] = []
        env = dict(os.environ, PYTHONPATH=str(REPO))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", f"firmware.{module}", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=REPO,
            env=env,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def send(self, *commands: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(c + "\n" for c in commands))
        self.proc.stdin.flush()

    def saw(self, line: str) -> bool:
        return line in self.lines

    def wait_line(self, line: str, timeout: float = 20.0) -> None:
        wait_for(lambda: self.saw(line), timeout, f"device output {line!r}; got {self.lines[-5:]}")

    def stop(self, *, kill: bool = False) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            return self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()
        finally:
            self._reader.join(5)
            if self.proc.stdin:
                self.proc.stdin.close()


@pytest.fixture
def devices() -> Iterator[Callable[..., VirtualDevice]]:
    """Factory for virtual devices; every one started is stopped at the end."""
    started: list[VirtualDevice] = []

    def start(module: str, *args: str) -> VirtualDevice:
        dev = VirtualDevice(module, list(args))
        started.append(dev)
        return dev

    yield start
    for dev in started:
        dev.stop(kill=True)
