"""Games played to a point once per session, their stores kept for every test that starts there.

A served-table test that starts mid-game (round 7 of a France 1429 game, an election half
sealed, a battle owing losses) has the move-level simulated table play a seeded game in-process
to that point, then serves a copy of the store. Playing is the slow part and the same seed
always reaches the same point, so each point is played once per pytest session (pytest-xdist:
once per worker) and every test gets a copy of the store as it was there, plus, when asked, the
moves that followed it, recorded (a round replayed move by move on the pages).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bridge.referee import Outcome, Referee
from bridge.simtable import SimConfig, SimTable
from bridge.store import open_store
from engine import get_game

Stop = Callable[[Any, Any], bool]
"""``stop(game, state)``: whether the game has reached the point (or the recording's end)."""


@dataclass(frozen=True)
class Step:
    """One recorded move: the state it was made in (its id and value), the move's JSON, and the
    state after it (and after any turn the referee passed on its own: ``auto_pass``)."""

    state_id: int
    before: Any
    move: dict[str, Any]
    after: Any
    after_id: int


@dataclass(frozen=True)
class Point:
    """A point of a seeded simulated game: the first state after a move where ``stop`` holds,
    or, with ``before_end``, the state that many moves before the game's end.

    ``name`` names the point in the cache (with the game, seats, seed and options); ``until``,
    when given, records the moves after the point up to the first state where it holds.
    """

    game: str
    seats: tuple[str, ...]
    seed: int
    name: str
    stop: Stop | None = None
    until: Stop | None = None
    before_end: int = 0
    options: Mapping[str, Any] = field(default_factory=lambda: {"data": "stand-in"})
    max_moves: int = 4000

    def key(self) -> str:
        options = json.dumps(dict(self.options), sort_keys=True)
        return f"{self.game}|{','.join(self.seats)}|{self.seed}|{options}|{self.name}"


@dataclass(frozen=True)
class Played:
    """A game played to a point: its store as it was there (never served itself: ``copy``),
    the state there, and the moves recorded after it (``Point.until``)."""

    db: Path
    state: Any
    steps: tuple[Step, ...]

    def copy(self, folder: Path, name: str = "played.db") -> Path:
        """A copy of the store in ``folder``, for one test to serve and change."""
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / name
        shutil.copyfile(self.db, target)
        return target


def play(point: Point, folder: Path) -> Played:
    """Play ``point``'s game in ``folder`` (its store ``live.db``, the store at the point
    ``point.db``), recording the moves after the point until ``point.until`` holds."""
    folder.mkdir(parents=True, exist_ok=True)
    db, kept = folder / "live.db", folder / "point.db"
    store = open_store(db)
    try:
        game = get_game(point.game)
        referee = Referee.open(store, game, "t1", point.seats, dict(point.options))
        sim = SimTable(referee, SimConfig(mode="all", seed=point.seed))
        if point.before_end:
            state = play_near_end(referee, sim, point, db, kept)
        else:
            assert point.stop is not None, f"{point.name}: no stop and no before_end"
            for _ in range(point.max_moves):
                assert sim.step(), f"the simulated game ended before {point.name}"
                if point.stop(game, referee.session.state):
                    break
            else:
                raise AssertionError(f"{point.name} not reached in {point.max_moves} moves")
            state = referee.session.state
            backup(db, kept)
        steps: list[Step] = []
        if point.until is not None:
            record(referee, steps)
            for _ in range(point.max_moves):
                if point.until(game, referee.session.state):
                    break
                assert sim.step(), f"the simulated game ended before the end of {point.name}"
            else:
                raise AssertionError(f"{point.name}: the recording did not end")
        return Played(kept, state, tuple(steps))
    finally:
        store.close()


def play_along(points: list[Point], folder: Path) -> dict[str, Played]:
    """Play the one game that all ``points`` are points of (the same game, seats, seed and
    options; none recording or near the end) once, keeping the store at each of them in
    ``folder``; returns each point's by its key."""
    first = points[0]
    same = {(p.game, p.seats, p.seed, json.dumps(dict(p.options), sort_keys=True)) for p in points}
    assert len(same) == 1, f"not points of one game: {same}"
    assert all(p.stop and not p.until and not p.before_end for p in points), "a stop each"
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "live.db"
    found: dict[str, Played] = {}
    store = open_store(db)
    try:
        game = get_game(first.game)
        referee = Referee.open(store, game, "t1", first.seats, dict(first.options))
        sim = SimTable(referee, SimConfig(mode="all", seed=first.seed))
        for made in range(max(p.max_moves for p in points)):
            waiting = [p for p in points if p.key() not in found and made < p.max_moves]
            if not waiting:
                break
            assert sim.step(), f"the simulated game ended before {waiting[0].name}"
            state = referee.session.state
            for p in waiting:
                assert p.stop is not None
                if p.stop(game, state):
                    kept = folder / f"point{points.index(p)}.db"
                    backup(db, kept)
                    found[p.key()] = Played(kept, state, ())
    finally:
        store.close()
    missed = [p.name for p in points if p.key() not in found]
    assert not missed, f"not reached: {missed}"
    return found


def backup(db: Path, copy: Path) -> None:
    """A consistent snapshot of the store ``db`` in ``copy``, with the referee's store open."""
    with sqlite3.connect(db) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)


