"""Glory's ``dice_move``: dice in the device wire format become the duel's Roll/Reroll.

A die is ``{"sides": 6, "value": 1-6, "type": ..., "color": ...}``; the value is read through
the die's face table (stand-in: red ``[special, 1, 2, 3, 4, 5]``). Anything that cannot be the
awaited roll is refused with every problem and changes nothing.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from glory_box import DICE

from engine import codec, get_game
from engine import data as gamedata
from engine.evolve import evolve
from engine.game import dice_move, dice_pool
from engine.games.glory.duel_state import Knight, Reroll, Roll, UseFaith
from engine.games.glory.state import DuelStep, GloryState
from engine.i18n import violation_text
from engine.violations import RuleViolation

GAME = get_game("glory")
SEATS = ("blue", "green", "pink")
FACES = {
    "strength": ["special", 1, 2, 3, 4, 5],
    "horse": ["special", 0, 1, 2, 3, 4],
    "armour": ["special", 0, 1, 2, 3, 0],
}


def _play_until(pred: Any, seed: int = 4) -> GloryState:
    rng = random.Random(seed)
    state = gamedata.setup(GAME, SEATS, {"data": "stand-in", "tournament": "pas-d-armes"})
    for _ in range(5000):
        if pred(state):
            return state
        move = GAME.sample_chance(state, rng)
        if move is None:
            moves = GAME.legal_moves(state)
            move = moves[rng.randrange(len(moves))]
        state = GAME.apply_unchecked(state, move)
    raise AssertionError("no such state in the game")


@pytest.fixture(scope="module")
def rolling() -> GloryState:
    """A duel against a Knight waiting for the player's roll of a pass."""

    def pred(s: GloryState) -> bool:
        return (
            s.duel is not None
            and s.duel.step == "roll"
            and any(isinstance(x, Knight) for x in s.duel.sides)
            and dice_pool(GAME, s) is not None
        )

    return _play_until(pred)


def _wire(pool: list[dict[str, Any]], values: list[int]) -> list[dict[str, Any]]:
    return [{**d, "value": v} for d, v in zip(pool, values, strict=True)]


def _codes(exc: pytest.ExceptionInfo[RuleViolation]) -> list[str]:
    return [v.code for v in exc.value.violations]


def test_a_legal_roll_becomes_the_duels_roll_of_the_side_waiting(rolling: GloryState) -> None:
    pool = dice_pool(GAME, rolling)
    assert pool and all(d["sides"] == 6 and d["type"] in FACES for d in pool)
    values = [(i % 6) + 1 for i in range(len(pool))]
    move = GAME.dice_move(rolling, _wire(pool, values))
    assert isinstance(move, DuelStep) and isinstance(move.move, Roll)
    side = next(s.name for s in rolling.duel.sides if not isinstance(s, Knight))  # type: ignore[union-attr]
    assert move.move.side == side
    assert [(d.type, d.face) for d in move.move.dice] == [
        (d["type"], FACES[d["type"]][v - 1]) for d, v in zip(pool, values, strict=True)
    ]
    assert GAME.check(rolling, move) == []
    after = GAME.apply_unchecked(rolling, move)
    assert (after.duel is not None and after.duel.step != "roll") or dice_pool(GAME, after)
    # colour alone names the die too (a plain coloured die from a manual tower)
    plain = [
        {"sides": 6, "value": v, "color": d["color"]} for d, v in zip(pool, values, strict=True)
    ]
    assert GAME.dice_move(rolling, plain) == move


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda dice: dice[:-1], "roll/wrong-count"),
        (lambda dice: [*dice, {**dice[0]}], "roll/wrong-count"),
        (lambda dice: [{**dice[0], "type": None, "color": "blue"}, *dice[1:]],
         "dice/unknown-colour"),
        (lambda dice: [{**dice[0], "color": "green"}, *dice[1:]], "dice/colour-mismatch"),
        (lambda dice: [{**dice[0], "type": "glory"}, *dice[1:]], "dice/unknown-type"),
        (lambda dice: [{**dice[0], "sides": 8}, *dice[1:]], "dice/not-a-d6"),
        (lambda dice: [{**dice[0], "value": 7}, *dice[1:]], "dice/bad-value"),
        (lambda dice: ["4", *dice[1:]], "dice/not-a-die"),
    ],
)  # fmt: skip
def test_impossible_dice_are_refused_and_change_nothing(
    rolling: GloryState, change: Any, code: str
) -> None:
    pool = dice_pool(GAME, rolling)
    assert pool
    before = codec.encode(rolling)
    dice = change(_wire(pool, [2] * len(pool)))
    for d in dice:
        if isinstance(d, dict) and d.get("type") is None:
            d.pop("type", None)
    with pytest.raises(RuleViolation) as exc:
        GAME.dice_move(rolling, dice)
    assert code in _codes(exc)
    assert all(violation_text(v) for v in exc.value.violations)  # every problem has its sentence
    assert codec.encode(rolling) == before


