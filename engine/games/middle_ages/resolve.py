"""Middle Ages moves applied: the tile taken, the estate's effect, income, refills, events.

The steps follow the rulebook's order [L127-184] (see ``play``). They work on a mutable draft
of the next state that is frozen once per move.
"""

from __future__ import annotations

from typing import Any, Literal

from engine.evolve import evolve
from engine.game import Line
from engine.games.middle_ages import supply
from engine.games.middle_ages.components import (
    BARRACKS_PAYMENT,
    EFFECT_REF,
    ESTATES,
    EVENTS,
    INDEX,
    MILL_PAYMENT,
    ROUNDS,
    ROWS,
    Estate,
    Tile,
)
from engine.games.middle_ages.income import count, event_amount, income_line, symbols
from engine.games.middle_ages.moves import (
    DrawOrder,
    LayEvents,
    Move,
    MoveLord,
    PlaceCoin,
    PlaceLord,
    PlaceScout,
    ReturnTile,
    Reveal,
)
from engine.games.middle_ages.play import (
    coin_slots,
    destination_row,
    lords_row,
    scout_targets,
    story_options,
    tile_at,
)
from engine.games.middle_ages.state import Entry, Pending, Player, Pos, State, StoryToken


class _Draft:
    """The next state while one move is applied: mutable here, frozen once at the end.

    A move runs several steps (take the tile, the effect, income, the end of the round, an event
    card), each changing coins, boards and itemised lines. Copying the frozen state at every step
    was most of the engine's cost, so the steps record their changes here (per state field and per
    player) and ``freeze`` builds the one new ``State``. A player record is rebuilt only when a
    step reads it whole. Every move starts a fresh itemised ledger (``last_move``).
    """

    __slots__ = ("changes", "entries", "pending", "players", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.changes: dict[str, Any] = {}
        self.players = list(state.players)
        self.pending: list[dict[str, Any] | None] = [None] * len(self.players)
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

    def _field(self, i: int, name: str) -> Any:
        changed = self.pending[i]
        if changed is not None and name in changed:
            return changed[name]
        return getattr(self.players[i], name)

    def _materialize(self, i: int) -> Player:
        changed = self.pending[i]
        if changed:
            self.players[i] = evolve(self.players[i], **changed)
            self.pending[i] = None
        return self.players[i]

    def player(self, seat: str) -> Player:
        return self._materialize(self._index(seat))

    def current(self) -> list[Player]:
        """Every player as the move has left them so far, in seat order."""
        return [self._materialize(i) for i in range(len(self.players))]

    def update(self, seat: str, **changes: Any) -> None:
        i = self._index(seat)
        changed = self.pending[i]
        if changed is None:
            self.pending[i] = changes
        else:
            changed.update(changes)

    def credit(self, seat: str, line: Line, to_turn: bool = True) -> None:
        """Add ``line``'s amount to ``seat`` and record it in the move's (and turn's) ledger."""
        i = self._index(seat)
        coins = self._field(i, "coins") + line.amount
        if to_turn:
            self.update(seat, coins=coins, last_turn=(*self._field(i, "last_turn"), line))
        else:
            self.update(seat, coins=coins)
        self.entries.append(Entry(seat, line))

    def note(self, seat: str, line: Line, to_turn: bool) -> None:
        """Record a line whose coins already moved (transfers)."""
        if to_turn:
            i = self._index(seat)
            self.update(seat, last_turn=(*self._field(i, "last_turn"), line))
        self.entries.append(Entry(seat, line))

    def pay(self, payer: str, payee: str | None, amount: int) -> int:
        """Move up to ``amount`` coins from ``payer`` (to ``payee``, or the bank when None)."""
        have = self._field(self._index(payer), "coins")
        paid = amount if self.state.options.coin_debt == "negative" else max(0, min(amount, have))
        self.update(payer, coins=have - paid)
        if payee is not None:
            self.update(payee, coins=self._field(self._index(payee), "coins") + paid)
        return paid

    def freeze(self) -> State:
        players = tuple(self.current())
        return evolve(self.state, players=players, last_move=tuple(self.entries), **self.changes)


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
        if all(p.lord is not None for p in d.current()):
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
    occupied = {p.lord.slot for p in d.current() if p.lord is not None and p.lord.row == start}
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
        payers = [o.seat for o in d.current() if o.seat != seat and count(o, "Mill") < mills]
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
    for target in d.current():
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
        for p in d.current():
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
        by_lord = sorted(d.current(), key=lambda p: (p.lord.row, p.lord.slot) if p.lord else (0, 0))
        order = [p.seat for p in by_lord if p.graveyard]
        if order:
            d.set(phase="choice", pending=Pending("reconstruction", order[0], tuple(order[1:])))
    else:
        for p in d.current():
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
