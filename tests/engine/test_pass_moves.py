"""Which move a seat box's pass button makes (docs/devices.md: ``pass`` declines): each game
says so itself (``is_pass``), the devices layer no longer guesses from empty fields."""

from __future__ import annotations

from engine import get_game
from engine.game import is_pass
from engine.games.glory.duel_state import Decline
from engine.games.glory.state import DuelStep, PlayQuest, Register, StopQuests, TryTitle
from engine.games.middle_ages.moves import MoveLord, ReturnTile


def test_middle_ages_pass_is_declining_the_village_effect_only() -> None:
    """Village effect with `village_optional` (MA-8, §12.9): giving no tile back is the pass;
    the Lord leaving the board in round 16 (``slot`` None) is a move, not a pass."""
    game = get_game("middle-ages")
    assert is_pass(game, ReturnTile("blue", None))
    assert not is_pass(game, MoveLord("blue", None))
    assert not is_pass(game, MoveLord("blue", 2))


def test_glory_passes_are_the_declines_of_the_player_board() -> None:
    """Glory: "pass" on the Player Board (a duel step left alone), no more Quest cards, no
    registration, a Title given up."""
    game = get_game("glory")
    assert is_pass(game, DuelStep(Decline("red")))
    assert is_pass(game, StopQuests("red"))
    assert is_pass(game, Register("red", None, None))
    assert not is_pass(game, Register("red", None, 3))
    assert is_pass(game, TryTitle("red", "dzielny", fight=False))
    assert not is_pass(game, TryTitle("red", "dzielny"))
    assert not is_pass(game, PlayQuest("red", "bal", 0))


def test_a_game_without_a_pass_declares_none() -> None:
    class NoPass:
        pass

    assert not is_pass(NoPass(), ReturnTile("blue", None))
