"""Tile faces → the engine's tile attributes, through a face map file users can complete."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bridge.game_files import camera_profile, face_map_path, placer
from engine import data as gamedata
from engine.games.middle_ages.layout import tile_attrs, tile_key
from engine.games.middle_ages.moves import Reveal
from engine.games.middle_ages.state import State
from engine.registry import get_game
from vision.faces import FaceMap, FaceMapError, face_map_for
from vision.pipeline import Pipeline
from vision.sim import render_placed, standin_face_map, standin_faces
from vision.slots import SlotClassifier
from vision.snapshot import Observation

MA_BOARD = camera_profile("middle-ages")
"""The board profile Middle Ages ships (its package's camera/profile.json)."""


GAME = get_game("middle-ages")
TILES = gamedata.load(GAME, {})
"""The shipped tile box, loaded as a caller of the engine loads it (the rules read no file)."""
assert TILES is not None


def test_the_shipped_face_map_is_the_one_generated_from_the_tile_box() -> None:
    """Regenerate with `herald vision faces --game middle-ages >
    engine/games/middle_ages/camera/faces.json`."""
    path = face_map_path("middle-ages")
    assert path is not None
    generated = standin_face_map(GAME.camera_faces(TILES), "middle-ages")  # type: ignore[attr-defined]
    assert path.read_text(encoding="utf-8") == generated.to_text()
    shipped = FaceMap.load(path)
    for tile in TILES.value.tiles:  # every tile of the box: its face id names its attributes
        assert shipped.attrs(tile_key(tile)) == tile_attrs(tile)


def test_a_read_face_gets_the_attributes_the_map_gives_it() -> None:
    faces = FaceMap({"field-07": {"estate": "Field", "number": 7, "back": "blue"}})
    seen = (
        Observation("tile", "row:1/slot:2", confidence=0.9, attrs={"face": "field-07"}),
        Observation("tile", "row:1/slot:3", attrs={"face": "not-in-the-map"}),
        Observation("lord:red", "row:1/slot:2"),
    )
    named, unknown, pawn = faces.apply(seen)
    assert named.attrs == {"face": "field-07", "estate": "Field", "number": 7, "back": "blue"}
    assert named.confidence == 0.9 and named.region == "row:1/slot:2"
    assert unknown.attrs == {"face": "not-in-the-map"} and pawn.attrs == {}


def test_faces_json_beside_a_library_wins_over_the_built_in_map(tmp_path: Path) -> None:
    assert len(face_map_for(face_map_path("middle-ages"), tmp_path)) == len(TILES.value.tiles)
    doc = {"version": 1, "faces": {"f1": {"estate": "Mill", "farmers": 1}}}
    (tmp_path / "faces.json").write_text(json.dumps(doc), encoding="utf-8")
    mine = face_map_for(face_map_path("middle-ages"), tmp_path)
    assert mine.attrs("f1") == {"estate": "Mill", "farmers": 1} and len(mine) == 1
    assert mine.path == tmp_path / "faces.json"


@pytest.mark.parametrize(
    "doc",
    [
        [],
        {"version": 2, "faces": {}},
        {"version": 1},
        {"version": 1, "faces": {"f": "Field"}},
        {"version": 1, "faces": {"f": {}}},
        {"version": 1, "faces": {"f": {"estate": ["Field"]}}},
        {"version": 1, "faces": {}, "extra": 1},
    ],
)
def test_a_broken_face_map_is_refused_with_a_sentence(tmp_path: Path, doc: object) -> None:
    path = tmp_path / "faces.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(FaceMapError) as err:
        FaceMap.load(path)
    assert str(path) in err.value.text()
    with pytest.raises(FaceMapError) as missing:
        FaceMap.load(tmp_path / "none.json")
    assert missing.value.code == "vision/faces-missing"


def _before_a_reveal() -> State:
    rng = random.Random(3)
    state: State = gamedata.setup(GAME, ("red", "blue", "green"))
    for _ in range(2):  # two rows laid: the third is next
        move = GAME.sample_chance(state, rng)
        state = GAME.apply_unchecked(state, move)
    assert state.phase == "setup-rows" and state.rows_laid == 2
    return state


def test_a_row_revealed_in_front_of_the_camera_is_the_engines_reveal() -> None:
    """Real pipeline on a rendered table: slot faces → face map → tile attrs → Reveal."""
    before = _before_a_reveal()
    reveal = GAME.sample_chance(before, random.Random(4))
    assert isinstance(reveal, Reveal)
    after = GAME.apply_unchecked(before, reveal)
    faces = standin_face_map(GAME.camera_faces(TILES), "middle-ages")  # type: ignore[attr-defined]
    pipe = Pipeline(
        profile=MA_BOARD,
        slots=SlotClassifier(standin_faces({tile_key(t) for t in TILES.value.tiles})),
    )
    shot = render_placed(placer("middle-ages", MA_BOARD)(after), seed=21, profile=MA_BOARD)
    snapshot = pipe.snapshot(pipe.detect(shot.image), 0.0)
    seen = [o.to_json() for o in faces.apply(snapshot.observations)]
    tiles = [o for o in seen if o["component"] == "tile"]
    assert len(tiles) == 3 * before.row_length and all("number" in o["attrs"] for o in tiles)
    assert GAME.interpret(before, seen).moves == (reveal,)
    assert GAME.interpret(after, seen).unchanged
    without = [o.to_json() for o in snapshot.observations]  # faces unnamed: only the table knows
    assert GAME.interpret(before, without).moves == ()
