"""Every fault of a whole France 1429 position at once (an observed or edited table): the
counters and limits the rules keep (digest §2, §7, §10), each a ``Violation`` naming it."""

from __future__ import annotations

from engine.games.france1429.refs import refusal
from engine.games.france1429.state import FranceState
from engine.violations import Violation


def check_position(state: FranceState) -> list[Violation]:
    out: list[Violation] = []
    rules = state.rules
    for seat in state.seats:
        lords = state.lords_of(seat)
        if len(lords) > 4:
            out.append(refusal("position/lords", "lord-card", seat=seat, count=len(lords)))
        for key, stock_key in (("maa", "maa"), ("knights", "knights")):
            on_map = sum(getattr(t, key) for t in state.troops if t.seat == seat)
            if on_map > rules.stock[stock_key]:
                out.append(refusal("position/counters", "purchase", seat=seat, item=key))
        if len(state.family(seat).hand) > 3:
            out.append(refusal("position/hand", "draw", seat=seat))
    for place in state.places:
        if place.mills > 2:
            out.append(refusal("position/mills", "purchase", village=place.id))
    for fief in rules.fiefs():
        holders = [x.id for x in state.lords if fief in x.fiefs]
        forts = [v for v in rules.in_fief(fief) if state.place(v).fort == "fortified"]
        if len(holders) > 1 or len(forts) > 1:
            out.append(refusal("position/fief", "title", fief=fief))
    for lord in state.lords:
        if len(lord.fiefs) > 2:
            out.append(refusal("position/two-titles", "title", lord=lord.id))
    for flag in ("king", "queen", "pope", "crown_prince", "darc"):
        if sum(getattr(x, flag) for x in state.lords) > 1:
            out.append(refusal("position/title-twice", "election", title=flag))
    for number in sorted({v.bishopric for v in rules.villages}):
        if sum(x.bishop == number for x in state.lords) > 1:
            out.append(refusal("position/title-twice", "election", title=f"bishop:{number}"))
    return out
