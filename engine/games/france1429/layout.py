"""France 1429 on the camera's board: the stand-in board profile, where every counter lies, and
how the table is read back (digest §2.5, §14.1).

The board (``camera/profile.json``, written by ``board_profile`` from the map's own layout) has
one square region per Village, ``village:<id>``, on a 7 × 5 grid: each Village takes the free
grid cell nearest to where ``map_layout.arrange`` draws it, so the board keeps the map's shape while
every Village has room for sixteen counters side by side. Beside the map, the title spaces
(``titles``: the counters nobody holds) and one Family Board per colour
(``seat:<colour>/family``: the title counters its Lords hold).

One list of table items serves both directions (what the simulated camera draws and what the
referee expects to read), every item a sticker:

- troop counters ``maa:<colour>`` and ``knight:<colour>`` (13 and 8 a colour, §2.1), Lord tokens
  ``lord:<id>`` standing and ``captive:<id>`` lying on their side (a second sticker on the
  token's side, §9.7), Siege Engines ``engine:<colour>`` (2 a colour), Mills ``mill``, the
  Stronghold face ``stronghold`` and the Fortified City face ``fortified`` (one sticker on each
  face of the 12 counters; at most one Fortified City a Fief), each in its Village;
- title counters ``crown:<fief>``, ``staff:<bishopric>``, ``biretta``, ``king``, ``queen``
  (Queen and Queen Regent), ``pope``, ``prince`` (Crown Prince), ``darc``: on their space while
  nobody holds them, on the holder's Family Board otherwise.

Not read (a person confirms, or the referee keeps them): which road a stack stands on (the order
of arrival, so who controls a contested Village), which side of a Siege Engine is up (the rules
fix it: 1 die the round it is built, 2 after), cards (hands, the Disaster track, the cards at the
mitres), Tax, Vote, Diplomacy, Marriage, Capture, Assassin and Excommunication markers, relics,
money, and which of a family's Lords holds a title (the counter lies on the family's board). A
move that differs from another only in those is asked on a phone, never guessed.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.games.france1429.board_places import place_faults, traced, village_squares
from engine.games.france1429.geography import MapData
from engine.games.france1429.map_layout import arrange
from engine.games.france1429.movement import move_moves, others_here
from engine.games.france1429.moves import March
from engine.games.france1429.state import FranceState
from engine.layout import Item, ItemReading, Placed, Rect, region_rect, spot, sticker
from engine.layout import board_profile as generated_profile

STICKER_MM = 10.0
PITCH_MM = 16.0
"""Spots 16 mm apart: a 10 mm sticker on a 16 mm counter, side by side (the simulated camera
sees a 10 mm sticker at about 18 px)."""
SPOTS = 4
"""A Village's cell is 4 spots square; its region holds 3 × 4 counters side by side
(``CAPACITY``); more lie piled under them (not seen)."""
CELL_MM = SPOTS * PITCH_MM + 3.0
GRID = (7, 5)
"""Columns and rows of Village cells; the two left corner cells hold the corner markers."""
MARGIN_MM = 6.0
GRID_TOP_MM = 26.0
HEIGHT_MM = 387.0
"""The board (635 × 387 mm) fits the simulated camera's view of its table, as Glory's does."""
STRIP_SPOTS = 9
"""Title spaces and Family Boards are rows of nine spots."""
TITLE_ROWS = 3
FAMILY_ROWS = 2
CORNER_MM = 40.0

COLOURS = ("green", "blue", "magenta", "white", "red", "yellow")
"""The six family colours of the box data (``colours``), in its order: the seats a camera
session can take."""

STOCK = {"maa": 13, "knight": 8, "engine": 2}
SUPPLY = {"mill": 15, "stronghold": 12, "fortified": 8, "biretta": 4}
SINGLE_TITLES = ("king", "queen", "pope", "prince", "darc")

KINDS: tuple[str, ...] = (
    "maa",
    "knight",
    "lord",
    "captive",
    "engine",
    "mill",
    "stronghold",
    "fortified",
    "crown",
    "staff",
    "biretta",
    *SINGLE_TITLES,
)
"""The kinds of counter a move can change."""


# --- the board ----------------------------------------------------------------------------


def board_size() -> tuple[float, float]:
    width = MARGIN_MM * 3 + GRID[0] * CELL_MM + STRIP_SPOTS * PITCH_MM + 4
    return width, HEIGHT_MM


def village_cells(m: MapData) -> dict[str, tuple[int, int]]:
    """Each Village's grid cell (column, row): the free cell nearest its drawn position, the
    closest pair taken first, so the board keeps the map's shape."""
    cols, rows = GRID
    pos = arrange(m)
    if not pos:
        return {}
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    x0, y0 = min(xs), min(ys)
    sx = (cols - 1) / ((max(xs) - x0) or 1.0)
    sy = (rows - 1) / ((max(ys) - y0) or 1.0)
    want = {v: ((x - x0) * sx, (y - y0) * sy) for v, (x, y) in pos.items()}
    free = {(c, r) for c in range(cols) for r in range(rows)} - {(0, 0), (0, rows - 1)}
    if len(want) > len(free):
        raise ValueError(f"{len(want)} Villages do not fit the board's {len(free)} cells")
    pairs = sorted(
        ((wx - c) ** 2 + (wy - r) ** 2, v, (c, r))
        for v, (wx, wy) in want.items()
        for (c, r) in free
    )
    out: dict[str, tuple[int, int]] = {}
    taken: set[tuple[int, int]] = set()
    for _, v, cell in pairs:
        if v not in out and cell not in taken:
            out[v] = cell
            taken.add(cell)
    return out


