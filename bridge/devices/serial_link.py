"""Serial devices (USB boards): framed lines over any pyserial URL, reopened after an unplug.

Two pieces, as in pyserial's ``serial.threaded``: :class:`SerialDeviceProtocol` turns bytes into
hub calls and knows nothing about ports or threads; :class:`SerialTransport` owns the port in one
thread, opens it with ``serial.serial_for_url`` (device paths, ``loop://``, ``socket://``,
``rfc2217://``), feeds the protocol, and when the port fails (cable pulled) reports the loss,
closes it and tries again every ``reopen_interval`` seconds until it is back. After every open
Herald sends ``who`` so the device repeats its hello; the device resends unacknowledged events
on its own, so an unplug loses nothing.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import serial

from engine.i18n import message

from .hub import DeviceHub
from .protocol import (
    WHO_MESSAGE,
    FrameDecoder,
    FrameError,
    Heartbeat,
    Hello,
    PairRequest,
    ProtocolError,
    encode_frame,
    parse_serial_message,
)

log = logging.getLogger(__name__)

HOST_MESSAGES = frozenset({"who", "ack", "nak", "led", "paired", "unpaired"})
"""Herald → device types; ignored if a port echoes them back (some adapters and ``loop://``)."""


class SerialDeviceProtocol:
    """Bytes in, hub calls out, for one open port.

    Args:
        hub: Where messages go.
        outlet: The transport acks and LED commands go back through.
        clock: Monotonic seconds, for heartbeat bookkeeping.
    """

    def __init__(
        self, hub: DeviceHub, outlet: SerialTransport, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.hub = hub
        self.outlet = outlet
        self.clock = clock
        self.decoder = FrameDecoder()
        self.last_heard: dict[str, float] = {}
        self.frames = 0
        self.errors = 0

    def connection_made(self) -> None:
        """A (re)opened port: start from a clean decoder and ask who is there."""
        self.decoder = FrameDecoder()
        self.outlet.send_raw(encode_frame(WHO_MESSAGE))

    def data_received(self, data: bytes) -> None:
        """Decode ``data``; never raises on bad input."""
        for item in self.decoder.feed(data):
            self._handle(item)

    def connection_lost(self) -> None:
        for item in self.decoder.flush():
            self._handle(item)
        self.last_heard.clear()

    def silent_devices(self, timeout: float) -> list[str]:
        """Devices not heard from for ``timeout`` seconds (forgotten once returned)."""
        now = self.clock()
        silent = [d for d, t in self.last_heard.items() if now - t > timeout]
        for device in silent:
            del self.last_heard[device]
        return silent

    def _handle(self, item: dict[str, Any] | FrameError) -> None:
        if isinstance(item, FrameError):
            self.errors += 1
            self.hub.frame_error(item, self.outlet.name)
            return
        self.frames += 1
        if item.get("t") in HOST_MESSAGES:
            return
        try:
            msg = parse_serial_message(item) if item.get("t") != "event" else None
        except ProtocolError as exc:
            self.errors += 1
            self.hub.frame_error(FrameError(exc.code, 0, params=dict(exc.params)), self.outlet.name)
            return
        if msg is None:
            result = self.hub.ingest_event(item, self.outlet, topic_device=None)
            if result.event is not None:
                self.last_heard[result.event.device] = self.clock()
        elif isinstance(msg, Hello):
            self.hub.ingest_hello(item, self.outlet, topic_device=None)
            self.last_heard[msg.device] = self.clock()
        elif isinstance(msg, Heartbeat):
            self.hub.ingest_heartbeat(msg, self.outlet)
            self.last_heard[msg.device] = self.clock()
        elif isinstance(msg, PairRequest):
            self.hub.ingest_pair(item, self.outlet, topic_device=None)


class SerialTransport:
    """Owns one serial port in a background thread; see the module docstring.

    Args:
        hub: Where messages go.
        url: Anything ``serial.serial_for_url`` opens.
        heartbeat_timeout: Seconds of silence after which a device is marked offline (devices
            send a heartbeat every few seconds).
        reopen_interval: Seconds between attempts to reopen a lost port.
    """

    def __init__(
        self,
        hub: DeviceHub,
        url: str,
        *,
        baudrate: int = 115200,
        heartbeat_timeout: float = 15.0,
        reopen_interval: float = 0.5,
    ) -> None:
        self.hub = hub
        self.url = url
        self.baudrate = baudrate
        self.heartbeat_timeout = heartbeat_timeout
        self.reopen_interval = reopen_interval
        self.opened = threading.Event()
        self.opens = 0
        self.losses = 0
        self.protocol = SerialDeviceProtocol(hub, self)
        self._port: serial.SerialBase | None = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def name(self) -> str:
        return f"serial:{self.url}"

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._close()

    def send(self, device: str, msg: Mapping[str, Any], *, retain: bool = False) -> bool:
        """Write one framed message; ``retain`` has no meaning on serial (the hub replays)."""
        return self.send_raw(encode_frame(msg))

    def send_raw(self, data: bytes) -> bool:
        with self._write_lock:
            port = self._port
            if port is None:
                return False
            try:
                port.write(data)
                return True
            except (serial.SerialException, OSError) as exc:
                log.debug("%s: write failed: %s", self.name, exc)
                return False

    # ------------------------------------------------------------------ thread

    def _run(self) -> None:
        failed_once = False
        while not self._stop.is_set():
            try:
                port = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0.1)
            except (serial.SerialException, OSError, ValueError) as exc:
                if not failed_once:
                    log.warning(
                        "%s", message("devices/port-open-failed", port=self.url, detail=exc)
                    )
                    failed_once = True
                self._stop.wait(self.reopen_interval)
                continue
            failed_once = False
            with self._write_lock:
                self._port = port
            self.opens += 1
            log.info("%s", message("devices/port-opened", port=self.url))
            self.protocol.connection_made()
            self.opened.set()
            error = self._pump(port)
            self.opened.clear()
            self._close()
            self.protocol.connection_lost()
            self.hub.outlet_lost(self)
            if error is not None:
                self.losses += 1
                log.warning("%s", message("devices/port-lost", port=self.url, detail=error))
                self._stop.wait(self.reopen_interval)

    def _pump(self, port: serial.SerialBase) -> Exception | None:
        """Read until stopped (None) or the port fails (the error)."""
        while not self._stop.is_set():
            try:
                data = port.read(port.in_waiting or 1)
            except (serial.SerialException, OSError, TypeError) as exc:
                # TypeError: pyserial on a vanished fd sometimes fails inside select().
                return exc
            if data:
                self.protocol.data_received(data)
            for device in self.protocol.silent_devices(self.heartbeat_timeout):
                self.hub.mark_offline(device)
        return None

    def _close(self) -> None:
        with self._write_lock:
            port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()
