"""Host hal: runs the real firmware on CPython as a virtual device.

Buttons, LED and dice sensors are virtual and driven by commands on standard input (one per
line), so tests and the simulated table exercise the same state machines a board runs::

    press confirm | hold pass | down undo | up undo     seat box buttons
    roll 4 2      (dice drop through the chute and settle on 4 and 2)
    dice 6:red:strength,6:black:horse   (other dice put in the tray: the next rolls use them)
    pickup        (dice leave the tray: no roll)   put 4 2  (dice set down by hand: no roll)
    press die0 | press send                             dice tower manual buttons
    pair 213312213312   (once the device is unpaired: enter the pairing code, on a seat box
                         by pressing its buttons 1 = confirm, 2 = pass, 3 = undo, as a
                         person would; presses stop once the box is paired)
    battery 42 | wait 100 | quit

``--mqtt mqtts://host:8883?ca=FILE`` connects with TLS, checking the broker's certificate against
the CA in FILE (the system's CAs without ``ca``), as a board does with ``"ssl": true``.

MQTT credentials come from the URL (``mqtt://user:pass@host``), ``--credentials FILE`` (JSON
``{"user": ..., "password": ...}``, what Herald writes for its virtual devices, mode 0600) or
the environment (``HERALD_MQTT_USER``, ``HERALD_MQTT_PASSWORD``), so no secret needs to be on a
command line.

The device prints what it does on standard output (``connected``, ``event 7 button``,
``acked 7``, ``led your-turn``), one line each, for tests and operators to follow.
"""

import argparse
import faulthandler
import json
import os
import random
import signal
import sys
import tempfile
import threading
from collections import deque
from urllib.parse import parse_qs, unquote, urlsplit

from firmware import compat
from firmware.links import MqttLink, SerialLink, run
from firmware.outbox import Outbox
from firmware.pairing import buttons_for

PRESS_MS = 80
GAP_MS = 60
HOLD_MS = 1200
CHECK_MS = 500
"""After a code's last press, how long until the person looks whether the box took it."""
CODE_TRIES = 5


def log(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


class FileStore:
    """Key → small text file, standing in for a board's flash filesystem."""

    def __init__(self, directory):
        self.directory = directory
        os.makedirs(directory, exist_ok=True)

    def load(self, key):
        try:
            with open(os.path.join(self.directory, key)) as f:
                return f.read().strip()
        except OSError:
            return None

    def save(self, key, value):
        path = os.path.join(self.directory, key)
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(value)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)


class VirtualPin:
    """An input pin with a pull-up: idle level 1, pressed 0 (active-low, like the board)."""

    def __init__(self, level=1):
        self.level = level

    def value(self):
        return self.level


class VirtualRgb:
    def __init__(self):
        self.color = (0, 0, 0)

    def set(self, r, g, b):
        self.color = (r, g, b)


class VirtualDiceSensor:
    """Chute break-beam and tray faces, as the dice tower's sensor interface expects.

    Like the board's interrupt-latched beam, a break is reported on at least two reads even
    if it was over before the main loop looked (a blocking publish must not hide a drop).
    """

    def __init__(self, count):
        self.count = count
        self.beam = False
        self.latch = 0
        self.faces = None

    def set_beam(self, on):
        self.beam = on
        if on:
            self.latch = 2

    def read(self):
        broken = self.beam or self.latch > 0
        if self.latch > 0:
            self.latch -= 1
        return broken, self.faces


class HostSerial:
    """A pyserial port with the UART subset the firmware uses (non-blocking read, write)."""

    def __init__(self, path, baudrate=115200):
        import serial

        self.port = serial.serial_for_url(path, baudrate=baudrate, timeout=0)

    def read(self, n):
        return self.port.read(n)

    def write(self, data):
        return self.port.write(data)


