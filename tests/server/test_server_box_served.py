"""`herald serve --box` with the simulated camera on a France 1429 map unlike the stand-in one
(issue #24, "found when a second box was typed in": the simulated camera stalled at state 0 on any
map but the stand-in, since the board profile came from the stand-in map): the board profile now
comes from the box's own map, the camera reads its moves, and the game plays on."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from srv_support import serve

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bridge.box.workshop import Draft
from tests.box.generated import france_files

WAIT = 180.0  # an upper bound for a loaded machine: vision on every frame is CPU-bound


def test_france_on_a_generated_map_box_is_read_by_the_simulated_camera(tmp_path: Path) -> None:
    box = tmp_path / "ours.herald-box"
    box.write_bytes(Draft("france1429", "ours", "data.json", france_files(21, 15)).box().to_bytes())
    served = serve(tmp_path / "b.db", "--game", "france1429", "--box", str(box),
                   "--players", "3", "--move-delay", "0.2", "--virtual-devices", "off",
                   table=None)  # fmt: skip
    try:
        assert "simulated camera" in served.output
        profiles = list(Path(f"{tmp_path / 'b.db'}.boxes").glob(".profile-*.json"))
        assert len(profiles) == 1
        regions = {r["name"] for r in json.loads(profiles[0].read_text())["regions"]}
        assert sum(name.startswith("village:") for name in regions) == 27  # the box's Villages
        deadline = time.monotonic() + WAIT
        while served.health()["state_id"] < 3:
            assert time.monotonic() < deadline, f"stalled: {served.health()}"
            time.sleep(0.5)  # polling /healthz while the simulated camera plays
    finally:
        served.stop()
    assert "Traceback" not in served.log
