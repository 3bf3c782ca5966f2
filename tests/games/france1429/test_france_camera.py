"""France 1429 read from the table: its camera profile (the stand-in map as the board), the
layout of every counter, and moves read back (digest §2.5 what the camera must distinguish,
§14.1 what it reads; §8.1 movement one road at a time).

What every game a camera reads does (its sticker sheet, the simulated camera table playing it,
a first move photographed) is tests/conformance/test_camera_games.py."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from play_until import play_until

from bridge.camera import profile_seats
from bridge.game_files import camera_profile, camera_profile_path, placer
from engine import data as gamedata
from engine import registry
from engine.games.france1429.geography import parse_map
from engine.games.france1429.layout import KINDS, LORD_IDS, board_profile
from engine.games.france1429.moves import Buy, March, PlaceStart
from engine.games.france1429.state import FranceState
from vision.markers import usable_ids
from vision.pipeline import Pipeline
from vision.sim import lay_out, render_placed

GAME = registry.get_game("france1429")
PROFILE = camera_profile("france1429")
PLACE = placer("france1429", PROFILE)
DATA = Path(__file__).parents[3] / "engine" / "games" / "france1429" / "data"
OPTIONS = {"data": "stand-in", "max_rounds": 3}


def _truth(state: FranceState) -> list[dict[str, Any]]:
    """What a perfect reader reports of the table, reading every kind everywhere (as the
    camera table declares: ``coverage``)."""
    coverage = {"component": "coverage", "attrs": {"kinds": list(KINDS)}}
    return [*lay_out(PLACE(state), PROFILE)[1], coverage]


def _play_until(players: int, done: Callable[[FranceState], bool], seed: int = 3) -> FranceState:
    """A simulated game up to the first state ``done`` (``play_until``)."""
    state: FranceState = play_until(GAME, profile_seats(PROFILE)[:players], OPTIONS, done, seed)
    return state


def test_the_shipped_profile_is_the_stand_in_map_laid_out_on_the_board() -> None:
    """camera/profile.json is ``board_profile`` of the stand-in map with the printable ids."""
    doc = json.loads((DATA / "map-stand-in-invented.json").read_text(encoding="utf-8"))
    path = camera_profile_path("france1429")
    assert path is not None
    shipped = json.loads(path.read_text(encoding="utf-8"))
    assert shipped == board_profile(parse_map(doc), usable_ids("4x4_250"))


def test_the_profile_names_every_village_counter_and_colour() -> None:
    """§2.1-2.2: 13 Men at Arms, 8 Knights and 2 Siege Engines a colour, 18 Lord tokens
    (standing and lying), 15 Mills, 12 Stronghold / Fortified City counters, the title
    counters; a Village region for every Village of the map, none overlapping."""
    state = gamedata.setup(GAME, profile_seats(PROFILE)[:3], OPTIONS)
    regions = {r.name: r.rect for r in PROFILE.regions}
    assert {f"village:{v.id}" for v in state.rules.villages} <= set(regions)
    villages = [rect for name, rect in regions.items() if name.startswith("village:")]
    for i, (x, y, w, h) in enumerate(villages):
        for x2, y2, w2, h2 in villages[i + 1 :]:
            assert x + w <= x2 or x2 + w2 <= x or y + h <= y2 or y2 + h2 <= y
    assert profile_seats(PROFILE) == ("green", "blue", "magenta", "white", "red", "yellow")
    labels = list(PROFILE.markers.values())
    for seat in profile_seats(PROFILE):
        assert labels.count(f"maa:{seat}") == 13
        assert labels.count(f"knight:{seat}") == 8
        assert labels.count(f"engine:{seat}") == 2
    assert {x.id for x in state.rules.lords} <= set(LORD_IDS)
    assert all(labels.count(f"{k}:{x}") == 1 for x in LORD_IDS for k in ("lord", "captive"))
    counts = [labels.count(k) for k in ("mill", "stronghold", "fortified", "biretta")]
    assert counts == [15, 12, 8, 4]
    assert {f"crown:{f}" for f in state.rules.fiefs()} <= set(labels)
    assert set(PROFILE.markers) <= set(usable_ids(PROFILE.dictionary))
    assert PROFILE.width_mm <= 680 and PROFILE.height_mm <= 415  # the simulated table


def test_a_start_placement_and_a_purchase_are_read_as_those_moves() -> None:
    """§4 step 11: a Lord, a Knight, Men at Arms and a Stronghold set in an empty Village is
    that seat's placement; §7.2: a counter bought appears in its Village."""
    state = _play_until(4, lambda s: any(isinstance(m, PlaceStart) for m in GAME.legal_moves(s)))
    assert GAME.interpret(state, _truth(state)).unchanged
    for move in GAME.legal_moves(state)[:6]:
        verdict = GAME.interpret(state, _truth(GAME.apply_unchecked(state, move)))
        assert verdict.moves == (move,), (move, verdict)
    state = _play_until(4, lambda s: any(isinstance(m, Buy) for m in GAME.legal_moves(s)))
    moves = GAME.legal_moves(state)
    buys = [m for m in moves if isinstance(m, Buy) and m.item in ("maa", "knight")]
    assert buys
    for move in buys:
        verdict = GAME.interpret(state, _truth(GAME.apply_unchecked(state, move)))
        assert verdict.moves == (move,), (move, verdict)


