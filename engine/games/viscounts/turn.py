"""Setup and the turn: who acts, what is legal, applying a move (digest §3, §4, §5).

``apply`` checks and applies in one pass: the next state, or ``Refused`` with the reason and
the state untouched. After each move the queue of effects runs (``resolve.run``) and the turn
moves on by itself through what needs nobody (the push, the Collision check, the draw's
reshuffles, the end of a turn) until a seat or the table must act.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engine.games.viscounts import board as graph
from engine.games.viscounts import resolve, rules, solo, track
from engine.games.viscounts import symbols as sym
from engine.games.viscounts.data_types import ViscountsData
from engine.games.viscounts.effects import Effect, Gain
from engine.games.viscounts.moves import (
    AiStep,
    Build,
    Choose,
    Hire,
    Lay,
    Pass,
    PickPair,
    Play,
    Reveal,
    RevealScheme,
    Skip,
    Trade,
    Transcribe,
    Travel,
    Workers,
)
from engine.games.viscounts.refs import refuse
from engine.games.viscounts.state import Castle, Player, Todo, Turn, VState, remember, without

LEVEL2_DEFAULT = 3

# --- setup (§3) ---------------------------------------------------------------------------------


def initial(seats: tuple[str, ...], options: dict[str, Any], data: ViscountsData) -> VState:
    """The table before the table lays out decks, stacks and pairs (§3 steps 1-7): kits,
    markers at their ends, First Player the first seat (VW-8). The Debt and Deed stacks are
    laid only after every pair is taken (step 10, seed L196-199, after step 9's L174-182), so
    a Player card's Debts and Deeds come from the supply (VW-8, :func:`lay_kingdom`)."""
    n = len(seats)
    spaces = data.track.spaces or 1
    start = track.start(spaces)
    players = tuple(
        Player(seat, colour=i, corruption=start.corruption, virtue=start.virtue)
        for i, seat in enumerate(seats)
    )
    sections = data.castle.level1 or 0
    level2 = len(data.castle.level2 or ()) or LEVEL2_DEFAULT
    castle = Castle(tuple((0,) * n for _ in range(sections)),
                    tuple((0,) * n for _ in range(level2)), (0,) * n)  # fmt: skip
    return VState(
        doc=remember(data.doc, data).doc,
        options=options,
        players=players,
        castle=castle,
    )


def lay_kingdom(state: VState) -> VState:
    """Setup step 10 (seed L196-199): as many Debts on the Poverty card and Deeds on the
    Prosperity card as the player count asks. It follows step 9 (seed L174-182), in which each
    player took their Player card's Debts and Deeds: those come from the supply, not off
    these stacks (VW-8)."""
    n = len(state.players)
    humans = solo.humans(state)  # solo: the stacks of one player (VW-42)
    kingdom = state.data.kingdom
    return replace(
        state,
        debts_left=kingdom.poverty.get(humans) or kingdom.poverty.get(n) or 0,
        deeds_left=kingdom.prosperity.get(humans) or kingdom.prosperity.get(n) or 0,
    )


def sample_lay(state: VState, rng: random.Random) -> Lay:
    """A simulated table's shuffle: 68 Commons in five decks (14/14/14/13/13), Manuscript
    stacks with a grey tile on top, players+1 pairs (§3 steps 3, 4, 8)."""
    data = state.data
    commons = [c.id for c in data.townsfolk if c.deck == "common" for _ in range(c.count)]
    rng.shuffle(commons)
    parts = 5
    sizes = [len(commons) // parts + (1 if k < len(commons) % parts else 0) for k in range(parts)]
    decks, at = [], 0
    for size in sizes:
        decks.append(tuple(commons[at : at + size]))
        at += size
    grey = [m.id for m in data.manuscripts if m.back == "grey"]
    black = [m.id for m in data.manuscripts if m.back == "black"]
    rng.shuffle(grey)
    rng.shuffle(black)
    per = len(black) // len(grey) if grey else 0
    stacks = tuple((g, *black[k * per : (k + 1) * per]) for k, g in enumerate(grey))
    numbers = [p.number for p in data.player_cards]
    famous = [c.id for c in data.townsfolk if c.deck == "famous" for _ in range(c.count)]
    rng.shuffle(numbers)
    rng.shuffle(famous)
    n = pairs_needed(state)
    return Lay(tuple(decks), stacks, tuple(zip(numbers[:n], famous[:n], strict=True)))


def lay(state: VState, move: Lay) -> VState:
    data = state.data
    commons = sorted(c.id for c in data.townsfolk if c.deck == "common" for _ in range(c.count))
    if sorted(c for d in move.decks for c in d) != commons or len(move.decks) != 5:
        raise refuse("setup/decks", "setup")
    grey = {m.id for m in data.manuscripts if m.back == "grey"}
    laid = sorted(m for s in move.stacks for m in s)
    if laid != sorted(m.id for m in data.manuscripts) or any(
        not s or s[0] not in grey for s in move.stacks
    ):
        raise refuse("setup/stacks", "setup")
    numbers = {p.number for p in data.player_cards}
    famous = {c.id for c in data.townsfolk if c.deck == "famous"}
    if (
        len(move.pairs) != pairs_needed(state)
        or any(n not in numbers or f not in famous for n, f in move.pairs)
        or len({n for n, _ in move.pairs}) != len(move.pairs)
    ):
        raise refuse("setup/pairs", "setup", count=pairs_needed(state))
    state = replace(state, decks=move.decks, stacks=move.stacks, pairs=move.pairs, phase="pairs")
    return replace(state, picking=solo.humans(state) - 1)


def pairs_needed(state: VState) -> int:
    """Player card / Famous pairs laid out: one more than the players (§3 step 8); in solo
    one fewer, so 2 (seed L832-836)."""
    return solo.humans(state) + 1


def picker(state: VState) -> int:
    """Setup step 9 goes in reverse turn order from the player right of the First Player."""
    return state.order()[state.picking]


def pick_pair(state: VState, move: PickPair) -> VState:
    seat = picker(state)
    if not 0 <= move.index < len(state.pairs):
        raise refuse("setup/no-pair", "setup", index=move.index)
    number, famous = state.pairs[move.index]
    data = state.data
    assert data.board is not None
    town = graph.town_of_number(data.board, number)
    if town is None:
        raise refuse("setup/no-town", "setup", number=number)
    pcard = next(p for p in data.player_cards if p.number == number)
    starting = tuple(c.id for c in data.townsfolk if c.deck == "starting" and c.colour == seat
                     for _ in range(c.count))  # fmt: skip
    pairs = (*state.pairs[: move.index], *state.pairs[move.index + 1 :])
    state = replace(state, pairs=pairs)
    state = state.with_player(seat, town=town.id, player_card=number,
                              deck=tuple(sorted((*starting, famous))))  # fmt: skip
    extra = rules.expand(state, seat, pcard.extra, f"player-card-{number}")
    if number == 8:
        extra = tuple(replace(t, what="here") if isinstance(t, Todo) and t.act == "free-hire"
                      else t for t in extra)  # fmt: skip
    items = (*rules.expand(state, seat, pcard.gains, f"player-card-{number}"), *extra,
             *(Todo(seat, "deal") for _ in range(3)))  # fmt: skip
    state = rules.push(state, items)
    state = replace(state, picking=state.picking - 1)
    if state.solo is not None and state.picking < 0:
        state = solo.after_pick(state)
    return state


# --- the turn (§4) -------------------------------------------------------------------------------


def advance(state: VState) -> VState:
    """Run the queue and every step that needs nobody, until someone must act."""
    for _ in range(10_000):
        state = resolve.run(state)
        if state.ask is not None or state.phase == "over":
            return state
        nxt = _auto(state)
        if nxt is None:
            return state
        state = nxt
    raise AssertionError("the turn does not settle")  # pragma: no cover


def _auto(state: VState) -> VState | None:
    phase = state.phase
    if phase == "pairs" and state.picking < 0:
        return lay_kingdom(replace(state, phase="turn-start", round=1, turn=0, pairs=()))
    if phase == "turn-start":
        return start_turn(state)
    if phase == "play":
        i = state.active()
        p = state.players[i]
        if not p.hand and state.current.played is None:
            if not (p.deck or p.discard):
                return replace(state, phase="move")  # pragma: no cover - 3-card minimum
            return rules.ask_reveal(state, i, "play")
        return None
    if phase == "collision":
        return collision(state)
    if phase == "draw":
        i = state.active()
        p = state.players[i]
        if len(p.hand) < rules.hand_limit(state, i) and (p.deck or p.discard):
            return rules.ask_reveal(state, i, "hand")
        return end_turn(state)
    return None


def start_turn(state: VState) -> VState:
    """Phase 1 step 1: push every card right; the one pushed off goes to the discard pile and
    its push-off ability resolves (seed L318-334)."""
    i = state.active()
    if solo.is_ai(state, i):
        return solo.start_turn(replace(state, current=Turn()))
    p = state.players[i]
    a, b, c = p.board
    state = replace(state, current=Turn(), phase="play")
    state = state.with_player(i, board=(None, a, b), discard=(*p.discard, c) if c else p.discard)
    if c is None:
        return state
    ability = rules.card(state.data, c).ability
    if ability is not None and ability.timing == "push-off":
        return rules.push(state, rules.ability_items(state, i, ability, c))
    return state


def played(state: VState, i: int, cid: str) -> VState:
    """A card on the leftmost space: 1 Corruption per Villain on the board if it shows one,
    then its immediate ability (seed L336-343), then conditional persistent gains (VW-14)."""
    p = state.players[i]
    state = state.with_player(i, board=(cid, p.board[1], p.board[2]))
    state = replace(state, current=replace(state.current, played=cid), phase="move")
    if "villain" in rules.card_symbols(state.data, cid):
        n = rules.villains(state, i)
        state = rules.note(rules.move_track(state, i, corruption=n), i, n, "line/villain")
    own = rules.card(state.data, cid).ability
    items = list(
        rules.ability_items(state, i, own, cid) if own and own.timing == "immediate" else ()
    )
    for ability, source in rules.abilities(state, i):
        body = ability.body
        if (
            ability.timing == "persistent"
            and isinstance(body, Effect)
            and body.event is None
            and body.conditions
            and any(isinstance(a, Gain) for a in body.reward[0])
        ):
            items.extend(rules.expand(state, i, body, source))
    return rules.append(state, tuple(items))


def value_played(state: VState) -> int:
    cid = state.current.played
    return (rules.card(state.data, cid).value or 0) if cid else 0


def travel_options(state: VState, i: int) -> list[tuple[str, int, int]]:
    """(town, spaces, Silver paid) for every legal move (§4 phase 2, checks 13-15)."""
    data = state.data
    assert data.board is not None
    p = state.players[i]
    least = value_played(state)
    free = rules.modifier(state, i, "free-move")
    most = least + free + p.silver
    out: list[tuple[str, int, int]] = []
    for spaces in range(least, most + 1):
        cost = max(0, spaces - least - free)
        for town in sorted(graph.destinations(data.board, p.town or "", spaces)):
            out.append((town, spaces, cost))
    return out


def travel(state: VState, move: Travel) -> VState:
    i = state.active()
    found = [o for o in travel_options(state, i) if o[0] == move.town and o[1] == move.spaces]
    if not found:
        raise refuse("move/illegal", "move", town=move.town, spaces=move.spaces)
    _, _, cost = found[0]
    state = state.with_player(i, town=move.town, silver=state.players[i].silver - cost)
    if cost:
        state = rules.note(state, i, -cost, "line/move-silver")
    state = replace(state, phase="action")
    met = [k for k in state.order() if k != i and state.players[k].town == move.town]
    items: list[Todo] = []
    for k in met:  # the met player may reorder (seed L365-368); "on meeting" abilities fire
        items += [Todo(k, "meeting"), Todo(k, "event", "on meeting")]
    if met:
        items.append(Todo(i, "event", "on meeting"))
    return rules.append(state, tuple(items))


# --- main actions (§5) ---------------------------------------------------------------------------


def town_of(state: VState, i: int) -> Any:
    assert state.data.board is not None
    return state.data.board.town(state.players[i].town or "")


def dismissable(state: VState, i: int, action: str) -> str | None:
    """The card a main action may dismiss: the face-up card beside the Viscount showing the
    action's symbol or a Villain, its price affordable (§4 phase 3, check 20); under an empty
    deck, the card printed on the board (seed L672-674, VW-17)."""
    town = town_of(state, i)
    found = rules.top_townsfolk(state, town.part) if town else None
    if found is None:
        return None
    top = found.id
    symbols = rules.card_symbols(state.data, top)
    if sym.ACTION_SYMBOL[action] not in symbols and "villain" not in symbols:
        return None
    if rules.dismiss_cost(state, i, top) > state.players[i].silver:
        return None
    return str(top)


def _pay_symbols(
    state: VState, i: int, action: str, needed: int, dismiss: bool
) -> tuple[VState, int, str | None] | None:
    """The state after paying ``needed`` symbols of ``action`` (dismissal and bought
    symbols), the Silver it cost, the dismissed card; None if it cannot be paid."""
    top = dismissable(state, i, action) if dismiss else None
    if dismiss and top is None:
        return None
    extra = rules.card_symbols(state.data, top) if top else ()
    s = rules.supply(state, i, extra)
    symbol = sym.ACTION_SYMBOL[action]
    buy = sym.shortfall(s, symbol, needed)
    resource = sym.BUY_WITH[symbol]
    fee = rules.dismiss_cost(state, i, top) if top else 0
    p = state.players[i]
    if resource == "silver":
        if buy + fee > p.silver:
            return None
        state = state.with_player(i, silver=p.silver - buy - fee)
    else:
        if buy > p.amount(resource) or fee > p.silver:
            return None
        state = state.with_player(i, silver=p.silver - fee, **{resource: p.amount(resource) - buy})
    if buy:
        state = rules.note(state, i, -buy, f"line/buy-{resource}")
    return state, fee, top


def _after_dismiss(state: VState, i: int, top: str | None) -> VState:
    """The dismissed card leaves its deck and its top-right effect resolves at once, before
    the action's own results: called after the action queued them, it goes in front (the
    Mason and Racketeer examples reorder first, seed L512-517, L658-659)."""
    if top is None:
        return state
    town = town_of(state, i)
    decks = list(state.decks)
    if decks[town.part]:  # a printed board card stays where it is printed (seed L672-674)
        decks[town.part] = decks[town.part][1:]
    state = replace(state, decks=tuple(decks), current=replace(state.current, dismissed=True))
    state = rules.note(state, i, 1, "line/dismiss", card=top)
    return rules.push(state, rules.expand(state, i, rules.card(state.data, top).hire, top))


def main_action(state: VState, move: Any) -> VState:
    i = state.active()
    town = town_of(state, i)
    kind = type(move).kind
    if kind == "skip":
        if not state.options.get("skip_action", False) and any(
            not isinstance(m, Skip) for m in action_moves(state, i)
        ):
            raise refuse("action/no-skip", "action")
        return replace(state, phase="hire", current=replace(state.current, action="skip"))
    path = "outer" if kind in ("trade", "build") else "inner"
    if town.path != path:
        raise refuse("action/wrong-path", "action", action=kind, path=town.path)
    if move.dismiss and dismissable(state, i, kind) is None:
        raise refuse("dismiss/cannot", "dismiss")  # check 20: say why, not "cannot pay"
    if kind == "trade":
        state = trade(state, i, move, town)
    elif kind == "build":
        state = build(state, i, move, town)
    elif kind == "workers":
        state = workers(state, i, move, town)
    else:
        state = transcribe(state, i, move, town)
    state = replace(state, phase="hire", current=replace(state.current, action=kind))
    return rules.append(state, (Todo(i, "event", f"after {kind}"),))


def trade(state: VState, i: int, move: Trade, town: Any) -> VState:
    exchange = town.exchange or "silver"
    rate = sym.TRADE_RATE[exchange]
    if move.times < 1:
        raise refuse("trade/times", "trade", times=move.times)
    paid = _pay_symbols(state, i, "trade", move.times * rate, move.dismiss)
    if paid is None:
        raise refuse("action/cannot-pay", "trade", needed=move.times * rate)
    state, _, top = paid
    state = _after_dismiss(state, i, top)
    items: tuple[Todo, ...]
    if exchange == "silver":
        items = (Todo(i, "gain", "silver", move.times, source="trade"),)
    elif exchange in ("ink", "stone", "gold", "resource"):
        items = (Todo(i, "gain", exchange, move.times, source="trade"),)
    elif exchange == "destroy":
        items = tuple(Todo(i, "destroy", source="trade") for _ in range(move.times))
    else:
        items = (Todo(i, "flip", "debt-or-deed", move.times, source="trade"),)
    return rules.append(state, items)


def build(state: VState, i: int, move: Build, town: Any) -> VState:
    data = state.data
    assert data.board is not None
    if (move.building, move.position) not in rules.strip_left(state, i):
        raise refuse("build/taken", "build", building=move.building, position=move.position)
    sites = {s.id for s in graph.sites_from(data.board, town.id)}
    if move.site not in sites or move.site in state.sites:
        raise refuse("build/site", "build", site=move.site)
    cost = next(b.cost for b in data.buildings if b.kind == move.building)
    paid = _pay_symbols(state, i, "build", cost, move.dismiss)
    if paid is None:
        raise refuse("action/cannot-pay", "build", needed=cost)
    state, _, top = paid
    state = rules.place_building(state, i, move.building, move.position, move.site)
    return _after_dismiss(state, i, top)


NOBLES = {1: 1, 2: 3, 3: 5, 4: 8}


def workers(state: VState, i: int, move: Workers, town: Any) -> VState:
    if move.count not in NOBLES or move.count > state.players[i].pool:
        raise refuse("workers/count", "workers", count=move.count)
    paid = _pay_symbols(state, i, "workers", NOBLES[move.count], move.dismiss)
    if paid is None:
        raise refuse("action/cannot-pay", "workers", needed=NOBLES[move.count])
    state, _, top = paid
    state = rules.note(state, i, move.count, "line/workers")
    section = town.part % max(1, len(state.castle.level1))
    state = replace(state, current=replace(state.current, castle_start=section))
    return _after_dismiss(rules.place_workers(state, i, section, move.count), i, top)


def transcribe(state: VState, i: int, move: Transcribe, town: Any) -> VState:
    found = rules.top_manuscript(state, town.part)
    if found is None:
        raise refuse("transcribe/empty", "transcribe")
    cost = found.cost or 0
    paid = _pay_symbols(state, i, "transcribe", cost, move.dismiss)
    if paid is None:
        raise refuse("action/cannot-pay", "transcribe", needed=cost)
    state, _, top = paid
    state = replace(state, current=replace(state.current, transcribed=True))
    return _after_dismiss(rules.take_manuscript(state, i, town.part), i, top)


def action_moves(state: VState, i: int) -> list[Any]:
    """Every legal main action (affordability checked; the choices an effect asks follow)."""
    town = town_of(state, i)
    seat = state.players[i].seat
    out: list[Any] = []
    dismiss_opts = (False, True)
    if town.path == "outer":
        rate = sym.TRADE_RATE[town.exchange or "silver"]
        for d in dismiss_opts:
            for times in range(1, 13):
                if _pay_symbols(state, i, "trade", times * rate, d) is None:
                    break
                out.append(Trade(seat, times, d))
        assert state.data.board is not None
        sites = [
            s.id for s in graph.sites_from(state.data.board, town.id) if s.id not in state.sites
        ]
        costs = {b.kind: b.cost for b in state.data.buildings}
        for kind, pos in rules.strip_left(state, i):
            for d in dismiss_opts:
                if sites and _pay_symbols(state, i, "build", costs[kind], d) is not None:
                    out.extend(Build(seat, kind, pos, site, d) for site in sites)
    else:
        for d in dismiss_opts:
            for n in (1, 2, 3, 4):
                if n <= state.players[i].pool and _pay_symbols(state, i, "workers", NOBLES[n], d):
                    out.append(Workers(seat, n, d))
            found = rules.top_manuscript(state, town.part)
            if found is not None:
                cost = found.cost or 0
                if _pay_symbols(state, i, "transcribe", cost, d) is not None:
                    out.append(Transcribe(seat, d))
    if state.options.get("skip_action", False) or not out:
        out.append(Skip(seat))
    return out


# --- hire, Collision, draw, end of turn ----------------------------------------------------------


def hire_deck(state: VState, i: int) -> int | None:
    town = town_of(state, i)
    if town is None or not state.decks[town.part]:
        return None
    value = rules.card(state.data, state.decks[town.part][0]).value or 0
    return town.part if value <= state.players[i].silver else None


def collision(state: VState) -> VState:
    """Phase 5 (seed L676-702): only the active seat's markers; Building/Church Favour
    Collision abilities of every seat, then Townsfolk ones, the bonus above for the active
    seat, below for every other, then the markers go back.

    Steps 3 and 4 pay the bonuses of the space the markers are on when each is resolved
    (``resolve``, act ``collision-bonus``): the stacked markers move together "do momentu
    rozpatrzenia Kolizji" (L249-250), so a Virtue gained in step 1 or 2 moves the stack first,
    and L686-690 name the space "na którym znajdują się" the markers. Option
    ``collision_space`` = ``"start"`` pays the space the Collision was found on instead."""
    state = replace(state, phase="draw")
    i = state.active()
    p = state.players[i]
    if not p.stacked:
        return state
    where = p.corruption
    order = [(i + k) % len(state.players) for k in range(len(state.players))]
    items: list[Any] = []
    for k in order:
        items.extend(rules.fire(state, k, "on collision", "buildings"))
    for k in order:
        items.extend(rules.fire(state, k, "on collision", "cards"))
    items.append(Todo(i, "collision-bonus", "above", where, source="track-above"))
    items.extend(Todo(k, "collision-bonus", "below", where, source="track-below")
                 for k in order[1:])  # fmt: skip
    items.append(Todo(i, "reset"))
    state = rules.note(state, i, 1, "line/collision")
    return rules.append(state, tuple(items))


def end_turn(state: VState) -> VState:
    """The next seat's turn; after the trigger, the game ends with the round after the
    trigger's (the seat right of the First Player plays last, §1)."""
    n = len(state.players)
    if state.turn + 1 < n:
        return replace(state, turn=state.turn + 1, phase="turn-start", current=Turn())
    if state.end_round is not None and state.round >= state.end_round:
        return replace(state, phase="over", current=Turn())
    if 0 < int(state.options.get("max_rounds", 0)) <= state.round:  # a simulated table's cap
        return replace(state, phase="over", current=Turn())
    return replace(state, turn=0, round=state.round + 1, phase="turn-start", current=Turn())


# --- dispatch ----------------------------------------------------------------------------------


def actor(state: VState) -> str | None:
    """Who must act: a seat name, ``table``, or None when the game is over."""
    if state.phase == "over":
        return None
    if state.ask is not None:
        if state.ask.asks in ("reveal", "scheme"):
            return "table"
        return state.players[state.ask.seat].seat
    if state.phase == "lay":
        return "table"
    if state.phase == "pairs":
        return state.players[picker(state)].seat
    return state.players[state.active()].seat


def apply(state: VState, move: Any) -> VState:
    if state.ledger:
        state = replace(state, ledger=(), move_from=0)
    who = actor(state)
    if who is None:
        raise refuse("turn/over", "turn")
    if move.seat != who:
        raise refuse("turn/not-your-turn", "turn", actor=move.seat, waiting=who)
    ask = state.ask
    if state.solo is not None and move.seat == solo.AI_SEAT:
        if move != solo.ai_move(state):
            raise refuse("solo/not-the-ai-move", "solo", kind=type(move).kind)
        if isinstance(move, AiStep):
            return advance(solo.apply_step(state, move))
    if isinstance(move, RevealScheme) or (ask is not None and ask.asks == "scheme"):
        if not isinstance(move, RevealScheme) or ask is None or ask.asks != "scheme":
            raise refuse("turn/not-now", "turn", kind=type(move).kind)
        return advance(solo.reveal(state, move))
    if ask is not None:
        if isinstance(move, Reveal) and ask.asks == "reveal":
            return advance(reveal(state, move))
        if isinstance(move, Choose) and ask.asks != "reveal":
            if move.option not in ask.options:
                raise refuse(
                    "choose/not-an-option",
                    "glossary",
                    option=move.option,
                    options=", ".join(ask.options),
                )
            return advance(rules.answer(state, ask.seat, move.option))
        raise refuse("turn/not-now", "turn", kind=type(move).kind)
    phase = state.phase
    if isinstance(move, Lay) and phase == "lay":
        return advance(lay(state, move))
    if isinstance(move, PickPair) and phase == "pairs":
        return advance(pick_pair(state, move))
    if isinstance(move, Play) and phase == "play":
        i = state.active()
        if move.card not in state.players[i].hand:
            raise refuse("play/not-in-hand", "play", card=move.card)
        state = state.with_player(i, hand=without(state.players[i].hand, move.card))
        return advance(played(state, i, move.card))
    if isinstance(move, Travel) and phase == "move":
        return advance(travel(state, move))
    if isinstance(move, Trade | Build | Workers | Transcribe | Skip) and phase == "action":
        return advance(main_action(state, move))
    if isinstance(move, Hire) and phase == "hire":
        i = state.active()
        deck = hire_deck(state, i)
        if deck is None:
            raise refuse("hire/cannot", "hire")
        return advance(replace(rules.hire_card(state, i, deck, pay=True), phase="collision"))
    if isinstance(move, Pass) and phase == "hire":
        return advance(replace(state, phase="collision"))
    raise refuse("turn/not-now", "turn", kind=type(move).kind)


def reveal(state: VState, move: Reveal) -> VState:
    ask = state.ask
    assert ask is not None
    i = ask.seat
    p = state.players[i]
    if move.owner != p.seat or move.card not in p.deck:
        raise refuse("reveal/not-in-deck", "turn", card=move.card, owner=move.owner)
    state = replace(state, ask=None).with_player(i, deck=without(p.deck, move.card))
    p = state.players[i]
    if ask.purpose == "hand":
        return state.with_player(i, hand=tuple(sorted((*p.hand, move.card))))
    if ask.purpose == "play":
        return played(state, i, move.card)
    return rules.discard_or_destroy(state, i, ask.purpose, move.card)


def legal_moves(state: VState) -> list[Any]:
    who = actor(state)
    if who is None or who == "table":
        return []
    ask = state.ask
    if state.solo is not None and who == solo.AI_SEAT:
        found = solo.ai_move(state)
        return [found] if found is not None else []
    if ask is not None:
        return [Choose(who, o) for o in ask.options]
    phase = state.phase
    i = state.active()
    if phase == "pairs":
        return [PickPair(who, k) for k in range(len(state.pairs))]
    if phase == "play":
        return [Play(who, c) for c in dict.fromkeys(state.players[i].hand)]
    if phase == "move":
        return [Travel(who, t, s) for t, s, _ in travel_options(state, i)]
    if phase == "action":
        return action_moves(state, i)
    if phase == "hire":
        return [*([Hire(who)] if hire_deck(state, i) is not None else []), Pass(who)]
    return []


def sample_chance(state: VState, rng: random.Random) -> Any:
    """What a simulated table reports: the setup lay-out, or a seat's top card."""
    if state.phase == "lay" and state.ask is None:
        return sample_lay(state, rng)
    ask = state.ask
    if ask is not None and ask.asks == "scheme":
        return solo.sample(state, rng)
    if ask is not None and ask.asks == "reveal":
        p = state.players[ask.seat]
        return Reveal(p.seat, p.deck[rng.randrange(len(p.deck))])
    return None
