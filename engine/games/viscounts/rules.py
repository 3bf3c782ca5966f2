"""The effect interpreter and the rules every phase shares (digest §4-6, the effect glossary).

``expand`` turns a printed effect into queue items (its conditions checked, a cost or a choice
of alternatives asked), ``resolve.run`` resolves the queue until it is empty or waits for an
answer (``state.ask``), and ``answer`` applies a seat's ``Choose`` or the table's ``Reveal``.
The Castle cascade (§5.3), hiring (§4 phase 4), Debts and Deeds with the end trigger (§1, §6),
the Virtue/Corruption track (§6) and reshuffles (§4 phase 6) live here as queue steps.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace
from typing import Any, cast

from engine.games.viscounts import board as graph
from engine.games.viscounts import symbols as sym
from engine.games.viscounts import track
from engine.games.viscounts.data_types import Manuscript, Townsfolk, ViscountsData
from engine.games.viscounts.effects import Ability, Action, Effect, Flip, Gain, Modifier, Symbol
from engine.games.viscounts.refs import refuse
from engine.games.viscounts.state import (
    RESOURCES,
    Ask,
    Castle,
    LedgerLine,
    Player,
    Todo,
    VState,
    without,
)

# --- what lies on a seat's board ----------------------------------------------------------------


def card(data: ViscountsData, card_id: str) -> Townsfolk:
    found = data.card(card_id)
    if found is None:
        raise refuse("card/unknown", "components", card=card_id)
    return found


def card_symbols(data: ViscountsData, card_id: str) -> tuple[Symbol, ...]:
    return tuple(card(data, card_id).symbols or ())


def building_abilities(state: VState, i: int) -> list[tuple[Ability, str]]:
    """The abilities uncovered by the seat's built Buildings (§5.2, by strip position)."""
    types = {b.kind: b for b in state.data.buildings}
    out: list[tuple[Ability, str]] = []
    for kind, position, _site in state.players[i].built:
        ability = types[kind].abilities[position]
        if ability is not None:
            out.append((ability, f"{kind}-{position + 1}"))
    return out


def favour_abilities(state: VState, i: int) -> list[tuple[Ability, str]]:
    """Held Church Favour cards' abilities (VW-12: they lie beside the board and count)."""
    out: list[tuple[Ability, str]] = []
    for f in state.data.church_favour:
        if f.id in state.players[i].favours and f.ability is not None:
            out.append((f.ability, f.id))
    return out


def card_abilities(state: VState, i: int) -> list[tuple[Ability, str]]:
    out: list[tuple[Ability, str]] = []
    for c in state.players[i].board:
        if c is not None:
            ability = card(state.data, c).ability
            if ability is not None:
                out.append((ability, c))
    return out


def abilities(state: VState, i: int) -> list[tuple[Ability, str]]:
    """Every active ability of a seat: Buildings and Church Favour first, then board cards."""
    return [*building_abilities(state, i), *favour_abilities(state, i), *card_abilities(state, i)]


def supply(state: VState, i: int, extra: tuple[Symbol, ...] = ()) -> sym.Supply:
    """The symbols a seat's board gives (cards, uncovered Buildings, held Church Favour cards,
    conversions, the Starting icons while they count); ``extra``: a dismissed card's printed
    symbols."""
    printed = [card_symbols(state.data, c) for c in state.players[i].board if c is not None]
    printed.append(extra)
    printed.extend(starting_icons(state, i))
    return sym.supply(printed, (a for a, _ in abilities(state, i)))


def starting_icons(state: VState, i: int) -> list[tuple[Symbol, ...]]:
    """The Starting icons of seat ``i``'s uncovered card spaces, which count only in the
    seat's own first two turns: "dostępne wyłącznie gdy są odkryte, w pierwszych dwóch turach
    gracza" (seed L156-157, VW-20). Each seat has one turn a round, so its first two turns are
    its turns of rounds 1 and 2. The solo AI's board side has none."""
    icons = state.data.starting_icons
    if (
        icons is None
        or not 1 <= state.round <= 2
        or state.phase not in TURN_PHASES
        or state.active() != i
        or (state.solo is not None and state.solo.seat == i)
    ):
        return []
    board = state.players[i].board
    return [tuple(icons[k] or ()) for k in range(min(len(icons), len(board))) if board[k] is None]


