"""The France 1429 map drawn as SVG, so a user can hold it beside the board on the table.

Drawn like the board (digest §3.1): Villages are squares joined by roads, each Fief a coloured
background (the regions nearest its Villages, ``layout.cells``), each Bishopric a thick border
with its number in a mitre, Principal Villages with a larger square and their name in capitals
(the larger banner). Positions come from the file or from ``layout.place``. An optional
``MapMarks`` draws a table position on top: who controls a Village, Strongholds and Fortified
Cities (counters, not printed on the board: docs/france1429-data.md FD-2), Mills, relics.
Every word shown comes from the message catalog; the result is a string (no I/O).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from engine.games.france1429.geography import RANK_SIZE, MapData, MapVillage
from engine.games.france1429.map_layout import Box, Edge, Point, arrange, aspect, cells, fit, reach
from engine.games.france1429.sources import GAME_KEY
from engine.i18n import DEFAULT_LANG, message

Building = Literal["stronghold", "fortified-city"]

WIDTH = 1280.0
MAP_WIDTH = 900.0
MARGIN = 60.0
PAD = 12.0
SQUARE = 18.0
PRINCIPAL_SQUARE = 26.0
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
PAPER = "#f6efdc"
INK = "#2b2118"
ROAD = "#8a6d43"
UNKNOWN = "#9e9e9e"

FIEF_COLOURS = (
    "#c0392b",
    "#2980b9",
    "#27ae60",
    "#d4a017",
    "#8e44ad",
    "#e67e22",
    "#16a085",
    "#a0522d",
)
"""Fallback Fief backgrounds, in Fief order, for a Fief whose colour the file leaves null."""
BISHOPRIC_COLOURS = ("#7b241c", "#1a5276", "#186a3b", "#7d6608", "#4a235a")
"""Fallback Bishopric borders for Bishoprics 1-5."""

_COLOUR = re.compile(r"^(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}|[a-z]+)$")


@dataclass(frozen=True, slots=True)
class MapMarks:
    """What a table position puts on the map, by Village id: the controlling family's colour,
    a Stronghold or Fortified City, Mills (0-2), a relic's name."""

    control: Mapping[str, str] = field(default_factory=dict)
    buildings: Mapping[str, Building] = field(default_factory=dict)
    mills: Mapping[str, int] = field(default_factory=dict)
    relics: Mapping[str, str] = field(default_factory=dict)


