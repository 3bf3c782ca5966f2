"""The ``herald vision`` CLI contract and the snapshot / config round trips."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from bridge.cli.vision import vision
from bridge.game_files import camera_profile
from tests.vision.conftest import TILES
from vision.art import stand_in_art
from vision.config import VisionConfig
from vision.pipeline import Pipeline
from vision.scenes import EASY, hard_scene
from vision.snapshot import TableSnapshot

MA_BOARD = camera_profile("middle-ages")
"""The board profile Middle Ages ships (its package's camera/profile.json)."""


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cli")
    for key in [*TILES[:6], "card-a"]:
        shape = (320, 448) if key.startswith("card") else (320, 320)
        cv2.imwrite(str(root / f"{key}.png"), stand_in_art(key, *shape))
    scene = hard_scene(
        8800, MA_BOARD, style=EASY, tile_keys=TILES[:6], card_keys=["card-a", "alien"]
    )
    cv2.imwrite(str(root / "frame.png"), scene.image)
    (root / "truth.json").write_text(
        json.dumps(
            {
                "markers": sorted(int(t.key) for t in scene.of_kind("marker", 0.999)),
                "present": sorted(int(t.key) for t in scene.of_kind("marker", 0.01)),
                "dice": sorted(int(t.key) for t in scene.of_kind("die", 0.95)),
            }
        )
    )
    return root


def test_enroll_then_detect_json_contract(workdir: Path) -> None:
    runner = CliRunner()
    images = [str(workdir / f"{k}.png") for k in [*TILES[:6], "card-a"]]
    res = runner.invoke(vision, ["enroll", *images, "--library", str(workdir / "lib")])
    assert res.exit_code == 0, res.output
    assert "7" in res.output
    res = runner.invoke(
        vision,
        [
            "detect",
            str(workdir / "frame.png"),
            "--game",
            "middle-ages",
            "--library",
            str(workdir / "lib"),
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert set(doc) == {"board", "markers", "cards", "dice"}
    assert doc["board"]["found"] is True
    assert np.array(doc["board"]["homography"]).shape == (3, 3)
    truth = json.loads((workdir / "truth.json").read_text())
    ids = {m["id"] for m in doc["markers"]}
    # Every fully visible marker is reported; nothing is reported that is not on the table.
    assert set(truth["markers"]) <= ids <= set(truth["present"])
    for m in doc["markers"]:
        assert set(m) == {"id", "corners", "board_xy"} and len(m["corners"]) == 4
    for c in doc["cards"]:
        assert set(c) == {"id", "corners", "score"} and 0 < c["score"] <= 1
    assert "card-a" in {c["id"] for c in doc["cards"]}
    assert "alien" not in {c["id"] for c in doc["cards"]}
    assert sorted(d["value"] for d in doc["dice"]) == truth["dice"]


def test_detect_reads_any_photo_without_a_game(workdir: Path) -> None:
    """Issue 25 point 8 / issue 29 point 3: no --game, no --profile: markers, cards and dice of
    the photo are read, no board is looked for (nothing has board millimetres)."""
    runner = CliRunner()
    images = [str(workdir / f"{k}.png") for k in [*TILES[:6], "card-a"]]
    enrolled = runner.invoke(vision, ["enroll", *images, "--library", str(workdir / "lib")])
    assert enrolled.exit_code == 0
    res = runner.invoke(
        vision, ["detect", str(workdir / "frame.png"), "--library", str(workdir / "lib"), "--json"]
    )
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["board"] == {"found": False, "homography": None}
    truth = json.loads((workdir / "truth.json").read_text())
    ids = {m["id"] for m in doc["markers"]}
    # the board's own corner markers are stickers like any other here
    assert set(truth["markers"]) | {0, 1, 2, 3} <= ids <= set(truth["present"]) | {0, 1, 2, 3}
    assert all(m["board_xy"] is None for m in doc["markers"])
    assert "card-a" in {c["id"] for c in doc["cards"]}
    assert "alien" not in {c["id"] for c in doc["cards"]}
    # dice anywhere in the photo, not only in a calibrated tray
    assert sorted(d["value"] for d in doc["dice"]) == truth["dice"] != []
    res = runner.invoke(vision, ["detect", str(workdir / "frame.png")])
    assert res.exit_code == 0, res.output
    assert "no board profile" in res.output


def test_detect_reads_a_real_photograph_without_a_game() -> None:
    """OpenCV's ArUco tutorial photograph (6x6_250, labelled by hand): read without a game."""
    photo = Path(__file__).parents[1] / "data" / "opencv_photos" / "singlemarkersoriginal.jpg"
    labels = json.loads((photo.parent / "labels.json").read_text(encoding="utf-8"))
    want = sorted(m["id"] for m in labels["photos"][photo.name]["markers"])
    res = CliRunner().invoke(vision, ["detect", str(photo), "--dict", "6x6_250", "--json"])
    assert res.exit_code == 0, res.output
    assert sorted(m["id"] for m in json.loads(res.output)["markers"]) == want


def test_detect_with_an_unknown_game_names_the_games_it_reads(workdir: Path) -> None:
    res = CliRunner().invoke(vision, ["detect", str(workdir / "frame.png"), "--game", "nope"])
    assert res.exit_code == 2 and "middle-ages" in res.output


def test_detect_bad_inputs_exit_2_with_catalog_text(workdir: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(
        vision, ["detect", str(tmp_path / "none.png"), "--game", "middle-ages", "--json"]
    )
    assert res.exit_code == 2 and "Cannot read the frame" in res.output
    res = runner.invoke(
        vision, ["detect", str(workdir / "frame.png"), "--game", "middle-ages", "--dict", "9x9"]
    )
    assert res.exit_code == 2 and "Unknown marker dictionary" in res.output
    bad = tmp_path / "p.json"
    bad.write_text("[1]")
    res = runner.invoke(vision, ["detect", str(workdir / "frame.png"), "--profile", str(bad)])
    assert res.exit_code == 2 and "board profile" in res.output
    res = runner.invoke(vision, ["enroll", "--library", str(tmp_path / "l")])
    assert res.exit_code == 2 and "No images" in res.output


def test_other_dictionary_finds_nothing_on_4x4_table(workdir: Path) -> None:
    res = CliRunner().invoke(
        vision,
        [
            "detect",
            str(workdir / "frame.png"),
            "--game",
            "middle-ages",
            "--dict",
            "6x6_250",
            "--json",
        ],
    )
    assert res.exit_code == 0
    doc = json.loads(res.output)
    assert doc["markers"] == [] and doc["board"]["found"] is False


def test_snapshot_round_trip_and_regions() -> None:
    scene = hard_scene(8801, MA_BOARD, style=EASY, tile_keys=[], card_keys=[])
    pipe = Pipeline(profile=MA_BOARD)
    snap = pipe.snapshot(pipe.detect(scene.image), 1.5)
    assert TableSnapshot.from_json(json.loads(json.dumps(snap.to_json()))) == snap
    pawns = [o for o in snap.observations if o.component.startswith(("pawn:", "marker:"))]
    truth = {int(t.key): t for t in scene.of_kind("marker", 0.999) if int(t.key) > 3}
    assert len(pawns) == len(truth)
    for o in pawns:
        mid = int(o.attrs["marker_id"])
        assert o.region == pipe.profile.region_at(*truth[mid].board_xy)
        assert 0 < o.confidence <= 1


def test_config_round_trip_and_unknown_keys(tmp_path: Path) -> None:
    cfg = VisionConfig.from_dict({"markers": {"upscale": 3.0}, "tracker": {"stable_frames": 5}})
    assert cfg.markers.upscale == 3.0 and cfg.tracker.stable_frames == 5
    path = tmp_path / "c.json"
    path.write_text(json.dumps(cfg.to_dict()))
    assert VisionConfig.load(path) == cfg
    with pytest.raises(ValueError):
        VisionConfig.from_dict({"markers": {"upscael": 3.0}})