TURN_PHASES = ("turn-start", "play", "move", "action", "hire", "collision", "draw")
"""The phases of a seat's own turn (digest §4)."""


def villains(state: VState, i: int) -> int:
    """Villain symbols on a seat's board (never wild here, §4 phase 1)."""
    return supply(state, i).plain("villain")


def modifier(state: VState, i: int, kind: str) -> int:
    """The sum of a persistent rule change (``hand-limit``, ``free-move``, ``dismiss-cost``)."""
    total = 0
    for ability, _ in abilities(state, i):
        body = ability.body
        if ability.timing == "persistent" and isinstance(body, Effect) and body.event is None:
            for alt in body.reward[:1]:
                total += sum(a.amount for a in alt if isinstance(a, Modifier) and a.kind == kind)
    return total


def hand_limit(state: VState, i: int) -> int:
    """3, +1 per ``hand-limit`` (Workshop 3), +1 for the Lord of the Castle (§4 phase 6)."""
    return 3 + modifier(state, i, "hand-limit") + (1 if state.lord == i else 0)


def dismiss_cost(state: VState, i: int, card_id: str) -> int:
    """A dismissal's price: the card's value, or the ``dismiss-cost`` (Trading Post 2)."""
    value = card(state.data, card_id).value or 0
    cheaper = modifier(state, i, "dismiss-cost")
    return min(value, cheaper) if cheaper else value


def condition_holds(state: VState, i: int, effect: Effect) -> bool:
    s = supply(state, i)
    for c in effect.conditions:
        have = sym.count(s, c.symbol, main_action=False)
        if c.at_least is None and have:
            return False
        if c.at_least is not None and have < c.at_least:
            return False
    return True


# --- effects into the queue -------------------------------------------------------------------


def todos(seat: int, atoms: tuple[Any, ...], source: str) -> tuple[Todo, ...]:
    """The queue steps of one alternative's atoms (symbols and rule changes give nothing now)."""
    out: list[Todo] = []
    for a in atoms:
        if isinstance(a, Gain):
            out.append(Todo(seat, "gain", a.what, a.amount, a.per, source=source))
        elif isinstance(a, Flip):
            out.append(Todo(seat, "flip", a.what, a.amount, source=source))
        elif isinstance(a, Action):
            out.append(Todo(seat, a.kind, "", a.amount, building=a.building, source=source))
    return tuple(out)


def expand(state: VState, seat: int, effect: Effect | None, source: str) -> tuple[Todo | Ask, ...]:
    """A printed effect as queue items for ``seat``: nothing if a condition fails; a cost is
    asked (paid when it can be, VW-13: ``resolve.open_ask`` settles the options); several
    alternatives are asked; else its atoms."""
    if effect is None or not condition_holds(state, seat, effect):
        return ()
    alts = tuple(todos(seat, alt, source) for alt in effect.reward)
    if effect.cost:
        price = todos(seat, tuple(effect.cost), source)
        price = tuple(
            replace(t, act="pay") if t.act == "gain" and t.what not in ("corruption", "debt")
            else replace(t, building="must") if t.act in ("discard", "destroy") else t
            for t in price
        )  # fmt: skip
        then = tuple((*price, *alt) for alt in alts)
        return (Ask(seat, "pay", (*(f"pay-{k}" for k in range(len(then))), "decline"),
                    source=source, then=then),)  # fmt: skip
    if len(alts) > 1:
        return (Ask(seat, "alt", tuple(f"alt-{k}" for k in range(len(alts))), source=source,
                    then=alts),)  # fmt: skip
    return alts[0] if alts else ()


def ability_items(
    state: VState, seat: int, ability: Ability | None, source: str
) -> tuple[Todo | Ask, ...]:
    if ability is None or not isinstance(ability.body, Effect):
        return ()
    return expand(state, seat, ability.body, source)


def push(state: VState, items: tuple[Todo | Ask, ...]) -> VState:
    """``items`` resolved before the rest of the queue."""
    return replace(state, queue=(*items, *state.queue)) if items else state


def append(state: VState, items: tuple[Todo | Ask, ...]) -> VState:
    return replace(state, queue=(*state.queue, *items)) if items else state


def note(state: VState, seat: int, amount: int, code: str, **params: Any) -> VState:
    line = LedgerLine(state.players[seat].seat, amount, code, params)
    return replace(state, ledger=(*state.ledger, line))


