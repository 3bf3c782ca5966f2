"""Tracker: debounce, hands, motion gating — on a seeded simulated stream."""

from __future__ import annotations

import numpy as np
import pytest

from bridge.game_files import camera_profile
from vision.pipeline import Pipeline
from vision.scenes import Hand
from vision.sim import SimulatedTable
from vision.snapshot import TableSnapshot
from vision.tracker import Tracker

MA_BOARD = camera_profile("middle-ages")
"""The board profile Middle Ages ships (its package's camera/profile.json)."""


def _pawns(snapshot: TableSnapshot) -> dict[int, tuple[float, float]]:
    return {
        int(o.attrs["marker_id"]): o.board_xy
        for o in snapshot.observations
        if "marker_id" in o.attrs and o.board_xy is not None
    }


@pytest.fixture(scope="module")
def sim() -> SimulatedTable:
    return SimulatedTable(21, frames=44, moves=1, passes=1, profile=MA_BOARD)


def test_moves_commit_once_passes_never(sim: SimulatedTable) -> None:
    """One commit for the first stable view, one per move, none for a passing hand; each
    committed snapshot places every pawn within 3 mm of the truth at that moment."""
    tracker = Tracker(Pipeline(profile=MA_BOARD))
    commits = []
    for frame in sim:
        snap = tracker.update(frame.image, frame.index / 15.0)
        if snap is None:
            continue
        commits.append(frame.index)
        truth = {int(p.key): p.center_mm for p in frame.layout.pieces if p.kind == "marker"}
        seen = _pawns(snap)
        assert set(seen) == set(truth) - {0, 1, 2, 3}
        for mid, xy in seen.items():
            assert np.hypot(xy[0] - truth[mid][0], xy[1] - truth[mid][1]) < 3.0
    assert len(commits) == 2
    # The move commits once the picture has been still for `stable_frames` frames after the
    # hand left (the first hand-free frame still differs from the last hand frame).
    last_hand = max(i for i, s in enumerate(sim.steps) if s.hands and s.event == "move")
    assert commits[1] == last_hand + 1 + tracker.cfg.stable_frames
    # Motion gating: one full detection, the move re-read in regions only.
    assert tracker.stats.full_detections == 1
    assert tracker.stats.region_detections == 1


def test_resting_hand_commits_nothing(sim: SimulatedTable) -> None:
    """A hand lying still over pawns for 8 frames hides them; the tracker must not report
    them gone (skin veto), and nothing is committed when the hand leaves."""
    tracker = Tracker(Pipeline(profile=MA_BOARD))
    for i in range(4):
        assert (tracker.update(sim.render(0, [], 1000 + i), i) is None) == (i != 3)
    w, h = sim.camera.size
    hand = Hand((w * 0.45, h * 0.5), 5.0, 1.1)
    for i in range(8):
        assert tracker.update(sim.render(0, [hand], 2000 + i), 10 + i) is None
    assert tracker.stats.vetoed == 1
    for i in range(5):
        assert tracker.update(sim.render(0, [], 3000 + i), 30 + i) is None


def test_steady_table_is_cheap(sim: SimulatedTable) -> None:
    """After the first commit, steady frames run no detection at all."""
    tracker = Tracker(Pipeline(profile=MA_BOARD))
    for i in range(10):
        tracker.update(sim.render(0, [], 4000 + i), i)
    assert tracker.stats.full_detections == 1
    assert tracker.stats.region_detections == 0
    assert tracker.stats.still_frames == 9
