"""Moves the table need not ask for: a step with only one possible move makes itself.

A duel of a game with many small steps asked each seat to decline up to six of them one by
one even when "pass" was the only option (issue 15, point 5: one duel logged ten "blue: pass"),
and a seat left one legal choice (a single place to return a piece to, one way to take a loss)
still waited for Confirm (issue 25, point 6). The referee
plays such a move itself, as an ordinary event with the source ``auto`` (so the log shows it
and a replay rebuilds it), unless the table turned this off (``herald serve --no-auto-pass``,
the host's setup). The log folds a run of them into one line (``engine.log``'s folding, the
presenter).

Undo stays a seat's own: a seat taking back its move first takes back the moves played for
others after it (``undo_plan``), since they followed from that move alone.
"""

from __future__ import annotations

from typing import Any

from engine import log
from engine.game import HOST, TABLE, Game, auto_move, is_pass

SOURCE = "auto"
"""The ``source`` of the events the referee plays itself."""

MAX_CHAIN = 64
"""Most moves played in a row after one move: a game whose forced moves never end is a bug to
report, not a loop to hang the referee in."""


def forced_move(game: Game[Any, Any], state: Any) -> Any | None:
    """The move some seat must make now: the move of a seat the game plays itself
    (``auto_move``, a solo AI), else the first seat prompt whose only legal move is that one
    (a pass, or a choice with one option; None: every asked seat has a real choice, or the
    table is asked, or only chance can happen)."""
    if game.is_over(state):
        return None
    computed = auto_move(game, state)
    if computed is not None:  # a seat the game plays itself (a solo AI)
        return computed
    legal: list[Any] | None = None
    for prompt in game.prompts(state):
        if prompt.seat in (TABLE, HOST) or len(prompt.moves) != 1:
            continue
        only = prompt.moves[0]
        if game.is_chance(only):
            continue
        if is_pass(game, only):
            return only
        # a choice: the prompt lists one move; the rules must agree it is the seat's only one
        legal = game.legal_moves(state) if legal is None else legal
        if [m for m in legal if game.actor(m) == prompt.seat] == [only]:
            return only
    return None


forced_pass = forced_move
"""The name the referee first called it by (only passes were played then)."""


def undo_plan(session: log.Session, by: str | None, auto_on_top: int) -> list[str | None] | None:
    """The undos that take back ``by``'s last move: first the ``auto_on_top`` passes played
    after it (each by its own seat), then ``by``'s. None: ``by`` cannot undo (nothing of its
    below the passes), and a plain undo is left to refuse, naming why."""
    frame = session.undo_chain
    plan: list[str | None] = []
    for _ in range(auto_on_top):
        if frame is None:
            return None
        plan.append(frame.actor)
        frame = frame.parent
    if frame is None or (by not in (None, HOST) and frame.actor != by):
        return None
    return [*plan, by]
