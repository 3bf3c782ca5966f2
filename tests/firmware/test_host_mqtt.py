"""The host umqtt.simple stand-in, checked byte for byte against a fake socket (as umqtt's own
tests do), so the packets are what the MicroPython client sends too."""

from __future__ import annotations

from firmware.host_mqtt import MQTTClient


class FakeSock:
    def __init__(self, incoming: bytes) -> None:
        self.incoming = bytearray(incoming)
        self.out = bytearray()

    def read(self, n: int) -> bytes | None:
        if not self.incoming:
            return None
        data, self.incoming = bytes(self.incoming[:n]), self.incoming[n:]
        return data

    def write(self, data: bytes, length: int | None = None) -> int:
        data = bytes(data[:length] if length is not None else data)
        self.out += data
        return len(data)

    def setblocking(self, flag: bool) -> None:
        pass


def test_publish_qos1_waits_for_its_puback() -> None:
    client = MQTTClient("dev", "localhost")
    client.sock = FakeSock(b"\x40\x02\x00\x01")
    client.publish(b"a/b", b"hi", retain=True, qos=1)
    assert bytes(client.sock.out) == b"\x33\x09\x00\x03a/b\x00\x01hi"


def test_incoming_qos1_publish_is_delivered_and_acked() -> None:
    got = []
    client = MQTTClient("dev", "localhost")
    client.set_callback(lambda t, m: got.append((t, m)))
    # PUBLISH QoS 1, remaining length 10: topic "c/d" (2+3), packet id 7 (2), payload "hi!" (3)
    client.sock = FakeSock(b"\x32\x0a\x00\x03c/d\x00\x07hi!")
    assert client.check_msg() == 0x32
    assert got == [(b"c/d", b"hi!")]
    assert bytes(client.sock.out) == b"\x40\x02\x00\x07"
    assert client.check_msg() is None  # nothing pending: returns at once


def test_connect_packet_carries_the_retained_will() -> None:
    client = MQTTClient("dev", "localhost", keepalive=10)
    client.set_last_will("s", "offline", retain=True, qos=1)

    import firmware.host_mqtt as hm

    original = hm.socket.create_connection
    hm.socket.create_connection = lambda *a, **k: _Raw()  # type: ignore[assignment]
    try:
        client.connect()
    finally:
        hm.socket.create_connection = original  # type: ignore[assignment]
    sent = bytes(client.sock.sock.sent)
    # fixed header, protocol name and level, flags: will retain + will QoS1 + will + clean
    assert sent[:2] == b"\x10" + bytes([len(sent) - 2])
    assert sent[2:12] == b"\x00\x04MQTT\x04\x2e\x00\x0a"
    assert sent[12:] == b"\x00\x03dev\x00\x01s\x00\x07offline"


class _Raw:
    """A socket whose peer answers CONNACK."""

    def __init__(self) -> None:
        self.sent = bytearray()
        self.answer = bytearray(b"\x20\x02\x00\x00")

    def setsockopt(self, *args: object) -> None:
        pass

    def sendall(self, data: bytes) -> None:
        self.sent += data

    def recv(self, n: int) -> bytes:
        data, self.answer = bytes(self.answer[:n]), self.answer[n:]
        return data

    def setblocking(self, flag: bool) -> None:
        pass

    def settimeout(self, t: float) -> None:
        pass

    def close(self) -> None:
        pass
