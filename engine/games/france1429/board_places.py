"""Where the camera reads each Village on a board traced from a photo (issue #24 point 2).

A map traced on the "Your box" page keeps the printed board's size (``MapData.board``) and each
Village's place on it in board millimetres. The camera's board profile for that board
(``layout.board_profile``) is laid out at those places: one square per Village, centred where
the host clicked, big enough for the counters the rules put there side by side (3 × 4 spots of
16 mm); the board's four corners, which the host clicked on the photo, carry the corner
stickers the camera calibrates on, so the same clicks are the calibration.

The profile is only as good as the places: two squares that overlap, or a square under a corner
sticker, would give the camera a counter that lies in two Villages at once. ``place_faults``
names such places so the map's check refuses them (``map_checks``) before any profile is made.
Pure geometry, shared by the check and the profile so they cannot disagree.
"""

from __future__ import annotations

from engine.games.france1429.geography import MapData

Rect = tuple[float, float, float, float]

VILLAGE_MM = 64.0
"""A Village's square: 4 spots of 16 mm a side (``layout.SPOTS``, ``layout.PITCH_MM``)."""
CORNER_MM = 40.0
"""The board's corner stickers (``layout.CORNER_MM``), 5 mm in from the board's edges
(``engine.layout.board_profile``)."""
CORNER_INSET_MM = 5.0


def traced(m: MapData) -> bool:
    """The map was traced on a photo of its board: the board's size is known and every
    Village has its place (a Village not placed yet is a gap the check lists)."""
    return (
        m.board is not None
        and bool(m.villages)
        and all(v.x is not None and v.y is not None for v in m.villages)
    )


def village_squares(m: MapData) -> dict[str, Rect]:
    """Each placed Village's square ``(x, y, width, height)`` in board millimetres, centred on
    its traced place (the first of a repeated id)."""
    half = VILLAGE_MM / 2
    out: dict[str, Rect] = {}
    for v in m.villages:
        if v.x is not None and v.y is not None and v.id not in out:
            out[v.id] = (v.x - half, v.y - half, VILLAGE_MM, VILLAGE_MM)
    return out


def corner_squares(board: tuple[float, float]) -> list[Rect]:
    """The four corner stickers' squares on a board ``(width, height)`` mm."""
    w, h = board
    far_x, far_y = w - CORNER_INSET_MM - CORNER_MM, h - CORNER_INSET_MM - CORNER_MM
    return [
        (x, y, CORNER_MM, CORNER_MM)
        for x, y in (
            (CORNER_INSET_MM, CORNER_INSET_MM),
            (far_x, CORNER_INSET_MM),
            (far_x, far_y),
            (CORNER_INSET_MM, far_y),
        )
    ]


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def place_faults(m: MapData) -> list[tuple[str, tuple[str, ...]]]:
    """Why the camera could not read map ``m`` at its traced places, as ``(kind, village
    ids)``: ``off-board`` (a Village's square leaves the board), ``under-corner`` (it lies
    under a corner sticker), ``overlap`` (two Villages' squares overlap: the pair, in map
    order). Empty for a map without a traced board."""
    if m.board is None:
        return []
    w, h = m.board
    squares = village_squares(m)
    corners = corner_squares(m.board)
    out: list[tuple[str, tuple[str, ...]]] = []
    for v, (x, y, sw, sh) in squares.items():
        if x < 0 or y < 0 or x + sw > w or y + sh > h:
            out.append(("off-board", (v,)))
        elif any(_overlap((x, y, sw, sh), c) for c in corners):
            out.append(("under-corner", (v,)))
    ids = list(squares)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if _overlap(squares[a], squares[b]):
                out.append(("overlap", (a, b)))
    return out