def board_profile(
    m: MapData, usable: Sequence[int], colours: Sequence[str] | None = None
) -> dict[str, Any]:
    """The camera's board profile for map ``m`` (the JSON of ``camera/profile.json``), with a
    Family Board and troop stickers for each of ``colours`` (the box's families' colours, the
    seats a camera session takes; None: the shipped set's, ``COLOURS``).

    ``usable`` are the marker ids the sticker kit may print (the dictionary's ids without the
    weak ones the detector never reports: ``vision.markers.usable_ids``); the first four are
    the board's corners.

    A map traced on a photo of its board (``board_places.traced``) is read where it was
    traced: the board is the size the host gave, its corners (the four clicks on the photo)
    carry the corner stickers, each Village's square is centred on its place, and the title
    spaces and Family Boards lie in a strip beside the board's right edge. Any other map gets
    the stand-in board: a 7 × 5 grid in the map's shape (``village_cells``).

    Raises:
        ValueError: too few ids for every counter, too many Villages for the grid, or traced
            places the camera could not read (``board_places.place_faults``, which the map's
            check reports first).
    """
    family = tuple(colours) if colours else COLOURS
    if traced(m):
        return _traced_profile(m, usable, family)
    width, height = board_size()
    regions: list[dict[str, Any]] = []
    for v, (c, r) in sorted(village_cells(m).items(), key=lambda kv: (kv[1][1], kv[1][0])):
        x = MARGIN_MM + c * CELL_MM + 1.5
        y = GRID_TOP_MM + r * CELL_MM + 1.5
        regions.append({"name": f"village:{v}", "kind": "village",
                        "rect": [x, y, CELL_MM - 3, CELL_MM - 3]})  # fmt: skip
    sx = MARGIN_MM * 2 + GRID[0] * CELL_MM
    y = MARGIN_MM + CORNER_MM + 8
    y = _strip(regions, sx, y, family)
    if y > height - MARGIN_MM - CORNER_MM:
        raise ValueError("the Family Boards do not fit beside the map")
    return generated_profile(
        "france1429", (width, height), CORNER_MM, STICKER_MM, regions, _labels(m, family),
        usable, "maa",
    )  # fmt: skip


STRIP_GAP_MM = 10.0
"""A traced board's title spaces and Family Boards lie this far right of its edge."""


