"""Virtual table devices for ``herald serve`` without hardware: a local broker, or pty cables.

``make run`` should show seat boxes online, over the same path real boards take. So with no
``--mqtt``/``--serial`` the server starts Debian's ``mosquitto`` on a free loopback port (its own
process, config and temp dir, stopped with the server) and runs the firmware's host-hal virtual
devices (``python -m firmware.seat_box`` / ``firmware.dice_tower``) against it. That broker
takes no anonymous clients: Herald and each virtual device log in with credentials generated
at start (:mod:`bridge.devices.broker_auth`), and an ACL keeps each device to its own topics.
Without mosquitto it joins each virtual device to Herald through a pair of pseudo-terminals (a relay
thread plays the cable, as in the serial tests). Without either, the server still runs and the
device panel says why the devices are offline.

Children get ``PR_SET_PDEATHSIG`` on Linux, so even a SIGKILLed server leaves nothing running.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import pwd
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

from engine.i18n import message

from .broker_auth import HERALD_USER, BrokerAuth

REPO = Path(__file__).resolve().parents[2]


class Unavailable(RuntimeError):
    """A way of running virtual devices cannot be used here; ``str()`` says why (catalog)."""


def _die_with_parent() -> None:
    """Runs in the child before exec: SIGTERM it when the server process dies (Linux only)."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _kernel_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def free_port(avoid: Collection[int] = (), pick: Callable[[], int] = _kernel_port) -> int:
    """A loopback port free now and not in ``avoid``: ports this process will bind later (the
    web server's, say) look free until then, and the kernel may hand one out."""
    while True:
        port = pick()
        if port not in avoid:
            return port


