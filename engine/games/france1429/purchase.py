"""Phase 4, Purchase (digest §7): ransoms first, then each family buys one item at a time.

Price list (§7.2): Men at Arms 1, Knight 3, Mill 3, Stronghold 10, Fief title 2 × its
Villages, the purchasable Cardinal biretta 5. Limits: the counters left (a family's 13 Men at
Arms and 8 Knights, the 15 Mills and 12 Strongholds, the one biretta); new troops only where a
family has an uncaptured Lord or controls a Stronghold or Fortified City, never into its own
besieged fortification, at most 4 new counters per Village per phase (§7.3); Mills (at most 2)
and a Stronghold (at most 1 fortification) only on a Village the buyer controls. A Fief title
needs every Village of the Fief and a Stronghold there; its Stronghold becomes the Fortified
City; a Lord holds at most 2 Fief titles (§7.4). The King (or Queen Regent) grants an unclaimed
title free: to his own family's Lord it is a purchase for 0; to another family's Lord it is
offered, and that family answers (FR-11).

Ransom (§7.6): 2 + 2 per title; paid automatically at the start of the phase when the owner
can pay in full, the most valuable captive first (PL; EN silent, FR-12).
"""

from __future__ import annotations

from dataclasses import replace

from engine.games.france1429 import control
from engine.games.france1429.cards import lord_entry
from engine.games.france1429.moves import Buy, Grant
from engine.games.france1429.refs import refuse
from engine.games.france1429.stack import pop, push
from engine.games.france1429.state import FranceState, Pending, Troops

NEW_TROOPS_PER_VILLAGE = 4
MAX_MILLS = 2
MAX_FIEFS = 2


def ransom(state: FranceState, lid: str) -> int:
    """2 Deniers + 2 per title the captive holds (§7.6)."""
    return 2 + 2 * state.lord(lid).title_count()


def title_cost(state: FranceState, fief: str) -> int:
    """2 × the Fief's Villages: Barony 4, County 6, Duchy 8 (§7.2)."""
    return state.rules.prices["title_per_village"] * len(state.rules.in_fief(fief))


def pay_ransoms(state: FranceState) -> FranceState:
    """Every ransom a family can pay in full is paid, most valuable captive first; the Lord is
    freed and placed as a new Lord is (§7.6)."""
    lines = []
    for seat in state.order():
        captives = sorted(
            (x for x in state.lords if x.seat == seat and x.captor is not None),
            key=lambda x: (-ransom(state, x.id), x.id),
        )
        for lord in captives:
            price = ransom(state, lord.id)
            fam = state.family(seat)
            if fam.deniers < price or lord.captor is None:
                continue
            captor = state.family(lord.captor)
            state = state.with_family(replace(fam, deniers=fam.deniers - price))
            state = state.with_family(
                replace(
                    state.family(captor.seat), deniers=state.family(captor.seat).deniers + price
                )
            )
            state = state.with_lord(replace(state.lord(lord.id), captor=None))
            where = lord_entry(state, seat)
            if where and lord.village not in where:
                state = state.with_lord(replace(state.lord(lord.id), village=where[0]))
            state = control.refresh(
                control.refresh(state, lord.village), state.lord(lord.id).village
            )
            lines.append((seat, captor.seat, lord.id, price))
    return state


def troop_villages(state: FranceState, seat: str) -> tuple[str, ...]:
    """Where the family may place new troops (§7.3)."""
    out = []
    for v in state.rules.villages:
        place = state.place(v.id)
        ctrl = control.controller(state, v.id)
        lord_here = any(x.seat == seat and x.captor is None for x in state.lords_at(v.id))
        fort_here = place.fort != "none" and ctrl == seat
        if not (lord_here or fort_here):
            continue
        if place.besieged_by is not None and ctrl == seat:
            continue  # a besieged fortification takes no new troops of its own side
        out.append(v.id)
    return tuple(out)


