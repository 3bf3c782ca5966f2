"""The rulebook's two Registration examples (§4.5, seed L652-675), played through the move API.

Both games start from a seeded table (stand-in data, rules/glory.md §11: the printed values are
not in the seed) and reach the Registration Phase through real moves; only the choices the
examples describe are made by hand: who visits the Herald in the Action Phase, and each crest.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bridge import gamedata as edge
from engine import data as gamedata
from engine import log
from engine.game import TABLE
from engine.games.glory import GAME
from engine.games.glory.effects import box
from engine.games.glory.state import (
    GloryState,
    KeepCards,
    Place,
    Register,
    SetupDeal,
    StopQuests,
)
from engine.violations import RuleViolation

# A Pas d'armes card whose third city holds a single Knight, as in the example's picture
# ("in the third there are no free opponents left" once Red challenged it, L657-660).
EXAMPLE_PAS = {
    "id": "pas-example",
    "type": "pas-d-armes",
    "players": [1, 2],
    "pas": [{"cities": [["nobility", "nobility"], ["nobility", "nobility"], ["nobility"]]}] * 3,
}


def _data_file(tmp_path: Path) -> str:
    stand_in = json.loads(
        (Path(__file__).parents[3] / "engine/games/glory/data/stand-in.json").read_text("utf-8")
    )
    # one unused card per round is needed (§3.3): three copies of the example's layout
    copies = [{**EXAMPLE_PAS, "id": f"pas-example-{i}"} for i in (1, 2, 3)]
    cards = [c for c in stand_in["tournaments"] if c["type"] == "joust"] + copies
    doc = {"extends": "stand-in", "name": "registration-example", "replace": ["tournaments"],
           "tournaments": cards}  # fmt: skip
    path = tmp_path / "example-data.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def _accept(session: log.Session, move: Any) -> log.Session:
    return log.accept(session, log.Event("move", move))


def _to_registration(
    seats: tuple[str, ...], options: dict[str, Any], heralds: dict[str, list[Place]], seed: int
) -> log.Session:
    """Play from setup to the Registration Phase with the turn order ``seats``: random legal
    moves, except that nobody takes Initiative or the Herald other than as ``heralds`` says,
    and nobody plays Quest cards (the order must not change before Registration)."""
    rng = random.Random(seed)
    session = log.start(GAME, seats, options, edge.load(GAME, options))
    plan = {s: list(moves) for s, moves in heralds.items()}
    while session.state.phase != "registration" or session.state.pending is not None:
        state: GloryState = session.state
        move = GAME.sample_chance(state, rng)
        if isinstance(move, SetupDeal):
            move = dataclasses.replace(move, order=seats)
        if move is None:
            seat = GAME.to_act(state)[0]
            if state.phase == "action" and plan.get(seat):
                move = plan[seat].pop(0)
            elif state.phase == "quest":
                move = StopQuests(seat)
            elif state.phase == "keep":
                move = KeepCards(seat, tuple(state.player(seat).offered[:1]))
            else:
                moves = [m for m in GAME.legal_moves(state) if not _shifts_order(state, m)]
                move = moves[rng.randrange(len(moves))]
        session = _accept(session, move)
    return session


def _shifts_order(state: GloryState, move: Any) -> bool:
    if not isinstance(move, Place) or move.field == "event":
        return False
    action = next(f.action for f in box(state).data.fields if f.id == move.field)
    return action in ("initiative", "herald")


def _field(state: GloryState, action: str) -> str:
    return next(f.id for f in box(state).data.fields if f.action == action)


def test_pas_d_armes_two_players_example_L652_664(tmp_path: Path) -> None:
    """§4.5, 2-player Pas d'armes [L652-664]: White and Red visit the Herald (A, B); White
    registers in the second city (C), Red too (D); White cannot place its last crest (it is in
    the first two cities and the third has no free Knight), so Red ends in the first city (E)."""
    options = {"data": _data_file(tmp_path), "tournament": "pas-d-armes"}
    data = edge.load(GAME, options)  # a user's file: read at the edge, as the CLI reads it
    herald = _field(gamedata.setup(GAME, ("white", "red"), options, data), "herald")
    heralds = {"white": [Place("white", herald, city=0, slot=0)],
               "red": [Place("red", herald, city=2, slot=0)]}  # fmt: skip
    session = _to_registration(("white", "red"), options, heralds, seed=3)
    state = session.state
    t = state.tournament
    assert t is not None and t.card.startswith("pas-example")
    assert [s.crest for s in t.cities[0]] == ["white", ""]
    assert [s.crest for s in t.cities[2]] == ["red"]
    assert GAME.to_act(state) == ("white",)
    session = _accept(session, Register("white", city=1, slot=0))  # (C)
    assert GAME.to_act(session.state) == ("red",)
    session = _accept(session, Register("red", city=1, slot=1))  # (D)
    # second sweep: White is in Florence and Paris, Munich's only Knight is Red's (L657-660)
    assert GAME.to_act(session.state) == ("red",)
    assert GAME.check(session.state, Register("white", city=2, slot=0))
    with pytest.raises(RuleViolation) as refused:
        log.accept(session, log.Event("move", Register("red", city=2, slot=0)))
    assert refused.value.code == "registration/knight-taken"
    session = _accept(session, Register("red", city=0, slot=1))  # (E)
    final = session.state
    t = final.tournament
    assert t is not None
    assert [[s.crest for s in c] for c in t.cities] == [["white", "red"], ["white", "red"],
                                                        ["red"]]  # fmt: skip
    assert final.phase == "tournament"  # Registration is over: the duels begin in Florence
    assert final.pending is not None and final.pending.source == "tournament:Florence:1"


def test_joust_three_players_example_L665_675() -> None:
    """§4.5, 3-player Joust [L665-675]: Red and Blue pass, so Black (last in order) must
    register (A); Red passes again, so Blue must register (B); Red registers last (C). Then the
    empty spaces are filled with Knights and the Tournament begins."""
    seats = ("red", "blue", "black")
    options = {"data": "stand-in", "tournament": "joust"}
    session = _to_registration(seats, options, {}, seed=5)
    state = session.state
    assert GAME.to_act(state) == ("red",)
    session = _accept(session, Register("red"))  # pass
    session = _accept(session, Register("blue"))  # pass
    assert GAME.to_act(session.state) == ("black",)
    violations = GAME.check(session.state, Register("black"))
    assert [v.code for v in violations] == ["registration/last-cannot-pass"]
    free = [i for i, e in enumerate(session.state.tournament.bracket[0]) if e is None]
    session = _accept(session, Register("black", slot=free[0]))  # (A)
    assert GAME.to_act(session.state) == ("red",)
    session = _accept(session, Register("red"))  # Red passes again
    assert GAME.to_act(session.state) == ("blue",)
    assert [v.code for v in GAME.check(session.state, Register("blue"))] == [
        "registration/last-cannot-pass"
    ]
    session = _accept(session, Register("blue", slot=free[1]))  # (B)
    assert GAME.to_act(session.state) == ("red",)
    session = _accept(session, Register("red", slot=free[2]))  # (C)
    state = session.state
    assert GAME.to_act(state) == (TABLE,)  # the Knights registering after the players
    fill = GAME.sample_chance(state, random.Random(1))
    session = _accept(session, fill)
    row = session.state.tournament.bracket[0]
    assert all(e is not None for e in row)
    assert {e.name for e in row if e.player} == set(seats)
    assert session.state.phase == "tournament"
