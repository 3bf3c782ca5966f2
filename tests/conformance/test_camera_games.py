"""For every game a camera can read, through the game contract alone (its camera profile,
``layout`` and ``interpret``): its sticker sheet prints every sticker of the profile; its
layout of a position, photographed by the simulated camera and read by the real vision
pipeline, is interpreted by the game's rules as the move that was made (render → vision →
interpret gives back the move); and the simulated camera table (``herald serve``'s default for
a game it can draw) plays it with the referee reading the moves from the frames.

Each game's own readings (a move two roads away, a crest registered, a card played blind, whole
simulated games laid out) are in tests/games/<key>/test_*_camera.py.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from bridge.autopass import SOURCE as AUTO
from bridge.camera import CameraConfig, choose_table, open_camera_table, profile_seats
from bridge.cli import main
from bridge.game_files import camera_games, camera_profile, drawable_games, face_map_path, placer
from bridge.referee import Referee
from bridge.store import EventStore
from engine import codec, registry
from engine import data as gamedata
from engine.selfplay import setups
from vision.faces import face_map_for
from vision.markers import MarkerDetector, usable_ids
from vision.pipeline import Pipeline
from vision.sim import lay_out, render_placed, standin_faces
from vision.slots import SlotClassifier
from vision.stickers import printable

GAMES = drawable_games()
PROFILED = camera_games()
FILMED_KINDS = 3
"""Kinds of move the simulated camera table must have the referee read from its frames."""
FILMED_STEPS = 60
"""At most this many moves of the simulated table to get there."""


def _by_game(keys: tuple[str, ...]) -> list[Any]:
    """The keys, each game's tests in a worker group of their own (tests/conftest.py): the games
    spread over the workers."""
    return [pytest.param(k, marks=pytest.mark.xdist_group(f"camera-{k}")) for k in keys]


def _read(pipe: Pipeline, faces: Any, image: Any) -> list[dict[str, Any]]:
    snapshot = pipe.snapshot(pipe.detect(image), 0.0)
    return [o.to_json() for o in faces.apply(snapshot.observations)]


@pytest.mark.skipif(not GAMES, reason="no registered game ships a camera profile")
@pytest.mark.parametrize("key", _by_game(GAMES))
def test_a_photographed_move_is_read_back_as_that_move(key: str) -> None:
    game = registry.get_game(key)
    profile = camera_profile(key)
    place = placer(key, profile)
    faces = face_map_for(face_map_path(key))
    pipe = Pipeline(profile=profile, slots=SlotClassifier(standin_faces(faces.faces)))
    setup = next(iter(game.info.simulations), None)
    count = setup.players if setup else game.info.min_players
    seats = profile_seats(profile)[:count]  # the seat colours the profile's stickers name
    state = gamedata.setup(game, seats, setup.options if setup else {})
    rng = random.Random(5)
    # play to the first seat move (every chance move of the setup observed)
    while not game.legal_moves(state):
        state = game.apply_unchecked(state, game.sample_chance(state, rng))
    before = render_placed(place(state), seed=11, profile=profile)
    assert game.interpret(state, _read(pipe, faces, before.image)).unchanged
    read_back = 0
    for move in game.legal_moves(state)[:3]:
        after = game.apply_unchecked(state, move)
        if lay_out(place(after), profile)[0] == lay_out(place(state), profile)[0]:
            continue  # a move the table does not show: confirmed on a phone, never read
        shot = render_placed(place(after), seed=12, profile=profile, camera=before.camera)
        verdict = game.interpret(state, _read(pipe, faces, shot.image))
        assert verdict.moves in ((), (move,)) or verdict.moves[0] == move, (move, verdict)
        read_back += verdict.moves[:1] == (move,)
    assert read_back >= 1


@pytest.mark.skipif(not PROFILED, reason="no registered game ships a camera profile")
@pytest.mark.parametrize("key", _by_game(PROFILED))
def test_the_sticker_sheet_prints_every_sticker_with_its_label(key: str, tmp_path: Path) -> None:
    """``herald stickers --game KEY``: every sticker of the profile and the four corners are
    printed and detect with their ids, each under its label (the PDF's core font is Latin-1,
    so ``Władysław`` is printed ``Wladyslaw``)."""
    profile = camera_profile(key)
    assert set(profile.markers) <= set(usable_ids(profile.dictionary))
    pdf = tmp_path / f"{key}.pdf"
    res = CliRunner().invoke(main, ["stickers", "--game", key, "--out", str(pdf)])
    assert res.exit_code == 0, res.output
    found: set[int] = set()
    text = ""
    for page in pdfium.PdfDocument(str(pdf)):
        image = page.render(scale=150 / 72, grayscale=True).to_numpy()
        found |= {m.id for m in MarkerDetector().detect(image.astype("uint8"))}
        text += page.get_textpage().get_text_range()
    assert found == {*profile.corner_ids, *profile.markers}
    missing = {label for label in profile.markers.values() if printable(label) not in text}
    assert not missing, sorted(missing)[:10]


@pytest.mark.skipif(not GAMES, reason="no registered game ships a camera profile")
@pytest.mark.parametrize("key", _by_game(GAMES))
def test_the_simulated_camera_table_plays_the_game_and_the_referee_reads_moves(
    key: str, tmp_path: Path
) -> None:
    """``herald serve --game KEY`` (camera-sim, the default for a game the camera can draw):
    each move is filmed at 1280x720, the tracker and pipeline read the frames and the rules
    name the move, for several kinds of move; a move the table does not show (a card drawn, a
    die, a sealed vote, a pass) is confirmed by the simulated person, a question the camera asks
    is answered by the asked seat's simulated phone, and a move the referee made by itself (an
    automatic pass) is mirrored. What the referee stored, besides its own moves,
    is what the simulator chose."""
    assert choose_table(key, None, None, tts=False) == ("camera-sim", False)
    game = registry.get_game(key)
    setup = setups(game)[0]
    seats = profile_seats(camera_profile(key))[: setup.players]
    referee = Referee.open(EventStore(tmp_path / "t.db"), game, "t1", seats, setup.options)
    camera = open_camera_table(referee, "camera-sim", CameraConfig(fps=0, confirm_s=0, seed=4))
    camera.settle()

    def filmed() -> set[str]:
        return {type(m).__name__ for m, how in camera.stats.chosen if how == "camera"}

    while len(filmed()) < FILMED_KINDS:
        assert len(camera.stats.chosen) < FILMED_STEPS, camera.stats.chosen
        assert camera.step("move") in ("camera", "answered", "confirmed", "mirror")
    events = referee.store.events(referee.row.id)
    stored = [e.payload["move"] for e in events if e.source != AUTO]
    assert stored == [codec.encode(m) for m, _ in camera.stats.chosen]
