"""The moves of Middle Ages as frozen dataclasses (JSON via ``engine.codec``): the table's
chance moves (rows, event cards, the Scout draw) and the seats' moves.

Rows and slots are numbered from 1, as in ``state``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.game import TABLE
from engine.games.middle_ages.components import Estate, Tile


@dataclass(frozen=True, slots=True)
class Reveal:
    """The table lays a row: ``tiles`` left to right after sorting by back number (chance)."""

    kind: ClassVar[str] = "reveal"
    row: int
    tiles: tuple[Tile, ...]

    @property
    def seat(self) -> str:
        return TABLE


@dataclass(frozen=True, slots=True)
class LayEvents:
    """The table lays four event cards left to right (chance, setup step 6)."""

    kind: ClassVar[str] = "events"
    cards: tuple[int, ...]

    @property
    def seat(self) -> str:
        return TABLE


@dataclass(frozen=True, slots=True)
class DrawOrder:
    """The Scout draw: the placement order of the seats (chance, setup step 8)."""

    kind: ClassVar[str] = "order"
    order: tuple[str, ...]

    @property
    def seat(self) -> str:
        return TABLE


@dataclass(frozen=True, slots=True)
class PlaceLord:
    """A seat puts its Lord on a top-row tile during setup."""

    kind: ClassVar[str] = "place"
    seat: str
    slot: int


@dataclass(frozen=True, slots=True)
class MoveLord:
    """A seat's turn: the Lord moves to ``slot`` of its destination row (None in round 16)."""

    kind: ClassVar[str] = "lord"
    seat: str
    slot: int | None


@dataclass(frozen=True, slots=True)
class ReturnTile:
    """Village effect or event E10: a graveyard tile goes back to the board (None: decline)."""

    kind: ClassVar[str] = "return"
    seat: str
    tile: Tile | None


@dataclass(frozen=True, slots=True)
class PlaceScout:
    """Walls effect: the Scout reserves the tile at ``row``/``slot``."""

    kind: ClassVar[str] = "scout"
    seat: str
    row: int
    slot: int


@dataclass(frozen=True, slots=True)
class PlaceCoin:
    """Church effect: a special-coin token goes under ``estate``."""

    kind: ClassVar[str] = "coin"
    seat: str
    estate: Estate


@dataclass(frozen=True, slots=True)
class PlaceStory:
    """Palace effect: the story token ``symbol`` goes under ``estate``."""

    kind: ClassVar[str] = "story"
    seat: str
    symbol: Estate
    estate: Estate


Move = (
    Reveal
    | LayEvents
    | DrawOrder
    | PlaceLord
    | MoveLord
    | ReturnTile
    | PlaceScout
    | PlaceCoin
    | PlaceStory
)
MOVE_TYPES: tuple[type, ...] = (
    Reveal,
    LayEvents,
    DrawOrder,
    PlaceLord,
    MoveLord,
    ReturnTile,
    PlaceScout,
    PlaceCoin,
    PlaceStory,
)
CHANCE_TYPES = (Reveal, LayEvents, DrawOrder)
