"""Property tests over random legal Glory duels (hypothesis picks the sides and the seed).

Every duel ends in 2 or 3 passes with exactly one winner, who won 2 passes [L735-737]; every
move ``legal_moves`` offers passes ``check``; the dice come from a complete face table (the
shipped one lacks a white face, so a simulated roll with it is refused, GL-1).
"""

from __future__ import annotations

import random

import pytest
from glory_box import DICE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.games.glory import duel
from engine.games.glory.components import ALLY_KINDS, PRESTIGE_KINDS, RELIC_KINDS, parse_dice
from engine.games.glory.duel_state import Ally, Duellist, Knight, Prestige, Relic
from engine.i18n import violation_text
from engine.violations import RuleViolation

FULL = parse_dice(
    {
        "dice": {
            "strength": {"faces": ["special", 1, 2, 3, 4, 5]},
            "horse": {"faces": ["special", 0, 1, 2, 3, 4]},
            "armour": {"faces": ["special", 0, 1, 2, 3, 3]},
        }
    }
)
DUEL_ALLIES = [k for k in ALLY_KINDS if k not in ("minstrel", "krol", "dama", "lichwiarz", "wasal")]

levels = st.sampled_from([1, 2, 3, 4])
duellist = st.builds(
    Duellist,
    name=st.just("a"),
    horse=levels,
    armour=levels,
    strength=st.integers(0, 6),
    faith=st.integers(0, 3),
    glory=st.integers(0, 40),
    initiative=st.just(1),
    allies=st.lists(st.builds(Ally, st.sampled_from(DUEL_ALLIES), st.booleans()), max_size=5).map(
        tuple
    ),
    relics=st.lists(st.builds(Relic, st.sampled_from(RELIC_KINDS), st.booleans()), max_size=3).map(
        tuple
    ),
    prestige=st.lists(st.sampled_from(PRESTIGE_KINDS), unique=True, max_size=3).map(
        lambda ks: tuple(Prestige(k) for k in ks)  # type: ignore[arg-type]
    ),
)
knight = st.builds(
    Knight,
    name=st.just("b"),
    type=st.sampled_from(["nobility", "champion", "king", "polish-nobility", "veteran"]),
    attack=st.integers(3, 14),
    prestige=st.integers(0, 3),
    glory=st.integers(3, 9),
    removes=st.lists(st.sampled_from(["strength", "horse", "armour"]), max_size=2).map(tuple),
)


def _play(a: Duellist, b: Duellist | Knight, seed: int) -> duel.DuelState:
    rng = random.Random(seed)
    context = "joust" if isinstance(b, Duellist) or rng.random() < 0.5 else "pas-d-armes"
    state = duel.start(context, (a, b), FULL)  # type: ignore[arg-type]
    for _ in range(500):
        if duel.is_over(state):
            return state
        chance = duel.sample_chance(state, rng)
        if chance is not None:
            state = duel.apply(state, chance)
            continue
        moves = duel.legal_moves(state)
        assert moves, f"stalled at {state.step}"
        move = rng.choice(moves)
        assert duel.check(state, move) == [], move
        state = duel.apply(state, move)
    raise AssertionError("the duel did not end")


def _assert_one_winner(state: duel.DuelState) -> None:
    assert duel.is_over(state)
    assert len(state.passes) in (2, 3)
    wins = [b.wins for b in state.boards]
    assert sorted(wins) in ([0, 2], [1, 2])
    assert sum(wins) == len(state.passes)
    assert state.winner == state.sides[wins.index(2)].name
    assert [r.winner for r in state.passes].count(state.winner) == 2


duels = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@duels
@given(a=duellist, b=knight, seed=st.integers(0, 2**32 - 1))
def test_every_duel_against_a_knight_ends_in_2_or_3_passes_with_one_winner(
    a: Duellist, b: Knight, seed: int
) -> None:
    _assert_one_winner(_play(a, b, seed))


@duels
@given(a=duellist, b=duellist, seed=st.integers(0, 2**32 - 1))
def test_every_duel_between_players_ends_in_2_or_3_passes_with_one_winner(
    a: Duellist, b: Duellist, seed: int
) -> None:
    b = Duellist(
        "b", b.horse, b.armour, b.strength, b.faith, b.glory, 2, b.allies, b.relics, b.prestige
    )
    _assert_one_winner(_play(a, b, seed))


def test_simulating_a_roll_needs_the_missing_white_face() -> None:
    a = Duellist("a", strength=0, faith=0, glory=0)
    b = Knight("b", type="nobility", attack=5, prestige=0, glory=5)
    state = duel.apply(
        duel.start("joust", (a, b), DICE), duel.legal_moves(duel.start("joust", (a, b), DICE))[0]
    )
    state = duel.apply(state, duel.legal_moves(state)[0])
    with pytest.raises(RuleViolation) as exc:
        duel.sample_chance(state, random.Random(1))
    assert exc.value.code == "data/missing"
    assert "armour" in violation_text(exc.value.violations[0])
