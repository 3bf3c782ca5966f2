"""Reading a move off the table: observations in the shared profile vocabulary → candidate move.

The observations here are written the way a camera or Tabletop Simulator profile reports them
(component, region, attrs), built by this test from the position, independently of the engine's
own layout code. The rules decide what the change means; ambiguity and occlusion must never turn
into a silent guess.
"""

from __future__ import annotations

import random
from typing import Any

from engine import data as gamedata
from engine import get_game, rules, selfplay
from engine.games.middle_ages.components import ESTATES
from engine.games.middle_ages.moves import MoveLord, PlaceScout, Reveal
from engine.games.middle_ages.state import State

GAME = get_game("middle-ages")


def camera(state: State, faces: bool = True) -> list[dict[str, Any]]:
    """What a perfect camera reports for ``state``."""
    seen: list[dict[str, Any]] = []

    def tile(t: Any, region: str) -> None:
        attrs = {"estate": t.estate}
        if faces:
            attrs.update(number=t.number, back=t.back, farmers=t.farmers, chests=t.chests)
        seen.append({"component": "tile", "region": region, "attrs": attrs})

    for r, row in enumerate(state.rows, start=1):
        for s, t in enumerate(row, start=1):
            if t is not None:
                tile(t, f"row:{r}/slot:{s}")
    for p in state.players:
        for piece, pos in (("lord", p.lord), ("scout", p.scout)):
            if pos is not None:
                region = f"row:{pos.row}/slot:{pos.slot}"
                seen.append({"component": f"{piece}:{p.seat}", "region": region})
        for column in p.board:
            for t in column:
                tile(t, f"seat:{p.seat}/estate:{t.estate}")
        for t in p.graveyard:
            tile(t, f"seat:{p.seat}/graveyard")
        for e in p.special_coins:
            seen.append({"component": "special-coin-token", "region": f"seat:{p.seat}/estate:{e}"})
        for tok in p.story_tokens:
            seen.append({"component": "story-token", "region": f"seat:{p.seat}/estate:{tok.estate}",
                         "attrs": {"symbol": tok.symbol}})  # fmt: skip
    seen.append({"component": "coin:5", "region": None})  # things outside the game's moves
    return seen


def _game(seed: int, players: int = 3) -> list[tuple[State, Any, State]]:
    steps: list[tuple[State, Any, State]] = []
    prev: list[State] = [gamedata.setup(GAME, tuple(f"p{i}" for i in range(players)), {})]

    def record(session: Any, event: Any) -> None:
        steps.append((prev[0], event.move, session.state))
        prev[0] = session.state

    selfplay.play(GAME, tuple(f"p{i}" for i in range(players)), random.Random(seed),
                  on_event=record)  # fmt: skip
    return steps


def test_an_unchanged_table_is_no_move() -> None:
    before, _, _ = _game(1)[30]
    result = GAME.interpret(before, camera(before))
    assert result.unchanged and result.moves == ()


def test_every_move_of_whole_games_is_read_back_from_the_table() -> None:
    """After each move the camera sees the new position; the engine names a move that leads to
    exactly that position (the true move, or one the table cannot tell apart from it)."""
    checked = 0
    for seed in (2, 3):
        for before, move, after in _game(seed, players=2 + seed):
            if GAME.is_chance(move) and not isinstance(move, Reveal):
                continue  # event cards and the Scout draw are not on the board
            result = GAME.interpret(before, camera(after))
            truth = camera(after)
            if result.moves:
                state = before
                for m in result.moves:
                    state = rules.apply(GAME, state, m)
                assert _same(camera(state), truth)
            else:
                # Several moves give the same table: the true one must be among them.
                assert any(seq[0] == move for seq in result.candidates), (move, result)
            checked += 1
    assert checked > 150


