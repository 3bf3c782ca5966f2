"""Phase 1 marriages (digest §10.1 [EN p.5 §1.1; PL §1.1]; referee checks §13 items 3-4, 13)
with the Quentin and Jeanne example."""

from __future__ import annotations

import pytest
from frcore_builders import at_phase, lord, table

from engine import rules
from engine.games.france1429 import GAME, victory
from engine.games.france1429.game import apply, legal_moves
from engine.games.france1429.moves import Answer, Done, Propose
from engine.games.france1429.state import FranceState
from engine.violations import RuleViolation


def _refused(state: FranceState, move: object) -> str:
    with pytest.raises(RuleViolation) as info:
        apply(state, move)
    return info.value.code


def _court() -> FranceState:
    state = lord(table(), "quentin", "grady", "blaye")
    state = lord(state, "jeanne", "david", "sigy")
    return at_phase(state, "marriage", "grady")


def test_quentin_marries_jeanne_with_her_familys_consent() -> None:
    """§10.1 example: an unmarried Lord and an unmarried Lady of two families; the other family
    answers; with 4 players they are allied."""
    state = apply(_court(), Propose("grady", "quentin", "jeanne"))
    assert rules.to_act(GAME, state) == ("david",)
    assert legal_moves(state) == [Answer("david", True), Answer("david", False)]
    married = apply(state, Answer("david", True))
    assert married.lord("quentin").spouse == "jeanne" and married.lord("jeanne").spouse == "quentin"
    assert victory.ally(married, "grady") == "david"
    refused = apply(state, Answer("david", False))
    assert refused.lord("quentin").spouse is None
    assert _refused(refused, Propose("grady", "quentin", "jeanne")) == "marriage/once"
    assert apply(refused, Done("grady")).turn == 1


def test_marriage_legality() -> None:
    """§10.1 (§13 item 3): male and female; no Bishop, Cardinal or Pope; no d'ARC Lady; two
    families; one marriage per family at a time."""
    state = _court()
    same = lord(state, "blanche", "grady", "blaye")
    assert _refused(same, Propose("grady", "quentin", "blanche")) == "marriage/same-family"
    assert _refused(state, Propose("grady", "jeanne", "quentin")) == "marriage/sexes"
    bishop = lord(lord(table(), "francois", "grady", "blaye", bishop=1), "jeanne", "david", "sigy")
    bishop = at_phase(bishop, "marriage", "grady")
    assert _refused(bishop, Propose("grady", "francois", "jeanne")) == "marriage/clergy"
    darc = lord(lord(table(), "quentin", "grady", "blaye"), "mireille", "david", "sigy", darc=True)
    darc = at_phase(darc, "marriage", "grady")
    assert _refused(darc, Propose("grady", "quentin", "mireille")) == "marriage/darc"
    wed = lord(state, "thierry", "gunter", "vaux", spouse="alienor")
    wed = lord(wed, "alienor", "david", "vaux", spouse="thierry")
    assert _refused(wed, Propose("grady", "quentin", "jeanne")) == "marriage/married"


def test_no_alliance_in_a_three_player_game() -> None:
    """§10.1, §1.2 (§13 item 4): in a 3-player game a marriage makes no alliance."""
    state = lord(table(("grady", "david", "gunter")), "quentin", "grady", "blaye",
                 spouse="jeanne")  # fmt: skip
    state = lord(state, "jeanne", "david", "sigy", spouse="quentin")
    assert victory.ally(state, "grady") is None


def test_a_kings_bride_becomes_queen() -> None:
    """§10.1, §13 item 13: marrying the King makes the bride Queen at once."""
    state = lord(table(), "charles", "grady", "blaye", king=True, fiefs=("blaye",))
    state = at_phase(lord(state, "jeanne", "david", "sigy"), "marriage", "grady")
    state = apply(apply(state, Propose("grady", "charles", "jeanne")), Answer("david", True))
    assert state.lord("jeanne").queen