def play_near_end(referee: Referee, sim: SimTable, point: Point, db: Path, kept: Path) -> Any:
    """Play ``sim`` to the game's end, keeping the store ``db`` as it was ``point.before_end``
    moves before it in ``kept`` (the last snapshots kept in turn, the oldest of them is it); returns
    the state there."""
    ring: deque[tuple[Path, Any]] = deque(maxlen=point.before_end + 1)
    for made in range(point.max_moves):
        if referee.is_over() or not sim.step():
            break
        file = kept.parent / f"ring{made % (point.before_end + 1)}.db"
        backup(db, file)
        ring.append((file, referee.session.state))
    else:
        raise AssertionError(f"{point.name}: the game did not end in {point.max_moves} moves")
    assert referee.is_over(), f"{point.name}: the simulated table stopped before the end"
    assert ring, f"{point.name}: the game was over before it began"
    file, state = ring[0]
    shutil.copyfile(file, kept)
    return state


def record(referee: Referee, steps: list[Step]) -> None:
    """Append every move ``referee`` accepts from now on to ``steps``."""
    observe = referee.observe

    def recording(
        source: str,
        move: Any,
        state_id: int | None = None,
        frame: tuple[bytes, dict[str, Any]] | None = None,
    ) -> Outcome:
        before = referee.session.state
        outcome = observe(source, move, state_id, frame)
        if outcome.ok:
            assert state_id is not None
            after, after_id = referee.session.state, referee.session.state_id
            steps.append(Step(state_id, before, move, after, after_id))
        return outcome

    referee.observe = recording  # type: ignore[method-assign]


_PLAYED: dict[str, Played] = {}
"""Every point played in this process (a pytest session, or one xdist worker's)."""


class PlayedStores:
    """The session's played points, each played the first time a test asks for it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def get(self, point: Point, along: tuple[Point, ...] = ()) -> Played:
        """The game played to ``point``; with ``along`` (other points of the same game), one
        playthrough keeps every one of them on its way, for the tests that ask later."""
        key = point.key()
        if key not in _PLAYED:
            folder = self.folder / f"p{len(_PLAYED)}"
            if along:
                points = [point, *(p for p in along if p.key() not in _PLAYED and p != point)]
                _PLAYED.update(play_along(points, folder))
            else:
                _PLAYED[key] = play(point, folder)
        return _PLAYED[key]


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayedStores]:
    """The session's played-store cache (``played.get(Point(...)).copy(tmp)``)."""
    yield PlayedStores(tmp_path_factory.mktemp("played"))
