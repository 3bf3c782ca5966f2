"""MQTT end to end: a real mosquitto, Herald's transport and hub, firmware virtual devices."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from conftest import Broker, VirtualDevice, wait_for
from paho.mqtt.enums import CallbackAPIVersion

from bridge.devices.dedup import DedupStore
from bridge.devices.hub import DeviceHub
from bridge.devices.mqtt import BrokerUrl, MqttTransport, device_topic
from bridge.devices.protocol import ButtonPress, DeviceEvent, DiceRoll

TABLE = "t1"


class Herald:
    """The Herald side under test: real hub, real SQLite dedup file, real MQTT transport."""

    def __init__(self, url: str, db: Path) -> None:
        self.events: list[DeviceEvent] = []
        self._lock = threading.Lock()
        self.dedup = DedupStore(db)
        self.hub = DeviceHub(self.dedup, self._sink)
        self.mqtt = MqttTransport(self.hub, url, TABLE, keepalive=5)

    def _sink(self, event: DeviceEvent) -> None:
        with self._lock:
            self.events.append(event)

    def start(self) -> Herald:
        self.mqtt.start()
        wait_for(self.mqtt.connected.is_set, 10, "Herald to connect")
        return self

    def stop(self) -> None:
        self.mqtt.stop()
        self.dedup.close()

    def online(self, device: str) -> bool:
        record = self.hub.registry.get(device)
        return record is not None and record.online


@pytest.fixture
def herald(broker: Broker, tmp_path: Path) -> Iterator[Herald]:
    h = Herald(broker.url, tmp_path / "dedup.db").start()
    yield h
    h.stop()


def seat_box(devices: Callable[..., VirtualDevice], broker: Broker, tmp: Path, name: str):
    return devices(
        "seat_box", "--mqtt", broker.url, "--table", TABLE, "--device", name,
        "--seat", name.removeprefix("seat-"), "--state-dir", str(tmp), "--keepalive", "2",
    )  # fmt: skip


def test_broker_url_parsing() -> None:
    url = BrokerUrl.parse("mqtt://user:p%40ss@broker.local:1884")
    assert (url.host, url.port, url.username, url.password) == (
        "broker.local",
        1884,
        "user",
        "p@ss",
    )
    assert str(url) == "mqtt://broker.local:1884"  # the password is never shown
    assert BrokerUrl.parse("mqtts://h").port == 8883
    with pytest.raises(ValueError):
        BrokerUrl.parse("http://h")


def test_seat_box_buttons_and_leds(herald: Herald, broker: Broker, devices, tmp_path) -> None:
    box = seat_box(devices, broker, tmp_path, "seat-red")
    box.wait_line("connected")
    wait_for(lambda: herald.online("seat-red"), what="seat box online")
    box.send("press confirm", "hold pass", "press undo")
    wait_for(lambda: len(herald.events) == 3, what="three button events")
    assert herald.events == [
        ButtonPress("seat-red", 1, "red", "confirm", "press", boot=1),
        ButtonPress("seat-red", 2, "red", "pass", "hold", boot=1),
        ButtonPress("seat-red", 3, "red", "undo", "press", boot=1),
    ]
    box.wait_line("acked 3")
    record = herald.hub.registry.get("seat-red")
    assert record is not None
    assert (record.device_kind, record.fw, record.last_seq, record.accepted) == (
        "seat_box", "0.1.0", 3, 3,
    )  # fmt: skip

    assert herald.hub.set_led("seat-red", "your-turn")
    box.wait_line("led your-turn")
    herald.hub.set_led("seat-red", "illegal")
    box.wait_line("led illegal")

    # A clean stop says offline itself; the registry follows the retained status.
    assert box.stop() == 0
    wait_for(lambda: not herald.online("seat-red"), what="seat box offline")


def test_last_will_marks_a_dead_device_offline(herald, broker, devices, tmp_path) -> None:
    box = seat_box(devices, broker, tmp_path, "seat-blue")
    wait_for(lambda: herald.online("seat-blue"), what="online")
    box.stop(kill=True)  # no goodbye: the broker publishes the will after the keepalive
    wait_for(lambda: not herald.online("seat-blue"), timeout=30, what="will to fire")


def test_retained_led_reaches_a_device_that_connects_later(herald, broker, devices, tmp_path):
    herald.hub.set_led("seat-green", "waiting")  # no route yet: remembered, not sent
    box = seat_box(devices, broker, tmp_path, "seat-green")
    wait_for(lambda: herald.online("seat-green"), what="online")
    # The hello arrives (retained info) and Herald replays the pattern; either path delivers.
    box.wait_line("led waiting")


def test_broker_restart_mid_stream_loses_and_duplicates_nothing(
    herald: Herald, broker: Broker, devices, tmp_path: Path
) -> None:
    tower = devices(
        "dice_tower", "--mqtt", broker.url, "--table", TABLE, "--device", "tower-1",
        "--dice", "6,6:red:glory", "--state-dir", str(tmp_path), "--keepalive", "2",
        "--settle-ms", "100",
    )  # fmt: skip
    tower.wait_line("connected")
    rolls = [((i % 6) + 1, ((i * 5) % 6) + 1) for i in range(24)]
    tower.send(*(f"roll {a} {b}" for a, b in rolls[:8]))
    wait_for(lambda: len(herald.events) >= 4, what="some rolls before the restart")

    broker.stop(kill=True)  # a crash, not a clean shutdown: in-flight state is lost
    tower.send(*(f"roll {a} {b}" for a, b in rolls[8:16]))
    wait_for(lambda: tower.saw("event 12 dice"), what="rolls made while the broker is down")
    broker.start()
    tower.send(*(f"roll {a} {b}" for a, b in rolls[16:]))

    wait_for(
        lambda: len(herald.events) >= len(rolls),
        timeout=45,
        what=lambda: (
            f"every roll: Herald has {sorted(e.seq for e in herald.events)}, connected="
            f"{herald.mqtt.connected.is_set()}, device said {dump(tower)}"
        ),
    )
    tower.wait_line(f"acked {len(rolls)}", timeout=30)
    seqs = [e.seq for e in herald.events]
    assert sorted(seqs) == list(range(1, len(rolls) + 1)), "lost or duplicated a roll"
    by_seq = {e.seq: e for e in herald.events}
    for seq, (a, b) in enumerate(rolls, start=1):
        event = by_seq[seq]
        assert isinstance(event, DiceRoll)
        assert [(d.sides, d.value, d.color, d.type) for d in event.dice] == [
            (6, a, None, None),
            (6, b, "red", "glory"),
        ]
    assert herald.mqtt.connections >= 2, "Herald should have reconnected and resubscribed"
    assert any(line.startswith("disconnected") for line in tower.lines), "outage missed device"


def dump(device: VirtualDevice) -> list[str]:
    """The device's output plus a stack dump of where it is (faulthandler on SIGUSR1)."""
    import os
    import signal
    import time

    os.kill(device.proc.pid, signal.SIGUSR1)
    time.sleep(0.5)
    return device.lines[-40:]


