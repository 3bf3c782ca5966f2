"""The table display's log folding (bridge/web/static/logfold.js, issue 25, point 6), run in
node: a run of moves the referee made itself is one line ("red: pass ×5, blue: pass ×4"); a
single one, a seat's own move, an undo and a move taken back stay lines of their own."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

NODE = shutil.which("node")
FOLD = Path(__file__).resolve().parents[2] / "bridge" / "web" / "static" / "logfold.js"

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed (make system-deps)")


def run(call: str, data: Any) -> Any:
    assert NODE is not None
    script = (f"const F = require({json.dumps(str(FOLD))});"
              f"process.stdout.write(JSON.stringify(F.{call}({json.dumps(data)})));")  # fmt: skip
    done = subprocess.run([NODE, "-e", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def entry(seq: int, source: str = "auto", label: str = "red: pass", **more: Any) -> dict[str, Any]:
    return {"seq": seq, "source": source, "kind": "move", "undone": False, "label": label, **more}


def test_a_run_of_automatic_moves_is_one_line() -> None:
    reds = [entry(n) for n in range(2, 7)]
    blues = [entry(n, label="blue: pass") for n in range(7, 11)]
    log = [entry(1, "seat:red", "red: duel"), *reds, *blues, entry(11, "simtable", "roll")]
    folded = run("fold", log)
    assert [e.get("seq") for e in folded] == [1, 2, 11]
    assert [e["seq"] for e in folded[1]["run"]] == list(range(2, 11))
    texts = [e["label"] for e in folded[1]["run"]]
    assert run("moves", texts) == "red: pass ×5, blue: pass ×4"


def test_a_single_automatic_move_an_undo_and_a_move_taken_back_stay_lines() -> None:
    log = [entry(1), entry(2, "seat:red", "red: lord"), entry(3), entry(4, undone=True),
           entry(5), {**entry(6), "kind": "undo"}]  # fmt: skip
    assert run("fold", log) == log  # no two automatic moves in a row that still stand


def test_folding_keeps_the_order_and_every_entry() -> None:
    log = [entry(n, "auto" if n % 3 else "seat:blue", f"m{n % 2}") for n in range(1, 31)]
    folded = run("fold", log)
    flat = [e for item in folded for e in item.get("run", [item])]
    assert flat == log
    assert all(len(item["run"]) > 1 for item in folded if "run" in item)
