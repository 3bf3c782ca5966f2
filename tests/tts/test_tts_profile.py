"""Profiles: TTS objects → the game's components and regions, as the camera would report them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bridge.tts.errors import ProfileError
from bridge.tts.objects import TTSObject
from bridge.tts.profile import available_profiles, build_snapshot, load_profile, parse_profile
from bridge.tts.savefile import load_save
from vision.snapshot import TableSnapshot

SAVE = Path(__file__).parent / "fixtures" / "middle_ages_save.json"


@pytest.fixture(scope="module")
def snap() -> TableSnapshot:
    return build_snapshot(load_save(SAVE).objects, load_profile("middle-ages"), time=5.0)


def seen(snap: TableSnapshot) -> dict[str, tuple[str, str | None]]:
    return {o.source_id or "": (o.component, o.region) for o in snap.observations}


def test_middle_ages_is_shipped() -> None:
    assert "middle-ages" in available_profiles()
    with pytest.raises(ProfileError, match="no Tabletop Simulator profile for the game 'chess'"):
        load_profile("chess")


def test_lords_and_scouts_by_colour_on_the_story_rows(snap: TableSnapshot) -> None:
    got = seen(snap)
    assert got["10b000"] == ("lord:blue", "row:1/slot:2")
    assert got["10r000"] == ("lord:red", "row:1/slot:3")
    assert got["10g000"] == ("lord:green", "row:1/slot:4")  # from GM notes, lower-cased
    assert got["5cb000"] == ("scout:blue", "row:3/slot:1")


def test_four_rows_of_story_tiles_with_their_estate_and_number(snap: TableSnapshot) -> None:
    for row in range(1, 5):
        for slot in range(1, 5):
            (tile,) = snap.in_region(f"row:{row}/slot:{slot}")[:1]
            assert tile.component == "tile"
    first = next(o for o in snap.observations if o.source_id == "t11000")
    assert first.attrs["estate"] == "Field" and first.attrs["number"] == "3"
    assert first.face_up is True and first.board_xy == (-6.25, 8.75)


def test_estates_follow_the_fief_board_even_when_it_is_turned(snap: TableSnapshot) -> None:
    got = seen(snap)
    assert got["fb1000"] == ("tile", "seat:blue/estate:Mill")
    assert got["fb2000"] == ("tile", "seat:blue/estate:Palace")
    assert got["fb3000"] == ("tile", "seat:blue/graveyard")
    # The red board is turned 180°: its Field column lies at world x = +7.
    assert got["fr1000"] == ("tile", "seat:red/estate:Field")
    assert got["b1a000"] == ("fief:blue", None)  # a board is not inside its own regions
    assert got["c05000"] == ("coin:5", None)


def test_event_cards_face_and_deck_contents(snap: TableSnapshot) -> None:
    got = seen(snap)
    assert got["e40000"] == ("card:E4", "events/slot:1")
    e9 = next(o for o in snap.observations if o.source_id == "e90000")
    assert (e9.component, e9.region, e9.face_up) == ("card:E9", "events/slot:4", False)
    in_deck = [o for o in snap.observations if o.attrs.get("container") == "dec000"]
    assert [o.component for o in in_deck] == ["card:E1", "card:E2", "card:E3"]
    assert all(o.face_up is None and o.board_xy is None for o in in_deck)


def test_unrecognised_objects_and_contents_of_unrecognised_bags_are_left_out(
    snap: TableSnapshot,
) -> None:
    ids = {o.source_id for o in snap.observations}
    assert "d16000" not in ids and "20e000" not in ids  # die, scripting zone
    assert "ba9100" not in ids and "s30000" not in ids  # the nested "Spare" bag
    assert {"s10000", "s20000"} <= ids  # tiles directly in the blue stack


def test_snapshot_round_trips_through_json(snap: TableSnapshot) -> None:
    assert TableSnapshot.from_json(snap.to_json()) == snap
    assert snap.source == "tts" and snap.time == 5.0


ZONE_PROFILE: dict[str, Any] = {
    "game": "zones",
    "lowercase": ["color"],
    "components": [
        {
            "id": "pawn",
            "component": "pawn:{color}",
            "match": {"nickname": "(?i)^(?P<color>\\w+) lord$"},
        },
    ],
    "regions": [
        {"region": "zone:{n}", "zone": {"nickname": "^Row (?P<n>\\d)$"}},
        {"region": "table", "rect": {"x": [-50, 50], "z": [-50, 50]}},
    ],
}


def test_scripting_zones_as_regions() -> None:
    objects = load_save(SAVE).objects
    snap = build_snapshot(objects, parse_profile(ZONE_PROFILE), time=0.0)
    got = seen(snap)
    assert got["10b000"] == ("pawn:blue", "zone:1")
    assert got["10r000"] == ("pawn:red", "zone:1")
    # A lord outside the zone's box falls through to the next region.
    far = TTSObject(guid="x", nickname="Teal Lord", position=(0.0, 1.0, 20.0))
    snap2 = build_snapshot((*objects, far), parse_profile(ZONE_PROFILE), time=0.0)
    assert seen(snap2)["x"] == ("pawn:teal", "table")


def test_a_turned_zone_turns_its_box() -> None:
    zone = TTSObject(
        guid="z",
        name="ScriptingTrigger",
        nickname="Row 1",
        position=(0.0, 1.0, 0.0),
        rotation=(0.0, 90.0, 0.0),
        scale=(10.0, 1.0, 2.0),
    )
    along_z = TTSObject(guid="a", nickname="Blue Lord", position=(0.0, 1.0, 4.0))
    along_x = TTSObject(guid="b", nickname="Red Lord", position=(4.0, 1.0, 0.0))
    got = seen(build_snapshot((zone, along_z, along_x), parse_profile(ZONE_PROFILE), time=0.0))
    assert got["a"] == ("pawn:blue", "zone:1")
    assert got["b"] == ("pawn:red", "table")


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"game": ""}, "$.game"),
        ({"components": []}, "$.components"),
        (
            {"components": [{"id": "p", "component": "pawn:{color}", "match": {"nickname": "x"}}]},
            "$.components[0].match[0]",
        ),
        (
            {"components": [{"id": "p", "component": "p", "match": {"nickname": "("}}]},
            "$.components[0].match[0].nickname",
        ),
        (
            {"components": [{"id": "p", "component": "p", "match": {"colour": "x"}}]},
            "$.components[0].match[0]",
        ),
        ({"regions": [{"region": "r", "rect": {"x": [1, 1], "z": [0, 1]}}]}, "$.regions[0].rect.x"),
        (
            {"regions": [{"region": "r:{row}", "rect": {"x": [0, 1], "z": [0, 1]}}]},
            "$.regions[0].region",
        ),
        (
            {"regions": [{"region": "r", "anchor": "nope", "grid": {"x": [0, 1], "z": [0, 1]}}]},
            "$.regions[0].anchor",
        ),
        ({"regions": [{"region": "r"}]}, "$.regions[0]"),
    ],
)
def test_a_broken_profile_says_where(change: dict[str, Any], where: str) -> None:
    with pytest.raises(ProfileError) as info:
        parse_profile({**ZONE_PROFILE, **change}, name="zones.json")
    assert f"profile zones.json is not valid at {where}:" in str(info.value)
