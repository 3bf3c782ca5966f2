"""ArUco sticker markers: find them, re-read them at a second scale, and verify every one.

OpenCV's default ``DetectorParameters`` lose small markers on a real table in three ways: the
minimum perimeter (3 % of the frame's long side) drops anything under ~14 px, three threshold
windows miss thin borders under uneven light, and four pixels per cell misread blurred bits.
``MarkerDetector`` fixes the first two with tuned parameters, then takes every candidate quad
OpenCV found but could not decode and re-reads it in an upscaled, cubic-interpolated crop (the
"second scale"). Whatever either scale reports passes an independent check before it is
believed: sane geometry (convex, not too thin, not too small) and our own bit read of the warped
marker, which must match the dictionary code exactly with clear black/white separation. That
check is what keeps precision at 0.999+ while recall goes up: OpenCV's error correction is turned
off, so a texture can never be "corrected" into a valid ID.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.config import MarkerConfig

Corners = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]
FloatArray = NDArray[np.float64]
Image = NDArray[np.uint8]


class UnknownDictionaryError(ValueError):
    """The dictionary name is not one of OpenCV's predefined ArUco dictionaries."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown ArUco dictionary {name!r}")
        self.name = name


def available_dictionaries() -> list[str]:
    """Names accepted by ``dictionary_by_name``, lower case without the ``DICT_`` prefix."""
    names = {
        attr[len("DICT_") :].lower()
        for attr in dir(cv2.aruco)
        if attr.startswith("DICT_") and isinstance(getattr(cv2.aruco, attr), int)
    }
    return sorted(names)


def dictionary_by_name(name: str) -> cv2.aruco.Dictionary:
    """The predefined dictionary called ``name`` (``"4x4_250"``, ``"DICT_6X6_250"``, ...).

    Raises:
        UnknownDictionaryError: ``name`` is not a predefined dictionary.
    """
    key = name.strip().upper()
    if not key.startswith("DICT_"):
        key = "DICT_" + key
    value = getattr(cv2.aruco, key, None)
    if not isinstance(value, int):
        raise UnknownDictionaryError(name)
    return cv2.aruco.getPredefinedDictionary(value)


@dataclass(frozen=True)
class MarkerDetection:
    """One verified marker.

    Attributes:
        id: Marker ID in the dictionary.
        corners: Pixel corners in the marker's own order (top-left, top-right, bottom-right,
            bottom-left of the printed marker), so the orientation of the piece is known.
        contrast: Black/white separation of the bit cells, 0..1 of the full grey range; a
            confidence figure for the snapshot.
        scale: 1.0 when found on the frame itself, the upscale factor when found in a crop.
    """

    id: int
    corners: Corners
    contrast: float
    scale: float = 1.0

    @property
    def center(self) -> tuple[float, float]:
        """Centre of the four corners (pixels)."""
        pts = np.asarray(self.corners, dtype=np.float64)
        return float(pts[:, 0].mean()), float(pts[:, 1].mean())

    @property
    def side_px(self) -> float:
        """Mean side length (pixels)."""
        return float(np.mean(_sides(np.asarray(self.corners, dtype=np.float64))))

    @property
    def rotation_deg(self) -> float:
        """Direction of the marker's top edge in the image, degrees counter-clockwise."""
        pts = np.asarray(self.corners, dtype=np.float64)
        dx, dy = pts[1] - pts[0]
        return float(np.degrees(np.arctan2(-dy, dx)) % 360.0)


def _sides(pts: FloatArray) -> FloatArray:
    # Called thousands of times a frame on 4 x 2 arrays: plain slicing, not np.roll (whose
    # axis bookkeeping cost more than the arithmetic).
    d = np.concatenate((pts[1:], pts[:1])) - pts
    return np.asarray(np.sqrt((d * d).sum(axis=1)), dtype=np.float64)


