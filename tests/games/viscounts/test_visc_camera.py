"""Viscounts of the West Kingdom read from the table: its camera profile (the circular main
board with the Castle, the decks and stacks, four player areas), the layout of every piece, and
moves read back (digest §2 "what a camera must distinguish", §10 "inputs from the table").

What every game a camera reads does (its sticker sheet, the simulated camera table playing it,
a first move photographed) is tests/conformance/test_camera_games.py."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from bridge import gamedata as bridge_data
from bridge.camera import profile_seats
from bridge.game_files import camera_profile, camera_profile_path, face_map_path, placer
from engine import data as gamedata
from engine import registry
from engine.games.viscounts import turn
from engine.games.viscounts.layout import KINDS, board_profile, camera_faces
from engine.games.viscounts.moves import (
    Build,
    Hire,
    PickPair,
    Play,
    Reveal,
    Transcribe,
    Travel,
    Workers,
)
from engine.games.viscounts.state import VState
from vision.faces import face_map_for
from vision.markers import usable_ids
from vision.pipeline import Pipeline
from vision.sim import lay_out, render_placed, standin_face_map, standin_faces
from vision.slots import SlotClassifier

GAME = registry.get_game("viscounts")
PROFILE = camera_profile("viscounts")
PLACE = placer("viscounts", PROFILE)
OPTIONS = {"data": "stand-in", "max_rounds": 8}


def _truth(state: VState) -> list[dict[str, Any]]:
    """What a perfect reader reports of the table, reading every kind everywhere."""
    coverage = {"component": "coverage", "attrs": {"kinds": list(KINDS)}}
    return [*lay_out(PLACE(state), PROFILE)[1], coverage]


def _shows(state: VState, after: VState) -> bool:
    return lay_out(PLACE(after), PROFILE)[0] != lay_out(PLACE(state), PROFILE)[0]


def _play_until(players: int, done: Callable[[VState], bool], seed: int = 3) -> VState:
    """A simulated game (random legal moves, sampled chance) up to the first state ``done``."""
    for game_seed in range(seed, seed + 20):
        state = gamedata.setup(GAME, profile_seats(PROFILE)[:players], OPTIONS)
        rng = random.Random(game_seed)
        while not GAME.is_over(state):
            if done(state):
                assert isinstance(state, VState)
                return state
            moves = GAME.legal_moves(state)
            move = rng.choice(moves) if moves else GAME.sample_chance(state, rng)
            state = GAME.apply_unchecked(state, move)
    raise AssertionError("the simulated games never reached the wanted position")


def _has(kind: type) -> Callable[[VState], bool]:
    return lambda s: any(isinstance(m, kind) for m in GAME.legal_moves(s))


def test_the_shipped_profile_and_face_map_are_the_stand_in_laid_out() -> None:
    """camera/profile.json is ``board_profile`` of the stand-in data with the printable ids;
    camera/faces.json is the stand-in art's face map (``herald vision faces``)."""
    loaded = bridge_data.load(GAME, {"data": "stand-in"})
    assert loaded is not None
    data = loaded.value
    path = camera_profile_path("viscounts")
    assert path is not None
    shipped = json.loads(path.read_text(encoding="utf-8"))
    assert shipped == board_profile(data, usable_ids("4x4_250"))
    faces = face_map_path("viscounts")
    assert faces is not None
    expected = standin_face_map(camera_faces(data), "viscounts").to_text()
    assert faces.read_text(encoding="utf-8") == expected


