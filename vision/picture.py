"""Image helpers shared by the face library, the card matcher and the slot classifier."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.config import MatchConfig

Image = NDArray[np.uint8]
FloatArray = NDArray[np.float64]


def features(cfg: MatchConfig, n: int) -> cv2.Feature2D:
    if cfg.features == "sift":
        sift: cv2.Feature2D = cv2.SIFT_create(  # type: ignore[attr-defined]
            nfeatures=n, contrastThreshold=cfg.sift_contrast
        )
        return sift
    if cfg.features == "orb":
        orb: cv2.Feature2D = cv2.ORB_create(nfeatures=n)  # type: ignore[attr-defined]
        return orb
    raise ValueError(f"unknown feature type {cfg.features!r} (use 'sift' or 'orb')")


def gray(image: Image) -> Image:
    if image.ndim == 3:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    return image


def normalise_light(gray: Image, cfg: MatchConfig) -> Image:
    """Local contrast equalisation (CLAHE): a dim corner of the table keeps its features."""
    if cfg.clahe_clip <= 0:
        return gray
    clahe = cv2.createCLAHE(clipLimit=cfg.clahe_clip, tileGridSize=(8, 8))
    return np.asarray(clahe.apply(gray), dtype=np.uint8)


def cells(image: NDArray[np.float32], grid: tuple[int, int]) -> NDArray[np.float32]:
    """Split a (h, w, 3) image into ``grid`` (columns, rows) cells; each cell's channels are
    made zero-mean and unit-norm, so a dot product is the per-channel correlation."""
    cols, rows = grid
    h, w = image.shape[:2]
    ch, cw = h // rows, w // cols
    x = image[: ch * rows, : cw * cols].reshape(rows, ch, cols, cw, 3)
    x = x.transpose(0, 2, 1, 3, 4).reshape(rows * cols, ch * cw, 3)
    x = x - x.mean(axis=1, keepdims=True)
    return np.asarray(x / (np.sqrt((x * x).sum(axis=1, keepdims=True)) + 1e-3), np.float32)
