"""Issue 16, findings 2-4: what device traffic may cost Herald and who it can lock out.

The hub, registry, dedup store, pairing desk and serial decoder are Herald's real ones, in
process; the outlet standing in for a transport only records what the hub answers (no broker is
needed to show a bound). Clocks are injected, so ageing and rate limits need no sleeping.

- Finding 2: 1,500 invented device ids flipping online/offline grew the panel without bound;
  now the registry keeps at most ``MAX_UNPAIRED`` unpaired records (ageing out), the pending list
  ``MAX_PENDING``, and one id is rate-limited. Panel clients that do not read are skipped, then
  disconnected.
- Finding 3: one spoofed ``seq = 2^53-1`` locked the real device out for good; now a far jump is
  refused (``devices/seq-jump``), not adopted, and the real device's next events are taken.
- Finding 4: a lower-case CRC is accepted (docs/devices.md: "A receiver accepts either case"),
  and 64 KiB of line noise costs a few log lines, not hundreds.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Mapping
from typing import Any

import pytest

from bridge.devices import pairing as pairing_mod
from bridge.devices import registry as registry_mod
from bridge.devices.dedup import BOOT_AHEAD, SEQ_AHEAD, DedupStore
from bridge.devices.hub import DEVICE_RATE, DeviceHub
from bridge.devices.pairing import PairingDesk, PairingStore
from bridge.devices.panel import PanelClients
from bridge.devices.protocol import ButtonPress, DeviceEvent, DiceRoll, Die, crc16, decode_frames
from bridge.devices.registry import DeviceRegistry
from bridge.devices.serial_link import SerialDeviceProtocol
from firmware.wire import FrameReader

EMPTY: dict[str, object] = {"changed": []}


class Clock:
    """Seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class RecordingOutlet:
    """Stands in for a transport: records what the hub sends back to devices."""

    name = "test://outlet"

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def send(self, device: str, msg: Mapping[str, Any], *, retain: bool = False) -> bool:
        self.sent.append((device, dict(msg)))
        return True

    def send_raw(self, data: bytes) -> bool:
        return True


class Setup:
    def __init__(self) -> None:
        self.clock = Clock()
        self.events: list[DeviceEvent] = []
        self.registry = DeviceRegistry(clock=self.clock)
        self.desk = PairingDesk(PairingStore(":memory:"), ("red", "blue"), clock=self.clock)
        self.hub = DeviceHub(
            DedupStore(":memory:"),
            self.events.append,
            self.registry,
            desk=self.desk,
            clock=self.clock,
        )
        self.out = RecordingOutlet()


@pytest.fixture
def s() -> Setup:
    return Setup()


def roll(device: str, seq: int, value: int = 3, boot: int = 0) -> dict[str, Any]:
    return {**DiceRoll(device, seq, (Die(6, value),)).to_json(), "boot": boot}


# ----------------------------------------------------------------------------- finding 2


