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
    page.locator(".je-tab--top", has_text="townsfolk").first.click()  # the deck's tab
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
