"""The turn flow as data: steps, sub-games on a stack, out-of-turn windows, sealed moves.

A game declares its :class:`TurnFlow` (which move kinds each step takes and how its actors are
chosen) and reports where a state stands with ``position(state)``; the core checks a move
against that declaration before the game's own rules see it, so "not now", "not you" and "not
in this sub-game" are decided in one place for every game (boardgame.io's phases and turn order;
TAG's stack of extended sequences; Swords and Ravens' sealed bids).

- A **step** takes some move kinds; its ``order`` says who acts: ``table`` (an observation of
  chance: reveals, rolls, deals), ``seat`` (the seats the game names, one at a time as a rule),
  ``seats`` (several seats at once, in any order) or ``sealed`` (every named seat commits a move
  privately; nothing of it shows in another view until the last commitment, when the game
  reveals them all in that one event).
- A **sub-game** (a contest, a battle, a vote) is a sequence of steps pushed on the stack by
  the game and popped when it ends; while it runs, only its innermost step's moves are open.
- A **window** opens moves to seats out of turn (an owner answering a request to pass
  through, a card played before a vote) without changing whose turn it is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal

from engine import codec
from engine.capabilities import FLOW, FLOW_KIND, REVEALS, FlowGame, capability
from engine.game import TABLE
from engine.violations import Violation

Order = Literal["table", "seat", "seats", "sealed"]
ORDERS: tuple[Order, ...] = ("table", "seat", "seats", "sealed")
REF = "engine: turn flow (phases, steps, sub-games, windows)"


@dataclass(frozen=True)
class Step:
    """One step of play: the move kinds it takes and how its actors are chosen."""

    name: str
    moves: tuple[str, ...]
    order: Order = "seat"


@dataclass(frozen=True)
class SubGame:
    """A sequence of steps the game pushes on the stack (a contest, a battle, a vote)."""

    name: str
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Window:
    """Moves open to some seats out of turn while the window is open."""

    name: str
    moves: tuple[str, ...]


@dataclass(frozen=True)
class TurnFlow:
    """A game's whole turn flow: top-level steps, sub-games and windows, by name."""

    steps: tuple[Step, ...]
    subgames: tuple[SubGame, ...] = ()
    windows: tuple[Window, ...] = ()

    @cached_property
    def _by_name(self) -> dict[str, Step]:
        found = {f"{g.name}/{s.name}": s for g in self.subgames for s in g.steps}
        found.update((s.name, s) for s in self.steps)
        return found

    def step(self, name: str) -> Step:
        """The step called ``name``: a top-level one, or ``"<sub-game>/<step>"``."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"the turn flow has no step {name!r}") from None

    def window(self, name: str) -> Window:
        for window in self.windows:
            if window.name == name:
                return window
        raise KeyError(f"the turn flow has no window {name!r}")

    def problems(self, kinds: tuple[str, ...]) -> list[str]:
        """What is wrong with the declaration against the game's move kinds (a conformance test).

        Every step and window names only move kinds the game has, every order is known, and
        every move kind is taken by some step or window.
        """
        out: list[str] = []
        known = set(kinds)
        used: set[str] = set()
        named = [*self.steps, *(s for g in self.subgames for s in g.steps)]
        seen: set[str] = set()
        for step in named:
            if step.order not in ORDERS:
                out.append(f"step {step.name}: unknown order {step.order!r}")
            for kind in step.moves:
                if kind not in known:
                    out.append(f"step {step.name}: unknown move kind {kind!r}")
            used.update(step.moves)
        for step in self.steps:
            if step.name in seen:
                out.append(f"step {step.name} declared twice")
            seen.add(step.name)
        for window in self.windows:
            for kind in window.moves:
                if kind not in known:
                    out.append(f"window {window.name}: unknown move kind {kind!r}")
            used.update(window.moves)
        out += [f"move kind {k!r} is taken by no step or window" for k in sorted(known - used)]
        return out


@dataclass(frozen=True)
class OpenWindow:
    """A window open now, and the seats it is open to."""

    name: str
    seats: tuple[str, ...]


@dataclass(frozen=True)
class Position:
    """Where a state stands in the flow: the step (the innermost sub-game step when the stack is
    not empty), who acts in it, the stack of sub-games, the open windows."""

    step: str
    actors: tuple[str, ...]
    stack: tuple[str, ...] = ()
    windows: tuple[OpenWindow, ...] = ()

    @property
    def active(self) -> str:
        """The name of the step whose moves are open: ``"<sub-game>/<step>"`` inside one."""
        return f"{self.stack[-1]}/{self.step}" if self.stack else self.step


@dataclass(frozen=True)
class Sealed:
    """The sealed commitments of the step under way, kept in a game's state as ``sealed``.

    ``commits`` pairs each seat with its move as JSON text; the core writes it, the core's
    presentation shows a seat only its own, and the game sees them all at the reveal.
    """

    step: str = ""
    commits: tuple[tuple[str, str], ...] = ()

    def seats(self) -> tuple[str, ...]:
        return tuple(seat for seat, _ in self.commits)


@dataclass(frozen=True)
class Reveal:
    """What a sealed step's reveal hands the game: every seat's move, in commit order."""

    step: str
    moves: tuple[tuple[str, Any], ...] = field(default_factory=tuple)


def kind_of(game: object, move: Any) -> str:
    """The move kind the flow gates on: ``game.flow_kind(move)`` if the game refines it (a move
    wrapping a sub-game's move), else the move class's ``kind``."""
    refine = capability(game, FLOW_KIND)
    if refine is not None:
        return str(refine.flow_kind(move))
    return str(type(move).kind)


def on_flow(game: object) -> FlowGame | None:
    """``game`` as a game on the declarative flow (it declares a :class:`TurnFlow` as ``flow``
    and reports ``position(state)``), or None for a game that keeps its own turn order."""
    found = capability(game, FLOW)
    return found if found is not None and isinstance(found.flow, TurnFlow) else None


def has_flow(game: object) -> bool:
    """Whether ``game`` is on the declarative flow (:func:`on_flow`)."""
    return on_flow(game) is not None


def sealed_of(state: Any) -> Sealed:
    found = getattr(state, "sealed", None)
    return found if isinstance(found, Sealed) else Sealed()


def actors(game: FlowGame, state: Any, pos: Position | None = None) -> tuple[str, ...]:
    """Who the game waits for: the step's actors, less the seats that sealed their move."""
    if pos is None:
        pos = game.position(state)
    step = game.flow.step(pos.active)
    if step.order != "sealed":
        return pos.actors
    done = set(sealed_of(state).seats()) if sealed_of(state).step == pos.active else set()
    return tuple(s for s in pos.actors if s not in done)


def gate(game: FlowGame, state: Any, move: Any, pos: Position | None = None) -> list[Violation]:
    """The flow's verdict on ``move`` before the game's rules: empty when the flow lets it through.

    Refuses a move kind the active step (or an open window for its seat) does not take, a seat
    that is not among the step's actors, and a second sealed move from one seat. ``pos`` is
    ``game.position(state)`` when the caller has it already.
    """
    if pos is None:
        pos = game.position(state)
    kind = kind_of(game, move)
    who = game.actor(move)
    step = game.flow.step(pos.active)
    if step.order != "sealed" and kind in step.moves and who in pos.actors:
        return []  # the usual case, without building the sealed bookkeeping
    waiting = actors(game, state, pos)
    if kind in step.moves and who in waiting:
        return []
    for window in pos.windows:
        if who in window.seats and kind in game.flow.window(window.name).moves:
            return []
    if kind in step.moves and step.order == "sealed" and who in pos.actors:
        return [Violation("flow/already-sealed", REF, {"seat": who, "step": pos.active})]
    if kind in step.moves or who not in (*waiting, *(s for w in pos.windows for s in w.seats)):
        return [
            Violation(
                "turn/not-your-turn", REF, {"actor": who, "waiting": ", ".join(waiting) or "-"}
            )
        ]
    return [Violation("flow/not-now", REF, {"kind": kind, "step": pos.active})]


def is_sealed_move(game: FlowGame, state: Any, move: Any, pos: Position | None = None) -> bool:
    """True when ``move`` is a commitment to the sealed step under way."""
    if pos is None:
        pos = game.position(state)
    step = game.flow.step(pos.active)
    return step.order == "sealed" and kind_of(game, move) in step.moves


def commit(game: FlowGame, state: Any, move: Any) -> Any:
    """The state with ``move`` sealed; once every actor has sealed, the game's reveal of all.

    The reveal happens inside the event of the last commitment, so it is one event: no view
    ever shows some moves revealed and others not.
    """
    pos: Position = game.position(state)
    held = sealed_of(state)
    if held.step != pos.active:
        held = Sealed(pos.active)
    text = json.dumps(codec.encode(move), sort_keys=True)
    held = replace(held, commits=(*held.commits, (game.actor(move), text)))
    state = replace(state, sealed=held)
    if set(held.seats()) < set(pos.actors):
        return state
    union = codec.union_of(game.move_types)
    moves = tuple((seat, codec.decode(union, json.loads(t))) for seat, t in held.commits)
    state = replace(state, sealed=Sealed())
    revealer = capability(game, REVEALS)
    if revealer is None:
        raise TypeError(f"a sealed step needs the game verb reveal(state, sealed): {pos.active}")
    return revealer.reveal(state, Reveal(pos.active, moves))


def sealed_kinds(game: object) -> frozenset[str]:
    """Move kinds taken only by sealed steps: their public labels never show what was sealed."""
    flowing = on_flow(game)
    if flowing is None:
        return frozenset()
    declared = flowing.flow
    steps = [*declared.steps, *(s for g in declared.subgames for s in g.steps)]
    sealed = {k for s in steps if s.order == "sealed" for k in s.moves}
    open_ = {k for s in steps if s.order != "sealed" for k in s.moves}
    open_ |= {k for w in declared.windows for k in w.moves}
    return frozenset(sealed - open_)


def table_steps(game: FlowGame) -> set[str]:
    """Names of every step whose moves are observations of chance."""
    flow = game.flow
    names = {s.name for s in flow.steps if s.order == "table"}
    names |= {f"{g.name}/{s.name}" for g in flow.subgames for s in g.steps if s.order == "table"}
    return names


__all__ = [
    "TABLE",
    "FlowGame",
    "OpenWindow",
    "Order",
    "Position",
    "Reveal",
    "Sealed",
    "Step",
    "SubGame",
    "TurnFlow",
    "Window",
    "actors",
    "commit",
    "gate",
    "has_flow",
    "is_sealed_move",
    "kind_of",
    "on_flow",
]
