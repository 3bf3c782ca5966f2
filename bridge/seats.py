"""Seat names for a table whose seats nobody named: colours, as many as the game seats; on a
group's own box, the families' colours its data print (``SEAT_COLOURS``).

The pages colour a seat by its name (``bridge/web/static/common.js``); a seat past the named
colours is ``seat9``, ``seat10``… so no game's seat count is cut short.
"""

from __future__ import annotations

from typing import Any

from engine.capabilities import SEAT_COLOURS, capability
from engine.data import GameData, data_spec
from engine.seat_words import seat_words

SEAT_NAMES = ("blue", "green", "pink", "yellow", "purple", "red", "orange", "teal")


def seat_names(count: int) -> tuple[str, ...]:
    """``count`` distinct seat names: the colours first, then numbered seats."""
    named = SEAT_NAMES[:count]
    return named + tuple(f"seat{n}" for n in range(len(named) + 1, count + 1))


def family_colours(game: Any, data: GameData | None) -> tuple[str, ...]:
    """The seat names a game played on ``data`` takes from the families' colours the data print
    (``SEAT_COLOURS``): each colour as a seat name (``engine.seat_words``: "Dark Blue" is
    ``darkblue``), in the data's order; empty when the game has no such colours, the data are a
    shipped set (its tables keep the seats they have always had) or two colours would make one
    name."""
    found = capability(game, SEAT_COLOURS)
    spec = data_spec(game)
    if found is None or data is None or spec is None or data.source in spec.shipped:
        return ()
    return seat_words(found.seat_colours(data))


def data_seat_names(game: Any, data: GameData | None, count: int) -> tuple[str, ...]:
    """``count`` seat names for a game on ``data``: the box's family colours when it names
    enough of them (a group's box seats its players by its own colours), else ``seat_names``."""
    own = family_colours(game, data)
    return own[:count] if len(own) >= count else seat_names(count)
