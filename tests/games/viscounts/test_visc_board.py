"""The circular board as a graph (engine/games/viscounts/board.py) on the stand-in board,
which follows the digest's tentative graph (§4 phase 2)."""

from __future__ import annotations

from visc_registered import shipped

from engine.games.viscounts.board import (
    connections_of,
    destinations,
    distances,
    sites_from,
    town_of_number,
)
from engine.games.viscounts.data_types import Board


def _board() -> Board:
    board = shipped("stand-in").board
    assert board is not None
    return board


def test_the_movement_example() -> None:
    """Digest §4 phase 2 [seed L377-392]: from the start town S, with the Abbot's value 2,
    the legal end spaces are 3 (outer path, next part), 4 (inner path, next part), or 1 by
    way of 2. On the stand-in: S = outer-0-left, 1 = outer-0-right, 2 = inner-0,
    3 = outer-1-left, 4 = inner-1."""
    assert destinations(_board(), "outer-0-left", 2) == {"outer-1-left", "inner-1", "outer-0-right"}
    assert destinations(_board(), "outer-0-left", 1) == {"outer-0-right", "inner-0"}


def test_no_backwards_moves_and_a_full_loop() -> None:
    """§4 phase 2: never against the arrows; a full loop back to the start is legal."""
    board = _board()
    assert "outer-4-right" not in destinations(board, "outer-0-left", 1)
    loops = distances(board, "outer-0-left", "outer-0-left", 15)
    # the shortest loop takes the inner path (one arrow a part) and comes back out:
    # outer-0-left → inner-0 → inner-1 → … → inner-4 → outer-4-right → outer-0-left
    assert loops and min(loops) == 7
    assert 10 in loops  # along the outer path: two arrows a part
    assert destinations(board, "nowhere", 2) == frozenset()
    assert destinations(board, "inner-2", 0) == {"inner-2"}


def test_building_sites_by_river_side() -> None:
    """§5.2 [seed L478-481]: sites left of the River only from the left-side town, right of
    it only from the right-side town; none from the inner path."""
    board = _board()
    left = sites_from(board, "outer-2-left")
    right = sites_from(board, "outer-2-right")
    assert left and right and not set(left) & set(right)
    assert all(s.part == 2 and s.side == "left" for s in left)
    assert all(s.part == 2 and s.side == "right" for s in right)
    assert sites_from(board, "inner-2") == ()


def test_player_card_towns_and_connections() -> None:
    """§3 step 9: a Player card's number is the red number of the Viscount's start town;
    §5.2: a Connection links two sites."""
    board = _board()
    assert all(town_of_number(board, n) is not None for n in range(1, 11))
    assert town_of_number(board, 11) is None
    linked = connections_of(board, "site-0-1")
    assert [site for site, _ in linked] == ["site-0-2"]
