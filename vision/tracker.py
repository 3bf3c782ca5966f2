"""Stable, motion-gated snapshots from a live frame stream.

A camera over a real table sees hands, shadows and pieces in flight far more often than it sees
a finished move. ``Tracker`` therefore commits a new ``TableSnapshot`` only after the picture
has been still for ``stable_frames`` frames *and* differs from the picture of the last commit;
a hand that passes over and leaves restores the old picture, so nothing is committed. While a
hand rests on the table (skin-coloured pixels in the changed area) nothing is committed either:
a hidden piece is not a removed piece.

Motion gating: every frame is compared with the previous one on a 1/8-scale blurred grey copy
(about 1 ms at 1080p). Only when a still picture differs from the committed one are the changed
cells re-read, and only those: markers in the changed regions, the slots and the tray if they
overlap them, cards in a mask of them. A steady table therefore costs one small diff per frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Region, filter_by_size
from vision.config import TrackerConfig
from vision.pipeline import FrameResult, Pipeline
from vision.snapshot import Observation, TableSnapshot

Image = NDArray[np.uint8]
Rect = tuple[int, int, int, int]


@dataclass
class TrackerStats:
    """Counters for the benchmark and for diagnostics."""

    frames: int = 0
    still_frames: int = 0
    full_detections: int = 0
    region_detections: int = 0
    commits: int = 0
    vetoed: int = 0
    regions: list[int] = field(default_factory=list)


class Tracker:
    """Debounced, motion-gated table state over a stream of frames."""

    def __init__(self, pipeline: Pipeline, cfg: TrackerConfig | None = None) -> None:
        self.pipeline = pipeline
        self.cfg = cfg or pipeline.cfg.tracker
        self.stats = TrackerStats()
        self.result: FrameResult | None = None
        self.snapshot: TableSnapshot | None = None
        self._prev: NDArray[np.float32] | None = None
        self._ref: NDArray[np.float32] | None = None
        self._still = 0
        self._handled = False
        self._changed: NDArray[np.uint8] | None = None

    def _small(self, frame: Image) -> NDArray[np.float32]:
        c = self.cfg
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        small = cv2.resize(
            gray, None, fx=c.motion_scale, fy=c.motion_scale, interpolation=cv2.INTER_AREA
        )
        return np.asarray(cv2.GaussianBlur(small, (0, 0), c.motion_blur), dtype=np.float32)

    def update(self, frame: Image, time: float) -> TableSnapshot | None:
        """Feed one frame; returns a snapshot when (and only when) a change is committed."""
        self.stats.frames += 1
        small = self._small(frame)
        prev, self._prev = self._prev, small
        if prev is None or _moving(prev, small, self.cfg.motion_threshold):
            self._still = 0
            self._handled = False
            return None
        self._still += 1
        self.stats.still_frames += 1
        if self._still < self.cfg.stable_frames or self._handled:
            return None
        self._handled = True
        if self._ref is None or self.result is None:
            return self._commit(self.pipeline.detect(frame), small, time, full=True)
        regions = self._changed_regions(self._ref, small, frame.shape[:2])
        if not regions:
            return None
        if _skin_fraction(frame, self._changed, self.cfg.hand_min_share) > (
            self.cfg.skin_veto_fraction
        ):
            self.stats.vetoed += 1
            return None
        area = sum(w * h for _, _, w, h in regions)
        if area > 0.5 * frame.shape[0] * frame.shape[1]:
            return self._commit(self.pipeline.detect(frame), small, time, full=True)
        return self._commit(self._redetect(frame, regions), small, time, full=False)

    def refresh(self, frame: Image, time: float) -> TableSnapshot:
        """Re-read the whole frame now and make it the committed picture.

        For a reader whose last snapshot does not add up: a region re-read keeps everything
        outside the changed regions, so a piece missed once would stay missed. Returns the new
        snapshot (whether or not it differs from the last one).
        """
        small = self._small(frame)
        self._prev = small
        self._handled = True
        self.stats.full_detections += 1
        self._ref = small
        self.result = self.pipeline.detect(frame)
        self.snapshot = self.pipeline.snapshot(self.result, time)
        return self.snapshot

    def _commit(
        self, result: FrameResult, small: NDArray[np.float32], time: float, full: bool
    ) -> TableSnapshot | None:
        if full:
            self.stats.full_detections += 1
        else:
            self.stats.region_detections += 1
        self._ref = small
        new = self.pipeline.snapshot(result, time)
        old = self.snapshot
        self.result = result
        self.snapshot = new
        if old is not None and _same(old, new):
            return None
        self.stats.commits += 1
        return new

    def _changed_regions(
        self, ref: NDArray[np.float32], small: NDArray[np.float32], shape: tuple[int, int]
    ) -> list[Rect]:
        """Bounding boxes (full-frame pixels, with margin) of the cells that changed."""
        c = self.cfg
        changed = (np.abs(small - ref) > c.motion_threshold).astype(np.uint8)
        self._changed = changed
        changed = cv2.dilate(changed, np.ones((3, 3), np.uint8))
        n, _, stats, _ = cv2.connectedComponentsWithStats(changed)
        k = 1.0 / c.motion_scale
        h, w = shape
        out: list[Rect] = []
        for i in range(1, n):
            x, y, rw, rh, area = stats[i]
            if area < c.motion_min_cells:
                continue
            m = c.region_margin_px
            x0, y0 = max(0, int(x * k) - m), max(0, int(y * k) - m)
            x1, y1 = min(w, int((x + rw) * k) + m), min(h, int((y + rh) * k) + m)
            out.append((x0, y0, x1 - x0, y1 - y0))
        self.stats.regions.append(len(out))
        return out

    def _slot_changed(self, corners: tuple[tuple[float, float], ...]) -> bool:
        """Whether the picture changed inside a slot (not merely in a region touching it)."""
        changed = self._changed
        if changed is None:
            return True
        k = self.cfg.motion_scale
        xs = [c[0] * k for c in corners]
        ys = [c[1] * k for c in corners]
        h, w = changed.shape
        x0, x1 = max(0, int(min(xs))), min(w, int(np.ceil(max(xs))))
        y0, y1 = max(0, int(min(ys))), min(h, int(np.ceil(max(ys))))
        return bool(changed[y0:y1, x0:x1].any())

    def _redetect(self, frame: Image, regions: list[Rect]) -> FrameResult:
        """Re-read only the changed regions and keep everything else from the last result."""
        assert self.result is not None
        old = self.result
        p = self.pipeline
        # A marker whose centre lies near a region's edge is cut by the region's crop: detect in
        # crops grown by the margin, keep what is centred in the changed regions, and drop from
        # the last result exactly those (a marker is never lost for lying across an edge).
        pad = self.cfg.region_margin_px
        grown = [(x - pad, y - pad, w + 2 * pad, h + 2 * pad) for x, y, w, h in regions]
        fresh = filter_by_size(
            [
                m
                for m in p.markers.detect_in_regions(frame, _merged(grown))
                if _inside(m.center, regions)
            ],
            old.board,
            p.profile,
            p.cfg.board.size_tolerance,
        )
        kept = [m for m in old.markers if not _inside(m.center, regions)]
        markers = sorted(kept + fresh, key=lambda m: (m.id, m.center))
        result = FrameResult(old.board, markers)
        touched_slots: list[Region] = []
        kept_slots = []
        for read, corners in old.slots:
            if self._slot_changed(corners):
                region = next(x for x in p.profile.regions if x.name == read.region)
                touched_slots.append(region)
            else:
                kept_slots.append((read, corners))
        result.slots = kept_slots + p.read_slots(frame, old.board, touched_slots)
        tray = next(iter(p.profile.regions_of_kind("tray")), None)
        if tray is not None and old.board.found:
            corners = tuple(
                (float(a), float(b))
                for a, b in old.board.to_image(np.array(_rect_corners(tray.rect)))
            )
            touched = any(_overlaps(corners, r) for r in regions)
            result.dice = p.read_tray(frame, old.board) if touched else old.dice
        if p.matcher is not None:
            # A card is re-read only if it lies in a changed region (with the region margin);
            # cards elsewhere keep their last reading.
            keep = [c for c in old.cards if not _inside(c.center, regions)]
            found = [c for c in p.matcher.find_in_regions(frame, regions)]
            result.cards = keep + [c for c in found if _inside(c.center, regions)]
        return result


def _merged(rects: list[Rect]) -> list[Rect]:
    """Overlapping rectangles replaced by their bounding box (each crop is read once)."""
    out = list(rects)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                ax, ay, aw, ah = out[i]
                bx, by, bw, bh = out[j]
                if ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah:
                    x0, y0 = min(ax, bx), min(ay, by)
                    x1, y1 = max(ax + aw, bx + bw), max(ay + ah, by + bh)
                    out[i] = (x0, y0, x1 - x0, y1 - y0)
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def _moving(a: NDArray[np.float32], b: NDArray[np.float32], threshold: float) -> bool:
    return bool(np.any(np.abs(a - b) > threshold))


def _inside(point: tuple[float, float], regions: list[Rect]) -> bool:
    x, y = point
    return any(rx <= x < rx + rw and ry <= y < ry + rh for rx, ry, rw, rh in regions)


def _overlaps(corners: tuple[tuple[float, float], ...], rect: Rect) -> bool:
    xs = [c[0] for c in corners]
    ys = [c[1] for c in corners]
    x, y, w, h = rect
    return not (max(xs) < x or min(xs) > x + w or max(ys) < y or min(ys) > y + h)


def _rect_corners(rect: tuple[float, float, float, float]) -> list[list[float]]:
    x, y, w, h = rect
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]


def _skin_fraction(frame: Image, changed: NDArray[np.uint8] | None, min_share: float) -> float:
    """Share of the changed cells (motion scale) covered by a resting hand: skin-coloured
    (YCrCb box) changed cells in blobs of at least ``min_share`` of the frame. Only changed cells
    count (wood that looks like skin and did not change is no hand), and only hand-sized blobs
    (a tile whose art has skin tones is no hand)."""
    if changed is None or not changed.any():
        return 0.0
    h, w = changed.shape
    small = cv2.resize(frame, (w, h), interpolation=cv2.INTER_AREA)
    ycc = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
    cr, cb = ycc[..., 1], ycc[..., 2]
    sel = (cr >= 140) & (cr <= 180) & (cb >= 80) & (cb <= 125) & (ycc[..., 0] > 40)
    inside = changed > 0
    n, _, stats, _ = cv2.connectedComponentsWithStats((sel & inside).astype(np.uint8))
    big = sum(int(a) for a in stats[1:n, cv2.CC_STAT_AREA] if a >= min_share * h * w)
    return big / float(np.count_nonzero(inside))


def _same(a: TableSnapshot, b: TableSnapshot, tolerance_mm: float = 8.0) -> bool:
    """Same pieces, same regions, same reads, and no piece moved more than ``tolerance_mm``."""

    def key(o: Observation) -> tuple[str, str, str]:
        attrs = sorted((k, str(v)) for k, v in o.attrs.items() if k != "inliers")
        return (o.component, o.region or "", str(attrs))

    left = sorted(a.observations, key=key)
    right = sorted(b.observations, key=key)
    if [key(o) for o in left] != [key(o) for o in right]:
        return False
    for x, y in zip(left, right, strict=True):
        if x.board_xy is not None and y.board_xy is not None:
            dx, dy = x.board_xy[0] - y.board_xy[0], x.board_xy[1] - y.board_xy[1]
            if (dx * dx + dy * dy) ** 0.5 > tolerance_mm:
                return False
    return True
