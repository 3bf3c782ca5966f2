"""The calibration page (issue #4): capture a frame, find the board, draw its regions, save.

The host opens ``/calibrate/<host token>`` (linked from the host display when a camera is
attached). The page asks for a frame of the table camera and shows the corner markers the
detector found; the board's four corners come from those markers (``vision.calibration``) or
from four clicks; the server fits the homography and returns a rectified, top-down picture of
the board, on which the board profile's named regions (row slots, the columns of each seat's board,
graveyards, the dice tray) are drawn and edited in board millimetres. Save validates the
profile, writes it atomically (``vision.calibration.save_profile``) and the page checks it on a
fresh live frame: the saved regions drawn where the corner markers put them, which is what the
live vision pipeline will read.

Everything is HTTP (JSON and JPEG), for the host only, and a refused request changes nothing.
The state lives on the ``Calibrator`` object of one ``WebTable``, not in module globals. Routes:
docs/protocol.md ("Calibration"); the page: docs/vision.md ("Calibration page").
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
from flask import Blueprint, Response, abort, jsonify, request, send_from_directory
from numpy.typing import NDArray
from werkzeug.exceptions import RequestEntityTooLarge

from bridge.game_files import camera_profile_path
from bridge.referee import Referee
from bridge.web.refusal import Refused
from engine.i18n import DEFAULT_LANG, message
from engine.registry import game_keys
from vision.calibration import (
    BoardProfile,
    Calibration,
    CornerError,
    ProfileError,
    calibrate,
    from_board_corners,
    load_profile,
    save_profile,
)
from vision.config import BoardConfig
from vision.markers import (
    MarkerDetection,
    MarkerDetector,
    UnknownDictionaryError,
    dictionary_by_name,
)

Image = NDArray[np.uint8]

STATIC = Path(__file__).parent / "static"

KEEP_CAPTURES = 4
"""Captured frames held for the page (a 1080p frame is 6 MB): older ones must be captured again."""

VIEW_MARGIN_MM = 20.0
"""Room around the board and its regions in the rectified picture."""

VIEW_MAX_PX = (1600, 1100)
"""Largest rectified picture; its scale is at most ``VIEW_MAX_PX_PER_MM``."""

VIEW_MAX_PX_PER_MM = 3.0

MAX_REGIONS = 400
MAX_NAME = 80
MAX_BOARD_MM = 3000.0
JPEG_QUALITY = 88

PROFILE_KEYS = frozenset(BoardProfile(name="", width_mm=1.0, height_mm=1.0).to_json())
"""The keys of a profile document; anything else is refused rather than silently dropped."""


class CalibrationCamera(Protocol):
    """What the page needs of the table camera (``herald serve`` passes its camera).

    ``latest_frame`` returns the newest BGR frame (or None before the first one) without
    blocking. ``profile_path`` is the board profile file the live pipeline reads and Save
    replaces (None: cannot save). After a save, a camera that also has
    ``use_profile(profile: BoardProfile)`` is handed the new profile.
    """

    profile_path: Path | None

    def latest_frame(self) -> Image | None: ...


class CalibrationError(Refused):
    """A refused calibration request (``bridge.web.refusal``)."""


@dataclass(frozen=True)
class BoardView:
    """The rectified picture's frame: which board-mm rectangle it shows, at what scale."""

    origin_mm: tuple[float, float]
    size_mm: tuple[float, float]
    px_per_mm: float

    @classmethod
    def of(cls, profile: BoardProfile) -> BoardView:
        """The board and every region, with a margin (the tray and card area lie off the board).

        Regions are looked at no further than one board size beyond the board's edges.
        """
        w, h = profile.width_mm, profile.height_mm
        x0, y0, x1, y1 = 0.0, 0.0, w, h
        for region in profile.regions:
            rx, ry, rw, rh = region.rect
            x0, y0 = min(x0, rx), min(y0, ry)
            x1, y1 = max(x1, rx + rw), max(y1, ry + rh)
        m = VIEW_MARGIN_MM
        x0, y0 = max(x0 - m, -w), max(y0 - m, -h)
        x1, y1 = min(x1 + m, 2 * w), min(y1 + m, 2 * h)
        scale = min(VIEW_MAX_PX_PER_MM, VIEW_MAX_PX[0] / (x1 - x0), VIEW_MAX_PX[1] / (y1 - y0))
        return cls((x0, y0), (x1 - x0, y1 - y0), scale)

    @property
    def size_px(self) -> tuple[int, int]:
        return round(self.size_mm[0] * self.px_per_mm), round(self.size_mm[1] * self.px_per_mm)

    def mm_to_view(self) -> NDArray[np.float64]:
        """3x3 board-mm → picture-pixel matrix."""
        s, (x0, y0) = self.px_per_mm, self.origin_mm
        return np.array([[s, 0.0, -x0 * s], [0.0, s, -y0 * s], [0.0, 0.0, 1.0]])

    def to_json(self) -> dict[str, Any]:
        return {
            "origin_mm": [round(v, 2) for v in self.origin_mm],
            "size_mm": [round(v, 2) for v in self.size_mm],
            "px_per_mm": round(self.px_per_mm, 4),
            "size_px": list(self.size_px),
        }