def find_mosquitto() -> str | None:
    """Debian installs the broker in /usr/sbin, often not on a user's PATH."""
    for candidate in (shutil.which("mosquitto"), "/usr/sbin/mosquitto"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


@dataclass
class LocalBroker:
    """A private mosquitto on a free loopback port, in its own temp dir."""

    exe: str
    port: int = 0
    auth: BrokerAuth | None = None
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="herald-mqtt-")))
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The broker's address (no credentials: safe to show)."""
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def herald_url(self) -> str:
        """The address with Herald's own credentials, for its MQTT transport."""
        if self.auth is None:
            return self.url
        return f"mqtt://{HERALD_USER}:{self.auth.herald_password}@127.0.0.1:{self.port}"

    def credentials_file(self, device: str) -> Path:
        """A device's 0600 credentials file (``--credentials``), in the broker's private dir."""
        assert self.auth is not None
        return self.auth.device_file(self.workdir / "devices", device)

    @classmethod
    def start_new(
        cls, timeout: float = 5.0, auth: BrokerAuth | None = None, avoid: Collection[int] = ()
    ) -> LocalBroker:
        """Start one, or raise :class:`Unavailable` saying why (not installed, did not start).

        With ``auth`` the broker takes only those users, each held to its topics by the ACL;
        without, it is anonymous (for tests of a user's own open broker). ``avoid``: ports not
        to take (the web server's, not yet bound when the devices start).
        """
        exe = find_mosquitto()
        if exe is None:
            raise Unavailable(message("devices/why-no-mosquitto"))
        last = ""
        for _ in range(3):  # another process may take the free port between bind and listen
            broker = cls(exe, free_port(avoid), auth)
            try:
                broker._start(timeout)
                return broker
            except Unavailable as exc:
                last = str(exc)
                broker.stop()
        raise Unavailable(last)

    def _config(self) -> str:
        lines = [f"listener {self.port} 127.0.0.1", "persistence false", "log_dest stderr"]
        if self.auth is None:
            return "\n".join([*lines, "allow_anonymous true"]) + "\n"
        passwd, acl = self.auth.write(self.workdir)
        # a client's id is its user name: no one can take Herald's id (or a device's) and so
        # knock it off the broker (issue 26, finding 3)
        lines += ["allow_anonymous false", f"password_file {passwd}", f"acl_file {acl}",
                  "use_username_as_clientid true"]  # fmt: skip
        return "\n".join(lines) + "\n"

    def _start(self, timeout: float) -> None:
        log_file = self.workdir / "mosquitto.log"
        conf = self.workdir / "mosquitto.conf"
        conf.write_text(self._config())
        _hand_to_broker_user(self.workdir)
        try:
            with log_file.open("wb") as log_out:
                # Started as root, mosquitto switches to its own user, which clears
                # PR_SET_PDEATHSIG; so a shell keeps our pipe and kills it when the pipe closes
                # (the server stopped or died), and otherwise waits for it (poll() sees an exit).
                self.proc = subprocess.Popen(
                    ["/bin/sh", "-c", _WATCH, "herald-mosquitto", self.exe, str(conf)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=log_out,
                    preexec_fn=_die_with_parent,
                    start_new_session=True,  # Ctrl+C is the server's to handle, not the broker's
                )
        except OSError as exc:
            raise Unavailable(message("devices/why-mosquitto-failed", detail=exc)) from exc
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                tail = log_file.read_text(errors="replace")[-200:] if log_file.exists() else ""
                detail = tail.strip() or f"exit {self.proc.returncode}"
                raise Unavailable(message("devices/why-mosquitto-failed", detail=detail))
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise Unavailable(message("devices/why-mosquitto-failed", detail="no answer"))

    def stop(self) -> None:
        """Close the watch pipe (the shell then stops mosquitto) and wait for both."""
        proc, self.proc = self.proc, None
        if proc is not None:
            if proc.stdin is not None:
                with contextlib.suppress(OSError):
                    proc.stdin.close()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(OSError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        shutil.rmtree(self.workdir, ignore_errors=True)


def _hand_to_broker_user(folder: Path) -> None:
    """Started as root, mosquitto drops to its own user before it reads the password file and
    the ACL: give it the private dir (still 0700, its files 0600), not the world."""
    if os.geteuid() != 0:
        return
    try:
        user = pwd.getpwnam("mosquitto")
    except KeyError:
        return
    for path in (folder, *folder.iterdir()):
        os.chown(path, user.pw_uid, user.pw_gid)


_WATCH = """
exec 3<&0
"$1" -c "$2" </dev/null 3<&- &
pid=$!
(cat <&3 >/dev/null; kill "$pid" 2>/dev/null) &
wait "$pid"
"""
"""The broker under a watch: when standard input closes, mosquitto is stopped."""


class PtyCable:
    """Two pseudo-terminal pairs joined by a relay thread: device ↔ cable ↔ Herald.

    The device opens :attr:`device_path`, Herald opens :attr:`host_path`; each side sees a
    serial port, and bytes are copied between the two masters.
    """

    def __init__(self) -> None:
        try:
            self._a = os.openpty()
            self._b = os.openpty()
        except OSError as exc:
            raise Unavailable(message("devices/why-no-pty", detail=exc)) from exc
        for _, slave in (self._a, self._b):
            tty.setraw(slave)
        self.device_path = os.ttyname(self._a[1])
        self.host_path = os.ttyname(self._b[1])
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._relay, name="herald-pty", daemon=True)
        self._thread.start()

    def _relay(self) -> None:
        ends = {self._a[0]: self._b[0], self._b[0]: self._a[0]}
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select(list(ends), [], [], 0.1)
                for fd in ready:
                    os.write(ends[fd], os.read(fd, 4096))
            except OSError:
                if self._stop.wait(0.1):
                    return

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        for fd in (*self._a, *self._b):
            with contextlib.suppress(OSError):
                os.close(fd)


@dataclass(frozen=True)
class VirtualSpec:
    """One virtual device: firmware module, device id, its extra arguments, and what it is to
    be paired to (a seat, or None for the table)."""

    module: str
    device: str
    args: tuple[str, ...] = ()
    target: str | None = None


TOWER = "tower-1"
"""The virtual dice tower's device id."""


def table_specs(seats: tuple[str, ...], *, roll_every: float | None = 20.0) -> list[VirtualSpec]:
    """A seat box per seat (``seat-<seat>``) and one dice tower rolling two d6 now and then
    (``roll_every`` None: only when told to, see ``VirtualDevices.roll``)."""
    specs = [VirtualSpec("seat_box", f"seat-{s}", target=s) for s in seats]
    tower: tuple[str, ...] = ("--dice", "6,6", "--settle-ms", "100")
    if roll_every:
        tower += ("--auto", str(roll_every))
    specs.append(VirtualSpec("dice_tower", TOWER, tower))
    return specs


@dataclass
class VirtualDevices:
    """The virtual devices' processes (and pty cables), started and stopped together.

    Every device keeps its standard input open for host-hal commands (:meth:`command`): how the
    server enters a pairing code on a box, as a person would, and has the tower roll.

    Args:
        table: Table id in MQTT topics.
        state_dir: Where each device keeps its boot counter and pairing; kept next to the
            ``.devices`` store so the two agree across restarts.
    """

    table: str
    state_dir: Path
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    cables: list[PtyCable] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)
    commanded: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self, spec: VirtualSpec, where: list[str]) -> None:
        """Run one device; ``where`` is ``["--mqtt", url]`` (with ``--credentials FILE`` on
        the private broker) or ``["--serial", path]``."""
        self.state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        out = self.state_dir / f"{spec.device}.log"
        cmd = [sys.executable, "-m", f"firmware.{spec.module}", *where, "--table", self.table,
               "--device", spec.device, "--state-dir", str(self.state_dir),
               *spec.args]  # fmt: skip
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO),
               os.environ.get("PYTHONPATH")]))}  # fmt: skip
        stdin = subprocess.PIPE
        with out.open("ab") as sink:
            proc = subprocess.Popen(cmd, stdin=stdin, stdout=sink,
                                    stderr=subprocess.STDOUT, env=env,
                                    preexec_fn=_die_with_parent,
                                    start_new_session=True)  # fmt: skip
        self.procs.append(proc)
        self.logs.append(out)
        self.commanded[spec.device] = proc

    def command(self, device: str, *lines: str) -> bool:
        """Send host-hal command lines (firmware/hal_host.py) to a running virtual device."""
        with self._lock:
            proc = self.commanded.get(device)
            if proc is None or proc.poll() is not None or proc.stdin is None:
                return False
            try:
                proc.stdin.write("".join(f"{line}\n" for line in lines).encode())
                proc.stdin.flush()
            except OSError:
                return False
            return True

    def roll(self, dice: list[dict[str, object]], device: str = TOWER) -> bool:
        """Put ``dice`` (wire objects with their ``value``) in the virtual tower and drop them:
        the tower reports them as one roll over its link, as a real one would."""
        spec = ",".join(
            ":".join(str(x) for x in (d["sides"], d.get("color") or "", d.get("type") or ""))
            for d in dice
        )
        values = " ".join(str(d["value"]) for d in dice)
        return self.command(device, f"dice {spec}", f"roll {values}")

    def cable(self) -> PtyCable:
        cable = PtyCable()
        self.cables.append(cable)
        return cable

    def stop(self) -> None:
        with self._lock:
            self.commanded.clear()
        for proc in self.procs:
            if proc.stdin is not None:
                with contextlib.suppress(OSError):
                    proc.stdin.close()
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.procs.clear()
        for cable in self.cables:
            cable.close()
        self.cables.clear()
