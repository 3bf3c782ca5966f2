"""End of game: −10 per empty estate, most coins wins, tie-breaks from Palace leftwards.

[L439-452]: after the last event card every player loses 10 coins per estate column with no
tile; the richest wins; ties go to most Palaces, then most Churches, then the other estates from
right to left. A tie that survives all eight comparisons is shared (the text is silent, §12.15).
"""

from __future__ import annotations

from engine.game import Line, ScoreRow
from engine.games.middle_ages.components import EMPTY_ESTATE_PENALTY, ESTATES, ref
from engine.games.middle_ages.income import count
from engine.games.middle_ages.state import Player, State

REF_PENALTY = ref("§1 end", "L439-443")
REF_WINNER = ref("§1 winner and tie-breaks", "L445-452")


def score_row(player: Player) -> tuple[int, tuple[Line, ...], tuple[int, ...]]:
    empty = [e for e in ESTATES if count(player, e) == 0]
    lines = (
        Line("coins", player.coins, "line/coins", REF_WINNER, {"coins": player.coins}),
        Line(
            "empty-estates",
            -EMPTY_ESTATE_PENALTY * len(empty),
            "line/empty-estates",
            REF_PENALTY,
            {"estates": empty, "count": len(empty)},
        ),
    )
    tiebreak = tuple(count(player, e) for e in reversed(ESTATES))
    return sum(line.amount for line in lines), lines, tiebreak


def score(state: State) -> tuple[ScoreRow, ...]:
    """Every seat's score (standing until the game ends), ranked; equal keys share a rank."""
    rows = [(p.seat, *score_row(p)) for p in state.players]
    keys = sorted({(total, tb) for _, total, _, tb in rows}, reverse=True)
    rank = {k: 1 + sum(1 for other in keys if other > k) for k in keys}
    out = [ScoreRow(seat, total, lines, tb, rank[(total, tb)]) for seat, total, lines, tb in rows]
    return tuple(sorted(out, key=lambda r: (r.rank, state.seats.index(r.seat))))


def winners(state: State) -> tuple[str, ...]:
    if state.phase != "over":
        return ()
    return tuple(r.seat for r in score(state) if r.rank == 1)
