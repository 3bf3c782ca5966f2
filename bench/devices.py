"""Roll latency: an MQTT publish of a dice event → a python-socketio client holding the ``roll``.

Starts a private mosquitto (``bridge.devices.local.LocalBroker``) and ``herald serve --mqtt`` on
it, connects a Socket.IO client to the table room, then publishes N roll events (QoS 1, as a
dice tower does) and times each from just before ``publish`` to the client's ``roll`` handler.
The baseline is the raw broker: the same payloads published and received by two paho clients
on the same machine. Reports median and p99 of both and the ratio of the medians.

    python bench/devices.py [--rolls 300]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import socketio
from paho.mqtt.enums import CallbackAPIVersion

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bridge.devices.local import LocalBroker, free_port  # noqa: E402
from bridge.devices.mqtt import device_topic  # noqa: E402

TABLE = "bench"
DEVICE = "bench-tower"


def payload(seq: int) -> bytes:
    dice = [{"sides": 6, "value": 1 + seq % 6}, {"sides": 6, "value": 1 + (seq * 5) % 6}]
    return json.dumps({"v": 1, "device": DEVICE, "seq": seq, "kind": "dice", "dice": dice}).encode()


def client(name: str, port: int) -> mqtt.Client:
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=name)
    c.connect("127.0.0.1", port)
    c.loop_start()
    return c


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def raw(port: int, n: int) -> list[float]:
    """Broker alone: publish → a subscriber's on_message, one at a time."""
    got = threading.Event()
    sub = client("bench-sub", port)
    sub.on_message = lambda c, u, m: got.set()
    topic = device_topic(TABLE, "raw", "event")
    sub.subscribe(topic, qos=1)
    time.sleep(0.3)
    pub = client("bench-pub", port)
    times = []
    for seq in range(1, n + 1):
        got.clear()
        start = time.perf_counter()
        pub.publish(topic, payload(seq), qos=1)
        if not got.wait(5):
            raise RuntimeError("raw message lost")
        times.append(time.perf_counter() - start)
        time.sleep(0.005)
    for c in (sub, pub):
        c.loop_stop()
        c.disconnect()
    return times


def herald(url: str, port: int, n: int, workdir: Path) -> list[float]:
    """Through Herald: publish → hub → referee.roll → Socket.IO ``roll`` at a client."""
    web_port = free_port()
    herald_bin = Path(sys.executable).parent / "herald"
    proc = subprocess.Popen(
        [str(herald_bin), "serve", "--db", str(workdir / "b.db"), "--port", str(web_port),
         "--no-qr", "--table-id", TABLE, "--table", "moves", "--sim", "off", "--mqtt", url],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    sio = socketio.Client()
    seen: dict[int, float] = {}
    arrived = threading.Condition()

    def on_roll(data: dict[str, object]) -> None:
        with arrived:
            seen[int(data["seq"])] = time.perf_counter()  # type: ignore[call-overload]
            arrived.notify_all()

    sio.on("roll", on_roll)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                sio.connect(f"http://127.0.0.1:{web_port}", transports=["websocket"])
                break
            except socketio.exceptions.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        pub = client("bench-tower-pub", port)
        topic = device_topic(TABLE, DEVICE, "event")
        # warm-up (first message also creates the device's registry record)
        times = []
        for seq in range(1, n + 21):
            start = time.perf_counter()
            pub.publish(topic, payload(seq), qos=1)
            with arrived:
                if not arrived.wait_for(lambda s=seq: s in seen, timeout=10):  # type: ignore[misc]
                    raise RuntimeError(f"roll {seq} never reached the client")
            if seq > 20:
                times.append(seen[seq] - start)
            time.sleep(0.005)
        pub.loop_stop()
        pub.disconnect()
        return times
    finally:
        sio.disconnect()
        proc.terminate()
        proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=300)
    args = parser.parse_args()
    broker = LocalBroker.start_new()
    workdir = Path(tempfile.mkdtemp(prefix="herald-bench-"))
    try:
        base = raw(broker.port, args.rolls)
        full = herald(broker.url, broker.port, args.rolls, workdir)
    finally:
        broker.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    ms = 1000.0
    b_med, b_p99 = statistics.median(base) * ms, pct(base, 0.99) * ms
    h_med, h_p99 = statistics.median(full) * ms, pct(full, 0.99) * ms
    print(f"cores: {os.cpu_count()}, rolls: {args.rolls}")
    print(f"raw mosquitto publish→subscribe: median {b_med:.2f} ms, p99 {b_p99:.2f} ms")
    print(f"MQTT publish → Socket.IO roll:   median {h_med:.2f} ms, p99 {h_p99:.2f} ms")
    print(f"ratio of medians: {h_med / b_med:.1f}  (aim: median ≤ 5 ms, p99 ≤ 20 ms, ratio ≤ 3)")


if __name__ == "__main__":
    main()
