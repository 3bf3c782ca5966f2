"""A table drawn from an engine state, read by the real pipeline, interpreted by the engine."""

from __future__ import annotations

import random
from typing import Any

from bridge.game_files import camera_profile, placer
from engine import data as gamedata
from engine.games.middle_ages.moves import MoveLord
from engine.games.middle_ages.state import State
from engine.registry import get_game
from vision.pipeline import Pipeline
from vision.sim import lay_out, render_placed

MA_BOARD = camera_profile("middle-ages")
"""The board profile Middle Ages ships (its package's camera/profile.json)."""
PLACE = placer("middle-ages", MA_BOARD)
"""Middle Ages' own ``layout`` verb with that board's regions."""


PAWNS = ("lord", "scout")


def _turn_state() -> State:
    """A seeded 3-player game played through setup to the first turn."""
    game = get_game("middle-ages")
    rng = random.Random(5)
    state: State = gamedata.setup(game, ("red", "blue", "green"))
    while state.phase != "turn":
        move = game.sample_chance(state, rng) or game.legal_moves(state)[0]
        state = game.apply_unchecked(state, move)
    return state


def _pawns(pipe: Pipeline, image: Any) -> list[dict[str, Any]]:
    result = pipe.detect(image)
    assert result.board.found
    seen = [o.to_json() for o in pipe.snapshot(result, 0.0).observations]
    return [o for o in seen if o["component"].split(":")[0] in PAWNS]


def test_rendered_state_reads_back_and_names_the_move() -> None:
    game = get_game("middle-ages")
    before = _turn_state()
    layout, truth = lay_out(PLACE(before), MA_BOARD)
    assert {"component": "lord:red", "region": "row:1/slot:2", "attrs": {}} in truth
    laid = sum(t is not None for row in before.rows for t in row)
    assert laid >= 12 and sum(o["component"] == "tile" for o in truth) == laid
    assert len([p for p in layout.pieces if p.kind == "tile"]) == laid
    pipe = Pipeline(profile=MA_BOARD)
    first = render_placed(PLACE(before), seed=11, profile=MA_BOARD)
    seen = _pawns(pipe, first.image)
    assert sorted((o["component"], o["region"]) for o in seen) == sorted(
        (o["component"], o["region"]) for o in truth if o["component"].split(":")[0] in PAWNS
    )
    assert game.interpret(before, seen).unchanged
    move = next(
        m
        for m in game.legal_moves(before)
        if isinstance(m, MoveLord) and game.apply_unchecked(before, m).phase != "choice"
    )
    after = game.apply_unchecked(before, move)
    second = render_placed(PLACE(after), seed=12, profile=MA_BOARD, camera=first.camera)
    verdict = game.interpret(before, _pawns(pipe, second.image))
    assert verdict.moves == (move,) and not verdict.unchanged
