"""Middle Ages turn flow: whose move it is, what is legal, and the state after a move.

The flow follows the rulebook's order exactly [L127-184]: at the start of a round the unclaimed
tile of the Lords' row is discarded; Lords act left to right; a turn is move Lord → take the tile
it left → resolve the estate's effect completely → collect that estate's income; after the last
Lord, the vacated row is refilled (rounds 1-12) and then, at the end of rounds 4, 8, 12 and 16,
the leftmost face-up event card is resolved. Effects that need a player's choice (Village,
Walls, Church, Palace, event E10) pause the flow in the ``choice`` phase.
"""

from __future__ import annotations

from engine.evolve import evolve
from engine.game import TABLE, Line
from engine.games.middle_ages import supply
from engine.games.middle_ages.components import (
    BARRACKS_PAYMENT,
    EFFECT_REF,
    ESTATES,
    EVENT_CARDS,
    EVENTS,
    EVENTS_LAID,
    INDEX,
    MILL_PAYMENT,
    PRINTED,
    ROUNDS,
    ROWS,
    Estate,
    Tile,
    ref,
)
from engine.games.middle_ages.income import count, event_amount, income_line, symbols
from engine.games.middle_ages.state import (
    DrawOrder,
    Entry,
    LayEvents,
    Move,
    MoveLord,
    Pending,
    PlaceCoin,
    PlaceLord,
    PlaceScout,
    PlaceStory,
    Player,
    Pos,
    ReturnTile,
    Reveal,
    State,
    StoryToken,
)
from engine.violations import Violation

GAME_KEY = "middle-ages"

REF_ROWS = ref("§3 setup", "L98-107")
REF_SORT = ref("§3 setup step 4", "L102-103, L161-162")
REF_EVENTS = ref("§3 setup step 6", "L109-111")
REF_ORDER = ref("§3 setup step 8", "L116-124")
REF_LORD = ref("§4 turn step 1", "L136-138")
REF_OCCUPIED = ref("§4 turn step 1", "L124, L136")
REF_RESERVED = ref("§5 Walls", "L230-231, L425-428")
REF_REFILL = ref("§4 end of round", "L160-165")
REF_GRAVEYARD = ref("§7 graveyard", "L284-291")
PENDING_ESTATE: dict[str, Estate] = {
    "village": "Village",
    "walls": "Walls",
    "church": "Church",
    "palace": "Palace",
}


def _v(code: str, reference: str, **params: object) -> Violation:
    return Violation(code, reference, dict(params), GAME_KEY)


# --- where are we -----------------------------------------------------------------------------


def lords_row(round_: int) -> int:
    """The row the Lords start round ``round_`` in (digest §4 row cycle)."""
    return (round_ - 1) % ROWS + 1


def destination_row(round_: int) -> int | None:
    """Where Lords move in ``round_``: next row down, the top row after R4, none in round 16."""
    if round_ == ROUNDS:
        return None
    return 1 if round_ % ROWS == 0 else lords_row(round_) + 1


def actor(state: State) -> str | None:
    """The seat the game waits for, TABLE for an observation, None when the game is over."""
    phase = state.phase
    if phase == "turn":
        start = lords_row(state.round)
        best: tuple[int, str] | None = None
        for p in state.players:
            if p.lord is not None and p.lord.row == start and p.seat not in state.acted:
                key = (p.lord.slot, p.seat)
                if best is None or key < best:
                    best = key
        return best[1] if best else None
    if phase == "choice":
        return state.pending.seat if state.pending else None
    if phase == "placement":
        placed = sum(1 for p in state.players if p.lord is not None)
        return state.order[placed]
    if phase == "over":
        return None
    return TABLE


def lord_at(state: State, pos: Pos) -> str | None:
    for p in state.players:
        if p.lord == pos:
            return p.seat
    return None


def scout_at(state: State, pos: Pos) -> str | None:
    for p in state.players:
        if p.scout == pos:
            return p.seat
    return None


def tile_at(state: State, pos: Pos) -> Tile | None:
    if not 1 <= pos.row <= ROWS:
        return None
    row = state.rows[pos.row - 1]
    if not 1 <= pos.slot <= len(row):
        return None
    return row[pos.slot - 1]


