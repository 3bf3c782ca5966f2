"""Cards by effect key (digest §11, §12.1): Lord cards, regular Fortune cards (Play Cards step
only), Opportunity and Lord opportunity cards (any time but the Draw step; here: on the
playing family's own turn in Phases 2c-6, and out of turn through the ``opportunity`` window,
FR-10).

Each effect is a function of the state, the card's target and the Lord named ``by`` (whose
title gives a tax its right, or who sponsors an Assassination). ``card_moves`` lists what a
seat may play now; ``play`` checks one play and applies it.

Secret Passage: on one's own Lord in Movement (his next Move leaves a siege, crosses Heavy Rain
or passes an occupied Village without leave) or on one's own captive (he escapes, placed as a
freed Lord). Uprising: on a taxed Village or one in a Bishopric with Famine, not by the family
whose own tax is the only cause; 1 Battle Die less the fortification's penalty, +1 hit if a die
is rolled; the card player's choice of whose troops are hit first is made for him: the
controller's, then in arrival order (FR-15); each owner's losses remove as many strength points
as the hits allow, Men at Arms before Knights (FR-6). If no troops are left, the Lords there
die, and the Mills and a Stronghold (not a Fortified City) are destroyed.

Ambush: in a battle, by a family with a Lord in it, on an opposing Lord in it: captured.

Before an Uprising's die, the Bishop of that Bishopric and every Cardinal able to pay 3
Deniers are asked in turn whether to try to stop it: 1D6, 3-6 stops it; on 1-2 a Bishop dies,
a Cardinal lives (§10.3-10.4).

In a battle the attacker may play one to attack "from the tunnels": no fortification penalty
for the rest of the battle.
An Assassination or an Ambush asks its target's family first whether to cancel it with a
Secret Passage (both cards discarded).

Several Uprisings (FR-33): after an Uprising card is played, every family in turn from its
player (the player first) is asked whether to add an Uprising card on the same Village (each
adds a die and its +1) or a Secret Passage (no fortification penalty), or to pass; every family
is asked whatever its hand, so the question shows nothing. Then the dice are counted (cards
less the penalty; none: it fails), the Bishop and Cardinals may try to stop it (a stop stops
all the cards), and the table rolls the dice one by one.
"""

from __future__ import annotations

from dataclasses import replace

from engine.games.france1429 import control
from engine.games.france1429.deaths import kill
from engine.games.france1429.income import governed_bishopric, has_card
from engine.games.france1429.moves import Answer, Interject, Losses, PlayCard, PlayLord, Strike
from engine.games.france1429.refs import refuse
from engine.games.france1429.stack import pop, push
from engine.games.france1429.state import (
    AMBUSH,
    ASSASSINATION,
    CARDINAL,
    DARC,
    FAMINE,
    HARVEST,
    HEAVY_RAIN,
    JUSTICE,
    REGULAR,
    SECRET_PASSAGE,
    TAXES,
    UPRISING,
    WEATHER,
    BishopricCard,
    Fort,
    FranceState,
    Lord,
    Pending,
    Tax,
)
from engine.games.france1429.victory import ally

MAX_LORDS = 4
PLAYABLE = (
    AMBUSH,
    HARVEST, WEATHER, TAXES, CARDINAL, DARC, ASSASSINATION, JUSTICE, SECRET_PASSAGE, UPRISING,
)  # fmt: skip
"""Cards whose effect the referee applies now (see the module's docstring for the rest)."""


def _discard(state: FranceState, card: str, pile: str = "fortune") -> FranceState:
    if pile == "lords":
        out = dict(state.lord_discard)
        out[card] = out.get(card, 0) + 1
        return replace(state, lord_discard=out)
    out = dict(state.fortune_discard)
    out[card] = out.get(card, 0) + 1
    return replace(state, fortune_discard=out)


