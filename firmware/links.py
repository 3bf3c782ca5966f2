"""How a device talks to Herald: over MQTT (Wi-Fi boards) or a serial line (USB boards).

Both links are polled from the device's main loop, never block for long, and treat any error as
"connection lost": they close, wait (with backoff for MQTT) and start again. Pending events stay
in the device's outbox across all of that and are resent after reconnecting. While Herald is
reachable a link also sends the device's control messages (pairing codes) and lets it report
what its outbox had to drop (:meth:`~firmware.device.Device.pump`).
"""

import json

from firmware.compat import ticks_add, ticks_diff
from firmware.wire import FrameReader, dumps, frame, topic


class MqttLink:
    """MQTT link over a umqtt.simple-compatible client.

    Args:
        device: A :class:`~firmware.device.Device`.
        make_client: ``make_client(client_id, keepalive) -> MQTTClient`` (the hal binds server,
            port and credentials); called again for every reconnect.
        table: Table id, the second topic level.
    """

    def __init__(self, device, make_client, table, keepalive=10, log=None):
        self.device = device
        self.make_client = make_client
        self.table = table
        self.keepalive = keepalive
        self.log = log or (lambda text: None)
        self.client = None
        self.connected = False
        self._retry_at = None
        self._backoff = 250
        self._last_out = 0
        self._now = 0
        dev = device.device_id
        self.t_event = topic(table, dev, "event")
        self.t_status = topic(table, dev, "status")
        self.t_info = topic(table, dev, "info")
        self.t_cmd = topic(table, dev, "cmd")
        self.t_pair = topic(table, dev, "pair")

    def _on_msg(self, t, msg):
        try:
            data = json.loads(msg)
        except ValueError:
            return
        if isinstance(data, dict):
            self.device.on_command(data, self._now)

    def _connect(self, now):
        client = self.make_client(self.device.device_id, self.keepalive)
        client.set_callback(self._on_msg)
        client.set_last_will(self.t_status, b"offline", retain=True, qos=1)
        client.connect()
        self.client = client
        # subscribe first: Herald answers the hello (paired or not) at once, not retained
        client.subscribe(self.t_cmd, qos=1)
        client.publish(self.t_status, b"online", retain=True, qos=1)
        client.publish(self.t_info, dumps(self.device.hello()), retain=True, qos=1)
        self.connected = True
        self._backoff = 250
        self._last_out = now
        self.device.outbox.resend_all()
        self.log("connected")

    def _drop(self, now, err):
        if self.connected:
            self.log("disconnected %s" % (err,))
        self.connected = False
        if self.client is not None:
            try:  # noqa: SIM105 (no contextlib on MicroPython)
                self.client.sock.close()
            except Exception:
                pass
        self.client = None
        self._retry_at = ticks_add(now, self._backoff)
        self._backoff = min(self._backoff * 2, 4000)

    def poll(self, now):
        self._now = now
        if not self.connected:
            if self._retry_at is not None and ticks_diff(now, self._retry_at) < 0:
                return
            try:
                self._connect(now)
            except Exception as err:  # OSError, MQTTException, or a garbled CONNACK
                self._drop(now, err)
            return
        try:
            self.client.check_msg()
            for msg in self.device.take_control(now):
                self.client.publish(self.t_pair, dumps(msg), qos=1)
            self.device.pump()
            for _seq, msg in self.device.outbox.due(now):
                self.client.publish(self.t_event, dumps(msg), qos=1)
                self._last_out = now
            if ticks_diff(now, self._last_out) >= self.keepalive * 500:
                self.client.ping()
                self._last_out = now
        except Exception as err:
            self._drop(now, err)

    def close(self):
        """Leave cleanly: announce offline ourselves (a clean disconnect skips the will)."""
        if self.connected and self.client is not None:
            try:
                self.client.publish(self.t_status, b"offline", retain=True, qos=1)
                self.client.disconnect()
            except Exception:
                pass
        self.connected = False


UP_MS = 10000
"""A serial link counts as up this long after Herald last spoke (serial has no connect)."""


class SerialLink:
    """Framed-line link over a UART-like ``port`` (``read(n)`` non-blocking, ``write(b)``).

    Sends the hello at start and whenever Herald asks (``who``), a heartbeat every ``hb_ms``,
    and due events from the outbox.
    """

    def __init__(self, device, port, hb_ms=3000, log=None):
        self.device = device
        self.port = port
        self.hb_ms = hb_ms
        self.log = log or (lambda text: None)
        self.reader = FrameReader()
        self.connected = True
        self._hello_due = True
        self._last_hb = None
        self._heard_at = None  # when Herald last spoke: it is reachable for UP_MS after

    def poll(self, now):
        try:
            data = self.port.read(256)
            if data:
                for msg in self.reader.feed(data):
                    self._heard_at = now
                    if msg.get("t") == "who":
                        self._hello_due = True
                        self.device.outbox.resend_all()
                    else:
                        self.device.on_command(msg, now)
            if self._hello_due:
                self._hello_due = False
                self._last_hb = now
                self.port.write(frame(self.device.hello()))
            elif ticks_diff(now, self._last_hb) >= self.hb_ms:
                self._last_hb = now
                self.port.write(frame(self.device.heartbeat()))
            for msg in self.device.take_control(now):
                self.port.write(frame(msg))
            if self._heard_at is not None and ticks_diff(now, self._heard_at) < UP_MS:
                self.device.pump()
            for _seq, msg in self.device.outbox.due(now):
                out = {"t": "event"}
                out.update(msg)
                self.port.write(frame(out))
        except OSError as err:
            # A USB CDC port with no host attached may refuse writes: keep going, events wait.
            self.log("serial error %s" % (err,))

    def close(self):
        pass


def run(device, link, clock, should_stop, period_ms=5, hook=None):
    """The device main loop: poll inputs, then the link, until ``should_stop()`` is true.

    ``clock`` provides ``ticks_ms()`` and ``sleep_ms(ms)``; ``hook(now)``, if given, runs first
    in every pass (the host hal drives its virtual pins from there).
    """
    while not should_stop():
        now = clock.ticks_ms()
        if hook is not None:
            hook(now)
        device.poll(now)
        link.poll(now)
        clock.sleep_ms(period_ms)
    link.close()
