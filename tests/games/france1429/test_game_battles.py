"""Phase 6 battles as a sub-game (digest §9.1-9.5 [EN p.12-14 §6.0-6.3; PL §6.0-6.3]; referee
checks §13 items 45-49) with the Grady/David and Gauvain/Blanche examples."""

from __future__ import annotations

from dataclasses import replace

import pytest
from frcore_builders import at_phase, card_on, fort, lord, table, troops

from engine.games.france1429 import control, war
from engine.games.france1429.game import apply, legal_moves
from engine.games.france1429.moves import Attack, BattleRoll, Losses, Resolve
from engine.games.france1429.state import HEAVY_RAIN, Battle, FranceState
from engine.violations import RuleViolation


def _refused(state: FranceState, move: object) -> str:
    with pytest.raises(RuleViolation) as info:
        apply(state, move)
    return info.value.code


def _stronghold_siege() -> FranceState:
    """David holds L'Épervier (a Stronghold) with his Lord, 2 MaA and 3 Knights; Grady is there
    with his Lord, 5 MaA and 3 Knights (15 SP)."""
    state = lord(table(), "thierry", "david", "l-epervier")
    state = fort(troops(state, "david", "l-epervier", maa=2, knights=3), "l-epervier")
    state = lord(state, "beaudoin", "grady", "l-epervier")
    state = troops(state, "grady", "l-epervier", maa=5, knights=3)
    return at_phase(state, "battles", "grady")


def test_dice_bands_and_the_stronghold_penalty() -> None:
    """§9.2 example: Grady's 15 SP against David in a Stronghold: 3 dice - 1 = 2 dice."""
    assert [war.dice_for(sp) for sp in (0, 1, 6, 7, 12, 13, 30)] == [0, 1, 1, 2, 2, 3, 3]
    state = _stronghold_siege()
    battle = Battle("grady", "david", "l-epervier")
    assert war.strength(state, "grady", "l-epervier") == 15
    assert war.dice(state, battle, "grady") == 2
    assert war.dice(state, battle, "david") == 2


def test_the_grady_david_rolls_of_the_example() -> None:
    """§9.4 example: Grady rolls 1 + 3 = 4 hits, David must lose 1 MaA + 1 Knight; David rolls
    3 + 2 = 5, Grady loses 2 MaA + 1 Knight; next roll Grady 10 SP → 2 - 1 = 1 die, David
    2 dice."""
    state = apply(_stronghold_siege(), Attack("grady", "l-epervier", "david"))
    assert _refused(state, BattleRoll((1,), (3, 2))) == "battle/dice-count"
    state = apply(state, BattleRoll((1, 3), (3, 2)))
    assert _refused(state, Losses("david", 1, 1)) == "battle/not-your-losses"  # attacker first
    with pytest.raises(RuleViolation) as info:
        apply(state, Losses("grady", 1, 0))
    assert info.value.violations[0].params["valid"] == "5+0; 2+1"  # the valid ones listed
    assert legal_moves(state) == [Losses("grady", 5, 0), Losses("grady", 2, 1)]
    state = apply(state, Losses("grady", 2, 1))
    assert _refused(state, Losses("david", 2, 0)) == "battle/losses"
    assert legal_moves(state) == [Losses("david", 1, 1)]
    state = apply(state, Losses("david", 1, 1))
    assert war.strength(state, "grady", "l-epervier") == 10
    battle = state.battle
    assert battle is not None and battle.stage == "attacker"
    assert Resolve("grady", "stop") in legal_moves(state)
    state = apply(apply(state, Resolve("grady", "go-on")), Resolve("david", "go-on"))
    assert war.dice(state, state.battle, "grady") == 1  # type: ignore[arg-type]
    assert war.dice(state, state.battle, "david") == 2  # type: ignore[arg-type]


def _gauvain(hits: int) -> FranceState:
    """§9.4 example: defender Gauvain (titled) and Blanche (untitled Lady), 1 MaA, 1 Knight."""
    state = lord(table(), "gauvain", "david", "vaux", fiefs=("medard",))
    state = lord(state, "blanche", "david", "vaux")
    state = troops(state, "david", "vaux", maa=1, knights=1)
    state = troops(lord(state, "beaudoin", "grady", "vaux"), "grady", "vaux", maa=9)
    battle = Battle("grady", "david", "vaux", "losses", {"david": hits}, ("david",))
    return replace(at_phase(state, "battles", "grady"), battle=battle)


