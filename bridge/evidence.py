"""The camera's picture of a move it read, for the audit trail (issue #17): scaled down, the
regions that changed since the last committed picture outlined, JPEG-encoded within the store's
bound (``bridge.store.FRAME_MAX_BYTES``, ``FRAME_MAX_SIDE``).

What changed is found on the pictures themselves, not on what the pipeline read: a blurred
absolute difference of the two settled frames at low resolution, thresholded, its blobs' boxes
merged when they touch. That outlines what a person would look at when a move is disputed (a
tile set down, a pawn moved) even where the pipeline read nothing.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from bridge.store import FRAME_MAX_BYTES, FRAME_MAX_SIDE

Image = NDArray[np.uint8]

DIFF_SCALE_PX = 320
"""Width the two frames are compared at."""

DIFF_THRESHOLD = 28
"""Grey-level difference (0-255, after a blur) that counts as changed."""

MIN_BOX_SHARE = 0.0004
"""A changed blob smaller than this share of the frame is noise, not a piece."""

MAX_BOXES = 12

BOX_PAD_PX = 4
"""Margin around each changed blob, in the compared picture's pixels (16 px of a 1280 px frame)."""

QUALITIES = (80, 68, 55, 42, 30)
"""JPEG qualities tried in turn until the picture fits ``FRAME_MAX_BYTES``."""

OUTLINE = (0, 0, 255)  # BGR red


def changed_boxes(before: Image | None, after: Image) -> list[tuple[int, int, int, int]]:
    """Boxes ``(x, y, w, h)`` in ``after``'s pixels around what differs from ``before`` (none
    without a ``before``, or when the sizes differ)."""
    if before is None or before.shape != after.shape:
        return []
    h, w = after.shape[:2]
    scale = min(1.0, DIFF_SCALE_PX / w)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    grey = [cv2.GaussianBlur(cv2.cvtColor(cv2.resize(im, size, interpolation=cv2.INTER_AREA),
                                          cv2.COLOR_BGR2GRAY), (5, 5), 0)
            for im in (before, after)]  # fmt: skip
    changed = np.where(cv2.absdiff(grey[0], grey[1]) > DIFF_THRESHOLD, 255, 0).astype(np.uint8)
    mask = cv2.dilate(changed, np.ones((5, 5), np.uint8), iterations=2)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    least = MIN_BOX_SHARE * size[0] * size[1]
    boxes = [cv2.boundingRect(c) for c in contours if cv2.contourArea(c) >= least]
    boxes.sort(key=lambda b: -b[2] * b[3])
    pad, out = BOX_PAD_PX, []
    for x, y, bw, bh in boxes[:MAX_BOXES]:  # padded: the outline must not hide the piece's edge
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(size[0], x + bw + pad), min(size[1], y + bh + pad)
        out.append((round(x0 / scale), round(y0 / scale), round((x1 - x0) / scale),
                    round((y1 - y0) / scale)))  # fmt: skip
    return out


def evidence_jpeg(after: Image, before: Image | None = None) -> tuple[bytes, dict[str, Any]]:
    """The stored picture of a move: ``after`` with what changed since ``before`` outlined,
    scaled to ``FRAME_MAX_SIDE``, as a JPEG of at most ``FRAME_MAX_BYTES``; and its metadata
    (size, the boxes in the stored picture's pixels, the quality used).

    Raises:
        ValueError: even the lowest quality does not fit (never for a picture this small).
    """
    boxes = changed_boxes(before, after)
    h, w = after.shape[:2]
    scale = min(1.0, FRAME_MAX_SIDE / max(w, h))
    picture = after.copy() if scale == 1.0 else cv2.resize(
        after, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)  # fmt: skip
    shown = [(round(x * scale), round(y * scale), round(bw * scale), round(bh * scale))
             for x, y, bw, bh in boxes]  # fmt: skip
    for x, y, bw, bh in shown:
        cv2.rectangle(picture, (x, y), (x + bw, y + bh), OUTLINE, 2)
    for quality in QUALITIES:
        ok, buf = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if ok and len(buf) <= FRAME_MAX_BYTES:
            meta = {"width": picture.shape[1], "height": picture.shape[0],
                    "boxes": [list(b) for b in shown], "quality": quality}  # fmt: skip
            return bytes(buf.tobytes()), meta
    raise ValueError("the camera frame does not fit the store's bound")
