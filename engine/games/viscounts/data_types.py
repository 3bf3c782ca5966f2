"""The typed value of Viscounts of the West Kingdom's printed data (``ViscountsData``) and
the counts the seed gives; ``data`` reads a data file into it.

``None`` in a field: the value is not known (the box set) or, for a card's optional part in an
invented set, the card has none (``data.data_gaps`` tells them apart).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from engine.games.viscounts.effects import Ability, Effect, Symbol

DATA_FORMAT = "viscounts-data/1"
PLAYERS = range(1, 5)
"""1 to 4 players; one player plays against the solo AI (digest §8)."""

Deck = Literal["common", "famous", "starting"]
Path = Literal["outer", "inner"]
Side = Literal["left", "right"]
Exchange = Literal["silver", "resource", "ink", "stone", "gold", "destroy", "flip"]
Goal = Literal["trade", "build", "workers", "transcribe"]

COUNTS = {
    "colours": 4,
    "common": 68,
    "famous": 10,
    "starting_per_colour": 8,
    "manuscripts_grey": 5,
    "manuscripts_black": 30,
    "church_favour": 4,
    "player_cards": 10,
    "schemes_starting": 8,
    "schemes_future": 8,
    "ais": 4,
    "board_parts": 5,
    "workers_per_colour": 20,
    "buildings_per_type": 3,
    "debts": 30,
    "deeds": 30,
}
"""The counts the seed gives (digest §2, seed L20-99, L143-157; four AIs: L1012)."""


@dataclass(frozen=True, slots=True)
class Townsfolk:
    """A Townsfolk card design and how many copies the box holds (digest §2 "Card anatomy").

    ``value`` (top left) is its hire and dismiss cost, movement value and Destroy payout;
    ``hire`` its top-right effect (first hire or dismissal); ``ability`` its timed bottom
    ability; ``symbols`` its left-side symbols. ``colour``: a Starting card's owner colour
    index (0-3). ``None``: not known (box set)."""

    id: str
    name: str
    deck: Deck | None
    count: int
    value: int | None
    symbols: tuple[Symbol, ...] | None
    hire: Effect | None
    ability: Ability | None
    colour: int | None = None
    name_pl: str | None = None
    invented: bool = False
    source: str = ""


@dataclass(frozen=True, slots=True)
class Manuscript:
    """A Manuscript tile: its back (grey tiles top the stacks at setup; ``printed``: one printed
    on the main board under a stack, seed L652-654), ribbon colour, Cleric
    cost, immediate effect and end-game scoring condition (digest §5.4)."""

    id: str
    back: Literal["grey", "black", "printed"]
    ribbon: str | None
    cost: int | None
    effect: Effect | None
    scoring: Effect | None
    invented: bool = False
    source: str = ""


@dataclass(frozen=True, slots=True)
class ChurchFavour:
    """A Church Favour card: the ribbon colour it rewards, 3 VP, its ability (seed L642-657)."""

    id: str
    ribbon: str | None
    vp: int
    ability: Ability | None
    invented: bool = False
    source: str = ""


@dataclass(frozen=True, slots=True)
class PlayerCard:
    """A Player card (setup step 9): its number (the red town number the Viscount starts on),
    what it gives (``gains``) and its lower part's extra steps (``extra``); ``anywhere``: its
    effect may be used on any board part (cards 3, 5, 6, seed L185-187)."""

    number: int
    gains: Effect | None
    extra: Effect | None
    anywhere: bool = False
    invented: bool = False


@dataclass(frozen=True, slots=True)
class SchemeCard:
    """A solo Scheme card: Starting (brown header) or Future (black), the header's symbols
    (they pay for the AI's actions) and its steps, resolved top to bottom (digest §8)."""

    id: str
    kind: Literal["starting", "future"]
    symbols: tuple[Symbol, ...] | None
    steps: tuple[Effect, ...] | None
    invented: bool = False


@dataclass(frozen=True, slots=True)
class AiBoard:
    """One of the four AIs (the AI side of a player board): its Main Goal, what its leftmost
    card space gives at setup, the Scheme cards that space returns to the box, its resource
    priority (resource, until it holds this many; last: ``None``) and least Workers placed."""

    id: str
    goal: Goal | None
    start: Effect | None
    removes: tuple[str, ...] | None
    priority: tuple[tuple[str, int | None], ...] | None
    min_workers: int | None
    invented: bool = False


@dataclass(frozen=True, slots=True)
class Town:
    """A town space: its board part, path, red number (Player cards), the towns its arrows
    lead to, and on the outer path its exchange (``resource``: the player's choice) and the
    River side whose building sites it reaches (digest §4 phase 2, §5.1-5.2)."""

    id: str
    part: int
    path: Path
    number: int | None
    next: tuple[str, ...]
    exchange: Exchange | None = None
    side: Side | None = None


@dataclass(frozen=True, slots=True)
class Site:
    """A building site: its board part, River side and printed bonus (digest §5.2)."""

    id: str
    part: int
    side: Side
    bonus: Effect | None


@dataclass(frozen=True, slots=True)
class Connection:
    """A printed link between two sites; building on both pays ``effect`` to both owners."""

    sites: tuple[str, str]
    effect: Effect | None


@dataclass(frozen=True, slots=True)
class Board:
    """The circular main board: five parts in a ring (digest §3 step 1). One side per player
    count in the box; a data set describes the side it plays (``sides``: the counts it fits)."""

    towns: tuple[Town, ...]
    sites: tuple[Site, ...]
    connections: tuple[Connection, ...]
    sides: tuple[int, ...]

    def town(self, town_id: str) -> Town | None:
        return next((t for t in self.towns if t.id == town_id), None)


@dataclass(frozen=True, slots=True)
class Castle:
    """The Castle: level-1 sections (one beside each board part), the level-2 section each
    feeds inward, each level-2 section's effect (digest §5.3)."""

    level1: int | None
    inward: tuple[int, ...] | None
    level2: tuple[Effect | None, ...] | None


@dataclass(frozen=True, slots=True)
class BuildingType:
    """A Building type: Builder cost, VP for 0-3 built, the abilities uncovered by taking the
    first, second, third from the left (digest §5.2)."""

    kind: str
    cost: int
    vp: tuple[int | None, ...]
    abilities: tuple[Ability | None, ...]


@dataclass(frozen=True, slots=True)
class Track:
    """The Virtue/Corruption track: its spaces (Corruption starts on 0, Virtue on the last)
    and the Collision bonuses above (the active player) and below (the others) each space."""

    spaces: int | None
    above: tuple[Effect | None, ...] | None
    below: tuple[Effect | None, ...] | None


@dataclass(frozen=True, slots=True)
class Kingdom:
    """Debt and Deed stack sizes on the Poverty / Prosperity cards, by player count."""

    poverty: dict[int, int | None]
    prosperity: dict[int, int | None]


@dataclass(frozen=True, slots=True)
class ViscountsData:
    """Everything printed on the components that a whole game uses. ``invented`` marks a
    stand-in (never the printed values); ``missing`` and ``notes`` explain ``null`` values and
    doubtful readings by path."""

    name: str
    colours: tuple[str | None, ...]
    townsfolk: tuple[Townsfolk, ...]
    manuscripts: tuple[Manuscript, ...]
    church_favour: tuple[ChurchFavour, ...]
    player_cards: tuple[PlayerCard, ...]
    schemes: tuple[SchemeCard, ...]
    ais: tuple[AiBoard, ...]
    board: Board | None
    castle: Castle
    buildings: tuple[BuildingType, ...]
    track: Track
    kingdom: Kingdom
    set_vp: tuple[int | None, ...]
    multiplier: int | None
    printed_townsfolk: tuple[Townsfolk, ...] = ()
    """The Townsfolk printed on the main board under each deck, by board part: dismissed, never
    hired, once the deck is empty (seed L672-674, VW-17)."""
    printed_manuscripts: tuple[Manuscript, ...] = ()
    """The Manuscripts printed under each stack, by board part: Transcribed for their immediate
    effect, never taken, once the stack is empty (seed L652-654, VW-16)."""
    starting_icons: tuple[tuple[Symbol, ...] | None, ...] | None = None
    """The Starting icons printed under a player board's three card spaces, left to right: they
    count while uncovered in a player's first two turns (seed L156-157, VW-20)."""
    invented: bool = False
    verified: bool = False
    source: str = ""
    missing: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    doc: Any = field(default=None, compare=False, repr=False)
    """The JSON document the value was read from (a game keeps it in its state)."""

    def card(self, card_id: str) -> Townsfolk | None:
        """The Townsfolk design with this id (a printed board card too), or None."""
        found = next((c for c in self.townsfolk if c.id == card_id), None)
        return found or next((c for c in self.printed_townsfolk if c.id == card_id), None)

    def deck_count(self, deck: Deck, colour: int | None = None) -> int:
        """How many cards of ``deck`` the data hold (copies counted; Starting: one colour's)."""
        return sum(
            c.count
            for c in self.townsfolk
            if c.deck == deck and (colour is None or c.colour == colour)
        )
