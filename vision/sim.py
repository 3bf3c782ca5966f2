"""Simulated table cameras: seeded frames with hands passing and pieces moving.

``SimulatedTable`` (the tracker tests and the benchmark) follows a script drawn from the seed:
steady stretches, hands that pass over the table and leave, and moves in which a hand reaches
in, a sticker pawn jumps to a new spot under it, and the hand leaves. Each frame comes with the
layout that is true at that moment, so a test can check what the tracker committed and when.

``lay_out``/``render_placed`` draw the table of a game's position, placed by the game's own
``layout(state, regions)`` verb, and ``StateCamera`` films a table that follows a game's states:
the default camera of ``herald serve`` (``bridge/camera.py``). ``standin_face_map`` says which
attributes each stand-in face shows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.calibration import BoardProfile
from vision.scenes import (
    EASY,
    Camera,
    Hand,
    Layout,
    Piece,
    Scene,
    Style,
    _light,
    draw_hand_list,
    finish_frame,
    random_camera,
    random_layout,
    render,
    view_table,
)

Image = NDArray[np.uint8]


@dataclass(frozen=True)
class StreamFrame:
    """One frame of the stream and what is true on the table at that moment."""

    index: int
    image: Image
    layout: Layout
    event: str
    hands: int


@dataclass(frozen=True)
class Step:
    """One scripted frame: the layout version, the hands in view and a label."""

    layout: int
    hands: tuple[Hand, ...]
    event: str


class SimulatedTable:
    """A seeded stream of 1920x1080 frames over one fixed camera.

    Args:
        seed: Drives the layout, the camera, the script and the sensor noise.
        frames: Stream length.
        style: Camera and light conditions (default: easy, a well-lit club table).
        tile_keys: Tile faces to deal into the row slots.
        card_keys: Cards beside the board.
        moves: How many pawn moves the script contains.
        passes: How many hands pass over without moving anything.
    """

    def __init__(
        self,
        seed: int,
        frames: int = 120,
        style: Style = EASY,
        tile_keys: list[str] | None = None,
        card_keys: list[str] | None = None,
        moves: int = 2,
        passes: int = 2,
        *,
        profile: BoardProfile,
    ) -> None:
        self.seed = seed
        self.style = style
        self.profile = profile
        rng = np.random.default_rng(seed)
        first = random_layout(
            rng, self.profile, n_stickers=16, tile_keys=tile_keys, card_keys=card_keys
        )
        self.camera: Camera = random_camera(rng, style)
        self.layouts: list[Layout] = [first]
        self.steps: list[Step] = self._script(rng, frames, moves, passes)
        self._noise_seed = int(rng.integers(0, 2**31))
        self._cache: dict[int, Image] = {}

    def _script(self, rng: np.random.Generator, frames: int, moves: int, passes: int) -> list[Step]:
        events = ["move"] * moves + ["pass"] * passes
        rng.shuffle(events)
        gap = frames // (len(events) + 1)
        steps: list[Step] = []
        version = 0
        w, h = self.camera.size
        for k, event in enumerate(events):
            while len(steps) < gap * (k + 1) - 6:
                steps.append(Step(version, (), "steady"))
            start = np.array([rng.uniform(0.2, 0.8) * w, h * 1.05])
            target = np.array([rng.uniform(0.25, 0.75) * w, rng.uniform(0.3, 0.7) * h])
            if event == "move":
                version = self._move_pawn(rng, version, target)
            path = [start + (target - start) * t for t in (0.35, 0.7, 1.0)]
            path += [target, target]
            path += [target + (start - target) * t for t in (0.5, 1.0)]
            for i, p in enumerate(path):
                # The piece jumps while the hand covers it (the middle of the path).
                v = version if (event != "move" or i >= 3) else version - 1
                hand = Hand((float(p[0]), float(p[1])), 10.0, 1.0)
                steps.append(Step(v, (hand,), event))
        while len(steps) < frames:
            steps.append(Step(version, (), "steady"))
        return steps[:frames]

    def _move_pawn(
        self, rng: np.random.Generator, version: int, target_px: NDArray[np.float64]
    ) -> int:
        """Move the pawn nearest the hand's target to a free spot near it; new layout version."""
        import cv2

        layout = self.layouts[version]
        inv = np.linalg.inv(self.camera.homography)
        tx, ty = cv2.perspectiveTransform(np.array([[target_px]], dtype=np.float64), inv).reshape(2)
        pawns = [
            (i, p)
            for i, p in enumerate(layout.pieces)
            if p.kind == "marker" and int(p.key) not in self.profile.corner_ids
        ]
        i, piece = min(
            pawns, key=lambda ip: np.hypot(ip[1].center_mm[0] - tx, ip[1].center_mm[1] - ty)
        )
        others = [p.center_mm for p in layout.pieces if p is not piece]
        for _ in range(200):
            nx = float(np.clip(piece.center_mm[0] + rng.uniform(-60, 60), 60, 500))
            ny = float(np.clip(piece.center_mm[1] + rng.uniform(-60, 60), 20, 360))
            if all(np.hypot(nx - ox, ny - oy) > 30 for ox, oy in others):
                break
        self.layouts.append(layout.moved(i, (nx, ny)))
        return len(self.layouts) - 1

    def render(self, layout_version: int, hands: list[Hand], noise_key: int) -> Image:
        """A frame of layout ``layout_version`` with explicit hands (for hand-made scripts)."""
        if layout_version not in self._cache:
            table, _ = view_table(
                self.layouts[layout_version], self.camera, self.profile, self.seed % 4
            )
            self._cache[layout_version] = table
        rng = np.random.default_rng((self._noise_seed, noise_key))
        image, _ = finish_frame(self._cache[layout_version], self.camera, hands, rng)
        return image

    def __len__(self) -> int:
        return len(self.steps)

    def frame(self, index: int) -> StreamFrame:
        """Render frame ``index`` (deterministic: same seed, same pixels)."""
        step = self.steps[index]
        image = self.render(step.layout, list(step.hands), index)
        return StreamFrame(index, image, self.layouts[step.layout], step.event, len(step.hands))

    def __iter__(self) -> Iterator[StreamFrame]:
        for i in range(len(self.steps)):
            yield self.frame(i)


