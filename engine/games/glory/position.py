"""Whole-position checks of a Glory table: every fault of an observed or loaded state at once.

A state read from a file or rebuilt from the table must hold what the rules allow: no negative
tokens, equipment within Levels I-IV, at most one Prestige token of a kind [L1008-1010], at most
6 pawns [L153], at most 4 Strength on a Player Board [L799-807], cards that exist in the box,
and each player's Glory equal to the sum of their ledger lines (§8, §9 check 41).
"""

from __future__ import annotations

from collections import Counter

from engine.games.glory.effects import box
from engine.games.glory.refs import v
from engine.games.glory.state import GloryState
from engine.violations import Violation


def check_position(state: GloryState) -> list[Violation]:
    out: list[Violation] = []
    b = box(state)
    seats = [p.seat for p in state.players]
    if len(set(seats)) != len(seats):
        out.append(v("position/seats", "setup"))
    if state.order and sorted(state.order) != sorted(seats):
        out.append(v("position/order", "order", seats=", ".join(seats)))
    for p in state.players:
        for what in ("coins", "strength", "faith", "pawns"):
            if getattr(p, what) < 0:
                out.append(v("position/negative", "overview", seat=p.seat, what=what))
        if p.pawns > 6:
            out.append(v("position/pawns", "action", seat=p.seat, pawns=p.pawns))
        for item in ("horse", "armour"):
            if not 1 <= getattr(p, item) <= 4:
                out.append(v("position/level", "equipment", seat=p.seat, item=item))
        kinds = Counter(x.kind for x in p.prestige)
        for kind, n in kinds.items():
            if n > 1:
                out.append(v("position/prestige-twice", "prestige-unique", seat=p.seat,
                             kind=kind))  # fmt: skip
        for card in (*p.hand, *p.played):
            if card not in b.quests:
                out.append(v("position/unknown-card", "quest", seat=p.seat, card=card))
        for card in p.goals:
            if card not in b.titles:
                out.append(v("position/unknown-card", "titles", seat=p.seat, card=card))
        if p.character and p.character not in b.characters:
            out.append(v("position/unknown-card", "characters", seat=p.seat, card=p.character))
        ledger = sum(x.amount for x in state.ledger if x.seat == p.seat)
        if ledger != p.glory:
            out.append(v("position/ledger", "ledger", seat=p.seat, glory=p.glory, ledger=ledger))
    for card in state.public_titles:
        if card not in b.titles:
            out.append(v("position/unknown-card", "titles", seat="-", card=card))
    if state.duel is not None:
        for board in state.duel.boards:
            if board.committed > 4:
                out.append(v("position/strength", "action", committed=board.committed))
    return out
