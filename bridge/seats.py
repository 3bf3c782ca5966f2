"""Seat names for a table whose seats nobody named: colours, as many as the game seats.

The pages colour a seat by its name (``bridge/web/static/common.js``); a seat past the named
colours is ``seat9``, ``seat10``… so no game's seat count is cut short.
"""

from __future__ import annotations

SEAT_NAMES = ("blue", "green", "pink", "yellow", "purple", "red", "orange", "teal")


def seat_names(count: int) -> tuple[str, ...]:
    """``count`` distinct seat names: the colours first, then numbered seats."""
    named = SEAT_NAMES[:count]
    return named + tuple(f"seat{n}" for n in range(len(named) + 1, count + 1))
