"""Crash safety: SIGKILL a playing server at a seeded random moment; restart loses nothing.

On both stores: the SQLite file, and PostgreSQL (``--store``, a real server the tests start)."""

from __future__ import annotations

import random
import signal
import threading
from pathlib import Path
from typing import Any

import pytest
from srv_support import join, live_client, ordered_client, serve

from bridge.referee import Referee
from bridge.store import open_store
from bridge.web.follow import StateFollower
from engine import codec, get_game, log, present

WAIT = 90.0  # an upper bound for a loaded machine, never a timing assertion


@pytest.mark.parametrize("seed", [11, 29])
def test_sigkill_at_a_random_moment_loses_no_acknowledged_event(
    tmp_path: Path, store_target: str, seed: int
) -> None:
    rng = random.Random(seed)
    kill_after = rng.randrange(6, 40)  # states seen before the kill, drawn from the seed
    db = tmp_path / "crash.db"
    target = str(db) if store_target.endswith(".db") else store_target
    where = () if target == str(db) else ("--store", target)
    served = serve(db, *where, "--move-delay", "0.01", "--seed", str(seed))
    seen: dict[int, dict[str, Any]] = {}
    reached = threading.Event()
    client = ordered_client()
    follower = StateFollower()

    @client.on("state")
    def on_state(data: dict[str, Any]) -> None:
        # a state is only published after its event was committed: it is an acknowledgement
        whole = follower.follow(data)  # the view arrives as a patch after each move
        if whole is None:
            client.emit("sync", {"state_id": follower.state_id})
            return
        seen[data["state_id"]] = whole["view"]
        if data["state_id"] >= kill_after:
            reached.set()

    try:
        join(client, served.base)
        assert reached.wait(WAIT), "the simulated table did not play"
    finally:
        served.proc.send_signal(signal.SIGKILL)  # mid-play: the table keeps moving until here
        served.stop()
        client.disconnect()
    acknowledged = max(seen)

    # everything acknowledged is in the store, and a fresh replay of it is consistent
    store = open_store(target)
    (row,) = store.sessions("t1")
    stored = store.events(row.id)
    assert len(stored) >= acknowledged
    assert [e.seq for e in stored] == list(range(1, len(stored) + 1))
    game = get_game("middle-ages")
    events = [log.decode_event(game, e.payload) for e in stored]
    fresh = log.replay(game, row.header, events)
    for state_id, view in seen.items():  # what clients saw equals the replayed prefix
        if state_id:
            prefix = log.replay(game, row.header, events[:state_id])
            assert present.view(game, prefix.state, None) == view
    store.close()

    # restart with --resume: the same session, the exact state a fresh replay gives
    again = serve(db, *where, "--resume", "--sim", "off")
    try:
        assert "Resumed session" in again.output
        assert again.health()["state_id"] == len(stored) == fresh.state_id
        assert again.health()["session"] == row.id
        assert {s: again.token(s) for s in again.seat_urls} == {
            s: served.token(s) for s in served.seat_urls
        }
        viewer = live_client(reconnection=False)
        got: list[dict[str, Any]] = []
        done = threading.Event()

        @viewer.on("state")
        def on_resumed(data: dict[str, Any]) -> None:
            got.append(data)
            done.set()

        join(viewer, again.base)
        assert done.wait(WAIT)
        viewer.disconnect()
        assert got[0]["state_id"] == fresh.state_id
        assert got[0]["view"] == present.view(game, fresh.state, None)
    finally:
        again.stop()
    store = open_store(target)
    resumed = Referee(game, store, store.sessions("t1")[0])
    assert codec.encode(resumed.session.state) == codec.encode(fresh.state)
    store.close()