def escape(text: str) -> str:
    """``text`` safe inside an SVG element: ``&``, ``<`` and ``>`` as entities."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def quoteattr(text: str) -> str:
    """``text`` as a quoted SVG attribute value."""
    return '"' + escape(text).replace('"', "&quot;") + '"'


def _t(code: str, lang: str, **params: object) -> str:
    return message(f"{GAME_KEY}:{code}", lang, **params)


def _colour(value: str | None, fallback: str) -> str:
    return value if value is not None and _COLOUR.match(value) else fallback


def _n(x: float) -> str:
    """A coordinate as short text ("12.5", "12")."""
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _path(points: list[Point]) -> str:
    return "M" + " L".join(f"{_n(x)},{_n(y)}" for x, y in points) + " Z"


def render_svg(m: MapData, state: MapMarks | None = None, lang: str = DEFAULT_LANG) -> str:
    """The map as a standalone SVG document (UTF-8 text).

    ``state`` adds a table position; ``lang`` picks the catalog language of the legend. Every
    Village's printed name appears as text, so the drawing can be searched and tested.
    """
    marks = state or MapMarks()
    ratio = aspect(m)
    map_h = max(480.0, min(900.0, MAP_WIDTH * ratio))
    height = map_h + 2 * MARGIN + (40.0 if m.invented else 0.0)
    top = MARGIN + (40.0 if m.invented else 0.0)
    pos, radius = _positions(
        m, Box(PAD, top - MARGIN + PAD, MAP_WIDTH - PAD, map_h + 2 * MARGIN - 2 * PAD)
    )
    first = {v.id: v for v in reversed(m.villages)}
    fief_colour = {
        f.id: _colour(f.colour, FIEF_COLOURS[i % len(FIEF_COLOURS)]) for i, f in enumerate(m.fiefs)
    }
    bishopric_colour = {
        b.number: _colour(b.colour, BISHOPRIC_COLOURS[(b.number - 1) % len(BISHOPRIC_COLOURS)])
        for b in m.bishoprics
    }
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(WIDTH)}" height="{_n(height)}" '
        f'viewBox="0 0 {_n(WIDTH)} {_n(height)}" font-family={quoteattr(FONT)}>',
        f"<title>{escape(_t('render/title', lang, name=m.name))}</title>",
        f'<rect x="0" y="0" width="{_n(WIDTH)}" height="{_n(height)}" fill="{PAPER}"/>',
    ]
    if m.invented:
        out.append(
            f'<rect x="0" y="0" width="{_n(WIDTH)}" height="44" fill="#b03a2e"/>'
            f'<text x="{_n(WIDTH / 2)}" y="29" font-size="20" font-weight="bold" fill="#ffffff" '
            f'text-anchor="middle">{escape(_t("render/invented", lang))}</text>'
        )
    regions = cells(dict(pos), radius)
    out += _fiefs(m, regions, fief_colour)
    out += _bishoprics(m, pos, regions, bishopric_colour)
    out += _roads(m, pos)
    for vid, (x, y) in pos.items():
        out += _village(first[vid], x, y, fief_colour, marks)
    out += _legend(m, pos, fief_colour, bishopric_colour, top, lang)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _positions(m: MapData, area: Box) -> tuple[dict[str, Point], float]:
    """Drawing positions and the regions' reach, chosen so every region fits in ``area``: the
    Villages go into ``area`` shrunk by the reach, which depends on their spacing."""
    unit = arrange(m)
    pos = fit(unit, area)
    radius = reach(pos)
    for _ in range(3):
        inner = Box(
            area.left + radius,
            area.top + radius,
            max(1.0, area.width - 2 * radius),
            max(1.0, area.height - 2 * radius),
        )
        pos = fit(unit, inner)
        radius = reach(pos)
    return pos, radius


def _fiefs(m: MapData, regions: Mapping[str, list[Edge]], colours: Mapping[str, str]) -> list[str]:
    """Each Fief's background: its Villages' regions filled in its colour (one group, so the
    seams between them do not show), and a thin line where it meets another Fief."""
    fief_of = {v.id: v.fief for v in m.villages}
    out = ['<g id="fiefs">']
    for f in m.fiefs:
        members = [v.id for v in m.in_fief(f.id) if v.id in regions]
        if not members:
            continue
        c = colours[f.id]
        shapes = "".join(
            f'<path d="{_path([e[0] for e in regions[i]])}"/>' for i in dict.fromkeys(members)
        )
        out.append(
            f'<g fill="{c}" stroke="{c}" stroke-width="1.5" opacity="0.45">'
            f"<title>{escape(f.name or f.id)}</title>{shapes}</g>"
        )
        edges = [
            (a, b)
            for i in dict.fromkeys(members)
            for a, b, other in regions[i]
            if other is None or fief_of.get(other) != f.id
        ]
        out.append(
            f'<path d="{_segments(edges)}" fill="none" stroke="{c}" stroke-width="2" '
            f'stroke-linecap="round"/>'
        )
    out.append("</g>")
    return out


def _segments(edges: list[tuple[Point, Point]]) -> str:
    return " ".join(f"M{_n(a[0])},{_n(a[1])} L{_n(b[0])},{_n(b[1])}" for a, b in edges)


def _bishoprics(
    m: MapData,
    pos: Mapping[str, Point],
    regions: Mapping[str, list[Edge]],
    colours: Mapping[int, str],
) -> list[str]:
    """Each Bishopric's border: the edges of its Villages' regions that face another Bishopric
    or open country, drawn a little inside so two neighbours' borders run side by side."""
    bishopric_of = {v.id: v.bishopric for v in m.villages}
    out = ['<g id="bishoprics" fill="none" stroke-width="4.5" stroke-linecap="round">']
    badges: list[str] = []
    for b in m.bishoprics:
        members = list(dict.fromkeys(v.id for v in m.in_bishopric(b.number) if v.id in regions))
        if not members:
            continue
        edges = []
        for i in members:
            for p, q, other in regions[i]:
                if other is None or bishopric_of.get(other) != b.number:
                    edges.append(_inset(p, q, pos[i], 3.0))
        c = colours[b.number]
        out.append(
            f'<path d="{_segments(edges)}" stroke="{c}" stroke-opacity="0.9" '
            f'stroke-dasharray="12 5"/>'
        )
        x, y = min((p for e in edges for p in e), key=lambda p: (p[1], p[0]))
        badges.append(_mitre(x, y, b.number, c))
    out.append("</g>")
    return [*out, '<g id="mitres">', *badges, "</g>"]


