"""Fan-out benchmark: N python-socketio clients on one table, time from acceptance to delivery.

Starts ``herald serve`` (simulated table, a move every ``--move-delay`` s) in a subprocess on
loopback, connects ``--clients`` python-socketio clients to the table room, and for each accepted
event measures ``receipt time - accepted_at`` (``accepted_at`` is stamped right after the commit;
both clocks are this machine's). Reports, over the events seen by every client, the median and
p99 of the time until *every* client held the new state, and the same over single deliveries.

Numbers, not assertions: the tests never time anything. Usage::

    python bench/fanout.py --clients 200 --events 60
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import socketio


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _herald() -> str:
    beside = Path(sys.executable).parent / "herald"
    return str(beside) if beside.exists() else (shutil.which("herald") or "herald")


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--events", type=int, default=60)
    parser.add_argument(
        "--move-delay", type=float, default=1.0, help="seconds per move (outlast the connecting)"
    )
    parser.add_argument(
        "--serve-args", default="", help="more `herald serve` options, e.g. '--virtual-devices off'"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()

    port = _free_port()
    tmp = tempfile.mkdtemp(prefix="herald-fanout-")
    cmd = [_herald(), "serve", "--db", os.path.join(tmp, "bench.db"), "--port", str(port),
           "--no-qr", "--move-delay", str(args.move_delay), "--table-id", "bench",
           "--table", "moves",
           *shlex.split(args.serve_args)]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    while "Ctrl+C" not in proc.stdout.readline():
        if proc.poll() is not None:
            raise SystemExit("herald serve did not start")
    url = f"http://127.0.0.1:{port}"

    lock = threading.Lock()
    arrivals: dict[int, list[float]] = {}  # state_id -> delays (s), one per client
    clients: list[socketio.Client] = []
    sizes: list[int] = []  # compact JSON bytes of each broadcast `state`, seen by the first client
    ready = threading.Event()

    def on_state(data: dict[str, Any]) -> None:
        delay = time.time() - float(data["accepted_at"])
        if ready.is_set():
            with lock:
                arrivals.setdefault(int(data["state_id"]), []).append(delay)

    def on_state_sized(data: dict[str, Any]) -> None:
        on_state(data)
        if ready.is_set():
            sizes.append(len(json.dumps(data, separators=(",", ":")).encode()))

    started = time.monotonic()
    try:
        for _ in range(args.clients):
            for attempt in range(5):
                # websocket-client checks UTF-8 in pure Python unless told not to: ~5 ms per
                # 20 KB state in this process, which would be measured as server delay
                client = socketio.Client(
                    reconnection=False,
                    websocket_extra_options={"skip_utf8_validation": True},
                )
                client.on("state", on_state_sized if not clients else on_state)
                try:
                    client.connect(url, transports=["websocket"], wait_timeout=20)
                    break
                except socketio.exceptions.ConnectionError:
                    time.sleep(0.2 * (attempt + 1))
            else:
                raise SystemExit(f"could not connect client {len(clients) + 1}")
            clients.append(client)
        connect_s = time.monotonic() - started
        ready.set()
        deadline = time.monotonic() + args.events * args.move_delay * 4 + 60
        while time.monotonic() < deadline:
            with lock:
                complete = [s for s, d in arrivals.items() if len(d) == len(clients)]
            if len(complete) >= args.events:
                break
            time.sleep(0.2)
    finally:
        ready.clear()  # stop recording: teardown deliveries are not measurements
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        closers = [threading.Thread(target=c.disconnect, daemon=True) for c in clients]
        for closer in closers:
            closer.start()
        for closer in closers:
            closer.join(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)

    with lock:
        complete = {s: d for s, d in arrivals.items() if len(d) == len(clients)}
        partial = len(arrivals) - len(complete)
        if os.environ.get("FANOUT_DEBUG"):
            print({s: len(d) for s, d in sorted(arrivals.items())}, file=sys.stderr)
    every = [max(d) * 1000 for d in complete.values()]
    single = [x * 1000 for d in complete.values() for x in d]
    if not every:
        raise SystemExit("no event reached every client")
    figures = {
        "clients": len(clients),
        "events": len(complete),
        "events_missed_by_some_client": partial,
        "connect_all_s": round(connect_s, 2),
        "every_client_ms": {
            "median": round(statistics.median(every), 1),
            "p99": round(_quantile(every, 0.99), 1),
            "max": round(max(every), 1),
        },
        "single_delivery_ms": {
            "median": round(statistics.median(single), 1),
            "p99": round(_quantile(single, 0.99), 1),
        },
        "state_bytes": {
            "median": int(statistics.median(sizes)) if sizes else 0,
            "max": max(sizes, default=0),
        },
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(
        f"{figures['clients']} clients, {figures['events']} events: accepted event -> every "
        f"client holds it: median {figures['every_client_ms']['median']} ms, "
        f"p99 {figures['every_client_ms']['p99']} ms (max {figures['every_client_ms']['max']}); "
        f"single delivery median {figures['single_delivery_ms']['median']} ms, "
        f"p99 {figures['single_delivery_ms']['p99']} ms; connecting took {connect_s:.1f} s; "
        f"`state` median {figures['state_bytes']['median']} bytes"
    )
    if partial:
        print(f"({partial} events were not seen by every client)")


if __name__ == "__main__":
    main()
