"""Every optional verb a registered game offers has the signature its protocol declares
(engine/capabilities.py): the core calls it through that protocol, so a verb that takes other
arguments would fail only when a player reached it. And the lookup itself finds a verb exactly
when the game has it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from engine import capabilities, flow, registry
from engine.capabilities import OPTIONAL_VERBS, Capability, capability

KEYS = registry.game_keys()


def _problems(verb: Any, declared: Any) -> list[str]:
    """How the game's bound method ``verb`` fails to take the protocol method's arguments."""
    want = list(inspect.signature(declared).parameters.values())[1:]  # less ``self``
    have = list(inspect.signature(verb).parameters.values())
    if any(p.kind is p.VAR_POSITIONAL for p in have):
        return []
    out = []
    for i, param in enumerate(want):
        if i >= len(have) or have[i].name != param.name:
            out.append(f"argument {i + 1} must be {param.name!r}")
        elif param.default is not param.empty and have[i].default is param.empty:
            out.append(f"{param.name!r} must be optional")
    out += [f"{p.name!r} is not declared" for p in have[len(want) :] if p.default is p.empty]
    return out


@pytest.mark.parametrize("key", KEYS)
def test_every_optional_verb_has_its_declared_signature(key: str) -> None:
    game = registry.get_game(key)
    bad = {}
    for wanted in OPTIONAL_VERBS:
        found = capability(game, wanted)
        if found is None:
            continue
        for name in wanted.methods:
            problems = _problems(getattr(found, name), getattr(wanted.protocol, name))
            if problems:
                bad[f"{wanted.protocol.__name__}.{name}"] = problems
    assert bad == {}


@pytest.mark.parametrize("key", KEYS)
def test_a_game_on_the_flow_is_found_as_one(key: str) -> None:
    game = registry.get_game(key)
    assert (flow.on_flow(game) is game) == isinstance(getattr(game, "flow", None), flow.TurnFlow)


def test_the_lookup_finds_a_verb_only_when_the_game_has_it() -> None:
    class Bare:
        pass

    class Dice:
        dice_pool = None  # declared but not a verb: not offered

        def dice_move(self, state: Any, dice: Any, by: str | None = None) -> Any:
            return ("rolled", dice, by)

    assert capability(Bare(), capabilities.DICE_MOVE) is None
    assert capability(Dice(), capabilities.DICE_POOL) is None
    found = capability(Dice(), capabilities.DICE_MOVE)
    assert found is not None and found.dice_move(None, [6]) == ("rolled", [6], None)


def test_each_capability_names_its_protocols_members() -> None:
    assert capabilities.DICE_MOVE.methods == ("dice_move",)
    assert capabilities.HAS_DATA.data == ("data_spec",)
    assert set(capabilities.FLOW.data) == {"flow", "move_types"}
    assert set(capabilities.FLOW.methods) == {"position", "actor"}
    assert capabilities.CLI_VERBS.data == ("VERBS",)
    with pytest.raises(TypeError):
        Capability(object)
