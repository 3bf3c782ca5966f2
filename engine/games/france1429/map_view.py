"""The map's drawing for the table display and the phones, fixed once at setup.

The pages draw the map in the browser (SVG built from the view, so a move changes only the
marks on it and the per-move patch stays small). Where each Village stands, each Fief's coloured
background and each Bishopric's border are the same geometry ``map_svg`` draws for
``herald rules france1429 map render`` (``layout`` positions, ``layout.cells`` regions). That
geometry costs up to a tenth of a second when the map has no typed positions (the force layout),
so it is worked out once from the map data at setup (``setup.rules_from``) and kept in the
state's ``Rules``, as the rest of the map is: the view only copies it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.games.france1429.geography import MapData
from engine.games.france1429.map_layout import Box, aspect, cells
from engine.games.france1429.map_svg import (
    BISHOPRIC_COLOURS,
    FIEF_COLOURS,
    MAP_WIDTH,
    MARGIN,
    PAD,
    _colour,
    _inset,
    _path,
    _positions,
    _segments,
)


@dataclass(frozen=True)
class Spot:
    """A Village on the drawing: its printed name, position, and whether it is Principal."""

    id: str
    name: str
    x: float
    y: float
    principal: bool = False


@dataclass(frozen=True)
class Area:
    """A Fief (``fill`` its background, ``border`` its outline) or a Bishopric (``border`` its
    dashed border, ``x``/``y`` where its mitre stands), as SVG path data."""

    id: str
    name: str
    colour: str
    fill: str
    border: str
    x: float = 0.0
    y: float = 0.0


@dataclass(frozen=True)
class MapView:
    """The whole drawing: its size, the Villages, the Fiefs, the Bishoprics; ``invented``: a
    stand-in map (the page says so)."""

    width: float
    height: float
    villages: tuple[Spot, ...]
    fiefs: tuple[Area, ...]
    bishoprics: tuple[Area, ...]
    invented: bool = False


def _r(x: float) -> float:
    return round(x, 1)


def map_view(m: MapData) -> MapView:
    """The drawing of map ``m`` (the map part of ``map_svg.render_svg``, without its legend)."""
    height = max(480.0, min(900.0, MAP_WIDTH * aspect(m))) + 2 * MARGIN
    pos, radius = _positions(m, Box(PAD, PAD, MAP_WIDTH - PAD, height - 2 * PAD))
    regions = cells(dict(pos), radius)
    first = {v.id: v for v in reversed(m.villages)}
    spots = tuple(
        Spot(vid, first[vid].name, _r(x), _r(y), first[vid].principal)
        for vid, (x, y) in pos.items()
    )
    fief_of = {v.id: v.fief for v in m.villages}
    fiefs = []
    for i, f in enumerate(m.fiefs):
        members = [v.id for v in m.in_fief(f.id) if v.id in regions]
        if not members:
            continue
        members = list(dict.fromkeys(members))
        fill = " ".join(_path([e[0] for e in regions[v]]) for v in members)
        edges = [
            (a, b)
            for v in members
            for a, b, other in regions[v]
            if other is None or fief_of.get(other) != f.id
        ]
        colour = _colour(f.colour, FIEF_COLOURS[i % len(FIEF_COLOURS)])
        fiefs.append(Area(f.id, f.name or "", colour, fill, _segments(edges)))
    bishopric_of = {v.id: v.bishopric for v in m.villages}
    bishoprics = []
    for b in m.bishoprics:
        members = list(dict.fromkeys(v.id for v in m.in_bishopric(b.number) if v.id in regions))
        if not members:
            continue
        edges = [
            _inset(p, q, pos[v], 3.0)
            for v in members
            for p, q, other in regions[v]
            if other is None or bishopric_of.get(other) != b.number
        ]
        x, y = min((p for e in edges for p in e), key=lambda p: (p[1], p[0]))
        colour = _colour(b.colour, BISHOPRIC_COLOURS[(b.number - 1) % len(BISHOPRIC_COLOURS)])
        bishoprics.append(
            Area(str(b.number), str(b.number), colour, "", _segments(edges), _r(x), _r(y))
        )
    return MapView(MAP_WIDTH, _r(height), spots, tuple(fiefs), tuple(bishoprics), m.invented)


def map_json(mv: MapView | None, roads: tuple[tuple[str, str], ...] = ()) -> dict[str, Any] | None:
    """The drawing as the view sends it, with the rules' ``roads`` (None: a state built without
    a drawing, e.g. by a test)."""
    if mv is None:
        return None
    return {
        "roads": [[a, b] for a, b in roads],
        "width": mv.width,
        "height": mv.height,
        "invented": mv.invented,
        "villages": [
            {"id": s.id, "name": s.name, "x": s.x, "y": s.y, "principal": s.principal}
            for s in mv.villages
        ],
        "fiefs": [
            {"id": a.id, "name": a.name, "colour": a.colour, "fill": a.fill, "border": a.border}
            for a in mv.fiefs
        ],
        "bishoprics": [
            {"number": int(a.id), "colour": a.colour, "border": a.border, "x": a.x, "y": a.y}
            for a in mv.bishoprics
        ],
    }