def _from_hand(state: FranceState, seat: str, card: str) -> FranceState:
    fam = state.family(seat)
    hand = list(fam.hand)
    hand.remove(card)
    return state.with_family(replace(fam, hand=tuple(hand)))


# --- Lord cards ------------------------------------------------------------------------------


def lord_entry(state: FranceState, seat: str) -> tuple[str, ...]:
    """Where a new (or freed) Lord of ``seat`` may be placed, in the rules' priority (§5 Phase
    2c, §7.6): a controlled Stronghold or Fortified City; else a Village with another of his
    Lords; else a Village he controls; else an empty uncontrolled Village."""
    ids = [v.id for v in state.rules.villages]
    owned = [v for v in ids if control.controller(state, v) == seat]
    forts = [v for v in owned if state.place(v).fort != "none"]
    if forts:
        return tuple(forts)
    with_lord = [
        v for v in ids if any(x.seat == seat and x.captor is None for x in state.lords_at(v))
    ]
    if with_lord:
        return tuple(with_lord)
    if owned:
        return tuple(owned)
    friend = ally(state, seat)
    return tuple(
        v
        for v in ids
        if (control.controller(state, v) is None and not state.place(v).present)
        or (friend is not None and control.controller(state, v) == friend)
    )


def play_lord(state: FranceState, move: PlayLord) -> FranceState:
    fam = state.family(move.seat)
    if move.card not in fam.hand or state.rules.lord(move.card) is None:
        raise refuse("card/not-in-hand", "lord-card", card=move.card)
    if len(state.lords_of(move.seat)) >= MAX_LORDS:
        raise refuse("lord/family-full", "lord-card", limit=MAX_LORDS)
    allowed = lord_entry(state, move.seat)
    if move.village not in allowed:
        raise refuse(
            "lord/placement", "lord-card", village=move.village, allowed=", ".join(allowed) or "-"
        )
    state = _from_hand(state, move.seat, move.card)
    lord = Lord(move.card, move.seat, move.village)
    queen = next((x for x in state.lords if x.queen and x.captor is None), None)
    king = any(x.king for x in state.lords)
    prince = any(x.crown_prince for x in state.lords)
    if (
        queen is not None
        and queen.seat == move.seat
        and king
        and not prince
        and state.sex(move.card) == "male"
    ):
        lord = replace(lord, crown_prince=True)
        state = replace(state, prince_born=True)
    state = replace(state, lords=(*state.lords, lord))
    return control.refresh(state, move.village)


# --- Fortune and Lord opportunity cards --------------------------------------------------------


def _bishopric(target: str) -> int | None:
    return int(target) if target in ("1", "2", "3", "4", "5") else None


def _tax_right(state: FranceState, seat: str, target: str, by: str) -> str | None:
    """The right a Tax card played on ``target`` by Lord ``by`` uses, or None (§11.3)."""
    lord = state.find_lord(by)
    if lord is None or lord.seat != seat:
        return None
    number = _bishopric(target)
    if number is not None:
        if lord.bishop == number and not lord.excommunicated:
            return "bishop"
        if lord.cardinal and governed_bishopric(state, number) and not lord.excommunicated:
            return "cardinal"
        return None
    if target == "all":
        return "pope" if lord.pope else None
    if target not in state.rules.fiefs():
        return None
    if target in lord.fiefs:
        return "fief"
    if (lord.king or lord.regent) and control.fief_holder(state, target) is None:
        used = any(t.right == "king" for t in state.taxes)
        return None if used else "king"
    return None


