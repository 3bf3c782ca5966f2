"""Manuscript sets at the end of the game (digest §5.4, §7 step 3; seed L645-650).

A player scores several sets of Manuscripts of different ribbon colours, each Manuscript in at
most one set, chosen to score the most: ``set_vp[k - 1]`` for a set of ``k`` colours (the data's
table; only 3 = 9 is printed, seed L650). The best partition is found by trying every set of
colours on what is left, over the counts per colour (a handful of colours, at most 35 tiles), so
it holds for any table, not only a growing one. Pure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations


def best_sets(
    ribbons: Iterable[str], set_vp: Sequence[int]
) -> tuple[int, tuple[tuple[str, ...], ...]]:
    """The most VP the Manuscripts' ``ribbons`` score as sets, and one partition scoring it
    (each set its colours, sorted; the sets largest first). Manuscripts left out of every set
    score nothing here."""
    colours = sorted(Counter(ribbons).items())
    names = [c for c, _ in colours]
    memo: dict[tuple[int, ...], tuple[int, tuple[tuple[str, ...], ...]]] = {}

    def solve(counts: tuple[int, ...]) -> tuple[int, tuple[tuple[str, ...], ...]]:
        if counts in memo:
            return memo[counts]
        best: tuple[int, tuple[tuple[str, ...], ...]] = (0, ())
        held = [i for i, n in enumerate(counts) if n > 0]
        for size in range(min(len(held), len(set_vp)), 0, -1):
            for chosen in combinations(held, size):
                rest = tuple(n - (i in chosen) for i, n in enumerate(counts))
                vp, sets = solve(rest)
                vp += set_vp[size - 1]
                if vp > best[0]:
                    best = (vp, (tuple(names[i] for i in chosen), *sets))
        memo[counts] = best
        return best

    vp, sets = solve(tuple(n for _, n in colours))
    return vp, tuple(sorted(sets, key=lambda s: (-len(s), s)))


def best_vp(ribbons: Iterable[str], set_vp: Sequence[int]) -> int:
    """The most VP the Manuscripts' ``ribbons`` score as sets (``best_sets``' total), fast:
    which colour holds which count does not change the VP, so the search runs over the sorted
    counts and remembers them across calls (scores are shown after every move)."""
    counts = tuple(sorted(Counter(ribbons).values(), reverse=True))
    return _best_vp(counts, tuple(set_vp))


@cache
def _best_vp(counts: tuple[int, ...], set_vp: tuple[int, ...]) -> int:
    held = [i for i, n in enumerate(counts) if n > 0]
    best = 0
    for size in range(min(len(held), len(set_vp)), 0, -1):
        for chosen in combinations(held, size):
            rest = tuple(sorted((n - (i in chosen) for i, n in enumerate(counts)), reverse=True))
            best = max(best, set_vp[size - 1] + _best_vp(rest, set_vp))
    return best
