"""The Pope's powers besides his votes (digest §10.5): excommunication and annulment; and the
Diplomacy markers (§12.4), which are asked and answered the same way.

- Excommunication: once a round, one Lord at a time; the Lord neither votes nor stands, and a
  Bishop or Cardinal loses those titles (the staff and biretta go back). The Pope may lift it;
  it ends with the Pope's death. Played on the Pope's family's own turn (FR-10).
- Annulment: a spouse's family asks, the Pope's family answers; a royal marriage only while no
  Crown Prince has ever been introduced (PL) (FR-27).
- Diplomacy: a family spends one of its 3 markers to ask another for up to 3 Deniers (EN); the
  other answers; the marker is spent either way. Or to ask for cards: the other hands one or
  more of its hand over, one at a time, or refuses; the asker's hand may not go above 3 (§13
  item 61). Private
  talks are table matters (FR-28).
"""

from __future__ import annotations

from dataclasses import replace

from engine.games.france1429.moves import (
    Absolve,
    Annul,
    Answer,
    AskCard,
    Diplomacy,
    Excommunicate,
    GiveCard,
)
from engine.games.france1429.refs import refuse
from engine.games.france1429.stack import pop, push
from engine.games.france1429.state import CARDINAL, FranceState, Lord, Pending

HAND_LIMIT = 3


def pope_of(state: FranceState, seat: str) -> Lord | None:
    return next((x for x in state.lords_of(seat) if x.pope), None)


def excommunicate_problem(state: FranceState, e: Excommunicate) -> str | None:
    if pope_of(state, e.seat) is None:
        return "pope/not-pope"
    target = state.find_lord(e.lord)
    if target is None or target.pope:
        return "pope/target"
    if any(x.excommunicated for x in state.lords):
        return "pope/one-at-a-time"
    if state.excommunicated_in == state.round:
        return "pope/once-a-round"
    return None


def excommunicate(state: FranceState, e: Excommunicate) -> FranceState:
    why = excommunicate_problem(state, e)
    if why is not None:
        raise refuse(why, "pope", lord=e.lord)
    target = state.lord(e.lord)
    supply, discard = dict(state.supply), dict(state.lord_discard)
    if target.cardinal and target.biretta:
        supply["biretta"] = 1
    elif target.cardinal:
        discard[CARDINAL] = discard.get(CARDINAL, 0) + 1
    target = replace(target, excommunicated=True, bishop=None, cardinal=False, biretta=False)
    state = replace(state, supply=supply, lord_discard=discard, excommunicated_in=state.round)
    return state.with_lord(target)


def absolve(state: FranceState, a: Absolve) -> FranceState:
    target = state.find_lord(a.lord)
    if pope_of(state, a.seat) is None:
        raise refuse("pope/not-pope", "pope", lord=a.lord)
    if target is None or not target.excommunicated:
        raise refuse("pope/target", "pope", lord=a.lord)
    return state.with_lord(replace(target, excommunicated=False))


def annul_problem(state: FranceState, a: Annul) -> str | None:
    lord = state.find_lord(a.lord)
    if lord is None or lord.seat != a.seat or lord.spouse is None:
        return "pope/not-married"
    pope = next((x for x in state.lords if x.pope), None)
    if pope is None:
        return "pope/no-pope"
    spouse = state.find_lord(lord.spouse)
    royal = lord.king or lord.queen or (spouse is not None and (spouse.king or spouse.queen))
    if royal and state.prince_born:
        return "pope/royal-marriage"
    if state.annul_asked == a.seat + ":" + str(state.round):
        return "pope/asked"
    return None


def annul(state: FranceState, a: Annul) -> FranceState:
    """A spouse's family asks the Pope to annul the marriage; the Pope's family answers."""
    why = annul_problem(state, a)
    if why is not None:
        raise refuse(why, "pope", lord=a.lord)
    pope = next(x for x in state.lords if x.pope)
    state = replace(state, annul_asked=a.seat + ":" + str(state.round))
    if pope.seat == a.seat:
        return _annulled(state, a.lord)
    return push(state, Pending("annul", pope.seat, by=a.seat, lord=a.lord))


def answer_annulment(state: FranceState, a: Answer) -> FranceState:
    top = state.pending[-1]
    state = pop(state)
    return _annulled(state, top.lord) if a.yes else state


def _annulled(state: FranceState, lid: str) -> FranceState:
    lord = state.lord(lid)
    if lord.spouse is not None and state.find_lord(lord.spouse) is not None:
        state = state.with_lord(replace(state.lord(lord.spouse), spouse=None))
    return state.with_lord(replace(state.lord(lid), spouse=None))


