"""The wire contract between Herald and its table devices (dice towers, seat button boxes).

Two transports carry the same JSON payloads:

* MQTT: ``herald/<table>/devices/<device>/event`` (QoS 1), ``.../status`` (``online``/``offline``,
  retained, the offline one as the last will), ``.../info`` (retained hello), ``.../cmd``
  (Herald → device: ``led``, ``ack``, ``nak``).
* Serial: each message is one framed line ``$<json>*<CRC16 as 4 hex digits>\\n`` (sent
  upper-case, read in either case).
  The CRC is CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) over the UTF-8 JSON bytes
  between ``$`` and ``*``. A raw ``$`` never appears inside the JSON (encoders write it as
  ``\\u0024``), so every ``$`` starts a new frame: a receiver resynchronises on the next ``$``
  after line noise, and a bad frame costs only itself.

CRC-16 rather than CRC-32 because the device side must compute it in pure MicroPython on small
boards (``binascii.crc32`` is an optional MicroPython feature) and 4 hex digits per line are
plenty for lines under :data:`MAX_FRAME` bytes.

Every event carries ``device`` and ``seq``; ``(device, seq)`` identifies it, so retransmissions
are dropped by :mod:`bridge.devices.dedup`. Devices keep an event until Herald answers ``ack``
(accepted or duplicate) or ``nak`` (invalid, with the error code), which makes delivery
end-to-end: a broker restart or an unplugged cable loses nothing.

This module is pure: no I/O, no threads, no clocks. :class:`FrameDecoder` turns bytes into
messages and errors, in the style of pyserial's ``serial.threaded`` protocol objects, so the same
code runs over a real port, ``loop://``, a pty pair or a fuzzer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.i18n import message

PROTOCOL_VERSION = 1
"""Payload version (``v``) and hello ``proto`` this Herald speaks."""

MAX_FRAME = 1024
"""Longest serial frame (between ``$`` and ``\\n``) a receiver accepts, in bytes."""

MAX_PAYLOAD = 4096
"""Longest MQTT payload Herald parses, in bytes; longer ones are rejected unread."""

MAX_DICE = 32
MAX_SIDES = 1000
MAX_SEQ = 2**53 - 1  # stays exact in every JSON implementation (JavaScript included)
MAX_BOOT = 2**31 - 1
"""Largest boot epoch: a device counts its boots in flash; seqs start at 1 in every boot."""
MAX_COUNT = 2**31 - 1

PAIR_CODE = re.compile(r"^[0-9]{4,12}$")
"""A pairing code as a device sends it: the digits its buttons entered (docs/devices.md)."""

BUTTONS = ("confirm", "pass", "undo")
ROLES = ("seat", "table")
"""What a device is paired to: one seat (a seat box) or the table (a dice tower)."""
ACTIONS = ("press", "hold")
LED_PATTERNS = ("off", "your-turn", "waiting", "illegal", "pairing")
DEVICE_KINDS = ("seat_box", "dice_tower")

_DEVICE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_SHORT_TEXT = 64

ButtonName = Literal["confirm", "pass", "undo"]
ButtonAction = Literal["press", "hold"]


class ProtocolError(ValueError):
    """A message broke the wire contract.

    Attributes:
        code: Stable namespaced code (``"devices/impossible-die"``), also the message-catalog key,
            so operators, logs and device ``nak`` replies all name the same fault.
        params: The evidence quoted in the sentence (field name, value, limits).
        seq: The event's ``seq`` when it could be read, so Herald can ``nak`` it and the device
            stops retransmitting a message that will never be accepted.
        device: The device id when it could be read.
    """

    def __init__(
        self,
        code: str,
        *,
        seq: int | None = None,
        device: str | None = None,
        **params: Any,
    ) -> None:
        self.code = code
        self.params = params
        self.seq = seq
        self.device = device
        self.boot = 0  # the event's boot when readable, so a nak names the right event
        super().__init__(message(code, **params))


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Die:
    """One die of a roll: ``value`` is the face up, 1..``sides``.

    ``type`` names a custom face table (a game's own symbol dice, say) that the game's engine
    maps the value through; ``color`` tells identical dice apart. Herald never interprets either.
    """

    sides: int
    value: int
    color: str | None = None
    type: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"sides": self.sides, "value": self.value}
        if self.color is not None:
            out["color"] = self.color
        if self.type is not None:
            out["type"] = self.type
        return out


@dataclass(frozen=True)
class DiceRoll:
    """Dice that came to rest in a tower or on a smart-dice tray."""

    device: str
    seq: int
    dice: tuple[Die, ...]
    kind: Literal["dice"] = "dice"
    boot: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            **_head(self.device, self.boot, self.seq),
            "kind": self.kind,
            "dice": [d.to_json() for d in self.dice],
        }


@dataclass(frozen=True)
class ButtonPress:
    """A debounced press (or long hold) of one of a seat box's buttons."""

    device: str
    seq: int
    seat: str
    button: ButtonName
    action: ButtonAction
    kind: Literal["button"] = "button"
    boot: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            **_head(self.device, self.boot, self.seq),
            "kind": self.kind,
            "seat": self.seat,
            "button": self.button,
            "action": self.action,
        }


