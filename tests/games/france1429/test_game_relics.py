"""The Holy Relics option (digest §12.2 [EN p.17 §11.1-11.1.1; PL §11.1-11.1.1]) with the
Grail and Spear examples."""

from __future__ import annotations

from dataclasses import replace

import pytest
from frcore_builders import at_phase, card_on, lord, table, troops

from engine.games.france1429 import relics
from engine.games.france1429.game import apply, legal_moves
from engine.games.france1429.moves import BattleRoll, PlaceRelics, RelicDie, TakeRelic, UseRelic
from engine.games.france1429.state import FAMINE, HEAVY_RAIN, Battle, FranceState
from engine.violations import RuleViolation

ORDER = ("holy-grail", "eyes-of-saint-roseline", "teeth-of-saint-geronce", "holy-spear",
         "bone-of-saint-rhadegund")  # fmt: skip


def _refused(state: FranceState, move: object) -> str:
    with pytest.raises(RuleViolation) as info:
        apply(state, move)
    return info.value.code


def _laid() -> FranceState:
    state = replace(table(holy_relics=True), phase="relics")
    return apply(state, PlaceRelics(ORDER))


def test_relics_lie_one_on_each_principal_village() -> None:
    """§12.2 / §4 step 12: at random, one per Principal Village (Bishoprics 1 to 5 here)."""
    state = replace(table(holy_relics=True), phase="relics")
    assert _refused(state, PlaceRelics(ORDER[:4])) == "relic/order"
    state = apply(state, PlaceRelics(ORDER))
    assert state.relics["holy-grail"] == "v:blaye" and state.relics["holy-spear"] == "v:bourg"
    assert state.phase == "marriage"


def test_only_a_churchman_takes_a_relic_first_then_anyone_after_its_carrier_died() -> None:
    """§12.2: the Bishop of the Bishopric (here 4: Bourg), a Cardinal or the Pope, in the
    Principal Village; a relic dropped by a dead carrier may be taken by any Lord."""
    from engine.games.france1429.deaths import kill

    state = lord(lord(_laid(), "thierry", "grady", "bourg"), "francois", "grady", "bourg",
                 bishop=4)  # fmt: skip
    state = at_phase(troops(state, "grady", "bourg", maa=1), "movement", "grady")
    assert _refused(state, TakeRelic("grady", "thierry", "holy-spear")) == "relic/church"
    state = apply(state, TakeRelic("grady", "francois", "holy-spear"))
    assert relics.carrier(state, "holy-spear") == "francois"
    state = kill(state, "francois")
    assert state.relics["holy-spear"] == "v:bourg"
    assert TakeRelic("grady", "thierry", "holy-spear") in legal_moves(state)


def test_the_grail_takes_one_hit_off_each_opposing_die_and_the_spear_adds_one() -> None:
    """§12.2 examples: attacker rolls 1, 1, 3 against the Grail → 0, 0, 2 = 2 hits; 3 Knights
    with the Spear roll 1 + 3 = 4 → 5 hits."""
    state = lord(_laid(), "quentin", "david", "vaux")
    state = troops(state, "david", "vaux", maa=1)
    state = lord(state, "beaudoin", "grady", "vaux")
    state = troops(state, "grady", "vaux", knights=3)  # with Beaudoin: 10 SP, 2 dice
    state = replace(state, relics={**state.relics, "holy-grail": "l:quentin"})
    hits = relics.battle_hits(state, ("grady",), ("david",), "vaux", ((1, 1, 3), (2,)))
    assert hits == (2, 2)
    state = replace(state, relics={**state.relics, "holy-spear": "l:beaudoin",
                                   "holy-grail": "v:blaye"})  # fmt: skip
    assert relics.battle_hits(state, ("grady",), ("david",), "vaux", ((1, 3), (2,))) == (5, 2)
    fight = replace(at_phase(state, "battles", "grady"), battle=Battle("grady", "david", "vaux"))
    after = apply(fight, BattleRoll((1, 3), (2,)))
    assert after.battle is not None and after.battle.hits["david"] == 5


def test_rhadegund_removes_famine_on_four_to_six() -> None:
    """§12.2: 1D6 per chosen Famine, 4-6 removes it."""
    state = lord(_laid(), "quentin", "david", "vaux")
    state = replace(state, relics={**state.relics, "bone-of-saint-rhadegund": "l:quentin"})
    state = at_phase(card_on(card_on(state, 2, FAMINE), 3, FAMINE), "play", "david")
    state = apply(state, UseRelic("david", "bone-of-saint-rhadegund"))
    state = apply(apply(state, RelicDie(4)), RelicDie(3))
    assert [(c.bishopric, c.card) for c in state.mitres] == [(3, FAMINE)]
    assert _refused(state, UseRelic("david", "bone-of-saint-rhadegund")) == "relic/used"


def test_roseline_moves_heavy_rain_unless_six_or_its_own_number() -> None:
    """§12.2: 6 or the current Bishopric: stays; else it moves (discarded onto Heavy Rain)."""
    state = lord(_laid(), "quentin", "david", "vaux")
    state = replace(state, relics={**state.relics, "eyes-of-saint-roseline": "l:quentin"})
    state = at_phase(card_on(card_on(state, 1, HEAVY_RAIN), 2, HEAVY_RAIN), "play", "david")
    state = apply(state, UseRelic("david", "eyes-of-saint-roseline"))
    state = apply(apply(state, RelicDie(4)), RelicDie(4))
    assert [(c.bishopric, c.card) for c in state.mitres] == [(4, HEAVY_RAIN)]
    assert state.fortune_discard == {HEAVY_RAIN: 1}
