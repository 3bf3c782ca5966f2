"""`herald serve --tts`: a move made on the (stand-in) TTS table appears, validated, on the table
display's Socket.IO feed. The server runs as a user starts it, in its own process."""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

from test_tts_referee import AUTOMATIC, column_xyz, slot_xyz, table_of
from tts_standin import TTSStandIn, free_port

from bridge.referee import Referee
from bridge.store import EventStore
from bridge.web.follow import StateFollower
from engine import codec, get_game
from engine.games.middle_ages.moves import MoveLord
from engine.games.middle_ages.state import State
from tests.server.srv_support import join, live_client, serve

GAME = get_game("middle-ages")
SEATS = ("blue", "green", "pink")  # herald serve's first three seats


def _prepared(db: Path) -> State:
    """A stored session of table t1 set up and waiting for a first turn with no choice."""
    for seed in range(60):
        if db.exists():
            db.unlink()
        store = EventStore(db)
        ref = Referee.open(store, GAME, "t1", SEATS, GAME.info.option_defaults())
        rng = random.Random(seed)
        while ref.session.state.phase != "turn":
            state = ref.session.state
            move = GAME.sample_chance(state, rng) or GAME.legal_moves(state)[0]
            assert ref.observe("sim", codec.encode(move)).ok
        state = ref.session.state
        store.close()
        me = state.player(GAME.to_act(state)[0])
        assert me.lord is not None
        tile = state.rows[me.lord.row - 1][me.lord.slot - 1]
        if tile is not None and tile.estate in AUTOMATIC:
            return state
    raise AssertionError("no seed gives an automatic first effect")


def test_a_tile_moved_in_tts_shows_up_as_a_validated_move_on_the_display(
    tmp_path: Path, standin: TTSStandIn
) -> None:
    db = tmp_path / "herald.db"
    state = _prepared(db)
    standin.objects = table_of(state)
    listen = free_port()
    standin.editor_port = listen
    served = serve(db, "--resume", "--tts", "--tts-port", str(standin.port),
                   "--tts-listen-port", str(listen), "--tts-poll", "0.2",
                   "--virtual-devices", "off")  # fmt: skip
    client = live_client()
    views: list[dict[str, Any]] = []
    moved = threading.Event()
    seat = GAME.to_act(state)[0]
    move = next(m for m in GAME.legal_moves(state) if isinstance(m, MoveLord))
    me = state.player(seat)
    assert me.lord is not None and move.slot is not None
    target = {"row": me.lord.row + 1, "slot": move.slot}

    follower = StateFollower()

    @client.on("state")
    def on_state(data: dict[str, Any]) -> None:
        whole = follower.follow(data)  # the view arrives as a patch after each move
        if whole is None:
            client.emit("sync", {"state_id": follower.state_id})
            return
        data = whole
        views.append(data)
        lord = next(p for p in data["view"]["players"] if p["seat"] == seat)["lord"]
        if lord == target:
            moved.set()

    try:
        join(client, served.base)
        tile = state.rows[me.lord.row - 1][me.lord.slot - 1]
        assert tile is not None
        for o in standin.objects:
            if o["guid"] == f"lord-{seat}":
                o["position"] = slot_xyz(me.lord.row + 1, move.slot)
            if o["guid"] == f"tile-{me.lord.row}-{me.lord.slot}":
                o["position"] = column_xyz(seat, tile.estate)
        assert moved.wait(15), [v["state_id"] for v in views]
        last = views[-1]
        assert last["state_id"] > views[0]["state_id"]
        assert any(p["seat"] == seat for p in last["view"]["players"])
    finally:
        client.disconnect()
        served.stop()
