"""Card faces in a box: a photograph of a card enrolled once, kept in the box as a PNG, and read
back as the camera's card library when the table plays on that box.

A photograph may come from any phone, so its size is read from its header and an oversized one
refused before it is decoded; a large one is decoded at a reduced scale (JPEG's own DCT scaling)
and kept at the size the matcher describes faces at, so a box stays small.
"""

from __future__ import annotations

import io
import json
import re
import struct
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import JpegImagePlugin, PngImagePlugin

from .errors import BoxError
from .file import DATA_DIR, FACES_DIR, Box, make_box

MAX_PHOTO_SIDE = 12000
"""A photograph larger than this on a side is refused unread (a phone's is about 4000)."""
FACE_LONG_SIDE = 800
"""The long side a face is kept at: enough for the matcher's keypoints, small in a box."""
FACE_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,79}")


def image_size(raw: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG's or a JPEG's header, without decoding a pixel (Pillow's
    readers stop at the header, as ``bridge.web.phonecam.jpeg_size`` reads a phone's frames);
    None for neither."""
    for reader in (PngImagePlugin.PngImageFile, JpegImagePlugin.JpegImageFile):
        try:
            picture = reader(io.BytesIO(raw))
        except (SyntaxError, OSError, ValueError, IndexError, struct.error):
            continue
        width, height = picture.size
        picture.close()
        return int(width), int(height)
    return None


def face_png(raw: bytes, name: str = "photo") -> bytes:
    """The photograph ``raw`` (PNG or JPEG) as the PNG a box keeps; ``BoxError`` for a file that
    is not a picture, too large, or that cannot be decoded."""
    size = image_size(raw)
    if size is None:
        raise BoxError("box/bad-photo", name=name)
    width, height = size
    if not (0 < width <= MAX_PHOTO_SIDE and 0 < height <= MAX_PHOTO_SIDE):
        raise BoxError("box/photo-too-large", name=name, width=width, height=height,
                       limit=MAX_PHOTO_SIDE)  # fmt: skip
    reduce = max(width, height) / FACE_LONG_SIDE
    flag = cv2.IMREAD_COLOR
    for factor, reduced in ((8, cv2.IMREAD_REDUCED_COLOR_8), (4, cv2.IMREAD_REDUCED_COLOR_4),
                            (2, cv2.IMREAD_REDUCED_COLOR_2)):  # fmt: skip
        if reduce >= factor:
            flag = reduced
            break
    image = cv2.imdecode(np.frombuffer(raw, np.uint8), flag)
    if image is None:
        raise BoxError("box/bad-photo", name=name)
    long_side = max(image.shape[:2])
    if long_side > FACE_LONG_SIDE:
        scale = FACE_LONG_SIDE / long_side
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    ok, png = cv2.imencode(".png", image)
    if not ok:
        raise BoxError("box/bad-photo", name=name)
    return bytes(png.tobytes())


def card_ids(box: Box) -> set[str]:
    """Every ``id`` the box's data name (its cards, tokens, Knights…): a face enrolls one of
    them, so a face never names a card the box does not have."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("id"), str):
                found.add(node["id"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for member, raw in box.members.items():
        if member.startswith(DATA_DIR) and member.endswith(".json"):
            walk(json.loads(raw.decode("utf-8")))
    return found


def with_face(box: Box, face_id: str, photo: bytes) -> Box:
    """``box`` with the face of card ``face_id`` enrolled from ``photo`` (a new box: a new
    digest; the face of a card enrolled before is replaced)."""
    if not FACE_ID.fullmatch(face_id) or face_id not in card_ids(box):
        raise BoxError("box/face-unknown-card", card=face_id[:80])
    members = {**box.members, f"{FACES_DIR}{face_id}.png": face_png(photo, face_id)}
    return make_box(box.game, box.name, box.data, members)


def write_faces(box: Box, folder: Path) -> list[Path]:
    """The box's faces as PNG files in ``folder`` (named by face id), for enrolling into the
    camera's library (``vision.library.enroll``)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for face_id, raw in sorted(box.faces().items()):
        path = folder / f"{face_id}.png"
        path.write_bytes(raw)
        paths.append(path)
    return paths
