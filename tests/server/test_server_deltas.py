"""The state after a move travels as a patch of the view (issue 18): a client that applies the
patches in order holds exactly the view a fresh snapshot would give, in its own language; one
that missed a state cannot, and asks for a snapshot."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import pytest
from srv_support import Recorder

from bridge.referee import Referee, Update
from bridge.simtable import SimConfig, SimTable
from bridge.store import open_store
from bridge.web.follow import StateFollower
from engine import get_game
from engine.registry import installed_keys

MOVES = 120


def _wire(payload: dict[str, Any]) -> dict[str, Any]:
    """What a client receives: the payload through JSON, as Socket.IO sends it."""
    return dict(json.loads(json.dumps(payload)))


def _played(tmp_path: Path, key: str) -> list[Update]:
    game = get_game(key)
    seats = ("blue", "green", "pink", "red")[: max(3, game.info.min_players)]
    options = {} if key == "middle-ages" else {"data": "stand-in"}
    referee = Referee.open(open_store(tmp_path / "d.db"), game, "t1", seats, options)
    recorder = Recorder()
    referee.attach(recorder)
    recorder.updates.append(referee.current())  # what a client got on connect
    sim = SimTable(referee, SimConfig(mode="all", seed=5))
    made = 0
    while made < MOVES and sim.step():
        made += 1
    assert made >= 20, f"{key}: only {made} moves"
    return recorder.updates


@pytest.fixture(
    scope="module",
    params=[k for k in installed_keys() if k in ("middle-ages", "glory", "france1429")],
)
def updates(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> list[Update]:
    """One played game per game for the module: the tests only read what it published."""
    return _played(tmp_path_factory.mktemp(str(request.param)), str(request.param))


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_patches_rebuild_every_view(updates: list[Update], lang: str) -> None:
    follower = StateFollower()
    for update in updates:
        own = update.in_lang(lang)
        sent = own.change if own.change else own.table
        whole = follower.follow(_wire(sent))
        assert whole is not None, f"state {update.state_id} did not apply"
        assert whole["view"] == _wire(own.table)["view"], f"state {update.state_id} differs"


def test_changes_carry_patches_not_views(updates: list[Update]) -> None:
    changes = [u.change for u in updates[1:]]
    assert changes and all("view_patch" in c and "view" not in c for c in changes)
    sizes = [len(json.dumps(c)) for c in changes]
    wholes = [len(json.dumps(u.table)) for u in updates[1:]]
    assert statistics.median(sizes) < statistics.median(wholes) / 4


def test_a_missed_state_needs_a_snapshot(updates: list[Update]) -> None:
    follower = StateFollower()
    assert follower.follow(_wire(updates[0].table)) is not None
    assert follower.follow(_wire(updates[2].change)) is None  # state 1 never arrived
    assert follower.state_id == updates[0].state_id  # nothing applied
    latest = updates[-1]
    assert follower.follow(_wire(latest.table))["view"] == _wire(latest.table)["view"]


def test_a_patch_for_another_view_is_refused() -> None:
    follower = StateFollower()
    follower.follow({"session": 1, "state_id": 4, "view": {"a": [1]}})
    forged = {"session": 1, "state_id": 5, "view_patch": [{"op": "remove", "path": "/b"}]}
    assert follower.follow(forged) is None
    assert follower.view == {"a": [1]} and follower.state_id == 4


def test_every_game_with_money_has_its_money_by_round(tmp_path: Path) -> None:
    """The displays' money plot reads each game's own money (France 1429 keeps Deniers on the
    families, not coins on players: ``Game.money``)."""
    for key in ("middle-ages", "glory", "france1429"):
        folder = tmp_path / key
        folder.mkdir()
        last = _played(folder, key)[-1].table
        by_round = last["coins_by_round"]
        assert by_round, f"{key}: no money plotted"
        assert set(by_round[max(by_round, key=int)]) == set(last["seats"]), key
