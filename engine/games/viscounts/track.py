"""The Virtue/Corruption track of a player board (digest §6, §4 phase 5; seed L237-255).

Corruption starts on the leftmost space and moves right, Virtue starts on the rightmost and
moves left, one space per point. A marker at the end cannot move: that point and the rest of
the gain are lost. Gained at the same moment, Corruption moves first. Markers that land on the
same space collide and from then on move together as a stack, until the Collision is resolved
in the owner's phase 5 and both go back to their ends. Pure: positions in, positions out.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Markers:
    """Where the two markers stand (space 0 is the leftmost) and whether they are stacked."""

    corruption: int
    virtue: int
    stacked: bool = False


def start(spaces: int) -> Markers:
    """Both markers at their starting ends (setup, and after a Collision is resolved)."""
    return Markers(0, spaces - 1)


def _step(m: Markers, spaces: int, corruption: bool) -> Markers | None:
    """One point; None when the marker (or the stack) is at its end and cannot move."""
    delta = 1 if corruption else -1
    if m.stacked:
        to = m.corruption + delta
        return Markers(to, to, True) if 0 <= to < spaces else None
    if corruption:
        to = m.corruption + delta
        return Markers(to, m.virtue, to == m.virtue) if to < spaces else None
    to = m.virtue + delta
    return Markers(m.corruption, to, to == m.corruption) if to >= 0 else None


def gain(m: Markers, spaces: int, *, corruption: int = 0, virtue: int = 0) -> Markers:
    """The markers after gaining ``corruption`` and ``virtue`` points at once (Corruption
    first); a point that cannot move is lost with the rest of its gain."""
    for is_corruption, points in ((True, corruption), (False, virtue)):
        for _ in range(points):
            moved = _step(m, spaces, is_corruption)
            if moved is None:
                break
            m = moved
    return m
