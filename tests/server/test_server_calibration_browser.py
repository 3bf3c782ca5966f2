"""The calibration page in Debian's chromium, driven by Playwright, over a rendered table frame.

The page is served in-process (the fake camera is a Python object), on a real HTTP port.
Screenshots for a person to look at go to ``artifacts/server/`` (git-ignored).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from browser_fixtures import Tabs
from browser_support import SERVER_SHOTS, needs_chromium, shot, watch
from cal_support import FakeCamera, rendered_table, served
from srv_support import open_referee

from bridge.web.app import WebConfig, WebTable
from vision.calibration import load_profile

WAIT_MS = 30_000
BOARD_MM = [(0.0, 0.0), (560.0, 0.0), (560.0, 380.0), (0.0, 380.0)]

pytestmark = needs_chromium


def _on_screen(page: Any, selector: str, box_units: tuple[float, float, float, float]) -> Any:
    """A function from the SVG's own units (its viewBox) to page coordinates."""
    page.locator(selector).scroll_into_view_if_needed()
    box = page.locator(selector).bounding_box()
    x0, y0, w, h = box_units
    sx, sy = box["width"] / w, box["height"] / h

    def to_page(x: float, y: float) -> tuple[float, float]:
        return box["x"] + (x - x0) * sx, box["y"] + (y - y0) * sy

    return to_page


def test_click_the_corners_draw_a_region_save_and_check(browser: Tabs, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    truth = rendered_table()
    referee = open_referee(tmp_path / "t.db")
    camera = FakeCamera(truth.image, tmp_path / "board.json")
    web = WebTable(referee, WebConfig(), camera=camera)
    errors: list[str] = []
    try:
        with served(web) as base:
            page = watch(browser.new_page(viewport={"width": 1400, "height": 1000}), errors)
            page.goto(f"{base}/calibrate/{referee.row.tokens.host}")
            expect(page.locator("body")).to_have_attribute("data-ready", "true")
            expect(page.locator("#regions li")).to_have_count(len(truth.profile.regions))

            # capture: the corner markers are found and shown, and set the corners
            page.click("#capture")
            corner_marks = page.locator("#frame-layer .marker.corner")
            expect(corner_marks).to_have_count(4, timeout=WAIT_MS)
            expect(page.locator("#frame-status")).to_contain_text("0, 1, 2, 3")
            expect(page.locator("#frame-layer .corner-handle")).to_have_count(4)

            # start over and click the board's own corners instead
            page.click("#clear-corners")
            expect(page.locator("#frame-layer .corner-handle")).to_have_count(0)
            expect(page.locator("#board-image")).to_have_attribute("visibility", "hidden")
            frame = _on_screen(page, "#frame", (0, 0, 1920, 1080))
            for n, (x, y) in enumerate(truth.to_image(BOARD_MM), start=1):
                page.mouse.click(*frame(x, y))
                expect(page.locator("#frame-layer .corner-handle")).to_have_count(n)
            expect(page.locator("#board-image")).to_have_attribute(
                "href", re.compile(r"/board\.jpg\?v=\d+$"), timeout=WAIT_MS
            )
            expect(page.locator("#measured li")).to_have_count(4)
            shot(page, SERVER_SHOTS, "calibrate-corners.png")

            # remove row 1, slot 1 and draw it again on the top-down board
            slot = page.locator('#regions li[data-name="row:1/slot:1"]')
            slot.locator("button").click()
            page.click("#f-delete")
            expect(slot).to_have_class(re.compile("missing"))
            view = page.evaluate("window.heraldCalibrate.state().view")
            (ox, oy), (vw, vh) = view["origin_mm"], view["size_mm"]
            board = _on_screen(page, "#board", (ox, oy, vw, vh))
            page.mouse.move(*board(72, 53))
            page.mouse.down()
            page.mouse.move(*board(95, 75), steps=4)
            page.mouse.move(*board(118, 98), steps=4)
            page.mouse.up()
            expect(slot).to_have_class(re.compile("placed"))
            expect(page.locator('#board-layer [data-name="row:1/slot:1"]')).to_have_count(1)
            expect(page.locator("#save-status")).to_contain_text("Unsaved")
            shot(page, SERVER_SHOTS, "calibrate-region.png")

            # save: the file is written and checked on a fresh frame
            page.click("#save")
            expect(page.locator("#save-status")).to_contain_text("Saved", timeout=WAIT_MS)
            expect(page.locator("#check-status")).to_have_attribute(
                "data-found", "true", timeout=WAIT_MS
            )
            expect(page.locator("#overlay-layer .overlay-region")).to_have_count(
                len(truth.profile.regions)
            )
            page.locator("#check-card").scroll_into_view_if_needed()
            shot(page, SERVER_SHOTS, "calibrate.png")
            page.close()  # before its server stops, as a person would
    finally:
        referee.store.close()
    assert errors == []
    saved = load_profile(tmp_path / "board.json")
    rects = {r.name: r.rect for r in saved.regions}
    assert set(rects) == {r.name for r in truth.profile.regions}
    x, y, w, h = rects["row:1/slot:1"]
    assert math.dist((x, y), (72, 53)) < 1.5 and math.dist((x + w, y + h), (118, 98)) < 1.5
    for got, want in zip(saved.corner_centers_mm, truth.profile.corner_centers_mm, strict=True):
        assert math.dist(got, want) < 2.5
    assert camera.used == [saved]
