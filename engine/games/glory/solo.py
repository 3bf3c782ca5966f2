"""Solo play against SIR (Appendix A). SIR's actions are not refereed yet."""

from __future__ import annotations

import random

from engine.games.glory.game_state import GloryState, Move, Player, SoloDraw
from engine.games.glory.refs import Refused, v

SIR_SEAT = "sir"
"""SIR's seat name: it places pawns, blocks fields and (Rival) duels, but no person plays it."""


def solo_players(players: tuple[str, ...]) -> tuple[Player, ...]:
    """The solo table: set up as a 2-player game with SIR as the second player [L1200-1205]."""
    return (Player(players[0]), Player(SIR_SEAT, sir=True))


def apply_draw(state: GloryState, move: SoloDraw) -> GloryState:
    raise Refused(v("solo/not-supported", "solo"))


def sample(state: GloryState, rng: random.Random) -> Move | None:
    return None


def solo_winners(state: GloryState) -> tuple[str, ...]:
    raise Refused(v("solo/not-supported", "solo"))
