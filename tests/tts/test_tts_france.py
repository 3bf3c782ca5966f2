"""France 1429 on a Tabletop Simulator table: its TTS profile
(``engine/games/france1429/tts/profile.json``) names troop counters, Lord tokens, Siege Engines,
Mills, fortifications and title counters in the camera board's regions (digest §2.5, §14.1).
The table is the documented TTS stand-in; the referee and ``herald serve`` are real.
"""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from tts_standin import TTSStandIn, free_port

from bridge.cli.tts import tts
from bridge.game_files import camera_profile
from bridge.referee import Referee
from bridge.store import EventStore
from bridge.tts.objects import TTSObject
from bridge.tts.profile import build_snapshot, load_profile
from bridge.web.follow import StateFollower
from engine import codec, get_game
from engine import data as gamedata
from engine.games.france1429.layout import items, layout
from engine.games.france1429.moves import Buy, PlaceStart
from engine.games.france1429.state import FranceState
from tests.server.srv_support import join, live_client, serve
from vision.sim import region_rects

GAME = get_game("france1429")
SEATS = ("green", "blue", "magenta")  # the board's family colours
OPTIONS = {"data": "stand-in", "max_rounds": 3}
BOARD = camera_profile("france1429")
REGIONS = region_rects(BOARD)
MM_PER_UNIT = 20.0  # the TTS reference layout: the camera board, 1 unit = 20 mm, centred
NAMES = {"maa": "Men at Arms", "knight": "Knight", "engine": "Siege Engine"}
PLAIN = {"mill": "Mill", "stronghold": "Stronghold", "fortified": "Fortified City",
         "king": "King", "queen": "Queen", "pope": "Pope", "prince": "Crown Prince",
         "biretta": "Biretta", "darc": "dArc"}  # fmt: skip


def _world(center: tuple[float, float]) -> dict[str, float]:
    x, y = center
    return {
        "x": (x - BOARD.width_mm / 2) / MM_PER_UNIT,
        "y": 1.0,
        "z": (BOARD.height_mm / 2 - y) / MM_PER_UNIT,
    }


def table_of(state: FranceState) -> list[dict[str, Any]]:
    """TTS objects laid out as ``state``: coloured counters and plain counters by nickname,
    Lord tokens and named title counters by ``herald:`` GM notes (what a mod's author writes)."""
    out: list[dict[str, Any]] = []
    for i, (item, placed) in enumerate(zip(items(state), layout(state, REGIONS), strict=True)):
        obj: dict[str, Any] = {"guid": f"f{i}", "position": _world(placed.center)}
        kind, _, value = item.key.partition(":")
        if kind in NAMES:
            obj["nickname"] = f"{value.title()} {NAMES[kind]}"
        elif kind in PLAIN:
            obj["nickname"] = PLAIN[kind]
        else:
            obj["gm_notes"] = f"herald:{item.key}"
        out.append(obj)
    return out


