"""The enrolled face library: real components carry no codes, so a face is recognised by its
picture. Each enrolled face contributes SIFT keypoints (scale- and rotation-invariant, in
OpenCV's main modules since 4.4) with their size and orientation; ``vision.cards`` finds cards
with them and ``vision.slots`` reads tiles in board slots.

Library layout on disk (one directory, safe to copy between machines)::

    index.json          {"version": 1, "features": "sift", "entries": [{"id", "file", ...}]}
    <id>.png            the face, resized so its long side is ``library_long_side_px``
    <id>.npz            keypoint positions, sizes, angles and descriptors of that face

A library written before sizes and angles were stored is re-described from its pictures.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision import picture
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
    gray = picture.normalise_light(picture.gray(image), cfg)
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
        kps, desc = picture.features(cfg, cfg.max_features_library).detectAndCompute(view, None)
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