class Script:
    """Turns command lines into timed pin and sensor changes, one command after the other."""

    def __init__(self, pins=None, sensor=None, device=None, settle_ms=400):
        self.pins = pins or {}
        self.sensor = sensor
        self.device = device
        self.settle_ms = settle_ms
        self.lines = deque()
        self.actions = []
        self.cursor = 0
        self.actions_now = 0
        self._seen = None
        self.quit = False

    def feed_stdin(self):
        def reader():
            for line in sys.stdin:
                self.lines.append(line)
            self.lines.append("eof")

        threading.Thread(target=reader, daemon=True).start()

    def _at(self, delay, fn):
        self.actions.append((self.cursor + delay, fn))

    def _set_pin(self, name, level):
        pin = self.pins[name]

        def act():
            pin.level = level

        return act

    def command(self, line, now):
        words = line.split()
        if not words:
            return
        self.cursor = max(self.cursor, now)
        verb, args = words[0], words[1:]
        if verb == "quit":
            self.quit = True
        elif verb == "eof":
            pass
        elif verb == "wait":
            self.cursor += int(args[0])
        elif verb in ("press", "hold", "down", "up") and args and args[0] in self.pins:
            name = args[0]
            if verb in ("press", "hold", "down"):
                self._at(0, self._set_pin(name, 0))
            if verb == "press":
                self._at(PRESS_MS, self._set_pin(name, 1))
                self.cursor += PRESS_MS + GAP_MS
            elif verb == "hold":
                self._at(HOLD_MS, self._set_pin(name, 1))
                self.cursor += HOLD_MS + GAP_MS
            elif verb == "up":
                self._at(0, self._set_pin(name, 1))
                self.cursor += GAP_MS
        elif verb in ("roll", "put", "pickup") and self.sensor is not None:
            faces = [int(a) for a in args] if args else None
            sensor = self.sensor

            def beam(on):
                def act():
                    sensor.set_beam(on)
                    if on:
                        sensor.faces = None

                return act

            def show(values):
                def act():
                    sensor.faces = values

                return act

            if verb == "roll":
                self._at(0, beam(True))
                self._at(20, beam(False))
                self._at(150, show(faces))
                self.cursor += 150 + self.settle_ms + 150
            else:
                self._at(0, show(faces if verb == "put" else None))
                self.cursor += GAP_MS
        elif verb == "dice" and args and hasattr(self.device, "set_dice"):
            try:
                dice = parse_dice(args[0])
            except ValueError:
                log("bad dice " + args[0])
                return
            device, sensor = self.device, self.sensor

            def swap():
                device.set_dice(dice)
                if sensor is not None:
                    sensor.count = len(dice)

            self._at(0, swap)
            self.cursor += GAP_MS
        elif verb == "battery" and self.device is not None:
            self.device.battery = int(args[0])
        elif verb == "pair" and args and self.device is not None:
            self._pair(args[0])
        else:
            log("unknown command " + line.strip())

    def _code_press(self, name):
        """A press of a code being entered, made only while the device still asks for a code:
        a person stops once the box shows it is paired (the rest would be the seat's presses)."""
        pin, device = self.pins[name], self.device

        def act():
            if device.wants_code():
                pin.level = 0

        return act

    def _pair(self, code, waited=0, tries=0):
        """Wait (as a person would) until the device asks for a code, then enter it.

        If the entry ends without the device having sent a request (a stalled process saw a
        press last long enough to be a hold, which starts the entry over), the person holds a
        button to start afresh and enters the code again, up to :data:`CODE_TRIES` times. A
        request Herald answered is never entered again: that was the pile-up of issue 25,
        point 9, where entries typed every 3 s ran into a box that had paired meanwhile.
        """
        device = self.device

        def enter():
            if not device.wants_code():
                if waited < 600:  # 60 s
                    self.cursor = max(self.cursor, self.actions_now)
                    self._at(100, lambda: self._pair(code, waited + 1, tries))
                return
            presses = buttons_for(code)
            if presses and all(b in self.pins for b in presses):
                self.cursor = max(self.cursor, self.actions_now)
                if tries:  # a hold starts the entry over (the firmware drops what was pressed)
                    self._at(0, self._code_press(presses[0]))
                    self._at(HOLD_MS, self._set_pin(presses[0], 1))
                    self.cursor += HOLD_MS + GAP_MS
                sent = device.pair_requests
                for button in presses:
                    self._at(0, self._code_press(button))
                    self._at(PRESS_MS, self._set_pin(button, 1))
                    self.cursor += PRESS_MS + GAP_MS

                def check():
                    if device.wants_code() and device.pair_requests == sent and tries < CODE_TRIES:
                        log("entry lost: again")
                        self._pair(code, 0, tries + 1)

                self._at(CHECK_MS, check)
            elif hasattr(device, "enter_code"):
                device.enter_code(code)
            else:
                log("cannot enter code " + code)

        if waited == 0:
            self._at(0, enter)
        else:
            enter()

    def poll(self, now):
        """Run the commands read so far, then the next pin or sensor change that is due.

        A change is made only once the device has had a pass at or after its time in the state
        before it (``self._seen``: the previous pass), and one time at a time: a process stalled
        on a loaded machine would otherwise make a press's "down" and "up", or one roll's faces
        and the next roll's drop, in one pass that the device never sees between. A late change
        delays the rest of the script by as much, so every state lasts as long as it should.
        """
        self.actions_now = now
        seen, self._seen = self._seen, now
        while self.lines:
            self.command(self.lines.popleft(), now)
        if not self.actions or seen is None:
            return
        first = self.actions[0][0]
        for when, _ in self.actions[1:]:
            if compat.ticks_diff(when, first) < 0:
                first = when
        if compat.ticks_diff(seen, first) < 0:
            return
        for action in [a for a in self.actions if a[0] == first]:
            self.actions.remove(action)
            action[1]()
        late = compat.ticks_diff(now, first)
        if late > 0:
            self.actions = [(compat.ticks_add(when, late), fn) for when, fn in self.actions]
            self.cursor = compat.ticks_add(self.cursor, late)


