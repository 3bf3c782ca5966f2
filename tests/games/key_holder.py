"""A game package's key in the registry for its data tests, while the game is not installed.

Catalog sentences and shipped data are found through the registry by game key. A game installed
through its entry point is used as it is; else the package's ``GAME`` (when it has one) is
registered for the duration; else a holder of the key and the package's ``data_spec`` only: a
stand-in for the registration, not for any rule (an incomplete game registers no entry point).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from engine import registry
from engine.data import DataSpec


@dataclass(frozen=True)
class _Info:
    key: str


@dataclass(frozen=True)
class KeyHolder:
    """Holds the key and the data declaration, as ``engine.data`` and ``engine.i18n`` read them."""

    info: _Info
    data_spec: DataSpec


@contextmanager
def registered(key: str, module: str, spec: DataSpec) -> Iterator[Any]:
    """The registered game ``key``, or its package's game or a key holder for the duration."""
    if key in registry.game_keys():
        yield registry.get_game(key)
        return
    package = importlib.import_module(module)
    holder: Any = getattr(package, "GAME", None) or KeyHolder(_Info(key), spec)
    registry.register(holder, module=module)
    try:
        yield holder
    finally:
        registry.unregister(key)
