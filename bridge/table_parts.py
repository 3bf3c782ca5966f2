"""The per-game parts of a served table, built again when a new game is another game.

The host's New game may switch the table from one game to another (issue 25, point 1). The
referee then plays the new game, but what ``herald serve`` built for the first one - the
camera's profile, faces and layout, the Tabletop Simulator profile, the seats the device desk
pairs, the simulated table's dice roller - went on reading the old one: the first game's layout
asked of the new game's state failed in the camera's thread, the table stayed at state 0 and no page
said why. ``TableParts`` watches the referee's sessions (it is a ``Transport``) and, when the
game or the seats changed, builds those parts again in its own thread: the camera's loop must be
joined, which cannot be done under the referee's lock that ``publish`` is called with.

Whatever cannot be built is a ``Problem``: a catalog sentence the host page shows (in every
language) until a later game builds cleanly, never only a log line. A camera that cannot read
the new game stays stopped and the move-level simulated table plays instead, as ``herald serve``
does when it cannot start the camera.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from bridge.box.profile import profile_for_game
from bridge.camera import CameraError, CameraTable, load_board_profile, profile_seats
from bridge.game_files import camera_profile_path
from bridge.referee import Notice, Referee, Update
from bridge.table_setup import seat_colours
from bridge.tts.errors import TTSError
from bridge.tts.profile import load_profile as load_tts_profile
from bridge.worker import Worker
from engine.capabilities import DICE_POOL, capability
from engine.i18n import LANGUAGES, has_message, message
from vision.calibration import load_profile

_LOG = logging.getLogger(__name__)


@dataclass(frozen=True)
class Problem:
    """A part of the table that could not be built for the new game, as a catalog sentence;
    ``reason`` (a coded error's code and params) fills its ``{reason}`` in the same language."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)
    reason: tuple[str, dict[str, Any]] | None = None

    @classmethod
    def of(cls, code: str, error: Any, **params: Any) -> Problem:
        """The problem ``code`` caused by ``error`` (anything with ``code`` and ``params``)."""
        return cls(code, params, (error.code, dict(error.params)))

    def text(self, lang: str) -> str:
        params = dict(self.params)
        if self.reason is not None:
            params["reason"] = message(self.reason[0], lang, **self.reason[1])
        return message(self.code, lang, **params)

    def to_json(self, lang: str) -> dict[str, Any]:
        """The problem as the host page gets it: its sentence in ``lang`` and in every shipped
        language (the page picks its own)."""
        texts = {each: self.text(each) for each in LANGUAGES}
        return {"code": self.code, "message": texts[lang], "messages": texts}


class Driver(Protocol):
    """A simulated table the parts may start and stop (``bridge.simtable.SimTable``)."""

    roller: Any

    def start(self) -> None: ...

    def stop(self) -> None: ...


def profile_for(base: str | Path | None, game_key: str, first_game: str) -> Path | None:
    """The board profile file of ``game_key`` at this table: ``base`` (``--profile`` or
    ``DB.board.json``) for the game the table was started with, and a sibling file named after
    the game for any other (``DB.board.<game>.json``), so calibrating one game never
    overwrites another's profile. None: the game's built-in profile (no file)."""
    if base is None:
        return None
    path = Path(base)
    if game_key == first_game:
        return path
    return path.with_name(f"{path.stem}.{game_key}{path.suffix or '.json'}")


@dataclass
class TableParts:
    """Rebuilds the per-game parts of one served table when the referee's game changes.

    Args:
        referee: The table's referee.
        camera: The camera table (None: the table is played by moves, nothing to rebuild).
        profile_base: ``--profile`` or ``DB.board.json`` (see ``profile_for``).
        library_dir: ``--library``, kept across games.
        fallback: Builds the move-level simulated table played while the camera cannot read the
            game (None: nobody is simulated).
        sims: The simulated tables whose dice roller follows the game (``roller``).
        roller: The dice tower's roll (the devices), given to a game that has dice.
        tts_source: The Tabletop Simulator source, whose profile follows the game.
        desk: The device pairing desk, whose seats follow the game.
        calibrator: The calibration page's server side, whose built-in profile (the regions the
            page asks to place) follows the game.
        changed: Called after each rebuild (the host page is told).
    """

    referee: Referee
    camera: CameraTable | None = None
    profile_base: str | Path | None = None
    library_dir: str | Path | None = None
    fallback: Callable[[], Driver] | None = None
    sims: list[Driver] = field(default_factory=list)
    roller: Any = None
    tts_source: Any = None
    desk: Any = None
    calibrator: Any = None
    changed: Callable[[], None] | None = None
    problems: list[Problem] = field(default_factory=list)
    first_game: str = field(init=False)
    built_for: str = field(init=False)
    """The game the parts were last built for (the host page knows a rebuild is done)."""
    rebuilds: int = field(default=0, init=False)
    """Rebuilds done (tests wait on it)."""
    _seen: tuple[str, tuple[str, ...], str] = field(init=False)
    _running_fallback: Driver | None = field(default=None, init=False)
    _worker: Worker = field(init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)

    def __post_init__(self) -> None:
        self.first_game = self.built_for = self.referee.game.info.key
        self._seen = self._now()
        self._worker = Worker("herald-table-parts", self._run)
        if self.camera is not None:
            self.camera.on_failure = self.camera_failed

    def _now(self) -> tuple[str, tuple[str, ...], str]:
        """What the parts are built for: the game, its seats and the data it plays on (a New
        game of the same game on another box is read on that box's board)."""
        data = self.referee.row.header.options.get("data")
        return (self.referee.game.info.key, self.referee.seats, json.dumps(data, sort_keys=True))

    def camera_failed(self, exc: Exception) -> None:
        """The camera's loop died mid-game: the host page says so, and the move-level simulated
        table plays on in its place (the camera starts again with the next game)."""
        if self._now() != self._seen:
            return  # another game began: its rebuild is due and builds the camera anew
        with self._lock:
            self.problems = [*self.problems, Problem("table/camera-failed",
                                                     {"detail": str(exc)[:200]})]  # fmt: skip
            self._switch_fallback(camera_ok=False)
        self._told()

    # Transport: a published update may be the first of another game.
    def publish(self, update: Update) -> None:
        if self._now() != self._seen:
            self._worker.wake()

    def notice(self, notice: Notice) -> None:
        """Notices change no part."""

    def start(self) -> None:
        if self._worker.start():
            self.referee.attach(self)

    def stop(self) -> None:
        if self._worker.stop():
            self.referee.detach(self)
        with self._lock:
            if self._running_fallback is not None:
                self._running_fallback.stop()
                self._running_fallback = None

    def colours_for(self, key: str) -> tuple[str, ...]:
        """The seat colours this table can seat for ``key``: with a camera, the colours its
        profile's stickers name (a seat it cannot tell apart would stop the camera)."""
        if self.camera is None:
            return seat_colours(key)
        try:
            profile, _ = load_board_profile(key, profile_for(self.profile_base, key,
                                                             self.first_game))  # fmt: skip
        except CameraError:
            return seat_colours(key)
        return tuple(s for s in profile_seats(profile) if has_message(f"ui/colour-{s}"))

    def problems_json(self, lang: str) -> list[dict[str, Any]]:
        with self._lock:
            return [p.to_json(lang) for p in self.problems]

    def _run(self) -> None:
        while not self._worker.stopping.is_set():
            self._worker.woken.wait()
            self._worker.woken.clear()
            if self._worker.stopping.is_set():
                return
            try:
                self.rebuild()
            except Exception as exc:  # a part failing must not end the watcher
                _LOG.exception("rebuilding the table's parts failed")
                with self._lock:
                    self.problems = [Problem("table/rebuild-failed", {"detail": str(exc)[:200]})]
                    self.built_for = self.referee.game.info.key
                    self.rebuilds += 1
                self._told()

    def rebuild(self) -> list[Problem]:
        """Build every per-game part for the referee's current game and seats; returns (and
        keeps, for the host page) what could not be built."""
        game, seats = self.referee.game, self.referee.seats
        key = game.info.key
        now = self._now()
        if now == self._seen:
            return self.problems
        self._seen = now
        problems: list[Problem] = []
        camera_ok = self._rebuild_camera(key, problems)
        self._rebuild_tts(key, problems)
        if self.desk is not None:
            self.desk.seats = seats  # the pairing codes name the new seats
        has_dice = capability(game, DICE_POOL) is not None
        with self._lock:
            self._switch_fallback(camera_ok)
            drivers = [*self.sims, *([self._running_fallback] if self._running_fallback else [])]
            for sim in drivers:
                sim.roller = self.roller if has_dice else None
            self.problems = problems
            self.built_for = key
            self.rebuilds += 1
        _LOG.info("table parts rebuilt for %s (%d problems)", key, len(problems))
        self._told()
        return problems

    def _rebuild_camera(self, key: str, problems: list[Problem]) -> bool:
        """The camera reads (and, simulated, draws) ``key``; False when it cannot (it stays
        stopped and the problem says why)."""
        if self.camera is None:
            return True
        profile = profile_for(self.profile_base, key, self.first_game)
        boxed = profile_for_game(self.referee.game, self.referee.row.header.options,
                                 self.referee.box_library, profile)  # fmt: skip
        try:
            self.camera.switch_game(boxed or profile, self.library_dir)
        except CameraError as exc:
            problems.append(Problem.of("table/camera-off", exc, game=self.referee.game.info.name))
            return False
        if self._worker.running:  # serving: a camera stopped by an earlier game starts again
            self.camera.start()
        shipped = camera_profile_path(key)
        if self.calibrator is not None and shipped is not None:
            self.calibrator.builtin = load_profile(shipped)
        return True

    def _rebuild_tts(self, key: str, problems: list[Problem]) -> None:
        if self.tts_source is None:
            return
        try:
            self.tts_source.profile = load_tts_profile(key)
        except TTSError as exc:
            problems.append(Problem.of("table/tts-off", exc, game=self.referee.game.info.name))

    def _switch_fallback(self, camera_ok: bool) -> None:
        """The move-level simulated table plays while the camera cannot (and stops when it
        can again)."""
        if self.camera is None or self.fallback is None:
            return
        if camera_ok and self._running_fallback is not None:
            self._running_fallback.stop()
            self._running_fallback = None
        elif not camera_ok and self._running_fallback is None:
            self._running_fallback = self.fallback()
            self._running_fallback.start()

    def _told(self) -> None:
        if self.changed is not None:
            try:
                self.changed()
            except Exception:  # the host page is told at its next connect
                _LOG.exception("telling the host page about the table's parts failed")
