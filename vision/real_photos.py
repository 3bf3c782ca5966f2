"""Figures on real photographs: OpenCV's own sample pictures, labelled by hand.

Synthetic scenes, however varied, are drawn by our own code. Debian's ``opencv-doc`` package
ships real photographs of printed markers (the ArUco and ChArUco tutorials); the ones that fit
are copied into ``tests/data/opencv_photos`` with hand-checked labels (``labels.json``: ids and
corners per photo, the licence). Its ``examples/data`` folder holds ordinary photographs with
no marker at all (fruit, buildings, faces, chessboards): there every report is a false id.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.family_bench import Reads, detectors

PHOTOS = Path(__file__).resolve().parents[1] / "tests" / "data" / "opencv_photos"
"""The labelled photographs and ``labels.json``."""
CARD_PHOTOS = Path(__file__).resolve().parents[1] / "tests" / "data" / "opencv_cards"
"""OpenCV's feature-matching pair (a box top and a photograph with that box) and its labels."""
NEGATIVES = Path("/usr/share/doc/opencv-doc/examples/data")
"""OpenCV's sample photographs without markers (``apt-get install opencv-doc``)."""
NEGATIVE_DICTS = ("4x4_250", "6x6_250")
"""Negatives are read with the sticker kit's dictionary and the tutorials' one."""
_NOT_NEGATIVE = {"board.jpg"}
"""Sample pictures that hold markers (none are labelled): left out of the negatives."""


def load_labels(folder: Path = PHOTOS) -> dict[str, Any]:
    """The labels file: ``{"photos": {name: {"dictionary", "markers": [{"id", "corners"}]}}}``."""
    data: dict[str, Any] = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    return data


def labelled_figures(
    folder: Path = PHOTOS, dets: dict[str, dict[str, Callable[[np.ndarray], Reads]]] | None = None
) -> dict[str, Any]:
    """Per photo and in total: recall and false ids of Herald and both baselines."""
    labels = load_labels(folder)["photos"]
    per_dict = dets or {}
    out: dict[str, Any] = {}
    totals: dict[str, list[int]] = {}
    for name, entry in sorted(labels.items()):
        dictionary = entry["dictionary"]
        if dictionary not in per_dict:
            per_dict[dictionary] = detectors(dictionary)
        image = np.asarray(cv2.imread(str(folder / name), cv2.IMREAD_COLOR), np.uint8)
        truth = [
            (int(m["id"]), np.asarray(m["corners"], dtype=np.float64)) for m in entry["markers"]
        ]
        row: dict[str, Any] = {"markers": len(truth)}
        for det_name, read in per_dict[dictionary].items():
            reads = read(image)
            found, false = _match(truth, reads)
            row[det_name] = {"found": found, "false_ids": false}
            t = totals.setdefault(det_name, [0, 0, 0])
            t[0] += found
            t[1] += len(truth)
            t[2] += false
        out[name] = row
    summary = {
        name: {"recall": round(f / max(1, n), 4), "markers": n, "false_ids": fp}
        for name, (f, n, fp) in totals.items()
    }
    return {"photos": out, "total": summary}


def negative_figures(folder: Path = NEGATIVES) -> dict[str, Any] | None:
    """False ids on OpenCV's marker-free sample photographs, or None when not installed."""
    if not folder.is_dir():
        return None
    files = sorted(
        p
        for p in folder.iterdir()
        if p.suffix.lower() in (".jpg", ".jpeg", ".png") and p.name not in _NOT_NEGATIVE
    )
    out: dict[str, Any] = {"photos": 0, "dictionaries": list(NEGATIVE_DICTS)}
    false: dict[str, int] = {}
    for dictionary in NEGATIVE_DICTS:
        dets = detectors(dictionary)
        for path in files:
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None or min(image.shape[:2]) < 64:
                continue
            if dictionary == NEGATIVE_DICTS[0]:
                out["photos"] += 1
            for det_name, read in dets.items():
                false[det_name] = false.get(det_name, 0) + len(read(image))
    out["false_ids"] = false
    return out


def card_figures(folder: Path = CARD_PHOTOS, negatives: Path | None = None) -> dict[str, Any]:
    """Cards on real photographs: the labelled faces enrolled (``herald vision enroll``), each
    labelled photo read by the card matcher (found / expected, faces claimed that are not
    there), and with ``negatives`` every OpenCV sample photograph without those faces (every
    claim there is false). Only Herald: the OpenCV baselines read markers, not cards."""
    from vision.cards import Matcher
    from vision.library import Library

    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    library = Library()
    for face, file in sorted(labels["faces"].items()):
        library.add(face, np.asarray(cv2.imread(str(folder / file), cv2.IMREAD_COLOR), np.uint8))
    matcher = Matcher(library)
    out: dict[str, Any] = {"photos": {}}
    for name, entry in sorted(labels["photos"].items()):
        image = np.asarray(cv2.imread(str(folder / name), cv2.IMREAD_COLOR), np.uint8)
        claims = [c.id for c in matcher.find(image)]
        want = list(entry["cards"])
        found = sum(min(claims.count(f), want.count(f)) for f in set(want))
        out["photos"][name] = {
            "cards": len(want),
            "herald": {"found": found, "false_claims": len(claims) - found},
        }
    if negatives is not None and negatives.is_dir():
        skip = set(labels["faces"].values()) | set(labels["photos"]) | _NOT_NEGATIVE
        photos = false = 0
        for path in sorted(negatives.iterdir()):
            if path.suffix.lower() not in (".jpg", ".jpeg", ".png") or path.name in skip:
                continue
            sample = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if sample is None or min(sample.shape[:2]) < 64:
                continue
            photos += 1
            false += len(matcher.find(np.asarray(sample, np.uint8)))
        out["negatives"] = {"photos": photos, "herald_false_claims": false}
    return out


def _match(truth: list[tuple[int, np.ndarray]], reads: Reads) -> tuple[int, int]:
    hit: set[int] = set()
    false = 0
    for mid, (x, y) in reads:
        k = next(
            (
                i
                for i, (tid, corners) in enumerate(truth)
                if tid == mid
                and np.hypot(x - corners[:, 0].mean(), y - corners[:, 1].mean())
                < 0.3 * np.linalg.norm(corners[1] - corners[0])
            ),
            None,
        )
        if k is None:
            false += 1
        else:
            hit.add(k)
    return len(hit), false
