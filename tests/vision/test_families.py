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
from vision.family_bench import Tally, detectors, score
from vision.markers import MarkerDetector, usable_ids
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
    # a marker partly under the stickers family's hand, read at its place, is no false id
    by_id = {t.id: t for t in scene.markers + scene.partial}
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


def test_the_stickers_family_draws_what_issue_29_describes() -> None:
    """One printed size (sides differ only by the mild perspective), about 30 px, JPEG 70, a
    hand over part of the table (markers under it are not counted), weak codes among the ids."""
    scene = family_scene("stickers", 21)
    sides = [t.side_px for t in scene.markers]
    assert min(sides) >= 26 and max(sides) <= 40 and max(sides) / min(sides) < 1.4
    assert scene.params["jpeg_quality"] == 70 and scene.params["occluders"] == 1
    assert scene.partial  # some markers lie partly under the hand
    weak = set(range(250)) - set(usable_ids("4x4_250"))
    assert any(t.id in weak for t in scene.markers + scene.partial) or any(
        t.id in weak for t in family_scene("stickers", 22).markers
    )


def test_herald_reads_the_stickers_family_at_least_as_well_as_the_adapted_baseline() -> None:
    """Issue 29 point 1 on two fixed scenes at full severity (seeds 21-22; the bench's held-out
    seeds are 50 000+): Herald's recall >= OpenCV's adapted parameters' and >= 0.95, no false
    id, weak codes read."""
    dets = detectors()
    tallies = {name: Tally() for name in ("herald", "opencv_adapted")}
    weak = set(range(250)) - set(usable_ids("4x4_250"))
    weak_read = 0
    for seed in (21, 22):
        scene = family_scene("stickers", seed)
        for name, tally in tallies.items():
            reads = dets[name](scene.image)
            score(scene, reads, tally)
            if name == "herald":
                weak_read += sum(mid in weak for mid, _ in reads)
    herald, adapted = tallies["herald"], tallies["opencv_adapted"]
    assert herald.false == 0
    assert herald.found >= adapted.found
    assert herald.found >= 0.95 * herald.markers
    assert weak_read > 0


def test_a_die_on_felt_is_no_marker(detector: MarkerDetector) -> None:
    """A die's white face with dark pips on dark felt once read as a 4x4 code in the third pass
    (the felt as its "border"): the quiet-zone ring refuses it."""
    from vision.art import die_face

    frame = np.full((240, 320), 30, np.uint8)
    for k, value in enumerate((2, 3, 4, 5, 6)):
        face, mask = die_face(value, 34)
        grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
        x, y = 20 + 58 * k, 100
        region = frame[y : y + 34, x : x + 34]
        region[mask > 0] = grey[mask > 0]
    frame = cv2.GaussianBlur(frame, (0, 0), 1.2)
    assert detector.detect(frame) == []


def test_a_card_is_found_in_a_real_photograph() -> None:
    """OpenCV's feature-matching pair (issue 29 point 5): the box top enrolled as a face is
    found in the real photograph of a table of objects, and nothing is claimed elsewhere."""
    from vision.real_photos import card_figures

    figures = card_figures()
    assert figures["photos"]["box_in_scene.png"]["herald"] == {"found": 1, "false_claims": 0}
