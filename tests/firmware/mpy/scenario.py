# The firmware's pure logic, driven through one fixed scenario, printing a transcript.
#
# tests/firmware/test_micropython_wasm.py runs this file twice: on CPython and on real
# MicroPython (the WebAssembly port under node), and the transcripts must be equal. It covers
# what a board computes itself: serial framing and its CRC, button debounce, the outbox (resend
# backoff, bounded, drop reports), boot epochs, pairing by code, and a seat box and a dice tower
# talking to a scripted Herald over a fake serial port.
#
# Written in MicroPython's subset (no f-strings, no dataclasses, no sort_keys): MicroPython's
# dicts do not keep insertion order, so objects are printed by ``canon`` with sorted keys, and
# the raw frames a device wrote are printed on ``raw`` lines (the test checks them with Herald's
# own decoder instead of comparing bytes).

from firmware.debounce import Button
from firmware.dice_tower import DiceTower
from firmware.links import SerialLink
from firmware.outbox import SEQ_ROLL, BootCounter, Outbox
from firmware.pairing import CodeEntry, buttons_for
from firmware.seat_box import SeatBox
from firmware.wire import FrameReader, crc16, dumps, frame


def canon(obj):
    if isinstance(obj, dict):
        return "{" + ",".join(repr(k) + ":" + canon(obj[k]) for k in sorted(obj)) + "}"
    if isinstance(obj, (list, tuple)):
        return "[" + ",".join(canon(v) for v in obj) + "]"
    return repr(obj)


def say(*parts):
    print(" ".join(str(p) for p in parts))


class Store:
    """A board's flash: key -> text."""

    def __init__(self, data=None):
        self.data = dict(data or {})
        self.writes = 0

    def load(self, key):
        return self.data.get(key)

    def save(self, key, value):
        self.data[key] = value
        self.writes += 1


class Pin:
    def __init__(self):
        self.level = 1  # pulled up: 0 is pressed

    def value(self):
        return self.level


class Rgb:
    def __init__(self):
        self.color = None

    def set(self, r, g, b):
        self.color = (r, g, b)


class Port:
    """A UART: what Herald sends waits in ``incoming``; what the device writes is kept."""

    def __init__(self):
        self.incoming = b""
        self.written = []

    def read(self, n):
        data, self.incoming = self.incoming[:n], self.incoming[n:]
        return data or None

    def write(self, data):
        self.written.append(bytes(data))
        return len(data)


class Herald:
    """The host side of the cable, scripted: decodes the device's frames, answers some."""

    def __init__(self, port):
        self.port = port
        self.reader = FrameReader()
        self.seen = 0

    def heard(self):
        out = []
        for raw in self.port.written[self.seen :]:
            say("raw", raw.decode().strip())
            out.extend(self.reader.feed(raw))
        self.seen = len(self.port.written)
        for msg in out:
            say("device said", canon(msg))
        return out

    def send(self, msg):
        self.port.incoming += frame(msg)


# --- framing -------------------------------------------------------------------------------

say("crc 123456789", "%04X" % crc16(b"123456789"))
f = frame({"t": "led", "v": 1, "pattern": "your-turn", "note": "costs $5"})
say("dollar escaped", b"$" not in f[1:])
reader = FrameReader()
say("round trip", canon(reader.feed(f)))
body = dumps({"t": "who", "v": 1})
lower = b"$" + body + b"*" + ("%04x" % crc16(body)).encode() + b"\r\n"
say("lower-case crc", canon(reader.feed(lower)))
bad = bytearray(f)
bad[3] ^= 1
noise = b"\x00\xffboot noise\n$trunc" + bytes(bad) + b"$x*0x12\n" + b"$" + b"a" * 1100 + b"\n"
say("noise", canon(reader.feed(noise + f)), "errors", reader.errors)
say("split feed", canon([m for part in (f[:7], f[7:20], f[20:]) for m in reader.feed(part)]))

# --- debounce ------------------------------------------------------------------------------

b = Button("confirm")
events = []
t = 0
for level, ms in ((0, 3), (1, 2), (0, 4), (1, 3), (0, 100), (1, 5), (0, 2), (1, 200)):
    for _ in range(ms):
        e = b.update(level, t)
        if e:
            events.append((t, e))
        t += 1
say("bounce", canon(events))
events = []
for _ in range(1200):
    e = b.update(0, t)
    if e:
        events.append((t, e))
    t += 1