def title_problem(state: FranceState, seat: str, fief: str, lid: str) -> str | None:
    if fief not in state.rules.fiefs():
        return "buy/unknown-fief"
    if control.fief_holder(state, fief) is not None:
        return "buy/title-held"
    villages = state.rules.in_fief(fief)
    if any(control.controller(state, v) != seat for v in villages):
        return "buy/title-control"
    if not any(state.place(v).fort != "none" for v in villages):
        return "buy/title-stronghold"
    lord = state.find_lord(lid)
    if lord is None or lord.seat != seat:
        return "buy/title-lord"
    if len(lord.fiefs) >= MAX_FIEFS:
        return "buy/title-two"
    return None


def price(state: FranceState, move: Buy) -> int:
    if move.item == "title":
        king = any(x.seat == move.seat and (x.king or x.regent) for x in state.lords)
        return 0 if king else title_cost(state, move.where)
    return state.rules.prices[move.item]


def problem(state: FranceState, move: Buy) -> str | None:
    """Why the purchase is refused (None: it is allowed)."""
    seat = move.seat
    fam = state.family(seat)
    villages = {v.id for v in state.rules.villages}
    if move.item in ("maa", "knight", "mill", "stronghold") and move.where not in villages:
        return "buy/where"
    if move.item == "title":
        why = title_problem(state, seat, move.where, move.lord)
        if why:
            return why
    elif move.item in ("maa", "knight"):
        key = "maa" if move.item == "maa" else "knights"
        if state.stock_of(seat, key) < 1:
            return "buy/sold-out"
        if move.where not in troop_villages(state, seat):
            return "buy/troop-place"
        if fam.placed.get(move.where, 0) >= NEW_TROOPS_PER_VILLAGE:
            return "buy/four-per-village"
    elif move.item in ("mill", "stronghold"):
        if control.controller(state, move.where) != seat:
            return "buy/not-controlled"
        place = state.place(move.where)
        if state.supply.get(move.item + "s", 0) < 1:
            return "buy/sold-out"
        if move.item == "mill" and place.mills >= MAX_MILLS:
            return "buy/two-mills"
        if move.item == "stronghold" and place.fort != "none":
            return "buy/one-stronghold"
    elif move.item == "biretta":
        if state.supply.get("biretta", 0) < 1:
            return "buy/sold-out"
        lord = state.find_lord(move.lord)
        if lord is None or lord.bishop is None or lord.cardinal:  # a captive too (PL L568-569)
            return "buy/biretta-bishop"
        pope = next((x for x in state.lords if x.pope), None)
        if pope is not None and pope.seat != seat:
            return "card/pope-consent"
    if fam.deniers < price(state, move):
        return "buy/money"
    return None


def capture_lone(state: FranceState, seat: str, village: str) -> FranceState:
    """Opposing Lords standing alone (no troops of theirs) where ``seat`` has troops are captured
    at once, no dice (EN FAQ Phase 6, §7.3)."""
    if state.troops_at(seat, village).count() == 0:
        return state
    for lord in state.lords_at(village):
        if (
            lord.seat != seat
            and lord.captor is None
            and state.troops_at(lord.seat, village).count() == 0
        ):
            state = state.with_lord(replace(lord, captor=seat))
    return control.refresh(state, village)


