"""Standard six-sided dice read by their pips, in the dice tray.

The tray is rectified to a top-down view first (``rectify``), so a die has a known size in
pixels and perspective no longer squashes its pips. In that view a die is a bright, roughly
square blob on the darker felt; its pips are small, round, dark blobs inside it. A blob whose
pip count is not 1..6, or whose pips are not round, is reported as unreadable rather than
guessed (a die on its edge, a die under a hand).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.config import DiceConfig

Image = NDArray[np.uint8]
FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class DieRead:
    """One die in the tray view.

    Attributes:
        value: Pips on the top face, 1..6, or None when the die could not be read.
        center: Centre in the coordinates of the view it was read from.
        confidence: 0..1, lower when pips are few pixels or not quite round.
    """

    value: int | None
    center: tuple[float, float]
    confidence: float


def rectify(
    image: Image, to_image: FloatArray, rect_mm: tuple[float, float, float, float], px_per_mm: float
) -> tuple[Image, FloatArray]:
    """Top-down view of a board rectangle and the view→image homography.

    Args:
        image: The camera frame.
        to_image: 3x3 board-mm → image-px homography (inverse of the calibration's).
        rect_mm: (x, y, w, h) of the region in board mm.
        px_per_mm: Resolution of the view.
    """
    x, y, w, h = rect_mm
    size = (round(w * px_per_mm), round(h * px_per_mm))
    view_to_mm = np.array([[1 / px_per_mm, 0, x], [0, 1 / px_per_mm, y], [0, 0, 1]])
    view_to_image = to_image @ view_to_mm
    view = cv2.warpPerspective(image, np.linalg.inv(view_to_image), size, flags=cv2.INTER_LINEAR)
    return np.asarray(view, dtype=np.uint8), np.asarray(view_to_image, dtype=np.float64)


def read_dice(view: Image, cfg: DiceConfig | None = None) -> list[DieRead]:
    """All dice in a (rectified) tray view, left to right."""
    cfg = cfg or DiceConfig()
    gray = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY) if view.ndim == 3 else view
    gray = cv2.GaussianBlur(gray, (0, 0), 1.0)
    _, bright = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Close the pips so each die is one solid blob.
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
    solid = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, k)
    contours, _ = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out: list[DieRead] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if not cfg.die_min_area_px <= area <= cfg.die_max_area_px:
            continue
        (cx, cy), (rw, rh), _ = cv2.minAreaRect(contour)
        if min(rw, rh) / max(rw, rh, 1e-9) < cfg.min_squareness or area / (rw * rh) < 0.7:
            continue
        out.append(
            _read_one(
                np.asarray(gray, np.uint8), np.asarray(contour, np.int32), (cx, cy), area, cfg
            )
        )
    return sorted(out, key=lambda d: (d.center[0], d.center[1]))


PHOTO_LONG_SIDE_PX = 1920
"""A photo read for dice anywhere is shrunk to this long side first: ``DiceConfig``'s die areas
are for a tray view or a table camera, where a die is 15-140 px across."""


def find_dice(
    image: Image, cfg: DiceConfig | None = None
) -> list[tuple[DieRead, tuple[float, float]]]:
    """Dice anywhere in a photo (no board, no tray), each with its centre in image pixels.

    The tray view is only a convenience for the reading: a white die with dark pips is the same
    bright square blob on any darker ground, and a blob whose pips are no die face stays
    unreadable. A large photo is shrunk so a die falls in the size range the config allows.
    """
    h, w = image.shape[:2]
    k = min(1.0, PHOTO_LONG_SIDE_PX / max(h, w))
    view = image if k == 1.0 else cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    dice = read_dice(np.asarray(view, np.uint8), cfg)
    return [(d, (d.center[0] / k, d.center[1] / k)) for d in dice]


_GRID = (0.27, 0.5, 0.73)


def _valid_patterns() -> dict[bytes, int]:
    """The 3x3 pip patterns of faces 1..6, in both right-angle orientations."""
    base = {
        1: ["...", ".o.", "..."],
        2: ["o..", "...", "..o"],
        3: ["o..", ".o.", "..o"],
        4: ["o.o", "...", "o.o"],
        5: ["o.o", ".o.", "o.o"],
        6: ["o.o", "o.o", "o.o"],
    }
    out: dict[bytes, int] = {}
    for value, rows in base.items():
        grid = np.array([[ch == "o" for ch in row] for row in rows], dtype=np.uint8)
        for r in range(4):
            out[np.rot90(grid, r).tobytes()] = value
    return out


_PATTERNS = _valid_patterns()


def _read_one(
    gray: Image,
    contour: NDArray[np.int32],
    center: tuple[float, float],
    area: float,
    cfg: DiceConfig,
) -> DieRead:
    """Sample the nine places a pip can be and accept only a real die face's pattern.

    At 25 px per die the pips of a six blur into two bars, so counting blobs fails; sampling
    the fixed pip grid in the die's own frame does not, and a pattern no die can show (a hand,
    a die on its edge) is reported unreadable.
    """
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
    side = (rw + rh) / 2.0
    a = np.radians(angle)
    ux = np.array([np.cos(a), np.sin(a)])
    uy = np.array([-np.sin(a), np.cos(a)])
    radius = max(1, round(side * cfg.pip_radius_ratio))
    samples = np.zeros((3, 3))
    for j, fy in enumerate(_GRID):
        for i, fx in enumerate(_GRID):
            p = np.array([cx, cy]) + ux * (fx - 0.5) * side + uy * (fy - 0.5) * side
            x, y = round(p[0]), round(p[1])
            patch = gray[max(0, y - radius) : y + radius + 1, max(0, x - radius) : x + radius + 1]
            samples[j, i] = float(patch.mean()) if patch.size else 255.0
    mask = np.zeros_like(gray)
    cv2.drawContours(mask, [contour], -1, 255, -1)
    face_white = float(np.percentile(gray[mask > 0], 90))
    darkest = float(samples.min())
    gap = face_white - darkest
    if gap < cfg.min_pip_contrast:
        return DieRead(None, (cx, cy), 0.0)
    threshold = darkest + gap / 2.0
    pattern = (samples < threshold).astype(np.uint8)
    value = _PATTERNS.get(pattern.tobytes())
    if value is None:
        return DieRead(None, (cx, cy), 0.0)
    # Confidence: how far the least clear sample sits from the threshold.
    margin = float(np.min(np.abs(samples - threshold))) / (gap / 2.0)
    return DieRead(value, (cx, cy), round(min(1.0, margin), 3))
