"""The round's questions and sub-games as objects (issue #28, TAG's IExtendedSequence): each one
is declared on the turn flow, knows when it is done, and leaves what follows to the round
driver, which no rule module calls back into."""

from __future__ import annotations

import ast
import random
import re
from dataclasses import replace
from pathlib import Path

from frcore_builders import lord, table, troops

from engine.games.france1429 import flow, hear_ye, rounds, war
from engine.games.france1429.moves import BattleRoll
from engine.games.france1429.questions import QUESTIONS
from engine.games.france1429.state import Battle, Election

PACKAGE = Path(hear_ye.__file__).parent
DRIVERS = {"rounds", "turn", "game", "battle_cli"}
"""The round driver, the dispatch and the game object run the round; a CLI verb starts one."""


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at its top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_every_question_a_rule_pushes_waits_in_a_step_the_turn_flow_declares() -> None:
    source = "".join(p.read_text(encoding="utf-8") for p in PACKAGE.glob("*.py"))
    pushed = set(re.findall(r'Pending\(\s*"([a-z-]+)"', source))
    assert pushed == set(QUESTIONS)
    steps = {s.name for s in flow.FLOW.steps}
    subgames = {g.name: {s.name for s in g.steps} for g in flow.FLOW.subgames}
    for question in QUESTIONS.values():
        if question.subgame:
            assert question.step in subgames[question.subgame], question.kind
        else:
            assert question.step in steps, question.kind


def test_each_sub_game_is_one_of_the_turn_flow() -> None:
    names = {g.name for g in flow.FLOW.subgames}
    assert {s.name for s in rounds.SEQUENCES} <= names


def test_no_rule_module_calls_back_into_the_round_driver_or_the_package() -> None:
    """The inversion of issue #28: the rules change the state; the driver decides what follows."""
    for path in PACKAGE.glob("*.py"):
        imported = _imports(path)
        if path.stem not in DRIVERS:
            assert "engine.games.france1429.rounds" not in imported, path.name
            if path.stem != "preview":  # a preview applies a move to show what it gives
                assert "engine.games.france1429.turn" not in imported, path.name
        assert "engine.games.france1429.GAME" not in imported, path.name


def test_the_elections_over_the_round_driver_opens_the_draw_step() -> None:
    """§5 Phase 1 then Phase 2: the elections say they are done; the round goes on."""
    state = table()
    running = replace(state, election=Election("king"))
    assert hear_ye.ELECTIONS.running(running)
    assert rounds.after(hear_ye.ELECTIONS, running, running) is running
    over = rounds.after(hear_ye.ELECTIONS, running, state)
    assert not hear_ye.ELECTIONS.running(state)
    assert (state.phase, over.phase) == ("marriage", "draw")


def test_a_battle_rolls_its_own_dice_for_a_simulated_table() -> None:
    """§9.2: one die per 1-6 strength points of each side, rolled only in the roll step."""
    state = troops(lord(table(), "quentin", "grady", "blaye"), "grady", "blaye", maa=7)
    state = troops(state, "david", "blaye", maa=2)
    battle = Battle("grady", "david", "blaye", stage="roll")
    rolled = war.BATTLE.report(replace(state, battle=battle), random.Random(1))
    assert isinstance(rolled, BattleRoll)
    assert (len(rolled.attacker), len(rolled.defender)) == (2, 1)
    assert (
        war.BATTLE.report(replace(state, battle=replace(battle, stage="join")), random.Random(1))
        is None
    )
