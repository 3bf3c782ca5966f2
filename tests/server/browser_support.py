"""Debian's chromium for the page tests, in one place: where it is, the flags every test launches
it with, and the mark that skips a module when it is missing (``make test`` installs it as root,
scripts/system-deps.sh). A test that needs more flags (a fake camera, say) adds them to ``ARGS``.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip

needs_chromium = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason="Debian's chromium is not installed (make system-deps installs it as root)",
)


def launch(playwright: Any, *extra: str) -> Any:
    """Chromium headless with the suite's flags and any ``extra`` ones."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=[*ARGS, *extra])
