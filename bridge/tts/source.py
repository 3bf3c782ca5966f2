"""Tabletop Simulator as a table source for the referee, and the referee's voice on that table.

``TTSTableSource`` reads the live TTS table (after ``herald.lua`` reports a drop, flip or roll,
and on a slow poll as a safety net), turns the objects into a ``TableSnapshot`` with the game's
TTS profile, and asks the engine what move the table shows (``Game.interpret``). A move the rules
explain goes to the referee exactly as a camera observation would; a change that no legal move
explains, or that several explain, is announced on the TTS table for a person to settle. The
engine decides; this module only carries observations in and sentences out.

``TTSAnnouncer`` is a referee ``Transport``: prompts and violations appear on the TTS table as
on-screen messages through ``herald.lua``.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bridge.referee import Notice, Outcome, Referee, Update
from bridge.tts.editor_api import EditorClient
from bridge.tts.errors import TTSError
from bridge.tts.messages import IncomingMessage
from bridge.tts.profile import Profile, build_snapshot
from bridge.tts.push import announcement, table_event
from bridge.tts.reader import read_table
from bridge.worker import Worker
from engine import codec
from engine.game import Interpretation

log = logging.getLogger(__name__)

SOURCE = "tts"


@dataclass(frozen=True)
class SyncResult:
    """One read of the TTS table: what the engine made of it and what the referee answered."""

    interpretation: Interpretation
    outcomes: tuple[Outcome, ...] = ()
    error: str = ""

    @property
    def accepted(self) -> int:
        return sum(1 for o in self.outcomes if o.kind == "accepted")


@dataclass
class TTSTableSource:
    """Feeds ``referee`` from the TTS table ``client`` talks to, read through ``profile``."""

    referee: Referee
    client: EditorClient
    profile: Profile
    poll_s: float = 5.0
    settle_s: float = 0.3
    clock: Callable[[], float] = time.time
    _worker: Worker = field(init=False)
    _wake: threading.Event = field(init=False)
    _stop: threading.Event = field(init=False)
    _last_note: str = field(default="", init=False)

    def sync(self) -> SyncResult:
        """Read the table once and submit the move it shows, if the rules name exactly one."""
        try:
            objects = read_table(self.client)
        except TTSError as exc:
            log.warning("reading the TTS table failed: %s", exc)
            return SyncResult(Interpretation((), False), error=str(exc))
        snapshot = build_snapshot(objects, self.profile, time=self.clock(), source=SOURCE)
        seen = [o.to_json() for o in snapshot.observations]
        state_id = self.referee.state_id
        result = self.referee.game.interpret(self.referee.session.state, seen)
        if result.unchanged:
            return SyncResult(result)
        if not result.moves:
            self._tell_unexplained(result)
            return SyncResult(result)
        outcomes = []
        for move in result.moves:
            outcome = self.referee.observe(SOURCE, codec.encode(move), state_id=state_id)
            outcomes.append(outcome)
            if outcome.kind != "accepted":
                break
            state_id = outcome.state_id
        return SyncResult(result, tuple(outcomes))

    def _tell_unexplained(self, result: Interpretation) -> None:
        code = "tts/ambiguous" if result.candidates else "tts/unexplained"
        if code == self._last_note:
            return  # say it once per situation, not at every poll
        self._last_note = code
        if result.candidates:
            self._send(announcement(code, kind="violation", count=len(result.candidates)))
        else:
            self._send(announcement(code, kind="violation"))

    def _send(self, data: dict[str, Any]) -> None:
        try:
            self.client.custom_message(data)
        except TTSError as exc:
            log.warning("could not show a message on the TTS table: %s", exc)

    # --- running -------------------------------------------------------------------------

    def __post_init__(self) -> None:
        self._worker = Worker("tts-source", self._run)
        self._wake, self._stop = self._worker.woken, self._worker.stopping

    def start(self) -> None:
        """Listen for ``herald.lua``'s change reports and read the table when one arrives."""
        self.client.add_listener(self._on_message)
        self._worker.start()

    def stop(self) -> None:
        self._worker.stop()

    def _on_message(self, msg: IncomingMessage) -> None:
        if table_event(msg) is not None:
            self._wake.set()

    def _run(self) -> None:
        while not self._stop.is_set():
            woke = self._wake.wait(self.poll_s)
            if self._stop.is_set():
                return
            if woke:
                time.sleep(self.settle_s)  # let a dragged piece come to rest
                self._wake.clear()
            result = self.sync()
            if result.accepted:
                self._last_note = ""


class TTSAnnouncer:
    """A referee transport that shows prompts and violations on the TTS table.

    Transports are called with the referee's lock held, so messages are queued and sent from a
    thread of their own; a slow or absent TTS never holds up the referee.
    """

    def __init__(self, client: EditorClient) -> None:
        self.client = client
        self._queue: queue.Queue[dict[str, Any] | None] = queue.Queue(maxsize=256)
        self._last_prompt = ""
        self._thread = threading.Thread(target=self._run, name="tts-announcer", daemon=True)
        self._thread.start()

    def publish(self, update: Update) -> None:
        for payload in update.prompts.values():
            for prompt in payload.get("prompts", []):
                text = str(prompt.get("text", ""))
                if text and text != self._last_prompt:
                    self._last_prompt = text
                    self._put(announcement("tts/prompt", kind="prompt", text=text))

    def notice(self, notice: Notice) -> None:
        if notice.event != "violation" or notice.seat is not None:
            return  # the table-wide copy of a violation is enough on a shared screen
        for v in notice.payload.get("violations", []):
            self._put(announcement("tts/violation", kind="violation", text=v.get("message", "")))

    def _put(self, data: dict[str, Any]) -> None:
        try:
            self._queue.put_nowait(data)
        except queue.Full:
            log.warning("TTS message queue full; dropping a message")

    def _run(self) -> None:
        while True:
            data = self._queue.get()
            if data is None:
                return
            try:
                self.client.custom_message(data)
            except TTSError as exc:
                log.warning("could not show a message on the TTS table: %s", exc)

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=5)
