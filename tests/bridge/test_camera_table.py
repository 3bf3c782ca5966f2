"""The camera as the table source: the simulated camera films each move, the real vision
pipeline and tracker read the frames, ``Game.interpret`` names the move, the referee takes it.

Seeded and in-process (no clocks: ``fps=0`` and ``confirm_s=0`` run the frames as fast as the
machine goes). What the simulator chose is compared with what the referee stored.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bridge.camera import CameraConfig, CameraTable, choose_table, open_camera_table
from bridge.game_files import camera_profile, camera_profile_path, placer
from bridge.labels import move_label
from bridge.referee import Notice, Referee, Update
from bridge.store import EventStore
from engine import codec, get_game
from engine.games.middle_ages.moves import DrawOrder, LayEvents, MoveLord, PlaceLord, Reveal
from engine.i18n import message

pytestmark = pytest.mark.slow  # a long group: started first (tests/conftest.py)

MA_BOARD = camera_profile("middle-ages")
"""The board profile Middle Ages ships (its package's camera/profile.json)."""


GAME = get_game("middle-ages")
SEATS = ("red", "blue", "green")  # the board profile's sticker colours
MOVES = 12


class Recorder:
    """A transport keeping the notices (the camera's questions)."""

    def __init__(self) -> None:
        self.notices: list[Notice] = []

    def publish(self, update: Update) -> None:
        """States are read from the store."""

    def notice(self, notice: Notice) -> None:
        self.notices.append(notice)


def _table(db: Path, **config: Any) -> tuple[Referee, CameraTable, Recorder]:
    referee = Referee.open(EventStore(db), GAME, "t1", SEATS, {})
    recorder = Recorder()
    referee.attach(recorder)
    camera = open_camera_table(
        referee, "camera-sim", CameraConfig(fps=0, confirm_s=0, **{"seed": 2, **config})
    )
    camera.settle()
    return referee, camera, recorder


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A seeded game from its first reveal: hands pass over, one rests, twelve moves are made."""
    referee, camera, recorder = _table(tmp_path_factory.mktemp("camera") / "c.db")
    assert camera.tracker.stats.commits == 1  # the empty table, seen once
    before = (referee.state_id, camera.tracker.stats.commits, len(camera.reader.readings))
    assert camera.step("pass") == "pass"
    frames = camera.sim.pass_frames(np.random.default_rng(5), hold=6)  # a hand rests, then goes
    vetoed = camera.tracker.stats.vetoed
    for f in frames:
        camera.feed(f.image)
    camera.settle_frames()
    after = (referee.state_id, camera.tracker.stats.commits, len(camera.reader.readings))
    steps = []
    while len(camera.stats.chosen) < MOVES:
        steps.append(camera.step("move"))
    return {
        "referee": referee,
        "camera": camera,
        "recorder": recorder,
        "still": (before, after),
        "vetoed": camera.tracker.stats.vetoed - vetoed,
        "steps": steps,
    }


def test_the_referee_advances_by_exactly_the_moves_the_simulator_made(
    played: dict[str, Any],
) -> None:
    referee: Referee = played["referee"]
    camera: CameraTable = played["camera"]
    stored = referee.store.events(referee.row.id)
    chosen = camera.stats.chosen
    assert [e.payload["move"] for e in stored] == [codec.encode(m) for m, _ in chosen]
    assert referee.state_id == MOVES
    for event, (move, how) in zip(stored, chosen, strict=True):
        if how == "camera":
            assert event.source == "camera"
        else:  # the simulated person's phone (or the host, for the table) confirmed or answered
            assert how in ("confirmed", "answered")
            actor = GAME.actor(move)
            assert event.source == (f"seat:{actor}" if actor in SEATS else "host")


def test_the_camera_reads_reveals_and_pawn_moves_and_only_invisible_ones_are_confirmed(
    played: dict[str, Any],
) -> None:
    chosen = played["camera"].stats.chosen
    read = [m for m, how in chosen if how == "camera"]
    assert sum(isinstance(m, Reveal) for m in read) == 4  # the four starting rows, from faces
    assert any(isinstance(m, PlaceLord) for m in read)
    assert any(isinstance(m, MoveLord) for m in read)
    confirmed = [type(m).__name__ for m, how in chosen if how == "confirmed"]
    assert confirmed == ["LayEvents", "DrawOrder"]  # cards and the Scout draw are off the board
    assert any(isinstance(m, LayEvents) for m, _ in chosen)


def test_hands_over_the_table_make_no_move(played: dict[str, Any]) -> None:
    before, after = played["still"]
    assert after == before  # no state change, no commit, nothing read
    assert played["vetoed"] >= 1  # the resting hand was seen and ignored


def test_a_reveal_read_without_confidence_is_asked_not_observed(tmp_path: Path) -> None:
    """A table move (a reveal) read with too little confidence: one question to the table
    display (the host answers a table move), answered there, then closed."""
    referee, camera, recorder = _table(tmp_path / "u.db", min_confidence=0.99)
    assert camera.step("move") == "answered"
    ((move, how),) = camera.stats.chosen
    assert isinstance(move, Reveal) and how == "answered"
    asked = [n for n in recorder.notices if n.event == "question"]
    opened = [n for n in asked if n.payload["open"]]
    assert [(n.seat, n.payload["code"]) for n in opened] == [(None, "camera/unsure")]
    assert opened[0].payload["message"] and opened[0].payload["answerable"]
    # issue 15, point 9: a Polish phone reads the request and the moves it names in Polish
    polish = opened[0].in_lang("pl")
    assert polish["message"] == message("camera/unsure", "pl", **opened[0].payload["params"])
    assert polish["message"] != opened[0].payload["message"]
    assert (
        [c["labels"] for c in polish["choices"]]
        == [[move_label("middle-ages", codec.encode(move), "pl")]]
        != [c["labels"] for c in opened[0].payload["choices"]]
    )
    assert [(n.seat, n.payload["open"], n.payload.get("why")) for n in asked[1:]] == [
        (None, False, "answered")
    ]
    assert camera.reader.question is None
    (event,) = referee.store.events(referee.row.id)
    assert event.source == "host" and event.payload["move"] == codec.encode(move)


def test_the_table_source_defaults() -> None:
    assert choose_table("middle-ages", None, None, tts=False) == ("camera-sim", False)
    assert choose_table("france1429", None, None, tts=False) == ("camera-sim", False)
    assert choose_table("france1429", None, None, tts=True) == ("moves", False)
    assert choose_table("middle-ages", None, None, tts=True) == ("moves", False)
    assert choose_table("middle-ages", None, "0", tts=False) == ("camera", True)
    assert choose_table("middle-ages", "moves", None, tts=False) == ("moves", True)


def test_latest_frame_and_profile_path_for_the_calibration_page(played: dict[str, Any]) -> None:
    camera: CameraTable = played["camera"]
    frame = camera.latest_frame()
    assert frame is not None and frame.shape == (720, 1280, 3) and frame.dtype == np.uint8
    assert camera.profile_path == camera_profile_path("middle-ages")
    referee: Referee = played["referee"]
    sid, full = referee.state_id, camera.tracker.stats.full_detections
    camera.use_profile(camera.pipeline.profile)  # what the page does after a save
    reading = camera.feed(camera.sim.still())
    assert camera.tracker.stats.full_detections == full + 1  # re-read whole with the new profile
    assert reading is not None and reading.interpretation.unchanged and referee.state_id == sid


def test_a_real_frame_source_is_read_the_same_way(tmp_path: Path) -> None:
    """`--table camera --camera FOLDER`: two photos of the table, before and after a Lord is
    placed; the second is read as that move (no faces enrolled: pawns only)."""
    import cv2

    from vision.sim import StateCamera

    referee = Referee.open(EventStore(tmp_path / "r.db"), GAME, "t1", SEATS, {})
    state, rng = referee.session.state, random.Random(8)
    while state.phase != "placement":
        move = GAME.sample_chance(state, rng)
        assert referee.observe("host", codec.encode(move)).ok
        state = referee.session.state
    place = GAME.legal_moves(state)[0]
    shots = StateCamera(3, profile=MA_BOARD, place=placer("middle-ages", MA_BOARD))
    folder = tmp_path / "frames"
    folder.mkdir()
    for name, shown in (("1.png", state), ("2.png", GAME.apply_unchecked(state, place))):
        shots.show(shown)
        cv2.imwrite(str(folder / name), shots.still())
    camera = open_camera_table(referee, "camera", CameraConfig(fps=0), camera=str(folder))
    camera._run_source()  # the camera thread's loop, run here until the folder ends
    assert camera.latest_frame() is not None
    (event,) = referee.store.events(referee.row.id, referee.state_id - 1)
    assert event.source == "camera" and event.payload["move"] == codec.encode(place)


def test_a_move_read_before_the_unseen_move_it_follows_is_observed_once_that_is_in(
    tmp_path: Path,
) -> None:
    """The order of play is drawn (a move the camera cannot see) and a Lord is placed; the
    camera reads the Lord before the draw is entered: no move explains the picture, and since the
    table has its own move to enter first, nobody is asked (issue #25: the camera asks rarely).
    Once the draw is entered (the host, as on a phone), the same picture is read again and the
    Lord's placement is observed from the camera, with its frame."""
    from vision.sim import StateCamera, lay_out

    referee = Referee.open(EventStore(tmp_path / "r.db"), GAME, "t1", SEATS, {})
    recorder = Recorder()
    referee.attach(recorder)
    state, rng = referee.session.state, random.Random(1)
    while not isinstance(GAME.sample_chance(state, rng), DrawOrder):
        assert referee.observe("host", codec.encode(GAME.sample_chance(state, rng))).ok
        state = referee.session.state
    draw = GAME.sample_chance(state, rng)
    drawn = GAME.apply_unchecked(state, draw)
    lord = next(m for m in GAME.legal_moves(drawn) if isinstance(m, PlaceLord))
    shots = StateCamera(3, profile=MA_BOARD, place=placer("middle-ages", MA_BOARD))
    assert lay_out(shots.place(drawn), MA_BOARD) == lay_out(shots.place(state), MA_BOARD)
    camera = open_camera_table(referee, "camera", CameraConfig(fps=0), camera=str(_still_folder(
        tmp_path, shots, state)))  # fmt: skip
    camera._run_source()  # the starting picture, committed
    sid = referee.state_id
    shots.show(GAME.apply_unchecked(drawn, lord))
    for _ in range(camera.tracker.cfg.stable_frames + 1):
        camera.feed(shots.still())
    assert referee.state_id == sid  # nothing observed: the picture fits no move yet
    assert [n for n in recorder.notices if n.event == "question"] == []
    assert referee.observe("host", codec.encode(draw)).ok  # the draw entered, as on a phone
    reading = camera.feed(shots.still())
    assert reading is not None and reading.accepted == 1
    camera.feed(shots.still())  # read once: a still table asks nothing more
    events = referee.store.events(referee.row.id, sid)
    assert [(e.source, e.payload["move"]) for e in events] == [
        ("host", codec.encode(draw)),
        ("camera", codec.encode(lord)),
    ]
    kept = referee.store.frames(referee.row.id)
    assert [f.seq for f in kept] == [events[1].seq]
    assert [n for n in recorder.notices if n.event == "question"] == []  # never asked


def _still_folder(tmp_path: Path, shots: Any, state: Any) -> Path:
    """A folder with one picture of ``state`` (a frame source the camera table opens)."""
    import cv2

    folder = tmp_path / "frames"
    folder.mkdir()
    shots.show(state)
    cv2.imwrite(str(folder / "1.png"), shots.still())
    return folder
