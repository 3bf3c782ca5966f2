"""JSON round-trips, the shipped JSON Schema, and clear errors for input that breaks it."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import codec, get_game, rules, selfplay
from engine import data as gamedata
from engine.games.middle_ages.components import ESTATES, Tile
from engine.games.middle_ages.moves import MOVE_TYPES, MoveLord, PlaceStory, Reveal
from engine.violations import InputError

GAME = get_game("middle-ages")


def _states(seed: int, players: int) -> list[object]:
    """Every state of one seeded game (a cheap, varied corpus of real positions)."""
    states: list[object] = []
    seats = tuple(f"s{i}" for i in range(players))
    selfplay.play(GAME, seats, random.Random(seed), on_event=lambda s, e: states.append(s.state))
    return states


def test_shipped_schema_is_the_schema_the_engine_generates() -> None:
    """engine/games/middle_ages/schema.json ships with the game; regenerate it with
    `herald rules middle-ages schema > engine/games/middle_ages/schema.json`."""
    shipped = resources.files("engine.games.middle_ages").joinpath("schema.json").read_text()
    assert json.loads(shipped) == rules.schema(GAME)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5))
def test_every_state_of_a_game_round_trips_through_validated_json(seed: int, players: int) -> None:
    for state in _states(seed, players)[::7]:
        data = json.loads(json.dumps(codec.encode(state)))
        assert rules.decode_state(GAME, data) == state


@settings(max_examples=60, deadline=None)
@given(
    number=st.integers(1, 23),
    back=st.sampled_from(["blue", "orange"]),
    estate=st.sampled_from(ESTATES),
    farmers=st.integers(0, 3),
    chests=st.integers(0, 3),
    row=st.integers(1, 4),
)
def test_moves_round_trip(
    number: int, back: str, estate: str, farmers: int, chests: int, row: int
) -> None:
    tile = Tile(number, back, estate, farmers, chests)  # type: ignore[arg-type]
    for move in (Reveal(row, (tile, tile)), MoveLord("blue", None), MoveLord("a", row),
                 PlaceStory("b", estate, estate)):  # type: ignore[arg-type]  # fmt: skip
        assert rules.decode_move(GAME, codec.encode(move)) == move


def test_every_move_kind_is_in_the_schema() -> None:
    kinds = {m.kind for m in MOVE_TYPES}  # type: ignore[attr-defined]
    schema = rules.schema(GAME)
    assert {schema["$defs"][m.__name__]["properties"]["kind"]["const"] for m in MOVE_TYPES} == kinds


@pytest.mark.parametrize(
    ("data", "path_part"),
    [
        ({"kind": "reveal", "row": 1, "tiles": [{"number": 24, "back": "blue",
                                                "estate": "Field"}]}, "tiles"),
        ({"kind": "reveal", "row": 1, "tiles": [{"number": 3, "back": "green",
                                                "estate": "Field"}]}, "back"),
        ({"kind": "story", "seat": "a", "symbol": "Castle", "estate": "Mill"}, "symbol"),
        ({"kind": "lord", "seat": "a", "slot": 1, "extra": True}, ""),
        ({"kind": "lord", "slot": 1}, ""),
    ],
)  # fmt: skip
def test_moves_that_break_the_schema_are_refused_with_a_path(data: dict, path_part: str) -> None:
    with pytest.raises(InputError) as exc:
        rules.decode_move(GAME, data)
    assert exc.value.code == "input/schema"
    assert path_part in exc.value.path + exc.value.detail


def test_a_state_file_that_breaks_the_schema_is_refused() -> None:
    state = codec.encode(gamedata.setup(GAME, ("a", "b"), {}))
    state["players"][0]["coins"] = "lots"
    with pytest.raises(InputError) as exc:
        rules.decode_state(GAME, state)
    assert exc.value.path == "$.players[0].coins"
    state["players"][0]["coins"] = 3
    state["phase"] = "intermission"
    with pytest.raises(InputError):
        rules.decode_state(GAME, state)


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "lord", "seat": "a", "slot": {1}},  # a set: not JSON at all
        {"kind": "lord", "seat": "a", "slot": 1, 7: "x"},  # a key that is not a string
        {"kind": "lord", "seat": "a", "slot": True},  # JSON's true is no slot number
    ],
)
def test_input_that_is_not_json_or_sneaks_a_bool_in_is_refused(data: dict) -> None:
    """Validation answers "valid?" with jsonschema-rs and words refusals with Python's
    jsonschema: input the fast validator cannot even read must still be refused, not let by."""
    with pytest.raises(InputError) as exc:
        rules.decode_move(GAME, data)
    assert exc.value.code == "input/schema"
