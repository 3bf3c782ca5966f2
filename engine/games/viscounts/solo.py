"""The solo mode against the AI (digest §8, seed L811-1015; readings VW-19, VW-40 to VW-55).

One player plays against one of the four AIs (option ``ai``) at a difficulty (option
``difficulty``: 0-3 Future Schemes shuffled into the AI's Scheme deck, seed L1014-1015). The AI
is a seat of its own (``AI_SEAT``) that takes no Townsfolk cards: its three card spaces hold
Scheme cards (``state.solo``). Its turn is moves like anyone's, so the table and the log see
each step: the table reveals the top Scheme (``RevealScheme``, chance: the deck's order is
unknown), then the AI resolves its steps top to bottom, one ``AiStep`` each, and answers what
an effect asks with a ``Choose``; the game computes every AI move itself (``ai_move``: the
AI's only legal move). The AI Help card's substitutions, its flip choice, its resource priority
and the AI rules of Build, Place Workers and Transcribe are ``item`` (a queue step of the AI
seat) and ``main_goal``. Pure.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engine.games.viscounts import board as graph
from engine.games.viscounts import rules
from engine.games.viscounts import symbols as sym
from engine.games.viscounts.data_types import AiBoard, SchemeCard, ViscountsData
from engine.games.viscounts.effects import Action, Effect, Symbol
from engine.games.viscounts.moves import AiStep, Choose, RevealScheme
from engine.games.viscounts.refs import refuse
from engine.games.viscounts.state import RESOURCES, Ask, Solo, Todo, VState, without

AI_SEAT = "ai"
"""The AI's seat name (refused as a player's name in a solo game)."""

DIFFICULTIES = (0, 1, 2, 3)
"""Future Schemes shuffled into the AI's deck at setup (seed L1014-1015; 0: the standard game)."""

NOBLES = {1: 1, 2: 3, 3: 5, 4: 8}
"""Nobles for 1-4 Workers (§5.3, the same table as a player's)."""


# --- setup (§8 setup, seed L813-850) -------------------------------------------------------------


def board_of(data: ViscountsData, ai: str) -> AiBoard:
    found = next((a for a in data.ais if a.id == ai), None)
    if found is None:
        raise refuse("solo/unknown-ai", "solo", ai=ai, known=", ".join(a.id for a in data.ais))
    return found


def setup(state: VState, ai: str, difficulty: int) -> VState:
    """The AI seat's kit and Scheme piles: the Starting Schemes less those its board's first
    space returns to the box form its deck, ``difficulty`` Future Schemes shuffled in (which
    ones is chance: counted in ``mixed``), the other Future Schemes a pile apart (VW-41). The
    Debt and Deed stacks, laid after the pairs (VW-8), are those of one player (VW-42:
    ``turn.lay_kingdom``)."""
    data = state.data
    board_of(data, ai)
    if difficulty not in DIFFICULTIES:
        raise refuse("solo/difficulty", "solo", difficulty=difficulty)
    removes = set(board_of(data, ai).removes or ())
    starting = sorted(s.id for s in data.schemes if s.kind == "starting" and s.id not in removes)
    future = sorted(s.id for s in data.schemes if s.kind == "future")
    seat = len(state.players) - 1
    solo = Solo(seat, ai, difficulty, deck=tuple(starting), future=tuple(future),
                mixed=min(difficulty, len(future)))  # fmt: skip
    return replace(state, solo=solo)


def is_ai(state: VState, i: int) -> bool:
    return state.solo is not None and state.solo.seat == i


def humans(state: VState) -> int:
    return len(state.players) - (1 if state.solo is not None else 0)


def scheme(state: VState, sid: str) -> SchemeCard:
    found = next((s for s in state.data.schemes if s.id == sid), None)
    if found is None:
        raise refuse("solo/unknown-scheme", "solo", scheme=sid)
    return found


def after_pick(state: VState) -> VState:
    """Setup step 9 in solo (seed L832-840): the player took one of the two pairs; the AI's
    Viscount goes to the town of the other Player card, which goes back to the box with its
    Famous Townsfolk; then the AI takes what its board's first space shows (seed L846-850)."""
    solo = state.solo
    assert solo is not None and state.data.board is not None
    ai = solo.seat
    if state.pairs:
        number, _famous = state.pairs[0]
        town = graph.town_of_number(state.data.board, number)
        if town is not None:
            state = state.with_player(ai, town=town.id)
            state = rules.note(state, ai, 1, "line/ai-town", town=town.id)
    state = replace(state, pairs=())
    start = board_of(state.data, solo.ai).start
    return rules.append(state, rules.expand(state, ai, start, f"ai-{solo.ai}"))