def scout_targets(state: State, seat: str) -> list[Pos]:
    """Face-up tiles the Walls effect may reserve: any row but the seat's Lord's row, on a tile
    no Lord stands on and no other Scout reserves (digest §12.8 decisions)."""
    me = state.player(seat)
    lord_row = me.lord.row if me.lord else 0
    taken = {p.lord for p in state.players} | {p.scout for p in state.players if p.seat != seat}
    out = []
    for r, row in enumerate(state.rows, start=1):
        if r == lord_row:
            continue
        for s, tile in enumerate(row, start=1):
            if tile is not None and Pos(r, s) not in taken:
                out.append(Pos(r, s))
    return out


def coin_slots(state: State, seat: str) -> list[Estate]:
    if state.special_coins_left <= 0:
        return []
    have = state.player(seat).special_coins
    return [e for e in ESTATES if e not in have]


def story_options(state: State, seat: str) -> list[tuple[Estate, Estate]]:
    """(symbol, estate) pairs open to the Palace effect [L303-310, L318-322]."""
    used = {t.estate for t in state.player(seat).story_tokens}
    return [
        (symbol, estate)
        for symbol in state.story_tokens_left
        for estate in ESTATES
        if estate not in used and symbol not in PRINTED[estate]
    ]


# --- legal moves ------------------------------------------------------------------------------


def legal_moves(state: State) -> list[Move]:
    """Every legal non-chance move (chance moves are observations; see ``supply.sample_row``)."""
    seat = actor(state)
    if seat is None or seat == TABLE:
        return []
    if state.phase == "placement":
        return [
            PlaceLord(seat, s)
            for s, tile in enumerate(state.rows[0], start=1)
            if tile is not None and lord_at(state, Pos(1, s)) is None
        ]
    if state.phase == "turn":
        dest = destination_row(state.round)
        if dest is None:
            return [MoveLord(seat, None)]
        out: list[Move] = []
        for s, tile in enumerate(state.rows[dest - 1], start=1):
            pos = Pos(dest, s)
            if tile is None or lord_at(state, pos) is not None:
                continue
            owner = scout_at(state, pos)
            if owner is not None and owner != seat:
                continue
            out.append(MoveLord(seat, s))
        return out
    pending = state.pending
    assert pending is not None
    if pending.kind in ("village", "reconstruction"):
        grave = state.player(seat).graveyard
        moves: list[Move] = [ReturnTile(seat, t) for t in dict.fromkeys(grave)]
        if state.options.village_optional:
            moves.append(ReturnTile(seat, None))
        return moves
    if pending.kind == "walls":
        return [PlaceScout(seat, p.row, p.slot) for p in scout_targets(state, seat)]
    if pending.kind == "church":
        return [PlaceCoin(seat, e) for e in coin_slots(state, seat)]
    return [PlaceStory(seat, sym, e) for sym, e in story_options(state, seat)]


# --- checks -----------------------------------------------------------------------------------

_PHASE_OF: dict[str, tuple[str, ...]] = {
    "reveal": ("setup-rows", "refill"),
    "events": ("setup-events",),
    "order": ("setup-order",),
    "place": ("placement",),
    "lord": ("turn",),
    "return": ("choice",),
    "scout": ("choice",),
    "coin": ("choice",),
    "story": ("choice",),
}
_PENDING_OF = {
    "return": ("village", "reconstruction"),
    "scout": ("walls",),
    "coin": ("church",),
    "story": ("palace",),
}


def check(state: State, move: Move) -> list[Violation]:
    """Every rule ``move`` breaks (the generic game-over and turn gates already passed)."""
    kind = type(move).kind
    if state.phase not in _PHASE_OF[kind] or (
        kind in _PENDING_OF
        and (state.pending is None or state.pending.kind not in _PENDING_OF[kind])
    ):
        expected = state.pending.kind if state.pending else state.phase
        return [_v("phase/unexpected-move", REF_LORD, move=kind, expected=expected)]
    if isinstance(move, Reveal):
        return _check_reveal(state, move)
    if isinstance(move, LayEvents):
        return _check_events(move)
    if isinstance(move, DrawOrder):
        if sorted(move.order) != sorted(state.seats):
            return [_v("order/not-a-permutation", REF_ORDER, seats=", ".join(state.seats))]
        return []
    if isinstance(move, PlaceLord):
        return _check_target(state, move.seat, Pos(1, move.slot), REF_ORDER)
    if isinstance(move, MoveLord):
        return _check_lord(state, move)
    if isinstance(move, ReturnTile):
        return _check_return(state, move)
    if isinstance(move, PlaceScout):
        return _check_scout(state, move)
    if isinstance(move, PlaceCoin):
        if move.estate in state.player(move.seat).special_coins:
            return [_v("church/slot-taken", EFFECT_REF["Church"], estate=move.estate)]
        return []
    return _check_story(state, move)


