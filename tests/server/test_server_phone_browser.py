"""A phone as the table camera, for real (issue #17, part 3): Debian's chromium, its fake camera
playing a Y4M video rendered from the simulated table (``vision.sim.StateCamera``), opens the
phone-camera page; the page streams the frames to the referee, which reads the moves off them,
a whole game from its setup to ``over``.

The game is France 1429 at its shortest: three families (its fewest) and its ``max_rounds``
option at 1 (the game ends after the first round; a simulated table's setting). Its moves are
planned once per module (seeded, the referee's auto-passes played as the referee plays them),
each classed by what the table shows:

- ``camera``: the pieces change and a perfect reader of the picture names the move; it must be
  read off the phone's frames, source ``camera``, with its frame kept (the audit trail);
- ``asked``: the pieces change but another move leaves the same table (a stack that came by
  one of two roads): the camera asks, and the test confirms as the seat's phone does;
- ``phone``: nothing on the table changes (a card drawn, a Lord dealt, a vote, "done"): the
  test enters it through the referee as the seat's phone (or the host display) does, the
  moment the referee's position reaches it;
- ``auto``: a pass the referee plays itself.

Only the moves that change the table are filmed. The referee runs in-process with a
``PhoneSource`` behind the camera table, served on a real HTTP port; Playwright drives the page.
Every wait is for a condition, with generous bounds (the machine is shared).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import cv2
import numpy as np
import pytest
from browser_support import FAKE_CAMERA, needs_chromium, watch
from cal_support import served
from srv_support import open_referee

from bridge import autopass
from bridge.camera import (
    CameraConfig,
    CameraTable,
    TableReader,
    _common_prefix,
    _pipeline,
    load_board_profile,
    profile_seats,
)
from bridge.game_files import face_map_path, placer
from bridge.referee import LOG_TAIL, Notice, Principal, Referee, Update
from bridge.store import open_store
from bridge.web.app import WebConfig, WebTable
from engine import codec, get_game
from vision.calibration import BoardProfile
from vision.faces import face_map_for
from vision.sim import StateCamera, lay_out
from vision.sources import PhoneSource

GAME = "france1429"
PLAYERS = 3
OPTIONS = {"data": "stand-in", "max_rounds": 1}
SEED = 2
VIDEO_FPS = 4
PAGE_FPS = VIDEO_FPS
"""The page is asked for the video's rate (a faster page only loads the shared machine)."""
HOLD = 12
"""Still frames after each filmed move (3 s). The video plays on whatever the referee does, so
each position must stay in view until it is read: the tracker commits after 3 still frames
(about 1 s), and reading the move (0.2-0.5 s on a quiet machine) must be done before the next
hand comes; a reading the video outruns sees two moves at once and asks instead. 3 s leaves the
reading about ten times its quiet-machine time."""
START_HOLD = 2 * HOLD
"""The starting position: the first reading is a whole-frame detection, the slowest."""
TAIL = 2 * HOLD
"""The last position, held before chromium plays the file again from the start (back at the
start the table fits no move: the referee asks, it never takes a move back)."""
WAIT_S = 600.0
"""Upper bound for the whole game (it takes well under a minute of video)."""

pytestmark = [
    needs_chromium,
    pytest.mark.slow(seconds=95),  # the video plays in real time: started first, it waits beside
    pytest.mark.timeout(900),  # rendering the video and reading it share 2 cores with the suite
]


@dataclass(frozen=True)
class Step:
    """One planned move and how the referee is to learn it (see the module's docstring)."""

    move: Any
    how: str


@dataclass(frozen=True)
class Filmed:
    """The table's referee at its setup, the planned game and the video of it."""

    referee: Referee
    steps: tuple[Step, ...]
    video: Path
    frames: int


class Y4M:
    """A YUV4MPEG2 file, 4:2:0, written frame by frame: what chromium's fake camera plays."""

    def __init__(self, out: BinaryIO, size: tuple[int, int], fps: int) -> None:
        w, h = size
        out.write(f"YUV4MPEG2 W{w} H{h} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        self.out = out
        self.frames = 0

    def write(self, image: np.ndarray, times: int = 1) -> None:
        data = b"FRAME\n" + cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420).tobytes()
        for _ in range(times):
            self.out.write(data)
        self.frames += times


