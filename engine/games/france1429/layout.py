"""Where to draw each Village: the positions a user typed in, or a deterministic layout.

A map typed in from a board may carry each Village's ``x``/``y`` (any unit, y downwards); the
box map carries none. ``place`` scales typed positions into a drawing box, and lays out the
Villages without one by a small force-directed simulation (Fruchterman-Reingold): roads pull
their ends together, Villages of one Fief and, more weakly, of one Bishopric attract each other
so their outlines stay compact, every pair repels. It starts from a circle ordered by
Bishopric and Fief and runs a fixed number of steps, so the same map always gives the same
picture. ``outline`` draws a padded convex hull around a group of points (Fief backgrounds,
Bishopric borders).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.games.france1429.geography import MapData

Point = tuple[float, float]

STEPS = 240
ROAD_PULL = 1.0
FIEF_PULL = 0.5
BISHOPRIC_PULL = 0.15
GRAVITY = 0.08


@dataclass(frozen=True, slots=True)
class Box:
    """The drawing area positions are scaled into."""

    left: float
    top: float
    width: float
    height: float


def aspect(m: MapData) -> float:
    """Height over width of the typed positions (all of them given), else 0.7 (a board's)."""
    typed = [(v.x, v.y) for v in m.villages if v.x is not None and v.y is not None]
    if len(typed) < 2 or len(typed) != len(m.villages):
        return 0.7
    xs = [float(p[0]) for p in typed if p[0] is not None]
    ys = [float(p[1]) for p in typed if p[1] is not None]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    return 0.7 if w <= 0 or h <= 0 else min(1.4, max(0.4, h / w))


def place(m: MapData, box: Box) -> dict[str, Point]:
    """Every Village's drawing position inside ``box``, by id.

    Typed positions keep their shape (uniform scale); Villages without one are laid out around
    them. A Village id listed twice gets one position (the first entry's).
    """
    ids = list(dict.fromkeys(v.id for v in m.villages))
    if not ids:
        return {}
    typed = {
        v.id: (float(v.x), float(v.y))
        for v in m.villages
        if v.x is not None and v.y is not None and v.id in ids
    }
    unit = _unit(typed) if len(typed) >= 2 else {}
    free = [i for i in ids if i not in unit]
    pos = dict(unit)
    if free:
        pos.update(_force(m, ids, unit, free))
    return _fit(pos, box)


def _unit(typed: dict[str, Point]) -> dict[str, Point]:
    """Typed positions scaled uniformly into the unit square, centred."""
    xs = [p[0] for p in typed.values()]
    ys = [p[1] for p in typed.values()]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    return {k: (0.5 + (x - cx) / span, 0.5 + (y - cy) / span) for k, (x, y) in typed.items()}


def _force(m: MapData, ids: list[str], pinned: dict[str, Point], free: list[str]) -> dict[str, Point]:
    """Positions in the unit square for ``free`` Villages; ``pinned`` ones do not move."""
    first = {v.id: v for v in reversed(m.villages)}
    order = sorted(
        free,
        key=lambda i: (
            first[i].bishopric if first[i].bishopric is not None else 99,
            first[i].fief or "~",
            ids.index(i),
        ),
    )
    pos: dict[str, list[float]] = {k: [x, y] for k, (x, y) in pinned.items()}
    for n, i in enumerate(order):
        angle = 2 * math.pi * n / len(order) - math.pi / 2
        pos[i] = [0.5 + 0.42 * math.cos(angle), 0.5 + 0.42 * math.sin(angle)]
    pulls = _pulls(m, set(ids))
    k = 1.0 / math.sqrt(len(ids))
    moving = set(free)
    for step in range(STEPS):
        heat = 0.08 * (1 - step / STEPS) + 0.002
        shift = {i: [0.0, 0.0] for i in moving}
        for a in ids:
            for b in ids:
                if a >= b:
                    continue
                dx = pos[a][0] - pos[b][0]
                dy = pos[a][1] - pos[b][1]
                d = math.hypot(dx, dy) or 1e-6
                f = k * k / d
                weight = pulls.get((a, b), 0.0)
                if weight:
                    f -= weight * d * d / k
                ux, uy = dx / d * f, dy / d * f
                if a in shift:
                    shift[a][0] += ux
                    shift[a][1] += uy
                if b in shift:
                    shift[b][0] -= ux
                    shift[b][1] -= uy
        for i in order:
            sx = shift[i][0] + GRAVITY * (0.5 - pos[i][0]) / k
            sy = shift[i][1] + GRAVITY * (0.5 - pos[i][1]) / k
            length = math.hypot(sx, sy)
            if length > 0:
                scale = min(length, heat) / length
                pos[i][0] += sx * scale
                pos[i][1] += sy * scale
    return {i: (pos[i][0], pos[i][1]) for i in free}


def _pulls(m: MapData, ids: set[str]) -> dict[tuple[str, str], float]:
    """Attraction weight per pair (a < b): roads, shared Fief, shared Bishopric, summed."""
    out: dict[tuple[str, str], float] = {}

    def add(a: str, b: str, w: float) -> None:
        if a != b and a in ids and b in ids:
            key = (a, b) if a < b else (b, a)
            out[key] = out.get(key, 0.0) + w

    for r in m.roads:
        add(r.a, r.b, ROAD_PULL)
    vs = m.villages
    for i, a in enumerate(vs):
        for b in vs[i + 1 :]:
            if a.fief is not None and a.fief == b.fief:
                add(a.id, b.id, FIEF_PULL)
            if a.bishopric is not None and a.bishopric == b.bishopric:
                add(a.id, b.id, BISHOPRIC_PULL)
    return out


def _fit(pos: dict[str, Point], box: Box) -> dict[str, Point]:
    """Scale uniformly and centre into ``box``."""
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    scale = min(box.width / w if w > 0 else math.inf, box.height / h if h > 0 else math.inf)
    if math.isinf(scale):
        scale = 1.0
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    mx, my = box.left + box.width / 2, box.top + box.height / 2
    return {k: (mx + (x - cx) * scale, my + (y - cy) * scale) for k, (x, y) in pos.items()}


# --- outlines --------------------------------------------------------------------------------


def hull(points: list[Point]) -> list[Point]:
    """The convex hull, counter-clockwise in screen terms, without repeated points
    (Andrew's monotone chain)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def outline(points: list[Point], pad: float, samples: int = 24) -> list[Point]:
    """A convex outline ``pad`` away from every point: the hull of small circles around them
    (a rounded, padded convex hull; a single point gives a circle)."""
    ring = [
        (x + pad * math.cos(2 * math.pi * s / samples), y + pad * math.sin(2 * math.pi * s / samples))
        for x, y in points
        for s in range(samples)
    ]
    return hull(ring)
