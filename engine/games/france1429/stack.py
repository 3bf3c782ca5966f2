"""The questions a phase waits on, as a stack (TAG's stack of extended sequences): a proposal
put to a bride's family, a request to pass, a card the table must show, a die it must roll.

A rule that needs an answer pushes its question; the rule that takes the answer pops it. The
round driver (``rounds``) looks the top one up in ``questions`` to say who acts; nothing here
knows the phases or the rules, so every rule module may use it without depending on the round.
"""

from __future__ import annotations

from dataclasses import replace

from engine.games.france1429.state import FranceState, Pending


def push(state: FranceState, pending: Pending) -> FranceState:
    """``state`` waiting on ``pending`` before the question under it."""
    return replace(state, pending=(*state.pending, pending))


def pop(state: FranceState) -> FranceState:
    """``state`` with its top question answered (the one under it is asked again)."""
    return replace(state, pending=state.pending[:-1])
