"""Scene families (issue 17), the third detection pass, and OpenCV's real photographs.

Scenes are drawn at an easy setting of each family (severity 0): these tests check that the
generators' ground truth is right and that the detector reads every family at all; the figures
at full severity are the benchmark's (``herald bench vision``), never asserted here.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.families import FAMILIES, HELD_OUT, TUNING, family_scene
from vision.family_bench import Tally, score
from vision.markers import MarkerDetector
from vision.real_photos import PHOTOS, labelled_figures, load_labels


def test_families_are_split_into_tuning_and_held_out() -> None:
    assert set(TUNING) | set(HELD_OUT) == set(FAMILIES)
    assert not set(TUNING) & set(HELD_OUT)


def test_a_scene_is_a_pure_function_of_family_seed_and_severity() -> None:
    a = family_scene("scale", 7, 0.5)
    b = family_scene("scale", 7, 0.5)
    c = family_scene("scale", 8, 0.5)
    assert np.array_equal(a.image, b.image)
    assert [m.id for m in a.markers] == [m.id for m in b.markers]
    assert not np.array_equal(a.image, c.image)


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_an_easy_scene_of_each_family_is_read(detector: MarkerDetector, family: str) -> None:
    """Severity 0: Herald finds >= 90 % of the markers with no false id, and the ground-truth
    corners agree with what OpenCV's own detector measures (within 1.5 px: the truth,
    including lens distortion, is where the marker really is)."""
    scene = family_scene(family, 11, 0.0)
    assert len(scene.markers) >= 15
    tally = Tally()
    found = detector.detect(scene.image)
    score(scene, [(m.id, m.center) for m in found], tally)
    assert tally.false == 0
    assert tally.found >= 0.9 * tally.markers
    by_id = {t.id: t for t in scene.markers}
    errors = []
    for m in found:
        t = by_id[m.id]
        errors.append(float(np.abs(np.asarray(m.corners) - t.corners).max()))
    assert np.median(errors) < 1.5


def test_no_id_on_a_clutter_only_scene(detector: MarkerDetector) -> None:
    """Cards, dice, board art, other dictionaries' markers and bit patterns that are no code
    of 4x4_250, at full severity: nothing is reported."""
    scene = family_scene("clutter", 3, 1.0, clutter_only=True)
    assert scene.markers == [] and scene.partial == []
    assert detector.detect(scene.image) == []


def test_soft_read_needs_the_code_and_refuses_its_neighbours(detector: MarkerDetector) -> None:
    """The third pass's own bit read: a clean marker reads as itself, not as another id, and a
    pattern two bits from the code (no valid code nearer) is refused."""
    d = detector.dictionary
    raw = cv2.aruco.generateImageMarker(d, 30, 120)
    img = cv2.copyMakeBorder(raw, 30, 30, 30, 30, cv2.BORDER_CONSTANT, value=255)
    pts = np.array([[30, 30], [150, 30], [150, 150], [30, 150]], dtype=np.float64)
    assert detector.soft_read(img, pts, 30) is not None
    assert detector.soft_read(img, pts, 31) is None
    cell = 20
    damaged = img.copy()
    for r, c in ((1, 1), (2, 3)):  # flip two inner cells
        y, x = 30 + (r + 1) * cell, 30 + (c + 1) * cell
        damaged[y : y + cell, x : x + cell] = 255 - damaged[y : y + cell, x : x + cell]
    assert detector.soft_read(damaged, pts, 30) is None


def test_labelled_opencv_photographs_are_read() -> None:
    """OpenCV's tutorial photographs (6x6_250): every marker of the marker sheet and at least
    16 of the 17 ChArUco markers, no false id (labels: tests/data/opencv_photos/labels.json)."""
    labels = load_labels()
    assert "Apache" in labels["licence"]
    figures = labelled_figures(PHOTOS)
    sheet = figures["photos"]["singlemarkersoriginal.jpg"]
    assert sheet["herald"] == {"found": 6, "false_ids": 0}
    board = figures["photos"]["choriginal.jpg"]
    assert board["herald"]["found"] >= 16
    assert board["herald"]["false_ids"] == 0
