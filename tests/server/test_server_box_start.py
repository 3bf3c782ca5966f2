"""Issue #24 point 5 in chromium: the host uploads a Tabletop Simulator save packed with its
pictures on the "Your box" page; France 1429's tracing tool shows the save's board picture with
its corners at the picture's corners, offers the save's names when naming a Village, and a
Village placed on the picture lands at its board millimetres in the saved box."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import shot, watch
from srv_support import Served, serve

from tests.box import start_files as F

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "pages"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    table = serve(tmp_path / "t.db", "--game", "france1429", "--sim", "off")
    yield table
    table.stop()


def _click_picture(page: Any, x: float, y: float) -> None:
    """Click the tracing stage at picture pixel (x, y) of the 1600 × 1000 board picture."""
    stage = page.locator("#trace-stage")
    stage.evaluate("s => s.scrollIntoView({block: 'center'})")
    box = stage.bounding_box()
    width, height = F.BOARD_SIZE
    scale = min(box["width"] / width, box["height"] / height)
    left = box["x"] + (box["width"] - width * scale) / 2
    top = box["y"] + (box["height"] - height * scale) / 2
    page.mouse.click(left + x * scale, top + y * scale)


def test_a_host_starts_tracing_from_a_tts_save(
    served: Served, browser: Any, tmp_path: Path
) -> None:
    save = tmp_path / "ours.ttsmod"
    save.write_bytes(F.ttsmod())
    errors: list[str] = []
    page = watch(browser.new_page(viewport={"width": 1400, "height": 1000}), errors)
    page.goto(f"{served.base}/box/{served.host_token}?lang=en&game=france1429&start=set:box")
    page.wait_for_function(
        "() => document.getElementById('trace-photo') && document.getElementById('start-file')"
        " && document.getElementById('summary').textContent"
    )
    page.locator("#start-file").set_input_files(str(save))
    page.wait_for_function(
        "() => !document.getElementById('start-result').hidden"
        " || !document.getElementById('refused').hidden"
    )
    assert page.locator("#refused").is_hidden(), page.inner_text("#refused")
    assert "1 board picture, 7 pieces and cards" in page.inner_text("#start-status")
    # the board picture is the tracing tool's photo, already flat: four corners set
    page.wait_for_function(
        "() => document.getElementById('trace-stage').getAttribute('viewBox') === '0 0 1600 1000'"
    )
    href = page.get_attribute("#trace-stage image", "href") or ""
    assert href.startswith("data:image/jpeg;base64,")
    assert page.locator("#trace-stage .trace-corner").count() == 4
    assert page.input_value("#trace-height") == "500"  # 800 mm wide, in the picture's shape
    # the save's names are offered when naming a Village
    assert page.get_attribute("#trace-name", "list") == "herald-start-names"
    offered = page.eval_on_selector_all(
        "#herald-start-names option", "options => options.map(o => o.value)"
    )
    assert offered == [*F.PIECES, *F.CARDS]
    assert page.locator("#start-gallery figure").count() == len(F.CARDS) + len(F.PIECES)
    # a Village placed on the board picture: Blaye (a box Village) at Orléans' dot
    x, y = F.VILLAGES["Orléans"]
    page.fill("#trace-name", "Blaye")
    _click_picture(page, 2 * x, 2 * y)
    page.wait_for_function("() => document.getElementById('trace-status').textContent"
                           ".includes('Blaye')")  # fmt: skip
    shot(page, ARTIFACTS, "box-start-tts-france1429.png")
    page.fill("#name", "From TTS")
    page.click("#save")
    find = "s => [...s.options].map(o => o.value).find(v => v.startsWith('box:from-tts'))"
    page.wait_for_function(
        f"() => ({find})(document.getElementById('start')) || "
        "!document.getElementById('refused').hidden"
    )
    assert page.locator("#refused").is_hidden(), page.inner_text("#refused")
    kept = page.eval_on_selector("#start", find)
    # the kept box opened: a card's picture from the save enrolled as a face of the box
    page.select_option("#start", kept)
    page.click("#load")
    page.locator("#faces-card").wait_for(state="visible")
    page.select_option("#card", "blaye")  # any id the box's data names
    page.locator("#start-gallery figure", has_text="Miller").locator("button").click()
    page.wait_for_function("() => document.getElementById('status').textContent"
                           ".includes('Enrolled the face of blaye')")  # fmt: skip
    assert page.locator("#refused").is_hidden(), page.inner_text("#refused")
    assert not errors, errors
    with urllib.request.urlopen(
        f"{served.base}/api/box/{served.host_token}/start/france1429?box={kept[4:]}"
    ) as reply:
        files = json.loads(reply.read())["files"]
    main = next(f for f in files if "map" in files[f])
    villages = {v["name"]: v for v in files[files[main]["map"]]["villages"]}
    assert abs(villages["Blaye"]["x"] - x) <= 3 and abs(villages["Blaye"]["y"] - y) <= 3


@pytest.fixture
def served_viscounts(tmp_path: Path) -> Iterator[Served]:
    table = serve(tmp_path / "v.db", "--game", "viscounts", "--sim", "off")
    yield table
    table.stop()


def test_a_modules_names_are_offered_in_a_cards_form_in_polish(
    served_viscounts: Served, browser: Any, tmp_path: Path
) -> None:
    """A game with no tool of its own (Viscounts): the module's card names are offered in the
    forms' name fields, the page in Polish; a hostile module refused in a Polish sentence."""
    module = tmp_path / "fief.vmod"
    module.write_bytes(F.vassal_module())
    errors: list[str] = []
    page = watch(browser.new_page(viewport={"width": 1400, "height": 1000}), errors)
    page.goto(f"{served_viscounts.base}/box/{served_viscounts.host_token}?lang=pl")
    page.wait_for_function("() => document.getElementById('summary').textContent")
    assert "Zacznij od zapisu" in page.inner_text("#start-card h2")
    page.locator("#start-file").set_input_files(str(module))
    page.locator("#start-result").wait_for(state="visible")
    assert "1 obraz planszy" in page.inner_text("#start-status")
    page.locator(".je-tab--top", has_text="Mieszczanie").first.click()  # the Townsfolk, in Polish
    name = page.locator('input[name="root[townsfolk][0][name]"]')
    name.focus()
    assert name.get_attribute("list") == "herald-start-names"
    assert page.locator("#herald-start-names option").count() == len(F.PIECES) + len(F.CARDS)
    bad = tmp_path / "bad.vmod"
    bad.write_bytes(F.vassal_module(extra={"../../evil.png": b"x"}))
    page.locator("#start-file").set_input_files(str(bad))
    refused = page.locator("#refused")
    refused.wait_for(state="visible")
    assert "../../evil.png" in refused.inner_text() and "archiwum" in refused.inner_text()
    assert not errors, errors
