"""Phase 6 battles driven one small move at a time (digest §9.1-9.5): declare, the table rolls
both sides' Battle Dice at once, each owner takes his losses, the attacker then the defender
decide to go on, and the battle ends.

What is the game's here: who may declare where, the sub-game's steps, applying losses, deaths,
captures and control. The arithmetic of a roll (strength points, the number of dice, what
losses a number of hits allows) is the common battle procedure of §9.2-9.4; the battle helper's
module (``battle.py``) is meant to take it over once it lands.

- Declaring (§9.1): the attacker has a Lord and troops in the Village, the defender troops; not
  under Heavy Rain; one battle per Village per family per phase (FR-26); an attack that would
  roll no die is refused (PL §6.2.1: "the attack is impossible").
- Dice (§9.2): strength points 1 per Man at Arms, 3 per Knight, 1 per male Lord, Titled Lady
  or d'ARC; 1-6 → 1 die, 7-12 → 2, 13+ → 3; d'ARC +1; attacking a defender in his Stronghold
  -1 die, Fortified City -2, each of the attacker's Siege Engine dice cancelling one.
- Losses (§9.4): as many strength points as the hits allow (Knights need 3), chosen by the
  owner; Lords only when all his troops are dead: the hits left kill that many Lords (the
  owner's choice), the others are captured by the opponent.
- End (§9.5): a side with no troops left; 3 rolls in a row without losses; the attacker stops
  an attack on a fortification (the siege goes on); a side surrenders (its troops leave the
  map, its Lords are captured); a truce the attacker offers and the defender accepts (everyone
  stays; a transfer of control with it is a table matter).
- Allies (§9.1, FR-32): when a battle is declared, every other family with troops or a free
  Lord in the Village is asked in turn to join the attacker, the defender or neither. A side
  pools its strength points for its dice; the family with the most strength points on a side
  (EN) decides for it: which of the side's troops take the hits (as many strength points as
  the hits allow over the whole side, family by family), which Lords die, going on, stopping,
  surrendering, a truce; the Lords it captures are its own captives. A Cavalcade is fought by
  its two families only.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engine.flow import Position
from engine.game import TABLE
from engine.games.france1429 import cards, control
from engine.games.france1429.deaths import kill
from engine.games.france1429.income import has_card
from engine.games.france1429.moves import Attack, BattleRoll, Join, Losses, PlayCard, Resolve
from engine.games.france1429.refs import refuse
from engine.games.france1429.relics import battle_hits
from engine.games.france1429.stack import pop, push
from engine.games.france1429.state import HEAVY_RAIN, Battle, FranceState, Lord, Pending

NO_LOSS_ROLLS = 3
PENALTY = {"none": 0, "stronghold": 1, "fortified": 2}


def lord_sp(state: FranceState, lord: Lord) -> int:
    """A male Lord, a Titled Lady or d'ARC: 1; an untitled Lady: 0 (§9.2)."""
    return int(state.sex(lord.id) == "male" or lord.titled() or lord.darc)


def fighters(state: FranceState, seat: str, village: str) -> tuple[Lord, ...]:
    return tuple(x for x in state.lords_at(village) if x.seat == seat and x.captor is None)


def strength(state: FranceState, seat: str, village: str) -> int:
    t = state.troops_at(seat, village)
    return t.maa + 3 * t.knights + sum(lord_sp(state, x) for x in fighters(state, seat, village))


def dice_for(sp: int) -> int:
    """1-6 SP → 1 die, 7-12 → 2, 13 or more → 3 (§9.2)."""
    return 0 if sp <= 0 else 1 if sp <= 6 else 2 if sp <= 12 else 3


def side_of(battle: Battle, seat: str) -> tuple[str, ...]:
    """The families fighting on ``seat``'s side (just ``seat`` when it is in no side)."""
    lead = battle.side(seat)
    return battle.members(lead) if lead is not None else (seat,)


