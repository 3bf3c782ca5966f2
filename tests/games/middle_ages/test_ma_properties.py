"""Property tests over random legal Middle Ages games (hypothesis picks seeds and player counts).

Each property is a rule or a derived invariant of rules/fief_tiles.md: the game ends after round
16 with all four event cards resolved (§4, L434-437); each player took exactly one tile per round
(RC-36); every position along the way passes the whole-position check; the final score is coins
minus 10 per empty estate (§1, L439-443).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import get_game, log, present, selfplay
from engine.games.middle_ages.components import ESTATES

GAME = get_game("middle-ages")
games = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@games
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5))
def test_random_legal_games_end_after_round_16(seed: int, players: int) -> None:
    seats = tuple(f"p{i}" for i in range(players))
    result = selfplay.play(GAME, seats, random.Random(seed), check_positions=True)
    assert result.errors == []
    state = result.session.state
    assert GAME.is_over(state)
    assert state.round == 16
    assert state.events_done == 4
    for p in state.players:
        assert sum(len(c) for c in p.board) + len(p.graveyard) == 16
        assert p.coins >= 0
    assert GAME.winners(state)


@games
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5))
def test_final_score_is_coins_minus_ten_per_empty_estate(seed: int, players: int) -> None:
    seats = tuple(f"p{i}" for i in range(players))
    state = selfplay.play(GAME, seats, random.Random(seed)).session.state
    for row in GAME.score(state):
        p = state.player(row.seat)
        empty = sum(1 for e in ESTATES if not p.column(e))
        assert row.total == p.coins - 10 * empty
    best = max(r.total for r in GAME.score(state))
    assert all(state.player(w) for w in GAME.winners(state))
    assert all(r.total == best for r in GAME.score(state) if r.seat in GAME.winners(state))


@games
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), cut=st.floats(0, 1))
def test_replay_of_any_prefix_equals_the_live_state(seed: int, players: int, cut: float) -> None:
    seats = tuple(f"p{i}" for i in range(players))
    states: list[log.Session] = []
    result = selfplay.play(GAME, seats, random.Random(seed), on_event=lambda s, e: states.append(s))
    k = int(cut * (len(result.events) - 1))
    replayed = log.replay(GAME, result.session.header, result.events[: k + 1])
    assert replayed.state == states[k].state
    assert replayed.state_id == states[k].state_id


@games
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5))
def test_views_show_every_seat_the_same_public_table(seed: int, players: int) -> None:
    """Middle Ages has no private information: a seat's view adds only its own prompts."""
    seats = tuple(f"p{i}" for i in range(players))
    rng = random.Random(seed)
    session = log.start(GAME, seats, {})
    for _ in range(rng.randrange(5, 60)):
        move = GAME.sample_chance(session.state, rng) or rng.choice(GAME.legal_moves(session.state))
        session = log.accept(session, log.Event("move", move))
    public = present.view(GAME, session.state, None)
    for seat in seats:
        mine = present.view(GAME, session.state, seat)
        core_seat_keys = ("you", "your_prompts", "prompts")
        assert {k: v for k, v in mine.items() if k not in core_seat_keys} == {
            k: v for k, v in public.items() if k != "prompts"
        }
        assert all(p["moves"] == [] for p in public["prompts"])
        assert all(p["seat"] == seat for p in mine["your_prompts"])