def card_problem(state: FranceState, seat: str, card: str, target: str, by: str) -> str | None:
    """Why the seat may not play ``card`` on ``target`` now (None: it may)."""
    fam = state.family(seat)
    if card not in fam.hand:
        return "card/not-in-hand"
    if card not in PLAYABLE:
        return "card/not-supported"
    if card in REGULAR and state.phase != "play":
        return "card/regular-timing"
    if card in (HARVEST, WEATHER):
        number = _bishopric(target)
        if number is None:
            return "card/target"
        if has_card(state, number, card):
            return "card/same-twice"
        if card == HARVEST and has_card(state, number, HEAVY_RAIN):
            return "card/harvest-in-rain"
        if card == WEATHER and has_card(state, number, FAMINE):
            return "card/weather-in-famine"
        return None
    if card == TAXES:
        if fam.tax_left < 1:
            return "card/no-tax-marker"
        if any(t.seat == seat and t.target == target for t in state.taxes):
            return "card/same-twice"
        return None if _tax_right(state, seat, target, by) else "card/tax-right"
    if card == UPRISING:
        return uprising_problem(state, seat, target)
    battle = state.battle
    if card == SECRET_PASSAGE and battle is not None and target == battle.village:
        ok = battle.side(seat) == battle.attacker and not battle.tunnels
        return None if ok else "card/passage-timing"
    lord = state.find_lord(target)
    if lord is None:
        return "card/target"
    if card == AMBUSH:
        return ambush_problem(state, seat, lord)
    if card == SECRET_PASSAGE:
        if lord.seat != seat:
            return "card/target"
        if lord.captor is not None:
            return None
        ok = state.phase == "movement" and not lord.secret
        return None if ok else "card/passage-timing"
    if card == CARDINAL:
        pope = next((x for x in state.lords if x.pope), None)
        # any Bishop in play, a captive too (EN §9.2, §1.5; PL L557-559): captivity takes
        # only candidacy and votes (EN §6.2.3)
        if lord.bishop is None or lord.cardinal:
            return "card/cardinal-target"
        if pope is not None and pope.seat != seat:
            return "card/pope-consent"
        return None
    if card == DARC:
        if any(x.darc for x in state.lords):
            return "card/darc-in-play"
        ok = state.sex(lord.id) == "female" and lord.spouse is None
        return None if ok else "card/darc-target"
    if card == ASSASSINATION:
        sponsor = state.find_lord(by)
        if lord.seat == seat:
            return "card/own-lord"
        return None if sponsor is not None and sponsor.seat == seat else "card/sponsor"
    if card == JUSTICE:
        immune = lord.king or lord.queen or lord.regent or lord.crown_prince or lord.pope
        return None if lord.assassin and not immune else "card/justice-target"
    return "card/not-supported"


def play(state: FranceState, move: PlayCard) -> FranceState:
    why = card_problem(state, move.seat, move.card, move.target, move.by)
    if why is not None:
        raise refuse(
            why,
            "fortune" if move.card in REGULAR else "opportunity",
            card=move.card,
            target=move.target,
        )
    state = _from_hand(state, move.seat, move.card)
    card = move.card
    if card in (HARVEST, WEATHER):
        number = int(move.target)
        cancels = FAMINE if card == HARVEST else HEAVY_RAIN
        found = next((c for c in state.mitres if c.bishopric == number and c.card == cancels), None)
        if found is not None:
            mitres = list(state.mitres)
            mitres.remove(found)
            state = _discard(_discard(replace(state, mitres=tuple(mitres)), cancels), card)
            return state
        return replace(state, mitres=(*state.mitres, BishopricCard(number, card)))
    if card == TAXES:
        right = _tax_right(state, move.seat, move.target, move.by)
        assert right is not None
        on = "fief" if move.target in state.rules.fiefs() else "bishopric"
        tax = Tax(move.seat, on, move.target, move.by, right, len(state.taxes))  # type: ignore[arg-type]
        fam = state.family(move.seat)
        state = state.with_family(replace(fam, tax_left=fam.tax_left - 1))
        return _discard(replace(state, taxes=(*state.taxes, tax)), card)
    if card == UPRISING:
        return _uprising(_discard(state, card), move.seat, move.target)
    if card == SECRET_PASSAGE and state.battle is not None and move.target == state.battle.village:
        return _discard(replace(state, battle=replace(state.battle, tunnels=True)), card)
    target = state.lord(move.target)
    if card == AMBUSH:
        state = _discard(state, card)
        return push(state, Pending("cancel", target.seat, by=move.seat, lord=target.id,
                                   then="ambush"))  # fmt: skip
    if card == SECRET_PASSAGE:
        state = _discard(state, card)
        if target.captor is None:
            return state.with_lord(replace(target, secret=True))
        state = state.with_lord(replace(target, captor=None))
        where = lord_entry(state, move.seat)
        if where and target.village not in where:
            state = state.with_lord(replace(state.lord(target.id), village=where[0]))
        return control.refresh(
            control.refresh(state, target.village), state.lord(target.id).village
        )
    if card == CARDINAL:
        return state.with_lord(replace(target, cardinal=True))
    if card == DARC:
        return state.with_lord(replace(target, darc=True))
    if card == ASSASSINATION:
        sponsor = state.lord(move.by)
        state = _discard(state.with_lord(replace(sponsor, assassin=True)), card)
        if state.option("assassination") != "pl":
            state = push(state, Pending("assassination", "table", by=move.seat,
                                        queue=(target.id,)))  # fmt: skip
        return push(state, Pending("cancel", target.seat, by=move.seat, lord=target.id,
                                   then="assassination"))  # fmt: skip
    if card == JUSTICE:
        return kill(_discard(state, card), target.id)
    raise refuse("card/not-supported", "opportunity", card=card, target=move.target)


