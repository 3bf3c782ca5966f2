"""Seats named by the box's family colours (issue #24, "found when a second box was typed in by
hand": seats took the stand-in's colour names). A game whose families' colours are printed in
its data (France 1429's ``colours``, Viscounts' ``colours``) seats a table playing a group's box by
that box's colours: the New game form offers them and accepts them, ``herald serve --box`` seats
by them, and France's camera profile for the box has a Family Board and stickers per colour."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bridge import gamedata
from bridge.box.file import box_data
from bridge.box.library import import_box
from bridge.box.workshop import Draft
from bridge.camera import profile_seats
from bridge.cli.serve import _box_seats
from bridge.referee import Principal, Referee
from bridge.seats import data_seat_names, family_colours, seat_names
from bridge.store import EventStore
from bridge.table_setup import SetupError, choices, read_setup
from engine import data as engine_data
from engine import registry
from engine.capabilities import BOARD_PROFILE, capability
from engine.games.viscounts.layout import colour_of
from engine.seat_words import seat_words
from vision.calibration import load_profile
from vision.markers import usable_ids

from .generated import france_files
from .generated_viscounts import viscounts_files

FAMILIES = ["black", "orange", "purple", "gold", "grey", "brown"]
SEATED = tuple(FAMILIES)


def _france_box(name: str = "our France") -> Any:
    files = france_files(21, 9)
    files["data.json"]["colours"] = [{"name": c} for c in FAMILIES]
    return Draft("france1429", name, "data.json", files).box()


def test_a_france_box_seats_its_players_by_its_own_colours() -> None:
    game = registry.get_game("france1429")
    data = box_data(game, _france_box(), "/boxes/ours.herald-box")
    assert family_colours(game, data) == SEATED
    assert data_seat_names(game, data, 4) == SEATED[:4]
    shipped = gamedata.load(game, {"data": "stand-in"})
    assert family_colours(game, shipped) == ()  # a shipped set keeps the table's usual seats
    assert data_seat_names(game, shipped, 3) == seat_names(3)


def test_a_box_with_too_few_or_clashing_colours_keeps_the_usual_seats() -> None:
    game = registry.get_game("viscounts")

    def seats_of(colours: list[Any]) -> tuple[str, ...]:
        files = viscounts_files(2)
        files["data.json"]["colours"] = colours
        data = box_data(game, Draft("viscounts", "b", "data.json", files).box(), "/b.herald-box")
        return data_seat_names(game, data, 3)

    assert seats_of(["Dark Blue", "Żółty", "red", "teal"]) == ("darkblue", "zolty", "red")
    assert seats_of(["Blue", "blue", "red", "green"]) == seat_names(3)  # one name twice
    assert seats_of(["red", "x", "green", "blue"]) == seat_names(3)  # "x" is no seat name
    assert seats_of(["red", None, None, "blue"]) == seat_names(3)  # two colours known


def test_the_camera_profile_of_a_france_box_has_its_colours_stickers(tmp_path: Path) -> None:
    game = registry.get_game("france1429")
    data = box_data(game, _france_box(), "/boxes/ours.herald-box")
    maker = capability(game, BOARD_PROFILE)
    assert maker is not None
    shipped = registry.package_files("france1429").joinpath("camera").joinpath("profile.json")
    dictionary = json.loads(shipped.read_text(encoding="utf-8"))["dictionary"]
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(maker.board_profile(data, usable_ids(dictionary))), "utf-8")
    profile = load_profile(path)
    assert profile_seats(profile) == SEATED
    regions = {r.name for r in profile.regions}
    assert {f"seat:{c}/family" for c in SEATED} <= regions
    assert "seat:green/family" not in regions


@pytest.mark.parametrize("key", ["france1429", "viscounts"])
def test_new_game_offers_and_accepts_the_box_colours(tmp_path: Path, key: str) -> None:
    library = tmp_path / "d.db.boxes"
    game = registry.get_game(key)
    if key == "france1429":
        box, colours = _france_box(), list(SEATED)
    else:
        files = viscounts_files(3)
        box = Draft(key, "our Viscounts", "data.json", files).box()
        colours = files["data.json"]["colours"]
    kept = import_box(box, game, library)
    value = f"box:{kept.path.name}"
    offered = next(g for g in choices(library)["games"] if g["key"] == key)
    assert offered["data_boxes"][0]["colours"] == colours
    seats = [{"seat": c, "name": ""} for c in colours[:3]]
    setup = read_setup({"game": key, "seats": seats, "options": {"data": value}}, library)
    assert setup.seats == tuple(colours[:3])
    with pytest.raises(SetupError):  # the box's colours are not the shipped set's
        read_setup({"game": key, "seats": seats, "options": {"data": "stand-in"}}, library)


def test_a_game_started_on_the_box_names_its_seats_by_the_box_colours(tmp_path: Path) -> None:
    library = tmp_path / "d.db.boxes"
    kept = import_box(_france_box(), registry.get_game("france1429"), library)
    referee = Referee.open(EventStore(tmp_path / "d.db"), registry.get_game("middle-ages"),
                           "t1", ("blue", "green"), {})  # fmt: skip
    referee.box_library = library
    seats = [{"seat": c, "name": n} for c, n in zip(SEATED[:3], ("Ala", "", "Olek"), strict=True)]
    setup = {"game": "france1429", "seats": seats, "options": {"data": f"box:{kept.path.name}"}}
    outcome = referee.intent(Principal("host"), {"state_id": referee.state_id, "kind": "start",
                                                 "setup": setup})  # fmt: skip
    assert outcome.ok, outcome
    assert tuple(referee.row.header.players) == SEATED[:3]
    assert referee.game.seats(referee.session.state) == SEATED[:3]


def test_serve_box_seats_the_table_by_the_box_colours(tmp_path: Path) -> None:
    path = tmp_path / "ours.herald-box"
    path.write_bytes(_france_box().to_bytes())
    game = registry.get_game("france1429")
    assert _box_seats(game, str(path), 4) == SEATED[:4]
    path.write_bytes(b"not a box")  # refused later, in its own sentence; the seats are the usual
    assert _box_seats(game, str(path), 4) == seat_names(4)


def test_a_viscounts_box_camera_profile_and_layout_use_its_colours(tmp_path: Path) -> None:
    game = registry.get_game("viscounts")
    files = viscounts_files(4)
    data = box_data(game, Draft("viscounts", "v", "data.json", files).box(), "/v.herald-box")
    colours = tuple(files["data.json"]["colours"])
    maker = capability(game, BOARD_PROFILE)
    assert maker is not None
    shipped = registry.package_files("viscounts").joinpath("camera").joinpath("profile.json")
    dictionary = json.loads(shipped.read_text(encoding="utf-8"))["dictionary"]
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(maker.board_profile(data, usable_ids(dictionary))), "utf-8")
    profile = load_profile(path)
    assert profile_seats(profile) == colours
    assert {f"seat:{c}/discard" for c in colours} <= {r.name for r in profile.regions}
    state = selfplay_state(game, data, colours[:2])
    assert [colour_of(state, i) for i in range(2)] == list(colours[:2])


def selfplay_state(game: Any, data: Any, seats: tuple[str, ...]) -> Any:
    """A new game's state on ``data`` with ``seats``."""
    return engine_data.setup(game, seats, {"data": "ours"}, data)


def test_a_colour_becomes_a_plain_word() -> None:
    assert seat_words(["Dark Blue", "Żółty", "red"]) == ("darkblue", "zolty", "red")
    assert seat_words(["Blue", "blue"]) == () and seat_words(["x", "red"]) == ()
