"""Whole states from a table's ``state`` messages, for Python clients (the pages: common.js).

After each move the server sends a change whose public view is an RFC 6902 patch against the
view before (``view_patch``, see ``Referee._view_change``); a snapshot (on connect, on ``sync``,
after a new game) carries the whole view. A client that keeps the view it holds and applies the
patches in order sees every state whole; one that missed a state cannot apply the next patch and
must ask for a snapshot with ``sync``. Tests, benchmarks and scripts that read the view use this
rather than each re-implementing the rule.
"""

from __future__ import annotations

import threading
from typing import Any

import jsonpatch


class StateFollower:
    """Keeps the view of the newest state a client was sent; thread-safe (python-socketio runs
    handlers on threads of their own)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.session: Any = None
        self.state_id = -1
        self.view: dict[str, Any] | None = None

    def follow(self, data: dict[str, Any]) -> dict[str, Any] | None:
        """``data`` with its whole ``view``, or None when it is older than the state held or its
        patch does not follow it (the caller then sends ``sync`` and waits for the snapshot)."""
        with self._lock:
            if data.get("session") != self.session:
                self.session, self.state_id, self.view = data.get("session"), -1, None
            state_id = int(data["state_id"])
            if "view_patch" not in data:
                if state_id < self.state_id:
                    return None
                view = data.get("view")
            else:
                if self.view is None or state_id != self.state_id + 1:
                    return None
                try:
                    view = jsonpatch.apply_patch(self.view, data["view_patch"])
                except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException):
                    return None
            self.state_id, self.view = state_id, view
            whole = {k: v for k, v in data.items() if k != "view_patch"}
            whole["view"] = view
            return whole