def side_troops(state: FranceState, battle: Battle, lead: str) -> tuple[int, int]:
    """The Men at Arms and Knights the side led by ``lead`` has in the battle's Village."""
    ts = [state.troops_at(s, battle.village) for s in battle.members(lead)]
    return sum(t.maa for t in ts), sum(t.knights for t in ts)


def dice(state: FranceState, battle: Battle, seat: str) -> int:
    """The Battle Dice ``seat``'s side rolls in this battle now (its strength pooled, §9.2)."""
    village = battle.village
    fams = side_of(battle, seat)
    n = dice_for(sum(strength(state, s, village) for s in fams))
    if n and any(x.darc for s in fams for x in fighters(state, s, village)):
        n += 1
    ctrl = control.controller(state, village)
    defended = ctrl is not None and battle.side(ctrl) == battle.defender
    if battle.side(seat) == battle.attacker and defended and not battle.tunnels:
        place = state.place(village)
        engine = place.engine if place.besieged_by in fams else 0
        n -= max(0, PENALTY[place.fort] - engine)
    return max(0, n)


def attack_problem(state: FranceState, a: Attack) -> str | None:
    if a.village not in {v.id for v in state.rules.villages}:
        return "battle/where"
    if has_card(state, state.rules.village(a.village).bishopric, HEAVY_RAIN):
        return "battle/heavy-rain"
    if a.village in state.fought:
        return "battle/fought"
    if a.defender == a.seat or a.defender not in state.seats:
        return "battle/defender"
    if not fighters(state, a.seat, a.village) or not state.troops_at(a.seat, a.village).count():
        return "battle/needs-lord-and-troops"
    if not state.troops_at(a.defender, a.village).count():
        return "battle/no-defending-troops"
    if dice(state, Battle(a.seat, a.defender, a.village), a.seat) == 0:
        return "battle/no-dice"
    return None


def attack(state: FranceState, a: Attack) -> FranceState:
    why = attack_problem(state, a)
    if why is not None:
        raise refuse(why, "battle", village=a.village)
    queue = joiners(state, a.seat, a.defender, a.village)
    battle = Battle(a.seat, a.defender, a.village, "join" if queue else "roll", queue=queue)
    return replace(state, battle=battle, fought=(*state.fought, a.village))


def joiners(state: FranceState, attacker: str, defender: str, village: str) -> tuple[str, ...]:
    """The other families with troops or a free Lord in the Village, in arrival order."""
    return tuple(
        s
        for s in state.place(village).present
        if s not in (attacker, defender)
        and (state.troops_at(s, village).count() or fighters(state, s, village))
    )


def join(state: FranceState, j: Join) -> FranceState:
    """A family asked joins a side or stays out (§9.1); the roll comes after the last."""
    b = state.battle
    assert b is not None
    if not b.queue or j.seat != b.queue[0]:
        waiting = b.queue[0] if b.queue else "-"
        raise refuse("battle/not-your-decision", "battle", seat=j.seat, waiting=waiting)
    attackers = (*b.attackers, j.seat) if j.side == "attacker" else b.attackers
    defenders = (*b.defenders, j.seat) if j.side == "defender" else b.defenders
    queue = b.queue[1:]
    b = replace(b, attackers=attackers, defenders=defenders, queue=queue,
                stage="join" if queue else "roll")  # fmt: skip
    return replace(state, battle=b)


def switch_problem(state: FranceState, j: Join) -> str | None:
    """EN §6.0 "Allies may betray each other anytime during the Battle, even switching sides
    mid-battle!" (option ``battle_allies`` ``switch``; PL ``fixed``: sides are set when the
    battle is declared, §15 item 14): between rolls, a family present in the Village other than
    the attacker and the defender joins a side, changes side or leaves the battle (FR-32)."""
    b = state.battle
    if b is None or b.stage not in ("attacker", "defender") or b.cavalcade:
        return "battle/not-now"
    if state.option("battle_allies") != "switch":
        return "battle/sides-fixed"
    if j.seat in (b.attacker, b.defender):
        return "battle/lead-stays"
    if j.seat not in joiners(state, b.attacker, b.defender, b.village):
        return "battle/not-there"
    now = "attacker" if j.seat in b.attackers else "defender" if j.seat in b.defenders else "none"
    return "battle/same-side" if j.side == now else None


