"""The rules' dispatch: which rule takes a move (a question on the stack first, then the
sub-game under way, then the phase), every legal move of the seat the game waits for, and what a
simulated table reports next.

Apart from the game object (``game``) so that what looks ahead with the rules (``preview``)
applies a move without the object that registers the game.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engine.games.france1429 import (
    cards,
    drawing,
    fighting,
    flow,
    handover,
    movement,
    papacy,
    purchase,
    relics,
    rounds,
    setup,
    war,
)
from engine.games.france1429.moves import (
    CHANCE_TYPES,
    Absolve,
    Annul,
    AskCard,
    AskPass,
    Attack,
    Buy,
    Capture,
    Cavalcade,
    DealLord,
    Diplomacy,
    DisasterDie,
    Discard,
    Done,
    Draw,
    Excommunicate,
    GiveControl,
    GiveRelic,
    GiveTitle,
    Grant,
    Interject,
    Join,
    March,
    Pillage,
    PlaceRelics,
    PlaceStart,
    PlayCard,
    PlayLord,
    Propose,
    Siege,
    TakeRelic,
    UseRelic,
    actor,
)
from engine.games.france1429.questions import QUESTIONS, weighted
from engine.games.france1429.refs import refuse
from engine.games.france1429.state import FranceState

CARD_PHASES = ("play", "purchase", "movement", "battles")


def apply(state: FranceState, move: Any) -> FranceState:
    """The next state, or ``Refused`` with the reason (state untouched); after a move in
    which Lords died, the Teeth of Saint Géronce's family is asked (FR-34)."""
    asking = bool(state.pending) and state.pending[-1].kind == "teeth"
    if state.fallen and not asking:
        state = replace(state, fallen=())
    after = _apply(state, move)
    if after.fallen and not (after.pending and after.pending[-1].kind == "teeth"):
        after = relics.ask_teeth(after)
    return after


