"""Village control (digest §8.4): the first family to arrive controls a Village; a Village left
empty is uncontrolled, except in a Governed Fief, whose titled Lord's family controls it.

``Place.present`` keeps the families with an uncaptured Lord or troops in a Village in the order
they arrived, so control passes to the next arrival when the controller leaves (the PL FAQ lets
the leaving controller choose; the referee takes arrival order: FR-5).
"""

from __future__ import annotations

from dataclasses import replace

from engine.games.france1429.state import FranceState


def fief_holder(state: FranceState, fief: str) -> str | None:
    """The family whose Lord holds the Fief's title (the Fief is Governed), or None."""
    for lord in state.lords:
        if fief in lord.fiefs:
            return lord.seat
    return None


def controller(state: FranceState, village: str) -> str | None:
    """Who controls ``village``: the first family present, else the Governed Fief's holder."""
    place = state.place(village)
    if place.present:
        return place.present[0]
    return fief_holder(state, state.rules.village(village).fief)


def is_present(state: FranceState, seat: str, village: str) -> bool:
    """The family has troops or an uncaptured Lord in the Village."""
    if state.troops_at(seat, village).count() > 0:
        return True
    return any(x.seat == seat and x.captor is None for x in state.lords_at(village))


def occupants(state: FranceState, village: str) -> tuple[str, ...]:
    """Families present in the Village, in arrival order."""
    return state.place(village).present


def refresh(state: FranceState, village: str) -> FranceState:
    """``present`` after units came or went: arrivals appended in order, leavers dropped. A
    captive whose captor has nobody left in the Village is free again (§9.7: he stays captive
    while in the same space as the captor's troops or Lords; FR-23)."""
    for lord in state.lords_at(village):
        if lord.captor is not None and not is_present(state, lord.captor, village):
            state = state.with_lord(replace(lord, captor=None))
    place = state.place(village)
    kept = [s for s in place.present if is_present(state, s, village)]
    for seat in state.seats:
        if seat not in kept and is_present(state, seat, village):
            kept.append(seat)
    if tuple(kept) == place.present:
        return follow_fortified(state, village)
    besieger, engine = place.besieged_by, place.engine
    if besieger is not None and (besieger not in kept or kept[0] == besieger):
        stock = dict(state.stock.get(besieger, {}))
        stock["engines"] = stock.get("engines", 0) + 1  # the engine goes back (§9.6)
        state = replace(state, stock={**state.stock, besieger: stock})
        besieger, engine = None, 0
    state = state.with_place(
        replace(
            place,
            present=tuple(kept),
            besieged_by=besieger,
            engine=engine,
            since=place.since if besieger else 0,
        )
    )
    return follow_fortified(state, village)


def follow_fortified(state: FranceState, village: str) -> FranceState:
    """Whoever controls a Fief's Fortified City holds its title (§7.4): a family that takes the
    City (or holds it when the title lies unclaimed and it has a Lord with fewer than 2 titles)
    takes the title from its holder, onto one of its Lords (FR-31)."""
    place = state.place(village)
    if place.fort != "fortified" or not place.present or place.besieged_by is not None:
        return state
    seat = place.present[0]
    fief = state.rules.village(village).fief
    holder = next((x for x in state.lords if fief in x.fiefs), None)
    if holder is not None and holder.seat == seat:
        return state
    heir = next((x for x in state.lords_of(seat) if len(x.fiefs) < 2), None)
    if heir is None:
        return state
    if holder is not None:
        state = state.with_lord(replace(holder, fiefs=tuple(f for f in holder.fiefs if f != fief)))
    heir = state.lord(heir.id)
    return state.with_lord(replace(heir, fiefs=(*heir.fiefs, fief)))


def controlled_by(state: FranceState, seat: str) -> tuple[str, ...]:
    """Every Village the family controls."""
    return tuple(v.id for v in state.rules.villages if controller(state, v.id) == seat)


def besieged(state: FranceState, village: str) -> bool:
    return state.place(village).besieged_by is not None
