"""Every registered game keeps the engine's contract (OpenSpiel's random-play test over every
registered game; python-chess's round-trips): selfplay without an error, states and moves that
round-trip the game's JSON Schema, replay equal to the live state, undo back to the state
before, a flow declaration that matches the game's moves, and prompts a seat can act on."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import codec, flow, log, present, registry, rules, selfplay
from engine.game import TABLE, is_pass

KEYS = registry.game_keys()
GAMES_PER_SETUP = 2
REFUSED_BY_THE_FLOW = ("turn/not-your-turn", "flow/not-now", "flow/already-sealed")


def _played(key: str, seed: int = 0) -> list[tuple[selfplay.GameResult, Any]]:
    game = registry.get_game(key)
    out = []
    for i, setup in enumerate(selfplay.setups(game)):
        seats = tuple(f"s{j}" for j in range(setup.players))
        for g in range(GAMES_PER_SETUP):
            rng = random.Random(seed * 1000 + i * 10 + g)
            out.append((selfplay.play(game, seats, rng, setup.options), setup))
    return out


def _by_game(prefix: str) -> list[Any]:
    """Each game's tests in a worker group of their own: a game's played games are made once,
    and the games spread over the workers (tests/conftest.py)."""
    return [pytest.param(k, marks=pytest.mark.xdist_group(f"{prefix}-{k}")) for k in KEYS]


@pytest.fixture(scope="module", params=_by_game("conformance"))
def played(request: pytest.FixtureRequest) -> tuple[str, list[tuple[selfplay.GameResult, Any]]]:
    return request.param, _played(request.param)


def test_the_tiny_test_game_is_registered() -> None:
    assert {"takeaway", *registry.game_keys()} == set(registry.game_keys())


def test_selfplay_ends_every_game_without_an_error(played: Any) -> None:
    key, results = played
    game = registry.get_game(key)
    for result, setup in results:
        assert result.errors == [], (key, setup)
        assert game.is_over(result.session.state)
        # a solo scenario may be lost to the game's own opponent: no seat wins then
        assert set(game.winners(result.session.state)) <= set(game.seats(result.session.state))


def test_states_and_moves_round_trip_the_schema(played: Any) -> None:
    key, results = played
    game = registry.get_game(key)
    for result, _ in results[:3]:
        session = log.start(game, result.session.header.players, result.session.header.options)
        for event in result.events:
            data = codec.encode(event.move)
            assert rules.decode_move(game, data) == event.move
            session = log.accept(session, event)
            if session.state_id % 7 == 0:
                encoded = codec.encode(session.state)
                assert rules.decode_state(game, encoded) == session.state


def test_replay_of_the_log_equals_the_live_state(played: Any) -> None:
    key, results = played
    game = registry.get_game(key)
    for result, _ in results:
        again = log.replay(game, result.session.header, result.events)
        assert again.state == result.session.state
        assert again.state_id == result.session.state_id


def test_undo_returns_the_state_before_every_undoable_move(played: Any) -> None:
    key, results = played
    game = registry.get_game(key)
    result = results[0][0]
    session = log.start(game, result.session.header.players, result.session.header.options)
    undone = 0
    for event in result.events:
        before = session
        session = log.accept(session, event)
        if not game.is_chance(event.move) and not flow.sealed_kinds(game) & {event.move.kind}:
            back = log.accept(session, log.Event("undo", by=game.actor(event.move)))
            assert back.state == before.state
            undone += 1
    assert undone > 0


def test_the_flow_declaration_matches_the_moves() -> None:
    for key in KEYS:
        game = registry.get_game(key)
        assert flow.has_flow(game), key
        kinds = getattr(game, "flow_kinds", None) or tuple(m.kind for m in game.move_types)
        assert game.flow.problems(tuple(kinds)) == [], key


def test_every_legal_move_passes_the_flow_gate_and_every_prompt_is_actionable(played: Any) -> None:
    key, results = played
    game = registry.get_game(key)
    result = results[0][0]
    session = log.start(game, result.session.header.players, result.session.header.options)
    for event in result.events[:400]:
        state = session.state
        waiting = rules.to_act(game, state)
        for move in game.legal_moves(state):
            assert game.actor(move) in waiting
            assert flow.gate(game, state, move) == []
        for prompt in game.prompts(state):
            assert prompt.seat in waiting
            if prompt.seat != TABLE:
                assert prompt.moves, (key, prompt)
        present.view(game, state, None)
        session = log.accept(session, event)


def test_a_move_out_of_turn_is_refused_by_the_core_before_the_rules(played: Any) -> None:
    key, results = played
    game = registry.get_game(key)
    result = results[0][0]
    session = log.start(game, result.session.header.players, result.session.header.options)
    refused = 0
    for event in result.events[:300]:
        state = session.state
        for move in game.legal_moves(state)[:5]:
            others = [s for s in game.seats(state) if s not in rules.to_act(game, state)]
            for other in others[:1]:
                if hasattr(move, "seat"):
                    forged = codec.decode(
                        codec.union_of(game.move_types), {**codec.encode(move), "seat": other}
                    )
                    codes = [v.code for v in rules.check(game, state, forged)]
                    assert codes and codes[0] in (
                        "turn/not-your-turn",
                        "flow/not-now",
                        "flow/already-sealed",
                    )
                    refused += 1
        session = log.accept(session, event)
    assert refused > 0


def test_a_pass_button_means_at_most_one_move(played: Any) -> None:
    """A seat box's pass button (docs/devices.md) makes the seat's one declining move, so a
    game's ``is_pass`` must never mark two of one seat's moves at once (a game that marks none
    offers no pass: the button is refused, naming why)."""
    key, results = played
    game = registry.get_game(key)
    for result, _ in results:
        session = log.start(game, result.session.header.players, result.session.header.options)
        for event in result.events:
            for prompt in game.prompts(session.state):
                passes = [m for m in prompt.moves if is_pass(game, m)]
                assert len(passes) <= 1, (key, session.state_id, prompt.seat, passes)
            session = log.accept(session, event)
