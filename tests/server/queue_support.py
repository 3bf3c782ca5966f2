"""Real services for the venue tests, started by the tests: Debian's redis-server and mosquitto,
each on a free loopback port with its files in a temporary directory."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from srv_support import WAIT, free_port


def find_exe(name: str) -> str | None:
    for candidate in (shutil.which(name), f"/usr/sbin/{name}", f"/usr/bin/{name}"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def wait_until(predicate: Callable[[], object], what: str) -> None:
    """Poll ``predicate`` until true; a generous deadline, never a timing assertion."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _accepting(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


class Service:
    """One server process on a free port, its files and log in ``workdir``."""

    def __init__(self, name: str, args: list[str], workdir: Path, port: int) -> None:
        self.name, self.port, self.workdir = name, port, workdir
        self.log = workdir / f"{name}.log"
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, cwd=workdir)

        def up() -> bool:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{name} exited: {self.log.read_text(errors='replace')[-500:]}")
            return _accepting(port)

        wait_until(up, f"{name} to listen on {port}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(WAIT)


def start_redis(exe: str, workdir: Path) -> Service:
    """redis-server on loopback only, no persistence (the queue is pub/sub: nothing to keep)."""
    port = free_port()
    args = [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", str(workdir), "--protected-mode", "yes"]  # fmt: skip
    return Service("redis", args, workdir, port)


def start_mosquitto(exe: str, workdir: Path) -> Service:
    port = free_port()
    conf = workdir / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\n")
    return Service("mosquitto", [exe, "-c", str(conf)], workdir, port)


class Venue:
    """``herald venue`` in a subprocess on a free port."""

    def __init__(self, db: Path | str, *args: str) -> None:
        from srv_support import _until_serving, herald_bin

        self.port = free_port()
        cmd = [herald_bin(), "venue", "--db", str(db), "--port", str(self.port), *args]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, env=env)  # fmt: skip
        serving, self.output = _until_serving(self.proc, WAIT)
        if not serving:
            self.proc.kill()
            raise RuntimeError(f"herald venue did not start: {self.output}")
        wait_until(lambda: _accepting(self.port), "herald venue to listen")

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(WAIT)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
