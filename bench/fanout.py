"""Fan-out, measured at the server: from an accepted event to every client holding it.

For each client count (7 = one table's phones and display, 50, 200, 1,000) three servers are
measured in the same run, each with the same light clients (bench/fanout_client.py: raw
Engine.IO websockets, many per process, spread over ``--client-procs`` processes, so the
figure is the server's and not the clients'):

- ``herald``: one ``herald serve`` (simulated table, a move every ``--move-delay`` s, no
  devices), every client a table display;
- ``herald-x4``: four ``herald serve`` processes, four tables, one Redis message queue
  (``--message-queue``, a venue), the clients spread over the four tables;
- ``bare``: a bare python-socketio server on the same stack (threading, Werkzeug,
  simple-websocket) broadcasting, at the same rate, a payload of the median size Herald sent;
- ``herald-tree`` (with ``--tree DIR``): ``herald`` with another checkout's packages first on the
  path (``PYTHONPATH``), to compare two commits in one run (issue 28's before and after).

For each event every client received, "every client" is the largest delay over the clients;
the figures are the median and p99 of that over the events, and of the single deliveries.
Herald's own ``state`` sizes (the per-move change with the view as a JSON Patch) are reported
too. Both clocks are this machine's ``time.time()``: the server stamps ``accepted_at`` right
after the commit, the client on receipt.

Numbers, not assertions: the tests never time anything. Usage::

    python bench/fanout.py --game KEY                     # 7, 50, 200, 1000 clients
    python bench/fanout.py --game KEY --clients 7 200 --json
    python bench/fanout.py --game KEY --clients 7 --configs herald-tree herald bare --tree ../old
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fanout_client import run_clients, ws_url

HERE = Path(__file__).resolve()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _raise_file_limit() -> None:
    """1,000 sockets need more descriptors than the usual soft limit of 1,024."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _herald() -> str:
    beside = Path(sys.executable).parent / "herald"
    return str(beside) if beside.exists() else (shutil.which("herald") or "herald")


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far (/proc), to report the server's cost per event."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Servers:
    """The server processes of one configuration and the base URLs clients connect to."""

    procs: list[subprocess.Popen[str]] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


def _wait_line(proc: subprocess.Popen[str], marker: str) -> None:
    assert proc.stdout is not None
    seen = []
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit("server did not start:\n" + "".join(seen))
        seen.append(line)
        if marker in line:
            return


def _drain(proc: subprocess.Popen[str]) -> None:
    """Keep reading a server's output so a full pipe never blocks it."""
    import threading

    def loop() -> None:
        assert proc.stdout is not None
        for _ in proc.stdout:
            pass

    threading.Thread(target=loop, daemon=True).start()


def start_herald(
    tmp: str, game: str, count: int, move_delay: float, queue: str | None, tree: str | None = None
) -> Servers:
    """``count`` tables (one ``herald serve`` each); ``tree``: another checkout's code first."""
    env = dict(os.environ)
    if tree:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (tree, env.get("PYTHONPATH")) if p)
    servers = Servers()
    for i in range(count):
        port = _free_port()
        cmd = [_herald(), "serve", "--db", os.path.join(tmp, f"t{i}.db"), "--port", str(port),
               "--no-qr", "--move-delay", str(move_delay), "--table-id", f"bench{i}",
               "--game", game, "--table", "moves", "--sim", "all",
               "--restart-after", "0.5", "--virtual-devices", "off"]  # fmt: skip
        if queue:
            cmd += ["--message-queue", queue]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                preexec_fn=_raise_file_limit, env=env)  # fmt: skip
        _wait_line(proc, "Ctrl+C")
        _drain(proc)
        servers.procs.append(proc)
        servers.urls.append(f"http://127.0.0.1:{port}")
    return servers


def start_bare(interval: float, payload_bytes: int) -> Servers:
    port = _free_port()
    cmd = [sys.executable, str(HERE), "--bare-server", str(port), "--interval", str(interval),
           "--payload-bytes", str(payload_bytes)]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=_raise_file_limit)  # fmt: skip
    _wait_line(proc, "serving")
    _drain(proc)
    return Servers([proc], [f"http://127.0.0.1:{port}"])


