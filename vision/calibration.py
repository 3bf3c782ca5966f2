"""Board profiles and board calibration: corner markers → homography → board millimetres.

A board profile is data, not code: the board's size, where its corner markers sit, the named
regions of the game's table (rows of slots, each seat's columns, a discard area, the dice tray)
and which sticker ID is which component. ``calibrate`` fits the image→board homography from every
corner of every visible corner marker (16 points with all four, 12 with three), so one corner
hidden under a hand still calibrates and the reprojection error says how far to trust the fit.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.config import BoardConfig
from vision.markers import MarkerDetection

FloatArray = NDArray[np.float64]


class ProfileError(ValueError):
    """A board profile file is missing, unreadable or inconsistent."""


@dataclass(frozen=True)
class Region:
    """A named axis-aligned rectangle of the table, in board millimetres."""

    name: str
    kind: str
    rect: tuple[float, float, float, float]

    def contains(self, x: float, y: float) -> bool:
        """True when board point (x, y) lies inside (edges included)."""
        rx, ry, rw, rh = self.rect
        return rx <= x <= rx + rw and ry <= y <= ry + rh

    @property
    def center(self) -> tuple[float, float]:
        """Centre of the rectangle (board mm)."""
        rx, ry, rw, rh = self.rect
        return rx + rw / 2.0, ry + rh / 2.0


@dataclass(frozen=True)
class BoardProfile:
    """One game's table geometry and sticker vocabulary."""

    name: str
    width_mm: float
    height_mm: float
    corner_ids: tuple[int, int, int, int] = (0, 1, 2, 3)
    corner_marker_mm: float = 40.0
    corner_centers_mm: tuple[tuple[float, float], ...] = ()
    sticker_mm: float = 10.0
    dictionary: str = "4x4_250"
    regions: tuple[Region, ...] = ()
    markers: dict[int, str] = field(default_factory=dict)
    marker_attrs: dict[str, str] = field(default_factory=dict)
    seat_sticker: str = ""
    """The sticker kind that names the seats (labels ``<kind>:<seat>``): the seat colours a
    camera session can take, in sticker order. Empty: the profile names no seats."""
    printed_names: tuple[str, ...] = ()
    """Region kinds whose names are printed on the board (drawn by the simulated camera as the
    board art the matchers must ignore)."""

    def component_of(self, marker_id: int) -> tuple[str, dict[str, str]]:
        """The component a sticker names, and the attribute its label carries.

        ``marker_attrs`` maps a component kind to the attribute its label's suffix is: with
        ``{"token": "symbol"}`` the label ``token:Sun`` is component ``token`` with
        ``{"symbol": "Sun"}``. Other labels (``pawn:blue``) are the
        component name as they stand; an unmapped sticker is ``marker:<id>``.
        """
        label = self.markers.get(marker_id)
        if label is None:
            return f"marker:{marker_id}", {}
        kind, _, value = label.partition(":")
        attr = self.marker_attrs.get(kind)
        if attr is not None and value:
            return kind, {attr: value}
        return label, {}

    def region_at(self, x: float, y: float) -> str | None:
        """Name of the first region containing board point (x, y), or None."""
        for region in self.regions:
            if region.contains(x, y):
                return region.name
        return None

    def regions_of_kind(self, kind: str) -> tuple[Region, ...]:
        """All regions of one kind (``"slot"``, ``"column"``, ``"tray"``, ...)."""
        return tuple(r for r in self.regions if r.kind == kind)

    def corner_points_mm(self) -> dict[int, FloatArray]:
        """Board coordinates of the four corners of each corner marker, in ArUco corner order."""
        half = self.corner_marker_mm / 2.0
        out: dict[int, FloatArray] = {}
        for marker_id, (cx, cy) in zip(self.corner_ids, self.corner_centers_mm, strict=True):
            out[marker_id] = np.array(
                [
                    [cx - half, cy - half],
                    [cx + half, cy - half],
                    [cx + half, cy + half],
                    [cx - half, cy + half],
                ],
                dtype=np.float64,
            )
        return out

    def to_json(self) -> dict[str, Any]:
        """The profile as the JSON document ``load_profile`` reads."""
        return {
            "name": self.name,
            "dictionary": self.dictionary,
            "width_mm": self.width_mm,
            "height_mm": self.height_mm,
            "corner_ids": list(self.corner_ids),
            "corner_marker_mm": self.corner_marker_mm,
            "corner_centers_mm": [list(p) for p in self.corner_centers_mm],
            "sticker_mm": self.sticker_mm,
            "regions": [
                {"name": r.name, "kind": r.kind, "rect": list(r.rect)} for r in self.regions
            ],
            "markers": {str(k): v for k, v in sorted(self.markers.items())},
            "marker_attrs": dict(sorted(self.marker_attrs.items())),
            "seat_sticker": self.seat_sticker,
            "printed_names": list(self.printed_names),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BoardProfile:
        """Parse and check a profile document.

        Raises:
            ProfileError: a required key is missing or a value has the wrong shape.
        """
        try:
            width = float(data["width_mm"])
            height = float(data["height_mm"])
            corner_ids = tuple(int(i) for i in data.get("corner_ids", (0, 1, 2, 3)))
            marker_mm = float(data.get("corner_marker_mm", 40.0))
            inset = marker_mm / 2.0 + 5.0
            default_centers = [
                [inset, inset],
                [width - inset, inset],
                [width - inset, height - inset],
                [inset, height - inset],
            ]
            centers = tuple(
                (float(p[0]), float(p[1])) for p in data.get("corner_centers_mm", default_centers)
            )
            regions = tuple(
                Region(str(r["name"]), str(r.get("kind", "area")), _rect(r["rect"]))
                for r in data.get("regions", [])
            )
            markers = {int(k): str(v) for k, v in (data.get("markers") or {}).items()}
            marker_attrs = {str(k): str(v) for k, v in (data.get("marker_attrs") or {}).items()}
            profile = cls(
                name=str(data.get("name", "board")),
                width_mm=width,
                height_mm=height,
                corner_ids=corner_ids,  # type: ignore[arg-type]
                corner_marker_mm=marker_mm,
                corner_centers_mm=centers,
                sticker_mm=float(data.get("sticker_mm", 10.0)),
                dictionary=str(data.get("dictionary", "4x4_250")),
                regions=regions,
                markers=markers,
                marker_attrs=marker_attrs,
                seat_sticker=str(data.get("seat_sticker", "")),
                printed_names=tuple(str(k) for k in data.get("printed_names", ())),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ProfileError(f"bad board profile: {exc}") from exc
        if len(profile.corner_ids) != 4 or len(profile.corner_centers_mm) != 4:
            raise ProfileError("a board profile needs exactly four corner markers")
        clash = set(profile.corner_ids) & set(profile.markers)
        if clash:
            raise ProfileError(f"corner marker IDs reused as stickers: {sorted(clash)}")
        return profile

    @classmethod
    def from_config(cls, cfg: BoardConfig) -> BoardProfile:
        """A bare profile (no regions) from the board section of ``VisionConfig``."""
        i = cfg.corner_inset_mm
        w, h = cfg.width_mm, cfg.height_mm
        return cls(
            name="board",
            width_mm=w,
            height_mm=h,
            corner_ids=cfg.corner_ids,
            corner_marker_mm=2 * (i - 5.0),
            corner_centers_mm=((i, i), (w - i, i), (w - i, h - i), (i, h - i)),
        )


def _rect(value: Any) -> tuple[float, float, float, float]:
    x, y, w, h = (float(v) for v in value)
    if w <= 0 or h <= 0:
        raise ValueError(f"region rectangle needs a positive size: {value}")
    return x, y, w, h


def load_profile(path: str | Path) -> BoardProfile:
    """Read a board profile (JSON; YAML too when PyYAML is installed).

    Raises:
        ProfileError: unreadable file or bad content.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProfileError(f"cannot read profile {p}: {exc}") from exc
    try:
        if p.suffix.lower() in (".yaml", ".yml"):
            import yaml

            data = yaml.safe_load(text)
        else:
            data = json.loads(text)
    except ImportError as exc:
        raise ProfileError("YAML profiles need PyYAML installed") from exc
    except ValueError as exc:
        raise ProfileError(f"profile {p} is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise ProfileError(f"profile {p} must hold an object")
    return BoardProfile.from_json(data)


def profile_text(profile: BoardProfile) -> str:
    """The profile as the JSON text ``save_profile`` writes (whole millimetres without ``.0``)."""

    def tidy(value: Any) -> Any:
        if isinstance(value, float) and math.isfinite(value) and value == round(value):
            return int(value)
        if isinstance(value, float):
            return round(value, 3)
        if isinstance(value, list):
            return [tidy(v) for v in value]
        if isinstance(value, dict):
            return {k: tidy(v) for k, v in value.items()}
        return value

    return json.dumps(tidy(profile.to_json()), indent=1, ensure_ascii=False) + "\n"


def save_profile(profile: BoardProfile, path: str | Path) -> None:
    """Write a board profile atomically, checked by reading it back first.

    The text goes to a temporary file beside ``path`` (same suffix, so ``load_profile`` reads it
    the same way), is flushed to disk and loaded back; only when it loads into the same profile
    does it replace ``path`` (``os.replace``: readers see the old file or the new one, never half
    of one). On any failure ``path`` is left as it was.

    Raises:
        ProfileError: the file cannot be written, or does not read back as the same profile.
    """
    p = Path(path)
    tmp = p.with_name(f".{p.stem}.{os.getpid()}.tmp{p.suffix}")
    try:
        with open(tmp, "w", encoding="utf-8") as out:
            out.write(profile_text(profile))
            out.flush()
            os.fsync(out.fileno())
        if load_profile(tmp).to_json() != profile.to_json():
            raise ProfileError(f"profile {p} does not read back as written")
        os.replace(tmp, p)
    except OSError as exc:
        raise ProfileError(f"cannot write profile {p}: {exc}") from exc
    finally:
        tmp.unlink(missing_ok=True)
    try:  # make the rename itself durable
        fd = os.open(p.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@dataclass(frozen=True)
class Calibration:
    """Image→board mapping of one frame.

    Attributes:
        found: False when fewer than three corner markers were seen.
        homography: 3x3 image-pixel → board-mm matrix (identity-free None when not found).
        reprojection_px: RMS distance, in pixels, between the seen corner-marker corners and
            where the fitted homography puts them; a few pixels is normal, more means a bent
            board or a wrong marker.
        corners_seen: IDs of the corner markers used.
    """

    found: bool
    homography: FloatArray | None = None
    reprojection_px: float = float("inf")
    corners_seen: tuple[int, ...] = ()

    def to_board(self, points_px: FloatArray) -> FloatArray:
        """Map N×2 image points to board mm.

        Raises:
            ValueError: the board was not found.
        """
        if self.homography is None:
            raise ValueError("board not calibrated")
        pts = np.asarray(points_px, dtype=np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2))

    def to_image(self, points_mm: FloatArray) -> FloatArray:
        """Map N×2 board-mm points back to image pixels."""
        if self.homography is None:
            raise ValueError("board not calibrated")
        inv = np.linalg.inv(self.homography)
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, inv).reshape(-1, 2))


class CornerError(ValueError):
    """Four clicked board corners that cannot define the board.

    ``reason`` is ``"count"`` (not four points of two finite numbers), ``"order"`` (the outline
    crosses itself, bends inwards or runs anticlockwise: not top-left, top-right, bottom-right,
    bottom-left) or ``"small"`` (it encloses almost nothing).
    """

    def __init__(self, reason: str) -> None:
        super().__init__(f"bad board corners: {reason}")
        self.reason = reason


MIN_CORNER_AREA_PX = 400.0
"""Smallest board outline accepted from clicked corners (pixels²): a 20 px square."""


def from_board_corners(corners_px: Any, profile: BoardProfile) -> Calibration:
    """The calibration given by the board's own four corners clicked in an image.

    For a camera whose corner markers are hidden, missing or stuck elsewhere than the profile
    says: ``corners_px`` are the board's top-left, top-right, bottom-right and bottom-left
    corners in image pixels (as the board is read: row 1 at the top), mapped exactly onto
    (0, 0), (width, 0), (width, height), (0, height) mm. Four points fit exactly, so
    ``reprojection_px`` is 0 and says nothing about the clicks' accuracy.

    Raises:
        CornerError: the points cannot be a view of the board (see its ``reason``).
    """
    try:
        pts = np.asarray(corners_px, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise CornerError("count") from exc
    if pts.shape != (4, 2) or not np.all(np.isfinite(pts)):
        raise CornerError("count")
    edges = np.roll(pts, -1, axis=0) - pts
    after = np.roll(edges, -1, axis=0)
    turns = edges[:, 0] * after[:, 1] - edges[:, 1] * after[:, 0]
    # image y grows downwards: a clockwise outline on screen turns with a positive cross product
    if not np.all(turns > 0):
        raise CornerError("order")
    x, y = pts[:, 0], pts[:, 1]
    area = 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
    if area < MIN_CORNER_AREA_PX:
        raise CornerError("small")
    w, h = profile.width_mm, profile.height_mm
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    hom = cv2.getPerspectiveTransform(pts.astype(np.float32), dst)
    return Calibration(True, np.asarray(hom, dtype=np.float64), 0.0, ())


def calibrate(
    markers: list[MarkerDetection], profile: BoardProfile, cfg: BoardConfig | None = None
) -> Calibration:
    """Fit the board homography from the corner markers found in a frame.

    Needs at least three of the four corner markers. A fit whose reprojection error exceeds
    ``cfg.max_reprojection_px`` is reported as not found: a wrong board is worse than none.
    """
    cfg = cfg or BoardConfig()
    targets = profile.corner_points_mm()
    src: list[FloatArray] = []
    dst: list[FloatArray] = []
    seen: list[int] = []
    for det in sorted(markers, key=lambda d: -d.contrast):
        if det.id in targets and det.id not in seen:
            seen.append(det.id)
            src.append(np.asarray(det.corners, dtype=np.float64))
            dst.append(targets[det.id])
    if len(seen) < 3:
        return Calibration(False, corners_seen=tuple(sorted(seen)))
    s = np.concatenate(src)
    d = np.concatenate(dst)
    h, _ = cv2.findHomography(s, d, 0)
    if h is None:
        return Calibration(False, corners_seen=tuple(sorted(seen)))
    back = cv2.perspectiveTransform(d.reshape(-1, 1, 2), np.linalg.inv(h)).reshape(-1, 2)
    rms = float(np.sqrt(np.mean(np.sum((back - s) ** 2, axis=1))))
    if rms > cfg.max_reprojection_px:
        return Calibration(False, reprojection_px=rms, corners_seen=tuple(sorted(seen)))
    return Calibration(True, np.asarray(h, dtype=np.float64), rms, tuple(sorted(seen)))


def filter_by_size(
    markers: list[MarkerDetection],
    calibration: Calibration,
    profile: BoardProfile,
    tolerance: float,
) -> list[MarkerDetection]:
    """Drop markers whose printed size, measured on the calibrated board, is wrong.

    Stickers are printed at ``profile.sticker_mm`` and corner markers at
    ``profile.corner_marker_mm``; board art that happens to spell a valid code (an ornament, a
    glyph) almost never has exactly that size. Without calibration nothing is dropped.
    """
    if not calibration.found:
        return markers
    corners = set(profile.corner_ids)
    kept = []
    for m in markers:
        pts = calibration.to_board(np.asarray(m.corners, dtype=np.float64))
        side = float(np.mean(np.linalg.norm(np.roll(pts, -1, axis=0) - pts, axis=1)))
        expected = profile.corner_marker_mm if m.id in corners else profile.sticker_mm
        if abs(side - expected) <= tolerance * expected:
            kept.append(m)
    return kept
