"""France 1429's tests run with the game registered (as its entry point does once installed)."""

from __future__ import annotations

from engine import registry
from engine.games.france1429 import GAME

if GAME.info.key not in registry.game_keys():
    registry.register(GAME, module="engine.games.france1429")