def plausible_quad(pts: FloatArray, cfg: MarkerConfig) -> bool:
    """True when four points look like a flat square seen by a camera.

    Rejects self-intersecting or concave quads, slivers (side ratio), tiny quads and very sharp
    corners: a perspective view of a 10 mm square on a table never produces them, but a texture
    that fooled the decoder often does.
    """
    if pts.shape != (4, 2) or not np.all(np.isfinite(pts)):
        return False
    sides = _sides(pts)
    if sides.min() < cfg.min_side_px or sides.max() / max(sides.min(), 1e-9) > cfg.max_side_ratio:
        return False
    if not cv2.isContourConvex(pts.astype(np.float32).reshape(-1, 1, 2)):
        return False
    for i in range(4):
        a = pts[i - 1] - pts[i]
        b = pts[(i + 1) % 4] - pts[i]
        cos = float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))
        if np.degrees(np.arccos(np.clip(cos, -1.0, 1.0))) < cfg.min_angle_deg:
            return False
    return True


class MarkerDetector:
    """Tuned, two-scale, verified ArUco detection for one dictionary.

    Build it once and reuse it: construction compiles the detectors and unpacks the
    dictionary's bit patterns used by verification.
    """

    def __init__(self, cfg: MarkerConfig | None = None, dictionary: str | None = None) -> None:
        self.cfg = cfg or MarkerConfig()
        self.dictionary_name = dictionary or self.cfg.dictionary
        self.dictionary = dictionary_by_name(self.dictionary_name)
        self.marker_size = int(self.dictionary.markerSize)
        self._frame = cv2.aruco.ArucoDetector(self.dictionary, self._params(crop=False))
        self._crop = cv2.aruco.ArucoDetector(self.dictionary, self._params(crop=True))
        self._adapted = cv2.aruco.ArucoDetector(self.dictionary, self._adapted_params())
        n = self.dictionary.bytesList.shape[0]
        codes = []
        for i in range(n):
            bits = cv2.aruco.Dictionary_getBitsFromByteList(  # type: ignore[attr-defined]
                self.dictionary.bytesList[i : i + 1], self.marker_size
            )
            codes.append(np.stack([np.rot90(bits, r) for r in range(4)]))
        self._codes = np.stack(codes).astype(np.uint8)
        self.usable = usable_mask(self._codes[:, 0], self.cfg.min_minority_share)
        self._flat_codes = self._codes.reshape(n * 4, -1).astype(np.int16)

    def _adapted_params(self) -> cv2.aruco.DetectorParameters:
        c = self.cfg
        p = cv2.aruco.DetectorParameters()
        p.minMarkerPerimeterRate = c.adapted_min_perimeter_rate
        p.adaptiveThreshWinSizeMin = c.adapted_win_min
        p.adaptiveThreshWinSizeMax = c.adapted_win_max
        p.adaptiveThreshWinSizeStep = c.adapted_win_step
        p.errorCorrectionRate = c.adapted_error_correction
        p.perspectiveRemovePixelPerCell = c.adapted_pixels_per_cell
        p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        return p

    def _params(self, crop: bool) -> cv2.aruco.DetectorParameters:
        c = self.cfg
        p = cv2.aruco.DetectorParameters()
        p.adaptiveThreshWinSizeMin = c.thresh_win_min
        p.adaptiveThreshWinSizeMax = c.thresh_win_max
        p.adaptiveThreshWinSizeStep = c.thresh_win_step
        p.adaptiveThreshConstant = c.thresh_constant
        # In a crop the marker fills a large share of the image; keep only the lower bound.
        p.minMarkerPerimeterRate = 0.3 if crop else c.min_perimeter_rate
        p.polygonalApproxAccuracyRate = c.polygon_accuracy
        p.minCornerDistanceRate = c.min_corner_distance_rate
        p.minDistanceToBorder = 1
        p.perspectiveRemovePixelPerCell = c.pixels_per_cell
        p.perspectiveRemoveIgnoredMarginPerCell = c.ignored_margin_per_cell
        p.errorCorrectionRate = c.error_correction_rate
        p.maxErroneousBitsInBorderRate = c.max_border_error_rate
        p.minOtsuStdDev = c.min_otsu_std
        p.cornerRefinementMethod = {
            "none": cv2.aruco.CORNER_REFINE_NONE,
            "subpix": cv2.aruco.CORNER_REFINE_SUBPIX,
            "contour": cv2.aruco.CORNER_REFINE_CONTOUR,
        }[c.corner_refinement]
        p.cornerRefinementWinSize = 3 if not crop else 5
        return p

    # -- public API -----------------------------------------------------------------------

    def detect(self, image: Image) -> list[MarkerDetection]:
        """All verified markers in a whole frame (BGR or grey)."""
        gray = _gray(image)
        return self._detect_gray(gray, (0, 0))

    def detect_in_regions(
        self, image: Image, regions: Iterable[tuple[int, int, int, int]]
    ) -> list[MarkerDetection]:
        """Verified markers inside the given ``(x, y, w, h)`` regions only.

        Used by the tracker so a steady table costs only the regions that changed. Results are
        in full-frame pixel coordinates; a marker seen by two overlapping regions is reported
        once.
        """
        gray = _gray(image)
        h, w = gray.shape
        found: list[MarkerDetection] = []
        for x, y, rw, rh in regions:
            x0, y0 = max(0, x), max(0, y)
            x1, y1 = min(w, x + rw), min(h, y + rh)
            if x1 - x0 < 16 or y1 - y0 < 16:
                continue
            found.extend(self._detect_gray(gray[y0:y1, x0:x1], (x0, y0), full=gray))
        return _dedupe(found)

    # -- stages -----------------------------------------------------------------------------

    def _detect_gray(
        self, gray: Image, offset: tuple[int, int], full: Image | None = None
    ) -> list[MarkerDetection]:
        """Scale 1 on the sharpened image, scale 2 on every candidate, then cross-check.

        Every quad OpenCV found at scale 1, decoded or not, is re-read in an upscaled and
        sharpened crop. A marker read at both scales with the same ID at the same place needs
        only a weak bit check; one read at a single scale needs a strong one.
        """
        c = self.cfg
        base = full if full is not None else gray
        ox, oy = offset
        frame_pass, adapted_pass = self._detectors(max(gray.shape), max(base.shape))
        corners, ids, rejected = frame_pass.detectMarkers(
            _unsharp(gray, c.sharpen_sigma, c.frame_sharpen_amount)
        )
        hits: list[tuple[int, FloatArray, float]] = []
        quads: list[FloatArray] = []
        if ids is not None:
            for quad, mid in zip(corners, ids.ravel(), strict=True):
                pts = quad.reshape(4, 2).astype(np.float64) + np.array((ox, oy))
                hits.append((int(mid), pts, 1.0))
                quads.append(pts)
        quads.extend(r.reshape(4, 2).astype(np.float64) + np.array((ox, oy)) for r in rejected)
        hits.extend(self._rescan(base, quads))
        found = self._cross_check(base, hits)
        if c.adapted_pass:
            found = _dedupe(found + self._adapted_reads(adapted_pass, gray, base, (ox, oy), found))
        return found

    def _detectors(
        self, long_side: int, frame_side: int
    ) -> tuple[cv2.aruco.ArucoDetector, cv2.aruco.ArucoDetector]:
        """The first and third passes' detectors for an image of ``long_side`` pixels cut
        from a frame of ``frame_side``.

        OpenCV's minimum marker perimeter is a share of the image's long side: in a crop the
        frame's share would let in quads a few pixels round, hundreds of them in busy tile
        art, each decoded (a 570 px crop of a row of tiles cost more than the whole frame).
        A crop keeps the frame's perimeter in pixels, so it reads what the frame would.
        """
        if long_side >= frame_side or not self.cfg.crop_keeps_frame_perimeter:
            return self._frame, self._adapted
        k = frame_side / max(1, long_side)
        first = self._params(crop=False)
        first.minMarkerPerimeterRate = min(4.0, self.cfg.min_perimeter_rate * k)
        third = self._adapted_params()
        third.minMarkerPerimeterRate = min(4.0, self.cfg.adapted_min_perimeter_rate * k)
        return (
            cv2.aruco.ArucoDetector(self.dictionary, first),
            cv2.aruco.ArucoDetector(self.dictionary, third),
        )

    def _adapted_reads(
        self,
        detector: cv2.aruco.ArucoDetector,
        gray: Image,
        base: Image,
        offset: tuple[int, int],
        found: list[MarkerDetection],
    ) -> list[MarkerDetection]:
        """The third pass: OpenCV with error correction, each new read checked by ``soft_read``.

        Only reads no earlier pass explains are checked (a verified marker is not read twice).
        """
        corners, ids, _ = detector.detectMarkers(gray)
        out: list[MarkerDetection] = []
        if ids is None:
            return out
        for quad, mid in zip(corners, ids.ravel(), strict=True):
            pts = quad.reshape(4, 2).astype(np.float64) + np.array(offset)
            center = pts.mean(axis=0)
            side = float(np.mean(_sides(pts)))
            if any(np.hypot(*(np.array(f.center) - center)) < 0.5 * side for f in found):
                continue
            if not plausible_quad(pts, self.cfg):
                continue
            contrast = self._soft_upscaled(base, pts, int(mid))
            if contrast is not None:
                corners_t = tuple((float(x), float(y)) for x, y in pts)
                out.append(MarkerDetection(int(mid), corners_t, contrast, 0.5))  # type: ignore[arg-type]
        return out

    def _soft_upscaled(self, gray: Image, pts: FloatArray, marker_id: int) -> float | None:
        """``soft_read`` on the same upscaled view ``_verify_upscaled`` uses, without sharpening
        (sharpening a compressed marker brings its block edges back).

        OpenCV's corners of a 25 px marker are good to about half a pixel, and with 3 px cells
        that decides the read (a ChArUco marker of OpenCV's tutorial photograph read with one
        corner 0.8 px off is refused, with the other set of corners it reads): when the corners
        as given do not read, the quad shifted by half a pixel and grown by 4 % are tried, and
        the first that reads is taken. Each try must pass the whole soft read, margin included,
        with no bit off the code. Only in a sparse dictionary (codes at least
        ``sparse_min_correction`` correctable bits apart: 6x6_250, AprilTag): in 4x4_250 a
        printed pattern two bits from a code, blurred, reads as that code in one of the nine
        tries (two such false ids on the clutter family's tuning seeds).
        """
        crop, local, k = self._upscaled_crop(gray, pts)
        got = self.soft_read(crop, local, marker_id)
        sparse = int(self.dictionary.maxCorrectionBits) >= self.cfg.sparse_min_correction
        if got is not None or not self.cfg.soft_jitter or not sparse:
            return got
        centre = local.mean(axis=0)
        step = 0.5 * k
        for grow in (1.0, 1.04):
            for dx in (-step, 0.0, step):
                for dy in (-step, 0.0, step):
                    if grow == 1.0 and dx == dy == 0.0:
                        continue
                    moved = (local - centre) * grow + centre + (dx, dy)
                    got = self.soft_read(crop, moved, marker_id, exact=True)
                    if got is not None:
                        return got
        return None

    def _upscaled_crop(self, gray: Image, pts: FloatArray) -> tuple[Image, FloatArray, float]:
        """The marker's neighbourhood, upscaled when it is small, with its corners in the crop
        and the scale used. The margin holds a cell's width beyond the border (the quiet-zone
        ring ``_quiet_ring`` reads), at least 6 px."""
        c = self.cfg
        h, w = gray.shape
        side = float(np.mean(_sides(pts)))
        k = c.upscale if side <= c.rescan_max_side_px else 1.0
        m = max(6, int(np.ceil(side / (self.marker_size + 2))) + 2)
        x0 = int(max(0, pts[:, 0].min() - m))
        y0 = int(max(0, pts[:, 1].min() - m))
        x1 = int(min(w, pts[:, 0].max() + m + 1))
        y1 = int(min(h, pts[:, 1].max() + m + 1))
        crop = gray[y0:y1, x0:x1]
        if k != 1.0:
            crop = np.asarray(
                cv2.resize(crop, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC), dtype=np.uint8
            )
        return crop, (pts - (x0, y0)) * k, k

    def soft_read(
        self, gray: Image, pts: FloatArray, marker_id: int, exact: bool = False
    ) -> float | None:
        """Our own tolerant bit read: the cells' contrast if they spell ``marker_id`` and no
        other code.

        Cell means are split into dark and light by Otsu's rule on the cells. The inner cells
        may differ from the claimed code (best rotation) in ``soft_max_bit_errors`` places (or
        0.6 of the dictionary's correction capacity, if more), and every other code of the
        dictionary in every rotation must be ``soft_min_margin`` bits (or the capacity) further
        away than the claimed one: a blurred sticker is read, a texture that happens to sit one
        bit from a code and two from another is not. In a dense dictionary (4x4_250: codes a
        bit or two apart) at most ``soft_max_mixed_cells`` cells may have quadrants on both
        sides of the split (a distractor printed two bits from a code, or another dictionary's
        finer code, has 9-14 such cells, a blurred sticker 0-4); a sparse one's distance is
        its own protection (a 6x6 marker at 3 px a cell has 8-14). The ring just outside the
        border must be light (the quiet zone). A weak code (``weak_codes``) must be read with no
        bit off and a lighter ring. ``exact``: no bit off for any code.
        """
        c = self.cfg
        if not self._readable_id(marker_id):
            return None
        weak = not self.usable[marker_id]
        quads = self._quadrant_means(gray, pts)
        means = quads.mean(axis=0)
        cells = self.marker_size + 2
        values = np.sort(means.ravel())
        # Otsu on the cell means: the split with the largest between-class variance.
        best_t, best_v = None, -1.0
        for i in range(1, len(values)):
            lo, hi = values[:i], values[i:]
            v = len(lo) * len(hi) * (hi.mean() - lo.mean()) ** 2
            if v > best_v:
                best_v, best_t = v, (values[i - 1] + values[i]) / 2
        if best_t is None:
            return None
        light = means > best_t
        dense = int(self.dictionary.maxCorrectionBits) < c.sparse_min_correction
        mixed = int(((quads > best_t) != light[None]).any(axis=0).sum())
        if dense and mixed > c.soft_max_mixed_cells:
            return None
        border = np.ones((cells, cells), dtype=bool)
        border[1:-1, 1:-1] = False
        # Bigger codes are further apart (6x6_250 corrects 5 bits, 4x4_250 one): the allowance
        # grows with the dictionary's own correction capacity and border length.
        if int(light[border].sum()) > max(c.soft_max_border_errors, int(border.sum()) // 14):
            return None
        dark_mean = float(means[~light].mean())
        light_mean = float(means[light].mean()) if light.any() else dark_mean
        gap = light_mean - dark_mean
        if gap < c.min_cell_contrast * 255.0:
            return None
        bits = light[1:-1, 1:-1].ravel().astype(np.int16)
        dist = np.abs(self._flat_codes - bits).sum(axis=1).reshape(-1, 4).min(axis=1)
        own = int(dist[marker_id])
        others = np.delete(dist, marker_id)
        correctable = int(self.dictionary.maxCorrectionBits)
        allowed = max(c.soft_max_bit_errors, round(0.6 * correctable))
        margin = max(c.soft_min_margin, correctable)
        if own > (0 if weak or exact else allowed) or int(others.min()) < own + margin:
            return None
        share = c.weak_ring_share if weak else c.soft_ring_share
        if not self._quiet_ring(gray, pts, dark_mean, gap, share):
            return None
        return round(gap / 255.0, 3)

    def _readable_id(self, marker_id: int) -> bool:
        """An id of the dictionary that may be reported: a weak code only with ``weak_codes``."""
        if marker_id < 0 or marker_id >= len(self._codes):
            return False
        return bool(self.usable[marker_id]) or self.cfg.weak_codes

    def _quiet_ring(
        self, gray: Image, pts: FloatArray, black: float, gap: float, share: float
    ) -> bool:
        """True when every cell of the ring just outside the marker's black border is light.

        A printed marker sits in a white quiet zone (OpenCV needs it to find the border); board
        art that spells a weak code (a dark square with a light dot) is usually part of a
        larger dark shape or a frame, whose ring is not light all round.
        """
        cells = self.marker_size + 2
        s = self.cfg.verify_samples_per_cell
        side = (cells + 2) * s
        dst = np.array([[s, s], [side - s, s], [side - s, side - s], [s, side - s]], np.float32)
        h = cv2.getPerspectiveTransform(pts.astype(np.float32), dst)
        canon = cv2.warpPerspective(gray, h, (side, side), flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=0)  # fmt: skip
        # The middle half of the ring's depth (a quiet zone may be under a cell wide: the
        # simulated pawns' is 0.9 cell), cut into cell-long pieces along each side.
        bands = [np.rot90(canon, r)[s // 4 : s - s // 4] for r in range(4)]
        ring = np.concatenate(
            [
                np.asarray(b, np.float64)[:, s : side - s]
                .reshape(b.shape[0], cells, s)
                .mean(axis=(0, 2))
                for b in bands
            ]
        )
        return bool(ring.min() >= black + share * gap)

    def _rescan(
        self, gray: Image, quads: Sequence[FloatArray]
    ) -> list[tuple[int, FloatArray, float]]:
        """Read each candidate quad again in an upscaled, sharpened crop (the second scale).

        The crops are packed into one mosaic image so OpenCV is called once, not once per
        candidate (a hard frame has 100+ candidates; per-call overhead would dominate).
        """
        c = self.cfg
        seen: list[tuple[float, float, float]] = []
        crops: list[tuple[int, int, Image, float]] = []
        h, w = gray.shape
        for pts in quads[: c.max_rejected_rescans]:
            side = float(np.mean(_sides(pts)))
            if not c.rescan_min_side_px <= side <= c.rescan_max_side_px:
                continue
            cx, cy = pts.mean(axis=0)
            if any(abs(cx - sx) < r * 0.5 and abs(cy - sy) < r * 0.5 for sx, sy, r in seen):
                continue
            seen.append((float(cx), float(cy), side))
            half = side * (0.5 + c.crop_margin) + 4
            x0, y0 = int(max(0, cx - half)), int(max(0, cy - half))
            x1, y1 = int(min(w, cx + half + 1)), int(min(h, cy + half + 1))
            # Big markers are read well at 1x; upscaling them would only cost time.
            k = c.upscale if side <= c.upscale_max_side_px else 1.0
            if x1 - x0 >= 8 and y1 - y0 >= 8:
                crops.append((x0, y0, gray[y0:y1, x0:x1], k))
        out: list[tuple[int, FloatArray, float]] = []
        # Upscaled small crops and 1x big crops are read in separate mosaics: each gets the
        # sharpening of its own scale, and a big quad is not packed against small ones (a
        # clear 40 mm corner marker was lost that way on a hard scene).
        for group in ([p for p in crops if p[3] != 1.0], [p for p in crops if p[3] == 1.0]):
            if group:
                out.extend(self._read_mosaic(group, c.upscale if group[0][3] != 1.0 else 1.0))
        return out

    def _read_mosaic(
        self, crops: list[tuple[int, int, Image, float]], scale: float
    ) -> list[tuple[int, FloatArray, float]]:
        """Pack crops into one mosaic, decode it once, and map the reads back to the frame."""
        c = self.cfg
        mosaic, places = _pack(crops, pad=8)
        mosaic = _unsharp(mosaic, c.sharpen_sigma * scale, c.sharpen_amount)
        params = self._params(crop=True)
        params.adaptiveThreshWinSizeStep = c.rescan_win_step
        min_perimeter = 4 * c.rescan_min_side_px * scale * 0.8
        params.minMarkerPerimeterRate = min_perimeter / max(mosaic.shape)
        params.maxMarkerPerimeterRate = min(4.0, 4 * c.rescan_max_side_px * 1.3 / max(mosaic.shape))
        detector = cv2.aruco.ArucoDetector(self.dictionary, params)
        corners, ids, _ = detector.detectMarkers(mosaic)
        out: list[tuple[int, FloatArray, float]] = []
        if ids is None:
            return out
        for q, mid in zip(corners, ids.ravel(), strict=True):
            pts = q.reshape(4, 2).astype(np.float64)
            for mx, my, mw, mh, x0, y0, k in places:
                if (
                    pts[:, 0].min() >= mx
                    and pts[:, 1].min() >= my
                    and pts[:, 0].max() < mx + mw
                    and pts[:, 1].max() < my + mh
                ):
                    out.append((int(mid), (pts - (mx, my)) / k + (x0, y0), k))
                    break
        return out

    def _cross_check(
        self, gray: Image, hits: list[tuple[int, FloatArray, float]]
    ) -> list[MarkerDetection]:
        """Group reads of the same marker across scales and keep those that pass the checks."""
        c = self.cfg
        groups: list[tuple[int, list[tuple[FloatArray, float]]]] = []
        for mid, pts, scale in hits:
            center = pts.mean(axis=0)
            side = float(np.mean(_sides(pts)))
            for gid, members in groups:
                if gid == mid and np.hypot(*(members[0][0].mean(axis=0) - center)) < 0.5 * side:
                    members.append((pts, scale))
                    break
            else:
                groups.append((mid, [(pts, scale)]))
        out: list[MarkerDetection] = []
        for mid, members in groups:
            scales = {s for _, s in members}
            # The upscaled read has the finer corners; fall back to the frame's own.
            pts = next((p for p, s in members if s != 1.0), members[0][0])
            if not plausible_quad(pts, c):
                continue
            need = c.min_separation_confirmed if len(scales) > 1 else c.min_separation
            contrast = self._verify_upscaled(gray, pts, mid, need)
            if contrast is None:
                continue
            corners = tuple((float(x), float(y)) for x, y in pts)
            out.append(MarkerDetection(mid, corners, contrast, max(scales)))  # type: ignore[arg-type]
        return _dedupe(out)

    def _verify_upscaled(
        self, gray: Image, pts: FloatArray, marker_id: int, need: float
    ) -> float | None:
        """``read_contrast`` on an upscaled, sharpened crop: the same view scale 2 decodes."""
        c = self.cfg
        crop, local, k = self._upscaled_crop(gray, pts)
        crop = _unsharp(crop, c.sharpen_sigma * k, c.sharpen_amount)
        return self.read_contrast(crop, local, marker_id, need)

    def read_contrast(
        self, gray: Image, pts: FloatArray, marker_id: int, min_separation: float | None = None
    ) -> float | None:
        """Independent bit read: the black/white contrast if the cells spell ``marker_id``.

        The marker is warped to a canonical grid of ``verify_samples_per_cell`` pixels per cell
        and each cell's centre is averaged (its outer 30 % ignored, where blur mixes cells).
        The expected pattern (black border, the code in one of four rotations) must explain the
        cells cleanly: every cell expected white must be brighter than every cell expected
        black, by at least ``min_separation`` of the black/white gap (negative values tolerate
        blur when a second scale already confirmed the read), and the gap itself must be
        at least ``min_cell_contrast`` of the grey range. Returns None when that fails.
        """
        c = self.cfg
        need = c.min_separation if min_separation is None else min_separation
        if not self._readable_id(marker_id):
            return None
        weak = not self.usable[marker_id]
        if weak:
            need = max(need, c.weak_min_separation)
        max_mixed = c.weak_max_mixed_cells if weak else c.max_mixed_cells
        quads = self._quadrant_means(gray, pts)
        means = quads.mean(axis=0)
        cells = self.marker_size + 2
        best: float | None = None
        for code in self._codes[marker_id]:
            expected = np.zeros((cells, cells), dtype=bool)
            expected[1:-1, 1:-1] = code.astype(bool)
            white, black = means[expected], means[~expected]
            gap = float(white.mean() - black.mean())
            if gap < c.min_cell_contrast * 255.0:
                continue
            separation = float(white.min() - black.max()) / gap
            # A printed marker's cells are uniform; art that only resembles the code has
            # cells that are half black, half white, whatever the blur.
            threshold = float(black.mean()) + gap / 2.0
            mixed = int(((quads > threshold) != expected[None]).any(axis=0).sum())
            if separation >= need and mixed <= max_mixed and (best is None or gap > best):
                share = c.weak_ring_share
                if weak and not self._quiet_ring(gray, pts, float(black.mean()), gap, share):
                    continue
                best = gap
        return None if best is None else round(best / 255.0, 3)

    def _quadrant_means(self, gray: Image, pts: FloatArray) -> FloatArray:
        """Mean grey of the four quadrants of each cell's centre (edges of each cell ignored).

        Returns an array of shape (4, cells, cells).
        """
        cells = self.marker_size + 2
        s = self.cfg.verify_samples_per_cell
        side = cells * s
        dst = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
        h = cv2.getPerspectiveTransform(pts.astype(np.float32), dst)
        canon = cv2.warpPerspective(gray, h, (side, side), flags=cv2.INTER_LINEAR)
        grid = canon.reshape(cells, s, cells, s).astype(np.float64)
        e, m = s // 6, s // 2
        parts = [
            grid[:, e:m, :, e:m],
            grid[:, e:m, :, m : s - e],
            grid[:, m : s - e, :, e:m],
            grid[:, m : s - e, :, m : s - e],
        ]
        return np.stack([p.mean(axis=(1, 3)) for p in parts])


def _pack(
    crops: list[tuple[int, int, Image, float]], pad: int
) -> tuple[Image, list[tuple[int, int, int, int, int, int, float]]]:
    """Upscale each crop by its own factor and shelf-pack them into one image.

    Returns the mosaic and, per crop, its rectangle in the mosaic and its origin in the frame.
    Each crop is padded by replicating its edge so no artificial square edge is created.
    """
    big = [
        (x0, y0, cv2.resize(img, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC), k)
        for x0, y0, img, k in crops
    ]
    order = sorted(range(len(big)), key=lambda i: -big[i][2].shape[0])
    total = sum((b.shape[0] + 2 * pad) * (b.shape[1] + 2 * pad) for _, _, b, _ in big)
    width = max(int(np.sqrt(total) * 1.2), max(b.shape[1] + 2 * pad for _, _, b, _ in big))
    rows: list[list[int]] = []
    x = 0
    for i in order:
        bw = big[i][2].shape[1] + 2 * pad
        if not rows or x + bw > width:
            rows.append([])
            x = 0
        rows[-1].append(i)
        x += bw
    height = sum(max(big[i][2].shape[0] for i in row) + 2 * pad for row in rows)
    mosaic = np.full((height, width), 128, dtype=np.uint8)
    places: list[tuple[int, int, int, int, int, int, float]] = []
    y = 0
    for row in rows:
        x = 0
        row_h = max(big[i][2].shape[0] for i in row) + 2 * pad
        for i in row:
            x0, y0, img, k = big[i]
            tile = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
            th, tw = tile.shape
            mosaic[y : y + th, x : x + tw] = tile
            places.append((x + pad, y + pad, img.shape[1], img.shape[0], x0, y0, k))
            x += tw
        y += row_h
    return mosaic, places


def usable_mask(codes: NDArray[np.uint8], min_minority_share: float) -> NDArray[np.bool_]:
    """Which codes have enough cells of each colour to be told apart from board art."""
    flat = codes.reshape(len(codes), -1)
    white = flat.sum(axis=1)
    minority = np.minimum(white, flat.shape[1] - white)
    return np.asarray(minority >= min_minority_share * flat.shape[1], dtype=np.bool_)


def usable_ids(dictionary: str, cfg: MarkerConfig | None = None) -> list[int]:
    """IDs of ``dictionary`` the sticker kit may print (see ``min_minority_share``)."""
    d = dictionary_by_name(dictionary)
    size = int(d.markerSize)
    codes = np.stack(
        [
            cv2.aruco.Dictionary_getBitsFromByteList(  # type: ignore[attr-defined]
                d.bytesList[i : i + 1], size
            )
            for i in range(d.bytesList.shape[0])
        ]
    ).astype(np.uint8)
    mask = usable_mask(codes, (cfg or MarkerConfig()).min_minority_share)
    return [i for i in range(len(mask)) if mask[i]]


def _unsharp(gray: Image, sigma: float, amount: float) -> Image:
    """Unsharp mask: undoes part of the defocus blur that merges a small marker's cells."""
    if amount <= 0:
        return gray
    blurred = cv2.GaussianBlur(gray, (0, 0), sigma)
    return np.asarray(cv2.addWeighted(gray, 1 + amount, blurred, -amount, 0), dtype=np.uint8)


def _gray(image: Image) -> Image:
    if image.ndim == 3:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    return image


def _dedupe(found: list[MarkerDetection]) -> list[MarkerDetection]:
    """One detection per physical marker.

    The same ID within half a side keeps the best contrast; a marker whose centre lies inside
    a larger marker is a quad read from that marker's own cells and is dropped.
    """
    out: list[MarkerDetection] = []
    for det in sorted(found, key=lambda d: (-d.contrast, d.id)):
        cx, cy = det.center
        if any(
            o.id == det.id and np.hypot(cx - o.center[0], cy - o.center[1]) < 0.5 * o.side_px
            for o in out
        ):
            continue
        out.append(det)
    kept = []
    for det in out:
        inside = any(
            o is not det
            and o.side_px > det.side_px * 1.2
            and cv2.pointPolygonTest(np.asarray(o.corners, dtype=np.float32), det.center, False)
            >= 0
            for o in out
        )
        if not inside:
            kept.append(det)
    return sorted(kept, key=lambda d: (d.id, d.center))


def opencv_default_detector(dictionary: str = "4x4_250") -> cv2.aruco.ArucoDetector:
    """Plain OpenCV detector with default parameters: the baseline the benchmark compares to."""
    return cv2.aruco.ArucoDetector(dictionary_by_name(dictionary), cv2.aruco.DetectorParameters())
