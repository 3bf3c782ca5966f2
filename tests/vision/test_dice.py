"""Dice pips in the tray."""

from __future__ import annotations

import numpy as np
import pytest

from bridge.game_files import camera_profile
from vision.art import die_face
from vision.calibration import calibrate
from vision.dice import read_dice, rectify
from vision.markers import MarkerDetector
from vision.scenes import hard_scene

MA_BOARD = camera_profile("middle-ages")
"""The board profile Middle Ages ships (its package's camera/profile.json)."""


def _tray_with(values: list[int], size: int = 64) -> np.ndarray:
    view = np.full((160, 100 + 110 * len(values), 3), (40, 70, 30), np.uint8)
    for i, v in enumerate(values):
        face, mask = die_face(v, size)
        y, x = 40, 40 + 110 * i
        view[y : y + size, x : x + size][mask > 0] = face[mask > 0]
    return view


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_each_face_read(value: int) -> None:
    reads = read_dice(_tray_with([value]))
    assert [r.value for r in reads] == [value]


def test_rotated_die_read() -> None:
    import cv2

    view = _tray_with([5, 6])
    m = cv2.getRotationMatrix2D((view.shape[1] / 2, 80), 30, 1.0)
    turned = cv2.warpAffine(view, m, view.shape[1::-1], borderValue=(40, 70, 30))
    assert sorted(r.value for r in read_dice(turned) if r.value) == [5, 6]


def test_covered_die_is_unreadable_not_guessed() -> None:
    view = _tray_with([4])
    view[40:104, 72:104] = (30, 30, 30)  # a finger over half the face
    assert all(r.value in (None, 4) for r in read_dice(view))
    assert read_dice(np.full((160, 300, 3), (40, 70, 30), np.uint8)) == []


def test_dice_in_hard_scenes() -> None:
    """All fully visible dice of 6 seeded hard scenes read right; none read wrong."""
    profile = MA_BOARD
    tray = profile.regions_of_kind("tray")[0]
    detector = MarkerDetector()
    right = total = 0
    for k in range(6):
        scene = hard_scene(8200 + k, MA_BOARD, tile_keys=[], card_keys=[], n_dice=3)
        board = calibrate(detector.detect(scene.image), profile)
        if not board.found:
            continue
        assert board.homography is not None
        view, to_image = rectify(scene.image, np.linalg.inv(board.homography), tray.rect, 6.0)
        reads = read_dice(view)
        centers = [cv2_point(to_image, r.center) for r in reads]
        for t in scene.of_kind("die", 0.95):
            total += 1
            near = [
                r for r, c in zip(reads, centers, strict=True) if np.hypot(*(c - t.center_px)) < 10
            ]
            assert near, t
            assert near[0].value in (int(t.key), None)
            right += near[0].value == int(t.key)
    assert total >= 10
    assert right == total


def cv2_point(h: np.ndarray, p: tuple[float, float]) -> np.ndarray:
    import cv2

    return cv2.perspectiveTransform(np.array([[p]], dtype=np.float64), h).reshape(2)
