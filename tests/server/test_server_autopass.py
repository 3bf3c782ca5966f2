"""A step whose only option is to pass passes by itself (issue 15, point 5), in the log like any
event; ``auto_pass=False`` (``herald serve --no-auto-pass``) asks for it as before; a seat's
undo takes back the passes played after its move. Real SQLite store, the simulated table's
path (``Referee.observe``), Glory's duels (whose steps are mostly "pass")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from srv_support import SEATS

from bridge import autopass
from bridge.cli.serve import serve as serve_command
from bridge.referee import Principal, Referee
from bridge.simtable import SimConfig, SimTable
from bridge.store import EventStore
from engine import get_game, rules
from engine.game import TABLE, is_pass
from engine.registry import installed_keys

GLORY = get_game("glory")
OPTIONS = {**GLORY.info.option_defaults(), "data": "stand-in"}


def _forced(referee: Referee) -> list[str]:
    """The seats asked now whose only option is a pass."""
    state = referee.session.state
    return [
        p.seat
        for p in GLORY.prompts(state)
        if p.seat != TABLE and len(p.moves) == 1 and is_pass(GLORY, p.moves[0])
    ]


def _auto_entries(referee: Referee) -> list[dict[str, object]]:
    return [e for e in referee.current().table["log"] if e["source"] == autopass.SOURCE]


def test_only_a_pass_left_is_played_by_the_referee_and_logged(tmp_path: Path) -> None:
    referee = Referee.open(EventStore(tmp_path / "a.db"), GLORY, "t1", SEATS, OPTIONS)
    sim = SimTable(referee, SimConfig(mode="all", seed=4))
    autos = 0
    for _ in range(1500):
        assert _forced(referee) == []  # never left waiting on a seat that can only pass
        assert sim.step()
        stored = [e for e in referee.store.events(referee.row.id) if e.source == autopass.SOURCE]
        autos = len(stored)
        if autos >= 3:
            break
    assert autos >= 3
    entries = _auto_entries(referee)
    assert entries and all(e["kind"] != "undo" and e["label"] for e in entries)


def test_the_table_may_turn_auto_pass_off(tmp_path: Path) -> None:
    referee = Referee.open(
        EventStore(tmp_path / "b.db"), GLORY, "t1", SEATS, OPTIONS, auto_pass=False
    )
    sim = SimTable(referee, SimConfig(mode="all", seed=4))
    for _ in range(1500):
        if _forced(referee):
            break
        assert sim.step()
    assert _forced(referee)  # the seat is asked for its pass
    assert not [e for e in referee.store.events(referee.row.id) if e.source == autopass.SOURCE]


def test_a_seats_undo_takes_back_the_passes_played_after_its_move(tmp_path: Path) -> None:
    referee = Referee.open(EventStore(tmp_path / "c.db"), GLORY, "t1", SEATS, OPTIONS)
    sim = SimTable(referee, SimConfig(mode="all", seed=4))
    for _ in range(3000):
        log = referee.current().table["log"]
        tail = [e for e in log if not e["undone"]]
        if (
            len(tail) >= 2
            and tail[-1]["source"] == autopass.SOURCE
            and tail[-1]["kind"] != "undo"
            and referee.current().prompts
        ):
            # the newest real move under the passes, and whether its seat may take it back
            real = next(e for e in reversed(tail) if e["source"] != autopass.SOURCE)
            seat = str(real["actor"])
            if seat in SEATS and referee.current().prompts[seat]["can_undo"]:
                break
        assert sim.step()
    else:
        raise AssertionError("no seat move followed by an automatic pass")
    before = referee.state_id
    outcome = referee.intent(Principal("seat", seat), {"state_id": before, "kind": "undo"})
    assert outcome.ok, outcome
    undone = [e for e in referee.current().table["log"] if e["kind"] == "undo"]
    assert undone[-1]["source"] == f"seat:{seat}"
    assert referee.state_id > before + 1  # the automatic passes were taken back first


def test_serve_has_the_option() -> None:
    out = CliRunner().invoke(serve_command, ["--help"]).output
    assert "--no-auto-pass" in out and "--lang" in out


def test_the_host_setup_turns_auto_pass_off_for_the_next_game(tmp_path: Path) -> None:
    """The host page's setup carries ``auto_pass``; the table's payload says how it is set."""
    referee = Referee.open(EventStore(tmp_path / "d.db"), GLORY, "t1", SEATS, OPTIONS)
    assert referee.current().table["auto_pass"] is True
    setup = {
        "game": "glory",
        "seats": [{"seat": s, "name": ""} for s in SEATS],
        "options": {"data": "stand-in"},
        "auto_pass": False,
    }
    host = Principal("host")
    outcome = referee.intent(host, {"state_id": referee.state_id, "kind": "start", "setup": setup})
    assert outcome.ok, outcome
    assert referee.auto_pass is False and referee.current().table["auto_pass"] is False
    bad = {**setup, "auto_pass": "no"}
    refused = referee.intent(host, {"state_id": referee.state_id, "kind": "start", "setup": bad})
    assert refused.kind == "error" and referee.auto_pass is False


def _only_choice(game: Any, state: Any) -> list[str]:
    """The seats asked now that have exactly one possible move (a pass or a choice)."""
    legal = game.legal_moves(state)
    return [
        p.seat
        for p in game.prompts(state)
        if p.seat != TABLE
        and len(p.moves) == 1
        and not game.is_chance(p.moves[0])
        and [m for m in legal if game.actor(m) == p.seat] == [p.moves[0]]
    ]


@pytest.mark.parametrize("key", installed_keys())
def test_no_game_leaves_a_seat_asked_for_its_only_possible_move(tmp_path: Path, key: str) -> None:
    """Issue 15, point 5 and issue 25, point 6, for every registered game: along a simulated
    game no seat is ever left asked for a move it cannot refuse (a pass, or a choice with one
    option); each is played and logged as ``auto``."""
    game = get_game(key)
    setup = game.info.simulations[0] if game.info.simulations else None
    seats = SEATS[: setup.players if setup else len(SEATS)]
    if len(seats) < game.info.min_players:
        seats = (*SEATS, "red", "yellow", "purple")[: game.info.min_players]
    options = dict(setup.options) if setup else {}
    referee = Referee.open(EventStore(tmp_path / "e.db"), game, "t1", seats, options)
    sim = SimTable(referee, SimConfig(mode="all", seed=2))
    for _ in range(600):
        state = referee.session.state
        forced = _only_choice(game, state)
        assert forced == [], f"{key}: {forced} asked for their only possible move"
        if game.is_over(state) or not sim.step():
            break
    autos = _auto_entries(referee)
    assert all(e["kind"] != "undo" and e["label"] for e in autos)


def test_a_forced_single_choice_in_middle_ages_makes_itself(tmp_path: Path) -> None:
    """Issue 25, point 6: Middle Ages' one possible choice (a lord returned to the only place
    left, say) waited for Confirm; now it is played as ``auto`` and is no pass."""
    game = get_game("middle-ages")
    referee = Referee.open(EventStore(tmp_path / "m.db"), game, "t1", SEATS, {})
    sim = SimTable(referee, SimConfig(mode="all", seed=3))
    chosen: list[dict[str, Any]] = []
    for _ in range(2000):
        chosen = [e for e in _auto_entries(referee) if not is_pass(game, _move(referee, e))]
        if chosen or game.is_over(referee.session.state) or not sim.step():
            break
    assert chosen, "no forced choice along the game"
    assert all(e["label"] and e["actor"] in SEATS for e in chosen)


def _move(referee: Referee, entry: dict[str, Any]) -> Any:
    (event,) = referee.store.events(referee.row.id, int(entry["seq"]) - 1)[:1]
    return rules.decode_move(referee.game, event.payload["move"])