# -- a table drawn from an engine state ----------------------------------------------------------


@dataclass
class StateScene:
    """A frame of an engine state, with ground truth in the engine's table vocabulary.

    ``observations`` are ``{"component", "region", "attrs"}`` dicts, what a perfect reader
    would report (the ``Game.interpret`` input); ``scene`` holds the per-piece pixel truth.
    """

    image: Image
    layout: Layout
    camera: Camera
    observations: list[dict[str, Any]]
    scene: Scene


Placer = Callable[[Any], Sequence[Any]]
"""``place(state)``: the game's components of ``state`` as placed items (``engine.layout``)."""


def region_rects(profile: BoardProfile) -> dict[str, tuple[float, float, float, float]]:
    """The profile's regions by name, as ``(x, y, width, height)`` in board millimetres: what a
    game's ``layout(state, regions)`` places its components in."""
    return {r.name: r.rect for r in profile.regions}


def lay_out(placed: Sequence[Any], profile: BoardProfile) -> tuple[Layout, list[dict[str, Any]]]:
    """The drawable table of a game's placed components, and the observations they give.

    Each item has ``kind`` (``picture``: drawn by its art ``key``; ``sticker``: ``key`` is a
    sticker label the profile's ``markers`` map to an id), ``center``, ``size`` (board mm) and
    ``seen`` (what a perfect reader reports of it, or None). The board's corner markers come
    first. Nothing here knows a game: the placing is the game's own verb.

    Raises:
        ValueError: the profile has no (more) sticker for a label.
    """
    ids: dict[str, list[int]] = {}
    for marker_id, label in sorted(profile.markers.items()):
        ids.setdefault(label, []).append(marker_id)
    pieces: list[Piece] = []
    truth: list[dict[str, Any]] = []
    m = profile.corner_marker_mm
    for marker_id, center in zip(profile.corner_ids, profile.corner_centers_mm, strict=True):
        pieces.append(Piece("marker", str(marker_id), center, (m, m)))
    used: set[int] = set()
    for item in placed:
        if item.kind == "sticker":
            free = [i for i in ids.get(item.key, []) if i not in used]
            if not free:
                raise ValueError(f"the board profile has no (more) sticker for {item.key!r}")
            used.add(free[0])
            size = (profile.sticker_mm, profile.sticker_mm)
            pieces.append(Piece("marker", str(free[0]), tuple(item.center), size))
        else:
            pieces.append(Piece("tile", item.key, tuple(item.center), tuple(item.size)))
        if item.seen is not None:
            truth.append(dict(item.seen))
    return Layout(tuple(pieces), profile.dictionary), truth


def render_placed(
    placed: Sequence[Any],
    seed: int,
    profile: BoardProfile,
    style: Style = EASY,
    camera: Camera | None = None,
    hands: int = 0,
) -> StateScene:
    """Photograph a game's placed components (see ``lay_out``) through a seeded camera.

    Pass the ``camera`` of an earlier ``StateScene`` to shoot the next position from the same
    place, as a fixed table camera does. ``seed`` drives the camera (when not given), hands and
    sensor noise.
    """
    layout, truth = lay_out(placed, profile)
    rng = np.random.default_rng(seed)
    cam = camera or random_camera(rng, style)
    scene = render(layout, cam, rng, profile, board_seed=seed % 4, hands=hands)
    return StateScene(scene.image, layout, cam, truth, scene)


