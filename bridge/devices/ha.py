"""Optional Home Assistant MQTT discovery (``herald serve --ha-discovery``).

Each device Herald learns about is announced once under ``<prefix>/…/config`` (retained), so
Home Assistant lists it without configuration: a connectivity sensor from the device's
``status`` topic, a battery sensor from its ``info``, the last roll of a dice tower, and one
device trigger per seat-box button (short press and long hold). Herald only announces; the
topics are the devices' own, so nothing else changes for them.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from .mqtt import MqttTransport, device_topic
from .protocol import BUTTONS
from .registry import DeviceRecord


class HaDiscovery:
    """Publishes discovery configs for new devices through Herald's MQTT client.

    Args:
        transport: Herald's MQTT transport (its client publishes the configs).
        prefix: Home Assistant's discovery prefix (``homeassistant`` unless changed there).
    """

    def __init__(self, transport: MqttTransport, prefix: str = "homeassistant") -> None:
        self.transport = transport
        self.prefix = prefix.strip("/") or "homeassistant"
        self.announced: set[str] = set()
        self._lock = threading.Lock()

    def on_record(self, record: DeviceRecord) -> None:
        """Registry listener: announce a paired device once its kind is known (after its hello).
        Unpaired ids are not announced: anyone can invent them, and each costs retained
        messages on the broker."""
        if record.device_kind is None or record.paired is None:
            return
        with self._lock:
            if record.device in self.announced:
                return
            self.announced.add(record.device)
        for topic, config in self.configs(record):
            self.transport.publish(topic, json.dumps(config).encode(), retain=True)

    def configs(self, record: DeviceRecord) -> list[tuple[str, dict[str, Any]]]:
        """``(topic, config)`` pairs for one device."""
        table, dev = self.transport.table, record.device
        uid = f"herald_{table}_{dev}"
        status = device_topic(table, dev, "status")
        event = device_topic(table, dev, "event")
        device = {"identifiers": [uid], "name": f"Herald {dev}", "manufacturer": "Herald",
                  "model": record.device_kind, "sw_version": record.fw}  # fmt: skip
        out: list[tuple[str, dict[str, Any]]] = [
            (f"{self.prefix}/binary_sensor/{uid}/online/config",
             {"name": "Online", "unique_id": f"{uid}_online", "state_topic": status,
              "payload_on": "online", "payload_off": "offline",
              "device_class": "connectivity", "device": device}),
            (f"{self.prefix}/sensor/{uid}/battery/config",
             {"name": "Battery", "unique_id": f"{uid}_battery",
              "state_topic": device_topic(table, dev, "info"), "unit_of_measurement": "%",
              "value_template": "{{ value_json.battery }}", "device_class": "battery",
              "device": device}),
        ]  # fmt: skip
        if record.device_kind == "dice_tower":
            out.append((f"{self.prefix}/sensor/{uid}/roll/config",
                        {"name": "Last roll", "unique_id": f"{uid}_roll", "state_topic": event,
                         "value_template": "{{ value_json.dice | map(attribute='value') "
                                           "| join(' ') }}",
                         "device": device}))  # fmt: skip
        else:
            for i, button in enumerate(BUTTONS, start=1):
                actions = (("press", "button_short_press"), ("hold", "button_long_press"))
                for action, kind in actions:
                    out.append((f"{self.prefix}/device_automation/{uid}/{button}_{action}/config",
                                {"automation_type": "trigger", "topic": event,
                                 "value_template": "{{ value_json.button }}_"
                                                   "{{ value_json.action }}",
                                 "payload": f"{button}_{action}", "type": kind,
                                 "subtype": f"button_{i}", "device": device}))  # fmt: skip
        return out
