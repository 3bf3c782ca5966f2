"""Middle Ages legality: every rule a move breaks, each with its code and rulebook reference.

The generic gates (game over, whose turn) run first in ``engine.rules``; these checks then look
at the move itself. They list every violation rather than stopping at the first.
"""

from __future__ import annotations

from engine.games.middle_ages import supply
from engine.games.middle_ages.components import (
    EFFECT_REF,
    EVENT_CARDS,
    EVENTS,
    EVENTS_LAID,
    GAME_KEY,
    PRINTED,
    Tile,
    ref,
)
from engine.games.middle_ages.moves import (
    DrawOrder,
    LayEvents,
    Move,
    MoveLord,
    PlaceCoin,
    PlaceLord,
    PlaceScout,
    PlaceStory,
    ReturnTile,
    Reveal,
)
from engine.games.middle_ages.play import (
    destination_row,
    lord_at,
    lords_row,
    scout_at,
    scout_targets,
    tile_at,
)
from engine.games.middle_ages.state import Pos, State
from engine.violations import Violation

REF_ROWS = ref("§3 setup", "L98-107")
REF_SORT = ref("§3 setup step 4", "L102-103, L161-162")
REF_EVENTS = ref("§3 setup step 6", "L109-111")
REF_ORDER = ref("§3 setup step 8", "L116-124")
REF_LORD = ref("§4 turn step 1", "L136-138")
REF_OCCUPIED = ref("§4 turn step 1", "L124, L136")
REF_RESERVED = ref("§5 Walls", "L230-231, L425-428")
REF_REFILL = ref("§4 end of round", "L160-165")
REF_GRAVEYARD = ref("§7 graveyard", "L284-291")


def _v(code: str, reference: str, **params: object) -> Violation:
    return Violation(code, reference, dict(params), GAME_KEY)


def check(state: State, move: Move) -> list[Violation]:
    """Every rule ``move`` breaks. The core's flow gate (``engine.flow``, declared in
    ``flow.FLOW``) already refused a move the current step does not take or a seat not to act."""
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