def test_a_face_the_data_does_not_know_is_refused_naming_it(rolling: GloryState) -> None:
    """The shipped box table lacks the white die's sixth face: value 6 cannot be read."""
    assert rolling.duel is not None
    box_dice = evolve(rolling, duel=evolve(rolling.duel, dice_table=DICE))
    pool = dice_pool(GAME, box_dice)
    assert pool and any(d["type"] == "armour" for d in pool)
    values = [6 if d["type"] == "armour" else 2 for d in pool]
    with pytest.raises(RuleViolation) as exc:
        GAME.dice_move(box_dice, _wire(pool, values))
    assert "data/missing" in _codes(exc)


def test_a_seat_reports_its_own_roll_or_its_knights_not_anothers(rolling: GloryState) -> None:
    assert rolling.duel is not None
    pool = dice_pool(GAME, rolling)
    assert pool
    player = next(s.name for s in rolling.duel.sides if not isinstance(s, Knight))
    other = next(s for s in SEATS if s != player)
    dice = _wire(pool, [3] * len(pool))
    assert GAME.dice_move(rolling, dice, by=player) == GAME.dice_move(rolling, dice)
    with pytest.raises(RuleViolation) as exc:
        GAME.dice_move(rolling, dice, by=other)
    assert _codes(exc) == ["dice/not-your-roll"]


def test_a_faith_reroll_maps_the_dice_to_the_declared_ids(rolling: GloryState) -> None:
    pool = dice_pool(GAME, rolling)
    assert pool
    state = GAME.apply_unchecked(rolling, GAME.dice_move(rolling, _wire(pool, [3] * len(pool))))

    def faith_step(s: GloryState) -> bool:
        return s.duel is not None and s.duel.step == "faith" and s.duel.pending is None

    assert faith_step(state), state.duel
    d = state.duel
    assert d is not None
    side = next(x.name for x in d.sides if not isinstance(x, Knight))
    mine = d.boards[d.index(side)].dice
    declared = (mine[0].id, mine[-1].id)
    state = GAME.apply_unchecked(state, DuelStep(UseFaith(side, declared)))
    wanted = dice_pool(GAME, state)
    assert [w["type"] for w in wanted or []] == [mine[0].type, mine[-1].type]
    move = GAME.dice_move(state, _wire(list(reversed(wanted or [])), [5, 4]))
    assert isinstance(move, DuelStep) and isinstance(move.move, Reroll)
    assert sorted(x.id for x in move.move.dice) == sorted(declared)
    assert GAME.check(state, move) == []
    # a die of another colour than the ones declared cannot be their reroll
    with pytest.raises(RuleViolation) as exc:
        GAME.dice_move(state, [{"sides": 6, "value": 2, "type": "strength"}] * 2
                       if mine[0].type != "strength" or mine[-1].type != "strength"
                       else [{"sides": 6, "value": 2, "type": "horse"}] * 2)  # fmt: skip
    assert "reroll/wrong-dice" in _codes(exc) or "reroll/type-changed" in _codes(exc)


def test_no_dice_wanted_means_no_move() -> None:
    state = gamedata.setup(GAME, SEATS, {"data": "stand-in", "tournament": "joust"})
    assert GAME.dice_move(state, [{"sides": 6, "value": 1, "type": "horse"}]) is None
    assert dice_pool(GAME, state) is None
    middle_ages = get_game("middle-ages")
    ma_state = gamedata.setup(middle_ages, SEATS)
    assert dice_move(middle_ages, ma_state, [{"sides": 6, "value": 1}]) is None
    assert dice_pool(middle_ages, ma_state) is None


def test_the_duel_panel_says_which_dice_and_who_may_type_them(rolling: GloryState) -> None:
    panel = GAME.view(rolling, None)["duel"]
    wanted = panel["dice_wanted"]
    assert panel["waiting_for_dice"] and wanted["kind"] == "roll"
    assert wanted["side"] in SEATS and wanted["reporters"] == [wanted["side"]]
    assert [d["type"] for d in wanted["dice"]] == [
        d["type"] for d in dice_pool(GAME, rolling) or []
    ]
    assert wanted["faces"] == FACES