@pytest.mark.parametrize(
    ("hits", "allowed"),
    [
        (2, [Losses("david", 1, 0)]),
        (3, [Losses("david", 0, 1)]),
        (4, [Losses("david", 1, 1)]),
        (5, [Losses("david", 1, 1, ("gauvain",)), Losses("david", 1, 1, ("blanche",))]),
        (6, [Losses("david", 1, 1, ("gauvain", "blanche"))]),
    ],
)
def test_gauvain_and_blanche_losses_for_two_to_six_hits(hits: int, allowed: list[Losses]) -> None:
    """§9.4 example: 2 hits: the MaA; 3: the Knight; 4: both, both Lords captured; 5: one Lord
    dies, the other is captured; 6: everything dies."""
    state = _gauvain(hits)
    assert war.options(state, "david") == allowed
    after = apply(state, allowed[0])
    lords = {x.id: x.captor for x in after.lords if x.seat == "david"}
    if hits == 4:
        assert lords == {"gauvain": "grady", "blanche": "grady"}
    if hits == 5:
        assert lords == {"blanche": "grady"}
    if hits == 6:
        assert lords == {}
    assert war.lord_sp(after, _gauvain(2).lord("blanche")) == 0


def test_an_eliminated_side_ends_the_battle_and_the_winner_controls() -> None:
    """§9.5: one side eliminated ends the battle; the Village goes to the survivor."""
    state = apply(_gauvain(4), Losses("david", 1, 1))
    assert state.battle is None
    assert control.controller(state, "vaux") == "grady"


def test_three_rolls_without_losses_end_the_battle() -> None:
    """§9.5: 3 consecutive rolls with no losses: everyone stays, control unchanged."""
    state = lord(table(), "thierry", "david", "vaux")
    state = troops(state, "david", "vaux", knights=2)
    state = troops(lord(state, "beaudoin", "grady", "vaux"), "grady", "vaux", knights=2)
    state = apply(at_phase(state, "battles", "grady"), Attack("grady", "vaux", "david"))
    for _ in range(3):
        assert state.battle is not None
        state = apply(state, BattleRoll((1, 1), (1, 1)))  # 2 hits: a Knight needs 3
        if state.battle is not None:
            assert legal_moves(state)[0] == Losses(state.battle.owing[0], 0, 0)
            state = apply(state, legal_moves(state)[0])
            state = apply(state, legal_moves(state)[0])
            if state.battle is not None:
                state = apply(apply(state, Resolve("grady", "go-on")), Resolve("david", "go-on"))
    assert state.battle is None
    assert control.controller(state, "vaux") == "david"


def test_surrender_removes_the_troops_and_captures_the_lords() -> None:
    """§9.5: a side surrenders at the end of a roll: its troops leave, its Lords are captured."""
    state = replace(_stronghold_siege(), battle=Battle("grady", "david", "l-epervier", "defender"))
    state = apply(state, Resolve("david", "surrender"))
    assert state.troops_at("david", "l-epervier").count() == 0
    assert state.lord("thierry").captor == "grady"
    assert control.controller(state, "l-epervier") == "grady"


def test_declaring_needs_lord_and_troops_not_in_rain_and_some_dice() -> None:
    """§9.1 (§13 item 45), §9.2: troops without a Lord do not attack; no battle in Heavy Rain;
    5 SP against a Stronghold roll 0 dice: the attack is impossible; a Siege Engine cancels the
    penalty."""
    state = _stronghold_siege()
    assert _refused(at_phase(state, "battles", "david"), Attack("david", "vaux", "grady")) in (
        "battle/needs-lord-and-troops",
    )
    assert _refused(card_on(state, 4, HEAVY_RAIN), Attack("grady", "l-epervier", "david")) == (
        "battle/heavy-rain"
    )
    weak = state.with_troops(replace(state.troops_at("grady", "l-epervier"), maa=4, knights=0))
    assert _refused(weak, Attack("grady", "l-epervier", "david")) == "battle/no-dice"
    besieged = weak.with_place(
        replace(weak.place("l-epervier"), besieged_by="grady", engine=1, since=1)
    )
    assert apply(besieged, Attack("grady", "l-epervier", "david")).battle is not None


def test_one_battle_per_village_per_phase() -> None:
    """FR-26: a family fights once per Village in a Battles phase."""
    state = replace(_stronghold_siege(), battle=Battle("grady", "david", "l-epervier", "attacker"))
    state = replace(state, fought=("l-epervier",))
    state = apply(state, Resolve("grady", "stop"))
    assert _refused(state, Attack("grady", "l-epervier", "david")) == "battle/fought"


def test_ambush_captures_an_opposing_lord_in_the_battle() -> None:
    """§11.4 (§13 item 56): a family with a Lord in the battle under way captures one opposing
    Lord in it; outside a battle the card is refused."""
    from frcore_builders import hand

    from engine.games.france1429.moves import PlayCard
    from engine.games.france1429.state import AMBUSH

    state = replace(_stronghold_siege(), battle=Battle("grady", "david", "l-epervier", "attacker"))
    state = hand(state, "grady", AMBUSH)
    assert PlayCard("grady", AMBUSH, "thierry") in legal_moves(state)
    assert _refused(state, PlayCard("grady", AMBUSH, "beaudoin")) == "card/target"
    state = apply(state, PlayCard("grady", AMBUSH, "thierry"))
    from engine.games.france1429.moves import Answer

    state = apply(state, Answer("david", False))
    assert state.lord("thierry").captor == "grady"
    outside = hand(replace(_stronghold_siege(), battle=None), "grady", AMBUSH)
    assert _refused(outside, PlayCard("grady", AMBUSH, "thierry")) == "card/ambush-timing"


