"""Serial end to end: framing over loop://, a pty pair with a virtual device, unplug and replug."""

from __future__ import annotations

import contextlib
import os
import select
import threading
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import wait_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridge.devices.dedup import DedupStore
from bridge.devices.hub import DeviceHub
from bridge.devices.protocol import ButtonPress, DeviceEvent, DiceRoll, Die, encode_frame
from bridge.devices.serial_link import SerialDeviceProtocol, SerialTransport


class Sink:
    def __init__(self) -> None:
        self.events: list[DeviceEvent] = []

    def __call__(self, event: DeviceEvent) -> None:
        self.events.append(event)


def event_frame(seq: int, value: int = 3, device: str = "tower-1") -> bytes:
    roll = DiceRoll(device, seq, (Die(6, value),))
    return encode_frame({"t": "event", **roll.to_json()})


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[DeviceHub]:
    store = DedupStore(tmp_path / "dedup.db")
    yield DeviceHub(store, Sink())
    store.close()


def test_loop_url_frames_noise_and_echoes(hub: DeviceHub) -> None:
    """Over ``loop://`` Herald reads back what it writes: its own who/ack echoes are ignored,
    noise and bad frames are counted, and good frames after them still arrive."""
    link = SerialTransport(hub, "loop://")
    link.start()
    try:
        wait_for(link.opened.is_set, what="loop:// open")
        bad_crc = bytearray(event_frame(2))
        bad_crc[-3] ^= 0x01
        link.send_raw(b"\x00\xffboot noise\r\n" + event_frame(1) + b"$trunc" + bytes(bad_crc))
        link.send_raw(event_frame(3) + event_frame(1))  # seq 1 again: a retry
        sink = hub.sink
        assert isinstance(sink, Sink)
        wait_for(lambda: hub.registry.get("tower-1") is not None, what="events")
        wait_for(lambda: (r := hub.registry.get("tower-1")) is not None and r.duplicates == 1)
        assert [e.seq for e in sink.events] == [1, 3]
        assert hub.registry.source_errors[link.name] == 3  # noise, truncated, bad checksum
    finally:
        link.stop()


# ----------------------------------------------------------------------------- pty + relay


