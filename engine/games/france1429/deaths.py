"""A Lord's death (Plague, Assassination, Justice, Uprising, battle) and where his titles go.

Digest §7.4: his Fief titles pass at once to another Lord of his family (one with fewer than 2);
if he was the last and married, to his spouse; otherwise the crown returns to the map. His
Bishop staff, Cardinal biretta and Pope counter return to the board (§10.4); a Cardinal or
d'ARC card and his own Lord card go to the Lords discard pile. A King's death makes the Crown
Prince King, with the dead King's Fief titles (EN) or without them (PL; option
``crown_prince_titles``, FR-8), or the Queen Queen Regent.
A marriage ends with a spouse's death (§10.1).
"""

from __future__ import annotations

from dataclasses import replace

from engine.games.france1429 import control
from engine.games.france1429.state import CARDINAL, DARC, FranceState, Lord


def _heir(state: FranceState, dead: Lord) -> Lord | None:
    family = [x for x in state.lords if x.seat == dead.seat and x.id != dead.id]
    room = [x for x in family if len(x.fiefs) < 2]
    if room:
        return room[0]
    if not family and dead.spouse is not None:
        spouse = state.find_lord(dead.spouse)
        if spouse is not None and len(spouse.fiefs) < 2:
            return spouse
    return None


def kill(state: FranceState, lid: str) -> FranceState:
    """The state after Lord ``lid`` dies."""
    dead = state.lord(lid)
    discard = dict(state.lord_discard)
    for card in (
        dead.id,
        CARDINAL if dead.cardinal and not dead.biretta else "",
        DARC if dead.darc else "",
    ):
        if card:
            discard[card] = discard.get(card, 0) + 1
    supply = dict(state.supply)
    if dead.biretta:
        supply["biretta"] = 1
    state = replace(
        state,
        lords=tuple(x for x in state.lords if x.id != lid),
        lord_discard=discard,
        supply=supply,
        fallen=(*state.fallen, dead),
    )
    prince = next((x for x in state.lords if x.crown_prince), None) if dead.king else None
    if prince is not None and state.option("crown_prince_titles") == "en":
        # EN §1.8.1: "the Crown Prince immediately becomes the new King and gains the King's
        # Titles" (PL: the crown only, his Fief titles go to his family as any Lord's, FR-8)
        state = state.with_lord(replace(prince, fiefs=(*prince.fiefs, *dead.fiefs)))
    else:
        for fief in dead.fiefs:
            heir = _heir(state, dead)
            if heir is not None:
                state = state.with_lord(replace(heir, fiefs=(*heir.fiefs, fief)))
    if dead.spouse is not None and state.find_lord(dead.spouse) is not None:
        state = state.with_lord(replace(state.lord(dead.spouse), spouse=None))
    if dead.pope:  # an excommunication ends with the Pope who pronounced it (§10.5)
        for x in state.lords:
            if x.excommunicated:
                state = state.with_lord(replace(x, excommunicated=False))
    if dead.king:
        prince = next((x for x in state.lords if x.crown_prince), None)
        queen = next((x for x in state.lords if x.queen), None)
        if prince is not None:
            state = state.with_lord(replace(prince, king=True, crown_prince=False))
            if queen is not None:
                state = state.with_lord(replace(state.lord(queen.id), queen=False))
        elif queen is not None:
            state = state.with_lord(replace(queen, queen=False, regent=True))
    if state.relics:
        state = _drop_relics(state, dead.id, dead.village)
    return control.refresh(state, dead.village)


def _drop_relics(state: FranceState, lid: str, village: str) -> FranceState:
    """A dead carrier's relics lie where he died (a relic is never destroyed, §12.2)."""
    relics = {r: (f"v:{village}" if w == f"l:{lid}" else w) for r, w in state.relics.items()}
    return replace(state, relics=relics)


def _take_back(counts: dict[str, int], card: str) -> dict[str, int]:
    out = dict(counts)
    if out.get(card, 0) > 0:
        out[card] -= 1
        if not out[card]:
            del out[card]
    return out


def revive(state: FranceState, dead: Lord) -> FranceState:
    """The Teeth of Saint Géronce cancel a death (§12.2, FR-34): the Lord stands again as he
    was, his titles included (PL): his Fief titles come back from whoever inherited them, his
    cards from the Lords discard pile, his marriage if his spouse lives, his crown from the
    Crown Prince or the Queen Regent. Relics he carried lie where he fell."""
    discard = state.lord_discard
    for card in (
        dead.id,
        CARDINAL if dead.cardinal and not dead.biretta else "",
        DARC if dead.darc else "",
    ):
        if card:
            discard = _take_back(discard, card)
    supply = dict(state.supply)
    if dead.biretta:
        supply["biretta"] = 0
    for x in state.lords:
        if set(x.fiefs) & set(dead.fiefs):
            kept = tuple(f for f in x.fiefs if f not in dead.fiefs)
            state = state.with_lord(replace(x, fiefs=kept))
    spouse = state.find_lord(dead.spouse) if dead.spouse else None
    if spouse is not None and spouse.spouse is None:
        state = state.with_lord(replace(spouse, spouse=dead.id))
    else:
        dead = replace(dead, spouse=None, queen=False)
    if dead.king:
        for x in state.lords:
            if x.king:
                state = state.with_lord(replace(x, king=False, crown_prince=True))
            if x.regent or (x.id == dead.spouse and not x.queen):
                state = state.with_lord(replace(state.lord(x.id), regent=False, queen=True))
    state = replace(state, lords=(*state.lords, dead), lord_discard=discard, supply=supply)
    return control.refresh(state, dead.village)
