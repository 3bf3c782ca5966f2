"""The camera's board profile of a France 1429 map traced on a photo (issue #24 point 2: "the same
clicks make the camera's board profile for that board: no second calibration").

A traced map keeps the board's size and every Village's place in board millimetres; its profile
puts each Village's square at that place and the corner stickers at the board's corners (the four
corners clicked on the photo), and a move photographed on that board is read back through the
real pipeline. Places the camera could not read (two Villages traced too close, a Village under a
corner sticker or off the board) are refused by the map's check, naming the Villages."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bridge.box.file import box_data, read_box
from bridge.box.library import import_box
from bridge.box.profile import profile_for_game
from bridge.box.workshop import Draft, report
from bridge.camera import profile_seats
from bridge.game_files import placer
from engine import data as gamedata
from engine import registry
from engine.games.france1429.board_places import CORNER_MM, VILLAGE_MM
from engine.games.france1429.geography import dump_map, parse_map
from engine.games.france1429.layout import board_profile
from engine.games.france1429.map_checks import check_map
from engine.games.france1429.moves import Buy
from engine.i18n import violation_text
from engine.violations import InputError
from vision.calibration import BoardProfile
from vision.markers import usable_ids
from vision.pipeline import Pipeline
from vision.sim import render_placed

from .generated import france_map
from .traced import BOARD, traced_files, traced_map

GAME = registry.get_game("france1429")
USABLE = usable_ids("4x4_250")


def _profile(doc: dict[str, Any]) -> dict[str, Any]:
    return board_profile(parse_map(doc), USABLE)


def test_each_village_is_read_where_it_was_traced_on_a_board_of_the_given_size() -> None:
    doc = traced_map()
    profile = _profile(doc)
    assert (profile["width_mm"], profile["height_mm"]) == BOARD
    half = CORNER_MM / 2 + 5  # the corner stickers, 5 mm in from the traced corners
    w, h = BOARD
    assert profile["corner_centers_mm"] == [[half, half], [w - half, half], [w - half, h - half],
                                            [half, h - half]]  # fmt: skip
    rects = {r["name"]: r["rect"] for r in profile["regions"]}
    for v in doc["villages"]:
        x, y, rw, rh = rects[f"village:{v['id']}"]
        assert (x + rw / 2, y + rh / 2) == (v["x"], v["y"]) and rw == rh == VILLAGE_MM
    # the title spaces and the Family Boards lie beside the board's right edge
    strip = [r for r in profile["regions"] if not r["name"].startswith("village:")]
    assert {r["name"] for r in strip} == {"titles"} | {
        f"seat:{c}/family" for c in profile_seats(BoardProfile.from_json(profile))
    }
    assert all(r["rect"][0] > w for r in strip)


def test_a_map_without_a_traced_board_keeps_the_generated_grid() -> None:
    """A map typed by hand (positions in any unit, no board size) gets the stand-in board in
    the map's shape, as before; so does a traced board with a Village not placed yet."""
    typed = france_map(21, 15)
    grid = _profile(typed)
    assert grid["name"] == "france1429" and grid["width_mm"] != BOARD[0]
    doc = traced_map()
    del doc["villages"][3]["x"], doc["villages"][3]["y"]
    assert _profile(doc)["name"] == "france1429"
    gaps = [p for p in check_map(parse_map(doc)) if p.code == "map/missing-place"]
    assert [p.params["village"] for p in gaps] == [doc["villages"][3]["name"]]


def _moved(doc: dict[str, Any], name: str, x: float, y: float) -> dict[str, Any]:
    for v in doc["villages"]:
        if v["name"] == name:
            v["x"], v["y"] = x, y
    return doc


def test_villages_traced_too_close_are_refused_naming_both() -> None:
    doc = traced_map()
    a, b = doc["villages"][0], doc["villages"][1]  # neighbours on the board
    _moved(doc, b["name"], a["x"] + 30, a["y"] + 10)
    faults = [p for p in check_map(parse_map(doc)) if p.code == "map/villages-overlap"]
    assert [(p.params["a"], p.params["b"]) for p in faults] == [(a["name"], b["name"])]
    assert a["name"] in violation_text(faults[0], "en")
    with pytest.raises(ValueError, match="overlap"):
        _profile(doc)
    # the box's check refuses it in a sentence naming both Villages, in either language
    files = traced_files()
    files["map.json"] = doc
    for lang in ("en", "pl"):
        said = report(Draft("france1429", "ours", "data.json", files), lang)
        assert not said["ok"]
        assert a["name"] in said["message"] and b["name"] in said["message"], said