def test_dedup_survives_a_herald_restart(broker: Broker, devices, tmp_path: Path) -> None:
    db = tmp_path / "dedup.db"
    first = Herald(broker.url, db).start()
    box = seat_box(devices, broker, tmp_path, "seat-red")
    box.send("press confirm")
    wait_for(lambda: len(first.events) == 1, what="first press")
    first.stop()

    # A replay of seq 1 (as after a lost ack) reaches a restarted Herald: dropped, acked.
    second = Herald(broker.url, db).start()
    try:
        replay = ButtonPress("seat-red", 1, "red", "confirm", "press", boot=1).to_json()
        publish(broker, device_topic(TABLE, "seat-red", "event"), json.dumps(replay).encode())
        box.send("press pass")
        wait_for(lambda: len(second.events) == 1, what="the new press")
        wait_for(lambda: (r := second.hub.registry.get("seat-red")) is not None and r.duplicates)
        assert [e.seq for e in second.events] == [2]
    finally:
        second.stop()


def publish(broker: Broker, topic: str, payload: bytes, *, retain: bool = False) -> None:
    """Publish one message as an outside client and wait until the broker has it."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="", protocol=mqtt.MQTTv311)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)
    finally:
        client.disconnect()
        client.loop_stop()


BAD_PAYLOADS = [
    (b"not json", "devices/bad-json"),
    (b"\xff\xfe", "devices/bad-json"),
    (b"[1, 2]", "devices/not-object"),
    (b'{"v": 1, "device": "tower-9", "seq": 1, "kind": "dice"}', "devices/missing-field"),
    (
        b'{"v": 1, "device": "tower-9", "seq": 2, "kind": "dice",'
        b' "dice": [{"sides": 6, "value": 7}]}',
        "devices/impossible-die",
    ),
    (
        b'{"v": 1, "device": "tower-9", "seq": 3, "kind": "dice",'
        b' "dice": [{"sides": 6, "value": 0}]}',
        "devices/impossible-die",
    ),
    (b'{"v": 1, "device": "tower-9", "seq": 4, "kind": "smoke"}', "devices/unknown-kind"),
    (b'{"v": 2, "device": "tower-9", "seq": 5, "kind": "dice"}', "devices/unsupported-version"),
    (
        b'{"v": 1, "device": "tower-8", "seq": 6, "kind": "dice",'
        b' "dice": [{"sides": 6, "value": 3}]}',
        "devices/device-mismatch",
    ),
    (b"x" * 5000, "devices/too-long"),
]


def test_malformed_payloads_and_impossible_dice_change_nothing(herald: Herald, broker) -> None:
    topic = device_topic(TABLE, "tower-9", "event")
    for payload, _code in BAD_PAYLOADS:
        publish(broker, topic, payload)
    publish(broker, device_topic(TABLE, "tower-7", "status"), b"maybe", retain=True)
    # Ordering on one topic is kept by the broker: once the sentinel arrives, all bad ones did.
    good = {"v": 1, "device": "tower-9", "seq": 100, "kind": "dice"}
    good["dice"] = [{"sides": 6, "value": 6}]
    publish(broker, topic, json.dumps(good).encode())
    wait_for(lambda: len(herald.events) == 1, what="the sentinel roll")

    assert [e.seq for e in herald.events] == [100]
    for seq in range(1, 7):
        assert not herald.dedup.seen("tower-9", seq), "a rejected event must not be marked"
    record = herald.hub.registry.get("tower-9")
    assert record is not None
    assert record.errors == len(BAD_PAYLOADS)
    assert record.last_error == "devices/too-long"
    assert record.accepted == 1
    wait_for(lambda: herald.hub.registry.get("tower-7") is not None, what="the bad status")
    other = herald.hub.registry.get("tower-7")
    assert other is not None
    assert (other.online, other.errors, other.last_error) == (False, 1, "devices/bad-status")
