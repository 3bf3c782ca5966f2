"""Tiles and cards by appearance: an enrolled library of faces, local features, verification.

Real components carry no codes, so a face is recognised by its picture. Each enrolled face
contributes SIFT keypoints (scale- and rotation-invariant, in OpenCV's main modules since 4.4)
with their size and orientation. Cards are found in four steps:

1. **Features** on the frame shrunk to ``frame_scale`` (half size: a 100 px card keeps its
   detail, the cost is a quarter), matched to one FLANN index over the whole library with
   Lowe's ratio test against the best match on a *different* face.
2. **Hough votes** (Lowe 2004): every match predicts where the face's centre is, how big and
   how turned it is. Matches of one card agree and fall into one bin; board art, other cards and
   pictures that are not enrolled scatter. Each bin is a candidate, so several cards (and several
   copies of one card) are found independently and board features never dilute a card's matches.
3. **Pose**: a similarity by RANSAC in the bin, then every match of that face it explains; an
   affine (or, with enough inliers, a homography) refit; an outline that is a plausible view of a
   flat card; and an ECC refinement of the pose against the enrolled picture.
4. **Verification**: the frame is rectified onto the face and compared cell by cell (colour
   correlation). The face must score ``min_face_score`` and beat every other enrolled face of the
   same shape by ``min_face_margin``. This is what keeps "a picture that is not enrolled is never
   claimed": geometry alone can be fooled by a few coincident matches, the picture cannot.

Tiles in board slots are read by ``SlotClassifier`` (rectified colour correlation), see there.

Library layout on disk (one directory, safe to copy between machines)::

    index.json          {"version": 1, "features": "sift", "entries": [{"id", "file", ...}]}
    <id>.png            the face, resized so its long side is ``library_long_side_px``
    <id>.npz            keypoint positions, sizes, angles and descriptors of that face

A library written before sizes and angles were stored is re-described from its pictures.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

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
    """One enrolled face: its id, size, picture and features.

    Attributes:
        points: Keypoint positions in the face picture (pixels), one row per descriptor.
        sizes: Keypoint diameters in face pixels.
        angles: Keypoint orientations in degrees (OpenCV's convention).
        image: The face picture (BGR, long side ``library_long_side_px``).
    """

    id: str
    width: int
    height: int
    points: NDArray[np.float32]
    descriptors: NDArray[np.float32]
    sizes: NDArray[np.float32]
    angles: NDArray[np.float32]
    image: Image


@dataclass(frozen=True)
class CardMatch:
    """A face found in a frame.

    Attributes:
        id: The enrolled face's id.
        corners: Pixel corners of the face's outline in the frame (top-left, top-right,
            bottom-right, bottom-left of the enrolled picture), even where covered.
        inliers: Matches consistent with the pose.
        score: Confidence in 0..1: the cell-by-cell colour correlation of the rectified frame
            with the enrolled face (see ``MatchConfig.min_face_score``).
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
    bgr = image if image.ndim == 3 else np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR))
    gray = _normalise_light(_gray(image), cfg)
    h, w = gray.shape
    all_pts: list[NDArray[np.float32]] = []
    all_sizes: list[NDArray[np.float32]] = []
    all_angles: list[NDArray[np.float32]] = []
    all_desc: list[NDArray[np.float32]] = []
    # Describe the face at several sizes: a card seen 50 px wide shares few keypoints with
    # its 320 px enrolment, but many with a 80 px copy of it.
    for k in cfg.library_scales:
        view = (
            gray if k == 1.0 else cv2.resize(gray, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        )
        kps, desc = _features(cfg, cfg.max_features_library).detectAndCompute(view, None)
        if desc is None:
            continue
        all_pts.append(np.array([p.pt for p in kps], dtype=np.float32).reshape(-1, 2) / k)
        all_sizes.append(np.array([p.size for p in kps], dtype=np.float32) / k)
        all_angles.append(np.array([p.angle for p in kps], dtype=np.float32))
        all_desc.append(np.asarray(desc, dtype=np.float32))
    n = sum(len(p) for p in all_pts)
    if n < cfg.min_inliers * 4:
        raise LibraryError(f"face {face_id!r} has too little texture to be recognised")
    return Face(
        face_id,
        w,
        h,
        np.concatenate(all_pts),
        np.concatenate(all_desc),
        np.concatenate(all_sizes),
        np.concatenate(all_angles),
        np.asarray(bgr, dtype=np.uint8),
    )


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
                raw = cv2.imread(str(root / entry["image"]), cv2.IMREAD_COLOR)
                if raw is None:
                    raise ValueError(f"cannot read {entry['image']}")
                picture: Image = np.asarray(raw, dtype=np.uint8)
                with np.load(root / entry["features"]) as data:
                    if "sizes" not in data or "angles" not in data:
                        # Written before keypoint sizes and angles were stored: describe again.
                        faces.append(describe_face(str(entry["id"]), picture, cfg))
                        continue
                    faces.append(
                        Face(
                            str(entry["id"]),
                            int(entry["width"]),
                            int(entry["height"]),
                            np.asarray(data["points"], dtype=np.float32),
                            np.asarray(data["descriptors"], dtype=np.float32),
                            np.asarray(data["sizes"], dtype=np.float32),
                            np.asarray(data["angles"], dtype=np.float32),
                            picture,
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
        np.savez_compressed(
            root / f"{safe}.npz",
            points=face.points,
            descriptors=face.descriptors,
            sizes=face.sizes,
            angles=face.angles,
        )
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


@dataclass(frozen=True)
class Candidate:
    """One pose tried by ``Matcher.find`` and what became of it (``trace`` output).

    Attributes:
        id: The face the pose was fitted for.
        center: Centre of the fitted outline (or of the bin's matches) in frame pixels.
        votes: Matches in the Hough bin.
        inliers: Matches of this face the pose explains.
        score: The face's verification score (0 if not reached).
        margin: Score minus the best other face's score (0 if not reached).
        occluded: Share of verification cells that do not correlate (a hand, another card).
        outcome: ``"claimed"``, or why not: ``"ransac"`` (no consistent pose), ``"inliers"``
            (too few matches explain it), ``"outline"`` (not a plausible flat card), ``"score"``
            (the picture does not match), ``"margin"`` (another face matches about as well).
    """

    id: str
    center: tuple[float, float]
    votes: int
    inliers: int = 0
    score: float = 0.0
    margin: float = 0.0
    occluded: float = 0.0
    outcome: str = "ransac"


@dataclass
class _Frame:
    """One frame's working data inside ``Matcher.find``."""

    small: Image  # the frame at ``frame_scale`` (BGR), for verification and refinement
    small_gray: Image
    scale: float
    points: NDArray[np.float32]  # matched frame keypoints, full-frame pixels
    lib: NDArray[np.intp]  # matched library descriptor index
    owner: NDArray[np.intp]  # matched face index
    sizes: NDArray[np.float32]  # matched frame keypoints' diameters, full-frame pixels
    angles: NDArray[np.float32]  # and orientations (degrees)
    used: NDArray[np.bool_]


class Matcher:
    """Finds enrolled faces in frames. Build once per library; ``find`` is reentrant."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self.cfg = library.cfg
        faces = library.faces
        self._desc = np.concatenate([f.descriptors for f in faces]) if faces else np.zeros((0, 1))
        self._owner: NDArray[np.intp] = np.repeat(
            np.arange(len(faces), dtype=np.intp), [len(f.descriptors) for f in faces]
        )
        self._point = np.concatenate([f.points for f in faces]) if faces else np.zeros((0, 2))
        self._size = np.concatenate([f.sizes for f in faces]) if faces else np.zeros(0)
        self._angle = np.concatenate([f.angles for f in faces]) if faces else np.zeros(0)
        self._dims = np.array([(f.width, f.height) for f in faces], np.float64).reshape(-1, 2)
        # One index over every enrolled face, built once (not per frame).
        self._matcher = self._new_matcher()
        self._lock = threading.Lock()
        # Verification views: every face at the verification size, cells normalised once.
        self._views = [self._view_of(f) for f in faces]

    def _new_matcher(self) -> cv2.DescriptorMatcher:
        matcher: cv2.DescriptorMatcher
        if self.cfg.features == "sift":
            matcher = cv2.FlannBasedMatcher(
                {"algorithm": 1, "trees": self.cfg.flann_trees}, {"checks": self.cfg.flann_checks}
            )
            train = np.asarray(self._desc, np.float32)
        else:
            matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
            train = np.asarray(self._desc, np.uint8)
        if len(train):
            matcher.add([train])
            matcher.train()
        return matcher

    def _view_of(self, face: Face) -> NDArray[np.float32]:
        vw = self.cfg.verify_width_px
        vh = max(8, round(vw * face.height / face.width))
        small = cv2.resize(face.image, (vw, vh), interpolation=cv2.INTER_AREA)
        return _cells(np.asarray(small, np.float32), self.cfg.verify_cells)

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

    def find(
        self, image: Image, mask: Image | None = None, trace: list[Candidate] | None = None
    ) -> list[CardMatch]:
        """Every enrolled face visible in ``image`` (optionally only where ``mask`` != 0).

        ``trace``, when given, receives every candidate pose and its outcome (for diagnosing
        a missed card: no candidate near it means too few matches voted for it).
        """
        c = self.cfg
        if not self.library.faces:
            return []
        frame = self._match(image, mask)
        if frame is None:
            return []
        cv2.setRNGSeed(0)  # RANSAC draws from OpenCV's global RNG: same frame, same answer
        found: list[CardMatch] = []
        fits = 0
        # A match votes in 16 bins, so neighbouring bins share most of their matches: a bin
        # with no match that an earlier (fuller) bin did not already try adds no evidence.
        tried = np.zeros(len(frame.used), bool)
        for members in self._bins(frame):
            members = members[~frame.used[members]]
            if len(members) < c.min_votes or tried[members].all():
                continue
            tried[members] = True
            fits += 1
            if fits > c.max_pose_fits:
                break
            match, why = self._pose(frame, members)
            if match is not None:
                found.append(match)
            if trace is not None:
                trace.append(why)
        return _suppress_overlaps(found)

    # -- steps --------------------------------------------------------------------------------

    def _match(self, image: Image, mask: Image | None) -> _Frame | None:
        """Features of the shrunk frame, matched to the library with the ratio test."""
        c = self.cfg
        s = c.frame_scale
        if image.ndim == 2:  # a grey frame: the picture check compares three equal channels
            image = np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), np.uint8)
        small = image
        if s != 1.0:
            small = np.asarray(
                cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA), np.uint8
            )
            if mask is not None:
                size = (small.shape[1], small.shape[0])
                mask = np.asarray(cv2.resize(mask, size, interpolation=cv2.INTER_NEAREST))
        small_gray = _gray(small)
        kps, desc = _features(c, c.max_features_frame).detectAndCompute(
            _normalise_light(small_gray, c), mask
        )
        if desc is None or len(kps) < c.min_votes:
            return None
        query: NDArray[Any] = np.asarray(desc, np.float32 if c.features == "sift" else np.uint8)
        with self._lock:  # a matcher object is not safe to share between threads
            knn = self._matcher.knnMatch(query, k=c.knn)
        q, t = self._ratio_test(knn)
        if len(t) < c.min_votes:
            return None
        return _Frame(
            small,
            small_gray,
            s,
            np.array([kps[i].pt for i in q], np.float32).reshape(-1, 2) / s,
            t,
            self._owner[t],
            np.array([kps[i].size for i in q], np.float32) / s,
            np.array([kps[i].angle for i in q], np.float32),
            np.zeros(len(t), bool),
        )

    def _ratio_test(
        self, knn: Sequence[Sequence[cv2.DMatch]]
    ) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        """Lowe's ratio test against the nearest descriptor on a *different* face.

        One face is described at several sizes, so its near-duplicate descriptors must not veto
        each other: with no other face among the neighbours, the match passes.
        """
        ratio = self.cfg.ratio
        owner = self._owner
        q_idx: list[int] = []
        t_idx: list[int] = []
        for cand in knn:
            if not cand:
                continue
            best = cand[0]
            face = owner[best.trainIdx]
            rival = next((m for m in cand[1:] if owner[m.trainIdx] != face), None)
            if rival is None or best.distance < ratio * rival.distance:
                q_idx.append(best.queryIdx)
                t_idx.append(best.trainIdx)
        return np.array(q_idx, np.intp), np.array(t_idx, np.intp)

    def _bins(self, frame: _Frame) -> Iterable[NDArray[np.intp]]:
        """Matches grouped by Hough bin (face, centre, scale, rotation), fullest bins first.

        Each match votes for the two nearest bins in each of the four dimensions (16 bins), so
        a card whose pose falls on a bin edge is not split in two.
        """
        c = self.cfg
        fsize, fangle = frame.sizes, frame.angles
        t = frame.lib
        owner = frame.owner
        ratio = fsize / np.maximum(self._size[t], 1e-6)
        dtheta = np.radians(fangle - self._angle[t])
        dims = self._dims[owner]
        off = dims / 2 - self._point[t]
        cos, sin = np.cos(dtheta), np.sin(dtheta)
        cx = frame.points[:, 0] + ratio * (cos * off[:, 0] - sin * off[:, 1])
        cy = frame.points[:, 1] + ratio * (sin * off[:, 0] + cos * off[:, 1])
        n_angle = max(1, round(360.0 / c.vote_angle_deg))
        lbase = np.floor(np.log2(ratio) - 0.5).astype(np.int64)
        abase = np.floor(np.degrees(dtheta) % 360.0 / c.vote_angle_deg - 0.5).astype(np.int64)
        longest = dims.max(axis=1)
        keys = []
        for dl in (0, 1):
            lb = lbase + dl
            step = np.maximum(c.vote_position * longest * np.exp2(lb + 0.5), 4.0)
            xb = np.floor(cx / step - 0.5).astype(np.int64)
            yb = np.floor(cy / step - 0.5).astype(np.int64)
            for dx in (0, 1):
                for dy in (0, 1):
                    for da in (0, 1):
                        ab = (abase + da) % n_angle
                        key = owner.astype(np.int64)
                        for part, span in ((xb + dx, 1 << 16), (yb + dy, 1 << 16), (lb, 1 << 8)):
                            key = key * span + (part + span // 2) % span
                        keys.append(key * 64 + ab)
        votes = np.stack(keys, axis=1).ravel()
        _, inverse, counts = np.unique(votes, return_inverse=True, return_counts=True)
        order = np.argsort(inverse, kind="stable")
        starts = np.concatenate([[0], np.cumsum(counts)])
        for b in np.argsort(-counts, kind="stable"):
            if counts[b] < c.min_votes:
                break
            yield np.unique(order[starts[b] : starts[b + 1]] // 16)

    def _pose(self, frame: _Frame, members: NDArray[np.intp]) -> tuple[CardMatch | None, Candidate]:
        """Fit, check and verify one candidate pose; the match (or None) and its record."""
        c = self.cfg
        fi = int(frame.owner[members[0]])
        face = self.library.faces[fi]
        center = tuple(float(v) for v in frame.points[members].mean(axis=0))
        record = Candidate(face.id, (center[0], center[1]), len(members))
        src = self._point[frame.lib[members]].reshape(-1, 1, 2)
        dst = frame.points[members].reshape(-1, 1, 2)
        sim, _ = cv2.estimateAffinePartial2D(
            src, dst, method=cv2.RANSAC, ransacReprojThreshold=c.ransac_reproj_px,
            maxIters=200, confidence=0.99,
        )  # fmt: skip
        if sim is None:
            return None, record
        h: FloatArray = np.vstack([sim, [0.0, 0.0, 1.0]]).astype(np.float64)
        # Every unused match of this face that the pose explains (not only the bin's), then
        # the pose refitted to them: an affine, and a homography when there are enough.
        mine = np.nonzero((frame.owner == fi) & ~frame.used)[0]
        lib_pts = self._point[frame.lib[mine]]
        inl = mine[_reprojection(h, lib_pts, frame.points[mine]) < c.ransac_reproj_px]
        if len(inl) >= 3:
            src = self._point[frame.lib[inl]].reshape(-1, 1, 2)
            aff, _ = cv2.estimateAffine2D(
                src, frame.points[inl].reshape(-1, 1, 2), method=cv2.LMEDS
            )
            if aff is not None:
                h_aff = np.vstack([aff, [0.0, 0.0, 1.0]]).astype(np.float64)
                inl_aff = mine[
                    _reprojection(h_aff, lib_pts, frame.points[mine]) < c.ransac_reproj_px
                ]
                if len(inl_aff) >= len(inl):
                    h, inl = h_aff, inl_aff
        corners = _outline(face, h)
        if len(inl) >= c.homography_min_inliers:
            src = self._point[frame.lib[inl]].reshape(-1, 1, 2)
            dst = frame.points[inl].reshape(-1, 1, 2)
            hom, _ = cv2.findHomography(src, dst, cv2.RANSAC, c.ransac_reproj_px)
            if hom is not None:
                h_hom = np.asarray(hom, np.float64)
                better = _outline(face, h_hom)
                size = np.linalg.norm(corners[2] - corners[0])
                inl_hom = mine[
                    _reprojection(h_hom, lib_pts, frame.points[mine]) < c.ransac_reproj_px
                ]
                if (
                    len(inl_hom) >= len(inl)
                    and np.abs(better - corners).max() < 0.25 * size
                    and _plausible_outline(better, face, c)
                ):
                    h, corners, inl = h_hom, better, inl_hom
        record = replace(record, inliers=len(inl))
        if len(inl) < c.min_inliers:
            return None, replace(record, outcome="inliers")
        record = replace(record, center=_mean_xy(corners))
        if not _plausible_outline(corners, face, c):
            return None, replace(record, outcome="outline")
        score, cells = self._score(frame, fi, h)
        if score >= c.refine_min_score:
            refined = self._refine(frame, face, h)
            if refined is not None:
                better = _outline(face, refined)
                near = np.abs(better - corners).max() < 0.2 * np.linalg.norm(
                    corners[2] - corners[0]
                )
                if near and _plausible_outline(better, face, c):
                    score2, cells2 = self._score(frame, fi, refined)
                    if score2 >= score:
                        h, corners, score, cells = refined, better, score2, cells2
        occluded = float(np.mean(cells < 0.25))
        record = replace(
            record, center=_mean_xy(corners), score=round(score, 3), occluded=round(occluded, 2)
        )
        if score < c.min_face_score:
            return None, replace(record, outcome="score")
        other = max((self._score(frame, j, h, fi)[0] for j in self._same_shape(fi)), default=0.0)
        record = replace(record, margin=round(score - other, 3))
        if score - other < c.min_face_margin:
            return None, replace(record, outcome="margin")
        frame.used[inl] = True
        match = CardMatch(
            face.id, tuple((float(x), float(y)) for x, y in corners), len(inl), round(score, 3)
        )
        return match, replace(record, outcome="claimed")

    def _same_shape(self, fi: int) -> list[int]:
        shape = self._views[fi].shape
        return [j for j, v in enumerate(self._views) if j != fi and v.shape == shape]

    def _score(
        self, frame: _Frame, fi: int, h: FloatArray, pose_of: int | None = None
    ) -> tuple[float, NDArray[np.float32]]:
        """Cell-by-cell colour correlation of the frame under pose ``h`` with face ``fi``.

        ``h`` maps the pixels of face ``pose_of`` (default ``fi``) to the frame; another face
        of the same shape is compared on the same rectified patch.
        """
        c = self.cfg
        face = self.library.faces[fi if pose_of is None else pose_of]
        view = self._views[fi]
        vw = c.verify_width_px
        vh = max(8, round(vw * face.height / face.width))
        s = frame.scale
        to_small = np.diag([s, s, 1.0]) @ h @ np.diag([face.width / vw, face.height / vh, 1.0])
        patch = cv2.warpPerspective(
            frame.small, to_small, (vw, vh), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR
        )
        cells = _cells(np.asarray(patch, np.float32), c.verify_cells)
        ncc = np.asarray((cells * view).sum(axis=1).mean(axis=1), np.float32)
        return float(np.clip(ncc, 0.0, 1.0).mean()), ncc

    def _refine(self, frame: _Frame, face: Face, h: FloatArray) -> FloatArray | None:
        """ECC alignment (homography) of the face picture with the shrunk frame, from ``h``."""
        s = frame.scale
        corners = _outline(face, h) * s
        area = float(cv2.contourArea(corners.astype(np.float32)))
        k = float(np.clip(np.sqrt(area / (face.width * face.height)), 0.05, 1.0))
        tw, th = max(8, round(face.width * k)), max(8, round(face.height * k))
        template = cv2.resize(_gray(face.image), (tw, th), interpolation=cv2.INTER_AREA)
        pad = 0.15 * max(tw, th)
        x0, y0 = np.floor(corners.min(axis=0) - pad).astype(int)
        x1, y1 = np.ceil(corners.max(axis=0) + pad).astype(int)
        fh, fw = frame.small_gray.shape[:2]
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(fw, x1), min(fh, y1)
        if x1 - x0 < 16 or y1 - y0 < 16:
            return None
        crop = frame.small_gray[y0:y1, x0:x1]
        # template pixels -> face pixels -> frame -> shrunk frame -> crop
        outer = np.array([[s, 0.0, -x0], [0.0, s, -y0], [0.0, 0.0, 1.0]])
        inner = np.diag([face.width / tw, face.height / th, 1.0])
        warp = (outer @ h @ inner).astype(np.float32)
        warp /= warp[2, 2]
        criteria = (
            cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS,
            self.cfg.refine_iterations,
            1e-3,
        )
        everywhere = np.full(crop.shape, 255, np.uint8)
        try:
            _, found = cv2.findTransformECC(
                template.astype(np.float32), crop.astype(np.float32), warp,
                cv2.MOTION_HOMOGRAPHY, criteria, everywhere, 3,
            )  # fmt: skip
        except cv2.error:  # ECC did not converge (a hand over most of the card, say)
            return None
        out = np.linalg.inv(outer) @ np.asarray(found, np.float64) @ np.linalg.inv(inner)
        return np.asarray(out / out[2, 2], np.float64)


def _cells(image: NDArray[np.float32], grid: tuple[int, int]) -> NDArray[np.float32]:
    """Split a (h, w, 3) image into ``grid`` (columns, rows) cells; each cell's channels are
    made zero-mean and unit-norm, so a dot product is the per-channel correlation."""
    cols, rows = grid
    h, w = image.shape[:2]
    ch, cw = h // rows, w // cols
    x = image[: ch * rows, : cw * cols].reshape(rows, ch, cols, cw, 3)
    x = x.transpose(0, 2, 1, 3, 4).reshape(rows * cols, ch * cw, 3)
    x = x - x.mean(axis=1, keepdims=True)
    return np.asarray(x / (np.sqrt((x * x).sum(axis=1, keepdims=True)) + 1e-3), np.float32)


def _outline(face: Face, h: FloatArray) -> FloatArray:
    """The face's corners under pose ``h`` (top-left, top-right, bottom-right, bottom-left)."""
    w, ht = face.width, face.height
    pts = np.array([[0, 0], [w, 0], [w, ht], [0, ht]], dtype=np.float64).reshape(-1, 1, 2)
    return np.asarray(cv2.perspectiveTransform(pts, h), np.float64).reshape(4, 2)


def _reprojection(h: FloatArray, src: NDArray[Any], dst: NDArray[Any]) -> FloatArray:
    proj = cv2.perspectiveTransform(np.asarray(src, np.float64).reshape(-1, 1, 2), h)
    return np.asarray(np.hypot(*(proj.reshape(-1, 2) - dst).T), np.float64)


def _mean_xy(points: FloatArray) -> tuple[float, float]:
    return float(points[:, 0].mean()), float(points[:, 1].mean())


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
    for m in sorted(found, key=lambda m: (-m.score, -m.inliers)):
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
    """Reads the tile in each fixed board slot by rectified colour correlation.

    Tiles in the Middle Ages rows sit in known slots of a calibrated board, so the slot can be
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
            half = cv2.resize(_gray(bgr), (self._half, self._half), interpolation=cv2.INTER_AREA)
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
                    per_angle.append((grey, _cells(tpl, (cells, cells))))
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
            ncc = (_cells(patch, (self.cells, self.cells)) * self._fine[i][r][a][1]).sum(axis=1)
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