def plan(referee: Referee, profile: BoardProfile, seed: int) -> list[Step]:
    """A seeded whole game from the referee's position (sampled chance moves, random legal seat
    moves), each move classed by what the table shows; after each, the passes the referee plays
    itself (``bridge.autopass``), as it plays them."""
    game = referee.game
    place = placer(game.info.key, profile)
    faces = face_map_for(face_map_path(game.info.key), None)
    # what the camera table declares it reads (``TableReader.observations``): every sticker kind,
    # and tiles when faces are known
    kinds = {label.partition(":")[0] for label in profile.markers.values()}
    if len(faces):
        kinds.add("tile")
    coverage = {"component": "coverage", "attrs": {"kinds": sorted(kinds)}}
    rng = random.Random(seed)
    state = referee.session.state
    shown = lay_out(place(state), profile)[0]
    steps: list[Step] = []
    while not game.is_over(state):
        assert len(steps) < 2000, "the planned game does not end"
        move = game.sample_chance(state, rng)
        if move is None:
            moves = game.legal_moves(state)
            move = moves[rng.randrange(len(moves))]
        after = game.apply_unchecked(state, move)
        layout, truth = lay_out(place(after), profile)
        how = "phone"
        if layout != shown:
            read = {o.get("region") for o in truth if o["component"] == "tile"}
            unread = [{"component": "unread", "region": r.name, "attrs": {"kind": "tile"}}
                      for r in profile.regions if r.name not in read]  # fmt: skip
            result = game.interpret(state, [*truth, coverage, *unread])
            named = result.moves or _common_prefix(result)
            how = "camera" if named[:1] == (move,) else "asked"
        steps.append(Step(move, how))
        state, shown = after, layout
        for _ in range(autopass.MAX_CHAIN):
            passed = autopass.forced_pass(game, state)
            if passed is None:
                break
            state = game.apply_unchecked(state, passed)
            steps.append(Step(passed, "auto"))
    return steps


def film(referee: Referee, steps: list[Step], profile: BoardProfile, path: Path) -> int:
    """The video of the planned game: the starting position, then each move that changes the
    table (a hand reaching in, the pieces changing under it, the hand leaving) and its still
    table. Returns the number of frames."""
    game = referee.game
    cam = StateCamera(SEED, size=(1280, 720), profile=profile, place=placer(GAME, profile))
    np_rng = np.random.default_rng(SEED)
    state = referee.session.state
    cam.show(state)
    with path.open("wb") as out:
        video = Y4M(out, cam.size, VIDEO_FPS)
        video.write(cam.still(), START_HOLD)
        for step in steps:
            state = game.apply_unchecked(state, step.move)
            if step.how in ("camera", "asked"):
                for frame in cam.move_frames(state, np_rng):
                    video.write(frame.image)
                video.write(cam.still(), HOLD)
        video.write(cam.still(), TAIL)
    return video.frames


@pytest.fixture(scope="module")
def filmed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Filmed]:
    """The referee at the game's setup, its game planned and filmed once for the module."""
    folder = tmp_path_factory.mktemp("phone")
    profile, _ = load_board_profile(GAME, None)
    seats = profile_seats(profile)[:PLAYERS]
    referee = Referee.open(open_store(folder / "t.db"), get_game(GAME), "t1", seats, OPTIONS)
    steps = plan(referee, profile, SEED)
    video = folder / "table.y4m"
    frames = film(referee, steps, profile, video)
    yield Filmed(referee, tuple(steps), video, frames)
    video.unlink()  # a few hundred MB of raw frames


def phone_table(referee: Any) -> CameraTable:
    """The camera table of ``herald serve --camera phone``, with the stand-in faces the simulated
    table draws (a real table names its enrolled ``--library``)."""
    key = referee.game.info.key
    profile, _ = load_board_profile(key, None)
    faces = face_map_for(face_map_path(key), None)
    pipeline = _pipeline(profile, None, faces)
    config = CameraConfig(mode="off", fps=PAGE_FPS)
    reader = TableReader(referee, profile, faces, config.min_confidence, pipeline.slots is not None)
    return CameraTable(referee, pipeline, reader, config, source=PhoneSource(fps=PAGE_FPS))


class Asked:
    """A transport keeping the positions at which the camera asked the table a question, and
    waking the test on every update and question."""

    def __init__(self) -> None:
        self.at: set[int] = set()
        self.changed = threading.Event()

    def publish(self, update: Update) -> None:
        self.changed.set()

    def notice(self, notice: Notice) -> None:
        if notice.event == "question" and notice.seat is None and notice.payload["open"]:
            self.at.add(int(notice.payload["state_id"]))
        self.changed.set()


def enter(referee: Referee, step: Step, state_id: int) -> None:
    """``step``'s move as the seat's phone (or, for the table's own moves, the host display)
    sends it; a position that moved on meanwhile (the camera read a move) refuses it as stale."""
    actor = referee.game.actor(step.move)
    who = Principal("seat", actor) if actor in referee.seats else Principal("host")
    body = {"state_id": state_id, "kind": "move", "move": codec.encode(step.move)}
    outcome = referee.intent(who, body)
    assert outcome.ok or outcome.code == "state/stale", outcome.to_json()


def play_along(referee: Referee, steps: tuple[Step, ...], asked: Asked) -> list[int]:
    """Until the game is over: enter each move the table does not show as the referee reaches
    it, and each move the camera asked about once it has asked; wait for the camera otherwise.
    Returns the positions of planned camera moves the camera asked about instead of reading."""
    missed: list[int] = []
    deadline = time.monotonic() + WAIT_S
    while not referee.is_over():
        asked.changed.clear()
        at = referee.state_id
        assert time.monotonic() < deadline, f"position {at} of {len(steps)} after {WAIT_S} s"
        step = steps[at]
        # a table move the camera cannot name is not asked about: the host enters it (bridge.camera)
        table_move = step.how == "asked" and referee.game.actor(step.move) not in referee.seats
        if (
            step.how == "phone"
            or table_move
            or (step.how in ("camera", "asked") and at in asked.at)
        ):
            if step.how == "camera":
                missed.append(at)
            enter(referee, step, at)
        else:
            asked.changed.wait(1.0)  # woken by the referee's next update or question
    return missed


