"""A Middle Ages table in the TTS stand-in, refereed end to end.

The stand-in plays TTS's side of the External Editor API over loopback; the referee is the real
one (SQLite store, engine). Moving a Lord and its tile on the "TTS" table must become a validated
move in the referee's state and on the table display's view; an illegal change must not.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from tts_standin import TTSStandIn

from bridge.referee import Referee
from bridge.store import EventStore
from bridge.tts.editor_api import EditorClient
from bridge.tts.profile import build_snapshot, load_profile
from bridge.tts.reader import read_table
from bridge.tts.source import TTSAnnouncer, TTSTableSource
from engine import codec, get_game, rules
from engine.games.middle_ages.components import ESTATES, Tile
from engine.games.middle_ages.moves import MoveLord, Reveal
from engine.games.middle_ages.state import State

GAME = get_game("middle-ages")
SEATS = ("blue", "red", "green")
FIEF_Z = {"blue": -8.0, "red": -16.0, "green": -24.0, "pink": -32.0}
AUTOMATIC = ("Field", "Mill", "Market", "Barracks")  # effects that ask no choice


def slot_xyz(row: int, slot: int) -> dict[str, float]:
    """The centre of a row slot in the reference layout (profile grid x -7.5..7.5, z 10..0)."""
    return {"x": -7.5 + (slot - 0.5) * 2.5, "y": 1.0, "z": 10.0 - (row - 0.5) * 2.5}


def column_xyz(seat: str, estate: str) -> dict[str, float]:
    """The centre of an estate column on an unturned fief board (profile grid x -8..8)."""
    return {"x": -8.0 + (ESTATES.index(estate) + 0.5) * 2.0, "y": 1.0, "z": FIEF_Z[seat] + 0.5}


def notes(tile: Tile) -> str:
    """GM notes carrying a tile's back and face, as the profile reads them."""
    return (
        f"herald:tile:{tile.estate} number={tile.number} back={tile.back} "
        f"farmers={tile.farmers} chests={tile.chests}"
    )


def table_of(state: State) -> list[dict[str, Any]]:
    """TTS objects laid out as ``state`` (tiles named by estate, back and face in the notes)."""
    objects: list[dict[str, Any]] = []
    rot = {"x": 0.0, "y": 0.0, "z": 0.0}
    for seat, z in FIEF_Z.items():
        board = {"x": 0.0, "y": 1.0, "z": z}
        name = f"{seat.title()} Fief"
        objects.append(
            {"guid": f"fief-{seat}", "nickname": name, "position": board, "rotation": rot}
        )
    for r, row in enumerate(state.rows, start=1):
        for s, tile in enumerate(row, start=1):
            if tile is not None:
                objects.append({"guid": f"tile-{r}-{s}", "name": "Custom_Tile",
                                "nickname": tile.estate, "gm_notes": notes(tile),
                                "position": slot_xyz(r, s), "rotation": rot})  # fmt: skip
    for p in state.players:
        for column in p.board:
            for i, tile in enumerate(column):
                objects.append({"guid": f"board-{p.seat}-{tile.estate}-{i}",
                                "nickname": tile.estate, "gm_notes": notes(tile),
                                "position": column_xyz(p.seat, tile.estate)})  # fmt: skip
        for i, tile in enumerate(p.graveyard):
            grave = {"x": 0.0, "y": 1.0, "z": FIEF_Z[p.seat] - 2.5}
            objects.append({"guid": f"grave-{p.seat}-{i}", "nickname": tile.estate,
                            "gm_notes": notes(tile), "position": grave})  # fmt: skip
        if p.scout is not None:
            objects.append({"guid": f"scout-{p.seat}", "nickname": f"{p.seat.title()} Scout",
                            "position": slot_xyz(p.scout.row, p.scout.slot)})  # fmt: skip
        assert p.lord is not None
        at = slot_xyz(p.lord.row, p.lord.slot)
        name = f"{p.seat.title()} Lord"
        objects.append(
            {"guid": f"lord-{p.seat}", "nickname": name, "position": at, "rotation": rot}
        )
    return objects


@pytest.fixture
def referee(tmp_path: Path) -> Referee:
    """A referee whose table is set up (rows, events, placement) and waits for the first turn."""
    for seed in range(50):
        ref = Referee.open(EventStore(tmp_path / f"t{seed}.db"), GAME, "tts", SEATS, {})
        rng = random.Random(seed)
        while ref.session.state.phase != "turn":
            state = ref.session.state
            move = GAME.sample_chance(state, rng) or GAME.legal_moves(state)[0]
            assert ref.observe("sim", codec.encode(move)).ok
        state = ref.session.state
        me = state.player(GAME.to_act(state)[0])
        assert me.lord is not None
        tile = state.rows[me.lord.row - 1][me.lord.slot - 1]
        if tile is not None and tile.estate in AUTOMATIC:
            return ref
    raise AssertionError("no seed gives an automatic first effect")


@pytest.fixture
def linked(standin: TTSStandIn) -> EditorClient:
    c = EditorClient(tts_port=standin.port, listen_port=0, read_timeout=2.0)
    c.start()
    standin.editor_port = c.listen_port
    yield c  # type: ignore[misc]
    c.close()


def _find(objects: list[dict[str, Any]], guid: str) -> dict[str, Any]:
    return next(o for o in objects if o["guid"] == guid)


