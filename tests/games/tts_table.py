"""A Tabletop Simulator table laid out from a game's camera layout, for each game's TTS tests.

The reference TTS layout is the camera board centred on the table at 20 mm a unit; what a TTS
profile reads off such a table is the observation list the rules interpret.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bridge.tts.objects import TTSObject
from bridge.tts.profile import build_snapshot, load_profile
from vision.calibration import BoardProfile

MM_PER_UNIT = 20.0
"""The TTS reference layout: the camera board, 1 unit = 20 mm, centred."""


def world(board: BoardProfile, center: tuple[float, float]) -> dict[str, float]:
    """A TTS position (x right, z away from the players) for a point on the board in mm."""
    x, y = center
    return {
        "x": (x - board.width_mm / 2) / MM_PER_UNIT,
        "y": 1.0,
        "z": (board.height_mm / 2 - y) / MM_PER_UNIT,
    }


def seen(
    key: str, objects: list[dict[str, Any]], kinds: Iterable[str] | None = None
) -> list[dict[str, Any]]:
    """What the game's TTS profile reads off ``objects``; with ``kinds``, the source also says
    it reads those kinds everywhere (``coverage``)."""
    tts_objects = [TTSObject.from_json(o) for o in objects]
    snapshot = build_snapshot(tts_objects, load_profile(key), time=0.0)
    found = [o.to_json() for o in snapshot.observations]
    if kinds is not None:
        found.append({"component": "coverage", "attrs": {"kinds": list(kinds)}})
    return found
