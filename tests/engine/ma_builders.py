"""Position builders for the Middle Ages rulebook tests (digest rules/fief_tiles.md, seed 003).

Positions are reached through the real moves wherever the test is about flow (setup, turns,
refills); for effect and event arithmetic a real round-1 position is taken and then edited with
``dataclasses.replace`` (boards, coins, graveyards, the tile under a Lord). Rows and slots are
1-based; a board is 8 column tuples in the order Field, Mill, Village, Walls, Market, Barracks,
Church, Palace, oldest tile first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine import get_game, rules
from engine.games.middle_ages.components import ESTATES, Back, Estate, Tile
from engine.games.middle_ages.state import (
    DrawOrder,
    LayEvents,
    PlaceLord,
    Player,
    Pos,
    Reveal,
    State,
)

G = get_game("middle-ages")
SEATS3 = ("blue", "green", "pink")
SEATS4 = ("blue", "green", "pink", "yellow")
SEATS5 = ("blue", "green", "pink", "yellow", "red")


def tile(
    estate: Estate, number: int = 1, *, farmers: int = 0, chests: int = 0, back: Back = "blue"
) -> Tile:
    return Tile(number, back, estate, farmers, chests)


def board(**columns: int | Sequence[Tile]) -> tuple[tuple[Tile, ...], ...]:
    """A Fief board: ``board(Walls=2, Field=[tile("Field", farmers=1)])``.

    An int gives that many plain tiles of the column's estate (numbers 1, 2, ...).
    """
    unknown = set(columns) - set(ESTATES)
    assert not unknown, unknown
    out = []
    for estate in ESTATES:
        spec = columns.get(estate, 0)
        if isinstance(spec, int):
            out.append(tuple(tile(estate, i + 1) for i in range(spec)))
        else:
            assert all(t.estate == estate for t in spec)
            out.append(tuple(spec))
    return tuple(out)


def play(state: State, *moves: Any) -> State:
    """Apply moves through the one checked entry point (raises ``RuleViolation`` if illegal)."""
    for move in moves:
        state = rules.apply(G, state, move)
    return state


def codes(state: State, move: Any) -> list[str]:
    """The violation codes ``rules.check`` reports for ``move`` (empty: legal)."""
    return [v.code for v in rules.check(G, state, move)]


def position_codes(state: State) -> list[str]:
    return [v.code for v in G.check_position(state)]


def default_rows(n_players: int) -> list[tuple[Tile, ...]]:
    """Four sorted starting rows of N+1 blue tiles, estates cycling through the board order."""
    rows = []
    k = 0
    for r in range(4):
        row = []
        for s in range(n_players + 1):
            row.append(tile(ESTATES[k % 8], 1 + r * 6 + s))
            k += 1
        rows.append(tuple(row))
    return rows


def laid(
    seats: Sequence[str] = SEATS3,
    rows: Sequence[Sequence[Tile]] | None = None,
    **options: Any,
) -> State:
    """Setup steps 1-5 done through Reveal moves: four rows on the table."""
    state = G.setup(tuple(seats), options)
    for r, row in enumerate(rows or default_rows(len(seats)), start=1):
        state = play(state, Reveal(r, tuple(row)))
    return state


def started(
    seats: Sequence[str] = SEATS3,
    *,
    rows: Sequence[Sequence[Tile]] | None = None,
    events: tuple[int, ...] = (1, 2, 3, 4),
    order: Sequence[str] | None = None,
    slots: Mapping[str, int] | None = None,
    **options: Any,
) -> State:
    """A fresh game through the real setup moves, up to the first turn of round 1.

    By default the placement order is the seat order and seat i puts its Lord on top-row slot
    i, so the last slot (N+1) is the unclaimed tile that round 1 discards.
    """
    state = laid(seats, rows, **options)
    order = tuple(order or seats)
    slots = dict(slots or {s: i for i, s in enumerate(seats, start=1)})
    state = play(state, LayEvents(events), DrawOrder(order))
    for seat in order:
        state = play(state, PlaceLord(seat, slots[seat]))
    return state


def set_player(state: State, seat: str, **changes: Any) -> State:
    """The state with ``seat``'s Player fields replaced (board, coins, graveyard, ...)."""
    players = tuple(replace(p, **changes) if p.seat == seat else p for p in state.players)
    return replace(state, players=players)


def set_tile(state: State, pos: Pos, new: Tile | None) -> State:
    rows = [list(r) for r in state.rows]
    rows[pos.row - 1][pos.slot - 1] = new
    return replace(state, rows=tuple(tuple(r) for r in rows))


def under_lord(state: State, seat: str, new: Tile) -> State:
    """Put ``new`` beneath ``seat``'s Lord: the tile that seat takes this turn."""
    lord = state.player(seat).lord
    assert lord is not None
    return set_tile(state, lord, new)


def turn_position(
    actor_tile: Tile,
    *,
    seats: Sequence[str] = SEATS3,
    boards: Mapping[str, tuple[tuple[Tile, ...], ...]] | None = None,
    coins: Mapping[str, int] | None = None,
    graveyards: Mapping[str, Iterable[Tile]] | None = None,
    **options: Any,
) -> State:
    """Round 1, first seat to act (seats[0], Lord on top-row slot 1) about to take ``actor_tile``.

    The other players' boards, coins and graveyards are set as given. The Lords stand on top-row
    slots 1..N; row 2 is free, so ``MoveLord(seats[0], s)`` is legal for any slot s.
    """
    state = started(seats, **options)
    state = under_lord(state, seats[0], actor_tile)
    for seat, b in (boards or {}).items():
        state = set_player(state, seat, board=b)
    for seat, c in (coins or {}).items():
        state = set_player(state, seat, coins=c)
    for seat, g in (graveyards or {}).items():
        state = set_player(state, seat, graveyard=tuple(g))
    return state


def coins_of(state: State) -> dict[str, int]:
    return {p.seat: p.coins for p in state.players}


def count(player: Player, estate: Estate) -> int:
    return len(player.board[ESTATES.index(estate)])


def counts(player: Player) -> dict[str, int]:
    """Non-empty columns of a board, by estate."""
    return {e: len(c) for e, c in zip(ESTATES, player.board, strict=True) if c}


def new_row(numbers: Sequence[int], estates: Sequence[Estate], back: Back = "blue") -> tuple[Tile, ...]:
    return tuple(tile(e, n, back=back) for n, e in zip(numbers, estates, strict=True))
