"""The vision benchmark: marker recall/precision, tile and card top-1, per-frame pipeline cost.

``herald bench vision [--json] [--scenes N] [--frames N]`` and ``python bench/vision.py`` both
run ``run``. Every frame is a seeded synthetic scene (``vision.scenes``), so the figures are
reproducible; timings are medians on whatever machine runs it. A benchmark reports, it never
asserts: the tests check only that the figures are well formed.

Figures (the ``herald bench vision --json`` contract, then extras):

- ``frames``, ``resolution``: the simulated stream measured (1920x1080).
- ``pipeline_ms_median``: Herald's whole per-frame cost (``Tracker.update``) on that stream: a
  steady table with occasional pawn moves and hands passing over.
- ``raw_detect_ms_median``: one plain full-frame ``ArucoDetector.detectMarkers`` with OpenCV's
  default parameters on the hard scenes; ``opencv_default_recall`` is its recall.
- ``marker_recall`` / ``marker_id_precision``: Herald's pipeline (tuned two-scale detector,
  geometry and bit verification, board-size check) on hard scenes, over fully visible markers.
- ``tile_top1`` / ``card_top1``: enrolled faces read correctly; ``*_false_claims`` counts faces
  claimed where there is no such face (unknown tiles and cards are in every scene).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from vision.art import stand_in_art
from vision.calibration import BoardProfile
from vision.family_bench import run_families
from vision.library import Library
from vision.markers import MarkerDetector, _gray, _unsharp, opencv_default_detector
from vision.pipeline import Pipeline
from vision.real_photos import NEGATIVES, card_figures, labelled_figures, negative_figures
from vision.scenes import hard_scene
from vision.sim import SimulatedTable
from vision.slots import SlotClassifier
from vision.tracker import Tracker

TILES = [f"tile-{i:02d}" for i in range(16)]
UNKNOWN_TILES = [f"tile-u{i}" for i in range(4)]
CARDS = [f"card-{i:02d}" for i in range(12)]
TOL_PX = 8.0
FIRST_SCENE = 9000
"""Benchmark scenes are seeds 9000+ (never used for tuning, which used 1000-1015)."""

CONTRACT = (
    "frames",
    "resolution",
    "pipeline_ms_median",
    "raw_detect_ms_median",
    "marker_recall",
    "marker_id_precision",
    "tile_top1",
    "card_top1",
)
"""The keys ``herald bench vision --json`` prints first, in this order."""

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)`` with stage ``stream``, ``scenes`` or ``families``."""


def build_pipeline(profile: BoardProfile) -> Pipeline:
    """The pipeline benchmarked: stand-in card faces enrolled, stand-in tile faces in slots."""
    library = Library()
    for key in CARDS:
        library.add(key, stand_in_art(key, 320, 448))
    slots = SlotClassifier({key: stand_in_art(key, 320, 320) for key in TILES})
    return Pipeline(profile=profile, library=library, slots=slots)


