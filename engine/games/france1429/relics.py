"""The Holy Relics (optional rule ``holy_relics``, digest §12.2).

After the starting Villages, the table lays the 5 relics at random, one on each Principal
Village (the chance move names the order, Bishoprics 1 to 5). A relic is first taken only by an
ecclesiastical Lord standing in its Principal Village (the Bishop of that Bishopric, any
Cardinal or the Pope) whose family controls it or finds it uncontrolled; a relic dropped by a
dead carrier may be taken by any Lord there. Powers:

- Holy Grail: in a defending army, each opposing die shows 1 hit less.
- Holy Spear: +1 hit to its side's roll if a die is rolled, when attacking (EN; option
  ``holy_spear``: ``pl``, in every battle).
- Eyes of Saint Roseline: in the Play Cards step its family may try to move every Heavy Rain
  card: 1D6 each; 6 or the card's Bishopric: it stays; else it moves there (discarded if that
  one has Heavy Rain already).
- Bone of Saint Rhadegund: likewise for every Famine card: 1D6 each, 4-6 removes it.

- Teeth of Saint Géronce: once per game, right after a Lord dies, the family whose Lord
  carries them may cancel that death (the Lord comes back as he was, titles included); the
  relic then leaves the game (FR-34).

A relic's carrier may hand it to any other Lord, as a gift or for a price the receiving family
pays: option ``relic_transfer`` ``en``: anywhere, spending a Diplomacy marker when it goes to
another family; ``pl``: only to a Lord in the same Village, no marker (§15 item 12, FR-34).
Another family is asked to accept (and pay); within a family it is simply handed over.
"""

from __future__ import annotations

from dataclasses import replace

from engine.games.france1429.control import controller
from engine.games.france1429.deaths import revive
from engine.games.france1429.moves import GiveRelic, PlaceRelics, RelicDie, TakeRelic, UseRelic
from engine.games.france1429.refs import refuse
from engine.games.france1429.stack import pop, push
from engine.games.france1429.state import FAMINE, HEAVY_RAIN, BishopricCard, FranceState, Pending

GRAIL = "holy-grail"
SPEAR = "holy-spear"
ROSELINE = "eyes-of-saint-roseline"
RHADEGUND = "bone-of-saint-rhadegund"
TEETH = "teeth-of-saint-geronce"
USABLE = {ROSELINE: HEAVY_RAIN, RHADEGUND: FAMINE}


def principals(state: FranceState) -> tuple[str, ...]:
    numbers = sorted({v.bishopric for v in state.rules.villages})
    return tuple(p for n in numbers if (p := state.rules.principal(n)) is not None)


def place(state: FranceState, m: PlaceRelics) -> FranceState:
    if sorted(m.order) != sorted(state.rules.relics):
        raise refuse("relic/order", "relics", relics=", ".join(state.rules.relics))
    where = principals(state)
    return replace(state, relics={r: f"v:{v}" for r, v in zip(m.order, where, strict=False)})


def carrier(state: FranceState, relic: str) -> str | None:
    """The Lord who carries ``relic``, or None."""
    where = state.relics.get(relic, "")
    return where[2:] if where.startswith("l:") and state.find_lord(where[2:]) else None


def held_by(state: FranceState, relic: str, seat: str, village: str) -> bool:
    """An uncaptured Lord of ``seat`` in ``village`` carries ``relic``."""
    lid = carrier(state, relic)
    if lid is None:
        return False
    lord = state.lord(lid)
    return lord.seat == seat and lord.village == village and lord.captor is None


def take_problem(state: FranceState, t: TakeRelic) -> str | None:
    lord = state.find_lord(t.lord)
    if lord is None or lord.seat != t.seat or lord.captor is not None:
        return "move/not-your-lord"
    if state.relics.get(t.relic) != f"v:{lord.village}":
        return "relic/not-here"
    if controller(state, lord.village) not in (None, t.seat):
        return "relic/owner"
    if t.relic in state.relics_taken:
        return None
    number = state.rules.village(lord.village).bishopric
    church = lord.bishop == number or lord.cardinal or lord.pope
    return None if church else "relic/church"


