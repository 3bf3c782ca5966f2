"""A CPython stand-in for MicroPython's ``umqtt.simple.MQTTClient`` (the subset firmware uses).

Why not paho on the host: the virtual device exists to run the *real* firmware logic. With paho,
paho's own network thread, queue and reconnect would do the work and the firmware's connect,
will, resubscribe, ping and resend paths would never run. This class keeps umqtt.simple's
blocking, single-threaded semantics (``publish`` at QoS 1 waits for PUBACK, ``check_msg`` polls,
errors surface as ``OSError``), so a bug in those paths shows up on CPython too.

MQTT 3.1.1, QoS 0/1; TLS as umqtt.simple has it: ``ssl`` is an ``ssl.SSLContext`` that wraps
the socket (with the broker's host name, so the certificate is checked against it).
"""

import socket
import ssl as ssl_module
import struct


class MQTTException(Exception):
    pass


class _Sock:
    """Gives a CPython socket MicroPython's stream methods (``read``, ``write``)."""

    def __init__(self, sock, timeout):
        self.sock = sock
        self.timeout = timeout
        self.blocking = True

    def setblocking(self, flag):
        self.blocking = flag
        self.sock.setblocking(flag)
        if flag:
            self.sock.settimeout(self.timeout)

    def read(self, n):
        buf = b""
        while len(buf) < n:
            try:
                chunk = self.sock.recv(n - len(buf))
            except (BlockingIOError, ssl_module.SSLWantReadError):
                if not buf:
                    return None
                self.setblocking(True)
                continue
            if not chunk:
                if not buf and not self.blocking:
                    return b""
                raise OSError(-1, "connection closed by broker")
            buf += chunk
        return buf

    def write(self, data, length=None):
        if length is not None:
            data = data[:length]
        self.sock.sendall(data)
        return len(data)

    def close(self):
        self.sock.close()