def _check_reveal(state: State, move: Reveal) -> list[Violation]:
    expected = state.rows_laid + 1 if state.phase == "setup-rows" else lords_row(state.round)
    out = []
    if move.row != expected:
        out.append(_v("reveal/wrong-row", REF_REFILL, row=move.row, expected=expected))
    if len(move.tiles) != state.row_length:
        out.append(
            _v("reveal/row-size", REF_ROWS, count=len(move.tiles), expected=state.row_length)
        )
    numbers = [t.number for t in move.tiles]
    if numbers != sorted(numbers):
        out.append(_v("reveal/unsorted", REF_SORT, numbers=", ".join(map(str, numbers))))
    if not out:
        out.extend(supply.check_reveal(state, move.tiles))
    return out


def _check_events(move: LayEvents) -> list[Violation]:
    out = []
    if len(move.cards) != EVENTS_LAID:
        out.append(_v("events/count", REF_EVENTS, count=len(move.cards), expected=EVENTS_LAID))
    if len(set(move.cards)) != len(move.cards):
        out.append(_v("events/duplicate", REF_EVENTS))
    for card in move.cards:
        if card not in EVENTS:
            out.append(_v("events/unknown-card", REF_EVENTS, card=card, last=EVENT_CARDS))
    return out


def _check_target(state: State, seat: str, pos: Pos, reference: str) -> list[Violation]:
    """A Lord may stand only on a present tile with no Lord on it, and not on another's Scout."""
    if tile_at(state, pos) is None:
        if not 1 <= pos.slot <= state.row_length:
            return [_v("lord/no-such-slot", reference, slot=pos.slot, last=state.row_length)]
        return [_v("lord/empty-slot", reference, row=pos.row, slot=pos.slot)]
    out = []
    other = lord_at(state, pos)
    if other is not None:
        out.append(_v("lord/occupied-tile", REF_OCCUPIED, row=pos.row, slot=pos.slot, by=other))
    owner = scout_at(state, pos)
    if owner is not None and owner != seat:
        out.append(_v("lord/reserved-tile", REF_RESERVED, row=pos.row, slot=pos.slot, by=owner))
    return out


def _check_lord(state: State, move: MoveLord) -> list[Violation]:
    dest = destination_row(state.round)
    if dest is None:
        if move.slot is not None:
            return [_v("lord/no-move-in-round-16", REF_LORD)]
        return []
    if move.slot is None:
        return [_v("lord/must-move", REF_LORD, row=dest)]
    return _check_target(state, move.seat, Pos(dest, move.slot), REF_LORD)


def _check_return(state: State, move: ReturnTile) -> list[Violation]:
    if move.tile is None:
        if not state.options.village_optional:
            return [_v("village/must-return", EFFECT_REF["Village"])]
        return []
    if move.tile not in state.player(move.seat).graveyard:
        return [_v("village/not-in-graveyard", REF_GRAVEYARD, tile=_tile_name(move.tile))]
    return []


def _check_scout(state: State, move: PlaceScout) -> list[Violation]:
    pos = Pos(move.row, move.slot)
    if pos in scout_targets(state, move.seat):
        return []
    me = state.player(move.seat)
    reference = EFFECT_REF["Walls"]
    if tile_at(state, pos) is None:
        return [_v("scout/no-tile", reference, row=move.row, slot=move.slot)]
    if me.lord is not None and me.lord.row == move.row:
        return [_v("scout/own-lord-row", reference, row=move.row)]
    if lord_at(state, pos) is not None:
        return [_v("scout/lord-on-tile", reference, row=move.row, slot=move.slot)]
    return [_v("scout/already-reserved", reference, row=move.row, slot=move.slot)]


def _check_story(state: State, move: PlaceStory) -> list[Violation]:
    out = []
    reference = EFFECT_REF["Palace"]
    if move.symbol not in state.story_tokens_left:
        out.append(_v("palace/token-gone", reference, symbol=move.symbol))
    if move.symbol in PRINTED[move.estate]:
        out.append(
            _v("palace/printed-symbol", ref("§5 Palace", "L303-308, L318-322"),
               symbol=move.symbol, estate=move.estate)
        )  # fmt: skip
    if any(t.estate == move.estate for t in state.player(move.seat).story_tokens):
        out.append(_v("palace/slot-taken", reference, estate=move.estate))
    return out