# --- resources, track, Debts and Deeds --------------------------------------------------------


def add(state: VState, seat: int, what: str, amount: int) -> VState:
    p = state.players[seat]
    return state.with_player(seat, **{what: p.amount(what) + amount})


def move_track(state: VState, seat: int, corruption: int = 0, virtue: int = 0) -> VState:
    p = state.players[seat]
    spaces = state.data.track.spaces or 1
    m = track.gain(track.Markers(p.corruption, p.virtue, p.stacked), spaces,
                   corruption=corruption, virtue=virtue)  # fmt: skip
    return state.with_player(seat, corruption=m.corruption, virtue=m.virtue, stacked=m.stacked)


def lose_virtue(state: VState, seat: int, n: int) -> VState:
    """Virtue paid as a price: the Virtue marker moves back toward its end; stacked markers
    stay (the Collision stands, VW-13)."""
    p = state.players[seat]
    if p.stacked:
        return state
    spaces = state.data.track.spaces or 1
    return state.with_player(seat, virtue=min(spaces - 1, p.virtue + n))


def trigger_end(state: VState) -> VState:
    """Poverty or Prosperity uncovered: finish this round and play one more (§1)."""
    if state.end_round is None:
        return replace(state, end_round=max(state.round, 0) + 1)
    return state


def take_debts(state: VState, seat: int, n: int) -> VState:
    for _ in range(n):
        if state.debts_left > 0:
            state = replace(state, debts_left=state.debts_left - 1)
            if state.debts_left == 0:
                state = trigger_end(replace(state, poverty=True))
        state = add(state, seat, "debts", 1)
    return state


def take_deeds(state: VState, seat: int, n: int) -> VState:
    for _ in range(n):
        if state.deeds_left > 0:
            state = replace(state, deeds_left=state.deeds_left - 1)
            if state.deeds_left == 0:
                state = trigger_end(replace(state, prosperity=True))
        state = add(state, seat, "deeds", 1)
    return state


def flip(state: VState, seat: int, what: str) -> VState:
    """Turn over an unpaid Debt (+1 resource of choice, §6) or an acquired Deed."""
    if what == "debt":
        state = state.with_player(seat, debts=state.players[seat].debts - 1,
                                  paid=state.players[seat].paid + 1)  # fmt: skip
        return push(state, (Todo(seat, "gain", "resource", 1, source="debt"),))
    return state.with_player(seat, deeds=state.players[seat].deeds - 1,
                             granted=state.players[seat].granted + 1)  # fmt: skip


def counter(state: VState, seat: int, what: str) -> int:
    """How many of ``what`` a seat has, for ``per`` gains and Manuscript scoring: a symbol on
    all its cards and Buildings (Villains not wild), Buildings, Debts, Deeds, Workers..."""
    p = state.players[seat]
    if what in sym.BUY_WITH or what == "villain":
        printed = [card_symbols(state.data, c) for c in p.cards()]
        s = sym.supply(printed, (a for a, _ in building_abilities(state, seat)))
        return s.plain(cast(Symbol, what))
    kinds = Counter(k for k, _, _ in p.built)
    simple = {
        "building": len(p.built), "paid-debt": p.paid, "unpaid-debt": p.debts,
        "granted-deed": p.granted, "acquired-deed": p.deeds, "manuscript": len(p.manuscripts),
        "worker": castle_workers(state, seat),
    }  # fmt: skip
    if what in simple:
        return simple[what]
    return kinds[what]


def castle_workers(state: VState, seat: int) -> int:
    c = state.castle
    return sum(s[seat] for s in c.level1) + sum(s[seat] for s in c.level2) + c.level3[seat]


# --- cards: reshuffle, hire, discard, destroy --------------------------------------------------


def reshuffle(state: VState, seat: int, check: bool = True) -> VState:
    """The discard pile becomes the deck; with ``check`` (a forced reshuffle, VW-11): +1
    Corruption if the board shows a Villain, else +1 Virtue (§4 phase 6)."""
    p = state.players[seat]
    state = state.with_player(seat, deck=tuple(sorted((*p.deck, *p.discard))), discard=())
    if not check:
        return state
    if villains(state, seat) >= 1:
        return note(move_track(state, seat, corruption=1), seat, 1, "line/reshuffle-corruption")
    return note(move_track(state, seat, virtue=1), seat, 1, "line/reshuffle-virtue")


