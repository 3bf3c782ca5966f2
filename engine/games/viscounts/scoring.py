"""Final scoring, itemised (digest §7, seed L741-808; §9 checks 41-43).

Buildings by type on the strip's VP table, Castle Workers by level, Manuscripts (each one's own
condition, then the best sets of different ribbons), Lord of the Castle 5, Church Favour 3
each, −2 per unpaid Debt, +1 per acquired and +3 per granted Deed, then Poverty / Prosperity
majorities (12/8/4; 12/4 under 3 players). Persistent Townsfolk abilities do not count and
Villains are not wild (seed L264-265, L736): Manuscript conditions count printed symbols.
A tied share such as 4/3 is rounded down (VW-15). Solo (seed L1003-1015): the AI scores like
a player plus 1 VP per unused resource, and you win only with strictly more VP (VW-54).
"""

from __future__ import annotations

from collections import Counter

from engine.game import Line, ScoreRow
from engine.games.viscounts import kingdom, rules
from engine.games.viscounts.effects import Gain
from engine.games.viscounts.ribbon_sets import best_vp
from engine.games.viscounts.sources import ref
from engine.games.viscounts.state import VState

REF = ref("§7", "L741-808")
SOLO_REF = ref("§8", "L1003-1012")


def lines(state: VState, i: int) -> list[Line]:
    """The seat's score lines, in the rulebook's order (without the kingdom majorities)."""
    p = state.players[i]
    data = state.data
    seat = p.seat
    out: list[Line] = []
    built = Counter(k for k, _, _ in p.built)
    for b in data.buildings:
        vp = b.vp[built[b.kind]] or 0
        if vp:
            out.append(
                Line(seat, vp, "score/buildings", REF, {"building": b.kind, "count": built[b.kind]})
            )
    c = state.castle
    castle = sum(s[i] for s in c.level1) + 2 * sum(s[i] for s in c.level2) + 3 * c.level3[i]
    if castle:
        out.append(Line(seat, castle, "score/castle", REF))
    for mid in p.manuscripts:
        m = rules.manuscript(data, mid)
        if m.scoring is None:
            continue
        vp = 0
        for atom in m.scoring.reward[0]:
            if isinstance(atom, Gain) and atom.what == "vp":
                vp += atom.amount * (rules.counter(state, i, atom.per) if atom.per else 1)
        if vp:
            out.append(Line(seat, vp, "score/manuscript", REF, {"manuscript": mid}))
    ribbons = [rules.manuscript(data, mid).ribbon or "" for mid in p.manuscripts]
    set_vp = tuple(v or 0 for v in data.set_vp)
    total_sets = best_vp(ribbons, set_vp)
    if total_sets:
        out.append(Line(seat, total_sets, "score/sets", REF))
    if state.lord == i:
        out.append(Line(seat, 5, "score/lord", REF))
    for f in data.church_favour:
        if f.id in p.favours:
            out.append(Line(seat, f.vp, "score/favour", REF, {"favour": f.id}))
    if p.debts:
        out.append(Line(seat, -2 * p.debts, "score/debts", REF, {"count": p.debts}))
    if p.deeds:
        out.append(Line(seat, p.deeds, "score/deeds", REF, {"count": p.deeds}))
    if p.granted:
        out.append(Line(seat, 3 * p.granted, "score/granted", REF, {"count": p.granted}))
    return out


def kingdom_lines(state: VState) -> dict[int, list[Line]]:
    n = len(state.players)
    out: dict[int, list[Line]] = {i: [] for i in range(n)}
    for uncovered, code, key in ((state.poverty, "score/poverty", "granted"),
                                 (state.prosperity, "score/prosperity", "paid")):  # fmt: skip
        if not uncovered:
            continue
        counts = {str(i): getattr(p, key) for i, p in enumerate(state.players)}
        for k, share in kingdom.majority(counts, n).items():
            vp = int(share)  # VW-15: a share such as 4/3 rounds down
            if vp:
                out[int(k)].append(Line(state.players[int(k)].seat, vp, code, REF))
    return out


def score(state: VState) -> tuple[ScoreRow, ...]:
    """Every seat's total with its lines; rank by VP, then Silver + resources (seed L776-778);
    a full tie shares the place."""
    extra = kingdom_lines(state)
    rows = []
    for i, p in enumerate(state.players):
        ls = (*lines(state, i), *extra[i])
        if state.solo is not None and state.solo.seat == i and p.ink + p.stone + p.gold:
            ls = (*ls, Line(p.seat, p.ink + p.stone + p.gold, "score/ai-resources", SOLO_REF))
        tie = (p.silver + p.ink + p.stone + p.gold,)
        rows.append((p.seat, sum(x.amount for x in ls), ls, tie))
    if state.solo is not None:  # only more VP than the AI wins; the AI wins a tie (VW-54)
        ai = state.solo.seat
        rows = [(seat, t, ls, (int(k == ai),)) for k, (seat, t, ls, _) in enumerate(rows)]
    keys = sorted({(t, tb) for _, t, _, tb in rows}, reverse=True)
    return tuple(
        ScoreRow(seat, total, tuple(ls), tb, 1 + sum(1 for k in keys if k > (total, tb)))
        for seat, total, ls, tb in rows
    )


def winners(state: VState) -> tuple[str, ...]:
    if state.phase != "over":
        return ()
    return tuple(r.seat for r in score(state) if r.rank == 1)
