"""The web side of a real ``herald serve`` under hostile input (issue 16, findings 10-12;
docs/security.md): DNS-rebinding origins, the links printed for the LAN, and malformed,
deep and oversized messages, each refused with one answer and one log line."""

from __future__ import annotations

import http.client
import ipaddress
import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import cv2
import numpy as np
import pytest
import socketio
import websocket
from srv_support import WAIT, Served, Watcher, join, live_client, self_signed, serve

pytestmark = pytest.mark.slow(seconds=70)  # a long group: started first (tests/conftest.py)

QUIET = ("--sim", "off", "--virtual-devices", "off")


@pytest.fixture(scope="module")
def lan(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A server listening on every interface, as ``make run`` for phones on the LAN."""
    served = serve(tmp_path_factory.mktemp("lan") / "lan.db", "--host", "0.0.0.0", *QUIET)
    yield served
    served.stop()


def polling(served: Served, origin: str, host: str | None = None) -> Watcher:
    """A browser-like connection (long-polling, so the headers are ours to set)."""
    headers = {"Origin": origin, "Host": host or urlsplit(origin).netloc}
    return Watcher(served.base, transport="polling", headers=headers)


def printed_host(served: Served) -> str:
    host = urlsplit(served.table_url).hostname
    assert host is not None, served.output
    return host


def test_a_dns_rebinding_origin_is_refused(lan: Served) -> None:
    """Finding 10: Origin and Host both ``rebind.example`` (its name re-pointed at the table)
    were accepted because they matched each other."""
    port = lan.port
    with pytest.raises(socketio.exceptions.ConnectionError):
        polling(lan, f"http://rebind.example:{port}")
    with pytest.raises(socketio.exceptions.ConnectionError):  # another web app on this machine
        polling(lan, f"http://127.0.0.1:{port + 1}", host=f"127.0.0.1:{port}")
    # the server's own names: localhost, the loopback address and the LAN address it printed
    for origin in (f"http://localhost:{port}", f"http://127.0.0.1:{port}", lan.table_url):
        client = polling(lan, origin.rstrip("/"))
        client.wait_for("state", lambda d: True)
        client.close()


def test_listening_on_every_interface_prints_the_lan_address(lan: Served) -> None:
    """Finding 11: ``--host 0.0.0.0`` printed ``http://127.0.0.1:…`` links and QR codes."""
    if "no network address other than this machine's own" in lan.output:
        pytest.skip("this machine has no network interface besides loopback")
    host = printed_host(lan)
    assert not ipaddress.ip_address(host).is_loopback, lan.output
    with socket.socket() as probe:
        probe.bind((host, 0))  # an address of this machine's own interfaces
    with urllib.request.urlopen(f"{lan.table_url}healthz", timeout=WAIT) as answer:
        assert json.loads(answer.read())["ok"]  # and the server answers there
    urls = [lan.table_url, lan.host_url, *lan.seat_urls.values()]
    assert all(u.startswith(f"http://{host}:{lan.port}/") for u in urls), urls
    host_display = Watcher(lan.base, lan.host_token)
    links = host_display.wait_for("host", lambda d: True)["links"]
    host_display.close()
    assert {seat: link["url"] for seat, link in links.items()} == lan.seat_urls


def test_public_url_overrides_the_printed_links(tmp_path: Path) -> None:
    public = "http://table.example:9000"
    served = serve(tmp_path / "p.db", "--host", "0.0.0.0", "--public-url", public, *QUIET)
    try:
        urls = [served.table_url, served.host_url, *served.seat_urls.values()]
        assert all(u.startswith(f"{public}/") for u in urls), urls
        client = polling(served, public, host=f"127.0.0.1:{served.port}")
        client.wait_for("state", lambda d: True)
        client.close()
    finally:
        served.stop()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Served]:
    """A table of the test's own: the test stops it to read everything it logged."""
    served = serve(tmp_path / "w.db", *QUIET)
    yield served
    served.stop()


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One table for the tests that only knock at its door (no move, no look at its log)."""
    served = serve(tmp_path_factory.mktemp("guard") / "w.db", *QUIET)
    yield served
    served.stop()


def test_an_intent_with_four_arguments_is_refused_clearly(table: Served) -> None:
    """Finding 12: four arguments gave ``server/internal`` and a traceback in the log."""
    phone = Watcher(table.base, table.token("blue"))
    before = table.health()["state_id"]
    ack = phone.client.call("intent", ({"state_id": before, "kind": "undo"}, 2, 3, 4),
                            timeout=WAIT)  # fmt: skip
    assert ack["code"] == "intent/arguments", ack
    assert ack["message"].startswith("'intent' takes one object (4 were sent)")
    none = phone.client.call("intent", timeout=WAIT)
    assert none["code"] == "intent/arguments" and "(0 were sent)" in none["message"]
    phone.close()
    assert table.health()["state_id"] == before
    table.stop()
    assert "Traceback" not in table.log and "server/internal" not in table.log


def raw_socket(served: Served, token: str) -> websocket.WebSocket:
    """A websocket speaking Engine.IO/Socket.IO by hand, to send what no client library would."""
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{served.port}/socket.io/?EIO=4&transport=websocket", timeout=WAIT
    )
    assert ws.recv().startswith("0")  # engine.io open
    ws.send("40" + json.dumps({"token": token}))
    while not ws.recv().startswith("40"):
        pass
    return ws


def answer(ws: websocket.WebSocket, ack: int) -> dict[str, Any]:
    """The acknowledgement ``ack`` (other frames, e.g. the ``error`` event, are skipped)."""
    prefix = f"43{ack}["
    while True:
        frame = ws.recv()
        if frame.startswith(prefix):
            data: dict[str, Any] = json.loads(frame[len(prefix) - 1 :])[0]
            return data


def test_deep_and_unreadable_json_get_a_refusal_and_one_log_line(table: Served) -> None:
    """Finding 12: JSON nested 3,000 deep logged a 27-line traceback each time, no answer."""
    before = table.health()["state_id"]
    ws = raw_socket(table, table.token("blue"))
    deep = "[" * 3000 + "]" * 3000
    ws.send(f'421["intent",{{"state_id":{before},"kind":"move","move":{deep}}}]')
    refused = answer(ws, 1)
    assert refused["code"] == "intent/too-deep" and "nests deeper than 64" in refused["message"]
    ws.send('422["intent",{"state_id":')
    assert answer(ws, 2)["code"] == "intent/not-json"
    ws.send(f'423["sync",{{"state_id":{before}}}]')  # the connection is unaffected
    assert answer(ws, 3)["ok"]
    ws.close()
    # a connection whose auth cannot be read is refused the same way
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{table.port}/socket.io/?EIO=4&transport=websocket", timeout=WAIT
    )
    assert ws.recv().startswith("0")
    ws.send('40{"token":' + deep + "}")
    frame = ws.recv()
    while not frame.startswith("44"):
        frame = ws.recv()
    assert json.loads(frame[2:])["data"]["code"] == "intent/too-deep"
    ws.close()
    assert table.health()["state_id"] == before
    table.stop()
    assert "Traceback" not in table.log
    lines = [x for x in table.log.splitlines() if "unreadable" in x]
    assert len(lines) == 3 and all(x.count("refused") == 1 for x in lines), lines


def test_an_oversized_polling_post_is_answered_at_once_and_the_session_goes_on(
    shared: Served,
) -> None:
    """Finding 12: a 70 KB long-polling POST got no reply for 20 s, then HTTP 500."""
    conn = http.client.HTTPConnection("127.0.0.1", shared.port, timeout=WAIT)
    path = "/socket.io/?EIO=4&transport=polling"

    def request(method: str, url: str, body: str | None = None) -> tuple[int, str]:
        conn.request(method, url, body=body)
        reply = conn.getresponse()
        return reply.status, reply.read().decode()

    status, opened = request("GET", path)
    assert status == 200
    sid = json.loads(opened[1:])["sid"]
    session = f"{path}&sid={sid}"
    assert request("POST", session, "40") == (200, "OK")
    assert request("GET", session)[0] == 200  # the connect answer and the first state
    big = "42" + json.dumps(["intent", {"state_id": 0, "kind": "move", "pad": "x" * 70_000}])
    status, text = request("POST", session, big)
    assert status == 413, text
    refusal = json.loads(text)
    assert refusal["code"] == "http/too-large" and refusal["params"]["limit"] == 64 * 1024
    assert "too large" in refusal["message"]
    conn.close()
    conn = http.client.HTTPConnection("127.0.0.1", shared.port, timeout=WAIT)
    assert request("POST", session, '421["sync",{"state_id":0}]') == (200, "OK")
    status, packets = request("GET", session)
    assert status == 200 and any(p.startswith("431[") for p in packets.split("\x1e")), packets
    conn.close()


def test_a_refused_connect_carries_its_code(shared: Served) -> None:
    """What the pages show on ``connect_error`` (``err.data``, static/common.js): the code and
    the sentence. Found with finding 12: the code was lost in the message text."""
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{shared.port}/socket.io/?EIO=4&transport=websocket", timeout=WAIT
    )
    assert ws.recv().startswith("0")
    ws.send("40" + json.dumps({"token": "forged-token-forged-tok"}))
    frame = ws.recv()
    while not frame.startswith("44"):
        frame = ws.recv()
    ws.close()
    refusal = json.loads(frame[2:])
    assert refusal["data"]["code"] == "auth/bad-token"
    assert refusal["message"] == refusal["data"]["message"] and "join link" in refusal["message"]


def _closed_by_server(conn: socket.socket) -> bool:
    """Wait (up to WAIT, a bound for a loaded machine) until the server closes ``conn``."""
    conn.settimeout(WAIT)
    try:
        while conn.recv(4096):
            pass
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False
    return True


def test_a_silent_tls_connection_holds_up_nobody(tmp_path: Path) -> None:
    """Finding 6 (issue 26): with ``--tls-cert`` one TCP connection that never sent a TLS hello
    froze every page load and reconnect (Werkzeug shook hands in its accept loop), and a
    connection that stalls in its handshake or in an upload was never closed."""
    cert, key = self_signed(tmp_path)
    served = serve(tmp_path / "tls.db", "--tls-cert", str(cert), "--tls-key", str(key),
                   "--read-timeout", "2", *QUIET)  # fmt: skip
    try:
        silent = socket.create_connection(("127.0.0.1", served.port))
        half_hello = socket.create_connection(("127.0.0.1", served.port))
        half_hello.sendall(b"\x16\x03\x01\x02\x00\x01")  # a ClientHello's first bytes, no more
        for _ in range(3):  # pages and sockets still open, one after the other
            assert served.health()["ok"] is True
        ws = websocket.create_connection(
            f"wss://127.0.0.1:{served.port}/socket.io/?EIO=4&transport=websocket",
            timeout=WAIT,
            sslopt={"ca_certs": str(cert), "check_hostname": False},
        )
        assert ws.recv().startswith("0")  # engine.io open: a socket connects too
        ws.close()
        assert _closed_by_server(half_hello)  # a stalled handshake is cut after its timeout
        assert served.health()["ok"] is True
        silent.close()
        half_hello.close()
    finally:
        served.stop()
    assert "Traceback" not in served.log


def test_a_stalled_upload_is_cut_and_the_table_goes_on(tmp_path: Path) -> None:
    """Finding 6: reading threads had no timeout (60 slow phone-frame uploads held 60 threads).
    A request whose body stops coming is closed after ``--read-timeout``."""
    table = serve(tmp_path / "slow.db", "--camera", "phone", "--virtual-devices", "off",
                  "--read-timeout", "2", table=None)  # fmt: skip
    slow = []
    for _ in range(8):
        conn = socket.create_connection(("127.0.0.1", table.port))
        conn.sendall(b"POST /api/phone/" + table.host_token.encode() + b"/frame HTTP/1.1\r\n"
                     b"Host: 127.0.0.1\r\nContent-Type: image/jpeg\r\n"
                     b"Content-Length: 100000\r\n\r\n\xff\xd8\xff")  # fmt: skip
        slow.append(conn)
    assert table.health()["ok"] is True
    assert all(_closed_by_server(conn) for conn in slow)
    for conn in slow:
        conn.close()
    assert table.health()["ok"] is True
    table.stop()
    assert "Traceback" not in table.log


MALFORMED = ['42{"a":1}', "42[1,2]", "42[]", '42"x"', "42[null]", '42[{"a":1}]', "4x", "49",
             "4", '43{"a":1}', '44{"a":1}']  # fmt: skip
"""Socket.IO packets no client library sends: an event that is not ``["name", ...]``, a packet
that is not one, an unknown type, an empty one, an acknowledgement that is not a list, a
CONNECT_ERROR (only a server sends those)."""


def test_malformed_packets_are_answered_and_logged_once_per_kind(table: Served) -> None:
    """Finding 7 (issue 26): one websocket sending ``42{"a":1}`` made 500 tracebacks and
    356 KB of log a second. Each malformed packet gets ``intent/bad-packet``; the log gets one
    line per kind (folded, with a count), never a traceback, and the connection goes on."""
    ws = raw_socket(table, table.token("blue"))
    sent = [*MALFORMED, *(['42{"a":1}'] * 300), '421{"a":1}']
    for frame in sent:
        ws.send(frame)
    codes = []
    while len(codes) < len(sent):
        frame = ws.recv()
        if frame.startswith('42["error"'):
            codes.append(json.loads(frame[2:])[1]["code"])
        elif frame.startswith("431["):  # the one that asked for an answer gets it too
            assert json.loads(frame[3:])[0]["code"] == "intent/bad-packet"
    assert set(codes) == {"intent/bad-packet"}
    ws.send('422["sync",{"state_id":0}]')
    assert answer(ws, 2)["ok"]
    ws.close()
    before = len(table.output)
    table.stop()
    log = table.log[before:]
    assert "Traceback" not in log, log[:2000]
    lines = [x for x in log.splitlines() if "intent/bad-packet" in x]
    assert 1 <= len(lines) <= 3, lines  # one per 10 s of sending, on a loaded machine
    assert len(log) < 2000, log


@pytest.fixture(scope="module")
def phone_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A table whose camera is a phone (``--camera phone``): the frame route decodes."""
    served = serve(tmp_path_factory.mktemp("phone") / "p.db", "--camera", "phone",
                   "--virtual-devices", "off", table=None)  # fmt: skip
    yield served
    served.stop()


