"""Herald's MQTT side: one paho-mqtt 2.x client per table, feeding a :class:`DeviceHub`.

Topics (``<table>`` and ``<device>`` are ids of letters, digits, ``-`` and ``_``)::

    herald/<table>/devices/<device>/event   device → Herald, QoS 1, not retained
    herald/<table>/devices/<device>/status  device → Herald, "online"/"offline", retained, will
    herald/<table>/devices/<device>/info    device → Herald, hello JSON, retained
    herald/<table>/devices/<device>/pair    device → Herald, pairing code JSON, QoS 1
    herald/<table>/devices/<device>/cmd     Herald → device, QoS 1 (LED retained; ack/nak not)
    herald/<table>/referee/status           Herald's own "online"/"offline", retained, will

The client uses ``CallbackAPIVersion.VERSION2``, a persistent session (``clean_session=False``
with a stable client id) so the broker queues events while Herald is away, paho's automatic
reconnect, and subscribes again in every ``on_connect`` so a broker that lost its state after a
restart still delivers. Loss is excluded end-to-end by device retransmission until Herald's
``ack``; duplicates are excluded by the hub's dedup store.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from engine.i18n import message

from .hub import DeviceHub
from .protocol import _DEVICE_ID, to_wire_json

log = logging.getLogger(__name__)

TOPIC_ROOT = "herald"


@dataclass(frozen=True)
class BrokerUrl:
    """``mqtt://[user:pass@]host[:port]`` (``mqtts://`` for TLS, default port 8883).

    A TLS URL may name the CA that signed the broker's certificate and a client certificate:
    ``mqtts://herald:secret@broker.lan?ca=/etc/herald/ca.crt&cert=c.crt&key=c.key`` (without
    ``ca`` the system's trusted CAs are used, as paho's ``tls_set()`` does).
    """

    host: str
    port: int
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca: str | None = None
    cert: str | None = None
    key: str | None = None

    @classmethod
    def parse(cls, url: str) -> BrokerUrl:
        parts = urlsplit(url if "://" in url else f"mqtt://{url}")
        if parts.scheme not in ("mqtt", "mqtts", "tcp"):
            raise ValueError(f"unsupported MQTT URL scheme {parts.scheme!r} in {url!r}")
        if not parts.hostname:
            raise ValueError(f"no host in MQTT URL {url!r}")
        tls = parts.scheme == "mqtts"
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        unknown = set(query) - {"ca", "cert", "key"}
        if unknown or (query and not tls):
            raise ValueError(f"unsupported MQTT URL options {sorted(query)} in {parts.scheme}://")
        return cls(
            host=parts.hostname,
            port=parts.port or (8883 if tls else 1883),
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            tls=tls,
            ca=query.get("ca"),
            cert=query.get("cert"),
            key=query.get("key"),
        )

    def __str__(self) -> str:  # never print the password
        scheme = "mqtts" if self.tls else "mqtt"
        return f"{scheme}://{self.host}:{self.port}"


def device_topic(table: str, device: str, leaf: str) -> str:
    """``herald/<table>/devices/<device>/<leaf>``."""
    return f"{TOPIC_ROOT}/{table}/devices/{device}/{leaf}"


def referee_status_topic(table: str) -> str:
    return f"{TOPIC_ROOT}/{table}/referee/status"


class MqttTransport:
    """Connects a table's devices on one broker to a :class:`DeviceHub`.

    Args:
        hub: Where payloads go.
        url: Broker URL, see :class:`BrokerUrl`.
        table: Table id, the second topic level.
        client_id: The id of Herald's persistent session; by default ``herald-<table>-<random>``
            (:func:`new_client_id`). Never the bare ``herald-<table>``: a broker that lets any
            user take any client id would let whoever guesses Herald's knock it off (a broker
            drops the older of two connections with one id). ``herald serve`` keeps one random
            id per ``.devices`` file, so Herald's session survives its restarts.
        keepalive: Seconds; the broker publishes Herald's will after 1.5x this of silence.
    """

    def __init__(
        self,
        hub: DeviceHub,
        url: str,
        table: str,
        *,
        client_id: str | None = None,
        keepalive: int = 30,
        reconnect_delay: tuple[float, float] = (0.2, 5.0),
    ) -> None:
        if not _DEVICE_ID.match(table):
            raise ValueError(f"invalid table id {table!r}")
        self.hub = hub
        self.broker = BrokerUrl.parse(url)
        self.table = table
        self.keepalive = keepalive
        self.connected = threading.Event()
        self.subscribed = threading.Event()
        """Set once the broker confirmed the subscriptions (SUBACK): from then on every device
        message reaches Herald; cleared on a disconnect."""
        self.connections = 0
        self.drops = 0
        """Connections lost other than by :meth:`stop` (another client taking Herald's id, say)."""
        self._stopping = False
        self._client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=client_id or new_client_id(table),
            clean_session=False,
            protocol=mqtt.MQTTv311,
        )
        if self.broker.username:
            self._client.username_pw_set(self.broker.username, self.broker.password)
        if self.broker.tls:
            self._client.tls_set(
                ca_certs=self.broker.ca, certfile=self.broker.cert, keyfile=self.broker.key
            )
        lo, hi = reconnect_delay
        self._client.reconnect_delay_set(min_delay=max(1, round(lo)), max_delay=max(1, round(hi)))
        self._client.will_set(referee_status_topic(table), b"offline", qos=1, retain=True)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_subscribe = lambda *_: self.subscribed.set()
        self._client.on_message = self._on_message

    @property
    def name(self) -> str:
        return str(self.broker)

    def start(self) -> None:
        """Connect in the background; paho keeps retrying until the broker answers."""
        self._client.connect_async(self.broker.host, self.broker.port, keepalive=self.keepalive)
        self._client.loop_start()

    def stop(self) -> None:
        """Say Herald is offline, disconnect cleanly and join paho's thread."""
        self._stopping = True
        if self.connected.is_set():
            info = self._client.publish(
                referee_status_topic(self.table), b"offline", qos=1, retain=True
            )
            info.wait_for_publish(timeout=2)
        self._client.disconnect()
        self._client.loop_stop()

    def send(self, device: str, msg: Mapping[str, Any], *, retain: bool = False) -> bool:
        """Publish ``msg`` to the device's ``cmd`` topic at QoS 1.

        paho queues it while disconnected and sends it after reconnecting, so False only
        means the queue refused it.
        """
        info = self._client.publish(
            device_topic(self.table, device, "cmd"), to_wire_json(msg), qos=1, retain=retain
        )
        return bool(info.rc in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_NO_CONN))

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        """Publish to any topic at QoS 1 (Home Assistant discovery lives outside ``herald/``)."""
        self._client.publish(topic, payload, qos=1, retain=retain)

    # ------------------------------------------------------------------ paho callbacks

    def _on_connect(
        self,
        client: mqtt.Client,
        userdata: Any,
        flags: mqtt.ConnectFlags,
        reason_code: Any,
        properties: Any,
    ) -> None:
        if reason_code.is_failure:
            log.warning("%s", message("devices/broker-lost", broker=self.name, detail=reason_code))
            return
        base = f"{TOPIC_ROOT}/{self.table}/devices/+"
        client.subscribe([(f"{base}/event", 1), (f"{base}/status", 1), (f"{base}/info", 1),
                          (f"{base}/pair", 1)])  # fmt: skip
        client.publish(referee_status_topic(self.table), b"online", qos=1, retain=True)
        self.connections += 1
        self.connected.set()
        log.info("%s", message("devices/broker-connected", broker=self.name))

    def _on_disconnect(
        self,
        client: mqtt.Client,
        userdata: Any,
        flags: mqtt.DisconnectFlags,
        reason_code: Any,
        properties: Any,
    ) -> None:
        was = self.connected.is_set()
        self.connected.clear()
        self.subscribed.clear()
        if was and not self._stopping:
            self.drops += 1
            log.warning("%s", message("devices/broker-lost", broker=self.name, detail=reason_code))

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        parts = msg.topic.split("/")
        if len(parts) != 5 or parts[0] != TOPIC_ROOT or parts[2] != "devices":
            return
        device, leaf = parts[3], parts[4]
        payload = bytes(msg.payload)
        try:
            if not _DEVICE_ID.match(device):
                self.hub.logs.warning(f"topic|{self.name}", f"{self.name}: ignoring topic with "
                                      f"invalid device id {device[:64]!r}")  # fmt: skip
                self.hub.registry.source_error(self.name)
            elif leaf == "event":
                self.hub.ingest_event(payload, self, topic_device=device)
            elif leaf == "status" and payload:
                self.hub.ingest_status(device, payload, self)
            elif leaf == "info" and payload:
                self.hub.ingest_hello(payload, self, topic_device=device, sets_online=False)
            elif leaf == "pair" and payload:
                self.hub.ingest_pair(payload, self, topic_device=device)
        except Exception:  # a bug must not kill paho's network thread
            log.exception("%s: unexpected error handling %s", self.name, msg.topic)


def new_client_id(table: str) -> str:
    """``herald-<table>-<64 random bits>``: an id nobody can guess, so nobody can take it."""
    return f"herald-{table}-{secrets.token_hex(8)}"
