"""Allied battles (digest §9.1 [EN p.12 §6.0; PL §6.0], ⚠ §15 item 14; FR-32): families
present where a battle is declared join a side; a side pools its strength points; the family
with the most strength points on a side decides its losses (family by family), its captives and
whether to go on (EN). The Blaye example: Grady joins Kirsten against his own ally."""

from __future__ import annotations

from dataclasses import replace

import pytest
from frcore_builders import at_phase, fort, lord, table, troops

from engine import flow
from engine.games.france1429 import GAME, control, war
from engine.games.france1429.game import apply, legal_moves
from engine.games.france1429.moves import Attack, BattleRoll, Join, Losses, Resolve
from engine.games.france1429.state import FranceState
from engine.violations import RuleViolation


def _refused(state: FranceState, move: object) -> str:
    with pytest.raises(RuleViolation) as info:
        apply(state, move)
    return info.value.code


def _blaye() -> FranceState:
    """§9.1 example: David (Grady's ally by marriage) holds Blaye with Quentin and 3 MaA;
    Grady is there too with Thierry and 1 MaA; Kirsten arrives with Charles and 2 Knights."""
    state = lord(table(), "quentin", "david", "blaye", spouse="jeanne")
    state = troops(state, "david", "blaye", maa=3)
    state = lord(state, "jeanne", "grady", "blaye", spouse="quentin")
    state = troops(lord(state, "thierry", "grady", "blaye"), "grady", "blaye", maa=1)
    state = troops(lord(state, "charles", "kirsten", "blaye"), "kirsten", "blaye", knights=2)
    return at_phase(state, "battles", "kirsten")


def test_every_other_family_present_is_asked_to_join_a_side() -> None:
    """§9.1: some players may fight together; the others present are asked in turn (the
    Village's arrival order) before the first roll; only the family asked answers."""
    state = apply(_blaye(), Attack("kirsten", "blaye", "david"))
    b = state.battle
    assert b is not None and b.stage == "join" and b.queue == ("grady",)
    assert flow.actors(GAME, state) == ("grady",)
    assert legal_moves(state) == [Join("grady", s) for s in ("attacker", "defender", "none")]
    assert _refused(state, Join("david", "attacker")) == "battle/not-your-decision"
    assert _refused(state, BattleRoll((1,), (1,))) == "round/not-now"
    state = apply(state, Join("grady", "attacker"))
    assert state.battle is not None and state.battle.attackers == ("grady",)
    assert state.battle.stage == "roll"


def test_a_side_pools_its_strength_points_for_its_dice() -> None:
    """§9.2: allies add their SP before the dice are looked up: Kirsten's 7 SP (2 dice) with
    Grady's 2 (1 MaA, Thierry; Jeanne, an untitled Lady, 0) = 9 SP, 2 dice; David 4 SP, 1."""
    state = apply(apply(_blaye(), Attack("kirsten", "blaye", "david")), Join("grady", "attacker"))
    b = state.battle
    assert b is not None
    assert war.strength(state, "kirsten", "blaye") == 7
    assert war.strength(state, "grady", "blaye") == 2
    assert war.dice(state, b, "kirsten") == war.dice(state, b, "grady") == 2
    assert war.dice(state, b, "david") == 1
    alone = apply(apply(_blaye(), Attack("kirsten", "blaye", "david")), Join("grady", "none"))
    assert alone.battle is not None and alone.battle.attackers == ()


def test_the_strongest_family_of_a_side_allocates_its_losses_family_by_family() -> None:
    """§9.4, §9.1 (EN): the family with the most SP on a side decides which of the side's
    troops take the hits, and must remove as many SP as the hits allow over the whole side.
    Kirsten (2 Knights) and Grady (1 MaA) attack: 3 hits must take a Knight, not the MaA; 4
    hits take a Knight and the MaA, in either order; the ally may not choose."""
    state = apply(apply(_blaye(), Attack("kirsten", "blaye", "david")), Join("grady", "attacker"))
    state = apply(state, BattleRoll((1, 1), (3,)))
    b = state.battle
    assert b is not None and b.hits == {"david": 2, "kirsten": 3}
    assert b.decider("kirsten") == "kirsten"
    assert flow.actors(GAME, state) == ("kirsten",)
    assert _refused(state, Losses("grady", 1, 0)) == "battle/not-your-losses"
    assert legal_moves(state) == [Losses("kirsten", 0, 1)]
    assert _refused(state, Losses("kirsten", 1, 0, (), "grady")) == "battle/losses"
    four = replace(state, battle=replace(b, hits={**b.hits, "kirsten": 4}))
    assert legal_moves(four) == [Losses("kirsten", 0, 1), Losses("kirsten", 1, 0, (), "grady")]
    four = apply(four, Losses("kirsten", 1, 0, (), "grady"))
    assert four.troops_at("grady", "blaye").maa == 0
    assert legal_moves(four) == [Losses("kirsten", 0, 1)]  # 3 hits left: the Knight
    four = apply(four, Losses("kirsten", 0, 1))
    assert four.battle is not None and four.battle.owing == ("david",)
    four = apply(four, Losses("david", 2, 0))
    assert four.troops_at("david", "blaye").maa == 1
    assert four.troops_at("kirsten", "blaye").knights == 1


