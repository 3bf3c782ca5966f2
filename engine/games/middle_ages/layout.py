"""Middle Ages on the camera's board profile: where each tile, pawn and token lies.

Row tiles lie face up in their ``row:<r>/slot:<s>`` slots; Lords and Scouts are sticker pawns
standing in the slot of their position; each seat's estate columns hold its tiles as small
chips stacked down the column, with its special-coin and story tokens (sticker tokens) at the
column's foot; graveyard tiles lie in a row in ``seat:<seat>/graveyard``. The simulated camera
draws this, and the camera profile's regions and stickers (``camera/profile.json``) name the
same places and labels.

Read back (camera and Tabletop Simulator input): a table source (vision, TTS) reports
observations — a component in a board region, with the attributes it could read — in the
profile vocabulary both sources share: ``lord:<seat>`` and ``scout:<seat>`` in
``row:<r>/slot:<s>``; ``tile`` (attrs ``estate``, and when readable
``number``, ``back``, ``farmers``, ``chests``) in a row slot, in ``seat:<seat>/estate:<E>`` or in
``seat:<seat>/graveyard``; ``special-coin-token`` and ``story-token`` (attr ``symbol``) in
``seat:<seat>/estate:<E>``. A source that cannot read some region (a camera reads tiles only in
the row slots, and a slot under pawns or a hand may be unreadable) says so with
``{"component": "unread", "region": R, "attrs": {"kind": K}}``: pieces of kind ``K`` in ``R``
are then left out of the comparison on both sides, never assumed present or absent. Only the
kinds of piece an observation shows are compared (a Tabletop Simulator profile without scouts
says nothing about scouts); a source that reads a kind everywhere, so that seeing none means
there is none, says so with ``{"component": "coverage", "attrs": {"kinds": [K, ...]}}``.

The matching itself is the core's (``engine.interpret``); this module says how Middle Ages
lies on the table: its pieces, how a read tile or story token is named, the discarded tile that
may linger in its row, the refill the table shows, and the choice a move's effect asks for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.games.middle_ages import play
from engine.games.middle_ages.components import ESTATES, Tile
from engine.games.middle_ages.moves import Reveal
from engine.games.middle_ages.state import Player, State
from engine.interpret import Key
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


# --- reading ------------------------------------------------------------------------------------

KINDS: tuple[str, ...] = ("lord", "scout", "tile", "special-coin-token", "story-token")


class MiddleAgesTable:
    """Middle Ages in the profile vocabulary (``engine.interpret.TableReading``)."""

    kinds = KINDS

    def pieces(self, state: State, kinds: set[str]) -> Counter[Key]:
        """The position as (component, region) pieces."""
        out: Counter[Key] = Counter()
        for r, row in enumerate(state.rows, start=1):
            for s, tile in enumerate(row, start=1):
                if tile is not None and "tile" in kinds:
                    out[(f"tile:{tile.estate}", f"row:{r}/slot:{s}")] += 1
        for p in state.players:
            if p.lord is not None and "lord" in kinds:
                out[(f"lord:{p.seat}", f"row:{p.lord.row}/slot:{p.lord.slot}")] += 1
            if p.scout is not None and "scout" in kinds:
                out[(f"scout:{p.seat}", f"row:{p.scout.row}/slot:{p.scout.slot}")] += 1
            if "tile" in kinds:
                for estate, column in zip(ESTATES, p.board, strict=True):
                    if column:
                        out[(f"tile:{estate}", f"seat:{p.seat}/estate:{estate}")] += len(column)
                for tile in p.graveyard:
                    out[(f"tile:{tile.estate}", f"seat:{p.seat}/graveyard")] += 1
            if "special-coin-token" in kinds:
                for estate in p.special_coins:
                    out[("special-coin-token", f"seat:{p.seat}/estate:{estate}")] += 1
            if "story-token" in kinds:
                for token in p.story_tokens:
                    region = f"seat:{p.seat}/estate:{token.estate}"
                    out[(f"story-token:{token.symbol}", region)] += 1
        return out

    def component(self, kind: str, component: str, attrs: Mapping[str, Any]) -> str:
        if kind == "tile":
            return f"tile:{attrs.get('estate')}" if attrs.get("estate") in ESTATES else "tile:?"
        if kind == "story-token":
            symbol = attrs.get("symbol")
            return f"story-token:{symbol}" if symbol in ESTATES else "story-token:?"
        return component

    def forgive(self, state: State, missing: Counter[Key], extra: Counter[Key]) -> None:
        """The unclaimed tile the rules discard at a round's start (L127-128) may still lie in
        its row until someone clears it: an extra tile in a row slot is forgiven while the
        discard pile holds a tile of that estate."""
        discarded: Counter[str] = Counter(t.estate for t in (*state.discard, *state.restack))
        for (component, region), n in list(extra.items()):
            if not (component.startswith("tile:") and region.startswith("row:")):
                continue
            estate = component.split(":", 1)[1]
            if discarded[estate]:
                forgiven = min(n, discarded[estate])
                discarded[estate] -= forgiven
                extra[(component, region)] -= forgiven

    def chance(self, state: State, seen: Sequence[Mapping[str, Any]]) -> list[Any]:
        """The Reveal of the row the table must lay now, if every tile's back and face were
        read (number, back colour, estate, Farmer and Chest symbols): none is ever assumed."""
        if state.phase not in ("setup-rows", "refill"):
            return []
        row = state.rows_laid + 1 if state.phase == "setup-rows" else play.lords_row(state.round)
        tiles: dict[int, Tile] = {}
        for item in seen:
            region = item.get("region")
            if item.get("component") != "tile" or not isinstance(region, str):
                continue
            if not region.startswith(f"row:{row}/slot:"):
                continue
            attrs = item.get("attrs") or {}
            try:
                slot = int(region.rsplit(":", 1)[1])
                tiles[slot] = Tile(
                    int(attrs["number"]),
                    attrs["back"],
                    attrs["estate"],
                    int(attrs["farmers"]),
                    int(attrs["chests"]),
                )
            except (KeyError, TypeError, ValueError):
                return []  # a face not read completely: the table must confirm the row
        if sorted(tiles) != list(range(1, state.row_length + 1)):
            return []
        return [Reveal(row, tuple(tiles[s] for s in sorted(tiles)))]

    def follow_ups(self, state: State, after: State) -> list[Any]:
        """The choice an effect asks of the seat that just moved (Village, Walls, ...)."""
        pending = after.pending
        if after.phase == "choice" and pending is not None and pending.seat == play.actor(state):
            return list(play.legal_moves(after))
        return []


TABLE_READING = MiddleAgesTable()
