"""Everything ``herald serve`` runs for table devices, started and stopped as one.

Hardware flags (``--mqtt``, ``--serial``) attach real boards. Without them, and with a simulated
table, the server runs virtual devices over the real path (:mod:`bridge.devices.local`): a
private mosquitto if one starts (credentials and an ACL per device), else pseudo-terminal serial
pairs, else none, and the table display's device panel says which (or why the devices are
offline). The server keeps running in every case: devices are an addition to the table, never a
condition for it.

Virtual devices pair themselves as a real box does: the server opens the pairing window (as the
host would on the host page) and enters each device's code on it (on a seat box by pressing its
buttons), once: a device sends its request again until Herald answers it, so a request made
before Herald listened is not lost, and no second entry of the same code is ever pressed into a
box that has paired meanwhile (those presses were the seat's, or digits of a code that could not
match: issue 25, point 9). The window closes once every virtual device is paired. Pairings are
kept in the ``.devices`` file, so after a restart the devices are paired already.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from engine.i18n import message

from .broker_auth import BrokerAuth
from .dedup import DedupStore
from .ha import HaDiscovery
from .local import LocalBroker, Unavailable, VirtualDevices, VirtualSpec, table_specs
from .mqtt import MqttTransport, new_client_id
from .pairing import TABLE_TARGET, PairingStore
from .serial_link import SerialTransport
from .table import TableDevices

log = logging.getLogger(__name__)

VirtualMode = Literal["auto", "mqtt", "serial", "off"]


@dataclass(frozen=True)
class DeviceOptions:
    """What ``herald serve`` was asked for (see its ``--help``)."""

    dedup_path: Path
    mqtt: str | None = None
    serial: tuple[str, ...] = ()
    virtual: VirtualMode = "auto"
    roll_every: float | None = 20.0
    ha_discovery: bool = False
    ha_prefix: str = "homeassistant"
    avoid_ports: tuple[int, ...] = ()
    """Ports the private broker must not take: the web server's, bound only after the devices."""


