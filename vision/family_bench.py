"""Marker figures per scene family, Herald's detector next to two OpenCV baselines.

Every scene of ``vision.families`` is read by three detectors in the same run:

- ``herald``: ``vision.markers.MarkerDetector`` (what ``herald vision detect`` uses);
- ``opencv_default``: ``cv2.aruco.ArucoDetector`` with OpenCV's default parameters;
- ``opencv_adapted``: the same with parameters adapted to small stickers (issue 17: smaller
  minimum perimeter, wider adaptive-threshold windows, error correction 0.6, subpixel corners).

A report is right when its id matches a marker of the scene whose centre lies within a third of
that marker's side; every other report is a false id. Recall counts markers fully in view.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.families import FAMILIES, HELD_OUT, HELD_OUT_SEED, TUNING, FamilyScene, family_scene
from vision.markers import MarkerDetector, dictionary_by_name

Reads = list[tuple[int, tuple[float, float]]]
"""What a detector reported: (id, centre in pixels) per marker."""


def adapted_parameters() -> cv2.aruco.DetectorParameters:
    """OpenCV's detector adapted to 16-40 px stickers, as issue 29 words its baseline: adaptive
    threshold windows 3-53 step 4, minimum perimeter rate 0.01, error correction 0.6, 8 pixels
    per cell, sub-pixel corners (issue 17's had step 10 and OpenCV's 4 pixels per cell)."""
    p = cv2.aruco.DetectorParameters()
    p.minMarkerPerimeterRate = 0.01
    p.adaptiveThreshWinSizeMin = 3
    p.adaptiveThreshWinSizeMax = 53
    p.adaptiveThreshWinSizeStep = 4
    p.errorCorrectionRate = 0.6
    p.perspectiveRemovePixelPerCell = 8
    p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return p


def _opencv(detector: cv2.aruco.ArucoDetector) -> Callable[[np.ndarray], Reads]:
    def read(image: np.ndarray) -> Reads:
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        corners, ids, _ = detector.detectMarkers(gray)
        if ids is None:
            return []
        return [
            (int(i), (float(q.reshape(4, 2)[:, 0].mean()), float(q.reshape(4, 2)[:, 1].mean())))
            for q, i in zip(corners, ids.ravel(), strict=True)
        ]

    return read


def detectors(dictionary: str = "4x4_250") -> dict[str, Callable[[np.ndarray], Reads]]:
    """The three detectors compared, by name."""
    d = dictionary_by_name(dictionary)
    herald = MarkerDetector(dictionary=dictionary)

    def read_herald(image: np.ndarray) -> Reads:
        return [(m.id, m.center) for m in herald.detect(image)]

    return {
        "herald": read_herald,
        "opencv_default": _opencv(cv2.aruco.ArucoDetector(d, cv2.aruco.DetectorParameters())),
        "opencv_adapted": _opencv(cv2.aruco.ArucoDetector(d, adapted_parameters())),
    }


@dataclass
class Tally:
    """Counts for one detector on one family."""

    found: int = 0
    markers: int = 0
    right: int = 0
    false: int = 0
    ms: list[float] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        """Recall, id precision, counts and the median time per frame."""
        return {
            "recall": round(self.found / self.markers, 4) if self.markers else 0.0,
            "id_precision": round(self.right / max(1, self.right + self.false), 4),
            "markers": self.markers,
            "false_ids": self.false,
            "ms_median": round(statistics.median(self.ms), 1) if self.ms else None,
        }


def score(scene: FamilyScene, reads: Reads, tally: Tally) -> None:
    """Add one detector's reads of ``scene`` to ``tally``."""
    tally.markers += len(scene.markers)
    matched: set[int] = set()
    for mid, (x, y) in reads:
        hit = next(
            (
                k
                for k, t in enumerate(scene.markers)
                if t.id == mid and np.hypot(x - t.center[0], y - t.center[1]) < t.side_px / 3
            ),
            None,
        )
        if hit is None:
            # A marker cut by the frame's edge, read with its id at its place, is no false id.
            tally.false += not any(
                t.id == mid and np.hypot(x - t.center[0], y - t.center[1]) < t.side_px / 3
                for t in scene.partial
            )
        else:
            tally.right += 1
            matched.add(hit)
    tally.found += len(matched)


def run_families(
    scenes: int,
    families: Iterable[str] = FAMILIES,
    severity: float = 1.0,
    first_seed: int = HELD_OUT_SEED,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    """Per-family figures of the three detectors on ``scenes`` seeded scenes per family.

    Also reads ``scenes`` clutter-only frames (no marker of the dictionary at all), where every
    report is a false id. ``held_out`` sums the held-out families.
    """
    dets = detectors()
    fams = list(families)
    out: dict[str, Any] = {"tuning_families": list(TUNING), "held_out_families": list(HELD_OUT)}
    total = scenes * (len(fams) + 1)
    done = 0
    pooled = {name: Tally() for name in dets}
    per: dict[str, dict[str, Any]] = {}
    for fam in [*fams, "clutter_only"]:
        tallies = {name: Tally() for name in dets}
        for k in range(scenes):
            if fam == "clutter_only":
                scene = family_scene("clutter", first_seed + 10_000 + k, severity, True)
            else:
                scene = family_scene(fam, first_seed + k, severity)
            for name, read in dets.items():
                t0 = time.perf_counter()
                reads = read(scene.image)
                tallies[name].ms.append((time.perf_counter() - t0) * 1000)
                score(scene, reads, tallies[name])
                if fam in HELD_OUT:
                    score(scene, reads, pooled[name])
            done += 1
            if progress is not None:
                progress("families", done, total)
        per[fam] = {name: t.figures() for name, t in tallies.items()}
        per[fam]["role"] = (
            "held-out" if fam in HELD_OUT else "tuning" if fam in TUNING else "false-id check"
        )
    out["held_out"] = {name: t.figures() for name, t in pooled.items()}
    out["families"] = per
    out["scenes_per_family"] = scenes
    out["severity"] = severity
    out["first_seed"] = first_seed
    return out