def bare_server(port: int, interval: float, payload_bytes: int) -> None:
    """The baseline: python-socketio on Werkzeug's threaded server (as Flask-SocketIO runs
    Herald), every client in one room, one ``state`` emitted to it every ``interval`` s."""
    import threading

    import socketio
    from werkzeug.serving import run_simple

    sio = socketio.Server(async_mode="threading", cors_allowed_origins=None, logger=False)
    app = socketio.WSGIApp(sio)

    @sio.on("connect")  # type: ignore[misc]
    def on_connect(sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        sio.enter_room(sid, "table")

    def ticker() -> None:
        state_id = 0
        while True:
            time.sleep(interval * (0.67 + 0.66 * (state_id % 7) / 6))  # Herald's ±33 %
            state_id += 1
            payload = {"state_id": state_id, "accepted_at": time.time(), "snapshot": False}
            pad = max(0, payload_bytes - len(json.dumps(payload)) - 20)
            payload["pad"] = "x" * pad
            sio.emit("state", payload, to="table")

    threading.Thread(target=ticker, daemon=True).start()
    print("serving", flush=True)
    run_simple("127.0.0.1", port, app, threaded=True, use_reloader=False)


def measure(servers: Servers, clients: int, procs: int, events: int, move_delay: float,
            timeout: float) -> dict[str, Any]:  # fmt: skip
    """Connect ``clients`` light clients spread over the servers' URLs and ``procs`` processes,
    record until ``events`` events reached every client (or ``timeout``)."""
    urls = [servers.urls[i % len(servers.urls)] for i in range(clients)]
    chunks = [urls[i::procs] for i in range(procs) if urls[i::procs]]
    ctx = multiprocessing.get_context("spawn")
    workers = []
    for chunk in chunks:
        ours, theirs = ctx.Pipe()
        proc = ctx.Process(target=run_clients, args=(chunk, {"lang": "en"}, theirs), daemon=True)
        proc.start()
        workers.append((proc, ours))
    started = time.monotonic()
    connected = sum(pipe.recv()[1] for _, pipe in workers)
    connect_s = time.monotonic() - started
    t0 = time.time() + 0.5
    for _, pipe in workers:
        pipe.send(("record", t0))
    cpu0 = sum(_cpu_seconds(p.pid) for p in servers.procs)
    wait_s = min(timeout, events * move_delay * 1.4 + 3)
    time.sleep(wait_s)  # a benchmark's measuring window, not a test's wait
    cpu = sum(_cpu_seconds(p.pid) for p in servers.procs) - cpu0
    rows: list[tuple[str, int, float, int]] = []
    for proc, pipe in workers:
        pipe.send(("stop", None))
        rows.extend(pipe.recv()[1])
        proc.join(timeout=10)
        if proc.is_alive():
            proc.kill()
    by_event: dict[tuple[str, int], list[float]] = {}  # (table URL, state_id) -> delays
    sizes: list[int] = []
    for url, state_id, delay, size in rows:
        by_event.setdefault((url, state_id), []).append(delay)
        sizes.append(size)
    per_table = {ws_url(u): urls.count(u) for u in servers.urls}
    complete = [d for (u, _), d in by_event.items() if len(d) >= per_table[u]]
    every = [max(d) * 1000 for d in complete]
    single = [x * 1000 for d in complete for x in d]
    out: dict[str, Any] = {
        "clients": clients,
        "connected": connected,
        "connect_s": round(connect_s, 2),
        "events": len(complete),
        "server_cpu_ms_per_event": round(cpu * 1000 / max(1, len(by_event)), 2),
    }
    if every:
        out["every_client_ms"] = {"median": round(statistics.median(every), 2),
                                  "p99": round(_quantile(every, 0.99), 2)}  # fmt: skip
        out["single_ms"] = {"median": round(statistics.median(single), 2),
                            "p99": round(_quantile(single, 0.99), 2)}  # fmt: skip
        out["state_bytes"] = {"median": int(statistics.median(sizes)),
                              "p90": int(_quantile(sizes, 0.9))}  # fmt: skip
    return out


def start_redis(tmp: str) -> tuple[subprocess.Popen[str], str]:
    exe = shutil.which("redis-server")
    if exe is None:
        raise SystemExit("redis-server is not installed (make system-deps)")
    port = _free_port()
    cmd = [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
           "--dir", tmp]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    _wait_line(proc, "Ready to accept connections")
    _drain(proc)
    return proc, f"redis://127.0.0.1:{port}/0"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", help="the game the tables play (a game key; required)")
    parser.add_argument("--clients", type=int, nargs="+", default=[7, 50, 200, 1000])
    parser.add_argument("--events", type=int, default=25, help="events per measurement")
    parser.add_argument("--move-delay", type=float, default=0.5)
    parser.add_argument("--client-procs", type=int, default=4)
    parser.add_argument("--configs", nargs="+", default=["herald", "herald-x4", "bare"])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--tree", help="another checkout, run as the herald-tree config")
    parser.add_argument("--bare-server", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--interval", type=float, default=0.5, help=argparse.SUPPRESS)
    parser.add_argument("--payload-bytes", type=int, default=1000, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bare_server:
        bare_server(args.bare_server, args.interval, args.payload_bytes)
        return
    if not args.game:
        parser.error("--game is required")
    if ("herald-tree" in args.configs) != bool(args.tree):
        parser.error("--tree and the herald-tree config go together")
    _raise_file_limit()
    console = Console(stderr=True)
    tmp = tempfile.mkdtemp(prefix="herald-fanout-")
    redis_proc, queue = (None, None)
    if "herald-x4" in args.configs:
        redis_proc, queue = start_redis(tmp)
    results: list[dict[str, Any]] = []
    payload = 1000
    try:
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("fan-out", total=len(args.clients) * len(args.configs))
            for n in args.clients:
                for config in args.configs:
                    progress.update(task, description=f"{config}, {n} clients")
                    if config == "bare":
                        servers = start_bare(args.move_delay, payload)
                    else:
                        count = 4 if config == "herald-x4" else 1
                        sub = tempfile.mkdtemp(dir=tmp)
                        tree = args.tree if config == "herald-tree" else None
                        servers = start_herald(sub, args.game, count, args.move_delay,
                                               queue if count > 1 else None, tree)  # fmt: skip
                    try:
                        procs = max(1, min(args.client_procs, n))
                        got = measure(servers, n, procs, args.events, args.move_delay, 120)
                    finally:
                        servers.stop()
                    got["config"] = config
                    if config == "herald" and "state_bytes" in got:
                        payload = got["state_bytes"]["median"]  # the bare server sends as much
                    results.append(got)
                    progress.advance(task)
    finally:
        if redis_proc is not None:
            redis_proc.terminate()
            redis_proc.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)
    for got in results:
        bare = next((r for r in results if r["config"] == "bare" and r["clients"] == got["clients"]
                     and "every_client_ms" in r), None)  # fmt: skip
        if bare and "every_client_ms" in got and got["config"] != "bare":
            got["p99_ratio_to_bare"] = round(
                got["every_client_ms"]["p99"] / max(0.01, bare["every_client_ms"]["p99"]), 2
            )
    if args.json:
        print(json.dumps({"cpus": os.cpu_count(), "load": os.getloadavg(), "results": results},
                         indent=2))  # fmt: skip
        return
    table = Table(title=f"fan-out ({os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f})")
    for col in (
        "server",
        "clients",
        "events",
        "every median ms",
        "every p99 ms",
        "single median ms",
        "p99 / bare",
        "state bytes median",
        "server CPU ms/event",
    ):
        table.add_column(col, justify="right")
    for r in results:
        e = r.get("every_client_ms", {})
        s = r.get("single_ms", {})
        table.add_row(r["config"], f"{r['connected']}/{r['clients']}", str(r["events"]),
                      str(e.get("median", "-")), str(e.get("p99", "-")), str(s.get("median", "-")),
                      str(r.get("p99_ratio_to_bare", "")),
                      str(r.get("state_bytes", {}).get("median", "-")),
                      str(r["server_cpu_ms_per_event"]))  # fmt: skip
    Console().print(table)


if __name__ == "__main__":
    main()
