"""Phase 2 (a) and (b): discarding, drawing, the table's deal, the Disaster track (§5, §11.2).

A seat discards any cards first, then draws up to 2 cards, never 2 Lords, to a hand of at most
3. The card drawn is the table's report (a chance move): a Disaster goes face down on the first
empty track space (or, the track full, face up to the discard pile) and the seat keeps drawing
until a grey card comes. An empty deck is the shuffled discard pile. Then each Disaster on the
track is placed by 1D6 (6: false alarm; the same type twice on a Bishopric: re-roll, EN, or
discard, PL: option ``duplicate_disaster``); Plague strikes at once.
"""

from __future__ import annotations

from dataclasses import replace

from engine.games.france1429 import control
from engine.games.france1429.deaths import kill
from engine.games.france1429.moves import Deal, DisasterDie, Discard, Draw, LordDie, Losses
from engine.games.france1429.refs import refuse
from engine.games.france1429.stack import pop, push
from engine.games.france1429.state import (
    DISASTERS,
    PLAGUE,
    BishopricCard,
    FranceState,
    Pending,
    Troops,
)

HAND_LIMIT = 3


def deck_of(state: FranceState, name: str) -> dict[str, int]:
    return state.lord_deck if name == "lords" else state.fortune_deck


def _set_deck(
    state: FranceState, name: str, deck: dict[str, int], discard: dict[str, int]
) -> FranceState:
    deck = {k: v for k, v in deck.items() if v > 0}
    discard = {k: v for k, v in discard.items() if v > 0}
    if name == "lords":
        return replace(state, lord_deck=deck, lord_discard=discard)
    return replace(state, fortune_deck=deck, fortune_discard=discard)


def _discard_of(state: FranceState, name: str) -> dict[str, int]:
    return state.lord_discard if name == "lords" else state.fortune_discard


def _reshuffled(state: FranceState, name: str) -> FranceState:
    """An empty deck is replaced by its shuffled discard pile (§5 Phase 2)."""
    if sum(deck_of(state, name).values()) > 0:
        return state
    return _set_deck(state, name, dict(_discard_of(state, name)), {})


def deck_name(state: FranceState, card: str) -> str:
    return "lords" if card in dict(state.rules.lord_cards) or state.rules.lord(card) else "fortune"


def can_draw(state: FranceState, seat: str, deck: str) -> str | None:
    """Why the seat may not draw from ``deck`` now (None: it may)."""
    fam = state.family(seat)
    if fam.drawn >= 2:
        return "draw/two-cards"
    if deck == "lords" and fam.drawn_lord:
        return "draw/two-lords"
    if len(fam.hand) >= HAND_LIMIT:
        return "draw/hand-limit"
    pool = {**deck_of(state, deck)}
    for k, v in _discard_of(state, deck).items():
        pool[k] = pool.get(k, 0) + v
    if not any(v > 0 and k not in DISASTERS for k, v in pool.items()):
        return "draw/empty-deck"
    return None


def discard(state: FranceState, move: Discard) -> FranceState:
    fam = state.family(move.seat)
    if fam.drawn:
        raise refuse("draw/discard-after-draw", "draw")
    if move.card not in fam.hand:
        raise refuse("card/not-in-hand", "draw", card=move.card)
    hand = list(fam.hand)
    hand.remove(move.card)
    state = state.with_family(replace(fam, hand=tuple(hand), discarded=True))
    name = deck_name(state, move.card)
    pile = dict(_discard_of(state, name))
    pile[move.card] = pile.get(move.card, 0) + 1
    return _set_deck(state, name, dict(deck_of(state, name)), pile)


def draw(state: FranceState, move: Draw) -> FranceState:
    why = can_draw(state, move.seat, move.deck)
    if why is not None:
        raise refuse(why, "draw", deck=move.deck)
    state = _reshuffled(state, move.deck)
    return push(state, Pending("deal", "table", by=move.seat, deck=move.deck))


def deal(state: FranceState, move: Deal) -> FranceState:
    """The card the seat drew, reported by the table."""
    top = state.pending[-1]
    if move.to != top.by:
        raise refuse("draw/wrong-seat", "draw", seat=move.to, expected=top.by)
    deck = dict(deck_of(state, top.deck))
    if deck.get(move.card, 0) < 1:
        raise refuse("draw/not-in-deck", "draw", card=move.card)
    deck[move.card] -= 1
    state = _set_deck(state, top.deck, deck, dict(_discard_of(state, top.deck)))
    if move.card in DISASTERS:
        if len(state.track) < 3:
            state = replace(state, track=(*state.track, move.card))
        else:
            pile = dict(state.fortune_discard)
            pile[move.card] = pile.get(move.card, 0) + 1
            state = replace(state, fortune_discard=pile)
        return _reshuffled(state, top.deck)  # the seat keeps drawing: the deal stays pending
    fam = state.family(top.by)
    fam = replace(
        fam,
        hand=(*fam.hand, move.card),
        drawn=fam.drawn + 1,
        drawn_lord=fam.drawn_lord or top.deck == "lords",
    )
    return pop(state.with_family(fam))


def dealable(state: FranceState) -> tuple[str, ...]:
    """The cards the pending deal may show (what is left in the deck)."""
    top = state.pending[-1]
    return tuple(sorted(k for k, v in deck_of(state, top.deck).items() if v > 0))


# --- the Disaster track (Phase 2 b) ----------------------------------------------------------


