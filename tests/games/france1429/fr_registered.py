"""France 1429's key in the registry for the data and map tests, and its shipped data.

Catalog sentences and shipped data are found through the registry by game key. A game installed
through its entry point is used as it is; else the package's ``GAME`` (when the package has
one) is registered for the duration; else, until the game module exists, a holder of the key
and the package's ``data_spec`` only: a stand-in for the registration, not for any rule.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

import key_holder

from engine import data as gamedata
from engine.games.france1429.data import SPEC, FranceData
from engine.games.france1429.geography import MapData
from engine.games.france1429.sources import GAME_KEY


def registered() -> AbstractContextManager[Any]:
    """The registered game, or a stand-in registration for the duration (``key_holder``)."""
    return key_holder.registered(GAME_KEY, "engine.games.france1429", SPEC)


def shipped(name: str = "stand-in") -> FranceData:
    """A shipped data set, loaded as every caller loads it (``engine.data.load``)."""
    with registered() as game:
        loaded = gamedata.load(game, {"data": name})
    assert loaded is not None and isinstance(loaded.value, FranceData)
    return loaded.value


def shipped_map(name: str = "stand-in") -> MapData:
    """The map of a shipped data set."""
    return shipped(name).map
