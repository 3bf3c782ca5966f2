"""Opportunity cards out of turn (digest §5 "any time except during the Draw step", §11.4,
§12.1; FR-10): the ``opportunity`` window of the turn flow opens to every family but the one
the game waits for, in every step a family acts in but the Draw, while no question or card is
being resolved; the Pope's excommunication too (FR-27)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from frcore_builders import at_phase, hand, lord, table, troops

from engine import flow, rules
from engine.games.france1429 import GAME
from engine.games.france1429.game import legal_moves, window_moves
from engine.games.france1429.moves import Answer, Attack, BattleRoll, Interject, Losses, PlayCard
from engine.games.france1429.state import AMBUSH, ASSASSINATION, DARC, TAXES, FranceState
from engine.violations import RuleViolation


def _refused(state: FranceState, move: object) -> str:
    with pytest.raises(RuleViolation) as info:
        rules.apply(GAME, state, move)
    return info.value.code


def _movement() -> FranceState:
    """David moves; Grady holds an Assassination and a Tax card; Mireille is unmarried."""
    state = troops(lord(table(), "thierry", "david", "vaux"), "david", "vaux", maa=2)
    state = troops(lord(state, "quentin", "grady", "blaye"), "grady", "blaye", maa=2)
    state = lord(state, "mireille", "kirsten", "sigy")
    state = at_phase(state, "movement", "david")
    return hand(hand(state, "grady", ASSASSINATION, TAXES), "kirsten", DARC)


def test_another_family_plays_an_opportunity_card_during_someones_turn() -> None:
    """§11.4: an Assassination any time: Grady plays it in David's Movement; the turn stays
    David's, and the window is open to every other family whatever its hand."""
    state = _movement()
    pos = GAME.position(state)
    assert pos.actors == ("david",)
    assert pos.windows == (flow.OpenWindow("opportunity", ("grady", "kirsten", "gunter")),)
    play = Interject("grady", ASSASSINATION, "thierry", "quentin")
    assert play in window_moves(state, "grady")
    assert play not in legal_moves(state)  # the legal moves are the waited-for seat's
    on_turn = PlayCard("grady", ASSASSINATION, "thierry", "quentin")
    assert _refused(state, on_turn) == "turn/not-your-turn"  # out of turn: an interjection
    assert window_moves(state, "gunter") == []  # open to him too, with nothing to play
    assert window_moves(state, "david") == []  # on his own turn he plays as usual
    assert _refused(state, Interject("david", DARC, "mireille")) == "flow/not-now"
    after = rules.apply(GAME, state, play)
    assert after.lord("quentin").assassin and after.pending[-1].kind == "cancel"
    assert after.current() == "david"


def test_lord_opportunity_cards_too_but_never_a_regular_card() -> None:
    """§12.1 (d'ARC any time, on any unmarried Lady) and §11.3 (regular Fortune cards only in
    one's own Play Cards step)."""
    state = _movement()
    after = rules.apply(GAME, state, Interject("kirsten", DARC, "mireille"))
    assert after.lord("mireille").darc
    assert _refused(state, Interject("grady", TAXES, "blaye", "quentin")) == "card/out-of-turn"


def test_not_in_the_draw_step_nor_during_anothers_card() -> None:
    """EN §2.4 "any time during any phase except during the Draw phase"; the EN FAQ (Phase 2,
    PL L2484-2485): in the Discard step yes (instead of discarding), in the Draw no. So the
    window is open while the acting family has drawn nothing yet, shut once it draws; a card
    does not interrupt another (PL FAQ): while a question is open, the window is shut."""
    state = _movement()
    discarding = replace(state, phase="draw")
    assert GAME.position(discarding).windows == (
        flow.OpenWindow("opportunity", ("grady", "kirsten", "gunter")),
    )
    assert (
        rules.apply(GAME, discarding, Interject("kirsten", DARC, "mireille")).lord("mireille").darc
    )
    draw = discarding.with_family(replace(discarding.family("david"), drawn=1))
    assert GAME.position(draw).windows == ()
    assert _refused(draw, Interject("kirsten", DARC, "mireille")) == "turn/not-your-turn"
    asking = rules.apply(GAME, state, Interject("grady", ASSASSINATION, "thierry", "quentin"))
    assert GAME.position(asking).windows == ()
    assert _refused(asking, Interject("kirsten", DARC, "mireille")) == "turn/not-your-turn"
    assert legal_moves(asking) == [Answer("david", False)]


