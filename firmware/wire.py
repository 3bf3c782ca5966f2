"""The device side of Herald's wire contract (see docs/devices.md), in MicroPython's subset.

Serial frames are ``$<json>*<CRC-16/CCITT-FALSE of the JSON as 4 hex digits>\\n`` (written
upper-case, read in either case); a raw ``$`` never appears inside the JSON, so every ``$``
starts a frame and noise costs only itself. The CRC is computed bit by bit: slower than a table
but 512 bytes of RAM cheaper, and a table device sends a few frames a second at most.

Herald's own copy lives in ``bridge/devices/protocol.py``; tests check that both agree byte
for byte (firmware must not import bridge/ at run time).
"""

import json

PROTO = 1
FW_VERSION = "0.1.0"
MAX_FRAME = 1024
HEX_DIGITS = b"0123456789ABCDEFabcdef"

BUTTONS = ("confirm", "pass", "undo")
LED_PATTERNS = ("off", "your-turn", "waiting", "illegal", "pairing")


def crc16(data):
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def dumps(obj):
    """JSON bytes with ``$`` escaped (it may only occur inside strings)."""
    return json.dumps(obj).replace("$", "\\u0024").encode()


def frame(obj):
    body = dumps(obj)
    return b"$" + body + b"*" + ("%04X" % crc16(body)).encode() + b"\n"


def topic(table, device, leaf):
    return "herald/" + table + "/devices/" + device + "/" + leaf


class FrameReader:
    """Incremental frame decoder: ``feed(bytes)`` returns the JSON objects completed.

    Bad frames are counted in ``errors`` and skipped; they never raise.
    """

    def __init__(self, max_frame=MAX_FRAME):
        self.max_frame = max_frame
        self.buf = bytearray()
        self.in_frame = False
        self.overflow = False
        self.errors = 0

    def feed(self, data):
        out = []
        for byte in data:
            if byte == 0x24:
                if self.in_frame:
                    self.errors += 1
                self.in_frame = True
                self.overflow = False
                self.buf = bytearray()
            elif not self.in_frame:
                continue
            elif byte == 0x0A:
                self.in_frame = False
                msg = None if self.overflow else self._finish(bytes(self.buf))
                if msg is None:
                    self.errors += 1
                else:
                    out.append(msg)
                self.buf = bytearray()
            elif self.overflow:
                continue
            elif len(self.buf) >= self.max_frame:
                self.overflow = True
            else:
                self.buf.append(byte)
        return out

    def _finish(self, line):
        if line.endswith(b"\r"):
            line = line[:-1]
        star = line.rfind(b"*")
        if star < 0 or len(line) - star != 5:
            return None
        body = line[:star]
        check = line[star + 1 :]
        for c in check:  # 4 hex digits, either case (int() would also take " 1a" or "0x1A")
            if c not in HEX_DIGITS:
                return None
        try:
            if int(check, 16) != crc16(body):
                return None
            msg = json.loads(body)
        except ValueError:
            return None
        return msg if isinstance(msg, dict) else None