@dataclass
class Capture:
    """One frame the page works on, and the board mapping found or clicked on it."""

    id: int
    frame: Image
    markers: list[MarkerDetection]
    calibration: Calibration | None = None
    view: BoardView | None = None
    rectified: int = 0
    """Raised on every new mapping, so the page's picture address changes with it."""


class Calibrator:
    """The calibration page's server side for one table: captures, rectification, saving.

    Args:
        camera: The table camera (``CalibrationCamera``), or None: the page then says so and
            can neither capture nor save.
        game_key: The served game; its built-in board profile is the starting point and names
            the regions the page expects.
        lang: Catalog language of the sentences returned.
    """

    def __init__(self, camera: Any, game_key: str, lang: str = DEFAULT_LANG) -> None:
        self.camera = camera
        self.lang = lang
        shipped = camera_profile_path(game_key)
        if shipped is not None:
            self.builtin = load_profile(shipped)
        else:
            self.builtin = BoardProfile.from_config(BoardConfig())
        self._captures: OrderedDict[int, Capture] = OrderedDict()
        self._next_id = 1
        self._detectors: dict[str, MarkerDetector] = {}
        self._lock = threading.Lock()
        self._save_lock = threading.Lock()

    # --- queries -------------------------------------------------------------------------------

    @property
    def profile_path(self) -> Path | None:
        path = getattr(self.camera, "profile_path", None) if self.camera is not None else None
        return Path(path) if path is not None else None

    def cannot_save(self) -> CalibrationError | None:
        """Why Save is refused whatever the page sends (no camera, no file, a shipped file)."""
        if self.camera is None:
            return CalibrationError("calibrate/no-camera", 503)
        path = self.profile_path
        if path is None:
            return CalibrationError("calibrate/no-profile-path", 409)
        if _is_builtin(path):
            return CalibrationError("calibrate/builtin-profile", 409, path=str(path))
        return None

    def expected(self) -> list[dict[str, str]]:
        """The regions of the game's built-in profile: what the page lists as to be placed."""
        return [{"name": r.name, "kind": r.kind} for r in self.builtin.regions]

    def current(self) -> tuple[BoardProfile, str, str | None]:
        """The profile to start from: the saved file, else the game's built-in one.

        Returns the profile, where it came from (``file`` or ``builtin``) and a sentence when
        the saved file exists but cannot be read (it is then replaced on the next save).
        """
        path = self.profile_path
        if path is not None and path.exists():
            try:
                return load_profile(path), "file", None
            except ProfileError as exc:
                note = message("calibrate/file-broken", self.lang, path=str(path), detail=str(exc))
                return self.builtin, "builtin", note
        return self.builtin, "builtin", None

    def state(self) -> dict[str, Any]:
        """What the page loads first: the profile to edit and what can be done."""
        profile, source, note = self.current()
        path = self.profile_path
        refused = self.cannot_save()
        return {
            "ok": True,
            "camera": self.camera is not None,
            "can_save": refused is None,
            "cannot_save": refused.to_json(self.lang)["message"] if refused else None,
            "path": str(path) if path is not None else None,
            "source": source,
            "revision": _revision(path),
            "profile": profile.to_json(),
            "view": BoardView.of(profile).to_json(),
            "expected": self.expected(),
            "note": note,
            "no_camera": None if self.camera is not None else message("calibrate/no-camera"),
        }

    # --- captures ------------------------------------------------------------------------------

    def capture(self, body: Any) -> dict[str, Any]:
        """A current frame with its markers, and the board as the corner markers place it.

        ``body`` may carry the ``profile`` being edited (its corner markers and size are used);
        without it the current profile is.
        """
        profile = self._profile_or_current(body)
        frame = self._frame()
        markers = self._detector(profile.dictionary).detect(frame)
        cap = self._keep(frame, markers)
        board = calibrate(markers, profile)
        corners_px = None
        if board.found:
            corners_px = _rounded(board.to_image(_board_outline(profile)))
            text = message(
                "calibrate/board-found",
                self.lang,
                ids=_ids(board.corners_seen),
                error=board.reprojection_px,
            )
        else:
            text = message("calibrate/board-missing", self.lang, seen=len(board.corners_seen))
        return {
            "ok": True,
            "capture": cap.id,
            "width": int(frame.shape[1]),
            "height": int(frame.shape[0]),
            "markers": _markers_json(markers, profile),
            "board": {
                "found": board.found,
                "corners_seen": list(board.corners_seen),
                "reprojection_px": _finite(board.reprojection_px),
                "corners_px": corners_px,
                "message": text,
            },
        }

    def rectify(self, capture_id: int, body: Any) -> dict[str, Any]:
        """The homography given by the board's four corners, and the top-down view's frame.

        ``body``: ``{"corners_px": [[x, y] × 4], "profile": {...}}``, corners in the board's
        top-left, top-right, bottom-right, bottom-left order. The picture itself is
        ``board_jpeg``. ``measured`` says where, on that mapping, the corner markers seen in the
        frame sit: with clicked corners this is how the profile learns where the stickers are.
        """
        if not isinstance(body, dict) or "corners_px" not in body:
            raise CalibrationError("calibrate/malformed", 400, fields="corners_px, profile")
        profile = parse_profile(body.get("profile"))
        try:
            board = from_board_corners(body["corners_px"], profile)
        except CornerError as exc:
            raise CalibrationError(f"calibrate/corners-{exc.reason}", 400) from exc
        view = BoardView.of(profile)
        with self._lock:
            cap = self._get(capture_id)
            cap.calibration, cap.view = board, view
            cap.rectified += 1
            version = cap.rectified
        assert board.homography is not None
        return {
            "ok": True,
            "capture": capture_id,
            "version": version,
            "homography": [[float(v) for v in row] for row in board.homography],
            "view": view.to_json(),
            "measured": _measured(cap.markers, board, profile),
        }

    def check(self) -> dict[str, Any]:
        """A fresh live frame read with the saved profile, as the live pipeline reads it.

        The board comes from the corner markers alone (no clicks): the saved regions, mapped into
        the frame, are what ``herald serve`` will look at.
        """
        profile, _, _ = self.current()
        frame = self._frame()
        markers = self._detector(profile.dictionary).detect(frame)
        board = calibrate(markers, profile)
        cap = self._keep(frame, markers)
        regions: list[dict[str, Any]] = []
        outline = None
        if board.found:
            with self._lock:
                cap.calibration, cap.view = board, BoardView.of(profile)
            outline = _rounded(board.to_image(_board_outline(profile)))
            for r in profile.regions:
                x, y, w, h = r.rect
                pts = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], dtype=np.float64)
                regions.append(
                    {"name": r.name, "kind": r.kind, "points_px": _rounded(board.to_image(pts))}
                )
            text = message(
                "calibrate/check-found",
                self.lang,
                ids=_ids(board.corners_seen),
                error=board.reprojection_px,
                regions=len(regions),
            )
        else:
            text = message("calibrate/check-missing", self.lang, seen=len(board.corners_seen))
        return {
            "ok": True,
            "capture": cap.id,
            "width": int(frame.shape[1]),
            "height": int(frame.shape[0]),
            "found": board.found,
            "corners_seen": list(board.corners_seen),
            "reprojection_px": _finite(board.reprojection_px),
            "board_px": outline,
            "regions": regions,
            "markers": _markers_json(markers, profile),
            "message": text,
        }

    def frame_jpeg(self, capture_id: int) -> bytes:
        with self._lock:
            frame = self._get(capture_id).frame
        return _jpeg(frame)

    def board_jpeg(self, capture_id: int) -> bytes:
        """The rectified top-down picture of a capture (after ``rectify`` or ``check``)."""
        with self._lock:
            cap = self._get(capture_id)
            board, view, frame = cap.calibration, cap.view, cap.frame
        if board is None or board.homography is None or view is None:
            raise CalibrationError("calibrate/not-rectified", 409)
        warp = view.mm_to_view() @ board.homography
        picture = cv2.warpPerspective(
            frame,
            warp,
            view.size_px,
            flags=cv2.INTER_AREA,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(48, 44, 40),
        )
        return _jpeg(np.asarray(picture, dtype=np.uint8))

    # --- saving --------------------------------------------------------------------------------

    def save(self, body: Any) -> dict[str, Any]:
        """Validate and write the profile: ``{"profile": {...}, "revision": "..."}``.

        ``revision`` is the one the page loaded (``state``); if the file changed since, the save
        is refused (``calibrate/stale``) instead of overwriting someone else's work.
        """
        refused = self.cannot_save()
        if refused is not None:
            raise refused
        path = self.profile_path
        assert path is not None
        if not isinstance(body, dict) or not isinstance(body.get("revision"), str):
            raise CalibrationError("calibrate/malformed", 400, fields="profile, revision")
        profile = parse_profile(body.get("profile"))
        with self._save_lock:
            if body["revision"] != _revision(path):
                raise CalibrationError("calibrate/stale", 409)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                save_profile(profile, path)
            except (OSError, ProfileError) as exc:
                raise CalibrationError("calibrate/cannot-write", 500, detail=str(exc)) from exc
            revision = _revision(path)
        use = getattr(self.camera, "use_profile", None)
        if callable(use):
            use(profile)
        placed = {r.name for r in profile.regions}
        missing = [e["name"] for e in self.expected() if e["name"] not in placed]
        warning = None
        if missing:
            shown = ", ".join(missing[:8]) + (", …" if len(missing) > 8 else "")
            warning = message(
                "calibrate/missing-regions", self.lang, count=len(missing), names=shown
            )
        return {
            "ok": True,
            "path": str(path),
            "revision": revision,
            "regions": len(profile.regions),
            "message": message(
                "calibrate/saved", self.lang, regions=len(profile.regions), path=str(path)
            ),
            "warning": warning,
        }

    # --- helpers -------------------------------------------------------------------------------

    def _profile_or_current(self, body: Any) -> BoardProfile:
        if isinstance(body, dict) and body.get("profile") is not None:
            return parse_profile(body["profile"])
        return self.current()[0]

    def _frame(self) -> Image:
        if self.camera is None:
            raise CalibrationError("calibrate/no-camera", 503)
        frame = self.camera.latest_frame()
        if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.size == 0:
            raise CalibrationError("calibrate/no-frame", 503)
        if frame.ndim == 2:
            return np.asarray(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
        if frame.ndim != 3 or frame.shape[2] != 3:
            raise CalibrationError("calibrate/no-frame", 503)
        return np.array(frame, dtype=np.uint8, copy=True)  # the camera may reuse its buffer

    def _detector(self, dictionary: str) -> MarkerDetector:
        with self._lock:
            found = self._detectors.get(dictionary)
        if found is None:
            found = MarkerDetector(dictionary=dictionary)
            with self._lock:
                self._detectors[dictionary] = found
        return found

    def _keep(self, frame: Image, markers: list[MarkerDetection]) -> Capture:
        with self._lock:
            cap = Capture(self._next_id, frame, markers)
            self._next_id += 1
            self._captures[cap.id] = cap
            while len(self._captures) > KEEP_CAPTURES:
                self._captures.popitem(last=False)
            return cap

    def _get(self, capture_id: int) -> Capture:
        cap = self._captures.get(capture_id)
        if cap is None:
            raise CalibrationError("calibrate/no-capture", 404, keep=KEEP_CAPTURES)
        return cap


def parse_profile(doc: Any) -> BoardProfile:
    """A submitted profile document, checked beyond what the loader insists on.

    The loader (``BoardProfile.from_json``) checks the shape; here also: no unknown keys, a
    known marker dictionary, finite sizes, at most ``MAX_REGIONS`` regions with unique printable
    names and finite rectangles no further than one board size from the board.

    Raises:
        CalibrationError: the first problem found, with its catalog code (HTTP 400).
    """
    if not isinstance(doc, dict):
        raise CalibrationError("calibrate/malformed", 400, fields="profile")
    unknown = sorted(str(k) for k in doc if k not in PROFILE_KEYS)
    if unknown:
        raise CalibrationError("calibrate/unknown-key", 400, key=unknown[0][:40])
    try:
        profile = BoardProfile.from_json(doc)
    except (ProfileError, RecursionError) as exc:
        raise CalibrationError("calibrate/bad-profile", 400, detail=str(exc)[:200]) from exc
    try:
        dictionary_by_name(profile.dictionary)
    except UnknownDictionaryError as exc:
        raise CalibrationError("calibrate/bad-profile", 400, detail=str(exc)[:200]) from exc
    w, h = profile.width_mm, profile.height_mm
    sizes = (w, h, profile.corner_marker_mm, profile.sticker_mm)
    if not all(math.isfinite(v) and 0 < v <= MAX_BOARD_MM for v in sizes) or not all(
        math.isfinite(v) for p in profile.corner_centers_mm for v in p
    ):
        raise CalibrationError("calibrate/board-size", 400, limit=int(MAX_BOARD_MM))
    if len(profile.regions) > MAX_REGIONS:
        raise CalibrationError(
            "calibrate/too-many-regions", 400, count=len(profile.regions), limit=MAX_REGIONS
        )
    seen: set[str] = set()
    for region in profile.regions:
        name = region.name
        if not 0 < len(name) <= MAX_NAME or not name.isprintable() or name != name.strip():
            raise CalibrationError(
                "calibrate/region-name", 400, name=name[:MAX_NAME], limit=MAX_NAME
            )
        if name in seen:
            raise CalibrationError("calibrate/region-duplicate", 400, name=name)
        seen.add(name)
        x, y, rw, rh = region.rect
        if not (
            all(math.isfinite(v) for v in region.rect)
            and -w <= x
            and x + rw <= 2 * w
            and -h <= y
            and y + rh <= 2 * h
        ):
            raise CalibrationError("calibrate/region-rect", 400, name=name)
        if not 0 < len(region.kind) <= 40 or not region.kind.isprintable():
            raise CalibrationError("calibrate/region-name", 400, name=name, limit=MAX_NAME)
    return profile


def _is_builtin(path: Path) -> bool:
    """True for a profile a game ships in its package (package data, not the venue's file)."""
    try:
        target = path.resolve()
        return any(
            (p := camera_profile_path(k)) is not None and p.resolve() == target for k in game_keys()
        )
    except OSError:
        return False


def _revision(path: Path | None) -> str:
    """A short fingerprint of the profile file's bytes (``none`` while there is no file)."""
    if path is None:
        return "none"
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return "none"
    except OSError:
        return "unreadable"
    return hashlib.sha256(data).hexdigest()[:16]


def _board_outline(profile: BoardProfile) -> NDArray[np.float64]:
    w, h = profile.width_mm, profile.height_mm
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)


