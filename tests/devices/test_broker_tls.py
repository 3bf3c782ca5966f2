"""Issue 16, finding 1: ``--mqtt`` on a broker of your own, as docs/devices.md ("Securing the
broker") says to set it up: no anonymous clients, a user per device, the ACL, and TLS.

A real mosquitto with a TLS listener, a certificate made here by Debian's ``openssl`` for a CA
made here, Herald's real MQTT transport given an ``mqtts://…?ca=`` URL, and a paho client
playing a seat box with its own credentials over TLS.
"""

from __future__ import annotations

import json
import shutil
import ssl
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from conftest import VirtualDevice, find_mosquitto, free_port, wait_for
from paho.mqtt.enums import CallbackAPIVersion

from bridge.devices.broker_auth import HERALD_USER, BrokerAuth
from bridge.devices.dedup import DedupStore
from bridge.devices.hub import DeviceHub
from bridge.devices.local import LocalBroker
from bridge.devices.mqtt import BrokerUrl, MqttTransport, device_topic
from bridge.devices.protocol import DeviceEvent

TABLE = "t1"
OPENSSL = shutil.which("openssl")

pytestmark = pytest.mark.skipif(
    find_mosquitto() is None or OPENSSL is None,
    reason="mosquitto or openssl not installed (scripts/system-deps.sh installs them as root)",
)


def openssl(*args: str, cwd: Path) -> None:
    assert OPENSSL is not None
    subprocess.run([OPENSSL, *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def make_certificates(folder: Path) -> None:
    """A CA, and a broker certificate it signed for ``localhost`` and 127.0.0.1."""
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
            "/CN=Herald test CA", "-keyout", "ca.key", "-out", "ca.crt", cwd=folder)  # fmt: skip
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
            "-keyout", "broker.key", "-out", "broker.csr", cwd=folder)  # fmt: skip
    (folder / "san.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "broker.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
            "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "broker.crt",
            cwd=folder)  # fmt: skip


class TlsBroker(LocalBroker):
    """The documented configuration of a user's broker, on a free loopback port."""

    def _config(self) -> str:
        assert self.auth is not None
        make_certificates(self.workdir)
        passwd, acl = self.auth.write(self.workdir)
        return "\n".join([
            "per_listener_settings false",
            "allow_anonymous false",
            f"password_file {passwd}",
            f"acl_file {acl}",
            f"listener {self.port} 127.0.0.1",
            f"certfile {self.workdir / 'broker.crt'}",
            f"keyfile {self.workdir / 'broker.key'}",
            "persistence false",
            "log_dest stderr",
        ]) + "\n"  # fmt: skip


@pytest.fixture(scope="module")
def broker() -> Iterator[TlsBroker]:
    exe = find_mosquitto()
    assert exe is not None
    auth = BrokerAuth.generate(TABLE, ["seat-red"])
    tls = TlsBroker(exe, free_port(), auth)
    tls._start(10)
    yield tls
    tls.stop()


def mqtts(broker: TlsBroker, query: str) -> str:
    assert broker.auth is not None
    password = broker.auth.herald_password
    return f"mqtts://{HERALD_USER}:{password}@localhost:{broker.port}{query}"


