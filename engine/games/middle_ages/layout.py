"""Middle Ages on the camera's board profile: where each tile, pawn and token lies.

Row tiles lie face up in their ``row:<r>/slot:<s>`` slots; Lords and Scouts are sticker pawns
standing in the slot of their position; each seat's estate columns hold its tiles as small
chips stacked down the column, with its special-coin and story tokens (sticker tokens) at the
column's foot; graveyard tiles lie in a row in ``seat:<seat>/graveyard``. The simulated camera
draws this, and the camera profile's regions and stickers (``camera/profile.json``) name the
same places and labels.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.games.middle_ages.components import ESTATES, Tile
from engine.games.middle_ages.state import Player, State
from engine.layout import Placed, Rect

TILE_MM = 45.0
"""A tile's printed size (the row slots are drawn a little larger)."""
PAWN_OFFSETS_MM = ((-11.0, -11.0), (11.0, -11.0), (-11.0, 11.0), (11.0, 11.0), (0.0, 0.0))
"""Where the first, second... pawn standing in one slot stands, from the slot's centre."""
ESTATE_CHIP_MM = 12.0
TOKEN_STAGGER_MM = 16.0
GRAVE_CHIP_MM = 20.0


def tile_key(tile: Tile) -> str:
    """The art key of a tile (one picture per distinct face and back)."""
    return f"ma:{tile.estate}:{tile.number}:{tile.back}:{tile.farmers}:{tile.chests}"


def tile_attrs(tile: Tile) -> dict[str, Any]:
    """A tile's readable attributes in the shared vocabulary."""
    return {
        "estate": tile.estate,
        "number": tile.number,
        "back": tile.back,
        "farmers": tile.farmers,
        "chests": tile.chests,
    }


def camera_faces(tiles: tuple[Tile, ...]) -> dict[str, dict[str, Any]]:
    """The stand-in art's face map: ``tile_key`` → ``tile_attrs`` for every tile of the box."""
    return {tile_key(t): tile_attrs(t) for t in tiles}


def _tokens(player: Player, estate: str) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = [
        ("special-coin-token", {}) for e in player.special_coins if e == estate
    ]
    out += [
        (f"story-token:{t.symbol}", {"symbol": t.symbol})
        for t in player.story_tokens
        if t.estate == estate
    ]
    return out


def layout(state: State, regions: Mapping[str, Rect]) -> tuple[Placed, ...]:
    """Every component of ``state`` placed in the profile's ``regions``.

    Raises:
        ValueError: the profile has no region for a piece of the state.
    """

    def region(name: str) -> Rect:
        if name not in regions:
            raise ValueError(f"the board profile has no region {name!r}")
        return regions[name]

    def tile_seen(tile: Tile, name: str) -> dict[str, Any]:
        return {"component": "tile", "region": name, "attrs": tile_attrs(tile)}

    out: list[Placed] = []
    for r, row in enumerate(state.rows, start=1):
        for s, tile in enumerate(row, start=1):
            if tile is None:
                continue
            name = f"row:{r}/slot:{s}"
            x, y, w, h = region(name)
            size = (TILE_MM - 4, TILE_MM - 4)
            out.append(Placed("picture", tile_key(tile), (x + w / 2, y + h / 2), size,
                              tile_seen(tile, name)))  # fmt: skip
    standing: dict[str, int] = {}
    for kind in ("lord", "scout"):
        for player in state.players:
            pos = getattr(player, kind)
            if pos is None:
                continue
            name = f"row:{pos.row}/slot:{pos.slot}"
            x, y, w, h = region(name)
            k = standing.get(name, 0)
            standing[name] = k + 1
            dx, dy = PAWN_OFFSETS_MM[min(k, len(PAWN_OFFSETS_MM) - 1)]
            label = f"{kind}:{player.seat}"
            out.append(Placed("sticker", label, (x + w / 2 + dx, y + h / 2 + dy), (0.0, 0.0),
                              {"component": label, "region": name, "attrs": {}}))  # fmt: skip
    for player in state.players:
        for i, (estate, column) in enumerate(zip(ESTATES, player.board, strict=True)):
            if not column and not _tokens(player, estate):
                continue
            name = f"seat:{player.seat}/estate:{estate}"
            x, y, w, h = region(name)
            for k, tile in enumerate(column):
                center = (x + w / 2, y + 7 + k * 4.5)
                chip = (ESTATE_CHIP_MM, ESTATE_CHIP_MM)
                out.append(Placed("picture", tile_key(tile), center, chip, tile_seen(tile, name)))
            for k, (label, attrs) in enumerate(_tokens(player, estate)):
                # Columns are 13 mm apart and a token is 16 mm across: neighbouring columns
                # stagger their tokens so no two touch (a covered quiet zone hides a sticker).
                foot = y + h - 8 - (i % 2) * TOKEN_STAGGER_MM - k * 2 * TOKEN_STAGGER_MM
                seen = {"component": label.split(":")[0], "region": name, "attrs": attrs}
                out.append(Placed("sticker", label, (x + w / 2, foot), (0.0, 0.0), seen))
        if player.graveyard:
            name = f"seat:{player.seat}/graveyard"
            x, y, w, h = region(name)
            for k, tile in enumerate(player.graveyard):
                center = (
                    x + 12 + k * min(9.0, (w - 24) / max(1, len(player.graveyard))),
                    y + h / 2,
                )
                chip = (GRAVE_CHIP_MM, GRAVE_CHIP_MM)
                out.append(Placed("picture", tile_key(tile), center, chip, tile_seen(tile, name)))
    return tuple(out)