def _same(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
    def key(items: list[dict[str, Any]]) -> list[str]:
        return sorted(repr(sorted(i.items(), key=str)) for i in items)

    return key(a) == key(b)


def test_a_refill_without_the_back_numbers_asks_for_confirmation() -> None:
    for before, move, after in _game(4):
        if isinstance(move, Reveal) and before.phase == "refill":
            result = GAME.interpret(before, camera(after, faces=False))
            assert result.moves == () and not result.unchanged
            full = GAME.interpret(before, camera(after))
            assert full.moves == (move,)
            return
    raise AssertionError("no refill in the game")


def test_lord_moved_and_scout_placed_before_the_camera_settled() -> None:
    """Walls effect [L226-231]: the two moves are read as one sequence."""
    steps = _game(5, players=4)
    for i, (before, move, _) in enumerate(steps):
        nxt = steps[i + 1][1] if i + 1 < len(steps) else None
        if isinstance(move, MoveLord) and isinstance(nxt, PlaceScout):
            final = steps[i + 1][2]
            result = GAME.interpret(before, camera(final))
            assert result.moves == (move, nxt)
            return
    raise AssertionError("no Walls turn in the game")


def test_a_hand_hiding_pieces_is_never_read_as_a_move() -> None:
    """A hand covers the moving Lord and the seat's board: nothing complete is claimed."""
    for before, move, after in _game(6):
        if isinstance(move, MoveLord) and move.slot is not None:
            hidden = [
                o
                for o in camera(after)
                if o["component"] != f"lord:{move.seat}"
                and not str(o.get("region")).startswith(f"seat:{move.seat}/")
            ]
            result = GAME.interpret(before, hidden)
            assert result.moves == ()
            assert not result.unchanged
            return
    raise AssertionError("no Lord move in the game")


def test_an_illegal_change_is_not_explained() -> None:
    """A Lord put on another Lord's tile [L124, L136] matches no legal move."""
    for before, move, _ in _game(7):
        if isinstance(move, MoveLord) and move.slot is not None and before.round < 16:
            seen = camera(before)
            me = before.player(move.seat)
            other = next(p for p in before.players if p.seat != move.seat)
            for o in seen:
                if o["component"] == f"lord:{me.seat}":
                    o["region"] = f"row:{other.lord.row}/slot:{other.lord.slot}"  # type: ignore[union-attr]
            result = GAME.interpret(before, seen)
            assert result.moves == ()
            return


def _camera_reach(state: State) -> list[dict[str, Any]]:
    """What the real camera reads of ``state``: pawns, tokens and row tiles; fief columns and
    graveyards declared ``unread`` (their tiles are not read)."""
    seen = [o for o in camera(state) if not _fief_tile(o)]
    for p in state.players:
        regions = [f"seat:{p.seat}/estate:{e}" for e in ESTATES] + [f"seat:{p.seat}/graveyard"]
        seen += [{"component": "unread", "region": r, "attrs": {"kind": "tile"}} for r in regions]
    return seen


def _fief_tile(o: dict[str, Any]) -> bool:
    return o["component"] == "tile" and str(o["region"]).startswith("seat:")


def test_unread_regions_are_left_out_not_assumed_empty() -> None:
    """Without its fief tiles the camera's view fits no move; declared unread, it reads the move."""
    for before, move, after in _game(8):
        if isinstance(move, MoveLord) and move.slot is not None and before.round > 2:
            partial = [o for o in camera(after) if not _fief_tile(o)]
            assert GAME.interpret(before, partial).moves == ()
            assert GAME.interpret(before, _camera_reach(after)).moves == (move,)
            assert GAME.interpret(after, _camera_reach(after)).unchanged
            return
    raise AssertionError("no Lord move in the game")


def test_declared_coverage_tells_a_lord_move_from_a_lord_move_and_a_scout() -> None:
    """Walls effect pending: without scouts on the table, only declared coverage says that the
    Scout was not placed yet [L226-231]."""
    steps = _game(5, players=4)
    for i, (before, move, after) in enumerate(steps):
        nxt = steps[i + 1][1] if i + 1 < len(steps) else None
        no_scouts = all(p.scout is None for p in before.players)
        if isinstance(move, MoveLord) and isinstance(nxt, PlaceScout) and no_scouts:
            seen = _camera_reach(after)
            assert not any(o["component"].startswith("scout:") for o in seen)
            assert GAME.interpret(before, seen).candidates  # the Scout may have been placed
            kinds = ["lord", "scout", "special-coin-token", "story-token", "tile"]
            seen.append({"component": "coverage", "attrs": {"kinds": kinds}})
            assert GAME.interpret(before, seen).moves == (move,)
            return
    raise AssertionError("no Walls turn without scouts on the table")
