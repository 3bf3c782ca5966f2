"""The draw stacks: which stack a refill must draw from, checking a revealed row against it, and
drawing a plausible row for a simulated table.

Draw discipline [L93-96, L170-179]: the blue stack is emptied first; with 4-5 players the orange
stack follows; when the stacks are empty the discard pile is shuffled into a new stack. The rule
names the reshuffle for 3 players and for 5 once orange is gone; with 2 or 4 players it can never
be reached (16(N+1) tiles suffice, digest §3), so the same reshuffle applies there too rather than
stopping the game. The reshuffle happens when a draw is needed (digest T11 reading).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from engine.games.middle_ages.components import (
    GAME_KEY,
    TILES_PER_ESTATE,
    Back,
    Tile,
    TileBox,
    ref,
)
from engine.games.middle_ages.state import State
from engine.violations import InputError, Violation

DRAW_REF = ref("§3 draw discipline", "L93-96, L170-179")


@dataclass(frozen=True)
class DrawPlan:
    """How many of ``k`` tiles come from each source, in draw order."""

    blue: int
    orange: int
    restack: int
    discard: int
    short: int


def plan(state: State, k: int) -> DrawPlan:
    blue = min(state.blue_left, k)
    k -= blue
    orange = min(state.orange_left, k)
    k -= orange
    restack = min(len(state.restack), k)
    k -= restack
    discard = min(len(state.discard), k)
    return DrawPlan(blue, orange, restack, discard, k - discard)


def box_of(state: State) -> TileBox:
    """The tile box the game was set up with (kept in the state, never read here)."""
    if state.box is None:
        raise InputError("setup/box", "this position holds no tile box to draw from; the "
                         "box is handed to setup (option box)", "$.box")  # fmt: skip
    return state.box


def _verified(state: State) -> bool:
    """Whether reveals are checked tile by tile: only against a box read from a real copy."""
    return state.box is not None and state.box.verified


def known_tiles(state: State) -> Iterable[Tile]:
    """Every tile whose face the table has shown: rows, boards, graveyards, discards, restack."""
    for row in state.rows:
        yield from (t for t in row if t is not None)
    for p in state.players:
        for column in p.board:
            yield from column
        yield from p.graveyard
    yield from state.discard
    yield from state.restack


def unseen(state: State, back: Back) -> Counter[Tile]:
    """Tiles of the box with this back that the table has not shown yet."""
    left = box_of(state).counted(back)
    left.subtract(t for t in known_tiles(state) if t.back == back)
    return +left


def check_reveal(state: State, tiles: tuple[Tile, ...]) -> list[Violation]:
    """Faults of a revealed row against the stacks it must come from (RC-01, RC-29, RC-37)."""
    out: list[Violation] = []
    p = plan(state, len(tiles))
    if p.short:
        out.append(Violation("reveal/stack-exhausted", DRAW_REF, {"short": p.short}, GAME_KEY))
        return out
    if not (p.restack or p.discard or _verified(state)):
        # The usual case: every tile comes from the blue or orange stack, so only the back
        # colours can be checked against the stacks.
        for back, expected in (("blue", p.blue), ("orange", p.orange)):
            n = sum(1 for t in tiles if t.back == back)
            if n != expected:
                params = {"back": back, "count": n, "expected": expected}
                out.append(Violation("reveal/wrong-stack", DRAW_REF, params, GAME_KEY))
        return out + _estate_limits(state, tiles)
    rest = Counter(tiles)
    if p.discard and state.restack:
        # The restack ran out part way: all of it was drawn before the new reshuffle.
        missing = Counter(state.restack) - rest
        if missing:
            out.append(Violation("reveal/not-from-discards", DRAW_REF, {}, GAME_KEY))
            return out
        rest -= Counter(state.restack)
        pool = Counter(state.discard)
    else:
        pool = Counter(state.restack if p.restack else state.discard)
    from_stack = {"blue": p.blue, "orange": p.orange}
    backs: tuple[Back, ...] = ("blue", "orange")
    for back in backs:
        mine = Counter({t: c for t, c in rest.items() if t.back == back})
        n = sum(mine.values())
        need_from_pool = n - from_stack[back]
        can_from_pool = sum(min(c, pool[t]) for t, c in mine.items())
        if need_from_pool < 0 or need_from_pool > can_from_pool:
            out.append(
                Violation(
                    "reveal/wrong-stack",
                    DRAW_REF,
                    {"back": back, "count": n, "expected": from_stack[back]},
                    GAME_KEY,
                )
            )
        elif _verified(state) and from_stack[back]:
            extra = mine - (unseen(state, back) + pool)
            if extra:
                out.append(
                    Violation(
                        "reveal/not-in-box",
                        ref("§2 components", "L35-63"),
                        {"tile": _tile_name(next(iter(extra)))},
                        GAME_KEY,
                    )
                )
    return out + _estate_limits(state, _stack_part(state, tiles, p).elements())


def _estate_limits(state: State, new: Iterable[Tile]) -> list[Violation]:
    """No more tiles of an estate in view than the game has (RC-37); ``new`` come from a stack."""
    out = []
    seen = Counter(t.estate for t in known_tiles(state))
    seen.update(t.estate for t in new)
    for estate, limit in TILES_PER_ESTATE.items():
        if seen[estate] > limit:
            out.append(
                Violation(
                    "reveal/too-many-of-estate",
                    ref("§2 components", "L41-63"),
                    {"estate": estate, "count": seen[estate], "limit": limit},
                    GAME_KEY,
                )
            )
    return out


def take(state: State, tiles: tuple[Tile, ...]) -> dict[str, object]:
    """The supply fields after drawing ``tiles`` (already checked)."""
    p = plan(state, len(tiles))
    if not (p.restack or p.discard):
        return {
            "blue_left": state.blue_left - p.blue,
            "orange_left": state.orange_left - p.orange,
            "restack": state.restack,
            "discard": state.discard,
        }
    drawn_pool = Counter(tiles)
    drawn_pool.subtract(_stack_part(state, tiles, p))
    if p.discard:
        restack = Counter(state.discard)
        used = +drawn_pool - Counter(state.restack)
        restack.subtract(used)
        return {
            "blue_left": state.blue_left - p.blue,
            "orange_left": state.orange_left - p.orange,
            "restack": tuple(sorted((+restack).elements(), key=_order)),
            "discard": (),
        }
    restack = Counter(state.restack)
    restack.subtract(+drawn_pool)
    return {
        "blue_left": state.blue_left - p.blue,
        "orange_left": state.orange_left - p.orange,
        "restack": tuple(sorted((+restack).elements(), key=_order)),
        "discard": state.discard,
    }


def _stack_part(state: State, tiles: tuple[Tile, ...], p: DrawPlan) -> Counter[Tile]:
    """The tiles of a reveal that came from the blue/orange stacks rather than the discards."""
    part: Counter[Tile] = Counter()
    pool = Counter(state.restack) + Counter(state.discard)
    for back, count in (("blue", p.blue), ("orange", p.orange)):
        mine = [t for t in tiles if t.back == back]
        # Prefer the tiles the pool cannot supply; the split is ambiguous only between equal faces.
        mine.sort(key=lambda t: pool[t] > 0)
        part.update(mine[:count])
    return part


def _order(tile: Tile) -> tuple[int, str, str, int, int]:
    return (tile.number, tile.back, tile.estate, tile.farmers, tile.chests)


def _tile_name(tile: Tile) -> str:
    return f"{tile.back} {tile.number} {tile.estate}"


def sample_row(state: State, rng: random.Random) -> tuple[Tile, ...]:
    """A row as a shuffled physical stack would give it, sorted by back number."""
    p = plan(state, state.row_length)
    drawn: list[Tile] = []
    stacks: tuple[tuple[Back, int], ...] = (("blue", p.blue), ("orange", p.orange))
    for back, count in stacks:
        if count:
            drawn.extend(rng.sample(sorted(unseen(state, back).elements(), key=_order), count))
    if p.discard and state.restack:
        drawn.extend(state.restack)
        drawn.extend(rng.sample(state.discard, p.discard))
    elif p.discard:
        drawn.extend(rng.sample(state.discard, p.discard))
    elif p.restack:
        drawn.extend(rng.sample(state.restack, p.restack))
    if p.short:
        raise ValueError("the stacks and discards cannot fill a row")
    return tuple(sorted(drawn, key=lambda t: t.number))
