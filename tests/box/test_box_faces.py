"""Card faces in a box (issue #24 point 3, the camera's half): a Viscounts card's face enrolled
from one photograph is kept in the box and recognised by the camera's card matcher in a frame it
has never seen (rotated, smaller, tilted, on another background); bad photographs are refused."""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from bridge.box.errors import BoxError
from bridge.box.faces import face_png, image_size, with_face, write_faces
from bridge.box.file import read_box
from bridge.cli import main
from bridge.cli.serve import _box_faces
from vision.art import stand_in_art
from vision.cards import Matcher
from vision.library import Library, enroll

from .box_support import exported


def _photo(key: str) -> bytes:
    """A phone-sized JPEG of a card's art on a table, slightly rotated: what a group takes."""
    art = stand_in_art(key, 630, 880)
    ok, jpeg = cv2.imencode(".jpg", art, [cv2.IMWRITE_JPEG_QUALITY, 88])
    assert ok
    return bytes(jpeg.tobytes())


def _frame(art: np.ndarray) -> np.ndarray:
    """A camera frame holding ``art`` rotated by 25°, at half size, its far edge narrower."""
    canvas = np.full((720, 1280, 3), (70, 95, 60), np.uint8)
    h, w = art.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    a = np.radians(25)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    local = (src - (w / 2, h / 2)) * 0.4
    local[:2, 0] *= 0.9
    dst = (local @ rot.T + (640, 360)).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(art, m, (1280, 720))
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, (1280, 720))
    canvas[mask > 0] = warped[mask > 0]
    return canvas


def test_a_viscounts_card_enrolled_in_a_box_is_recognised_in_a_frame(tmp_path: Path) -> None:
    box = with_face(exported("viscounts", "stand-in"), "woodcutter", _photo("our-woodcutter"))
    back = read_box(box.to_bytes())
    assert set(back.faces()) == {"woodcutter"}
    enroll(write_faces(back, tmp_path / "photos"), tmp_path / "lib")
    matcher = Matcher(Library.load(tmp_path / "lib"))
    seen = matcher.find(_frame(stand_in_art("our-woodcutter", 630, 880)))
    assert [m.id for m in seen] == ["woodcutter"]
    assert matcher.find(_frame(stand_in_art("another-card", 630, 880))) == []


def test_serving_on_a_box_with_faces_gives_the_camera_its_library(tmp_path: Path) -> None:
    box = with_face(exported("viscounts", "stand-in"), "woodcutter", _photo("our-woodcutter"))
    path = tmp_path / "ours.herald-box"
    path.write_bytes(box.to_bytes())
    folder = _box_faces(str(path), str(tmp_path / "t.db"))
    assert folder is not None and Library.load(folder).ids() == ["woodcutter"]
    assert _box_faces(str(path), str(tmp_path / "t.db")) == folder  # made once per box
    plain = tmp_path / "plain.herald-box"
    plain.write_bytes(exported("viscounts", "stand-in").to_bytes())
    assert _box_faces(str(plain), str(tmp_path / "t.db")) is None


def _jpeg_claiming(width: int, height: int) -> bytes:
    """A tiny JPEG whose header claims ``width``×``height`` (a decompression bomb)."""
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + sof + b"\xff\xd9"


def test_bad_photographs_and_unknown_cards_are_refused() -> None:
    box = exported("viscounts", "stand-in")
    assert image_size(_jpeg_claiming(16000, 16000)) == (16000, 16000)
    with pytest.raises(BoxError) as caught:
        face_png(_jpeg_claiming(16000, 16000))
    assert caught.value.code == "box/photo-too-large"
    for raw in (b"not a picture", _jpeg_claiming(100, 100)):
        with pytest.raises(BoxError) as caught:
            face_png(raw)
        assert caught.value.code == "box/bad-photo"
    for card in ("no-such-card", "../woodcutter"):
        with pytest.raises(BoxError) as caught:
            with_face(box, card, _photo("x"))
        assert caught.value.code == "box/face-unknown-card"


def test_the_cli_enrols_a_face(tmp_path: Path) -> None:
    source, photo, out = tmp_path / "a.herald-box", tmp_path / "p.jpg", tmp_path / "b.herald-box"
    source.write_bytes(exported("viscounts", "stand-in").to_bytes())
    photo.write_bytes(_photo("our-woodcutter"))
    result = CliRunner().invoke(main, ["box", "face", str(source), "woodcutter", str(photo),
                                       "-o", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert set(read_box(out.read_bytes()).faces()) == {"woodcutter"}
    result = CliRunner().invoke(main, ["box", "face", str(source), "dragon", str(photo),
                                       "-o", str(out)])  # fmt: skip
    assert result.exit_code == 2 and "dragon" in result.stderr
