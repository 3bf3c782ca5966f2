"""Glory on a Tabletop Simulator table: its TTS profile (``engine/games/glory/tts/profile.json``)
names pawns, crests, Knights and the cards and tokens read by appearance, in the same regions as
the camera board (rules/glory.md §2.1, §4.2). The table is the documented TTS stand-in (TTS's
side of the External Editor API over loopback); the referee and ``herald serve`` are real.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

from tts_standin import TTSStandIn, free_port

from bridge import gamedata
from bridge.game_files import camera_profile
from bridge.referee import Referee
from bridge.store import EventStore
from bridge.tts.objects import TTSObject
from bridge.tts.profile import build_snapshot, load_profile
from bridge.web.follow import StateFollower
from engine import codec, get_game
from engine.games.glory.layout import items, layout
from engine.games.glory.state import GloryState, Place
from tests.server.srv_support import join, live_client, serve
from vision.sim import region_rects

GAME = get_game("glory")
SEATS = ("red", "blue", "green")  # seat colours the board names (a Character space each)
OPTIONS = {"data": "stand-in", "tournament": "joust"}
BOARD = camera_profile("glory")
REGIONS = region_rects(BOARD)
MM_PER_UNIT = 20.0  # the TTS reference layout: the camera board, 1 unit = 20 mm, centred


def _world(center: tuple[float, float]) -> dict[str, float]:
    x, y = center
    return {
        "x": (x - BOARD.width_mm / 2) / MM_PER_UNIT,
        "y": 1.0,
        "z": (BOARD.height_mm / 2 - y) / MM_PER_UNIT,
    }


def table_of(state: GloryState) -> list[dict[str, Any]]:
    """TTS objects laid out as ``state``: stickered pieces by nickname, cards and tokens by
    ``herald:`` GM notes (what a mod's author writes on them)."""
    out: list[dict[str, Any]] = []
    for i, (item, placed) in enumerate(zip(items(state), layout(state, REGIONS), strict=True)):
        obj: dict[str, Any] = {"guid": f"g{i}", "position": _world(placed.center)}
        kind, _, value = item.key.partition(":")
        if kind in ("pawn", "crest"):
            obj["nickname"] = f"{value.title()} {kind.title()}"
        elif kind == "knight":
            obj["nickname"] = f"Knight {value}"
        else:
            obj["gm_notes"] = item.key.replace("gl:", "herald:", 1)
        out.append(obj)
    return out


def _seen(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    tts = [TTSObject.from_json(o) for o in objects]
    snapshot = build_snapshot(tts, load_profile("glory"), time=0.0)
    return [o.to_json() for o in snapshot.observations]


def _action_phase(seed: int = 3) -> GloryState:
    state = GAME.setup(SEATS, OPTIONS, gamedata.load(GAME, OPTIONS))
    rng = random.Random(seed)
    while state.phase != "action" or not GAME.legal_moves(state):
        moves = GAME.legal_moves(state)
        state = GAME.apply_unchecked(
            state, rng.choice(moves) if moves else GAME.sample_chance(state, rng)
        )
    return state


def test_the_tts_table_reads_as_the_position_and_a_placed_pawn_as_its_action() -> None:
    """§4.2 [L385-395]: a pawn set on an action field in TTS (taking a face-up Quest card or an
    Ally Track token with it) is that Place move."""
    state = _action_phase()
    assert GAME.interpret(state, _seen(table_of(state))).unchanged
    read = 0
    places = [m for m in GAME.legal_moves(state) if isinstance(m, Place)]
    assert places
    for move in places:
        verdict = GAME.interpret(state, _seen(table_of(GAME.apply_unchecked(state, move))))
        assert verdict.moves in ((), (move,)), (move, verdict)
        read += verdict.moves == (move,)
    assert read >= len({m.field for m in places}) // 2


def test_a_pawn_moved_in_tts_shows_up_as_a_validated_move_on_the_display(
    tmp_path: Path, standin: TTSStandIn
) -> None:
    """``herald serve --game glory --tts``: the stand-in TTS table is read, the pawn set on a
    field becomes the Place move, validated, and the display's view shows it."""
    db = tmp_path / "herald.db"
    store = EventStore(db)
    ref = Referee.open(store, GAME, "t1", SEATS, OPTIONS)
    rng = random.Random(3)
    while ref.session.state.phase != "action" or not GAME.legal_moves(ref.session.state):
        state = ref.session.state
        moves = GAME.legal_moves(state)
        move = rng.choice(moves) if moves else GAME.sample_chance(state, rng)
        assert ref.observe("sim", codec.encode(move)).ok
    state = ref.session.state
    store.close()
    move = next(
        m
        for m in GAME.legal_moves(state)
        if isinstance(m, Place) and m.field in ("training", "prayer")
    )
    standin.objects = table_of(state)
    listen = free_port()
    standin.editor_port = listen
    served = serve(db, "--game", "glory", "--resume", "--tts", "--tts-port", str(standin.port),
                   "--tts-listen-port", str(listen), "--tts-poll", "0.2",
                   "--virtual-devices", "off")  # fmt: skip
    client = live_client()
    views: list[dict[str, Any]] = []
    placed = threading.Event()
    after = GAME.apply_unchecked(state, move)
    wanted = [codec.encode(p) for p in after.placements]

    follower = StateFollower()

    @client.on("state")
    def on_state(data: dict[str, Any]) -> None:
        whole = follower.follow(data)  # the view arrives as a patch after each move
        if whole is None:
            client.emit("sync", {"state_id": follower.state_id})
            return
        data = whole
        views.append(data)
        if data["view"]["board"]["placements"] == wanted:
            placed.set()

    try:
        join(client, served.base)
        standin.objects = table_of(after)
        assert placed.wait(15), [v["view"]["board"]["placements"] for v in views]
        assert views[-1]["state_id"] > views[0]["state_id"]
    finally:
        client.disconnect()
        served.stop()