def test_a_village_under_a_corner_sticker_or_off_the_board_is_refused() -> None:
    doc = traced_map()
    first, second = doc["villages"][0]["name"], doc["villages"][1]["name"]
    _moved(doc, first, 50.0, 50.0)  # in the top left corner, under the corner sticker
    _moved(doc, second, BOARD[0] - 10, 200.0)  # half off the right edge
    codes = {p.code: p.params for p in check_map(parse_map(doc)) if "village-" in p.code}
    assert codes["map/village-under-corner"]["village"] == first
    assert codes["map/village-off-board"]["village"] == second


def test_a_move_photographed_on_the_traced_board_is_read_through_the_pipeline() -> None:
    """The simulated camera photographs a Purchase on the traced board (the profile made from
    the traced places); the real pipeline reads every sticker and the rules name the move."""
    box = read_box(Draft("france1429", "traced", "data.json", traced_files()).box().to_bytes())
    data = box_data(GAME, box, "traced")
    profile = BoardProfile.from_json(_profile(traced_map()))
    place = placer("france1429", profile)
    pipe = Pipeline(profile=profile)

    def read(image: Any) -> list[dict[str, Any]]:
        return [o.to_json() for o in pipe.snapshot(pipe.detect(image), 0.0).observations]

    options = {"data": "traced", "max_rounds": 3}
    state = gamedata.setup(GAME, profile_seats(profile)[:4], options, data)
    rng = random.Random(3)
    while not any(isinstance(m, Buy) for m in GAME.legal_moves(state)):
        moves = GAME.legal_moves(state)
        move = rng.choice(moves) if moves else GAME.sample_chance(state, rng)
        state = GAME.apply_unchecked(state, move)
    before = render_placed(place(state), seed=41, profile=profile)
    assert GAME.interpret(state, read(before.image)).unchanged
    move = next(m for m in GAME.legal_moves(state) if isinstance(m, Buy) and m.item == "knight")
    after = GAME.apply_unchecked(state, move)
    shot = render_placed(place(after), seed=42, profile=profile, camera=before.camera)
    assert GAME.interpret(state, read(shot.image)).moves == (move,)


def test_a_game_started_on_a_kept_box_reads_the_boxs_traced_board(tmp_path: Path) -> None:
    """A New game on a box kept at the table: the camera's profile is the box's (its traced
    board), unless the table calibrated a profile of its own; a shipped set keeps the table's."""
    library = tmp_path / "t.db.boxes"
    box = read_box(Draft("france1429", "traced", "data.json", traced_files()).box().to_bytes())
    kept = import_box(box, GAME, library)
    table = tmp_path / "t.db.board.json"  # not calibrated yet
    found = profile_for_game(GAME, {"data": str(kept.path.resolve())}, library, table)
    assert found is not None and found.parent == library
    assert json.loads(found.read_text(encoding="utf-8")) == _profile(traced_map())
    assert profile_for_game(GAME, {"data": "stand-in"}, library, table) is None
    outside = tmp_path / "elsewhere.herald-box"
    outside.write_bytes(kept.path.read_bytes())
    assert profile_for_game(GAME, {"data": str(outside)}, library, table) is None
    table.write_text("{}", encoding="utf-8")  # the calibration page saved the table's own
    assert profile_for_game(GAME, {"data": str(kept.path)}, library, table) == table


def test_the_board_size_round_trips_and_a_bad_one_is_refused_naming_its_path() -> None:
    m = parse_map(traced_map())
    assert m.board == BOARD
    assert parse_map(dump_map(m)) == m
    doc = traced_map()
    doc["board"]["width_mm"] = 5  # not a board: refused, naming where
    with pytest.raises(InputError, match=r"\$\.board\.width_mm"):
        parse_map(doc)