def total_cards(p: Player) -> int:
    return len(p.cards())


def hire_card(state: VState, seat: int, deck: int, pay: bool) -> VState:
    """Hire the face-up card of main-board deck ``deck``: pay its value (``pay``), to the
    discard pile, its hire effect, every ``on hire`` ability (§4 phase 4, Workshop 1)."""
    top = state.decks[deck][0]
    c = card(state.data, top)
    decks = list(state.decks)
    decks[deck] = decks[deck][1:]
    state = replace(state, decks=tuple(decks))
    p = state.players[seat]
    state = state.with_player(seat, discard=(*p.discard, top),
                              silver=p.silver - ((c.value or 0) if pay else 0))  # fmt: skip
    state = note(state, seat, (c.value or 0) if pay else 0, "line/hire", card=top)
    items: list[Todo | Ask] = [*expand(state, seat, c.hire, top)]
    items.append(Todo(seat, "event", "on hire"))
    return push(state, tuple(items))


def fire(state: VState, seat: int, event: str, only: str = "all") -> tuple[Todo | Ask, ...]:
    """The items of a seat's persistent abilities of ``event`` (``only``: ``buildings`` —
    Buildings and Church Favour — or ``cards``)."""
    pool = {"all": abilities, "buildings": lambda s, i: [*building_abilities(s, i),
            *favour_abilities(s, i)], "cards": card_abilities}[only](state, seat)  # fmt: skip
    out: list[Todo | Ask] = []
    for ability, source in pool:
        body = ability.body
        if ability.timing == "persistent" and isinstance(body, Effect) and body.event == event:
            out.extend(expand(state, seat, body, source))
    return tuple(out)


# --- the Castle (§5.3) --------------------------------------------------------------------------


def _bump(
    rows: tuple[tuple[int, ...], ...], section: int, seat: int, by: int
) -> tuple[tuple[int, ...], ...]:
    out = [list(r) for r in rows]
    out[section][seat] += by
    return tuple(tuple(r) for r in out)


def place_workers(state: VState, seat: int, section: int, n: int) -> VState:
    """``n`` Workers from the pool into a level-1 section, then the cascade (queued)."""
    n = min(n, state.players[seat].pool)
    if n <= 0:
        return state
    state = state.with_player(seat, pool=state.players[seat].pool - n)
    c = state.castle
    state = replace(state, castle=replace(c, level1=_bump(c.level1, section, seat, n)))
    return push(state, (Todo(seat, "castle"),))


def resolve_section(state: VState, seat: int, section: int) -> VState:
    """A level-1 section with ≥3 of the seat's Workers: one inward (its level-2 effect), one
    clockwise, one counter-clockwise (§5.3)."""
    c = state.castle
    data = state.data
    n = len(c.level1)
    inward = (data.castle.inward or ())[section]
    level1 = _bump(c.level1, section, seat, -3)
    level1 = _bump(level1, (section + 1) % n, seat, 1)
    level1 = _bump(level1, (section - 1) % n, seat, 1)
    level2 = _bump(c.level2, inward, seat, 1)
    state = replace(state, castle=replace(c, level1=level1, level2=level2))
    effect = (data.castle.level2 or ())[inward]
    return push(state, (*expand(state, seat, effect, f"castle-{inward}"), Todo(seat, "castle")))


def castle_step(state: VState, seat: int) -> VState:
    """The cascade: resolve level-1 sections with ≥3 of the seat's Workers (asked when
    several), then level 2 → 3, then the Lord of the Castle and the push-out."""
    c = state.castle
    ready = [i for i, s in enumerate(c.level1) if s[seat] >= 3]
    if len(ready) == 1:
        return resolve_section(state, seat, ready[0])
    if ready:
        return replace(state, ask=Ask(seat, "cascade", tuple(str(i) for i in ready)))
    level2 = [list(s) for s in c.level2]
    level3 = list(c.level3)
    gains = 0
    for s in level2:
        while s[seat] >= 3:
            s[seat] -= 1
            level3[seat] += 1
            gains += 1
    state = replace(state, castle=Castle(c.level1, tuple(tuple(s) for s in level2), tuple(level3)))
    if gains:
        state = note(state, seat, gains, "line/level3")
    state = lord_check(state, seat)
    gain = tuple(Todo(seat, "gain", "resource", 1, source="level3") for _ in range(gains))
    return push(state, (*gain, Todo(seat, "push-out")))


