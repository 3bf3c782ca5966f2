"""MicroPython hal: real pins, PWM LED, UART, Wi-Fi and umqtt.simple on a board.

Configuration lives in ``config.json`` on the board's filesystem (see firmware/README.md)::

    {"device": "seat-red", "seat": "red", "table": "table1",
     "wifi": {"ssid": "...", "password": "..."},
     "mqtt": {"host": "192.168.1.10", "port": 1883, "user": "seat-red", "password": "...",
              "ssl": false, "ca": "/ca.der"},
     "uart": {"id": 1, "baudrate": 115200, "tx": 4, "rx": 5},
     "pins": {"confirm": 12, "pass": 13, "undo": 14, "led": [25, 26, 27]},
     "dice": [{"sides": 6}], "beam": 15, "manual": {"die0": 12, "send": 13}}

With an ``mqtt`` section the device uses Wi-Fi; without one it talks over ``uart`` (or, without
that either, over the USB REPL stream ``sys.stdin``/``sys.stdout``).
"""

import json
import sys
import time

import machine

from firmware.links import MqttLink, SerialLink, run


class FlashStore:
    def load(self, key):
        try:
            with open("/herald_" + key) as f:
                return f.read().strip()
        except OSError:
            return None

    def save(self, key, value):
        with open("/herald_" + key, "w") as f:
            f.write(value)


class PwmRgb:
    """Common-cathode RGB LED on three PWM pins."""

    def __init__(self, pins):
        self.pwms = [machine.PWM(machine.Pin(p), freq=1000) for p in pins]

    def set(self, r, g, b):
        for pwm, level in zip(self.pwms, (r, g, b)):  # noqa: B905 (MicroPython)
            pwm.duty_u16(level * 257)


class UartPort:
    def __init__(self, cfg):
        kwargs = {"baudrate": cfg.get("baudrate", 115200)}
        if "tx" in cfg:
            kwargs["tx"] = machine.Pin(cfg["tx"])
            kwargs["rx"] = machine.Pin(cfg["rx"])
        self.uart = machine.UART(cfg.get("id", 1), **kwargs)

    def read(self, n):
        if not self.uart.any():
            return None
        return self.uart.read(n)

    def write(self, data):
        return self.uart.write(data)


class StdioPort:
    """The USB CDC REPL stream, for boards whose only link is USB."""

    def __init__(self):
        import select

        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)

    def read(self, n):
        if not self.poll.poll(0):
            return None
        return sys.stdin.buffer.read(1)

    def write(self, data):
        return sys.stdout.buffer.write(data)


class BeamSensor:
    """Break-beam on the chute (low = broken) plus a face reader on a second UART.

    The face reader (smart-dice receiver or tray camera module) sends lines like ``4,2``;
    an empty line means no readable dice.
    """

    def __init__(self, beam_pin, reader_cfg=None):
        self.beam = machine.Pin(beam_pin, machine.Pin.IN, machine.Pin.PULL_UP)
        # A die crosses the beam in a few ms; the main loop may be blocked longer (umqtt's
        # publish waits for PUBACK), so an interrupt latches the break for the next two reads.
        self.latch = 0
        self.beam.irq(trigger=machine.Pin.IRQ_FALLING, handler=self._broken)
        self.reader = UartPort(reader_cfg) if reader_cfg else None
        self.faces = None
        self.buf = b""

    def _broken(self, pin):
        self.latch = 2

    def read(self):
        if self.reader is not None:
            data = self.reader.read(64)
            if data:
                self.buf += data
                while b"\n" in self.buf:
                    line, self.buf = self.buf.split(b"\n", 1)
                    line = line.strip()
                    self.faces = [int(x) for x in line.split(b",")] if line else None
        broken = self.beam.value() == 0 or self.latch > 0
        if self.latch > 0:
            self.latch -= 1
        return broken, self.faces


class Clock:
    ticks_ms = staticmethod(time.ticks_ms)
    sleep_ms = staticmethod(time.sleep_ms)


def load_config():
    with open("/config.json") as f:
        return json.load(f)


def _wifi(cfg):
    import network

    wlan = network.WLAN(network.STA_IF)
    wlan.active(True)
    if not wlan.isconnected():
        wlan.connect(cfg["ssid"], cfg["password"])
        for _ in range(200):
            if wlan.isconnected():
                break
            time.sleep_ms(100)
    return wlan


def _link(cfg, device):
    if "mqtt" in cfg:
        from umqtt.simple import MQTTClient

        _wifi(cfg["wifi"])
        m = cfg["mqtt"]
        context = None
        if m.get("ssl"):
            # umqtt.simple takes an SSLContext; the broker's certificate is checked against the
            # CA in "ca" (DER, on the board's filesystem)
            import ssl

            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            if m.get("ca"):
                context.load_verify_locations(cafile=m["ca"])

        def make_client(client_id, keepalive):
            # user and password: what Herald's host gave this device for the table's broker
            # (its ACL lets it publish only under its own topic); "ssl": true for TLS
            return MQTTClient(
                client_id,
                m["host"],
                m.get("port", 8883 if m.get("ssl") else 1883),
                m.get("user"),
                m.get("password"),
                keepalive=keepalive,
                ssl=context,
            )

        return MqttLink(device, make_client, cfg.get("table", "table1"))
    port = UartPort(cfg["uart"]) if "uart" in cfg else StdioPort()
    return SerialLink(device, port)


def _pin(n):
    return machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP)


def run_seat_box(seat_box_class, argv=None):

    cfg = load_config()
    p = cfg["pins"]
    pins = {name: _pin(p[name]) for name in ("confirm", "pass", "undo") if name in p}
    box = seat_box_class(cfg["device"], cfg.get("seat"), pins, PwmRgb(p["led"]), FlashStore())
    run(box, _link(cfg, box), Clock, lambda: False)


def run_dice_tower(tower_class, argv=None):

    cfg = load_config()
    dice = cfg.get("dice", [{"sides": 6}])
    if "manual" in cfg:
        pins = {name: _pin(n) for name, n in cfg["manual"].items()}
        tower = tower_class(cfg["device"], dice, FlashStore(), buttons=pins)
    else:
        sensor = BeamSensor(cfg["beam"], cfg.get("reader"))
        tower = tower_class(cfg["device"], dice, FlashStore(), sensor=sensor)
    run(tower, _link(cfg, tower), Clock, lambda: False)
