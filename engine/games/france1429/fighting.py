"""Phase 1 marriages and the parts of Phase 6 that need no battle dice: capturing Lords who
stand alone, and Pillage (digest §9.1, §9.8, §10.1).

Marriage (§10.1): an unmarried male Lord who is not a Bishop, Cardinal or Pope and an unmarried
Lady who is not d'ARC, of two families neither of which is married already; the other family
answers. A King's bride becomes Queen at once.
"""

from __future__ import annotations

from dataclasses import replace

from engine.games.france1429 import control
from engine.games.france1429.income import has_card
from engine.games.france1429.moves import Answer, Capture, GiveTitle, Pillage, Propose, Siege
from engine.games.france1429.refs import refuse
from engine.games.france1429.stack import pop, push
from engine.games.france1429.state import HEAVY_RAIN, FranceState, Pending


def married(state: FranceState, seat: str) -> bool:
    return any(x.spouse is not None for x in state.lords_of(seat))


def propose_problem(state: FranceState, p: Propose) -> str | None:
    groom, bride = state.find_lord(p.groom), state.find_lord(p.bride)
    if groom is None or bride is None or p.seat not in (groom.seat, bride.seat):
        return "marriage/lords"
    if groom.seat == bride.seat:
        return "marriage/same-family"
    if p.seat in state.proposed:
        return "marriage/once"
    if state.sex(groom.id) != "male" or state.sex(bride.id) != "female":
        return "marriage/sexes"
    if groom.spouse or bride.spouse or married(state, groom.seat) or married(state, bride.seat):
        return "marriage/married"
    if groom.bishop is not None or groom.cardinal or groom.pope:
        return "marriage/clergy"
    if bride.darc:
        return "marriage/darc"
    if groom.captor is not None or bride.captor is not None:
        return "marriage/captive"
    return None


def propose(state: FranceState, p: Propose) -> FranceState:
    why = propose_problem(state, p)
    if why is not None:
        raise refuse(why, "marriage", groom=p.groom, bride=p.bride)
    other = (
        state.lord(p.bride).seat if state.lord(p.groom).seat == p.seat else state.lord(p.groom).seat
    )
    state = replace(state, proposed=(*state.proposed, p.seat))
    return push(state, Pending("consent", other, by=p.seat, lord=p.groom, other=p.bride))


def answer_proposal(state: FranceState, a: Answer) -> FranceState:
    top = state.pending[-1]
    state = pop(state)
    if not a.yes:
        return state
    groom, bride = state.lord(top.lord), state.lord(top.other)
    state = state.with_lord(replace(groom, spouse=bride.id))
    return state.with_lord(replace(bride, spouse=groom.id, queen=groom.king or bride.queen))


def propose_moves(state: FranceState, seat: str) -> list[Propose]:
    if seat in state.proposed or married(state, seat):
        return []
    out = []
    for mine in state.lords_of(seat):
        for theirs in state.lords:
            if theirs.seat == seat:
                continue
            for groom, bride in ((mine, theirs), (theirs, mine)):
                p = Propose(seat, groom.id, bride.id)
                if propose_problem(state, p) is None:
                    out.append(p)
    return out


# --- Phase 6 ----------------------------------------------------------------------------------


def capture_problem(state: FranceState, c: Capture) -> str | None:
    if c.village not in {v.id for v in state.rules.villages}:
        return "battle/where"
    if has_card(state, state.rules.village(c.village).bishopric, HEAVY_RAIN):
        return "battle/heavy-rain"
    mine = state.troops_at(c.seat, c.village).count()
    lord = any(x.seat == c.seat and x.captor is None for x in state.lords_at(c.village))
    if not mine or not lord:
        return "battle/needs-lord-and-troops"
    alone = [
        x
        for x in state.lords_at(c.village)
        if x.seat != c.seat and x.captor is None and state.troops_at(x.seat, c.village).count() == 0
    ]
    return None if alone else "battle/no-lone-lord"


def capture(state: FranceState, c: Capture) -> FranceState:
    """The army takes every opposing Lord standing alone in the Village, no dice (§9.1)."""
    why = capture_problem(state, c)
    if why is not None:
        raise refuse(why, "battle", village=c.village)
    for lord in state.lords_at(c.village):
        if (
            lord.seat != c.seat
            and lord.captor is None
            and not state.troops_at(lord.seat, c.village).count()
        ):
            state = state.with_lord(replace(lord, captor=c.seat))
    return control.refresh(state, c.village)


def pillage_problem(state: FranceState, p: Pillage) -> str | None:
    if p.village not in {v.id for v in state.rules.villages}:
        return "pillage/where"
    place = state.place(p.village)
    mine = control.controller(state, p.village) == p.seat and place.besieged_by is None
    if not (mine or place.besieged_by == p.seat):
        return "pillage/not-yours"
    return None if place.mills > 0 else "pillage/no-mill"


