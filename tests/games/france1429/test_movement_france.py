"""Phase 5, Movement (digest §8 [EN p.11 §5.0-5.2, FAQ Phase 5; PL §5.0-5.2]; referee checks
§13 items 36-44) as small moves: one Lord, one road, the troops he takes."""

from __future__ import annotations

from dataclasses import replace

import pytest
from frcore_builders import at_phase, card_on, fort, lord, table, troops

from engine.games.france1429 import control, rounds, war
from engine.games.france1429.game import apply, legal_moves
from engine.games.france1429.moves import Answer, AskPass, Done, March
from engine.games.france1429.state import HEAVY_RAIN, PLAGUE, Battle, FranceState
from engine.violations import RuleViolation


def _moving(state: FranceState, seat: str) -> FranceState:
    return at_phase(rounds.start_movement(state), "movement", seat)


def _refused(state: FranceState, move: object) -> str:
    with pytest.raises(RuleViolation) as info:
        apply(state, move)
    return info.value.code


def test_beaudoin_drops_a_man_at_arms_in_charolles_and_goes_on() -> None:
    """§8.1 example: Beaudoin + 3 MaA: Blaye → Charolles, drops 1 MaA, → L'Épervier; he then
    controls Charolles and L'Épervier and no longer Blaye."""
    state = troops(lord(table(), "beaudoin", "grady", "blaye"), "grady", "blaye", maa=3)
    state = _moving(state, "grady")
    state = apply(state, March("grady", "beaudoin", "charolles", maa=3))
    state = apply(state, March("grady", "beaudoin", "l-epervier", maa=2))
    assert state.troops_at("grady", "charolles").maa == 1
    assert state.troops_at("grady", "l-epervier").maa == 2
    assert control.controller(state, "charolles") == "grady"
    assert control.controller(state, "l-epervier") == "grady"
    assert control.controller(state, "blaye") is None


def test_a_lord_makes_two_moves_a_darc_lady_three() -> None:
    """§8.1, §12.1 (§13 item 36)."""
    state = lord(table(), "beaudoin", "grady", "blaye")
    state = _moving(lord(state, "mireille", "grady", "blaye", darc=True), "grady")
    for to in ("charolles", "arlay"):
        state = apply(state, March("grady", "beaudoin", to))
    assert _refused(state, March("grady", "beaudoin", "blaye")) == "move/no-moves-left"
    for to in ("charolles", "arlay", "coligny"):
        state = apply(state, March("grady", "mireille", to))
    assert state.lord("mireille").moves == 3


def test_only_along_roads() -> None:
    """§8.1 (§13 item 37): one Move = to an adjacent Village along a road."""
    state = _moving(lord(table(), "beaudoin", "grady", "blaye"), "grady")
    assert _refused(state, March("grady", "beaudoin", "sigy")) == "move/no-road"


def test_troops_are_not_relayed_between_lords() -> None:
    """§8.1: a counter dropped on the way has moved; another Lord may not take it on."""
    state = troops(lord(table(), "beaudoin", "grady", "blaye"), "grady", "blaye", maa=2)
    state = lord(state, "thierry", "grady", "charolles")
    state = _moving(state, "grady")
    state = apply(state, March("grady", "beaudoin", "charolles", maa=2))
    state = apply(state, March("grady", "beaudoin", "arlay", maa=1))
    assert _refused(state, March("grady", "thierry", "l-epervier", maa=1)) == "move/troops"
    assert apply(state, March("grady", "thierry", "l-epervier")).lord("thierry").village == (
        "l-epervier"
    )