def take(state: FranceState, t: TakeRelic) -> FranceState:
    why = take_problem(state, t)
    if why is not None:
        raise refuse(why, "relics", relic=t.relic, lord=t.lord)
    relics = {**state.relics, t.relic: f"l:{t.lord}"}
    return replace(state, relics=relics, relics_taken=(*state.relics_taken, t.relic))


def use_problem(state: FranceState, u: UseRelic) -> str | None:
    if u.relic not in USABLE:
        return "relic/not-usable"
    lid = carrier(state, u.relic)
    if lid is None or state.lord(lid).seat != u.seat:
        return "relic/not-yours"
    if u.relic in state.relics_used:
        return "relic/used"
    card = USABLE[u.relic]
    return None if any(c.card == card for c in state.mitres) else "relic/nothing"


def use(state: FranceState, u: UseRelic) -> FranceState:
    """One 1D6 per Heavy Rain (Roseline) or Famine (Rhadegund) card on the map."""
    why = use_problem(state, u)
    if why is not None:
        raise refuse(why, "relics", relic=u.relic)
    card = USABLE[u.relic]
    queue = tuple(str(c.bishopric) for c in state.mitres if c.card == card)
    state = replace(state, relics_used=(*state.relics_used, u.relic))
    return push(state, Pending("relic-die", "table", by=u.seat, lord=u.relic, queue=queue))


def relic_die(state: FranceState, d: RelicDie) -> FranceState:
    top = state.pending[-1]
    number = int(top.queue[0])
    card = USABLE[top.lord]
    found = next(c for c in state.mitres if c.bishopric == number and c.card == card)
    mitres = list(state.mitres)
    discard = dict(state.fortune_discard)
    if top.lord == RHADEGUND and d.value >= 4:
        mitres.remove(found)
        discard[card] = discard.get(card, 0) + 1
    elif top.lord == ROSELINE and d.value not in (6, number):
        mitres.remove(found)
        if any(c.bishopric == d.value and c.card == card for c in mitres):
            discard[card] = discard.get(card, 0) + 1
        else:
            mitres.append(BishopricCard(d.value, card))
    state = replace(state, mitres=tuple(mitres), fortune_discard=discard)
    rest = top.queue[1:]
    if rest:
        return replace(state, pending=(*state.pending[:-1], replace(top, queue=rest)))
    return pop(state)


def give_problem(state: FranceState, g: GiveRelic) -> str | None:
    """A relic handed over (§12.2, FR-34): by its uncaptured carrier, to another Lord."""
    lid = carrier(state, g.relic)
    if lid is None or state.lord(lid).seat != g.seat or state.lord(lid).captor is not None:
        return "relic/not-yours"
    to = state.find_lord(g.lord)
    if to is None or to.id == lid:
        return "relic/to-whom"
    if to.seat == g.seat:
        return "relic/no-price" if g.price else None
    if state.option("relic_transfer") == "pl":
        return None if to.village == state.lord(lid).village else "relic/same-village"
    if state.option("open_diplomacy"):
        return None
    return None if state.family(g.seat).diplomacy >= 1 else "diplomacy/no-marker"


def give(state: FranceState, g: GiveRelic) -> FranceState:
    why = give_problem(state, g)
    if why is not None:
        raise refuse(why, "relics", relic=g.relic, lord=g.lord)
    to = state.lord(g.lord)
    if to.seat == g.seat:
        return replace(state, relics={**state.relics, g.relic: f"l:{to.id}"})
    if state.option("relic_transfer") != "pl" and not state.option("open_diplomacy"):
        fam = state.family(g.seat)
        state = state.with_family(replace(fam, diplomacy=fam.diplomacy - 1))
    return push(state, Pending("relic", to.seat, by=g.seat, lord=to.id, other=g.relic,
                               amount=g.price))  # fmt: skip


