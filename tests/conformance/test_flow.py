"""The core's turn flow (engine.flow): sealed simultaneous moves, out-of-turn windows, and a
sub-game's steps on the stack, checked before a game's own rules run."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from takeaway import GAME, Bid, Roll, Take

from engine import flow, log, present, rules
from engine.flow import OpenWindow, Position, Step, SubGame, TurnFlow, Window

SEATS = ("ann", "bob")


def _bidding() -> log.Session:
    session = log.start(GAME, SEATS, {})
    return log.accept(session, log.Event("move", Roll(4)))


def test_a_sealed_bid_shows_in_no_other_view_until_the_reveal() -> None:
    session = log.accept(_bidding(), log.Event("move", Bid("ann", 3)))
    state = session.state
    assert rules.to_act(GAME, state) == ("bob",)
    public = json.dumps(present.view(GAME, state, None))
    bobs = json.dumps(present.view(GAME, state, "bob"))
    anns = present.view(GAME, state, "ann")
    assert anns["sealed"] == {"step": "bid", "committed": ["ann"], "yours": {
        "kind": "bid", "seat": "ann", "amount": 3}}  # fmt: skip
    for text in (public, bobs):
        assert '"committed": ["ann"]' in text and '"seat": "ann", "amount"' not in text
    # the public log line says that ann sealed, not what
    label = present.move_label(GAME, {"kind": "bid", "seat": "ann", "amount": 3}, "en")
    assert "3" not in label and "ann" in label


def test_the_reveal_is_the_one_event_of_the_last_sealed_move() -> None:
    session = log.accept(_bidding(), log.Event("move", Bid("ann", 1)))
    before = session.state_id
    session = log.accept(session, log.Event("move", Bid("bob", 2)))
    assert session.state_id == before + 1
    assert session.state.bids == {"ann": 1, "bob": 2}
    assert session.state.sealed == flow.Sealed()
    assert rules.to_act(GAME, session.state) == ("bob",)  # the higher bid moves first


def test_a_seat_cannot_seal_twice_or_move_out_of_its_step() -> None:
    session = log.accept(_bidding(), log.Event("move", Bid("ann", 1)))
    assert [v.code for v in rules.check(GAME, session.state, Bid("ann", 2))] == [
        "flow/already-sealed"
    ]
    assert [v.code for v in rules.check(GAME, session.state, Take("bob", 1))] == ["flow/not-now"]
    assert [v.code for v in rules.check(GAME, session.state, Roll(3))] == ["turn/not-your-turn"]


# --- windows and sub-games, on a game made for this test --------------------------------------


@dataclass(frozen=True)
class Act:
    seat: str
    kind: ClassVar[str] = "act"


@dataclass(frozen=True)
class Answer:
    seat: str
    kind: ClassVar[str] = "answer"


@dataclass(frozen=True)
class Strike:
    seat: str
    kind: ClassVar[str] = "strike"


@dataclass(frozen=True)
class Toy:
    step: str = "main"
    asking: str | None = None
    fight: bool = False


class ToyGame:
    move_types = (Act, Answer, Strike)
    flow = TurnFlow(
        steps=(Step("main", ("act",)),),
        subgames=(SubGame("duel", (Step("blows", ("strike",)),)),),
        windows=(Window("passage", ("answer",)),),
    )

    def position(self, state: Toy) -> Position:
        if state.fight:
            return Position("blows", ("b",), stack=("duel",))
        windows = (OpenWindow("passage", (state.asking,)),) if state.asking else ()
        return Position("main", ("a",), windows=windows)

    def actor(self, move: Any) -> str:
        return str(move.seat)


def test_a_window_lets_a_seat_answer_out_of_turn_and_only_then() -> None:
    game = ToyGame()
    assert flow.gate(game, Toy(asking="c"), Answer("c")) == []
    assert [v.code for v in flow.gate(game, Toy(), Answer("c"))] == ["turn/not-your-turn"]
    assert [v.code for v in flow.gate(game, Toy(asking="c"), Act("c"))] == ["turn/not-your-turn"]
    assert [v.code for v in flow.gate(game, Toy(asking="c"), Answer("a"))] == ["flow/not-now"]


def test_inside_a_sub_game_only_its_step_is_open() -> None:
    game = ToyGame()
    fighting = replace(Toy(), fight=True)
    assert flow.gate(game, fighting, Strike("b")) == []
    assert [v.code for v in flow.gate(game, fighting, Act("a"))] == ["turn/not-your-turn"]
    assert [v.code for v in flow.gate(game, fighting, Act("b"))] == ["flow/not-now"]
    assert game.flow.step("duel/blows").moves == ("strike",)
    assert game.flow.problems(("act", "answer", "strike")) == []
    assert game.flow.problems(("act",)) != []
