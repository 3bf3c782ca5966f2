"""The page tests' chromium: one Playwright and one browser per pytest session, shared by every
module (pytest-xdist runs one session per worker, so one chromium per worker), and what a test
opens in it closed when the test ends, so no test sees another's pages.

Starting chromium costs seconds of a shared CPU; starting it once per worker instead of once
per module (ten modules did) is most of what this module is for. The fixtures are plain pytest
fixtures: tests/server/conftest.py imports them for the server tests, and a module elsewhere
imports them by name (``from browser_fixtures import browser, playwright``). However many
places register them, the worker's Playwright and chromium are the same ones (kept here,
counted by their users, stopped by the last).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from browser_support import PHONE_SIZE, TABLE_SIZE, launch, watch


class _Worker:
    """The worker's Playwright and its shared chromium, started by the first session fixture
    that asks and stopped when the last one lets go."""

    def __init__(self) -> None:
        self.users = 0
        self.playwright: Any = None
        self._browser: Any = None

    def acquire(self) -> Any:
        if self.users == 0:
            from playwright.sync_api import sync_playwright

            self.playwright = sync_playwright().start()
        self.users += 1
        return self.playwright

    def release(self) -> None:
        self.users -= 1
        if self.users:
            return
        with contextlib.suppress(Exception):  # chromium may be gone already: stop anyway
            if self._browser is not None:
                self._browser.close()
        self._browser = None
        self.playwright.stop()
        self.playwright = None

    def browser(self) -> Any:
        """The shared chromium, launched again if an earlier test's crash took it down."""
        if self._browser is None or not self._browser.is_connected():
            self._browser = launch(self.playwright)
        return self._browser


_WORKER = _Worker()


class Tabs:
    """The shared chromium as one test sees it: pages and contexts opened through it are closed
    when the test ends (a context per page, so no cookie or storage crosses between tests)."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self._opened: list[Any] = []

    def new_page(self, **options: Any) -> Any:
        """A page in a context of its own, as ``Browser.new_page`` makes."""
        page = self.browser.new_page(**options)
        self._opened.append(page)
        return page

    def new_context(self, **options: Any) -> Any:
        """A context whose pages share cookies and storage (a phone's two tabs, say)."""
        context = self.browser.new_context(**options)
        self._opened.append(context)
        return context

    def table(self, errors: list[str] | None = None, **options: Any) -> Any:
        """A table display's page (``TABLE_SIZE``), its script errors kept in ``errors``."""
        page = self.new_page(viewport=TABLE_SIZE, **options)
        return page if errors is None else watch(page, errors)

    def phone(
        self, errors: list[str] | None = None, size: dict[str, int] = PHONE_SIZE, **options: Any
    ) -> Any:
        """A phone's page (``size``, mobile), its script errors kept in ``errors``."""
        page = self.new_page(viewport=size, is_mobile=True, **options)
        return page if errors is None else watch(page, errors)

    def close(self) -> None:
        for opened in reversed(self._opened):
            with contextlib.suppress(Exception):  # closed by the test, or chromium is gone
                opened.close()
        self._opened.clear()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """The worker's Playwright (sync API), started at its first use."""
    yield _WORKER.acquire()
    _WORKER.release()


@pytest.fixture
def browser(playwright: Any) -> Iterator[Tabs]:
    """The worker's chromium; what the test opens in it is closed when the test ends."""
    tabs = Tabs(_WORKER.browser())
    yield tabs
    tabs.close()


@pytest.fixture
def launch_chromium(playwright: Any) -> Iterator[Callable[..., Any]]:
    """Launches a chromium of the test's own with extra flags (a fake camera and its video,
    say), closed when the test ends; for what the shared chromium cannot be started with."""
    launched: list[Any] = []

    def start(*extra: str) -> Any:
        browser = launch(playwright, *extra)
        launched.append(browser)
        return browser

    yield start
    for browser in launched:
        with contextlib.suppress(Exception):
            browser.close()