def post_frame(served: Served, body: bytes) -> tuple[int, dict[str, Any]]:
    url = f"{served.base}/api/phone/{served.host_token}/frame"
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": "image/jpeg"})  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def post_paced(served: Served, body: bytes) -> tuple[int, dict[str, Any]]:
    """``post_frame``, waiting out the frame rate (``phone/too-fast``) as the page does."""
    deadline = time.monotonic() + WAIT
    while True:
        status, reply = post_frame(served, body)
        if status != 429 or time.monotonic() > deadline:
            return status, reply
        time.sleep(1 / reply["params"]["fps"])


def small_jpeg(side: int = 64) -> bytes:
    ok, data = cv2.imencode(".jpg", np.full((side, side, 3), 128, np.uint8))
    assert ok
    return bytes(data)


def peak_rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM in /proc")


def test_an_oversized_or_foreign_frame_is_refused_before_decoding(phone_table: Served) -> None:
    """Finding 8 (issue 26): a 600-byte JPEG claiming 16000x16000 pixels took 1.5 GB of memory
    before being refused; a PNG was taken though the page and the docs say JPEG."""
    assert post_paced(phone_table, small_jpeg())[0] == 200
    frame = bytearray(small_jpeg(8))
    at = frame.find(b"\xff\xc0")  # the frame header: precision, then height and width
    frame[at + 5 : at + 9] = (16000).to_bytes(2, "big") * 2
    before = peak_rss_kb(phone_table.proc.pid)
    status, refused = post_paced(phone_table, bytes(frame))
    assert status == 400 and refused["code"] == "vision/phone-too-big", refused
    assert refused["params"] == {"width": 16000, "height": 16000, "limit": 1920}
    grown_mb = (peak_rss_kb(phone_table.proc.pid) - before) / 1024
    assert grown_mb < 100, f"the refused frame cost {grown_mb:.0f} MB"  # decoding: 768 MB
    _, png = cv2.imencode(".png", np.zeros((64, 64, 3), np.uint8))
    status, refused = post_paced(phone_table, bytes(png))
    assert status == 400 and refused["code"] == "vision/phone-bad-frame"
    assert "a JPEG was expected" in refused["message"]


