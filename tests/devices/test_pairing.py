"""Issue 16, finding 1: a device acts only for what the host paired it to.

A real mosquitto (open, as a user's LAN broker may be), Herald's device stack and an in-process
referee; the "attacker" is a plain MQTT client publishing under whatever device id it likes,
the honest devices are the firmware's virtual boxes, which pair with the code the table shows.
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from conftest import Broker, VirtualDevice, wait_for
from paho.mqtt.enums import CallbackAPIVersion

from bridge.devices.mqtt import device_topic
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
    referee: Referee
    stack: DeviceStack
    recorder: Recorder
    emitted: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)

    @property
    def devices(self) -> TableDevices:
        assert self.stack.devices is not None
        return self.stack.devices

    def record(self, device: str) -> Any:
        return self.devices.hub.registry.get(device)

    def handled(self, device: str) -> bool:
        """The hub has dealt with at least one event of ``device`` (taken or refused)."""
        record = self.record(device)
        return record is not None and (record.accepted + record.errors) > 0

    def notices(self, code: str) -> list[dict[str, Any]]:
        return [p for e, p, _ in self.emitted if e == "device_notice" and p["code"] == code]


def open_table(broker: Broker, tmp: Path, store: EventStore) -> Table:
    referee = Referee.open(store, get_game("middle-ages"), TABLE, SEATS, {})
    recorder = Recorder()
    referee.attach(recorder)
    stack = DeviceStack(DeviceOptions(dedup_path=tmp / "t.db.devices", mqtt=broker.url))
    t = Table(referee, stack, recorder)
    stack.start(referee, lambda td: td.connect(lambda e, p, room: t.emitted.append((e, p, room))))
    # the broker confirmed Herald's subscriptions: a message published before that is lost
    assert stack.transports[0].subscribed.wait(30)
    return t


@pytest.fixture
def table(broker: Broker, tmp_path: Path) -> Iterator[Table]:
    store = EventStore(tmp_path / "t.db")
    t = open_table(broker, tmp_path, store)
    yield t
    t.stack.stop()
    store.close()


def single_move_seat(table: Table) -> tuple[str, dict[str, Any]]:
    """Play the simulated game until a seat has exactly one legal move (confirm would play it)."""
    sim = SimTable(table.referee, SimConfig(mode="all", seed=3))
    for _ in range(400):
        for prompt in table.referee.game.prompts(table.referee.session.state):
            if prompt.seat in SEATS and len(prompt.moves) == 1:
                return prompt.seat, codec.encode(prompt.moves[0])
        assert sim.step(), "the simulated game ended first"
    raise AssertionError("no seat with one move")


class Outsider:
    """Any MQTT client on the LAN: publishes under any device id, hears any device's cmd."""

    def __init__(self, broker: Broker) -> None:
        self.heard: list[tuple[str, dict[str, Any]]] = []
        self._lock = threading.Lock()
        subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="outsider")
        self.client.on_message = self._on_message
        self.client.on_subscribe = lambda *_: subscribed.set()
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        self.client.subscribe(f"herald/{TABLE}/devices/+/cmd", qos=1)
        assert subscribed.wait(10), "no SUBACK"

    def _on_message(self, client: Any, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        with self._lock:
            self.heard.append((msg.topic.split("/")[3], json.loads(msg.payload)))

    def said_to(self, device: str) -> list[dict[str, Any]]:
        with self._lock:
            return [m for d, m in self.heard if d == device]

    def publish(self, device: str, payload: dict[str, Any], leaf: str = "event") -> None:
        info = self.client.publish(device_topic(TABLE, device, leaf), json.dumps(payload), qos=1)
        info.wait_for_publish(5)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


@pytest.fixture
def outsider(broker: Broker) -> Iterator[Outsider]:
    o = Outsider(broker)
    yield o
    o.close()


def press(device: str, seq: int, seat: str, button: str = "confirm") -> dict[str, Any]:
    return {"v": 1, "device": device, "seq": seq, "kind": "button", "seat": seat,
            "button": button, "action": "press"}  # fmt: skip


def box(devices: Callable[..., VirtualDevice], broker: Broker, tmp: Path, name: str):
    return devices("seat_box", "--mqtt", broker.url, "--table", TABLE, "--device", name,
                   "--state-dir", str(tmp / "vdev"), "--keepalive", "2")  # fmt: skip


def test_a_client_that_is_no_seats_box_cannot_act_for_the_seat(
    table: Table, outsider: Outsider
) -> None:
    """The probe: a client that is not the seat's box pressed for the seat and it was applied.
    Now an unpaired device's press is refused with a notice for the host and changes nothing,
    whatever id it takes (even the id a seat's box would have)."""
    seat, _move = single_move_seat(table)
    sid, updates = table.referee.state_id, len(table.recorder.updates)
    for seq, device in enumerate(("impostor", f"seat-{seat}"), start=1):
        outsider.publish(device, press(device, seq, seat))
        wait_for(lambda d=device: table.handled(d), what=f"the hub to handle {device}")
    assert table.referee.state_id == sid, "an unpaired device acted for a seat"
    assert len(table.recorder.updates) == updates
    assert table.referee.store.events(table.referee.row.id, sid) == []
    for device in ("impostor", f"seat-{seat}"):
        record = table.record(device)
        assert (record.accepted, record.last_error) == (0, "devices/not-paired")
        wait_for(lambda d=device: any(m["t"] == "nak" for m in outsider.said_to(d)), what="nak")
        naks = [m for m in outsider.said_to(device) if m["t"] == "nak"]
        assert naks[0]["code"] == "devices/not-paired"
    wait_for(lambda: table.notices("devices/not-paired"), what="a notice for the host")
    rooms = {room for e, p, room in table.emitted if e == "device_notice"}
    assert rooms == {"host"}  # refusals anyone can cause do not disturb the table display
    assert "not paired" in table.notices("devices/not-paired")[0]["message"]
    # issue 15, point 9: the notice carries its sentence in each language (a page shows its own)
    said = table.notices("devices/not-paired")[0]["messages"]
    assert "not paired" in said["en"] and "nie jest sparowane" in said["pl"]


def test_dice_from_a_device_not_paired_to_the_table_are_refused(
    table: Table, outsider: Outsider
) -> None:
    """The probe: a client calling itself ``evil-tower`` supplied dice that were broadcast as
    the table's roll. Now they are refused, and no roll is shown."""
    roll = {"v": 1, "device": "evil-tower", "seq": 1, "kind": "dice",
            "dice": [{"sides": 6, "value": 6}, {"sides": 6, "value": 6}]}  # fmt: skip
    outsider.publish("evil-tower", roll)
    wait_for(lambda: table.handled("evil-tower"), what="the hub to handle the dice")
    assert not [n for n in table.recorder.notices if n.event == "roll"], "the dice were shown"
    assert table.devices.panel()["rolls"] == []
    assert table.record("evil-tower").last_error == "devices/not-paired"
    # a seat box paired to a seat cannot roll for the table either
    table.devices.desk.pair("green-box", "green")
    outsider.publish("green-box", {**roll, "device": "green-box"})
    wait_for(lambda: table.handled("green-box"), what="the hub to handle the box's dice")
    assert table.record("green-box").last_error == "devices/not-table"
    assert not [n for n in table.recorder.notices if n.event == "roll"]


def test_a_paired_box_cannot_speak_for_another_seat(table: Table, outsider: Outsider) -> None:
    seat, _move = single_move_seat(table)
    other = next(s for s in SEATS if s != seat)
    table.devices.desk.pair(f"seat-{other}", other)
    sid = table.referee.state_id
    outsider.publish(f"seat-{other}", press(f"seat-{other}", 1, seat))
    wait_for(lambda: table.handled(f"seat-{other}"), what="the hub to handle the press")
    assert table.referee.state_id == sid
    record = table.record(f"seat-{other}")
    assert (record.accepted, record.last_error) == (0, "devices/wrong-seat")
    wait_for(lambda: table.notices("devices/wrong-seat"), what="the host's notice")
    text = table.notices("devices/wrong-seat")[0]["message"]
    assert f"seat:{other}" in text and seat in text


def test_a_box_pairs_with_the_seats_code_and_stays_paired_after_a_restart(
    broker: Broker, devices: Callable[..., VirtualDevice], tmp_path: Path
) -> None:
    """The pairing code shown on the table display, pressed on the box's buttons (1 confirm,
    2 pass, 3 undo), pairs it to that seat; the pairing is kept in the ``.devices`` file."""
    store = EventStore(tmp_path / "t.db")
    table = open_table(broker, tmp_path, store)
    try:
        seat, move = single_move_seat(table)
        name = f"box-{seat}"
        vbox = box(devices, broker, tmp_path, name)
        vbox.wait_line("led pairing")  # Herald told it it is not paired
        codes = table.devices.host_pairing({"open": True})["pairing"]["codes"]
        assert set(codes) == {*SEATS, "table"} and len(set(codes.values())) == len(codes)
        vbox.send(f"pair {codes[seat]}")
        vbox.wait_line(f"paired seat:{seat}")
        assert table.devices.desk.get(name) is not None
        wait_for(lambda: table.notices("devices/paired"), what="the pairing notice")
    finally:
        table.stack.stop()
    table = open_table(broker, tmp_path, store)  # Herald restarts: same .devices file
    try:
        pairing = table.devices.desk.get(name)
        assert pairing is not None and (pairing.role, pairing.seat) == ("seat", seat)
        assert table.devices.panel()["devices"][0]["paired"] == f"seat:{seat}"
        sid = table.referee.state_id
        vbox.send("press confirm")
        wait_for(lambda: table.referee.state_id == sid + 1, what="the paired box's move")
        (stored,) = table.referee.store.events(table.referee.row.id, sid)
        assert stored.payload == {"kind": "move", "move": move}
        assert stored.source.startswith(f"seat:{seat}@{name}#")
    finally:
        table.stack.stop()
        store.close()


def test_wrong_codes_change_nothing_and_close_the_window(table: Table, outsider: Outsider) -> None:
    opened = table.devices.host_pairing({"open": True})
    # the host page's toast in its own language (issue 15, point 9)
    assert "Pairing is open" in opened["messages"]["en"] == opened["message"]
    assert "Parowanie" in opened["messages"]["pl"]
    right = set(table.devices.desk.codes().values())  # type: ignore[union-attr]
    guesses = ("111111", "222222", "333333", "123123", "321321", "312312", "231231", "132132",
               "213213", "112233", "332211", "113322")  # fmt: skip
    wrong = [c for c in guesses if c not in right][:10]
    for i, code in enumerate(wrong):
        outsider.publish(f"guess-{i}", {"t": "pair", "v": 1, "device": f"guess-{i}",
                                        "code": code}, leaf="pair")  # fmt: skip
    wait_for(lambda: table.devices.desk.codes() is None, what="the window to close")
    assert all(table.devices.desk.get(f"guess-{i}") is None for i in range(len(wrong)))
    wait_for(lambda: any(m.get("code") == "devices/pairing-too-many"
                         for m in outsider.said_to(f"guess-{len(wrong) - 1}")))  # fmt: skip
    # closed now: even the right code is refused until the host opens pairing again
    outsider.publish("late", {"t": "pair", "v": 1, "device": "late", "code": sorted(right)[0]},
                     leaf="pair")  # fmt: skip
    wait_for(lambda: any(m.get("code") == "devices/pairing-closed"
                         for m in outsider.said_to("late")))  # fmt: skip
    assert table.devices.desk.get("late") is None


def test_the_host_approves_and_unpairs_a_pending_device(table: Table, outsider: Outsider) -> None:
    hello = {"t": "hello", "v": 1, "device": "tower-7", "device_kind": "dice_tower", "fw": "x",
             "proto": 1}  # fmt: skip
    outsider.publish("tower-7", hello, leaf="info")
    wait_for(lambda: table.devices.desk.is_pending("tower-7"), what="the tower listed as pending")
    pending = table.devices.panel()["pairing"]["pending"]
    assert pending == [{"device": "tower-7", "device_kind": "dice_tower", "tried_code": False}]
    bad = table.devices.host_pair({"device": "tower-7", "seat": "purple"})
    assert bad["ok"] is False and bad["code"] == "devices/bad-pair-target"
    assert table.devices.host_pair({"device": "tower-7", "seat": None})["ok"]
    wait_for(lambda: any(m["t"] == "paired" for m in outsider.said_to("tower-7")))
    assert next(m for m in outsider.said_to("tower-7") if m["t"] == "paired")["role"] == "table"
    assert table.devices.host_unpair({"device": "tower-7"})["ok"]
    assert table.devices.desk.get("tower-7") is None
    wait_for(lambda: any(m["t"] == "unpaired" for m in outsider.said_to("tower-7")))