def test_the_reference_layout_lands_in_the_profiles_regions(
    referee: Referee, standin: TTSStandIn, linked: EditorClient
) -> None:
    standin.objects = table_of(referee.session.state)
    snap = build_snapshot(read_table(linked), load_profile("middle-ages"), time=0.0)
    regions = {o.source_id: o.region for o in snap.observations}
    assert regions["lord-blue"] is not None and regions["lord-blue"].startswith("row:1/")
    standin.objects.append({"guid": "probe", "name": "Custom_Tile", "nickname": "Mill",
                            "position": column_xyz("red", "Mill")})  # fmt: skip
    snap = build_snapshot(read_table(linked), load_profile("middle-ages"), time=0.0)
    assert {o.source_id: o.region for o in snap.observations}["probe"] == "seat:red/estate:Mill"


def test_a_lord_moved_in_tts_becomes_a_validated_move_on_the_display(
    referee: Referee, standin: TTSStandIn, linked: EditorClient
) -> None:
    state = referee.session.state
    standin.objects = table_of(state)
    source = TTSTableSource(referee, linked, load_profile("middle-ages"))
    assert source.sync().interpretation.unchanged

    seat = GAME.to_act(state)[0]
    move = next(m for m in GAME.legal_moves(state) if isinstance(m, MoveLord))
    me = state.player(seat)
    assert me.lord is not None and move.slot is not None
    tile = state.rows[me.lord.row - 1][me.lord.slot - 1]
    assert tile is not None
    # The player moves the Lord down a row and puts the tile it left on their fief board.
    _find(standin.objects, f"lord-{seat}")["position"] = slot_xyz(me.lord.row + 1, move.slot)
    _find(standin.objects, f"tile-{me.lord.row}-{me.lord.slot}")["position"] = column_xyz(
        seat, tile.estate
    )
    before_id = referee.state_id
    result = source.sync()
    assert result.accepted == 1
    assert referee.state_id == before_id + 1
    assert referee.session.state == rules.apply(GAME, state, move)
    view = referee.current().table["view"]
    lord = next(p for p in view["players"] if p["seat"] == seat)["lord"]
    assert lord == {"row": me.lord.row + 1, "slot": move.slot}


def test_an_illegal_change_in_tts_changes_nothing_and_is_announced(
    referee: Referee, standin: TTSStandIn, linked: EditorClient
) -> None:
    state = referee.session.state
    standin.objects = table_of(state)
    seat = GAME.to_act(state)[0]
    other = next(p for p in state.players if p.seat != seat)
    assert other.lord is not None
    # The acting Lord is put on another Lord's tile [L124, L136].
    _find(standin.objects, f"lord-{seat}")["position"] = slot_xyz(other.lord.row, other.lord.slot)
    source = TTSTableSource(referee, linked, load_profile("middle-ages"))
    before = referee.session
    result = source.sync()
    assert result.accepted == 0 and not result.interpretation.moves
    assert referee.session is before
    deadline = time.monotonic() + 3
    while not standin.custom_messages and time.monotonic() < deadline:
        time.sleep(0.02)
    assert any("cannot match" in str(m) for m in standin.custom_messages)


def test_prompts_and_violations_are_shown_on_the_tts_table(
    referee: Referee, standin: TTSStandIn, linked: EditorClient
) -> None:
    announcer = TTSAnnouncer(linked)
    referee.attach(announcer)
    try:
        state = referee.session.state
        move = next(m for m in GAME.legal_moves(state) if isinstance(m, MoveLord))
        assert referee.observe("tts", codec.encode(move)).ok
        bad = codec.encode(MoveLord(move.seat, move.slot))
        assert not referee.observe("tts", bad).ok
        deadline = time.monotonic() + 3
        while len(standin.custom_messages) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        texts = [str(m) for m in standin.custom_messages]
        assert any("'kind': 'prompt'" in t for t in texts)
        assert any("Not allowed" in t for t in texts)
    finally:
        referee.detach(announcer)
        announcer.close()


def test_a_refill_laid_in_tts_is_read_with_its_backs_and_faces(
    referee: Referee, standin: TTSStandIn, linked: EditorClient
) -> None:
    """End of round 1 [L160-162]: the refiller lays row 1; TTS shows the tiles' notes."""
    rng = random.Random(1)
    while referee.session.state.phase != "refill":
        state = referee.session.state
        assert referee.observe("sim", codec.encode(GAME.legal_moves(state)[0])).ok
    state = referee.session.state
    standin.objects = table_of(state)
    source = TTSTableSource(referee, linked, load_profile("middle-ages"))
    assert source.sync().interpretation.unchanged
    reveal = GAME.sample_chance(state, rng)
    assert isinstance(reveal, Reveal)
    for s, tile in enumerate(reveal.tiles, start=1):
        at = slot_xyz(reveal.row, s)
        standin.objects.append(
            {"guid": f"new-{s}", "nickname": tile.estate, "gm_notes": notes(tile), "position": at}
        )
    result = source.sync()
    assert result.accepted == 1
    assert referee.session.state.rows[reveal.row - 1] == reveal.tiles
    # Round 2 has begun and the unclaimed tile of row 2 is on the discard pile by the rules
    # [L127-128]; until someone clears it from the table that is no reason to complain.
    assert source.sync().interpretation.unchanged
