"""A sub-game of several steps run on top of a phase (TAG's ``IExtendedSequence``): a battle,
Phase 1's elections.

A sequence knows its own steps, whose each one is, the moves each allows and what they do, and
says when it is done; the round driver (``rounds``) knows only which sequences may run, in what
order they stack, and what comes after each. So a sequence never calls back into the round, and
the round needs none of a sequence's insides.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from engine.flow import Position
from engine.games.france1429.state import FranceState


class Sequence(Protocol):
    """One kind of sub-game; its progress lives in the state (frozen), never in the object."""

    name: str
    """The sub-game's name on the turn flow (``rounds.FLOW``)."""

    windowed: bool
    """The ``opportunity`` window stays open to the other families while it runs (FR-10)."""

    def running(self, state: FranceState) -> bool:
        """It is under way: its next step waits for a move (False: done, or never started)."""
        ...

    def position(self, state: FranceState) -> Position:
        """Its current step and who acts in it (only while ``running``)."""
        ...

    def legal_moves(self, state: FranceState) -> list[Any]:
        """Every legal move of its current step (only while ``running``)."""
        ...

    def apply(self, state: FranceState, move: Any) -> FranceState:
        """The state after ``move`` in its current step, or ``Refused`` with the reason."""
        ...

    def report(self, state: FranceState, rng: random.Random) -> Any:
        """What a simulated table reports in its current step, drawn from ``rng`` (None: a
        family acts)."""
        ...