def _inset(p: Point, q: Point, site: Point, by: float) -> tuple[Point, Point]:
    """The segment p-q moved ``by`` towards ``site`` (into its own region)."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length
    if (site[0] - p[0]) * nx + (site[1] - p[1]) * ny < 0:
        nx, ny = -nx, -ny
    return (p[0] + nx * by, p[1] + ny * by), (q[0] + nx * by, q[1] + ny * by)


def _mitre(x: float, y: float, number: int, colour: str) -> str:
    """A Bishop's mitre with the Bishopric's number, as printed at the board's edge."""
    shape = [(x - 13, y + 12), (x - 13, y - 6), (x, y - 20), (x + 13, y - 6), (x + 13, y + 12)]
    return (
        f'<path d="{_path(shape)}" fill="{colour}" stroke="#ffffff" stroke-width="2"/>'
        f'<text x="{_n(x)}" y="{_n(y + 7)}" font-size="15" font-weight="bold" fill="#ffffff" '
        f'text-anchor="middle">{number}</text>'
    )


def _roads(m: MapData, pos: Mapping[str, Point]) -> list[str]:
    out = [f'<g id="roads" stroke="{ROAD}" stroke-width="3.5" stroke-linecap="round">']
    for r in m.roads:
        if r.a in pos and r.b in pos and r.a != r.b:
            (x1, y1), (x2, y2) = pos[r.a], pos[r.b]
            dash = ' stroke-dasharray="9 5"' if r.invented else ""
            out.append(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}"{dash}/>')
    out.append("</g>")
    return out


def _village(
    v: MapVillage, x: float, y: float, fief_colour: Mapping[str, str], marks: MapMarks
) -> list[str]:
    side = PRINCIPAL_SQUARE if v.principal else SQUARE
    half = side / 2
    known = v.fief is not None and v.bishopric is not None
    fill = _colour(marks.control.get(v.id), "#ffffff")
    stroke = INK if known else UNKNOWN
    dash = "" if known else ' stroke-dasharray="4 3"'
    width = 3.5 if v.principal else 2
    out = [
        f'<g class="village" id={quoteattr("village-" + v.id)}>',
        f'<rect x="{_n(x - half)}" y="{_n(y - half)}" width="{_n(side)}" height="{_n(side)}" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="{_n(width)}"{dash}/>',
    ]
    building = marks.buildings.get(v.id)
    if building is not None:
        out.append(_tower(x + half, y - half, building == "fortified-city"))
    for i in range(max(0, min(2, marks.mills.get(v.id, 0)))):
        out.append(_mill(x - half - 7, y - half + 5 + i * 12))
    if v.id in marks.relics:
        out.append(_relic(x + half + 6, y + half - 2, marks.relics[v.id]))
    name = v.name.upper() if v.principal else v.name
    size = 15 if v.principal else 13
    weight = ' font-weight="bold"' if v.principal else ""
    style = ' font-style="italic"' if v.invented else ""
    out.append(
        f'<text x="{_n(x)}" y="{_n(y + half + size + 2)}" font-size="{size}"{weight}{style} '
        f'text-anchor="middle" fill="{INK}" stroke="{PAPER}" stroke-width="4" '
        f'paint-order="stroke" stroke-linejoin="round">{escape(name)}</text>'
    )
    out.append("</g>")
    return out


