"""``bridge.worker.Worker``: the one background loop shape of the simulated table, the camera
table and the TTS source (a real thread; every wait is on a condition, none on the clock)."""

from __future__ import annotations

import threading

from bridge.worker import Worker


def test_the_loop_runs_on_each_wake_and_ends_on_stop() -> None:
    rounds: list[int] = []
    looked = threading.Event()
    worker: Worker

    def run() -> None:
        while not worker.stopping.is_set():
            worker.woken.wait()
            worker.woken.clear()
            if worker.stopping.is_set():
                return
            rounds.append(len(rounds))
            looked.set()

    worker = Worker("test-worker", run)
    assert not worker.running
    assert worker.start() and worker.running
    assert not worker.start()  # already running: nothing done
    for expected in (1, 2):
        looked.clear()
        worker.wake()
        assert looked.wait(30)
        assert len(rounds) == expected
    assert worker.stop()  # roused from woken.wait and joined
    assert not worker.running and not worker.stop()
    assert not any(t.name == "test-worker" for t in threading.enumerate())
    assert rounds == [0, 1]


def test_stop_before_start_is_harmless() -> None:
    worker = Worker("never-started", lambda: None)
    assert not worker.stop()
    assert worker.stopping.is_set()
