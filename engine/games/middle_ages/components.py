"""Static facts of Middle Ages: estates, incomes, event cards, and the tile box.

Everything here is printed in the rulebook (rules/fief_tiles.md, seed 003) except the tile box:
the seed does not say which back number (1-23) carries which estate, nor which tiles show Farmer
or Chest symbols. A tile's face is therefore an observed input, and the box is a data file users
can edit (``data/tiles.json``), loaded by the caller and kept in the state (``BOX_SPEC``). The
shipped file is an *assumed* distribution for simulation,
marked ``"verified": false``; with it, reveals are checked only against what the rulebook does
give (counts per estate, numbers 1-23). A box marked verified is checked tile by tile.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from engine import codec
from engine.data import DataDoc, DataSpec
from engine.violations import InputError

GAME_KEY = "middle-ages"
RULEBOOK = "rules/fief_tiles.md"
SEED = "003_8da931cd88ab5f77.txt"


def ref(section: str, lines: str) -> str:
    """A rulebook reference: digest section plus seed lines."""
    return f"{RULEBOOK} {section} [{SEED}:{lines}]"


Estate = Literal["Field", "Mill", "Village", "Walls", "Market", "Barracks", "Church", "Palace"]
Back = Literal["blue", "orange"]

ESTATES: tuple[Estate, ...] = (
    "Field",
    "Mill",
    "Village",
    "Walls",
    "Market",
    "Barracks",
    "Church",
    "Palace",
)
"""Board columns left to right (order inferred from the component list, digest §1 and §12.3)."""

INDEX: dict[str, int] = {e: i for i, e in enumerate(ESTATES)}

TILES_PER_ESTATE: dict[Estate, int] = {
    "Field": 14,
    "Mill": 13,
    "Village": 12,
    "Walls": 11,
    "Market": 10,
    "Barracks": 9,
    "Church": 8,
    "Palace": 7,
}
"""Tiles of each type in the box [L41-63]; 84 in all."""

BLUE_TILES = 52
ORANGE_TILES = 32
MAX_NUMBER = 23
EVENT_CARDS = 15
EVENTS_LAID = 4
ROUNDS = 16
ROWS = 4
SPECIAL_COIN_TOKENS = 8
STORY_TOKENS = 8
EMPTY_ESTATE_PENALTY = 10
MILL_PAYMENT = 2
BARRACKS_PAYMENT = 2

BASE_RATE: dict[Estate, int] = {
    "Field": 2,
    "Mill": 2,
    "Village": 2,
    "Walls": 2,
    "Market": 2,
    "Barracks": 2,
    "Church": 3,
    "Palace": 3,
}

PRINTED: dict[Estate, frozenset[Estate]] = {
    "Field": frozenset({"Field"}),
    "Mill": frozenset({"Mill"}),
    "Village": frozenset({"Village", "Walls"}),
    "Walls": frozenset({"Field", "Walls"}),
    "Market": frozenset({"Mill", "Market"}),
    "Barracks": frozenset({"Village", "Barracks"}),
    "Church": frozenset({"Church"}),
    "Palace": frozenset({"Palace"}),
}
"""The tile types each estate pays income for, as printed (digest §5)."""

INCOME_REF: dict[Estate, str] = {
    "Field": ref("§5 Field", "L233-243"),
    "Mill": ref("§5 Mill", "L233-243"),
    "Village": ref("§5 Village", "L245-249"),
    "Walls": ref("§5 Walls", "L251-255"),
    "Market": ref("§5 Market", "L272-276"),
    "Barracks": ref("§5 Barracks", "L278-282"),
    "Church": ref("§5 Church", "L324-327"),
    "Palace": ref("§5 Palace", "L329-332"),
}

EFFECT_REF: dict[Estate, str] = {
    "Field": ref("§5 Field effect", "L214-216"),
    "Mill": ref("§5 Mill effect", "L218-219"),
    "Village": ref("§5 Village effect", "L221-224"),
    "Walls": ref("§5 Walls effect", "L226-231"),
    "Market": ref("§5 Market effect", "L261-263"),
    "Barracks": ref("§5 Barracks effect", "L265-270"),
    "Church": ref("§5 Church effect", "L295-301"),
    "Palace": ref("§5 Palace effect", "L303-310"),
}


@dataclass(frozen=True, slots=True)
class Tile:
    """A story tile as the table shows it: back (colour and number) and face."""

    number: Annotated[int, {"minimum": 1, "maximum": MAX_NUMBER}]
    back: Back
    estate: Estate
    farmers: Annotated[int, {"minimum": 0, "maximum": 9}] = 0
    chests: Annotated[int, {"minimum": 0, "maximum": 9}] = 0

    def __post_init__(self) -> None:
        if not 1 <= self.number <= MAX_NUMBER:
            raise ValueError(f"tile number must be 1..{MAX_NUMBER}, got {self.number}")
        if self.farmers < 0 or self.chests < 0:
            raise ValueError("symbol counts cannot be negative")


EventEffect = Literal["symbols", "per-tile", "discard", "reconstruction", "graveyard", "distinct"]


@dataclass(frozen=True)
class EventCard:
    """An event card: its effect kind and parameters (every card affects every player, §6)."""

    number: int
    polish: str
    name: str
    effect: EventEffect
    amount: int
    estates: tuple[Estate, ...]
    symbol: Literal["farmers", "chests", ""]
    ref: str


def _card(
    number: int,
    polish: str,
    name: str,
    effect: EventEffect,
    lines: str,
    amount: int = 0,
    estates: tuple[Estate, ...] = (),
    symbol: Literal["farmers", "chests", ""] = "",
) -> EventCard:
    return EventCard(number, polish, name, effect, amount, estates, symbol, ref("§6", lines))


EVENTS: dict[int, EventCard] = {
    c.number: c
    for c in (
        _card(1, "Rzemiosło", "Craftsmanship", "symbols", "L461-464", 1, symbol="farmers"),
        _card(2, "Cenne Towary", "Precious Goods", "symbols", "L466-469", 1, symbol="chests"),
        _card(3, "Sojusz", "Alliance", "per-tile", "L471-475", 3, ("Church", "Palace")),
        _card(4, "Inwazja Barbarzyńców", "Barbarian Invasion", "discard", "L477-483",
              estates=("Mill", "Field")),
        _card(5, "Czarna Plaga", "Black Plague", "discard", "L485-491",
              estates=("Village", "Barracks")),
        _card(6, "Nowe Baszty", "New Towers", "per-tile", "L494-499", 3, ("Walls",)),
        _card(7, "Triumfalny Powrót", "Triumphant Return", "per-tile", "L501-504", 2,
              ("Market", "Barracks")),
        _card(8, "Przyrost Ludności", "Population Growth", "per-tile", "L506-509", 2,
              ("Mill", "Village")),
        _card(9, "Powstanie Chłopskie", "Peasant Revolt", "discard", "L511-515",
              estates=("Palace",)),
        _card(10, "Odbudowa", "Reconstruction", "reconstruction", "L517-522"),
        _card(11, "Dobre Zbiory", "Good Harvest", "per-tile", "L525-528", 2, ("Field",)),
        _card(12, "Pomoc w Odbudowie", "Rebuilding Aid", "graveyard", "L530-533", 3),
        _card(13, "Majątek Ziemski", "Landed Estate", "distinct", "L535-539", 2),
        _card(14, "Kosztowne Ceremonie", "Costly Ceremonies", "per-tile", "L541-545", -2,
              ("Church", "Palace")),
        _card(15, "Trzęsienie Ziemi", "Earthquake", "discard", "L547-551", estates=("Walls",)),
    )
}  # fmt: skip


@dataclass(frozen=True)
class TileBox:
    """The contents of the tile box: every tile's back and face.

    ``verified`` says whether the list was checked against a physical copy. Only then can a
    revealed tile be checked against the exact tiles left in a stack.
    """

    tiles: tuple[Tile, ...]
    verified: bool = False
    source: str = ""
    _by_back: dict[str, Counter[Tile]] = field(init=False, repr=False, compare=False)
    """Each back's tiles counted once, when the box is made: every reveal's check asks."""

    def __post_init__(self) -> None:
        counts: dict[str, Counter[Tile]] = {}
        for t in self.tiles:
            counts.setdefault(t.back, Counter())[t] += 1
        object.__setattr__(self, "_by_back", counts)

    def of_back(self, back: Back) -> tuple[Tile, ...]:
        return tuple(t for t in self.tiles if t.back == back)

    def counted(self, back: Back) -> Counter[Tile]:
        """The tiles with this back and how many of each (a fresh Counter the caller may edit)."""
        return Counter(self._by_back.get(back, ()))

    def count(self, back: Back) -> int:
        return sum(1 for t in self.tiles if t.back == back)


def validate_box(box: TileBox) -> list[str]:
    """Every way a tile box contradicts the rulebook's component list (empty when consistent)."""
    problems: list[str] = []
    by_estate = Counter(t.estate for t in box.tiles)
    for estate, expected in TILES_PER_ESTATE.items():
        if by_estate[estate] != expected:
            problems.append(f"{estate}: {by_estate[estate]} tiles, the rulebook has {expected}")
    if box.count("blue") != BLUE_TILES:
        problems.append(f"{box.count('blue')} blue-backed tiles, the rulebook has {BLUE_TILES}")
    if box.count("orange") != ORANGE_TILES:
        problems.append(
            f"{box.count('orange')} orange-backed tiles, the rulebook has {ORANGE_TILES}"
        )
    return problems


def parse_box(data: Any) -> TileBox:
    """A tile box from its JSON data file; ``InputError`` when it breaks the format or rulebook."""
    if not isinstance(data, dict) or not isinstance(data.get("tiles"), list):
        raise InputError("input/box", "a tile box file is {'verified': bool, 'tiles': [...]}")
    tiles = tuple(codec.decode(Tile, t, f"$.tiles[{i}]") for i, t in enumerate(data["tiles"]))
    verified = data.get("verified", False)
    if not isinstance(verified, bool):
        raise InputError("input/box", "'verified' must be true or false", "$.verified")
    box = TileBox(tiles, verified, str(data.get("source", "")))
    problems = validate_box(box)
    if problems:
        raise InputError("input/box", "; ".join(problems))
    return box


def parse_box_doc(source: DataDoc) -> TileBox:
    """The tile box a data document describes (``engine.data``: the caller reads the file)."""
    return parse_box(source.doc)


BOX_SPEC = DataSpec(option="box", default="assumed", shipped={"assumed": "tiles.json"},
                    parse=parse_box_doc)  # fmt: skip
"""The game's data (``engine.data``): the option ``box`` names the tile box, the shipped
``assumed`` distribution (``data/tiles.json``, unverified) unless a user's file or object."""
