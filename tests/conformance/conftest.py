"""The conformance suite runs over every registered game, the tiny test game included.

Take-away (tests/games/takeaway) is registered at run time, as a game installed from outside
would be through the ``herald.games`` entry points: nothing outside its folder names it.
"""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
GAMES_DIR = TESTS / "games"
for folder in (GAMES_DIR, TESTS / "server"):  # the tiny game; the served-table helpers
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import takeaway  # noqa: E402

from engine import registry  # noqa: E402

registry.register(takeaway.GAME, module="takeaway")