def test_a_move_two_roads_away_is_asked_naming_each_road() -> None:
    """§8.1 one road at a time: a stack set down two roads away reads as both Moves; where two
    roads lead there, or a road leads there directly too, the camera cannot tell which the
    stack came by, and the referee asks (every candidate listed) rather than guessing."""
    state = _play_until(4, lambda s: any(isinstance(m, March) for m in GAME.legal_moves(s)))
    read = asked = 0
    for first in [m for m in GAME.legal_moves(state) if isinstance(m, March)]:
        middle = GAME.apply_unchecked(state, first)
        lord = middle.lord(first.lord)
        for second in [
            m
            for m in GAME.legal_moves(middle)
            if isinstance(m, March)
            and m.lord == first.lord
            and (m.maa, m.knights) == (lord.escort_maa, lord.escort_knights)
            and m.to != state.lord(first.lord).village
            and not m.captives
        ]:
            verdict = GAME.interpret(state, _truth(GAME.apply_unchecked(middle, second)))
            if verdict.moves:
                assert verdict.moves == (first, second), verdict
                read += 1
            else:
                assert (first, second) in verdict.candidates, verdict
                assert len({c[-1].to for c in verdict.candidates}) == 1, verdict
                asked += 1
    assert read + asked >= 1


@pytest.mark.parametrize("setup", GAME.info.simulations, ids=lambda s: f"{s.players}p-{s.options}")
def test_every_position_of_a_simulated_game_lies_on_the_board_and_reads_as_itself(
    setup: Any,
) -> None:
    """Simulated games (3-6 players, Holy Relics; up to 400 moves): every position fits the board's
    regions with its stickers, and reads as itself; every seat move the table shows reads as
    that move, or the referee asks (another move leaves the same table, e.g. a road)."""
    state = gamedata.setup(GAME, profile_seats(PROFILE)[: setup.players], setup.options)
    rng = random.Random(setup.players)
    shown = read = 0
    for _ in range(400):  # a random game may last thousands of moves; 400 cover every phase
        if GAME.is_over(state):
            break
        assert GAME.interpret(state, _truth(state)).unchanged
        moves = GAME.legal_moves(state)
        move = rng.choice(moves) if moves else GAME.sample_chance(state, rng)
        after = GAME.apply_unchecked(state, move)
        if moves and lay_out(PLACE(after), PROFILE)[0] != lay_out(PLACE(state), PROFILE)[0]:
            verdict = GAME.interpret(state, _truth(after))
            assert verdict.moves == (move,) or (move,) in verdict.candidates, (move, verdict)
            shown += 1
            read += verdict.moves == (move,)
        state = after
    assert shown and read >= shown // 2


def test_a_photographed_move_is_read_back_through_the_pipeline() -> None:
    """The simulated camera photographs a Purchase (a Knight set in a Village); the real
    pipeline reads every sticker and the rules name the move."""
    pipe = Pipeline(profile=PROFILE)

    def read(image: Any) -> list[dict[str, Any]]:
        return [o.to_json() for o in pipe.snapshot(pipe.detect(image), 0.0).observations]

    state = _play_until(5, lambda s: any(isinstance(m, Buy) for m in GAME.legal_moves(s)))
    before = render_placed(PLACE(state), seed=31, profile=PROFILE)
    assert GAME.interpret(state, read(before.image)).unchanged
    move = next(m for m in GAME.legal_moves(state) if isinstance(m, Buy) and m.item == "knight")
    after = GAME.apply_unchecked(state, move)
    shot = render_placed(PLACE(after), seed=32, profile=PROFILE, camera=before.camera)
    assert GAME.interpret(state, read(shot.image)).moves == (move,)


def test_a_stack_one_road_away_reads_as_that_road_unless_others_are_there() -> None:
    """§8.1 (one Move a road, up to 2 a Lord) and §8.2 (the road a stack came by binds the
    others in that Village): a stack set down one road away could also have come by two roads.
    With nobody else in the Village the longer way only spends a Move, and the camera reads the
    one road (FR-37); with another family there the road matters to it, and the table is
    asked, listing both ways."""
    from engine.games.france1429.layout import TABLE_READING
    from engine.games.france1429.movement import others_here

    read = asked = 0
    for seed in range(1, 12):
        state = gamedata.setup(GAME, profile_seats(PROFILE)[:4], OPTIONS)
        rng = random.Random(seed)
        for _ in range(300):
            if GAME.is_over(state) or (read and asked):
                break
            moves = GAME.legal_moves(state)
            marches = [m for m in moves if isinstance(m, March) and not m.captives]
            for move in marches:
                after = GAME.apply_unchecked(state, move)
                longer = [
                    a
                    for a in marches
                    if (a.lord, a.maa, a.knights) == (move.lord, move.maa, move.knights)
                    and any(
                        f.to == move.to
                        for f in TABLE_READING.follow_ups(state, GAME.apply_unchecked(state, a))
                    )
                ]
                if not longer:
                    continue
                verdict = GAME.interpret(state, _truth(after))
                if others_here(after, move.seat, move.to):
                    assert not verdict.moves and (move,) in verdict.candidates, verdict
                    assert len(verdict.candidates) > 1
                    asked += 1
                elif verdict.moves:
                    assert verdict.moves == (move,), verdict
                    read += 1
            move = rng.choice(moves) if moves else GAME.sample_chance(state, rng)
            state = GAME.apply_unchecked(state, move)
        if read and asked:
            break
    assert read and asked, (read, asked)