def switch(state: FranceState, j: Join) -> FranceState:
    why = switch_problem(state, j)
    if why is not None:
        raise refuse(why, "battle", seat=j.seat, side=j.side)
    b = state.battle
    assert b is not None
    attackers = tuple(s for s in b.attackers if s != j.seat)
    defenders = tuple(s for s in b.defenders if s != j.seat)
    if j.side == "attacker":
        attackers = (*attackers, j.seat)
    if j.side == "defender":
        defenders = (*defenders, j.seat)
    return replace(state, battle=replace(b, attackers=attackers, defenders=defenders))


def switch_moves(state: FranceState, seat: str) -> list[Join]:
    moves = [Join(seat, side) for side in ("attacker", "defender", "none")]
    return [j for j in moves if switch_problem(state, j) is None]


def join_moves(state: FranceState) -> list[Join]:
    b = state.battle
    assert b is not None
    if not b.queue:
        return []
    return [Join(b.queue[0], side) for side in ("attacker", "defender", "none")]


def _strongest(state: FranceState, b: Battle, lead: str) -> str:
    """The family with the most strength points on the side (the lead on a tie), EN §6.0."""
    fams = b.members(lead)
    return max(fams, key=lambda s: (strength(state, s, b.village), -fams.index(s)))


def roll(state: FranceState, r: BattleRoll) -> FranceState:
    """Both sides' dice, rolled at once; the hits are each die's symbols (§9.3-9.4)."""
    b = state.battle
    assert b is not None
    want = (dice(state, b, b.attacker), dice(state, b, b.defender))
    if (len(r.attacker), len(r.defender)) != want:
        raise refuse("battle/dice-count", "battle", attacker=want[0], defender=want[1])
    faces = set(state.rules.battle_faces)
    if any(v not in faces for v in (*r.attacker, *r.defender)):
        raise refuse("die/face", "battle", value=max((*r.attacker, *r.defender)))
    bonus = len(r.defender) if b.cavalcade else 0  # a Cavalcade's defender: +1 per die (§8.5)
    sides = (b.members(b.attacker), b.members(b.defender))
    dealt, taken = battle_hits(state, sides[0], sides[1], b.village, (r.attacker, r.defender))
    hits = {b.defender: dealt, b.attacker: taken + bonus}
    owing = tuple(s for s in (b.attacker, b.defender) if hits[s] > 0)
    deciders = {lead: _strongest(state, b, lead) for lead in (b.attacker, b.defender)}
    battle = replace(b, stage="losses", hits=hits, owing=owing, lost=False, deciders=deciders)
    state = replace(state, battle=battle)
    return state if owing else _after_roll(state)


