"""The Virtue/Corruption track (track.py) and the Poverty/Prosperity awards (kingdom.py)."""

from __future__ import annotations

from fractions import Fraction

from engine.games.viscounts.kingdom import awards, majority
from engine.games.viscounts.track import Markers, gain, start

SPACES = 7  # the stand-in's track; the printed length is not in the seed (§11 item 1)


def test_markers_start_at_opposite_ends() -> None:
    """Digest §3 step 6: Corruption on the leftmost space, Virtue on the rightmost."""
    assert start(SPACES) == Markers(0, 6, False)


def test_the_stacking_example() -> None:
    """Digest §6 [seed L251-252]: one space apart, +2 Virtue moves Virtue onto Corruption
    (a Collision, stacked); the second point moves the stack 1 space left."""
    m = gain(Markers(3, 4), SPACES, virtue=2)
    assert m == Markers(2, 2, True)


def test_corruption_moves_first() -> None:
    """Digest §6: gained at once, Corruption moves before Virtue; once they meet they move
    together."""
    assert gain(Markers(3, 5), SPACES, corruption=1, virtue=1) == Markers(4, 4, True)
    # the order matters here: Virtue first would stack them on 3 and then Corruption would
    # push the stack to 4; Corruption first stacks them on 4 and Virtue pulls the stack to 3
    assert gain(Markers(2, 4), SPACES, corruption=2, virtue=1) == Markers(3, 3, True)


def test_a_move_past_the_end_is_lost() -> None:
    """Digest §6 [seed L243-245]: a marker at the far end cannot move; that point and the
    rest of the gain are lost (§9 check 35)."""
    assert gain(Markers(0, 6), SPACES, virtue=1) == Markers(0, 5)
    assert gain(Markers(0, 0, True), SPACES, virtue=3) == Markers(0, 0, True)
    assert gain(Markers(5, 6), SPACES, corruption=3) == Markers(6, 6, True)
    assert gain(Markers(6, 6, True), SPACES, corruption=1) == Markers(6, 6, True)


def test_the_awards_by_player_count() -> None:
    """Digest §7 [seed L773-774]: 12/8/4; with fewer than 3 players the 8 is dropped."""
    assert awards(4) == (12, 8, 4) and awards(3) == (12, 8, 4)
    assert awards(2) == (12, 4) and awards(1) == (12, 4)


def test_the_tie_examples() -> None:
    """Digest §7 [seed L765-767]: two tied for 1st get (12+8)/2 = 10 each and the next
    player still gets 4; three tied for 2nd get (8+4)/3 = 4 each."""
    assert majority({"a": 3, "b": 3, "c": 1, "d": 0}, 4) == {"a": 10, "b": 10, "c": 4}
    assert majority({"a": 5, "b": 2, "c": 2, "d": 2}, 4) == {"a": 12, "b": 4, "c": 4, "d": 4}


def test_at_least_one_to_count_and_fractions_kept() -> None:
    """Digest §7: a player needs at least one; a share the seed does not round stays exact."""
    assert majority({"a": 0, "b": 0}, 2) == {}
    assert majority({"a": 2, "b": 1, "c": 1}, 2) == {"a": 12, "b": 2, "c": 2}
    assert majority({"a": 1, "b": 1, "c": 1}, 3) == {s: Fraction(24, 3) for s in "abc"}
    assert majority({"a": 1, "b": 1, "c": 1, "d": 2}, 4)["a"] == Fraction(12, 3)


def test_the_scoring_examples_poverty_place() -> None:
    """Digest §7 scoring example [seed L785-808]: Red takes 4 VP as 3rd in granted Deeds."""
    assert majority({"blue": 4, "green": 3, "red": 2, "yellow": 0}, 4)["red"] == 4
