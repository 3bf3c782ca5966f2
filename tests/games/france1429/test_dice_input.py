"""Dice from the table as France 1429's chance moves (digest §9.3 Battle Dice, §11.2 the 1D6;
FR-35 the attacker's dice red, the defender's white): what the tower is asked to roll, the move
its report makes, and every impossible report refused with nothing changed."""

from __future__ import annotations

import pytest
from frcore_builders import at_phase, fort, lord, table, troops

from engine.games.france1429.dice_input import dice_move, dice_pool
from engine.games.france1429.game import apply
from engine.games.france1429.moves import Attack, BattleRoll, DisasterDie
from engine.games.france1429.state import FranceState
from engine.violations import RuleViolation


def _rolling() -> FranceState:
    """The §9.2 example at its first roll: Grady's 15 SP (3 dice - 1 for the Stronghold = 2)
    against David's 2 dice."""
    state = lord(table(), "thierry", "david", "l-epervier")
    state = fort(troops(state, "david", "l-epervier", maa=2, knights=3), "l-epervier")
    state = lord(state, "beaudoin", "grady", "l-epervier")
    state = troops(state, "grady", "l-epervier", maa=5, knights=3)
    state = at_phase(state, "battles", "grady")
    return apply(state, Attack("grady", "l-epervier", "david"))


def _die(value: object, color: str | None = None, kind: str = "battle") -> dict[str, object]:
    die: dict[str, object] = {"sides": 6, "value": value, "type": kind}
    if color is not None:
        die["color"] = color
    return die


def _codes(state: FranceState, dice: object, by: str | None = None) -> list[str]:
    with pytest.raises(RuleViolation) as info:
        dice_move(state, dice, by)
    return [v.code for v in info.value.violations]


def test_the_tower_is_asked_for_each_sides_battle_dice_by_colour() -> None:
    pool = dice_pool(_rolling())
    assert pool is not None
    assert [d["color"] for d in pool] == ["black", "black", "white", "white"]
    assert all(d["type"] == "battle" and d["sides"] == 6 for d in pool)


def test_the_physical_faces_become_hit_symbols_of_the_data() -> None:
    state = _rolling()
    faces = state.rules.battle_faces
    dice = [_die(3, "white"), _die(1, "black"), _die(6, "black"), _die(4, "white")]
    move = dice_move(state, dice)
    assert move == BattleRoll((faces[0], faces[5]), (faces[2], faces[3]))
    after = apply(state, move)
    assert after.battle is not None and after.battle.stage != "roll"


def test_dice_without_colour_go_to_the_attacker_first() -> None:
    state = _rolling()
    faces = state.rules.battle_faces
    move = dice_move(state, [_die(2), _die(3), _die(4), _die(5)])
    assert move == BattleRoll((faces[1], faces[2]), (faces[3], faces[4]))


def test_impossible_dice_are_refused_naming_every_problem() -> None:
    state = _rolling()
    assert _codes(state, [_die(1, "black")]) == ["dice/wrong-count"]
    assert "dice/bad-value" in _codes(state, [_die(7, "black"), _die(1, "black"), _die(1), _die(1)])
    assert "dice/wrong-kind" in _codes(state, [_die(1, kind="d6")] * 4)
    assert "dice/unknown-colour" in _codes(state, [_die(1, "green")] * 4)
    assert _codes(state, [_die(1, "black")] * 3 + [_die(1, "white")]) == ["dice/wrong-colours"]
    assert _codes(state, "1,2,3,4") == ["dice/not-a-list"]


def test_only_a_family_in_the_battle_may_type_its_dice() -> None:
    state = _rolling()
    dice = [_die(1, "black"), _die(2, "black"), _die(3, "white"), _die(4, "white")]
    outsider = next(f.seat for f in state.families if f.seat not in ("grady", "david"))
    assert _codes(state, dice, by=outsider) == ["dice/not-your-roll"]
    assert isinstance(dice_move(state, dice, by="david"), BattleRoll)


def test_no_die_is_taken_when_none_is_awaited() -> None:
    state = at_phase(table(), "battles", "grady")
    assert dice_pool(state) is None and dice_move(state, [_die(3)]) is None


def test_the_disaster_track_takes_a_plain_die() -> None:
    """§11.2: the 1D6 places the next Disaster card."""
    state = at_phase(table(), "disasters", "grady")
    assert dice_pool(state) == [{"sides": 6, "type": "d6"}]
    assert dice_move(state, [_die(5, kind="d6")]) == DisasterDie(5)
    assert "dice/wrong-kind" in _codes(state, [_die(5)])