def test_a_phone_page_streams_a_whole_game_and_the_referee_reads_every_move_it_shows(
    launch_chromium: Callable[..., Any], filmed: Filmed
) -> None:
    from playwright.sync_api import expect

    referee, steps = filmed.referee, filmed.steps
    camera = phone_table(referee)
    asked = Asked()
    referee.attach(asked)
    web = WebTable(referee, WebConfig(), camera=camera)
    host = referee.row.tokens.host
    errors: list[str] = []
    started = time.monotonic()
    camera.start()
    try:
        with served(web) as base:
            camera_file = f"--use-file-for-fake-video-capture={filmed.video}"
            browser = launch_chromium(*FAKE_CAMERA, camera_file)
            try:
                page = browser.new_page(viewport={"width": 420, "height": 860})
                watch(page, errors)
                page.goto(f"{base}/phone/{host}")
                expect(page.locator("body")).to_have_attribute("data-ready", "true")
                expect(page.locator("#start")).to_have_text("Start the camera")
                page.click("#start")
                expect(page.locator("body")).to_have_attribute("data-streaming", "true")
                missed = play_along(referee, steps, asked)
                played_s = time.monotonic() - started
                source = camera.source
                assert isinstance(source, PhoneSource)
                # the host's table display shows the camera link on each move the camera read
                # (of the log's tail it shows)
                events = referee.store.events(referee.row.id)
                shown = sum(e.source == "camera" for e in events[-LOG_TAIL:])
                table = browser.new_page(viewport={"width": 1200, "height": 900})
                table.goto(f"{base}/host/{host}")
                links = table.locator("#log a.frame-link")
                expect(links).to_have_count(shown, timeout=30_000)
                last = max(e.seq for e in events if e.source == "camera")
                href = (
                    links.first.get_attribute("href") if shown else f"/api/frames/{host}/{last}.jpg"
                )
                got = table.request.get(f"{base}{href}")
                assert got.status == 200 and got.headers["content-type"] == "image/jpeg"
                # the calibration page captures the phone's picture like any camera's
                shot = table.request.post(f"{base}/api/calibrate/{host}/capture", data={})
                assert shot.status == 200, shot.text()
                assert len(shot.json()["markers"]) >= 4
            finally:
                browser.close()  # before its server stops
    finally:
        camera.stop()
    assert not errors, errors
    counts = {how: sum(s.how == how for s in steps) for how in ("camera", "asked", "phone")}
    print(f"\nwhole game: {len(steps)} moves {counts}, {filmed.frames} video frames, "
          f"{source.frames} phone frames, {camera.stats.commits} commits, "
          f"over after {played_s:.0f} s")  # fmt: skip
    assert not missed, [(at, steps[at].move) for at in missed]
    assert referee.is_over() and referee.store.session(referee.row.id).status == "over"
    # the referee holds exactly the planned game, each move learnt the planned way
    assert [e.payload["move"] for e in events] == [codec.encode(s.move) for s in steps]
    for event, step in zip(events, steps, strict=True):
        actor = referee.game.actor(step.move)
        entered = f"seat:{actor}" if actor in referee.seats else "host"
        want = {"camera": "camera", "auto": "auto"}.get(step.how, entered)
        assert event.source == want, (event.seq, step, event.source)
    # every camera move keeps the frame that showed it, its changes outlined
    read = [e.seq for e in events if e.source == "camera"]
    assert len(read) == counts["camera"] > 0
    kept = referee.store.frames(referee.row.id)
    assert [f.seq for f in kept] == read and all(f.meta["boxes"] for f in kept)


def test_a_refused_camera_is_said_in_words(
    launch_chromium: Callable[..., Any], tmp_path: Path
) -> None:
    """No permission (no fake consent UI, no grant): the page says how to allow the camera."""
    from types import SimpleNamespace

    from playwright.sync_api import expect

    referee = open_referee(tmp_path / "t.db")
    camera = SimpleNamespace(source=PhoneSource(fps=2), profile_path=None)
    web = WebTable(referee, WebConfig(), camera=camera)
    denied = [a for a in FAKE_CAMERA if a != "--use-fake-ui-for-media-stream"]
    with served(web) as base:
        browser = launch_chromium(*denied)
        try:
            context = browser.new_context(permissions=[])
            page = context.new_page()
            page.goto(f"{base}/phone/{referee.row.tokens.host}?lang=pl")
            expect(page.locator("body")).to_have_attribute("data-ready", "true")
            page.click("#start")
            expect(page.locator("#problem")).to_be_visible(timeout=30_000)
            expect(page.locator("#problem")).to_contain_text("Odmówiono dostępu do kamery")
            expect(page.locator("body")).not_to_have_attribute("data-streaming", "true")
        finally:
            browser.close()
    assert camera.source.frames == 0
