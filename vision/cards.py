"""Cards by appearance: local features of the enrolled faces (``vision.library``), verification.

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
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision import picture
from vision.config import MatchConfig
from vision.library import Face, Library

Image = NDArray[np.uint8]
FloatArray = NDArray[np.float64]


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
        return picture.cells(np.asarray(small, np.float32), self.cfg.verify_cells)

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
        small_gray = picture.gray(small)
        kps, desc = picture.features(c, c.max_features_frame).detectAndCompute(
            picture.normalise_light(small_gray, c), mask
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
        cells = picture.cells(np.asarray(patch, np.float32), c.verify_cells)
        ncc = np.asarray((cells * view).sum(axis=1).mean(axis=1), np.float32)
        return float(np.clip(ncc, 0.0, 1.0).mean()), ncc

    def _refine(self, frame: _Frame, face: Face, h: FloatArray) -> FloatArray | None:
        """ECC alignment (homography) of the face picture with the shrunk frame, from ``h``."""
        s = frame.scale
        corners = _outline(face, h) * s
        area = float(cv2.contourArea(corners.astype(np.float32)))
        k = float(np.clip(np.sqrt(area / (face.width * face.height)), 0.05, 1.0))
        tw, th = max(8, round(face.width * k)), max(8, round(face.height * k))
        template = cv2.resize(picture.gray(face.image), (tw, th), interpolation=cv2.INTER_AREA)
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
