"""The Poverty and Prosperity awards at the end of the game (digest §7 step 6, seed L759-774).

Poverty, if uncovered, rewards the most granted Deeds; Prosperity the most paid Debts; both in a
Divided Kingdom. Only a player with at least one counts. Places pay 12, 8 and 4 VP (12 and 4
with fewer than 3 players: the digest's reading of seed L773-774, §11 item 6); tied players
share the VP of the places they take. Exact shares are returned as fractions: how to round a
share such as 4/3 is not in the seed, and the scoring module decides (a VW reading).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction


def awards(players: int) -> tuple[int, ...]:
    """The VP of each place: 12/8/4, or 12/4 with fewer than 3 players (solo included)."""
    return (12, 8, 4) if players >= 3 else (12, 4)


def majority(counts: Mapping[str, int], players: int) -> dict[str, Fraction]:
    """Each eligible seat's share of the awards for ``counts`` (granted Deeds for Poverty,
    paid Debts for Prosperity); seats with none, or past the last paying place, get nothing
    and are left out."""
    places = awards(players)
    eligible = sorted({n for n in counts.values() if n >= 1}, reverse=True)
    out: dict[str, Fraction] = {}
    place = 0
    for value in eligible:
        if place >= len(places):
            break
        group = sorted(seat for seat, n in counts.items() if n == value)
        share = Fraction(sum(places[place : place + len(group)]), len(group))
        out.update((seat, share) for seat in group)
        place += len(group)
    return out
