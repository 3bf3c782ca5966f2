"""The referee on boxes unlike the shipped sets (issue #24, Tests: "selfplay of each game over a
second, very different data set that the tests generate"): France 1429 on generated maps of
another shape and size, from the smallest the rules allow to the largest, played to the end by
random legal moves with every position checked, 0 errors."""

from __future__ import annotations

import random

import pytest

from bridge.box.file import box_data, read_box
from bridge.box.report import checked
from bridge.box.workshop import Draft
from bridge.seats import seat_names
from engine import registry, selfplay

from .generated import france_files

MAPS = ((11, 7), (12, 19), (13, 12))
"""(seed, extra Villages): 19, 31 and 24 Villages (digest §3.3: 8 Fiefs of 2-4)."""


@pytest.mark.parametrize(("seed", "extra"), MAPS)
def test_france_plays_whole_games_on_a_generated_map(seed: int, extra: int) -> None:
    game = registry.get_game("france1429")
    draft = Draft("france1429", f"generated {seed}", "data.json", france_files(seed, extra))
    box = read_box(draft.box().to_bytes())
    _, plays = checked(game, box, "generated")
    assert plays.playable == (3, 4, 5, 6)
    data = box_data(game, box, "generated")
    assert len(data.value.map.villages) == 12 + extra
    rng = random.Random(seed)
    for players in (3, 6):
        options = selfplay.setups(game, players, {"data": "generated"})[0].options
        result = selfplay.play(game, seat_names(players), rng, options, check_positions=True,
                               data=data)  # fmt: skip
        assert result.errors == [], result.errors
        assert game.is_over(result.session.state)