def test_fog_of_war_hides_troop_types_from_other_families() -> None:
    """§12.3: with Fog of War other families see counters, not types, until a battle there."""
    from engine.games.france1429 import GAME

    state = _stronghold_siege()
    fog = replace(state, options={**state.options, "fog_of_war": True})
    village = next(v for v in GAME.view(fog, "grady")["villages"] if v["id"] == "l-epervier")
    assert village["troops"]["david"] == {"counters": 5}
    assert village["troops"]["grady"] == {"maa": 5, "knights": 3}
    fighting = replace(fog, battle=Battle("grady", "david", "l-epervier"))
    village = next(v for v in GAME.view(fighting, "grady")["villages"] if v["id"] == "l-epervier")
    assert village["troops"]["david"] == {"maa": 2, "knights": 3}


def test_a_secret_passage_attacks_from_the_tunnels() -> None:
    """§11.4: the attacker ignores all fortification penalties (2 dice - 1 → 2 dice)."""
    from frcore_builders import hand

    from engine.games.france1429.moves import PlayCard
    from engine.games.france1429.state import SECRET_PASSAGE

    state = replace(_stronghold_siege(), battle=Battle("grady", "david", "l-epervier", "attacker"))
    state = hand(state, "grady", SECRET_PASSAGE)
    assert war.dice(state, state.battle, "grady") == 2  # type: ignore[arg-type]
    state = apply(state, PlayCard("grady", SECRET_PASSAGE, "l-epervier"))
    assert war.dice(state, state.battle, "grady") == 3  # type: ignore[arg-type]


def test_a_lone_lord_facing_an_army_is_captured_without_dice() -> None:
    """§9.1 (§13 item 49): a Lord alone facing an army with a Lord is captured at once."""
    from engine.games.france1429.moves import Capture

    state = troops(lord(table(), "beaudoin", "grady", "vaux"), "grady", "vaux", maa=1)
    state = at_phase(lord(state, "thierry", "david", "vaux"), "battles", "grady")
    assert Capture("grady", "vaux") in legal_moves(state)
    state = apply(state, Capture("grady", "vaux"))
    assert state.lord("thierry").captor == "grady"
    assert _refused(state, Capture("grady", "vaux")) == "battle/no-lone-lord"
    troops_only = at_phase(troops(table(), "grady", "vaux", maa=1), "battles", "grady")
    troops_only = lord(troops_only, "thierry", "david", "vaux")
    assert _refused(troops_only, Capture("grady", "vaux")) == "battle/needs-lord-and-troops"


def test_pillage_after_the_battles_one_denier_per_mill() -> None:
    """§9.8 (§13 item 51): Mills on Villages the family controls, or besieges (then only the
    besieger); +1 Denier each."""
    from frcore_builders import mills

    from engine.games.france1429.moves import Pillage

    state = mills(troops(table(), "grady", "vaux", maa=1), "vaux", 2)
    state = at_phase(state, "pillage", "grady")
    before = state.family("grady").deniers
    state = apply(apply(state, Pillage("grady", "vaux")), Pillage("grady", "vaux"))
    assert state.place("vaux").mills == 0 and state.family("grady").deniers == before + 2
    assert _refused(state, Pillage("grady", "vaux")) == "pillage/no-mill"
    besieged = mills(_stronghold_siege(), "l-epervier", 1)
    besieged = besieged.with_place(replace(besieged.place("l-epervier"), besieged_by="grady"))
    david = at_phase(besieged, "pillage", "david")
    assert _refused(david, Pillage("david", "l-epervier")) == "pillage/not-yours"
    grady = apply(at_phase(besieged, "pillage", "grady"), Pillage("grady", "l-epervier"))
    assert grady.place("l-epervier").mills == 0


def test_a_truce_offered_by_the_attacker_and_accepted_ends_the_battle() -> None:
    """§9.5: all involved agree a truce: everyone stays, the controller keeps the Village."""
    state = replace(_stronghold_siege(), battle=Battle("grady", "david", "l-epervier", "attacker"))
    assert _refused(replace(state, battle=replace(state.battle, stage="defender")),  # type: ignore[arg-type]
                    Resolve("david", "truce")) == "battle/no-truce"  # fmt: skip
    offered = apply(state, Resolve("grady", "truce"))
    assert Resolve("david", "truce") in legal_moves(offered)
    state = apply(offered, Resolve("david", "truce"))
    assert state.battle is None and control.controller(state, "l-epervier") == "david"
    assert state.troops_at("grady", "l-epervier").count() == 8
    refused = apply(offered, Resolve("david", "go-on"))
    assert refused.battle is not None and refused.battle.stage == "roll"