def _tile_name(tile: Tile) -> str:
    return f"{tile.estate} ({tile.back} {tile.number})"


# --- apply ------------------------------------------------------------------------------------


def apply(state: State, move: Move) -> State:
    """The next state. Unchecked: the caller has run ``check`` (see engine.rules.apply)."""
    if isinstance(move, Reveal):
        return _apply_reveal(state, move)
    if isinstance(move, LayEvents):
        return evolve(state, events=move.cards, phase="setup-order", last_move=())
    if isinstance(move, DrawOrder):
        return evolve(state, order=move.order, phase="placement", last_move=())
    if isinstance(move, PlaceLord):
        players = _with(state, move.seat, lord=Pos(1, move.slot))
        state = evolve(state, players=players, last_move=())
        if all(p.lord is not None for p in players):
            return _start_round(state, 1)
        return state
    if isinstance(move, MoveLord):
        return _apply_lord(state, move)
    # A choice move starts its own itemised ledger: the move before it may have paid lines (the
    # last turn of round 16 before event E10's choices), and those are not this move's coins.
    state = evolve(state, last_move=())
    if isinstance(move, ReturnTile):
        return _apply_return(state, move)
    if isinstance(move, PlaceScout):
        players = _with(state, move.seat, scout=Pos(move.row, move.slot))
        return _finish_turn(evolve(state, players=players, pending=None), move.seat, "Walls")
    if isinstance(move, PlaceCoin):
        me = state.player(move.seat)
        coins = tuple(e for e in ESTATES if e in me.special_coins or e == move.estate)
        players = _with(state, move.seat, special_coins=coins)
        state = evolve(
            state, players=players, pending=None, special_coins_left=state.special_coins_left - 1
        )
        return _finish_turn(state, move.seat, "Church")
    assert isinstance(move, PlaceStory)
    me = state.player(move.seat)
    tokens = tuple(
        sorted((*me.story_tokens, StoryToken(move.symbol, move.estate)), key=_token_order)
    )
    left = list(state.story_tokens_left)
    left.remove(move.symbol)
    state = evolve(
        state,
        players=_with(state, move.seat, story_tokens=tokens),
        pending=None,
        story_tokens_left=tuple(left),
    )
    return _finish_turn(state, move.seat, "Palace")


def _token_order(token: StoryToken) -> int:
    return INDEX[token.estate]


def _with(state: State, seat: str, **changes: object) -> tuple[Player, ...]:
    return tuple(evolve(p, **changes) if p.seat == seat else p for p in state.players)


def _apply_reveal(state: State, move: Reveal) -> State:
    rows = list(state.rows)
    rows[move.row - 1] = tuple(move.tiles)
    state = evolve(state, rows=tuple(rows), last_move=(), **supply.take(state, move.tiles))
    if state.phase == "setup-rows":
        laid = state.rows_laid + 1
        return evolve(state, rows_laid=laid, phase="setup-rows" if laid < ROWS else "setup-events")
    return _after_refill(state)


def _start_round(state: State, round_: int) -> State:
    """Round start: the tile in the Lords' row with no Lord on it goes to the discard pile."""
    start = lords_row(round_)
    occupied = {p.lord.slot for p in state.players if p.lord is not None and p.lord.row == start}
    row = state.rows[start - 1]
    dropped = tuple(t for s, t in enumerate(row, 1) if t is not None and s not in occupied)
    kept = tuple(t if s in occupied else None for s, t in enumerate(row, 1))
    rows = tuple(kept if r == start else old for r, old in enumerate(state.rows, 1))
    return evolve(
        state,
        round=round_,
        phase="turn",
        rows=rows,
        acted=(),
        discard=state.discard + dropped,
    )


def _apply_lord(state: State, move: MoveLord) -> State:
    me = state.player(move.seat)
    assert me.lord is not None
    leaving = me.lord
    tile = tile_at(state, leaving)
    assert tile is not None
    dest = destination_row(state.round)
    lord = leaving if move.slot is None or dest is None else Pos(dest, move.slot)
    scout = me.scout
    if dest is not None and scout is not None and scout.row == dest:
        scout = None  # the owner's Lord entered the reserved row [L257-258]
    board = list(me.board)
    col = INDEX[tile.estate]
    board[col] = (*board[col], tile)
    rows = list(state.rows)
    row = list(rows[leaving.row - 1])
    row[leaving.slot - 1] = None
    rows[leaving.row - 1] = tuple(row)
    players = _with(state, move.seat, lord=lord, scout=scout, board=tuple(board), last_turn=())
    state = evolve(state, players=players, rows=tuple(rows), last_move=())
    return _resolve_effect(state, move.seat, tile)


