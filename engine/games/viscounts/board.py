"""The circular main board as a graph: where a Viscount may end a move, which building sites a
town reaches, which town a Player card names (digest §3 step 9, §4 phase 2, §5.2).

Movement follows the printed arrows out of each town, never backwards; a move of N spaces may
end on any town some walk of exactly N arrows reaches (§9 check 15: "accept it if any legal path
of that length exists"), a full loop included. Pure functions over ``data.Board``.
"""

from __future__ import annotations

from engine.games.viscounts.data_types import Board, Site, Town


def destinations(board: Board, start: str, spaces: int) -> frozenset[str]:
    """Every town a walk of exactly ``spaces`` arrows from ``start`` ends on (empty for an
    unknown town; ``{start}`` for 0 spaces)."""
    if board.town(start) is None or spaces < 0:
        return frozenset()
    arrows = {t.id: t.next for t in board.towns}
    here = frozenset({start})
    for _ in range(spaces):
        here = frozenset(n for t in here for n in arrows[t])
    return here


def distances(board: Board, start: str, end: str, most: int) -> tuple[int, ...]:
    """The lengths (1 to ``most``) of the walks from ``start`` that end on ``end``: how
    many spaces a move there may count (the played card's value is the least it may be)."""
    return tuple(n for n in range(1, most + 1) if end in destinations(board, start, n))


def town_of_number(board: Board, number: int) -> Town | None:
    """The town whose red number a Player card names (setup step 9), or None."""
    return next((t for t in board.towns if t.number == number), None)


def sites_from(board: Board, town_id: str) -> tuple[Site, ...]:
    """The building sites a Viscount on ``town_id`` may build on, empty or not: on the outer
    path, in the town's board part, on its side of the River (§5.2, §9 check 24). An inner
    town reaches none."""
    town = board.town(town_id)
    if town is None or town.path != "outer":
        return ()
    return tuple(s for s in board.sites if s.part == town.part and s.side == town.side)


def connections_of(board: Board, site_id: str) -> tuple[tuple[str, int], ...]:
    """The sites linked to ``site_id`` by a printed Connection, with the Connection's index."""
    out: list[tuple[str, int]] = []
    for i, link in enumerate(board.connections):
        a, b = link.sites
        if site_id in (a, b):
            out.append((b if a == site_id else a, i))
    return tuple(out)