def test_passing_an_occupied_village_needs_its_owners_leave() -> None:
    """§8.2 (§13 item 38): at an occupied Village the mover goes back, stays, or asks; the
    owner answers; a refusal leaves him at the gate."""
    state = troops(lord(table(), "beaudoin", "grady", "blaye"), "grady", "blaye", maa=1)
    state = troops(state, "david", "charolles", maa=2)
    state = _moving(state, "grady")
    state = apply(state, March("grady", "beaudoin", "charolles", maa=1))
    assert control.controller(state, "charolles") == "david"  # the first to arrive keeps it
    assert _refused(state, March("grady", "beaudoin", "l-epervier")) == "move/needs-permission"
    back = apply(state, March("grady", "beaudoin", "blaye", maa=1))
    assert back.lord("beaudoin").village == "blaye"
    asked = apply(state, AskPass("grady", "beaudoin"))
    assert legal_moves(asked) == [Answer("david", True), Answer("david", False)]
    assert _refused(asked, Answer("grady", True)) in ("answer/not-asked", "turn/not-your-turn")
    refused = apply(asked, Answer("david", False))
    assert _refused(refused, March("grady", "beaudoin", "l-epervier")) == "move/needs-permission"
    assert _refused(refused, AskPass("grady", "beaudoin")) == "pass/asked"
    granted = apply(asked, Answer("david", True))
    on = apply(granted, March("grady", "beaudoin", "l-epervier", maa=1))
    assert on.lord("beaudoin").village == "l-epervier"


def test_the_besieged_do_not_leave() -> None:
    """§8.3 (§13 item 40)."""
    state = fort(troops(lord(table(), "thierry", "david", "vaux"), "david", "vaux", maa=1), "vaux")
    state = troops(state, "grady", "vaux", maa=3)
    state = state.with_place(replace(state.place("vaux"), besieged_by="grady"))
    assert _refused(_moving(state, "david"), March("david", "thierry", "lormes")) == "move/besieged"


def test_no_movement_into_out_of_or_inside_heavy_rain() -> None:
    """§11.2 (§13 item 41): Heavy Rain on Bishopric 1 stops Blaye → Charolles and Arlay →
    Coligny; Bishopric 2 without rain is open."""
    state = lord(lord(table(), "beaudoin", "grady", "blaye"), "thierry", "grady", "st-medard")
    state = _moving(card_on(state, 1, HEAVY_RAIN), "grady")
    assert _refused(state, March("grady", "beaudoin", "charolles")) == "move/heavy-rain"
    assert apply(state, March("grady", "thierry", "vaux")).lord("thierry").village == "vaux"


def test_entering_a_plagued_bishopric_halves_troops_and_the_lord_rolls() -> None:
    """§11.2 (§13 item 42): troops entering lose half (rounded down), the counters their Lord
    chooses (EN §2.3.3 "The Lord of these Troops decides which counters are removed"; PL
    L940-941; FR-6); the Lord rolls 1D6."""
    from engine.games.france1429.moves import Losses

    state = troops(lord(table(), "thierry", "grady", "vaux"), "grady", "vaux", maa=3, knights=2)
    state = _moving(card_on(state, 5, PLAGUE), "grady")
    state = apply(state, March("grady", "thierry", "st-paul", maa=3, knights=2))
    assert legal_moves(state) == [Losses("grady", 2, 0), Losses("grady", 1, 1),
                                  Losses("grady", 0, 2)]  # fmt: skip
    assert _refused(state, Losses("grady", 1, 0)) == "plague/losses"
    state = apply(state, Losses("grady", 0, 2))
    t = state.troops_at("grady", "st-paul")
    assert (t.maa, t.knights) == (3, 0) and state.lord("thierry").escort_knights == 0
    assert state.pending[-1].kind == "plague-die" and state.pending[-1].queue == ("thierry",)


def test_control_first_arrival_and_a_governed_fiefs_empty_village() -> None:
    """§8.4 (§13 item 44): a Village left empty is uncontrolled, except in a Governed Fief."""
    state = lord(table(), "thierry", "grady", "st-medard", fiefs=("medard",))
    state = _moving(state, "grady")
    state = apply(state, March("grady", "thierry", "st-gerome"))
    assert control.controller(state, "st-medard") == "grady"  # his Fief's empty Village
    assert control.controller(state, "st-gerome") == "grady"


