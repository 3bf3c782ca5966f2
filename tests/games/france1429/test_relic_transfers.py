"""Handing a relic over and the Teeth of Saint Géronce (digest §12.2 [EN p.17 §11.1-11.1.1;
PL §11.1-11.1.1], ⚠ §15 item 12; FR-34)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from frcore_builders import at_phase, hand, lord, money, table, troops

from engine import flow
from engine.games.france1429 import GAME
from engine.games.france1429.game import apply, legal_moves
from engine.games.france1429.moves import Answer, GiveRelic, PlayCard
from engine.games.france1429.state import JUSTICE, FranceState
from engine.violations import RuleViolation

GRAIL = "holy-grail"
TEETH = "teeth-of-saint-geronce"


def _refused(state: FranceState, move: object) -> str:
    with pytest.raises(RuleViolation) as info:
        apply(state, move)
    return info.value.code


def _carrying(relic: str, **options: object) -> FranceState:
    """David's Bishop François carries ``relic`` in Sigy; Grady's Thierry stands in Blaye."""
    state = lord(table(holy_relics=True, **options), "francois", "david", "sigy", bishop=5)
    state = troops(state, "david", "sigy", maa=1)
    state = lord(state, "arthur", "david", "sigy")
    state = troops(lord(state, "thierry", "grady", "blaye"), "grady", "blaye", maa=1)
    return replace(state, relics={relic: "l:francois"})


def test_a_relic_is_sold_to_another_familys_lord_for_a_diplomacy_marker() -> None:
    """§12.2 (EN): a relic may be sold or given to any other Lord, even a lay one, spending a
    Diplomacy marker; the buyer's family accepts and pays, or refuses."""
    state = at_phase(_carrying(GRAIL), "movement", "david")
    assert _refused(state, GiveRelic("grady", GRAIL, "francois")) == "round/not-now"
    assert _refused(state, GiveRelic("david", GRAIL, "francois")) == "relic/to-whom"
    assert GiveRelic("david", GRAIL, "thierry", 2) in legal_moves(state)
    asked = apply(state, GiveRelic("david", GRAIL, "thierry", 2))
    assert asked.family("david").diplomacy == 2
    assert asked.relics[GRAIL] == "l:francois"
    assert asked.pending[-1].kind == "relic" and flow.actors(GAME, asked) == ("grady",)
    sold = apply(asked, Answer("grady", True))
    assert sold.relics[GRAIL] == "l:thierry"
    assert sold.family("grady").deniers == state.family("grady").deniers - 2
    assert sold.family("david").deniers == state.family("david").deniers + 2
    refused = apply(asked, Answer("grady", False))
    assert refused.relics[GRAIL] == "l:francois" and refused.family("david").diplomacy == 2
    poor = apply(money(state, "grady", 1), GiveRelic("david", GRAIL, "thierry", 2))
    assert legal_moves(poor) == [Answer("grady", False)]
    broke = replace(state, families=tuple(replace(f, diplomacy=0) for f in state.families))
    assert _refused(broke, GiveRelic("david", GRAIL, "thierry")) == "diplomacy/no-marker"
    # within the family: handed over at once, no marker, no price
    inside = apply(state, GiveRelic("david", GRAIL, "arthur"))
    assert inside.relics[GRAIL] == "l:arthur" and inside.family("david").diplomacy == 3
    assert _refused(state, GiveRelic("david", GRAIL, "arthur", 2)) == "relic/no-price"


def test_the_polish_reading_hands_a_relic_only_in_the_same_village() -> None:
    """§15 item 12 (option relic_transfer = pl): to a Lord in the same Village, no marker."""
    state = at_phase(_carrying(GRAIL, relic_transfer="pl"), "movement", "david")
    assert _refused(state, GiveRelic("david", GRAIL, "thierry")) == "relic/same-village"
    state = lord(state, "quentin", "grady", "sigy")
    state = apply(apply(state, GiveRelic("david", GRAIL, "quentin")), Answer("grady", True))
    assert state.relics[GRAIL] == "l:quentin" and state.family("david").diplomacy == 3


def _beheading() -> FranceState:
    """Grady's Thierry carries the Teeth; François (Count of Sigy, Bishop 5) carries an
    Assassin marker and Kirsten holds Justice."""
    state = _carrying(TEETH)
    state = replace(state, relics={TEETH: "l:thierry"})
    state = state.with_lord(replace(state.lord("francois"), assassin=True, fiefs=("sigy",)))
    return hand(at_phase(state, "play", "kirsten"), "kirsten", JUSTICE)


def test_the_teeth_of_saint_geronce_cancel_a_death_once() -> None:
    """§12.2: announced right after a Lord dies, the Teeth cancel the death (the holder need
    not be there; any Lord's); the Lord keeps his titles (PL); the relic leaves the game."""
    state = apply(_beheading(), PlayCard("kirsten", JUSTICE, "francois"))
    assert state.find_lord("francois") is None
    assert state.lord("arthur").fiefs == ("sigy",)  # inherited at once
    assert state.pending[-1].kind == "teeth" and flow.actors(GAME, state) == ("grady",)
    assert legal_moves(state) == [Answer("grady", True), Answer("grady", False)]
    assert _refused(state, Answer("david", True)) == "answer/not-asked"
    saved = apply(state, Answer("grady", True))
    francois = saved.lord("francois")
    assert francois.fiefs == ("sigy",) and francois.bishop == 5 and francois.village == "sigy"
    assert saved.lord("arthur").fiefs == ()
    assert "francois" not in saved.lord_discard
    assert TEETH not in saved.relics and saved.pending == () and saved.fallen == ()
    dead = apply(state, Answer("grady", False))
    assert dead.find_lord("francois") is None and dead.relics[TEETH] == "l:thierry"
    assert dead.pending == () and dead.fallen == ()


def test_no_question_without_the_teeth_in_a_free_lords_hands() -> None:
    """§12.2: uncontrolled relics have no effect: a Teeth lying in a Village, or carried by a
    captive, save nobody."""
    lying = replace(_beheading(), relics={TEETH: "v:blaye"})
    after = apply(lying, PlayCard("kirsten", JUSTICE, "francois"))
    assert after.pending == () and after.find_lord("francois") is None and after.fallen == ()
    state = _beheading()
    held = state.with_lord(replace(state.lord("thierry"), captor="david"))
    assert apply(held, PlayCard("kirsten", JUSTICE, "francois")).pending == ()
