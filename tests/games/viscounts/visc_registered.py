"""Viscounts' key in the registry for the data tests, and its shipped data.

The package has no ``GAME`` yet (issue 14: an incomplete game registers no entry point), but
catalog sentences, shipped data and the ``data check`` verb are found through the registry by
game key. So the tests register a holder of the key and the package's ``data_spec`` for the
duration: a stand-in for the registration, not for any rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from engine import data as gamedata
from engine import registry
from engine.games.viscounts.data import SPEC
from engine.games.viscounts.data_types import ViscountsData
from engine.games.viscounts.sources import GAME_KEY


@dataclass(frozen=True)
class _Info:
    key: str = GAME_KEY


class KeyHolder:
    """Holds the key and the data declaration, as ``engine.data`` and ``engine.i18n`` read them."""

    info = _Info()
    data_spec = SPEC


@contextmanager
def registered() -> Iterator[Any]:
    """The registered game, or the key holder registered for the duration."""
    if GAME_KEY in registry.game_keys():
        yield registry.get_game(GAME_KEY)
        return
    holder = KeyHolder()
    registry.register(holder, module="engine.games.viscounts")  # type: ignore[arg-type]
    try:
        yield holder
    finally:
        registry.unregister(GAME_KEY)


def shipped(name: str = "stand-in") -> ViscountsData:
    """A shipped data set, loaded as every caller loads it (``engine.data.load``)."""
    with registered() as game:
        loaded = gamedata.load(game, {"data": name})
    assert loaded is not None and isinstance(loaded.value, ViscountsData)
    return loaded.value