def standin_face_map(faces: dict[str, dict[str, Any]], game: str) -> Any:
    """The face map of a game's stand-in art (art key → the attributes its face shows), as a
    game's ``camera_faces()`` gives it: derived from the game's data, never written by hand."""
    from vision.faces import FaceMap

    note = (
        "Stand-in art of the simulated table -> the attributes each face shows, generated by "
        "`herald vision faces` from the game's own data. For real components, enrol photos "
        "with `herald vision enroll` and write faces.json beside the library."
    )
    return FaceMap(faces, game, note)


def standin_faces(face_ids: Any) -> dict[str, Image]:
    """The stand-in art of square faces (the slot classifier's templates), 320 px."""
    from vision.art import stand_in_art

    return {key: stand_in_art(key, 320, 320) for key in face_ids}


@dataclass(frozen=True)
class CameraFrame:
    """One frame of a ``StateCamera`` script and what it shows (for logs and tests)."""

    image: Image
    event: str
    hands: int


STATE_CAMERA = replace(EASY, zoom=(1.12, 1.15), roll_deg=(-1.5, 1.5))
"""The simulated camera of ``herald serve``: a well-lit table, the camera framed on the board
(at 1280x720 a 10 mm sticker is then about 18 px, as on a 1080p camera framed on the table)."""