def test_an_ambush_by_the_defender_while_the_attacker_decides() -> None:
    """§11.4: Ambush by a family with a Lord in the battle under way, out of turn: the
    defender captures the attacker's Lord while the attacker decides whether to go on."""
    state = troops(lord(table(), "thierry", "david", "vaux"), "david", "vaux", knights=1)
    state = troops(lord(state, "beaudoin", "grady", "vaux"), "grady", "vaux", knights=1)
    state = hand(at_phase(state, "battles", "grady"), "david", AMBUSH)
    state = rules.apply(GAME, state, Attack("grady", "vaux", "david"))
    assert GAME.position(state).windows == ()  # the table rolls: no window
    state = rules.apply(GAME, state, BattleRoll((1,), (1,)))
    state = rules.apply(GAME, state, Losses("grady", 0, 0))
    state = rules.apply(GAME, state, Losses("david", 0, 0))
    assert GAME.position(state).actors == ("grady",)
    ambush = Interject("david", AMBUSH, "beaudoin")
    assert ambush in window_moves(state, "david")
    state = rules.apply(GAME, state, ambush)
    state = rules.apply(GAME, state, Answer("grady", False))  # no Secret Passage to cancel it
    assert state.lord("beaudoin").captor == "david"


def test_opportunity_cards_on_ones_own_turn_in_phase_1_the_discard_and_pillage() -> None:
    """EN §2.4 (PL L993-995 "w dowolnym momencie gry poza fazą Dobieranie"): a family plays an
    Opportunity card on its own turn outside Phases 2c-6 too; a regular card still only in its
    Play Cards step (§11.3)."""
    state = _movement()
    for phase in ("marriage", "draw", "pillage"):
        turn = at_phase(replace(state, phase=phase), phase, "grady")  # type: ignore[arg-type]
        play = PlayCard("grady", ASSASSINATION, "thierry", "quentin")
        assert play in legal_moves(turn)
        assert PlayCard("grady", TAXES, "blaye", "quentin") not in legal_moves(turn)
        assert rules.apply(GAME, turn, play).lord("quentin").assassin
    drawn = at_phase(replace(state, phase="draw"), "draw", "grady")
    drawn = drawn.with_family(replace(drawn.family("grady"), drawn=1))
    assert PlayCard("grady", ASSASSINATION, "thierry", "quentin") not in legal_moves(drawn)
    assert _refused(drawn, PlayCard("grady", ASSASSINATION, "thierry", "quentin")) == (
        "round/not-now"
    )


def test_the_pope_excommunicates_and_lifts_it_at_any_time_even_out_of_turn() -> None:
    """EN p.6 §1.7 the Pope "Can excommunicate a Lord once per round, at any time"; PL L686-687
    ("w dowolnym momencie gry (raz na turę)"), L696-697 (he lifts it "w każdym momencie")."""
    from engine.games.france1429.moves import Absolve, Excommunicate

    state = lord(_movement(), "arthur", "gunter", "sigy", bishop=5, cardinal=True, pope=True)
    ban = Excommunicate("gunter", "thierry")
    assert ban in window_moves(state, "gunter") and ban not in legal_moves(state)
    banned = rules.apply(GAME, state, ban)
    assert banned.lord("thierry").excommunicated and banned.current() == "david"
    assert Absolve("gunter", "thierry") in window_moves(banned, "gunter")
    lifted = rules.apply(GAME, banned, Absolve("gunter", "thierry"))
    assert not lifted.lord("thierry").excommunicated
    assert _refused(state, Excommunicate("grady", "thierry")) == "pope/not-pope"
    marriage = at_phase(replace(state, phase="marriage"), "marriage", "gunter")
    assert ban in legal_moves(marriage)
