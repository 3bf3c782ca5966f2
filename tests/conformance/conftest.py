"""The conformance suite runs over every registered game, the tiny test game included.

Take-away (tests/games/takeaway) is registered at run time, as a game installed from outside
would be through the ``herald.games`` entry points: nothing outside its folder names it.
"""

from __future__ import annotations

import sys
from pathlib import Path

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"
if str(GAMES_DIR) not in sys.path:
    sys.path.insert(0, str(GAMES_DIR))

import takeaway  # noqa: E402

from engine import registry  # noqa: E402

registry.register(takeaway.GAME, module="takeaway")
