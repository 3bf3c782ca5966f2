"""Victory at the end of a round (digest §1.1-1.2).

VP: 1 per Fief title, 1 for the King, 1 for the Pope (the Queen, Bishops, Cardinals and the
Crown Prince give none). A family with 3 VP wins alone; two families allied by marriage win
together with 4 VP between them; alliances exist only with 4 or more players, and a family in
an alliance cannot win alone. A solo victory beats an alliance victory. Ties are broken by: the
King, the Pope, the Queen Regent, most Fief titles, most Bishoprics, most Villages.

Ties the rules leave open (digest §15 item 24): alliances are compared on the same keys summed
over both families; a tie past the last key leaves every tied winner winning (FR-14).
"""

from __future__ import annotations

from engine.games.france1429.control import controlled_by
from engine.games.france1429.state import FranceState

SOLO_VP = 3
ALLIANCE_VP = 4
ALLIANCE_PLAYERS = 4


def vp(state: FranceState, seat: str) -> int:
    lords = state.lords_of(seat)
    return sum(len(x.fiefs) + x.king + x.pope for x in lords)


def ally(state: FranceState, seat: str) -> str | None:
    """The family allied to ``seat`` by marriage (4+ players only), or None."""
    if len(state.seats) < ALLIANCE_PLAYERS:
        return None
    for lord in state.lords_of(seat):
        if lord.spouse is not None:
            spouse = state.find_lord(lord.spouse)
            if spouse is not None and spouse.seat != seat:
                return spouse.seat
    return None


def tiebreak(state: FranceState, seat: str) -> tuple[int, ...]:
    """King, Pope, Queen Regent, Fief titles, Bishoprics, Villages (compared descending)."""
    lords = state.lords_of(seat)
    return (
        int(any(x.king for x in lords)),
        int(any(x.pope for x in lords)),
        int(any(x.regent for x in lords)),
        sum(len(x.fiefs) for x in lords),
        sum(x.bishop is not None for x in lords),
        len(controlled_by(state, seat)),
    )


def _best(groups: list[tuple[str, ...]], state: FranceState) -> tuple[str, ...]:
    def key(group: tuple[str, ...]) -> tuple[int, ...]:
        keys = [tiebreak(state, s) for s in group]
        return tuple(sum(k[i] for k in keys) for i in range(len(keys[0])))

    top = max(key(g) for g in groups)
    return tuple(s for g in groups if key(g) == top for s in g)


def winners(state: FranceState) -> tuple[str, ...]:
    """The winning seats at the end of this round (empty: play on)."""
    solo: list[tuple[str, ...]] = [
        (s,) for s in state.seats if ally(state, s) is None and vp(state, s) >= SOLO_VP
    ]
    if solo:
        return _best(solo, state)
    pairs: list[tuple[str, ...]] = []
    for s in state.seats:
        other = ally(state, s)
        if other is not None and s < other and vp(state, s) + vp(state, other) >= ALLIANCE_VP:
            pairs.append((s, other))
    return _best(pairs, state) if pairs else ()
