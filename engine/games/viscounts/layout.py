"""Viscounts of the West Kingdom on the camera's board: the board profile, where every piece
lies, and how the table is read back (digest §2 "what a camera must distinguish", §10 "inputs
from the table").

The board (``camera/profile.json``, written by ``board_profile`` from the data set's board) is
the circular main board on the left: the five parts in a ring, each with its outer-path towns,
its inner-path town and its four building sites, and the Castle in the middle (level-1 sections
``castle:1:<i>`` in a ring, level-2 sections ``castle:2:<j>`` in a row, level 3 ``castle:3``).
On the right: the five Townsfolk decks' top cards ``deck:<k>`` and the five Manuscript stacks'
top tiles ``stack:<k>``, the uncovered Poverty and Prosperity cards ``kingdom``, and one area
per colour: the three card spaces ``seat:<c>/space:1..3`` (left to right), the discard pile's
top card ``seat:<c>/discard``, the Virtue/Corruption track ``seat:<c>/track:1..N``, the
Building strip ``seat:<c>/strip:<kind>:<position>`` and the Debts and Deeds
``seat:<c>/kingdom``; the Lord of the Castle and Church Favour cards a seat holds,
``seat:<c>/cards``, lie in a row per colour in the ring's free top right corner.

One list of table items serves both directions (what the simulated camera draws and what the
referee expects to read):

- **by sticker** (colour and kind): Viscounts ``viscount:<c>`` on town spaces, Workers
  ``worker:<c>`` in Castle sections, Buildings ``<kind>:<c>`` on building sites or on their
  strip position, the track markers ``virtue:<c>`` (upper half of a track space) and
  ``corruption:<c>`` (lower half; both on one space when stacked), Debts ``debt`` / ``paid`` and
  Deeds ``deed`` / ``granted`` (a sticker on each face), the ``lord`` card, the Church Favour
  cards ``favour:<id>``, and the ``poverty`` / ``prosperity`` cards (a sticker on the card,
  seen once its stack is gone);
- **by appearance** (a ``picture`` read by the slot classifier as a ``tile`` with its face's
  attributes from ``camera/faces.json``): Townsfolk cards (``card``) on the decks' tops, the
  three card spaces and the discard piles' tops; Manuscripts (``manuscript``) on the stacks'
  tops.

Not read (the referee keeps them, or a phone reports them): hands, deck contents and order,
the discard pile under its top card, Silver, Ink, Stone and Gold, the Worker pool, Manuscripts
and the Player card a seat holds, the pairs laid at setup, and a region's pieces beyond its
spots (piled under the others). A move that differs from another only in those is asked on a
phone, never guessed.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engine.games.viscounts.data_types import ViscountsData
from engine.games.viscounts.moves import Reveal, Travel
from engine.games.viscounts.state import VState
from engine.layout import (
    Item,
    ItemReading,
    Placed,
    Rect,
    centred_picture,
    region_rect,
    spot,
    sticker,
)
from engine.layout import board_profile as generated_profile
from engine.seat_words import seat_words

STICKER_MM = 10.0
PITCH_MM = 15.0
"""Spots 15 mm apart: a 10 mm sticker on a 15 mm piece, side by side."""
PICTURE_MM = 28.0
SLOT_MM = 31.0
"""A card or Manuscript's face, drawn 28 mm square in a 31 mm slot (the slot classifier reads
square faces; a real card is read by its art's square middle)."""
WIDTH_MM, HEIGHT_MM = 635.0, 387.0
"""The board fits the simulated camera's view of its table (as France 1429's does)."""
CORNER_MM = 40.0
RING_CENTRE = (193.5, 193.5)
PARTS = 5

COLOURS = ("red", "blue", "green", "yellow")
"""The four player colours of the shipped sets: the seats a camera session can take."""


def colours(data: ViscountsData) -> tuple[str, ...]:
    """The four player colours of ``data`` as seat names (``engine.seat_words``): a group's
    box with colours of its own has its camera's Viscount, Worker and player area stickers in
    them, as its table's seats are; the shipped ones' (``COLOURS``) when it does not name four."""
    known = [c for c in data.colours if c is not None]
    words = seat_words(known) if len(known) == len(COLOURS) else ()
    return words or COLOURS