@dataclass(frozen=True)
class DropReport:
    """A device had to drop ``count`` events it could not deliver (its outbox was full while
    Herald was out of reach): seqs ``first``..``last`` of boot ``boot`` are gone for good, so
    the table must re-roll or confirm by hand. Delivered like any event (seq, ack, dedup)."""

    device: str
    seq: int
    count: int
    first: int | None = None
    last: int | None = None
    kind: Literal["dropped"] = "dropped"
    boot: int = 0

    def to_json(self) -> dict[str, Any]:
        out = {**_head(self.device, self.boot, self.seq), "kind": self.kind, "count": self.count}
        if self.first is not None:
            out["first"] = self.first
        if self.last is not None:
            out["last"] = self.last
        return out


def _head(device: str, boot: int, seq: int) -> dict[str, Any]:
    out: dict[str, Any] = {"v": PROTOCOL_VERSION, "device": device}
    if boot:
        out["boot"] = boot
    out["seq"] = seq
    return out


DeviceEvent = DiceRoll | ButtonPress | DropReport


# --------------------------------------------------------------------------- control messages


@dataclass(frozen=True)
class Hello:
    """A device introducing itself: sent first on serial, retained on MQTT's ``info`` topic."""

    device: str
    device_kind: str
    fw: str
    proto: int
    battery: int | None = None
    boot: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "t": "hello",
            "v": PROTOCOL_VERSION,
            "device": self.device,
            "device_kind": self.device_kind,
            "fw": self.fw,
            "proto": self.proto,
        }
        if self.battery is not None:
            out["battery"] = self.battery
        if self.boot:
            out["boot"] = self.boot
        return out


@dataclass(frozen=True)
class PairRequest:
    """A device asking to be paired with the code its user entered (docs/devices.md,
    "Pairing"): MQTT topic ``.../pair``, serial ``t: "pair"``."""

    device: str
    code: str
    device_kind: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": "pair", "v": PROTOCOL_VERSION, "device": self.device}
        out["code"] = self.code
        if self.device_kind is not None:
            out["device_kind"] = self.device_kind
        return out


@dataclass(frozen=True)
class Heartbeat:
    """A serial device saying it is alive (MQTT devices use the keepalive and last will)."""

    device: str
    battery: int | None = None


@dataclass(frozen=True)
class LedCommand:
    """Herald → device: show an LED pattern (``your-turn``, ``waiting``, ``illegal``, ``off``)."""

    pattern: str

    def __post_init__(self) -> None:
        if self.pattern not in LED_PATTERNS:
            raise ProtocolError("devices/bad-field", field="pattern", value=self.pattern)

    def to_json(self) -> dict[str, Any]:
        return {"t": "led", "v": PROTOCOL_VERSION, "pattern": self.pattern}


def ack_message(seq: int, boot: int = 0) -> dict[str, Any]:
    """Herald → device: event ``(boot, seq)`` is settled (accepted now or earlier); stop
    resending it."""
    out: dict[str, Any] = {"t": "ack", "v": PROTOCOL_VERSION, "seq": seq}
    if boot:
        out["boot"] = boot
    return out


def nak_message(seq: int, code: str, *, boot: int = 0, newest: int | None = None) -> dict[str, Any]:
    """Herald → device: event ``(boot, seq)`` will never be accepted (``code`` says why); drop
    it.

    ``newest``: with ``devices/stale-boot``, the boot Herald now holds for the device; the device
    starts a boot above it (its numbering had fallen behind a newer one)."""
    out: dict[str, Any] = {"t": "nak", "v": PROTOCOL_VERSION, "seq": seq, "code": code}
    if boot:
        out["boot"] = boot
    if newest is not None:
        out["newest"] = newest
    return out


def paired_message(role: str, seat: str | None) -> dict[str, Any]:
    """Herald → device: you are paired to ``seat`` (role ``seat``) or to the table."""
    out: dict[str, Any] = {"t": "paired", "v": PROTOCOL_VERSION, "role": role}
    if seat is not None:
        out["seat"] = seat
    return out