# --- what the AI has -----------------------------------------------------------------------------


def supply(state: VState, extra: tuple[Symbol, ...] = ()) -> sym.Supply:
    """The AI's symbols: the Scheme headers on its board (seed L962-964), its uncovered
    Buildings and held Church Favour cards; never a dismissed card's (seed L902-906)."""
    solo = state.solo
    assert solo is not None
    printed = [tuple(scheme(state, s).symbols or ()) for s in solo.board if s]
    printed.append(extra)
    return sym.supply(printed, (a for a, _ in rules.abilities(state, solo.seat)))


def villains(state: VState) -> int:
    return supply(state).plain("villain")


def prefer(state: VState) -> str:
    """The resource of the AI's choice: its board's priority, each kind until it holds the
    amount named (seed L863-870); a board without one takes Ink, Stone, Gold in turn (VW-45)."""
    solo = state.solo
    assert solo is not None
    p = state.players[solo.seat]
    order = board_of(state.data, solo.ai).priority or tuple((r, None) for r in RESOURCES)
    for what, until in order:
        if until is None or p.amount(what) < until:
            return what
    return order[-1][0]


def spend(state: VState) -> str:
    """The resource the AI pays when a cost lets it choose: the one last in its priority that
    it holds (VW-45)."""
    solo = state.solo
    assert solo is not None
    p = state.players[solo.seat]
    order = [r for r, _ in board_of(state.data, solo.ai).priority or ()] or list(RESOURCES)
    order += [r for r in RESOURCES if r not in order]
    held = [r for r in order if p.amount(r) > 0]
    return held[-1] if held else order[-1]


def flip_kind(state: VState, what: str) -> str | None:
    """Which card the AI flips (seed L887-891): the kind it has fewer flipped of, a Debt on a
    tie, the only kind it can flip if one; None: nothing to flip."""
    solo = state.solo
    assert solo is not None
    p = state.players[solo.seat]
    kinds = {"debt": ("debt",), "deed": ("deed",), "debt-or-deed": ("debt", "deed")}[what]
    able = [k for k in kinds if (p.debts if k == "debt" else p.deeds) > 0]
    if len(able) == 2:
        return "deed" if p.granted < p.paid else "debt"
    return able[0] if able else None


def outer_next(state: VState, town_id: str) -> str:
    """The next town clockwise on the outer path (the AI never takes the inner one, seed
    L860-861)."""
    board = state.data.board
    assert board is not None
    town = board.town(town_id)
    assert town is not None
    for n in town.next:
        t = board.town(n)
        if t is not None and t.path == "outer":
            return t.id
    return town.id


def town(state: VState) -> Any:
    solo = state.solo
    assert solo is not None and state.data.board is not None
    return state.data.board.town(state.players[solo.seat].town or "")


# --- the AI's turn (seed L957-966) ---------------------------------------------------------------


def start_turn(state: VState) -> VState:
    """Push the Schemes one space right (the one pushed off to its discard pile), reshuffle an
    empty deck (VW-44), then the table reveals the top Scheme."""
    solo = state.solo
    assert solo is not None
    ai = solo.seat
    a, b, c = solo.board
    solo = replace(solo, board=(None, a, b), discard=(*solo.discard, c) if c else solo.discard,
                   step=0)  # fmt: skip
    state = replace(state, solo=solo, phase="ai")
    if not solo.deck and not solo.mixed:
        if not solo.discard:
            return replace(state, phase="collision")  # pragma: no cover - 7+ Schemes always
        state = replace(state, solo=replace(solo, deck=tuple(sorted(solo.discard)), discard=()))
        if villains(state) >= 1:
            state = rules.note(rules.move_track(state, ai, corruption=1), ai, 1,
                               "line/reshuffle-corruption")  # fmt: skip
        else:
            state = rules.note(rules.move_track(state, ai, virtue=1), ai, 1,
                               "line/reshuffle-virtue")  # fmt: skip
    return replace(state, ask=Ask(ai, "scheme", purpose="deck"))


def future_left(solo: Solo) -> int:
    """Future Schemes still in the pile apart (those shuffled into the deck not counted)."""
    return len(solo.future) - solo.mixed