def buy(state: FranceState, move: Buy) -> FranceState:
    why = problem(state, move)
    if why is not None:
        raise refuse(
            why,
            "title" if move.item == "title" else "purchase",
            item=move.item,
            where=move.where,
            lord=move.lord,
        )
    cost = price(state, move)
    fam = state.family(move.seat)
    state = state.with_family(replace(fam, deniers=fam.deniers - cost))
    if move.item in ("maa", "knight"):
        key = "maa" if move.item == "maa" else "knights"
        t = state.troops_at(move.seat, move.where)
        if key == "maa":
            t = replace(t, maa=t.maa + 1, fresh_maa=t.fresh_maa + 1)
        else:
            t = replace(t, knights=t.knights + 1, fresh_knights=t.fresh_knights + 1)
        state = state.with_troops(t if t.count() else Troops(move.seat, move.where))
        fam = state.family(move.seat)
        placed = {**fam.placed, move.where: fam.placed.get(move.where, 0) + 1}
        state = state.with_family(replace(fam, placed=placed))
        state = control.refresh(state, move.where)
        return capture_lone(state, move.seat, move.where)
    if move.item in ("mill", "stronghold"):
        supply = dict(state.supply)
        supply[move.item + "s"] -= 1
        place = state.place(move.where)
        place = (
            replace(place, mills=place.mills + 1)
            if move.item == "mill"
            else replace(place, fort="stronghold")
        )
        return replace(state.with_place(place), supply=supply)
    if move.item == "title":
        return _titled(state, move.lord, move.where)
    lord = state.lord(move.lord)
    supply = {**state.supply, "biretta": 0}
    return replace(state.with_lord(replace(lord, cardinal=True, biretta=True)), supply=supply)


def buy_moves(state: FranceState, seat: str) -> list[Buy]:
    """Every single purchase open to the family now."""
    out: list[Buy] = []
    fam = state.family(seat)
    if fam.deniers <= 0 and not any(x.king or x.regent for x in state.lords_of(seat)):
        return out
    for v in troop_villages(state, seat):
        out += [Buy(seat, "maa", v), Buy(seat, "knight", v)]
    for v in control.controlled_by(state, seat):
        out += [Buy(seat, "mill", v), Buy(seat, "stronghold", v)]
    for fief in state.rules.fiefs():
        out += [Buy(seat, "title", fief, x.id) for x in state.lords_of(seat)]
    out += [Buy(seat, "biretta", "", x.id) for x in state.lords if x.bishop is not None]
    return [m for m in out if problem(state, m) is None]


def grant_problem(state: FranceState, g: Grant) -> str | None:
    """§7.4 (§13 item 32): only the King or Queen Regent, in the Purchase phase, to a Lord of
    another family that meets the purchase conditions (his own family buys for 0)."""
    if not any(x.seat == g.seat and (x.king or x.regent) for x in state.lords):
        return "grant/not-king"
    lord = state.find_lord(g.lord)
    if lord is None or lord.seat == g.seat:
        return "grant/lord"
    return title_problem(state, lord.seat, g.fief, g.lord)


def grant(state: FranceState, g: Grant) -> FranceState:
    why = grant_problem(state, g)
    if why is not None:
        raise refuse(why, "title", item="title", where=g.fief, lord=g.lord)
    lord = state.lord(g.lord)
    return push(state, Pending("grant", lord.seat, by=g.seat, lord=g.lord, other=g.fief))


def answer_grant(state: FranceState, yes: bool) -> FranceState:
    """The family accepts the King's gift (or refuses: it may still buy the title)."""
    top = state.pending[-1]
    state = pop(state)
    lord = state.find_lord(top.lord)
    if not yes or lord is None or title_problem(state, lord.seat, top.other, lord.id):
        return state
    return _titled(state, lord.id, top.other)


def _titled(state: FranceState, lid: str, fief: str) -> FranceState:
    lord = state.lord(lid)
    state = state.with_lord(replace(lord, fiefs=(*lord.fiefs, fief)))
    villages = state.rules.in_fief(fief)
    if not any(state.place(v).fort == "fortified" for v in villages):
        v = next(v for v in villages if state.place(v).fort == "stronghold")
        state = state.with_place(replace(state.place(v), fort="fortified"))
    return state


def grant_moves(state: FranceState, seat: str) -> list[Grant]:
    if not any(x.seat == seat and (x.king or x.regent) for x in state.lords):
        return []
    out = [Grant(seat, f, x.id) for f in state.rules.fiefs() for x in state.lords]
    return [g for g in out if grant_problem(state, g) is None]
