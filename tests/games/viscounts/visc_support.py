"""Positions the Viscounts rule tests start from: a game set up on the shipped stand-in data and
played to its first turn, and the effect queue answered (shared by the checks and the examples)."""

from __future__ import annotations

import random
from dataclasses import replace

from visc_registered import shipped

from engine.games.viscounts import turn
from engine.games.viscounts.data_types import ViscountsData
from engine.games.viscounts.moves import Choose
from engine.games.viscounts.state import VState

DATA = shipped()
SEATS = ("ann", "bob", "cyd", "dee")


def started(n: int = 2, data: ViscountsData = DATA, seed: int = 1) -> VState:
    """Set up for ``n`` seats (Main Actions may be skipped, VW-7) and played to the first turn:
    the table's lay-out and pairs taken, first options everywhere."""
    rng = random.Random(seed)
    state = turn.initial(SEATS[:n], {"skip_action": True}, data)
    state = turn.apply(state, turn.sample_lay(state, rng))
    while state.phase == "pairs" or state.ask is not None:
        chance = turn.sample_chance(state, rng)
        state = turn.apply(state, chance if chance is not None else turn.legal_moves(state)[0])
    return state


def settle(state: VState, answers: list[str] | None = None) -> VState:
    """Answer what the effect queue asks (``answers`` in order, then each first option) until
    it stops or the table must reveal a card."""
    answers = list(answers or [])
    while state.ask is not None and state.ask.asks != "reveal":
        seat = state.players[state.ask.seat].seat
        state = turn.apply(state, Choose(seat, answers.pop(0) if answers else state.ask.options[0]))
    return state


def without_printed(state: VState) -> VState:
    """``state`` with data that hold no Townsfolk or Manuscript printed on the board (a user's
    data that leave them out): an empty deck or stack then offers nothing (VW-16, VW-17)."""
    doc = {**state.doc, "printed_townsfolk": [], "printed_manuscripts": []}
    return replace(state, doc=doc)