def reveal(state: VState, move: RevealScheme) -> VState:
    """The table reports the top Scheme of the AI's deck (onto its leftmost space: its Villain
    gives Corruption, seed L984-986, VW-43) or of the Future pile (onto its discard pile)."""
    ask = state.ask
    solo = state.solo
    assert ask is not None and solo is not None
    ai = solo.seat
    if move.pile != ask.purpose:
        raise refuse("solo/wrong-pile", "solo", pile=move.pile, expected=ask.purpose)
    if move.pile == "deck":
        if move.card in solo.deck:
            solo = replace(solo, deck=without(solo.deck, move.card))
        elif solo.mixed and move.card in solo.future:
            solo = replace(solo, future=without(solo.future, move.card), mixed=solo.mixed - 1)
        else:
            raise refuse("solo/not-in-pile", "solo", scheme=move.card, pile=move.pile)
        solo = replace(solo, board=(move.card, solo.board[1], solo.board[2]), step=0)
        state = replace(state, ask=None, solo=solo)
        state = rules.note(state, ai, 1, "line/ai-scheme", scheme=move.card)
        if not scheme(state, move.card).steps:  # a Scheme of no steps ends the AI's turn
            state = replace(state, phase="collision")
        if "villain" in (scheme(state, move.card).symbols or ()):
            n = villains(state)
            state = rules.note(rules.move_track(state, ai, corruption=n), ai, n, "line/villain")
        return state
    if move.card not in solo.future or future_left(solo) <= 0:
        raise refuse("solo/not-in-pile", "solo", scheme=move.card, pile=move.pile)
    solo = replace(solo, future=without(solo.future, move.card),
                   discard=(*solo.discard, move.card))  # fmt: skip
    state = replace(state, ask=None, solo=solo)
    return rules.note(state, ai, 1, "line/ai-draw", scheme=move.card)


def sample(state: VState, rng: random.Random) -> RevealScheme | None:
    """What a simulated table reveals: any card the pile may hold, each equally likely."""
    ask = state.ask
    solo = state.solo
    if ask is None or ask.asks != "scheme" or solo is None:
        return None
    if ask.purpose == "deck":
        k = rng.randrange(len(solo.deck) + solo.mixed)
        if k < len(solo.deck):
            return RevealScheme("deck", solo.deck[k])
    return RevealScheme(ask.purpose, solo.future[rng.randrange(len(solo.future))])


def current(state: VState) -> SchemeCard | None:
    solo = state.solo
    if solo is None or solo.board[0] is None:
        return None
    return scheme(state, solo.board[0])


def ai_move(state: VState) -> Any:
    """The AI seat's one move now: the next step of its Scheme, or its answer to what an
    effect asks (None: the AI is not asked)."""
    solo = state.solo
    if solo is None:
        return None
    ask = state.ask
    if ask is not None:
        if ask.seat != solo.seat or ask.asks in ("reveal", "scheme"):
            return None
        return Choose(AI_SEAT, answer(state, ask))
    card = current(state)
    if state.phase != "ai" or card is None or state.active() != solo.seat:
        return None
    return AiStep(AI_SEAT, card.id, solo.step)


def apply_step(state: VState, move: AiStep) -> VState:
    """Resolve the Scheme step: its first alternative the AI can carry out, else the next
    (failure = the second option, seed L974-982, VW-47)."""
    solo = state.solo
    card = current(state)
    assert solo is not None and card is not None
    steps = card.steps or ()
    effect = steps[solo.step]
    state = replace(state, solo=replace(solo, step=solo.step + 1))
    if solo.step + 1 >= len(steps):
        state = replace(state, phase="collision")
    return rules.append(state, step_items(state, effect, f"{card.id}|{solo.step}", 0))


def step_items(state: VState, effect: Effect, source: str, alt: int) -> tuple[Todo | Ask, ...]:
    """A Scheme step's alternative ``alt`` as queue items; a Main Goal names its step so a
    failure can fall back to the next alternative."""
    solo = state.solo
    assert solo is not None
    if alt >= len(effect.reward):
        return ()
    if len(effect.reward) == 1 and (effect.cost or effect.conditions):
        return rules.expand(state, solo.seat, effect, source)
    out: list[Todo | Ask] = []
    for atom in effect.reward[alt]:
        if isinstance(atom, Action) and atom.kind == "main-goal":
            out.append(Todo(solo.seat, "main-goal", f"{alt}", source=source))
        else:
            out.extend(rules.todos(solo.seat, (atom,), source))
    return tuple(out)