class Box:
    """A seat box over TLS with its own credentials (what a board's config.json holds)."""

    def __init__(self, broker: TlsBroker) -> None:
        assert broker.auth is not None
        self.result: list[Any] = []
        self.answered = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        self.client.username_pw_set("seat-red", broker.auth.devices["seat-red"])
        self.client.tls_set(ca_certs=str(broker.workdir / "ca.crt"))
        self.client.on_connect = lambda c, u, f, code, p: (
            self.result.append(code),
            self.answered.set(),
        )
        self.client.connect("localhost", broker.port)
        self.client.loop_start()
        assert self.answered.wait(10), "no CONNACK"

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def test_herald_and_a_device_meet_over_tls_with_their_own_credentials(
    broker: TlsBroker, tmp_path: Path
) -> None:
    url = mqtts(broker, f"?ca={broker.workdir / 'ca.crt'}")
    parsed = BrokerUrl.parse(url)
    assert parsed.tls and parsed.ca == str(broker.workdir / "ca.crt")
    assert str(parsed) == f"mqtts://localhost:{broker.port}"  # the password is never shown
    events: list[DeviceEvent] = []
    dedup = DedupStore(tmp_path / "d.db")
    herald = MqttTransport(DeviceHub(dedup, events.append), url, TABLE)
    herald.start()
    box = Box(broker)
    try:
        wait_for(herald.subscribed.is_set, what="Herald to log in over TLS and subscribe")
        assert not box.result[0].is_failure
        roll = {"v": 1, "device": "seat-red", "seq": 1, "kind": "button", "seat": "red",
                "button": "confirm", "action": "press"}  # fmt: skip
        topic = device_topic(TABLE, "seat-red", "event")
        box.client.publish(topic, json.dumps(roll), qos=1).wait_for_publish(5)
        wait_for(lambda: events, what="the box's event over TLS")
        assert [(e.device, e.seq) for e in events] == [("seat-red", 1)]
    finally:
        box.close()
        herald.stop()
        dedup.close()


def test_a_broker_certificate_no_one_vouched_for_is_refused(
    broker: TlsBroker, tmp_path: Path
) -> None:
    """Without ``?ca=`` Herald trusts only the system's CAs: a broker certificate signed by an
    unknown CA (a stranger's broker on the LAN) gets no connection, and no password."""
    dedup = DedupStore(tmp_path / "d.db")
    herald = MqttTransport(DeviceHub(dedup, lambda e: None), mqtts(broker, ""), TABLE)
    log = broker.workdir / "mosquitto.log"
    before = log.read_text(errors="replace").count("OpenSSL Error")
    herald.start()
    try:
        wait_for(lambda: log.read_text(errors="replace").count("OpenSSL Error") > before,
                 what="the broker to see Herald's TLS handshake fail")  # fmt: skip
        assert not herald.connected.is_set() and herald.connections == 0
    finally:
        herald.stop()
        dedup.close()
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.tls_set()  # what MqttTransport does without ?ca=
    with pytest.raises(ssl.SSLCertVerificationError):
        client.connect("localhost", broker.port)
    parsed = BrokerUrl.parse(mqtts(broker, ""))
    assert parsed.tls and parsed.ca is None
    with pytest.raises(ValueError):
        BrokerUrl.parse(f"mqtt://localhost:{broker.port}?ca=/x.crt")  # TLS options need mqtts
    with pytest.raises(ValueError):
        BrokerUrl.parse(f"mqtts://localhost:{broker.port}?insecure=1")


def test_a_virtual_seat_box_reaches_herald_over_tls(
    broker: TlsBroker, tmp_path: Path, devices: Callable[..., VirtualDevice]
) -> None:
    """The firmware's MQTT link (umqtt.simple's API, TLS through an SSLContext as on a board)
    with the device's own credentials, on the documented broker."""
    events: list[DeviceEvent] = []
    dedup = DedupStore(tmp_path / "d.db")
    hub = DeviceHub(dedup, events.append)
    herald = MqttTransport(hub, mqtts(broker, f"?ca={broker.workdir / 'ca.crt'}"), TABLE)
    herald.start()
    try:
        wait_for(herald.subscribed.is_set, what="Herald to subscribe")
        box = devices(
            "seat_box", "--mqtt", f"mqtts://localhost:{broker.port}?ca={broker.workdir / 'ca.crt'}",
            "--credentials", str(broker.credentials_file("seat-red")), "--table", TABLE,
            "--device", "seat-red", "--seat", "red", "--state-dir", str(tmp_path / "vdev"),
        )  # fmt: skip
        box.wait_line("connected")
        wait_for(lambda: (r := hub.registry.get("seat-red")) is not None and r.online,
                 what="the box online")  # fmt: skip
        box.send("press confirm")
        box.wait_line("acked 1")
        assert [(e.device, getattr(e, "button", None)) for e in events] == [("seat-red", "confirm")]
    finally:
        herald.stop()
        dedup.close()