BUILDINGS = ("workshop", "trading-post", "guildhall")
STACK_CARDS = 12
"""Debt and Deed cards a sticker kit names of each face: the largest stack of the stand-in's
Poverty and Prosperity cards (the box's stack sizes are not in the seed)."""

KINDS: tuple[str, ...] = (
    "viscount",
    "worker",
    *BUILDINGS,
    "virtue",
    "corruption",
    "debt",
    "paid",
    "deed",
    "granted",
    "lord",
    "favour",
    "poverty",
    "prosperity",
    "tile",
)
"""The kinds of piece a move can change; ``tile`` is anything read by appearance."""

SPOTS = {
    "town": (2, 2),
    "castle:1": (3, 2),
    "castle:2": (2, 2),
    "castle:3": (4, 2),
    "site": (1, 1),
    "kingdom": (2, 1),
    "track": (1, 2),
    "strip": (1, 1),
    "seat-kingdom": (5, 1),
    "cards": (5, 1),
}
"""Columns and rows of sticker spots in each kind of region."""


def _box(spots: tuple[int, int]) -> tuple[float, float]:
    c, r = spots
    return c * PITCH_MM + 3.0, r * PITCH_MM + 3.0


# --- the board ----------------------------------------------------------------------------


def _polar(angle_deg: float, radius: float) -> tuple[float, float]:
    a = math.radians(angle_deg)
    return RING_CENTRE[0] + radius * math.cos(a), RING_CENTRE[1] + radius * math.sin(a)


def _centred(
    name: str, kind: str, centre: tuple[float, float], size: tuple[float, float]
) -> dict[str, Any]:
    w, h = size
    x, y = centre[0] - w / 2, centre[1] - h / 2
    return {"name": name, "kind": kind, "rect": [round(x, 2), round(y, 2), w, h]}


def part_angle(part: int) -> float:
    """Where part ``part`` lies on the ring: part 0 at the top, clockwise."""
    return -90.0 + 360.0 / PARTS * part


