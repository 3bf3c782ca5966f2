"""Where a game's components lie on the table: what a simulated camera draws and what the
table sources report back (``engine.interpret``), in one vocabulary.

A game with a camera profile offers the pure verb ``layout(state, regions)``: every component
of the position placed in the profile's regions (``regions`` maps a region name to its
``(x, y, width, height)`` in board millimetres), as :class:`Placed` items. The vision side draws
them (a ``picture`` by its art key, a ``sticker`` by the sticker label the profile maps to a
marker id) without knowing the game; ``seen`` is the observation the item gives, the same
``{"component", "region", "attrs"}`` a camera or Tabletop Simulator reports.

What the games share to build it: :class:`Item` (the position listed once, for drawing and for
reading), the placement helpers (``region_rect``, ``centred_picture``, ``sticker``, ``spot``),
``board_profile`` (the JSON of a profile generated from a game's data) and
:class:`ItemReading` (the read-back, ``engine.interpret.TableReading``, over the same items).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from engine.interpret import Key

Rect = tuple[float, float, float, float]
S = TypeVar("S")


@dataclass(frozen=True)
class Placed:
    """One component on the table, in board millimetres: a ``picture`` (a tile or card face,
    drawn by its art ``key`` at ``size``) or a ``sticker`` (``key`` is its label in the
    profile's sticker map; it is drawn at the profile's sticker size, ``size`` is ignored)."""

    kind: Literal["picture", "sticker"]
    key: str
    center: tuple[float, float]
    size: tuple[float, float]
    seen: dict[str, Any] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Item:
    """One component of a position as the table shows it, before it is placed: a ``sticker``
    (``key`` its label in the profile's sticker map) or a ``picture`` (``key`` its art key), the
    region it lies in and, for a picture, the attributes its face shows.

    A game lists its position as items once, and both directions use that list: ``layout``
    places them for the simulated camera and :class:`ItemReading` expects them back, so what is
    drawn and what is read can never disagree.
    """

    kind: Literal["picture", "sticker"]
    key: str
    region: str
    attrs: Mapping[str, Any] = field(default_factory=dict)


def region_rect(regions: Mapping[str, Rect], region: str) -> Rect:
    """The rectangle of ``region`` in the profile.

    Raises:
        ValueError: the profile has no such region (the state holds a piece the board profile
            has no place for: a profile from another data set, or out of date).
    """
    if region not in regions:
        raise ValueError(f"the board profile has no region {region!r}")
    return regions[region]


def centred_picture(item: Item, rect: Rect, size: tuple[float, float]) -> Placed:
    """A picture item drawn ``size`` large in the middle of its region's ``rect``; the camera
    reads it back as a ``tile`` with the face's attributes."""
    x, y, w, h = rect
    seen = {"component": "tile", "region": item.region, "attrs": dict(item.attrs)}
    return Placed("picture", item.key, (x + w / 2, y + h / 2), size, seen)


def sticker(item: Item, center: tuple[float, float]) -> Placed:
    """A sticker item at ``center``; the camera reads back its label in its region."""
    seen = {"component": item.key, "region": item.region, "attrs": {}}
    return Placed("sticker", item.key, center, (0.0, 0.0), seen)


def spot(x: float, y: float, pitch: float, columns: int, k: int) -> tuple[float, float]:
    """The centre of the ``k``-th sticker spot, row by row, in a region whose top left corner
    is (x, y): spots ``pitch`` apart, ``columns`` to a row, 1.5 mm in from the region's edge
    (so neighbouring regions' stickers keep their quiet zones apart)."""
    half = pitch / 2
    return (x + 1.5 + half + pitch * (k % columns), y + 1.5 + half + pitch * (k // columns))


def board_profile(
    name: str,
    size: tuple[float, float],
    corner_mm: float,
    sticker_mm: float,
    regions: Sequence[Mapping[str, Any]],
    labels: Sequence[str],
    usable: Sequence[int],
    seat_sticker: str,
) -> dict[str, Any]:
    """A camera board profile (the JSON of a game's ``camera/profile.json``) generated from a
    game's own data: ``regions`` as ``{"name", "kind", "rect"}``, one sticker per label in
    ``labels``. ``usable`` are the marker ids the sticker kit may print (the dictionary's ids
    without the weak ones the detector never reports: ``vision.markers.usable_ids``); the first
    four mark the board's corners, 5 mm in from its edges, and the rest go to the labels in
    order.

    Raises:
        ValueError: too few ids for every sticker.
    """
    ids = list(usable)
    if len(ids) < 4 + len(labels):
        raise ValueError(f"{len(labels)} stickers and 4 corners need more than {len(ids)} ids")
    width, height = size
    corner = corner_mm / 2 + 5
    return {
        "name": name,
        "dictionary": "4x4_250",
        "width_mm": width,
        "height_mm": height,
        "corner_ids": ids[:4],
        "corner_marker_mm": corner_mm,
        "corner_centers_mm": [
            [corner, corner],
            [width - corner, corner],
            [width - corner, height - corner],
            [corner, height - corner],
        ],
        "sticker_mm": sticker_mm,
        "regions": list(regions),
        "markers": {str(i): label for i, label in zip(ids[4:], labels, strict=False)},
        "marker_attrs": {},
        "seat_sticker": seat_sticker,
        "printed_names": [],
    }


class ItemReading(Generic[S]):
    """A game's ``engine.interpret.TableReading`` built on its list of items: the pieces the
    referee expects are the items the camera can see, a sticker by its label and a picture by
    what its face shows (``picture_component``).

    A game subclasses it, sets ``kinds`` and gives ``visible``; it overrides
    ``picture_component`` when it has pictures, and ``forgive``, ``chance`` and ``follow_ups``
    when its table shows more than the move itself (the defaults: nothing lingers, no chance
    move is read, a move's choices are part of the move).
    """

    kinds: tuple[str, ...] = ()

    def visible(self, state: S) -> Iterable[Item]:
        """Every item of ``state`` a camera can see."""
        raise NotImplementedError

    def picture_component(self, attrs: Mapping[str, Any]) -> str:
        """The key a picture's read attributes give (``tile:?`` when its face was not named)."""
        return "tile:?"

    def pieces(self, state: S, kinds: set[str]) -> Counter[Key]:
        """The position as (component, region) pieces, from the same items the layout draws."""
        out: Counter[Key] = Counter()
        for item in self.visible(state):
            if item.kind == "picture":
                if "tile" in kinds:
                    out[(self.picture_component(item.attrs), item.region)] += 1
            elif item.key.split(":", 1)[0] in kinds:
                out[(item.key, item.region)] += 1
        return out

    def component(self, kind: str, component: str, attrs: Mapping[str, Any]) -> str:
        return self.picture_component(attrs) if kind == "tile" else component

    def forgive(self, state: S, missing: Counter[Key], extra: Counter[Key]) -> None:
        """Nothing lingers on the table that the rules have removed."""

    def chance(self, state: S, seen: Sequence[Mapping[str, Any]]) -> list[Any]:
        """No chance move is read from the table (phones, dice or people report them)."""
        return []

    def follow_ups(self, state: S, after: S) -> list[Any]:
        """A move's choices are part of the move itself, or answered on a phone."""
        return []
