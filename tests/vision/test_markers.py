"""Marker detection on seeded synthetic scenes with ground truth (tolerances stated inline)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.config import MarkerConfig
from vision.markers import (
    MarkerDetector,
    UnknownDictionaryError,
    dictionary_by_name,
    opencv_default_detector,
    plausible_quad,
)
from vision.scenes import Scene

CENTER_TOL_PX = 8.0


def _score(scene: Scene, found: list[tuple[int, np.ndarray]]) -> tuple[int, int, int]:
    """(found fully visible markers, fully visible markers, false reports)."""
    truth = scene.of_kind("marker")
    false = 0
    for mid, corners in found:
        c = corners.mean(axis=0)
        if not any(
            int(t.key) == mid and np.hypot(*(c - t.center_px)) < CENTER_TOL_PX for t in truth
        ):
            false += 1
    full = scene.of_kind("marker", min_visible=0.999)
    hit = sum(
        any(
            m == int(t.key) and np.hypot(*(c.mean(axis=0) - t.center_px)) < CENTER_TOL_PX
            for m, c in found
        )
        for t in full
    )
    return hit, len(full), false


def test_clean_marker_found_with_subpixel_corners() -> None:
    d = dictionary_by_name("4x4_250")
    img = np.full((200, 200), 255, np.uint8)
    img[40:160, 40:160] = cv2.aruco.generateImageMarker(d, 42, 120)
    found = MarkerDetector().detect(img)
    assert [m.id for m in found] == [42]
    expected = np.array([[40, 40], [160, 40], [160, 160], [40, 160]], float) - 0.5
    assert np.abs(np.array(found[0].corners) - expected).max() < 1.0  # within 1 px


@pytest.mark.parametrize("name", ["6x6_250", "DICT_5X5_100", "apriltag_36h11"])
def test_other_dictionaries_by_name(name: str) -> None:
    d = dictionary_by_name(name)
    img = np.full((240, 240), 255, np.uint8)
    img[40:200, 40:200] = cv2.aruco.generateImageMarker(d, 7, 160)
    assert [m.id for m in MarkerDetector(dictionary=name).detect(img)] == [7]


def test_unknown_dictionary_is_an_error() -> None:
    with pytest.raises(UnknownDictionaryError):
        dictionary_by_name("9x9_17")


def test_marker_of_another_dictionary_is_not_reported() -> None:
    img = np.full((240, 240), 255, np.uint8)
    img[40:200, 40:200] = cv2.aruco.generateImageMarker(dictionary_by_name("6x6_250"), 3, 160)
    assert MarkerDetector(dictionary="4x4_250").detect(img) == []


def test_geometry_check_rejects_slivers_and_twists() -> None:
    cfg = MarkerConfig()
    square = np.array([[0, 0], [20, 0], [20, 20], [0, 20]], float)
    assert plausible_quad(square, cfg)
    assert not plausible_quad(np.array([[0, 0], [40, 0], [40, 4], [0, 4]], float), cfg)
    assert not plausible_quad(square[[0, 2, 1, 3]], cfg)  # self-intersecting
    assert not plausible_quad(square / 10, cfg)  # 2 px: below the minimum side


def test_noise_and_texture_give_no_markers(detector: MarkerDetector) -> None:
    rng = np.random.default_rng(5)
    noise = rng.integers(0, 256, (540, 960), dtype=np.uint8)
    blocks = cv2.resize(
        rng.integers(0, 2, (54, 96), dtype=np.uint8) * 255,
        (960, 540),
        interpolation=cv2.INTER_NEAREST,
    )
    assert detector.detect(noise) == []
    assert detector.detect(blocks) == []


def test_hard_scenes_recall_and_precision(
    detector: MarkerDetector, hard_scenes: list[Scene]
) -> None:
    """Herald's detector: recall >= 0.93 on 6 hard scenes (bench: >= 0.95 over 40), no false ID,
    and clearly above OpenCV's defaults on the same frames."""
    hit = total = false = 0
    base_hit = 0
    default = opencv_default_detector()
    for scene in hard_scenes:
        found = [(m.id, np.array(m.corners)) for m in detector.detect(scene.image)]
        h, t, f = _score(scene, found)
        hit, total, false = hit + h, total + t, false + f
        corners, ids, _ = default.detectMarkers(cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY))
        plain = (
            []
            if ids is None
            else [(int(i), q.reshape(4, 2)) for q, i in zip(corners, ids.ravel(), strict=True)]
        )
        base_hit += _score(scene, plain)[0]
    assert total > 100
    assert false == 0
    assert hit / total >= 0.93
    assert hit - base_hit >= 0.1 * total  # at least 10 points of recall over the defaults


