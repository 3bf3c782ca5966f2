"""Where to draw each Village: the positions a user typed in, or a deterministic layout.

A map typed in from a board may carry each Village's ``x``/``y`` (any unit, y downwards); the
box map carries none. ``place`` scales typed positions into a drawing box, and lays out the
Villages without one by a small force-directed simulation (Fruchterman-Reingold): roads pull
their ends together, Villages of one Fief and, more weakly, of one Bishopric attract each other
so their outlines stay compact, every pair repels. It starts from a circle ordered by
Bishopric and Fief and runs a fixed number of steps, so the same map always gives the same
picture. ``cells`` cuts the drawing into one region per Village (a Voronoi cell clipped to a
circle): a Fief's regions make its coloured background, the edges between Bishoprics its
borders, as on the board.
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
GRAVITY = 0.15
REPEL_RANGE = 2.0
"""Villages farther apart than this many ideal road lengths do not push each other away, so
a Village no road holds (the box map's) is not flung to the edge."""


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
    """Every Village's drawing position inside ``box``, by id (``fit(arrange(m), box)``)."""
    return fit(arrange(m), box)


def arrange(m: MapData) -> dict[str, Point]:
    """Every Village's position in the unit square, by id.

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
    return pos


def _unit(typed: dict[str, Point]) -> dict[str, Point]:
    """Typed positions scaled uniformly into the unit square, centred."""
    xs = [p[0] for p in typed.values()]
    ys = [p[1] for p in typed.values()]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    return {k: (0.5 + (x - cx) / span, 0.5 + (y - cy) / span) for k, (x, y) in typed.items()}


def _force(
    m: MapData, ids: list[str], pinned: dict[str, Point], free: list[str]
) -> dict[str, Point]:
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
                f = k * k / d if d < REPEL_RANGE * k else 0.0
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


def fit(pos: dict[str, Point], box: Box) -> dict[str, Point]:
    """Scale uniformly and centre into ``box``."""
    if not pos:
        return {}
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    scale = min(box.width / w if w > 0 else math.inf, box.height / h if h > 0 else math.inf)
    if math.isinf(scale):
        scale = 1.0
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    mx, my = box.left + box.width / 2, box.top + box.height / 2
    return {k: (mx + (x - cx) * scale, my + (y - cy) * scale) for k, (x, y) in pos.items()}


# --- regions ---------------------------------------------------------------------------------

Edge = tuple[Point, Point, str | None]
"""A cell's edge: from, to, and the Village on its other side (``None``: the cell's rim)."""


def reach(pos: dict[str, Point]) -> float:
    """How far a Village's region reaches: a little past half the typical distance to the
    nearest other Village, so neighbours' regions meet and far ones leave open country."""
    if len(pos) < 2:
        return 60.0
    nearest = sorted(min(math.dist(p, q) for j, q in pos.items() if j != i) for i, p in pos.items())
    return max(30.0, 0.8 * nearest[len(nearest) // 2])


def cells(pos: dict[str, Point], radius: float, samples: int = 48) -> dict[str, list[Edge]]:
    """Each Village's region: the points nearer to it than to any other Village (its Voronoi
    cell) within ``radius`` of it, as a closed list of edges, each naming the Village across it.

    Regions of one Fief together make its coloured background, and edges whose two sides lie in
    different Bishoprics make the Bishopric borders; being a partition, they never overlap."""
    out: dict[str, list[Edge]] = {}
    for i, (x, y) in pos.items():
        ring: list[tuple[Point, str | None]] = [
            (
                (
                    x + radius * math.cos(2 * math.pi * s / samples),
                    y + radius * math.sin(2 * math.pi * s / samples),
                ),
                None,
            )
            for s in range(samples)
        ]
        for j, (ox, oy) in pos.items():
            if j == i or math.dist((x, y), (ox, oy)) >= 2 * radius:
                continue
            ring = _clip(ring, (x, y), (ox, oy), j)
            if not ring:
                break
        out[i] = [(p, ring[(k + 1) % len(ring)][0], label) for k, (p, label) in enumerate(ring)]
    return out


def _clip(
    ring: list[tuple[Point, str | None]], site: Point, other: Point, label: str
) -> list[tuple[Point, str | None]]:
    """Keep the part of a convex ring nearer ``site`` than ``other`` (Sutherland-Hodgman); the
    new edge along the bisector is labelled ``label``."""
    mx, my = (site[0] + other[0]) / 2, (site[1] + other[1]) / 2
    nx, ny = other[0] - site[0], other[1] - site[1]

    def side(p: Point) -> float:
        return (p[0] - mx) * nx + (p[1] - my) * ny

    out: list[tuple[Point, str | None]] = []
    for k, (p, edge_label) in enumerate(ring):
        q = ring[(k + 1) % len(ring)][0]
        sp, sq = side(p), side(q)
        if sp <= 0:
            out.append((p, edge_label))
            if sq > 0:
                out.append((_cross(p, q, sp, sq), label))
        elif sq <= 0:
            out.append((_cross(p, q, sp, sq), edge_label))
    return out


def _cross(p: Point, q: Point, sp: float, sq: float) -> Point:
    t = sp / (sp - sq)
    return (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))
