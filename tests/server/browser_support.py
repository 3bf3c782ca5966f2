"""Debian's chromium for the page tests, in one place: where it is, the flags every test launches
it with, the mark that skips a module when it is missing (``make test`` installs it as root,
scripts/system-deps.sh), the screen sizes the pages are looked at in, and the small helpers
every page test repeats (a page's script errors kept for the test, a screenshot for a person).

The fixtures that hand a test the worker's chromium live in browser_fixtures.py.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
FAKE_CAMERA = ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]
"""Flags for a chromium whose camera is a fake one (add ``--use-file-for-fake-video-capture``)."""

TABLE_SIZE = {"width": 1280, "height": 900}
"""The table display: a laptop or a TV."""
PHONE_SIZE = {"width": 390, "height": 844}
"""A phone of today."""
SMALL_PHONE_SIZE = {"width": 360, "height": 740}
"""A small phone: the narrowest a seat page must fit without scrolling sideways."""

ROOT = Path(__file__).resolve().parents[2]
PAGES_SHOTS = ROOT / "artifacts" / "pages"
"""Screenshots of the pages of each game (git-ignored), for a person to look at."""
SERVER_SHOTS = ROOT / "artifacts" / "server"
"""Screenshots of the generic pages (git-ignored), for a person to look at."""

needs_chromium = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason="Debian's chromium is not installed (make system-deps installs it as root)",
)


def launch(playwright: Any, *extra: str) -> Any:
    """Chromium headless with the suite's flags and any ``extra`` ones."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=[*ARGS, *extra])


def watch(page: Any, errors: list[str], label: str | None = None) -> Any:
    """``page``, its script errors appended to ``errors`` (prefixed ``label: `` when given), so
    the test can assert none happened; returns the page."""
    prefix = f"{label}: " if label else ""
    page.on("pageerror", lambda e: errors.append(f"{prefix}{e}"))
    return page


def shot(page: Any, folder: Path, name: str) -> None:
    """A full-page screenshot ``folder/name`` for a person to look at (never compared)."""
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / name), full_page=True)


class Framed:
    """A page opened at ``url`` (in English) that keeps every Socket.IO frame it receives, in
    order, so a test can check what reached it, not only what it shows."""

    def __init__(self, browser: Any, url: str, errors: list[str], phone: bool) -> None:
        size = PHONE_SIZE if phone else TABLE_SIZE
        self.page = watch(browser.new_page(viewport=size, is_mobile=phone, locale="en-GB"),
                          errors, url)  # fmt: skip
        self.frames: list[str] = []
        self.page.on("websocket", self._socket)
        self.page.goto(url + "?lang=en")

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda f: self.frames.append(f if isinstance(f, str) else ""))

    def at(self, state_id: int, timeout_ms: float) -> None:
        """Wait until the page shows state ``state_id``."""
        from playwright.sync_api import expect

        expect(self.page.locator("#summary")).to_have_attribute(
            "data-state-id", str(state_id), timeout=timeout_ms
        )

    def shot(self, name: str) -> None:
        shot(self.page, PAGES_SHOTS, name)
