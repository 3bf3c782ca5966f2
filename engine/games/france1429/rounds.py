"""The round of 7 phases on the declarative turn flow (digest §5).

1 Hear Ye (marriages, then the elections of ``hear_ye``), 2 Discard, Draw & Play
Cards (draw, the table's deal, the Disaster track's dice, play), 3 Income (no move: paid on
leaving Phase 2), 4 Purchase (ransoms first, automatically), 5 Movement, 6 Battles then Pillage,
7 End Round (no move: Disasters discarded, victory checked, the First Player card passed left).

Within a phase each family acts in turn clockwise from the First Player and ends its turn with
``done``. A question put to another family (a proposal, a request to pass) is a sub-game whose
one step waits for that family's answer; the table's reports (a card drawn, a die) are steps of
their own (``questions``).

This is the round driver, the one module that knows the order of the phases (setup's deal,
placement and relics included) and what follows a sub-game: the rules and the sequences
(``sequence``: a battle, the elections) never call back into it; they change the state, and the
dispatch hands the result here (``next_seat``, ``next_phase``, ``after``).
"""

from __future__ import annotations

from dataclasses import replace

from engine.flow import OpenWindow, Position
from engine.game import TABLE
from engine.games.france1429 import hear_ye, war
from engine.games.france1429.cards import window_seats
from engine.games.france1429.control import follow_fortified
from engine.games.france1429.income import collect
from engine.games.france1429.movement import after_cavalcade
from engine.games.france1429.purchase import pay_ransoms
from engine.games.france1429.questions import QUESTIONS
from engine.games.france1429.sequence import Sequence
from engine.games.france1429.state import FranceState
from engine.games.france1429.victory import winners

SEQUENCES: tuple[Sequence, ...] = (war.BATTLE, hear_ye.ELECTIONS)
"""The sub-games a phase may run (at most one at a time), in the order a move reaches them."""


def running(state: FranceState) -> Sequence | None:
    """The sub-game under way, if any (a question on the stack comes before it)."""
    return next((x for x in SEQUENCES if x.running(state)), None)


def position(state: FranceState) -> Position:
    """Where the round stands and who acts: a pending question first, then a sub-game under way,
    else the phase."""
    if state.phase == "over":
        return Position("over", ())
    if state.pending:
        top = state.pending[-1]
        return QUESTIONS[top.kind].position(top)
    sequence = running(state)
    if sequence is not None:
        pos = sequence.position(state)
        return _windowed(state, pos) if sequence.windowed else pos
    if state.phase in ("deal-lord", "disasters", "relics"):
        return Position(state.phase, (TABLE,))
    return _windowed(state, Position(state.phase, (state.current(),)))


def _windowed(state: FranceState, pos: Position) -> Position:
    """The position with the ``opportunity`` window open to the other families (FR-10)."""
    seats = window_seats(state, pos.actors)
    if not seats:
        return pos
    return replace(pos, windows=(OpenWindow("opportunity", seats),))


# --- phases ------------------------------------------------------------------------------------


def start_round(state: FranceState) -> FranceState:
    """A new round: Phase 1 with the First Player."""
    lords = tuple(replace(x, plague_rolled=False) for x in state.lords)
    state = replace(state, round=state.round + 1, turn=0, proposed=(), last_lines=(), lords=lords,
                    relics_used=())  # Roseline and Rhadegund: once a round (FR-30)  # fmt: skip
    return replace(state, phase="marriage")


def end_turn(state: FranceState) -> FranceState:
    """The acting family is done in this phase: the next one clockwise, or the next phase."""
    for place in state.places:
        if place.fort == "fortified":
            state = follow_fortified(state, place.id)
    return next_seat(state)


def next_seat(state: FranceState) -> FranceState:
    """The next family clockwise, or the next phase once every family has had its turn; a
    setup step whose one move ends the turn (a Lord card dealt, a start placed) comes here."""
    if state.turn + 1 < len(state.seats):
        return replace(state, turn=state.turn + 1)
    return next_phase(replace(state, turn=0))


