"""Real services for the venue tests, started by the tests: Debian's redis-server and mosquitto,
each on a free loopback port with its files in a temporary directory."""

from __future__ import annotations

import os
import secrets
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
        self.password = ""
        self.url = ""
        """For Redis: the queue URL with Herald's user and password."""
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


REDIS_USER = "herald"


def redis_acl(password: str) -> str:
    """The ACL docs/deployment.md gives a venue's Redis: nobody without a password (the default
    user is off), and Herald's user may only use pub/sub on Herald's channel."""
    return (
        "user default off\n"
        f"user {REDIS_USER} on >{password} resetchannels &herald -@all +@pubsub +ping"
        " +@connection +select\n"
    )


def start_redis(exe: str, workdir: Path) -> Service:
    """redis-server on loopback only, no persistence (the queue is pub/sub: nothing to keep),
    with the venue's ACL; ``url`` carries Herald's user and password."""
    port = free_port()
    password = secrets.token_urlsafe(24)
    conf = workdir / "redis.conf"
    conf.write_text(f"port {port}\nbind 127.0.0.1\nsave \"\"\nappendonly no\n"
                    f"dir {workdir}\nprotected-mode yes\n{redis_acl(password)}")  # fmt: skip
    conf.chmod(0o600)
    service = Service("redis", [exe, str(conf)], workdir, port)
    service.password = password
    service.url = f"redis://{REDIS_USER}:{password}@127.0.0.1:{port}/0"
    return service


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


class Tail:
    """Reads a running server's output into ``lines`` (a thread), so a test can wait for a log
    line: the only sign, from outside the process, that it has dealt with a queue message."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        import threading

        self.lines: list[str] = []
        self._proc = proc
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def count(self, text: str) -> int:
        return sum(1 for line in list(self.lines) if text in line)