class Cable:
    """Two pty pairs joined by a relay thread: device ↔ cable ↔ Herald.

    The device opens the slave of pair A (its UART). Herald opens ``path``, a symlink to the
    slave of pair B, like udev's ``/dev/serial/by-id/...``. ``unplug()`` closes pair B (Herald's
    reads fail; bytes from the device are lost on the floor); ``plug()`` makes a new pair B and
    points the symlink at it.
    """

    def __init__(self, tmp: Path) -> None:
        self.path = tmp / "tty-herald"
        self.dev_master, self._dev_slave = os.openpty()
        tty.setraw(self._dev_slave)
        self.device_path = os.ttyname(self._dev_slave)
        self._lock = threading.Lock()
        self.host_master: int | None = None
        self._host_slave: int | None = None
        self.dropped = 0
        self._stop = threading.Event()
        self.plug()
        self._thread = threading.Thread(target=self._relay, daemon=True)
        self._thread.start()

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        tmp = self.path.with_suffix(".new")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        tmp.symlink_to(os.ttyname(slave))
        tmp.replace(self.path)
        with self._lock:
            self.host_master, self._host_slave = master, slave

    def unplug(self) -> None:
        with self._lock:
            master, slave = self.host_master, self._host_slave
            self.host_master = self._host_slave = None
        for fd in (master, slave):
            if fd is not None:
                os.close(fd)

    def inject(self, data: bytes) -> None:
        """Line noise on the Herald side of the cable."""
        with self._lock:
            if self.host_master is not None:
                os.write(self.host_master, data)

    def _relay(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                host = self.host_master
            fds = [self.dev_master] + ([host] if host is not None else [])
            ready, _, _ = select.select(fds, [], [], 0.05)
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    continue
                with self._lock:
                    host = self.host_master
                    if fd == self.dev_master:
                        if host is None:
                            self.dropped += len(data)
                        else:
                            os.write(host, data)
                    elif fd == host:
                        os.write(self.dev_master, data)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.unplug()
        os.close(self.dev_master)
        os.close(self._dev_slave)


def test_pty_virtual_device_with_unplug_and_replug(hub: DeviceHub, devices, tmp_path) -> None:
    cable = Cable(tmp_path)
    link = SerialTransport(hub, str(cable.path), heartbeat_timeout=30, reopen_interval=0.05)
    sink = hub.sink
    assert isinstance(sink, Sink)
    box = devices(
        "seat_box", "--serial", cable.device_path, "--device", "seat-red", "--seat", "red",
        "--state-dir", str(tmp_path), "--heartbeat-ms", "500",
    )  # fmt: skip
    link.start()
    try:
        box.wait_line("ready seat-red")
        wait_for(lambda: (r := hub.registry.get("seat-red")) is not None and r.online)
        record = hub.registry.get("seat-red")
        assert record is not None and record.device_kind == "seat_box"

        cable.inject(b"\x00\x13garbage$not-a-frame\n$")
        box.send("press confirm", "press pass")
        wait_for(lambda: len(sink.events) == 2, what="two presses")
        hub.set_led("seat-red", "your-turn")
        box.wait_line("led your-turn")

        cable.unplug()
        wait_for(lambda: link.losses == 1, what="Herald to notice the unplug")
        wait_for(lambda: not hub.registry.get("seat-red").online, what="offline")  # type: ignore[union-attr]
        box.send("press undo", "hold confirm")
        box.wait_line("event 4 button")
        wait_for(lambda: cable.dropped > 0, what="frames lost on the floor while unplugged")

        cable.plug()
        wait_for(lambda: len(sink.events) == 4, what="the presses made while unplugged")
        box.wait_line("acked 4")
        assert link.opens >= 2
        assert [(e.seq, e.button, e.action) for e in sink.events if isinstance(e, ButtonPress)] == [
            (1, "confirm", "press"),
            (2, "pass", "press"),
            (3, "undo", "press"),
            (4, "confirm", "hold"),
        ]
        assert hub.registry.source_errors.get(link.name, 0) >= 1  # the injected garbage
        wait_for(lambda: hub.registry.get("seat-red").online, what="online again")  # type: ignore[union-attr]
    finally:
        link.stop()
        box.stop()
        cable.close()


# ----------------------------------------------------------------------------- fuzzing

junk = st.binary(max_size=200)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(junk, st.integers(1, 6)), max_size=8), st.integers(1, 64))
def test_fuzzed_streams_never_crash_and_good_frames_get_through(chunks, chunk_size) -> None:
    """Junk (anything: ``$``, newlines, half frames) between valid frames, delivered in
    arbitrary chunk sizes: the reader never raises and every valid frame arrives, in order."""
    sink = Sink()
    hub = DeviceHub(DedupStore(":memory:"), sink)
    proto = SerialDeviceProtocol(hub, SerialTransport(hub, "loop://"))
    stream = b""
    for seq, (noise, value) in enumerate(chunks, start=1):
        stream += noise + event_frame(seq, value)
    for i in range(0, len(stream), chunk_size):
        proto.data_received(stream[i : i + chunk_size])
    proto.connection_lost()
    assert [(e.seq, e.dice[0].value) for e in sink.events if isinstance(e, DiceRoll)] == [
        (seq, value) for seq, (_, value) in enumerate(chunks, start=1)
    ]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_arbitrary_bytes_never_crash_the_reader(data: bytes) -> None:
    hub = DeviceHub(DedupStore(":memory:"), Sink())
    proto = SerialDeviceProtocol(hub, SerialTransport(hub, "loop://"))
    proto.data_received(data)
    proto.connection_lost()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=5), st.data())
def test_corrupted_frames_are_skipped_not_fatal(values, data) -> None:
    """Flip one byte or cut a frame short: that frame is lost, the others all arrive."""
    sink = Sink()
    hub = DeviceHub(DedupStore(":memory:"), sink)
    proto = SerialDeviceProtocol(hub, SerialTransport(hub, "loop://"))
    victim = data.draw(st.integers(0, len(values) - 1))
    for seq, value in enumerate(values, start=1):
        frame = bytearray(event_frame(seq, value))
        if seq - 1 == victim:
            if data.draw(st.booleans()):
                pos = data.draw(st.integers(1, len(frame) - 2))
                frame[pos] ^= data.draw(st.integers(1, 255))
                if frame[pos] in (0x24, 0x0A):  # became a frame boundary: flip differently
                    frame[pos] ^= 0x40
            else:
                frame = frame[: data.draw(st.integers(1, len(frame) - 1))]
        proto.data_received(bytes(frame))
    proto.connection_lost()
    got = [e.seq for e in sink.events]
    assert got == [s for s in range(1, len(values) + 1) if s - 1 != victim]
