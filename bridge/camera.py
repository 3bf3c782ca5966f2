"""The camera as the referee's table source: frames → tracker → snapshot → interpret → move.

``herald serve`` watches the table through this module. Frames come from a real source (a camera
device, a video file, a stream URL, an image folder: ``vision.sources.open_source``) or from the
*simulated camera* (``--table camera-sim``, the default for a game it can draw). Either
way they go through the same path:

1. ``vision.tracker.Tracker`` (motion-gated, debounced) commits a ``TableSnapshot`` only when the
   picture has settled and differs from the last one: a hand passing over commits nothing;
2. ``TableReader`` adds what the camera's face map says each tile face shows
   (``vision.faces``), declares what it reads everywhere (``coverage``) and which regions it
   could not read (``unread``), and asks the game's ``interpret`` what move the table shows;
3. exactly one explaining move, read with confidence, goes to ``Referee.observe`` like any
   observation (schema, rules, store, publication); so does the first move every equally good
   explanation shares. The first such move keeps the frame, its changes outlined, in the store
   (the audit trail, ``bridge.evidence``). Several candidates, no explanation (after one
   whole-frame re-read), or a change read with low confidence become a *question*
   (``bridge.questions``): one panel on the table display and on the phone of the one seat who
   answers, listing only the moves the camera could not tell apart, kept until answered or
   resolved; never a guess, never to the other phones.

The simulated camera (``CameraTable`` in ``sim`` mode) is the simulated table of ``SimTable``
moved one level down: it decides the next move as ``SimTable`` does (``sample_chance``, or a
legal seat move in ``all`` mode), lays the resulting engine state out on the board and films it
with ``vision.sim.StateCamera`` (perspective, light, blur, noise, a hand doing the move, and now
and then a hand passing over with nothing moved). What the referee learns, it learns from the
frames. A move the camera cannot see (the event cards, the Scout draw) or did not read is
confirmed by the simulated person after ``confirm_s``, through the intent a phone or the host
display would send; a question the camera asks is answered by the asked seat's simulated phone,
with the move its player made, as a person taps it on the panel. When the referee's state
changes another way (a phone, the host's undo), the simulated people move the pieces to match,
in front of the camera.

It is cheap beside the server on 2 cores: frames are 1280x720 at 8 fps while something moves
and 2 fps while the table is still, a still table is rendered once per position and re-read never
(the tracker's motion check costs about a millisecond), and a change re-reads only the regions it
touched (measured: about 0.4 s of CPU per simulated move, docs/vision.md).
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from bridge.evidence import evidence_jpeg
from bridge.game_files import camera_profile_path, can_draw, face_map_path, placer
from bridge.labels import move_label
from bridge.questions import Question, closed, next_id
from bridge.referee import Notice, Outcome, Principal, Referee, Update
from bridge.worker import Worker
from engine import codec
from engine.game import TABLE, Interpretation
from engine.i18n import CodedError, message
from engine.registry import game_keys
from vision.calibration import BoardProfile, ProfileError, load_profile
from vision.config import TrackerConfig
from vision.faces import FaceMap, FaceMapError, face_map_for
from vision.markers import MarkerDetector
from vision.pipeline import Pipeline
from vision.snapshot import Observation, TableSnapshot
from vision.sources import FolderSource, FrameSource, SourceError, open_source
from vision.tracker import Tracker

log = logging.getLogger(__name__)

Image = NDArray[np.uint8]
TableKind = Literal["camera-sim", "moves", "camera"]
SimMode = Literal["all", "table", "off"]

SOURCE = "camera"


class CameraError(CodedError, RuntimeError):
    """The camera table cannot be set up. ``code``/``params`` name the catalog sentence."""


@dataclass(frozen=True)
class CameraConfig:
    """Pace and thresholds of the camera table.

    ``fps`` is the frame rate while something moves (0: as fast as the machine goes, for tests);
    ``idle_s`` the gap between frames of a still simulated table; ``delay`` (± ``jitter``) the
    simulated players' pace, as ``SimConfig``; ``pass_share`` how often a simulated hand passes
    over without moving anything; ``confirm_s`` how long the simulated person waits for the
    camera before confirming a move by hand; ``min_confidence`` the confidence below which a
    changed piece makes the move a question rather than an observation.
    """

    mode: SimMode = "all"
    delay: float = 1.5
    jitter: float = 0.33
    seed: int = 1
    fps: float = 8.0
    idle_s: float = 0.5
    size: tuple[int, int] = (1280, 720)
    pass_share: float = 0.2
    confirm_s: float = 1.0
    min_confidence: float = 0.5
    sim_motion_scale: float = 0.25
    """The simulated camera's 1280x720 frames are compared for motion at 1/4 scale (a 320 px
    wide picture; the tracker's default 1/8 is meant for 1080p): a pawn set down on busy tile
    art is still a visible change."""


# --- reading: snapshot → move ---------------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """What one committed snapshot meant: the interpretation and what the referee answered."""

    interpretation: Interpretation
    outcomes: tuple[Outcome, ...] = ()
    asked: str = ""
    """The code of the question asked instead of a move (empty: none)."""

    @property
    def accepted(self) -> int:
        return sum(1 for o in self.outcomes if o.ok)


class TableReader:
    """Committed snapshots in, observations to the referee (or a question to the table) out.

    Args:
        referee: The table's referee.
        profile: The board profile (its regions say where tiles could have been read).
        faces: Face id → attributes (``vision.faces``).
        min_confidence: See ``CameraConfig``.
        tiles: Whether tile faces can be read at all (the pipeline has a slot classifier).
    """

    def __init__(
        self,
        referee: Referee,
        profile: BoardProfile,
        faces: FaceMap,
        min_confidence: float = 0.5,
        tiles: bool = True,
    ) -> None:
        self.referee = referee
        self.faces = faces
        self.min_confidence = min_confidence
        self.readings: list[Reading] = []
        self.tiles = tiles
        self.kinds: tuple[str, ...] = ()
        self.use_profile(profile)
        self._last: TableSnapshot | None = None
        self._last_image: Image | None = None
        self._pending: _Pending | None = None
        self._question: Question | None = None
        self._question_lock = threading.Lock()
        self._answering: int | None = None
        self.asked = 0
        """Questions sent (a question sent again to the same picture is not counted)."""
        self.answered = 0

    def use_profile(self, profile: BoardProfile) -> None:
        """Read with another board profile (its regions and sticker kinds)."""
        self.profile = profile
        stickers = {label.partition(":")[0] for label in profile.markers.values()}
        self.kinds = tuple(sorted(stickers | ({"tile"} if self.tiles else set())))

    def observations(self, snapshot: TableSnapshot) -> list[dict[str, Any]]:
        """The snapshot in the engine's vocabulary: faces named, what the camera reads everywhere
        (``coverage``: every sticker kind, and tiles when faces are enrolled) and the regions
        where it read no tile (``unread``: a slot is not known to be empty when no face fits)."""
        seen = [o.to_json() for o in self.faces.apply(snapshot.observations)]
        seen.append({"component": "coverage", "attrs": {"kinds": list(self.kinds)}})
        read = {o.region for o in snapshot.observations if o.component == "tile"}
        for region in self.profile.regions:
            if region.name not in read:  # tiles are read only in slots, and only when clear
                seen.append({"component": "unread", "region": region.name,
                             "attrs": {"kind": "tile"}})  # fmt: skip
        return seen

    def read(
        self,
        snapshot: TableSnapshot,
        recheck: Callable[[], TableSnapshot] | None = None,
        image: Image | None = None,
    ) -> Reading:
        """Interpret a committed snapshot against the referee's state and act on it.

        One explaining sequence of moves is observed. When several explain the table equally
        well and all begin the same way (a pawn moved onto a space whose effect took a piece back
        from a player's board the camera does not read), the common beginning is
        observed and the rest is left to the seat's prompt. Otherwise the table is asked.

        ``recheck`` re-reads the whole frame: when the snapshot fits no single move, it is called
        once before anyone is asked (a piece the region re-read missed is found again).
        ``image`` is the frame the snapshot was read from: the first move it explains keeps it,
        outlined against the last committed frame, in the store (``bridge.evidence``).
        """
        referee = self.referee
        with referee.locked():
            state_id, state = referee.state_id, referee.session.state
        result = referee.game.interpret(state, self.observations(snapshot))
        if recheck is not None and not (result.unchanged or result.moves or not result.distance):
            again = recheck()
            result = referee.game.interpret(state, self.observations(again))
            snapshot = again
        unsure = self._unsure(snapshot)
        self._last = snapshot
        before, self._last_image = self._last_image, image
        certain = result.moves or _common_prefix(result)
        self._pending = None
        if result.unchanged or not (result.moves or result.candidates or result.distance):
            reading = Reading(result)
            if result.unchanged:  # the pieces are back where the position has them
                self.close_question("resolved")
        elif certain and not unsure:
            reading = Reading(result, self._submit(certain, state_id, _evidence(image, before)))
        else:
            code = _code(result)
            waits = code == "camera/unexplained" and self._table_to_act(state)
            if not waits:
                self._ask(code, result, state_id, unsure)
            reading = Reading(result, asked="" if waits else code)
            if not unsure:
                self._pending = _Pending(snapshot, image, before, state_id, asked=not waits)
        self.readings.append(reading)
        return reading

    def waiting(self) -> bool:
        """Whether a picture the table was asked about may read differently now: the position
        has changed another way (a phone, the host) since it was read."""
        pending = self._pending
        return pending is not None and pending.state_id != self.referee.state_id

    def retry(self) -> Reading | None:
        """Read the picture the table was last asked about once more, against the position as
        it is now (see ``waiting``).

        Players may move a piece before the choice the camera cannot see is entered on a phone
        (a card played, a sealed vote): the picture then fits no move, and the table is asked
        (unless the table itself has a move to enter first, the order of play drawn: then it
        waits for it). Once that move is in, the same picture explains the move, and it is
        observed (with its frame). Only that acts: a picture that still fits nothing, or now
        shows the position itself (the asked seat confirmed the move), asks nothing new; one
        that waited and still fits nothing is asked about now. None: nothing to read again.
        """
        pending = self._pending
        if pending is None:
            return None
        referee = self.referee
        with referee.locked():
            state_id, state = referee.state_id, referee.session.state
        if state_id == pending.state_id:
            return None
        result = referee.game.interpret(state, self.observations(pending.snapshot))
        certain = result.moves or _common_prefix(result)
        if result.unchanged:
            self._pending = None
            return None
        if not certain:
            self._pending = replace(pending, state_id=state_id)  # again after the next change
            if not pending.asked and not self._table_to_act(state):
                self._pending = replace(pending, state_id=state_id, asked=True)
                self._ask(_code(result), result, state_id, [])
            return None
        self._pending = None
        frame = _evidence(pending.image, pending.before)
        reading = Reading(result, self._submit(certain, state_id, frame))
        self.readings.append(reading)
        return reading

    def _table_to_act(self, state: Any) -> bool:
        """Whether the table has a move to enter that the camera does not read (the decks laid,
        a card dealt into a hand) and no seat is to act: a change the camera sees then is that
        move's, and the picture waits for it to be entered (``retry``) instead of asking."""
        acting = set(self.referee.game.to_act(state))
        return TABLE in acting and not acting & set(self.referee.seats)

    def _submit(
        self, moves: Iterable[Any], state_id: int, frame: tuple[bytes, dict[str, Any]] | None
    ) -> tuple[Outcome, ...]:
        outcomes = []
        for move in moves:
            outcome = self.referee.observe(SOURCE, codec.encode(move), state_id=state_id,
                                           frame=frame)  # fmt: skip
            frame = None  # the picture goes with the first move it explains
            outcomes.append(outcome)
            if not outcome.ok:
                break
            state_id = outcome.state_id
        return tuple(outcomes)

    def _unsure(self, snapshot: TableSnapshot) -> list[Observation]:
        """Pieces that changed since the last snapshot and were read with low confidence."""

        def key(o: Observation) -> tuple[str, str, str]:
            return (o.component, o.region or "", str(o.attrs.get("face", "")))

        before = {key(o) for o in self._last.observations} if self._last else set()
        return [
            o
            for o in snapshot.observations
            if key(o) not in before and o.confidence < self.min_confidence
        ]

    def _ask(
        self, code: str, result: Interpretation, state_id: int, unsure: list[Observation]
    ) -> None:
        """Ask the table display and the one seat who answers, once per question: the same
        question about the same position is not sent again (a re-read, the same change seen
        once more), and a new one replaces the open one."""
        referee = self.referee
        game = referee.game
        if code == "camera/unexplained":
            options: list[tuple[Any, ...]] = []
        else:
            options = [result.moves] if result.moves else list(result.candidates)
        actors = {game.actor(seq[0]) for seq in options if seq}
        if not options:
            with referee.locked():
                actors = set(game.to_act(referee.session.state))
        seat = next(iter(actors)) if len(actors) == 1 else None
        if seat not in referee.seats:
            seat = None  # a table move, or several seats: the host answers on the table display
        pieces = ", ".join(sorted({o.component for o in unsure}))
        params = {"count": len(options), "pieces": pieces, "seat": seat or ""}
        question = Question(next_id(), code, state_id, referee.row.id, seat, tuple(options), params)
        with self._question_lock:
            previous = self._question
            if question.same_as(previous):
                return
            self._question = question
        if previous is not None:
            self._announce_closed(previous, "replaced")
        self.asked += 1
        self._announce(question)
        log.info("camera asks (%s) %s: %d choices", code, seat or "the host", len(options))

    def _announce(self, question: Question) -> None:
        key = self.referee.game.info.key

        def label(move: dict[str, Any], lang: str, public: bool) -> str:
            return move_label(key, move, lang, public)

        lang = self.referee.lang
        table = question.langs(label, "table")
        self.referee.announce(Notice("question", table[lang], None, table))
        if question.seat is not None:
            own = question.langs(label, "seat")
            self.referee.announce(Notice("question", own[lang], question.seat, own))

    def _announce_closed(self, question: Question, why: str) -> None:
        payload = closed(question, why)
        self.referee.announce(Notice("question", payload, None))
        if question.seat is not None:
            self.referee.announce(Notice("question", payload, question.seat))

    @property
    def question(self) -> Question | None:
        """The open question (None: the camera asks nothing now)."""
        return self._question

    def close_question(self, why: str, state: tuple[int, int] | None = None) -> bool:
        """Take the open question away (``questions.closed``); with ``state`` (session,
        state_id), only if it was asked about another position. True if one was closed."""
        with self._question_lock:
            question = self._question
            if question is None:
                return False
            if state is not None and state == (question.session, question.state_id):
                return False
            if why == "resolved" and question.id == self._answering:
                return False  # the answer's own move: closed as answered
            self._question = None
        self._announce_closed(question, why)
        return True

    def answer(self, principal: Principal, question_id: Any, choice: Any) -> Outcome:
        """A seat's (or the host's) answer: the chosen candidate's moves go to the referee as
        that principal's intents (the rules check them like any move), and the question closes.

        Refused, changing nothing: a question no longer open (answered, resolved, replaced),
        a principal who is not asked, a choice the question did not offer."""
        referee = self.referee
        question = self._question
        if question is None or question_id != question.id:
            return _refused(referee, "question/closed")
        if not question.may_answer(principal.role, principal.seat):
            return _refused(referee, "question/not-yours", seat=question.seat or "")
        if type(choice) is not int or not 0 <= choice < len(question.choices):
            return _refused(referee, "question/bad-choice", count=len(question.choices))
        state_id = question.state_id
        outcome = _refused(referee, "question/closed")
        self._answering = question.id
        try:
            for n, move in enumerate(question.choices[choice]):
                body = {"state_id": state_id, "kind": "move", "move": codec.encode(move)}
                outcome = referee.intent(principal, body)
                if not outcome.ok:
                    if n == 0:
                        return outcome  # nothing changed: the question stays open
                    break
                state_id = outcome.state_id
        finally:
            self._answering = None
        self._pending = None  # the picture is explained: nothing to read again
        self.answered += 1
        self.close_question("answered")
        return outcome


def _refused(referee: Referee, code: str, **params: Any) -> Outcome:
    params = {"state_id": referee.state_id, **params}
    return Outcome("error", referee.state_id, code, message(code, referee.lang, **params), params)


@dataclass(frozen=True)
class _Pending:
    """A committed picture the table was asked about, kept to be read again (``retry``)."""

    snapshot: TableSnapshot
    image: Image | None
    before: Image | None
    state_id: int
    """The position it was last read against."""
    asked: bool = True
    """Whether the table was asked about it (a picture waiting for the table's own move was
    not: it is asked about once that move is in and it still fits nothing)."""


def _evidence(image: Image | None, before: Image | None) -> tuple[bytes, dict[str, Any]] | None:
    """The audit trail's picture of a move (None: no frame, or it would not encode)."""
    if image is None:
        return None
    try:
        return evidence_jpeg(image, before)
    except (ValueError, cv2.error):  # the move stands without its picture
        log.warning("camera frame could not be encoded for the audit trail")
        return None


def _code(result: Interpretation) -> str:
    """The question a reading that is not observed asks (``camera/*``, bridge/questions.py)."""
    if result.moves:
        return "camera/unsure"
    if result.distance or not result.candidates:
        return "camera/unexplained"  # a part fit lists no choice: nothing fits whole
    return "camera/ambiguous"


def _common_prefix(result: Interpretation) -> tuple[Any, ...]:
    """The moves every equally good, complete explanation begins with (empty: none)."""
    if result.distance or not result.candidates:
        return ()
    first = result.candidates[0]
    n = 0
    while n < len(first) and all(len(c) > n and c[n] == first[n] for c in result.candidates):
        n += 1
    return tuple(first[:n])


# --- the loop ---------------------------------------------------------------------------------


@dataclass
class CameraStats:
    """Counters for the log, the benchmark and the tests."""

    frames: int = 0
    commits: int = 0
    camera_moves: int = 0
    confirmed: int = 0
    answered: int = 0
    """Moves the camera asked about, answered by the asked seat's simulated phone."""
    passes: int = 0
    mirrored: int = 0
    busy_s: float = 0.0
    settled_at: float = 0.0
    """Wall-clock time (``time.time()``) the frame of the last commit arrived: where the
    settle-to-phone latency is measured from (``bridge.settle_latency``)."""
    chosen: list[tuple[Any, str]] = field(default_factory=list)
    """The simulated table's moves and how the referee learnt each (``camera``, ``answered``,
    ``confirmed``)."""


def built_for(referee: Any) -> tuple[str, str]:
    """What a table's camera parts read: the game and the data set it plays on (a box's map
    is another board). ``bridge.table_parts`` rebuilds the parts when this changes."""
    data = referee.row.header.options.get("data")
    return referee.game.info.key, json.dumps(data, sort_keys=True)


class CameraTable:
    """Runs frames through the tracker and the reader in a thread of its own.

    Build one with ``open_camera_table``. ``latest_frame()`` and ``profile_path`` are for the
    calibration page. It is a referee ``Transport`` too: an update wakes the simulated table.
    """

    def __init__(
        self,
        referee: Referee,
        pipeline: Pipeline,
        reader: TableReader,
        config: CameraConfig,
        *,
        source: FrameSource | None = None,
        sim: Any = None,
        profile_path: Path | None = None,
        tracker: TrackerConfig | None = None,
    ) -> None:
        self.referee = referee
        self.pipeline = pipeline
        self.reader = reader
        self.config = config
        self.source = source
        self.sim = sim
        self.profile_path = profile_path
        self.tracker = Tracker(pipeline, tracker)
        self.stats = CameraStats()
        self._rng = random.Random(config.seed)
        self._np_rng = np.random.default_rng(config.seed)
        self._latest: Image | None = None
        self._new_profile: BoardProfile | None = None
        self.on_failure: Callable[[Exception], None] | None = None
        """Told when the camera's loop dies of an error (the host page says so)."""
        self.game_key = referee.game.info.key
        """The game the parts were built for: a new game of another game waits for
        ``switch_game``, never reads its table with these parts."""
        self._built_for = built_for(referee)
        self._clock = 0.0
        self._worker = Worker("herald-camera", self._run, join_timeout=10)
        self._wake, self._stop = self._worker.woken, self._worker.stopping

    @property
    def name(self) -> str:
        return "camera-sim" if self.sim is not None else getattr(self.source, "name", "camera")

    def latest_frame(self) -> Image | None:
        """The last frame the camera delivered (BGR; do not modify), or None before the first."""
        return self._latest

    def use_profile(self, profile: BoardProfile) -> None:
        """Read the table with ``profile`` from the next frame on (the calibration page saved
        it). The camera thread swaps it in and re-reads the whole frame."""
        self._new_profile = profile

    # Transport: every published update is a reason to look at the table again.
    def publish(self, update: Update) -> None:
        """A new position resolves the question asked about an older one (a phone or the host
        made the move), and wakes the simulated table."""
        self.reader.close_question("resolved", (self.referee.row.id, update.state_id))
        self._wake.set()

    def notice(self, notice: Notice) -> None:
        """Notices need no action here (the simulated phones answer on their own clock)."""

    def answer(self, principal: Principal, question_id: Any, choice: Any) -> Outcome:
        """A page's answer to the open question (``TableReader.answer``)."""
        return self.reader.answer(principal, question_id, choice)

    def question_for(self, principal: Principal, lang: str) -> dict[str, Any] | None:
        """The open question as a page that connects now must see it (None: nothing open, or
        not for this page: only the table display and the asked seat see it)."""
        question = self.reader.question
        if question is None:
            return None
        if principal.role == "seat" and principal.seat != question.seat:
            return None
        key = self.referee.game.info.key

        def label(move: dict[str, Any], lng: str, public: bool) -> str:
            return move_label(key, move, lng, public)

        return question.payload(lang, label, "seat" if principal.role == "seat" else "table")

    # --- running -------------------------------------------------------------------------

    def start(self) -> None:
        if self._worker.running:
            return
        self.referee.attach(self)
        self._worker.start()

    def _run(self) -> None:
        if self.sim is not None:
            self._run_sim()
        else:
            self._run_source()

    def stop(self) -> None:
        self._halt()
        if self._worker.stop():
            self.referee.detach(self)
        if self.source is not None:
            self.source.close()

    def _halt(self) -> None:
        """Tell the loop to end and rouse a source that waits for frames pushed to it (the
        phone's): the loop would otherwise hold ``stop`` until the next frame, or its timeout."""
        self._stop.set()
        interrupt = getattr(self.source, "interrupt", None)
        if interrupt is not None:
            interrupt()

    def switch_game(
        self, profile_path: str | Path | None, library_dir: str | Path | None = None
    ) -> None:
        """Read (and, simulated, draw) the referee's game from now on: a new game at the table
        may be another game, whose profile, faces and layout the old parts cannot read (issue 25,
        point 1: one game's layout asked of another's state). The loop stops, every per-game part is
        built again for ``referee.game`` (the frame source is kept), and the loop starts again
        when it was running.

        Raises:
            CameraError: the new game cannot be read (no profile, seats its stickers do not
                name); the camera then stays stopped, so no frame is read with the old parts.
        """
        running = self._worker.running
        self._halt()
        if self._worker.stop():
            self.referee.detach(self)
        kind: Literal["camera-sim", "camera"] = "camera-sim" if self.sim is not None else "camera"
        fresh = open_camera_table(self.referee, kind, self.config, profile_path=profile_path,
                                  library_dir=library_dir, source=self.source)  # fmt: skip
        self.pipeline, self.reader, self.sim = fresh.pipeline, fresh.reader, fresh.sim
        self.profile_path, self.tracker = fresh.profile_path, fresh.tracker
        self.game_key = fresh.game_key
        self._built_for = built_for(self.referee)
        self._new_profile = None
        self._worker = Worker("herald-camera", self._run, join_timeout=10)
        self._wake, self._stop = self._worker.woken, self._worker.stopping
        if running:
            self.start()

    def _run_source(self) -> None:
        """Read a real source: a live camera or stream at ``fps`` (frames in between are
        skipped), a video file at its own pace, an image folder one still picture at a time
        (each shown for as many frames as the tracker needs to commit it)."""
        assert self.source is not None
        gap = 1.0 / self.config.fps if self.config.fps > 0 else 0.0
        live = bool(getattr(self.source, "live", False))
        folder = isinstance(self.source, FolderSource)
        hold = self.tracker.cfg.stable_frames + 2 if folder else 1
        last = -1e9
        started = time.monotonic()
        try:
            for frame in self.source:
                if self._stop.is_set():
                    return
                if self._stale():
                    continue  # another game began: no frame is read with the old parts
                if not folder and gap and frame.time - last < gap:
                    continue  # a 30 fps camera is read at the configured rate
                last = frame.time
                if not live and not folder and gap:  # a recording plays at its own pace
                    ahead = frame.time - (time.monotonic() - started)
                    if ahead > 0 and self._stop.wait(ahead):
                        return
                for _ in range(hold):
                    self.feed(frame.image, frame.time)
                    if hold > 1 and gap and self._stop.wait(gap):
                        return
        except SourceError as exc:
            log.warning("camera source failed: %s", exc.text())
        except Exception as exc:  # the referee keeps serving phones if the camera thread dies
            if self._stale():
                return
            log.exception("camera loop failed")
            self._failed(exc)
        log.info("camera source %s ended", self.name)

    def _run_sim(self) -> None:
        try:
            self.settle()
            pause = self._pause()
            while not self._stop.is_set():
                if self._idle(pause) or self._stale():
                    return  # stopped, or another game: ``switch_game`` starts a new loop
                started = time.monotonic()
                self.step()
                pause = max(0.0, self._pause() - (time.monotonic() - started))
        except Exception as exc:
            if self._stale():
                log.info("camera: another game or box began; its parts are being built")
                return
            log.exception("simulated camera failed")
            self._failed(exc)

    def _stale(self) -> bool:
        """Whether the referee plays another game, or the same game on another box, than the
        parts read: a New game on a kept box is read on that box's board (``switch_game``)."""
        return built_for(self.referee) != self._built_for

    def _failed(self, exc: Exception) -> None:
        """The loop died: whoever watches the camera is told (never only a log line)."""
        if self.on_failure is not None and not self._stop.is_set():
            try:
                self.on_failure(exc)
            except Exception:
                log.exception("telling about the camera's failure failed")

    def _pause(self) -> float:
        spread = self.config.delay * self.config.jitter
        return max(0.0, self.config.delay + self._rng.uniform(-spread, spread))

    def _idle(self, seconds: float) -> bool:
        """Show the still table for ``seconds`` (a frame every ``idle_s``); True when stopped.

        Ends early when the referee's position changed another way (a phone, the host): the
        simulated people then set the table to match.
        """
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0 or self._stop.is_set():
                return self._stop.is_set()
            if self._wake.wait(min(left, self.config.idle_s)):
                self._wake.clear()
                if self._stop.is_set():
                    return True
                if self._stale():
                    return False  # the loop ends; the new game's parts start another
                if self.sim is not None and self._differs(self.referee.session.state):
                    return False
            if self.sim is not None and self.sim.layout is not None:
                self.feed(self.sim.still())

    # --- frames ----------------------------------------------------------------------------

    def feed(self, image: Image, at: float | None = None) -> Reading | None:
        """One frame through the tracker; a committed snapshot is read at once (none while the
        referee plays another game than these parts read: ``switch_game`` comes)."""
        if self._stale():
            return None
        started = time.perf_counter()
        arrived = time.time()
        self._latest = image
        self.stats.frames += 1
        if at is None:
            self._clock += 1.0 / self.config.fps if self.config.fps > 0 else 0.1
            at = self._clock
        now = at
        snapshot = (
            self._swap_profile(image, now)
            if self._new_profile is not None
            else self.tracker.update(image, now)
        )
        reading = None
        self.reader.close_question("resolved", (self.referee.row.id, self.referee.state_id))
        if snapshot is not None:
            self.stats.commits += 1
            self.stats.settled_at = arrived
            reading = self.reader.read(snapshot, lambda: self.tracker.refresh(image, now), image)
            self.stats.camera_moves += reading.accepted
        elif self.reader.waiting():
            reading = self.reader.retry()
            self.stats.camera_moves += reading.accepted if reading is not None else 0
        self.stats.busy_s += time.perf_counter() - started
        return reading

    def _swap_profile(self, image: Image, at: float) -> TableSnapshot:
        profile, self._new_profile = self._new_profile, None
        assert profile is not None
        if profile.dictionary != self.pipeline.profile.dictionary:
            self.pipeline.markers = MarkerDetector(self.pipeline.cfg.markers, profile.dictionary)
        self.pipeline.profile = profile
        self.reader.use_profile(profile)
        log.info("camera: reading the table with the saved profile %s", profile.name)
        return self.tracker.refresh(image, at)

    def _play(self, frames: Iterable[Any]) -> None:
        gap = 1.0 / self.config.fps if self.config.fps > 0 else 0.0
        for f in frames:
            self.feed(f.image)
            if gap and self._stop.wait(gap):
                return

    def settle(self) -> None:
        """Lay the referee's position out and film it until the tracker has committed it."""
        assert self.sim is not None
        started = time.perf_counter()
        self.sim.show(self.referee.session.state)
        self.stats.busy_s += time.perf_counter() - started
        self.settle_frames()

    # --- the simulated table ---------------------------------------------------------------

    def step(self, action: Literal["move", "pass"] | None = None) -> str:
        """One turn of the simulated table; returns what happened.

        ``mirror`` (the table catches up with a change made elsewhere), ``pass`` (a hand passed
        over), ``camera`` (a move the camera read), ``answered`` (the camera asked and the seat's
        simulated phone answered), ``confirmed`` (a move the table does not show, entered on the
        phone or the host display), ``refused`` or ``idle`` (nothing to do).
        """
        assert self.sim is not None
        referee = self.referee
        with referee.locked():
            state, state_id = referee.session.state, referee.state_id
        game = referee.game
        if self._differs(state):
            self._film(lambda: self.sim.move_frames(state, self._np_rng))
            self.stats.mirrored += 1
            return "mirror"
        if self.config.mode == "off" and action is None:
            return "idle"
        if action == "pass" or (action is None and self._rng.random() < self.config.pass_share):
            self._film(lambda: self.sim.pass_frames(self._np_rng))
            self.stats.passes += 1
            return "pass"
        if game.is_over(state):
            return "idle"
        move: Any = game.sample_chance(state, self._rng)
        if move is None:
            if self.config.mode != "all" or TABLE in game.to_act(state):
                return "idle"
            moves = game.legal_moves(state)
            if not moves:
                return "idle"
            move = moves[self._rng.randrange(len(moves))]
        after = game.apply_unchecked(state, move)
        self._film(lambda: self.sim.move_frames(after, self._np_rng))
        if self._stop.is_set():
            return "idle"
        if referee.state_id > state_id:
            how = "camera" if self._took(state_id, move) else "other"
            self.stats.chosen.append((move, how))
            return how
        if self.config.confirm_s and self._stop.wait(self.config.confirm_s):
            return "idle"
        if self._answer_as_player(move, state_id):
            return "answered"
        outcome = self._confirm(move, state_id)
        if outcome.ok:
            self.stats.confirmed += 1
            self.stats.chosen.append((move, "confirmed"))
            return "confirmed"
        log.info("simulated confirmation refused: %s", outcome.to_json())
        return "refused"

    def _film(self, make: Any) -> None:
        """Render the frames of one scripted action, then the still table until it settles."""
        started = time.perf_counter()
        frames = make()
        self.stats.busy_s += time.perf_counter() - started
        self._play(frames)
        self.settle_frames()

    def settle_frames(self) -> None:
        """The still table for as many frames as the tracker needs to commit a change."""
        gap = 1.0 / self.config.fps if self.config.fps > 0 else 0.0
        for _ in range(self.pipeline.cfg.tracker.stable_frames + 2):
            started = time.perf_counter()
            image = self.sim.still()
            self.stats.busy_s += time.perf_counter() - started
            self.feed(image)
            if gap and self._stop.wait(gap):
                return

    def _differs(self, state: Any) -> bool:
        from vision.sim import lay_out

        layout, _ = lay_out(self.sim.place(state), self.sim.profile)
        return bool(layout != self.sim.layout)

    def _took(self, state_id: int, move: Any) -> bool:
        """Whether the event after ``state_id`` is ``move``, observed by the camera."""
        events = self.referee.store.events(self.referee.row.id, state_id)
        return (
            bool(events)
            and events[0].source == SOURCE
            and events[0].payload.get("move") == codec.encode(move)
        )

    def _answer_as_player(self, move: Any, state_id: int) -> bool:
        """The asked seat's simulated phone answers the camera's question with the move its
        player made, as a person taps it on the panel; True if answered. A question with no
        such choice (a change no move explains) is left to the move made on the phone."""
        question = self.reader.question
        if question is None or question.state_id != state_id:
            return False
        index = next((i for i, seq in enumerate(question.choices) if seq == (move,)), None)
        if index is None:
            return False
        seat = question.seat
        who = Principal("seat", seat) if seat is not None else Principal("host")
        outcome = self.answer(who, question.id, index)
        if not outcome.ok:
            log.info("simulated answer refused: %s", outcome.to_json())
            return False
        self.stats.answered += 1
        self.stats.chosen.append((move, "answered"))
        return True

    def _confirm(self, move: Any, state_id: int) -> Outcome:
        """The simulated person confirms ``move`` the way a phone or the host display would."""
        actor = self.referee.game.actor(move)
        who = Principal("seat", actor) if actor in self.referee.seats else Principal("host")
        body = {"state_id": state_id, "kind": "move", "move": codec.encode(move)}
        return self.referee.intent(who, body)


# --- building one -----------------------------------------------------------------------------


def has_camera_sim(game_key: str) -> bool:
    """Whether the simulated camera can lay out this game's table (a camera profile and the
    game's ``layout`` verb)."""
    return game_key in game_keys() and can_draw(game_key)


def choose_table(
    game_key: str, table: str | None, camera: str | None, tts: bool
) -> tuple[TableKind, bool]:
    """The table source ``herald serve`` runs, and whether the user asked for it by name.

    ``--table`` wins; ``--camera`` alone means a real camera; with ``--tts`` the TTS table is
    read and the move-level simulated table stands in for the rest; otherwise a game the
    simulated camera can draw is filmed by it, and any other game gets the move-level table.
    """
    if table is not None:
        return table, True  # type: ignore[return-value]
    if camera is not None:
        return "camera", True
    if not tts and has_camera_sim(game_key):
        return "camera-sim", False
    return "moves", False


def camera_seats(game_key: str, profile_path: str | None, players: int) -> tuple[str, ...]:
    """The seat names of a new camera session: the profile's sticker colours, in order.

    Raises:
        CameraError: no profile, or fewer seat colours than players.
    """
    profile, _ = load_board_profile(game_key, profile_path)
    named = profile_seats(profile)
    if len(named) < players:
        raise CameraError("camera/too-many-players", players=players, count=len(named),
                          named=", ".join(named))  # fmt: skip
    return named[:players]


def profile_seats(profile: BoardProfile) -> tuple[str, ...]:
    """The seat colours the profile's seat stickers name (``<seat_sticker>:<seat>``), in sticker
    order."""
    seats: list[str] = []
    for _, label in sorted(profile.markers.items()):
        kind, _, seat = label.partition(":")
        if profile.seat_sticker and kind == profile.seat_sticker and seat and seat not in seats:
            seats.append(seat)
    return tuple(seats)


def load_board_profile(game_key: str, path: str | Path | None) -> tuple[BoardProfile, Path | None]:
    """The board profile to read the table with, and the file the calibration page saves to.

    ``path`` may name a file that does not exist yet: the game's built-in profile is used until
    the calibration page writes one there. Without ``path`` the file is the built-in profile
    (which that page will not overwrite).

    Raises:
        CameraError: the file is broken, or the game has no built-in profile and none is given.
    """
    shipped = camera_profile_path(game_key)
    if path is not None and (Path(path).exists() or shipped is None):
        try:
            return load_profile(path), Path(path)
        except (OSError, ProfileError, ValueError) as exc:
            raise CameraError("vision/bad-profile", detail=str(exc)) from exc
    if shipped is None:
        raise CameraError("camera/no-profile", game=game_key)
    # No file yet: the game's own profile until the calibration page saves one at ``path``.
    return load_profile(shipped), Path(path) if path is not None else shipped


def open_camera_table(
    referee: Referee,
    table: Literal["camera-sim", "camera"],
    config: CameraConfig,
    *,
    camera: str | None = None,
    profile_path: str | Path | None = None,
    library_dir: str | Path | None = None,
    source: FrameSource | None = None,
) -> CameraTable:
    """The camera table ``herald serve --table`` asks for.

    ``camera-sim`` films the referee's own game with the simulated camera; ``camera`` reads the
    frame source ``camera`` names (``vision.sources.open_source``), or ``source`` when the table
    already has one open (a new game keeps the camera it was filmed by).

    Raises:
        CameraError: no profile, a seat the profile's stickers cannot name, a broken library or
            face map, or a source that cannot be opened (each with its catalog sentence).
    """
    game_key = referee.game.info.key
    if table == "camera-sim" and not has_camera_sim(game_key):
        raise CameraError("camera/no-sim", game=game_key)
    profile, used_path = load_board_profile(game_key, profile_path)
    named = profile_seats(profile)
    missing = [s for s in referee.seats if s not in named]
    if missing:
        raise CameraError("camera/unknown-seats", seats=", ".join(missing),
                          named=", ".join(named))  # fmt: skip
    try:
        faces = face_map_for(face_map_path(game_key), library_dir)
    except FaceMapError as exc:
        raise CameraError("camera/bad-faces", detail=exc.text()) from exc
    pipeline = _pipeline(profile, library_dir, faces if table == "camera-sim" else None)
    reader = TableReader(referee, profile, faces, config.min_confidence, pipeline.slots is not None)
    if table == "camera-sim":
        from vision.sim import StateCamera

        place = placer(game_key, profile)
        sim = StateCamera(config.seed, size=config.size, profile=profile, place=place)
        motion = replace(pipeline.cfg.tracker, motion_scale=config.sim_motion_scale)
        return CameraTable(referee, pipeline, reader, config, sim=sim, profile_path=used_path,
                           tracker=motion)  # fmt: skip
    if source is not None:
        return CameraTable(referee, pipeline, reader, config, source=source,
                           profile_path=used_path)  # fmt: skip
    if not camera:
        raise CameraError("camera/no-source")
    try:
        source = open_source(camera, profile=profile, fps=config.fps)
    except SourceError as exc:
        raise CameraError("camera/source", detail=exc.text()) from exc
    return CameraTable(referee, pipeline, reader, config, source=source, profile_path=used_path)


def _pipeline(
    profile: BoardProfile, library_dir: str | Path | None, standin: FaceMap | None
) -> Pipeline:
    """The pipeline: an enrolled library if given, else (simulated camera) the stand-in faces."""
    from vision.library import Library, LibraryError
    from vision.slots import SlotClassifier

    if library_dir is not None:
        try:
            library = Library.load(library_dir)
            slots = SlotClassifier.from_library_dir(library_dir)
        except (OSError, LibraryError, ValueError) as exc:
            raise CameraError("vision/bad-library", detail=str(exc)) from exc
        return Pipeline(profile=profile, library=library, slots=slots)
    if standin is not None and len(standin):
        from vision.sim import standin_faces

        return Pipeline(profile=profile, slots=SlotClassifier(standin_faces(standin.faces)))
    return Pipeline(profile=profile)
