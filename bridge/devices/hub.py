"""The transport-neutral meeting point of devices and the referee.

Transports (:mod:`bridge.devices.mqtt`, :mod:`bridge.devices.serial_link`) hand raw payloads to
a :class:`DeviceHub`; the hub rate-limits each device id, validates the payload, refuses events
of devices not paired for them (:mod:`bridge.devices.pairing`: a seat box speaks for its own seat
only, dice count only from a device paired to the table), checks the seq window and drops
duplicates through the durable :class:`~bridge.devices.dedup.DedupStore`, keeps the
:class:`DeviceRegistry` current, answers the device (``ack``/``nak``) and passes each new event
to one injected *sink*. The referee server
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
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from engine.i18n import message

from .dedup import DedupStore
from .limits import KeyedBuckets, LogLimiter, TokenBucket
from .pairing import TABLE_TARGET, Pairing, PairingDesk, Refusal
from .protocol import (
    LED_PATTERNS,
    ButtonPress,
    DeviceEvent,
    DiceRoll,
    FrameError,
    Heartbeat,
    Hello,
    LedCommand,
    ProtocolError,
    ack_message,
    nak_message,
    paired_message,
    parse_event,
    parse_hello,
    parse_pair,
    unpaired_message,
)
from .registry import LOW_BATTERY, DeviceRecord, DeviceRegistry

log = logging.getLogger(__name__)

EventSink = Callable[[DeviceEvent], None]
"""Receives each new, valid event once. Raising means "not taken": the hub forgets the event so
the device's retransmission is offered again, and sends no ack."""

NoticeSink = Callable[[str, str, dict[str, Any]], None]
"""``notify(code, device, params)``: a refusal or pairing the host (and table) should see."""

DEVICE_RATE = (10.0, 40.0)
"""Messages per second (and burst) one device id may send; more are dropped unread (a real
device resends what was not acked, so nothing is lost)."""

UNPAIRED_RATE = (20.0, 60.0)
"""Messages per second (and burst) all unpaired ids together may send."""


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

    status: Literal["accepted", "duplicate", "rejected", "refused", "not-taken", "throttled"]
    event: DeviceEvent | None = None
    error: ProtocolError | None = None


