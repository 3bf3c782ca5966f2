"""Phase 5, Movement (digest §8), as small moves: one Lord along one road with the troops he
takes (those already travelling with him and those not yet moved), so a phone or a camera can
offer and check each step.

- A Lord makes up to 2 Moves, a d'ARC Lady 3 (§8.1, §12.1); troops move only with a Lord and
  are never relayed: a counter dropped on the way has moved and stays (§8.1).
- A Lord who entered a Village occupied by another family is at its gate: he may go back the way
  he came, stay, or ask to pass; the owner answers (a sub-game waiting on that family) (§8.2).
- A besieged fortification's Lords do not leave (§8.3); nothing moves into, out of or inside a
  Bishopric under Heavy Rain (§11.2).
- Entering a plagued Bishopric (from outside it): the Lord rolls once a round, the entering
  troops lose half (§11.2; FR-13).
- The first family to arrive controls a Village; later arrivals wait at its gate (§8.4).

A family whose Village an opponent entered this phase does not leave by the road he came in by
(§8.2; the opponent's leave for it is a table matter, FR-20).
A Secret Passage (a card played on the Lord first) lets his next Move leave a siege, cross
Heavy Rain or pass an occupied Village without leave (§11.4).

A Cavalcade (§8.5): a Lord with Knights only rides into a Village an opponent holds (no
Stronghold or Fortified City) with a Move still left after it, and fights at once; the defender
gets +1 hit per die. Won with a Lord standing, he must ride on (he may leave a Knight); lost or
undecided, his movement ends this round (PL). The defender's letting him pass is a table matter.
"""

from __future__ import annotations

from dataclasses import replace

from engine.games.france1429 import control, handover
from engine.games.france1429.drawing import lose, plague_choices
from engine.games.france1429.income import has_card
from engine.games.france1429.moves import Answer, AskPass, Cavalcade, March
from engine.games.france1429.refs import refuse
from engine.games.france1429.stack import pop, push
from engine.games.france1429.state import (
    HEAVY_RAIN,
    PLAGUE,
    Battle,
    FranceState,
    Lord,
    Pending,
    Troops,
)


def max_moves(lord: Lord) -> int:
    return 3 if lord.darc else 2


def others_here(state: FranceState, seat: str, village: str) -> tuple[str, ...]:
    return tuple(s for s in state.place(village).present if s != seat)


def at_gate(state: FranceState, lord: Lord) -> bool:
    """The Lord entered an occupied Village this phase and has no leave to pass it (§8.2)."""
    return (
        lord.came_from is not None
        and lord.passage != lord.village
        and bool(others_here(state, lord.seat, lord.village))
        and control.controller(state, lord.village) != lord.seat
    )


def _rain(state: FranceState, village: str) -> bool:
    return has_card(state, state.rules.village(village).bishopric, HEAVY_RAIN)


def move_problem(state: FranceState, move: March) -> str | None:
    """Why the move is refused (None: allowed)."""
    lord = state.find_lord(move.lord)
    if lord is None or lord.seat != move.seat:
        return "move/not-your-lord"
    if lord.captor is not None:
        return "move/captive"
    if lord.moves >= max_moves(lord):
        return "move/no-moves-left"
    if move.to not in state.rules.neighbours(lord.village):
        return "move/no-road"
    place = state.place(lord.village)
    if lord.secret:
        pass  # a Secret Passage: out of a siege, one Move in Heavy Rain, past an owner (§11.4)
    elif place.besieged_by is not None and control.controller(state, lord.village) == move.seat:
        return "move/besieged"
    elif _rain(state, lord.village) or _rain(state, move.to):
        return "move/heavy-rain"
    elif at_gate(state, lord) and move.to != lord.came_from:
        return "move/needs-permission"
    elif any(
        x.seat != move.seat and x.came_from == move.to and x.captor is None
        for x in state.lords_at(lord.village)
    ):
        return "move/enemy-road"
    for cid in move.captives:
        captive = state.find_lord(cid)
        if captive is None or captive.captor != move.seat or captive.village != lord.village:
            return "move/captives"
    if len(set(move.captives)) != len(move.captives):
        return "move/captives"
    here = state.troops_at(move.seat, lord.village)
    if move.maa < 0 or move.knights < 0:
        return "move/troops"
    if move.maa > min(here.maa, lord.escort_maa + here.fresh_maa):
        return "move/troops"
    if move.knights > min(here.knights, lord.escort_knights + here.fresh_knights):
        return "move/troops"
    return None