def test_phone_frames_come_no_faster_than_the_referee_asks(phone_table: Served) -> None:
    """Finding 8: phone frames had no rate limit. Frames sent as fast as the network allows are
    taken at the rate the referee asks for (two ahead at most); the rest get ``phone/too-fast``
    (429) and change nothing."""
    with urllib.request.urlopen(f"{phone_table.base}/api/phone/{phone_table.host_token}",
                                timeout=WAIT) as reply:  # fmt: skip
        fps = json.loads(reply.read())["fps"]
    frame = small_jpeg()
    started = time.monotonic()
    answers = [post_frame(phone_table, frame) for _ in range(30)]
    elapsed = time.monotonic() - started
    taken = [a for s, a in answers if s == 200]
    refused = [a for s, a in answers if s != 200]
    # a bound that holds however slow the machine is: the bucket's two plus the asked rate
    assert len(taken) <= 2 + fps * elapsed + 1, (len(taken), fps, elapsed)
    assert refused and {a["code"] for a in refused} == {"phone/too-fast"}
    assert {a["params"]["fps"] for a in refused} == {fps}


def test_history_is_paced_per_client(shared: Served) -> None:
    """Finding 9 (issue 26): ``history`` had no rate limit; three anonymous sockets asking in a
    loop took a seat's round trip from 16 ms to 565 ms in Glory. A client asking faster than
    8 a second (16 ahead) is answered ``history/too-fast``; another client is not held back."""
    looping = live_client(reconnection=False)
    join(looping, shared.base)
    started = time.monotonic()
    answers = [looping.call("history", {"state_id": 0}, timeout=WAIT) for _ in range(60)]
    elapsed = time.monotonic() - started
    taken = [a for a in answers if a["ok"]]
    paced = [a for a in answers if not a["ok"]]
    assert len(taken) <= 16 + 8 * elapsed + 1, (len(taken), elapsed)  # the bucket's bound
    assert paced and {a["code"] for a in paced} == {"history/too-fast"}
    assert "a second" in paced[0]["message"]
    other = live_client(reconnection=False)
    join(other, shared.base)
    assert other.call("history", {"state_id": 0}, timeout=WAIT)["ok"]
    other.disconnect()
    looping.disconnect()