def parse_dice(text):
    """``6,6`` or ``6:red:symbols,6:blue``: sides, then optional colour and type, per die."""
    dice = []
    for spec in text.split(","):
        parts = spec.split(":")
        die = {"sides": int(parts[0])}
        if len(parts) > 1 and parts[1]:
            die["color"] = parts[1]
        if len(parts) > 2 and parts[2]:
            die["type"] = parts[2]
        dice.append(die)
    return dice


def _parser(prog, kind):
    p = argparse.ArgumentParser(prog=prog, description="Herald virtual " + kind)
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--mqtt", metavar="URL", help="mqtt://[user:pass@]host:port")
    where.add_argument("--serial", metavar="PATH", help="serial device path or pyserial URL")
    p.add_argument("--device", required=True, help="device id (letters, digits, - and _)")
    p.add_argument("--table", default="table1", help="table id in MQTT topics")
    p.add_argument("--state-dir", help="where the boot counter and pairing are kept")
    p.add_argument("--credentials", metavar="FILE", help="MQTT user and password (JSON)")
    p.add_argument("--outbox", type=int, default=32, help="unacknowledged events kept at most")
    p.add_argument("--battery", type=int, help="battery percent to report")
    p.add_argument("--keepalive", type=int, default=10, help="MQTT keepalive seconds")
    p.add_argument("--heartbeat-ms", type=int, default=3000, help="serial heartbeat period")
    p.add_argument("--auto", type=float, metavar="SECONDS", help="act on its own this often")
    p.add_argument("--seed", type=int, default=0, help="seed for --auto")
    p.add_argument("--no-stdin", action="store_true", help="ignore standard input")
    return p