def pillage(state: FranceState, p: Pillage) -> FranceState:
    """One Mill removed to the supply, +1 Denier from the bank (§9.8)."""
    why = pillage_problem(state, p)
    if why is not None:
        raise refuse(why, "pillage", village=p.village)
    place = state.place(p.village)
    fam = state.family(p.seat)
    supply = {**state.supply, "mills": state.supply.get("mills", 0) + 1}
    state = state.with_place(replace(place, mills=place.mills - 1)).with_family(
        replace(fam, deniers=fam.deniers + 1)
    )
    return replace(state, supply=supply)


def battle_moves(state: FranceState, seat: str) -> list[Capture]:
    out = []
    for v in state.rules.villages:
        c = Capture(seat, v.id)
        if capture_problem(state, c) is None:
            out.append(c)
    return out


def pillage_moves(state: FranceState, seat: str) -> list[Pillage]:
    out = []
    for v in state.rules.villages:
        p = Pillage(seat, v.id)
        if pillage_problem(state, p) is None:
            out.append(p)
    return out


def siege_problem(state: FranceState, s: Siege) -> str | None:
    """§9.6 (§13 item 50): own Lord and troops in a Village whose Stronghold or Fortified City
    another family holds, not besieged yet, a Siege Engine left (2 per family)."""
    if s.village not in {v.id for v in state.rules.villages}:
        return "battle/where"
    place = state.place(s.village)
    if place.fort == "none":
        return "siege/no-fortification"
    owner = control.controller(state, s.village)
    if owner is None or owner == s.seat:
        return "siege/not-opposing"
    if place.besieged_by is not None:
        return "siege/already"
    mine = state.troops_at(s.seat, s.village).count()
    lord = any(x.seat == s.seat and x.captor is None for x in state.lords_at(s.village))
    if not mine or not lord:
        return "battle/needs-lord-and-troops"
    if state.stock_of(s.seat, "engines") < 1:
        return "siege/no-engine"
    return None


def siege(state: FranceState, s: Siege) -> FranceState:
    """A Siege Engine goes with the besieger's troops, 1-die side up: the Village yields no
    income, the besieged neither leave nor take new troops (§9.6)."""
    why = siege_problem(state, s)
    if why is not None:
        raise refuse(why, "siege", village=s.village)
    stock = dict(state.stock[s.seat])
    stock["engines"] -= 1
    place = replace(state.place(s.village), besieged_by=s.seat, engine=1, since=state.round)
    return replace(state.with_place(place), stock={**state.stock, s.seat: stock})


def continue_sieges(state: FranceState, seat: str) -> FranceState:
    """``seat`` ends its Battles: each siege it declared in an earlier round goes on, and its
    engine turns to the 2-dice side only now, after its battles (EN §6.4 "If during the next
    round this Player decides to continue the Siege after he has resolved his battles, he will
    flip the 1 Battle Die Siege Engine counter"; PL L1829-1832; the §6.4.2 example, PL
    L1917-1923: Kirsten attacks L'Epervier in the next round with the 1-die side)."""
    places = tuple(
        replace(p, engine=2) if p.besieged_by == seat and p.since < state.round else p
        for p in state.places
    )
    return replace(state, places=places)


def siege_moves(state: FranceState, seat: str) -> list[Siege]:
    out = []
    for v in state.rules.villages:
        s = Siege(seat, v.id)
        if siege_problem(state, s) is None:
            out.append(s)
    return out


# --- Phase 4: Fief titles within a family ------------------------------------------------------

RANK = {2: 0, 3: 1, 4: 2}


def give_problem(state: FranceState, g: GiveTitle) -> str | None:
    """§7.4: a Lord with 2 Fief titles hands the smaller to another Lord of his family and
    keeps the largest (Duchy > County > Barony)."""
    holder = next((x for x in state.lords_of(g.seat) if g.fief in x.fiefs), None)
    to = state.find_lord(g.to)
    if holder is None or to is None or to.seat != g.seat or to.id == holder.id:
        return "title/give-lords"
    if len(holder.fiefs) < 2:
        return "title/give-two"
    size = {f: len(state.rules.in_fief(f)) for f in holder.fiefs}
    if size[g.fief] > min(size.values()):
        return "title/give-largest"
    if len(to.fiefs) >= 2:
        return "buy/title-two"
    return None


def give_title(state: FranceState, g: GiveTitle) -> FranceState:
    why = give_problem(state, g)
    if why is not None:
        raise refuse(why, "title", fief=g.fief, lord=g.to, where=g.fief, item="title")
    holder = next(x for x in state.lords_of(g.seat) if g.fief in x.fiefs)
    state = state.with_lord(replace(holder, fiefs=tuple(f for f in holder.fiefs if f != g.fief)))
    to = state.lord(g.to)
    return state.with_lord(replace(to, fiefs=(*to.fiefs, g.fief)))


def give_moves(state: FranceState, seat: str) -> list[GiveTitle]:
    out = []
    for holder in state.lords_of(seat):
        if len(holder.fiefs) == 2:
            for fief in holder.fiefs:
                for to in state.lords_of(seat):
                    g = GiveTitle(seat, fief, to.id)
                    if give_problem(state, g) is None:
                        out.append(g)
    return out
