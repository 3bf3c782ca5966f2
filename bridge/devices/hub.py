"""The transport-neutral meeting point of devices and the referee.

Transports (:mod:`bridge.devices.mqtt`, :mod:`bridge.devices.serial_link`) hand raw payloads to
a :class:`DeviceHub`; the hub validates them, drops duplicates through the durable
:class:`~bridge.devices.dedup.DedupStore`, keeps the :class:`DeviceRegistry` current, answers the
device (``ack``/``nak``) and passes each new event to one injected *sink*. The referee server
supplies that sink (:class:`bridge.devices.table.TableDevices`): it turns a roll into the
engine's chance input when the game expects one, broadcasts ``roll`` to the table room, and
turns button presses into seat intents.
LED commands flow the other way through :meth:`DeviceHub.set_led`, routed to whichever
transport last heard from the device.

The hub makes no rule decisions: an accepted event only means "well-formed and new".
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from engine.i18n import message

from .dedup import DedupStore
from .protocol import (
    LED_PATTERNS,
    DeviceEvent,
    FrameError,
    Heartbeat,
    Hello,
    LedCommand,
    ProtocolError,
    ack_message,
    nak_message,
    parse_event,
    parse_hello,
)
from .registry import LOW_BATTERY, DeviceRecord, DeviceRegistry

log = logging.getLogger(__name__)

EventSink = Callable[[DeviceEvent], None]
"""Receives each new, valid event once. Raising means "not taken": the hub forgets the event so
the device's retransmission is offered again, and sends no ack."""


class Outlet(Protocol):
    """A transport's way back to a device (an MQTT client, an open serial port)."""

    @property
    def name(self) -> str:
        """Stable name shown in the registry, e.g. ``mqtt://broker:1883`` or ``serial:loop://``."""
        ...

    def send(self, device: str, msg: Mapping[str, Any], *, retain: bool = False) -> bool:
        """Queue ``msg`` for ``device``; False when the transport is down right now."""
        ...


@dataclass(frozen=True)
class IngestResult:
    """What became of one incoming payload."""

    status: Literal["accepted", "duplicate", "rejected", "not-taken"]
    event: DeviceEvent | None = None
    error: ProtocolError | None = None


