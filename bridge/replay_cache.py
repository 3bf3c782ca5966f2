"""Earlier states of a session, replayed from its log with a keyframe every ``KEYFRAME_EVERY``
events, so a look back costs a few events' replay and not the whole game's.

The ``history`` request (a page's slider over the table's past) replayed every event from the
start for each request: 91 ms for one replay of a long game; three anonymous sockets asking in
a loop took a seat's round trip from 16 ms to 565 ms (issue 26, finding 9). A session's log is
append-only and an undo is an event of its own, so the state after event ``n`` never changes:
a state replayed once can be kept and started from (``log.Session`` is a frozen value the
engine never mutates). Keyframes are kept per session, for the few newest sessions only.
"""

from __future__ import annotations

import bisect
import threading
from collections import OrderedDict
from typing import Any

from bridge import gamedata
from bridge.store import SessionRow, Store
from engine import log
from engine.game import Game

KEYFRAME_EVERY = 16
"""Events between two kept states: a look back replays at most this many minus one."""
SESSIONS = 2
"""Sessions whose keyframes are kept (the current one and the one before a new game)."""


class ReplayCache:
    """Keyframes of the newest sessions; thread-safe (the web server's threads share it)."""

    def __init__(self, every: int = KEYFRAME_EVERY, sessions: int = SESSIONS) -> None:
        self.every = every
        self.sessions = sessions
        self._frames: OrderedDict[int, dict[int, log.Session]] = OrderedDict()
        self._lock = threading.Lock()
        self.replayed = 0
        """Events replayed so far (what the cache saves shows here; the tests read it)."""

    def session_at(
        self, game: Game[Any, Any], row: SessionRow, store: Store, state_id: int
    ) -> log.Session:
        """The session as it was after event ``state_id`` (0: at the start)."""
        start = self._nearest(row.id, state_id)
        if start is None:
            start = log.restart(game, row.header, gamedata.load(game, row.header.options))
            self._keep(row.id, start)
        session = start
        if session.state_id < state_id:
            for stored in store.events(row.id, after=session.state_id):
                if stored.seq > state_id:
                    break
                session = log.accept(session, log.decode_event(game, stored.payload))
                with self._lock:
                    self.replayed += 1
                if session.state_id % self.every == 0:
                    self._keep(row.id, session)
        return session

    def _nearest(self, session_id: int, state_id: int) -> log.Session | None:
        with self._lock:
            frames = self._frames.get(session_id)
            if not frames:
                return None
            self._frames.move_to_end(session_id)
            ids = sorted(frames)
            at = bisect.bisect_right(ids, state_id)
            return frames[ids[at - 1]] if at else None

    def _keep(self, session_id: int, session: log.Session) -> None:
        with self._lock:
            frames = self._frames.setdefault(session_id, {})
            frames[session.state_id] = session
            self._frames.move_to_end(session_id)
            while len(self._frames) > self.sessions:
                self._frames.popitem(last=False)
