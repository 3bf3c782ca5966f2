"""Tiles and cards by appearance: an enrolled library of faces, local features, RANSAC.

Real components carry no codes, so a face is recognised by its picture. Each enrolled face
contributes SIFT keypoints (scale- and rotation-invariant, in OpenCV's main modules since 4.4).
A frame's keypoints are matched to the whole library at once with Lowe's ratio test; the matches
are grouped by face and each group must survive a RANSAC homography: enough inliers, a large
enough share of the group, and an outline that is a plausible view of a flat rectangle (convex,
not mirrored, not a sliver). That last step is what makes "a picture that is not enrolled is
never claimed" hold: an unknown picture gives scattered matches, never a consistent plane.

Library layout on disk (one directory, safe to copy between machines)::

    index.json          {"version": 1, "features": "sift", "entries": [{"id", "file", ...}]}
    <id>.png            the face, resized so its long side is ``library_long_side_px``
    <id>.npz            keypoint positions and descriptors of that face
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.config import MatchConfig

Image = NDArray[np.uint8]
FloatArray = NDArray[np.float64]
INDEX_VERSION = 1
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")


class LibraryError(ValueError):
    """The library directory or an image to enrol is unusable."""


@dataclass(frozen=True)
class Face:
    """One enrolled face: its id, size and features."""

    id: str
    width: int
    height: int
    points: NDArray[np.float32]
    descriptors: NDArray[np.float32]


@dataclass(frozen=True)
class CardMatch:
    """A face found in a frame.

    Attributes:
        id: The enrolled face's id.
        corners: Pixel corners of the face's outline in the frame (top-left, top-right,
            bottom-right, bottom-left of the enrolled picture), even where covered.
        inliers: Matches consistent with the homography.
        score: Confidence in 0..1 from the inlier count (``inliers / (inliers + 10)``).
    """

    id: str
    corners: tuple[tuple[float, float], ...]
    inliers: int
    score: float

    @property
    def center(self) -> tuple[float, float]:
        """Centre of the outline (pixels)."""
        pts = np.asarray(self.corners)
        return float(pts[:, 0].mean()), float(pts[:, 1].mean())


def _features(cfg: MatchConfig, n: int) -> cv2.Feature2D:
    if cfg.features == "sift":
        sift: cv2.Feature2D = cv2.SIFT_create(  # type: ignore[attr-defined]
            nfeatures=n, contrastThreshold=cfg.sift_contrast
        )
        return sift
    if cfg.features == "orb":
        orb: cv2.Feature2D = cv2.ORB_create(nfeatures=n)  # type: ignore[attr-defined]
        return orb
    raise LibraryError(f"unknown feature type {cfg.features!r} (use 'sift' or 'orb')")


def _gray(image: Image) -> Image:
    if image.ndim == 3:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    return image


def _normalise_light(gray: Image, cfg: MatchConfig) -> Image:
    """Local contrast equalisation (CLAHE): a dim corner of the table keeps its features."""
    if cfg.clahe_clip <= 0:
        return gray
    clahe = cv2.createCLAHE(clipLimit=cfg.clahe_clip, tileGridSize=(8, 8))
    return np.asarray(clahe.apply(gray), dtype=np.uint8)


def normalise_face(image: Image, long_side: int) -> Image:
    """Resize a face so its long side is ``long_side`` pixels (keeps the aspect ratio)."""
    h, w = image.shape[:2]
    k = long_side / max(h, w)
    interp = cv2.INTER_AREA if k < 1 else cv2.INTER_CUBIC
    size = (max(1, round(w * k)), max(1, round(h * k)))
    return np.asarray(cv2.resize(image, size, interpolation=interp), dtype=np.uint8)


def describe_face(face_id: str, image: Image, cfg: MatchConfig) -> Face:
    """Features of one face image (already normalised)."""
    gray = _normalise_light(_gray(image), cfg)
    h, w = gray.shape
    all_pts: list[NDArray[np.float32]] = []
    all_desc: list[NDArray[np.float32]] = []
    # Describe the face at several sizes: a tile seen 70 px wide shares few keypoints with
    # its 320 px enrolment, but many with a 80 px copy of it.
    for k in cfg.library_scales:
        view = (
            gray if k == 1.0 else cv2.resize(gray, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        )
        kps, desc = _features(cfg, cfg.max_features_library).detectAndCompute(view, None)
        if desc is None:
            continue
        all_pts.append(np.array([p.pt for p in kps], dtype=np.float32).reshape(-1, 2) / k)
        all_desc.append(np.asarray(desc, dtype=np.float32))
    n = sum(len(p) for p in all_pts)
    if n < cfg.min_inliers * 2:
        raise LibraryError(f"face {face_id!r} has too little texture to be recognised")
    return Face(face_id, w, h, np.concatenate(all_pts), np.concatenate(all_desc))


class Library:
    """The enrolled faces of one game (or one deck)."""

    def __init__(self, faces: Sequence[Face] = (), cfg: MatchConfig | None = None) -> None:
        self.cfg = cfg or MatchConfig()
        self.faces: list[Face] = list(faces)

    def __len__(self) -> int:
        return len(self.faces)

    def ids(self) -> list[str]:
        """Ids of the enrolled faces, in enrolment order."""
        return [f.id for f in self.faces]

    def add(self, face_id: str, image: Image) -> Face:
        """Enrol ``image`` as ``face_id`` in memory (replacing a face with the same id)."""
        face = describe_face(
            face_id, normalise_face(image, self.cfg.library_long_side_px), self.cfg
        )
        self.faces = [f for f in self.faces if f.id != face_id] + [face]
        return face

    @classmethod
    def load(cls, directory: str | Path, cfg: MatchConfig | None = None) -> Library:
        """Read a library directory written by ``enroll``.

        Raises:
            LibraryError: no index, a different feature type, or a damaged entry.
        """
        cfg = cfg or MatchConfig()
        root = Path(directory)
        index_path = root / "index.json"
        try:
            index = json.loads(index_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise LibraryError(f"no readable library index at {index_path}") from exc
        if index.get("version") != INDEX_VERSION:
            raise LibraryError(f"library index version {index.get('version')} not supported")
        if index.get("features") != cfg.features:
            raise LibraryError(
                f"library built with {index.get('features')!r} features, config uses "
                f"{cfg.features!r}: enrol again"
            )
        faces = []
        for entry in index.get("entries", []):
            try:
                with np.load(root / entry["features"]) as data:
                    faces.append(
                        Face(
                            str(entry["id"]),
                            int(entry["width"]),
                            int(entry["height"]),
                            np.asarray(data["points"], dtype=np.float32),
                            np.asarray(data["descriptors"], dtype=np.float32),
                        )
                    )
            except (OSError, KeyError, ValueError) as exc:
                raise LibraryError(f"damaged library entry {entry!r}: {exc}") from exc
        return cls(faces, cfg)


def enroll(
    images: Iterable[str | Path],
    directory: str | Path,
    cfg: MatchConfig | None = None,
    names: dict[str, str] | None = None,
    progress: Callable[[Iterable[Path]], Iterable[Path]] | None = None,
) -> list[str]:
    """Add face images to the library in ``directory`` (created if needed).

    A face's id is its file name without the extension unless ``names`` maps that stem to
    another id. Enrolling an id again replaces it. ``progress`` wraps the iteration (the CLI
    passes a rich progress bar).

    Returns:
        The ids enrolled, in order.

    Raises:
        LibraryError: an image cannot be read or has too little texture.
    """
    cfg = cfg or MatchConfig()
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    index_path = root / "index.json"
    if index_path.exists():
        index = json.loads(index_path.read_text(encoding="utf-8"))
        if index.get("features") != cfg.features:
            raise LibraryError("existing library uses other features: choose a new directory")
    else:
        index = {"version": INDEX_VERSION, "features": cfg.features, "entries": []}
    entries = {e["id"]: e for e in index["entries"]}
    paths = [Path(p) for p in images]
    done: list[str] = []
    for path in progress(paths) if progress else paths:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise LibraryError(f"cannot read image {path}")
        face_id = (names or {}).get(path.stem, path.stem)
        safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in face_id)
        norm = normalise_face(np.asarray(image, np.uint8), cfg.library_long_side_px)
        face = describe_face(face_id, norm, cfg)
        cv2.imwrite(str(root / f"{safe}.png"), norm)
        np.savez_compressed(root / f"{safe}.npz", points=face.points, descriptors=face.descriptors)
        entries[face_id] = {
            "id": face_id,
            "image": f"{safe}.png",
            "features": f"{safe}.npz",
            "width": face.width,
            "height": face.height,
            "source": path.name,
        }
        done.append(face_id)
    index["entries"] = list(entries.values())
    index_path.write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    return done


class Matcher:
    """Finds enrolled faces in frames. Build once per library; ``find`` is reentrant."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self.cfg = library.cfg
        if library.faces:
            self._desc = np.concatenate([f.descriptors for f in library.faces])
            self._owner = np.concatenate(
                [np.full(len(f.descriptors), i, np.int32) for i, f in enumerate(library.faces)]
            )
            self._point = np.concatenate([f.points for f in library.faces])
        if self.cfg.features == "sift":
            self._matcher: cv2.DescriptorMatcher = cv2.FlannBasedMatcher(
                {"algorithm": 1, "trees": 4}, {"checks": 64}
            )
        else:
            self._matcher = cv2.BFMatcher(cv2.NORM_HAMMING)

    def find_in_regions(
        self, image: Image, regions: Iterable[tuple[int, int, int, int]]
    ) -> list[CardMatch]:
        """``find`` on crops only (full-frame pixel coordinates out): the tracker's fast path."""
        h, w = image.shape[:2]
        out: list[CardMatch] = []
        for x, y, rw, rh in regions:
            x0, y0, x1, y1 = max(0, x), max(0, y), min(w, x + rw), min(h, y + rh)
            if x1 - x0 < 32 or y1 - y0 < 32:
                continue
            for m in self.find(image[y0:y1, x0:x1]):
                corners = tuple((cx + x0, cy + y0) for cx, cy in m.corners)
                out.append(CardMatch(m.id, corners, m.inliers, m.score))
        return _suppress_overlaps(out)

    def find(self, image: Image, mask: Image | None = None) -> list[CardMatch]:
        """Every enrolled face visible in ``image`` (optionally only where ``mask`` != 0)."""
        if not self.library.faces:
            return []
        gray = _normalise_light(_gray(image), self.cfg)
        cv2.setRNGSeed(0)  # RANSAC draws from OpenCV's global RNG: same frame, same answer
        kps, desc = _features(self.cfg, self.cfg.max_features_frame).detectAndCompute(gray, mask)
        if desc is None or len(kps) < self.cfg.min_inliers:
            return []
        frame_pts = np.array([k.pt for k in kps], dtype=np.float32)
        lib_desc = self._desc if self.cfg.features == "sift" else self._desc.astype(np.uint8)
        query = np.asarray(desc, dtype=lib_desc.dtype)
        # Lowe's ratio test against the best match on a *different* face: one face described
        # at several sizes has near-duplicate descriptors that must not veto each other.
        neighbours = self._matcher.knnMatch(query, lib_desc, k=4)
        by_face: dict[int, list[tuple[int, int]]] = {}
        for cand in neighbours:
            if not cand:
                continue
            best = cand[0]
            owner = int(self._owner[best.trainIdx])
            rival = next((m for m in cand[1:] if int(self._owner[m.trainIdx]) != owner), None)
            if rival is None or best.distance < self.cfg.ratio * rival.distance:
                by_face.setdefault(owner, []).append((best.queryIdx, best.trainIdx))
        found: list[CardMatch] = []
        for face_index, matches in sorted(by_face.items(), key=lambda kv: -len(kv[1])):
            found.extend(self._verify(face_index, matches, frame_pts))
        return _suppress_overlaps(found)

    def _verify(
        self, face_index: int, matches: list[tuple[int, int]], frame_pts: NDArray[np.float32]
    ) -> list[CardMatch]:
        """RANSAC, instance by instance, until no consistent plane is left."""
        c = self.cfg
        face = self.library.faces[face_index]
        out: list[CardMatch] = []
        remaining = matches
        for _ in range(c.max_instances_per_id):
            if len(remaining) < c.min_good_matches:
                break
            src = self._point[[t for _, t in remaining]].reshape(-1, 1, 2)
            dst = frame_pts[[q for q, _ in remaining]].reshape(-1, 1, 2)
            h, inlier_mask = cv2.findHomography(
                src, dst, cv2.RANSAC, c.ransac_reproj_px, maxIters=2000, confidence=0.995
            )
            if h is None or inlier_mask is None:
                break
            keep = inlier_mask.ravel().astype(bool)
            n_in = int(keep.sum())
            if n_in < c.min_inliers or (n_in < c.min_inlier_ratio * len(remaining) and not out):
                break
            outline = np.array(
                [[0, 0], [face.width, 0], [face.width, face.height], [0, face.height]],
                dtype=np.float64,
            ).reshape(-1, 1, 2)
            corners = np.asarray(cv2.perspectiveTransform(outline, h), np.float64).reshape(4, 2)
            if _plausible_outline(corners, face, c):
                out.append(
                    CardMatch(
                        face.id,
                        tuple((float(x), float(y)) for x, y in corners),
                        n_in,
                        round(n_in / (n_in + 10.0), 3),
                    )
                )
            remaining = [m for m, k in zip(remaining, keep, strict=True) if not k]
        return out