def move(state: FranceState, m: March) -> FranceState:
    why = move_problem(state, m)
    if why is not None:
        raise refuse(
            why,
            "permission" if why == "move/needs-permission" else "movement",
            lord=m.lord,
            to=m.to,
        )
    lord = state.lord(m.lord)
    origin = lord.village
    held = state.place(origin).present[:1] == (m.seat,)
    here = state.troops_at(m.seat, origin)
    used_fresh_maa = max(0, m.maa - lord.escort_maa)
    used_fresh_kn = max(0, m.knights - lord.escort_knights)
    state = state.with_troops(
        replace(
            here,
            maa=here.maa - m.maa,
            knights=here.knights - m.knights,
            fresh_maa=here.fresh_maa - used_fresh_maa,
            fresh_knights=here.fresh_knights - used_fresh_kn,
        )
    )
    arriving = Troops(m.seat, m.to, m.maa, m.knights)
    plague = has_card(state, state.rules.village(m.to).bishopric, PLAGUE)
    plague_from = has_card(state, state.rules.village(origin).bishopric, PLAGUE)
    entering = plague and not plague_from
    choices = plague_choices(arriving.maa, arriving.knights, arriving.count() // 2)
    if entering and len(choices) == 1:
        arriving = lose(arriving, *choices[0])
    there = state.troops_at(m.seat, m.to)
    state = state.with_troops(
        replace(there, maa=there.maa + arriving.maa, knights=there.knights + arriving.knights)
    )
    lord = replace(
        lord,
        village=m.to,
        moves=lord.moves + 1,
        escort_maa=arriving.maa,
        escort_knights=arriving.knights,
        came_from=origin,
        passage=m.to if lord.secret else None,
        secret=False,
        must_leave=None,
    )
    state = state.with_lord(lord)
    for cid in m.captives:
        state = state.with_lord(replace(state.lord(cid), village=m.to))
    state = control.refresh(control.refresh(state, m.to), origin)
    state = handover.after_leaving(state, m.seat, origin, held)
    if entering and not lord.plague_rolled:
        state = state.with_lord(replace(lord, plague_rolled=True))
        state = push(state, Pending("plague-die", "table", by=m.seat, queue=(lord.id,)))
    if entering and len(choices) > 1:  # the mover chooses which counters he loses (FR-6)
        loss = arriving.count() // 2
        state = push(state, Pending("plague-losses", m.seat, village=m.to, amount=loss,
                                    lord=lord.id))  # fmt: skip
    return state


def ask_problem(state: FranceState, ask: AskPass) -> str | None:
    lord = state.find_lord(ask.lord)
    if lord is None or lord.seat != ask.seat or lord.captor is not None:
        return "move/not-your-lord"
    if not at_gate(state, lord):
        return "pass/not-at-gate"
    if lord.asked == lord.village:
        return "pass/asked"
    if lord.moves >= max_moves(lord):
        return "move/no-moves-left"
    return None


def ask(state: FranceState, a: AskPass) -> FranceState:
    """The Lord at a gate asks the Village's owner to let him pass (§8.2)."""
    why = ask_problem(state, a)
    if why is not None:
        raise refuse(why, "permission", lord=a.lord)
    lord = state.lord(a.lord)
    owner = control.controller(state, lord.village) or others_here(state, a.seat, lord.village)[0]
    state = state.with_lord(replace(lord, asked=lord.village))
    return push(state, Pending("passage", owner, by=a.seat, lord=lord.id, village=lord.village))


def answer_passage(state: FranceState, a: Answer) -> FranceState:
    top = state.pending[-1]
    state = pop(state)
    lord = state.find_lord(top.lord)
    if a.yes and lord is not None and lord.village == top.village:
        state = state.with_lord(replace(lord, passage=top.village))
    return state


def move_moves(state: FranceState, seat: str) -> list[March | AskPass]:
    """Every move open to the family's Lords now: each road with each choice of troops."""
    out: list[March | AskPass] = []
    for lord in state.lords_of(seat):
        if lord.captor is not None or lord.moves >= max_moves(lord):
            continue
        here = state.troops_at(seat, lord.village)
        held = tuple(x.id for x in state.lords_at(lord.village) if x.captor == seat)
        top_maa = min(here.maa, lord.escort_maa + here.fresh_maa)
        top_kn = min(here.knights, lord.escort_knights + here.fresh_knights)
        for to in state.rules.neighbours(lord.village):
            probe = March(seat, lord.id, to)
            if move_problem(state, probe) is not None:
                continue
            pairs = [(a, k) for a in range(top_maa + 1) for k in range(top_kn + 1)]
            out += [March(seat, lord.id, to, a, k) for a, k in pairs]
            if held:
                out += [March(seat, lord.id, to, a, k, held) for a, k in pairs]
        if ask_problem(state, AskPass(seat, lord.id)) is None:
            out.append(AskPass(seat, lord.id))
    return out


def _defender(state: FranceState, seat: str, village: str) -> str | None:
    return next((s for s in others_here(state, seat, village)
                 if state.troops_at(s, village).count()), None)  # fmt: skip


def cavalcade_problem(state: FranceState, c: Cavalcade) -> str | None:
    lord = state.find_lord(c.lord)
    if lord is None or lord.seat != c.seat:
        return "move/not-your-lord"
    probe = move_problem(state, March(c.seat, c.lord, c.to, 0, c.knights))
    if probe is not None:
        return probe
    if c.knights < 1:
        return "cavalcade/knights"
    if lord.moves + 1 >= max_moves(lord):
        return "cavalcade/last-move"
    if state.place(c.to).fort != "none":
        return "cavalcade/fortification"
    if _defender(state, c.seat, c.to) is None:
        return "cavalcade/no-opponent"
    return None


def cavalcade(state: FranceState, c: Cavalcade) -> FranceState:
    """The ride into the Village, then the battle at once (§8.5)."""
    why = cavalcade_problem(state, c)
    if why is not None:
        raise refuse(why, "cavalcade", lord=c.lord, to=c.to)
    defender = _defender(state, c.seat, c.to)
    assert defender is not None
    state = move(state, March(c.seat, c.lord, c.to, 0, c.knights))
    return replace(state, battle=Battle(c.seat, defender, c.to, cavalcade=c.lord))


def after_cavalcade(state: FranceState, battle: Battle) -> FranceState:
    """Won with the Lord standing: he must ride on; otherwise his movement ends (§8.5, PL)."""
    lord = state.find_lord(battle.cavalcade)
    if lord is None or lord.captor is not None:
        return state
    won = state.troops_at(battle.defender, battle.village).count() == 0
    if won:
        return state.with_lord(replace(lord, passage=battle.village, must_leave=battle.village))
    return state.with_lord(replace(lord, moves=max_moves(lord)))


def must_ride_on(state: FranceState, seat: str) -> bool:
    """A victorious Cavalcade's Lord has not yet left the Village he took and can (§8.5)."""
    return any(
        x.must_leave == x.village
        and x.captor is None
        and any(move_problem(state, March(seat, x.id, to)) is None
                for to in state.rules.neighbours(x.village))
        for x in state.lords_of(seat)
    )  # fmt: skip


def cavalcade_moves(state: FranceState, seat: str) -> list[Cavalcade]:
    out = []
    for lord in state.lords_of(seat):
        if lord.captor is not None or lord.moves + 1 >= max_moves(lord):
            continue
        here = state.troops_at(seat, lord.village)
        top_kn = min(here.knights, lord.escort_knights + here.fresh_knights)
        for to in state.rules.neighbours(lord.village):
            for k in range(1, top_kn + 1):
                c = Cavalcade(seat, lord.id, to, k)
                if cavalcade_problem(state, c) is None:
                    out.append(c)
    return out
