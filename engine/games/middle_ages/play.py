"""Middle Ages turn flow: whose move it is, what is legal, and the state after a move.

The flow follows the rulebook's order exactly [L127-184]: at the start of a round the unclaimed
tile of the Lords' row is discarded; Lords act left to right; a turn is move Lord → take the tile
it left → resolve the estate's effect completely → collect that estate's income; after the last
Lord, the vacated row is refilled (rounds 1-12) and then, at the end of rounds 4, 8, 12 and 16,
the leftmost face-up event card is resolved. Effects that need a player's choice (Village,
Walls, Church, Palace, event E10) pause the flow in the ``choice`` phase.
"""

from __future__ import annotations

from typing import Any, Literal

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
        return state.order[placed] if placed < len(state.order) else None
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


class _Draft:
    """The next state while one move is applied: mutable here, frozen once at the end.

    A move runs several steps (take the tile, the effect, income, the end of the round, an event
    card), each changing coins, boards and itemised lines. Copying the frozen state at every step
    was most of the engine's cost, so the steps work on this draft and ``freeze`` builds the one
    new ``State``. Every move starts a fresh itemised ledger (``last_move``).
    """

    __slots__ = ("changes", "entries", "players", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.changes: dict[str, Any] = {}
        self.players = list(state.players)
        self.entries: list[Entry] = []

    def get(self, name: str) -> Any:
        return self.changes[name] if name in self.changes else getattr(self.state, name)

    def set(self, **changes: Any) -> None:
        self.changes.update(changes)

    def _index(self, seat: str) -> int:
        for i, p in enumerate(self.players):
            if p.seat == seat:
                return i
        raise KeyError(seat)

    def player(self, seat: str) -> Player:
        return self.players[self._index(seat)]

    def update(self, seat: str, **changes: Any) -> None:
        i = self._index(seat)
        self.players[i] = evolve(self.players[i], **changes)

    def credit(self, seat: str, line: Line, to_turn: bool = True) -> None:
        """Add ``line``'s amount to ``seat`` and record it in the move's (and turn's) ledger."""
        p = self.player(seat)
        turn = (*p.last_turn, line) if to_turn else p.last_turn
        self.update(seat, coins=p.coins + line.amount, last_turn=turn)
        self.entries.append(Entry(seat, line))

    def note(self, seat: str, line: Line, to_turn: bool) -> None:
        """Record a line whose coins already moved (transfers)."""
        if to_turn:
            self.update(seat, last_turn=(*self.player(seat).last_turn, line))
        self.entries.append(Entry(seat, line))

    def pay(self, payer: str, payee: str | None, amount: int) -> int:
        """Move up to ``amount`` coins from ``payer`` (to ``payee``, or the bank when None)."""
        have = self.player(payer).coins
        paid = amount if self.state.options.coin_debt == "negative" else max(0, min(amount, have))
        self.update(payer, coins=have - paid)
        if payee is not None:
            self.update(payee, coins=self.player(payee).coins + paid)
        return paid

    def freeze(self) -> State:
        return evolve(
            self.state, players=tuple(self.players), last_move=tuple(self.entries), **self.changes
        )


def apply(state: State, move: Move) -> State:
    """The next state. Unchecked: the caller has run ``check`` (see engine.rules.apply)."""
    d = _Draft(state)
    seat = move.seat
    if isinstance(move, Reveal):
        _apply_reveal(d, move)
    elif isinstance(move, LayEvents):
        d.set(events=move.cards, phase="setup-order")
    elif isinstance(move, DrawOrder):
        d.set(order=move.order, phase="placement")
    elif isinstance(move, PlaceLord):
        d.update(seat, lord=Pos(1, move.slot))
        if all(p.lord is not None for p in d.players):
            _start_round(d, 1)
    elif isinstance(move, MoveLord):
        _apply_lord(d, move)
    elif isinstance(move, ReturnTile):
        _apply_return(d, move)
    elif isinstance(move, PlaceScout):
        d.update(seat, scout=Pos(move.row, move.slot))
        d.set(pending=None)
        _finish_turn(d, seat, "Walls")
    elif isinstance(move, PlaceCoin):
        have = d.player(seat).special_coins
        d.update(seat, special_coins=tuple(e for e in ESTATES if e in have or e == move.estate))
        d.set(pending=None, special_coins_left=state.special_coins_left - 1)
        _finish_turn(d, seat, "Church")
    else:
        tokens = (*d.player(seat).story_tokens, StoryToken(move.symbol, move.estate))
        d.update(seat, story_tokens=tuple(sorted(tokens, key=_token_order)))
        left = list(state.story_tokens_left)
        left.remove(move.symbol)
        d.set(pending=None, story_tokens_left=tuple(left))
        _finish_turn(d, seat, "Palace")
    return d.freeze()


def _token_order(token: StoryToken) -> int:
    return INDEX[token.estate]


def _apply_reveal(d: _Draft, move: Reveal) -> None:
    rows = list(d.get("rows"))
    rows[move.row - 1] = tuple(move.tiles)
    d.set(rows=tuple(rows), **supply.take(d.state, move.tiles))
    if d.state.phase == "setup-rows":
        laid = d.state.rows_laid + 1
        d.set(rows_laid=laid, phase="setup-rows" if laid < ROWS else "setup-events")
    else:
        _after_refill(d)


def _start_round(d: _Draft, round_: int) -> None:
    """Round start: the tile in the Lords' row with no Lord on it goes to the discard pile."""
    start = lords_row(round_)
    occupied = {p.lord.slot for p in d.players if p.lord is not None and p.lord.row == start}
    rows = d.get("rows")
    row = rows[start - 1]
    dropped = tuple(t for s, t in enumerate(row, 1) if t is not None and s not in occupied)
    kept = tuple(t if s in occupied else None for s, t in enumerate(row, 1))
    d.set(
        round=round_,
        phase="turn",
        rows=tuple(kept if r == start else old for r, old in enumerate(rows, 1)),
        acted=(),
        discard=d.get("discard") + dropped,
    )


def _apply_lord(d: _Draft, move: MoveLord) -> None:
    me = d.player(move.seat)
    assert me.lord is not None
    leaving = me.lord
    tile = tile_at(d.state, leaving)
    assert tile is not None
    dest = destination_row(d.state.round)
    lord = leaving if move.slot is None or dest is None else Pos(dest, move.slot)
    scout = me.scout
    if dest is not None and scout is not None and scout.row == dest:
        scout = None  # the owner's Lord entered the reserved row [L257-258]
    board = list(me.board)
    col = INDEX[tile.estate]
    board[col] = (*board[col], tile)
    rows = list(d.state.rows)
    row = list(rows[leaving.row - 1])
    row[leaving.slot - 1] = None
    rows[leaving.row - 1] = tuple(row)
    d.update(move.seat, lord=lord, scout=scout, board=tuple(board), last_turn=())
    d.set(rows=tuple(rows))
    _resolve_effect(d, move.seat, tile)


_CHOICE_OF: dict[str, Literal["village", "walls", "church", "palace"]] = {
    "Village": "village",
    "Walls": "walls",
    "Church": "church",
    "Palace": "palace",
}


def _resolve_effect(d: _Draft, seat: str, tile: Tile) -> None:
    """The estate's special effect, completely, before income [L148-150, L209-210]."""
    estate = tile.estate
    reference = EFFECT_REF[estate]
    me = d.player(seat)
    if estate in ("Field", "Market"):
        kind = "farmers" if estate == "Field" else "chests"
        n = symbols(me, kind)
        d.credit(seat, Line(f"effect:{estate}", n, f"line/effect-{kind}", reference, {"count": n}))
    elif estate == "Mill":
        mills = count(me, "Mill")
        payers = [o.seat for o in d.players if o.seat != seat and count(o, "Mill") < mills]
        for other in payers:
            params: dict[str, object] = {"mine": mills, "theirs": count(d.player(other), "Mill")}
            _transfer(d, other, seat, MILL_PAYMENT, "mill", reference, params)
        if not payers:
            d.credit(seat, Line("effect:Mill", 0, "line/mill-none", reference))
    elif estate == "Barracks":
        _barracks(d, seat)
    else:
        kind = _CHOICE_OF[estate]
        if kind == "village":
            possible = bool(me.graveyard)
        else:
            now = d.freeze()
            options = {"walls": scout_targets, "church": coin_slots, "palace": story_options}
            possible = bool(options[kind](now, seat))
        if possible:
            d.set(phase="choice", pending=Pending(kind, seat))
            return
        d.credit(seat, Line(f"effect:{estate}", 0, f"line/skipped-{kind}", reference))
    _finish_turn(d, seat, estate)


def _transfer(
    d: _Draft, payer: str, payee: str, amount: int, what: str, reference: str,
    params: dict[str, object],
) -> None:  # fmt: skip
    paid = d.pay(payer, payee, amount)
    gain = Line(f"effect:{what}", paid, f"line/{what}-gain", reference,
                {"from": payer, "owed": amount, **params})  # fmt: skip
    loss = Line(f"effect:{what}", -paid, f"line/{what}-loss", reference,
                {"to": payee, "owed": amount, **params})  # fmt: skip
    d.note(payee, gain, to_turn=True)
    d.note(payer, loss, to_turn=False)


def _barracks(d: _Draft, seat: str) -> None:
    """Attack every player whose Walls are fewer than the attacker's Barracks [L265-270]."""
    barracks = count(d.player(seat), "Barracks")
    reference = EFFECT_REF["Barracks"]
    attacked = False
    for target in list(d.players):
        if target.seat == seat or count(target, "Walls") >= barracks:
            continue
        attacked = True
        column = next((i for i, c in enumerate(target.board) if c), None)
        lost = None
        if column is not None:
            lost = target.board[column][-1]
            board = list(target.board)
            board[column] = board[column][:-1]
            d.update(target.seat, board=tuple(board), graveyard=(*target.graveyard, lost))
        if lost is None and not d.state.options.barracks_empty_target_pays:
            continue
        params: dict[str, object] = {
            "walls": count(target, "Walls"),
            "barracks": barracks,
            "tile": lost.estate if lost else "",
        }
        _transfer(d, target.seat, seat, BARRACKS_PAYMENT, "barracks", reference, params)
    if not attacked:
        d.credit(seat, Line("effect:Barracks", 0, "line/barracks-none", reference))


def _finish_turn(d: _Draft, seat: str, estate: Estate) -> None:
    """Collect the estate's income, then hand over to the next Lord or end the round."""
    d.credit(seat, income_line(d.player(seat), estate))
    acted = (*d.get("acted"), seat)
    d.set(acted=acted, phase="turn", pending=None)
    if len(acted) < len(d.players):
        return
    if d.get("round") <= 12:
        d.set(phase="refill")
    else:
        _after_refill(d)


def _after_refill(d: _Draft) -> None:
    if d.get("round") % ROWS == 0:
        _resolve_event(d)
        if d.get("phase") == "choice":
            return
    _next_round(d)


def _next_round(d: _Draft) -> None:
    round_ = d.get("round")
    if round_ >= ROUNDS:
        d.set(phase="over", pending=None)
    else:
        _start_round(d, round_ + 1)


def _resolve_event(d: _Draft) -> None:
    """The leftmost face-up event card, for every player [L181-184]; then it is turned over."""
    done = d.get("events_done")
    number = d.get("events")[done]
    card = EVENTS[number]
    d.set(events_done=done + 1, phase="turn")
    if card.effect == "discard":
        for p in list(d.players):
            board = list(p.board)
            lost = []
            for estate in card.estates:
                column = board[INDEX[estate]]
                if column:
                    lost.append(column[-1])
                    board[INDEX[estate]] = column[:-1]
            if lost:
                d.update(p.seat, board=tuple(board), graveyard=(*p.graveyard, *lost))
                line = Line(f"event:E{number}", 0, "line/event-discard", card.ref,
                            {"card": number, "tiles": [t.estate for t in lost]})  # fmt: skip
                d.note(p.seat, line, to_turn=False)
    elif card.effect == "reconstruction":
        by_lord = sorted(d.players, key=lambda p: (p.lord.row, p.lord.slot) if p.lord else (0, 0))
        order = [p.seat for p in by_lord if p.graveyard]
        if order:
            d.set(phase="choice", pending=Pending("reconstruction", order[0], tuple(order[1:])))
    else:
        for p in list(d.players):
            amount = event_amount(p, card)
            params = {"card": number}
            if amount >= 0:
                line = Line(f"event:E{number}", amount, "line/event", card.ref, params)
                d.credit(p.seat, line, to_turn=False)
            else:
                paid = d.pay(p.seat, None, -amount)
                line = Line(f"event:E{number}", -paid, "line/event-cost", card.ref,
                            {**params, "owed": -amount})  # fmt: skip
                d.note(p.seat, line, to_turn=False)


def _apply_return(d: _Draft, move: ReturnTile) -> None:
    pending = d.state.pending
    assert pending is not None
    me = d.player(move.seat)
    if move.tile is not None:
        grave = list(me.graveyard)
        grave.remove(move.tile)
        board = list(me.board)
        col = INDEX[move.tile.estate]
        board[col] = (*board[col], move.tile)
        d.update(move.seat, board=tuple(board), graveyard=tuple(grave))
    if pending.kind == "village":
        d.set(pending=None)
        _finish_turn(d, move.seat, "Village")
    elif pending.queue:
        d.set(pending=Pending("reconstruction", pending.queue[0], pending.queue[1:]))
    else:
        d.set(pending=None, phase="turn")
        _next_round(d)