def _traced_profile(m: MapData, usable: Sequence[int], family: Sequence[str]) -> dict[str, Any]:
    """The profile of a board traced on a photo (see ``board_profile``); named after the
    board's places so that two traced boards never share a drawn board."""
    assert m.board is not None
    faults = place_faults(m)
    if faults:
        kind, ids = faults[0]
        raise ValueError(f"the traced places cannot be read by the camera: {kind} {ids}")
    regions: list[dict[str, Any]] = []
    squares = village_squares(m)
    for v, (x, y, w, h) in sorted(squares.items(), key=lambda kv: (kv[1][1], kv[1][0], kv[0])):
        regions.append({"name": f"village:{v}", "kind": "village", "rect": [x, y, w, h]})
    width, height = m.board
    _strip(regions, width + STRIP_GAP_MM, 0.0, family)
    places = ",".join(f"{v}@{x:g},{y:g}" for v, (x, y, _, _) in sorted(squares.items()))
    tag = hashlib.sha256(f"{width:g}x{height:g};{places}".encode()).hexdigest()[:12]
    labels = _labels(m, family)
    return generated_profile(
        f"france1429 traced {tag}", (width, height), CORNER_MM, STICKER_MM, regions, labels,
        usable, "maa",
    )  # fmt: skip


def _strip(regions: list[dict[str, Any]], sx: float, y: float, family: Sequence[str]) -> float:
    """The title spaces, then a Family Board per colour of ``family``, stacked from (sx, y);
    returns the strip's bottom edge."""
    sw = STRIP_SPOTS * PITCH_MM + 4
    regions.append({"name": "titles", "kind": "titles",
                    "rect": [sx, y, sw, TITLE_ROWS * PITCH_MM + 4]})  # fmt: skip
    y += TITLE_ROWS * PITCH_MM + 4 + 3
    for colour in family:
        regions.append({"name": f"seat:{colour}/family", "kind": "family",
                        "rect": [sx, y, sw, FAMILY_ROWS * PITCH_MM + 2]})  # fmt: skip
        y += FAMILY_ROWS * PITCH_MM + 2 + 3
    return y


def _labels(m: MapData, family: Sequence[str]) -> list[str]:
    """Every counter's sticker label (troops and Siege Engines in ``family``'s colours), in the
    order of the kit's marker ids."""
    labels: list[str] = []
    for kind in ("maa", "knight"):
        for colour in family:
            labels += [f"{kind}:{colour}"] * STOCK[kind]
    labels += [f"lord:{x}" for x in LORD_IDS] + [f"captive:{x}" for x in LORD_IDS]
    for colour in family:
        labels += [f"engine:{colour}"] * STOCK["engine"]
    for kind in ("mill", "stronghold", "fortified"):
        labels += [kind] * SUPPLY[kind]
    return labels + title_labels(m)


LORD_IDS = (
    "quentin", "jeanne", "francois", "thierry", "beaudoin", "gauvain", "blanche", "mireille",
    "arthur", "alienor", "charles", "guenievre",
    *(f"lord-{n}" for n in range(13, 19)),
)  # fmt: skip
"""The Lord tokens of the shipped box and stand-in sets (the same 18 ids in both)."""


def title_labels(m: MapData) -> list[str]:
    """Every title counter, in the order of its spots on the title spaces."""
    out = [f"crown:{f.id}" for f in m.fiefs]
    out += [f"staff:{b.number}" for b in m.bishoprics]
    out += ["biretta"] * SUPPLY["biretta"]
    return out + list(SINGLE_TITLES)


# --- the position on the board ------------------------------------------------------------


def counter(label: str, region: str) -> Item:
    """One counter of the position: its sticker label and the region it lies in."""
    return Item("sticker", label, region)