class DeviceHub:
    """Validates, deduplicates and routes device traffic; see the module docstring.

    Args:
        dedup: Durable ``(device, seq)`` store.
        sink: Where new events go (the referee). Called with the hub's lock held, so one call at
            a time, from whichever transport thread delivered the event.
        registry: Device health; a fresh one when omitted.
    """

    def __init__(
        self,
        dedup: DedupStore,
        sink: EventSink,
        registry: DeviceRegistry | None = None,
    ) -> None:
        self.dedup = dedup
        self.sink = sink
        self.registry = registry or DeviceRegistry()
        self._lock = threading.RLock()
        self._routes: dict[str, Outlet] = {}
        self._leds: dict[str, str] = {}

    # ------------------------------------------------------------------ incoming

    def ingest_event(
        self, payload: bytes | str | Mapping[str, Any], outlet: Outlet, *, topic_device: str | None
    ) -> IngestResult:
        """Handle one event payload from ``outlet``.

        Args:
            payload: Raw bytes (MQTT) or an already-framed JSON object (serial).
            outlet: The transport it came through; acks and LED commands go back through it.
            topic_device: The device id the transport vouches for (the MQTT topic), or None.
        """
        with self._lock:
            try:
                event = parse_event(payload)
                if topic_device is not None and event.device != topic_device:
                    raise ProtocolError(
                        "devices/device-mismatch",
                        topic_device=topic_device,
                        named=event.device,
                        seq=event.seq,
                    )
            except ProtocolError as exc:
                self._reject(exc, outlet, topic_device)
                return IngestResult("rejected", error=exc)

            self._route(event.device, outlet)
            # Seen-check, sink, then mark: the referee commits first, so a crash between the two
            # leaves a committed event not yet marked, which the referee link re-marks from the
            # event store on start (bridge.devices.table); marking first could lose the event.
            if self.dedup.seen(event.device, event.seq):
                self.registry.count(event.device, "duplicates", transport=outlet.name, online=True)
                outlet.send(event.device, ack_message(event.seq))
                return IngestResult("duplicate", event=event)
            try:
                self.sink(event)
            except Exception as exc:
                text = message(
                    "devices/sink-failed", device=event.device, seq=event.seq, detail=exc
                )
                log.exception("%s", text)
                return IngestResult("not-taken", event=event)
            self.dedup.mark(event.device, event.seq)
            self.registry.count(
                event.device, "accepted", transport=outlet.name, online=True, last_seq=event.seq
            )
            outlet.send(event.device, ack_message(event.seq))
            return IngestResult("accepted", event=event)

    def ingest_hello(
        self,
        payload: bytes | str | Mapping[str, Any],
        outlet: Outlet,
        *,
        topic_device: str | None,
        sets_online: bool = True,
    ) -> Hello | None:
        """A device introduced itself: record kind, firmware, battery; resend its LED state.

        Args:
            sets_online: False for MQTT, where the hello is a retained message that outlives
                the device; there the ``status`` topic alone says online or offline.
        """
        with self._lock:
            try:
                hello = parse_hello(payload)
                if topic_device is not None and hello.device != topic_device:
                    raise ProtocolError(
                        "devices/device-mismatch", topic_device=topic_device, named=hello.device
                    )
            except ProtocolError as exc:
                self._reject(exc, outlet, topic_device)
                return None
            self._route(hello.device, outlet)
            self._battery(hello.device, hello.battery)
            changes: dict[str, Any] = {"online": True} if sets_online else {}
            self.registry.update(
                hello.device,
                seen=sets_online,
                device_kind=hello.device_kind,
                fw=hello.fw,
                transport=outlet.name,
                battery=hello.battery,
                **changes,
            )
            pattern = self._leds.get(hello.device)
            if pattern is not None:
                outlet.send(hello.device, LedCommand(pattern).to_json(), retain=True)
            return hello

    def ingest_heartbeat(self, beat: Heartbeat, outlet: Outlet) -> None:
        """A serial device is alive; battery may have changed."""
        with self._lock:
            self._route(beat.device, outlet)
            self._battery(beat.device, beat.battery)
            changes: dict[str, Any] = {"online": True, "transport": outlet.name}
            if beat.battery is not None:
                changes["battery"] = beat.battery
            self.registry.update(beat.device, **changes)

    def ingest_status(self, device: str, payload: bytes, outlet: Outlet) -> None:
        """MQTT ``status`` topic: ``online`` or ``offline`` (the device's last will)."""
        with self._lock:
            text = payload.decode("utf-8", "replace").strip()
            if text not in ("online", "offline"):
                exc = ProtocolError("devices/bad-status", value=repr(text[:20]))
                self._reject(exc, outlet, device)
                return
            online = text == "online"
            old = self.registry.get(device)
            if old is None or old.online != online:
                code = "devices/online" if online else "devices/offline"
                log.info("%s", message(code, device=device))
            if online:
                self._route(device, outlet)
            self.registry.update(device, seen=online, online=online, transport=outlet.name)

    def frame_error(self, error: FrameError, source: str) -> None:
        """Serial noise that names no device: log it and count it against the port."""
        log.warning("%s: %s", source, error.text())
        self.registry.source_error(source)

    def outlet_lost(self, outlet: Outlet) -> list[str]:
        """A transport went down (port unplugged): its devices are offline until heard again."""
        with self._lock:
            for device in [d for d, o in self._routes.items() if o is outlet]:
                del self._routes[device]
            gone = self.registry.offline_all(outlet.name)
        for device in gone:
            log.info("%s", message("devices/offline", device=device))
        return gone

    def mark_offline(self, device: str) -> None:
        """A device went silent (missed heartbeats)."""
        with self._lock:
            record = self.registry.get(device)
            if record is not None and record.online:
                log.info("%s", message("devices/offline", device=device))
                self.registry.update(device, seen=False, online=False)

    # ------------------------------------------------------------------ outgoing

    def set_led(self, device: str, pattern: str) -> bool:
        """Show ``pattern`` on a device; remembered and replayed when the device says hello.

        Returns:
            True when a transport took the command now; False when the device is unreachable
            (it gets the pattern on its next hello, or from the retained MQTT message).
        """
        if pattern not in LED_PATTERNS:
            raise ProtocolError("devices/bad-field", field="pattern", value=repr(pattern))
        with self._lock:
            self._leds[device] = pattern
            outlet = self._routes.get(device)
            if outlet is None:
                log.info("%s", message("devices/no-route", device=device))
                return False
            return outlet.send(device, LedCommand(pattern).to_json(), retain=True)

    def devices(self) -> list[DeviceRecord]:
        """Registry snapshot (for the table display)."""
        return self.registry.snapshot()

    # ------------------------------------------------------------------ helpers

    def _route(self, device: str, outlet: Outlet) -> None:
        self._routes[device] = outlet

    def _battery(self, device: str, battery: int | None) -> None:
        if battery is None or battery > LOW_BATTERY:
            return
        old = self.registry.get(device)
        if old is None or old.battery is None or old.battery > LOW_BATTERY:
            log.warning("%s", message("devices/low-battery", device=device, battery=battery))

    def _reject(self, exc: ProtocolError, outlet: Outlet, topic_device: str | None) -> None:
        device = topic_device or exc.device
        log.warning("%s: %s (%s)", outlet.name, exc, exc.code)
        if device is None:
            self.registry.source_error(outlet.name)
            return
        self.registry.count(device, "errors", last_error=exc.code, last_error_text=str(exc))
        if exc.seq is not None:
            outlet.send(device, nak_message(exc.seq, exc.code))