def _apply(state: FranceState, move: Any) -> FranceState:
    if state.last_lines:
        state = replace(state, last_lines=())  # itemised lines belong to the move that made them
    pending = state.pending[-1] if state.pending else None
    if pending is not None:
        after = QUESTIONS[pending.kind].take(state, pending, move)
        if after is None:
            raise refuse("round/waiting", "round", waiting=pending.kind)
        return after
    if isinstance(move, Interject):
        if not out_of_turn(state, move.seat):
            raise refuse("round/not-now", "round", kind=type(move).kind)
        return cards.interject(state, move)
    if isinstance(move, Join) and out_of_turn(state, move.seat):
        return war.switch(state, move)  # allies change sides mid-battle (EN §6.0; FR-32)
    if isinstance(move, Excommunicate | Absolve) and out_of_turn(state, move.seat):
        # "at any time" (EN p.6 §1.7 the Pope's privileges; PL L686-687, L696-697; FR-27)
        if isinstance(move, Excommunicate):
            return papacy.excommunicate(state, move)
        return papacy.absolve(state, move)
    sequence = rounds.running(state)
    if sequence is not None:
        return rounds.after(sequence, state, sequence.apply(state, move))
    phase = state.phase
    if isinstance(move, DealLord) and phase == "deal-lord":
        return rounds.next_seat(setup.deal_lord(state, move))
    if isinstance(move, PlaceRelics) and phase == "relics":
        return rounds.next_phase(relics.place(state, move))
    if isinstance(move, DisasterDie) and phase == "disasters":
        return drawing.disaster_die(state, move)
    if isinstance(move, CHANCE_TYPES) or actor(move) != state.current():
        raise refuse("round/not-now", "round", kind=type(move).kind)
    if isinstance(move, PlaceStart) and phase == "place":
        return rounds.next_seat(setup.place_start(state, move))
    if isinstance(move, Done) and phase == "movement" and movement.must_ride_on(state, move.seat):
        raise refuse("cavalcade/ride-on", "cavalcade", lord="")
    if isinstance(move, Done) and phase == "battles":
        return rounds.end_turn(fighting.continue_sieges(state, move.seat))
    if isinstance(move, Done) and phase in flow.SEAT_PHASES and phase != "place":
        return rounds.end_turn(state)
    if isinstance(move, Propose) and phase == "marriage":
        return fighting.propose(state, move)
    if isinstance(move, Discard) and phase == "draw":
        return drawing.discard(state, move)
    if isinstance(move, Draw) and phase == "draw":
        return drawing.draw(state, move)
    if isinstance(move, PlayLord) and phase == "play":
        return cards.play_lord(state, move)
    if isinstance(move, PlayCard) and phase in ("play", "purchase", "movement", "battles"):
        return cards.play(state, move)
    opportunity = isinstance(move, PlayCard) and move.card in cards.OUT_OF_TURN
    if opportunity and cards.opportunity_time(state):  # Phase 1, the Discard, Pillage (FR-10)
        return cards.play(state, move)
    if isinstance(move, Excommunicate | Absolve) and cards.opportunity_time(state):
        if isinstance(move, Excommunicate):
            return papacy.excommunicate(state, move)
        return papacy.absolve(state, move)
    if isinstance(move, Buy) and phase == "purchase":
        return purchase.buy(state, move)
    if isinstance(move, March) and phase == "movement":
        return movement.move(state, move)
    if isinstance(move, Cavalcade) and phase == "movement":
        return movement.cavalcade(state, move)
    if isinstance(move, AskPass) and phase == "movement":
        return movement.ask(state, move)
    if isinstance(move, TakeRelic) and phase in CARD_PHASES:
        return relics.take(state, move)
    if isinstance(move, GiveRelic) and phase in CARD_PHASES:
        return relics.give(state, move)
    if isinstance(move, UseRelic) and phase == "play":
        return relics.use(state, move)
    if isinstance(move, GiveControl) and phase in CARD_PHASES:
        return handover.give(state, move)
    if isinstance(move, Diplomacy) and phase in CARD_PHASES:
        return papacy.diplomacy(state, move)
    if isinstance(move, AskCard) and phase in CARD_PHASES:
        return papacy.ask_card(state, move)
    if isinstance(move, Excommunicate | Absolve | Annul) and phase in CARD_PHASES:
        if isinstance(move, Excommunicate):
            return papacy.excommunicate(state, move)
        if isinstance(move, Absolve):
            return papacy.absolve(state, move)
        return papacy.annul(state, move)
    if isinstance(move, Attack) and phase == "battles":
        return war.attack(state, move)
    if isinstance(move, Capture) and phase == "battles":
        return fighting.capture(state, move)
    if isinstance(move, Siege) and phase == "battles":
        return fighting.siege(state, move)
    if isinstance(move, Grant) and phase == "purchase":
        return purchase.grant(state, move)
    if isinstance(move, GiveTitle) and phase == "purchase":
        return fighting.give_title(state, move)
    if isinstance(move, Pillage) and phase == "pillage":
        return fighting.pillage(state, move)
    raise refuse("round/not-now", "round", kind=type(move).kind)


def out_of_turn(state: FranceState, seat: str) -> bool:
    """``seat`` is not the one the game waits for and the opportunity window is open to it."""
    pos = rounds.position(state)
    return any(seat in w.seats for w in pos.windows) and seat not in pos.actors


def window_moves(state: FranceState, seat: str) -> list[Any]:
    """The Opportunity and Lord opportunity cards ``seat`` may play out of turn now (FR-10),
    and the Pope's excommunication and its lifting "at any time" (FR-27); not among
    ``legal_moves``, which are the moves of the seats the game waits for."""
    actors = rounds.position(state).actors
    plays: list[Any] = cards.window_moves(state, seat, actors)
    if seat not in cards.window_seats(state, actors):
        return plays
    pope = papacy.pope_moves(state, seat)
    sides = war.switch_moves(state, seat) if state.battle is not None else []
    return [*plays, *(m for m in pope if isinstance(m, Excommunicate | Absolve)), *sides]