def lord_check(state: VState, seat: int) -> VState:
    """The first to reach level 3 takes the Lord of the Castle; later whoever has strictly more
    level-3 Workers than the holder (§5.3)."""
    l3 = state.castle.level3
    if l3[seat] == 0 or state.lord == seat:
        return state
    if state.lord is None or l3[seat] > l3[state.lord]:
        return note(replace(state, lord=seat), seat, 1, "line/lord")
    return state


def crowded(state: VState) -> tuple[int, int] | None:
    """The first section (level, index) holding more than 3 Workers in all, or None."""
    for level, rows in ((1, state.castle.level1), (2, state.castle.level2)):
        for i, s in enumerate(rows):
            if sum(s) > 3:
                return level, i
    return None


def push_out_step(state: VState, initiator: int) -> VState:
    """Ask the active player (in setup, the seat whose Workers arrived) which Worker leaves a
    crowded section (§5.3 push-out)."""
    where = crowded(state)
    if where is None:
        return state
    level, i = where
    rows = state.castle.level1 if level == 1 else state.castle.level2
    options = tuple(f"{level}:{i}:{s}" for s, n in enumerate(rows[i]) if n > 0)
    asker = initiator if state.phase == "pairs" else state.active()
    return replace(state, ask=Ask(asker, "push-out", options, left=initiator))


def push_out(state: VState, level: int, section: int, owner: int, initiator: int) -> VState:
    c = state.castle
    if level == 1:
        state = replace(state, castle=replace(c, level1=_bump(c.level1, section, owner, -1)))
        state = add(state, owner, "silver", 2)
        state = add(state, owner, "pool", 1)
        state = note(state, owner, 2, "line/pushed-out-1")
        return push(state, (Todo(initiator, "push-out"),))
    state = replace(state, castle=replace(c, level2=_bump(c.level2, section, owner, -1)))
    state = add(state, owner, "pool", 1)
    state = note(state, owner, 1, "line/pushed-out-2")
    return push(state, (Todo(owner, "gain", "virtue", 1), Todo(owner, "gain", "resource", 1),
                        Todo(initiator, "push-out")))  # fmt: skip


# --- what a seat may pick for an action item ---------------------------------------------------


def hire_targets(state: VState, seat: int, here_only: bool) -> tuple[str, ...]:
    parts = range(len(state.decks))
    if here_only:
        town = state.data.board.town(state.players[seat].town or "") if state.data.board else None
        parts = range(town.part, town.part + 1) if town else range(0)
    return tuple(str(d) for d in parts if state.decks[d])


def manuscript_targets(state: VState) -> tuple[str, ...]:
    """Board parts whose visible Manuscript costs 3 or 4 (a free Manuscript, seed L1044-1046:
    "wybierz go spośród tych widocznych na planszy Głównej"): a stack's top tile, or, under an
    empty stack, the printed one, Transcribed for its effect only (L652-654, L950, VW-16)."""
    out = []
    for i in range(len(state.stacks)):
        m = top_manuscript(state, i)
        if m is not None and m.cost in (3, 4):
            out.append(str(i))
    return tuple(out)


def manuscript(data: ViscountsData, mid: str) -> Any:
    return next(m for m in (*data.manuscripts, *data.printed_manuscripts) if m.id == mid)


def top_manuscript(state: VState, part: int) -> Manuscript | None:
    """The Manuscript a player beside board part ``part`` may Transcribe: the stack's top tile,
    or once the stack is empty the one printed on the board (seed L652-654: "nadal mogą je
    Przepisywać", VW-16); None when neither is there (data without the printed one, or its
    cost unknown)."""
    stack = state.stacks[part] if 0 <= part < len(state.stacks) else ()
    if stack:
        found: Manuscript = manuscript(state.data, stack[0])
        return found
    printed = state.data.printed_manuscripts
    if 0 <= part < len(printed) and printed[part].cost is not None:
        return printed[part]
    return None


def top_townsfolk(state: VState, part: int) -> Townsfolk | None:
    """The face-up Townsfolk beside board part ``part``: the deck's top card, or once the deck
    is empty the one printed on the board, which can be dismissed but never hired (seed
    L672-674, VW-17); None when neither is there."""
    deck = state.decks[part] if 0 <= part < len(state.decks) else ()
    if deck:
        return card(state.data, deck[0])
    printed = state.data.printed_townsfolk
    if 0 <= part < len(printed) and printed[part].value is not None:
        return printed[part]
    return None