def answer_give(state: FranceState, yes: bool) -> FranceState:
    """The receiving family accepts (and pays the price) or refuses the relic."""
    top = state.pending[-1]
    state = pop(state)
    if not yes:
        return state
    buyer = state.family(top.seat)
    if buyer.deniers < top.amount:
        raise refuse("relic/price", "relics", relic=top.other, lord=top.lord)
    if carrier(state, top.other) is None or state.find_lord(top.lord) is None:
        return state  # the relic or its receiver is gone
    state = state.with_family(replace(buyer, deniers=buyer.deniers - top.amount))
    seller = state.family(top.by)
    state = state.with_family(replace(seller, deniers=seller.deniers + top.amount))
    return replace(state, relics={**state.relics, top.other: f"l:{top.lord}"})


def give_answers(state: FranceState) -> list[bool]:
    top = state.pending[-1]
    return [True, False] if state.family(top.seat).deniers >= top.amount else [False]


def teeth_holder(state: FranceState) -> str | None:
    """The family whose uncaptured Lord carries the Teeth of Saint Géronce, still unused."""
    lid = carrier(state, TEETH)
    if lid is None or TEETH in state.relics_used or state.lord(lid).captor is not None:
        return None
    return state.lord(lid).seat


def ask_teeth(state: FranceState) -> FranceState:
    """After a move in which Lords died: the Teeth's family is asked about each in turn."""
    seat = teeth_holder(state) if state.fallen else None
    if seat is None:
        return replace(state, fallen=()) if state.fallen else state
    queue = tuple(x.id for x in state.fallen)
    return push(state, Pending("teeth", seat, lord=queue[0], queue=queue[1:]))


def answer_teeth(state: FranceState, yes: bool) -> FranceState:
    """Cancel the death (the relic leaves the game) or not, then the next one."""
    top = state.pending[-1]
    state = pop(state)
    if yes:
        record = next(x for x in state.fallen if x.id == top.lord)
        relics = {r: w for r, w in state.relics.items() if r != TEETH}
        state = replace(state, relics=relics, relics_used=(*state.relics_used, TEETH))
        return replace(revive(state, record), fallen=())
    if top.queue:
        return push(state, replace(top, lord=top.queue[0], queue=top.queue[1:]))
    return replace(state, fallen=())


def give_moves(state: FranceState, seat: str) -> list[GiveRelic]:
    out = []
    for relic in state.relics:
        lid = carrier(state, relic)
        if lid is None or state.lord(lid).seat != seat:
            continue
        for to in state.lords:
            for price in (0, 2) if to.seat != seat else (0,):
                g = GiveRelic(seat, relic, to.id, price)
                if give_problem(state, g) is None:
                    out.append(g)
    return out


def relic_moves(state: FranceState, seat: str) -> list[TakeRelic | UseRelic | GiveRelic]:
    out: list[TakeRelic | UseRelic | GiveRelic] = [*give_moves(state, seat)]
    if not state.relics:
        return out
    for lord in state.lords_of(seat):
        for relic in state.relics:
            t = TakeRelic(seat, lord.id, relic)
            if take_problem(state, t) is None:
                out.append(t)
    if state.phase == "play":
        out += [UseRelic(seat, r) for r in USABLE if use_problem(state, UseRelic(seat, r)) is None]
    return out


def battle_hits(
    state: FranceState,
    attackers: tuple[str, ...],
    defenders: tuple[str, ...],
    village: str,
    rolls: tuple[tuple[int, ...], tuple[int, ...]],
) -> tuple[int, int]:
    """The hits each side deals with the Grail and the Spear (§12.2), held by any family of
    the side."""

    def side_holds(relic: str, side: tuple[str, ...]) -> bool:
        return any(held_by(state, relic, s, village) for s in side)

    a_roll, d_roll = rolls
    a_hits = sum(max(0, v - 1) for v in a_roll) if side_holds(GRAIL, defenders) else sum(a_roll)
    d_hits = sum(d_roll)
    if a_roll and side_holds(SPEAR, attackers):
        a_hits += 1
    if d_roll and state.option("holy_spear") == "pl" and side_holds(SPEAR, defenders):
        d_hits += 1
    return a_hits, d_hits
