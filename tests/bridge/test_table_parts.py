"""The per-game parts of a table built again on a new game (issue 25, point 1), in process: a
part that cannot be built is a sentence for the host page (English and Polish), the move-level
table stands in for a camera that cannot read the game, and the setup form seats the colours
the camera can tell apart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bridge.camera import CameraConfig, CameraError, CameraTable, open_camera_table
from bridge.referee import Principal, Referee
from bridge.store import open_store
from bridge.table_parts import Problem, TableParts, profile_for
from bridge.table_setup import SetupError, choices, read_setup, seat_colours, start_options
from bridge.web.app import WebConfig, WebTable
from bridge.web.calibration import Calibrator
from engine import get_game


class Driver:
    def __init__(self) -> None:
        self.roller: Any = None
        self.running = False

    def start(self) -> None:
        self.running = True

    def stop(self) -> None:
        self.running = False


class RefusingCamera:
    """A camera whose new game cannot be read (as a profile naming other seats)."""

    def __init__(self) -> None:
        self.asked: list[Any] = []

    def switch_game(self, profile: Any, library: Any = None) -> None:
        self.asked.append(profile)
        raise CameraError("camera/unknown-seats", seats="pink", named="red, blue")


def referee_for(tmp_path: Path, key: str, seats: tuple[str, ...]) -> Referee:
    store = open_store(tmp_path / "t.db")
    return Referee.open(store, get_game(key), "t1", seats, {})


def start(referee: Referee, key: str, seats: list[str]) -> None:
    options = start_options(get_game(key))  # as the host page's form starts
    setup = {"game": key, "seats": [{"seat": s} for s in seats], "options": options}
    outcome = referee.intent(Principal("host"), {"state_id": referee.state_id, "kind": "start",
                                                 "setup": setup})  # fmt: skip
    assert outcome.ok, outcome.to_json()


def test_a_camera_that_cannot_read_the_new_game_is_said_on_the_host_page(tmp_path: Path) -> None:
    referee = referee_for(tmp_path, "middle-ages", ("red", "blue", "green"))
    camera, fallback, sim = RefusingCamera(), Driver(), Driver()
    parts = TableParts(referee, camera=camera, profile_base=tmp_path / "t.db.board.json",  # type: ignore[arg-type]
                       fallback=lambda: fallback, sims=[sim], roller="roll")  # fmt: skip
    web = WebTable(referee, WebConfig(), parts=parts)
    assert web.host_payload()["problems"] == []
    start(referee, "glory", ["red", "blue"])
    problems = parts.rebuild()
    assert [p.code for p in problems] == ["table/camera-off"]
    # the profile of another game is its own file beside the table's, never the first game's
    assert camera.asked == [tmp_path / "t.db.board.glory.json"]
    assert fallback.running  # the move-level table plays while the camera cannot
    shown = web.host_payload()
    assert shown["parts_game"] == "glory"
    (problem,) = shown["problems"]
    assert "Glory" in problem["messages"]["en"] and "pink" in problem["messages"]["en"]
    assert "Kamera" in problem["messages"]["pl"] and "{" not in problem["messages"]["pl"]
    assert problem["message"] == problem["messages"][referee.lang]
    referee.store.close()


def test_the_same_game_and_seats_rebuild_nothing(tmp_path: Path) -> None:
    referee = referee_for(tmp_path, "middle-ages", ("red", "blue", "green"))
    camera = RefusingCamera()
    parts = TableParts(referee, camera=camera)  # type: ignore[arg-type]
    start(referee, "middle-ages", ["red", "blue", "green"])
    assert parts.rebuild() == [] and camera.asked == [] and parts.rebuilds == 0
    referee.store.close()


def test_the_dice_roller_follows_the_game(tmp_path: Path) -> None:
    referee = referee_for(tmp_path, "middle-ages", ("red", "blue", "green"))
    sim = Driver()
    parts = TableParts(referee, sims=[sim], roller="roll")
    start(referee, "glory", ["red", "blue"])
    parts.rebuild()
    assert sim.roller == "roll"  # Glory's duels roll dice through the tower
    start(referee, "middle-ages", ["red", "blue"])
    parts.rebuild()
    assert sim.roller is None  # Middle Ages has no dice
    referee.store.close()


def test_a_real_simulated_camera_switches_to_another_game(tmp_path: Path) -> None:
    referee = referee_for(tmp_path, "france1429", ("green", "blue", "magenta"))
    camera = open_camera_table(referee, "camera-sim", CameraConfig(mode="all", delay=0))
    calibrator = Calibrator(camera, "france1429")
    parts = TableParts(referee, camera=camera, calibrator=calibrator)
    start(referee, "viscounts", ["red", "blue", "green"])
    assert parts.rebuild() == []
    assert calibrator.builtin.name == "viscounts"  # the calibration page asks for its regions
    assert camera.sim.profile.name == "viscounts" and camera.pipeline.profile.name == "viscounts"
    camera.settle()  # the Viscounts table is laid out and filmed (France's layout failed here)
    assert camera.step("move") in ("camera", "confirmed", "mirror")
    assert referee.state_id >= 1
    referee.store.close()


def test_profile_files_are_per_game() -> None:
    base = Path("/x/herald.db.board.json")
    assert profile_for(base, "glory", "glory") == base
    assert profile_for(base, "viscounts", "glory") == Path("/x/herald.db.board.viscounts.json")
    assert profile_for(None, "glory", "france1429") is None


def test_a_camera_table_offers_its_sticker_colours_and_france_seats_magenta(
    tmp_path: Path,
) -> None:
    referee = referee_for(tmp_path, "france1429", ("green", "blue", "magenta"))
    camera = open_camera_table(referee, "camera-sim", CameraConfig(mode="all", delay=0))
    parts = TableParts(referee, camera=camera)
    games = {g["key"]: g for g in choices(colours_for=parts.colours_for)["games"]}
    assert games["france1429"]["seats"] == ["green", "blue", "magenta"]
    assert games["viscounts"]["seats"] == ["red", "blue", "green"]
    assert "sir" not in games["glory"]["colours"]  # Glory's solo knight is no colour
    assert "magenta" in seat_colours("france1429") and "magenta" not in seat_colours("glory")
    setup = {"game": "france1429", "seats": [{"seat": s} for s in ("green", "blue", "magenta")],
             "options": {}}  # fmt: skip
    assert read_setup(setup).seats == ("green", "blue", "magenta")
    with pytest.raises(SetupError) as refused:
        read_setup({**setup, "game": "glory"})
    assert refused.value.code == "setup/colour"
    referee.store.close()


def test_a_problem_fills_its_reason_in_each_language() -> None:
    problem = Problem.of("table/camera-off", CameraError("camera/no-profile", game="x"), game="X")
    assert problem.text("en") != problem.text("pl") and "{" not in problem.text("pl")
    assert isinstance(CameraTable, type)


def test_a_camera_that_dies_mid_game_is_said_and_the_moves_table_plays_on(tmp_path: Path) -> None:
    referee = referee_for(tmp_path, "middle-ages", ("red", "blue", "green"))
    camera, fallback = RefusingCamera(), Driver()
    told: list[int] = []
    parts = TableParts(referee, camera=camera, fallback=lambda: fallback,  # type: ignore[arg-type]
                       changed=lambda: told.append(1))  # fmt: skip
    camera.on_failure(RuntimeError("the frame source broke"))  # type: ignore[attr-defined]
    (problem,) = parts.problems_json("pl")
    assert problem["code"] == "table/camera-failed"
    assert "the frame source broke" in problem["message"] and "Kamera" in problem["message"]
    assert fallback.running and told == [1]
    referee.store.close()
