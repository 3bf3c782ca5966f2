"""A simulated table camera: a seeded stream of frames with hands passing and pieces moving.

Used by the tracker tests and the benchmark (and, once the server exists, as the default camera
of ``herald serve``). The stream follows a script drawn from the seed: steady stretches, hands
that pass over the table and leave, and moves in which a hand reaches in, a sticker pawn jumps
to a new spot under it, and the hand leaves. Each frame comes with the layout that is true at
that moment, so a test can check what the tracker committed and when.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.calibration import BoardProfile, builtin_profile
from vision.scenes import (
    EASY,
    Camera,
    Hand,
    Layout,
    Style,
    finish_frame,
    random_camera,
    random_layout,
    view_table,
)

Image = NDArray[np.uint8]


@dataclass(frozen=True)
class StreamFrame:
    """One frame of the stream and what is true on the table at that moment."""

    index: int
    image: Image
    layout: Layout
    event: str
    hands: int


@dataclass(frozen=True)
class Step:
    """One scripted frame: the layout version, the hands in view and a label."""

    layout: int
    hands: tuple[Hand, ...]
    event: str


class SimulatedTable:
    """A seeded stream of 1920x1080 frames over one fixed camera.

    Args:
        seed: Drives the layout, the camera, the script and the sensor noise.
        frames: Stream length.
        style: Camera and light conditions (default: easy, a well-lit club table).
        tile_keys: Tile faces to deal into the row slots.
        card_keys: Cards beside the board.
        moves: How many pawn moves the script contains.
        passes: How many hands pass over without moving anything.
    """

    def __init__(
        self,
        seed: int,
        frames: int = 120,
        style: Style = EASY,
        tile_keys: list[str] | None = None,
        card_keys: list[str] | None = None,
        moves: int = 2,
        passes: int = 2,
        profile: BoardProfile | None = None,
    ) -> None:
        self.seed = seed
        self.style = style
        self.profile = profile or builtin_profile("middle_ages")
        rng = np.random.default_rng(seed)
        first = random_layout(
            rng, self.profile, n_stickers=16, tile_keys=tile_keys, card_keys=card_keys
        )
        self.camera: Camera = random_camera(rng, style)
        self.layouts: list[Layout] = [first]
        self.steps: list[Step] = self._script(rng, frames, moves, passes)
        self._noise_seed = int(rng.integers(0, 2**31))
        self._cache: dict[int, Image] = {}

    def _script(self, rng: np.random.Generator, frames: int, moves: int, passes: int) -> list[Step]:
        events = ["move"] * moves + ["pass"] * passes
        rng.shuffle(events)
        gap = frames // (len(events) + 1)
        steps: list[Step] = []
        version = 0
        w, h = self.camera.size
        for k, event in enumerate(events):
            while len(steps) < gap * (k + 1) - 6:
                steps.append(Step(version, (), "steady"))
            start = np.array([rng.uniform(0.2, 0.8) * w, h * 1.05])
            target = np.array([rng.uniform(0.25, 0.75) * w, rng.uniform(0.3, 0.7) * h])
            if event == "move":
                version = self._move_pawn(rng, version, target)
            path = [start + (target - start) * t for t in (0.35, 0.7, 1.0)]
            path += [target, target]
            path += [target + (start - target) * t for t in (0.5, 1.0)]
            for i, p in enumerate(path):
                # The piece jumps while the hand covers it (the middle of the path).
                v = version if (event != "move" or i >= 3) else version - 1
                hand = Hand((float(p[0]), float(p[1])), 10.0, 1.0)
                steps.append(Step(v, (hand,), event))
        while len(steps) < frames:
            steps.append(Step(version, (), "steady"))
        return steps[:frames]

    def _move_pawn(
        self, rng: np.random.Generator, version: int, target_px: NDArray[np.float64]
    ) -> int:
        """Move the pawn nearest the hand's target to a free spot near it; new layout version."""
        import cv2

        layout = self.layouts[version]
        inv = np.linalg.inv(self.camera.homography)
        tx, ty = cv2.perspectiveTransform(np.array([[target_px]], dtype=np.float64), inv).reshape(2)
        pawns = [
            (i, p)
            for i, p in enumerate(layout.pieces)
            if p.kind == "marker" and int(p.key) not in self.profile.corner_ids
        ]
        i, piece = min(
            pawns, key=lambda ip: np.hypot(ip[1].center_mm[0] - tx, ip[1].center_mm[1] - ty)
        )
        others = [p.center_mm for p in layout.pieces if p is not piece]
        for _ in range(200):
            nx = float(np.clip(piece.center_mm[0] + rng.uniform(-60, 60), 60, 500))
            ny = float(np.clip(piece.center_mm[1] + rng.uniform(-60, 60), 20, 360))
            if all(np.hypot(nx - ox, ny - oy) > 30 for ox, oy in others):
                break
        self.layouts.append(layout.moved(i, (nx, ny)))
        return len(self.layouts) - 1

    def render(self, layout_version: int, hands: list[Hand], noise_key: int) -> Image:
        """A frame of layout ``layout_version`` with explicit hands (for hand-made scripts)."""
        if layout_version not in self._cache:
            table, _ = view_table(
                self.layouts[layout_version], self.camera, self.profile, self.seed % 4
            )
            self._cache[layout_version] = table
        rng = np.random.default_rng((self._noise_seed, noise_key))
        image, _ = finish_frame(self._cache[layout_version], self.camera, hands, rng)
        return image

    def __len__(self) -> int:
        return len(self.steps)

    def frame(self, index: int) -> StreamFrame:
        """Render frame ``index`` (deterministic: same seed, same pixels)."""
        step = self.steps[index]
        image = self.render(step.layout, list(step.hands), index)
        return StreamFrame(index, image, self.layouts[step.layout], step.event, len(step.hands))

    def __iter__(self) -> Iterator[StreamFrame]:
        for i in range(len(self.steps)):
            yield self.frame(i)
