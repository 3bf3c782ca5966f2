"""Issue #24's first scenario, in chromium: a scripted user traces a France 1429 map from a photo,
saves it to the table, starts a game on it from the New game form, and the simulated camera reads
the moves on that traced board (point 2: "the same clicks make the camera's board profile for
that board: no second calibration").

The photo is drawn by the simulated board renderer (``vision.sim``) from the board profile of the
invented map's places (tests/box/traced.py), through a camera with a slight perspective, so the
test knows where every corner and Village lies in the picture. The user's steps are
``traced.script``, the same steps ``python -m bench.box_entry`` counts. One served table, one
browser; every step waits for what the page says it did."""

from __future__ import annotations

import json
import signal
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from browser_fixtures import browser, playwright  # noqa: F401 (fixtures)
from browser_support import shot, watch
from srv_support import WAIT, Served, serve

from bridge.camera import SOURCE as CAMERA
from bridge.store import EventStore
from engine.games.france1429.geography import parse_map
from engine.games.france1429.layout import board_profile
from vision.calibration import BoardProfile
from vision.markers import usable_ids
from vision.scenes import random_camera
from vision.sim import STATE_CAMERA, render_placed

from .traced import Step, script, traced_map

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "pages"
PHOTO_SIZE = (1280, 720)
PLAYED_S = 300.0  # an upper bound for a loaded machine: vision on every frame is CPU-bound


def board_photo(path: Path, doc: dict[str, Any]) -> Any:
    """The printed board of map ``doc`` photographed by the simulated camera (its Villages'
    squares printed where the map places them, the corner stickers in the corners): returns
    the homography from board millimetres to photo pixels."""
    import cv2

    profile = BoardProfile.from_json(board_profile(parse_map(doc), usable_ids("4x4_250")))
    camera = random_camera(np.random.default_rng(7), STATE_CAMERA, PHOTO_SIZE)
    scene = render_placed([], seed=7, profile=profile, camera=camera)
    cv2.imwrite(str(path), scene.image)
    return camera.homography


def click_photo(page: Any, homography: Any, at: tuple[float, float]) -> None:
    """Click the tracing stage where board point ``at`` (mm) lies in the photo."""
    import cv2

    u, v = cv2.perspectiveTransform(np.float64([[at]]), homography)[0][0]
    stage = page.locator("#trace-stage")
    stage.evaluate("s => s.scrollIntoView({block: 'center'})")
    box = stage.bounding_box()
    w, h = PHOTO_SIZE
    scale = min(box["width"] / w, box["height"] / h)
    left = box["x"] + (box["width"] - w * scale) / 2
    top = box["y"] + (box["height"] - h * scale) / 2
    page.mouse.click(left + u * scale, top + v * scale)


def play(page: Any, homography: Any, step: Step) -> None:
    """One step of the scripted user, waiting until the tool says it is done."""
    if step.kind == "type":
        page.fill(step.target, step.text)
    elif step.kind == "choose" and step.target.startswith("input"):
        page.check(step.target)
    elif step.kind == "choose":
        page.select_option(step.target, step.text)
    elif step.kind == "click":
        page.click(step.target)
    else:
        click_photo(page, homography, step.at)
    if step.then:
        page.wait_for_function(
            "n => document.getElementById('trace-status').textContent.includes(n)", arg=step.then
        )


def too_close(page: Any, homography: Any, doc: dict[str, Any]) -> None:
    """A Village placed again (its name typed, a new spot clicked) so near its neighbour that
    the camera's squares overlap: drawn red over the photo, refused by the check naming both
    Villages; Undo puts it back."""
    moved, neighbour = doc["villages"][6], doc["villages"][7]
    page.check("input[name=trace-tool][value=village]")
    page.fill("#trace-name", moved["name"])
    click_photo(page, homography, (moved["x"] + 40, moved["y"]))
    # the live check answers the newest draft last: a refusal of an earlier step (the map before
    # its Fiefs) may still show while a loaded machine checks the steps after it
    try:
        page.wait_for_function(
            "() => !document.getElementById('refused').hidden"
            " && document.getElementById('refused').textContent.includes('overlap')"
        )
    except Exception as exc:  # the refusal shown instead says why
        raise AssertionError(page.inner_text("#refused")) from exc
    text = page.inner_text("#refused")
    assert "overlap" in text and moved["name"] in text and neighbour["name"] in text, text
    assert page.locator("#trace-stage .trace-clash").count() == 2
    page.click("#trace-undo")
    page.locator("#refused").wait_for(state="hidden")
    assert page.locator("#trace-stage .trace-clash").count() == 0


def start_on_box(page: Any, served: Served, box: str) -> None:
    """The host's New game form: France 1429 on the kept box, three seats; sent again while
    the simulated table's moves make it stale."""
    from playwright.sync_api import expect

    page.goto(f"{served.host_url}?lang=en")
    page.locator("#host-start").click()
    expect(page.locator("#setup-box")).to_be_visible(timeout=WAIT * 1000)
    page.select_option("#setup-game", "france1429")
    page.select_option("select[data-option=data]", json.dumps(box))
    for _ in range(30):
        page.locator("#setup-start").click()
        try:
            expect(page.locator("#setup-box")).to_be_hidden(timeout=3000)
            return
        except AssertionError:
            continue
    raise AssertionError("the New game form did not start France 1429 on the box")