def answer_cancel(state: FranceState, seat: str, yes: bool) -> FranceState:
    """The target's family answers an Assassination or Ambush: cancel it with a Secret Passage
    from its hand, or not (§11.4). Every target is asked, so a question shows no hand."""
    top = state.pending[-1]
    state = pop(state)
    if yes:
        if SECRET_PASSAGE not in state.family(seat).hand:
            raise refuse("card/no-secret-passage", "opportunity", card=SECRET_PASSAGE,
                         target=top.lord)  # fmt: skip
        state = _discard(_from_hand(state, seat, SECRET_PASSAGE), SECRET_PASSAGE)
        under = state.pending[-1].kind if state.pending else ""
        return pop(state) if top.then == "assassination" and under == "assassination" else state
    target = state.find_lord(top.lord)
    if target is None:
        return state
    if top.then == "ambush":
        state = state.with_lord(replace(target, captor=top.by))
        return control.refresh(state, target.village)
    if state.option("assassination") == "pl":
        return kill(state, target.id)
    return state  # the target's die comes next


def cancel_answers(state: FranceState) -> list[bool]:
    top = state.pending[-1]
    return [True, False] if SECRET_PASSAGE in state.family(top.seat).hand else [False]


def card_moves(state: FranceState, seat: str) -> list[PlayCard | PlayLord]:
    """Every card play open to ``seat`` now."""
    out: list[PlayCard | PlayLord] = []
    fam = state.family(seat)
    if state.phase == "play" and len(state.lords_of(seat)) < MAX_LORDS:
        entry = lord_entry(state, seat)
        for card in dict.fromkeys(fam.hand):
            if state.rules.lord(card) is not None:
                out += [PlayLord(seat, card, v) for v in entry]
    targets: dict[str, list[tuple[str, str]]] = {}
    numbers = sorted({str(v.bishopric) for v in state.rules.villages})
    own = [x.id for x in state.lords_of(seat)]
    for card in dict.fromkeys(fam.hand):
        if card in (HARVEST, WEATHER):
            targets[card] = [(n, "") for n in numbers]
        elif card == TAXES:
            targets[card] = [(t, b) for b in own for t in (*state.rules.fiefs(), *numbers, "all")]
        elif card in (CARDINAL, DARC, JUSTICE, SECRET_PASSAGE, AMBUSH):
            targets[card] = [(x.id, "") for x in state.lords]
            if card == SECRET_PASSAGE and state.battle is not None:
                targets[card].append((state.battle.village, ""))
        elif card == UPRISING:
            targets[card] = [(v.id, "") for v in state.rules.villages]
        elif card == ASSASSINATION:
            targets[card] = [(x.id, b) for x in state.lords for b in own[:1]]
    for card, pairs in targets.items():
        for target, by in pairs:
            if card_problem(state, seat, card, target, by) is None:
                out.append(PlayCard(seat, card, target, by))
    return out


