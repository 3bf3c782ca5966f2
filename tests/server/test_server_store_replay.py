"""Past states replayed from the store with keyframes (issue 26, finding 9): the same state as
a replay from the start, for a fraction of the events."""

from __future__ import annotations

from pathlib import Path

from srv_support import open_referee, play_moves

from bridge import gamedata
from bridge.replay_cache import KEYFRAME_EVERY
from engine import log, present


def full_replay(referee, state_id: int):  # type: ignore[no-untyped-def]
    """What ``view_at`` did before the cache: every event from the start."""
    game, row = referee.game, referee.row
    session = log.restart(game, row.header, gamedata.load(game, row.header.options))
    for stored in referee.store.events(row.id):
        if stored.seq > state_id:
            break
        session = log.accept(session, log.decode_event(game, stored.payload))
    return session


def test_a_look_back_replays_from_the_nearest_keyframe(tmp_path: Path) -> None:
    referee = open_referee(tmp_path / "h.db")
    made = play_moves(referee, 3 * KEYFRAME_EVERY + 5)
    assert made > 2 * KEYFRAME_EVERY
    cache = referee._replays
    last = referee.state_id
    first = referee.view_at(last)  # the first look walks the whole log once
    walked = cache.replayed
    assert walked == last
    for state_id in (0, 1, KEYFRAME_EVERY, KEYFRAME_EVERY + 3, last - 1, last):
        before = cache.replayed
        seen = referee.view_at(state_id)
        assert cache.replayed - before < KEYFRAME_EVERY  # from a keyframe, not from the start
        expected = full_replay(referee, state_id)
        assert seen["view"] == present.view(referee.game, expected.state, None, referee.lang)
        assert seen["state_id"] == state_id
    assert first["view"] == referee.view_at(last)["view"]
    referee.store.close()
