"""A seat's round trip while anonymous sockets ask for ``history`` in a loop (issue 26, finding 9).

Starts ``herald serve`` (``--game``, by default the registry's first game; docs/benchmarks.md
names the game its figures were measured on), the simulated table playing until the log holds
``--events`` events, then paused), measures a seat's ``sync`` round trip alone, then with
``--loopers`` anonymous connections each asking ``history`` for the state before the current
one as fast as their answers come. ``--tree DIR`` runs another checkout's packages first on the
path (``PYTHONPATH``), to compare two commits on the same machine in one run::

    python bench/history_load.py --tree /tmp/before --json

Numbers, not assertions: the tests never time anything.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import socketio

from engine.registry import game_keys

WAIT = 60.0


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _herald() -> str:
    beside = Path(sys.executable).parent / "herald"
    return str(beside) if beside.exists() else (shutil.which("herald") or "herald")


def _health(port: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as r:
        data: dict[str, Any] = json.loads(r.read())
        return data


def _client(port: int, token: str | None = None) -> Any:
    client = socketio.Client(reconnection=False, request_timeout=WAIT)
    client.connect(f"http://127.0.0.1:{port}", auth={"token": token} if token else None,
                   transports=["websocket"], wait_timeout=WAIT)  # fmt: skip
    return client


def _round_trips(client: Any, count: int) -> list[float]:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        client.call("sync", {"state_id": -1}, timeout=WAIT)
        times.append((time.perf_counter() - started) * 1000)
    return times


def run(game: str, events: int, loopers: int, samples: int, tree: str | None) -> dict[str, Any]:
    """One server: the seat's median and p90 round trip alone and under the loopers."""
    folder = tempfile.mkdtemp(prefix="herald-hist-")
    port = _free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if tree:
        env["PYTHONPATH"] = os.pathsep.join([tree, env.get("PYTHONPATH", "")])
    cmd = [_herald(), "serve", "--game", game, "--db", f"{folder}/h.db", "--port", str(port),
           "--no-qr", "--table", "moves", "--virtual-devices", "off", "--move-delay", "0.05",
           "--restart-after", "0"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env)  # fmt: skip
    try:
        assert proc.stdout is not None
        output = ""
        while "Ctrl+C" not in output:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError(output)
            output += line
        threading.Thread(target=proc.stdout.read, daemon=True).start()
        token = re.findall(r"Seat \w+: \S+/s/(\S+)", output)[0]
        deadline = time.monotonic() + 300
        while True:  # the links are printed just before the server listens
            try:
                _health(port)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        while _health(port)["state_id"] < events and not _health(port)["over"]:
            if time.monotonic() > deadline:
                break
            time.sleep(0.2)
        seat = _client(port, token)
        _round_trips(seat, 5)  # warm up
        alone = _round_trips(seat, samples)
        stop = threading.Event()
        answered = [0]
        refused = [0]

        def loop() -> None:
            viewer = _client(port)
            while not stop.is_set():
                current = _health(port)["state_id"]
                reply = viewer.call("history", {"state_id": max(0, current - 1)}, timeout=WAIT)
                if reply.get("ok"):
                    answered[0] += 1
                else:
                    refused[0] += 1
            viewer.disconnect()

        threads = [threading.Thread(target=loop, daemon=True) for _ in range(loopers)]
        looping = time.monotonic()
        for t in threads:
            t.start()
        time.sleep(2.0)  # the loopers get going
        loaded = _round_trips(seat, samples)
        spent = time.monotonic() - looping
        stop.set()
        for t in threads:
            t.join(timeout=WAIT)
        seat.disconnect()
        state = _health(port)["state_id"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)

    def summary(values: list[float]) -> dict[str, float]:
        ordered = sorted(values)
        return {"median": round(statistics.median(ordered), 2),
                "p90": round(ordered[int(len(ordered) * 0.9) - 1], 2)}  # fmt: skip

    return {"tree": tree or "this", "events": state, "alone_ms": summary(alone),
            "loaded_ms": summary(loaded), "history_answered_per_s": round(answered[0] / spent, 1),
            "history_refused": refused[0]}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=None, help="a registered game (default: the first)")
    parser.add_argument("--events", type=int, default=120)
    parser.add_argument("--loopers", type=int, default=3)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--tree", help="another checkout, measured first")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    args.game = args.game or game_keys()[0]
    results = []
    for tree in ([args.tree] if args.tree else []) + [None]:
        results.append(run(args.game, args.events, args.loopers, args.samples, tree))
    if args.json:
        print(json.dumps({"load": os.getloadavg(), "results": results}, indent=2))
    else:
        for r in results:
            print(r)


if __name__ == "__main__":
    main()