def test_a_siege_is_declared_on_an_opposing_fortification_and_ends_when_the_besieger_leaves() -> (
    None
):
    """§9.6 (§13 item 50): own Lord and troops where an opponent holds a Stronghold; the engine
    shows 1 die, flipped to 2 when the besieger ends his battles in the next round (EN §6.4 "after
    he has resolved his battles"; PL L1829-1832, the L'Epervier example L1917-1923); no income
    from the besieged Village; when the besieger leaves, the siege ends and the engine goes back."""
    from engine.games.france1429 import income
    from engine.games.france1429.moves import Siege

    state = fort(troops(lord(table(), "thierry", "david", "vaux"), "david", "vaux", maa=1), "vaux")
    state = troops(lord(state, "beaudoin", "grady", "vaux"), "grady", "vaux", maa=3)
    battles = at_phase(state, "battles", "grady")
    assert _refused(at_phase(state, "battles", "david"), Siege("david", "vaux")) == (
        "siege/not-opposing"
    )
    state = apply(battles, Siege("grady", "vaux"))
    place = state.place("vaux")
    assert (place.besieged_by, place.engine) == ("grady", 1)
    assert state.stock["grady"]["engines"] == 1
    assert _refused(state, Siege("grady", "vaux")) == "siege/already"
    assert "vaux" not in [x.params.get("village") for x in income.income(state)]
    assert income.totals(income.income(state)).get("david", 0) == 0
    next_round = rounds.start_battles(replace(state, round=state.round + 1))
    assert next_round.place("vaux").engine == 1  # his next round's battles see the 1-die side
    grady = at_phase(next_round, "battles", "grady")
    assert war.dice(grady, Battle("grady", "david", "vaux"), "grady") == 1  # 4 SP, no penalty
    assert apply(grady, Done("grady")).place("vaux").engine == 2  # after his battles (§6.4)
    state = _moving(state, "grady")
    state = apply(state, March("grady", "beaudoin", "lormes", maa=3))
    assert state.place("vaux").besieged_by is None and state.stock["grady"]["engines"] == 2


def test_captives_move_with_their_captor_and_go_free_when_left_behind() -> None:
    """§9.7: captives move with the captor's Lords and troops and stay captive only while in the
    same space as them (FR-23)."""
    state = troops(lord(table(), "beaudoin", "grady", "blaye"), "grady", "blaye", maa=1)
    state = lord(state, "thierry", "david", "blaye", captor="grady")
    state = _moving(state, "grady")
    assert _refused(state, March("grady", "beaudoin", "charolles", captives=("beaudoin",))) == (
        "move/captives"
    )
    carried = apply(state, March("grady", "beaudoin", "charolles", maa=1, captives=("thierry",)))
    assert carried.lord("thierry").village == "charolles"
    assert carried.lord("thierry").captor == "grady"
    left = apply(state, March("grady", "beaudoin", "charolles", maa=1))
    assert left.lord("thierry").captor is None
    assert control.controller(left, "blaye") == "david"


def test_no_leaving_by_the_road_an_opponent_just_came_in_by() -> None:
    """§8.2 (§13 item 39): David's Village was entered from Blaye by Grady this phase: David
    may leave by any other road, not the road to Blaye."""
    state = troops(lord(table(), "beaudoin", "grady", "blaye"), "grady", "blaye", maa=1)
    state = troops(lord(state, "thierry", "david", "charolles"), "david", "charolles", maa=1)
    state = _moving(state, "grady")
    state = apply(state, March("grady", "beaudoin", "charolles", maa=1))
    state = at_phase(state, "movement", "david")
    assert _refused(state, March("david", "thierry", "blaye", maa=1)) == "move/enemy-road"
    assert apply(state, March("david", "thierry", "arlay", maa=1)).lord("thierry").village == (
        "arlay"
    )


def test_cavalcade_example_beaudoin_rides_through_charolles() -> None:
    """§8.5 example: Beaudoin + 2 Knights, Blaye → Charolles, the Cavalcade battle is won
    without loss (the blue Man at Arms removed); he must ride on (he may leave a Knight)."""
    from engine.games.france1429.moves import BattleRoll, Cavalcade, Done, Losses

    state = troops(lord(table(), "beaudoin", "grady", "blaye"), "grady", "blaye", knights=2)
    state = troops(state, "david", "charolles", maa=1)
    state = _moving(state, "grady")
    state = apply(state, Cavalcade("grady", "beaudoin", "charolles", knights=2))
    battle = state.battle
    assert battle is not None and battle.cavalcade == "beaudoin"
    state = apply(state, BattleRoll((1, 2), (1,)))  # 7 SP: 2 dice; 1 MaA: 1 die
    assert state.battle is not None and state.battle.hits["grady"] == 1 + 1  # +1 per die
    state = apply(state, Losses("grady", 0, 0))
    state = apply(state, Losses("david", 1, 0))
    assert state.battle is None and control.controller(state, "charolles") == "grady"
    assert _refused(state, Done("grady")) == "cavalcade/ride-on"
    state = apply(state, March("grady", "beaudoin", "l-epervier", knights=1))
    assert state.troops_at("grady", "charolles").knights == 1
    assert apply(state, Done("grady")).phase == "movement"