def strip_left(state: VState, seat: int) -> list[tuple[str, int]]:
    """The Buildings still on a seat's strip: (kind, position)."""
    taken = {(k, pos) for k, pos, _ in state.players[seat].built}
    return [(b.kind, pos) for b in state.data.buildings for pos in range(3)
            if (b.kind, pos) not in taken]  # fmt: skip


def build_targets(state: VState, seat: int, kind: str) -> tuple[str, ...]:
    """A free Build: the Building (``any`` or a kind) on any empty site (seed L1095-1096)."""
    board = state.data.board
    if board is None:
        return ()
    empty = [s.id for s in board.sites if s.id not in state.sites]
    left = [(k, pos) for k, pos in strip_left(state, seat) if kind in ("any", k)]
    return tuple(f"{k}:{pos}:{site}" for k, pos in left for site in empty)


def place_building(state: VState, seat: int, kind: str, position: int, site: str) -> VState:
    """Put the Building on the site; its bonus, then each completed Connection pays both
    owners, once if one owns both (§5.2 resolution steps 2-4)."""
    board = state.data.board
    assert board is not None
    p = state.players[seat]
    state = state.with_player(seat, built=(*p.built, (kind, position, site)))
    state = replace(state, sites={**state.sites, site: seat})
    state = note(state, seat, 1, "line/build", building=kind, site=site)
    bonus = next(s.bonus for s in board.sites if s.id == site)
    items: list[Todo | Ask] = [*expand(state, seat, bonus, site)]
    for other, index in graph.connections_of(board, site):
        owner = state.sites.get(other)
        if owner is None:
            continue
        effect = board.connections[index].effect
        for who in dict.fromkeys((seat, owner)):
            items.extend(expand(state, who, effect, f"connection-{index}"))
    return push(state, tuple(items))


def take_manuscript(state: VState, seat: int, stack: int) -> VState:
    """Take the top Manuscript of a stack: its immediate effect, then Church Favour to the first
    with three of one ribbon (§5.4). Under an empty stack the printed Manuscript is Transcribed
    for its immediate effect only: it cannot be taken (seed L652-654)."""
    if not state.stacks[stack]:
        printed = top_manuscript(state, stack)
        assert printed is not None
        state = note(state, seat, 1, "line/printed-manuscript", manuscript=printed.id)
        return push(state, expand(state, seat, printed.effect, printed.id))
    mid = state.stacks[stack][0]
    stacks = list(state.stacks)
    stacks[stack] = stacks[stack][1:]
    state = replace(state, stacks=tuple(stacks))
    p = state.players[seat]
    state = state.with_player(seat, manuscripts=(*p.manuscripts, mid))
    state = note(state, seat, 1, "line/manuscript", manuscript=mid)
    m = manuscript(state.data, mid)
    ribbons = Counter(manuscript(state.data, x).ribbon for x in state.players[seat].manuscripts)
    for f in state.data.church_favour:
        if ribbons[f.ribbon] >= 3 and f.id not in state.favour_holders:
            state = replace(state, favour_holders={**state.favour_holders, f.id: seat})
            p = state.players[seat]
            state = state.with_player(seat, favours=(*p.favours, f.id))
            state = note(state, seat, 1, "line/favour", favour=f.id)
    return push(state, expand(state, seat, m.effect, mid))


# --- running the queue --------------------------------------------------------------------------


def reorders(board: tuple[str | None, ...]) -> tuple[str, ...]:
    """Each distinct new order of a board, as positions: "2,0,1" = old 2, old 0, old 1."""
    seen: dict[tuple[str | None, ...], str] = {}
    for perm in itertools.permutations(range(3)):
        new = tuple(board[k] for k in perm)
        if new != tuple(board) and new not in seen:
            seen[new] = ",".join(map(str, perm))
    return tuple(seen.values())


