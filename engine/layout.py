"""Where a game's components lie on the table: what a simulated camera draws and what the
table sources report back (``engine.interpret``), in one vocabulary.

A game with a camera profile offers the pure verb ``layout(state, regions)``: every component
of the position placed in the profile's regions (``regions`` maps a region name to its
``(x, y, width, height)`` in board millimetres), as :class:`Placed` items. The vision side draws
them (a ``picture`` by its art key, a ``sticker`` by the sticker label the profile maps to a
marker id) without knowing the game; ``seen`` is the observation the item gives, the same
``{"component", "region", "attrs"}`` a camera or Tabletop Simulator reports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class Placed:
    """One component on the table, in board millimetres: a ``picture`` (a tile or card face,
    drawn by its art ``key`` at ``size``) or a ``sticker`` (``key`` is its label in the
    profile's sticker map; it is drawn at the profile's sticker size, ``size`` is ignored)."""

    kind: Literal["picture", "sticker"]
    key: str
    center: tuple[float, float]
    size: tuple[float, float]
    seen: dict[str, Any] | None = field(default=None, compare=False)