def test_when_a_sides_troops_are_gone_its_lords_die_or_are_captured_by_the_decider() -> None:
    """§9.4 step 6 with allies: once no troop of the side is left, the hits left kill that
    many of the side's Lords (the decider's choice, any family) and the others become the
    opposing decider's captives; the Village goes to the winners' side."""
    state = apply(apply(_blaye(), Attack("kirsten", "blaye", "david")), Join("grady", "defender"))
    state = apply(state, BattleRoll((3, 3), (1,)))  # 6 hits on David + Grady (4 MaA)
    assert state.battle is not None and state.battle.decider("david") == "david"
    state = apply(state, Losses("kirsten", 0, 0))  # Kirsten's 1 hit: no Knight
    assert Losses("david", 3, 0) in legal_moves(state)
    state = apply(state, Losses("david", 3, 0))
    assert legal_moves(state) == [Losses("david", 1, 0, (), "grady")]
    state = apply(state, Losses("david", 1, 0, (), "grady"))
    # 2 hits left, three Lords (Quentin, Jeanne, Thierry): two die, one is captured
    options = legal_moves(state)
    assert Losses("david", 0, 0, ("jeanne", "thierry")) in options and len(options) == 3
    state = apply(state, Losses("david", 0, 0, ("jeanne", "thierry")))
    assert state.battle is None
    assert state.lord("quentin").captor == "kirsten"
    assert state.find_lord("jeanne") is None and state.find_lord("thierry") is None
    assert control.controller(state, "blaye") == "kirsten"


def test_the_deciding_family_surrenders_for_its_whole_side() -> None:
    """§9.5 with allies: a surrender by the side's decider removes all its families' troops
    and captures all its Lords; the other side's families decide nothing."""
    state = apply(apply(_blaye(), Attack("kirsten", "blaye", "david")), Join("grady", "defender"))
    state = apply(state, BattleRoll((1, 1), (1,)))
    state = apply(apply(state, Losses("kirsten", 0, 0)), Losses("david", 2, 0))
    assert state.battle is not None and state.battle.stage == "attacker"
    state = apply(state, Resolve("kirsten", "go-on"))
    assert _refused(state, Resolve("grady", "surrender")) == "battle/not-your-decision"
    state = apply(state, Resolve("david", "surrender"))
    assert state.battle is None
    assert state.troops_at("grady", "blaye").count() == 0
    assert {state.lord(x).captor for x in ("quentin", "jeanne", "thierry")} == {"kirsten"}


def test_a_fortification_penalty_needs_its_controller_on_the_defending_side() -> None:
    """§9.2, §9.1 (PL: an ally who turns to the besieger "opens the gates"): David controls the
    Stronghold; attacking him costs a die; with David himself joining the attack on Grady the
    gates are open."""
    state = fort(_blaye(), "blaye")
    attack = apply(state, Attack("kirsten", "blaye", "david"))
    attack = apply(attack, Join("grady", "none"))
    assert attack.battle is not None and war.dice(attack, attack.battle, "kirsten") == 1
    gates = apply(state, Attack("kirsten", "blaye", "grady"))
    gates = apply(gates, Join("david", "attacker"))
    assert gates.battle is not None and war.dice(gates, gates.battle, "kirsten") == 2


def _between_rolls(**options: object) -> FranceState:
    """The Blaye battle after a roll: Grady fights with Kirsten, who decides for the side."""
    state = _blaye()
    state = replace(state, options={**state.options, **options})
    state = apply(apply(state, Attack("kirsten", "blaye", "david")), Join("grady", "attacker"))
    assert state.battle is not None
    return replace(state, battle=replace(state.battle, stage="attacker"))


def test_allies_change_sides_mid_battle_in_the_english_edition() -> None:
    """EN §6.0: "Allies may betray each other anytime during the Battle, even switching sides
    mid-battle!" (FR-32): between rolls Grady, out of turn, goes over to the defender; the
    attacker and the defender themselves stay."""
    from engine import rules
    from engine.games.france1429.game import window_moves

    state = _between_rolls()
    assert flow.actors(GAME, state) == ("kirsten",)
    assert Join("grady", "defender") in window_moves(state, "grady")
    assert Join("grady", "attacker") not in window_moves(state, "grady")
    turned = rules.apply(GAME, state, Join("grady", "defender"))
    assert turned.battle is not None
    assert (turned.battle.attackers, turned.battle.defenders) == ((), ("grady",))
    assert war.dice(turned, turned.battle, "david") == 1  # 4 + 2 = 6 SP: still 1 die
    assert war.dice(turned, turned.battle, "kirsten") == 2  # 7 SP alone
    with pytest.raises(RuleViolation) as info:
        rules.apply(GAME, state, Join("david", "attacker"))
    assert info.value.code == "battle/lead-stays"
    out = rules.apply(GAME, state, Join("grady", "none"))
    assert out.battle is not None and out.battle.attackers == ()


def test_the_polish_edition_keeps_the_sides_set_at_the_start() -> None:
    """PL §6.0 (digest §15 item 14): allies are fixed when the battle is declared."""
    from engine import rules
    from engine.games.france1429.game import window_moves

    state = _between_rolls(edition="pl")
    assert window_moves(state, "grady") == []
    with pytest.raises(RuleViolation) as info:
        rules.apply(GAME, state, Join("grady", "defender"))
    assert info.value.code == "battle/sides-fixed"