def pope_moves(state: FranceState, seat: str) -> list[Excommunicate | Absolve | Annul]:
    out: list[Excommunicate | Absolve | Annul] = []
    if pope_of(state, seat) is not None:
        for x in state.lords:
            e = Excommunicate(seat, x.id)
            if excommunicate_problem(state, e) is None:
                out.append(e)
            if x.excommunicated:
                out.append(Absolve(seat, x.id))
    for x in state.lords_of(seat):
        a = Annul(seat, x.id)
        if annul_problem(state, a) is None:
            out.append(a)
    return out


def diplomacy_problem(state: FranceState, d: Diplomacy) -> str | None:
    if d.other == d.seat or d.other not in state.seats:
        return "diplomacy/other"
    if state.family(d.seat).diplomacy < 1:
        return "diplomacy/no-marker"
    if state.option("open_diplomacy"):
        return "diplomacy/open"
    return None if 1 <= d.deniers <= 3 else "diplomacy/amount"


def diplomacy(state: FranceState, d: Diplomacy) -> FranceState:
    why = diplomacy_problem(state, d)
    if why is not None:
        raise refuse(why, "diplomacy", other=d.other)
    fam = state.family(d.seat)
    state = state.with_family(replace(fam, diplomacy=fam.diplomacy - 1))
    return push(state, Pending("diplomacy", d.other, by=d.seat, amount=d.deniers))


def answer_diplomacy(state: FranceState, a: Answer) -> FranceState:
    top = state.pending[-1]
    state = pop(state)
    if not a.yes:
        return state
    giver = state.family(top.seat)
    amount = min(top.amount, giver.deniers)
    state = state.with_family(replace(giver, deniers=giver.deniers - amount))
    taker = state.family(top.by)
    return state.with_family(replace(taker, deniers=taker.deniers + amount))


def diplomacy_moves(state: FranceState, seat: str) -> list[Diplomacy]:
    if state.family(seat).diplomacy < 1 or state.option("open_diplomacy"):
        return []
    return [Diplomacy(seat, o, n) for o in state.seats if o != seat for n in (1, 2, 3)]


def ask_card_problem(state: FranceState, a: AskCard) -> str | None:
    """A card asked for with a Diplomacy marker must fit in the asker's hand (§12.4: the hand
    limit of 3 still applies)."""
    why = diplomacy_problem(state, Diplomacy(a.seat, a.other, 1))
    if why is not None:
        return why
    if len(state.family(a.seat).hand) >= HAND_LIMIT:
        return "diplomacy/hand-full"
    return None


def ask_card(state: FranceState, a: AskCard) -> FranceState:
    why = ask_card_problem(state, a)
    if why is not None:
        raise refuse(why, "diplomacy", other=a.other)
    fam = state.family(a.seat)
    state = state.with_family(replace(fam, diplomacy=fam.diplomacy - 1))
    return push(state, Pending("card", a.other, by=a.seat))


def give_card(state: FranceState, g: GiveCard) -> FranceState:
    """The asked family hands a card of its hand to the asker (hidden from the others); one
    marker may bring "one or more cards" (EN §8.0; PL L2022-2024), so the question stays open
    while the giver has a card and the asker room for it (the hand limit of 3): the giver gives
    another or stops (a no)."""
    top = state.pending[-1]
    giver = state.family(g.seat)
    if g.card not in giver.hand:
        raise refuse("diplomacy/not-in-hand", "diplomacy", card=g.card)
    taker = state.family(top.by)
    if len(taker.hand) >= HAND_LIMIT:
        raise refuse("diplomacy/hand-full", "diplomacy", other=top.by)
    left = list(giver.hand)
    left.remove(g.card)
    state = state.with_family(replace(giver, hand=tuple(left)))
    state = state.with_family(replace(taker, hand=(*taker.hand, g.card)))
    if left and len(taker.hand) + 1 < HAND_LIMIT:
        return state
    return pop(state)


def card_answers(state: FranceState) -> list[GiveCard | Answer]:
    top = state.pending[-1]
    cards = dict.fromkeys(state.family(top.seat).hand)
    return [*(GiveCard(top.seat, c) for c in cards), Answer(top.seat, False)]


def ask_card_moves(state: FranceState, seat: str) -> list[AskCard]:
    return [
        AskCard(seat, o)
        for o in state.seats
        if o != seat and ask_card_problem(state, AskCard(seat, o)) is None
    ]
