"""Schema-valid but incoherent positions: the engine reports faults, it never crashes.

A camera or a hand-edited state file can hand the referee a position that passes the JSON Schema
yet cannot arise in play (a pending choice with no phase for it, round 0 mid-game...). The
whole-position check must name such faults, and checking a move against a position that passes
it must give violations, not exceptions.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import get_game, rules, selfplay
from engine.evolve import evolve
from engine.games.middle_ages.components import ESTATES, Tile
from engine.games.middle_ages.moves import (
    DrawOrder,
    LayEvents,
    MoveLord,
    PlaceCoin,
    PlaceLord,
    PlaceScout,
    PlaceStory,
    ReturnTile,
    Reveal,
)
from engine.games.middle_ages.state import Pending
from engine.i18n import violation_text
from engine.violations import RuleViolation

GAME = get_game("middle-ages")


def _corpus(seed: int) -> list[object]:
    states: list[object] = []
    selfplay.play(GAME, ("a", "b", "c"), random.Random(seed),
                  on_event=lambda s, e: states.append(s.state))  # fmt: skip
    return states


CORPUS = _corpus(3)


@pytest.mark.parametrize(
    "changes",
    [
        {"phase": "choice", "pending": None},
        {"phase": "turn", "round": 0},
        {"phase": "placement", "order": ()},
        {"phase": "over", "round": 3},
        {"pending": Pending("walls", "nobody")},
        {"rows_laid": 7},
    ],
)
def test_incoherent_positions_are_named(changes: dict[str, object]) -> None:
    state = evolve(CORPUS[40], **changes)
    codes = [v.code for v in GAME.check_position(state)]
    assert "position/incoherent-phase" in codes


tiles = st.builds(
    Tile,
    number=st.integers(1, 23),
    back=st.sampled_from(["blue", "orange"]),
    estate=st.sampled_from(ESTATES),
    farmers=st.integers(0, 2),
    chests=st.integers(0, 2),
)
seats = st.sampled_from(["a", "b", "c", "zed"])
slots = st.integers(-1, 7)
any_move = st.one_of(
    st.builds(MoveLord, seats, st.one_of(st.none(), slots)),
    st.builds(PlaceLord, seats, slots),
    st.builds(PlaceScout, seats, st.integers(0, 5), slots),
    st.builds(PlaceCoin, seats, st.sampled_from(ESTATES)),
    st.builds(PlaceStory, seats, st.sampled_from(ESTATES), st.sampled_from(ESTATES)),
    st.builds(ReturnTile, seats, st.one_of(st.none(), tiles)),
    st.builds(Reveal, st.integers(1, 4), st.lists(tiles, max_size=6).map(tuple)),
    st.builds(LayEvents, st.lists(st.integers(0, 16), max_size=5).map(tuple)),
    st.builds(DrawOrder, st.permutations(["a", "b", "c"]).map(tuple)),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(CORPUS) - 1), move=any_move)
def test_any_move_in_any_position_is_refused_cleanly_or_leads_to_a_sound_position(
    index: int, move: object
) -> None:
    """Every refusal is a RuleViolation; every accepted move yields a position with no fault."""
    state = CORPUS[index]
    try:
        after = rules.apply(GAME, state, move)
    except RuleViolation as exc:
        assert all(violation_text(v) for v in exc.violations)
        return
    assert GAME.check_position(after) == []
