"""Viscounts of the West Kingdom on a Tabletop Simulator table as a mod's author names it: its
TTS profile (``engine/games/viscounts/tts/profile.json``) names Viscounts, Workers, Buildings,
track markers, Debts, Deeds and the Lord of the Castle by nickname, Church Favour, Townsfolk
cards and Manuscripts by ``herald:`` GM notes, in the camera board's regions (digest §2, §10).
What every game on the reference TTS layout does (regions at scale, saves, ``herald serve
--tts``) is tests/conformance/test_tts_games.py.
"""

from __future__ import annotations

import json
import random
from typing import Any

from tts_table import MM_PER_UNIT, seen, world

from bridge.game_files import camera_profile, camera_profile_path, tts_profile_path
from engine import data as gamedata
from engine import get_game
from engine.games.viscounts.layout import KINDS, layout, tts_profile, visible
from engine.games.viscounts.moves import Build, Play, Travel
from engine.games.viscounts.state import VState
from vision.sim import region_rects

GAME = get_game("viscounts")
SEATS = ("red", "blue", "green")  # the board's player colours
OPTIONS = {"data": "stand-in", "max_rounds": 8}
BOARD = camera_profile("viscounts")
REGIONS = region_rects(BOARD)
NICKNAMES = {"viscount": "Viscount", "worker": "Worker", "workshop": "Workshop",
             "trading-post": "Trading Post", "guildhall": "Guildhall",
             "virtue": "Virtue Marker", "corruption": "Corruption"}  # fmt: skip
PLAIN = {"debt": "Debt", "paid": "Paid Debt", "deed": "Deed", "granted": "Granted Deed",
         "lord": "Lord of the Castle", "poverty": "Poverty",
         "prosperity": "Prosperity"}  # fmt: skip


def table_of(state: VState) -> list[dict[str, Any]]:
    """TTS objects laid out as ``state``: coloured pieces and plain cards by nickname, Church
    Favour, Townsfolk cards and Manuscripts by ``herald:`` GM notes."""
    out: list[dict[str, Any]] = []
    for i, (item, placed) in enumerate(zip(visible(state), layout(state, REGIONS), strict=True)):
        obj: dict[str, Any] = {"guid": f"v{i}", "position": world(BOARD, placed.center)}
        kind, _, value = item.key.partition(":")
        if kind in NICKNAMES:
            obj["nickname"] = f"{value.title()} {NICKNAMES[kind]}"
        elif kind in PLAIN:
            obj["nickname"] = PLAIN[kind]
        elif kind == "vw":
            obj["gm_notes"] = item.key.replace("vw:", "herald:", 1)
        else:
            obj["gm_notes"] = f"herald:{item.key}"
        out.append(obj)
    return out


def _until(kind: type, seed: int = 3) -> VState:
    """A simulated game up to the first position where a ``kind`` move is legal."""
    for game_seed in range(seed, seed + 20):
        state = gamedata.setup(GAME, SEATS, OPTIONS)
        rng = random.Random(game_seed)
        while not GAME.is_over(state):
            moves = GAME.legal_moves(state)
            if any(isinstance(m, kind) for m in moves):
                assert isinstance(state, VState)
                return state
            state = GAME.apply_unchecked(
                state, rng.choice(moves) if moves else GAME.sample_chance(state, rng)
            )
    raise AssertionError("the simulated games never reached the wanted position")


def test_the_tts_profile_is_the_camera_boards_regions_at_20_mm_a_unit() -> None:
    """tts/profile.json is ``tts_profile`` of the shipped camera profile: every region of the
    camera board, at 1 unit = 20 mm, centred on the table."""
    path = tts_profile_path("viscounts")
    assert path is not None
    shipped = json.loads(path.read_text(encoding="utf-8"))
    camera_path = camera_profile_path("viscounts")
    assert camera_path is not None
    camera = json.loads(camera_path.read_text(encoding="utf-8"))
    assert shipped == tts_profile(camera)
    for region in shipped["regions"]:
        x, y, _, h = REGIONS[region["region"]]
        assert region["rect"]["x"][0] == round((x - BOARD.width_mm / 2) / MM_PER_UNIT, 3)
        assert region["rect"]["z"][1] == round((BOARD.height_mm / 2 - y - h) / MM_PER_UNIT, 3)
    assert {r["region"] for r in shipped["regions"]} == set(REGIONS)


def test_the_tts_table_reads_as_the_position_and_pieces_moved_as_their_moves() -> None:
    """§4 phase 1 (a card laid on the leftmost space), phase 2 (the Viscount moved) and §5.2
    (a Building set on a site) done in TTS are those moves (a journey as the shortest walk to
    the town it ends on, VW-60: a longer one there only costs Silver); the whole position reads
    as itself."""
    for kind in (Play, Travel, Build):
        state = _until(kind)
        assert GAME.interpret(state, seen("viscounts", table_of(state), KINDS)).unchanged
        read = 0
        moves = [m for m in GAME.legal_moves(state) if isinstance(m, kind)]
        for move in moves[:6]:
            verdict = GAME.interpret(
                state, seen("viscounts", table_of(GAME.apply_unchecked(state, move)), KINDS)
            )
            if isinstance(move, Travel):  # read as the shortest walk to the same town
                move = min((m for m in moves if m.town == move.town), key=lambda m: m.spaces)
            assert verdict.moves == (move,) or (move,) in verdict.candidates, (move, verdict)
            read += verdict.moves == (move,)
        assert read, kind
