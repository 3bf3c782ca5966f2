"""Take-away, the tiny game that proves a game is one folder (docs/games.md walks through it).

The table rolls a die: the pile holds 10 + that many counters. Both players then seal a bid of
1-3 at once; the higher bid moves first (a tie: the first seat). In turn each takes 1-3
counters; whoever takes the last one wins. Nothing outside this folder knows the game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from engine.adapter import GameBase, check_seats
from engine.flow import Position, Reveal, Sealed, Step, TurnFlow
from engine.game import TABLE, GameInfo, Line, ScoreRow
from engine.violations import Violation

REF = "Take-away rules (tests/games/takeaway/__init__.py)"


@dataclass(frozen=True)
class Roll:
    value: int
    kind: ClassVar[str] = "roll"


@dataclass(frozen=True)
class Bid:
    seat: str
    amount: int
    kind: ClassVar[str] = "bid"


@dataclass(frozen=True)
class Take:
    seat: str
    count: int
    kind: ClassVar[str] = "take"


@dataclass(frozen=True)
class State:
    seats: tuple[str, ...]
    step: str = "roll"
    pile: int = 0
    turn: int = 0
    bids: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    sealed: Sealed = field(default_factory=Sealed)


class Takeaway(GameBase):
    info = GameInfo("takeaway", "Take-away", 2, 2, "tests/games/takeaway", {"counters": 16})
    state_type = State
    move_types = (Roll, Bid, Take)
    flow = TurnFlow(
        (Step("roll", ("roll",), "table"), Step("bid", ("bid",), "sealed"),
         Step("take", ("take",)), Step("over", ()))
    )  # fmt: skip

    def setup(self, players: tuple[str, ...], options: dict[str, Any] | None = None) -> State:
        check_seats(self.info, tuple(players))
        return State(tuple(players))

    def seats(self, state: State) -> tuple[str, ...]:
        return state.seats

    def position(self, state: State) -> Position:
        actors = {"roll": (TABLE,), "bid": state.seats, "take": (state.seats[state.turn],)}
        return Position(state.step, actors.get(state.step, ()))

    def legal_moves(self, state: State) -> list[Any]:
        if state.step == "bid":
            done = state.sealed.seats()
            return [Bid(s, n) for s in state.seats if s not in done for n in (1, 2, 3)]
        seat = state.seats[state.turn]
        return [Take(seat, n) for n in (1, 2, 3) if n <= state.pile] if state.step == "take" else []

    def check(self, state: State, move: Any) -> list[Violation]:
        if isinstance(move, Roll) and not 1 <= move.value <= 6:
            return [Violation("takeaway:die/face", REF, {"value": move.value})]
        if isinstance(move, Bid) and not 1 <= move.amount <= 3:
            return [Violation("takeaway:bid/range", REF, {"amount": move.amount})]
        if isinstance(move, Take) and not 1 <= move.count <= min(3, state.pile):
            return [Violation("takeaway:take/range", REF, {"count": move.count,
                                                           "pile": state.pile})]  # fmt: skip
        return []

    def apply_unchecked(self, state: State, move: Any) -> State:
        if isinstance(move, Roll):
            return replace(state, step="bid", pile=10 + move.value)
        pile = state.pile - move.count
        if pile == 0:
            return replace(state, pile=0, step="over", winner=move.seat)
        return replace(state, pile=pile, turn=1 - state.turn)

    def reveal(self, state: State, sealed: Reveal) -> State:
        bids = {seat: bid.amount for seat, bid in sealed.moves}
        first = 1 if bids[state.seats[1]] > bids[state.seats[0]] else 0
        return replace(state, bids=bids, turn=first, step="take")

    def view(self, state: State, seat: str | None, lang: str = "en") -> dict[str, Any]:
        return {"pile": state.pile, "bids": state.bids, "step": state.step}

    def score(self, state: State) -> tuple[ScoreRow, ...]:
        won = {s: int(s == state.winner) for s in state.seats}
        return tuple(
            ScoreRow(s, won[s], (Line(s, won[s], "score/win", REF),) if won[s] else (), (),
                     1 if won[s] or state.winner is None else 2)
            for s in state.seats
        )  # fmt: skip

    def winners(self, state: State) -> tuple[str, ...]:
        return (state.winner,) if state.winner else ()

    def sample_chance(self, state: State, rng: random.Random) -> Roll | None:
        return Roll(rng.randint(1, 6)) if state.step == "roll" else None


GAME = Takeaway()
