"""Glory read from the table: its camera profile, stand-in faces and layout, and moves read back
through the real vision pipeline (rules/glory.md §2.1 components, §4.2 actions, §4.5
registration).

What every game a camera reads does (its sticker sheet, the simulated camera table playing it,
a first move photographed) is tests/conformance/test_camera_games.py."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from play_until import play_until

from bridge import gamedata as bridge_data
from bridge.camera import profile_seats
from bridge.game_files import camera_profile, face_map_path, placer
from engine import data as gamedata
from engine import registry
from engine.games.glory.state import GloryState, Place, Register
from vision.faces import face_map_for
from vision.pipeline import Pipeline
from vision.sim import lay_out, render_placed, standin_faces
from vision.slots import SlotClassifier
from vision.stickers import printable

GAME = registry.get_game("glory")
PROFILE = camera_profile("glory")
PLACE = placer("glory", PROFILE)


def _play_until(
    options: dict[str, Any], players: int, done: Callable[[GloryState], bool], seed: int = 3
) -> GloryState:
    """A simulated game up to the first state ``done`` (``play_until``)."""
    state: GloryState = play_until(GAME, profile_seats(PROFILE)[:players], options, done, seed)
    return state


def _has(kind: type, **where: Any) -> Callable[[GloryState], bool]:
    def check(state: GloryState) -> bool:
        return any(
            isinstance(m, kind) and all(getattr(m, k) == v for k, v in where.items())
            for m in GAME.legal_moves(state)
        )

    return check


COVERAGE = {"component": "coverage", "attrs": {"kinds": ["pawn", "crest", "knight", "tile"]}}
"""The camera table reads every kind everywhere (``TableReader.observations``)."""


def _truth(state: GloryState) -> list[dict[str, Any]]:
    """What a perfect reader reports of the table (the layout's own observations), reading
    every kind everywhere (as the camera table declares: ``coverage``)."""
    return [*lay_out(PLACE(state), PROFILE)[1], COVERAGE]


def test_the_shipped_face_map_is_generated_from_both_shipped_sets() -> None:
    """camera/faces.json is the game's own camera_faces of the box and the stand-in set."""
    faces: dict[str, dict[str, Any]] = {}
    for data in ("box", "stand-in"):
        faces.update(GAME.camera_faces(bridge_data.load(GAME, {"data": data})))
    path = face_map_path("glory")
    assert path is not None
    assert json.loads(path.read_text(encoding="utf-8"))["faces"] == faces
    assert {"card": "gra", "deck": "romance"} in faces.values()


def test_the_profile_names_every_field_knight_and_seat_the_sets_use() -> None:
    regions = {r.name for r in PROFILE.regions}
    labels = set(PROFILE.markers.values())
    for data in ("box", "stand-in"):
        box = bridge_data.load(GAME, {"data": data}).value
        assert {f"field:{f.id}" for f in box.data.fields} <= regions
        assert {f"knight:{k}" for k in box.data.knights} <= labels
    assert "field:event" in regions
    assert profile_seats(PROFILE)[:4] == ("red", "blue", "green", "yellow")
    # six pawns and four crests per seat (§2.3)
    for seat in profile_seats(PROFILE):
        assert list(PROFILE.markers.values()).count(f"pawn:{seat}") == 6
        assert list(PROFILE.markers.values()).count(f"crest:{seat}") == 4


@pytest.mark.parametrize(
    ("options", "players", "field"),
    [
        ({"data": "stand-in", "tournament": "joust"}, 2, "quest-plans"),
        ({"data": "stand-in", "tournament": "joust"}, 3, "allies"),
        ({"data": "stand-in", "tournament": "pas-d-armes"}, 4, "service-4"),
        ({"data": "stand-in", "tournament": "joust"}, 2, "training"),
    ],
)
def test_a_pawn_placed_on_a_field_is_read_as_that_action(
    options: dict[str, Any], players: int, field: str
) -> None:
    """§4.2 [L385-395]: a pawn on an action field, with what the action took from the board
    (a face-up Quest card, an Ally Track token), is that Place move;
    when two moves leave the same table the referee asks instead of guessing."""
    state = _play_until(options, players, _has(Place, field=field))
    assert GAME.interpret(state, _truth(state)).unchanged
    read = 0
    for move in [m for m in GAME.legal_moves(state) if isinstance(m, Place) and m.field == field]:
        verdict = GAME.interpret(state, _truth(GAME.apply_unchecked(state, move)))
        if verdict.moves:
            assert verdict.moves == (move,)
            read += 1
        else:
            assert any(c == (move,) for c in verdict.candidates), verdict
    assert read >= 1


def test_a_registered_crest_is_read_as_that_registration() -> None:
    """§4.5 [L604-616]: a crest beside a Knight (Pas d'armes) is that Registration."""
    options = {"data": "stand-in", "tournament": "pas-d-armes"}
    state = _play_until(options, 3, lambda s: s.phase == "registration" and _has(Register)(s))
    moves = [m for m in GAME.legal_moves(state) if isinstance(m, Register) and m.slot is not None]
    assert moves
    for move in moves:
        verdict = GAME.interpret(state, _truth(GAME.apply_unchecked(state, move)))
        assert verdict.moves == (move,), verdict


def test_a_photographed_action_is_read_back_through_the_pipeline() -> None:
    """The simulated camera photographs a Quest Plans action (pawn placed, face-up card
    taken); the real pipeline reads it and the rules name the move."""
    faces = face_map_for(face_map_path("glory"))
    pipe = Pipeline(profile=PROFILE, slots=SlotClassifier(standin_faces(faces.faces)))

    def read(image: Any) -> list[dict[str, Any]]:
        snapshot = pipe.snapshot(pipe.detect(image), 0.0)
        return [o.to_json() for o in faces.apply(snapshot.observations)]

    options = {"data": "stand-in", "tournament": "joust"}
    state = _play_until(options, 2, _has(Place, field="quest-plans"))
    before = render_placed(PLACE(state), seed=21, profile=PROFILE)
    assert GAME.interpret(state, read(before.image)).unchanged
    move = next(
        m
        for m in GAME.legal_moves(state)
        if isinstance(m, Place) and m.field == "quest-plans" and m.take and not m.draw
    )
    after = GAME.apply_unchecked(state, move)
    shot = render_placed(PLACE(after), seed=22, profile=PROFILE, camera=before.camera)
    verdict = GAME.interpret(state, read(shot.image))
    assert verdict.moves == (move,) or (move,) in verdict.candidates, verdict


@pytest.mark.parametrize("setup", GAME.info.simulations, ids=lambda s: f"{s.players}p-{s.options}")
def test_every_position_of_a_simulated_game_lies_on_the_board_and_reads_as_itself(
    setup: Any,
) -> None:
    """Whole games of every simulated setup (both tournaments, first game, the solo
    scenarios): every position is laid out in the profile's regions with its stickers, and a
    perfect reader's observation of it is the position unchanged; every seat move the table
    shows is read as that move, or the referee asks (several moves leave the same table)."""
    state = gamedata.setup(GAME, profile_seats(PROFILE)[: setup.players], setup.options)
    rng = random.Random(setup.players)
    shown = 0
    placed = lay_out(PLACE(state), PROFILE)  # each position is laid out once, then carried on
    while not GAME.is_over(state):
        truth = [*placed[1], COVERAGE]
        assert len(truth) == 1 or GAME.interpret(state, truth).unchanged
        moves = GAME.legal_moves(state)
        move = rng.choice(moves) if moves else GAME.sample_chance(state, rng)
        after = GAME.apply_unchecked(state, move)
        placed_after = lay_out(PLACE(after), PROFILE)
        if moves and truth and placed_after[0] != placed[0]:
            verdict = GAME.interpret(state, [*placed_after[1], COVERAGE])
            assert verdict.moves == (move,) or (move,) in verdict.candidates, (move, verdict)
            shown += 1
        state, placed = after, placed_after
    assert shown


def test_polish_knight_names_print_in_the_sheets_latin_1() -> None:
    """The sticker PDF's core font is Latin-1, so a Knight's Polish name is printed without
    the letters it lacks (``Władysław`` as ``Wladyslaw``); the profile has such names (every
    label is found printed so: tests/conformance/test_camera_games.py)."""
    assert printable("knight:Władysław Jagiełło") == "knight:Wladyslaw Jagiello"
    assert any(not label.isascii() for label in PROFILE.markers.values())
