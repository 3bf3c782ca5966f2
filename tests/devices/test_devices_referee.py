"""Devices meet the referee: a real mosquitto, Herald's device stack, firmware virtual devices.

The referee runs in-process (so the tests can look at its store and state); the devices are
the firmware's host-hal processes talking MQTT to a broker the test starts on a free port.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from conftest import Broker, VirtualDevice, wait_for
from paho.mqtt.enums import CallbackAPIVersion

from bridge.devices.dedup import DedupStore
from bridge.devices.mqtt import device_topic
from bridge.devices.protocol import ButtonPress
from bridge.devices.stack import DeviceOptions, DeviceStack
from bridge.devices.table import TableDevices
from bridge.referee import Referee
from bridge.simtable import SimConfig, SimTable
from bridge.store import EventStore
from engine import codec, get_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from srv_support import Recorder

TABLE = "t1"
SEATS = ("blue", "green", "pink")


@dataclass
class Table:
    """An in-process referee with the device stack on the test's broker."""

    referee: Referee
    stack: DeviceStack
    recorder: Recorder
    emitted: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)

    @property
    def devices(self) -> TableDevices:
        assert self.stack.devices is not None
        return self.stack.devices

    def online(self, device: str) -> bool:
        record = self.devices.hub.registry.get(device)
        return record is not None and record.online

    def seat_with_moves(self, count: int | None) -> tuple[str, list[dict[str, Any]]] | None:
        """A seat the game waits for with exactly ``count`` moves (None: any number ≥ 2)."""
        for prompt in self.referee.game.prompts(self.referee.session.state):
            n = len(prompt.moves)
            if prompt.seat in SEATS and (n == count if count is not None else n >= 2):
                return prompt.seat, [codec.encode(m) for m in prompt.moves]
        return None


def served(broker: Broker, tmp_path: Path, *, auto_pass: bool = True) -> Iterator[Table]:
    store = EventStore(tmp_path / "t.db")
    referee = Referee.open(store, get_game("middle-ages"), TABLE, SEATS, {}, auto_pass=auto_pass)
    recorder = Recorder()
    referee.attach(recorder)
    stack = DeviceStack(DeviceOptions(dedup_path=tmp_path / "dedup.db", mqtt=broker.url))
    t = Table(referee, stack, recorder)
    stack.start(referee, lambda td: td.connect(lambda e, p, room: t.emitted.append((e, p, room))))
    # the broker confirmed Herald's subscriptions: a message published before that is lost
    assert stack.transports[0].subscribed.wait(30)
    yield t
    stack.stop()
    store.close()


@pytest.fixture
def table(broker: Broker, tmp_path: Path) -> Iterator[Table]:
    yield from served(broker, tmp_path)


@pytest.fixture
def manual_table(broker: Broker, tmp_path: Path) -> Iterator[Table]:
    """Auto-pass off (``herald serve --no-auto-pass``): a seat's only move waits for its Confirm,
    where the default table plays it by itself (bridge/autopass.py)."""
    yield from served(broker, tmp_path, auto_pass=False)


def seat_box(
    devices: Callable[..., VirtualDevice], broker: Broker, tmp: Path, seat: str, table: Table
) -> VirtualDevice:
    """A virtual seat box the host paired to ``seat`` (approved on the host page)."""
    box = devices(
        "seat_box", "--mqtt", broker.url, "--table", TABLE, "--device", f"seat-{seat}",
        "--state-dir", str(tmp / "vdev"), "--keepalive", "2",
    )  # fmt: skip
    box.wait_line("connected")
    wait_for(lambda: table.devices.desk.is_pending(f"seat-{seat}"), what="the box is pending")
    assert table.devices.host_pair({"device": f"seat-{seat}", "seat": seat})["ok"]
    box.wait_line(f"paired seat:{seat}")
    return box


def play_until(table: Table, found: Callable[[], object], limit: int = 400) -> None:
    sim = SimTable(table.referee, SimConfig(mode="all", seed=3))
    for _ in range(limit):
        if found():
            return
        assert sim.step(), "the simulated game ended first"
    raise AssertionError("no such position within the limit")


def test_dice_tower_roll_is_broadcast_with_a_no_step_prompt(table, broker, devices, tmp_path):
    tower = devices(
        "dice_tower", "--mqtt", broker.url, "--table", TABLE, "--device", "tower-1",
        "--dice", "6:red,20", "--state-dir", str(tmp_path / "vdev"), "--settle-ms", "100",
    )  # fmt: skip
    tower.wait_line("connected")
    wait_for(lambda: table.devices.desk.is_pending("tower-1"), what="the tower is pending")
    table.devices.host_pair({"device": "tower-1", "seat": None})
    tower.wait_line("paired table")
    sid = table.referee.state_id
    tower.send("roll 3 17")
    wait_for(lambda: any(n.event == "roll" for n in table.recorder.notices), what="roll notice")
    notice = next(n for n in table.recorder.notices if n.event == "roll")
    assert notice.seat is None  # the table room
    payload = notice.payload
    assert (payload["device"], payload["seq"], payload["values"]) == ("tower-1", 1, [3, 17])
    assert payload["dice"] == [{"sides": 6, "value": 3, "color": "red"}, {"sides": 20, "value": 17}]
    assert payload["used"] is False and "no game step needs this roll" in payload["text"]
    assert table.referee.state_id == sid  # Middle Ages has no dice: nothing changed
    tower.wait_line("acked 1")
    panel = table.devices.panel()
    assert panel["rolls"][0]["seq"] == 1
    wait_for(lambda: any(e == "devices_delta" for e, _, _ in table.emitted), what="panel push")


