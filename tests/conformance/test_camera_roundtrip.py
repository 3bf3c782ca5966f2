"""For every game a camera can read: its layout of a position, photographed by the simulated
camera and read by the real vision pipeline, is interpreted by the game's rules as the move
that was made (render → vision → interpret gives back the move)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bridge.camera import profile_seats
from bridge.game_files import camera_profile, drawable_games, face_map_path, placer
from engine import data as gamedata
from engine import registry
from vision.faces import face_map_for
from vision.pipeline import Pipeline
from vision.sim import lay_out, render_placed, standin_faces
from vision.slots import SlotClassifier

GAMES = drawable_games()


def _read(pipe: Pipeline, faces: Any, image: Any) -> list[dict[str, Any]]:
    snapshot = pipe.snapshot(pipe.detect(image), 0.0)
    return [o.to_json() for o in faces.apply(snapshot.observations)]


@pytest.mark.skipif(not GAMES, reason="no registered game ships a camera profile")
@pytest.mark.parametrize("key", GAMES)
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