def test_the_profile_names_every_piece_and_colour_and_no_regions_overlap() -> None:
    """§2: 20 Workers, 3 Workshops, 3 Trading Posts, 3 Guildhalls, a Viscount and a Virtue and
    a Corruption marker a colour; every town space, building site and Castle section of the
    board a region; no two regions (nor a corner marker) overlap."""
    state = gamedata.setup(GAME, profile_seats(PROFILE)[:4], OPTIONS)
    data = state.data
    assert data.board is not None
    regions = {r.name: r.rect for r in PROFILE.regions}
    assert {f"town:{t.id}" for t in data.board.towns} <= set(regions)
    assert {f"site:{s.id}" for s in data.board.sites} <= set(regions)
    assert {f"castle:1:{i}" for i in range(len(state.castle.level1))} <= set(regions)
    assert {f"castle:2:{j}" for j in range(len(state.castle.level2))} <= set(regions)
    assert {f"deck:{k}" for k in range(5)} | {f"stack:{k}" for k in range(5)} <= set(regions)
    rects = list(regions.values())
    half = PROFILE.corner_marker_mm / 2
    rects += [(x - half, y - half, 2 * half, 2 * half) for x, y in PROFILE.corner_centers_mm]
    for i, (x, y, w, h) in enumerate(rects):
        assert x >= 0 and y >= 0 and x + w <= PROFILE.width_mm and y + h <= PROFILE.height_mm
        for x2, y2, w2, h2 in rects[i + 1 :]:
            assert x + w <= x2 or x2 + w2 <= x or y + h <= y2 or y2 + h2 <= y
    assert profile_seats(PROFILE) == ("red", "blue", "green", "yellow")
    labels = list(PROFILE.markers.values())
    for seat in profile_seats(PROFILE):
        assert labels.count(f"worker:{seat}") == 20
        for kind in ("workshop", "trading-post", "guildhall"):
            assert labels.count(f"{kind}:{seat}") == 3
        for kind in ("viscount", "virtue", "corruption"):
            assert labels.count(f"{kind}:{seat}") == 1
    assert {f"favour:{f.id}" for f in data.church_favour} <= set(labels)
    assert set(PROFILE.markers) <= set(usable_ids(PROFILE.dictionary))
    assert PROFILE.width_mm <= 635 and PROFILE.height_mm <= 387  # the simulated camera frames it


def test_a_pair_taken_a_card_played_and_a_journey_are_read_as_those_moves() -> None:
    """§3 step 9 (the Viscount set on its Player card's town), §4 phase 1 (the card played on
    the leftmost space, the others pushed right) and phase 2 (the Viscount moved): each reads
    as that move, and the position as itself."""
    for kind in (PickPair, Play, Travel):
        state = _play_until(3, _has(kind))
        assert GAME.interpret(state, _truth(state)).unchanged
        moves = [m for m in GAME.legal_moves(state) if isinstance(m, kind)]
        assert moves
        for move in moves:
            after = GAME.apply_unchecked(state, move)
            if not _shows(state, after):
                continue  # a journey round the whole ring back to its town: asked on a phone
            verdict = GAME.interpret(state, _truth(after))
            assert verdict.moves == (_as_read(state, move),), (move, verdict)


def _as_read(state: VState, move: Any) -> Any:
    """The move as the camera reads it: a journey as the shortest walk to its town (VW-60,
    seed L359-363: a longer walk there only costs Silver); any other move as itself."""
    if not isinstance(move, Travel):
        return move
    walks = [m for m in GAME.legal_moves(state) if isinstance(m, Travel) and m.town == move.town]
    return min(walks, key=lambda m: m.spaces)


def test_a_longer_walk_to_the_same_town_reads_as_the_shortest() -> None:
    """§4 phase 2 (seed L359-363): "they may move further by discarding Silver (1 Silver for
    each extra space)". The table shows only the town; of the walks ending there the camera
    reads the shortest, not asking (VW-60), and a town only one walk reaches reads as it."""

    def walks(s: VState) -> list[Travel]:
        return [m for m in GAME.legal_moves(s) if isinstance(m, Travel)]

    state = _play_until(3, lambda s: len({m.town for m in walks(s)}) < len(walks(s)))
    towns = {m.town for m in walks(state)}
    longer = [m for m in walks(state) if m != _as_read(state, m)]
    assert longer
    for move in longer:
        verdict = GAME.interpret(state, _truth(GAME.apply_unchecked(state, move)))
        assert verdict.moves == (_as_read(state, move),) != (move,)
        assert not verdict.candidates
    assert len(towns) > 1


@pytest.mark.parametrize("kind", [Build, Workers, Transcribe, Hire])
def test_a_main_action_and_a_hire_are_read_as_those_moves(kind: type) -> None:
    """§5.2 a Building from the strip to a site, §5.3 Workers in the level-1 section, §5.4 the
    Manuscript taken off its stack, §4 phase 4 the card beside the Viscount hired (the deck's
    next card shows): each reads as that move or is asked among moves leaving the same
    table (a dismissal paying with Silver, say); never as another move."""
    state = _play_until(2, _has(kind))
    read = 0
    for move in [m for m in GAME.legal_moves(state) if isinstance(m, kind)]:
        after = GAME.apply_unchecked(state, move)
        verdict = GAME.interpret(state, _truth(after))
        assert verdict.moves == (move,) or (move,) in verdict.candidates, (move, verdict)
        read += verdict.moves == (move,)
    assert read >= 1