def village_items(state: FranceState) -> Iterator[Item]:
    """Every counter on the map, Village by Village: Lords, the fortification, Mills, the Siege
    Engine, then troops family by family."""
    troops: dict[str, list[Item]] = {}
    for t in sorted(state.troops, key=lambda t: (t.village, state.seats.index(t.seat))):
        here = troops.setdefault(t.village, [])
        here += [counter(f"knight:{t.seat}", f"village:{t.village}")] * t.knights
        here += [counter(f"maa:{t.seat}", f"village:{t.village}")] * t.maa
    for v in state.rules.villages:
        region = f"village:{v.id}"
        for lord in state.lords_at(v.id):
            yield counter(f"{'captive' if lord.captor else 'lord'}:{lord.id}", region)
        place = state.place(v.id)
        if place.fort != "none":
            yield counter(place.fort, region)
        yield from [counter("mill", region)] * place.mills
        if place.engine and place.besieged_by:
            yield counter(f"engine:{place.besieged_by}", region)
        yield from troops.get(v.id, [])


def title_items(state: FranceState) -> Iterator[Item]:
    """Every title counter: on its holder's Family Board, or on the title spaces."""
    held: Counter[str] = Counter()
    for lord in state.lords:
        board = f"seat:{lord.seat}/family"
        labels = [f"crown:{f}" for f in lord.fiefs]
        if lord.bishop is not None:
            labels.append(f"staff:{lord.bishop}")
        labels += ["biretta"] * (lord.cardinal or lord.biretta)
        labels += ["king"] * lord.king + ["queen"] * (lord.queen or lord.regent)
        labels += ["pope"] * lord.pope + ["prince"] * lord.crown_prince + ["darc"] * lord.darc
        for label in labels:
            held[label] += 1
            yield counter(label, board)
    every = Counter(
        [f"crown:{f}" for f in state.rules.fiefs()]
        + [f"staff:{b}" for b in sorted({v.bishopric for v in state.rules.villages})]
        + ["biretta"] * SUPPLY["biretta"]
        + list(SINGLE_TITLES)
    )
    for label, n in sorted((every - held).items()):
        yield from [counter(label, "titles")] * n


