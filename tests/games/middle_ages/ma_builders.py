"""Position builders for the Middle Ages rulebook tests (digest rules/fief_tiles.md, seed 003).

Positions are reached through the real moves wherever the test is about flow (setup, turns,
refills); for effect and event arithmetic a real round-1 position is taken and then edited with
``dataclasses.replace`` (boards, coins, graveyards, the tile under a Lord). Rows and slots are
1-based; a board is 8 column tuples in the order Field, Mill, Village, Walls, Market, Barracks,
Church, Palace, oldest tile first.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import cache
from typing import Any

from engine import data as gamedata
from engine import get_game, rules
from engine.games.middle_ages.components import ESTATES, Back, Estate, Tile
from engine.games.middle_ages.moves import DrawOrder, LayEvents, MoveLord, PlaceLord, Reveal
from engine.games.middle_ages.state import Player, Pos, State

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
            row.append(tile(ESTATES[k % 8], 1 + r * 5 + s))
            k += 1
        rows.append(tuple(row))
    return rows


def laid(
    seats: Sequence[str] = SEATS3,
    rows: Sequence[Sequence[Tile]] | None = None,
    **options: Any,
) -> State:
    """Setup steps 1-5 done through Reveal moves: four rows on the table."""
    state = gamedata.setup(G, tuple(seats), options)
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


def new_row(
    numbers: Sequence[int], estates: Sequence[Estate], back: Back = "blue"
) -> tuple[Tile, ...]:
    return tuple(tile(e, n, back=back) for n, e in zip(numbers, estates, strict=True))


def resolve_choices(state: State) -> State:
    """Answer any pending effect choice with the first legal move (``legal_moves`` order)."""
    while state.phase == "choice":
        state = play(state, G.legal_moves(state)[0])
    return state


def play_round(
    state: State, slots: Mapping[str, int | None], refill: Sequence[Tile] | None
) -> State:
    """Every Lord of the round moves to ``slots[seat]`` in turn order, choices answered with
    the first legal move; then the vacated row is refilled with ``refill`` (rounds 1-12)."""
    while state.phase == "turn":
        (seat,) = G.to_act(state)
        state = resolve_choices(play(state, MoveLord(seat, slots[seat])))
    if refill is not None:
        assert state.phase == "refill"
        state = play(state, Reveal(state.rows.index((None,) * state.row_length) + 1, tuple(refill)))
    return resolve_choices(state)


def round2(seats: Sequence[str] = SEATS3, **options: Any) -> State:
    """The start of round 2 from ``started()``: seat i moved to row-2 slot i, row 1 refilled.

    Round 1 with the default rows (3 players): Blue takes a Field (+2), Green a Mill (Blue pays
    him 2, Pink has nothing to pay; +2 income), Pink a Village (empty graveyard; +2).
    """
    state = started(seats, **options)
    slots = {s: i for i, s in enumerate(seats, start=1)}
    n = len(seats) + 1
    refill = tuple(tile(ESTATES[(k + 4) % 8], 10 + k) for k in range(n))
    return play_round(state, slots, refill)


@cache
def random_game(seed: int, seats: tuple[str, ...] = SEATS3) -> tuple[tuple[Any, State, State], ...]:
    """A whole random legal game as (move, state before, state after) triples, chance sampled as
    a shuffled table would show it (``G.sample_chance``)."""
    rng = random.Random(seed)
    state = gamedata.setup(G, seats, {})
    out = []
    while not G.is_over(state):
        move = G.sample_chance(state, rng)
        if move is None:
            moves = G.legal_moves(state)
            move = moves[rng.randrange(len(moves))]
        after = play(state, move)
        out.append((move, state, after))
        state = after
    return tuple(out)


def refill_state(seats: Sequence[str] = SEATS3, round_: int = 1, **changes: Any) -> State:
    """The refill phase of ``round_`` (1-12): every Lord has acted and stands in the destination
    row (seat i on slot i), the vacated row is empty; other State fields set by ``changes``.

    The next ``Reveal`` of the vacated row ends the round; in rounds 4, 8 and 12 it is followed by
    the leftmost face-up event card (refill first, then event: a lead's decision, §12.14).
    """
    state = started(seats)
    n = len(seats) + 1
    vacated = (round_ - 1) % 4
    rows = tuple((None,) * n if r == vacated else row for r, row in enumerate(state.rows))
    lords_to = vacated + 2 if round_ % 4 else 1
    for i, seat in enumerate(seats, start=1):
        state = set_player(state, seat, lord=Pos(lords_to, i))
    return replace(state, round=round_, phase="refill", acted=tuple(seats), rows=rows, **changes)