def _tower(x: float, y: float, fortified: bool) -> str:
    """A Stronghold (one tower) or Fortified City (tower with a flag) at a square's corner."""
    w, h = 12.0, 12.0
    top = y - h / 2
    left = x - w / 2
    shape = [
        (left, top + h),
        (left, top),
        (left + 3, top),
        (left + 3, top + 3),
        (left + 4.5, top + 3),
        (left + 4.5, top),
        (left + 7.5, top),
        (left + 7.5, top + 3),
        (left + 9, top + 3),
        (left + 9, top),
        (left + w, top),
        (left + w, top + h),
    ]
    out = f'<path d="{_path(shape)}" fill="#5d5d5d" stroke="{INK}" stroke-width="1"/>'
    if fortified:
        out += (
            f'<line x1="{_n(x)}" y1="{_n(top)}" x2="{_n(x)}" y2="{_n(top - 9)}" stroke="{INK}" '
            f'stroke-width="1.5"/><path d="M{_n(x)},{_n(top - 9)} L{_n(x + 7)},{_n(top - 6.5)} '
            f'L{_n(x)},{_n(top - 4)} Z" fill="#c0392b"/>'
        )
    return out


def _mill(x: float, y: float) -> str:
    """A Mill: a small windmill cross in a circle."""
    r = 5.0
    arms = "".join(
        f'<line x1="{_n(x)}" y1="{_n(y)}" x2="{_n(x + r * math.cos(a))}" '
        f'y2="{_n(y + r * math.sin(a))}"/>'
        for a in (math.pi / 4, 3 * math.pi / 4, 5 * math.pi / 4, 7 * math.pi / 4)
    )
    return (
        f'<g stroke="{INK}" stroke-width="1.2"><circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" '
        f'fill="#fdf6e3"/>{arms}</g>'
    )


def _relic(x: float, y: float, name: str) -> str:
    return (
        f'<g><title>{escape(name)}</title><path d="M{_n(x - 1.5)},{_n(y - 7)} h3 v4 h4 v3 h-4 v7 '
        f'h-3 v-7 h-4 v-3 h4 Z" fill="#d4a017" stroke="{INK}" stroke-width="0.8"/></g>'
    )


