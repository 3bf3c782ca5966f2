"""Glory on a Tabletop Simulator table as a mod's author names it: its TTS profile
(``engine/games/glory/tts/profile.json``) names pawns, crests and Knights by nickname and the
cards and tokens read by appearance by ``herald:`` GM notes, in the camera board's regions
(rules/glory.md §2.1, §4.2). What every game on the reference TTS layout does (regions at
scale, saves, ``herald serve --tts``) is tests/conformance/test_tts_games.py.
"""

from __future__ import annotations

import random
from typing import Any

from tts_table import seen, world

from bridge import gamedata
from bridge.game_files import camera_profile
from engine import get_game
from engine.games.glory.layout import items, layout
from engine.games.glory.state import GloryState, Place
from vision.sim import region_rects

GAME = get_game("glory")
SEATS = ("red", "blue", "green")  # seat colours the board names (a Character space each)
OPTIONS = {"data": "stand-in", "tournament": "joust"}
BOARD = camera_profile("glory")
REGIONS = region_rects(BOARD)


def table_of(state: GloryState) -> list[dict[str, Any]]:
    """TTS objects laid out as ``state``: stickered pieces by nickname, cards and tokens by
    ``herald:`` GM notes (what a mod's author writes on them)."""
    out: list[dict[str, Any]] = []
    for i, (item, placed) in enumerate(zip(items(state), layout(state, REGIONS), strict=True)):
        obj: dict[str, Any] = {"guid": f"g{i}", "position": world(BOARD, placed.center)}
        kind, _, value = item.key.partition(":")
        if kind in ("pawn", "crest"):
            obj["nickname"] = f"{value.title()} {kind.title()}"
        elif kind == "knight":
            obj["nickname"] = f"Knight {value}"
        else:
            obj["gm_notes"] = item.key.replace("gl:", "herald:", 1)
        out.append(obj)
    return out


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
    assert GAME.interpret(state, seen("glory", table_of(state))).unchanged
    read = 0
    places = [m for m in GAME.legal_moves(state) if isinstance(m, Place)]
    assert places
    for move in places:
        verdict = GAME.interpret(state, seen("glory", table_of(GAME.apply_unchecked(state, move))))
        assert verdict.moves in ((), (move,)), (move, verdict)
        read += verdict.moves == (move,)
    assert read >= len({m.field for m in places}) // 2
