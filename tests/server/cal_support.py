"""Helpers for the calibration page tests: a fake table camera and an in-process web server."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from werkzeug.serving import WSGIRequestHandler, make_server

from bridge.game_files import camera_profile
from bridge.web.app import WebTable
from vision.calibration import BoardProfile
from vision.scenes import Camera
from vision.sim import SimulatedTable

MA_BOARD = camera_profile("middle-ages")
"""The board profile Middle Ages ships (its package's camera/profile.json)."""


SEED = 11
"""A simulated table whose four corner markers are all in view."""


@dataclass(frozen=True)
class Rendered:
    """One synthetic frame of the Middle Ages table and the camera that took it."""

    image: NDArray[np.uint8]
    camera: Camera
    profile: BoardProfile

    def to_image(self, points_mm: list[tuple[float, float]]) -> list[tuple[float, float]]:
        """Board mm → frame pixels, by the ground-truth camera."""
        pts = np.array([points_mm], dtype=np.float64)
        out = cv2.perspectiveTransform(pts, self.camera.homography)[0]
        return [(float(x), float(y)) for x, y in out]


@cache
def rendered_table(seed: int = SEED) -> Rendered:
    """The first frame of a seeded simulated table (rendered once per test process)."""
    sim = SimulatedTable(seed, frames=1, moves=0, passes=0, profile=MA_BOARD)
    return Rendered(sim.frame(0).image, sim.camera, sim.profile)


@dataclass
class FakeCamera:
    """The camera the calibration page needs: a latest frame and the profile file."""

    frame: NDArray[np.uint8] | None
    profile_path: Path | None
    used: list[BoardProfile] = field(default_factory=list)

    def latest_frame(self) -> NDArray[np.uint8] | None:
        return self.frame

    def use_profile(self, profile: BoardProfile) -> None:
        self.used.append(profile)


class _Quiet(WSGIRequestHandler):
    def log_request(self, *args: Any) -> None:
        pass


@contextmanager
def served(web: WebTable) -> Iterator[str]:
    """Serve the table's Flask app on a free local port in a thread; yields its base URL."""
    server: Any = make_server("127.0.0.1", 0, web.app, threaded=True, request_handler=_Quiet)
    thread = threading.Thread(target=server.serve_forever, name="cal-web", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()