def _seen(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    tts_objects = [TTSObject.from_json(o) for o in objects]
    snapshot = build_snapshot(tts_objects, load_profile("france1429"), time=0.0)
    return [o.to_json() for o in snapshot.observations]


def _until(kind: type, seed: int = 3) -> FranceState:
    state = gamedata.setup(GAME, SEATS, OPTIONS)
    rng = random.Random(seed)
    while not any(isinstance(m, kind) for m in GAME.legal_moves(state)):
        moves = GAME.legal_moves(state)
        state = GAME.apply_unchecked(
            state, rng.choice(moves) if moves else GAME.sample_chance(state, rng)
        )
    return state


def _unit(mm: float) -> float:
    return round(mm / MM_PER_UNIT, 3)


def _troop_buy(state: FranceState) -> list[Buy]:
    return [m for m in GAME.legal_moves(state) if isinstance(m, Buy) and m.item in TROOPS]


TROOPS = ("maa", "knight")


def test_the_tts_regions_are_the_camera_boards_at_20_mm_a_unit() -> None:
    profile = json.loads(
        (Path(__file__).parents[2] / "engine/games/france1429/tts/profile.json").read_text()
    )
    for region in profile["regions"]:
        x, y, w, h = REGIONS[region["region"]]
        assert region["rect"] == {
            "x": [_unit(x - BOARD.width_mm / 2), _unit(x + w - BOARD.width_mm / 2)],
            "z": [_unit(BOARD.height_mm / 2 - y), _unit(BOARD.height_mm / 2 - y - h)],
        }
    assert {r["region"] for r in profile["regions"]} == set(REGIONS)


def test_the_tts_table_reads_as_the_position_and_counters_set_down_as_their_moves() -> None:
    """§4 step 11 (a family's starting counters in an empty Village) and §7.2 (a counter
    bought) set down in TTS are those moves; the whole position reads as itself."""
    state = _until(PlaceStart)
    assert GAME.interpret(state, _seen(table_of(state))).unchanged
    for move in GAME.legal_moves(state)[:5]:
        verdict = GAME.interpret(state, _seen(table_of(GAME.apply_unchecked(state, move))))
        assert verdict.moves == (move,), (move, verdict)
    state = _until(Buy)
    assert GAME.interpret(state, _seen(table_of(state))).unchanged
    buys = _troop_buy(state)
    assert buys
    for move in buys[:5]:
        verdict = GAME.interpret(state, _seen(table_of(GAME.apply_unchecked(state, move))))
        assert verdict.moves == (move,), (move, verdict)


def _save(objects: list[dict[str, Any]]) -> dict[str, Any]:
    """A TTS save file holding ``objects`` (the fields a save stores)."""
    states = []
    for o in objects:
        p = o["position"]
        states.append({
            "GUID": o["guid"], "Name": "Custom_Tile", "Nickname": o.get("nickname", ""),
            "Description": "", "GMNotes": o.get("gm_notes", ""), "Tags": [],
            "Transform": {"posX": p["x"], "posY": p["y"], "posZ": p["z"], "rotX": 0.0,
                          "rotY": 0.0, "rotZ": 0.0, "scaleX": 1.0, "scaleY": 1.0,
                          "scaleZ": 1.0},
        })  # fmt: skip
    return {"SaveName": "Herald France 1429 test table", "ObjectStates": states}


def test_a_saved_tts_table_loads_as_a_france_position_the_engine_checks(tmp_path: Path) -> None:
    """``herald tts load SAVE --profile france1429``: the save's counters become the table
    snapshot, which the rules read as the position it was saved from, and a save with one
    troop counter more as that purchase."""
    state = _until(Buy)
    move = _troop_buy(state)[0]
    for position, expected in ((state, ()), (GAME.apply_unchecked(state, move), (move,))):
        save = tmp_path / "france.json"
        save.write_text(json.dumps(_save(table_of(position))), encoding="utf-8")
        result = CliRunner().invoke(tts, ["load", str(save), "--profile", "france1429", "--json"])
        assert result.exit_code == 0, result.output
        seen = json.loads(result.output)["observations"]
        coverage = {"component": "coverage", "attrs": {"kinds": ["maa", "knight", "lord"]}}
        verdict = GAME.interpret(state, [*seen, coverage])
        assert verdict.moves == expected and verdict.unchanged == (not expected), verdict


def test_counters_set_down_in_tts_show_up_as_a_validated_move_on_the_display(
    tmp_path: Path, standin: TTSStandIn
) -> None:
    """``herald serve --game france1429 --tts``: the stand-in TTS table is read, a family's
    starting counters set in a Village become its PlaceStart move, validated, and the
    display's view shows the Lord there."""
    db = tmp_path / "herald.db"
    store = EventStore(db)
    ref = Referee.open(store, GAME, "t1", SEATS, OPTIONS)
    rng = random.Random(3)
    while not any(isinstance(m, PlaceStart) for m in GAME.legal_moves(ref.session.state)):
        state = ref.session.state
        moves = GAME.legal_moves(state)
        move = rng.choice(moves) if moves else GAME.sample_chance(state, rng)
        assert ref.observe("sim", codec.encode(move)).ok
    state = ref.session.state
    store.close()
    move = next(m for m in GAME.legal_moves(state) if isinstance(m, PlaceStart))
    after = GAME.apply_unchecked(state, move)
    standin.objects = table_of(state)
    listen = free_port()
    standin.editor_port = listen
    served = serve(db, "--game", "france1429", "--resume", "--tts", "--tts-port",
                   str(standin.port), "--tts-listen-port", str(listen), "--tts-poll", "0.2",
                   "--virtual-devices", "off")  # fmt: skip
    client = live_client()
    seen_ids: list[int] = []
    placed = threading.Event()
    follower = StateFollower()

    @client.on("state")
    def on_state(data: dict[str, Any]) -> None:
        whole = follower.follow(data)  # the view arrives as a patch after each move
        if whole is None:
            client.emit("sync", {"state_id": follower.state_id})
            return
        seen_ids.append(whole["state_id"])
        if whole["state_id"] > ref.state_id and move.village in json.dumps(whole["view"]):
            placed.set()

    try:
        join(client, served.base)
        standin.objects = table_of(after)
        assert placed.wait(20), seen_ids
        events = EventStore(db).events(ref.row.id)
        assert events[-1].payload["move"] == codec.encode(move)
        assert events[-1].source != "sim"
    finally:
        client.disconnect()
        served.stop()