# --- Uprising ----------------------------------------------------------------------------------


def _causes(state: FranceState, village: str) -> tuple[set[str], bool]:
    """Who taxes the Village (Tallage on its Fief, Tithe on its Bishopric) and whether Famine
    lies on its Bishopric (§11.4)."""
    info = state.rules.village(village)
    taxers = {
        t.seat
        for t in state.taxes
        if (t.on == "fief" and t.target == info.fief)
        or (t.on == "bishopric" and t.target == str(info.bishopric))
        or (t.on == "bishopric" and t.target == "all" and governed_bishopric(state, info.bishopric))
    }
    return taxers, has_card(state, info.bishopric, FAMINE)


def uprising_problem(state: FranceState, seat: str, village: str) -> str | None:
    if village not in {v.id for v in state.rules.villages}:
        return "card/target"
    taxers, famine = _causes(state, village)
    if not taxers and not famine:
        return "card/uprising-target"
    if not famine and taxers == {seat}:
        return "card/uprising-own-tax"
    return None


PENALTY = {"none": 0, "stronghold": 1, "fortified": 2}


def uprising_dice(state: FranceState, village: str, cards: int = 1, tunnels: bool = False) -> int:
    """1 die per card less the fortification's penalty: Stronghold -1, Fortified City -2, none
    after a Secret Passage (§11.4)."""
    penalty = 0 if tunnels else PENALTY[state.place(village).fort]
    return max(0, cards - penalty)


def _uprising(state: FranceState, seat: str, village: str) -> FranceState:
    """The first card: the families are asked in turn, its player first, to add to it."""
    order = state.order()
    i = order.index(seat)
    queue = (*order[i:], *order[:i])
    return push(state, Pending("rally", seat, by=seat, village=village, queue=queue[1:], amount=1))


def rally_problem(state: FranceState, seat: str, card: str, target: str) -> str | None:
    """What the family asked may add to the Uprising: another Uprising on its Village (not by
    a family whose own tax is the only cause), or one Secret Passage against its fortification
    (§11.4)."""
    top = state.pending[-1]
    if target != top.village:
        return "card/rally-village"
    if card not in state.family(seat).hand:
        return "card/not-in-hand"
    if card == UPRISING:
        return uprising_problem(state, seat, target)
    if card == SECRET_PASSAGE:
        useless = top.then == "tunnels" or PENALTY[state.place(target).fort] == 0
        return "card/passage-timing" if useless else None
    return "card/rally-card"


def rally_play(state: FranceState, move: PlayCard) -> FranceState:
    why = rally_problem(state, move.seat, move.card, move.target)
    if why is not None:
        raise refuse(why, "opportunity", card=move.card, target=move.target)
    top = state.pending[-1]
    state = _discard(_from_hand(state, move.seat, move.card), move.card)
    more = (
        replace(top, amount=top.amount + 1)
        if move.card == UPRISING
        else (replace(top, then="tunnels"))
    )
    return replace(state, pending=(*state.pending[:-1], more))


def rally_pass(state: FranceState) -> FranceState:
    """The family asked adds nothing: the next is asked; after the last the Uprising goes."""
    top = state.pending[-1]
    state = pop(state)
    if top.queue:
        return push(state, replace(top, seat=top.queue[0], queue=top.queue[1:]))
    village = top.village
    dice = uprising_dice(state, village, top.amount, top.then == "tunnels")
    if dice == 0:
        return state  # 0 dice: it fails, no bonus (the Mazilles example)
    state = push(state, Pending("uprising", "table", by=top.by, village=village, amount=dice))
    return _ask_next(state, village, stoppers(state, village))


