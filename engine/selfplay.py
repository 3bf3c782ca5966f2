"""Random legal play of whole games: the conformance run every registered game must pass.

OpenSpiel runs random play over every game; so do we. Chance comes from the game's own
``sample_chance`` with the rng handed in here, so a seed reproduces a game exactly. An *error* is
anything a correct engine never does: a move from ``legal_moves`` refused by the checked
``apply``, a game that stalls with nobody able to act, or a final position that fails the
game's own whole-position check.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine import flow, log, rules
from engine.data import GameData
from engine.game import Game, SimSetup
from engine.i18n import violations_text
from engine.violations import InputError, RuleViolation

MAX_MOVES = 10_000


@dataclass
class GameResult:
    """One played game: its log, the final session, and any errors found."""

    session: log.Session
    events: list[log.Event]
    errors: list[str] = field(default_factory=list)


def play(
    game: Game[Any, Any],
    players: tuple[str, ...],
    rng: random.Random,
    options: dict[str, Any] | None = None,
    *,
    check_positions: bool = False,
    on_event: Callable[[log.Session, log.Event], None] | None = None,
    data: GameData | None = None,
) -> GameResult:
    """Play one game to the end with uniformly random legal moves and sampled chance.

    ``data``: the game's data, loaded once by a caller that plays many games (``engine.data``);
    None loads the set the options name for this game."""
    session = log.start(game, players, options or {}, data)
    events: list[log.Event] = []
    result = GameResult(session, events)
    for _ in range(MAX_MOVES):
        state = session.state
        if game.is_over(state):
            break
        move = game.sample_chance(state, rng)
        if move is None:
            moves = game.legal_moves(state)
            if not moves:
                result.errors.append(f"no legal move for {game.to_act(state)} at {_where(state)}")
                break
            move = moves[rng.randrange(len(moves))]
        event = log.Event("move", move)
        try:
            session = log.accept(session, event)
        except RuleViolation as exc:
            refused = violations_text(exc.violations)
            result.errors.append(f"legal move refused at {_where(state)}: {refused}")
            break
        events.append(event)
        if on_event is not None:
            on_event(session, event)
        if check_positions:
            faults = game.check_position(session.state)
            if faults:
                result.errors.append(f"position faults after {move}: {[f.code for f in faults]}")
                break
    else:
        result.errors.append(f"game did not end within {MAX_MOVES} moves")
    if not result.errors:
        faults = game.check_position(session.state)
        result.errors.extend(f"final position: {f.code}" for f in faults)
    result.session = session
    return result


def step_names(game: Game[Any, Any]) -> tuple[str, ...]:
    """The named steps of a game's declared turn flow (``"<sub-game>/<step>"`` inside one);
    empty for a game that keeps its own turn order."""
    on = flow.on_flow(game)
    if on is None:
        return ()
    inner = (f"{g.name}/{s.name}" for g in on.flow.subgames for s in g.steps)
    return (*(s.name for s in on.flow.steps), *inner)


def advance_to(
    game: Game[Any, Any], state: Any, step: str, rng: random.Random, max_moves: int = MAX_MOVES
) -> Any:
    """The first state from ``state`` on whose flow step ``step`` is open, reached by the same
    play as :func:`play` (chance from ``sample_chance``, seats' moves uniformly among the legal
    ones): a tester or a group writing a position starts from a real one in one call.

    ``InputError`` (``input/at``) for a step the game does not have (listing its steps) or one
    this play does not reach before the game ends."""
    names = step_names(game)
    on = flow.on_flow(game)
    if on is None:
        raise InputError("input/at", f"{game.info.key} declares no turn flow with named steps")
    if step not in names:
        raise InputError(
            "input/at", f"{game.info.key} has no step {step!r}; its steps: {', '.join(names)}"
        )
    for _ in range(max_moves):
        if on.position(state).active == step:
            return state
        if game.is_over(state):
            break
        move = game.sample_chance(state, rng)
        if move is None:
            moves = game.legal_moves(state)
            if not moves:
                break
            move = moves[rng.randrange(len(moves))]
        state = rules.apply(game, state, move)
    raise InputError(
        "input/at", f"play from this setup did not reach step {step!r} (try another seed)"
    )


def setups(
    game: Game[Any, Any], players: int | None = None, options: dict[str, Any] | None = None
) -> list[SimSetup]:
    """The games a conformance run cycles through, in order.

    ``game.info.simulations`` (every allowed player count with the default options when the game
    names none), narrowed to ``players`` when given, with ``options`` laid over each. A player
    count the game names no simulation for is played with the first simulation's options.
    """
    info = game.info
    base = list(info.simulations) or [
        SimSetup(n) for n in range(info.min_players, info.max_players + 1)
    ]
    if players is not None:
        base = [s for s in base if s.players == players] or [SimSetup(players, base[0].options)]
    return [SimSetup(s.players, {**s.options, **(options or {})}) for s in base]


def _where(state: Any) -> str:
    return f"round {getattr(state, 'round', '?')}, phase {getattr(state, 'phase', '?')}"