def test_a_thousand_invented_ids_cannot_grow_the_registry_or_the_panel(
    s: Setup, caplog: pytest.LogCaptureFixture
) -> None:
    """The probe: 1,500 fake ids flipping online/offline. The records, the host's pending list,
    the routes and the log stay bounded; paired devices are never pushed out."""
    caplog.set_level(logging.INFO, logger="bridge.devices")
    s.desk.pair("seat-red", "red")
    s.hub.ingest_status("seat-red", b"online", s.out)
    for i in range(1500):
        s.clock.now += 0.2  # 5 a second: under the shared unpaired rate, so none is throttled
        fake = f"evil-{i}"
        hello = {"t": "hello", "v": 1, "device": fake, "device_kind": "seat_box", "fw": "x",
                 "proto": 1, "battery": 3}  # fmt: skip
        s.hub.ingest_hello(hello, s.out, topic_device=fake, sets_online=False)
        s.hub.ingest_status(fake, b"online" if i % 2 else b"offline", s.out)
        s.hub.ingest_event(roll(fake, 1), s.out, topic_device=fake)
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("bridge.devices")]
    # 300 s of flood, three kinds of line (refusal, status, low battery): one per kind every
    # 10 s at most, not one per invented id (4,500 before)
    assert len(lines) <= 3 * (300 // 10 + 1), lines[-5:]
    ids = {r.device for r in s.registry.snapshot()}
    assert "seat-red" in ids
    assert len(ids) <= registry_mod.MAX_UNPAIRED + 1
    assert len(s.desk.pending()) <= pairing_mod.MAX_PENDING
    assert len(s.hub._routes) <= registry_mod.MAX_UNPAIRED + 1
    panel = json.dumps([r.to_json() for r in s.registry.snapshot()])
    assert len(panel) < 16_000, len(panel)  # was 441 KB
    assert s.events == []  # and none of them counted


def test_unpaired_records_are_forgotten_once_unheard(s: Setup) -> None:
    s.hub.ingest_status("stranger", b"online", s.out)
    assert s.registry.get("stranger") is not None
    s.clock.now += registry_mod.UNPAIRED_TTL + 1
    s.registry.sweep()
    assert s.registry.get("stranger") is None
    assert s.desk.pending() == []  # the host's list forgets it too


def test_one_device_id_is_rate_limited_and_gets_its_turn_again(s: Setup) -> None:
    """A flood under one id is dropped unread past the burst; a real device resends what was
    not acked, so after a pause it goes on."""
    s.desk.pair("tower-1", None)
    results = [
        s.hub.ingest_event(roll("tower-1", seq), s.out, topic_device="tower-1").status
        for seq in range(1, 501)
    ]
    taken = results.count("accepted")
    assert taken <= DEVICE_RATE[1]
    assert results.count("throttled") == 500 - taken
    assert len(s.events) == taken
    s.clock.now += 10
    assert s.hub.ingest_event(roll("tower-1", 600), s.out, topic_device="tower-1").status == (
        "accepted"
    )


class FakeClients:
    """Three panel clients' send queues: a reader, a client that never reads, a gone one."""

    def __init__(self) -> None:
        self.queues: dict[str, int | None] = {"reader": 0, "stalled": 0}
        self.sent: list[tuple[str, str]] = []
        self.disconnected: list[str] = []

    def send(self, sid: str, event: str, payload: dict[str, Any]) -> None:
        self.sent.append((sid, event))
        queued = self.queues[sid]
        if sid == "stalled" and queued is not None:
            self.queues[sid] = queued + 1  # never read: what is sent piles up

    def backlog(self, sid: str) -> int | None:
        return self.queues.get(sid)


def test_a_panel_client_that_does_not_read_is_skipped_then_disconnected() -> None:
    """Per-client bounded send queues: a stalled viewer stops getting deltas once its queue is
    full (the server holds no more for it), gets one whole panel when it catches up, and is
    disconnected when it keeps asking for panels it does not read."""
    fake = FakeClients()
    clients = PanelClients(fake.send, fake.backlog, fake.disconnected.append, max_backlog=4)
    assert clients.subscribe("reader") and clients.subscribe("stalled")
    for _ in range(50):
        clients.push("devices_delta", (EMPTY, EMPTY), lambda host: {"devices": []})
    stalled = [e for sid, e in fake.sent if sid == "stalled"]
    assert len(stalled) == 5  # up to the bound, then skipped
    assert [e for sid, e in fake.sent if sid == "reader"] == ["devices_delta"] * 50
    fake.queues["stalled"] = 0  # it read everything: one whole panel, then deltas again
    clients.push("devices_delta", (EMPTY, EMPTY), lambda host: {"devices": []})
    assert fake.sent[-1] == ("stalled", "devices")
    fake.queues["stalled"] = 99
    assert not clients.subscribe("stalled")  # asks again without reading
    assert fake.disconnected == ["stalled"]
    fake.queues.pop("stalled")
    clients.push("devices_delta", (EMPTY, EMPTY), lambda host: {"devices": []})
    assert len(clients) == 1


# ----------------------------------------------------------------------------- finding 3


def test_a_spoofed_far_seq_is_refused_and_the_real_device_goes_on(s: Setup) -> None:
    """The probe: one event with seq 2^53-1 under a paired device's id (any client can publish
    under any id on an open broker). It is refused, not adopted, and the host is told; the real
    device's next events count."""
    s.desk.pair("tower-1", None)
    notices: list[tuple[str, str]] = []
    s.hub.notify = lambda code, device, params: notices.append((code, device))
    assert s.hub.ingest_event(roll("tower-1", 1), s.out, topic_device=None).status == "accepted"
    spoof = s.hub.ingest_event(roll("tower-1", 2**53 - 1, 6), s.out, topic_device=None)
    assert spoof.status == "refused" and spoof.error is not None
    assert spoof.error.code == "devices/seq-jump"
    assert ("devices/seq-jump", "tower-1") in notices
    assert s.out.sent[-1] == (
        "tower-1",
        {"t": "nak", "v": 1, "seq": 2**53 - 1, "code": "devices/seq-jump"},
    )
    for seq in (2, 3):
        assert s.hub.ingest_event(roll("tower-1", seq), s.out, topic_device=None).status == (
            "accepted"
        )
    assert [e.seq for e in s.events] == [1, 2, 3]
    # just inside the window is still taken (a device that lost many acks)
    assert s.hub.ingest_event(roll("tower-1", 3 + SEQ_AHEAD), s.out, topic_device=None).status == (
        "accepted"
    )


def test_a_new_boot_starts_a_new_window_but_a_far_boot_is_refused(s: Setup) -> None:
    s.desk.pair("tower-1", None)
    assert s.hub.ingest_event(roll("tower-1", 40, boot=3), s.out, topic_device=None).status == (
        "accepted"
    )
    # the device rebooted: seq 1 of boot 4 is new, not a duplicate of boot 3's seq 1
    assert s.hub.ingest_event(roll("tower-1", 1, boot=4), s.out, topic_device=None).status == (
        "accepted"
    )
    far = s.hub.ingest_event(roll("tower-1", 1, boot=5 + BOOT_AHEAD), s.out, topic_device=None)
    assert far.error is not None and far.error.code == "devices/boot-jump"
    assert s.hub.ingest_event(roll("tower-1", 2, boot=4), s.out, topic_device=None).status == (
        "accepted"
    )
    # a late resend of an older boot than any kept is told which boot is newest
    stale = s.hub.ingest_event(roll("tower-1", 9, boot=2), s.out, topic_device=None)
    assert stale.error is not None and stale.error.code == "devices/stale-boot"
    assert s.out.sent[-1][1]["newest"] == 4


# ----------------------------------------------------------------------------- finding 4


def lower_case_frame(obj: dict[str, Any]) -> bytes:
    body = json.dumps(obj, separators=(",", ":")).encode()
    check = b"%04x" % crc16(body)
    assert check != check.upper(), "pick an object whose CRC has a letter"
    return b"$" + body + b"*" + check + b"\n"


def test_a_lower_case_crc_is_accepted_by_herald_and_the_firmware() -> None:
    """docs/devices.md, "Serial": 4 hex digits, written upper-case, read in either case."""
    obj = {"t": "event", **ButtonPress("seat-red", 1, "red", "confirm", "press").to_json()}
    frame = lower_case_frame(obj)
    assert decode_frames(frame) == [obj]
    assert FrameReader().feed(frame) == [obj]
    # anything that is not 4 hex digits is still refused
    bad = frame.replace(frame[-5:-1], b"0x" + frame[-3:-1])
    assert [getattr(i, "code", None) for i in decode_frames(bad)] == ["devices/frame-no-checksum"]
    assert FrameReader().feed(bad) == []


def test_a_lower_case_crc_event_reaches_the_referee_over_serial(s: Setup) -> None:
    s.desk.pair("seat-red", "red")
    link = SerialDeviceProtocol(s.hub, s.out, clock=s.clock)  # type: ignore[arg-type]
    obj = {"t": "event", **ButtonPress("seat-red", 1, "red", "confirm", "press").to_json()}
    link.data_received(lower_case_frame(obj))
    assert [e.seq for e in s.events] == [1]
    assert link.errors == 0


def test_64_kib_of_noise_costs_a_few_log_lines(caplog: pytest.LogCaptureFixture) -> None:
    """The probe: 64 KiB of noise on a serial port logged 673 lines. Now each kind of frame
    error logs once per port every few seconds, with how many were folded into it; every error
    is still counted on the port."""
    s = Setup()
    link = SerialDeviceProtocol(s.hub, s.out, clock=s.clock)  # type: ignore[arg-type]
    rng = random.Random(16)
    noise = bytearray(rng.randbytes(64 * 1024))
    for i in range(0, len(noise), 97):  # plenty of frame starts and line ends in it
        noise[i] = 0x24 if i % 2 else 0x0A
    caplog.set_level(logging.INFO, logger="bridge.devices")
    for i in range(0, len(noise), 512):
        link.data_received(bytes(noise[i : i + 512]))
    lines = [r for r in caplog.records if r.name.startswith("bridge.devices")]
    assert link.errors > 600  # every bad frame counted ...
    assert s.registry.source_errors[s.out.name] == link.errors
    assert len(lines) <= 6, [r.getMessage() for r in lines]  # ... but logged a few times
    s.clock.now += 60  # later noise speaks again, saying how many lines were folded
    link.data_received(b"$garbage\n")
    assert "more like it" in caplog.records[-1].getMessage()
