"""Event log primitives: rising state_id, replay equals live play, undo as an appended event.

The contract is game-independent (engine/log.py); Middle Ages is the game that exercises it.
"""

from __future__ import annotations

import random

import pytest

from engine import get_game, log, selfplay
from engine.games.middle_ages.moves import MoveLord
from engine.violations import InputError, RuleViolation

GAME = get_game("middle-ages")
SEATS = ("blue", "green", "pink")


def _play_until_turn(seed: int = 3) -> log.Session:
    """A session advanced through setup to the first player turn of round 1."""
    rng = random.Random(seed)
    session = log.start(GAME, SEATS, {})
    while session.state.phase != "turn":
        move = GAME.sample_chance(session.state, rng) or GAME.legal_moves(session.state)[0]
        session = log.accept(session, log.Event("move", move))
    return session


def test_state_id_rises_by_one_with_every_accepted_event() -> None:
    result = selfplay.play(GAME, SEATS, random.Random(11))
    assert not result.errors
    assert result.session.state_id == len(result.events)


def test_refused_event_changes_nothing() -> None:
    session = _play_until_turn()
    seat = GAME.to_act(session.state)[0]
    bad = MoveLord(seat, 99)
    with pytest.raises(RuleViolation) as exc:
        log.accept(session, log.Event("move", bad))
    assert exc.value.code == "lord/no-such-slot"
    assert session.state_id == _play_until_turn().state_id


def test_replay_of_the_log_equals_the_live_state() -> None:
    result = selfplay.play(GAME, SEATS, random.Random(5))
    replayed = log.replay(GAME, result.session.header, result.events)
    assert replayed.state == result.session.state
    assert replayed.state_id == result.session.state_id


def test_undo_then_redo_returns_the_same_state_on_a_rising_state_id_chain() -> None:
    session = _play_until_turn()
    before = session
    seat = GAME.to_act(session.state)[0]
    move = GAME.legal_moves(session.state)[0]
    after = log.accept(session, log.Event("move", move))
    undone = log.accept(after, log.Event("undo", by=seat))
    assert undone.state == before.state
    redone = log.accept(undone, log.Event("move", move))
    assert redone.state == after.state
    ids = [before.state_id, after.state_id, undone.state_id, redone.state_id]
    assert ids == list(range(ids[0], ids[0] + 4))


def test_undo_is_an_event_in_the_log_and_replays() -> None:
    session = _play_until_turn()
    header_events = []
    seat = GAME.to_act(session.state)[0]
    move = GAME.legal_moves(session.state)[0]
    header_events.append(log.Event("move", move))
    header_events.append(log.Event("undo", by=seat))
    live = session
    for e in header_events:
        live = log.accept(live, e)
    assert live.state == session.state
    assert live.state_id == session.state_id + 2


def test_reveals_cannot_be_undone() -> None:
    """A revealed row is what the table showed: undo stops at chance moves."""
    session = log.start(GAME, SEATS, {})
    rng = random.Random(1)
    session = log.accept(session, log.Event("move", GAME.sample_chance(session.state, rng)))
    with pytest.raises(RuleViolation) as exc:
        log.accept(session, log.Event("undo", by=None))
    assert exc.value.code == "undo/nothing"


def test_a_seat_cannot_undo_another_seats_move_but_the_host_can() -> None:
    session = _play_until_turn()
    seat = GAME.to_act(session.state)[0]
    other = next(s for s in SEATS if s != seat)
    after = log.accept(session, log.Event("move", GAME.legal_moves(session.state)[0]))
    with pytest.raises(RuleViolation) as exc:
        log.accept(after, log.Event("undo", by=other))
    assert exc.value.code == "undo/not-yours"
    assert log.accept(after, log.Event("undo", by="host")).state == session.state


def test_event_json_round_trip() -> None:
    session = _play_until_turn()
    move = GAME.legal_moves(session.state)[0]
    for event in (log.Event("move", move), log.Event("undo", by="blue"), log.Event("undo")):
        assert log.decode_event(GAME, event.to_json()) == event


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"kind": "jump"},
        {"kind": "undo", "by": 3},
        {"kind": "move", "move": {"kind": "lord", "seat": "blue"}},
        {"kind": "move", "move": {"kind": "lord", "seat": "blue", "slot": "2"}},
        {"kind": "move", "move": {"kind": "teleport", "seat": "blue"}},
    ],
)
def test_malformed_events_are_input_errors(data: object) -> None:
    with pytest.raises(InputError):
        log.decode_event(GAME, data)


def test_snapshot_restores_the_exact_session_including_undo() -> None:
    session = _play_until_turn()
    seat = GAME.to_act(session.state)[0]
    after = log.accept(session, log.Event("move", GAME.legal_moves(session.state)[0]))
    restored = log.from_snapshot(GAME, after.header, log.to_snapshot(after))
    assert restored.state == after.state and restored.state_id == after.state_id
    assert log.can_undo(restored, seat) and not log.can_undo(restored, "nobody")
    assert log.accept(restored, log.Event("undo", by=seat)).state == session.state


def test_a_malformed_snapshot_is_an_input_error() -> None:
    session = _play_until_turn()
    data = log.to_snapshot(session)
    data["state_id"] = "many"
    with pytest.raises(InputError):
        log.from_snapshot(GAME, session.header, data)
    with pytest.raises(InputError):
        log.from_snapshot(GAME, session.header, {"state": {}, "state_id": 1, "undo": []})