def _pay(state: State, payer: str, payee: str | None, amount: int) -> tuple[State, int]:
    """Move up to ``amount`` coins from ``payer`` (to ``payee``, or the bank when None)."""
    have = state.player(payer).coins
    paid = amount if state.options.coin_debt == "negative" else max(0, min(amount, have))
    players = tuple(
        evolve(p, coins=p.coins - paid)
        if p.seat == payer
        else evolve(p, coins=p.coins + paid)
        if p.seat == payee
        else p
        for p in state.players
    )
    return evolve(state, players=players), paid


def _credit(state: State, seat: str, line: Line, to_turn: bool = True) -> State:
    """Add ``line``'s amount to ``seat`` and record it in the move's (and turn's) ledger."""
    players = tuple(
        evolve(
            p,
            coins=p.coins + line.amount,
            last_turn=(*p.last_turn, line) if to_turn else p.last_turn,
        )
        if p.seat == seat
        else p
        for p in state.players
    )
    return evolve(state, players=players, last_move=(*state.last_move, Entry(seat, line)))


def _note(state: State, seat: str, line: Line, to_turn: bool) -> State:
    """Record a line whose coins already moved (transfers)."""
    players = tuple(
        evolve(p, last_turn=(*p.last_turn, line)) if p.seat == seat and to_turn else p
        for p in state.players
    )
    return evolve(state, players=players, last_move=(*state.last_move, Entry(seat, line)))


def _resolve_effect(state: State, seat: str, tile: Tile) -> State:
    """The estate's special effect, completely, before income [L148-150, L209-210]."""
    estate = tile.estate
    reference = EFFECT_REF[estate]
    me = state.player(seat)
    if estate in ("Field", "Market"):
        kind = "farmers" if estate == "Field" else "chests"
        n = symbols(me, kind)
        line = Line(f"effect:{estate}", n, f"line/effect-{kind}", reference, {"count": n})
        return _finish_turn(_credit(state, seat, line), seat, estate)
    if estate == "Mill":
        mills = count(me, "Mill")
        payers = [o.seat for o in state.players if o.seat != seat and count(o, "Mill") < mills]
        for other in payers:
            theirs = count(state.player(other), "Mill")
            params: dict[str, object] = {"mine": mills, "theirs": theirs}
            state = _transfer(state, other, seat, MILL_PAYMENT, "mill", reference, params)
        if not payers:
            state = _credit(state, seat, Line("effect:Mill", 0, "line/mill-none", reference))
        return _finish_turn(state, seat, estate)
    if estate == "Barracks":
        return _finish_turn(_barracks(state, seat), seat, estate)
    pending_kind = {
        "Village": "village",
        "Walls": "walls",
        "Church": "church",
        "Palace": "palace",
    }[estate]
    possible = {
        "village": lambda: bool(me.graveyard),
        "walls": lambda: bool(scout_targets(state, seat)),
        "church": lambda: bool(coin_slots(state, seat)),
        "palace": lambda: bool(story_options(state, seat)),
    }[pending_kind]()
    if not possible:
        line = Line(f"effect:{estate}", 0, f"line/skipped-{pending_kind}", reference)
        return _finish_turn(_credit(state, seat, line), seat, estate)
    return evolve(state, phase="choice", pending=Pending(pending_kind, seat))  # type: ignore[arg-type]


def _transfer(
    state: State, payer: str, payee: str, amount: int, what: str, reference: str,
    params: dict[str, object],
) -> State:  # fmt: skip
    state, paid = _pay(state, payer, payee, amount)
    gain = Line(f"effect:{what}", paid, f"line/{what}-gain", reference,
                {"from": payer, "owed": amount, **params})  # fmt: skip
    loss = Line(f"effect:{what}", -paid, f"line/{what}-loss", reference,
                {"to": payee, "owed": amount, **params})  # fmt: skip
    state = _note(state, payee, gain, to_turn=True)
    return _note(state, payer, loss, to_turn=False)


