"""The transport-neutral hub: what the referee server will plug into."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from bridge.devices.dedup import DedupStore
from bridge.devices.hub import DeviceHub
from bridge.devices.protocol import ButtonPress, DeviceEvent, Heartbeat, Hello


class RecordingOutlet:
    """Stands in for a transport: records what the hub sends back to devices."""

    name = "test://outlet"

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any], bool]] = []

    def send(self, device: str, msg: Mapping[str, Any], *, retain: bool = False) -> bool:
        self.sent.append((device, dict(msg), retain))
        return True


@pytest.fixture
def setup() -> tuple[DeviceHub, list[DeviceEvent], RecordingOutlet]:
    events: list[DeviceEvent] = []
    return DeviceHub(DedupStore(":memory:"), events.append), events, RecordingOutlet()


PRESS = ButtonPress("seat-red", 1, "red", "confirm", "press")


def test_new_event_goes_to_sink_once_and_is_acked_every_time(setup) -> None:
    hub, events, out = setup
    assert hub.ingest_event(PRESS.to_json(), out, topic_device=None).status == "accepted"
    assert hub.ingest_event(PRESS.to_json(), out, topic_device=None).status == "duplicate"
    assert events == [PRESS]
    assert [m["t"] for _, m, _ in out.sent] == ["ack", "ack"]
    record = hub.registry.get("seat-red")
    assert record is not None
    assert (record.accepted, record.duplicates, record.last_seq, record.online) == (1, 1, 1, True)


def test_rejected_event_is_nakked_and_changes_nothing_else(setup) -> None:
    hub, events, out = setup
    bad = {**PRESS.to_json(), "button": "explode"}
    result = hub.ingest_event(bad, out, topic_device=None)
    assert result.status == "rejected" and result.error is not None
    assert events == [] and not hub.dedup.seen("seat-red", 1)
    assert out.sent == [
        ("seat-red", {"t": "nak", "v": 1, "seq": 1, "code": "devices/bad-field"}, False)
    ]
    record = hub.registry.get("seat-red")
    assert record is not None and record.errors == 1 and record.last_error == "devices/bad-field"
    # The same seq, now valid, is still accepted: a rejection does not burn the seq.
    assert hub.ingest_event(PRESS.to_json(), out, topic_device=None).status == "accepted"


def test_unattributable_garbage_counts_against_the_source(setup) -> None:
    hub, _events, out = setup
    hub.ingest_event(b"\x00garbage", out, topic_device=None)
    assert hub.registry.source_errors == {out.name: 1}
    assert hub.devices() == [] and out.sent == []


def test_sink_failure_leaves_the_event_for_the_retry(setup) -> None:
    hub, _events, out = setup
    calls = []

    def flaky(event: DeviceEvent) -> None:
        calls.append(event)
        if len(calls) == 1:
            raise RuntimeError("referee busy")

    hub.sink = flaky
    assert hub.ingest_event(PRESS.to_json(), out, topic_device=None).status == "not-taken"
    assert out.sent == []  # no ack: the device resends
    assert hub.ingest_event(PRESS.to_json(), out, topic_device=None).status == "accepted"
    assert calls == [PRESS, PRESS]


def test_led_commands_route_to_the_last_transport_and_replay_on_hello(setup) -> None:
    hub, _events, out = setup
    assert not hub.set_led("seat-red", "your-turn")  # not heard from yet
    hello = Hello("seat-red", "seat_box", "0.1.0", 1, battery=10)
    assert hub.ingest_hello(hello.to_json(), out, topic_device=None) == hello
    assert out.sent[-1] == ("seat-red", {"t": "led", "v": 1, "pattern": "your-turn"}, True)
    assert hub.set_led("seat-red", "waiting")
    assert out.sent[-1][1]["pattern"] == "waiting"
    record = hub.registry.get("seat-red")
    assert record is not None and record.battery == 10 and record.to_json()["low_battery"]
    hub.ingest_heartbeat(Heartbeat("seat-red", battery=55), out)
    assert hub.registry.get("seat-red").battery == 55  # type: ignore[union-attr]
    assert hub.outlet_lost(out) == ["seat-red"]
    assert not hub.set_led("seat-red", "off")


def test_status_topic_and_mismatched_device(setup) -> None:
    hub, events, out = setup
    hub.ingest_status("seat-red", b"online", out)
    assert hub.registry.get("seat-red").online  # type: ignore[union-attr]
    hub.ingest_status("seat-red", b"offline", out)
    assert not hub.registry.get("seat-red").online  # type: ignore[union-attr]
    result = hub.ingest_event(PRESS.to_json(), out, topic_device="seat-blue")
    assert result.error is not None and result.error.code == "devices/device-mismatch"
    assert events == []
