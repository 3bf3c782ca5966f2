"""The firmware's pure logic on a real MicroPython, not only on CPython (issue 16, "Also").

``tests/firmware/mpy/scenario.py`` drives framing and its CRC, debounce, the outbox (backoff,
bound, drop reports), boot epochs, pairing by code, a seat box and a dice tower on a fake cable,
and prints a transcript. It runs on CPython and on MicroPython's WebAssembly port (the npm
package ``@micropython/micropython-webassembly-pyscript``, run by node: ``make test`` installs
it with ``npm ci`` in ``tests/firmware/mpy``); the transcripts must be equal, and every frame the
MicroPython devices wrote must pass Herald's own decoder and parsers. No board is needed: the
interpreter is MicroPython's own, compiled to WebAssembly.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bridge.devices.protocol import FrameError, decode_frames, parse_event, parse_hello, parse_pair

REPO = Path(__file__).resolve().parents[2]
MPY = REPO / "tests" / "firmware" / "mpy"
NODE = shutil.which("node")
PACKAGE = MPY / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"

pytestmark = pytest.mark.skipif(
    NODE is None or not (PACKAGE / "micropython.mjs").exists(),
    reason="node or the MicroPython WebAssembly package is missing: `make test` installs them "
    "(scripts/system-deps.sh for node, `npm ci --prefix tests/firmware/mpy` for the package)",
)


def on_micropython(script: Path) -> subprocess.CompletedProcess[str]:
    assert NODE is not None
    return subprocess.run(
        [NODE, str(MPY / "run.mjs"), str(REPO / "firmware"), str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )


def on_cpython(script: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env
    )


def test_the_runner_is_micropython(tmp_path: Path) -> None:
    script = tmp_path / "which.py"
    script.write_text(
        "import sys\nprint(sys.implementation.name)\nfrom firmware import wire\nprint(wire.PROTO)\n"
    )
    done = on_micropython(script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["micropython", "1"]
    failing = tmp_path / "fails.py"
    failing.write_text("raise ValueError('boom')\n")
    done = on_micropython(failing)
    assert done.returncode == 1 and "ValueError: boom" in done.stderr


@pytest.fixture(scope="module")
def transcripts() -> tuple[list[str], list[str]]:
    script = MPY / "scenario.py"
    mpy, cpy = on_micropython(script), on_cpython(script)
    assert mpy.returncode == 0, mpy.stderr
    assert cpy.returncode == 0, cpy.stderr
    return mpy.stdout.splitlines(), cpy.stdout.splitlines()


def test_the_firmware_logic_behaves_the_same_on_micropython_and_cpython(
    transcripts: tuple[list[str], list[str]],
) -> None:
    mpy, cpy = transcripts
    assert mpy[-1] == "done"
    assert [line for line in mpy if not line.startswith("raw ")] == [
        line for line in cpy if not line.startswith("raw ")
    ]
    said = set(mpy)
    # docs/devices.md, "Serial": CRC-16/CCITT-FALSE, check value 29B1; either case is read
    assert "crc 123456789 29B1" in said
    assert "lower-case crc [{'t':'who','v':1}]" in said
    assert "bounce [[149,'press']]" in said  # one press out of contact bounce
    assert "outbox 3 dropped 2 lost [2,1,2]" in said  # bounded, and the loss is kept
    assert "boot 42 writes 1 bump 43 100" in said  # one flash write per boot
    assert "paired seat:red stored seat:red wants code False" in said  # paired by code
    assert "stale boot: now boot 10 seq 0" in said  # Herald's newest boot 9: a boot above it
    assert "drop report 2 1 2 seq 5" in said  # the tower reports the two rolls it lost


def test_frames_written_on_micropython_pass_heralds_checks(
    transcripts: tuple[list[str], list[str]],
) -> None:
    """MicroPython's dicts keep no insertion order, so its frames differ byte for byte from
    CPython's; what matters is that Herald's decoder and parsers take every one of them."""
    mpy, cpy = transcripts
    raw = [line[4:].encode() + b"\n" for line in mpy if line.startswith("raw ")]
    assert len(raw) == len([line for line in cpy if line.startswith("raw ")]) >= 8
    kinds = []
    for frame in raw:
        (msg,) = decode_frames(frame)
        assert not isinstance(msg, FrameError), (frame, msg)
        kind = msg["t"]
        kinds.append(kind)
        if kind == "event":
            parse_event(msg)
        elif kind == "hello":
            parse_hello(msg)
        elif kind == "pair":
            parse_pair(msg)
    assert {"hello", "pair", "event"} <= set(kinds)
