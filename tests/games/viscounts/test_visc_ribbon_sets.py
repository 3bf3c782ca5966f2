"""Manuscript sets of different ribbon colours (ribbon_sets.py; digest §5.4, §7)."""

from __future__ import annotations

from engine.games.viscounts.ribbon_sets import best_sets

SQUARES = (1, 4, 9, 16)  # the stand-in's table: the digest's unverified (size)² reading


def test_the_scoring_example() -> None:
    """Digest §7 scoring example [seed L791]: 26 VP for 3 sets, 16 + 9 + 1 under the
    (size)² reading: four colours, three colours, one."""
    vp, sets = best_sets(["grey", "red", "green", "blue", "grey", "red", "green", "grey"], SQUARES)
    assert vp == 26
    assert [len(s) for s in sets] == [4, 3, 1]


def test_a_set_of_three_is_nine() -> None:
    """Digest §5.4 [seed L650]: a set of 3 different colours is worth 9 VP."""
    assert best_sets(["red", "green", "blue"], (None or 0, 0, 9)) == (
        9,
        (("blue", "green", "red"),),
    )


def test_each_manuscript_in_one_set_and_the_best_partition() -> None:
    """Each Manuscript counts in at most one set; the partition scoring most is taken, even
    when a table does not grow evenly (then smaller sets can beat one large set)."""
    assert best_sets(["red", "red"], SQUARES) == (2, (("red",), ("red",)))
    odd_table = (1, 10, 11, 12)
    vp, sets = best_sets(["a", "b", "c", "d"], odd_table)
    assert vp == 20 and [len(s) for s in sets] == [2, 2]
    assert best_sets([], SQUARES) == (0, ())


def test_the_fast_total_agrees_with_the_partition_search() -> None:
    """``best_vp`` (over sorted counts, remembered) scores what ``best_sets`` finds."""
    import random

    from engine.games.viscounts.ribbon_sets import best_sets, best_vp

    rng = random.Random(1)
    for _ in range(150):
        ribbons = [rng.choice("abcde") for _ in range(rng.randrange(0, 13))]
        for table in ((1, 4, 9, 16, 25), (1, 4, 9, 16), (0, 0, 9)):
            assert best_vp(ribbons, table) == best_sets(ribbons, table)[0]
