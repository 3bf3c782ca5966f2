"""A phone as the table camera, for real (issue #17, part 3): Debian's chromium, its fake camera
playing a Y4M video rendered from the simulated table (``vision.sim.StateCamera``), opens the
phone-camera page; the page streams the frames to the referee, which reads the moves off them.

The referee runs in-process with a ``PhoneSource`` behind the camera table, served on a real
HTTP port; Playwright drives the page. Every wait is for a condition.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from cal_support import served
from srv_support import open_referee

from bridge.camera import CameraConfig, CameraTable, TableReader, _pipeline, load_board_profile
from bridge.game_files import face_map_path, placer
from bridge.web.app import WebConfig, WebTable
from vision.faces import face_map_for
from vision.sim import StateCamera
from vision.sources import PhoneSource

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]  # fmt: skip
VIDEO_FPS = 4
HOLD = 14
"""Still frames of each position in the video (3.5 s: the tracker commits after 3 settled ones)."""
MOVES = 3
WAIT_S = 240.0

pytestmark = [
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM),
        reason="Debian's chromium is not installed (make system-deps installs it as root)",
    ),
    pytest.mark.slow,
    pytest.mark.timeout(600),  # rendering the video and reading it share 2 cores with the suite
]


def write_y4m(path: Path, frames: list[np.ndarray], fps: int) -> None:
    """Frames (BGR) as a YUV4MPEG2 file, 4:2:0: what chromium's fake camera plays."""
    h, w = frames[0].shape[:2]
    with path.open("wb") as out:
        out.write(f"YUV4MPEG2 W{w} H{h} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for img in frames:
            out.write(b"FRAME\n")
            out.write(cv2.cvtColor(img, cv2.COLOR_BGR2YUV_I420).tobytes())


def film(referee: Any, moves: int, seed: int = 3) -> tuple[list[np.ndarray], list[Any]]:
    """The simulated table from the referee's position through ``moves`` chance moves (the
    starting rows laid out), each followed by ``HOLD`` still frames."""
    game = referee.game
    profile, _ = load_board_profile(game.info.key, None)
    cam = StateCamera(seed, size=(1280, 720), profile=profile, place=placer(game.info.key, profile))
    rng, np_rng = random.Random(seed), np.random.default_rng(seed)
    state = referee.session.state
    cam.show(state)
    frames = [cam.still() for _ in range(HOLD)]
    made = []
    for _ in range(moves):
        move = game.sample_chance(state, rng)
        assert move is not None
        state = game.apply_unchecked(state, move)
        made.append(move)
        frames += [f.image for f in cam.move_frames(state, np_rng)]
        frames += [cam.still() for _ in range(HOLD)]
    # the last position once more before chromium loops the file (back at the start, the table
    # fits no move: the referee asks, it never takes a move back)
    frames += [cam.still() for _ in range(HOLD)]
    return frames, made


def phone_table(referee: Any) -> CameraTable:
    """The camera table of ``herald serve --camera phone``, with the stand-in faces the simulated
    table draws (a real table names its enrolled ``--library``)."""
    key = referee.game.info.key
    profile, _ = load_board_profile(key, None)
    faces = face_map_for(face_map_path(key), None)
    pipeline = _pipeline(profile, None, faces)
    config = CameraConfig(mode="off", fps=VIDEO_FPS)
    reader = TableReader(referee, profile, faces, config.min_confidence, pipeline.slots is not None)
    return CameraTable(referee, pipeline, reader, config, source=PhoneSource(fps=VIDEO_FPS))


def test_a_phone_page_streams_the_table_and_the_referee_reads_the_moves(tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    referee = open_referee(tmp_path / "t.db")
    frames, made = film(referee, MOVES)
    video = tmp_path / "table.y4m"
    write_y4m(video, frames, VIDEO_FPS)
    camera = phone_table(referee)
    web = WebTable(referee, WebConfig(), camera=camera)
    host = referee.row.tokens.host
    errors: list[str] = []
    camera.start()
    try:
        with served(web) as base, sync_playwright() as p:
            args = [*ARGS, f"--use-file-for-fake-video-capture={video}"]
            browser = p.chromium.launch(executable_path=CHROMIUM, args=args)
            try:
                page = browser.new_page(viewport={"width": 420, "height": 860})
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(f"{base}/phone/{host}")
                expect(page.locator("body")).to_have_attribute("data-ready", "true")
                expect(page.locator("#start")).to_have_text("Start the camera")
                page.click("#start")
                expect(page.locator("body")).to_have_attribute("data-streaming", "true")
                deadline = time.monotonic() + WAIT_S
                while referee.state_id < MOVES and time.monotonic() < deadline:
                    page.wait_for_timeout(250)  # the browser runs on; this is a poll, not a guess
                source = camera.source
                assert isinstance(source, PhoneSource)
                assert referee.state_id >= MOVES, (
                    f"state_id {referee.state_id} after {source.frames} phone frames, "
                    f"{camera.stats.commits} commits"
                )
                assert source.frames >= 3 * (MOVES + 1)
                # the host's table display shows the camera link on each move the camera read
                table = browser.new_page(viewport={"width": 1200, "height": 900})
                table.goto(f"{base}/host/{host}")
                links = table.locator("#log a.frame-link")
                expect(links).to_have_count(MOVES, timeout=30_000)
                href = links.first.get_attribute("href")
                got = table.request.get(f"{base}{href}")
                assert got.status == 200 and got.headers["content-type"] == "image/jpeg"
                # the calibration page captures the phone's picture like any camera's
                shot = table.request.post(f"{base}/api/calibrate/{host}/capture", data={})
                assert shot.status == 200, shot.text()
                assert len(shot.json()["markers"]) >= 4
            finally:
                browser.close()
    finally:
        camera.stop()
    assert not errors, errors
    stored = referee.store.events(referee.row.id)
    from engine import codec

    assert [e.payload["move"] for e in stored[:MOVES]] == [codec.encode(m) for m in made]
    assert {e.source for e in stored[:MOVES]} == {"camera"}
    kept = referee.store.frames(referee.row.id)
    assert [f.seq for f in kept][:MOVES] == [1, 2, 3] and all(f.meta["boxes"] for f in kept)


def test_a_refused_camera_is_said_in_words(tmp_path: Path) -> None:
    """No permission (no fake consent UI, no grant): the page says how to allow the camera."""
    from types import SimpleNamespace

    from playwright.sync_api import expect, sync_playwright

    referee = open_referee(tmp_path / "t.db")
    camera = SimpleNamespace(source=PhoneSource(fps=2), profile_path=None)
    web = WebTable(referee, WebConfig(), camera=camera)
    denied = [a for a in ARGS if a != "--use-fake-ui-for-media-stream"]
    with served(web) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=denied)
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
