"""In chromium (issue #24, found when a second box was typed in by hand): a box half entered is
saved as a draft, faults and all, and New game lists it disabled; a group's own box, chosen in
New game, seats the players by the box's own colours, and the game starts with them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import watch
from playwright.sync_api import expect
from srv_support import Served, serve

from bridge.box.workshop import Draft
from tests.box.generated_viscounts import viscounts_files

pytestmark = pytest.mark.slow(seconds=55)  # a long group: handed out first (tests/conftest.py)

WAIT_MS = 30_000


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    table = serve(tmp_path / "t.db", "--game", "viscounts", "--sim", "off")
    yield table
    table.stop()


def test_a_draft_is_kept_and_the_box_colours_seat_the_players(
    served: Served, browser: Any, tmp_path: Path
) -> None:
    errors: list[str] = []
    page = watch(browser.new_page(viewport={"width": 1400, "height": 1000}), errors)
    page.goto(f"{served.base}/box/{served.host_token}?lang=en")
    summary = "() => document.getElementById('summary').textContent.includes('values')"
    page.wait_for_function(summary)
    # a group's own box, with its own colours, imported from its file
    files = viscounts_files(5)
    ours = tmp_path / "ours.herald-box"
    ours.write_bytes(Draft("viscounts", "Our colours", "data.json", files).box().to_bytes())
    page.set_input_files("#import", str(ours))
    page.wait_for_function(
        "() => [...document.querySelectorAll('#start option')].some(o => o.value.startsWith"
        "('box:our-colours'))"
    )
    page.wait_for_function("() => document.getElementById('name').value === 'Our colours'")
    page.wait_for_function(summary)
    # a value that breaks a rule: refused in its sentence, and kept as a draft all the same
    page.locator(".je-tab--top", has_text="townsfolk").first.click()
    count = page.locator('input[name="root[townsfolk][0][count]"]')
    count.fill("-1")
    count.press("Tab")
    expect(page.locator("#refused")).to_be_visible(timeout=WAIT_MS)
    page.fill("#name", "Half done")
    page.click("#save-draft")
    expect(page.locator("#status")).to_contain_text("Saved the draft “Half done”", timeout=WAIT_MS)
    expect(page.locator("#gaps li.fault").first).to_contain_text("townsfolk")
    expect(page.locator("#refused")).to_be_visible()  # Save to this table still refuses it
    page.wait_for_function(
        "() => document.getElementById('start').value === 'draft:half-done.herald-box'"
    )

    host = watch(browser.new_page(viewport={"width": 1400, "height": 1000}), errors)
    host.goto(served.host_url + "?lang=en")
    expect(host.locator("#host-start")).to_be_visible(timeout=WAIT_MS)
    host.locator("#host-start").click()
    host.select_option("#setup-game", "viscounts")
    data = host.locator('#setup-options select[data-option="data"]')
    draft = data.locator("option", has_text="draft “Half done” (not playable)")
    expect(draft).to_be_disabled()
    box = data.locator("option", has_text="your box “Our colours”")
    data.select_option(box.get_attribute("value"))
    colours = files["data.json"]["colours"]
    seats = host.locator("#setup-seats .setup-seat select")
    expect(seats.first).to_have_value(colours[0], timeout=WAIT_MS)
    offered = seats.first.locator("option").all_inner_texts()
    assert offered[: len(colours)] == colours
    host.locator("#setup-start").click()
    expect(host.locator("#setup-box")).to_be_hidden(timeout=WAIT_MS)
    host.wait_for_function(
        "c => window.heraldTable.latest().seats.includes(c)", arg=colours[0], timeout=WAIT_MS
    )
    assert not errors, errors
