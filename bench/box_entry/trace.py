"""A board traced on a photo: the counts of the browser test's scripted user.

A game whose board is traced on the "Your box" page keeps, beside the browser test that plays
the tracing, a module ``tests/box/entry_<game>.py`` whose ``entry()`` counts that script's clicks
and keystrokes (and scales them to the largest board the rules allow: ``largest_map`` with its
``what``, ``entries``, ``clicks``, ``keystrokes`` and ``look_ups``) and whose ``COVERS`` names
the data file's fields the tracing enters. The script is the test's, so what is estimated is
what is tested.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from bench.box_entry import Part


def _module(game: str) -> ModuleType | None:
    name = "tests.box.entry_" + game.replace("-", "_")
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            return None  # no scripted tracing for this game (or no tests/ beside the bench)
        raise


def traced(game: str) -> tuple[Part, dict[str, Any], list[str]] | None:
    """The traced part, the script's counts and their lines of text; None when the game's
    board is not traced."""
    module = _module(game)
    if module is None:
        return None
    found, lines = module.entry()
    largest = found["largest_map"]
    part = Part(
        kind="trace",
        what=str(largest["what"]),
        entries=int(largest["entries"]),
        clicks=int(largest["clicks"]),
        keystrokes=int(largest["keystrokes"]),
        look_ups=int(largest["look_ups"]),
        covers=frozenset(module.COVERS),
    )
    return part, dict(found), list(lines)
