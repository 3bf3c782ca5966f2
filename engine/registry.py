"""Games by key. Each game package exposes ``GAME``; the registry imports it on first use."""

from __future__ import annotations

import importlib
from typing import Any

from engine.game import Game

_MODULES: dict[str, str] = {
    "middle-ages": "engine.games.middle_ages",
    "glory": "engine.games.glory",
}


def game_keys() -> tuple[str, ...]:
    return tuple(_MODULES)


def get_game(key: str) -> Game[Any, Any]:
    """The game registered as ``key``; ``KeyError`` names the known keys."""
    try:
        module = _MODULES[key]
    except KeyError:
        raise KeyError(f"unknown game {key!r}; known games: {', '.join(_MODULES)}") from None
    game: Game[Any, Any] = importlib.import_module(module).GAME
    return game
