"""The Refresh Phase (§4.4) and the start of a round.

Steps 1-4 need nobody: the new turn order by the crest shift [L566-579], pawns off the board,
every token active again [L583], income from each Character card [L585]. Steps 5-6 draw from
shuffled stacks and decks, so the table reports them (``Refill``): the Ally Track refilled from
the right, stack I first, then II, then III [L587-591], and four new cards under each Quest deck
[L593-594]. Step 7 moves the Event on; the round's Event is ``events[round - 1]``.
"""

from __future__ import annotations

from engine.evolve import evolve
from engine.games.glory import solo
from engine.games.glory.components import COLUMN, PAWNS, missing_data
from engine.games.glory.data_types import DECKS
from engine.games.glory.effects import (
    apply_reward,
    box,
    refresh_tokens,
    remove,
    set_player,
)
from engine.games.glory.effects import (
    carries_special_ally as _special,
)
from engine.games.glory.refs import GREF, Refused, refuse_if, v
from engine.games.glory.setup_phase import open_spaces
from engine.games.glory.state import GloryState, LedgerLine, Refill
from engine.violations import Violation

NORMAL_STACKS = ("I", "II", "III")


def new_order(order: tuple[str, ...], pawns: tuple[str, ...]) -> tuple[str, ...]:
    """Initiative users to the front in their pawns' order; the rest keep their relative order
    [L566-579]; nobody took Initiative → no change [L484-486]."""
    return (*pawns, *(s for s in order if s not in pawns))


def enter_refresh(state: GloryState) -> GloryState:
    """Steps 1-4 of the Refresh Phase; the table then reports the refill."""
    state = evolve(state, order=new_order(state.order, state.initiative_pawns),
                   initiative_pawns=(), placements=(), phase="refresh")  # fmt: skip
    b = box(state)
    incomes: dict[str, tuple[LedgerLine, ...]] = {}
    for seat in state.order:
        p = refresh_tokens(state.player(seat))
        state = set_player(state, p)
        if p.sir:
            continue
        income = b.characters[p.character].income
        if income is None:
            raise missing_data(f"the income of Character card {p.character}",
                               "pay income in the Refresh Phase", "the game data file")  # fmt: skip
        before = len(state.ledger)
        state = apply_reward(state, seat, income, "income", "refresh")
        tokens = tuple(
            LedgerLine(seat, amount, f"income/{what}", GREF["refresh"], state.round,
                       {"character": p.character})
            for what, amount in (("coins", income.coins), ("strength", income.strength),
                                 ("faith", income.faith))
            if amount
        )  # fmt: skip
        incomes[seat] = (*tokens, *state.ledger[before:])
    return evolve(state, last_income=incomes)


def refill_plan(state: GloryState) -> list[tuple[int, str]]:
    """(space, stack) for each space to refill: Special spaces from the Special stack, the rest
    from the right, from stack I while it lasts, then II, then III."""
    data = box(state).data
    spaces = open_spaces(data, len(state.players))
    plan: list[tuple[int, str]] = []
    sizes = {k: len(state.ally_stacks.get(k, ())) for k in ("special", *NORMAL_STACKS)}
    for i, space in enumerate(data.ally_track):
        if spaces[i] and space.special and sizes["special"] > 0:
            plan.append((i, "special"))
            sizes["special"] -= 1
    for i in reversed(range(len(data.ally_track))):
        if not spaces[i] or data.ally_track[i].special:
            continue
        for name in NORMAL_STACKS:
            if sizes[name] > 0:
                plan.append((i, name))
                sizes[name] -= 1
                break
    return plan


def apply_refill(state: GloryState, move: Refill) -> GloryState:
    if state.phase != "refresh":
        raise Refused(v("refresh/not-now", "refresh"))
    problems: list[Violation] = []
    plan = dict(refill_plan(state))
    stacks = dict(state.ally_stacks)
    if len(move.track) != len(state.ally_track):
        problems.append(v("setup/track-length", "refresh", spaces=len(state.ally_track),
                          given=len(move.track)))  # fmt: skip
    else:
        for i, kind in enumerate(move.track):
            stack = plan.get(i)
            if (kind is None) != (stack is None):
                problems.append(v("refresh/track-space", "refresh", space=i + 1))
                continue
            if kind is None or stack is None:
                continue
            left = remove(stacks.get(stack, ()), [kind])
            if left is None:
                problems.append(v("setup/ally-not-in-stack", "refresh", ally=kind, space=i + 1))
            else:
                stacks[stack] = left
    decks = dict(state.quest_decks)
    for deck in DECKS:
        cards = move.columns.get(deck, ())
        left_deck = remove(decks.get(deck, ()), cards)
        if left_deck is None or len(cards) != min(COLUMN, len(decks.get(deck, ()))):
            problems.append(v("setup/column", "refresh", deck=deck, count=COLUMN))
        else:
            decks[deck] = left_deck
    event_ally = None
    if state.round < len(state.events):
        nxt = box(state).events.get(state.events[state.round])
        wants = nxt is not None and nxt.kind == "action" and _special(nxt)
        if wants and move.event_ally is not None:
            left = remove(stacks.get("special", ()), [move.event_ally])
            if left is None:
                problems.append(v("setup/ally-not-in-stack", "event", ally=move.event_ally,
                                  space=0))  # fmt: skip
            else:
                stacks["special"] = left
                event_ally = move.event_ally
        elif (wants and stacks.get("special")) or (not wants and move.event_ally is not None):
            problems.append(v("setup/event-ally", "event"))
    elif move.event_ally is not None:
        problems.append(v("setup/event-ally", "event"))
    refuse_if(problems)
    return evolve(
        state,
        ally_track=tuple(move.track),
        ally_stacks=stacks,
        columns={d: tuple(move.columns.get(d, ())) for d in DECKS},
        quest_decks=decks,
        event_ally=event_ally if event_ally is not None else None,
        phase="registration",
        turn=0,
    )


def start_round(state: GloryState) -> GloryState:
    """A new round's Action Phase: pawns back, the Event applied first [L373-375]."""
    round_no = state.round + 1
    event = box(state).events.get(state.events[round_no - 1]) if state.events else None
    pawns = PAWNS - (1 if event is not None and event.kind == "pawns" else 0)
    players = tuple(
        evolve(p, pawns=0 if p.sir and state.options.get("solo") is None else pawns,
               herald_uses=0, quest_extra=0, quest_plays=0, done_quests=False)
        for p in state.players
    )  # fmt: skip
    keep_ally = state.event_ally
    state = evolve(state, round=round_no, phase="action", players=players, placements=(),
                   initiative_pawns=(), turn=0, event_ally=keep_ally,
                   solo_deck=solo.deck_cards(state) if solo.is_solo(state) else ())  # fmt: skip
    if event is not None and event.kind == "all":
        for seat in state.order:
            if not state.player(seat).sir:
                state = apply_reward(state, seat, event.reward, event.id, "event")
    return state