def _barracks(state: State, seat: str) -> State:
    """Attack every player whose Walls are fewer than the attacker's Barracks [L265-270]."""
    me = state.player(seat)
    barracks = count(me, "Barracks")
    reference = EFFECT_REF["Barracks"]
    attacked = False
    for target in state.players:
        if target.seat == seat or count(target, "Walls") >= barracks:
            continue
        column = next((i for i, c in enumerate(target.board) if c), None)
        lost = None
        if column is not None:
            lost = target.board[column][-1]
            board = list(target.board)
            board[column] = board[column][:-1]
            state = evolve(
                state,
                players=_with(
                    state, target.seat, board=tuple(board), graveyard=(*target.graveyard, lost)
                ),
            )
        attacked = True
        if lost is None and not state.options.barracks_empty_target_pays:
            continue
        state = _transfer(
            state, target.seat, seat, BARRACKS_PAYMENT, "barracks", reference,
            {"walls": count(target, "Walls"), "barracks": barracks,
             "tile": lost.estate if lost else ""},
        )  # fmt: skip
    if not attacked:
        state = _credit(state, seat, Line("effect:Barracks", 0, "line/barracks-none", reference))
    return state


def _finish_turn(state: State, seat: str, estate: Estate) -> State:
    """Collect the estate's income, then hand over to the next Lord or end the round."""
    state = _credit(state, seat, income_line(state.player(seat), estate))
    acted = (*state.acted, seat)
    state = evolve(state, acted=acted, phase="turn", pending=None)
    if len(acted) < len(state.players):
        return state
    if state.round <= 12:
        return evolve(state, phase="refill")
    return _after_refill(state)


def _after_refill(state: State) -> State:
    if state.round % ROWS == 0:
        state = _resolve_event(state)
        if state.phase == "choice":
            return state
    return _next_round(state)


def _next_round(state: State) -> State:
    if state.round >= ROUNDS:
        return evolve(state, phase="over", pending=None)
    return _start_round(state, state.round + 1)


def _resolve_event(state: State) -> State:
    """The leftmost face-up event card, for every player [L181-184]; then it is turned over."""
    number = state.events[state.events_done]
    card = EVENTS[number]
    state = evolve(state, events_done=state.events_done + 1, phase="turn")
    if card.effect == "discard":
        for p in state.players:
            board = list(p.board)
            lost = []
            for estate in card.estates:
                column = board[INDEX[estate]]
                if column:
                    lost.append(column[-1])
                    board[INDEX[estate]] = column[:-1]
            if lost:
                state = evolve(
                    state,
                    players=_with(state, p.seat, board=tuple(board),
                                  graveyard=(*p.graveyard, *lost)),
                )  # fmt: skip
                line = Line(f"event:E{number}", 0, "line/event-discard", card.ref,
                            {"card": number, "tiles": [t.estate for t in lost]})  # fmt: skip
                state = _note(state, p.seat, line, to_turn=False)
        return state
    if card.effect == "reconstruction":
        order = [
            p.seat
            for p in sorted(
                state.players, key=lambda p: (p.lord.row, p.lord.slot) if p.lord else (0, 0)
            )
            if p.graveyard
        ]
        if order:
            return evolve(
                state, phase="choice", pending=Pending("reconstruction", order[0], tuple(order[1:]))
            )
        return state
    for p in state.players:
        amount = event_amount(p, card)
        params = {"card": number}
        if amount >= 0:
            state = _credit(
                state, p.seat, Line(f"event:E{number}", amount, "line/event", card.ref, params),
                to_turn=False,
            )  # fmt: skip
        else:
            state, paid = _pay(state, p.seat, None, -amount)
            line = Line(f"event:E{number}", -paid, "line/event-cost", card.ref,
                        {**params, "owed": -amount})  # fmt: skip
            state = _note(state, p.seat, line, to_turn=False)
    return state


def _apply_return(state: State, move: ReturnTile) -> State:
    pending = state.pending
    assert pending is not None
    me = state.player(move.seat)
    if move.tile is not None:
        grave = list(me.graveyard)
        grave.remove(move.tile)
        board = list(me.board)
        col = INDEX[move.tile.estate]
        board[col] = (*board[col], move.tile)
        state = evolve(
            state, players=_with(state, move.seat, board=tuple(board), graveyard=tuple(grave))
        )
    if pending.kind == "village":
        return _finish_turn(evolve(state, pending=None), move.seat, "Village")
    if pending.queue:
        nxt = Pending("reconstruction", pending.queue[0], pending.queue[1:])
        return evolve(state, pending=nxt)
    return _next_round(evolve(state, pending=None, phase="turn"))
