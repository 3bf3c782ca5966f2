"""France 1429 on a Tabletop Simulator table as a mod's author names it: its TTS profile
(``engine/games/france1429/tts/profile.json``) names troop counters, Siege Engines, Mills,
fortifications and title counters by nickname, Lord tokens and named titles by ``herald:`` GM
notes, in every region of the camera board (digest §2.5, §14.1). What every game on the
reference TTS layout does (regions at scale, saves, ``herald serve --tts``) is
tests/conformance/test_tts_games.py.
"""

from __future__ import annotations

import json
import random
from typing import Any

from tts_table import seen, world

from bridge.game_files import camera_profile, tts_profile_path
from engine import data as gamedata
from engine import get_game
from engine.games.france1429.layout import items, layout
from engine.games.france1429.moves import Buy, PlaceStart
from engine.games.france1429.state import FranceState
from vision.sim import region_rects

GAME = get_game("france1429")
SEATS = ("green", "blue", "magenta")  # the board's family colours
OPTIONS = {"data": "stand-in", "max_rounds": 3}
BOARD = camera_profile("france1429")
REGIONS = region_rects(BOARD)
NAMES = {"maa": "Men at Arms", "knight": "Knight", "engine": "Siege Engine"}
PLAIN = {"mill": "Mill", "stronghold": "Stronghold", "fortified": "Fortified City",
         "king": "King", "queen": "Queen", "pope": "Pope", "prince": "Crown Prince",
         "biretta": "Biretta", "darc": "dArc"}  # fmt: skip


def table_of(state: FranceState) -> list[dict[str, Any]]:
    """TTS objects laid out as ``state``: coloured counters and plain counters by nickname,
    Lord tokens and named title counters by ``herald:`` GM notes (what a mod's author writes)."""
    out: list[dict[str, Any]] = []
    for i, (item, placed) in enumerate(zip(items(state), layout(state, REGIONS), strict=True)):
        obj: dict[str, Any] = {"guid": f"f{i}", "position": world(BOARD, placed.center)}
        kind, _, value = item.key.partition(":")
        if kind in NAMES:
            obj["nickname"] = f"{value.title()} {NAMES[kind]}"
        elif kind in PLAIN:
            obj["nickname"] = PLAIN[kind]
        else:
            obj["gm_notes"] = f"herald:{item.key}"
        out.append(obj)
    return out


def _until(kind: type, seed: int = 3) -> FranceState:
    state = gamedata.setup(GAME, SEATS, OPTIONS)
    rng = random.Random(seed)
    while not any(isinstance(m, kind) for m in GAME.legal_moves(state)):
        moves = GAME.legal_moves(state)
        state = GAME.apply_unchecked(
            state, rng.choice(moves) if moves else GAME.sample_chance(state, rng)
        )
    return state


def _troop_buy(state: FranceState) -> list[Buy]:
    return [m for m in GAME.legal_moves(state) if isinstance(m, Buy) and m.item in TROOPS]


TROOPS = ("maa", "knight")


def test_the_tts_table_has_every_region_of_the_camera_board() -> None:
    """Every Village, title space and Family Board the camera reads is a TTS region too (each
    at 1 unit = 20 mm: the conformance test)."""
    path = tts_profile_path("france1429")
    assert path is not None
    profile = json.loads(path.read_text(encoding="utf-8"))
    assert {r["region"] for r in profile["regions"]} == set(REGIONS)


def test_the_tts_table_reads_as_the_position_and_counters_set_down_as_their_moves() -> None:
    """§4 step 11 (a family's starting counters in an empty Village) and §7.2 (a counter
    bought) set down in TTS are those moves; the whole position reads as itself."""
    state = _until(PlaceStart)
    assert GAME.interpret(state, seen("france1429", table_of(state))).unchanged
    for move in GAME.legal_moves(state)[:5]:
        verdict = GAME.interpret(
            state, seen("france1429", table_of(GAME.apply_unchecked(state, move)))
        )
        assert verdict.moves == (move,), (move, verdict)
    state = _until(Buy)
    assert GAME.interpret(state, seen("france1429", table_of(state))).unchanged
    buys = _troop_buy(state)
    assert buys
    for move in buys[:5]:
        verdict = GAME.interpret(
            state, seen("france1429", table_of(GAME.apply_unchecked(state, move)))
        )
        assert verdict.moves == (move,), (move, verdict)
