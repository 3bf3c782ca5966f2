"""Setup (digest §4; referee checks §13 items 1-2) and Phase 2's draw and Disaster track
(§5 Phase 2, §11.2; checks §13 items 14-17), each with a legal and an illegal case."""

from __future__ import annotations

from dataclasses import replace

import pytest
from frcore_builders import SEATS, at_phase, hand, lord, table, troops

from engine import data as gamedata
from engine.games.france1429 import GAME
from engine.games.france1429.game import apply, legal_moves
from engine.games.france1429.moves import (
    Deal,
    DealLord,
    DisasterDie,
    Discard,
    Done,
    Draw,
    LordDie,
    Losses,
    PlaceStart,
)
from engine.games.france1429.state import CARDINAL, DARC, FAMINE, HEAVY_RAIN, PLAGUE, TAXES, Pending
from engine.violations import RuleViolation


def _placed() -> object:
    state = gamedata.setup(GAME, ("a", "b", "c"), {})
    for seat, card in zip(("a", "b", "c"), ("quentin", "jeanne", "francois"), strict=True):
        state = apply(state, DealLord(seat, card))
    return state


def test_each_family_starts_with_five_deniers_and_one_lord_card() -> None:
    """§4 steps 4-6 (§13 item 1): 5 Deniers; one Lord card each, drawn in seat order."""
    state = gamedata.setup(GAME, ("a", "b", "c"), {})
    assert [f.deniers for f in state.families] == [5, 5, 5]
    state = apply(state, DealLord("a", "quentin"))
    assert state.family("a").hand == ("quentin",)
    with pytest.raises(RuleViolation) as info:
        apply(state, DealLord("c", "jeanne"))
    assert info.value.code == "setup/deal-order"


@pytest.mark.parametrize("card", [CARDINAL, DARC])
def test_no_starting_lord_is_a_cardinal_or_darc_card(card: str) -> None:
    """§4 step 4 (§13 item 2): a Cardinal or d'ARC card drawn at setup is drawn again."""
    state = gamedata.setup(GAME, ("a", "b", "c"), {})
    with pytest.raises(RuleViolation) as info:
        apply(state, DealLord("a", card))
    assert info.value.code == "setup/not-a-lord"


def test_starting_villages_are_distinct_and_get_lord_knight_men_and_stronghold() -> None:
    """§4 step 11 (§13 item 1): Lord, 1 Knight, 3 Men at Arms and a Stronghold, clockwise,
    each in a still unoccupied Village."""
    state = _placed()
    state = apply(state, PlaceStart("a", "st-medard"))
    t = state.troops_at("a", "st-medard")
    assert (t.maa, t.knights) == (3, 1)
    assert state.place("st-medard").fort == "stronghold"
    assert state.lord("quentin").village == "st-medard"
    assert state.stock_of("a", "maa") == 10 and state.stock_of("a", "knights") == 7
    with pytest.raises(RuleViolation) as info:
        apply(state, PlaceStart("b", "st-medard"))
    assert info.value.code == "setup/occupied"
    state = apply(apply(state, PlaceStart("b", "blaye")), PlaceStart("c", "sigy"))
    assert state.phase == "marriage" and state.round == 1


# --- Phase 2: draw ---------------------------------------------------------------------------


def _draw_phase(*cards: str) -> object:
    state = at_phase(table(), "draw", "grady")
    return hand(state, "grady", *cards)


def test_draw_two_fortune_cards_or_a_lord_and_a_fortune_never_two_lords() -> None:
    """§5 Phase 2 (§13 item 14): up to 2 cards, never 2 Lords."""
    state = apply(_draw_phase(), Draw("grady", "lords"))
    state = apply(state, Deal("grady", "quentin"))
    with pytest.raises(RuleViolation) as info:
        apply(state, Draw("grady", "lords"))
    assert info.value.code == "draw/two-lords"
    state = apply(apply(state, Draw("grady", "fortune")), Deal("grady", TAXES))
    assert state.family("grady").hand == ("quentin", TAXES)
    with pytest.raises(RuleViolation) as info:
        apply(state, Draw("grady", "fortune"))
    assert info.value.code == "draw/two-cards"


def test_hand_limit_three_and_discard_only_before_drawing() -> None:
    """§5 Phase 2: the hand holds at most 3 cards; discarding comes before drawing."""
    state = _draw_phase(TAXES, TAXES, TAXES)
    with pytest.raises(RuleViolation) as info:
        apply(state, Draw("grady", "fortune"))
    assert info.value.code == "draw/hand-limit"
    state = apply(state, Discard("grady", TAXES))
    state = apply(apply(state, Draw("grady", "fortune")), Deal("grady", TAXES))
    with pytest.raises(RuleViolation) as info:
        apply(state, Discard("grady", TAXES))
    assert info.value.code == "draw/discard-after-draw"