def test_a_card_played_blind_from_the_deck_is_read_from_the_table() -> None:
    """§4 phase 1: with an empty hand the top card of the deck is played blind; the card on
    the leftmost space names it (the table's Reveal). A card drawn into a hand is hidden: the
    table shows nothing new, so the drawing player's phone reports it."""
    state = _play_until(2, _has(Play))
    i = state.active()
    p = state.players[i]
    state = turn.advance(state.with_player(i, hand=(), deck=tuple(sorted(p.deck + p.hand))))
    assert state.ask is not None and (state.ask.asks, state.ask.purpose) == ("reveal", "play")
    for card in sorted(set(state.players[i].deck)):
        move = Reveal(p.seat, card)
        verdict = GAME.interpret(state, _truth(GAME.apply_unchecked(state, move)))
        assert verdict.moves[:1] == (move,), (move, verdict)
    drawn = _play_until(2, lambda s: s.ask is not None and s.ask.purpose == "hand")
    owner = drawn.players[drawn.ask.seat] if drawn.ask else None
    assert owner is not None
    after = GAME.apply_unchecked(drawn, Reveal(owner.seat, owner.deck[0]))
    assert GAME.interpret(drawn, _truth(after)).unchanged


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_position_of_a_simulated_game_lies_on_the_board_and_reads_as_itself(
    players: int,
) -> None:
    """Simulated games (1-4 players, the solo AI a seat of its own; up to 500 moves): every
    position fits the board's regions with its stickers and reads as itself; every seat move
    the table shows reads as that move, or the referee asks (another move leaves the same
    table)."""
    state = gamedata.setup(GAME, profile_seats(PROFILE)[:players], OPTIONS)
    rng = random.Random(players)
    shown = read = 0
    for _ in range(500):
        if GAME.is_over(state):
            break
        assert GAME.interpret(state, _truth(state)).unchanged
        moves = GAME.legal_moves(state)
        move = rng.choice(moves) if moves else GAME.sample_chance(state, rng)
        after = GAME.apply_unchecked(state, move)
        if moves and _shows(state, after):
            verdict = GAME.interpret(state, _truth(after))
            seen = _as_read(state, move)  # a longer walk reads as the shortest one (VW-60)
            assert (
                verdict.moves[:1] == (seen,)
                or (seen,) in verdict.candidates
                or any(c[:1] == (seen,) for c in verdict.candidates)
            ), (move, verdict)
            shown += 1
            read += verdict.moves[:1] == (seen,)
        state = after
    assert shown and read >= shown // 2


def test_a_photographed_move_is_read_back_through_the_pipeline() -> None:
    """The simulated camera photographs a card played and a journey; the real pipeline reads
    the stickers and the cards' faces, and the rules name each move."""
    faces = face_map_for(face_map_path("viscounts"))
    pipe = Pipeline(profile=PROFILE, slots=SlotClassifier(standin_faces(faces.faces)))

    def read(image: Any) -> list[dict[str, Any]]:
        snapshot = pipe.snapshot(pipe.detect(image), 0.0)
        return [o.to_json() for o in faces.apply(snapshot.observations)]

    state = _play_until(3, _has(Play))
    before = render_placed(PLACE(state), seed=31, profile=PROFILE)
    assert GAME.interpret(state, read(before.image)).unchanged
    move = next(m for m in GAME.legal_moves(state) if isinstance(m, Play))
    after = GAME.apply_unchecked(state, move)
    shot = render_placed(PLACE(after), seed=32, profile=PROFILE, camera=before.camera)
    assert GAME.interpret(state, read(shot.image)).moves == (move,)
    travel = next(m for m in GAME.legal_moves(after) if isinstance(m, Travel))
    moved = GAME.apply_unchecked(after, travel)
    shot2 = render_placed(PLACE(moved), seed=33, profile=PROFILE, camera=before.camera)
    verdict = GAME.interpret(after, read(shot2.image))
    assert verdict.moves == (travel,) or (travel,) in verdict.candidates
