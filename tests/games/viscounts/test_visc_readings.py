"""Rulebook readings re-decided against the seed (issue 27), one test each citing its lines
(seed 002, the Polish rulebook; docs/rules-decisions.md, Viscounts part). Where a reading is an
option, both values are tested.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from visc_registered import shipped
from visc_support import DATA, SEATS, settle, started

from engine.games.viscounts import resolve, rules, turn, views
from engine.games.viscounts import symbols as sym
from engine.games.viscounts.data import data_gaps
from engine.games.viscounts.effects import parse_effect
from engine.games.viscounts.game import GAME
from engine.games.viscounts.moves import Choose, PickPair, Skip
from engine.games.viscounts.state import Turn, VState
from engine.violations import RuleViolation


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


# --- Collision step order: steps 3-4 pay the space the markers are on ----------------------------


def _collision(space_option: str | None) -> tuple[VState, VState]:
    """Ann's markers stacked on space 3 of the stand-in's track, with the second Workshop built
    and no Villain: step 1 gives her 1 Virtue (L684-685). Bob shows no Villain either."""
    state = replace(started(2), round=3)
    if space_option is not None:
        state = replace(state, options={**state.options, "collision_space": space_option})
    state = state.with_player(0, corruption=3, virtue=3, stacked=True, board=("baker", None, None),
                              built=(("workshop", 1, "site-3-0"),), silver=0)  # fmt: skip
    state = state.with_player(1, board=("baker", None, None), silver=0)
    return state, resolve.run(turn.collision(replace(state, phase="collision")))


def test_collision_default_pays_the_space_the_stack_moved_to() -> None:
    """L249-250: "Od tej chwili, do momentu rozpatrzenia Kolizji, obydwa znaczniki będą poruszać
    się razem" and L683-690: the bonuses above / below the space "na którym znajdują się" the
    markers. Step 1's Virtue moves the stack from space 3 to space 2 before steps 3-4: Ann is
    paid space 2's "above" (flip a Debt or Deed: her Deed from Player card 10), Bob space 2's
    "below" (no Villain: 1 Virtue), not space 3's (1 resource and 1 Silver; 1 Silver)."""
    before, after = _collision(None)
    assert before.players[0].deeds == 1
    assert after.players[1].virtue == before.players[1].virtue - 1
    assert after.players[1].silver == 0
    assert after.players[0].silver == 0 and after.players[0].granted == 1
    assert not after.players[0].stacked  # reset after step 4 (L691-693)


def test_collision_option_start_pays_the_space_the_collision_was_found_on() -> None:
    """Option ``collision_space`` = ``"start"``: steps 3-4 pay space 3 whatever step 1 moved."""
    before, after = _collision("start")
    assert after.ask is not None and after.ask.asks == "resource"  # space 3: "1 resource, ..."
    after = settle(after)  # Ann takes a resource and 1 Silver; step 4 follows
    assert after.players[0].silver == 1
    assert after.players[1].silver == 1 and after.players[1].virtue == before.players[1].virtue


# --- VW-20: Starting icons ------------------------------------------------------------------------


def test_vw20_starting_icons_count_while_uncovered_in_the_first_two_turns() -> None:
    """Seed L156-157: "Ikony Początkowe - dostępne wyłącznie gdy są odkryte, w pierwszych dwóch
    turach gracza". The stand-in prints a Merchant, a Builder and a Cleric under the three card
    spaces: with one card played, the two spaces still uncovered count in rounds 1 and 2, for
    the seat whose turn it is; not in round 3, not for another seat, not under a card."""
    state = started(2).with_player(0, board=("abbot", None, None))
    assert state.round == 1 and state.active() == 0
    supply = rules.supply(state, 0)
    assert sym.count(supply, "builder") == 1 and sym.count(supply, "cleric") == 3
    assert sym.count(supply, "merchant") == 0  # covered by the Abbot
    assert sym.count(rules.supply(replace(state, round=2), 0), "builder") == 1
    assert sym.count(rules.supply(replace(state, round=3), 0), "builder") == 0
    other = state.with_player(1, board=("abbot", None, None))
    assert sym.count(rules.supply(other, 1), "builder") == 0  # not bob's turn
    covered = state.with_player(0, board=("abbot", "acolyte", "abbot"))
    assert sym.count(rules.supply(covered, 0), "builder") == 0


