"""Rulebook readings re-decided against the seed (issue 27), one test each citing its lines
(seed 002, the Polish rulebook; docs/rules-decisions.md, Viscounts part). Where a reading is an
option, both values are tested.
"""

from __future__ import annotations

import random
from dataclasses import replace

from visc_support import DATA, SEATS, started

from engine.games.viscounts import resolve, rules, turn
from engine.games.viscounts.effects import parse_effect
from engine.games.viscounts.moves import Choose, PickPair
from engine.games.viscounts.state import VState


def _picked(numbers: tuple[int, ...]) -> VState:
    """A table laid out and its pairs taken in the order ``numbers`` name (Player cards)."""
    rng = random.Random(1)
    state = turn.initial(SEATS[: len(numbers)], {}, DATA)
    lay = turn.sample_lay(state, rng)
    famous = [f for _, f in lay.pairs]
    pairs = tuple(zip((*numbers, 10), famous, strict=True))
    state = turn.apply(state, replace(lay, pairs=pairs))
    while state.phase == "pairs" or state.ask is not None:
        chance = turn.sample_chance(state, rng)
        if chance is None and state.phase == "pairs" and state.ask is None:
            i = turn.picker(state)
            index = [n for n, _ in state.pairs].index(numbers[i])
            chance = PickPair(state.players[i].seat, index)
        state = turn.apply(state, chance if chance is not None else turn.legal_moves(state)[0])
    return state


# --- VW-8: setup step 9 before step 10 -----------------------------------------------------------


def test_vw8_player_card_debts_come_before_the_stacks_are_laid() -> None:
    """Seed L174-182 (step 9: each player takes the Debts and Deeds of their Player card),
    then L196-199 (step 10: lay as many Debts on the Poverty card as the player count asks).
    The stand-in's Player cards 3 and 6 each give a Debt, card 5 a Deed: the stacks laid after
    them hold the full count."""
    state = _picked((3, 5, 6))
    assert [p.player_card for p in state.players] == [3, 5, 6]
    assert [p.debts for p in state.players] == [1, 0, 1]
    assert state.players[1].deeds == 1
    assert state.debts_left == DATA.kingdom.poverty[3]
    assert state.deeds_left == DATA.kingdom.prosperity[3]
    assert not state.poverty and state.end_round is None


# --- VW-13: a priced effect is mandatory ----------------------------------------------------------


def _priced(state: VState, text: str, silver: int) -> VState:
    state = state.with_player(state.active(), silver=silver, deeds=0)
    effect = parse_effect(text, "test", "hire")
    return resolve.run(rules.push(state, rules.expand(state, state.active(), effect, "test")))


def test_vw13_a_priced_effect_that_can_be_paid_is_resolved() -> None:
    """Seed L1024-1025: "O ile nie jest to inaczej napisane, rozpatrzenie efektu jest
    obowiązkowe"; only Reorder, Discard, Destroy and the Worker shift are optional (L1065-1089).
    A price the seat can pay is paid: nothing is asked, nothing can be declined."""
    state = _priced(started(2), "1 silver -> 1 deed", silver=2)
    p = state.players[state.active()]
    assert state.ask is None and (p.silver, p.deeds) == (1, 1)


def test_vw13_a_price_the_seat_cannot_pay_lets_the_effect_pass() -> None:
    state = _priced(started(2), "1 silver -> 1 deed", silver=0)
    p = state.players[state.active()]
    assert state.ask is None and (p.silver, p.deeds) == (0, 0)


def test_vw13_several_ways_to_pay_are_asked_without_declining() -> None:
    state = _priced(started(2), "1 silver -> 1 deed or 2 ink", silver=1)
    assert state.ask is not None and state.ask.asks == "pay"
    assert state.ask.options == ("pay-0", "pay-1")


def test_vw13_option_decline_priced_offers_declining() -> None:
    """Option ``decline_priced`` true (a table's house reading): the priced effect is offered
    with ``decline``, and declining changes nothing."""
    base = started(2)
    state = _priced(replace(base, options={**base.options, "decline_priced": True}),
                    "1 silver -> 1 deed", silver=2)  # fmt: skip
    assert state.ask is not None and state.ask.options == ("pay-0", "decline")
    seat = state.players[state.ask.seat].seat
    declined = turn.apply(state, Choose(seat, "decline"))
    p = declined.players[state.ask.seat]
    assert (p.silver, p.deeds) == (2, 0)