def test_a_disaster_drawn_goes_face_down_on_the_track_and_the_seat_draws_on() -> None:
    """§5 Phase 2 (§13 item 15): a Disaster goes to the first empty track space, unseen, and
    the seat keeps drawing; a 4th is discarded face up."""
    state = apply(_draw_phase(), Draw("grady", "fortune"))
    for card in (HEAVY_RAIN, FAMINE, PLAGUE, HEAVY_RAIN):
        state = apply(state, Deal("grady", card))
        assert state.pending  # still drawing
    assert state.track == (HEAVY_RAIN, FAMINE, PLAGUE)
    assert state.fortune_discard == {HEAVY_RAIN: 1}
    state = apply(state, Deal("grady", TAXES))
    assert not state.pending and state.family("grady").hand == (TAXES,)
    public = GAME.view(state, None)
    assert public["track"] == {"face_down": 3, "resolved": 0}
    assert HEAVY_RAIN not in str(public["track"])


def test_the_disaster_die_places_each_card_six_is_a_false_alarm_duplicates_reroll() -> None:
    """§11.2 (§13 item 16): 1-5 the Bishopric, 6 discards; the same type twice: re-roll (EN)."""
    state = at_phase(table(), "draw", "gunter")
    state = replace(state, track=(FAMINE, FAMINE, HEAVY_RAIN))
    state = apply(state, Done("gunter"))  # the last seat in order ends the draw step
    assert state.phase == "disasters"
    state = apply(state, DisasterDie(2))
    again = apply(state, DisasterDie(2))
    assert again == state  # a second Famine on Bishopric 2: roll again
    state = apply(state, DisasterDie(3))
    state = apply(state, DisasterDie(6))
    assert [(c.bishopric, c.card) for c in state.mitres] == [(2, FAMINE), (3, FAMINE)]
    assert state.phase == "play" and state.fortune_discard == {HEAVY_RAIN: 1}


def test_plague_rolls_for_each_lord_and_halves_each_army() -> None:
    """§11.2 (§13 item 17): Plague: 1D6 per Lord in the Bishopric (1-3 dies); each army loses
    half its counters, rounded down: 3 MaA + 2 Kn lose 2, which ones their family chooses (EN
    §2.3.3 "The Lord of these Troops decides which counters are removed"; PL L940-941; FR-6);
    a lone MaA loses nothing."""
    state = at_phase(table(), "draw", "gunter")
    state = lord(lord(state, "quentin", "grady", "sigy"), "jeanne", "david", "beaujeu")
    state = troops(troops(state, "grady", "sigy", maa=3, knights=2), "david", "beaujeu", maa=1)
    state = replace(state, track=(PLAGUE,))
    state = apply(apply(state, Done("gunter")), DisasterDie(5))
    assert state.troops_at("david", "beaujeu").maa == 1
    assert state.pending[-2] == Pending("plague-losses", "grady", village="sigy", amount=2)
    assert state.pending[-1].queue == ("quentin", "jeanne")
    with pytest.raises(RuleViolation):
        apply(state, LordDie("jeanne", 1))
    state = apply(apply(state, LordDie("quentin", 3)), LordDie("jeanne", 4))
    assert state.find_lord("quentin") is None and state.find_lord("jeanne") is not None
    assert state.lord_discard == {"quentin": 1}
    assert state.phase == "play" and legal_moves(state) == [
        Losses("grady", 2, 0), Losses("grady", 1, 1), Losses("grady", 0, 2)]  # fmt: skip
    state = apply(state, Losses("grady", 1, 1))
    t = state.troops_at("grady", "sigy")
    assert (t.maa, t.knights) == (2, 1) and not state.pending


def test_the_beginners_variant_discards_first_round_disasters() -> None:
    """§4 step 14: the first round's Disasters are discarded unresolved (option)."""
    state = at_phase(table(first_round_disasters="discard"), "draw", "gunter")
    state = replace(state, track=(PLAGUE,))
    state = apply(state, Done("gunter"))
    assert state.phase == "play" and state.fortune_discard == {PLAGUE: 1}


def test_the_hand_shows_only_in_its_owners_view() -> None:
    """Hidden information: a hand is in its owner's view only; others see its size."""
    state = _draw_phase(TAXES, "quentin")
    mine = GAME.view(state, "grady")["families"][0]
    theirs = GAME.view(state, "david")["families"][0]
    assert mine["hand"] == [TAXES, "quentin"]
    assert "hand" not in theirs and theirs["hand_size"] == 2
    assert all(m.seat == "grady" for m in legal_moves(state) if hasattr(m, "seat"))
    assert SEATS[0] == "grady"
