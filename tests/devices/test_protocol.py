"""The wire contract: validation codes, round trips, framing, and agreement with the firmware."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bridge.devices import protocol as p
from engine.i18n import catalog
from firmware import wire

DIE = {"sides": 6, "value": 4}


def event(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"v": 1, "device": "tower-1", "seq": 7, "kind": "dice", "dice": [DIE]}
    base.update(over)
    return {k: v for k, v in base.items() if v is not ...}


def test_valid_events_parse_and_round_trip() -> None:
    roll = p.parse_event(json.dumps(event(dice=[DIE, {**DIE, "color": "red", "type": "glory"}])))
    assert roll == p.DiceRoll("tower-1", 7, (p.Die(6, 4), p.Die(6, 4, "red", "glory")))
    assert p.parse_event(roll.to_json()) == roll
    press = p.ButtonPress("seat-red", 1, "red", "undo", "hold")
    assert p.parse_event(json.dumps(press.to_json()).encode()) == press
    assert p.parse_event({**press.to_json(), "extra": "ignored"}) == press


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        (b"{", "devices/bad-json"),
        (b"\xc3\x28", "devices/bad-json"),
        (b"[]", "devices/not-object"),
        (b"x" * (p.MAX_PAYLOAD + 1), "devices/too-long"),
        (event(v=...), "devices/missing-field"),
        (event(v=2), "devices/unsupported-version"),
        (event(v=True), "devices/unsupported-version"),
        (event(device=...), "devices/missing-field"),
        (event(device="a/b"), "devices/bad-device-id"),
        (event(device=""), "devices/bad-device-id"),
        (event(seq=0), "devices/bad-field"),
        (event(seq=True), "devices/bad-field"),
        (event(seq="7"), "devices/bad-field"),
        (event(seq=2**53), "devices/bad-field"),
        (event(kind="coin"), "devices/unknown-kind"),
        (event(kind=...), "devices/missing-field"),
        (event(dice=...), "devices/missing-field"),
        (event(dice=[]), "devices/bad-field"),
        (event(dice=[DIE] * 33), "devices/bad-field"),
        (event(dice=[7]), "devices/bad-field"),
        (event(dice=[{"sides": 6, "value": 7}]), "devices/impossible-die"),
        (event(dice=[{"sides": 6, "value": 0}]), "devices/impossible-die"),
        (event(dice=[{"sides": 6, "value": 3.0}]), "devices/impossible-die"),
        (event(dice=[{"sides": 1, "value": 1}]), "devices/bad-field"),
        (event(dice=[{"sides": 6}]), "devices/missing-field"),
        (event(dice=[{**DIE, "color": 3}]), "devices/bad-field"),
        (event(kind="button", dice=..., seat="red", button="confirm"), "devices/missing-field"),
        (
            event(kind="button", dice=..., seat="red", button="reset", action="press"),
            "devices/bad-field",
        ),
        (
            event(kind="button", dice=..., seat="red", button="pass", action="tap"),
            "devices/bad-field",
        ),
        (
            event(kind="button", dice=..., seat="", button="pass", action="press"),
            "devices/bad-field",
        ),
    ],
)
def test_invalid_events_name_their_fault(payload: Any, code: str) -> None:
    with pytest.raises(p.ProtocolError) as info:
        p.parse_event(payload)
    assert info.value.code == code
    assert str(info.value)  # a real sentence from the catalog, not a bare code
    assert code in catalog()


def test_errors_carry_seq_and_device_when_readable() -> None:
    with pytest.raises(p.ProtocolError) as info:
        p.parse_event(event(dice=[{"sides": 6, "value": 9}]))
    assert (info.value.seq, info.value.device) == (7, "tower-1")
    with pytest.raises(p.ProtocolError) as info:
        p.parse_event(event(seq=-1, device="bad id"))
    assert (info.value.seq, info.value.device) == (None, None)


def test_hello_and_led() -> None:
    hello = p.Hello("seat-red", "seat_box", "0.1.0", 1, battery=80)
    assert p.parse_hello(hello.to_json()) == hello
    with pytest.raises(p.ProtocolError, match="version 2"):
        p.parse_hello({**hello.to_json(), "proto": 2})
    with pytest.raises(p.ProtocolError):
        p.parse_hello({**hello.to_json(), "battery": 101})
    with pytest.raises(p.ProtocolError):
        p.LedCommand("disco")


def test_crc_is_ccitt_false() -> None:
    assert p.crc16(b"123456789") == 0x29B1  # the standard check value
    assert wire.crc16(b"123456789") == 0x29B1


def test_dollar_signs_inside_strings_cannot_break_framing() -> None:
    frame = p.encode_frame({"t": "hello", "note": "$5 $\n"})
    assert frame.count(b"$") == 1 and frame.count(b"\n") == 1
    assert p.decode_frames(frame) == [{"t": "hello", "note": "$5 $\n"}]


def test_frame_errors_are_reported_with_codes() -> None:
    good = p.encode_frame({"t": "hb", "device": "d"})
    long = b"$" + b"a" * (p.MAX_FRAME + 10) + b"*0000\n"
    items = p.decode_frames(b"noise\n" + good[:-6] + b"*ZZZZ\n" + long + b"$x*0000\n$open")
    codes = [i.code for i in items if isinstance(i, p.FrameError)]
    assert codes == [
        "devices/frame-garbage",
        "devices/frame-no-checksum",
        "devices/frame-too-long",
        "devices/frame-bad-checksum",
        "devices/frame-truncated",
    ]
    for item in items:
        assert isinstance(item, p.FrameError) and item.text()


short_text = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | short_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(short_text, inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=200, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.dictionaries(short_text, json_values, max_size=4))
def test_bridge_and_firmware_frames_agree(obj: dict[str, Any]) -> None:
    """What the firmware frames, Herald decodes, and the other way round."""
    assume(len(p.to_wire_json(obj)) <= p.MAX_FRAME - 100)  # escapes make JSON longer
    ours = p.encode_frame(obj)
    theirs = wire.frame(obj)
    assert p.decode_frames(theirs) == [obj]
    assert wire.FrameReader().feed(ours) == [obj]


@given(st.binary(max_size=500))
def test_firmware_reader_never_raises(data: bytes) -> None:
    reader = wire.FrameReader()
    reader.feed(data)
    reader.feed(wire.frame({"ok": 1}))  # and still reads the next good frame
    assert reader.feed(wire.frame({"ok": 2})) == [{"ok": 2}]