def test_cavalcade_needs_a_move_left_knights_only_and_no_fortification() -> None:
    """§8.5 (§13 item 43)."""
    from engine.games.france1429.moves import Cavalcade

    state = troops(lord(table(), "beaudoin", "grady", "blaye"), "grady", "blaye", knights=2, maa=1)
    state = troops(state, "david", "charolles", maa=1)
    state = _moving(state, "grady")
    assert _refused(state, Cavalcade("grady", "beaudoin", "mazilles", 2)) == (
        "cavalcade/no-opponent"
    )
    walled = fort(state, "charolles")
    assert _refused(walled, Cavalcade("grady", "beaudoin", "charolles", 2)) == (
        "cavalcade/fortification"
    )
    tired = state.with_lord(replace(state.lord("beaudoin"), moves=1))
    assert _refused(tired, Cavalcade("grady", "beaudoin", "charolles", 2)) == (
        "cavalcade/last-move"
    )


def _shared_vaux() -> FranceState:
    """Grady arrived first in Vaux (he controls it), then David and Kirsten, each with troops."""
    state = troops(lord(table(), "beaudoin", "grady", "vaux"), "grady", "vaux", maa=2)
    state = troops(lord(state, "thierry", "david", "vaux"), "david", "vaux", maa=1)
    state = troops(lord(state, "jeanne", "kirsten", "vaux"), "kirsten", "vaux", maa=1)
    assert control.controller(state, "vaux") == "grady"
    return state


def test_the_controller_leaving_a_shared_village_decides_who_controls_it() -> None:
    """PL L1443-1445: "Jeśli gracz kontrolujący wioskę opuszcza ją, a w tej wiosce jest więcej
    graczy, gracz kontrolujący decyduje komu przekazać kontrolę" (FR-5; EN silent)."""
    from engine.games.france1429.moves import GiveControl

    state = _moving(_shared_vaux(), "grady")
    state = apply(state, March("grady", "beaudoin", "st-medard", maa=2))
    assert state.pending[-1].kind == "control"
    assert legal_moves(state) == [GiveControl("grady", "vaux", "david"),
                                  GiveControl("grady", "vaux", "kirsten")]  # fmt: skip
    assert _refused(state, GiveControl("david", "vaux", "david")) == "answer/not-asked"
    assert _refused(state, GiveControl("grady", "vaux", "gunter")) == "control/to"
    state = apply(state, GiveControl("grady", "vaux", "kirsten"))
    assert control.controller(state, "vaux") == "kirsten" and not state.pending


def test_no_question_when_one_family_stays_and_a_controller_may_hand_over_on_his_turn() -> None:
    """PL L1441-1442: the controller may hand the Village at any time to a family with troops
    there (on his turn here); with one family left, it controls the Village."""
    from engine.games.france1429.moves import GiveControl

    state = _moving(_shared_vaux(), "grady")
    assert GiveControl("grady", "vaux", "david") in legal_moves(state)
    handed = apply(state, GiveControl("grady", "vaux", "david"))
    assert control.controller(handed, "vaux") == "david"
    assert _refused(handed, GiveControl("grady", "vaux", "kirsten")) == "control/not-yours"
    lone = lord(table(), "beaudoin", "grady", "vaux")
    lone = _moving(lord(troops(lone, "grady", "vaux", maa=1), "thierry", "david", "vaux"), "grady")
    assert _refused(lone, GiveControl("grady", "vaux", "david")) == "control/to"  # no troops
    two = _moving(troops(lone, "david", "vaux", maa=1), "grady")
    two = apply(two, March("grady", "beaudoin", "st-medard", maa=1))
    assert not two.pending and control.controller(two, "vaux") == "david"
