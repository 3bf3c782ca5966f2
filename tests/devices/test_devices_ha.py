"""Home Assistant MQTT discovery (`herald serve --ha-discovery`): a real mosquitto, Herald's
device stack and a firmware virtual seat box. Home Assistant itself cannot run here; the test
reads the retained discovery configs as Home Assistant would and checks they point at the
device's own topics (HA's MQTT discovery format: `<prefix>/<component>/<id>/config`)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from conftest import Broker, VirtualDevice, wait_for
from paho.mqtt.enums import CallbackAPIVersion

from bridge.devices.mqtt import device_topic
from bridge.devices.stack import DeviceOptions, DeviceStack
from bridge.referee import Referee
from bridge.store import EventStore
from engine import get_game

TABLE = "t1"


def _retained(broker: Broker, pattern: str, wanted: int) -> dict[str, Any]:
    """Retained messages under ``pattern`` as a newly connected Home Assistant would see them."""
    got: dict[str, Any] = {}
    done = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="fake-home-assistant")

    def on_message(_c: Any, _u: Any, msg: mqtt.MQTTMessage) -> None:
        got[msg.topic] = json.loads(msg.payload) if msg.payload else None
        if len(got) >= wanted:
            done.set()

    client.on_message = on_message
    client.on_connect = lambda c, *_: c.subscribe(pattern, qos=1)
    host, port = broker.url.removeprefix("mqtt://").split(":")
    client.connect(host, int(port))
    client.loop_start()
    try:
        done.wait(10)
    finally:
        client.loop_stop()
        client.disconnect()
    return got


def test_seat_box_is_announced_to_home_assistant(
    broker: Broker, devices: Callable[..., VirtualDevice], tmp_path: Path
) -> None:
    store = EventStore(tmp_path / "t.db")
    referee = Referee.open(store, get_game("middle-ages"), TABLE, ("blue", "green"), {})
    stack = DeviceStack(DeviceOptions(dedup_path=tmp_path / "dedup.db", mqtt=broker.url,
                                      ha_discovery=True, ha_prefix="hass"))  # fmt: skip
    stack.start(referee, lambda td: None)
    try:
        box = devices("seat_box", "--mqtt", broker.url, "--table", TABLE, "--device", "seat-blue",
                      "--seat", "blue", "--state-dir", str(tmp_path / "vdev"))  # fmt: skip
        box.wait_line("connected")
        assert stack.devices is not None
        wait_for(lambda: stack.devices is not None and stack.devices.hub.registry.get("seat-blue")
                 is not None, what="hello")  # fmt: skip
        stack.devices.hub.pair("seat-blue", "blue")  # only paired devices are announced
        configs = _retained(broker, "hass/#", wanted=3)
        assert configs, "no discovery config was published"
        assert all(topic.startswith("hass/") and topic.endswith("/config") for topic in configs)
        online = next(c for t, c in configs.items() if "/binary_sensor/" in t)
        assert online["state_topic"] == device_topic(TABLE, "seat-blue", "status")
        assert online["payload_on"] == "online" and online["device_class"] == "connectivity"
        ids = {tuple(c["device"]["identifiers"]) for c in configs.values()}
        assert len(ids) == 1  # every entity belongs to the one seat box
        triggers = [c for t, c in configs.items() if "/device_automation/" in t]
        assert triggers and all(
            c["topic"] == device_topic(TABLE, "seat-blue", "event") for c in triggers
        )
    finally:
        stack.stop()
        store.close()
