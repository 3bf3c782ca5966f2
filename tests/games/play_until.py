"""A simulated game played to a position a test wants (the camera and table tests of each game)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine import data as gamedata


def play_until(
    game: Any, seats: tuple[str, ...], options: dict[str, Any], done: Callable[[Any], bool],
    seed: int = 3,
) -> Any:  # fmt: skip
    """Random legal moves and sampled chance up to the first state ``done`` (the next seed's
    game when one ends first)."""
    for game_seed in range(seed, seed + 10):
        state = gamedata.setup(game, seats, options)
        rng = random.Random(game_seed)
        while not game.is_over(state):
            if done(state):
                return state
            moves = game.legal_moves(state)
            move = rng.choice(moves) if moves else game.sample_chance(state, rng)
            state = game.apply_unchecked(state, move)
    raise AssertionError("the simulated games never reached the wanted position")