def _rounded(points: NDArray[np.float64], digits: int = 1) -> list[list[float]]:
    return [[round(float(x), digits), round(float(y), digits)] for x, y in points]


def _finite(value: float) -> float | None:
    return round(value, 3) if math.isfinite(value) else None


def _ids(ids: tuple[int, ...]) -> str:
    return ", ".join(str(i) for i in ids)


def _markers_json(markers: list[MarkerDetection], profile: BoardProfile) -> list[dict[str, Any]]:
    corners = set(profile.corner_ids)
    return [
        {
            "id": m.id,
            "corner": m.id in corners,
            "corners_px": _rounded(np.asarray(m.corners, dtype=np.float64)),
        }
        for m in sorted(markers, key=lambda m: m.id)
    ]


def _measured(
    markers: list[MarkerDetection], board: Calibration, profile: BoardProfile
) -> list[dict[str, Any]]:
    """Where the corner markers seen in the frame sit on the board, under this mapping."""
    expected = dict(zip(profile.corner_ids, profile.corner_centers_mm, strict=True))
    out = []
    for m in sorted(markers, key=lambda m: m.id):
        if m.id not in expected:
            continue
        pts = board.to_board(np.asarray(m.corners, dtype=np.float64))
        cx, cy = (float(v) for v in pts.mean(axis=0))
        side = float(np.mean(np.linalg.norm(np.roll(pts, -1, axis=0) - pts, axis=1)))
        ex, ey = expected[m.id]
        out.append(
            {
                "id": m.id,
                "center_mm": [round(cx, 1), round(cy, 1)],
                "profile_mm": [ex, ey],
                "offset_mm": round(math.hypot(cx - ex, cy - ey), 1),
                "side_mm": round(side, 1),
            }
        )
    return out


