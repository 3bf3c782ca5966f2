"""Issue 16, finding 1 (the broker half): the private mosquitto Herald starts requires
credentials, and its ACL lets a device publish only under its own topic.

Real mosquitto processes started here (bridge.devices.local.LocalBroker, the one ``herald serve``
starts), Herald's real MQTT transport and paho clients playing devices and intruders.
"""

from __future__ import annotations

import json
import stat
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from conftest import find_mosquitto, wait_for
from paho.mqtt.enums import CallbackAPIVersion

from bridge.devices import broker_auth
from bridge.devices.broker_auth import BrokerAuth, acl_text, mosquitto_hash
from bridge.devices.dedup import DedupStore
from bridge.devices.hub import DeviceHub
from bridge.devices.local import LocalBroker
from bridge.devices.mqtt import MqttTransport, device_topic, new_client_id
from bridge.devices.protocol import DeviceEvent

TABLE = "t1"

pytestmark = pytest.mark.skipif(
    find_mosquitto() is None, reason="mosquitto not installed (scripts/system-deps.sh)"
)


class Client:
    """A paho client that records its CONNACK and what it hears."""

    def __init__(
        self,
        port: int,
        user: str | None = None,
        password: str | None = None,
        client_id: str = "",
    ) -> None:
        self.result: Any = None
        self.answered = threading.Event()
        self.subscribed = threading.Event()
        self.heard: list[tuple[str, bytes]] = []
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
        if user is not None:
            self.client.username_pw_set(user, password)
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = lambda *_: self.subscribed.set()
        self.client.on_message = lambda c, u, m: self.heard.append((m.topic, bytes(m.payload)))
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert self.answered.wait(10), "no CONNACK"

    def _on_connect(self, client: Any, userdata: Any, flags: Any, code: Any, props: Any) -> None:
        self.result = code
        self.answered.set()

    @property
    def accepted(self) -> bool:
        return not self.result.is_failure

    def publish(self, topic: str, payload: dict[str, Any]) -> None:
        self.client.publish(topic, json.dumps(payload), qos=1).wait_for_publish(5)

    def subscribe(self, topic: str) -> None:
        self.subscribed.clear()
        self.client.subscribe(topic, qos=1)
        assert self.subscribed.wait(10)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


@pytest.fixture
def secured() -> Iterator[LocalBroker]:
    auth = BrokerAuth.generate(TABLE, ["seat-blue", "seat-green"])
    broker = LocalBroker.start_new(auth=auth)
    yield broker
    broker.stop()


def roll(device: str, seq: int) -> dict[str, Any]:
    return {"v": 1, "device": device, "seq": seq, "kind": "dice",
            "dice": [{"sides": 6, "value": 3}]}  # fmt: skip


def test_anonymous_and_wrong_passwords_are_refused(secured: LocalBroker) -> None:
    assert secured.auth is not None
    for user, password in ((None, None), ("seat-blue", "guess"), ("herald", "guess")):
        client = Client(secured.port, user, password)
        try:
            assert not client.accepted, f"{user!r} got in without its password"
        finally:
            client.close()
    good = Client(secured.port, "seat-blue", secured.auth.devices["seat-blue"])
    try:
        assert good.accepted
    finally:
        good.close()


def test_a_device_publishes_only_under_its_own_topic_and_reads_only_its_own_commands(
    secured: LocalBroker, tmp_path: Path
) -> None:
    assert secured.auth is not None
    events: list[DeviceEvent] = []
    dedup = DedupStore(tmp_path / "d.db")
    hub = DeviceHub(dedup, events.append)
    herald = MqttTransport(hub, secured.herald_url, TABLE)
    herald.start()
    green = Client(secured.port, "seat-green", secured.auth.devices["seat-green"])
    try:
        wait_for(herald.subscribed.is_set, what="Herald to log in and subscribe")
        # green speaks as blue (refused by the ACL), then as itself
        green.publish(device_topic(TABLE, "seat-blue", "event"), roll("seat-blue", 1))
        green.publish(device_topic(TABLE, "seat-green", "event"), roll("seat-green", 1))
        wait_for(lambda: any(e.device == "seat-green" for e in events), what="green's own event")
        assert [e.device for e in events] == ["seat-green"], "green published as blue"
        # green listens to blue's commands: the ACL gives it nothing
        green.subscribe(device_topic(TABLE, "+", "cmd"))
        herald.send("seat-blue", {"t": "led", "v": 1, "pattern": "your-turn"})
        herald.send("seat-green", {"t": "led", "v": 1, "pattern": "waiting"})
        wait_for(lambda: green.heard, what="green's own command")
        # (QoS 1 may repeat a message: what counts is whose commands arrive)
        assert {t for t, _ in green.heard} == {device_topic(TABLE, "seat-green", "cmd")}
    finally:
        green.close()
        herald.stop()
        dedup.close()


