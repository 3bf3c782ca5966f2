"""Frame sources: a video file written with cv2.VideoWriter, an image folder, errors, the sim."""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import cv2
import numpy as np
import pytest

from bridge.game_files import camera_profile
from engine.i18n import has_message
from vision.sources import (
    CaptureSource,
    FolderSource,
    Frame,
    SimulatedSource,
    SourceError,
    open_source,
)

MA_BOARD = camera_profile("middle-ages")
"""The board profile Middle Ages ships (its package's camera/profile.json)."""


def _pictures(n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(404)
    out = []
    for k in range(n):
        img = np.full((48, 64, 3), 40 * k, np.uint8)
        img[8:40, 8:56] = rng.integers(0, 256, (32, 48, 3), dtype=np.uint8)
        out.append(img)
    return out


def test_video_file_frames_in_order(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    assert writer.isOpened()
    for img in _pictures(5):
        writer.write(img)
    writer.release()
    src = open_source(str(path))
    assert isinstance(src, CaptureSource)
    frames = list(src)
    src.close()
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]
    assert frames[1].time == pytest.approx(0.1)
    assert frames[0].image.shape == (48, 64, 3)
    means = [float(f.image[0:6, 0:6].mean()) for f in frames]
    assert means == sorted(means) and abs(means[4] - 160) < 12  # the border shade per frame


def test_image_folder_sorted_and_looping(tmp_path: Path) -> None:
    for k, img in enumerate(_pictures(3)):
        cv2.imwrite(str(tmp_path / f"f{2 - k}.png"), img)  # names sort in reverse order
    (tmp_path / "notes.txt").write_text("not an image")
    once = list(FolderSource(tmp_path))
    assert [int(f.image[0, 0, 0]) for f in once] == [80, 40, 0]
    looped = list(islice(open_source(str(tmp_path), loop=True), 7))
    assert [f.index for f in looped] == list(range(7))
    assert [int(f.image[0, 0, 0]) for f in looped] == [80, 40, 0, 80, 40, 0, 80]


def test_errors_name_a_catalog_sentence(tmp_path: Path) -> None:
    cases = [
        (lambda: open_source(str(tmp_path / "missing.mp4")), "vision/source-no-file"),
        (lambda: FolderSource(tmp_path / "nowhere"), "vision/source-no-folder"),
        (lambda: FolderSource(tmp_path), "vision/source-empty-folder"),
        (lambda: open_source("sim:abc"), "vision/source-bad-spec"),
    ]
    bad = tmp_path / "fake.mp4"
    bad.write_bytes(b"not a video at all")
    cases.append((lambda: CaptureSource(bad), "vision/source-bad-video"))
    for make, code in cases:
        with pytest.raises(SourceError) as info:
            make()
        assert info.value.code == code and has_message(code)
        assert str(info.value.params.get("path", "")) in info.value.text()
    with pytest.raises(SourceError) as info:
        CaptureSource(57)  # no such camera device on any test machine
    assert info.value.code == "vision/source-no-device" and "57" in info.value.text()
    assert has_message("vision/source-no-stream")


def test_simulated_table_is_a_source() -> None:
    src = open_source("sim:3", profile=MA_BOARD)
    assert isinstance(src, SimulatedSource)
    first = next(iter(src))
    assert isinstance(first, Frame) and first.index == 0
    assert first.image.shape == (1080, 1920, 3) and first.image.dtype == np.uint8
