"""Save files written to TTS's documented format: nested bags, decks, transforms, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bridge.tts.errors import SaveFileError
from bridge.tts.objects import TTSObject, face_down_from_rotation
from bridge.tts.savefile import load_save, parse_save

SAVE = Path(__file__).parent / "fixtures" / "middle_ages_save.json"


def by_guid(objects: tuple[TTSObject, ...], guid: str) -> TTSObject:
    return next(o for o in objects if o.guid == guid)


def test_the_save_reads_into_objects() -> None:
    save = load_save(SAVE)
    assert save.save_name == "Herald Middle Ages test table"
    lord = by_guid(save.objects, "10b000")
    assert lord.name == "PlayerPawn" and lord.nickname == "Blue Lord"
    assert lord.position == (-3.75, 1.3, 8.75)
    assert lord.rotation == (0.0, 0.0, 0.0) and lord.scale == (1.0, 1.0, 1.0)
    assert lord.face_down is False
    assert by_guid(save.objects, "10g000").gm_notes == "herald:lord:Green"
    assert by_guid(save.objects, "b1a000").tags == ("Board",)


def test_decks_keep_their_cards_with_card_ids() -> None:
    deck = by_guid(load_save(SAVE).objects, "dec000")
    assert deck.name == "DeckCustom"
    assert [(c.nickname, c.card_id, c.gm_notes) for c in deck.contained] == [
        ("Event E1", 100, "E1"),
        ("Event E2", 101, "E2"),
        ("Event E3", 102, "E3"),
    ]
    assert all(c.position is None and c.face_down is None for c in deck.contained)


def test_nested_bags_are_read_to_the_bottom() -> None:
    stack = by_guid(load_save(SAVE).objects, "ba9000")
    assert [c.nickname for c in stack.contained] == ["Church", "Walls", "Spare"]
    spare = stack.contained[2]
    assert [(c.guid, c.nickname) for c in spare.contained] == [("s30000", "Market")]
    walked = [(o.guid, parent.guid if parent else None) for o, parent in stack.walk()]
    assert ("s30000", "ba9100") in walked and ("ba9100", "ba9000") in walked


def test_face_down_and_die_values_come_from_the_transform() -> None:
    objects = load_save(SAVE).objects
    assert by_guid(objects, "e90000").face_down is True
    assert by_guid(objects, "e40000").face_down is False
    assert by_guid(objects, "d16000").value == "2"
    assert face_down_from_rotation((180.0, 0.0, 0.0)) is True
    assert face_down_from_rotation((0.0, 270.0, 180.0)) is True
    assert face_down_from_rotation((0.0, 180.0, 0.0)) is False


def test_objects_json_round_trips() -> None:
    for obj in load_save(SAVE).objects:
        assert TTSObject.from_json(json.loads(json.dumps(obj.to_json()))) == obj


def test_unknown_fields_are_ignored() -> None:
    save = parse_save(
        {
            "ObjectStates": [
                {
                    "Name": "Chess_Pawn",
                    "GUID": "abc123",
                    "Transform": {"posX": 1, "posY": 2, "posZ": 3},
                    "SomethingNew": {"nested": True},
                }
            ],
            "FutureField": 1,
        }
    )
    (pawn,) = save.objects
    assert pawn.position == (1.0, 2.0, 3.0) and pawn.rotation == (0.0, 0.0, 0.0)
    assert pawn.scale == (1.0, 1.0, 1.0)


@pytest.mark.parametrize(
    ("doc", "where"),
    [
        ([], "$"),
        ({"SaveName": "x"}, "$.ObjectStates"),
        ({"ObjectStates": [{"Name": "Bag"}]}, "$.ObjectStates[0].Transform"),
        ({"ObjectStates": [{"Transform": {}}]}, "$.ObjectStates[0].Name"),
        (
            {"ObjectStates": [{"Name": "Bag", "Transform": {"posX": "left"}}]},
            "$.ObjectStates[0].Transform.posX",
        ),
        (
            {"ObjectStates": [{"Name": "Bag", "Transform": {}, "ContainedObjects": [{"Name": 3}]}]},
            "$.ObjectStates[0].ContainedObjects[0].Name",
        ),
        (
            {"ObjectStates": [{"Name": "Card", "Transform": {}, "CardID": "100"}]},
            "$.ObjectStates[0].CardID",
        ),
        (
            {"ObjectStates": [{"Name": "Bag", "Transform": {}, "Tags": "x"}]},
            "$.ObjectStates[0].Tags",
        ),
    ],
)
def test_a_save_that_breaks_the_format_says_where(doc: object, where: str) -> None:
    with pytest.raises(SaveFileError) as info:
        parse_save(doc, name="table.json")
    assert info.value.code == "tts/save-invalid"
    assert f"table.json is not in the save format at {where}:" in str(info.value)


def test_unreadable_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(SaveFileError, match="Cannot read the Tabletop Simulator save file"):
        load_save(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(SaveFileError, match="not JSON"):
        load_save(bad)