def test_corner_accuracy_on_hard_scenes(detector: MarkerDetector, hard_scenes: list[Scene]) -> None:
    """Median corner error under 1.5 px against ground truth (95th percentile under 3 px)."""
    errs = []
    for scene in hard_scenes[:3]:
        truth = {int(t.key): t for t in scene.of_kind("marker", 0.999)}
        for m in detector.detect(scene.image):
            if m.id in truth:
                errs.append(np.abs(np.array(m.corners) - truth[m.id].corners_px).max())
    assert np.median(errs) < 1.5
    assert np.percentile(errs, 95) < 3.0


def test_detect_in_regions_limits_work_to_regions(
    detector: MarkerDetector, hard_scenes: list[Scene]
) -> None:
    scene = hard_scenes[0]
    everything = detector.detect(scene.image)
    target = next(m for m in everything if m.id not in (0, 1, 2, 3))
    x, y = (int(v) for v in target.center)
    found = detector.detect_in_regions(scene.image, [(x - 60, y - 60, 120, 120)])
    assert target.id in [m.id for m in found]
    assert all(abs(m.center[0] - x) < 70 and abs(m.center[1] - y) < 70 for m in found)


def test_a_crop_reads_what_the_whole_frame_reads(
    detector: MarkerDetector, hard_scenes: list[Scene]
) -> None:
    """The tracker's region re-read (issue 17, speed): a crop keeps the whole frame's minimum
    marker perimeter in pixels, so every crop of a grid over the frame reports exactly the
    markers the whole frame reports there (markers 60 px or more inside the crop)."""
    for scene in hard_scenes[:2]:
        whole = detector.detect(scene.image)
        seen = 0
        for cx in range(0, 1920, 480):
            for cy in range(0, 1080, 360):
                box = (cx - 60, cy - 60, 600, 480)

                def inner(center: tuple[float, float], box: tuple[int, ...] = box) -> bool:
                    x, y = center
                    return box[0] + 60 <= x < box[0] + 540 and box[1] + 60 <= y < box[1] + 420

                expected = sorted((m.id, *np.round(m.center, 1)) for m in whole if inner(m.center))
                crop = detector.detect_in_regions(scene.image, [box])
                got = sorted((m.id, *np.round(m.center, 1)) for m in crop if inner(m.center))
                assert [g[0] for g in got] == [e[0] for e in expected], box
                assert np.allclose([g[1:] for g in got], [e[1:] for e in expected], atol=0.5)
                seen += len(expected)
        assert seen >= 20


def test_weak_codes_are_not_in_the_kit_but_a_printed_one_is_read() -> None:
    """IDs with under 20 % cells of one colour (plain square with a hole) are never printed by
    the kit. A sticker made elsewhere may carry one (issue 29: the independent scenes did): it
    is read when its quiet zone is light all round, not when the same code is part of a dark
    shape (board art), and never with ``weak_codes`` off."""
    from vision.markers import usable_ids

    weak = sorted(set(range(250)) - set(usable_ids("4x4_250")))
    assert weak == [62, 85, 105, 106, 110, 118, 145, 190]
    code = cv2.aruco.generateImageMarker(dictionary_by_name("4x4_250"), 190, 120)
    img = np.full((200, 200), 255, np.uint8)
    img[40:160, 40:160] = code
    assert [m.id for m in MarkerDetector().detect(img)] == [190]
    off = MarkerDetector(replace(MarkerConfig(), weak_codes=False))
    assert off.detect(img) == []
    art = np.full((200, 200), 255, np.uint8)
    art[40:160, 20:160] = 0  # the code's black border runs on into a dark shape on the left
    art[40:160, 40:160] = code
    assert MarkerDetector().detect(art) == []
