"""Glory's turn flow as data (§4.1): the phases, the duel as a sub-game, the moves each takes.

The core (``engine.flow``) checks every move against this before ``turn.apply`` runs it, so a
Quest card played in the Action Phase or a die rolled for a duel no one fights is refused in
one place. ``turn.to_act`` still names who each step waits for; a duel is a sub-game pushed while
``state.pending`` is a duel, its steps those of §5 (the duel engine's own ``step``).
"""

from __future__ import annotations

from typing import Any

from engine.flow import Position, Step, SubGame, TurnFlow
from engine.games.glory import turn
from engine.games.glory.state import MOVE_TYPES, DuelStep, GloryState

_DECIDE = ("duel:ally", "duel:decline")

FLOW = TurnFlow(
    steps=(
        Step("setup", ("setup",), "table"),
        Step("characters", ("character",), "seats"),
        Step("hands", ("deal-hands",), "table"),
        Step("keep", ("keep",), "seats"),
        # SIR's turn is the table's: its solo card is drawn (Appendix A)
        Step("action", ("place", "solo-draw")),
        Step("quest", ("quest", "stop")),
        Step("refresh", ("refill",), "table"),
        Step("registration", ("register", "fill", "solo-draw")),
        Step("tournament", ("quest", "stop", "next-tournament")),
        Step("final-quest", ("quest", "stop")),
        Step("titles", ("try-title",), "seats"),
        Step("draw-titles", ("draw",), "table"),
        Step("draw-quests", ("draw",), "table"),
        Step("keep-titles", ("keep-titles",)),
        Step("over", ()),
    ),
    subgames=(
        SubGame(
            "duel",
            (
                Step("tent", _DECIDE),
                Step("strength", ("duel:strength", "duel:decline")),
                Step("roll", ("duel:roll",), "table"),
                Step("reroll", ("duel:reroll",), "table"),
                Step("faith", ("duel:faith", "duel:decline")),
                Step("lance1", _DECIDE),
                Step("lance2", _DECIDE),
                Step("relic", ("duel:relic", "duel:decline")),
                Step("recover", ("duel:recover",)),
                Step("over", ()),
            ),
        ),
    ),
)


FLOW_KINDS: tuple[str, ...] = tuple(
    sorted(
        {str(getattr(m, "kind", "")) for m in MOVE_TYPES} - {"duel"}
        | {k for g in FLOW.subgames for step in g.steps for k in step.moves}
    )
)
"""The kinds the flow gates on: every move kind, a duel's step by the kind of the move inside."""


def flow_kind(move: Any) -> str:
    """A duel's decisions and dice are gated by the duel's step: ``duel:<its move kind>``."""
    if isinstance(move, DuelStep):
        return f"duel:{type(move.move).kind}"
    return str(type(move).kind)


def position(state: GloryState) -> Position:
    """The phase (or the pending draw, choice or duel step) and who it waits for."""
    actors = turn.to_act(state)
    pending = state.pending
    if state.phase == "over":
        return Position("over", ())
    if pending is None:
        return Position(str(state.phase), actors)
    if pending.kind == "duel" and state.duel is not None:
        duel = state.duel
        step = "reroll" if duel.pending is not None else str(duel.step)
        return Position(step, actors, stack=("duel",))
    return Position(str(pending.kind), actors)