def answer(state: VState, ask: Ask) -> str:
    """The AI's answer to what an effect asks (VW-46): the first option at a level-2 section
    and of any alternatives; a price paid when it can; your Workers pushed out (seed L939-940);
    several cascading sections from the one beside its Viscount clockwise (seed L943-945)."""
    solo = state.solo
    assert solo is not None
    options = ask.options
    if ask.asks == "pay":
        return options[0]
    if ask.asks == "push-out":
        theirs = [o for o in options if int(o.split(":")[2]) != solo.seat]
        return (theirs or list(options))[0]
    if ask.asks == "cascade":
        n = max(1, len(state.castle.level1))
        here = town(state).part % n
        return min(options, key=lambda o: (int(o) - here) % n)
    if ask.asks == "pay-resource":
        pick = spend(state)
        return pick if pick in options else options[0]
    if ask.asks == "resource":
        pick = prefer(state)
        return pick if pick in options else options[0]
    for quiet in ("keep", "decline"):
        if quiet in options:
            return quiet
    return options[0]


# --- the AI's queue steps: the Help card and the Scheme icons (seed L873-917) --------------------


def item(state: VState, t: Todo) -> VState | None:
    """Resolve a queue step of the AI seat the AI way, or None (the usual rules apply)."""
    ai = t.seat
    act = t.act
    if act == "gain" and t.what == "silver" and not t.per:
        # Help card column 1: 2 Silver → 1 resource of its choice (VW-48)
        pairs, odd = divmod(t.amount, 2)
        items = [Todo(ai, "gain", "resource", 1, source="ai-help") for _ in range(pairs)]
        if odd:
            state = rules.note(rules.add(state, ai, "silver", odd), ai, odd, "line/gain-silver",
                               source=t.source)  # fmt: skip
        return rules.push(state, tuple(items))
    if act == "gain" and t.what == "resource":
        n = t.amount * (rules.counter(state, ai, t.per) if t.per else 1)
        for _ in range(n):
            what = prefer(state)
            state = rules.note(rules.add(state, ai, what, 1), ai, 1, f"line/gain-{what}",
                               source=t.source)  # fmt: skip
        return state
    if act == "flip":
        kind = flip_kind(state, t.what)
        if kind is None:  # Help card column 3
            return rules.note(rules.move_track(state, ai, virtue=1), ai, 1, "line/ai-virtue")
        rest = (replace(t, amount=t.amount - 1),) if t.amount > 1 else ()
        state = rules.push(state, rest)
        return rules.note(rules.flip(state, ai, kind), ai, 1, f"line/flip-{kind}")
    if act in ("reorder", "meeting"):  # column 1
        return rules.push(state, (Todo(ai, "gain", "resource", 1, source="ai-help"),))
    if act == "destroy":  # column 2
        return rules.push(state, (Todo(ai, "flip", "debt-or-deed", t.amount, source="ai-help"),))
    if act in ("discard", "shift-worker"):  # column 3
        n = t.amount if act == "discard" else 1
        return rules.note(rules.move_track(state, ai, virtue=n), ai, n, "line/ai-virtue")
    if act in ("free-hire", "draw"):  # every card icon: a Future Scheme (seed L893-896)
        return draw(state, ai, t.amount if act == "draw" else 1)
    if act == "deal":
        return state
    if act == "shuffle-in":
        solo = state.solo
        assert solo is not None
        return replace(state, solo=replace(solo, deck=tuple(sorted((*solo.deck, *solo.discard))),
                                           discard=()))  # fmt: skip
    if act == "free-build":
        return free_build(state, t.building or "any")
    if act == "free-workers":
        if state.players[ai].pool <= 0 or not state.castle.level1:
            return state
        return rules.place_workers(state, ai, town(state).part % len(state.castle.level1),
                                   t.amount)  # fmt: skip
    if act == "free-manuscript":
        return free_manuscript(state)
    if act == "move":
        return move(state, t.amount)
    if act == "dismiss":
        return dismiss(state)
    if act == "main-goal":
        done = main_goal(state)
        if done is not None:
            return done
        state = rules.note(state, ai, 1, "line/ai-fail", goal=goal(state))
        sid, k = t.source.split("|")
        card = scheme(state, sid)
        effect = (card.steps or ())[int(k)]
        return rules.push(state, step_items(state, effect, t.source, int(t.what) + 1))
    return None