def _legend(
    m: MapData,
    pos: Mapping[str, Point],
    fief_colour: Mapping[str, str],
    bishopric_colour: Mapping[int, str],
    top: float,
    lang: str,
) -> list[str]:
    x = MAP_WIDTH + 20
    y = top
    out = [
        '<g id="legend">',
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="18" font-weight="bold" fill="{INK}">'
        f"{escape(_t('render/title', lang, name=m.name))}</text>",
    ]
    y += 34
    out.append(_heading(x, y, _t("render/fiefs", lang)))
    for f in m.fiefs:
        y += 24
        count = len(m.in_fief(f.id))
        size = RANK_SIZE[f.rank] if f.rank is not None else count
        rank = {2: "barony", 3: "county", 4: "duchy"}.get(size, "fief")
        if f.name:
            label = _t(f"render/{rank}", lang, name=f.name)
        else:
            label = _t(f"render/{rank}-unnamed", lang, what=f.colour or f.id)
        if f.rank is not None and count != size:
            villages = _t("render/villages-of", lang, count=count, size=size)
        else:
            villages = _t("render/villages", lang, count=count)
        out.append(
            f'<rect x="{_n(x)}" y="{_n(y - 13)}" width="18" height="16" fill="{fief_colour[f.id]}" '
            f'fill-opacity="0.6" stroke="{fief_colour[f.id]}"/>'
            f'<text x="{_n(x + 26)}" y="{_n(y)}" font-size="13" fill="{INK}">{escape(label)}'
            f" — {escape(villages)}</text>"
        )
    y += 38
    out.append(_heading(x, y, _t("render/bishoprics", lang)))
    for b in m.bishoprics:
        y += 24
        principal = [v.name for v in m.in_bishopric(b.number) if v.principal]
        text = _t(
            "render/bishopric",
            lang,
            number=b.number,
            principal=", ".join(principal) or "?",
            count=len(m.in_bishopric(b.number)),
        )
        c = bishopric_colour[b.number]
        out.append(
            f'<line x1="{_n(x)}" y1="{_n(y - 5)}" x2="{_n(x + 18)}" y2="{_n(y - 5)}" stroke="{c}" '
            f'stroke-width="5" stroke-dasharray="7 3"/>'
            f'<text x="{_n(x + 26)}" y="{_n(y)}" font-size="13" fill="{INK}">{escape(text)}</text>'
        )
    y += 38
    out.append(_heading(x, y, _t("render/key", lang)))
    y += 26
    out.append(
        f'<rect x="{_n(x + 1)}" y="{_n(y - 16)}" width="22" height="22" fill="#ffffff" '
        f'stroke="{INK}" stroke-width="3.5"/><text x="{_n(x + 32)}" y="{_n(y)}" font-size="13" '
        f'fill="{INK}">{escape(_t("render/principal", lang))}</text>'
    )
    y += 24
    out.append(
        f'<rect x="{_n(x + 4)}" y="{_n(y - 13)}" width="16" height="16" fill="#ffffff" '
        f'stroke="{UNKNOWN}" stroke-width="2" stroke-dasharray="4 3"/><text x="{_n(x + 32)}" '
        f'y="{_n(y)}" font-size="13" fill="{INK}">'
        f"{escape(_t('render/unknown-village', lang))}</text>"
    )
    y += 24
    out.append(
        f'<line x1="{_n(x)}" y1="{_n(y - 5)}" x2="{_n(x + 24)}" y2="{_n(y - 5)}" stroke="{ROAD}" '
        f'stroke-width="3.5"/><text x="{_n(x + 32)}" y="{_n(y)}" font-size="13" fill="{INK}">'
        f"{escape(_t('render/road', lang))}</text>"
    )
    if any(r.invented for r in m.roads) or any(v.invented for v in m.villages):
        y += 24
        out.append(
            f'<line x1="{_n(x)}" y1="{_n(y - 5)}" x2="{_n(x + 24)}" y2="{_n(y - 5)}" '
            f'stroke="{ROAD}" stroke-width="3.5" stroke-linecap="round" stroke-dasharray="9 5"/>'
            f'<text x="{_n(x + 32)}" y="{_n(y)}" font-size="13" font-style="italic" '
            f'fill="{INK}">{escape(_t("render/invented-key", lang))}</text>'
        )
    y += 24
    out.append(_tower(x + 12, y - 6, False))
    out.append(
        f'<text x="{_n(x + 32)}" y="{_n(y)}" font-size="13" fill="{INK}">'
        f"{escape(_t('render/stronghold', lang))}</text>"
    )
    y += 24
    out.append(_tower(x + 12, y - 4, True))
    out.append(
        f'<text x="{_n(x + 32)}" y="{_n(y)}" font-size="13" fill="{INK}">'
        f"{escape(_t('render/fortified-city', lang))}</text>"
    )
    y += 24
    out.append(_mill(x + 12, y - 5))
    out.append(
        f'<text x="{_n(x + 32)}" y="{_n(y)}" font-size="13" fill="{INK}">'
        f"{escape(_t('render/mill', lang))}</text>"
    )
    typed = sum(1 for v in m.villages if v.x is not None and v.y is not None)
    if typed < len(m.villages):
        y += 34
        out.append(
            f'<text x="{_n(x)}" y="{_n(y)}" font-size="12" font-style="italic" fill="{INK}">'
            f"{escape(_t('render/laid-out', lang, count=len(m.villages) - typed))}</text>"
        )
    out.append("</g>")
    return out


def _heading(x: float, y: float, text: str) -> str:
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="15" font-weight="bold" fill="{INK}">'
        f"{escape(text)}</text>"
    )