def next_phase(state: FranceState) -> FranceState:
    """Leave the current phase (every family has had its turn) for the next one."""
    phase = state.phase
    if phase == "deal-lord":
        return replace(state, phase="place")
    if phase == "place":
        if state.option("holy_relics") and state.rules.relics:
            return replace(state, phase="relics")  # the table lays them (§4 step 12)
        return start_round(state)
    if phase == "relics":
        return start_round(state)
    if phase == "marriage":
        return after_election(hear_ye.start(state))
    if phase == "draw":
        return start_disasters(state)
    if phase == "play":
        return start_purchase(collect(state))
    if phase == "purchase":
        return start_movement(state)
    if phase == "movement":
        return start_battles(state)
    if phase == "battles":
        return replace(state, phase="pillage")
    if phase == "pillage":
        return end_round(state)
    raise AssertionError(f"no phase after {phase}")


def after(sequence: Sequence, before: FranceState, state: FranceState) -> FranceState:
    """After a move in ``sequence`` (``before`` it, ``state`` after it): once it is done, what
    comes next, which is the round's to know, not the sequence's. After the elections, the Draw
    step; after a Cavalcade's battle, its Lord rides on or stops (§8.5); after any other
    battle, the Battles phase goes on with the family whose turn it is."""
    if sequence.running(state):
        return state
    if sequence is hear_ye.ELECTIONS:
        return start_draw(state)
    battle = before.battle
    if sequence is war.BATTLE and battle is not None and battle.cavalcade:
        return after_cavalcade(state, battle)
    return state


def after_election(state: FranceState) -> FranceState:
    """After the elections changed other than by a move in them (opened, or their sealed votes
    revealed): the Draw step once they are over."""
    return after(hear_ye.ELECTIONS, state, state)


def start_draw(state: FranceState) -> FranceState:
    families = tuple(replace(f, drawn=0, drawn_lord=False, discarded=False) for f in state.families)
    return replace(state, phase="draw", families=families, turn=0)


def start_disasters(state: FranceState) -> FranceState:
    """Phase 2(b): the Disaster track's cards are resolved one at a time (§11.2); with the
    beginners' variant they are discarded unresolved in the first round (§4 step 14)."""
    if state.track and state.round == 1 and state.option("first_round_disasters") == "discard":
        discard = dict(state.fortune_discard)
        for card in state.track:
            discard[card] = discard.get(card, 0) + 1
        state = replace(state, track=(), fortune_discard=discard)
    if not state.track:
        return replace(state, phase="play", turn=0)
    return replace(state, phase="disasters", resolved=0)


def start_purchase(state: FranceState) -> FranceState:
    families = tuple(replace(f, placed={}) for f in state.families)
    return pay_ransoms(replace(state, phase="purchase", families=families, turn=0))


def start_movement(state: FranceState) -> FranceState:
    """Phase 5: every Lord has his Moves again and every troop counter is unmoved."""
    lords = tuple(
        replace(
            x, moves=0, escort_maa=0, escort_knights=0, came_from=None, passage=None, asked=None
        )
        for x in state.lords
    )
    troops = tuple(
        replace(t, fresh_maa=t.maa, fresh_knights=t.knights, halved=False) for t in state.troops
    )
    return replace(state, phase="movement", lords=lords, troops=troops, turn=0)


def start_battles(state: FranceState) -> FranceState:
    """Phase 6. A siege's engine is flipped when its besieger ends his battles
    (``fighting.continue_sieges``), not here: his attacks this round still see the 1-die side."""
    return replace(state, phase="battles", fought=())


def end_round(state: FranceState) -> FranceState:
    """Phase 7: Disasters leave the map, victory is checked, the First Player card passes left."""
    discard = dict(state.fortune_discard)
    for card in state.mitres:
        discard[card.card] = discard.get(card.card, 0) + 1
    state = replace(state, mitres=(), fortune_discard=discard)
    won = winners(state)
    if won:
        return replace(state, phase="over", winners=won)
    limit = state.option("max_rounds") or 0
    if limit and state.round >= limit:
        return replace(state, phase="over", winners=())
    state = replace(state, first=(state.first + 1) % len(state.seats))
    return start_round(state)
