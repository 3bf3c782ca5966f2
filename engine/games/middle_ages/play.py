"""Middle Ages turn flow: whose move it is and which moves are legal (queries only).

The flow follows the rulebook's order exactly [L127-184]: at the start of a round the unclaimed
tile of the Lords' row is discarded; Lords act left to right; a turn is move Lord → take the tile
it left → resolve the estate's effect completely → collect that estate's income; after the last
Lord, the vacated row is refilled (rounds 1-12) and then, at the end of rounds 4, 8, 12 and 16,
the leftmost face-up event card is resolved. Effects that need a player's choice (Village,
Walls, Church, Palace, event E10) pause the flow in the ``choice`` phase. ``checks`` holds the
legality checks and ``resolve`` applies a move.
"""

from __future__ import annotations

from engine.game import TABLE
from engine.games.middle_ages.components import (
    ESTATES,
    PRINTED,
    ROUNDS,
    ROWS,
    Estate,
    Tile,
)
from engine.games.middle_ages.moves import (
    Move,
    MoveLord,
    PlaceCoin,
    PlaceLord,
    PlaceScout,
    PlaceStory,
    ReturnTile,
)
from engine.games.middle_ages.state import Pos, State

# --- where are we -----------------------------------------------------------------------------


def lords_row(round_: int) -> int:
    """The row the Lords start round ``round_`` in (digest §4 row cycle)."""
    return (round_ - 1) % ROWS + 1


def destination_row(round_: int) -> int | None:
    """Where Lords move in ``round_``: next row down, the top row after R4, none in round 16."""
    if round_ == ROUNDS:
        return None
    return 1 if round_ % ROWS == 0 else lords_row(round_) + 1


def actor(state: State) -> str | None:
    """The seat the game waits for, TABLE for an observation, None when the game is over."""
    phase = state.phase
    if phase == "turn":
        start = lords_row(state.round)
        best: tuple[int, str] | None = None
        for p in state.players:
            if p.lord is not None and p.lord.row == start and p.seat not in state.acted:
                key = (p.lord.slot, p.seat)
                if best is None or key < best:
                    best = key
        return best[1] if best else None
    if phase == "choice":
        return state.pending.seat if state.pending else None
    if phase == "placement":
        placed = sum(1 for p in state.players if p.lord is not None)
        return state.order[placed] if placed < len(state.order) else None
    if phase == "over":
        return None
    return TABLE


def lord_at(state: State, pos: Pos) -> str | None:
    for p in state.players:
        if p.lord == pos:
            return p.seat
    return None


def scout_at(state: State, pos: Pos) -> str | None:
    for p in state.players:
        if p.scout == pos:
            return p.seat
    return None


def tile_at(state: State, pos: Pos) -> Tile | None:
    if not 1 <= pos.row <= ROWS:
        return None
    row = state.rows[pos.row - 1]
    if not 1 <= pos.slot <= len(row):
        return None
    return row[pos.slot - 1]


def scout_targets(state: State, seat: str) -> list[Pos]:
    """Face-up tiles the Walls effect may reserve: any row but the seat's Lord's row, on a tile
    no Lord stands on and no other Scout reserves (digest §12.8 decisions)."""
    me = state.player(seat)
    lord_row = me.lord.row if me.lord else 0
    taken = {p.lord for p in state.players} | {p.scout for p in state.players if p.seat != seat}
    out = []
    for r, row in enumerate(state.rows, start=1):
        if r == lord_row:
            continue
        for s, tile in enumerate(row, start=1):
            if tile is not None and Pos(r, s) not in taken:
                out.append(Pos(r, s))
    return out


def coin_slots(state: State, seat: str) -> list[Estate]:
    if state.special_coins_left <= 0:
        return []
    have = state.player(seat).special_coins
    return [e for e in ESTATES if e not in have]


def story_options(state: State, seat: str) -> list[tuple[Estate, Estate]]:
    """(symbol, estate) pairs open to the Palace effect [L303-310, L318-322]."""
    used = {t.estate for t in state.player(seat).story_tokens}
    return [
        (symbol, estate)
        for symbol in state.story_tokens_left
        for estate in ESTATES
        if estate not in used and symbol not in PRINTED[estate]
    ]


# --- legal moves ------------------------------------------------------------------------------


def legal_moves(state: State) -> list[Move]:
    """Every legal non-chance move (chance moves are observations; see ``supply.sample_row``)."""
    seat = actor(state)
    if seat is None or seat == TABLE:
        return []
    if state.phase == "placement":
        return [
            PlaceLord(seat, s)
            for s, tile in enumerate(state.rows[0], start=1)
            if tile is not None and lord_at(state, Pos(1, s)) is None
        ]
    if state.phase == "turn":
        dest = destination_row(state.round)
        if dest is None:
            return [MoveLord(seat, None)]
        out: list[Move] = []
        for s, tile in enumerate(state.rows[dest - 1], start=1):
            pos = Pos(dest, s)
            if tile is None or lord_at(state, pos) is not None:
                continue
            owner = scout_at(state, pos)
            if owner is not None and owner != seat:
                continue
            out.append(MoveLord(seat, s))
        return out
    pending = state.pending
    assert pending is not None
    if pending.kind in ("village", "reconstruction"):
        grave = state.player(seat).graveyard
        moves: list[Move] = [ReturnTile(seat, t) for t in dict.fromkeys(grave)]
        if state.options.village_optional:
            moves.append(ReturnTile(seat, None))
        return moves
    if pending.kind == "walls":
        return [PlaceScout(seat, p.row, p.slot) for p in scout_targets(state, seat)]
    if pending.kind == "church":
        return [PlaceCoin(seat, e) for e in coin_slots(state, seat)]
    return [PlaceStory(seat, sym, e) for sym, e in story_options(state, seat)]
