"""Middle Ages' turn flow as data: the steps of the rulebook's order and the moves each takes.

The core (``engine.flow``) checks every move against this before ``checks`` sees it: a tile row
revealed while the game waits for a Lord, or a Scout placed when the pending effect is a Church,
is refused there. ``play.actor`` still names the one seat (or the table) each step waits for.
"""

from __future__ import annotations

from engine.flow import Position, Step, TurnFlow
from engine.games.middle_ages.play import actor
from engine.games.middle_ages.state import State

FLOW = TurnFlow(
    steps=(
        Step("setup-rows", ("reveal",), "table"),
        Step("setup-events", ("events",), "table"),
        Step("setup-order", ("order",), "table"),
        Step("placement", ("place",)),
        Step("turn", ("lord",)),
        # an effect that needs its owner's choice pauses the turn (§5): one step per effect
        Step("choice-village", ("return",)),
        Step("choice-reconstruction", ("return",)),
        Step("choice-walls", ("scout",)),
        Step("choice-church", ("coin",)),
        Step("choice-palace", ("story",)),
        Step("refill", ("reveal",), "table"),
        Step("over", ()),
    )
)


def position(state: State) -> Position:
    """The step ``state`` stands in and the one seat (or the table) it waits for."""
    step = str(state.phase)
    if state.phase == "choice" and state.pending is not None:
        step = f"choice-{state.pending.kind}"
    seat = actor(state)
    return Position(step, () if seat is None else (seat,))