VILLAGE_COLUMNS = int((CELL_MM - 3 - 3) // PITCH_MM)
"""Spots to a row in a Village's region (``CELL_MM - 3`` wide, stickers 1.5 mm in from each
edge: ``engine.layout.spot``), as ``layout`` lays them: 3, so a Village shows 3 × 4 counters."""

CAPACITY = {"village": VILLAGE_COLUMNS * SPOTS, "seat": STRIP_SPOTS * FAMILY_ROWS}
"""Counters a Village or a Family Board holds side by side: the spots ``layout`` fills, so the
counters expected to be seen are the counters drawn (a crowded Village's 13th counter was
expected but not drawn)."""


def items(state: FranceState) -> Iterator[Item]:
    """Every counter the camera can see: a region's counters beyond its spots lie piled under
    the others (the last troops of a crowded Village), seen by nobody, so they are neither
    drawn nor expected; a move that changes only them is confirmed by a person."""
    count: Counter[str] = Counter()
    for item in (*village_items(state), *title_items(state)):
        limit = CAPACITY.get(item.region.split(":", 1)[0])
        count[item.region] += 1
        if limit is None or count[item.region] <= limit:
            yield item


def layout(state: FranceState, regions: Mapping[str, Rect]) -> tuple[Placed, ...]:
    """Every counter of ``state`` placed in the profile's ``regions``: side by side in its
    Village (12 spots), on the holder's Family Board (18), or on its title space. Counters
    beyond a region's spots lie piled under the others: they are not placed (no camera sees
    them, so such a position is confirmed by people rather than read).

    Raises:
        ValueError: the profile has no region for a counter of the state.
    """
    out: list[Placed] = []
    standing: Counter[str] = Counter()
    space = {label: k for k, label in enumerate(_title_order(state))}
    used: Counter[str] = Counter()
    for item in items(state):
        x, y, w, _ = region_rect(regions, item.region)
        columns = max(1, int((w - 3) // PITCH_MM))
        if item.region == "titles":
            k = space[item.key] + used[item.key]
            used[item.key] += 1
        else:
            k = standing[item.region]
            standing[item.region] += 1
        rows = SPOTS if item.region.startswith("village:") else FAMILY_ROWS
        if item.region != "titles" and k >= columns * rows:
            continue  # piled under the others: on the table, but no camera sees it
        out.append(sticker(item, spot(x, y, PITCH_MM, columns, k)))
    return tuple(out)


def _title_order(state: FranceState) -> list[str]:
    """The title spaces' spot of each title's first counter (birettas take four spots)."""
    labels = [f"crown:{f}" for f in state.rules.fiefs()]
    labels += [f"staff:{b}" for b in sorted({v.bishopric for v in state.rules.villages})]
    out: list[str] = []
    for label in [*labels, "biretta", *SINGLE_TITLES]:
        out.append(label)
        if label == "biretta":
            out += ["biretta+"] * (SUPPLY["biretta"] - 1)
    return out


# --- reading --------------------------------------------------------------------------------


class FranceTable(ItemReading[FranceState]):
    """France 1429 in the profile vocabulary (``engine.interpret.TableReading``), read from the
    same counters the layout draws (stickers only). Nothing lingers on a France table that the
    rules have removed; cards drawn and dice rolled are reported by phones and dice, never read
    here."""

    kinds = KINDS

    def visible(self, state: FranceState) -> Iterator[Item]:
        return items(state)

    def follow_ups(self, state: FranceState, after: FranceState) -> list[Any]:
        """A Lord who moved may go on along another road with the same troops (§8.1): a stack
        set down two roads away is read as both Moves, and when two roads lead there the
        referee asks which (the camera does not see the road a stack came by), unless the
        rules settle it (``narrow``)."""
        if after.phase != "movement" or after.pending or after.battle is not None:
            return []
        moved = [
            lord
            for lord in after.lords
            if (was := state.find_lord(lord.id)) is not None and was.village != lord.village
        ]
        if len(moved) != 1:
            return []
        lord = moved[0]
        origin = state.lord(lord.id).village
        return [
            m
            for m in move_moves(after, lord.seat)
            if isinstance(m, March)
            and m.lord == lord.id
            and m.to != origin
            and (m.maa, m.knights) == (lord.escort_maa, lord.escort_knights)
            and not m.captives
        ]

    def narrow(
        self, state: FranceState, found: Sequence[tuple[tuple[Any, ...], FranceState]]
    ) -> list[tuple[Any, ...]]:
        """Of Marches of one Lord ending in the same position, the one with the fewest Moves,
        when nobody else is in the Village he ends in.

        §8.1: one Move goes to an adjacent Village along a road, each Lord has up to 2; a
        stack set down one road away may also have come by two roads (a Move more). Apart from
        the Moves left, the road he came by is all that differs (``came_from``), and it
        matters only to the others in that Village (§8.2: they may not leave by it, he may
        need their leave). With nobody there, the longer way only spends a Move, which no
        player means: the camera reads the shorter (docs/rules-decisions.md, FR-37). With
        someone there, or any other difference (a Village he passed changed hands), the table
        is asked which road.
        """
        calm: list[FranceState | None] = [_without_route(seq, end) for seq, end in found]
        kept = []
        for (seq, end), key in zip(found, calm, strict=True):
            if key is None:
                kept.append(seq)
                continue
            fewest = min(
                other.lord(seq[0].lord).moves
                for (_, other), k in zip(found, calm, strict=True)
                if k is not None and k == key
            )
            if end.lord(seq[0].lord).moves == fewest:
                kept.append(seq)
        return kept


def _without_route(seq: tuple[Any, ...], end: FranceState) -> FranceState | None:
    """``end`` with the road the Lord came by and his Moves forgotten (None: not Marches of
    one Lord, or others are in the Village he ends in)."""
    if not seq or not all(isinstance(m, March) and m.lord == seq[0].lord for m in seq):
        return None
    lord = end.find_lord(seq[0].lord)
    if lord is None or others_here(end, lord.seat, lord.village):
        return None
    plain = replace(lord, moves=0, came_from=None, passage=None)
    troops = sorted((t for t in end.troops if t.count() or t.fresh_maa or t.fresh_knights),
                    key=lambda t: (t.seat, t.village))  # fmt: skip
    lords = tuple(plain if x.id == lord.id else x for x in end.lords)
    return replace(end, lords=lords, troops=tuple(troops))


TABLE_READING = FranceTable()
