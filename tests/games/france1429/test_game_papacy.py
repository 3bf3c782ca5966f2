"""The Pope's powers (digest §10.5 [EN p.6 §1.7; PL §1.7]; referee check §13 item 57) and the
annulment of a marriage (§10.1)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from frcore_builders import at_phase, lord, table

from engine.games.france1429 import hear_ye
from engine.games.france1429.deaths import kill
from engine.games.france1429.game import apply, legal_moves
from engine.games.france1429.moves import Absolve, Annul, Answer, Excommunicate
from engine.games.france1429.state import FranceState
from engine.violations import RuleViolation


def _refused(state: FranceState, move: object) -> str:
    with pytest.raises(RuleViolation) as info:
        apply(state, move)
    return info.value.code


def _rome() -> FranceState:
    state = lord(table(), "arthur", "grady", "blaye", bishop=1, cardinal=True, pope=True)
    state = lord(state, "francois", "david", "sigy", bishop=5, cardinal=True, biretta=True)
    return at_phase(lord(state, "thierry", "david", "sigy"), "purchase", "grady")


def test_excommunication_strips_church_titles_and_votes_once_a_round() -> None:
    """§10.5 (§13 item 57): by the Pope, once a round, one Lord at a time; a Bishop or Cardinal
    loses those titles; the Lord neither votes nor stands."""
    state = _rome()
    assert _refused(at_phase(state, "purchase", "david"), Excommunicate("david", "arthur")) == (
        "pope/not-pope"
    )
    state = apply(state, Excommunicate("grady", "francois"))
    francois = state.lord("francois")
    assert francois.excommunicated and francois.bishop is None and not francois.cardinal
    assert state.supply["biretta"] == 1
    assert hear_ye.votes(state, "david", "pope") == 0
    assert not hear_ye.eligible(state, "bishop", state.lord("francois"))
    assert _refused(state, Excommunicate("grady", "thierry")) == "pope/one-at-a-time"
    state = apply(state, Absolve("grady", "francois"))
    assert _refused(state, Excommunicate("grady", "thierry")) == "pope/once-a-round"


def test_excommunication_ends_with_the_popes_death() -> None:
    """§10.5: it ends if the Pope dies."""
    state = apply(_rome(), Excommunicate("grady", "thierry"))
    assert not kill(state, "arthur").lord("thierry").excommunicated


def test_a_spouse_asks_the_pope_to_annul_the_marriage() -> None:
    """§10.1, §10.5: the Pope annuls a marriage when a spouse asks; a royal marriage not once a
    Crown Prince was born (PL)."""
    state = lord(_rome(), "quentin", "david", "sigy", spouse="jeanne")
    state = lord(state, "jeanne", "gunter", "vaux", spouse="quentin")
    asking = at_phase(state, "purchase", "david")
    assert Annul("david", "quentin") in legal_moves(asking)
    asked = apply(asking, Annul("david", "quentin"))
    assert legal_moves(asked) == [Answer("grady", True), Answer("grady", False)]
    done = apply(asked, Answer("grady", True))
    assert done.lord("quentin").spouse is None and done.lord("jeanne").spouse is None
    refused = apply(asked, Answer("grady", False))
    assert refused.lord("quentin").spouse == "jeanne"
    assert _refused(refused, Annul("david", "quentin")) == "pope/asked"
    royal = asking.with_lord(replace(asking.lord("quentin"), king=True))
    royal = replace(royal, prince_born=True)
    assert _refused(royal, Annul("david", "quentin")) == "pope/royal-marriage"


def test_a_diplomacy_marker_asks_for_up_to_three_deniers() -> None:
    """§12.4 (§13 item 60): a money transfer needs a spent Diplomacy marker (3 per family); the
    other family answers; the marker is spent either way."""
    from frcore_builders import money

    from engine.games.france1429.moves import Diplomacy

    state = money(money(at_phase(table(), "movement", "david"), "grady", 2), "david", 0)
    asked = apply(state, Diplomacy("david", "grady", 3))
    assert asked.family("david").diplomacy == 2
    assert legal_moves(asked) == [Answer("grady", True), Answer("grady", False)]
    given = apply(asked, Answer("grady", True))
    assert given.family("david").deniers == 2 and given.family("grady").deniers == 0
    refused = apply(asked, Answer("grady", False))
    assert refused.family("david").deniers == 0 and refused.family("david").diplomacy == 2
    spent = state.with_family(replace(state.family("david"), diplomacy=0))
    assert _refused(spent, Diplomacy("david", "grady", 1)) == "diplomacy/no-marker"


def test_a_diplomacy_marker_brings_one_or_more_cards_within_the_hand_limit() -> None:
    """EN §8.0: "Receive one or more cards from another Player, including Lord and Fortune Cards.
    The receiving player is still limited to 3 cards" (PL L2022-2026; FR-28): one marker, the
    other family gives card after card until it stops or the asker's hand is full."""
    from frcore_builders import hand

    from engine.games.france1429.moves import AskCard, GiveCard
    from engine.games.france1429.state import HARVEST, TAXES, UPRISING

    state = hand(at_phase(table(), "movement", "david"), "grady", TAXES, HARVEST, UPRISING)
    asked = apply(state, AskCard("david", "grady"))
    assert asked.family("david").diplomacy == 2
    assert legal_moves(asked) == [GiveCard("grady", TAXES), GiveCard("grady", HARVEST),
                                  GiveCard("grady", UPRISING), Answer("grady", False)]  # fmt: skip
    one = apply(asked, GiveCard("grady", TAXES))
    assert one.pending and one.pending[-1].kind == "card"  # he may give another
    two = apply(apply(one, GiveCard("grady", HARVEST)), Answer("grady", False))
    assert two.family("david").hand == (TAXES, HARVEST) and not two.pending
    assert two.family("grady").hand == (UPRISING,) and two.family("david").diplomacy == 2
    full = hand(asked, "david", TAXES, TAXES)  # 2 held: room for one more
    full = apply(full, GiveCard("grady", UPRISING))
    assert len(full.family("david").hand) == 3 and not full.pending
