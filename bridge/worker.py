"""One background loop: a named daemon thread, a wake-up event and a stop event.

The simulated table, the camera table and the Tabletop Simulator source all run the same shape:
a loop that sleeps until something happens (an update was published, a message arrived, a
frame is due) or it is told to stop, with ``stop()`` rousing it and waiting for it to end. The
loops themselves differ and stay with their owners; this holds the thread and its two events.
(Queue-fed workers, the device table and the TTS announcer, have another shape and keep it.)
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class Worker:
    """A daemon thread running ``run`` once; ``run`` loops until :attr:`stopping` is set."""

    def __init__(self, name: str, run: Callable[[], None], join_timeout: float = 5.0) -> None:
        self.name = name
        self._run = run
        self.join_timeout = join_timeout
        self.stopping = threading.Event()
        """Set by :meth:`stop`; the loop ends when it sees it (``stopping.wait(s)`` sleeps)."""
        self.woken = threading.Event()
        """Set by :meth:`wake` (and by :meth:`stop`); the loop clears it when it has looked."""
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None

    def start(self) -> bool:
        """Start the thread; False (and nothing done) when it is already running."""
        if self._thread is not None:
            return False
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()
        return True

    def wake(self) -> None:
        """Rouse the loop from ``woken.wait``."""
        self.woken.set()

    def stop(self) -> bool:
        """Ask the loop to end, rouse it and wait for it (up to ``join_timeout``); True when a
        thread was running, so the owner knows to undo what ``start`` attached."""
        self.stopping.set()
        self.woken.set()
        thread, self._thread = self._thread, None
        if thread is None:
            return False
        thread.join(timeout=self.join_timeout)
        return True