class MQTTClient:
    """Same constructor and methods as umqtt.simple's; ``timeout`` bounds every blocking read."""

    def __init__(
        self,
        client_id,
        server,
        port=0,
        user=None,
        password=None,
        keepalive=0,
        ssl=None,
        timeout=5.0,
    ):
        if port == 0:
            port = 8883 if ssl else 1883
        self.ssl = ssl
        self.client_id = client_id.encode() if isinstance(client_id, str) else client_id
        self.sock = None
        self.server = server
        self.port = port
        self.pid = 0
        self.cb = None
        self.user = user
        self.pswd = password
        self.keepalive = keepalive
        self.timeout = timeout
        self.lw_topic = None
        self.lw_msg = None
        self.lw_qos = 0
        self.lw_retain = False

    @staticmethod
    def _b(value):
        return value.encode() if isinstance(value, str) else value

    def _send_str(self, s):
        s = self._b(s)
        self.sock.write(struct.pack("!H", len(s)))
        self.sock.write(s)

    def _recv_len(self):
        n = 0
        sh = 0
        while True:
            b = self.sock.read(1)[0]
            n |= (b & 0x7F) << sh
            if not b & 0x80:
                return n
            sh += 7

    def set_callback(self, f):
        self.cb = f

    def set_last_will(self, topic, msg, retain=False, qos=0):
        assert 0 <= qos <= 2
        assert topic
        self.lw_topic = self._b(topic)
        self.lw_msg = self._b(msg)
        self.lw_qos = qos
        self.lw_retain = retain

    def connect(self, clean_session=True):
        raw = socket.create_connection((self.server, self.port), timeout=self.timeout)
        raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if self.ssl:
            raw = self.ssl.wrap_socket(raw, server_hostname=self.server)
        self.sock = _Sock(raw, self.timeout)
        premsg = bytearray(b"\x10\0\0\0\0\0")
        msg = bytearray(b"\x04MQTT\x04\x02\0\0")
        sz = 10 + 2 + len(self.client_id)
        msg[6] = clean_session << 1
        if self.user is not None:
            sz += 2 + len(self._b(self.user)) + 2 + len(self._b(self.pswd or ""))
            msg[6] |= 0xC0
        if self.keepalive:
            assert self.keepalive < 65536
            msg[7] |= self.keepalive >> 8
            msg[8] |= self.keepalive & 0x00FF
        if self.lw_topic:
            sz += 2 + len(self.lw_topic) + 2 + len(self.lw_msg)
            msg[6] |= 0x4 | (self.lw_qos & 0x1) << 3 | (self.lw_qos & 0x2) << 3
            msg[6] |= self.lw_retain << 5
        i = 1
        while sz > 0x7F:
            premsg[i] = (sz & 0x7F) | 0x80
            sz >>= 7
            i += 1
        premsg[i] = sz
        self.sock.write(premsg, i + 2)
        self.sock.write(msg)
        self._send_str(self.client_id)
        if self.lw_topic:
            self._send_str(self.lw_topic)
            self._send_str(self.lw_msg)
        if self.user is not None:
            self._send_str(self.user)
            self._send_str(self.pswd or "")
        resp = self.sock.read(4)
        if resp[0] != 0x20 or resp[1] != 0x02:
            raise MQTTException("bad CONNACK")
        if resp[3] != 0:
            raise MQTTException(resp[3])
        return resp[2] & 1

    def disconnect(self):
        self.sock.write(b"\xe0\0")
        self.sock.close()

    def ping(self):
        self.sock.write(b"\xc0\0")

    def publish(self, topic, msg, retain=False, qos=0):
        topic = self._b(topic)
        msg = self._b(msg)
        pkt = bytearray(b"\x30\0\0\0")
        pkt[0] |= qos << 1 | retain
        sz = 2 + len(topic) + len(msg)
        if qos > 0:
            sz += 2
        assert sz < 2097152
        i = 1
        while sz > 0x7F:
            pkt[i] = (sz & 0x7F) | 0x80
            sz >>= 7
            i += 1
        pkt[i] = sz
        self.sock.write(pkt, i + 1)
        self._send_str(topic)
        if qos > 0:
            self.pid = self.pid % 65535 + 1
            pid = self.pid
            struct.pack_into("!H", pkt, 0, pid)
            self.sock.write(pkt, 2)
        self.sock.write(msg)
        if qos == 1:
            while True:
                op = self.wait_msg()
                if op == 0x40:
                    sz = self.sock.read(1)
                    if sz != b"\x02":
                        raise MQTTException("bad PUBACK")
                    rcv_pid = self.sock.read(2)
                    rcv_pid = rcv_pid[0] << 8 | rcv_pid[1]
                    if pid == rcv_pid:
                        return
        elif qos == 2:
            raise MQTTException("QoS 2 is not supported")

    def subscribe(self, topic, qos=0):
        topic = self._b(topic)
        pkt = bytearray(b"\x82\0\0\0")
        self.pid = self.pid % 65535 + 1
        struct.pack_into("!BH", pkt, 1, 2 + 2 + len(topic) + 1, self.pid)
        self.sock.write(pkt)
        self._send_str(topic)
        self.sock.write(bytes([qos]))
        while True:
            op = self.wait_msg()
            if op == 0x90:
                resp = self.sock.read(4)
                if resp[1] != pkt[2] or resp[2] != pkt[3]:
                    raise MQTTException("SUBACK for another packet")
                if resp[3] == 0x80:
                    raise MQTTException(resp[3])
                return

    def wait_msg(self):
        """Read one packet; dispatch PUBLISH to the callback; return the packet type byte."""
        res = self.sock.read(1)
        self.sock.setblocking(True)
        if res is None:
            return None
        if res == b"":
            raise OSError(-1, "connection closed by broker")
        if res == b"\xd0":  # PINGRESP
            sz = self.sock.read(1)[0]
            if sz != 0:
                raise MQTTException("bad PINGRESP")
            return None
        op = res[0]
        if op & 0xF0 != 0x30:
            return op
        sz = self._recv_len()
        topic_len = self.sock.read(2)
        topic_len = (topic_len[0] << 8) | topic_len[1]
        topic = self.sock.read(topic_len)
        sz -= topic_len + 2
        pid = 0
        if op & 6:
            pid = self.sock.read(2)
            pid = pid[0] << 8 | pid[1]
            sz -= 2
        msg = self.sock.read(sz) if sz else b""
        if self.cb is not None:
            self.cb(topic, msg)
        if op & 6 == 2:
            pkt = bytearray(b"\x40\x02\0\0")
            struct.pack_into("!H", pkt, 2, pid)
            self.sock.write(pkt)
        elif op & 6 == 4:
            raise MQTTException("QoS 2 is not supported")
        return op

    def check_msg(self):
        """Non-blocking: handle one pending packet if any."""
        self.sock.setblocking(False)
        return self.wait_msg()