def _next_disaster(state: FranceState) -> FranceState:
    resolved = state.resolved + 1
    if resolved >= len(state.track):
        return replace(state, track=(), resolved=0, phase="play", turn=0)
    return replace(state, resolved=resolved)


def disaster_die(state: FranceState, move: DisasterDie) -> FranceState:
    """Place the next Disaster card by its 1D6 (§11.2)."""
    card = state.track[state.resolved]
    if move.value == 6:
        pile = dict(state.fortune_discard)
        pile[card] = pile.get(card, 0) + 1
        return _next_disaster(replace(state, fortune_discard=pile))
    number = move.value
    if any(c.bishopric == number and c.card == card for c in state.mitres):
        if state.option("duplicate_disaster") == "discard":
            pile = dict(state.fortune_discard)
            pile[card] = pile.get(card, 0) + 1
            return _next_disaster(replace(state, fortune_discard=pile))
        return state  # EN: roll again
    state = replace(state, mitres=(*state.mitres, BishopricCard(number, card)))
    if card != PLAGUE:
        return _next_disaster(state)
    lords = tuple(x.id for x in state.lords if state.rules.village(x.village).bishopric == number)
    state = halve_bishopric(state, number)
    if not lords:
        return _next_disaster(state)
    return push(state, Pending("plague-die", "table", queue=lords, then="disasters"))


def plague_choices(maa: int, knights: int, loss: int) -> list[tuple[int, int]]:
    """The (Men at Arms, Knights) an army may lose to Plague: ``loss`` counters of any kind
    (EN §2.3.3 "The Lord of these Troops decides which counters are removed"; PL L940-941)."""
    return [(loss - kn, kn) for kn in range(max(0, loss - maa), min(loss, knights) + 1)]


def lose(t: Troops, maa: int, knights: int) -> Troops:
    """``t`` less ``maa`` Men at Arms and ``knights`` Knights, halved by Plague this round."""
    return replace(
        t,
        maa=t.maa - maa,
        knights=t.knights - knights,
        fresh_maa=min(t.fresh_maa, t.maa - maa),
        fresh_knights=min(t.fresh_knights, t.knights - knights),
        halved=True,
    )


def halve_bishopric(state: FranceState, number: int) -> FranceState:
    """Plague: each family's army in each Village of the Bishopric loses half its counters,
    rounded down (§11.2); a family with a choice of which is asked (FR-6)."""
    for vid in state.rules.in_bishopric(number):
        for t in [t for t in state.troops if t.village == vid]:
            choices = plague_choices(t.maa, t.knights, t.count() // 2)
            if len(choices) > 1:
                state = state.with_troops(replace(t, halved=True))
                state = push(state, Pending("plague-losses", t.seat, village=vid,
                                            amount=t.count() // 2))  # fmt: skip
            else:
                state = state.with_troops(lose(t, *choices[0]))
        state = control.refresh(state, vid)
    return state


def _plague_limits(state: FranceState, top: Pending) -> tuple[int, int]:
    """What the asked army may lose from: a Lord's escort entering the Bishopric, or the whole
    army in the Village."""
    lord = state.find_lord(top.lord) if top.lord else None
    if lord is not None:
        return lord.escort_maa, lord.escort_knights
    t = state.troops_at(top.seat, top.village)
    return t.maa, t.knights


def plague_losses(state: FranceState) -> list[Losses]:
    top = state.pending[-1]
    return [Losses(top.seat, ma, kn) for ma, kn in plague_choices(*_plague_limits(state, top),
                                                                 top.amount)]  # fmt: skip


def answer_plague(state: FranceState, move: Losses) -> FranceState:
    """The family asked removes the Plague's counters it chooses (FR-6)."""
    top = state.pending[-1]
    if move.seat != top.seat:
        raise refuse("answer/not-asked", "disaster", seat=move.seat)
    valid = plague_losses(state)
    if move not in valid:
        raise refuse("plague/losses", "disaster", seat=move.seat, count=top.amount,
                     valid="; ".join(f"{m.maa}+{m.knights}" for m in valid))  # fmt: skip
    lord = state.find_lord(top.lord) if top.lord else None
    state = pop(state)
    state = state.with_troops(lose(state.troops_at(top.seat, top.village), move.maa, move.knights))
    if lord is not None:
        escort = (lord.escort_maa - move.maa, lord.escort_knights - move.knights)
        state = state.with_lord(replace(lord, escort_maa=escort[0], escort_knights=escort[1]))
    return control.refresh(state, top.village)


def lord_die(state: FranceState, move: LordDie) -> FranceState:
    """A Lord's 1D6 for Plague or an Assassination: 1-3 he dies (§11.2, §11.4)."""
    top = state.pending[-1]
    if not top.queue or move.lord != top.queue[0]:
        raise refuse(
            "die/wrong-lord",
            "disaster",
            lord=move.lord,
            expected=top.queue[0] if top.queue else "-",
        )
    if state.find_lord(move.lord) is not None and move.value <= 3:
        state = kill(state, move.lord)
    elif state.find_lord(move.lord) is not None and top.kind == "plague-die":
        state = state.with_lord(replace(state.lord(move.lord), plague_rolled=True))
    rest = tuple(x for x in top.queue[1:] if state.find_lord(x) is not None)
    if rest:
        return replace(state, pending=(*state.pending[:-1], replace(top, queue=rest)))
    state = pop(state)
    if top.then == "disasters":
        return _next_disaster(state)
    return state