def rally_moves(state: FranceState) -> list[PlayCard | Answer]:
    top = state.pending[-1]
    seat = top.seat
    out: list[PlayCard | Answer] = [
        PlayCard(seat, card, top.village)
        for card in (UPRISING, SECRET_PASSAGE)
        if rally_problem(state, seat, card, top.village) is None
    ]
    return [*out, Answer(seat, False)]


STOP_COST = 3


def stoppers(state: FranceState, village: str) -> tuple[str, ...]:
    """Who may try to stop an Uprising, in turn (§10.3-10.4, PL "each in turn"): the
    uncaptured Bishop of the Village's Bishopric, then every uncaptured Cardinal who can pay 3
    Deniers (a Cardinal who is that Bishop tries as a Cardinal if he can pay)."""
    number = state.rules.village(village).bishopric
    out = [x.id for x in state.lords if x.captor is None and x.bishop == number]
    out += [x.id for x in state.lords if x.captor is None and x.cardinal and x.id not in out
            and state.family(x.seat).deniers >= STOP_COST]  # fmt: skip
    return tuple(out)


def _ask_next(state: FranceState, village: str, queue: tuple[str, ...]) -> FranceState:
    if not queue:
        return state
    lord = state.lord(queue[0])
    return push(state, Pending("stop-uprising", lord.seat, lord=lord.id, village=village,
                               queue=queue[1:]))  # fmt: skip


def answer_stop(state: FranceState, seat: str, yes: bool) -> FranceState:
    """A Bishop's or Cardinal's family answers: try to stop the Uprising, or not."""
    top = state.pending[-1]
    state = pop(state)
    lord = state.find_lord(top.lord)
    if not yes or lord is None:
        return _ask_next(state, top.village, top.queue)
    fam = state.family(lord.seat)
    as_cardinal = lord.cardinal and fam.deniers >= STOP_COST
    if as_cardinal:
        state = state.with_family(replace(fam, deniers=fam.deniers - STOP_COST))
    mode = "cardinal" if as_cardinal else "bishop"
    return push(state, Pending("stop-die", "table", lord=lord.id, village=top.village,
                               queue=top.queue, then=mode))  # fmt: skip


def stop_die(state: FranceState, lid: str, value: int) -> FranceState:
    """1D6: 3-6 the Uprising is stopped (the card is discarded); 1-2 it goes on, and a Bishop
    who tried is stoned to death (a Cardinal lives) (§10.3-10.4)."""
    top = state.pending[-1]
    if lid != top.lord:
        raise refuse("die/wrong-lord", "opportunity", lord=lid, expected=top.lord)
    state = pop(state)
    if value >= 3:
        return pop(state)  # the Uprising under it is stopped
    if top.then == "bishop" and state.find_lord(lid) is not None:
        state = kill(state, lid)
    rest = tuple(x for x in top.queue if state.find_lord(x) is not None)
    return _ask_next(state, top.village, rest)


