"""Every threshold of the vision pipeline, in one place, as plain dataclasses.

Stages take their config as an argument instead of reading module constants, so a test, the
benchmark and a venue's tuning file can change a number without touching code. ``VisionConfig``
round-trips through JSON (``from_dict``/``to_dict``); unknown keys are an error so a typo in a
tuning file is caught instead of silently ignored.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class MarkerConfig:
    """ArUco detection and verification thresholds.

    The defaults were tuned on the seeded hard scenes of ``vision.scenes`` (10 mm stickers seen
    at 1.7-2.6 px/mm, blur, noise, JPEG, uneven light); see docs/vision.md for the figures.
    """

    dictionary: str = "4x4_250"
    # Adaptive threshold: more and smaller windows find the thin borders of small markers.
    thresh_win_min: int = 3
    thresh_win_max: int = 33
    thresh_win_step: int = 6
    thresh_constant: float = 7.0
    # Candidate geometry, relative to the largest image side (OpenCV's convention). The OpenCV
    # default 0.03 drops every marker under ~14 px on a 1920 px frame: too big for stickers.
    min_perimeter_rate: float = 0.016
    polygon_accuracy: float = 0.05
    min_corner_distance_rate: float = 0.05
    # Bit sampling: more pixels per cell and a wider ignored margin read blurred cells better.
    pixels_per_cell: int = 8
    ignored_margin_per_cell: float = 0.3
    # OpenCV's own error correction is off: a corrected bit is how a texture becomes a marker.
    error_correction_rate: float = 0.0
    max_border_error_rate: float = 0.35
    min_otsu_std: float = 5.0
    # Unsharp mask before decoding: blur merges the 3 px cells of a small marker.
    sharpen_sigma: float = 1.2
    sharpen_amount: float = 1.0
    frame_sharpen_amount: float = 0.0
    # Multi-scale: every candidate quad (decoded or not) is re-read in an upscaled crop.
    upscale: float = 2.0
    upscale_max_side_px: float = 40.0
    crop_margin: float = 0.6
    max_rejected_rescans: int = 400
    rescan_min_side_px: float = 8.0
    rescan_max_side_px: float = 120.0
    # Threshold window step of the mosaic re-read (the windows run thresh_win_min..max): the
    # mosaic is larger than the frame, so each window costs more than a first-pass window.
    # Step 10 (4 windows, issue 29) against 6 (6 windows): on 22 tuning frames (hard scenes
    # 1000-1009, lighting/sensor/stickers 1000-1003) the same reads plus 2 true markers, 8 %
    # less CPU a frame; step 15 lost one.
    rescan_win_step: int = 10
    # Own verification (independent of OpenCV's decoder) applied to every reported marker.
    verify_samples_per_cell: int = 12
    max_mixed_cells: int = 6
    min_cell_contrast: float = 0.12
    min_separation: float = 0.2
    min_separation_confirmed: float = -0.25
    min_side_px: float = 7.0
    max_side_ratio: float = 3.0
    min_angle_deg: float = 35.0
    corner_refinement: str = "subpix"
    # Codes whose inner cells are nearly all one colour look like a plain square with a hole,
    # which board art often is: the sticker kit never prints them and they are not reported.
    min_minority_share: float = 0.2
    # Third pass (issue 17): OpenCV with error correction on the plain frame finds blurred and
    # compressed stickers the exact re-read loses. Its reads are believed only after our own
    # soft bit read: at most ``soft_max_bit_errors`` inner cells off the claimed code (in its
    # best rotation), every other code at least ``soft_min_margin`` bits further, at most
    # ``soft_max_border_errors`` light border cells, and the cells' contrast.
    adapted_pass: bool = True
    # A crop (the tracker's changed regions) keeps the whole frame's minimum marker perimeter
    # in pixels (``MarkerDetector._detectors``); False: the share of the crop's own side, as
    # before (slower in busy tile art, and reads quads the whole frame never would).
    crop_keeps_frame_perimeter: bool = True
    adapted_min_perimeter_rate: float = 0.01
    adapted_win_min: int = 3
    adapted_win_max: int = 53
    adapted_win_step: int = 4
    adapted_error_correction: float = 0.6
    adapted_pixels_per_cell: int = 8
    # (issue 29: the third pass uses exactly the adapted baseline's parameters, so every marker
    # that baseline reads reaches ``soft_read``; with step 10 and 4 pixels per cell it missed
    # some the baseline read.)
    # Weak codes (issue 29): stickers not printed by Herald's kit may carry them, so they are
    # read, but only on stricter evidence than other codes: no mixed cell beyond
    # ``weak_max_mixed_cells``, a separation of ``weak_min_separation`` at every scale, no bit
    # off in the third pass, and a light quiet zone all round (every cell of the ring just
    # outside the black border at least ``weak_ring_share`` of the way from black to white).
    weak_codes: bool = True
    weak_max_mixed_cells: int = 2
    weak_min_separation: float = 0.2
    weak_ring_share: float = 0.6
    # The third pass's soft read also tries the quad moved by half a pixel and grown by 4 %
    # when OpenCV's corners as given do not read (issue 29: the adapted baseline's corners of a
    # 25 px marker are good to about half a pixel, which decides a 3 px cell).
    soft_jitter: bool = True
    # The third pass's reads need a light quiet zone too (every ring cell at least this share
    # of the way from black to white): a die's white face with dark pips on dark felt once
    # read as a code, its "border" being the felt.
    soft_ring_share: float = 0.5
    # ... and at most this many cells with quadrants on both sides of the dark/light split
    # (tuning seeds: true reads 0-4, another dictionary's marker read as a code 9-14).
    soft_max_mixed_cells: int = 6
    # A dictionary whose codes are at least this many correctable bits apart is "sparse"
    # (6x6_250: 5, AprilTag 36h11: 5; 4x4_250: 1): the mixed-cell limit is for dense ones, the
    # jittered corners for sparse ones.
    sparse_min_correction: int = 2
    soft_max_bit_errors: int = 1
    soft_min_margin: int = 2
    soft_max_border_errors: int = 1


@dataclass(frozen=True)
class BoardConfig:
    """Board calibration: which marker IDs sit on the board corners and where (board mm)."""

    corner_ids: tuple[int, int, int, int] = (0, 1, 2, 3)
    # Board coordinates (mm) of the centre of each corner marker: top-left, top-right,
    # bottom-right, bottom-left, seen from the board's own top edge.
    width_mm: float = 560.0
    height_mm: float = 380.0
    corner_inset_mm: float = 25.0
    max_reprojection_px: float = 6.0
    # A marker whose size on the calibrated board is off by more than this share of its
    # printed size is board art, not a sticker.
    size_tolerance: float = 0.2


@dataclass(frozen=True)
class MatchConfig:
    """Appearance matching of cards: local features, Hough votes, RANSAC, correlation check.

    Tuned on seeded hard scenes 1000-1039 (cards 90-130 px wide in a 1920x1080 frame); the
    benchmark's seeds 9000-9029 and the held-out seeds 9500-9529 were never used for tuning.
    """

    features: str = "sift"
    sift_contrast: float = 0.02
    clahe_clip: float = 2.0
    max_features_library: int = 600
    # The strongest keypoints of a frame kept: each costs a descriptor and a FLANN look-up (a
    # sharp 1080p frame has about 8,000, half of them wood grain and board print).
    max_features_frame: int = 4000
    library_long_side_px: int = 320
    library_scales: tuple[float, ...] = (1.0, 0.5, 0.25)
    # Features are found on the frame shrunk by this factor (SIFT doubles its input first, so
    # half size keeps the detail of a 100 px card at a quarter of the full-size cost).
    frame_scale: float = 0.5
    # Lowe's ratio test against the nearest descriptor on a *different* face; ``knn`` nearest
    # descriptors are looked up (FLANN kd-trees, ``flann_checks`` leaves), and a face whose second
    # neighbour is itself (one face described at several sizes) passes.
    ratio: float = 0.85
    knn: int = 2
    flann_trees: int = 4
    flann_checks: int = 32
    # Hough votes (Lowe 2004): each match predicts the face's centre, scale and rotation; bins
    # are a quarter of the face wide, a factor 2 in scale and 30 degrees; a bin needs
    # ``min_votes`` matches before a pose is fitted to it.
    vote_position: float = 0.25
    vote_angle_deg: float = 30.0
    min_votes: int = 5
    max_pose_fits: int = 400
    # Pose: a similarity by RANSAC within the bin (pixels of the full frame), then every match
    # of that face it explains; an affine refit, a homography from ``homography_min_inliers``;
    # ``max_pose_fits`` bounds the work on a frame full of look-alike features.
    ransac_reproj_px: float = 6.0
    min_inliers: int = 5
    homography_min_inliers: int = 12
    # The matched outline must look like a flat card seen by a camera, not a twisted fit.
    max_side_ratio: float = 4.0
    min_area_px: float = 400.0
    # Verification: the frame is rectified onto the face (``verify_width_px`` wide) and
    # compared cell by cell (``verify_cells`` columns x rows, colour correlation per cell, each
    # cell's correlation clipped at 0, then averaged). The face must score ``min_face_score``
    # and beat every other enrolled face of its shape by ``min_face_margin``. Before that the
    # pose is refined by ECC (``refine_iterations``) when the first score reaches
    # ``refine_min_score``.
    verify_width_px: int = 48
    verify_cells: tuple[int, int] = (4, 5)
    refine_iterations: int = 20
    refine_min_score: float = 0.2
    min_face_score: float = 0.52
    min_face_margin: float = 0.15


@dataclass(frozen=True)
class DiceConfig:
    """Pip reading of standard white six-sided dice with dark pips."""

    die_min_area_px: float = 150.0
    die_max_area_px: float = 20000.0
    min_squareness: float = 0.6
    white_min: int = 150
    pip_radius_ratio: float = 0.06
    min_pip_contrast: float = 40.0


@dataclass(frozen=True)
class TrackerConfig:
    """Debounce and motion gating of the live tracker."""

    stable_frames: int = 3
    motion_scale: float = 0.125
    motion_blur: float = 1.0
    motion_threshold: float = 12.0
    motion_min_cells: int = 1
    cell_px: int = 64
    region_margin_px: int = 48
    skin_veto_fraction: float = 0.15
    hand_min_share: float = 0.008
    """A resting hand is a skin-coloured blob of changed cells covering at least this share of
    the frame (a palm at table distance covers more than 1 %; one tile 0.4 %)."""


@dataclass(frozen=True)
class VisionConfig:
    """The whole pipeline's thresholds."""

    markers: MarkerConfig = field(default_factory=MarkerConfig)
    board: BoardConfig = field(default_factory=BoardConfig)
    match: MatchConfig = field(default_factory=MatchConfig)
    dice: DiceConfig = field(default_factory=DiceConfig)
    tracker: TrackerConfig = field(default_factory=TrackerConfig)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (tuples become lists)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> VisionConfig:
        """Build from a (partial) dict; missing keys keep their defaults, unknown keys fail."""
        return _build(cls, data)

    @classmethod
    def load(cls, path: str | Path) -> VisionConfig:
        """Read a JSON tuning file."""
        return cls.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def _build(cls: type[T], data: dict[str, Any]) -> T:
    known = {f.name: f for f in fields(cls)}  # type: ignore[arg-type]
    unknown = set(data) - set(known)
    if unknown:
        raise ValueError(f"unknown {cls.__name__} keys: {sorted(unknown)}")
    defaults = cls()
    kwargs: dict[str, Any] = {}
    for name, value in data.items():
        current = getattr(defaults, name)
        if is_dataclass(current) and isinstance(value, dict):
            kwargs[name] = _build(type(current), value)
        elif isinstance(current, tuple):
            kwargs[name] = tuple(value)
        else:
            kwargs[name] = value
    return cls(**kwargs)
