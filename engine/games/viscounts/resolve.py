"""Running the effect queue (digest §4-6): ``run`` resolves queue items until the queue is
empty or an answer is awaited (``state.ask``), ``step`` resolves one item.

Apart from ``rules`` (the steps themselves: gains, flips, the Castle, hiring...) because the solo
AI's seat resolves some items its own way (``solo.item``, the Help card and the Scheme icons),
and the AI's own moves are built from those same rules: ``solo`` sits between the two.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from engine.games.viscounts import solo, track
from engine.games.viscounts.rules import (
    add,
    ask_reveal,
    build_targets,
    card_choices,
    castle_step,
    counter,
    expand,
    fire,
    flip,
    hire_targets,
    lose_virtue,
    manuscript_targets,
    move_track,
    note,
    push,
    push_out_step,
    reorders,
    reshuffle,
    take_debts,
    take_deeds,
)
from engine.games.viscounts.state import RESOURCES, Ask, Todo, VState


def run(state: VState) -> VState:
    """Resolve the queue until it is empty or an answer is awaited."""
    while state.ask is None and state.queue:
        item, rest = state.queue[0], state.queue[1:]
        state = replace(state, queue=rest)
        state = open_ask(state, item) if isinstance(item, Ask) else step(state, item)
    return state


def open_ask(state: VState, ask: Ask) -> VState:
    """A queued question: a cost is offered only when it can be paid.

    An effect with a price is resolved like any effect: "O ile nie jest to inaczej napisane,
    rozpatrzenie efektu jest obowiązkowe" (seed L1024-1025), and only Reorder, Discard,
    Destroy and the Worker shift say otherwise (L1065-1089). So a price the seat can pay is
    paid (asked only when there are several ways) and one it cannot pay lets the effect pass
    (VW-13). Option ``decline_priced`` lets a table decline priced effects instead."""
    if ask.asks == "pay":
        options = tuple(
            o for k, o in enumerate(ask.options) if o != "decline"
            and can_pay(state, ask.seat, ask.then[k])
        )  # fmt: skip
        if not options:
            return state  # nothing affordable: the effect passes
        if state.options.get("decline_priced", False):
            return replace(state, ask=replace(ask, options=(*options, "decline")))
        if len(options) == 1:
            return push(state, ask.then[int(options[0].split("-")[1])])
        return replace(state, ask=replace(ask, options=options))
    return replace(state, ask=ask)


def can_pay(state: VState, seat: int, items: tuple[Todo, ...]) -> bool:
    p = state.players[seat]
    need: Counter[str] = Counter()
    for t in items:
        if t.act == "pay":
            need[t.what] += t.amount
        must = t.act in ("discard", "destroy") and t.building == "must"
        if must and not card_choices(state, seat, t.act == "destroy"):
            return False
    spare = sum(p.amount(r) for r in RESOURCES)
    fixed = all(p.amount(w) >= n for w, n in need.items() if w not in ("resource", "virtue"))
    used = sum(need[r] for r in RESOURCES)
    return fixed and spare - used >= need["resource"]


def step(state: VState, item: Todo) -> VState:
    """Resolve one queue item (it may ask)."""
    seat, act = item.seat, item.act
    data = state.data
    if state.solo is not None and seat == state.solo.seat:
        done = solo.item(state, item)
        if done is not None:
            return done
    if act == "gain":
        n = item.amount * (counter(state, seat, item.per) if item.per else 1)
        if n <= 0:
            return state
        if item.what in ("silver", "ink", "stone", "gold"):
            return note(add(state, seat, item.what, n), seat, n, f"line/gain-{item.what}",
                        source=item.source)  # fmt: skip
        if item.what == "resource":
            return replace(state, ask=Ask(seat, "resource", RESOURCES, source=item.source, left=n))
        if item.what == "virtue":
            return note(move_track(state, seat, virtue=n), seat, n, "line/gain-virtue",
                        source=item.source)  # fmt: skip
        if item.what == "corruption":
            return note(move_track(state, seat, corruption=n), seat, n, "line/gain-corruption",
                        source=item.source)  # fmt: skip
        if item.what == "debt":
            return note(take_debts(state, seat, n), seat, n, "line/gain-debt", source=item.source)
        if item.what == "deed":
            return note(take_deeds(state, seat, n), seat, n, "line/gain-deed", source=item.source)
        return state
    if act == "pay":
        p = state.players[seat]
        if item.what == "resource":
            options = tuple(r for r in RESOURCES if p.amount(r) > 0)
            return replace(state, ask=Ask(seat, "pay-resource", options, left=item.amount))
        if item.what == "virtue":
            return lose_virtue(state, seat, item.amount)
        return add(state, seat, item.what, -item.amount)
    if act == "flip":
        p = state.players[seat]
        kinds = {"debt": ("debt",), "deed": ("deed",), "debt-or-deed": ("debt", "deed")}[item.what]
        options = tuple(k for k in kinds if (p.debts if k == "debt" else p.deeds) > 0)
        if not options:
            return state
        rest = (replace(item, amount=item.amount - 1),) if item.amount > 1 else ()
        state = push(state, rest)
        if len(options) == 1:
            return note(flip(state, seat, options[0]), seat, 1, f"line/flip-{options[0]}")
        return replace(state, ask=Ask(seat, "flip", options, source=item.source))
    if act == "free-hire":
        options = hire_targets(state, seat, here_only=item.what == "here")
        return (
            replace(state, ask=Ask(seat, "free-hire", options, source=item.source))
            if options
            else state
        )
    if act == "free-manuscript":
        options = manuscript_targets(state)
        return (
            replace(state, ask=Ask(seat, "free-manuscript", options, source=item.source))
            if options
            else state
        )
    if act == "free-build":
        options = build_targets(state, seat, item.building or "any")
        return (
            replace(state, ask=Ask(seat, "free-build", options, source=item.source))
            if options
            else state
        )
    if act == "free-workers":
        if state.players[seat].pool <= 0:
            return state
        sections = tuple(str(i) for i in range(len(state.castle.level1)))
        return replace(state, ask=Ask(seat, "free-workers", sections, source=item.source,
                                      left=item.amount))  # fmt: skip
    if act == "shift-worker":
        n = len(state.castle.level1)
        options = tuple(f"{i}>{(i + d) % n}" for i, s in enumerate(state.castle.level1)
                        if s[seat] > 0 for d in (1, -1))  # fmt: skip
        if not options:
            return state
        return replace(
            state, ask=Ask(seat, "shift-worker", (*options, "decline"), source=item.source)
        )
    if act == "reorder":
        options = reorders(state.players[seat].board)
        if not options:
            return state
        return replace(state, ask=Ask(seat, "reorder", (*options, "keep"), source=item.source))
    if act in ("discard", "destroy"):
        options = card_choices(state, seat, act == "destroy")
        must = item.building == "must"
        if not options:
            return state
        rest = (replace(item, amount=item.amount - 1),) if item.amount > 1 else ()
        state = push(state, rest)
        return replace(state, ask=Ask(seat, act, options if must else (*options, "decline"),
                                      source=item.source))  # fmt: skip
    if act == "shuffle-in":
        if state.players[seat].discard:
            return reshuffle(state, seat, check=False)
        return state
    if act == "castle":
        return castle_step(state, seat)
    if act == "push-out":
        return push_out_step(state, seat)
    if act == "event":
        return push(state, fire(state, seat, item.what))
    if act == "meeting":
        options = reorders(state.players[seat].board)
        if not options:
            return state
        return replace(state, ask=Ask(seat, "reorder", (*options, "keep"), source="meeting"))
    if act == "collision-bonus":
        return push(state, collision_bonus(state, item))
    if act == "reset":
        spaces = data.track.spaces or 1
        m = track.start(spaces)
        return state.with_player(seat, corruption=m.corruption, virtue=m.virtue, stacked=False)
    if act == "deal":
        return ask_reveal(state, seat, "hand")
    return state


def collision_bonus(state: VState, item: Todo) -> tuple[Todo | Ask, ...]:
    """The track bonus of Collision step 3 (``above``, the active seat) or 4 (``below``, every
    other seat): of the space the active seat's stacked markers are on now (L249-250,
    L686-690), or with option ``collision_space`` = ``"start"`` of the space the Collision was
    found on (``item.amount``)."""
    track_data = state.data.track
    bonuses = track_data.above if item.what == "above" else track_data.below
    owner = state.players[state.active()]
    start = state.options.get("collision_space", "current") == "start"
    where = item.amount if start else owner.corruption
    if not bonuses or not 0 <= where < len(bonuses):
        return ()
    return expand(state, item.seat, bonuses[where], item.source)