@pytest.mark.slow(seconds=70)  # with its served camera table: among the first groups
@pytest.mark.timeout(900)
def test_a_map_traced_on_a_photo_is_played_under_the_simulated_camera(
    browser: Any,  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    doc = traced_map()
    photo = tmp_path / "board.png"
    homography = board_photo(photo, doc)
    db = tmp_path / "t.db"
    # the table plays the stand-in France 1429 by the camera meanwhile, slowly: the game on the
    # traced box is the same game with the same seats, so only the box tells the boards apart
    served = serve(db, "--game", "france1429", "--players", "3", "--move-delay", "1.0",
                   "--camera-fps", "8", "--virtual-devices", "off", "--restart-after", "0",
                   table="camera-sim")  # fmt: skip
    errors: list[str] = []
    try:
        page = watch(browser.new_page(viewport={"width": 1400, "height": 1000}), errors)
        page.goto(f"{served.base}/box/{served.host_token}?lang=en&game=france1429"
                  "&start=set:stand-in")  # fmt: skip
        page.wait_for_function(
            "() => document.getElementById('trace-photo') && document.getElementById('start')"
            ".value === 'set:stand-in' && document.getElementById('summary').textContent"
        )
        page.locator("#trace-photo").set_input_files(str(photo))
        page.wait_for_function(
            "() => document.getElementById('trace-stage').getAttribute('viewBox')"
        )
        steps = script(doc)
        corners = [i for i, step in enumerate(steps) if step.kind == "place"][:4]
        for step in steps[: corners[-1] + 1]:
            play(page, homography, step)
        # a corner click is a step Undo takes back like any other
        page.click("#trace-undo")
        page.wait_for_function("() => document.getElementById('trace-status').textContent"
                               ".includes('taken back')")  # fmt: skip
        play(page, homography, steps[corners[-1]])
        for step in steps[corners[-1] + 1 : -1]:
            play(page, homography, step)
        too_close(page, homography, doc)
        play(page, homography, steps[-1])  # the map is whole
        # the map is whole and good: the check's summary, no refusal
        page.wait_for_function(
            "() => document.getElementById('status').textContent.length"
            " && document.getElementById('refused').hidden"
            " && document.getElementById('summary').textContent.includes('playable with')"
        )
        shot(page, ARTIFACTS, "box-trace-whole-france1429.png")
        page.fill("#name", "Traced")
        page.click("#save")
        find = "s => [...s.options].map(o => o.value).find(v => v.startsWith('box:traced'))"
        page.wait_for_function(
            f"() => ({find})(document.getElementById('start'))"
            " || !document.getElementById('refused').hidden"
        )
        assert page.locator("#refused").is_hidden(), page.inner_text("#refused")
        kept = page.eval_on_selector("#start", find)
        assert not errors, errors

        before = served.health()["session"]
        start_on_box(page, served, kept)
        deadline = time.monotonic() + PLAYED_S
        read = 0
        while read < 3:  # three moves of the new game read by the camera
            if time.monotonic() > deadline:
                health = served.health()
                served.stop(signal.SIGTERM)
                raise AssertionError(f"stalled: {health}\n{served.log[-6000:]}")
            time.sleep(1.0)  # polling the store while the simulated table plays
            session = served.health()["session"]
            if session == before:
                continue
            store = EventStore(db)
            try:
                read = sum(e.source == CAMERA for e in store.events(session))
            finally:
                store.close()
    finally:
        served.stop(signal.SIGTERM)
    assert "Traceback" not in served.log, served.log[-3000:]

    # what the referee recorded: a France 1429 game on the kept box, its moves read by the camera
    store = EventStore(db)
    try:
        row = store.session(session)
        assert row is not None and row.header.game == "france1429"
        assert row.header.options["data"].endswith(kept[len("box:") :])
        moves = [e.payload["move"] for e in store.events(session) if e.source == CAMERA]
        assert len(moves) >= 3
        # the first moves read are the seats' starting Villages (§4.11), each a Village of the
        # traced map
        places = [m["village"] for m in moves if m["kind"] == "place-start"]
        assert places and set(places) <= {v["id"] for v in doc["villages"]}, moves
    finally:
        store.close()
    # ... read on the board as traced: the profile the camera was given is the traced one
    profiles = list(Path(f"{db}.boxes").glob(".profile-*.json"))
    assert len(profiles) == 1
    profile = json.loads(profiles[0].read_text(encoding="utf-8"))
    assert profile["name"].startswith("france1429 traced")
    assert (profile["width_mm"], profile["height_mm"]) == (
        doc["board"]["width_mm"],
        doc["board"]["height_mm"],
    )
    centres = {
        r["name"].removeprefix("village:"): (r["rect"][0] + r["rect"][2] / 2,
                                             r["rect"][1] + r["rect"][3] / 2)
        for r in profile["regions"] if r["name"].startswith("village:")
    }  # fmt: skip
    for v in doc["villages"]:  # every Village within 3 mm of where the photo shows it
        x, y = centres[v["id"]]
        assert abs(x - v["x"]) <= 3 and abs(y - v["y"]) <= 3, (v["name"], x, y)