class StateCamera:
    """A fixed simulated camera over a table laid out from engine states.

    ``show(state)`` changes what lies on the table; ``still()`` is the settled picture;
    ``move_frames(state, rng)`` is a hand reaching to where the table changes, the pieces
    changing under it, and the hand leaving; ``pass_frames(rng)`` is a hand passing over and
    leaving with nothing changed.

    Frames get what ``finish_frame`` gives a scene (uneven light and vignette, the hand lit like
    the table, defocus blur, sensor noise, JPEG), computed so that a server can afford them: the
    camera is fixed, so the light field is computed once; the lit, blurred table once per
    position; hands are drawn at half size; the sensor noise is one of a few patterns drawn
    once. A still table is always the same picture, as the tracker expects of a still camera.

    Args:
        seed: Drives the camera pose and conditions, the board print and the sensor noise.
        style: Camera and light conditions.
        size: Frame size in pixels; 1280x720 keeps the cost low beside the server.
        profile: The board profile the state is laid out on.
        place: The game's placing of a state's components (``layout`` with the profile's
            regions bound).
    """

    NOISE_PATTERNS = 4

    def __init__(
        self,
        seed: int,
        style: Style = STATE_CAMERA,
        size: tuple[int, int] = (1280, 720),
        *,
        profile: BoardProfile,
        place: Placer,
    ) -> None:
        import cv2

        self.profile = profile
        self.place = place
        rng = np.random.default_rng(seed)
        self.camera: Camera = random_camera(rng, style, size)
        self.board_seed = seed % 4
        w, h = size
        grey = np.full((h, w, 3), 128, np.uint8)
        self._light = np.asarray(_light(grey, self.camera), np.float32) / 128.0
        sigma = self.camera.noise_sigma
        self._noise: list[tuple[Image, Image]] = []
        for _ in range(self.NOISE_PATTERNS):
            n = rng.standard_normal((h, w, 3), dtype=np.float32) * sigma
            self._noise.append((
                np.asarray(np.clip(n, 0, 255), np.uint8),
                np.asarray(np.clip(-n, 0, 255), np.uint8),
            ))  # fmt: skip
        self._cv2 = cv2
        self._frames = 0
        self.layout: Layout | None = None
        self.truth: list[dict[str, Any]] = []
        self._base: Image | None = None
        self._still: Image | None = None

    @property
    def size(self) -> tuple[int, int]:
        return self.camera.size

    def show(self, state: Any) -> list[Layout]:
        """Lay ``state`` out on the table; returns [old, new] layouts (old may be the same)."""
        layout, truth = lay_out(self.place(state), self.profile)
        old = self.layout or layout
        if layout != self.layout:
            self.layout, self.truth = layout, truth
            table, _ = view_table(layout, self.camera, self.profile, self.board_seed)
            self._base = self._lit(table)
            self._still = None
        return [old, layout]

    def _lit(self, image: Image) -> Image:
        out = np.clip(image.astype(np.float32) * self._light, 0, 255).astype(np.uint8)
        if self.camera.blur_sigma > 0:
            return np.asarray(self._cv2.GaussianBlur(out, (0, 0), self.camera.blur_sigma), np.uint8)
        return out

    def still(self) -> Image:
        """The settled picture of the current layout."""
        if self._still is None:
            assert self._base is not None, "show() a state first"
            self._still = self._finish(self._base, [], 0)
        return self._still

    def _finish(self, base: Image, hands: list[Hand], key: int) -> Image:
        cv2 = self._cv2
        frame = base
        if hands:
            w, h = self.camera.size
            half = [
                replace(hand, center=(hand.center[0] / 2, hand.center[1] / 2), scale=hand.scale / 2)
                for hand in hands
            ]
            layer, mask = draw_hand_list(half, (w // 2, h // 2), np.random.default_rng(key))
            ys, xs = np.nonzero(mask)
            if len(xs):
                x0, x1 = max(0, 2 * int(xs.min()) - 4), min(w, 2 * int(xs.max()) + 6)
                y0, y1 = max(0, 2 * int(ys.min()) - 4), min(h, 2 * int(ys.max()) + 6)
                big = cv2.resize(layer, (w, h), interpolation=cv2.INTER_LINEAR)[y0:y1, x0:x1]
                alpha = cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)[y0:y1, x0:x1]
                lit = np.clip(big.astype(np.float32) * self._light[y0:y1, x0:x1], 0, 255)
                if self.camera.blur_sigma > 0:
                    lit = cv2.GaussianBlur(lit, (0, 0), self.camera.blur_sigma)
                a = alpha.astype(np.float32)[..., None] / 255.0
                frame = base.copy()
                roi = base[y0:y1, x0:x1].astype(np.float32)
                frame[y0:y1, x0:x1] = (lit * a + roi * (1 - a)).astype(np.uint8)
        up, down = self._noise[key % len(self._noise)]
        frame = cv2.subtract(cv2.add(frame, up), down)
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, self.camera.jpeg_quality])
        if ok:
            frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return np.asarray(frame, dtype=np.uint8)

    def _hand_frames(
        self, rng: np.random.Generator, target_px: tuple[float, float]
    ) -> list[tuple[Hand, float]]:
        """A hand's path from the near edge to ``target_px`` and back: (hand, time 0..1)."""
        w, h = self.camera.size
        start = np.array([rng.uniform(0.2, 0.8) * w, h * 1.05])
        target = np.array(target_px)
        skin = (float(rng.uniform(60, 150)), float(rng.uniform(110, 180)), 200.0)
        angle = float(rng.uniform(-25, 25))
        scale = float(rng.uniform(0.8, 1.1)) * w / 1920
        out = []
        for t, k in ((0.0, 0.55), (0.4, 1.0), (0.6, 1.0), (1.0, 0.45)):
            p = target + (start - target) * (1 - k)
            out.append((Hand((float(p[0]), float(p[1])), angle, scale, skin), t))
        return out

    def move_frames(self, state: Any, rng: np.random.Generator) -> list[CameraFrame]:
        """A hand reaches in, the table becomes ``state`` under it, the hand leaves."""
        old_base = self._base
        old, new = self.show(state)
        new_base = self._base
        assert new_base is not None
        target = self._target(old, new, rng)
        frames = []
        for hand, t in self._hand_frames(rng, target):
            base = old_base if t < 0.5 and old_base is not None else new_base
            self._frames += 1
            frames.append(CameraFrame(self._finish(base, [hand], self._frames), "move", 1))
        return frames

    def pass_frames(self, rng: np.random.Generator, hold: int = 0) -> list[CameraFrame]:
        """A hand passes over the table and leaves; nothing changes. With ``hold`` the hand
        rests over the table for that many more frames (a still picture with a hand in it)."""
        assert self._base is not None, "show() a state first"
        w, h = self.camera.size
        target = (float(rng.uniform(0.25, 0.75) * w), float(rng.uniform(0.3, 0.7) * h))
        frames = []
        for hand, t in self._hand_frames(rng, target):
            self._frames += 1
            frame = CameraFrame(self._finish(self._base, [hand], self._frames), "pass", 1)
            frames.append(frame)
            if t == 0.4:
                frames += [frame] * hold
        return frames

    def _target(self, old: Layout, new: Layout, rng: np.random.Generator) -> tuple[float, float]:
        """Where the hand goes: the first piece that appeared, moved or left (frame pixels)."""
        before = set(old.pieces)
        after = set(new.pieces)
        changed = [p for p in new.pieces if p not in before] + [
            p for p in old.pieces if p not in after
        ]
        if not changed:
            w, h = self.camera.size
            return float(rng.uniform(0.3, 0.7) * w), float(rng.uniform(0.3, 0.7) * h)
        pt = np.array([[changed[0].center_mm]], dtype=np.float64)
        x, y = self._cv2.perspectiveTransform(pt, self.camera.homography).reshape(2)
        return float(x), float(y)