def draw(state: VState, ai: int, n: int) -> VState:
    """Each draw icon: the table reveals the top Future Scheme onto the AI's discard pile; with
    the pile empty the AI flips a Debt or Deed instead (Help card column 2, seed L879-881)."""
    solo = state.solo
    assert solo is not None
    if n <= 0:
        return state
    rest = (Todo(ai, "draw", "", n - 1, source="ai"),) if n > 1 else ()
    state = rules.push(state, rest)
    if future_left(solo) > 0:
        return replace(state, ask=Ask(ai, "scheme", purpose="future"))
    return rules.push(state, (Todo(ai, "flip", "debt-or-deed", 1, source="ai-help"),))


def move(state: VState, n: int) -> VState:
    """The AI's Viscount moves ``n`` towns clockwise on the outer path; landing on your town
    lets you reorder your cards (seed L860-866)."""
    solo = state.solo
    assert solo is not None
    ai = solo.seat
    here = state.players[ai].town or ""
    for _ in range(n):
        here = outer_next(state, here)
    state = state.with_player(ai, town=here)
    state = rules.note(state, ai, n, "line/ai-move", town=here)
    met = [k for k in state.order() if k != ai and state.players[k].town == here]
    items: list[Todo] = []
    for k in met:
        items += [Todo(k, "meeting"), Todo(k, "event", "on meeting")]
    if met:
        items.append(Todo(ai, "event", "on meeting"))
    return rules.push(state, tuple(items))


def dismiss(state: VState) -> VState:
    """The dismiss icon: the Townsfolk beside the AI's Viscount leaves the game and the AI
    resolves its top-right effect, for free and without its symbols (seed L900-906, VW-49)."""
    solo = state.solo
    assert solo is not None
    ai = solo.seat
    part = town(state).part
    if part >= len(state.decks) or not state.decks[part]:
        return state
    top = state.decks[part][0]
    decks = list(state.decks)
    decks[part] = decks[part][1:]
    state = replace(state, decks=tuple(decks))
    state = rules.note(state, ai, 1, "line/dismiss", card=top)
    return rules.push(state, rules.expand(state, ai, rules.card(state.data, top).hire, top))


# --- the Main Goal (seed L918-954) ---------------------------------------------------------------


def goal(state: VState) -> str:
    solo = state.solo
    assert solo is not None
    return board_of(state.data, solo.ai).goal or "transcribe"


def pay(state: VState, symbol: Symbol, needed: int) -> VState | None:
    """The AI pays ``needed`` symbols: its own, Villains wild, the rest bought 1:1 with the
    resource that buys them (§4 phase 3; the seed's example fails for want of Gold, L974-982)."""
    solo = state.solo
    assert solo is not None
    ai = solo.seat
    buy = sym.shortfall(supply(state), symbol, needed)
    resource = sym.BUY_WITH[symbol]
    if buy > state.players[ai].amount(resource):
        return None
    if buy:
        state = rules.add(state, ai, resource, -buy)
        state = rules.note(state, ai, -buy, f"line/buy-{resource}")
    return state


def main_goal(state: VState) -> VState | None:
    """The AI's Main Goal from wherever its Viscount stands (it is always on the outer path,
    and may Place Workers and Transcribe from there, seed L933-950); None: it cannot."""
    kind = goal(state)
    found = {"trade": _trade, "build": _build, "workers": _workers,
             "transcribe": _transcribe}[kind](state)  # fmt: skip
    if found is None:
        return None
    solo = state.solo
    assert solo is not None
    found = replace(found, current=replace(found.current, action=kind))
    return rules.push(found, (Todo(solo.seat, "event", f"after {kind}"),))


def _trade(state: VState) -> VState | None:
    """As many exchanges as the AI can pay (VW-50)."""
    solo = state.solo
    assert solo is not None
    ai = solo.seat
    here = town(state)
    exchange = here.exchange or "silver"
    rate = sym.TRADE_RATE[exchange]
    times = 0
    for k in range(12, 0, -1):
        if pay(state, "merchant", k * rate) is not None:
            times = k
            break
    if not times:
        return None
    paid = pay(state, "merchant", times * rate)
    assert paid is not None
    state = rules.note(paid, ai, times, "line/ai-trade")
    if exchange in ("silver", "ink", "stone", "gold", "resource"):
        items: tuple[Todo, ...] = (Todo(ai, "gain", exchange, times, source="trade"),)
    elif exchange == "destroy":
        items = tuple(Todo(ai, "destroy", source="trade") for _ in range(times))
    else:
        items = (Todo(ai, "flip", "debt-or-deed", times, source="trade"),)
    return rules.push(state, items)


