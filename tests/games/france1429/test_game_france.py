"""France 1429 as a whole: random legal play to the end for 3-6 players on the stand-in data
(issue 12 "Done when"), the option defaults of digest §15, and the data refusal."""

from __future__ import annotations

import random

import pytest

from engine import data as gamedata
from engine import registry, selfplay
from engine.games.france1429 import GAME
from engine.violations import RuleViolation


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_selfplay_ends_without_an_error(players: int) -> None:
    seats = tuple(f"s{i}" for i in range(players))
    for seed in range(3):
        result = selfplay.play(GAME, seats, random.Random(seed), {"max_rounds": 3})
        assert result.errors == []
        assert GAME.is_over(result.session.state)
        assert result.session.state.round == 3 or result.session.state.winners


def test_the_game_is_registered_under_its_key() -> None:
    assert registry.get_game("france1429") is GAME


def test_the_box_map_cannot_carry_a_game_and_says_why() -> None:
    """Digest §3.3: the seeds give 12 Villages and 2 roads; a game on them is refused naming
    each missing value."""
    with pytest.raises(RuleViolation) as info:
        gamedata.setup(GAME, ("a", "b", "c"), {"data": "box"})
    codes = {v.code for v in info.value.violations}
    assert any(code.startswith("map/") for code in codes)


def test_every_conflict_of_the_digest_is_an_option_with_its_default() -> None:
    """Digest §15 items 5-9: each ⚠ conflict is a named option; where the two editions print
    different rules it follows the option ``edition`` (English by default, issue 27)."""
    defaults = GAME.info.option_defaults()
    assert defaults["edition"] == "en"
    for name in ("duplicate_disaster", "assassination", "king_needs_title",
                 "crown_prince_titles", "tax_follows_title", "captives"):  # fmt: skip
        assert defaults[name] == "edition"
    assert defaults["pope_majority"] == "cast"


def test_shipped_schema_is_the_schema_the_engine_generates() -> None:
    """engine/games/france1429/schema.json ships with the game (docs/engine.md); regenerate it
    with `herald rules france1429 schema > engine/games/france1429/schema.json`."""
    import json
    from importlib import resources

    from engine import rules

    shipped = resources.files("engine.games.france1429").joinpath("schema.json").read_text()
    assert json.loads(shipped) == rules.schema(GAME)


def test_a_legal_move_list_names_only_the_seat_to_act_and_a_bad_move_changes_nothing() -> None:
    """Bad input gets a clear error and changes nothing (team guide)."""
    from engine import rules
    from engine.violations import InputError

    state = gamedata.setup(GAME, ("a", "b", "c"), {})
    before = state
    with pytest.raises(InputError):
        rules.decode_move(GAME, {"kind": "move", "seat": "a", "lord": "x", "to": 3})
    with pytest.raises(RuleViolation) as info:
        rules.apply(GAME, state, rules.decode_move(GAME, {"kind": "done", "seat": "a"}))
    assert info.value.code in ("flow/not-now", "turn/not-your-turn")
    assert state == before


def test_a_whole_position_reports_every_broken_limit() -> None:
    """check_position: a fifth Lord, a third Mill, two Kings are each named; random play never
    makes one (selfplay with position checks)."""
    import sys
    from dataclasses import replace
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from frcore_builders import lord, mills, table

    state = table()
    for lid in ("thierry", "quentin", "francois", "gauvain", "charles"):
        state = lord(state, lid, "david", "vaux")
    state = lord(mills(state, "vaux", 3), "arthur", "grady", "blaye", king=True)
    state = state.with_lord(replace(state.lord("charles"), king=True))
    codes = sorted(v.code for v in GAME.check_position(state))
    assert codes == ["position/lords", "position/mills", "position/title-twice"]
    result = selfplay.play(GAME, ("a", "b", "c", "d"), random.Random(7), {"max_rounds": 3},
                           check_positions=True)  # fmt: skip
    assert result.errors == []
