"""What each legal option gives its seat: the tile it names and the coins and income it brings.

The phone shows "Mill · 1 Farmer: +3 income a round" beside "Lord to slot 2" (issue 15, point
3). Everything is computed by the engine's own code: the coins of the move are the itemised lines
``resolve`` logs for it, the income change is ``income_line``
summed over the estates before and after (§5 income [L152-156, L233-332]).
"""

from __future__ import annotations

from typing import Any

from engine.evolve import evolve
from engine.games.middle_ages.components import ESTATES, GAME_KEY, Tile, ref
from engine.games.middle_ages.income import income_line
from engine.games.middle_ages.moves import (
    Move,
    MoveLord,
    PlaceCoin,
    PlaceLord,
    PlaceScout,
    PlaceStory,
    ReturnTile,
)
from engine.games.middle_ages.play import destination_row, tile_at
from engine.games.middle_ages.resolve import apply
from engine.games.middle_ages.state import Player, Pos, State, StoryToken
from engine.games.middle_ages.views import estate_name, line_json
from engine.i18n import DEFAULT_LANG, message
from engine.preview import amount_line

INCOME_REF = ref("§5 income", "L152-156, L233-332")


def _t(code: str, lang: str, **params: Any) -> str:
    return message(f"{GAME_KEY}:preview/{code}", lang, **params)


def tile_text(tile: Tile, lang: str = DEFAULT_LANG) -> str:
    """A tile as printed: its estate and its Farmer and Chest symbols."""
    parts = [estate_name(tile.estate, lang)]
    if tile.farmers:
        parts.append(_t("farmers", lang, count=tile.farmers))
    if tile.chests:
        parts.append(_t("chests", lang, count=tile.chests))
    return " · ".join(parts)


def income_total(player: Player) -> int:
    """What the seat's estates pay a round now (§5)."""
    return sum(income_line(player, e).amount for e in ESTATES)


def _with_tile(player: Player, tile: Tile) -> Player:
    i = ESTATES.index(tile.estate)
    board = tuple((*col, tile) if j == i else col for j, col in enumerate(player.board))
    return evolve(player, board=board)


def _income_change(before: Player, after: Player, lang: str) -> list[dict[str, Any]]:
    change = income_total(after) - income_total(before)
    if not change:
        return []
    return [amount_line(change, _t("income", lang), INCOME_REF)]


def preview(state: State, move: Move, seat: str, lang: str = DEFAULT_LANG) -> dict[str, Any] | None:
    """What ``move`` gives ``seat``: the tile it names and the coins and income it brings."""
    player = state.player(seat)
    if isinstance(move, PlaceLord):
        tile = tile_at(state, Pos(1, move.slot))
        if tile is None:
            return None
        # §3 setup: the Lord takes this tile when it moves on in round 1
        return {"text": _t("lord-on", lang, tile=tile_text(tile, lang)),
                "lines": _income_change(player, _with_tile(player, tile), lang)}  # fmt: skip
    if isinstance(move, MoveLord):
        taken = player.lord and tile_at(state, player.lord)
        lines = _game_lines(state, move, seat, lang)
        if taken:
            lines += _income_change(player, _with_tile(player, taken), lang)
        parts = [_t("take", lang, tile=tile_text(taken, lang))] if taken else []
        dest = destination_row(state.round)
        if move.slot is not None and dest is not None:
            nxt = tile_at(state, Pos(dest, move.slot))
            if nxt is not None:
                parts.append(_t("next", lang, tile=tile_text(nxt, lang)))
        return {"text": "; ".join(parts), "lines": lines}
    if isinstance(move, ReturnTile):
        if move.tile is None:
            return {"text": _t("decline", lang)}
        return {"text": tile_text(move.tile, lang),
                "lines": _income_change(player, _with_tile(player, move.tile), lang)}  # fmt: skip
    if isinstance(move, PlaceScout):
        tile = tile_at(state, Pos(move.row, move.slot))
        return {"text": _t("reserve", lang, tile=tile_text(tile, lang))} if tile else None
    if isinstance(move, PlaceCoin):
        after = evolve(player, special_coins=(*player.special_coins, move.estate))
        return {"lines": _income_change(player, after, lang)}
    if isinstance(move, PlaceStory):
        token = StoryToken(move.symbol, move.estate)
        after = evolve(player, story_tokens=(*player.story_tokens, token))
        return {"lines": _income_change(player, after, lang)}
    return None


def _game_lines(state: State, move: Move, seat: str, lang: str) -> list[dict[str, Any]]:
    """The coins the move's effects and income bring ``seat``: the lines ``resolve`` logs."""
    after = apply(state, move)
    return [line_json(e.line, lang) for e in after.last_move if e.seat == seat and e.line.amount]