def strip(state: VState) -> list[tuple[str, int]]:
    """The AI's Buildings left on its strip, left to right: on the AI side the Trading Posts
    and Guildhalls swap places (seed L817-818, VW-51)."""
    kinds = [b.kind for b in state.data.buildings]
    if "trading-post" in kinds and "guildhall" in kinds:
        a, b = kinds.index("trading-post"), kinds.index("guildhall")
        kinds[a], kinds[b] = kinds[b], kinds[a]
    left = set(rules.strip_left(state, state.solo.seat if state.solo else 0))
    return [(k, pos) for k in kinds for pos in range(3) if (k, pos) in left]


def _build(state: VState) -> VState | None:
    """The leftmost Building it can afford on the first free site clockwise beside its
    Viscount, on its side of the River (seed L920-925)."""
    solo = state.solo
    assert solo is not None and state.data.board is not None
    here = town(state)
    sites = [s.id for s in graph.sites_from(state.data.board, here.id) if s.id not in state.sites]
    if not sites:
        return None
    costs = {b.kind: b.cost for b in state.data.buildings}
    for kind, pos in strip(state):
        paid = pay(state, "builder", costs[kind] or 0)
        if paid is not None:
            return rules.place_building(paid, solo.seat, kind, pos, sites[0])
    return None


def free_build(state: VState, kind: str) -> VState:
    """A free Build: the leftmost Building (of the kind named) on the first free site clockwise
    from its Viscount's town, crossing Rivers; ignored when every site is taken (seed
    L926-931)."""
    solo = state.solo
    assert solo is not None and state.data.board is not None
    sites = [s.id for s in state.data.board.sites]
    near = graph.sites_from(state.data.board, town(state).id)
    start = sites.index(near[0].id) if near else 0
    if not near:  # an inner town (never the AI's): its part's first site
        part = town(state).part
        start = next((k for k, s in enumerate(state.data.board.sites) if s.part == part), 0)
    ring = [sites[(start + k) % len(sites)] for k in range(len(sites))]
    free = [s for s in ring if s not in state.sites]
    left = [(k, pos) for k, pos in strip(state) if kind in ("any", k)]
    if not free or not left:
        return state
    return rules.place_building(state, solo.seat, left[0][0], left[0][1], free[0])


def _workers(state: VState) -> VState | None:
    """The most Workers it can pay, at least its board's minimum (seed L936-938), into the
    level-1 section of its Viscount's board part."""
    solo = state.solo
    assert solo is not None
    ai = solo.seat
    least = board_of(state.data, solo.ai).min_workers or 1
    if not state.castle.level1:
        return None
    for n in (4, 3, 2, 1):
        if n < least or n > state.players[ai].pool:
            continue
        paid = pay(state, "noble", NOBLES[n])
        if paid is not None:
            section = town(state).part % len(state.castle.level1)
            paid = rules.note(paid, ai, n, "line/workers")
            paid = replace(paid, current=replace(paid.current, castle_start=section))
            return rules.place_workers(paid, ai, section, n)
    return None


def _transcribe(state: VState) -> VState | None:
    """The Manuscript on its Viscount's board part (seed L946-948)."""
    solo = state.solo
    assert solo is not None
    part = town(state).part
    found = rules.top_manuscript(state, part)  # a printed one under an empty stack (L652-654)
    if found is None:
        return None
    cost = found.cost or 0
    paid = pay(state, "cleric", cost)
    if paid is None:
        return None
    paid = replace(paid, current=replace(paid.current, transcribed=True))
    return rules.take_manuscript(paid, solo.seat, part)


def free_manuscript(state: VState) -> VState:
    """A free Manuscript: its own part's stack first, then the next parts clockwise, the first
    it may take (cost 3 or 4, seed L1044-1046); ignored if none (seed L951-954)."""
    solo = state.solo
    assert solo is not None
    n = len(state.stacks)
    if not n:
        return state
    allowed = set(rules.manuscript_targets(state))
    here = town(state).part
    for k in range(n):
        part = (here + k) % n
        if str(part) in allowed:
            return rules.take_manuscript(state, solo.seat, part)
    return state


# --- the end (seed L1003-1015) -------------------------------------------------------------------


def resources(state: VState) -> int:
    """The AI's unused resources, 1 VP each (Silver is no resource, seed L1031-1032)."""
    solo = state.solo
    assert solo is not None
    p = state.players[solo.seat]
    return p.ink + p.stone + p.gold


__all__ = ["AI_SEAT", "ai_move", "apply_step", "item", "reveal", "sample", "setup", "start_turn"]