def test_confirm_button_makes_the_seats_only_move(manual_table: Table, broker, devices, tmp_path):
    table = manual_table  # with auto-pass on, the seat's only move would make itself
    play_until(table, lambda: table.seat_with_moves(1))
    found = table.seat_with_moves(1)
    assert found is not None
    seat, (move,) = found
    box = seat_box(devices, broker, tmp_path, seat, table)
    wait_for(lambda: table.online(f"seat-{seat}"), what="seat box online")
    box.wait_line("led your-turn")  # the game waits for this seat: its box says so
    sid = table.referee.state_id
    box.send("press confirm")
    wait_for(lambda: table.referee.state_id == sid + 1, what="the seat's move")
    stored = table.referee.store.events(table.referee.row.id, sid)
    assert [(e.source, e.payload) for e in stored] == [
        (f"seat:{seat}@seat-{seat}#1.1", {"kind": "move", "move": move})
    ]
    box.wait_line("acked 1")


def test_illegal_presses_light_illegal_and_change_nothing(table: Table, broker, devices, tmp_path):
    play_until(table, lambda: table.seat_with_moves(None))
    found = table.seat_with_moves(None)
    assert found is not None
    to_act = found[0]
    idle = next(s for s in SEATS if s not in table.referee.game.to_act(table.referee.session.state))
    sid, updates = table.referee.state_id, len(table.recorder.updates)

    idle_box = seat_box(devices, broker, tmp_path, idle, table)
    idle_box.send("press confirm")  # not this seat's turn
    idle_box.wait_line("led illegal")
    act_box = seat_box(devices, broker, tmp_path, to_act, table)
    act_box.send("press confirm", "press pass")  # several moves: the phone must choose
    wait_for(lambda: act_box.lines.count("acked 2") == 1, what="both presses acked")
    act_box.wait_line("led illegal")

    wait_for(lambda: len([e for e, *_ in table.emitted if e in ("error", "violation")]) >= 3)
    codes = [p["code"] for e, p, room in table.emitted if e in ("error", "violation")]
    assert codes[:3] == ["devices/confirm-nothing", "devices/confirm-ambiguous",
                         "devices/pass-not-allowed"]  # fmt: skip
    rooms = [room for e, _, room in table.emitted if e == "error"]
    assert rooms[:3] == [f"seat:{idle}", f"seat:{to_act}", f"seat:{to_act}"]
    assert table.referee.state_id == sid
    assert len(table.recorder.updates) == updates


def test_malformed_payloads_change_nothing(table: Table, broker: Broker) -> None:
    sid = table.referee.state_id
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="junk")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        topic = device_topic(TABLE, "seat-blue", "event")
        events: list[dict[str, Any]] = [
            {"v": 1, "device": "seat-blue", "seq": 1, "kind": "smoke"},
            {"v": 1, "device": "seat-blue", "seq": 2, "kind": "dice",
             "dice": [{"sides": 6, "value": 7}]},
            {"v": 1, "device": "seat-blue", "seq": 3, "kind": "button", "seat": "blue",
             "button": "explode", "action": "press"},
            {"v": 1, "device": "other", "seq": 4, "kind": "button", "seat": "blue",
             "button": "confirm", "action": "press"},
        ]  # fmt: skip
        bad = [b"{not json", b"[1, 2]", *(json.dumps(e).encode() for e in events)]
        for payload in bad:
            client.publish(topic, payload, qos=1).wait_for_publish(5)
    finally:
        client.loop_stop()
        client.disconnect()

    def errors() -> int:
        record = table.devices.hub.registry.get("seat-blue")
        return record.errors if record else 0

    wait_for(lambda: errors() == len(bad), what=lambda: f"{errors()} errors counted")
    assert table.referee.state_id == sid
    assert table.recorder.notices == [] and table.recorder.updates == []
    assert table.devices.panel()["rolls"] == []


def test_reconcile_marks_device_events_the_store_committed(tmp_path: Path) -> None:
    """A crash after the referee's commit and before the dedup mark cannot apply a press twice."""
    store = EventStore(tmp_path / "t.db")
    # auto-pass off: the seat's only move waits for the device's Confirm (else it makes itself)
    referee = Referee.open(store, get_game("middle-ages"), TABLE, SEATS, {}, auto_pass=False)
    play = SimTable(referee, SimConfig(mode="all", seed=3))
    while not Table(referee, DeviceStack(DeviceOptions(tmp_path)), Recorder()).seat_with_moves(1):
        assert play.step()
    seat = next(p.seat for p in referee.game.prompts(referee.session.state) if len(p.moves) == 1)
    with DedupStore(tmp_path / "first.db") as first:
        devices = TableDevices(referee, first)
        devices.desk.pair(f"seat-{seat}", seat)
        result = devices.hub.ingest_event(
            ButtonPress(f"seat-{seat}", 7, seat, "confirm", "press").to_json(),
            _Outlet(),
            topic_device=None,
        )
        assert result.status == "accepted"
    # The dedup file is lost (the crash window): a fresh one is reconciled from the store.
    with DedupStore(tmp_path / "second.db") as second:
        devices = TableDevices(referee, second)
        devices.desk.pair(f"seat-{seat}", seat)
        assert devices.reconcile() == 1
        sid = referee.state_id
        again = devices.hub.ingest_event(
            ButtonPress(f"seat-{seat}", 7, seat, "confirm", "press").to_json(),
            _Outlet(),
            topic_device=None,
        )
        assert again.status == "duplicate" and referee.state_id == sid
    store.close()


class _Outlet:
    name = "test://outlet"

    def send(self, device: str, msg: Any, *, retain: bool = False) -> bool:
        return True