def scene_figures(pipe: Pipeline, n: int, progress: Progress | None = None) -> dict[str, Any]:
    """Recall, precision and top-1 figures on ``n`` seeded hard scenes."""
    default = opencv_default_detector()
    raw_ms: list[float] = []
    hit = total = tp = fp = base_hit = 0
    tile_ok = tile_n = tile_false = 0
    card_ok = card_n = card_false = 0
    rng = np.random.default_rng(9)
    for k in range(n):
        cards = [str(c) for c in rng.choice(CARDS, 3, replace=False)] + [f"alien-{k}"]
        scene = hard_scene(
            FIRST_SCENE + k, pipe.profile, tile_keys=TILES + UNKNOWN_TILES, card_keys=cards
        )
        gray = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
        t0 = time.perf_counter()
        corners, ids, _ = default.detectMarkers(gray)
        raw_ms.append((time.perf_counter() - t0) * 1000)
        result = pipe.detect(scene.image)
        truth = scene.of_kind("marker")
        for m in result.markers:
            ok = any(
                int(t.key) == m.id and np.hypot(*(np.array(m.center) - t.center_px)) < TOL_PX
                for t in truth
            )
            tp, fp = tp + ok, fp + (not ok)
        for t in scene.of_kind("marker", 0.999):
            total += 1
            hit += any(
                m.id == int(t.key) and np.hypot(*(np.array(m.center) - t.center_px)) < TOL_PX
                for m in result.markers
            )
            base_hit += ids is not None and any(
                int(i) == int(t.key) and np.hypot(*(q.reshape(4, 2).mean(0) - t.center_px)) < TOL_PX
                for q, i in zip(corners, ids.ravel(), strict=True)
            )
        tiles = scene.of_kind("tile")
        for read, _ in result.slots:
            region = next(r for r in pipe.profile.regions if r.name == read.region)
            here = [t for t in tiles if region.contains(*t.board_xy)]
            tile = here[0] if here else None
            if tile is not None and tile.key in TILES and tile.visible >= 0.9:
                tile_n += 1
                tile_ok += read.id == tile.key
                tile_false += read.id not in (None, tile.key)
            elif read.id is not None and (tile is None or read.id != tile.key):
                # a partly covered tile read as itself is no false claim; anything else is
                tile_false += 1
        face_truth = [t for t in scene.truth if t.kind in ("card", "tile")]
        for c in result.cards:
            if not any(
                t.key == c.id and np.hypot(*(np.array(c.center) - t.center_px)) < 25
                for t in face_truth
            ):
                card_false += 1
        for t in scene.of_kind("card", 0.6):
            if t.key in CARDS:
                card_n += 1
                card_ok += any(
                    c.id == t.key and np.hypot(*(np.array(c.center) - t.center_px)) < 25
                    for c in result.cards
                )
        if progress is not None:
            progress("scenes", k + 1, n)
    return {
        "scenes": n,
        "raw_detect_ms_median": round(statistics.median(raw_ms), 2) if raw_ms else None,
        "marker_recall": round(hit / max(1, total), 4),
        "marker_id_precision": round(tp / max(1, tp + fp), 4),
        "markers_scored": total,
        "marker_false_reports": fp,
        "opencv_default_recall": round(base_hit / max(1, total), 4),
        "tile_top1": round(tile_ok / max(1, tile_n), 4),
        "tiles_scored": tile_n,
        "tile_false_claims": tile_false,
        "card_top1": round(card_ok / max(1, card_n), 4),
        "cards_scored": card_n,
        "card_false_claims": card_false,
    }


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None


def marker_stages(detector: MarkerDetector, image: np.ndarray) -> dict[str, float]:
    """CPU ms of each marker pass on one whole frame, run as ``MarkerDetector.detect`` runs
    them: the first pass, the upscaled mosaic re-read of its candidates, the cross-check, and
    the third (adapted) pass with its soft reads."""
    c = detector.cfg
    gray = _gray(image)
    out: dict[str, float] = {}
    t = time.process_time()
    corners, ids, rejected = detector._frame.detectMarkers(
        _unsharp(gray, c.sharpen_sigma, c.frame_sharpen_amount)
    )
    out["first_pass"] = (time.process_time() - t) * 1000
    hits = [
        (int(i), q.reshape(4, 2).astype(np.float64), 1.0)
        for q, i in zip(corners, ids.ravel() if ids is not None else [], strict=False)
    ]
    quads = [h[1] for h in hits] + [r.reshape(4, 2).astype(np.float64) for r in rejected]
    t = time.process_time()
    hits += detector._rescan(gray, quads)
    out["rescan_mosaic"] = (time.process_time() - t) * 1000
    t = time.process_time()
    found = detector._cross_check(gray, hits)
    out["cross_check"] = (time.process_time() - t) * 1000
    t = time.process_time()
    if c.adapted_pass:
        detector._adapted_reads(detector._adapted, gray, gray, (0, 0), found)
    out["adapted_pass"] = (time.process_time() - t) * 1000
    return out