def test_a_device_taking_heralds_client_id_cannot_knock_herald_off(
    secured: LocalBroker, tmp_path: Path
) -> None:
    """Issue 26, finding 3: a seat box's credentials with Herald's client id disconnected Herald
    5 times of 5 (a broker drops the older of two connections with one id). Now the private
    broker makes every client's id its user name, and Herald's id has a random part anyway."""
    assert secured.auth is not None
    events: list[DeviceEvent] = []
    dedup = DedupStore(tmp_path / "d.db")
    herald = MqttTransport(DeviceHub(dedup, events.append), secured.herald_url, TABLE)
    assert herald._client._client_id.decode().startswith(f"herald-{TABLE}-")
    assert herald._client._client_id.decode() != new_client_id(TABLE)  # random each time
    herald.start()
    intruders = []
    try:
        wait_for(herald.subscribed.is_set, what="Herald to log in and subscribe")
        taken = (herald._client._client_id.decode(), f"herald-{TABLE}", "herald")
        for seq, client_id in enumerate(taken * 2, start=1):
            intruder = Client(secured.port, "seat-blue", secured.auth.devices["seat-blue"],
                              client_id=client_id)  # fmt: skip
            intruders.append(intruder)
            assert intruder.accepted
            # a round trip through the broker: Herald hears the box's event on its connection
            intruder.publish(device_topic(TABLE, "seat-blue", "event"), roll("seat-blue", seq))
            wait_for(lambda s=seq: any(e.seq == s for e in events), what=f"event {seq}")
        assert (herald.drops, herald.connections) == (0, 1), "Herald was knocked off its broker"
        assert herald.connected.is_set()
    finally:
        for intruder in intruders:
            intruder.close()
        herald.stop()
        dedup.close()


def test_the_secrets_are_files_only_their_owner_reads(secured: LocalBroker) -> None:
    assert secured.auth is not None
    creds = secured.credentials_file("seat-blue")
    files = [secured.workdir / "passwd", secured.workdir / "acl", creds]
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert stat.S_IMODE(secured.workdir.stat().st_mode) == 0o700
    passwd = (secured.workdir / "passwd").read_text()
    for password in secured.auth.users().values():
        assert password not in passwd  # hashed, never in clear
    assert json.loads(creds.read_text()) == {
        "user": "seat-blue",
        "password": secured.auth.devices["seat-blue"],
    }
    assert "pattern write herald/t1/devices/%u/event" in acl_text(TABLE)


def test_hashes_written_without_mosquitto_passwd_are_accepted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without Debian's ``mosquitto_passwd`` Herald writes mosquitto's ``$7$`` hashes itself."""
    monkeypatch.setattr(broker_auth, "find_mosquitto_passwd", lambda: None)
    auth = BrokerAuth.generate(TABLE, ["tower-1"])
    broker = LocalBroker.start_new(auth=auth)
    try:
        assert (broker.workdir / "passwd").read_text().count("$7$101$") == 2
        good = Client(broker.port, "tower-1", auth.devices["tower-1"])
        bad = Client(broker.port, "tower-1", "nope")
        try:
            assert good.accepted and not bad.accepted
        finally:
            good.close()
            bad.close()
    finally:
        broker.stop()
    assert mosquitto_hash("pw", b"0123456789ab").startswith("$7$101$MDEyMzQ1Njc4OWFi$")


def test_the_private_broker_never_takes_the_port_the_web_server_will_bind() -> None:
    """``herald serve`` starts its private mosquitto before the web server binds its port, so
    that port still looks free; a parallel test run once saw the kernel hand it to mosquitto
    (the server then never answered). The port is asked for again until it is not avoided.
    The kernel's choice is replaced by a fixed sequence here: no real socket can be made to
    repeat a port on demand."""
    from bridge.devices import local

    handed = iter([8123, 8123, 40001])
    assert local.free_port(avoid=(8123,), pick=lambda: next(handed)) == 40001