def unpaired_message(code: str = "devices/not-paired") -> dict[str, Any]:
    """Herald → device: you are not paired (or no longer); enter a pairing code."""
    return {"t": "unpaired", "v": PROTOCOL_VERSION, "code": code}


WHO_MESSAGE: dict[str, Any] = {"t": "who", "v": PROTOCOL_VERSION}
"""Herald → serial device after (re)opening a port: please send your hello again."""

ControlMessage = Hello | Heartbeat | PairRequest
SerialMessage = DiceRoll | ButtonPress | DropReport | Hello | Heartbeat | PairRequest


# --------------------------------------------------------------------------- validation


def _require(data: Mapping[str, Any], key: str, **ctx: Any) -> Any:
    if key not in data:
        raise ProtocolError("devices/missing-field", field=key, **ctx)
    return data[key]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: Any, field_name: str, ctx: dict[str, Any], *, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value or len(value) > _SHORT_TEXT:
        raise ProtocolError("devices/bad-field", field=field_name, value=_shown(value), **ctx)
    return value


def _shown(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _device_id(value: Any) -> str:
    if not isinstance(value, str) or not _DEVICE_ID.match(value):
        raise ProtocolError("devices/bad-device-id", value=_shown(value))
    return value


def decode_json(payload: bytes | str) -> dict[str, Any]:
    """Parse one payload into a JSON object, or raise ``devices/bad-json``/``not-object``."""
    if isinstance(payload, bytes | bytearray):
        if len(payload) > MAX_PAYLOAD:
            raise ProtocolError("devices/too-long", size=len(payload), limit=MAX_PAYLOAD)
        try:
            text = bytes(payload).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ProtocolError("devices/bad-json", detail=f"not UTF-8: {exc.reason}") from exc
    else:
        text = payload
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError("devices/bad-json", detail=str(exc)[:80]) from exc
    if not isinstance(data, dict):
        raise ProtocolError("devices/not-object", got=type(data).__name__)
    return data


def parse_event(payload: bytes | str | Mapping[str, Any]) -> DeviceEvent:
    """Validate an event payload and build its dataclass.

    Unknown extra keys are ignored so a newer device can add optional fields without breaking
    an older Herald; everything the contract names is checked strictly.

    Raises:
        ProtocolError: with a stable ``code``; ``seq``/``device`` are filled in when readable.
    """
    data = payload if isinstance(payload, Mapping) else decode_json(payload)
    seq_raw = data.get("seq")
    seq_hint = seq_raw if isinstance(seq_raw, int) and _is_int(seq_raw) else None
    if seq_hint is not None and not 1 <= seq_hint <= MAX_SEQ:
        seq_hint = None
    dev_raw = data.get("device")
    dev_hint = dev_raw if isinstance(dev_raw, str) and _DEVICE_ID.match(dev_raw) else None
    boot_raw = data.get("boot", 0)
    boot_hint = boot_raw if _is_int(boot_raw) and 0 <= boot_raw <= MAX_BOOT else 0
    try:
        return _parse_event(data)
    except ProtocolError as exc:
        exc.seq = seq_hint
        exc.device = dev_hint
        exc.boot = boot_hint
        raise


def _parse_event(data: Mapping[str, Any]) -> DeviceEvent:
    version = _require(data, "v")
    if not _is_int(version) or version != PROTOCOL_VERSION:
        raise ProtocolError(
            "devices/unsupported-version", got=_shown(version), supported=PROTOCOL_VERSION
        )
    device = _device_id(_require(data, "device"))
    seq = _require(data, "seq")
    if not _is_int(seq) or not 1 <= seq <= MAX_SEQ:
        raise ProtocolError("devices/bad-field", field="seq", value=_shown(seq))
    boot = _boot(data)
    kind = _require(data, "kind")
    ctx: dict[str, Any] = {}
    if kind == "dice":
        raw_dice = _require(data, "dice")
        if not isinstance(raw_dice, list) or not 1 <= len(raw_dice) <= MAX_DICE:
            raise ProtocolError("devices/bad-field", field="dice", value=_shown(raw_dice))
        dice = tuple(_parse_die(d) for d in raw_dice)
        return DiceRoll(device=device, seq=seq, dice=dice, boot=boot)
    if kind == "dropped":
        count = _require(data, "count")
        if not _is_int(count) or not 1 <= count <= MAX_COUNT:
            raise ProtocolError("devices/bad-field", field="count", value=_shown(count))
        ends = []
        for key in ("first", "last"):
            value = data.get(key)
            if value is not None and (not _is_int(value) or not 1 <= value <= MAX_SEQ):
                raise ProtocolError("devices/bad-field", field=key, value=_shown(value))
            ends.append(value)
        return DropReport(device, seq, count, ends[0], ends[1], boot=boot)
    if kind == "button":
        seat = _text(_require(data, "seat"), "seat", ctx)
        button = _require(data, "button")
        if button not in BUTTONS:
            raise ProtocolError("devices/bad-field", field="button", value=_shown(button))
        action = _require(data, "action")
        if action not in ACTIONS:
            raise ProtocolError("devices/bad-field", field="action", value=_shown(action))
        return ButtonPress(device, seq, seat, button, action, boot=boot)
    raise ProtocolError("devices/unknown-kind", kind=_shown(kind))


def _boot(data: Mapping[str, Any]) -> int:
    """The optional boot epoch (0 for a device that does not count its boots)."""
    boot = data.get("boot", 0)
    if not _is_int(boot) or not 0 <= boot <= MAX_BOOT:
        raise ProtocolError("devices/bad-field", field="boot", value=_shown(boot))
    return int(boot)


def _parse_die(raw: Any) -> Die:
    if not isinstance(raw, dict):
        raise ProtocolError("devices/bad-field", field="dice[]", value=_shown(raw))
    sides = _require(raw, "sides")
    if not _is_int(sides) or not 2 <= sides <= MAX_SIDES:
        raise ProtocolError("devices/bad-field", field="sides", value=_shown(sides))
    value = _require(raw, "value")
    if not _is_int(value) or not 1 <= value <= sides:
        raise ProtocolError("devices/impossible-die", value=_shown(value), sides=sides)
    ctx: dict[str, Any] = {}
    color = _text(raw.get("color"), "color", ctx, optional=True)
    die_type = _text(raw.get("type"), "type", ctx, optional=True)
    return Die(sides=sides, value=value, color=color, type=die_type)


def parse_hello(payload: bytes | str | Mapping[str, Any]) -> Hello:
    """Validate a hello (serial first frame, MQTT retained ``info``)."""
    data = payload if isinstance(payload, Mapping) else decode_json(payload)
    device = _device_id(_require(data, "device"))
    kind = _text(_require(data, "device_kind"), "device_kind", {})
    fw = _text(_require(data, "fw"), "fw", {})
    proto = _require(data, "proto")
    if not _is_int(proto):
        raise ProtocolError("devices/bad-field", field="proto", value=_shown(proto))
    if proto != PROTOCOL_VERSION:
        raise ProtocolError(
            "devices/unsupported-version", got=_shown(proto), supported=PROTOCOL_VERSION
        )
    return Hello(device, kind, fw, proto, battery=_battery(data), boot=_boot(data))


def parse_pair(payload: bytes | str | Mapping[str, Any]) -> PairRequest:
    """Validate a pairing request (MQTT ``.../pair``, serial ``t: "pair"``)."""
    data = payload if isinstance(payload, Mapping) else decode_json(payload)
    version = _require(data, "v")
    if not _is_int(version) or version != PROTOCOL_VERSION:
        raise ProtocolError(
            "devices/unsupported-version", got=_shown(version), supported=PROTOCOL_VERSION
        )
    device = _device_id(_require(data, "device"))
    code = _require(data, "code")
    if not isinstance(code, str) or not PAIR_CODE.match(code):
        raise ProtocolError("devices/bad-field", field="code", value=_shown(code))
    kind = _text(data.get("device_kind"), "device_kind", {}, optional=True)
    return PairRequest(device, code, kind)


def _battery(data: Mapping[str, Any]) -> int | None:
    battery = data.get("battery")
    if battery is None:
        return None
    if not _is_int(battery) or not 0 <= battery <= 100:
        raise ProtocolError("devices/bad-field", field="battery", value=_shown(battery))
    return int(battery)


def parse_serial_message(data: Mapping[str, Any]) -> SerialMessage:
    """Dispatch a device → Herald serial message on its ``t`` key."""
    kind = data.get("t")
    if kind == "event":
        return parse_event(data)
    if kind == "hello":
        return parse_hello(data)
    if kind == "hb":
        return Heartbeat(device=_device_id(_require(data, "device")), battery=_battery(data))
    if kind == "pair":
        return parse_pair(data)
    raise ProtocolError("devices/unknown-message", t=_shown(kind))


def to_wire_json(data: Mapping[str, Any]) -> bytes:
    """Compact JSON with ``$`` escaped, so it can travel inside a serial frame."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=True)
    return text.replace("$", "\\u0024").encode("ascii")


# --------------------------------------------------------------------------- serial framing


def _make_crc_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC_TABLE = _make_crc_table()


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor."""
    crc = 0xFFFF
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC_TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc


def encode_frame(data: Mapping[str, Any]) -> bytes:
    """One serial line: ``$<json>*<crc16 hex>\\n``."""
    body = to_wire_json(data)
    if len(body) + 6 > MAX_FRAME:
        raise ProtocolError("devices/too-long", size=len(body), limit=MAX_FRAME)
    return b"$" + body + b"*" + b"%04X" % crc16(body) + b"\n"


@dataclass(frozen=True)
class FrameError:
    """Bytes that did not form a valid frame; ``code`` is a catalog key, ``size`` in bytes."""

    code: str
    size: int
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        """The operator-facing sentence for this error."""
        return message(self.code, **{"size": self.size, "limit": MAX_FRAME, **self.params})


@dataclass
class FrameDecoder:
    """Incremental serial frame reader: feed any chunks, get JSON objects and errors out.

    Never raises on input. Noise before a ``$`` is reported once per run as ``garbage``; a frame
    that is too long, lacks its ``*``, has a wrong CRC or undecodable JSON is reported and
    skipped. Because every ``$`` restarts framing, the next good frame always gets through.
    """

    max_frame: int = MAX_FRAME
    _buf: bytearray = field(default_factory=bytearray)
    _in_frame: bool = False
    _garbage: int = 0
    _overflow: bool = False

    def feed(self, data: bytes) -> Iterator[dict[str, Any] | FrameError]:
        """Yield every complete message or error that ``data`` finishes."""
        for byte in data:
            if byte == 0x24:  # "$": a new frame starts, whatever came before
                if self._in_frame:
                    yield self._truncated()
                elif self._garbage:
                    yield self._flush_garbage()
                self._in_frame = True
                self._overflow = False
                self._buf.clear()
            elif not self._in_frame:
                if byte not in (0x0A, 0x0D):
                    self._garbage += 1
                elif self._garbage:
                    yield self._flush_garbage()
            elif byte == 0x0A:
                self._in_frame = False
                if self._overflow:
                    yield FrameError("devices/frame-too-long", len(self._buf))
                    self._overflow = False
                else:
                    yield self._finish(bytes(self._buf))
                self._buf.clear()
            elif self._overflow:
                continue
            elif len(self._buf) >= self.max_frame:
                self._overflow = True
            else:
                self._buf.append(byte)

    def flush(self) -> Iterator[FrameError]:
        """Report what is left half-read, e.g. when the port closes."""
        if self._in_frame:
            yield self._truncated()
        elif self._garbage:
            yield self._flush_garbage()

    def _truncated(self) -> FrameError:
        size = len(self._buf) + 1
        self._buf.clear()
        self._in_frame = False
        self._overflow = False
        return FrameError("devices/frame-truncated", size)

    def _flush_garbage(self) -> FrameError:
        size, self._garbage = self._garbage, 0
        return FrameError("devices/frame-garbage", size)

    @staticmethod
    def _finish(line: bytes) -> dict[str, Any] | FrameError:
        if line.endswith(b"\r"):
            line = line[:-1]
        star = line.rfind(b"*")
        if star < 0 or len(line) - star != 5:
            return FrameError("devices/frame-no-checksum", len(line) + 1)
        body, check = line[:star], line[star + 1 :]
        # senders write 4 upper-case hex digits; a receiver takes either case (a digit's case
        # carries no data: "a" and "A" are the same check, so nothing corrupt gets through)
        if any(c not in b"0123456789ABCDEFabcdef" for c in check):
            return FrameError("devices/frame-no-checksum", len(line) + 1)
        expected = int(check.decode("ascii"), 16)
        if crc16(body) != expected:
            return FrameError("devices/frame-bad-checksum", len(line) + 1)
        try:
            return decode_json(body)
        except ProtocolError as exc:
            return FrameError(exc.code, len(line) + 1, params=dict(exc.params))


def decode_frames(data: bytes) -> list[dict[str, Any] | FrameError]:
    """Decode a whole byte string at once (tests and tools); trailing partial frames count."""
    decoder = FrameDecoder()
    out = list(decoder.feed(data))
    out.extend(decoder.flush())
    return out


def iter_events(items: Iterable[dict[str, Any] | FrameError]) -> Iterator[DeviceEvent]:
    """The valid events among decoded frames (a convenience for tests and tools)."""
    for item in items:
        if isinstance(item, dict) and item.get("t") == "event":
            try:
                yield parse_event(item)
            except ProtocolError:
                continue