def _link(args, device):
    if args.serial:
        return SerialLink(device, HostSerial(args.serial), hb_ms=args.heartbeat_ms, log=log)
    from firmware.host_mqtt import MQTTClient

    url = urlsplit(args.mqtt if "://" in args.mqtt else "mqtt://" + args.mqtt)
    user = unquote(url.username) if url.username else os.environ.get("HERALD_MQTT_USER")
    password = unquote(url.password) if url.password else os.environ.get("HERALD_MQTT_PASSWORD")
    if args.credentials:
        with open(args.credentials) as f:
            creds = json.load(f)
        user, password = creds.get("user", user), creds.get("password", password)

    context = None
    if url.scheme == "mqtts":
        import ssl

        ca = parse_qs(url.query).get("ca")
        context = ssl.create_default_context(cafile=ca[-1] if ca else None)

    def make_client(client_id, keepalive):
        port = url.port or (8883 if context else 1883)
        return MQTTClient(
            client_id, url.hostname, port, user, password, keepalive=keepalive, ssl=context
        )

    return MqttLink(device, make_client, args.table, keepalive=args.keepalive, log=log)


def _state_dir(args):
    base = args.state_dir or os.path.join(tempfile.gettempdir(), "herald-devices")
    return os.path.join(base, args.device)


def _run(device, script, args, auto):
    stop = {"flag": False}

    def on_signal(signum, frame):
        stop["flag"] = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    faulthandler.register(signal.SIGUSR1)  # `kill -USR1 PID` prints where a stuck device is
    if not args.no_stdin:
        script.feed_stdin()
    link = _link(args, device)
    rng = random.Random(args.seed)
    next_auto = {"at": None}

    def hook(now):
        due = next_auto["at"] is None or compat.ticks_diff(now, next_auto["at"]) >= 0
        if auto is not None and args.auto and due:
            next_auto["at"] = now + int(args.auto * 1000)
            script.lines.append(auto(rng))
        script.poll(now)

    log("ready " + device.device_id)
    run(device, link, compat, lambda: stop["flag"] or script.quit, hook=hook)
    log("stopped")
    return 0


def run_seat_box(seat_box_class, argv=None):

    p = _parser("python -m firmware.seat_box", "seat box")
    p.add_argument("--seat", help="seat the box was set up for (pairing decides)")
    args = p.parse_args(argv)
    pins = {"confirm": VirtualPin(), "pass": VirtualPin(), "undo": VirtualPin()}
    box = seat_box_class(
        args.device,
        args.seat,
        pins,
        VirtualRgb(),
        FileStore(_state_dir(args)),
        log=log,
        battery=args.battery,
        outbox=Outbox(limit=args.outbox),
    )
    script = Script(pins=pins, device=box)

    def auto(rng):
        return "wait 0" if box.wants_code() else "press " + rng.choice(("confirm", "pass"))

    return _run(box, script, args, auto)


def run_dice_tower(tower_class, argv=None):

    p = _parser("python -m firmware.dice_tower", "dice tower")
    p.add_argument(
        "--dice", default="6,6", help="sides of each die, e.g. 6,6 or 6:red:symbols,6:blue"
    )
    p.add_argument("--manual", action="store_true", help="buttons instead of sensors")
    p.add_argument("--settle-ms", type=int, default=400, help="faces must hold this long")
    args = p.parse_args(argv)
    dice = parse_dice(args.dice)
    store = FileStore(_state_dir(args))
    if args.manual:
        pins = {"die%d" % i: VirtualPin() for i in range(len(dice))}
        pins["send"] = VirtualPin()
        tower = tower_class(args.device, dice, store, buttons=pins, log=log,
                            battery=args.battery, outbox=Outbox(limit=args.outbox))  # fmt: skip
        script = Script(pins=pins, device=tower)
    else:
        sensor = VirtualDiceSensor(len(dice))
        tower = tower_class(args.device, dice, store, sensor=sensor, log=log,
                            battery=args.battery, outbox=Outbox(limit=args.outbox))  # fmt: skip
        tower.detector.settle_ms = args.settle_ms
        script = Script(sensor=sensor, device=tower, settle_ms=args.settle_ms)

    def auto(rng):
        return "roll " + " ".join(str(rng.randint(1, d["sides"])) for d in tower.dice)

    return _run(tower, script, args, None if args.manual else auto)
