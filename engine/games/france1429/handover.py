"""Handing a Village's control to another family present (digest §8.4, §15 item 19; FR-5).

The Polish rulebook (PL L1441-1445) says both: "Gracz, który kontroluje wioskę może w każdym
momencie zdecydować się na przekazanie kontroli nad wioską innemu graczowi, który ma wojska w
tej wiosce" (the controller may hand it at any time to a family with troops there), and "Jeśli
gracz kontrolujący wioskę opuszcza ją, a w tej wiosce jest więcej graczy, gracz kontrolujący
decyduje komu przekazać kontrolę" (leaving a Village where several families stay, he decides who
gets it). The English rulebook is silent. So: a ``give-control`` move on the controller's own
turn in Phases 2c-6, and a question put to a controller who leaves a Village two or more
families still hold; with one family left there is nothing to decide.
"""

from __future__ import annotations

from dataclasses import replace

from engine.games.france1429 import control
from engine.games.france1429.moves import GiveControl
from engine.games.france1429.refs import refuse
from engine.games.france1429.stack import pop, push
from engine.games.france1429.state import FranceState, Pending


def _hand(state: FranceState, village: str, to: str) -> FranceState:
    """``to`` first in the Village's arrival order (its controller); a besieger handed the
    Village ends his siege, his engine back to his board (§9.6)."""
    place = state.place(village)
    present = (to, *(s for s in place.present if s != to))
    if place.besieged_by == to:
        stock = dict(state.stock.get(to, {}))
        stock["engines"] = stock.get("engines", 0) + 1
        state = replace(state, stock={**state.stock, to: stock})
        place = replace(place, besieged_by=None, engine=0, since=0)
    state = state.with_place(replace(place, present=present))
    return control.follow_fortified(state, village)


def after_leaving(state: FranceState, seat: str, village: str, held: bool) -> FranceState:
    """``seat`` (the controller before, ``held``) has left ``village``: with two or more
    families still there he is asked who controls it (PL L1443-1445)."""
    present = state.place(village).present
    if not held or control.is_present(state, seat, village) or len(present) < 2:
        return state
    return push(state, Pending("control", seat, village=village, queue=present))


def give_problem(state: FranceState, g: GiveControl) -> str | None:
    """On his turn: the controller, to a family with troops in the Village (PL L1441-1442)."""
    if g.village not in {v.id for v in state.rules.villages}:
        return "control/where"
    place = state.place(g.village)
    if not place.present or place.present[0] != g.seat:
        return "control/not-yours"
    if g.to == g.seat or state.troops_at(g.to, g.village).count() == 0:
        return "control/to"
    return None


def give(state: FranceState, g: GiveControl) -> FranceState:
    why = give_problem(state, g)
    if why is not None:
        held = state.place(g.village).present[1:] if why == "control/to" else ()
        valid = [s for s in held if state.troops_at(s, g.village).count()]
        raise refuse(why, "control", seat=g.seat, village=g.village, to=g.to,
                     valid=", ".join(valid) or "-")  # fmt: skip
    return _hand(state, g.village, g.to)


def give_moves(state: FranceState, seat: str) -> list[GiveControl]:
    out = []
    for v in state.rules.villages:
        for other in state.place(v.id).present[1:]:
            g = GiveControl(seat, v.id, other)
            if give_problem(state, g) is None:
                out.append(g)
    return out


def answer_moves(state: FranceState) -> list[GiveControl]:
    top = state.pending[-1]
    return [GiveControl(top.seat, top.village, s) for s in top.queue]


def answer(state: FranceState, g: GiveControl) -> FranceState:
    """The family that left names who controls the Village now."""
    top = state.pending[-1]
    if g.seat != top.seat:
        raise refuse("answer/not-asked", "control", seat=g.seat)
    if g.village != top.village or g.to not in top.queue:
        raise refuse("control/to", "control", seat=g.seat, village=top.village, to=g.to,
                     valid=", ".join(top.queue))  # fmt: skip
    return _hand(pop(state), g.village, g.to)
