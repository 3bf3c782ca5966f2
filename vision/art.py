"""Procedural stand-in art for tiles, cards and dice, deterministic from a name.

Real component art is copyrighted and not in the repository, so tests and the simulated table
draw their own: every face is a pure function of its key (``"tile-07"``, ``"card-E4"``), seeded
through SHA-256, so the same key gives the same picture on every machine and two keys give
unrelated pictures. The pictures are busy on purpose (shapes, strokes, glyphs) because real card
art is, and local-feature matching needs corners to bite on.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]

_GLYPHS = "ABCDEFGHKLMNPRSTVWXZ0123456789"


def rng_for(key: str) -> np.random.Generator:
    """A generator seeded from ``key`` alone (stable across runs and platforms)."""
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def stand_in_art(key: str, width: int, height: int) -> Image:
    """A busy, unique, BGR face picture for ``key`` at ``width`` x ``height`` pixels."""
    return _art(key, width, height).copy()


@lru_cache(maxsize=256)
def _art(key: str, width: int, height: int) -> Image:
    rng = rng_for("art:" + key)
    # Work at a fixed reference size so the picture is the same at any output resolution.
    ref_w, ref_h = 300, round(300 * height / width)
    c0 = rng.integers(30, 226, 3)
    c1 = rng.integers(30, 226, 3)
    t = np.linspace(0.0, 1.0, ref_h, dtype=np.float32)[:, None, None]
    column = (c0[None, None, :] * (1 - t) + c1[None, None, :] * t).astype(np.uint8)
    img = np.ascontiguousarray(np.repeat(column, ref_w, axis=1))  # rows are uniform
    for _ in range(int(rng.integers(55, 80))):
        color = tuple(int(v) for v in rng.integers(0, 256, 3))
        kind = int(rng.integers(0, 5))
        x, y = int(rng.integers(0, ref_w)), int(rng.integers(0, ref_h))
        if kind == 0:
            cv2.circle(img, (x, y), int(rng.integers(6, 40)), color, -1, cv2.LINE_AA)
        elif kind == 1:
            pts = rng.integers(-45, 45, (int(rng.integers(3, 6)), 2)) + np.array((x, y))
            cv2.fillPoly(img, [pts.astype(np.int32)], color, cv2.LINE_AA)
        elif kind == 2:
            x2, y2 = x + int(rng.integers(-120, 120)), y + int(rng.integers(-120, 120))
            cv2.line(img, (x, y), (x2, y2), color, int(rng.integers(2, 8)), cv2.LINE_AA)
        elif kind == 3:
            axes = (int(rng.integers(8, 50)), int(rng.integers(5, 30)))
            angle = float(rng.uniform(0, 180))
            cv2.ellipse(img, (x, y), axes, angle, 0, 360, color, -1, cv2.LINE_AA)
        else:
            text = "".join(_GLYPHS[int(i)] for i in rng.integers(0, len(_GLYPHS), 2))
            scale = float(rng.uniform(0.8, 2.0))
            cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_DUPLEX, scale, color, 2, cv2.LINE_AA)
    # A title banner and a text box, as real cards and tiles have.
    banner = tuple(int(v) for v in rng.integers(0, 256, 3))
    cv2.rectangle(img, (10, 10), (ref_w - 10, 42), banner, -1)
    title = "".join(_GLYPHS[int(i)] for i in rng.integers(0, len(_GLYPHS), 7))
    cv2.putText(
        img, title, (18, 36), cv2.FONT_HERSHEY_TRIPLEX, 0.9, (255, 255, 255), 2, cv2.LINE_AA
    )
    if ref_h > ref_w:
        top = int(ref_h * 0.68)
        cv2.rectangle(img, (14, top), (ref_w - 14, ref_h - 14), (225, 232, 236), -1)
        for row in range(4):
            words = "".join(_GLYPHS[int(i)] for i in rng.integers(0, len(_GLYPHS), 12))
            org = (22, top + 26 + row * 28)
            cv2.putText(
                img, words, org, cv2.FONT_HERSHEY_SIMPLEX, 0.65, (40, 40, 40), 1, cv2.LINE_AA
            )
    cv2.rectangle(img, (0, 0), (ref_w - 1, ref_h - 1), (240, 240, 240), 6)
    interp = cv2.INTER_AREA if width < ref_w else cv2.INTER_CUBIC
    return np.asarray(cv2.resize(img, (width, height), interpolation=interp), dtype=np.uint8)


def card_back(width: int, height: int) -> Image:
    """The one shared back of every card and tile (never enrolled, never matched)."""
    img = np.full((height, width, 3), (90, 40, 30), dtype=np.uint8)
    step = max(4, width // 8)
    for k in range(-height, width, step):
        cv2.line(img, (k, 0), (k + height, height), (120, 70, 50), max(1, step // 4))
    cv2.rectangle(img, (0, 0), (width - 1, height - 1), (200, 200, 200), max(1, width // 40))
    return img


PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def die_face(value: int, size: int) -> tuple[Image, NDArray[np.uint8]]:
    """Top face of a white die showing ``value``, and its alpha mask (rounded corners)."""
    if value not in PIP_LAYOUT:
        raise ValueError(f"a six-sided die shows 1..6, not {value}")
    img = np.full((size, size, 3), 236, dtype=np.uint8)
    mask = np.zeros((size, size), dtype=np.uint8)
    r = max(2, size // 7)
    cv2.rectangle(mask, (r, 0), (size - 1 - r, size - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (size - 1, size - 1 - r), 255, -1)
    for cx, cy in ((r, r), (size - 1 - r, r), (r, size - 1 - r), (size - 1 - r, size - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    pip_r = max(2, round(size * 0.09))
    for fx, fy in PIP_LAYOUT[value]:
        center = (round(fx * (size - 1)), round(fy * (size - 1)))
        cv2.circle(img, center, pip_r, (25, 25, 25), -1, cv2.LINE_AA)
    return img, mask