def ring_regions(data: ViscountsData) -> list[dict[str, Any]]:
    """The circular main board: towns, building sites and the Castle."""
    board = data.board
    assert board is not None
    out: list[dict[str, Any]] = []
    for town in board.towns:
        a = part_angle(town.part)
        if town.path == "inner":
            centre = _polar(a, 126.0)
        else:
            centre = _polar(a + (-13.0 if town.side == "left" else 13.0), 172.0)
        out.append(_centred(f"town:{town.id}", "town", centre, _box(SPOTS["town"])))
    for part in range(PARTS):
        sites = [s for s in board.sites if s.part == part]
        left = [s for s in sites if s.side == "left"]
        right = [s for s in sites if s.side == "right"]
        for group, sign in ((left, -1.0), (right, 1.0)):
            for k, site in enumerate(group):
                centre = _polar(part_angle(part) + sign * (17.0 + 12.0 * k), 140.0 + 5.0 * k)
                out.append(_centred(f"site:{site.id}", "site", centre, _box(SPOTS["site"])))
    sections = data.castle.level1 or 0
    for i in range(sections):
        centre = _polar(part_angle(i * PARTS // max(1, sections)), 82.0)
        out.append(_centred(f"castle:1:{i}", "castle", centre, _box(SPOTS["castle:1"])))
    level2 = len(data.castle.level2 or ()) or 3
    w2, h2 = _box(SPOTS["castle:2"])
    cx, cy = RING_CENTRE
    for j in range(level2):
        centre = (cx + (j - (level2 - 1) / 2) * (w2 + 2), cy - h2 / 2 - 4)
        out.append(_centred(f"castle:2:{j}", "castle", centre, (w2, h2)))
    w3, h3 = _box(SPOTS["castle:3"])
    out.append(_centred("castle:3", "castle", (cx, cy + h3 / 2 + 1), (w3, h3)))
    return out


SIDE_X = 390.0
"""Where the right-hand side of the board (decks, stacks, player areas) starts."""
SEAT_TOP, SEAT_H = 76.0, 67.0
TRACK_MM = (PITCH_MM, 2 * PITCH_MM + 3.0)
"""A track space: Virtue's spot above, Corruption's below."""
CARDS_AT = (296.0, 4.0)
"""The Lord of the Castle and Church Favour cards a seat holds: a row per colour in the ring's
free top right corner (the player areas have no room left)."""


def side_regions(data: ViscountsData) -> list[dict[str, Any]]:
    """Decks, stacks, the Kingdom cards and the four player areas."""
    out: list[dict[str, Any]] = []
    for k in range(PARTS):
        x = SIDE_X + k * (SLOT_MM + 1)
        out.append({"name": f"deck:{k}", "kind": "slot", "rect": [x, 6.0, SLOT_MM, SLOT_MM]})
        out.append({"name": f"stack:{k}", "kind": "slot",
                    "rect": [x, 8.0 + SLOT_MM, SLOT_MM, SLOT_MM]})  # fmt: skip
    kw, kh = _box(SPOTS["kingdom"])
    out.append({"name": "kingdom", "kind": "kingdom",
                "rect": [SIDE_X + PARTS * (SLOT_MM + 1) + 2, 8.0 + SLOT_MM, kw, kh]})  # fmt: skip
    spaces = data.track.spaces or 7
    sw, sh = _box(SPOTS["strip"])
    cw, ch = _box(SPOTS["cards"])
    for s, colour in enumerate(colours(data)):
        y = SEAT_TOP + s * SEAT_H
        seat = f"seat:{colour}"
        for k in range(3):
            out.append({"name": f"{seat}/space:{k + 1}", "kind": "slot",
                        "rect": [SIDE_X + k * (SLOT_MM + 1), y, SLOT_MM, SLOT_MM]})  # fmt: skip
        out.append({"name": f"{seat}/discard", "kind": "slot",
                    "rect": [SIDE_X + 3 * (SLOT_MM + 1) + 3, y, SLOT_MM, SLOT_MM]})  # fmt: skip
        tx = SIDE_X + 4 * (SLOT_MM + 1) + 6
        for k in range(spaces):
            out.append({"name": f"{seat}/track:{k + 1}", "kind": "track",
                        "rect": [tx + k * TRACK_MM[0], y, *TRACK_MM]})  # fmt: skip
        sy = y + TRACK_MM[1] + 2
        for b, kind in enumerate(BUILDINGS):
            for pos in range(3):
                sx = SIDE_X + (b * 3 + pos) * sw
                out.append({"name": f"{seat}/strip:{kind}:{pos}", "kind": "strip",
                            "rect": [sx, sy, sw, sh]})  # fmt: skip
        kx = SIDE_X + 9 * sw + 1
        kw, kh = _box(SPOTS["seat-kingdom"])
        out.append({"name": f"{seat}/kingdom", "kind": "kingdom", "rect": [kx, sy, kw, kh]})
        out.append({"name": f"{seat}/cards", "kind": "cards",
                    "rect": [CARDS_AT[0], CARDS_AT[1] + s * ch, cw, ch]})  # fmt: skip
    return out


def sticker_labels(data: ViscountsData) -> list[str]:
    """Every sticker of the kit, in the order of their ids."""
    family = colours(data)
    labels = [f"viscount:{c}" for c in family]
    for c in family:
        labels += [f"worker:{c}"] * 20
    for c in family:
        for kind in BUILDINGS:
            labels += [f"{kind}:{c}"] * 3
    labels += [f"{m}:{c}" for c in family for m in ("virtue", "corruption")]
    for face in ("debt", "paid", "deed", "granted"):
        labels += [face] * STACK_CARDS
    labels += ["lord", "poverty", "prosperity"]
    labels += [f"favour:{f.id}" for f in data.church_favour]
    return labels


def board_profile(data: ViscountsData, usable: Sequence[int]) -> dict[str, Any]:
    """The camera's board profile for the data set ``data`` (the JSON of
    ``camera/profile.json``); ``usable`` are the marker ids the sticker kit may print
    (``vision.markers.usable_ids``), the first four the board's corners.

    Raises:
        ValueError: too few ids for every sticker.
    """
    labels = sticker_labels(data)
    regions = [*ring_regions(data), *side_regions(data)]
    return generated_profile(
        "viscounts",
        (WIDTH_MM, HEIGHT_MM),
        CORNER_MM,
        STICKER_MM,
        regions,
        labels,
        usable,
        "viscount",
    )


# --- Tabletop Simulator ---------------------------------------------------------------------

TTS_MM_PER_UNIT = 20.0
"""The reference TTS layout: the camera board, 1 unit = 20 mm, centred on the table."""
TTS_COLOURS = "white|brown|red|orange|yellow|green|teal|blue|purple|pink"
TTS_COLOURED = {"viscount": "Viscount", "worker": "Worker", "workshop": "Workshop",
                "trading-post": "Trading\\s+Post", "guildhall": "Guildhall",
                "virtue": "Virtue(\\s+Marker)?",
                "corruption": "Corruption(\\s+Marker)?"}  # fmt: skip
TTS_PLAIN = {"debt": "Debt", "paid": "Paid\\s+Debt", "deed": "Deed",
             "granted": "Granted\\s+Deed", "lord": "Lord\\s+of\\s+the\\s+Castle",
             "poverty": "Poverty", "prosperity": "Prosperity"}  # fmt: skip


def tts_profile(board: Mapping[str, Any]) -> dict[str, Any]:
    """The Tabletop Simulator profile (``tts/profile.json``) for a camera ``board`` profile
    (the JSON of ``board_profile``): the same regions at 1 unit = 20 mm, centred; coloured
    pieces and plain cards by nickname or ``herald:`` GM notes, Church Favour cards,
    Townsfolk cards and Manuscripts by GM notes (what a mod's author writes on them)."""
    width, height = float(board["width_mm"]), float(board["height_mm"])

    def unit(mm: float) -> float:
        return round(mm / TTS_MM_PER_UNIT, 3)

    components: list[dict[str, Any]] = []
    for kind, name in TTS_COLOURED.items():
        components.append({
            "id": kind,
            "component": f"{kind}:{{color}}",
            "match": [
                {"nickname": f"(?i)^(?P<color>{TTS_COLOURS})\\s+{name}$"},
                {"gm_notes": f"(?i)^herald:{kind}:(?P<color>[a-z]+)$"},
            ],
        })  # fmt: skip
    for kind, name in TTS_PLAIN.items():
        components.append({"id": kind, "component": kind,
                           "match": [{"nickname": f"(?i)^{name}$"},
                                     {"gm_notes": f"^herald:{kind}$"}]})  # fmt: skip
    favour = "^herald:favour:(?P<favour>[a-z0-9-]+)$"
    components.append({"id": "favour", "component": "favour:{favour}",
                       "match": [{"gm_notes": favour}]})  # fmt: skip
    components.append({"id": "card", "component": "tile",
                       "match": [{"gm_notes": "^herald:card:(?P<card>[a-z0-9-]+)$"}],
                       "attrs": {"card": "{card}"}})  # fmt: skip
    components.append({"id": "manuscript", "component": "tile",
                       "match": [{"gm_notes": "^herald:ms:(?P<manuscript>[a-z0-9-]+)$"}],
                       "attrs": {"manuscript": "{manuscript}"}})  # fmt: skip
    regions = []
    for r in board["regions"]:
        x, y, w, h = r["rect"]
        regions.append({"region": r["name"], "rect": {
            "x": [unit(x - width / 2), unit(x + w - width / 2)],
            "z": [unit(height / 2 - y), unit(height / 2 - y - h)],
        }})  # fmt: skip
    return {
        "game": "viscounts",
        "title": "Viscounts of the West Kingdom: Herald's reference TTS layout (the camera "
        "board's regions, 1 unit = 20 mm, centred on the table; pieces named by nickname or "
        "herald: GM notes)",
        "lowercase": ["color"],
        "components": components,
        "regions": regions,
    }


# --- faces ----------------------------------------------------------------------------------


def card_key(card: str) -> str:
    return f"vw:card:{card}"


def manuscript_key(tile: str) -> str:
    return f"vw:ms:{tile}"


def camera_faces(data: ViscountsData) -> dict[str, dict[str, Any]]:
    """The stand-in art's face map: art key → the attributes that face shows."""
    out: dict[str, dict[str, Any]] = {}
    for t in data.townsfolk:
        out[card_key(t.id)] = {"card": t.id}
    for m in data.manuscripts:
        out[manuscript_key(m.id)] = {"manuscript": m.id}
    return out


def picture_component(attrs: Mapping[str, Any]) -> str:
    """The key a picture's read attributes give (``tile:?`` when its face was not named)."""
    if isinstance(attrs.get("card"), str):
        return f"tile:card:{attrs['card']}"
    if isinstance(attrs.get("manuscript"), str):
        return f"tile:ms:{attrs['manuscript']}"
    return "tile:?"


# --- the position on the board ------------------------------------------------------------


def colour_of(state: VState, i: int) -> str:
    """Seat ``i``'s colour: the data's colour of its player (``colours``), by seat order."""
    family = colours(state.data)
    return family[state.players[i].colour % len(family)]


def _sticker(label: str, region: str) -> Item:
    return Item("sticker", label, region, {})


def _card(card: str, region: str) -> Item:
    return Item("picture", card_key(card), region, {"card": card})


def items(state: VState) -> Iterator[Item]:
    """Every piece of ``state`` the camera reads, in its region (before the spot limits)."""
    for k, deck in enumerate(state.decks):
        if deck:
            yield _card(deck[0], f"deck:{k}")
    for k, stack in enumerate(state.stacks):
        if stack:
            yield Item("picture", manuscript_key(stack[0]), f"stack:{k}",
                       {"manuscript": stack[0]})  # fmt: skip
    if state.poverty:
        yield _sticker("poverty", "kingdom")
    if state.prosperity:
        yield _sticker("prosperity", "kingdom")
    for i, p in enumerate(state.players):
        c = colour_of(state, i)
        seat = f"seat:{c}"
        if p.town is not None:
            yield _sticker(f"viscount:{c}", f"town:{p.town}")
        for k, card in enumerate(p.board):
            if card is not None:
                yield _card(card, f"{seat}/space:{k + 1}")
        if p.discard:
            yield _card(p.discard[-1], f"{seat}/discard")
        yield _sticker(f"virtue:{c}", f"{seat}/track:{p.virtue + 1}")
        yield _sticker(f"corruption:{c}", f"{seat}/track:{p.corruption + 1}")
        taken = {(kind, pos) for kind, pos, _ in p.built}
        for kind in BUILDINGS:
            for pos in range(3):
                if (kind, pos) not in taken:
                    yield _sticker(f"{kind}:{c}", f"{seat}/strip:{kind}:{pos}")
        for kind, _, site in p.built:
            yield _sticker(f"{kind}:{c}", f"site:{site}")
        for face, n in (("debt", p.debts), ("paid", p.paid), ("deed", p.deeds),
                        ("granted", p.granted)):  # fmt: skip
            yield from [_sticker(face, f"{seat}/kingdom")] * n
        if state.lord == i:
            yield _sticker("lord", f"{seat}/cards")
        for f in p.favours:
            yield _sticker(f"favour:{f}", f"{seat}/cards")
    castle = state.castle
    for i in range(len(state.players)):
        worker = f"worker:{colour_of(state, i)}"
        for s, section in enumerate(castle.level1):
            yield from [_sticker(worker, f"castle:1:{s}")] * section[i]
        for s, section in enumerate(castle.level2):
            yield from [_sticker(worker, f"castle:2:{s}")] * section[i]
        yield from [_sticker(worker, "castle:3")] * (castle.level3[i] if castle.level3 else 0)


def _region_kind(region: str) -> str:
    if region.startswith("castle:"):
        return region.rsplit(":", 1)[0] if region.count(":") == 2 else region
    if region.startswith("seat:"):
        part = region.split("/", 1)[1].split(":", 1)[0]
        return "seat-kingdom" if part == "kingdom" else part
    return region.split(":", 1)[0]


def capacity(region: str) -> int | None:
    """Stickers a region shows side by side (None: a picture slot)."""
    spots = SPOTS.get(_region_kind(region))
    return spots[0] * spots[1] if spots else None


def visible(state: VState) -> Iterator[Item]:
    """Every piece a camera can see: stickers beyond a region's spots lie piled under the
    others (a crowded Castle section, many Debts), seen by nobody, so they are neither drawn
    nor expected; a move that changes only them is confirmed by a person."""
    count: Counter[str] = Counter()
    for item in items(state):
        if item.kind == "sticker":
            count[item.region] += 1
            limit = capacity(item.region)
            if limit is not None and count[item.region] > limit:
                continue
        yield item


def layout(state: VState, regions: Mapping[str, Rect]) -> tuple[Placed, ...]:
    """Every visible piece of ``state`` placed in the profile's ``regions``: pictures in the
    middle of their slot, stickers side by side on their region's spots (on a track space,
    Virtue above and Corruption below).

    Raises:
        ValueError: the profile has no region for a piece of the state.
    """
    out: list[Placed] = []
    standing: Counter[str] = Counter()
    for item in visible(state):
        rect = region_rect(regions, item.region)
        if item.kind == "picture":
            out.append(centred_picture(item, rect, (PICTURE_MM, PICTURE_MM)))
            continue
        columns = SPOTS.get(_region_kind(item.region), (1, 1))[0]
        if "/track:" in item.region:
            k = 0 if item.key.startswith("virtue:") else 1
        else:
            k = standing[item.region]
            standing[item.region] += 1
        out.append(sticker(item, spot(rect[0], rect[1], PITCH_MM, columns, k)))
    return tuple(out)


# --- reading --------------------------------------------------------------------------------


class ViscountsTable(ItemReading[VState]):
    """Viscounts in the profile vocabulary (``engine.interpret.TableReading``), read from the
    same items the layout draws. Nothing lingers on a Viscounts table that the rules have
    removed; a move's choices are answered by the acting player's phone (``Choose``), not
    read."""

    kinds = KINDS

    def visible(self, state: VState) -> Iterator[Item]:
        return visible(state)

    def picture_component(self, attrs: Mapping[str, Any]) -> str:
        return picture_component(attrs)

    def chance(self, state: VState, seen: Sequence[Mapping[str, Any]]) -> list[Any]:
        """A card played blind from the deck (§4 phase 1) or discarded from it lies face up
        where everyone sees it: the table shows which card the deck gave. A card drawn into
        a hand is hidden: the drawing player's phone reports it, never the camera."""
        ask = state.ask
        if ask is None or ask.asks != "reveal" or ask.purpose not in ("play", "discard"):
            return []
        p = state.players[ask.seat]
        c = colour_of(state, ask.seat)
        region = f"seat:{c}/space:1" if ask.purpose == "play" else f"seat:{c}/discard"
        shown = {
            item["attrs"]["card"]
            for item in seen
            if item.get("component") == "tile"
            and item.get("region") == region
            and isinstance((item.get("attrs") or {}).get("card"), str)
        }
        return [Reveal(p.seat, card) for card in sorted(shown) if card in p.deck]

    def narrow(
        self, state: VState, found: Sequence[tuple[tuple[Any, ...], VState]]
    ) -> list[tuple[Any, ...]]:
        """Of journeys ending on the same town (and followed by the same choices), the shortest.

        §4 phase 2 (seed L358-392): a Viscount must move at least the played card's value and
        "may move further by paying 1 Silver per extra town space". Nothing but the Silver
        depends on the spaces walked (meeting and the main action depend on the town), so a
        longer walk to the town a shorter one reaches only costs Silver: no player means it,
        and the camera reads the walk that ends there for the least (docs/rules-decisions.md).
        Silver is not on the table; a player who did pay more corrects it with Undo.
        """
        candidates = [seq for seq, _ in found]

        def same_end(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
            return (a[0].seat, a[0].town, a[1:]) == (b[0].seat, b[0].town, b[1:])

        walks = [seq for seq in candidates if seq and isinstance(seq[0], Travel)]
        return [
            seq
            for seq in candidates
            if seq not in walks
            or seq[0].spaces == min(w[0].spaces for w in walks if same_end(w, seq))
        ]


TABLE_READING = ViscountsTable()