class DeviceHub:
    """Validates, checks pairings and windows, deduplicates and routes device traffic.

    Args:
        dedup: Durable ``(device, boot, seq)`` store.
        sink: Where new events go (the referee). Called with the hub's lock held, so one call at
            a time, from whichever transport thread delivered the event.
        registry: Device health; a fresh one when omitted.
        desk: Pairings. With one, only paired devices' events count (a seat box for its own
            seat, a dice tower for the table); without (transport tests only) every
            well-formed event does.
        clock: Monotonic seconds for the rate limits and log folding.
    """

    def __init__(
        self,
        dedup: DedupStore,
        sink: EventSink,
        registry: DeviceRegistry | None = None,
        *,
        desk: PairingDesk | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.dedup = dedup
        self.sink = sink
        self.registry = registry if registry is not None else DeviceRegistry()
        self.desk = desk
        self.notify: NoticeSink | None = None
        self._lock = threading.RLock()
        self._routes: dict[str, Outlet] = {}
        self._leds: dict[str, str] = {}
        self._rates = KeyedBuckets(*DEVICE_RATE, size=256, clock=clock)
        self._unpaired_rate = TokenBucket(*UNPAIRED_RATE)
        self._clock = clock
        self.logs = LogLimiter(log, clock=clock)
        self.throttled = 0
        self.registry.subscribe_removed(self._forget_route)

    # ------------------------------------------------------------------ admission

    def _admit(self, device: str | None) -> bool:
        """One more message from ``device`` fits its rate (and, unpaired, the shared one)."""
        if device is None:
            return True
        ok = self._rates.allow(device)
        if ok and self.desk is not None and self.desk.get(device) is None:
            ok = self._unpaired_rate.take(self._clock())
        if not ok:
            self.throttled += 1
            self.logs.warning("throttled", message("devices/throttled", device=device))
        return ok

    def _pairing(self, device: str) -> Pairing | None:
        return self.desk.get(device) if self.desk is not None else None

    def _label(self, device: str) -> dict[str, Any]:
        pairing = self._pairing(device)
        return {"paired": pairing.label if pairing else None}

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
            if topic_device is not None and not self._admit(topic_device):
                return IngestResult("throttled")
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
            if topic_device is None and not self._admit(event.device):
                return IngestResult("throttled")
            refusal = self._pairing_refusal(event)
            if refusal is not None:
                self._refuse(event, refusal, outlet)
                return IngestResult("refused", event=event, error=refusal)

            self._route(event.device, outlet)
            # Check, sink, then mark: the referee commits first, so a crash between the two
            # leaves a committed event not yet marked, which the referee link re-marks from the
            # event store on start (bridge.devices.table); marking first could lose the event.
            check = self.dedup.check(event.device, event.seq, event.boot)
            if check.verdict == "duplicate":
                self.registry.count(event.device, "duplicates", transport=outlet.name, online=True)
                outlet.send(event.device, ack_message(event.seq, event.boot))
                return IngestResult("duplicate", event=event)
            if check.refused:
                newest = check.newest if check.newest is not None else 0
                refused = ProtocolError(check.verdict, device=event.device, seq=event.seq,
                                    who=event.device, got=event.seq, boot=event.boot,
                                    newest=newest)  # fmt: skip
                self._reject(refused, outlet, event.device, boot=event.boot, newest=newest)
                if self.notify is not None:
                    self.notify(check.verdict, event.device, {"seq": event.seq,
                                "boot": event.boot, "newest": newest})  # fmt: skip
                return IngestResult("refused", event=event, error=refused)
            try:
                self.sink(event)
            except Exception as exc:
                text = message(
                    "devices/sink-failed", device=event.device, seq=event.seq, detail=exc
                )
                log.exception("%s", text)
                return IngestResult("not-taken", event=event)
            self.dedup.mark(event.device, event.seq, event.boot)
            self.registry.count(
                event.device, "accepted", transport=outlet.name, online=True,
                last_seq=event.seq, boot=event.boot, **self._label(event.device),
            )  # fmt: skip
            outlet.send(event.device, ack_message(event.seq, event.boot))
            return IngestResult("accepted", event=event)

    def _pairing_refusal(self, event: DeviceEvent) -> ProtocolError | None:
        """Why a paired-devices-only table refuses ``event``, or None when it may count."""
        if self.desk is None:
            return None
        pairing = self.desk.get(event.device)
        ctx: dict[str, Any] = {"device": event.device, "seq": event.seq, "who": event.device}
        if pairing is None:
            return ProtocolError("devices/not-paired", **ctx)
        if isinstance(event, ButtonPress) and (
            pairing.role != "seat" or pairing.seat != event.seat
        ):
            return ProtocolError("devices/wrong-seat", seat=event.seat,
                                 paired=pairing.label, **ctx)  # fmt: skip
        if isinstance(event, DiceRoll) and pairing.role != "table":
            return ProtocolError("devices/not-table", paired=pairing.label, **ctx)
        return None

    def _refuse(self, event: DeviceEvent, exc: ProtocolError, outlet: Outlet) -> None:
        """An event the pairings do not allow: nak it, say so, change nothing else."""
        device = event.device
        # an unpaired id may be invented (any number of them): those fold into one line
        key = exc.code if exc.code == "devices/not-paired" else f"{device}|{exc.code}"
        self.logs.warning(f"refused|{key}", f"{outlet.name}: {exc} ({exc.code})")
        if exc.code == "devices/not-paired":
            assert self.desk is not None
            self.desk.heard_unpaired(device)
        self.registry.count(device, "errors", last_error=exc.code, last_error_text=str(exc),
                            transport=outlet.name, **self._label(device))  # fmt: skip
        self._route(device, outlet)
        outlet.send(device, nak_message(event.seq, exc.code, boot=event.boot))
        if exc.code == "devices/not-paired":
            outlet.send(device, unpaired_message())
        if self.notify is not None:
            self.notify(exc.code, device, dict(exc.params))

    def ingest_hello(
        self,
        payload: bytes | str | Mapping[str, Any],
        outlet: Outlet,
        *,
        topic_device: str | None,
        sets_online: bool = True,
    ) -> Hello | None:
        """A device introduced itself: record kind, firmware, battery, boot; tell it whether it
        is paired, and resend its LED state.

        Args:
            sets_online: False for MQTT, where the hello is a retained message that outlives
                the device; there the ``status`` topic alone says online or offline.
        """
        with self._lock:
            if not self._admit(topic_device):
                return None
            try:
                hello = parse_hello(payload)
                if topic_device is not None and hello.device != topic_device:
                    raise ProtocolError(
                        "devices/device-mismatch", topic_device=topic_device, named=hello.device
                    )
            except ProtocolError as exc:
                self._reject(exc, outlet, topic_device)
                return None
            if topic_device is None and not self._admit(hello.device):
                return None
            self._battery(hello.device, hello.battery)
            changes: dict[str, Any] = {"online": True} if sets_online else {}
            self.registry.update(
                hello.device,
                seen=sets_online,
                device_kind=hello.device_kind,
                fw=hello.fw,
                transport=outlet.name,
                battery=hello.battery,
                boot=hello.boot,
                **self._label(hello.device),
                **changes,
            )
            self._route(hello.device, outlet)
            pairing = self._pairing(hello.device)
            if self.desk is not None and pairing is None:
                self.desk.heard_unpaired(hello.device, hello.device_kind)
                outlet.send(hello.device, unpaired_message())
                return hello
            if pairing is not None:
                outlet.send(hello.device, paired_message(pairing.role, pairing.seat))
            pattern = self._leds.get(hello.device)
            if pattern is not None:
                outlet.send(hello.device, LedCommand(pattern).to_json(), retain=True)
            return hello

    def ingest_pair(
        self, payload: bytes | str | Mapping[str, Any], outlet: Outlet, *, topic_device: str | None
    ) -> Pairing | None:
        """A device sent a pairing code: pair it to the code's seat (or the table), or tell it
        why not (``unpaired`` with the reason's code); returns the new pairing."""
        with self._lock:
            if not self._admit(topic_device):
                return None
            try:
                request = parse_pair(payload)
                if topic_device is not None and request.device != topic_device:
                    raise ProtocolError("devices/device-mismatch", topic_device=topic_device,
                                        named=request.device)  # fmt: skip
            except ProtocolError as exc:
                self._reject(exc, outlet, topic_device)
                return None
            if topic_device is None and not self._admit(request.device):
                return None
            if self.desk is None:
                return None
            device = request.device
            result = self.desk.redeem(device, request.code, request.device_kind, outlet.name)
            if isinstance(result, Refusal):
                self._pair_refused(device, request.device_kind, result, outlet)
                return None
            self._route(device, outlet)
            self._paired(result, outlet)
            return result

    def _pair_refused(
        self, device: str, device_kind: str | None, refusal: Refusal, outlet: Outlet
    ) -> None:
        """Tell the device why its code did not pair it. A device Herald has paired already
        (a stale entry, a box that forgot) is told its pairing again, never "unpaired": that
        made a paired box drop its pairing and send its next presses as code digits."""
        code = refusal.code
        params: dict[str, Any] = {"seconds": max(1, round(refusal.retry))}
        if refusal.target is not None:
            params["target"] = _target_label(refusal.target)
        text = message(code, device=device, **params)
        self.logs.warning(f"pair|{code}", f"{outlet.name}: {text} ({code})")
        pairing = self._pairing(device)
        if code != "devices/pair-wait":  # looked at: counted (and so routable once approved)
            self.registry.count(device, "errors", last_error=code, last_error_text=text,
                                transport=outlet.name, **self._label(device))  # fmt: skip
        self._route(device, outlet)
        if pairing is not None:
            outlet.send(device, paired_message(pairing.role, pairing.seat))
        else:
            assert self.desk is not None
            self.desk.heard_unpaired(device, device_kind, tried_code=True)
            reply = unpaired_message(code)
            if code == "devices/pair-wait":
                reply["retry_ms"] = int(refusal.retry * 1000) + 1
            outlet.send(device, reply)
        if code == "devices/pair-wait":
            return  # not looked at: no error counted, no notice (the sender is being slowed)
        if self.notify is not None:
            self.notify(code, device, {k: v for k, v in params.items() if k != "seconds"})

    def pair(self, device: str, seat: str | None) -> Pairing:
        """The host pairs ``device`` to ``seat`` (None: the table); the device is told."""
        assert self.desk is not None
        with self._lock:
            kind = record.device_kind if (record := self.registry.get(device)) else None
            pairing = self.desk.pair(device, seat, kind, "host")
            self._paired(pairing, self._routes.get(device))
            return pairing

    def unpair(self, device: str) -> bool:
        """The host unpairs ``device``: its events stop counting, it is told to pair again."""
        assert self.desk is not None
        with self._lock:
            found = self.desk.unpair(device)
            self._leds.pop(device, None)
            outlet = self._routes.get(device)
            if outlet is not None:
                outlet.send(device, unpaired_message("devices/unpaired-by-host"))
            if self.registry.get(device) is not None:
                self.registry.update(device, seen=False, paired=None)
            if self.notify is not None and found:
                self.notify("devices/unpaired", device, {})
            return found

    def _paired(self, pairing: Pairing, outlet: Outlet | None) -> None:
        """A new pairing: fresh seq windows, the record says so, the device is told."""
        device = pairing.device
        self.dedup.forget(device)
        self.registry.update(device, seen=False, paired=pairing.label,
                             last_error=None, last_error_text=None)  # fmt: skip
        if outlet is not None:
            outlet.send(device, paired_message(pairing.role, pairing.seat))
        log.info("%s", message("devices/paired", device=device, target=pairing.label))
        if self.notify is not None:
            self.notify("devices/paired", device, {"target": pairing.label})

    def ingest_heartbeat(self, beat: Heartbeat, outlet: Outlet) -> None:
        """A serial device is alive; battery may have changed."""
        with self._lock:
            if not self._admit(beat.device):
                return
            self._route(beat.device, outlet)
            self._battery(beat.device, beat.battery)
            changes: dict[str, Any] = {"online": True, "transport": outlet.name}
            if beat.battery is not None:
                changes["battery"] = beat.battery
            self.registry.update(beat.device, **changes, **self._label(beat.device))

    def ingest_status(self, device: str, payload: bytes, outlet: Outlet) -> None:
        """MQTT ``status`` topic: ``online`` or ``offline`` (the device's last will)."""
        with self._lock:
            if not self._admit(device):
                return
            text = payload.decode("utf-8", "replace").strip()
            if text not in ("online", "offline"):
                exc = ProtocolError("devices/bad-status", value=repr(text[:20]))
                self._reject(exc, outlet, device)
                return
            online = text == "online"
            old = self.registry.get(device)
            if old is None or old.online != online:
                code = "devices/online" if online else "devices/offline"
                key = device if self._pairing(device) is not None else "unpaired"
                self.logs.info(f"status|{key}", message(code, device=device))
            self.registry.update(device, seen=online, online=online, transport=outlet.name,
                                 **self._label(device))  # fmt: skip
            if online:
                self._route(device, outlet)

    def frame_error(self, error: FrameError, source: str) -> None:
        """Serial noise that names no device: count it against the port, log it folded (one
        line per kind and port every few seconds, with how many were folded into it)."""
        self.logs.warning(f"frame|{source}|{error.code}", f"{source}: {error.text()}")
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
        """Remember how to reach ``device``; only for paired ids or ones the (bounded) registry
        holds, so invented ids cannot grow the table."""
        if self._pairing(device) is not None or self.registry.get(device) is not None:
            self._routes[device] = outlet

    def _forget_route(self, device: str) -> None:
        with self._lock:
            self._routes.pop(device, None)

    def _battery(self, device: str, battery: int | None) -> None:
        if battery is None or battery > LOW_BATTERY:
            return
        old = self.registry.get(device)
        if old is None or old.battery is None or old.battery > LOW_BATTERY:
            key = device if self._pairing(device) is not None else "unpaired"
            text = message("devices/low-battery", device=device, battery=battery)
            self.logs.warning(f"battery|{key}", text)

    def _reject(
        self,
        exc: ProtocolError,
        outlet: Outlet,
        topic_device: str | None,
        *,
        boot: int = 0,
        newest: int | None = None,
    ) -> None:
        device = topic_device or exc.device
        self.logs.warning(f"reject|{outlet.name}|{exc.code}", f"{outlet.name}: {exc} ({exc.code})")
        if device is None:
            self.registry.source_error(outlet.name)
            return
        self.registry.count(device, "errors", last_error=exc.code, last_error_text=str(exc),
                            **self._label(device))  # fmt: skip
        if exc.seq is not None:
            stale = newest if exc.code == "devices/stale-boot" else None
            boot = boot or exc.boot
            outlet.send(device, nak_message(exc.seq, exc.code, boot=boot, newest=stale))


def _target_label(target: str) -> str:
    """``seat:red`` or ``table``: how notices name what a code was for."""
    return TABLE_TARGET if target == TABLE_TARGET else f"seat:{target}"