for _ in range(100):
    e = b.update(1, t)
    if e:
        events.append((t, e))
    t += 1
say("hold", canon(events))

# --- outbox and boots ----------------------------------------------------------------------

box = Outbox(limit=3, retry_ms=1000, max_retry_ms=4000)
for seq in range(1, 6):
    box.add(seq, {"seq": seq, "kind": "dice"})
say("outbox", len(box), "dropped", box.dropped, "lost", canon(box.lost))
say("report due", box.report_due())
times = []
for now in range(0, 20001, 250):
    for seq, _msg in box.due(now):
        times.append((now, seq))
say("resends", canon(times))
say("settle", box.settle(4), box.settle(4), len(box))
store = Store({"boot": "41"})
boots = BootCounter(store)
say("boot", boots.boot, "writes", store.writes, "bump", boots.bump(), boots.bump(100))
say("boot after garbage", BootCounter(Store({"boot": "x"})).boot, "seq roll", SEQ_ROLL)

# --- pairing by code -----------------------------------------------------------------------

entry = CodeEntry()
got = [entry.press(name) for name in buttons_for("123312123312")]
say("code entry", canon(got), "bad digit", canon(buttons_for("124")))

# --- a seat box on a cable -----------------------------------------------------------------

log = []
pins = {"confirm": Pin(), "pass": Pin(), "undo": Pin()}
rgb = Rgb()
store = Store({"boot": "6"})
box = SeatBox("seat-red", None, pins, rgb, store, log=log.append, outbox=Outbox(limit=4))
port = Port()
link = SerialLink(box, port, hb_ms=3000)
herald = Herald(port)
now = 0


def step(ms=10):
    global now
    for _ in range(ms // 5):
        box.poll(now)
        link.poll(now)
        now += 5


def click(name):
    pins[name].level = 0
    step(80)
    pins[name].level = 1
    step(60)


step()
hello = herald.heard()
say("wants code", box.wants_code(), "led", canon(rgb.color))
herald.send({"t": "unpaired", "v": 1})
step()
for name in buttons_for("213312213312"):
    click(name)
herald.heard()
herald.send({"t": "nak", "v": 1, "seq": 0, "code": "devices/bad-pair-code"})
herald.send({"t": "paired", "v": 1, "role": "seat", "seat": "red"})
step()
say("paired", box.pairing, "stored", store.data.get("pair"), "wants code", box.wants_code())
herald.send({"t": "led", "v": 1, "pattern": "your-turn"})
step()
say("led", canon(rgb.color))
click("confirm")
pins["undo"].level = 0
step(900)
pins["undo"].level = 1
step(50)
sent = [m for m in herald.heard() if m.get("t") == "event"]
for msg in sent:
    herald.send({"t": "ack", "v": 1, "seq": msg["seq"], "boot": msg["boot"]})
step()
say("after acks", len(box.outbox), "acked high", box.acked_high)
herald.send({"t": "nak", "v": 1, "seq": 99, "boot": 2, "code": "devices/stale-boot", "newest": 9})
step()
say("stale boot: now boot", box.boot, "seq", box.seq)
herald.send({"t": "unpaired", "v": 1, "code": "devices/unpaired-by-host"})
step()
say("unpaired", box.pairing, "wants code", box.wants_code())
say("log", canon(log))

# --- a dice tower that lost rolls while Herald was away ------------------------------------

store = Store()
tower = DiceTower("tower-1", [{"sides": 6, "color": "red", "type": "strength"}, {"sides": 6}],
                  store, outbox=Outbox(limit=2))  # fmt: skip
for values in ((1, 2), (3, 4), (5, 6), (6, 6)):
    tower.roll(values)
say("tower outbox", canon([m[0] for m in tower.outbox.items]), "lost", canon(tower.outbox.lost))
port = Port()
link = SerialLink(tower, port)
herald = Herald(port)
say("pump while away", tower.pump())
link.poll(0)
herald.send({"t": "ack", "v": 1, "seq": 3, "boot": 1})
herald.send({"t": "ack", "v": 1, "seq": 4, "boot": 1})
link.poll(10)
link.poll(20)
for msg in herald.heard():
    if msg.get("kind") == "dropped":
        say("drop report", msg["count"], msg["first"], msg["last"], "seq", msg["seq"])
say("done")