def _jpeg(image: Image) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise CalibrationError("calibrate/no-frame", 503)
    return bytes(buf.tobytes())


def _image(data: bytes) -> Response:
    response = Response(data, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response


def calibration_blueprint(calibrator: Calibrator, referee: Referee) -> Blueprint:
    """The page and its JSON/JPEG routes, every one for the host's token only."""
    bp = Blueprint("calibration", __name__)

    def host_only(token: str) -> None:
        found = referee.authenticate(token)
        if found is None:
            raise CalibrationError("auth/bad-token", 403)
        if found.role != "host":
            raise CalibrationError("calibrate/host-only", 403)

    def body() -> Any:
        try:
            return request.get_json(silent=True)
        except RecursionError:  # nested too deeply for the JSON parser: unreadable
            return None

    @bp.errorhandler(CalibrationError)
    def refused(exc: CalibrationError) -> tuple[Response, int]:
        return jsonify(exc.to_json(calibrator.lang)), exc.status

    @bp.errorhandler(RequestEntityTooLarge)
    def too_large(exc: RequestEntityTooLarge) -> tuple[Response, int]:
        return refused(CalibrationError("calibrate/too-large", 413))

    @bp.get("/calibrate/<token>")
    def page(token: str) -> Response:
        found = referee.authenticate(token)
        if found is None or found.role != "host":
            abort(403, message("auth/bad-token" if found is None else "calibrate/host-only"))
        response = send_from_directory(STATIC, "calibrate.html")
        response.headers["Cache-Control"] = "no-store"
        return response

    @bp.get("/api/calibrate/<token>/profile")
    def profile(token: str) -> Response:
        host_only(token)
        return jsonify(calibrator.state())

    @bp.post("/api/calibrate/<token>/profile")
    def save(token: str) -> Response:
        host_only(token)
        return jsonify(calibrator.save(body()))

    @bp.post("/api/calibrate/<token>/capture")
    def capture(token: str) -> Response:
        host_only(token)
        return jsonify(calibrator.capture(body()))

    @bp.get("/api/calibrate/<token>/capture/<int:cid>/frame.jpg")
    def frame(token: str, cid: int) -> Response:
        host_only(token)
        return _image(calibrator.frame_jpeg(cid))

    @bp.post("/api/calibrate/<token>/capture/<int:cid>/rectify")
    def rectify(token: str, cid: int) -> Response:
        host_only(token)
        return jsonify(calibrator.rectify(cid, body()))

    @bp.get("/api/calibrate/<token>/capture/<int:cid>/board.jpg")
    def board(token: str, cid: int) -> Response:
        host_only(token)
        return _image(calibrator.board_jpeg(cid))

    @bp.post("/api/calibrate/<token>/check")
    def check(token: str) -> Response:
        host_only(token)
        return jsonify(calibrator.check())

    return bp
