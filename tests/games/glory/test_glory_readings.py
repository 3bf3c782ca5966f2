"""Glory readings re-checked against the Polish rulebook for issue 15 (docs/rules-decisions.md
GL-30, GL-37, GL-54): what the defaults now follow, and the named options that keep the other
readings."""

from __future__ import annotations

import pytest
from glory_game_builders import (
    BOX,
    SEATS2,
    SEATS3,
    G,
    auto,
    codes,
    deal_hands,
    new,
    place_all,
    play,
    setup_deal,
    stop_quests,
    to_action,
)

from engine.games.glory.state import ChooseCharacter, KeepCards, Place, Register
from engine.violations import InputError


def _hands(**options: object):  # type: ignore[no-untyped-def]
    state = new(SEATS3, **options)
    state = play(state, setup_deal(state, order=("b", "c", "a")))
    state = play(state, *(ChooseCharacter(s, "rycerz") for s in SEATS3))
    return play(state, deal_hands(state))


def test_gl30_any_starting_quest_card_may_go_back_for_strength() -> None:
    """GL-30 [L249-251]: "mogą zwrócić dowolne karty Wypraw": the third player, dealt two
    compensation Challenge cards with its hand, may return all of them, 1 Strength each."""
    state = _hands()
    a = state.player("a")
    listed = sum((BOX.characters["rycerz"].quests or {}).values())
    assert len(a.hand) > listed
    move = KeepCards("a", a.offered[:1], a.hand)
    assert codes(state, move) == []
    assert play(state, move).player("a").strength == a.strength + len(a.hand)


def test_gl30_the_character_cap_is_a_named_option() -> None:
    state = _hands(quest_return="character")
    a = state.player("a")
    assert codes(state, KeepCards("a", a.offered[:1], a.hand)) == ["setup/return-quests"]


def _pas_registration(**options: object):  # type: ignore[no-untyped-def]
    state = to_action(options={"tournament": "pas-d-armes", **options})
    state = play(state, Place("a", "herald", city=2, slot=0))
    return auto(stop_quests(place_all(state)), lambda s: s.phase == "registration", 1)


def test_gl37_pas_d_armes_registration_goes_on_while_a_knight_is_free() -> None:
    """GL-37 [L604-616, L659-664]: crests are placed until no Knight is free for the player or
    it is in every city; stopping earlier is refused by default."""
    state = _pas_registration()
    assert codes(state, Register("a")) == ["registration/must-place"]
    assert Register("a") not in G.legal_moves(state)


def test_gl37_stopping_early_is_a_named_option() -> None:
    state = _pas_registration(pas_register="optional")
    assert codes(state, Register("a")) == []


def test_gl54_an_experienced_player_starts_with_lower_horse_and_armour() -> None:
    """GL-54 [L194-198]: an experienced player may lower its Horse and/or Armour level."""
    state = new(SEATS2, handicap={"a": {"horse": 1, "armour": 3}})
    state = play(state, setup_deal(state))
    state = play(state, *(ChooseCharacter(s, "rycerz") for s in SEATS2))
    card = BOX.characters["rycerz"]
    a, b = state.player("a"), state.player("b")
    assert (a.horse, a.armour) == ((card.horse or 2) - 1, 1)  # never below Level 1
    assert (b.horse, b.armour) == (card.horse, card.armour)


@pytest.mark.parametrize(
    "handicap", [{"z": {"horse": 1}}, {"a": {"speed": 1}}, {"a": {"horse": 9}}, ["a"]]
)
def test_gl54_a_handicap_naming_no_seat_or_no_level_is_refused(handicap: object) -> None:
    with pytest.raises(InputError):
        new(SEATS2, handicap=handicap)
