"""Games by key, found through the ``herald.games`` entry point group.

A game installs like a plugin: its distribution declares
``[project.entry-points."herald.games"] my-game = "my_pkg:GAME"``, and everything else about it
(catalogs, data, UI module, camera and Tabletop Simulator profiles, sticker sheet, golden
playthrough) lives in that package's folder, found through :func:`package_files`. Tests register
a game at run time with :func:`register`. The registry itself names no game.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata, resources
from importlib.abc import Traversable
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.game import Game

GROUP = "herald.games"
"""The entry point group a game registers under (``key = "module:ATTRIBUTE"``)."""


@dataclass(frozen=True)
class Registered:
    """Where a game comes from: its key, the ``module:attribute`` that holds it, its package."""

    key: str
    target: str

    @property
    def module(self) -> str:
        return self.target.partition(":")[0]


_RUNTIME: dict[str, tuple[Registered, Game[Any, Any]]] = {}
_LOADED: dict[str, Game[Any, Any]] = {}
_LISTENERS: list[Callable[[], None]] = []


def _installed() -> dict[str, Registered]:
    found: dict[str, Registered] = {}
    for ep in metadata.entry_points(group=GROUP):
        found.setdefault(ep.name, Registered(ep.name, ep.value))
    return found


def _all() -> dict[str, Registered]:
    found = _installed()
    found.update({key: reg for key, (reg, _) in _RUNTIME.items()})
    return found


def game_keys() -> tuple[str, ...]:
    """Every registered game key, sorted."""
    return tuple(sorted(_all()))


def installed_keys() -> tuple[str, ...]:
    """The games installed through entry points, sorted: what another process (``herald
    serve`` started by a test) finds, unlike a game registered at run time in this one."""
    return tuple(sorted(_installed()))


def register(game: Game[Any, Any], module: str | None = None) -> None:
    """Register ``game`` at run time (tests, a game not installed as a distribution).

    ``module`` is the package that holds the game's files (catalogs, UI, data); by default the
    module the game's class is defined in.
    """
    key = game.info.key
    owner = module or type(game).__module__
    _RUNTIME[key] = (Registered(key, f"{owner}:GAME"), game)
    _LOADED.pop(key, None)
    _changed()


def unregister(key: str) -> None:
    """Forget a game registered with :func:`register` (tests clean up after themselves)."""
    _RUNTIME.pop(key, None)
    _LOADED.pop(key, None)
    _changed()


def on_change(listener: Callable[[], None]) -> None:
    """Call ``listener`` whenever a game is registered or unregistered at run time: what is
    merged over every game (the message catalogs) is merged again. The registry knows its
    listeners, not what they keep."""
    _LISTENERS.append(listener)


def _changed() -> None:
    for listener in _LISTENERS:
        listener()


def get_game(key: str) -> Game[Any, Any]:
    """The game registered as ``key``; ``KeyError`` names the known keys."""
    if key in _RUNTIME:
        return _RUNTIME[key][1]
    found = _LOADED.get(key)
    if found is not None:
        return found
    reg = _all().get(key)
    if reg is None:
        raise KeyError(f"unknown game {key!r}; known games: {', '.join(game_keys()) or '-'}")
    module, _, attr = reg.target.partition(":")
    game: Game[Any, Any] = getattr(importlib.import_module(module), attr or "GAME")
    if game.info.key != key:
        raise KeyError(f"entry point {key!r} names a game whose key is {game.info.key!r}")
    _LOADED[key] = game
    return game


def package_name(key: str) -> str:
    """The dotted name of the game's package (its ``cli`` module, data and profiles live there).

    Found without running the package: the message catalogs and data-file lookups ask for every
    game's folder, and importing four games' rules for that cost `herald serve` 1.5 s a start.
    """
    reg = _all().get(key)
    if reg is None:
        raise KeyError(f"unknown game {key!r}; known games: {', '.join(game_keys()) or '-'}")
    try:
        spec = importlib.util.find_spec(reg.module)
    except (ImportError, ValueError):  # a module with no spec (``__main__``): import it, as ever
        spec = None
    if spec is None:
        module = importlib.import_module(reg.module)  # raises, naming a module that is missing
        package = module.__name__ if hasattr(module, "__path__") else module.__package__
        return package or module.__name__
    if spec.submodule_search_locations is not None:
        return reg.module
    return reg.module.rpartition(".")[0] or reg.module


def package_module(key: str, name: str) -> ModuleType | None:
    """The game's own module ``<package>.<name>`` (its ``cli`` verbs), or None when the game
    has none."""
    package = package_name(key)
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.{name}":
            raise
        return None


def package_files(key: str) -> Traversable:
    """The folder of the game's package: its data, catalogs, UI module and profiles."""
    name = package_name(key)
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    reader = getattr(spec.loader, "get_resource_reader", None) if spec is not None else None
    if spec is not None and callable(reader):  # the package's own loader reads it unimported
        found = reader(spec.name)
        if found is not None and callable(getattr(found, "files", None)):
            folder: Traversable = found.files()
            return folder
    return resources.files(name)
