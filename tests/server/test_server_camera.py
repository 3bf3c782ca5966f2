"""`herald serve --game middle-ages` with its default table source, the simulated camera: the
moves are filmed, read off the frames by the vision pipeline, and reach Socket.IO clients."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from srv_support import join, ordered_client, serve

WAIT = 180.0  # an upper bound for a loaded machine: vision on every frame is CPU-bound


def test_the_simulated_camera_is_the_default_table_and_its_moves_reach_the_display(
    tmp_path: Path,
) -> None:
    served = serve(tmp_path / "cam.db", "--game", "middle-ages", "--move-delay", "0.2",
                   "--virtual-devices", "off", table=None)  # fmt: skip
    states: list[dict[str, Any]] = []
    reached = threading.Event()
    client = ordered_client()  # the order states arrive in is what this test checks

    @client.on("state")
    def on_state(data: dict[str, Any]) -> None:
        states.append(data)
        if data["state_id"] >= 4:
            reached.set()

    try:
        assert "simulated camera" in served.output
        assert set(served.seat_urls) == {"red", "blue", "green"}  # the stickers' colours
        join(client, served.base)
        assert reached.wait(WAIT), f"state_id stayed at {served.health()['state_id']}"
    finally:
        client.disconnect()
        served.stop()
    ids = [s["state_id"] for s in states]
    assert ids == sorted(ids) and max(ids) >= 4
    added = [e for s in states for e in s.get("log_added", s.get("log", []))]
    # the four starting rows were laid in front of the camera and read from the tiles' faces
    assert [e["kind"] for e in added[:4]] == ["reveal"] * 4
    assert {e["source"] for e in added[:4]} == {"camera"}