def options(state: FranceState, seat: str) -> list[Losses]:
    """Every loss allocation open to ``seat`` for the hits its side took (§9.4)."""
    b = state.battle
    assert b is not None
    lead = b.side(seat) or seat
    if len(b.members(lead)) > 1:
        return _allied_options(state, b, lead, seat)
    hits = b.hits.get(lead, 0)
    t = state.troops_at(seat, b.village)
    best = max_sp(t.maa, t.knights, hits)
    out = []
    for kn in range(min(t.knights, best // 3) + 1):
        ma = best - 3 * kn
        if 0 <= ma <= t.maa:
            left = hits - best
            if ma == t.maa and kn == t.knights:
                lords = [x.id for x in fighters(state, seat, b.village)]
                k = min(left, len(lords))
                out += [Losses(seat, ma, kn, tuple(c)) for c in _choose(lords, k)]
            else:
                out.append(Losses(seat, ma, kn))
    return out


def _allied_options(state: FranceState, b: Battle, lead: str, seat: str) -> list[Losses]:
    """An allied side's losses, one family at a time: each step keeps the most strength points
    the side's hits can remove within reach; once no troop is left, the hits left kill that
    many of the side's Lords (the decider's choice) and the others are captured (FR-32)."""
    hits = b.hits.get(lead, 0)
    pm, pk = side_troops(state, b, lead)
    best = max_sp(pm, pk, hits)
    if best == 0:
        if pm + pk:
            return [Losses(seat, 0, 0)]
        lords = [x.id for s in b.members(lead) for x in fighters(state, s, b.village)]
        return [Losses(seat, 0, 0, c) for c in _choose(lords, min(hits, len(lords)))]
    out = []
    for fam in b.members(lead):
        t = state.troops_at(fam, b.village)
        for kn in range(min(t.knights, hits // 3) + 1):
            for ma in range(min(t.maa, hits - 3 * kn) + 1):
                sp = ma + 3 * kn
                if sp and sp + max_sp(pm - ma, pk - kn, hits - sp) == best:
                    out.append(Losses(seat, ma, kn, (), "" if fam == seat else fam))
    return out


def loss_list(offered: list[Losses]) -> str:
    """The allocations a refusal lists: Men at Arms+Knights, the Lords killed, whose troops."""
    out = []
    for m in offered:
        text = f"{m.maa}+{m.knights}"
        if m.lords:
            text += f" ({', '.join(m.lords)})"
        if m.of:
            text += f" of {m.of}"
        out.append(text)
    return "; ".join(out) or "-"


def _choose(items: list[str], k: int) -> list[tuple[str, ...]]:
    if k == 0:
        return [()]
    if len(items) < k:
        return []
    first, rest = items[0], items[1:]
    return [(first, *c) for c in _choose(rest, k - 1)] + _choose(rest, k)


def max_sp(maa: int, knights: int, hits: int) -> int:
    """The most strength points ``hits`` can remove from ``maa`` and ``knights`` (§9.4)."""
    return max(min(maa, hits - 3 * kn) + 3 * kn for kn in range(min(knights, hits // 3) + 1))


def take_losses(state: FranceState, m: Losses) -> FranceState:
    b = state.battle
    assert b is not None
    if not b.owing or b.decider(b.owing[0]) != m.seat:
        waiting = b.decider(b.owing[0]) if b.owing else "-"
        raise refuse("battle/not-your-losses", "battle", seat=m.seat, waiting=waiting)
    offered = options(state, m.seat)
    if m not in offered:
        raise refuse("battle/losses", "battle", seat=m.seat, valid=loss_list(offered))
    if len(b.members(b.owing[0])) > 1:
        return _allied_losses(state, m)
    village = b.village
    t = state.troops_at(m.seat, village)
    state = state.with_troops(
        replace(t, maa=t.maa - m.maa, knights=t.knights - m.knights,
                fresh_maa=min(t.fresh_maa, t.maa - m.maa),
                fresh_knights=min(t.fresh_knights, t.knights - m.knights))
    )  # fmt: skip
    lost = b.lost or bool(m.maa or m.knights or m.lords)
    other = b.decider(b.opposing(b.owing[0]))
    if not state.troops_at(m.seat, village).count():
        for lid in m.lords:
            state = kill(state, lid)
        for lord in fighters(state, m.seat, village):
            state = take_captive(state, lord, other)
            lost = True
    state = replace(state, battle=replace(b, owing=b.owing[1:], lost=lost))
    b = state.battle
    assert b is not None
    if b.owing:
        return state
    return _after_roll(state)


def _allied_losses(state: FranceState, m: Losses) -> FranceState:
    b = state.battle
    assert b is not None
    lead, village = b.owing[0], b.village
    if m.maa or m.knights:
        t = state.troops_at(m.of or m.seat, village)
        state = state.with_troops(
            replace(t, maa=t.maa - m.maa, knights=t.knights - m.knights,
                    fresh_maa=min(t.fresh_maa, t.maa - m.maa),
                    fresh_knights=min(t.fresh_knights, t.knights - m.knights))
        )  # fmt: skip
        left = b.hits[lead] - m.maa - 3 * m.knights
        b = replace(b, hits={**b.hits, lead: left}, lost=True)
        state = replace(state, battle=b)
        pm, pk = side_troops(state, b, lead)
        free = any(fighters(state, s, village) for s in b.members(lead))
        if max_sp(pm, pk, left) > 0 or (pm + pk == 0 and free):
            return state  # the decider goes on with the side's next family (or its Lords)
    else:
        pm, pk = side_troops(state, b, lead)
        if pm + pk == 0:
            captor = b.decider(b.opposing(lead))
            for lid in m.lords:
                state = kill(state, lid)
            for s in b.members(lead):
                for lord in fighters(state, s, village):
                    state = take_captive(state, lord, captor)
                    b = replace(b, lost=True)
    state = replace(state, battle=replace(b, owing=b.owing[1:]))
    if state.battle is not None and state.battle.owing:
        return state
    return _after_roll(state)


def take_captive(state: FranceState, lord: Lord, captor: str) -> FranceState:
    """``lord`` beaten in battle is ``captor``'s captive (EN §6.2.2: "the Lords are taken
    Captive"); under the Polish edition's author's note (PL L1635-1637, option ``captives``
    ``optional``) the captor is asked first whether to take him or let him go free where he
    stands (FR-26)."""
    state = state.with_lord(replace(lord, captor=captor))
    if state.option("captives") != "optional":
        return state
    return push(state, Pending("captive", captor, by=lord.seat, lord=lord.id, village=lord.village))


def answer_captive(state: FranceState, keep: bool) -> FranceState:
    """The captor keeps the Lord asked about, or lets him go: free in his Village (PL)."""
    top = state.pending[-1]
    state = pop(state)
    lord = state.find_lord(top.lord)
    if keep or lord is None or lord.captor != top.seat:
        return state
    return control.refresh(state.with_lord(replace(lord, captor=None)), lord.village)


def _after_roll(state: FranceState) -> FranceState:
    b = state.battle
    assert b is not None
    gone = [s for s in (b.attacker, b.defender) if sum(side_troops(state, b, s)) == 0]
    quiet = 0 if b.lost else b.quiet + 1
    if gone or quiet >= NO_LOSS_ROLLS:
        return end(state)
    if dice(state, b, b.attacker) == 0 and dice(state, b, b.defender) == 0:
        return end(state)
    return replace(state, battle=replace(b, stage="attacker", quiet=quiet, hits={}))


def can_stop(state: FranceState) -> bool:
    """The attacker alone may stop an attack on a fortification (§9.5)."""
    b = state.battle
    assert b is not None
    ctrl = control.controller(state, b.village)
    return (
        state.place(b.village).fort != "none" and ctrl is not None and (b.side(ctrl) == b.defender)
    )


def resolve(state: FranceState, r: Resolve) -> FranceState:
    """After a roll: go on, stop (attacker against a fortification) or surrender (§9.5)."""
    b = state.battle
    assert b is not None
    lead = b.attacker if b.stage == "attacker" else b.defender
    deciding = b.decider(lead)
    if r.seat != deciding:
        raise refuse("battle/not-your-decision", "battle", seat=r.seat, waiting=deciding)
    if r.choice == "stop" and (lead != b.attacker or not can_stop(state)):
        raise refuse("battle/no-stop", "battle", seat=r.seat)
    if r.choice == "truce":
        if lead == b.attacker:
            return replace(state, battle=replace(b, stage="defender", truce=True))
        if not b.truce:
            raise refuse("battle/no-truce", "battle", seat=r.seat)
        return end(state)  # everyone stays, the controller keeps the Village
    if r.choice == "surrender":
        other = b.decider(b.opposing(lead))
        for s in b.members(lead):
            t = state.troops_at(s, b.village)
            state = state.with_troops(replace(t, maa=0, knights=0))
            for lord in fighters(state, s, b.village):
                state = take_captive(state, lord, other)
        return end(state)
    if r.choice == "stop":
        return end(state)
    if b.stage == "attacker":
        return replace(state, battle=replace(b, stage="defender", truce=False))
    return replace(state, battle=replace(b, stage="roll", truce=False))


def end(state: FranceState) -> FranceState:
    b = state.battle
    assert b is not None
    return control.refresh(replace(state, battle=None), b.village)


def resolve_moves(state: FranceState) -> list[Resolve]:
    b = state.battle
    assert b is not None
    lead = b.attacker if b.stage == "attacker" else b.defender
    seat = b.decider(lead)
    out = [Resolve(seat, "go-on"), Resolve(seat, "surrender")]
    if lead == b.attacker and can_stop(state):
        out.append(Resolve(seat, "stop"))
    if lead == b.attacker or b.truce:
        out.append(Resolve(seat, "truce"))
    return out


def attack_moves(state: FranceState, seat: str) -> list[Attack]:
    out = []
    for v in state.rules.villages:
        for other in state.place(v.id).present:
            a = Attack(seat, v.id, other)
            if other != seat and attack_problem(state, a) is None:
                out.append(a)
    return out


class BattleSequence:
    """A battle as one sub-game (``sequence.Sequence``): join, the table's roll, each side's
    losses, the attacker's then the defender's decision, until ``end`` clears it."""

    name = "battle"
    windowed = True

    def running(self, state: FranceState) -> bool:
        return state.battle is not None

    def position(self, state: FranceState) -> Position:
        b = state.battle
        assert b is not None
        who = {"roll": TABLE, "losses": b.decider(b.owing[0]) if b.owing else TABLE,
               "join": b.queue[0] if b.queue else TABLE, "attacker": b.decider(b.attacker),
               "defender": b.decider(b.defender)}[b.stage]  # fmt: skip
        return Position(b.stage, (who,), stack=(self.name,))

    def legal_moves(self, state: FranceState) -> list[Any]:
        b = state.battle
        assert b is not None
        if b.stage == "join":
            return list(join_moves(state))
        if b.stage == "losses":
            return list(options(state, b.decider(b.owing[0])))
        if b.stage == "roll":
            return []
        deciding = b.decider(b.attacker if b.stage == "attacker" else b.defender)
        plays = [m for m in cards.card_moves(state, deciding) if isinstance(m, PlayCard)]
        return [*resolve_moves(state), *plays]

    def report(self, state: FranceState, rng: random.Random) -> Any:
        """Both sides' Battle Dice at once, when the table rolls (the faces of the box's dice)."""
        b = state.battle
        if b is None or b.stage != "roll":
            return None
        faces = state.rules.battle_faces
        a = tuple(faces[rng.randrange(len(faces))] for _ in range(dice(state, b, b.attacker)))
        d = tuple(faces[rng.randrange(len(faces))] for _ in range(dice(state, b, b.defender)))
        return BattleRoll(a, d)

    def apply(self, state: FranceState, move: Any) -> FranceState:
        """The table's roll, an owner's losses, a decision (or a card played to it)."""
        b = state.battle
        assert b is not None
        if isinstance(move, Join) and b.stage == "join":
            return join(state, move)
        if isinstance(move, BattleRoll) and b.stage == "roll":
            return roll(state, move)
        if isinstance(move, Losses) and b.stage == "losses":
            return take_losses(state, move)
        if isinstance(move, Resolve) and b.stage in ("attacker", "defender"):
            return resolve(state, move)
        deciding = b.decider(b.attacker if b.stage == "attacker" else b.defender)
        if isinstance(move, PlayCard) and b.stage in ("attacker", "defender"):
            if move.seat != deciding:
                raise refuse("battle/not-your-decision", "battle", seat=move.seat,
                             waiting=deciding)  # fmt: skip
            return cards.play(state, move)
        raise refuse("round/not-now", "round", kind=type(move).kind)


BATTLE = BattleSequence()