def stream_figures(pipe: Pipeline, frames: int, progress: Progress | None = None) -> dict[str, Any]:
    """Per-frame cost of the tracker on a ``frames``-long simulated stream (3 moves, 3 hands)."""
    sim = SimulatedTable(31, frames=frames, moves=3, passes=3, tile_keys=TILES,
                         card_keys=CARDS[:4], profile=pipe.profile)  # fmt: skip
    tracker = Tracker(pipe)
    ms: list[float] = []
    for frame in sim:
        t0 = time.perf_counter()
        tracker.update(frame.image, frame.index / 15.0)
        ms.append((time.perf_counter() - t0) * 1000)
        if progress is not None:
            progress("stream", frame.index + 1, frames)
    full: list[float] = []
    cards_ms: list[float] = []
    marker_ms: list[float] = []
    cpu: dict[str, list[float]] = {"full": [], "markers": [], "cards": []}
    stages: dict[str, list[float]] = {}
    for i in range(min(3, max(1, frames // 50))):
        image = sim.frame(i).image
        for key, work, wall in (
            ("full", pipe.detect, full),
            ("markers", pipe.markers.detect, marker_ms),
            ("cards", pipe.matcher.find if pipe.matcher is not None else None, cards_ms),
        ):
            if work is None:
                continue
            t0, c0 = time.perf_counter(), time.process_time()
            work(image)
            wall.append((time.perf_counter() - t0) * 1000)
            cpu[key].append((time.process_time() - c0) * 1000)
        for stage, spent in marker_stages(pipe.markers, image).items():
            stages.setdefault(stage, []).append(spent)
    w, h = sim.camera.size
    return {
        "frames": frames,
        "resolution": f"{w}x{h}",
        "pipeline_ms_median": round(statistics.median(ms), 2),
        "pipeline_ms_mean": round(statistics.fmean(ms), 2),
        "pipeline_ms_p95": round(float(np.percentile(ms, 95)), 2),
        "full_detect_ms_median": round(statistics.median(full), 1),
        "marker_detect_ms_median": round(statistics.median(marker_ms), 1),
        "card_match_ms_median": round(statistics.median(cards_ms), 1) if cards_ms else None,
        # CPU time of this process (every OpenCV thread included): on a loaded machine the
        # wall-clock figures above wait for a core, these do not (issue 29 point 2)
        "full_detect_cpu_ms_median": _median(cpu["full"]),
        "marker_detect_cpu_ms_median": _median(cpu["markers"]),
        "card_match_cpu_ms_median": _median(cpu["cards"]),
        "marker_stages_cpu_ms_median": {k: _median(v) for k, v in stages.items()},
        "stream_commits": tracker.stats.commits,
        "stream_region_detections": tracker.stats.region_detections,
    }


def run(
    profile: BoardProfile,
    scenes: int = 30,
    frames: int = 150,
    progress: Progress | None = None,
    family_scenes: int = 10,
    negatives: bool = False,
) -> dict[str, Any]:
    """Every figure on ``profile``'s board, the contract keys first (``CONTRACT``), then the
    extras.

    ``family_scenes`` scenes of each family of ``vision.families`` (0: none) give the
    per-family figures of Herald's detector and both OpenCV baselines (``marker_families``);
    ``real_photos`` are the labelled OpenCV photographs, and with ``negatives`` also the false
    ids on OpenCV's marker-free sample photographs (slow: about 90 photos, two dictionaries);
    ``real_cards`` the card matcher on OpenCV's box photograph (and with ``negatives`` its false
    claims on the other sample photographs).

    Raises:
        ValueError: ``scenes`` or ``frames`` below 1.
    """
    if scenes < 1 or frames < 1 or family_scenes < 0:
        raise ValueError("the benchmark needs at least one scene and one frame")
    pipe = build_pipeline(profile)
    figures = stream_figures(pipe, frames, progress)
    figures.update(scene_figures(pipe, scenes, progress))
    if family_scenes:
        figures["marker_families"] = run_families(family_scenes, progress=progress)
    figures["real_photos"] = labelled_figures()
    if negatives:
        figures["real_photos"]["negatives"] = negative_figures()
    figures["real_cards"] = card_figures(negatives=NEGATIVES if negatives else None)
    ordered = {k: figures[k] for k in CONTRACT}
    return ordered | {k: v for k, v in figures.items() if k not in CONTRACT}
