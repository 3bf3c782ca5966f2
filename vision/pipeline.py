"""One frame in, everything seen out: markers → board → slots, cards, dice → TableSnapshot.

``Pipeline`` wires the pure stages together with one config and one board profile. It reports
what it sees with a confidence and never applies a game rule; turning a snapshot difference into
a move is the engine's job. ``FrameResult.to_json`` is the ``herald vision detect --json``
contract documented in docs/vision.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import (
    BoardProfile,
    Calibration,
    Region,
    calibrate,
    filter_by_size,
)
from vision.cards import CardMatch, Matcher
from vision.config import VisionConfig
from vision.dice import DieRead, find_dice, read_dice, rectify
from vision.library import Library
from vision.markers import MarkerDetection, MarkerDetector
from vision.slots import SlotClassifier, SlotRead
from vision.snapshot import Observation, TableSnapshot

Image = NDArray[np.uint8]
Rect = tuple[int, int, int, int]

DICE_PX_PER_MM = 6.0
SLOT_VIEW_PX = 96

NO_BOARD = BoardProfile(name="", width_mm=0.0, height_mm=0.0)
"""The profile of a photo read without a board: no corners are looked for (``has_board``), no
region holds anything, no sticker is named (each is ``marker:<id>``)."""


@dataclass
class FrameResult:
    """Everything one frame showed, in image pixels (and board mm where calibrated)."""

    board: Calibration
    markers: list[MarkerDetection] = field(default_factory=list)
    cards: list[CardMatch] = field(default_factory=list)
    slots: list[tuple[SlotRead, tuple[tuple[float, float], ...]]] = field(default_factory=list)
    dice: list[tuple[DieRead, tuple[float, float]]] = field(default_factory=list)

    def board_xy(self, point: tuple[float, float]) -> tuple[float, float] | None:
        """Board mm of an image point, or None without calibration."""
        if not self.board.found:
            return None
        x, y = self.board.to_board(np.array([point], dtype=np.float64))[0]
        return round(float(x), 2), round(float(y), 2)

    def to_json(self) -> dict[str, Any]:
        """The ``herald vision detect --json`` document."""
        h = self.board.homography
        cards = [
            {"id": c.id, "corners": _round_pts(c.corners), "score": c.score} for c in self.cards
        ]
        cards += [
            {"id": s.id, "corners": _round_pts(corners), "score": s.score}
            for s, corners in self.slots
            if s.id is not None
        ]
        return {
            "board": {
                "found": self.board.found,
                "homography": h.round(8).tolist() if h is not None else None,
            },
            "markers": [
                {
                    "id": m.id,
                    "corners": _round_pts(m.corners),
                    "board_xy": list(xy) if (xy := self.board_xy(m.center)) else None,
                }
                for m in self.markers
            ],
            "cards": cards,
            "dice": [
                {"value": d.value, "center": [round(c[0], 2), round(c[1], 2)]}
                for d, c in self.dice
                if d.value is not None
            ],
        }


def _round_pts(points: Any) -> list[list[float]]:
    return [[round(float(x), 2), round(float(y), 2)] for x, y in points]


class Pipeline:
    """The per-frame vision pipeline for one table.

    Args:
        cfg: Thresholds.
        profile: The game's board profile (its package's ``camera/profile.json``, or a
            calibrated one). None reads any photo without a board: markers of ``dictionary``
            (default: the sticker kit's), cards of ``library`` anywhere, dice anywhere; no
            board is calibrated, so nothing has board millimetres or a region.
        library: Enrolled faces for cards (local features) and tiles (slot correlation).
        slot_faces: Square faces for the slot classifier; taken from ``library_dir`` if given.
        dictionary: ArUco dictionary name, overriding the profile's.
    """

    def __init__(
        self,
        cfg: VisionConfig | None = None,
        *,
        profile: BoardProfile | None,
        library: Library | None = None,
        slots: SlotClassifier | None = None,
        dictionary: str | None = None,
    ) -> None:
        self.cfg = cfg or VisionConfig()
        self.has_board = profile is not None
        self.profile = profile if profile is not None else NO_BOARD
        default = self.profile.dictionary if profile is not None else self.cfg.markers.dictionary
        self.markers = MarkerDetector(self.cfg.markers, dictionary or default)
        self.matcher = Matcher(library) if library is not None and len(library) else None
        self.slots = slots

    @classmethod
    def from_paths(
        cls,
        cfg: VisionConfig | None,
        profile_path: str | Path | None,
        library_dir: str | Path | None = None,
        dictionary: str | None = None,
    ) -> Pipeline:
        """Build from files, as the CLI does (no profile path: any photo, no board)."""
        from vision.calibration import load_profile

        cfg = cfg or VisionConfig()
        profile = load_profile(profile_path) if profile_path is not None else None
        library = slots = None
        if library_dir is not None:
            library = Library.load(library_dir, cfg.match)
            slots = SlotClassifier.from_library_dir(library_dir)
        return cls(cfg, profile=profile, library=library, slots=slots, dictionary=dictionary)

    # -- stages -------------------------------------------------------------------------------

    def detect(self, frame: Image) -> FrameResult:
        """Run every stage on a whole frame."""
        markers = self.markers.detect(frame)
        if not self.has_board:
            result = FrameResult(Calibration(False), markers)
            result.cards = self.matcher.find(frame) if self.matcher else []
            result.dice = find_dice(frame, self.cfg.dice)
            return result
        board = calibrate(markers, self.profile, self.cfg.board)
        markers = filter_by_size(markers, board, self.profile, self.cfg.board.size_tolerance)
        result = FrameResult(board, markers)
        result.cards = self.matcher.find(frame) if self.matcher else []
        result.slots = self.read_slots(frame, board)
        result.dice = self.read_tray(frame, board)
        return result

    def read_slots(
        self, frame: Image, board: Calibration, only: list[Region] | None = None
    ) -> list[tuple[SlotRead, tuple[tuple[float, float], ...]]]:
        """Classify the tile in each slot region (all, or ``only`` these)."""
        if self.slots is None or not board.found:
            return []
        out = []
        for region in only if only is not None else self.profile.regions_of_kind("slot"):
            x, y, w, h = region.rect
            m = 2.0
            src_mm = np.array(
                [[x - m, y - m], [x + w + m, y - m], [x + w + m, y + h + m], [x - m, y + h + m]],
                dtype=np.float64,
            )
            px = board.to_image(src_mm).astype(np.float32)
            s = SLOT_VIEW_PX
            dst = np.array([[0, 0], [s, 0], [s, s], [0, s]], dtype=np.float32)
            view = cv2.warpPerspective(frame, cv2.getPerspectiveTransform(px, dst), (s, s))
            read = self.slots.read(np.asarray(view, dtype=np.uint8), region.name)
            inner = board.to_image(
                np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], dtype=np.float64)
            )
            out.append((read, tuple((float(a), float(b)) for a, b in inner)))
        return out

    def read_tray(
        self, frame: Image, board: Calibration
    ) -> list[tuple[DieRead, tuple[float, float]]]:
        """Dice in the profile's tray region, with their image-pixel centres."""
        tray = next(iter(self.profile.regions_of_kind("tray")), None)
        if tray is None or not board.found or board.homography is None:
            return []
        view, view_to_image = rectify(
            frame,
            np.asarray(np.linalg.inv(board.homography), np.float64),
            tray.rect,
            DICE_PX_PER_MM,
        )
        out = []
        for die in read_dice(view, self.cfg.dice):
            p = cv2.perspectiveTransform(np.array([[die.center]], dtype=np.float64), view_to_image)
            out.append((die, (float(p[0, 0, 0]), float(p[0, 0, 1]))))
        return out

    # -- snapshot -----------------------------------------------------------------------------

    def snapshot(self, result: FrameResult, time: float, source: str = "camera") -> TableSnapshot:
        """The engine-independent snapshot of a frame result.

        Corner markers are calibration, not components, and are left out. A sticker the
        profile does not name is reported as ``marker:<id>`` so nothing seen is dropped.
        """
        corner_ids = set(self.profile.corner_ids) if self.has_board else set()
        obs: list[Observation] = []
        for m in result.markers:
            if m.id in corner_ids:
                continue
            xy = result.board_xy(m.center)
            component, attrs = self.profile.component_of(m.id)
            obs.append(
                Observation(
                    component=component,
                    region=self.profile.region_at(*xy) if xy else None,
                    board_xy=xy,
                    rotation_deg=round(m.rotation_deg, 1),
                    confidence=round(min(1.0, m.contrast / 0.3), 3),
                    source_id=f"marker:{m.id}",
                    attrs={**attrs, "marker_id": m.id},
                )
            )
        for s, corners in result.slots:
            if s.id is None:
                continue
            xy = result.board_xy(_center(corners))
            obs.append(
                Observation(
                    component="tile",
                    region=s.region,
                    board_xy=xy,
                    rotation_deg=float(s.rotation_deg),
                    face_up=True,
                    confidence=s.score,
                    source_id=f"slot:{s.region}",
                    attrs={"face": s.id},
                )
            )
        for c in result.cards:
            xy = result.board_xy(c.center)
            obs.append(
                Observation(
                    component=f"card:{c.id}",
                    region=self.profile.region_at(*xy) if xy else None,
                    board_xy=xy,
                    face_up=True,
                    confidence=c.score,
                    source_id=f"card:{c.id}",
                    attrs={"face": c.id, "inliers": c.inliers},
                )
            )
        for d, center in result.dice:
            xy = result.board_xy(center)
            obs.append(
                Observation(
                    component="die",
                    region=self.profile.region_at(*xy) if xy else None,
                    board_xy=xy,
                    confidence=d.confidence if d.value is not None else 0.0,
                    source_id="die",
                    attrs={"value": d.value},
                )
            )
        return TableSnapshot(source=source, time=time, observations=tuple(obs))


def _center(points: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    arr = np.asarray(points, dtype=np.float64)
    return float(arr[:, 0].mean()), float(arr[:, 1].mean())