@dataclass
class DeviceStack:
    """The dedup store, the referee link, the transports and any virtual devices."""

    options: DeviceOptions
    devices: TableDevices | None = None
    broker: LocalBroker | None = None
    virtual: VirtualDevices | None = None
    transports: list[MqttTransport | SerialTransport] = field(default_factory=list)
    ha: HaDiscovery | None = None
    note: str = ""
    _dedup: DedupStore | None = None
    _pairings: PairingStore | None = None
    _specs: list[VirtualSpec] = field(default_factory=list)
    _stopping: threading.Event = field(default_factory=threading.Event)

    def start(self, referee: Any, attach_web: Callable[[TableDevices], None]) -> str:
        """Start everything; returns the catalog sentence saying where the devices are."""
        opts = self.options
        self._dedup = DedupStore(opts.dedup_path)
        self._pairings = PairingStore(opts.dedup_path)
        self.devices = TableDevices(referee, self._dedup, pairings=self._pairings)
        attach_web(self.devices)
        self.devices.start()
        table = referee.table_id
        try:
            if opts.mqtt or opts.serial:
                self.note = self._hardware(table)
            elif opts.virtual != "off":
                self.note = self._virtual(table, referee.seats)
            else:
                self.note = message("devices/status-none")
        except ValueError as exc:  # a table id that cannot be an MQTT topic level, a bad URL
            self.note = message("devices/status-unavailable", why=exc)
        self.devices.set_note(self.note)
        return self.note

    def _pair_virtual(self) -> None:
        """Open the pairing window and enter each unpaired virtual device's code on it."""
        assert self.devices is not None and self.virtual is not None
        desk = self.devices.desk
        todo = [spec for spec in self._specs if desk.get(spec.device) is None]
        if not todo:
            return
        codes = desk.open_window()
        self.devices.paired_listeners.append(self._virtual_paired)
        for spec in todo:
            self.virtual.command(spec.device, f"pair {codes[spec.target or TABLE_TARGET]}")
        self.devices.set_note(self.note)

    def _virtual_paired(self, device: str) -> None:
        """Close the window once every virtual device is paired (nothing else should pair)."""
        assert self.devices is not None
        desk = self.devices.desk
        if all(desk.get(spec.device) is not None for spec in self._specs):
            desk.close_window()

    def _mqtt(self, url: str, table: str) -> MqttTransport:
        assert self.devices is not None
        assert self._pairings is not None
        client_id = self._pairings.setting("mqtt-client-id", lambda: new_client_id(table))
        transport = MqttTransport(self.devices.hub, url, table, client_id=client_id)
        transport.start()
        self.transports.append(transport)
        if self.options.ha_discovery:
            self.ha = HaDiscovery(transport, self.options.ha_prefix)
            self.devices.hub.registry.subscribe(self.ha.on_record)
        return transport

    def _serial(self, url: str) -> SerialTransport:
        assert self.devices is not None
        transport = SerialTransport(self.devices.hub, url)
        transport.start()
        self.transports.append(transport)
        return transport

    def _hardware(self, table: str) -> str:
        parts = []
        if self.options.mqtt:
            transport = self._mqtt(self.options.mqtt, table)
            parts.append(message("devices/status-mqtt", broker=transport.name))
        for url in self.options.serial:
            self._serial(url)
        if self.options.serial:
            parts.append(message("devices/status-serial", ports=", ".join(self.options.serial)))
        return " ".join(parts)

    def _virtual(self, table: str, seats: tuple[str, ...]) -> str:
        assert self.devices is not None and self._dedup is not None
        opts = self.options
        self.virtual = VirtualDevices(table, Path(f"{opts.dedup_path}.virtual"))
        specs = self._specs = table_specs(seats, roll_every=opts.roll_every)
        why_mqtt = ""
        if opts.virtual in ("auto", "mqtt"):
            try:
                auth = BrokerAuth.generate(table, [spec.device for spec in specs])
                self.broker = LocalBroker.start_new(auth=auth, avoid=opts.avoid_ports)
                transport = self._mqtt(self.broker.herald_url, table)
                transport.subscribed.wait(5)  # devices resend until acked; this saves a resend
                for spec in specs:
                    creds = str(self.broker.credentials_file(spec.device))
                    self.virtual.start(spec, ["--mqtt", self.broker.url, "--credentials", creds])
                self._pair_virtual()
                return message("devices/status-virtual-mqtt", port=self.broker.port)
            except Unavailable as exc:
                why_mqtt = str(exc)
                log.warning("%s", why_mqtt)
        try:
            for spec in specs:
                cable = self.virtual.cable()
                self._serial(cable.host_path)
                self.virtual.start(spec, ["--serial", cable.device_path])
            self._pair_virtual()
        except Unavailable as exc:
            why = "; ".join(filter(None, [why_mqtt, str(exc)]))
            log.warning("%s", message("devices/status-unavailable", why=why))
            return message("devices/status-unavailable", why=why)
        if why_mqtt:
            return message("devices/status-virtual-serial-why", why=why_mqtt)
        return message("devices/status-virtual-serial")

    def roll(self, dice: list[dict[str, Any]]) -> bool:
        """Have the virtual dice tower roll ``dice`` (wire objects with values); False when no
        virtual tower runs (hardware, or none started). The roll comes back as the tower's event,
        through the broker or cable, the hub and the referee, like a real tower's."""
        return self.virtual is not None and self.virtual.roll(dice)

    def stop(self) -> None:
        """Devices first (they say offline), then transports, the broker, the store."""
        self._stopping.set()
        if self.virtual is not None:
            self.virtual.stop()
        for transport in self.transports:
            try:
                transport.stop()
            except Exception:  # stopping must reach the broker and the store regardless
                log.exception("stopping %s failed", transport.name)
        if self.devices is not None:
            self.devices.stop()
        if self.broker is not None:
            self.broker.stop()
        if self._dedup is not None:
            self._dedup.close()
        if self._pairings is not None:
            self._pairings.close()