def card_choices(state: VState, seat: int, destroy: bool) -> tuple[str, ...]:
    """Where a Discard or Destroy may take a card: a hand card, or the deck's top (seed
    L1068-1081: with an empty deck the discard pile is shuffled in first). During setup step 9
    (Player card 9) any card of the deck about to be shuffled (VW-10)."""
    p = state.players[seat]
    if destroy and total_cards(p) <= 3:
        return ()  # the three-card minimum (§4 phase 1, check 12)
    if state.phase == "pairs":
        return tuple(f"card:{c}" for c in dict.fromkeys(p.deck))
    out = [f"hand:{c}" for c in dict.fromkeys(p.hand)]
    if p.deck or p.discard:
        out.append("deck")
    return tuple(out)


def ask_reveal(state: VState, seat: int, purpose: str) -> VState:
    """The table must report the top card of the seat's deck (reshuffling an empty one)."""
    p = state.players[seat]
    if not p.deck:
        if not p.discard:
            return state
        state = reshuffle(state, seat)
    return replace(state, ask=Ask(seat, "reveal", purpose=purpose))


def answer(state: VState, seat: int, option: str) -> VState:
    """Apply a seat's answer to ``state.ask`` (already checked to be one of its options)."""
    ask = state.ask
    assert ask is not None
    state = replace(state, ask=None)
    kind = ask.asks
    if kind in ("pay", "alt"):
        if option == "decline":
            return state
        return push(state, ask.then[int(option.split("-")[1])])
    if kind == "resource":
        state = note(add(state, seat, option, 1), seat, 1, f"line/gain-{option}", source=ask.source)
        if ask.left > 1:
            return replace(state, ask=replace(ask, left=ask.left - 1))
        return state
    if kind == "pay-resource":
        state = add(state, seat, option, -1)
        if ask.left > 1:
            p = state.players[seat]
            have = tuple(r for r in RESOURCES if p.amount(r) > 0)
            return replace(state, ask=replace(ask, left=ask.left - 1, options=have))
        return state
    if kind == "flip":
        return note(flip(state, seat, option), seat, 1, f"line/flip-{option}")
    if kind == "free-hire":
        return hire_card(state, seat, int(option), pay=False)
    if kind == "free-manuscript":
        return take_manuscript(state, seat, int(option))
    if kind == "free-build":
        k, pos, site = option.split(":")
        return place_building(state, seat, k, int(pos), site)
    if kind == "free-workers":
        return place_workers(state, seat, int(option), ask.left)
    if kind == "shift-worker":
        if option == "decline":
            return state
        a, b = (int(x) for x in option.split(">"))
        c = state.castle
        level1 = _bump(_bump(c.level1, a, seat, -1), b, seat, 1)
        return push(replace(state, castle=replace(c, level1=level1)), (Todo(seat, "castle"),))
    if kind == "reorder":
        if option == "keep":
            return state
        perm = [int(x) for x in option.split(",")]
        row = state.players[seat].board
        return state.with_player(seat, board=(row[perm[0]], row[perm[1]], row[perm[2]]))
    if kind in ("discard", "destroy"):
        if option == "decline":
            return replace(state, queue=_drop_rest(state.queue, seat, kind))
        if option == "deck":
            return ask_reveal(state, seat, kind)
        cid = option.split(":", 1)[1]
        p = state.players[seat]
        if option.startswith("card:"):
            state = state.with_player(seat, deck=without(p.deck, cid))
        else:
            state = state.with_player(seat, hand=without(p.hand, cid))
        return discard_or_destroy(state, seat, kind, cid)
    if kind == "cascade":
        return resolve_section(state, seat, int(option))
    if kind == "push-out":
        level, section, owner = (int(x) for x in option.split(":"))
        return push_out(state, level, section, owner, ask.left)
    return state


def _drop_rest(queue: tuple[Todo | Ask, ...], seat: int, kind: str) -> tuple[Todo | Ask, ...]:
    """Declining an optional Discard/Destroy of several cards declines the rest of it."""
    if queue and isinstance(queue[0], Todo) and queue[0].act == kind and queue[0].seat == seat:
        return queue[1:]
    return queue


def discard_or_destroy(state: VState, seat: int, kind: str, cid: str) -> VState:
    p = state.players[seat]
    if kind == "discard":
        return note(state.with_player(seat, discard=(*p.discard, cid)), seat, 1, "line/discard")
    value = card(state.data, cid).value or 0
    state = state.with_player(seat, silver=p.silver + value)
    return note(state, seat, value, "line/destroy", card=cid)


__all__ = ["answer", "expand"]
