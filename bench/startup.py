"""What a served table and a state file cost before any move: start-up and schema checks.

Every served test table, every `herald` command and every phone's move pays these, so they are
measured here (numbers, not assertions: the tests never time anything):

- ``serve``: from launching `herald serve --game KEY --sim table` to its ``/healthz`` answering,
  median over ``--starts`` starts, next to two baselines in the same run: a bare interpreter
  (``python -c pass``) and one importing the web stack alone (Flask-SocketIO);
- ``command``: `herald rules KEY --help` (the CLI with its game, and nothing it does not run);
- ``schema``: validating the states of a simulated game against the game's JSON Schema, median
  per state, with jsonschema-rs (what `engine.rules` asks first) against Python's jsonschema
  (what words a refusal), and their ratio.

Usage::

    python bench/startup.py                       # every game
    python bench/startup.py --game KEY --starts 5 --json
    python bench/startup.py --tree ../old-checkout          # its herald, this bench
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs
from rich.console import Console
from rich.progress import track
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import codec, registry, rules, selfplay  # noqa: E402

HERALD = [sys.executable, "-c", "from bridge.cli import main; main()"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


TREE = [ROOT]
"""The checkout whose herald the commands run (``--tree``: compare two commits in one run)."""


def _run_s(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(
        cmd, check=True, cwd=TREE[0], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return time.perf_counter() - start


def serve_start_s(key: str) -> float:
    """Seconds from launching `herald serve` to its /healthz answering."""
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [*HERALD, "serve", "--db", f"{tmp}/s.db", "--game", key, "--sim", "table",
               "--move-delay", "60", "--port", str(port)]  # fmt: skip
        start = time.perf_counter()
        proc = subprocess.Popen(
            cmd, cwd=TREE[0], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"herald serve --game {key} exited ({proc.returncode})")
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                        return time.perf_counter() - start
                except OSError:
                    time.sleep(0.02)
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def schema_ms(key: str, states: int) -> dict[str, float]:
    """Median ms per state validated, jsonschema-rs and Python's jsonschema, on one game's
    simulated states (every few moves of seeded games)."""
    game = registry.get_game(key)
    full = rules.schema(game)
    sub = {"$schema": full["$schema"], "$defs": full["$defs"], "$ref": full["x-state"]}
    fast = jsonschema_rs.validator_for(sub)
    slow = jsonschema.validators.validator_for(sub)(sub)
    encoded: list[Any] = []
    for setup in selfplay.setups(game):
        seats = tuple(f"s{j}" for j in range(setup.players))
        result = selfplay.play(game, seats, random.Random(len(encoded)), setup.options)
        encoded.append(codec.encode(result.session.state))
        if len(encoded) >= states:
            break
    timings: dict[str, list[float]] = {"rs": [], "python": []}
    for data in encoded:
        for name, validator in (("rs", fast), ("python", slow)):
            start = time.perf_counter()
            if not validator.is_valid(data):
                raise RuntimeError(f"{key}: a simulated state fails its own schema ({name})")
            timings[name].append((time.perf_counter() - start) * 1000)
    rs, py = statistics.median(timings["rs"]), statistics.median(timings["python"])
    return {"rs_ms": round(rs, 3), "python_ms": round(py, 3), "ratio": round(py / rs, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="a game key (default: every game)")
    parser.add_argument("--starts", type=int, default=5, help="starts per game (median)")
    parser.add_argument("--states", type=int, default=6, help="simulated states per game")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument(
        "--tree", type=Path, help="a checkout whose herald to start (default: this)"
    )
    args = parser.parse_args()
    if args.tree:
        TREE[0] = args.tree.resolve()
    keys = args.game or list(registry.game_keys())
    starts = max(1, args.starts)
    bare = [sys.executable, "-c", "pass"]
    web = [sys.executable, "-c", "import flask_socketio"]
    baseline = {
        "python_s": statistics.median(_run_s(bare) for _ in range(starts)),
        "web_stack_import_s": statistics.median(_run_s(web) for _ in range(starts)),
    }
    out: dict[str, Any] = {"baseline": {k: round(v, 3) for k, v in baseline.items()}, "games": {}}
    for key in track(keys, description="games", disable=args.json):
        serve = statistics.median(serve_start_s(key) for _ in range(starts))
        command = statistics.median(
            _run_s([*HERALD, "rules", key, "--help"]) for _ in range(starts)
        )
        out["games"][key] = {"serve_start_s": round(serve, 3), "command_s": round(command, 3),
                             "schema": schema_ms(key, args.states)}  # fmt: skip
    if args.json:
        print(json.dumps(out, indent=2))
        return
    table = Table(title=f"start-up and schema checks (median of {starts})")
    for col in ("game", "serve start s", "rules --help s", "schema rs ms", "schema py ms", "×"):
        table.add_column(col, justify="right")
    for key, row in out["games"].items():
        s = row["schema"]
        cells = (row["serve_start_s"], row["command_s"], s["rs_ms"], s["python_ms"], s["ratio"])
        table.add_row(key, *(f"{c:.2f}" for c in cells))
    console = Console()
    console.print(table)
    console.print(f"baselines: python -c pass {baseline['python_s']:.2f} s, "
                  f"import flask_socketio {baseline['web_stack_import_s']:.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
