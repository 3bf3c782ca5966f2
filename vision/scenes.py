"""Seeded synthetic table scenes with ground truth, for tests, the benchmark and the simulator.

A scene is drawn in two steps. First a top-down *table canvas* in board millimetres (board with
printed slots, corner markers, sticker pawns, tiles and cards with stand-in art, dice in the
tray), then a *camera* maps it to a 1920x1080 frame: perspective tilt and roll, uneven light with
a soft shadow and glare, hands (skin-coloured, above the table), defocus blur, sensor noise and
JPEG compression. Every random choice comes from a ``numpy.random.Generator`` built from the
caller's seed; nothing here reads a global RNG.

Ground truth comes out in frame pixels together with how much of each piece stays visible
(occluded by hands or by other pieces), so a benchmark can count only what a person could see.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.art import card_back, die_face, stand_in_art
from vision.calibration import BoardProfile
from vision.markers import dictionary_by_name, usable_ids

Image = NDArray[np.uint8]
FloatArray = NDArray[np.float64]

TABLE_ORIGIN_MM = (-120.0, -35.0)
TABLE_SIZE_MM = (800.0, 450.0)
CANVAS_PX_PER_MM = 4.0
TILE_MM = 45.0
CARD_MM = (63.0, 88.0)
DIE_MM = 16.0
PAWN_MM = 16.0


@dataclass(frozen=True)
class Piece:
    """One physical thing on the table, in board millimetres.

    ``kind`` is ``"marker"`` (a sticker on a pawn or a corner marker), ``"tile"``, ``"card"`` or
    ``"die"``; ``key`` is the marker ID, the art key, or the die value as text.
    """

    kind: str
    key: str
    center_mm: tuple[float, float]
    size_mm: tuple[float, float]
    angle_deg: float = 0.0
    face_up: bool = True


@dataclass(frozen=True)
class Layout:
    """What lies on the table: pieces in drawing order (later pieces cover earlier ones)."""

    pieces: tuple[Piece, ...]
    dictionary: str = "4x4_250"

    def moved(self, index: int, center_mm: tuple[float, float]) -> Layout:
        """The same layout with piece ``index`` moved (for tracker streams)."""
        pieces = list(self.pieces)
        pieces[index] = replace(pieces[index], center_mm=center_mm)
        return replace(self, pieces=tuple(pieces))


@dataclass(frozen=True)
class Style:
    """Ranges the camera and the table conditions are drawn from."""

    far_scale: tuple[float, float] = (0.65, 0.85)
    roll_deg: tuple[float, float] = (-6.0, 6.0)
    zoom: tuple[float, float] = (0.85, 1.0)
    light: tuple[float, float] = (0.45, 1.0)
    gradient: tuple[float, float] = (0.0, 0.45)
    shadow_prob: float = 0.6
    glare_prob: float = 0.3
    blur_sigma: tuple[float, float] = (0.6, 1.4)
    noise_sigma: tuple[float, float] = (3.0, 8.0)
    jpeg_quality: tuple[int, int] = (50, 85)
    hands: tuple[int, int] = (0, 2)


EASY = Style(
    far_scale=(0.9, 0.95),
    roll_deg=(-2.0, 2.0),
    zoom=(1.0, 1.02),
    light=(0.85, 1.0),
    gradient=(0.0, 0.1),
    shadow_prob=0.0,
    glare_prob=0.0,
    blur_sigma=(0.3, 0.5),
    noise_sigma=(1.0, 2.0),
    jpeg_quality=(90, 95),
    hands=(0, 0),
)
HARD = Style()


@dataclass(frozen=True)
class Camera:
    """One drawn camera: the board-mm → frame-pixel homography and the image conditions."""

    homography: FloatArray
    size: tuple[int, int]
    light: float
    gradient: tuple[float, float]
    shadow: tuple[float, float, float, float] | None
    glare: tuple[float, float, float] | None
    blur_sigma: float
    noise_sigma: float
    jpeg_quality: int


@dataclass(frozen=True)
class Truth:
    """Ground truth of one piece in the frame."""

    kind: str
    key: str
    corners_px: FloatArray
    center_px: tuple[float, float]
    board_xy: tuple[float, float]
    visible: float
    face_up: bool = True


@dataclass
class Scene:
    """A rendered frame and everything true about it."""

    image: Image
    camera: Camera
    layout: Layout
    truth: list[Truth] = field(default_factory=list)
    hand_mask: Image | None = None

    def of_kind(self, kind: str, min_visible: float = 0.0) -> list[Truth]:
        """Ground truth of one kind with at least ``min_visible`` of it in view."""
        return [t for t in self.truth if t.kind == kind and t.visible >= min_visible]


# -- layouts ----------------------------------------------------------------------------------


def random_layout(
    rng: np.random.Generator,
    profile: BoardProfile,
    n_stickers: int = 24,
    tile_keys: list[str] | None = None,
    card_keys: list[str] | None = None,
    n_dice: int = 2,
    dictionary: str = "4x4_250",
) -> Layout:
    """A plausible table on ``profile``'s board: corner markers, tiles in its slots, sticker
    pawns, cards, dice.

    Sticker IDs are drawn from those the profile does not use for corners; pawns never overlap
    each other or a tile; cards lie beside the board and may overlap one another.
    """
    pieces: list[Piece] = []
    m = profile.corner_marker_mm
    for marker_id, center in zip(profile.corner_ids, profile.corner_centers_mm, strict=True):
        pieces.append(Piece("marker", str(marker_id), center, (m, m)))
    taken: list[tuple[float, float, float]] = []
    # Tiles go into rows 1-3 only: row 4 is empty at that point of a round, and keeping the
    # number of draws fixed keeps every seeded scene (and the benchmark figures) the same.
    for slot in profile.regions_of_kind("slot")[:18]:
        if tile_keys and rng.random() < 0.75:
            key = tile_keys[int(rng.integers(0, len(tile_keys)))]
            cx, cy = slot.center
            jitter = rng.uniform(-3, 3, 2)
            pieces.append(
                Piece(
                    "tile",
                    key,
                    (cx + jitter[0], cy + jitter[1]),
                    (TILE_MM - 4, TILE_MM - 4),
                    float(rng.uniform(-6, 6) + 90 * rng.integers(0, 4)),
                )
            )
            taken.append((cx, cy, TILE_MM * 0.75))
    ids = [i for i in usable_ids(dictionary) if i not in profile.corner_ids]
    chosen = rng.choice(ids, size=min(n_stickers, len(ids)), replace=False)
    for marker_id in chosen:
        for _ in range(200):
            x = float(rng.uniform(60, profile.width_mm - 60))
            y = float(rng.uniform(20, profile.height_mm - 20))
            if all(np.hypot(x - tx, y - ty) > r + PAWN_MM for tx, ty, r in taken):
                break
        else:
            continue
        taken.append((x, y, PAWN_MM / 2))
        pieces.append(
            Piece(
                "marker",
                str(int(marker_id)),
                (x, y),
                (profile.sticker_mm, profile.sticker_mm),
                float(rng.uniform(0, 360)),
            )
        )
    for i, key in enumerate(card_keys or []):
        col, row = i % 2, i // 2
        x = -62.0 if col == 0 else 620.0
        y = 60.0 + row * 95.0 + float(rng.uniform(-10, 10))
        if col == 1 and 120 < y < 300:
            y += 190.0
        pieces.append(
            Piece(
                "card",
                key,
                (x + float(rng.uniform(-8, 8)), y),
                CARD_MM,
                float(rng.uniform(-25, 25) + 180 * rng.integers(0, 2)),
            )
        )
    tray = next(iter(profile.regions_of_kind("tray")), None)
    if tray is not None:
        tx, ty, tw, th = tray.rect
        placed: list[tuple[float, float]] = []
        for _ in range(n_dice):
            for _ in range(100):
                x = float(rng.uniform(tx + 14, tx + tw - 14))
                y = float(rng.uniform(ty + 14, ty + th - 14))
                if all(np.hypot(x - px, y - py) > DIE_MM * 1.6 for px, py in placed):
                    break
            placed.append((x, y))
            pieces.append(
                Piece(
                    "die",
                    str(int(rng.integers(1, 7))),
                    (x, y),
                    (DIE_MM, DIE_MM),
                    float(rng.uniform(0, 90)),
                )
            )
    return Layout(tuple(pieces), dictionary)


# -- camera -----------------------------------------------------------------------------------


def random_camera(
    rng: np.random.Generator, style: Style = HARD, size: tuple[int, int] = (1920, 1080)
) -> Camera:
    """A camera looking down the table from one long side, drawn from ``style``."""
    w, h = size
    far = float(rng.uniform(*style.far_scale))
    zoom = float(rng.uniform(*style.zoom))
    roll = np.radians(float(rng.uniform(*style.roll_deg)))
    near_w = w * 0.98 * zoom
    far_w = near_w * far
    height = h * 0.96 * zoom * (0.75 + 0.25 * far)
    cx = w / 2 + float(rng.uniform(-0.02, 0.02)) * w
    cy = h / 2 + float(rng.uniform(-0.02, 0.02)) * h
    quad = np.array(
        [
            [-far_w / 2, -height / 2],
            [far_w / 2, -height / 2],
            [near_w / 2, height / 2],
            [-near_w / 2, height / 2],
        ]
    )
    rot = np.array([[np.cos(roll), -np.sin(roll)], [np.sin(roll), np.cos(roll)]])
    quad = quad @ rot.T + (cx, cy)
    ox, oy = TABLE_ORIGIN_MM
    tw, th = TABLE_SIZE_MM
    table = np.array([[ox, oy], [ox + tw, oy], [ox + tw, oy + th], [ox, oy + th]])
    hom = cv2.getPerspectiveTransform(table.astype(np.float32), quad.astype(np.float32))
    shadow = None
    if rng.random() < style.shadow_prob:
        shadow = (
            float(rng.uniform(0, w)),
            float(rng.uniform(0, h)),
            float(rng.uniform(150, 500)),
            float(rng.uniform(0.35, 0.6)),
        )
    glare = None
    if rng.random() < style.glare_prob:
        glare = (float(rng.uniform(0, w)), float(rng.uniform(0, h)), float(rng.uniform(80, 250)))
    return Camera(
        homography=np.asarray(hom, dtype=np.float64),
        size=size,
        light=float(rng.uniform(*style.light)),
        gradient=(float(rng.uniform(*style.gradient)), float(rng.uniform(0, 2 * np.pi))),
        shadow=shadow,
        glare=glare,
        blur_sigma=float(rng.uniform(*style.blur_sigma)),
        noise_sigma=float(rng.uniform(*style.noise_sigma)),
        jpeg_quality=int(rng.integers(style.jpeg_quality[0], style.jpeg_quality[1] + 1)),
    )


# -- drawing ----------------------------------------------------------------------------------


def _to_canvas(xy: tuple[float, float]) -> tuple[float, float]:
    return (
        (xy[0] - TABLE_ORIGIN_MM[0]) * CANVAS_PX_PER_MM,
        (xy[1] - TABLE_ORIGIN_MM[1]) * CANVAS_PX_PER_MM,
    )


def piece_corners_mm(piece: Piece) -> FloatArray:
    """Corners of a piece in board mm, in its own top-left, top-right, bottom-right, bottom-left
    order (for markers: ArUco corner order)."""
    w, h = piece.size_mm
    a = np.radians(piece.angle_deg)
    # Board y grows downwards; a positive angle turns the piece counter-clockwise on screen.
    rot = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return np.asarray(local @ rot.T + piece.center_mm, dtype=np.float64)


def _paste(
    canvas: Image, img: Image, corners_mm: FloatArray, mask: NDArray[np.uint8] | None = None
) -> None:
    """Warp ``img`` onto the canvas so its corners land on ``corners_mm`` (only its bbox)."""
    dst = np.array([_to_canvas((float(x), float(y))) for x, y in corners_mm], dtype=np.float32)
    x0, y0 = np.floor(dst.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 2
    ch, cw = canvas.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(cw, x1), min(ch, y1)
    if x1 <= x0 or y1 <= y0:
        return
    h, w = img.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    m = cv2.getAffineTransform(src[:3], (dst - (x0, y0))[:3].astype(np.float32))
    size = (int(x1 - x0), int(y1 - y0))
    warped = cv2.warpAffine(img, m, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    alpha_src = mask if mask is not None else np.full((h, w), 255, np.uint8)
    alpha = cv2.warpAffine(alpha_src, m, size, flags=cv2.INTER_LINEAR, borderValue=0)
    a = (alpha.astype(np.float32) / 255.0)[..., None]
    roi = canvas[y0:y1, x0:x1]
    roi[:] = (warped * a + roi * (1 - a)).astype(np.uint8)


def _marker_sticker(marker_id: int, dictionary: str, px: int, margin_px: int) -> Image:
    d = dictionary_by_name(dictionary)
    cells = int(d.markerSize) + 2
    raw = cv2.aruco.generateImageMarker(d, marker_id, cells * 10)
    marker = cv2.resize(raw, (px, px), interpolation=cv2.INTER_AREA)
    m = margin_px
    sticker = cv2.copyMakeBorder(marker, m, m, m, m, cv2.BORDER_CONSTANT, value=250)
    return np.asarray(cv2.cvtColor(sticker, cv2.COLOR_GRAY2BGR), dtype=np.uint8)


def _board_canvas(profile: BoardProfile, rng: np.random.Generator) -> Image:
    r = CANVAS_PX_PER_MM
    w, h = int(TABLE_SIZE_MM[0] * r), int(TABLE_SIZE_MM[1] * r)
    # Wood: low-frequency colour waves plus grain.
    low = rng.normal(0, 1, (h // 40 + 2, w // 40 + 2)).astype(np.float32)
    low = np.asarray(cv2.resize(low, (w, h), interpolation=cv2.INTER_CUBIC), np.float32)
    grain = cv2.resize(rng.normal(0, 1, (h, w // 16)).astype(np.float32), (w, h))
    base = np.array([60, 95, 140], np.float32)
    wood = base[None, None, :] * (1 + 0.08 * low + 0.05 * grain)[..., None]
    canvas = np.clip(wood, 0, 255).astype(np.uint8)
    x0, y0 = (int(v) for v in _to_canvas((0.0, 0.0)))
    x1, y1 = (int(v) for v in _to_canvas((profile.width_mm, profile.height_mm)))
    board = np.full((y1 - y0, x1 - x0, 3), (178, 208, 222), np.uint8)
    paper = cv2.resize(
        rng.normal(0, 1, ((y1 - y0) // 8, (x1 - x0) // 8)).astype(np.float32), (x1 - x0, y1 - y0)
    )
    board = np.clip(board + (6 * paper)[..., None], 0, 255).astype(np.uint8)
    canvas[y0:y1, x0:x1] = board
    for region in profile.regions:
        rx, ry, rw, rh = region.rect
        p0 = tuple(int(v) for v in _to_canvas((rx, ry)))
        p1 = tuple(int(v) for v in _to_canvas((rx + rw, ry + rh)))
        color = (70, 90, 110) if region.kind != "tray" else (40, 70, 30)
        # Every region is printed, and the names of the kinds the profile prints (which may
        # overflow narrow regions as on a cramped real board): board art the card matcher must
        # ignore, not leave out of the scenes.
        if region.kind == "tray":
            cv2.rectangle(canvas, p0, p1, color, -1)
        else:
            cv2.rectangle(canvas, p0, p1, color, 3, cv2.LINE_AA)
        if region.kind in profile.printed_names:
            label = region.name.split("/")[-1].upper()[:9]
            org = (p0[0] + 8, p0[1] + 30)
            cv2.putText(canvas, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.9, color, 2, cv2.LINE_AA)
    # Printed decoration: square-ish ornaments that look a little like markers to a detector.
    for _ in range(30):
        x = float(rng.uniform(10, profile.width_mm - 10))
        y = float(rng.uniform(5, profile.height_mm - 5))
        s = float(rng.uniform(6, 14))
        p0 = tuple(int(v) for v in _to_canvas((x, y)))
        p1 = tuple(int(v) for v in _to_canvas((x + s, y + s)))
        cv2.rectangle(canvas, p0, p1, (30, 40, 50), -1)
        k = max(2, int((p1[0] - p0[0]) / 4))
        for j in range(int(rng.integers(1, 5))):
            q = (p0[0] + k + j * k // 2, p0[1] + k + (j % 2) * k)
            cv2.rectangle(canvas, q, (q[0] + k, q[1] + k), (200, 220, 230), -1)
    return canvas


_CANVAS_CACHE: dict[tuple[object, ...], Image] = {}


def draw_table(
    layout: Layout, profile: BoardProfile, board_seed: int
) -> tuple[Image, NDArray[np.int32]]:
    """The top-down table canvas and a per-piece label map (0 = nothing, i+1 = piece i).

    The label map is at 1 px/mm and tells which piece is on top where, for visibility.
    """
    # the board's own geometry, not just its name: two profiles of one game (a group's own
    # board beside the shipped one) are two boards
    key = (profile.name, profile.width_mm, profile.height_mm, profile.regions, board_seed)
    if key not in _CANVAS_CACHE:
        if len(_CANVAS_CACHE) > 8:
            _CANVAS_CACHE.clear()
        _CANVAS_CACHE[key] = _board_canvas(profile, np.random.default_rng(board_seed))
    canvas = _CANVAS_CACHE[key].copy()
    labels = np.zeros((int(TABLE_SIZE_MM[1]), int(TABLE_SIZE_MM[0])), np.int32)
    r = CANVAS_PX_PER_MM
    for i, piece in enumerate(layout.pieces):
        corners = piece_corners_mm(piece)
        if piece.kind == "marker":
            marker_id = int(piece.key)
            side = piece.size_mm[0]
            margin = side * 0.15
            if side <= 20:  # a sticker on a coloured pawn
                pawn = tuple(int(v) for v in _to_canvas(piece.center_mm))
                color = _pawn_color(marker_id)
                cv2.circle(canvas, pawn, int(PAWN_MM / 2 * r) + 4, (20, 20, 20), -1, cv2.LINE_AA)
                cv2.circle(canvas, pawn, int(PAWN_MM / 2 * r), color, -1, cv2.LINE_AA)
            sticker = _marker_sticker(marker_id, layout.dictionary, int(side * r), int(margin * r))
            outer = replace(piece, size_mm=(side + 2 * margin, side + 2 * margin))
            _paste(canvas, sticker, piece_corners_mm(outer))
            corners = piece_corners_mm(outer)
        elif piece.kind in ("tile", "card"):
            pw, ph = piece.size_mm
            px_w, px_h = int(pw * r), int(ph * r)
            art = stand_in_art(piece.key, px_w, px_h) if piece.face_up else card_back(px_w, px_h)
            _paste(canvas, art, corners)
        elif piece.kind == "die":
            size = int(piece.size_mm[0] * r)
            shade = replace(piece, center_mm=(piece.center_mm[0] + 1.2, piece.center_mm[1] + 1.5))
            face, mask = die_face(int(piece.key), size)
            _paste(canvas, np.full_like(face, 30), piece_corners_mm(shade), mask)
            _paste(canvas, face, corners, mask)
        poly = (corners - TABLE_ORIGIN_MM).astype(np.int32)
        cv2.fillPoly(labels, [poly], i + 1)
    return canvas, labels


def _pawn_color(marker_id: int) -> tuple[int, int, int]:
    palette = [(40, 40, 200), (200, 80, 30), (40, 160, 40), (30, 200, 220)]
    return palette[marker_id % len(palette)]


@dataclass(frozen=True)
class Hand:
    """One hand above the table: palm centre (frame px), tilt, size and skin colour (BGR)."""

    center: tuple[float, float]
    angle_deg: float = 0.0
    scale: float = 1.0
    skin: tuple[float, float, float] = (110.0, 150.0, 210.0)


def random_hand(rng: np.random.Generator, size: tuple[int, int]) -> Hand:
    """A hand somewhere over the table, drawn from ``rng``."""
    w, h = size
    return Hand(
        (float(rng.uniform(0.1, 0.9) * w), float(rng.uniform(0.25, 0.85) * h)),
        float(rng.uniform(-40, 40)),
        float(rng.uniform(0.8, 1.2)),
        (float(rng.uniform(60, 150)), float(rng.uniform(110, 180)), float(rng.uniform(170, 235))),
    )


def draw_hands(
    rng: np.random.Generator, size: tuple[int, int], count: int
) -> tuple[Image, NDArray[np.uint8]]:
    """``count`` random hands; see ``draw_hand_list``."""
    return draw_hand_list([random_hand(rng, size) for _ in range(count)], size, rng)


def draw_hand_list(
    hands: list[Hand], size: tuple[int, int], rng: np.random.Generator
) -> tuple[Image, NDArray[np.uint8]]:
    """Skin-coloured hands (palm, fingers, forearm) reaching in from the frame's near edge.

    Returns the BGR colour layer and its 0/255 mask.
    """
    w, h = size
    layer = np.zeros((h, w, 3), np.uint8)
    mask = np.zeros((h, w), np.uint8)
    for hand in hands:
        skin = np.array(hand.skin)
        cx, cy = hand.center
        ang = hand.angle_deg
        scale = hand.scale
        one = np.zeros((h, w), np.uint8)
        palm = (int(80 * scale), int(95 * scale))
        cv2.ellipse(one, (int(cx), int(cy)), palm, ang, 0, 360, 255, -1, cv2.LINE_AA)
        a = np.radians(ang)
        down = np.array([np.sin(-a), np.cos(a)])
        side = np.array([np.cos(a), np.sin(a)])
        arm_end = np.array([cx, cy]) + down * 900
        cv2.line(
            one,
            (int(cx), int(cy)),
            (int(arm_end[0]), int(arm_end[1])),
            255,
            int(120 * scale),
            cv2.LINE_AA,
        )
        for k in range(4):
            base = np.array([cx, cy]) - down * 70 * scale + side * (k - 1.5) * 38 * scale
            tip = base - down * (90.0 + 18.0 * np.sin(1.7 * k + ang)) * scale
            cv2.line(
                one,
                (int(base[0]), int(base[1])),
                (int(tip[0]), int(tip[1])),
                255,
                int(30 * scale),
                cv2.LINE_AA,
            )
        thumb = np.array([cx, cy]) + side * 85 * scale
        tip = thumb + side * 60 * scale - down * 40 * scale
        cv2.line(
            one,
            (int(thumb[0]), int(thumb[1])),
            (int(tip[0]), int(tip[1])),
            255,
            int(34 * scale),
            cv2.LINE_AA,
        )
        small = cv2.resize(one, (w // 8, h // 8), interpolation=cv2.INTER_AREA)
        shade = cv2.resize(cv2.GaussianBlur(small, (0, 0), 3), (w, h)).astype(np.float32) / 255.0
        # blended only where the hand is: the same per-pixel arithmetic, a fraction of the work
        sel = one > 0
        color = skin[None, :] * (0.7 + 0.3 * shade[sel][:, None])
        a8 = one[sel].astype(np.float32)[:, None] / 255.0
        layer[sel] = (color * a8 + layer[sel] * (1 - a8)).astype(np.uint8)
        np.maximum(mask, one, out=mask)
    return layer, mask


def render(
    layout: Layout,
    camera: Camera,
    rng: np.random.Generator,
    profile: BoardProfile,
    board_seed: int = 0,
    hands: int = 0,
) -> Scene:
    """Draw ``layout`` through ``camera``; ``rng`` drives hands and sensor noise only."""
    table, labels = view_table(layout, camera, profile, board_seed)
    hand_list = [random_hand(rng, camera.size) for _ in range(hands)]
    frame, hand_mask = finish_frame(table, camera, hand_list, rng)
    scene = Scene(frame, camera, layout, hand_mask=hand_mask)
    scene.truth = _truth(layout, camera, labels, hand_mask)
    return scene


def view_table(
    layout: Layout, camera: Camera, profile: BoardProfile, board_seed: int = 0
) -> tuple[Image, NDArray[np.int32]]:
    """The table as the camera sees it, before hands, light and sensor (cache it per layout)."""
    canvas, labels = draw_table(layout, profile, board_seed)
    w, h = camera.size
    r = CANVAS_PX_PER_MM
    to_px = np.array([[r, 0, -TABLE_ORIGIN_MM[0] * r], [0, r, -TABLE_ORIGIN_MM[1] * r], [0, 0, 1]])
    hom = camera.homography @ np.linalg.inv(to_px)
    canvas = np.asarray(cv2.GaussianBlur(canvas, (0, 0), 0.7), np.uint8)
    frame = cv2.warpPerspective(
        canvas,
        hom,
        (w, h),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(35, 35, 40),
    )
    return np.asarray(frame, dtype=np.uint8), np.asarray(labels, dtype=np.int32)


def finish_frame(
    table: Image, camera: Camera, hands: list[Hand], rng: np.random.Generator
) -> tuple[Image, NDArray[np.uint8]]:
    """Hands, light, blur, sensor noise and JPEG on top of a ``view_table`` image."""
    frame = table
    hand_layer, hand_mask = draw_hand_list(hands, camera.size, rng)
    if hands:
        # blended only under the hand: elsewhere its weight is 0 and the table stays as it is
        sel = hand_mask > 0
        a = hand_mask[sel].astype(np.float32)[:, None] / 255.0
        frame = frame.copy()
        frame[sel] = (hand_layer[sel] * a + frame[sel] * (1 - a)).astype(np.uint8)
    frame = _light(frame, camera)
    if camera.blur_sigma > 0:
        frame = np.asarray(cv2.GaussianBlur(frame, (0, 0), camera.blur_sigma), np.uint8)
    noise = rng.standard_normal(frame.shape, dtype=np.float32) * camera.noise_sigma
    noise += frame  # frame + noise, in the noise's precision, without another temporary
    frame = np.clip(noise, 0, 255, out=noise).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, camera.jpeg_quality])
    if ok:
        frame = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
    return np.asarray(frame, dtype=np.uint8), hand_mask


def _light(frame: Image, camera: Camera) -> Image:
    field, add = _light_fields(camera.size, camera.light, camera.gradient, camera.shadow,
                               camera.glare)  # fmt: skip
    # in place, in the precision the fields ask for (a camera drawn with numpy scalars has
    # float64 fields): the same numbers as ``frame * field + add``, without the temporaries
    out = frame.astype(np.result_type(np.float32, field.dtype))
    out *= field[..., None]
    if add is not None:
        out = out.astype(np.result_type(out.dtype, add.dtype), copy=False)
        out += add[..., None]
    return np.asarray(np.clip(out, 0, 255, out=out), dtype=np.uint8)


@functools.lru_cache(maxsize=8)
def _light_fields(
    size: tuple[int, int],
    light: float,
    gradient: tuple[float, float],
    shadow: tuple[float, float, float, float] | None,
    glare: tuple[float, float, float] | None,
) -> tuple[NDArray[np.floating[Any]], NDArray[np.floating[Any]] | None]:
    """A camera's light as a gain per pixel and the glare it adds (None: no glare). The same for
    every frame of one camera, so a stream of frames works them out once."""
    w, h = size
    sw, sh = w // 8, h // 8
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    strength, angle = gradient
    g = ((xx / sw - 0.5) * np.cos(angle) + (yy / sh - 0.5) * np.sin(angle)) * 2 * strength
    field = light * (1 + g)
    vignette = 1 - 0.25 * (((xx / sw - 0.5) ** 2 + (yy / sh - 0.5) ** 2) / 0.5)
    field = field * vignette
    if shadow is not None:
        sx, sy, sr, depth = shadow
        d2 = ((xx - sx / 8) ** 2 + (yy - sy / 8) ** 2) / (sr / 8) ** 2
        field = field * (1 - depth * np.exp(-d2))
    field = cv2.resize(field, (w, h), interpolation=cv2.INTER_LINEAR)
    field.flags.writeable = False
    if glare is None:
        return field, None
    gx, gy, gr = glare
    add = 90 * np.exp(-((xx - gx / 8) ** 2 + (yy - gy / 8) ** 2) / (gr / 8) ** 2)
    add = cv2.resize(add, (w, h), interpolation=cv2.INTER_LINEAR)
    add.flags.writeable = False
    return field, add


def _truth(
    layout: Layout, camera: Camera, labels: NDArray[np.int32], hand_mask: NDArray[np.uint8]
) -> list[Truth]:
    w, h = camera.size
    out: list[Truth] = []
    counts = np.bincount(labels.ravel(), minlength=len(layout.pieces) + 1)
    for i, piece in enumerate(layout.pieces):
        corners_mm = piece_corners_mm(piece)
        px = cv2.perspectiveTransform(corners_mm.reshape(-1, 1, 2), camera.homography).reshape(
            -1, 2
        )
        center = cv2.perspectiveTransform(
            np.array([[piece.center_mm]], dtype=np.float64), camera.homography
        ).reshape(2)
        area = max(1.0, float(piece.size_mm[0] * piece.size_mm[1]))
        if piece.kind == "marker":
            side = piece.size_mm[0]
            area = (side * 1.3) ** 2
        on_top = min(1.0, float(counts[i + 1]) / area)
        poly = np.zeros((h, w), np.uint8)
        cv2.fillPoly(poly, [np.round(px).astype(np.int32)], 255)
        inside = int(np.count_nonzero(poly))
        in_frame = inside / max(1.0, float(cv2.contourArea(px.astype(np.float32))))
        covered = (
            float(np.count_nonzero(hand_mask[poly > 0] > 0)) / inside
            if inside and hand_mask.any()
            else 0.0
        )
        visible = max(0.0, min(1.0, on_top, in_frame) - covered)
        out.append(
            Truth(
                piece.kind,
                piece.key,
                np.asarray(px, dtype=np.float64),
                (float(center[0]), float(center[1])),
                piece.center_mm,
                round(visible, 3),
                piece.face_up,
            )
        )
    return out


def hard_scene(seed: int, profile: BoardProfile, style: Style = HARD, **layout_kw: object) -> Scene:
    """One seeded scene with a random layout and camera (the benchmark's unit)."""
    rng = np.random.default_rng(seed)
    layout = random_layout(rng, profile, **layout_kw)  # type: ignore[arg-type]
    camera = random_camera(rng, style)
    hands = int(rng.integers(style.hands[0], style.hands[1] + 1))
    return render(layout, camera, rng, profile, board_seed=seed % 4, hands=hands)