def _plausible_outline(corners: FloatArray, face: Face, cfg: MatchConfig) -> bool:
    """A flat rectangle seen by a camera: convex, not mirrored, not a sliver, not tiny."""
    if not np.all(np.isfinite(corners)):
        return False
    quad = corners.astype(np.float32).reshape(-1, 1, 2)
    if not cv2.isContourConvex(quad):
        return False
    # Signed area: the enrolled outline is clockwise in image coordinates; a mirror flips it.
    x, y = corners[:, 0], corners[:, 1]
    signed = 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    if signed < cfg.min_area_px:
        return False
    sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    aspect = max(face.width, face.height) / min(face.width, face.height)
    if sides.max() / max(sides.min(), 1e-9) > cfg.max_side_ratio * aspect:
        return False
    # Opposite sides of a flat card under moderate perspective stay within a factor of 2.5.
    return bool(
        max(sides[0], sides[2]) / max(min(sides[0], sides[2]), 1e-9) < 2.5
        and max(sides[1], sides[3]) / max(min(sides[1], sides[3]), 1e-9) < 2.5
    )


def _suppress_overlaps(found: list[CardMatch]) -> list[CardMatch]:
    """Two faces cannot lie on the same spot: keep the better of two heavily overlapping."""
    kept: list[CardMatch] = []
    for m in sorted(found, key=lambda m: -m.inliers):
        poly = np.asarray(m.corners, dtype=np.float32)
        clash = False
        for k in kept:
            other = np.asarray(k.corners, dtype=np.float32)
            inter, _ = cv2.intersectConvexConvex(poly, other)
            smaller = min(cv2.contourArea(poly), cv2.contourArea(other))
            if smaller > 0 and inter / smaller > 0.5:
                clash = True
                break
        if not clash:
            kept.append(m)
    return sorted(kept, key=lambda m: (m.id, m.center))


