"""Viscounts' key in the registry for the data tests, and its shipped data.

The package has no ``GAME`` yet (issue 14: an incomplete game registers no entry point), but
catalog sentences, shipped data and the ``data check`` verb are found through the registry by
game key. So the tests register a holder of the key and the package's ``data_spec`` for the
duration: a stand-in for the registration, not for any rule.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

import key_holder

from engine import data as gamedata
from engine.games.viscounts.data import SPEC
from engine.games.viscounts.data_types import ViscountsData
from engine.games.viscounts.sources import GAME_KEY


def registered() -> AbstractContextManager[Any]:
    """The registered game, or a stand-in registration for the duration (``key_holder``)."""
    return key_holder.registered(GAME_KEY, "engine.games.viscounts", SPEC)


def shipped(name: str = "stand-in") -> ViscountsData:
    """A shipped data set, loaded as every caller loads it (``engine.data.load``)."""
    with registered() as game:
        loaded = gamedata.load(game, {"data": name})
    assert loaded is not None and isinstance(loaded.value, ViscountsData)
    return loaded.value
