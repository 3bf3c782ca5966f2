"""The state of Middle Ages as frozen dataclasses (JSON via ``engine.codec``).

Rows and slots are numbered from 1, as a player counts them ("the 3rd tile of row 2"). Board
columns follow ``ESTATES``; each column lists its tiles oldest first, so the last one is the top
tile (the one Barracks and event discards take, digest §12.10 decision).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from engine.game import Line
from engine.games.middle_ages.components import ESTATES, Estate, Tile, TileBox

Phase = Literal[
    "setup-rows",  # the table lays the four starting rows (chance)
    "setup-events",  # the table lays four event cards (chance)
    "setup-order",  # the Scout draw fixes the placement order (chance)
    "placement",  # Lords go onto the top row in that order
    "turn",  # the leftmost Lord still to act moves and takes its tile
    "choice",  # a player owes the choice an effect or event asks for
    "refill",  # the table refills the vacated row (chance)
    "over",
]

EMPTY_BOARD: tuple[tuple[Tile, ...], ...] = tuple(() for _ in ESTATES)


@dataclass(frozen=True, slots=True)
class Pos:
    """A tile slot: row 1 (top) to 4, slot 1 (left) to N+1."""

    row: Annotated[int, {"minimum": 1, "maximum": 4}]
    slot: Annotated[int, {"minimum": 1, "maximum": 6}]


@dataclass(frozen=True, slots=True)
class StoryToken:
    """A story token (its tile-type symbol) in the slot under one of a player's estates."""

    symbol: Estate
    estate: Estate


@dataclass(frozen=True, slots=True)
class Entry:
    """A coin change caused by the most recent move, for the table's itemised display."""

    seat: str
    line: Line


@dataclass(frozen=True, slots=True)
class Player:
    """One seat's Fief board, graveyard, pawns, tokens and coins."""

    seat: str
    coins: int = 0
    board: tuple[tuple[Tile, ...], ...] = EMPTY_BOARD
    graveyard: tuple[Tile, ...] = ()
    lord: Pos | None = None
    scout: Pos | None = None
    special_coins: tuple[Estate, ...] = ()
    story_tokens: tuple[StoryToken, ...] = ()
    last_turn: tuple[Line, ...] = ()

    def column(self, estate: Estate) -> tuple[Tile, ...]:
        return self.board[ESTATES.index(estate)]


@dataclass(frozen=True, slots=True)
class Options:
    """Named readings where the rulebook is silent (docs/rules-decisions.md)."""

    village_optional: bool = False
    coin_debt: Literal["cap", "negative"] = "cap"
    barracks_empty_target_pays: bool = True


@dataclass(frozen=True, slots=True)
class Pending:
    """A choice an effect or event card asks of ``seat`` before the game goes on.

    ``queue`` holds the seats that still owe the same choice after this one (event E10).
    """

    kind: Literal["village", "walls", "church", "palace", "reconstruction"]
    seat: str
    queue: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class State:
    """A whole Middle Ages position."""

    players: tuple[Player, ...]
    options: Options = field(default_factory=Options)
    box: TileBox | None = None
    phase: Phase = "setup-rows"
    round: int = 0
    rows: tuple[tuple[Tile | None, ...], ...] = ((), (), (), ())
    rows_laid: int = 0
    events: tuple[int, ...] = ()
    events_done: int = 0
    order: tuple[str, ...] = ()
    acted: tuple[str, ...] = ()
    pending: Pending | None = None
    special_coins_left: int = 8
    story_tokens_left: tuple[Estate, ...] = ESTATES
    blue_left: int = 52
    orange_left: int = 0
    discard: tuple[Tile, ...] = ()
    restack: tuple[Tile, ...] = ()
    last_move: tuple[Entry, ...] = ()

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(p.seat for p in self.players)

    @property
    def row_length(self) -> int:
        return len(self.players) + 1

    def player(self, seat: str) -> Player:
        for p in self.players:
            if p.seat == seat:
                return p
        raise KeyError(seat)
