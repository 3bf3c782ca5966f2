"""France 1429's key in the registry for the data and map tests, and its shipped data.

Catalog sentences and shipped data are found through the registry by game key. A game installed
through its entry point is used as it is; else the package's ``GAME`` (when the package has
one) is registered for the duration; else, until the game module exists, a holder of the key
and the package's ``data_spec`` only: a stand-in for the registration, not for any rule.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from engine import data as gamedata
from engine import registry
from engine.games.france1429.data import SPEC, FranceData
from engine.games.france1429.geography import MapData
from engine.games.france1429.sources import GAME_KEY


@dataclass(frozen=True)
class _Info:
    key: str = GAME_KEY


class KeyHolder:
    """Holds the key and the data declaration, as ``engine.data`` and ``engine.i18n`` read them."""

    info = _Info()
    data_spec = SPEC


@contextmanager
def registered() -> Iterator[Any]:
    """The registered France 1429 game, or the key holder registered for the duration."""
    if GAME_KEY in registry.game_keys():
        yield registry.get_game(GAME_KEY)
        return
    package = importlib.import_module("engine.games.france1429")
    holder: Any = getattr(package, "GAME", None) or KeyHolder()
    registry.register(holder, module="engine.games.france1429")
    try:
        yield holder
    finally:
        registry.unregister(GAME_KEY)


def shipped(name: str = "stand-in") -> FranceData:
    """A shipped data set, loaded as every caller loads it (``engine.data.load``)."""
    with registered() as game:
        loaded = gamedata.load(game, {"data": name})
    assert loaded is not None and isinstance(loaded.value, FranceData)
    return loaded.value


def shipped_map(name: str = "stand-in") -> MapData:
    """The map of a shipped data set."""
    return shipped(name).map