def test_vw20_box_data_name_the_starting_icons_as_a_gap() -> None:
    """The box set does not know the icons (the seed's picture is no text): a named gap."""
    gaps = {g.what for g in data_gaps(shipped("box"))}
    assert "starting_icons" in gaps


# --- VW-16, VW-17: the printed board Manuscripts and Townsfolk are data --------------------------


def test_vw16_vw17_the_printed_board_cards_are_in_both_shipped_sets() -> None:
    """L652-654 (a printed Manuscript under each stack) and L672-674 (a printed Townsfolk under
    each deck): the stand-in invents all five of each; the box names each unknown value."""
    assert len(DATA.printed_manuscripts) == 5 and len(DATA.printed_townsfolk) == 5
    assert all(m.cost is not None and m.effect is not None for m in DATA.printed_manuscripts)
    box = shipped("box")
    assert len(box.printed_manuscripts) == 5 and len(box.printed_townsfolk) == 5
    gaps = {g.what for g in data_gaps(box)}
    assert "printed_manuscripts[printed-manuscript-1].cost" in gaps
    assert "printed_townsfolk[printed-townsfolk-5].hire" in gaps


def test_vw17_a_printed_townsfolk_is_never_hired() -> None:
    """L672-674: "Co prawda nie można ich zatrudnić" - an empty deck offers no Hire."""
    state = replace(started(2), decks=((), (), (), (), ()))
    assert rules.hire_targets(state, 0, here_only=False) == ()
    assert turn.hire_deck(state, 0) is None
    # the table and phones see what is printed there (public: it lies on the board)
    shown = views.view(state, None)
    assert shown["decks"][0] == {"top": None, "size": 0, "printed": "printed-townsfolk-1"}
    assert shown["cards"]["printed-townsfolk-1"]["symbols"] == ["builder"]


# --- VW-7: a main action is owed when one can be paid --------------------------------------------


def _at_trade(options: dict[str, object]) -> VState:
    """Ann beside an outer town with a Trader (a Merchant) on her board: a Trade can be paid."""
    state = started(2).with_player(0, town="outer-3-left", board=("trader", None, None), silver=0)
    return replace(state, phase="action", current=Turn(played="trader"), options=options)


def test_vw7_by_default_a_main_action_is_owed() -> None:
    """L401: "W tej fazie gracze wykonują tylko 1 z 4 możliwych akcji głównych" - players take
    one of the four main actions; the rulebook says "mogą" (may) where a step is optional (the
    Hire, L667; a dismissal, L413) and not here. So Skip is offered only when no main action
    can be paid (the default options, no ``skip_action`` given)."""
    state = _at_trade({})
    assert Skip("ann") not in turn.legal_moves(state)
    with pytest.raises(RuleViolation) as refused:
        turn.apply(state, Skip("ann"))
    assert refused.value.violations[0].code == "action/no-skip"
    assert GAME.info.option_defaults()["skip_action"] is False


def test_vw7_option_skip_action_lets_a_player_take_no_main_action() -> None:
    state = _at_trade({"skip_action": True})
    assert Skip("ann") in turn.legal_moves(state)
    assert turn.apply(state, Skip("ann")).current.action == "skip"


# --- VW-16: a free Manuscript sees the printed ones ----------------------------------------------


def test_vw16_a_free_manuscript_may_be_a_printed_one_for_its_effect() -> None:
    """L1044-1046: a free Manuscript of cost 3 or 4 "spośród tych widocznych na planszy
    Głównej"; L950 calls it a free Transcription ("darmowe Przepisanie Manuskryptu"), and
    L652-654 let a printed Manuscript be Transcribed for its effect. The stand-in prints costs
    3, 4, 3, 4, 5 under the five stacks: with every stack empty, parts 0-3 are offered."""
    state = replace(started(2), stacks=((), (), (), (), ()))
    assert rules.manuscript_targets(state) == ("0", "1", "2", "3")
    silver = state.players[0].silver
    after = resolve.run(rules.take_manuscript(state, 0, 0))  # printed-manuscript-1: 2 Silver
    assert after.players[0].silver == silver + 2 and after.players[0].manuscripts == ()
