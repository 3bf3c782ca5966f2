"""The host's "Your box" page in chromium (issue #24 points 1, 4, 6): the forms from the game's
schema, the live check (a value that breaks a rule refused in a sentence, fixed, then the
progress), save to the table and the box offered again, a bad box file refused on import."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import shot, watch
from srv_support import Served, serve

pytestmark = pytest.mark.slow(seconds=40)  # a long group: handed out first (tests/conftest.py)

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "pages"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    table = serve(tmp_path / "t.db", "--game", "viscounts", "--sim", "off")
    yield table
    table.stop()


def _summary(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => document.getElementById('summary').textContent.includes(t)", arg=text
    )


def test_a_host_enters_checks_saves_and_imports_a_box(
    served: Served, browser: Any, tmp_path: Path
) -> None:
    """In Polish (the English sentences are the routes' tests': tests/box/test_box_page_api.py)."""
    lang = "pl"
    errors: list[str] = []
    page = watch(browser.new_page(viewport={"width": 1400, "height": 1000}), errors)
    page.goto(f"{served.base}/box/{served.host_token}?lang={lang}")
    values = "values" if lang == "en" else "wartości"
    _summary(page, values)
    page.locator(".je-tab--top", has_text="Mieszczanie").first.click()  # the deck's tab
    count = page.locator('input[name="root[townsfolk][0][count]"]')
    count.fill("-1")
    count.press("Tab")
    refused = page.locator("#refused")
    refused.wait_for(state="visible")
    assert "townsfolk" in refused.inner_text()
    count.fill("2")
    count.press("Tab")
    refused.wait_for(state="hidden")
    _summary(page, values)
    shot(page, ARTIFACTS, f"box-viscounts-{lang}.png")
    page.fill("#name", f"Our box {lang}")
    page.click("#save")
    kept = (
        "() => [...document.querySelectorAll('#start option')]"
        ".some(o => o.value.startsWith('box:our'))"
    )
    page.wait_for_function(kept)
    bad = tmp_path / "bad.herald-box"
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    page.set_input_files("#import", str(bad))
    refused.wait_for(state="visible")
    assert refused.inner_text().strip()
    assert not errors, errors


def _board_photo(path: Path, corners: Any, villages: dict[str, tuple[float, float]]) -> Any:
    """A photo of a board: its outline where ``corners`` say, a dot per Village; returns the
    homography from board millimetres (800 × 500, the page's default) to photo pixels."""
    import cv2
    import numpy as np

    board = np.float32([[0, 0], [800, 0], [800, 500], [0, 500]])
    h = cv2.getPerspectiveTransform(board, np.float32(corners))
    photo = np.full((800, 1200, 3), (40, 60, 40), np.uint8)
    cv2.fillConvexPoly(photo, np.int32(corners), (170, 200, 220))
    for x, y in villages.values():
        u, v = cv2.perspectiveTransform(np.float32([[[x, y]]]), h)[0][0]
        cv2.circle(photo, (int(u), int(v)), 14, (30, 30, 160), -1)
    cv2.imwrite(str(path), photo)
    return h


def _click_photo(page: Any, x: float, y: float) -> None:
    """Click the tracing stage at photo pixel (x, y) (the SVG scales the 1200 × 800 photo)."""
    stage = page.locator("#trace-stage")
    stage.evaluate("s => s.scrollIntoView({block: 'center'})")  # typing may have scrolled away
    box = stage.bounding_box()
    scale = min(box["width"] / 1200, box["height"] / 800)
    left = box["x"] + (box["width"] - 1200 * scale) / 2
    top = box["y"] + (box["height"] - 800 * scale) / 2
    page.mouse.click(left + x * scale, top + y * scale)


def test_a_host_traces_france_1429s_map_on_a_photo(
    served: Served, browser: Any, tmp_path: Path
) -> None:
    """Issue #24 point 2: corners, Villages by click (a named one given its place, new ones
    added), a road between two Villages, a Fief and a Bishopric painted, one step undone;
    saved, the box's map holds what was traced, positions in board millimetres."""
    import cv2
    import numpy as np

    corners = [(100, 80), (1100, 95), (1085, 720), (115, 705)]
    places = {"Blaye": (150.0, 120.0), "Aubray": (420.0, 260.0), "Corvol": (650.0, 400.0)}
    photo = tmp_path / "board.png"
    h = _board_photo(photo, corners, places)
    errors: list[str] = []
    page = watch(browser.new_page(viewport={"width": 1400, "height": 1000}), errors)
    page.goto(f"{served.base}/box/{served.host_token}?lang=en&game=france1429&start=set:box")
    # the shipped "box" set (the map the rulebooks give: 12 named Villages without positions),
    # with France's tracing tool mounted
    page.wait_for_function(
        "() => document.getElementById('trace-photo') && document.getElementById('start')"
        ".value === 'set:box' && document.getElementById('summary').textContent"
    )
    page.locator("#trace-photo").set_input_files(str(photo))
    page.wait_for_function("() => document.getElementById('trace-stage').getAttribute('viewBox')")
    for x, y in corners:
        _click_photo(page, x, y)
    page.select_option("#trace-fief", "bourg")  # the box map's 8 Fiefs are there already
    for name, (x, y) in places.items():
        u, v = cv2.perspectiveTransform(np.float32([[[x, y]]]), h)[0][0]
        page.fill("#trace-name", name)
        _click_photo(page, float(u), float(v))
        page.wait_for_function(
            "n => document.getElementById('trace-status').textContent.includes(n)", arg=name
        )
    page.check("input[name=trace-tool][value=road]")
    for name in ("Aubray", "Corvol"):
        u, v = cv2.perspectiveTransform(np.float32([[places[name]]]), h)[0][0]
        _click_photo(page, float(u), float(v))
    page.check("input[name=trace-tool][value=fief]")
    for name in ("Aubray", "Corvol"):
        u, v = cv2.perspectiveTransform(np.float32([[places[name]]]), h)[0][0]
        _click_photo(page, float(u), float(v))
    page.check("input[name=trace-tool][value=bishopric]")
    page.select_option("#trace-bishopric", "3")
    u, v = cv2.perspectiveTransform(np.float32([[places["Corvol"]]]), h)[0][0]
    _click_photo(page, float(u), float(v))
    page.click("#trace-undo")  # Corvol's Bishopric taken back
    shot(page, ARTIFACTS, "box-trace-france1429.png")
    page.fill("#name", "Traced")
    page.click("#save")
    find = "s => [...s.options].map(o => o.value).find(v => v.startsWith('box:traced'))"
    saved = f"() => ({find})(document.getElementById('start')) || !refused.hidden"
    page.wait_for_function(saved)
    assert page.locator("#refused").is_hidden(), page.inner_text("#refused")
    kept = page.eval_on_selector("#start", find)
    assert not errors, errors
    import json as _json
    import urllib.request

    with urllib.request.urlopen(
        f"{served.base}/api/box/{served.host_token}/start/france1429?box={kept[4:]}"
    ) as reply:
        files = _json.loads(reply.read())["files"]
    traced = files[files[next(iter(f for f in files if "map" in files[f]))]["map"]]
    villages = {v["name"]: v for v in traced["villages"]}
    for name, (x, y) in places.items():
        assert abs(villages[name]["x"] - x) <= 3 and abs(villages[name]["y"] - y) <= 3, villages[
            name
        ]
    assert villages["Blaye"]["id"] == "blaye"  # the box's named Village given its place
    assert {"aubray", "corvol"} <= {v["id"] for v in traced["villages"]}
    assert ["aubray", "corvol"] in [sorted(r["between"]) for r in traced["roads"]]
    assert villages["Aubray"]["fief"] == "bourg" and villages["Corvol"]["fief"] == "bourg"
    assert villages["Corvol"]["bishopric"] != 3  # undone
