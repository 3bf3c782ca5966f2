"""Reading the live table: Herald's Lua snippet run in real Lua against stand-in TTS objects."""

from __future__ import annotations

from pathlib import Path

import pytest
from tts_standin import TTSStandIn, spec_from_object

from bridge.tts.editor_api import EditorClient
from bridge.tts.errors import TTSReturnError
from bridge.tts.objects import TTSObject
from bridge.tts.profile import build_snapshot, load_profile
from bridge.tts.reader import decode_return_value, objects_from_return, read_table, read_table_lua
from bridge.tts.savefile import load_save

SAVE = Path(__file__).parent / "fixtures" / "middle_ages_save.json"

PAWN = {
    "guid": "10b000",
    "name": "PlayerPawn",
    "type": "Figurine",
    "nickname": "Blue Lord",
    "description": "moves first",
    "gm_notes": "herald:lord:blue",
    "tags": ["Lord"],
    "position": {"x": -3.75, "y": 1.3, "z": 8.75},
    "rotation": {"x": 0.0, "y": 90.0, "z": 0.0},
    "scale": {"x": 1.0, "y": 1.0, "z": 1.0},
    "face_down": False,
}


def test_the_snippet_describes_every_field(client: EditorClient, standin: TTSStandIn) -> None:
    die = {**PAWN, "guid": "d16000", "type": "Dice", "nickname": "d6", "value": 4, "tags": []}
    bag = {
        **PAWN,
        "guid": "ba9000",
        "type": "Bag",
        "nickname": "Blue Stack",
        "tags": [],
        "contents": [
            {
                "guid": "s10000",
                "name": "Church",
                "description": "",
                "gm_notes": "number=17",
                "index": 0,
                "tags": ["Tile"],
            },
            {"guid": "s20000", "name": "Walls", "description": "", "gm_notes": "", "index": 1},
        ],
    }
    standin.objects = [PAWN, die, bag]
    objects = read_table(client)
    pawn, d6, stack = objects
    assert pawn == TTSObject(
        guid="10b000",
        name="PlayerPawn",
        nickname="Blue Lord",
        description="moves first",
        gm_notes="herald:lord:blue",
        tags=("Lord",),
        type="Figurine",
        position=(-3.75, 1.3, 8.75),
        rotation=(0.0, 90.0, 0.0),
        scale=(1.0, 1.0, 1.0),
        face_down=False,
    )
    assert d6.value == 4
    assert [(c.guid, c.nickname, c.gm_notes, c.tags) for c in stack.contained] == [
        ("s10000", "Church", "number=17", ("Tile",)),
        ("s20000", "Walls", "", ()),
    ]
    assert all(c.position is None for c in stack.contained)


def test_an_older_tts_without_gm_notes_or_tags_still_reads(
    client: EditorClient, standin: TTSStandIn
) -> None:
    standin.objects = [{**PAWN, "old_api": True}]
    (pawn,) = read_table(client)
    assert pawn.gm_notes == "" and pawn.tags == ()
    assert pawn.nickname == "Blue Lord"


def test_the_live_table_and_its_save_give_the_same_snapshot(
    client: EditorClient, standin: TTSStandIn
) -> None:
    saved = load_save(SAVE).objects
    standin.objects = [spec_from_object(o) for o in saved]
    live = read_table(client)
    assert [o.guid for o in live] == [o.guid for o in saved]
    profile = load_profile("middle-ages")
    from_save = build_snapshot(saved, profile, time=1.0)
    from_live = build_snapshot(live, profile, time=1.0)
    assert from_live == from_save


def test_a_tile_moved_in_tts_shows_up_in_the_next_snapshot(
    client: EditorClient, standin: TTSStandIn
) -> None:
    saved = load_save(SAVE).objects
    standin.objects = [spec_from_object(o) for o in saved]
    profile = load_profile("middle-ages")
    before = build_snapshot(read_table(client), profile, time=1.0)
    # The blue player takes the Mill at row 1 slot 2 into the Mill column of the blue fief.
    moved = next(s for s in standin.objects if s["guid"] == "t12000")
    moved["position"] = {"x": -5.0, "y": 1.05, "z": -13.0}
    after = build_snapshot(read_table(client), profile, time=2.0)

    def where(snap: object, guid: str) -> str | None:
        return next(o.region for o in snap.observations if o.source_id == guid)  # type: ignore[attr-defined]

    assert where(before, "t12000") == "row:1/slot:2"
    assert where(after, "t12000") == "seat:blue/estate:Mill"
    assert len(after.in_region("seat:blue/estate:Mill")) == 2


def test_return_values_as_json_strings_or_tables() -> None:
    table = {"herald": "n1", "objects": [{"guid": "abc123", "nickname": "x", "contained": {}}]}
    assert decode_return_value('{"a": 1}') == {"a": 1}
    assert decode_return_value({"a": 1}) == {"a": 1}
    assert objects_from_return(table, "n1")[0].guid == "abc123"
    assert objects_from_return([{"guid": "abc123"}])[0].guid == "abc123"
    with pytest.raises(TTSReturnError, match="another request"):
        objects_from_return(table, "n2")
    with pytest.raises(TTSReturnError, match="not JSON"):
        decode_return_value("{oops")
    with pytest.raises(TTSReturnError, match=r"objects\[0\].position.x"):
        objects_from_return([{"guid": "a", "position": {"x": "far", "y": 0, "z": 0}}])


def test_the_nonce_must_be_plain() -> None:
    assert '"abc123"' in read_table_lua("abc123")
    with pytest.raises(ValueError):
        read_table_lua('x" .. os.exit() .. "')
