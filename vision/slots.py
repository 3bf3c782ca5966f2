"""Tiles in fixed board slots, read by rectified colour correlation (see ``SlotClassifier``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision import picture

Image = NDArray[np.uint8]
FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class SlotRead:
    """What lies in one board slot: a face id (or None for empty/unknown) and its score."""

    region: str
    id: str | None
    score: float
    rotation_deg: int = 0


class SlotClassifier:
    """Reads the tile in each fixed board slot by rectified colour correlation.

    Tiles in a board's slots sit in known places of a calibrated board, so the slot can be
    rectified to a fixed top-down view and compared with every enrolled face. At 60-90 px per
    tile this is more reliable than local features, which find too few keypoints on so small a
    face. Two stages:

    1. **Rank** every face at its four right-angle rotations by grey correlation at half size
       (``size_px / 2``, all shifts, one matrix product for all faces).
    2. **Align and score** the ``top_k`` faces at full size: the tile lies up to a few degrees
       off square, so each is tried at ``angles`` around its right angle and small shifts; the
       aligned patch is then compared cell by cell (``cells`` x ``cells``), each cell's colour
       channels correlated separately and clipped at 0, and the cells averaged. Per-cell
       normalisation makes the score indifferent to a light gradient or glare across the tile,
       and a hand or another piece over part of the tile only lowers the cells it covers,
       instead of letting a smooth shading pattern pass for a face.

    The "never claim the unknown" rule: the best face must score at least ``min_score`` and
    beat the next face by ``min_margin``; otherwise the slot reads as empty/unknown (``None``).
    """

    def __init__(
        self,
        faces: dict[str, Image],
        size_px: int = 40,
        margin_px: int = 5,
        min_score: float = 0.6,
        min_margin: float = 0.2,
        angles: Sequence[float] = (-4.0, 0.0, 4.0),
        top_k: int = 3,
        cells: int = 3,
    ) -> None:
        self.size = size_px
        self.margin = margin_px
        self.min_score = min_score
        self.min_margin = min_margin
        self.top_k = top_k
        self.cells = cells
        self.ids = list(faces)
        self._half = size_px // 2
        self._half_inner = round(self._half * 0.8)
        self._inner = round(size_px * 0.8) // cells * cells
        # Fine templates: per (face, right angle), per small angle: grey, colour cells.
        self._fine: list[list[list[tuple[NDArray[np.float32], NDArray[np.float32]]]]] = []
        coarse: list[NDArray[np.float32]] = []
        o = (size_px - self._inner) // 2
        oc = (self._half - self._half_inner) // 2
        for image in faces.values():
            bgr: Image = np.asarray(
                image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), np.uint8
            )
            big = cv2.resize(bgr, (2 * size_px, 2 * size_px), interpolation=cv2.INTER_AREA)
            half = cv2.resize(
                picture.gray(bgr), (self._half, self._half), interpolation=cv2.INTER_AREA
            )
            half = cv2.GaussianBlur(half, (0, 0), 0.6).astype(np.float32)
            per_rot = []
            for r in range(4):
                turned = np.ascontiguousarray(np.rot90(big, -r))
                per_angle = []
                for a in angles:
                    m = np.asarray(
                        cv2.getRotationMatrix2D((size_px - 0.5, size_px - 0.5), a, 0.5), np.float64
                    )
                    m[:, 2] -= (size_px - 0.5) * 0.5  # centre of the 2x picture -> centre
                    small = cv2.warpAffine(
                        turned, m, (size_px, size_px), flags=cv2.INTER_AREA,
                        borderMode=cv2.BORDER_REPLICATE,
                    )  # fmt: skip
                    blurred = np.asarray(cv2.GaussianBlur(small, (0, 0), 0.8), np.float32)
                    tpl = np.ascontiguousarray(blurred[o : o + self._inner, o : o + self._inner])
                    grey = np.asarray(cv2.cvtColor(tpl, cv2.COLOR_BGR2GRAY), np.float32)
                    per_angle.append((grey, picture.cells(tpl, (cells, cells))))
                per_rot.append(per_angle)
                rot = np.rot90(half, -r)[oc : oc + self._half_inner, oc : oc + self._half_inner]
                coarse.append(_unit_rows(rot.reshape(1, -1))[0])
            self._fine.append(per_rot)
        self._coarse = (
            np.ascontiguousarray(np.stack(coarse).T, np.float32)
            if coarse
            else np.zeros((self._half_inner**2, 0), np.float32)
        )

    @classmethod
    def from_library_dir(cls, directory: str | Path, **kw: float) -> SlotClassifier:
        """Build from the face pictures stored in a library directory."""
        root = Path(directory)
        index = json.loads((root / "index.json").read_text(encoding="utf-8"))
        faces: dict[str, Image] = {}
        for entry in index.get("entries", []):
            image = cv2.imread(str(root / entry["image"]), cv2.IMREAD_COLOR)
            if image is not None and abs(image.shape[0] - image.shape[1]) <= 0.1 * image.shape[0]:
                faces[str(entry["id"])] = np.asarray(image, dtype=np.uint8)
        return cls(faces, **kw)  # type: ignore[arg-type]

    def read(self, view: Image, region: str = "") -> SlotRead:
        """Classify one rectified slot view (any size; it is resized to the working size)."""
        if not self.ids:
            return SlotRead(region, None, 0.0)
        full = self.size + 2 * self.margin
        bgr = view if view.ndim == 3 else cv2.cvtColor(view, cv2.COLOR_GRAY2BGR)
        crop = cv2.resize(bgr, (full, full), interpolation=cv2.INTER_AREA)
        crop = np.asarray(cv2.GaussianBlur(crop, (0, 0), 0.8), np.float32)
        grey = np.asarray(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), np.float32)
        # 1. Rank: every face x right angle, every shift, at half size.
        half = cv2.resize(grey, (full // 2, full // 2), interpolation=cv2.INTER_AREA)
        k = self._half_inner
        windows = np.lib.stride_tricks.sliding_window_view(half, (k, k))
        ny, nx = windows.shape[:2]
        patches = _unit_rows(windows.reshape(ny * nx, k * k))
        scores = np.asarray(cv2.gemm(patches, self._coarse, 1.0, None, 0.0))  # type: ignore[call-overload]
        best_shift = scores.argmax(axis=0)
        per_face = scores.max(axis=0).reshape(len(self.ids), 4)
        order = np.argsort(-per_face.max(axis=1), kind="stable")[: self.top_k]
        # 2. Align the best few at full size and score them cell by cell, in colour.
        scored: list[tuple[float, int, int]] = []
        f = self.size / self._half
        o = (self.size - self._inner) // 2
        oc = (self._half - self._half_inner) // 2
        n = self._inner
        reach = 3
        for i in order:
            r = int(per_face[i].argmax())
            sy, sx = divmod(int(best_shift[4 * i + r]), nx)
            x0 = round((sx - oc) * f) + o - reach
            y0 = round((sy - oc) * f) + o - reach
            x0, y0 = min(max(0, x0), full - n), min(max(0, y0), full - n)
            x1, y1 = min(full, x0 + n + 2 * reach), min(full, y0 + n + 2 * reach)
            window = grey[y0:y1, x0:x1]
            top = (-2.0, 0, 0, 0)
            for a, (tpl, _) in enumerate(self._fine[i][r]):
                res = cv2.matchTemplate(window, tpl, cv2.TM_CCOEFF_NORMED)
                _, val, _, (lx, ly) = cv2.minMaxLoc(res)
                if val > top[0]:
                    top = (val, a, lx, ly)
            _, a, lx, ly = top
            patch = np.asarray(crop[y0 + ly : y0 + ly + n, x0 + lx : x0 + lx + n], np.float32)
            ncc = (picture.cells(patch, (self.cells, self.cells)) * self._fine[i][r][a][1]).sum(
                axis=1
            )
            scored.append((float(np.clip(ncc.mean(axis=1), 0.0, 1.0).mean()), int(i), r))
        scored.sort(key=lambda s: -s[0])
        top_score, face, rot = scored[0]
        second = scored[1][0] if len(scored) > 1 else 0.0
        if top_score < self.min_score or top_score - second < self.min_margin:
            return SlotRead(region, None, round(max(top_score, 0.0), 3))
        return SlotRead(region, self.ids[face], round(top_score, 3), 90 * rot)


def _unit_rows(rows: NDArray[Any]) -> NDArray[np.float32]:
    """Rows made zero-mean and unit-norm (a dot product of two is their correlation)."""
    x = np.asarray(rows, np.float32)
    x = x - x.mean(axis=1, keepdims=True)
    return np.asarray(x / (np.linalg.norm(x, axis=1, keepdims=True) + 1e-6), np.float32)