def legal_moves(state: FranceState) -> list[Any]:
    """Every legal move of the seat the game waits for (none while the table must report)."""
    if state.phase == "over":
        return []
    if state.pending:
        top = state.pending[-1]
        return QUESTIONS[top.kind].legal(state, top)
    sequence = rounds.running(state)
    if sequence is not None:
        return sequence.legal_moves(state)
    phase = state.phase
    if phase in ("deal-lord", "disasters", "relics"):
        return []
    seat = state.current()
    done: list[Any] = [Done(seat)]
    if phase == "place":
        return [PlaceStart(seat, v) for v in setup.placeable(state)]
    if phase in ("marriage", "draw", "pillage") and cards.opportunity_time(state):
        done = [*_any_time(state, seat), *done]
    if phase == "marriage":
        return [*fighting.propose_moves(state, seat), *done]
    if phase == "draw":
        fam = state.family(seat)
        out: list[Any] = []
        if not fam.drawn:
            out += [Discard(seat, c) for c in dict.fromkeys(fam.hand)]
        out += [
            Draw(seat, d) for d in ("lords", "fortune") if drawing.can_draw(state, seat, d) is None
        ]
        return [*out, *done]
    if phase in CARD_PHASES:
        done = [
            *papacy.pope_moves(state, seat),
            *papacy.diplomacy_moves(state, seat),
            *papacy.ask_card_moves(state, seat),
            *relics.relic_moves(state, seat),
            *handover.give_moves(state, seat),
            *done,
        ]
    if phase == "play":
        return [*cards.card_moves(state, seat), *done]
    if phase == "purchase":
        buys = [
            *purchase.buy_moves(state, seat),
            *fighting.give_moves(state, seat),
            *purchase.grant_moves(state, seat),
        ]
        return [*buys, *cards.card_moves(state, seat), *done]
    if phase == "movement":
        rides = [*movement.move_moves(state, seat), *movement.cavalcade_moves(state, seat)]
        if movement.must_ride_on(state, seat):
            done = []
        return [*rides, *cards.card_moves(state, seat), *done]
    if phase == "battles":
        fights = [*war.attack_moves(state, seat), *fighting.battle_moves(state, seat),
                  *fighting.siege_moves(state, seat)]  # fmt: skip
        return [*fights, *cards.card_moves(state, seat), *done]
    if phase == "pillage":
        return [*fighting.pillage_moves(state, seat), *done]
    return []


def _any_time(state: FranceState, seat: str) -> list[Any]:
    """On its own turn in a step that is not Phases 2c-6: the Opportunity cards and the Pope's
    excommunication and its lifting, which "any time" allows (EN §2.4, p.6 §1.7; FR-10, FR-27)."""
    plays = [m for m in cards.card_moves(state, seat)
             if isinstance(m, PlayCard) and m.card in cards.OUT_OF_TURN]  # fmt: skip
    pope = [m for m in papacy.pope_moves(state, seat) if isinstance(m, Excommunicate | Absolve)]
    return [*plays, *pope]


def sample_chance(state: FranceState, rng: random.Random) -> Any:
    """What a simulated table reports next: a card drawn, a die rolled (None: a seat acts)."""
    if state.phase == "over":
        return None
    if state.pending:
        top = state.pending[-1]
        return QUESTIONS[top.kind].report(state, top, rng)
    sequence = rounds.running(state)
    if sequence is not None:
        return sequence.report(state, rng)
    if state.phase == "deal-lord":
        lords = {k: v for k, v in state.lord_deck.items() if state.rules.lord(k) is not None}
        return DealLord(state.current(), weighted(lords, rng))
    if state.phase == "disasters":
        return DisasterDie(rng.randint(1, 6))
    if state.phase == "relics":
        order = list(state.rules.relics)
        rng.shuffle(order)
        return PlaceRelics(tuple(order))
    return None