def loss_choices(maa: int, knights: int, hits: int) -> list[tuple[int, int]]:
    """Every (Men at Arms, Knights) that removes as many strength points as ``hits`` allow (a
    Knight needs 3): the owner picks one (§9.4; EN §2.3.3 "The Lord of these Troops decides
    which counters are removed", FR-6)."""
    best = max(min(maa, hits - 3 * kn) + 3 * kn for kn in range(min(knights, hits // 3) + 1))
    return [
        (best - 3 * kn, kn) for kn in range(min(knights, best // 3) + 1) if best - 3 * kn <= maa
    ]


def resolve_uprising(state: FranceState, value: int) -> FranceState:
    """One of the Uprising's dice: its symbols + 1; after the last die the hits are dealt to
    the troops in the Village (§11.4: dice rolled together)."""
    top = state.pending[-1]
    if top.amount > 1:
        more = replace(top, amount=top.amount - 1, rolled=top.rolled + value + 1)
        return replace(state, pending=(*state.pending[:-1], more))
    return strike(pop(state), top.by, top.village, top.rolled + value + 1)


def struck(state: FranceState, village: str, hits: int) -> tuple[str, ...]:
    """The families whose troops in ``village`` the ``hits`` left can still kill."""
    out = []
    for seat in state.place(village).present:
        t = state.troops_at(seat, village)
        if t.count() and loss_choices(t.maa, t.knights, hits) != [(0, 0)]:
            out.append(seat)
    return tuple(out)


def strike(state: FranceState, by: str, village: str, hits: int) -> FranceState:
    """Deal an Uprising's ``hits`` left: the family that played it (``by``) chooses whose
    troops are attacked first (EN §10.1, PL L2122-2124, FR-15), each family which of its own
    counters go (FR-6); a family is asked only when it has a choice."""
    targets = struck(state, village, hits)
    if not targets:
        return _uprising_over(state, village)
    if len(targets) > 1:
        ask = Pending("uprising-strike", by, village=village, amount=hits, queue=targets)
        return push(state, ask)
    return _strike_family(state, by, village, hits, targets[0])


def _strike_family(state: FranceState, by: str, village: str, hits: int, seat: str) -> FranceState:
    t = state.troops_at(seat, village)
    choices = loss_choices(t.maa, t.knights, hits)
    if len(choices) > 1:
        return push(state, Pending("uprising-losses", seat, by=by, village=village, amount=hits))
    return _struck_loses(state, by, village, hits, seat, choices[0])


def _struck_loses(
    state: FranceState, by: str, village: str, hits: int, seat: str, lost: tuple[int, int]
) -> FranceState:
    ma, kn = lost
    t = state.troops_at(seat, village)
    state = state.with_troops(
        replace(t, maa=t.maa - ma, knights=t.knights - kn,
                fresh_maa=min(t.fresh_maa, t.maa - ma),
                fresh_knights=min(t.fresh_knights, t.knights - kn))
    )  # fmt: skip
    return strike(state, by, village, hits - ma - 3 * kn)


def strike_moves(state: FranceState) -> list[Strike]:
    top = state.pending[-1]
    return [Strike(top.seat, seat) for seat in top.queue]


def answer_strike(state: FranceState, move: Strike) -> FranceState:
    """The Uprising's player names whose troops take its hits next (FR-15)."""
    top = state.pending[-1]
    if move.seat != top.seat:
        raise refuse("answer/not-asked", "opportunity", seat=move.seat)
    if move.family not in top.queue:
        raise refuse("uprising/strike", "opportunity", family=move.family,
                     valid=", ".join(top.queue))  # fmt: skip
    return _strike_family(pop(state), top.seat, top.village, top.amount, move.family)


def struck_losses(state: FranceState) -> list[Losses]:
    top = state.pending[-1]
    t = state.troops_at(top.seat, top.village)
    return [Losses(top.seat, ma, kn) for ma, kn in loss_choices(t.maa, t.knights, top.amount)]


def answer_struck_losses(state: FranceState, move: Losses) -> FranceState:
    """The family struck removes the counters it chooses, as many strength points as the hits
    allow (FR-6)."""
    top = state.pending[-1]
    if move.seat != top.seat:
        raise refuse("answer/not-asked", "opportunity", seat=move.seat)
    valid = struck_losses(state)
    if move not in valid:
        raise refuse("uprising/losses", "opportunity", seat=move.seat, hits=top.amount,
                     valid="; ".join(f"{m.maa}+{m.knights}" for m in valid))  # fmt: skip
    lost = (move.maa, move.knights)
    return _struck_loses(pop(state), top.by, top.village, top.amount, top.seat, lost)


def _uprising_over(state: FranceState, village: str) -> FranceState:
    """Troops left: the Village stands. None: its Lords die, its Mills and a Stronghold are
    destroyed, a Fortified City stays (§11.4)."""
    if any(t.village == village for t in state.troops):
        return control.refresh(state, village)
    for lord in state.lords_at(village):
        if state.find_lord(lord.id) is not None:
            state = kill(state, lord.id)
    place = state.place(village)
    supply = dict(state.supply)
    supply["mills"] = supply.get("mills", 0) + place.mills
    if place.fort == "stronghold":
        supply["strongholds"] = supply.get("strongholds", 0) + 1
    fort: Fort = "fortified" if place.fort == "fortified" else "none"
    state = replace(state.with_place(replace(place, mills=0, fort=fort)), supply=supply)
    return control.refresh(state, village)


def ambush_problem(state: FranceState, seat: str, lord: Lord) -> str | None:
    """§11.4: a family with a Lord in the battle under way captures an opposing Lord in it."""
    b = state.battle
    lead = b.side(seat) if b is not None else None
    if b is None or lead is None:
        return "card/ambush-timing"
    if lord.seat not in b.members(b.opposing(lead)) or lord.village != b.village or lord.captor:
        return "card/target"
    mine = any(x.seat == seat and x.captor is None for x in state.lords_at(b.village))
    return None if mine else "card/ambush-lord"


# --- out of turn (FR-10) -----------------------------------------------------------------------

OUT_OF_TURN = (UPRISING, SECRET_PASSAGE, ASSASSINATION, JUSTICE, AMBUSH, CARDINAL, DARC)
"""Opportunity and Lord opportunity cards: playable at any time but the Draw step (§5)."""

WINDOW_PHASES = ("marriage", "draw", "play", "purchase", "movement", "battles", "pillage")
"""The steps a family acts in where an Opportunity card may be played: "at any time during any
phase except during the Draw phase" (EN §2.4; PL L993-995), and in the Discard step instead of
discarding (EN FAQ Phase 2; PL L2484-2485)."""


def opportunity_time(state: FranceState) -> bool:
    """Opportunity cards (and the Pope's excommunication) may be played now: a family acts in
    a step of ``WINDOW_PHASES``; in the Draw step only while the acting family has drawn
    nothing yet (its Discard; EN FAQ "Can I play an Opportunity card during the Draw phase?
    No")."""
    if state.phase not in WINDOW_PHASES:
        return False
    return state.phase != "draw" or state.family(state.current()).drawn == 0


def window_seats(state: FranceState, acting: tuple[str, ...]) -> tuple[str, ...]:
    """The families who may play an Opportunity card out of turn now: every family but those
    the game waits for, whatever their hands (so the window shows nothing of a hand), while a
    family acts in any phase but the Draw (``opportunity_time``), while an election's candidates
    are declared (PL FAQ L2478-2480) but not during its sealed vote, and no question or card is
    being resolved (a card does not interrupt another, PL FAQ)."""
    if not opportunity_time(state) or state.pending:
        return ()
    if state.election is not None and state.election.stage != "candidates":
        return ()  # not during the sealed vote
    if state.battle is not None and state.battle.stage not in ("attacker", "defender"):
        return ()
    return tuple(s for s in state.order() if s not in acting)


def window_moves(state: FranceState, seat: str, acting: tuple[str, ...]) -> list[Interject]:
    """The cards ``seat`` may play out of turn now (its phone lists them)."""
    if seat not in window_seats(state, acting):
        return []
    return [
        Interject(m.seat, m.card, m.target, m.by)
        for m in card_moves(state, seat)
        if isinstance(m, PlayCard) and m.card in OUT_OF_TURN
    ]


def interject(state: FranceState, move: Interject) -> FranceState:
    """A card played out of turn: an Opportunity or Lord opportunity card only (FR-10)."""
    if move.card not in OUT_OF_TURN:
        raise refuse("card/out-of-turn", "opportunity", card=move.card, target=move.target)
    return play(state, PlayCard(move.seat, move.card, move.target, move.by))
