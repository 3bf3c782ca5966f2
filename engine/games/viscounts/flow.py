"""Viscounts' turn flow as data: the six phases' steps (with setup's), the moves each takes,
and the sub-games the effect queue opens when it asks (a seat's answer, a card the table
reveals, the solo AI's Scheme card).

The core (``engine.flow``) checks every move against this before ``turn`` sees it;
``turn.actor`` still names the one seat (or the table) each step waits for.
"""

from __future__ import annotations

from engine.flow import Position, Step, SubGame, TurnFlow
from engine.games.viscounts.state import VState
from engine.games.viscounts.turn import actor

FLOW = TurnFlow(
    steps=(
        Step("lay", ("lay",), "table"),
        Step("pairs", ("pick-pair",)),
        Step("play", ("play",)),
        Step("move", ("travel",)),
        Step("action", ("trade", "build", "workers", "transcribe", "skip")),
        Step("hire", ("hire", "pass")),
        Step("ai", ("ai-step",)),
        Step("over", ()),
    ),
    subgames=(
        SubGame("choice", (Step("answer", ("choose",)),)),
        SubGame("reveal", (Step("card", ("reveal",), "table"),)),
        SubGame("scheme", (Step("scheme-card", ("reveal-scheme",), "table"),)),
    ),
)


def position(state: VState) -> Position:
    """The step ``state`` stands in and who it waits for: a question the effect queue asks
    (``state.ask``) is a sub-game (a card the table reveals, a Scheme card, a seat's answer);
    otherwise the phase's step, the acting seat's."""
    who = actor(state)
    if who is None:
        return Position("over", ())
    if state.ask is not None:
        if state.ask.asks == "reveal":
            return Position("card", ("table",), ("reveal",))
        if state.ask.asks == "scheme":
            return Position("scheme-card", ("table",), ("scheme",))
        return Position("answer", (who,), ("choice",))
    step = (
        state.phase
        if state.phase in ("lay", "pairs", "play", "move", "action", "hire", "ai")
        else "play"
    )
    return Position(step, (who,))