@dataclass(frozen=True)
class SlotRead:
    """What lies in one board slot: a face id (or None for empty/unknown) and its score."""

    region: str
    id: str | None
    score: float
    rotation_deg: int = 0


class SlotClassifier:
    """Reads the tile in each fixed board slot by whole-face correlation.

    Tiles in the Middle Ages rows sit in known slots of a calibrated board, so the slot can be
    rectified to a fixed top-down view and compared with every enrolled face at its four
    right-angle rotations (normalised cross-correlation, small shifts allowed). At 60-90 px per
    tile this is more reliable than local features, which find too few keypoints on so small a
    face. The same "never claim the unknown" rule holds: the best face must score at least
    ``min_score`` and beat the best *other* face by ``min_margin``.
    """

    def __init__(
        self,
        faces: dict[str, Image],
        size_px: int = 40,
        margin_px: int = 4,
        min_score: float = 0.68,
        min_margin: float = 0.12,
    ) -> None:
        self.size = size_px
        self.margin = margin_px
        self.min_score = min_score
        self.min_margin = min_margin
        self._templates: list[tuple[str, int, NDArray[np.float32]]] = []
        for face_id, image in faces.items():
            small = cv2.resize(_gray(image), (size_px, size_px), interpolation=cv2.INTER_AREA)
            small = cv2.GaussianBlur(small, (0, 0), 0.8)
            for r in range(4):
                self._templates.append((face_id, 90 * r, np.rot90(small, -r).astype(np.float32)))

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
        full = self.size + 2 * self.margin
        crop = cv2.resize(_gray(view), (full, full), interpolation=cv2.INTER_AREA)
        crop = cv2.GaussianBlur(crop, (0, 0), 0.8).astype(np.float32)
        best: dict[str, tuple[float, int]] = {}
        for face_id, rot, tpl in self._templates:
            score = float(cv2.matchTemplate(crop, tpl, cv2.TM_CCOEFF_NORMED).max())
            if face_id not in best or score > best[face_id][0]:
                best[face_id] = (score, rot)
        if not best:
            return SlotRead(region, None, 0.0)
        ranked = sorted(best.items(), key=lambda kv: -kv[1][0])
        top_id, (top, rot) = ranked[0]
        second = ranked[1][1][0] if len(ranked) > 1 else -1.0
        if top < self.min_score or top - second < self.min_margin:
            return SlotRead(region, None, round(max(top, 0.0), 3))
        return SlotRead(region, top_id, round(top, 3), rot)
